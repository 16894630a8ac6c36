// DBImpl: the database engine behind the public DB interface.
//
// This slice keeps all data in memtables backed by the WAL: writes go through
// the WriteThread (group commit) into one WAL record per group and then into
// the mutable memtable; reads take a SuperVersion without the DB mutex;
// recovery replays the MANIFEST and then the WAL files. The shape is the one
// the full LSM needs (DESIGN.md section 4): flush and compaction plug into
// PreprocessWrite (memtable switch) and InstallSuperVersion.
//
// Implementation is split by concern: db_impl.cc (reads, snapshots,
// properties, close), db_impl_write.cc (write path), db_impl_open.cc (open,
// recovery, MANIFEST, DestroyDB).
//
// Locking: mu_ guards the metadata below it; it is never held during file
// I/O or memtable inserts. Lock order: WriteThread's queue lock and mu_ are
// never held together. See docs/design/locking.md.
// Thread-safety: thread-safe.
#pragma once

#include <atomic>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "db/compaction/compaction.h"
#include "db/dbformat.h"
#include "db/log_writer.h"
#include "db/snapshot_impl.h"
#include "db/super_version.h"
#include "db/table_cache.h"
#include "db/version_set.h"
#include "db/write_thread.h"
#include "memtable/memtable.h"
#include "strata/compaction_filter.h"
#include "strata/db.h"
#include "util/mutex.h"

namespace strata {

class VersionEdit;

class DBImpl final : public DB {
 public:
  DBImpl(const Options& options, const std::string& dbname);
  ~DBImpl() override;

  // Opens or creates the database (called once by DB::Open).
  Status Open();

  using DB::CompactRange;
  using DB::Delete;
  using DB::Flush;
  using DB::Get;
  using DB::GetIntProperty;
  using DB::GetProperty;
  using DB::Merge;
  using DB::NewIterator;
  using DB::Put;
  using DB::SingleDelete;

  Status Put(const WriteOptions& options, ColumnFamilyHandle* cf, const Slice& key,
             const Slice& value) override;
  Status Delete(const WriteOptions& options, ColumnFamilyHandle* cf, const Slice& key) override;
  Status SingleDelete(const WriteOptions& options, ColumnFamilyHandle* cf,
                      const Slice& key) override;
  Status DeleteRange(const WriteOptions& options, ColumnFamilyHandle* cf, const Slice& begin,
                     const Slice& end) override;
  Status Merge(const WriteOptions& options, ColumnFamilyHandle* cf, const Slice& key,
               const Slice& operand) override;
  Status Write(const WriteOptions& options, WriteBatch* updates) override;

  Status Get(const ReadOptions& options, ColumnFamilyHandle* cf, const Slice& key,
             std::string* value) override;
  std::vector<Status> MultiGet(const ReadOptions& options, const std::vector<Slice>& keys,
                               std::vector<std::string>* values) override;
  std::unique_ptr<Iterator> NewIterator(const ReadOptions& options,
                                        ColumnFamilyHandle* cf) override;
  const Snapshot* GetSnapshot() override;
  void ReleaseSnapshot(const Snapshot* snapshot) override;
  bool GetProperty(ColumnFamilyHandle* cf, const Slice& property, std::string* value) override;
  bool GetIntProperty(ColumnFamilyHandle* cf, const Slice& property, uint64_t* value) override;

  Status Flush(const FlushOptions& options, ColumnFamilyHandle* cf) override;
  Status SyncWAL() override;
  Status CompactRange(const CompactRangeOptions& options, ColumnFamilyHandle* cf,
                      const Slice* begin, const Slice* end) override;
  Status CreateColumnFamily(const ColumnFamilyOptions& options, const std::string& name,
                            ColumnFamilyHandle** handle) override;
  Status DropColumnFamily(ColumnFamilyHandle* handle) override;
  Status DestroyColumnFamilyHandle(ColumnFamilyHandle* handle) override;
  ColumnFamilyHandle* DefaultColumnFamily() const override;

  const std::string& GetName() const override { return dbname_; }
  uint64_t GetLatestSequenceNumber() const override {
    return last_sequence_.load(std::memory_order_acquire);
  }
  Status Close() override;

  // Checks options before anything is touched on disk.
  static Status ValidateOptions(const Options& options);

  // Waits until no flush or compaction is running or needed (tests, tools).
  Status WaitForCompact();

 private:
  class DefaultColumnFamilyHandle;
  struct RecoveryState;

  // ---- write path (db_impl_write.cc) ----
  // force: go through the write thread even with an empty batch (memtable
  // switch requests).
  Status WriteImpl(const WriteOptions& options, WriteBatch* batch, bool force = false);
  // Rejects batches this slice cannot apply (merge, range deletion, column
  // families other than the default one) before anything is logged.
  Status CheckBatchSupported(const WriteBatch& batch) const;
  // Leader-only work before a group is logged: background error check,
  // memtable switches and write stalls. group_bytes sizes the slowdown.
  Status PreprocessWrite(uint64_t group_bytes);
  // Delays or stops the leader while flushes and compactions are behind.
  Status MaybeStallWrite(uint64_t group_bytes);
  // Appends the group's batches to the WAL as one record (when it has any
  // records) and syncs it when a member asked for sync.
  Status WriteGroupToWAL(const WriteThread::WriteGroup& group, size_t total_count);
  Status AppendGroupToWAL(const WriteThread::WriteGroup& group);
  Status AppendRecordToWAL(const Slice& record);
  // Leader of a synced write: briefly waits for more writers to queue.
  void WaitForSyncGroupMembers();

  // ---- open and recovery (db_impl_open.cc) ----
  Status CreateNewDB();
  Status RecoverManifest(RecoveryState* state);
  Status ReplayWALs(RecoveryState* state);
  // *has_data: some record was applied; *dropped: the whole file is to be
  // deleted (history cut off by point-in-time recovery).
  Status ReplayOneWAL(uint64_t number, RecoveryState* state, bool* has_data, bool* dropped);
  Status CreateWAL(uint64_t number);
  Status WriteManifestSnapshot(const RecoveryState& state);
  Status EnsureIdentity();
  void LogOptions();

  // ---- flush and compaction (db_impl_compaction_flush.cc) ----
  // Makes the mutable memtable immutable and starts a new WAL and memtable.
  // Leader-only (or during open); takes mu_.
  Status SwitchMemtable();
  // Asks the next write-group leader to switch memtables; returns when done.
  Status SwitchMemtableThroughWriteThread();
  void MaybeScheduleFlushOrCompaction() REQUIRES(mu_);
  void BackgroundCallFlush();
  void BackgroundCallCompaction();
  Status BackgroundFlush() REQUIRES(mu_);
  // Runs one picked (or manual) compaction; releases mu_ while it works.
  Status RunCompaction(Compaction* c) REQUIRES(mu_);
  // Writes mem as one level-0 table and records it in edit (mu_ released
  // meanwhile). *meta_out gets the file (number 0 if nothing was written).
  Status WriteLevel0Table(MemTable* mem, VersionEdit* edit, FileMetaData* meta_out) REQUIRES(mu_);
  void DeleteObsoleteFiles() REQUIRES(mu_);
  // The compaction filter for one job: options' filter, or a new one from
  // the factory (kept in *owned), or null.
  const CompactionFilter* CompactionFilterFor(bool manual, bool full,
                                              std::unique_ptr<CompactionFilter>* owned);
  // Whether user_key may be in a level below c's output (without mu_).
  bool KeyMayExistBelow(Compaction* c, const Slice& user_key);
  void RecordBackgroundError(const Status& s) REQUIRES(mu_);
  // A SuperVersion of the current memtables and Version, installed.
  void InstallNewSuperVersion() REQUIRES(mu_);
  std::string LevelStatsString() REQUIRES(mu_);

  // ---- reads (db_impl.cc) ----
  // One point lookup in sv at sequence seq.
  Status GetImpl(const ReadOptions& options, SuperVersion* sv, SequenceNumber seq,
                 const Slice& key, std::string* value, bool* memtable_hit);
  SuperVersion* AcquireSuperVersion();
  void ReleaseSuperVersion(SuperVersion* sv);
  // Publishes sv as current (takes its reference) and drops the old one.
  void InstallSuperVersion(SuperVersion* sv) REQUIRES(mu_);
  SequenceNumber ReadSequence(const ReadOptions& options) const;

  // ---- immutable after Open ----
  const std::string dbname_;
  Options options_;
  Env* const env_;
  FileSystem* const fs_;
  SystemClock* const clock_;
  const InternalKeyComparator icmp_;
  Statistics* stats_;  // borrowed from options_.statistics; may be null
  std::shared_ptr<Logger> info_log_;
  std::unique_ptr<FileLock> db_lock_;
  std::unique_ptr<Directory> db_dir_;
  std::unique_ptr<DefaultColumnFamilyHandle> default_cf_;
  FileOptions wal_file_options_;
  MemTableOptions mem_options_;

  std::unique_ptr<TableCache> table_cache_;
  std::unique_ptr<VersionSet> versions_;
  std::unique_ptr<CompactionPicker> picker_;
  BlockBasedTableOptions table_options_;
  std::string db_id_;
  std::string db_session_id_;
  int max_flushes_ = 1;
  int max_compactions_ = 1;

  // ---- write path: used only by the current write-group leader ----
  WriteThread write_thread_;
  std::unique_ptr<log::Writer> log_;  // current WAL
  // WALs of immutable memtables, kept open and not yet synced: a synced
  // write syncs them first, so after power loss the surviving writes are a
  // prefix (never a later synced write without an earlier one). Dropped
  // once their memtable is in a table.
  std::vector<std::unique_ptr<log::Writer>> old_logs_;
  // Current mutable memtable; we hold one reference (the SuperVersion another).
  MemTable* mem_ = nullptr;
  uint64_t log_number_ = 0;
  SequenceNumber last_allocated_sequence_ = 0;
  // Set by Flush: the next leader switches memtables.
  std::atomic<bool> switch_requested_{false};
  WriteBatch group_batch_;  // concatenation buffer for multi-writer groups

  // ---- guarded by mu_ ----
  mutable Mutex mu_;
  SuperVersion* super_version_ GUARDED_BY(mu_) = nullptr;
  uint64_t super_version_number_ GUARDED_BY(mu_) = 0;
  SnapshotList snapshots_ GUARDED_BY(mu_);
  Status bg_error_ GUARDED_BY(mu_);
  bool closed_ GUARDED_BY(mu_) = false;
  CondVar bg_cv_{&mu_};  // signalled when background work finishes
  // Immutable memtables, newest first, each with the oldest WAL holding
  // its data.
  struct ImmMemTable {
    MemTable* mem;
    uint64_t log_number;
  };
  std::vector<ImmMemTable> imm_ GUARDED_BY(mu_);
  uint64_t mem_log_number_ GUARDED_BY(mu_) = 0;  // oldest WAL with data of mem_
  uint64_t memtables_switched_ GUARDED_BY(mu_) = 0;
  uint64_t memtables_flushed_ GUARDED_BY(mu_) = 0;
  bool flush_scheduled_ GUARDED_BY(mu_) = false;
  int compactions_scheduled_ GUARDED_BY(mu_) = 0;
  int manual_compactions_ GUARDED_BY(mu_) = 0;
  // Lowest file numbers that running jobs may create: files at or above
  // the smallest are never deleted as obsolete.
  std::multiset<uint64_t> pending_outputs_ GUARDED_BY(mu_);
  std::atomic<bool> shutting_down_{false};
  // Set when the current Version is past a slowdown trigger: write leaders
  // then take the stall path (read without mu_ on every write).
  std::atomic<bool> stall_check_needed_{false};

  // Statistics for strata.stats.
  struct LevelStats {
    uint64_t bytes_read = 0;     // input bytes of compactions into this level
    uint64_t bytes_written = 0;  // bytes written to this level
    uint64_t bytes_moved = 0;    // trivially moved into this level
    uint64_t micros = 0;
    uint64_t count = 0;
    uint64_t files_in = 0;
    uint64_t files_out = 0;
  };
  LevelStats level_stats_[kMaxLevels] GUARDED_BY(mu_);
  uint64_t stall_micros_ GUARDED_BY(mu_) = 0;
  uint64_t stall_stops_ GUARDED_BY(mu_) = 0;
  uint64_t stall_slowdowns_ GUARDED_BY(mu_) = 0;
  bool write_stopped_ GUARDED_BY(mu_) = false;
  uint64_t user_bytes_written_ GUARDED_BY(mu_) = 0;

  // ---- atomics ----
  // The last sequence visible to readers (release-published by leaders).
  std::atomic<SequenceNumber> last_sequence_{0};
  // Mirrors !bg_error_.ok() so the write path checks it without mu_.
  std::atomic<bool> has_bg_error_{false};
  std::atomic<uint64_t> write_groups_{0};
  std::atomic<uint64_t> wal_syncs_{0};
  std::atomic<uint64_t> wal_bytes_{0};
  std::atomic<size_t> last_sync_group_size_{0};  // a hint, relaxed

  LocalSuperVersionCache sv_cache_;
};

}  // namespace strata
