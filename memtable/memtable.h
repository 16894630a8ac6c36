// MemTable: the in-memory, sorted buffer of recent writes, before they are
// flushed to an L0 table. A BTreeIndex (memtable/btree_index.h) over
// entries stored in a ConcurrentArena; entries are never removed or
// changed, and all memory is released together when the last reference
// goes. (InlineSkipList, the index before it, stays as the baseline of
// bench/memtable_index_bench.cc: docs/design/btree_memtable_index.md.)
//
// Entry layout (one arena allocation):
//
//   varint32  internal_key_size      (= user_key size + 8)
//   bytes     user_key
//   fixed64   (sequence << 8) | value_type      -- the internal key trailer
//   varint32  value_size
//   bytes     value
//
// Entries order as their internal keys (base/dbformat.h): user key ascending,
// then trailer descending, so the newest version of a key comes first.
//
// Thread-safety: readers (Get, iterators, the statistics getters) need no
// lock and may run alongside writers. Add(..., allow_concurrent=true) may
// run in many threads at once; Add(..., false) needs the caller to be the
// only writer at that time. Ref/Unref are thread-safe.
// Range tombstones (kTypeRangeDeletion: key = start, value = end) live in a
// second index of the same entry layout; readers get them fragmented
// (FragmentedRangeTombstoneList), rebuilt when tombstones were added since.
// Invariants:
//  1. No two entries have the same internal key (an Add repeating one is
//     dropped).
//  2. An entry visible to a reader is complete (the index publishes it).
//  3. num_entries() counts entries linked; num_deletes() those of type
//     kTypeDeletion or kTypeSingleDeletion.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>

#include "base/dbformat.h"
#include "base/get_context.h"
#include "base/internal_iterator.h"
#include "base/range_tombstone.h"
#include "memtable/btree_index.h"
#include "memtable/dynamic_bloom.h"
#include "memtable/point_index.h"
#include "strata/comparator.h"
#include "strata/env.h"
#include "strata/merge_operator.h"
#include "strata/slice.h"
#include "strata/slice_transform.h"
#include "strata/status.h"
#include "strata/write_buffer_manager.h"
#include "util/arena.h"
#include "util/coding.h"
#include "util/perf_context_imp.h"

namespace strata {

struct MemTableOptions {
  // Arena block size; the memtable's memory grows in steps of this size
  // (sizes of 1 MiB and more are rounded up to a multiple of 2 MiB, so the
  // blocks can sit on huge pages: see util/arena.cc).
  size_t arena_block_size = 1 << 20;
  // Build a point-lookup index (memtable/point_index.h) once this memtable
  // serves lookups; only with comparators whose equality is byte equality.
  bool point_index = false;
  // The write buffer size the memtable is flushed at (0 = unknown): sizes
  // the point index for the entries a full memtable holds.
  size_t write_buffer_size = 0;
  // A Bloom filter of this many bits (0 = none) over the keys' prefixes
  // (when prefix_extractor is set) and whole keys (when
  // whole_key_filtering), consulted by Get before the skip list.
  uint32_t bloom_bits = 0;
  const SliceTransform* prefix_extractor = nullptr;  // borrowed
  bool whole_key_filtering = false;
  // Stamps the first write's wall time (ApproximateOldestKeyTime); null:
  // never stamped (borrowed; outlives the memtable).
  SystemClock* clock = nullptr;
  // Reserves this memtable's memory as it grows (UpdateWriteBufferManager)
  // and frees it when the memtable is destroyed; null: none. Borrowed;
  // outlives the memtable (issue 19).
  WriteBufferManager* write_buffer_manager = nullptr;
};

// The index's view of the internal-key order (base/dbformat.h) over
// encoded memtable entries (above): it decodes an entry's length prefix and
// trailer once per comparison and applies InternalKeyComparator's rule. With
// the bytewise user comparator (recognised by pointer) user keys are
// compared inline, eight bytes at a time; any other comparator is called
// through its virtual Compare.
// Thread-safety: immutable; thread-safe.
class MemTableKeyComparator {
 public:
  // An internal key taken apart once per search.
  struct DecodedKey {
    const char* user_key;
    size_t user_key_size;
    uint64_t trailer;  // (sequence << 8) | type
  };

  explicit MemTableKeyComparator(const Comparator* user)
      : user_(user), bytewise_(user == BytewiseComparator()) {}

  // entry: the start of a memtable entry.
  DecodedKey decode_key(const char* entry) const {
    uint32_t ikey_size;
    const char* ikey = DecodeEntryLength(entry, &ikey_size);
    return DecodeInternalKey(ikey, ikey_size);
  }

  // An internal key given as a Slice (a Seek target). A target shorter than
  // the trailer is taken as a bare user key and sorts before all its
  // versions.
  static DecodedKey DecodeInternalKey(const Slice& ikey) {
    if (ikey.size() < kInternalKeyTrailerSize) {
      assert(false && "internal key shorter than its trailer");
      return {ikey.data(), ikey.size(), ~uint64_t{0}};
    }
    return DecodeInternalKey(ikey.data(), ikey.size());
  }

  int operator()(const char* a, const char* b) const { return (*this)(a, decode_key(b)); }

  int operator()(const char* entry, const DecodedKey& b) const {
    const DecodedKey a = decode_key(entry);
    const int r = CompareUserKeys(a.user_key, a.user_key_size, b.user_key, b.user_key_size);
    if (r != 0) return r;
    return InternalKeyComparator::CompareTrailers(a.trailer, b.trailer);
  }

  // The index's order-preserving summary of a key (see
  // memtable/btree_index.h): the first 8 bytes of the user key as a
  // big-endian number, zero-padded, for the bytewise order; 0 (no
  // information) for any other comparator.
  uint64_t key_prefix(const char* entry) const {
    if (!bytewise_) return 0;
    uint32_t ikey_size;
    const char* ikey = DecodeEntryLength(entry, &ikey_size);
    return UserKeyPrefix(ikey, ikey_size - kInternalKeyTrailerSize);
  }
  uint64_t decoded_key_prefix(const DecodedKey& key) const {
    return bytewise_ ? UserKeyPrefix(key.user_key, key.user_key_size) : 0;
  }

  bool UserKeysEqual(const Slice& a, const Slice& b) const {
    if (bytewise_) return a == b;
    return user_->Equal(a, b);
  }

  // The internal key of an entry; *end is set to the byte after it (the
  // value's length prefix).
  static Slice EntryInternalKey(const char* entry, const char** end) {
    uint32_t ikey_size;
    const char* ikey = DecodeEntryLength(entry, &ikey_size);
    *end = ikey + ikey_size;
    return Slice(ikey, ikey_size);
  }

  // The length prefix at p, with an inline fast path for one-byte varints
  // (internal keys shorter than 128 bytes). Entries were written by us, so
  // no bounds are needed beyond the 5-byte maximum.
  static const char* DecodeEntryLength(const char* p, uint32_t* value) {
    const auto first = static_cast<unsigned char>(*p);
    if (first < 0x80) {
      *value = first;
      return p + 1;
    }
    return GetVarint32PtrFallback(p, p + kMaxVarint32Length, value);
  }

 private:
  static DecodedKey DecodeInternalKey(const char* ikey, size_t size) {
    const size_t user_size = size - kInternalKeyTrailerSize;
    return {ikey, user_size, DecodeFixed64(ikey + user_size)};
  }

  static uint64_t UserKeyPrefix(const char* user_key, size_t size) {
    uint64_t v = 0;
    memcpy(&v, user_key, size < sizeof(v) ? size : sizeof(v));
    return __builtin_bswap64(v);
  }

  int CompareUserKeys(const char* a, size_t an, const char* b, size_t bn) const {
    PERF_COUNTER_ADD(user_key_comparison_count, 1);
    if (bytewise_) return BytewiseCompare(a, an, b, bn);
    return user_->Compare(Slice(a, an), Slice(b, bn));
  }

  // memcmp order. Eight bytes per step, loaded as big-endian integers so one
  // integer comparison decides a differing word.
  static int BytewiseCompare(const char* a, size_t an, const char* b, size_t bn) {
    const size_t n = an < bn ? an : bn;
    size_t i = 0;
    if (n > 64) {
      // Long keys: the library memcmp (vectorized) wins.
      const int r = memcmp(a, b, n);
      if (r != 0) return r;
      i = n;
    }
    for (; i + 8 <= n; i += 8) {
      uint64_t x;
      uint64_t y;
      memcpy(&x, a + i, sizeof(x));
      memcpy(&y, b + i, sizeof(y));
      if (x != y) return __builtin_bswap64(x) < __builtin_bswap64(y) ? -1 : 1;
    }
    for (; i < n; i++) {
      if (a[i] != b[i]) {
        return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[i]) ? -1 : 1;
      }
    }
    return an < bn ? -1 : (an > bn ? 1 : 0);
  }

  const Comparator* user_;
  bool bytewise_;
};

class MemTableIterator;

class MemTable {
 public:
  // The creator holds the first reference. The memtable must be allocated
  // with new: the last Unref deletes it.
  MemTable(const InternalKeyComparator& cmp, const MemTableOptions& opts);
  ~MemTable();
  MemTable(const MemTable&) = delete;
  MemTable& operator=(const MemTable&) = delete;

  void Ref() {
    // relaxed: taking a reference needs no ordering; the caller already has
    // access through another reference.
    refs_.fetch_add(1, std::memory_order_relaxed);
  }
  // Deletes the memtable when the count reaches zero.
  void Unref() {
    // acq_rel: every holder's accesses happen-before the delete.
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }

  // Adds an entry. With allow_concurrent, other threads may be calling
  // Add(..., true) at the same time; without it the caller must be the only
  // writer. An entry with the same user key, sequence and type as one
  // already present is dropped. REQUIRES: user_key.size() + 8 and
  // value.size() fit in 32 bits. Costs one arena allocation.
  void Add(SequenceNumber seq, ValueType type, const Slice& user_key, const Slice& value,
           bool allow_concurrent);

  // Looks up key.user_key() as of the LookupKey's sequence (ctx's
  // read_seq), newest entry first: first raises ctx's range-tombstone
  // watermark by this memtable's tombstones, then feeds ctx the visible
  // versions of the key until it decides. Returns ctx->done(): true if the
  // lookup is decided here (a value, a deletion, a failure), false if older
  // sources must be consulted (no entry, or only merge operands, which ctx
  // keeps by reference: the caller keeps this memtable referenced until the
  // lookup ends). One index search (or a point-index probe) plus a step
  // per operand.
  bool Get(const LookupKey& key, GetContext* ctx);
  // Without merges (tests): when decided, *s is the lookup's result (OK
  // with *value, NotFound, or the error).
  bool Get(const LookupKey& key, std::string* value, Status* s) {
    GetContext ctx(comparator_.user_comparator(), key.user_key(), value, nullptr, nullptr,
                   ExtractInternalKeyFooter(key.internal_key()) >> 8);
    if (!Get(key, &ctx)) return false;
    *s = ctx.Finish(nullptr, nullptr);
    return true;
  }

  // The range tombstones added so far, fragmented; null if there are none.
  // Cheap when none were added since the last call (one atomic load and a
  // lock when some exist).
  std::shared_ptr<const FragmentedRangeTombstoneList> GetRangeTombstones();
  // The raw range tombstone entries (for flushes).
  std::unique_ptr<InternalIterator> NewRangeTombstoneIterator();
  uint64_t num_range_deletes() const {
    // acquire: pairs with the release increment in Add, so a reader that
    // sees the count sees the linked entries.
    return num_range_deletes_.load(std::memory_order_acquire);
  }

  // An iterator over the entries as internal keys (key()) and values, both
  // directions. It must not outlive the memtable (hold a
  // Ref). Sees entries added after its creation too.
  std::unique_ptr<InternalIterator> NewIterator();

  // WriteBufferManager accounting (no-ops without one). Update reserves
  // the memory grown since its last call; the write leader calls it once
  // per write group (at most one thread at a time). MarkImmutable tells the
  // manager the memory will be freed (at the memtable switch, once); the
  // destructor frees it.
  void UpdateWriteBufferManager();
  void MarkImmutableForWriteBufferManager();
  // Bytes reserved in the manager so far.
  size_t write_buffer_manager_reserved() const {
    // relaxed: a statistic.
    return wbm_reserved_.load(std::memory_order_relaxed);
  }

  // Bytes of arena blocks allocated so far. Thread-safe.
  size_t ApproximateMemoryUsage() const {
    // acquire: the index object itself must be visible (its size is read).
    const PointIndex* index = building_index_.load(std::memory_order_acquire);
    return arena_.MemoryUsage() + (index != nullptr ? index->MemoryUsage() : 0);
  }

  // Approximate entries (count) and their encoded bytes (size) with
  // internal keys in [start_ikey, end_ikey): the index's estimate of the
  // entries in range (exact while the memtable fits one index leaf) times
  // the average entry size, as RocksDB's MemTable::ApproximateStats.
  // Thread-safe; may trail concurrent Adds.
  struct ApproximateStatsResult {
    uint64_t count = 0;
    uint64_t size = 0;
  };
  ApproximateStatsResult ApproximateStats(const Slice& start_ikey, const Slice& end_ikey) const;

  // Thread-safe; may trail concurrent Adds.
  uint64_t num_entries() const;
  uint64_t num_deletes() const;

  bool IsEmpty() const;

  // The smallest sequence added (the first Add's when sequences rise), or 0
  // if empty.
  SequenceNumber GetFirstSequenceNumber() const {
    // relaxed: a statistic about entries the caller synchronizes with
    // separately.
    return first_seqno_.load(std::memory_order_relaxed);
  }

  // Every write with a sequence >= this one went to this memtable or a
  // newer one (set by its creator: the sequence after the last allocated
  // one when it became the mutable memtable). 0: unknown (the memtable
  // proves nothing about history). Transactions' conflict checks use it.
  void SetEarliestSequenceNumber(SequenceNumber seq) {
    earliest_seqno_.store(seq, std::memory_order_relaxed);
  }
  SequenceNumber GetEarliestSequenceNumber() const {
    // relaxed: set once before the memtable is published (SuperVersion
    // installation orders it).
    return earliest_seqno_.load(std::memory_order_relaxed);
  }

  // Two-phase commit: this memtable holds data committed from a prepared
  // section logged in WAL `log`, which must stay until the memtable is
  // flushed. The smallest such WAL number (0: none).
  void RefLogContainingPrepSection(uint64_t log) {
    uint64_t cur = min_prep_log_.load(std::memory_order_relaxed);
    // relaxed: read under the DB mutex after the writer that set it has
    // returned (the write path's group exit orders it).
    while ((cur == 0 || log < cur) &&
           !min_prep_log_.compare_exchange_weak(cur, log, std::memory_order_relaxed)) {
    }
  }
  uint64_t GetMinLogContainingPrepSection() const {
    return min_prep_log_.load(std::memory_order_relaxed);
  }

  // Unix seconds of the first write (the table property oldest_key_time
  // and the flush output's oldest_ancester_time, as RocksDB's), or
  // UINT64_MAX when nothing was written or no clock was given.
  uint64_t ApproximateOldestKeyTime() const {
    // relaxed: a statistic, as first_seqno_.
    return oldest_key_time_.load(std::memory_order_relaxed);
  }

  const InternalKeyComparator& comparator() const { return comparator_; }

 private:
  friend class MemTableIterator;
  using Table = BTreeIndex<MemTableKeyComparator>;

  // Entry counts, split over cache lines so concurrent writers rarely
  // touch the same one. Readers sum the shards.
  static constexpr int kCounterShards = 4;
  struct alignas(64) Counters {
    // relaxed everywhere: counts, not synchronization.
    std::atomic<uint64_t> entries{0};
    std::atomic<uint64_t> deletes{0};
    std::atomic<uint64_t> bytes{0};  // encoded entries (not range tombstones)
  };

  void UpdateFirstSequence(SequenceNumber seq);
  void AddToBloom(const Slice& user_key, bool concurrent);
  // False only if the filter proves user_key absent.
  bool BloomMayContain(const Slice& user_key) const;

  // Indexes a just-linked entry if the point index is being built or ready.
  void IndexAddedEntry(const Slice& user_key, SequenceNumber seq, const char* entry);
  // Immutable after construction.
  const InternalKeyComparator comparator_;

  // Atomics.
  std::atomic<int> refs_{1};
  std::atomic<SequenceNumber> first_seqno_{0};
  std::atomic<SequenceNumber> earliest_seqno_{0};
  std::atomic<uint64_t> min_prep_log_{0};
  std::atomic<uint64_t> oldest_key_time_{~uint64_t{0}};
  SystemClock* clock_ = nullptr;   // set by the constructor only
  WriteBufferManager* const wbm_;  // borrowed; may be null
  // Written by the write leader only (relaxed: one writer at a time, the
  // DB mutex or the write thread orders successive leaders).
  std::atomic<size_t> wbm_reserved_{0};
  std::atomic<bool> wbm_immutable_{false};

  // Thread-safe objects (see the header comment for the writer rules).
  ConcurrentArena arena_;
  Table table_;            // allocates from arena_, so declared after it
  Table range_del_table_;  // range tombstones
  std::atomic<uint64_t> num_range_deletes_{0};
  // The fragmented tombstones as of fragmented_count_ tombstones.
  std::mutex range_del_mu_;
  std::shared_ptr<const FragmentedRangeTombstoneList> fragmented_;
  uint64_t fragmented_count_ = 0;
  // The point index is built lazily, by the first Get on a memtable of at
  // least kMinEntriesForIndex entries (so write-only memtables never pay
  // for it), sized for a full memtable (see BuildPointIndex):
  //  1. the builder publishes the new index in building_index_; from then
  //     on every Add also indexes its entry;
  //  2. it scans the index and indexes every entry (a seq_cst fence on
  //     both sides guarantees that an entry is indexed by its writer, by the
  //     scan, or by both);
  //  3. it publishes the index in ready_index_, which lookups use.
  static constexpr uint64_t kMinEntriesForIndex = 4096;
  void BuildPointIndex();
  const bool point_index_allowed_;
  const size_t write_buffer_size_;
  // Filter over prefixes / whole keys (bits from arena_); null if none.
  const SliceTransform* const prefix_extractor_;
  const bool bloom_whole_keys_;
  std::unique_ptr<DynamicBloom> bloom_;
  std::atomic<bool> index_build_started_{false};
  std::atomic<PointIndex*> building_index_{nullptr};  // owned; deleted with the memtable
  std::atomic<PointIndex*> ready_index_{nullptr};
  Counters counters_[kCounterShards];
};

}  // namespace strata
