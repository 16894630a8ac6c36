// VersionEdit: one change to the set of live files and the database's
// counters, serialized as one MANIFEST record (docs/format/manifest.md).
//
// Encoding: a sequence of (varint32 tag, fields) pairs, in RocksDB's tag
// numbering (never renumber; see the Tag enum). Fields are written in
// RocksDB's order; the decoder accepts any order, skips unknown tags that have
// the "safe to ignore" bit (0x2000) by one length-prefixed field, and returns
// Corruption naming the tag for any other unknown tag.
//
// kNewFile4 (tag 103):
//   varint32 level | varint64 number | varint64 file_size
//   lp smallest internal key | lp largest internal key
//   varint64 smallest_seqno | varint64 largest_seqno
//   { varint32 custom_tag, lp field }*  varint32 1 (kTerminate)
// Custom tags with bit 0x40 set must be understood or the edit is rejected.
// Thread-safety: not thread-safe (plain data).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/dbformat.h"
#include "base/range_tombstone.h"
#include "cache/cache_reservation_manager.h"
#include "strata/cache.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

class DynamicBloom;

// Persisted: never renumber.
enum VersionEditTag : uint32_t {
  kComparator = 1,
  kLogNumber = 2,
  kNextFileNumber = 3,
  kLastSequence = 4,
  kCompactCursor = 5,
  kDeletedFile = 6,
  kNewFile = 7,
  kPrevLogNumber = 9,
  kMinLogNumberToKeep = 10,
  kNewFile2 = 100,
  kNewFile3 = 102,
  kNewFile4 = 103,
  kColumnFamily = 200,
  kColumnFamilyAdd = 201,
  kColumnFamilyDrop = 202,
  kMaxColumnFamily = 203,
  kInAtomicGroup = 300,
  kBlobFileAddition = 400,
  kBlobFileGarbage = 401,
  kTagSafeIgnoreMask = 1 << 13,
  kDbId = kTagSafeIgnoreMask + 1,
  kBlobFileAdditionDeprecated = kTagSafeIgnoreMask + 2,
  kBlobFileGarbageDeprecated = kTagSafeIgnoreMask + 3,
  kWalAddition = kTagSafeIgnoreMask + 4,
  kWalDeletion = kTagSafeIgnoreMask + 5,
  kFullHistoryTsLow = kTagSafeIgnoreMask + 6,
  kWalAddition2 = kTagSafeIgnoreMask + 7,
  kWalDeletion2 = kTagSafeIgnoreMask + 8,
};
static_assert(kWalDeletion2 == 8200, "VersionEdit tags are persisted");

// Custom field tags inside kNewFile4. Persisted: never renumber.
enum NewFileCustomTag : uint32_t {
  kTerminate = 1,
  kNeedCompaction = 2,
  kMinLogNumberToKeepHack = 3,
  kOldestBlobFileNumber = 4,
  kOldestAncesterTime = 5,
  kFileCreationTime = 6,
  kFileChecksum = 7,
  kFileChecksumFuncName = 8,
  kTemperature = 9,
  kMinTimestamp = 10,
  kMaxTimestamp = 11,
  kUniqueId = 12,
  kCustomTagNonSafeIgnoreMask = 1 << 6,
  kPathId = kCustomTagNonSafeIgnoreMask + 1,
};

// In memory only: a table reader held open for one FileMetaData, so point
// lookups skip the table cache (see TableCache::Get with a FileMetaData).
// Copies start empty; the destructor gives the reader back.
// Thread-safety: Install and table() may race; the first Install wins.
class PinnedTableSlot {
 public:
  PinnedTableSlot() = default;
  PinnedTableSlot(const PinnedTableSlot&) {}
  PinnedTableSlot& operator=(const PinnedTableSlot&) { return *this; }
  ~PinnedTableSlot();

  // The pinned reader (a BlockBasedTable*), or nullptr.
  void* table() const {
    const Pin* p = pin_.load(std::memory_order_acquire);
    return p != nullptr ? p->table : nullptr;
  }
  // Takes over (cache, handle) if the slot is empty and returns true;
  // otherwise returns false and the caller keeps its handle.
  bool Install(Cache* cache, Cache::Handle* handle, void* table);

 private:
  struct Pin {
    Cache* cache;
    Cache::Handle* handle;
    void* table;
  };
  std::atomic<Pin*> pin_{nullptr};
};

// A table file's range tombstones, fragmented once on first use and kept
// while its FileMetaData lives (readers pin the Version, hence the file).
// Copies start empty.
// Thread-safety: Get and Install may race; the first Install wins.
class RangeTombstoneSlot {
 public:
  RangeTombstoneSlot() = default;
  RangeTombstoneSlot(const RangeTombstoneSlot&) {}
  RangeTombstoneSlot& operator=(const RangeTombstoneSlot&) { return *this; }
  ~RangeTombstoneSlot();

  // Whether Install has been called.
  bool loaded() const { return state_.load(std::memory_order_acquire) != nullptr; }
  // The file's tombstones; nullptr if none (or not loaded).
  const FragmentedRangeTombstoneList* get() const {
    const FragmentedRangeTombstoneList* p = state_.load(std::memory_order_acquire);
    return p == None() ? nullptr : p;
  }
  // Takes ownership of list (null = the file has none); a loser's list is
  // deleted. Returns the installed value.
  const FragmentedRangeTombstoneList* Install(FragmentedRangeTombstoneList* list);

 private:
  static FragmentedRangeTombstoneList* None() {
    return reinterpret_cast<FragmentedRangeTombstoneList*>(uintptr_t{1});
  }
  std::atomic<FragmentedRangeTombstoneList*> state_{nullptr};
};

// A level-0 table's key filter built after the table was installed (by
// the job that gives the level-0 tables found at open their filters; see
// FileMetaData::key_filter for the flush-built ones). Copies start empty.
// Thread-safety: get and Install may race; the first Install wins.
class LateKeyFilterSlot {
 public:
  LateKeyFilterSlot() = default;
  LateKeyFilterSlot(const LateKeyFilterSlot&) {}
  LateKeyFilterSlot& operator=(const LateKeyFilterSlot&) { return *this; }
  ~LateKeyFilterSlot();

  const DynamicBloom* get() const { return filter_.load(std::memory_order_acquire); }
  // Takes ownership of filter; a loser's filter is deleted.
  void Install(DynamicBloom* filter);

 private:
  std::atomic<DynamicBloom*> filter_{nullptr};
};

// The charge of one FileMetaData to the block cache
// (CacheEntryRole::kFileMetadata, when the family's table options enable it;
// set by VersionBuilder::Apply). Copies start empty; the destructor gives
// the charge back. Thread-safety: set once, before the file is shared.
class FileMetadataChargeSlot {
 public:
  FileMetadataChargeSlot() = default;
  FileMetadataChargeSlot(const FileMetadataChargeSlot&) {}
  FileMetadataChargeSlot& operator=(const FileMetadataChargeSlot&) { return *this; }

  std::unique_ptr<ConcurrentCacheReservationManager::Handle> handle;
};

// A value read and written with relaxed atomics that stays copyable: the
// in-memory fields of FileMetaData are guarded by locks, but whole-struct
// copies (into VersionEdits, MANIFEST snapshots) may read them concurrently.
template <typename T>
class RelaxedValue {
 public:
  RelaxedValue(T v = T()) : v_(v) {}  // NOLINT: implicit by design
  RelaxedValue(const RelaxedValue& o) : v_(o.load()) {}
  RelaxedValue& operator=(const RelaxedValue& o) {
    store(o.load());
    return *this;
  }
  RelaxedValue& operator=(T v) {
    store(v);
    return *this;
  }
  operator T() const { return load(); }  // NOLINT: implicit by design
  T operator++() { return v_.fetch_add(1, std::memory_order_relaxed) + 1; }
  T operator--() { return v_.fetch_sub(1, std::memory_order_relaxed) - 1; }

 private:
  T load() const { return v_.load(std::memory_order_relaxed); }
  void store(T v) { v_.store(v, std::memory_order_relaxed); }
  std::atomic<T> v_;
};

struct FileMetaData {
  uint64_t number = 0;
  uint32_t path_id = 0;
  uint64_t file_size = 0;
  std::string smallest;  // internal key
  std::string largest;   // internal key
  SequenceNumber smallest_seqno = kMaxSequenceNumber;
  SequenceNumber largest_seqno = 0;
  bool marked_for_compaction = false;
  uint64_t oldest_blob_file_number = 0;
  uint64_t oldest_ancester_time = 0;
  uint64_t file_creation_time = 0;
  std::string file_checksum;
  std::string file_checksum_func_name = "Unknown";
  uint8_t temperature = 0;
  std::string unique_id;  // 16 bytes when present (kept, never verified)

  // In memory only (never encoded): the table's entry counts and raw sizes
  // from its properties, known for tables this process wrote (flush,
  // compaction); 0 when unknown. They size the deletion compensation of
  // compaction_pri (Version::CompensatedFileSize), as RocksDB's
  // FileMetaData keeps them.
  uint64_t num_entries = 0;    // incl. range tombstones
  uint64_t num_deletions = 0;  // Delete + SingleDelete + range tombstones
  uint64_t raw_key_size = 0;
  uint64_t raw_value_size = 0;

  // In memory only (never encoded): Versions listing the file, and whether
  // a running compaction has taken it as input (guarded by the DB mutex).
  RelaxedValue<int> refs = 0;
  RelaxedValue<bool> being_compacted = false;
  PinnedTableSlot pinned_table;
  RangeTombstoneSlot range_tombstones;
  // The in-memory key filter of a level-0 table (Options::
  // l0_key_filter_bits_per_key), shared by copies; null for none. Set
  // before the file is installed in a Version, read-only after; cleared
  // when the file is added at a level below 0.
  std::shared_ptr<const DynamicBloom> key_filter;
  LateKeyFilterSlot late_key_filter;
  FileMetadataChargeSlot metadata_charge;

  // What kFileMetadata charges for the file (RocksDB's measure): the struct
  // and the bytes of its keys and checksum strings.
  size_t ApproximateMemoryUsage() const {
    return sizeof(FileMetaData) + smallest.size() + largest.size() + file_checksum.size() +
           file_checksum_func_name.size();
  }

  // The key filter in effect, if any (key_filter, else late_key_filter).
  const DynamicBloom* KeyFilter() const {
    return key_filter != nullptr ? key_filter.get() : late_key_filter.get();
  }
};

class VersionEdit {
 public:
  void Clear() { *this = VersionEdit(); }

  void SetComparatorName(const Slice& name) { comparator_ = name.ToString(); }
  void SetLogNumber(uint64_t n) { log_number_ = n; }
  void SetPrevLogNumber(uint64_t n) { prev_log_number_ = n; }
  void SetNextFile(uint64_t n) { next_file_number_ = n; }
  void SetLastSequence(SequenceNumber s) { last_sequence_ = s; }
  void SetMinLogNumberToKeep(uint64_t n) { min_log_number_to_keep_ = n; }
  void SetMaxColumnFamily(uint32_t n) { max_column_family_ = n; }
  void SetDBId(const Slice& id) { db_id_ = id.ToString(); }
  void SetColumnFamily(uint32_t id) { column_family_ = id; }
  void AddColumnFamily(const Slice& name) { column_family_add_ = name.ToString(); }
  void DropColumnFamily() { column_family_drop_ = true; }
  void AddFile(int level, const FileMetaData& f) { new_files_.emplace_back(level, f); }
  void DeleteFile(int level, uint64_t number) { deleted_files_.emplace_back(level, number); }
  // Marks the edit as part of an atomic group with `remaining` edits after
  // it (0 for the last); recovery applies a group whole or not at all.
  void MarkAtomicGroup(uint32_t remaining) { atomic_group_ = remaining; }

  const std::optional<std::string>& comparator() const { return comparator_; }
  const std::optional<uint64_t>& log_number() const { return log_number_; }
  const std::optional<uint64_t>& prev_log_number() const { return prev_log_number_; }
  const std::optional<uint64_t>& next_file_number() const { return next_file_number_; }
  const std::optional<SequenceNumber>& last_sequence() const { return last_sequence_; }
  const std::optional<uint64_t>& min_log_number_to_keep() const { return min_log_number_to_keep_; }
  const std::optional<uint32_t>& max_column_family() const { return max_column_family_; }
  const std::optional<std::string>& db_id() const { return db_id_; }
  uint32_t column_family() const { return column_family_; }
  const std::optional<std::string>& column_family_add() const { return column_family_add_; }
  bool is_column_family_drop() const { return column_family_drop_; }
  const std::vector<std::pair<int, FileMetaData>>& new_files() const { return new_files_; }
  const std::vector<std::pair<int, uint64_t>>& deleted_files() const { return deleted_files_; }
  // Remaining edits of the atomic group this edit belongs to, if any.
  const std::optional<uint32_t>& remaining_in_atomic_group() const { return atomic_group_; }

  // Puts every added table in path 0 (a copy gathered into one directory:
  // db/manifest_single_path.h). True if some path id was not 0.
  bool ClearPathIds() {
    bool any = false;
    for (auto& [level, f] : new_files_) {
      any = any || f.path_id != 0;
      f.path_id = 0;
    }
    return any;
  }

  // Appends the encoding to *dst.
  void EncodeTo(std::string* dst) const;
  // Replaces *this with the decoded edit. Corruption names the tag and the
  // byte offset inside the record on bad input.
  Status DecodeFrom(const Slice& src);

  std::string DebugString() const;

 private:
  std::optional<std::string> comparator_;
  std::optional<uint64_t> log_number_;
  std::optional<uint64_t> prev_log_number_;
  std::optional<uint64_t> next_file_number_;
  std::optional<SequenceNumber> last_sequence_;
  std::optional<uint64_t> min_log_number_to_keep_;
  std::optional<uint32_t> max_column_family_;
  std::optional<std::string> db_id_;
  uint32_t column_family_ = 0;
  std::optional<std::string> column_family_add_;
  bool column_family_drop_ = false;
  std::optional<uint32_t> atomic_group_;
  std::vector<std::pair<int, FileMetaData>> new_files_;
  std::vector<std::pair<int, uint64_t>> deleted_files_;
};

}  // namespace strata
