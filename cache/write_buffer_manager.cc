// WriteBufferManager (see strata/write_buffer_manager.h). It lives in the
// cache layer because its one dependency is the cache reservation; the
// memtables and the DB call it through the public header.
//
// The counters are statistics read by the write path's decisions: relaxed
// order everywhere, as a decision on a slightly stale value only moves a
// flush or a stall by one write group. The stall queue is under mu_.
#include "strata/write_buffer_manager.h"

#include "cache/cache_reservation_manager.h"

namespace strata {

WriteBufferManager::WriteBufferManager(size_t buffer_size, std::shared_ptr<Cache> cache,
                                       bool allow_stall)
    : buffer_size_(buffer_size), mutable_limit_(buffer_size * 7 / 8), allow_stall_(allow_stall) {
  if (cache != nullptr) {
    // Memtable usage rises and falls often: delayed decrease saves dummy
    // inserts right after a release.
    cache_res_mgr_ = std::make_unique<CacheReservationManager>(
        std::move(cache), CacheEntryRole::kWriteBuffer, /*delayed_decrease=*/true);
  }
}

WriteBufferManager::~WriteBufferManager() = default;

size_t WriteBufferManager::dummy_entries_in_cache_usage() const {
  if (cache_res_mgr_ == nullptr) return 0;
  std::lock_guard<std::mutex> l(cache_res_mgr_mu_);
  return cache_res_mgr_->GetTotalReservedCacheSize();
}

void WriteBufferManager::SetBufferSize(size_t new_size) {
  buffer_size_.store(new_size, std::memory_order_relaxed);
  mutable_limit_.store(new_size * 7 / 8, std::memory_order_relaxed);
  MaybeEndWriteStall();
}

void WriteBufferManager::SetAllowStall(bool new_allow_stall) {
  allow_stall_.store(new_allow_stall, std::memory_order_relaxed);
  if (!new_allow_stall) {
    // Nothing may stay blocked on a stall that is no longer allowed.
    std::list<StallInterface*> cleanup;
    {
      std::lock_guard<std::mutex> l(mu_);
      stall_active_.store(false, std::memory_order_relaxed);
      cleanup = std::move(queue_);
      queue_.clear();
    }
    for (StallInterface* s : cleanup) s->Signal();
  } else {
    MaybeEndWriteStall();
  }
}

void WriteBufferManager::ReserveMem(size_t mem) {
  if (cache_res_mgr_ != nullptr) {
    ReserveMemWithCache(mem);
  } else if (enabled()) {
    memory_used_.fetch_add(mem, std::memory_order_relaxed);
  }
  if (enabled()) memory_active_.fetch_add(mem, std::memory_order_relaxed);
}

void WriteBufferManager::ReserveMemWithCache(size_t mem) {
  std::lock_guard<std::mutex> l(cache_res_mgr_mu_);
  const size_t used = memory_used_.load(std::memory_order_relaxed) + mem;
  memory_used_.store(used, std::memory_order_relaxed);
  // A full cache with a strict limit keeps what fits; the memtable memory
  // is used regardless (RocksDB also absorbs this failure).
  cache_res_mgr_->UpdateCacheReservation(used).PermitUncheckedError();
}

void WriteBufferManager::ScheduleFreeMem(size_t mem) {
  if (enabled()) memory_active_.fetch_sub(mem, std::memory_order_relaxed);
}

void WriteBufferManager::FreeMem(size_t mem) {
  if (cache_res_mgr_ != nullptr) {
    FreeMemWithCache(mem);
  } else if (enabled()) {
    memory_used_.fetch_sub(mem, std::memory_order_relaxed);
  }
  MaybeEndWriteStall();
}

void WriteBufferManager::FreeMemWithCache(size_t mem) {
  std::lock_guard<std::mutex> l(cache_res_mgr_mu_);
  const size_t used = memory_used_.load(std::memory_order_relaxed) - mem;
  memory_used_.store(used, std::memory_order_relaxed);
  cache_res_mgr_->UpdateCacheReservation(used).PermitUncheckedError();
}

void WriteBufferManager::BeginWriteStall(StallInterface* wbm_stall) {
  bool queued = false;
  {
    std::lock_guard<std::mutex> l(mu_);
    // The condition is checked again under the lock: a FreeMem between the
    // writer's check and here must not leave it blocked.
    if (ShouldStall()) {
      stall_active_.store(true, std::memory_order_relaxed);
      queue_.push_back(wbm_stall);
      queued = true;
    }
  }
  if (!queued) wbm_stall->Signal();
}

void WriteBufferManager::MaybeEndWriteStall() {
  // Not returning early on !enabled(): SetBufferSize(0) must unblock.
  if (!allow_stall_.load(std::memory_order_relaxed)) return;
  if (enabled() && IsStallThresholdExceeded()) return;
  std::list<StallInterface*> woken;
  {
    std::lock_guard<std::mutex> l(mu_);
    if (!stall_active_.load(std::memory_order_relaxed)) return;
    stall_active_.store(false, std::memory_order_relaxed);
    woken = std::move(queue_);
    queue_.clear();
  }
  for (StallInterface* s : woken) s->Signal();
}

void WriteBufferManager::RemoveDBFromQueue(StallInterface* wbm_stall) {
  {
    std::lock_guard<std::mutex> l(mu_);
    queue_.remove(wbm_stall);
  }
  wbm_stall->Signal();
}

}  // namespace strata
