# cache/: the block cache (sharded LRU) behind strata::Cache.
strata_layer(cache
  SOURCES
    cache/lru_cache.cc
    cache/cache_reservation_manager.cc  # issue 19 memory
    cache/write_buffer_manager.cc
  DEPS util
)
strata_tests(cache
  cache/lru_cache_test.cc
  cache/cache_reservation_manager_test.cc
  cache/write_buffer_manager_test.cc
)
