#include "table/get_context.h"

namespace strata {

bool GetContext::SaveValue(const ParsedInternalKey& key, const Slice& value) {
  if (state_ != kNotFound) return false;
  if (!user_cmp_->Equal(key.user_key, user_key_)) return false;
  switch (key.type) {
    case kTypeValue:
      state_ = kFound;
      if (value_ != nullptr) value_->assign(value.data(), value.size());
      return false;
    case kTypeDeletion:
    case kTypeSingleDeletion:
      state_ = kDeleted;
      return false;
    case kTypeMerge:
      state_ = kMerge;
      return false;
    default:
      state_ = kCorrupt;
      return false;
  }
}

}  // namespace strata
