# db/: internal keys, write batch, WAL, write thread, DBImpl.
list(APPEND STRATA_SOURCES
  db/dbformat.cc
)
list(APPEND STRATA_TESTS
)
