// BTreeIndex: a B+tree whose readers take no locks (they validate what they
// read, and wait only while a writer holds the node they are reading), a
// drop-in alternative to InlineSkipList (memtable/inline_skiplist.h) as the
// sorted, insert-only index under a MemTable.
//
// It has the skip list's interface and contract: AllocateKey() hands out the
// bytes of an entry, the caller writes the key there and passes it to exactly
// one Insert() or InsertConcurrently(); keys are never removed; a key pointer
// once returned stays valid; memory is reclaimed only with the arena. The
// Comparator concept is the skip list's (DecodedKey, decode_key, the two
// operator()s, key_prefix and decoded_key_prefix; see inline_skiplist.h).
//
// Layout. Entries live wherever AllocateKey put them; the tree holds only
// pointers to them. Every node is cache-line aligned and allocated from the
// arena, so nodes are never freed either, and a reader holding a stale node
// pointer still reads valid memory.
//
//   Leaf  { version | count | next leaf | next leaf's first prefix
//           | prefix[kLeafSlots] | entry[kLeafSlots] }
//   Inner { version | count | prefix[kInnerSlots] | separator[kInnerSlots]
//           | child[kInnerSlots + 1] }
//
// prefix[i] is key_prefix(entry[i]). A node search is a binary search that
// compares the contiguous prefixes and reads an entry's bytes only when the
// prefixes tie (with db_bench keys, only when the keys are equal). Inner
// node separator[i] separates child[i] (keys < separator) from child[i+1]
// (keys >= separator).
//
// Concurrency: optimistic version validation (a seqlock per node).
// version is even when the node is stable and odd while a writer holds it.
// A writer makes it odd, writes slots, then stores the next even value; a
// reader reads an even version (acquire), reads slots, and re-reads the
// version: if it moved, what it read may be torn and it starts over from the
// root. Every slot is an atomic; slot stores are release and slot loads
// acquire (plain moves on x86), which also orders the version re-read after
// the slot reads without a fence, and publishes the entry bytes and new
// nodes behind the pointers. A torn read is harmless before validation:
// slots only ever hold valid entry/node pointers (or null, which is
// checked), and child pointers always point one level down, so a search
// over stale data terminates and then fails validation.
//
// Writers. Insert() (one writer at a time) and InsertConcurrently() (many)
// run the same code; only the lock differs: InsertConcurrently takes a node
// by compare-and-swap from the version it validated (a failed CAS restarts
// the insert, so there is no waiting while holding a lock and no deadlock),
// Insert just stores the odd version. Descent is optimistic; a full inner
// node met on the way down is split at once (parent, then node, locked), so
// a split below always finds room in its parent. Splits are in place: the
// left node keeps the lower half (and so its first key), a new right node
// gets the upper half, and the parent gets the right node's first key as
// separator. Both writers first try a remembered leaf (the last one they
// inserted into; per thread for InsertConcurrently) when the key falls in
// its range, so ascending inserts cost O(1). On the right edge of the tree,
// a key past every other one splits off a node holding just that key,
// leaving the old node full (sequential fills pack nodes instead of leaving
// them half empty).
//
// Iterators remember (leaf, slot, leaf version, key). Next and Prev step
// within the leaf while its version is unchanged, and Next follows the leaf
// chain; otherwise they search again from the root for the first key after
// (before) the current one. A concurrent split therefore costs a re-search,
// never a skipped or repeated key: every key present when a scan started is
// seen, each scan is strictly ordered.
//
// Thread-safety: readers (Contains, Iterator) take no lock and may run
// concurrently with any writer; Insert() is single-writer;
// InsertConcurrently() may run in many threads at once; the two kinds of
// insert must not overlap in time (as for the skip list).
// Invariants (whenever no writer holds a node):
//  1. Keys within a node are strictly increasing; prefix[i] ==
//     key_prefix(entry[i]).
//  2. All leaves are at the same depth; every key of child[i] is >=
//     separator[i-1] and < separator[i] of its parent.
//  3. A separator equals the first key of the subtree to its right. A
//     leaf's first key never changes once the leaf is not the leftmost
//     (splits keep the lower half in place, keys are never removed).
//  4. The leaves in key order form the chain first_leaf_ -> next -> ...;
//     a leaf's next_prefix is key_prefix of its next leaf's first key;
//     only the tree's only leaf may be empty.
//  5. A node's level never changes: child slots of a level-l inner node
//     only ever hold level l-1 nodes.
#pragma once

#include <atomic>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <new>
#include <thread>
#include <vector>

#include "util/arena.h"

namespace strata {

namespace btree_internal {

// One spin-wait step.
inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

// Identifies a tree for the per-thread leaf hint of InsertConcurrently;
// never reused, so a hint can never point into a tree that was destroyed.
inline uint64_t NextTreeId() {
  static std::atomic<uint64_t> next_id{1};
  return next_id.fetch_add(1, std::memory_order_relaxed);  // relaxed: unique ids only
}

// What a search looks for: the first key >= / > the target, or the last
// key <= / < it.
enum class SeekMode { kGreaterOrEqual, kGreater, kLessOrEqual, kLess };

}  // namespace btree_internal

// kLeafSlots / kInnerSlots: keys per leaf / separators per inner node. The
// defaults (1 KiB leaves, 768-byte inner nodes) were the fastest overall in
// bench/memtable_index_bench.cc among 14/14, 30/30, 62/30, 62/62 and 126/30
// on 16-byte db_bench keys; see docs/design/btree_memtable_index.md.
template <class Comparator, int kLeafSlots = 62, int kInnerSlots = 30>
class BTreeIndex {
 private:
  struct Node;
  struct Leaf;
  struct Inner;

  // A validated place in a leaf: key == leaf->entry[index] while the leaf's
  // version is still `version`. key == nullptr: no position.
  struct Position {
    const Leaf* leaf = nullptr;
    uint32_t index = 0;
    uint64_t version = 0;
    const char* key = nullptr;
  };

 public:
  using DecodedKey = typename Comparator::DecodedKey;

  static_assert(kLeafSlots >= 4 && kInnerSlots >= 3, "nodes too small to split");

  // allocator must outlive the tree. The two trailing parameters exist only
  // so that a MemTable can construct either index with the same arguments;
  // they are ignored. Allocates the first (empty) leaf.
  explicit BTreeIndex(Comparator cmp, Allocator* allocator, int32_t /*max_height*/ = 12,
                      int32_t /*branching_factor*/ = 4);
  BTreeIndex(const BTreeIndex&) = delete;
  BTreeIndex& operator=(const BTreeIndex&) = delete;

  // Returns key_size writable bytes (not aligned) for the key that the caller
  // then passes to exactly one Insert or InsertConcurrently. Thread-safe if
  // the allocator is.
  char* AllocateKey(size_t key_size) { return allocator_->Allocate(key_size); }

  // Adds a key returned by AllocateKey. Returns false (and changes nothing)
  // if an equal key is already present. REQUIRES: no other insert runs at
  // the same time. O(1) when keys arrive in ascending order, else O(log n).
  bool Insert(const char* key) { return InsertImpl</*kConcurrent=*/false>(key, &seq_hint_); }

  // Like Insert, but any number of threads may call it at once (the
  // allocator must then be thread-safe too).
  bool InsertConcurrently(const char* key);

  // True iff a key equal to key is present.
  bool Contains(const char* key) const;

  const Comparator& comparator() const { return compare_; }

  // Where target falls in the key order, as a fraction of the keys that
  // sort before it (0: none, 1: all), estimated from the path a search
  // takes: at each inner node the siblings are taken to hold equally many
  // keys, and the leaf's count is exact. For size estimates
  // (MemTable::ApproximateStats). Lock-free like a search; O(log n).
  double ApproximateRankFraction(const char* target) const;

  // Test-only: checks invariants 1-5 over the whole tree. REQUIRES: no
  // insert in progress. O(n).
  bool TEST_Validate() const;

  // Test-only: levels from the root to the leaves (1 for a lone leaf).
  int TEST_Height() const { return root_.load(std::memory_order_acquire)->level + 1; }

  // Walks the tree. Holds no reference: the tree must outlive it. A key seen
  // once stays valid. Inserts may run concurrently (see the file comment).
  // Thread-safety: not thread-safe; one iterator per thread.
  class Iterator {
   public:
    explicit Iterator(const BTreeIndex* tree) : tree_(tree) {}

    bool Valid() const { return pos_.key != nullptr; }
    // REQUIRES: Valid()
    const char* key() const {
      assert(Valid());
      return pos_.key;
    }
    // REQUIRES: Valid(). O(1) amortized unless the leaf is being split.
    void Next();
    // REQUIRES: Valid(). O(1) within a leaf; O(log n) from a leaf's first key.
    void Prev();
    // First key >= target.
    void Seek(const char* target) { SeekDecoded(tree_->compare_.decode_key(target)); }
    void SeekDecoded(const DecodedKey& target) {
      pos_ = tree_->template Locate<SeekMode::kGreaterOrEqual>(target);
    }
    // Last key <= target.
    void SeekForPrev(const char* target) { SeekForPrevDecoded(tree_->compare_.decode_key(target)); }
    void SeekForPrevDecoded(const DecodedKey& target) {
      pos_ = tree_->template Locate<SeekMode::kLessOrEqual>(target);
    }
    void SeekToFirst() { pos_ = tree_->LocateFirst(); }
    void SeekToLast() { pos_ = tree_->LocateLast(); }

   private:
    // How many keys ahead of itself Next() prefetches entry bytes.
    static constexpr uint32_t kScanAhead = 8;

    const BTreeIndex* tree_;
    Position pos_;
  };

 private:
  using SeekMode = btree_internal::SeekMode;

  // Per-thread insert hint for InsertConcurrently, tagged with its tree.
  struct ThreadHint {
    uint64_t tree_id = 0;
    Leaf* leaf = nullptr;
  };

  // ---- node access (see the file comment for the memory orders) ----

  // Waits until n is not held by a writer; returns its (even) version.
  // acquire: pairs with the writer's release of the version, so the slots
  // it wrote are visible to the reads that follow.
  static uint64_t StableVersion(const Node* n) {
    uint64_t v = n->version.load(std::memory_order_acquire);
    for (int spins = 0; v & 1; spins++) {
      // A writer holds a node for a few dozen stores; if it stays held
      // longer, the writer was probably preempted: give it the CPU.
      if (spins < 100) {
        btree_internal::CpuRelax();
      } else {
        std::this_thread::yield();
      }
      v = n->version.load(std::memory_order_acquire);
    }
    return v;
  }
  // True iff n's version is still v. relaxed suffices: the slot loads before
  // it are acquire loads, so it cannot be performed ahead of them, and a
  // slot value written by a writer holding n (a release store sequenced
  // after its odd version store) makes that odd version visible here.
  static bool Unchanged(const Node* n, uint64_t v) {
    return n->version.load(std::memory_order_relaxed) == v;
  }

  // Takes n for writing if its version is still v. Concurrent writers CAS
  // (acquire: the previous holder's writes happen before ours); the single
  // writer has no rival and just marks the node. Never waits.
  template <bool kConcurrent>
  static bool TryLock(Node* n, uint64_t v) {
    if constexpr (kConcurrent) {
      return n->version.compare_exchange_strong(v, v + 1, std::memory_order_acquire,
                                                std::memory_order_relaxed);
    } else {
      assert(n->version.load(std::memory_order_relaxed) == v);
      // relaxed: the slot stores that follow are release stores.
      n->version.store(v + 1, std::memory_order_relaxed);
      return true;
    }
  }
  // Releases n, locked from version v. If nothing was written, the old
  // version comes back and readers that started before keep their reads.
  // release: publishes the slots written under the lock.
  static void Unlock(Node* n, uint64_t v, bool modified) {
    n->version.store(modified ? v + 2 : v, std::memory_order_release);
  }

  // Prefetches: start loading lines a search or scan is about to read, so
  // that their misses overlap instead of following one another. Addresses
  // only; nothing is dereferenced.
  static void PrefetchLines(const void* p, size_t bytes) {
    const char* c = static_cast<const char*>(p);
    for (size_t off = 0; off < bytes; off += 64) __builtin_prefetch(c + off, 0, 3);
  }
  // What a search of a node reads first: the header and the prefixes.
  // (Callers know the level from the parent, so n itself is not read.)
  static void PrefetchForSearch(const Node* n, bool leaf) {
    PrefetchLines(n, leaf ? sizeof(Node) + 16 + 8 * kLeafSlots : sizeof(Node) + 8 * kInnerSlots);
  }
  // What a scan reads of a leaf: the header and the entry pointers.
  static void PrefetchForScan(const Leaf* leaf) {
    __builtin_prefetch(leaf, 0, 3);
    PrefetchLines(&leaf->entry[0], 8 * kLeafSlots);
  }
  // The bytes of entry i of a leaf the caller is reading (the slot's line
  // is already cached). relaxed: an unvalidated hint; any value is a valid
  // pointer or null, and a prefetch of either is harmless.
  static void PrefetchEntry(const Leaf* leaf, uint32_t i) {
    __builtin_prefetch(leaf->entry[i].load(std::memory_order_relaxed), 0, 3);
  }

  template <class Slots>
  static uint32_t CountOf(const Slots* n) {
    const uint32_t c = n->count.load(std::memory_order_acquire);
    // A count is only ever stored within capacity; clamp anyway so that no
    // torn state can index past the arrays.
    return c <= Slots::kCapacity ? c : Slots::kCapacity;
  }

  // Number of slots [0, n) of node whose key is < t (kOrEqual: <= t). The
  // result is meaningful only if the node's version is validated after.
  template <bool kOrEqual, class Slots>
  uint32_t Rank(const Slots* node, uint32_t n, const DecodedKey& t, uint64_t t_prefix) const {
    uint32_t lo = 0;
    uint32_t hi = n;
    while (lo < hi) {
      const uint32_t mid = (lo + hi) / 2;
      const uint64_t p = node->prefix[mid].load(std::memory_order_acquire);
      bool counted;
      if (p != t_prefix) {
        counted = p < t_prefix;
      } else {
        const char* k = node->entry[mid].load(std::memory_order_acquire);
        if (k == nullptr) return lo;  // torn read; validation will fail
        const int c = compare_(k, t);
        counted = kOrEqual ? c <= 0 : c < 0;
      }
      if (counted) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  // ---- searches (readers) ----

  // Descends from the root to a leaf, choosing at each inner node the child
  // pick(inner, count) -- an index in [0, count]. Returns the leaf and sets
  // *version to a version read while its parent still routed there.
  template <class Pick>
  const Leaf* Descend(const Pick& pick, uint64_t* version) const;

  // The leaf whose range holds t: separators <= t (kOrEqual) or < t route
  // right.
  template <bool kOrEqual>
  const Leaf* FindLeaf(const DecodedKey& t, uint64_t t_prefix, uint64_t* version) const {
    return Descend([&](const Inner* in, uint32_t n) { return Rank<kOrEqual>(in, n, t, t_prefix); },
                   version);
  }

  // Positions at leaf's first key; false if the leaf changed meanwhile.
  static bool FirstOf(const Leaf* leaf, Position* pos);

  template <btree_internal::SeekMode kMode>
  Position Locate(const DecodedKey& t) const;
  Position LocateFirst() const;
  Position LocateLast() const;

  // ---- inserts (writers) ----

  template <bool kConcurrent>
  bool InsertImpl(const char* key, Leaf** hint);

  // Whether t belongs in leaf's key range (invariant 3 makes the bounds
  // stable). Optimistic: valid only if the leaf's version is then confirmed.
  bool Covers(const Leaf* leaf, const DecodedKey& t, uint64_t t_prefix) const;

  // Adds key to a locked, non-full leaf that covers it; false if an equal
  // key is there (then nothing is written).
  bool InsertIntoLeaf(Leaf* leaf, const char* key, const DecodedKey& t, uint64_t t_prefix);

  // Split `node` (locked, full) under `parent` (locked, not full; null if
  // node is the root). SplitLeaf may put t into the new right leaf instead
  // of splitting in half (the right-edge append); it returns true then.
  bool SplitLeaf(Inner* parent, Leaf* leaf, const char* key, const DecodedKey& t, uint64_t t_prefix,
                 bool rightmost);
  void SplitInner(Inner* parent, Inner* node, bool append);
  // Adds separator sep and its right child `right` to parent (locked, not
  // full) just after child `left`; or, without a parent, grows a new root.
  void AddToParent(Inner* parent, Node* left, const char* sep, uint64_t sep_prefix, Node* right);

  Leaf* NewLeaf();
  Inner* NewInner(uint8_t level);
  void* AllocateNode(size_t bytes);

  bool ValidateNode(const Node* n, int level, const char* lo, const char* hi,
                    std::vector<const Leaf*>* leaves) const;

  // Immutable after construction.
  const Comparator compare_;
  Allocator* const allocator_;
  const uint64_t tree_id_;
  Leaf* const first_leaf_;  // the leftmost leaf, forever (invariant 3)

  // Atomics. release on store (publishes the new root), acquire on load.
  std::atomic<Node*> root_;

  // Used only by the single writer of Insert(); on its own cache line,
  // away from root_ that every reader loads.
  alignas(64) Leaf* seq_hint_ = nullptr;
};

// ---------------------------------------------------------------- nodes

template <class Comparator, int kLeafSlots, int kInnerSlots>
struct BTreeIndex<Comparator, kLeafSlots, kInnerSlots>::Node {
  std::atomic<uint64_t> version{0};  // odd while a writer holds the node
  std::atomic<uint32_t> count{0};    // slots in use
  const uint8_t level;               // 0 for leaves; never changes

  explicit Node(uint8_t lvl) : level(lvl) {}
  bool is_leaf() const { return level == 0; }
};

template <class Comparator, int kLeafSlots, int kInnerSlots>
struct alignas(64) BTreeIndex<Comparator, kLeafSlots, kInnerSlots>::Leaf : Node {
  static constexpr uint32_t kCapacity = kLeafSlots;
  std::atomic<Leaf*> next;  // the next leaf in key order, or null
  // key_prefix of next's first key (0 while next is null): lets a writer
  // test its remembered leaf's upper bound without touching the next leaf.
  std::atomic<uint64_t> next_prefix;
  std::atomic<uint64_t> prefix[kLeafSlots];
  std::atomic<const char*> entry[kLeafSlots];

  Leaf() : Node(0) {
    // relaxed: the leaf is published by a release store of a pointer to it.
    next.store(nullptr, std::memory_order_relaxed);
    next_prefix.store(0, std::memory_order_relaxed);
    for (int i = 0; i < kLeafSlots; i++) {
      prefix[i].store(0, std::memory_order_relaxed);
      entry[i].store(nullptr, std::memory_order_relaxed);
    }
  }
};

template <class Comparator, int kLeafSlots, int kInnerSlots>
struct alignas(64) BTreeIndex<Comparator, kLeafSlots, kInnerSlots>::Inner : Node {
  static constexpr uint32_t kCapacity = kInnerSlots;
  std::atomic<uint64_t> prefix[kInnerSlots];    // of the separators
  std::atomic<const char*> entry[kInnerSlots];  // separators
  std::atomic<Node*> child[kInnerSlots + 1];

  explicit Inner(uint8_t lvl) : Node(lvl) {
    // relaxed: as for Leaf.
    for (int i = 0; i < kInnerSlots; i++) {
      prefix[i].store(0, std::memory_order_relaxed);
      entry[i].store(nullptr, std::memory_order_relaxed);
    }
    for (int i = 0; i <= kInnerSlots; i++) child[i].store(nullptr, std::memory_order_relaxed);
  }
};

// -------------------------------------------------------- construction

template <class Comparator, int kLeafSlots, int kInnerSlots>
BTreeIndex<Comparator, kLeafSlots, kInnerSlots>::BTreeIndex(Comparator cmp, Allocator* allocator,
                                                            int32_t, int32_t)
    : compare_(cmp),
      allocator_(allocator),
      tree_id_(btree_internal::NextTreeId()),
      first_leaf_(NewLeaf()),
      root_(first_leaf_) {}

template <class Comparator, int kLeafSlots, int kInnerSlots>
void* BTreeIndex<Comparator, kLeafSlots, kInnerSlots>::AllocateNode(size_t bytes) {
  // The arena aligns to 16 bytes; round up to a cache line by hand.
  constexpr uintptr_t kLine = 64;
  const auto raw = reinterpret_cast<uintptr_t>(allocator_->AllocateAligned(bytes + kLine - 16));
  return reinterpret_cast<void*>((raw + kLine - 1) & ~(kLine - 1));
}

template <class Comparator, int kLeafSlots, int kInnerSlots>
typename BTreeIndex<Comparator, kLeafSlots, kInnerSlots>::Leaf*
BTreeIndex<Comparator, kLeafSlots, kInnerSlots>::NewLeaf() {
  return new (AllocateNode(sizeof(Leaf))) Leaf();
}

template <class Comparator, int kLeafSlots, int kInnerSlots>
typename BTreeIndex<Comparator, kLeafSlots, kInnerSlots>::Inner*
BTreeIndex<Comparator, kLeafSlots, kInnerSlots>::NewInner(uint8_t level) {
  return new (AllocateNode(sizeof(Inner))) Inner(level);
}

// ------------------------------------------------------------ searches

template <class Comparator, int kLeafSlots, int kInnerSlots>
template <class Pick>
const typename BTreeIndex<Comparator, kLeafSlots, kInnerSlots>::Leaf*
BTreeIndex<Comparator, kLeafSlots, kInnerSlots>::Descend(const Pick& pick,
                                                         uint64_t* version) const {
restart:
  const Node* node = root_.load(std::memory_order_acquire);
  uint64_t v = StableVersion(node);
  // A root split changes root_ while the old root is held: if root_ still
  // names node after we saw node unheld, node was the root at version v.
  if (root_.load(std::memory_order_acquire) != node) goto restart;
  while (!node->is_leaf()) {
    const auto* inner = static_cast<const Inner*>(node);
    const uint32_t i = pick(inner, CountOf(inner));
    const Node* child = inner->child[i].load(std::memory_order_acquire);
    if (child == nullptr) goto restart;  // torn read
    PrefetchForSearch(child, inner->level == 1);
    // The child's version must be read before the parent is validated: a
    // split of the child in between changes the parent too.
    const uint64_t child_v = StableVersion(child);
    if (!Unchanged(inner, v)) goto restart;
    node = child;
    v = child_v;
  }
  *version = v;
  return static_cast<const Leaf*>(node);
}

template <class Comparator, int kLeafSlots, int kInnerSlots>
bool BTreeIndex<Comparator, kLeafSlots, kInnerSlots>::FirstOf(const Leaf* leaf, Position* pos) {
  const uint64_t v = StableVersion(leaf);
  const uint32_t n = CountOf(leaf);
  const char* k = n > 0 ? leaf->entry[0].load(std::memory_order_acquire) : nullptr;
  if (!Unchanged(leaf, v)) return false;
  // Only an empty tree has an empty leaf (invariant 4).
  *pos = Position{leaf, 0, v, k};
  return true;
}

template <class Comparator, int kLeafSlots, int kInnerSlots>
template <btree_internal::SeekMode kMode>
typename BTreeIndex<Comparator, kLeafSlots, kInnerSlots>::Position
BTreeIndex<Comparator, kLeafSlots, kInnerSlots>::Locate(const DecodedKey& t) const {
  constexpr bool kForward = kMode == SeekMode::kGreaterOrEqual || kMode == SeekMode::kGreater;
  // Backward searches for "< t" route equal separators left: the leaf they
  // reach then holds a key < t unless no such key exists (invariant 3).
  constexpr bool kRouteEqualRight = kMode != SeekMode::kLess;
  // In the leaf: count keys < t, or <= t.
  constexpr bool kCountEqual = kMode == SeekMode::kGreater || kMode == SeekMode::kLessOrEqual;
  const uint64_t t_prefix = compare_.decoded_key_prefix(t);
  while (true) {
    uint64_t v;
    const Leaf* leaf = FindLeaf<kRouteEqualRight>(t, t_prefix, &v);
    const uint32_t n = CountOf(leaf);
    const uint32_t r = Rank<kCountEqual>(leaf, n, t, t_prefix);
    if constexpr (kForward) {
      if (r < n) {
        const char* k = leaf->entry[r].load(std::memory_order_acquire);
        if (Unchanged(leaf, v)) return Position{leaf, r, v, k};
        continue;
      }
      // Everything here is before t: the answer is the next leaf's first key.
      const Leaf* next = leaf->next.load(std::memory_order_acquire);
      if (!Unchanged(leaf, v)) continue;
      if (next == nullptr) return Position{};
      Position pos;
      if (FirstOf(next, &pos)) return pos;
    } else {
      const char* k = r > 0 ? leaf->entry[r - 1].load(std::memory_order_acquire) : nullptr;
      if (!Unchanged(leaf, v)) continue;
      return k == nullptr ? Position{} : Position{leaf, r - 1, v, k};
    }
  }
}

template <class Comparator, int kLeafSlots, int kInnerSlots>
double BTreeIndex<Comparator, kLeafSlots, kInnerSlots>::ApproximateRankFraction(
    const char* target) const {
  const DecodedKey t = compare_.decode_key(target);
  const uint64_t t_prefix = compare_.decoded_key_prefix(t);
  constexpr int kMaxPath = 64;  // inner levels; a tree of 2^64 keys has fewer
  while (true) {
    // The child index and fan-out chosen at each inner level. A descent
    // that restarts begins again at the root (a level not below the last
    // one seen), which resets the top; the levels below are overwritten.
    uint32_t pick[kMaxPath];
    uint32_t fanout[kMaxPath];
    int top = 0;
    int last = -1;
    uint64_t v;
    const Leaf* leaf = Descend(
        [&](const Inner* in, uint32_t n) {
          const uint32_t i = Rank<true>(in, n, t, t_prefix);
          const int level = std::min<int>(in->level, kMaxPath - 1);
          if (last < 0 || level >= last) top = level;
          last = level;
          pick[level] = i;
          fanout[level] = n + 1;
          return i;
        },
        &v);
    const uint32_t n = CountOf(leaf);
    const uint32_t r = Rank<false>(leaf, n, t, t_prefix);
    if (!Unchanged(leaf, v)) continue;
    double f = n == 0 ? 0.0 : static_cast<double>(r) / n;
    for (int level = 1; level <= top; ++level) f = (pick[level] + f) / fanout[level];
    return f;
  }
}

template <class Comparator, int kLeafSlots, int kInnerSlots>
typename BTreeIndex<Comparator, kLeafSlots, kInnerSlots>::Position
BTreeIndex<Comparator, kLeafSlots, kInnerSlots>::LocateFirst() const {
  Position pos;
  while (!FirstOf(first_leaf_, &pos)) {
  }
  return pos;
}

template <class Comparator, int kLeafSlots, int kInnerSlots>
typename BTreeIndex<Comparator, kLeafSlots, kInnerSlots>::Position
BTreeIndex<Comparator, kLeafSlots, kInnerSlots>::LocateLast() const {
  while (true) {
    uint64_t v;
    const Leaf* leaf = Descend([](const Inner*, uint32_t n) { return n; }, &v);
    const uint32_t n = CountOf(leaf);
    const char* k = n > 0 ? leaf->entry[n - 1].load(std::memory_order_acquire) : nullptr;
    if (!Unchanged(leaf, v)) continue;
    return k == nullptr ? Position{} : Position{leaf, n - 1, v, k};
  }
}

template <class Comparator, int kLeafSlots, int kInnerSlots>
bool BTreeIndex<Comparator, kLeafSlots, kInnerSlots>::Contains(const char* key) const {
  const DecodedKey t = compare_.decode_key(key);
  const uint64_t t_prefix = compare_.decoded_key_prefix(t);
  while (true) {
    uint64_t v;
    const Leaf* leaf = FindLeaf</*kOrEqual=*/true>(t, t_prefix, &v);
    const uint32_t n = CountOf(leaf);
    const uint32_t r = Rank</*kOrEqual=*/false>(leaf, n, t, t_prefix);
    // The leaf's range holds t, so an equal key can only be at r.
    bool found = false;
    if (r < n && leaf->prefix[r].load(std::memory_order_acquire) == t_prefix) {
      const char* k = leaf->entry[r].load(std::memory_order_acquire);
      found = k != nullptr && compare_(k, t) == 0;
    }
    if (Unchanged(leaf, v)) return found;
  }
}

// ------------------------------------------------------------ iterator

template <class Comparator, int kLeafSlots, int kInnerSlots>
void BTreeIndex<Comparator, kLeafSlots, kInnerSlots>::Iterator::Next() {
  assert(Valid());
  const Leaf* leaf = pos_.leaf;
  if (leaf->version.load(std::memory_order_acquire) == pos_.version) {
    const uint32_t n = CountOf(leaf);
    if (pos_.index + 1 < n) {
      const char* k = leaf->entry[pos_.index + 1].load(std::memory_order_acquire);
      if (Unchanged(leaf, pos_.version)) {
        pos_.index++;
        pos_.key = k;
        // Entries are scattered over the arena: load a few keys ahead.
        if (pos_.index + kScanAhead < n) PrefetchEntry(leaf, pos_.index + kScanAhead);
        return;
      }
    } else {
      const Leaf* next = leaf->next.load(std::memory_order_acquire);
      if (Unchanged(leaf, pos_.version)) {
        if (next == nullptr) {
          pos_ = Position{};
          return;
        }
        if (FirstOf(next, &pos_)) {
          const uint32_t next_n = CountOf(next);
          for (uint32_t i = 1; i <= kScanAhead && i < next_n; i++) PrefetchEntry(next, i);
          // And the leaf after it, one leaf ahead of the scan.
          const Leaf* after = next->next.load(std::memory_order_relaxed);
          if (after != nullptr) PrefetchForScan(after);
          return;
        }
      }
    }
  }
  // The leaf changed under us: find the successor from the root.
  pos_ = tree_->template Locate<SeekMode::kGreater>(tree_->compare_.decode_key(pos_.key));
}

template <class Comparator, int kLeafSlots, int kInnerSlots>
void BTreeIndex<Comparator, kLeafSlots, kInnerSlots>::Iterator::Prev() {
  assert(Valid());
  const Leaf* leaf = pos_.leaf;
  if (pos_.index > 0 && leaf->version.load(std::memory_order_acquire) == pos_.version) {
    const char* k = leaf->entry[pos_.index - 1].load(std::memory_order_acquire);
    if (Unchanged(leaf, pos_.version)) {
      pos_.index--;
      pos_.key = k;
      return;
    }
  }
  // At the leaf's start (leaves have no back links) or the leaf changed.
  pos_ = tree_->template Locate<SeekMode::kLess>(tree_->compare_.decode_key(pos_.key));
}

// ------------------------------------------------------------- inserts

template <class Comparator, int kLeafSlots, int kInnerSlots>
bool BTreeIndex<Comparator, kLeafSlots, kInnerSlots>::InsertConcurrently(const char* key) {
  thread_local ThreadHint hint;
  if (hint.tree_id != tree_id_) {
    hint.tree_id = tree_id_;
    hint.leaf = nullptr;
  }
  return InsertImpl</*kConcurrent=*/true>(key, &hint.leaf);
}

template <class Comparator, int kLeafSlots, int kInnerSlots>
bool BTreeIndex<Comparator, kLeafSlots, kInnerSlots>::Covers(const Leaf* leaf, const DecodedKey& t,
                                                             uint64_t t_prefix) const {
  // Lower bound: the leaf's first key, except for the leftmost leaf.
  if (leaf != first_leaf_) {
    const uint64_t p = leaf->prefix[0].load(std::memory_order_acquire);
    if (p > t_prefix) return false;
    if (p == t_prefix) {
      const char* k = leaf->entry[0].load(std::memory_order_acquire);
      if (k == nullptr || compare_(k, t) > 0) return false;
    }
  }
  // Upper bound: the next leaf's first key, fixed for good (invariant 3).
  // Its prefix is kept here, so only a tie reads the next leaf.
  const Leaf* next = leaf->next.load(std::memory_order_acquire);
  if (next == nullptr) return true;
  const uint64_t p = leaf->next_prefix.load(std::memory_order_acquire);
  if (p != t_prefix) return p > t_prefix;
  const char* k = next->entry[0].load(std::memory_order_acquire);
  return k != nullptr && compare_(k, t) > 0;
}

template <class Comparator, int kLeafSlots, int kInnerSlots>
template <bool kConcurrent>
bool BTreeIndex<Comparator, kLeafSlots, kInnerSlots>::InsertImpl(const char* key, Leaf** hint) {
  const DecodedKey t = compare_.decode_key(key);
  const uint64_t t_prefix = compare_.decoded_key_prefix(t);

  // The remembered leaf first: ascending keys land in it (or just past it).
  if (Leaf* leaf = *hint) {
    const uint64_t v = StableVersion(leaf);
    if (CountOf(leaf) < kLeafSlots && Covers(leaf, t, t_prefix) && Unchanged(leaf, v) &&
        TryLock<kConcurrent>(leaf, v)) {
      // Locked at the version the checks were made against: they still hold.
      const bool added = InsertIntoLeaf(leaf, key, t, t_prefix);
      Unlock(leaf, v, added);
      return added;
    }
  }

  while (true) {
    Node* node = root_.load(std::memory_order_acquire);
    uint64_t v = StableVersion(node);
    if (root_.load(std::memory_order_acquire) != node) continue;
    Inner* parent = nullptr;
    uint64_t parent_v = 0;
    bool rightmost = true;  // every step so far took the last child
    bool restart = false;
    while (!restart) {
      if (!node->is_leaf()) {
        auto* inner = static_cast<Inner*>(node);
        const uint32_t n = CountOf(inner);
        const uint32_t i = Rank</*kOrEqual=*/true>(inner, n, t, t_prefix);
        if (n == kInnerSlots) {
          // Full: split it now, so that a split below finds room here.
          if (parent != nullptr && !TryLock<kConcurrent>(parent, parent_v)) break;
          if (!TryLock<kConcurrent>(inner, v)) {
            if (parent != nullptr) Unlock(parent, parent_v, false);
            break;
          }
          if (parent == nullptr && root_.load(std::memory_order_acquire) != inner) {
            Unlock(inner, v, false);
            break;
          }
          SplitInner(parent, inner, /*append=*/rightmost && i == n);
          Unlock(inner, v, true);
          if (parent != nullptr) Unlock(parent, parent_v, true);
          break;  // search again through the new separator
        }
        Node* child = inner->child[i].load(std::memory_order_acquire);
        if (child == nullptr) break;
        PrefetchForSearch(child, inner->level == 1);
        const uint64_t child_v = StableVersion(child);
        if (!Unchanged(inner, v)) break;
        rightmost = rightmost && i == n;
        parent = inner;
        parent_v = v;
        node = child;
        v = child_v;
        continue;
      }

      auto* leaf = static_cast<Leaf*>(node);
      if (CountOf(leaf) == kLeafSlots) {
        if (parent != nullptr && !TryLock<kConcurrent>(parent, parent_v)) break;
        if (!TryLock<kConcurrent>(leaf, v)) {
          if (parent != nullptr) Unlock(parent, parent_v, false);
          break;
        }
        if (parent == nullptr && root_.load(std::memory_order_acquire) != leaf) {
          Unlock(leaf, v, false);
          break;
        }
        const bool added = SplitLeaf(parent, leaf, key, t, t_prefix, rightmost);
        Unlock(leaf, v, true);
        if (parent != nullptr) Unlock(parent, parent_v, true);
        if (added) {
          *hint = leaf->next.load(std::memory_order_relaxed);  // the new right leaf
          return true;
        }
        break;  // insert into the half that now covers the key
      }
      if (!TryLock<kConcurrent>(leaf, v)) break;
      const bool added = InsertIntoLeaf(leaf, key, t, t_prefix);
      Unlock(leaf, v, added);
      *hint = leaf;
      return added;
    }
    // A node changed under us (or was split by us): start over.
    if constexpr (kConcurrent) btree_internal::CpuRelax();
  }
}

template <class Comparator, int kLeafSlots, int kInnerSlots>
bool BTreeIndex<Comparator, kLeafSlots, kInnerSlots>::InsertIntoLeaf(Leaf* leaf, const char* key,
                                                                     const DecodedKey& t,
                                                                     uint64_t t_prefix) {
  const uint32_t n = leaf->count.load(std::memory_order_relaxed);  // ours while locked
  assert(n < kLeafSlots);
  uint32_t r;
  // Appends (ascending inserts) are decided by one comparison.
  const char* last = n > 0 ? leaf->entry[n - 1].load(std::memory_order_relaxed) : nullptr;
  const uint64_t last_prefix = n > 0 ? leaf->prefix[n - 1].load(std::memory_order_relaxed) : 0;
  if (n == 0 || last_prefix < t_prefix || (last_prefix == t_prefix && compare_(last, t) < 0)) {
    r = n;
  } else {
    r = Rank</*kOrEqual=*/false>(leaf, n, t, t_prefix);
    if (r < n && leaf->prefix[r].load(std::memory_order_relaxed) == t_prefix &&
        compare_(leaf->entry[r].load(std::memory_order_relaxed), t) == 0) {
      return false;
    }
  }
  // Shift from the top so every slot holds a valid pointer throughout.
  // release: see the file comment (seqlock writes).
  for (uint32_t i = n; i > r; i--) {
    leaf->prefix[i].store(leaf->prefix[i - 1].load(std::memory_order_relaxed),
                          std::memory_order_release);
    leaf->entry[i].store(leaf->entry[i - 1].load(std::memory_order_relaxed),
                         std::memory_order_release);
  }
  leaf->prefix[r].store(t_prefix, std::memory_order_release);
  leaf->entry[r].store(key, std::memory_order_release);
  leaf->count.store(n + 1, std::memory_order_release);
  return true;
}

template <class Comparator, int kLeafSlots, int kInnerSlots>
bool BTreeIndex<Comparator, kLeafSlots, kInnerSlots>::SplitLeaf(Inner* parent, Leaf* leaf,
                                                                const char* key,
                                                                const DecodedKey& t,
                                                                uint64_t t_prefix, bool rightmost) {
  const uint32_t n = leaf->count.load(std::memory_order_relaxed);
  assert(n == kLeafSlots);
  Leaf* right = NewLeaf();
  bool added = false;
  // relaxed for right's slots: right is published by release stores below.
  if (rightmost && leaf->next.load(std::memory_order_relaxed) == nullptr) {
    const uint64_t last_prefix = leaf->prefix[n - 1].load(std::memory_order_relaxed);
    added = last_prefix < t_prefix ||
            (last_prefix == t_prefix &&
             compare_(leaf->entry[n - 1].load(std::memory_order_relaxed), t) < 0);
  }
  if (added) {
    // The right-edge append: the new leaf starts with just the key.
    right->prefix[0].store(t_prefix, std::memory_order_relaxed);
    right->entry[0].store(key, std::memory_order_relaxed);
    right->count.store(1, std::memory_order_relaxed);
  } else {
    const uint32_t half = n / 2;
    for (uint32_t i = half; i < n; i++) {
      right->prefix[i - half].store(leaf->prefix[i].load(std::memory_order_relaxed),
                                    std::memory_order_relaxed);
      right->entry[i - half].store(leaf->entry[i].load(std::memory_order_relaxed),
                                   std::memory_order_relaxed);
    }
    right->count.store(n - half, std::memory_order_relaxed);
    leaf->count.store(half, std::memory_order_release);
  }
  right->next.store(leaf->next.load(std::memory_order_relaxed), std::memory_order_relaxed);
  right->next_prefix.store(leaf->next_prefix.load(std::memory_order_relaxed),
                           std::memory_order_relaxed);
  leaf->next_prefix.store(right->prefix[0].load(std::memory_order_relaxed),
                          std::memory_order_release);
  leaf->next.store(right, std::memory_order_release);
  AddToParent(parent, leaf, right->entry[0].load(std::memory_order_relaxed),
              right->prefix[0].load(std::memory_order_relaxed), right);
  return added;
}

template <class Comparator, int kLeafSlots, int kInnerSlots>
void BTreeIndex<Comparator, kLeafSlots, kInnerSlots>::SplitInner(Inner* parent, Inner* node,
                                                                 bool append) {
  const uint32_t n = node->count.load(std::memory_order_relaxed);
  assert(n == kInnerSlots);
  // Separator `mid` moves up; right gets the separators after it and the
  // children from mid + 1. An append keeps all but the last child here.
  const uint32_t mid = append ? n - 1 : n / 2;
  Inner* right = NewInner(node->level);
  // relaxed for right's slots: right is published by release stores below.
  for (uint32_t i = mid + 1; i < n; i++) {
    right->prefix[i - mid - 1].store(node->prefix[i].load(std::memory_order_relaxed),
                                     std::memory_order_relaxed);
    right->entry[i - mid - 1].store(node->entry[i].load(std::memory_order_relaxed),
                                    std::memory_order_relaxed);
  }
  for (uint32_t i = mid + 1; i <= n; i++) {
    right->child[i - mid - 1].store(node->child[i].load(std::memory_order_relaxed),
                                    std::memory_order_relaxed);
  }
  right->count.store(n - mid - 1, std::memory_order_relaxed);
  node->count.store(mid, std::memory_order_release);
  AddToParent(parent, node, node->entry[mid].load(std::memory_order_relaxed),
              node->prefix[mid].load(std::memory_order_relaxed), right);
}

template <class Comparator, int kLeafSlots, int kInnerSlots>
void BTreeIndex<Comparator, kLeafSlots, kInnerSlots>::AddToParent(Inner* parent, Node* left,
                                                                  const char* sep,
                                                                  uint64_t sep_prefix,
                                                                  Node* right) {
  if (parent == nullptr) {
    // left was the root (held by us, so nobody else can replace it).
    Inner* root = NewInner(static_cast<uint8_t>(left->level + 1));
    root->prefix[0].store(sep_prefix, std::memory_order_relaxed);
    root->entry[0].store(sep, std::memory_order_relaxed);
    root->child[0].store(left, std::memory_order_relaxed);
    root->child[1].store(right, std::memory_order_relaxed);
    root->count.store(1, std::memory_order_relaxed);
    root_.store(root, std::memory_order_release);  // publishes the new root's slots
    return;
  }
  const uint32_t n = parent->count.load(std::memory_order_relaxed);
  assert(n < kInnerSlots);
  uint32_t i = 0;
  while (parent->child[i].load(std::memory_order_relaxed) != left) {
    i++;
    assert(i <= n);
  }
  // Separators [i, n) and children [i + 1, n] move up one, from the top.
  parent->child[n + 1].store(parent->child[n].load(std::memory_order_relaxed),
                             std::memory_order_release);
  for (uint32_t j = n; j > i; j--) {
    parent->prefix[j].store(parent->prefix[j - 1].load(std::memory_order_relaxed),
                            std::memory_order_release);
    parent->entry[j].store(parent->entry[j - 1].load(std::memory_order_relaxed),
                           std::memory_order_release);
    parent->child[j].store(parent->child[j - 1].load(std::memory_order_relaxed),
                           std::memory_order_release);
  }
  parent->prefix[i].store(sep_prefix, std::memory_order_release);
  parent->entry[i].store(sep, std::memory_order_release);
  parent->child[i + 1].store(right, std::memory_order_release);
  parent->count.store(n + 1, std::memory_order_release);
}

// ---------------------------------------------------------- validation

template <class Comparator, int kLeafSlots, int kInnerSlots>
bool BTreeIndex<Comparator, kLeafSlots, kInnerSlots>::TEST_Validate() const {
  const Node* root = root_.load(std::memory_order_acquire);
  std::vector<const Leaf*> leaves;
  if (!ValidateNode(root, root->level, nullptr, nullptr, &leaves)) return false;
  // Invariant 4: the chain is the leaves in order.
  const Leaf* l = first_leaf_;
  for (const Leaf* expected : leaves) {
    if (l != expected) return false;
    if (l != root && l->count.load(std::memory_order_relaxed) == 0) return false;
    const Leaf* next = l->next.load(std::memory_order_acquire);
    const uint64_t next_prefix =
        next == nullptr ? 0 : next->prefix[0].load(std::memory_order_relaxed);
    if (l->next_prefix.load(std::memory_order_relaxed) != next_prefix) return false;
    l = next;
  }
  return l == nullptr;
}

// lo: the node's lower bound, which must be its first key (null: the
// leftmost node of its level, unbounded); hi: exclusive upper bound or null.
template <class Comparator, int kLeafSlots, int kInnerSlots>
bool BTreeIndex<Comparator, kLeafSlots, kInnerSlots>::ValidateNode(
    const Node* n, int level, const char* lo, const char* hi,
    std::vector<const Leaf*>* leaves) const {
  if (n->level != level) return false;
  if (n->version.load(std::memory_order_acquire) & 1) return false;
  auto check_keys = [&](const auto* node) {
    const uint32_t count = node->count.load(std::memory_order_relaxed);
    if (count > node->kCapacity) return false;
    for (uint32_t i = 0; i < count; i++) {
      const char* k = node->entry[i].load(std::memory_order_relaxed);
      if (k == nullptr) return false;
      if (node->prefix[i].load(std::memory_order_relaxed) != compare_.key_prefix(k)) return false;
      if (i > 0 && compare_(node->entry[i - 1].load(std::memory_order_relaxed), k) >= 0) {
        return false;
      }
      if (lo != nullptr && compare_(k, lo) < 0) return false;
      if (hi != nullptr && compare_(k, hi) >= 0) return false;
    }
    return true;
  };
  if (n->is_leaf()) {
    const auto* leaf = static_cast<const Leaf*>(n);
    if (!check_keys(leaf)) return false;
    // Invariant 3: a bounded leaf starts with its separator.
    if (lo != nullptr && (leaf->count.load(std::memory_order_relaxed) == 0 ||
                          compare_(leaf->entry[0].load(std::memory_order_relaxed), lo) != 0)) {
      return false;
    }
    if (lo == nullptr && !leaves->empty()) return false;  // only the first is unbounded
    leaves->push_back(leaf);
    return true;
  }
  const auto* inner = static_cast<const Inner*>(n);
  if (!check_keys(inner)) return false;
  const uint32_t count = inner->count.load(std::memory_order_relaxed);
  for (uint32_t i = 0; i <= count; i++) {
    const Node* child = inner->child[i].load(std::memory_order_acquire);
    if (child == nullptr) return false;
    const char* child_lo = i == 0 ? lo : inner->entry[i - 1].load(std::memory_order_relaxed);
    const char* child_hi = i == count ? hi : inner->entry[i].load(std::memory_order_relaxed);
    if (!ValidateNode(child, level - 1, child_lo, child_hi, leaves)) return false;
  }
  return true;
}

}  // namespace strata
