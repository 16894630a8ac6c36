// Tests of the read API additions (docs/design/read-api.md): Get and
// MultiGet into PinnableSlices (values equal the std::string Get's, pinned
// where a table holds them, alive after their files are compacted away),
// ReadOptions::read_tier, KeyMayExist, GetMergeOperands, NewIterators and
// Iterator::Refresh -- each randomized against a std::map model where it
// has state -- and PinnableSlice / Cleanable themselves.

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <ctime>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "strata/cache.h"
#include "strata/db.h"
#include "strata/iterator.h"
#include "strata/merge_operator.h"
#include "strata/pinnable_slice.h"
#include "strata/snapshot.h"
#include "strata/table.h"
#include "strata/write_batch.h"
#include "test_util/db_test_base.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

// ---- PinnableSlice and Cleanable ----

void Append(void* log, void* tag) {
  static_cast<std::string*>(log)->append(static_cast<const char*>(tag));
}

TEST(PinnableSliceTest, CleanupsRunOnceOnResetAndDestruction) {
  std::string log;
  {
    PinnableSlice p;
    p.PinSlice("abc", &Append, &log, const_cast<char*>("1"));
    p.RegisterCleanup(&Append, &log, const_cast<char*>("2"));
    p.RegisterCleanup(&Append, &log, const_cast<char*>("3"));
    EXPECT_TRUE(p.IsPinned());
    EXPECT_EQ(p.ToString(), "abc");
    p.Reset();
    EXPECT_EQ(log.size(), 3u);
    EXPECT_FALSE(p.IsPinned());
    EXPECT_EQ(p.size(), 0u);
    p.PinSlice("x", &Append, &log, const_cast<char*>("4"));
  }
  EXPECT_EQ(log.size(), 4u);
  EXPECT_NE(log.find('4'), std::string::npos);
}

TEST(PinnableSliceTest, MoveAndDelegateTransferThePin) {
  std::string log;
  PinnableSlice a;
  a.PinSlice("pinned", &Append, &log, const_cast<char*>("a"));
  PinnableSlice b(std::move(a));
  EXPECT_FALSE(a.IsPinned());
  EXPECT_TRUE(b.IsPinned());
  EXPECT_EQ(b.ToString(), "pinned");
  a.Reset();
  EXPECT_EQ(log, "");
  PinnableSlice c;
  c.PinSelf("copy");
  c = std::move(b);
  EXPECT_EQ(c.ToString(), "pinned");
  EXPECT_EQ(log, "");
  Cleanable holder;
  holder.RegisterCleanup(&Append, &log, const_cast<char*>("h"));
  PinnableSlice d;
  d.PinSlice("via holder", &holder);
  EXPECT_FALSE(holder.HasCleanups());
  d.Reset();
  EXPECT_EQ(log, "h");
  c.Reset();
  EXPECT_EQ(log, "ha");

  // A copy moves with its bytes; a caller's buffer stays the caller's.
  PinnableSlice e;
  e.PinSelf(std::string(100, 'x'));
  PinnableSlice f(std::move(e));
  EXPECT_EQ(f.ToString(), std::string(100, 'x'));
  std::string buf;
  PinnableSlice g(&buf);
  g.PinSelf("into buf");
  EXPECT_EQ(buf, "into buf");
  g.remove_prefix(5);
  EXPECT_EQ(g.ToString(), "buf");
  EXPECT_EQ(buf, "buf");
}

// ---- the DB ----

// Concatenates operands with ','.
class JoinOperator : public AssociativeMergeOperator {
 public:
  bool Merge(const Slice& /*key*/, const Slice* existing, const Slice& value,
             std::string* new_value, Logger* /*logger*/) const override {
    new_value->clear();
    if (existing != nullptr) {
      new_value->assign(existing->data(), existing->size());
      new_value->push_back(',');
    }
    new_value->append(value.data(), value.size());
    return true;
  }
  const char* Name() const override { return "JoinOperator"; }
};

// How the tables are read.
struct ReadSetup {
  const char* name;
  bool mmap;
  bool block_cache;  // false: no_block_cache
  CompressionType compression;
  int max_open_files;
};

const ReadSetup kSetups[] = {
    {"mmap", true, true, kNoCompression, -1},
    {"mmap_bounded_readers", true, true, kNoCompression, 30},
    {"mmap_compressed", true, true, kLZ4Compression, -1},
    {"block_cache", false, true, kNoCompression, -1},
    {"block_cache_compressed", false, true, kSnappyCompression, 30},
    {"no_block_cache", false, false, kNoCompression, -1},
};

class DBReadApiTest : public DBTestBase, public ::testing::WithParamInterface<int> {
 protected:
  DBReadApiTest() : DBTestBase("db_read_api_test") {}

  Options SetupOptions(const ReadSetup& setup) {
    Options o = SmallOptions();
    o.table_mmap_reads = setup.mmap;
    o.compression = setup.compression;
    o.max_open_files = setup.max_open_files;
    o.merge_operator = std::make_shared<JoinOperator>();
    BlockBasedTableOptions t;
    t.block_size = 1024;
    if (setup.block_cache) {
      t.block_cache = NewLRUCache(8 << 20);
    } else {
      t.no_block_cache = true;
    }
    o.table_factory = NewBlockBasedTableFactory(t);
    return o;
  }

  Status PinGet(const std::string& key, PinnableSlice* out, const ReadOptions& ro = ReadOptions()) {
    return db_->Get(ro, key, out);
  }
};

std::string Value(int i, int version) {
  return "value-" + std::to_string(i) + "-" + std::to_string(version) + std::string(i % 50, 'p');
}
std::string Key(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "key%06d", i);
  return buf;
}

// Values in the memtable, level 0 and deeper levels: the pinned Get equals
// the string Get, table values are pinned and memtable values and merge
// results copied. Every value stays readable after its files are
// compacted away.
TEST_P(DBReadApiTest, PinnedGetMatchesStringGet) {
  const ReadSetup& setup = kSetups[GetParam()];
  SCOPED_TRACE(setup.name);
  Open(SetupOptions(setup));
  std::map<std::string, std::string> model;
  const int n = 3000;
  for (int i = 0; i < n; i++) {
    ASSERT_OK(Put(Key(i), Value(i, 0)));
    model[Key(i)] = Value(i, 0);
  }
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  for (int i = 0; i < n; i += 3) {
    ASSERT_OK(Put(Key(i), Value(i, 1)));
    model[Key(i)] = Value(i, 1);
  }
  ASSERT_OK(Flush());  // a level-0 file over the compacted ones
  for (int i = 0; i < n; i += 7) {
    ASSERT_OK(Put(Key(i), Value(i, 2)));  // memtable
    model[Key(i)] = Value(i, 2);
  }
  for (int i = 1; i < n; i += 11) {
    ASSERT_OK(Merge(Key(i), "m"));  // merge over a table value: copied
    model[Key(i)] += ",m";
  }
  ASSERT_OK(Delete(Key(5)));
  model.erase(Key(5));

  // Pin one value of each kind and keep it across the compaction below.
  std::vector<std::unique_ptr<PinnableSlice>> kept;
  std::vector<std::string> kept_keys;
  int pinned = 0;
  for (int i = 0; i < n; i++) {
    const std::string k = Key(i);
    auto p = std::make_unique<PinnableSlice>();
    Status s = PinGet(k, p.get());
    std::string str;
    Status s2 = db_->Get(ReadOptions(), k, &str);
    auto it = model.find(k);
    if (it == model.end()) {
      ASSERT_TRUE(s.IsNotFound()) << k << " " << s.ToString();
      ASSERT_TRUE(s2.IsNotFound());
      EXPECT_FALSE(p->IsPinned());
      continue;
    }
    ASSERT_OK(s);
    ASSERT_OK(s2);
    ASSERT_EQ(p->ToString(), it->second) << k;
    ASSERT_EQ(str, it->second);
    const bool in_memtable = i % 7 == 0 || i % 11 == 1;
    if (in_memtable) {
      EXPECT_FALSE(p->IsPinned()) << k;  // memtable values and merges are copied
    } else {
      EXPECT_TRUE(p->IsPinned()) << k;
      pinned++;
    }
    if (i % 13 == 0) {
      kept.push_back(std::move(p));
      kept_keys.push_back(k);
    }
  }
  EXPECT_GT(pinned, n / 2);

  // Every file of the DB goes (rewritten by compaction); the pins hold.
  for (int i = 0; i < n; i++) ASSERT_OK(Put(Key(i), "new"));
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  ASSERT_OK(WaitForCompact());
  for (size_t j = 0; j < kept.size(); j++) {
    ASSERT_EQ(kept[j]->ToString(), model[kept_keys[j]]) << kept_keys[j];
  }
  kept.clear();
  Close();  // a pinned slice must be gone before the DB
}

// MultiGet into PinnableSlices equals Get, for one family and for keys
// of several families.
TEST_P(DBReadApiTest, PinnableMultiGetMatchesGet) {
  const ReadSetup& setup = kSetups[GetParam()];
  SCOPED_TRACE(setup.name);
  Open(SetupOptions(setup));
  ColumnFamilyHandle* other = nullptr;
  ASSERT_OK(db_->CreateColumnFamily(options_, "other", &other));
  std::mt19937_64 rng(GetParam() + 5);
  std::map<std::string, std::string> model[2];
  ColumnFamilyHandle* cfs[2] = {db_->DefaultColumnFamily(), other};
  for (int round = 0; round < 4; round++) {
    for (int i = 0; i < 800; i++) {
      const int f = static_cast<int>(rng() % 2);
      const std::string k = Key(static_cast<int>(rng() % 1000));
      const std::string v = Value(static_cast<int>(rng() % 1000), round);
      ASSERT_OK(db_->Put(WriteOptions(), cfs[f], k, v));
      model[f][k] = v;
    }
    if (round < 3) {
      ASSERT_OK(db_->Flush(FlushOptions(), cfs[0]));
      ASSERT_OK(db_->Flush(FlushOptions(), cfs[1]));
    }
  }
  const size_t m = 300;
  std::vector<std::string> key_store(m);
  std::vector<Slice> keys(m);
  std::vector<ColumnFamilyHandle*> key_cfs(m);
  std::vector<int> fam(m);
  for (size_t i = 0; i < m; i++) {
    key_store[i] = Key(static_cast<int>(rng() % 1100));
    keys[i] = key_store[i];
    fam[i] = static_cast<int>(rng() % 2);
    key_cfs[i] = cfs[fam[i]];
  }
  std::vector<PinnableSlice> values(m);
  std::vector<Status> statuses(m);
  db_->MultiGet(ReadOptions(), cfs[0], m, keys.data(), values.data(), statuses.data());
  int pinned = 0;
  for (size_t i = 0; i < m; i++) {
    auto it = model[0].find(key_store[i]);
    if (it == model[0].end()) {
      ASSERT_TRUE(statuses[i].IsNotFound()) << statuses[i].ToString();
    } else {
      ASSERT_OK(statuses[i]);
      ASSERT_EQ(values[i].ToString(), it->second);
      pinned += values[i].IsPinned();
    }
  }
  std::vector<PinnableSlice> values2(m);
  db_->MultiGet(ReadOptions(), m, key_cfs.data(), keys.data(), values2.data(), statuses.data());
  for (size_t i = 0; i < m; i++) {
    auto it = model[fam[i]].find(key_store[i]);
    if (it == model[fam[i]].end()) {
      ASSERT_TRUE(statuses[i].IsNotFound()) << statuses[i].ToString();
    } else {
      ASSERT_OK(statuses[i]);
      ASSERT_EQ(values2[i].ToString(), it->second);
      pinned += values2[i].IsPinned();
    }
  }
  // Table values are pinned, except from blocks owned by the batch alone
  // (no block cache: copied).
  if (setup.block_cache) {
    EXPECT_GT(pinned, 0);
  } else {
    EXPECT_EQ(pinned, 0);
  }
  // The pinned values outlive their files.
  for (int i = 0; i < 1000; i++) ASSERT_OK(db_->Put(WriteOptions(), cfs[0], Key(i), "z"));
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), cfs[0], nullptr, nullptr));
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), cfs[1], nullptr, nullptr));
  for (size_t i = 0; i < m; i++) {
    if (!statuses[i].ok()) continue;
    ASSERT_EQ(values2[i].ToString(), model[fam[i]][key_store[i]]);
  }
  values.clear();
  values2.clear();
  ASSERT_OK(db_->DestroyColumnFamilyHandle(other));
}

// KeyMayExist never says no for a present key, says no for a key whose
// newest entry (in a memtable) is a deletion, and a value it reports found
// is the key's value.
TEST_P(DBReadApiTest, KeyMayExistAgainstModel) {
  const ReadSetup& setup = kSetups[GetParam()];
  SCOPED_TRACE(setup.name);
  Open(SetupOptions(setup));
  std::mt19937_64 rng(GetParam() * 31 + 1);
  std::map<std::string, std::string> model;
  for (int round = 0; round < 5; round++) {
    for (int i = 0; i < 600; i++) {
      const std::string k = Key(static_cast<int>(rng() % 1500));
      if (rng() % 5 == 0) {
        ASSERT_OK(Delete(k));
        model.erase(k);
      } else {
        const std::string v = Value(static_cast<int>(rng() % 100), round);
        ASSERT_OK(Put(k, v));
        model[k] = v;
      }
    }
    if (round % 2 == 0) ASSERT_OK(Flush());
    int found_values = 0;
    for (int i = 0; i < 1500; i++) {
      const std::string k = Key(i);
      std::string v;
      bool value_found = false;
      const bool may = db_->KeyMayExist(ReadOptions(), k, &v, &value_found);
      auto it = model.find(k);
      if (it != model.end()) {
        ASSERT_TRUE(may) << k;
        if (value_found) {
          ASSERT_EQ(v, it->second) << k;
          found_values++;
        }
      } else {
        ASSERT_FALSE(value_found) << k;
      }
    }
    if (round % 2 == 1) {
      EXPECT_GT(found_values, 0);  // the memtable holds this round
    }
  }
  // A deletion in the memtable decides.
  ASSERT_OK(Put("gone", "x"));
  ASSERT_OK(Flush());
  ASSERT_OK(Delete("gone"));
  std::string v;
  EXPECT_FALSE(db_->KeyMayExist(ReadOptions(), "gone", &v));
}

INSTANTIATE_TEST_SUITE_P(Setups, DBReadApiTest,
                         ::testing::Range(0, static_cast<int>(std::size(kSetups))),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return std::string(kSetups[info.param].name);
                         });

class DBReadApiSingleTest : public DBTestBase {
 protected:
  DBReadApiSingleTest() : DBTestBase("db_read_api_test") {
    options_.merge_operator = std::make_shared<JoinOperator>();
  }
};

// kBlockCacheTier: a table value whose block is not cached is Incomplete;
// once a normal read cached it, it is found.
TEST_F(DBReadApiSingleTest, BlockCacheTierIsIncompleteWithoutTheBlock) {
  Options o = options_;
  o.table_mmap_reads = false;
  BlockBasedTableOptions t;
  t.block_size = 1024;
  t.block_cache = NewLRUCache(8 << 20);
  o.table_factory = NewBlockBasedTableFactory(t);
  Open(o);
  for (int i = 0; i < 500; i++) ASSERT_OK(Put(Key(i), Value(i, 0)));
  ASSERT_OK(Flush());
  Reopen(o);  // an empty block cache
  ReadOptions cache_only;
  cache_only.read_tier = kBlockCacheTier;
  std::string v;
  Status s = db_->Get(cache_only, Key(10), &v);
  ASSERT_TRUE(s.IsIncomplete()) << s.ToString();
  bool value_found = true;
  EXPECT_TRUE(db_->KeyMayExist(ReadOptions(), Key(10), &v, &value_found));
  EXPECT_FALSE(value_found);
  ASSERT_EQ(Get(Key(10)), Value(10, 0));  // caches the block
  ASSERT_OK(db_->Get(cache_only, Key(10), &v));
  EXPECT_EQ(v, Value(10, 0));
  value_found = false;
  EXPECT_TRUE(db_->KeyMayExist(ReadOptions(), Key(10), &v, &value_found));
  EXPECT_TRUE(value_found);
  EXPECT_EQ(v, Value(10, 0));
  // A memtable value needs no table.
  ASSERT_OK(Put("mem", "m"));
  ASSERT_OK(db_->Get(cache_only, "mem", &v));
  EXPECT_EQ(v, "m");
}

// kPersistedTier skips the memtables once a write skipped the WAL;
// iterators refuse it, as RocksDB's do.
TEST_F(DBReadApiSingleTest, PersistedTier) {
  Open();
  ASSERT_OK(Put("a", "1"));
  ASSERT_OK(Flush());
  ASSERT_OK(Put("b", "2"));
  ReadOptions persisted;
  persisted.read_tier = kPersistedTier;
  std::string v;
  ASSERT_OK(db_->Get(persisted, "b", &v));  // all writes had the WAL
  WriteOptions no_wal;
  no_wal.disableWAL = true;
  ASSERT_OK(Put("c", "3", no_wal));
  EXPECT_TRUE(db_->Get(persisted, "c", &v).IsNotFound());
  ASSERT_OK(db_->Get(persisted, "a", &v));
  EXPECT_EQ(v, "1");
  ASSERT_OK(db_->Get(ReadOptions(), "c", &v));
  auto it = db_->NewIterator(persisted);
  EXPECT_TRUE(it->status().IsNotSupported());
  std::vector<std::unique_ptr<Iterator>> its;
  EXPECT_TRUE(db_->NewIterators(persisted, {db_->DefaultColumnFamily()}, &its).IsNotSupported());
}

// kMemtableTier iterators see the memtables only.
TEST_F(DBReadApiSingleTest, MemtableTierIterator) {
  Open();
  ASSERT_OK(Put("a", "1"));
  ASSERT_OK(Flush());
  ASSERT_OK(Put("b", "2"));
  ReadOptions mem_only;
  mem_only.read_tier = kMemtableTier;
  auto it = db_->NewIterator(mem_only);
  it->SeekToFirst();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key().ToString(), "b");
  it->Next();
  EXPECT_FALSE(it->Valid());
  ASSERT_OK(it->status());
}

// GetMergeOperands against a model: per key, the operands since its last
// Put (included first) or Delete, across memtables, flushes, compactions
// and snapshots.
TEST_F(DBReadApiSingleTest, GetMergeOperandsAgainstModel) {
  Open();
  std::mt19937_64 rng(4242);
  using Model = std::map<std::string, std::vector<std::string>>;  // absent: no key
  Model model;
  std::vector<std::pair<const Snapshot*, Model>> snapshots;
  // strict: the DB has never flushed, so every operand is still separate;
  // later, flushes and compactions may combine operands (partial merges)
  // or fold them into their base, so the operands must join to the same
  // value and be no more than the model's.
  bool strict = true;
  auto join = [](const std::vector<std::string>& parts) {
    std::string out;
    for (size_t j = 0; j < parts.size(); j++) out += (j == 0 ? "" : ",") + parts[j];
    return out;
  };
  auto check = [&](const Model& m, const Snapshot* snap) {
    ReadOptions ro;
    ro.snapshot = snap;
    for (int i = 0; i < 60; i++) {
      const std::string k = Key(i);
      std::vector<PinnableSlice> ops(8);
      GetMergeOperandsOptions gmo;
      gmo.expected_max_number_of_operands = 8;
      int count = -1;
      Status s = db_->GetMergeOperands(ro, db_->DefaultColumnFamily(), k, ops.data(), &gmo, &count);
      auto it = m.find(k);
      if (it == m.end()) {
        ASSERT_TRUE(s.IsNotFound()) << k << " " << s.ToString();
        continue;
      }
      const std::vector<std::string>& want = it->second;
      if (s.IsIncomplete()) {
        ASSERT_GT(count, 8);
        ASSERT_LE(count, static_cast<int>(want.size()));
        if (strict) {
          ASSERT_EQ(count, static_cast<int>(want.size()));
        }
        continue;
      }
      ASSERT_OK(s);
      ASSERT_GE(count, 1);
      ASSERT_LE(count, static_cast<int>(want.size())) << k;
      std::vector<std::string> got;
      for (int j = 0; j < count; j++) got.push_back(ops[j].ToString());
      if (strict) {
        ASSERT_EQ(got, want) << k;
      } else {
        ASSERT_EQ(join(got), join(want)) << k;
      }
      // The string Get merges the same operands.
      std::string v;
      ASSERT_OK(db_->Get(ro, k, &v));
      ASSERT_EQ(v, join(want));
    }
  };
  for (int step = 0; step < 1500; step++) {
    const std::string k = Key(static_cast<int>(rng() % 60));
    const int op = static_cast<int>(rng() % 10);
    if (op < 6) {
      const std::string operand = "o" + std::to_string(step);
      ASSERT_OK(Merge(k, operand));
      model[k].push_back(operand);
    } else if (op < 8) {
      const std::string v = "p" + std::to_string(step);
      ASSERT_OK(Put(k, v));
      model[k] = {v};
    } else {
      ASSERT_OK(Delete(k));
      model.erase(k);
    }
    if (step == 150) check(model, nullptr);  // strict: all in the memtable
    if (step % 200 == 199) {
      ASSERT_OK(Flush());
      strict = false;
    }
    if (step % 500 == 499) ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
    if (step % 300 == 150) snapshots.emplace_back(db_->GetSnapshot(), model);
    if (step % 250 == 0 && !strict) check(model, nullptr);
  }
  check(model, nullptr);
  for (auto& [snap, m] : snapshots) {
    check(m, snap);
    db_->ReleaseSnapshot(snap);
  }
}

// Operands spread over a table and the memtable, oldest first, the base
// value first; more than expected is Incomplete with the count.
TEST_F(DBReadApiSingleTest, GetMergeOperandsAcrossTablesAndMemtable) {
  Open();
  ASSERT_OK(Put("k", "base"));
  ASSERT_OK(Flush());
  ASSERT_OK(Merge("k", "m1"));
  ASSERT_OK(Merge("k", "m2"));
  std::vector<PinnableSlice> ops(3);
  GetMergeOperandsOptions gmo;
  gmo.expected_max_number_of_operands = 3;
  int count = 0;
  ASSERT_OK(db_->GetMergeOperands(ReadOptions(), db_->DefaultColumnFamily(), "k", ops.data(), &gmo,
                                  &count));
  ASSERT_EQ(count, 3);
  EXPECT_EQ(ops[0].ToString(), "base");
  EXPECT_EQ(ops[1].ToString(), "m1");
  EXPECT_EQ(ops[2].ToString(), "m2");
  gmo.expected_max_number_of_operands = 2;
  Status s = db_->GetMergeOperands(ReadOptions(), db_->DefaultColumnFamily(), "k", ops.data(), &gmo,
                                   &count);
  EXPECT_TRUE(s.IsIncomplete()) << s.ToString();
  EXPECT_EQ(count, 3);
  ASSERT_OK(Delete("k"));
  ASSERT_OK(Merge("k", "after"));
  gmo.expected_max_number_of_operands = 3;
  ASSERT_OK(db_->GetMergeOperands(ReadOptions(), db_->DefaultColumnFamily(), "k", ops.data(), &gmo,
                                  &count));
  ASSERT_EQ(count, 1);
  EXPECT_EQ(ops[0].ToString(), "after");
  EXPECT_TRUE(db_->GetMergeOperands(ReadOptions(), db_->DefaultColumnFamily(), "none", ops.data(),
                                    &gmo, &count)
                  .IsNotFound());
}

// NewIterators: every iterator reads one sequence number. A writer puts
// the same counter into both families in one batch; the two iterators must
// always agree.
TEST_F(DBReadApiSingleTest, NewIteratorsShareOneSequence) {
  Open();
  ColumnFamilyHandle* other = nullptr;
  ASSERT_OK(db_->CreateColumnFamily(options_, "other", &other));
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    for (int i = 0; !stop.load(); i++) {
      WriteBatch b;
      const std::string k = Key(i % 200);
      const std::string v = std::to_string(i);
      ASSERT_OK(b.Put(k, v));
      ASSERT_OK(b.Put(other, k, v));
      ASSERT_OK(db_->Write(WriteOptions(), &b));
      if (i % 3000 == 2999) ASSERT_OK(db_->Flush(FlushOptions(), other));
    }
  });
  for (int round = 0; round < 200; round++) {
    std::vector<std::unique_ptr<Iterator>> its;
    ASSERT_OK(db_->NewIterators(ReadOptions(), {db_->DefaultColumnFamily(), other}, &its));
    ASSERT_EQ(its.size(), 2u);
    its[0]->SeekToFirst();
    its[1]->SeekToFirst();
    while (its[0]->Valid() && its[1]->Valid()) {
      ASSERT_EQ(its[0]->key().ToString(), its[1]->key().ToString());
      ASSERT_EQ(its[0]->value().ToString(), its[1]->value().ToString());
      its[0]->Next();
      its[1]->Next();
    }
    ASSERT_EQ(its[0]->Valid(), its[1]->Valid());
    ASSERT_OK(its[0]->status());
    ASSERT_OK(its[1]->status());
  }
  stop = true;
  writer.join();
  ASSERT_OK(db_->DestroyColumnFamilyHandle(other));
}

std::string ScanAll(Iterator* it) {
  std::string out;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    out += it->key().ToString() + "=" + it->value().ToString() + ";";
  }
  EXPECT_OK(it->status());
  return out;
}
std::string ScanModel(const std::map<std::string, std::string>& m) {
  std::string out;
  for (const auto& [k, v] : m) out += k + "=" + v + ";";
  return out;
}

// Refresh against a model: an iterator keeps its view until Refresh, which
// moves it to the newest state (not Valid until the next seek); with a
// snapshot Refresh is NotSupported.
TEST_F(DBReadApiSingleTest, RefreshAgainstModel) {
  Open();
  std::mt19937_64 rng(99);
  std::map<std::string, std::string> model;
  auto it = db_->NewIterator(ReadOptions());
  std::string view = ScanModel(model);
  for (int round = 0; round < 30; round++) {
    for (int i = 0; i < 100; i++) {
      const std::string k = Key(static_cast<int>(rng() % 300));
      if (rng() % 4 == 0) {
        ASSERT_OK(Delete(k));
        model.erase(k);
      } else {
        const std::string v = "v" + std::to_string(round) + "." + std::to_string(i);
        ASSERT_OK(Put(k, v));
        model[k] = v;
      }
    }
    if (round % 4 == 1) ASSERT_OK(Flush());
    if (round % 9 == 8) {
      ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
    }
    if (round % 5 == 4) ASSERT_OK(DeleteRange(Key(10), Key(40)));
    if (round % 5 == 4) {
      for (auto i = model.lower_bound(Key(10)); i != model.end() && i->first < Key(40);) {
        i = model.erase(i);
      }
    }
    ASSERT_EQ(ScanAll(it.get()), view) << "round " << round;  // the old view
    ASSERT_OK(it->Refresh());
    EXPECT_FALSE(it->Valid());
    view = ScanModel(model);
    ASSERT_EQ(ScanAll(it.get()), view) << "round " << round;
  }
  const Snapshot* snap = db_->GetSnapshot();
  ReadOptions at_snap;
  at_snap.snapshot = snap;
  auto snap_it = db_->NewIterator(at_snap);
  EXPECT_TRUE(snap_it->Refresh().IsNotSupported());
  snap_it.reset();
  db_->ReleaseSnapshot(snap);
}

// Iterator::GetProperty, columns() and timestamp() of a DB iterator, and a
// snapshot's time: the super-version number is the SuperVersion the
// iterator reads (kept across a flush, renewed by Refresh); merge results
// and backward positions answer their key and value too.
TEST_F(DBReadApiSingleTest, IteratorPropertiesColumnsAndSnapshotTime) {
  Open();
  ASSERT_OK(Put("a", "1"));
  ASSERT_OK(Put("b", "2"));
  ASSERT_OK(db_->Merge(WriteOptions(), "c", "x"));
  ASSERT_OK(db_->Merge(WriteOptions(), "c", "y"));
  auto it = db_->NewIterator(ReadOptions());
  std::string prop;
  ASSERT_OK(it->GetProperty("rocksdb.iterator.super-version-number", &prop));
  const uint64_t sv = std::stoull(prop);
  std::string current;
  ASSERT_TRUE(db_->GetProperty("rocksdb.current-super-version-number", &current));
  EXPECT_EQ(std::to_string(sv), current);
  ASSERT_OK(it->GetProperty("rocksdb.iterator.is-key-pinned", &prop));
  EXPECT_EQ("Iterator is not valid.", prop);
  std::string seen;
  for (it->SeekToLast(); it->Valid(); it->Prev()) {
    ASSERT_OK(it->GetProperty("rocksdb.iterator.internal-key", &prop));
    EXPECT_EQ(it->key().ToString(), prop);
    ASSERT_OK(it->GetProperty("rocksdb.iterator.is-key-pinned", &prop));
    EXPECT_EQ("0", prop);
    const WideColumns& cols = it->columns();
    ASSERT_EQ(1u, cols.size());
    EXPECT_TRUE(cols[0].name().empty());
    EXPECT_EQ(it->value(), cols[0].value());
    EXPECT_TRUE(it->timestamp().empty());
    seen += it->key().ToString() + ":" + cols[0].value().ToString() + " ";
  }
  EXPECT_EQ("c:x,y b:2 a:1 ", seen);
  it->Seek("c");  // forward, a merge result
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("x,y", it->columns()[0].value().ToString());
  EXPECT_TRUE(it->GetProperty("rocksdb.iterator.other", &prop).IsInvalidArgument());
  EXPECT_TRUE(it->GetProperty("rocksdb.iterator.internal-key", nullptr).IsInvalidArgument());

  ASSERT_OK(Flush());
  ASSERT_OK(it->GetProperty("rocksdb.iterator.super-version-number", &prop));
  EXPECT_EQ(sv, std::stoull(prop));
  ASSERT_OK(it->Refresh());
  ASSERT_OK(it->GetProperty("rocksdb.iterator.super-version-number", &prop));
  EXPECT_GT(std::stoull(prop), sv);
  ASSERT_TRUE(db_->GetProperty("rocksdb.current-super-version-number", &current));
  EXPECT_EQ(current, prop);
  it.reset();

  const int64_t before = static_cast<int64_t>(time(nullptr));
  const Snapshot* snap = db_->GetSnapshot();
  EXPECT_GE(snap->GetUnixTime(), before);
  EXPECT_LE(snap->GetUnixTime(), static_cast<int64_t>(time(nullptr)));
  EXPECT_EQ(std::numeric_limits<uint64_t>::max(), snap->GetTimestamp());
  db_->ReleaseSnapshot(snap);
}

// RocksDB 7.8.3's db_bench writes a DB (tables in several levels, snappy and
// uncompressed); Strata reads it with the pinned Get and MultiGet, the
using test::RunCommand;

TEST_F(DBReadApiSingleTest, PinnedReadsOfADbBenchDB) {
  constexpr const char* kDbBench = "/usr/bin/db_bench";
  constexpr const char* kLdb = "/usr/bin/ldb";
  if (access(kDbBench, X_OK) != 0 || access(kLdb, X_OK) != 0) {
    GTEST_SKIP() << "RocksDB tools not installed";
  }
  for (const char* compression : {"none", "snappy"}) {
    SCOPED_TRACE(compression);
    const std::string path = tmp_.path() + "/bench_" + compression;
    int rc = 0;
    const std::string out =
        RunCommand(std::string(kDbBench) +
                       " --benchmarks=fillrandom --num=5000 --value_size=100 --db=" + path +
                       " --compression_type=" + compression +
                       " --write_buffer_size=65536 --target_file_size_base=65536"
                       " --max_bytes_for_level_base=262144 --level0_file_num_compaction_trigger=2",
                   &rc);
    ASSERT_EQ(0, rc) << out;
    Options o;
    o.max_open_files = 40;  // bounded: values pin reader handles
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(o, path, &db));
    std::map<std::string, std::string> model;
    {
      auto it = db->NewIterator(ReadOptions());
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        model[it->key().ToString()] = it->value().ToString();
      }
      ASSERT_OK(it->status());
    }
    ASSERT_GT(model.size(), 3000u);
    std::vector<Slice> keys;
    size_t pinned = 0;
    for (const auto& [k, v] : model) {
      PinnableSlice p;
      ASSERT_OK(db->Get(ReadOptions(), k, &p));
      ASSERT_EQ(p.ToString(), v);
      pinned += p.IsPinned();
      keys.emplace_back(k);
    }
    EXPECT_EQ(pinned, model.size());  // everything is in tables
    std::vector<PinnableSlice> values(keys.size());
    std::vector<Status> statuses(keys.size());
    db->MultiGet(ReadOptions(), db->DefaultColumnFamily(), keys.size(), keys.data(), values.data(),
                 statuses.data());
    size_t i = 0;
    for (const auto& [k, v] : model) {
      ASSERT_OK(statuses[i]);
      ASSERT_EQ(values[i++].ToString(), v);
    }
    values.clear();
    db.reset();
    // ldb agrees on a sample (hex keys: db_bench's are binary).
    i = 0;
    for (const auto& [k, v] : model) {
      if (i++ % 1000 != 0) continue;
      std::string hex;
      for (unsigned char c : k) {
        char b[3];
        std::snprintf(b, sizeof(b), "%02X", c);
        hex += b;
      }
      const std::string got = RunCommand(
          std::string(kLdb) + " --db=" + path + " --hex --key_hex --value_hex get 0x" + hex, &rc);
      ASSERT_EQ(0, rc);
      std::string want = "0x";
      for (unsigned char c : v) {
        char b[3];
        std::snprintf(b, sizeof(b), "%02X", c);
        want += b;
      }
      EXPECT_EQ(got, want + "\n");
    }
  }
}

}  // namespace
}  // namespace strata
