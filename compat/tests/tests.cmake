# Tests of libstrata-rocksdb (included from compat/CMakeLists.txt).
#
# 1. Compared programs (compat/examples/*.cc), written against RocksDB's
#    C++ interface: each is built against the system RocksDB
#    (/usr/include/rocksdb, -lrocksdb) and against compat/include with
#    libstrata-rocksdb; compare_outputs.cmake runs both on fresh
#    directories and compares their stdout byte for byte.
# 2. compat_options_test: options conversion and refusal (GoogleTest);
#    compat_db_test: random operations through rocksdb::DB against a map;
#    compat_convenience_test: options from text and OPTIONS files;
#    compat_env_test: user Envs, FileSystems and clocks under a database.
#    compat_framework_test: unique ids, encrypted databases and LDBCommand
#    (against librocksdb through rocksdb_framework_tool), thread pool,
#    registry helpers, EnvMirror, tool entry points.
# 5. compat_headers_alone: every compat header compiled on its own.
# 3. compat_side_by_side: one program using Strata's native API and the
#    system RocksDB together.
# 4. compat_no_rocksdb_symbols: libstrata exports no rocksdb:: symbol.
set(STRATA_COMPAT_PROGRAMS basic_crud column_families callbacks tuning pinnable_bounds utilities transactions backup listeners stacked env experimental registry agg_merge migration dump caches sst_partitioner wal_filter file_checksum db_surface options_extras)
# Status/IOStatus texts, Slice helpers, SharedCleanablePtr, iterator
# properties and columns (compat/examples/status_slice.cc).
list(APPEND STRATA_COMPAT_PROGRAMS status_slice)
list(APPEND STRATA_COMPAT_PROGRAMS plugins)
list(APPEND STRATA_COMPAT_PROGRAMS txn_surface)
# Loggers written with RocksDB's level type (compat/examples/logger.cc).
list(APPEND STRATA_COMPAT_PROGRAMS logger)
foreach(prog ${STRATA_COMPAT_PROGRAMS})
  set(src ${CMAKE_SOURCE_DIR}/compat/examples/${prog}.cc)
  if(NOT EXISTS ${src})
    continue()
  endif()
  add_executable(compat_${prog}_strata ${src})
  target_link_libraries(compat_${prog}_strata PRIVATE strata-rocksdb)
  strata_rocksdb_program(compat_${prog}_rocksdb ${src})
  # Without RocksDB only the Strata build runs (on a directory the script
  # creates: like RocksDB, Open makes the last path component only).
  set(rocksdb_program "")
  if(TARGET compat_${prog}_rocksdb)
    set(rocksdb_program $<TARGET_FILE:compat_${prog}_rocksdb>)
  endif()
  add_test(NAME compat_compare_${prog}
           COMMAND ${CMAKE_COMMAND}
                   -DSTRATA_PROGRAM=$<TARGET_FILE:compat_${prog}_strata>
                   "-DROCKSDB_PROGRAM=${rocksdb_program}"
                   -DWORK_DIR=${CMAKE_BINARY_DIR}/compat_compare/${prog}
                   -P ${CMAKE_SOURCE_DIR}/compat/tests/compare_outputs.cmake)
  set_tests_properties(compat_compare_${prog} PROPERTIES LABELS compat TIMEOUT 120)
endforeach()

foreach(t compat_options_test compat_db_test compat_convenience_test compat_env_test compat_tools_test compat_framework_test compat_caches_test
          compat_plugins_test)
  add_executable(${t} ${CMAKE_SOURCE_DIR}/compat/tests/${t}.cc)
  target_link_libraries(${t} PRIVATE strata-rocksdb-static strata_test_util GTest::gtest_main)
  add_test(NAME ${t} COMMAND ${t})
  set_tests_properties(${t} PROPERTIES LABELS compat TIMEOUT 120)
endforeach()

# The native API and the system RocksDB in one program: built like the
# RocksDB-only helpers (no sanitizer) and linked with libstrata.a.
if(ROCKSDB_LIB AND STRATA_SANITIZE STREQUAL "")
  add_executable(compat_side_by_side ${CMAKE_SOURCE_DIR}/compat/tests/side_by_side.cc)
  target_link_libraries(compat_side_by_side PRIVATE strata ${ROCKSDB_LIB})
  add_test(NAME compat_side_by_side
           COMMAND compat_side_by_side ${CMAKE_BINARY_DIR}/compat_side_by_side)
  set_tests_properties(compat_side_by_side PROPERTIES LABELS compat TIMEOUT 120)
endif()

add_test(NAME compat_no_rocksdb_symbols
         COMMAND ${CMAKE_SOURCE_DIR}/compat/tests/check_symbols.sh
                 $<TARGET_FILE:strata> $<TARGET_FILE:strata_shared>
                 $<TARGET_FILE:strata-rocksdb> $<TARGET_FILE:strata-rocksdb-static>)
set_tests_properties(compat_no_rocksdb_symbols PROPERTIES LABELS compat TIMEOUT 120)

# compat_framework_test compares with RocksDB through a helper linked
# against the system librocksdb only; without it those tests skip.
strata_rocksdb_program(rocksdb_framework_tool ${CMAKE_SOURCE_DIR}/compat/tests/rocksdb_framework_tool.cc)
if(TARGET rocksdb_framework_tool)
  add_dependencies(compat_framework_test rocksdb_framework_tool)
  target_compile_definitions(compat_framework_test PRIVATE
    STRATA_ROCKSDB_FRAMEWORK_TOOL="$<TARGET_FILE:rocksdb_framework_tool>")
endif()

# Every header of compat/include/rocksdb/ compiles when included alone, as
# C++17 (what RocksDB 7.8.3's programs use): one translation unit per
# header, built as part of the tree.
file(GLOB_RECURSE compat_public_headers CONFIGURE_DEPENDS
     RELATIVE ${CMAKE_SOURCE_DIR}/compat/include ${CMAKE_SOURCE_DIR}/compat/include/rocksdb/*.h)
# rocks_lua_util.h includes the Lua headers unconditionally (as RocksDB's
# does): it is compiled alone only where they are installed.
include(CheckIncludeFileCXX)
check_include_file_cxx(lua.h STRATA_HAVE_LUA_H)
if(NOT STRATA_HAVE_LUA_H)
  list(REMOVE_ITEM compat_public_headers rocksdb/utilities/lua/rocks_lua_util.h)
endif()
set(compat_header_tus "")
foreach(h ${compat_public_headers})
  string(REGEX REPLACE "[/.]" "_" stem ${h})
  set(tu ${CMAKE_BINARY_DIR}/compat_headers_alone/${stem}.cc)
  file(CONFIGURE OUTPUT ${tu} CONTENT "#include \"${h}\"\n")
  list(APPEND compat_header_tus ${tu})
endforeach()
add_library(compat_headers_alone OBJECT ${compat_header_tus})
set_target_properties(compat_headers_alone PROPERTIES CXX_STANDARD 17)
target_include_directories(compat_headers_alone PRIVATE
  ${CMAKE_SOURCE_DIR}/compat/include ${CMAKE_SOURCE_DIR}/include)

# compat_status_test: IOStatus, SharedCleanablePtr, iterator properties and
# columns, snapshot times.
add_executable(compat_status_test ${CMAKE_SOURCE_DIR}/compat/tests/compat_status_test.cc)
target_link_libraries(compat_status_test PRIVATE strata-rocksdb-static strata_test_util
                      GTest::gtest_main)
add_test(NAME compat_status_test COMMAND compat_status_test)
set_tests_properties(compat_status_test PROPERTIES LABELS compat TIMEOUT 120)

# compat_db_surface_test: rocksdb::DB's members beyond reads and writes.
add_executable(compat_db_surface_test ${CMAKE_SOURCE_DIR}/compat/tests/compat_db_surface_test.cc)
target_link_libraries(compat_db_surface_test PRIVATE strata-rocksdb-static strata_test_util
                      GTest::gtest_main)
add_test(NAME compat_db_surface_test COMMAND compat_db_surface_test)
set_tests_properties(compat_db_surface_test PROPERTIES LABELS compat TIMEOUT 120)

# header_gaps.py: nothing of RocksDB's same-named headers is missing beyond
# the known list (compat/tests/header_gaps_known.txt).
find_program(STRATA_CLANGXX_FOR_GAPS clang++)
find_package(Python3 COMPONENTS Interpreter QUIET)
if(STRATA_CLANGXX_FOR_GAPS AND Python3_Interpreter_FOUND AND EXISTS /usr/include/rocksdb/db.h)
  add_test(NAME compat_header_gaps
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/compat/tests/header_gaps.py
                   --allow ${CMAKE_SOURCE_DIR}/compat/tests/header_gaps_known.txt)
  set_tests_properties(compat_header_gaps PROPERTIES LABELS compat TIMEOUT 600)
endif()

# compat_txn_surface_test: transaction, batch and backup members whose
# Strata answers differ from RocksDB's (refusals) or do not print.
add_executable(compat_txn_surface_test ${CMAKE_SOURCE_DIR}/compat/tests/compat_txn_surface_test.cc)
target_link_libraries(compat_txn_surface_test PRIVATE strata-rocksdb-static strata_test_util
                      GTest::gtest_main)
add_test(NAME compat_txn_surface_test COMMAND compat_txn_surface_test)
set_tests_properties(compat_txn_surface_test PROPERTIES LABELS compat TIMEOUT 120)
