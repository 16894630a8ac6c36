#include "db/db_iter.h"

#include <cassert>

#include "base/merge.h"
#include "base/merge_context.h"
#include "table/merging_iterator.h"
#include "util/perf_context_imp.h"
#include "util/stop_watch.h"

namespace strata {

namespace {

// The process's clock, fetched once (SystemClock::Default() returns a
// shared_ptr: copying it per iterator costs two atomic operations).
SystemClock* DefaultClock() {
  static SystemClock* const clock = SystemClock::Default().get();
  return clock;
}

class DBIter final : public Iterator {
 public:
  DBIter(const ReadOptions& options, const Comparator* cmp, std::unique_ptr<InternalIterator> input,
         SequenceNumber sequence, Statistics* stats, std::function<void()> cleanup,
         const MergeOperator* merge_operator,
         const std::vector<const FragmentedRangeTombstoneList*>& range_tombstones,
         const SliceTransform* prefix_extractor, DBIterRefresher refresher,
         uint64_t super_version_number)
      : cmp_(cmp),
        iter_(std::move(input)),
        sequence_(sequence),
        stats_(stats),
        cleanup_(std::move(cleanup)),
        merge_operator_(merge_operator),
        prefix_extractor_(
            options.prefix_same_as_start && !options.total_order_seek ? prefix_extractor : nullptr),
        refresher_(std::move(refresher)),
        super_version_number_(super_version_number) {
    if (refresher_) refresh_options_ = options;
    SetTombstones(range_tombstones);
    if (options.iterate_lower_bound != nullptr) {
      lower_ = options.iterate_lower_bound->ToString();
      has_lower_ = true;
    }
    if (options.iterate_upper_bound != nullptr) {
      upper_ = options.iterate_upper_bound->ToString();
      has_upper_ = true;
    }
    Count(NO_ITERATOR_CREATED);
  }

  ~DBIter() override {
    iter_.reset();
    if (cleanup_) cleanup_();
    Count(NO_ITERATOR_DELETED);
  }

  Status Refresh() override {
    // RocksDB 7.8.3 refuses an iterator with a snapshot, with these words.
    if (!refresher_) return Status::NotSupported("Creating renew iterator is not allowed.");
    // The old source goes first (its SuperVersion may be the last
    // reference to memtables and files).
    iter_.reset();
    if (cleanup_) cleanup_();
    cleanup_ = nullptr;
    DBIterSource src = refresher_(refresh_options_);
    valid_ = false;
    direction_ = kForward;
    forward_saved_ = false;
    has_prefix_ = false;
    if (!src.status.ok()) {
      // Keep an input so that later calls stay safe; the error is sticky.
      status_ = src.status;
      iter_ = NewEmptyInternalIterator(src.status);
      cursors_.clear();
      return src.status;
    }
    status_ = Status::OK();
    iter_ = std::move(src.input);
    sequence_ = src.sequence;
    super_version_number_ = src.super_version_number;
    cleanup_ = std::move(src.cleanup);
    SetTombstones(src.range_tombstones);
    return Status::OK();
  }

  bool Valid() const override { return valid_; }
  Slice key() const override {
    assert(valid_);
    return direction_ == kForward && !forward_saved_ ? ExtractUserKey(iter_->key())
                                                     : Slice(saved_key_);
  }
  Slice value() const override {
    assert(valid_);
    if (direction_ == kForward) return forward_saved_ ? merged_value_ : iter_->value();
    return Slice(saved_value_);
  }
  Status status() const override {
    if (!status_.ok()) return status_;
    return iter_->status();
  }

  // A plain value seen as one column (Strata stores no entities); built on
  // demand, so iterating without asking costs nothing.
  const WideColumns& columns() const override {
    assert(valid_);
    if (!valid_) return kNoWideColumns;
    columns_.clear();
    columns_.emplace_back(kDefaultWideColumnName, value());
    return columns_;
  }

  Status GetProperty(std::string prop_name, std::string* prop) override {
    if (prop == nullptr) return Status::InvalidArgument("prop is nullptr");
    if (prop_name == "rocksdb.iterator.super-version-number") {
      if (super_version_number_ == 0) {
        return Status::NotSupported(prop_name, "the iterator reads no database's SuperVersion");
      }
      *prop = std::to_string(super_version_number_);
      return Status::OK();
    }
    if (prop_name == "rocksdb.iterator.is-key-pinned") {
      // Strata makes no promise that key() outlives the next move.
      *prop = valid_ ? "0" : "Iterator is not valid.";
      return Status::OK();
    }
    if (prop_name == "rocksdb.iterator.internal-key") {
      // RocksDB answers the current user key under this name.
      *prop = valid_ ? key().ToString() : std::string();
      return Status::OK();
    }
    return Status::InvalidArgument("Unidentified property.");
  }

  void SeekToFirst() override {
    StopWatch sw(clock_, stats_, DB_SEEK);
    Count(NUMBER_DB_SEEK);
    direction_ = kForward;
    ClearSaved();
    has_prefix_ = false;
    if (has_lower_) {
      SeekInternal(lower_, sequence_);
    } else {
      PERF_TIMER_GUARD(seek_internal_seek_time);
      iter_->SeekToFirst();
    }
    FindNextUserEntry(false);
    if (valid_) SetPrefixFrom(key());
    CountFound(NUMBER_DB_SEEK_FOUND);
  }

  void Seek(const Slice& target) override {
    StopWatch sw(clock_, stats_, DB_SEEK);
    Count(NUMBER_DB_SEEK);
    direction_ = kForward;
    ClearSaved();
    SetPrefixFrom(target);
    if (has_lower_ && cmp_->Compare(target, lower_) < 0) {
      SeekInternal(lower_, sequence_);
    } else {
      SeekInternal(target, sequence_);
    }
    FindNextUserEntry(false);
    CountFound(NUMBER_DB_SEEK_FOUND);
  }

  void SeekToLast() override {
    StopWatch sw(clock_, stats_, DB_SEEK);
    Count(NUMBER_DB_SEEK);
    direction_ = kReverse;
    ClearSaved();
    has_prefix_ = false;
    if (has_upper_) {
      // The last entry before every version of the upper bound: (upper,
      // max sequence) sorts before all of them. (Seek + Prev would not do:
      // sources may stop short of the bound, leaving nothing to step back
      // from.)
      scratch_.clear();
      AppendInternalKey(&scratch_, upper_, kMaxSequenceNumber, kValueTypeForSeek);
      PERF_TIMER_GUARD(seek_internal_seek_time);
      iter_->SeekForPrev(scratch_);
    } else {
      PERF_TIMER_GUARD(seek_internal_seek_time);
      iter_->SeekToLast();
    }
    FindPrevUserEntry();
    if (valid_) SetPrefixFrom(key());
    CountFound(NUMBER_DB_SEEK_FOUND);
  }

  void SeekForPrev(const Slice& target) override {
    if (has_upper_ && cmp_->Compare(target, upper_) >= 0) {
      SeekToLast();
      return;
    }
    StopWatch sw(clock_, stats_, DB_SEEK);
    Count(NUMBER_DB_SEEK);
    direction_ = kReverse;
    ClearSaved();
    SetPrefixFrom(target);
    // The last entry of target's versions: (target, seq 0, lowest type).
    scratch_.clear();
    AppendInternalKey(&scratch_, target, 0, kValueTypeForSeekForPrev);
    {
      PERF_TIMER_GUARD(seek_internal_seek_time);
      iter_->SeekForPrev(scratch_);
    }
    FindPrevUserEntry();
    CountFound(NUMBER_DB_SEEK_FOUND);
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
    } else if (forward_saved_) {
      // A merged key: the input already rests past its entries, and
      // saved_key_ holds it.
      forward_saved_ = false;
    } else {
      saved_key_.assign(ExtractUserKey(iter_->key()).data(), ExtractUserKey(iter_->key()).size());
      iter_->Next();
    }
    FindNextUserEntry(true);
    CountFound(NUMBER_DB_NEXT_FOUND);
  }

  void Prev() override {
    assert(valid_);
    Count(NUMBER_DB_PREV);
    if (direction_ == kForward) {
      // Back out of every entry of the current key, then scan backwards. A
      // merged key (forward_saved_) left the input past its entries.
      if (!forward_saved_) {
        const Slice current = ExtractUserKey(iter_->key());
        saved_key_.assign(current.data(), current.size());
      }
      forward_saved_ = false;
      if (!iter_->Valid()) iter_->SeekToLast();
      while (iter_->Valid() && cmp_->Compare(ExtractUserKey(iter_->key()), saved_key_) >= 0) {
        iter_->Prev();
      }
      if (!iter_->Valid()) {
        valid_ = false;
        ClearSaved();
        return;
      }
      direction_ = kReverse;
    }
    FindPrevUserEntry();
    CountFound(NUMBER_DB_PREV_FOUND);
  }

 private:
  enum Direction { kForward, kReverse };

  void Count(uint32_t ticker) {
    if (stats_ != nullptr) stats_->recordTick(ticker);
  }

  // After a positioning call: the found ticker and the bytes handed out.
  void CountFound(uint32_t ticker) {
    if (!valid_) return;
    const uint64_t bytes = key().size() + value().size();
    if (stats_ != nullptr) {
      stats_->recordTick(ticker);
      stats_->recordTick(ITER_BYTES_READ, bytes);
    }
    PERF_COUNTER_ADD(iter_read_bytes, bytes);
  }

  void ClearSaved() {
    saved_key_.clear();
    saved_value_.clear();
    forward_saved_ = false;
  }

  // prefix_same_as_start: later keys must share the prefix of key.
  void SetPrefixFrom(const Slice& key) {
    has_prefix_ = false;
    if (prefix_extractor_ == nullptr || !prefix_extractor_->InDomain(key)) return;
    const Slice p = prefix_extractor_->Transform(key);
    prefix_.assign(p.data(), p.size());
    has_prefix_ = true;
  }

  // Whether user_key is outside the prefix the iteration is held to.
  bool OutsidePrefix(const Slice& user_key) const {
    if (!has_prefix_) return false;
    return !prefix_extractor_->InDomain(user_key) ||
           prefix_extractor_->Transform(user_key) != Slice(prefix_);
  }

  // Whether a range tombstone visible at sequence_ deletes ikey.
  bool Covered(const ParsedInternalKey& ikey) {
    for (RangeTombstoneCursor& c : cursors_) {
      if (c.CoveringSeq(ikey.user_key) > ikey.sequence) return true;
    }
    return false;
  }

  ValueType EffectiveType(const ParsedInternalKey& ikey) {
    if (!cursors_.empty() && ikey.type != kTypeRangeDeletion && Covered(ikey)) {
      return kTypeDeletion;
    }
    return ikey.type;
  }

  bool FailMerge(const Status& s) {
    status_ = s;
    valid_ = false;
    return false;
  }

  // Forward, at the newest visible entry of saved_key_, a merge operand:
  // collects the operands down to a base value, a deletion or the key's
  // end, merges them into saved_value_, and leaves the input past the
  // entries used. Returns false on failure (status_ set).
  bool MergeForward() {
    if (merge_operator_ == nullptr) {
      return FailMerge(
          Status::InvalidArgument("merge operands found but no merge operator is configured"));
    }
    merge_context_.Clear();
    // Operands from pinned sources (memtables) are used in place.
    PERF_COUNTER_ADD(internal_merge_count, 1);
    merge_context_.PushOperand(iter_->value(), /*copy=*/!iter_->IsValuePinned());
    ParsedInternalKey ikey;
    for (iter_->Next(); iter_->Valid(); iter_->Next()) {
      if (!Parse(&ikey)) return false;
      if (!cmp_->Equal(ikey.user_key, saved_key_)) break;
      if (ikey.sequence > sequence_) continue;
      switch (EffectiveType(ikey)) {
        case kTypeDeletion:
        case kTypeSingleDeletion:
          return Merge(nullptr);
        case kTypeValue: {
          const Slice base = iter_->value();
          if (!Merge(&base)) return false;
          // The result may be the base itself: keep it if the input's
          // memory goes away when it moves.
          if (!iter_->IsValuePinned() && merged_value_.data() == base.data()) {
            saved_value_.assign(base.data(), base.size());
            merged_value_ = saved_value_;
          }
          iter_->Next();
          return true;
        }
        case kTypeMerge:
          PERF_COUNTER_ADD(internal_merge_count, 1);
          merge_context_.PushOperand(iter_->value(), /*copy=*/!iter_->IsValuePinned());
          break;
        default:
          return FailMerge(Status::Corruption("unexpected value type in iterator",
                                              std::to_string(static_cast<int>(ikey.type))));
      }
    }
    if (!iter_->status().ok()) return false;
    return Merge(nullptr);
  }

  // Forward: merges into merged_value_ (in saved_value_, or in place in an
  // operand or the base when the operator picks one).
  bool Merge(const Slice* base) {
    Status s = TimedFullMerge(merge_operator_, saved_key_, base, merge_context_.GetOperands(),
                              &saved_value_, &merged_value_, nullptr, stats_);
    if (!s.ok()) return FailMerge(s);
    return true;
  }

  void SeekInternal(const Slice& user_key, SequenceNumber seq) {
    PERF_TIMER_GUARD(seek_internal_seek_time);
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
    PERF_TIMER_GUARD(find_next_user_entry_time);
    ParsedInternalKey ikey;
    uint64_t skipped = 0;  // entries passed over (NUMBER_ITER_SKIP)
    struct SkipCounter {
      Statistics* stats;
      const uint64_t& n;
      ~SkipCounter() {
        if (n != 0 && stats != nullptr) stats->recordTick(NUMBER_ITER_SKIP, n);
      }
    } skip_counter{stats_, skipped};
    for (; iter_->Valid(); iter_->Next(), skipped++) {
      if (!Parse(&ikey)) return;
      if (ikey.sequence > sequence_) continue;  // written after our view
      if (skipping && cmp_->Compare(ikey.user_key, saved_key_) <= 0) {
        PERF_COUNTER_ADD(internal_key_skipped_count, 1);
        continue;
      }
      if (has_upper_ && cmp_->Compare(ikey.user_key, upper_) >= 0) break;
      if (OutsidePrefix(ikey.user_key)) break;
      switch (EffectiveType(ikey)) {
        case kTypeDeletion:
        case kTypeSingleDeletion:
          // Hide every older version of this key.
          PERF_COUNTER_ADD(internal_delete_skipped_count, 1);
          saved_key_.assign(ikey.user_key.data(), ikey.user_key.size());
          skipping = true;
          break;
        case kTypeValue:
          forward_saved_ = false;
          valid_ = true;
          return;
        case kTypeMerge:
          saved_key_.assign(ikey.user_key.data(), ikey.user_key.size());
          if (!MergeForward()) return;
          forward_saved_ = true;
          valid_ = true;
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
  // newest visible version is a value or a merge result; leaves it in
  // saved_key_/saved_value_ and the input just before its entries. Going
  // backward a key's versions come oldest first: a value or deletion
  // restarts the key's state, operands pile up on top of it.
  void FindPrevUserEntry() {
    forward_saved_ = false;
    ValueType value_type = kTypeDeletion;  // of the newest visible version seen for saved_key_
    bool has_base = false;                 // merging over saved_value_ as a base
    size_t num_operands = 0;               // reverse_operands_[0, n): oldest first
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
        if ((has_lower_ && cmp_->Compare(ikey.user_key, lower_) < 0) ||
            OutsidePrefix(ikey.user_key)) {
          if (value_type != kTypeDeletion) break;
          valid_ = false;
          ClearSaved();
          return;
        }
        const ValueType type = EffectiveType(ikey);
        switch (type) {
          case kTypeDeletion:
          case kTypeSingleDeletion:
            value_type = kTypeDeletion;
            has_base = false;
            num_operands = 0;
            ClearSaved();
            break;
          case kTypeValue:
            value_type = kTypeValue;
            has_base = true;
            num_operands = 0;
            saved_key_.assign(ikey.user_key.data(), ikey.user_key.size());
            saved_value_.assign(iter_->value().data(), iter_->value().size());
            break;
          case kTypeMerge:
            if (value_type == kTypeDeletion) {
              has_base = false;
              num_operands = 0;
            }
            value_type = kTypeMerge;
            saved_key_.assign(ikey.user_key.data(), ikey.user_key.size());
            if (num_operands == reverse_operands_.size()) reverse_operands_.emplace_back();
            reverse_operands_[num_operands++].assign(iter_->value().data(), iter_->value().size());
            break;
          default:
            status_ = Status::Corruption("unexpected value type in iterator",
                                         std::to_string(static_cast<int>(ikey.type)));
            valid_ = false;
            return;
        }
      }
      iter_->Prev();
    }
    if (!iter_->status().ok()) {
      valid_ = false;
      return;
    }
    if (value_type == kTypeDeletion) {
      valid_ = false;
      ClearSaved();
      direction_ = kForward;
      return;
    }
    if (value_type == kTypeMerge) {
      if (merge_operator_ == nullptr) {
        FailMerge(
            Status::InvalidArgument("merge operands found but no merge operator is configured"));
        return;
      }
      operand_slices_.clear();
      for (size_t i = 0; i < num_operands; i++) operand_slices_.emplace_back(reverse_operands_[i]);
      merge_base_.clear();
      if (has_base) merge_base_.swap(saved_value_);
      const Slice base(merge_base_);
      saved_value_.clear();
      Status s = TimedFullMerge(merge_operator_, saved_key_, has_base ? &base : nullptr,
                                operand_slices_, &saved_value_, nullptr, stats_);
      if (!s.ok()) {
        FailMerge(s);
        return;
      }
    }
    valid_ = true;
  }

  void SetTombstones(const std::vector<const FragmentedRangeTombstoneList*>& range_tombstones) {
    cursors_.clear();
    for (const FragmentedRangeTombstoneList* list : range_tombstones) {
      if (list != nullptr && !list->empty()) cursors_.emplace_back(list, sequence_);
    }
  }

  const Comparator* const cmp_;
  std::unique_ptr<InternalIterator> iter_;
  SequenceNumber sequence_;  // changes only by Refresh
  Statistics* const stats_;
  // DB_SEEK timing (read only when the stats level keeps timers).
  SystemClock* const clock_ = DefaultClock();
  std::function<void()> cleanup_;
  std::string lower_, upper_;
  bool has_lower_ = false, has_upper_ = false;

  Direction direction_ = kForward;
  bool valid_ = false;
  Status status_;
  std::string saved_key_;    // reverse: current key; forward: key being skipped
  std::string saved_value_;  // reverse: current value
  std::string scratch_;      // seek key buffer
  // Forward, the current key is a merge result held in saved_key_ /
  // saved_value_, and the input rests past its entries.
  bool forward_saved_ = false;
  Slice merged_value_;  // forward_saved_: the merged value
  const MergeOperator* const merge_operator_;
  MergeContext merge_context_;                 // forward operands, reused
  std::vector<std::string> reverse_operands_;  // reverse operands, reused
  std::vector<Slice> operand_slices_;
  std::string merge_base_;
  std::vector<RangeTombstoneCursor> cursors_;  // one per source list with tombstones
  // prefix_same_as_start (null when off): keys outside prefix_ end the walk.
  const SliceTransform* const prefix_extractor_;
  std::string prefix_;
  bool has_prefix_ = false;
  DBIterRefresher refresher_;      // null: Refresh is NotSupported
  ReadOptions refresh_options_;    // with a refresher: the options to refresh with
  uint64_t super_version_number_;  // 0: none; changes only by Refresh
  mutable WideColumns columns_;    // columns(): the last answer
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

std::unique_ptr<Iterator> NewDBIterator(
    const ReadOptions& options, const Comparator* user_cmp, std::unique_ptr<InternalIterator> input,
    SequenceNumber sequence, Statistics* stats, std::function<void()> cleanup,
    const MergeOperator* merge_operator,
    std::vector<const FragmentedRangeTombstoneList*> range_tombstones,
    const SliceTransform* prefix_extractor, DBIterRefresher refresher,
    uint64_t super_version_number) {
  return std::make_unique<DBIter>(options, user_cmp, std::move(input), sequence, stats,
                                  std::move(cleanup), merge_operator, range_tombstones,
                                  prefix_extractor, std::move(refresher), super_version_number);
}

std::unique_ptr<Iterator> NewErrorIterator(const Status& status) {
  return std::make_unique<ErrorIterator>(status);
}

}  // namespace strata
