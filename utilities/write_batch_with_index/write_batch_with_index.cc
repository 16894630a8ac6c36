// WriteBatchWithIndex: the writers, the batch-only iterator and the point
// reads. The iterator over batch and database is in base_delta_iterator.cc.

#include "strata/utilities/write_batch_with_index.h"

#include <cassert>
#include <limits>
#include <utility>

#include "strata/db.h"
#include "strata/merge_operator.h"
#include "util/coding.h"
#include "utilities/write_batch_with_index/base_delta_iterator.h"
#include "utilities/write_batch_with_index/write_batch_index.h"

namespace strata {

namespace {

inline uint32_t CfId(ColumnFamilyHandle* cf) { return cf == nullptr ? 0 : cf->GetID(); }

constexpr size_t kMaxSliceSize = std::numeric_limits<uint32_t>::max();

// Bytes a record adds to the batch: tag, column family id (non-default
// families only), length-prefixed key and (for two-operand records) value.
size_t RecordSize(uint32_t cf_id, const Slice& key, const Slice* value) {
  size_t n = 1 + (cf_id != 0 ? VarintLength(cf_id) : 0) + VarintLength(key.size()) + key.size();
  if (value != nullptr) n += VarintLength(value->size()) + value->size();
  return n;
}

class WBWIIteratorImpl final : public WBWIIterator {
 public:
  WBWIIteratorImpl(const WriteBatchIndex* index, uint32_t cf_id) : index_(index), cf_id_(cf_id) {}

  bool Valid() const override { return node_ != nullptr; }
  void SeekToFirst() override { node_ = index_->First(cf_id_); }
  void SeekToLast() override { node_ = index_->Last(cf_id_); }
  void Seek(const Slice& key) override { node_ = index_->SeekGE(cf_id_, key); }
  void SeekForPrev(const Slice& key) override { node_ = index_->SeekLE(cf_id_, key); }
  void Next() override {
    assert(Valid());
    node_ = index_->Next(node_);
  }
  void Prev() override {
    assert(Valid());
    node_ = index_->Prev(node_);
  }
  WriteEntry Entry() const override {
    assert(Valid());
    WriteEntry e;
    e.type = node_->entry.type;
    e.key = index_->KeyOf(node_);
    e.value = index_->ValueOf(node_);
    return e;
  }
  Status status() const override { return Status::OK(); }

 private:
  const WriteBatchIndex* const index_;
  const uint32_t cf_id_;
  const WriteBatchIndex::Node* node_ = nullptr;
};

}  // namespace

WBWIIterator::~WBWIIterator() = default;

struct WriteBatchWithIndex::Rep {
  Rep(const Comparator* cmp, size_t reserved_bytes, bool overwrite_key, size_t max_bytes_arg)
      : batch(reserved_bytes), index(cmp, &batch, overwrite_key), max_bytes(max_bytes_arg) {}

  // Checks the limits, then returns the offset the next record will have.
  Status Admit(uint32_t cf_id, const Slice& key, const Slice* value, size_t* offset) const {
    if (key.size() > kMaxSliceSize || (value != nullptr && value->size() > kMaxSliceSize)) {
      return Status::InvalidArgument("WriteBatchWithIndex: key or value larger than 4 GiB - 1");
    }
    *offset = batch.GetDataSize();
    if (max_bytes != 0 && *offset + RecordSize(cf_id, key, value) > max_bytes) {
      return Status::MemoryLimit("WriteBatchWithIndex: max_bytes exceeded");
    }
    return Status::OK();
  }

  // The offset of the key bytes of a record written at offset.
  static size_t KeyOffset(size_t offset, uint32_t cf_id, const Slice& key) {
    return offset + 1 + (cf_id != 0 ? VarintLength(cf_id) : 0) + VarintLength(key.size());
  }

  template <class Append>
  Status AddPoint(ColumnFamilyHandle* cf, WriteType type, const Slice& key, const Slice* value,
                  Append append) {
    const uint32_t cf_id = CfId(cf);
    size_t offset = 0;
    Status s = Admit(cf_id, key, value, &offset);
    if (!s.ok()) return s;
    s = append();
    if (!s.ok()) return s;
    index.AddPoint(WbwiEntry{offset, KeyOffset(offset, cf_id, key),
                             static_cast<uint32_t>(key.size()), cf_id, type});
    return s;
  }

  // Reads key from the batch and combines what it can; sets *need_base when
  // only Merge operands were found (the caller supplies the base).
  Status GetFromBatch(uint32_t cf_id, const Slice& key, std::string* value,
                      const MergeOperator* merge_operator, bool* need_base) {
    *need_base = false;
    index.Get(cf_id, key, &resolved);
    switch (resolved.state) {
      case WbwiKeyState::kNotFound:
        return Status::NotFound();
      case WbwiKeyState::kMergeInProgress:
        *need_base = true;
        return MergeInProgressStatus();
      case WbwiKeyState::kFound:
        if (resolved.operands.empty()) {
          value->assign(resolved.value.data(), resolved.value.size());
          return Status::OK();
        }
        return ApplyMerge(merge_operator, key, &resolved.value, resolved.operands, value);
      case WbwiKeyState::kDeleted:
        if (resolved.operands.empty()) return Status::NotFound();
        return ApplyMerge(merge_operator, key, nullptr, resolved.operands, value);
    }
    return Status::Corruption("WriteBatchWithIndex: bad key state");
  }

  WriteBatch batch;
  WriteBatchIndex index;
  size_t max_bytes;
  WbwiResolved resolved;  // reused by point reads
};

WriteBatchWithIndex::WriteBatchWithIndex(const Comparator* backup_index_comparator,
                                         size_t reserved_bytes, bool overwrite_key,
                                         size_t max_bytes)
    : rep_(std::make_unique<Rep>(backup_index_comparator, reserved_bytes, overwrite_key,
                                 max_bytes)) {}

WriteBatchWithIndex::~WriteBatchWithIndex() = default;
WriteBatchWithIndex::WriteBatchWithIndex(WriteBatchWithIndex&&) noexcept = default;
WriteBatchWithIndex& WriteBatchWithIndex::operator=(WriteBatchWithIndex&&) noexcept = default;

Status WriteBatchWithIndex::Put(ColumnFamilyHandle* cf, const Slice& key, const Slice& value) {
  return rep_->AddPoint(cf, kPutRecord, key, &value,
                        [&] { return rep_->batch.Put(cf, key, value); });
}
Status WriteBatchWithIndex::Put(const Slice& key, const Slice& value) {
  return Put(nullptr, key, value);
}

Status WriteBatchWithIndex::Merge(ColumnFamilyHandle* cf, const Slice& key, const Slice& value) {
  return rep_->AddPoint(cf, kMergeRecord, key, &value,
                        [&] { return rep_->batch.Merge(cf, key, value); });
}
Status WriteBatchWithIndex::Merge(const Slice& key, const Slice& value) {
  return Merge(nullptr, key, value);
}

Status WriteBatchWithIndex::Delete(ColumnFamilyHandle* cf, const Slice& key) {
  return rep_->AddPoint(cf, kDeleteRecord, key, nullptr,
                        [&] { return rep_->batch.Delete(cf, key); });
}
Status WriteBatchWithIndex::Delete(const Slice& key) { return Delete(nullptr, key); }

Status WriteBatchWithIndex::SingleDelete(ColumnFamilyHandle* cf, const Slice& key) {
  return rep_->AddPoint(cf, kSingleDeleteRecord, key, nullptr,
                        [&] { return rep_->batch.SingleDelete(cf, key); });
}
Status WriteBatchWithIndex::SingleDelete(const Slice& key) { return SingleDelete(nullptr, key); }

Status WriteBatchWithIndex::DeleteRange(ColumnFamilyHandle* cf, const Slice& begin_key,
                                        const Slice& end_key) {
  const uint32_t cf_id = CfId(cf);
  size_t offset = 0;
  Status s = rep_->Admit(cf_id, begin_key, &end_key, &offset);
  if (!s.ok()) return s;
  s = rep_->batch.DeleteRange(cf, begin_key, end_key);
  if (!s.ok()) return s;
  const size_t begin_offset = Rep::KeyOffset(offset, cf_id, begin_key);
  const size_t end_offset = begin_offset + begin_key.size() + VarintLength(end_key.size());
  rep_->index.AddRangeDeletion(cf_id, offset, begin_offset, static_cast<uint32_t>(begin_key.size()),
                               end_offset, static_cast<uint32_t>(end_key.size()));
  return s;
}
Status WriteBatchWithIndex::DeleteRange(const Slice& begin_key, const Slice& end_key) {
  return DeleteRange(nullptr, begin_key, end_key);
}

Status WriteBatchWithIndex::PutLogData(const Slice& blob) {
  if (blob.size() > kMaxSliceSize) {
    return Status::InvalidArgument("WriteBatchWithIndex: blob larger than 4 GiB - 1");
  }
  if (rep_->max_bytes != 0 &&
      rep_->batch.GetDataSize() + 1 + VarintLength(blob.size()) + blob.size() > rep_->max_bytes) {
    return Status::MemoryLimit("WriteBatchWithIndex: max_bytes exceeded");
  }
  return rep_->batch.PutLogData(blob);
}

// The timestamp forms and PutEntity answer as RocksDB 7.8.3's
// WriteBatchWithIndex does (its messages), naming what is refused where
// RocksDB's status has no message.
namespace {
Status WbwiTimestampRefused(ColumnFamilyHandle* cf, const char* call) {
  if (cf == nullptr) return Status::InvalidArgument("column family handle cannot be nullptr");
  return Status::NotSupported(call, "user-defined timestamps are not supported");
}
}  // namespace

Status WriteBatchWithIndex::Put(ColumnFamilyHandle* cf, const Slice&, const Slice&, const Slice&) {
  return WbwiTimestampRefused(cf, "WriteBatchWithIndex::Put");
}
Status WriteBatchWithIndex::PutEntity(ColumnFamilyHandle* cf, const Slice&, const WideColumns&) {
  if (cf == nullptr) {
    return Status::InvalidArgument("Cannot call this method without a column family handle");
  }
  return Status::NotSupported("PutEntity not supported by WriteBatchWithIndex");
}
Status WriteBatchWithIndex::Merge(ColumnFamilyHandle*, const Slice&, const Slice&, const Slice&) {
  return MergeTimestampRefused();
}
Status WriteBatchWithIndex::Delete(ColumnFamilyHandle* cf, const Slice&, const Slice&) {
  return WbwiTimestampRefused(cf, "WriteBatchWithIndex::Delete");
}
Status WriteBatchWithIndex::SingleDelete(ColumnFamilyHandle* cf, const Slice&, const Slice&) {
  return WbwiTimestampRefused(cf, "WriteBatchWithIndex::SingleDelete");
}
Status WriteBatchWithIndex::DeleteRange(ColumnFamilyHandle*, const Slice&, const Slice&,
                                        const Slice&) {
  return Status::NotSupported("DeleteRange unsupported in WriteBatchWithIndex");
}

void WriteBatchWithIndex::SetMaxBytes(size_t max_bytes) { rep_->max_bytes = max_bytes; }

void WriteBatchWithIndex::Clear() {
  rep_->batch.Clear();
  rep_->index.Clear();
}

void WriteBatchWithIndex::SetSavePoint() { rep_->batch.SetSavePoint(); }

Status WriteBatchWithIndex::PopSavePoint() { return rep_->batch.PopSavePoint(); }

namespace {

// Re-indexes a batch's records in order. The offset of each record is
// recomputed from the sizes of the records before it (the wire format has
// no gaps; RecordSize mirrors the encoding), so the entries point at the
// same bytes AddPoint / AddRangeDeletion saw when the records were added.
class Reindexer final : public WriteBatch::Handler {
 public:
  explicit Reindexer(WriteBatchIndex* index) : index_(index) {}
  Status PutCF(uint32_t cf, const Slice& key, const Slice& value) override {
    return Point(cf, kPutRecord, key, &value);
  }
  Status DeleteCF(uint32_t cf, const Slice& key) override {
    return Point(cf, kDeleteRecord, key, nullptr);
  }
  Status SingleDeleteCF(uint32_t cf, const Slice& key) override {
    return Point(cf, kSingleDeleteRecord, key, nullptr);
  }
  Status MergeCF(uint32_t cf, const Slice& key, const Slice& value) override {
    return Point(cf, kMergeRecord, key, &value);
  }
  Status DeleteRangeCF(uint32_t cf, const Slice& begin, const Slice& end) override {
    const size_t begin_offset = KeyOffset(cf, begin);
    const size_t end_offset = begin_offset + begin.size() + VarintLength(end.size());
    index_->AddRangeDeletion(cf, offset_, begin_offset, static_cast<uint32_t>(begin.size()),
                             end_offset, static_cast<uint32_t>(end.size()));
    offset_ += RecordSize(cf, begin, &end);
    return Status::OK();
  }
  void LogData(const Slice& blob) override {
    offset_ += 1 + VarintLength(blob.size()) + blob.size();
  }
  // A transaction's batch may carry two-phase-commit markers (the Noop
  // placeholder, BeginPrepare/EndPrepare): not indexed, only stepped over.
  Status MarkNoop(bool) override {
    offset_ += 1;
    return Status::OK();
  }
  Status MarkBeginPrepare(bool) override {
    offset_ += 1;
    return Status::OK();
  }
  Status MarkEndPrepare(const Slice& xid) override { return Xid(xid); }
  Status MarkCommit(const Slice& xid) override { return Xid(xid); }
  Status MarkRollback(const Slice& xid) override { return Xid(xid); }

 private:
  Status Xid(const Slice& xid) {
    offset_ += 1 + VarintLength(xid.size()) + xid.size();
    return Status::OK();
  }
  size_t KeyOffset(uint32_t cf, const Slice& key) const {
    return offset_ + 1 + (cf != 0 ? VarintLength(cf) : 0) + VarintLength(key.size());
  }
  Status Point(uint32_t cf, WriteType type, const Slice& key, const Slice* value) {
    index_->AddPoint(
        WbwiEntry{offset_, KeyOffset(cf, key), static_cast<uint32_t>(key.size()), cf, type});
    offset_ += RecordSize(cf, key, value);
    return Status::OK();
  }

  WriteBatchIndex* const index_;
  size_t offset_ = 12;  // the batch header
};

}  // namespace

Status WriteBatchWithIndex::RollbackToSavePoint() {
  Status s = rep_->batch.RollbackToSavePoint();
  if (!s.ok()) return s;
  rep_->index.Clear();
  Reindexer reindexer(&rep_->index);
  return rep_->batch.Iterate(&reindexer);
}

WriteBatch* WriteBatchWithIndex::GetWriteBatch() { return &rep_->batch; }

size_t WriteBatchWithIndex::IndexMemoryUsage() const { return rep_->index.MemoryUsage(); }

std::unique_ptr<WBWIIterator> WriteBatchWithIndex::NewIterator(ColumnFamilyHandle* cf) const {
  return std::make_unique<WBWIIteratorImpl>(&rep_->index, CfId(cf));
}
std::unique_ptr<WBWIIterator> WriteBatchWithIndex::NewIterator() const {
  return NewIterator(nullptr);
}

std::unique_ptr<Iterator> WriteBatchWithIndex::NewIteratorWithBase(
    ColumnFamilyHandle* cf, std::unique_ptr<Iterator> base_iterator,
    const ReadOptions* read_options, const MergeOperator* merge_operator) const {
  return std::make_unique<BaseDeltaIterator>(&rep_->index, CfId(cf), std::move(base_iterator),
                                             read_options, merge_operator);
}
std::unique_ptr<Iterator> WriteBatchWithIndex::NewIteratorWithBase(
    std::unique_ptr<Iterator> base_iterator) const {
  return NewIteratorWithBase(nullptr, std::move(base_iterator));
}

Status WriteBatchWithIndex::GetFromBatch(ColumnFamilyHandle* cf, const DBOptions& /*options*/,
                                         const Slice& key, std::string* value,
                                         const MergeOperator* merge_operator) {
  bool need_base = false;
  return rep_->GetFromBatch(CfId(cf), key, value, merge_operator, &need_base);
}

Status WriteBatchWithIndex::GetFromBatch(ColumnFamilyHandle* cf, const Options& options,
                                         const Slice& key, std::string* value) {
  return GetFromBatch(cf, static_cast<const DBOptions&>(options), key, value,
                      options.merge_operator.get());
}

Status WriteBatchWithIndex::GetFromBatchAndDB(DB* db, const ReadOptions& read_options,
                                              ColumnFamilyHandle* cf, const Slice& key,
                                              std::string* value,
                                              const MergeOperator* merge_operator) {
  bool need_base = false;
  Status s = rep_->GetFromBatch(CfId(cf), key, value, merge_operator, &need_base);
  // The batch decided: a value, a deletion or a failed merge.
  if (!need_base && rep_->resolved.state != WbwiKeyState::kNotFound) return s;
  ColumnFamilyHandle* handle = cf != nullptr ? cf : db->DefaultColumnFamily();
  if (!need_base) return db->Get(read_options, handle, key, value);
  std::string base;
  s = db->Get(read_options, handle, key, &base);
  if (s.IsNotFound()) {
    return ApplyMerge(merge_operator, key, nullptr, rep_->resolved.operands, value);
  }
  if (!s.ok()) return s;
  const Slice base_slice(base);
  return ApplyMerge(merge_operator, key, &base_slice, rep_->resolved.operands, value);
}

}  // namespace strata
