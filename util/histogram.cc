// Histogram buckets: 1, 2, ..., 9, then 16 steps per decade (10, 12, 14, 16,
// 18, 20, 25, 30, 35, 40, 45, 50, 60, 70, 80, 90, times powers of ten), up
// to 1.8e19, and a last bucket ending at UINT64_MAX. Bucket b holds the
// values in (limit[b-1], limit[b]]; bucket 0 holds [0, limit[0]].

#include "util/histogram.h"

#include <algorithm>
#include <array>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <limits>

namespace strata {

namespace {

constexpr uint64_t kMaxValue = std::numeric_limits<uint64_t>::max();
constexpr uint64_t kDecadeSteps[] = {10, 12, 14, 16, 18, 20, 25, 30,
                                     35, 40, 45, 50, 60, 70, 80, 90};

// Calls emit(limit) for every bucket limit, ascending.
template <typename Emit>
constexpr void ForEachLimit(Emit emit) {
  for (uint64_t v = 1; v < 10; v++) emit(v);
  for (uint64_t scale = 1;; scale *= 10) {
    for (uint64_t step : kDecadeSteps) {
      if (step > kMaxValue / scale) {
        emit(kMaxValue);
        return;
      }
      emit(step * scale);
    }
  }
}

constexpr size_t CountLimits() {
  size_t n = 0;
  ForEachLimit([&n](uint64_t) { n++; });
  return n;
}

constexpr size_t kNumBuckets = CountLimits();

constexpr std::array<uint64_t, kNumBuckets> MakeLimits() {
  std::array<uint64_t, kNumBuckets> limits{};
  size_t i = 0;
  ForEachLimit([&](uint64_t v) { limits[i++] = v; });
  return limits;
}

constexpr std::array<uint64_t, kNumBuckets> kLimits = MakeLimits();
static_assert(kLimits[9] == 10 && kLimits[10] == 12 && kLimits[25] == 100);
static_assert(kLimits[kNumBuckets - 1] == kMaxValue);
static_assert(kLimits[kNumBuckets - 2] == 18000000000000000000ull);

inline size_t BucketIndex(uint64_t value) {
  // The first limit >= value; the last limit is UINT64_MAX, so one exists.
  return static_cast<size_t>(std::lower_bound(kLimits.begin(), kLimits.end(), value) -
                             kLimits.begin());
}

inline uint64_t BucketLeft(size_t b) { return b == 0 ? 0 : kLimits[b - 1]; }

}  // namespace

const std::vector<uint64_t>& Histogram::BucketLimits() {
  static const std::vector<uint64_t> limits(kLimits.begin(), kLimits.end());
  return limits;
}

Histogram::Histogram() : buckets_(kNumBuckets, 0) { Clear(); }

void Histogram::Clear() {
  min_ = 0;
  max_ = 0;
  num_ = 0;
  sum_ = 0;
  sum_squares_ = 0;
  std::fill(buckets_.begin(), buckets_.end(), 0);
}

void Histogram::Add(uint64_t value) {
  buckets_[BucketIndex(value)]++;
  if (num_ == 0) {
    min_ = value;
    max_ = value;
  } else {
    min_ = std::min(min_, value);
    max_ = std::max(max_, value);
  }
  num_++;
  const double v = static_cast<double>(value);
  sum_ += v;
  sum_squares_ += v * v;
}

void Histogram::Merge(const Histogram& other) {
  if (other.num_ == 0) return;
  if (num_ == 0) {
    min_ = other.min_;
    max_ = other.max_;
  } else {
    min_ = std::min(min_, other.min_);
    max_ = std::max(max_, other.max_);
  }
  num_ += other.num_;
  sum_ += other.sum_;
  sum_squares_ += other.sum_squares_;
  for (size_t b = 0; b < kNumBuckets; b++) buckets_[b] += other.buckets_[b];
}

double Histogram::Percentile(double p) const {
  if (num_ == 0) return 0;
  const double threshold = static_cast<double>(num_) * (p / 100.0);
  uint64_t cumulative = 0;
  for (size_t b = 0; b < kNumBuckets; b++) {
    const uint64_t in_bucket = buckets_[b];
    cumulative += in_bucket;
    if (in_bucket == 0 || static_cast<double>(cumulative) < threshold) {
      continue;
    }
    // Assume the bucket's values are spread evenly over its range.
    const double below = static_cast<double>(cumulative - in_bucket);
    const double left = static_cast<double>(BucketLeft(b));
    const double right = static_cast<double>(kLimits[b]);
    const double fraction = (threshold - below) / static_cast<double>(in_bucket);
    const double r = left + (right - left) * fraction;
    return std::clamp(r, static_cast<double>(min_), static_cast<double>(max_));
  }
  return static_cast<double>(max_);
}

double Histogram::Average() const { return num_ == 0 ? 0 : sum_ / static_cast<double>(num_); }

double Histogram::StandardDeviation() const {
  if (num_ == 0) return 0;
  const double n = static_cast<double>(num_);
  const double variance = (sum_squares_ * n - sum_ * sum_) / (n * n);
  return variance <= 0 ? 0 : std::sqrt(variance);
}

std::string Histogram::ToString() const {
  std::string r;
  char buf[256];
  snprintf(buf, sizeof(buf), "Count: %" PRIu64 " Average: %.4f  StdDev: %.2f\n", num_, Average(),
           StandardDeviation());
  r.append(buf);
  snprintf(buf, sizeof(buf), "Min: %" PRIu64 "  Median: %.4f  Max: %" PRIu64 "\n", min_, Median(),
           max_);
  r.append(buf);
  snprintf(buf, sizeof(buf),
           "Percentiles: P50: %.2f P75: %.2f P99: %.2f P99.9: %.2f P99.99: "
           "%.2f\n",
           Percentile(50), Percentile(75), Percentile(99), Percentile(99.9), Percentile(99.99));
  r.append(buf);
  r.append("------------------------------------------------------\n");
  if (num_ == 0) return r;
  const double percent_per_value = 100.0 / static_cast<double>(num_);
  uint64_t cumulative = 0;
  for (size_t b = 0; b < kNumBuckets; b++) {
    const uint64_t in_bucket = buckets_[b];
    if (in_bucket == 0) continue;
    cumulative += in_bucket;
    const double percent = percent_per_value * static_cast<double>(in_bucket);
    snprintf(buf, sizeof(buf), "%c %7" PRIu64 ", %7" PRIu64 " ] %8" PRIu64 " %7.3f%% %7.3f%% ",
             b == 0 ? '[' : '(', BucketLeft(b), kLimits[b], in_bucket, percent,
             percent_per_value * static_cast<double>(cumulative));
    r.append(buf);
    // One mark per 5% of the values.
    r.append(static_cast<size_t>(percent / 5 + 0.5), '#');
    r.push_back('\n');
  }
  return r;
}

}  // namespace strata
