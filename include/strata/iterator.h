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
//  5. columns() and timestamp() follow the rule of key() and value().
// Thread-safety: not thread-safe; use one iterator from one thread at a time.
#pragma once

#include <string>

#include "strata/export.h"
#include "strata/slice.h"
#include "strata/status.h"
#include "strata/wide_columns.h"

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

  // The current entry as wide columns (RocksDB's form). REQUIRES: Valid().
  // Strata stores no entities, so a DB iterator answers one column,
  // kDefaultWideColumnName -> value(); the reference stays valid until the
  // iterator moves. Iterators without columns (the default) answer
  // kNoWideColumns.
  virtual const WideColumns& columns() const;

  // Sets *prop to the property prop_name of the iterator (RocksDB's names):
  //  "rocksdb.iterator.is-key-pinned": "1" if key() stays valid for the
  //    iterator's lifetime, else "0" (Strata promises it nowhere: "0");
  //    a DB iterator that is not Valid() answers "Iterator is not valid.".
  //  "rocksdb.iterator.super-version-number" (DB iterators): the number of
  //    the column family's SuperVersion the iterator reads, which changes
  //    with each flush, compaction or options change (and Refresh()).
  //  "rocksdb.iterator.internal-key" (DB iterators): the current user key
  //    ("" when not Valid()).
  // InvalidArgument("prop is nullptr") for a null prop,
  // InvalidArgument("Unidentified property.") for a name the iterator does
  // not know.
  virtual Status GetProperty(std::string prop_name, std::string* prop);

  // The current entry's user-defined timestamp. Strata has no user-defined
  // timestamps: always empty.
  virtual Slice timestamp() const { return Slice(); }
};

}  // namespace strata
