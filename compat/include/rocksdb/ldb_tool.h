// rocksdb/ldb_tool.h: RocksDB's ldb run from a program. LDBTool::Run runs
// Strata's `strata` tool (RocksDB 7.8.3 ldb's commands, flags and output;
// docs/tools/ldb.md) through strata::RunLDBTool, with db_options converted
// as DB::Open converts them (a refused option prints "Failed: ..." and
// exits 1) as the base options of every open, and ends the process with
// the command's exit status, as RocksDB's does. SliceFormatter and
// LDBOptions are Strata's types (strata/utilities/ldb_tool.h):
// key_formatter prints scan's keys, print_help_header heads the help.
// column_families is not used, as in RocksDB 7.8.3.
// Thread-safety: one call at a time per process.
#pragma once

#include <string>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/rocksdb_namespace.h"
#include "strata/utilities/ldb_tool.h"

namespace rocksdb {
using SliceFormatter = ::strata::SliceFormatter;
using LDBOptions = ::strata::LDBOptions;

class LDBTool {
 public:
  void Run(int argc, char** argv, Options db_options = Options(),
           const LDBOptions& ldb_options = LDBOptions(),
           const std::vector<ColumnFamilyDescriptor>* column_families = nullptr);
};
}  // namespace rocksdb
