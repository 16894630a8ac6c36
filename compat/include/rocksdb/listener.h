// rocksdb/listener.h: callbacks on flushes, compactions, table files, write
// stalls and background errors (DBOptions::listeners).
//
// EventListener is RocksDB's class: its callbacks take a rocksdb::DB*, the
// object DB::Open returned (null for callbacks made while Open is still
// running). Open wraps each listener for Strata's engine, which calls it
// from its own threads with Strata's info structs; those have RocksDB's
// names and fields, and are the same types here.
//
// Strata delivers: OnFlushBegin/Completed, OnCompactionBegin/Completed,
// OnTableFileCreationStarted/Created, OnTableFileDeleted,
// OnExternalFileIngested, OnMemTableSealed, OnStallConditionsChanged,
// OnBackgroundError, OnErrorRecoveryBegin/End (and the deprecated
// OnErrorRecoveryCompleted, after a recovery that succeeded).
// Declared so listeners written for RocksDB compile, and never called:
// subcompaction, blob file and column-family-handle callbacks (Strata runs
// no subcompaction jobs of its own, has no blob files, and deletes handles
// without notice) and OnIOError. A listener whose ShouldBeNotifiedOnFileIO
// returns true is refused at Open (InvalidArgument naming it): Strata does
// not report file operations.
// Thread-safety: callbacks run on Strata's background threads (and the
// writing thread for ingestion and memtable switches); keep them short.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "rocksdb/advanced_options.h"
#include "rocksdb/compaction_job_stats.h"
#include "rocksdb/compression_type.h"
#include "rocksdb/io_status.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/status.h"
#include "rocksdb/table_properties.h"
#include "strata/listener.h"

namespace strata {
class ColumnFamilyHandle;
}  // namespace strata

namespace rocksdb {

class DB;
struct ConfigOptions;
using ColumnFamilyHandle = ::strata::ColumnFamilyHandle;

// Delivered: Strata's structs (RocksDB's names and fields).
using TableFileCreationReason = ::strata::TableFileCreationReason;
using CompactionReason = ::strata::CompactionReason;
using FlushReason = ::strata::FlushReason;
using BackgroundErrorReason = ::strata::BackgroundErrorReason;
using WriteStallCondition = ::strata::WriteStallCondition;
using WriteStallInfo = ::strata::WriteStallInfo;
using FileCreationBriefInfo = ::strata::FileCreationBriefInfo;
using TableFileCreationBriefInfo = ::strata::TableFileCreationBriefInfo;
using TableFileCreationInfo = ::strata::TableFileCreationInfo;
using FileDeletionInfo = ::strata::FileDeletionInfo;
using TableFileDeletionInfo = ::strata::TableFileDeletionInfo;
using FlushJobInfo = ::strata::FlushJobInfo;
using CompactionFileInfo = ::strata::CompactionFileInfo;
using CompactionJobInfo = ::strata::CompactionJobInfo;
using MemTableInfo = ::strata::MemTableInfo;
using ExternalFileIngestionInfo = ::strata::ExternalFileIngestionInfo;
using BackgroundErrorRecoveryInfo = ::strata::BackgroundErrorRecoveryInfo;
// Never filled by Strata (no blob files): FlushJobInfo's and
// CompactionJobInfo's lists of them are empty.
using BlobFileInfo = ::strata::BlobFileInfo;
using BlobFileAdditionInfo = ::strata::BlobFileAdditionInfo;
using BlobFileGarbageInfo = ::strata::BlobFileGarbageInfo;

// ---- never delivered by Strata (declared for source compatibility) ----

enum class BlobFileCreationReason { kFlush, kCompaction, kRecovery };

struct BlobFileCreationBriefInfo : public FileCreationBriefInfo {
  BlobFileCreationBriefInfo(const std::string& _db_name, const std::string& _cf_name,
                            const std::string& _file_path, int _job_id,
                            BlobFileCreationReason _reason)
      : FileCreationBriefInfo(_db_name, _cf_name, _file_path, _job_id), reason(_reason) {}
  BlobFileCreationReason reason;
};

struct BlobFileCreationInfo : public BlobFileCreationBriefInfo {
  BlobFileCreationInfo(const std::string& _db_name, const std::string& _cf_name,
                       const std::string& _file_path, int _job_id, BlobFileCreationReason _reason,
                       uint64_t _total_blob_count, uint64_t _total_blob_bytes, Status _status,
                       const std::string& _file_checksum,
                       const std::string& _file_checksum_func_name)
      : BlobFileCreationBriefInfo(_db_name, _cf_name, _file_path, _job_id, _reason),
        total_blob_count(_total_blob_count),
        total_blob_bytes(_total_blob_bytes),
        status(_status),
        file_checksum(_file_checksum),
        file_checksum_func_name(_file_checksum_func_name) {}
  uint64_t total_blob_count;
  uint64_t total_blob_bytes;
  Status status;
  std::string file_checksum;
  std::string file_checksum_func_name;
};

struct BlobFileDeletionInfo : public FileDeletionInfo {
  BlobFileDeletionInfo(const std::string& _db_name, const std::string& _file_path, int _job_id,
                       Status _status)
      : FileDeletionInfo(_db_name, _file_path, _job_id, _status) {}
};

enum class FileOperationType {
  kRead,
  kWrite,
  kTruncate,
  kClose,
  kFlush,
  kSync,
  kFsync,
  kRangeSync,
  kAppend,
  kPositionedAppend,
  kOpen
};

struct FileOperationInfo {
  using Duration = std::chrono::nanoseconds;
  using SteadyTimePoint = std::chrono::time_point<std::chrono::steady_clock, Duration>;
  using SystemTimePoint = std::chrono::time_point<std::chrono::system_clock, Duration>;
  using StartTimePoint = std::pair<SystemTimePoint, SteadyTimePoint>;
  using FinishTimePoint = SteadyTimePoint;

  FileOperationType type;
  const std::string& path;
  Temperature temperature;
  uint64_t offset = 0;
  size_t length = 0;
  const Duration duration;
  const SystemTimePoint& start_ts;
  Status status;

  FileOperationInfo(const FileOperationType t, const std::string& p, const StartTimePoint& start,
                    const FinishTimePoint& finish, const Status& s,
                    const Temperature temp = Temperature::kUnknown)
      : type(t),
        path(p),
        temperature(temp),
        duration(std::chrono::duration_cast<Duration>(finish - start.second)),
        start_ts(start.first),
        status(s) {}
  static StartTimePoint StartNow() {
    return {std::chrono::system_clock::now(), std::chrono::steady_clock::now()};
  }
  static FinishTimePoint FinishNow() { return std::chrono::steady_clock::now(); }
};

struct SubcompactionJobInfo {
  uint32_t cf_id = 0;
  std::string cf_name;
  Status status;
  uint64_t thread_id = 0;
  int job_id = 0;
  int subcompaction_job_id = 0;
  int base_input_level = 0;
  int output_level = 0;
  CompactionReason compaction_reason = CompactionReason::kUnknown;
  CompressionType compression = kNoCompression;
  CompactionJobStats stats;
  CompressionType blob_compression_type = kNoCompression;
};

struct IOErrorInfo {
  IOErrorInfo(const IOStatus& s, FileOperationType op, const std::string& path, size_t len,
              uint64_t off)
      : io_status(s), operation(op), file_path(path), length(len), offset(off) {}
  IOStatus io_status;
  FileOperationType operation;
  std::string file_path;
  size_t length;
  uint64_t offset;
};

class EventListener {
 public:
  virtual ~EventListener() = default;
  static const char* Type() { return "EventListener"; }
  // A listener by id: "" and "nullptr" give null; another id is made by
  // options.registry (a program's registered factories; Strata registers
  // none): NotSupported when unknown, unless
  // options.ignore_unsupported_options (then OK, *result unchanged), as
  // RocksDB's loader. An id with options ("id=X;a=b") is NotSupported
  // (listeners are not Configurables here).
  static Status CreateFromString(const ConfigOptions& options, const std::string& id,
                                 std::shared_ptr<EventListener>* result);
  virtual const char* Name() const { return ""; }

  virtual void OnFlushCompleted(DB* /*db*/, const FlushJobInfo& /*flush_job_info*/) {}
  virtual void OnFlushBegin(DB* /*db*/, const FlushJobInfo& /*flush_job_info*/) {}
  virtual void OnTableFileDeleted(const TableFileDeletionInfo& /*info*/) {}
  virtual void OnCompactionBegin(DB* /*db*/, const CompactionJobInfo& /*ci*/) {}
  virtual void OnCompactionCompleted(DB* /*db*/, const CompactionJobInfo& /*ci*/) {}
  virtual void OnSubcompactionBegin(const SubcompactionJobInfo& /*si*/) {}
  virtual void OnSubcompactionCompleted(const SubcompactionJobInfo& /*si*/) {}
  virtual void OnTableFileCreated(const TableFileCreationInfo& /*info*/) {}
  virtual void OnTableFileCreationStarted(const TableFileCreationBriefInfo& /*info*/) {}
  virtual void OnMemTableSealed(const MemTableInfo& /*info*/) {}
  virtual void OnColumnFamilyHandleDeletionStarted(ColumnFamilyHandle* /*handle*/) {}
  virtual void OnExternalFileIngested(DB* /*db*/, const ExternalFileIngestionInfo& /*info*/) {}
  virtual void OnBackgroundError(BackgroundErrorReason /*reason*/, Status* /*bg_error*/) {}
  virtual void OnStallConditionsChanged(const WriteStallInfo& /*info*/) {}
  virtual void OnFileReadFinish(const FileOperationInfo& /*info*/) {}
  virtual void OnFileWriteFinish(const FileOperationInfo& /*info*/) {}
  virtual void OnFileFlushFinish(const FileOperationInfo& /*info*/) {}
  virtual void OnFileSyncFinish(const FileOperationInfo& /*info*/) {}
  virtual void OnFileRangeSyncFinish(const FileOperationInfo& /*info*/) {}
  virtual void OnFileTruncateFinish(const FileOperationInfo& /*info*/) {}
  virtual void OnFileCloseFinish(const FileOperationInfo& /*info*/) {}
  virtual bool ShouldBeNotifiedOnFileIO() { return false; }
  virtual void OnErrorRecoveryBegin(BackgroundErrorReason /*reason*/, Status /*bg_error*/,
                                    bool* /*auto_recovery*/) {}
  virtual void OnErrorRecoveryCompleted(Status /*old_bg_error*/) {}
  virtual void OnErrorRecoveryEnd(const BackgroundErrorRecoveryInfo& /*info*/) {}
  virtual void OnBlobFileCreationStarted(const BlobFileCreationBriefInfo& /*info*/) {}
  virtual void OnBlobFileCreated(const BlobFileCreationInfo& /*info*/) {}
  virtual void OnBlobFileDeleted(const BlobFileDeletionInfo& /*info*/) {}
  virtual void OnIOError(const IOErrorInfo& /*info*/) {}
};

}  // namespace rocksdb
