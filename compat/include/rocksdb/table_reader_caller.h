// rocksdb/table_reader_caller.h: who asked a table reader for a block, as
// RocksDB 7.8.3 tags block cache accesses in a block cache trace
// (BlockCacheTraceRecord::caller). Strata records no block cache traces;
// the enum exists so that programs naming it compile.
// Thread-safety: plain data.
#pragma once

#include "rocksdb/rocksdb_namespace.h"

namespace rocksdb {

// Values are RocksDB's (they appear in trace files): never renumber.
enum TableReaderCaller : char {
  kUserGet = 1,
  kUserMultiGet = 2,
  kUserIterator = 3,
  kUserApproximateSize = 4,
  kUserVerifyChecksum = 5,
  kSSTDumpTool = 6,
  kExternalSSTIngestion = 7,
  kRepair = 8,
  kPrefetch = 9,
  kCompaction = 10,
  kCompactionRefill = 11,
  kFlush = 12,
  kSSTFileReader = 13,
  kUncategorized = 14,
  kMaxBlockCacheLookupCaller  // one past the last caller
};

}  // namespace rocksdb
