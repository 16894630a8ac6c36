// rocksdb/io_status.h: RocksDB's IOStatus (a Status from the file-system
// layer). Strata's file calls return Status, so IOStatus is Status here; a
// program that assigns one to the other compiles unchanged.
#pragma once

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/status.h"

namespace rocksdb {
using IOStatus = Status;
}  // namespace rocksdb
