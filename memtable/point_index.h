// PointIndex: a hash index from user key to the newest memtable entry of
// that key, so a point lookup usually costs one or two cache misses instead
// of a full search of the memtable's ordered index (several dependent misses
// at 1M entries).
//
// Layout: buckets of one cache line, each with kSlots slots. A slot holds
// nothing (0) or one entry pointer (the memtable's encoded entry: varint32
// internal-key length | user key | trailer | ...) in its low 48 bits and a
// 16-bit tag of the key's hash in its high 16 bits, so a lookup rejects the
// other keys of its bucket without touching their entries. A bucket's slots
// fill from the first: a key takes the first empty slot, and keeps it for
// the memtable's lifetime (slots are never cleared); later versions of that
// key replace its pointer only with a higher sequence number. A key that
// finds its bucket full is not indexed.
//
// What Find for key K may conclude (a lookup at snapshot S runs after every
// entry visible at S was published, and Add runs before publication):
//  1. kAbsent: an empty slot came before any slot holding K. Every key ever
//     added took a slot before the first empty one, so K has no entry.
//  2. kFound: the slot holding K, whose pointer is K's newest entry added so
//     far (the maximum sequence). If that sequence is <= S it is K's newest
//     entry visible at S.
//  3. kUnknown: the bucket is full and K is not in it; search the index.
// Thread-safety: thread-safe; Add may run concurrently with Add and Find.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "base/dbformat.h"
#include "strata/slice.h"

namespace strata {

class PointIndex {
 public:
  static constexpr int kSlots = 8;

  // Sized for about expected_entries keys (a few per bucket, so that full
  // buckets are rare); more keys only make kUnknown more frequent.
  explicit PointIndex(size_t expected_entries);
  ~PointIndex();
  PointIndex(const PointIndex&) = delete;
  PointIndex& operator=(const PointIndex&) = delete;

  static uint64_t Hash(const Slice& user_key);

  // Starts loading the bucket of hash into the cache (call early, Add later).
  void Prefetch(uint64_t hash) const { __builtin_prefetch(BucketOf(hash), 1, 1); }

  // entry: the memtable entry just added for user_key at sequence seq.
  // concurrent: other threads may Add at the same time (compare-and-swap
  // instead of plain stores).
  void Add(uint64_t hash, const Slice& user_key, SequenceNumber seq, const char* entry,
           bool concurrent);

  enum class Result { kAbsent, kFound, kUnknown };
  // Applies the rules above; *entry is set for kFound.
  Result Find(uint64_t hash, const Slice& user_key, const char** entry) const;

  size_t MemoryUsage() const { return bytes_; }

  // Decodes an entry's internal key (helper for callers and Add).
  static Slice EntryInternalKey(const char* entry);

 private:
  struct alignas(64) Bucket {
    std::atomic<uint64_t> slots[kSlots];
  };
  static constexpr int kPointerBits = 48;
  static constexpr uint64_t kPointerMask = (uint64_t{1} << kPointerBits) - 1;

  // The bucket comes from the hash's high bits (a multiply-shift onto
  // [0, num_buckets_), so any bucket count works), the tag from its low 16.
  const std::atomic<uint64_t>* BucketOf(uint64_t hash) const {
    const auto product = static_cast<unsigned __int128>(hash) * num_buckets_;
    return buckets_[static_cast<size_t>(product >> 64)].slots;
  }
  static uint64_t TagOf(uint64_t hash) { return hash << kPointerBits; }
  static uint64_t SlotTag(uint64_t slot) { return slot & ~kPointerMask; }
  static const char* EntryOf(uint64_t slot) {
    return reinterpret_cast<const char*>(static_cast<uintptr_t>(slot & kPointerMask));
  }

  size_t num_buckets_;
  size_t bytes_;
  void* raw_;  // the allocation (buckets_ is its first aligned line)
  Bucket* buckets_;
  // Set when an entry's address does not fit the slot's 48 bits (never on
  // x86-64 or AArch64 user space): the index then answers kUnknown, since
  // that entry could not be recorded.
  std::atomic<bool> disabled_{false};
};

}  // namespace strata
