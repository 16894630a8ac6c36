// rocksdb/memory_allocator.h: RocksDB 7.8.3's MemoryAllocator over Strata's
// (strata/memory_allocator.h). rocksdb::MemoryAllocator derives from
// strata::MemoryAllocator, so an allocator a program writes (Name, Allocate,
// Deallocate, UsableSize) is what Strata's block cache and table readers
// call: LRUCacheOptions::memory_allocator / NewLRUCache(..., allocator) give
// it to the cache, and the blocks read for that cache are allocated and
// freed through it, as in RocksDB.
//   - CreateFromString: "" and "nullptr" give a null allocator,
//     "DefaultMemoryAllocator" one over malloc/free (as RocksDB's); any
//     other id is NotSupported naming it.
//   - NewJemallocNodumpAllocator: NotSupported (Strata is not built with
//     jemalloc); *memory_allocator is left unchanged.
// Differences: MemoryAllocator is not a Customizable here (compat has no
// customizable.h); Name, NickName and GetId are its own virtuals.
// Cache::memory_allocator() returns the strata::MemoryAllocator base.
// Thread-safety: an allocator's methods must be thread-safe.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/status.h"
#include "strata/memory_allocator.h"

namespace rocksdb {

struct ConfigOptions;

class MemoryAllocator : public ::strata::MemoryAllocator {
 public:
  static const char* Type() { return "MemoryAllocator"; }
  static Status CreateFromString(const ConfigOptions& options, const std::string& value,
                                 std::shared_ptr<MemoryAllocator>* result);

  const char* Name() const override = 0;
  void* Allocate(size_t size) override = 0;
  void Deallocate(void* p) override = 0;
  size_t UsableSize(void* p, size_t allocation_size) const override {
    (void)p;
    return allocation_size;
  }
  // The allocator's name and address: unique among live allocators.
  virtual std::string GetId() const;

 protected:
  // Customizable's short name (protected, as there).
  virtual const char* NickName() const { return ""; }
};

struct JemallocAllocatorOptions {
  static const char* kName() { return "JemallocAllocatorOptions"; }
  bool limit_tcache_size = false;
  size_t tcache_size_lower_bound = 1024;
  size_t tcache_size_upper_bound = 16 * 1024;
};

// NotSupported: Strata has no jemalloc allocator.
extern Status NewJemallocNodumpAllocator(JemallocAllocatorOptions& options,
                                         std::shared_ptr<MemoryAllocator>* memory_allocator);

}  // namespace rocksdb
