// db_bench_options: copies db_bench's store-independent settings
// (tools/db_bench_common.h) onto Strata's public options. Kept apart from
// db_bench.cc so that db_bench_common_test can check that every flag lands in
// the right field.
// Thread-safety: stateless functions.
// Invariants: a setting RocksDB's db_bench leaves unset (CompactionSettings
// says which) leaves Strata's default untouched; everything else is assigned,
// so the store's Open sees (and refuses by name) what it does not build.
#pragma once

#include "strata/options.h"
#include "tools/db_bench_common.h"

namespace strata::bench {

// RocksDB's CompressionType for a db_bench compression name.
CompressionType ToStrataCompression(Compression c);

// Assigns the compaction-style, TTL and compression-by-level settings to
// *options (RocksDB 7.8.3 db_bench's InitializeOptionsFromFlags does the
// same assignments).
void ApplyCompactionSettings(const CompactionSettings& s, ColumnFamilyOptions* options);

}  // namespace strata::bench
