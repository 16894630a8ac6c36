// The option table, option strings and maps (see db/options_helper.h and
// strata/convenience.h).
#include "db/options_helper.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "strata/cache.h"
#include "strata/comparator.h"
#include "strata/file_checksum.h"
#include "strata/filter_policy.h"
#include "strata/flush_block_policy.h"
#include "strata/merge_operator.h"
#include "strata/slice_transform.h"
#include "strata/sst_partitioner.h"
#include "table/compression.h"
#include "table/filter_policy.h"

namespace strata {

namespace {

// ---- the table ----

// clang-format off
#define STRATA_DB_OPT(name, type, mut)                                                   \
  OptionInfo{#name, OptionScope::kDB, OptionType::type, mut,                             \
             [](void* o) -> void* { return &static_cast<DBOptions*>(o)->name; }}
#define STRATA_CF_OPT(name, type, mut)                                                   \
  OptionInfo{#name, OptionScope::kCF, OptionType::type, mut,                             \
             [](void* o) -> void* { return &static_cast<ColumnFamilyOptions*>(o)->name; }}
#define STRATA_TABLE_OPT(name, type, mut)                                                \
  OptionInfo{#name, OptionScope::kTable, OptionType::type, mut,                          \
             [](void* o) -> void* { return &static_cast<BlockBasedTableOptions*>(o)->name; }}
// clang-format on

std::vector<OptionInfo> BuildTable() {
  std::vector<OptionInfo> t = {
      // DBOptions (env, info_log, listeners, statistics: objects without a
      // text form, not in the table).
      STRATA_DB_OPT(create_if_missing, kBool, false),
      STRATA_DB_OPT(create_missing_column_families, kBool, false),
      STRATA_DB_OPT(error_if_exists, kBool, false),
      STRATA_DB_OPT(paranoid_checks, kBool, false),
      STRATA_DB_OPT(info_log_level, kInfoLogLevel, false),
      STRATA_DB_OPT(max_log_file_size, kSizeT, false),
      STRATA_DB_OPT(log_file_time_to_roll, kSizeT, false),
      STRATA_DB_OPT(keep_log_file_num, kSizeT, false),
      STRATA_DB_OPT(db_log_dir, kString, false),
      STRATA_DB_OPT(max_open_files, kInt, true),
      STRATA_DB_OPT(max_background_jobs, kInt, true),
      STRATA_DB_OPT(max_manifest_file_size, kUInt64, false),
      STRATA_DB_OPT(delayed_write_rate, kUInt64, true),
      STRATA_DB_OPT(max_total_wal_size, kUInt64, true),
      STRATA_DB_OPT(wal_recovery_mode, kWalRecoveryMode, false),
      STRATA_DB_OPT(allow_concurrent_memtable_write, kBool, false),
      STRATA_DB_OPT(enable_pipelined_write, kBool, false),
      STRATA_DB_OPT(wal_mmap_writes, kBool, false),
      STRATA_DB_OPT(allow_mmap_writes, kBool, false),
      STRATA_DB_OPT(allow_mmap_reads, kBool, false),
      STRATA_DB_OPT(table_mmap_reads, kBool, false),
      STRATA_DB_OPT(use_direct_reads, kBool, false),
      STRATA_DB_OPT(use_fsync, kBool, false),
      STRATA_DB_OPT(wal_preallocation_size, kSizeT, false),
      STRATA_DB_OPT(writable_file_max_buffer_size, kSizeT, true),
      STRATA_DB_OPT(max_write_batch_group_size_bytes, kSizeT, false),
      STRATA_DB_OPT(avoid_flush_during_recovery, kBool, false),
      STRATA_DB_OPT(avoid_flush_during_shutdown, kBool, true),
      STRATA_DB_OPT(max_bgerror_resume_count, kInt, false),
      STRATA_DB_OPT(bgerror_resume_retry_interval, kUInt64, false),
      STRATA_DB_OPT(stats_dump_period_sec, kUInt, true),
      STRATA_DB_OPT(WAL_ttl_seconds, kUInt64, false),
      STRATA_DB_OPT(WAL_size_limit_MB, kUInt64, false),
      STRATA_DB_OPT(manual_wal_flush, kBool, false),
      STRATA_DB_OPT(wal_compression, kCompression, false),
      STRATA_DB_OPT(allow_ingest_behind, kBool, false),
      STRATA_DB_OPT(allow_2pc, kBool, false),
      // File placement and direct I/O (issue 19, "paths"); db_paths and
      // cf_paths have no text form in RocksDB 7.8.3's OPTIONS file either.
      STRATA_DB_OPT(use_direct_io_for_flush_and_compaction, kBool, false),
      STRATA_DB_OPT(compaction_readahead_size, kSizeT, true),
      STRATA_DB_OPT(wal_dir, kString, false),
      // Paced I/O (issue 19); mutable as in RocksDB 7.8.3. rate_limiter and
      // sst_file_manager are objects without a text form (not in the table).
      STRATA_DB_OPT(bytes_per_sync, kUInt64, true),
      STRATA_DB_OPT(wal_bytes_per_sync, kUInt64, true),
      STRATA_DB_OPT(strict_bytes_per_sync, kBool, true),
      // Memory (issue 19); write_buffer_manager is an object without a
      // text form. memory_budget is Strata's own.
      STRATA_DB_OPT(db_write_buffer_size, kSizeT, false),
      STRATA_DB_OPT(memory_budget, kUInt64, false),
      STRATA_DB_OPT(file_checksum_gen_factory, kFileChecksumGenFactory, false),
      // ColumnFamilyOptions (compaction_filter, compaction_filter_factory:
      // objects without a text form). max_subcompactions is a DB option in
      // RocksDB and a family option here (SetDBOptions sets every family's).
      STRATA_CF_OPT(comparator, kComparator, false),
      STRATA_CF_OPT(write_buffer_size, kSizeT, true),
      STRATA_CF_OPT(max_write_buffer_number, kInt, true),
      STRATA_CF_OPT(compression, kCompression, true),
      STRATA_CF_OPT(num_levels, kInt, false),
      STRATA_CF_OPT(level0_file_num_compaction_trigger, kInt, true),
      STRATA_CF_OPT(level0_slowdown_writes_trigger, kInt, true),
      STRATA_CF_OPT(level0_stop_writes_trigger, kInt, true),
      STRATA_CF_OPT(soft_pending_compaction_bytes_limit, kUInt64, true),
      STRATA_CF_OPT(hard_pending_compaction_bytes_limit, kUInt64, true),
      STRATA_CF_OPT(target_file_size_multiplier, kInt, true),
      STRATA_CF_OPT(max_compaction_bytes, kUInt64, true),
      STRATA_CF_OPT(disable_auto_compactions, kBool, true),
      STRATA_CF_OPT(target_file_size_base, kUInt64, true),
      STRATA_CF_OPT(max_bytes_for_level_base, kUInt64, true),
      STRATA_CF_OPT(max_bytes_for_level_multiplier, kDouble, true),
      STRATA_CF_OPT(level_compaction_dynamic_level_bytes, kBool, false),
      STRATA_CF_OPT(max_subcompactions, kUInt, false),
      STRATA_CF_OPT(arena_block_size, kSizeT, true),
      STRATA_CF_OPT(memtable_point_index, kBool, false),
      STRATA_CF_OPT(l0_key_filter_bits_per_key, kUInt, false),
      STRATA_CF_OPT(merge_operator, kMergeOperator, false),
      STRATA_CF_OPT(prefix_extractor, kPrefixExtractor, true),
      STRATA_CF_OPT(memtable_prefix_bloom_size_ratio, kDouble, true),
      STRATA_CF_OPT(memtable_whole_key_filtering, kBool, true),
      STRATA_CF_OPT(sst_partitioner_factory, kSstPartitionerFactory, false),
      // Compaction styles and compression by level (RocksDB 7.8.3:
      // compaction_style and compaction_pri are immutable, the rest can be
      // changed by SetOptions).
      STRATA_CF_OPT(max_bytes_for_level_multiplier_additional, kIntVector, true),
      STRATA_CF_OPT(compaction_style, kCompactionStyle, false),
      STRATA_CF_OPT(compaction_pri, kCompactionPri, false),
      STRATA_CF_OPT(compaction_options_universal, kCompactionOptionsUniversal, true),
      STRATA_CF_OPT(compaction_options_fifo, kCompactionOptionsFIFO, true),
      STRATA_CF_OPT(ttl, kUInt64, true),
      STRATA_CF_OPT(periodic_compaction_seconds, kUInt64, true),
      STRATA_CF_OPT(compression_per_level, kCompressionVector, true),
      STRATA_CF_OPT(bottommost_compression, kCompression, true),
      STRATA_CF_OPT(compression_opts, kCompressionOptions, true),
      STRATA_CF_OPT(bottommost_compression_opts, kCompressionOptions, true),
      // BlockBasedTableOptions.
      STRATA_TABLE_OPT(flush_block_policy_factory, kFlushBlockPolicyFactory, false),
      STRATA_TABLE_OPT(block_size, kSizeT, true),
      STRATA_TABLE_OPT(block_size_deviation, kInt, false),
      STRATA_TABLE_OPT(block_restart_interval, kInt, true),
      STRATA_TABLE_OPT(index_block_restart_interval, kInt, false),
      STRATA_TABLE_OPT(use_delta_encoding, kBool, false),
      STRATA_TABLE_OPT(index_type, kIndexType, false),
      STRATA_TABLE_OPT(data_block_index_type, kDataBlockIndexType, false),
      STRATA_TABLE_OPT(data_block_hash_table_util_ratio, kDouble, false),
      STRATA_TABLE_OPT(enable_index_compression, kBool, false),
      STRATA_TABLE_OPT(block_cache, kBlockCache, false),
      STRATA_TABLE_OPT(no_block_cache, kBool, false),
      STRATA_TABLE_OPT(cache_index_and_filter_blocks, kBool, false),
      STRATA_TABLE_OPT(cache_index_and_filter_blocks_with_high_priority, kBool, false),
      STRATA_TABLE_OPT(pin_l0_filter_and_index_blocks_in_cache, kBool, false),
      STRATA_TABLE_OPT(filter_policy, kFilterPolicy, false),
      STRATA_TABLE_OPT(whole_key_filtering, kBool, false),
      // Partitioned index and filters (issue 19).
      STRATA_TABLE_OPT(partition_filters, kBool, false),
      STRATA_TABLE_OPT(metadata_block_size, kUInt64, false),
      STRATA_TABLE_OPT(pin_top_level_index_and_filter, kBool, false),
      STRATA_TABLE_OPT(checksum, kChecksum, false),
      STRATA_TABLE_OPT(format_version, kUInt, false),
      STRATA_TABLE_OPT(initial_auto_readahead_size, kSizeT, true),
      STRATA_TABLE_OPT(max_auto_readahead_size, kSizeT, true),
  };
  for (OptionInfo& i : t) {
    if (i.type == OptionType::kBlockCache) i.printable = false;
  }
  return t;
}

// A field of a nested struct option (always mutable: RocksDB 7.8.3 makes
// every field of the three structs mutable).
// clang-format off
#define STRATA_SUB_OPT(Struct, name, type)                                               \
  OptionInfo{#name, OptionScope::kCF, OptionType::type, true,                            \
             [](void* o) -> void* { return &static_cast<Struct*>(o)->name; }}
// clang-format on

// The orders are those of RocksDB 7.8.3's OPTIONS files, so that the text
// Strata writes matches RocksDB's line for line.
std::vector<OptionInfo> BuildUniversalTable() {
  return {
      STRATA_SUB_OPT(CompactionOptionsUniversal, incremental, kBool),
      STRATA_SUB_OPT(CompactionOptionsUniversal, compression_size_percent, kInt),
      STRATA_SUB_OPT(CompactionOptionsUniversal, allow_trivial_move, kBool),
      STRATA_SUB_OPT(CompactionOptionsUniversal, max_size_amplification_percent, kUInt),
      STRATA_SUB_OPT(CompactionOptionsUniversal, max_merge_width, kUInt),
      STRATA_SUB_OPT(CompactionOptionsUniversal, stop_style, kCompactionStopStyle),
      STRATA_SUB_OPT(CompactionOptionsUniversal, min_merge_width, kUInt),
      STRATA_SUB_OPT(CompactionOptionsUniversal, size_ratio, kUInt),
  };
}

std::vector<OptionInfo> BuildFIFOTable() {
  return {
      STRATA_SUB_OPT(CompactionOptionsFIFO, allow_compaction, kBool),
      STRATA_SUB_OPT(CompactionOptionsFIFO, age_for_warm, kUInt64),
      STRATA_SUB_OPT(CompactionOptionsFIFO, max_table_files_size, kUInt64),
  };
}

std::vector<OptionInfo> BuildCompressionOptionsTable() {
  return {
      STRATA_SUB_OPT(CompressionOptions, max_dict_buffer_bytes, kUInt64),
      STRATA_SUB_OPT(CompressionOptions, enabled, kBool),
      STRATA_SUB_OPT(CompressionOptions, max_dict_bytes, kUInt),
      STRATA_SUB_OPT(CompressionOptions, parallel_threads, kUInt),
      STRATA_SUB_OPT(CompressionOptions, zstd_max_train_bytes, kUInt),
      STRATA_SUB_OPT(CompressionOptions, level, kInt),
      STRATA_SUB_OPT(CompressionOptions, use_zstd_dict_trainer, kBool),
      STRATA_SUB_OPT(CompressionOptions, strategy, kInt),
      STRATA_SUB_OPT(CompressionOptions, window_bits, kInt),
  };
}

static_assert(sizeof(unsigned int) == sizeof(uint32_t), "kUInt fields are 32-bit");

#undef STRATA_DB_OPT
#undef STRATA_CF_OPT
#undef STRATA_TABLE_OPT
#undef STRATA_SUB_OPT

struct ForeignDefault {
  OptionScope scope;
  const char* name;
  const char* value;
};

const ForeignDefault kRocksDBDefaults[] = {
#include "db/rocksdb_option_defaults.inc"
};

// ---- enum spellings (RocksDB's) ----

template <typename E>
struct EnumName {
  E value;
  const char* name;
};

const EnumName<CompressionType> kCompressionNames[] = {
    {kNoCompression, "kNoCompression"},
    {kSnappyCompression, "kSnappyCompression"},
    {kZlibCompression, "kZlibCompression"},
    {kBZip2Compression, "kBZip2Compression"},
    {kLZ4Compression, "kLZ4Compression"},
    {kLZ4HCCompression, "kLZ4HCCompression"},
    {kXpressCompression, "kXpressCompression"},
    {kZSTD, "kZSTD"},
    {kDisableCompressionOption, "kDisableCompressionOption"},
};
const EnumName<WALRecoveryMode> kRecoveryNames[] = {
    {WALRecoveryMode::kTolerateCorruptedTailRecords, "kTolerateCorruptedTailRecords"},
    {WALRecoveryMode::kAbsoluteConsistency, "kAbsoluteConsistency"},
    {WALRecoveryMode::kPointInTimeRecovery, "kPointInTimeRecovery"},
    {WALRecoveryMode::kSkipAnyCorruptedRecords, "kSkipAnyCorruptedRecords"},
};
const EnumName<InfoLogLevel> kLogLevelNames[] = {
    {InfoLogLevel::kDebug, "DEBUG_LEVEL"}, {InfoLogLevel::kInfo, "INFO_LEVEL"},
    {InfoLogLevel::kWarn, "WARN_LEVEL"},   {InfoLogLevel::kError, "ERROR_LEVEL"},
    {InfoLogLevel::kFatal, "FATAL_LEVEL"}, {InfoLogLevel::kHeader, "HEADER_LEVEL"},
};
const EnumName<CompactionStyle> kCompactionStyleNames[] = {
    {kCompactionStyleLevel, "kCompactionStyleLevel"},
    {kCompactionStyleUniversal, "kCompactionStyleUniversal"},
    {kCompactionStyleFIFO, "kCompactionStyleFIFO"},
    {kCompactionStyleNone, "kCompactionStyleNone"},
};
const EnumName<CompactionPri> kCompactionPriNames[] = {
    {kByCompensatedSize, "kByCompensatedSize"},
    {kOldestLargestSeqFirst, "kOldestLargestSeqFirst"},
    {kOldestSmallestSeqFirst, "kOldestSmallestSeqFirst"},
    {kMinOverlappingRatio, "kMinOverlappingRatio"},
    {kRoundRobin, "kRoundRobin"},
};
const EnumName<CompactionStopStyle> kStopStyleNames[] = {
    {kCompactionStopStyleSimilarSize, "kCompactionStopStyleSimilarSize"},
    {kCompactionStopStyleTotalSize, "kCompactionStopStyleTotalSize"},
};
const EnumName<ChecksumType> kChecksumNames[] = {
    {kNoChecksum, "kNoChecksum"}, {kCRC32c, "kCRC32c"}, {kxxHash, "kxxHash"},
    {kxxHash64, "kxxHash64"},     {kXXH3, "kXXH3"},
};
const EnumName<BlockBasedTableOptions::DataBlockIndexType> kDataBlockIndexNames[] = {
    {BlockBasedTableOptions::DataBlockIndexType::kDataBlockBinarySearch, "kDataBlockBinarySearch"},
    {BlockBasedTableOptions::DataBlockIndexType::kDataBlockBinaryAndHash,
     "kDataBlockBinaryAndHash"},
};
const EnumName<BlockBasedTableOptions::IndexType> kIndexTypeNames[] = {
    {BlockBasedTableOptions::IndexType::kBinarySearch, "kBinarySearch"},
    {BlockBasedTableOptions::IndexType::kHashSearch, "kHashSearch"},
    {BlockBasedTableOptions::IndexType::kTwoLevelIndexSearch, "kTwoLevelIndexSearch"},
    {BlockBasedTableOptions::IndexType::kBinarySearchWithFirstKey, "kBinarySearchWithFirstKey"},
};

template <typename E, size_t N>
bool ParseEnum(const EnumName<E> (&names)[N], const std::string& s, E* out) {
  for (const auto& n : names) {
    if (s == n.name) {
      *out = n.value;
      return true;
    }
  }
  return false;
}

template <typename E, size_t N>
std::string EnumToString(const EnumName<E> (&names)[N], E v) {
  for (const auto& n : names) {
    if (n.value == v) return n.name;
  }
  return std::to_string(static_cast<int>(v));
}

template <typename E, size_t N>
std::string EnumChoices(const EnumName<E> (&names)[N]) {
  std::string r;
  for (const auto& n : names) r += (r.empty() ? "" : ", ") + std::string(n.name);
  return r;
}

// ---- scalar parsing (RocksDB's rules) ----

std::string Trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  const size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

// Removes backslash escapes ("\;" -> ";").
std::string Unescape(const std::string& s) {
  std::string r;
  r.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) ++i;
    r.push_back(s[i]);
  }
  return r;
}

// The multiplier of a k/m/g/t suffix (1 if none); *digits = the rest.
bool SplitSuffix(const std::string& s, std::string* digits, uint64_t* mult) {
  *mult = 1;
  *digits = s;
  if (s.empty()) return false;
  switch (s.back()) {
    case 'k':
    case 'K':
      *mult = 1ull << 10;
      break;
    case 'm':
    case 'M':
      *mult = 1ull << 20;
      break;
    case 'g':
    case 'G':
      *mult = 1ull << 30;
      break;
    case 't':
    case 'T':
      *mult = 1ull << 40;
      break;
    default:
      return !s.empty();
  }
  digits->pop_back();
  return !digits->empty();
}

bool ParseUint64(const std::string& s, uint64_t* out) {
  std::string digits;
  uint64_t mult;
  if (!SplitSuffix(s, &digits, &mult)) return false;
  if (digits[0] == '-' || digits[0] == '+') return false;
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = strtoull(digits.c_str(), &end, 10);
  if (errno != 0 || end == digits.c_str() || *end != '\0') return false;
  if (mult != 1 && v > UINT64_MAX / mult) return false;
  *out = v * mult;
  return true;
}

bool ParseInt64(const std::string& s, int64_t* out) {
  std::string digits;
  uint64_t mult;
  if (!SplitSuffix(s, &digits, &mult)) return false;
  errno = 0;
  char* end = nullptr;
  const long long v = strtoll(digits.c_str(), &end, 10);
  if (errno != 0 || end == digits.c_str() || *end != '\0') return false;
  const long long m = static_cast<long long>(mult);
  if (m != 1 && (v > INT64_MAX / m || v < INT64_MIN / m)) return false;
  *out = v * m;
  return true;
}

bool ParseDouble(const std::string& s, double* out) {
  if (s.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const double v = strtod(s.c_str(), &end);
  if (errno != 0 || end == s.c_str() || *end != '\0' || !std::isfinite(v)) return false;
  *out = v;
  return true;
}

bool ParseBool(const std::string& s, bool* out) {
  if (s == "true" || s == "1") {
    *out = true;
  } else if (s == "false" || s == "0") {
    *out = false;
  } else {
    return false;
  }
  return true;
}

std::string DoubleToString(double v) {
  char buf[64];
  snprintf(buf, sizeof(buf), "%f", v);
  return buf;
}

// ---- objects by name ----

Status ParsePrefixExtractor(const std::string& v, std::shared_ptr<const SliceTransform>* out) {
  if (v.empty() || v == "nullptr") {
    out->reset();
    return Status::OK();
  }
  struct Form {
    const char* prefix;
    const SliceTransform* (*make)(size_t);
  };
  const Form forms[] = {{"fixed:", NewFixedPrefixTransform},
                        {"rocksdb.FixedPrefix.", NewFixedPrefixTransform},
                        {"capped:", NewCappedPrefixTransform},
                        {"rocksdb.CappedPrefix.", NewCappedPrefixTransform}};
  for (const Form& f : forms) {
    const size_t n = strlen(f.prefix);
    if (v.compare(0, n, f.prefix) != 0) continue;
    uint64_t len = 0;
    if (!ParseUint64(v.substr(n), &len) || len > (1u << 20)) break;
    out->reset(f.make(static_cast<size_t>(len)));
    return Status::OK();
  }
  if (v == "rocksdb.Noop" || v == "noop") {
    out->reset(NewNoopTransform());
    return Status::OK();
  }
  return Status::InvalidArgument(
      "Error parsing prefix_extractor",
      "unknown prefix extractor " + v + " (Strata has fixed:N, capped:N, rocksdb.Noop)");
}

Status ParseFilterPolicy(const std::string& v, std::shared_ptr<const FilterPolicy>* out) {
  if (v.empty() || v == "nullptr") {
    out->reset();
    return Status::OK();
  }
  // RocksDB's legacy form "bloomfilter:<bits>[:<use_block_based>]" and
  // its id form "rocksdb.BloomFilter:<bits>[:false]".
  for (const char* prefix : {"bloomfilter:", "rocksdb.BloomFilter:"}) {
    const size_t n = strlen(prefix);
    if (v.compare(0, n, prefix) != 0) continue;
    std::string rest = v.substr(n);
    const size_t colon = rest.find(':');
    std::string block_based = "false";
    if (colon != std::string::npos) {
      block_based = rest.substr(colon + 1);
      rest = rest.substr(0, colon);
    }
    double bits = 0;
    bool bb = false;
    if (!ParseDouble(rest, &bits) || !ParseBool(block_based, &bb)) break;
    if (bb) {
      return Status::InvalidArgument("Error parsing filter_policy",
                                     v + ": the block-based (deprecated) Bloom filter is not "
                                         "supported; use bloomfilter:<bits>:false");
    }
    *out = NewBloomFilterPolicy(bits);
    return Status::OK();
  }
  // Ribbon (RocksDB's id): "ribbonfilter:<bits>[:<bloom_before_level>]", or
  // with the nickname "rocksdb.RibbonFilter".
  for (const char* prefix : {"ribbonfilter:", "rocksdb.RibbonFilter:"}) {
    const size_t n = strlen(prefix);
    if (v.compare(0, n, prefix) != 0) continue;
    std::string rest = v.substr(n);
    const size_t colon = rest.find(':');
    int64_t level = 0;
    if (colon != std::string::npos) {
      if (!ParseInt64(rest.substr(colon + 1), &level) || level < INT32_MIN || level > INT32_MAX) {
        break;
      }
      rest = rest.substr(0, colon);
    }
    double bits = 0;
    if (!ParseDouble(rest, &bits)) break;
    *out = NewRibbonFilterPolicy(bits, static_cast<int>(level));
    return Status::OK();
  }
  return Status::InvalidArgument(
      "Error parsing filter_policy",
      "unknown filter policy " + v + " (Strata has bloomfilter:N and ribbonfilter:N[:L])");
}

std::string FilterPolicyToString(const FilterPolicy* p) {
  if (p == nullptr) return "nullptr";
  char buf[64];
  // Ribbon: RocksDB's id "ribbonfilter:<bits>:<bloom_before_level>".
  if (const auto* ribbon = dynamic_cast<const RibbonFilterPolicy*>(p)) {
    snprintf(buf, sizeof(buf), "ribbonfilter:%g:%d", ribbon->millibits_per_key() / 1000.0,
             ribbon->bloom_before_level());
    return buf;
  }
  const auto* bloom = dynamic_cast<const BloomFilterPolicy*>(p);
  if (bloom == nullptr) return p->Name();
  snprintf(buf, sizeof(buf), "bloomfilter:%g:false", bloom->millibits_per_key() / 1000.0);
  return buf;
}

// "{id=StringAppendOperator;delimiter=:}" or a plain id.
Status ParseMergeOperator(const ConfigOptions& config, const std::string& v,
                          std::shared_ptr<MergeOperator>* out) {
  if (v.empty() || v == "nullptr") {
    out->reset();
    return Status::OK();
  }
  std::string id = v;
  std::string delimiter;
  bool has_delimiter = false;
  if (v.front() == '{' || v.find('=') != std::string::npos) {  // nested (braces gone from a map)
    OptionsMap fields;
    Status s = StringToMap(StripBraces(v), &fields);
    if (!s.ok()) return Status::InvalidArgument("Error parsing merge_operator", s.ToString());
    id = fields["id"];
    auto d = fields.find("delimiter");
    if (d != fields.end()) {
      has_delimiter = true;
      delimiter = Unescape(d->second);
    }
  }
  // The base's own operator, kept when the name matches.
  if (*out != nullptr && id == (*out)->Name() && !has_delimiter) return Status::OK();
  std::shared_ptr<MergeOperator> made;
  if (has_delimiter && (id == "StringAppendOperator" || id == "stringappend")) {
    made = MergeOperators::CreateStringAppendOperator(delimiter);
  } else {
    made = MergeOperators::CreateFromStringId(id);
  }
  if (made == nullptr) {
    if (config.ignore_unknown_options) return Status::OK();
    return Status::InvalidArgument("Error parsing merge_operator",
                                   "Strata has no merge operator named " + id +
                                       " (set ColumnFamilyOptions::merge_operator in code)");
  }
  *out = std::move(made);
  return Status::OK();
}

// "nullptr", "{id=SstPartitionerFixedPrefixFactory;length=N;}" or a plain
// id (the fixed-prefix factory then has length 0, as RocksDB makes it).
Status ParseSstPartitionerFactory(const ConfigOptions& config, const std::string& v,
                                  std::shared_ptr<SstPartitionerFactory>* out) {
  if (v.empty() || v == "nullptr") {
    out->reset();
    return Status::OK();
  }
  std::string id = v;
  OptionsMap fields;
  if (v.front() == '{' || v.find('=') != std::string::npos) {
    Status s = StringToMap(StripBraces(v), &fields);
    if (!s.ok())
      return Status::InvalidArgument("Error parsing sst_partitioner_factory", s.ToString());
    id = fields["id"];
    fields.erase("id");
  }
  if (id == SstPartitionerFixedPrefixFactory::kClassName()) {
    uint64_t len = 0;
    for (const auto& [name, value] : fields) {
      if ((name != "length" && name != "Length") || !ParseUint64(Trim(value), &len)) {
        return Status::InvalidArgument("Error parsing sst_partitioner_factory",
                                       "bad field " + name + "=" + value);
      }
    }
    *out = NewSstPartitionerFixedPrefixFactory(static_cast<size_t>(len));
    return Status::OK();
  }
  // The base's own factory, kept when the name matches.
  if (*out != nullptr && id == (*out)->Name()) return Status::OK();
  if (config.ignore_unknown_options) return Status::OK();
  return Status::InvalidArgument("Error parsing sst_partitioner_factory",
                                 "Strata has no SST partitioner factory named " + id +
                                     " (set ColumnFamilyOptions::sst_partitioner_factory in code)");
}

std::string SstPartitionerFactoryToString(const SstPartitionerFactory* f) {
  if (f == nullptr) return "nullptr";
  if (const auto* fixed = dynamic_cast<const SstPartitionerFixedPrefixFactory*>(f)) {
    return std::string("{id=") + fixed->Name() + ";length=" + std::to_string(fixed->prefix_len()) +
           ";}";
  }
  return f->Name();
}

// A factory's name; the size policy is Strata's default (null).
Status ParseFlushBlockPolicyFactory(const ConfigOptions& config, const std::string& v,
                                    std::shared_ptr<FlushBlockPolicyFactory>* out) {
  std::string id = v;
  if (!v.empty() && (v.front() == '{' || v.find('=') != std::string::npos)) {
    OptionsMap fields;
    Status s = StringToMap(StripBraces(v), &fields);
    if (!s.ok()) {
      return Status::InvalidArgument("Error parsing flush_block_policy_factory", s.ToString());
    }
    id = fields["id"];
  }
  if (*out != nullptr && id == (*out)->Name()) return Status::OK();  // the base's own
  if (id.empty() || id == "nullptr" || id == FlushBlockBySizePolicyFactory::kClassName()) {
    out->reset();
  } else if (id == FlushBlockEveryKeyPolicyFactory::kClassName()) {
    *out = std::make_shared<FlushBlockEveryKeyPolicyFactory>();
  } else if (!config.ignore_unknown_options) {
    return Status::InvalidArgument(
        "Error parsing flush_block_policy_factory",
        "Strata has no flush block policy factory named " + id +
            " (set BlockBasedTableOptions::flush_block_policy_factory in code)");
  }
  return Status::OK();
}

Status ParseComparator(const ConfigOptions& config, const std::string& v, const Comparator** out) {
  if (*out != nullptr && v == (*out)->Name()) return Status::OK();
  if (v == BytewiseComparator()->Name()) {
    *out = BytewiseComparator();
  } else if (v == ReverseBytewiseComparator()->Name()) {
    *out = ReverseBytewiseComparator();
  } else if (!config.ignore_unknown_options) {
    return Status::InvalidArgument(
        "Error parsing comparator",
        "Strata has no comparator named " + v + " (set ColumnFamilyOptions::comparator in code)");
  }
  return Status::OK();
}

Status BadValue(const OptionInfo& info, const std::string& value, const std::string& why) {
  return Status::InvalidArgument(std::string("Error parsing ") + info.name,
                                 "\"" + value + "\"" + (why.empty() ? "" : ": " + why));
}

// ---- lists and nested structs ----

std::vector<std::string> SplitColons(const std::string& s) {
  std::vector<std::string> r;
  if (Trim(s).empty()) return r;
  size_t start = 0;
  while (true) {
    const size_t colon = s.find(':', start);
    r.push_back(
        Trim(s.substr(start, colon == std::string::npos ? std::string::npos : colon - start)));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return r;
}

Status ParseIntVector(const OptionInfo& info, const std::string& value, std::vector<int>* out) {
  std::vector<int> r;
  for (const std::string& item : SplitColons(value)) {
    int64_t v;
    if (!ParseInt64(item, &v) || v < INT32_MIN || v > INT32_MAX) {
      return BadValue(info, value, "\"" + item + "\" is not an int (expected e.g. 1:1:1)");
    }
    r.push_back(static_cast<int>(v));
  }
  *out = std::move(r);
  return Status::OK();
}

Status ParseCompressionVector(const OptionInfo& info, const std::string& value,
                              std::vector<CompressionType>* out) {
  std::vector<CompressionType> r;
  for (const std::string& item : SplitColons(value)) {
    CompressionType t;
    if (!ParseEnum(kCompressionNames, item, &t)) {
      return BadValue(info, value,
                      "\"" + item + "\" is not one of " + EnumChoices(kCompressionNames));
    }
    r.push_back(t);
  }
  *out = std::move(r);
  return Status::OK();
}

template <typename T, typename F>
std::string JoinColons(const std::vector<T>& v, F to_string) {
  std::string r;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i > 0) r += ":";
    r += to_string(v[i]);
  }
  return r;
}

// RocksDB's older form of compression_opts / bottommost_compression_opts:
// "window_bits:level:strategy[:max_dict_bytes[:zstd_max_train_bytes
// [:parallel_threads]:enabled[:max_dict_buffer_bytes[:use_zstd_dict_trainer]]]]]".
// After zstd_max_train_bytes a sixth field is parallel_threads when more
// follow and `enabled` when it is the last (RocksDB's rule: the form once
// ended with enabled).
Status ParseCompressionOptionsColons(const OptionInfo& info, const std::string& value,
                                     CompressionOptions* out) {
  const std::vector<std::string> f = SplitColons(value);
  if (f.size() < 3 || f.size() > 9) {
    return BadValue(info, value,
                    "expected {name=value;...} or window_bits:level:strategy[:...] (3 to 9 "
                    "fields)");
  }
  CompressionOptions c = *out;
  auto int_field = [&](size_t i, int* dst) {
    int64_t v;
    if (!ParseInt64(f[i], &v) || v < INT32_MIN || v > INT32_MAX) return false;
    *dst = static_cast<int>(v);
    return true;
  };
  auto uint_field = [&](size_t i, uint32_t* dst) {
    uint64_t v;
    if (!ParseUint64(f[i], &v) || v > UINT32_MAX) return false;
    *dst = static_cast<uint32_t>(v);
    return true;
  };
  bool ok = int_field(0, &c.window_bits) && int_field(1, &c.level) && int_field(2, &c.strategy);
  size_t i = 3;
  if (ok && i < f.size()) ok = uint_field(i++, &c.max_dict_bytes);
  if (ok && i < f.size()) ok = uint_field(i++, &c.zstd_max_train_bytes);
  if (ok && i < f.size()) {
    if (i + 1 < f.size()) {
      ok = uint_field(i++, &c.parallel_threads);
    } else {
      ok = ParseBool(f[i++], &c.enabled);
    }
  }
  if (ok && i < f.size()) ok = ParseBool(f[i++], &c.enabled);
  if (ok && i < f.size()) ok = ParseUint64(f[i++], &c.max_dict_buffer_bytes);
  if (ok && i < f.size()) ok = ParseBool(f[i++], &c.use_zstd_dict_trainer);
  if (!ok || i != f.size()) return BadValue(info, value, "a field of the colon form is malformed");
  *out = c;
  return Status::OK();
}

// One field of a nested struct option: `field` of the struct at `object`.
Status ParseNestedField(const ConfigOptions& config, const OptionInfo& info,
                        const std::string& field, const std::string& value, void* object) {
  const std::vector<OptionInfo>* sub = NestedOptionTable(info.type);
  const std::string full = std::string(info.name) + "." + field;
  for (const OptionInfo& i : *sub) {
    if (field != i.name) continue;
    OptionInfo named = i;
    named.name = full.c_str();
    return ParseOptionValue(config, named, value, object);
  }
  // RocksDB 7.8.3 still reads and ignores FIFO's old ttl field (the
  // family's ttl replaced it).
  if (info.type == OptionType::kCompactionOptionsFIFO && field == "ttl") return Status::OK();
  if (config.ignore_unknown_options) return Status::OK();
  std::string known;
  for (const OptionInfo& i : *sub) known += (known.empty() ? "" : ", ") + std::string(i.name);
  return Status::InvalidArgument(
      "Error parsing " + full,
      "no such field of " + std::string(info.name) + " (it has " + known + ")");
}

// A whole nested struct option: "{a=1;b=2}" (fields not named keep their
// value) or the legacy scalar forms RocksDB still reads.
Status ParseNested(const ConfigOptions& config, const OptionInfo& info, const std::string& value,
                   void* object) {
  if (value.find('=') == std::string::npos) {
    if (info.type == OptionType::kCompressionOptions) {
      return ParseCompressionOptionsColons(info, StripBraces(value),
                                           static_cast<CompressionOptions*>(object));
    }
    if (info.type == OptionType::kCompactionOptionsFIFO && !StripBraces(value).empty()) {
      // RocksDB's old form: just max_table_files_size.
      if (!ParseUint64(StripBraces(value),
                       &static_cast<CompactionOptionsFIFO*>(object)->max_table_files_size)) {
        return BadValue(info, value, "expected {name=value;...} or a max_table_files_size");
      }
      return Status::OK();
    }
  }
  OptionsMap fields;
  Status s = StringToMap(StripBraces(value), &fields);
  if (!s.ok()) return BadValue(info, value, s.ToString());
  for (const auto& [k, v] : fields) {
    s = ParseNestedField(config, info, k, v, object);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

std::string NestedToString(const OptionInfo& info, const void* object) {
  std::string r = "{";
  for (const OptionInfo& i : *NestedOptionTable(info.type)) {
    r += i.name;
    r += "=";
    r += OptionValueToString(i, object);
    r += ";";
  }
  return r + "}";
}

// Whether two option texts mean the same value (numbers numerically, bools
// in either spelling, nested maps field by field).
bool SameValue(const std::string& a, const std::string& b) {
  if (a == b) return true;
  bool ba, bb;
  if (ParseBool(a, &ba) && ParseBool(b, &bb)) return ba == bb;
  double da, db;
  if (ParseDouble(a, &da) && ParseDouble(b, &db)) return da == db;
  // Nested values: a map's values come without their braces.
  if (a.find('=') != std::string::npos && b.find('=') != std::string::npos) {
    OptionsMap ma, mb;
    if (!StringToMap(StripBraces(a), &ma).ok() || !StringToMap(StripBraces(b), &mb).ok()) {
      return false;
    }
    if (ma.size() != mb.size()) return false;
    for (const auto& [k, v] : ma) {
      auto it = mb.find(k);
      if (it == mb.end() || !SameValue(v, it->second)) return false;
    }
    return true;
  }
  return false;
}

const char* ScopeName(OptionScope scope) {
  switch (scope) {
    case OptionScope::kDB:
      return "DBOptions";
    case OptionScope::kCF:
      return "ColumnFamilyOptions";
    case OptionScope::kTable:
      return "BlockBasedTableOptions";
  }
  return "";
}

std::string StructToString(OptionScope scope, const void* object, const std::string& delimiter) {
  std::string r;
  for (const OptionInfo& i : OptionTable()) {
    if (i.scope != scope || !i.printable) continue;
    r += i.name;
    r += "=";
    r += OptionValueToString(i, object);
    r += delimiter;
  }
  return r;
}

}  // namespace

// ---------------------------------------------------------------------------
// The table

const std::vector<OptionInfo>& OptionTable() {
  static const std::vector<OptionInfo> table = BuildTable();
  return table;
}

const std::vector<OptionInfo>* NestedOptionTable(OptionType type) {
  static const std::vector<OptionInfo> universal = BuildUniversalTable();
  static const std::vector<OptionInfo> fifo = BuildFIFOTable();
  static const std::vector<OptionInfo> compression = BuildCompressionOptionsTable();
  switch (type) {
    case OptionType::kCompactionOptionsUniversal:
      return &universal;
    case OptionType::kCompactionOptionsFIFO:
      return &fifo;
    case OptionType::kCompressionOptions:
      return &compression;
    default:
      return nullptr;
  }
}

const OptionInfo* FindOption(OptionScope scope, std::string_view name) {
  for (const OptionInfo& i : OptionTable()) {
    if (i.scope == scope && name == i.name) return &i;
  }
  return nullptr;
}

bool IsRocksDBOption(OptionScope scope, const std::string& name) {
  for (const ForeignDefault& d : kRocksDBDefaults) {
    if (d.scope == scope && name == d.name) return true;
  }
  return false;
}

Status CheckForeignOption(const ConfigOptions& config, OptionScope scope, const std::string& name,
                          const std::string& value) {
  if (config.ignore_unknown_options) return Status::OK();
  for (const ForeignDefault& d : kRocksDBDefaults) {
    if (d.scope != scope || name != d.name) continue;
    if (SameValue(Trim(value), d.value)) return Status::OK();
    return Status::InvalidArgument("Strata does not support option " + name + " = " + value,
                                   std::string("only RocksDB's default (") + d.value +
                                       ") is accepted for this " + ScopeName(scope) + " option");
  }
  // RocksDB's own wording (its ToString reads "Could not find option: : x").
  return Status::InvalidArgument("Could not find option: ", name);
}

// ---------------------------------------------------------------------------
// Values

Status ParseOptionValue(const ConfigOptions& config, const OptionInfo& info, const std::string& raw,
                        void* object) {
  const std::string value = config.input_strings_escaped ? Unescape(Trim(raw)) : Trim(raw);
  void* f = info.field(object);
  switch (info.type) {
    case OptionType::kBool:
      if (!ParseBool(value, static_cast<bool*>(f))) return BadValue(info, value, "not a bool");
      return Status::OK();
    case OptionType::kInt: {
      int64_t v;
      if (!ParseInt64(value, &v) || v < INT32_MIN || v > INT32_MAX) {
        return BadValue(info, value, "not an int");
      }
      *static_cast<int*>(f) = static_cast<int>(v);
      return Status::OK();
    }
    case OptionType::kUInt: {
      uint64_t v;
      if (!ParseUint64(value, &v) || v > UINT32_MAX) {
        return BadValue(info, value, "not an unsigned 32-bit integer");
      }
      *static_cast<uint32_t*>(f) = static_cast<uint32_t>(v);
      return Status::OK();
    }
    case OptionType::kUInt64:
      if (!ParseUint64(value, static_cast<uint64_t*>(f))) {
        return BadValue(info, value, "not an unsigned integer");
      }
      return Status::OK();
    case OptionType::kSizeT: {
      uint64_t v;
      if (!ParseUint64(value, &v)) return BadValue(info, value, "not an unsigned integer");
      *static_cast<size_t*>(f) = static_cast<size_t>(v);
      return Status::OK();
    }
    case OptionType::kDouble:
      if (!ParseDouble(value, static_cast<double*>(f))) {
        return BadValue(info, value, "not a number");
      }
      return Status::OK();
    case OptionType::kString:
      *static_cast<std::string*>(f) = value;
      return Status::OK();
    case OptionType::kCompression:
      if (!ParseEnum(kCompressionNames, value, static_cast<CompressionType*>(f))) {
        return BadValue(info, value, "expected one of " + EnumChoices(kCompressionNames));
      }
      return Status::OK();
    case OptionType::kWalRecoveryMode:
      if (!ParseEnum(kRecoveryNames, value, static_cast<WALRecoveryMode*>(f))) {
        return BadValue(info, value, "expected one of " + EnumChoices(kRecoveryNames));
      }
      return Status::OK();
    case OptionType::kInfoLogLevel:
      if (!ParseEnum(kLogLevelNames, value, static_cast<InfoLogLevel*>(f))) {
        return BadValue(info, value, "expected one of " + EnumChoices(kLogLevelNames));
      }
      return Status::OK();
    case OptionType::kChecksum:
      if (!ParseEnum(kChecksumNames, value, static_cast<ChecksumType*>(f))) {
        return BadValue(info, value, "expected one of " + EnumChoices(kChecksumNames));
      }
      return Status::OK();
    case OptionType::kDataBlockIndexType:
      if (!ParseEnum(kDataBlockIndexNames, value,
                     static_cast<BlockBasedTableOptions::DataBlockIndexType*>(f))) {
        return BadValue(info, value, "expected one of " + EnumChoices(kDataBlockIndexNames));
      }
      return Status::OK();
    case OptionType::kIndexType:
      if (!ParseEnum(kIndexTypeNames, value, static_cast<BlockBasedTableOptions::IndexType*>(f))) {
        return BadValue(info, value, "Strata writes only kBinarySearch indexes");
      }
      return Status::OK();
    case OptionType::kComparator:
      return ParseComparator(config, value, static_cast<const Comparator**>(f));
    case OptionType::kMergeOperator:
      return ParseMergeOperator(config, value, static_cast<std::shared_ptr<MergeOperator>*>(f));
    case OptionType::kFileChecksumGenFactory: {
      auto* out = static_cast<std::shared_ptr<FileChecksumGenFactory>*>(f);
      if (value.empty() || value == "nullptr") {
        out->reset();
      } else if (*out != nullptr && value == (*out)->Name()) {
        // The base's own factory, kept when the name matches.
      } else if (value == GetFileChecksumGenCrc32cFactory()->Name()) {
        *out = GetFileChecksumGenCrc32cFactory();
      } else {
        return BadValue(info, value,
                        "the only factory Strata knows by name is " +
                            std::string(GetFileChecksumGenCrc32cFactory()->Name()));
      }
      return Status::OK();
    }
    case OptionType::kPrefixExtractor:
      return ParsePrefixExtractor(value, static_cast<std::shared_ptr<const SliceTransform>*>(f));
    case OptionType::kFilterPolicy:
      return ParseFilterPolicy(value, static_cast<std::shared_ptr<const FilterPolicy>*>(f));
    case OptionType::kSstPartitionerFactory:
      return ParseSstPartitionerFactory(config, value,
                                        static_cast<std::shared_ptr<SstPartitionerFactory>*>(f));
    case OptionType::kFlushBlockPolicyFactory:
      return ParseFlushBlockPolicyFactory(
          config, value, static_cast<std::shared_ptr<FlushBlockPolicyFactory>*>(f));
    case OptionType::kCompactionStyle:
      if (!ParseEnum(kCompactionStyleNames, value, static_cast<CompactionStyle*>(f))) {
        return BadValue(info, value, "expected one of " + EnumChoices(kCompactionStyleNames));
      }
      return Status::OK();
    case OptionType::kCompactionPri:
      if (!ParseEnum(kCompactionPriNames, value, static_cast<CompactionPri*>(f))) {
        return BadValue(info, value, "expected one of " + EnumChoices(kCompactionPriNames));
      }
      return Status::OK();
    case OptionType::kCompactionStopStyle:
      if (!ParseEnum(kStopStyleNames, value, static_cast<CompactionStopStyle*>(f))) {
        return BadValue(info, value, "expected one of " + EnumChoices(kStopStyleNames));
      }
      return Status::OK();
    case OptionType::kIntVector:
      return ParseIntVector(info, value, static_cast<std::vector<int>*>(f));
    case OptionType::kCompressionVector:
      return ParseCompressionVector(info, value, static_cast<std::vector<CompressionType>*>(f));
    case OptionType::kCompactionOptionsUniversal:
    case OptionType::kCompactionOptionsFIFO:
    case OptionType::kCompressionOptions:
      return ParseNested(config, info, value, f);
    case OptionType::kBlockCache: {
      auto* cache = static_cast<std::shared_ptr<Cache>*>(f);
      uint64_t capacity = 0;
      if (value.empty() || value == "nullptr") {
        cache->reset();
      } else if (ParseUint64(value, &capacity)) {
        *cache = NewLRUCache(static_cast<size_t>(capacity));
      } else {
        return BadValue(info, value, "expected a capacity in bytes (an LRU cache is made)");
      }
      return Status::OK();
    }
  }
  return BadValue(info, value, "");
}

std::string OptionValueToString(const OptionInfo& info, const void* object) {
  void* f = info.field(const_cast<void*>(object));
  switch (info.type) {
    case OptionType::kBool:
      return *static_cast<bool*>(f) ? "true" : "false";
    case OptionType::kInt:
      return std::to_string(*static_cast<int*>(f));
    case OptionType::kUInt:
      return std::to_string(*static_cast<uint32_t*>(f));
    case OptionType::kUInt64:
      return std::to_string(*static_cast<uint64_t*>(f));
    case OptionType::kSizeT:
      return std::to_string(*static_cast<size_t*>(f));
    case OptionType::kDouble:
      return DoubleToString(*static_cast<double*>(f));
    case OptionType::kString:
      return *static_cast<std::string*>(f);
    case OptionType::kCompression:
      return EnumToString(kCompressionNames, *static_cast<CompressionType*>(f));
    case OptionType::kWalRecoveryMode:
      return EnumToString(kRecoveryNames, *static_cast<WALRecoveryMode*>(f));
    case OptionType::kInfoLogLevel:
      return EnumToString(kLogLevelNames, *static_cast<InfoLogLevel*>(f));
    case OptionType::kChecksum:
      return EnumToString(kChecksumNames, *static_cast<ChecksumType*>(f));
    case OptionType::kDataBlockIndexType:
      return EnumToString(kDataBlockIndexNames,
                          *static_cast<BlockBasedTableOptions::DataBlockIndexType*>(f));
    case OptionType::kIndexType:
      return EnumToString(kIndexTypeNames, *static_cast<BlockBasedTableOptions::IndexType*>(f));
    case OptionType::kComparator: {
      const Comparator* c = *static_cast<const Comparator**>(f);
      return c == nullptr ? "nullptr" : c->Name();
    }
    case OptionType::kMergeOperator: {
      const auto& m = *static_cast<std::shared_ptr<MergeOperator>*>(f);
      return m == nullptr ? "nullptr" : m->Name();
    }
    case OptionType::kFileChecksumGenFactory: {
      const auto& g = *static_cast<std::shared_ptr<FileChecksumGenFactory>*>(f);
      return g == nullptr ? "nullptr" : g->Name();
    }
    case OptionType::kPrefixExtractor: {
      const auto& p = *static_cast<std::shared_ptr<const SliceTransform>*>(f);
      return p == nullptr ? "nullptr" : p->Name();
    }
    case OptionType::kFilterPolicy:
      return FilterPolicyToString(static_cast<std::shared_ptr<const FilterPolicy>*>(f)->get());
    case OptionType::kSstPartitionerFactory:
      return SstPartitionerFactoryToString(
          static_cast<std::shared_ptr<SstPartitionerFactory>*>(f)->get());
    case OptionType::kFlushBlockPolicyFactory: {
      const auto& p = *static_cast<std::shared_ptr<FlushBlockPolicyFactory>*>(f);
      return p == nullptr ? FlushBlockBySizePolicyFactory::kClassName() : p->Name();
    }
    case OptionType::kBlockCache: {
      const auto& c = *static_cast<std::shared_ptr<Cache>*>(f);
      return c == nullptr ? "nullptr" : std::to_string(c->GetCapacity());
    }
    case OptionType::kCompactionStyle:
      return EnumToString(kCompactionStyleNames, *static_cast<CompactionStyle*>(f));
    case OptionType::kCompactionPri:
      return EnumToString(kCompactionPriNames, *static_cast<CompactionPri*>(f));
    case OptionType::kCompactionStopStyle:
      return EnumToString(kStopStyleNames, *static_cast<CompactionStopStyle*>(f));
    case OptionType::kIntVector:
      return JoinColons(*static_cast<std::vector<int>*>(f),
                        [](int v) { return std::to_string(v); });
    case OptionType::kCompressionVector:
      return JoinColons(*static_cast<std::vector<CompressionType>*>(f),
                        [](CompressionType t) { return EnumToString(kCompressionNames, t); });
    case OptionType::kCompactionOptionsUniversal:
    case OptionType::kCompactionOptionsFIFO:
    case OptionType::kCompressionOptions:
      return NestedToString(info, f);
  }
  return "";
}

std::string StripBraces(const std::string& value) {
  std::string v = Trim(value);
  if (v.size() >= 2 && v.front() == '{' && v.back() == '}') v = Trim(v.substr(1, v.size() - 2));
  return v;
}

// ---------------------------------------------------------------------------
// Maps

Status StringToMap(const std::string& opts_str, OptionsMap* opts_map) {
  opts_map->clear();
  const std::string& s = opts_str;
  size_t pos = 0;
  while (pos < s.size()) {
    // The name: up to '='.
    const size_t eq = s.find('=', pos);
    if (eq == std::string::npos) {
      if (Trim(s.substr(pos)).empty()) break;
      return Status::InvalidArgument("Mismatched key value pair, '=' expected");
    }
    const std::string name = Trim(s.substr(pos, eq - pos));
    if (name.empty()) return Status::InvalidArgument("Empty key found");
    if (name.find(';') != std::string::npos) {
      return Status::InvalidArgument("Unexpected char in key", name);
    }
    // The value: up to a ';' outside braces (escapes skip a character).
    size_t i = eq + 1;
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    std::string value;
    if (i < s.size() && s[i] == '{') {
      int depth = 0;
      const size_t start = i;
      for (; i < s.size(); ++i) {
        if (s[i] == '\\' && i + 1 < s.size()) {
          ++i;
          continue;
        }
        if (s[i] == '{') ++depth;
        if (s[i] == '}' && --depth == 0) break;
      }
      if (depth != 0 || i >= s.size()) {
        return Status::InvalidArgument("Mismatched curly braces for nested options", name);
      }
      value = s.substr(start + 1, i - start - 1);
      ++i;
      while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
      if (i < s.size() && s[i] != ';') {
        return Status::InvalidArgument("Unexpected chars after nested options", name);
      }
    } else {
      const size_t start = i;
      for (; i < s.size() && s[i] != ';'; ++i) {
        if (s[i] == '\\' && i + 1 < s.size()) ++i;
      }
      value = s.substr(start, i - start);
    }
    (*opts_map)[name] = Trim(value);
    pos = i + 1;
  }
  return Status::OK();
}

Status ApplyDBOptionsMap(const ConfigOptions& config, const OptionsMap& map, DBOptions* db) {
  for (const auto& [name, value] : map) {
    const OptionInfo* info = FindOption(OptionScope::kDB, name);
    if (info == nullptr) {
      Status s = CheckForeignOption(config, OptionScope::kDB, name, value);
      if (!s.ok()) return s;
      continue;
    }
    if (config.mutable_options_only && !info->is_mutable) {
      return Status::InvalidArgument("Option not changeable: " + name);
    }
    Status s = ParseOptionValue(config, *info, value, db);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

Status ApplyTableOptionsMap(const ConfigOptions& config, const OptionsMap& map,
                            BlockBasedTableOptions* table) {
  for (const auto& [name, value] : map) {
    const OptionInfo* info = FindOption(OptionScope::kTable, name);
    if (info == nullptr) {
      Status s = CheckForeignOption(config, OptionScope::kTable, name, value);
      if (!s.ok()) return s;
      continue;
    }
    if (config.mutable_options_only && !info->is_mutable) {
      return Status::InvalidArgument("Option not changeable: " + name);
    }
    Status s = ParseOptionValue(config, *info, value, table);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

namespace {

// One name of a family map; *handled false if the name is no CF option.
Status ApplyCFOption(const ConfigOptions& config, const std::string& name, const std::string& value,
                     ColumnFamilyOptions* cf, bool* handled) {
  *handled = true;
  if (name == "block_based_table_factory") {
    OptionsMap nested;
    Status s = StringToMap(StripBraces(value), &nested);
    if (!s.ok()) return s;
    BlockBasedTableOptions t = cf->table_factory != nullptr ? cf->table_factory->table_options()
                                                            : BlockBasedTableOptions();
    s = ApplyTableOptionsMap(config, nested, &t);
    if (!s.ok()) return s;
    cf->table_factory = NewBlockBasedTableFactory(t);
    return Status::OK();
  }
  if (name == "table_factory") {
    // Only the block-based table exists ("BlockBasedTable" also in RocksDB's
    // nested form {id=BlockBasedTable;...}).
    const std::string v = Trim(value);
    if (v == "BlockBasedTable" || v == "BlockBasedTableFactory") return Status::OK();
    if (v.find('=') != std::string::npos) {
      OptionsMap nested;
      Status s = StringToMap(StripBraces(v), &nested);
      if (!s.ok()) return s;
      auto id = nested.find("id");
      if (id != nested.end() && id->second == "BlockBasedTable") {
        nested.erase(id);
        BlockBasedTableOptions t = cf->table_factory != nullptr ? cf->table_factory->table_options()
                                                                : BlockBasedTableOptions();
        s = ApplyTableOptionsMap(config, nested, &t);
        if (!s.ok()) return s;
        cf->table_factory = NewBlockBasedTableFactory(t);
        return Status::OK();
      }
    }
    if (config.ignore_unknown_options) return Status::OK();
    return Status::InvalidArgument("Strata does not support option table_factory = " + v,
                                   "only BlockBasedTable tables exist");
  }
  const OptionInfo* info = FindOption(OptionScope::kCF, name);
  if (info == nullptr) {
    // RocksDB's dotted form for one field of a nested struct option
    // ("compaction_options_universal.size_ratio=5").
    const size_t dot = name.find('.');
    if (dot != std::string::npos) {
      const OptionInfo* outer = FindOption(OptionScope::kCF, name.substr(0, dot));
      if (outer != nullptr && NestedOptionTable(outer->type) != nullptr) {
        if (config.mutable_options_only && !outer->is_mutable) {
          return Status::InvalidArgument("Option not changeable: " + name);
        }
        return ParseNestedField(config, *outer, name.substr(dot + 1), value, outer->field(cf));
      }
    }
    *handled = false;
    return Status::OK();
  }
  if (config.mutable_options_only && !info->is_mutable) {
    return Status::InvalidArgument("Option not changeable: " + name);
  }
  return ParseOptionValue(config, *info, value, cf);
}

}  // namespace

Status ApplyCFOptionsMap(const ConfigOptions& config, const OptionsMap& map,
                         ColumnFamilyOptions* cf) {
  for (const auto& [name, value] : map) {
    bool handled = false;
    Status s = ApplyCFOption(config, name, value, cf, &handled);
    if (!s.ok()) return s;
    if (handled) continue;
    s = CheckForeignOption(config, OptionScope::kCF, name, value);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

Status ApplyOptionsMap(const ConfigOptions& config, const OptionsMap& map, Options* options) {
  for (const auto& [name, value] : map) {
    const OptionInfo* info = FindOption(OptionScope::kDB, name);
    if (info != nullptr) {
      Status s = ParseOptionValue(config, *info, value, static_cast<DBOptions*>(options));
      if (!s.ok()) return s;
      continue;
    }
    bool handled = false;
    Status s =
        ApplyCFOption(config, name, value, static_cast<ColumnFamilyOptions*>(options), &handled);
    if (!s.ok()) return s;
    if (handled) continue;
    if (!config.ignore_unknown_options && IsRocksDBOption(OptionScope::kDB, name)) {
      s = CheckForeignOption(config, OptionScope::kDB, name, value);
    } else {
      s = CheckForeignOption(config, OptionScope::kCF, name, value);
    }
    if (!s.ok()) return s;
  }
  return Status::OK();
}

std::string DBOptionsToString(const DBOptions& db, const std::string& delimiter) {
  return StructToString(OptionScope::kDB, &db, delimiter);
}

std::string TableOptionsToString(const BlockBasedTableOptions& t, const std::string& delimiter) {
  return StructToString(OptionScope::kTable, &t, delimiter);
}

std::string CFOptionsToString(const ColumnFamilyOptions& cf, const std::string& delimiter) {
  std::string r = StructToString(OptionScope::kCF, &cf, delimiter);
  r += "table_factory=BlockBasedTable" + delimiter;
  const BlockBasedTableOptions t =
      cf.table_factory != nullptr ? cf.table_factory->table_options() : BlockBasedTableOptions();
  r += "block_based_table_factory={" + TableOptionsToString(t, ";") + "}" + delimiter;
  return r;
}

// ---------------------------------------------------------------------------
// The public functions (strata/convenience.h)

Status GetDBOptionsFromMap(const ConfigOptions& config_options, const DBOptions& base_options,
                           const OptionsMap& opts_map, DBOptions* new_options) {
  DBOptions r = base_options;
  Status s = ApplyDBOptionsMap(config_options, opts_map, &r);
  *new_options = s.ok() ? r : base_options;
  return s;
}

Status GetColumnFamilyOptionsFromMap(const ConfigOptions& config_options,
                                     const ColumnFamilyOptions& base_options,
                                     const OptionsMap& opts_map, ColumnFamilyOptions* new_options) {
  ColumnFamilyOptions r = base_options;
  Status s = ApplyCFOptionsMap(config_options, opts_map, &r);
  *new_options = s.ok() ? r : base_options;
  return s;
}

Status GetBlockBasedTableOptionsFromMap(const ConfigOptions& config_options,
                                        const BlockBasedTableOptions& table_options,
                                        const OptionsMap& opts_map,
                                        BlockBasedTableOptions* new_table_options) {
  BlockBasedTableOptions r = table_options;
  Status s = ApplyTableOptionsMap(config_options, opts_map, &r);
  *new_table_options = s.ok() ? r : table_options;
  return s;
}

Status GetDBOptionsFromString(const ConfigOptions& config_options, const DBOptions& base_options,
                              const std::string& opts_str, DBOptions* new_options) {
  OptionsMap map;
  Status s = StringToMap(opts_str, &map);
  if (!s.ok()) {
    *new_options = base_options;
    return s;
  }
  return GetDBOptionsFromMap(config_options, base_options, map, new_options);
}

Status GetColumnFamilyOptionsFromString(const ConfigOptions& config_options,
                                        const ColumnFamilyOptions& base_options,
                                        const std::string& opts_str,
                                        ColumnFamilyOptions* new_options) {
  OptionsMap map;
  Status s = StringToMap(opts_str, &map);
  if (!s.ok()) {
    *new_options = base_options;
    return s;
  }
  return GetColumnFamilyOptionsFromMap(config_options, base_options, map, new_options);
}

Status GetOptionsFromString(const ConfigOptions& config_options, const Options& base_options,
                            const std::string& opts_str, Options* new_options) {
  OptionsMap map;
  Options r = base_options;
  Status s = StringToMap(opts_str, &map);
  if (s.ok()) s = ApplyOptionsMap(config_options, map, &r);
  *new_options = s.ok() ? r : base_options;
  return s;
}

Status GetBlockBasedTableOptionsFromString(const ConfigOptions& config_options,
                                           const BlockBasedTableOptions& table_options,
                                           const std::string& opts_str,
                                           BlockBasedTableOptions* new_table_options) {
  OptionsMap map;
  Status s = StringToMap(opts_str, &map);
  if (!s.ok()) {
    *new_table_options = table_options;
    return s;
  }
  return GetBlockBasedTableOptionsFromMap(config_options, table_options, map, new_table_options);
}

namespace {
ConfigOptions LegacyConfig(bool input_strings_escaped, bool ignore_unknown_options) {
  ConfigOptions c;
  c.input_strings_escaped = input_strings_escaped;
  c.ignore_unknown_options = ignore_unknown_options;
  return c;
}
}  // namespace

Status GetDBOptionsFromMap(const DBOptions& base_options, const OptionsMap& opts_map,
                           DBOptions* new_options, bool input_strings_escaped,
                           bool ignore_unknown_options) {
  return GetDBOptionsFromMap(LegacyConfig(input_strings_escaped, ignore_unknown_options),
                             base_options, opts_map, new_options);
}

Status GetColumnFamilyOptionsFromMap(const ColumnFamilyOptions& base_options,
                                     const OptionsMap& opts_map, ColumnFamilyOptions* new_options,
                                     bool input_strings_escaped, bool ignore_unknown_options) {
  return GetColumnFamilyOptionsFromMap(LegacyConfig(input_strings_escaped, ignore_unknown_options),
                                       base_options, opts_map, new_options);
}

Status GetBlockBasedTableOptionsFromMap(const BlockBasedTableOptions& table_options,
                                        const OptionsMap& opts_map,
                                        BlockBasedTableOptions* new_table_options,
                                        bool input_strings_escaped, bool ignore_unknown_options) {
  return GetBlockBasedTableOptionsFromMap(
      LegacyConfig(input_strings_escaped, ignore_unknown_options), table_options, opts_map,
      new_table_options);
}

Status GetDBOptionsFromString(const DBOptions& base_options, const std::string& opts_str,
                              DBOptions* new_options) {
  return GetDBOptionsFromString(LegacyConfig(false, false), base_options, opts_str, new_options);
}

Status GetColumnFamilyOptionsFromString(const ColumnFamilyOptions& base_options,
                                        const std::string& opts_str,
                                        ColumnFamilyOptions* new_options) {
  return GetColumnFamilyOptionsFromString(LegacyConfig(false, false), base_options, opts_str,
                                          new_options);
}

Status GetOptionsFromString(const Options& base_options, const std::string& opts_str,
                            Options* new_options) {
  return GetOptionsFromString(LegacyConfig(false, false), base_options, opts_str, new_options);
}

Status GetBlockBasedTableOptionsFromString(const BlockBasedTableOptions& table_options,
                                           const std::string& opts_str,
                                           BlockBasedTableOptions* new_table_options) {
  return GetBlockBasedTableOptionsFromString(LegacyConfig(false, false), table_options, opts_str,
                                             new_table_options);
}

Status GetStringFromDBOptions(const ConfigOptions& config_options, const DBOptions& db_options,
                              std::string* opts_str) {
  *opts_str = DBOptionsToString(db_options, config_options.delimiter);
  return Status::OK();
}

Status GetStringFromColumnFamilyOptions(const ConfigOptions& config_options,
                                        const ColumnFamilyOptions& cf_options,
                                        std::string* opts_str) {
  *opts_str = CFOptionsToString(cf_options, config_options.delimiter);
  return Status::OK();
}

Status GetStringFromDBOptions(std::string* opts_str, const DBOptions& db_options,
                              const std::string& delimiter) {
  *opts_str = DBOptionsToString(db_options, delimiter);
  return Status::OK();
}

Status GetStringFromColumnFamilyOptions(std::string* opts_str,
                                        const ColumnFamilyOptions& cf_options,
                                        const std::string& delimiter) {
  *opts_str = CFOptionsToString(cf_options, delimiter);
  return Status::OK();
}

std::vector<CompressionType> GetSupportedCompressions() {
  std::vector<CompressionType> out;
  for (const auto& n : kCompressionNames) {
    if (n.value != kDisableCompressionOption && CompressionTypeSupported(n.value)) {
      out.push_back(n.value);
    }
  }
  return out;
}

Status GetStringFromCompressionType(std::string* compression_str,
                                    CompressionType compression_type) {
  for (const auto& n : kCompressionNames) {
    if (n.value == compression_type) {
      *compression_str = n.name;
      return Status::OK();
    }
  }
  return Status::InvalidArgument("Invalid compression types");
}

// ---- the CreateFromString of the public classes (RocksDB's answers) ----

Status MergeOperator::CreateFromString(const ConfigOptions& opts, const std::string& id,
                                       std::shared_ptr<MergeOperator>* result) {
  if (id.empty() || id == "nullptr") {
    result->reset();
    return Status::OK();
  }
  std::shared_ptr<MergeOperator> made = MergeOperators::CreateFromStringId(id);
  if (made == nullptr) {
    if (opts.ignore_unsupported_options) return Status::OK();
    return Status::NotSupported("Could not load MergeOperator", id);
  }
  *result = std::move(made);
  return Status::OK();
}

Status SliceTransform::CreateFromString(const ConfigOptions& config_options, const std::string& id,
                                        std::shared_ptr<const SliceTransform>* result) {
  std::shared_ptr<const SliceTransform> made;
  if (!ParsePrefixExtractor(id, &made).ok()) {
    // An unknown name, or a known form with a bad length: RocksDB finds
    // neither in its registry.
    if (config_options.ignore_unsupported_options) return Status::OK();
    return Status::NotSupported("Could not load SliceTransform", id);
  }
  *result = std::move(made);
  return Status::OK();
}

Status Cache::CreateFromString(const ConfigOptions& config_options, const std::string& value,
                               std::shared_ptr<Cache>* result) {
  (void)config_options;
  // RocksDB's LRUCacheOptions defaults (metadata charged, as its
  // NewLRUCache does).
  LRUCacheOptions o;
  o.metadata_charge_policy = CacheMetadataChargePolicy::kFullChargeCacheMetadata;
  double low_pri_pool_ratio = 0.0;
  if (value.find('=') == std::string::npos) {
    uint64_t capacity = 0;
    if (!ParseUint64(Trim(value), &capacity)) {
      return Status::InvalidArgument("Cache::CreateFromString: expected a capacity", value);
    }
    o.capacity = static_cast<size_t>(capacity);
  } else {
    OptionsMap fields;
    Status s = StringToMap(StripBraces(value), &fields);
    if (!s.ok()) return s;
    for (const auto& [name, v] : fields) {
      uint64_t u = 0;
      int64_t i = 0;
      bool b = false;
      double d = 0;
      bool ok = true;
      if (name == "capacity") {
        ok = ParseUint64(v, &u);
        o.capacity = static_cast<size_t>(u);
      } else if (name == "num_shard_bits") {
        ok = ParseInt64(v, &i);
        o.num_shard_bits = static_cast<int>(i);
      } else if (name == "strict_capacity_limit") {
        ok = ParseBool(v, &b);
        o.strict_capacity_limit = b;
      } else if (name == "high_pri_pool_ratio") {
        ok = ParseDouble(v, &d);
        o.high_pri_pool_ratio = d;
      } else if (name == "low_pri_pool_ratio") {
        // Strata's LRU cache has no low-priority pool: checked as RocksDB
        // checks it, then unused (as rocksdb::LRUCacheOptions' field).
        ok = ParseDouble(v, &low_pri_pool_ratio);
      } else {
        return Status::InvalidArgument("Unrecognized option", "." + name);
      }
      if (!ok) return Status::InvalidArgument("Cache::CreateFromString: bad value for " + name, v);
    }
  }
  std::shared_ptr<Cache> cache;
  // RocksDB's NewLRUCache answers nullptr (and CreateFromString OK) for
  // ratios out of range.
  if (low_pri_pool_ratio >= 0.0 && low_pri_pool_ratio <= 1.0 &&
      o.high_pri_pool_ratio + low_pri_pool_ratio <= 1.0) {
    cache = NewLRUCache(o);
  }
  *result = std::move(cache);
  return Status::OK();
}

}  // namespace strata
