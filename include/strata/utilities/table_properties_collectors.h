// CompactOnDeletionCollectorFactory: a table-properties collector factory
// (strata/table_properties.h) whose collectors mark a new table file for
// compaction when it holds many point deletions, so that tombstone-heavy
// files are rewritten (and their tombstones dropped) soon instead of when
// the level's size next calls for it. Names and semantics are RocksDB's
// (rocksdb/utilities/table_properties_collectors.h).
//
// A collector marks its file (TablePropertiesCollector::NeedCompact, which
// the engine records as marked_for_compaction and compacts with reason
// kFilesMarkedForCompaction) when either holds:
//   1. Window: some run of consecutive entries holds deletion_trigger
//      deletions. The window is kept as a ring of 128 buckets of
//      ceil(sliding_window_size / 128) entries each, so its length is
//      sliding_window_size rounded up to a multiple of 128; at the moment a
//      deletion is seen, the window covers the current (partly filled)
//      bucket and the 127 before it. sliding_window_size 0 turns the window
//      check off.
//   2. Ratio: deletion_ratio is in (0, 1] and, when the file is finished,
//      deletions / entries >= deletion_ratio. Any other ratio turns the
//      check off.
// A deletion is an entry of type kEntryDelete only: SingleDelete, range
// tombstones and the rest are counted as entries but not as deletions (as
// in RocksDB). Entries are counted as the table builder hands them over
// (point entries, then range tombstones).
//
// Thread-safety: the factory is thread-safe (its settings are atomics; a
// change applies to collectors made after it). Each collector is used by
// one thread.
#pragma once

#include <atomic>
#include <cstddef>
#include <map>
#include <memory>
#include <string>

#include "strata/export.h"
#include "strata/table_properties.h"

namespace strata {

class STRATA_EXPORT CompactOnDeletionCollectorFactory : public TablePropertiesCollectorFactory {
 public:
  // sliding_window_size "N", deletion_trigger "D", deletion_ratio (see the
  // file comment for each).
  CompactOnDeletionCollectorFactory(size_t sliding_window_size, size_t deletion_trigger,
                                    double deletion_ratio);
  ~CompactOnDeletionCollectorFactory() override {}

  // Caller owns the result.
  TablePropertiesCollector* CreateTablePropertiesCollector(
      TablePropertiesCollectorFactory::Context context) override;

  // Runtime setters: apply to files started after the call. A window size
  // of 0 turns the window check off; a ratio outside (0, 1] turns the ratio
  // check off.
  void SetWindowSize(size_t sliding_window_size) {
    sliding_window_size_.store(sliding_window_size, std::memory_order_relaxed);  // a plain knob
  }
  size_t GetWindowSize() const { return sliding_window_size_.load(std::memory_order_relaxed); }
  void SetDeletionTrigger(size_t deletion_trigger) {
    deletion_trigger_.store(deletion_trigger, std::memory_order_relaxed);  // a plain knob
  }
  size_t GetDeletionTrigger() const { return deletion_trigger_.load(std::memory_order_relaxed); }
  void SetDeletionRatio(double deletion_ratio) {
    deletion_ratio_.store(deletion_ratio, std::memory_order_relaxed);  // a plain knob
  }
  double GetDeletionRatio() const { return deletion_ratio_.load(std::memory_order_relaxed); }

  static const char* kClassName() { return "CompactOnDeletionCollector"; }
  const char* Name() const override { return kClassName(); }
  // "CompactOnDeletionCollector (Sliding window size = N Deletion trigger =
  // D Deletion ratio = R)", as RocksDB prints it.
  std::string ToString() const override;
  using TablePropertiesCollectorFactory::ToString;

 protected:
  // window_size, deletion_trigger, deletion_ratio (RocksDB's option names).
  std::map<std::string, std::string> SerializedOptions() const override;

 private:
  std::atomic<size_t> sliding_window_size_;
  std::atomic<size_t> deletion_trigger_;
  std::atomic<double> deletion_ratio_;
};

// A new factory (see above). deletion_ratio 0 (the default) turns the ratio
// check off.
STRATA_EXPORT std::shared_ptr<CompactOnDeletionCollectorFactory>
NewCompactOnDeletionCollectorFactory(size_t sliding_window_size, size_t deletion_trigger,
                                     double deletion_ratio = 0);

}  // namespace strata
