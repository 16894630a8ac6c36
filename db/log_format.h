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
  // Written by newer RocksDB, never by us. User-defined timestamp sizes
  // (only for column families with timestamps; not supported here) and,
  // with bit 7 set (kRecordTypeSafeIgnoreMask: readers that do not know
  // them skip them), the predecessor-WAL record of track_and_verify_wals.
  // From 10 on, an odd type has the recyclable (11-byte) header.
  kUserDefinedTimestampSizeType = 10,
  kRecyclableUserDefinedTimestampSizeType = 11,
  kPredecessorWALInfoType = 130,
  kRecyclePredecessorWALInfoType = 131,
};
static_assert(kFullType == 1 && kRecyclableFullType == 5 && kSetCompressionType == 9,
              "log record types are persisted");

constexpr uint8_t kMaxRecordType = kSetCompressionType;

constexpr size_t kBlockSize = 32768;

// crc (4) + length (2) + type (1).
constexpr size_t kHeaderSize = 4 + 2 + 1;
// kHeaderSize + log number (4).
constexpr size_t kRecyclableHeaderSize = kHeaderSize + 4;

// Fragment types of the recyclable format (5..8).
inline bool IsRecyclableType(unsigned int type) {
  return type >= kRecyclableFullType && type <= kRecyclableLastType;
}

// A record type a reader that does not know it skips (RocksDB's rule).
constexpr unsigned int kRecordTypeSafeIgnoreMask = 1u << 7;

// Whether a record of `type` has the 11-byte header (with the log number).
inline bool HasRecyclableHeader(unsigned int type) {
  return IsRecyclableType(type) || type == kRecyclableUserDefinedTimestampSizeType ||
         type == kRecyclePredecessorWALInfoType;
}

}  // namespace strata::log
