#include "strata/slice.h"

namespace strata {

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
