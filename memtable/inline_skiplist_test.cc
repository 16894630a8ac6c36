#include "memtable/inline_skiplist.h"

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

using TestList = InlineSkipList<TestComparator>;

struct Encoded {
  explicit Encoded(Key k) { memcpy(buf, &k, sizeof(k)); }
  char buf[sizeof(Key)];
};

bool InsertKey(TestList* list, Key k, bool concurrent = false) {
  char* buf = list->AllocateKey(sizeof(k));
  memcpy(buf, &k, sizeof(k));
  return concurrent ? list->InsertConcurrently(buf) : list->Insert(buf);
}

bool ListContains(const TestList& list, Key k) { return list.Contains(Encoded(k).buf); }

// Checks the list against the model: membership, both iteration orders,
// Seek and SeekForPrev for every key in [0, key_limit] and beyond.
void CheckAgainstModel(const TestList& list, const std::set<Key>& model, Key key_limit) {
  for (Key k = 0; k <= key_limit; k++) {
    ASSERT_EQ(ListContains(list, k), model.count(k) == 1) << "key " << k;
  }

  TestList::Iterator it(&list);
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
      // Walking both ways from a Seek position.
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

TEST(InlineSkipListTest, Empty) {
  Arena arena;
  TestList list(TestComparator(), &arena);
  EXPECT_FALSE(ListContains(list, 10));
  TestList::Iterator it(&list);
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
}

struct Shape {
  int32_t max_height;
  int32_t branching;
  PrefixMode prefix_mode;
};

TestComparator ComparatorFor(const Shape& shape) {
  TestComparator cmp;
  cmp.prefix_mode = shape.prefix_mode;
  return cmp;
}

class InlineSkipListShapeTest : public ::testing::TestWithParam<Shape> {};

TEST_P(InlineSkipListShapeTest, RandomInsertsMatchModel) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  Arena arena;
  TestList list(ComparatorFor(GetParam()), &arena, GetParam().max_height, GetParam().branching);
  std::set<Key> model;
  constexpr Key kLimit = 3000;
  for (int i = 0; i < 2000; i++) {
    const Key k = rng() % kLimit;
    const bool fresh = model.insert(k).second;
    ASSERT_EQ(InsertKey(&list, k), fresh) << "key " << k;
  }
  CheckAgainstModel(list, model, kLimit);
  EXPECT_TRUE(list.TEST_Validate());
}

TEST_P(InlineSkipListShapeTest, SequentialAndRandomInsertsMixed) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  Arena arena;
  TestList list(ComparatorFor(GetParam()), &arena, GetParam().max_height, GetParam().branching);
  std::set<Key> model;
  auto add = [&](Key k) {
    const bool fresh = model.insert(k).second;
    ASSERT_EQ(InsertKey(&list, k), fresh) << "key " << k;
  };
  // Ascending runs (the splice path), a descending run, random keys, and
  // short ascending runs starting at random places, interleaved.
  for (Key k = 1000; k < 2000; k += 3) ASSERT_NO_FATAL_FAILURE(add(k));
  for (int k = 999; k > 0; k -= 5) ASSERT_NO_FATAL_FAILURE(add(static_cast<Key>(k)));
  for (int round = 0; round < 40; round++) {
    for (int i = 0; i < 10; i++) ASSERT_NO_FATAL_FAILURE(add(rng() % 4000));
    const Key start = rng() % 4000;
    for (Key k = start; k < start + 30; k++) ASSERT_NO_FATAL_FAILURE(add(k));
  }
  for (Key k = 4000; k < 4500; k++) ASSERT_NO_FATAL_FAILURE(add(k));
  CheckAgainstModel(list, model, 4600);
  EXPECT_TRUE(list.TEST_Validate());
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, InlineSkipListShapeTest,
    ::testing::Values(Shape{12, 4, PrefixMode::kExact}, Shape{12, 4, PrefixMode::kCoarse},
                      Shape{12, 4, PrefixMode::kNone}, Shape{1, 2, PrefixMode::kExact},
                      Shape{4, 2, PrefixMode::kCoarse}, Shape{20, 8, PrefixMode::kCoarse},
                      Shape{32, 4, PrefixMode::kExact}));

// The splice makes ascending inserts cost O(1) comparisons each, where
// random inserts pay O(log n). (Prefixes off: they would hide comparisons.)
TEST(InlineSkipListTest, AscendingInsertsUseTheSplice) {
  constexpr int kN = 100000;
  uint64_t sequential_compares = 0;
  {
    Arena arena;
    TestList list(TestComparator{&sequential_compares, PrefixMode::kNone}, &arena);
    for (Key k = 0; k < kN; k++) ASSERT_TRUE(InsertKey(&list, k));
  }
  uint64_t random_compares = 0;
  {
    Arena arena;
    TestList list(TestComparator{&random_compares, PrefixMode::kNone}, &arena);
    std::vector<Key> keys(kN);
    for (Key k = 0; k < kN; k++) keys[k] = k;
    std::shuffle(keys.begin(), keys.end(), std::mt19937_64(test::RandomSeed()));
    for (Key k : keys) ASSERT_TRUE(InsertKey(&list, k));
  }
  EXPECT_LT(sequential_compares, 4u * kN);
  EXPECT_GT(random_compares, 10u * kN);
}

// With exact prefixes the single writer decides almost every step from the
// links alone: far fewer key comparisons for the same random inserts.
TEST(InlineSkipListTest, PrefixesSaveComparisons) {
  constexpr int kN = 100000;
  std::vector<Key> keys(kN);
  for (Key k = 0; k < kN; k++) keys[k] = k;
  std::shuffle(keys.begin(), keys.end(), std::mt19937_64(test::RandomSeed()));
  uint64_t compares[2] = {0, 0};
  for (int exact = 0; exact < 2; exact++) {
    Arena arena;
    TestList list(TestComparator{&compares[exact], exact ? PrefixMode::kExact : PrefixMode::kNone},
                  &arena);
    for (Key k : keys) ASSERT_TRUE(InsertKey(&list, k));
    const uint64_t insert_compares = compares[exact];
    for (Key k : keys) ASSERT_TRUE(ListContains(list, k));
    ASSERT_FALSE(ListContains(list, kN));
    compares[exact] = insert_compares;
  }
  // About 7 against 40 per key.
  EXPECT_LT(compares[1] * 3, compares[0]);
}

// Readers walk the list while writers insert. Each pass must be strictly
// sorted and contain every key the reader saw in its previous pass (nodes
// are never removed).
void ReaderLoop(const TestList* list, const std::atomic<bool>* stop, std::atomic<int>* failures,
                std::atomic<uint64_t>* passes) {
  std::vector<Key> previous;
  std::vector<Key> current;
  while (!stop->load(std::memory_order_acquire)) {
    current.clear();
    TestList::Iterator it(list);
    for (it.SeekToFirst(); it.Valid(); it.Next()) {
      const Key k = TestComparator::Decode(it.key());
      if (!current.empty() && current.back() >= k) failures->fetch_add(1);
      current.push_back(k);
    }
    if (!std::includes(current.begin(), current.end(), previous.begin(), previous.end())) {
      failures->fetch_add(1);
    }
    // Spot-check membership of earlier keys through the search path.
    for (size_t i = 0; i < previous.size(); i += 97) {
      if (!ListContains(*list, previous[i])) failures->fetch_add(1);
    }
    // A backwards step from a random spot agrees with the forward order.
    if (current.size() > 2) {
      const Key mid = current[current.size() / 2];
      Encoded t(mid);
      it.Seek(t.buf);
      if (!it.Valid() || TestComparator::Decode(it.key()) != mid) failures->fetch_add(1);
      it.Prev();
      if (!it.Valid() || TestComparator::Decode(it.key()) >= mid) failures->fetch_add(1);
    }
    previous.swap(current);
    passes->fetch_add(1);
  }
}

enum class KeyPattern { kDisjointRandom, kDisjointAscending, kOverlappingRandom };

void ConcurrentRun(KeyPattern pattern, PrefixMode prefix_mode, uint64_t seed) {
  constexpr int kWriters = 4;
  constexpr int kPerWriter = 20000;
  ConcurrentArena arena;
  TestComparator cmp;
  cmp.prefix_mode = prefix_mode;
  TestList list(cmp, &arena);
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

  std::vector<std::thread> readers;
  for (int r = 0; r < 2; r++) readers.emplace_back(ReaderLoop, &list, &stop, &failures, &passes);
  std::vector<std::thread> writers;
  for (int t = 0; t < kWriters; t++) {
    writers.emplace_back([&, t] {
      for (Key k : keys[t]) {
        if (InsertKey(&list, k, /*concurrent=*/true)) inserted.fetch_add(1);
      }
    });
  }
  for (auto& w : writers) w.join();
  // Let the readers finish at least one pass over the complete list.
  const uint64_t passes_at_end = passes.load();
  while (passes.load() < passes_at_end + 2) std::this_thread::yield();
  stop.store(true, std::memory_order_release);
  for (auto& r : readers) r.join();

  EXPECT_EQ(failures.load(), 0);
  EXPECT_TRUE(list.TEST_Validate());
  // Each distinct key was linked exactly once, and the list is their union.
  EXPECT_EQ(inserted.load(), expected.size());
  std::vector<Key> final_keys;
  TestList::Iterator it(&list);
  for (it.SeekToFirst(); it.Valid(); it.Next())
    final_keys.push_back(TestComparator::Decode(it.key()));
  EXPECT_TRUE(std::equal(final_keys.begin(), final_keys.end(), expected.begin(), expected.end()));

  // A single writer may continue after the concurrent phase (its cached
  // splice is stale by now).
  std::mt19937_64 rng(seed ^ 0xabcdef);
  for (int i = 0; i < 3000; i++) {
    const Key k = (i % 2 == 0) ? rng() % (kWriters * kPerWriter * 10)
                               : kWriters * kPerWriter * 10 + static_cast<Key>(i);
    ASSERT_EQ(InsertKey(&list, k), expected.insert(k).second) << "key " << k;
  }
  final_keys.clear();
  for (it.SeekToFirst(); it.Valid(); it.Next())
    final_keys.push_back(TestComparator::Decode(it.key()));
  EXPECT_TRUE(std::equal(final_keys.begin(), final_keys.end(), expected.begin(), expected.end()));
  for (Key k : expected) ASSERT_TRUE(ListContains(list, k));
  EXPECT_TRUE(list.TEST_Validate());
}

TEST(InlineSkipListTest, ConcurrentDisjointRandomKeys) {
  ConcurrentRun(KeyPattern::kDisjointRandom, PrefixMode::kExact, test::RandomSeed());
}

TEST(InlineSkipListTest, ConcurrentDisjointAscendingKeys) {
  ConcurrentRun(KeyPattern::kDisjointAscending, PrefixMode::kExact, test::RandomSeed());
}

TEST(InlineSkipListTest, ConcurrentOverlappingRandomKeys) {
  ConcurrentRun(KeyPattern::kOverlappingRandom, PrefixMode::kExact, test::RandomSeed());
}

TEST(InlineSkipListTest, ConcurrentRandomKeysCoarsePrefix) {
  ConcurrentRun(KeyPattern::kOverlappingRandom, PrefixMode::kCoarse, test::RandomSeed());
}

TEST(InlineSkipListTest, ConcurrentRandomKeysNoPrefix) {
  ConcurrentRun(KeyPattern::kDisjointRandom, PrefixMode::kNone, test::RandomSeed());
}

// One writer with Insert() while readers walk the list.
TEST(InlineSkipListTest, SingleWriterWithReaders) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  Arena arena;
  TestList list(TestComparator(), &arena);
  std::atomic<bool> stop{false};
  std::atomic<int> failures{0};
  std::atomic<uint64_t> passes{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < 2; r++) readers.emplace_back(ReaderLoop, &list, &stop, &failures, &passes);
  std::set<Key> model;
  for (int i = 0; i < 50000; i++) {
    const Key k = (i % 3 == 0) ? rng() % 1000000 : static_cast<Key>(1000000 + i);
    ASSERT_EQ(InsertKey(&list, k), model.insert(k).second);
  }
  const uint64_t passes_at_end = passes.load();
  while (passes.load() < passes_at_end + 2) std::this_thread::yield();
  stop.store(true, std::memory_order_release);
  for (auto& r : readers) r.join();
  EXPECT_EQ(failures.load(), 0);
  TestList::Iterator it(&list);
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
