// rocksdb/db_dump_tool.h: DbDumpTool writes every key and value of a
// database to a dump file; DbUndumpTool loads one into a database. The
// dump file is RocksDB 7.8.3's, byte for byte:
//   "ROCKDUMP" (8 bytes) | version 0,0,0,0,0,0,0,1 (8 bytes)
//   | fixed32 LE info size | info (JSON text: "{}" when anonymous, else the
//     database's absolute path, the host name and the time)
//   | per entry, in key order: fixed32 key size | key | fixed32 value size
//     | value
// Both report failures as text on stderr and return false.
// Thread-safety: one call per database at a time.
#pragma once

#include <string>

#include "rocksdb/db.h"

namespace rocksdb {

struct DumpOptions {
  // The database to dump (opened read-only).
  std::string db_path;
  // The dump file to write (through Env::Default()).
  std::string dump_location;
  // Leave the path, host and time out of the header.
  bool anonymous = false;
};

class DbDumpTool {
 public:
  bool Run(const DumpOptions& dump_options, rocksdb::Options options = rocksdb::Options());
};

struct UndumpOptions {
  // The database to load into (created if missing).
  std::string db_path;
  // The dump file to read.
  std::string dump_location;
  // Compact the whole database once loaded.
  bool compact_db = false;
};

class DbUndumpTool {
 public:
  bool Run(const UndumpOptions& undump_options, rocksdb::Options options = rocksdb::Options());
};

}  // namespace rocksdb
