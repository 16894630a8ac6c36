# utilities/checkpoint/: Checkpoint (an openable copy of a live DB made of
# hard links and trimmed copies) and ExportColumnFamily. Built on the public
# DB API (GetLiveFilesStorageInfo, DisableFileDeletions) and the FileSystem.
strata_layer(checkpoint
  SOURCES
    utilities/checkpoint/checkpoint.cc
  DEPS db env util
)
strata_tests(checkpoint
  utilities/checkpoint/checkpoint_test.cc
  utilities/checkpoint/export_import_test.cc
  utilities/checkpoint/checkpoint_db_paths_test.cc
)
