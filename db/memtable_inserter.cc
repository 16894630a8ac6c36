#include "db/memtable_inserter.h"

namespace strata {

namespace {

class Inspector final : public WriteBatch::Handler {
 public:
  Inspector(BatchContents* c, const ColumnFamilySet* families) : c_(c), families_(families) {}
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
    if (families_ != nullptr) {
      const ColumnFamilyData* cfd = families_->Lookup(cf);
      if (cfd != nullptr && cfd->options().merge_operator == nullptr) {
        c_->merges_without_operator++;
      }
    }
    return Status::OK();
  }
  void LogData(const Slice&) override {}

 private:
  void Count(uint32_t cf, uint32_t* counter) {
    (*counter)++;
    if (cf != 0) {
      c_->non_default_cf++;
      if (families_ != nullptr && families_->Lookup(cf) == nullptr && status_.ok()) {
        status_ = Status::InvalidArgument("Invalid column family specified in write batch",
                                          "id " + std::to_string(cf));
      }
    }
  }

 public:
  Status status_;

 private:
  BatchContents* c_;
  const ColumnFamilySet* families_;
};

class Inserter final : public WriteBatch::Handler {
 public:
  Inserter(SequenceNumber seq, const MemTableTargets& targets, bool concurrent)
      : seq_(seq), targets_(targets), concurrent_(concurrent) {}

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
  // The memtable of family cf in *mem, or nullptr with the record's
  // sequence consumed when the record is skipped.
  Status Target(uint32_t cf, MemTable** mem) {
    if (cf == 0 && targets_.default_mem != nullptr) {
      *mem = targets_.default_mem;
      return Status::OK();
    }
    *mem = nullptr;
    if (cf != 0) {
      ColumnFamilyData* cfd =
          targets_.families != nullptr ? targets_.families->Lookup(cf) : nullptr;
      if (cfd != nullptr) {
        if (targets_.recovery_log_number == 0 ||
            cfd->log_number() <= targets_.recovery_log_number) {
          *mem = cfd->leader_mem();
          return Status::OK();
        }
      } else if (targets_.recovery_log_number == 0) {
        return Status::InvalidArgument("Invalid column family specified in write batch",
                                       "id " + std::to_string(cf));
      }
    }
    seq_++;
    return Status::OK();
  }

  Status Add(uint32_t cf, ValueType type, const Slice& key, const Slice& value) {
    MemTable* mem;
    if (cf == 0 && targets_.default_mem != nullptr) {
      mem = targets_.default_mem;
    } else {
      Status s = Target(cf, &mem);
      if (!s.ok() || mem == nullptr) return s;
    }
    mem->Add(seq_++, type, key, value, concurrent_);
    return Status::OK();
  }

  SequenceNumber seq_;
  const MemTableTargets& targets_;
  const bool concurrent_;
};

}  // namespace

Status InspectBatch(const WriteBatch& batch, BatchContents* contents,
                    const ColumnFamilySet* families) {
  *contents = BatchContents();
  Inspector inspector(contents, families);
  Status s = batch.Iterate(&inspector);
  if (s.ok()) s = inspector.status_;
  return s;
}

Status InsertBatchIntoMemTable(const WriteBatch& batch, SequenceNumber first_seq,
                               const MemTableTargets& targets, bool concurrent) {
  Inserter inserter(first_seq, targets, concurrent);
  return batch.Iterate(&inserter);
}

}  // namespace strata
