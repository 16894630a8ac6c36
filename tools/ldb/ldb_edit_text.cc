// VersionEditText and the unique-id forms (tools/ldb/ldb_edit_text.h).

#include "tools/ldb/ldb_edit_text.h"

#include <cstdint>

#include "strata/slice.h"
#include "tools/ldb/ldb_manifest.h"
#include "util/coding.h"

namespace strata::ldb {
namespace {

uint64_t Avalanche(uint64_t h) {
  h ^= h >> 37;
  h *= 0x165667919E3779F9ULL;
  h ^= h >> 32;
  return h;
}

// RocksDB's BijectiveHash2x64 with seed 0 (an XXH3 9-16 byte finalization
// used as a bijection); the public unique id is this of the internal one.
void Hash2x64(uint64_t in_high, uint64_t in_low, uint64_t* out_high, uint64_t* out_low) {
  const uint64_t flip_low = 0x59973f0033362349ULL;
  const uint64_t flip_high = 0xc202797692d63d58ULL;
  unsigned __int128 m =
      static_cast<unsigned __int128>(in_low ^ in_high ^ flip_low) * 0x9E3779B185EBCA87ULL;
  uint64_t lo = static_cast<uint64_t>(m);
  uint64_t hi = static_cast<uint64_t>(m >> 64);
  lo += 0x3c0000000000000ULL;
  in_high ^= flip_high;
  hi += in_high + (static_cast<uint64_t>(static_cast<uint32_t>(in_high)) * 0x85EBCA76ULL);
  lo ^= __builtin_bswap64(hi);
  m = static_cast<unsigned __int128>(lo) * 0xC2B2AE3D27D4EB4FULL;
  lo = static_cast<uint64_t>(m);
  hi = static_cast<uint64_t>(m >> 64) + hi * 0xC2B2AE3D27D4EB4FULL;
  *out_low = Avalanche(lo);
  *out_high = Avalanche(hi);
}

}  // namespace

std::string UniqueIdInternalText(const std::string& id) {
  if (id.size() != 16) return "";
  return "{" + std::to_string(DecodeFixed64(id.data())) + "," +
         std::to_string(DecodeFixed64(id.data() + 8)) + "}";
}

std::string UniqueIdPublicText(const std::string& id) {
  if (id.size() != 16) return "";
  const uint64_t lo_offset = 6417269962128484497ULL;
  const uint64_t hi_offset = 17391078804906429400ULL;
  uint64_t hi = 0;
  uint64_t lo = 0;
  Hash2x64(DecodeFixed64(id.data() + 8) + hi_offset, DecodeFixed64(id.data()) + lo_offset, &hi,
           &lo);
  std::string bytes;
  PutFixed64(&bytes, lo);
  PutFixed64(&bytes, hi);
  std::string text = Slice(bytes).ToString(true);
  for (size_t i = 16; i < text.size(); i += 17) text.insert(i, "-");
  return text;
}

std::string VersionEditText(const VersionEdit& e, bool hex) {
  std::string r = "VersionEdit {";
  if (e.db_id().has_value()) r += "\n  DB ID: " + *e.db_id();
  if (e.comparator().has_value()) r += "\n  Comparator: " + *e.comparator();
  if (e.log_number().has_value()) r += "\n  LogNumber: " + std::to_string(*e.log_number());
  if (e.prev_log_number().has_value()) {
    r += "\n  PrevLogNumber: " + std::to_string(*e.prev_log_number());
  }
  if (e.next_file_number().has_value()) {
    r += "\n  NextFileNumber: " + std::to_string(*e.next_file_number());
  }
  if (e.max_column_family().has_value()) {
    r += "\n  MaxColumnFamily: " + std::to_string(*e.max_column_family());
  }
  if (e.min_log_number_to_keep().has_value()) {
    r += "\n  MinLogNumberToKeep: " + std::to_string(*e.min_log_number_to_keep());
  }
  if (e.last_sequence().has_value()) r += "\n  LastSeq: " + std::to_string(*e.last_sequence());
  for (const auto& [level, number] : e.deleted_files()) {
    r += "\n  DeleteFile: " + std::to_string(level) + " " + std::to_string(number);
  }
  for (const auto& [level, f] : e.new_files()) {
    r += "\n  AddFile: " + std::to_string(level) + " " + std::to_string(f.number) + " " +
         std::to_string(f.file_size) + " " + InternalKeyDebugString(f.smallest, hex) + " .. " +
         InternalKeyDebugString(f.largest, hex);
    if (f.oldest_blob_file_number != 0) {
      r += " blob_file:" + std::to_string(f.oldest_blob_file_number);
    }
    r += " oldest_ancester_time:" + std::to_string(f.oldest_ancester_time);
    r += " file_creation_time:" + std::to_string(f.file_creation_time);
    r += " file_checksum:" + Slice(f.file_checksum).ToString(true);
    r += " file_checksum_func_name: " + f.file_checksum_func_name;
    if (f.temperature != 0) r += " temperature: " + std::to_string(f.temperature);
    if (f.unique_id.size() == 16 && f.unique_id != std::string(16, '\0')) {
      r += " unique_id(internal): " + UniqueIdInternalText(f.unique_id);
      r += " public_unique_id: " + UniqueIdPublicText(f.unique_id);
    }
  }
  r += "\n  ColumnFamily: " + std::to_string(e.column_family());
  if (e.column_family_add().has_value()) r += "\n  ColumnFamilyAdd: " + *e.column_family_add();
  if (e.is_column_family_drop()) r += "\n  ColumnFamilyDrop";
  if (e.remaining_in_atomic_group().has_value()) {
    r += "\n  AtomicGroup: " + std::to_string(*e.remaining_in_atomic_group()) + " entries remains";
  }
  r += "\n}\n";
  return r;
}

namespace {

// A property strata keeps only as raw bytes (a varint64), 0 if absent.
uint64_t RawNumber(const TableProperties& p, const std::string& name) {
  auto it = p.user_collected_properties.find(name);
  if (it == p.user_collected_properties.end()) return 0;
  Slice in(it->second);
  uint64_t v = 0;
  return GetVarint64(&in, &v) ? v : 0;
}

std::string OrNA(const std::string& s) { return s.empty() ? "N/A" : s; }

}  // namespace

std::string TablePropertiesText(const TableProperties& p, const std::string& unique_id) {
  std::string r;
  auto add = [&r](const std::string& name, const std::string& value) {
    r += name + "=" + value + "\n";
  };
  auto num = [&add](const std::string& name, uint64_t v) { add(name, std::to_string(v)); };
  num("# data blocks", p.num_data_blocks);
  num("# entries", p.num_entries);
  num("# deletions", p.num_deletions);
  num("# merge operands", p.num_merge_operands);
  num("# range deletions", p.num_range_deletions);
  num("raw key size", p.raw_key_size);
  add("raw average key size",
      std::to_string(p.num_entries != 0 ? 1.0 * p.raw_key_size / p.num_entries : 0.0));
  num("raw value size", p.raw_value_size);
  add("raw average value size",
      std::to_string(p.num_entries != 0 ? 1.0 * p.raw_value_size / p.num_entries : 0.0));
  num("data block size", p.data_size);
  num("index block size (user-key? " + std::to_string(p.index_key_is_user_key) + ", delta-value? " +
          std::to_string(p.index_value_is_delta_encoded) + ")",
      p.index_size);
  if (p.index_partitions != 0) {
    num("# index partitions", p.index_partitions);
    num("top-level index size", p.top_level_index_size);
  }
  num("filter block size", p.filter_size);
  num("# entries for filter", p.num_filter_entries);
  num("(estimated) table size", p.data_size + p.index_size + p.filter_size);
  add("filter policy name", OrNA(p.filter_policy_name));
  add("prefix extractor name", OrNA(p.prefix_extractor_name));
  add("column family ID",
      p.column_family_id == 0x7fffffff ? "N/A" : std::to_string(p.column_family_id));
  add("column family name", OrNA(p.column_family_name));
  add("comparator name", OrNA(p.comparator_name));
  add("merge operator name", OrNA(p.merge_operator_name));
  add("property collectors names", OrNA(p.property_collectors_names));
  add("SST file compression algo", OrNA(p.compression_name));
  add("SST file compression options", OrNA(p.compression_options));
  num("creation time", p.creation_time);
  num("time stamp of earliest key", p.oldest_key_time);
  num("file creation time", p.file_creation_time);
  num("slow compression estimated data size",
      RawNumber(p, "rocksdb.sample_for_compression.slow.data.size"));
  num("fast compression estimated data size",
      RawNumber(p, "rocksdb.sample_for_compression.fast.data.size"));
  add("DB identity", p.db_id);
  add("DB session identity", p.db_session_id);
  add("DB host id", p.db_host_id);
  num("original file number", p.original_file_number);
  const bool has_id = unique_id.size() == 16 && unique_id != std::string(16, '\0');
  add("unique ID", has_id ? UniqueIdPublicText(unique_id) : "N/A");
  // Strata writes no sequence-number-to-time samples; an empty map prints
  // as nothing.
  add("Sequence number to time mapping", "");
  return r;
}

}  // namespace strata::ldb
