#include "memtable/point_index.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <new>

#define XXH_INLINE_ALL  // the hash is on every memtable insert: inline it
#include <xxhash.h>

#include "util/coding.h"

namespace strata {

PointIndex::PointIndex(size_t expected_entries) {
  // About four keys per bucket of eight slots (16 bytes a key): with a
  // Poisson spread, about 0.3% of the keys find their bucket full.
  const size_t n = std::max<size_t>(64, expected_entries / 4 + 1);
  num_buckets_ = n;
  bytes_ = n * sizeof(Bucket);
  // Zeroed pages straight from the kernel (calloc of a large block is an
  // anonymous mapping): untouched buckets cost no memory, and the table is
  // put on transparent huge pages, since lookups land on random buckets.
  // calloc aligns to 16 bytes only; the buckets start at the next line.
  raw_ = calloc(bytes_ + 64, 1);
  if (raw_ == nullptr) throw std::bad_alloc();
  const uintptr_t aligned = (reinterpret_cast<uintptr_t>(raw_) + 63) & ~uintptr_t{63};
  void* p = reinterpret_cast<void*>(aligned);
  if (bytes_ >= (2u << 20)) (void)madvise(raw_, bytes_ + 64, MADV_HUGEPAGE);
  static_assert(std::atomic<uint64_t>::is_always_lock_free);
  buckets_ = static_cast<Bucket*>(p);
}

PointIndex::~PointIndex() { free(raw_); }

uint64_t PointIndex::Hash(const Slice& user_key) {
  return XXH3_64bits(user_key.data(), user_key.size());
}

Slice PointIndex::EntryInternalKey(const char* entry) {
  uint32_t len;
  // The entry was encoded by the memtable itself: the varint is well formed.
  const char* p = GetVarint32Ptr(entry, entry + kMaxVarint32Length, &len);
  return Slice(p, len);
}

void PointIndex::Add(uint64_t hash, const Slice& user_key, SequenceNumber seq, const char* entry,
                     bool concurrent) {
  const auto addr = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(entry));
  if ((addr & ~kPointerMask) != 0) {
    disabled_.store(true, std::memory_order_relaxed);
    return;
  }
  const uint64_t tag = TagOf(hash);
  const uint64_t mine = tag | addr;
  // Add's own view of the bucket: BucketOf is const for Find.
  auto* slots = const_cast<std::atomic<uint64_t>*>(BucketOf(hash));
  for (int i = 0; i < kSlots; ++i) {
    std::atomic<uint64_t>& slot = slots[i];
    uint64_t cur = slot.load(std::memory_order_acquire);
    while (true) {
      if (cur == 0) {
        if (!concurrent) {
          // The only writer: a plain release store (no locked instruction).
          slot.store(mine, std::memory_order_release);
          return;
        }
        // release: publishes the entry's bytes with the pointer. On failure
        // cur is reloaded and the slot examined again.
        if (slot.compare_exchange_weak(cur, mine, std::memory_order_release,
                                       std::memory_order_acquire)) {
          return;
        }
        continue;
      }
      if (SlotTag(cur) != tag) break;  // another key's slot
      const Slice ikey = EntryInternalKey(EntryOf(cur));
      if (ExtractUserKey(ikey) != user_key) break;  // another key, same tag
      // This key's slot: keep the newest version.
      if ((ExtractInternalKeyFooter(ikey) >> 8) >= seq) return;
      if (!concurrent) {
        slot.store(mine, std::memory_order_release);
        return;
      }
      if (slot.compare_exchange_weak(cur, mine, std::memory_order_release,
                                     std::memory_order_acquire)) {
        return;
      }
    }
  }
  // The bucket is full: the key stays unindexed (lookups get kUnknown).
}

PointIndex::Result PointIndex::Find(uint64_t hash, const Slice& user_key,
                                    const char** entry) const {
  if (disabled_.load(std::memory_order_relaxed)) return Result::kUnknown;
  const uint64_t tag = TagOf(hash);
  const std::atomic<uint64_t>* slots = BucketOf(hash);
  for (int i = 0; i < kSlots; ++i) {
    // acquire: pairs with the release in Add, so the entry's bytes are
    // visible.
    const uint64_t cur = slots[i].load(std::memory_order_acquire);
    if (cur == 0) return Result::kAbsent;
    if (SlotTag(cur) != tag) continue;
    const char* e = EntryOf(cur);
    if (ExtractUserKey(EntryInternalKey(e)) == user_key) {
      *entry = e;
      return Result::kFound;
    }
  }
  return Result::kUnknown;
}

}  // namespace strata
