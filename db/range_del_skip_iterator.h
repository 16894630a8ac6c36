// RangeDelSkipIterator: wraps one source of a read (a level-0 table file or
// a LevelIterator) and steps over whole runs of its entries that a range
// tombstone deletes, with one Seek instead of a Next per entry.
//
// Soundness: a tombstone with sequence t deletes an entry with a smaller
// sequence in its range. If t is above the largest sequence of the table
// file under the child's position, every entry of that file inside the
// tombstone's fragment is deleted, so the child may jump to the end of the
// fragment (or of the file, whichever comes first) going forward, or before
// its start going backward. Entries the wrapper cannot prove deleted pass
// through; DBIter still checks every entry it shows, so skipping is purely
// an optimization and the set of skipped entries depends only on the entry
// and its file (the same in both directions).
//
// Thread-safety: not thread-safe. The tombstone lists must outlive it.
#pragma once

#include <memory>
#include <vector>

#include "base/dbformat.h"
#include "base/internal_iterator.h"
#include "base/range_tombstone.h"
#include "db/version_edit.h"

namespace strata {

// file: the single file child iterates (level 0),
// or null to ask child->CurrentFileRange (a LevelIterator). read_seq:
// tombstones above it are invisible. Returns child itself when no list has
// tombstones.
std::unique_ptr<InternalIterator> NewRangeDelSkipIterator(
    std::unique_ptr<InternalIterator> child, const Comparator* user_cmp,
    const std::vector<const FragmentedRangeTombstoneList*>& range_tombstones,
    SequenceNumber read_seq, const FileMetaData* file);

}  // namespace strata
