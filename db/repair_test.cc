// RepairDB: a database whose CURRENT, MANIFEST, a table or a WAL was lost or
// damaged is rebuilt from what is left, and DB::Open then shows every key of
// the intact tables and intact WAL records -- with the value written, never
// another one.

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "strata/db.h"
#include "strata/iterator.h"
#include "strata/options.h"
#include "strata/status.h"
#include "strata/table.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

std::string Key(int i) {
  char buf[32];
  snprintf(buf, sizeof(buf), "key%06d", i);
  return buf;
}
std::string Value(int i) { return "value-" + std::to_string(i) + std::string(40 + i % 13, 'v'); }

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

class RepairTest : public ::testing::Test {
 protected:
  RepairTest() : tmp_("repair_test"), dbname_(tmp_.path() + "/db") {}

  Options MakeOptions(bool create = false) const {
    Options o;
    o.create_if_missing = create;
    o.disable_auto_compactions = true;
    BlockBasedTableOptions t;
    t.block_size = 1024;
    o.table_factory = NewBlockBasedTableFactory(t);
    return o;
  }

  std::vector<std::string> Files(const std::string& dir, const std::string& prefix,
                                 const std::string& suffix) const {
    std::vector<std::string> out;
    if (!fs::exists(dir)) return out;
    for (const auto& e : fs::directory_iterator(dir)) {
      const std::string n = e.path().filename().string();
      if (n.size() >= prefix.size() + suffix.size() && n.compare(0, prefix.size(), prefix) == 0 &&
          n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0) {
        out.push_back(dir + "/" + n);
      }
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  // Puts Key(i) -> Value(i) for i in [begin, end) into cf (null: default).
  void Put(DB* db, int begin, int end, ColumnFamilyHandle* cf = nullptr,
           const std::string& tag = "") {
    for (int i = begin; i < end; i++) {
      if (cf == nullptr) {
        ASSERT_OK(db->Put(WriteOptions(), Key(i), tag + Value(i)));
      } else {
        ASSERT_OK(db->Put(WriteOptions(), cf, Key(i), tag + Value(i)));
      }
      expected_[cf == nullptr ? "default" : cf->GetName()][Key(i)] = tag + Value(i);
    }
  }

  // "" if the family holds exactly `want` (iterator and Get).
  static std::string Diff(DB* db, ColumnFamilyHandle* cf,
                          const std::map<std::string, std::string>& want) {
    std::unique_ptr<Iterator> it = db->NewIterator(ReadOptions(), cf);
    auto e = want.begin();
    for (it->SeekToFirst(); it->Valid(); it->Next(), ++e) {
      if (e == want.end()) return "unexpected key " + it->key().ToString();
      if (it->key().ToString() != e->first) {
        return "iterator at " + it->key().ToString() + ", expected " + e->first;
      }
      if (it->value().ToString() != e->second) return "WRONG VALUE for " + e->first;
    }
    if (!it->status().ok()) return "iterator: " + it->status().ToString();
    if (e != want.end()) return "missing key " + e->first;
    for (const auto& [k, v] : want) {
      std::string got;
      Status s = db->Get(ReadOptions(), cf, k, &got);
      if (!s.ok()) return "Get(" + k + "): " + s.ToString();
      if (got != v) return "Get(" + k + "): WRONG VALUE";
    }
    return "";
  }

  // Opens the default family only and compares it with expected_["default"].
  std::string OpenAndDiff() {
    std::unique_ptr<DB> db;
    Status s = DB::Open(MakeOptions(), dbname_, &db);
    if (!s.ok()) return "Open: " + s.ToString();
    std::string d = Diff(db.get(), db->DefaultColumnFamily(), expected_["default"]);
    Status c = db->Close();
    if (d.empty() && !c.ok()) d = "Close: " + c.ToString();
    return d;
  }

  // A DB with two tables of disjoint ranges (one compacted to a lower
  // level), a third table, and unflushed WAL data.
  void BuildDB() {
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(MakeOptions(true), dbname_, &db));
    Put(db.get(), 0, 300);
    ASSERT_OK(db->Flush(FlushOptions()));
    ASSERT_OK(db->CompactRange(CompactRangeOptions(), nullptr, nullptr));
    Put(db.get(), 300, 600);
    ASSERT_OK(db->Flush(FlushOptions()));
    Put(db.get(), 600, 900);
    ASSERT_OK(db->Flush(FlushOptions()));
    Put(db.get(), 100, 150, nullptr, "new-");  // overwrites, unflushed
    Put(db.get(), 900, 950);
    ASSERT_OK(db->Close());
  }

  test::TempDir tmp_;
  // Three families with flushed and unflushed data, CURRENT (and with
  // no_manifest every MANIFEST) removed, repaired: each family must read
  // back exactly what was written to it.
  void RepairThreeFamilies(bool no_manifest);

  std::string dbname_;
  std::map<std::string, std::map<std::string, std::string>> expected_;
};

TEST_F(RepairTest, IntactDatabaseIsUnchanged) {
  BuildDB();
  ASSERT_OK(RepairDB(dbname_, MakeOptions()));
  EXPECT_EQ(OpenAndDiff(), "");
  // Repairing twice is harmless.
  ASSERT_OK(RepairDB(dbname_, MakeOptions()));
  EXPECT_EQ(OpenAndDiff(), "");
}

TEST_F(RepairTest, DeletedCurrent) {
  BuildDB();
  fs::remove(dbname_ + "/CURRENT");
  std::unique_ptr<DB> db;
  EXPECT_FALSE(DB::Open(MakeOptions(), dbname_, &db).ok());
  ASSERT_OK(RepairDB(dbname_, MakeOptions()));
  EXPECT_TRUE(fs::exists(dbname_ + "/CURRENT"));
  EXPECT_EQ(OpenAndDiff(), "");
}

TEST_F(RepairTest, DeletedManifest) {
  BuildDB();
  for (const std::string& m : Files(dbname_, "MANIFEST-", "")) fs::remove(m);
  ASSERT_OK(RepairDB(dbname_, MakeOptions()));
  EXPECT_EQ(OpenAndDiff(), "");
}

TEST_F(RepairTest, GarbledManifestGoesToLost) {
  BuildDB();
  std::vector<std::string> manifests = Files(dbname_, "MANIFEST-", "");
  ASSERT_EQ(manifests.size(), 1u);
  test::WriteFileOrDie(manifests[0], std::string(5000, '\x5a'));
  std::unique_ptr<DB> db;
  EXPECT_TRUE(DB::Open(MakeOptions(), dbname_, &db).IsCorruption());
  ASSERT_OK(RepairDB(dbname_, MakeOptions()));
  EXPECT_EQ(OpenAndDiff(), "");
  EXPECT_TRUE(fs::exists(dbname_ + "/lost/" + fs::path(manifests[0]).filename().string()));
}

TEST_F(RepairTest, ManifestWithAFlippedByteInTheMiddle) {
  BuildDB();
  std::vector<std::string> manifests = Files(dbname_, "MANIFEST-", "");
  ASSERT_EQ(manifests.size(), 1u);
  std::string data = test::ReadFileOrDie(manifests[0]);
  data[data.size() / 2] ^= 0x10;
  test::WriteFileOrDie(manifests[0], data);
  ASSERT_OK(RepairDB(dbname_, MakeOptions()));
  EXPECT_EQ(OpenAndDiff(), "");
}

// A table with a damaged data block goes to lost/; every key of the other
// tables and of the WAL survives; the damaged table's keys are gone (not
// wrong).
TEST_F(RepairTest, CorruptTableGoesToLost) {
  BuildDB();
  std::vector<std::string> tables = Files(dbname_, "", ".sst");
  ASSERT_EQ(tables.size(), 3u);
  // The newest table holds keys [600, 900).
  const std::string victim = tables.back();
  std::string data = test::ReadFileOrDie(victim);
  data[100] ^= 0x01;  // inside the first data block
  test::WriteFileOrDie(victim, data);
  for (int i = 600; i < 900; i++) expected_["default"].erase(Key(i));
  ASSERT_OK(RepairDB(dbname_, MakeOptions()));
  EXPECT_FALSE(fs::exists(victim));
  EXPECT_TRUE(fs::exists(dbname_ + "/lost/" + fs::path(victim).filename().string()));
  EXPECT_EQ(OpenAndDiff(), "");
}

TEST_F(RepairTest, TruncatedTableGoesToLost) {
  BuildDB();
  std::vector<std::string> tables = Files(dbname_, "", ".sst");
  ASSERT_EQ(tables.size(), 3u);
  const std::string victim = tables.back();
  std::string data = test::ReadFileOrDie(victim);
  test::WriteFileOrDie(victim, data.substr(0, data.size() - 20));  // footer cut
  for (int i = 600; i < 900; i++) expected_["default"].erase(Key(i));
  fs::remove(dbname_ + "/CURRENT");
  ASSERT_OK(RepairDB(dbname_, MakeOptions()));
  EXPECT_TRUE(fs::exists(dbname_ + "/lost/" + fs::path(victim).filename().string()));
  EXPECT_EQ(OpenAndDiff(), "");
}

// Unflushed WAL data becomes a table; the WAL goes to lost/.
TEST_F(RepairTest, UnflushedWalData) {
  {
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(MakeOptions(true), dbname_, &db));
    Put(db.get(), 0, 500);
    ASSERT_OK(db->Delete(WriteOptions(), Key(7)));
    expected_["default"].erase(Key(7));
    ASSERT_OK(db->DeleteRange(WriteOptions(), db->DefaultColumnFamily(), Key(20), Key(30)));
    for (int i = 20; i < 30; i++) expected_["default"].erase(Key(i));
    ASSERT_OK(db->Close());
  }
  std::vector<std::string> wals = Files(dbname_, "", ".log");
  ASSERT_FALSE(wals.empty());
  fs::remove(dbname_ + "/CURRENT");
  ASSERT_OK(RepairDB(dbname_, MakeOptions()));
  EXPECT_TRUE(Files(dbname_, "", ".log").empty());
  EXPECT_FALSE(Files(dbname_ + "/lost", "", ".log").empty());
  EXPECT_EQ(OpenAndDiff(), "");
  // The repaired DB takes new writes after the recovered sequence numbers.
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(MakeOptions(), dbname_, &db));
  ASSERT_OK(db->Put(WriteOptions(), Key(3), "after"));
  std::string v;
  ASSERT_OK(db->Get(ReadOptions(), Key(3), &v));
  EXPECT_EQ(v, "after");
  ASSERT_OK(db->Close());
}

// A WAL with a damaged record: the intact records are kept, the damaged one
// (and the rest of its 32 KiB block) is skipped, never a wrong value.
TEST_F(RepairTest, WalWithADamagedRecord) {
  {
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(MakeOptions(true), dbname_, &db));
    Put(db.get(), 0, 100);
    ASSERT_OK(db->Close());
  }
  std::vector<std::string> wals = Files(dbname_, "", ".log");
  ASSERT_EQ(wals.size(), 1u);
  std::string data = test::ReadFileOrDie(wals[0]);
  ASSERT_LT(data.size(), 32768u);
  const size_t offset = data.size() / 2;
  data[offset] ^= 0x04;
  test::WriteFileOrDie(wals[0], data);
  ASSERT_OK(RepairDB(dbname_, MakeOptions()));
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(MakeOptions(), dbname_, &db));
  // Every record before the damage is there; nothing is wrong.
  int found = 0;
  bool gap = false;
  for (int i = 0; i < 100; i++) {
    std::string v;
    Status s = db->Get(ReadOptions(), Key(i), &v);
    if (s.ok()) {
      EXPECT_EQ(v, expected_["default"][Key(i)]);
      EXPECT_FALSE(gap) << "key " << i << " after a lost record (same block)";
      found++;
    } else {
      EXPECT_TRUE(s.IsNotFound()) << s.ToString();
      gap = true;
    }
  }
  EXPECT_GT(found, 30);
  EXPECT_LT(found, 100);
  ASSERT_OK(db->Close());
}

void RepairTest::RepairThreeFamilies(bool no_manifest) {
  const std::string& dbname = dbname_;
  std::vector<ColumnFamilyDescriptor> descs = {
      ColumnFamilyDescriptor(kDefaultColumnFamilyName, MakeOptions()),
      ColumnFamilyDescriptor("one", MakeOptions()), ColumnFamilyDescriptor("two", MakeOptions())};
  {
    Options o = MakeOptions(true);
    o.create_missing_column_families = true;
    std::vector<ColumnFamilyHandle*> h;
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(o, dbname, descs, &h, &db));
    // The same keys in every family, with family-specific values.
    Put(db.get(), 0, 200, h[0], "d-");
    Put(db.get(), 0, 200, h[1], "one-");
    Put(db.get(), 100, 300, h[2], "two-");
    for (ColumnFamilyHandle* cf : h) ASSERT_OK(db->Flush(FlushOptions(), cf));
    Put(db.get(), 150, 250, h[1], "one-new-");  // unflushed
    Put(db.get(), 0, 20, h[2], "two-new-");     // unflushed
    Put(db.get(), 190, 210, h[0], "d-new-");    // unflushed
    for (ColumnFamilyHandle* cf : h) ASSERT_OK(db->DestroyColumnFamilyHandle(cf));
    ASSERT_OK(db->Close());
  }
  fs::remove(dbname + "/CURRENT");
  if (no_manifest) {
    int manifests = 0;
    for (const auto& e : fs::directory_iterator(dbname)) {
      if (e.path().filename().string().rfind("MANIFEST-", 0) == 0) {
        fs::remove(e.path());
        manifests++;
      }
    }
    ASSERT_GE(manifests, 1);
  }
  ASSERT_OK(RepairDB(dbname, MakeOptions()));
  std::vector<std::string> names;
  ASSERT_OK(DB::ListColumnFamilies(MakeOptions(), dbname, &names));
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"default", "one", "two"}));
  std::vector<ColumnFamilyHandle*> h;
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(MakeOptions(), dbname, descs, &h, &db));
  for (ColumnFamilyHandle* cf : h) {
    EXPECT_EQ(Diff(db.get(), cf, expected_[cf->GetName()]), "") << cf->GetName();
    ASSERT_OK(db->DestroyColumnFamilyHandle(cf));
  }
  ASSERT_OK(db->Close());
}

TEST_F(RepairTest, MultipleColumnFamilies) { RepairThreeFamilies(/*no_manifest=*/false); }

// With no MANIFEST at all, the families come from the tables' properties,
// and the unflushed WAL records of each family go back into that family
// (not into the default one).
TEST_F(RepairTest, MultipleColumnFamiliesWithoutAnyManifest) {
  RepairThreeFamilies(/*no_manifest=*/true);
}

// A table compacted to a lower level can hold an older version of a key
// while its largest sequence number is newer than the table holding the
// key's newest version. All in level 0, ordered by largest sequence, the old
// version would win: repair merges such tables.
TEST_F(RepairTest, OverlappingSequenceRangesNeverResurrectOldValues) {
  {
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(MakeOptions(true), dbname_, &db));
    ASSERT_OK(db->Put(WriteOptions(), "k", "old"));
    ASSERT_OK(db->Put(WriteOptions(), "m", "m1"));
    ASSERT_OK(db->Flush(FlushOptions()));
    ASSERT_OK(db->CompactRange(CompactRangeOptions(), nullptr, nullptr));  // [k, m] below L0
    ASSERT_OK(db->Put(WriteOptions(), "k", "new"));
    ASSERT_OK(db->Flush(FlushOptions()));  // L0: [k]
    ASSERT_OK(db->Put(WriteOptions(), "m", "m2"));
    ASSERT_OK(db->Put(WriteOptions(), "n", "n1"));
    ASSERT_OK(db->Flush(FlushOptions()));  // L0: [m, n]
    Slice b("m"), e("n");
    ASSERT_OK(db->CompactRange(CompactRangeOptions(), &b, &e));  // rewrites [k, n] below
    std::string v;
    ASSERT_OK(db->Get(ReadOptions(), "k", &v));
    ASSERT_EQ(v, "new");
    ASSERT_OK(db->Close());
  }
  expected_["default"] = {{"k", "new"}, {"m", "m2"}, {"n", "n1"}};
  fs::remove(dbname_ + "/CURRENT");
  ASSERT_OK(RepairDB(dbname_, MakeOptions()));
  EXPECT_EQ(OpenAndDiff(), "");
}

// A table a compaction made obsolete but that was never deleted (a crash
// before the deletion) must not come back: a key the compaction dropped
// together with its tombstone would reappear (and with RocksDB's files,
// whose bottom-level sequence numbers are zeroed, an old version could
// even win over the new one). An intact MANIFEST tells which tables are
// obsolete; they go to lost/.
TEST_F(RepairTest, LeftoverObsoleteTableIsNotResurrected) {
  std::string leftover_name, leftover;
  {
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(MakeOptions(true), dbname_, &db));
    ASSERT_OK(db->Put(WriteOptions(), "k", "old"));
    ASSERT_OK(db->Put(WriteOptions(), "z", "z1"));
    ASSERT_OK(db->Flush(FlushOptions()));
    std::vector<std::string> tables = Files(dbname_, "", ".sst");
    ASSERT_EQ(tables.size(), 1u);
    leftover_name = tables[0];
    leftover = test::ReadFileOrDie(leftover_name);
    ASSERT_OK(db->Delete(WriteOptions(), "k"));
    ASSERT_OK(db->Put(WriteOptions(), "z", "z2"));
    ASSERT_OK(db->Flush(FlushOptions()));
    ASSERT_OK(db->CompactRange(CompactRangeOptions(), nullptr, nullptr));
    std::string v;
    ASSERT_TRUE(db->Get(ReadOptions(), "k", &v).IsNotFound());
    ASSERT_OK(db->Close());
  }
  ASSERT_FALSE(fs::exists(leftover_name));
  test::WriteFileOrDie(leftover_name, leftover);
  expected_["default"] = {{"z", "z2"}};
  ASSERT_OK(RepairDB(dbname_, MakeOptions()));
  EXPECT_EQ(OpenAndDiff(), "");
  EXPECT_TRUE(fs::exists(dbname_ + "/lost/" + fs::path(leftover_name).filename().string()));
}

TEST_F(RepairTest, OpenDatabaseIsLocked) {
  BuildDB();
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(MakeOptions(), dbname_, &db));
  Status s = RepairDB(dbname_, MakeOptions());
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_TRUE(Contains(s.ToString(), "LOCK")) << s.ToString();
  ASSERT_OK(db->Close());
  EXPECT_EQ(OpenAndDiff(), "");
}

TEST_F(RepairTest, MissingOrEmptyDirectory) {
  Status s = RepairDB(tmp_.path() + "/nothing-here", MakeOptions());
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.ToString(), "nothing-here")) << s.ToString();
  EXPECT_FALSE(fs::exists(tmp_.path() + "/nothing-here"));
  fs::create_directories(dbname_);
  s = RepairDB(dbname_, MakeOptions());
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_TRUE(Contains(s.ToString(), dbname_)) << s.ToString();
}

}  // namespace
}  // namespace strata
