// Tests of WriteBatchWithIndex: fixed cases for each reader, then a
// randomized comparison against a model (a list of the batch's operations
// applied to std::map contents) over a real DB and over in-memory bases.

#include "strata/utilities/write_batch_with_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "strata/db.h"
#include "strata/merge_operator.h"
#include "strata/options.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

// Joins base and operands with ','; fails on an operand "bad".
class AppendOperator : public MergeOperator {
 public:
  bool FullMergeV2(const MergeOperationInput& in, MergeOperationOutput* out) const override {
    bool first = true;
    if (in.existing_value != nullptr) {
      out->new_value.assign(in.existing_value->data(), in.existing_value->size());
      first = false;
    }
    for (const Slice& op : in.operand_list) {
      if (op == Slice("bad")) return false;
      if (!first) out->new_value.push_back(',');
      out->new_value.append(op.data(), op.size());
      first = false;
    }
    return true;
  }
  const char* Name() const override { return "TestAppend"; }
};

// A stand-in handle: the DB has no non-default families yet.
class FakeColumnFamily : public ColumnFamilyHandle {
 public:
  explicit FakeColumnFamily(uint32_t id) : id_(id), name_("cf" + std::to_string(id)) {}
  const std::string& GetName() const override { return name_; }
  uint32_t GetID() const override { return id_; }

 private:
  uint32_t id_;
  std::string name_;
};

// An Iterator over a sorted copy of a map (a base for families 1 and 2).
class MapIterator : public Iterator {
 public:
  explicit MapIterator(const std::map<std::string, std::string>& m) : data_(m.begin(), m.end()) {}
  bool Valid() const override { return pos_ >= 0 && pos_ < static_cast<int>(data_.size()); }
  void SeekToFirst() override { pos_ = 0; }
  void SeekToLast() override { pos_ = static_cast<int>(data_.size()) - 1; }
  void Seek(const Slice& t) override {
    pos_ = static_cast<int>(
        std::lower_bound(data_.begin(), data_.end(), t.ToString(),
                         [](const auto& e, const std::string& k) { return e.first < k; }) -
        data_.begin());
  }
  void SeekForPrev(const Slice& t) override {
    pos_ = static_cast<int>(
               std::upper_bound(data_.begin(), data_.end(), t.ToString(),
                                [](const std::string& k, const auto& e) { return k < e.first; }) -
               data_.begin()) -
           1;
  }
  void Next() override { pos_++; }
  void Prev() override { pos_--; }
  Slice key() const override { return data_[pos_].first; }
  Slice value() const override { return data_[pos_].second; }
  Status status() const override { return Status::OK(); }

 private:
  std::vector<std::pair<std::string, std::string>> data_;
  int pos_ = -1;
};

bool IsMergeInProgress(const Status& s) { return s.IsMergeInProgress(); }

std::string Get(WriteBatchWithIndex* b, const std::string& key, const MergeOperator* op = nullptr,
                ColumnFamilyHandle* cf = nullptr) {
  std::string v;
  Status s = b->GetFromBatch(cf, DBOptions(), key, &v, op);
  if (s.IsNotFound()) return "NOT_FOUND";
  if (IsMergeInProgress(s)) return "MERGE_IN_PROGRESS";
  if (!s.ok()) return s.ToString();
  return v;
}

std::string Scan(Iterator* it) {
  std::string out;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    out += it->key().ToString() + "=" + it->value().ToString() + " ";
  }
  return out;
}

std::string ScanBack(Iterator* it) {
  std::string out;
  for (it->SeekToLast(); it->Valid(); it->Prev()) {
    out += it->key().ToString() + "=" + it->value().ToString() + " ";
  }
  return out;
}

std::string EntryText(const WriteEntry& e) {
  static const char* kNames[] = {"P", "M", "D", "SD", "DR", "LOG", "XID", "PE", "?"};
  return std::string(kNames[e.type]) + ":" + e.key.ToString() + (e.value.empty() ? "" : "=") +
         e.value.ToString();
}

std::string ScanBatch(WBWIIterator* it) {
  std::string out;
  for (it->SeekToFirst(); it->Valid(); it->Next()) out += EntryText(it->Entry()) + " ";
  return out;
}

TEST(WriteBatchWithIndexTest, GetFromBatchBasics) {
  AppendOperator op;
  WriteBatchWithIndex b;
  EXPECT_EQ("NOT_FOUND", Get(&b, "a"));
  ASSERT_OK(b.Put("a", "1"));
  ASSERT_OK(b.Put("b", "2"));
  ASSERT_OK(b.Delete("b"));
  ASSERT_OK(b.Merge("c", "x"));
  ASSERT_OK(b.Put("d", "4"));
  ASSERT_OK(b.Merge("d", "y"));
  ASSERT_OK(b.Merge("d", "z"));
  ASSERT_OK(b.SingleDelete("e"));
  ASSERT_OK(b.Merge("e", "w"));
  EXPECT_EQ("1", Get(&b, "a"));
  EXPECT_EQ("NOT_FOUND", Get(&b, "b"));
  EXPECT_EQ("MERGE_IN_PROGRESS", Get(&b, "c", &op));
  EXPECT_EQ("4,y,z", Get(&b, "d", &op));
  EXPECT_EQ("w", Get(&b, "e", &op));
  // Operands to combine but no operator: InvalidArgument, as RocksDB.
  std::string v;
  EXPECT_TRUE(b.GetFromBatch(DBOptions(), "d", &v).IsInvalidArgument());
  // The Options overload takes the operator from the options.
  Options options;
  options.merge_operator = std::make_shared<AppendOperator>();
  ASSERT_OK(b.GetFromBatch(options, "d", &v));
  EXPECT_EQ("4,y,z", v);
  // A failing merge is Corruption.
  ASSERT_OK(b.Merge("a", "bad"));
  EXPECT_TRUE(b.GetFromBatch(nullptr, DBOptions(), "a", &v, &op).IsCorruption());
  EXPECT_EQ(10u, b.GetWriteBatch()->Count());
}

TEST(WriteBatchWithIndexTest, DuplicateKeysOldestFirst) {
  WriteBatchWithIndex b;  // overwrite_key = false: every record indexed
  ASSERT_OK(b.Put("a", "1"));
  ASSERT_OK(b.Put("b", "1"));
  ASSERT_OK(b.Merge("a", "2"));
  ASSERT_OK(b.Delete("a"));
  ASSERT_OK(b.Put("a", "3"));
  auto it = b.NewIterator();
  EXPECT_EQ("P:a=1 M:a=2 D:a P:a=3 P:b=1 ", ScanBatch(it.get()));
  it->Seek("a");
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("P:a=1", EntryText(it->Entry()));
  it->SeekForPrev("a");
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("P:a=3", EntryText(it->Entry()));
  it->Prev();
  EXPECT_EQ("D:a", EntryText(it->Entry()));
  it->SeekForPrev("aa");
  EXPECT_EQ("P:a=3", EntryText(it->Entry()));
  it->Seek("aa");
  EXPECT_EQ("P:b=1", EntryText(it->Entry()));
  it->Next();
  EXPECT_FALSE(it->Valid());
  EXPECT_OK(it->status());
  EXPECT_EQ("3", Get(&b, "a"));
}

TEST(WriteBatchWithIndexTest, OverwriteKey) {
  WriteBatchWithIndex b(BytewiseComparator(), 0, /*overwrite_key=*/true);
  ASSERT_OK(b.Put("a", "1"));
  ASSERT_OK(b.Put("a", "2"));
  ASSERT_OK(b.Delete("b"));
  ASSERT_OK(b.Put("b", "3"));
  auto it = b.NewIterator();
  EXPECT_EQ("P:a=2 P:b=3 ", ScanBatch(it.get()));
  // A Merge adds an entry; a later Put replaces the key's newest entry.
  ASSERT_OK(b.Merge("a", "m"));
  EXPECT_EQ("P:a=2 M:a=m P:b=3 ", ScanBatch(it.get()));
  ASSERT_OK(b.Delete("a"));
  EXPECT_EQ("P:a=2 D:a P:b=3 ", ScanBatch(it.get()));
  EXPECT_EQ("NOT_FOUND", Get(&b, "a"));
  // The WriteBatch keeps every record.
  EXPECT_EQ(6u, b.GetWriteBatch()->Count());
}

TEST(WriteBatchWithIndexTest, ColumnFamiliesAreSeparate) {
  FakeColumnFamily cf1(1), cf2(2);
  WriteBatchWithIndex b;
  ASSERT_OK(b.Put(&cf1, "k", "one"));
  ASSERT_OK(b.Put(&cf2, "k", "two"));
  ASSERT_OK(b.Put("k", "zero"));
  ASSERT_OK(b.DeleteRange(&cf2, "a", "z"));
  EXPECT_EQ("zero", Get(&b, "k"));
  EXPECT_EQ("one", Get(&b, "k", nullptr, &cf1));
  EXPECT_EQ("NOT_FOUND", Get(&b, "k", nullptr, &cf2));
  auto it1 = b.NewIterator(&cf1);
  EXPECT_EQ("P:k=one ", ScanBatch(it1.get()));
  auto it0 = b.NewIterator();
  EXPECT_EQ("P:k=zero ", ScanBatch(it0.get()));
  it0->SeekToLast();
  EXPECT_EQ("P:k=zero", EntryText(it0->Entry()));
  FakeColumnFamily cf3(3);
  auto it3 = b.NewIterator(&cf3);
  it3->SeekToLast();
  EXPECT_FALSE(it3->Valid());
  std::map<std::string, std::string> base{{"b", "B"}, {"k", "K"}, {"y", "Y"}};
  auto m2 = b.NewIteratorWithBase(&cf2, std::make_unique<MapIterator>(base));
  EXPECT_EQ("", Scan(m2.get()));
  auto m1 = b.NewIteratorWithBase(&cf1, std::make_unique<MapIterator>(base));
  EXPECT_EQ("b=B k=one y=Y ", Scan(m1.get()));
}

TEST(WriteBatchWithIndexTest, DeleteRange) {
  AppendOperator op;
  WriteBatchWithIndex b;
  ASSERT_OK(b.Put("b", "1"));
  ASSERT_OK(b.Merge("c", "x"));
  ASSERT_OK(b.DeleteRange("b", "d"));
  ASSERT_OK(b.Merge("c", "y"));
  ASSERT_OK(b.Put("e", "5"));
  ASSERT_OK(b.DeleteRange("x", "a"));  // empty: covers nothing
  EXPECT_EQ("NOT_FOUND", Get(&b, "b", &op));
  EXPECT_EQ("y", Get(&b, "c", &op));
  EXPECT_EQ("5", Get(&b, "e", &op));
  // The batch-only iterator shows point records.
  auto bit = b.NewIterator();
  EXPECT_EQ("P:b=1 M:c=x M:c=y P:e=5 ", ScanBatch(bit.get()));
  std::map<std::string, std::string> base{
      {"a", "A"}, {"b", "B"}, {"bb", "BB"}, {"c", "C"}, {"d", "D"}};
  auto it = b.NewIteratorWithBase(nullptr, std::make_unique<MapIterator>(base), nullptr, &op);
  EXPECT_EQ("a=A c=y d=D e=5 ", Scan(it.get()));
  EXPECT_EQ("e=5 d=D c=y a=A ", ScanBack(it.get()));
}

TEST(WriteBatchWithIndexTest, IteratorWithBaseMergesAndBounds) {
  AppendOperator op;
  WriteBatchWithIndex b;
  ASSERT_OK(b.Merge("b", "m1"));
  ASSERT_OK(b.Merge("b", "m2"));
  ASSERT_OK(b.Merge("c", "m3"));
  ASSERT_OK(b.Delete("d"));
  ASSERT_OK(b.Put("e", "E2"));
  std::map<std::string, std::string> base{
      {"a", "A"}, {"b", "B"}, {"d", "D"}, {"e", "E"}, {"f", "F"}};
  auto it = b.NewIteratorWithBase(nullptr, std::make_unique<MapIterator>(base), nullptr, &op);
  EXPECT_EQ("a=A b=B,m1,m2 c=m3 e=E2 f=F ", Scan(it.get()));
  EXPECT_EQ("f=F e=E2 c=m3 b=B,m1,m2 a=A ", ScanBack(it.get()));
  // Direction changes.
  it->Seek("c");
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("c", it->key().ToString());
  it->Prev();
  EXPECT_EQ("b", it->key().ToString());
  it->Next();
  EXPECT_EQ("c", it->key().ToString());
  it->Next();
  EXPECT_EQ("e", it->key().ToString());
  it->SeekForPrev("d");
  EXPECT_EQ("c", it->key().ToString());
  // Bounds [b, e).
  Slice lower("b"), upper("e");
  ReadOptions ro;
  ro.iterate_lower_bound = &lower;
  ro.iterate_upper_bound = &upper;
  auto bounded = b.NewIteratorWithBase(nullptr, std::make_unique<MapIterator>(base), &ro, &op);
  EXPECT_EQ("b=B,m1,m2 c=m3 ", Scan(bounded.get()));
  EXPECT_EQ("c=m3 b=B,m1,m2 ", ScanBack(bounded.get()));
  bounded->Seek("a");
  EXPECT_EQ("b", bounded->key().ToString());
  bounded->SeekForPrev("z");
  EXPECT_EQ("c", bounded->key().ToString());
  // Without an operator the merge cannot be resolved: the iterator stops
  // with InvalidArgument.
  auto noop = b.NewIteratorWithBase(std::make_unique<MapIterator>(base));
  noop->SeekToFirst();
  ASSERT_TRUE(noop->Valid());
  EXPECT_EQ("a", noop->key().ToString());
  noop->Next();
  EXPECT_FALSE(noop->Valid());
  EXPECT_TRUE(noop->status().IsInvalidArgument());
}

TEST(WriteBatchWithIndexTest, ClearMaxBytesAndLogData) {
  WriteBatchWithIndex b(BytewiseComparator(), 0, false, /*max_bytes=*/40);
  ASSERT_OK(b.Put("a", "1"));
  ASSERT_OK(b.PutLogData("blob"));
  const size_t size = b.GetWriteBatch()->GetDataSize();
  Status s = b.Put("key", std::string(30, 'v'));
  EXPECT_TRUE(s.IsAborted()) << s.ToString();
  EXPECT_EQ(size, b.GetWriteBatch()->GetDataSize());
  EXPECT_EQ("NOT_FOUND", Get(&b, "key"));
  EXPECT_EQ(1u, b.GetWriteBatch()->Count());
  auto it = b.NewIterator();
  EXPECT_EQ("P:a=1 ", ScanBatch(it.get()));
  it.reset();
  b.Clear();
  EXPECT_EQ(0u, b.GetWriteBatch()->Count());
  EXPECT_EQ("NOT_FOUND", Get(&b, "a"));
  ASSERT_OK(b.Put("key", "v"));
  EXPECT_EQ("v", Get(&b, "key"));
  auto it2 = b.NewIterator();
  EXPECT_EQ("P:key=v ", ScanBatch(it2.get()));
  EXPECT_GT(b.IndexMemoryUsage(), 0u);
}

TEST(WriteBatchWithIndexTest, IteratorSurvivesBatchWrites) {
  WriteBatchWithIndex b;
  ASSERT_OK(b.Put("b", "1"));
  auto it = b.NewIterator();
  it->SeekToFirst();
  for (int i = 0; i < 200; i++) ASSERT_OK(b.Put("c" + std::to_string(i), std::string(50, 'x')));
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("P:b=1", EntryText(it->Entry()));
  it->Next();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("c0", it->Entry().key.ToString());
}

#ifdef STRATA_HAVE_MERGE_OPERATORS
TEST(WriteBatchWithIndexTest, BuiltInOperator) {
  auto add = MergeOperators::CreateUInt64AddOperator();
  ASSERT_NE(nullptr, add);
  auto fixed = [](uint64_t v) {
    std::string s(8, '\0');
    for (int i = 0; i < 8; i++) s[i] = static_cast<char>(v >> (8 * i));
    return s;
  };
  WriteBatchWithIndex b;
  ASSERT_OK(b.Put("n", fixed(40)));
  ASSERT_OK(b.Merge("n", fixed(2)));
  std::string v;
  ASSERT_OK(b.GetFromBatch(nullptr, DBOptions(), "n", &v, add.get()));
  EXPECT_EQ(fixed(42), v);
}
#endif

// ---- randomized comparison with a model ----

struct ModelOp {
  enum Kind { kPut, kMerge, kDelete, kSingleDelete, kDeleteRange } kind;
  uint32_t cf;
  std::string key;
  std::string value;  // or the end key of a range
};

// The batch's view of one key: what its records say, before the base.
struct View {
  enum Kind { kNone, kValue, kDeleted } kind = kNone;
  std::string value;
  std::vector<std::string> operands;
};

View ViewOf(const std::vector<ModelOp>& ops, uint32_t cf, const std::string& key) {
  View v;
  for (const ModelOp& op : ops) {
    if (op.cf != cf) continue;
    if (op.kind == ModelOp::kDeleteRange) {
      if (key >= op.key && key < op.value) {
        v.kind = View::kDeleted;
        v.operands.clear();
      }
      continue;
    }
    if (op.key != key) continue;
    switch (op.kind) {
      case ModelOp::kPut:
        v.kind = View::kValue;
        v.value = op.value;
        v.operands.clear();
        break;
      case ModelOp::kMerge:
        v.operands.push_back(op.value);
        break;
      default:
        v.kind = View::kDeleted;
        v.operands.clear();
        break;
    }
  }
  return v;
}

std::string Join(const std::string* base, const std::vector<std::string>& ops) {
  std::string out = base != nullptr ? *base : "";
  bool first = base == nullptr;
  for (const std::string& op : ops) {
    if (!first) out += ',';
    out += op;
    first = false;
  }
  return out;
}

std::optional<std::string> Visible(const View& v, const std::optional<std::string>& base) {
  switch (v.kind) {
    case View::kValue:
      return Join(&v.value, v.operands);
    case View::kDeleted:
      if (v.operands.empty()) return std::nullopt;
      return Join(nullptr, v.operands);
    case View::kNone:
      if (v.operands.empty()) return base;
      return Join(base ? &*base : nullptr, v.operands);
  }
  return std::nullopt;
}

std::string KeyName(int i) {
  char buf[8];
  snprintf(buf, sizeof(buf), "k%02d", i);
  return buf;
}

constexpr int kKeySpace = 24;

class RandomizedTest : public ::testing::Test {
 protected:
  void SetUp() override {
    seed_ = test::RandomSeed();
    rng_.seed(seed_);
  }

  int Uniform(int n) { return static_cast<int>(rng_() % static_cast<uint64_t>(n)); }
  std::string RandomKey() { return KeyName(Uniform(kKeySpace)); }
  // Seek targets, also between and outside the keys.
  std::string RandomTarget() {
    switch (Uniform(4)) {
      case 0:
        return RandomKey() + "5";
      case 1:
        return Uniform(2) ? "a" : "z";
      default:
        return RandomKey();
    }
  }

  // Fills the batch (and ops_) with n random operations over families
  // 0..num_cf-1; with_merge/with_range choose the operation kinds.
  void FillBatch(WriteBatchWithIndex* b, int n, int num_cf, bool with_merge, bool with_range) {
    for (int i = 0; i < n; i++) {
      ModelOp op;
      op.cf = static_cast<uint32_t>(Uniform(num_cf));
      op.key = RandomKey();
      const int r = Uniform(100);
      if (r < 45) {
        op.kind = ModelOp::kPut;
      } else if (r < 65) {
        op.kind = with_merge ? ModelOp::kMerge : ModelOp::kPut;
      } else if (r < 80) {
        op.kind = ModelOp::kDelete;
      } else if (r < 92) {
        op.kind = ModelOp::kSingleDelete;
      } else {
        op.kind = with_range ? ModelOp::kDeleteRange : ModelOp::kDelete;
      }
      if (op.kind == ModelOp::kDeleteRange) {
        op.value = KeyName(Uniform(kKeySpace + 1));
      } else if (op.kind == ModelOp::kPut || op.kind == ModelOp::kMerge) {
        op.value = "v" + std::to_string(i);
      }
      ColumnFamilyHandle* h = op.cf == 0 ? nullptr : &cfs_[op.cf - 1];
      switch (op.kind) {
        case ModelOp::kPut:
          ASSERT_OK(b->Put(h, op.key, op.value));
          break;
        case ModelOp::kMerge:
          ASSERT_OK(b->Merge(h, op.key, op.value));
          break;
        case ModelOp::kDelete:
          ASSERT_OK(b->Delete(h, op.key));
          break;
        case ModelOp::kSingleDelete:
          ASSERT_OK(b->SingleDelete(h, op.key));
          break;
        case ModelOp::kDeleteRange:
          ASSERT_OK(b->DeleteRange(h, op.key, op.value));
          break;
      }
      ops_.push_back(op);
      if (op.kind != ModelOp::kDeleteRange) {
        auto& list = entries_[{op.cf, op.key}];
        static const WriteType kTypes[] = {kPutRecord, kMergeRecord, kDeleteRecord,
                                           kSingleDeleteRecord};
        std::string e = EntryText(WriteEntry{kTypes[op.kind], op.key, op.value});
        if (overwrite_ && op.kind != ModelOp::kMerge && !list.empty()) {
          list.back() = e;
        } else {
          list.push_back(e);
        }
      }
    }
  }

  // GetFromBatch against the model.
  void CheckGetFromBatch(WriteBatchWithIndex* b, uint32_t cf) {
    ColumnFamilyHandle* h = cf == 0 ? nullptr : &cfs_[cf - 1];
    for (int k = 0; k < kKeySpace; k++) {
      const std::string key = KeyName(k);
      const View v = ViewOf(ops_, cf, key);
      std::string expected;
      if (v.kind == View::kNone) {
        expected = v.operands.empty() ? "NOT_FOUND" : "MERGE_IN_PROGRESS";
      } else {
        std::optional<std::string> vis = Visible(v, std::nullopt);
        expected = vis ? *vis : "NOT_FOUND";
      }
      ASSERT_EQ(expected, Get(b, key, &op_, h)) << "cf " << cf << " key " << key;
    }
  }

  // The batch-only iterator against the model's entry lists.
  void CheckBatchIterator(WriteBatchWithIndex* b, uint32_t cf) {
    ColumnFamilyHandle* h = cf == 0 ? nullptr : &cfs_[cf - 1];
    std::vector<std::pair<std::string, std::string>> flat;  // key, entry text
    for (const auto& [ck, list] : entries_) {
      if (ck.first != cf) continue;
      for (const std::string& e : list) flat.emplace_back(ck.second, e);
    }
    auto it = b->NewIterator(h);
    std::vector<std::string> got;
    for (it->SeekToFirst(); it->Valid(); it->Next()) got.push_back(EntryText(it->Entry()));
    ASSERT_EQ(flat.size(), got.size());
    for (size_t i = 0; i < flat.size(); i++) ASSERT_EQ(flat[i].second, got[i]);
    got.clear();
    for (it->SeekToLast(); it->Valid(); it->Prev()) got.push_back(EntryText(it->Entry()));
    std::reverse(got.begin(), got.end());
    ASSERT_EQ(flat.size(), got.size());
    for (size_t i = 0; i < flat.size(); i++) ASSERT_EQ(flat[i].second, got[i]);
    for (int round = 0; round < 30; round++) {
      const std::string t = RandomTarget();
      int pos;
      if (Uniform(2)) {
        it->Seek(t);
        pos = 0;
        while (pos < static_cast<int>(flat.size()) && flat[pos].first < t) pos++;
      } else {
        it->SeekForPrev(t);
        pos = static_cast<int>(flat.size()) - 1;
        while (pos >= 0 && flat[pos].first > t) pos--;
      }
      for (int step = 0; step < 8; step++) {
        const bool valid = pos >= 0 && pos < static_cast<int>(flat.size());
        ASSERT_EQ(valid, it->Valid()) << "target " << t;
        if (!valid) break;
        ASSERT_EQ(flat[pos].second, EntryText(it->Entry()));
        if (Uniform(2)) {
          it->Next();
          pos++;
        } else {
          it->Prev();
          pos--;
        }
      }
    }
  }

  // NewIteratorWithBase against the model; base holds the base contents and
  // make_base makes an iterator over them with the given read options.
  template <class MakeBase>
  void CheckIteratorWithBase(WriteBatchWithIndex* b, uint32_t cf,
                             const std::map<std::string, std::string>& base, MakeBase make_base) {
    ColumnFamilyHandle* h = cf == 0 ? nullptr : &cfs_[cf - 1];
    std::map<std::string, std::string> expected_all;
    for (int k = 0; k < kKeySpace; k++) {
      const std::string key = KeyName(k);
      auto bit = base.find(key);
      std::optional<std::string> bv;
      if (bit != base.end()) bv = bit->second;
      std::optional<std::string> vis = Visible(ViewOf(ops_, cf, key), bv);
      if (vis) expected_all[key] = *vis;
    }
    for (int round = 0; round < 12; round++) {
      std::string lower_s, upper_s;
      Slice lower, upper;
      ReadOptions ro;
      if (Uniform(3) == 0) {
        lower_s = RandomKey();
        lower = lower_s;
        ro.iterate_lower_bound = &lower;
      }
      if (Uniform(3) == 0) {
        upper_s = RandomKey();
        upper = upper_s;
        ro.iterate_upper_bound = &upper;
      }
      std::vector<std::pair<std::string, std::string>> exp;
      for (const auto& kv : expected_all) {
        if (ro.iterate_lower_bound != nullptr && kv.first < lower_s) continue;
        if (ro.iterate_upper_bound != nullptr && kv.first >= upper_s) continue;
        exp.push_back(kv);
      }
      // The base sees the bounds too half the time.
      ReadOptions base_ro = Uniform(2) ? ro : ReadOptions();
      auto it = b->NewIteratorWithBase(h, make_base(base_ro), &ro, &op_);
      const int n = static_cast<int>(exp.size());
      for (int seek = 0; seek < 6; seek++) {
        int pos;
        const std::string t = RandomTarget();
        switch (Uniform(4)) {
          case 0:
            it->SeekToFirst();
            pos = 0;
            break;
          case 1:
            it->SeekToLast();
            pos = n - 1;
            break;
          case 2:
            it->Seek(t);
            pos = 0;
            while (pos < n && exp[pos].first < t) pos++;
            break;
          default:
            it->SeekForPrev(t);
            pos = n - 1;
            while (pos >= 0 && exp[pos].first > t) pos--;
            break;
        }
        for (int step = 0; step < 20; step++) {
          const bool valid = pos >= 0 && pos < n;
          ASSERT_EQ(valid, it->Valid()) << "cf " << cf << " step " << step << " target " << t;
          ASSERT_OK(it->status());
          if (!valid) break;
          ASSERT_EQ(exp[pos].first, it->key().ToString());
          ASSERT_EQ(exp[pos].second, it->value().ToString()) << exp[pos].first;
          if (Uniform(3) != 0) {
            it->Next();
            pos++;
          } else {
            it->Prev();
            pos--;
          }
        }
      }
    }
  }

  void ResetModel(bool overwrite) {
    overwrite_ = overwrite;
    ops_.clear();
    entries_.clear();
  }

  uint64_t seed_ = 0;
  std::mt19937_64 rng_;
  AppendOperator op_;
  FakeColumnFamily cfs_[2] = {FakeColumnFamily(1), FakeColumnFamily(2)};
  bool overwrite_ = false;
  std::vector<ModelOp> ops_;
  std::map<std::pair<uint32_t, std::string>, std::vector<std::string>> entries_;
};

TEST_F(RandomizedTest, BatchAloneAndOverMapBases) {
  for (int iter = 0; iter < 120; iter++) {
    const bool overwrite = iter % 2 == 1;
    ResetModel(overwrite);
    WriteBatchWithIndex b(BytewiseComparator(), 0, overwrite);
    FillBatch(&b, 1 + Uniform(80), 3, true, true);
    if (HasFatalFailure()) return;
    for (uint32_t cf = 0; cf < 3; cf++) {
      std::map<std::string, std::string> base;
      for (int k = 0; k < kKeySpace; k++) {
        if (Uniform(2)) base[KeyName(k)] = "base" + std::to_string(k);
      }
      CheckGetFromBatch(&b, cf);
      CheckBatchIterator(&b, cf);
      CheckIteratorWithBase(&b, cf, base, [&base](const ReadOptions&) {
        return std::unique_ptr<Iterator>(new MapIterator(base));
      });
      if (HasFatalFailure()) return;
    }
    if (iter % 10 == 0) {
      // Clear, then the batch is reusable.
      b.Clear();
      ResetModel(overwrite);
      FillBatch(&b, 20, 3, true, true);
      CheckGetFromBatch(&b, 1);
      CheckBatchIterator(&b, 2);
      if (HasFatalFailure()) return;
    }
  }
}

TEST_F(RandomizedTest, OverDatabase) {
  test::TempDir dir("wbwi");
  Options options;
  options.create_if_missing = true;
  options.merge_operator = std::make_shared<AppendOperator>();
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(options, dir.path(), &db));
  // Which record kinds the DB applies (Merge and DeleteRange are being
  // added to the engine): probed on a scratch database.
  bool db_merge = false, db_range = false;
  {
    test::TempDir scratch_dir("wbwi_probe");
    std::unique_ptr<DB> scratch;
    ASSERT_OK(DB::Open(options, scratch_dir.path(), &scratch));
    db_merge = scratch->Merge(WriteOptions(), "p", "x").ok();
    db_range = scratch->DeleteRange(WriteOptions(), scratch->DefaultColumnFamily(), "a", "b").ok();
  }
  printf("DB applies Merge: %d, DeleteRange: %d\n", db_merge, db_range);
  std::map<std::string, std::string> contents;  // the DB's contents (model)
  for (int iter = 0; iter < 40; iter++) {
    // Change the DB with Puts and Deletes.
    for (int i = 0; i < 10; i++) {
      const std::string key = RandomKey();
      if (Uniform(3) == 0) {
        ASSERT_OK(db->Delete(WriteOptions(), key));
        contents.erase(key);
      } else {
        const std::string value = "db" + std::to_string(iter) + "_" + std::to_string(i);
        ASSERT_OK(db->Put(WriteOptions(), key, value));
        contents[key] = value;
      }
    }
    const bool overwrite = iter % 2 == 0;
    ResetModel(overwrite);
    WriteBatchWithIndex b(BytewiseComparator(), 0, overwrite);
    // Merges and range deletions in the batch are read over the DB in every
    // round; a round whose batch the DB cannot apply skips the final check.
    const bool with_merge = iter % 3 != 2;
    const bool with_range = iter % 4 != 3;
    const bool applicable = (db_merge || !with_merge) && (db_range || !with_range);
    FillBatch(&b, 1 + Uniform(40), 1, with_merge, with_range);
    if (HasFatalFailure()) return;
    CheckGetFromBatch(&b, 0);
    CheckBatchIterator(&b, 0);
    CheckIteratorWithBase(&b, 0, contents,
                          [&db](const ReadOptions& ro) { return db->NewIterator(ro); });
    if (HasFatalFailure()) return;
    // GetFromBatchAndDB.
    std::map<std::string, std::string> after;
    for (int k = 0; k < kKeySpace; k++) {
      const std::string key = KeyName(k);
      auto it = contents.find(key);
      std::optional<std::string> bv;
      if (it != contents.end()) bv = it->second;
      std::optional<std::string> vis = Visible(ViewOf(ops_, 0, key), bv);
      std::string value;
      Status s = b.GetFromBatchAndDB(db.get(), ReadOptions(), nullptr, key, &value, &op_);
      if (vis) {
        ASSERT_OK(s);
        ASSERT_EQ(*vis, value) << key;
        after[key] = *vis;
      } else {
        ASSERT_TRUE(s.IsNotFound()) << key << ": " << s.ToString();
      }
    }
    // Apply the batch; the DB then shows what the batch promised.
    if (!applicable) continue;
    ASSERT_OK(db->Write(WriteOptions(), b.GetWriteBatch()));
    contents = after;
    auto it = db->NewIterator(ReadOptions());
    std::map<std::string, std::string> got;
    for (it->SeekToFirst(); it->Valid(); it->Next())
      got[it->key().ToString()] = it->value().ToString();
    ASSERT_OK(it->status());
    ASSERT_EQ(contents, got) << "iter " << iter;
  }
}

// Save points: a batch rolled back must equal one built from the records
// that remain -- same bytes, and the same index (every entry of both
// families, in order, through the batch iterator), with or without
// overwrite_key.
TEST(WriteBatchWithIndexTest, RandomizedSavePoints) {
  std::mt19937_64 rng(77);
  FakeColumnFamily cf1(1);
  struct Rec {
    int op;
    bool cf;
    std::string key, value;
  };
  auto apply = [&](WriteBatchWithIndex* b, const Rec& r) {
    ColumnFamilyHandle* h = r.cf ? &cf1 : nullptr;
    switch (r.op) {
      case 0:
        return b->Put(h, r.key, r.value);
      case 1:
        return b->Delete(h, r.key);
      case 2:
        return b->Merge(h, r.key, r.value);
      case 3:
        return b->SingleDelete(h, r.key);
      case 4:
        return b->DeleteRange(h, r.key, r.key + "5");
      default:
        return b->PutLogData(r.value);
    }
  };
  auto scan = [&](WriteBatchWithIndex* b) {
    std::string out;
    for (ColumnFamilyHandle* h :
         {static_cast<ColumnFamilyHandle*>(nullptr), static_cast<ColumnFamilyHandle*>(&cf1)}) {
      auto it = b->NewIterator(h);
      out += ScanBatch(it.get()) + "|";
    }
    return out;
  };
  for (bool overwrite : {false, true}) {
    for (int round = 0; round < 30; round++) {
      WriteBatchWithIndex b(BytewiseComparator(), 0, overwrite);
      std::vector<Rec> model;
      std::vector<size_t> saves;
      for (int step = 0; step < 120; step++) {
        const int action = static_cast<int>(rng() % 10);
        if (action < 6) {
          Rec r{static_cast<int>(rng() % 6), rng() % 2 == 0, "k" + std::to_string(rng() % 20),
                "v" + std::to_string(rng() % 1000)};
          ASSERT_OK(apply(&b, r));
          model.push_back(r);
        } else if (action < 8) {
          b.SetSavePoint();
          saves.push_back(model.size());
        } else if (action == 8) {
          Status s = b.RollbackToSavePoint();
          if (saves.empty()) {
            ASSERT_TRUE(s.IsNotFound()) << s.ToString();
          } else {
            ASSERT_OK(s);
            model.resize(saves.back());
            saves.pop_back();
          }
        } else {
          Status s = b.PopSavePoint();
          if (saves.empty()) {
            ASSERT_TRUE(s.IsNotFound()) << s.ToString();
          } else {
            ASSERT_OK(s);
            saves.pop_back();
          }
        }
        WriteBatchWithIndex expected(BytewiseComparator(), 0, overwrite);
        for (const Rec& r : model) ASSERT_OK(apply(&expected, r));
        ASSERT_EQ(b.GetWriteBatch()->Data(), expected.GetWriteBatch()->Data());
        ASSERT_EQ(scan(&b), scan(&expected)) << "round " << round << " step " << step;
        const std::string k = "k" + std::to_string(rng() % 20);
        ASSERT_EQ(Get(&b, k), Get(&expected, k));
      }
    }
  }
}

// Through WriteBatchBase: the SliceParts forms are indexed like the joined
// Slice forms; the timestamp forms and PutEntity answer as RocksDB's
// WriteBatchWithIndex; SetMaxBytes replaces the limit.
TEST(WriteBatchWithIndexTest, BaseForms) {
  FakeColumnFamily cf1(1);
  WriteBatchWithIndex b;
  WriteBatchBase& base = b;
  const Slice k[2] = {"ke", "y"};
  const Slice v[3] = {"v", "al", "ue"};
  ASSERT_OK(base.Put(SliceParts(k, 2), SliceParts(v, 3)));
  ASSERT_OK(base.Put(&cf1, SliceParts(k, 2), SliceParts(v, 1)));
  ASSERT_OK(base.Merge(SliceParts(k, 1), SliceParts(v, 2)));
  ASSERT_OK(base.Delete(&cf1, SliceParts(k, 1)));
  ASSERT_OK(base.SingleDelete(SliceParts(v, 1)));
  EXPECT_EQ("value", Get(&b, "key"));
  std::string got;
  EXPECT_OK(b.GetFromBatch(&cf1, DBOptions(), "key", &got));
  EXPECT_EQ("v", got);
  AppendOperator op;
  EXPECT_EQ("MERGE_IN_PROGRESS", Get(&b, "ke", &op));  // an operand, no base
  EXPECT_TRUE(b.GetFromBatch(&cf1, DBOptions(), "ke", &got).IsNotFound());
  EXPECT_EQ("NOT_FOUND", Get(&b, "v"));
  EXPECT_EQ(base.GetWriteBatch(), b.GetWriteBatch());
  EXPECT_EQ(b.GetWriteBatch()->Count(), 5u);

  const std::string before = b.GetWriteBatch()->Data();
  EXPECT_EQ(base.Put(nullptr, "k", "ts", "v").ToString(),
            "Invalid argument: column family handle cannot be nullptr");
  EXPECT_TRUE(base.Put(&cf1, "k", "ts", "v").IsNotSupported());
  EXPECT_TRUE(base.Delete(&cf1, "k", "ts").IsNotSupported());
  EXPECT_TRUE(base.SingleDelete(&cf1, "k", "ts").IsNotSupported());
  EXPECT_EQ(base.DeleteRange(&cf1, "a", "b", "ts").ToString(),
            "Not implemented: DeleteRange unsupported in WriteBatchWithIndex");
  EXPECT_EQ(base.Merge(&cf1, "k", "ts", "v").ToString(),
            "Not implemented: Merge does not support user-defined timestamp");
  EXPECT_EQ(base.PutEntity(&cf1, "k", WideColumns{{"c", "v"}}).ToString(),
            "Not implemented: PutEntity not supported by WriteBatchWithIndex");
  EXPECT_EQ(b.GetWriteBatch()->Data(), before);

  base.SetMaxBytes(b.GetWriteBatch()->GetDataSize() + 5);
  EXPECT_TRUE(base.Put("another", "value").IsMemoryLimit());
  EXPECT_EQ("NOT_FOUND", Get(&b, "another"));
  base.SetMaxBytes(0);
  ASSERT_OK(base.Put("another", "value"));
  EXPECT_EQ("value", Get(&b, "another"));
}

}  // namespace
}  // namespace strata
