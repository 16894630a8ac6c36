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
)
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
