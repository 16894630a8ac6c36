// MergeHelper (see the header for the rules of a run).
//
// A run is collected newest first into the slots keys_[0..n) / values_[0..n)
// (copies: the input's slices die as it moves on). A combined result is
// swapped into slot 0, so emitting either the operands unchanged or one
// combined entry needs no further copy.
#include "db/compaction/merge_helper.h"

#include <cassert>
#include <utility>

#include "db/compaction/compaction_range_del_aggregator.h"

namespace strata {

namespace {

// Rewrites the type in the trailer of an internal key in place.
void SetType(std::string* ikey, ValueType t) {
  assert(ikey->size() >= kInternalKeyTrailerSize);
  const size_t at = ikey->size() - kInternalKeyTrailerSize;
  SequenceNumber seq;
  ValueType old;
  UnpackSequenceAndType(DecodeFixed64(ikey->data() + at), &seq, &old);
  EncodeFixed64(ikey->data() + at, PackSequenceAndType(seq, t));
}

}  // namespace

MergeHelper::MergeHelper(const Comparator* user_cmp, const MergeOperator* op,
                         const CompactionFilter* filter, int filter_level, Logger* logger,
                         Statistics* stats)
    : ucmp_(user_cmp),
      op_(op),
      filter_(filter),
      filter_level_(filter_level),
      logger_(logger),
      stats_(stats) {
  assert(ucmp_ != nullptr);
  assert(op_ != nullptr);
}

void MergeHelper::OutputCombined(ValueType t) {
  SetType(&keys_[0], t);
  std::swap(values_[0], merge_result_);
  num_out_ = 1;
}

Status MergeHelper::MergeUntil(InternalIterator* iter, SequenceNumber stop_before, bool at_bottom,
                               bool may_filter, CompactionRangeDelAggregator* range_del_agg) {
  num_out_ = 0;
  full_merged_ = false;
  partial_merged_ = false;
  consumed_ = 0;
  filtered_ = 0;
  filter_changed_ = 0;
  const bool filtering = may_filter && filter_ != nullptr;

  // How the run ended.
  enum class End { kOtherKey, kInputEnd, kStripe, kPut, kDeletion, kCovered, kOther };
  End end = End::kInputEnd;
  size_t n = 0;  // operands collected (slots 0..n-1, newest first)
  bool first = true;
  while (iter->Valid()) {
    const Slice ikey = iter->key();
    ParsedInternalKey p;
    const Status ps = ParseInternalKey(ikey, &p);
    if (!ps.ok()) {
      num_out_ = 0;
      return Status::Corruption(
          "merge input has an undecodable internal key " + ikey.ToString(/*hex=*/true),
          ps.ToString());
    }
    if (first) {
      if (p.type != kTypeMerge) {
        assert(false);
        return Status::InvalidArgument("MergeUntil must start at a merge operand");
      }
      user_key_.assign(p.user_key.data(), p.user_key.size());
    } else if (!ucmp_->Equal(p.user_key, user_key_)) {
      end = End::kOtherKey;
      break;
    }
    if (stop_before != kNoStripeBelow && p.sequence <= stop_before) {
      assert(!first);
      end = End::kStripe;
      break;
    }
    if (!first && range_del_agg != nullptr && range_del_agg->ShouldDelete(p)) {
      end = End::kCovered;
      break;
    }
    if (p.type != kTypeMerge) {
      if (p.type == kTypeValue) {
        end = End::kPut;
      } else if (p.type == kTypeDeletion || p.type == kTypeDeletionWithTimestamp ||
                 p.type == kTypeSingleDeletion) {
        end = End::kDeletion;
      } else {
        // A type we cannot merge over (blob index, wide columns, a stray
        // range tombstone): left to the caller.
        end = End::kOther;
      }
      break;
    }
    first = false;

    // A merge operand of the run.
    const Slice value = iter->value();
    bool keep = true;
    bool changed = false;
    if (filtering) {
      filter_value_.clear();
      switch (filter_->FilterV2(filter_level_, p.user_key,
                                CompactionFilter::ValueType::kMergeOperand, value, &filter_value_,
                                &skip_until_)) {
        case CompactionFilter::Decision::kKeep:
          break;
        case CompactionFilter::Decision::kChangeValue:
          changed = true;
          break;
        case CompactionFilter::Decision::kRemove:
        case CompactionFilter::Decision::kRemoveAndSkipUntil:
        // RocksDB removes an operand for every answer but kKeep and
        // kChangeValue.
        case CompactionFilter::Decision::kPurge:
        case CompactionFilter::Decision::kChangeBlobIndex:
        case CompactionFilter::Decision::kIOError:
        case CompactionFilter::Decision::kUndetermined:
          keep = false;
          break;
      }
    }
    if (keep) {
      if (n == keys_.size()) {
        keys_.emplace_back();
        values_.emplace_back();
      }
      keys_[n].assign(ikey.data(), ikey.size());
      if (changed) {
        std::swap(values_[n], filter_value_);
        ++filter_changed_;
      } else {
        values_[n].assign(value.data(), value.size());
      }
      ++n;
    } else {
      ++filtered_;
    }
    ++consumed_;
    iter->Next();
  }
  if (!iter->Valid()) {
    const Status is = iter->status();
    if (!is.ok()) {
      num_out_ = 0;
      return is;
    }
  }
  if (n == 0) {
    // Every operand was filtered away; what ended the run stays in the
    // input for the caller.
    return Status::OK();
  }

  operands_.clear();
  for (size_t i = n; i-- > 0;) operands_.emplace_back(values_[i]);

  const bool full =
      end == End::kPut || end == End::kDeletion || end == End::kCovered ||
      (at_bottom && (end == End::kOtherKey || end == End::kInputEnd || end == End::kStripe));
  if (full) {
    Slice base_value;
    const Slice* base = nullptr;
    if (end == End::kPut) {
      base_value = iter->value();
      base = &base_value;
    }
    const Status s =
        TimedFullMerge(op_, user_key_, base, operands_, &merge_result_, logger_, stats_);
    if (!s.ok()) {
      num_out_ = 0;
      return s;
    }
    if (end == End::kPut || end == End::kDeletion) {
      // The base (or deletion) is folded into the result.
      ++consumed_;
      iter->Next();
    }
    OutputCombined(kTypeValue);
    full_merged_ = true;
    return Status::OK();
  }

  if (n >= 2) {
    partial_operands_.clear();
    partial_operands_.insert(partial_operands_.end(), operands_.begin(), operands_.end());
    merge_result_.clear();
    if (op_->PartialMergeMulti(user_key_, partial_operands_, &merge_result_, logger_)) {
      OutputCombined(kTypeMerge);
      partial_merged_ = true;
      return Status::OK();
    }
  }
  num_out_ = n;
  return Status::OK();
}

}  // namespace strata
