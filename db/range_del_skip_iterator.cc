// RangeDelSkipIterator (see range_del_skip_iterator.h).
#include "db/range_del_skip_iterator.h"

#include <cassert>
#include <string>

namespace strata {

namespace {

class RangeDelSkipIterator final : public InternalIterator {
 public:
  RangeDelSkipIterator(std::unique_ptr<InternalIterator> child, const Comparator* ucmp,
                       const std::vector<const FragmentedRangeTombstoneList*>& lists,
                       SequenceNumber read_seq, const FileMetaData* file)
      : child_(std::move(child)), ucmp_(ucmp), read_seq_(read_seq), file_(file) {
    for (const FragmentedRangeTombstoneList* l : lists) {
      if (l != nullptr && !l->empty()) cursors_.emplace_back(l, read_seq);
    }
  }

  bool Valid() const override { return child_->Valid(); }
  void SeekToFirst() override {
    child_->SeekToFirst();
    SkipForward();
  }
  void SeekToLast() override {
    child_->SeekToLast();
    SkipBackward();
  }
  void Seek(const Slice& target) override {
    child_->Seek(target);
    SkipForward();
  }
  void SeekForPrev(const Slice& target) override {
    child_->SeekForPrev(target);
    SkipBackward();
  }
  void Next() override {
    child_->Next();
    SkipForward();
  }
  void Prev() override {
    child_->Prev();
    SkipBackward();
  }
  Slice key() const override { return child_->key(); }
  Slice value() const override { return child_->value(); }
  Status status() const override { return child_->status(); }
  bool IsValuePinned() const override { return child_->IsValuePinned(); }
  bool CurrentFileRange(uint64_t* largest_seqno, Slice* smallest_user_key,
                        Slice* largest_user_key) const override {
    return FileRange(largest_seqno, smallest_user_key, largest_user_key);
  }

 private:
  bool FileRange(uint64_t* largest_seqno, Slice* smallest, Slice* largest) const {
    if (file_ != nullptr) {
      *largest_seqno = file_->largest_seqno;
      *smallest = ExtractUserKey(file_->smallest);
      *largest = ExtractUserKey(file_->largest);
      return true;
    }
    return child_->CurrentFileRange(largest_seqno, smallest, largest);
  }

  // At the child's entry: whether a visible tombstone newer than the whole
  // file covers it; if so *start / *end get the widest such fragment's
  // bounds (furthest end going forward, earliest start going backward).
  bool Covered(const Slice& user_key, SequenceNumber file_max_seq, bool forward, Slice* start,
               Slice* end) {
    bool found = false;
    for (RangeTombstoneCursor& c : cursors_) {
      const SequenceNumber t = c.CoveringSeq(user_key);
      if (t == 0 || t <= file_max_seq) continue;
      const Slice s = c.fragment_start();
      const Slice e = c.fragment_end();
      if (!found || (forward ? ucmp_->Compare(e, *end) > 0 : ucmp_->Compare(s, *start) < 0)) {
        *start = s;
        *end = e;
      }
      found = true;
    }
    return found;
  }

  void SkipForward() {
    while (child_->Valid()) {
      const Slice ikey = child_->key();
      if (ikey.size() < kInternalKeyTrailerSize) return;  // the reader reports damage
      const Slice user_key = ExtractUserKey(ikey);
      if ((ExtractInternalKeyFooter(ikey) >> 8) > read_seq_) return;  // invisible: DBIter skips it
      uint64_t file_max_seq;
      Slice smallest, largest;
      if (!FileRange(&file_max_seq, &smallest, &largest)) return;
      Slice start, end;
      if (!Covered(user_key, file_max_seq, /*forward=*/true, &start, &end)) return;
      if (ucmp_->Compare(end, largest) <= 0) {
        // Past every version of the fragment's end key's predecessors.
        target_.clear();
        AppendInternalKey(&target_, end, kMaxSequenceNumber, kValueTypeForSeek);
        child_->Seek(target_);
      } else {
        // The rest of this file is deleted: go past its largest key.
        largest_copy_.assign(largest.data(), largest.size());
        target_.clear();
        AppendInternalKey(&target_, largest_copy_, 0, static_cast<ValueType>(0));
        child_->Seek(target_);
        while (child_->Valid() && ucmp_->Equal(ExtractUserKey(child_->key()), largest_copy_)) {
          child_->Next();
        }
      }
    }
  }

  void SkipBackward() {
    while (child_->Valid()) {
      const Slice ikey = child_->key();
      if (ikey.size() < kInternalKeyTrailerSize) return;
      const Slice user_key = ExtractUserKey(ikey);
      if ((ExtractInternalKeyFooter(ikey) >> 8) > read_seq_) return;
      uint64_t file_max_seq;
      Slice smallest, largest;
      if (!FileRange(&file_max_seq, &smallest, &largest)) return;
      Slice start, end;
      if (!Covered(user_key, file_max_seq, /*forward=*/false, &start, &end)) return;
      // Before every version of max(start, the file's smallest key): the
      // entries from there to here are all deleted.
      const Slice bound = ucmp_->Compare(start, smallest) > 0 ? start : smallest;
      largest_copy_.assign(bound.data(), bound.size());
      target_.clear();
      AppendInternalKey(&target_, largest_copy_, kMaxSequenceNumber, kValueTypeForSeek);
      child_->SeekForPrev(target_);
    }
  }

  std::unique_ptr<InternalIterator> child_;
  const Comparator* const ucmp_;
  const SequenceNumber read_seq_;
  const FileMetaData* const file_;
  std::vector<RangeTombstoneCursor> cursors_;
  std::string target_;
  std::string largest_copy_;
};

}  // namespace

std::unique_ptr<InternalIterator> NewRangeDelSkipIterator(
    std::unique_ptr<InternalIterator> child, const Comparator* user_cmp,
    const std::vector<const FragmentedRangeTombstoneList*>& range_tombstones,
    SequenceNumber read_seq, const FileMetaData* file) {
  bool any = false;
  for (const FragmentedRangeTombstoneList* l : range_tombstones) {
    any = any || (l != nullptr && !l->empty());
  }
  if (!any) return child;
  return std::make_unique<RangeDelSkipIterator>(std::move(child), user_cmp, range_tombstones,
                                                read_seq, file);
}

}  // namespace strata
