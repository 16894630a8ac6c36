// Comparator: a total order over user keys.
//
// CompareInterface is the one-method base (RocksDB's name) that code taking
// "something that compares" may accept; a Comparator is one.
// The comparator's Name() is recorded in the MANIFEST and in every table's
// properties; opening a database with a comparator of another name fails with
// InvalidArgument. Implementations must be thread-safe (called concurrently
// from many threads) and must never change their order for a given name.
#pragma once

#include <string>

#include "strata/export.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

struct ConfigOptions;  // strata/convenience.h

class STRATA_EXPORT CompareInterface {
 public:
  virtual ~CompareInterface() = default;
  // <0 if a < b, 0 if a == b, >0 if a > b.
  virtual int Compare(const Slice& a, const Slice& b) const = 0;
};

class STRATA_EXPORT Comparator : public CompareInterface {
 public:
  Comparator() : timestamp_size_(0) {}
  // ts_sz: the size of a user-defined timestamp suffix (RocksDB's
  // constructor). Strata has no user-defined timestamps: a database or
  // table writer given a comparator with ts_sz != 0 refuses it.
  explicit Comparator(size_t ts_sz) : timestamp_size_(ts_sz) {}
  Comparator(const Comparator& orig) : CompareInterface(), timestamp_size_(orig.timestamp_size_) {}
  Comparator& operator=(const Comparator& rhs) {
    timestamp_size_ = rhs.timestamp_size_;
    return *this;
  }
  ~Comparator() override = default;

  // The registry type name of comparators (RocksDB's Customizable::Type).
  static const char* Type() { return "Comparator"; }
  // Sets *comp to the built-in comparator named id ("leveldb.BytewiseComparator",
  // "rocksdb.ReverseBytewiseComparator"; a process-lifetime singleton). An
  // empty id sets *comp = nullptr. Any other id is NotSupported
  // ("Could not load Comparator: <id>"), or OK leaving *comp unchanged when
  // config_options.ignore_unsupported_options is set, as RocksDB answers an
  // id its registry does not hold.
  static Status CreateFromString(const ConfigOptions& opts, const std::string& id,
                                 const Comparator** comp);

  // <0 if a < b, 0 if a == b, >0 if a > b.
  int Compare(const Slice& a, const Slice& b) const override = 0;

  // True iff a and b are equal under this order. May be faster than Compare.
  virtual bool Equal(const Slice& a, const Slice& b) const { return Compare(a, b) == 0; }

  // The persisted name, e.g. "leveldb.BytewiseComparator".
  virtual const char* Name() const = 0;

  // If *start < limit, may change *start to a shorter string in [start, limit).
  // Used to shorten index separators; doing nothing is always correct.
  virtual void FindShortestSeparator(std::string* start, const Slice& limit) const = 0;

  // May change *key to a shorter string >= *key. Doing nothing is correct.
  virtual void FindShortSuccessor(std::string* key) const = 0;

  // True only if t is the key right after s in this order among keys of
  // s's length (s = "ab\xff", t = "ac\x00" bytewise). False is always
  // correct; the default.
  virtual bool IsSameLengthImmediateSuccessor(const Slice& /*s*/, const Slice& /*t*/) const {
    return false;
  }
  // Whether two keys of different bytes can compare equal. true (the
  // default) is always correct; the built-in comparators answer false.
  virtual bool CanKeysWithDifferentByteContentsBeEqual() const { return true; }
  // The comparator this one wraps, if any; the default is this.
  virtual const Comparator* GetRootComparator() const { return this; }

  // ---- user-defined timestamps (RocksDB's names) ----
  // Strata has no user-defined timestamps: with timestamp_size() == 0 these
  // are RocksDB's answers (timestamps all equal, keys compared whole).
  size_t timestamp_size() const { return timestamp_size_; }
  int CompareWithoutTimestamp(const Slice& a, const Slice& b) const {
    return CompareWithoutTimestamp(a, /*a_has_ts=*/true, b, /*b_has_ts=*/true);
  }
  virtual int CompareTimestamp(const Slice& /*ts1*/, const Slice& /*ts2*/) const { return 0; }
  virtual int CompareWithoutTimestamp(const Slice& a, bool /*a_has_ts*/, const Slice& b,
                                      bool /*b_has_ts*/) const {
    return Compare(a, b);
  }
  virtual bool EqualWithoutTimestamp(const Slice& a, const Slice& b) const {
    return CompareWithoutTimestamp(a, /*a_has_ts=*/true, b, /*b_has_ts=*/true) == 0;
  }

 private:
  size_t timestamp_size_;
};

// Lexicographic unsigned-byte order; the name "leveldb.BytewiseComparator" as
// in RocksDB and LevelDB. The result is a process-lifetime singleton.
STRATA_EXPORT const Comparator* BytewiseComparator();

// The reverse of BytewiseComparator; "rocksdb.ReverseBytewiseComparator".
STRATA_EXPORT const Comparator* ReverseBytewiseComparator();

}  // namespace strata
