// rocksdb/version.h: the RocksDB release whose interface this layer
// reproduces (7.8.3). The engine underneath is Strata; its own version is
// strata::kVersion... in the native API, not here.
#pragma once

#include <string>
#include <unordered_map>

#include "rocksdb/rocksdb_namespace.h"

#define ROCKSDB_MAJOR 7
#define ROCKSDB_MINOR 8
#define ROCKSDB_PATCH 3

#define __ROCKSDB_MAJOR__ ROCKSDB_MAJOR
#define __ROCKSDB_MINOR__ ROCKSDB_MINOR
#define __ROCKSDB_PATCH__ ROCKSDB_PATCH

#define ROCKSDB_MAKE_VERSION_INT(x, y, z) ((x)*10000 + (y)*100 + (z))
#define ROCKSDB_VERSION_GE(x, y, z)                                         \
  (ROCKSDB_MAKE_VERSION_INT(ROCKSDB_MAJOR, ROCKSDB_MINOR, ROCKSDB_PATCH) >= \
   ROCKSDB_MAKE_VERSION_INT(x, y, z))

namespace rocksdb {
// The build's properties (RocksDB: its git sha, tag and build date, each
// only when known). This layer is no RocksDB build, so none of RocksDB's
// apply: the map is empty.
const std::unordered_map<std::string, std::string>& GetRocksBuildProperties();
// "7.8.3" (or "7.8" without the patch number).
std::string GetRocksVersionAsString(bool with_patch = true);
// A one-line description of the build: the RocksDB interface version and the
// engine that implements it.
std::string GetRocksBuildInfoAsString(const std::string& program, bool verbose = false);
}  // namespace rocksdb
