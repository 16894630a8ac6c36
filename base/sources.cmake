# base/: what memtables, tables and the DB all share about keys (DESIGN.md
# section 2): the internal key format and its comparator, InternalIterator,
# merge operands and the full merge, fragmented range tombstones, and
# GetContext, the point-lookup state machine.
strata_layer(base
  SOURCES
    base/dbformat.cc
    base/get_context.cc
    base/merge.cc
    base/range_tombstone.cc
  DEPS util
)
strata_tests(base
  base/dbformat_test.cc
  base/range_tombstone_test.cc
)
