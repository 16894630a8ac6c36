# memtable/: InlineSkipList, BTreeIndex and MemTable.
strata_layer(memtable
  SOURCES
    memtable/memtable.cc
    memtable/point_index.cc
    memtable/dynamic_bloom.cc
  DEPS base util cache  # cache: WriteBufferManager (issue 19)
)
strata_tests(memtable
  memtable/inline_skiplist_test.cc
  memtable/btree_index_test.cc
  memtable/memtable_test.cc
  memtable/point_index_test.cc
  memtable/dynamic_bloom_test.cc
)
