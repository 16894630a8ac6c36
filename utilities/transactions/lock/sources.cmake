# utilities/transactions/lock/: the point-lock manager of pessimistic
# transactions (striped per-key shared/exclusive locks, lock timeouts,
# expiration and stealing, deadlock detection). Below the transaction
# classes; depends only on util and env (the clock).
strata_layer(transaction_lock
  SOURCES
    utilities/transactions/lock/point_lock_manager.cc
  DEPS util env
)
strata_tests(transaction_lock utilities/transactions/lock/point_lock_manager_test.cc)
