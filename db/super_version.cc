#include "db/super_version.h"

namespace strata {

namespace {

// Marks a slot whose SuperVersion is being used by its thread.
SuperVersion* const kSVInUse = reinterpret_cast<SuperVersion*>(uintptr_t{1});

std::atomic<uint64_t> next_instance_id{1};

// Per-thread map from cache instance id to slot: a few entries, replaced
// round-robin (an evicted slot stays owned, and scraped, by its cache).
struct ThreadSlots {
  static constexpr int kEntries = 8;
  uint64_t ids[kEntries] = {};
  void* slots[kEntries] = {};
  int next_victim = 0;
};
thread_local ThreadSlots tls_slots;

}  // namespace

LocalSuperVersionCache::LocalSuperVersionCache()
    : instance_id_(next_instance_id.fetch_add(1, std::memory_order_relaxed)) {}

LocalSuperVersionCache::~LocalSuperVersionCache() { ResetAll(); }

LocalSuperVersionCache::Slot* LocalSuperVersionCache::ThreadSlot() {
  ThreadSlots& t = tls_slots;
  for (int i = 0; i < ThreadSlots::kEntries; i++) {
    if (t.ids[i] == instance_id_) return static_cast<Slot*>(t.slots[i]);
  }
  // Not in this thread's table (first use, or evicted by other caches --
  // every column family has one): reuse the slot this thread had here, so
  // slots never grow past one per thread.
  const std::thread::id me = std::this_thread::get_id();
  Slot* raw = nullptr;
  {
    MutexLock l(&mu_);
    for (auto& slot : slots_) {
      if (slot->owner == me) {
        raw = slot.get();
        break;
      }
    }
    if (raw == nullptr) {
      auto slot = std::make_unique<Slot>();
      slot->owner = me;
      raw = slot.get();
      slots_.push_back(std::move(slot));
    }
  }
  const int victim = t.next_victim;
  t.next_victim = (victim + 1) % ThreadSlots::kEntries;
  t.ids[victim] = instance_id_;
  t.slots[victim] = raw;
  return raw;
}

SuperVersion* LocalSuperVersionCache::Acquire() {
  // acquire: pairs with the release in Release/ResetAll so the SuperVersion's
  // contents are visible.
  SuperVersion* sv = ThreadSlot()->sv.exchange(kSVInUse, std::memory_order_acquire);
  return sv;  // nullptr when empty (never kSVInUse: one user per slot)
}

bool LocalSuperVersionCache::Release(SuperVersion* sv) {
  SuperVersion* expected = kSVInUse;
  if (!ThreadSlot()->sv.compare_exchange_strong(expected, sv, std::memory_order_release,
                                                std::memory_order_relaxed)) {
    // Scraped while in use: the slot no longer owns a reference.
    if (sv != nullptr) {
      sv->Unref();
      return true;
    }
  }
  return false;
}

void LocalSuperVersionCache::ResetAll() {
  MutexLock l(&mu_);
  for (auto& slot : slots_) {
    SuperVersion* sv = slot->sv.exchange(nullptr, std::memory_order_acq_rel);
    if (sv != nullptr && sv != kSVInUse) sv->Unref();
  }
}

}  // namespace strata
