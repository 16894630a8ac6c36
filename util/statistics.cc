// The Statistics implementation behind CreateDBStatistics().
//
// Recording must not make threads on different cores fight over one cache
// line, so every counter and histogram exists once per shard, and a shard
// is picked by the CPU the caller runs on (sched_getcpu). Readers sum the
// tickers and merge the histograms of all shards.
//
//  - Tickers: relaxed atomic adds. A thread migrated between picking a
//    shard and adding still adds atomically; only locality suffers.
//  - Histograms: a Histogram per (shard, histogram) under its own mutex.
//    With shards per CPU the mutex is practically uncontended.
// A reader sees each shard's counters at some instant; the sum over shards
// is not one atomic snapshot while writers run (as in RocksDB).

#include "strata/statistics.h"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <iterator>
#include <memory>
#include <string>
#include <thread>

#include "util/histogram.h"
#include "util/mutex.h"

namespace strata {

namespace {

struct TickerInfo {
  Tickers ticker;
  const char* name;
};

// The single list of ticker names, in enum order (checked below).
constexpr TickerInfo kTickerInfo[] = {
    {BYTES_WRITTEN, "strata.bytes.written"},
    {BYTES_READ, "strata.bytes.read"},
    {NUMBER_KEYS_WRITTEN, "strata.number.keys.written"},
    {NUMBER_KEYS_READ, "strata.number.keys.read"},
    {NUMBER_KEYS_FOUND, "strata.number.keys.found"},
    {MEMTABLE_HIT, "strata.memtable.hit"},
    {MEMTABLE_MISS, "strata.memtable.miss"},
    {WAL_FILE_BYTES, "strata.wal.bytes"},
    {WAL_FILE_SYNCED, "strata.wal.synced"},
    {WRITE_DONE_BY_SELF, "strata.write.self"},
    {WRITE_DONE_BY_OTHER, "strata.write.other"},
    {WRITE_WITH_WAL, "strata.write.wal"},
    {NUMBER_DB_SEEK, "strata.number.db.seek"},
    {NUMBER_DB_NEXT, "strata.number.db.next"},
    {NUMBER_DB_PREV, "strata.number.db.prev"},
    {ITER_BYTES_READ, "strata.db.iter.bytes.read"},
    {STALL_MICROS, "strata.stall.micros"},
    {BLOCK_CACHE_MISS, "strata.block.cache.miss"},
    {BLOCK_CACHE_HIT, "strata.block.cache.hit"},
    {BLOCK_CACHE_ADD, "strata.block.cache.add"},
    {BLOCK_CACHE_ADD_FAILURES, "strata.block.cache.add.failures"},
    {BLOCK_READ_BYTES, "strata.block.read.bytes"},
    {BLOOM_FILTER_USEFUL, "strata.bloom.filter.useful"},
    {BLOOM_FILTER_FULL_POSITIVE, "strata.bloom.filter.full.positive"},
    {FLUSH_WRITE_BYTES, "strata.flush.write.bytes"},
    {COMPACT_READ_BYTES, "strata.compact.read.bytes"},
    {COMPACT_WRITE_BYTES, "strata.compact.write.bytes"},
    {BLOOM_FILTER_PREFIX_CHECKED, "strata.bloom.filter.prefix.checked"},
    {BLOOM_FILTER_PREFIX_USEFUL, "strata.bloom.filter.prefix.useful"},
};

struct HistogramInfo {
  Histograms histogram;
  const char* name;
};

constexpr HistogramInfo kHistogramInfo[] = {
    {DB_GET, "strata.db.get.micros"},
    {DB_WRITE, "strata.db.write.micros"},
    {DB_SEEK, "strata.db.seek.micros"},
    {WAL_FILE_SYNC_MICROS, "strata.wal.file.sync.micros"},
    {BYTES_PER_WRITE, "strata.bytes.per.write"},
    {WRITE_STALL, "strata.db.write.stall"},
};

constexpr bool TickerTableInOrder() {
  if (std::size(kTickerInfo) != TICKER_ENUM_MAX) return false;
  for (size_t i = 0; i < std::size(kTickerInfo); i++) {
    if (kTickerInfo[i].ticker != i) return false;
  }
  return true;
}
constexpr bool HistogramTableInOrder() {
  if (std::size(kHistogramInfo) != HISTOGRAM_ENUM_MAX) return false;
  for (size_t i = 0; i < std::size(kHistogramInfo); i++) {
    if (kHistogramInfo[i].histogram != i) return false;
  }
  return true;
}
static_assert(TickerTableInOrder(), "kTickerInfo must list every ticker in order");
static_assert(HistogramTableInOrder(), "kHistogramInfo must list every histogram in order");

constexpr size_t kCacheLine = 64;

struct alignas(kCacheLine) LockedHistogram {
  mutable Mutex mu;
  Histogram hist GUARDED_BY(mu);
};

struct alignas(kCacheLine) Shard {
  std::atomic<uint64_t> tickers[TICKER_ENUM_MAX] = {};
  LockedHistogram histograms[HISTOGRAM_ENUM_MAX];
};

size_t ShardCount() {
  const unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  size_t n = 1;
  while (n < cpus && n < 256) n <<= 1;
  return n;
}

class StatisticsImpl final : public Statistics {
 public:
  StatisticsImpl() : num_shards_(ShardCount()), shards_(new Shard[num_shards_]) {}

  uint64_t getTickerCount(uint32_t ticker) const override {
    if (ticker >= TICKER_ENUM_MAX) return 0;
    uint64_t sum = 0;
    for (size_t s = 0; s < num_shards_; s++) {
      // Relaxed: a counter value, not a publication of other data.
      sum += shards_[s].tickers[ticker].load(std::memory_order_relaxed);
    }
    return sum;
  }

  void recordTick(uint32_t ticker, uint64_t count) override {
    if (ticker >= TICKER_ENUM_MAX) return;
    // Relaxed: counters order nothing else.
    MyShard().tickers[ticker].fetch_add(count, std::memory_order_relaxed);
  }

  // Not atomic with respect to concurrent recordTick calls on other shards.
  void setTickerCount(uint32_t ticker, uint64_t count) override {
    if (ticker >= TICKER_ENUM_MAX) return;
    for (size_t s = 0; s < num_shards_; s++) {
      shards_[s].tickers[ticker].store(s == 0 ? count : 0, std::memory_order_relaxed);
    }
  }

  void measureTime(uint32_t histogram, uint64_t value) override {
    if (histogram >= HISTOGRAM_ENUM_MAX) return;
    LockedHistogram& h = MyShard().histograms[histogram];
    MutexLock lock(&h.mu);
    h.hist.Add(value);
  }

  void histogramData(uint32_t histogram, HistogramData* data) const override {
    const Histogram merged = Merged(histogram);
    data->median = merged.Median();
    data->percentile95 = merged.Percentile(95);
    data->percentile99 = merged.Percentile(99);
    data->average = merged.Average();
    data->standard_deviation = merged.StandardDeviation();
    data->max = merged.Max();
    data->min = merged.Min();
    data->count = merged.Count();
    data->sum = static_cast<uint64_t>(merged.Sum());
  }

  std::string getHistogramString(uint32_t histogram) const override {
    return Merged(histogram).ToString();
  }

  void Reset() override {
    for (size_t s = 0; s < num_shards_; s++) {
      for (auto& t : shards_[s].tickers) t.store(0, std::memory_order_relaxed);
      for (auto& h : shards_[s].histograms) {
        MutexLock lock(&h.mu);
        h.hist.Clear();
      }
    }
  }

  std::string ToString() const override {
    std::string r;
    char buf[512];
    for (const TickerInfo& t : kTickerInfo) {
      snprintf(buf, sizeof(buf), "%s COUNT : %" PRIu64 "\n", t.name, getTickerCount(t.ticker));
      r.append(buf);
    }
    for (const HistogramInfo& h : kHistogramInfo) {
      HistogramData d;
      histogramData(h.histogram, &d);
      snprintf(buf, sizeof(buf),
               "%s P50 : %f P95 : %f P99 : %f P100 : %f COUNT : %" PRIu64 " SUM : %" PRIu64 "\n",
               h.name, d.median, d.percentile95, d.percentile99, d.max, d.count, d.sum);
      r.append(buf);
    }
    return r;
  }

 private:
  Shard& MyShard() const {
    const int cpu = sched_getcpu();
    const size_t index = cpu < 0 ? 0 : static_cast<size_t>(cpu);
    return shards_[index & (num_shards_ - 1)];
  }

  Histogram Merged(uint32_t histogram) const {
    Histogram merged;
    if (histogram >= HISTOGRAM_ENUM_MAX) return merged;
    for (size_t s = 0; s < num_shards_; s++) {
      const LockedHistogram& h = shards_[s].histograms[histogram];
      MutexLock lock(&h.mu);
      merged.Merge(h.hist);
    }
    return merged;
  }

  // Immutable after construction: a power of two.
  const size_t num_shards_;
  const std::unique_ptr<Shard[]> shards_;
};

}  // namespace

const char* TickerName(uint32_t ticker) {
  return ticker < TICKER_ENUM_MAX ? kTickerInfo[ticker].name : "strata.unknown.ticker";
}

const char* HistogramName(uint32_t histogram) {
  return histogram < HISTOGRAM_ENUM_MAX ? kHistogramInfo[histogram].name
                                        : "strata.unknown.histogram";
}

std::shared_ptr<Statistics> CreateDBStatistics() { return std::make_shared<StatisticsImpl>(); }

}  // namespace strata
