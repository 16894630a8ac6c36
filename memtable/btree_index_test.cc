#include "memtable/btree_index.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include "test_util/testutil.h"
#include "util/arena.h"

namespace strata {
namespace {

using Key = uint64_t;

// How much the key prefix says: the whole key, the key without its low 5
// bits (so neighbouring keys tie and need a real comparison), or nothing.
enum class PrefixMode { kExact, kCoarse, kNone };

// Keys are 8-byte host-order integers; the decoded form is the integer.
// Optionally counts comparisons (single-threaded tests only).
struct TestComparator {
  using DecodedKey = Key;
  uint64_t* count = nullptr;
  PrefixMode prefix_mode = PrefixMode::kExact;

  static Key Decode(const char* p) {
    Key k;
    memcpy(&k, p, sizeof(k));
    return k;
  }
  DecodedKey decode_key(const char* key) const { return Decode(key); }
  int operator()(const char* a, const char* b) const { return Compare(Decode(a), Decode(b)); }
  int operator()(const char* a, const DecodedKey& b) const { return Compare(Decode(a), b); }
  uint64_t key_prefix(const char* key) const { return decoded_key_prefix(Decode(key)); }
  uint64_t decoded_key_prefix(const DecodedKey& key) const {
    switch (prefix_mode) {
      case PrefixMode::kExact:
        return key;
      case PrefixMode::kCoarse:
        return key >> 5;
      case PrefixMode::kNone:
      default:
        return 0;
    }
  }

 private:
  int Compare(Key a, Key b) const {
    if (count != nullptr) ++*count;
    return a < b ? -1 : (a > b ? 1 : 0);
  }
};

TestComparator MakeComparator(PrefixMode mode, uint64_t* count = nullptr) {
  TestComparator cmp;
  cmp.prefix_mode = mode;
  cmp.count = count;
  return cmp;
}

struct Encoded {
  explicit Encoded(Key k) { memcpy(buf, &k, sizeof(k)); }
  char buf[sizeof(Key)];
};

template <class Tree>
bool InsertKey(Tree* tree, Key k, bool concurrent = false) {
  char* buf = tree->AllocateKey(sizeof(k));
  memcpy(buf, &k, sizeof(k));
  return concurrent ? tree->InsertConcurrently(buf) : tree->Insert(buf);
}

template <class Tree>
bool TreeContains(const Tree& tree, Key k) {
  return tree.Contains(Encoded(k).buf);
}

// Checks the tree against the model: membership, both iteration orders,
// Seek and SeekForPrev (then a step each way) for every key in
// [0, key_limit + 1].
template <class Tree>
void CheckAgainstModel(const Tree& tree, const std::set<Key>& model, Key key_limit) {
  for (Key k = 0; k <= key_limit; k++) {
    ASSERT_EQ(TreeContains(tree, k), model.count(k) == 1) << "key " << k;
  }

  typename Tree::Iterator it(&tree);
  it.SeekToFirst();
  for (Key k : model) {
    ASSERT_TRUE(it.Valid());
    ASSERT_EQ(TestComparator::Decode(it.key()), k);
    it.Next();
  }
  ASSERT_FALSE(it.Valid());

  it.SeekToLast();
  for (auto r = model.rbegin(); r != model.rend(); ++r) {
    ASSERT_TRUE(it.Valid());
    ASSERT_EQ(TestComparator::Decode(it.key()), *r);
    it.Prev();
  }
  ASSERT_FALSE(it.Valid());

  for (Key target = 0; target <= key_limit + 1; target++) {
    Encoded t(target);
    it.Seek(t.buf);
    auto ge = model.lower_bound(target);
    if (ge == model.end()) {
      ASSERT_FALSE(it.Valid()) << "Seek " << target;
    } else {
      ASSERT_TRUE(it.Valid()) << "Seek " << target;
      ASSERT_EQ(TestComparator::Decode(it.key()), *ge);
      it.Prev();
      if (ge == model.begin()) {
        ASSERT_FALSE(it.Valid());
      } else {
        ASSERT_TRUE(it.Valid());
        ASSERT_EQ(TestComparator::Decode(it.key()), *std::prev(ge));
        it.Next();
        ASSERT_EQ(TestComparator::Decode(it.key()), *ge);
      }
    }

    it.SeekForPrev(t.buf);
    auto gt = model.upper_bound(target);
    if (gt == model.begin()) {
      ASSERT_FALSE(it.Valid()) << "SeekForPrev " << target;
    } else {
      ASSERT_TRUE(it.Valid()) << "SeekForPrev " << target;
      ASSERT_EQ(TestComparator::Decode(it.key()), *std::prev(gt));
      it.Next();
      if (gt == model.end()) {
        ASSERT_FALSE(it.Valid());
      } else {
        ASSERT_EQ(TestComparator::Decode(it.key()), *gt);
      }
    }
  }
}

// The tree shapes under test: tiny nodes (deep trees, a split every few
// inserts), odd sizes, and the default.
template <int kLeaf, int kInner, PrefixMode kPrefix>
struct Config {
  using Tree = BTreeIndex<TestComparator, kLeaf, kInner>;
  static constexpr PrefixMode kPrefixMode = kPrefix;
};

using Configs =
    ::testing::Types<Config<4, 3, PrefixMode::kExact>, Config<4, 3, PrefixMode::kCoarse>,
                     Config<5, 4, PrefixMode::kNone>, Config<30, 30, PrefixMode::kExact>,
                     Config<30, 30, PrefixMode::kCoarse>, Config<30, 30, PrefixMode::kNone>,
                     Config<62, 16, PrefixMode::kExact>, Config<62, 30, PrefixMode::kCoarse>>;

template <class C>
class BTreeIndexTest : public ::testing::Test {};
TYPED_TEST_SUITE(BTreeIndexTest, Configs);

TYPED_TEST(BTreeIndexTest, Empty) {
  using Tree = typename TypeParam::Tree;
  Arena arena;
  Tree tree(MakeComparator(TypeParam::kPrefixMode), &arena);
  EXPECT_FALSE(TreeContains(tree, 10));
  typename Tree::Iterator it(&tree);
  EXPECT_FALSE(it.Valid());
  it.SeekToFirst();
  EXPECT_FALSE(it.Valid());
  it.SeekToLast();
  EXPECT_FALSE(it.Valid());
  Encoded t(100);
  it.Seek(t.buf);
  EXPECT_FALSE(it.Valid());
  it.SeekForPrev(t.buf);
  EXPECT_FALSE(it.Valid());
  EXPECT_TRUE(tree.TEST_Validate());
}

TYPED_TEST(BTreeIndexTest, RandomInsertsMatchModel) {
  using Tree = typename TypeParam::Tree;
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  Arena arena;
  Tree tree(MakeComparator(TypeParam::kPrefixMode), &arena);
  std::set<Key> model;
  constexpr Key kLimit = 3000;
  for (int i = 0; i < 2000; i++) {
    const Key k = rng() % kLimit;
    const bool fresh = model.insert(k).second;
    ASSERT_EQ(InsertKey(&tree, k), fresh) << "key " << k << " seed " << seed;
    if (i % 250 == 0) {
      ASSERT_TRUE(tree.TEST_Validate()) << "after " << i << " seed " << seed;
    }
  }
  ASSERT_TRUE(tree.TEST_Validate());
  CheckAgainstModel(tree, model, kLimit);
}

TYPED_TEST(BTreeIndexTest, SequentialAndRandomInsertsMixed) {
  using Tree = typename TypeParam::Tree;
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  Arena arena;
  Tree tree(MakeComparator(TypeParam::kPrefixMode), &arena);
  std::set<Key> model;
  auto add = [&](Key k) {
    const bool fresh = model.insert(k).second;
    ASSERT_EQ(InsertKey(&tree, k), fresh) << "key " << k << " seed " << seed;
  };
  // Ascending runs (the hint and the right-edge split), a descending run,
  // random keys, and short ascending runs at random places, interleaved.
  for (Key k = 1000; k < 2000; k += 3) ASSERT_NO_FATAL_FAILURE(add(k));
  ASSERT_TRUE(tree.TEST_Validate());
  for (int k = 999; k > 0; k -= 5) ASSERT_NO_FATAL_FAILURE(add(static_cast<Key>(k)));
  ASSERT_TRUE(tree.TEST_Validate());
  for (int round = 0; round < 40; round++) {
    for (int i = 0; i < 10; i++) ASSERT_NO_FATAL_FAILURE(add(rng() % 4000));
    const Key start = rng() % 4000;
    for (Key k = start; k < start + 30; k++) ASSERT_NO_FATAL_FAILURE(add(k));
  }
  ASSERT_TRUE(tree.TEST_Validate());
  for (Key k = 4000; k < 4500; k++) ASSERT_NO_FATAL_FAILURE(add(k));
  ASSERT_TRUE(tree.TEST_Validate());
  CheckAgainstModel(tree, model, 4600);
}

// Every key inserted twice: the second insert must be refused, through the
// hint (ascending) and through the descent (random).
TYPED_TEST(BTreeIndexTest, DuplicatesRejected) {
  using Tree = typename TypeParam::Tree;
  Arena arena;
  Tree tree(MakeComparator(TypeParam::kPrefixMode), &arena);
  for (Key k = 0; k < 2000; k++) {
    ASSERT_TRUE(InsertKey(&tree, k));
    ASSERT_FALSE(InsertKey(&tree, k));
  }
  std::vector<Key> keys(2000);
  for (Key k = 0; k < 2000; k++) keys[k] = k;
  std::shuffle(keys.begin(), keys.end(), std::mt19937_64(test::RandomSeed()));
  for (Key k : keys) ASSERT_FALSE(InsertKey(&tree, k)) << k;
  for (Key k : keys) ASSERT_FALSE(InsertKey(&tree, k, /*concurrent=*/true)) << k;
  ASSERT_TRUE(tree.TEST_Validate());
  typename Tree::Iterator it(&tree);
  Key expected = 0;
  for (it.SeekToFirst(); it.Valid(); it.Next()) {
    ASSERT_EQ(TestComparator::Decode(it.key()), expected++);
  }
  EXPECT_EQ(expected, 2000u);
}

// An iterator parked on a key while inserts split its leaf (and the leaves
// and inner nodes around it) steps to the key's current neighbours.
TYPED_TEST(BTreeIndexTest, IteratorSurvivesSplits) {
  using Tree = typename TypeParam::Tree;
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  Arena arena;
  Tree tree(MakeComparator(TypeParam::kPrefixMode), &arena);
  std::set<Key> model;
  for (int i = 0; i < 200; i++) {
    const Key k = rng() % 100000;
    ASSERT_EQ(InsertKey(&tree, k), model.insert(k).second);
  }
  typename Tree::Iterator it(&tree);
  for (int round = 0; round < 300; round++) {
    // Park on a random present key.
    auto pick = model.lower_bound(rng() % 100000);
    if (pick == model.end()) pick = model.begin();
    const Key parked = *pick;
    it.Seek(Encoded(parked).buf);
    ASSERT_TRUE(it.Valid());
    ASSERT_EQ(TestComparator::Decode(it.key()), parked);
    // Insert around it: near neighbours (into its leaf) and far keys.
    for (int i = 0; i < 40; i++) {
      const Key k = (i % 2 == 0) ? parked - 20 + rng() % 41 : rng() % 100000;
      ASSERT_EQ(InsertKey(&tree, k), model.insert(k).second);
    }
    auto at = model.find(parked);
    if (round % 2 == 0) {
      it.Next();
      auto next = std::next(at);
      ASSERT_EQ(it.Valid(), next != model.end()) << "round " << round << " seed " << seed;
      if (it.Valid()) {
        ASSERT_EQ(TestComparator::Decode(it.key()), *next) << "seed " << seed;
      }
    } else {
      it.Prev();
      ASSERT_EQ(it.Valid(), at != model.begin()) << "round " << round << " seed " << seed;
      if (it.Valid()) {
        ASSERT_EQ(TestComparator::Decode(it.key()), *std::prev(at)) << "seed " << seed;
      }
    }
  }
  ASSERT_TRUE(tree.TEST_Validate());
}

// A full forward and backward scan agree with the model after many random
// inserts (larger than CheckAgainstModel's exhaustive range).
TYPED_TEST(BTreeIndexTest, LargeRandomScan) {
  using Tree = typename TypeParam::Tree;
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  Arena arena;
  Tree tree(MakeComparator(TypeParam::kPrefixMode), &arena);
  std::set<Key> model;
  for (int i = 0; i < 50000; i++) {
    const Key k = rng() >> 20;
    ASSERT_EQ(InsertKey(&tree, k), model.insert(k).second);
  }
  ASSERT_TRUE(tree.TEST_Validate());
  typename Tree::Iterator it(&tree);
  it.SeekToFirst();
  for (Key k : model) {
    ASSERT_TRUE(it.Valid());
    ASSERT_EQ(TestComparator::Decode(it.key()), k);
    it.Next();
  }
  ASSERT_FALSE(it.Valid());
  it.SeekToLast();
  for (auto r = model.rbegin(); r != model.rend(); ++r) {
    ASSERT_TRUE(it.Valid());
    ASSERT_EQ(TestComparator::Decode(it.key()), *r);
    it.Prev();
  }
  ASSERT_FALSE(it.Valid());
  // Random targets, most of them absent.
  for (int i = 0; i < 20000; i++) {
    const Key target = rng() >> 20;
    Encoded t(target);
    it.Seek(t.buf);
    auto ge = model.lower_bound(target);
    ASSERT_EQ(it.Valid(), ge != model.end());
    if (it.Valid()) {
      ASSERT_EQ(TestComparator::Decode(it.key()), *ge);
    }
    it.SeekForPrev(t.buf);
    auto gt = model.upper_bound(target);
    ASSERT_EQ(it.Valid(), gt != model.begin());
    if (it.Valid()) {
      ASSERT_EQ(TestComparator::Decode(it.key()), *std::prev(gt));
    }
    ASSERT_EQ(TreeContains(tree, target), model.count(target) == 1);
  }
}

// Ascending inserts go through the remembered leaf: O(1) comparisons each,
// where random inserts pay O(log n); and the right-edge split packs leaves.
TEST(BTreeIndexTest, AscendingInsertsUseTheHint) {
  using Tree = BTreeIndex<TestComparator>;
  constexpr int kN = 100000;
  uint64_t sequential_compares = 0;
  int sequential_height = 0;
  {
    Arena arena;
    Tree tree(MakeComparator(PrefixMode::kNone, &sequential_compares), &arena);
    for (Key k = 0; k < kN; k++) ASSERT_TRUE(InsertKey(&tree, k));
    sequential_height = tree.TEST_Height();
    const uint64_t insert_compares = sequential_compares;
    ASSERT_TRUE(tree.TEST_Validate());
    sequential_compares = insert_compares;
  }
  uint64_t random_compares = 0;
  {
    Arena arena;
    Tree tree(MakeComparator(PrefixMode::kNone, &random_compares), &arena);
    std::vector<Key> keys(kN);
    for (Key k = 0; k < kN; k++) keys[k] = k;
    std::shuffle(keys.begin(), keys.end(), std::mt19937_64(test::RandomSeed()));
    for (Key k : keys) ASSERT_TRUE(InsertKey(&tree, k));
  }
  EXPECT_LT(sequential_compares, 4u * kN);
  EXPECT_GT(random_compares, 10u * kN);
  // 100K keys in full 62-slot leaves: 1613 leaves, 3 full levels above them
  // (half-full ones would need a fourth).
  EXPECT_LE(sequential_height, 4);
}

// With exact prefixes a search reads almost no entry bytes.
TEST(BTreeIndexTest, PrefixesSaveComparisons) {
  using Tree = BTreeIndex<TestComparator>;
  constexpr int kN = 100000;
  std::vector<Key> keys(kN);
  for (Key k = 0; k < kN; k++) keys[k] = k;
  std::shuffle(keys.begin(), keys.end(), std::mt19937_64(test::RandomSeed()));
  uint64_t compares[2] = {0, 0};
  for (int exact = 0; exact < 2; exact++) {
    Arena arena;
    Tree tree(MakeComparator(exact ? PrefixMode::kExact : PrefixMode::kNone, &compares[exact]),
              &arena);
    for (Key k : keys) ASSERT_TRUE(InsertKey(&tree, k));
    for (Key k : keys) ASSERT_TRUE(TreeContains(tree, k));
    ASSERT_FALSE(TreeContains(tree, kN));
  }
  EXPECT_LT(compares[1] * 5, compares[0]);
}

// ------------------------------------------------------------ concurrency

// Progress of the writers: writer t has finished inserting keys[t][0, done).
struct Progress {
  const std::vector<std::vector<Key>>* keys;
  std::vector<std::atomic<size_t>> done;
  explicit Progress(const std::vector<std::vector<Key>>* k) : keys(k), done(k->size()) {
    for (auto& d : done) d.store(0);
  }
};

// Readers walk the tree while writers insert. Each pass must be strictly
// sorted, contain every key the reader saw in its previous pass, and every
// key whose insert had returned before the pass began. Seeks to random
// keys, and steps both ways from them, must agree with the pass.
template <class Tree>
void ReaderLoop(const Tree* tree, const Progress* progress, const std::atomic<bool>* stop,
                std::atomic<int>* failures, std::atomic<uint64_t>* passes, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Key> previous;
  std::vector<Key> current;
  std::vector<size_t> done_at_start(progress->done.size());
  while (!stop->load(std::memory_order_acquire)) {
    for (size_t t = 0; t < done_at_start.size(); t++) {
      done_at_start[t] = progress->done[t].load(std::memory_order_acquire);
    }
    current.clear();
    typename Tree::Iterator it(tree);
    for (it.SeekToFirst(); it.Valid(); it.Next()) {
      const Key k = TestComparator::Decode(it.key());
      if (!current.empty() && current.back() >= k) failures->fetch_add(1);
      current.push_back(k);
    }
    if (!std::includes(current.begin(), current.end(), previous.begin(), previous.end())) {
      failures->fetch_add(1);
    }
    for (size_t t = 0; t < done_at_start.size(); t++) {
      const std::vector<Key>& keys = (*progress->keys)[t];
      for (size_t i = 0; i < done_at_start[t]; i++) {
        if (!std::binary_search(current.begin(), current.end(), keys[i])) {
          failures->fetch_add(1);
          break;
        }
      }
    }
    // A backward scan is strictly descending.
    Key last = ~Key{0};
    bool first = true;
    for (it.SeekToLast(); it.Valid(); it.Prev()) {
      const Key k = TestComparator::Decode(it.key());
      if (!first && k >= last) {
        failures->fetch_add(1);
        break;
      }
      first = false;
      last = k;
    }
    // Membership of earlier keys through the search path.
    for (size_t i = 0; i < previous.size(); i += 37) {
      if (!TreeContains(*tree, previous[i])) failures->fetch_add(1);
    }
    // Random seeks: the answer is a key at least the target, and no key of
    // this pass lies between them (keys are never removed).
    if (!current.empty()) {
      for (int i = 0; i < 200; i++) {
        const Key target = current[rng() % current.size()] + (rng() % 3) - 1;
        Encoded t(target);
        it.Seek(t.buf);
        auto ge = std::lower_bound(current.begin(), current.end(), target);
        if (ge != current.end()) {
          if (!it.Valid() || TestComparator::Decode(it.key()) < target ||
              TestComparator::Decode(it.key()) > *ge) {
            failures->fetch_add(1);
          } else {
            const Key at = TestComparator::Decode(it.key());
            it.Prev();
            if (it.Valid() && TestComparator::Decode(it.key()) >= at) failures->fetch_add(1);
            if (ge != current.begin() &&
                (!it.Valid() || TestComparator::Decode(it.key()) < *std::prev(ge))) {
              failures->fetch_add(1);
            }
          }
        }
        it.SeekForPrev(t.buf);
        auto gt = std::upper_bound(current.begin(), current.end(), target);
        if (gt != current.begin()) {
          if (!it.Valid() || TestComparator::Decode(it.key()) > target ||
              TestComparator::Decode(it.key()) < *std::prev(gt)) {
            failures->fetch_add(1);
          } else {
            const Key at = TestComparator::Decode(it.key());
            it.Next();
            if (it.Valid() && TestComparator::Decode(it.key()) <= at) failures->fetch_add(1);
            if (gt != current.end() && (!it.Valid() || TestComparator::Decode(it.key()) > *gt)) {
              failures->fetch_add(1);
            }
          }
        }
      }
    }
    previous.swap(current);
    passes->fetch_add(1);
  }
}

enum class KeyPattern { kDisjointRandom, kDisjointAscending, kOverlappingRandom };

template <class Tree>
void ConcurrentRun(KeyPattern pattern, PrefixMode prefix_mode, uint64_t seed) {
  constexpr int kWriters = 4;
  constexpr int kPerWriter = 20000;
  ConcurrentArena arena;
  Tree tree(MakeComparator(prefix_mode), &arena);
  std::atomic<bool> stop{false};
  std::atomic<int> failures{0};
  std::atomic<uint64_t> passes{0};
  std::atomic<uint64_t> inserted{0};

  std::vector<std::vector<Key>> keys(kWriters);
  std::set<Key> expected;
  for (int t = 0; t < kWriters; t++) {
    std::mt19937_64 rng(seed + t);
    for (int i = 0; i < kPerWriter; i++) {
      Key k;
      switch (pattern) {
        case KeyPattern::kDisjointRandom:
          k = (rng() % (kPerWriter * 8)) * kWriters + t;
          break;
        case KeyPattern::kDisjointAscending:
          k = static_cast<Key>(i) * kWriters + t;
          break;
        case KeyPattern::kOverlappingRandom:
        default:
          k = rng() % (kWriters * kPerWriter);
          break;
      }
      keys[t].push_back(k);
      expected.insert(k);
    }
  }
  Progress progress(&keys);

  std::vector<std::thread> readers;
  for (int r = 0; r < 2; r++) {
    readers.emplace_back(ReaderLoop<Tree>, &tree, &progress, &stop, &failures, &passes,
                         seed + 100 + r);
  }
  std::vector<std::thread> writers;
  for (int t = 0; t < kWriters; t++) {
    writers.emplace_back([&, t] {
      for (size_t i = 0; i < keys[t].size(); i++) {
        if (InsertKey(&tree, keys[t][i], /*concurrent=*/true)) inserted.fetch_add(1);
        progress.done[t].store(i + 1, std::memory_order_release);
      }
    });
  }
  for (auto& w : writers) w.join();
  // Let the readers finish at least one pass over the complete tree.
  const uint64_t passes_at_end = passes.load();
  while (passes.load() < passes_at_end + 2) std::this_thread::yield();
  stop.store(true, std::memory_order_release);
  for (auto& r : readers) r.join();

  EXPECT_EQ(failures.load(), 0) << "seed " << seed;
  EXPECT_TRUE(tree.TEST_Validate());
  // Each distinct key was added exactly once, and the tree is their union.
  EXPECT_EQ(inserted.load(), expected.size());
  std::vector<Key> final_keys;
  typename Tree::Iterator it(&tree);
  for (it.SeekToFirst(); it.Valid(); it.Next()) {
    final_keys.push_back(TestComparator::Decode(it.key()));
  }
  EXPECT_TRUE(std::equal(final_keys.begin(), final_keys.end(), expected.begin(), expected.end()));

  // A single writer may continue after the concurrent phase.
  std::mt19937_64 rng(seed ^ 0xabcdef);
  for (int i = 0; i < 3000; i++) {
    const Key k = (i % 2 == 0) ? rng() % (kWriters * kPerWriter * 10)
                               : kWriters * kPerWriter * 10 + static_cast<Key>(i);
    ASSERT_EQ(InsertKey(&tree, k), expected.insert(k).second) << "key " << k;
  }
  final_keys.clear();
  for (it.SeekToFirst(); it.Valid(); it.Next()) {
    final_keys.push_back(TestComparator::Decode(it.key()));
  }
  EXPECT_TRUE(std::equal(final_keys.begin(), final_keys.end(), expected.begin(), expected.end()));
  for (Key k : expected) ASSERT_TRUE(TreeContains(tree, k));
  EXPECT_TRUE(tree.TEST_Validate());
}

template <class C>
class BTreeIndexConcurrentTest : public ::testing::Test {};
using ConcurrentConfigs =
    ::testing::Types<Config<4, 3, PrefixMode::kExact>, Config<62, 30, PrefixMode::kExact>,
                     Config<8, 5, PrefixMode::kCoarse>, Config<6, 4, PrefixMode::kNone>>;
TYPED_TEST_SUITE(BTreeIndexConcurrentTest, ConcurrentConfigs);

TYPED_TEST(BTreeIndexConcurrentTest, DisjointRandomKeys) {
  ConcurrentRun<typename TypeParam::Tree>(KeyPattern::kDisjointRandom, TypeParam::kPrefixMode,
                                          test::RandomSeed());
}

TYPED_TEST(BTreeIndexConcurrentTest, DisjointAscendingKeys) {
  ConcurrentRun<typename TypeParam::Tree>(KeyPattern::kDisjointAscending, TypeParam::kPrefixMode,
                                          test::RandomSeed());
}

TYPED_TEST(BTreeIndexConcurrentTest, OverlappingRandomKeys) {
  ConcurrentRun<typename TypeParam::Tree>(KeyPattern::kOverlappingRandom, TypeParam::kPrefixMode,
                                          test::RandomSeed());
}

// One writer with Insert() while readers walk and seek.
TYPED_TEST(BTreeIndexConcurrentTest, SingleWriterWithReaders) {
  using Tree = typename TypeParam::Tree;
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  Arena arena;
  Tree tree(MakeComparator(TypeParam::kPrefixMode), &arena);
  std::vector<std::vector<Key>> keys(1);
  for (int i = 0; i < 50000; i++) {
    keys[0].push_back((i % 3 == 0) ? rng() % 1000000 : static_cast<Key>(1000000 + i));
  }
  Progress progress(&keys);
  std::atomic<bool> stop{false};
  std::atomic<int> failures{0};
  std::atomic<uint64_t> passes{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < 2; r++) {
    readers.emplace_back(ReaderLoop<Tree>, &tree, &progress, &stop, &failures, &passes,
                         seed + 100 + r);
  }
  std::set<Key> model;
  for (size_t i = 0; i < keys[0].size(); i++) {
    ASSERT_EQ(InsertKey(&tree, keys[0][i]), model.insert(keys[0][i]).second);
    progress.done[0].store(i + 1, std::memory_order_release);
  }
  const uint64_t passes_at_end = passes.load();
  while (passes.load() < passes_at_end + 2) std::this_thread::yield();
  stop.store(true, std::memory_order_release);
  for (auto& r : readers) r.join();
  EXPECT_EQ(failures.load(), 0) << "seed " << seed;
  EXPECT_TRUE(tree.TEST_Validate());
  typename Tree::Iterator it(&tree);
  it.SeekToFirst();
  for (Key k : model) {
    ASSERT_TRUE(it.Valid());
    ASSERT_EQ(TestComparator::Decode(it.key()), k);
    it.Next();
  }
  EXPECT_FALSE(it.Valid());
}

}  // namespace
}  // namespace strata
