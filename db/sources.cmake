# db/: internal keys, write batch, WAL, write thread, versions, DBImpl.
strata_layer(db
  SOURCES
    db/dbformat.cc
  DEPS env memtable util
)
strata_tests(db
)
