#include "base/get_context.h"

#include "base/merge.h"

namespace strata {

bool GetContext::SaveValue(const ParsedInternalKey& key, const Slice& value) {
  if (done()) return false;
  if (!user_cmp_->Equal(key.user_key, user_key_)) return false;
  ValueType type = key.type;
  if (max_covering_tombstone_seq_ != nullptr && key.sequence < *max_covering_tombstone_seq_) {
    type = kTypeDeletion;  // covered by a newer range tombstone
  }
  const bool merging = state_ == kMerge;
  switch (type) {
    case kTypeValue:
      if (!merging) {
        state_ = kFound;
        if (value_ != nullptr) value_->assign(value.data(), value.size());
        return false;
      }
      if (value_ == nullptr) {
        state_ = kFound;
        return false;
      }
      error_ = TimedFullMerge(merge_operator_, user_key_, &value,
                                           merge_context_->GetOperands(), value_, nullptr, nullptr);
      state_ = error_.ok() ? kFound : kCorrupt;
      return false;
    case kTypeDeletion:
    case kTypeSingleDeletion:
      if (!merging) {
        state_ = kDeleted;
        return false;
      }
      if (value_ == nullptr) {
        state_ = kFound;
        return false;
      }
      error_ = TimedFullMerge(merge_operator_, user_key_, nullptr,
                                           merge_context_->GetOperands(), value_, nullptr, nullptr);
      state_ = error_.ok() ? kFound : kCorrupt;
      return false;
    case kTypeMerge:
      if (merge_context_ == nullptr || merge_operator_ == nullptr) {
        state_ = kCorrupt;
        error_ =
            Status::InvalidArgument("merge operands found but no merge operator is configured");
        return false;
      }
      state_ = kMerge;
      merge_context_->PushOperand(value, /*copy=*/true);
      return true;
    default:
      state_ = kCorrupt;
      error_ = Status::Corruption("bad entry type for key in a table file",
                                  std::to_string(static_cast<unsigned>(type)));
      return false;
  }
}

}  // namespace strata
