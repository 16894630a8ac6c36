// Options dump: every field of DBOptions, ColumnFamilyOptions and
// BlockBasedTableOptions as the header lines of the info LOG, in RocksDB's
// shape so LOG readers written for RocksDB find them:
//
//   <pad>Options.max_open_files: -1                  (DBOptions, at open)
//   --------------- Options for column family [default]:
//   <pad>Options.write_buffer_size: 67108864         (per family)
//   <pad>table_factory options:   block_size: 4096   (then "  name: value"
//     lines, one log record, as RocksDB prints BlockBasedTableOptions)
//
// Names are the options' names; values print as RocksDB prints them
// (booleans 0/1, pointers as an address or (nil), objects by Name(), doubles
// with %f, compression by name). The lists below are the one place that
// knows the fields: options_dump_test counts each struct's fields and fails
// when a field is added without a line here.
//
// Thread-safety: functions of their arguments; the Logger is thread-safe.
#pragma once

#include <string>
#include <vector>

#include "strata/env.h"
#include "strata/options.h"
#include "strata/table.h"

namespace strata {

struct OptionLine {
  std::string name;  // the line's name, without "Options."
  std::string value;
  // The struct field the line shows when the name is not the field's own
  // (RocksDB prints nested structs and lists a line per member:
  // "compaction_options_universal.size_ratio", "compression[2]",
  // "max_bytes_for_level_multiplier_addtl[0]").
  std::string field = {};

  const std::string& FieldName() const { return field.empty() ? name : field; }
};

// The lines of each field, in declaration order: one per field, except the
// nested structs (a line per member), compression_per_level (a line
// "compression[i]" per entry, none when empty) and
// max_bytes_for_level_multiplier_additional (a line per entry).
std::vector<OptionLine> DBOptionLines(const DBOptions& o);
std::vector<OptionLine> ColumnFamilyOptionLines(const ColumnFamilyOptions& o);
std::vector<OptionLine> TableOptionLines(const BlockBasedTableOptions& t);

// Header-level log lines (InfoLogLevel::kHeader; null log = nothing).
void LogDBOptions(Logger* log, const DBOptions& o);
void LogColumnFamilyOptions(Logger* log, const std::string& cf_name, const ColumnFamilyOptions& o,
                            const BlockBasedTableOptions& t);

}  // namespace strata
