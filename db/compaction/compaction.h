// Compaction: one unit of leveled compaction work -- which files of a start
// level and of the output level are merged, where the output goes, and what
// bounds it -- plus the picker that chooses it from a Version's scores.
//
// Leveled compaction (RocksDB's default, DESIGN.md section 4): level 0 is
// compacted when it holds level0_file_num_compaction_trigger files, deeper
// levels when their size passes their target (fixed multiples of
// max_bytes_for_level_base, or with level_compaction_dynamic_level_bytes
// targets derived from the last level, L0 then going to the "base level").
// From a level >= 1 the picker takes the file whose overlap with the next
// level is smallest relative to its size (kMinOverlappingRatio). A
// compaction whose inputs are one run of files that overlap nothing in the
// output level is a trivial move: the files change level in the MANIFEST
// and are never rewritten.
//
// Thread-safety: picking and releasing happen under the DB mutex; a
// Compaction is then used by one background thread.
// Invariants:
//  1. Files of a running compaction are marked being_compacted; no other
//     compaction takes them, and no two running compactions write
//     overlapping key ranges into the same level.
//  2. inputs(1) holds every output-level file overlapping the inputs(0)
//     range, so the output level stays disjoint after the compaction.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "db/version_edit.h"
#include "db/version_set.h"
#include "strata/options.h"
#include "util/mutex.h"
#include "util/thread_annotations.h"

namespace strata {

class Compaction {
 public:
  ~Compaction();
  Compaction(const Compaction&) = delete;
  Compaction& operator=(const Compaction&) = delete;

  int start_level() const { return start_level_; }
  int output_level() const { return output_level_; }
  // which 0: start-level files; 1: output-level files.
  const std::vector<FileMetaData*>& inputs(int which) const { return inputs_[which]; }
  size_t num_input_files() const { return inputs_[0].size() + inputs_[1].size(); }
  uint64_t TotalInputBytes() const;
  const std::vector<FileMetaData*>& grandparents() const { return grandparents_; }
  uint64_t max_output_file_size() const { return max_output_file_size_; }
  bool bottommost() const { return bottommost_; }
  bool trivial_move() const { return trivial_move_; }
  bool manual() const { return manual_; }
  // CompactFiles' overrides: the output compression (kDisableCompressionOption:
  // the family's) and the subcompaction limit (0: the family's).
  CompressionType compression() const { return compression_; }
  uint32_t max_subcompactions() const { return max_subcompactions_; }
  double score() const { return score_; }
  Version* input_version() const { return input_version_; }
  // Smallest and largest user keys of all inputs.
  const std::string& smallest_user_key() const { return smallest_user_key_; }
  const std::string& largest_user_key() const { return largest_user_key_; }

  // True if user_key may exist in a level below the output level (so a
  // deletion of it must be kept). Keys must be asked in ascending order.
  bool KeyMayExistBelowOutput(const Slice& user_key);

  // Records the deletion of every input in edit.
  void AddInputDeletions(VersionEdit* edit) const;

  // Marks (or clears) being_compacted on every input. REQUIRES: DB mutex.
  void MarkFilesBeingCompacted(bool value);

  // "2@L1 + 3@L2 -> L2" for the LOG.
  std::string Summary() const;

 private:
  friend class CompactionPicker;
  Compaction(Version* input_version, int start_level, int output_level);

  Version* const input_version_;  // referenced
  const int start_level_;
  const int output_level_;
  std::vector<FileMetaData*> inputs_[2];
  std::vector<FileMetaData*> grandparents_;
  uint64_t max_output_file_size_ = 0;
  bool bottommost_ = false;
  bool trivial_move_ = false;
  bool manual_ = false;
  CompressionType compression_ = kDisableCompressionOption;
  uint32_t max_subcompactions_ = 0;
  double score_ = 0;
  std::string smallest_user_key_;
  std::string largest_user_key_;
  // KeyMayExistBelowOutput's position per level.
  size_t level_ptrs_[kMaxLevels] = {};
};

class CompactionPicker {
 public:
  // db_mu: the DB mutex, which guards the running compactions (borrowed).
  // options: the family's options in force (borrowed; replaced by
  // SetOptions).
  CompactionPicker(const Options* options, const InternalKeyComparator& icmp, Mutex* db_mu);

  // The family's options changed (the old object stays valid: compactions
  // picked before keep their sizes). REQUIRES: DB mutex.
  void SetOptions(const Options* options) {
    db_mu_->AssertHeld();
    options_.store(options, std::memory_order_release);
  }

  // True if some level of v scores >= 1 (ignoring files being compacted).
  bool NeedsCompaction(const Version* v) const;

  // The most urgent compaction that does not conflict with running ones,
  // or nullptr. Marks its files being_compacted. REQUIRES: DB mutex.
  std::unique_ptr<Compaction> PickCompaction(Version* v);

  // A manual compaction of [begin, end] (user keys; null = unbounded) from
  // `level` to output_level, or nullptr if the level has no file in range.
  // *conflict is set when the files are busy with another compaction (the
  // caller waits and retries). REQUIRES: DB mutex.
  std::unique_ptr<Compaction> CompactRange(Version* v, int level, int output_level,
                                           const Slice* begin, const Slice* end, bool* conflict);

  // Whether a running compaction writes into `level` within the user-key
  // range [smallest, largest] (ingestion may not put a file there).
  // REQUIRES: DB mutex (asserted).
  bool RangeOverlapWithCompaction(const Slice& smallest, const Slice& largest, int level) const {
    db_mu_->AssertHeld();
    return RangeBusyInOutputLevel(level, smallest, largest);
  }

  // DB::CompactFiles: a compaction of the files numbered `numbers` into
  // output_level after RocksDB's sanitizing (SanitizeCompactionInputFiles):
  // the inputs grow to every file between the first and last named one of
  // each level (level >= 1: also neighbours sharing a boundary user key;
  // level 0 into a deeper level: every older level-0 file), and to every
  // file of the levels down to output_level overlapping the inputs' range.
  // Never a trivial move. nullptr with *status: InvalidArgument for a file
  // not in v or below output_level, Aborted when a needed file is being
  // compacted or a running compaction writes an overlapping range of
  // output_level, NotSupported when the inputs span more than one level
  // above output_level or go into level 0 (Strata's jobs merge two levels).
  // REQUIRES: DB mutex.
  std::unique_ptr<Compaction> CompactFiles(Version* v, const std::vector<uint64_t>& numbers,
                                           int output_level, const CompactionOptions& options,
                                           Status* status);

  // Called when a compaction ends (either way). REQUIRES: DB mutex.
  void ReleaseCompaction(Compaction* c);

  // Output file size target for a level.
  uint64_t MaxFileSizeForLevel(int level) const;

  // REQUIRES: DB mutex.
  int running_compactions() const {
    db_mu_->AssertHeld();
    return static_cast<int>(running_.size());
  }

 private:
  // Fills inputs(1), grandparents, bottommost, trivial move, key range.
  // False if an output-level file is busy or the output range collides with
  // a running compaction.
  bool SetupOtherInputs(Compaction* c) REQUIRES(db_mu_);
  bool RangeBusyInOutputLevel(int output_level, const Slice& smallest, const Slice& largest) const
      REQUIRES(db_mu_);
  bool AnyBeingCompacted(const std::vector<FileMetaData*>& files) const REQUIRES(db_mu_);
  void Register(Compaction* c) REQUIRES(db_mu_);

  // The options in force: replaced under the DB mutex, read with acquire
  // (MaxFileSizeForLevel is also called without the mutex).
  std::atomic<const Options*> options_;
  // Immutable after construction.
  const InternalKeyComparator& icmp_;
  Mutex* const db_mu_;
  // Guarded by the DB mutex: the compactions picked and not yet released.
  std::vector<Compaction*> running_ GUARDED_BY(db_mu_);
};

}  // namespace strata
