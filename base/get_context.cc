// GetContext (see the header for the contract).
#include "base/get_context.h"

#include "base/merge.h"
#include "util/perf_context_imp.h"

namespace strata {

bool GetContext::SaveEntry(SequenceNumber seq, ValueType type, const Slice& value,
                           bool value_pinned, bool can_pin) {
  if (done()) return false;
  if (newest_entry_mode_) {
    newest_seq_ = seq;
    state_ = kFound;
    return false;
  }
  if (seq < max_covering_tombstone_seq_) type = kTypeDeletion;  // covered by a newer tombstone
  const bool merging = state_ == kMerge;
  if (collect_operands_ && type != kTypeMerge) return SaveForCollection(type, value, value_pinned);
  switch (type) {
    case kTypeValue:
      if (merging) {
        Merge(&value);
      } else {
        state_ = kFound;
        if (pinnable_ != nullptr && can_pin) {
          // The source keeps the bytes for us (it resolves the pin next).
          pinnable_->PinSlice(value);
          pin_pending_ = true;
        } else if (value_ != nullptr) {
          value_->assign(value.data(), value.size());
        }
      }
      return false;
    case kTypeDeletion:
    case kTypeSingleDeletion:
      if (merging) {
        Merge(nullptr);
      } else {
        state_ = kDeleted;
      }
      return false;
    case kTypeMerge:
      if (merge_context_ == nullptr || merge_operator_ == nullptr) {
        state_ = kCorrupt;
        error_ =
            Status::InvalidArgument("merge operands found but no merge operator is configured");
        return false;
      }
      state_ = kMerge;
      PERF_COUNTER_ADD(internal_merge_count, 1);
      merge_context_->PushOperand(value, /*copy=*/!value_pinned);
      return true;
    default:
      state_ = kCorrupt;
      error_ = Status::Corruption("entry of unknown value type",
                                  std::to_string(static_cast<unsigned>(type)));
      return false;
  }
}

bool GetContext::SaveForCollection(ValueType type, const Slice& value, bool value_pinned) {
  switch (type) {
    case kTypeValue:
      // The base value is the oldest operand.
      merge_context_->PushOperand(value, /*copy=*/!value_pinned);
      state_ = kFound;
      return false;
    case kTypeDeletion:
    case kTypeSingleDeletion:
      state_ = state_ == kMerge ? kFound : kDeleted;
      return false;
    default:
      state_ = kCorrupt;
      error_ = Status::Corruption("entry of unknown value type",
                                  std::to_string(static_cast<unsigned>(type)));
      return false;
  }
}

void GetContext::Merge(const Slice* base) {
  if (value_ == nullptr) {
    // A probe: the operands resolve to some value.
    state_ = kFound;
    return;
  }
  error_ = TimedFullMerge(merge_operator_, user_key_, base, merge_context_->GetOperands(), value_,
                          nullptr, nullptr);
  state_ = error_.ok() ? kFound : kCorrupt;
}

Status GetContext::Finish(Logger* logger, Statistics* stats) {
  switch (state_) {
    case kFound:
      return Status::OK();
    case kNotFound:
    case kDeleted:
      return Status::NotFound();
    case kMerge:
      // Operands all the way down: merge them over no base value.
      if (value_ == nullptr || collect_operands_) return Status::OK();
      error_ = TimedFullMerge(merge_operator_, user_key_, nullptr, merge_context_->GetOperands(),
                              value_, logger, stats);
      state_ = error_.ok() ? kFound : kCorrupt;
      return error_;
    case kCorrupt:
      return error_;
  }
  return Status::Corruption("unreachable lookup state");
}

}  // namespace strata
