# table/: block format, block-based table builder/reader, filters.
strata_layer(table
  SOURCES
    table/block.cc
    table/block_builder.cc
    table/data_block_hash_index.cc
    table/format.cc
    table/filter_policy.cc
    table/full_filter_block.cc
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
  table/filter_policy_test.cc
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
)
if(TARGET compression_dict_interop_test)
  set_tests_properties(compression_dict_interop_test PROPERTIES LABELS "table;interop")
endif()
# RocksDB interoperability (table_interop_test): a helper program linked
# against the system librocksdb only -- never with our libraries, so no
# symbol can clash. Without librocksdb the test builds and skips itself.
strata_rocksdb_program(rocksdb_sst_tool test_util/rocksdb_sst_tool.cc)
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
