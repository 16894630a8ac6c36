# The internal key format (db/dbformat.cc) is shared by memtable/, table/ and
# db/: it is its own small library so the lower layers link it without the
# rest of db/. Merge resolution and range tombstone fragmenting sit here
# too: memtables and table lookups use them.
strata_layer(dbformat
  SOURCES
    db/dbformat.cc
    db/merge_helper.cc
    db/range_del_aggregator.cc
  DEPS util
)

# memtable/: InlineSkipList and MemTable.
strata_layer(memtable
  SOURCES
    memtable/memtable.cc
    memtable/point_index.cc
    memtable/dynamic_bloom.cc
  DEPS util dbformat
)
strata_tests(memtable
  memtable/inline_skiplist_test.cc
  memtable/memtable_test.cc
  memtable/point_index_test.cc
  memtable/dynamic_bloom_test.cc
)
