// rocksdb/utilities/write_batch_with_index.h: a WriteBatch with a searchable
// index of its keys, so a transaction can read its own writes (alone or
// merged over a DB). A wrapper over strata::WriteBatchWithIndex with
// RocksDB's raw-pointer iterators and rocksdb::DB arguments; the one
// Transaction::GetWriteBatch returns is a view of the transaction's own.
// Thread-safety: not thread-safe.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "rocksdb/comparator.h"
#include "rocksdb/db.h"
#include "rocksdb/iterator.h"
#include "rocksdb/options.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "rocksdb/write_batch.h"
#include "rocksdb/write_batch_base.h"
#include "strata/utilities/write_batch_with_index.h"

namespace rocksdb {
class ReadCallback;  // RocksDB-internal (its transactions' visibility check); declared only
using WriteType = ::strata::WriteType;
using ::strata::kDeleteRangeRecord;
using ::strata::kDeleteRecord;
using ::strata::kLogDataRecord;
using ::strata::kMergeRecord;
using ::strata::kPutRecord;
using ::strata::kSingleDeleteRecord;
using ::strata::kUnknownRecord;
using ::strata::kXIDRecord;
using WriteEntry = ::strata::WriteEntry;
using WBWIIterator = ::strata::WBWIIterator;

class WriteBatchWithIndex : public WriteBatchBase {
 public:
  // overwrite_key=true keeps one index entry per key (the newest).
  explicit WriteBatchWithIndex(const Comparator* backup_index_comparator = BytewiseComparator(),
                               size_t reserved_bytes = 0, bool overwrite_key = false,
                               size_t max_bytes = 0, size_t protection_bytes_per_key = 0);
  ~WriteBatchWithIndex() override;
  WriteBatchWithIndex(const WriteBatchWithIndex&) = delete;
  WriteBatchWithIndex& operator=(const WriteBatchWithIndex&) = delete;

  // The updates (WriteBatchBase's, forwarded to Strata's indexed batch;
  // the timestamp forms and PutEntity answer as RocksDB's do).
  using WriteBatchBase::Delete;
  using WriteBatchBase::DeleteRange;
  using WriteBatchBase::Merge;
  using WriteBatchBase::Put;
  using WriteBatchBase::SingleDelete;
  Status Put(ColumnFamilyHandle* column_family, const Slice& key, const Slice& value) override {
    return impl_->Put(column_family, key, value);
  }
  Status Put(const Slice& key, const Slice& value) override { return impl_->Put(key, value); }
  Status Put(ColumnFamilyHandle* column_family, const Slice& key, const Slice& ts,
             const Slice& value) override {
    return impl_->Put(column_family, key, ts, value);
  }
  Status PutEntity(ColumnFamilyHandle* column_family, const Slice& key,
                   const WideColumns& columns) override {
    return impl_->PutEntity(column_family, key, columns);
  }
  Status Merge(ColumnFamilyHandle* column_family, const Slice& key, const Slice& value) override {
    return impl_->Merge(column_family, key, value);
  }
  Status Merge(const Slice& key, const Slice& value) override { return impl_->Merge(key, value); }
  Status Merge(ColumnFamilyHandle* column_family, const Slice& key, const Slice& ts,
               const Slice& value) override {
    return impl_->Merge(column_family, key, ts, value);
  }
  Status Delete(ColumnFamilyHandle* column_family, const Slice& key) override {
    return impl_->Delete(column_family, key);
  }
  Status Delete(const Slice& key) override { return impl_->Delete(key); }
  Status Delete(ColumnFamilyHandle* column_family, const Slice& key, const Slice& ts) override {
    return impl_->Delete(column_family, key, ts);
  }
  Status SingleDelete(ColumnFamilyHandle* column_family, const Slice& key) override {
    return impl_->SingleDelete(column_family, key);
  }
  Status SingleDelete(const Slice& key) override { return impl_->SingleDelete(key); }
  Status SingleDelete(ColumnFamilyHandle* column_family, const Slice& key,
                      const Slice& ts) override {
    return impl_->SingleDelete(column_family, key, ts);
  }
  Status DeleteRange(ColumnFamilyHandle* column_family, const Slice& begin_key,
                     const Slice& end_key) override {
    return impl_->DeleteRange(column_family, begin_key, end_key);
  }
  Status DeleteRange(const Slice& begin_key, const Slice& end_key) override {
    return impl_->DeleteRange(begin_key, end_key);
  }
  Status DeleteRange(ColumnFamilyHandle* column_family, const Slice& begin_key,
                     const Slice& end_key, const Slice& ts) override {
    return impl_->DeleteRange(column_family, begin_key, end_key, ts);
  }
  Status PutLogData(const Slice& blob) override { return impl_->PutLogData(blob); }
  void Clear() override { impl_->Clear(); }
  void SetSavePoint() override { impl_->SetSavePoint(); }
  Status RollbackToSavePoint() override { return impl_->RollbackToSavePoint(); }
  Status PopSavePoint() override { return impl_->PopSavePoint(); }
  void SetMaxBytes(size_t max_bytes) override { impl_->SetMaxBytes(max_bytes); }
  // The batch to pass to DB::Write; owned by this object.
  WriteBatch* GetWriteBatch() override { return impl_->GetWriteBatch(); }

  // Iterators over the batch's own entries; the caller deletes them.
  WBWIIterator* NewIterator(ColumnFamilyHandle* column_family) {
    return impl_->NewIterator(column_family).release();
  }
  WBWIIterator* NewIterator() { return impl_->NewIterator().release(); }
  // An iterator over base_iterator (which it takes ownership of) with the
  // batch's entries applied on top; the caller deletes it.
  Iterator* NewIteratorWithBase(ColumnFamilyHandle* column_family, Iterator* base_iterator,
                                const ReadOptions* opts = nullptr);
  Iterator* NewIteratorWithBase(Iterator* base_iterator);

  // The batch's value for key (NotFound if absent or deleted in the batch;
  // MergeInProgress if it holds only merge operands without a base).
  Status GetFromBatch(ColumnFamilyHandle* column_family, const DBOptions& options, const Slice& key,
                      std::string* value);
  Status GetFromBatch(const DBOptions& options, const Slice& key, std::string* value) {
    return GetFromBatch(nullptr, options, key, value);
  }
  // The batch's entries applied over db's value.
  Status GetFromBatchAndDB(DB* db, const ReadOptions& read_options, const Slice& key,
                           std::string* value);
  Status GetFromBatchAndDB(DB* db, const ReadOptions& read_options, const Slice& key,
                           PinnableSlice* value);
  Status GetFromBatchAndDB(DB* db, const ReadOptions& read_options,
                           ColumnFamilyHandle* column_family, const Slice& key, std::string* value);
  Status GetFromBatchAndDB(DB* db, const ReadOptions& read_options,
                           ColumnFamilyHandle* column_family, const Slice& key,
                           PinnableSlice* value);
  // GetFromBatchAndDB for each of keys[0, num_keys) into values[i] and
  // statuses[i], all read at one point of db (read_options.snapshot, or
  // one taken for the call). sorted_input is a hint.
  void MultiGetFromBatchAndDB(DB* db, const ReadOptions& read_options,
                              ColumnFamilyHandle* column_family, const size_t num_keys,
                              const Slice* keys, PinnableSlice* values, Status* statuses,
                              bool sorted_input);
  size_t GetDataSize() const;

 private:
  friend class Transaction;
  // A view of a batch owned elsewhere (a transaction's, for
  // Transaction::GetWriteBatch): every call works on `borrowed`.
  explicit WriteBatchWithIndex(::strata::WriteBatchWithIndex* borrowed);
  ::strata::WriteBatchWithIndex* borrowed() const { return impl_; }

  std::unique_ptr<::strata::WriteBatchWithIndex> owned_;  // null for a view
  ::strata::WriteBatchWithIndex* impl_;                   // owned_, or the borrowed batch
};
}  // namespace rocksdb
