// Full merge: applying a MergeOperator to one key's operands over its base
// value (or over nothing). Every reader of merged data ends here: point
// lookups (base/get_context.h), iterators (db/db_iter.cc) and, for what no
// snapshot separates, flushes and compactions (db/compaction/merge_helper.h).
//
// Thread-safety: thread-safe (the operator must be).
#pragma once

#include <string>
#include <vector>

#include "strata/merge_operator.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

class Logger;
class Statistics;

// Full merge of operands (oldest first) over base (null = no base value)
// into *result. Corruption naming the operator and the key when the operator
// returns false; InvalidArgument when op is null.
Status TimedFullMerge(const MergeOperator* op, const Slice& user_key, const Slice* base,
                      const std::vector<Slice>& operands, std::string* result, Logger* logger,
                      Statistics* stats);
// The same without the final copy: *result_slice is the result, in *result
// or (when the operator chose one) in base or an operand, so it lives as
// long as they do.
Status TimedFullMerge(const MergeOperator* op, const Slice& user_key, const Slice* base,
                      const std::vector<Slice>& operands, std::string* result, Slice* result_slice,
                      Logger* logger, Statistics* stats);

// The key as an error message shows it: as is when printable, otherwise
// hex; long keys are cut.
std::string PrintableKey(const Slice& key);

}  // namespace strata
