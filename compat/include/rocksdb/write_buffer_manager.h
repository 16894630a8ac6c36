// rocksdb/write_buffer_manager.h: one memtable memory limit shared by
// column families and DBs (Options::write_buffer_manager), optionally
// charged to a block cache. Strata's class has RocksDB's constructor
// (buffer_size, cache, allow_stall) and is the same type here.
#pragma once

#include "rocksdb/cache.h"
#include "rocksdb/rocksdb_namespace.h"
#include "strata/write_buffer_manager.h"

namespace rocksdb {
using WriteBufferManager = ::strata::WriteBufferManager;

class CacheReservationManager;  // RocksDB-internal; named only

// RocksDB's interface a writer blocked by a full WriteBufferManager (with
// allow_stall) waits through. Strata's manager stalls writers itself and
// takes no StallInterface: the class exists for source compatibility.
class StallInterface {
 public:
  virtual ~StallInterface() {}
  virtual void Block() = 0;
  virtual void Signal() = 0;
};
}  // namespace rocksdb
