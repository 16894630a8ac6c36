// Compaction: one unit of compaction work -- which files of which levels
// are merged, where the output goes, and what bounds it -- and the
// CompactionPicker that chooses it, one subclass per compaction style
// (docs/design/compaction-styles.md).
//
// A Compaction's inputs are files of one or more levels (ascending). Level-0
// files are each their own sorted run; a level >= 1 is one sorted run. The
// output is one sorted run written to output_level (>= every input level).
// Leveled compaction takes a start level and the level it goes into;
// universal compaction takes a stretch of adjacent sorted runs (level-0
// files and whole levels); FIFO deletes files (a deletion compaction, no
// output) or merges level-0 files into one. A compaction whose inputs
// overlap nothing at the output level, and each other not either, may be a
// trivial move: the files change level in the MANIFEST, never rewritten.
//
// Leveled compaction (RocksDB's default, DESIGN.md section 4): level 0 is
// compacted when it holds level0_file_num_compaction_trigger files, deeper
// levels when their size passes their target (fixed multiples of
// max_bytes_for_level_base, or with level_compaction_dynamic_level_bytes
// targets derived from the last level, L0 then going to the "base level").
// From a level >= 1 the picker takes the file whose overlap with the next
// level is smallest relative to its size (kMinOverlappingRatio).
//
// Thread-safety: picking and releasing happen under the DB mutex; a
// Compaction is then used by one background thread.
// Invariants:
//  1. Files of a running compaction are marked being_compacted; no other
//     compaction takes them, and no two running compactions write
//     overlapping key ranges into the same level.
//  2. A compaction's inputs at the output level hold every output-level
//     file overlapping the inputs' range, so the output level stays
//     disjoint (levels >= 1).
//  3. Level-0 inputs are a run of consecutive level-0 files by age, and a
//     level-0 output is ordered among the remaining level-0 files by its
//     sequence numbers: newer data never ends up behind older data.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "db/version_edit.h"
#include "db/version_set.h"
#include "strata/listener.h"
#include "strata/options.h"
#include "util/concurrent_task_limiter_impl.h"
#include "util/mutex.h"
#include "util/thread_annotations.h"

namespace strata {

// The files one compaction takes from one level.
struct CompactionInputFiles {
  int level = 0;
  std::vector<FileMetaData*> files;
};

class Compaction {
 public:
  ~Compaction();
  Compaction(const Compaction&) = delete;
  Compaction& operator=(const Compaction&) = delete;

  // The input levels, ascending by level (the last one may be the output
  // level; an input level may have no files).
  size_t num_input_levels() const { return inputs_.size(); }
  int level(size_t which) const { return inputs_[which].level; }
  const std::vector<FileMetaData*>& inputs(size_t which) const { return inputs_[which].files; }
  const std::vector<CompactionInputFiles>& input_levels() const { return inputs_; }
  // The first input level (the level the compaction is "from").
  int start_level() const { return inputs_.empty() ? output_level_ : inputs_.front().level; }
  int output_level() const { return output_level_; }
  size_t num_input_files() const;
  // The input files at the output level (empty when no input level is it).
  const std::vector<FileMetaData*>& output_level_inputs() const;
  uint64_t TotalInputBytes() const;
  const std::vector<FileMetaData*>& grandparents() const { return grandparents_; }
  uint64_t max_output_file_size() const { return max_output_file_size_; }
  bool bottommost() const { return bottommost_; }
  bool trivial_move() const { return trivial_move_; }
  // A deletion compaction (FIFO): the inputs are dropped, nothing is written.
  bool deletion_compaction() const { return deletion_compaction_; }
  bool manual() const { return manual_; }
  CompactionReason reason() const { return reason_; }
  // The output compression chosen by the picker, or kDisableCompressionOption
  // for the family's choice for the output level (CompactFiles' override,
  // universal's compression_size_percent).
  CompressionType compression() const { return compression_; }
  // The subcompaction limit (0: the family's).
  uint32_t max_subcompactions() const { return max_subcompactions_; }
  double score() const { return score_; }
  // Which of the family's table directories (options.cf_paths, sanitized:
  // TablePathsOf) the outputs are written to: LevelOutputPathId /
  // UniversalOutputPathId for automatic compactions, the caller's for manual
  // ones, 0 for FIFO.
  uint32_t output_path_id() const { return output_path_id_; }
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

  // For the pickers (all under the DB mutex, before the compaction is
  // registered). Adds an input level (levels must come in ascending order).
  std::vector<FileMetaData*>* AddInputLevel(int level);
  // The key range of the inputs, grandparents, bottommost and the output
  // file size, from the inputs (SetupOtherInputs does this for leveled).
  void FinishSetup(uint64_t max_output_file_size, bool allow_ingest_behind);
  void set_reason(CompactionReason r) { reason_ = r; }
  void set_score(double s) { score_ = s; }
  void set_trivial_move(bool v) { trivial_move_ = v; }
  void set_deletion_compaction(bool v) { deletion_compaction_ = v; }
  void set_compression(CompressionType c) { compression_ = c; }
  void set_manual(bool v) { manual_ = v; }
  void set_output_path_id(uint32_t p) { output_path_id_ = p; }
  // Replaces the files output cutting aligns to (universal: none).
  void set_grandparents(std::vector<FileMetaData*> g) { grandparents_ = std::move(g); }
  // The slot of the family's compaction_thread_limiter this compaction
  // holds (returned when the Compaction is destroyed; null: none).
  void set_task_token(std::unique_ptr<TaskLimiterToken> t) { task_token_ = std::move(t); }

  Compaction(Version* input_version, int output_level);

 private:
  friend class CompactionPicker;  // SetupOtherInputs, CompactFiles fill the fields
  Version* const input_version_;  // referenced
  const int output_level_;
  std::vector<CompactionInputFiles> inputs_;
  std::vector<FileMetaData*> grandparents_;
  uint64_t max_output_file_size_ = 0;
  bool bottommost_ = false;
  bool trivial_move_ = false;
  bool deletion_compaction_ = false;
  bool manual_ = false;
  CompactionReason reason_ = CompactionReason::kUnknown;
  CompressionType compression_ = kDisableCompressionOption;
  uint32_t max_subcompactions_ = 0;
  double score_ = 0;
  uint32_t output_path_id_ = 0;
  std::string smallest_user_key_;
  std::string largest_user_key_;
  // KeyMayExistBelowOutput's position per level.
  size_t level_ptrs_[kMaxLevels] = {};
  std::unique_ptr<TaskLimiterToken> task_token_;
};

// Output placement over a family's table paths (options.cf_paths, at least
// one), RocksDB 7.8.3's rules:
//  - leveled (its LevelCompactionBuilder::GetPathId): levels fill the paths
//    in order. Level 0 and level 1 are each estimated at
//    max_bytes_for_level_base, each deeper level at the one above times
//    max_bytes_for_level_multiplier (and the level's
//    max_bytes_for_level_multiplier_additional). Walking the levels from 0,
//    a level goes into the current path if it fits in what the levels
//    before it left of that path's target_size, else the next path starts
//    (empty); the result is the path `level` lands in, the last path
//    taking whatever does not fit.
//  - universal (its UniversalCompactionBuilder::GetPathId): the first path
//    p whose target_size exceeds output_size and where the space of paths
//    0..p, less the output, is more than the output shrunk by size_ratio
//    percent (room for the runs that will be written before it is
//    compacted again); else the last path.
uint32_t LevelOutputPathId(const Options& options, int level);
uint32_t UniversalOutputPathId(const Options& options, uint64_t output_size);

// CompactRange's `level` for "every level at once" (universal and FIFO
// compact the whole range as one job, as RocksDB does).
constexpr int kCompactAllLevels = -1;

// Chooses compactions for one column family. The base class holds what
// every style shares (the running set, manual and CompactFiles jobs, the
// leveled input expansion); a subclass per style picks automatic jobs.
class CompactionPicker {
 public:
  // db_mu: the DB mutex, which guards the running compactions (borrowed).
  // options: the family's options in force (borrowed; replaced by
  // SetOptions).
  CompactionPicker(const Options* options, const InternalKeyComparator& icmp, Mutex* db_mu);
  virtual ~CompactionPicker();
  CompactionPicker(const CompactionPicker&) = delete;
  CompactionPicker& operator=(const CompactionPicker&) = delete;

  // The family's options changed (the old object stays valid: compactions
  // picked before keep their sizes). REQUIRES: DB mutex.
  void SetOptions(const Options* options) {
    db_mu_->AssertHeld();
    options_.store(options, std::memory_order_release);
  }

  // True if an automatic compaction is due in v (by default: some score of
  // v is >= 1; the scores ignore files being compacted).
  virtual bool NeedsCompaction(const Version* v) const;

  // The most urgent automatic compaction that does not conflict with
  // running ones, or nullptr. Marks its files being_compacted.
  // REQUIRES: DB mutex.
  virtual std::unique_ptr<Compaction> PickCompaction(Version* v) = 0;

  // A manual compaction of [begin, end] (user keys; null = unbounded) from
  // `level` to output_level, or nullptr if the level has no file in range.
  // level == kCompactAllLevels: the files of every level overlapping the
  // range, merged into output_level as one job. *conflict is set when the
  // files are busy with another compaction (the caller waits and retries).
  // REQUIRES: DB mutex.
  // The outputs go to output_path_id (RocksDB's CompactRangeOptions::target_path_id,
  // checked by the caller), as in RocksDB.
  virtual std::unique_ptr<Compaction> CompactRange(Version* v, int level, int output_level,
                                                   const Slice* begin, const Slice* end,
                                                   uint32_t output_path_id, bool* conflict);

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
  // Output level 0 takes level-0 files only. Never a trivial move. nullptr
  // with *status: InvalidArgument for a file not in v or below
  // output_level, Aborted when a needed file is being compacted or a
  // running compaction writes an overlapping range of output_level.
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

 protected:
  const Options& options() const { return *options_.load(std::memory_order_acquire); }
  const InternalKeyComparator& icmp() const { return icmp_; }
  // The compactions picked and not yet released. REQUIRES: DB mutex.
  const std::vector<Compaction*>& running() const REQUIRES(db_mu_) { return running_; }

  // For a compaction holding its start-level inputs: adds the output
  // level's overlapping files, grandparents, bottommost, trivial move, key
  // range. False if an output-level file is busy or the output range
  // collides with a running compaction.
  bool SetupOtherInputs(Compaction* c) REQUIRES(db_mu_);
  bool RangeBusyInOutputLevel(int output_level, const Slice& smallest, const Slice& largest) const
      REQUIRES(db_mu_);
  bool AnyBeingCompacted(const std::vector<FileMetaData*>& files) const REQUIRES(db_mu_);
  // Marks the files and adds c to the running set.
  void Register(Compaction* c) REQUIRES(db_mu_);

  Mutex* const db_mu_;

 private:
  // The options in force: replaced under the DB mutex, read with acquire
  // (MaxFileSizeForLevel is also called without the mutex).
  std::atomic<const Options*> options_;
  // Immutable after construction.
  const InternalKeyComparator& icmp_;
  // Guarded by the DB mutex: the compactions picked and not yet released.
  std::vector<Compaction*> running_ GUARDED_BY(db_mu_);
};

// Leveled compaction's automatic picks (see the file comment).
class LevelCompactionPicker : public CompactionPicker {
 public:
  using CompactionPicker::CompactionPicker;
  // A score >= 1, a marked file not being compacted, or a time-based
  // compaction due now (below).
  bool NeedsCompaction(const Version* v) const override;
  std::unique_ptr<Compaction> PickCompaction(Version* v) override;

  // The files of `level` (< the last level) in the order compaction_pri
  // tries them (RocksDB's UpdateFilesByCompactionPri): kByCompensatedSize
  // largest compensated size first; kOldestLargestSeqFirst /
  // kOldestSmallestSeqFirst by that sequence number, oldest first;
  // kMinOverlappingRatio by (next-level overlap * 1024 / compensated size
  // / TTL boost), smallest first. Ties keep key order. REQUIRES: DB mutex.
  std::vector<FileMetaData*> FilesByCompactionPri(const Version* v, int level) const;

 private:
  // RocksDB's FileTtlBooster: under kMinOverlappingRatio a file older than
  // part of the TTL divides its ratio by a score growing with its age.
  class TtlBooster {
   public:
    TtlBooster(uint64_t now, uint64_t ttl, int num_non_empty_levels, int level);
    uint64_t Score(const FileMetaData* f) const;

   private:
    bool enabled_ = false;
    uint64_t now_ = 0;
    uint64_t start_age_ = 0;
    uint64_t step_ = 1;
  };

  // The whole of level 0 into the base level, or nullptr when a level-0
  // file is busy or the output collides with a running compaction.
  std::unique_ptr<Compaction> PickLevel0(Version* v, double score, CompactionReason reason)
      REQUIRES(db_mu_);

  // ---- time-based compaction (ttl, periodic_compaction_seconds) ----
  // Picked only when no size-based compaction is, as RocksDB's
  // LevelCompactionBuilder does: first a file whose data is older than ttl
  // (FileOldestAncesterTime; levels above the last, and never from the
  // last non-empty level) goes to the next level (kTtl); then a file not
  // rewritten for periodic_compaction_seconds (FileCreationTime, else
  // FileOldestAncesterTime) is rewritten into its own level -- the
  // bottommost included -- (kPeriodicCompaction). A level-0 file takes all
  // of level 0 to the base level in both cases. Time is read when asked
  // (the DB also asks periodically), so a Version built long ago still
  // sees its files age. See docs/design/fifo-and-ttl-compaction.md.
  struct TimeBasedPick {
    int level = 0;
    int output_level = 0;
    FileMetaData* file = nullptr;
    CompactionReason reason = CompactionReason::kUnknown;
  };
  bool FindTimeBasedPick(const Version* v, TimeBasedPick* pick) const REQUIRES(db_mu_);
  std::unique_ptr<Compaction> PickTimeBasedCompaction(Version* v) REQUIRES(db_mu_);
};

// kCompactionStyleNone: nothing automatic; manual compactions and
// CompactFiles work as for leveled.
class NoneCompactionPicker : public CompactionPicker {
 public:
  using CompactionPicker::CompactionPicker;
  bool NeedsCompaction(const Version*) const override { return false; }
  std::unique_ptr<Compaction> PickCompaction(Version*) override { return nullptr; }
  // As RocksDB: with no background compaction, CompactRange does nothing
  // (only CompactFiles compacts).
  std::unique_ptr<Compaction> CompactRange(Version*, int, int, const Slice*, const Slice*, uint32_t,
                                           bool* conflict) override {
    *conflict = false;
    return nullptr;
  }
};

// The picker of options->compaction_style (fixed for the family's life:
// RocksDB does not let SetOptions change the style).
std::unique_ptr<CompactionPicker> NewCompactionPicker(const Options* options,
                                                      const InternalKeyComparator& icmp,
                                                      Mutex* db_mu);

}  // namespace strata
