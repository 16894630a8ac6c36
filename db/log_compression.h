// WAL compression (RocksDB's DBOptions::wal_compression, read and written
// byte-compatibly with RocksDB 7.8.3; docs/format/log.md (Compressed logs)).
//
// A compressed log starts with a kSetCompressionType record whose payload
// is the CompressionType as a fixed32 (only kZSTD exists). Every later
// logical record is one complete ZSTD frame (with ZSTD's content
// checksum), produced by a streaming compressor in pieces of at most one
// block's payload; the pieces are cut into the usual FULL / FIRST / MIDDLE
// / LAST fragments, and each physical record's crc covers its compressed
// bytes. A reader decompresses fragment by fragment with one streaming
// decompressor; a record starts a new frame. An empty logical record is
// written as an empty FULL record, uncompressed.
//
// Thread-safety: not thread-safe (one per log writer or reader).
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "strata/options.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata::log {

// Whether logs can be compressed with t (kZSTD only, as in RocksDB).
bool WalCompressionSupported(CompressionType t);

class WalCompressor {
 public:
  // Null unless WalCompressionSupported(type). max_output: the most bytes
  // one Compress call produces (a block's payload).
  static std::unique_ptr<WalCompressor> New(CompressionType type, size_t max_output);
  virtual ~WalCompressor() = default;
  // Starts a new record (frame).
  virtual void Reset() = 0;
  // Compresses `record` (the same Slice on every call for one record) into
  // out[0, max_output); *out_len receives the bytes produced. Returns the
  // bytes ZSTD still has to flush (0: the frame is complete once these are
  // written), or -1 on failure.
  virtual int Compress(const Slice& record, char* out, size_t* out_len) = 0;
};

class WalDecompressor {
 public:
  // Null unless WalCompressionSupported(type).
  static std::unique_ptr<WalDecompressor> New(CompressionType type);
  virtual ~WalDecompressor() = default;
  // Forgets a partly read frame (the next fragment starts a record).
  virtual void Reset() = 0;
  // Replaces *out with everything `fragment` decompresses to. Corruption
  // (with ZSTD's reason) when the bytes are not a valid frame piece.
  virtual Status Decompress(const Slice& fragment, std::string* out) = 0;
};

// Whether `fragment` is the start of a ZSTD frame of a compressed log
// (what a FULL or FIRST fragment holds); *out receives what it
// decompresses to (a prefix of the record for a FIRST).
bool DecompressRecordStart(const Slice& fragment, std::string* out);

}  // namespace strata::log
