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
#include "strata/listener.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

struct ConfigOptions;  // strata/convenience.h

class STRATA_EXPORT CompactionFilter {
 public:
  enum class ValueType {
    kValue,
    kMergeOperand,
    kBlobIndex,  // RocksDB's BlobDB; never passed by Strata
  };
  // RocksDB's class-scope spellings (CompactionFilter::kValue).
  static constexpr ValueType kValue = ValueType::kValue;
  static constexpr ValueType kMergeOperand = ValueType::kMergeOperand;
  static constexpr ValueType kBlobIndex = ValueType::kBlobIndex;

  enum class Decision {
    kKeep,
    kRemove,
    kChangeValue,
    // Remove this entry and every key up to *skip_until (exclusive) in this
    // compaction (only when no snapshot exists; otherwise kept, as kKeep).
    kRemoveAndSkipUntil,
    // For a value: replace this version by a SingleDelete (it then cancels
    // against the next older Put, as RocksDB's kPurge; with several versions
    // of the key, an older one may show again). Where a Delete in its place
    // would be dropped (nothing older can exist), the version is dropped. For
    // a merge operand: remove it (as RocksDB).
    kPurge,
    // RocksDB's BlobDB answers. Returned for a value, each fails the
    // compaction with RocksDB's NotSupported ("Only stacked BlobDB's internal
    // compaction filter can return kChangeBlobIndex.", "CompactionFilter for
    // integrated BlobDB should not return kIOError", "FilterV2() should
    // never return kUndetermined"); for a merge operand they remove it (as
    // RocksDB).
    kChangeBlobIndex,
    kIOError,
    kUndetermined,
  };

  // RocksDB's BlobDB decisions (PrepareBlobOutput); Strata has no blob files.
  enum class BlobDecision { kKeep, kChangeValue, kCorruption, kIOError };

  // Where the filter runs.
  struct Context {
    bool is_full_compaction = false;
    bool is_manual_compaction = false;
    uint32_t column_family_id = 0;
    // kFlush or kRecovery (a flush; see CompactionFilterFactory::
    // ShouldFilterTableFileCreation) or kCompaction.
    TableFileCreationReason reason = TableFileCreationReason::kMisc;
  };

  virtual ~CompactionFilter();

  // The registry type name (RocksDB's Customizable::Type).
  static const char* Type() { return "CompactionFilter"; }
  // Strata has no built-in compaction filter: "" or "nullptr" sets *result =
  // nullptr; any other id is NotSupported ("Could not load CompactionFilter:
  // <id>"), or OK leaving *result unchanged when
  // config_options.ignore_unsupported_options is set (RocksDB's answers for an
  // id its registry does not hold).
  static Status CreateFromString(const ConfigOptions& config_options, const std::string& name,
                                 const CompactionFilter** result);

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

  // Must be true (the default): RocksDB 7.8.3 fails a compaction or flush
  // whose filter answers false with NotSupported("CompactionFilter::
  // IgnoreSnapshots() = false is not supported anymore."), and so does
  // Strata.
  virtual bool IgnoreSnapshots() const { return true; }

  // RocksDB's BlobDB hooks, with RocksDB's defaults; Strata never calls them
  // (it has no blob files).
  virtual Decision FilterBlobByKey(int /*level*/, const Slice& /*key*/, std::string* /*new_value*/,
                                   std::string* /*skip_until*/) const {
    return Decision::kUndetermined;
  }
  virtual BlobDecision PrepareBlobOutput(const Slice& /*key*/, const Slice& /*existing_value*/,
                                         std::string* /*new_value*/) const {
    return BlobDecision::kKeep;
  }
  virtual bool IsStackedBlobDbInternalCompactionFilter() const { return false; }

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
  // RocksDB's form of the question, asked for each table file a flush
  // (kFlush; kRecovery when the WAL is replayed at Open) or a compaction
  // (kCompaction) writes: whether it gets a filter from this factory. The
  // default answers kCompaction, and kFlush when FilterDuringFlush().
  virtual bool ShouldFilterTableFileCreation(TableFileCreationReason reason) const {
    return reason == TableFileCreationReason::kCompaction ||
           (reason == TableFileCreationReason::kFlush && FilterDuringFlush());
  }
  virtual const char* Name() const = 0;

  // The registry type name (RocksDB's Customizable::Type).
  static const char* Type() { return "CompactionFilterFactory"; }
  // As CompactionFilter::CreateFromString: Strata has no built-in factory.
  static Status CreateFromString(const ConfigOptions& config_options, const std::string& name,
                                 std::shared_ptr<CompactionFilterFactory>* result);
};

}  // namespace strata
