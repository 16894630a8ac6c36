// rocksdb/utilities/transaction_db_mutex.h: the mutex, condition variable
// and factory interfaces of TransactionDBOptions::custom_mutex_factory.
// They are Strata's classes (include/strata/utilities/transaction_db_mutex.h,
// the same shape): a program may implement them, but Strata's lock manager
// uses its own, so TransactionDB::Open refuses a non-null
// custom_mutex_factory (NotSupported naming it).
// Thread-safety: implementations must be thread-safe.
#pragma once

#include <memory>

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/status.h"
#include "strata/utilities/transaction_db_mutex.h"

namespace rocksdb {
using TransactionDBMutex = ::strata::TransactionDBMutex;
using TransactionDBCondVar = ::strata::TransactionDBCondVar;
using TransactionDBMutexFactory = ::strata::TransactionDBMutexFactory;
}  // namespace rocksdb
