// InlineSkipList: the sorted, insert-only index under a MemTable.
//
// A skip list whose nodes carry their key inline: AllocateKey() makes one
// arena allocation holding the node's links and key_size bytes for the key,
// the caller writes the key there, and Insert() links it in. Nodes are never
// removed; memory is reclaimed only when the arena goes away.
//
// Node layout (one AllocateAligned block):
//
//   [link h-1] ... [link 1] [link 0] [key bytes ...]
//                           ^ Node*  ^ Node::Key()
//   link = { std::atomic<Node*> next; std::atomic<uint64_t> next_prefix; }
//
// A node of height h is on levels 0..h-1; link i points to the next node on
// level i. Heights are drawn at random: a node reaches level i+1 with
// probability 1/branching_factor, capped at max_height.
//
// Key prefixes. Beside each pointer a link keeps key_prefix() of the node it
// points to: a 64-bit summary that never decreases along the order (for the
// memtable, the first 8 bytes of the user key, big-endian). When the prefix
// of the next node already exceeds the target's, a search turns down a level
// without touching that node -- one cache miss saved per level, which is
// most of the cost of a search in a large list. The pointer and the prefix
// are two words, so a reader may see one updated and not the other: readers
// use the prefix only to turn down (always safe -- level 0 is complete and
// is searched with real comparisons). The single writer of Insert() sees its
// own writes, and InsertConcurrently() repairs every prefix it disturbs
// before returning, so the writer may trust them exactly (invariant 5).
//
// Comparator is a copyable functor with
//   using DecodedKey = ...;   // cheap to copy: a search target decoded once
//   DecodedKey decode_key(const char* key) const;
//   int operator()(const char* a, const char* b) const;         // stored keys
//   int operator()(const char* a, const DecodedKey& b) const;   // stored vs target
//   uint64_t key_prefix(const char* key) const;
//   uint64_t decoded_key_prefix(const DecodedKey& key) const;
// where a <= b implies key_prefix(a) <= key_prefix(b) (returning 0 for
// everything is allowed and disables the shortcut). A search decodes its
// target once and then pays only for decoding the stored keys it visits.
//
// Writers. Insert() is for one writer at a time; it keeps a "splice" (the
// nodes before and after the last inserted key on every level) and starts
// the next search from it, so keys inserted in ascending order cost O(1)
// each instead of O(log n). InsertConcurrently() may run in many threads at
// once (links are swung with compare-and-swap); each thread keeps its own
// splice. The two kinds of insert must not overlap in time (the caller
// orders them, e.g. by a mutex hand-off).
//
// Thread-safety: readers (Contains, Iterator) need no lock and may run
// concurrently with any writer; writers are as described above.
// Invariants:
//  1. Every level is sorted by Comparator, strictly (no two equal keys).
//  2. A node is published on level i by a release store/CAS of the link that
//     points to it, after its own link i and its key are written; readers
//     follow links with acquire loads, so a reachable node is complete.
//  3. Level i+1 is a sub-list of level i; head_ is on every level.
//  4. max_height_ only grows; head_'s links above it are null.
//  5. Whenever no insert is in progress, every link's next_prefix equals
//     key_prefix() of the node it points to (0 for null).
#pragma once

#include <atomic>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <new>
#include <thread>

#include "util/arena.h"
#include "util/random.h"

namespace strata {

namespace skiplist_internal {

// Node heights are drawn from a per-thread generator, so concurrent
// inserters never share random state.
inline Random& ThreadRandom() {
  static std::atomic<uint32_t> next_seed{0x2545f491u};
  thread_local Random rnd(
      static_cast<uint32_t>(std::hash<std::thread::id>()(std::this_thread::get_id())) ^
      // relaxed: only needs distinct values per thread
      next_seed.fetch_add(0x9e3779b9u, std::memory_order_relaxed));
  return rnd;
}

// Identifies a list for the per-thread splice cache; never reused, so a
// cached splice can never point into a list that was destroyed.
inline uint64_t NextListId() {
  static std::atomic<uint64_t> next_id{1};
  return next_id.fetch_add(1, std::memory_order_relaxed);  // relaxed: unique ids only
}

}  // namespace skiplist_internal

template <class Comparator>
class InlineSkipList {
 private:
  struct Node;
  struct Splice;

 public:
  using DecodedKey = typename Comparator::DecodedKey;

  // Upper bound for max_height (sizes the splice arrays).
  static constexpr int32_t kMaxPossibleHeight = 32;

  // allocator must outlive the list. max_height is clamped to
  // [1, kMaxPossibleHeight] and branching_factor to at least 2.
  // Allocates the head node.
  explicit InlineSkipList(Comparator cmp, Allocator* allocator, int32_t max_height = 12,
                          int32_t branching_factor = 4);
  InlineSkipList(const InlineSkipList&) = delete;
  InlineSkipList& operator=(const InlineSkipList&) = delete;

  // Returns key_size writable bytes, inside a new unlinked node, for the key
  // that the caller then passes to exactly one Insert or InsertConcurrently.
  // Thread-safe if the allocator is.
  char* AllocateKey(size_t key_size);

  // Links a key returned by AllocateKey. Returns false (and links nothing)
  // if an equal key is already in the list. REQUIRES: no other insert runs
  // at the same time. O(1) when keys arrive in ascending order.
  bool Insert(const char* key);

  // Like Insert, but any number of threads may call it at once.
  bool InsertConcurrently(const char* key);

  // True iff a key equal to key is in the list.
  bool Contains(const char* key) const;

  const Comparator& comparator() const { return compare_; }

  // Test-only: checks invariants 1 and 5 on every level (strict order, and
  // each link's prefix matches its target). REQUIRES: no insert in progress.
  // O(n * levels).
  bool TEST_Validate() const;

  // Walks the list. Holds no reference: the list must outlive it. A key seen
  // once stays valid (nodes are never freed or moved).
  // Thread-safety: not thread-safe; one iterator per thread.
  class Iterator {
   public:
    explicit Iterator(const InlineSkipList* list) : list_(list) {}

    bool Valid() const { return node_ != nullptr; }
    // REQUIRES: Valid()
    const char* key() const {
      assert(Valid());
      return node_->Key();
    }
    // REQUIRES: Valid()
    void Next() {
      assert(Valid());
      node_ = node_->Next(0);
      // Scans walk nodes scattered over the arena: start loading the one
      // after this while the caller works on this one.
      if (node_ != nullptr) __builtin_prefetch(node_->Next(0), 0, 3);
    }
    // REQUIRES: Valid(). O(log n): the list has no back links.
    void Prev() {
      assert(Valid());
      SetOrClear(list_->FindLessThan</*kOrEqual=*/false>(list_->compare_.decode_key(node_->Key())));
    }
    // First key >= target.
    void Seek(const char* target) { SeekDecoded(list_->compare_.decode_key(target)); }
    void SeekDecoded(const DecodedKey& target) { node_ = list_->FindGreaterOrEqual(target); }
    // Last key <= target.
    void SeekForPrev(const char* target) { SeekForPrevDecoded(list_->compare_.decode_key(target)); }
    void SeekForPrevDecoded(const DecodedKey& target) {
      SetOrClear(list_->FindLessThan</*kOrEqual=*/true>(target));
    }
    void SeekToFirst() { node_ = list_->head_->Next(0); }
    void SeekToLast() { SetOrClear(list_->FindLast()); }

   private:
    // The Find* helpers return head_ for "before the first node".
    void SetOrClear(Node* x) { node_ = (x == list_->head_) ? nullptr : x; }

    const InlineSkipList* list_;
    Node* node_ = nullptr;
  };

 private:
  // Search-path cache: prev[i] < key <= next[i] on level i for the key it
  // was computed for. prev[height] / next[height] are head_ / nullptr.
  // Nested: prev[i+1] is at or before prev[i], next[i+1] at or after next[i].
  struct Splice {
    int32_t height = 0;  // levels [0, height) are filled; 0 = empty
    Node* prev[kMaxPossibleHeight + 1];
    Node* next[kMaxPossibleHeight + 1];
  };

  // A thread's splice for InsertConcurrently, tagged with the list it
  // belongs to.
  struct ThreadSplice {
    uint64_t list_id = 0;
    Splice splice;
  };

  int32_t GetMaxHeight() const {
    // relaxed: a stale (smaller) height only makes a search start lower;
    // head_'s links above the true height are null, so a larger one is safe.
    return max_height_.load(std::memory_order_relaxed);
  }

  int32_t RandomHeight();
  Node* AllocateNode(size_t key_size, int32_t height);
  static Node* NodeOf(const char* key) {
    return reinterpret_cast<Node*>(const_cast<char*>(key)) - 1;
  }
  uint64_t PrefixOf(const Node* n) const {
    return n == nullptr ? 0 : compare_.key_prefix(n->Key());
  }

  // True iff n is a real node whose key is < key.
  bool KeyIsAfterNode(const DecodedKey& key, const Node* n) const {
    return n != nullptr && compare_(n->Key(), key) < 0;
  }

  // First node >= key, or nullptr.
  Node* FindGreaterOrEqual(const DecodedKey& key) const;
  // Last node < key (<= key if kOrEqual), or head_.
  template <bool kOrEqual>
  Node* FindLessThan(const DecodedKey& key) const;
  // Last node, or head_ if empty.
  Node* FindLast() const;

  // Starting at before (< key) on level, walks to the pair bracketing key.
  // after, if not null, is a node known to be >= key: the walk stops there
  // without comparing it. kTrustPrefix: the caller is the single writer
  // (invariant 5 holds for what it reads), so prefixes decide exactly.
  template <bool kTrustPrefix>
  void FindSpliceForLevel(const DecodedKey& key, uint64_t key_prefix, Node* before, Node* after,
                          int level, Node** out_prev, Node** out_next) const;
  // Fills splice levels [0, level) from level `level` down.
  template <bool kTrustPrefix>
  void RecomputeSpliceLevels(const DecodedKey& key, uint64_t key_prefix, Splice* splice,
                             int level) const;

  template <bool kConcurrent>
  bool InsertImpl(const char* key, Splice* splice);

  // Immutable after construction.
  const Comparator compare_;
  Allocator* const allocator_;
  const int32_t max_height_limit_;
  const uint32_t scaled_inverse_branching_;  // Random::Next() below this: go up a level
  const uint64_t list_id_;
  Node* const head_;

  // Atomics.
  std::atomic<int32_t> max_height_{1};  // height of the tallest node linked so far

  // Used only by the single writer of Insert(). On its own cache lines:
  // the writer stores to it on every insert, while readers load
  // max_height_ on every search.
  alignas(64) Splice seq_splice_;
};

// --------------------------------------------------------------- Node

template <class Comparator>
struct InlineSkipList<Comparator>::Node {
  struct Link {
    std::atomic<Node*> next;
    std::atomic<uint64_t> next_prefix;  // key_prefix of *next; see the file comment
  };

  // Link 0. Link i (< height) is the i-th Link *before* this one in memory;
  // the key begins right after it.
  Link link0_;

  const char* Key() const { return reinterpret_cast<const char*>(this + 1); }

  Link* GetLink(int level) { return &link0_ - level; }
  const Link* GetLink(int level) const { return &link0_ - level; }

  // acquire: pairs with the release that published the node, so its key
  // and links are visible before we read them.
  Node* Next(int level) const { return GetLink(level)->next.load(std::memory_order_acquire); }
  // relaxed: a hint for readers (see the file comment); exact for the
  // single writer, which wrote it or was handed the list after the repairs
  // of the concurrent writers.
  uint64_t NextPrefix(int level) const {
    return GetLink(level)->next_prefix.load(std::memory_order_relaxed);
  }
  // Single writer: release publishes x (its key and links) to readers that
  // reach it through this link; the prefix is only a hint to them.
  void SetNext(int level, Node* x, uint64_t prefix) {
    Link* link = GetLink(level);
    link->next_prefix.store(prefix, std::memory_order_relaxed);
    link->next.store(x, std::memory_order_release);
  }
  // relaxed: for a node not yet reachable on this level; its publication
  // orders these stores.
  void NoBarrierSetNext(int level, Node* x, uint64_t prefix) {
    Link* link = GetLink(level);
    link->next_prefix.store(prefix, std::memory_order_relaxed);
    link->next.store(x, std::memory_order_relaxed);
  }
  // seq_cst on success: publishes x (release) and takes part in the total
  // order the prefix repair in InsertImpl relies on; relaxed on failure: the
  // caller re-reads the level with acquire loads. (One locked instruction on
  // x86 either way.)
  bool CasNext(int level, Node* expected, Node* x) {
    return GetLink(level)->next.compare_exchange_strong(expected, x, std::memory_order_seq_cst,
                                                        std::memory_order_relaxed);
  }

  // Between AllocateKey and Insert, link 0 holds the node's height (the
  // caller owns the key bytes, so there is nowhere else to keep it).
  // relaxed: the node is private to the inserting thread until linked.
  void StashHeight(int32_t height) {
    link0_.next.store(reinterpret_cast<Node*>(static_cast<uintptr_t>(height)),
                      std::memory_order_relaxed);
  }
  int32_t UnstashHeight() const {
    return static_cast<int32_t>(
        reinterpret_cast<uintptr_t>(link0_.next.load(std::memory_order_relaxed)));
  }
};

// -------------------------------------------------------- construction

template <class Comparator>
InlineSkipList<Comparator>::InlineSkipList(Comparator cmp, Allocator* allocator, int32_t max_height,
                                           int32_t branching_factor)
    : compare_(cmp),
      allocator_(allocator),
      max_height_limit_(max_height < 1                    ? 1
                        : max_height > kMaxPossibleHeight ? kMaxPossibleHeight
                                                          : max_height),
      scaled_inverse_branching_(static_cast<uint32_t>(
          (uint64_t{Random::kMaxNext} + 1) /
          static_cast<uint64_t>(branching_factor < 2 ? 2 : branching_factor))),
      list_id_(skiplist_internal::NextListId()),
      head_(AllocateNode(0, max_height_limit_)) {
  static_assert(sizeof(Node) == sizeof(typename Node::Link), "a node is exactly its link 0");
  assert(max_height >= 1 && max_height <= kMaxPossibleHeight);
  assert(branching_factor >= 2);
  for (int i = 0; i < max_height_limit_; i++) head_->SetNext(i, nullptr, 0);
}

template <class Comparator>
int32_t InlineSkipList<Comparator>::RandomHeight() {
  Random& rnd = skiplist_internal::ThreadRandom();
  int32_t height = 1;
  while (height < max_height_limit_ && rnd.Next() < scaled_inverse_branching_) height++;
  return height;
}

template <class Comparator>
typename InlineSkipList<Comparator>::Node* InlineSkipList<Comparator>::AllocateNode(
    size_t key_size, int32_t height) {
  using Link = typename Node::Link;
  const size_t prefix = sizeof(Link) * static_cast<size_t>(height - 1);
  char* raw = allocator_->AllocateAligned(prefix + sizeof(Node) + key_size);
  // Start the lifetime of every link; all are written again when the node
  // is linked, and link 0 first holds the stashed height.
  for (int32_t i = 0; i < height; i++) new (raw + i * sizeof(Link)) Link{};
  Node* x = reinterpret_cast<Node*>(raw + prefix);
  x->StashHeight(height);
  return x;
}

template <class Comparator>
char* InlineSkipList<Comparator>::AllocateKey(size_t key_size) {
  return const_cast<char*>(AllocateNode(key_size, RandomHeight())->Key());
}

template <class Comparator>
bool InlineSkipList<Comparator>::TEST_Validate() const {
  for (int level = 0; level < GetMaxHeight(); level++) {
    for (const Node* x = head_; x != nullptr; x = x->Next(level)) {
      const Node* next = x->Next(level);
      if (x->NextPrefix(level) != PrefixOf(next)) return false;
      if (x != head_ && next != nullptr && compare_(x->Key(), next->Key()) >= 0) return false;
    }
  }
  return true;
}

// ------------------------------------------------------------ searches

// All searches go top-down: move right while the next node is before the
// key, else go down a level. Two shortcuts keep them from touching nodes:
// "last_bigger" remembers the node that sent us down, so the level below
// stops there without comparing it again; and above level 0 a link whose
// prefix exceeds the target's sends us down without reading the node (a
// hint only, so it never sets last_bigger). Prefetches: the node below
// (where a step down goes next) as soon as we stand on a node, and the node
// after `next` once we know we are comparing `next`.

template <class Comparator>
typename InlineSkipList<Comparator>::Node* InlineSkipList<Comparator>::FindGreaterOrEqual(
    const DecodedKey& key) const {
  const uint64_t key_prefix = compare_.decoded_key_prefix(key);
  Node* x = head_;
  int level = GetMaxHeight() - 1;
  const Node* last_bigger = nullptr;
  while (true) {
    Node* next = x->Next(level);
    if (level > 0) __builtin_prefetch(x->Next(level - 1), 0, 3);
    int cmp;
    if (next == nullptr || next == last_bigger) {
      cmp = 1;
    } else if (level > 0 && x->NextPrefix(level) > key_prefix) {
      level--;  // next is past the key (hint)
      continue;
    } else {
      __builtin_prefetch(next->Next(level), 0, 3);
      cmp = compare_(next->Key(), key);
    }
    if (cmp < 0) {
      x = next;
    } else if (cmp == 0 || level == 0) {
      return next;
    } else {
      last_bigger = next;
      level--;
    }
  }
}

template <class Comparator>
template <bool kOrEqual>
typename InlineSkipList<Comparator>::Node* InlineSkipList<Comparator>::FindLessThan(
    const DecodedKey& key) const {
  const uint64_t key_prefix = compare_.decoded_key_prefix(key);
  Node* x = head_;
  int level = GetMaxHeight() - 1;
  const Node* last_bigger = nullptr;
  while (true) {
    Node* next = x->Next(level);
    if (level > 0) __builtin_prefetch(x->Next(level - 1), 0, 3);
    bool advance = false;
    if (next != nullptr && next != last_bigger) {
      if (level > 0 && x->NextPrefix(level) > key_prefix) {
        level--;  // next is past the key (hint)
        continue;
      }
      __builtin_prefetch(next->Next(level), 0, 3);
      const int cmp = compare_(next->Key(), key);
      advance = kOrEqual ? cmp <= 0 : cmp < 0;
    }
    if (advance) {
      x = next;
    } else if (level == 0) {
      return x;
    } else {
      last_bigger = next;
      level--;
    }
  }
}

template <class Comparator>
typename InlineSkipList<Comparator>::Node* InlineSkipList<Comparator>::FindLast() const {
  Node* x = head_;
  int level = GetMaxHeight() - 1;
  while (true) {
    Node* next = x->Next(level);
    if (next != nullptr) {
      x = next;
    } else if (level == 0) {
      return x;
    } else {
      level--;
    }
  }
}

template <class Comparator>
bool InlineSkipList<Comparator>::Contains(const char* key) const {
  const DecodedKey decoded = compare_.decode_key(key);
  const Node* x = FindGreaterOrEqual(decoded);
  return x != nullptr && compare_(x->Key(), decoded) == 0;
}

template <class Comparator>
template <bool kTrustPrefix>
void InlineSkipList<Comparator>::FindSpliceForLevel(const DecodedKey& key, uint64_t key_prefix,
                                                    Node* before, Node* after, int level,
                                                    Node** out_prev, Node** out_next) const {
  while (true) {
    Node* next = before->Next(level);
    if (level > 0) __builtin_prefetch(before->Next(level - 1), 0, 3);
    bool next_is_before_key;
    if (next == after || next == nullptr) {
      next_is_before_key = false;
    } else if (kTrustPrefix && before->NextPrefix(level) != key_prefix) {
      // Exact for the single writer: decided without reading next.
      next_is_before_key = before->NextPrefix(level) < key_prefix;
    } else {
      __builtin_prefetch(next->Next(level), 0, 3);
      next_is_before_key = KeyIsAfterNode(key, next);
    }
    if (!next_is_before_key) {
      *out_prev = before;
      *out_next = next;
      return;
    }
    before = next;
  }
}

template <class Comparator>
template <bool kTrustPrefix>
void InlineSkipList<Comparator>::RecomputeSpliceLevels(const DecodedKey& key, uint64_t key_prefix,
                                                       Splice* splice, int level) const {
  for (int i = level - 1; i >= 0; i--) {
    FindSpliceForLevel<kTrustPrefix>(key, key_prefix, splice->prev[i + 1], splice->next[i + 1], i,
                                     &splice->prev[i], &splice->next[i]);
  }
}

// ------------------------------------------------------------- inserts

template <class Comparator>
bool InlineSkipList<Comparator>::Insert(const char* key) {
  return InsertImpl</*kConcurrent=*/false>(key, &seq_splice_);
}

template <class Comparator>
bool InlineSkipList<Comparator>::InsertConcurrently(const char* key) {
  thread_local ThreadSplice cached;
  if (cached.list_id != list_id_) {
    cached.list_id = list_id_;
    cached.splice.height = 0;
  }
  return InsertImpl</*kConcurrent=*/true>(key, &cached.splice);
}

template <class Comparator>
template <bool kConcurrent>
bool InlineSkipList<Comparator>::InsertImpl(const char* key, Splice* splice) {
  Node* x = NodeOf(key);
  const DecodedKey decoded = compare_.decode_key(key);
  const uint64_t key_prefix = compare_.decoded_key_prefix(decoded);
  const int height = x->UnstashHeight();
  assert(height >= 1 && height <= max_height_limit_);

  int max_height = GetMaxHeight();
  while (height > max_height) {
    // relaxed: see GetMaxHeight(); on failure max_height is reloaded.
    if (max_height_.compare_exchange_weak(max_height, height, std::memory_order_relaxed)) {
      max_height = height;
      break;
    }
  }

  // Whether next, the node after prev on a level, is before the key. When
  // the link prev -> next is tight, the single writer can read the answer
  // off the link's prefix unless the prefixes tie, without touching next.
  auto next_is_before_key = [&](const Node* prev, const Node* next, int level) {
    if (next == nullptr) return false;
    if constexpr (!kConcurrent) {
      const uint64_t next_prefix = prev->NextPrefix(level);
      if (next_prefix != key_prefix) return next_prefix < key_prefix;
    }
    return KeyIsAfterNode(decoded, next);
  };

  // Find the lowest level at which the cached splice still brackets the key
  // (and nothing was inserted inside the bracket); every level below it is
  // searched again, starting from that bracket.
  int recompute_height = 0;
  if (splice->height < max_height) {
    // Empty, or the list grew taller than the splice: search from the top.
    splice->prev[max_height] = head_;
    splice->next[max_height] = nullptr;
    splice->height = max_height;
    recompute_height = max_height;
  } else {
    // Levels at and above splice->height hold the head_/nullptr sentinel,
    // which brackets every key, so the loop ends there at the latest.
    while (recompute_height < max_height) {
      Node* prev = splice->prev[recompute_height];
      Node* next = splice->next[recompute_height];
      if (prev->Next(recompute_height) != next) {
        // Something was inserted in between: the bracket is stale.
        recompute_height++;
      } else if (prev != head_ && !KeyIsAfterNode(decoded, prev)) {
        // The key is at or before prev, so it is before prev on every level
        // that shares this prev too: skip them without comparing.
        do {
          recompute_height++;
        } while (recompute_height < max_height && splice->prev[recompute_height] == prev);
      } else if (next_is_before_key(prev, next, recompute_height)) {
        // The key is after next; likewise for the levels sharing it.
        do {
          recompute_height++;
        } while (recompute_height < max_height && splice->next[recompute_height] == next);
      } else {
        break;  // prev < key <= next, and the bracket is tight
      }
    }
  }
  if (recompute_height > 0) {
    RecomputeSpliceLevels<!kConcurrent>(decoded, key_prefix, splice, recompute_height);
  }

  bool splice_is_valid = true;
  if constexpr (!kConcurrent) {
    for (int i = 0; i < height; i++) {
      if (i >= recompute_height && splice->prev[i]->Next(i) != splice->next[i]) {
        // Above the recomputed levels a bracket may still be loose (only
        // after an InsertConcurrently phase); narrow it from prev, which is
        // still before the key.
        FindSpliceForLevel<true>(decoded, key_prefix, splice->prev[i], nullptr, i, &splice->prev[i],
                                 &splice->next[i]);
      }
      // prev -> next is a tight link here, so its prefix is next's.
      const uint64_t next_prefix = splice->prev[i]->NextPrefix(i);
      if (i == 0 && splice->next[0] != nullptr && next_prefix == key_prefix &&
          compare_(splice->next[0]->Key(), decoded) == 0) {
        return false;  // duplicate; nothing linked, splice still valid
      }
      x->NoBarrierSetNext(i, splice->next[i], next_prefix);
      splice->prev[i]->SetNext(i, x, key_prefix);
    }
  } else {
    for (int i = 0; i < height; i++) {
      while (true) {
        Node* next = splice->next[i];
        if (i == 0 && next != nullptr && compare_(next->Key(), decoded) == 0) {
          return false;  // duplicate; nothing linked
        }
        // Another writer may be changing prev's link prefix right now, so
        // take next's prefix from next itself.
        x->NoBarrierSetNext(i, next, PrefixOf(next));
        if (splice->prev[i]->CasNext(i, next, x)) break;
        // Another thread linked a node between prev and next: narrow the
        // bracket from prev (still before the key) and try again.
        FindSpliceForLevel<false>(decoded, key_prefix, splice->prev[i], nullptr, i,
                                  &splice->prev[i], &splice->next[i]);
        // Level i moved independently of level i-1: the nesting of the
        // splice is no longer guaranteed, so do not reuse it.
        if (i > 0) splice_is_valid = false;
      }
      // Make prev's prefix describe whatever prev now points to. Racing
      // writers of this link all run this loop after their CAS; the one that
      // stores last re-reads the pointer after its store (seq_cst orders
      // the store before the load, and the CAS before both), so the link
      // ends up consistent: invariant 5.
      auto& link = *splice->prev[i]->GetLink(i);
      Node* target = x;
      while (true) {
        link.next_prefix.store(PrefixOf(target), std::memory_order_seq_cst);
        Node* now = link.next.load(std::memory_order_seq_cst);
        if (now == target) break;
        target = now;
      }
    }
  }

  if (splice_is_valid) {
    // The next key in ascending order lands right after x on every level x
    // is on; the levels above keep their (still bracketing) nodes.
    for (int i = 0; i < height; i++) splice->prev[i] = x;
  } else {
    splice->height = 0;
  }
  return true;
}

}  // namespace strata
