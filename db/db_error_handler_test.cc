// The background-error contract (db/db_impl_error.cc), case by case, over a
// fault-injecting in-memory file system: a failed WAL append or sync, flush,
// MANIFEST write or compaction stops writes with a sticky error while reads
// keep working; DB::Resume (or, for NoSpace, the automatic recovery)
// brings writes back with nothing acknowledged lost; Corruption is not
// resumable; paranoid_checks off leaves compaction errors non-sticky; a
// MANIFEST write that failed after CURRENT was switched never costs the
// database its MANIFEST. What the automatic recovery thread does is watched
// through sync points (util/sync_point.h), never by sleeping first.
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <thread>

#include "env/fault_injection_fs.h"
#include "strata/db.h"
#include "strata/env.h"
#include "strata/iterator.h"
#include "strata/options.h"
#include "strata/sst_file_manager.h"
#include "test_util/db_test_base.h"
#include "util/sync_point.h"

namespace strata {
namespace {

constexpr char kDb[] = "/db";

// The database lives on an in-memory file system behind fault injection
// (the scratch directory of DBTestBase stays unused).
class DBErrorHandlerTest : public DBTestBase {
 protected:
  DBErrorHandlerTest()
      : DBTestBase("db_error_handler_test"),
        base_(NewMemFileSystem()),
        fault_(std::make_shared<FaultInjectionFileSystem>(base_)) {
    env_ = std::make_unique<Env>(fault_, SystemClock::Default());
    dbname_ = kDb;
    options_ = Options();
    options_.env = env_.get();
    options_.create_if_missing = true;
    options_.write_buffer_size = 1 << 20;
    options_.bgerror_resume_retry_interval = 10000;  // 10 ms
  }
  ~DBErrorHandlerTest() override {
    // The callbacks use this fixture's members and the database uses env_:
    // both go before the members do.
    SyncPoint::GetInstance()->DisableProcessing();
    SyncPoint::GetInstance()->ClearAllCallBacks();
    fault_->ClearFault();
    fault_->SetNoSpace(false);
    db_.reset();
    env_->WaitForJobsAndJoinAllThreads();
  }

  // Clears every fault, closes (whatever Close says) and opens again.
  void Reopen() {
    fault_->ClearFault();
    fault_->SetNoSpace(false);
    ASSERT_OK(TryReopen(options_));
  }

  // A Put that, when acknowledged, enters the model.
  Status Put(const std::string& k, const std::string& v, bool sync = false) {
    WriteOptions wo;
    wo.sync = sync;
    Status s = DBTestBase::Put(k, v, wo);
    if (s.ok()) model_[k] = v;
    return s;
  }
  uint64_t BgErrors() {
    uint64_t n = 0;
    EXPECT_TRUE(db_->GetIntProperty("rocksdb.background-errors", &n));
    return n;
  }
  // Every acknowledged write is readable, through Get and an iterator.
  void CheckModel() {
    for (const auto& [k, v] : model_) ASSERT_EQ(v, Get(k)) << k;
    std::unique_ptr<Iterator> it = db_->NewIterator(ReadOptions());
    auto m = model_.begin();
    for (it->SeekToFirst(); it->Valid(); it->Next(), ++m) {
      ASSERT_NE(m, model_.end()) << "extra key " << it->key().ToString();
      ASSERT_EQ(m->first, it->key().ToString());
      ASSERT_EQ(m->second, it->value().ToString());
    }
    ASSERT_OK(it->status());
    ASSERT_EQ(m, model_.end());
  }
  void FillAndFlush(int from, int n) {
    for (int i = from; i < from + n; ++i) {
      ASSERT_OK(Put("key" + std::to_string(i), "value" + std::to_string(i)));
    }
    ASSERT_OK(db_->Flush(FlushOptions()));
  }
  FaultSpec Spec(FaultOp op, const char* name, uint64_t countdown = 0, bool sticky = false,
                 FaultError error = FaultError::kIOError) {
    FaultSpec spec;
    spec.ops = FaultOpBit(op);
    if (name != nullptr) spec.name_contains = {name};
    spec.countdown = countdown;
    spec.sticky = sticky;
    spec.error = error;
    return spec;
  }
  // Watches the automatic recovery from here on: the threads started, each
  // attempt's outcome, the end of the loop. Call before the error.
  void WatchRecovery() {
    SyncPoint* sp = SyncPoint::GetInstance();
    sp->SetCallBack("DBImpl::RecordBackgroundError:StartAutoRecovery",
                    [this](void*) { ++recovery_threads_; });
    sp->SetCallBack("DBImpl::AutoRecoveryLoop:BeforeWait", [this](void*) { waiting_.Set(); });
    sp->SetCallBack("DBImpl::AutoRecoveryLoop:AfterAttempt", [this](void* arg) {
      const Status& s = *static_cast<const Status*>(arg);
      if (s.ok()) {
        resumed_.Set();
      } else {
        if (!s.IsNoSpace()) ++failed_otherwise_;
        ++failed_;
        failed_attempt_.Set();
      }
    });
    sp->SetCallBack("DBImpl::AutoRecoveryLoop:End", [this](void* arg) {
      loop_attempts_ = *static_cast<const int*>(arg);
      loop_ended_.Set();
    });
    sp->EnableProcessing();
  }

  // Waits for the automatic recovery to succeed, then checks that writes
  // are accepted again (a write that enters the model as "probe").
  void ExpectAutomaticResume() {
    ASSERT_TRUE(resumed_.WaitFor()) << "the automatic recovery never succeeded";
    ASSERT_OK(Put("probe", "p"));
  }

  std::shared_ptr<FileSystem> base_;
  std::shared_ptr<FaultInjectionFileSystem> fault_;
  std::unique_ptr<Env> env_;
  std::map<std::string, std::string> model_;

  // What WatchRecovery saw.
  std::atomic<int> recovery_threads_{0};
  std::atomic<int> failed_{0};
  std::atomic<int> failed_otherwise_{0};  // not for lack of space
  std::atomic<int> loop_attempts_{-1};
  test::Event waiting_, resumed_, failed_attempt_, loop_ended_;
};

TEST_F(DBErrorHandlerTest, WalAppendFailureStopsWritesUntilResume) {
  Open();
  ASSERT_OK(Put("a", "1"));
  ASSERT_OK(Put("b", "2"));
  fault_->InjectFault(Spec(FaultOp::kAppend, ".log"));
  Status s = Put("c", "3");
  ASSERT_TRUE(s.IsIOError()) << s.ToString();
  fault_->ClearFault();
  // Sticky: the fault is gone but the WAL may end in a torn record.
  Status again = Put("d", "4");
  ASSERT_TRUE(again.IsIOError()) << again.ToString();
  ASSERT_EQ(s.ToString(), again.ToString());
  ASSERT_EQ(1u, BgErrors());
  // Reads keep working.
  ASSERT_EQ("1", Get("a"));
  ASSERT_EQ("2", Get("b"));
  ASSERT_EQ("NOT_FOUND", Get("c"));
  CheckModel();
  ASSERT_OK(db_->Resume());
  ASSERT_OK(Put("e", "5"));
  CheckModel();
  Reopen();
  CheckModel();
}

TEST_F(DBErrorHandlerTest, WalSyncFailureStopsWritesUntilResume) {
  Open();
  ASSERT_OK(Put("a", "1", /*sync=*/true));
  fault_->InjectFault(Spec(FaultOp::kSync, ".log"));
  ASSERT_TRUE(Put("b", "2", /*sync=*/true).IsIOError());
  fault_->ClearFault();
  ASSERT_TRUE(Put("c", "3").IsIOError());
  ASSERT_EQ("1", Get("a"));
  ASSERT_OK(db_->Resume());
  ASSERT_OK(Put("d", "4", /*sync=*/true));
  // The failed write is unacknowledged: either answer is allowed for it.
  model_.erase("b");
  const std::string b = Get("b");
  ASSERT_TRUE(b == "NOT_FOUND" || b == "2") << b;
  Reopen();
  for (const auto& [k, v] : model_) ASSERT_EQ(v, Get(k)) << k;
}

TEST_F(DBErrorHandlerTest, NewWalFailureAtMemtableSwitchStopsWritesUntilResume) {
  Open();
  ASSERT_OK(Put("a", "1"));
  // The switch Flush asks for cannot create its new WAL: the memtable stays
  // mutable and the old WAL current, but writes stop like RocksDB's.
  fault_->InjectFault(Spec(FaultOp::kCreate, ".log"));
  Status s = db_->Flush(FlushOptions());
  ASSERT_TRUE(s.IsIOError()) << s.ToString();
  fault_->ClearFault();
  ASSERT_EQ(1u, BgErrors());
  Status again = Put("b", "2");
  ASSERT_TRUE(again.IsIOError()) << again.ToString();
  ASSERT_EQ(s.ToString(), again.ToString());
  CheckModel();
  ASSERT_OK(db_->Resume());
  ASSERT_OK(Put("c", "3"));
  CheckModel();
  Reopen();
  CheckModel();
}

TEST_F(DBErrorHandlerTest, NoSpaceForNewWalResumesByItself) {
  options_.write_buffer_size = 64 << 10;
  Open();
  FillAndFlush(0, 10);
  WatchRecovery();
  // A directory fsync after the new WAL's creation fails for lack of space
  // while the writes fill the memtable: the write that switches fails.
  fault_->InjectFault(Spec(FaultOp::kDirFsync, nullptr, 0, /*sticky=*/false, FaultError::kNoSpace));
  const std::string big(1024, 'x');
  Status s;
  for (int i = 0; i < 1000 && s.ok(); ++i) s = Put("big" + std::to_string(i), big);
  ASSERT_TRUE(s.IsNoSpace()) << s.ToString();
  ASSERT_GE(BgErrors(), 1u);
  fault_->ClearFault();
  ExpectAutomaticResume();
  EXPECT_EQ(1, recovery_threads_.load());
  CheckModel();
  Reopen();
  CheckModel();
}

TEST_F(DBErrorHandlerTest, FlushFailureStopsWritesUntilResume) {
  Open();
  FillAndFlush(0, 100);
  for (int i = 100; i < 200; ++i)
    ASSERT_OK(Put("key" + std::to_string(i), "v" + std::to_string(i)));
  fault_->InjectFault(Spec(FaultOp::kCreate, ".sst"));
  Status s = db_->Flush(FlushOptions());
  ASSERT_TRUE(s.IsIOError()) << s.ToString();
  fault_->ClearFault();
  ASSERT_TRUE(Put("x", "y").IsIOError());
  ASSERT_EQ(1u, BgErrors());
  CheckModel();  // the unflushed memtable still answers
  ASSERT_OK(db_->Resume());
  // Resume flushed every memtable.
  std::string files;
  ASSERT_TRUE(db_->GetProperty("rocksdb.num-files-at-level0", &files));
  ASSERT_EQ("2", files);
  ASSERT_OK(Put("x", "y"));
  // A second Resume without an error is a no-op.
  ASSERT_OK(db_->Resume());
  Reopen();
  CheckModel();
}

TEST_F(DBErrorHandlerTest, ManifestAppendFailureThenResumeWritesNewManifest) {
  Open();
  FillAndFlush(0, 50);
  for (int i = 50; i < 100; ++i) ASSERT_OK(Put("key" + std::to_string(i), "w"));
  fault_->InjectFault(Spec(FaultOp::kAppend, "MANIFEST-"));
  ASSERT_TRUE(db_->Flush(FlushOptions()).IsIOError());
  fault_->ClearFault();
  ASSERT_TRUE(Put("z", "z").IsIOError());
  CheckModel();
  ASSERT_OK(db_->Resume());
  ASSERT_OK(Put("z", "z"));
  CheckModel();
  Reopen();
  CheckModel();
}

// The MANIFEST record was appended but its sync failed: the edit may be on
// disk and name the flushed table, so that table must not be deleted as
// obsolete even though memory never installed it.
TEST_F(DBErrorHandlerTest, ManifestSyncFailureKeepsTheTablesTheEditNames) {
  Open();
  FillAndFlush(0, 50);
  for (int i = 50; i < 100; ++i) ASSERT_OK(Put("key" + std::to_string(i), "w"));
  fault_->InjectFault(Spec(FaultOp::kSync, "MANIFEST-"));
  ASSERT_TRUE(db_->Flush(FlushOptions()).IsIOError());
  fault_->ClearFault();
  ASSERT_TRUE(Put("z", "z").IsIOError());
  Reopen();  // the appended (unsynced) edit is read back
  CheckModel();
  ASSERT_OK(Put("z", "z"));
  Reopen();
  CheckModel();
}

// The new MANIFEST's CURRENT rename succeeded, its directory fsync failed:
// CURRENT names the new MANIFEST although LogAndApply failed. The file must
// stay, and the tables it names must not be deleted as obsolete.
TEST_F(DBErrorHandlerTest, CurrentSwitchedDespiteFailureKeepsDatabaseOpenable) {
  options_.max_manifest_file_size = 1;  // every edit starts a new MANIFEST
  Open();
  FillAndFlush(0, 50);
  for (int i = 50; i < 100; ++i) ASSERT_OK(Put("key" + std::to_string(i), "w"));
  std::string current_before, current_after;
  ASSERT_OK(ReadFileToString(base_.get(), std::string(kDb) + "/CURRENT", &current_before));
  // A flush fsyncs the directory after the new WAL (0) and after its table
  // (1), then SetCurrentFile after the rename (2).
  fault_->InjectFault(Spec(FaultOp::kDirFsync, nullptr, /*countdown=*/2));
  ASSERT_TRUE(db_->Flush(FlushOptions()).IsIOError());
  ASSERT_EQ(1u, fault_->spec_faults());
  fault_->ClearFault();
  ASSERT_OK(ReadFileToString(base_.get(), std::string(kDb) + "/CURRENT", &current_after));
  ASSERT_NE(current_before, current_after);  // the rename happened
  // No Resume: close and reopen straight away.
  Reopen();
  CheckModel();
  // And the same with a Resume in between.
  for (int i = 100; i < 150; ++i) ASSERT_OK(Put("key" + std::to_string(i), "r"));
  fault_->InjectFault(Spec(FaultOp::kDirFsync, nullptr, /*countdown=*/2));
  ASSERT_TRUE(db_->Flush(FlushOptions()).IsIOError());
  fault_->ClearFault();
  ASSERT_OK(db_->Resume());
  CheckModel();
  Reopen();
  CheckModel();
}

TEST_F(DBErrorHandlerTest, CompactionFailureIsStickyWithParanoidChecks) {
  options_.disable_auto_compactions = true;
  Open();
  FillAndFlush(0, 100);
  FillAndFlush(50, 100);
  fault_->InjectFault(Spec(FaultOp::kCreate, ".sst"));
  Status s = db_->CompactRange(CompactRangeOptions(), nullptr, nullptr);
  ASSERT_TRUE(s.IsIOError()) << s.ToString();
  fault_->ClearFault();
  ASSERT_TRUE(Put("x", "y").IsIOError());
  CheckModel();
  ASSERT_OK(db_->Resume());
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  ASSERT_OK(Put("x", "y"));
  Reopen();
  CheckModel();
}

TEST_F(DBErrorHandlerTest, CompactionFailureIsNotStickyWithoutParanoidChecks) {
  options_.disable_auto_compactions = true;
  options_.paranoid_checks = false;
  Open();
  FillAndFlush(0, 100);
  FillAndFlush(50, 100);
  fault_->InjectFault(Spec(FaultOp::kCreate, ".sst"));
  ASSERT_TRUE(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr).IsIOError());
  fault_->ClearFault();
  ASSERT_EQ(0u, BgErrors());
  ASSERT_OK(Put("x", "y"));
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  CheckModel();
}

// Counts the soft errors cleared, as a listener sees them.
class RecoveryEndListener : public EventListener {
 public:
  void OnErrorRecoveryEnd(const BackgroundErrorRecoveryInfo& info) override {
    if (info.old_bg_error.IsNoSpace() && info.new_bg_error.ok()) ended.Set();
  }
  test::Event ended;
};

// A compaction that runs out of space with paranoid_checks on is RocksDB's
// soft error: writes and flushes go on; compactions start only where the
// file system has room for them (else CompactionTooLarge, COMPACTION_CANCELLED);
// the recovery thread clears the error once the space is free again.
TEST_F(DBErrorHandlerTest, CompactionNoSpaceIsSoftAndClearsWhenSpaceReturns) {
  options_.disable_auto_compactions = true;
  options_.statistics = CreateDBStatistics();
  auto listener = std::make_shared<RecoveryEndListener>();
  options_.listeners.push_back(listener);
  Open();
  FillAndFlush(0, 100);
  FillAndFlush(50, 100);
  fault_->SetFreeSpace(1000);  // the recovery thread must not clear it yet
  fault_->InjectFault(Spec(FaultOp::kAppend, ".sst", 0, /*sticky=*/true, FaultError::kNoSpace));
  Status s = db_->CompactRange(CompactRangeOptions(), nullptr, nullptr);
  ASSERT_TRUE(s.IsNoSpace()) << s.ToString();
  fault_->ClearFault();
  EXPECT_EQ(1u, BgErrors());
  // Writes and flushes go on.
  FillAndFlush(200, 50);
  ASSERT_OK(Put("x", "y"));
  // A compaction needs free space now: 1000 bytes is not enough.
  const uint64_t cancelled = options_.statistics->getTickerCount(COMPACTION_CANCELLED);
  s = db_->CompactRange(CompactRangeOptions(), nullptr, nullptr);
  ASSERT_TRUE(s.IsCompactionTooLarge()) << s.ToString();
  EXPECT_GT(options_.statistics->getTickerCount(COMPACTION_CANCELLED), cancelled);
  EXPECT_FALSE(listener->ended.IsSet());
  CheckModel();
  // Space returns: the recovery thread clears the error and the listener
  // hears of it; the compaction runs.
  fault_->SetFreeSpace(uint64_t{1} << 30);
  ASSERT_TRUE(listener->ended.WaitFor()) << "the soft error was never cleared";
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  EXPECT_EQ(0, NumTableFilesAtLevel(0)) << FilesPerLevel();
  ASSERT_OK(Put("z", "1"));
  Reopen();
  CheckModel();
}

// Without the automatic recovery, Resume clears a compaction's NoSpace at
// once; meanwhile a write that L0 stops fails with Incomplete naming the
// error rather than wait for compactions that cannot start.
TEST_F(DBErrorHandlerTest, CompactionNoSpaceWithoutAutoRecoveryClearsOnResume) {
  options_.max_bgerror_resume_count = 0;
  options_.disable_auto_compactions = true;
  Open();
  FillAndFlush(0, 100);
  FillAndFlush(50, 100);
  fault_->SetFreeSpace(1000);
  fault_->InjectFault(Spec(FaultOp::kAppend, ".sst", 0, /*sticky=*/true, FaultError::kNoSpace));
  ASSERT_TRUE(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr).IsNoSpace());
  fault_->ClearFault();
  ASSERT_OK(Put("a", "1"));
  ASSERT_TRUE(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr).IsCompactionTooLarge());
  // L0 at the stop trigger: with automatic compactions on, the write
  // would wait for them; they cannot start, and nothing clears the error.
  ASSERT_OK(db_->SetOptions({{"level0_file_num_compaction_trigger", "2"},
                             {"level0_stop_writes_trigger", "2"},
                             {"level0_slowdown_writes_trigger", "2"},
                             {"disable_auto_compactions", "false"}}));
  Status s = Put("b", "2");
  ASSERT_TRUE(s.IsIncomplete()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("space")) << s.ToString();
  ASSERT_OK(db_->Resume());
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  ASSERT_OK(Put("b", "2"));
  Reopen();
  CheckModel();
}

TEST_F(DBErrorHandlerTest, CorruptionIsNotResumable) {
  options_.disable_auto_compactions = true;
  Open();
  FillAndFlush(0, 100);
  FillAndFlush(50, 100);
  // Every table read returns one flipped bit: the compaction's checksum
  // check fails.
  fault_->InjectFault(Spec(FaultOp::kRead, ".sst", 0, /*sticky=*/true, FaultError::kCorruptRead));
  Status s = db_->CompactRange(CompactRangeOptions(), nullptr, nullptr);
  ASSERT_TRUE(s.IsCorruption()) << s.ToString();
  fault_->ClearFault();
  Status r = db_->Resume();
  ASSERT_TRUE(r.IsCorruption()) << r.ToString();
  ASSERT_TRUE(Put("x", "y").IsCorruption());
  CheckModel();  // the tables themselves are intact
  Reopen();
  CheckModel();
  ASSERT_OK(Put("x", "y"));
}

TEST_F(DBErrorHandlerTest, NoSpaceResumesByItselfWhenSpaceReturns) {
  Open();
  FillAndFlush(0, 50);
  WatchRecovery();
  fault_->SetNoSpace(true);
  Status s = Put("full", "1");
  ASSERT_TRUE(s.IsNoSpace()) << s.ToString();
  EXPECT_EQ(1, recovery_threads_.load());
  // Still full: an automatic attempt runs, fails for lack of space, and
  // writes stay off.
  ASSERT_TRUE(failed_attempt_.WaitFor());
  EXPECT_EQ(0, failed_otherwise_.load());
  EXPECT_FALSE(resumed_.IsSet());
  ASSERT_TRUE(Put("still", "1").IsNoSpace());
  CheckModel();
  fault_->SetNoSpace(false);
  ExpectAutomaticResume();
  ASSERT_OK(Put("after", "1"));
  // The loop ends after its one successful attempt.
  ASSERT_TRUE(loop_ended_.WaitFor());
  EXPECT_EQ(failed_.load() + 1, loop_attempts_.load());
  EXPECT_EQ(0, failed_otherwise_.load());
  CheckModel();
  Reopen();
  CheckModel();
}

// With an SstFileManager (RocksDB's rule), the automatic recovery from a
// full disk waits for free space: no attempt while the file system reports
// less than the memtables' worth (write_buffer_size x
// max_write_buffer_number), one as soon as it has room.
TEST_F(DBErrorHandlerTest, NoSpaceWithSstFileManagerWaitsForFreeSpace) {
  options_.sst_file_manager = NewSstFileManager(env_.get());
  Open();
  FillAndFlush(0, 50);
  WatchRecovery();
  fault_->SetFreeSpace(100);  // far less than 2 x 1 MiB
  fault_->SetNoSpace(true);
  Status s = Put("full", "1");
  ASSERT_TRUE(s.IsNoSpace()) << s.ToString();
  fault_->SetNoSpace(false);  // writes would succeed, but GetFreeSpace says 100
  // The loop keeps waiting without an attempt (five more rounds of it).
  // Static: the loop may still call back after the test body ends.
  static std::atomic<int> waits{0};
  waits = 0;
  SyncPoint::GetInstance()->SetCallBack("DBImpl::AutoRecoveryLoop:BeforeWait",
                                        [](void*) { ++waits; });
  for (int i = 0; i < 12000 && waits.load() < 5; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_GE(waits.load(), 5);
  EXPECT_EQ(0, failed_.load());
  EXPECT_FALSE(resumed_.IsSet());
  ASSERT_TRUE(Put("still", "1").IsNoSpace());
  fault_->SetFreeSpace(uint64_t{1} << 30);
  ExpectAutomaticResume();
  EXPECT_EQ(0, failed_.load());
  CheckModel();
}

TEST_F(DBErrorHandlerTest, NoSpaceDuringFlushResumesByItself) {
  Open();
  WatchRecovery();
  for (int i = 0; i < 100; ++i) ASSERT_OK(Put("key" + std::to_string(i), "v"));
  fault_->InjectFault(Spec(FaultOp::kAppend, ".sst", 0, /*sticky=*/true, FaultError::kNoSpace));
  Status s = db_->Flush(FlushOptions());
  ASSERT_TRUE(s.IsNoSpace()) << s.ToString();
  ASSERT_TRUE(Put("x", "y").IsNoSpace());
  fault_->ClearFault();
  ExpectAutomaticResume();
  std::string files;
  ASSERT_TRUE(db_->GetProperty("rocksdb.num-files-at-level0", &files));
  ASSERT_EQ("1", files);
  Reopen();
  CheckModel();
}

TEST_F(DBErrorHandlerTest, NoAutomaticResumeWhenTurnedOff) {
  options_.max_bgerror_resume_count = 0;
  Open();
  WatchRecovery();
  fault_->SetNoSpace(true);
  ASSERT_TRUE(Put("a", "1").IsNoSpace());
  // The failed write recorded the error and decided, under the DB mutex
  // before it returned, whether to start a recovery thread: it did not.
  EXPECT_EQ(0, recovery_threads_.load());
  fault_->SetNoSpace(false);
  // So nothing lifts the error but Resume.
  ASSERT_TRUE(Put("b", "1").IsNoSpace());
  ASSERT_OK(db_->Resume());
  ASSERT_OK(Put("b", "1"));
  CheckModel();
}

// The recovery thread waits a day between attempts: Close returns only
// because it cuts that wait short (were it not, the test would hang until
// CTest's timeout fails it).
TEST_F(DBErrorHandlerTest, CloseWhileAutomaticRecoveryWaits) {
  options_.bgerror_resume_retry_interval = 24ull * 3600 * 1000 * 1000;
  Open();
  ASSERT_OK(Put("a", "1"));
  WatchRecovery();
  fault_->SetNoSpace(true);
  ASSERT_TRUE(Put("b", "1").IsNoSpace());
  // The thread passes its point holding the DB mutex and keeps it until it
  // waits: Close, which needs the mutex, meets it waiting.
  ASSERT_TRUE(waiting_.WaitFor());
  ASSERT_OK(db_->Close());
  // Close joined the thread: its loop ended, without an attempt.
  ASSERT_TRUE(loop_ended_.IsSet());
  EXPECT_EQ(0, loop_attempts_.load());
  EXPECT_EQ(0, failed_.load());
  EXPECT_FALSE(resumed_.IsSet());
  fault_->SetNoSpace(false);
  db_.reset();
  Open();
  CheckModel();
}

TEST_F(DBErrorHandlerTest, ResumeFailsWhileTheFaultPersists) {
  Open();
  ASSERT_OK(Put("a", "1"));
  fault_->InjectFault(Spec(FaultOp::kCreate, ".sst", 0, /*sticky=*/true));
  ASSERT_TRUE(db_->Flush(FlushOptions()).IsIOError());
  Status r = db_->Resume();
  ASSERT_TRUE(r.IsIOError()) << r.ToString();
  ASSERT_TRUE(Put("b", "2").IsIOError());
  fault_->ClearFault();
  ASSERT_OK(db_->Resume());
  ASSERT_OK(Put("b", "2"));
  Reopen();
  CheckModel();
}

TEST_F(DBErrorHandlerTest, VerifyChecksumFindsADamagedTable) {
  Open();
  FillAndFlush(0, 200);
  ASSERT_OK(db_->VerifyChecksum());
  fault_->InjectFault(Spec(FaultOp::kRead, ".sst", 0, /*sticky=*/true, FaultError::kCorruptRead));
  Status s = db_->VerifyChecksum();
  ASSERT_TRUE(s.IsCorruption()) << s.ToString();
  ASSERT_NE(std::string::npos, s.ToString().find(".sst")) << s.ToString();
  fault_->ClearFault();
  ASSERT_OK(db_->VerifyChecksum());
}

}  // namespace
}  // namespace strata
