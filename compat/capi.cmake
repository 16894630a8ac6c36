# compat/capi.cmake: the C API (rocksdb/c.h) and its tests.
#
# When the compat layer's library target `strata-rocksdb` exists, the C API
# sources are compiled into it and the C test links it. Until then the same
# sources are built against the system RocksDB's C++ headers into
# strata_capi_dev, linked with -lrocksdb, so the C test runs against real
# RocksDB (our rocksdb_* definitions take precedence over the library's).
#
# Each c_<area>.cc includes only the RocksDB headers of its area (see
# capi/c_internal.h); an area the compat layer cannot back yet can be
# replaced in this list by a file of error stubs, and capi/coverage.txt
# updated to match (the capi_coverage test checks both).
# Included once: from the top-level CMakeLists until the compat layer lands,
# then from compat's own CMakeLists (after it defines strata-rocksdb).
include_guard(GLOBAL)

set(STRATA_CAPI_DIR ${CMAKE_CURRENT_LIST_DIR})
set(STRATA_CAPI_SOURCES
  ${STRATA_CAPI_DIR}/capi/c_internal.cc
  ${STRATA_CAPI_DIR}/capi/c_db.cc
  ${STRATA_CAPI_DIR}/capi/c_batch.cc
  ${STRATA_CAPI_DIR}/capi/c_batch_wi.cc
  ${STRATA_CAPI_DIR}/capi/c_iter.cc
  ${STRATA_CAPI_DIR}/capi/c_options.cc
  ${STRATA_CAPI_DIR}/capi/c_convenience.cc
  ${STRATA_CAPI_DIR}/capi/c_table.cc
  ${STRATA_CAPI_DIR}/capi/c_callbacks.cc
  ${STRATA_CAPI_DIR}/capi/c_checkpoint.cc
  ${STRATA_CAPI_DIR}/capi/c_backup.cc
  ${STRATA_CAPI_DIR}/capi/c_ingest.cc
  ${STRATA_CAPI_DIR}/capi/c_timestamp.cc
  ${STRATA_CAPI_DIR}/capi/c_txn.cc
  ${STRATA_CAPI_DIR}/capi/c_misc.cc)

find_library(STRATA_CAPI_ROCKSDB_LIB rocksdb)
set(STRATA_CAPI_LIB "")
if(TARGET strata-rocksdb)
  target_sources(strata-rocksdb PRIVATE ${STRATA_CAPI_SOURCES})
  target_include_directories(strata-rocksdb PRIVATE ${STRATA_CAPI_DIR}/..)
  set(STRATA_CAPI_LIB strata-rocksdb)
elseif(STRATA_CAPI_ROCKSDB_LIB)
  add_library(strata_capi_dev STATIC ${STRATA_CAPI_SOURCES})
  # compat/include first: its rocksdb/c.h (ours) shadows the system one;
  # every other rocksdb/*.h comes from the system RocksDB.
  target_include_directories(strata_capi_dev BEFORE PUBLIC ${STRATA_CAPI_DIR}/include)
  target_include_directories(strata_capi_dev PRIVATE ${STRATA_CAPI_DIR}/..)
  target_link_libraries(strata_capi_dev PUBLIC ${STRATA_CAPI_ROCKSDB_LIB})
  set(STRATA_CAPI_LIB strata_capi_dev)
endif()

if(STRATA_BUILD_TESTS AND STRATA_CAPI_LIB)
  add_executable(c_test ${STRATA_CAPI_DIR}/c_test.c)
  set_target_properties(c_test PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON)
  target_include_directories(c_test BEFORE PRIVATE ${STRATA_CAPI_DIR}/include)
  target_link_libraries(c_test PRIVATE ${STRATA_CAPI_LIB})
  if(STRATA_CAPI_LIB STREQUAL "strata_capi_dev" AND NOT STRATA_SANITIZE STREQUAL "")
    # RocksDB's own code answers here; as for strata_rocksdb_program, an
    # instrumented build over the uninstrumented librocksdb reports RocksDB's
    # internals, so the development build goes without sanitizers.
    foreach(t strata_capi_dev c_test)
      foreach(prop COMPILE_OPTIONS LINK_OPTIONS)
        get_target_property(opts ${t} ${prop})
        if(opts)
          list(FILTER opts EXCLUDE REGEX "^-fsanitize")
          set_target_properties(${t} PROPERTIES ${prop} "${opts}")
        endif()
      endforeach()
    endforeach()
  endif()
  add_test(NAME c_test COMMAND c_test)
  set_tests_properties(c_test PROPERTIES LABELS compat TIMEOUT 300)
endif()

# The same C test against RocksDB's own C API (librocksdb and its c.h):
# what c_test expects of our C API, RocksDB's gives too.
if(STRATA_BUILD_TESTS AND COMMAND strata_rocksdb_program)
  strata_rocksdb_program(c_test_rocksdb ${STRATA_CAPI_DIR}/c_test.c)
  if(TARGET c_test_rocksdb)
    target_compile_definitions(c_test_rocksdb PRIVATE C_TEST_REFERENCE)
    set_target_properties(c_test_rocksdb PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON)
    add_test(NAME c_test_rocksdb COMMAND c_test_rocksdb)
    set_tests_properties(c_test_rocksdb PROPERTIES LABELS compat TIMEOUT 300)
  endif()
endif()

if(STRATA_BUILD_TESTS)
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_FOUND)
    # Checks coverage.txt against the declarations of our c.h (and of the
    # system's RocksDB c.h when installed), and that every function is
    # defined in the built C API library.
    set(cov_args ${STRATA_CAPI_DIR}/capi/check_coverage.py
        --header ${STRATA_CAPI_DIR}/include/rocksdb/c.h
        --coverage ${STRATA_CAPI_DIR}/capi/coverage.txt)
    if(EXISTS /usr/include/rocksdb/c.h)
      list(APPEND cov_args --reference /usr/include/rocksdb/c.h)
    endif()
    if(STRATA_CAPI_LIB)
      list(APPEND cov_args --library $<TARGET_FILE:${STRATA_CAPI_LIB}>)
    endif()
    add_test(NAME capi_coverage COMMAND ${Python3_EXECUTABLE} ${cov_args})
    set_tests_properties(capi_coverage PROPERTIES LABELS compat TIMEOUT 60)
  endif()
endif()
