#include "strata/slice.h"

namespace strata {

namespace {

// 0..15 for a hex digit of either case, -1 otherwise.
int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

Slice::Slice(const SliceParts& parts, std::string* buf) {
  size_t length = buf->size();
  for (int i = 0; i < parts.num_parts; ++i) length += parts.parts[i].size();
  buf->reserve(length);
  for (int i = 0; i < parts.num_parts; ++i)
    buf->append(parts.parts[i].data(), parts.parts[i].size());
  data_ = buf->data();
  size_ = buf->size();
}

bool Slice::DecodeHex(std::string* result) const {
  if (size_ % 2 != 0 || result == nullptr) return false;
  result->clear();
  result->reserve(size_ / 2);
  for (size_t i = 0; i < size_; i += 2) {
    const int hi = HexValue(data_[i]);
    const int lo = HexValue(data_[i + 1]);
    if (hi < 0 || lo < 0) return false;
    result->push_back(static_cast<char>((hi << 4) | lo));
  }
  return true;
}

std::string Slice::ToString(bool hex) const {
  if (!hex) return std::string(data_, size_);
  static const char kDigits[] = "0123456789ABCDEF";
  std::string result;
  result.reserve(2 * size_);
  for (size_t i = 0; i < size_; ++i) {
    const unsigned char c = static_cast<unsigned char>(data_[i]);
    result.push_back(kDigits[c >> 4]);
    result.push_back(kDigits[c & 0xf]);
  }
  return result;
}

}  // namespace strata
