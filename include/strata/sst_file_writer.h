// SstFileWriter: writes a lone table file (SST) from keys given in order,
// outside any DB, in the same block-based format a DB writes (so RocksDB's
// sst_dump reads it). SstFileReader: opens a lone table file and iterates
// it, reads its properties and verifies its checksums.
//
// Every entry an SstFileWriter writes has sequence number 0, like RocksDB's
// SstFileWriter; the file carries "rocksdb.external_sst_file.version" = 2.
// Thread-safety: an SstFileWriter or SstFileReader is used by one thread at a
// time; iterators of one reader may be used by different threads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "strata/export.h"
#include "strata/iterator.h"
#include "strata/options.h"
#include "strata/slice.h"
#include "strata/status.h"
#include "strata/table_properties.h"

namespace strata {

// What a finished SstFileWriter wrote.
struct STRATA_EXPORT ExternalSstFileInfo {
  ExternalSstFileInfo() = default;
  // RocksDB's constructor (the range-deletion bounds and checksum empty).
  ExternalSstFileInfo(const std::string& _file_path, const std::string& _smallest_key,
                      const std::string& _largest_key, uint64_t _sequence_number,
                      uint64_t _file_size, int32_t _num_entries, int32_t _version)
      : file_path(_file_path),
        smallest_key(_smallest_key),
        largest_key(_largest_key),
        sequence_number(_sequence_number),
        file_size(_file_size),
        num_entries(static_cast<uint64_t>(_num_entries)),
        version(_version) {}

  std::string file_path;
  std::string smallest_key;  // user keys
  std::string largest_key;
  // The smallest begin and largest end key of the file's range deletions
  // (empty without any).
  std::string smallest_range_del_key;
  std::string largest_range_del_key;
  // The whole file's checksum by Options::file_checksum_gen_factory's
  // generator, and its Name(); without a factory "" and "Unknown"
  // (RocksDB's kUnknownFileChecksum / kUnknownFileChecksumFuncName).
  std::string file_checksum;
  std::string file_checksum_func_name;
  uint64_t sequence_number = 0;
  uint64_t file_size = 0;
  uint64_t num_entries = 0;
  uint64_t num_range_del_entries = 0;
  int32_t version = 0;  // 2 once written by SstFileWriter
};

class STRATA_EXPORT SstFileWriter {
 public:
  // Uses options.comparator, options.compression, options.table_factory
  // (block-based table options; null = defaults), options.env and
  // options.merge_operator's name when there is one.
  explicit SstFileWriter(const Options& options);
  ~SstFileWriter();
  SstFileWriter(const SstFileWriter&) = delete;
  SstFileWriter& operator=(const SstFileWriter&) = delete;

  // Creates (truncates) the file. A writer writes one file at a time.
  Status Open(const std::string& file_path);

  // Keys must be strictly increasing by options.comparator across Put,
  // Merge and Delete; otherwise InvalidArgument and nothing is added.
  Status Put(const Slice& user_key, const Slice& value);
  Status Merge(const Slice& user_key, const Slice& value);
  Status Delete(const Slice& user_key);
  // [begin, end) in any order relative to point keys.
  Status DeleteRange(const Slice& begin_key, const Slice& end_key);

  // Writes the index, meta blocks and footer, syncs and closes the file.
  // InvalidArgument if nothing was added.
  Status Finish(ExternalSstFileInfo* file_info = nullptr);

  // Bytes written so far.
  uint64_t FileSize();

 private:
  struct Rep;
  std::unique_ptr<Rep> rep_;
};

class STRATA_EXPORT SstFileReader {
 public:
  // Uses options.comparator, options.table_factory and options.env.
  explicit SstFileReader(const Options& options);
  ~SstFileReader();
  SstFileReader(const SstFileReader&) = delete;
  SstFileReader& operator=(const SstFileReader&) = delete;

  Status Open(const std::string& file_path);

  // An iterator over the user keys of the file: for each user key the
  // newest entry visible at read_options.snapshot (all entries without one),
  // deletions hidden. REQUIRES: Open succeeded.
  std::unique_ptr<Iterator> NewIterator(const ReadOptions& read_options);

  std::shared_ptr<const TableProperties> GetTableProperties() const;

  // Reads every block and verifies its checksum.
  Status VerifyChecksum(const ReadOptions& read_options = ReadOptions());

 private:
  struct Rep;
  std::unique_ptr<Rep> rep_;
};

}  // namespace strata
