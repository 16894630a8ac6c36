// Safe opens and options that must be honoured, not ignored:
//  - create_if_missing over table files, WALs or a MANIFEST without CURRENT
//    refuses, names them and RepairDB, and changes nothing;
//  - Close with an unreleased snapshot is Aborted and the DB stays open;
//  - WriteOptions::no_slowdown fails with Incomplete instead of waiting;
//  - max_total_wal_size flushes the families that pin the oldest WAL;
//  - CompactRangeOptions change_level / target_level / exclusive;
//  - use_fsync reaches every file the DB syncs;
//  - values RocksDB sanitizes are sanitized with a LOG line.
#include <atomic>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "db/db_impl.h"
#include "strata/db.h"
#include "strata/env.h"
#include "strata/table.h"
#include "test_util/db_test_base.h"
#include "test_util/testutil.h"
#include "util/sync_point.h"

namespace strata {
namespace {

class DBOpenSafetyTest : public DBTestBase {
 protected:
  DBOpenSafetyTest() : DBTestBase("db_open_safety_test") {}

  static bool Contains(const Status& s, const std::string& part) {
    return s.ToString().find(part) != std::string::npos;
  }
  std::string ReadLog() {
    std::ifstream in(dbname_ + "/LOG");
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
};

// The defect: a lost CURRENT with create_if_missing made a new, empty
// database and deleted every table as obsolete.
TEST_F(DBOpenSafetyTest, CreateIfMissingRefusesOverOrphanedFiles) {
  Open();
  for (int i = 0; i < 100; ++i) ASSERT_OK(Put("flushed" + std::to_string(i), "v"));
  ASSERT_OK(Flush());
  ASSERT_OK(Put("in-wal", "w"));
  Close();
  ASSERT_EQ(0, std::remove((dbname_ + "/CURRENT").c_str()));
  const auto before = test::DirectoryContents(dbname_);

  ASSERT_TRUE(options_.create_if_missing);
  Status s = TryOpen();
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_TRUE(Contains(s, "RepairDB")) << s.ToString();
  EXPECT_TRUE(Contains(s, ".sst")) << s.ToString();
  EXPECT_TRUE(Contains(s, ".log")) << s.ToString();
  EXPECT_TRUE(Contains(s, "MANIFEST-")) << s.ToString();
  EXPECT_EQ(nullptr, db_);
  EXPECT_TRUE(before == test::DirectoryContents(dbname_))
      << "the refused open changed the directory";

  // A WAL alone is refused too (RocksDB's case), and so is a table alone.
  for (const auto& [name, bytes] : before) {
    if (name.find(".sst") != std::string::npos || name.find("MANIFEST-") == 0) {
      ASSERT_EQ(0, std::remove((dbname_ + "/" + name).c_str()));
    }
  }
  s = TryOpen();
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_TRUE(Contains(s, ".log")) << s.ToString();

  // RepairDB, as the message says, recovers what the files hold.
  Close();
  ASSERT_OK(DestroyDB(dbname_, options_));
  Open();
  for (int i = 0; i < 100; ++i) ASSERT_OK(Put("flushed" + std::to_string(i), "v"));
  ASSERT_OK(Flush());
  ASSERT_OK(Put("in-wal", "w"));
  Close();
  ASSERT_EQ(0, std::remove((dbname_ + "/CURRENT").c_str()));
  ASSERT_TRUE(TryOpen().IsCorruption());
  ASSERT_OK(RepairDB(dbname_, options_));
  Open();
  EXPECT_EQ("v", Get("flushed42"));
  EXPECT_EQ("w", Get("in-wal"));
}

TEST_F(DBOpenSafetyTest, CreateIfMissingStillCreatesInADirectoryWithOtherFiles) {
  ASSERT_OK(Env::Default()->GetFileSystem()->CreateDirIfMissing(dbname_));
  test::WriteFileOrDie(dbname_ + "/README", "not a database file");
  test::WriteFileOrDie(dbname_ + "/LOG.old.123", "an old info log");
  Open();
  ASSERT_OK(Put("k", "v"));
  EXPECT_EQ("v", Get("k"));
}

TEST_F(DBOpenSafetyTest, CloseWithUnreleasedSnapshotIsAbortedAndTheDbStaysOpen) {
  Open();
  ASSERT_OK(Put("k", "1"));
  const Snapshot* snap = db_->GetSnapshot();
  ASSERT_OK(Put("k", "2"));
  const Status s = db_->Close();
  EXPECT_TRUE(s.IsAborted()) << s.ToString();
  EXPECT_TRUE(Contains(s, "unreleased snapshot")) << s.ToString();
  // Still open and whole.
  ASSERT_OK(Put("k2", "3"));
  EXPECT_EQ("1", Get("k", snap));
  EXPECT_EQ("2", Get("k"));
  db_->ReleaseSnapshot(snap);
  ASSERT_OK(db_->Close());
  db_.reset();
  Open();
  EXPECT_EQ("3", Get("k2"));
}

// Level-0 compaction is held at a sync point until the test lets it go, so
// level 0 reaches the stop trigger and writes stall.
TEST_F(DBOpenSafetyTest, NoSlowdownWriteFailsWithIncompleteInsteadOfWaiting) {
  Options o = options_;
  o.write_buffer_size = 64 << 10;
  o.level0_file_num_compaction_trigger = 2;
  o.level0_slowdown_writes_trigger = 3;
  o.level0_stop_writes_trigger = 3;
  Open(o);
  test::Event compaction_started, release;
  SyncPoint* sp = SyncPoint::GetInstance();
  sp->SetCallBack("CompactionJob::Run:Unlocked", [&](void*) {
    compaction_started.Set();
    release.WaitFor();
  });
  sp->EnableProcessing();
  for (int f = 0; f < 3; ++f) {
    // Overlapping files: the compaction is a real one, not a trivial move.
    ASSERT_OK(Put("a", std::string(100, 'x')));
    ASSERT_OK(Put("z", std::string(100, 'x')));
    ASSERT_OK(dbfull()->Flush(FlushOptions()));
  }
  ASSERT_TRUE(compaction_started.WaitFor());
  // Level 0 holds 3 files: writes are stopped until the compaction ends.
  WriteOptions no_slowdown;
  no_slowdown.no_slowdown = true;
  Status s = Put("fast", "v", no_slowdown);
  EXPECT_TRUE(s.IsIncomplete()) << s.ToString();
  // A normal writer waits; a no_slowdown writer meanwhile still does not.
  std::atomic<bool> normal_done{false};
  Status normal_status;
  std::thread normal([&]() {
    normal_status = Put("slow", "v");
    normal_done = true;
  });
  while (dbfull()->TEST_WriteQueueLength() == 0 && !normal_done) std::this_thread::yield();
  for (int i = 0; i < 20; ++i) {
    s = Put("fast" + std::to_string(i), "v", no_slowdown);
    EXPECT_TRUE(s.IsIncomplete()) << s.ToString();
  }
  EXPECT_FALSE(normal_done.load());
  release.Set();
  normal.join();
  EXPECT_OK(normal_status);
  sp->DisableProcessing();
  sp->ClearAllCallBacks();
  ASSERT_OK(WaitForCompact());
  ASSERT_OK(Put("fast", "v", no_slowdown));  // no stall any more
  EXPECT_EQ("v", Get("slow"));
  EXPECT_EQ("NOT_FOUND", Get("fast0"));
}

TEST_F(DBOpenSafetyTest, MaxTotalWalSizeFlushesTheFamilyPinningTheOldestWal) {
  Options o = options_;
  o.write_buffer_size = 64 << 10;
  o.max_total_wal_size = 256 << 10;
  o.wal_mmap_writes = false;  // file sizes are the bytes written
  o.create_missing_column_families = true;
  Close();
  std::vector<ColumnFamilyHandle*> handles;
  ASSERT_OK(DB::Open(
      o, dbname_,
      {ColumnFamilyDescriptor(kDefaultColumnFamilyName, o), ColumnFamilyDescriptor("rare", o)},
      &handles, &db_));
  // One write to the rarely written family pins the first WAL...
  ASSERT_OK(db_->Put(WriteOptions(), handles[1], "rare-key", "r"));
  // ...while the busy family fills many memtables (each switch starts a
  // new WAL).
  const std::string value(1000, 'v');
  for (int i = 0; i < 2000; ++i) ASSERT_OK(Put("busy" + std::to_string(i), value));
  ASSERT_OK(WaitForCompact());
  // The rare family was flushed to let the old WALs go.
  uint64_t rare_files = 0;
  ASSERT_TRUE(db_->GetIntProperty(handles[1], "rocksdb.num-files-at-level0", &rare_files));
  EXPECT_GE(rare_files, 1u);
  uint64_t wal_bytes = 0;
  int wals = 0;
  for (const auto& [name, bytes] : test::DirectoryContents(dbname_)) {
    uint64_t number;
    if (test::ParseLogFileName(name, &number)) {
      ++wals;
      wal_bytes += bytes.size();
    }
  }
  // ~2 MB was written; without the limit every WAL since the rare write
  // would still be there.
  EXPECT_LT(wal_bytes, 2u * o.max_total_wal_size) << wals << " WAL files";
  EXPECT_NE(std::string::npos, ReadLog().find("max_total_wal_size"));
  for (ColumnFamilyHandle* h : handles) ASSERT_OK(db_->DestroyColumnFamilyHandle(h));
  Close();
  ASSERT_OK(DB::Open(
      o, dbname_,
      {ColumnFamilyDescriptor(kDefaultColumnFamilyName, o), ColumnFamilyDescriptor("rare", o)},
      &handles, &db_));
  std::string v;
  ASSERT_OK(db_->Get(ReadOptions(), handles[1], "rare-key", &v));
  EXPECT_EQ("r", v);
  for (ColumnFamilyHandle* h : handles) ASSERT_OK(db_->DestroyColumnFamilyHandle(h));
}

TEST_F(DBOpenSafetyTest, CompactRangeChangeLevelMovesTheResultToTheTargetLevel) {
  Options o = options_;
  o.level_compaction_dynamic_level_bytes = false;
  o.num_levels = 7;
  o.disable_auto_compactions = true;  // only the moves asked for
  Open(o);
  for (int i = 0; i < 3000; ++i) {
    ASSERT_OK(Put("key" + std::to_string(i), std::string(100, 'a' + i % 26)));
  }
  ASSERT_OK(Flush());
  CompactRangeOptions cro;
  cro.change_level = true;
  cro.target_level = 5;
  ASSERT_OK(db_->CompactRange(cro, nullptr, nullptr));
  EXPECT_EQ("0,0,0,0,0," + std::to_string(NumTableFilesAtLevel(5)), FilesPerLevel());
  EXPECT_GT(NumTableFilesAtLevel(5), 0);
  // Back up to level 1 (everything in between is empty).
  cro.target_level = 1;
  ASSERT_OK(db_->CompactRange(cro, nullptr, nullptr));
  EXPECT_EQ(0, NumTableFilesAtLevel(5)) << FilesPerLevel();
  EXPECT_GT(NumTableFilesAtLevel(1), 0);
  EXPECT_EQ("", CheckNewerAboveOlder());
  // target_level -1: the highest level whose target size holds the data:
  // ~330 KB is over level 1's 256 KiB but within level 2's 1 MiB.
  cro.target_level = 5;
  ASSERT_OK(db_->CompactRange(cro, nullptr, nullptr));
  cro.target_level = -1;
  ASSERT_OK(db_->CompactRange(cro, nullptr, nullptr));
  EXPECT_EQ("0,0," + std::to_string(NumTableFilesAtLevel(2)), FilesPerLevel());
  EXPECT_GT(NumTableFilesAtLevel(2), 0);
  // A target past the last level is refused.
  cro.target_level = 7;
  EXPECT_TRUE(db_->CompactRange(cro, nullptr, nullptr).IsInvalidArgument());
  Reopen(o);
  EXPECT_EQ(std::string(100, 'a' + 1234 % 26), Get("key1234"));
  EXPECT_GT(NumTableFilesAtLevel(2), 0);
}

TEST_F(DBOpenSafetyTest, CompactRangeChangeLevelRefusesWhenLevelsBetweenHoldFiles) {
  Options o = options_;
  o.level_compaction_dynamic_level_bytes = false;
  Open(o);
  for (int i = 0; i < 500; ++i) ASSERT_OK(Put("a" + std::to_string(i), std::string(100, 'x')));
  ASSERT_OK(Flush());
  CompactRangeOptions to3;
  to3.change_level = true;
  to3.target_level = 3;
  ASSERT_OK(db_->CompactRange(to3, nullptr, nullptr));
  ASSERT_GT(NumTableFilesAtLevel(3), 0);
  // New data compacted only into level 1 ("b" keys), then asked to go to
  // level 5: level 3 is in between.
  for (int i = 0; i < 500; ++i) ASSERT_OK(Put("b" + std::to_string(i), std::string(100, 'y')));
  ASSERT_OK(Flush());
  const std::string b_begin = "b", b_end = "c";
  Slice begin(b_begin), end(b_end);
  CompactRangeOptions plain;
  ASSERT_OK(db_->CompactRange(plain, &begin, &end));
  const std::string before = FilesPerLevel();
  CompactRangeOptions to5;
  to5.change_level = true;
  to5.target_level = 5;
  const Status s = db_->CompactRange(to5, nullptr, nullptr);
  // Either all the data ended in level 3 (then it moves) or the move is
  // refused because a level between holds files; never a silent no-op.
  if (!s.ok()) {
    EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
    EXPECT_TRUE(Contains(s, "not empty")) << s.ToString();
    // The refusal is the caller's error, not a background error: writes and
    // flushes go on.
    ASSERT_OK(Put("after", "1"));
    ASSERT_OK(Flush());
    EXPECT_EQ("1", Get("after"));
  } else {
    EXPECT_GT(NumTableFilesAtLevel(5), 0) << before << " -> " << FilesPerLevel();
  }
  EXPECT_EQ(std::string(100, 'x'), Get("a7"));
  EXPECT_EQ(std::string(100, 'y'), Get("b7"));
}

// With exclusive_manual_compaction (the default) no automatic compaction
// runs while CompactRange does; without it they may overlap.
TEST_F(DBOpenSafetyTest, ExclusiveManualCompactionHoldsAutomaticCompactions) {
  Options o = options_;
  o.level0_file_num_compaction_trigger = 2;
  Open(o);
  std::atomic<int> running{0}, max_running{0};
  std::atomic<bool> manual{false};
  std::atomic<int> overlaps{0};
  SyncPoint* sp = SyncPoint::GetInstance();
  sp->SetCallBack("CompactionJob::Run:Unlocked", [&](void* arg) {
    const int now = ++running;
    int prev = max_running.load();
    while (now > prev && !max_running.compare_exchange_weak(prev, now)) {
    }
    if (manual.load() && now > 1) ++overlaps;
    (void)arg;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    --running;
  });
  sp->EnableProcessing();
  for (int i = 0; i < 3000; ++i) ASSERT_OK(Put("w" + std::to_string(i), std::string(200, 'w')));
  std::atomic<bool> stop{false};
  std::thread writer([&]() {
    for (int i = 0; !stop; ++i) {
      if (!Put("w" + std::to_string(i % 5000), std::string(200, 'w')).ok()) break;
    }
  });
  for (int round = 0; round < 5; ++round) {
    manual = true;
    ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
    manual = false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // automatic ones run here
  }
  stop = true;
  writer.join();
  sp->DisableProcessing();
  sp->ClearAllCallBacks();
  EXPECT_EQ(0, overlaps.load());
  EXPECT_GE(max_running.load(), 1);  // compactions did run
  ASSERT_OK(WaitForCompact());
}

// A FileSystem over another that records, per file name, whether the DB
// opened it for writing with FileOptions::use_fsync.
class RecordingFileSystem : public FileSystem {
 public:
  explicit RecordingFileSystem(std::shared_ptr<FileSystem> base) : base_(std::move(base)) {}
  const char* Name() const override { return "RecordingFileSystem"; }
  Status NewSequentialFile(const std::string& f, const FileOptions& o,
                           std::unique_ptr<SequentialFile>* r) override {
    return base_->NewSequentialFile(f, o, r);
  }
  Status NewRandomAccessFile(const std::string& f, const FileOptions& o,
                             std::unique_ptr<RandomAccessFile>* r) override {
    return base_->NewRandomAccessFile(f, o, r);
  }
  Status NewWritableFile(const std::string& f, const FileOptions& o,
                         std::unique_ptr<WritableFile>* r) override {
    Record(f, o);
    return base_->NewWritableFile(f, o, r);
  }
  Status ReopenWritableFile(const std::string& f, const FileOptions& o,
                            std::unique_ptr<WritableFile>* r) override {
    Record(f, o);
    return base_->ReopenWritableFile(f, o, r);
  }
  Status NewDirectory(const std::string& n, std::unique_ptr<Directory>* r) override {
    return base_->NewDirectory(n, r);
  }
  Status FileExists(const std::string& f) override { return base_->FileExists(f); }
  Status GetChildren(const std::string& d, std::vector<std::string>* r) override {
    return base_->GetChildren(d, r);
  }
  Status DeleteFile(const std::string& f) override { return base_->DeleteFile(f); }
  Status CreateDir(const std::string& d) override { return base_->CreateDir(d); }
  Status CreateDirIfMissing(const std::string& d) override { return base_->CreateDirIfMissing(d); }
  Status DeleteDir(const std::string& d) override { return base_->DeleteDir(d); }
  Status GetFileSize(const std::string& f, uint64_t* s) override {
    return base_->GetFileSize(f, s);
  }
  Status RenameFile(const std::string& s, const std::string& t) override {
    return base_->RenameFile(s, t);
  }
  Status IsDirectory(const std::string& p, bool* d) override { return base_->IsDirectory(p, d); }
  Status Truncate(const std::string& f, uint64_t s) override { return base_->Truncate(f, s); }
  Status LockFile(const std::string& f, std::unique_ptr<FileLock>* l) override {
    return base_->LockFile(f, l);
  }
  Status UnlockFile(std::unique_ptr<FileLock> l) override {
    return base_->UnlockFile(std::move(l));
  }

  // Base names of files opened for writing without use_fsync (the info
  // LOG is not synced and is left out).
  std::set<std::string> WithoutFsync() {
    std::lock_guard<std::mutex> l(mu_);
    return without_;
  }
  std::set<std::string> All() {
    std::lock_guard<std::mutex> l(mu_);
    return all_;
  }

 private:
  void Record(const std::string& f, const FileOptions& o) {
    const std::string base = f.substr(f.rfind('/') + 1);
    std::lock_guard<std::mutex> l(mu_);
    all_.insert(base);
    if (!o.use_fsync && base.rfind("LOG", 0) != 0) without_.insert(base);
  }
  std::shared_ptr<FileSystem> base_;
  std::mutex mu_;
  std::set<std::string> all_, without_;
};

TEST_F(DBOpenSafetyTest, UseFsyncReachesEveryFileTheDbSyncs) {
  auto fs = std::make_shared<RecordingFileSystem>(NewMemFileSystem());
  Env env(fs, SystemClock::Default());
  Options o = options_;
  o.env = &env;
  o.use_fsync = true;
  Close();
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(o, "/fsync-db", &db));
  for (int i = 0; i < 2000; ++i) {
    ASSERT_OK(db->Put(WriteOptions(), "k" + std::to_string(i), std::string(100, 'v')));
  }
  ASSERT_OK(db->Flush(FlushOptions()));
  ASSERT_OK(db->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  ASSERT_OK(db->Close());
  const std::set<std::string> all = fs->All();
  bool wal = false, table = false, manifest = false, tmp = false, identity = false;
  for (const std::string& n : all) {
    wal |= n.find(".log") != std::string::npos;
    table |= n.find(".sst") != std::string::npos;
    manifest |= n.rfind("MANIFEST-", 0) == 0;
    tmp |= n.find(".dbtmp") != std::string::npos;  // CURRENT and OPTIONS go through one
    identity |= n == "IDENTITY";
  }
  EXPECT_TRUE(wal && table && manifest && tmp && identity);
  std::string missed;
  for (const std::string& n : fs->WithoutFsync()) missed += n + " ";
  EXPECT_EQ("", missed);
}

TEST_F(DBOpenSafetyTest, SanitizedValuesAreLogged) {
  Options o = options_;
  o.max_open_files = -5;
  o.level0_file_num_compaction_trigger = 8;
  o.level0_slowdown_writes_trigger = 4;
  o.level0_stop_writes_trigger = 2;
  BlockBasedTableOptions t;
  t.block_restart_interval = 0;
  o.table_factory = NewBlockBasedTableFactory(t);
  Open(o);
  ASSERT_OK(Put("k", "v"));
  const std::string log = ReadLog();
  EXPECT_NE(std::string::npos, log.find("options.max_open_files -5 changed to 20")) << log;
  EXPECT_NE(std::string::npos, log.find("level0_slowdown_writes_trigger")) << log;
  EXPECT_NE(std::string::npos, log.find("level0_stop_writes_trigger")) << log;
  EXPECT_NE(std::string::npos, log.find("block_restart_interval 0 changed to 1")) << log;
  Reopen(o);
  EXPECT_EQ("v", Get("k"));
}

}  // namespace
}  // namespace strata
