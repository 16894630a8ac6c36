// LDBTool: the `strata` command-line tool (RocksDB 7.8.3 ldb's commands,
// flags and output; docs/tools/ldb.md) run from a program, as RocksDB's
// rocksdb/ldb_tool.h runs ldb. The `strata` binary is this call.
//
// db_options are the base options every command opens the database with
// (comparator, merge operator, table options, ...); the command line's
// flags (--create_if_missing, --write_buffer_size, --merge_operator, ...)
// are applied over them, and without a merge operator in either, the
// database gets ldb's StringAppend(':'). ldb_options.key_formatter (if
// set) prints the keys of `scan` unless --key_hex/--hex is given, and
// ldb_options.print_help_header is the first line of the help text.
// column_families is accepted and not used, as in RocksDB 7.8.3 (the
// families are found in the database or its OPTIONS file).
//
// Thread-safety: runs one command line at a time per process (the commands
// print to stdout/stderr).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "strata/db.h"
#include "strata/export.h"
#include "strata/options.h"
#include "strata/slice.h"

namespace strata {

// Turns a key into the text `scan` prints for it.
class STRATA_EXPORT SliceFormatter {
 public:
  virtual ~SliceFormatter() {}
  virtual std::string Format(const Slice& s) const = 0;
};

struct STRATA_EXPORT LDBOptions {
  LDBOptions();
  // Null: keys print as they are (or in hex with --key_hex).
  std::shared_ptr<SliceFormatter> key_formatter;
  std::string print_help_header = "ldb - RocksDB Tool";
};

class STRATA_EXPORT LDBTool {
 public:
  // Runs the command line argv[1..argc-1] and ends the process with its
  // exit status (0 success, 1 failure), as RocksDB's LDBTool::Run does.
  void Run(int argc, char** argv, Options db_options = Options(),
           const LDBOptions& ldb_options = LDBOptions(),
           const std::vector<ColumnFamilyDescriptor>* column_families = nullptr);
};

// The same, returning the exit status instead of ending the process.
STRATA_EXPORT int RunLDBTool(int argc, const char* const* argv,
                             const Options& db_options = Options(),
                             const LDBOptions& ldb_options = LDBOptions());

}  // namespace strata
