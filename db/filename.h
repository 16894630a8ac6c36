// File names inside a database directory (docs/format/manifest.md (File names)), the same
// as RocksDB's so either engine finds the other's files:
//
//   CURRENT            name of the live MANIFEST, one trailing '\n'
//   MANIFEST-NNNNNN    VersionEdit log
//   NNNNNN.log         write-ahead log
//   NNNNNN.sst         table (NNNNNN.ldb accepted when reading)
//   NNNNNN.dbtmp       temporary file (CURRENT is replaced through one)
//   OPTIONS-NNNNNN     options file
//   IDENTITY, LOCK, LOG, LOG.old.<micros>
// Numbers are zero-padded to at least 6 digits and parsed as any-length
// decimal. All files share one number space (VersionSet's next file number).
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "strata/env.h"
#include "strata/metadata.h"
#include "strata/options.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

// FileType: strata/metadata.h (RocksDB's enum, public because the live-file
// calls report it).

std::string LogFileName(const std::string& dbname, uint64_t number);
// The directory of a DB's WAL files: DBOptions::wal_dir without a trailing
// '/', or dbname when wal_dir is empty or names dbname itself (RocksDB's
// sanitizing).
std::string WalDirOf(const std::string& dbname, const std::string& wal_dir);
std::string TableFileName(const std::string& dbname, uint64_t number);
// The table file `number` in paths[path_id] (a family's table directories,
// TablePathsOf). REQUIRES: path_id < paths.size().
std::string TableFileName(const std::vector<DbPath>& paths, uint64_t number, uint32_t path_id);

// A family's table directories, as RocksDB 7.8.3 sanitizes them: cf_paths
// when not empty, else db_paths, else the DB's directory with an unlimited
// target size. Path ids in the MANIFEST index this list; flushes,
// ingestion and imports write to its first entry.
std::vector<DbPath> TablePathsOf(const std::string& dbname, const std::vector<DbPath>& db_paths,
                                 const std::vector<DbPath>& cf_paths);
// Whether two directory names are spelled the same but for trailing '/'.
bool SameDirectory(const std::string& a, const std::string& b);
// The most directories a list of table paths may hold (RocksDB's limit:
// its MANIFEST packs a path id into two bits of the file number).
constexpr size_t kMaxTablePaths = 4;
std::string DescriptorFileName(const std::string& dbname, uint64_t number);
std::string CurrentFileName(const std::string& dbname);
std::string LockFileName(const std::string& dbname);
std::string TempFileName(const std::string& dbname, uint64_t number);
std::string InfoLogFileName(const std::string& dbname);
std::string OldInfoLogFileName(const std::string& dbname, uint64_t micros);
std::string IdentityFileName(const std::string& dbname);
std::string OptionsFileName(const std::string& dbname, uint64_t number);
// "NNNNNN" zero-padded to 6 digits.
std::string MakeFileNumber(uint64_t number);

// Parses a file name (not a path). False for names that are not ours.
bool ParseFileName(const std::string& filename, uint64_t* number, FileType* type);

// When wal_dir differs from the DB's directory: drops the WAL names from
// *children (the listing of the DB's directory) and adds those of wal_dir,
// as RocksDB looks for WALs only there. A wal_dir that cannot be listed adds
// nothing.
void TakeWalsFromWalDir(FileSystem* fs, const std::string& dbname, const std::string& wal_dir,
                        std::vector<std::string>* children);

// Points CURRENT at MANIFEST-<descriptor_number>: writes a temp file, syncs
// it (fsync when use_fsync), renames it over CURRENT and syncs the directory.
Status SetCurrentFile(FileSystem* fs, const std::string& dbname, uint64_t descriptor_number,
                      Directory* db_dir, bool use_fsync = false);

}  // namespace strata
