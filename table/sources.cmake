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
  DEPS env util
)
strata_tests(table
  table/block_test.cc
  table/data_block_hash_index_test.cc
  table/format_test.cc
  table/filter_policy_test.cc
  table/full_filter_block_test.cc
  table/compression_test.cc
)
