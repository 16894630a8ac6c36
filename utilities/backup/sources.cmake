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
