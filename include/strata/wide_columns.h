// Wide columns (RocksDB's rocksdb/wide_columns.h): a named column of an
// entity (WideColumn), an entity's columns (WideColumns), and
// PinnableWideColumns, an entity read back with its columns indexed.
//
// Strata stores no wide-column entities (WriteBatch::PutEntity is refused
// with NotSupported); these are the plain data types of the interface, so
// code written against them compiles and can build and inspect columns.
// PinnableWideColumns::SetWideColumnValue decodes RocksDB's serialized
// entity (version 1: varint32 version, varint32 column count, then per
// column its length-prefixed name and varint32 value size, then the values
// in column order; names strictly ascending). A plain value reads as one
// column named kDefaultWideColumnName (the empty name).
//
// Thread-safety: plain data; const methods are thread-safe.
#pragma once

#include <cstddef>
#include <ostream>
#include <tuple>
#include <utility>
#include <vector>

#include "strata/export.h"
#include "strata/pinnable_slice.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

// One column: a name and a value, both views (the bytes must outlive it).
class WideColumn {
 public:
  WideColumn() = default;
  // Each of name and value is anything a Slice is constructed from.
  template <typename N, typename V>
  WideColumn(N&& name, V&& value) : name_(std::forward<N>(name)), value_(std::forward<V>(value)) {}
  // Name and value each built from a tuple of Slice constructor arguments.
  template <typename NTuple, typename VTuple>
  WideColumn(std::piecewise_construct_t, NTuple&& name_tuple, VTuple&& value_tuple)
      : name_(std::make_from_tuple<Slice>(std::forward<NTuple>(name_tuple))),
        value_(std::make_from_tuple<Slice>(std::forward<VTuple>(value_tuple))) {}

  const Slice& name() const { return name_; }
  const Slice& value() const { return value_; }
  Slice& name() { return name_; }
  Slice& value() { return value_; }

 private:
  Slice name_;
  Slice value_;
};

inline bool operator==(const WideColumn& lhs, const WideColumn& rhs) {
  return lhs.name() == rhs.name() && lhs.value() == rhs.value();
}
inline bool operator!=(const WideColumn& lhs, const WideColumn& rhs) { return !(lhs == rhs); }
// "name:value", both in hex when the stream is in hex mode.
inline std::ostream& operator<<(std::ostream& os, const WideColumn& column) {
  const bool hex = (os.flags() & std::ios_base::basefield) == std::ios_base::hex;
  return os << column.name().ToString(hex) << ':' << column.value().ToString(hex);
}

using WideColumns = std::vector<WideColumn>;

// The name of the column a plain value is seen as: empty.
STRATA_EXPORT extern const Slice kDefaultWideColumnName;
// No columns.
STRATA_EXPORT extern const WideColumns kNoWideColumns;

// An entity's bytes (copied, or pinned with a Cleanable) and its columns,
// which point into them.
class STRATA_EXPORT PinnableWideColumns {
 public:
  const WideColumns& columns() const { return columns_; }
  // Bytes of the value or serialized entity held.
  size_t serialized_size() const { return value_.size(); }

  // A plain value: one column, kDefaultWideColumnName -> value. With a
  // cleanable, the bytes are pinned (its cleanups move here) instead of
  // copied.
  void SetPlainValue(const Slice& value);
  void SetPlainValue(const Slice& value, Cleanable* cleanable);
  // A serialized entity (format in the file comment). Corruption or
  // NotSupported (a newer version) when it cannot be decoded; the columns
  // are then those decoded before the error.
  Status SetWideColumnValue(const Slice& value);
  Status SetWideColumnValue(const Slice& value, Cleanable* cleanable);

  void Reset();

 private:
  void Hold(const Slice& value, Cleanable* cleanable);
  Status IndexEntity();

  PinnableSlice value_;
  WideColumns columns_;
};

inline bool operator==(const PinnableWideColumns& lhs, const PinnableWideColumns& rhs) {
  return lhs.columns() == rhs.columns();
}
inline bool operator!=(const PinnableWideColumns& lhs, const PinnableWideColumns& rhs) {
  return !(lhs == rhs);
}

}  // namespace strata
