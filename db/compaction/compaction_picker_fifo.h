// FIFO compaction (RocksDB's kCompactionStyleFIFO): the family's tables
// stay in level 0, newest first, and are dropped oldest first -- by age
// (ttl) or when all of them together pass
// compaction_options_fifo.max_table_files_size -- with no rewrite: a
// deletion compaction removes them in one VersionEdit. With
// allow_compaction, runs of small level-0 files are merged into one
// level-0 file (intra-L0), which only reduces the file count.
//
// The rules, as RocksDB 7.8.3's FIFOCompactionPicker (see
// docs/design/fifo-and-ttl-compaction.md):
//  - TTL (reason kFIFOTtl): the oldest level-0 files whose creation time
//    (FifoFileTime) is older than now - ttl, stopping at the first younger
//    or unknown one; only when what remains fits max_table_files_size.
//  - Size (kFIFOMaxSize): when the total of every level passes the limit,
//    the oldest files of the deepest non-empty level go (level 0: from the
//    oldest; a deeper level left by another style: in key order) until the
//    total fits.
//  - Intra-L0 (kFIFOReduceNumFiles), when under the limit and
//    allow_compaction: RocksDB's FindIntraL0Compaction over the newest
//    files -- at least level0_file_num_compaction_trigger files, pulled in
//    while the bytes per removed file do not grow, below
//    1.1 x write_buffer_size per removed file and max_compaction_bytes in
//    all; output level 0, 16 MiB output files.
//  - One FIFO compaction at a time (RocksDB's rule: they are quick).
//  - A manual CompactRange is an automatic pick, whatever the range.
// Score (level 0 only): total level-0 bytes / max_table_files_size, raised
// to files / level0_file_num_compaction_trigger with allow_compaction and
// to the count of ttl-expired files with a ttl.
//
// Thread-safety: as CompactionPicker (the DB mutex).
#pragma once

#include <memory>

#include "db/compaction/compaction.h"

namespace strata {

class FIFOCompactionPicker : public CompactionPicker {
 public:
  using CompactionPicker::CompactionPicker;
  // Exactly when PickCompaction would pick (a dry run at the current
  // time: a Version's score neither sees time pass nor knows whether an
  // intra-L0 run qualifies, and a "needed" compaction that is never picked
  // would keep WaitForCompact waiting). REQUIRES: DB mutex.
  bool NeedsCompaction(const Version* v) const override;
  std::unique_ptr<Compaction> PickCompaction(Version* v) override;
  std::unique_ptr<Compaction> CompactRange(Version* v, int level, int output_level,
                                           const Slice* begin, const Slice* end,
                                           uint32_t output_path_id, bool* conflict) override;

 private:
  // What PickCompaction would do: delete `files` of `level`, or (intra_l0)
  // merge them into level 0.
  struct Plan {
    int level = 0;
    std::vector<FileMetaData*> files;
    CompactionReason reason = CompactionReason::kUnknown;
    bool intra_l0 = false;
  };
  bool MakePlan(const Version* v, Plan* plan) const REQUIRES(db_mu_);
  bool PlanTtl(const Version* v, uint64_t now, Plan* plan) const;
  bool PlanSize(const Version* v, Plan* plan) const REQUIRES(db_mu_);
};

// FIFO's score function for Version::ComputeCompactionScores: sets v's
// scores (level 0 only), the stall count (level-0 files) and no pending
// bytes. clock: for the ttl count (null: none counted).
void ComputeFifoCompactionScores(Version* v, const ColumnFamilyOptions& o, SystemClock* clock);

// RocksDB's FindIntraL0Compaction (see the file comment): the newest run
// of level0_files (newest first) worth merging, or false.
bool FindIntraL0Compaction(const std::vector<FileMetaData*>& level0_files,
                           size_t min_files_to_compact, uint64_t max_compact_bytes_per_del_file,
                           uint64_t max_compaction_bytes, std::vector<FileMetaData*>* out);

}  // namespace strata
