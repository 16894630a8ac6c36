// Iterator: a cursor over a sorted sequence of key/value pairs.
//
// Contract (the same for every iterator Strata hands out):
//  1. A new iterator is not Valid(); position it with a Seek* call first.
//  2. key() and value() may be called only while Valid(); the Slices they
//     return stay valid until the next call that moves the iterator.
//  3. When Valid() turns false, status() tells whether the end was reached
//     (ok) or an error stopped the scan (not ok). A non-ok status is sticky.
//  4. Seek(t) lands on the first key >= t; SeekForPrev(t) on the last
//     key <= t.
// Thread-safety: not thread-safe; use one iterator from one thread at a time.
#pragma once

#include "strata/export.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

class STRATA_EXPORT Iterator {
 public:
  Iterator() = default;
  virtual ~Iterator() = default;
  Iterator(const Iterator&) = delete;
  Iterator& operator=(const Iterator&) = delete;

  virtual bool Valid() const = 0;
  virtual void SeekToFirst() = 0;
  virtual void SeekToLast() = 0;
  virtual void Seek(const Slice& target) = 0;
  virtual void SeekForPrev(const Slice& target) = 0;
  // REQUIRES: Valid()
  virtual void Next() = 0;
  // REQUIRES: Valid()
  virtual void Prev() = 0;
  // REQUIRES: Valid()
  virtual Slice key() const = 0;
  // REQUIRES: Valid()
  virtual Slice value() const = 0;
  virtual Status status() const = 0;

  // Moves the iterator to the latest state of the DB (RocksDB's Refresh):
  // a DB iterator made without a snapshot re-reads the newest data; it is
  // then not Valid() until the next Seek*. NotSupported for iterators
  // that cannot (the default, and DB iterators with
  // ReadOptions::snapshot, as in RocksDB 7.8.3).
  virtual Status Refresh() { return Status::NotSupported("Refresh() is not supported"); }
};

}  // namespace strata
