# memtable/: InlineSkipList and MemTable.
strata_layer(memtable
  SOURCES
    memtable/memtable.cc
    memtable/point_index.cc
  DEPS util
)
strata_tests(memtable
  memtable/inline_skiplist_test.cc
  memtable/memtable_test.cc
  memtable/point_index_test.cc
)
# MemTable::Get takes a LookupKey, whose constructor lives in the db layer
# (db/dbformat.cc, above this one); the test compiles that one file in.
foreach(t memtable_test point_index_test)
  if(TARGET ${t})
    target_sources(${t} PRIVATE db/dbformat.cc)
  endif()
endforeach()
