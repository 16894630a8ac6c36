# utilities/ttl/: DBWithTTL, a StackableDB whose entries expire (values
# stamped with their write time, removed by compactions after the family's
# ttl). Public DB API, plus WriteBatchInternal to re-encode a batch by
# family ID.
strata_layer(ttl
  SOURCES
    utilities/ttl/db_ttl.cc
  DEPS db env util transactions  # transactions: StackableDB's out-of-line members
)
strata_tests(ttl
  utilities/ttl/db_ttl_test.cc
)
