// rocksdb/transaction_log.h: WAL files and the iterator over updates since a
// sequence number (GetSortedWalFiles, GetUpdatesSince). Strata's types are
// the same types here.
#pragma once

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/types.h"
#include "strata/transaction_log.h"

namespace rocksdb {
using LogFile = ::strata::LogFile;
using VectorLogPtr = ::strata::VectorLogPtr;
using BatchResult = ::strata::BatchResult;
using TransactionLogIterator = ::strata::TransactionLogIterator;
using WalFileType = ::strata::WalFileType;
using ::strata::kAliveLogFile;
using ::strata::kArchivedLogFile;
}  // namespace rocksdb
