// MergingIterator: one sorted stream over several sorted internal-key
// sources (memtables, table files, levels), the way every LSM read and
// compaction sees the tree.
//
// A binary min-heap of the children orders forward iteration; a max-heap is
// built on demand when the direction turns to reverse (and back). Entries
// with equal internal keys from different children are all returned, the
// child added first before later ones (the caller adds newer sources first).
//
// Thread-safety: not thread-safe.
// Invariants:
//  1. Valid() iff some child is valid in the current direction; key() is the
//     smallest (forward) / largest (reverse) current child key.
//  2. An error in any child stops the iteration: Valid() is false and
//     status() is the first error seen.
#pragma once

#include <memory>
#include <vector>

#include "base/dbformat.h"
#include "base/internal_iterator.h"

namespace strata {

// Takes ownership of the children. With no children it returns an empty
// iterator; with one, that child itself. icmp must outlive the iterator.
std::unique_ptr<InternalIterator> NewMergingIterator(
    const InternalKeyComparator* icmp, std::vector<std::unique_ptr<InternalIterator>> children);

// An iterator with no entries and the given status.
std::unique_ptr<InternalIterator> NewEmptyInternalIterator(Status status = Status::OK());

}  // namespace strata
