// Compression by level (see the header for RocksDB 7.8.3's rules).
#include "db/compaction/compression_for_level.h"

#include <algorithm>

#include "db/version_set.h"
#include "strata/universal_compaction.h"

namespace strata {

CompressionType CompressionForLevel(const ColumnFamilyOptions& o, int level, int base_level,
                                    bool bottommost, bool enable_compression) {
  if (!enable_compression) return kNoCompression;
  if (bottommost && o.bottommost_compression != kDisableCompressionOption) {
    return o.bottommost_compression;
  }
  if (o.compression_per_level.empty()) return o.compression;
  // Level 0 is entry 0; the base level entry 1, deeper levels onwards. A
  // level between 0 and the base level (possible only in odd manual
  // compactions) clamps to entry 0, past the end to the last entry.
  const int idx = level <= 0 ? 0 : level - base_level + 1;
  const int last = static_cast<int>(o.compression_per_level.size()) - 1;
  return o.compression_per_level[static_cast<size_t>(std::clamp(idx, 0, last))];
}

const CompressionOptions& CompressionOptionsForLevel(const ColumnFamilyOptions& o,
                                                     bool bottommost) {
  return bottommost && o.bottommost_compression_opts.enabled ? o.bottommost_compression_opts
                                                             : o.compression_opts;
}

CompressionType CompressionForFlush(const ColumnFamilyOptions& o) {
  if (o.compaction_style == kCompactionStyleUniversal &&
      o.compaction_options_universal.compression_size_percent >= 0) {
    return kNoCompression;
  }
  return o.compression_per_level.empty() ? o.compression : o.compression_per_level[0];
}

bool IsBottommostForCompression(const Version& v, int output_level) {
  int non_empty = 0;
  for (int level = 0; level < v.num_levels(); ++level) {
    if (!v.files(level).empty()) non_empty = level + 1;
  }
  return output_level >= non_empty - 1;
}

}  // namespace strata
