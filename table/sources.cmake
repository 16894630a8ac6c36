# table/: block format, block-based table builder/reader, filters.
strata_layer(table
  SOURCES
    table/block.cc
    table/block_builder.cc
    table/flush_block_policy.cc
    table/data_block_hash_index.cc
    table/format.cc
    table/filter_policy.cc
    table/ribbon_filter.cc
    table/full_filter_block.cc
    # Partitioned index and filters (issue 19).
    table/partitioned_index.cc
    table/partitioned_filter_block.cc
    table/compression.cc
    table/meta_blocks.cc
    table/merging_iterator.cc
    table/block_based_table_builder.cc
    table/block_based_table_reader.cc
    table/block_based_table_factory.cc
    table/sst_file_writer.cc
    table/table_properties.cc
  DEPS env cache base util
)
strata_tests(table
  table/block_test.cc
  table/table_memory_charge_test.cc  # issue 19
  table/data_block_hash_index_test.cc
  table/format_test.cc
  table/format_version_test.cc
  table/filter_policy_test.cc
  table/ribbon_filter_test.cc
  table/full_filter_block_test.cc
  table/compression_test.cc
  table/compression_dict_test.cc
  table/meta_blocks_test.cc
  table/merging_iterator_test.cc
  table/block_based_table_test.cc
  table/table_corruption_test.cc
  table/sst_file_writer_test.cc
  table/table_interop_test.cc
  table/table_properties_test.cc
  table/block_based_table_factory_test.cc
  table/prefix_filter_test.cc
  table/prefix_filter_interop_test.cc
  table/compression_dict_interop_test.cc
  table/ribbon_interop_test.cc
  table/partitioned_index_test.cc
)
if(TARGET compression_dict_interop_test)
  set_tests_properties(compression_dict_interop_test PROPERTIES LABELS "table;interop")
endif()
# RocksDB interoperability (table_interop_test): a helper program linked
# against the system librocksdb only -- never with our libraries, so no
# symbol can clash. Without librocksdb the test builds and skips itself.
strata_rocksdb_program(rocksdb_sst_tool test_util/rocksdb_sst_tool.cc)
# Ribbon filters against RocksDB (ribbon_interop_test).
strata_rocksdb_program(rocksdb_ribbon_tool test_util/rocksdb_ribbon_tool.cc)
if(TARGET rocksdb_ribbon_tool AND TARGET ribbon_interop_test)
  add_dependencies(ribbon_interop_test rocksdb_ribbon_tool)
  target_compile_definitions(ribbon_interop_test PRIVATE
    STRATA_ROCKSDB_RIBBON_TOOL="$<TARGET_FILE:rocksdb_ribbon_tool>")
  set_tests_properties(ribbon_interop_test PROPERTIES LABELS "table;interop")
endif()
if(TARGET rocksdb_sst_tool)
  if(TARGET table_interop_test)
    add_dependencies(table_interop_test rocksdb_sst_tool)
    target_compile_definitions(table_interop_test PRIVATE
      STRATA_ROCKSDB_SST_TOOL="$<TARGET_FILE:rocksdb_sst_tool>")
    set_tests_properties(table_interop_test PROPERTIES LABELS "table;interop")
  endif()
  if(TARGET prefix_filter_interop_test)
    add_dependencies(prefix_filter_interop_test rocksdb_sst_tool)
    target_compile_definitions(prefix_filter_interop_test PRIVATE
      STRATA_ROCKSDB_SST_TOOL="$<TARGET_FILE:rocksdb_sst_tool>")
    set_tests_properties(prefix_filter_interop_test PROPERTIES LABELS "table;interop")
  endif()
endif()
