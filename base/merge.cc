// Full merge (see the header).
#include "base/merge.h"

#include "util/perf_context_imp.h"
#include "util/stop_watch.h"

namespace strata {

std::string PrintableKey(const Slice& key) {
  constexpr size_t kMaxShown = 64;
  const Slice shown(key.data(), key.size() < kMaxShown ? key.size() : kMaxShown);
  bool printable = true;
  for (size_t i = 0; i < shown.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(shown[i]);
    if (c < 0x20 || c > 0x7e) {
      printable = false;
      break;
    }
  }
  std::string s = printable ? "'" + shown.ToString() + "'" : "0x" + shown.ToString(/*hex=*/true);
  if (shown.size() < key.size()) s += "... (" + std::to_string(key.size()) + " bytes)";
  return s;
}

Status TimedFullMerge(const MergeOperator* op, const Slice& user_key, const Slice* base,
                      const std::vector<Slice>& operands, std::string* result, Logger* logger,
                      Statistics* stats) {
  Slice result_slice;
  Status s = TimedFullMerge(op, user_key, base, operands, result, &result_slice, logger, stats);
  if (s.ok() && result_slice.data() != result->data()) {
    result->assign(result_slice.data(), result_slice.size());
  }
  return s;
}

Status TimedFullMerge(const MergeOperator* op, const Slice& user_key, const Slice* base,
                      const std::vector<Slice>& operands, std::string* result, Slice* result_slice,
                      Logger* logger, Statistics* stats) {
  if (op == nullptr) return Status::InvalidArgument("no merge operator configured");
  result->clear();
  if (operands.empty()) {
    // Nothing to apply (callers do not do this; the operator must never see
    // an empty list).
    if (base == nullptr) return Status::InvalidArgument("full merge without operands or base");
    *result_slice = *base;
    return Status::OK();
  }
  Slice existing_operand(nullptr, 0);  // data() == nullptr: "not set"
  MergeOperator::MergeOperationInput in(user_key, base, operands, logger);
  MergeOperator::MergeOperationOutput out(*result, existing_operand);
  bool ok;
  {
    PERF_TIMER_GUARD(merge_operator_time_nanos);
    const bool timed = TimersEnabled(stats);
    const uint64_t start = timed ? perf_internal::PerfNowNanos() : 0;
    ok = op->FullMergeV2(in, &out);
    if (timed) {
      stats->recordTick(MERGE_OPERATION_TOTAL_TIME, perf_internal::PerfNowNanos() - start);
    }
  }
  if (!ok) {
    RecordTick(stats, NUMBER_MERGE_FAILURES);
    return Status::Corruption(std::string("merge operator ") + op->Name() + " failed for key " +
                              PrintableKey(user_key));
  }
  *result_slice = existing_operand.data() != nullptr ? existing_operand : Slice(*result);
  return Status::OK();
}

}  // namespace strata
