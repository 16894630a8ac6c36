# cache/: the block cache (sharded LRU) behind strata::Cache.
strata_layer(cache
  SOURCES
    cache/lru_cache.cc
  DEPS util
)
strata_tests(cache
  cache/lru_cache_test.cc
)
