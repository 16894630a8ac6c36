// TransactionBase (see the header for the contract).
#include "utilities/transactions/transaction_base.h"

#include <deque>

#include "db/db_impl.h"
#include "db/write_batch_internal.h"

namespace strata {

TransactionBase::TransactionBase(DB* db, DBImpl* dbimpl, const WriteOptions& write_options)
    : db_(db),
      dbimpl_(dbimpl),
      write_options_(write_options),
      write_batch_(std::make_unique<WriteBatchWithIndex>(BytewiseComparator(), 0,
                                                         /*overwrite_key=*/true)) {
  start_time_us_ = db_->GetEnv()->GetSystemClock()->NowMicros();
  if (dbimpl_->allow_2pc()) WriteBatchInternal::InsertNoop(write_batch_->GetWriteBatch());
}

TransactionBase::~TransactionBase() = default;

void TransactionBase::Reset(const WriteOptions& write_options) {
  write_options_ = write_options;
  ClearState();
  snapshot_.reset();
  snapshot_needed_ = false;
  snapshot_notifier_.reset();
  indexing_enabled_ = true;
  name_.clear();
  log_number_ = 0;
  SetState(STARTED);
  start_time_us_ = db_->GetEnv()->GetSystemClock()->NowMicros();
}

void TransactionBase::ClearState() {
  write_batch_->Clear();
  commit_time_batch_.Clear();
  tracked_keys_.clear();
  save_points_.clear();
  num_puts_ = num_deletes_ = num_merges_ = 0;
  if (dbimpl_->allow_2pc()) WriteBatchInternal::InsertNoop(write_batch_->GetWriteBatch());
}

// ---- snapshots ----

void TransactionBase::SetSnapshot() {
  DB* db = db_;
  const Snapshot* s = db->GetSnapshot();
  snapshot_ = std::shared_ptr<const Snapshot>(s, [db](const Snapshot* p) {
    if (p != nullptr) db->ReleaseSnapshot(p);
  });
  snapshot_needed_ = false;
}

void TransactionBase::SetSnapshotOnNextOperation(std::shared_ptr<TransactionNotifier> notifier) {
  snapshot_needed_ = true;
  snapshot_notifier_ = std::move(notifier);
}

void TransactionBase::SetSnapshotIfNeeded() {
  if (!snapshot_needed_) return;
  std::shared_ptr<TransactionNotifier> notifier = std::move(snapshot_notifier_);
  SetSnapshot();
  if (notifier != nullptr) notifier->SnapshotCreated(snapshot_.get());
}

void TransactionBase::ClearSnapshot() {
  snapshot_.reset();
  snapshot_needed_ = false;
  snapshot_notifier_.reset();
}

// ---- save points ----

void TransactionBase::SetSavePoint() {
  SavePoint sp;
  sp.snapshot = snapshot_;
  sp.snapshot_needed = snapshot_needed_;
  sp.notifier = snapshot_notifier_;
  sp.num_puts = num_puts_;
  sp.num_deletes = num_deletes_;
  sp.num_merges = num_merges_;
  save_points_.push_back(std::move(sp));
  write_batch_->SetSavePoint();
}

Status TransactionBase::RollbackToSavePoint() {
  if (save_points_.empty()) {
    // The batch has none either; keep the two in step.
    return Status::NotFound("no save point is set");
  }
  SavePoint& sp = save_points_.back();
  snapshot_ = sp.snapshot;
  snapshot_needed_ = sp.snapshot_needed;
  snapshot_notifier_ = sp.notifier;
  num_puts_ = sp.num_puts;
  num_deletes_ = sp.num_deletes;
  num_merges_ = sp.num_merges;
  Status s = write_batch_->RollbackToSavePoint();
  // Keys first tracked after the save point are released; keys tracked
  // before it keep what they had then.
  for (const auto& [cf, keys] : sp.new_keys) {
    auto cf_it = tracked_keys_.find(cf);
    if (cf_it == tracked_keys_.end()) continue;
    for (const auto& [key, added] : keys) {
      auto it = cf_it->second.find(key);
      if (it == cf_it->second.end()) continue;
      TrackedKeyInfo& info = it->second;
      info.num_reads -= std::min(info.num_reads, added.num_reads);
      info.num_writes -= std::min(info.num_writes, added.num_writes);
      if (info.num_reads == 0 && info.num_writes == 0) {
        cf_it->second.erase(it);
        UnlockKey(cf, key);
      }
    }
  }
  save_points_.pop_back();
  return s;
}

Status TransactionBase::PopSavePoint() {
  if (save_points_.empty()) return Status::NotFound("no save point is set");
  SavePoint sp = std::move(save_points_.back());
  save_points_.pop_back();
  // What was tracked after it now counts as tracked after the one before.
  if (!save_points_.empty()) {
    TrackedKeys& into = save_points_.back().new_keys;
    for (const auto& [cf, keys] : sp.new_keys) {
      for (const auto& [key, added] : keys) {
        TrackedKeyInfo& info = into[cf][key];
        info.num_reads += added.num_reads;
        info.num_writes += added.num_writes;
        info.exclusive = info.exclusive || added.exclusive;
        info.seq = std::min(info.seq, added.seq);
      }
    }
  }
  return write_batch_->PopSavePoint();
}

// ---- tracking ----

void TransactionBase::TrackKey(uint32_t cf_id, const std::string& key, SequenceNumber seq,
                               bool read_only, bool exclusive) {
  auto add = [&](TrackedKeyInfo* info) {
    info->seq = std::min(info->seq, seq);
    if (read_only) {
      info->num_reads++;
    } else {
      info->num_writes++;
    }
    info->exclusive = info->exclusive || exclusive;
  };
  add(&tracked_keys_[cf_id][key]);
  if (!save_points_.empty()) add(&save_points_.back().new_keys[cf_id][key]);
}

uint64_t TransactionBase::GetNumKeys() const {
  uint64_t n = 0;
  for (const auto& [cf, keys] : tracked_keys_) n += keys.size();
  return n;
}

uint64_t TransactionBase::GetElapsedTime() const {
  const uint64_t now = db_->GetEnv()->GetSystemClock()->NowMicros();
  return now > start_time_us_ ? (now - start_time_us_) / 1000 : 0;
}

void TransactionBase::UndoGetForUpdate(ColumnFamilyHandle* cf, const Slice& key) {
  const uint32_t cf_id = CfId(cf);
  const std::string k = key.ToString();
  auto cf_it = tracked_keys_.find(cf_id);
  if (cf_it == tracked_keys_.end()) return;
  auto it = cf_it->second.find(k);
  if (it == cf_it->second.end() || it->second.num_reads == 0) return;
  it->second.num_reads--;
  if (!save_points_.empty()) {
    // A read made since the last save point is undone there too (a read
    // from before it belongs to the earlier state and stays).
    auto& sp_keys = save_points_.back().new_keys;
    auto sp_cf = sp_keys.find(cf_id);
    if (sp_cf != sp_keys.end()) {
      auto sp_it = sp_cf->second.find(k);
      if (sp_it != sp_cf->second.end() && sp_it->second.num_reads > 0) {
        sp_it->second.num_reads--;
        if (sp_it->second.num_reads == 0 && sp_it->second.num_writes == 0) {
          sp_cf->second.erase(sp_it);
        }
      }
    }
  }
  if (it->second.num_reads == 0 && it->second.num_writes == 0) {
    cf_it->second.erase(it);
    UnlockKey(cf_id, k);
  }
}

// ---- reads ----

const MergeOperator* TransactionBase::MergeOperatorFor(uint32_t cf_id) const {
  return dbimpl_->MergeOperatorOf(cf_id);
}

Status TransactionBase::Get(const ReadOptions& options, ColumnFamilyHandle* cf, const Slice& key,
                            std::string* value) {
  return write_batch_->GetFromBatchAndDB(db_, options, cf, key, value, MergeOperatorFor(CfId(cf)));
}

std::vector<Status> TransactionBase::MultiGet(const ReadOptions& options,
                                              const std::vector<ColumnFamilyHandle*>& cfs,
                                              const std::vector<Slice>& keys,
                                              std::vector<std::string>* values) {
  values->assign(keys.size(), std::string());
  std::vector<Status> out(keys.size());
  if (cfs.size() != keys.size()) {
    for (auto& s : out) s = Status::InvalidArgument("MultiGet: one column family per key");
    return out;
  }
  for (size_t i = 0; i < keys.size(); i++) out[i] = Get(options, cfs[i], keys[i], &(*values)[i]);
  return out;
}

Status TransactionBase::GetForUpdate(const ReadOptions& options, ColumnFamilyHandle* cf,
                                     const Slice& key, std::string* value, bool exclusive,
                                     bool do_validate) {
  if (!do_validate && options.snapshot != nullptr) {
    return Status::InvalidArgument(
        "If do_validate is false then GetForUpdate with snapshot is not defined.");
  }
  SetSnapshotIfNeeded();
  Status s = TryLock(CfId(cf), key, /*read_only=*/true, exclusive, do_validate,
                     /*assume_tracked=*/false);
  if (s.ok() && value != nullptr) s = Get(options, cf, key, value);
  return s;
}

std::vector<Status> TransactionBase::MultiGetForUpdate(const ReadOptions& options,
                                                       const std::vector<ColumnFamilyHandle*>& cfs,
                                                       const std::vector<Slice>& keys,
                                                       std::vector<std::string>* values) {
  values->assign(keys.size(), std::string());
  std::vector<Status> out(keys.size());
  if (cfs.size() != keys.size()) {
    for (auto& s : out) s = Status::InvalidArgument("MultiGetForUpdate: one column family per key");
    return out;
  }
  SetSnapshotIfNeeded();
  // Every key is locked before any is read (RocksDB's order); a failed lock
  // fails every key.
  for (size_t i = 0; i < keys.size(); i++) {
    Status s = TryLock(CfId(cfs[i]), keys[i], true, true, true, false);
    if (!s.ok()) {
      for (auto& o : out) o = s;
      return out;
    }
  }
  for (size_t i = 0; i < keys.size(); i++) out[i] = Get(options, cfs[i], keys[i], &(*values)[i]);
  return out;
}

std::unique_ptr<Iterator> TransactionBase::GetIterator(const ReadOptions& options,
                                                       ColumnFamilyHandle* cf) {
  ColumnFamilyHandle* handle = cf != nullptr ? cf : db_->DefaultColumnFamily();
  return write_batch_->NewIteratorWithBase(cf, db_->NewIterator(options, handle), &options,
                                           MergeOperatorFor(CfId(cf)));
}

// ---- writes ----

Status TransactionBase::Write(Op op, ColumnFamilyHandle* cf, const Slice& key, const Slice& value,
                              bool tracked, bool assume_tracked) {
  SetSnapshotIfNeeded();
  Status s = TryLock(CfId(cf), key, /*read_only=*/false, /*exclusive=*/true,
                     /*do_validate=*/tracked, assume_tracked);
  if (!s.ok()) return s;
  if (indexing_enabled_) {
    switch (op) {
      case Op::kPut:
        s = write_batch_->Put(cf, key, value);
        break;
      case Op::kMerge:
        s = write_batch_->Merge(cf, key, value);
        break;
      case Op::kDelete:
        s = write_batch_->Delete(cf, key);
        break;
      case Op::kSingleDelete:
        s = write_batch_->SingleDelete(cf, key);
        break;
    }
  } else {
    WriteBatch* b = write_batch_->GetWriteBatch();
    const uint32_t id = CfId(cf);
    switch (op) {
      case Op::kPut:
        s = WriteBatchInternal::Put(b, id, key, value);
        break;
      case Op::kMerge:
        s = WriteBatchInternal::Merge(b, id, key, value);
        break;
      case Op::kDelete:
        s = WriteBatchInternal::Delete(b, id, key);
        break;
      case Op::kSingleDelete:
        s = WriteBatchInternal::SingleDelete(b, id, key);
        break;
    }
  }
  if (!s.ok()) return s;
  switch (op) {
    case Op::kPut:
      num_puts_++;
      break;
    case Op::kMerge:
      num_merges_++;
      break;
    case Op::kDelete:
    case Op::kSingleDelete:
      num_deletes_++;
      break;
  }
  return s;
}

Status TransactionBase::Put(ColumnFamilyHandle* cf, const Slice& key, const Slice& value,
                            bool assume_tracked) {
  return Write(Op::kPut, cf, key, value, true, assume_tracked);
}
Status TransactionBase::Merge(ColumnFamilyHandle* cf, const Slice& key, const Slice& value,
                              bool assume_tracked) {
  if (MergeOperatorFor(CfId(cf)) == nullptr) {
    return Status::InvalidArgument("Merge: no merge_operator is configured for the column family");
  }
  return Write(Op::kMerge, cf, key, value, true, assume_tracked);
}
Status TransactionBase::Delete(ColumnFamilyHandle* cf, const Slice& key, bool assume_tracked) {
  return Write(Op::kDelete, cf, key, Slice(), true, assume_tracked);
}
Status TransactionBase::SingleDelete(ColumnFamilyHandle* cf, const Slice& key,
                                     bool assume_tracked) {
  return Write(Op::kSingleDelete, cf, key, Slice(), true, assume_tracked);
}
Status TransactionBase::PutUntracked(ColumnFamilyHandle* cf, const Slice& key, const Slice& value) {
  return Write(Op::kPut, cf, key, value, false, false);
}
Status TransactionBase::MergeUntracked(ColumnFamilyHandle* cf, const Slice& key,
                                       const Slice& value) {
  if (MergeOperatorFor(CfId(cf)) == nullptr) {
    return Status::InvalidArgument("Merge: no merge_operator is configured for the column family");
  }
  return Write(Op::kMerge, cf, key, value, false, false);
}
Status TransactionBase::DeleteUntracked(ColumnFamilyHandle* cf, const Slice& key) {
  return Write(Op::kDelete, cf, key, Slice(), false, false);
}
Status TransactionBase::SingleDeleteUntracked(ColumnFamilyHandle* cf, const Slice& key) {
  return Write(Op::kSingleDelete, cf, key, Slice(), false, false);
}

void TransactionBase::PutLogData(const Slice& blob) {
  // RocksDB's signature returns nothing; a blob over 4 GiB is dropped.
  write_batch_->PutLogData(blob).PermitUncheckedError();
}

Status TransactionBase::RebuildFromWriteBatch(WriteBatch* src_batch) {
  // Replays each record through the transaction (locking its key).
  struct Rebuilder : WriteBatch::Handler {
    TransactionBase* txn;
    DB* db;
    ColumnFamilyHandle* Handle(uint32_t cf) {
      // The records carry ids; the transaction's writes take handles, and
      // only GetID() of them is used below the index.
      handles.emplace_back(cf);
      return cf == 0 ? nullptr : &handles.back();
    }
    struct IdHandle : ColumnFamilyHandle {
      explicit IdHandle(uint32_t i) : id(i) {}
      const std::string& GetName() const override { return name; }
      uint32_t GetID() const override { return id; }
      uint32_t id;
      std::string name;
    };
    std::deque<IdHandle> handles;
    Status PutCF(uint32_t cf, const Slice& k, const Slice& v) override {
      return txn->Put(Handle(cf), k, v, false);
    }
    Status DeleteCF(uint32_t cf, const Slice& k) override {
      return txn->Delete(Handle(cf), k, false);
    }
    Status SingleDeleteCF(uint32_t cf, const Slice& k) override {
      return txn->SingleDelete(Handle(cf), k, false);
    }
    Status MergeCF(uint32_t cf, const Slice& k, const Slice& v) override {
      return txn->Merge(Handle(cf), k, v, false);
    }
    Status DeleteRangeCF(uint32_t, const Slice&, const Slice&) override {
      return Status::NotSupported("DeleteRange in a transaction's write batch");
    }
    Status MarkBeginPrepare(bool) override { return Status::OK(); }
    Status MarkEndPrepare(const Slice&) override { return Status::OK(); }
    Status MarkCommit(const Slice&) override { return Status::OK(); }
    Status MarkRollback(const Slice&) override { return Status::OK(); }
  } rebuilder;
  rebuilder.txn = this;
  rebuilder.db = db_;
  return src_batch->Iterate(&rebuilder);
}

}  // namespace strata
