// Column families: creation, drop and listing, opening with descriptors,
// per-family options (comparator, write buffer), atomic multi-family
// batches, per-family flush and compaction, WAL retention across families,
// drops under live iterators, a randomized model test, and cross-family
// atomicity across SIGKILL.
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <map>
#include <memory>
#include <new>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "db/filename.h"
#include "strata/cache.h"
#include "strata/db.h"
#include "strata/env.h"
#include "strata/iterator.h"
#include "strata/merge_operator.h"
#include "strata/options.h"
#include "strata/table.h"
#include "strata/write_batch.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

// The last operand wins.
class LastOperandOperator final : public MergeOperator {
 public:
  bool FullMergeV2(const MergeOperationInput& in, MergeOperationOutput* out) const override {
    out->new_value = in.operand_list.back().ToString();
    return true;
  }
  const char* Name() const override { return "LastOperandOperator"; }
};

class ColumnFamilyTest : public ::testing::Test {
 protected:
  ColumnFamilyTest() : tmp_("column_family_test"), dbname_(tmp_.path() + "/db") {
    db_options_.create_if_missing = true;
  }
  ~ColumnFamilyTest() override { Close(); }

  // Opens with the given families (names; options from cf_options_ when
  // present, else defaults).
  Status TryOpen(const std::vector<std::string>& names) {
    Close();
    std::vector<ColumnFamilyDescriptor> descs;
    for (const std::string& n : names) {
      auto it = cf_options_.find(n);
      descs.emplace_back(n, it != cf_options_.end() ? it->second : ColumnFamilyOptions());
    }
    std::vector<ColumnFamilyHandle*> handles;
    Status s = DB::Open(db_options_, dbname_, descs, &handles, &db_);
    if (s.ok()) {
      EXPECT_EQ(handles.size(), names.size());
      for (size_t i = 0; i < handles.size(); i++) {
        EXPECT_EQ(handles[i]->GetName(), names[i]);
        handles_[names[i]] = handles[i];
      }
    }
    return s;
  }
  void Open(const std::vector<std::string>& names) { ASSERT_OK(TryOpen(names)); }

  void Close() {
    if (db_ == nullptr) return;
    for (auto& [name, h] : handles_) EXPECT_OK(db_->DestroyColumnFamilyHandle(h));
    handles_.clear();
    EXPECT_OK(db_->Close());
    db_.reset();
  }

  void Create(const std::string& name) {
    auto it = cf_options_.find(name);
    ColumnFamilyHandle* h = nullptr;
    ASSERT_OK(db_->CreateColumnFamily(it != cf_options_.end() ? it->second : ColumnFamilyOptions(),
                                      name, &h));
    ASSERT_NE(h, nullptr);
    EXPECT_EQ(h->GetName(), name);
    handles_[name] = h;
  }

  ColumnFamilyHandle* H(const std::string& name) { return handles_.at(name); }

  Status Put(const std::string& cf, const std::string& k, const std::string& v) {
    return db_->Put(WriteOptions(), H(cf), k, v);
  }
  std::string Get(const std::string& cf, const std::string& k) {
    std::string v;
    Status s = db_->Get(ReadOptions(), H(cf), k, &v);
    if (s.IsNotFound()) return "NOT_FOUND";
    if (!s.ok()) return s.ToString();
    return v;
  }
  std::string Contents(const std::string& cf) {
    std::string r;
    std::unique_ptr<Iterator> it = db_->NewIterator(ReadOptions(), H(cf));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      if (!r.empty()) r += " ";
      r += it->key().ToString() + "=" + it->value().ToString();
    }
    EXPECT_OK(it->status());
    return r;
  }
  uint64_t IntProperty(const std::string& cf, const std::string& name) {
    uint64_t v = 0;
    EXPECT_TRUE(db_->GetIntProperty(H(cf), name, &v)) << name;
    return v;
  }
  std::vector<std::string> List() {
    std::vector<std::string> names;
    EXPECT_OK(DB::ListColumnFamilies(db_options_, dbname_, &names));
    return names;
  }
  // Numbers of the files of one type in the DB directory, ascending.
  std::vector<uint64_t> Files(FileType want) {
    std::vector<std::string> children;
    EXPECT_OK(Env::Default()->GetFileSystem()->GetChildren(dbname_, &children));
    std::vector<uint64_t> r;
    for (const std::string& c : children) {
      uint64_t n;
      FileType t;
      if (ParseFileName(c, &n, &t) && t == want) r.push_back(n);
    }
    std::sort(r.begin(), r.end());
    return r;
  }

  test::TempDir tmp_;
  std::string dbname_;
  DBOptions db_options_;
  std::map<std::string, ColumnFamilyOptions> cf_options_;
  std::unique_ptr<DB> db_;
  std::map<std::string, ColumnFamilyHandle*> handles_;
};

TEST_F(ColumnFamilyTest, CreateListDrop) {
  Open({"default"});
  Create("cf1");
  Create("cf2");
  EXPECT_EQ(H("cf1")->GetID(), 1u);
  EXPECT_EQ(H("cf2")->GetID(), 2u);
  EXPECT_EQ(List(), (std::vector<std::string>{"default", "cf1", "cf2"}));

  ColumnFamilyHandle* dup = nullptr;
  Status s = db_->CreateColumnFamily(ColumnFamilyOptions(), "cf1", &dup);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_EQ(dup, nullptr);
  s = db_->DropColumnFamily(H("default"));
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  s = db_->DropColumnFamily(db_->DefaultColumnFamily());
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();

  ASSERT_OK(Put("cf1", "a", "1"));
  ASSERT_OK(db_->DropColumnFamily(H("cf1")));
  EXPECT_EQ(List(), (std::vector<std::string>{"default", "cf2"}));
  s = db_->DropColumnFamily(H("cf1"));
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  // Writes to a dropped family fail, alone or in a batch (nothing of the
  // batch is applied).
  s = Put("cf1", "b", "2");
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  WriteBatch batch;
  ASSERT_OK(batch.Put(H("cf2"), "x", "1"));
  ASSERT_OK(batch.Put(H("cf1"), "y", "1"));
  s = db_->Write(WriteOptions(), &batch);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_EQ(Get("cf2", "x"), "NOT_FOUND");

  // A new family gets a new id, never a dropped one's.
  Create("cf3");
  EXPECT_EQ(H("cf3")->GetID(), 3u);
  // A name may be reused after its drop (a new, empty family).
  ASSERT_OK(db_->DestroyColumnFamilyHandle(H("cf1")));
  handles_.erase("cf1");
  Create("cf1");
  EXPECT_EQ(H("cf1")->GetID(), 4u);
  EXPECT_EQ(Get("cf1", "a"), "NOT_FOUND");
  ASSERT_OK(Put("cf1", "a", "new"));

  Open({"default", "cf2", "cf3", "cf1"});
  EXPECT_EQ(List(), (std::vector<std::string>{"default", "cf2", "cf3", "cf1"}));
  EXPECT_EQ(H("cf1")->GetID(), 4u);
  EXPECT_EQ(Get("cf1", "a"), "new");
}

TEST_F(ColumnFamilyTest, OpenNeedsEveryFamily) {
  Open({"default"});
  Create("cf1");
  Create("cf2");
  ASSERT_OK(Put("default", "k", "d"));
  ASSERT_OK(Put("cf1", "k", "1"));
  ASSERT_OK(Put("cf2", "k", "2"));
  Close();

  // DB::Open without descriptors on a DB with families fails like RocksDB.
  {
    Options o(db_options_, ColumnFamilyOptions());
    std::unique_ptr<DB> db;
    Status s = DB::Open(o, dbname_, &db);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(s.ToString().find("You have to open all column families"), std::string::npos)
        << s.ToString();
    EXPECT_NE(s.ToString().find("cf1, cf2"), std::string::npos) << s.ToString();
  }
  // A family left out is named.
  Status s = TryOpen({"default", "cf1"});
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("Column families not opened: cf2"), std::string::npos)
      << s.ToString();
  // The default family must be listed.
  s = TryOpen({"cf1", "cf2"});
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  // A family that does not exist needs create_missing_column_families.
  s = TryOpen({"default", "cf1", "cf2", "cf3"});
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("cf3"), std::string::npos) << s.ToString();
  db_options_.create_missing_column_families = true;
  Open({"cf2", "default", "cf3", "cf1"});
  EXPECT_EQ(Get("default", "k"), "d");
  EXPECT_EQ(Get("cf1", "k"), "1");
  EXPECT_EQ(Get("cf2", "k"), "2");
  EXPECT_EQ(Get("cf3", "k"), "NOT_FOUND");
  ASSERT_OK(Put("cf3", "k", "3"));
  EXPECT_EQ(List(), (std::vector<std::string>{"default", "cf1", "cf2", "cf3"}));
  Open({"default", "cf1", "cf2", "cf3"});
  EXPECT_EQ(Get("cf3", "k"), "3");
  // The OPTIONS file has a section per family.
  std::vector<uint64_t> options_files = Files(FileType::kOptionsFile);
  ASSERT_FALSE(options_files.empty());
  const std::string text = test::ReadFileOrDie(OptionsFileName(dbname_, options_files.back()));
  for (const char* name : {"default", "cf1", "cf2", "cf3"}) {
    EXPECT_NE(text.find(std::string("[CFOptions \"") + name + "\"]"), std::string::npos) << name;
    EXPECT_NE(text.find(std::string("[TableOptions/BlockBasedTable \"") + name + "\"]"),
              std::string::npos)
        << name;
  }
}

TEST_F(ColumnFamilyTest, PerFamilyComparator) {
  ColumnFamilyOptions rev;
  rev.comparator = ReverseBytewiseComparator();
  cf_options_["rev"] = rev;
  Open({"default"});
  Create("rev");
  for (const char* k : {"b", "a", "c"}) {
    ASSERT_OK(Put("default", k, "d"));
    ASSERT_OK(Put("rev", k, "r"));
  }
  EXPECT_EQ(Contents("default"), "a=d b=d c=d");
  EXPECT_EQ(Contents("rev"), "c=r b=r a=r");
  ASSERT_OK(db_->Flush(FlushOptions(), H("rev")));
  ASSERT_OK(Put("rev", "d", "r"));
  EXPECT_EQ(Contents("rev"), "d=r c=r b=r a=r");
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), H("rev"), nullptr, nullptr));
  EXPECT_EQ(Contents("rev"), "d=r c=r b=r a=r");
  Open({"default", "rev"});
  EXPECT_EQ(Contents("rev"), "d=r c=r b=r a=r");
  EXPECT_EQ(Get("rev", "b"), "r");
  // Opening the family with another comparator is refused.
  cf_options_.erase("rev");
  Status s = TryOpen({"default", "rev"});
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("comparator"), std::string::npos) << s.ToString();
}

// A handle's descriptor: the family's name and its current options (a
// SetOptions change included); the default family's too.
TEST_F(ColumnFamilyTest, GetDescriptorGivesNameAndCurrentOptions) {
  ColumnFamilyOptions rev;
  rev.comparator = ReverseBytewiseComparator();
  rev.write_buffer_size = 3 << 20;
  cf_options_["rev"] = rev;
  Open({"default"});
  Create("rev");
  ColumnFamilyDescriptor desc;
  ASSERT_OK(H("rev")->GetDescriptor(&desc));
  EXPECT_EQ("rev", desc.name);
  EXPECT_EQ(size_t{3} << 20, desc.options.write_buffer_size);
  EXPECT_EQ(ReverseBytewiseComparator(), desc.options.comparator);
  ASSERT_OK(db_->SetOptions(H("rev"), {{"write_buffer_size", "5242880"}}));
  ASSERT_OK(H("rev")->GetDescriptor(&desc));
  EXPECT_EQ(size_t{5} << 20, desc.options.write_buffer_size);
  ASSERT_OK(db_->DefaultColumnFamily()->GetDescriptor(&desc));
  EXPECT_EQ(kDefaultColumnFamilyName, desc.name);
  EXPECT_EQ(BytewiseComparator(), desc.options.comparator);
}

// Each family merges with its own operator; a merge into a family without
// one is refused before anything of its batch is applied.
TEST_F(ColumnFamilyTest, PerFamilyMergeOperator) {
  ColumnFamilyOptions with_op;
  with_op.merge_operator = std::make_shared<LastOperandOperator>();
  cf_options_["m"] = with_op;
  Open({"default"});
  Create("m");
  Create("plain");
  ASSERT_OK(db_->Merge(WriteOptions(), H("m"), "k", "1"));
  ASSERT_OK(db_->Merge(WriteOptions(), H("m"), "k", "2"));
  EXPECT_EQ(Get("m", "k"), "2");
  Status s = db_->Merge(WriteOptions(), H("plain"), "k", "1");
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  WriteBatch batch;
  ASSERT_OK(batch.Put(H("m"), "x", "1"));
  ASSERT_OK(batch.Merge(H("plain"), "k", "1"));
  s = db_->Write(WriteOptions(), &batch);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_EQ(Get("m", "x"), "NOT_FOUND");
  ASSERT_OK(db_->Flush(FlushOptions(), H("m")));
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), H("m"), nullptr, nullptr));
  EXPECT_EQ(Get("m", "k"), "2");
}

TEST_F(ColumnFamilyTest, PerFamilyWriteBufferFlushesIndependently) {
  ColumnFamilyOptions small;
  small.write_buffer_size = 64 << 10;
  small.disable_auto_compactions = true;
  cf_options_["small"] = small;
  Open({"default"});
  Create("small");
  const std::string value(1000, 'v');
  for (int i = 0; i < 600; i++) {
    char key[16];
    snprintf(key, sizeof(key), "k%05d", i);
    ASSERT_OK(Put("small", key, value));
    if (i % 50 == 0) ASSERT_OK(Put("default", key, "d"));
  }
  ASSERT_OK(static_cast<DB*>(db_.get())->Flush(FlushOptions(), H("small")));
  EXPECT_GE(IntProperty("small", "strata.num-files-at-level0"), 5u);
  EXPECT_EQ(IntProperty("default", "strata.num-files-at-level0"), 0u);
  EXPECT_EQ(IntProperty("default", "strata.num-entries-active-mem-table"), 12u);
  EXPECT_EQ(Get("small", "k00000"), value);
  EXPECT_EQ(Get("small", "k00599"), value);
  EXPECT_EQ(Get("default", "k00550"), "d");
  EXPECT_EQ(Get("default", "k00551"), "NOT_FOUND");
}

TEST_F(ColumnFamilyTest, AtomicMultiFamilyBatch) {
  Open({"default"});
  Create("cf1");
  Create("cf2");
  std::atomic<bool> stop{false};
  std::atomic<int> written{0};
  std::thread writer([&]() {
    for (int i = 0; i < 3000; i++) {
      WriteBatch b;
      const std::string k = "k" + std::to_string(i);
      EXPECT_OK(b.Put(H("default"), k, "0"));
      EXPECT_OK(b.Put(H("cf1"), k, "1"));
      EXPECT_OK(b.Put(H("cf2"), k, "2"));
      EXPECT_OK(b.Delete(H("cf2"), "gone" + std::to_string(i - 1)));
      EXPECT_OK(b.Put(H("cf2"), "gone" + std::to_string(i), "x"));
      EXPECT_OK(db_->Write(WriteOptions(), &b));
      written.store(i + 1, std::memory_order_release);
    }
    stop.store(true);
  });
  // Under one snapshot, a batch is in every family or in none.
  int checks = 0;
  while (!stop.load()) {
    const int n = written.load(std::memory_order_acquire);
    const Snapshot* snap = db_->GetSnapshot();
    ReadOptions ro;
    ro.snapshot = snap;
    // Batch n (maybe in flight) puts k<n> everywhere and gone<n>, and
    // deletes gone<n-1>.
    const std::string k = "k" + std::to_string(n);
    std::string v0, v1, v2, v3;
    const bool in0 = db_->Get(ro, H("default"), k, &v0).ok();
    const bool in1 = db_->Get(ro, H("cf1"), k, &v1).ok();
    const bool in2 = db_->Get(ro, H("cf2"), k, &v2).ok();
    const bool prev_gone = db_->Get(ro, H("cf2"), "gone" + std::to_string(n - 1), &v3).IsNotFound();
    EXPECT_EQ(in0, in1) << k;
    EXPECT_EQ(in1, in2) << k;
    if (n > 0) {
      EXPECT_EQ(in0, prev_gone) << k;
    }
    db_->ReleaseSnapshot(snap);
    checks++;
  }
  writer.join();
  EXPECT_GT(checks, 0);
  EXPECT_EQ(Get("cf1", "k2999"), "1");
  EXPECT_EQ(Get("cf2", "k2999"), "2");
  EXPECT_EQ(Get("cf2", "k2998"), "2");
  EXPECT_EQ(Get("cf2", "gone2998"), "NOT_FOUND");
  EXPECT_EQ(Get("cf2", "gone2999"), "x");
  EXPECT_EQ(db_->GetLatestSequenceNumber(), 3000u * 5);
}

TEST_F(ColumnFamilyTest, FlushAndCompactRangePerFamily) {
  Open({"default"});
  Create("cf1");
  for (int i = 0; i < 3; i++) {
    ASSERT_OK(Put("cf1", "a" + std::to_string(i), "x"));
    ASSERT_OK(Put("default", "b" + std::to_string(i), "y"));
    ASSERT_OK(db_->Flush(FlushOptions(), H("cf1")));
  }
  EXPECT_EQ(IntProperty("cf1", "strata.num-files-at-level0"), 3u);
  EXPECT_EQ(IntProperty("default", "strata.num-files-at-level0"), 0u);
  EXPECT_EQ(IntProperty("default", "strata.num-entries-active-mem-table"), 3u);
  EXPECT_EQ(IntProperty("cf1", "strata.num-entries-active-mem-table"), 0u);
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), H("cf1"), nullptr, nullptr));
  EXPECT_EQ(IntProperty("cf1", "strata.num-files-at-level0"), 0u);
  EXPECT_EQ(IntProperty("default", "strata.num-entries-active-mem-table"), 3u);
  EXPECT_EQ(Contents("cf1"), "a0=x a1=x a2=x");
  EXPECT_EQ(Contents("default"), "b0=y b1=y b2=y");
  std::string stats;
  ASSERT_TRUE(db_->GetProperty(H("cf1"), "strata.stats", &stats));
  EXPECT_NE(stats.find("Compaction Stats [cf1]"), std::string::npos);
  Open({"default", "cf1"});
  EXPECT_EQ(Contents("cf1"), "a0=x a1=x a2=x");
  EXPECT_EQ(Contents("default"), "b0=y b1=y b2=y");
}

TEST_F(ColumnFamilyTest, WalKeptWhileAFamilyHasDataOnlyInIt) {
  db_options_.avoid_flush_during_recovery = true;  // recovery must replay the old WALs
  Open({"default"});
  Create("cf1");
  ASSERT_OK(Put("default", "d", "in-the-first-wal"));
  const uint64_t first_wal = Files(FileType::kWalFile).back();
  for (int i = 0; i < 4; i++) {
    ASSERT_OK(Put("cf1", "c" + std::to_string(i), "v"));
    ASSERT_OK(db_->Flush(FlushOptions(), H("cf1")));
  }
  // cf1 flushed each time, but default's unflushed record keeps the first
  // WAL (and the later ones) alive.
  std::vector<uint64_t> wals = Files(FileType::kWalFile);
  EXPECT_EQ(wals.front(), first_wal);
  EXPECT_GE(wals.size(), 5u);
  Open({"default", "cf1"});
  EXPECT_EQ(Get("default", "d"), "in-the-first-wal");
  EXPECT_EQ(Contents("cf1"), "c0=v c1=v c2=v c3=v");
  // Once default is flushed the old WALs go.
  ASSERT_OK(db_->Flush(FlushOptions(), H("default")));
  ASSERT_OK(Put("cf1", "z", "1"));
  ASSERT_OK(db_->Flush(FlushOptions(), H("cf1")));
  wals = Files(FileType::kWalFile);
  EXPECT_GT(wals.front(), first_wal);
  EXPECT_LE(wals.size(), 2u);
  Open({"default", "cf1"});
  EXPECT_EQ(Get("default", "d"), "in-the-first-wal");
  EXPECT_EQ(Contents("cf1"), "c0=v c1=v c2=v c3=v z=1");
}

TEST_F(ColumnFamilyTest, RecoveryAppliesEachWalOnlyToFamiliesBehindIt) {
  Open({"default"});
  Create("cf1");
  ASSERT_OK(Put("cf1", "k", "old"));
  ASSERT_OK(Put("default", "k", "d1"));
  ASSERT_OK(db_->Flush(FlushOptions(), H("cf1")));
  // cf1's log number is now past the first WAL; default's is not.
  ASSERT_OK(Put("cf1", "k", "new"));
  ASSERT_OK(db_->Delete(WriteOptions(), H("cf1"), "k"));
  ASSERT_OK(Put("cf1", "k2", "v2"));
  Open({"default", "cf1"});
  EXPECT_EQ(Get("cf1", "k"), "NOT_FOUND");
  EXPECT_EQ(Get("cf1", "k2"), "v2");
  EXPECT_EQ(Get("default", "k"), "d1");
  Open({"default", "cf1"});
  EXPECT_EQ(Get("cf1", "k"), "NOT_FOUND");
  EXPECT_EQ(Get("default", "k"), "d1");
}

TEST_F(ColumnFamilyTest, DropWhileIteratorIsOpen) {
  Open({"default"});
  Create("cf1");
  for (int i = 0; i < 10; i++) ASSERT_OK(Put("cf1", "k" + std::to_string(i), "v"));
  ASSERT_OK(db_->Flush(FlushOptions(), H("cf1")));
  ASSERT_OK(Put("cf1", "m", "mem"));
  const size_t tables_before = Files(FileType::kTableFile).size();
  ASSERT_EQ(tables_before, 1u);
  std::unique_ptr<Iterator> it = db_->NewIterator(ReadOptions(), H("cf1"));
  ASSERT_OK(db_->DropColumnFamily(H("cf1")));
  EXPECT_TRUE(Put("cf1", "x", "1").IsInvalidArgument());
  EXPECT_TRUE(db_->Flush(FlushOptions(), H("cf1")).IsInvalidArgument());
  // Reads through the handle still see the family as it was.
  EXPECT_EQ(Get("cf1", "m"), "mem");
  ASSERT_OK(db_->DestroyColumnFamilyHandle(H("cf1")));
  handles_.erase("cf1");
  int n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) n++;
  ASSERT_OK(it->status());
  EXPECT_EQ(n, 11);
  EXPECT_EQ(Files(FileType::kTableFile).size(), tables_before);  // the iterator uses it
  it.reset();
  // The next obsolete-file scan removes the dropped family's table.
  ASSERT_OK(Put("default", "a", "1"));
  ASSERT_OK(db_->Flush(FlushOptions(), H("default")));
  std::vector<uint64_t> tables = Files(FileType::kTableFile);
  EXPECT_EQ(tables.size(), 1u);
  Open({"default"});
  EXPECT_EQ(Get("default", "a"), "1");
  EXPECT_EQ(List(), std::vector<std::string>{"default"});
}

// A plain `delete` of a handle releases its family as
// DestroyColumnFamilyHandle does (RocksDB programs do either): a dropped
// family's table goes at once, and a live family stays readable through a
// new handle after a reopen.
TEST_F(ColumnFamilyTest, DeletingAHandleReleasesItsFamily) {
  Open({"default"});
  Create("gone");
  Create("kept");
  ASSERT_OK(Put("gone", "g", "1"));
  ASSERT_OK(db_->Flush(FlushOptions(), H("gone")));
  ASSERT_OK(Put("kept", "k", "2"));
  ASSERT_OK(db_->Flush(FlushOptions(), H("kept")));
  ASSERT_EQ(Files(FileType::kTableFile).size(), 2u);

  ASSERT_OK(db_->DropColumnFamily(H("gone")));
  EXPECT_EQ(Files(FileType::kTableFile).size(), 2u);  // the handle holds it
  delete H("gone");
  handles_.erase("gone");
  EXPECT_EQ(Files(FileType::kTableFile).size(), 1u);

  delete H("kept");
  handles_.erase("kept");
  EXPECT_EQ(Files(FileType::kTableFile).size(), 1u);  // not dropped: kept
  Open({"default", "kept"});
  EXPECT_EQ(Get("kept", "k"), "2");
}

// GetAggregatedIntProperty sums over every live family; a block cache
// shared by all of them counts once.
TEST_F(ColumnFamilyTest, HandlesGiveTheirFamilysComparator) {
  cf_options_["rev"].comparator = ReverseBytewiseComparator();
  Open({"default"});
  Create("rev");
  EXPECT_EQ(handles_["default"]->GetComparator(), BytewiseComparator());
  EXPECT_EQ(handles_["rev"]->GetComparator(), ReverseBytewiseComparator());
  EXPECT_EQ(db_->DefaultColumnFamily()->GetComparator(), BytewiseComparator());
}

TEST_F(ColumnFamilyTest, AggregatedIntProperty) {
  auto cache = NewLRUCache(8 << 20);
  for (const char* name : {"default", "a", "b"}) {
    BlockBasedTableOptions t;
    t.block_cache = cache;
    cf_options_[name].table_factory = NewBlockBasedTableFactory(t);
  }
  Open({"default"});
  Create("a");
  Create("b");
  ASSERT_OK(Put("default", "x", "1"));
  ASSERT_OK(Put("a", "x", "1"));
  ASSERT_OK(Put("a", "y", "1"));
  ASSERT_OK(Put("b", "x", "1"));
  uint64_t keys = 0;
  ASSERT_TRUE(db_->GetAggregatedIntProperty("rocksdb.estimate-num-keys", &keys));
  EXPECT_EQ(keys, 4u);
  uint64_t per_family = 0;
  uint64_t sum = 0;
  for (const char* name : {"default", "a", "b"}) {
    ASSERT_TRUE(db_->GetIntProperty(H(name), "rocksdb.cur-size-all-mem-tables", &per_family));
    sum += per_family;
  }
  uint64_t aggregated = 0;
  ASSERT_TRUE(db_->GetAggregatedIntProperty("rocksdb.cur-size-all-mem-tables", &aggregated));
  EXPECT_EQ(aggregated, sum);
  uint64_t capacity = 0;
  ASSERT_TRUE(db_->GetAggregatedIntProperty("rocksdb.block-cache-capacity", &capacity));
  EXPECT_EQ(capacity, 8u << 20);
  EXPECT_FALSE(db_->GetAggregatedIntProperty("rocksdb.no-such-property", &capacity));
  // A dropped family no longer counts.
  ASSERT_OK(db_->DropColumnFamily(H("a")));
  ASSERT_TRUE(db_->GetAggregatedIntProperty("rocksdb.estimate-num-keys", &keys));
  EXPECT_EQ(keys, 2u);
}

TEST_F(ColumnFamilyTest, DropWhileBackgroundWorkRuns) {
  ColumnFamilyOptions busy;
  busy.write_buffer_size = 32 << 10;
  busy.level0_file_num_compaction_trigger = 2;
  busy.target_file_size_base = 32 << 10;
  busy.max_bytes_for_level_base = 64 << 10;
  cf_options_["busy"] = busy;
  Open({"default"});
  for (int round = 0; round < 3; round++) {
    Create("busy");
    const std::string value(500, 'b');
    for (int i = 0; i < 1500; i++) ASSERT_OK(Put("busy", "k" + std::to_string(i % 700), value));
    // Flushes and compactions of the family are likely running now.
    ASSERT_OK(db_->DropColumnFamily(H("busy")));
    ASSERT_OK(db_->DestroyColumnFamilyHandle(H("busy")));
    handles_.erase("busy");
    // The DB carries on: no background error from the dropped family.
    ASSERT_OK(Put("default", "r" + std::to_string(round), "x"));
    ASSERT_OK(db_->Flush(FlushOptions(), H("default")));
  }
  uint64_t errors = 1;
  ASSERT_TRUE(db_->GetIntProperty(H("default"), "strata.background-errors", &errors));
  EXPECT_EQ(errors, 0u);
  Open({"default"});
  EXPECT_EQ(Contents("default"), "r0=x r1=x r2=x");
  EXPECT_EQ(List(), std::vector<std::string>{"default"});
  // Only default's tables are left.
  EXPECT_LE(Files(FileType::kTableFile).size(), 3u);
}

TEST_F(ColumnFamilyTest, RandomizedModelOverThreeFamilies) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  ColumnFamilyOptions small;
  small.write_buffer_size = 32 << 10;
  small.level0_file_num_compaction_trigger = 2;
  small.target_file_size_base = 32 << 10;
  small.max_bytes_for_level_base = 128 << 10;
  cf_options_["cf1"] = small;
  ColumnFamilyOptions rev;
  rev.comparator = ReverseBytewiseComparator();
  rev.write_buffer_size = 64 << 10;
  cf_options_["cf2"] = rev;
  const std::vector<std::string> names = {"default", "cf1", "cf2"};
  Open({"default"});
  Create("cf1");
  Create("cf2");
  std::map<std::string, std::map<std::string, std::string>> model;
  auto check = [&](const std::string& cf) {
    SCOPED_TRACE(cf);
    const auto& m = model[cf];
    std::string expected;
    if (cf == "cf2") {
      for (auto it = m.rbegin(); it != m.rend(); ++it) {
        if (!expected.empty()) expected += " ";
        expected += it->first + "=" + it->second;
      }
    } else {
      for (const auto& [k, v] : m) {
        if (!expected.empty()) expected += " ";
        expected += k + "=" + v;
      }
    }
    ASSERT_EQ(Contents(cf), expected);
  };
  for (int step = 0; step < 2500; step++) {
    const int op = static_cast<int>(rng() % 100);
    const std::string& cf = names[rng() % 3];
    const std::string key = "k" + std::to_string(rng() % 300);
    if (op < 55) {
      const std::string v = "v" + std::to_string(step) + std::string(rng() % 200, 'x');
      ASSERT_OK(Put(cf, key, v));
      model[cf][key] = v;
    } else if (op < 70) {
      ASSERT_OK(db_->Delete(WriteOptions(), H(cf), key));
      model[cf].erase(key);
    } else if (op < 85) {
      // A batch over every family.
      WriteBatch b;
      for (const std::string& f : names) {
        const std::string v = "b" + std::to_string(step);
        ASSERT_OK(b.Put(H(f), key, v));
        model[f][key] = v;
      }
      ASSERT_OK(db_->Write(WriteOptions(), &b));
    } else if (op < 93) {
      std::string v;
      Status s = db_->Get(ReadOptions(), H(cf), key, &v);
      auto it = model[cf].find(key);
      if (it == model[cf].end()) {
        ASSERT_TRUE(s.IsNotFound()) << s.ToString() << " seed " << seed;
      } else {
        ASSERT_OK(s);
        ASSERT_EQ(v, it->second) << "seed " << seed;
      }
    } else if (op < 96) {
      ASSERT_OK(db_->Flush(FlushOptions(), H(cf)));
    } else if (op < 98) {
      ASSERT_OK(db_->CompactRange(CompactRangeOptions(), H(cf), nullptr, nullptr));
    } else {
      Open({"default", "cf2", "cf1"});
      for (const std::string& f : names) check(f);
      if (HasFailure()) return;
    }
  }
  for (const std::string& f : names) check(f);
  Open({"default", "cf1", "cf2"});
  for (const std::string& f : names) check(f);
}

// ---------------------------------------------------------------------------
// Cross-family atomicity across SIGKILL: a child writes synced batches that
// put key i into all three families; the parent kills it at a random moment
// and checks that each batch is in every family or in none, and that every
// acknowledged batch is there.

struct Shared {
  std::atomic<uint64_t> acked;  // batches acknowledged (absolute)
  std::atomic<int> opened;
};

std::string CrashKey(uint64_t i) {
  char buf[32];
  snprintf(buf, sizeof(buf), "k%010" PRIu64, i);
  return buf;
}

TEST_F(ColumnFamilyTest, CrossFamilyAtomicityAcrossKills) {
  if (test::kThreadSanitizer)
    GTEST_SKIP() << "TSan forbids threads in a multi-threaded fork's child";
  void* p =
      mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(p, MAP_FAILED);
  Shared* shared = new (p) Shared();
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  ColumnFamilyOptions small;
  small.write_buffer_size = 16 << 10;  // memtable switches and flushes mid-run
  cf_options_["cf1"] = small;
  Open({"default"});
  Create("cf1");
  Create("cf2");
  Close();
  const std::vector<std::string> names = {"default", "cf1", "cf2"};
  uint64_t next = 0;
  for (int round = 0; round < 8; round++) {
    SCOPED_TRACE("round " + std::to_string(round) + " seed " + std::to_string(seed));
    shared->acked.store(next);
    shared->opened.store(0);
    fflush(nullptr);
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      std::vector<ColumnFamilyDescriptor> descs;
      for (const std::string& n : names) {
        descs.emplace_back(n, n == "cf1" ? small : ColumnFamilyOptions());
      }
      std::vector<ColumnFamilyHandle*> hs;
      std::unique_ptr<DB> db;
      if (!DB::Open(db_options_, dbname_, descs, &hs, &db).ok()) _exit(2);
      shared->opened.store(1);
      WriteOptions wo;
      wo.sync = true;
      for (uint64_t i = next;; i++) {
        WriteBatch b;
        for (size_t f = 0; f < hs.size(); f++) {
          if (!b.Put(hs[f], CrashKey(i), names[f] + std::string(i % 300, 'v')).ok()) _exit(3);
        }
        if (!db->Write(wo, &b).ok()) _exit(3);
        shared->acked.store(i + 1, std::memory_order_release);
      }
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (shared->acked.load() == next && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20 + rng() % 200));
    kill(pid, SIGKILL);
    int wstatus = 0;
    ASSERT_EQ(waitpid(pid, &wstatus, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(wstatus)) << "child exited by itself: " << WEXITSTATUS(wstatus);
    const uint64_t acked = shared->acked.load();

    Open({"default", "cf1", "cf2"});
    // Every family holds exactly the keys 0 .. n-1, for one n.
    uint64_t counts[3] = {};
    for (size_t f = 0; f < names.size(); f++) {
      std::unique_ptr<Iterator> it = db_->NewIterator(ReadOptions(), H(names[f]));
      uint64_t n = 0;
      for (it->SeekToFirst(); it->Valid(); it->Next(), n++) {
        ASSERT_EQ(it->key().ToString(), CrashKey(n)) << names[f];
        ASSERT_EQ(it->value().ToString(), names[f] + std::string(n % 300, 'v'));
      }
      ASSERT_OK(it->status());
      counts[f] = n;
    }
    EXPECT_EQ(counts[0], counts[1]) << "a batch is in default but not in cf1 (or back)";
    EXPECT_EQ(counts[1], counts[2]) << "a batch is in cf1 but not in cf2 (or back)";
    EXPECT_GE(counts[0], acked) << "acknowledged synced batches were lost";
    EXPECT_LE(counts[0], acked + 1);
    Close();
    if (HasFailure()) break;
    next = counts[0];
  }
  EXPECT_GT(next, 0u);
  printf("cross-family crash test: %" PRIu64 " batches survive, seed %" PRIu64 "\n", next, seed);
  shared->~Shared();
  munmap(p, sizeof(Shared));
}

}  // namespace
}  // namespace strata
