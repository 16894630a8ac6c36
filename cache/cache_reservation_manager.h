// CacheReservationManager: charges memory that lives outside a cache to
// that cache, as pinned dummy entries of one CacheEntryRole, so that the
// cache's capacity bounds it together with the cached blocks (the cache
// evicts unpinned blocks to make room for a reservation).
//
// A reservation is kept as a whole number of kSizeDummyEntry-byte entries:
// UpdateCacheReservation(n) leaves ceil(n / kSizeDummyEntry) entries in the
// cache (with delayed_decrease, a smaller n releases entries only once it is
// below 3/4 of what is reserved, so a usage that rises and falls around a
// boundary does not insert and erase entries over and over).
// Per-cache, per-role totals of the reserved bytes are kept for the
// rocksdb.block-cache-entry-stats property (ChargedBytes).
//
// Thread-safety: CacheReservationManager is not thread-safe (its caller
// serializes: WriteBufferManager under its own mutex);
// ConcurrentCacheReservationManager is thread-safe, and its handles may be
// released from any thread.
// Invariants:
//  1. GetTotalReservedCacheSize() == kSizeDummyEntry * (entries held), and
//     >= GetTotalMemoryUsed() after a successful update.
//  2. Every dummy entry is pinned by a handle held here until released (so
//     the cache never evicts it); the destructor releases them all.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "strata/cache.h"
#include "strata/status.h"
#include "strata/table.h"
#include "util/mutex.h"

namespace strata {

// Whether cache_usage_options charges role: an override's decision, then
// the blanket `options`, then the role's default (RocksDB 7.8.3's:
// kCompressionDictionaryBuildingBuffer charged, the others not).
bool RoleCharged(const CacheUsageOptions& c, CacheEntryRole role);

class CacheReservationManager {
 public:
  // RocksDB's dummy entry size.
  static constexpr size_t kSizeDummyEntry = 256 * 1024;

  CacheReservationManager(std::shared_ptr<Cache> cache, CacheEntryRole role,
                          bool delayed_decrease = false);
  ~CacheReservationManager();
  CacheReservationManager(const CacheReservationManager&) = delete;
  CacheReservationManager& operator=(const CacheReservationManager&) = delete;

  // Makes the reservation cover new_mem_used bytes. On a full cache with a
  // strict capacity limit the entries that fit stay and the result is
  // MemoryLimit (the memory used is recorded either way).
  Status UpdateCacheReservation(size_t new_mem_used);
  size_t GetTotalReservedCacheSize() const { return reserved_; }
  size_t GetTotalMemoryUsed() const { return memory_used_; }
  Cache* cache() const { return cache_.get(); }

  // Bytes of dummy entries of `role` held in `cache` by every manager.
  static size_t ChargedBytes(const Cache* cache, CacheEntryRole role);

 private:
  Status Increase(size_t new_mem_used);
  void Decrease(size_t new_mem_used);

  const std::shared_ptr<Cache> cache_;
  const CacheEntryRole role_;
  const bool delayed_decrease_;
  const uint64_t key_prefix_;  // cache_->NewId(): keys no other client uses
  uint64_t next_key_ = 0;
  std::vector<Cache::Handle*> handles_;
  size_t reserved_ = 0;
  size_t memory_used_ = 0;
};

// A thread-safe manager shared by many holders of small reservations (table
// readers): each holder's bytes add to one total, so small reservations do
// not each round up to a dummy entry.
class ConcurrentCacheReservationManager
    : public std::enable_shared_from_this<ConcurrentCacheReservationManager> {
 public:
  // Gives its bytes back when destroyed.
  class Handle {
   public:
    Handle(size_t bytes, std::shared_ptr<ConcurrentCacheReservationManager> mgr)
        : bytes_(bytes), mgr_(std::move(mgr)) {}
    ~Handle();
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    size_t bytes() const { return bytes_; }

   private:
    const size_t bytes_;
    const std::shared_ptr<ConcurrentCacheReservationManager> mgr_;
  };

  ConcurrentCacheReservationManager(std::shared_ptr<Cache> cache, CacheEntryRole role)
      : mgr_(std::move(cache), role, /*delayed_decrease=*/false) {}

  // Adds bytes to the total and sets *handle (even on failure: then the
  // bytes are recorded as used and the result is MemoryLimit).
  Status MakeCacheReservation(size_t bytes, std::unique_ptr<Handle>* handle) EXCLUDES(mu_);
  size_t GetTotalReservedCacheSize() EXCLUDES(mu_);
  size_t GetTotalMemoryUsed() EXCLUDES(mu_);

 private:
  void Release(size_t bytes) EXCLUDES(mu_);

  Mutex mu_;
  CacheReservationManager mgr_ GUARDED_BY(mu_);
};

}  // namespace strata
