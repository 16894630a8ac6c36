// DBImpl: the database engine behind the public DB interface.
//
// Writes go through the WriteThread (group commit) into one WAL record per
// group -- shared by every column family, so a batch touching several
// families is atomic by construction -- and then into each family's mutable
// memtable; reads take the family's SuperVersion without the DB mutex;
// recovery replays the MANIFEST and then the WAL files (each record only
// into the families whose log number is not past that WAL). A full memtable
// switches that family's memtable and starts a new WAL; a WAL is deleted
// once no live family has unflushed data in it. Flushes and compactions
// work per family (db/column_family.h holds a family's state).
//
// Implementation is split by concern: db_impl.cc (reads, snapshots,
// close), db_impl_write.cc (write path), db_impl_open.cc (open,
// recovery, MANIFEST, DestroyDB), db_impl_properties.cc (properties).
//
// Locking: mu_ guards the metadata below it; it is never held during file
// I/O or memtable inserts. Lock order: WriteThread's queue lock and mu_ are
// never held together. See docs/design/locking.md.
// Thread-safety: thread-safe.
#pragma once

#include <atomic>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "base/dbformat.h"
#include "base/merge_context.h"
#include "db/column_family.h"
#include "db/compaction/compaction.h"
#include "db/db_iter.h"
#include "db/internal_stats.h"
#include "db/job_env.h"
#include "db/log_writer.h"
#include "db/logs_with_prep_tracker.h"
#include "db/memory_budget.h"
#include "db/memtable_inserter.h"
#include "db/periodic_task.h"
#include "db/snapshot_impl.h"
#include "db/super_version.h"
#include "db/table_cache.h"
#include "db/version_set.h"
#include "db/wal_manager.h"
#include "db/write_stall.h"
#include "db/write_thread.h"
#include "db/write_throttle.h"
#include "memtable/memtable.h"
#include "strata/compaction_filter.h"
#include "strata/db.h"
#include "strata/listener.h"
#include "util/mutex.h"

namespace strata {

struct KeyVersion;  // strata/utilities/debug.h
struct TableProperties;
class VersionEdit;
class ExternalFileIngestionJob;
class SstFileManagerImpl;

class DBImpl final : public DB {
 public:
  // How the instance was opened. kReadOnly (DB::OpenForReadOnly) and
  // kSecondary (DB::OpenAsSecondary, which also follows the primary:
  // db_impl_secondary.cc) write nothing to the directory; see db.h.
  enum class OpenMode { kReadWrite, kReadOnly, kSecondary };

  DBImpl(const Options& options, const std::string& dbname, OpenMode mode = OpenMode::kReadWrite,
         bool error_if_wal_file_exists = false);
  ~DBImpl() override;

  // Opens or creates the database (called once by DB::Open) with the
  // given families; *handles gets one per descriptor, in order.
  // descriptors_given: false for DB::Open without descriptors (a DB with
  // more families is then an InvalidArgument "You have to open all ...").
  Status Open(const std::vector<ColumnFamilyDescriptor>& families,
              std::vector<ColumnFamilyHandle*>* handles, bool descriptors_given);

  using DB::CompactRange;
  using DB::Delete;
  using DB::Flush;
  using DB::Get;
  using DB::GetApproximateSizes;
  using DB::GetColumnFamilyMetaData;
  using DB::GetIntProperty;
  using DB::GetMapProperty;
  using DB::GetOptions;
  using DB::GetPropertiesOfAllTables;
  using DB::GetProperty;
  using DB::IngestExternalFile;
  using DB::KeyMayExist;
  using DB::Merge;
  using DB::MultiGet;
  using DB::NewIterator;
  using DB::Put;
  using DB::SetOptions;
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
  std::vector<Status> MultiGet(const ReadOptions& options,
                               const std::vector<ColumnFamilyHandle*>& column_families,
                               const std::vector<Slice>& keys,
                               std::vector<std::string>* values) override;
  std::unique_ptr<Iterator> NewIterator(const ReadOptions& options,
                                        ColumnFamilyHandle* cf) override;
  const Snapshot* GetSnapshot() override;
  void ReleaseSnapshot(const Snapshot* snapshot) override;
  bool GetProperty(ColumnFamilyHandle* cf, const Slice& property, std::string* value) override;
  bool GetIntProperty(ColumnFamilyHandle* cf, const Slice& property, uint64_t* value) override;
  bool GetAggregatedIntProperty(const Slice& property, uint64_t* value) override;
  bool GetMapProperty(ColumnFamilyHandle* cf, const Slice& property,
                      std::map<std::string, std::string>* value) override;

  Status Flush(const FlushOptions& options, ColumnFamilyHandle* cf) override;
  Status SyncWAL() override;
  Status CompactRange(const CompactRangeOptions& options, ColumnFamilyHandle* cf,
                      const Slice* begin, const Slice* end) override;
  Status CreateColumnFamily(const ColumnFamilyOptions& options, const std::string& name,
                            ColumnFamilyHandle** handle) override;
  Status DropColumnFamily(ColumnFamilyHandle* handle) override;
  Status DestroyColumnFamilyHandle(ColumnFamilyHandle* handle) override;
  // A user handle of cfd is gone (its destructor): drops its reference.
  void ReleaseFamilyHandle(ColumnFamilyData* cfd) EXCLUDES(mu_);
  ColumnFamilyHandle* DefaultColumnFamily() const override;

  const std::string& GetName() const override { return dbname_; }
  Env* GetEnv() const override { return env_; }
  uint64_t GetLatestSequenceNumber() const override {
    return last_sequence_.load(std::memory_order_acquire);
  }
  // Aborted (and the DB stays open) while snapshots are unreleased.
  Status Close() override;
  Status VerifyChecksum(const ReadOptions& options) override;
  Status GetLiveFilesChecksumInfo(FileChecksumList* checksum_list) override;
  Status VerifyFileChecksums(const ReadOptions& options) override;
  Status Resume() override;
  Status TryCatchUpWithPrimary() override;

  // ---- live files and the WAL (db_impl_files.cc) ----
  Status DisableFileDeletions() override;
  Status EnableFileDeletions(bool force = true) override;
  Status GetLiveFiles(std::vector<std::string>* files, uint64_t* manifest_file_size,
                      bool flush_memtable = true) override;
  void GetLiveFilesMetaData(std::vector<LiveFileMetaData>* metadata) override;
  void GetColumnFamilyMetaData(ColumnFamilyHandle* cf, ColumnFamilyMetaData* metadata) override;
  void GetAllColumnFamilyMetaData(std::vector<ColumnFamilyMetaData>* metadata) override;
  Status GetCreationTimeOfOldestFile(uint64_t* creation_time) override;
  Status GetLiveFilesStorageInfo(const LiveFilesStorageInfoOptions& opts,
                                 std::vector<LiveFileStorageInfo>* files) override;
  Status GetDbIdentity(std::string* identity) const override;
  Status GetDbSessionId(std::string* session_id) const override;
  // WAL tailing (wal helper): db_impl_wal.cc, db/wal_manager.h.
  Status GetSortedWalFiles(VectorLogPtr& files) override;
  Status GetCurrentWalFile(std::unique_ptr<LogFile>* current_log_file) override;
  Status GetUpdatesSince(uint64_t seq, std::unique_ptr<TransactionLogIterator>* iter,
                         const TransactionLogIterator::ReadOptions& read_options =
                             TransactionLogIterator::ReadOptions()) override;
  Status FlushWAL(bool sync) override;
  Status LockWAL() override;
  Status UnlockWAL() override;
  // Runs the archive purge now, whatever the interval (tests).
  void TEST_PurgeWalArchive();

  // ---- external files (db_impl_import.cc, external_file_ingestion_job.cc) ----
  Status IngestExternalFile(ColumnFamilyHandle* cf, const std::vector<std::string>& files,
                            const IngestExternalFileOptions& options) override;
  Status IngestExternalFiles(const std::vector<IngestExternalFileArg>& args) override;
  Status CreateColumnFamilyWithImport(const ColumnFamilyOptions& options, const std::string& name,
                                      const ImportColumnFamilyOptions& import_options,
                                      const ExportImportFilesMetaData& metadata,
                                      ColumnFamilyHandle** handle) override;

  // ---- online option changes (db_impl_options.cc) ----
  // RocksDB's names and syntax (strata/convenience.h); only options RocksDB
  // 7.8.3 marks mutable that Strata has (db/options_helper.h). The whole
  // map is parsed, sanitized and validated as at Open before anything
  // changes; then the change is applied as the exclusive write leader under
  // mu_ (SetDBOptions also as the exclusive write leader), logged, and
  // written to a new OPTIONS file.
  Status SetOptions(ColumnFamilyHandle* cf,
                    const std::unordered_map<std::string, std::string>& new_options) override;
  Status SetDBOptions(const std::unordered_map<std::string, std::string>& new_options) override;
  Options GetOptions(ColumnFamilyHandle* cf) const override;
  DBOptions GetDBOptions() const override;
  // Counted; Pause waits for running flushes and compactions. While paused
  // no background job starts; Flush(wait) and CompactRange answer
  // Incomplete instead of waiting; Close lifts the pause.
  Status PauseBackgroundWork() override;
  Status ContinueBackgroundWork() override;
  Status EnableAutoCompaction(const std::vector<ColumnFamilyHandle*>& handles) override;

  // ---- size and metadata (db_impl_metadata.cc) ----
  using DB::CompactFiles;
  using DB::Level0StopWriteTrigger;
  using DB::MaxMemCompactionLevel;
  using DB::NumberLevels;
  Status GetApproximateSizes(const SizeApproximationOptions& options, ColumnFamilyHandle* cf,
                             const Range* ranges, int n, uint64_t* sizes) override;
  void GetApproximateMemTableStats(ColumnFamilyHandle* cf, const Range& range, uint64_t* count,
                                   uint64_t* size) override;
  Status GetPropertiesOfAllTables(ColumnFamilyHandle* cf,
                                  TablePropertiesCollection* props) override;
  Status GetPropertiesOfTablesInRange(ColumnFamilyHandle* cf, const Range* ranges, std::size_t n,
                                      TablePropertiesCollection* props) override;
  Status DeleteFile(std::string name) override;
  void DisableManualCompaction() override EXCLUDES(mu_);
  void EnableManualCompaction() override EXCLUDES(mu_);
  Status DeleteFilesInRanges(ColumnFamilyHandle* cf, const RangePtr* ranges, size_t n,
                             bool include_end = true) override;
  Status CompactFiles(const CompactionOptions& options, ColumnFamilyHandle* cf,
                      const std::vector<std::string>& input_file_names, int output_level,
                      int output_path_id = -1,
                      std::vector<std::string>* output_file_names = nullptr) override;
  Status SuggestCompactRange(ColumnFamilyHandle* cf, const Slice* begin, const Slice* end) override
      EXCLUDES(mu_);
  Status PromoteL0(ColumnFamilyHandle* cf, int target_level) override EXCLUDES(mu_);
  // strata::GetAllKeyVersions (strata/utilities/debug.h) for this DB.
  Status GetAllKeyVersions(ColumnFamilyHandle* cf, const Slice& begin_key, const Slice& end_key,
                           size_t max_num_ikeys, std::vector<KeyVersion>* key_versions)
      EXCLUDES(mu_);
  int NumberLevels(ColumnFamilyHandle* cf) override;
  int MaxMemCompactionLevel(ColumnFamilyHandle* cf) override;
  int Level0StopWriteTrigger(ColumnFamilyHandle* cf) override;

  // ---- read and write API (db_impl.cc) ----
  // Get into a PinnableSlice: a table value is pinned in place (its block
  // cache handle, its owned block, or the mapped reader); memtable values
  // and merge results are copied (RocksDB does the same).
  Status Get(const ReadOptions& options, ColumnFamilyHandle* cf, const Slice& key,
             PinnableSlice* value) override;
  void MultiGet(const ReadOptions& options, ColumnFamilyHandle* cf, size_t num_keys,
                const Slice* keys, PinnableSlice* values, Status* statuses,
                bool sorted_input = false) override;
  void MultiGet(const ReadOptions& options, size_t num_keys, ColumnFamilyHandle** column_families,
                const Slice* keys, PinnableSlice* values, Status* statuses,
                bool sorted_input = false) override;
  bool KeyMayExist(const ReadOptions& options, ColumnFamilyHandle* cf, const Slice& key,
                   std::string* value, bool* value_found = nullptr) override;
  Status GetMergeOperands(const ReadOptions& options, ColumnFamilyHandle* cf, const Slice& key,
                          PinnableSlice* merge_operands,
                          GetMergeOperandsOptions* get_merge_operands_options,
                          int* number_of_operands) override;
  Status NewIterators(const ReadOptions& options,
                      const std::vector<ColumnFamilyHandle*>& column_families,
                      std::vector<std::unique_ptr<Iterator>>* iterators) override;

  // ---- transactions (db_impl_txn.cc; used by utilities/transactions) ----
  // How a transaction's write differs from DB::Write's (RocksDB's WriteImpl
  // arguments): callback is checked by the group leader before sequence
  // numbers are assigned (a failure fails this write alone);
  // disable_memtable logs the batch without applying it (Prepare, and the
  // Rollback marker) and takes no sequence numbers; prepare_section marks
  // the WAL the batch lands in as holding a prepared section (kept until
  // MarkPrepSectionResolved); log_ref names the WAL of the prepared section
  // this commit applies. *log_used gets the WAL the batch went to, and
  // *seq_used the sequence of its first record.
  struct TxnWrite {
    WriteThread::WriteCallback* callback = nullptr;
    bool disable_memtable = false;
    bool prepare_section = false;
    uint64_t log_ref = 0;
    uint64_t* log_used = nullptr;
    SequenceNumber* seq_used = nullptr;
  };
  Status WriteWithTxn(const WriteOptions& options, WriteBatch* batch, const TxnWrite& txn) {
    return WriteImpl(options, batch, /*force=*/false, &txn);
  }
  // The prepared section logged in WAL `log` was committed or rolled back.
  void MarkPrepSectionResolved(uint64_t log) {
    if (log != 0) logs_with_prep_tracker_.MarkLogAsHavingPrepSectionFlushed(log);
  }
  // A transaction's conflict check of one column family (cf_id), RocksDB's
  // TransactionUtil::CheckKeysForConflicts for one family: for each key,
  // Busy if the family holds a write to it (value, deletion, merge, range
  // deletion) with a sequence above its seq. The memtables answer when
  // they reach back past seq; otherwise the tables are read, unless
  // cache_only (then TryAgain, with RocksDB's message). InvalidArgument for
  // an unknown (dropped) family.
  struct KeyToCheck {
    Slice key;
    SequenceNumber seq;
  };
  Status CheckKeysForConflicts(uint32_t cf_id, const KeyToCheck* keys, size_t n, bool cache_only);
  // The prepared transactions found in the WALs at open (allow_2pc), handed
  // over once (TransactionDB turns them into PREPARED transactions; their
  // WALs stay marked until MarkPrepSectionResolved).
  RecoveredTransactions TakeRecoveredTransactions();
  bool allow_2pc() const { return options_.allow_2pc; }
  // The merge operator of family cf_id (null: none, or no such family);
  // valid while the family lives (merge_operator cannot be changed).
  const MergeOperator* MergeOperatorOf(uint32_t cf_id) const {
    const ColumnFamilyData* cfd =
        cf_id == 0 ? default_cfd_ : versions_->column_families()->Lookup(cf_id);
    return cfd != nullptr ? cfd->options().merge_operator.get() : nullptr;
  }

  bool read_only() const { return mode_ != OpenMode::kReadWrite; }
  // What every write, flush, compaction and family change of a read-only
  // or secondary instance answers (RocksDB's wording for each).
  Status ReadOnlyError() const {
    return Status::NotSupported(mode_ == OpenMode::kSecondary
                                    ? "Not supported operation in secondary mode."
                                    : "Not supported operation in read only mode.");
  }

  // Checks options before anything is touched on disk.
  static Status ValidateOptions(const Options& options);

  // Waits until no flush or compaction is running or needed (tests, tools).
  Status WaitForCompact();
  // Writers queued in the write thread (tests).
  size_t TEST_WriteQueueLength() { return write_thread_.TEST_QueueLength(); }

 private:
  struct RecoveryState;

  // Close without the snapshot check (the destructor).
  Status CloseImpl();

  // The family of a handle (null = default) without a lookup.
  ColumnFamilyData* FamilyOf(ColumnFamilyHandle* cf) const {
    return cf == nullptr ? default_cfd_ : static_cast<ColumnFamilyHandleImpl*>(cf)->cfd();
  }

  // ---- write path (db_impl_write.cc) ----
  // force: go through the write thread even with an empty batch (memtable
  // switch requests). txn: a transaction's write (see TxnWrite).
  Status WriteImpl(const WriteOptions& options, WriteBatch* batch, bool force = false,
                   const TxnWrite* txn = nullptr);
  // Rejects batches this slice cannot apply (merge, range deletion, unknown
  // or dropped column families) before anything is logged.
  Status CheckBatchSupported(const WriteBatch& batch) const;
  // Runs fn as the (exclusive) leader of a write group: no write is being
  // logged or inserted meanwhile. For family creation and drop.
  Status RunExclusive(const std::function<Status()>& fn);
  // Leader-only work before a group is logged: background error check,
  // memtable switches and write stalls. The group's bytes size the slowdown.
  Status PreprocessWrite(const WriteThread::WriteGroup& group);
  // Delays or stops the leader while flushes and compactions are behind
  // (a no_slowdown group gets Incomplete instead).
  // Paces the group's leader under stall pressure (db/write_throttle.h);
  // counts the group's bytes for the ingest rate. The leader only.
  void PaceWrite(const WriteThread::WriteGroup& group);
  Status MaybeStallWrite(const WriteThread::WriteGroup& group);
  // WriteBufferManager (issue 19): the family to switch when it says
  // flush (the oldest non-empty mutable memtable; null if none), and the
  // wait of a stall (Incomplete for a no_slowdown group).
  ColumnFamilyData* PickFamilyForWriteBufferManager();
  Status WaitForWriteBufferManager(const WriteThread::WriteGroup& group);
  // memory_budget: how far the memtables overshoot their share, as a
  // fraction of it (0 when within).
  double BudgetOvershoot() const;
  // max_total_wal_size: when the live WALs together outgrow it, the
  // families with data in the oldest one (*targets) are switched, so their
  // flush lets that WAL go. Only with several families (RocksDB's rule).
  void FamiliesPinningOldWals(std::vector<ColumnFamilyData*>* targets);
  uint64_t MaxTotalWalSize() const;
  // Starts a new WAL and makes the mutable memtable of each family in
  // `families` immutable (a new empty one replaces it). Families with an
  // empty memtable move their WAL number to the new WAL. Leader-only (or
  // during open); takes mu_.
  Status SwitchMemtables(const std::vector<ColumnFamilyData*>& families);
  // SwitchMemtables' bookkeeping after the memtables moved: log numbers,
  // old WALs, SuperVersions (the caller schedules the flush).
  Status FinishSwitch(const std::vector<ColumnFamilyData*>& families, uint64_t new_log)
      REQUIRES(mu_);
  // Asks the next write-group leader to switch cfd's memtable; returns when
  // done.
  Status SwitchMemtableThroughWriteThread(ColumnFamilyData* cfd);
  // Appends the group's batches to the WAL as one record (when it has any
  // records) and syncs it when a member asked for sync.
  Status WriteGroupToWAL(const WriteThread::WriteGroup& group, bool any_records);
  // Inserts a member's batch at its sequence (a commit's with its
  // prepared-section WAL referenced by the memtables).
  Status InsertBatch(const WriteThread::Writer& w, bool concurrent);
  Status AppendGroupToWAL(const WriteThread::WriteGroup& group);
  Status AppendRecordToWAL(const Slice& record);
  // Leader of a synced write: briefly waits for more writers to queue.
  void WaitForSyncGroupMembers();

  // ---- open and recovery (db_impl_open.cc) ----
  // Open's phases: the families' options checked and sanitized (by name);
  // the directory checked, locked, the info LOG, the VersionSet and the
  // background threads set up; then, under mu_, the MANIFEST and WALs
  // recovered and the families' first SuperVersions installed (*not_found:
  // listed families the DB lacks; *new_log: this session's WAL; *last: the
  // last recovered sequence).
  Status SanitizeFamilies(const std::vector<ColumnFamilyDescriptor>& families,
                          std::map<std::string, ColumnFamilyOptions>* by_name);
  Status PrepareDirectory();
  // Before a new database is created in dbname_: Corruption naming them if
  // table files, WALs or MANIFESTs are there without a CURRENT (a lost
  // CURRENT; creating would delete them as obsolete).
  Status CheckNoOrphanedFiles();
  // PrepareDirectory of a read-only open: touches nothing (exists: CURRENT
  // is there).
  Status PrepareReadOnly(bool exists);
  Status Recover(const std::map<std::string, ColumnFamilyOptions>& by_name, bool descriptors_given,
                 std::vector<std::string>* not_found, uint64_t* new_log, SequenceNumber* last)
      REQUIRES(mu_);
  Status ReplayWALs(RecoveryState* state) REQUIRES(mu_);
  // level_compaction_dynamic_level_bytes turned on for a DB written
  // without it: moves whole levels down (trivially) so the non-empty
  // levels end at the last one, one MANIFEST edit per family
  // (db_impl_open.cc).
  Status MigrateToDynamicLevelBytes() REQUIRES(mu_);

 public:
  // Runs fn on the default family's current Version and picker under the
  // DB mutex (tests: level targets, compaction_pri order).
  void TEST_WithCurrentVersion(const std::function<void(Version*, CompactionPicker*)>& fn)
      EXCLUDES(mu_) {
    MutexLock l(&mu_);
    ColumnFamilyData* cfd = versions_->default_cfd();
    fn(cfd->current(), cfd->picker());
  }

 private:
  // *has_data: some record was applied; *dropped: the whole file is to be
  // deleted (history cut off by point-in-time recovery).
  Status ReplayOneWAL(uint64_t number, RecoveryState* state, bool* has_data, bool* dropped)
      REQUIRES(mu_);
  // ReplayOneWAL's steps: damage met in the log (a non-OK result fails the
  // open; *stop ends this WAL's replay, point-in-time recovery; at_end: no
  // record followed it, and then *torn tells whether it is a torn final
  // write that kTolerateCorruptedTailRecords accepts), and one intact batch
  // applied (*dropped: the whole WAL is to go, its history cut off).
  struct WalReplay;
  Status OnWalDamage(WalReplay* r, const Status& damage, bool at_end, bool* stop, bool* torn)
      REQUIRES(mu_);
  Status ApplyWalBatch(WalReplay* r, const WriteBatch& batch, uint64_t record_end, bool* dropped)
      REQUIRES(mu_);
  // DBOptions::wal_filter's verdict on one intact batch (strata/
  // wal_filter.h): *batch may be replaced by the filter's changed batch. A
  // non-OK result fails the open.
  enum class WalFilterVerdict { kApply, kSkip, kStopReplay, kStopThisWal };
  Status FilterWalBatch(WalReplay* r, WriteBatch* batch, WalFilterVerdict* verdict) REQUIRES(mu_);
  // Reads the WAL again from its start: the number of records before the
  // first damage (a bad physical record or a record that is no batch), in
  // *good; *damaged says whether any damage was met. Replay uses it before
  // it drops data for damage, so a read that returned wrong bytes once (a
  // flaky device) fails the open instead of cutting the log for good.
  Status CountRecordsBeforeDamage(uint64_t number, uint64_t file_size, uint64_t* good,
                                  bool* damaged);
  // Reads WAL `number` record by record (VerifyChecksum): the first damage
  // before its end, as Corruption naming the file and offset.
  Status VerifyWAL(uint64_t number);
  Status CreateWAL(uint64_t number);
  Status EnsureIdentity();
  void LogOptions();
  // Rewrites the OPTIONS file with every live family (failures are
  // logged). Called without mu_ by the exclusive write leader or in Open.
  void RewriteOptionsFile();
  Status CreateColumnFamilyImpl(const ColumnFamilyOptions& options, const std::string& name,
                                ColumnFamilyHandle** handle);
  // Drops a reference to cfd; a dropped family's last one releases its
  // memtables and Versions. REQUIRES: mu_.
  void UnrefFamily(ColumnFamilyData* cfd) REQUIRES(mu_);

  // ---- secondary instances (db_impl_secondary.cc) ----
  // A secondary's tailing state (the MANIFEST tailer, the WAL offsets).
  struct SecondaryState;
  // Recover of a secondary: the MANIFEST as a read-only open reads it,
  // then a first catch-up (tables pinned, WALs tailed into memtables).
  Status RecoverAsSecondary(const std::map<std::string, ColumnFamilyOptions>& by_name,
                            std::vector<std::string>* not_found, SequenceNumber* last)
      REQUIRES(mu_);
  // One catch-up: MANIFEST, then WALs (again while a WAL needed vanished),
  // then new SuperVersions and the last sequence. REQUIRES: mu_ not held,
  // the catch-up lock held.
  Status CatchUpWithPrimary();
  // The MANIFEST part of a catch-up; families the primary dropped leave the
  // live set.
  Status CatchUpManifest();
  // The numbers of the WAL files in the directory.
  Status ListWALs(std::set<uint64_t>* wals);
  // Reads the WALs the opened families still need from where the last
  // catch-up stopped into per-WAL memtables. *missing: a WAL needed
  // vanished before it was read (the primary flushed it: the MANIFEST has
  // newer edits).
  Status TailWALs(bool* missing);
  // Makes the next records of `number` go to memtables of their own (each
  // memtable of a secondary holds one WAL's records).
  void SwitchSecondaryMemtables(uint64_t number) REQUIRES(mu_);
  // Drops memtables whose WAL is older than their family's log number (the
  // primary flushed them; the tables are in the current Version).
  void DropFlushedMemtables(ColumnFamilyData* cfd) REQUIRES(mu_);

  // ---- flush and compaction (db_impl_compaction_flush.cc) ----
  void MaybeScheduleFlushOrCompaction() REQUIRES(mu_);
  void BackgroundCallFlush();
  void BackgroundCallCompaction();
  // A compaction picked by a LOW job whose output is the last level, handed
  // to the BOTTOM pool (RocksDB's rule, when that pool has threads): it
  // stays registered with the family's picker until it runs.
  struct BottomCompaction {
    ColumnFamilyData* cfd;  // referenced until the job ends
    Compaction* c;          // owned
    // Set by whichever comes first: the BOTTOM thread taking the job, or
    // Close cancelling it (then the job never touches the DB). acq_rel so
    // the loser sees the winner's claim.
    std::atomic<bool> claimed{false};
  };
  // True if c goes to the BOTTOM pool (then it owns c and a reference to
  // cfd): an automatic, non-trivial compaction into the family's last level
  // (level > 0) while the BOTTOM pool has threads.
  bool MaybeForwardToBottomPool(ColumnFamilyData* cfd, Compaction* c) REQUIRES(mu_);
  // A slot of cfd's compaction_thread_limiter (RocksDB's
  // RequestCompactionToken): true with *token set, or with *token null when
  // the family has no limiter; false when the limiter is full. force (manual
  // compactions): always a slot.
  bool RequestCompactionToken(ColumnFamilyData* cfd, bool force,
                              std::unique_ptr<TaskLimiterToken>* token) REQUIRES(mu_);
  // CompactRange's jobs are counted by the limiter (a forced slot).
  void TakeManualCompactionToken(ColumnFamilyData* cfd, Compaction* c) REQUIRES(mu_);
  void BackgroundCallBottomCompaction(const std::shared_ptr<BottomCompaction>& job);
  // Close: cancels the bottom compactions no thread took yet; the caller
  // then waits for BottomCompactionsScheduled() to reach 0.
  void CancelQueuedBottomCompactions() REQUIRES(mu_);
  int BottomCompactionsScheduled() const REQUIRES(mu_) {
    return static_cast<int>(bottom_pending_.size()) + bottom_running_;
  }
  // Gives the level-0 tables found at open, which have no key filter
  // (those are built by flushes), theirs: one low-priority job reading
  // each table once (Options::l0_key_filter_bits_per_key).
  void ScheduleLevelZeroKeyFilters() REQUIRES(mu_);
  void BackgroundLevelZeroKeyFilters();
  // Flushes the oldest immutable memtable of one family that has one.
  Status BackgroundFlush(bool* flushed) REQUIRES(mu_);
  // Runs one picked (or manual) compaction of cfd; releases mu_ while it
  // works.
  // Calls OnCompactionCompleted (mu_ released around it); *job_id (if not
  // null) gets the job's number, *output_files (if not null) the paths of
  // the files it wrote.
  Status RunCompaction(ColumnFamilyData* cfd, Compaction* c, int* job_id = nullptr,
                       std::vector<std::string>* output_files = nullptr) REQUIRES(mu_);
  // CompactRangeOptions::change_level: moves every file of `level` to
  // target_level (< 0: the highest level that is empty down to `level` and
  // whose target size holds them) in one MANIFEST edit. NotSupported when a
  // level in between holds files.
  Status ReFitLevel(ColumnFamilyData* cfd, int level, int target_level) REQUIRES(mu_);
  // What a FlushJob or CompactionJob borrows from this DB.
  JobEnv MakeJobEnv();
  // Deleted table files are logged (table_file_deletion) and reported to
  // the listeners under job_id (0: a fresh number).
  void DeleteObsoleteFiles(int job_id = 0) REQUIRES(mu_);
  // The oldest WAL some live family still needs. REQUIRES: mu_.
  uint64_t MinLogNumberInUse() const REQUIRES(mu_);
  // allow_2pc: the oldest WAL holding an unresolved prepared section or one
  // whose committed data a memtable (other than excluded) still holds;
  // UINT64_MAX when none.
  uint64_t MinPrepLogInUse(const MemTable* excluded) const REQUIRES(mu_);
  // Sequences below seq reached cfd's tables without its memtables
  // (ingestion, import): its memtables no longer vouch for them
  // (MemTable::GetEarliestSequenceNumber, transactions' conflict checks).
  void MemtablesHoldHistoryFrom(ColumnFamilyData* cfd, SequenceNumber seq) REQUIRES(mu_);

  // ---- paced I/O: the SstFileManager's hooks (db_impl_paced_io.cc) ----
  // At open: the live tables are tracked and leftover ".trash" files in
  // the DB directory handed to the manager (or deleted without one).
  // Releases mu_ for the directory scan.
  void TrackTablesAtOpen() REQUIRES(mu_);
  // New tables (flush, compaction, ingestion, import) are tracked; returns
  // Status::SpaceLimit("Max allowed space was reached") when the total is
  // at or past max_allowed_space_usage. OK without a manager.
  // paths: the family's table paths (the files' path ids index them).
  Status TrackNewTables(const std::vector<DbPath>& paths, const std::vector<FileMetaData>& files);
  // A compaction of cfd with these inputs may start (RocksDB's
  // EnoughRoomForCompaction): it fits under the SstFileManager's space
  // limit, and, after a compaction ran out of space (soft_bg_error_), the
  // file system has room for it (FreeSpaceForCompaction). Reserves the
  // inputs' size until ReleaseCompactionRoom. Counts COMPACTION_CANCELLED
  // when not.
  bool EnoughRoomForCompaction(ColumnFamilyData* cfd, const Compaction* c) REQUIRES(mu_);
  void ReleaseCompactionRoom(const Compaction* c) REQUIRES(mu_);
  // Deletes an obsolete table: through the manager (paced) when there is
  // one, else at once.
  Status DeleteTableFile(const std::string& path, const std::string& dir);
  // Every directory holding this DB's tables (db_paths, each family's sanitized
  // cf_paths; the DB's own only when a family's paths name it), no repeats.
  std::vector<std::string> TableDirs() const REQUIRES(mu_);

  // ---- background errors and recovery (db_impl_error.cc) ----
  // Where a background error came from; decides whether it is sticky.
  enum class BgErrorReason { kWal, kMemTable, kFlush, kCompaction, kManifest, kWalSwitch };
  // Records s (not OK, not a shutdown) as the sticky background error:
  // every later write fails with it until Resume; reads keep working.
  // Corruption cannot be resumed (the DB must be reopened); a NoSpace error
  // starts the automatic recovery thread. A compaction error with
  // paranoid_checks off is only logged (and remembered for the write-stop
  // path). The first error wins, unless a later one is unrecoverable.
  void RecordBackgroundError(const Status& s, BgErrorReason reason) REQUIRES(mu_);
  // A compaction that ran out of space with paranoid_checks on (RocksDB's
  // soft error): writes and flushes go on; later compactions start only
  // where the file system has room for them; the automatic recovery thread
  // clears the error once the space the failed compaction needed is free
  // again (Resume clears it at once).
  void RecordCompactionNoSpace(const Status& s) REQUIRES(mu_);
  // Starts the automatic recovery thread unless it runs (or Close began).
  void StartAutoRecoveryLocked() REQUIRES(mu_);
  // Clears soft_bg_error_ and tells the listeners (OnErrorRecoveryEnd);
  // releases mu_ around the callbacks.
  void ClearSoftErrorLocked(const char* why) REQUIRES(mu_);
  // What a NoSpace recovery leaves free for the memtables (RocksDB's
  // reserved disk buffer): every family's write_buffer_size x
  // max_write_buffer_number.
  uint64_t ReservedDiskBuffer() REQUIRES(mu_);
  // Free bytes where cfd's tables go (GetFreeSpace, with mu_ held as RocksDB
  // does; `cannot_tell` when the file system does not know).
  uint64_t FreeBytesFor(ColumnFamilyData* cfd, uint32_t path_id, bool* cannot_tell) REQUIRES(mu_);
  // After a NoSpace error: room for a compaction of input_bytes besides the
  // running compactions' reservations and the reserved disk buffer (or the
  // SstFileManager's compaction buffer, when one is set).
  bool FreeSpaceForCompaction(ColumnFamilyData* cfd, const Compaction* c) REQUIRES(mu_);
  // Whether the DB's directory has soft_error_space_trigger_ bytes free
  // (true when the file system cannot tell).
  bool SoftErrorSpaceFree() REQUIRES(mu_);
  // Resume's work with mu_ held (released while it works): a new WAL,
  // every memtable flushed, a MANIFEST written; clears the error on success.
  Status ResumeImpl() REQUIRES(mu_);
  // The automatic recovery thread's loop.
  void AutoRecoveryLoop();
  // Whether the DB's file system has room to resume after a full disk: free
  // bytes (GetFreeSpace; true when it cannot tell) >= every family's
  // write_buffer_size x max_write_buffer_number. Releases mu_ meanwhile.
  bool FreeSpaceForRecovery() REQUIRES(mu_);
  // A SuperVersion of cfd's current memtables and Version, installed; the
  // write-stall flag is recomputed.
  void InstallNewSuperVersion(ColumnFamilyData* cfd) REQUIRES(mu_);
  // Recomputes cfd's write-stall condition (db/write_stall.h); a change is
  // logged (WARN) and queued for the listeners.
  void UpdateWriteStall(ColumnFamilyData* cfd) REQUIRES(mu_);
  // Calls OnStallConditionsChanged for the queued changes, in order.
  void DeliverStallNotifications() EXCLUDES(mu_);
  // Whether a family's compaction picker has work, and the family whose
  // need is the most urgent.
  bool AnyCompactionNeeded() const REQUIRES(mu_);

  // ---- properties (db_impl_properties.cc) ----
  // A write stall starts (stop: writes stopped, else delayed): counted per
  // family under the cause that family's state gives (rocksdb.cfstats).
  void RecordStallCauses(bool stop) REQUIRES(mu_);
  // Whether Close ran (no property answers then).
  bool IsClosed() EXCLUDES(mu_);
  // A write group was applied: `writes` non-empty batches of `keys` records
  // (rocksdb.dbstats; the leader counts as "by self", the rest "by other").
  void RecordWriteGroup(const WriteThread::WriteGroup& group, size_t writes, size_t keys);
  // The properties that read table files (properties blocks, open readers)
  // work on a referenced Version without mu_: these take it and give it
  // back.
  Version* RefCurrentVersion(ColumnFamilyData* cfd) EXCLUDES(mu_);
  void UnrefVersion(Version* v) EXCLUDES(mu_);
  // The stats texts: rocksdb.cfstats-no-file-histogram of cfd, and the
  // DB Stats block.
  std::string CFStatsString(ColumnFamilyData* cfd) EXCLUDES(mu_);
  // The sum of the table properties of cfd's files at `level` (-1: every
  // level), RocksDB's aggregation; false if a file's properties cannot be
  // read.
  bool AggregatedTableProperties(ColumnFamilyData* cfd, int level, TableProperties* tp)
      EXCLUDES(mu_);

  // ---- live files (db_impl_files.cc) ----
  // Flushes every live family's memtables and waits.
  Status FlushAllFamilies() EXCLUDES(mu_);
  // paths: the family's table paths (f.path_id indexes them).
  void FillFileMetaData(const std::vector<DbPath>& paths, const FileMetaData& f,
                        SstFileMetaData* m) const;
  // One family's GetColumnFamilyMetaData answer.
  void FillFamilyMetaData(ColumnFamilyData* cfd, ColumnFamilyMetaData* metadata) const
      REQUIRES(mu_);

  // ---- reads (db_impl.cc) ----
  // One point lookup in cfd's sv at sequence seq. pinnable (not null):
  // the result goes there (value is then unused; table values pinned).
  // operands (not null): GetMergeOperands -- the operands are collected
  // there, oldest first, instead of merged.
  Status GetImpl(const ReadOptions& options, ColumnFamilyData* cfd, SuperVersion* sv,
                 SequenceNumber seq, const Slice& key, std::string* value, bool* memtable_hit,
                 PinnableSlice* pinnable = nullptr, MergeContext* operands = nullptr);
  // n lookups of one family at once (see Version::MultiGet); results in
  // values[i] (or pinnables[i] when pinnables is not null) / statuses[i].
  void MultiGetImpl(const ReadOptions& options, ColumnFamilyData* cfd, SuperVersion* sv,
                    SequenceNumber seq, size_t n, const Slice* keys, std::string* values,
                    Status* statuses, PinnableSlice* pinnables = nullptr);
  // The sources of an iterator over cfd's sv at seq (sv's reference is
  // handed to the result's cleanup).
  DBIterSource NewIteratorSource(const ReadOptions& options, ColumnFamilyData* cfd,
                                 SuperVersion* sv, SequenceNumber seq);
  // A DB iterator over the source (with a refresher unless the options
  // name a snapshot).
  std::unique_ptr<Iterator> NewIteratorFrom(const ReadOptions& options, ColumnFamilyData* cfd,
                                            DBIterSource src);
  // A Get's tickers (keys read, memtable hit or miss, bytes) and perf
  // counter.
  void RecordGetStats(const Status& s, bool memtable_hit, size_t value_size);
  SuperVersion* AcquireSuperVersion(ColumnFamilyData* cfd);
  void ReleaseSuperVersion(ColumnFamilyData* cfd, SuperVersion* sv);
  SequenceNumber ReadSequence(const ReadOptions& options) const;

  // ---- immutable after Open ----
  const std::string dbname_;
  // Where the WALs (and their archive/) live: WalDirOf(dbname_,
  // options.wal_dir).
  const std::string wal_dir_;
  const OpenMode mode_;
  const bool error_if_wal_file_exists_;  // read-only opens only
  // Secondary instances only (set by Recover; shared_ptr: the type is
  // complete only in db_impl_secondary.cc).
  std::shared_ptr<SecondaryState> secondary_;
  Options options_;
  Env* const env_;
  FileSystem* const fs_;
  SystemClock* const clock_;
  Statistics* stats_;  // borrowed from options_.statistics; may be null
  // options_.sst_file_manager as made by NewSstFileManager, or null
  // (immutable after construction; the manager is thread-safe).
  SstFileManagerImpl* const sfm_;
  std::shared_ptr<Logger> info_log_;
  // Writes the stats dump to the LOG every stats_dump_period_sec; started at
  // the end of Open, stopped first thing in Close.
  PeriodicTask stats_dump_task_;
  std::unique_ptr<FileLock> db_lock_;
  std::unique_ptr<Directory> db_dir_;
  FileOptions wal_file_options_;

  // Option values changed at open as RocksDB changes them, for the LOG.
  std::vector<std::string> sanitize_notes_;
  // ---- memory (issue 19, db/memory_budget.h) ----
  // The budget's cache and manager (memory_budget); the manager the DB
  // uses (options_.write_buffer_manager, borrowed; null if none); where this
  // DB's writers wait in its stalls.
  MemoryBudgetPlan budget_;
  WriteBufferManager* wbm_ = nullptr;
  WBMStallInterface wbm_stall_;
  std::unique_ptr<VersionSet> versions_;
  // The default family and its handle, cached for the single-family paths.
  ColumnFamilyData* default_cfd_ = nullptr;
  std::unique_ptr<ColumnFamilyHandleImpl> default_cf_;
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
  uint64_t log_number_ = 0;
  SequenceNumber last_allocated_sequence_ = 0;
  // Set by Flush (with the family's switch_requested): the next leader
  // switches the requested families' memtables.
  std::atomic<bool> switch_requested_{false};
  // Set while RunExclusive waits: the next leader runs the function.
  std::atomic<const std::function<Status()>*> exclusive_fn_{nullptr};
  Status exclusive_status_;
  std::mutex exclusive_mu_;  // one RunExclusive at a time
  // More than one live family (leader-owned: families change only in
  // RunExclusive or during open).
  bool multi_cf_ = false;
  WriteBatch group_batch_;  // concatenation buffer for multi-writer groups
  // WALs before the current one that may still be live (number, bytes),
  // oldest first, and their total; the oldest WAL whose families were
  // already switched for max_total_wal_size.
  std::deque<std::pair<uint64_t, uint64_t>> alive_wals_;
  uint64_t alive_wal_bytes_ = 0;
  uint64_t wal_flush_requested_upto_ = 0;
  // Where the current group's records go (set by the leader, read by the
  // group's parallel memtable writers).
  MemTableTargets write_targets_;
  // Two-phase commit: WALs holding outstanding prepared sections.
  LogsWithPrepTracker logs_with_prep_tracker_;
  // Prepared sections found at open (Recover fills it, under mu_, before the
  // DB is shared; TakeRecoveredTransactions empties it).
  RecoveredTransactions recovered_txns_;

  // ---- guarded by mu_ ----
  mutable Mutex mu_;
  SnapshotList snapshots_ GUARDED_BY(mu_);
  Status bg_error_ GUARDED_BY(mu_);
  bool bg_error_unrecoverable_ GUARDED_BY(mu_) = false;
  bool recovery_in_progress_ GUARDED_BY(mu_) = false;
  // The automatic recovery thread (started for NoSpace errors); joined by
  // Close. auto_recovery_running_ is true while its loop runs.
  std::thread recovery_thread_;
  bool auto_recovery_running_ GUARDED_BY(mu_) = false;
  uint64_t bg_errors_ GUARDED_BY(mu_) = 0;         // rocksdb.background-errors
  uint64_t bg_error_resumes_ GUARDED_BY(mu_) = 0;  // successful resumes
  // The last failed compaction's error when paranoid_checks is off (not
  // sticky): a write stopped by compaction debt fails with it.
  Status last_compaction_error_ GUARDED_BY(mu_);
  // A compaction ran out of space (RecordCompactionNoSpace): writes go on,
  // compactions check free space first. soft_error_space_trigger_: the free
  // bytes at which the recovery thread clears it (the failed compactions'
  // inputs).
  Status soft_bg_error_ GUARDED_BY(mu_);
  uint64_t soft_error_space_trigger_ GUARDED_BY(mu_) = 0;
  // Input bytes of the compactions running now (without an SstFileManager,
  // which reserves them itself).
  uint64_t running_compaction_bytes_ GUARDED_BY(mu_) = 0;
  // The last automatic compaction picked was not started for lack of room
  // under the SstFileManager's space limit (WaitForCompact stops waiting).
  bool compaction_room_blocked_ GUARDED_BY(mu_) = false;
  bool closed_ GUARDED_BY(mu_) = false;
  CondVar bg_cv_{&mu_};  // signalled when background work finishes
  bool flush_scheduled_ GUARDED_BY(mu_) = false;
  int compactions_scheduled_ GUARDED_BY(mu_) = 0;
  // Compactions handed to the BOTTOM pool: queued (or taken by a thread that
  // has not locked mu_ yet), and running. Not counted in
  // compactions_scheduled_ (RocksDB's bg_bottom_compaction_scheduled_).
  std::vector<std::shared_ptr<BottomCompaction>> bottom_pending_ GUARDED_BY(mu_);
  int bottom_running_ GUARDED_BY(mu_) = 0;
  bool key_filter_job_scheduled_ GUARDED_BY(mu_) = false;
  int manual_compactions_ GUARDED_BY(mu_) = 0;
  // DisableManualCompaction calls not yet matched by EnableManualCompaction.
  int manual_compaction_paused_ GUARDED_BY(mu_) = 0;
  // Manual compactions (or level moves) running with
  // CompactRangeOptions::exclusive_manual_compaction: no automatic
  // compaction is scheduled meanwhile.
  int exclusive_manual_compactions_ GUARDED_BY(mu_) = 0;
  // Lowest file numbers that running jobs may create: files at or above
  // the smallest are never deleted as obsolete.
  std::multiset<uint64_t> pending_outputs_ GUARDED_BY(mu_);
  std::atomic<bool> shutting_down_{false};
  // Set when the current Version is past a slowdown trigger: write leaders
  // then take the stall path (read without mu_ on every write).
  std::atomic<bool> stall_check_needed_{false};

  // Write-stall condition per family id, and whether a writer waits for
  // that family's flush (db/write_stall.h); changes not yet told to the
  // listeners.
  struct StallEntry {
    WriteStallState state;
    bool memtable_stop = false;
  };
  std::map<uint32_t, StallEntry> stall_states_ GUARDED_BY(mu_);
  std::vector<WriteStallInfo> pending_stall_changes_ GUARDED_BY(mu_);

  bool write_stopped_ GUARDED_BY(mu_) = false;

  // DisableFileDeletions calls not yet undone: while > 0 nothing obsolete is
  // deleted (copies of the live files are being made).
  int disable_delete_obsolete_files_ GUARDED_BY(mu_) = 0;
  // The newest OPTIONS file (0 before the first is written). Held around
  // writing one (and deleting the older ones) and around listing it, so a
  // listed OPTIONS file is still there when it is copied. Taken before mu_.
  std::mutex options_file_mu_;
  uint64_t options_file_number_ GUARDED_BY(mu_) = 0;

  // ---- atomics ----
  // The last sequence visible to readers (release-published by leaders).
  std::atomic<SequenceNumber> last_sequence_{0};
  // Mirrors !bg_error_.ok() so the write path checks it without mu_.
  std::atomic<bool> has_bg_error_{false};
  // Some write since open skipped the WAL (WriteOptions::disableWAL).
  std::atomic<bool> has_unpersisted_data_{false};
  // Writes, WAL and stall counters (rocksdb.dbstats); thread-safe itself.
  DBWriteStats write_stats_{clock_};
  // Paces writes under stall pressure (db/write_throttle.h).
  WriteThrottle throttle_{clock_, options_.delayed_write_rate};
  std::atomic<size_t> last_sync_group_size_{0};  // a hint, relaxed
  // Numbers the jobs (flushes, compactions, purges) for the EVENT_LOG lines
  // and listener infos; relaxed: only uniqueness matters.
  std::atomic<int> next_job_id_{1};

  // ---- online option changes (db_impl_options.cc) ----
  // SetOptions / SetDBOptions one at a time: each validates against the
  // options in force, then applies, so two concurrent calls cannot both
  // validate against the same old state.
  std::mutex set_options_mu_;
  // PauseBackgroundWork calls not yet matched by ContinueBackgroundWork.
  int bg_work_paused_ GUARDED_BY(mu_) = 0;
  // The options the LOG and the OPTIONS file show for cfd: the DB options
  // in force with cfd's family options. REQUIRES: mu_ or the exclusive
  // write leader (options_ changes only there).
  Options CurrentOptions(const ColumnFamilyData* cfd) const;
  // max_background_jobs split into flush and compaction slots, and the
  // thread pools grown to them (never shrunk: Env pools are shared).
  void ApplyBackgroundJobs() REQUIRES(mu_);
  // Installs cf as cfd's options in force, with a new SuperVersion (and
  // so the write-stall state recomputed).
  void InstallFamilyOptions(ColumnFamilyData* cfd, const ColumnFamilyOptions& cf) REQUIRES(mu_);
  // A new OPTIONS file of the options in force, taken under mu_ and
  // written without it (failures are logged).
  void WriteCurrentOptionsFile() EXCLUDES(mu_);

  // ---- external files (db_impl_import.cc) ----
  // IngestExternalFiles' work as the exclusive writer: flushes overlapping
  // memtables, assigns levels and sequence numbers, writes the global
  // sequence numbers, commits one MANIFEST group and installs the
  // SuperVersions; *infos gets one entry per file for the listeners.
  Status IngestUnderExclusive(std::vector<std::unique_ptr<ExternalFileIngestionJob>>* jobs,
                              std::vector<ExternalFileIngestionInfo>* infos) REQUIRES(mu_);
  // Waits until no ingestion is assigning levels (compactions are not
  // picked meanwhile: see db_impl_import.cc).
  void WaitForIngestions() REQUIRES(mu_);
  int running_ingestions_ GUARDED_BY(mu_) = 0;

  // ---- size and metadata (db_impl_metadata.cc) ----
  // Approximate bytes of v's files holding internal keys in [start, end)
  // (GetApproximateSizes' files part; margin: files_size_error_margin).
  Status ApproximateFileBytes(ColumnFamilyData* cfd, Version* v, const Slice& start,
                              const Slice& end, double margin, uint64_t* bytes) EXCLUDES(mu_);
  // Properties of the tables of v's files that `wanted` accepts (null: all),
  // into *props by path. No mutex (v is referenced).
  Status CollectTableProperties(ColumnFamilyData* cfd, Version* v,
                                const std::function<bool(const FileMetaData&)>& wanted,
                                TablePropertiesCollection* props) EXCLUDES(mu_);

  // ---- WAL tailing and archive (wal helper; db_impl_wal.cc) ----
  // Lists, archives and purges WAL files; reads them for GetUpdatesSince.
  // Created by Open once the info LOG exists; thread-safe itself.
  std::unique_ptr<WalManager> wal_manager_;
  // Purges the archive every WalManager::PurgeIntervalSeconds() (started
  // by Open when archiving, stopped first thing in Close).
  PeriodicTask wal_purge_task_;
  // Every kTimeCompactionCheckSeconds, asks for compactions: ttl and
  // periodic compaction (and FIFO's ttl) become due as time passes, with
  // no flush or compaction to notice it (started by Open when writable,
  // stopped first thing in Close).
  static constexpr uint64_t kTimeCompactionCheckSeconds = 60;
  PeriodicTask time_compaction_task_;
  // LockWAL's hold on the write path: while wal_lock_count_ > 0 every new
  // write-group leader waits in WaitWhileWalLocked before it collects its
  // group. wal_locked_ mirrors count > 0 for the leaders' lock-free check
  // (release when set/cleared under wal_lock_mu_, acquire in the check; a
  // leader that sees it set re-checks under the mutex). wal_lock_mu_ is a
  // leaf: nothing else is taken while holding it.
  Mutex wal_lock_mu_;
  CondVar wal_lock_cv_{&wal_lock_mu_};
  int wal_lock_count_ GUARDED_BY(wal_lock_mu_) = 0;
  std::atomic<bool> wal_locked_{false};
  void WaitWhileWalLocked() EXCLUDES(wal_lock_mu_);
  // Close: lifts every LockWAL and wakes the waiting leaders.
  void ReleaseWalLocks() EXCLUDES(wal_lock_mu_);
  // The current WAL's number for GetCurrentWalFile (log_number_ belongs to
  // the write leader); relaxed: a hint that may be one switch behind.
  std::atomic<uint64_t> current_wal_number_{0};
  // Moves (archiving) or deletes one obsolete WAL; the archive purge.
  // REQUIRES: mu_ not held (file I/O).
  Status RemoveObsoleteWal(uint64_t number);
  void PurgeWalArchive(bool force) EXCLUDES(mu_);
};

}  // namespace strata
