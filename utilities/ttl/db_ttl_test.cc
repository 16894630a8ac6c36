// DBWithTTL tests: values are stored with RocksDB's 4-byte write time and
// read back without it through every read path; compactions remove what
// expired (by a clock the test moves) and nothing else; a family's own
// compaction filter, filter factory and merge operator see unstamped data;
// per-family ttls and SetTtl; read-only opens; data written without TTL
// reads as Corruption; and a randomized run against a std::map model.
#include "strata/utilities/db_ttl.h"

#include <map>
#include <random>

#include "gtest/gtest.h"
#include "strata/compaction_filter.h"
#include "strata/db.h"
#include "strata/env.h"
#include "strata/merge_operator.h"
#include "strata/write_batch.h"
#include "test_util/mock_clock.h"
#include "test_util/testutil.h"
#include "util/coding.h"

namespace strata {
namespace {

// Concatenates with '+'; a stand-in for any user merge operator.
class ConcatOperator final : public AssociativeMergeOperator {
 public:
  bool Merge(const Slice&, const Slice* existing, const Slice& value, std::string* out,
             Logger*) const override {
    out->clear();
    if (existing != nullptr) out->assign(existing->data(), existing->size()).append("+");
    out->append(value.data(), value.size());
    return true;
  }
  const char* Name() const override { return "Concat"; }
};

// Removes "drop" values and rewrites "change" to "changed"; records what it
// was shown.
class UserFilter final : public CompactionFilter {
 public:
  bool Filter(int, const Slice&, const Slice& value, std::string* new_value,
              bool* changed) const override {
    seen.push_back(value.ToString());
    if (value == Slice("drop")) return true;
    if (value == Slice("change")) {
      *new_value = "changed";
      *changed = true;
    }
    return false;
  }
  const char* Name() const override { return "UserFilter"; }
  mutable std::vector<std::string> seen;
};

class UserFilterFactory final : public CompactionFilterFactory {
 public:
  std::unique_ptr<CompactionFilter> CreateCompactionFilter(
      const CompactionFilter::Context&) override {
    created++;
    return std::make_unique<UserFilter>();
  }
  const char* Name() const override { return "UserFilterFactory"; }
  int created = 0;
};

class DBWithTTLTest : public ::testing::Test {
 protected:
  DBWithTTLTest()
      : dir_("db_ttl_test"),
        path_(dir_.path() + "/db"),
        clock_(std::make_shared<test::WallClockOffset>()),
        env_(test::NewWallClockOffsetEnv(clock_)) {}

  Options Opts() {
    Options o;
    o.create_if_missing = true;
    o.env = env_.get();
    return o;
  }
  void Open(int32_t ttl, const Options& o) { ASSERT_OK(DBWithTTL::Open(o, path_, &db_, ttl)); }
  void Open(int32_t ttl) { Open(ttl, Opts()); }

  std::string Get(const std::string& k, ColumnFamilyHandle* cf = nullptr) {
    std::string v;
    Status s = db_->Get(ReadOptions(), cf != nullptr ? cf : db_->DefaultColumnFamily(), k, &v);
    if (s.IsNotFound()) return "NOT_FOUND";
    if (!s.ok()) return s.ToString();
    return v;
  }
  std::map<std::string, std::string> Scan(DB* db, ColumnFamilyHandle* cf = nullptr) {
    std::map<std::string, std::string> out;
    auto it = db->NewIterator(ReadOptions(), cf != nullptr ? cf : db->DefaultColumnFamily());
    for (it->SeekToFirst(); it->Valid(); it->Next())
      out[it->key().ToString()] = it->value().ToString();
    EXPECT_OK(it->status());
    return out;
  }
  void CompactAll(ColumnFamilyHandle* cf = nullptr) {
    ASSERT_OK(db_->CompactRange(CompactRangeOptions(),
                                cf != nullptr ? cf : db_->DefaultColumnFamily(), nullptr, nullptr));
  }

  test::TempDir dir_;
  std::string path_;
  std::shared_ptr<test::WallClockOffset> clock_;
  std::unique_ptr<Env> env_;
  std::unique_ptr<DBWithTTL> db_;
};

TEST_F(DBWithTTLTest, ValuesAreStoredWithTheirWriteTimeAndReadWithout) {
  Open(1000);
  int64_t before = clock_->Now();
  ASSERT_OK(db_->Put(WriteOptions(), "a", "alpha"));
  ASSERT_OK(db_->Put(WriteOptions(), "b", ""));
  int64_t after = clock_->Now();

  EXPECT_EQ(Get("a"), "alpha");
  EXPECT_EQ(Get("b"), "");
  PinnableSlice pinned;
  ASSERT_OK(db_->Get(ReadOptions(), db_->DefaultColumnFamily(), "a", &pinned));
  EXPECT_EQ(pinned.ToString(), "alpha");
  std::vector<std::string> values;
  std::vector<Status> st =
      db_->MultiGet(ReadOptions(), {Slice("a"), Slice("b"), Slice("c")}, &values);
  ASSERT_OK(st[0]);
  ASSERT_OK(st[1]);
  EXPECT_TRUE(st[2].IsNotFound());
  EXPECT_EQ(values[0], "alpha");
  EXPECT_EQ(values[1], "");
  Slice keys[2] = {"a", "b"};
  PinnableSlice pv[2];
  Status ps[2];
  db_->MultiGet(ReadOptions(), db_->DefaultColumnFamily(), 2, keys, pv, ps);
  ASSERT_OK(ps[0]);
  EXPECT_EQ(pv[0].ToString(), "alpha");
  EXPECT_EQ(pv[1].ToString(), "");
  std::string v;
  bool found = false;
  EXPECT_TRUE(db_->KeyMayExist(ReadOptions(), db_->DefaultColumnFamily(), "a", &v, &found));
  if (found) {
    EXPECT_EQ(v, "alpha");
  }
  EXPECT_EQ(Scan(db_.get()), (std::map<std::string, std::string>{{"a", "alpha"}, {"b", ""}}));
  ASSERT_OK(db_->Flush(FlushOptions()));
  EXPECT_EQ(Scan(db_.get()), (std::map<std::string, std::string>{{"a", "alpha"}, {"b", ""}}));
  db_.reset();

  // The plain DB sees RocksDB's stored form: the value, then int32 LE time.
  std::unique_ptr<DB> plain;
  ASSERT_OK(DB::Open(Opts(), path_, &plain));
  ASSERT_OK(plain->Get(ReadOptions(), "a", &v));
  ASSERT_EQ(v.size(), 5u + DBWithTTL::kTimestampSize);
  EXPECT_EQ(v.substr(0, 5), "alpha");
  int64_t stamp = static_cast<int32_t>(DecodeFixed32(v.data() + 5));
  EXPECT_GE(stamp, before);
  EXPECT_LE(stamp, after);
}

TEST_F(DBWithTTLTest, CompactionRemovesExactlyTheExpiredEntries) {
  Open(100);
  ASSERT_OK(db_->Put(WriteOptions(), "old1", "v"));
  ASSERT_OK(db_->Put(WriteOptions(), "old2", "v"));
  clock_->Advance(50);
  ASSERT_OK(db_->Put(WriteOptions(), "new", "v"));
  clock_->Advance(60);  // old*: written 110 s ago; new: 60 s ago
  ASSERT_OK(db_->Flush(FlushOptions()));
  // Reads still see expired entries until a compaction removes them.
  EXPECT_EQ(Get("old1"), "v");
  CompactAll();
  EXPECT_EQ(Get("old1"), "NOT_FOUND");
  EXPECT_EQ(Get("old2"), "NOT_FOUND");
  EXPECT_EQ(Get("new"), "v");
  clock_->Advance(41);
  CompactAll();
  EXPECT_EQ(Get("new"), "NOT_FOUND");
}

TEST_F(DBWithTTLTest, SetTtlAppliesToLaterCompactionsAndZeroNeverExpires) {
  Open(0);
  int32_t ttl = -1;
  ASSERT_OK(db_->GetTtl(db_->DefaultColumnFamily(), &ttl));
  EXPECT_EQ(ttl, 0);
  ASSERT_OK(db_->Put(WriteOptions(), "k", "v"));
  clock_->Advance(1000000);
  CompactAll();
  EXPECT_EQ(Get("k"), "v");
  db_->SetTtl(10);
  ASSERT_OK(db_->GetTtl(db_->DefaultColumnFamily(), &ttl));
  EXPECT_EQ(ttl, 10);
  CompactAll();
  EXPECT_EQ(Get("k"), "NOT_FOUND");
  EXPECT_TRUE(db_->GetTtl(nullptr, &ttl).IsInvalidArgument());
}

TEST_F(DBWithTTLTest, MergeOperatorSeesUnstampedOperandsAndResultIsStamped) {
  Options o = Opts();
  o.merge_operator = std::make_shared<ConcatOperator>();
  Open(100, o);
  ASSERT_OK(db_->Put(WriteOptions(), "k", "a"));
  ASSERT_OK(db_->Merge(WriteOptions(), "k", "b"));
  ASSERT_OK(db_->Flush(FlushOptions()));
  ASSERT_OK(db_->Merge(WriteOptions(), "k", "c"));
  ASSERT_OK(db_->Merge(WriteOptions(), "m", "x"));
  EXPECT_EQ(Get("k"), "a+b+c");
  EXPECT_EQ(Get("m"), "x");

  PinnableSlice ops[4];
  GetMergeOperandsOptions gmo;
  gmo.expected_max_number_of_operands = 4;
  int n = 0;
  ASSERT_OK(db_->GetMergeOperands(ReadOptions(), db_->DefaultColumnFamily(), "k", ops, &gmo, &n));
  // The flush merged the put and the first operand (a+b, stamped by it).
  ASSERT_EQ(n, 2);
  EXPECT_EQ(ops[0].ToString(), "a+b");
  EXPECT_EQ(ops[1].ToString(), "c");

  clock_->Advance(60);
  CompactAll();  // the merged value gets the compaction's time
  EXPECT_EQ(Get("k"), "a+b+c");
  clock_->Advance(60);  // 120 s after the writes, 60 s after the merge
  CompactAll();
  EXPECT_EQ(Get("k"), "a+b+c");
  clock_->Advance(50);
  CompactAll();
  EXPECT_EQ(Get("k"), "NOT_FOUND");
}

TEST_F(DBWithTTLTest, UserCompactionFilterSeesUnstampedValues) {
  UserFilter filter;
  Options o = Opts();
  o.compaction_filter = &filter;
  Open(100, o);
  ASSERT_OK(db_->Put(WriteOptions(), "a", "drop"));
  ASSERT_OK(db_->Put(WriteOptions(), "b", "change"));
  ASSERT_OK(db_->Put(WriteOptions(), "c", "keep"));
  ASSERT_OK(db_->Flush(FlushOptions()));
  int64_t stamp_before = clock_->Now();
  CompactAll();
  EXPECT_EQ(Get("a"), "NOT_FOUND");
  EXPECT_EQ(Get("b"), "changed");
  EXPECT_EQ(Get("c"), "keep");
  // Compactions (one or more) showed it the values without their stamps.
  ASSERT_GE(filter.seen.size(), 3u);
  EXPECT_EQ(std::vector<std::string>(filter.seen.begin(), filter.seen.begin() + 3),
            (std::vector<std::string>{"drop", "change", "keep"}));
  for (const std::string& v : filter.seen) {
    EXPECT_TRUE(v == "change" || v == "changed" || v == "keep" || v == "drop") << v;
  }
  // The rewritten value kept its original write time: it still expires.
  clock_->Advance(101 + (clock_->Now() - stamp_before));
  CompactAll();
  EXPECT_EQ(Scan(db_.get()), (std::map<std::string, std::string>{}));
}

TEST_F(DBWithTTLTest, UserFilterFactoryIsStillAsked) {
  auto factory = std::make_shared<UserFilterFactory>();
  Options o = Opts();
  o.compaction_filter_factory = factory;
  Open(100, o);
  ASSERT_OK(db_->Put(WriteOptions(), "a", "drop"));
  ASSERT_OK(db_->Put(WriteOptions(), "b", "change"));
  ASSERT_OK(db_->Flush(FlushOptions()));
  CompactAll();
  EXPECT_GE(factory->created, 1);
  EXPECT_EQ(Scan(db_.get()), (std::map<std::string, std::string>{{"b", "changed"}}));
}

TEST_F(DBWithTTLTest, WriteBatchIsRestampedAcrossFamilies) {
  Options o = Opts();
  o.merge_operator = std::make_shared<ConcatOperator>();
  Open(100, o);
  ColumnFamilyHandle* cf = nullptr;
  ColumnFamilyOptions cfo(o);
  ASSERT_OK(db_->CreateColumnFamilyWithTtl(cfo, "short", &cf, 10));
  int32_t ttl = 0;
  ASSERT_OK(db_->GetTtl(cf, &ttl));
  EXPECT_EQ(ttl, 10);
  ASSERT_OK(db_->Put(WriteOptions(), "gone", "x"));
  ASSERT_OK(db_->Put(WriteOptions(), "single", "x"));
  ASSERT_OK(db_->Put(WriteOptions(), "r1", "x"));
  WriteBatch batch;
  ASSERT_OK(batch.Put("p", "1"));
  ASSERT_OK(batch.Merge("p", "2"));
  ASSERT_OK(batch.Delete("gone"));
  ASSERT_OK(batch.SingleDelete("single"));
  ASSERT_OK(batch.DeleteRange("r", "s"));
  ASSERT_OK(batch.PutLogData("blob"));
  ASSERT_OK(batch.Put(cf, "q", "in-cf"));
  ASSERT_OK(db_->Write(WriteOptions(), &batch));
  EXPECT_EQ(Scan(db_.get()), (std::map<std::string, std::string>{{"p", "1+2"}}));
  EXPECT_EQ(Get("q", cf), "in-cf");

  clock_->Advance(50);  // past the family's 10 s, within the default's 100 s
  CompactAll(cf);
  CompactAll();
  EXPECT_EQ(Get("q", cf), "NOT_FOUND");
  EXPECT_EQ(Get("p"), "1+2");
  ASSERT_OK(db_->DestroyColumnFamilyHandle(cf));
}

TEST_F(DBWithTTLTest, OpenWithFamiliesTakesOneTtlEach) {
  {
    std::unique_ptr<DB> plain;
    Options o = Opts();
    ASSERT_OK(DB::Open(o, path_, &plain));
    ColumnFamilyHandle* h = nullptr;
    ASSERT_OK(plain->CreateColumnFamily(ColumnFamilyOptions(), "one", &h));
    ASSERT_OK(plain->DestroyColumnFamilyHandle(h));
  }
  std::vector<ColumnFamilyDescriptor> cfs = {{kDefaultColumnFamilyName, ColumnFamilyOptions()},
                                             {"one", ColumnFamilyOptions()}};
  std::vector<ColumnFamilyHandle*> handles;
  DBOptions dbo(Opts());
  EXPECT_TRUE(DBWithTTL::Open(dbo, path_, cfs, &handles, &db_, {5}).IsInvalidArgument());
  EXPECT_EQ(db_, nullptr);
  ASSERT_OK(DBWithTTL::Open(dbo, path_, cfs, &handles, &db_, {0, 5}));
  ASSERT_EQ(handles.size(), 2u);
  ASSERT_OK(db_->Put(WriteOptions(), handles[0], "k", "v"));
  ASSERT_OK(db_->Put(WriteOptions(), handles[1], "k", "v"));
  clock_->Advance(10);
  CompactAll(handles[0]);
  CompactAll(handles[1]);
  EXPECT_EQ(Get("k", handles[0]), "v");
  EXPECT_EQ(Get("k", handles[1]), "NOT_FOUND");
  for (auto* h : handles) ASSERT_OK(db_->DestroyColumnFamilyHandle(h));
}

TEST_F(DBWithTTLTest, ReadOnlyOpenStripsToo) {
  Open(100);
  ASSERT_OK(db_->Put(WriteOptions(), "k", "v"));
  db_.reset();
  ASSERT_OK(DBWithTTL::Open(Opts(), path_, &db_, 100, /*read_only=*/true));
  EXPECT_EQ(Get("k"), "v");
  EXPECT_EQ(Scan(db_.get()), (std::map<std::string, std::string>{{"k", "v"}}));
  EXPECT_FALSE(db_->Put(WriteOptions(), "x", "y").ok());
}

TEST_F(DBWithTTLTest, DataWrittenWithoutTtlReadsAsCorruption) {
  {
    std::unique_ptr<DB> plain;
    ASSERT_OK(DB::Open(Opts(), path_, &plain));
    ASSERT_OK(plain->Put(WriteOptions(), "short", "ab"));
    // A 4-byte tail that reads as 1970-01-01 00:00:01.
    ASSERT_OK(plain->Put(WriteOptions(), "early", std::string("v\x01\x00\x00\x00", 5)));
  }
  Open(100);
  std::string v;
  Status s = db_->Get(ReadOptions(), "short", &v);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  s = db_->Get(ReadOptions(), "early", &v);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  auto it = db_->NewIterator(ReadOptions());
  it->Seek("short");
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().IsCorruption()) << it->status().ToString();
  EXPECT_NE(it->status().ToString().find("short"), std::string::npos);
  // A new positioning clears it where the value is long enough.
  it->SeekToFirst();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key().ToString(), "early");
  EXPECT_EQ(it->value().ToString(), "v");
}

// Random puts, merges, deletes and batches with the clock moving, while
// background compactions (small memtables) expire entries at any time.
// Checked against a model after each round:
//   - a key is missing only if it had expired (its first write time + ttl
//     is past: everything stored for it is at least that old);
//   - a present key written by puts only has the model's value; one that
//     merges touched has a suffix of its merge chain (an expired base, or
//     an expired merge result of the older part, may have been removed
//     while newer operands remain: operands never expire, a merge result is
//     stamped when it runs);
//   - after a full compaction, no put-only key that expired is left.
TEST_F(DBWithTTLTest, RandomizedAgainstModel) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  SCOPED_TRACE("seed " + std::to_string(seed));
  const int32_t kTtl = 20;
  Options o = Opts();
  o.merge_operator = std::make_shared<ConcatOperator>();
  o.write_buffer_size = 16 << 10;
  Open(kTtl, o);
  struct Entry {
    std::vector<std::string> parts;  // the put value (if any) and operands, oldest first
    int64_t stamp;                   // the oldest write time still counted
    bool merged;                     // parts.size() may exceed 1
  };
  auto joined = [](const std::vector<std::string>& parts, size_t from) {
    std::string out;
    for (size_t i = from; i < parts.size(); i++) out += (i > from ? "+" : "") + parts[i];
    return out;
  };
  std::map<std::string, Entry> model;
  auto key = [&] { return "k" + std::to_string(rng() % 256); };
  int expired_seen = 0;
  for (int round = 0; round < 40; round++) {
    for (int i = 0; i < 100; i++) {
      std::string k = key();
      std::string v = test::RandomPrintable(&rng, rng() % 20);
      int64_t now = clock_->Now();
      switch (rng() % 5) {
        case 0:
        case 1:
          ASSERT_OK(db_->Put(WriteOptions(), k, v));
          model[k] = {{v}, now, false};
          break;
        case 2:
          ASSERT_OK(db_->Delete(WriteOptions(), k));
          model.erase(k);
          break;
        case 3: {
          ASSERT_OK(db_->Merge(WriteOptions(), k, v));
          auto it = model.find(k);
          if (it == model.end()) {
            model[k] = {{v}, now, true};
          } else {
            it->second.parts.push_back(v);
            it->second.merged = true;
          }
          break;
        }
        default: {
          WriteBatch b;
          std::string k2 = key();
          ASSERT_OK(b.Put(k, v));
          ASSERT_OK(b.Delete(k2));
          ASSERT_OK(db_->Write(WriteOptions(), &b));
          model[k] = {{v}, now, false};
          model.erase(k2);  // the delete comes after the put (k2 may be k)
          break;
        }
      }
    }
    clock_->Advance(static_cast<int64_t>(rng() % 10));
    const bool full = rng() % 3 == 0;
    if (full) CompactAll();
    const int64_t now = clock_->Now();
    std::map<std::string, std::string> got = Scan(db_.get());
    for (const auto& [k, v] : got) {
      ASSERT_TRUE(model.count(k)) << k << " present but never written or deleted, round " << round;
    }
    for (auto it = model.begin(); it != model.end();) {
      const Entry& e = it->second;
      const bool expired = e.stamp + kTtl < now;
      auto g = got.find(it->first);
      if (g == got.end()) {
        ASSERT_TRUE(expired) << it->first << " missing before it expired, round " << round;
        expired_seen++;
        it = model.erase(it);
        continue;
      }
      if (!e.merged) {
        ASSERT_EQ(g->second, e.parts[0]) << it->first << ", round " << round;
        ASSERT_FALSE(full && expired) << it->first << " expired but kept, round " << round;
      } else {
        bool suffix = false;
        for (size_t from = 0; from < e.parts.size() && !suffix; from++) {
          suffix = g->second == joined(e.parts, from);
        }
        ASSERT_TRUE(suffix) << it->first << " = '" << g->second << "', chain '"
                            << joined(e.parts, 0) << "', round " << round;
        // The chain stays whole: what a read merged may still be stored
        // apart, and a later compaction may yet drop its expired base.
      }
      ++it;
    }
  }
  EXPECT_GT(expired_seen, 0);  // the clock moved far enough to expire some
}

}  // namespace
}  // namespace strata
