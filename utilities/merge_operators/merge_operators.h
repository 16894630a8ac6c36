// The built-in merge operators behind MergeOperators::Create*()
// (include/strata/merge_operator.h). Declared here so tests and tools can name
// the concrete classes; users go through the factories.
//
// Each overrides FullMergeV2 and PartialMerge(Multi) directly, so no merge
// goes through the deque-copying default path, and each points
// existing_operand at an input instead of copying when the result is one of
// its inputs.
// Thread-safety: stateless after construction; all methods are const and
// thread-safe.
// Invariants: Name() strings never change (they are recorded in table
// properties and accepted by CreateFromStringId).
#pragma once

#include <string>
#include <utility>

#include "strata/merge_operator.h"

namespace strata {

// The newest operand replaces everything below it.
class PutOperator final : public MergeOperator {
 public:
  static constexpr const char* kClassName = "PutOperator";
  const char* Name() const override { return kClassName; }
  bool FullMergeV2(const MergeOperationInput& merge_in,
                   MergeOperationOutput* merge_out) const override;
  bool FullMerge(const Slice& key, const Slice* existing_value,
                 const std::deque<std::string>& operand_list, std::string* new_value,
                 Logger* logger) const override;
  bool PartialMerge(const Slice& key, const Slice& left_operand, const Slice& right_operand,
                    std::string* new_value, Logger* logger) const override;
  bool PartialMergeMulti(const Slice& key, const std::deque<Slice>& operand_list,
                         std::string* new_value, Logger* logger) const override;
};

// 8-byte little-endian unsigned addition, wrapping mod 2^64. Any base or
// operand whose size is not 8 fails the merge (returns false).
class UInt64AddOperator final : public AssociativeMergeOperator {
 public:
  static constexpr const char* kClassName = "UInt64AddOperator";
  const char* Name() const override { return kClassName; }
  bool Merge(const Slice& key, const Slice* existing_value, const Slice& value,
             std::string* new_value, Logger* logger) const override;
  bool FullMergeV2(const MergeOperationInput& merge_in,
                   MergeOperationOutput* merge_out) const override;
  bool PartialMerge(const Slice& key, const Slice& left_operand, const Slice& right_operand,
                    std::string* new_value, Logger* logger) const override;
  bool PartialMergeMulti(const Slice& key, const std::deque<Slice>& operand_list,
                         std::string* new_value, Logger* logger) const override;
};

// Joins the base (if any) and the operands, oldest first, with a delimiter
// (any bytes, possibly empty). A present but empty base still takes a
// delimiter after it ("" + "," + "a" = ",a"), as in RocksDB.
class StringAppendOperator final : public AssociativeMergeOperator {
 public:
  static constexpr const char* kClassName = "StringAppendOperator";
  explicit StringAppendOperator(char delim) : delim_(1, delim) {}
  explicit StringAppendOperator(std::string delim) : delim_(std::move(delim)) {}
  const char* Name() const override { return kClassName; }
  const std::string& delimiter() const { return delim_; }
  bool Merge(const Slice& key, const Slice* existing_value, const Slice& value,
             std::string* new_value, Logger* logger) const override;
  bool FullMergeV2(const MergeOperationInput& merge_in,
                   MergeOperationOutput* merge_out) const override;
  bool PartialMerge(const Slice& key, const Slice& left_operand, const Slice& right_operand,
                    std::string* new_value, Logger* logger) const override;
  bool PartialMergeMulti(const Slice& key, const std::deque<Slice>& operand_list,
                         std::string* new_value, Logger* logger) const override;

 private:
  const std::string delim_;
};

// The bytewise largest of the base and the operands (a prefix sorts first:
// "a" < "ab").
class MaxOperator final : public MergeOperator {
 public:
  static constexpr const char* kClassName = "MaxOperator";
  const char* Name() const override { return kClassName; }
  bool FullMergeV2(const MergeOperationInput& merge_in,
                   MergeOperationOutput* merge_out) const override;
  bool PartialMerge(const Slice& key, const Slice& left_operand, const Slice& right_operand,
                    std::string* new_value, Logger* logger) const override;
  bool PartialMergeMulti(const Slice& key, const std::deque<Slice>& operand_list,
                         std::string* new_value, Logger* logger) const override;
};

}  // namespace strata
