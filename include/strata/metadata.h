// Metadata of live files: what DB::GetLiveFilesMetaData,
// DB::GetColumnFamilyMetaData and DB::GetLiveFilesStorageInfo report, and
// what ExportColumnFamily hands to CreateColumnFamilyWithImport. The field
// names are RocksDB's (rocksdb/metadata.h), so tools and bindings written
// for RocksDB read them unchanged.
//
// Thread-safety: plain data.
#pragma once

#include <cstdint>
#include <string>
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

struct STRATA_EXPORT LevelMetaData {
  LevelMetaData(int l, uint64_t s, std::vector<SstFileMetaData>&& f)
      : level(l), size(s), files(std::move(f)) {}
  int level;
  uint64_t size;
  std::vector<SstFileMetaData> files;
};

struct STRATA_EXPORT ColumnFamilyMetaData {
  uint64_t size = 0;  // bytes of every table file
  size_t file_count = 0;
  std::string name;
  std::vector<LevelMetaData> levels;  // one per level, empty ones included
  uint64_t blob_file_size = 0;
  size_t blob_file_count = 0;
};

// What Checkpoint::ExportColumnFamily writes and
// DB::CreateColumnFamilyWithImport takes.
struct STRATA_EXPORT ExportImportFilesMetaData {
  std::string db_comparator_name;
  std::vector<LiveFileMetaData> files;
};

}  // namespace strata
