// MaxOperator: the bytewise largest input; the full merge aliases it.
#include "utilities/merge_operators/merge_operators.h"

namespace strata {

bool MaxOperator::FullMergeV2(const MergeOperationInput& merge_in,
                              MergeOperationOutput* merge_out) const {
  const Slice* max = merge_in.existing_value;
  for (const Slice& op : merge_in.operand_list) {
    if (max == nullptr || op.compare(*max) > 0) max = &op;
  }
  if (max == nullptr) return false;  // neither base nor operands
  merge_out->existing_operand = *max;
  return true;
}

bool MaxOperator::PartialMerge(const Slice& /*key*/, const Slice& left_operand,
                               const Slice& right_operand, std::string* new_value,
                               Logger* /*logger*/) const {
  const Slice& max = left_operand.compare(right_operand) >= 0 ? left_operand : right_operand;
  new_value->assign(max.data(), max.size());
  return true;
}

bool MaxOperator::PartialMergeMulti(const Slice& /*key*/, const std::deque<Slice>& operand_list,
                                    std::string* new_value, Logger* /*logger*/) const {
  if (operand_list.empty()) return false;
  const Slice* max = &operand_list.front();
  for (const Slice& op : operand_list) {
    if (op.compare(*max) > 0) max = &op;
  }
  new_value->assign(max->data(), max->size());
  return true;
}

}  // namespace strata
