#include "utilities/write_batch_with_index/base_delta_iterator.h"

#include <cassert>
#include <utility>

namespace strata {

BaseDeltaIterator::BaseDeltaIterator(const WriteBatchIndex* index, uint32_t cf_id,
                                     std::unique_ptr<Iterator> base,
                                     const ReadOptions* read_options,
                                     const MergeOperator* merge_operator)
    : index_(index),
      ucmp_(index->user_comparator()),
      cf_id_(cf_id),
      base_(std::move(base)),
      merge_operator_(merge_operator),
      lower_(read_options != nullptr ? read_options->iterate_lower_bound : nullptr),
      upper_(read_options != nullptr ? read_options->iterate_upper_bound : nullptr) {}

void BaseDeltaIterator::DeltaNext() {
  const Slice key = DeltaKey();
  Node* n = delta_;
  do {
    n = index_->Next(n);
  } while (n != nullptr && index_->SameKey(n, key));
  delta_ = n;
}

void BaseDeltaIterator::SetDeltaFromNewest(Node* newest) {
  delta_ = newest;
  if (newest == nullptr) return;
  const Slice key = index_->KeyOf(newest);
  for (Node* p = index_->Prev(delta_); p != nullptr && index_->SameKey(p, key);
       p = index_->Prev(delta_)) {
    delta_ = p;
  }
}

bool BaseDeltaIterator::DeltaInBounds() const {
  if (delta_ == nullptr) return false;
  if (forward_) return upper_ == nullptr || ucmp_->Compare(DeltaKey(), *upper_) < 0;
  return lower_ == nullptr || ucmp_->Compare(DeltaKey(), *lower_) >= 0;
}

bool BaseDeltaIterator::BaseInBounds() const {
  if (!base_->Valid()) return false;
  if (forward_) return upper_ == nullptr || ucmp_->Compare(base_->key(), *upper_) < 0;
  return lower_ == nullptr || ucmp_->Compare(base_->key(), *lower_) >= 0;
}

void BaseDeltaIterator::SeekToFirst() {
  if (lower_ != nullptr) {
    Seek(*lower_);
    return;
  }
  forward_ = true;
  base_->SeekToFirst();
  delta_ = index_->First(cf_id_);
  UpdateCurrent();
}

void BaseDeltaIterator::SeekToLast() {
  forward_ = false;
  if (upper_ != nullptr) {
    SeekBeforeBoth(*upper_);
  } else {
    base_->SeekToLast();
    SetDeltaFromNewest(index_->Last(cf_id_));
  }
  UpdateCurrent();
}

void BaseDeltaIterator::Seek(const Slice& target) {
  forward_ = true;
  const Slice& t = (lower_ != nullptr && ucmp_->Compare(target, *lower_) < 0) ? *lower_ : target;
  base_->Seek(t);
  DeltaSeek(t);
  UpdateCurrent();
}

void BaseDeltaIterator::SeekForPrev(const Slice& target) {
  forward_ = false;
  if (upper_ != nullptr && ucmp_->Compare(target, *upper_) >= 0) {
    SeekBeforeBoth(*upper_);
  } else {
    base_->SeekForPrev(target);
    DeltaSeekForPrev(target);
  }
  UpdateCurrent();
}

void BaseDeltaIterator::SeekBeforeBoth(const Slice& target) {
  base_->SeekForPrev(target);
  if (base_->Valid() && ucmp_->Compare(base_->key(), target) >= 0) base_->Prev();
  DeltaSeekForPrev(target);
  if (delta_ != nullptr && ucmp_->Compare(DeltaKey(), target) >= 0) DeltaPrev();
}

void BaseDeltaIterator::Next() {
  assert(valid_);
  if (!forward_) {
    // Re-seek both sides past the current key (invariant 1, forward).
    saved_key_.assign(key().data(), key().size());
    forward_ = true;
    const Slice k(saved_key_);
    base_->Seek(k);
    if (base_->Valid() && ucmp_->Equal(base_->key(), k)) base_->Next();
    DeltaSeek(k);
    if (delta_ != nullptr && index_->SameKey(delta_, k)) DeltaNext();
  } else if (current_at_delta_) {
    DeltaNext();
    if (equal_keys_) base_->Next();
  } else {
    base_->Next();
  }
  UpdateCurrent();
}

void BaseDeltaIterator::Prev() {
  assert(valid_);
  if (forward_) {
    saved_key_.assign(key().data(), key().size());
    forward_ = false;
    SeekBeforeBoth(Slice(saved_key_));
  } else if (current_at_delta_) {
    DeltaPrev();
    if (equal_keys_) base_->Prev();
  } else {
    base_->Prev();
  }
  UpdateCurrent();
}

Slice BaseDeltaIterator::key() const {
  assert(valid_);
  return current_at_delta_ ? DeltaKey() : base_->key();
}

Slice BaseDeltaIterator::value() const {
  assert(valid_);
  return current_at_delta_ ? value_ : base_->value();
}

Status BaseDeltaIterator::status() const {
  if (!status_.ok()) return status_;
  return base_->status();
}

void BaseDeltaIterator::UpdateCurrent() {
  valid_ = false;
  const bool has_tombstones = index_->HasRangeDeletions(cf_id_);
  while (status_.ok()) {
    const bool delta_in = DeltaInBounds();
    const bool base_in = BaseInBounds();
    if (!base_->status().ok()) return;
    if (!delta_in && !base_in) return;
    int c;  // < 0: delta comes first; > 0: base first; 0: same key
    if (!delta_in) {
      c = 1;
    } else if (!base_in) {
      c = -1;
    } else {
      c = ucmp_->Compare(DeltaKey(), base_->key());
      if (!forward_) c = -c;
    }
    if (c > 0) {
      if (has_tombstones && index_->CoveringTombstone(cf_id_, base_->key()) != 0) {
        AdvanceBase();
        continue;
      }
      current_at_delta_ = false;
      equal_keys_ = false;
      valid_ = true;
      return;
    }
    const Slice dkey = DeltaKey();
    const size_t tombstone = has_tombstones ? index_->CoveringTombstone(cf_id_, dkey) : 0;
    index_->Resolve(delta_, dkey, tombstone, &resolved_);
    Status s;
    switch (resolved_.state) {
      case WbwiKeyState::kFound:
        if (resolved_.operands.empty()) {
          value_ = resolved_.value;
        } else {
          s = ApplyMerge(merge_operator_, dkey, &resolved_.value, resolved_.operands, &merged_);
          value_ = Slice(merged_);
        }
        break;
      case WbwiKeyState::kDeleted:
        if (resolved_.operands.empty()) {
          AdvanceDelta();
          if (c == 0) AdvanceBase();
          continue;
        }
        s = ApplyMerge(merge_operator_, dkey, nullptr, resolved_.operands, &merged_);
        value_ = Slice(merged_);
        break;
      case WbwiKeyState::kMergeInProgress: {
        // No range deletion covers the key (it would have made it kDeleted).
        const Slice base_value = c == 0 ? base_->value() : Slice();
        s = ApplyMerge(merge_operator_, dkey, c == 0 ? &base_value : nullptr, resolved_.operands,
                       &merged_);
        value_ = Slice(merged_);
        break;
      }
      case WbwiKeyState::kNotFound:  // a group always has entries
        assert(false);
        AdvanceDelta();
        continue;
    }
    if (!s.ok()) {
      status_ = std::move(s);
      return;
    }
    current_at_delta_ = true;
    equal_keys_ = (c == 0);
    valid_ = true;
    return;
  }
}

}  // namespace strata
