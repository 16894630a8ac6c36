#include "memtable/point_index.h"

#include <sys/mman.h>

#include <cstdlib>
#include <new>

#define XXH_INLINE_ALL  // the hash is on every memtable insert: inline it
#include <xxhash.h>

#include "util/coding.h"

namespace strata {

namespace {

size_t RoundUpToPowerOfTwo(size_t n) {
  size_t r = 64;
  while (r < n) r <<= 1;
  return r;
}

}  // namespace

PointIndex::PointIndex(size_t num_buckets) {
  const size_t n = RoundUpToPowerOfTwo(num_buckets);
  mask_ = n - 1;
  bytes_ = n * sizeof(std::atomic<const char*>);
  // Zeroed pages straight from the kernel (calloc of a large block is an
  // anonymous mapping): untouched buckets cost no memory, and the table is
  // put on transparent huge pages, since lookups land on random buckets.
  void* p = calloc(n, sizeof(std::atomic<const char*>));
  if (p == nullptr) throw std::bad_alloc();
  if (bytes_ >= (2u << 20)) (void)madvise(p, bytes_, MADV_HUGEPAGE);
  static_assert(std::atomic<const char*>::is_always_lock_free);
  buckets_ = static_cast<std::atomic<const char*>*>(p);
}

PointIndex::~PointIndex() { free(buckets_); }

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
  std::atomic<const char*>& bucket = buckets_[hash & mask_];
  const char* cur = bucket.load(std::memory_order_acquire);
  while (true) {
    if (cur != nullptr) {
      const Slice ikey = EntryInternalKey(cur);
      // Owned by another key, or already at a newer version of this key.
      if (ExtractUserKey(ikey) != user_key) return;
      if ((ExtractInternalKeyFooter(ikey) >> 8) >= seq) return;
    }
    if (!concurrent) {
      // The only writer: a plain release store (no locked instruction).
      bucket.store(entry, std::memory_order_release);
      return;
    }
    // release: publishes the entry's bytes with the pointer. On failure cur
    // is reloaded (acquire) and the checks run again.
    if (bucket.compare_exchange_weak(cur, entry, std::memory_order_release,
                                     std::memory_order_acquire)) {
      return;
    }
  }
}

}  // namespace strata
