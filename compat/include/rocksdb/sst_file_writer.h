// rocksdb/sst_file_writer.h: builds a table file outside any DB, to be added
// with DB::IngestExternalFile. A wrapper over strata::SstFileWriter taking
// RocksDB's constructor arguments; the RocksDB Options are converted as at
// Open (a refused option makes Open() fail with InvalidArgument naming it).
// Thread-safety: not thread-safe.
#pragma once

#include <memory>
#include <string>

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
  // `column_family`, when given, is only checked to exist; the table's
  // comparator and table options come from `options`. skip_filters=true is
  // refused at Open (Strata always writes the filter).
  SstFileWriter(const EnvOptions& env_options, const Options& options,
                ColumnFamilyHandle* column_family = nullptr, bool invalidate_page_cache = true,
                int io_priority = 0, bool skip_filters = false);
  ~SstFileWriter();
  SstFileWriter(const SstFileWriter&) = delete;
  SstFileWriter& operator=(const SstFileWriter&) = delete;

  // Creates the file at file_path. Keys must then be added in ascending order.
  Status Open(const std::string& file_path);
  Status Put(const Slice& user_key, const Slice& value);
  Status Merge(const Slice& user_key, const Slice& value);
  Status Delete(const Slice& user_key);
  Status DeleteRange(const Slice& begin_key, const Slice& end_key);
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
