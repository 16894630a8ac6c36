# utilities/table_properties_collectors/: ready-made table-properties
# collectors (CompactOnDeletionCollectorFactory). Public API only; the tests
# open DBs.
strata_layer(table_properties_collectors
  SOURCES
    utilities/table_properties_collectors/compact_on_deletion_collector.cc
  DEPS db
)
strata_tests(table_properties_collectors
  utilities/table_properties_collectors/compact_on_deletion_collector_test.cc
)
if(TARGET compact_on_deletion_collector_test)
  target_link_libraries(compact_on_deletion_collector_test PRIVATE strata_db_test_util)
endif()
