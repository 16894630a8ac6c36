#include "strata/statistics.h"

#include <gtest/gtest.h>

#include <cctype>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "test_util/testutil.h"

namespace strata {
namespace {

bool IsDottedLowercase(const std::string& name) {
  if (name.rfind("strata.", 0) != 0 || name.back() == '.') return false;
  for (char c : name) {
    if (!(islower(static_cast<unsigned char>(c)) || isdigit(static_cast<unsigned char>(c)) ||
          c == '.')) {
      return false;
    }
  }
  return name.find("..") == std::string::npos;
}

TEST(StatisticsTest, NamesAreUniqueAndWellFormed) {
  std::set<std::string> names;
  for (uint32_t t = 0; t < TICKER_ENUM_MAX; t++) {
    const std::string name = TickerName(t);
    EXPECT_TRUE(IsDottedLowercase(name)) << name;
    EXPECT_TRUE(names.insert(name).second) << "duplicate " << name;
  }
  for (uint32_t h = 0; h < HISTOGRAM_ENUM_MAX; h++) {
    const std::string name = HistogramName(h);
    EXPECT_TRUE(IsDottedLowercase(name)) << name;
    EXPECT_TRUE(names.insert(name).second) << "duplicate " << name;
  }
  EXPECT_STREQ("strata.bytes.written", TickerName(BYTES_WRITTEN));
  EXPECT_STREQ("strata.db.get.micros", HistogramName(DB_GET));
  EXPECT_NE(nullptr, TickerName(TICKER_ENUM_MAX));
  EXPECT_NE(nullptr, HistogramName(HISTOGRAM_ENUM_MAX));
}

TEST(StatisticsTest, TickersStartAtZeroAndCount) {
  auto stats = CreateDBStatistics();
  for (uint32_t t = 0; t < TICKER_ENUM_MAX; t++) {
    EXPECT_EQ(0u, stats->getTickerCount(t)) << TickerName(t);
  }
  stats->recordTick(BYTES_WRITTEN, 100);
  stats->recordTick(BYTES_WRITTEN);
  stats->recordTick(MEMTABLE_HIT, 7);
  EXPECT_EQ(101u, stats->getTickerCount(BYTES_WRITTEN));
  EXPECT_EQ(7u, stats->getTickerCount(MEMTABLE_HIT));
  EXPECT_EQ(0u, stats->getTickerCount(MEMTABLE_MISS));

  stats->setTickerCount(BYTES_WRITTEN, 5);
  EXPECT_EQ(5u, stats->getTickerCount(BYTES_WRITTEN));
  stats->recordTick(BYTES_WRITTEN, 2);
  EXPECT_EQ(7u, stats->getTickerCount(BYTES_WRITTEN));

  // Out-of-range indices are ignored.
  stats->recordTick(TICKER_ENUM_MAX, 1);
  EXPECT_EQ(0u, stats->getTickerCount(TICKER_ENUM_MAX));
}

TEST(StatisticsTest, HistogramData) {
  auto stats = CreateDBStatistics();
  HistogramData empty;
  stats->histogramData(DB_GET, &empty);
  EXPECT_EQ(0u, empty.count);
  EXPECT_EQ(0u, empty.sum);

  for (uint64_t v = 1; v <= 100; v++) stats->measureTime(DB_GET, v);
  stats->measureTime(DB_WRITE, 1000);
  HistogramData d;
  stats->histogramData(DB_GET, &d);
  EXPECT_EQ(100u, d.count);
  EXPECT_EQ(5050u, d.sum);
  EXPECT_DOUBLE_EQ(50.5, d.average);
  EXPECT_NEAR(28.87, d.standard_deviation, 0.01);
  EXPECT_NEAR(50.0, d.median, 1.0);
  EXPECT_NEAR(95.0, d.percentile95, 1.0);
  EXPECT_NEAR(99.0, d.percentile99, 1.0);
  EXPECT_EQ(1.0, d.min);
  EXPECT_EQ(100.0, d.max);

  const std::string s = stats->getHistogramString(DB_GET);
  EXPECT_EQ(0u, s.find("Count: 100 Average: 50.5000  StdDev: 28.87\n")) << s;

  HistogramData w;
  stats->histogramData(DB_WRITE, &w);
  EXPECT_EQ(1u, w.count);
  EXPECT_EQ(1000u, w.sum);
}

TEST(StatisticsTest, Reset) {
  auto stats = CreateDBStatistics();
  stats->recordTick(NUMBER_KEYS_READ, 3);
  stats->measureTime(DB_SEEK, 12);
  stats->Reset();
  EXPECT_EQ(0u, stats->getTickerCount(NUMBER_KEYS_READ));
  HistogramData d;
  stats->histogramData(DB_SEEK, &d);
  EXPECT_EQ(0u, d.count);
  stats->recordTick(NUMBER_KEYS_READ, 1);
  EXPECT_EQ(1u, stats->getTickerCount(NUMBER_KEYS_READ));
}

TEST(StatisticsTest, ToStringListsEverything) {
  auto stats = CreateDBStatistics();
  stats->recordTick(WAL_FILE_BYTES, 4096);
  stats->measureTime(WAL_FILE_SYNC_MICROS, 10);
  stats->measureTime(WAL_FILE_SYNC_MICROS, 30);
  const std::string s = stats->ToString();
  std::istringstream in(s);
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) lines++;
  EXPECT_EQ(static_cast<int>(TICKER_ENUM_MAX) + static_cast<int>(HISTOGRAM_ENUM_MAX), lines);
  for (uint32_t t = 0; t < TICKER_ENUM_MAX; t++) {
    const std::string expected =
        std::string(TickerName(t)) + " COUNT : " + std::to_string(stats->getTickerCount(t)) + "\n";
    EXPECT_NE(std::string::npos, s.find(expected)) << expected;
  }
  EXPECT_NE(std::string::npos, s.find("strata.wal.bytes COUNT : 4096\n"));
  // The 95th and 99th percentiles interpolate inside the bucket (25, 30]
  // holding 30: 25 + 5 * 0.9 and 25 + 5 * 0.98.
  EXPECT_NE(std::string::npos, s.find("strata.wal.file.sync.micros P50 : 10.000000 P95 : "
                                      "29.500000 P99 : 29.900000 P100 : 30.000000 COUNT : 2 "
                                      "SUM : 40\n"))
      << s;
  EXPECT_NE(std::string::npos, s.find("strata.db.get.micros P50 : 0.000000 P95 : 0.000000 P99 : "
                                      "0.000000 P100 : 0.000000 COUNT : 0 SUM : 0\n"))
      << s;
}

TEST(StatisticsTest, ConcurrentRecordingHasExactTotals) {
  auto stats = CreateDBStatistics();
  constexpr int kThreads = 8;
  constexpr uint64_t kPerThread = 200000;
  constexpr uint64_t kHistPerThread = 20000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&stats, t] {
      for (uint64_t i = 0; i < kPerThread; i++) {
        stats->recordTick(NUMBER_KEYS_WRITTEN);
        stats->recordTick(BYTES_WRITTEN, static_cast<uint64_t>(t) + 1);
      }
      for (uint64_t i = 0; i < kHistPerThread; i++) {
        stats->measureTime(DB_WRITE, static_cast<uint64_t>(t) * 1000 + i % 100);
      }
    });
  }
  // Reading while writers run is allowed and sees a count no larger than
  // the final one.
  const uint64_t midway = stats->getTickerCount(NUMBER_KEYS_WRITTEN);
  EXPECT_LE(midway, kThreads * kPerThread);
  for (auto& th : threads) th.join();

  EXPECT_EQ(kThreads * kPerThread, stats->getTickerCount(NUMBER_KEYS_WRITTEN));
  // Thread t adds t + 1 each time: kPerThread * (1 + 2 + ... + 8).
  EXPECT_EQ(kPerThread * 36, stats->getTickerCount(BYTES_WRITTEN));
  HistogramData d;
  stats->histogramData(DB_WRITE, &d);
  EXPECT_EQ(kThreads * kHistPerThread, d.count);
  // sum over t of (t * 1000 * kHistPerThread + (kHistPerThread / 100) * 4950)
  const uint64_t expected_sum =
      1000 * kHistPerThread * 28 + kThreads * (kHistPerThread / 100) * 4950;
  EXPECT_EQ(expected_sum, d.sum);
  EXPECT_EQ(0.0, d.min);
  EXPECT_EQ(7099.0, d.max);
}

}  // namespace
}  // namespace strata
