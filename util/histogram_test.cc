#include "util/histogram.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <string>

#include "test_util/testutil.h"

namespace strata {
namespace {

TEST(HistogramTest, BucketLimits) {
  const std::vector<uint64_t>& limits = Histogram::BucketLimits();
  const uint64_t expected_prefix[] = {1,   2,   3,   4,   5,   6,   7,   8,   9,    10,  12,
                                      14,  16,  18,  20,  25,  30,  35,  40,  45,   50,  60,
                                      70,  80,  90,  100, 120, 140, 160, 180, 200,  250, 300,
                                      350, 400, 450, 500, 600, 700, 800, 900, 1000, 1200};
  ASSERT_GT(limits.size(), std::size(expected_prefix));
  for (size_t i = 0; i < std::size(expected_prefix); i++) {
    EXPECT_EQ(expected_prefix[i], limits[i]) << i;
  }
  for (size_t i = 1; i < limits.size(); i++) {
    ASSERT_LT(limits[i - 1], limits[i]) << i;
  }
  EXPECT_EQ(std::numeric_limits<uint64_t>::max(), limits.back());
}

TEST(HistogramTest, Empty) {
  Histogram h;
  EXPECT_EQ(0u, h.Count());
  EXPECT_EQ(0.0, h.Min());
  EXPECT_EQ(0.0, h.Max());
  EXPECT_EQ(0.0, h.Sum());
  EXPECT_EQ(0.0, h.Average());
  EXPECT_EQ(0.0, h.StandardDeviation());
  EXPECT_EQ(0.0, h.Median());
  EXPECT_EQ(0.0, h.Percentile(99));
  EXPECT_EQ(
      "Count: 0 Average: 0.0000  StdDev: 0.00\n"
      "Min: 0  Median: 0.0000  Max: 0\n"
      "Percentiles: P50: 0.00 P75: 0.00 P99: 0.00 P99.9: 0.00 P99.99: 0.00\n"
      "------------------------------------------------------\n",
      h.ToString());
}

TEST(HistogramTest, SingleValue) {
  Histogram h;
  h.Add(42);
  EXPECT_EQ(1u, h.Count());
  EXPECT_EQ(42.0, h.Min());
  EXPECT_EQ(42.0, h.Max());
  EXPECT_EQ(42.0, h.Sum());
  EXPECT_EQ(42.0, h.Average());
  EXPECT_EQ(0.0, h.StandardDeviation());
  // Interpolation inside (40, 45] is clamped to [min, max].
  EXPECT_EQ(42.0, h.Median());
  EXPECT_EQ(42.0, h.Percentile(0));
  EXPECT_EQ(42.0, h.Percentile(100));
  EXPECT_EQ(
      "Count: 1 Average: 42.0000  StdDev: 0.00\n"
      "Min: 42  Median: 42.0000  Max: 42\n"
      "Percentiles: P50: 42.00 P75: 42.00 P99: 42.00 P99.9: 42.00 P99.99: "
      "42.00\n"
      "------------------------------------------------------\n"
      "(      40,      45 ]        1 100.000% 100.000% ####################\n",
      h.ToString());
}

TEST(HistogramTest, ZeroAndHugeValues) {
  Histogram h;
  h.Add(0);
  h.Add(std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(0.0, h.Min());
  EXPECT_EQ(static_cast<double>(std::numeric_limits<uint64_t>::max()), h.Max());
  EXPECT_EQ(0.0, h.Percentile(0));
  EXPECT_EQ(h.Max(), h.Percentile(100));
  const std::string s = h.ToString();
  EXPECT_NE(std::string::npos, s.find("[       0,       1 ]        1  50.000%")) << s;
  EXPECT_NE(std::string::npos, s.find("( 18000000000000000000, 18446744073709551615 ]        1 "
                                      " 50.000% 100.000% ##########"))
      << s;
}

TEST(HistogramTest, Uniform1To100) {
  Histogram h;
  for (uint64_t v = 1; v <= 100; v++) h.Add(v);
  EXPECT_EQ(100u, h.Count());
  EXPECT_EQ(1.0, h.Min());
  EXPECT_EQ(100.0, h.Max());
  EXPECT_EQ(5050.0, h.Sum());
  EXPECT_DOUBLE_EQ(50.5, h.Average());
  EXPECT_NEAR(28.87, h.StandardDeviation(), 0.01);
  EXPECT_NEAR(50.0, h.Median(), 1.0);
  EXPECT_NEAR(75.0, h.Percentile(75), 1.0);
  EXPECT_NEAR(99.0, h.Percentile(99), 1.0);
  EXPECT_NEAR(100.0, h.Percentile(100), 1e-9);
  // Percentiles never decrease.
  double prev = 0;
  for (double p = 0; p <= 100; p += 0.5) {
    const double v = h.Percentile(p);
    EXPECT_GE(v, prev) << p;
    EXPECT_GE(v, h.Min());
    EXPECT_LE(v, h.Max());
    prev = v;
  }
  const std::string s = h.ToString();
  std::istringstream lines(s);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ("Count: 100 Average: 50.5000  StdDev: 28.87", line);
  std::getline(lines, line);
  EXPECT_EQ("Min: 1  Median: 50.0000  Max: 100", line);
  std::getline(lines, line);
  EXPECT_EQ(0u, line.find("Percentiles: P50: 50.00 P75: 75.00 P99: 99.00")) << line;
  std::getline(lines, line);
  EXPECT_EQ(std::string(54, '-'), line);
  std::getline(lines, line);
  EXPECT_EQ("[       0,       1 ]        1   1.000%   1.000% ", line);
  std::getline(lines, line);
  EXPECT_EQ("(       1,       2 ]        1   1.000%   2.000% ", line);
  // The last bucket line: (90, 100] holds 91..100.
  std::string last;
  int bucket_lines = 2;
  while (std::getline(lines, line)) {
    last = line;
    bucket_lines++;
  }
  EXPECT_EQ("(      90,     100 ]       10  10.000% 100.000% ##", last);
  EXPECT_EQ(26, bucket_lines);  // 1..10 one each, then 12, 14, ..., 100
}

TEST(HistogramTest, MergeEqualsAddingAll) {
  std::mt19937_64 rng(test::RandomSeed());
  Histogram a, b, all;
  for (int i = 0; i < 10000; i++) {
    const uint64_t v = rng() >> (rng() % 64);
    (i % 3 == 0 ? a : b).Add(v);
    all.Add(v);
  }
  Histogram merged;
  merged.Merge(a);
  merged.Merge(b);
  EXPECT_EQ(all.Count(), merged.Count());
  EXPECT_EQ(all.Min(), merged.Min());
  EXPECT_EQ(all.Max(), merged.Max());
  // Sums are doubles added in another order: equal up to rounding.
  EXPECT_NEAR(all.Sum(), merged.Sum(), 1e-12 * all.Sum());
  EXPECT_NEAR(all.Average(), merged.Average(), 1e-12 * all.Average());
  EXPECT_NEAR(all.StandardDeviation(), merged.StandardDeviation(), 1e-9 * all.StandardDeviation());
  for (double p : {0.0, 10.0, 50.0, 75.0, 99.0, 99.9, 100.0}) {
    EXPECT_DOUBLE_EQ(all.Percentile(p), merged.Percentile(p)) << p;
  }
  // Merging an empty histogram changes nothing, in either direction.
  Histogram empty;
  const std::string before = merged.ToString();
  merged.Merge(empty);
  EXPECT_EQ(before, merged.ToString());
  empty.Merge(a);
  EXPECT_EQ(a.ToString(), empty.ToString());
}

TEST(HistogramTest, Clear) {
  Histogram h;
  for (uint64_t v = 0; v < 1000; v += 7) h.Add(v);
  ASSERT_GT(h.Count(), 0u);
  h.Clear();
  EXPECT_EQ(Histogram().ToString(), h.ToString());
  EXPECT_EQ(0u, h.Count());
  EXPECT_EQ(0.0, h.Sum());
  h.Add(5);
  EXPECT_EQ(5.0, h.Min());
  EXPECT_EQ(5.0, h.Max());
  EXPECT_EQ(5.0, h.Median());
}

}  // namespace
}  // namespace strata
