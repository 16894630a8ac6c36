// Tests of MergingIterator against a std::multimap model: random children
// (equal user keys with several sequences, equal internal keys in several
// children), full scans both ways, random seeks and random walks that turn
// around, error propagation, and the trivial shapes (0 and 1 children).
#include "table/merging_iterator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/dbformat.h"
#include "test_util/testutil.h"
#include "test_util/vector_iterator.h"

namespace strata {
namespace {

std::string IKey(const std::string& user_key, SequenceNumber seq, ValueType t = kTypeValue) {
  std::string k;
  AppendInternalKey(&k, user_key, seq, t);
  return k;
}

struct IKeyLess {
  const InternalKeyComparator* icmp;
  bool operator()(const std::string& a, const std::string& b) const {
    return icmp->Compare(a, b) < 0;
  }
};

using Entries = std::vector<std::pair<std::string, std::string>>;

// A child over a sorted vector of entries. With fail_after >= 0 it turns
// invalid with a Corruption on its (fail_after+1)-th positioning call.
std::unique_ptr<InternalIterator> Child(const InternalKeyComparator* icmp, const Entries& entries,
                                        int fail_after = -1) {
  auto it = std::make_unique<test::VectorIterator>(entries, icmp);
  it->FailingAfter(fail_after);
  return it;
}

// Random children and the merged model (vector sorted by (key, child)).
struct Fixture {
  explicit Fixture(const Comparator* ucmp) : icmp(ucmp) {}
  InternalKeyComparator icmp;
  std::vector<Entries> children;
  Entries model;

  void Generate(std::mt19937_64* rng) {
    children.clear();
    model.clear();
    const size_t num_children = (*rng)() % 9;  // 0..8
    const int num_user_keys = 1 + static_cast<int>((*rng)() % 30);
    // A shared pool of internal keys so several children hold equal keys.
    std::vector<std::string> pool;
    for (int i = 0; i < 40; i++) pool.push_back(RandomKey(rng, num_user_keys));
    std::multimap<std::string, std::string, IKeyLess> merged(IKeyLess{&icmp});
    for (size_t c = 0; c < num_children; c++) {
      std::set<std::string, IKeyLess> keys(IKeyLess{&icmp});
      const size_t n = (*rng)() % 40;
      for (size_t j = 0; j < n; j++) {
        keys.insert((*rng)() % 2 == 0 ? pool[(*rng)() % pool.size()]
                                      : RandomKey(rng, num_user_keys));
      }
      Entries entries;
      int j = 0;
      for (const std::string& k : keys) {
        std::string v = "c" + std::to_string(c) + "." + std::to_string(j++);
        entries.emplace_back(k, v);
        merged.emplace(k, v);  // equal keys keep insertion (= child) order
      }
      children.push_back(std::move(entries));
    }
    model.assign(merged.begin(), merged.end());
  }

  static std::string RandomKey(std::mt19937_64* rng, int num_user_keys) {
    char buf[16];
    std::snprintf(buf, sizeof(buf), "k%03d", static_cast<int>((*rng)() % num_user_keys) * 2);
    return IKey(buf, 1 + (*rng)() % 8, (*rng)() % 4 == 0 ? kTypeDeletion : kTypeValue);
  }

  // Seek targets: existing keys, and keys between and outside user keys.
  std::string RandomTarget(std::mt19937_64* rng) const {
    if (!model.empty() && (*rng)() % 2 == 0) return model[(*rng)() % model.size()].first;
    char buf[16];
    std::snprintf(buf, sizeof(buf), "k%03d", static_cast<int>((*rng)() % 64) - 1);
    const ValueType t = (*rng)() % 2 == 0 ? kValueTypeForSeek : kValueTypeForSeekForPrev;
    return IKey(buf, (*rng)() % 10, t);
  }

  std::unique_ptr<InternalIterator> NewIterator() const {
    std::vector<std::unique_ptr<InternalIterator>> its;
    for (const Entries& e : children) its.push_back(Child(&icmp, e));
    return std::unique_ptr<InternalIterator>(NewMergingIterator(&icmp, std::move(its)));
  }

  // Model positions: model.size() means invalid.
  size_t SeekPos(const std::string& t) const {
    size_t i = 0;
    while (i < model.size() && icmp.Compare(model[i].first, t) < 0) i++;
    return i;
  }
  size_t SeekForPrevPos(const std::string& t) const {
    for (size_t i = model.size(); i-- > 0;) {
      if (icmp.Compare(model[i].first, t) <= 0) return i;
    }
    return model.size();
  }
};

void ExpectAt(const Fixture& f, const InternalIterator& it, size_t pos) {
  if (pos >= f.model.size()) {
    ASSERT_FALSE(it.Valid());
    ASSERT_OK(it.status());
    return;
  }
  ASSERT_TRUE(it.Valid()) << "expected " << f.model[pos].second;
  ASSERT_EQ(f.model[pos].first, it.key().ToString());
  ASSERT_EQ(f.model[pos].second, it.value().ToString());
}

void RunRandomized(const Comparator* ucmp, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Fixture f(ucmp);
  for (int round = 0; round < 300; round++) {
    SCOPED_TRACE("round " + std::to_string(round));
    f.Generate(&rng);
    std::unique_ptr<InternalIterator> it = f.NewIterator();

    // Full forward and backward scans.
    it->SeekToFirst();
    for (size_t i = 0; i < f.model.size(); i++, it->Next())
      ASSERT_NO_FATAL_FAILURE(ExpectAt(f, *it, i));
    ASSERT_NO_FATAL_FAILURE(ExpectAt(f, *it, f.model.size()));
    it->SeekToLast();
    for (size_t i = f.model.size(); i-- > 0; it->Prev())
      ASSERT_NO_FATAL_FAILURE(ExpectAt(f, *it, i));
    ASSERT_NO_FATAL_FAILURE(ExpectAt(f, *it, f.model.size()));

    // Random seeks, each followed by a random walk that turns around.
    for (int s = 0; s < 20; s++) {
      size_t pos;
      const int op = static_cast<int>(rng() % 4);
      if (op == 0) {
        const std::string t = f.RandomTarget(&rng);
        it->Seek(t);
        pos = f.SeekPos(t);
      } else if (op == 1) {
        const std::string t = f.RandomTarget(&rng);
        it->SeekForPrev(t);
        pos = f.SeekForPrevPos(t);
      } else if (op == 2) {
        it->SeekToFirst();
        pos = 0;
      } else {
        it->SeekToLast();
        pos = f.model.empty() ? 0 : f.model.size() - 1;
      }
      ASSERT_NO_FATAL_FAILURE(ExpectAt(f, *it, pos));
      for (int step = 0; step < 30 && pos < f.model.size(); step++) {
        if (rng() % 2 == 0) {
          it->Next();
          pos++;
        } else {
          it->Prev();
          pos = pos == 0 ? f.model.size() : pos - 1;
        }
        ASSERT_NO_FATAL_FAILURE(ExpectAt(f, *it, pos));
      }
    }
  }
}

TEST(MergingIteratorTest, RandomizedBytewise) {
  RunRandomized(BytewiseComparator(), test::RandomSeed());
}

TEST(MergingIteratorTest, RandomizedReverseComparator) {
  RunRandomized(ReverseBytewiseComparator(), test::RandomSeed());
}

TEST(MergingIteratorTest, EqualKeysInChildOrderBothWays) {
  InternalKeyComparator icmp(BytewiseComparator());
  const std::string k = IKey("a", 5);
  std::vector<std::unique_ptr<InternalIterator>> its;
  for (int c = 0; c < 3; c++) {
    its.push_back(Child(&icmp, Entries{{IKey("a", 6), "x" + std::to_string(c)},
                                       {k, "v" + std::to_string(c)},
                                       {IKey("b", 1), "y" + std::to_string(c)}}));
  }
  std::unique_ptr<InternalIterator> it(NewMergingIterator(&icmp, std::move(its)));
  it->Seek(k);
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("v0", it->value().ToString());
  it->Next();
  EXPECT_EQ("v1", it->value().ToString());
  it->Prev();  // turn around in the middle of equal keys
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("v0", it->value().ToString());
  it->Prev();
  EXPECT_EQ("x2", it->value().ToString());
  it->Next();  // and back
  EXPECT_EQ("v0", it->value().ToString());
  it->Next();
  EXPECT_EQ("v1", it->value().ToString());
  it->Next();
  EXPECT_EQ("v2", it->value().ToString());
  it->Next();
  EXPECT_EQ("y0", it->value().ToString());
  it->SeekForPrev(k);
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("v2", it->value().ToString());
  it->Prev();
  EXPECT_EQ("v1", it->value().ToString());
  it->Next();
  EXPECT_EQ("v2", it->value().ToString());
  EXPECT_OK(it->status());
}

TEST(MergingIteratorTest, ChildErrorStopsIteration) {
  InternalKeyComparator icmp(BytewiseComparator());
  Entries a, b;
  for (int i = 0; i < 10; i++) {
    a.emplace_back(IKey("a" + std::to_string(i), 1), "a");
    b.emplace_back(IKey("b" + std::to_string(i), 1), "b");
  }
  // b fails on its third positioning call: SeekToFirst, Next, then fails.
  std::vector<std::unique_ptr<InternalIterator>> its;
  its.push_back(Child(&icmp, a));
  its.push_back(Child(&icmp, b, 2));
  std::unique_ptr<InternalIterator> it(NewMergingIterator(&icmp, std::move(its)));
  int n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) n++;
  EXPECT_EQ(12, n);  // a0..a9, b0, b1
  EXPECT_TRUE(it->status().IsCorruption()) << it->status().ToString();
  // The error is sticky.
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().IsCorruption());

  // A child failing on its first seek makes the seek report the error.
  its.clear();
  its.push_back(Child(&icmp, a));
  its.push_back(Child(&icmp, b, 0));
  its.push_back(Child(&icmp, a));
  it = NewMergingIterator(&icmp, std::move(its));
  it->SeekForPrev(IKey("z", 0));
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().IsCorruption());

  // An error met while turning around.
  its.clear();
  its.push_back(Child(&icmp, a));
  its.push_back(Child(&icmp, b, 1));
  it = NewMergingIterator(&icmp, std::move(its));
  it->SeekToFirst();
  ASSERT_TRUE(it->Valid());
  it->Next();
  ASSERT_TRUE(it->Valid());
  it->Prev();  // repositions b: its second call fails
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().IsCorruption());
}

TEST(MergingIteratorTest, ZeroAndOneChild) {
  InternalKeyComparator icmp(BytewiseComparator());
  std::unique_ptr<InternalIterator> empty(NewMergingIterator(&icmp, {}));
  empty->SeekToFirst();
  EXPECT_FALSE(empty->Valid());
  empty->SeekForPrev(IKey("a", 1));
  EXPECT_FALSE(empty->Valid());
  EXPECT_OK(empty->status());

  std::vector<std::unique_ptr<InternalIterator>> its;
  its.push_back(Child(&icmp, Entries{{IKey("a", 1), "v"}}));
  InternalIterator* child = its[0].get();
  std::unique_ptr<InternalIterator> one(NewMergingIterator(&icmp, std::move(its)));
  EXPECT_EQ(child, one.get());  // the child itself, no wrapper

  std::unique_ptr<InternalIterator> err(NewEmptyInternalIterator(Status::IOError("boom")));
  err->Seek(IKey("a", 1));
  EXPECT_FALSE(err->Valid());
  EXPECT_TRUE(err->status().IsIOError());
}

}  // namespace
}  // namespace strata
