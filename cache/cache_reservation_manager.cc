// CacheReservationManager (see cache/cache_reservation_manager.h) and the
// role names of strata/cache.h.
#include "cache/cache_reservation_manager.h"

#include <array>
#include <map>
#include <string>

#include "util/coding.h"

namespace strata {

namespace {

// Dummy entries hold no value; nothing to free.
void NoopDeleter(const Slice& /*key*/, void* /*value*/) {}

// Bytes of dummy entries per cache and role (rocksdb.block-cache-entry-stats).
// Touched once per 256 KiB reserved or released, never on a hot path.
struct ChargeRegistry {
  Mutex mu;
  std::map<const Cache*, std::array<size_t, kNumCacheEntryRoles>> bytes GUARDED_BY(mu);

  void Add(const Cache* cache, CacheEntryRole role, size_t n) EXCLUDES(mu) {
    MutexLock l(&mu);
    bytes[cache][static_cast<size_t>(role)] += n;
  }
  void Sub(const Cache* cache, CacheEntryRole role, size_t n) EXCLUDES(mu) {
    MutexLock l(&mu);
    auto it = bytes.find(cache);
    if (it == bytes.end()) return;
    it->second[static_cast<size_t>(role)] -= n;
    for (size_t b : it->second) {
      if (b != 0) return;
    }
    bytes.erase(it);  // a freed cache's address may be reused
  }
};

ChargeRegistry& Registry() {
  static ChargeRegistry* registry = new ChargeRegistry();  // never destroyed
  return *registry;
}

}  // namespace

const std::string& GetCacheEntryRoleName(CacheEntryRole role) {
  static const std::array<std::string, kNumCacheEntryRoles> kNames = {
      "data-block",          "filter-block",
      "filter-meta-block",   "deprecated-filter-block",
      "index-block",         "other-block",
      "write-buffer",        "compression-dictionary-building-buffer",
      "filter-construction", "block-based-table-reader",
      "file-metadata",       "blob-value",
      "blob-cache",          "misc",
  };
  const size_t i = static_cast<size_t>(role);
  return kNames[i < kNumCacheEntryRoles ? i : kNumCacheEntryRoles - 1];
}

bool RoleCharged(const CacheUsageOptions& c, CacheEntryRole role) {
  using Decision = CacheEntryRoleOptions::Decision;
  Decision d = Decision::kFallback;
  auto it = c.options_overrides.find(role);
  if (it != c.options_overrides.end()) d = it->second.charged;
  if (d == Decision::kFallback) d = c.options.charged;
  if (d == Decision::kFallback) return role == CacheEntryRole::kCompressionDictionaryBuildingBuffer;
  return d == Decision::kEnabled;
}

CacheReservationManager::CacheReservationManager(std::shared_ptr<Cache> cache, CacheEntryRole role,
                                                 bool delayed_decrease)
    : cache_(std::move(cache)),
      role_(role),
      delayed_decrease_(delayed_decrease),
      key_prefix_(cache_->NewId()) {}

CacheReservationManager::~CacheReservationManager() { Decrease(0); }

size_t CacheReservationManager::ChargedBytes(const Cache* cache, CacheEntryRole role) {
  ChargeRegistry& r = Registry();
  MutexLock l(&r.mu);
  auto it = r.bytes.find(cache);
  return it == r.bytes.end() ? 0 : it->second[static_cast<size_t>(role)];
}

Status CacheReservationManager::UpdateCacheReservation(size_t new_mem_used) {
  memory_used_ = new_mem_used;
  if (new_mem_used > reserved_) return Increase(new_mem_used);
  // Delayed decrease keeps the entries while the usage stays at or above
  // 3/4 of the reservation.
  if (delayed_decrease_ && new_mem_used >= reserved_ / 4 * 3) return Status::OK();
  Decrease(new_mem_used);
  return Status::OK();
}

Status CacheReservationManager::Increase(size_t new_mem_used) {
  size_t added = 0;
  Status s;
  while (new_mem_used > reserved_) {
    char key[16];
    EncodeFixed64(key, key_prefix_);
    EncodeFixed64(key + 8, next_key_++);
    Cache::Handle* handle = nullptr;
    s = cache_->Insert(Slice(key, sizeof(key)), nullptr, kSizeDummyEntry, &NoopDeleter, &handle);
    if (!s.ok() || handle == nullptr) {
      s = Status::MemoryLimit("cache is full: cannot charge " + GetCacheEntryRoleName(role_) +
                              " memory to it");
      break;
    }
    handles_.push_back(handle);
    reserved_ += kSizeDummyEntry;
    added += kSizeDummyEntry;
  }
  if (added > 0) Registry().Add(cache_.get(), role_, added);
  return s;
}

void CacheReservationManager::Decrease(size_t new_mem_used) {
  // Down to the smallest multiple of kSizeDummyEntry covering new_mem_used.
  size_t removed = 0;
  while (new_mem_used + kSizeDummyEntry <= reserved_) {
    cache_->Release(handles_.back(), /*erase_if_last_ref=*/true);
    handles_.pop_back();
    reserved_ -= kSizeDummyEntry;
    removed += kSizeDummyEntry;
  }
  if (removed > 0) Registry().Sub(cache_.get(), role_, removed);
}

// ---- ConcurrentCacheReservationManager ----

ConcurrentCacheReservationManager::Handle::~Handle() { mgr_->Release(bytes_); }

Status ConcurrentCacheReservationManager::MakeCacheReservation(size_t bytes,
                                                               std::unique_ptr<Handle>* handle) {
  Status s;
  {
    MutexLock l(&mu_);
    s = mgr_.UpdateCacheReservation(mgr_.GetTotalMemoryUsed() + bytes);
  }
  *handle = std::make_unique<Handle>(bytes, shared_from_this());
  return s;
}

void ConcurrentCacheReservationManager::Release(size_t bytes) {
  MutexLock l(&mu_);
  mgr_.UpdateCacheReservation(mgr_.GetTotalMemoryUsed() - bytes).PermitUncheckedError();
}

size_t ConcurrentCacheReservationManager::GetTotalReservedCacheSize() {
  MutexLock l(&mu_);
  return mgr_.GetTotalReservedCacheSize();
}

size_t ConcurrentCacheReservationManager::GetTotalMemoryUsed() {
  MutexLock l(&mu_);
  return mgr_.GetTotalMemoryUsed();
}

}  // namespace strata
