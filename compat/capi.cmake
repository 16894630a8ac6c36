# compat/capi.cmake: the C API (rocksdb/c.h) and its tests.
#
# The C API sources are compiled into the compat layer's object library
# `strata_rocksdb_obj`, so both libstrata-rocksdb.so and libstrata-rocksdb.a
# carry them; c_test runs against the shared library (Strata), and
# c_test_rocksdb runs the same file against RocksDB's own C API.
#
# Each c_<area>.cc includes only the RocksDB headers of its area (see
# capi/c_internal.h); an area the compat layer cannot back yet can be
# replaced in this list by a file of error stubs, and capi/coverage.txt
# updated to match (the capi_coverage test checks both).
# Included once, from compat's own CMakeLists (after it defines
# strata_rocksdb_obj).
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
  ${STRATA_CAPI_DIR}/capi/c_timestamp_stubs.cc
  ${STRATA_CAPI_DIR}/capi/c_txn.cc
  ${STRATA_CAPI_DIR}/capi/c_misc.cc)

set(STRATA_CAPI_LIB "")
if(TARGET strata_rocksdb_obj)
  # Both libstrata-rocksdb.so and .a are made of strata_rocksdb_obj's
  # objects, so both carry the C API.
  target_sources(strata_rocksdb_obj PRIVATE ${STRATA_CAPI_SOURCES})
  target_include_directories(strata_rocksdb_obj PRIVATE ${STRATA_CAPI_DIR}/..)
  set(STRATA_CAPI_LIB strata-rocksdb)
endif()

if(STRATA_BUILD_TESTS AND STRATA_CAPI_LIB)
  add_executable(c_test ${STRATA_CAPI_DIR}/c_test.c)
  set_target_properties(c_test PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON)
  target_include_directories(c_test BEFORE PRIVATE ${STRATA_CAPI_DIR}/include)
  target_link_libraries(c_test PRIVATE ${STRATA_CAPI_LIB})
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
