// CompactionJob: runs one picked (or manual) compaction of a column family
// and commits its result. A trivial move re-files the inputs one level down
// in a VersionEdit; any other job merges the inputs of its two levels
// (a MergingIterator over L0 tables and LevelIterators), runs them through
// BuildTables (db/builder.h) -- split by key range into subcompactions that
// run in parallel threads when the job is large and max_subcompactions > 1 --
// syncs the outputs and the DB directory, and commits one VersionEdit that
// adds the outputs and deletes the inputs. It keeps what it did in stats()
// (the caller records it) and writes the job's LOG line.
//
// Thread-safety: one job, one thread (plus the subcompaction threads it
// starts and joins). Run is called with the DB mutex held and releases it
// while it reads and writes tables.
// Invariants: the job commits all of its outputs or none; a failed job's
// files are listed nowhere (the obsolete-file scan removes them).
#pragma once

#include <string>
#include <vector>

#include "base/dbformat.h"
#include "db/internal_stats.h"
#include "db/job_env.h"
#include "db/version_edit.h"
#include "strata/comparator.h"
#include "strata/listener.h"
#include "strata/status.h"
#include "util/thread_annotations.h"

namespace strata {

class ColumnFamilyData;
class Compaction;

class CompactionJob {
 public:
  // cfd and c are borrowed and outlive the job; snapshots: the live
  // snapshots (ascending), taken under the DB mutex.
  CompactionJob(const JobEnv& env, ColumnFamilyData* cfd, Compaction* c,
                std::vector<SequenceNumber> snapshots);
  CompactionJob(const CompactionJob&) = delete;
  CompactionJob& operator=(const CompactionJob&) = delete;

  // Runs the compaction and commits it to the MANIFEST (LogAndApply). The
  // caller installs a new SuperVersion afterwards. REQUIRES: the DB mutex
  // is held; it is released while the job works and held again on return.
  Status Run()
      // The DB mutex is reached through JobEnv, which the analysis cannot
      // tie to the caller's; Run asserts it at run time (debug builds).
      NO_THREAD_SAFETY_ANALYSIS;

  // What a successful Run did (the caller sets cpu_micros if it measures it).
  const CompactionStats& stats() const { return stats_; }
  // What the listeners are told: filled as Run goes (inputs at its start,
  // outputs, stats and status at its end). Run calls OnCompactionBegin
  // itself, with the DB mutex released; the caller calls
  // OnCompactionCompleted with this after installing the result.
  const CompactionJobInfo& info() const { return info_; }

 private:
  // Fills the input side of info_ and logs compaction_started (trivial
  // moves log trivial_move at their end instead). REQUIRES: the DB mutex.
  void PrepareInfo();
  // Calls OnCompactionBegin. REQUIRES: the DB mutex is not held.
  void NotifyBegin();

  const JobEnv env_;
  ColumnFamilyData* const cfd_;
  Compaction* const c_;
  const std::vector<SequenceNumber> snapshots_;
  CompactionStats stats_;
  CompactionJobInfo info_;
};

// Why RocksDB would have run compaction c (leveled compaction's reasons).
CompactionReason CompactionReasonOf(const Compaction& c);

// Splits a compaction of `inputs` into at most n key ranges of similar input
// size; returns the n-1 boundaries (user keys, ascending).
std::vector<std::string> SubcompactionBoundaries(const Comparator* user_cmp,
                                                 const std::vector<FileMetaData*>& inputs, int n);

}  // namespace strata
