#include "base/dbformat.h"

#include <cstdio>

namespace strata {

std::string ParsedInternalKey::DebugString(bool hex) const {
  char buf[64];
  snprintf(buf, sizeof(buf), "' @ %llu : %u", static_cast<unsigned long long>(sequence),
           static_cast<unsigned>(type));
  std::string result = "'";
  result.append(user_key.ToString(hex));
  result.append(buf);
  return result;
}

Status ParseInternalKey(const Slice& internal_key, ParsedInternalKey* result) {
  if (internal_key.size() < kInternalKeyTrailerSize) {
    return Status::Corruption("internal key too short",
                              std::to_string(internal_key.size()) + " bytes");
  }
  const uint64_t packed = ExtractInternalKeyFooter(internal_key);
  const unsigned char t = packed & 0xff;
  if (!IsValueTypeInTable(t)) {
    return Status::Corruption("internal key has unknown value type", std::to_string(t));
  }
  result->user_key = ExtractUserKey(internal_key);
  result->sequence = packed >> 8;
  result->type = static_cast<ValueType>(t);
  return Status::OK();
}

LookupKey::LookupKey(const Slice& user_key, SequenceNumber s) {
  const size_t usize = user_key.size();
  const size_t needed = usize + 13;  // conservative: 5-byte varint + 8 trailer
  char* dst = space_;
  if (needed > sizeof(space_)) {
    heap_ = new char[needed];
    dst = heap_;
  }
  start_ = dst;
  dst = EncodeVarint32(dst, static_cast<uint32_t>(usize + kInternalKeyTrailerSize));
  kstart_ = dst;
  memcpy(dst, user_key.data(), usize);
  dst += usize;
  EncodeFixed64(dst, PackSequenceAndType(s, kValueTypeForSeek));
  dst += kInternalKeyTrailerSize;
  end_ = dst;
}

LookupKey::~LookupKey() { delete[] heap_; }

}  // namespace strata
