// Metadata of live files: what DB::GetLiveFilesMetaData,
// DB::GetColumnFamilyMetaData and DB::GetLiveFilesStorageInfo report, and
// what ExportColumnFamily hands to CreateColumnFamilyWithImport. The field
// names are RocksDB's (rocksdb/metadata.h), so tools and bindings written
// for RocksDB read them unchanged.
//
// Strata keeps no blob files and no storage tiers: temperature is always
// kUnknown and ColumnFamilyMetaData::blob_files empty; both exist so code
// written for RocksDB reads them unchanged.
//
// Thread-safety: plain data.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "strata/export.h"

namespace strata {

// The kinds of files in a DB directory (RocksDB's FileType order).
enum FileType {
  kWalFile,
  kDBLockFile,
  kTableFile,
  kDescriptorFile,  // MANIFEST
  kCurrentFile,
  kTempFile,
  kInfoLogFile,
  kMetaDatabase,
  kIdentityFile,
  kOptionsFile,
  kBlobFile
};

// A file's storage tier (RocksDB's values; not persisted by Strata, which
// has one tier: every file is kUnknown).
enum class Temperature : uint8_t {
  kUnknown = 0,
  kHot = 0x04,
  kWarm = 0x08,
  kCold = 0x0C,
  kLastTemperature,
};

// One file of a DB: its name relative to `directory` (no leading '/').
struct STRATA_EXPORT FileStorageInfo {
  std::string relative_filename;
  std::string directory;
  uint64_t file_number = 0;
  FileType file_type = kTempFile;
  uint64_t size = 0;
  // Full-file checksum and its function's name, as the MANIFEST records
  // them (strata/file_checksum.h); a table written without
  // DBOptions::file_checksum_gen_factory has "" and "Unknown".
  std::string file_checksum;
  std::string file_checksum_func_name;
  Temperature temperature = Temperature::kUnknown;
};

// A file a copy of the live DB needs (GetLiveFilesStorageInfo): copy
// `size` bytes of it (trim_to_size), or write replacement_contents instead
// when that is not empty (CURRENT).
struct STRATA_EXPORT LiveFileStorageInfo : public FileStorageInfo {
  std::string replacement_contents;
  bool trim_to_size = false;
};

// A table file of a column family.
struct STRATA_EXPORT SstFileMetaData : public FileStorageInfo {
  SstFileMetaData() { file_type = kTableFile; }
  // RocksDB's field-by-field constructor: _file_name with or without a
  // leading '/' (name gets one, relative_filename not); num_entries and
  // num_deletions start at 0.
  SstFileMetaData(const std::string& _file_name, uint64_t _file_number,
                  const std::string& _directory, uint64_t _size, uint64_t _smallest_seqno,
                  uint64_t _largest_seqno, const std::string& _smallestkey,
                  const std::string& _largestkey, uint64_t _num_reads_sampled,
                  bool _being_compacted, Temperature _temperature,
                  uint64_t _oldest_blob_file_number, uint64_t _oldest_ancester_time,
                  uint64_t _file_creation_time, std::string& _file_checksum,
                  std::string& _file_checksum_func_name)
      : smallest_seqno(_smallest_seqno),
        largest_seqno(_largest_seqno),
        smallestkey(_smallestkey),
        largestkey(_largestkey),
        num_reads_sampled(_num_reads_sampled),
        being_compacted(_being_compacted),
        oldest_blob_file_number(_oldest_blob_file_number),
        oldest_ancester_time(_oldest_ancester_time),
        file_creation_time(_file_creation_time) {
    if (!_file_name.empty()) {
      relative_filename = _file_name[0] == '/' ? _file_name.substr(1) : _file_name;
      name = "/" + relative_filename;
    }
    directory = _directory;
    db_path = _directory;
    file_number = _file_number;
    file_type = kTableFile;
    size = _size;
    temperature = _temperature;
    file_checksum = _file_checksum;
    file_checksum_func_name = _file_checksum_func_name;
  }

  uint64_t smallest_seqno = 0;
  uint64_t largest_seqno = 0;
  std::string smallestkey;  // user keys
  std::string largestkey;
  uint64_t num_reads_sampled = 0;
  bool being_compacted = false;
  uint64_t num_entries = 0;
  uint64_t num_deletions = 0;
  uint64_t oldest_blob_file_number = 0;
  uint64_t oldest_ancester_time = 0;
  uint64_t file_creation_time = 0;
  // "/" + relative_filename, and the directory: RocksDB's older names.
  std::string name;
  std::string db_path;
};

// A table file with its family and level.
struct STRATA_EXPORT LiveFileMetaData : SstFileMetaData {
  std::string column_family_name;
  int level = 0;
};

// A blob file of a column family (RocksDB's struct). Strata writes no blob
// files, so it never reports one.
struct STRATA_EXPORT BlobMetaData {
  BlobMetaData() = default;
  // As RocksDB 7.8.3's: the last two arguments land in checksum_method and
  // checksum_value in that order.
  BlobMetaData(uint64_t _file_number, const std::string& _file_name, const std::string& _file_path,
               uint64_t _file_size, uint64_t _total_blob_count, uint64_t _total_blob_bytes,
               uint64_t _garbage_blob_count, uint64_t _garbage_blob_bytes,
               const std::string& _file_checksum, const std::string& _file_checksum_func_name)
      : blob_file_number(_file_number),
        blob_file_name(_file_name),
        blob_file_path(_file_path),
        blob_file_size(_file_size),
        total_blob_count(_total_blob_count),
        total_blob_bytes(_total_blob_bytes),
        garbage_blob_count(_garbage_blob_count),
        garbage_blob_bytes(_garbage_blob_bytes),
        checksum_method(_file_checksum),
        checksum_value(_file_checksum_func_name) {}
  uint64_t blob_file_number = 0;
  std::string blob_file_name;
  std::string blob_file_path;
  uint64_t blob_file_size = 0;
  uint64_t total_blob_count = 0;
  uint64_t total_blob_bytes = 0;
  uint64_t garbage_blob_count = 0;
  uint64_t garbage_blob_bytes = 0;
  std::string checksum_method;
  std::string checksum_value;
};

struct STRATA_EXPORT LevelMetaData {
  LevelMetaData(int l, uint64_t s, std::vector<SstFileMetaData>&& f)
      : level(l), size(s), files(std::move(f)) {}
  // RocksDB's form (the files are copied).
  LevelMetaData(int _level, uint64_t _size, const std::vector<SstFileMetaData>&& _files)
      : level(_level), size(_size), files(_files) {}
  int level;
  uint64_t size;
  std::vector<SstFileMetaData> files;
};

struct STRATA_EXPORT ColumnFamilyMetaData {
  ColumnFamilyMetaData() = default;
  ColumnFamilyMetaData(const std::string& _name, uint64_t _size,
                       const std::vector<LevelMetaData>&& _levels)
      : size(_size), name(_name), levels(_levels) {}

  uint64_t size = 0;  // bytes of every table file
  size_t file_count = 0;
  std::string name;
  std::vector<LevelMetaData> levels;  // one per level, empty ones included
  uint64_t blob_file_size = 0;
  size_t blob_file_count = 0;
  std::vector<BlobMetaData> blob_files;  // always empty
};

// What Checkpoint::ExportColumnFamily writes and
// DB::CreateColumnFamilyWithImport takes.
struct STRATA_EXPORT ExportImportFilesMetaData {
  std::string db_comparator_name;
  std::vector<LiveFileMetaData> files;
};

}  // namespace strata
