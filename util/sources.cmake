# util/: coding, checksums, hashing, arenas, random, histogram, thread pool,
# statistics, Status/Slice/comparators, sync points for tests. Depends only on
# the public API.
strata_layer(util
  SOURCES
    util/arena.cc
    util/coding.cc
    util/comparator.cc
    util/crc32c.cc
    util/crc32c_sse42.cc
    util/file_checksum.cc
    util/wal_filter.cc
    util/hash.cc
    util/histogram.cc
    util/slice.cc
    util/wide_columns.cc
    util/statistics.cc
    util/perf_context.cc
    util/iostats_context.cc
    util/status.cc
    util/iterator.cc
    util/thread_pool.cc
    util/merge_operator.cc
    util/mutex.cc
    util/compaction_filter.cc
    util/slice_transform.cc
    util/concurrent_task_limiter_impl.cc
    util/sync_point.cc
)
if(EXISTS ${CMAKE_SOURCE_DIR}/util/crc32c_sse42.cc)
  set_source_files_properties(util/crc32c_sse42.cc PROPERTIES COMPILE_OPTIONS "-msse4.2;-mpclmul")
endif()
strata_tests(util
  util/arena_test.cc
  util/coding_test.cc
  util/crc32c_test.cc
  util/hash_test.cc
  util/histogram_test.cc
  util/statistics_test.cc
  util/thread_pool_test.cc
  util/mutex_test.cc
  util/slice_transform_test.cc
  util/wide_columns_test.cc
  util/status_test.cc
  util/slice_test.cc
  util/comparator_test.cc
  util/sync_point_test.cc
)
