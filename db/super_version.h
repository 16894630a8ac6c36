// SuperVersion: the set of sources a read consults -- the mutable memtable,
// the immutable memtables (newest first) and, once tables exist, the current
// Version -- captured together and reference-counted, so a reader takes one
// reference and reads without the DB mutex while writers switch memtables.
//
// LocalSuperVersionCache keeps, per (thread, DB), one slot that caches a
// referenced SuperVersion, so the common read path takes no lock and touches
// no shared cache line:
//   Acquire:  slot.exchange(kInUse); a cached pointer is used directly; an
//             empty slot (nullptr) is refilled from the DB under its mutex.
//   Release:  CAS the slot kInUse -> sv; if that fails, the slot was scraped
//             by a new SuperVersion's installation meanwhile, and the reader
//             drops its reference itself.
//   Install:  after publishing a new SuperVersion, ResetAll() swaps every
//             slot to nullptr and drops the references that slots held.
// Invariants:
//  1. A slot holds at most one reference: to the SuperVersion it points at.
//  2. A slot marked kInUse is owned by its thread until Release.
//  3. Slots are owned by the cache (freed with the DB); a thread's table maps
//     a never-reused cache instance id to a slot, so a closed DB's slot is
//     never dereferenced again. A cache holds at most one slot per thread
//     (a thread whose table entry was evicted gets its old slot back).
// Thread-safety: SuperVersion refs are atomic; the cache is thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "db/version_set.h"
#include "memtable/memtable.h"
#include "util/mutex.h"

namespace strata {

struct SuperVersion {
  MemTable* mem = nullptr;     // referenced
  std::vector<MemTable*> imm;  // referenced, newest first
  Version* current = nullptr;  // referenced
  uint64_t version_number = 0;

  SuperVersion() = default;
  SuperVersion(const SuperVersion&) = delete;
  SuperVersion& operator=(const SuperVersion&) = delete;

  SuperVersion* Ref() {
    refs_.fetch_add(1, std::memory_order_relaxed);
    return this;
  }
  // Drops a reference; the last one unreferences the memtables and deletes
  // this object.
  void Unref() {
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      mem->Unref();
      for (MemTable* m : imm) m->Unref();
      if (current != nullptr) current->Unref();
      delete this;
    }
  }

 private:
  std::atomic<int> refs_{0};
};

class LocalSuperVersionCache {
 public:
  LocalSuperVersionCache();
  ~LocalSuperVersionCache();  // REQUIRES: no thread is between Acquire and Release
  LocalSuperVersionCache(const LocalSuperVersionCache&) = delete;
  LocalSuperVersionCache& operator=(const LocalSuperVersionCache&) = delete;

  // A referenced SuperVersion from this thread's slot, or nullptr if the slot
  // is empty; in that case the caller gets one from the DB (ref'd) instead.
  // Either way the caller must hand it back with Release (nullptr allowed:
  // leaves the slot empty). Release returns true when the slot had been
  // scraped and sv's reference was dropped instead of cached.
  SuperVersion* Acquire();
  bool Release(SuperVersion* sv);
  // Empties every slot, dropping the references they held.
  void ResetAll();

 private:
  struct Slot {
    std::atomic<SuperVersion*> sv{nullptr};
    std::thread::id owner;  // the thread using the slot
  };
  Slot* ThreadSlot();

  const uint64_t instance_id_;
  Mutex mu_;
  std::vector<std::unique_ptr<Slot>> slots_ GUARDED_BY(mu_);
};

}  // namespace strata
