// Block-based table framing (docs/format/encoding.md, docs/format/block.md (Block trailer) and
// docs/format/footer.md): block handles, the fixed-size footer at the end of every table file, and
// the 5-byte trailer that follows every block. Byte-compatible with RocksDB's format_version 0..7
// (RocksDB 7.8.3 reads up to 5; 6 arrived in RocksDB 8.6 and 7 in 10.4).
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
//     format_version >= 6 adds a context to every stored checksum: the
//     32-bit sum (mod 2^32) of the value above and
//       ContextModifier(base, offset) = base ^ (low32(offset) + high32(offset))
//     where base is the file's base_context_checksum (footer; never 0) and
//     offset is the file offset of the block's first byte. A block copied to
//     another offset or into another file then fails its checksum.
//
//   Footer, format_version 1..5 (always 53 bytes):
//     offset  0: checksum type (u8)
//     offset  1: metaindex handle | index handle | zero padding to offset 41
//                (the handles area is 40 bytes)
//     offset 41: format_version fixed32
//     offset 45: magic fixed64 = 0x88E241B785F4CFF7
//
//   Footer, format_version 6 and 7 (53 bytes; the handles area changes):
//     offset  0: checksum type (u8)
//     offset  1: extended magic, 4 bytes 3e 00 7a 00
//     offset  5: footer checksum fixed32: the checksum (type above) of the
//                53 footer bytes with this field zeroed, plus
//                ContextModifier(base, footer offset)
//     offset  9: base_context_checksum fixed32 (non-zero)
//     offset 13: metaindex size fixed32; the metaindex block (and its
//                trailer) ends where the footer starts
//     offset 17: 16 reserved bytes (ignored), then 8 reserved bytes that
//                must be zero (else NotSupported: a future feature)
//     offset 41: format_version fixed32
//     offset 45: magic fixed64
//     The index handle is not in the footer: the metaindex holds it under
//     "rocksdb.index".
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
// What Strata writes by default (RocksDB 7.8.3 reads it) and the newest it
// reads and writes.
constexpr uint32_t kFormatVersion = 5;
constexpr uint32_t kLatestFormatVersion = 7;

// format_version >= 6: context checksums, footer checksum, index handle in
// the metaindex. >= 7: the compression_name property names a compression
// manager and the set of compression types used.
inline bool FormatVersionUsesContextChecksum(uint32_t v) { return v >= 6; }
inline bool FormatVersionUsesCompressionManagerName(uint32_t v) { return v >= 7; }

// The amount added to a block's (or the footer's) checksum for a block at
// `offset` of a file with `base_context_checksum`; 0 when the base is 0
// (format_version < 6).
inline uint32_t ChecksumModifierForContext(uint32_t base_context_checksum, uint64_t offset) {
  if (base_context_checksum == 0) return 0;
  return base_context_checksum ^
         (static_cast<uint32_t>(offset) + static_cast<uint32_t>(offset >> 32));
}

// OK for the format_versions Strata writes (5, 6, 7); otherwise
// InvalidArgument naming BlockBasedTableOptions::format_version.
Status ValidateFormatVersionForWrite(uint32_t format_version);

// A random non-zero base_context_checksum for a new file.
uint32_t NewBaseContextChecksum();

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
  // For format_version >= 6 the footer does not hold the index handle: the
  // reader sets it from the metaindex ("rocksdb.index").
  const BlockHandle& index_handle() const { return index_handle_; }
  void set_index_handle(const BlockHandle& h) { index_handle_ = h; }
  // Non-zero exactly when format_version >= 6.
  uint32_t base_context_checksum() const { return base_context_checksum_; }
  void set_base_context_checksum(uint32_t b) { base_context_checksum_ = b; }
  // What a block at `offset` adds to its stored checksum (0 before 6).
  uint32_t ContextModifier(uint64_t offset) const {
    return ChecksumModifierForContext(base_context_checksum_, offset);
  }

  // Appends exactly kNewFooterLength bytes. `footer_offset` is the file
  // offset where the footer starts (used by format_version >= 6, whose
  // metaindex must end, trailer included, right there; REQUIRES: a non-zero
  // base_context_checksum and a metaindex smaller than 4 GiB).
  void EncodeTo(std::string* dst, uint64_t footer_offset = 0) const;

  // Decodes the footer at the end of `input` (input may be longer; only the
  // trailing 53 or 48 bytes are used); `input_offset` is the file offset of
  // input's first byte. Corruption names the bad field: too short, bad magic,
  // unsupported format_version (> 7), unknown checksum type (> 4),
  // malformed handles; for 6 and 7 also a bad extended magic, a footer
  // checksum mismatch, a zero base_context_checksum or a metaindex that does
  // not fit before the footer. Non-zero checked reserved bytes are
  // NotSupported.
  Status DecodeFrom(const Slice& input, uint64_t input_offset = 0);

 private:
  // The rest of DecodeFrom for format_version >= 6; p is the footer's
  // first byte, at file offset footer_offset.
  Status DecodeContextFooter(const char* p, uint64_t footer_offset);

  ChecksumType checksum_type_ = kXXH3;
  uint32_t format_version_ = kFormatVersion;
  uint32_t base_context_checksum_ = 0;
  BlockHandle metaindex_handle_;
  BlockHandle index_handle_;
};

// The 32-bit checksum stored in the trailer of `data[0, n)` whose
// compression type byte is `type_byte`. kNoChecksum and unknown types give 0.
uint32_t ComputeBlockChecksum(ChecksumType type, const char* data, size_t n, char type_byte);

// Verifies the trailer of a block. `data` points at n bytes of contents
// immediately followed by the 5-byte trailer (n + kBlockTrailerSize bytes
// readable); `context_modifier` is Footer::ContextModifier(block offset)
// (0 for format_version < 6). Returns Corruption("block checksum mismatch",
// context) where context is caller-provided text (file name and offset).
// kNoChecksum always passes; an unknown checksum type is Corruption.
Status VerifyBlockChecksum(ChecksumType type, const char* data, size_t n,
                           const std::string& context, uint32_t context_modifier = 0);
// The same check without a Status: true when the trailer matches (always
// for kNoChecksum), false on a mismatch or an unknown type. Hot read paths
// call this first and build the context text only for a failure.
bool BlockChecksumMatches(ChecksumType type, const char* data, size_t n,
                          uint32_t context_modifier = 0);

}  // namespace strata
