// Histogram: a latency (or size) distribution with fixed exponential-ish
// buckets, giving count, average, standard deviation, min, median, max and
// any percentile (P50/P75/P99/P99.9/P99.99 in ToString), in the layout of
// RocksDB's db_bench histograms.
// Thread-safety: not thread-safe (one per thread, then Merge).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace strata {

class Histogram {
 public:
  Histogram();

  void Clear();
  void Add(uint64_t value);
  void Merge(const Histogram& other);

  uint64_t Count() const { return num_; }
  double Min() const { return static_cast<double>(min_); }
  double Max() const { return static_cast<double>(max_); }
  double Sum() const { return sum_; }
  double Median() const { return Percentile(50.0); }
  // p in [0, 100]; interpolated inside the bucket.
  double Percentile(double p) const;
  double Average() const;
  double StandardDeviation() const;

  // Multi-line report: "Count: N Average: A StdDev: S", "Min/Median/Max",
  // "Percentiles: P50 ... P99.99", then one line per non-empty bucket with
  // its share and cumulative share.
  std::string ToString() const;

  // The bucket limits (upper bounds, inclusive), ascending.
  static const std::vector<uint64_t>& BucketLimits();

 private:
  uint64_t min_;
  uint64_t max_;
  uint64_t num_;
  double sum_;
  double sum_squares_;
  std::vector<uint64_t> buckets_;
};

}  // namespace strata
