// Block-based table framing (docs/format/encoding.md, docs/format/block.md (Block trailer) and
// docs/format/footer.md): block handles, the fixed-size footer at the end of every table file, and
// the 5-byte trailer that follows every block. Byte-compatible with RocksDB 7.8.3 format_version 5.
//
// Layouts:
//
//   BlockHandle := varint64 offset | varint64 size        (at most 20 bytes)
//     size excludes the block trailer.
//
//   Block trailer (5 bytes after the block contents):
//     compression_type: u8 | checksum: fixed32
//     The checksum covers contents followed by the type byte:
//       kNoChecksum  0   not verified (written as 0)
//       kCRC32c      1   crc32c::Mask(crc32c(contents | type))
//       kxxHash      2   XXH32(contents | type, seed 0)
//       kxxHash64    3   low 32 bits of XXH64(contents | type, seed 0)
//       kXXH3        4   low32(XXH3_64(contents)) ^ (type * 0x6B9083D9)
//
//   Footer, format_version >= 1 (always 53 bytes):
//     offset  0: checksum type (u8)
//     offset  1: metaindex handle | index handle | zero padding to offset 41
//                (the handles area is 40 bytes)
//     offset 41: format_version fixed32
//     offset 45: magic fixed64 = 0x88E241B785F4CFF7
//
//   Legacy footer, format_version 0 (48 bytes, read only):
//     offset  0: metaindex handle | index handle | zero padding to offset 40
//     offset 40: magic fixed64 = 0xDB4775248B80FB57 (checksum is kCRC32c)
//
// Thread-safety: value types; pure functions.
// Invariants: Footer::EncodeTo always produces exactly kNewFooterLength
// bytes; DecodeFrom never reads outside its input and names the bad field in
// the Corruption it returns.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "strata/slice.h"
#include "strata/status.h"
#include "strata/table.h"  // ChecksumType

namespace strata {

static_assert(kXXH3 == 4, "ChecksumType codes are persisted");

constexpr size_t kBlockTrailerSize = 5;

// Where a block lives in a file.
class BlockHandle {
 public:
  static constexpr size_t kMaxEncodedLength = 20;

  BlockHandle() = default;
  BlockHandle(uint64_t offset, uint64_t size) : offset_(offset), size_(size) {}

  uint64_t offset() const { return offset_; }
  uint64_t size() const { return size_; }
  void set_offset(uint64_t offset) { offset_ = offset; }
  void set_size(uint64_t size) { size_ = size; }

  void EncodeTo(std::string* dst) const;
  // Consumes the handle from the front of *input; Corruption if malformed.
  Status DecodeFrom(Slice* input);

 private:
  uint64_t offset_ = 0;
  uint64_t size_ = 0;
};

constexpr uint64_t kBlockBasedTableMagicNumber = 0x88E241B785F4CFF7ull;
constexpr uint64_t kLegacyBlockBasedTableMagicNumber = 0xDB4775248B80FB57ull;
constexpr uint32_t kFormatVersion = 5;

class Footer {
 public:
  static constexpr size_t kHandlesAreaLength = 2 * BlockHandle::kMaxEncodedLength;  // 40
  static constexpr size_t kNewFooterLength = 1 + kHandlesAreaLength + 4 + 8;        // 53
  static constexpr size_t kLegacyFooterLength = kHandlesAreaLength + 8;             // 48

  Footer() = default;

  ChecksumType checksum_type() const { return checksum_type_; }
  void set_checksum_type(ChecksumType t) { checksum_type_ = t; }
  uint32_t format_version() const { return format_version_; }
  void set_format_version(uint32_t v) { format_version_ = v; }
  const BlockHandle& metaindex_handle() const { return metaindex_handle_; }
  void set_metaindex_handle(const BlockHandle& h) { metaindex_handle_ = h; }
  const BlockHandle& index_handle() const { return index_handle_; }
  void set_index_handle(const BlockHandle& h) { index_handle_ = h; }

  // Appends exactly kNewFooterLength bytes.
  void EncodeTo(std::string* dst) const;

  // Decodes the footer at the end of `input` (input may be longer; only the
  // trailing 53 or 48 bytes are used). Corruption names the bad field: too
  // short, bad magic, unsupported format_version (> 5), unknown checksum type
  // (> 4), or malformed handles.
  Status DecodeFrom(const Slice& input);

 private:
  ChecksumType checksum_type_ = kXXH3;
  uint32_t format_version_ = kFormatVersion;
  BlockHandle metaindex_handle_;
  BlockHandle index_handle_;
};

// The 32-bit checksum stored in the trailer of `data[0, n)` whose
// compression type byte is `type_byte`. kNoChecksum and unknown types give 0.
uint32_t ComputeBlockChecksum(ChecksumType type, const char* data, size_t n, char type_byte);

// Verifies the trailer of a block. `data` points at n bytes of contents
// immediately followed by the 5-byte trailer (n + kBlockTrailerSize bytes
// readable). Returns Corruption("block checksum mismatch", context) where
// context is caller-provided text (file name and offset). kNoChecksum always
// passes; an unknown checksum type is Corruption.
Status VerifyBlockChecksum(ChecksumType type, const char* data, size_t n,
                           const std::string& context);

}  // namespace strata
