// Slice: a non-owning view of a byte range (pointer + length).
//
// A Slice never owns its bytes; the user of a Slice must make sure the bytes
// outlive it. Slices are compared bytewise (memcmp order). SliceParts: a
// value given in pieces.
// Thread-safety: const methods are thread-safe; non-const methods need
// external synchronization.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

#include "strata/export.h"

namespace strata {

class STRATA_EXPORT Slice {
 public:
  Slice() : data_(""), size_(0) {}
  Slice(const char* d, size_t n) : data_(d), size_(n) {}
  // NOLINTNEXTLINE(google-explicit-constructor): implicit like RocksDB's.
  Slice(const std::string& s) : data_(s.data()), size_(s.size()) {}
  // NOLINTNEXTLINE(google-explicit-constructor)
  Slice(std::string_view sv) : data_(sv.data()), size_(sv.size()) {}
  // NOLINTNEXTLINE(google-explicit-constructor)
  Slice(const char* s) : data_(s), size_(strlen(s)) {}

  const char* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  // REQUIRES: n < size()
  char operator[](size_t n) const {
    assert(n < size_);
    return data_[n];
  }

  void clear() {
    data_ = "";
    size_ = 0;
  }

  // REQUIRES: n <= size()
  void remove_prefix(size_t n) {
    assert(n <= size_);
    data_ += n;
    size_ -= n;
  }
  // REQUIRES: n <= size()
  void remove_suffix(size_t n) {
    assert(n <= size_);
    size_ -= n;
  }

  std::string ToString(bool hex = false) const;
  std::string_view ToStringView() const { return {data_, size_}; }

  // <0, 0, >0 as this is less than, equal to, or greater than b.
  int compare(const Slice& b) const {
    const size_t min_len = size_ < b.size_ ? size_ : b.size_;
    int r = min_len == 0 ? 0 : memcmp(data_, b.data_, min_len);
    if (r == 0) {
      if (size_ < b.size_) return -1;
      if (size_ > b.size_) return 1;
    }
    return r;
  }

  bool starts_with(const Slice& x) const {
    return size_ >= x.size_ && (x.size_ == 0 || memcmp(data_, x.data_, x.size_) == 0);
  }

 private:
  const char* data_;
  size_t size_;
};

inline bool operator==(const Slice& x, const Slice& y) {
  return x.size() == y.size() && (x.size() == 0 || memcmp(x.data(), y.data(), x.size()) == 0);
}
inline bool operator!=(const Slice& x, const Slice& y) { return !(x == y); }

// A key or value given as num_parts pieces, stored as their concatenation
// (WriteBatch's SliceParts forms, RocksDB's struct). Borrows the array.
struct SliceParts {
  SliceParts(const Slice* _parts, int _num_parts) : parts(_parts), num_parts(_num_parts) {}
  SliceParts() : parts(nullptr), num_parts(0) {}
  const Slice* parts;
  int num_parts;
};

}  // namespace strata
