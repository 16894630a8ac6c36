// MemoryAllocator: where a block cache gets the memory of the blocks it
// holds. A cache built with an allocator (LRUCacheOptions::memory_allocator,
// HyperClockCacheOptions::memory_allocator) hands it out through
// Cache::memory_allocator(); table readers then allocate the contents of
// every block they read for that cache (data, index and filter blocks, the
// buffer a block is read or uncompressed into) with Allocate and free them
// with Deallocate once the block is dropped -- when the cache evicts or
// erases it, or is destroyed. The object holding a block (its bookkeeping,
// not its bytes) still comes from the C++ heap.
//
// A program supplies an allocator to put cached data in memory of its
// choice (a dedicated arena, huge pages, memory excluded from core dumps) or
// to account for it. Strata has no allocator of its own beyond the default
// (new/delete): NewJemallocNodumpAllocator (rocksdb compat) is not offered.
//
// Thread-safety: implementations must be thread-safe; every method may be
// called concurrently from any thread.
// Invariants (what Strata guarantees an allocator):
//  1. Every pointer Allocate returned is given back to Deallocate exactly
//     once, and only pointers Allocate returned are.
//  2. The allocator is kept alive (through the cache's shared_ptr) while any
//     block allocated from it exists: a block outliving its cache -- pinned
//     by an iterator when the cache is destroyed -- holds a reference too.
#pragma once

#include <cstddef>

#include "strata/export.h"

namespace strata {

class STRATA_EXPORT MemoryAllocator {
 public:
  MemoryAllocator() = default;
  MemoryAllocator(const MemoryAllocator&) = delete;
  MemoryAllocator& operator=(const MemoryAllocator&) = delete;
  virtual ~MemoryAllocator() = default;

  // The allocator's name, for logs and options output.
  virtual const char* Name() const = 0;

  // Returns at least `size` bytes (size may be 0), aligned as malloc's; the
  // memory is uninitialized. Must not return nullptr: an allocator that
  // cannot allocate should throw std::bad_alloc or abort, as operator new.
  virtual void* Allocate(size_t size) = 0;

  // Frees memory returned by Allocate. p is never nullptr.
  virtual void Deallocate(void* p) = 0;

  // How many bytes the allocation at p (asked for with allocation_size)
  // really has; the cache charges a block that many bytes. The default
  // answers allocation_size.
  virtual size_t UsableSize(void* p, size_t allocation_size) const {
    (void)p;
    return allocation_size;
  }
};

}  // namespace strata
