// rocksdb/db.h: the DB of RocksDB 7.8.3's interface over a Strata database.
// DB is RocksDB's abstract class with RocksDB's signatures (raw-pointer
// Open, Iterator* NewIterator, PinnableSlice Get, the MultiGet forms,
// GetApproximateSizes with Range*, ...); DB::Open returns an object that
// converts the options and forwards every call to a strata::DB. Column
// family handles, write batches, iterators, snapshots and statuses are
// Strata's own objects (their types have RocksDB's shape).
//
// Ownership: the DB* from Open is the caller's (delete it, or Close then
// delete); handles returned by Open/CreateColumnFamily are released with
// DestroyColumnFamilyHandle (or delete) before the DB is deleted; an
// Iterator* is deleted by the caller before the DB.
// Not offered (NotSupported / RocksDB's answer for a family without
// timestamps): user-defined timestamps, wide-column entities (PutEntity;
// GetEntity reads every value as a plain one), blob files, OpenAndCompact,
// OpenAndTrimHistory, query / I/O / block cache tracing and replay,
// GetStatsHistory; see each method. ColumnFamilyHandle is Strata's (GetName,
// GetID, GetComparator, GetDescriptor through GetColumnFamilyDescriptor).
// Thread-safety: thread-safe, as strata::DB.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "rocksdb/block_cache_trace_writer.h"
#include "rocksdb/iterator.h"
#include "rocksdb/listener.h"
#include "rocksdb/metadata.h"
#include "rocksdb/options.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "rocksdb/snapshot.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/status.h"
#include "rocksdb/table.h"
#include "rocksdb/trace_reader_writer.h"
#include "rocksdb/transaction_log.h"
#include "rocksdb/types.h"
#include "rocksdb/version.h"
#include "rocksdb/wide_columns.h"
#include "rocksdb/write_batch.h"
#include "strata/db.h"

namespace rocksdb {
using ColumnFamilyHandle = ::strata::ColumnFamilyHandle;
using Range = ::strata::Range;
using RangePtr = ::strata::RangePtr;
using GetMergeOperandsOptions = ::strata::GetMergeOperandsOptions;
using TablePropertiesCollection = ::strata::TablePropertiesCollection;

class FileSystem;            // rocksdb/file_system.h
class Replayer;              // rocksdb/utilities/replayer.h
class StatsHistoryIterator;  // rocksdb/stats_history.h

extern const std::string kDefaultColumnFamilyName;  // "default"
// The family RocksDB keeps persisted statistics in (persist_stats_to_disk,
// which Strata refuses): "___rocksdb_stats_history___".
extern const std::string kPersistentStatsColumnFamilyName;

static const int kMajorVersion = ROCKSDB_MAJOR;
static const int kMinorVersion = ROCKSDB_MINOR;

// One family's part of DB::IngestExternalFiles. files_checksums,
// files_checksum_func_names and file_temperature are refused when set
// (NotSupported naming the field).
struct IngestExternalFileArg {
  ColumnFamilyHandle* column_family = nullptr;
  std::vector<std::string> external_files;
  IngestExternalFileOptions options;
  std::vector<std::string> files_checksums;
  std::vector<std::string> files_checksum_func_names;
  Temperature file_temperature = Temperature::kUnknown;
};

struct ColumnFamilyDescriptor {
  std::string name;
  ColumnFamilyOptions options;
  ColumnFamilyDescriptor() : name(kDefaultColumnFamilyName), options(ColumnFamilyOptions()) {}
  ColumnFamilyDescriptor(const std::string& _name, const ColumnFamilyOptions& _options)
      : name(_name), options(_options) {}
};

// What handle->GetDescriptor(&desc) runs for this descriptor (the handle is
// Strata's class; its GetDescriptor template forwards here): the family's
// name and the options DB::GetOptions(handle) gives. InvalidArgument for a
// handle no open DB of this layer handed out (or one already destroyed).
Status GetColumnFamilyDescriptor(ColumnFamilyHandle* handle, ColumnFamilyDescriptor* desc);

class DB {
 public:
  // Opens (or creates, with create_if_missing) the database at `name`. On
  // success *dbptr is a new DB the caller deletes; on failure it is null.
  // An option Strata cannot honour gives InvalidArgument naming it.
  static Status Open(const Options& options, const std::string& name, DB** dbptr);
  static Status Open(const DBOptions& db_options, const std::string& name,
                     const std::vector<ColumnFamilyDescriptor>& column_families,
                     std::vector<ColumnFamilyHandle*>* handles, DB** dbptr);
  static Status OpenForReadOnly(const Options& options, const std::string& name, DB** dbptr,
                                bool error_if_wal_file_exists = false);
  static Status OpenForReadOnly(const DBOptions& db_options, const std::string& name,
                                const std::vector<ColumnFamilyDescriptor>& column_families,
                                std::vector<ColumnFamilyHandle*>* handles, DB** dbptr,
                                bool error_if_wal_file_exists = false);
  static Status OpenAsSecondary(const Options& options, const std::string& name,
                                const std::string& secondary_path, DB** dbptr);
  static Status OpenAsSecondary(const DBOptions& db_options, const std::string& name,
                                const std::string& secondary_path,
                                const std::vector<ColumnFamilyDescriptor>& column_families,
                                std::vector<ColumnFamilyHandle*>* handles, DB** dbptr);
  // A remote compaction worker's entry point (RocksDB's compaction
  // service). Strata has none: NotSupported ("OpenAndCompact: ...").
  static Status OpenAndCompact(const std::string& name, const std::string& output_directory,
                               const std::string& input, std::string* output,
                               const CompactionServiceOptionsOverride& override_options);
  static Status OpenAndCompact(const OpenAndCompactOptions& options, const std::string& name,
                               const std::string& output_directory, const std::string& input,
                               std::string* output,
                               const CompactionServiceOptionsOverride& override_options);
  // Opens and drops data newer than trim_ts in families with user-defined
  // timestamps. Strata has no timestamps: NotSupported
  // ("OpenAndTrimHistory: ..."), *dbptr null.
  static Status OpenAndTrimHistory(const DBOptions& db_options, const std::string& dbname,
                                   const std::vector<ColumnFamilyDescriptor>& column_families,
                                   std::vector<ColumnFamilyHandle*>* handles, DB** dbptr,
                                   std::string trim_ts);
  static Status ListColumnFamilies(const DBOptions& db_options, const std::string& name,
                                   std::vector<std::string>* column_families);

  DB() = default;
  DB(const DB&) = delete;
  void operator=(const DB&) = delete;
  virtual ~DB();

  virtual Status Resume() = 0;
  virtual Status Close() = 0;

  virtual Status CreateColumnFamily(const ColumnFamilyOptions& options,
                                    const std::string& column_family_name,
                                    ColumnFamilyHandle** handle) = 0;
  virtual Status CreateColumnFamilies(const ColumnFamilyOptions& options,
                                      const std::vector<std::string>& column_family_names,
                                      std::vector<ColumnFamilyHandle*>* handles);
  virtual Status CreateColumnFamilies(const std::vector<ColumnFamilyDescriptor>& column_families,
                                      std::vector<ColumnFamilyHandle*>* handles);
  virtual Status DropColumnFamily(ColumnFamilyHandle* column_family) = 0;
  virtual Status DropColumnFamilies(const std::vector<ColumnFamilyHandle*>& column_families);
  virtual Status DestroyColumnFamilyHandle(ColumnFamilyHandle* column_family) = 0;

  virtual Status Put(const WriteOptions& options, ColumnFamilyHandle* column_family,
                     const Slice& key, const Slice& value) = 0;
  virtual Status Put(const WriteOptions& options, const Slice& key, const Slice& value) {
    return Put(options, DefaultColumnFamily(), key, value);
  }
  // The user-defined-timestamp write forms: no family of a Strata database
  // has timestamps, so each gives RocksDB's answer for such a family,
  // InvalidArgument ("cannot call this method on column family <name> that
  // does not enable timestamp"; a null family: "column family handle cannot
  // be null"); Merge's is RocksDB's NotSupported.
  virtual Status Put(const WriteOptions& options, ColumnFamilyHandle* column_family,
                     const Slice& key, const Slice& ts, const Slice& value);
  virtual Status Put(const WriteOptions& options, const Slice& key, const Slice& ts,
                     const Slice& value) {
    return Put(options, DefaultColumnFamily(), key, ts, value);
  }
  // Writes a batch holding WriteBatch::PutEntity: Strata stores no
  // wide-column entities, so this answers the batch's `Not implemented:
  // PutEntity: ...` (InvalidArgument without a family, as RocksDB).
  virtual Status PutEntity(const WriteOptions& options, ColumnFamilyHandle* column_family,
                           const Slice& key, const WideColumns& columns);
  virtual Status Delete(const WriteOptions& options, ColumnFamilyHandle* column_family,
                        const Slice& key) = 0;
  virtual Status Delete(const WriteOptions& options, const Slice& key) {
    return Delete(options, DefaultColumnFamily(), key);
  }
  virtual Status Delete(const WriteOptions& options, ColumnFamilyHandle* column_family,
                        const Slice& key, const Slice& ts);
  virtual Status Delete(const WriteOptions& options, const Slice& key, const Slice& ts) {
    return Delete(options, DefaultColumnFamily(), key, ts);
  }
  virtual Status SingleDelete(const WriteOptions& options, ColumnFamilyHandle* column_family,
                              const Slice& key) = 0;
  virtual Status SingleDelete(const WriteOptions& options, const Slice& key) {
    return SingleDelete(options, DefaultColumnFamily(), key);
  }
  virtual Status SingleDelete(const WriteOptions& options, ColumnFamilyHandle* column_family,
                              const Slice& key, const Slice& ts);
  virtual Status SingleDelete(const WriteOptions& options, const Slice& key, const Slice& ts) {
    return SingleDelete(options, DefaultColumnFamily(), key, ts);
  }
  virtual Status DeleteRange(const WriteOptions& options, ColumnFamilyHandle* column_family,
                             const Slice& begin_key, const Slice& end_key) = 0;
  virtual Status DeleteRange(const WriteOptions& options, ColumnFamilyHandle* column_family,
                             const Slice& begin_key, const Slice& end_key, const Slice& ts);
  virtual Status Merge(const WriteOptions& options, ColumnFamilyHandle* column_family,
                       const Slice& key, const Slice& value) = 0;
  virtual Status Merge(const WriteOptions& options, const Slice& key, const Slice& value) {
    return Merge(options, DefaultColumnFamily(), key, value);
  }
  virtual Status Merge(const WriteOptions& /*options*/, ColumnFamilyHandle* /*column_family*/,
                       const Slice& /*key*/, const Slice& /*ts*/, const Slice& /*value*/) {
    return Status::NotSupported("Merge does not support user-defined timestamp yet");
  }
  virtual Status Write(const WriteOptions& options, WriteBatch* updates) = 0;

  virtual Status Get(const ReadOptions& options, ColumnFamilyHandle* column_family,
                     const Slice& key, std::string* value) {
    PinnableSlice pinned(value);
    Status s = Get(options, column_family, key, &pinned);
    if (s.ok() && pinned.IsPinned()) value->assign(pinned.data(), pinned.size());
    return s;
  }
  virtual Status Get(const ReadOptions& options, ColumnFamilyHandle* column_family,
                     const Slice& key, PinnableSlice* value) = 0;
  virtual Status Get(const ReadOptions& options, const Slice& key, std::string* value) {
    return Get(options, DefaultColumnFamily(), key, value);
  }
  // The forms returning each value's timestamp: a family without
  // timestamps reads as the plain forms do, and every *timestamp is empty
  // (a ReadOptions::timestamp is refused, as for the plain forms).
  virtual Status Get(const ReadOptions& options, ColumnFamilyHandle* column_family,
                     const Slice& key, std::string* value, std::string* timestamp) {
    PinnableSlice pinned(value);
    Status s = Get(options, column_family, key, &pinned, timestamp);
    if (s.ok() && pinned.IsPinned()) value->assign(pinned.data(), pinned.size());
    return s;
  }
  virtual Status Get(const ReadOptions& options, ColumnFamilyHandle* column_family,
                     const Slice& key, PinnableSlice* value, std::string* timestamp) {
    if (timestamp != nullptr) timestamp->clear();
    return Get(options, column_family, key, value);
  }
  virtual Status Get(const ReadOptions& options, const Slice& key, std::string* value,
                     std::string* timestamp) {
    return Get(options, DefaultColumnFamily(), key, value, timestamp);
  }
  // The entry of `key` as wide columns. A DB of Open reads the value with
  // Get and returns it as one anonymous column (kDefaultWideColumnName),
  // RocksDB's answer for a plain value (Strata stores nothing else);
  // NotFound with no columns when absent. This base answers NotSupported,
  // as RocksDB's.
  virtual Status GetEntity(const ReadOptions& /*options*/, ColumnFamilyHandle* /*column_family*/,
                           const Slice& /*key*/, PinnableWideColumns* /*columns*/) {
    return Status::NotSupported("GetEntity not supported");
  }
  virtual Status GetMergeOperands(const ReadOptions& options, ColumnFamilyHandle* column_family,
                                  const Slice& key, PinnableSlice* merge_operands,
                                  GetMergeOperandsOptions* get_merge_operands_options,
                                  int* number_of_operands) = 0;

  virtual std::vector<Status> MultiGet(const ReadOptions& options,
                                       const std::vector<ColumnFamilyHandle*>& column_family,
                                       const std::vector<Slice>& keys,
                                       std::vector<std::string>* values) = 0;
  virtual std::vector<Status> MultiGet(const ReadOptions& options, const std::vector<Slice>& keys,
                                       std::vector<std::string>* values) {
    return MultiGet(options, std::vector<ColumnFamilyHandle*>(keys.size(), DefaultColumnFamily()),
                    keys, values);
  }
  virtual std::vector<Status> MultiGet(const ReadOptions& options,
                                       const std::vector<ColumnFamilyHandle*>& column_family,
                                       const std::vector<Slice>& keys,
                                       std::vector<std::string>* values,
                                       std::vector<std::string>* timestamps) {
    if (timestamps != nullptr) timestamps->assign(keys.size(), std::string());
    return MultiGet(options, column_family, keys, values);
  }
  virtual std::vector<Status> MultiGet(const ReadOptions& options, const std::vector<Slice>& keys,
                                       std::vector<std::string>* values,
                                       std::vector<std::string>* timestamps) {
    return MultiGet(options, std::vector<ColumnFamilyHandle*>(keys.size(), DefaultColumnFamily()),
                    keys, values, timestamps);
  }
  virtual void MultiGet(const ReadOptions& options, ColumnFamilyHandle* column_family,
                        const size_t num_keys, const Slice* keys, PinnableSlice* values,
                        Status* statuses, const bool sorted_input = false) = 0;
  virtual void MultiGet(const ReadOptions& options, ColumnFamilyHandle* column_family,
                        const size_t num_keys, const Slice* keys, PinnableSlice* values,
                        std::string* timestamps, Status* statuses,
                        const bool sorted_input = false) {
    for (size_t i = 0; timestamps != nullptr && i < num_keys; i++) timestamps[i].clear();
    MultiGet(options, column_family, num_keys, keys, values, statuses, sorted_input);
  }
  virtual void MultiGet(const ReadOptions& options, const size_t num_keys,
                        ColumnFamilyHandle** column_families, const Slice* keys,
                        PinnableSlice* values, Status* statuses,
                        const bool sorted_input = false) = 0;
  virtual void MultiGet(const ReadOptions& options, const size_t num_keys,
                        ColumnFamilyHandle** column_families, const Slice* keys,
                        PinnableSlice* values, std::string* timestamps, Status* statuses,
                        const bool sorted_input = false) {
    for (size_t i = 0; timestamps != nullptr && i < num_keys; i++) timestamps[i].clear();
    MultiGet(options, num_keys, column_families, keys, values, statuses, sorted_input);
  }

  virtual bool KeyMayExist(const ReadOptions& options, ColumnFamilyHandle* column_family,
                           const Slice& key, std::string* value, bool* value_found = nullptr) = 0;
  virtual bool KeyMayExist(const ReadOptions& options, const Slice& key, std::string* value,
                           bool* value_found = nullptr) {
    return KeyMayExist(options, DefaultColumnFamily(), key, value, value_found);
  }
  // *timestamp (may be null) is left empty: no family has timestamps.
  virtual bool KeyMayExist(const ReadOptions& options, ColumnFamilyHandle* column_family,
                           const Slice& key, std::string* value, std::string* timestamp,
                           bool* value_found = nullptr) {
    if (timestamp != nullptr) timestamp->clear();
    return KeyMayExist(options, column_family, key, value, value_found);
  }
  virtual bool KeyMayExist(const ReadOptions& options, const Slice& key, std::string* value,
                           std::string* timestamp, bool* value_found = nullptr) {
    return KeyMayExist(options, DefaultColumnFamily(), key, value, timestamp, value_found);
  }

  // The caller deletes the iterator (before the DB). A refused ReadOptions
  // field gives an iterator whose status() is InvalidArgument naming it.
  virtual Iterator* NewIterator(const ReadOptions& options, ColumnFamilyHandle* column_family) = 0;
  virtual Iterator* NewIterator(const ReadOptions& options) {
    return NewIterator(options, DefaultColumnFamily());
  }
  virtual Status NewIterators(const ReadOptions& options,
                              const std::vector<ColumnFamilyHandle*>& column_families,
                              std::vector<Iterator*>* iterators) = 0;

  virtual const Snapshot* GetSnapshot() = 0;
  virtual void ReleaseSnapshot(const Snapshot* snapshot) = 0;

  // Names of the properties RocksDB defines ("rocksdb.stats", ...); Strata
  // answers those it implements and returns false for the others.
  struct Properties {
    static const std::string kNumFilesAtLevelPrefix;
    static const std::string kCompressionRatioAtLevelPrefix;
    static const std::string kStats;
    static const std::string kSSTables;
    static const std::string kCFStats;
    static const std::string kCFStatsNoFileHistogram;
    static const std::string kCFFileHistogram;
    static const std::string kDBStats;
    static const std::string kLevelStats;
    static const std::string kBlockCacheEntryStats;
    static const std::string kNumImmutableMemTable;
    static const std::string kNumImmutableMemTableFlushed;
    static const std::string kMemTableFlushPending;
    static const std::string kNumRunningFlushes;
    static const std::string kCompactionPending;
    static const std::string kNumRunningCompactions;
    static const std::string kBackgroundErrors;
    static const std::string kCurSizeActiveMemTable;
    static const std::string kCurSizeAllMemTables;
    static const std::string kSizeAllMemTables;
    static const std::string kNumEntriesActiveMemTable;
    static const std::string kNumEntriesImmMemTables;
    static const std::string kNumDeletesActiveMemTable;
    static const std::string kNumDeletesImmMemTables;
    static const std::string kEstimateNumKeys;
    static const std::string kEstimateTableReadersMem;
    static const std::string kIsFileDeletionsEnabled;
    static const std::string kNumSnapshots;
    static const std::string kOldestSnapshotTime;
    static const std::string kOldestSnapshotSequence;
    static const std::string kNumLiveVersions;
    static const std::string kCurrentSuperVersionNumber;
    static const std::string kEstimateLiveDataSize;
    static const std::string kMinLogNumberToKeep;
    static const std::string kMinObsoleteSstNumberToKeep;
    static const std::string kTotalSstFilesSize;
    static const std::string kLiveSstFilesSize;
    static const std::string kBaseLevel;
    static const std::string kEstimatePendingCompactionBytes;
    static const std::string kAggregatedTableProperties;
    static const std::string kAggregatedTablePropertiesAtLevel;
    static const std::string kActualDelayedWriteRate;
    static const std::string kIsWriteStopped;
    static const std::string kEstimateOldestKeyTime;
    static const std::string kBlockCacheCapacity;
    static const std::string kBlockCacheUsage;
    static const std::string kBlockCachePinnedUsage;
    static const std::string kOptionsStatistics;
    // RocksDB's blob, temperature and fast-entry-stats names (GetProperty
    // answers those Strata implements, false for the others).
    static const std::string kFastBlockCacheEntryStats;
    static const std::string kLiveSstFilesSizeAtTemperature;
    static const std::string kNumBlobFiles;
    static const std::string kBlobStats;
    static const std::string kTotalBlobFileSize;
    static const std::string kLiveBlobFileSize;
    static const std::string kLiveBlobFileGarbageSize;
    static const std::string kBlobCacheCapacity;
    static const std::string kBlobCacheUsage;
    static const std::string kBlobCachePinnedUsage;
  };
  virtual bool GetProperty(ColumnFamilyHandle* column_family, const Slice& property,
                           std::string* value) = 0;
  virtual bool GetProperty(const Slice& property, std::string* value) {
    return GetProperty(DefaultColumnFamily(), property, value);
  }
  virtual bool GetMapProperty(ColumnFamilyHandle* column_family, const Slice& property,
                              std::map<std::string, std::string>* value) = 0;
  virtual bool GetMapProperty(const Slice& property, std::map<std::string, std::string>* value) {
    return GetMapProperty(DefaultColumnFamily(), property, value);
  }
  virtual bool GetIntProperty(ColumnFamilyHandle* column_family, const Slice& property,
                              uint64_t* value) = 0;
  virtual bool GetIntProperty(const Slice& property, uint64_t* value) {
    return GetIntProperty(DefaultColumnFamily(), property, value);
  }
  virtual Status ResetStats() { return Status::NotSupported("Not implemented"); }
  // Sums an integer property over every column family.
  virtual bool GetAggregatedIntProperty(const Slice& property, uint64_t* value) = 0;

  enum class SizeApproximationFlags : uint8_t {
    NONE = 0,
    INCLUDE_MEMTABLES = 1 << 0,
    INCLUDE_FILES = 1 << 1
  };
  virtual Status GetApproximateSizes(const SizeApproximationOptions& options,
                                     ColumnFamilyHandle* column_family, const Range* ranges, int n,
                                     uint64_t* sizes) = 0;
  virtual Status GetApproximateSizes(
      ColumnFamilyHandle* column_family, const Range* ranges, int n, uint64_t* sizes,
      SizeApproximationFlags include_flags = SizeApproximationFlags::INCLUDE_FILES);
  virtual Status GetApproximateSizes(
      const Range* ranges, int n, uint64_t* sizes,
      SizeApproximationFlags include_flags = SizeApproximationFlags::INCLUDE_FILES) {
    return GetApproximateSizes(DefaultColumnFamily(), ranges, n, sizes, include_flags);
  }
  virtual void GetApproximateMemTableStats(ColumnFamilyHandle* column_family, const Range& range,
                                           uint64_t* const count, uint64_t* const size) = 0;
  virtual void GetApproximateMemTableStats(const Range& range, uint64_t* const count,
                                           uint64_t* const size) {
    GetApproximateMemTableStats(DefaultColumnFamily(), range, count, size);
  }

  virtual Status CompactRange(const CompactRangeOptions& options, ColumnFamilyHandle* column_family,
                              const Slice* begin, const Slice* end) = 0;
  virtual Status CompactRange(const CompactRangeOptions& options, const Slice* begin,
                              const Slice* end) {
    return CompactRange(options, DefaultColumnFamily(), begin, end);
  }
  virtual Status SetOptions(ColumnFamilyHandle* column_family,
                            const std::unordered_map<std::string, std::string>& new_options) = 0;
  virtual Status SetOptions(const std::unordered_map<std::string, std::string>& new_options) {
    return SetOptions(DefaultColumnFamily(), new_options);
  }
  virtual Status SetDBOptions(const std::unordered_map<std::string, std::string>& new_options) = 0;
  // A non-null compaction_job_info is refused (NotSupported naming it):
  // Strata's CompactFiles reports the output file names only.
  virtual Status CompactFiles(const CompactionOptions& compact_options,
                              ColumnFamilyHandle* column_family,
                              const std::vector<std::string>& input_file_names,
                              const int output_level, const int output_path_id = -1,
                              std::vector<std::string>* const output_file_names = nullptr,
                              CompactionJobInfo* compaction_job_info = nullptr) = 0;
  virtual Status CompactFiles(const CompactionOptions& compact_options,
                              const std::vector<std::string>& input_file_names,
                              const int output_level, const int output_path_id = -1,
                              std::vector<std::string>* const output_file_names = nullptr,
                              CompactionJobInfo* compaction_job_info = nullptr) {
    return CompactFiles(compact_options, DefaultColumnFamily(), input_file_names, output_level,
                        output_path_id, output_file_names, compaction_job_info);
  }
  virtual Status PauseBackgroundWork() = 0;
  // See strata::DB::DisableManualCompaction (a running CompactRange ends
  // after its current job).
  virtual void DisableManualCompaction() = 0;
  virtual void EnableManualCompaction() = 0;
  virtual Status ContinueBackgroundWork() = 0;
  virtual Status EnableAutoCompaction(
      const std::vector<ColumnFamilyHandle*>& column_family_handles) = 0;
  virtual int NumberLevels(ColumnFamilyHandle* column_family) = 0;
  virtual int NumberLevels() { return NumberLevels(DefaultColumnFamily()); }
  virtual int MaxMemCompactionLevel(ColumnFamilyHandle* column_family) = 0;
  virtual int MaxMemCompactionLevel() { return MaxMemCompactionLevel(DefaultColumnFamily()); }
  virtual int Level0StopWriteTrigger(ColumnFamilyHandle* column_family) = 0;
  virtual int Level0StopWriteTrigger() { return Level0StopWriteTrigger(DefaultColumnFamily()); }

  virtual const std::string& GetName() const = 0;
  virtual Env* GetEnv() const = 0;
  // GetEnv()->GetFileSystem().get(): the Env's FileSystem (not owned).
  virtual FileSystem* GetFileSystem() const;
  // The options the DB was opened with (as given, in RocksDB's form).
  virtual Options GetOptions(ColumnFamilyHandle* column_family) const = 0;
  virtual Options GetOptions() const { return GetOptions(DefaultColumnFamily()); }
  virtual DBOptions GetDBOptions() const = 0;

  virtual Status Flush(const FlushOptions& options, ColumnFamilyHandle* column_family) = 0;
  virtual Status Flush(const FlushOptions& options) {
    return Flush(options, DefaultColumnFamily());
  }
  virtual Status Flush(const FlushOptions& options,
                       const std::vector<ColumnFamilyHandle*>& column_families) = 0;
  virtual Status FlushWAL(bool sync) = 0;
  virtual Status SyncWAL() = 0;
  // LockWAL writes out the WAL's buffer (manual_wal_flush) and then holds
  // every write -- Put, Write, a memtable switch, FlushWAL, SyncWAL -- until
  // as many UnlockWAL calls as LockWAL calls; the WAL files then do not
  // change. Writes from the locking thread itself wait too (deadlock): a
  // program copies files while the WAL is locked and unlocks. UnlockWAL
  // without a LockWAL: Aborted ("No LockWAL() in effect"). Read-only and
  // secondary DBs: NotSupported. Close lifts a lock still held.
  virtual Status LockWAL() { return Status::NotSupported("LockWAL not implemented"); }
  virtual Status UnlockWAL() { return Status::NotSupported("UnlockWAL not implemented"); }
  virtual SequenceNumber GetLatestSequenceNumber() const = 0;
  virtual Status DisableFileDeletions() = 0;
  virtual Status EnableFileDeletions(bool force = true) = 0;
  // Families with user-defined timestamps only; Strata has none, so both
  // give RocksDB's answer for a family without them (a null family is the
  // default one): InvalidArgument ("Timestamp is not enabled in this column
  // family"); GetFullHistoryTsLow with a null ts_low: InvalidArgument
  // ("ts_low is nullptr").
  virtual Status IncreaseFullHistoryTsLow(ColumnFamilyHandle* column_family, std::string ts_low);
  virtual Status GetFullHistoryTsLow(ColumnFamilyHandle* column_family, std::string* ts_low);
  // The smallest file_creation_time (seconds) of the tables of every family;
  // 0 when some table does not know its creation time; UINT64_MAX when
  // there are no tables. NotSupported unless max_open_files is -1 (RocksDB's
  // rule).
  virtual Status GetCreationTimeOfOldestFile(uint64_t* /*creation_time*/) {
    return Status::NotSupported("GetCreationTimeOfOldestFile");
  }
  virtual Status GetLiveFiles(std::vector<std::string>& files, uint64_t* manifest_file_size,
                              bool flush_memtable = true) = 0;
  virtual Status GetSortedWalFiles(VectorLogPtr& files) = 0;
  // The WAL being written (its StartSequence() is 0, as RocksDB's).
  virtual Status GetCurrentWalFile(std::unique_ptr<LogFile>* /*current_log_file*/) {
    return Status::NotSupported("GetCurrentWalFile");
  }
  // Every file a live copy needs, with the size to copy (see
  // strata::DB::GetLiveFilesStorageInfo).
  virtual Status GetLiveFilesStorageInfo(const LiveFilesStorageInfoOptions& /*opts*/,
                                         std::vector<LiveFileStorageInfo>* /*files*/) {
    return Status::NotSupported("GetLiveFilesStorageInfo");
  }
  // Deletes one table file of a family's last level (in level 0: the
  // oldest) or an archived WAL; see strata::DB::DeleteFile.
  virtual Status DeleteFile(std::string name) = 0;
  // RocksDB's experimental calls (rocksdb/experimental.h calls these); see
  // strata::DB::SuggestCompactRange and strata::DB::PromoteL0. A DB class
  // that does not override them answers NotSupported, as in RocksDB.
  virtual Status SuggestCompactRange(ColumnFamilyHandle* /*column_family*/, const Slice* /*begin*/,
                                     const Slice* /*end*/) {
    return Status::NotSupported("SuggestCompactRange() is not implemented.");
  }
  virtual Status PromoteL0(ColumnFamilyHandle* /*column_family*/, int /*target_level*/) {
    return Status::NotSupported("PromoteL0() is not implemented.");
  }
  // Tracing and replay: Strata records no traces. Each answers RocksDB's
  // NotSupported ("StartTrace() is not implemented." & co.).
  virtual Status StartTrace(const TraceOptions& /*options*/,
                            std::unique_ptr<TraceWriter>&& /*trace_writer*/) {
    return Status::NotSupported("StartTrace() is not implemented.");
  }
  virtual Status EndTrace() { return Status::NotSupported("EndTrace() is not implemented."); }
  virtual Status StartIOTrace(const TraceOptions& /*options*/,
                              std::unique_ptr<TraceWriter>&& /*trace_writer*/) {
    return Status::NotSupported("StartIOTrace() is not implemented.");
  }
  virtual Status EndIOTrace() { return Status::NotSupported("EndIOTrace() is not implemented."); }
  virtual Status StartBlockCacheTrace(const TraceOptions& /*trace_options*/,
                                      std::unique_ptr<TraceWriter>&& /*trace_writer*/) {
    return Status::NotSupported("StartBlockCacheTrace() is not implemented.");
  }
  virtual Status StartBlockCacheTrace(const BlockCacheTraceOptions& /*options*/,
                                      std::unique_ptr<BlockCacheTraceWriter>&& /*trace_writer*/) {
    return Status::NotSupported("StartBlockCacheTrace() is not implemented.");
  }
  virtual Status EndBlockCacheTrace() {
    return Status::NotSupported("EndBlockCacheTrace() is not implemented.");
  }
  virtual Status NewDefaultReplayer(const std::vector<ColumnFamilyHandle*>& /*handles*/,
                                    std::unique_ptr<TraceReader>&& /*reader*/,
                                    std::unique_ptr<Replayer>* /*replayer*/) {
    return Status::NotSupported("NewDefaultReplayer() is not implemented.");
  }
  // Statistics history (stats_persist_period_sec): Strata keeps none.
  virtual Status GetStatsHistory(uint64_t /*start_time*/, uint64_t /*end_time*/,
                                 std::unique_ptr<StatsHistoryIterator>* /*stats_iterator*/) {
    return Status::NotSupported("GetStatsHistory() is not implemented.");
  }
  virtual Status GetUpdatesSince(SequenceNumber seq_number,
                                 std::unique_ptr<TransactionLogIterator>* iter,
                                 const TransactionLogIterator::ReadOptions& read_options =
                                     TransactionLogIterator::ReadOptions()) = 0;
  virtual void GetLiveFilesMetaData(std::vector<LiveFileMetaData>* metadata) = 0;
  virtual void GetColumnFamilyMetaData(ColumnFamilyHandle* column_family,
                                       ColumnFamilyMetaData* metadata) = 0;
  virtual void GetColumnFamilyMetaData(ColumnFamilyMetaData* metadata) {
    GetColumnFamilyMetaData(DefaultColumnFamily(), metadata);
  }
  // GetColumnFamilyMetaData of every live family, in order of family id.
  virtual void GetAllColumnFamilyMetaData(std::vector<ColumnFamilyMetaData>* /*metadata*/) {}
  virtual Status IngestExternalFile(ColumnFamilyHandle* column_family,
                                    const std::vector<std::string>& external_files,
                                    const IngestExternalFileOptions& options) = 0;
  virtual Status IngestExternalFile(const std::vector<std::string>& external_files,
                                    const IngestExternalFileOptions& options) {
    return IngestExternalFile(DefaultColumnFamily(), external_files, options);
  }
  // Several families' files in one atomic step (all or nothing, also
  // across a crash); see strata::DB::IngestExternalFiles.
  virtual Status IngestExternalFiles(const std::vector<IngestExternalFileArg>& /*args*/) {
    return Status::NotSupported("IngestExternalFiles");
  }
  // A new family holding the tables of one Checkpoint::ExportColumnFamily
  // exported, at their levels and sequence numbers. The caller owns
  // *handle.
  virtual Status CreateColumnFamilyWithImport(const ColumnFamilyOptions& /*options*/,
                                              const std::string& /*column_family_name*/,
                                              const ImportColumnFamilyOptions& /*import_options*/,
                                              const ExportImportFilesMetaData& /*metadata*/,
                                              ColumnFamilyHandle** /*handle*/) {
    return Status::NotSupported("CreateColumnFamilyWithImport");
  }
  virtual Status VerifyChecksum(const ReadOptions& read_options) = 0;
  virtual Status VerifyChecksum() { return VerifyChecksum(ReadOptions()); }
  virtual Status GetDbIdentity(std::string& identity) const = 0;
  virtual Status GetDbSessionId(std::string& session_id) const = 0;
  virtual ColumnFamilyHandle* DefaultColumnFamily() const = 0;
  virtual Status GetPropertiesOfAllTables(ColumnFamilyHandle* column_family,
                                          TablePropertiesCollection* props) = 0;
  virtual Status GetPropertiesOfAllTables(TablePropertiesCollection* props) {
    return GetPropertiesOfAllTables(DefaultColumnFamily(), props);
  }
  virtual Status GetPropertiesOfTablesInRange(ColumnFamilyHandle* column_family, const Range* range,
                                              std::size_t n, TablePropertiesCollection* props) = 0;
  virtual Status TryCatchUpWithPrimary() {
    return Status::NotSupported("Supported only by secondary instance");
  }
  // ---- full-file checksums (rocksdb/file_checksum.h) ----
  // RocksDB declares GetLiveFilesChecksumInfo pure; here a DB class that
  // does not override it answers NotSupported. The compat DB forwards both
  // to strata::DB (see its GetLiveFilesChecksumInfo, VerifyFileChecksums).
  virtual Status GetLiveFilesChecksumInfo(FileChecksumList* /*checksum_list*/) {
    return Status::NotSupported("GetLiveFilesChecksumInfo");
  }
  virtual Status VerifyFileChecksums(const ReadOptions& /*read_options*/) {
    return Status::NotSupported("File verification not supported");
  }

  // The database underneath this one (itself, except for stacked DBs).
  virtual DB* GetRootDB() { return this; }
  // The Strata database this object forwards to (never null while open).
  virtual ::strata::DB* GetStrataDB() const = 0;
};

// Combining and testing GetApproximateSizes' flags.
inline DB::SizeApproximationFlags operator&(DB::SizeApproximationFlags lhs,
                                            DB::SizeApproximationFlags rhs) {
  return static_cast<DB::SizeApproximationFlags>(static_cast<uint8_t>(lhs) &
                                                 static_cast<uint8_t>(rhs));
}
inline DB::SizeApproximationFlags operator|(DB::SizeApproximationFlags lhs,
                                            DB::SizeApproximationFlags rhs) {
  return static_cast<DB::SizeApproximationFlags>(static_cast<uint8_t>(lhs) |
                                                 static_cast<uint8_t>(rhs));
}

// Removes the database's files (the options name its Env).
Status DestroyDB(const std::string& name, const Options& options,
                 const std::vector<ColumnFamilyDescriptor>& column_families =
                     std::vector<ColumnFamilyDescriptor>());
// Rebuilds the MANIFEST from the table files it finds.
Status RepairDB(const std::string& dbname, const DBOptions& db_options,
                const std::vector<ColumnFamilyDescriptor>& column_families);
Status RepairDB(const std::string& dbname, const Options& options);
// Families found on disk but not listed get unknown_cf_opts. Strata's
// repairer rebuilds every family with one set of options: the default
// family's when listed, else unknown_cf_opts.
Status RepairDB(const std::string& dbname, const DBOptions& db_options,
                const std::vector<ColumnFamilyDescriptor>& column_families,
                const ColumnFamilyOptions& unknown_cf_opts);
}  // namespace rocksdb
