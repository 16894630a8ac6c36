// PointIndex: a lossy hash index from user key to the newest memtable entry
// of that key, so a point lookup usually costs one or two cache misses
// instead of a full skip-list search (~20 dependent misses at 1M entries).
//
// Each bucket holds nothing or one entry pointer (the memtable's encoded
// entry: varint32 internal-key length | user key | trailer | ...). The first
// key that hashes to a bucket owns it for the memtable's lifetime; later
// versions of that same key replace the pointer only with a higher sequence
// number; other keys that hash there are simply not indexed.
//
// What a lookup of key K at snapshot S may conclude:
//  1. Bucket empty: no entry for K was ever added, so K is not in the
//     memtable. (Buckets are never cleared, and Add stores before the write
//     is published to readers.)
//  2. Bucket holds K at sequence s <= S: that entry is K's newest entry
//     visible at S. (Every visible version was published, hence added, hence
//     raised the bucket to at least its own sequence; the bucket holds the
//     maximum.)
//  3. Anything else (another key, or K at s > S): no conclusion; search the
//     skip list.
// Thread-safety: thread-safe; Add may run concurrently with Add and Lookup.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "base/dbformat.h"
#include "strata/slice.h"

namespace strata {

class PointIndex {
 public:
  // num_buckets is rounded up to a power of two (at least 64).
  explicit PointIndex(size_t num_buckets);
  ~PointIndex();
  PointIndex(const PointIndex&) = delete;
  PointIndex& operator=(const PointIndex&) = delete;

  static uint64_t Hash(const Slice& user_key);

  // Starts loading the bucket of hash into the cache (call early, Add later).
  void Prefetch(uint64_t hash) const { __builtin_prefetch(&buckets_[hash & mask_], 1, 1); }

  // entry: the memtable entry just added for user_key at sequence seq.
  // concurrent: other threads may Add at the same time (a CAS instead of a
  // plain store).
  void Add(uint64_t hash, const Slice& user_key, SequenceNumber seq, const char* entry,
           bool concurrent);

  // The bucket's entry (nullptr when empty). The caller decodes it and
  // applies the rules above.
  const char* Lookup(uint64_t hash) const {
    // acquire: pairs with the release in Add, so the entry's bytes are
    // visible.
    return buckets_[hash & mask_].load(std::memory_order_acquire);
  }

  size_t MemoryUsage() const { return bytes_; }

  // Decodes an entry's internal key (helper for callers and Add).
  static Slice EntryInternalKey(const char* entry);

 private:
  size_t mask_;
  size_t bytes_;
  std::atomic<const char*>* buckets_;
};

}  // namespace strata
