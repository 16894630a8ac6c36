// The `strata` dispatcher: RocksDB 7.8.3 ldb's command line (help,
// --version, command lookup, option checks, "Failed: ..." and exit status).
// Thread-safety: call once per process.
#pragma once

namespace strata::ldb {

// Runs the command line; returns the exit status (0 ok, 1 failure).
int RunLdbTool(int argc, const char* const* argv);

}  // namespace strata::ldb
