// SSTDumpTool: the `sst_dump` tool (RocksDB's sst_dump flags: --file,
// --command=scan|check|verify|raw|none, --show_properties, --from/--to,
// --read_num, --output_hex, --input_key_hex, --verify_checksum) run from a
// program, as RocksDB's rocksdb/sst_dump_tool.h runs sst_dump. The
// `sst_dump` binary is this call.
//
// options: options.env's file system reads the files, and a
// options.comparator other than the bytewise one is tried first when a
// table is opened (then bytewise, then reverse bytewise, as without it).
//
// Thread-safety: one call at a time per process (prints to stdout/stderr).
#pragma once

#include "strata/export.h"
#include "strata/options.h"

namespace strata {

class STRATA_EXPORT SSTDumpTool {
 public:
  // Returns the exit status: 0 ok, 1 a file failed, 2 a bad command line.
  int Run(int argc, char const* const* argv, Options options = Options());
};

}  // namespace strata
