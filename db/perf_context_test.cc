// PerfContext and IOStatsContext: the perf level switches counting on and
// off per thread, contexts are per thread, a Get on a flushed table counts
// its block read, and RocksDB's ToString format.
#include "strata/perf_context.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>

#include "strata/iostats_context.h"
#include "strata/perf_level.h"
#include "strata/table.h"
#include "test_util/db_test_base.h"
#include "util/perf_context_imp.h"

namespace strata {
namespace {

// Restores the calling thread's level and zeroes its contexts.
class PerfLevelGuard {
 public:
  PerfLevelGuard() : saved_(GetPerfLevel()) {
    get_perf_context()->Reset();
    get_iostats_context()->Reset();
  }
  ~PerfLevelGuard() { SetPerfLevel(saved_); }

 private:
  const PerfLevel saved_;
};

TEST(PerfContextTest, LevelsAndValues) {
  PerfLevelGuard guard;
  // RocksDB's numbering.
  EXPECT_EQ(0, static_cast<int>(kUninitialized));
  EXPECT_EQ(1, static_cast<int>(kDisable));
  EXPECT_EQ(2, static_cast<int>(kEnableCount));
  EXPECT_EQ(3, static_cast<int>(kEnableTimeExceptForMutex));
  EXPECT_EQ(4, static_cast<int>(kEnableTimeAndCPUTimeExceptForMutex));
  EXPECT_EQ(5, static_cast<int>(kEnableTime));
  EXPECT_EQ(6, static_cast<int>(kOutOfBounds));

  SetPerfLevel(kEnableCount);
  EXPECT_EQ(kEnableCount, GetPerfLevel());
  SetPerfLevel(kOutOfBounds);  // ignored
  EXPECT_EQ(kEnableCount, GetPerfLevel());
  SetPerfLevel(kUninitialized);  // ignored
  EXPECT_EQ(kEnableCount, GetPerfLevel());
}

TEST(PerfContextTest, NewThreadStartsDisabledAndZero) {
  PerfLevelGuard guard;
  SetPerfLevel(kEnableTime);
  PERF_COUNTER_ADD(block_read_count, 3);
  PerfLevel other_level = kOutOfBounds;
  uint64_t other_count = 1;
  std::thread t([&] {
    other_level = GetPerfLevel();
    PERF_COUNTER_ADD(block_read_count, 5);  // disabled: nothing
    other_count = get_perf_context()->block_read_count;
  });
  t.join();
  EXPECT_EQ(kDisable, other_level);
  EXPECT_EQ(0u, other_count);
  EXPECT_EQ(3u, get_perf_context()->block_read_count);
}

TEST(PerfContextTest, CountersAndTimersFollowTheLevel) {
  PerfLevelGuard guard;
  SetPerfLevel(kDisable);
  PERF_COUNTER_ADD(user_key_comparison_count, 1);
  IOSTATS_ADD(bytes_read, 10);
  {
    PERF_TIMER_GUARD(block_read_time);
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  EXPECT_EQ(0u, get_perf_context()->user_key_comparison_count);
  EXPECT_EQ(0u, get_perf_context()->block_read_time);
  EXPECT_EQ(0u, get_iostats_context()->bytes_read);

  SetPerfLevel(kEnableCount);
  PERF_COUNTER_ADD(user_key_comparison_count, 1);
  IOSTATS_ADD(bytes_read, 10);
  {
    PERF_TIMER_GUARD(block_read_time);
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  EXPECT_EQ(1u, get_perf_context()->user_key_comparison_count);
  EXPECT_EQ(10u, get_iostats_context()->bytes_read);
  EXPECT_EQ(0u, get_perf_context()->block_read_time);  // counts only

  SetPerfLevel(kEnableTimeAndCPUTimeExceptForMutex);
  {
    PERF_TIMER_GUARD(block_read_time);
    PERF_TIMER_MUTEX_GUARD(db_mutex_lock_nanos);
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  EXPECT_GE(get_perf_context()->block_read_time, 50000u);
  EXPECT_EQ(0u, get_perf_context()->db_mutex_lock_nanos);  // mutex time needs kEnableTime

  SetPerfLevel(kEnableTime);
  {
    PERF_TIMER_MUTEX_GUARD(db_mutex_lock_nanos);
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  EXPECT_GE(get_perf_context()->db_mutex_lock_nanos, 50000u);
}

TEST(PerfContextTest, ToStringFormat) {
  PerfLevelGuard guard;
  PerfContext* pc = get_perf_context();
  pc->Reset();
  EXPECT_EQ("", pc->ToString(true));
  pc->block_read_count = 2;
  pc->get_from_memtable_count = 7;
  EXPECT_EQ("block_read_count = 2, get_from_memtable_count = 7", pc->ToString(true));
  const std::string all = pc->ToString();
  EXPECT_EQ(0u, all.find("user_key_comparison_count = 0, block_cache_hit_count = 0, "
                         "block_read_count = 2, "))
      << all;
  EXPECT_NE(std::string::npos, all.find(", number_async_seek = 0")) << all;
  EXPECT_NE(", ", all.substr(all.size() - 2));
  pc->Reset();
  EXPECT_EQ(0u, pc->block_read_count);

  IOStatsContext* io = get_iostats_context();
  io->Reset();
  io->bytes_written = 5;
  io->bytes_read = 3;
  EXPECT_EQ("bytes_read = 3, bytes_written = 5", io->ToString(true));
  EXPECT_EQ(0u, io->ToString().find("thread_pool_id = 0, bytes_read = 3, bytes_written = 5, "));
  EXPECT_NE(std::string::npos,
            io->ToString().find("file_io_stats_by_temperature.cold_file_read_count = 0"));
}

class PerfContextDBTest : public DBTestBase {
 protected:
  PerfContextDBTest() : DBTestBase("perf_context_test") {
    BlockBasedTableOptions t;
    t.no_block_cache = true;  // every Get reads its data block from the file
    options_.table_factory = NewBlockBasedTableFactory(t);
    options_.table_mmap_reads = false;  // through pread, counted by IOStatsContext
  }
};

TEST_F(PerfContextDBTest, GetOnFlushedTableCountsBlockRead) {
  PerfLevelGuard guard;
  Open();
  for (int i = 0; i < 100; i++) ASSERT_OK(Put("key" + std::to_string(i), std::string(50, 'x')));
  ASSERT_OK(Flush());
  ASSERT_EQ(std::string(50, 'x'), Get("key7"));  // table opened, warm

  SetPerfLevel(kEnableTimeExceptForMutex);
  get_perf_context()->Reset();
  get_iostats_context()->Reset();
  ASSERT_EQ(std::string(50, 'x'), Get("key42"));
  const PerfContext& pc = *get_perf_context();
  EXPECT_GE(pc.block_read_count, 1u);
  EXPECT_GT(pc.block_read_byte, 0u);
  EXPECT_GT(pc.block_read_time, 0u);
  EXPECT_GT(pc.user_key_comparison_count, 0u);
  EXPECT_GE(pc.get_from_memtable_count, 1u);
  EXPECT_GT(pc.get_from_output_files_time, 0u);
  EXPECT_GT(pc.get_snapshot_time + pc.get_post_process_time, 0u);
  EXPECT_EQ(50u, pc.get_read_bytes);
  // The default file system is POSIX: the block came through pread.
  EXPECT_GE(get_iostats_context()->bytes_read, pc.block_read_byte);
  EXPECT_GT(get_iostats_context()->read_nanos, 0u);

  // Writes and iteration.
  get_perf_context()->Reset();
  ASSERT_OK(Put("new", "value"));
  EXPECT_GT(pc.write_wal_time, 0u);
  EXPECT_GT(pc.write_memtable_time, 0u);
  EXPECT_GT(get_iostats_context()->bytes_written, 0u);
  ASSERT_OK(Put("new2", "value"));
  std::unique_ptr<Iterator> it = db_->NewIterator(ReadOptions());
  it->Seek("new");
  ASSERT_TRUE(it->Valid());
  it->Next();
  EXPECT_GE(pc.seek_on_memtable_count, 1u);
  EXPECT_GE(pc.next_on_memtable_count, 1u);
  EXPECT_GT(pc.seek_internal_seek_time, 0u);
  EXPECT_GE(pc.seek_child_seek_count, 2u);  // memtable and table
  EXPECT_GT(pc.seek_child_seek_time, 0u);
  EXPECT_GT(pc.find_next_user_entry_time, 0u);
  EXPECT_GT(pc.iter_read_bytes, 0u);
  it.reset();

  // Disabled: the same Get counts nothing.
  SetPerfLevel(kDisable);
  get_perf_context()->Reset();
  get_iostats_context()->Reset();
  ASSERT_EQ(std::string(50, 'x'), Get("key43"));
  EXPECT_EQ("", get_perf_context()->ToString(true));
  EXPECT_EQ("", get_iostats_context()->ToString(true));
}

TEST_F(PerfContextDBTest, CountsArePerThread) {
  PerfLevelGuard guard;
  Open();
  for (int i = 0; i < 50; i++) ASSERT_OK(Put("key" + std::to_string(i), "v"));
  ASSERT_OK(Flush());
  SetPerfLevel(kEnableCount);
  uint64_t other_reads = 0;
  std::thread t([&] {
    SetPerfLevel(kEnableCount);
    get_perf_context()->Reset();
    for (int i = 0; i < 10; i++) EXPECT_EQ("v", Get("key" + std::to_string(i)));
    other_reads = get_perf_context()->block_read_count;
  });
  t.join();
  EXPECT_GE(other_reads, 10u);
  EXPECT_EQ(0u, get_perf_context()->block_read_count);
  EXPECT_EQ("v", Get("key20"));
  EXPECT_GE(get_perf_context()->block_read_count, 1u);
  EXPECT_LT(get_perf_context()->block_read_count, other_reads);
}

TEST(PerfContextTest, PerLevelMapEnableClearAndCopy) {
  PerfContext* pc = get_perf_context();
  EXPECT_EQ(nullptr, pc->level_to_perf_context);
  EXPECT_FALSE(pc->per_level_perf_context_enabled);
  pc->EnablePerLevelPerfContext();
  ASSERT_NE(nullptr, pc->level_to_perf_context);
  EXPECT_TRUE(pc->per_level_perf_context_enabled);
  // Strata attributes nothing to levels: the map stays empty after reads.
  EXPECT_TRUE(pc->level_to_perf_context->empty());
  (*pc->level_to_perf_context)[2].bloom_filter_useful = 5;
  pc->block_read_count = 3;

  PerfContext copy(*pc);
  EXPECT_EQ(3u, copy.block_read_count);
  EXPECT_TRUE(copy.per_level_perf_context_enabled);
  ASSERT_NE(nullptr, copy.level_to_perf_context);
  EXPECT_EQ(5u, (*copy.level_to_perf_context)[2].bloom_filter_useful);

  pc->Reset();
  EXPECT_EQ(0u, pc->block_read_count);
  EXPECT_EQ(0u, (*pc->level_to_perf_context)[2].bloom_filter_useful);
  pc->DisablePerLevelPerfContext();
  EXPECT_FALSE(pc->per_level_perf_context_enabled);
  EXPECT_NE(nullptr, pc->level_to_perf_context);
  pc->ClearPerLevelPerfContext();
  EXPECT_EQ(nullptr, pc->level_to_perf_context);
  EXPECT_FALSE(pc->per_level_perf_context_enabled);

  PerfContext fresh;
  EXPECT_EQ(0u, fresh.seek_max_heap_time);
  EXPECT_EQ(0u, fresh.encrypt_data_nanos);
  EXPECT_EQ(0u, fresh.decrypt_data_nanos);
  EXPECT_NE(std::string::npos, fresh.ToString().find("seek_max_heap_time = 0")) << fresh.ToString();
  EXPECT_NE(std::string::npos, fresh.ToString().find("decrypt_data_nanos = 0"));
}

TEST(PerfContextTest, DisableIOStatsStopsByteCounters) {
  PerfLevelGuard guard;
  SetPerfLevel(kEnableCount);
  IOStatsContext* io = get_iostats_context();
  io->Reset();
  IOSTATS_ADD(bytes_read, 10);
  EXPECT_EQ(10u, io->bytes_read);
  io->disable_iostats = true;
  IOSTATS_ADD(bytes_read, 10);
  EXPECT_EQ(10u, io->bytes_read);
  io->Reset();
  EXPECT_TRUE(io->disable_iostats);  // Reset keeps it, as RocksDB's
  io->disable_iostats = false;
  io->file_io_stats_by_temperature.hot_file_read_count = 4;
  io->file_io_stats_by_temperature.Reset();
  EXPECT_EQ(0u, io->file_io_stats_by_temperature.hot_file_read_count);
}

}  // namespace
}  // namespace strata
