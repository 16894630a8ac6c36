// Races between a manual CompactRange and automatic compactions, forced
// into one order with sync points (util/sync_point.h) instead of hoped for
// with sleeps.
//
// ManualLevel0GoesToTheBaseLevelSeenAfterTheWait is the test for commit
// 9c12cd3: CompactRange computed level 0's output level (the dynamic base
// level) once, before waiting for a conflicting automatic compaction. If
// automatic compactions meanwhile raised the base level (L4 -> L3) and put
// older data of a key into L3, the manual job then wrote newer data of that
// key from level 0 into L4, below it, and Get returned the older value.
#include <atomic>
#include <functional>
#include <string>
#include <thread>

#include "db/compaction/compaction.h"
#include "test_util/db_test_base.h"
#include "util/mutex.h"
#include "util/sync_point.h"
#include "util/thread_annotations.h"

namespace strata {
namespace {

// Runs wait() with *mu released. For a callback of a sync point the
// library passes with `mu` held, when the test must let other threads take
// it while it holds this one (as the wait that follows the point would).
void WithMutexReleased(Mutex* mu, const std::function<void()>& wait) NO_THREAD_SAFETY_ANALYSIS {
  mu->Unlock();
  wait();
  mu->Lock();
}

std::string Filler(int i) { return std::string(200, static_cast<char>('a' + i % 26)); }

class DBCompactionRaceTest : public DBTestBase {
 protected:
  DBCompactionRaceTest() : DBTestBase("db_compaction_race_test") {
    // Five levels with dynamic level sizes: the base level is L4 while L4
    // holds at most 256 KiB, L3 up to 2.5 MiB. Memtables and files large
    // enough that only the test's Flush calls make tables and every job
    // writes one file; level 0 compacts at two files.
    options_.num_levels = 5;
    options_.level_compaction_dynamic_level_bytes = true;
    options_.max_bytes_for_level_base = 256 << 10;
    options_.max_bytes_for_level_multiplier = 10;
    options_.write_buffer_size = 8 << 20;
    options_.target_file_size_base = 8 << 20;
    options_.level0_file_num_compaction_trigger = 2;
  }
  ~DBCompactionRaceTest() override {
    // The callbacks use this fixture's members: they go first. A test that
    // failed half way lets every held thread go on.
    release_a_.Set();
    release_b_.Set();
    release_manual_.Set();
    SyncPoint::GetInstance()->DisableProcessing();
    SyncPoint::GetInstance()->ClearAllCallBacks();
  }

  int BaseLevel() { return static_cast<int>(IntProperty("strata.base-level")); }

  std::atomic<int> auto_jobs_{0};
  std::atomic<int> conflicts_{0};
  std::atomic<int> a_output_{-1}, b_output_{-1};
  test::Event a_held_, release_a_, b_held_, release_b_, manual_waits_, release_manual_;
};

TEST_F(DBCompactionRaceTest, ManualLevel0GoesToTheBaseLevelSeenAfterTheWait) {
  Open();
  // ~165 KiB in L4: the base level is L4.
  for (int i = 0; i < 750; ++i) ASSERT_OK(Put("a" + std::to_string(1000 + i), Filler(i)));
  ASSERT_OK(Flush());
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  ASSERT_EQ("0,0,0,0,1", FilesPerLevel());
  ASSERT_EQ(4, BaseLevel());

  // Automatic job 1 (A, level 0 into L4) is held once it runs until the
  // manual CompactRange waits for it; job 2 (B, level 0 into L3) is held
  // until the newest value is in level 0. The manual job's first conflict
  // wait lasts until the test lets it go, with the DB mutex released.
  SyncPoint* sp = SyncPoint::GetInstance();
  sp->SetCallBack("CompactionJob::Run:Unlocked", [&](void* arg) {
    const Compaction* c = static_cast<const Compaction*>(arg);
    if (c->manual() || c->start_level() != 0) return;
    const int n = ++auto_jobs_;
    if (n == 1) {
      a_output_ = c->output_level();
      a_held_.Set();
      ASSERT_TRUE(release_a_.WaitFor());
    } else if (n == 2) {
      b_output_ = c->output_level();
      b_held_.Set();
      ASSERT_TRUE(release_b_.WaitFor());
    }
  });
  sp->SetCallBack("DBImpl::CompactRange:BeforeWaitForConflict", [&](void* arg) {
    if (++conflicts_ != 1) return;
    manual_waits_.Set();
    WithMutexReleased(static_cast<Mutex*>(arg), [&] { ASSERT_TRUE(release_manual_.WaitFor()); });
  });
  sp->EnableProcessing();

  // Two overlapping level-0 files (~100 KiB each, both holding "x"): A.
  for (int i = 0; i < 500; ++i) ASSERT_OK(Put("b" + std::to_string(1000 + i), Filler(i)));
  ASSERT_OK(Put("x", "v1"));
  ASSERT_OK(Flush());
  for (int i = 0; i < 500; ++i) ASSERT_OK(Put("c" + std::to_string(1000 + i), Filler(i)));
  ASSERT_OK(Put("x", "v2"));
  ASSERT_OK(Flush());
  ASSERT_TRUE(a_held_.WaitFor());
  EXPECT_EQ(4, a_output_.load());

  // Two more level-0 files while A runs; A holds level 0, so they wait.
  ASSERT_OK(Put("x", "v3"));
  ASSERT_OK(Flush());
  ASSERT_OK(Put("x", "v4"));
  ASSERT_OK(Flush());

  // The manual job finds level 0 busy (A's inputs) and waits, having seen
  // base level L4. Not exclusive: an exclusive one would wait for A before
  // picking anything, and B could not run beside it.
  Status manual_status;
  CompactRangeOptions shared;
  shared.exclusive_manual_compaction = false;
  std::jthread manual([&] { manual_status = db_->CompactRange(shared, nullptr, nullptr); });
  ASSERT_TRUE(manual_waits_.WaitFor());
  EXPECT_EQ(4, BaseLevel());

  // A finishes: L4 outgrows 256 KiB and the base level moves up to L3; B
  // takes v3 and v4 from level 0 into L3.
  release_a_.Set();
  ASSERT_TRUE(b_held_.WaitFor());
  EXPECT_EQ(3, BaseLevel());
  EXPECT_EQ(3, b_output_.load());

  // The newest value reaches level 0 after B took its inputs; then B and
  // the manual job go on. The manual job must put v5 into L3 (where v4 is
  // now), not into L4 below it.
  ASSERT_OK(Put("x", "v5"));
  ASSERT_OK(Flush());
  release_b_.Set();
  release_manual_.Set();
  manual.join();
  ASSERT_OK(manual_status);
  sp->DisableProcessing();
  sp->ClearAllCallBacks();
  EXPECT_GE(auto_jobs_.load(), 2);

  EXPECT_EQ("v5", Get("x")) << FilesPerLevel();
  EXPECT_EQ("", CheckNewerAboveOlder()) << FilesPerLevel();
  EXPECT_EQ(Filler(7), Get("a1007"));
  EXPECT_EQ(Filler(499), Get("b1499"));
  EXPECT_EQ(Filler(0), Get("c1000"));
  Reopen();
  EXPECT_EQ("v5", Get("x")) << FilesPerLevel();
  EXPECT_EQ("", CheckNewerAboveOlder());
}

}  // namespace
}  // namespace strata
