// rocksdb/data_structure.h: SmallEnumSet, a set of the values 0..MAX_VALUE
// (at most 63) of an enum, kept as the bits of one 64-bit word.
// Thread-safety: not thread-safe (a plain value type).
// Invariant: bit v of the word is set iff value v was added.
#pragma once

#include <assert.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "rocksdb/rocksdb_namespace.h"

namespace rocksdb {

template <typename ENUM_TYPE, ENUM_TYPE MAX_VALUE>
class SmallEnumSet {
 public:
  SmallEnumSet() : state_(0) {}
  ~SmallEnumSet() {}

  // Puts value in the set; true if it was not there before.
  // REQUIRES: 0 <= value <= MAX_VALUE.
  bool Add(const ENUM_TYPE value) {
    static_assert(MAX_VALUE <= 63, "SmallEnumSet holds at most 64 values");
    assert(value >= 0 && value <= MAX_VALUE);
    const uint64_t before = state_;
    state_ |= uint64_t{1} << value;
    return before != state_;
  }

  // True if value is in the set. REQUIRES: 0 <= value <= MAX_VALUE.
  bool Contains(const ENUM_TYPE value) {
    static_assert(MAX_VALUE <= 63, "SmallEnumSet holds at most 64 values");
    assert(value >= 0 && value <= MAX_VALUE);
    return (state_ & (uint64_t{1} << value)) != 0;
  }

 private:
  uint64_t state_;
};

}  // namespace rocksdb
