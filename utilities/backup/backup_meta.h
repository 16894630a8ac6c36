// The backup meta file: the text file <backup_dir>/meta/<id> that makes a
// backup exist and lists its files, in RocksDB 7.8.3's format (what its
// BackupEngine writes by default and reads), so either side reads the
// other's backups.
//
// Schema 1 (the default, and what RocksDB writes unless told otherwise):
//
//   <timestamp>                       Unix seconds, decimal
//   <sequence number>                 decimal: the DB's last sequence
//   metadata <hex>                    optional: app metadata, upper-case hex
//   <number of files>                 decimal
//   <relative path> crc32 <crc32c>    one line per file; the checksum is the
//   ...                               unmasked crc32c of the whole file as an
//                                     unsigned decimal ("crc32" is a misnomer
//                                     kept for compatibility)
//
// Schema 2 adds a first line "schema_version 2[.x]", lets the header and
// each file line carry further "<field> <value>" pairs ("size <bytes>" and
// "temp <name>" per file are known; others are ignored unless their name
// starts with "ni::", which makes the file unreadable: NotSupported), and
// an optional "// FOOTER" line followed by footer fields.
//
// Every line ends with '\n'. A file whose last line lacks it is still
// read (RocksDB reads it that way). Paths are relative to backup_dir:
// "private/<id>/<name>", "shared/<name>" or "shared_checksum/<name>".
//
// Thread-safety: plain data and pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "strata/slice.h"
#include "strata/status.h"

namespace strata::backup {

struct BackupMetaFileEntry {
  std::string path;  // relative to backup_dir
  bool has_checksum = false;
  uint32_t crc32c = 0;
  bool has_size = false;  // schema 2 "size" field
  uint64_t size = 0;
};

struct BackupMetaContents {
  int64_t timestamp = 0;
  uint64_t sequence_number = 0;
  std::string app_metadata;  // raw bytes (hex in the file)
  std::vector<BackupMetaFileEntry> files;
};

// The text of a meta file in schema 1 or 2. With schema 2 each file line
// also carries "size <bytes>" when write_sizes.
std::string EncodeBackupMeta(const BackupMetaContents& meta, int schema_version,
                             bool write_sizes = false);

// Parses a meta file's text; `name` (the file's path) goes into every error.
// Corruption for a malformed file (naming the line), NotSupported for a
// schema or non-ignorable field this reader does not know.
Status DecodeBackupMeta(const Slice& text, const std::string& name, BackupMetaContents* meta);

// The DB file name a backup file restores to: "private/3/MANIFEST-000010"
// -> "MANIFEST-000010"; "shared_checksum/000008_s<sid>_1548497.sst" ->
// "000008.sst" (everything from the first '_' to the last '.' removed);
// "shared/000008.sst" -> "000008.sst".
std::string DbFileNameOfBackupFile(const std::string& path);

}  // namespace strata::backup
