// DBIter: turns a stream of internal keys (newest version first for each
// user key) into the user's view at one sequence number: entries newer than
// the sequence are invisible, a deletion hides older versions of its key, and
// only the newest visible value of each user key is shown. It walks in both
// directions, honours iterate_lower_bound / iterate_upper_bound, and reports
// merge operands (not supported in this slice) as an error status.
//
// Forward, the wrapped iterator sits on the entry being shown; backward, it
// sits just before (in internal order) all entries of the key being shown,
// whose key and value are then held in saved_key_ / saved_value_.
// Thread-safety: not thread-safe.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "db/dbformat.h"
#include "strata/iterator.h"
#include "strata/options.h"
#include "util/internal_iterator.h"

namespace strata {

// Takes ownership of input; calls cleanup (if any) when destroyed, after
// input is deleted. REQUIRES: input orders keys by InternalKeyComparator over
// user_cmp. Several inputs need a merging iterator (arrives with tables); for
// now input_list must hold exactly one.
std::unique_ptr<Iterator> NewDBIterator(const ReadOptions& options, const Comparator* user_cmp,
                                        std::vector<InternalIterator*> input_list,
                                        SequenceNumber sequence, Statistics* stats,
                                        std::function<void()> cleanup);

// An iterator that is never valid and reports status.
std::unique_ptr<Iterator> NewErrorIterator(const Status& status);

}  // namespace strata
