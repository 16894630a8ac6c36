// Statistics recorded by a DB: a workload of puts, merges, gets, MultiGet,
// seeks, flush and compaction moves the main tickers as expected and gives
// every histogram of an existing feature a count; the stats level switches
// recording off; stats_dump_period_sec writes the dump to the LOG.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "strata/cache.h"
#include "strata/filter_policy.h"
#include "strata/merge_operator.h"
#include "strata/statistics.h"
#include "strata/table.h"
#include "test_util/db_test_base.h"

namespace strata {
namespace {

// "a" then "b" merge to "a,b".
class AppendOperator : public AssociativeMergeOperator {
 public:
  bool Merge(const Slice& /*key*/, const Slice* existing, const Slice& value,
             std::string* new_value, Logger* /*logger*/) const override {
    *new_value =
        existing == nullptr ? value.ToString() : existing->ToString() + "," + value.ToString();
    return true;
  }
  const char* Name() const override { return "AppendOperator"; }
};

// Keeps every line logged.
class CapturingLogger : public Logger {
 public:
  void Logv(InfoLogLevel /*level*/, const char* format, va_list ap) override {
    char buf[64 << 10];
    vsnprintf(buf, sizeof(buf), format, ap);
    std::lock_guard<std::mutex> l(mu_);
    text_ += buf;
    text_ += "\n";
  }
  std::string text() {
    std::lock_guard<std::mutex> l(mu_);
    return text_;
  }

 private:
  std::mutex mu_;
  std::string text_;
};

class DBStatisticsTest : public DBTestBase {
 protected:
  DBStatisticsTest() : DBTestBase("db_statistics_test") {
    options_.statistics = CreateDBStatistics();
    // Compression and decompression time are "detailed" timers.
    options_.statistics->set_stats_level(kExceptTimeForMutex);
    options_.compression = kSnappyCompression;
    options_.merge_operator = std::make_shared<AppendOperator>();
    options_.max_subcompactions = 1;
    BlockBasedTableOptions t;
    t.block_size = 1024;
    t.filter_policy = NewBloomFilterPolicy(10);
    t.block_cache = NewLRUCache(1 << 20);
    t.cache_index_and_filter_blocks = true;
    options_.table_factory = NewBlockBasedTableFactory(t);
  }

  Statistics* stats() { return options_.statistics.get(); }
  uint64_t Ticker(uint32_t t) { return stats()->getTickerCount(t); }
  uint64_t HistCount(uint32_t h) {
    HistogramData d;
    stats()->histogramData(h, &d);
    return d.count;
  }

  static std::string Key(int i) {
    char buf[16];
    snprintf(buf, sizeof(buf), "key%06d", i);
    return buf;
  }
  // Compressible values of 100 bytes.
  static std::string Value(int i) { return std::string(90, 'v') + std::to_string(1000000000 + i); }

  // Puts, a synced write, merges, two flushes, a compaction, then reads of
  // every kind against memtable and tables.
  void RunWorkload(int n) {
    for (int i = 0; i < n; i++) ASSERT_OK(Put(Key(i), Value(i)));
    WriteOptions sync;
    sync.sync = true;
    ASSERT_OK(Put("synced", "yes", sync));
    ASSERT_OK(Merge("m", "a"));
    ASSERT_OK(Flush());
    for (int i = 0; i < n; i += 2) ASSERT_OK(Put(Key(i), Value(i + 1)));
    ASSERT_OK(Merge("m", "b"));
    ASSERT_OK(Delete(Key(1)));
    ASSERT_OK(Flush());
    ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
    ASSERT_OK(WaitForCompact());
    ASSERT_OK(Put("in-memtable", "mem"));
    ASSERT_OK(Merge("m", "c"));
    ASSERT_OK(Put(Key(0), Value(1)));  // a newer version above the table's

    EXPECT_EQ(Value(3), Get(Key(3)));
    EXPECT_EQ(Value(1), Get(Key(0)));
    EXPECT_EQ("NOT_FOUND", Get(Key(1)));
    EXPECT_EQ("NOT_FOUND", Get("absent"));
    EXPECT_EQ("mem", Get("in-memtable"));
    EXPECT_EQ("a,b,c", Get("m"));

    std::vector<std::string> values;
    std::vector<Status> st = db_->MultiGet(
        ReadOptions(), {Slice("key000002"), Slice("key000005"), Slice("nope")}, &values);
    ASSERT_EQ(3u, st.size());
    EXPECT_TRUE(st[0].ok());
    EXPECT_TRUE(st[1].ok());
    EXPECT_TRUE(st[2].IsNotFound());

    std::unique_ptr<Iterator> it = db_->NewIterator(ReadOptions());
    int seen = 0;
    for (it->SeekToFirst(); it->Valid() && seen < 50; it->Next()) seen++;
    it->Seek(Key(10));
    ASSERT_TRUE(it->Valid());
    it->Prev();
    EXPECT_TRUE(it->Valid());
    it->SeekToLast();
    EXPECT_TRUE(it->Valid());
    ASSERT_OK(it->status());
  }
};

TEST_F(DBStatisticsTest, WorkloadMovesTickersAndHistograms) {
  Open();
  constexpr int kKeys = 2000;
  RunWorkload(kKeys);

  // Writes.
  EXPECT_GE(Ticker(NUMBER_KEYS_WRITTEN), static_cast<uint64_t>(kKeys + kKeys / 2));
  EXPECT_GT(Ticker(BYTES_WRITTEN), static_cast<uint64_t>(kKeys) * 100);
  EXPECT_GT(Ticker(WAL_FILE_BYTES), Ticker(BYTES_WRITTEN) / 2);
  EXPECT_GE(Ticker(WAL_FILE_SYNCED), 1u);
  EXPECT_GE(Ticker(WRITE_DONE_BY_SELF), static_cast<uint64_t>(kKeys));
  EXPECT_GE(Ticker(WRITE_WITH_WAL), static_cast<uint64_t>(kKeys));
  EXPECT_GT(Ticker(FLUSH_WRITE_BYTES), 0u);
  EXPECT_GT(Ticker(COMPACT_READ_BYTES), 0u);
  EXPECT_GT(Ticker(COMPACT_WRITE_BYTES), 0u);
  EXPECT_GT(Ticker(COMPACTION_KEY_DROP_NEWER_ENTRY), 0u);  // the overwritten half
  EXPECT_GT(Ticker(NUMBER_BLOCK_COMPRESSED), 0u);
  EXPECT_GT(Ticker(NUMBER_BLOCK_DECOMPRESSED), 0u);
  EXPECT_GT(Ticker(NO_FILE_OPENS), 0u);
  EXPECT_EQ(0u, Ticker(NO_FILE_ERRORS));
  // Point reads: 6 Gets, of which 4 find a value.
  EXPECT_EQ(6u, Ticker(NUMBER_KEYS_READ));
  EXPECT_EQ(2u, Ticker(MEMTABLE_HIT));  // "in-memtable" and key0
  EXPECT_EQ(4u, Ticker(MEMTABLE_MISS));
  EXPECT_GE(Ticker(BYTES_READ), 2u * 100);
  EXPECT_GE(Ticker(GET_HIT_L0) + Ticker(GET_HIT_L1) + Ticker(GET_HIT_L2_AND_UP), 2u);
  EXPECT_GT(Ticker(BLOCK_CACHE_MISS), 0u);
  EXPECT_GT(Ticker(BLOCK_CACHE_ADD), 0u);
  EXPECT_GT(Ticker(BLOCK_CACHE_DATA_MISS), 0u);
  EXPECT_GT(Ticker(BLOCK_CACHE_INDEX_ADD) + Ticker(BLOCK_CACHE_INDEX_HIT), 0u);
  EXPECT_GT(Ticker(BLOCK_CACHE_FILTER_ADD) + Ticker(BLOCK_CACHE_FILTER_HIT), 0u);
  EXPECT_GT(Ticker(BLOCK_CACHE_BYTES_WRITE), 0u);
  EXPECT_GT(Ticker(BLOOM_FILTER_USEFUL), 0u);  // "absent", "nope"
  EXPECT_GT(Ticker(BLOOM_FILTER_FULL_POSITIVE), 0u);
  EXPECT_GT(Ticker(BLOOM_FILTER_FULL_TRUE_POSITIVE), 0u);
  EXPECT_LE(Ticker(BLOOM_FILTER_FULL_TRUE_POSITIVE), Ticker(BLOOM_FILTER_FULL_POSITIVE));
  EXPECT_GT(Ticker(FILES_DELETED_IMMEDIATELY), 0u);  // compaction inputs, old WALs
  EXPECT_GT(Ticker(BLOCK_CHECKSUM_COMPUTE_COUNT), 0u);
  // MultiGet.
  EXPECT_EQ(1u, Ticker(NUMBER_MULTIGET_CALLS));
  EXPECT_EQ(3u, Ticker(NUMBER_MULTIGET_KEYS_READ));
  EXPECT_EQ(2u, Ticker(NUMBER_MULTIGET_KEYS_FOUND));
  EXPECT_EQ(200u, Ticker(NUMBER_MULTIGET_BYTES_READ));
  // Iteration: SeekToFirst, Seek, SeekToLast; 49 Next; one Prev.
  EXPECT_EQ(3u, Ticker(NUMBER_DB_SEEK));
  EXPECT_EQ(3u, Ticker(NUMBER_DB_SEEK_FOUND));
  EXPECT_EQ(50u, Ticker(NUMBER_DB_NEXT));
  EXPECT_EQ(50u, Ticker(NUMBER_DB_NEXT_FOUND));
  EXPECT_EQ(1u, Ticker(NUMBER_DB_PREV));
  EXPECT_EQ(1u, Ticker(NUMBER_DB_PREV_FOUND));
  EXPECT_GT(Ticker(ITER_BYTES_READ), 50u * 100);
  EXPECT_GT(Ticker(NUMBER_ITER_SKIP), 0u);  // key0's older version
  EXPECT_EQ(1u, Ticker(NO_ITERATOR_CREATED));
  EXPECT_EQ(1u, Ticker(NO_ITERATOR_DELETED));  // the iterator died at RunWorkload's end
  EXPECT_GT(Ticker(MERGE_OPERATION_TOTAL_TIME), 0u);

  // Every histogram of a feature Strata has.
  const uint32_t kRecorded[] = {
      DB_GET,
      DB_WRITE,
      COMPACTION_TIME,
      TABLE_SYNC_MICROS,
      COMPACTION_OUTFILE_SYNC_MICROS,
      WAL_FILE_SYNC_MICROS,
      MANIFEST_FILE_SYNC_MICROS,
      TABLE_OPEN_IO_MICROS,
      DB_MULTIGET,
      READ_BLOCK_COMPACTION_MICROS,
      READ_BLOCK_GET_MICROS,
      WRITE_RAW_BLOCK_MICROS,
      NUM_FILES_IN_SINGLE_COMPACTION,
      DB_SEEK,
      SST_READ_MICROS,
      NUM_SUBCOMPACTIONS_SCHEDULED,
      BYTES_PER_READ,
      BYTES_PER_WRITE,
      BYTES_PER_MULTIGET,
      BYTES_COMPRESSED,
      BYTES_DECOMPRESSED,
      COMPRESSION_TIMES_NANOS,
      DECOMPRESSION_TIMES_NANOS,
      READ_NUM_MERGE_OPERANDS,
      FLUSH_TIME,
  };
  for (uint32_t h : kRecorded) EXPECT_GT(HistCount(h), 0u) << HistogramName(h);

  // ToString lists them under RocksDB's names.
  const std::string s = stats()->ToString();
  EXPECT_NE(std::string::npos, s.find("rocksdb.number.keys.read COUNT : 6\n")) << s;
  EXPECT_NE(std::string::npos, s.find("rocksdb.db.get.micros P50 : ")) << s;
}

TEST_F(DBStatisticsTest, WriteStallIsRecorded) {
  // Two level-0 files slow writes down until the compaction they trigger
  // has merged them; a write right after the second flush is delayed (the
  // compaction may win the race, so rounds repeat until one is).
  options_.level0_file_num_compaction_trigger = 2;
  options_.level0_slowdown_writes_trigger = 2;
  options_.level0_stop_writes_trigger = 100;
  options_.delayed_write_rate = 1 << 20;
  Open();
  for (int round = 0; round < 20 && Ticker(STALL_MICROS) == 0; round++) {
    ASSERT_OK(Put("a", "1"));
    ASSERT_OK(Flush());
    ASSERT_OK(Put("b", "2"));
    ASSERT_OK(Flush());
    for (int i = 0; i < 5; i++) ASSERT_OK(Put(Key(i), Value(i)));
    ASSERT_OK(WaitForCompact());
  }
  EXPECT_GT(Ticker(STALL_MICROS), 0u);
  EXPECT_GT(HistCount(WRITE_STALL), 0u);
}

TEST_F(DBStatisticsTest, DisabledLevelRecordsNothing) {
  stats()->set_stats_level(kDisableAll);
  Open();
  RunWorkload(200);
  for (uint32_t t = 0; t < TICKER_ENUM_MAX; t++) EXPECT_EQ(0u, Ticker(t)) << TickerName(t);
  for (uint32_t h = 0; h < HISTOGRAM_ENUM_MAX; h++) {
    EXPECT_EQ(0u, HistCount(h)) << HistogramName(h);
  }
}

TEST_F(DBStatisticsTest, ExceptTimersKeepsCountsAndSizesOnly) {
  stats()->set_stats_level(kExceptTimers);
  Open();
  RunWorkload(200);
  EXPECT_EQ(6u, Ticker(NUMBER_KEYS_READ));
  EXPECT_GT(HistCount(BYTES_PER_WRITE), 0u);
  EXPECT_GT(HistCount(BYTES_PER_READ), 0u);
  EXPECT_EQ(0u, HistCount(DB_GET));
  EXPECT_EQ(0u, HistCount(DB_WRITE));
  EXPECT_EQ(0u, HistCount(FLUSH_TIME));
  EXPECT_EQ(0u, HistCount(SST_READ_MICROS));
  EXPECT_EQ(0u, Ticker(MERGE_OPERATION_TOTAL_TIME));
}

TEST_F(DBStatisticsTest, PeriodicStatsDumpGoesToTheLog) {
  auto logger = std::make_shared<CapturingLogger>();
  options_.info_log = logger;
  options_.stats_dump_period_sec = 1;
  Open();
  ASSERT_OK(Put("a", "1"));
  EXPECT_EQ("1", Get("a"));
  // The first dump comes one period after Open.
  for (int i = 0; i < 100 && logger->text().find("STATISTICS:") == std::string::npos; i++) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const std::string log = logger->text();
  const size_t dump = log.find("------- DUMPING STATS -------\n");
  ASSERT_NE(std::string::npos, dump) << log;
  // The rocksdb.stats text, then the statistics in RocksDB's format.
  const size_t stats_text = log.find("Compaction Stats", dump);
  const size_t statistics = log.find("STATISTICS:\n rocksdb.block.cache.miss COUNT : ", dump);
  EXPECT_NE(std::string::npos, stats_text) << log.substr(dump);
  ASSERT_NE(std::string::npos, statistics) << log.substr(dump);
  EXPECT_LT(stats_text, statistics);
  EXPECT_NE(std::string::npos, log.find("rocksdb.number.keys.written COUNT : 1\n", dump));
}

TEST_F(DBStatisticsTest, CloseDoesNotWaitForThePeriod) {
  auto logger = std::make_shared<CapturingLogger>();
  options_.info_log = logger;
  options_.stats_dump_period_sec = 600;
  Open();
  const auto start = std::chrono::steady_clock::now();
  Close();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_EQ(std::string::npos, logger->text().find("DUMPING STATS"));
}

TEST_F(DBStatisticsTest, ZeroPeriodDisablesTheDump) {
  auto logger = std::make_shared<CapturingLogger>();
  options_.info_log = logger;
  options_.stats_dump_period_sec = 0;
  Open();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  Close();
  EXPECT_EQ(std::string::npos, logger->text().find("DUMPING STATS"));
}

}  // namespace
}  // namespace strata
