// PutOperator: the last operand wins; the result aliases it (no copy).
#include "utilities/merge_operators/merge_operators.h"

namespace strata {

bool PutOperator::FullMergeV2(const MergeOperationInput& merge_in,
                              MergeOperationOutput* merge_out) const {
  if (merge_in.operand_list.empty()) return false;  // nothing to put
  merge_out->existing_operand = merge_in.operand_list.back();
  return true;
}

bool PutOperator::FullMerge(const Slice& /*key*/, const Slice* /*existing_value*/,
                            const std::deque<std::string>& operand_list, std::string* new_value,
                            Logger* /*logger*/) const {
  if (operand_list.empty()) return false;
  *new_value = operand_list.back();
  return true;
}

bool PutOperator::PartialMerge(const Slice& /*key*/, const Slice& /*left_operand*/,
                               const Slice& right_operand, std::string* new_value,
                               Logger* /*logger*/) const {
  new_value->assign(right_operand.data(), right_operand.size());
  return true;
}

bool PutOperator::PartialMergeMulti(const Slice& /*key*/, const std::deque<Slice>& operand_list,
                                    std::string* new_value, Logger* /*logger*/) const {
  if (operand_list.empty()) return false;
  new_value->assign(operand_list.back().data(), operand_list.back().size());
  return true;
}

}  // namespace strata
