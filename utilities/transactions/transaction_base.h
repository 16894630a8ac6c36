// TransactionBase: what optimistic and pessimistic transactions share --
// the WriteBatchWithIndex their writes collect in, reads of it over the DB,
// the snapshot, save points, and the keys the transaction tracks (locked,
// for a pessimistic one; to check at commit, for an optimistic one). The
// kinds differ in TryLock (called before every write and GetForUpdate),
// UnlockKey, and the commit protocol.
//
// Uses DB internals (db/db_impl.h): the write path's transaction hooks and
// the conflict check (DBImpl::WriteWithTxn, CheckKeysForConflicts).
//
// Thread-safety: not thread-safe (one thread per transaction at a time).
// Invariants:
//  1. tracked_keys_ holds every key TryLock accepted and no write or
//     UndoGetForUpdate released since; each save point's new_keys holds the
//     keys (and counts) tracked after it was set.
//  2. A tracked key's seq is the oldest sequence the key was tracked at: no
//     write to it after that sequence is allowed to have gone unchecked.
//  3. With allow_2pc the batch starts with a Noop record (the placeholder
//     Prepare turns into BeginPrepare).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/dbformat.h"
#include "strata/db.h"
#include "strata/utilities/transaction.h"
#include "strata/utilities/write_batch_with_index.h"

namespace strata {

class DBImpl;

struct TrackedKeyInfo {
  SequenceNumber seq = kMaxSequenceNumber;
  uint32_t num_reads = 0;
  uint32_t num_writes = 0;
  bool exclusive = false;
};
// Column family id -> key -> info.
using TrackedKeys = std::unordered_map<uint32_t, std::unordered_map<std::string, TrackedKeyInfo>>;

class TransactionBase : public Transaction {
 public:
  // db: the DB the application sees (reads and iterators go through it);
  // dbimpl: the engine under it.
  TransactionBase(DB* db, DBImpl* dbimpl, const WriteOptions& write_options);
  ~TransactionBase() override;

  void SetSnapshot() override;
  void SetSnapshotOnNextOperation(std::shared_ptr<TransactionNotifier> notifier) override;
  const Snapshot* GetSnapshot() const override { return snapshot_.get(); }
  std::shared_ptr<const Snapshot> GetTimestampedSnapshot() const override { return snapshot_; }
  void ClearSnapshot() override;

  void SetSavePoint() override;
  Status RollbackToSavePoint() override;
  Status PopSavePoint() override;

  using Transaction::Get;
  using Transaction::GetForUpdate;
  using Transaction::GetIterator;
  using Transaction::MultiGet;
  using Transaction::MultiGetForUpdate;
  Status Get(const ReadOptions& options, ColumnFamilyHandle* cf, const Slice& key,
             std::string* value) override;
  std::vector<Status> MultiGet(const ReadOptions& options,
                               const std::vector<ColumnFamilyHandle*>& cfs,
                               const std::vector<Slice>& keys,
                               std::vector<std::string>* values) override;
  Status GetForUpdate(const ReadOptions& options, ColumnFamilyHandle* cf, const Slice& key,
                      std::string* value, bool exclusive, bool do_validate) override;
  std::vector<Status> MultiGetForUpdate(const ReadOptions& options,
                                        const std::vector<ColumnFamilyHandle*>& cfs,
                                        const std::vector<Slice>& keys,
                                        std::vector<std::string>* values) override;
  std::unique_ptr<Iterator> GetIterator(const ReadOptions& options,
                                        ColumnFamilyHandle* cf) override;

  using Transaction::Delete;
  using Transaction::DeleteUntracked;
  using Transaction::Merge;
  using Transaction::MergeUntracked;
  using Transaction::Put;
  using Transaction::PutUntracked;
  using Transaction::SingleDelete;
  using Transaction::SingleDeleteUntracked;
  Status Put(ColumnFamilyHandle* cf, const Slice& key, const Slice& value,
             bool assume_tracked) override;
  Status Merge(ColumnFamilyHandle* cf, const Slice& key, const Slice& value,
               bool assume_tracked) override;
  Status Delete(ColumnFamilyHandle* cf, const Slice& key, bool assume_tracked) override;
  Status SingleDelete(ColumnFamilyHandle* cf, const Slice& key, bool assume_tracked) override;
  Status PutUntracked(ColumnFamilyHandle* cf, const Slice& key, const Slice& value) override;
  Status MergeUntracked(ColumnFamilyHandle* cf, const Slice& key, const Slice& value) override;
  Status DeleteUntracked(ColumnFamilyHandle* cf, const Slice& key) override;
  Status SingleDeleteUntracked(ColumnFamilyHandle* cf, const Slice& key) override;
  void PutLogData(const Slice& blob) override;
  void DisableIndexing() override { indexing_enabled_ = false; }
  void EnableIndexing() override { indexing_enabled_ = true; }

  uint64_t GetNumKeys() const override;
  uint64_t GetNumPuts() const override { return num_puts_; }
  uint64_t GetNumDeletes() const override { return num_deletes_; }
  uint64_t GetNumMerges() const override { return num_merges_; }
  uint64_t GetElapsedTime() const override;
  WriteBatchWithIndex* GetWriteBatch() override { return write_batch_.get(); }
  void SetLockTimeout(int64_t /*timeout_ms*/) override {}
  WriteOptions* GetWriteOptions() override { return &write_options_; }
  void SetWriteOptions(const WriteOptions& write_options) override {
    write_options_ = write_options;
  }
  void UndoGetForUpdate(ColumnFamilyHandle* cf, const Slice& key) override;
  Status RebuildFromWriteBatch(WriteBatch* src_batch) override;
  WriteBatch* GetCommitTimeWriteBatch() override { return &commit_time_batch_; }

  const TrackedKeys& tracked_keys() const { return tracked_keys_; }

 protected:
  // Locks (pessimistic) or records (optimistic) key before a write
  // (read_only false) or a GetForUpdate (true). do_validate: check the key
  // against the snapshot; assume_tracked: the caller says the key is
  // already tracked.
  virtual Status TryLock(uint32_t cf_id, const Slice& key, bool read_only, bool exclusive,
                         bool do_validate, bool assume_tracked) = 0;
  // The key is no longer tracked (save point rollback, UndoGetForUpdate).
  virtual void UnlockKey(uint32_t cf_id, const std::string& key) = 0;

  // Records a key TryLock accepted (invariants 1 and 2).
  void TrackKey(uint32_t cf_id, const std::string& key, SequenceNumber seq, bool read_only,
                bool exclusive);
  // Takes the snapshot SetSnapshotOnNextOperation asked for.
  void SetSnapshotIfNeeded();
  // Drops the writes, the tracked keys (the caller unlocks them first) and
  // the save points; the snapshot stays.
  void ClearState();
  // Starts over for a new transaction (BeginTransaction's reuse).
  void Reset(const WriteOptions& write_options);

  static uint32_t CfId(ColumnFamilyHandle* cf) { return cf == nullptr ? 0 : cf->GetID(); }
  const MergeOperator* MergeOperatorFor(uint32_t cf_id) const;

  DB* const db_;
  DBImpl* const dbimpl_;
  WriteOptions write_options_;
  std::unique_ptr<WriteBatchWithIndex> write_batch_;
  WriteBatch commit_time_batch_;
  std::shared_ptr<const Snapshot> snapshot_;
  TrackedKeys tracked_keys_;
  uint64_t start_time_us_ = 0;

 private:
  // One write through the index (or around it, with indexing off).
  enum class Op { kPut, kMerge, kDelete, kSingleDelete };
  Status Write(Op op, ColumnFamilyHandle* cf, const Slice& key, const Slice& value, bool tracked,
               bool assume_tracked);

  struct SavePoint {
    std::shared_ptr<const Snapshot> snapshot;
    bool snapshot_needed = false;
    std::shared_ptr<TransactionNotifier> notifier;
    uint64_t num_puts = 0;
    uint64_t num_deletes = 0;
    uint64_t num_merges = 0;
    TrackedKeys new_keys;  // tracked after this save point
  };
  std::vector<SavePoint> save_points_;
  bool snapshot_needed_ = false;
  std::shared_ptr<TransactionNotifier> snapshot_notifier_;
  bool indexing_enabled_ = true;
  uint64_t num_puts_ = 0;
  uint64_t num_deletes_ = 0;
  uint64_t num_merges_ = 0;
};

}  // namespace strata
