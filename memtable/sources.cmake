# memtable/: InlineSkipList and MemTable.
strata_layer(memtable
  SOURCES
    memtable/memtable.cc
  DEPS util
)
strata_tests(memtable
  memtable/inline_skiplist_test.cc
  memtable/memtable_test.cc
)
# MemTable::Get takes a LookupKey, whose constructor lives in the db layer
# (db/dbformat.cc, above this one); the test compiles that one file in.
if(TARGET memtable_test)
  target_sources(memtable_test PRIVATE db/dbformat.cc)
endif()
