// rocksdb/block_cache_trace_writer.h: RocksDB 7.8.3's block cache access
// trace: one BlockCacheTraceRecord per lookup, written through a
// BlockCacheTraceWriter (DB::StartBlockCacheTrace). Strata records no block
// cache traces: StartBlockCacheTrace answers NotSupported, and the writer
// NewBlockCacheTraceWriter returns answers NotSupported to each call
// (never null, so a program that writes through it gets a Status).
// Thread-safety: records are plain data; a writer is an implementation's.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "rocksdb/options.h"
#include "rocksdb/system_clock.h"
#include "rocksdb/table_reader_caller.h"
#include "rocksdb/trace_reader_writer.h"
#include "rocksdb/trace_record.h"

namespace rocksdb {

// One block cache access.
struct BlockCacheTraceRecord {
  uint64_t access_timestamp = 0;
  std::string block_key;
  TraceType block_type = TraceType::kTraceMax;
  uint64_t block_size = 0;
  uint64_t cf_id = 0;
  std::string cf_name;
  uint32_t level = 0;
  uint64_t sst_fd_number = 0;
  TableReaderCaller caller = TableReaderCaller::kMaxBlockCacheLookupCaller;
  bool is_cache_hit = false;
  bool no_insert = false;
  // Get and MultiGet accesses only: which request, and what it looked for.
  uint64_t get_id = kReservedGetId;
  bool get_from_user_specified_snapshot = false;
  std::string referenced_key;
  // Data block accesses of a Get / MultiGet only.
  uint64_t referenced_data_size = 0;
  uint64_t num_keys_in_block = 0;
  bool referenced_key_exist_in_block = false;

  // get_id of an access made for no Get (0).
  static const uint64_t kReservedGetId;

  BlockCacheTraceRecord() {}
  BlockCacheTraceRecord(uint64_t _access_timestamp, std::string _block_key, TraceType _block_type,
                        uint64_t _block_size, uint64_t _cf_id, std::string _cf_name,
                        uint32_t _level, uint64_t _sst_fd_number, TableReaderCaller _caller,
                        bool _is_cache_hit, bool _no_insert, uint64_t _get_id,
                        bool _get_from_user_specified_snapshot = false,
                        std::string _referenced_key = "", uint64_t _referenced_data_size = 0,
                        uint64_t _num_keys_in_block = 0,
                        bool _referenced_key_exist_in_block = false)
      : access_timestamp(_access_timestamp),
        block_key(std::move(_block_key)),
        block_type(_block_type),
        block_size(_block_size),
        cf_id(_cf_id),
        cf_name(std::move(_cf_name)),
        level(_level),
        sst_fd_number(_sst_fd_number),
        caller(_caller),
        is_cache_hit(_is_cache_hit),
        no_insert(_no_insert),
        get_id(_get_id),
        get_from_user_specified_snapshot(_get_from_user_specified_snapshot),
        referenced_key(std::move(_referenced_key)),
        referenced_data_size(_referenced_data_size),
        num_keys_in_block(_num_keys_in_block),
        referenced_key_exist_in_block(_referenced_key_exist_in_block) {}
};

struct BlockCacheTraceOptions {
  uint64_t sampling_frequency = 1;  // one of every N accesses
};

struct BlockCacheTraceWriterOptions {
  uint64_t max_trace_file_size = uint64_t{64} * 1024 * 1024 * 1024;
};

class BlockCacheTraceWriter {
 public:
  virtual ~BlockCacheTraceWriter() {}
  virtual Status WriteBlockAccess(const BlockCacheTraceRecord& record, const Slice& block_key,
                                  const Slice& cf_name, const Slice& referenced_key) = 0;
  virtual Status WriteHeader() = 0;
};

// A writer whose calls answer NotSupported naming them (Strata has no block
// cache trace format); trace_writer is kept and released with it.
std::unique_ptr<BlockCacheTraceWriter> NewBlockCacheTraceWriter(
    SystemClock* clock, const BlockCacheTraceWriterOptions& trace_options,
    std::unique_ptr<TraceWriter>&& trace_writer);

}  // namespace rocksdb
