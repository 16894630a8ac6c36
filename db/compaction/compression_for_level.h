// Compression by level: which codec and which CompressionOptions a table
// written by a flush or a compaction gets, following RocksDB 7.8.3's rules
// (GetCompressionType / GetCompressionOptions / GetCompressionFlush):
//
//  1. compression disabled by the caller (universal's
//     compression_size_percent, see `enable_compression`): kNoCompression;
//  2. an output at the bottommost level (level >= number of non-empty
//     levels - 1) with bottommost_compression set (not
//     kDisableCompressionOption): bottommost_compression;
//  3. compression_per_level not empty: its entry for the level, where level
//     0 takes entry 0, the base level (1 unless level_compaction_dynamic_
//     level_bytes moved it down) entry 1 and each deeper level the next;
//     levels past the end take the last entry;
//  4. otherwise `compression`.
// The options are bottommost_compression_opts for a bottommost output when
// its `enabled` is true, else compression_opts. Flushes (level 0) take
// compression_per_level[0] or `compression`, never the bottommost settings,
// and none at all under universal compaction with compression_size_percent
// >= 0 (as RocksDB).
//
// Thread-safety: pure functions; thread-safe.
#pragma once

#include "strata/options.h"

namespace strata {

class Version;

// The codec for an output at `level`. `base_level`: the level L0 compacts
// into (Version::base_level()); `bottommost`: the output is at the
// bottommost level for compression purposes (see
// IsBottommostForCompression). enable_compression = false is the hook for
// universal compaction's compression_size_percent (RocksDB passes the same
// flag): the answer is then kNoCompression.
CompressionType CompressionForLevel(const ColumnFamilyOptions& o, int level, int base_level,
                                    bool bottommost, bool enable_compression = true);

// The CompressionOptions for such an output (rule above). Returns a
// reference into `o`.
const CompressionOptions& CompressionOptionsForLevel(const ColumnFamilyOptions& o, bool bottommost);

// The codec of a flush output (level 0).
CompressionType CompressionForFlush(const ColumnFamilyOptions& o);

// RocksDB's "bottommost" for compression: the output level is at or past
// the last non-empty level of `v` (its number of non-empty levels - 1; an
// empty version counts as one level). Not the same as Compaction::
// bottommost() (no data below the output), which decides tombstone drops.
bool IsBottommostForCompression(const Version& v, int output_level);

}  // namespace strata
