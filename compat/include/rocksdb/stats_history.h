// rocksdb/stats_history.h: StatsHistoryIterator, RocksDB 7.8.3's view of the
// statistics snapshots DB::GetStatsHistory returns: one entry per sample
// time (seconds), each a map from ticker name to the ticker's growth since
// the sample before.
// Strata keeps no statistics history: DB::GetStatsHistory answers
// NotSupported, so an iterator comes only from a program's own subclass.
// Thread-safety: not thread-safe (one thread at a time per iterator).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "rocksdb/statistics.h"
#include "rocksdb/status.h"

namespace rocksdb {

class DBImpl;  // RocksDB-internal; named only

class StatsHistoryIterator {
 public:
  StatsHistoryIterator() {}
  virtual ~StatsHistoryIterator() {}

  virtual bool Valid() const = 0;
  // REQUIRES: Valid().
  virtual void Next() = 0;
  // REQUIRES: Valid(). The sample's time, in seconds since the epoch.
  virtual uint64_t GetStatsTime() const = 0;
  virtual int GetFormatVersion() const { return -1; }
  // REQUIRES: Valid(). Ticker name -> growth; valid until Next.
  virtual const std::map<std::string, uint64_t>& GetStatsMap() const = 0;
  virtual Status status() const = 0;
};

}  // namespace rocksdb
