# tools/: db_bench and friends.

# What db_bench and db_bench_leveldb share (flags, keys, values, stats,
# threads, the workloads template); depends only on util/histogram.h.
add_library(db_bench_common OBJECT tools/db_bench_common.cc)
target_include_directories(db_bench_common PUBLIC
  ${CMAKE_SOURCE_DIR}/include ${CMAKE_SOURCE_DIR})

# db_bench: the workloads on Strata through the public API.
add_executable(db_bench tools/db_bench.cc tools/db_bench_options.cc
               $<TARGET_OBJECTS:db_bench_common>)
target_include_directories(db_bench PRIVATE ${CMAKE_SOURCE_DIR})
target_link_libraries(db_bench PRIVATE strata Threads::Threads)
# --merge_operator: MergeOperators::CreateFromStringId (utilities/merge_operators).
if(TARGET strata_merge_operators)
  target_link_libraries(db_bench PRIVATE strata_merge_operators)
endif()
target_compile_definitions(db_bench PRIVATE
  STRATA_VERSION_STRING="${PROJECT_VERSION}")
# --transaction_db / --optimistic_transaction_db need the transactions layer
# (utilities/transactions/); without it db_bench refuses both by name.
if("transactions" IN_LIST STRATA_LAYERS)
  target_compile_definitions(db_bench PRIVATE STRATA_HAVE_TRANSACTIONS=1)
endif()

# db_bench_leveldb: the same workloads on LevelDB (Debian libleveldb-dev),
# for side-by-side numbers. Links LevelDB and, for Histogram, strata_util.
find_library(LEVELDB_LIB leveldb)
find_path(LEVELDB_INCLUDE_DIR leveldb/db.h)
if(LEVELDB_LIB AND LEVELDB_INCLUDE_DIR AND TARGET strata_util_obj)
  add_executable(db_bench_leveldb tools/db_bench_leveldb.cc
                 $<TARGET_OBJECTS:db_bench_common>)
  target_include_directories(db_bench_leveldb PRIVATE ${CMAKE_SOURCE_DIR}
                             ${LEVELDB_INCLUDE_DIR})
  target_link_libraries(db_bench_leveldb PRIVATE ${LEVELDB_LIB} strata_util
                        Threads::Threads)
else()
  message(STATUS "LevelDB not found: db_bench_leveldb not built")
endif()

if(STRATA_BUILD_TESTS)
  add_executable(db_bench_common_test tools/db_bench_common_test.cc
                 tools/db_bench_options.cc $<TARGET_OBJECTS:db_bench_common>)
  target_link_libraries(db_bench_common_test PRIVATE strata strata_util
                        strata_test_util GTest::gtest_main Threads::Threads)
  add_test(NAME db_bench_common_test COMMAND db_bench_common_test)
  set_tests_properties(db_bench_common_test PROPERTIES LABELS tools TIMEOUT 900)
  # randomtransaction through the db_bench binary: plain batches, and on
  # TransactionDB / OptimisticTransactionDB (1 and 2 threads, then again on
  # the reopened DB) with RandomTransactionVerify; a build without
  # transactions must refuse the flags by name. A few seconds.
  add_test(NAME db_bench_txn_smoke
           COMMAND ${CMAKE_SOURCE_DIR}/scripts/test-db-bench-txn.sh ${CMAKE_BINARY_DIR})
  set_tests_properties(db_bench_txn_smoke PROPERTIES LABELS tools TIMEOUT 300)
endif()

# cache_bench: a block cache alone (LRU vs HyperClockCache) under concurrent
# Insert/Lookup/Erase, as RocksDB's cache_bench; only the public cache API,
# so it links the cache layer alone. The target cache_bench is bench/'s
# Google Benchmark one: this is cache_bench_tool, built as tools/cache_bench.
add_executable(cache_bench_tool tools/cache_bench.cc)
target_link_libraries(cache_bench_tool PRIVATE strata_cache Threads::Threads)
set_target_properties(cache_bench_tool PROPERTIES OUTPUT_NAME cache_bench
                      RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tools)
if(STRATA_BUILD_TESTS)
  add_test(NAME cache_bench_smoke_lru
           COMMAND cache_bench_tool -threads=2 -cache_size=1048576 -value_bytes=1024
                   -ops_per_thread=20000 -num_shard_bits=2 -cache_type=lru_cache)
  add_test(NAME cache_bench_smoke_hcc
           COMMAND cache_bench_tool -threads=2 -cache_size=1048576 -value_bytes=1024
                   -ops_per_thread=20000 -num_shard_bits=2 -cache_type=hyper_clock_cache)
  set_tests_properties(cache_bench_smoke_lru cache_bench_smoke_hcc PROPERTIES LABELS tools
                       PASS_REGULAR_EXPRESSION "Rough parallel ops/sec = [0-9]+")
endif()

# cpu_gaps: how often a running thread loses the CPU on this machine (the
# floor under latency percentiles; scripts/stall-smoothness.sh reports it).
add_executable(cpu_gaps tools/cpu_gaps.cc)
target_link_libraries(cpu_gaps PRIVATE Threads::Threads)
set_target_properties(cpu_gaps PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tools)
if(STRATA_BUILD_TESTS)
  add_test(NAME cpu_gaps_smoke COMMAND cpu_gaps 1 1)
  set_tests_properties(cpu_gaps_smoke PROPERTIES LABELS tools
                       PASS_REGULAR_EXPRESSION "cpu_gaps: busy=1 seconds=1 gaps/s >10us [0-9]+")
endif()

# filter_bench: the full Bloom filter alone (build, present and absent
# queries, FP rate); uses internal headers (table/filter_policy.h).
add_executable(filter_bench tools/filter_bench.cc)
target_link_libraries(filter_bench PRIVATE strata)

if(STRATA_BUILD_TESTS)
  add_test(NAME filter_bench_smoke
           COMMAND filter_bench --num_keys=10000 --queries=20000)
  set_tests_properties(filter_bench_smoke PROPERTIES LABELS tools)
endif()

# sst_dump: inspects table files (ours or RocksDB's) with RocksDB's flags;
# strata::SSTDumpTool (tools/sst_dump_tool.cc, in libstrata: tools/ldb/sources.cmake).
add_executable(sst_dump tools/sst_dump.cc)
target_link_libraries(sst_dump PRIVATE strata)

if(STRATA_BUILD_TESTS AND EXISTS ${CMAKE_SOURCE_DIR}/tools/sst_dump_test.cc)
  # Builds tables with BlockBasedTableBuilder and runs the sst_dump binary.
  add_executable(sst_dump_test tools/sst_dump_test.cc)
  target_link_libraries(sst_dump_test PRIVATE strata strata_test_util GTest::gtest_main)
  add_dependencies(sst_dump_test sst_dump)
  target_compile_definitions(sst_dump_test PRIVATE
    STRATA_SST_DUMP_PATH="$<TARGET_FILE:sst_dump>"
    STRATA_TESTDATA_DIR="${CMAKE_SOURCE_DIR}/testdata")  # issue 19: a RocksDB 10.5.1 table
  add_test(NAME sst_dump_test COMMAND sst_dump_test)
  set_tests_properties(sst_dump_test PROPERTIES LABELS tools)
endif()

# ---- crash test (issue 6): db_stress + db_crashtest ----------------------
# db_stress: random concurrent operations verified against an expected state
# kept in a file; optional in-process power-loss simulation over
# env/fault_injection_fs.h. db_crashtest: the driver that kills db_stress
# with SIGKILL and verifies (finds db_stress next to its own executable).
# Run by `make crashtest` (scripts/crashtest.sh) and, briefly, by CTest.
add_executable(db_stress tools/db_stress.cc tools/db_stress_txn.cc)
target_include_directories(db_stress PRIVATE ${CMAKE_SOURCE_DIR})
target_link_libraries(db_stress PRIVATE strata Threads::Threads)
if(TARGET strata_merge_operators)
  target_link_libraries(db_stress PRIVATE strata_merge_operators)
endif()
add_executable(db_crashtest tools/db_crashtest.cc)
target_include_directories(db_crashtest PRIVATE ${CMAKE_SOURCE_DIR})
add_dependencies(db_crashtest db_stress)

if(STRATA_BUILD_TESTS)
  # About 60 s: 30 s of kill/verify rounds per mode (sync, nosync), under
  # every compaction style this build opens (--styles=auto asks db_stress;
  # the first lines of the output name the styles and options drawn and
  # the ones the build refuses).
  add_test(NAME crashtest_short
           COMMAND db_crashtest --mode=both --duration=60 --max_key=4096 --styles=auto
                   --max_kill_ms=3000
                   --dir=${CMAKE_CURRENT_BINARY_DIR}/crashtest_short)
  set_tests_properties(crashtest_short PROPERTIES LABELS tools TIMEOUT 400)
  strata_slow_tests(crashtest_short)
  # The styles' paths of the driver and db_stress (fresh DBs on a change of
  # shape, FIFO's latest-or-absent rule with simulated drops) on any build:
  # every style is drawn, the DB opens leveled (--emulate_styles_for_test).
  add_test(NAME crashtest_styles_emulated
           COMMAND db_crashtest --mode=both --duration=30 --max_key=2048 --styles=all
                   --max_kill_ms=2000 --stress_arg=--emulate_styles_for_test=1
                   --dir=${CMAKE_CURRENT_BINARY_DIR}/crashtest_styles_emulated)
  set_tests_properties(crashtest_styles_emulated PROPERTIES LABELS tools TIMEOUT 300)
  strata_slow_tests(crashtest_styles_emulated)
  # db_stress's FIFO rule: a key silently vanishing (as a dropped table
  # would make it) passes; a key silently going back to an older value fails.
  add_test(NAME stress_fifo_rule_accepts_drops
           COMMAND db_stress --db=${CMAKE_CURRENT_BINARY_DIR}/stress_fifo_drops_db
                   --expected_dir=${CMAKE_CURRENT_BINARY_DIR}/stress_fifo_drops_expected
                   --destroy_db_initially=1 --duration=3 --max_key=2048 --reopen=20000
                   --inject_bug_for_test=3)
  set_tests_properties(stress_fifo_rule_accepts_drops PROPERTIES LABELS tools TIMEOUT 120
                       PASS_REGULAR_EXPRESSION "fifo_dropped_reads=[1-9][0-9]* .*failures=0")
  add_test(NAME stress_fifo_rule_catches_stale
           COMMAND db_stress --db=${CMAKE_CURRENT_BINARY_DIR}/stress_fifo_stale_db
                   --expected_dir=${CMAKE_CURRENT_BINARY_DIR}/stress_fifo_stale_expected
                   --destroy_db_initially=1 --duration=3 --max_key=2048
                   --inject_bug_for_test=4)
  set_tests_properties(stress_fifo_rule_catches_stale PROPERTIES LABELS tools TIMEOUT 120
                       PASS_REGULAR_EXPRESSION "VERIFICATION FAILURE: .*expected base")
  strata_slow_tests(stress_fifo_rule_accepts_drops stress_fifo_rule_catches_stale)
  # Transactions (docs/design/stress-transactions.md). db_stress alone, a
  # few seconds each: every kind of transaction happened and nothing failed.
  add_test(NAME stress_txn_short
           COMMAND db_stress --db=${CMAKE_CURRENT_BINARY_DIR}/stress_txn_db
                   --expected_dir=${CMAKE_CURRENT_BINARY_DIR}/stress_txn_expected
                   --destroy_db_initially=1 --duration=3 --max_key=2048 --reopen=8000
                   --use_txn=1 --txn_hold_pct=30)
  set_tests_properties(stress_txn_short PROPERTIES LABELS tools TIMEOUT 120
                       PASS_REGULAR_EXPRESSION
                       "failures=0\ndb_stress txn summary: pessimistic commits=[1-9][0-9]* two_phase=[1-9][0-9]* rollbacks=[1-9][0-9]* held_prepared=[1-9][0-9]* direct_writes=[1-9][0-9]* get_for_update=[1-9][0-9]* lock_first=[1-9]")
  add_test(NAME stress_otxn_short
           COMMAND db_stress --db=${CMAKE_CURRENT_BINARY_DIR}/stress_otxn_db
                   --expected_dir=${CMAKE_CURRENT_BINARY_DIR}/stress_otxn_expected
                   --destroy_db_initially=1 --duration=3 --max_key=2048 --reopen=8000
                   --use_optimistic_txn=1)
  set_tests_properties(stress_otxn_short PROPERTIES LABELS tools TIMEOUT 120
                       PASS_REGULAR_EXPRESSION
                       "failures=0\ndb_stress txn summary: optimistic commits=[1-9][0-9]* .* rollbacks=[1-9][0-9]* .* occ_conflicts=[1-9][0-9]* occ_injected=[1-9]")
  # Kill and verify with prepared transactions in every state: the
  # verification must find exactly the recorded ones (and some must be
  # found), then the optimistic mode.
  add_test(NAME crashtest_txn_short
           COMMAND db_crashtest --mode=txn --duration=15 --max_key=2048
                   --styles=level,universal,none --max_kill_ms=1500
                   --dir=${CMAKE_CURRENT_BINARY_DIR}/crashtest_txn_short)
  set_tests_properties(crashtest_txn_short PROPERTIES LABELS tools TIMEOUT 300
                       PASS_REGULAR_EXPRESSION
                       "prepared transactions recovered and checked: [1-9][0-9]* in .*failures=0 -> PASS")
  add_test(NAME crashtest_otxn_short
           COMMAND db_crashtest --mode=otxn --duration=8 --max_key=2048
                   --styles=level,universal,none --max_kill_ms=1500
                   --dir=${CMAKE_CURRENT_BINARY_DIR}/crashtest_otxn_short)
  set_tests_properties(crashtest_otxn_short PROPERTIES LABELS tools TIMEOUT 300)
  # The recovery check catches what it must: an acknowledged prepared
  # transaction missing after the kill (5), a recovered one whose writes
  # differ from the record (6). Every transaction is held prepared, so the
  # first kill finds some.
  add_test(NAME crashtest_txn_catches_lost_prepared
           COMMAND db_crashtest --mode=txn --duration=60 --max_key=2048 --styles=level
                   --min_kill_ms=500 --max_kill_ms=1500 --stress_arg=--inject_bug_for_test=5
                   --stress_arg=--txn_2pc_pct=100 --stress_arg=--txn_hold_pct=100
                   --dir=${CMAKE_CURRENT_BINARY_DIR}/crashtest_txn_catches_lost_prepared)
  # The driver stops at the first verification failure, which the
  # injected bug causes within a round or two; the long duration only
  # bounds a machine so loaded that the first rounds end before a prepared
  # transaction was rolled back (seen once in a clean-clone make check).
  set_tests_properties(crashtest_txn_catches_lost_prepared PROPERTIES LABELS tools TIMEOUT 120
                       PASS_REGULAR_EXPRESSION
                       "VERIFICATION FAILURE: transaction [^ ]*: Prepare was acknowledged .*but recovery did not return it")
  add_test(NAME crashtest_txn_catches_wrong_writes
           COMMAND db_crashtest --mode=txn --duration=60 --max_key=2048 --styles=level
                   --min_kill_ms=500 --max_kill_ms=1500 --stress_arg=--inject_bug_for_test=6
                   --stress_arg=--txn_2pc_pct=100 --stress_arg=--txn_hold_pct=100
                   --dir=${CMAKE_CURRENT_BINARY_DIR}/crashtest_txn_catches_wrong_writes)
  set_tests_properties(crashtest_txn_catches_wrong_writes PROPERTIES LABELS tools TIMEOUT 120
                       PASS_REGULAR_EXPRESSION
                       "VERIFICATION FAILURE: recovered transaction [^ ]* holds \\[")
  # RocksDB's ldb on the DB a killed --use_txn run left: dump_wal identical
  # to strata's; after `ldb compact` the prepared transactions still recover
  # exactly. Skipped (77) without /usr/bin/ldb.
  add_test(NAME txn_interop_test
           COMMAND ${CMAKE_SOURCE_DIR}/scripts/test-txn-interop.sh ${CMAKE_BINARY_DIR})
  set_tests_properties(txn_interop_test PROPERTIES LABELS tools TIMEOUT 120
                       SKIP_RETURN_CODE 77)
  strata_slow_tests(stress_txn_short stress_otxn_short crashtest_txn_short crashtest_otxn_short
                    crashtest_txn_catches_lost_prepared crashtest_txn_catches_wrong_writes
                    txn_interop_test)
endif()

# strata: RocksDB ldb's commands on a database directory (tools/ldb/, see
# docs/tools/ldb.md), and `strata report` (strata_report_lib, below). The
# commands are the `tools` layer of libstrata (tools/ldb/sources.cmake), run
# through strata::RunLDBTool; the tests link the layer for the parsing
# helpers (tools/ may use internal headers).
add_executable(strata_tool tools/strata_tool.cc)
set_target_properties(strata_tool PROPERTIES OUTPUT_NAME strata)
target_include_directories(strata_tool PRIVATE ${CMAKE_SOURCE_DIR})
target_link_libraries(strata_tool PRIVATE strata Threads::Threads)
if(STRATA_BUILD_TESTS)
  # The public entry points in-process (base options, key formatter, help
  # header; SSTDumpTool with a comparator).
  add_executable(ldb_tool_test tools/ldb/ldb_tool_test.cc)
  target_link_libraries(ldb_tool_test PRIVATE strata strata_test_util GTest::gtest_main
                        Threads::Threads)
  add_test(NAME ldb_tool_test COMMAND ldb_tool_test)
  set_tests_properties(ldb_tool_test PROPERTIES LABELS tools)
  add_executable(ldb_args_test tools/ldb/ldb_args_test.cc)
  target_link_libraries(ldb_args_test PRIVATE strata strata_test_util GTest::gtest_main
                        Threads::Threads)
  if(TARGET strata_merge_operators)
    target_link_libraries(ldb_args_test PRIVATE strata_merge_operators)
  endif()
  add_test(NAME ldb_args_test COMMAND ldb_args_test)
  set_tests_properties(ldb_args_test PROPERTIES LABELS tools)
  add_executable(ldb_edit_text_test tools/ldb/ldb_edit_text_test.cc)
  target_link_libraries(ldb_edit_text_test PRIVATE strata strata_test_util GTest::gtest_main
                        Threads::Threads)
  if(TARGET strata_merge_operators)
    target_link_libraries(ldb_edit_text_test PRIVATE strata_merge_operators)
  endif()
  add_test(NAME ldb_edit_text_test COMMAND ldb_edit_text_test)
  set_tests_properties(ldb_edit_text_test PROPERTIES LABELS tools)
  # change_compaction_style on real DBs (the tool run in-process).
  add_executable(ldb_compaction_style_test tools/ldb/ldb_compaction_style_test.cc
                )
  target_link_libraries(ldb_compaction_style_test PRIVATE strata strata_test_util
                        GTest::gtest_main Threads::Threads)
  if(TARGET strata_merge_operators)
    target_link_libraries(ldb_compaction_style_test PRIVATE strata_merge_operators)
  endif()
  add_test(NAME ldb_compaction_style_test COMMAND ldb_compaction_style_test)
  set_tests_properties(ldb_compaction_style_test PROPERTIES LABELS tools)
  # dump_wal on WALs with two-phase-commit markers: the strata binary against
  # a model of ldb's text and against /usr/bin/ldb (when installed), on WALs
  # written here and on one RocksDB's TransactionDB wrote (below).
  add_executable(ldb_dump_wal_test tools/ldb/ldb_dump_wal_test.cc)
  target_link_libraries(ldb_dump_wal_test PRIVATE strata strata_test_util GTest::gtest_main
                        Threads::Threads)
  if(TARGET strata_merge_operators)
    target_link_libraries(ldb_dump_wal_test PRIVATE strata_merge_operators)
  endif()
  add_dependencies(ldb_dump_wal_test strata_tool)
  target_compile_definitions(ldb_dump_wal_test PRIVATE
    STRATA_TOOL_PATH="$<TARGET_FILE:strata_tool>")
  if("transactions" IN_LIST STRATA_LAYERS)
    target_compile_definitions(ldb_dump_wal_test PRIVATE STRATA_HAVE_TRANSACTIONS=1)
  endif()
  add_test(NAME ldb_dump_wal_test COMMAND ldb_dump_wal_test)
  set_tests_properties(ldb_dump_wal_test PROPERTIES LABELS "tools;interop")
endif()

# rocksdb_txn_wal_gen (test_util/rocksdb_txn_wal_gen.cc): RocksDB's own
# TransactionDB writes a WAL with prepared, committed, rolled-back and open
# transactions, for ldb_dump_wal_test and recovery tests. Linked against the
# system librocksdb only (as rocksdb_sst_tool, table/sources.cmake), built
# without sanitizers; absent without librocksdb (the tests skip that part).
strata_rocksdb_program(rocksdb_txn_wal_gen test_util/rocksdb_txn_wal_gen.cc)
if(TARGET rocksdb_txn_wal_gen)
  if(TARGET ldb_dump_wal_test)
    add_dependencies(ldb_dump_wal_test rocksdb_txn_wal_gen)
    target_compile_definitions(ldb_dump_wal_test PRIVATE
      STRATA_ROCKSDB_TXN_WAL_GEN="$<TARGET_FILE:rocksdb_txn_wal_gen>")
  endif()
endif()
include(GNUInstallDirs)
install(TARGETS strata_tool sst_dump db_bench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

if(STRATA_BUILD_TESTS)
  # Makes a DB with db_bench, verifies, repairs it without CURRENT/MANIFEST,
  # and checks a damaged table is named.
  add_test(NAME strata_tool_test
           COMMAND ${CMAKE_SOURCE_DIR}/scripts/test-strata-tool.sh ${CMAKE_BINARY_DIR})
  set_tests_properties(strata_tool_test PROPERTIES LABELS tools TIMEOUT 300)
  # The same command lines through RocksDB's /usr/bin/ldb and strata on
  # copies of a DB ldb made: same stdout and exit status; read commands
  # leave the DB byte-identical. Skipped (77) without /usr/bin/ldb.
  add_test(NAME ldb_compat_test
           COMMAND ${CMAKE_SOURCE_DIR}/scripts/test-ldb-compat.sh ${CMAKE_BINARY_DIR})
  set_tests_properties(ldb_compat_test PROPERTIES LABELS tools TIMEOUT 300
                       SKIP_RETURN_CODE 77)
  # TTL databases both ways: one written by `ldb --ttl` read by `strata
  # --ttl` and one written by `strata --ttl` read by `ldb --ttl` (get, scan
  # and dump with write times, windows and buckets; the stored form without
  # --ttl). Skipped (77) without /usr/bin/ldb.
  add_test(NAME ttl_interop_test
           COMMAND ${CMAKE_SOURCE_DIR}/scripts/test-ttl-interop.sh ${CMAKE_BINARY_DIR})
  set_tests_properties(ttl_interop_test PROPERTIES LABELS tools TIMEOUT 120
                       SKIP_RETURN_CODE 77)
  # External files both ways: tables of `ldb write_extern_sst` ingested by
  # `strata ingest_extern_sst` and the reverse; each DB read by the other
  # tool (docs/design/ingestion.md). Skipped (77) without /usr/bin/ldb.
  add_test(NAME ingest_compat_test
           COMMAND ${CMAKE_SOURCE_DIR}/scripts/test-ingest-compat.sh ${CMAKE_BINARY_DIR})
  set_tests_properties(ingest_compat_test PROPERTIES LABELS tools TIMEOUT 120
                       SKIP_RETURN_CODE 77)
endif()

# strata report (tools/strata_report.h): the LSM tree as one HTML page; reads
# the MANIFEST through db/ internals, so it sits here with the tools.
add_library(strata_report_lib OBJECT tools/strata_report.cc tools/report_page.cc
            tools/report_history.cc tools/event_log.cc tools/html_writer.cc)
target_include_directories(strata_report_lib PUBLIC ${CMAKE_SOURCE_DIR}/include ${CMAKE_SOURCE_DIR})
target_link_libraries(strata_report_lib PUBLIC PkgConfig::XXHASH Threads::Threads)
target_sources(strata_tool PRIVATE $<TARGET_OBJECTS:strata_report_lib>)

if(STRATA_BUILD_TESTS AND EXISTS ${CMAKE_SOURCE_DIR}/tools/strata_report_test.cc)
  # Builds small databases (two families, several levels), renders the page
  # and parses it back; also the EVENT_LOG_v1 reader on RocksDB-format lines.
  add_executable(strata_report_test tools/strata_report_test.cc
                 $<TARGET_OBJECTS:strata_report_lib>)
  target_link_libraries(strata_report_test PRIVATE strata strata_test_util GTest::gtest_main)
  add_test(NAME strata_report_test COMMAND strata_report_test)
  set_tests_properties(strata_report_test PROPERTIES LABELS tools)
endif()
