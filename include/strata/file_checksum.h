// Full-file checksums of table files: a checksum of every byte of a table
// file, computed while the DB writes it and recorded in the MANIFEST with
// the name of the function that made it (RocksDB 7.8.3's rocksdb/
// file_checksum.h, same names and meanings; the MANIFEST fields are
// RocksDB's, docs/format/manifest.md).
//
// With DBOptions::file_checksum_gen_factory set, each table file written
// by a flush, a compaction or WAL recovery gets a generator from the
// factory (context: the file's name, no requested function) fed with the
// file's bytes as they are appended; an ingested file is read once after
// it is in place. As in RocksDB 7.8.3, imported files and the tables of a
// repaired DB (RepairDB rebuilds every entry from a scan) record none.
// A factory that returns no
// generator leaves the file without a checksum ("" and "Unknown"), as does
// a DB opened without a factory. DB::GetLiveFilesChecksumInfo lists the
// recorded checksums; DB::VerifyFileChecksums reads every live table file
// and compares.
//
// GetFileChecksumGenCrc32cFactory() gives RocksDB's standard function,
// "FileChecksumCrc32c": the CRC-32C (Castagnoli, not masked) of the whole
// file, as 4 bytes, most significant first. A checksum recorded by RocksDB
// under that name reads the same here, and the reverse.
//
// Thread-safety: a FileChecksumGenFactory is called from several threads
// at once (one generator per file); a generator and a FileChecksumList are
// not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "strata/export.h"
#include "strata/status.h"

namespace strata {

struct ConfigOptions;  // strata/convenience.h

// What a file without a checksum records.
constexpr char kUnknownFileChecksum[] = "";
constexpr char kUnknownFileChecksumFuncName[] = "Unknown";
// The name of GetFileChecksumGenCrc32cFactory()'s function.
constexpr char kStandardDbFileChecksumFuncName[] = "FileChecksumCrc32c";

struct STRATA_EXPORT FileChecksumGenContext {
  std::string file_name;
  // Empty: the factory's own function; else the function a checksum to be
  // checked was made with (the factory returns null when it has none).
  std::string requested_checksum_func_name;
};

// One file's checksum in the making: Update with its bytes in order, then
// Finalize once; GetChecksum is valid after Finalize.
class STRATA_EXPORT FileChecksumGenerator {
 public:
  virtual ~FileChecksumGenerator() = default;
  virtual void Update(const char* data, size_t n) = 0;
  virtual void Finalize() = 0;
  virtual std::string GetChecksum() const = 0;
  // The function's name, recorded beside each checksum.
  virtual const char* Name() const = 0;
};

class STRATA_EXPORT FileChecksumGenFactory {
 public:
  virtual ~FileChecksumGenFactory() = default;
  static const char* Type() { return "FileChecksumGenFactory"; }
  // A factory by id (RocksDB's Customizable loader): "" and "nullptr" give
  // null, "FileChecksumGenCrc32cFactory" GetFileChecksumGenCrc32cFactory();
  // another id is unknown: OK with *result unchanged when
  // options.ignore_unsupported_options (as RocksDB's loader), else
  // NotSupported naming it.
  static Status CreateFromString(const ConfigOptions& options, const std::string& value,
                                 std::shared_ptr<FileChecksumGenFactory>* result);
  // A new generator for one file (the caller owns it), or null when the
  // factory has no function of context.requested_checksum_func_name.
  virtual std::unique_ptr<FileChecksumGenerator> CreateFileChecksumGenerator(
      const FileChecksumGenContext& context) = 0;
  virtual const char* Name() const = 0;
};

// A map file number -> (checksum, function name).
class STRATA_EXPORT FileChecksumList {
 public:
  virtual ~FileChecksumList() = default;
  // Empties the list.
  virtual void reset() = 0;
  virtual size_t size() const = 0;
  // Appends every entry to the three vectors, in file number order.
  // InvalidArgument when one is null.
  virtual Status GetAllFileChecksums(std::vector<uint64_t>* file_numbers,
                                     std::vector<std::string>* checksums,
                                     std::vector<std::string>* checksum_func_names) = 0;
  // NotFound when file_number is not listed; InvalidArgument on a null
  // output.
  virtual Status SearchOneFileChecksum(uint64_t file_number, std::string* checksum,
                                       std::string* checksum_func_name) = 0;
  // Adds an entry or replaces the one of that number.
  virtual Status InsertOneFileChecksum(uint64_t file_number, const std::string& checksum,
                                       const std::string& checksum_func_name) = 0;
  // NotFound when file_number is not listed.
  virtual Status RemoveOneFileChecksum(uint64_t file_number) = 0;
};

// An empty list (the caller owns it).
STRATA_EXPORT std::unique_ptr<FileChecksumList> NewFileChecksumList();

// The crc32c factory (one shared instance), RocksDB's
// FileChecksumGenCrc32cFactory: Name() "FileChecksumGenCrc32cFactory",
// generators named "FileChecksumCrc32c".
STRATA_EXPORT std::shared_ptr<FileChecksumGenFactory> GetFileChecksumGenCrc32cFactory();

}  // namespace strata
