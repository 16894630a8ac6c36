#include "db/options_file.h"

#include <cstdio>
#include <vector>

#include "db/filename.h"
#include "db/options_helper.h"
#include "strata/file_checksum.h"
#include "table/filter_policy.h"

namespace strata {

namespace {

const char* Bool(bool b) { return b ? "true" : "false"; }

const char* CompressionName(CompressionType t) {
  switch (t) {
    case kNoCompression:
      return "kNoCompression";
    case kSnappyCompression:
      return "kSnappyCompression";
    case kZlibCompression:
      return "kZlibCompression";
    case kBZip2Compression:
      return "kBZip2Compression";
    case kLZ4Compression:
      return "kLZ4Compression";
    case kLZ4HCCompression:
      return "kLZ4HCCompression";
    case kXpressCompression:
      return "kXpressCompression";
    case kZSTD:
      return "kZSTD";
    default:
      return "kNoCompression";
  }
}

const char* ChecksumName(ChecksumType t) {
  switch (t) {
    case kNoChecksum:
      return "kNoChecksum";
    case kCRC32c:
      return "kCRC32c";
    case kxxHash:
      return "kxxHash";
    case kxxHash64:
      return "kxxHash64";
    default:
      return "kXXH3";
  }
}

const char* RecoveryModeName(WALRecoveryMode m) {
  switch (m) {
    case WALRecoveryMode::kTolerateCorruptedTailRecords:
      return "kTolerateCorruptedTailRecords";
    case WALRecoveryMode::kAbsoluteConsistency:
      return "kAbsoluteConsistency";
    case WALRecoveryMode::kSkipAnyCorruptedRecords:
      return "kSkipAnyCorruptedRecords";
    default:
      return "kPointInTimeRecovery";
  }
}

void Line(std::string* out, const char* name, const std::string& value) {
  *out += "  ";
  *out += name;
  *out += "=";
  *out += value;
  *out += "\n";
}

void Line(std::string* out, const char* name, uint64_t value) {
  Line(out, name, std::to_string(value));
}

void AppendFamily(std::string* out, const std::string& name, const Options& o,
                  const BlockBasedTableOptions& t);

// A family option's text through the option table (db/options_helper.h).
std::string TableText(const char* name, const ColumnFamilyOptions& o) {
  const OptionInfo* info = FindOption(OptionScope::kCF, name);
  return info == nullptr ? "" : OptionValueToString(*info, &o);
}

}  // namespace

std::string OptionsFileContents(const Options& options, const BlockBasedTableOptions& table) {
  return OptionsFileContents({OptionsFileFamily{"default", &options, &table}});
}

std::string OptionsFileContents(const std::vector<OptionsFileFamily>& families) {
  const Options& o = *families.front().options;
  std::string r =
      "# Options of a Strata database, in RocksDB's OPTIONS file format.\n"
      "# Written at every open; RocksDB tools read it.\n\n"
      "[Version]\n"
      "  rocksdb_version=7.8.3\n"
      "  options_file_version=1.1\n\n"
      "[DBOptions]\n";
  Line(&r, "create_if_missing", Bool(o.create_if_missing));
  Line(&r, "error_if_exists", Bool(o.error_if_exists));
  Line(&r, "paranoid_checks", Bool(o.paranoid_checks));
  Line(&r, "max_open_files", std::to_string(o.max_open_files));
  Line(&r, "max_background_jobs", std::to_string(o.max_background_jobs));
  Line(&r, "max_manifest_file_size", o.max_manifest_file_size);
  Line(&r, "max_total_wal_size", o.max_total_wal_size);
  Line(&r, "WAL_ttl_seconds", o.WAL_ttl_seconds);
  Line(&r, "WAL_size_limit_MB", o.WAL_size_limit_MB);
  Line(&r, "manual_wal_flush", Bool(o.manual_wal_flush));
  Line(&r, "wal_compression", CompressionName(o.wal_compression));
  Line(&r, "delayed_write_rate", o.delayed_write_rate != 0 ? o.delayed_write_rate : 16777216);
  Line(&r, "wal_recovery_mode", RecoveryModeName(o.wal_recovery_mode));
  Line(&r, "allow_concurrent_memtable_write", Bool(o.allow_concurrent_memtable_write));
  Line(&r, "enable_pipelined_write", Bool(o.enable_pipelined_write));
  Line(&r, "allow_mmap_writes", Bool(o.allow_mmap_writes));
  Line(&r, "allow_mmap_reads", Bool(o.allow_mmap_reads));
  Line(&r, "use_direct_reads", Bool(o.use_direct_reads));
  Line(&r, "use_fsync", Bool(o.use_fsync));
  Line(&r, "writable_file_max_buffer_size", o.writable_file_max_buffer_size);
  Line(&r, "max_write_batch_group_size_bytes", o.max_write_batch_group_size_bytes);
  Line(&r, "avoid_flush_during_recovery", Bool(o.avoid_flush_during_recovery));
  Line(&r, "avoid_flush_during_shutdown", Bool(o.avoid_flush_during_shutdown));
  Line(&r, "allow_ingest_behind", Bool(o.allow_ingest_behind));
  Line(&r, "allow_2pc", Bool(o.allow_2pc));
  if (o.file_checksum_gen_factory != nullptr) {
    // By name, as RocksDB writes it (null: no line, RocksDB's default).
    Line(&r, "file_checksum_gen_factory", o.file_checksum_gen_factory->Name());
  }
  Line(&r, "db_write_buffer_size", o.db_write_buffer_size);  // issue 19
  Line(&r, "max_log_file_size", o.max_log_file_size);
  Line(&r, "log_file_time_to_roll", o.log_file_time_to_roll);
  Line(&r, "keep_log_file_num", o.keep_log_file_num);
  Line(&r, "db_log_dir", o.db_log_dir);
  Line(&r, "stats_dump_period_sec", std::to_string(o.stats_dump_period_sec));
  // File placement and direct I/O (issue 19, "paths").
  Line(&r, "use_direct_io_for_flush_and_compaction",
       Bool(o.use_direct_io_for_flush_and_compaction));
  Line(&r, "compaction_readahead_size", o.compaction_readahead_size);
  Line(&r, "wal_dir", o.wal_dir);
  // Paced I/O (issue 19); rate_limiter and sst_file_manager are not written
  // (RocksDB does not write them either).
  Line(&r, "bytes_per_sync", o.bytes_per_sync);
  Line(&r, "wal_bytes_per_sync", o.wal_bytes_per_sync);
  Line(&r, "strict_bytes_per_sync", Bool(o.strict_bytes_per_sync));

  for (const OptionsFileFamily& f : families) AppendFamily(&r, f.name, *f.options, *f.table);
  return r;
}

namespace {

void AppendFamily(std::string* out, const std::string& name, const Options& o,
                  const BlockBasedTableOptions& t) {
  std::string& r = *out;
  r += "\n[CFOptions \"" + name + "\"]\n";
  Line(&r, "comparator", o.comparator->Name());
  Line(&r, "table_factory", "BlockBasedTable");
  Line(&r, "compaction_style", TableText("compaction_style", o));
  Line(&r, "compaction_pri", TableText("compaction_pri", o));
  Line(&r, "write_buffer_size", o.write_buffer_size);
  Line(&r, "max_write_buffer_number", std::to_string(o.max_write_buffer_number));
  Line(&r, "compression", CompressionName(o.compression));
  Line(&r, "num_levels", std::to_string(o.num_levels));
  Line(&r, "level0_file_num_compaction_trigger",
       std::to_string(o.level0_file_num_compaction_trigger));
  Line(&r, "level0_slowdown_writes_trigger", std::to_string(o.level0_slowdown_writes_trigger));
  Line(&r, "level0_stop_writes_trigger", std::to_string(o.level0_stop_writes_trigger));
  Line(&r, "target_file_size_base", o.target_file_size_base);
  Line(&r, "target_file_size_multiplier", std::to_string(o.target_file_size_multiplier));
  Line(&r, "max_bytes_for_level_base", o.max_bytes_for_level_base);
  char buf[64];
  snprintf(buf, sizeof(buf), "%f", o.max_bytes_for_level_multiplier);
  Line(&r, "max_bytes_for_level_multiplier", buf);
  Line(&r, "level_compaction_dynamic_level_bytes", Bool(o.level_compaction_dynamic_level_bytes));
  Line(&r, "max_compaction_bytes",
       o.max_compaction_bytes != 0 ? o.max_compaction_bytes : 25 * o.target_file_size_base);
  Line(&r, "soft_pending_compaction_bytes_limit", o.soft_pending_compaction_bytes_limit);
  Line(&r, "hard_pending_compaction_bytes_limit", o.hard_pending_compaction_bytes_limit);
  Line(&r, "disable_auto_compactions", Bool(o.disable_auto_compactions));
  // The compaction-style and compression-by-level options, in the option
  // table's text form (the parser's), which is RocksDB's: nested structs as
  // {name=value;...;}, lists ':'-separated. RocksDB leaves out an empty
  // compression_per_level.
  for (const char* name :
       {"max_bytes_for_level_multiplier_additional", "compaction_options_universal",
        "compaction_options_fifo", "ttl", "periodic_compaction_seconds", "compression_per_level",
        "bottommost_compression", "compression_opts", "bottommost_compression_opts"}) {
    const std::string text = TableText(name, o);
    if (text.empty() && std::string(name) == "compression_per_level") continue;
    Line(&r, name, text);
  }
  // RocksDB's form, {id=SstPartitionerFixedPrefixFactory;length=N;}
  // (written when set; absent reads as nullptr, the default).
  if (o.sst_partitioner_factory != nullptr) {
    Line(&r, "sst_partitioner_factory", TableText("sst_partitioner_factory", o));
  }

  r += "\n[TableOptions/BlockBasedTable \"" + name + "\"]\n";
  // A factory's name (written when set; absent reads as the size policy).
  if (t.flush_block_policy_factory != nullptr) {
    const OptionInfo* info = FindOption(OptionScope::kTable, "flush_block_policy_factory");
    if (info != nullptr) Line(&r, "flush_block_policy_factory", OptionValueToString(*info, &t));
  }
  Line(&r, "block_size", t.block_size);
  Line(&r, "block_size_deviation", std::to_string(t.block_size_deviation));
  Line(&r, "block_restart_interval", std::to_string(t.block_restart_interval));
  Line(&r, "index_block_restart_interval", std::to_string(t.index_block_restart_interval));
  Line(&r, "checksum", ChecksumName(t.checksum));
  Line(&r, "format_version", std::to_string(t.format_version));
  Line(&r, "whole_key_filtering", Bool(t.whole_key_filtering));
  Line(&r, "no_block_cache", Bool(t.no_block_cache));
  Line(&r, "cache_index_and_filter_blocks", Bool(t.cache_index_and_filter_blocks));
  Line(&r, "cache_index_and_filter_blocks_with_high_priority",
       Bool(t.cache_index_and_filter_blocks_with_high_priority));
  Line(&r, "pin_l0_filter_and_index_blocks_in_cache",
       Bool(t.pin_l0_filter_and_index_blocks_in_cache));
  Line(&r, "enable_index_compression", Bool(t.enable_index_compression));
  Line(
      &r, "data_block_index_type",
      t.data_block_index_type == BlockBasedTableOptions::DataBlockIndexType::kDataBlockBinaryAndHash
          ? "kDataBlockBinaryAndHash"
          : "kDataBlockBinarySearch");
  snprintf(buf, sizeof(buf), "%f", t.data_block_hash_table_util_ratio);
  Line(&r, "data_block_hash_table_util_ratio", buf);
  // Index layout and partitioned index/filters (issue 19), in the option
  // table's text (RocksDB's enum names).
  for (const char* name : {"index_type", "partition_filters", "metadata_block_size",
                           "pin_top_level_index_and_filter"}) {
    const OptionInfo* info = FindOption(OptionScope::kTable, name);
    if (info != nullptr) Line(&r, name, OptionValueToString(*info, &t));
  }
  std::string filter = "nullptr";
  if (t.filter_policy != nullptr) {
    const auto* bloom = dynamic_cast<const BloomFilterPolicy*>(t.filter_policy.get());
    if (bloom != nullptr) {
      snprintf(buf, sizeof(buf), "bloomfilter:%g:false", bloom->millibits_per_key() / 1000.0);
      filter = buf;
    }
    // Ribbon: RocksDB's id "ribbonfilter:<bits>:<bloom_before_level>".
    if (const auto* ribbon = dynamic_cast<const RibbonFilterPolicy*>(t.filter_policy.get())) {
      snprintf(buf, sizeof(buf), "ribbonfilter:%g:%d", ribbon->millibits_per_key() / 1000.0,
               ribbon->bloom_before_level());
      filter = buf;
    }
  }
  Line(&r, "filter_policy", filter);
}

}  // namespace

Status WriteOptionsFile(FileSystem* fs, const std::string& dbname, uint64_t number,
                        const Options& options, const BlockBasedTableOptions& table,
                        Directory* db_dir) {
  return WriteOptionsFile(fs, dbname, number, {OptionsFileFamily{"default", &options, &table}},
                          db_dir);
}

Status WriteOptionsFile(FileSystem* fs, const std::string& dbname, uint64_t number,
                        const std::vector<OptionsFileFamily>& families, Directory* db_dir,
                        bool delete_older) {
  const std::string tmp = TempFileName(dbname, number);
  const std::string final_name = OptionsFileName(dbname, number);
  FileOptions opts;
  opts.use_fsync = !families.empty() && families.front().options->use_fsync;
  Status s = WriteStringToFile(fs, OptionsFileContents(families), tmp, /*should_sync=*/true, opts);
  if (s.ok()) s = fs->RenameFile(tmp, final_name);
  if (s.ok() && db_dir != nullptr) s = db_dir->Fsync();
  if (!s.ok()) {
    fs->DeleteFile(tmp).PermitUncheckedError();
    return s;
  }
  std::vector<std::string> children;
  if (delete_older && fs->GetChildren(dbname, &children).ok()) {
    for (const std::string& name : children) {
      uint64_t n;
      FileType type;
      if (ParseFileName(name, &n, &type) && type == FileType::kOptionsFile && n < number) {
        fs->DeleteFile(dbname + "/" + name).PermitUncheckedError();
      }
    }
  }
  return Status::OK();
}

}  // namespace strata
