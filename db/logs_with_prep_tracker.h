// LogsWithPrepTracker: which WAL files hold prepared sections of
// transactions that are neither committed nor rolled back. Two-phase
// commit keeps such a WAL -- and every later one -- until the transaction
// is resolved, because recovery rebuilds the prepared section from it
// (RocksDB's LogsWithPrepTracker, the part for outstanding prepares; the
// part for committed data still in memtables is each MemTable's
// GetMinLogContainingPrepSection).
//
// Thread-safety: thread-safe (an internal mutex, held for a map update).
// Invariant: the count of a WAL is the number of its prepared sections
// marked and not yet released; a WAL with count 0 is not in the map.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>

namespace strata {

class LogsWithPrepTracker {
 public:
  // A prepared section was logged in WAL `log` (or found there at open).
  void MarkLogAsContainingPrepSection(uint64_t log) {
    std::lock_guard<std::mutex> l(mu_);
    ++counts_[log];
  }
  // That section's transaction committed or rolled back.
  void MarkLogAsHavingPrepSectionFlushed(uint64_t log) {
    std::lock_guard<std::mutex> l(mu_);
    auto it = counts_.find(log);
    if (it != counts_.end() && --it->second == 0) counts_.erase(it);
  }
  // The oldest WAL with an outstanding prepared section, or 0.
  uint64_t FindMinLogContainingOutstandingPrep() const {
    std::lock_guard<std::mutex> l(mu_);
    return counts_.empty() ? 0 : counts_.begin()->first;
  }

 private:
  mutable std::mutex mu_;
  std::map<uint64_t, uint64_t> counts_;  // WAL number -> outstanding sections
};

}  // namespace strata
