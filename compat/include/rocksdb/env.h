// rocksdb/env.h: the operating-system interface. strata::Env is the same type
// here (Env::Default(), the file and clock calls Strata offers); RocksDB's
// info-log levels are RocksDB's enum (converted at Open). A custom Env other
// than Env::Default() or one from NewMemEnv is passed through to Strata.
#pragma once

#include <cstddef>
#include <cstdint>

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/status.h"
#include "strata/env.h"

namespace rocksdb {
using Env = ::strata::Env;
using Logger = ::strata::Logger;
using FileSystem = ::strata::FileSystem;
using SystemClock = ::strata::SystemClock;

enum InfoLogLevel : unsigned char {
  DEBUG_LEVEL = 0,
  INFO_LEVEL,
  WARN_LEVEL,
  ERROR_LEVEL,
  FATAL_LEVEL,
  HEADER_LEVEL,
  NUM_INFO_LOG_LEVELS,
};

struct DBOptions;

// File options of RocksDB's Env layer, taken by SstFileWriter. Strata's
// writer takes its settings from the Options it is given; these fields are
// advisory.
struct EnvOptions {
  EnvOptions() = default;
  explicit EnvOptions(const DBOptions& options);
  bool use_mmap_reads = false;
  bool use_mmap_writes = true;
  bool use_direct_reads = false;
  bool use_direct_writes = false;
  bool allow_fallocate = true;
  bool set_fd_cloexec = true;
  uint64_t bytes_per_sync = 0;
  bool strict_bytes_per_sync = false;
  bool fallocate_with_keep_size = true;
  size_t compaction_readahead_size = 0;
  size_t random_access_max_buffer_size = 0;
  size_t writable_file_max_buffer_size = 1024 * 1024;
};

// An in-memory Env for tests. `base` must be Env::Default() (or null); the
// caller owns (deletes) the result.
Env* NewMemEnv(Env* base);
}  // namespace rocksdb
