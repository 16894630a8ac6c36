#include "table/format.h"

#include <cassert>

#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

#include <cstring>
#include <random>

#include "util/coding.h"
#include "util/crc32c.h"

namespace strata {

void BlockHandle::EncodeTo(std::string* dst) const {
  PutVarint64(dst, offset_);
  PutVarint64(dst, size_);
}

Status BlockHandle::DecodeFrom(Slice* input) {
  if (!GetVarint64(input, &offset_) || !GetVarint64(input, &size_)) {
    return Status::Corruption("bad block handle");
  }
  return Status::OK();
}

namespace {

// The first four bytes of a format_version >= 6 footer's handles area. As
// handles they would decode as (62, 0) and (122, 0): empty blocks, which no
// older reader accepts as a metaindex or an index.
constexpr char kExtendedMagic[4] = {0x3e, 0x00, 0x7a, 0x00};

}  // namespace

Status ValidateFormatVersionForWrite(uint32_t format_version) {
  if (format_version >= kFormatVersion && format_version <= kLatestFormatVersion) {
    return Status::OK();
  }
  return Status::InvalidArgument("BlockBasedTableOptions::format_version " +
                                 std::to_string(format_version) +
                                 " is not supported for writing: Strata writes 5, 6 or 7 "
                                 "(and reads 0-7)");
}

uint32_t NewBaseContextChecksum() {
  // One seeding per thread; files only need distinct-looking bases.
  thread_local std::mt19937 gen(std::random_device{}());
  uint32_t b = 0;
  while (b == 0) b = static_cast<uint32_t>(gen());
  return b;
}

void Footer::EncodeTo(std::string* dst, uint64_t footer_offset) const {
  const size_t start = dst->size();
  dst->push_back(static_cast<char>(checksum_type_));
  if (FormatVersionUsesContextChecksum(format_version_)) {
    assert(base_context_checksum_ != 0);
    assert(metaindex_handle_.size() <= UINT32_MAX);
    assert(metaindex_handle_.offset() + metaindex_handle_.size() + kBlockTrailerSize ==
           footer_offset);
    dst->append(kExtendedMagic, sizeof(kExtendedMagic));
    PutFixed32(dst, 0);  // footer checksum, filled in below
    PutFixed32(dst, base_context_checksum_);
    PutFixed32(dst, static_cast<uint32_t>(metaindex_handle_.size()));
  } else {
    metaindex_handle_.EncodeTo(dst);
    index_handle_.EncodeTo(dst);
  }
  dst->resize(start + 1 + kHandlesAreaLength, '\0');
  PutFixed32(dst, format_version_);
  PutFixed64(dst, kBlockBasedTableMagicNumber);
  if (FormatVersionUsesContextChecksum(format_version_)) {
    char* f = dst->data() + start;
    const uint32_t sum =
        ComputeBlockChecksum(checksum_type_, f, kNewFooterLength - 1, f[kNewFooterLength - 1]) +
        ContextModifier(footer_offset);
    EncodeFixed32(f + 5, sum);
  }
}

Status Footer::DecodeFrom(const Slice& input, uint64_t input_offset) {
  if (input.size() < kLegacyFooterLength) {
    return Status::Corruption("file is too short to be an sstable (footer)");
  }
  const char* end = input.data() + input.size();
  const uint64_t magic = DecodeFixed64(end - 8);
  Slice handles;
  base_context_checksum_ = 0;
  index_handle_ = BlockHandle();
  if (magic == kLegacyBlockBasedTableMagicNumber) {
    checksum_type_ = kCRC32c;
    format_version_ = 0;
    handles = Slice(end - kLegacyFooterLength, kHandlesAreaLength);
  } else if (magic == kBlockBasedTableMagicNumber) {
    if (input.size() < kNewFooterLength) {
      return Status::Corruption("file is too short to be an sstable (footer)");
    }
    const char* p = end - kNewFooterLength;
    const uint32_t version = DecodeFixed32(end - 12);
    if (version < 1 || version > kLatestFormatVersion) {
      return Status::Corruption("corrupt or unsupported format_version in footer: ",
                                std::to_string(version));
    }
    const auto type = static_cast<unsigned char>(p[0]);
    if (type > kXXH3) {
      return Status::Corruption("unknown checksum type in footer: ", std::to_string(type));
    }
    checksum_type_ = static_cast<ChecksumType>(type);
    format_version_ = version;
    if (FormatVersionUsesContextChecksum(version)) {
      return DecodeContextFooter(p, input_offset + (input.size() - kNewFooterLength));
    }
    handles = Slice(p + 1, kHandlesAreaLength);
  } else {
    return Status::Corruption("bad table magic number in footer");
  }
  Status s = metaindex_handle_.DecodeFrom(&handles);
  if (s.ok()) s = index_handle_.DecodeFrom(&handles);
  if (!s.ok()) return Status::Corruption("bad block handle in footer");
  return Status::OK();
}

Status Footer::DecodeContextFooter(const char* p, uint64_t footer_offset) {
  if (std::memcmp(p + 1, kExtendedMagic, sizeof(kExtendedMagic)) != 0) {
    return Status::Corruption("bad extended magic in footer (format_version " +
                              std::to_string(format_version_) + ")");
  }
  const uint32_t stored = DecodeFixed32(p + 5);
  base_context_checksum_ = DecodeFixed32(p + 9);
  if (base_context_checksum_ == 0) {
    return Status::Corruption("zero base_context_checksum in footer");
  }
  // With kNoChecksum the stored value is the context modifier alone.
  char copy[kNewFooterLength];
  std::memcpy(copy, p, kNewFooterLength);
  EncodeFixed32(copy + 5, 0);
  const uint32_t computed =
      ComputeBlockChecksum(checksum_type_, copy, kNewFooterLength - 1, copy[kNewFooterLength - 1]) +
      ContextModifier(footer_offset);
  if (computed != stored) {
    return Status::Corruption("footer checksum mismatch at offset " +
                              std::to_string(footer_offset));
  }
  const uint32_t metaindex_size = DecodeFixed32(p + 13);
  if (uint64_t{metaindex_size} + kBlockTrailerSize > footer_offset) {
    return Status::Corruption("metaindex size " + std::to_string(metaindex_size) +
                              " in footer does not fit before the footer");
  }
  metaindex_handle_ =
      BlockHandle(footer_offset - kBlockTrailerSize - metaindex_size, metaindex_size);
  if (DecodeFixed64(p + 33) != 0) {
    return Status::NotSupported(
        "table footer uses a future feature (non-zero reserved bytes, format_version " +
        std::to_string(format_version_) + ")");
  }
  return Status::OK();
}

uint32_t ComputeBlockChecksum(ChecksumType type, const char* data, size_t n, char type_byte) {
  switch (type) {
    case kCRC32c: {
      uint32_t crc = crc32c::Value(data, n);
      crc = crc32c::Extend(crc, &type_byte, 1);
      return crc32c::Mask(crc);
    }
    case kxxHash: {
      XXH32_state_t st;
      XXH32_reset(&st, 0);
      XXH32_update(&st, data, n);
      XXH32_update(&st, &type_byte, 1);
      return XXH32_digest(&st);
    }
    case kxxHash64: {
      XXH64_state_t st;
      XXH64_reset(&st, 0);
      XXH64_update(&st, data, n);
      XXH64_update(&st, &type_byte, 1);
      return static_cast<uint32_t>(XXH64_digest(&st));
    }
    case kXXH3: {
      // A zero-length input is defined as 0 (never happens for real blocks).
      const uint32_t h = n == 0 ? 0 : static_cast<uint32_t>(XXH3_64bits(data, n));
      return h ^ (static_cast<uint32_t>(static_cast<unsigned char>(type_byte)) * 0x6B9083D9u);
    }
    case kNoChecksum:
    default:
      return 0;
  }
}

bool BlockChecksumMatches(ChecksumType type, const char* data, size_t n,
                          uint32_t context_modifier) {
  if (type == kNoChecksum) return true;
  if (type > kXXH3) return false;
  return DecodeFixed32(data + n + 1) ==
         ComputeBlockChecksum(type, data, n, data[n]) + context_modifier;
}

Status VerifyBlockChecksum(ChecksumType type, const char* data, size_t n,
                           const std::string& context, uint32_t context_modifier) {
  if (type == kNoChecksum) return Status::OK();
  if (type > kXXH3) {
    return Status::Corruption("unknown checksum type: ", context);
  }
  const uint32_t stored = DecodeFixed32(data + n + 1);
  const uint32_t computed = ComputeBlockChecksum(type, data, n, data[n]) + context_modifier;
  if (stored != computed) {
    return Status::Corruption("block checksum mismatch", context);
  }
  return Status::OK();
}

}  // namespace strata
