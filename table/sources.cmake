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
find_library(ROCKSDB_LIB rocksdb)
if(STRATA_BUILD_TESTS AND ROCKSDB_LIB)
  add_executable(rocksdb_sst_tool test_util/rocksdb_sst_tool.cc)
  target_link_libraries(rocksdb_sst_tool PRIVATE ${ROCKSDB_LIB})
  # The oracle is RocksDB's code, not ours: built without sanitizers (an
  # instrumented main over the uninstrumented librocksdb reports RocksDB's
  # own internals under TSan).
  if(NOT STRATA_SANITIZE STREQUAL "")
    get_target_property(tool_opts rocksdb_sst_tool COMPILE_OPTIONS)
    list(FILTER tool_opts EXCLUDE REGEX "^-fsanitize")
    set_target_properties(rocksdb_sst_tool PROPERTIES COMPILE_OPTIONS "${tool_opts}")
    get_target_property(tool_link rocksdb_sst_tool LINK_OPTIONS)
    list(FILTER tool_link EXCLUDE REGEX "^-fsanitize")
    set_target_properties(rocksdb_sst_tool PROPERTIES LINK_OPTIONS "${tool_link}")
  endif()
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
