# util/: owned by the util layer. Sources, tests and benchmarks.
list(APPEND STRATA_SOURCES
  util/coding.cc
  util/comparator.cc
  util/slice.cc
  util/status.cc
)
list(APPEND STRATA_TESTS
)
