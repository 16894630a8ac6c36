// UInt64AddOperator: sums fixed64 values in one pass over the operands
// rather than one Merge call (and one string) per operand.
#include "util/coding.h"
#include "utilities/merge_operators/merge_operators.h"

namespace strata {

namespace {

constexpr size_t kWidth = sizeof(uint64_t);

// Adds the fixed64 in s to *sum; false if s is not exactly 8 bytes.
inline bool AddFixed64(const Slice& s, uint64_t* sum) {
  if (s.size() != kWidth) return false;
  *sum += DecodeFixed64(s.data());  // unsigned: wraps mod 2^64
  return true;
}

inline void SetFixed64(std::string* dst, uint64_t v) {
  dst->resize(kWidth);
  EncodeFixed64(dst->data(), v);
}

}  // namespace

bool UInt64AddOperator::Merge(const Slice& /*key*/, const Slice* existing_value, const Slice& value,
                              std::string* new_value, Logger* /*logger*/) const {
  uint64_t sum = 0;
  if (existing_value != nullptr && !AddFixed64(*existing_value, &sum)) return false;
  if (!AddFixed64(value, &sum)) return false;
  SetFixed64(new_value, sum);
  return true;
}

bool UInt64AddOperator::FullMergeV2(const MergeOperationInput& merge_in,
                                    MergeOperationOutput* merge_out) const {
  uint64_t sum = 0;
  if (merge_in.existing_value != nullptr && !AddFixed64(*merge_in.existing_value, &sum)) {
    return false;
  }
  for (const Slice& op : merge_in.operand_list) {
    if (!AddFixed64(op, &sum)) return false;
  }
  SetFixed64(&merge_out->new_value, sum);
  return true;
}

bool UInt64AddOperator::PartialMerge(const Slice& /*key*/, const Slice& left_operand,
                                     const Slice& right_operand, std::string* new_value,
                                     Logger* /*logger*/) const {
  uint64_t sum = 0;
  if (!AddFixed64(left_operand, &sum) || !AddFixed64(right_operand, &sum)) return false;
  SetFixed64(new_value, sum);
  return true;
}

bool UInt64AddOperator::PartialMergeMulti(const Slice& /*key*/,
                                          const std::deque<Slice>& operand_list,
                                          std::string* new_value, Logger* /*logger*/) const {
  uint64_t sum = 0;
  for (const Slice& op : operand_list) {
    if (!AddFixed64(op, &sum)) return false;
  }
  SetFixed64(new_value, sum);
  return true;
}

}  // namespace strata
