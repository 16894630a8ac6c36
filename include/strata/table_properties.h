// TableProperties: what a table file says about itself in its properties
// block (docs/format/table.md (Properties)), under RocksDB's property names, so the same
// facts show in `sst_dump --show_properties` from either project.
//
// Thread-safety: plain data.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "strata/export.h"

namespace strata {

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
  uint64_t index_key_is_user_key = 0;
  uint64_t index_value_is_delta_encoded = 0;
  uint32_t index_type = 0;  // fixed32 in the block

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

  // Every other property, by name (raw bytes).
  std::map<std::string, std::string> user_collected_properties;

  // "name = value" lines ("; " separated) in the spirit of RocksDB's
  // TableProperties::ToString, for tools.
  std::string ToString(const std::string& prop_delim = "; ",
                       const std::string& kv_delim = "=") const;
};

}  // namespace strata
