// rocksdb/convenience.h: options read from and written to RocksDB's text
// form ("write_buffer_size=4M;block_based_table_factory={block_size=8k}"),
// and deleting the files of key ranges.
//
// Strata's parser (strata/convenience.h) reads the text: the names and
// values it takes are RocksDB's. The base options are converted to
// Strata's, the text applied, and the result converted back, so every field
// Strata lacks keeps its value from the base. A field of the base that
// Strata refuses (see compat/README.md) makes the call fail with the same
// InvalidArgument Open would give. On any error *new_options equals the
// base options, as RocksDB's functions promise.
//
// Also: GetSupportedCompressions and GetStringFromCompressionType (Strata's
// codecs, RocksDB's names), CancelAllBackgroundWork (Strata's
// PauseBackgroundWork: running jobs finish, no new one starts; it always
// waits, and Close still flushes unless avoid_flush_during_shutdown),
// VerifySstFileChecksum (a table file read through SstFileReader).
// Plain-table options and memtable factories parse as RocksDB's do
// (GetPlainTableOptionsFrom*, GetMemTableRepFactoryFromString); Strata has
// neither table format nor memtable other than the skip list, so Open
// refuses a plain-table factory and any memtable factory but a
// SkipListFactory (compat/README.md).
// Thread-safety: stateless functions.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "rocksdb/compression_type.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/options.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/status.h"
#include "rocksdb/table.h"
#include "strata/convenience.h"

namespace strata {
struct ConfigOptions;
}  // namespace strata

namespace rocksdb {

class ObjectRegistry;

// How option strings and maps are read and written (RocksDB's fields).
// Strata uses ignore_unknown_options, input_strings_escaped,
// mutable_options_only and delimiter; the others are kept so code written
// for RocksDB compiles and have no effect.
struct ConfigOptions {
  // registry starts as ObjectRegistry::Default(), as in RocksDB
  // (compat/object_registry.cc).
  ConfigOptions();
  // RocksDB takes env from db_options.
  explicit ConfigOptions(const DBOptions& db_options);

  enum SanityLevel : unsigned char {
    kSanityLevelNone = 0x01,
    kSanityLevelLooselyCompatible = 0x02,
    kSanityLevelExactMatch = 0xFF,
  };
  enum Depth {
    kDepthDefault,
    kDepthShallow,
    kDepthDetailed,
  };

  bool ignore_unknown_options = false;
  bool ignore_unsupported_options = true;
  bool input_strings_escaped = true;
  bool invoke_prepare_options = true;
  bool mutable_options_only = false;
  std::string delimiter = ";";
  Depth depth = Depth::kDepthDefault;
  SanityLevel sanity_level = SanityLevel::kSanityLevelExactMatch;
  size_t file_readahead_size = 512 * 1024;
  Env* env = Env::Default();
  std::shared_ptr<ObjectRegistry> registry;

  bool IsShallow() const { return depth == Depth::kDepthShallow; }
  bool IsDetailed() const { return depth == Depth::kDepthDetailed; }
  bool IsCheckDisabled() const { return sanity_level == SanityLevel::kSanityLevelNone; }
  bool IsCheckEnabled(SanityLevel level) const {
    return level > SanityLevel::kSanityLevelNone && level <= sanity_level;
  }
  // Strata's ConfigOptions with the same fields (the ones it has), so the
  // CreateFromString of Strata's classes aliased here (Comparator,
  // MergeOperator, SliceTransform, Cache, Statistics, WalFilter,
  // FileChecksumGenFactory, ...) take this struct.
  operator ::strata::ConfigOptions() const;  // NOLINT: implicit on purpose
};

// ---- maps to options ----
Status GetColumnFamilyOptionsFromMap(const ConfigOptions& config_options,
                                     const ColumnFamilyOptions& base_options,
                                     const std::unordered_map<std::string, std::string>& opts_map,
                                     ColumnFamilyOptions* new_options);
Status GetColumnFamilyOptionsFromMap(const ColumnFamilyOptions& base_options,
                                     const std::unordered_map<std::string, std::string>& opts_map,
                                     ColumnFamilyOptions* new_options,
                                     bool input_strings_escaped = false,
                                     bool ignore_unknown_options = false);
Status GetDBOptionsFromMap(const ConfigOptions& cfg_options, const DBOptions& base_options,
                           const std::unordered_map<std::string, std::string>& opts_map,
                           DBOptions* new_options);
Status GetDBOptionsFromMap(const DBOptions& base_options,
                           const std::unordered_map<std::string, std::string>& opts_map,
                           DBOptions* new_options, bool input_strings_escaped = false,
                           bool ignore_unknown_options = false);
Status GetBlockBasedTableOptionsFromMap(
    const ConfigOptions& config_options, const BlockBasedTableOptions& table_options,
    const std::unordered_map<std::string, std::string>& opts_map,
    BlockBasedTableOptions* new_table_options);
Status GetBlockBasedTableOptionsFromMap(
    const BlockBasedTableOptions& table_options,
    const std::unordered_map<std::string, std::string>& opts_map,
    BlockBasedTableOptions* new_table_options, bool input_strings_escaped = false,
    bool ignore_unknown_options = false);

// ---- strings to options ----
Status GetColumnFamilyOptionsFromString(const ConfigOptions& config_options,
                                        const ColumnFamilyOptions& base_options,
                                        const std::string& opts_str,
                                        ColumnFamilyOptions* new_options);
Status GetColumnFamilyOptionsFromString(const ColumnFamilyOptions& base_options,
                                        const std::string& opts_str,
                                        ColumnFamilyOptions* new_options);
Status GetDBOptionsFromString(const ConfigOptions& config_options, const DBOptions& base_options,
                              const std::string& opts_str, DBOptions* new_options);
Status GetDBOptionsFromString(const DBOptions& base_options, const std::string& opts_str,
                              DBOptions* new_options);
Status GetBlockBasedTableOptionsFromString(const BlockBasedTableOptions& table_options,
                                           const std::string& opts_str,
                                           BlockBasedTableOptions* new_table_options);
Status GetBlockBasedTableOptionsFromString(const ConfigOptions& config_options,
                                           const BlockBasedTableOptions& table_options,
                                           const std::string& opts_str,
                                           BlockBasedTableOptions* new_table_options);
Status GetOptionsFromString(const Options& base_options, const std::string& opts_str,
                            Options* new_options);
Status GetOptionsFromString(const ConfigOptions& config_options, const Options& base_options,
                            const std::string& opts_str, Options* new_options);

// ---- options to strings ----
Status GetStringFromDBOptions(const ConfigOptions& config_options, const DBOptions& db_options,
                              std::string* opts_str);
Status GetStringFromDBOptions(std::string* opts_str, const DBOptions& db_options,
                              const std::string& delimiter = ";  ");
Status GetStringFromColumnFamilyOptions(const ConfigOptions& config_options,
                                        const ColumnFamilyOptions& cf_options,
                                        std::string* opts_str);
Status GetStringFromColumnFamilyOptions(std::string* opts_str,
                                        const ColumnFamilyOptions& cf_options,
                                        const std::string& delimiter = ";  ");

// PlainTableOptions from a map or a string (RocksDB's names: user_key_len,
// bloom_bits_per_key, hash_table_ratio, index_sparseness,
// huge_page_tlb_size, encoding_type (kPlain/kPrefix), full_scan_mode,
// store_index_in_file). On error *new_table_options equals table_options.
Status GetPlainTableOptionsFromMap(const ConfigOptions& config_options,
                                   const PlainTableOptions& table_options,
                                   const std::unordered_map<std::string, std::string>& opts_map,
                                   PlainTableOptions* new_table_options);
Status GetPlainTableOptionsFromMap(const PlainTableOptions& table_options,
                                   const std::unordered_map<std::string, std::string>& opts_map,
                                   PlainTableOptions* new_table_options,
                                   bool input_strings_escaped = false,
                                   bool ignore_unknown_options = false);
Status GetPlainTableOptionsFromString(const PlainTableOptions& table_options,
                                      const std::string& opts_str,
                                      PlainTableOptions* new_table_options);
Status GetPlainTableOptionsFromString(const ConfigOptions& config_options,
                                      const PlainTableOptions& table_options,
                                      const std::string& opts_str,
                                      PlainTableOptions* new_table_options);
// "skip_list[:lookahead]", "vector[:count]", "prefix_hash[:buckets]",
// "hash_linkedlist[:buckets]" or a class name (MemTableRepFactory::
// CreateFromString); only a SkipListFactory is accepted by Open.
Status GetMemTableRepFactoryFromString(const std::string& opts_str,
                                       std::unique_ptr<MemTableRepFactory>* new_mem_factory);

// "a=1;b={c=2}" into {a: 1, b: c=2}.
Status StringToMap(const std::string& opts_str,
                   std::unordered_map<std::string, std::string>* opts_map);

// ---- files of key ranges ----
// Deletes the table files wholly inside [begin, end] (null: unbounded;
// include_end false makes end exclusive) of levels 1 and up, as RocksDB.
Status DeleteFilesInRange(DB* db, ColumnFamilyHandle* column_family, const Slice* begin,
                          const Slice* end, bool include_end = true);
Status DeleteFilesInRanges(DB* db, ColumnFamilyHandle* column_family, const RangePtr* ranges,
                           size_t n, bool include_end = true);

// ---- compression types, background work, table files ----
Status GetStringFromCompressionType(std::string* compression_str, CompressionType compression_type);
std::vector<CompressionType> GetSupportedCompressions();
void CancelAllBackgroundWork(DB* db, bool wait = false);
// Reads every block of the table file and checks its checksum. The options
// are converted as Open's (a refused one is InvalidArgument naming it);
// largest_seqno is not needed by Strata's reader.
Status VerifySstFileChecksum(const Options& options, const EnvOptions& env_options,
                             const std::string& file_path);
Status VerifySstFileChecksum(const Options& options, const EnvOptions& env_options,
                             const ReadOptions& read_options, const std::string& file_path,
                             const SequenceNumber& largest_seqno = 0);

}  // namespace rocksdb
