#include "db/memtable_inserter.h"

#include <string>

#include "db/write_batch_internal.h"

namespace strata {

namespace {

// RocksDB's records Strata cannot apply (it never writes them): refused by
// the engine's handlers with one message naming the record.
Status UnappliedRecord(const char* what) {
  return Status::NotSupported(std::string("WriteBatch record ") + what +
                              " is not supported by Strata");
}

class Inspector final : public WriteBatch::Handler {
 public:
  Inspector(BatchContents* c, const ColumnFamilySet* families) : c_(c), families_(families) {}
  Status PutEntityCF(uint32_t, const Slice&, const Slice&) override {
    return UnappliedRecord("PutEntity (a wide-column entity)");
  }
  Status PutBlobIndexCF(uint32_t, const Slice&, const Slice&) override {
    return UnappliedRecord("BlobIndex (a BlobDB blob reference)");
  }
  Status MarkCommitWithTimestamp(const Slice&, const Slice&) override {
    return UnappliedRecord("CommitXIDAndTimestamp (a commit with a timestamp)");
  }
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
  Status MarkBeginPrepare(bool) override { return Marker(); }
  Status MarkEndPrepare(const Slice&) override { return Marker(); }
  Status MarkCommit(const Slice&) override { return Marker(); }
  Status MarkRollback(const Slice&) override { return Marker(); }

 private:
  Status Marker() {
    c_->txn_markers++;
    return Status::OK();
  }
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
      : seq_(seq), targets_(targets), concurrent_(concurrent), log_ref_(targets.log_ref) {}
  Status PutEntityCF(uint32_t, const Slice&, const Slice&) override {
    return UnappliedRecord("PutEntity (a wide-column entity)");
  }
  Status PutBlobIndexCF(uint32_t, const Slice&, const Slice&) override {
    return UnappliedRecord("BlobIndex (a BlobDB blob reference)");
  }
  Status MarkCommitWithTimestamp(const Slice&, const Slice&) override {
    return UnappliedRecord("CommitXIDAndTimestamp (a commit with a timestamp)");
  }

  Status PutCF(uint32_t cf, const Slice& key, const Slice& value) override {
    if (rebuilding_ != nullptr) return WriteBatchInternal::Put(&rebuilding_->batch, cf, key, value);
    return Add(cf, kTypeValue, key, value);
  }
  Status DeleteCF(uint32_t cf, const Slice& key) override {
    if (rebuilding_ != nullptr) return WriteBatchInternal::Delete(&rebuilding_->batch, cf, key);
    return Add(cf, kTypeDeletion, key, Slice());
  }
  Status SingleDeleteCF(uint32_t cf, const Slice& key) override {
    if (rebuilding_ != nullptr) {
      return WriteBatchInternal::SingleDelete(&rebuilding_->batch, cf, key);
    }
    return Add(cf, kTypeSingleDeletion, key, Slice());
  }
  Status DeleteRangeCF(uint32_t cf, const Slice& begin, const Slice& end) override {
    if (rebuilding_ != nullptr) {
      return WriteBatchInternal::DeleteRange(&rebuilding_->batch, cf, begin, end);
    }
    return Add(cf, kTypeRangeDeletion, begin, end);
  }
  Status MergeCF(uint32_t cf, const Slice& key, const Slice& value) override {
    if (rebuilding_ != nullptr) {
      return WriteBatchInternal::Merge(&rebuilding_->batch, cf, key, value);
    }
    return Add(cf, kTypeMerge, key, value);
  }
  void LogData(const Slice&) override {}

  // Two-phase commit. Outside recovery the markers only frame records to
  // insert (a commit's batch carries the prepared records behind its WAL
  // termination point). In recovery a prepared section is rebuilt aside
  // without sequence numbers (it took none when it was logged) and applied
  // at its Commit marker with the sequences that follow, as RocksDB does.
  Status MarkBeginPrepare(bool unprepare) override {
    if (targets_.recovery_log_number == 0) return Status::OK();
    if (unprepare) {
      return Status::NotSupported(
          "WAL holds a WRITE_UNPREPARED transaction (BeginUnprepare marker); Strata builds "
          "WRITE_COMMITTED only");
    }
    if (targets_.recovered == nullptr) {
      return Status::NotSupported(
          "WAL contains prepared transactions. Open with TransactionDB::Open().");
    }
    if (rebuilding_ != nullptr) return Status::Corruption("BeginPrepare inside a prepared section");
    rebuilding_ = std::make_unique<RecoveredTransaction>();
    rebuilding_->log_number = targets_.recovery_log_number;
    return Status::OK();
  }
  Status MarkEndPrepare(const Slice& xid) override {
    if (targets_.recovery_log_number == 0) return Status::OK();
    if (rebuilding_ == nullptr) return Status::Corruption("EndPrepare without BeginPrepare");
    rebuilding_->name = xid.ToString();
    std::string name = rebuilding_->name;
    (*targets_.recovered)[name] = std::move(rebuilding_);
    return Status::OK();
  }
  Status MarkCommit(const Slice& xid) override {
    if (targets_.recovery_log_number == 0 || targets_.recovered == nullptr) return Status::OK();
    if (rebuilding_ != nullptr) return Status::Corruption("Commit inside a prepared section");
    auto it = targets_.recovered->find(xid.ToString());
    // Not found: the WAL of the prepared section was let go because the data
    // the commit applied is in tables now; nothing to apply.
    if (it == targets_.recovered->end()) return Status::OK();
    const uint64_t saved_ref = log_ref_;
    log_ref_ = it->second->log_number;
    Status s = it->second->batch.Iterate(this);
    log_ref_ = saved_ref;
    if (s.ok()) targets_.recovered->erase(it);
    return s;
  }
  Status MarkRollback(const Slice& xid) override {
    if (targets_.recovery_log_number == 0 || targets_.recovered == nullptr) return Status::OK();
    if (rebuilding_ != nullptr) return Status::Corruption("Rollback inside a prepared section");
    targets_.recovered->erase(xid.ToString());
    return Status::OK();
  }

  SequenceNumber next_seq() const { return seq_; }
  // A prepared section the batch began but did not end.
  bool unfinished_prepare() const { return rebuilding_ != nullptr; }

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
    if (log_ref_ != 0) mem->RefLogContainingPrepSection(log_ref_);
    return Status::OK();
  }

  SequenceNumber seq_;
  const MemTableTargets& targets_;
  const bool concurrent_;
  uint64_t log_ref_;  // the prepared section's WAL whose data is inserted (0: none)
  std::unique_ptr<RecoveredTransaction> rebuilding_;  // the prepared section being read
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
                               const MemTableTargets& targets, bool concurrent,
                               SequenceNumber* next_seq) {
  Inserter inserter(first_seq, targets, concurrent);
  Status s = batch.Iterate(&inserter);
  if (s.ok() && inserter.unfinished_prepare()) {
    s = Status::Corruption("prepared section without EndPrepare");
  }
  if (next_seq != nullptr) *next_seq = inserter.next_seq();
  return s;
}

}  // namespace strata
