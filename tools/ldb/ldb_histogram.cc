// SizeHistogram (tools/ldb/ldb_histogram.h).

#include "tools/ldb/ldb_histogram.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <limits>

namespace strata::ldb {

SizeHistogram::SizeHistogram() {
  limits_ = {1, 2};
  double next = 2;
  while ((next *= 1.5) <= static_cast<double>(std::numeric_limits<uint64_t>::max())) {
    uint64_t v = static_cast<uint64_t>(next);
    uint64_t scale = 1;
    while (v / 10 > 10) {
      v /= 10;
      scale *= 10;
    }
    limits_.push_back(v * scale);
  }
  counts_.assign(limits_.size(), 0);
  min_ = limits_.back();
}

void SizeHistogram::Add(uint64_t value) {
  size_t b = limits_.size() - 1;
  if (value < limits_.back()) {
    b = std::lower_bound(limits_.begin(), limits_.end(), value) - limits_.begin();
  }
  ++counts_[b];
  min_ = std::min(min_, value);
  max_ = std::max(max_, value);
  ++num_;
  sum_ += value;
  sum_squares_ += value * value;
}

double SizeHistogram::Percentile(double p) const {
  const double threshold = static_cast<double>(num_) * (p / 100.0);
  uint64_t cumulative = 0;
  for (size_t b = 0; b < counts_.size(); ++b) {
    cumulative += counts_[b];
    if (static_cast<double>(cumulative) >= threshold) {
      const uint64_t left = b == 0 ? 0 : limits_[b - 1];
      const uint64_t right = limits_[b];
      const uint64_t left_sum = cumulative - counts_[b];
      double pos = 0;
      if (counts_[b] != 0) pos = (threshold - static_cast<double>(left_sum)) / counts_[b];
      double r = static_cast<double>(left) + static_cast<double>(right - left) * pos;
      r = std::max(r, static_cast<double>(min_));
      r = std::min(r, static_cast<double>(max_));
      return r;
    }
  }
  return static_cast<double>(max_);
}

std::string SizeHistogram::ToString() const {
  const double n = static_cast<double>(num_);
  const double average = num_ == 0 ? 0 : static_cast<double>(sum_) / n;
  double stddev = 0;
  if (num_ != 0) {
    const double s = static_cast<double>(sum_);
    const double variance = (static_cast<double>(sum_squares_) * n - s * s) / (n * n);
    stddev = std::sqrt(std::max(variance, 0.0));
  }
  char buf[256];
  std::string r;
  std::snprintf(buf, sizeof(buf), "Count: %" PRIu64 " Average: %.4f  StdDev: %.2f\n", num_, average,
                stddev);
  r.append(buf);
  std::snprintf(buf, sizeof(buf), "Min: %" PRIu64 "  Median: %.4f  Max: %" PRIu64 "\n",
                num_ == 0 ? 0 : min_, Percentile(50), num_ == 0 ? 0 : max_);
  r.append(buf);
  std::snprintf(
      buf, sizeof(buf), "Percentiles: P50: %.2f P75: %.2f P99: %.2f P99.9: %.2f P99.99: %.2f\n",
      Percentile(50), Percentile(75), Percentile(99), Percentile(99.9), Percentile(99.99));
  r.append(buf);
  r.append("------------------------------------------------------\n");
  if (num_ == 0) return r;
  const double mult = 100.0 / n;
  uint64_t cumulative = 0;
  for (size_t b = 0; b < counts_.size(); ++b) {
    if (counts_[b] == 0) continue;
    cumulative += counts_[b];
    std::snprintf(buf, sizeof(buf), "%c %7" PRIu64 ", %7" PRIu64 " ] %8" PRIu64 " %7.3f%% %7.3f%% ",
                  b == 0 ? '[' : '(', b == 0 ? 0 : limits_[b - 1], limits_[b], counts_[b],
                  mult * static_cast<double>(counts_[b]), mult * static_cast<double>(cumulative));
    r.append(buf);
    r.append(static_cast<size_t>(mult * static_cast<double>(counts_[b]) / 5 + 0.5), '#');
    r.push_back('\n');
  }
  return r;
}

}  // namespace strata::ldb
