// compat/write_batch_with_index.cc: rocksdb::WriteBatchWithIndex over
// strata::WriteBatchWithIndex; options are converted as at Open.
#include "rocksdb/utilities/write_batch_with_index.h"

#include <memory>
#include <string>

#include "compat/error_iterator.h"
#include "compat/options_convert.h"
#include "strata/options.h"

namespace rocksdb {

WriteBatchWithIndex::WriteBatchWithIndex(const Comparator* backup_index_comparator,
                                         size_t reserved_bytes, bool overwrite_key,
                                         size_t max_bytes, size_t /*protection_bytes_per_key*/)
    : owned_(std::make_unique<::strata::WriteBatchWithIndex>(
          backup_index_comparator, reserved_bytes, overwrite_key, max_bytes)),
      impl_(owned_.get()) {}

WriteBatchWithIndex::WriteBatchWithIndex(::strata::WriteBatchWithIndex* borrowed)
    : impl_(borrowed) {}

WriteBatchWithIndex::~WriteBatchWithIndex() = default;

Iterator* WriteBatchWithIndex::NewIteratorWithBase(ColumnFamilyHandle* column_family,
                                                   Iterator* base_iterator,
                                                   const ReadOptions* opts) {
  std::unique_ptr<Iterator> base(base_iterator);
  ::strata::ReadOptions ro;
  if (opts != nullptr) {
    Status s = compat::ConvertReadOptions(*opts, &ro);
    if (!s.ok()) return new compat::ErrorIterator(std::move(s));
  }
  return impl_->NewIteratorWithBase(column_family, std::move(base), opts != nullptr ? &ro : nullptr)
      .release();
}

Iterator* WriteBatchWithIndex::NewIteratorWithBase(Iterator* base_iterator) {
  return impl_->NewIteratorWithBase(std::unique_ptr<Iterator>(base_iterator)).release();
}

Status WriteBatchWithIndex::GetFromBatch(ColumnFamilyHandle* column_family,
                                         const DBOptions& options, const Slice& key,
                                         std::string* value) {
  ::strata::DBOptions o;
  Status s = compat::ConvertDBOptions(options, &o);
  if (!s.ok()) return s;
  return impl_->GetFromBatch(column_family, o, key, value);
}

Status WriteBatchWithIndex::GetFromBatchAndDB(DB* db, const ReadOptions& read_options,
                                              ColumnFamilyHandle* column_family, const Slice& key,
                                              std::string* value) {
  ::strata::ReadOptions ro;
  Status s = compat::ConvertReadOptions(read_options, &ro);
  if (!s.ok()) return s;
  return impl_->GetFromBatchAndDB(db->GetStrataDB(), ro, column_family, key, value);
}

Status WriteBatchWithIndex::GetFromBatchAndDB(DB* db, const ReadOptions& read_options,
                                              const Slice& key, std::string* value) {
  return GetFromBatchAndDB(db, read_options, db->DefaultColumnFamily(), key, value);
}

Status WriteBatchWithIndex::GetFromBatchAndDB(DB* db, const ReadOptions& read_options,
                                              ColumnFamilyHandle* column_family, const Slice& key,
                                              PinnableSlice* value) {
  Status s = GetFromBatchAndDB(db, read_options, column_family, key, value->GetSelf());
  if (s.ok()) value->PinSelf();
  return s;
}

Status WriteBatchWithIndex::GetFromBatchAndDB(DB* db, const ReadOptions& read_options,
                                              const Slice& key, PinnableSlice* value) {
  return GetFromBatchAndDB(db, read_options, db->DefaultColumnFamily(), key, value);
}

void WriteBatchWithIndex::MultiGetFromBatchAndDB(DB* db, const ReadOptions& read_options,
                                                 ColumnFamilyHandle* column_family,
                                                 const size_t num_keys, const Slice* keys,
                                                 PinnableSlice* values, Status* statuses,
                                                 bool /*sorted_input*/) {
  // One view of the DB for every key, as RocksDB's MultiGet.
  ReadOptions ro = read_options;
  const Snapshot* taken = nullptr;
  if (ro.snapshot == nullptr && num_keys > 1) ro.snapshot = taken = db->GetSnapshot();
  for (size_t i = 0; i < num_keys; ++i) {
    statuses[i] = GetFromBatchAndDB(db, ro, column_family, keys[i], &values[i]);
  }
  if (taken != nullptr) db->ReleaseSnapshot(taken);
}

size_t WriteBatchWithIndex::GetDataSize() const { return impl_->GetWriteBatch()->GetDataSize(); }

}  // namespace rocksdb
