// EventListener: callbacks a database makes when background work starts and
// ends -- flushes, compactions, table files created and deleted, write
// stalls, background errors and their recovery. Names, structs and meanings
// follow RocksDB 7.8.3's rocksdb/listener.h so a RocksDB listener ports by
// renaming the namespace; callbacks RocksDB has and Strata has no source
// for (blob files, file I/O, subcompactions) are not declared.
//
// Listeners are registered in DBOptions::listeners. The DB calls them from
// the thread that does the work (a background thread, or the writer that
// hit a stall), never with the DB mutex held, so a callback may call back
// into the DB -- but it runs on the path of that work: a slow callback slows
// the flush or compaction it reports. The order for one job is:
//   flush:      OnFlushBegin, then per output OnTableFileCreationStarted and
//               OnTableFileCreated, then OnFlushCompleted;
//   compaction: OnCompactionBegin, per output OnTableFileCreationStarted and
//               OnTableFileCreated, OnCompactionCompleted, then
//               OnTableFileDeleted for each input the job made obsolete.
// A table file written by WAL recovery during DB::Open reports only the
// file callbacks (reason kRecovery).
//
// Thread-safety: callbacks may run concurrently on several threads (two
// jobs at once); an implementation must be thread-safe. The info structs
// passed to callbacks are valid only during the call.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "strata/export.h"
#include "strata/options.h"
#include "strata/status.h"
#include "strata/table_properties.h"

namespace strata {

class DB;

// Why a table file is being written.
enum class TableFileCreationReason {
  kFlush,
  kCompaction,
  kRecovery,
  kMisc,
};

// Why a compaction ran (RocksDB's enumerators; Strata's leveled compaction
// uses kLevelL0FilesNum, kLevelMaxLevelSize and kManualCompaction).
enum class CompactionReason : int {
  kUnknown = 0,
  kLevelL0FilesNum,
  kLevelMaxLevelSize,
  kUniversalSizeAmplification,
  kUniversalSizeRatio,
  kUniversalSortedRunNum,
  kFIFOMaxSize,
  kFIFOReduceNumFiles,
  kFIFOTtl,
  kManualCompaction,
  kFilesMarkedForCompaction,
  kBottommostFiles,
  kTtl,
  kFlush,
  kExternalSstIngestion,
  kPeriodicCompaction,
  kChangeTemperature,
  kForcedBlobGC,
  kRoundRobinTtl,
  kNumOfReasons,
};

// Why a memtable was flushed (RocksDB's values).
enum class FlushReason : int {
  kOthers = 0x00,
  kGetLiveFiles = 0x01,
  kShutDown = 0x02,
  kExternalFileIngestion = 0x03,
  kManualCompaction = 0x04,
  kWriteBufferManager = 0x05,
  kWriteBufferFull = 0x06,
  kTest = 0x07,
  kDeleteFiles = 0x08,
  kAutoCompaction = 0x09,
  kManualFlush = 0x0a,
  kErrorRecovery = 0xb,
  kErrorRecoveryRetryFlush = 0xc,
  kWalFull = 0xd,
};

// Which background work failed.
enum class BackgroundErrorReason {
  kFlush,
  kCompaction,
  kWriteCallback,
  kMemTable,
  kManifestWrite,
  kFlushNoWAL,
  kManifestWriteNoWAL,
};

// Whether writes of a column family run freely, are slowed down to
// delayed_write_rate, or wait.
enum class WriteStallCondition {
  kNormal,
  kDelayed,
  kStopped,
};

struct STRATA_EXPORT WriteStallInfo {
  std::string cf_name;
  struct {
    WriteStallCondition cur;
    WriteStallCondition prev;
  } condition;
};

struct STRATA_EXPORT FileCreationBriefInfo {
  FileCreationBriefInfo() = default;
  FileCreationBriefInfo(const std::string& _db_name, const std::string& _cf_name,
                        const std::string& _file_path, int _job_id)
      : db_name(_db_name), cf_name(_cf_name), file_path(_file_path), job_id(_job_id) {}

  std::string db_name;
  std::string cf_name;
  std::string file_path;
  int job_id = 0;
};

struct STRATA_EXPORT TableFileCreationBriefInfo : public FileCreationBriefInfo {
  TableFileCreationReason reason = TableFileCreationReason::kMisc;
};

struct STRATA_EXPORT TableFileCreationInfo : public TableFileCreationBriefInfo {
  TableFileCreationInfo() = default;
  explicit TableFileCreationInfo(TableProperties&& prop) : table_properties(prop) {}

  uint64_t file_size = 0;
  // The properties the table was written with (empty when creation failed).
  TableProperties table_properties;
  // OK, or why the file could not be written (it is deleted then).
  Status status;
  // The file's full-file checksum and function name when the DB has a
  // DBOptions::file_checksum_gen_factory (strata/file_checksum.h); else ""
  // and "Unknown".
  std::string file_checksum;
  std::string file_checksum_func_name = "Unknown";
};

struct STRATA_EXPORT FileDeletionInfo {
  FileDeletionInfo() = default;
  FileDeletionInfo(const std::string& _db_name, const std::string& _file_path, int _job_id,
                   Status _status)
      : db_name(_db_name), file_path(_file_path), job_id(_job_id), status(_status) {}

  std::string db_name;
  std::string file_path;
  int job_id = 0;
  Status status;
};

struct STRATA_EXPORT TableFileDeletionInfo : public FileDeletionInfo {};

// Blob files a job wrote or made garbage in (RocksDB's integrated BlobDB).
// Strata writes no blob files: the lists that hold them are always empty.
struct STRATA_EXPORT BlobFileInfo {
  BlobFileInfo(const std::string& _blob_file_path, const uint64_t _blob_file_number)
      : blob_file_path(_blob_file_path), blob_file_number(_blob_file_number) {}
  std::string blob_file_path;
  uint64_t blob_file_number;
};

struct STRATA_EXPORT BlobFileAdditionInfo : public BlobFileInfo {
  BlobFileAdditionInfo(const std::string& _blob_file_path, const uint64_t _blob_file_number,
                       const uint64_t _total_blob_count, const uint64_t _total_blob_bytes)
      : BlobFileInfo(_blob_file_path, _blob_file_number),
        total_blob_count(_total_blob_count),
        total_blob_bytes(_total_blob_bytes) {}
  uint64_t total_blob_count;
  uint64_t total_blob_bytes;
};

struct STRATA_EXPORT BlobFileGarbageInfo : public BlobFileInfo {
  BlobFileGarbageInfo(const std::string& _blob_file_path, const uint64_t _blob_file_number,
                      const uint64_t _garbage_blob_count, const uint64_t _garbage_blob_bytes)
      : BlobFileInfo(_blob_file_path, _blob_file_number),
        garbage_blob_count(_garbage_blob_count),
        garbage_blob_bytes(_garbage_blob_bytes) {}
  uint64_t garbage_blob_count;
  uint64_t garbage_blob_bytes;
};

struct STRATA_EXPORT FlushJobInfo {
  uint32_t cf_id = 0;
  std::string cf_name;
  // The table written (the last one if several; number 0 when the flush
  // dropped everything).
  std::string file_path;
  uint64_t file_number = 0;
  uint64_t oldest_blob_file_number = 0;  // Strata has no blob files: 0
  uint64_t thread_id = 0;
  int job_id = 0;
  // Whether level 0 is, with this flush, at the slowdown / stop trigger.
  bool triggered_writes_slowdown = false;
  bool triggered_writes_stop = false;
  uint64_t smallest_seqno = 0;
  uint64_t largest_seqno = 0;
  // Of the file written (OnFlushCompleted only).
  TableProperties table_properties;
  FlushReason flush_reason = FlushReason::kOthers;
  // No blob files: always kNoCompression and empty.
  CompressionType blob_compression_type = kNoCompression;
  std::vector<BlobFileAdditionInfo> blob_file_addition_infos;
};

// A compaction's statistics, with every field of RocksDB 7.8.3's
// CompactionJobStats (rocksdb/compaction_job_stats.h is this struct).
// Fields Strata does not measure stay 0: cpu_micros, the blob fields (no
// blob files), num_corrupt_keys, and the file I/O nanosecond timers.
struct STRATA_EXPORT CompactionJobStats {
  // Every field 0 / empty (its initializers; what Reset() restores).
  CompactionJobStats() {}
  // Every field to 0 / empty.
  void Reset();
  // Adds the counters of `stats` (the prefixes and flags are not merged).
  void Add(const CompactionJobStats& stats);

  uint64_t elapsed_micros = 0;
  uint64_t cpu_micros = 0;  // Strata does not measure CPU time: 0
  uint64_t num_input_records = 0;
  uint64_t num_blobs_read = 0;
  size_t num_input_files = 0;
  size_t num_input_files_at_output_level = 0;
  uint64_t num_output_records = 0;
  size_t num_output_files = 0;
  size_t num_output_files_blob = 0;
  bool is_full_compaction = false;
  bool is_manual_compaction = false;
  uint64_t total_input_bytes = 0;
  uint64_t total_blob_bytes_read = 0;
  uint64_t total_output_bytes = 0;
  uint64_t total_output_bytes_blob = 0;
  // Entries dropped because a newer version of the key replaced them, or a
  // deletion / range deletion / the compaction filter removed them.
  uint64_t num_records_replaced = 0;
  // The raw (uncompressed) key and value bytes of the input files.
  uint64_t total_input_raw_key_bytes = 0;
  uint64_t total_input_raw_value_bytes = 0;
  uint64_t num_input_deletion_records = 0;
  uint64_t num_expired_deletion_records = 0;
  uint64_t num_corrupt_keys = 0;
  uint64_t file_write_nanos = 0;
  uint64_t file_range_sync_nanos = 0;
  uint64_t file_fsync_nanos = 0;
  uint64_t file_prepare_write_nanos = 0;
  // The smallest and largest output user keys (first kMaxPrefixLength bytes).
  static const size_t kMaxPrefixLength = 8;
  std::string smallest_output_key_prefix;
  std::string largest_output_key_prefix;
  uint64_t num_single_del_fallthru = 0;
  uint64_t num_single_del_mismatch = 0;
};

struct STRATA_EXPORT CompactionFileInfo {
  int level = 0;
  uint64_t file_number = 0;
  uint64_t oldest_blob_file_number = 0;
};

struct STRATA_EXPORT CompactionJobInfo {
  uint32_t cf_id = 0;
  std::string cf_name;
  Status status;  // OnCompactionCompleted: the job's outcome
  uint64_t thread_id = 0;
  int job_id = 0;
  int base_input_level = 0;
  int output_level = 0;
  // Full paths, in input order (start level first).
  std::vector<std::string> input_files;
  std::vector<CompactionFileInfo> input_file_infos;
  std::vector<std::string> output_files;
  std::vector<CompactionFileInfo> output_file_infos;
  // The outputs' properties by path (OnCompactionCompleted).
  std::map<std::string, std::shared_ptr<const TableProperties>> table_properties;
  CompactionReason compaction_reason = CompactionReason::kUnknown;
  CompressionType compression = kNoCompression;
  CompactionJobStats stats;
  // No blob files: always kNoCompression and empty.
  CompressionType blob_compression_type = kNoCompression;
  std::vector<BlobFileAdditionInfo> blob_file_addition_infos;
  std::vector<BlobFileGarbageInfo> blob_file_garbage_infos;
};

struct STRATA_EXPORT MemTableInfo {
  std::string cf_name;
  uint64_t first_seqno = 0;
  uint64_t earliest_seqno = 0;
  uint64_t num_entries = 0;
  uint64_t num_deletes = 0;
};

// One table file added by DB::IngestExternalFile(s).
struct STRATA_EXPORT ExternalFileIngestionInfo {
  std::string cf_name;
  std::string external_file_path;  // the file the caller named
  std::string internal_file_path;  // its copy (or link) in the DB
  // The sequence number every key of the file carries (0: none assigned).
  uint64_t global_seqno = 0;
  TableProperties table_properties;
};

struct STRATA_EXPORT BackgroundErrorRecoveryInfo {
  Status old_bg_error;
  Status new_bg_error;
};

class STRATA_EXPORT EventListener {
 public:
  virtual ~EventListener() = default;
  virtual const char* Name() const { return ""; }

  // A flush of one memtable is about to start / has been committed to the
  // MANIFEST. db is the database doing it (do not delete it).
  virtual void OnFlushBegin(DB* /*db*/, const FlushJobInfo& /*info*/) {}
  virtual void OnFlushCompleted(DB* /*db*/, const FlushJobInfo& /*info*/) {}

  // A compaction is about to start (its inputs chosen) / has finished,
  // successfully or not (info.status).
  virtual void OnCompactionBegin(DB* /*db*/, const CompactionJobInfo& /*info*/) {}
  virtual void OnCompactionCompleted(DB* /*db*/, const CompactionJobInfo& /*info*/) {}

  // A table file is about to be created / has been written, synced and
  // closed, or failed (info.status).
  virtual void OnTableFileCreationStarted(const TableFileCreationBriefInfo& /*info*/) {}
  virtual void OnTableFileCreated(const TableFileCreationInfo& /*info*/) {}
  // An obsolete table file was deleted (or the delete failed: info.status).
  virtual void OnTableFileDeleted(const TableFileDeletionInfo& /*info*/) {}

  // A file was ingested (called once per file, after the MANIFEST records
  // it, on the thread that called IngestExternalFile).
  virtual void OnExternalFileIngested(DB* /*db*/, const ExternalFileIngestionInfo& /*info*/) {}

  // A mutable memtable became immutable (it waits for its flush).
  virtual void OnMemTableSealed(const MemTableInfo& /*info*/) {}

  // A column family's write-stall condition changed.
  virtual void OnStallConditionsChanged(const WriteStallInfo& /*info*/) {}

  // Background work failed with *bg_error, which is about to become the
  // DB's background error (writes then fail until DB::Resume). A listener
  // may replace it: setting it to OK suppresses the error (the failed work
  // is dropped as if it had not been attempted); the DB uses the value left
  // after the last listener.
  virtual void OnBackgroundError(BackgroundErrorReason /*reason*/, Status* /*bg_error*/) {}

  // Automatic recovery of a background error starts (*auto_recovery true;
  // a listener may set it false to leave recovery to DB::Resume) / ended:
  // info.new_bg_error is OK when the DB writes again.
  virtual void OnErrorRecoveryBegin(BackgroundErrorReason /*reason*/, Status /*bg_error*/,
                                    bool* /*auto_recovery*/) {}
  virtual void OnErrorRecoveryEnd(const BackgroundErrorRecoveryInfo& /*info*/) {}
};

}  // namespace strata
