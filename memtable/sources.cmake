# memtable/: skip list and memtable.
list(APPEND STRATA_SOURCES
)
list(APPEND STRATA_TESTS
)
