// rocksdb/comparator.h: user-key orderings. strata::Comparator has the
// methods a RocksDB subclass overrides (Compare, Equal, Name,
// FindShortestSeparator, FindShortSuccessor, IsSameLengthImmediateSuccessor,
// CanKeysWithDifferentByteContentsBeEqual, GetRootComparator, the timestamp
// methods) and is the same type here, as is CompareInterface, its base.
// Type() is "Comparator"; CreateFromString knows the built-in names
// "leveldb.BytewiseComparator" and "rocksdb.ReverseBytewiseComparator" (a
// comparator registered in an ObjectRegistry is reached through the
// registry's NewStaticObject, not through CreateFromString).
// Timestamp-aware comparators (timestamp_size() != 0) are refused at Open and
// by SstFileWriter (InvalidArgument naming the comparator).
// Differences: Comparator is not a Customizable (no GetId, ToString, ...).
// Thread-safety: implementations must be thread-safe (const methods).
#pragma once

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "strata/comparator.h"

namespace rocksdb {
using CompareInterface = ::strata::CompareInterface;
using Comparator = ::strata::Comparator;
using ::strata::BytewiseComparator;
using ::strata::ReverseBytewiseComparator;
}  // namespace rocksdb
