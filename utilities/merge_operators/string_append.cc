// StringAppendOperator: builds the joined result with one exact reservation
// instead of one Merge (and one copy of the growing prefix) per operand.
#include <span>

#include "utilities/merge_operators/merge_operators.h"

namespace strata {

namespace {

// Appends pieces (optionally led by *first) joined by delim into *out, which
// is first cleared and sized exactly once. Pieces is any container of Slice.
template <typename Pieces>
void Join(const Slice* first, const Pieces& pieces, const std::string& delim, std::string* out) {
  size_t count = pieces.size() + (first != nullptr ? 1 : 0);
  size_t total = first != nullptr ? first->size() : 0;
  for (const Slice& p : pieces) total += p.size();
  if (count > 1) total += delim.size() * (count - 1);
  out->clear();
  out->reserve(total);
  bool need_delim = false;
  if (first != nullptr) {
    out->append(first->data(), first->size());
    need_delim = true;
  }
  for (const Slice& p : pieces) {
    if (need_delim) out->append(delim);
    out->append(p.data(), p.size());
    need_delim = true;
  }
}

}  // namespace

bool StringAppendOperator::Merge(const Slice& /*key*/, const Slice* existing_value,
                                 const Slice& value, std::string* new_value,
                                 Logger* /*logger*/) const {
  const Slice one[1] = {value};
  Join(existing_value, std::span<const Slice>(one), delim_, new_value);
  return true;
}

bool StringAppendOperator::FullMergeV2(const MergeOperationInput& merge_in,
                                       MergeOperationOutput* merge_out) const {
  const std::vector<Slice>& ops = merge_in.operand_list;
  if (merge_in.existing_value == nullptr && ops.size() == 1) {
    merge_out->existing_operand = ops[0];  // nothing to join: no copy
    return true;
  }
  Join(merge_in.existing_value, ops, delim_, &merge_out->new_value);
  return true;
}

bool StringAppendOperator::PartialMerge(const Slice& /*key*/, const Slice& left_operand,
                                        const Slice& right_operand, std::string* new_value,
                                        Logger* /*logger*/) const {
  const Slice one[1] = {right_operand};
  Join(&left_operand, std::span<const Slice>(one), delim_, new_value);
  return true;
}

bool StringAppendOperator::PartialMergeMulti(const Slice& /*key*/,
                                             const std::deque<Slice>& operand_list,
                                             std::string* new_value, Logger* /*logger*/) const {
  Join(nullptr, operand_list, delim_, new_value);
  return true;
}

}  // namespace strata
