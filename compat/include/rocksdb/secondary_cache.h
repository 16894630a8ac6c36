// rocksdb/secondary_cache.h: RocksDB 7.8.3's interface of a second cache
// tier, below the block cache: the block cache gives it the entries it
// evicts (saved through the entry's Cache::CacheItemHelper) and asks it on a
// miss before reading the file (rebuilding the entry with a
// Cache::CreateCallback).
//
// Declared with RocksDB's signatures so that programs implementing or
// passing a SecondaryCache compile. Strata's block cache has no secondary
// tier, so no cache ever calls one:
//   - LRUCacheOptions::secondary_cache set makes NewLRUCache return nullptr;
//   - NewCompressedSecondaryCache (rocksdb/cache.h) returns nullptr;
//   - SecondaryCache::CreateFromString answers NotSupported naming the id
//     ("" and "nullptr" give a null cache, as in RocksDB).
// A program's own SecondaryCache subclass works as an object; it is only
// never attached to a block cache.
// Thread-safety: as RocksDB's: implementations must be thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/cache.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "rocksdb/statistics.h"
#include "rocksdb/status.h"

namespace rocksdb {

struct ConfigOptions;

// The result of a SecondaryCache::Lookup, possibly still being read.
class SecondaryCacheResultHandle {
 public:
  virtual ~SecondaryCacheResultHandle() = default;
  // Whether the lookup has finished (Value and Size are then meaningful).
  virtual bool IsReady() = 0;
  // Blocks until IsReady().
  virtual void Wait() = 0;
  // The rebuilt object, or nullptr if the lookup failed.
  virtual void* Value() = 0;
  // The object's charge.
  virtual size_t Size() = 0;
};

class SecondaryCache {
 public:
  SecondaryCache() = default;
  virtual ~SecondaryCache() = default;

  static const char* Type() { return "SecondaryCache"; }
  static Status CreateFromString(const ConfigOptions& config_options, const std::string& id,
                                 std::shared_ptr<SecondaryCache>* result);

  // Customizable's naming methods (compat has no customizable.h).
  virtual const char* Name() const = 0;
  virtual std::string GetId() const;

  // Saves value (an object of the primary cache) under key, through the
  // helper's size and save callbacks.
  virtual Status Insert(const Slice& key, void* value, const Cache::CacheItemHelper* helper) = 0;

  // Finds key and rebuilds its object with create_cb; nullptr if absent.
  // With wait, the result is ready on return. advise_erase: the caller will
  // keep the object itself, the tier may drop its copy. is_in_sec_cache
  // says whether the tier still holds it.
  virtual std::unique_ptr<SecondaryCacheResultHandle> Lookup(const Slice& key,
                                                             const Cache::CreateCallback& create_cb,
                                                             bool wait, bool advise_erase,
                                                             bool& is_in_sec_cache) = 0;

  // Whether Lookup's advise_erase is honoured.
  [[nodiscard]] virtual bool SupportForceErase() const = 0;

  virtual void Erase(const Slice& key) = 0;

  // Waits for every handle to be ready.
  virtual void WaitAll(std::vector<SecondaryCacheResultHandle*> handles) = 0;

  virtual std::string GetPrintableOptions() const { return ""; }

  virtual Status SetCapacity(size_t /* capacity */) { return Status::NotSupported(""); }
  virtual Status GetCapacity(size_t& /* capacity */) { return Status::NotSupported(""); }

 protected:
  // Customizable's short name (protected, as there).
  virtual const char* NickName() const { return ""; }
};

}  // namespace rocksdb
