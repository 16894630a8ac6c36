// Block compression in RocksDB's on-disk formats (docs/format/block.md (Compression)):
// the bytes a table stores for a block whose trailer type byte is a
// CompressionType, and the way back to the raw block.
//
// Stored formats (compress_format_version 2, used by format_version >= 2):
//   kNoCompression        raw bytes
//   kSnappyCompression    one raw Snappy buffer (it carries its own length)
//   kLZ4Compression       varint32 raw size | one LZ4 block
//   kLZ4HCCompression     same as LZ4 (decoded only; never produced here)
//   kZSTD (and 0x40, ZSTDNotFinal)
//                         varint32 raw size | one zstd frame (level 3)
//   Zlib, BZip2, Xpress   not linked: never produced, NotSupported on decode
//
// Thread-safety: all functions are thread-safe (zstd contexts are cached per
// thread).
// Invariants: CompressBlock output always decodes with UncompressBlock to
// the input; UncompressBlock never reads outside `stored`, never crashes on
// damaged input, and fills *out only with a block whose size equals the one
// the stored bytes declare.
#pragma once

#include <memory>
#include <string>

#include "strata/options.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

// Type code 0x40: a ZSTD frame written by pre-1.0 zstd builds of RocksDB.
// Not a member of the public enum; accepted by UncompressBlock only.
constexpr unsigned char kZSTDNotFinalCompressionCode = 0x40;

// Blocks at least this large are stored raw (RocksDB's limit).
constexpr size_t kMaxCompressibleBlockSize = (size_t{1} << 31) - 1;

// Compresses `raw` with `type` into *out (the bytes to store before the
// trailer) and returns true when the result is smaller than
// raw.size() - raw.size() / 8. Returns false (and clears *out) when it is
// not, when the block is too large, or when the type is kNoCompression or not
// supported (see CompressionTypeSupported); the caller then stores `raw`
// with type kNoCompression. *out must not alias `raw`.
bool CompressBlock(CompressionType type, const Slice& raw, std::string* out);

// Heap bytes for a block, allocated without being zeroed (a std::string's
// resize writes every byte before a decoder overwrites them all: about 7%
// of a block-cache miss). Movable, not copyable.
class BlockBuffer {
 public:
  BlockBuffer() = default;
  // Replaces the contents with n uninitialized bytes.
  void Allocate(size_t n) {
    data_.reset(new char[n]);
    size_ = n;
  }
  // Drops the bytes past n (no reallocation). REQUIRES: n <= size().
  void Truncate(size_t n) { size_ = n; }
  char* data() { return data_.get(); }
  const char* data() const { return data_.get(); }
  size_t size() const { return size_; }

 private:
  std::unique_ptr<char[]> data_;
  size_t size_ = 0;
};

// Decodes the stored contents of a block whose trailer type is `type` into
// *out (replacing its contents). Corruption, naming the codec and what
// failed, when the bytes are damaged (including a size prefix that differs
// from the decoded size); NotSupported for Zlib/BZip2/Xpress. *out is
// unspecified on failure. *out must not alias `stored`.
Status UncompressBlock(CompressionType type, const Slice& stored, BlockBuffer* out);
Status UncompressBlock(CompressionType type, const Slice& stored, std::string* out);

// RocksDB's `rocksdb.compression` property string for `type` ("NoCompression",
// "Snappy", "Zlib", "BZip2", "LZ4", "LZ4HC", "Xpress", "ZSTD", "ZSTDNotFinal",
// "DisableOption"); "Unknown" for other codes.
const char* CompressionTypeName(CompressionType type);

// True when CompressBlock can produce `type`: kNoCompression, Snappy, LZ4 and
// ZSTD.
bool CompressionTypeSupported(CompressionType type);

}  // namespace strata
