// The log file format shared by the write-ahead log (NNNNNN.log) and the
// MANIFEST, byte-compatible with RocksDB 7.8.3 (docs/format/log.md).
//
// A log file is a sequence of 32 KiB blocks; only the last block may be
// shorter. A block holds physical records and never splits one:
//
//   legacy record (types 1..4, 9), 7-byte header:
//   +-------------+------------+---------+====================+
//   | masked crc  | length     | type    | payload[length]    |
//   | fixed32     | fixed16    | 1 byte  |                    |
//   +-------------+------------+---------+====================+
//     bytes 0..3    4..5         6         7..
//
//   recyclable record (types 5..8), 11-byte header:
//   +-------------+------------+---------+-------------+=================+
//   | masked crc  | length     | type    | log number  | payload[length] |
//   | fixed32     | fixed16    | 1 byte  | fixed32     |                 |
//   +-------------+------------+---------+-------------+=================+
//     bytes 0..3    4..5         6         7..10         11..
//
//  - crc = crc32c(type byte | log number (recyclable only) | payload),
//    masked with crc32c::Mask. The length field is not covered.
//  - log number = the low 32 bits of the file's number. A recyclable record
//    with another number is stale data of a reused file: end of log.
//  - When fewer than header-size bytes remain in a block, the writer fills
//    them with zero bytes and starts the next block. When exactly
//    header-size bytes remain and data is left to write, it emits a
//    fragment with an empty payload there.
//  - A logical record (one WriteBatch, one VersionEdit) is written as one
//    FULL record, or as FIRST, zero or more MIDDLE, and LAST fragments in
//    consecutive blocks. An empty logical record is one FULL of length 0.
//  - Type 0 marks space nobody wrote (preallocated, zero-filled); readers
//    skip a zero header of length 0 up to the end of its block.
// Thread-safety: constants only.
#pragma once

#include <cstddef>
#include <cstdint>

namespace strata::log {

// Persisted in every log record header: never renumber.
enum RecordType : uint8_t {
  kZeroType = 0,
  kFullType = 1,
  kFirstType = 2,
  kMiddleType = 3,
  kLastType = 4,
  kRecyclableFullType = 5,
  kRecyclableFirstType = 6,
  kRecyclableMiddleType = 7,
  kRecyclableLastType = 8,
  // WAL compression marker (RocksDB wal_compression); never written by us.
  kSetCompressionType = 9,
};
static_assert(kFullType == 1 && kRecyclableFullType == 5 && kSetCompressionType == 9,
              "log record types are persisted");

constexpr uint8_t kMaxRecordType = kSetCompressionType;

constexpr size_t kBlockSize = 32768;

// crc (4) + length (2) + type (1).
constexpr size_t kHeaderSize = 4 + 2 + 1;
// kHeaderSize + log number (4).
constexpr size_t kRecyclableHeaderSize = kHeaderSize + 4;

inline bool IsRecyclableType(unsigned int type) {
  return type >= kRecyclableFullType && type <= kRecyclableLastType;
}

}  // namespace strata::log
