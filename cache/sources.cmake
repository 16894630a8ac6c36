# cache/: the block caches (sharded LRU, HyperClockCache) behind strata::Cache.
strata_layer(cache
  SOURCES
    cache/lru_cache.cc
    cache/clock_cache.cc  # issue 19 item 6: HyperClockCache
    cache/cache_reservation_manager.cc  # issue 19 memory
    cache/write_buffer_manager.cc
  DEPS util
)
strata_tests(cache
  cache/lru_cache_test.cc
  cache/clock_cache_test.cc
  cache/cache_reservation_manager_test.cc
  cache/write_buffer_manager_test.cc
)
