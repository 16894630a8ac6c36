// The default behaviour of MergeOperator and AssociativeMergeOperator
// (include/strata/merge_operator.h): FullMergeV2 falls back to the older
// FullMerge, PartialMergeMulti folds PartialMerge, and an associative
// operator derives both full and partial merges from its one Merge.
#include "strata/merge_operator.h"

#include <utility>

namespace strata {

MergeOperator::~MergeOperator() = default;

bool MergeOperator::FullMergeV2(const MergeOperationInput& merge_in,
                                MergeOperationOutput* merge_out) const {
  // The older interface takes owned copies of the operands; an operator that
  // cares about speed overrides FullMergeV2 instead.
  std::deque<std::string> operands;
  for (const Slice& op : merge_in.operand_list) operands.emplace_back(op.data(), op.size());
  return FullMerge(merge_in.key, merge_in.existing_value, operands, &merge_out->new_value,
                   merge_in.logger);
}

bool MergeOperator::FullMerge(const Slice& /*key*/, const Slice* /*existing_value*/,
                              const std::deque<std::string>& /*operand_list*/,
                              std::string* /*new_value*/, Logger* /*logger*/) const {
  return false;
}

bool MergeOperator::PartialMerge(const Slice& /*key*/, const Slice& /*left_operand*/,
                                 const Slice& /*right_operand*/, std::string* /*new_value*/,
                                 Logger* /*logger*/) const {
  return false;
}

bool MergeOperator::PartialMergeMulti(const Slice& key, const std::deque<Slice>& operand_list,
                                      std::string* new_value, Logger* logger) const {
  if (operand_list.size() < 2) return false;
  new_value->clear();
  if (!PartialMerge(key, operand_list[0], operand_list[1], new_value, logger)) return false;
  // Fold the rest in, alternating between two buffers: the running result
  // moves into `acc` and the next step writes into the cleared *new_value.
  std::string acc;
  for (size_t i = 2; i < operand_list.size(); i++) {
    std::swap(acc, *new_value);
    new_value->clear();
    if (!PartialMerge(key, Slice(acc), operand_list[i], new_value, logger)) return false;
  }
  return true;
}

AssociativeMergeOperator::~AssociativeMergeOperator() = default;

bool AssociativeMergeOperator::FullMergeV2(const MergeOperationInput& merge_in,
                                           MergeOperationOutput* merge_out) const {
  const std::vector<Slice>& operands = merge_in.operand_list;
  std::string& out = merge_out->new_value;
  if (operands.empty()) {  // not expected from the engine; the base stands
    out.clear();
    if (merge_in.existing_value != nullptr) {
      out.assign(merge_in.existing_value->data(), merge_in.existing_value->size());
    }
    return true;
  }
  // Left fold: acc = Merge(base, op0), acc = Merge(acc, op1), ... Two
  // buffers trade places so Merge never writes into the value it reads.
  const Slice* base = merge_in.existing_value;
  std::string acc;
  Slice acc_slice;
  for (size_t i = 0; i < operands.size(); i++) {
    if (i > 0) {
      std::swap(acc, out);
      acc_slice = Slice(acc);
      base = &acc_slice;
    }
    out.clear();
    if (!Merge(merge_in.key, base, operands[i], &out, merge_in.logger)) return false;
  }
  return true;
}

bool AssociativeMergeOperator::PartialMerge(const Slice& key, const Slice& left_operand,
                                            const Slice& right_operand, std::string* new_value,
                                            Logger* logger) const {
  return Merge(key, &left_operand, right_operand, new_value, logger);
}

}  // namespace strata
