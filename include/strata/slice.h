// Slice: a non-owning view of a byte range (pointer + length).
//
// A Slice never owns its bytes; the user of a Slice must make sure the bytes
// outlive it. Slices are compared bytewise (memcmp order). SliceParts: a
// value given in pieces. The fields data_ and size_ are public (RocksDB's
// layout); a Slice keeps no invariant beyond data_ pointing at size_ bytes.
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
  // The concatenation of parts, appended to *buf (borrowed; the slice
  // covers all of *buf, including what it held before).
  Slice(const struct SliceParts& parts, std::string* buf);

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
  // Decodes hex digits (either case, two per byte) into *result. False
  // for an odd length, a null result or a non-hex digit (then *result
  // holds the bytes decoded before it).
  bool DecodeHex(std::string* result) const;

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
  bool ends_with(const Slice& x) const {
    return size_ >= x.size_ &&
           (x.size_ == 0 || memcmp(data_ + size_ - x.size_, x.data_, x.size_) == 0);
  }
  // The length of the common prefix of this slice and b.
  size_t difference_offset(const Slice& b) const {
    const size_t len = size_ < b.size_ ? size_ : b.size_;
    size_t off = 0;
    while (off < len && data_[off] == b.data_[off]) off++;
    return off;
  }

  // Public, as in RocksDB (code written against it reads and sets them).
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
