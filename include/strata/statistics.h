// Statistics: process-wide counters ("tickers") and latency histograms a DB
// updates when Options::statistics is set (CreateDBStatistics()).
//
// Tickers and histograms are declared once, in the tables below; their
// printable names come from the same tables (TickerName, HistogramName).
// Thread-safety: thread-safe. Recording is a relaxed atomic add.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "strata/export.h"

namespace strata {

// Never renumber: the order is the index into the counter array.
enum Tickers : uint32_t {
  BYTES_WRITTEN = 0,    // user bytes given to Put/Delete/Write (batch payload)
  BYTES_READ,           // value bytes returned by Get
  NUMBER_KEYS_WRITTEN,  // counted records applied
  NUMBER_KEYS_READ,     // Get calls
  NUMBER_KEYS_FOUND,    // Get calls that found a value
  MEMTABLE_HIT,
  MEMTABLE_MISS,
  WAL_FILE_BYTES,       // bytes appended to WAL files
  WAL_FILE_SYNCED,      // WAL syncs
  WRITE_DONE_BY_SELF,   // write groups led by the calling thread
  WRITE_DONE_BY_OTHER,  // writes committed by another thread's group
  WRITE_WITH_WAL,       // writes that went through the WAL
  NUMBER_DB_SEEK,
  NUMBER_DB_NEXT,
  NUMBER_DB_PREV,
  ITER_BYTES_READ,
  STALL_MICROS,      // time writers spent in a write stall
  BLOCK_CACHE_MISS,  // table blocks not found in the block cache
  BLOCK_CACHE_HIT,
  BLOCK_CACHE_ADD,  // blocks inserted into the block cache
  BLOCK_CACHE_ADD_FAILURES,
  BLOCK_READ_BYTES,            // bytes read from table files for blocks
  BLOOM_FILTER_USEFUL,         // point lookups a filter answered "absent"
  BLOOM_FILTER_FULL_POSITIVE,  // point lookups a filter let through
  FLUSH_WRITE_BYTES,           // bytes of level-0 tables written by flushes
  COMPACT_READ_BYTES,          // input bytes of compactions (trivial moves excluded)
  COMPACT_WRITE_BYTES,         // bytes of tables written by compactions
  // Prefix filter probes (table Get on a prefix-only filter, PrefixMayMatch)
  BLOOM_FILTER_PREFIX_CHECKED,
  // ...that answered "absent"
  BLOOM_FILTER_PREFIX_USEFUL,
  TICKER_ENUM_MAX
};

enum Histograms : uint32_t {
  DB_GET = 0,
  DB_WRITE,
  DB_SEEK,
  WAL_FILE_SYNC_MICROS,
  BYTES_PER_WRITE,
  WRITE_STALL,
  HISTOGRAM_ENUM_MAX
};

STRATA_EXPORT const char* TickerName(uint32_t ticker);
STRATA_EXPORT const char* HistogramName(uint32_t histogram);

struct STRATA_EXPORT HistogramData {
  double median = 0;
  double percentile95 = 0;
  double percentile99 = 0;
  double average = 0;
  double standard_deviation = 0;
  double max = 0;
  double min = 0;
  uint64_t count = 0;
  uint64_t sum = 0;
};

class STRATA_EXPORT Statistics {
 public:
  virtual ~Statistics() = default;
  virtual uint64_t getTickerCount(uint32_t ticker) const = 0;
  virtual void recordTick(uint32_t ticker, uint64_t count = 1) = 0;
  virtual void setTickerCount(uint32_t ticker, uint64_t count) = 0;
  virtual void measureTime(uint32_t histogram, uint64_t value) = 0;
  virtual void histogramData(uint32_t histogram, HistogramData* data) const = 0;
  virtual std::string getHistogramString(uint32_t histogram) const = 0;
  virtual void Reset() = 0;
  // All tickers and histograms, one per line, in RocksDB's
  // "rocksdb.<name> COUNT : N" shape with the strata. prefix.
  virtual std::string ToString() const = 0;
};

STRATA_EXPORT std::shared_ptr<Statistics> CreateDBStatistics();

}  // namespace strata
