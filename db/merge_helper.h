// MergeHelper: applying a MergeOperator inside the engine.
//
// TimedFullMerge resolves a key's operands against its base value for reads
// (Get, MultiGet, iterators). The MergeHelper class (for flush and
// compaction) collects a run of operands of one user key from a sorted
// internal-key input and combines what no snapshot separates.
// Thread-safety: TimedFullMerge is thread-safe; a MergeHelper object is
// single-threaded.
#pragma once

#include <string>
#include <vector>

#include "db/dbformat.h"
#include "strata/merge_operator.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

class Logger;
class Statistics;

class MergeHelper {
 public:
  // Full merge of operands (oldest first) over base (null = no base value)
  // into *result. Corruption naming the operator when it returns false;
  // InvalidArgument when op is null.
  static Status TimedFullMerge(const MergeOperator* op, const Slice& user_key, const Slice* base,
                               const std::vector<Slice>& operands, std::string* result,
                               Logger* logger, Statistics* stats);
};

}  // namespace strata
