// InternalIterator: the iterator every internal source implements (memtable,
// table block, whole table, merging iterator). Keys are internal keys
// (base/dbformat.h); DBIter turns a stream of them into what the user sees.
//
// Contract: the public Iterator contract (include/strata/iterator.h), with
// Seek/SeekForPrev targets and key() being internal keys ordered by the
// source's InternalKeyComparator.
// Thread-safety: not thread-safe.
#pragma once

#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

class InternalIterator {
 public:
  InternalIterator() = default;
  virtual ~InternalIterator() = default;
  InternalIterator(const InternalIterator&) = delete;
  InternalIterator& operator=(const InternalIterator&) = delete;

  virtual bool Valid() const = 0;
  virtual void SeekToFirst() = 0;
  virtual void SeekToLast() = 0;
  // First entry with key >= target (internal-key order).
  virtual void Seek(const Slice& target) = 0;
  // Last entry with key <= target (internal-key order).
  virtual void SeekForPrev(const Slice& target) = 0;
  virtual void Next() = 0;
  virtual void Prev() = 0;
  virtual Slice key() const = 0;
  virtual Slice value() const = 0;
  virtual Status status() const = 0;

  // Whether value() stays valid after the iterator moves on (for as long as
  // the iterator and what it reads from live): true for memtables, whose
  // arena outlives every reader holding a reference.
  virtual bool IsValuePinned() const { return false; }

  // For iterators over table files: the largest sequence number of the
  // file under the current position and its user-key range (valid while
  // the position stays in that file). False if not known.
  virtual bool CurrentFileRange(uint64_t* /*largest_seqno*/, Slice* /*smallest_user_key*/,
                                Slice* /*largest_user_key*/) const {
    return false;
  }
};

}  // namespace strata
