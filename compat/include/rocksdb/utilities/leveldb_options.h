// rocksdb/utilities/leveldb_options.h: LevelDB's options struct and its
// conversion to RocksDB's Options (RocksDB's defaults and mapping: the
// LevelDB fields go to Options and to a BlockBasedTableOptions whose
// factory the result holds). As in RocksDB, the result takes ownership of
// info_log, block_cache and filter_policy (each is put in a smart pointer).
// Thread-safety: plain data.
#pragma once

#include <cstddef>

#include "rocksdb/cache.h"
#include "rocksdb/comparator.h"
#include "rocksdb/compression_type.h"
#include "rocksdb/env.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/options.h"
#include "rocksdb/rocksdb_namespace.h"

namespace rocksdb {
struct LevelDBOptions {
  const Comparator* comparator;
  bool create_if_missing;
  bool error_if_exists;
  bool paranoid_checks;
  Env* env;
  Logger* info_log;
  size_t write_buffer_size;
  int max_open_files;
  Cache* block_cache;
  size_t block_size;
  int block_restart_interval;
  CompressionType compression;
  const FilterPolicy* filter_policy;

  LevelDBOptions();
};

Options ConvertOptions(const LevelDBOptions& leveldb_options);
}  // namespace rocksdb
