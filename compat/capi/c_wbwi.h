// c_wbwi.h: the handle of an indexed write batch (rocksdb_writebatch_wi_t),
// shared by c_batch_wi.cc and c_txn.cc (a transaction's own batch).
// Thread safety: as rocksdb::WriteBatchWithIndex (not thread-safe).
#pragma once

#include <memory>

#include "compat/capi/c_internal.h"
#include "rocksdb/utilities/write_batch_with_index.h"

struct rocksdb_writebatch_wi_t {
  rocksdb::WriteBatchWithIndex* rep = nullptr;
  // Set when the handle owns the batch (rocksdb_writebatch_wi_create);
  // null for a transaction's batch (rocksdb_transaction_get_writebatch_wi).
  std::unique_ptr<rocksdb::WriteBatchWithIndex> owned;
};
