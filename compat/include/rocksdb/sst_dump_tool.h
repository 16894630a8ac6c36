// rocksdb/sst_dump_tool.h: RocksDB's sst_dump run from a program.
// SSTDumpTool::Run runs Strata's sst_dump (strata::SSTDumpTool, RocksDB's
// flags --file, --command=scan|check|verify|raw|none, --show_properties,
// --from/--to, --read_num, --output_hex, --input_key_hex,
// --verify_checksum) with options converted (its env reads the files, its
// comparator is tried first) and returns the exit status; a refused option
// prints the Status on stderr and returns 1.
// Thread-safety: one call at a time per process.
#pragma once

#include "rocksdb/options.h"
#include "rocksdb/rocksdb_namespace.h"

namespace rocksdb {
class SSTDumpTool {
 public:
  int Run(int argc, char const* const* argv, Options options = Options());
};
}  // namespace rocksdb
