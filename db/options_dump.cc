// Options dump (see the header).
#include "db/options_dump.h"

#include <cinttypes>
#include <cstdio>

#include "strata/cache.h"
#include "strata/compaction_filter.h"
#include "strata/concurrent_task_limiter.h"
#include "strata/file_checksum.h"
#include "strata/filter_policy.h"
#include "strata/flush_block_policy.h"
#include "strata/listener.h"
#include "strata/merge_operator.h"
#include "strata/slice_transform.h"
#include "strata/sst_file_manager.h"
#include "strata/sst_partitioner.h"
#include "strata/table_properties.h"
#include "strata/wal_filter.h"
#include "table/compression.h"

namespace strata {

namespace {

std::string Num(uint64_t v) { return std::to_string(v); }
std::string Int(int64_t v) { return std::to_string(v); }
std::string Bool(bool v) { return v ? "1" : "0"; }
std::string Double(double v) {
  char buf[64];
  snprintf(buf, sizeof(buf), "%f", v);
  return buf;
}
// "<default>; <role>=<decision>..." (issue 19).
std::string CacheUsage(const CacheUsageOptions& c) {
  auto name = [](CacheEntryRoleOptions::Decision d) {
    return d == CacheEntryRoleOptions::Decision::kEnabled    ? "kEnabled"
           : d == CacheEntryRoleOptions::Decision::kDisabled ? "kDisabled"
                                                             : "kFallback";
  };
  std::string r = std::string("options.charged=") + name(c.options.charged);
  for (const auto& [role, o] : c.options_overrides) {
    r += "; " + GetCacheEntryRoleName(role) + ".charged=" + name(o.charged);
  }
  return r;
}

std::string Ptr(const void* p) {
  if (p == nullptr) return "(nil)";
  char buf[32];
  snprintf(buf, sizeof(buf), "%p", p);
  return buf;
}
// RocksDB's "Options.sst_file_manager.rate_bytes_per_sec" (0 without one).
std::string SstFileManagerRate(const DBOptions& o) {
  return std::to_string(
      o.sst_file_manager == nullptr ? 0 : o.sst_file_manager->GetDeleteRateBytesPerSecond());
}
// An object by its Name(), or RocksDB's word for none.
template <typename T>
std::string NameOr(const T* p, const char* none) {
  return p == nullptr ? none : p->Name();
}

// RocksDB's "Options.table_properties_collectors" value: each factory's
// ToString() followed by ';'.
std::string CollectorNames(
    const std::vector<std::shared_ptr<TablePropertiesCollectorFactory>>& factories) {
  std::string r;
  for (const auto& f : factories) {
    if (f != nullptr) r += f->ToString() + ";";
  }
  return r;
}

// Table directories as "[path:target_size, ...]".
std::string DbPaths(const std::vector<DbPath>& paths) {
  std::string r = "[";
  for (size_t i = 0; i < paths.size(); ++i) {
    if (i > 0) r += ", ";
    r += paths[i].path + ":" + std::to_string(paths[i].target_size);
  }
  return r + "]";
}

const char* LogLevelName(InfoLogLevel level) {
  switch (level) {
    case InfoLogLevel::kDebug:
      return "DEBUG_LEVEL";
    case InfoLogLevel::kInfo:
      return "INFO_LEVEL";
    case InfoLogLevel::kWarn:
      return "WARN_LEVEL";
    case InfoLogLevel::kError:
      return "ERROR_LEVEL";
    case InfoLogLevel::kFatal:
      return "FATAL_LEVEL";
    case InfoLogLevel::kHeader:
      return "HEADER_LEVEL";
    case InfoLogLevel::NUM_INFO_LOG_LEVELS:
      return "NUM_INFO_LOG_LEVELS";
  }
  return "INFO_LEVEL";
}

std::string Listeners(const std::vector<std::shared_ptr<EventListener>>& listeners) {
  std::string r = "[";
  for (size_t i = 0; i < listeners.size(); ++i) {
    if (i > 0) r += ", ";
    const char* name = listeners[i] != nullptr ? listeners[i]->Name() : "";
    r += (name != nullptr && *name != '\0') ? name : Ptr(listeners[i].get());
  }
  return r + "]";
}

const char* CompactionStyleName(CompactionStyle s) {
  switch (s) {
    case kCompactionStyleLevel:
      return "kCompactionStyleLevel";
    case kCompactionStyleUniversal:
      return "kCompactionStyleUniversal";
    case kCompactionStyleFIFO:
      return "kCompactionStyleFIFO";
    case kCompactionStyleNone:
      return "kCompactionStyleNone";
  }
  return "unknown";
}

const char* CompactionPriName(CompactionPri p) {
  switch (p) {
    case kByCompensatedSize:
      return "kByCompensatedSize";
    case kOldestLargestSeqFirst:
      return "kOldestLargestSeqFirst";
    case kOldestSmallestSeqFirst:
      return "kOldestSmallestSeqFirst";
    case kMinOverlappingRatio:
      return "kMinOverlappingRatio";
    case kRoundRobin:
      return "kRoundRobin";
  }
  return "unknown";
}

const char* StopStyleName(CompactionStopStyle s) {
  return s == kCompactionStopStyleSimilarSize ? "kCompactionStopStyleSimilarSize"
                                              : "kCompactionStopStyleTotalSize";
}

// CompressionOptions as RocksDB 7.8.3 prints them (booleans as true/false
// here, unlike the other 0/1 lines; its order for each of the two).
void AddCompressionOptions(std::vector<OptionLine>* lines, const char* field,
                           const CompressionOptions& c, bool bottommost) {
  auto add = [&](const char* member, std::string value) {
    lines->push_back({std::string(field) + "." + member, std::move(value), field});
  };
  const char* tf[] = {"false", "true"};
  add("window_bits", Int(c.window_bits));
  add("level", Int(c.level));
  add("strategy", Int(c.strategy));
  add("max_dict_bytes", Num(c.max_dict_bytes));
  add("zstd_max_train_bytes", Num(c.zstd_max_train_bytes));
  if (bottommost) {
    add("parallel_threads", Num(c.parallel_threads));
    add("enabled", tf[c.enabled]);
    add("max_dict_buffer_bytes", Num(c.max_dict_buffer_bytes));
    add("use_zstd_dict_trainer", tf[c.use_zstd_dict_trainer]);
  } else {
    add("use_zstd_dict_trainer", tf[c.use_zstd_dict_trainer]);
    add("parallel_threads", Num(c.parallel_threads));
    add("enabled", tf[c.enabled]);
    add("max_dict_buffer_bytes", Num(c.max_dict_buffer_bytes));
  }
}

// The lines of the compaction-style and compression-by-level fields, in
// their declaration order (RocksDB's names and value forms).
void AddCompactionStyleLines(std::vector<OptionLine>* lines, const ColumnFamilyOptions& o) {
  for (size_t i = 0; i < o.max_bytes_for_level_multiplier_additional.size(); ++i) {
    lines->push_back({"max_bytes_for_level_multiplier_addtl[" + std::to_string(i) + "]",
                      Int(o.max_bytes_for_level_multiplier_additional[i]),
                      "max_bytes_for_level_multiplier_additional"});
  }
  lines->push_back({"compaction_style", CompactionStyleName(o.compaction_style)});
  lines->push_back({"compaction_pri", CompactionPriName(o.compaction_pri)});
  const CompactionOptionsUniversal& u = o.compaction_options_universal;
  const std::string uf = "compaction_options_universal";
  lines->push_back({uf + ".size_ratio", Num(u.size_ratio), uf});
  lines->push_back({uf + ".min_merge_width", Num(u.min_merge_width), uf});
  lines->push_back({uf + ".max_merge_width", Num(u.max_merge_width), uf});
  lines->push_back(
      {uf + ".max_size_amplification_percent", Num(u.max_size_amplification_percent), uf});
  lines->push_back({uf + ".compression_size_percent", Int(u.compression_size_percent), uf});
  lines->push_back({uf + ".stop_style", StopStyleName(u.stop_style), uf});
  lines->push_back({uf + ".allow_trivial_move", Bool(u.allow_trivial_move), uf});
  lines->push_back({uf + ".incremental", Bool(u.incremental), uf});
  const CompactionOptionsFIFO& f = o.compaction_options_fifo;
  const std::string ff = "compaction_options_fifo";
  lines->push_back({ff + ".max_table_files_size", Num(f.max_table_files_size), ff});
  lines->push_back({ff + ".allow_compaction", Bool(f.allow_compaction), ff});
  lines->push_back({ff + ".age_for_warm", Num(f.age_for_warm), ff});
  lines->push_back({"ttl", Num(o.ttl)});
  lines->push_back({"periodic_compaction_seconds", Num(o.periodic_compaction_seconds)});
  for (size_t i = 0; i < o.compression_per_level.size(); ++i) {
    lines->push_back({"compression[" + std::to_string(i) + "]",
                      CompressionTypeName(o.compression_per_level[i]), "compression_per_level"});
  }
  lines->push_back({"bottommost_compression", o.bottommost_compression == kDisableCompressionOption
                                                  ? "Disabled"
                                                  : CompressionTypeName(o.bottommost_compression)});
  AddCompressionOptions(lines, "compression_opts", o.compression_opts, false);
  AddCompressionOptions(lines, "bottommost_compression_opts", o.bottommost_compression_opts, true);
}

void LogLines(Logger* log, const std::vector<OptionLine>& lines) {
  for (const OptionLine& l : lines) {
    const std::string key = "Options." + l.name;
    Log(InfoLogLevel::kHeader, log, "%*s: %s", 44, key.c_str(), l.value.c_str());
  }
}

}  // namespace

std::vector<OptionLine> DBOptionLines(const DBOptions& o) {
  return {
      {"create_if_missing", Bool(o.create_if_missing)},
      {"create_missing_column_families", Bool(o.create_missing_column_families)},
      {"error_if_exists", Bool(o.error_if_exists)},
      {"paranoid_checks", Bool(o.paranoid_checks)},
      {"env", Ptr(o.env)},
      {"info_log", Ptr(o.info_log.get())},
      {"info_log_level", LogLevelName(o.info_log_level)},
      {"max_log_file_size", Num(o.max_log_file_size)},
      {"log_file_time_to_roll", Num(o.log_file_time_to_roll)},
      {"keep_log_file_num", Num(o.keep_log_file_num)},
      {"stats_dump_period_sec", Num(o.stats_dump_period_sec)},
      {"db_log_dir", o.db_log_dir},
      {"listeners", Listeners(o.listeners)},
      {"statistics", Ptr(o.statistics.get())},
      {"max_open_files", Int(o.max_open_files)},
      {"max_background_jobs", Int(o.max_background_jobs)},
      {"max_manifest_file_size", Num(o.max_manifest_file_size)},
      {"delayed_write_rate", Num(o.delayed_write_rate)},
      {"max_total_wal_size", Num(o.max_total_wal_size)},
      {"WAL_ttl_seconds", Num(o.WAL_ttl_seconds)},
      {"WAL_size_limit_MB", Num(o.WAL_size_limit_MB)},
      {"manual_wal_flush", Bool(o.manual_wal_flush)},
      {"wal_compression", CompressionTypeName(o.wal_compression)},
      {"wal_recovery_mode", Int(static_cast<int>(o.wal_recovery_mode))},
      {"allow_concurrent_memtable_write", Bool(o.allow_concurrent_memtable_write)},
      {"enable_pipelined_write", Bool(o.enable_pipelined_write)},
      {"wal_mmap_writes", Bool(o.wal_mmap_writes)},
      {"allow_mmap_writes", Bool(o.allow_mmap_writes)},
      {"allow_mmap_reads", Bool(o.allow_mmap_reads)},
      {"table_mmap_reads", Bool(o.table_mmap_reads)},
      {"use_direct_reads", Bool(o.use_direct_reads)},
      {"use_fsync", Bool(o.use_fsync)},
      {"wal_preallocation_size", Num(o.wal_preallocation_size)},
      {"writable_file_max_buffer_size", Num(o.writable_file_max_buffer_size)},
      {"max_write_batch_group_size_bytes", Num(o.max_write_batch_group_size_bytes)},
      {"avoid_flush_during_recovery", Bool(o.avoid_flush_during_recovery)},
      {"avoid_flush_during_shutdown", Bool(o.avoid_flush_during_shutdown)},
      {"allow_ingest_behind", Bool(o.allow_ingest_behind)},
      {"allow_2pc", Bool(o.allow_2pc)},
      // Memory (issue 19).
      {"db_write_buffer_size", Num(o.db_write_buffer_size)},
      {"write_buffer_manager", Ptr(o.write_buffer_manager.get())},
      {"memory_budget", Num(o.memory_budget)},
      {"max_bgerror_resume_count", Int(o.max_bgerror_resume_count)},
      {"bgerror_resume_retry_interval", Num(o.bgerror_resume_retry_interval)},
      // File placement and direct I/O (issue 19, "paths").
      {"use_direct_io_for_flush_and_compaction", Bool(o.use_direct_io_for_flush_and_compaction)},
      {"compaction_readahead_size", Num(o.compaction_readahead_size)},
      {"wal_dir", o.wal_dir},
      {"db_paths", DbPaths(o.db_paths)},
      // Paced I/O (issue 19).
      {"rate_limiter", Ptr(o.rate_limiter.get())},
      {"sst_file_manager.rate_bytes_per_sec", SstFileManagerRate(o)},
      {"bytes_per_sync", Num(o.bytes_per_sync)},
      {"wal_bytes_per_sync", Num(o.wal_bytes_per_sync)},
      {"strict_bytes_per_sync", Bool(o.strict_bytes_per_sync)},
      // Hooks (strata/wal_filter.h, strata/file_checksum.h), RocksDB's texts.
      {"wal_filter", NameOr(o.wal_filter, "None")},
      {"file_checksum_gen_factory", NameOr(o.file_checksum_gen_factory.get(), "Unknown")},
  };
}

std::vector<OptionLine> ColumnFamilyOptionLines(const ColumnFamilyOptions& o) {
  std::vector<OptionLine> lines = {
      {"comparator", NameOr(o.comparator, "None")},
      {"write_buffer_size", Num(o.write_buffer_size)},
      {"max_write_buffer_number", Int(o.max_write_buffer_number)},
      {"compression", CompressionTypeName(o.compression)},
      {"table_factory", NameOr(o.table_factory.get(), "BlockBasedTable")},
      {"num_levels", Int(o.num_levels)},
      {"level0_file_num_compaction_trigger", Int(o.level0_file_num_compaction_trigger)},
      {"level0_slowdown_writes_trigger", Int(o.level0_slowdown_writes_trigger)},
      {"level0_stop_writes_trigger", Int(o.level0_stop_writes_trigger)},
      {"soft_pending_compaction_bytes_limit", Num(o.soft_pending_compaction_bytes_limit)},
      {"hard_pending_compaction_bytes_limit", Num(o.hard_pending_compaction_bytes_limit)},
      {"target_file_size_multiplier", Int(o.target_file_size_multiplier)},
      {"max_compaction_bytes", Num(o.max_compaction_bytes)},
      {"disable_auto_compactions", Bool(o.disable_auto_compactions)},
      {"target_file_size_base", Num(o.target_file_size_base)},
      {"max_bytes_for_level_base", Num(o.max_bytes_for_level_base)},
      {"max_bytes_for_level_multiplier", Double(o.max_bytes_for_level_multiplier)},
      {"level_compaction_dynamic_level_bytes", Bool(o.level_compaction_dynamic_level_bytes)},
  };
  AddCompactionStyleLines(&lines, o);
  std::vector<OptionLine> rest = {
      {"max_subcompactions", Num(o.max_subcompactions)},
      {"arena_block_size", Num(o.arena_block_size)},
      {"memtable_point_index", Bool(o.memtable_point_index)},
      {"l0_key_filter_bits_per_key", Num(o.l0_key_filter_bits_per_key)},
      {"merge_operator", NameOr(o.merge_operator.get(), "None")},
      {"compaction_filter", NameOr(o.compaction_filter, "None")},
      {"compaction_filter_factory", NameOr(o.compaction_filter_factory.get(), "None")},
      {"sst_partitioner_factory", NameOr(o.sst_partitioner_factory.get(), "None")},
      // Strata's own line (RocksDB 7.8.3 does not log the limiter).
      {"compaction_thread_limiter", o.compaction_thread_limiter == nullptr
                                        ? std::string("None")
                                        : o.compaction_thread_limiter->GetName()},
      {"prefix_extractor", NameOr(o.prefix_extractor.get(), "nullptr")},
      {"memtable_prefix_bloom_size_ratio", Double(o.memtable_prefix_bloom_size_ratio)},
      {"memtable_whole_key_filtering", Bool(o.memtable_whole_key_filtering)},
      {"table_properties_collectors", CollectorNames(o.table_properties_collector_factories)},
      {"cf_paths", DbPaths(o.cf_paths)},
  };
  lines.insert(lines.end(), rest.begin(), rest.end());
  return lines;
}

std::vector<OptionLine> TableOptionLines(const BlockBasedTableOptions& t) {
  return {
      {"block_size", Num(t.block_size)},
      {"block_size_deviation", Int(t.block_size_deviation)},
      {"block_restart_interval", Int(t.block_restart_interval)},
      {"index_block_restart_interval", Int(t.index_block_restart_interval)},
      {"use_delta_encoding", Bool(t.use_delta_encoding)},
      {"index_type", Int(static_cast<int>(t.index_type))},
      {"data_block_index_type", Int(static_cast<int>(t.data_block_index_type))},
      {"data_block_hash_table_util_ratio", Double(t.data_block_hash_table_util_ratio)},
      {"enable_index_compression", Bool(t.enable_index_compression)},
      {"block_cache", Ptr(t.block_cache.get())},
      {"no_block_cache", Bool(t.no_block_cache)},
      {"cache_index_and_filter_blocks", Bool(t.cache_index_and_filter_blocks)},
      {"cache_index_and_filter_blocks_with_high_priority",
       Bool(t.cache_index_and_filter_blocks_with_high_priority)},
      {"pin_l0_filter_and_index_blocks_in_cache", Bool(t.pin_l0_filter_and_index_blocks_in_cache)},
      {"filter_policy", NameOr(t.filter_policy.get(), "nullptr")},
      {"whole_key_filtering", Bool(t.whole_key_filtering)},
      // Partitioned index and filters (issue 19).
      {"partition_filters", Bool(t.partition_filters)},
      {"metadata_block_size", Num(t.metadata_block_size)},
      {"pin_top_level_index_and_filter", Bool(t.pin_top_level_index_and_filter)},
      {"checksum", Int(static_cast<int>(t.checksum))},
      {"format_version", Num(t.format_version)},
      {"initial_auto_readahead_size", Num(t.initial_auto_readahead_size)},
      {"max_auto_readahead_size", Num(t.max_auto_readahead_size)},
      {"cache_usage_options", CacheUsage(t.cache_usage_options)},  // issue 19
      {"flush_block_policy_factory",
       NameOr(t.flush_block_policy_factory.get(), "FlushBlockBySizePolicyFactory")},
  };
}

void LogDBOptions(Logger* log, const DBOptions& o) {
  if (log == nullptr) return;
  LogLines(log, DBOptionLines(o));
}

void LogColumnFamilyOptions(Logger* log, const std::string& cf_name, const ColumnFamilyOptions& o,
                            const BlockBasedTableOptions& t) {
  if (log == nullptr) return;
  Log(InfoLogLevel::kHeader, log,
      "--------------- Options for column family [%s]:", cf_name.c_str());
  const std::vector<OptionLine> lines = ColumnFamilyOptionLines(o);
  for (const OptionLine& l : lines) {
    LogLines(log, {l});
    if (l.name != "table_factory") continue;
    // RocksDB prints the table options as one record right after the
    // factory's name: the first on the record's line, the rest below it.
    std::string text;
    for (const OptionLine& tl : TableOptionLines(t)) {
      text += text.empty() ? "  " : "\n  ";
      text += tl.name + ": " + tl.value;
    }
    Log(InfoLogLevel::kHeader, log, "%*s: %s", 44, "table_factory options", text.c_str());
  }
}

}  // namespace strata
