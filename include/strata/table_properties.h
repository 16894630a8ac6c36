// TableProperties: what a table file says about itself in its properties
// block (docs/format/table.md (Properties)), under RocksDB's property names, so the same
// facts show in `sst_dump --show_properties` from either project.
//
// TablePropertiesCollector / TablePropertiesCollectorFactory: RocksDB's hook
// for user properties. Every table the DB writes (flush, compaction) and
// every SstFileWriter file gets one collector per factory of
// ColumnFamilyOptions::table_properties_collector_factories; the collector
// sees each entry, in file order, and its Finish() output is stored in the
// properties block among the built-in properties (one sorted set of names,
// as RocksDB stores them). See docs/design/metadata.md.
//
// Thread-safety: TableProperties is plain data. A factory is called from
// any thread (flushes and compactions run in parallel) and must be
// thread-safe; each collector is used by one thread.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "strata/export.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

struct ConfigOptions;  // strata/convenience.h

// User-collected properties, by name (raw bytes).
using UserCollectedProperties = std::map<std::string, std::string>;

// What an entry handed to a collector is (RocksDB's EntryType, same order).
enum EntryType {
  kEntryPut,
  kEntryDelete,
  kEntrySingleDelete,
  kEntryMerge,
  kEntryRangeDeletion,
  kEntryBlobIndex,
  kEntryDeleteWithTimestamp,
  kEntryWideColumnEntity,
  kEntryOther,
};

// Collects properties of one table as it is written. Errors returned by
// AddUserKey are logged and ignored; a collector whose Finish fails adds
// nothing to the file (RocksDB's behaviour).
class STRATA_EXPORT TablePropertiesCollector {
 public:
  virtual ~TablePropertiesCollector() = default;

  // RocksDB's deprecated per-entry hook: AddUserKey's default calls it, so a
  // collector that overrides only Add sees every entry. Its own default is
  // InvalidArgument (RocksDB's; the table builder ignores a collector's
  // status).
  virtual Status Add(const Slice& /*key*/, const Slice& /*value*/) {
    return Status::InvalidArgument("TablePropertiesCollector::Add() deprecated.");
  }

  // Called for every entry in file order: point entries, then the range
  // tombstones (type kEntryRangeDeletion: key = start, value = end).
  // file_size: bytes of the file written so far.
  virtual Status AddUserKey(const Slice& key, const Slice& value, EntryType type, uint64_t seq,
                            uint64_t file_size) {
    (void)type, (void)seq, (void)file_size;
    return Add(key, value);
  }
  // Called once per data block written: its size before compression (the
  // two estimates of compressed size are 0: Strata does not sample).
  virtual void BlockAdd(uint64_t block_uncomp_bytes, uint64_t block_compressed_bytes_fast,
                        uint64_t block_compressed_bytes_slow) {
    (void)block_uncomp_bytes, (void)block_compressed_bytes_fast, (void)block_compressed_bytes_slow;
  }
  // Adds the collected properties (stored in the file under their names).
  virtual Status Finish(UserCollectedProperties* properties) = 0;
  // Human-readable forms of the properties (for tools; not stored).
  virtual UserCollectedProperties GetReadableProperties() const = 0;
  virtual const char* Name() const = 0;
  // True if the file should be compacted soon: the table's FileMetaData is
  // marked_for_compaction (recorded in the MANIFEST as RocksDB does).
  virtual bool NeedCompact() const { return false; }
};

// Makes one collector per table file.
class STRATA_EXPORT TablePropertiesCollectorFactory {
 public:
  struct Context {
    static constexpr uint32_t kUnknownColumnFamily = 0x7fffffff;
    static constexpr int kUnknownLevelAtCreation = -1;
    uint32_t column_family_id = kUnknownColumnFamily;
    // The level the file is written to (flush: 0; SstFileWriter: unknown).
    int level_at_creation = kUnknownLevelAtCreation;
  };
  virtual ~TablePropertiesCollectorFactory() = default;
  // Caller owns the result (RocksDB returns a raw pointer too).
  virtual TablePropertiesCollector* CreateTablePropertiesCollector(Context context) = 0;
  virtual const char* Name() const = 0;
  // What the LOG shows for the factory.
  virtual std::string ToString() const { return Name(); }

  // The registry type name (RocksDB's Customizable::Type).
  static const char* Type() { return "TablePropertiesCollectorFactory"; }
  // "CompactOnDeletionCollector" (a factory with window 0, trigger 0, ratio
  // 0: off until its setters are called, as RocksDB makes it) or
  // "{id=CompactOnDeletionCollector;window_size=N;deletion_trigger=D;
  // deletion_ratio=R}"; "" or "nullptr" resets *result. Any other id is
  // NotSupported ("Could not load TablePropertiesCollectorFactory: <id>"),
  // or OK leaving *result unchanged when
  // options.ignore_unsupported_options is set (RocksDB's answers).
  static Status CreateFromString(const ConfigOptions& options, const std::string& value,
                                 std::shared_ptr<TablePropertiesCollectorFactory>* result);
  // RocksDB's Customizable serialization: Name() for a factory without
  // options, else "{<prefix>id=<Name()>;<option>=<value>;...}" (options in
  // name order; delimiter from config_options).
  std::string ToString(const ConfigOptions& config_options) const;
  std::string ToString(const ConfigOptions& config_options, const std::string& prefix) const;

 protected:
  // The factory's options as name -> value, for ToString(ConfigOptions);
  // none by default.
  virtual std::map<std::string, std::string> SerializedOptions() const { return {}; }
};

struct STRATA_EXPORT TableProperties {
  // Numbers (varint64 in the block).
  uint64_t data_size = 0;       // data blocks incl. trailers
  uint64_t index_size = 0;      // index block incl. trailer
  uint64_t filter_size = 0;     // filter block, no trailer
  uint64_t raw_key_size = 0;    // sum of internal key sizes
  uint64_t raw_value_size = 0;  // sum of value sizes
  uint64_t num_data_blocks = 0;
  uint64_t num_entries = 0;  // incl. range tombstones
  uint64_t num_filter_entries = 0;
  uint64_t num_deletions = 0;  // Delete + SingleDelete + range tombstones
  uint64_t num_merge_operands = 0;
  uint64_t num_range_deletions = 0;
  uint64_t format_version = 0;  // plain-table field; 0 for block-based
  uint64_t fixed_key_len = 0;
  uint64_t column_family_id = 0x7fffffff;  // 0x7fffffff = unknown
  uint64_t creation_time = 0;              // unix seconds of the oldest data
  uint64_t oldest_key_time = 0;
  uint64_t file_creation_time = 0;
  uint64_t original_file_number = 0;
  // RocksDB's name of original_file_number (the same value; both are set
  // when a table's properties are read or built).
  uint64_t orig_file_number = 0;
  uint64_t index_key_is_user_key = 0;
  uint64_t index_value_is_delta_encoded = 0;
  uint32_t index_type = 0;  // fixed32 in the block
  // kTwoLevelIndexSearch only (both omitted when index_partitions is 0):
  // the number of index partitions and the top-level index's raw size.
  uint64_t index_partitions = 0;
  uint64_t top_level_index_size = 0;
  // RocksDB's sample_for_compression estimates ("rocksdb.sample_for_
  // compression.slow/fast.data.size"): read from files that have them;
  // Strata's builder does not sample, so its own files have 0.
  uint64_t slow_compression_estimated_data_size = 0;
  uint64_t fast_compression_estimated_data_size = 0;
  // Where, in the table file, the value of "rocksdb.external_sst_file.
  // global_seqno" sits (a file made by SstFileWriter); 0 for other files.
  // Set when a table reader opens the file.
  uint64_t external_sst_file_global_seqno_offset = 0;

  // Strings.
  std::string column_family_name;
  std::string comparator_name;
  std::string merge_operator_name;        // "nullptr" when none
  std::string prefix_extractor_name;      // "nullptr" when none
  std::string property_collectors_names;  // "[]"
  std::string compression_name;
  std::string compression_options;
  std::string filter_policy_name;   // empty when no policy
  std::string whole_key_filtering;  // "1" / "0"
  std::string prefix_filtering;     // "1" / "0"
  std::string db_id;
  std::string db_session_id;
  std::string db_host_id;

  // RocksDB's "rocksdb.seqno.time.map", as stored (Strata writes none).
  std::string seqno_to_time_mapping;

  // Every other property, by name (raw bytes).
  UserCollectedProperties user_collected_properties;
  // The collectors' GetReadableProperties() for a table just built (what
  // listeners see in TableFileCreationInfo); empty for a table read back
  // (readable forms are not stored).
  UserCollectedProperties readable_properties;

  // Adds tp's additive numbers to this one (RocksDB's aggregation: sizes,
  // counts, the compression estimates; index_key_is_user_key and
  // index_value_is_delta_encoded are summed too, as RocksDB does).
  void Add(const TableProperties& tp);
  // The additive numbers by RocksDB's names ("data_size", "num_entries", ...).
  std::map<std::string, uint64_t> GetAggregatablePropertiesAsMap() const;
  // This object's size plus its strings' and user properties' bytes.
  std::size_t ApproximateMemoryUsage() const;

  // "name = value" lines ("; " separated) in the spirit of RocksDB's
  // TableProperties::ToString, for tools.
  std::string ToString(const std::string& prop_delim = "; ",
                       const std::string& kv_delim = "=") const;
};

// The varint64 value of RocksDB's legacy "rocksdb.deleted.keys" /
// "rocksdb.merge.operands" user-collected properties, 0 when absent (then
// *property_present = false). Tables written by RocksDB 7.x or Strata keep
// these counts in TableProperties' num_deletions / num_merge_operands
// instead, so the maps rarely hold them.
STRATA_EXPORT uint64_t GetDeletedKeys(const UserCollectedProperties& props);
STRATA_EXPORT uint64_t GetMergeOperands(const UserCollectedProperties& props,
                                        bool* property_present);

}  // namespace strata
