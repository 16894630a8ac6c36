# db/: internal keys, write batch, WAL, write thread, versions, DBImpl.
strata_layer(db
  SOURCES
    db/db_impl.cc
    db/db_impl_open.cc
    db/db_impl_write.cc
    db/db_impl_txn.cc
    db/db_impl_options.cc
    db/db_impl_compaction_flush.cc
    db/version_set.cc
    db/column_family.cc
    db/compaction/compaction_picker.cc
    db/compaction/compaction_picker_universal.cc
    db/compaction/compaction_job.cc
    db/compaction/compression_for_level.cc
    db/compaction/compaction_picker_fifo.cc
    db/compaction/file_age.cc
    db/compaction/sst_partitioner.cc
    db/compaction/compaction_job_stats.cc
    db/compaction/rate_limited_input.cc
    db/builder.cc
    db/file_checksum_helper.cc
    db/flush_job.cc
    db/job_env.cc
    db/db_iter.cc
    db/filename.cc
    db/manifest_single_path.cc
    db/log_compression.cc
    db/log_reader.cc
    db/log_writer.cc
    db/memtable_inserter.cc
    db/options_dump.cc
    db/options_helper.cc
    db/options_util.cc
    db/event_helpers.cc
    db/write_stall.cc
    db/write_throttle.cc
    db/memory_budget.cc  # issue 19
    db/options_file.cc
    db/super_version.cc
    db/table_cache.cc
    db/level_iterator.cc
    db/range_del_skip_iterator.cc
    db/compaction/compaction_iterator.cc
    db/compaction/compaction_range_del_aggregator.cc
    db/compaction/merge_helper.cc
    db/sst_file_reader.cc
    db/version_edit.cc
    db/write_batch.cc
    db/write_thread.cc
    db/repair.cc
    db/db_impl_error.cc
    db/db_impl_file_checksum.cc
    db/db_impl_paced_io.cc
    db/db_impl_secondary.cc
    db/manifest_tailer.cc
    db/db_impl_properties.cc
    db/db_impl_metadata.cc
    db/internal_stats.cc
    db/periodic_task.cc
    db/external_file_ingestion_job.cc
    db/db_impl_import.cc
    db/wal_manager.cc
    db/transaction_log_impl.cc
    db/db_impl_wal.cc
    db/db_impl_files.cc
    db/db_impl_experimental.cc
    db/db_impl_debug.cc
  DEPS env memtable table cache base util
  DEPS env memtable table cache base util merge_operators
)
# DBTestBase, the fixture of the engine-level tests (test-only).
if(STRATA_BUILD_TESTS)
  add_library(strata_db_test_util STATIC test_util/db_test_base.cc)
  target_link_libraries(strata_db_test_util PUBLIC strata_db strata_test_util)
endif()
strata_tests(db
  db/db_ribbon_filter_test.cc
  db/external_file_ingestion_test.cc
  db/db_basic_test.cc
  db/db_memory_test.cc  # issue 19
  db/db_hyper_clock_cache_test.cc  # issue 19 item 6
  db/db_memory_allocator_test.cc
  db/db_readonly_test.cc
  db/db_secondary_test.cc
  db/db_open_safety_test.cc
  db/db_statistics_test.cc
  db/perf_context_test.cc
  db/column_family_test.cc
  db/db_concurrency_test.cc
  db/db_crash_test.cc
  db/db_interop_test.cc
  db/db_current_rocksdb_test.cc
  db/db_randomized_test.cc
  db/db_recovery_test.cc
  db/db_wal_filter_test.cc
  db/db_file_checksum_test.cc
  db/db_file_checksum_interop_test.cc
  db/filename_test.cc
  db/log_test.cc
  db/table_cache_test.cc
  db/level_iterator_test.cc
  db/compaction/compaction_iterator_test.cc
  db/compaction/merge_helper_test.cc
  db/compaction/compression_for_level_test.cc
  db/db_compression_test.cc
  db/compaction/compaction_picker_universal_test.cc
  db/db_universal_compaction_test.cc
  db/compaction/compaction_picker_level_test.cc
  db/sst_file_reader_test.cc
  db/version_edit_test.cc
  db/write_batch_test.cc
  db/write_thread_test.cc
  db/write_throttle_test.cc
  db/db_lsm_test.cc
  db/db_compaction_test.cc
  db/db_compaction_race_test.cc
  db/db_compaction_hooks_test.cc
  db/db_fifo_compaction_test.cc
  db/db_ttl_compaction_test.cc
  db/compaction/compaction_picker_fifo_test.cc
  db/db_fault_injection_test.cc
  db/compaction/compaction_range_del_aggregator_test.cc
  db/builder_test.cc
  db/db_merge_test.cc
  db/db_read_api_test.cc
  db/db_range_del_test.cc
  db/db_prefix_test.cc
  db/db_model_merge_range_test.cc
  db/corruption_test.cc
  db/repair_test.cc
  db/db_limits_test.cc
  db/db_error_handler_test.cc
  db/db_paced_io_test.cc
  db/db_fault_walk_test.cc
  db/db_properties_test.cc
  db/options_dump_test.cc
  db/options_helper_test.cc
  db/options_file_test.cc
  db/options_sanitize_test.cc
  db/db_compaction_style_open_test.cc
  db/db_options_test.cc
  db/listener_test.cc
  db/db_metadata_test.cc
  db/db_experimental_test.cc
  db/db_debug_test.cc
  db/event_log_test.cc
  db/db_wal_tailing_test.cc
  db/db_write_throttle_test.cc
  # File placement and direct I/O (issue 19, "paths").
  db/db_direct_io_test.cc
  db/db_wal_dir_test.cc
  db/db_paths_interop_test.cc
  db/db_paths_test.cc
  db/partitioned_interop_test.cc
  db/db_table_format_matrix_test.cc
)
# The RocksDB interoperability tests also carry the "interop" label.
if(TEST db_interop_test)
  set_tests_properties(db_interop_test PROPERTIES LABELS "db;interop")
endif()
# Databases written by a current RocksDB (format_version 6/7), kept in testdata/.
if(TARGET db_current_rocksdb_test)
  target_compile_definitions(db_current_rocksdb_test PRIVATE
    STRATA_TESTDATA_DIR="${CMAKE_SOURCE_DIR}/testdata")
  set_tests_properties(db_current_rocksdb_test PROPERTIES LABELS "db;interop")
endif()
# wal_dir / db_paths interop (issue 19, "paths"): RocksDB's own library
# writes and reads the DBs (test_util/rocksdb_paths_tool.cc).
strata_rocksdb_program(rocksdb_paths_tool test_util/rocksdb_paths_tool.cc)
if(TEST db_paths_interop_test)
  set_tests_properties(db_paths_interop_test PROPERTIES LABELS "db;interop")
  if(TARGET rocksdb_paths_tool)
    add_dependencies(db_paths_interop_test rocksdb_paths_tool)
    target_compile_definitions(db_paths_interop_test PRIVATE
      STRATA_ROCKSDB_PATHS_TOOL="$<TARGET_FILE:rocksdb_paths_tool>")
  endif()
endif()
# Full-file checksums against RocksDB: a helper linked with the system
# librocksdb writes and reads the DBs (test_util/rocksdb_checksum_tool.cc).
strata_rocksdb_program(rocksdb_checksum_tool test_util/rocksdb_checksum_tool.cc)
if(TEST db_file_checksum_interop_test)
  set_tests_properties(db_file_checksum_interop_test PROPERTIES LABELS "db;interop")
  if(TARGET rocksdb_checksum_tool)
    add_dependencies(db_file_checksum_interop_test rocksdb_checksum_tool)
    target_compile_definitions(db_file_checksum_interop_test PRIVATE
      STRATA_ROCKSDB_CHECKSUM_TOOL="$<TARGET_FILE:rocksdb_checksum_tool>")
  endif()
endif()
# Partitioned index and filters against RocksDB (issue 19): a helper linked
# with the system librocksdb only (as rocksdb_sst_tool).
strata_rocksdb_program(rocksdb_partition_tool test_util/rocksdb_partition_tool.cc)
if(TARGET partitioned_interop_test)
  set_tests_properties(partitioned_interop_test PROPERTIES LABELS "db;interop")
  if(TARGET rocksdb_partition_tool)
    add_dependencies(partitioned_interop_test rocksdb_partition_tool)
    target_compile_definitions(partitioned_interop_test PRIVATE
      STRATA_ROCKSDB_PARTITION_TOOL="$<TARGET_FILE:rocksdb_partition_tool>")
  endif()
  strata_slow_tests(partitioned_interop_test)  # ~10-20 s: runs RocksDB's tools
endif()
# Tests that fork a writer and kill it: under TSan the child starts threads
# after a multi-threaded fork (the parent's background pool), which TSan
# refuses unless told otherwise; the child only writes and is killed.
if(STRATA_SANITIZE STREQUAL "tsan")
  foreach(t db_crash_test db_lsm_test db_universal_compaction_test)
    if(TEST ${t})
      set_tests_properties(${t} PROPERTIES ENVIRONMENT "TSAN_OPTIONS=halt_on_error=1 die_after_fork=0")
    endif()
  endforeach()
endif()
# Tests that use the built-in merge operators.
foreach(t db_merge_test db_range_del_test db_model_merge_range_test db_universal_compaction_test)
  if(TARGET ${t})
    target_link_libraries(${t} PRIVATE strata_merge_operators)
  endif()
endforeach()
# Several seconds each (see strata_slow_tests).
strata_slow_tests(db_lsm_test db_recovery_test db_crash_test db_fault_injection_test
                  db_fault_walk_test db_concurrency_test column_family_test
                  db_secondary_test)
# Ribbon filters in a DB, against RocksDB's tool (table/sources.cmake
# defines rocksdb_ribbon_tool).
if(TARGET rocksdb_ribbon_tool AND TARGET db_ribbon_filter_test)
  add_dependencies(db_ribbon_filter_test rocksdb_ribbon_tool)
  target_compile_definitions(db_ribbon_filter_test PRIVATE
    STRATA_ROCKSDB_RIBBON_TOOL="$<TARGET_FILE:rocksdb_ribbon_tool>")
endif()
