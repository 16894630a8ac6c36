// DB: an open database -- a directory holding a log-structured merge tree.
//
// Open a DB with DB::Open, use it from any number of threads, and close it by
// calling Close() or destroying it. Every write acknowledged with OK is in the
// WAL before the call returns (unless WriteOptions::disableWAL), so it
// survives a crash of the process; a write with WriteOptions::sync also
// survives a crash of the machine.
// Thread-safety: thread-safe. Snapshots and iterators belong to their DB and
// must be released/destroyed before it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "strata/export.h"
#include "strata/iterator.h"
#include "strata/metadata.h"
#include "strata/options.h"
#include "strata/pinnable_slice.h"
#include "strata/slice.h"
#include "strata/snapshot.h"
#include "strata/status.h"
#include "strata/transaction_log.h"
#include "strata/write_batch.h"

namespace strata {

STRATA_EXPORT extern const std::string kDefaultColumnFamilyName;  // "default"

struct ColumnFamilyDescriptor;

class STRATA_EXPORT ColumnFamilyHandle {
 public:
  virtual ~ColumnFamilyHandle() = default;
  virtual const std::string& GetName() const = 0;
  virtual uint32_t GetID() const = 0;
  // The family's user comparator (BytewiseComparator() unless a subclass
  // says otherwise: handles made outside a DB, as tests' fakes).
  virtual const Comparator* GetComparator() const;
  // The family's name and current options, as DB::GetOptions(handle) gives
  // them. InvalidArgument for a handle made outside a DB or whose DB is
  // gone.
  virtual Status GetDescriptor(ColumnFamilyDescriptor* desc);
  // The same for another descriptor type D: calls
  // GetColumnFamilyDescriptor(ColumnFamilyHandle*, D*), found by
  // argument-dependent lookup in D's namespace (the RocksDB compatibility
  // layer defines one for its descriptor).
  template <typename D>
  Status GetDescriptor(D* desc) {
    return GetColumnFamilyDescriptor(this, desc);
  }
};

struct TableProperties;  // strata/table_properties.h
class FileChecksumList;  // strata/file_checksum.h
// Table properties by table file path (GetPropertiesOfAllTables).
using TablePropertiesCollection =
    std::unordered_map<std::string, std::shared_ptr<const TableProperties>>;

// A key range [start, limit) of user keys.
struct STRATA_EXPORT Range {
  Slice start;
  Slice limit;
  Range() = default;
  Range(const Slice& s, const Slice& l) : start(s), limit(l) {}
};

// A key range [*start, *limit] of user keys by pointers (null: open end),
// for DeleteFilesInRanges.
struct STRATA_EXPORT RangePtr {
  const Slice* start = nullptr;
  const Slice* limit = nullptr;
  RangePtr() = default;
  RangePtr(const Slice* s, const Slice* l) : start(s), limit(l) {}
};

// GetMergeOperands: more operands than this are an Incomplete.
struct STRATA_EXPORT GetMergeOperandsOptions {
  int expected_max_number_of_operands = 0;
};

// One family's part of an atomic multi-family ingestion.
struct STRATA_EXPORT IngestExternalFileArg {
  ColumnFamilyHandle* column_family = nullptr;
  std::vector<std::string> external_files;
  IngestExternalFileOptions options;
};

struct STRATA_EXPORT ColumnFamilyDescriptor {
  std::string name;
  ColumnFamilyOptions options;
  ColumnFamilyDescriptor() : name(kDefaultColumnFamilyName) {}
  ColumnFamilyDescriptor(std::string n, const ColumnFamilyOptions& o)
      : name(std::move(n)), options(o) {}
};

class STRATA_EXPORT DB {
 public:
  // Opens (or with create_if_missing, creates) the database at path. On
  // success *db owns the open database; on failure *db is reset.
  // Errors: InvalidArgument for bad options or a missing database without
  // create_if_missing; IOError naming the LOCK file when another process (or
  // another DB object) has it open; Corruption naming the file and offset
  // when recovery meets damage it may not skip.
  static Status Open(const Options& options, const std::string& path, std::unique_ptr<DB>* db);
  // Opens with explicit column families; handles[i] is the handle of
  // column_families[i], owned by the caller (DestroyColumnFamilyHandle).
  static Status Open(const DBOptions& options, const std::string& path,
                     const std::vector<ColumnFamilyDescriptor>& column_families,
                     std::vector<ColumnFamilyHandle*>* handles, std::unique_ptr<DB>* db);
  static Status ListColumnFamilies(const DBOptions& options, const std::string& path,
                                   std::vector<std::string>* names);

  // Opens the database at path for reading only. Nothing in the directory
  // is created, written, renamed or deleted -- not the LOG (options.info_log
  // is used if set, else nothing is logged), the LOCK, the MANIFEST or the
  // OPTIONS file -- so a process may hold the DB open read-write meanwhile;
  // this instance then sees the state of the moment it opened. The WALs are
  // replayed into memtables in memory, never flushed. Every write, Flush,
  // CompactRange, SyncWAL, Resume and column-family change answers
  // NotSupported. The families listed may be a subset of the DB's (the
  // default family must be among them); a listed family the DB lacks is an
  // InvalidArgument. error_if_wal_file_exists: fail with Corruption when a
  // WAL that recovery would read is present.
  static Status OpenForReadOnly(const Options& options, const std::string& path,
                                std::unique_ptr<DB>* db, bool error_if_wal_file_exists = false);
  static Status OpenForReadOnly(const DBOptions& options, const std::string& path,
                                const std::vector<ColumnFamilyDescriptor>& column_families,
                                std::vector<ColumnFamilyHandle*>* handles, std::unique_ptr<DB>* db,
                                bool error_if_wal_file_exists = false);

  // Opens the database at path as a secondary instance: a read-only view
  // that may follow a primary instance (DB::Open, here or in another
  // process) while it runs, through TryCatchUpWithPrimary. Like
  // OpenForReadOnly it writes nothing into path (no LOCK, LOG, MANIFEST or
  // OPTIONS file) and answers every write, Flush, CompactRange, SyncWAL,
  // Resume and column-family change with NotSupported. Unless
  // options.info_log is set, its info LOG goes to secondary_path/LOG (the
  // directory is created; an older LOG there is renamed as the primary's
  // is), and secondary_path may not be path itself (InvalidArgument). The
  // families listed may be a subset of the DB's (the default family must be
  // among them); a listed family the DB lacks is an InvalidArgument.
  // Families the primary creates later are not seen until a reopen; a
  // listed family the primary drops stays readable through its handles.
  // The table files of the Versions in use are kept open, so a file the
  // primary deletes after a compaction stays readable (with max_open_files
  // other than -1, RocksDB only warns; so do we, and the files of live
  // Versions are held open all the same). See docs/design/secondary.md.
  static Status OpenAsSecondary(const Options& options, const std::string& path,
                                const std::string& secondary_path, std::unique_ptr<DB>* db);
  // The same with column families: *handles gets one per descriptor, in
  // order (release them with DestroyColumnFamilyHandle before the DB).
  static Status OpenAsSecondary(const DBOptions& options, const std::string& path,
                                const std::string& secondary_path,
                                const std::vector<ColumnFamilyDescriptor>& column_families,
                                std::vector<ColumnFamilyHandle*>* handles, std::unique_ptr<DB>* db);

  DB() = default;
  virtual ~DB();
  DB(const DB&) = delete;
  DB& operator=(const DB&) = delete;

  virtual Status Put(const WriteOptions& options, ColumnFamilyHandle* cf, const Slice& key,
                     const Slice& value) = 0;
  Status Put(const WriteOptions& options, const Slice& key, const Slice& value) {
    return Put(options, DefaultColumnFamily(), key, value);
  }
  virtual Status Delete(const WriteOptions& options, ColumnFamilyHandle* cf, const Slice& key) = 0;
  Status Delete(const WriteOptions& options, const Slice& key) {
    return Delete(options, DefaultColumnFamily(), key);
  }
  // Removes a key written exactly once by Put since the last delete; see
  // RocksDB's SingleDelete for the contract.
  virtual Status SingleDelete(const WriteOptions& options, ColumnFamilyHandle* cf,
                              const Slice& key) = 0;
  Status SingleDelete(const WriteOptions& options, const Slice& key) {
    return SingleDelete(options, DefaultColumnFamily(), key);
  }
  // Deletes every key in [begin, end).
  virtual Status DeleteRange(const WriteOptions& options, ColumnFamilyHandle* cf,
                             const Slice& begin, const Slice& end) = 0;
  virtual Status Merge(const WriteOptions& options, ColumnFamilyHandle* cf, const Slice& key,
                       const Slice& operand) = 0;
  Status Merge(const WriteOptions& options, const Slice& key, const Slice& operand) {
    return Merge(options, DefaultColumnFamily(), key, operand);
  }
  // Applies updates atomically. updates is not modified.
  virtual Status Write(const WriteOptions& options, WriteBatch* updates) = 0;

  // OK and *value set if found; NotFound if not; another status on error.
  virtual Status Get(const ReadOptions& options, ColumnFamilyHandle* cf, const Slice& key,
                     std::string* value) = 0;
  Status Get(const ReadOptions& options, const Slice& key, std::string* value) {
    return Get(options, DefaultColumnFamily(), key, value);
  }
  // Lookups of many keys on one consistent view. Keys are batched per table
  // file: filters are checked first and keys sharing a data block read it
  // once. statuses[i] / (*values)[i] answer keys[i].
  virtual std::vector<Status> MultiGet(const ReadOptions& options, const std::vector<Slice>& keys,
                                       std::vector<std::string>* values);
  // The same with a column family per key (column_families.size() ==
  // keys.size()).
  virtual std::vector<Status> MultiGet(const ReadOptions& options,
                                       const std::vector<ColumnFamilyHandle*>& column_families,
                                       const std::vector<Slice>& keys,
                                       std::vector<std::string>* values);

  // The iterator must be destroyed before the DB.
  virtual std::unique_ptr<Iterator> NewIterator(const ReadOptions& options,
                                                ColumnFamilyHandle* cf) = 0;
  std::unique_ptr<Iterator> NewIterator(const ReadOptions& options) {
    return NewIterator(options, DefaultColumnFamily());
  }

  // Never null. Release with ReleaseSnapshot before closing the DB.
  virtual const Snapshot* GetSnapshot() = 0;
  virtual void ReleaseSnapshot(const Snapshot* snapshot) = 0;

  // Properties by name ("rocksdb.<name>" as in RocksDB 7.8.3, with
  // "strata.<name>" accepted as an alias); docs/design/properties.md lists
  // them. False if the name is unknown or the property does not apply
  // (e.g. rocksdb.block-cache-usage without a block cache). GetIntProperty
  // answers the numeric properties only; GetProperty answers those too (as
  // decimal text). Reading a stats text (rocksdb.stats, rocksdb.cfstats,
  // rocksdb.dbstats) starts a new "interval" for its Int/Interval figures.
  virtual bool GetProperty(ColumnFamilyHandle* cf, const Slice& property, std::string* value) = 0;
  bool GetProperty(const Slice& property, std::string* value) {
    return GetProperty(DefaultColumnFamily(), property, value);
  }
  virtual bool GetIntProperty(ColumnFamilyHandle* cf, const Slice& property, uint64_t* value) = 0;
  bool GetIntProperty(const Slice& property, uint64_t* value) {
    return GetIntProperty(DefaultColumnFamily(), property, value);
  }
  // A numeric property summed over every live column family (the block
  // cache figures count each cache once, however many families share it).
  // False if any family cannot answer it.
  virtual bool GetAggregatedIntProperty(const Slice& property, uint64_t* value) {
    (void)property, (void)value;
    return false;
  }
  // The properties RocksDB answers as maps (rocksdb.cfstats,
  // rocksdb.dbstats, rocksdb.aggregated-table-properties and its
  // -at-level<N> form), with RocksDB's keys; *value is replaced.
  virtual bool GetMapProperty(ColumnFamilyHandle* cf, const Slice& property,
                              std::map<std::string, std::string>* value) = 0;
  bool GetMapProperty(const Slice& property, std::map<std::string, std::string>* value) {
    return GetMapProperty(DefaultColumnFamily(), property, value);
  }

  virtual Status Flush(const FlushOptions& options, ColumnFamilyHandle* cf) = 0;
  Status Flush(const FlushOptions& options) { return Flush(options, DefaultColumnFamily()); }
  // Makes every WAL write so far durable (fdatasync), as if written with sync.
  virtual Status SyncWAL() = 0;
  virtual Status CompactRange(const CompactRangeOptions& options, ColumnFamilyHandle* cf,
                              const Slice* begin, const Slice* end) = 0;
  Status CompactRange(const CompactRangeOptions& options, const Slice* begin, const Slice* end) {
    return CompactRange(options, DefaultColumnFamily(), begin, end);
  }

  virtual Status CreateColumnFamily(const ColumnFamilyOptions& options, const std::string& name,
                                    ColumnFamilyHandle** handle) = 0;
  virtual Status DropColumnFamily(ColumnFamilyHandle* handle) = 0;
  virtual Status DestroyColumnFamilyHandle(ColumnFamilyHandle* handle) = 0;
  virtual ColumnFamilyHandle* DefaultColumnFamily() const = 0;

  // The engine at the bottom of a stack of wrappers (StackableDB): this DB
  // itself unless it wraps another.
  virtual DB* GetRootDB() { return this; }

  virtual const std::string& GetName() const = 0;
  virtual uint64_t GetLatestSequenceNumber() const = 0;
  // The Env the DB was opened with (DBOptions::env).
  virtual Env* GetEnv() const { return Env::Default(); }

  // Reads every block of every live table file of every column family
  // (data, index, filter, properties, range deletions) from the file -- not
  // from the block cache -- and checks its checksum; then reads the WALs
  // still in use record by record (writes wait while they are read; a torn
  // tail is not damage). Corruption names the file and the offset; IOError
  // a file that cannot be read.
  virtual Status VerifyChecksum(const ReadOptions& options) = 0;
  Status VerifyChecksum() { return VerifyChecksum(ReadOptions()); }

  // Full-file checksums (strata/file_checksum.h). GetLiveFilesChecksumInfo
  // resets *checksum_list and lists every live table file of every column
  // family with the checksum and function name the MANIFEST records ("" and
  // "Unknown" for a file written without DBOptions::
  // file_checksum_gen_factory); InvalidArgument when it is null.
  virtual Status GetLiveFilesChecksumInfo(FileChecksumList* checksum_list) {
    (void)checksum_list;
    return Status::NotSupported("GetLiveFilesChecksumInfo");
  }
  // Reads every live table file that has a recorded checksum, whole, and
  // recomputes it with the recorded function from the DB's factory:
  // Corruption "<file> file checksum mismatch, expecting <hex>, but actual
  // <hex>" at the first difference; InvalidArgument when the DB has no
  // file_checksum_gen_factory (or it lacks a recorded function). Cost: one
  // read of every such file.
  virtual Status VerifyFileChecksums(const ReadOptions& options) {
    (void)options;
    return Status::NotSupported("VerifyFileChecksums");
  }

  // After a background error (a failed flush, compaction, MANIFEST or WAL
  // write) every write fails with that error and reads keep working. Resume
  // retries what failed -- it flushes every memtable into new tables, so a
  // WAL that may hold a torn record is no longer needed -- and, when that
  // succeeds, clears the error so writes are accepted again. OK when there
  // is no error; the error itself when the cause persists. A NoSpace (or
  // other retryable) error is also resumed automatically in the background
  // (DBOptions::max_bgerror_resume_count).
  virtual Status Resume() = 0;

  // A secondary instance (OpenAsSecondary) catches up with its primary:
  // reads the MANIFEST records and WAL records the primary appended since
  // the last call (switching to a new MANIFEST when CURRENT names one),
  // installs the new table files and memtable contents, and moves the
  // latest sequence forward. Everything the primary had acknowledged (and
  // written to its WAL) before the call began is visible after it returns
  // OK. Readers keep working meanwhile: iterators and Gets in flight keep
  // the view they started with. Other instances answer NotSupported.
  virtual Status TryCatchUpWithPrimary() {
    return Status::NotSupported("TryCatchUpWithPrimary is supported by secondary instances only");
  }

  // Flushes the memtables when some write skipped the WAL (disableWAL) --
  // unless DBOptions::avoid_flush_during_shutdown -- waits for background
  // work, syncs nothing that was not asked to be synced, releases the LOCK.
  // With snapshots unreleased it returns Aborted and the DB stays open
  // (release them and call Close again; the destructor closes regardless).
  // Idempotent.
  virtual Status Close() = 0;

  // The calls below are RocksDB's, with its semantics; an instance kind
  // that cannot do one (read-only, secondary) answers NotSupported.

  // ---- live files and the WAL (db/db_impl_files.cc) ----
  // While file deletions are disabled no table, WAL or MANIFEST becomes
  // deleted (obsolete files wait); counted: EnableFileDeletions(false)
  // undoes one Disable, EnableFileDeletions(true) all of them.
  virtual Status DisableFileDeletions() { return Status::NotSupported("DisableFileDeletions"); }
  virtual Status EnableFileDeletions(bool force = true) {
    (void)force;
    return Status::NotSupported("EnableFileDeletions");
  }
  // The files a copy of the DB needs ("/000012.sst", "/MANIFEST-000005",
  // "/CURRENT", "/OPTIONS-000007"; WALs not included: GetSortedWalFiles),
  // after flushing every memtable when flush_memtable; *manifest_file_size
  // is the MANIFEST's valid length.
  virtual Status GetLiveFiles(std::vector<std::string>* files, uint64_t* manifest_file_size,
                              bool flush_memtable = true) {
    (void)files, (void)manifest_file_size, (void)flush_memtable;
    return Status::NotSupported("GetLiveFiles");
  }
  virtual void GetLiveFilesMetaData(std::vector<LiveFileMetaData>* metadata) { metadata->clear(); }
  virtual void GetColumnFamilyMetaData(ColumnFamilyHandle* cf, ColumnFamilyMetaData* metadata) {
    (void)cf;
    *metadata = ColumnFamilyMetaData();
  }
  void GetColumnFamilyMetaData(ColumnFamilyMetaData* metadata) {
    GetColumnFamilyMetaData(DefaultColumnFamily(), metadata);
  }
  // GetColumnFamilyMetaData of every live family, by ascending family id.
  virtual void GetAllColumnFamilyMetaData(std::vector<ColumnFamilyMetaData>* metadata) {
    metadata->clear();
  }
  // The smallest file_creation_time (seconds since the epoch) over the
  // tables of every family: 0 when some table does not know its creation
  // time (tables of old releases), UINT64_MAX when there is no table.
  // NotSupported unless max_open_files is -1 (RocksDB's rule).
  virtual Status GetCreationTimeOfOldestFile(uint64_t* creation_time) {
    (void)creation_time;
    return Status::NotSupported("GetCreationTimeOfOldestFile");
  }
  // Every file a live copy needs, with the size to copy of each (the
  // MANIFEST's and the last WAL's valid lengths), CURRENT as replacement
  // contents; the base of Checkpoint and BackupEngine.
  virtual Status GetLiveFilesStorageInfo(const LiveFilesStorageInfoOptions& opts,
                                         std::vector<LiveFileStorageInfo>* files) {
    (void)opts, (void)files;
    return Status::NotSupported("GetLiveFilesStorageInfo");
  }
  // The WAL files, live and archived, oldest first.
  virtual Status GetSortedWalFiles(VectorLogPtr& files) {
    (void)files;
    return Status::NotSupported("GetSortedWalFiles");
  }
  virtual Status GetCurrentWalFile(std::unique_ptr<LogFile>* current_log_file) {
    (void)current_log_file;
    return Status::NotSupported("GetCurrentWalFile");
  }
  // The write batches from the one holding sequence `seq` on, across WAL
  // files (archived ones included). NotFound when seq is older than every
  // WAL kept.
  virtual Status GetUpdatesSince(uint64_t seq, std::unique_ptr<TransactionLogIterator>* iter,
                                 const TransactionLogIterator::ReadOptions& read_options =
                                     TransactionLogIterator::ReadOptions()) {
    (void)seq, (void)iter, (void)read_options;
    return Status::NotSupported("GetUpdatesSince");
  }
  // With manual_wal_flush, writes stay in the WAL's buffer until FlushWAL;
  // sync also syncs the WAL.
  virtual Status FlushWAL(bool sync) {
    (void)sync;
    return Status::NotSupported("FlushWAL");
  }
  // LockWAL writes out the WAL's buffer (manual_wal_flush) and then holds
  // every write -- writes, memtable switches, FlushWAL, SyncWAL -- until
  // UnlockWAL has been called as often as LockWAL, so the WAL files stay
  // as they are (e.g. while a program copies them). A write from the
  // locking thread waits too (deadlock). UnlockWAL without a lock in
  // effect: Aborted. Close lifts a lock still held. Read-only and
  // secondary instances: NotSupported.
  virtual Status LockWAL() { return Status::NotSupported("LockWAL"); }
  virtual Status UnlockWAL() { return Status::NotSupported("UnlockWAL"); }
  virtual Status GetDbIdentity(std::string* identity) const {
    (void)identity;
    return Status::NotSupported("GetDbIdentity");
  }
  virtual Status GetDbSessionId(std::string* session_id) const {
    (void)session_id;
    return Status::NotSupported("GetDbSessionId");
  }

  // ---- external files (db/db_impl_import.cc) ----
  // Adds table files written by SstFileWriter (Strata's or RocksDB's; all
  // keys at sequence 0) to the family, atomically, with RocksDB 7.8.3's
  // rules (docs/design/ingestion.md): each file is copied (or hard-linked
  // with move_files) into the DB and placed at the deepest level where it
  // overlaps nothing; a file overlapping data of the DB (or, with
  // snapshot_consistency, any file while snapshots are live) gets a
  // sequence number newer than everything, and overlapping memtables are
  // flushed first. Files of one call may overlap each other (they then go
  // to level 0, later files winning). Errors leave the DB unchanged:
  // InvalidArgument (comparator or column family mismatch, an empty file,
  // a flush or sequence number needed but not allowed, ingest_behind
  // without DBOptions::allow_ingest_behind), Corruption naming a damaged
  // file, TryAgain (fail_if_not_bottommost_level), IOError.
  virtual Status IngestExternalFile(ColumnFamilyHandle* cf, const std::vector<std::string>& files,
                                    const IngestExternalFileOptions& options) {
    (void)cf, (void)files, (void)options;
    return Status::NotSupported("IngestExternalFile");
  }
  Status IngestExternalFile(const std::vector<std::string>& files,
                            const IngestExternalFileOptions& options) {
    return IngestExternalFile(DefaultColumnFamily(), files, options);
  }
  // Several families' files in one atomic step: one MANIFEST group, all
  // or nothing, also across a crash.
  virtual Status IngestExternalFiles(const std::vector<IngestExternalFileArg>& args) {
    (void)args;
    return Status::NotSupported("IngestExternalFiles");
  }
  // A new family holding the tables of an exported one
  // (Checkpoint::ExportColumnFamily), at their levels and sequence numbers.
  virtual Status CreateColumnFamilyWithImport(const ColumnFamilyOptions& options,
                                              const std::string& name,
                                              const ImportColumnFamilyOptions& import_options,
                                              const ExportImportFilesMetaData& metadata,
                                              ColumnFamilyHandle** handle) {
    (void)options, (void)name, (void)import_options, (void)metadata, (void)handle;
    return Status::NotSupported("CreateColumnFamilyWithImport");
  }

  // ---- online option changes (db/db_impl_options.cc) ----
  // Changes mutable options by RocksDB's names ("write_buffer_size" ->
  // "4194304"); applied without reopening, recorded in a new OPTIONS file.
  // InvalidArgument naming an unknown or immutable option (nothing is then
  // changed).
  virtual Status SetOptions(ColumnFamilyHandle* cf,
                            const std::unordered_map<std::string, std::string>& new_options) {
    (void)cf, (void)new_options;
    return Status::NotSupported("SetOptions");
  }
  Status SetOptions(const std::unordered_map<std::string, std::string>& new_options) {
    return SetOptions(DefaultColumnFamily(), new_options);
  }
  virtual Status SetDBOptions(const std::unordered_map<std::string, std::string>& new_options) {
    (void)new_options;
    return Status::NotSupported("SetDBOptions");
  }
  // The options in force now (as changed by SetOptions).
  virtual Options GetOptions(ColumnFamilyHandle* cf) const {
    (void)cf;
    return Options();
  }
  Options GetOptions() const { return GetOptions(DefaultColumnFamily()); }
  virtual DBOptions GetDBOptions() const { return DBOptions(); }
  // Waits for running flushes and compactions and starts no more until
  // ContinueBackgroundWork (counted).
  virtual Status PauseBackgroundWork() { return Status::NotSupported("PauseBackgroundWork"); }
  virtual Status ContinueBackgroundWork() { return Status::NotSupported("ContinueBackgroundWork"); }
  // disable_auto_compactions = false for these families, and compactions
  // scheduled.
  virtual Status EnableAutoCompaction(const std::vector<ColumnFamilyHandle*>& handles) {
    (void)handles;
    return Status::NotSupported("EnableAutoCompaction");
  }

  // ---- size and metadata (db/db_impl_metadata.cc) ----
  // Approximate bytes of the data in each range (sizes[i] for ranges[i]).
  virtual Status GetApproximateSizes(const SizeApproximationOptions& options,
                                     ColumnFamilyHandle* cf, const Range* ranges, int n,
                                     uint64_t* sizes) {
    (void)options, (void)cf, (void)ranges, (void)n, (void)sizes;
    return Status::NotSupported("GetApproximateSizes");
  }
  enum SizeApproximationFlags : uint8_t {
    NONE = 0,
    INCLUDE_MEMTABLES = 1 << 0,
    INCLUDE_FILES = 1 << 1
  };
  Status GetApproximateSizes(ColumnFamilyHandle* cf, const Range* ranges, int n, uint64_t* sizes,
                             uint8_t include_flags = INCLUDE_FILES) {
    SizeApproximationOptions o;
    o.include_memtables = (include_flags & INCLUDE_MEMTABLES) != 0;
    o.include_files = (include_flags & INCLUDE_FILES) != 0;
    return GetApproximateSizes(o, cf, ranges, n, sizes);
  }
  Status GetApproximateSizes(const Range* ranges, int n, uint64_t* sizes,
                             uint8_t include_flags = INCLUDE_FILES) {
    return GetApproximateSizes(DefaultColumnFamily(), ranges, n, sizes, include_flags);
  }
  // Approximate entries and bytes of the family's memtables in range.
  virtual void GetApproximateMemTableStats(ColumnFamilyHandle* cf, const Range& range,
                                           uint64_t* count, uint64_t* size) {
    (void)cf, (void)range;
    *count = 0;
    *size = 0;
  }
  virtual Status GetPropertiesOfAllTables(ColumnFamilyHandle* cf,
                                          TablePropertiesCollection* props) {
    (void)cf, (void)props;
    return Status::NotSupported("GetPropertiesOfAllTables");
  }
  Status GetPropertiesOfAllTables(TablePropertiesCollection* props) {
    return GetPropertiesOfAllTables(DefaultColumnFamily(), props);
  }
  virtual Status GetPropertiesOfTablesInRange(ColumnFamilyHandle* cf, const Range* range,
                                              std::size_t n, TablePropertiesCollection* props) {
    (void)cf, (void)range, (void)n, (void)props;
    return Status::NotSupported("GetPropertiesOfTablesInRange");
  }
  // Stops manual compactions (CompactRange, CompactFiles) until a matching
  // EnableManualCompaction: calls made meanwhile return Incomplete "Manual
  // compaction paused" (IsManualCompactionPaused). Returns once none is
  // running: a running CompactRange ends after its current job (RocksDB
  // may cut that job short) with the same status. Calls nest.
  virtual void DisableManualCompaction() {}
  virtual void EnableManualCompaction() {}
  // Deletes one file, RocksDB's way: `name` is relative to the DB
  // ("000123.sst" or "/000123.sst") or an archived WAL ("archive/000007.log",
  // "/archive/000007.log"). A table file goes only when no later level of its
  // family holds data (so no deletion it carries is lost) and, in level 0,
  // only the oldest (InvalidArgument "File not in last level" / "File in
  // level 0, but not oldest"); a file a compaction is using is left alone
  // (OK). A WAL outside the archive is NotSupported; any other name, or a
  // table no family holds, InvalidArgument.
  virtual Status DeleteFile(std::string name) {
    (void)name;
    return Status::NotSupported("DeleteFile");
  }
  // Deletes the table files of levels >= 1 wholly inside the ranges (null
  // start/limit: open ends) that no compaction is using; see
  // strata::DeleteFilesInRange.
  virtual Status DeleteFilesInRanges(ColumnFamilyHandle* cf, const RangePtr* ranges, size_t n,
                                     bool include_end = true) {
    (void)cf, (void)ranges, (void)n, (void)include_end;
    return Status::NotSupported("DeleteFilesInRanges");
  }
  // Compacts the named table files ("000012.sst", "/000012.sst" or full
  // paths) of one family into output_level, with the files correctness
  // needs added (RocksDB's rules; see docs/design/metadata.md). Never a
  // trivial move. *output_file_names (if not null) gets the paths of the
  // files written. InvalidArgument for unknown files or levels, Aborted
  // when a needed file is in a running compaction.
  virtual Status CompactFiles(const CompactionOptions& options, ColumnFamilyHandle* cf,
                              const std::vector<std::string>& input_file_names, int output_level,
                              int output_path_id = -1,
                              std::vector<std::string>* output_file_names = nullptr) {
    (void)options, (void)cf, (void)input_file_names, (void)output_level, (void)output_path_id,
        (void)output_file_names;
    return Status::NotSupported("CompactFiles");
  }

  // Marks for compaction the table files of cf that overlap the user-key
  // range [*begin, *end] (null: open end), in every level above the
  // family's last non-empty one (level 0's overlap grown as a compaction
  // would take it), and schedules compactions: the files are compacted down
  // when nothing is due by size (CompactionReason::kFilesMarkedForCompaction).
  // The marks live in memory (and in MANIFEST records written later).
  // RocksDB's experimental::SuggestCompactRange. Returns at once.
  virtual Status SuggestCompactRange(ColumnFamilyHandle* cf, const Slice* begin, const Slice* end) {
    (void)cf, (void)begin, (void)end;
    return Status::NotSupported("SuggestCompactRange");
  }
  // Moves every level-0 file of cf to target_level in one MANIFEST edit,
  // without rewriting them. InvalidArgument (RocksDB's messages) when
  // target_level < 1 ("Invalid target level") or >= the family's levels
  // ("Target level does not exist"), a level-0 file is being compacted
  // ("PromoteL0 called during L0 compaction"), two level-0 files overlap
  // ("L0 has overlapping files"), or a level in 1..target_level holds a
  // file ("All levels up to target_level must be empty"). RocksDB's
  // experimental::PromoteL0.
  virtual Status PromoteL0(ColumnFamilyHandle* cf, int target_level) {
    (void)cf, (void)target_level;
    return Status::NotSupported("PromoteL0");
  }

  Status CompactFiles(const CompactionOptions& options,
                      const std::vector<std::string>& input_file_names, int output_level,
                      int output_path_id = -1,
                      std::vector<std::string>* output_file_names = nullptr) {
    return CompactFiles(options, DefaultColumnFamily(), input_file_names, output_level,
                        output_path_id, output_file_names);
  }
  // The family's num_levels, the level a flush writes to (always 0 here),
  // and its level0_stop_writes_trigger.
  virtual int NumberLevels(ColumnFamilyHandle* cf) {
    (void)cf;
    return 0;
  }
  int NumberLevels() { return NumberLevels(DefaultColumnFamily()); }
  virtual int MaxMemCompactionLevel(ColumnFamilyHandle* cf) {
    (void)cf;
    return 0;
  }
  int MaxMemCompactionLevel() { return MaxMemCompactionLevel(DefaultColumnFamily()); }
  virtual int Level0StopWriteTrigger(ColumnFamilyHandle* cf) {
    (void)cf;
    return 0;
  }
  int Level0StopWriteTrigger() { return Level0StopWriteTrigger(DefaultColumnFamily()); }

  // ---- read and write API (db/db_impl.cc) ----
  // False only when the key surely does not exist (memtables and filters,
  // no table I/O: a Get with read_tier = kBlockCacheTier); *value_found (if
  // given) is set when the value was found on the way and copied to *value.
  virtual bool KeyMayExist(const ReadOptions& options, ColumnFamilyHandle* cf, const Slice& key,
                           std::string* value, bool* value_found = nullptr) {
    (void)options, (void)cf, (void)key, (void)value;
    if (value_found != nullptr) *value_found = false;
    return true;
  }
  bool KeyMayExist(const ReadOptions& options, const Slice& key, std::string* value,
                   bool* value_found = nullptr) {
    return KeyMayExist(options, DefaultColumnFamily(), key, value, value_found);
  }
  // The merge operands of key, oldest first, without merging them (up to
  // the last Put or Delete, which is included as the first operand when it
  // is a Put), copied into merge_operands[0..*number_of_operands).
  // NotFound when there are none; Incomplete (with *number_of_operands set
  // to the count, nothing copied) when there are more than
  // expected_max_number_of_operands. Needs the family's merge operator.
  virtual Status GetMergeOperands(const ReadOptions& options, ColumnFamilyHandle* cf,
                                  const Slice& key, PinnableSlice* merge_operands,
                                  GetMergeOperandsOptions* get_merge_operands_options,
                                  int* number_of_operands) {
    (void)options, (void)cf, (void)key, (void)merge_operands, (void)get_merge_operands_options,
        (void)number_of_operands;
    return Status::NotSupported("GetMergeOperands");
  }
  // Iterators over several families at one sequence number; (*iterators)[i]
  // reads column_families[i].
  virtual Status NewIterators(const ReadOptions& options,
                              const std::vector<ColumnFamilyHandle*>& column_families,
                              std::vector<std::unique_ptr<Iterator>>* iterators) {
    (void)options, (void)column_families, (void)iterators;
    return Status::NotSupported("NewIterators");
  }
  // Get into a PinnableSlice: the value is pinned in place (block cache,
  // mapped table or memtable) rather than copied when it can be.
  virtual Status Get(const ReadOptions& options, ColumnFamilyHandle* cf, const Slice& key,
                     PinnableSlice* value) {
    Status s = Get(options, cf, key, value->GetSelf());
    if (s.ok()) value->PinSelf();
    return s;
  }
  Status Get(const ReadOptions& options, const Slice& key, PinnableSlice* value) {
    return Get(options, DefaultColumnFamily(), key, value);
  }
  // n lookups of one family on one consistent view; values[i] /
  // statuses[i] answer keys[i]. sorted_input: a hint that keys are
  // ascending (they are sorted anyway).
  virtual void MultiGet(const ReadOptions& options, ColumnFamilyHandle* cf, size_t num_keys,
                        const Slice* keys, PinnableSlice* values, Status* statuses,
                        bool sorted_input = false) {
    (void)sorted_input;
    for (size_t i = 0; i < num_keys; i++) statuses[i] = Get(options, cf, keys[i], &values[i]);
  }
  // The same with a column family per key (column_families[i] for keys[i]).
  virtual void MultiGet(const ReadOptions& options, size_t num_keys,
                        ColumnFamilyHandle** column_families, const Slice* keys,
                        PinnableSlice* values, Status* statuses, bool sorted_input = false) {
    (void)sorted_input;
    for (size_t i = 0; i < num_keys; i++) {
      statuses[i] = Get(options, column_families[i], keys[i], &values[i]);
    }
  }
};

// Deletes the database at path and everything in its directory that belongs
// to it. A database another process has open is left alone (IOError).
STRATA_EXPORT Status DestroyDB(const std::string& path, const Options& options);

// Salvages a database whose MANIFEST or CURRENT is lost or damaged: every
// readable table file is kept (a table damaged past its footer or index is
// moved to lost/), every WAL is replayed as far as it can be read into new
// tables, and a new MANIFEST that places the tables (all in level 0, newest
// first by their largest sequence number) is written with a CURRENT that
// names it. Column families named in the old MANIFEST (when it is readable)
// keep their tables; families that cannot be placed go to the default
// family. What was dropped is written to the LOG. The DB must not be open.
STRATA_EXPORT Status RepairDB(const std::string& path, const Options& options);

// Deletes the table files of cf whose keys all lie in [*begin, *end]
// (null: open end; include_end false: [begin, end)). Keys in other files,
// memtables or overlapping files stay, so a range may still hold keys.
// Only files of levels >= 1 that no compaction is using go (RocksDB 7.8.3's
// rule), in one MANIFEST edit; a file sharing a boundary user key with a
// neighbour outside the range stays.
STRATA_EXPORT Status DeleteFilesInRange(DB* db, ColumnFamilyHandle* cf, const Slice* begin,
                                        const Slice* end, bool include_end = true);
// The same for n ranges at once.
STRATA_EXPORT Status DeleteFilesInRanges(DB* db, ColumnFamilyHandle* cf, const RangePtr* ranges,
                                         size_t n, bool include_end = true);

}  // namespace strata
