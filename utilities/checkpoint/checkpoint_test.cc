// Checkpoint tests: a checkpoint opens as a DB holding exactly a consistent
// state -- everything acknowledged before the call, then a prefix of what
// was written meanwhile, never part of a batch -- while a writer, flushes
// and compactions run; tables are links, the growing files trimmed copies;
// the copy also works where links do not; RocksDB's ldb reads it.
#include "strata/utilities/checkpoint.h"

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <random>
#include <thread>

#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/env.h"
#include "test_util/forwarding_file_system.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

Options SmallOptions() {
  Options o;
  o.create_if_missing = true;
  o.write_buffer_size = 64 << 10;
  o.target_file_size_base = 64 << 10;
  o.max_bytes_for_level_base = 256 << 10;
  o.level0_file_num_compaction_trigger = 2;
  return o;
}

std::map<std::string, std::string> Contents(DB* db, ColumnFamilyHandle* cf = nullptr) {
  std::map<std::string, std::string> out;
  auto it = db->NewIterator(ReadOptions(), cf == nullptr ? db->DefaultColumnFamily() : cf);
  for (it->SeekToFirst(); it->Valid(); it->Next())
    out[it->key().ToString()] = it->value().ToString();
  EXPECT_OK(it->status());
  return out;
}

std::string Key(int i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "key%08d", i);
  return buf;
}

size_t CountFiles(const std::string& dir, const std::string& suffix) {
  size_t n = 0;
  for (const auto& [name, bytes] : test::DirectoryContents(dir)) {
    if (name.size() >= suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      n++;
  }
  return n;
}

class CheckpointTest : public ::testing::Test {
 protected:
  CheckpointTest() : dir_("checkpoint_test"), dbname_(dir_.path() + "/db") {}

  void Open(const Options& o = SmallOptions()) { ASSERT_OK(DB::Open(o, dbname_, &db_)); }

  test::TempDir dir_;
  std::string dbname_;
  std::unique_ptr<Env> env_;  // a test's own Env; declared before db_: outlives it
  std::unique_ptr<DB> db_;
};

TEST_F(CheckpointTest, HoldsTheStateAtTheCallAndNothingLater) {
  Open();
  std::map<std::string, std::string> model;
  for (int i = 0; i < 3000; i++) {
    const std::string v = "value" + std::to_string(i * 7);
    ASSERT_OK(db_->Put(WriteOptions(), Key(i), v));
    model[Key(i)] = v;
    if (i % 5 == 0) {
      ASSERT_OK(db_->Delete(WriteOptions(), Key(i / 2)));
      model.erase(Key(i / 2));
    }
  }
  // Settled first, so the tables checked for links below stay in the DB.
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  std::unique_ptr<Checkpoint> cp;
  ASSERT_OK(Checkpoint::Create(db_.get(), &cp));
  const std::string cpdir = dir_.path() + "/cp";
  uint64_t seq = 0;
  ASSERT_OK(cp->CreateCheckpoint(cpdir, 0, &seq));
  EXPECT_EQ(db_->GetLatestSequenceNumber(), seq);
  ASSERT_OK(db_->Put(WriteOptions(), "later", "x"));
  // The same directory again is refused, untouched.
  const auto before = test::DirectoryContents(cpdir);
  Status s = cp->CreateCheckpoint(cpdir);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_EQ(before, test::DirectoryContents(cpdir));
  // No staging directory is left behind.
  EXPECT_FALSE(Env::Default()->GetFileSystem()->FileExists(cpdir + ".tmp").ok());

  // Tables are hard links of the DB's own files (those still there).
  size_t linked = 0;
  for (const auto& [name, bytes] : test::DirectoryContents(cpdir)) {
    if (name.size() > 4 && name.substr(name.size() - 4) == ".sst") {
      struct stat in_cp, in_db;
      ASSERT_EQ(0, stat((cpdir + "/" + name).c_str(), &in_cp));
      if (stat((dbname_ + "/" + name).c_str(), &in_db) == 0) {
        EXPECT_EQ(in_db.st_ino, in_cp.st_ino) << name;
        linked++;
      }
    }
  }
  EXPECT_GT(linked, 0u);

  std::unique_ptr<DB> copy;
  Options o = SmallOptions();
  o.create_if_missing = false;
  ASSERT_OK(DB::Open(o, cpdir, &copy));
  EXPECT_EQ(model, Contents(copy.get()));
  EXPECT_EQ(seq, copy->GetLatestSequenceNumber());
  // The copy is a DB of its own: writes to one do not reach the other.
  ASSERT_OK(copy->Put(WriteOptions(), "only-in-copy", "1"));
  std::string v;
  EXPECT_TRUE(db_->Get(ReadOptions(), "only-in-copy", &v).IsNotFound());
  EXPECT_TRUE(copy->Get(ReadOptions(), "later", &v).IsNotFound());
}

TEST_F(CheckpointTest, WithoutFlushTheWalsCarryTheMemtables) {
  Options o = SmallOptions();
  o.write_buffer_size = 4 << 20;  // nothing flushed by size
  Open(o);
  std::map<std::string, std::string> model;
  for (int i = 0; i < 500; i++) {
    ASSERT_OK(db_->Put(WriteOptions(), Key(i), std::to_string(i)));
    model[Key(i)] = std::to_string(i);
  }
  std::unique_ptr<Checkpoint> cp;
  ASSERT_OK(Checkpoint::Create(db_.get(), &cp));
  const std::string cpdir = dir_.path() + "/cp";
  ASSERT_OK(cp->CreateCheckpoint(cpdir, UINT64_MAX));
  EXPECT_EQ(0u, CountFiles(cpdir, ".sst"));
  EXPECT_GE(CountFiles(cpdir, ".log"), 1u);
  // The WAL copy is trimmed to what was written (the DB's own WAL is
  // preallocated past it).
  for (const auto& [name, bytes] : test::DirectoryContents(cpdir)) {
    if (name.size() > 4 && name.substr(name.size() - 4) == ".log") {
      EXPECT_LT(bytes.size(), size_t{1} << 20) << name;
    }
  }
  std::unique_ptr<DB> copy;
  ASSERT_OK(DB::Open(o, cpdir, &copy));
  EXPECT_EQ(model, Contents(copy.get()));

  // With log_size_for_flush 0 the memtables are flushed first.
  const std::string cpdir2 = dir_.path() + "/cp2";
  ASSERT_OK(cp->CreateCheckpoint(cpdir2, 0));
  EXPECT_GE(CountFiles(cpdir2, ".sst"), 1u);
  std::unique_ptr<DB> copy2;
  ASSERT_OK(DB::Open(o, cpdir2, &copy2));
  EXPECT_EQ(model, Contents(copy2.get()));
}

// A writer commits batches that put key i in both families with the same
// value, in increasing i; flushes and compactions run meanwhile. Each
// checkpoint must hold keys 0..n-1 for some n at least the count
// acknowledged before the call, in both families alike.
TEST_F(CheckpointTest, ConsistentUnderWritesFlushesAndCompactions) {
  Options o = SmallOptions();
  o.create_missing_column_families = true;
  std::vector<ColumnFamilyDescriptor> descs = {{kDefaultColumnFamilyName, o}, {"other", o}};
  std::vector<ColumnFamilyHandle*> handles;
  ASSERT_OK(DB::Open(o, dbname_, descs, &handles, &db_));
  std::atomic<int> acked{0};
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    const std::string pad(100, 'p');
    for (int i = 0; !stop.load(); i++) {
      WriteBatch b;
      const std::string v = std::to_string(i) + pad;
      ASSERT_OK(b.Put(handles[0], Key(i), v));
      ASSERT_OK(b.Put(handles[1], Key(i), v));
      ASSERT_OK(db_->Write(WriteOptions(), &b));
      acked.store(i + 1);
    }
  });
  std::unique_ptr<Checkpoint> cp;
  ASSERT_OK(Checkpoint::Create(db_.get(), &cp));
  const int kRounds = 6;
  for (int r = 0; r < kRounds; r++) {
    while (acked.load() < (r + 1) * 1500) std::this_thread::yield();
    const int floor = acked.load();
    const std::string cpdir = dir_.path() + "/cp" + std::to_string(r);
    // Alternate flushing and copying the WALs.
    ASSERT_OK(cp->CreateCheckpoint(cpdir, r % 2 == 0 ? 0 : UINT64_MAX));
    std::unique_ptr<DB> copy;
    std::vector<ColumnFamilyHandle*> ch;
    Options co = o;
    co.create_if_missing = false;
    ASSERT_OK(DB::Open(co, cpdir, descs, &ch, &copy));
    const auto a = Contents(copy.get(), ch[0]);
    const auto b = Contents(copy.get(), ch[1]);
    EXPECT_EQ(a, b) << "round " << r << ": a batch was split";
    const int n = static_cast<int>(a.size());
    EXPECT_GE(n, floor) << "round " << r;
    int i = 0;
    for (const auto& [k, v] : a) {
      ASSERT_EQ(Key(i), k) << "round " << r << ": not a prefix";
      ASSERT_EQ(std::to_string(i) + std::string(100, 'p'), v);
      i++;
    }
    for (auto* h : ch) ASSERT_OK(copy->DestroyColumnFamilyHandle(h));
    ASSERT_OK(copy->Close());
  }
  stop.store(true);
  writer.join();
  for (auto* h : handles) ASSERT_OK(db_->DestroyColumnFamilyHandle(h));
}

// A file system without links: tables are copied.
class NoLinkFileSystem : public test::ForwardingFileSystem {
 public:
  using ForwardingFileSystem::ForwardingFileSystem;
  const char* Name() const override { return "NoLink"; }
  Status LinkFile(const std::string& a, const std::string& b) override {
    return Status::NotSupported("no links here", a + " to " + b);
  }
};

TEST_F(CheckpointTest, CopiesWhereLinksAreNotPossible) {
  auto fs = std::make_shared<NoLinkFileSystem>(Env::Default()->GetFileSystemPtr());
  env_ = std::make_unique<Env>(fs, SystemClock::Default());
  Options o = SmallOptions();
  o.env = env_.get();
  Open(o);
  std::map<std::string, std::string> model;
  for (int i = 0; i < 2000; i++) {
    ASSERT_OK(db_->Put(WriteOptions(), Key(i), std::string(50, 'a' + i % 26)));
    model[Key(i)] = std::string(50, 'a' + i % 26);
  }
  std::unique_ptr<Checkpoint> cp;
  ASSERT_OK(Checkpoint::Create(db_.get(), &cp));
  const std::string cpdir = dir_.path() + "/cp";
  ASSERT_OK(cp->CreateCheckpoint(cpdir));
  for (const auto& [name, bytes] : test::DirectoryContents(cpdir)) {
    if (name.size() > 4 && name.substr(name.size() - 4) == ".sst") {
      struct stat st;
      ASSERT_EQ(0, stat((cpdir + "/" + name).c_str(), &st));
      EXPECT_EQ(1u, st.st_nlink) << name;
    }
  }
  db_.reset();
  std::unique_ptr<DB> copy;
  ASSERT_OK(DB::Open(o, cpdir, &copy));
  EXPECT_EQ(model, Contents(copy.get()));
}

TEST_F(CheckpointTest, InMemoryFileSystem) {
  env_ = NewMemEnv();
  Options o = SmallOptions();
  o.env = env_.get();
  ASSERT_OK(env_->GetFileSystem()->CreateDirIfMissing(dir_.path()));
  Open(o);
  for (int i = 0; i < 1000; i++) ASSERT_OK(db_->Put(WriteOptions(), Key(i), "v"));
  std::unique_ptr<Checkpoint> cp;
  ASSERT_OK(Checkpoint::Create(db_.get(), &cp));
  ASSERT_OK(cp->CreateCheckpoint(dir_.path() + "/cp"));
  std::unique_ptr<DB> copy;
  ASSERT_OK(DB::Open(o, dir_.path() + "/cp", &copy));
  EXPECT_EQ(1000u, Contents(copy.get()).size());
}

TEST_F(CheckpointTest, DisabledDeletionsKeepObsoleteFilesUntilEnabled) {
  Open();
  for (int i = 0; i < 2000; i++) ASSERT_OK(db_->Put(WriteOptions(), Key(i), std::string(100, 'x')));
  ASSERT_OK(db_->Flush(FlushOptions()));
  std::vector<std::string> live;
  uint64_t manifest_size = 0;
  ASSERT_OK(db_->GetLiveFiles(&live, &manifest_size, /*flush_memtable=*/true));
  EXPECT_GT(manifest_size, 0u);
  bool has_current = false, has_manifest = false, has_options = false;
  for (const std::string& f : live) {
    ASSERT_EQ('/', f[0]) << f;
    has_current |= f == "/CURRENT";
    has_manifest |= f.rfind("/MANIFEST-", 0) == 0;
    has_options |= f.rfind("/OPTIONS-", 0) == 0;
  }
  EXPECT_TRUE(has_current && has_manifest && has_options);

  ASSERT_OK(db_->DisableFileDeletions());
  ASSERT_OK(db_->DisableFileDeletions());
  // New versions of every key: the full compaction rewrites every table.
  for (int i = 0; i < 2000; i++) ASSERT_OK(db_->Put(WriteOptions(), Key(i), std::string(100, 'z')));
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  for (const std::string& f : live) {
    EXPECT_TRUE(Env::Default()->GetFileSystem()->FileExists(dbname_ + f).ok()) << f;
  }
  ASSERT_OK(db_->EnableFileDeletions(/*force=*/false));  // one of two
  for (const std::string& f : live) {
    EXPECT_TRUE(Env::Default()->GetFileSystem()->FileExists(dbname_ + f).ok()) << f;
  }
  ASSERT_OK(db_->EnableFileDeletions(/*force=*/false));
  size_t gone = 0;
  for (const std::string& f : live) {
    if (f.size() > 4 && f.substr(f.size() - 4) == ".sst" &&
        !Env::Default()->GetFileSystem()->FileExists(dbname_ + f).ok()) {
      gone++;
    }
  }
  EXPECT_GT(gone, 0u);
}

TEST_F(CheckpointTest, MetaDataListsEveryTable) {
  Open();
  for (int i = 0; i < 4000; i++) ASSERT_OK(db_->Put(WriteOptions(), Key(i), std::string(100, 'y')));
  ASSERT_OK(db_->Flush(FlushOptions()));
  std::vector<LiveFileMetaData> files;
  db_->GetLiveFilesMetaData(&files);
  ASSERT_FALSE(files.empty());
  ColumnFamilyMetaData cf;
  db_->GetColumnFamilyMetaData(&cf);
  EXPECT_EQ("default", cf.name);
  EXPECT_EQ(files.size(), cf.file_count);
  uint64_t total = 0;
  for (const LiveFileMetaData& f : files) {
    EXPECT_EQ("default", f.column_family_name);
    EXPECT_EQ(kTableFile, f.file_type);
    EXPECT_EQ("/" + f.relative_filename, f.name);
    uint64_t size = 0;
    ASSERT_OK(Env::Default()->GetFileSystem()->GetFileSize(f.directory + "/" + f.relative_filename,
                                                           &size));
    EXPECT_EQ(size, f.size);
    EXPECT_LE(f.smallestkey, f.largestkey);
    EXPECT_LE(f.smallest_seqno, f.largest_seqno);
    total += f.size;
  }
  EXPECT_EQ(total, cf.size);
  std::string id, session;
  ASSERT_OK(db_->GetDbIdentity(&id));
  ASSERT_OK(db_->GetDbSessionId(&session));
  EXPECT_EQ(test::ReadFileOrDie(dbname_ + "/IDENTITY").substr(0, id.size()), id);
  EXPECT_EQ(20u, session.size());
}

TEST_F(CheckpointTest, ExportColumnFamilyListsTablesWithLevels) {
  Open();
  for (int i = 0; i < 3000; i++) ASSERT_OK(db_->Put(WriteOptions(), Key(i), std::string(80, 'e')));
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  for (int i = 0; i < 100; i++) ASSERT_OK(db_->Put(WriteOptions(), Key(i), "new"));
  std::unique_ptr<Checkpoint> cp;
  ASSERT_OK(Checkpoint::Create(db_.get(), &cp));
  std::unique_ptr<ExportImportFilesMetaData> meta;
  const std::string exp = dir_.path() + "/export";
  ASSERT_OK(cp->ExportColumnFamily(db_->DefaultColumnFamily(), exp, &meta));
  ASSERT_NE(nullptr, meta);
  EXPECT_EQ("leveldb.BytewiseComparator", meta->db_comparator_name);
  ASSERT_FALSE(meta->files.empty());
  bool has_l0 = false, has_deeper = false;
  for (const LiveFileMetaData& f : meta->files) {
    EXPECT_EQ(exp, f.directory);
    EXPECT_OK(Env::Default()->GetFileSystem()->FileExists(exp + "/" + f.relative_filename));
    has_l0 |= f.level == 0;
    has_deeper |= f.level > 0;
  }
  EXPECT_TRUE(has_l0 && has_deeper);
  EXPECT_EQ(meta->files.size(), CountFiles(exp, ".sst"));
  Status s = cp->ExportColumnFamily(db_->DefaultColumnFamily(), exp, &meta);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
}

// RocksDB's ldb reads a checkpoint taken while a writer runs: every key.
TEST_F(CheckpointTest, RocksDbLdbReadsACheckpointTakenUnderLoad) {
  if (!Env::Default()->GetFileSystem()->FileExists("/usr/bin/ldb").ok()) {
    GTEST_SKIP() << "/usr/bin/ldb is not installed";
  }
  Open();
  std::atomic<bool> stop{false};
  std::atomic<int> acked{0};
  std::thread writer([&] {
    for (int i = 0; !stop.load(); i++) {
      ASSERT_OK(db_->Put(WriteOptions(), Key(i), "v" + std::to_string(i)));
      acked.store(i + 1);
    }
  });
  while (acked.load() < 20000) std::this_thread::yield();
  std::unique_ptr<Checkpoint> cp;
  ASSERT_OK(Checkpoint::Create(db_.get(), &cp));
  const std::string cpdir = dir_.path() + "/cp";
  ASSERT_OK(cp->CreateCheckpoint(cpdir, UINT64_MAX));  // WALs copied too
  stop.store(true);
  writer.join();
  std::unique_ptr<DB> copy;
  Options o = SmallOptions();
  ASSERT_OK(DB::OpenForReadOnly(o, cpdir, &copy));
  const auto expected = Contents(copy.get());
  copy.reset();
  ASSERT_GE(expected.size(), 20000u);
  FILE* p = popen(("/usr/bin/ldb --db=" + cpdir + " scan 2>&1").c_str(), "r");
  ASSERT_NE(nullptr, p);
  std::map<std::string, std::string> seen;
  char line[512];
  while (std::fgets(line, sizeof(line), p) != nullptr) {
    std::string l(line);
    if (!l.empty() && l.back() == '\n') l.pop_back();
    const size_t sep = l.find(" : ");
    ASSERT_NE(std::string::npos, sep) << l;
    seen[l.substr(0, sep)] = l.substr(sep + 3);
  }
  ASSERT_EQ(0, pclose(p));
  EXPECT_EQ(expected, seen);
}

// DBOptions::wal_dir (issue 19, "paths"): the WALs are copied from wal_dir
// into the checkpoint's directory, which then opens without wal_dir.
TEST_F(CheckpointTest, WalsComeFromWalDir) {
  Options o = SmallOptions();
  o.wal_dir = dir_.path() + "/wals";
  Open(o);
  std::map<std::string, std::string> model;
  for (int i = 0; i < 300; ++i) {
    const std::string key = "k" + std::to_string(i);
    ASSERT_OK(db_->Put(WriteOptions(), key, "v" + std::to_string(i)));
    model[key] = "v" + std::to_string(i);
  }
  std::unique_ptr<Checkpoint> cp;
  ASSERT_OK(Checkpoint::Create(db_.get(), &cp));
  const std::string cp_dir = dir_.path() + "/cp";
  ASSERT_OK(cp->CreateCheckpoint(cp_dir, /*log_size_for_flush=*/UINT64_MAX));
  std::vector<std::string> children;
  ASSERT_OK(Env::Default()->GetFileSystem()->GetChildren(cp_dir, &children));
  EXPECT_EQ(1, std::count_if(children.begin(), children.end(), [](const std::string& n) {
              return n.size() > 4 && n.compare(n.size() - 4, 4, ".log") == 0;
            }));
  std::unique_ptr<DB> copy;
  ASSERT_OK(DB::Open(Options(), cp_dir, &copy));
  for (const auto& [k, v] : model) {
    std::string got;
    ASSERT_OK(copy->Get(ReadOptions(), k, &got));
    EXPECT_EQ(v, got);
  }
}

}  // namespace
}  // namespace strata
