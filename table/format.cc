#include "table/format.h"

#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

#include <cstring>

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

void Footer::EncodeTo(std::string* dst) const {
  const size_t start = dst->size();
  dst->push_back(static_cast<char>(checksum_type_));
  metaindex_handle_.EncodeTo(dst);
  index_handle_.EncodeTo(dst);
  dst->resize(start + 1 + kHandlesAreaLength, '\0');
  PutFixed32(dst, format_version_);
  PutFixed64(dst, kBlockBasedTableMagicNumber);
}

Status Footer::DecodeFrom(const Slice& input) {
  if (input.size() < kLegacyFooterLength) {
    return Status::Corruption("file is too short to be an sstable (footer)");
  }
  const char* end = input.data() + input.size();
  const uint64_t magic = DecodeFixed64(end - 8);
  Slice handles;
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
    if (version < 1 || version > kFormatVersion) {
      return Status::Corruption("corrupt or unsupported format_version in footer: ",
                                std::to_string(version));
    }
    const auto type = static_cast<unsigned char>(p[0]);
    if (type > kXXH3) {
      return Status::Corruption("unknown checksum type in footer: ", std::to_string(type));
    }
    checksum_type_ = static_cast<ChecksumType>(type);
    format_version_ = version;
    handles = Slice(p + 1, kHandlesAreaLength);
  } else {
    return Status::Corruption("bad table magic number in footer");
  }
  Status s = metaindex_handle_.DecodeFrom(&handles);
  if (s.ok()) s = index_handle_.DecodeFrom(&handles);
  if (!s.ok()) return Status::Corruption("bad block handle in footer");
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

Status VerifyBlockChecksum(ChecksumType type, const char* data, size_t n,
                           const std::string& context) {
  if (type == kNoChecksum) return Status::OK();
  if (type > kXXH3) {
    return Status::Corruption("unknown checksum type: ", context);
  }
  const uint32_t stored = DecodeFixed32(data + n + 1);
  const uint32_t computed = ComputeBlockChecksum(type, data, n, data[n]);
  if (stored != computed) {
    return Status::Corruption("block checksum mismatch", context);
  }
  return Status::OK();
}

}  // namespace strata
