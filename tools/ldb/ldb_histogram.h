// SizeHistogram: the value-size distribution `dump --count_only` prints,
// with RocksDB's bucket limits (1, 2, then x1.5 rounded to two significant
// digits), its linear interpolation inside a bucket for percentiles, and
// its text layout, so the lines match ldb's. (util/histogram.h keeps
// db_bench's layout but places percentiles differently.)
// Thread-safety: not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace strata::ldb {

class SizeHistogram {
 public:
  SizeHistogram();
  void Add(uint64_t value);
  double Percentile(double p) const;
  std::string ToString() const;

 private:
  std::vector<uint64_t> limits_;  // bucket i holds values in (limits_[i-1], limits_[i]]
  std::vector<uint64_t> counts_;
  uint64_t min_;
  uint64_t max_ = 0;
  uint64_t num_ = 0;
  uint64_t sum_ = 0;
  uint64_t sum_squares_ = 0;
};

}  // namespace strata::ldb
