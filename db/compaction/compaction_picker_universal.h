// Universal (tiered) compaction: the picker and the score function of
// kCompactionStyleUniversal, with RocksDB 7.8.3's algorithm
// (docs/design/universal-compaction.md).
//
// The tree is seen as a list of sorted runs, newest first: each level-0
// file (newest first), then each non-empty level >= 1 as one run. A
// compaction merges a stretch of adjacent runs into one run. When the
// number of runs reaches level0_file_num_compaction_trigger the picker
// tries, in RocksDB's order:
//   1. periodic compaction (some file older than the effective
//      periodic_compaction_seconds): every run from the newest one not
//      busy down to the oldest;
//   2. size amplification: when the runs newer than the oldest hold at
//      least max_size_amplification_percent of the oldest's bytes, all of
//      them are merged with the oldest;
//   3. size ratio: the first stretch (from the newest idle run) where each
//      next run is no bigger than (100 + size_ratio)% of what was taken
//      (stop_style), of min_merge_width..max_merge_width runs;
//   4. run count: the newest (runs - trigger + 1) idle runs, whatever
//      their sizes.
// With compaction_options_universal.incremental, step 2 first tries
// RocksDB's incremental pick (UniversalPickIncrementalWindow): a window of
// files of the second-last run (a level >= 1) with the files of the last
// level they overlap, about max_compaction_bytes / 2 in size, the window
// whose bottom bytes per upper byte (fan-out) are lowest; when no window
// beats 1.8x the full merge's fan-out, the full merge is done instead.
// The output level is the last level when the oldest run is included,
// else the level just above the first run left out (level 0 when that run
// is a level-0 file). With allow_ingest_behind the last level is kept for
// ingestion and never written.
//
// Thread-safety: as CompactionPicker (everything under the DB mutex).
// Invariants:
//  1. A picked stretch is adjacent runs, none being compacted, so newer
//     data never lands below older data.
//  2. The output level is >= every input level and holds no file outside
//     the inputs.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "db/compaction/compaction.h"
#include "strata/universal_compaction.h"

namespace strata {

// One sorted run of a Version.
struct UniversalSortedRun {
  int level = 0;                 // 0: a single level-0 file (`file`)
  FileMetaData* file = nullptr;  // the file when level == 0
  uint64_t size = 0;             // bytes of the run
  bool being_compacted = false;  // some file of the run is being compacted
  bool periodic_due = false;     // some idle file is due for periodic compaction
};

// The sorted runs of v, newest first. With skip_last_level (ingest behind)
// the last level is left out.
std::vector<UniversalSortedRun> UniversalSortedRuns(const Version& v, bool skip_last_level);

// The periodic-compaction age of universal compaction after RocksDB 7.8.3's
// sanitizing: ttl (default: 30 days for block-based tables) caps
// periodic_compaction_seconds, and kDefaultTtl means off. 0: off.
uint64_t UniversalPeriodicSeconds(const ColumnFamilyOptions& options);

// The universal scores of v: one entry for level 0 whose score is the
// idle runs / level0_file_num_compaction_trigger (RocksDB's), the pending
// bytes estimate (see the .cc) and the run count for the write stalls.
// Stores them with Version::SetCompactionScores.
void ComputeUniversalCompactionScores(const ColumnFamilyOptions& options, Version* v);

// The choice of one trigger: runs[start..end] (inclusive) are merged.
struct UniversalRunPick {
  size_t start = 0;
  size_t end = 0;
  CompactionReason reason = CompactionReason::kUnknown;
  // False when compression_size_percent says the output stays uncompressed.
  bool compress = true;
};

// The triggers on a list of runs (pure functions, for the picker and its
// tests). Each returns false when it does not fire.
// Periodic: from the oldest run up to the first busy one, when a run in it
// is periodic_due (a lone oldest run only when it is due itself).
bool UniversalPickPeriodic(const std::vector<UniversalSortedRun>& runs, UniversalRunPick* pick);
// Size amplification: all runs from the newest idle one to the oldest.
bool UniversalPickSizeAmp(const std::vector<UniversalSortedRun>& runs,
                          const CompactionOptionsUniversal& u, UniversalRunPick* pick);
// Size ratio (ratio = size_ratio, max_runs = UINT_MAX) or run count
// (ratio = UINT_MAX, max_runs = runs to merge).
bool UniversalPickSortedRuns(const std::vector<UniversalSortedRun>& runs,
                             const CompactionOptionsUniversal& u, unsigned int ratio,
                             unsigned int max_runs, UniversalRunPick* pick);
// Incremental size amplification (pure, for the picker and its tests):
// upper is the second-last run's files, bottom the last run's (each sorted
// by key, disjoint). Slides a window over upper, growing it at its end
// and, once the window plus the bottom files it overlaps pass
// threshold_bytes (or upper's end is reached), shrinking it from its
// start; a bottom file lying wholly between two consecutive upper files
// restarts the window. Of the windows measured, the one with the lowest
// fan-out (bottom bytes / upper bytes) below fanout_limit is returned as
// upper[*start..*end]; false when none is below the limit.
bool UniversalPickIncrementalWindow(const std::vector<FileMetaData*>& upper,
                                    const std::vector<FileMetaData*>& bottom,
                                    const InternalKeyComparator& icmp, uint64_t threshold_bytes,
                                    double fanout_limit, size_t* start, size_t* end);

// The output level of merging runs[start..end] in a Version of num_levels.
int UniversalOutputLevel(const std::vector<UniversalSortedRun>& runs, size_t start, size_t end,
                         int num_levels, bool allow_ingest_behind);

class UniversalCompactionPicker : public CompactionPicker {
 public:
  using CompactionPicker::CompactionPicker;
  // Score >= 1, or some idle file is due for periodic compaction.
  bool NeedsCompaction(const Version* v) const override;
  std::unique_ptr<Compaction> PickCompaction(Version* v) override;
  // As RocksDB: a manual compaction of all levels (DB::CompactRange) merges
  // every file of every level, whatever the range (a range's files would
  // not stay disjoint from the rest of the output level, as the level-0
  // and upper-level inputs reach past it); with one level the range picks
  // the level-0 files as the base class does.
  std::unique_ptr<Compaction> CompactRange(Version* v, int level, int output_level,
                                           const Slice* begin, const Slice* end,
                                           uint32_t output_path_id, bool* conflict) override;

 private:
  // A compaction of the pick's runs with RocksDB's output level, or
  // nullptr if its output range collides with a running compaction.
  std::unique_ptr<Compaction> FromRuns(Version* v, const std::vector<UniversalSortedRun>& runs,
                                       const UniversalRunPick& pick) REQUIRES(db_mu_);
  // The incremental size-amplification compaction (see the file comment)
  // for a size-amp pick, or nullptr (the caller then merges every run).
  std::unique_ptr<Compaction> IncrementalSizeAmp(Version* v,
                                                 const std::vector<UniversalSortedRun>& runs,
                                                 const UniversalRunPick& pick) REQUIRES(db_mu_);
  // Whether a file of v is due for periodic compaction at `now` (seconds).
  bool AnyFileDue(const Version* v, uint64_t now) const;
  uint64_t NowSeconds() const;
};

}  // namespace strata
