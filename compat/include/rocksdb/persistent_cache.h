// rocksdb/persistent_cache.h: RocksDB 7.8.3's persistent (file-backed)
// block cache tier, BlockBasedTableOptions::persistent_cache.
//
// Declared with RocksDB's signatures. Strata has no persistent cache tier:
// NewPersistentCache answers `Not implemented: NewPersistentCache is not
// supported by Strata` (leaving *cache unchanged), and a persistent_cache
// set in BlockBasedTableOptions -- a program's own subclass included -- is
// refused at Open (InvalidArgument naming the field).
// Thread-safety: as RocksDB's: implementations must be thread-safe.
#pragma once

#include <stdint.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/env.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "rocksdb/statistics.h"
#include "rocksdb/status.h"

namespace rocksdb {

class PersistentCache {
 public:
  using StatsType = std::vector<std::map<std::string, double>>;

  virtual ~PersistentCache() {}

  // Stores size bytes of data under key.
  virtual Status Insert(const Slice& key, const char* data, const size_t size) = 0;
  // Reads key's bytes into a new buffer (*data, *size); NotFound if absent.
  virtual Status Lookup(const Slice& key, std::unique_ptr<char[]>* data, size_t* size) = 0;
  // Whether it stores blocks as read from the file (compressed) or
  // uncompressed.
  virtual bool IsCompressed() = 0;
  // Per-tier counters.
  virtual StatsType Stats() = 0;
  virtual std::string GetPrintableOptions() const = 0;
  // An id unique within the cache, for key prefixes.
  virtual uint64_t NewId() = 0;
};

// NotSupported (see the top of this file).
Status NewPersistentCache(Env* const env, const std::string& path, const uint64_t size,
                          const std::shared_ptr<Logger>& log, const bool optimized_for_nvm,
                          std::shared_ptr<PersistentCache>* cache);

}  // namespace rocksdb
