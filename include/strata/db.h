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
#include <vector>

#include "strata/export.h"
#include "strata/iterator.h"
#include "strata/options.h"
#include "strata/slice.h"
#include "strata/snapshot.h"
#include "strata/status.h"
#include "strata/write_batch.h"

namespace strata {

STRATA_EXPORT extern const std::string kDefaultColumnFamilyName;  // "default"

class STRATA_EXPORT ColumnFamilyHandle {
 public:
  virtual ~ColumnFamilyHandle() = default;
  virtual const std::string& GetName() const = 0;
  virtual uint32_t GetID() const = 0;
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

  virtual const std::string& GetName() const = 0;
  virtual uint64_t GetLatestSequenceNumber() const = 0;

  // Reads every block of every live table file of every column family
  // (data, index, filter, properties, range deletions) from the file -- not
  // from the block cache -- and checks its checksum; then reads the WALs
  // still in use record by record (writes wait while they are read; a torn
  // tail is not damage). Corruption names the file and the offset; IOError
  // a file that cannot be read.
  virtual Status VerifyChecksum(const ReadOptions& options) = 0;
  Status VerifyChecksum() { return VerifyChecksum(ReadOptions()); }

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

}  // namespace strata
