// Column families: independent key spaces of one database that share its
// WAL, its sequence numbers and its MANIFEST (DESIGN.md section 4).
//
// ColumnFamilyData is one family's state: its id and name, its options
// (DB-wide options plus the family's ColumnFamilyOptions, with the family's
// comparator, table options and table cache), its memtables, the oldest WAL
// that may hold its unflushed data, its current Version, its SuperVersion
// with the per-thread cache readers take it from, its compaction picker and
// level statistics. ColumnFamilySet holds the live families by id and name;
// VersionSet owns it (the MANIFEST records families as RocksDB does:
// kColumnFamily / kColumnFamilyAdd / kColumnFamilyDrop edits, docs/format/manifest.md).
// ColumnFamilyHandleImpl is what users hold.
//
// Lifetime: a family is referenced by the set while live, by every handle
// and by every background job working on it. A dropped family leaves the
// set at once (writes to it fail); when its last reference goes, its
// memtables, SuperVersion and current Version are released (so its table
// files become obsolete once no iterator's SuperVersion lists them). The
// object itself lives until the DB closes (SuperVersions of live iterators
// point at its table cache and comparator).
//
// Thread-safety: the DB mutex guards the set and each family's fields
// unless a field says otherwise; the write-group leader also reads the
// memtable pointers (it is the only thread changing them, under the mutex).
// The id lookup used by the write path (Lookup) is lock-free.
// Invariants:
//  1. The default family (id 0) exists in every open DB and is never
//     dropped.
//  2. log_number() <= the WAL number of every memtable's oldest data:
//     WALs below the minimum over live families hold nothing unflushed.
//  3. ids are never reused; max_column_family() >= every id ever given.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/dbformat.h"
#include "db/compaction/compaction.h"
#include "db/internal_stats.h"
#include "db/super_version.h"
#include "db/table_cache.h"
#include "db/version_set.h"
#include "memtable/memtable.h"
#include "strata/db.h"
#include "strata/listener.h"
#include "strata/options.h"
#include "strata/table.h"
#include "util/mutex.h"
#include "util/thread_annotations.h"

namespace strata {

class ColumnFamilyData;

// A memtable waiting to be flushed, with the oldest WAL holding its data.
struct ImmMemTable {
  MemTable* mem;
  uint64_t log_number;
  // Why it was switched (FlushJobInfo, the flush_started LOG event).
  FlushReason flush_reason = FlushReason::kOthers;
};

// Memtable options derived from a family's options.
MemTableOptions MemTableOptionsFor(const Options& options);

// Options checks that apply per family (write buffer, levels, comparator,
// compression, file and level sizes): InvalidArgument naming the option.
Status ValidateColumnFamilyOptions(const ColumnFamilyOptions& options);
// RocksDB's adjustments of a family's options, made rather than failing
// (DB::Open and CreateColumnFamily apply them before validating); each
// change made is described in *notes (if not null), for the LOG:
//  - max_write_buffer_number below 2 becomes 2;
//  - max_bytes_for_level_multiplier <= 0 becomes 1; memtable_prefix_bloom_
//    size_ratio is clipped to [0, 0.25]; max_subcompactions 0 becomes 1;
//  - level-0 triggers: compaction trigger at least 1, slowdown at least the
//    compaction trigger, stop at least the slowdown (a stop below the
//    compaction trigger would stop writes for good: the files that stop them
//    are too few to start the compaction that would clear them);
//  - soft_pending_compaction_bytes_limit 0 or above the hard limit becomes
//    the hard limit;
//  - block-based tables: block_size_deviation outside [0, 100] becomes 0,
//    block_restart_interval and index_block_restart_interval below 1
//    become 1 (a new table factory is made with them).
//  - compaction styles (RocksDB 7.8.3's SanitizeOptions): num_levels below
//    1 becomes 1, and below 2 becomes 2 for level compaction only; FIFO
//    sets the level-0 slowdown and stop triggers to INT_MAX;
//    level_compaction_dynamic_level_bytes is turned off for styles other
//    than level; max_bytes_for_level_multiplier_additional is extended
//    with 1s to num_levels entries;
//  - ttl and periodic_compaction_seconds: kDefaultTtl is resolved as
//    RocksDB resolves it (30 days = kResolvedDefaultTtl, or 0; FIFO's and
//    universal's interplay of the two: see SanitizeAges in the .cc).
void SanitizeColumnFamilyOptions(ColumnFamilyOptions* options,
                                 std::vector<std::string>* notes = nullptr);

// What a kDefaultTtl ttl / periodic_compaction_seconds becomes when
// RocksDB turns it on: 30 days.
constexpr uint64_t kResolvedDefaultTtl = 30 * 24 * 60 * 60;

class ColumnFamilyData {
 public:
  // options: the DB's options with this family's ColumnFamilyOptions.
  // table_readers: the DB's table reader cache (TableCache::NewReaderCache),
  // shared by all its families; null gives the family its own.
  // db_mu: the DB mutex, which guards the family's mutable state (borrowed).
  ColumnFamilyData(uint32_t id, const std::string& name, const Options& options,
                   const std::string& dbname, Mutex* db_mu,
                   std::shared_ptr<Cache> table_readers = nullptr);
  ~ColumnFamilyData();
  ColumnFamilyData(const ColumnFamilyData&) = delete;
  ColumnFamilyData& operator=(const ColumnFamilyData&) = delete;

  uint32_t id() const { return id_; }
  const std::string& name() const { return name_; }
  // The options in force: the family's options (with the DB's options as
  // they were at open), its table options and the memtable options derived
  // from them. SetOptions (DB::SetOptions) replaces the set as a whole; a
  // reader sees one consistent set with one acquire load and no lock, and
  // every reference returned stays valid until the DB closes (replaced sets
  // are kept: SetOptions is rare and a set is about 1 KiB). So a job or a
  // write group may keep using the set it started with.
  const Options& options() const {
    return current_options_.load(std::memory_order_acquire)->options;
  }
  const InternalKeyComparator& icmp() const { return icmp_; }
  const Comparator* user_comparator() const { return icmp_.user_comparator(); }
  const BlockBasedTableOptions& table_options() const {
    return current_options_.load(std::memory_order_acquire)->table;
  }
  const MemTableOptions& mem_options() const {
    return current_options_.load(std::memory_order_acquire)->mem;
  }
  // Installs `options` (sanitized and validated by the caller; only
  // mutable fields differ from options()) as the set in force, for new
  // memtables, flushes, compactions, stall checks and the compaction
  // picker; the current Version's compaction scores are recomputed.
  // REQUIRES: DB mutex.
  void SetOptions(const Options& options);
  // Recomputes the current Version's compaction scores and marked files
  // (after marks were set on its files). REQUIRES: DB mutex.
  void RecomputeCompactionScores();
  TableCache* table_cache() const { return table_cache_.get(); }
  // The kFileMetadata charge of the family's files (null unless its table
  // options charge that role to a block cache); given to VersionBuilders.
  ConcurrentCacheReservationManager* file_metadata_charge() const {
    return file_metadata_charge_.get();
  }
  CompactionPicker* picker() const { return picker_.get(); }
  int num_levels() const { return num_levels_; }

  // The current Version. REQUIRES: DB mutex (set by VersionSet).
  Version* current() const {
    db_mu_->AssertHeld();
    return current_;
  }

  // WALs older than this hold none of this family's unflushed data (the
  // family's MANIFEST log number).
  // REQUIRES: DB mutex.
  uint64_t log_number() const {
    db_mu_->AssertHeld();
    return log_number_;
  }
  void set_log_number(uint64_t n) {
    db_mu_->AssertHeld();
    log_number_ = n;
  }

  // The oldest WAL any of this family's memtables may need: the oldest
  // immutable memtable's, else the mutable one's.
  uint64_t OldestLogWithData() const;

  bool dropped() const { return dropped_.load(std::memory_order_acquire); }

  // References (handles, the set, running jobs). REQUIRES: DB mutex.
  void Ref() {
    db_mu_->AssertHeld();
    ++refs_;
  }
  // True when this was the last reference.
  bool Unref() {
    db_mu_->AssertHeld();
    return --refs_ == 0;
  }
  int refs() const {
    db_mu_->AssertHeld();
    return refs_;
  }

  // A new SuperVersion of mem, imm and current(), published. REQUIRES: DB
  // mutex.
  void InstallSuperVersion();
  // For a dropped family with no references left: drops the memtables,
  // SuperVersion and Version. REQUIRES: DB mutex.
  void ReleaseResources();
  // Whether writes to this family must wait or slow down (level 0 or
  // compaction debt). REQUIRES: DB mutex.
  bool NeedsWriteSlowdown() const;

  // ---- state guarded by the DB mutex ----
  // Each accessor asserts the DB mutex (checked at run time in debug
  // builds); the references they return are used under the same hold.
  //
  // Memtables: the mutable one (one reference ours) and the oldest WAL with
  // data in it; the immutable ones, newest first (references ours). The
  // write-group leader alone changes them, under the DB mutex.
  MemTable*& mem() {
    db_mu_->AssertHeld();
    return mem_;
  }
  MemTable* mem() const {
    db_mu_->AssertHeld();
    return mem_;
  }
  // The mutable memtable as the write path reads it without the mutex: the
  // write-group leader alone changes mem (under the mutex), so its reads,
  // and those of its group's members while they insert, need none.
  // REQUIRES: the caller is the current write-group leader or a member of
  // its group inserting its batch.
  MemTable* leader_mem() const NO_THREAD_SAFETY_ANALYSIS { return mem_; }
  uint64_t& mem_log_number() {
    db_mu_->AssertHeld();
    return mem_log_number_;
  }
  std::vector<ImmMemTable>& imm() {
    db_mu_->AssertHeld();
    return imm_;
  }
  const std::vector<ImmMemTable>& imm() const {
    db_mu_->AssertHeld();
    return imm_;
  }
  // The published SuperVersion (readers take it through sv_cache).
  SuperVersion* super_version() const {
    db_mu_->AssertHeld();
    return super_version_;
  }
  // Flush, compaction and stall statistics (rocksdb.cfstats).
  InternalStats* internal_stats() {
    db_mu_->AssertHeld();
    return internal_stats_.get();
  }
  // Memtables made immutable / flushed so far (Flush waits on these).
  uint64_t& memtables_switched() {
    db_mu_->AssertHeld();
    return memtables_switched_;
  }
  uint64_t& memtables_flushed() {
    db_mu_->AssertHeld();
    return memtables_flushed_;
  }
  // One flush at a time per family (MANIFEST order).
  bool& flush_running() {
    db_mu_->AssertHeld();
    return flush_running_;
  }

  // ---- thread-safe ----
  // Set by Flush(cf): the next write leader switches this memtable.
  std::atomic<bool> switch_requested{false};
  // The immutable memtables are at max_write_buffer_number - 1: the next
  // switch would stop writes, so the write throttle watches the mutable
  // memtable's fill (db/write_throttle.h). Set under the DB mutex.
  std::atomic<bool> memtable_watched{false};
  // Readers' thread-local SuperVersion references.
  LocalSuperVersionCache sv_cache;

 private:
  friend class VersionSet;
  friend class ColumnFamilySet;

  // ReleaseResources' work, also done by the destructor, which may run with
  // or without the DB mutex: no other thread can reach the family then.
  void DropReferences() NO_THREAD_SAFETY_ANALYSIS;

  // One set of options (see options()).
  struct OptionSet {
    Options options;
    BlockBasedTableOptions table;
    MemTableOptions mem;
  };
  static std::unique_ptr<OptionSet> MakeOptionSet(const Options& options);

  const uint32_t id_;
  const std::string name_;
  // The set in force (release-published by SetOptions, under the DB mutex)
  // and every set ever in force, kept until the family is destroyed.
  std::atomic<const OptionSet*> current_options_{nullptr};
  std::vector<std::unique_ptr<OptionSet>> option_sets_;
  const InternalKeyComparator icmp_;
  const int num_levels_;
  std::unique_ptr<TableCache> table_cache_;
  std::shared_ptr<ConcurrentCacheReservationManager> file_metadata_charge_;
  std::unique_ptr<CompactionPicker> picker_;
  // The DB mutex (borrowed): what the fields below are guarded by.
  Mutex* const db_mu_;

  Version* current_ GUARDED_BY(db_mu_) = nullptr;  // one reference ours
  uint64_t log_number_ GUARDED_BY(db_mu_) = 0;
  int refs_ GUARDED_BY(db_mu_) = 0;
  MemTable* mem_ GUARDED_BY(db_mu_) = nullptr;
  uint64_t mem_log_number_ GUARDED_BY(db_mu_) = 0;
  std::vector<ImmMemTable> imm_ GUARDED_BY(db_mu_);
  SuperVersion* super_version_ GUARDED_BY(db_mu_) = nullptr;
  uint64_t super_version_number_ GUARDED_BY(db_mu_) = 0;
  std::unique_ptr<InternalStats> internal_stats_ GUARDED_BY(db_mu_);
  uint64_t memtables_switched_ GUARDED_BY(db_mu_) = 0;
  uint64_t memtables_flushed_ GUARDED_BY(db_mu_) = 0;
  bool flush_running_ GUARDED_BY(db_mu_) = false;

  std::atomic<bool> dropped_{false};
};

// The live families. Mutated under the DB mutex by the exclusive write
// leader (or during open), so the leader may also read it without the mutex.
class ColumnFamilySet {
 public:
  ColumnFamilySet();
  ~ColumnFamilySet();  // deletes every family (live and dropped)
  ColumnFamilySet(const ColumnFamilySet&) = delete;
  ColumnFamilySet& operator=(const ColumnFamilySet&) = delete;

  // Takes ownership; the set holds one reference while the family is live.
  void Add(ColumnFamilyData* cfd);
  // Removes a dropped family from the live set (the object stays owned).
  void Remove(ColumnFamilyData* cfd);

  ColumnFamilyData* GetDefault() const { return default_; }
  ColumnFamilyData* GetByName(const std::string& name) const;
  // Lock-free: the live family with this id, or nullptr. The pointer stays
  // valid until the DB closes.
  ColumnFamilyData* Lookup(uint32_t id) const {
    const Table* t = table_.load(std::memory_order_acquire);
    return id < t->size() ? (*t)[id] : nullptr;
  }
  // Live families in id order.
  const std::vector<ColumnFamilyData*>& live() const { return live_; }
  // Every family object, dropped ones included.
  const std::vector<std::unique_ptr<ColumnFamilyData>>& all() const { return all_; }
  size_t NumberOfColumnFamilies() const { return live_.size(); }

  uint32_t max_column_family() const { return max_column_family_; }
  void UpdateMaxColumnFamily(uint32_t id) {
    if (id > max_column_family_) max_column_family_ = id;
  }

 private:
  using Table = std::vector<ColumnFamilyData*>;
  void Publish();

  ColumnFamilyData* default_ = nullptr;
  std::vector<ColumnFamilyData*> live_;
  std::map<std::string, ColumnFamilyData*> by_name_;
  std::vector<std::unique_ptr<ColumnFamilyData>> all_;  // live and dropped
  std::atomic<const Table*> table_;
  // Earlier tables stay until close: a writer may still be reading one.
  std::vector<std::unique_ptr<Table>> tables_;
  uint32_t max_column_family_ = 0;
};

class DBImpl;  // db/db_impl.h

// A handle given to the user holds a reference to its family, released
// when the handle is deleted (DestroyColumnFamilyHandle or a plain
// `delete`, as in RocksDB): a dropped family's files go then. The DB's own
// default handle (db null) holds none.
class ColumnFamilyHandleImpl final : public ColumnFamilyHandle {
 public:
  // db: the DB the handle releases its family to when deleted (null: none,
  // as the DB's own default handle); owner: the DB it belongs to (GetDescriptor).
  ColumnFamilyHandleImpl(ColumnFamilyData* cfd, DBImpl* db, DBImpl* owner)
      : cfd_(cfd), db_(db), owner_(owner) {}
  ColumnFamilyHandleImpl(ColumnFamilyData* cfd, DBImpl* db) : ColumnFamilyHandleImpl(cfd, db, db) {}
  ~ColumnFamilyHandleImpl() override;  // db/db_impl.cc
  const std::string& GetName() const override { return cfd_->name(); }
  uint32_t GetID() const override { return cfd_->id(); }
  const Comparator* GetComparator() const override { return cfd_->user_comparator(); }
  using ColumnFamilyHandle::GetDescriptor;
  Status GetDescriptor(ColumnFamilyDescriptor* desc) override;  // db/db_impl.cc
  ColumnFamilyData* cfd() const { return cfd_; }
  // Deleting the handle will then release nothing (the caller drops the
  // reference itself).
  void Detach() { db_ = nullptr; }

 private:
  ColumnFamilyData* const cfd_;
  DBImpl* db_;
  DBImpl* const owner_;
};

}  // namespace strata
