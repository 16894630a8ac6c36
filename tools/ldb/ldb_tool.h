// The `strata` dispatcher: RocksDB 7.8.3 ldb's command line (help,
// --version, command lookup, option checks, "Failed: ..." and exit status).
// The public entry points (strata/utilities/ldb_tool.h: LDBTool,
// RunLDBTool) call it; so does the `strata` binary.
// Thread-safety: one command line at a time per process.
#pragma once

#include "strata/options.h"
#include "strata/utilities/ldb_tool.h"

namespace strata::ldb {

// Runs the command line; returns the exit status (0 ok, 1 failure).
// db_options: every open's base options; ldb_options: the help header and
// scan's key formatter.
int RunLdbTool(int argc, const char* const* argv, const Options& db_options = Options(),
               const LDBOptions& ldb_options = LDBOptions());

}  // namespace strata::ldb
