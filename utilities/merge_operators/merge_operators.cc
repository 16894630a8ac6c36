// The MergeOperators:: factories (include/strata/merge_operator.h).
#include "utilities/merge_operators/merge_operators.h"

#include <memory>

namespace strata::MergeOperators {

std::shared_ptr<MergeOperator> CreatePutOperator() { return std::make_shared<PutOperator>(); }

std::shared_ptr<MergeOperator> CreateUInt64AddOperator() {
  return std::make_shared<UInt64AddOperator>();
}

std::shared_ptr<MergeOperator> CreateStringAppendOperator(char delim) {
  return std::make_shared<StringAppendOperator>(delim);
}

std::shared_ptr<MergeOperator> CreateStringAppendOperator(const std::string& delim) {
  return std::make_shared<StringAppendOperator>(delim);
}

std::shared_ptr<MergeOperator> CreateMaxOperator() { return std::make_shared<MaxOperator>(); }

std::shared_ptr<MergeOperator> CreateFromStringId(const std::string& id) {
  if (id == "put" || id == PutOperator::kClassName) return CreatePutOperator();
  if (id == "uint64add" || id == UInt64AddOperator::kClassName) return CreateUInt64AddOperator();
  if (id == "stringappend" || id == StringAppendOperator::kClassName) {
    return CreateStringAppendOperator(',');
  }
  if (id == "max" || id == MaxOperator::kClassName) return CreateMaxOperator();
  return nullptr;
}

}  // namespace strata::MergeOperators
