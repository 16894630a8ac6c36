// DB::OpenAsSecondary and TryCatchUpWithPrimary: a secondary follows a live
// primary -- in this process (checked after every catch-up against a model
// of what the primary acknowledged, flushed or only in the WAL, in two
// families, with deletes and range deletions), across MANIFEST roll-overs,
// and in another process (a forked primary writing, flushing and compacting
// while this one catches up and reads). It writes nothing into the
// primary's directory; its iterators keep their view while the primary
// deletes the tables under them, and its snapshots hide what later
// catch-ups bring in.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "strata/db.h"
#include "strata/env.h"
#include "strata/iterator.h"
#include "strata/options.h"
#include "strata/write_batch.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

using Model = std::map<std::string, std::string>;

std::string Key(int i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "key%08d", i);
  return buf;
}

std::string Value(int i, int version = 0) {
  return "v" + std::to_string(i) + "." + std::to_string(version) + std::string(80, 'x');
}

// Every entry of the family, in order.
Model ReadAll(DB* db, ColumnFamilyHandle* cf, const Snapshot* snapshot = nullptr) {
  ReadOptions ro;
  ro.snapshot = snapshot;
  Model out;
  std::unique_ptr<Iterator> it = db->NewIterator(ro, cf);
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    out[it->key().ToString()] = it->value().ToString();
  }
  EXPECT_OK(it->status());
  return out;
}

// The names in dir (a live primary's: files may go while it is listed).
std::set<std::string> FileNames(const std::string& dir) {
  std::vector<std::string> children;
  EXPECT_OK(Env::Default()->GetFileSystem()->GetChildren(dir, &children));
  return std::set<std::string>(children.begin(), children.end());
}

std::set<std::string> ManifestNames(const std::string& dir) {
  std::set<std::string> names;
  for (const std::string& name : FileNames(dir)) {
    if (name.rfind("MANIFEST-", 0) == 0) names.insert(name);
  }
  return names;
}

class DBSecondaryTest : public ::testing::Test {
 protected:
  DBSecondaryTest() : dbname_(tmp_.path() + "/db"), secondary_path_(tmp_.path() + "/secondary") {
    options_.create_if_missing = true;
    options_.create_missing_column_families = true;
    options_.write_buffer_size = 32 << 10;
    options_.level0_file_num_compaction_trigger = 2;
    options_.max_bytes_for_level_base = 128 << 10;
    options_.target_file_size_base = 32 << 10;
  }

  std::vector<ColumnFamilyDescriptor> Families() const {
    return {ColumnFamilyDescriptor(kDefaultColumnFamilyName, options_),
            ColumnFamilyDescriptor("cf1", options_)};
  }

  void OpenPrimary() {
    ASSERT_OK(DB::Open(options_, dbname_, Families(), &primary_handles_, &primary_));
  }
  void OpenSecondary() {
    ASSERT_OK(DB::OpenAsSecondary(options_, dbname_, secondary_path_, Families(),
                                  &secondary_handles_, &secondary_));
  }
  void ClosePrimary() {
    for (ColumnFamilyHandle* h : primary_handles_)
      ASSERT_OK(primary_->DestroyColumnFamilyHandle(h));
    primary_handles_.clear();
    ASSERT_OK(primary_->Close());
    primary_.reset();
  }
  void CloseSecondary() {
    for (ColumnFamilyHandle* h : secondary_handles_) {
      ASSERT_OK(secondary_->DestroyColumnFamilyHandle(h));
    }
    secondary_handles_.clear();
    ASSERT_OK(secondary_->Close());
    secondary_.reset();
  }
  void TearDown() override {
    if (secondary_ != nullptr) CloseSecondary();
    if (primary_ != nullptr) ClosePrimary();
  }

  // The secondary's contents of every family equal the models.
  void CheckSecondary(const std::vector<Model>& models, const std::string& where) {
    SCOPED_TRACE(where);
    for (size_t f = 0; f < models.size(); ++f) {
      const Model got = ReadAll(secondary_.get(), secondary_handles_[f]);
      ASSERT_EQ(models[f].size(), got.size()) << "family " << f;
      ASSERT_TRUE(models[f] == got) << "family " << f;
      // Point lookups agree too (memtables, then tables).
      int n = 0;
      for (const auto& [k, v] : models[f]) {
        if (n++ % 17 != 0) continue;
        std::string value;
        ASSERT_OK(secondary_->Get(ReadOptions(), secondary_handles_[f], k, &value));
        ASSERT_EQ(v, value);
      }
    }
  }

  test::TempDir tmp_{"db_secondary_test"};
  std::string dbname_;
  std::string secondary_path_;
  Options options_;
  std::unique_ptr<DB> primary_;
  std::unique_ptr<DB> secondary_;
  std::vector<ColumnFamilyHandle*> primary_handles_;
  std::vector<ColumnFamilyHandle*> secondary_handles_;
};

TEST_F(DBSecondaryTest, FollowsPrimaryInProcessAgainstModel) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  OpenPrimary();
  std::vector<Model> models(2);
  // Something flushed before the secondary opens.
  for (int i = 0; i < 300; ++i) {
    for (int f = 0; f < 2; ++f) {
      ASSERT_OK(primary_->Put(WriteOptions(), primary_handles_[f], Key(i), Value(i, f)));
      models[f][Key(i)] = Value(i, f);
    }
  }
  ASSERT_OK(primary_->Flush(FlushOptions(), primary_handles_[0]));
  OpenSecondary();
  CheckSecondary(models, "after open");
  ASSERT_TRUE(test::DirectoryContents(secondary_path_).count("LOG") == 1);

  // Readers keep reading while the catch-ups install new SuperVersions:
  // every Get is found or not found, every scan is ordered and error-free.
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> reads{0};
  std::atomic<int> reader_errors{0};
  std::thread reader([&] {
    std::mt19937_64 r(seed + 1);
    while (!stop.load(std::memory_order_relaxed)) {
      for (ColumnFamilyHandle* h : secondary_handles_) {
        std::string value;
        Status s = secondary_->Get(ReadOptions(), h, Key(static_cast<int>(r() % 2000)), &value);
        if (!s.ok() && !s.IsNotFound()) reader_errors++;
        std::unique_ptr<Iterator> it = secondary_->NewIterator(ReadOptions(), h);
        std::string prev;
        int n = 0;
        for (it->Seek(Key(static_cast<int>(r() % 2000))); it->Valid() && n < 50; it->Next(), ++n) {
          if (!prev.empty() && it->key().ToString() <= prev) reader_errors++;
          prev = it->key().ToString();
        }
        if (!it->status().ok()) reader_errors++;
        reads++;
      }
    }
  });
  // Stopped and joined however the test leaves this scope.
  struct Joiner {
    std::atomic<bool>* stop;
    std::thread* thread;
    ~Joiner() {
      stop->store(true);
      if (thread->joinable()) thread->join();
    }
  } joiner{&stop, &reader};

  int version = 1;
  for (int round = 0; round < 30; ++round) {
    const std::string where = "round " + std::to_string(round) + " seed " + std::to_string(seed);
    for (int n = 0; n < 400; ++n) {
      const int f = static_cast<int>(rng() % 2);
      const int i = static_cast<int>(rng() % 2000);
      if (rng() % 5 == 0) {
        ASSERT_OK(primary_->Delete(WriteOptions(), primary_handles_[f], Key(i)));
        models[f].erase(Key(i));
      } else {
        ASSERT_OK(primary_->Put(WriteOptions(), primary_handles_[f], Key(i), Value(i, version)));
        models[f][Key(i)] = Value(i, version);
      }
      ++version;
    }
    if (round % 4 == 1) {
      const int f = static_cast<int>(rng() % 2);
      const int lo = static_cast<int>(rng() % 1900);
      ASSERT_OK(primary_->DeleteRange(WriteOptions(), primary_handles_[f], Key(lo), Key(lo + 50)));
      models[f].erase(models[f].lower_bound(Key(lo)), models[f].lower_bound(Key(lo + 50)));
    }
    if (round % 3 == 0) ASSERT_OK(primary_->Flush(FlushOptions(), primary_handles_[round % 2]));
    if (round % 7 == 3) {
      ASSERT_OK(
          primary_->CompactRange(CompactRangeOptions(), primary_handles_[0], nullptr, nullptr));
    }
    // A write on the secondary is refused (in RocksDB's words).
    const Status put = secondary_->Put(WriteOptions(), Key(1), "x");
    EXPECT_TRUE(put.IsNotSupported());
    EXPECT_NE(std::string::npos, put.ToString().find("secondary mode")) << put.ToString();
    ASSERT_OK(secondary_->TryCatchUpWithPrimary());
    CheckSecondary(models, where);
    EXPECT_EQ(primary_->GetLatestSequenceNumber(), secondary_->GetLatestSequenceNumber()) << where;
  }
  stop.store(true);
  reader.join();
  EXPECT_EQ(0, reader_errors.load());
  EXPECT_GT(reads.load(), 0u);
  // The rest of the write surface is refused as well.
  EXPECT_TRUE(secondary_->Delete(WriteOptions(), Key(1)).IsNotSupported());
  EXPECT_TRUE(secondary_->Flush(FlushOptions()).IsNotSupported());
  EXPECT_TRUE(secondary_->CompactRange(CompactRangeOptions(), nullptr, nullptr).IsNotSupported());
  ColumnFamilyHandle* h = nullptr;
  EXPECT_TRUE(secondary_->CreateColumnFamily(options_, "cf2", &h).IsNotSupported());
  // The primary is the only other instance: TryCatchUpWithPrimary is the
  // secondary's alone.
  EXPECT_TRUE(primary_->TryCatchUpWithPrimary().IsNotSupported());
}

TEST_F(DBSecondaryTest, WritesNothingIntoThePrimaryDirectory) {
  OpenPrimary();
  for (int i = 0; i < 2000; ++i) {
    ASSERT_OK(primary_->Put(WriteOptions(), primary_handles_[i % 2], Key(i), Value(i)));
  }
  ClosePrimary();
  const auto before = test::DirectoryContents(dbname_);
  OpenSecondary();
  ASSERT_OK(secondary_->TryCatchUpWithPrimary());
  const Model got = ReadAll(secondary_.get(), secondary_handles_[1]);
  EXPECT_EQ(1000u, got.size());
  CloseSecondary();
  EXPECT_TRUE(before == test::DirectoryContents(dbname_));
  // Its own LOG went to its own directory.
  EXPECT_EQ(1u, test::DirectoryContents(secondary_path_).count("LOG"));
}

TEST_F(DBSecondaryTest, SubsetOfFamiliesAndErrors) {
  OpenPrimary();
  ASSERT_OK(primary_->Put(WriteOptions(), primary_handles_[0], "a", "1"));
  ASSERT_OK(primary_->Put(WriteOptions(), primary_handles_[1], "b", "2"));
  {
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::OpenAsSecondary(options_, dbname_, secondary_path_, &db));
    ASSERT_OK(primary_->Put(WriteOptions(), primary_handles_[0], "c", "3"));
    ASSERT_OK(primary_->Put(WriteOptions(), primary_handles_[1], "d", "4"));
    ASSERT_OK(db->TryCatchUpWithPrimary());
    EXPECT_TRUE(ReadAll(db.get(), db->DefaultColumnFamily()) == (Model{{"a", "1"}, {"c", "3"}}));
  }
  {
    std::unique_ptr<DB> db;
    std::vector<ColumnFamilyHandle*> handles;
    Status s = DB::OpenAsSecondary(
        options_, dbname_, secondary_path_,
        {ColumnFamilyDescriptor(kDefaultColumnFamilyName, options_), {"nope", options_}}, &handles,
        &db);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_TRUE(handles.empty());
    s = DB::OpenAsSecondary(options_, tmp_.path() + "/missing", secondary_path_, &db);
    EXPECT_FALSE(s.ok());
    EXPECT_TRUE(DB::OpenAsSecondary(options_, dbname_, "", &db).IsInvalidArgument());
    EXPECT_TRUE(DB::OpenAsSecondary(options_, dbname_, dbname_ + "/", &db).IsInvalidArgument());
  }
}

// A secondary opened on a subset of the families, whose handles are
// destroyed, deletes none of the primary's files (those of the families it
// did not open are live, though it does not know them).
TEST_F(DBSecondaryTest, DestroyingHandlesDeletesNoPrimaryFile) {
  OpenPrimary();
  ASSERT_OK(primary_->Put(WriteOptions(), primary_handles_[1], "b", "2"));
  ASSERT_OK(primary_->Flush(FlushOptions(), primary_handles_[1]));
  ASSERT_OK(primary_->Put(WriteOptions(), primary_handles_[0], "a", "1"));
  ASSERT_OK(primary_->Flush(FlushOptions(), primary_handles_[0]));
  std::vector<std::string> before;
  ASSERT_OK(Env::Default()->GetFileSystem()->GetChildren(dbname_, &before));
  {
    std::unique_ptr<DB> db;
    std::vector<ColumnFamilyHandle*> handles;
    ASSERT_OK(DB::OpenAsSecondary(options_, dbname_, secondary_path_,
                                  {ColumnFamilyDescriptor(kDefaultColumnFamilyName, options_)},
                                  &handles, &db));
    for (ColumnFamilyHandle* h : handles) ASSERT_OK(db->DestroyColumnFamilyHandle(h));
    ASSERT_OK(db->Close());
  }
  std::vector<std::string> after;
  ASSERT_OK(Env::Default()->GetFileSystem()->GetChildren(dbname_, &after));
  std::sort(before.begin(), before.end());
  std::sort(after.begin(), after.end());
  EXPECT_EQ(before, after);
  std::string value;
  ASSERT_OK(primary_->Get(ReadOptions(), primary_handles_[1], "b", &value));
  EXPECT_EQ("2", value);
  ClosePrimary();
  std::unique_ptr<DB> ro;
  std::vector<ColumnFamilyHandle*> ro_handles;
  ASSERT_OK(DB::OpenForReadOnly(options_, dbname_, Families(), &ro_handles, &ro));
  ASSERT_OK(ro->Get(ReadOptions(), ro_handles[1], "b", &value));
  EXPECT_EQ("2", value);
  for (ColumnFamilyHandle* h : ro_handles) ASSERT_OK(ro->DestroyColumnFamilyHandle(h));
}

TEST_F(DBSecondaryTest, FamilyDroppedByThePrimaryStaysReadableThroughItsHandle) {
  OpenPrimary();
  for (int i = 0; i < 100; ++i) {
    ASSERT_OK(primary_->Put(WriteOptions(), primary_handles_[1], Key(i), Value(i)));
  }
  ASSERT_OK(primary_->Flush(FlushOptions(), primary_handles_[1]));
  ASSERT_OK(primary_->Put(WriteOptions(), primary_handles_[1], "wal-only", "x"));
  OpenSecondary();
  const Model before = ReadAll(secondary_.get(), secondary_handles_[1]);
  ASSERT_EQ(101u, before.size());
  ASSERT_OK(primary_->DropColumnFamily(primary_handles_[1]));
  ASSERT_OK(primary_->Put(WriteOptions(), primary_handles_[0], "after", "drop"));
  ASSERT_OK(secondary_->TryCatchUpWithPrimary());
  // As in RocksDB: the handle still reads what the family had.
  EXPECT_TRUE(ReadAll(secondary_.get(), secondary_handles_[1]) == before);
  std::string value;
  ASSERT_OK(secondary_->Get(ReadOptions(), secondary_handles_[0], "after", &value));
  EXPECT_EQ("drop", value);
  ASSERT_OK(secondary_->TryCatchUpWithPrimary());
}

TEST_F(DBSecondaryTest, IteratorsKeepTheirTablesWhileThePrimaryCompacts) {
  OpenPrimary();
  std::vector<Model> models(2);
  for (int i = 0; i < 1500; ++i) {
    ASSERT_OK(primary_->Put(WriteOptions(), primary_handles_[0], Key(i), Value(i)));
    models[0][Key(i)] = Value(i);
  }
  ASSERT_OK(primary_->Flush(FlushOptions(), primary_handles_[0]));
  OpenSecondary();
  const Model old_view = models[0];
  std::unique_ptr<Iterator> it = secondary_->NewIterator(ReadOptions(), secondary_handles_[0]);
  it->SeekToFirst();
  ASSERT_TRUE(it->Valid());
  // The primary rewrites everything and compacts: the tables the iterator
  // reads are deleted from the directory.
  const std::set<std::string> files_before = FileNames(dbname_);
  for (int i = 0; i < 1500; ++i) {
    ASSERT_OK(primary_->Put(WriteOptions(), primary_handles_[0], Key(i), Value(i, 1)));
    models[0][Key(i)] = Value(i, 1);
  }
  ASSERT_OK(primary_->CompactRange(CompactRangeOptions(), primary_handles_[0], nullptr, nullptr));
  int gone = 0;
  const std::set<std::string> after = FileNames(dbname_);
  for (const std::string& name : files_before) {
    if (name.size() > 4 && name.substr(name.size() - 4) == ".sst" && after.count(name) == 0) {
      ++gone;
    }
  }
  ASSERT_GT(gone, 0);
  ASSERT_OK(secondary_->TryCatchUpWithPrimary());
  // The old iterator still reads the old tables, all of them.
  Model seen;
  for (; it->Valid(); it->Next()) seen[it->key().ToString()] = it->value().ToString();
  ASSERT_OK(it->status());
  EXPECT_TRUE(seen == old_view);
  it.reset();
  CheckSecondary(models, "after compaction");

  // A snapshot taken before a catch-up does not see the writes it brings
  // in. (Only while the primary has not flushed or compacted away the
  // versions the snapshot reads: the primary knows nothing of the
  // secondary's snapshots -- docs/design/secondary.md, Limits.)
  const Snapshot* snap2 = secondary_->GetSnapshot();
  const Model view2 = models[0];
  for (int i = 0; i < 100; ++i) {
    ASSERT_OK(primary_->Put(WriteOptions(), primary_handles_[0], Key(i), Value(i, 2)));
    models[0][Key(i)] = Value(i, 2);
  }
  ASSERT_OK(primary_->Delete(WriteOptions(), primary_handles_[0], Key(200)));
  models[0].erase(Key(200));
  ASSERT_OK(secondary_->TryCatchUpWithPrimary());
  EXPECT_TRUE(ReadAll(secondary_.get(), secondary_handles_[0], snap2) == view2);
  secondary_->ReleaseSnapshot(snap2);
  CheckSecondary(models, "after WAL-only writes");
}

TEST_F(DBSecondaryTest, CatchesUpAcrossManifestRollOver) {
  options_.max_manifest_file_size = 1024;
  OpenPrimary();
  OpenSecondary();
  std::vector<Model> models(2);
  std::set<std::string> manifests_seen = ManifestNames(dbname_);
  int rollovers = 0;
  for (int round = 0; round < 20; ++round) {
    for (int i = 0; i < 300; ++i) {
      const int k = round * 100 + i;
      const int f = i % 2;
      ASSERT_OK(primary_->Put(WriteOptions(), primary_handles_[f], Key(k), Value(k, round)));
      models[f][Key(k)] = Value(k, round);
    }
    ASSERT_OK(primary_->Flush(FlushOptions(), primary_handles_[round % 2]));
    const std::set<std::string> now = ManifestNames(dbname_);
    if (now != manifests_seen) ++rollovers;
    manifests_seen = now;
    ASSERT_OK(secondary_->TryCatchUpWithPrimary());
    CheckSecondary(models, "round " + std::to_string(round));
  }
  // The roll-overs happened between catch-ups (each MANIFEST replaced the
  // one the secondary was reading).
  EXPECT_GE(rollovers, 3);
}

// ---------------------------------------------------------------------------
// Two processes: a primary process writes, flushes and compacts for a few
// seconds; this process, the secondary, catches up and reads meanwhile. The
// primary is this test binary again (fork, then exec with
// kPrimaryEnv set, which runs PrimaryProcess below): a plain fork would
// inherit this process's thread pools mid-wait, and exec starts clean.

constexpr auto kPrimaryRunTime = std::chrono::milliseconds(3500);
constexpr const char* kPrimaryEnv = "STRATA_SECONDARY_TEST_PRIMARY_DB";
constexpr const char* kPrimaryFdEnv = "STRATA_SECONDARY_TEST_PRIMARY_FD";

Options TwoProcessOptions() {
  Options o;
  o.create_if_missing = true;
  o.create_missing_column_families = true;
  o.write_buffer_size = 64 << 10;
  o.level0_file_num_compaction_trigger = 2;
  o.max_bytes_for_level_base = 256 << 10;
  o.target_file_size_base = 64 << 10;
  o.max_manifest_file_size = 16 << 10;  // roll-overs during the run too
  return o;
}

std::vector<ColumnFamilyDescriptor> TwoProcessFamilies() {
  return {ColumnFamilyDescriptor(kDefaultColumnFamilyName, TwoProcessOptions()),
          ColumnFamilyDescriptor("cf1", TwoProcessOptions())};
}

// Writes the index to the pipe, best effort (a full pipe skips it: the
// reader only needs a lower bound of what was acknowledged).
void Publish(int fd, int64_t index) {
  ssize_t n = write(fd, &index, sizeof(index));
  (void)n;
}

// The latest index in the pipe (or last if none came); *done when the
// writer closed it.
int64_t Drain(int fd, int64_t last, bool* done) {
  int64_t v;
  for (;;) {
    const ssize_t n = read(fd, &v, sizeof(v));
    if (n == static_cast<ssize_t>(sizeof(v))) {
      last = v;
      continue;
    }
    if (n == 0) *done = true;
    return last;
  }
}

// The primary's loop; returns the exit code.
int RunPrimary(const std::string& dbname, int fd) {
  fcntl(fd, F_SETFL, O_NONBLOCK);
  std::unique_ptr<DB> db;
  std::vector<ColumnFamilyHandle*> handles;
  Status s = DB::Open(TwoProcessOptions(), dbname, TwoProcessFamilies(), &handles, &db);
  if (!s.ok()) {
    std::fprintf(stderr, "primary: Open: %s\n", s.ToString().c_str());
    return 2;
  }
  Publish(fd, 0);
  const auto start = std::chrono::steady_clock::now();
  int64_t i = 0;
  while (std::chrono::steady_clock::now() - start < kPrimaryRunTime) {
    // Key i into the default family, its twin into cf1 (one batch); an
    // overwrite of an older key keeps compactions dropping versions.
    const int k = static_cast<int>(i);
    WriteBatch batch;
    s = batch.Put(handles[0], Key(k), Value(k));
    if (s.ok()) s = batch.Put(handles[1], Key(k), Value(k, 1));
    if (s.ok() && i >= 10) s = batch.Put(handles[0], Key(k / 2), Value(k / 2));
    if (s.ok()) s = db->Write(WriteOptions(), &batch);
    if (!s.ok()) {
      std::fprintf(stderr, "primary: Write: %s\n", s.ToString().c_str());
      return 3;
    }
    ++i;
    if (i % 64 == 0) Publish(fd, i);
    if (i % 5000 == 0) {
      s = db->CompactRange(CompactRangeOptions(), handles[(i / 5000) % 2], nullptr, nullptr);
      if (!s.ok()) {
        std::fprintf(stderr, "primary: CompactRange: %s\n", s.ToString().c_str());
        return 4;
      }
    }
  }
  Publish(fd, i);
  for (ColumnFamilyHandle* h : handles) db->DestroyColumnFamilyHandle(h).PermitUncheckedError();
  s = db->Close();
  return s.ok() ? 0 : 5;
}

// Runs only in the exec'd primary (skipped in a normal run).
TEST(DBSecondaryPrimaryProcess, Run) {
  const char* db = std::getenv(kPrimaryEnv);
  const char* fd = std::getenv(kPrimaryFdEnv);
  if (db == nullptr || fd == nullptr) {
    GTEST_SKIP() << "the primary process of DBSecondaryTest.FollowsPrimaryInAnotherProcess";
  }
  std::fflush(stdout);
  _exit(RunPrimary(db, std::atoi(fd)));
}

TEST_F(DBSecondaryTest, FollowsPrimaryInAnotherProcess) {
  // The child only execs (no thread starts in it), but the rule for
  // fork-based tests holds here too (docs/design/testing.md).
  if (test::kThreadSanitizer) {
    GTEST_SKIP() << "fork-based test: skipped under TSan";
  }
  int fds[2];
  ASSERT_EQ(0, pipe(fds));
  const int pid =
      test::SpawnSelf("DBSecondaryPrimaryProcess.Run",
                      {{kPrimaryEnv, dbname_}, {kPrimaryFdEnv, std::to_string(fds[1])}});
  ASSERT_GT(pid, 0);
  close(fds[1]);
  // Blocking until the primary has opened the DB.
  int64_t acked = -1;
  ASSERT_EQ(static_cast<ssize_t>(sizeof(acked)), read(fds[0], &acked, sizeof(acked)));
  fcntl(fds[0], F_SETFL, O_NONBLOCK);
  std::vector<ColumnFamilyHandle*>& handles = secondary_handles_;
  ASSERT_OK(DB::OpenAsSecondary(TwoProcessOptions(), dbname_, secondary_path_, TwoProcessFamilies(),
                                &handles, &secondary_));

  bool done = false;
  int rounds = 0;
  int64_t checked_up_to = 0;
  std::unique_ptr<Iterator> long_lived;
  int long_lived_steps = 0;
  std::mt19937_64 rng(test::RandomSeed());
  while (!done) {
    // What the primary had acknowledged before this catch-up began.
    acked = Drain(fds[0], acked, &done);
    SCOPED_TRACE("round " + std::to_string(rounds) + ", acked " + std::to_string(acked));
    ASSERT_OK(secondary_->TryCatchUpWithPrimary());
    ++rounds;
    // Every key below `acked` is there with its value: a scan of the
    // default family checks them all ...
    {
      std::unique_ptr<Iterator> it = secondary_->NewIterator(ReadOptions(), handles[0]);
      int64_t n = 0;
      for (it->SeekToFirst(); it->Valid() && n < acked; it->Next(), ++n) {
        ASSERT_EQ(Key(static_cast<int>(n)), it->key().ToString());
        ASSERT_EQ(Value(static_cast<int>(n)), it->value().ToString());
      }
      ASSERT_OK(it->status());
      ASSERT_EQ(acked, n) << "keys missing";
    }
    // ... and point lookups sample cf1.
    for (int probe = 0; probe < 50 && acked > 0; ++probe) {
      const int k = static_cast<int>(rng() % static_cast<uint64_t>(acked));
      std::string value;
      ASSERT_OK(secondary_->Get(ReadOptions(), handles[1], Key(k), &value));
      ASSERT_EQ(Value(k, 1), value);
    }
    checked_up_to = acked;
    // An iterator created early reads on, a little every round, across the
    // primary's compactions (which delete the tables under it).
    if (long_lived == nullptr && acked > 1000) {
      long_lived = secondary_->NewIterator(ReadOptions(), handles[1]);
      long_lived->SeekToFirst();
    }
    if (long_lived != nullptr) {
      for (int step = 0; step < 100 && long_lived->Valid(); ++step, long_lived->Next()) {
        ASSERT_EQ(Key(long_lived_steps), long_lived->key().ToString());
        ASSERT_EQ(Value(long_lived_steps, 1), long_lived->value().ToString());
        ++long_lived_steps;
      }
      ASSERT_OK(long_lived->status());
    }
  }
  long_lived.reset();
  int status = 0;
  ASSERT_EQ(pid, waitpid(pid, &status, 0));
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(0, WEXITSTATUS(status));
  close(fds[0]);
  // The final state, complete, in both families.
  ASSERT_OK(secondary_->TryCatchUpWithPrimary());
  for (int f = 0; f < 2; ++f) {
    const Model all = ReadAll(secondary_.get(), handles[f]);
    ASSERT_EQ(static_cast<size_t>(acked), all.size());
    EXPECT_EQ(Value(static_cast<int>(acked) - 1, f), all.rbegin()->second);
  }
  EXPECT_GT(rounds, 5);
  EXPECT_GT(checked_up_to, 1000);
  EXPECT_GT(long_lived_steps, 500);
  std::printf("secondary: %d catch-ups, %lld keys at the end, long-lived iterator %d steps\n",
              rounds, static_cast<long long>(acked), long_lived_steps);
}

}  // namespace
}  // namespace strata
