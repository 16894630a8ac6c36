// CompactionFilter: a user hook run on entries as flushes and compactions
// rewrite them, to drop or rewrite data (TTL expiry, garbage collection)
// without separate deletes. RocksDB's interface and semantics.
//
// The filter is called only for an entry no live snapshot can see (a
// version newer than every snapshot), so a snapshot reader never observes a
// filtered change. kRemove turns the version into a deletion (the key reads
// as absent afterwards); kChangeValue rewrites it. A manual compaction
// (CompactRange) with a filter configured rewrites every file it covers,
// the bottommost level included, so the filter sees every entry.
// Merge operands are offered through FilterMergeOperand / FilterV2 with
// ValueType::kMergeOperand.
// Thread-safety: a filter set in ColumnFamilyOptions::compaction_filter is
// shared by concurrent compactions and must be thread-safe; filters made by
// a CompactionFilterFactory serve one compaction (one thread) each.
#pragma once

#include <memory>
#include <string>

#include "strata/export.h"
#include "strata/slice.h"

namespace strata {

class STRATA_EXPORT CompactionFilter {
 public:
  enum class ValueType {
    kValue,
    kMergeOperand,
  };

  enum class Decision {
    kKeep,
    kRemove,
    kChangeValue,
    // Remove this entry and every key up to *skip_until (exclusive) in this
    // compaction (only when no snapshot exists; otherwise kept, as kKeep).
    kRemoveAndSkipUntil,
  };

  // Where the filter runs.
  struct Context {
    bool is_full_compaction = false;
    bool is_manual_compaction = false;
    uint32_t column_family_id = 0;
  };

  virtual ~CompactionFilter();

  // Return true to remove the entry; set *value_changed and *new_value to
  // rewrite it. level: the input level of the entry (0 for flushes).
  virtual bool Filter(int level, const Slice& key, const Slice& existing_value,
                      std::string* new_value, bool* value_changed) const;

  // Return true to remove a merge operand.
  virtual bool FilterMergeOperand(int level, const Slice& key, const Slice& operand) const;

  // The general form; the default calls Filter / FilterMergeOperand.
  virtual Decision FilterV2(int level, const Slice& key, ValueType value_type,
                            const Slice& existing_value, std::string* new_value,
                            std::string* skip_until) const;

  // Whether the filter also runs during flushes (RocksDB runs it only in
  // compactions by default).
  virtual bool FilterDuringFlush() const { return false; }

  virtual const char* Name() const = 0;
};

class STRATA_EXPORT CompactionFilterFactory {
 public:
  virtual ~CompactionFilterFactory();
  virtual std::unique_ptr<CompactionFilter> CreateCompactionFilter(
      const CompactionFilter::Context& context) = 0;
  // Whether flushes also get a filter from this factory (default: only
  // compactions, as RocksDB's ShouldFilterTableFileCreation).
  virtual bool FilterDuringFlush() const { return false; }
  virtual const char* Name() const = 0;
};

}  // namespace strata
