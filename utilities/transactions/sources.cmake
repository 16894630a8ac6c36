# utilities/transactions/: TransactionDB (pessimistic, two-phase commit) and
# OptimisticTransactionDB, over the DB's transaction hooks (db/db_impl.h's
# "transactions" section) and the lock manager (lock/).
strata_layer(transactions
  SOURCES
    utilities/transactions/transaction.cc
    utilities/transactions/transaction_base.cc
    utilities/transactions/optimistic_transaction_db_impl.cc
    utilities/transactions/pessimistic_transaction.cc
    utilities/transactions/pessimistic_transaction_db.cc
  DEPS db util write_batch_with_index transaction_lock
)
strata_tests(transactions
  utilities/transactions/transaction_test.cc
  utilities/transactions/optimistic_transaction_test.cc
  utilities/transactions/transaction_model_test.cc
  utilities/transactions/transaction_lock_test.cc
  utilities/transactions/transaction_interop_test.cc
  utilities/transactions/transaction_api_test.cc
)
# The RocksDB interoperability tests also carry the "interop" label.
if(TEST transaction_interop_test)
  set_tests_properties(transaction_interop_test PROPERTIES LABELS "transactions;interop")
endif()
# Interop with RocksDB's own TransactionDB (the system librocksdb): two
# helper programs link it and nothing of Strata -- rocksdb_txn_recover here,
# rocksdb_txn_wal_gen in tools/sources.cmake (defined under the same
# condition) -- built without sanitizers.
strata_tests(transactions utilities/transactions/transaction_rocksdb_recovery_test.cc)
strata_rocksdb_program(rocksdb_txn_recover test_util/rocksdb_txn_recover.cc)
if(TARGET rocksdb_txn_recover AND TARGET transaction_rocksdb_recovery_test)
  add_dependencies(transaction_rocksdb_recovery_test rocksdb_txn_recover)
  # rocksdb_txn_wal_gen is defined by tools/sources.cmake, included later
  # under the same condition (the target is resolved at generate time).
  add_dependencies(transaction_rocksdb_recovery_test rocksdb_txn_wal_gen)
  target_compile_definitions(transaction_rocksdb_recovery_test PRIVATE
    STRATA_ROCKSDB_TXN_RECOVER="$<TARGET_FILE:rocksdb_txn_recover>"
    STRATA_ROCKSDB_TXN_WAL_GEN="$<TARGET_FILE:rocksdb_txn_wal_gen>")
  set_tests_properties(transaction_rocksdb_recovery_test PROPERTIES LABELS "transactions;interop")
endif()
foreach(t transaction_test optimistic_transaction_test transaction_model_test
          transaction_api_test)
  if(TARGET ${t} AND TARGET strata_merge_operators)
    target_link_libraries(${t} PRIVATE strata_merge_operators)
  endif()
endforeach()
# The fault walk's two-phase-commit workload (db/db_fault_walk_test.cc)
# runs a TransactionDB.
if(TARGET db_fault_walk_test)
  target_link_libraries(db_fault_walk_test PRIVATE strata_transactions)
endif()
# Time-boxed transfer runs (see strata_slow_tests).
strata_slow_tests(transaction_model_test)
