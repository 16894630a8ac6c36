// EventListener (include/strata/listener.h): a recording listener checks
// each callback's fields and their order across a flush, a compaction and
// the deletion of its inputs, a write stall going delayed, stopped and back
// to normal, and a failed flush (background error, a listener overriding
// it, DB::Resume ending the recovery). Each callback also calls into the
// DB, which would deadlock if the DB mutex were held around it.
#include "strata/listener.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "env/fault_injection_fs.h"
#include "strata/db.h"
#include "test_util/db_test_base.h"
#include "util/sync_point.h"

namespace strata {
namespace {

class RecordingListener : public EventListener {
 public:
  const char* Name() const override { return "RecordingListener"; }

  void OnFlushBegin(DB* db, const FlushJobInfo& info) override {
    Touch(db);
    std::lock_guard<std::mutex> l(mu_);
    events_.push_back("FlushBegin");
    flush_begin_.push_back(info);
  }
  void OnFlushCompleted(DB* db, const FlushJobInfo& info) override {
    Touch(db);
    std::lock_guard<std::mutex> l(mu_);
    events_.push_back("FlushCompleted");
    flush_completed_.push_back(info);
  }
  void OnCompactionBegin(DB* db, const CompactionJobInfo& info) override {
    Touch(db);
    std::lock_guard<std::mutex> l(mu_);
    events_.push_back("CompactionBegin");
    compaction_begin_.push_back(info);
  }
  void OnCompactionCompleted(DB* db, const CompactionJobInfo& info) override {
    Touch(db);
    std::lock_guard<std::mutex> l(mu_);
    events_.push_back("CompactionCompleted");
    compaction_completed_.push_back(info);
  }
  void OnTableFileCreationStarted(const TableFileCreationBriefInfo& info) override {
    std::lock_guard<std::mutex> l(mu_);
    events_.push_back("TableFileCreationStarted");
    creation_started_.push_back(info);
  }
  void OnTableFileCreated(const TableFileCreationInfo& info) override {
    std::lock_guard<std::mutex> l(mu_);
    events_.push_back("TableFileCreated");
    created_.push_back(info);
  }
  void OnTableFileDeleted(const TableFileDeletionInfo& info) override {
    std::lock_guard<std::mutex> l(mu_);
    events_.push_back("TableFileDeleted");
    deleted_.push_back(info);
  }
  void OnMemTableSealed(const MemTableInfo& info) override {
    std::lock_guard<std::mutex> l(mu_);
    events_.push_back("MemTableSealed");
    sealed_.push_back(info);
  }
  void OnStallConditionsChanged(const WriteStallInfo& info) override {
    std::lock_guard<std::mutex> l(mu_);
    events_.push_back("StallConditionsChanged");
    stalls_.push_back(info);
  }
  void OnBackgroundError(BackgroundErrorReason reason, Status* bg_error) override {
    std::lock_guard<std::mutex> l(mu_);
    events_.push_back("BackgroundError");
    bg_reasons_.push_back(reason);
    bg_errors_.push_back(*bg_error);
    if (suppress_errors_) *bg_error = Status::OK();
  }
  void OnErrorRecoveryEnd(const BackgroundErrorRecoveryInfo& info) override {
    std::lock_guard<std::mutex> l(mu_);
    events_.push_back("ErrorRecoveryEnd");
    recoveries_.push_back(info);
  }

  // The events whose name is in `names`, in order.
  std::vector<std::string> Events(const std::vector<std::string>& names) {
    std::lock_guard<std::mutex> l(mu_);
    std::vector<std::string> r;
    for (const std::string& e : events_) {
      if (std::find(names.begin(), names.end(), e) != names.end()) r.push_back(e);
    }
    return r;
  }

  std::mutex mu_;
  std::vector<std::string> events_;
  std::vector<FlushJobInfo> flush_begin_, flush_completed_;
  std::vector<CompactionJobInfo> compaction_begin_, compaction_completed_;
  std::vector<TableFileCreationBriefInfo> creation_started_;
  std::vector<TableFileCreationInfo> created_;
  std::vector<TableFileDeletionInfo> deleted_;
  std::vector<MemTableInfo> sealed_;
  std::vector<WriteStallInfo> stalls_;
  std::vector<BackgroundErrorReason> bg_reasons_;
  std::vector<Status> bg_errors_;
  std::vector<BackgroundErrorRecoveryInfo> recoveries_;
  bool suppress_errors_ = false;
  DB* expected_db_ = nullptr;
  int wrong_db_ = 0;

 private:
  // Calls into the DB (its mutex must not be held by the caller) and checks
  // that the callback got the right DB.
  void Touch(DB* db) {
    uint64_t n = 0;
    db->GetIntProperty("rocksdb.num-files-at-level0", &n);
    std::lock_guard<std::mutex> l(mu_);
    if (db != expected_db_) ++wrong_db_;
  }
};

uint64_t FileSize(const std::string& path) {
  uint64_t size = 0;
  EXPECT_OK(Env::Default()->GetFileSystem()->GetFileSize(path, &size));
  return size;
}

bool FileExists(const std::string& path) {
  return Env::Default()->GetFileSystem()->FileExists(path).ok();
}

class ListenerTest : public DBTestBase {
 protected:
  ListenerTest() : DBTestBase("listener_test"), listener_(std::make_shared<RecordingListener>()) {
    options_.listeners.push_back(listener_);
  }
  ~ListenerTest() override { Close(); }

  void OpenWithListener() {
    Open();
    listener_->expected_db_ = db_.get();
  }
  void PutKeys(int from, int n, const std::string& prefix = "key") {
    for (int i = from; i < from + n; ++i) {
      ASSERT_OK(Put(prefix + std::to_string(1000 + i), std::string(50, 'v')));
    }
  }

  std::shared_ptr<RecordingListener> listener_;
};

TEST_F(ListenerTest, FlushReportsItsTableInOrder) {
  OpenWithListener();
  PutKeys(0, 100);
  ASSERT_OK(Delete("key1000"));
  ASSERT_OK(Flush());
  RecordingListener& l = *listener_;
  EXPECT_EQ(l.Events({"MemTableSealed", "FlushBegin", "TableFileCreationStarted",
                      "TableFileCreated", "FlushCompleted"}),
            (std::vector<std::string>{"MemTableSealed", "FlushBegin", "TableFileCreationStarted",
                                      "TableFileCreated", "FlushCompleted"}));
  EXPECT_EQ(l.wrong_db_, 0);
  ASSERT_EQ(l.sealed_.size(), 1u);
  EXPECT_EQ(l.sealed_[0].cf_name, "default");
  EXPECT_EQ(l.sealed_[0].num_entries, 101u);
  EXPECT_EQ(l.sealed_[0].num_deletes, 1u);
  EXPECT_EQ(l.sealed_[0].first_seqno, 1u);

  ASSERT_EQ(l.flush_begin_.size(), 1u);
  ASSERT_EQ(l.flush_completed_.size(), 1u);
  const FlushJobInfo& begin = l.flush_begin_[0];
  const FlushJobInfo& done = l.flush_completed_[0];
  EXPECT_EQ(begin.cf_name, "default");
  EXPECT_EQ(begin.cf_id, 0u);
  EXPECT_EQ(begin.flush_reason, FlushReason::kManualFlush);
  EXPECT_EQ(begin.job_id, done.job_id);
  EXPECT_EQ(begin.file_number, done.file_number);
  EXPECT_EQ(begin.file_path, done.file_path);
  EXPECT_FALSE(done.triggered_writes_slowdown);
  EXPECT_FALSE(done.triggered_writes_stop);
  // The Put of key1000 (sequence 1) is dropped under its Delete.
  EXPECT_EQ(done.smallest_seqno, 2u);
  EXPECT_EQ(done.largest_seqno, 101u);
  EXPECT_EQ(done.table_properties.num_entries, 100u);
  EXPECT_EQ(done.table_properties.num_deletions, 1u);
  EXPECT_EQ(done.table_properties.column_family_name, "default");
  EXPECT_TRUE(FileExists(done.file_path)) << done.file_path;
  EXPECT_NE(done.file_path.find(dbname_ + "/"), std::string::npos);

  ASSERT_EQ(l.creation_started_.size(), 1u);
  ASSERT_EQ(l.created_.size(), 1u);
  EXPECT_EQ(l.creation_started_[0].file_path, done.file_path);
  EXPECT_EQ(l.creation_started_[0].reason, TableFileCreationReason::kFlush);
  EXPECT_EQ(l.creation_started_[0].job_id, done.job_id);
  EXPECT_EQ(l.creation_started_[0].db_name, dbname_);
  const TableFileCreationInfo& c = l.created_[0];
  EXPECT_OK(c.status);
  EXPECT_EQ(c.reason, TableFileCreationReason::kFlush);
  EXPECT_EQ(c.file_path, done.file_path);
  EXPECT_EQ(c.cf_name, "default");
  EXPECT_EQ(c.job_id, done.job_id);
  EXPECT_EQ(c.file_size, FileSize(c.file_path));
  EXPECT_EQ(c.table_properties.num_entries, 100u);
  EXPECT_EQ(c.table_properties.data_size > 0, true);
  EXPECT_EQ(c.file_checksum_func_name, "Unknown");
}

TEST_F(ListenerTest, CompactionReportsInputsOutputsAndDeletions) {
  options_.level0_file_num_compaction_trigger = 2;
  OpenWithListener();
  PutKeys(0, 100);
  ASSERT_OK(Flush());
  PutKeys(50, 100);  // overlaps the first table
  ASSERT_OK(Flush());
  ASSERT_OK(WaitForCompact());
  RecordingListener& l = *listener_;
  ASSERT_EQ(l.flush_completed_.size(), 2u);
  ASSERT_EQ(l.compaction_begin_.size(), 1u);
  ASSERT_EQ(l.compaction_completed_.size(), 1u);
  EXPECT_EQ(l.wrong_db_, 0);
  const CompactionJobInfo& begin = l.compaction_begin_[0];
  const CompactionJobInfo& done = l.compaction_completed_[0];
  EXPECT_EQ(begin.job_id, done.job_id);
  EXPECT_EQ(done.cf_name, "default");
  EXPECT_OK(done.status);
  EXPECT_EQ(done.compaction_reason, CompactionReason::kLevelL0FilesNum);
  EXPECT_EQ(done.base_input_level, 0);
  EXPECT_GE(done.output_level, 1);
  EXPECT_EQ(NumTableFilesAtLevel(done.output_level), static_cast<int>(done.output_files.size()));
  // The inputs are the two flushed tables.
  std::vector<std::string> flushed = {l.flush_completed_[0].file_path,
                                      l.flush_completed_[1].file_path};
  std::vector<std::string> inputs = done.input_files;
  std::sort(flushed.begin(), flushed.end());
  std::sort(inputs.begin(), inputs.end());
  EXPECT_EQ(inputs, flushed);
  EXPECT_EQ(begin.input_files, done.input_files);
  ASSERT_EQ(done.input_file_infos.size(), 2u);
  EXPECT_EQ(done.input_file_infos[0].level, 0);
  EXPECT_EQ(done.stats.num_input_files, 2u);
  EXPECT_EQ(done.stats.num_input_files_at_output_level, 0u);
  EXPECT_EQ(done.stats.num_input_records, 200u);
  EXPECT_EQ(done.stats.num_output_records, 150u);
  EXPECT_EQ(done.stats.num_records_replaced, 50u);
  EXPECT_FALSE(done.stats.is_manual_compaction);
  uint64_t flushed_bytes = 0;
  for (const TableFileCreationInfo& c : l.created_) {
    if (c.reason == TableFileCreationReason::kFlush) flushed_bytes += c.file_size;
  }
  EXPECT_EQ(done.stats.total_input_bytes, flushed_bytes);
  EXPECT_EQ(done.stats.smallest_output_key_prefix, "key1000");
  EXPECT_EQ(done.stats.largest_output_key_prefix, "key1149");
  ASSERT_FALSE(done.output_files.empty());
  uint64_t out_bytes = 0;
  for (const std::string& f : done.output_files) {
    out_bytes += FileSize(f);
    ASSERT_EQ(done.table_properties.count(f), 1u) << f;
    EXPECT_GT(done.table_properties.at(f)->num_entries, 0u);
  }
  EXPECT_EQ(done.stats.total_output_bytes, out_bytes);
  // The outputs were created by the compaction's job.
  size_t compaction_outputs = 0;
  for (const TableFileCreationInfo& c : l.created_) {
    if (c.reason != TableFileCreationReason::kCompaction) continue;
    ++compaction_outputs;
    EXPECT_EQ(c.job_id, done.job_id);
    EXPECT_OK(c.status);
  }
  EXPECT_EQ(compaction_outputs, done.output_files.size());
  // The inputs were deleted after the compaction completed, under its job.
  ASSERT_EQ(l.deleted_.size(), 2u);
  std::vector<std::string> deleted;
  for (const TableFileDeletionInfo& d : l.deleted_) {
    EXPECT_OK(d.status);
    EXPECT_EQ(d.job_id, done.job_id);
    EXPECT_EQ(d.db_name, dbname_);
    EXPECT_FALSE(FileExists(d.file_path));
    deleted.push_back(d.file_path);
  }
  std::sort(deleted.begin(), deleted.end());
  EXPECT_EQ(deleted, flushed);
  const std::vector<std::string> order =
      l.Events({"CompactionBegin", "TableFileCreated", "CompactionCompleted", "TableFileDeleted"});
  const auto begin_at = std::find(order.begin(), order.end(), "CompactionBegin");
  const auto completed_at = std::find(order.begin(), order.end(), "CompactionCompleted");
  ASSERT_NE(begin_at, order.end());
  ASSERT_NE(completed_at, order.end());
  EXPECT_EQ(std::count(begin_at, completed_at, "TableFileCreated"),
            static_cast<long>(done.output_files.size()));
  EXPECT_EQ(std::count(completed_at, order.end(), "TableFileDeleted"), 2);
  EXPECT_EQ(std::count(order.begin(), begin_at, "TableFileDeleted"), 0);
}

TEST_F(ListenerTest, ManualCompactionReason) {
  OpenWithListener();
  PutKeys(0, 10);
  ASSERT_OK(Flush());
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  RecordingListener& l = *listener_;
  ASSERT_FALSE(l.compaction_completed_.empty());
  EXPECT_EQ(l.compaction_completed_.back().compaction_reason, CompactionReason::kManualCompaction);
  EXPECT_TRUE(l.compaction_completed_.back().stats.is_manual_compaction);
}

TEST_F(ListenerTest, StallConditionsGoDelayedStoppedAndBack) {
  options_.level0_file_num_compaction_trigger = 2;
  options_.level0_slowdown_writes_trigger = 3;
  options_.level0_stop_writes_trigger = 4;
  options_.write_buffer_size = 1 << 20;
  // The first compaction waits until the test lets it go, so flushes pile
  // up level-0 files.
  test::Event compaction_started, release;
  SyncPoint* sp = SyncPoint::GetInstance();
  sp->SetCallBack("CompactionJob::Run:Unlocked", [&](void*) {
    if (release.IsSet()) return;
    compaction_started.Set();
    release.WaitFor();
  });
  sp->EnableProcessing();
  OpenWithListener();
  PutKeys(0, 10, "a");
  ASSERT_OK(Flush());
  PutKeys(0, 10, "a");  // overlapping: no trivial move
  ASSERT_OK(Flush());
  ASSERT_TRUE(compaction_started.WaitFor());
  RecordingListener& l = *listener_;
  EXPECT_TRUE(l.Events({"StallConditionsChanged"}).empty());
  PutKeys(0, 10, "a");
  ASSERT_OK(Flush());  // 3 level-0 files: delayed
  PutKeys(0, 10, "a");
  ASSERT_OK(Flush());  // 4: stopped (the flush itself was switched before)
  {
    std::lock_guard<std::mutex> g(l.mu_);
    ASSERT_EQ(l.stalls_.size(), 2u);
    EXPECT_EQ(l.stalls_[0].cf_name, "default");
    EXPECT_EQ(l.stalls_[0].condition.prev, WriteStallCondition::kNormal);
    EXPECT_EQ(l.stalls_[0].condition.cur, WriteStallCondition::kDelayed);
    EXPECT_EQ(l.stalls_[1].condition.prev, WriteStallCondition::kDelayed);
    EXPECT_EQ(l.stalls_[1].condition.cur, WriteStallCondition::kStopped);
    EXPECT_TRUE(l.flush_completed_.back().triggered_writes_slowdown);
    EXPECT_FALSE(l.flush_completed_.back().triggered_writes_stop);
  }
  release.Set();
  ASSERT_OK(WaitForCompact());
  {
    std::lock_guard<std::mutex> g(l.mu_);
    ASSERT_GE(l.stalls_.size(), 3u);
    EXPECT_EQ(l.stalls_[2].condition.prev, WriteStallCondition::kStopped);
    EXPECT_EQ(l.stalls_.back().condition.cur, WriteStallCondition::kNormal);
  }
  Close();
  const std::string log = test::ReadFileOrDie(dbname_ + "/LOG");
  // The rate is the throttle's pace (db/write_throttle.h): it depends on
  // the measured ingest rate.
  EXPECT_NE(log.find("[WARN] [default] Stalling writes because we have 3 level-0 files rate "),
            std::string::npos);
  EXPECT_NE(log.find("[WARN] [default] Stopping writes because we have 4 level-0 files\n"),
            std::string::npos);
  EXPECT_NE(log.find("[WARN] [default] Resuming writes (were stopped: level-0 file count limit): "),
            std::string::npos);
}

TEST_F(ListenerTest, MemtableStallStopsAndResumes) {
  options_.write_buffer_size = 64 << 10;
  options_.max_write_buffer_number = 2;
  options_.level0_file_num_compaction_trigger = 100;
  options_.level0_slowdown_writes_trigger = 100;
  options_.level0_stop_writes_trigger = 100;
  // Flushes wait until the test lets them go: the writer fills the
  // memtables and stops.
  test::Event flush_waiting, release;
  SyncPoint* sp = SyncPoint::GetInstance();
  sp->SetCallBack("FlushJob::Run:Unlocked", [&](void*) {
    if (release.IsSet()) return;
    flush_waiting.Set();
    release.WaitFor();
  });
  sp->EnableProcessing();
  OpenWithListener();
  std::thread writer([&]() {
    for (int i = 0; i < 3000; ++i) {
      ASSERT_OK(Put("key" + std::to_string(100000 + i), std::string(100, 'x')));
    }
  });
  ASSERT_TRUE(flush_waiting.WaitFor());
  // The writer stops once the second memtable is full as well.
  bool stopped = false;
  for (int i = 0; i < 2000 && !stopped; ++i) {
    {
      std::lock_guard<std::mutex> g(listener_->mu_);
      stopped = !listener_->stalls_.empty();
    }
    if (!stopped) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  release.Set();
  writer.join();
  ASSERT_TRUE(stopped);
  ASSERT_OK(WaitForCompact());
  RecordingListener& l = *listener_;
  std::lock_guard<std::mutex> g(l.mu_);
  ASSERT_GE(l.stalls_.size(), 2u);
  EXPECT_EQ(l.stalls_[0].condition.cur, WriteStallCondition::kStopped);
  EXPECT_EQ(l.stalls_[1].condition.prev, WriteStallCondition::kStopped);
  EXPECT_EQ(l.stalls_[1].condition.cur, WriteStallCondition::kNormal);
  const std::string log = test::ReadFileOrDie(dbname_ + "/LOG");
  EXPECT_NE(log.find("[WARN] [default] Stopping writes because we have 2 immutable memtables "
                     "(waiting for flush), max_write_buffer_number is set to 2\n"),
            std::string::npos);
  EXPECT_NE(log.find("[WARN] [default] Resuming writes (were stopped: memtable limit)"),
            std::string::npos);
}

// The database on a fault-injecting in-memory file system.
class ListenerErrorTest : public ListenerTest {
 protected:
  ListenerErrorTest()
      : base_(NewMemFileSystem()), fault_(std::make_shared<FaultInjectionFileSystem>(base_)) {
    env_ = std::make_unique<Env>(fault_, SystemClock::Default());
    dbname_ = "/db";
    options_.env = env_.get();
  }
  ~ListenerErrorTest() override {
    fault_->ClearFault();
    Close();
    env_->WaitForJobsAndJoinAllThreads();
  }
  void FailNextTableCreate() {
    FaultSpec spec;
    spec.ops = FaultOpBit(FaultOp::kCreate);
    spec.name_contains = {".sst"};
    fault_->InjectFault(spec);
  }
  std::shared_ptr<FileSystem> base_;
  std::shared_ptr<FaultInjectionFileSystem> fault_;
  std::unique_ptr<Env> env_;
};

TEST_F(ListenerErrorTest, FailedFlushReportsBackgroundErrorAndRecovery) {
  OpenWithListener();
  PutKeys(0, 20);
  FailNextTableCreate();
  Status s = db_->Flush(FlushOptions());
  ASSERT_TRUE(s.IsIOError()) << s.ToString();
  fault_->ClearFault();
  RecordingListener& l = *listener_;
  {
    std::lock_guard<std::mutex> g(l.mu_);
    ASSERT_EQ(l.bg_errors_.size(), 1u);
    EXPECT_TRUE(l.bg_errors_[0].IsIOError());
    EXPECT_EQ(l.bg_reasons_[0], BackgroundErrorReason::kFlush);
    // The table that could not be created was reported with its error.
    ASSERT_EQ(l.created_.size(), 1u);
    EXPECT_TRUE(l.created_[0].status.IsIOError());
    EXPECT_EQ(l.created_[0].reason, TableFileCreationReason::kFlush);
    EXPECT_TRUE(l.flush_completed_.empty());
  }
  EXPECT_TRUE(Put("x", "y").IsIOError());
  ASSERT_OK(db_->Resume());
  {
    std::lock_guard<std::mutex> g(l.mu_);
    ASSERT_EQ(l.recoveries_.size(), 1u);
    EXPECT_TRUE(l.recoveries_[0].old_bg_error.IsIOError());
    EXPECT_OK(l.recoveries_[0].new_bg_error);
    EXPECT_EQ(l.flush_completed_.size(), 1u);
  }
  ASSERT_OK(Put("x", "y"));
}

TEST_F(ListenerErrorTest, ListenerCanSuppressTheError) {
  listener_->suppress_errors_ = true;
  OpenWithListener();
  PutKeys(0, 20);
  FailNextTableCreate();
  // The failed flush is not an error: it is tried again and succeeds.
  ASSERT_OK(db_->Flush(FlushOptions()));
  RecordingListener& l = *listener_;
  {
    std::lock_guard<std::mutex> g(l.mu_);
    EXPECT_EQ(l.bg_errors_.size(), 1u);
    EXPECT_EQ(l.flush_completed_.size(), 1u);
  }
  EXPECT_EQ(IntProperty("rocksdb.background-errors"), 0u);
  ASSERT_OK(Put("x", "y"));
  EXPECT_EQ(Get("key1005"), std::string(50, 'v'));
}

}  // namespace
}  // namespace strata
