// DBIter: turns a stream of internal keys (newest version first for each
// user key) into the user's view at one sequence number: entries newer than
// the sequence are invisible, a deletion hides older versions of its key, and
// only the newest visible value of each user key is shown; merge operands
// are resolved with the merge operator, and entries covered by a visible
// range tombstone count as deleted. It walks in both directions and honours
// iterate_lower_bound / iterate_upper_bound, and with prefix_same_as_start
// (and a prefix extractor) stops at the first key whose prefix differs from
// the seek target's (or, after SeekToFirst/SeekToLast, the first key's).
//
// Forward, the wrapped iterator sits on the entry being shown, except for a
// merge result: then it rests past the key's entries and the key and merged
// value are held in saved_key_ / saved_value_. Backward, it sits just before
// (in internal order) all entries of the key being shown, whose key and
// value are then held in saved_key_ / saved_value_.
// Thread-safety: not thread-safe.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "base/dbformat.h"
#include "base/internal_iterator.h"
#include "base/range_tombstone.h"
#include "strata/iterator.h"
#include "strata/merge_operator.h"
#include "strata/options.h"
#include "strata/slice_transform.h"

namespace strata {

// What an iterator reads: the merged input, its sequence, what releases it
// and the range tombstones it must apply (see NewDBIterator). A non-OK
// status means it could not be built.
struct DBIterSource {
  std::unique_ptr<InternalIterator> input;
  SequenceNumber sequence = 0;
  std::function<void()> cleanup;
  std::vector<const FragmentedRangeTombstoneList*> range_tombstones;
  // The number of the SuperVersion read (SuperVersion::version_number);
  // 0 when the source is not a DB's (SstFileReader).
  uint64_t super_version_number = 0;
  Status status;
};
// Builds a source over the latest state of the DB (Iterator::Refresh),
// given the iterator's read options (kept by the iterator, so that the
// refresher need capture no more than fits std::function's inline buffer).
using DBIterRefresher = std::function<DBIterSource(const ReadOptions&)>;

// Refresh: with a refresher, Refresh() releases the current source and
// takes a new one from it (the iterator is then not Valid until the next
// seek); without one, Refresh() answers NotSupported.
//
// Calls cleanup (if any) when destroyed, after input is deleted. REQUIRES:
// input orders keys by InternalKeyComparator over user_cmp (merge several
// sources with a merging iterator first). range_tombstones: the fragmented tombstones of
// every source (nulls allowed), kept alive by the caller until cleanup runs.
// super_version_number: what GetProperty("rocksdb.iterator.super-version-
// number") answers (0: the source is no DB's; the property is then
// NotSupported).
std::unique_ptr<Iterator> NewDBIterator(
    const ReadOptions& options, const Comparator* user_cmp, std::unique_ptr<InternalIterator> input,
    SequenceNumber sequence, Statistics* stats, std::function<void()> cleanup,
    const MergeOperator* merge_operator = nullptr,
    std::vector<const FragmentedRangeTombstoneList*> range_tombstones = {},
    const SliceTransform* prefix_extractor = nullptr, DBIterRefresher refresher = nullptr,
    uint64_t super_version_number = 0);

// An iterator that is never valid and reports status.
std::unique_ptr<Iterator> NewErrorIterator(const Status& status);

}  // namespace strata
