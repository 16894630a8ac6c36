// rocksdb/sst_file_reader.h: RocksDB 7.8.3's SstFileReader over Strata's
// (include/strata/sst_file_writer.h): reads one table file outside any DB.
// The options are converted as Open's are (an option Strata refuses makes
// Open return InvalidArgument naming it); NewIterator's ReadOptions too (a
// refused field gives an iterator whose status() names it).
//
// The iterator shows each user key's newest entry at options.snapshot (all
// entries without one) and hides deletions; like RocksDB 7.8.3's it does
// not apply the file's range tombstones. The caller deletes the iterator,
// before the reader.
// Thread-safety: one reader per thread, as RocksDB's.
#pragma once

#include <memory>
#include <string>

#include "rocksdb/iterator.h"
#include "rocksdb/options.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "rocksdb/table_properties.h"
#include "strata/sst_file_writer.h"

namespace rocksdb {

class SstFileReader {
 public:
  SstFileReader(const Options& options);  // NOLINT: implicit, as RocksDB's
  ~SstFileReader();
  SstFileReader(const SstFileReader&) = delete;
  SstFileReader& operator=(const SstFileReader&) = delete;

  Status Open(const std::string& file_path);
  // REQUIRES: Open succeeded (otherwise the iterator's status() says so).
  Iterator* NewIterator(const ReadOptions& options);
  std::shared_ptr<const TableProperties> GetTableProperties() const;
  Status VerifyChecksum(const ReadOptions& read_options);
  Status VerifyChecksum() { return VerifyChecksum(ReadOptions()); }

 private:
  Options options_;
  std::unique_ptr<::strata::SstFileReader> reader_;  // null until Open succeeds
};

}  // namespace rocksdb
