// WriteBufferManager: one memory limit for the memtables of many column
// families and many DBs (RocksDB 7.8.3's class, names and rules).
//
// Every memtable of a DB opened with DBOptions::write_buffer_manager (or
// with db_write_buffer_size, which makes a private one) reserves its memory
// here as it grows, marks it "being freed" when it becomes immutable, and
// frees it when it is destroyed after its flush. The DB asks:
//  - ShouldFlush(): the mutable memtables use more than 7/8 of
//    buffer_size, or all memtables use buffer_size or more while at least
//    half of it is mutable. The writer then switches the memtable of the
//    column family whose mutable memtable is oldest, and it is flushed.
//  - ShouldStall() (only with allow_stall): all memtables use buffer_size
//    or more. Writers of every DB sharing the manager then wait until
//    memtables are freed below it.
// With a cache, the memory is also charged to that cache as pinned 256 KiB
// dummy entries (role CacheEntryRole::kWriteBuffer), so a block cache and
// the memtables share one capacity; the cache evicts blocks to make room.
// buffer_size 0 disables the limit (ShouldFlush and ShouldStall are
// false); the cache charging still works then.
//
// Thread-safety: thread-safe. Share it with shared_ptr across DBs; it must
// outlive every DB using it.
// Invariants:
//  1. mutable_memtable_memory_usage() <= memory_usage() (while enabled).
//  2. With a cache, dummy_entries_in_cache_usage() is memory_usage()
//     rounded up to 256 KiB (it shrinks only once the usage drops below
//     3/4 of it).
#pragma once

#include <atomic>
#include <cstddef>
#include <list>
#include <memory>
#include <mutex>

#include "strata/cache.h"
#include "strata/export.h"

namespace strata {

class CacheReservationManager;

// How a DB waits in a stall of a shared WriteBufferManager (internal: the
// DB implements it). Block waits until Signal.
class StallInterface {
 public:
  virtual ~StallInterface() = default;
  virtual void Block() = 0;
  virtual void Signal() = 0;
};

class STRATA_EXPORT WriteBufferManager final {
 public:
  // buffer_size: the limit in bytes over all memtables using this manager
  // (0: no limit). cache: if not null, memtable memory is charged to it.
  // allow_stall: writers wait while memory_usage() >= buffer_size.
  explicit WriteBufferManager(size_t buffer_size, std::shared_ptr<Cache> cache = {},
                              bool allow_stall = false);
  WriteBufferManager(const WriteBufferManager&) = delete;
  WriteBufferManager& operator=(const WriteBufferManager&) = delete;
  // REQUIRES: no DB uses it any more.
  ~WriteBufferManager();

  bool enabled() const { return buffer_size() > 0; }
  bool cost_to_cache() const { return cache_res_mgr_ != nullptr; }

  // Bytes of all memtables (valid while enabled() or cost_to_cache()).
  size_t memory_usage() const { return memory_used_.load(std::memory_order_relaxed); }
  // Bytes of the memtables not yet marked to be freed (mutable ones).
  size_t mutable_memtable_memory_usage() const {
    return memory_active_.load(std::memory_order_relaxed);
  }
  // Bytes of dummy entries this manager holds in the cache.
  size_t dummy_entries_in_cache_usage() const;
  size_t buffer_size() const { return buffer_size_.load(std::memory_order_relaxed); }

  // Changes the limit; a stall that the new limit ends is ended.
  void SetBufferSize(size_t new_size);
  // Turns stalling on or off (off ends a stall).
  void SetAllowStall(bool new_allow_stall);

  // ---- called by the DB ----

  bool ShouldFlush() const {
    if (!enabled()) return false;
    const size_t mutable_usage = mutable_memtable_memory_usage();
    if (mutable_usage > mutable_limit_.load(std::memory_order_relaxed)) return true;
    // Past the limit, flush more -- unless half of it is already being
    // flushed, when another flush would not help.
    const size_t size = buffer_size();
    return memory_usage() >= size && mutable_usage >= size / 2;
  }
  bool ShouldStall() const {
    if (!allow_stall_.load(std::memory_order_relaxed) || !enabled()) return false;
    return IsStallActive() || IsStallThresholdExceeded();
  }
  bool IsStallActive() const { return stall_active_.load(std::memory_order_relaxed); }
  bool IsStallThresholdExceeded() const { return memory_usage() >= buffer_size(); }

  // A memtable grew by mem bytes.
  void ReserveMem(size_t mem);
  // mem bytes of a memtable will be freed (it became immutable).
  void ScheduleFreeMem(size_t mem);
  // mem bytes of a memtable were freed; may end a stall.
  void FreeMem(size_t mem);

  // Queues the DB's stall (it then Blocks) if the stall is still on;
  // otherwise signals it at once.
  void BeginWriteStall(StallInterface* wbm_stall);
  // Signals every queued DB if memory is back under the limit.
  void MaybeEndWriteStall();
  // Takes the DB out of the queue (at close) and signals it.
  void RemoveDBFromQueue(StallInterface* wbm_stall);

 private:
  void ReserveMemWithCache(size_t mem);
  void FreeMemWithCache(size_t mem);

  std::atomic<size_t> buffer_size_;
  std::atomic<size_t> mutable_limit_;  // 7/8 of buffer_size_
  std::atomic<size_t> memory_used_{0};
  std::atomic<size_t> memory_active_{0};
  // Guarded by cache_res_mgr_mu_.
  std::unique_ptr<CacheReservationManager> cache_res_mgr_;
  mutable std::mutex cache_res_mgr_mu_;

  // Guarded by mu_ (stall_active_ is written under mu_, read without it).
  std::list<StallInterface*> queue_;
  std::mutex mu_;
  std::atomic<bool> allow_stall_;
  std::atomic<bool> stall_active_{false};
};

}  // namespace strata
