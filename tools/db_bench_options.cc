// Copies db_bench's compaction-style settings onto strata::ColumnFamilyOptions
// (see tools/db_bench_options.h).

#include "tools/db_bench_options.h"

namespace strata::bench {

CompressionType ToStrataCompression(Compression c) {
  switch (c) {
    case Compression::kNone:
      return kNoCompression;
    case Compression::kSnappy:
      return kSnappyCompression;
    case Compression::kZlib:
      return kZlibCompression;
    case Compression::kBZip2:
      return kBZip2Compression;
    case Compression::kLZ4:
      return kLZ4Compression;
    case Compression::kLZ4HC:
      return kLZ4HCCompression;
    case Compression::kXpress:
      return kXpressCompression;
    case Compression::kZSTD:
      return kZSTD;
  }
  return kSnappyCompression;
}

void ApplyCompactionSettings(const CompactionSettings& s, ColumnFamilyOptions* o) {
  // ParseCompactionSettings has range-checked both.
  o->compaction_style = static_cast<CompactionStyle>(s.compaction_style);
  o->compaction_pri = static_cast<CompactionPri>(s.compaction_pri);

  // Universal: only what was given, as RocksDB's db_bench.
  CompactionOptionsUniversal& u = o->compaction_options_universal;
  if (s.universal_size_ratio != 0) u.size_ratio = s.universal_size_ratio;
  if (s.universal_min_merge_width != 0) u.min_merge_width = s.universal_min_merge_width;
  if (s.universal_max_merge_width != 0) u.max_merge_width = s.universal_max_merge_width;
  if (s.universal_max_size_amplification_percent != 0) {
    u.max_size_amplification_percent = s.universal_max_size_amplification_percent;
  }
  if (s.universal_compression_size_percent != -1) {
    u.compression_size_percent = s.universal_compression_size_percent;
  }
  u.allow_trivial_move = s.universal_allow_trivial_move;
  u.incremental = s.universal_incremental;

  // FIFO: always, as RocksDB's db_bench (its default size limit is 0).
  o->compaction_options_fifo.max_table_files_size = s.fifo_max_table_files_size;
  o->compaction_options_fifo.allow_compaction = s.fifo_allow_compaction;
  o->compaction_options_fifo.age_for_warm = s.fifo_age_for_warm;
  o->ttl = s.ttl;
  o->periodic_compaction_seconds = s.periodic_compaction_seconds;

  if (!s.max_bytes_for_level_multiplier_additional.empty()) {
    o->max_bytes_for_level_multiplier_additional = s.max_bytes_for_level_multiplier_additional;
  }

  CompressionOptions& c = o->compression_opts;
  c.level = s.compression_level;
  c.max_dict_bytes = s.compression_max_dict_bytes;
  c.zstd_max_train_bytes = s.compression_zstd_max_train_bytes;
  c.parallel_threads = s.compression_parallel_threads;
  c.max_dict_buffer_bytes = s.compression_max_dict_buffer_bytes;
  c.use_zstd_dict_trainer = s.compression_use_zstd_dict_trainer;

  if (!s.compression_per_level.empty()) {
    o->compression_per_level.clear();
    for (Compression level : s.compression_per_level) {
      o->compression_per_level.push_back(ToStrataCompression(level));
    }
  }
}

}  // namespace strata::bench
