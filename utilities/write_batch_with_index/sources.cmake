# utilities/write_batch_with_index/: WriteBatchWithIndex (a WriteBatch with a
# searchable index, readable alone or over a DB iterator). Built on the public
# DB API plus util/ (arena, coding); the layer is named after its folder, as
# merge_operators is, so other utilities get layers of their own.
strata_layer(write_batch_with_index
  SOURCES
    utilities/write_batch_with_index/write_batch_index.cc
    utilities/write_batch_with_index/base_delta_iterator.cc
    utilities/write_batch_with_index/write_batch_with_index.cc
  DEPS db util
)
strata_tests(write_batch_with_index
  utilities/write_batch_with_index/write_batch_with_index_test.cc
)
# The tests use the built-in merge operators when that layer exists.
if(TARGET write_batch_with_index_test AND TARGET strata_merge_operators)
  target_link_libraries(write_batch_with_index_test PRIVATE strata_merge_operators)
  target_compile_definitions(write_batch_with_index_test PRIVATE STRATA_HAVE_MERGE_OPERATORS=1)
endif()
