// FlushJob: writes one immutable memtable of a column family as level-0
// table file(s) and records them in a VersionEdit. The caller (BackgroundFlush,
// WAL recovery) commits the edit to the MANIFEST and retires the memtable.
//
// The job runs a CompactionIterator over the memtable (snapshots respected,
// merges pre-combined, range-deleted entries dropped, the compaction filter
// applied when it asks to run at flush time), cuts no file (a flush makes one
// table, or none when everything was dropped), syncs the file and the DB
// directory, keeps what it did in stats() (the caller records it in the
// family's InternalStats) and writes one LOG line.
//
// Thread-safety: one job, one thread. Run is called with the DB mutex held
// and releases it while it reads the memtable and writes the table.
// Invariants: on failure no file of the job stays listed anywhere (the
// obsolete-file scan removes it); on success every output is in the edit.
#pragma once

#include <memory>
#include <vector>

#include "base/dbformat.h"
#include "db/internal_stats.h"
#include "db/job_env.h"
#include "db/version_edit.h"
#include "strata/listener.h"
#include "strata/status.h"
#include "util/thread_annotations.h"

namespace strata {

class ColumnFamilyData;
class MemTable;

class FlushJob {
 public:
  // cfd and mem are borrowed; the caller keeps both referenced for the
  // job's life. snapshots: the live snapshots (ascending), taken under the
  // DB mutex.
  FlushJob(const JobEnv& env, ColumnFamilyData* cfd, MemTable* mem,
           std::vector<SequenceNumber> snapshots);
  FlushJob(const FlushJob&) = delete;
  FlushJob& operator=(const FlushJob&) = delete;

  // Writes the memtable and adds its table(s) to *edit at level 0;
  // *meta_out gets the (last) file, number 0 if nothing was written.
  // Tables already in *edit (earlier flushes of the same recovery) count as
  // older data of the family. REQUIRES: the DB mutex is held; it is
  // released while the job works and held again on return.
  Status Run(VersionEdit* edit, FileMetaData* meta_out)
      // The DB mutex is reached through JobEnv, which the analysis cannot
      // tie to the caller's; Run asserts it at run time (debug builds).
      NO_THREAD_SAFETY_ANALYSIS;

  // What a successful Run did (the caller sets cpu_micros if it measures it).
  const CompactionStats& stats() const { return stats_; }
  // Marks this a flush of an immutable memtable (not WAL recovery): it logs
  // flush_started, its tables are created for reason kFlush, and the first
  // one gets file_number (allocated by the caller, who announced it to the
  // listeners). Without it the job is a recovery flush (reason kRecovery,
  // no flush events). Call before Run.
  void SetBackgroundFlush(FlushReason reason, uint64_t file_number) {
    background_ = true;
    reason_ = reason;
    file_number_ = file_number;
  }
  // The properties of the (last) table written; null if none. Valid after
  // a successful Run.
  std::shared_ptr<const TableProperties> table_properties() const { return table_properties_; }

 private:
  const JobEnv env_;
  ColumnFamilyData* const cfd_;
  MemTable* const mem_;
  const std::vector<SequenceNumber> snapshots_;
  CompactionStats stats_;
  bool background_ = false;
  FlushReason reason_ = FlushReason::kOthers;
  uint64_t file_number_ = 0;
  std::shared_ptr<const TableProperties> table_properties_;
};

}  // namespace strata
