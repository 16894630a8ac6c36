// The OPTIONS-NNNNNN file: the options a database was last opened with, in
// RocksDB's INI-like format (docs/format/options.md), written at every open so
// RocksDB's tools (ldb, sst_dump) and a RocksDB user see the same settings.
//
//   [Version]      rocksdb_version, options_file_version=1.1
//   [DBOptions]    name=value lines
//   [CFOptions "default"]
//   [TableOptions/BlockBasedTable "default"]
//   ... the same two sections for every other column family
//
// Only options Strata has, under RocksDB's names and value spellings, are
// written; RocksDB takes its defaults for the rest.
// Thread-safety: stateless functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "strata/env.h"
#include "strata/options.h"
#include "strata/table.h"

namespace strata {

// One column family's sections of the file.
struct OptionsFileFamily {
  std::string name;
  const Options* options;  // the first family's also gives the DB options
  const BlockBasedTableOptions* table;
};

// The file's text: families "default" first (RocksDB requires it).
std::string OptionsFileContents(const std::vector<OptionsFileFamily>& families);
// A database with only the default family.
std::string OptionsFileContents(const Options& options, const BlockBasedTableOptions& table);

// Writes OPTIONS-<number> through a temporary file and a rename (synced),
// then deletes older OPTIONS files.
Status WriteOptionsFile(FileSystem* fs, const std::string& dbname, uint64_t number,
                        const std::vector<OptionsFileFamily>& families, Directory* db_dir,
                        bool delete_older = true);
Status WriteOptionsFile(FileSystem* fs, const std::string& dbname, uint64_t number,
                        const Options& options, const BlockBasedTableOptions& table,
                        Directory* db_dir);

}  // namespace strata
