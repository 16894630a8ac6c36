#include "db/db_iter.h"

#include <cassert>

namespace strata {

namespace {

class DBIter final : public Iterator {
 public:
  DBIter(const ReadOptions& options, const Comparator* cmp, InternalIterator* input,
         SequenceNumber sequence, Statistics* stats, std::function<void()> cleanup)
      : cmp_(cmp), iter_(input), sequence_(sequence), stats_(stats), cleanup_(std::move(cleanup)) {
    if (options.iterate_lower_bound != nullptr) {
      lower_ = options.iterate_lower_bound->ToString();
      has_lower_ = true;
    }
    if (options.iterate_upper_bound != nullptr) {
      upper_ = options.iterate_upper_bound->ToString();
      has_upper_ = true;
    }
  }

  ~DBIter() override {
    iter_.reset();
    if (cleanup_) cleanup_();
  }

  bool Valid() const override { return valid_; }
  Slice key() const override {
    assert(valid_);
    return direction_ == kForward ? ExtractUserKey(iter_->key()) : Slice(saved_key_);
  }
  Slice value() const override {
    assert(valid_);
    return direction_ == kForward ? iter_->value() : Slice(saved_value_);
  }
  Status status() const override {
    if (!status_.ok()) return status_;
    return iter_->status();
  }

  void SeekToFirst() override {
    Count(NUMBER_DB_SEEK);
    direction_ = kForward;
    ClearSaved();
    if (has_lower_) {
      SeekInternal(lower_, sequence_);
    } else {
      iter_->SeekToFirst();
    }
    FindNextUserEntry(false);
  }

  void Seek(const Slice& target) override {
    Count(NUMBER_DB_SEEK);
    direction_ = kForward;
    ClearSaved();
    if (has_lower_ && cmp_->Compare(target, lower_) < 0) {
      SeekInternal(lower_, sequence_);
    } else {
      SeekInternal(target, sequence_);
    }
    FindNextUserEntry(false);
  }

  void SeekToLast() override {
    Count(NUMBER_DB_SEEK);
    direction_ = kReverse;
    ClearSaved();
    if (has_upper_) {
      // The last entry before every version of the upper bound: (upper,
      // max sequence) sorts before all of them. (Seek + Prev would not do:
      // sources may stop short of the bound, leaving nothing to step back
      // from.)
      scratch_.clear();
      AppendInternalKey(&scratch_, upper_, kMaxSequenceNumber, kValueTypeForSeek);
      iter_->SeekForPrev(scratch_);
    } else {
      iter_->SeekToLast();
    }
    FindPrevUserEntry();
  }

  void SeekForPrev(const Slice& target) override {
    Count(NUMBER_DB_SEEK);
    if (has_upper_ && cmp_->Compare(target, upper_) >= 0) {
      SeekToLast();
      return;
    }
    direction_ = kReverse;
    ClearSaved();
    // The last entry of target's versions: (target, seq 0, lowest type).
    scratch_.clear();
    AppendInternalKey(&scratch_, target, 0, kValueTypeForSeekForPrev);
    iter_->SeekForPrev(scratch_);
    FindPrevUserEntry();
  }

  void Next() override {
    assert(valid_);
    Count(NUMBER_DB_NEXT);
    if (direction_ == kReverse) {
      // The input sits before all entries of the current key: step into
      // them, then skip them like any shown key.
      direction_ = kForward;
      if (!iter_->Valid()) {
        iter_->SeekToFirst();
      } else {
        iter_->Next();
      }
      if (!iter_->Valid()) {
        valid_ = false;
        saved_key_.clear();
        return;
      }
      // saved_key_ holds the key to skip.
    } else {
      saved_key_.assign(ExtractUserKey(iter_->key()).data(), ExtractUserKey(iter_->key()).size());
      iter_->Next();
    }
    FindNextUserEntry(true);
  }

  void Prev() override {
    assert(valid_);
    Count(NUMBER_DB_PREV);
    if (direction_ == kForward) {
      // Back out of every entry of the current key, then scan backwards.
      const Slice current = ExtractUserKey(iter_->key());
      saved_key_.assign(current.data(), current.size());
      while (true) {
        iter_->Prev();
        if (!iter_->Valid()) {
          valid_ = false;
          ClearSaved();
          return;
        }
        if (cmp_->Compare(ExtractUserKey(iter_->key()), saved_key_) < 0) break;
      }
      direction_ = kReverse;
    }
    FindPrevUserEntry();
  }

 private:
  enum Direction { kForward, kReverse };

  void Count(uint32_t ticker) {
    if (stats_ != nullptr) stats_->recordTick(ticker);
  }

  void ClearSaved() {
    saved_key_.clear();
    saved_value_.clear();
  }

  void SeekInternal(const Slice& user_key, SequenceNumber seq) {
    scratch_.clear();
    AppendInternalKey(&scratch_, user_key, seq, kValueTypeForSeek);
    iter_->Seek(scratch_);
  }

  // Parses the input's current key; on damage records the status and stops.
  bool Parse(ParsedInternalKey* ikey) {
    Status s = ParseInternalKey(iter_->key(), ikey);
    if (!s.ok()) {
      status_ = s;
      valid_ = false;
      return false;
    }
    return true;
  }

  // Forward: moves to the first visible, live user key at or after the
  // input's position, skipping versions of saved_key_ when skipping.
  void FindNextUserEntry(bool skipping) {
    ParsedInternalKey ikey;
    for (; iter_->Valid(); iter_->Next()) {
      if (!Parse(&ikey)) return;
      if (ikey.sequence > sequence_) continue;  // written after our view
      if (skipping && cmp_->Compare(ikey.user_key, saved_key_) <= 0) continue;
      if (has_upper_ && cmp_->Compare(ikey.user_key, upper_) >= 0) break;
      switch (ikey.type) {
        case kTypeDeletion:
        case kTypeSingleDeletion:
          // Hide every older version of this key.
          saved_key_.assign(ikey.user_key.data(), ikey.user_key.size());
          skipping = true;
          break;
        case kTypeValue:
          valid_ = true;
          return;
        case kTypeMerge:
          status_ = Status::NotSupported("merge operands found; merge is not supported yet");
          valid_ = false;
          return;
        default:
          status_ = Status::Corruption("unexpected value type in iterator",
                                       std::to_string(static_cast<int>(ikey.type)));
          valid_ = false;
          return;
      }
    }
    valid_ = false;
    saved_key_.clear();
  }

  // Backward: from the input's position, finds the previous user key whose
  // newest visible version is a value; leaves it in saved_key_/saved_value_
  // and the input just before its entries.
  void FindPrevUserEntry() {
    ValueType value_type = kTypeDeletion;  // of the newest visible version seen for saved_key_
    ParsedInternalKey ikey;
    while (iter_->Valid()) {
      if (!Parse(&ikey)) return;
      // Entries at or past the upper bound are never shown (a source may
      // hand them out after a direction change).
      if (ikey.sequence <= sequence_ &&
          !(has_upper_ && cmp_->Compare(ikey.user_key, upper_) >= 0)) {
        if (value_type != kTypeDeletion && cmp_->Compare(ikey.user_key, saved_key_) < 0) {
          break;  // saved_key_ is complete: all its entries are behind us
        }
        if (has_lower_ && cmp_->Compare(ikey.user_key, lower_) < 0) {
          if (value_type != kTypeDeletion) break;
          valid_ = false;
          ClearSaved();
          return;
        }
        value_type = ikey.type;
        switch (ikey.type) {
          case kTypeDeletion:
          case kTypeSingleDeletion:
            value_type = kTypeDeletion;
            ClearSaved();
            break;
          case kTypeValue:
            saved_key_.assign(ikey.user_key.data(), ikey.user_key.size());
            saved_value_.assign(iter_->value().data(), iter_->value().size());
            break;
          case kTypeMerge:
            status_ = Status::NotSupported("merge operands found; merge is not supported yet");
            valid_ = false;
            return;
          default:
            status_ = Status::Corruption("unexpected value type in iterator",
                                         std::to_string(static_cast<int>(ikey.type)));
            valid_ = false;
            return;
        }
      }
      iter_->Prev();
    }
    if (value_type == kTypeDeletion) {
      valid_ = false;
      ClearSaved();
      direction_ = kForward;
    } else {
      valid_ = true;
    }
  }

  const Comparator* const cmp_;
  std::unique_ptr<InternalIterator> iter_;
  const SequenceNumber sequence_;
  Statistics* const stats_;
  std::function<void()> cleanup_;
  std::string lower_, upper_;
  bool has_lower_ = false, has_upper_ = false;

  Direction direction_ = kForward;
  bool valid_ = false;
  Status status_;
  std::string saved_key_;    // reverse: current key; forward: key being skipped
  std::string saved_value_;  // reverse: current value
  std::string scratch_;      // seek key buffer
};

class ErrorIterator final : public Iterator {
 public:
  explicit ErrorIterator(Status s) : status_(std::move(s)) {}
  bool Valid() const override { return false; }
  void SeekToFirst() override {}
  void SeekToLast() override {}
  void Seek(const Slice&) override {}
  void SeekForPrev(const Slice&) override {}
  void Next() override { assert(false); }
  void Prev() override { assert(false); }
  Slice key() const override {
    assert(false);
    return Slice();
  }
  Slice value() const override {
    assert(false);
    return Slice();
  }
  Status status() const override { return status_; }

 private:
  Status status_;
};

}  // namespace

std::unique_ptr<Iterator> NewDBIterator(const ReadOptions& options, const Comparator* user_cmp,
                                        std::vector<InternalIterator*> input_list,
                                        SequenceNumber sequence, Statistics* stats,
                                        std::function<void()> cleanup) {
  assert(input_list.size() == 1);
  return std::make_unique<DBIter>(options, user_cmp, input_list[0], sequence, stats,
                                  std::move(cleanup));
}

std::unique_ptr<Iterator> NewErrorIterator(const Status& status) {
  return std::make_unique<ErrorIterator>(status);
}

}  // namespace strata
