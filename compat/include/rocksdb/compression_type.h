// rocksdb/compression_type.h: block compression kinds, with RocksDB's values
// (persisted in table files: never renumber).
#pragma once

#include "rocksdb/rocksdb_namespace.h"

namespace rocksdb {
enum CompressionType : unsigned char {
  kNoCompression = 0x0,
  kSnappyCompression = 0x1,
  kZlibCompression = 0x2,
  kBZip2Compression = 0x3,
  kLZ4Compression = 0x4,
  kLZ4HCCompression = 0x5,
  kXpressCompression = 0x6,
  kZSTD = 0x7,
  kZSTDNotFinalCompression = 0x40,
  kDisableCompressionOption = 0xff,
};
}  // namespace rocksdb
