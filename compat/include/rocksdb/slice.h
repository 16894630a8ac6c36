// rocksdb/slice.h: Slice and PinnableSlice of the RocksDB interface. Strata's
// own types have RocksDB's shape (constructors including the SliceParts one,
// the public data_/size_ fields, data(), size(), compare(), starts_with(),
// ends_with(), difference_offset(), ToString(hex), DecodeHex(),
// PinSelf/PinSlice/GetSelf/IsPinned), so they are the same types here: a
// Slice from this header is a strata::Slice, and == / != are Strata's free
// operators.
// Thread-safety: as strata::Slice (const methods thread-safe).
#pragma once

#include "rocksdb/cleanable.h"
#include "rocksdb/rocksdb_namespace.h"
#include "strata/pinnable_slice.h"
#include "strata/slice.h"

namespace rocksdb {
using Slice = ::strata::Slice;
using PinnableSlice = ::strata::PinnableSlice;
// A key or value given as several pieces (WriteBatch's SliceParts forms).
using SliceParts = ::strata::SliceParts;
using ::strata::operator==;
using ::strata::operator!=;
}  // namespace rocksdb
