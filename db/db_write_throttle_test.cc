// The write throttle in a DB (db/write_throttle.h): level-0 pressure paces
// writes at the rate the pressure gives (checked as a lower bound on the
// time the writes waited), memtable pressure paces writes while the last
// allowed immutable memtable waits for its flush, no_slowdown writers are
// failed or let through as RocksDB does, and every write is still there.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <string>

#include "strata/statistics.h"
#include "test_util/db_test_base.h"

namespace strata {
namespace {

class DBWriteThrottleTest : public DBTestBase {
 protected:
  DBWriteThrottleTest() : DBTestBase("db_write_throttle_test") {}

  Options ThrottleOptions() {
    Options o = SmallOptions();
    o.statistics = CreateDBStatistics();
    o.delayed_write_rate = 1 << 20;  // caps the measured base: 1 MiB/s
    return o;
  }
  uint64_t StallMicros() { return options_.statistics->getTickerCount(STALL_MICROS); }
  // Writes n keys of a 1000-byte value; returns the wall micros taken.
  uint64_t WriteKeys(const std::string& prefix, int n, const WriteOptions& wo = WriteOptions()) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) {
      const std::string key = prefix + std::to_string(i);
      const std::string value(1000, static_cast<char>('a' + i % 26));
      EXPECT_OK(Put(key, value, wo));
      model_[key] = value;
    }
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() -
                                                                 start)
        .count();
  }
  void CheckModel() {
    for (const auto& [k, v] : model_) ASSERT_EQ(Get(k), v) << k;
  }

  std::map<std::string, std::string> model_;
};

TEST_F(DBWriteThrottleTest, LevelZeroPressurePacesWrites) {
  Options o = ThrottleOptions();
  o.level0_file_num_compaction_trigger = 10;
  o.level0_slowdown_writes_trigger = 20;
  o.level0_stop_writes_trigger = 30;
  Open(o);
  for (int f = 0; f < 4; ++f) {
    WriteKeys("f" + std::to_string(f) + "-", 5);
    ASSERT_OK(Flush());
  }
  ASSERT_EQ(NumTableFilesAtLevel(0), 4);
  EXPECT_EQ(IntProperty("rocksdb.actual-delayed-write-rate"), 0u);
  // Paused, so the compaction the new triggers call for does not run (Open
  // raises a slowdown trigger below the compaction trigger to it).
  ASSERT_OK(db_->PauseBackgroundWork());
  ASSERT_OK(db_->SetOptions({{"level0_file_num_compaction_trigger", "2"},
                             {"level0_slowdown_writes_trigger", "3"},
                             {"level0_stop_writes_trigger", "20"}}));
  // Pressure (4 - 3 + 1) / (20 - 3 + 1); the rate is 1 MiB/s times the
  // square of what is left.
  const double q = 1.0 - 2.0 / 18.0;
  const double rate = (1 << 20) * q * q;
  EXPECT_NEAR(static_cast<double>(IntProperty("rocksdb.actual-delayed-write-rate")), rate, 1.0);
  const uint64_t stalled_before = StallMicros();
  const uint64_t took = WriteKeys("paced-", 100);
  // About 100 KB of batches at `rate`: at least that long, less the banked
  // millisecond and a margin for the batch bytes counted.
  const double want = 100.0 * 1000 / rate * 1e6;
  EXPECT_GE(static_cast<double>(took), 0.9 * want - 1000);
  EXPECT_GE(static_cast<double>(StallMicros() - stalled_before), 0.9 * want - 1000);
  // no_slowdown writers fail instead of waiting (RocksDB's Incomplete).
  WriteOptions no_wait;
  no_wait.no_slowdown = true;
  EXPECT_TRUE(Put("nowait", "x", no_wait).IsIncomplete());
  ASSERT_OK(db_->ContinueBackgroundWork());
  ASSERT_OK(WaitForCompact());
  CheckModel();
}

TEST_F(DBWriteThrottleTest, MemtablePressurePacesWhileTheFlushWaits) {
  Options o = ThrottleOptions();
  o.max_write_buffer_number = 2;
  o.write_buffer_size = 256 << 10;
  Open(o);
  // Nothing pending: writes are not paced.
  uint64_t stalled = StallMicros();
  WriteKeys("free-", 100);
  EXPECT_EQ(StallMicros(), stalled);
  EXPECT_EQ(IntProperty("rocksdb.actual-delayed-write-rate"), 0u);
  // The flush of the memtable switched now cannot run: the next switch
  // would stop writes, so the new memtable's fill paces them.
  ASSERT_OK(db_->PauseBackgroundWork());
  FlushOptions no_wait_flush;
  no_wait_flush.wait = false;
  ASSERT_OK(db_->Flush(no_wait_flush));
  WriteKeys("start-", 20);  // the switch happens in the first write
  stalled = StallMicros();
  // The memtable fills to about a third (arena blocks count too): paced.
  WriteKeys("paced-", 60);
  EXPECT_GT(StallMicros(), stalled);
  // no_slowdown writers are not paced by memtable pressure: they go on
  // until the stop itself fails them.
  WriteOptions no_wait;
  no_wait.no_slowdown = true;
  stalled = StallMicros();
  WriteKeys("nowait-", 10, no_wait);
  EXPECT_EQ(StallMicros(), stalled);
  // Level-0 and debt pressure stay 0: the property reports no delay.
  EXPECT_EQ(IntProperty("rocksdb.actual-delayed-write-rate"), 0u);
  ASSERT_OK(db_->ContinueBackgroundWork());
  ASSERT_OK(WaitForCompact());
  // The flush done, nothing is watched: writes go at full speed again.
  stalled = StallMicros();
  WriteKeys("after-", 100);
  EXPECT_EQ(StallMicros(), stalled);
  CheckModel();
  Reopen();
  CheckModel();
}

}  // namespace
}  // namespace strata
