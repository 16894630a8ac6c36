// Option strings: RocksDB 7.8.3's text form of options, read and written.
//
// The syntax is RocksDB's: "name1=value1;name2=value2;...". Whitespace around
// names and values is dropped; a value in braces holds nested options
// ("block_based_table_factory={block_size=8k;cache_index_and_filter_blocks=
// true}"). Values: integers with an optional k/K (2^10), m/M (2^20), g/G
// (2^30), t/T (2^40) suffix; bools true/false or 1/0; doubles; enums by
// RocksDB's spellings (kSnappyCompression, kPointInTimeRecovery, kXXH3,
// kDataBlockBinarySearch, INFO_LEVEL, ...); objects by name where Strata has
// them: comparators ("leveldb.BytewiseComparator",
// "rocksdb.ReverseBytewiseComparator"), merge operators ("put",
// "uint64add", "stringappend", "max" or their Name()s), prefix extractors
// ("fixed:3", "capped:3", "rocksdb.FixedPrefix.3", "rocksdb.CappedPrefix.3",
// "rocksdb.Noop", "nullptr"), filter policies ("bloomfilter:10:false",
// "nullptr") and the block cache ("block_cache=64M": a new LRU cache).
//
// Names are RocksDB's. A name Strata has is set; a RocksDB option Strata
// does not have is accepted when its value is RocksDB's default (it changes
// nothing) and is otherwise an InvalidArgument naming it ("Strata does not
// support option X"); any other name is RocksDB's "Could not find option: :
// X". ConfigOptions::ignore_unknown_options turns both into no-ops. On any
// error *new_options is left equal to the base options.
//
// Thread-safety: stateless functions; thread-safe.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "strata/env.h"
#include "strata/export.h"
#include "strata/options.h"
#include "strata/status.h"
#include "strata/table.h"

namespace strata {

// How option strings and maps are read and written (RocksDB's fields; those
// Strata has no use for are kept so code written for RocksDB compiles).
struct STRATA_EXPORT ConfigOptions {
  // Unknown names, and RocksDB options Strata lacks set to non-default
  // values, are skipped instead of failing.
  bool ignore_unknown_options = false;
  // RocksDB: skip options its build does not support. Strata has no such
  // optional options; kept for source compatibility.
  bool ignore_unsupported_options = true;
  // Values may contain backslash escapes ("\;" for a ';'); they are removed
  // before a value is parsed.
  bool input_strings_escaped = true;
  // Only options that SetOptions/SetDBOptions can change are accepted;
  // others are an InvalidArgument "Option not changeable: X".
  bool mutable_options_only = false;
  // Between name=value pairs in the strings GetStringFrom*Options writes.
  std::string delimiter = ";";
  // Kept for source compatibility (RocksDB's object registry); unused.
  Env* env = Env::Default();
};

// ---- strings to options ----
// *new_options = base_options with the named options set (see above).
STRATA_EXPORT Status GetDBOptionsFromString(const ConfigOptions& config_options,
                                            const DBOptions& base_options,
                                            const std::string& opts_str, DBOptions* new_options);
STRATA_EXPORT Status GetColumnFamilyOptionsFromString(const ConfigOptions& config_options,
                                                      const ColumnFamilyOptions& base_options,
                                                      const std::string& opts_str,
                                                      ColumnFamilyOptions* new_options);
// DB and column family options in one string.
STRATA_EXPORT Status GetOptionsFromString(const ConfigOptions& config_options,
                                          const Options& base_options, const std::string& opts_str,
                                          Options* new_options);
STRATA_EXPORT Status GetBlockBasedTableOptionsFromString(
    const ConfigOptions& config_options, const BlockBasedTableOptions& table_options,
    const std::string& opts_str, BlockBasedTableOptions* new_table_options);

// ---- maps to options (name -> value; values unescaped as above) ----
STRATA_EXPORT Status GetDBOptionsFromMap(
    const ConfigOptions& config_options, const DBOptions& base_options,
    const std::unordered_map<std::string, std::string>& opts_map, DBOptions* new_options);
STRATA_EXPORT Status GetColumnFamilyOptionsFromMap(
    const ConfigOptions& config_options, const ColumnFamilyOptions& base_options,
    const std::unordered_map<std::string, std::string>& opts_map, ColumnFamilyOptions* new_options);
STRATA_EXPORT Status GetBlockBasedTableOptionsFromMap(
    const ConfigOptions& config_options, const BlockBasedTableOptions& table_options,
    const std::unordered_map<std::string, std::string>& opts_map,
    BlockBasedTableOptions* new_table_options);

// ---- RocksDB's older overloads (no ConfigOptions) ----
// input_strings_escaped and ignore_unknown_options as in ConfigOptions; the
// string forms use ConfigOptions' defaults except input_strings_escaped
// false (RocksDB's behaviour for these overloads).
STRATA_EXPORT Status GetDBOptionsFromMap(
    const DBOptions& base_options, const std::unordered_map<std::string, std::string>& opts_map,
    DBOptions* new_options, bool input_strings_escaped = false,
    bool ignore_unknown_options = false);
STRATA_EXPORT Status GetColumnFamilyOptionsFromMap(
    const ColumnFamilyOptions& base_options,
    const std::unordered_map<std::string, std::string>& opts_map, ColumnFamilyOptions* new_options,
    bool input_strings_escaped = false, bool ignore_unknown_options = false);
STRATA_EXPORT Status GetBlockBasedTableOptionsFromMap(
    const BlockBasedTableOptions& table_options,
    const std::unordered_map<std::string, std::string>& opts_map,
    BlockBasedTableOptions* new_table_options, bool input_strings_escaped = false,
    bool ignore_unknown_options = false);
STRATA_EXPORT Status GetDBOptionsFromString(const DBOptions& base_options,
                                            const std::string& opts_str, DBOptions* new_options);
STRATA_EXPORT Status GetColumnFamilyOptionsFromString(const ColumnFamilyOptions& base_options,
                                                      const std::string& opts_str,
                                                      ColumnFamilyOptions* new_options);
STRATA_EXPORT Status GetOptionsFromString(const Options& base_options, const std::string& opts_str,
                                          Options* new_options);
STRATA_EXPORT Status GetBlockBasedTableOptionsFromString(
    const BlockBasedTableOptions& table_options, const std::string& opts_str,
    BlockBasedTableOptions* new_table_options);

// ---- options to strings ----
// Every option Strata has that has a text form, "name=value" joined by
// config_options.delimiter (RocksDB's spellings; the block-based table
// options of a family as "block_based_table_factory={...}"). The result
// parses back to the same values (objects by name: a comparator or merge
// operator Strata cannot build by name comes back only with
// ignore_unknown_options, as the base's).
STRATA_EXPORT Status GetStringFromDBOptions(const ConfigOptions& config_options,
                                            const DBOptions& db_options, std::string* opts_str);
STRATA_EXPORT Status GetStringFromColumnFamilyOptions(const ConfigOptions& config_options,
                                                      const ColumnFamilyOptions& cf_options,
                                                      std::string* opts_str);
STRATA_EXPORT Status GetStringFromDBOptions(std::string* opts_str, const DBOptions& db_options,
                                            const std::string& delimiter = ";  ");
STRATA_EXPORT Status GetStringFromColumnFamilyOptions(std::string* opts_str,
                                                      const ColumnFamilyOptions& cf_options,
                                                      const std::string& delimiter = ";  ");

// Splits "a=1;b={x=2;y=3}" into {a: "1", b: "x=2;y=3"} (outer braces of a
// value removed, whitespace trimmed). InvalidArgument on a pair without '='
// or unbalanced braces.
STRATA_EXPORT Status StringToMap(const std::string& opts_str,
                                 std::unordered_map<std::string, std::string>* opts_map);

// ---- compression types ----
// The compression types this build reads and writes (kNoCompression
// included), in RocksDB's order of their values.
STRATA_EXPORT std::vector<CompressionType> GetSupportedCompressions();
// RocksDB's name of a compression type ("kSnappyCompression", "kZSTD",
// ...); InvalidArgument for a value that names none.
STRATA_EXPORT Status GetStringFromCompressionType(std::string* compression_str,
                                                  CompressionType compression_type);

}  // namespace strata
