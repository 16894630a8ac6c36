// Versions: which table files make up the database at a moment, and the
// MANIFEST that records every change to that set (docs/format/manifest.md).
//
// A Version is an immutable snapshot of the LSM shape: files per level
// (level 0 newest first, may overlap; levels >= 1 sorted by smallest key,
// disjoint), plus the compaction scores computed when it was built. Readers
// and compactions hold a reference; a file is deleted from disk only when no
// live Version lists it.
//
// Every column family has its own chain of Versions (db/column_family.h);
// VersionSet owns the families and the MANIFEST. LogAndApply(cfd, edit)
// builds the family's next Version from its current one plus the edit,
// appends the edit (tagged with the family's id) as one MANIFEST record (a
// new MANIFEST, starting with a snapshot of every live family, is begun at
// the first edit after open and whenever the file grows past
// max_manifest_file_size), syncs it, and installs the new Version as the
// family's current one.
//
// Thread-safety: the DB mutex (passed to LogAndApply) guards current(), the
// counters and the Version list; LogAndApply releases it while writing the
// MANIFEST and serializes concurrent callers. Version::Get / AddIterators
// need no lock (the caller holds a reference).
// Invariants:
//  1. In every Version, each level >= 1 is sorted and disjoint; level 0 is
//     ordered newest first (by largest sequence number, then file number).
//  2. The MANIFEST on disk, replayed, gives exactly each family's current().
//  3. next_file_number() is greater than every file number in use.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "base/dbformat.h"
#include "base/get_context.h"
#include "base/internal_iterator.h"
#include "db/log_writer.h"
#include "db/table_cache.h"
#include "db/version_edit.h"
#include "strata/env.h"
#include "strata/options.h"
#include "util/mutex.h"

namespace strata {

class ColumnFamilyData;
class ColumnFamilySet;
class VersionSet;

// The most levels a DB may have (options.num_levels is clamped to it).
constexpr int kMaxLevels = 12;

class Version {
 public:
  Version(const Version&) = delete;
  Version& operator=(const Version&) = delete;

  void Ref();
  // The last Unref deletes the Version and releases its files.
  void Unref();

  int num_levels() const { return num_levels_; }
  const std::vector<FileMetaData*>& files(int level) const { return files_[level]; }
  int NumLevelFiles(int level) const { return static_cast<int>(files_[level].size()); }
  uint64_t NumLevelBytes(int level) const;
  uint64_t TotalFileBytes() const;
  uint64_t NumFiles() const;

  // Point lookup in the tables: L0 files newest first, then one file per
  // level. Stops as soon as get_context decides. key is a LookupKey's
  // internal key. Each file consulted first raises get_context's
  // range-tombstone watermark by its tombstones covering the key.
  // A value to pin that lies in a reader's mapping (get_context->
  // pin_pending() after the table cache) is pinned by a reference to this
  // Version, released by the PinnableSlice.
  Status Get(const ReadOptions& options, const Slice& internal_key, GetContext* get_context);
  // A PinnableSlice cleanup: drops one reference to the Version arg1.
  static void UnrefVersion(void* version, void* unused);

  // Get for n keys at once (internal keys as for Get, ascending by user
  // key): each file consulted gets the keys that may be in it as one
  // batch (TableCache::MultiGet). Files are picked and range tombstones
  // applied as in Get. statuses[i] gets key i's error.
  void MultiGet(const ReadOptions& options, size_t n, const Slice* keys,
                GetContext* const* contexts, Status* statuses);

  // Appends iterators over every L0 file and one LevelIterator per
  // non-empty deeper level. With range tombstones (every source's, read at
  // read_seq), each iterator skips runs of entries they delete (see
  // db/range_del_skip_iterator.h); the lists must outlive the iterators.
  void AddIterators(
      const ReadOptions& options, std::vector<std::unique_ptr<InternalIterator>>* iters,
      const std::vector<const FragmentedRangeTombstoneList*>* range_tombstones = nullptr,
      SequenceNumber read_seq = kMaxSequenceNumber);

  // Every range tombstone of the Version's files, fragmented together
  // (built on first use and kept: a Version never changes); *list = nullptr
  // when no file has any. Opens the files not opened yet.
  Status GetRangeTombstones(const FragmentedRangeTombstoneList** list);

  // Files of `level` overlapping the user-key range [begin, end] (null =
  // unbounded). For level 0 the range grows to cover every overlapping file
  // transitively (as a compaction must take them all).
  void GetOverlappingInputs(int level, const Slice* begin_user_key, const Slice* end_user_key,
                            std::vector<FileMetaData*>* inputs) const;

  // True if some file of `level` overlaps [smallest, largest] (user keys).
  bool OverlapInLevel(int level, const Slice& smallest_user_key,
                      const Slice& largest_user_key) const;

  // Compaction scores (computed when the Version was built): a level needs
  // compaction when its score is >= 1. Sorted by score, highest first.
  struct LevelScore {
    int level;
    double score;
  };
  const std::vector<LevelScore>& compaction_scores() const { return scores_; }
  // With level_compaction_dynamic_level_bytes: the level L0 compacts into.
  int base_level() const { return base_level_; }
  uint64_t MaxBytesForLevel(int level) const { return level_max_bytes_[level]; }
  // Bytes that compactions still have to rewrite to get every level under
  // its target (an estimate, for write stalls).
  uint64_t EstimatedPendingCompactionBytes() const { return pending_compaction_bytes_; }
  // What the level-0 write-stall triggers count: level-0 files, and under
  // universal compaction every sorted run (level-0 files plus non-empty
  // levels), as RocksDB counts them.
  int l0_delay_trigger_count() const { return l0_delay_trigger_count_; }
  // Used by the compaction styles' score functions (db/compaction/):
  // replaces the scores (sorted here, highest first), the pending-bytes
  // estimate and the stall count.
  void SetCompactionScores(std::vector<LevelScore> scores, uint64_t pending_bytes,
                           int l0_delay_trigger_count);

  // Leveled compaction's size of f (RocksDB's compensated file size): the
  // file size, plus, when deletions are at least half of f's entries,
  // (2 * deletions - entries) * 2 * the average value size of the files
  // whose statistics are known, so that files of tombstones compact sooner.
  uint64_t CompensatedFileSize(const FileMetaData* f) const {
    uint64_t size = f->file_size;
    if (f->num_deletions * 2 >= f->num_entries) {
      size += (f->num_deletions * 2 - f->num_entries) * average_value_size_ * 2;
    }
    return size;
  }
  // Files a table-properties collector marked (NeedCompact) in every level
  // but the last non-empty one, as (level, file), by level; computed with
  // the scores (the picker skips those being compacted).
  const std::vector<std::pair<int, FileMetaData*>>& files_marked_for_compaction() const {
    return files_marked_for_compaction_;
  }

  // Summary: "files[ 3 0 5 ... ]".
  std::string LevelSummary() const;
  uint64_t version_number() const { return version_number_; }
  const Comparator* user_comparator() const;
  ColumnFamilyData* cfd() const { return cfd_; }

 private:
  // File picking shared by Get and MultiGet.
  // Whether L0 file f's key range holds user_key.
  bool L0FileMayHold(const FileMetaData* f, const Slice& user_key) const;
  // For a level >= 1: the index of the only file that may hold the user key
  // of internal_key (the first whose largest key is not below it; a range
  // deletion sentinel largest key is exclusive), or files(level).size()
  // when the key is past the level's last file.
  size_t LevelFileIndex(int level, const Slice& internal_key) const;
  // Whether user_key sorts before f's smallest key (f cannot hold it).
  bool BeforeFile(const FileMetaData* f, const Slice& user_key) const;
  // f's fragmented range tombstones (null when it has none), opening the
  // file if needed.
  Status FileRangeTombstones(FileMetaData* f, int level, const FragmentedRangeTombstoneList** list);

  friend class VersionSet;
  friend class VersionBuilder;
  friend class ManifestTailer;    // builds and installs Versions of a secondary
  friend class ColumnFamilyData;  // recomputes scores when SetOptions changes the family's options
  Version(VersionSet* vset, ColumnFamilyData* cfd, uint64_t version_number);
  ~Version();

  // Fills scores_, base_level_, level_max_bytes_, pending_compaction_bytes_
  // and l0_delay_trigger_count_ for options.compaction_style.
  void ComputeCompactionScores(const ColumnFamilyOptions& options);
  // Leveled compaction's scores (also kept for kCompactionStyleNone, whose
  // picker never acts on them, so properties still show the shape).
  void ComputeLevelCompactionScores(const ColumnFamilyOptions& options);
  // Fills average_value_size_ and files_marked_for_compaction_.
  void ComputeFileStatistics();

  VersionSet* const vset_;
  ColumnFamilyData* const cfd_;  // outlives its Versions (freed at close)
  const uint64_t version_number_;
  const int num_levels_;
  std::vector<FileMetaData*> files_[kMaxLevels];
  std::vector<LevelScore> scores_;
  int base_level_ = 1;
  uint64_t level_max_bytes_[kMaxLevels] = {};
  uint64_t pending_compaction_bytes_ = 0;
  uint64_t average_value_size_ = 0;  // see CompensatedFileSize
  std::vector<std::pair<int, FileMetaData*>> files_marked_for_compaction_;
  int l0_delay_trigger_count_ = 0;
  std::atomic<int> refs_{0};
  Mutex range_del_mu_;
  bool range_del_built_ GUARDED_BY(range_del_mu_) = false;
  std::unique_ptr<FragmentedRangeTombstoneList> range_del_ GUARDED_BY(range_del_mu_);
};

class VersionSet {
 public:
  // db_options (the DB's options; the default family's too), fs, db_dir,
  // info_log and db_mu (the DB mutex, which guards the set's and the
  // families' mutable state) must outlive the set.
  VersionSet(const std::string& dbname, const Options& db_options, FileSystem* fs,
             Directory* db_dir, Logger* info_log, Mutex* db_mu);
  ~VersionSet();
  VersionSet(const VersionSet&) = delete;
  VersionSet& operator=(const VersionSet&) = delete;

  // Reads CURRENT and the MANIFEST it names, building every family's
  // current Version. families: the options of each family the caller
  // opens, by name ("default" included). A live family of the MANIFEST
  // not among them gives InvalidArgument "Column families not opened: a, b"
  // unless allow_unopened (read-only opens), when it is left out; names of families not in the
  // MANIFEST go to *not_found. Checks each family's comparator name (InvalidArgument on mismatch)
  // and the consistency of the file sets; Corruption names the MANIFEST and the record offset.
  Status Recover(const std::map<std::string, ColumnFamilyOptions>& families, bool allow_unopened,
                 std::vector<std::string>* not_found);

  // Writes a first MANIFEST (number 1) and CURRENT for a new database.
  Status CreateNew();

  // Applies edit to cfd's current Version and makes the result current,
  // after writing the edit (tagged with cfd's id) to the MANIFEST. The edit
  // gets the next file number, last sequence and the family's log number
  // filled in. REQUIRES: *mu held (released during the write).
  Status LogAndApply(ColumnFamilyData* cfd, VersionEdit* edit, Mutex* mu) REQUIRES(*mu);

  // Applies edits[i] to cfds[i] for every i at once: the edits go to the
  // MANIFEST as one atomic group (several records, one sync; recovery
  // applies all or none) and the new Versions are installed together. One
  // family is a plain LogAndApply. A dropped family fails the whole group
  // (InvalidArgument). REQUIRES: *mu held (released during the write).
  Status LogAndApplyGroup(const std::vector<ColumnFamilyData*>& cfds,
                          const std::vector<VersionEdit*>& edits, Mutex* mu) REQUIRES(*mu);

  // Records a new family (next id) in the MANIFEST and adds it to the live
  // set; its WALs older than log_number hold none of its data.
  Status CreateColumnFamily(const std::string& name, const ColumnFamilyOptions& options,
                            uint64_t log_number, Mutex* mu, ColumnFamilyData** cfd) REQUIRES(*mu);
  // Records the drop in the MANIFEST and removes the family from the live
  // set (the object stays, referenced by its handles).
  Status DropColumnFamily(ColumnFamilyData* cfd, Mutex* mu) REQUIRES(*mu);

  ColumnFamilySet* column_families() const { return column_families_.get(); }
  ColumnFamilyData* default_cfd() const;

  uint64_t NewFileNumber() { return next_file_number_.fetch_add(1); }
  uint64_t next_file_number() const { return next_file_number_.load(); }
  void MarkFileNumberUsed(uint64_t number);
  // REQUIRES (these accessors): the DB mutex.
  SequenceNumber LastSequence() const {
    db_mu_->AssertHeld();
    return last_sequence_;
  }
  void SetLastSequence(SequenceNumber s) {
    db_mu_->AssertHeld();
    last_sequence_ = s;
  }
  // WALs older than this hold nothing of any live family that is not in
  // tables (the minimum of the families' log numbers).
  uint64_t MinLogNumber() const;
  uint64_t min_log_number_to_keep() const {
    db_mu_->AssertHeld();
    return min_log_number_to_keep_;
  }
  uint64_t manifest_file_number() const {
    db_mu_->AssertHeld();
    return manifest_file_number_;
  }
  // The valid length of the current MANIFEST: its last complete record
  // ends there (a write in progress may have appended more).
  uint64_t manifest_file_size() const {
    db_mu_->AssertHeld();
    return descriptor_size_;
  }
  // A MANIFEST write failed and no later one has succeeded: what the disk
  // holds may differ from memory (see LogAndApply), so nothing may be
  // deleted as obsolete. The next LogAndApply writes a new MANIFEST.
  // REQUIRES: the DB mutex.
  bool manifest_write_failed() const {
    db_mu_->AssertHeld();
    return manifest_write_failed_;
  }
  const std::string& db_id() const {
    db_mu_->AssertHeld();
    return db_id_;
  }
  void set_db_id(const std::string& id) {
    db_mu_->AssertHeld();
    db_id_ = id;
  }

  // Numbers of every file listed by a live Version (of any family).
  void AddLiveFiles(std::set<uint64_t>* live) const;
  // The live Versions of cfd (its current one included) and the bytes of
  // the distinct files they list (rocksdb.num-live-versions and
  // rocksdb.total-sst-files-size).
  void LiveVersionsOf(const ColumnFamilyData* cfd, uint64_t* versions, uint64_t* file_bytes) const;

  const Options& options() const { return options_; }

  // Where Recover stopped reading the MANIFEST: the file offset just past
  // its last complete record (a secondary instance tails on from there).
  // REQUIRES: the DB mutex.
  uint64_t recovered_manifest_end() const {
    db_mu_->AssertHeld();
    return recovered_manifest_end_;
  }

 private:
  friend class Version;
  // A secondary instance's MANIFEST tailing (db/manifest_tailer.h) installs
  // Versions and counters the way recovery does.
  friend class ManifestTailer;
  // Recover's two steps: replaying CURRENT's MANIFEST into per-family
  // builders and counters (which it checks), then building each family's
  // Version and making the families live.
  struct RecoveredManifest;
  Status ReplayManifest(const std::map<std::string, ColumnFamilyOptions>& families,
                        RecoveredManifest* m) REQUIRES(db_mu_);
  Status InstallRecovered(RecoveredManifest* m) REQUIRES(db_mu_);
  // Shared by LogAndApply, CreateColumnFamily and DropColumnFamily: cfd is
  // null for a family creation (new_options then holds its options).
  Status LogAndApplyImpl(ColumnFamilyData* cfd, VersionEdit* edit, Mutex* mu,
                         const ColumnFamilyOptions* new_options, ColumnFamilyData** created)
      REQUIRES(db_mu_);
  Status LogAndApplyGroupImpl(const std::vector<ColumnFamilyData*>& cfds,
                              const std::vector<VersionEdit*>& edits, Mutex* mu) REQUIRES(db_mu_);
  // The MANIFEST records describing the whole current state (a new
  // MANIFEST starts with them). REQUIRES: the DB mutex.
  void EncodeSnapshot(std::vector<std::string>* records) const REQUIRES(db_mu_);
  // LogAndApply's I/O, without the mutex: a new MANIFEST (when
  // new_manifest) begun with the snapshot, the records appended and
  // synced, CURRENT pointed at a new MANIFEST (*current_attempted: the
  // rename was tried, so the new file must stay even on failure).
  Status WriteManifest(bool new_manifest, uint64_t manifest_number,
                       const std::vector<std::string>& snapshot,
                       const std::vector<std::string>& records, log::Writer* current_log,
                       std::unique_ptr<log::Writer>* new_log, bool* current_attempted);
  // Back under the mutex: on success the new writer and the valid length
  // installed; on failure the MANIFEST abandoned (the next write starts a
  // new one, and nothing is deleted as obsolete until then).
  void FinishManifestWrite(const Status& s, bool new_manifest, uint64_t manifest_number,
                           std::unique_ptr<log::Writer> new_log, bool current_attempted)
      REQUIRES(db_mu_);
  void AppendVersion(ColumnFamilyData* cfd, Version* v) REQUIRES(db_mu_);
  // Called by Version::~Version.
  void RemoveVersion(Version* v);
  ColumnFamilyData* NewFamily(uint32_t id, const std::string& name,
                              const ColumnFamilyOptions& options);

  const std::string dbname_;
  const Options& options_;
  FileSystem* const fs_;
  Directory* const db_dir_;
  Logger* const info_log_;
  Mutex* const db_mu_;  // the DB mutex (borrowed)
  // Every family's open table readers, bounded together by max_open_files.
  // Declared before column_families_: the families' caches erase their
  // readers from it as they go.
  const std::shared_ptr<Cache> table_readers_;

  std::unique_ptr<ColumnFamilySet> column_families_;
  std::atomic<uint64_t> next_file_number_{2};

  // Guarded by the DB mutex.
  uint64_t manifest_file_number_ GUARDED_BY(db_mu_) = 0;
  SequenceNumber last_sequence_ GUARDED_BY(db_mu_) = 0;
  uint64_t prev_log_number_ GUARDED_BY(db_mu_) = 0;
  uint64_t min_log_number_to_keep_ GUARDED_BY(db_mu_) = 0;
  std::string db_id_ GUARDED_BY(db_mu_);
  uint64_t next_version_number_ GUARDED_BY(db_mu_) = 0;
  uint64_t recovered_manifest_end_ GUARDED_BY(db_mu_) = 0;
  // The MANIFEST being written; one writer at a time (manifest_writing_),
  // the others wait on manifest_cv_.
  std::unique_ptr<log::Writer> descriptor_log_ GUARDED_BY(db_mu_);
  uint64_t descriptor_size_ GUARDED_BY(db_mu_) = 0;
  bool manifest_writing_ GUARDED_BY(db_mu_) = false;
  bool manifest_write_failed_ GUARDED_BY(db_mu_) = false;
  std::unique_ptr<CondVar> manifest_cv_;

  // Every Version still referenced (each family's current included).
  std::set<Version*> versions_;
  mutable Mutex versions_mu_;
};

}  // namespace strata
