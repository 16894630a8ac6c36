// Block compression in RocksDB's on-disk formats (docs/format/block.md (Compression)):
// the bytes a table stores for a block whose trailer type byte is a
// CompressionType, and the way back to the raw block.
//
// Stored formats (compress_format_version 2, used by format_version >= 2):
//   kNoCompression        raw bytes
//   kSnappyCompression    one raw Snappy buffer (it carries its own length)
//   kZlibCompression      varint32 raw size | one deflate stream (raw deflate
//                         with RocksDB's default window_bits -14; a stream
//                         with a zlib header is also decoded)
//   kLZ4Compression       varint32 raw size | one LZ4 block
//   kLZ4HCCompression     same as LZ4 (the HC encoder writes LZ4 blocks)
//   kZSTD (and 0x40, ZSTDNotFinal)
//                         varint32 raw size | one zstd frame
//   BZip2, Xpress         not linked: never produced, NotSupported on decode
//
// Levels (CompressionOptions::level, kDefaultCompressionLevel = the codec's
// default) as RocksDB 7.8.3 uses them: zstd (default 3), zlib (default
// Z_DEFAULT_COMPRESSION, i.e. 6; with window_bits and strategy), LZ4HC
// (default 9). LZ4 and Snappy have no level (RocksDB 7.8.3 compresses LZ4
// with acceleration 1 whatever the level).
//
// Dictionaries: a table may carry one dictionary for its data blocks
// (meta block "rocksdb.compression_dict"). zstd uses it as a zstd
// dictionary (trained, finalized or raw content), LZ4/LZ4HC as preceding
// history (its last 64 KiB), zlib as a preset dictionary. A block written
// with a dictionary decodes only with the same dictionary.
//
// Thread-safety: all functions are thread-safe (codec contexts are cached per
// thread); CompressionDict and UncompressionDict are immutable after
// construction and may be shared by threads.
// Invariants: CompressBlock output always decodes with UncompressBlock (and
// the same dictionary) to the input; UncompressBlock never reads outside
// `stored`, never crashes on damaged input, and fills *out only with a block
// whose size equals the one the stored bytes declare.
#pragma once

#include <bitset>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "strata/memory_allocator.h"
#include "strata/options.h"
#include "strata/slice.h"
#include "strata/status.h"

struct ZSTD_CDict_s;
struct ZSTD_DDict_s;

namespace strata {

// Type code 0x40: a ZSTD frame written by pre-1.0 zstd builds of RocksDB.
// Not a member of the public enum; accepted by UncompressBlock only.
constexpr unsigned char kZSTDNotFinalCompressionCode = 0x40;

// Blocks at least this large are stored raw (RocksDB's limit).
constexpr size_t kMaxCompressibleBlockSize = (size_t{1} << 31) - 1;

// Compresses `raw` with `type` (the codec's default parameters, no
// dictionary) into *out (the bytes to store before the trailer) and returns true when the result is
// smaller than raw.size() - raw.size() / 8. Returns false (and clears *out) when it is not, when
// the block is too large, or when the type is kNoCompression or not supported (see
// CompressionTypeSupported); the caller then stores `raw` with type kNoCompression. *out must not
// alias `raw`.
bool CompressBlock(CompressionType type, const Slice& raw, std::string* out);

// A table's dictionary prepared for compressing its data blocks with
// `type` at `level` (zstd: a digested ZSTD_CDict built once). Not copyable.
class CompressionDict {
 public:
  CompressionDict(std::string raw, CompressionType type, int level);
  ~CompressionDict();
  CompressionDict(const CompressionDict&) = delete;
  CompressionDict& operator=(const CompressionDict&) = delete;

  Slice raw() const { return Slice(raw_); }
  // Null unless type is zstd (or digestion failed: then the raw bytes are
  // used per block).
  ZSTD_CDict_s* zstd_cdict() const { return zstd_cdict_; }

 private:
  std::string raw_;
  ZSTD_CDict_s* zstd_cdict_ = nullptr;
};

// A table's dictionary prepared for decoding its data blocks (zstd: a
// digested ZSTD_DDict, built once per table). Not copyable.
class UncompressionDict {
 public:
  // Digests the dictionary for zstd when `zstd` is true; Corruption when it
  // is not a usable zstd dictionary (see Create).
  static Status Create(std::string raw, bool zstd, std::unique_ptr<UncompressionDict>* out);
  ~UncompressionDict();
  UncompressionDict(const UncompressionDict&) = delete;
  UncompressionDict& operator=(const UncompressionDict&) = delete;

  Slice raw() const { return Slice(raw_); }
  ZSTD_DDict_s* zstd_ddict() const { return zstd_ddict_; }
  // Bytes held (raw dictionary plus zstd's digested form).
  size_t ApproximateMemoryUsage() const;

 private:
  UncompressionDict() = default;
  std::string raw_;
  ZSTD_DDict_s* zstd_ddict_ = nullptr;
};

// CompressBlock with the codec parameters of `opts` (level, window_bits,
// strategy; see the top of this file) and, for data blocks of a table with
// a dictionary, `dict` (null: none). Same return contract as above.
bool CompressBlock(CompressionType type, const CompressionOptions& opts,
                   const CompressionDict* dict, const Slice& raw, std::string* out);

// Builds a table's dictionary from `samples` (the concatenation of pieces
// of its data blocks, of the lengths `sample_lens`), as RocksDB 7.8.3
// does: with opts.zstd_max_train_bytes > 0, zstd's trainer
// (ZDICT_trainFromBuffer) when opts.use_zstd_dict_trainer, else
// ZDICT_finalizeDictionary at opts.level; otherwise the samples themselves.
// At most opts.max_dict_bytes bytes; empty when training fails (the table
// is then written without a dictionary).
std::string BuildCompressionDictionary(const CompressionOptions& opts, std::string samples,
                                       const std::vector<size_t>& sample_lens);

// Whether `type` makes use of a dictionary (zstd, LZ4, LZ4HC, zlib).
bool CompressionTypeUsesDictionary(CompressionType type);

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
//
// A buffer given a MemoryAllocator (SetAllocator: a block cache's, for the
// blocks read for that cache) takes its bytes from the allocator and gives
// them back to it, never to or from the stash; its capacity is the
// allocator's UsableSize. REQUIRES: the allocator outlives the buffer.
class BlockBuffer {
 public:
  static constexpr size_t kMaxRecycledSize = 64 << 10;
  static constexpr int kStashSlots = 8;

  BlockBuffer() = default;
  ~BlockBuffer() { Release(); }
  // A moved-from buffer is empty and keeps its allocator.
  BlockBuffer(BlockBuffer&& other) noexcept
      : data_(other.data_),
        size_(other.size_),
        capacity_(other.capacity_),
        allocator_(other.allocator_) {
    other.data_ = nullptr;
    other.size_ = other.capacity_ = 0;
  }
  BlockBuffer& operator=(BlockBuffer&& other) noexcept {
    if (this != &other) {
      Release();
      data_ = other.data_;
      size_ = other.size_;
      capacity_ = other.capacity_;
      allocator_ = other.allocator_;
      other.data_ = nullptr;
      other.size_ = other.capacity_ = 0;
    }
    return *this;
  }
  BlockBuffer(const BlockBuffer&) = delete;
  BlockBuffer& operator=(const BlockBuffer&) = delete;

  // Where later Allocate calls take their bytes (nullptr: the heap and the
  // thread's stash). Frees the current contents first.
  void SetAllocator(MemoryAllocator* allocator) {
    if (allocator != allocator_) Release();
    allocator_ = allocator;
  }
  MemoryAllocator* allocator() const { return allocator_; }
  // Replaces the contents with n uninitialized bytes.
  void Allocate(size_t n);
  // Drops the bytes past n (no reallocation). REQUIRES: n <= size().
  void Truncate(size_t n) { size_ = n; }
  char* data() { return data_; }
  const char* data() const { return data_; }
  size_t size() const { return size_; }
  // Bytes allocated (a recycled buffer may hold up to 1.5x size()).
  size_t capacity() const { return capacity_; }

 private:
  void Release();

  char* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
  MemoryAllocator* allocator_ = nullptr;  // borrowed; null: heap and stash
};

// Decodes the stored contents of a block whose trailer type is `type` into
// *out (replacing its contents). Corruption, naming the codec and what
// failed, when the bytes are damaged (including a size prefix that differs
// from the decoded size); NotSupported for BZip2/Xpress. `dict` (null:
// none) is the dictionary of the table the block belongs to, used for its
// data blocks only. *out is unspecified on failure. *out must not alias
// `stored`.
Status UncompressBlock(CompressionType type, const Slice& stored, BlockBuffer* out,
                       const UncompressionDict* dict = nullptr);
Status UncompressBlock(CompressionType type, const Slice& stored, std::string* out,
                       const UncompressionDict* dict = nullptr);

// RocksDB's `rocksdb.compression` property string for `type` ("NoCompression",
// "Snappy", "Zlib", "BZip2", "LZ4", "LZ4HC", "Xpress", "ZSTD", "ZSTDNotFinal",
// "DisableOption"); "Unknown" for other codes.
const char* CompressionTypeName(CompressionType type);

// True when CompressBlock can produce `type`: kNoCompression, Snappy, Zlib,
// LZ4, LZ4HC and ZSTD.
bool CompressionTypeSupported(CompressionType type);

// The table property "rocksdb.compression" (docs/format/table.md,
// Properties) for a table of `format_version` configured with `configured`
// whose blocks used the types in `used` (kNoCompression is ignored):
//   format_version <= 6: the configured type's name ("LZ4", "NoCompression").
//   format_version 7: "<manager>;<types>;" where <manager> is the
//     compression manager's compatibility name ("BuiltinV2", the only one
//     Strata has; empty when compression is off) and <types> the used types
//     in ascending order, two upper-case hex digits each ("BuiltinV2;04;").
std::string CompressionNameProperty(uint32_t format_version, CompressionType configured,
                                    const std::bitset<256>& used);

// Checks that the blocks of a table of `format_version` whose property is
// `name` can be decompressed here, and sets *uses_zstd when its blocks are
// (or, before 7, are declared) ZSTD. Before 7 any name is accepted (each
// block's type byte decides). For 7: a compression manager other than
// BuiltinV2 (a custom algorithm) or a type Strata cannot decompress is
// NotSupported naming it; a malformed property is Corruption.
Status CheckCompressionNameProperty(uint32_t format_version, const std::string& name,
                                    bool* uses_zstd);

}  // namespace strata
