// The table of options: every option Strata has, by RocksDB's name, with
// its type, where it lives (DBOptions, ColumnFamilyOptions or
// BlockBasedTableOptions) and whether SetOptions/SetDBOptions may change it
// on a live DB (RocksDB 7.8.3's list). One table serves the option-string
// parser and printer (strata/convenience.h), SetOptions (db_impl_options.cc)
// and the OPTIONS-file reader (options_util.cc).
//
// RocksDB options Strata lacks are listed with RocksDB 7.8.3's default
// values (db/rocksdb_option_defaults.inc, taken from RocksDB's own
// GetStringFrom*Options): such an option is accepted when set to that
// default and refused otherwise (see CheckForeignOption).
//
// Thread-safety: the table is immutable; the functions are thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "strata/convenience.h"
#include "strata/options.h"
#include "strata/status.h"
#include "strata/table.h"

namespace strata {

using OptionsMap = std::unordered_map<std::string, std::string>;

enum class OptionScope { kDB, kCF, kTable };

enum class OptionType {
  kBool,
  kInt,
  kUInt,  // unsigned int / uint32_t
  kUInt64,
  kSizeT,
  kDouble,
  kString,
  kCompression,
  kWalRecoveryMode,
  kInfoLogLevel,
  kChecksum,
  kDataBlockIndexType,
  kIndexType,
  kComparator,
  kMergeOperator,
  kPrefixExtractor,
  kFilterPolicy,
  kBlockCache,
  // Compaction styles (RocksDB's enum spellings).
  kCompactionStyle,
  kCompactionPri,
  kCompactionStopStyle,
  // Lists, ':'-separated ("1:1:1", "kNoCompression:kZSTD"); "" is empty.
  kIntVector,
  kCompressionVector,
  // Nested structs, "{name=value;...}" (their fields in the sub-tables of
  // NestedOptionTable; a partial value changes only the fields it names).
  kCompactionOptionsUniversal,
  kCompactionOptionsFIFO,
  kCompressionOptions,
  // Pluggable objects written as RocksDB writes them:
  // "{id=SstPartitionerFixedPrefixFactory;length=N;}" / "nullptr", and a
  // flush-block policy factory's name.
  kSstPartitionerFactory,
  kFlushBlockPolicyFactory,
  // DBOptions::file_checksum_gen_factory by name: "nullptr" or
  // "FileChecksumGenCrc32cFactory" (strata/file_checksum.h).
  kFileChecksumGenFactory,
};

struct OptionInfo {
  const char* name;
  OptionScope scope;
  OptionType type;
  // RocksDB 7.8.3 lets SetOptions / SetDBOptions change it.
  bool is_mutable;
  // The field's address inside a DBOptions / ColumnFamilyOptions /
  // BlockBasedTableOptions (by scope).
  void* (*field)(void* object);
  // Printed by GetStringFrom*Options (objects without a text form are not).
  bool printable = true;
};

// Every option, DB first, then column family, then table options.
const std::vector<OptionInfo>& OptionTable();
// The fields of a nested struct option type (kCompactionOptionsUniversal,
// kCompactionOptionsFIFO, kCompressionOptions), in the order RocksDB 7.8.3
// prints them; their `field` takes the struct's address. Null for other
// types.
const std::vector<OptionInfo>* NestedOptionTable(OptionType type);
// The option `name` of `scope`, or null.
const OptionInfo* FindOption(OptionScope scope, std::string_view name);

// Sets the option from its text form in `object` (of the option's scope).
// InvalidArgument "Error parsing <name>: ..." on a bad value.
Status ParseOptionValue(const ConfigOptions& config, const OptionInfo& info,
                        const std::string& value, void* object);
// The option's text form (RocksDB's spelling).
std::string OptionValueToString(const OptionInfo& info, const void* object);

// A name not in the table: OK when it is a RocksDB option of `scope` set to
// RocksDB's default, or when config.ignore_unknown_options; otherwise
// InvalidArgument "Strata does not support option <name> (= <value>) ..."
// for a RocksDB option and "Could not find option: : <name>" for others.
Status CheckForeignOption(const ConfigOptions& config, OptionScope scope, const std::string& name,
                          const std::string& value);
// Whether `name` is a RocksDB option of scope (Strata's or not).
bool IsRocksDBOption(OptionScope scope, const std::string& name);

// Apply a map of options onto *db / *cf / *table. A CF map may hold
// "block_based_table_factory" ({...} of table options, applied onto the
// family's current table options; a new factory is made) and
// "table_factory" (BlockBasedTable only). For Options (both) a name is
// looked up as a DB option, then as a CF option. On error the object may be
// partly changed: callers work on a copy.
Status ApplyDBOptionsMap(const ConfigOptions& config, const OptionsMap& map, DBOptions* db);
Status ApplyCFOptionsMap(const ConfigOptions& config, const OptionsMap& map,
                         ColumnFamilyOptions* cf);
Status ApplyTableOptionsMap(const ConfigOptions& config, const OptionsMap& map,
                            BlockBasedTableOptions* table);
Status ApplyOptionsMap(const ConfigOptions& config, const OptionsMap& map, Options* options);

// Text forms of whole structs, "name=value" + delimiter each.
std::string DBOptionsToString(const DBOptions& db, const std::string& delimiter);
std::string CFOptionsToString(const ColumnFamilyOptions& cf, const std::string& delimiter);
std::string TableOptionsToString(const BlockBasedTableOptions& t, const std::string& delimiter);

// Removes one level of enclosing braces and surrounding whitespace.
std::string StripBraces(const std::string& value);

}  // namespace strata
