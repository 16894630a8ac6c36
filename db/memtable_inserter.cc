#include "db/memtable_inserter.h"

namespace strata {

namespace {

class Inspector final : public WriteBatch::Handler {
 public:
  explicit Inspector(BatchContents* c) : c_(c) {}
  Status PutCF(uint32_t cf, const Slice&, const Slice&) override {
    Count(cf, &c_->puts);
    return Status::OK();
  }
  Status DeleteCF(uint32_t cf, const Slice&) override {
    Count(cf, &c_->deletes);
    return Status::OK();
  }
  Status SingleDeleteCF(uint32_t cf, const Slice&) override {
    Count(cf, &c_->single_deletes);
    return Status::OK();
  }
  Status DeleteRangeCF(uint32_t cf, const Slice&, const Slice&) override {
    Count(cf, &c_->range_deletes);
    return Status::OK();
  }
  Status MergeCF(uint32_t cf, const Slice&, const Slice&) override {
    Count(cf, &c_->merges);
    return Status::OK();
  }
  void LogData(const Slice&) override {}

 private:
  void Count(uint32_t cf, uint32_t* counter) {
    (*counter)++;
    if (cf != 0) c_->non_default_cf++;
  }
  BatchContents* c_;
};

class Inserter final : public WriteBatch::Handler {
 public:
  Inserter(SequenceNumber seq, MemTable* mem, bool concurrent, bool skip_other_cfs)
      : seq_(seq), mem_(mem), concurrent_(concurrent), skip_other_cfs_(skip_other_cfs) {}

  Status PutCF(uint32_t cf, const Slice& key, const Slice& value) override {
    return Add(cf, kTypeValue, key, value);
  }
  Status DeleteCF(uint32_t cf, const Slice& key) override {
    return Add(cf, kTypeDeletion, key, Slice());
  }
  Status SingleDeleteCF(uint32_t cf, const Slice& key) override {
    return Add(cf, kTypeSingleDeletion, key, Slice());
  }
  Status DeleteRangeCF(uint32_t cf, const Slice& begin, const Slice& end) override {
    return Add(cf, kTypeRangeDeletion, begin, end);
  }
  Status MergeCF(uint32_t cf, const Slice& key, const Slice& value) override {
    return Add(cf, kTypeMerge, key, value);
  }
  void LogData(const Slice&) override {}

 private:
  Status Add(uint32_t cf, ValueType type, const Slice& key, const Slice& value) {
    if (cf != 0) {
      if (!skip_other_cfs_) {
        return Status::InvalidArgument("column family not found", "id " + std::to_string(cf));
      }
      seq_++;
      return Status::OK();
    }
    mem_->Add(seq_++, type, key, value, concurrent_);
    return Status::OK();
  }

  SequenceNumber seq_;
  MemTable* const mem_;
  const bool concurrent_;
  const bool skip_other_cfs_;
};

}  // namespace

Status InspectBatch(const WriteBatch& batch, BatchContents* contents) {
  *contents = BatchContents();
  Inspector inspector(contents);
  return batch.Iterate(&inspector);
}

Status InsertBatchIntoMemTable(const WriteBatch& batch, SequenceNumber first_seq, MemTable* mem,
                               bool concurrent, bool skip_other_cfs) {
  Inserter inserter(first_seq, mem, concurrent, skip_other_cfs);
  return batch.Iterate(&inserter);
}

}  // namespace strata
