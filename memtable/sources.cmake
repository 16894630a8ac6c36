# memtable/: InlineSkipList and MemTable.
strata_layer(memtable
  SOURCES
  DEPS util
)
strata_tests(memtable
)
