# test_util/: helpers shared by tests (not part of the library).
list(APPEND STRATA_TEST_UTIL_SOURCES
  test_util/testutil.cc
)
