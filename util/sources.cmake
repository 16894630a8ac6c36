# util/: coding, checksums, hashing, arenas, random, histogram, thread pool,
# Status/Slice/comparators. Depends only on the public API.
strata_layer(util
  SOURCES
    util/coding.cc
    util/comparator.cc
    util/slice.cc
    util/status.cc
)
strata_tests(util
)
