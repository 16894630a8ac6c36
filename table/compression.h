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
//
// Buffers of up to kMaxRecycledSize bytes are recycled: a destroyed buffer
// goes to a small stash of its thread, and Allocate takes one from the
// calling thread's stash when one fits (capacity n to 1.5 n). A block
// cache under churn frees one block for every block it reads, so most
// reads then skip malloc and free (about 6-13% of a scan or of reads
// under a writer). A stash holds at most kStashSlots buffers and is freed
// when its thread exits.
class BlockBuffer {
 public:
  static constexpr size_t kMaxRecycledSize = 64 << 10;
  static constexpr int kStashSlots = 8;

  BlockBuffer() = default;
  ~BlockBuffer() { Release(); }
  BlockBuffer(BlockBuffer&& other) noexcept
      : data_(other.data_), size_(other.size_), capacity_(other.capacity_) {
    other.data_ = nullptr;
    other.size_ = other.capacity_ = 0;
  }
  BlockBuffer& operator=(BlockBuffer&& other) noexcept {
    if (this != &other) {
      Release();
      data_ = other.data_;
      size_ = other.size_;
      capacity_ = other.capacity_;
      other.data_ = nullptr;
      other.size_ = other.capacity_ = 0;
    }
    return *this;
  }
  BlockBuffer(const BlockBuffer&) = delete;
  BlockBuffer& operator=(const BlockBuffer&) = delete;

  // Replaces the contents with n uninitialized bytes.
  void Allocate(size_t n);
  // Drops the bytes past n (no reallocation). REQUIRES: n <= size().
  void Truncate(size_t n) { size_ = n; }
  char* data() { return data_; }
  const char* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  void Release();

  char* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
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
