// rocksdb/sst_file_writer.h: builds a table file outside any DB, to be added
// with DB::IngestExternalFile. A wrapper over strata::SstFileWriter taking
// RocksDB's constructor arguments; the RocksDB Options are converted as at
// Open (a refused option makes Open() fail with InvalidArgument naming it).
// - The deprecated constructor's user_comparator replaces
//   options.comparator for the file; invalidate_page_cache and io_priority
//   are advisory; skip_filters=true writes the file without a filter block
//   (as RocksDB; its properties then name no filter policy, where
//   RocksDB's keep the name).
// - Add is the deprecated name of Put. The timestamp forms of Put, Delete
//   and DeleteRange answer InvalidArgument("Timestamp size mismatch") for a
//   timestamp whose size is not the comparator's timestamp_size() (always 0
//   here) and otherwise are the plain forms, as RocksDB.
// - ExternalSstFileInfo (Strata's) has RocksDB's fields: the range-deletion
//   bounds, and file_checksum / file_checksum_func_name from
//   Options::file_checksum_gen_factory ("" and "Unknown" without one).
// Thread-safety: not thread-safe.
#pragma once

#include <memory>
#include <string>

#include "rocksdb/comparator.h"
#include "rocksdb/env.h"
#include "rocksdb/options.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "rocksdb/types.h"
#include "strata/db.h"
#include "strata/sst_file_writer.h"

namespace rocksdb {
using ColumnFamilyHandle = ::strata::ColumnFamilyHandle;
using ExternalSstFileInfo = ::strata::ExternalSstFileInfo;

class SstFileWriter {
 public:
  // `column_family` is not used; the table's comparator and table options
  // come from `options`.
  SstFileWriter(const EnvOptions& env_options, const Options& options,
                ColumnFamilyHandle* column_family = nullptr, bool invalidate_page_cache = true,
                Env::IOPriority io_priority = Env::IOPriority::IO_TOTAL, bool skip_filters = false);
  // Deprecated in RocksDB: user_comparator orders the file's keys.
  SstFileWriter(const EnvOptions& env_options, const Options& options,
                const Comparator* user_comparator, ColumnFamilyHandle* column_family = nullptr,
                bool invalidate_page_cache = true,
                Env::IOPriority io_priority = Env::IOPriority::IO_TOTAL, bool skip_filters = false);
  ~SstFileWriter();
  SstFileWriter(const SstFileWriter&) = delete;
  SstFileWriter& operator=(const SstFileWriter&) = delete;

  // Creates the file at file_path. Keys must then be added in ascending order.
  Status Open(const std::string& file_path);
  // Deprecated: Put.
  Status Add(const Slice& user_key, const Slice& value);
  Status Put(const Slice& user_key, const Slice& value);
  Status Put(const Slice& user_key, const Slice& timestamp, const Slice& value);
  Status Merge(const Slice& user_key, const Slice& value);
  Status Delete(const Slice& user_key);
  Status Delete(const Slice& user_key, const Slice& timestamp);
  Status DeleteRange(const Slice& begin_key, const Slice& end_key);
  Status DeleteRange(const Slice& begin_key, const Slice& end_key, const Slice& timestamp);
  // Completes the file; `file_info`, when given, describes it.
  Status Finish(ExternalSstFileInfo* file_info = nullptr);
  // Bytes written so far.
  uint64_t FileSize();

 private:
  Options options_;
  bool skip_filters_;
  std::unique_ptr<::strata::SstFileWriter> writer_;
  Status open_error_;
};
}  // namespace rocksdb
