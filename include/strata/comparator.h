// Comparator: a total order over user keys.
//
// The comparator's Name() is recorded in the MANIFEST and in every table's
// properties; opening a database with a comparator of another name fails with
// InvalidArgument. Implementations must be thread-safe (called concurrently
// from many threads) and must never change their order for a given name.
#pragma once

#include <string>

#include "strata/export.h"
#include "strata/slice.h"

namespace strata {

class STRATA_EXPORT Comparator {
 public:
  virtual ~Comparator() = default;

  // <0 if a < b, 0 if a == b, >0 if a > b.
  virtual int Compare(const Slice& a, const Slice& b) const = 0;

  // True iff a and b are equal under this order. May be faster than Compare.
  virtual bool Equal(const Slice& a, const Slice& b) const { return Compare(a, b) == 0; }

  // The persisted name, e.g. "leveldb.BytewiseComparator".
  virtual const char* Name() const = 0;

  // If *start < limit, may change *start to a shorter string in [start, limit).
  // Used to shorten index separators; doing nothing is always correct.
  virtual void FindShortestSeparator(std::string* start, const Slice& limit) const = 0;

  // May change *key to a shorter string >= *key. Doing nothing is correct.
  virtual void FindShortSuccessor(std::string* key) const = 0;
};

// Lexicographic unsigned-byte order; the name "leveldb.BytewiseComparator" as
// in RocksDB and LevelDB. The result is a process-lifetime singleton.
STRATA_EXPORT const Comparator* BytewiseComparator();

// The reverse of BytewiseComparator; "rocksdb.ReverseBytewiseComparator".
STRATA_EXPORT const Comparator* ReverseBytewiseComparator();

}  // namespace strata
