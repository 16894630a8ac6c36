# utilities/backup/: BackupEngine (include/strata/utilities/backup_engine.h),
# backups in RocksDB 7.8.3's directory layout and meta file format. Built on
# the public DB API (live files, file deletions) plus db/filename.h (file
# name parsing) and util/ (crc32c, mutex).
strata_layer(backup
  SOURCES
    utilities/backup/backup_meta.cc
    utilities/backup/backup_engine.cc
  DEPS db util
)
strata_tests(backup
  utilities/backup/backup_meta_test.cc
  utilities/backup/backup_engine_test.cc
  utilities/backup/backup_interop_test.cc
  utilities/backup/backup_db_paths_test.cc
)
# RocksDB's own BackupEngine for backup_interop_test: a helper linked
# against the system librocksdb only (strata_rocksdb_program, CMakeLists.txt);
# without it the test skips itself.
if(TARGET backup_interop_test)
  strata_rocksdb_program(rocksdb_backup_tool utilities/backup/rocksdb_backup_tool.cc)
endif()
if(TARGET rocksdb_backup_tool)
  add_dependencies(backup_interop_test rocksdb_backup_tool)
  target_compile_definitions(backup_interop_test PRIVATE
    STRATA_ROCKSDB_BACKUP_TOOL="$<TARGET_FILE:rocksdb_backup_tool>")
  set_tests_properties(backup_interop_test PROPERTIES LABELS "backup;interop")
endif()
if(TARGET backup_engine_test)
  target_link_libraries(backup_engine_test PRIVATE strata_db_test_util)
endif()
# Backups between Strata and RocksDB's ldb in both directions; skipped (77)
# without /usr/bin/ldb and /usr/bin/db_bench.
if(STRATA_BUILD_TESTS)
  add_test(NAME backup_compat_test
           COMMAND ${CMAKE_SOURCE_DIR}/scripts/test-backup-compat.sh ${CMAKE_BINARY_DIR})
  set_tests_properties(backup_compat_test PROPERTIES LABELS backup TIMEOUT 300
                       SKIP_RETURN_CODE 77)
endif()
# Over 8 s in a ctest -j2 run (real fsyncs; RocksDB's tools).
strata_slow_tests(backup_engine_test backup_interop_test backup_compat_test)
if(TARGET backup_db_paths_test)
  target_link_libraries(backup_db_paths_test PRIVATE strata_db_test_util)
endif()
