// TableProperties::ToString (contract in include/strata/table_properties.h):
// one "name<kv_delim>value" item per field, each followed by prop_delim, in
// the order and with the wording RocksDB's sst_dump --show_properties uses
// where the two overlap, then our extra fields, then every user-collected
// property (printable values as they are, others as 0x-hex).

#include "strata/table_properties.h"

#include <cstdio>
#include <string>

#include "strata/convenience.h"
#include "util/coding.h"

namespace strata {

namespace {

void Append(std::string* out, const std::string& name, const std::string& value,
            const std::string& prop_delim, const std::string& kv_delim) {
  out->append(name);
  out->append(kv_delim);
  out->append(value);
  out->append(prop_delim);
}

std::string Number(uint64_t v) { return std::to_string(v); }

std::string Average(uint64_t total, uint64_t count) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%f",
                count == 0 ? 0.0 : static_cast<double>(total) / static_cast<double>(count));
  return buf;
}

std::string OrNA(const std::string& s) { return s.empty() ? "N/A" : s; }

bool Printable(const std::string& s) {
  for (const char c : s) {
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

std::string Hex(const std::string& s) {
  static const char kDigits[] = "0123456789ABCDEF";
  std::string out = "0x";
  for (const char c : s) {
    const auto b = static_cast<unsigned char>(c);
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 0xf]);
  }
  return out;
}

}  // namespace

std::string TableProperties::ToString(const std::string& prop_delim,
                                      const std::string& kv_delim) const {
  std::string r;
  auto add = [&](const std::string& name, const std::string& value) {
    Append(&r, name, value, prop_delim, kv_delim);
  };
  add("# data blocks", Number(num_data_blocks));
  add("# entries", Number(num_entries));
  add("# deletions", Number(num_deletions));
  add("# merge operands", Number(num_merge_operands));
  add("# range deletions", Number(num_range_deletions));
  add("raw key size", Number(raw_key_size));
  add("raw average key size", Average(raw_key_size, num_entries));
  add("raw value size", Number(raw_value_size));
  add("raw average value size", Average(raw_value_size, num_entries));
  add("data block size", Number(data_size));
  add("index block size (user-key? " + Number(index_key_is_user_key) + ", delta-value? " +
          Number(index_value_is_delta_encoded) + ")",
      Number(index_size));
  if (index_partitions != 0) {
    add("# index partitions", Number(index_partitions));
    add("top-level index size", Number(top_level_index_size));
  }
  add("index type", Number(index_type));
  add("filter block size", Number(filter_size));
  add("# entries for filter", Number(num_filter_entries));
  add("(estimated) table size", Number(data_size + index_size + filter_size));
  add("filter policy name", OrNA(filter_policy_name));
  add("whole key filtering", OrNA(whole_key_filtering));
  add("prefix filtering", OrNA(prefix_filtering));
  add("prefix extractor name", OrNA(prefix_extractor_name));
  add("column family ID", column_family_id == 0x7fffffff ? "N/A" : Number(column_family_id));
  add("column family name", OrNA(column_family_name));
  add("comparator name", OrNA(comparator_name));
  add("merge operator name", OrNA(merge_operator_name));
  add("property collectors names", OrNA(property_collectors_names));
  add("SST file compression algo", OrNA(compression_name));
  add("SST file compression options", OrNA(compression_options));
  add("creation time", Number(creation_time));
  add("time stamp of earliest key", Number(oldest_key_time));
  add("file creation time", Number(file_creation_time));
  add("format version", Number(format_version));
  add("fixed key length", Number(fixed_key_len));
  add("DB identity", db_id);
  add("DB session identity", db_session_id);
  add("DB host id", db_host_id);
  add("original file number", Number(original_file_number));
  for (const auto& [name, value] : user_collected_properties) {
    add(name, Printable(value) ? value : Hex(value));
  }
  return r;
}

void TableProperties::Add(const TableProperties& tp) {
  data_size += tp.data_size;
  index_size += tp.index_size;
  index_partitions += tp.index_partitions;
  top_level_index_size += tp.top_level_index_size;
  index_key_is_user_key += tp.index_key_is_user_key;
  index_value_is_delta_encoded += tp.index_value_is_delta_encoded;
  filter_size += tp.filter_size;
  raw_key_size += tp.raw_key_size;
  raw_value_size += tp.raw_value_size;
  num_data_blocks += tp.num_data_blocks;
  num_entries += tp.num_entries;
  num_filter_entries += tp.num_filter_entries;
  num_deletions += tp.num_deletions;
  num_merge_operands += tp.num_merge_operands;
  num_range_deletions += tp.num_range_deletions;
  slow_compression_estimated_data_size += tp.slow_compression_estimated_data_size;
  fast_compression_estimated_data_size += tp.fast_compression_estimated_data_size;
}

std::map<std::string, uint64_t> TableProperties::GetAggregatablePropertiesAsMap() const {
  return {
      {"data_size", data_size},
      {"index_size", index_size},
      {"index_partitions", index_partitions},
      {"top_level_index_size", top_level_index_size},
      {"filter_size", filter_size},
      {"raw_key_size", raw_key_size},
      {"raw_value_size", raw_value_size},
      {"num_data_blocks", num_data_blocks},
      {"num_entries", num_entries},
      {"num_filter_entries", num_filter_entries},
      {"num_deletions", num_deletions},
      {"num_merge_operands", num_merge_operands},
      {"num_range_deletions", num_range_deletions},
      {"slow_compression_estimated_data_size", slow_compression_estimated_data_size},
      {"fast_compression_estimated_data_size", fast_compression_estimated_data_size},
  };
}

std::size_t TableProperties::ApproximateMemoryUsage() const {
  std::size_t usage = sizeof(*this);
  for (const std::string* s :
       {&db_id, &db_session_id, &db_host_id, &column_family_name, &filter_policy_name,
        &comparator_name, &merge_operator_name, &prefix_extractor_name, &property_collectors_names,
        &compression_name, &compression_options}) {
    usage += s->size();
  }
  for (const auto& [name, value] : user_collected_properties) usage += name.size() + value.size();
  return usage;
}

namespace {

uint64_t Uint64Property(const UserCollectedProperties& props, const std::string& name,
                        bool* present) {
  auto it = props.find(name);
  if (it == props.end()) {
    *present = false;
    return 0;
  }
  Slice in(it->second);
  uint64_t v = 0;
  // RocksDB answers a value that does not decode as 0, still "present".
  *present = true;
  if (!GetVarint64(&in, &v)) return 0;
  return v;
}

}  // namespace

uint64_t GetDeletedKeys(const UserCollectedProperties& props) {
  bool present = false;
  return Uint64Property(props, "rocksdb.deleted.keys", &present);
}

uint64_t GetMergeOperands(const UserCollectedProperties& props, bool* property_present) {
  return Uint64Property(props, "rocksdb.merge.operands", property_present);
}

std::string TablePropertiesCollectorFactory::ToString(const ConfigOptions& config_options) const {
  return ToString(config_options, "");
}

std::string TablePropertiesCollectorFactory::ToString(const ConfigOptions& config_options,
                                                      const std::string& prefix) const {
  const std::map<std::string, std::string> options = SerializedOptions();
  if (options.empty()) return Name();
  const std::string& d = config_options.delimiter;
  std::string out = "{" + prefix + "id=" + Name() + d;
  for (const auto& [name, value] : options) out += name + "=" + value + d;
  return out + "}";
}

}  // namespace strata
