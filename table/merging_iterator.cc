// MergingIterator over a binary heap of children (see merging_iterator.h).
//
// Order. Entries are ordered by (internal key, child index): forward
// iteration yields them ascending, reverse iteration exactly the reverse, so
// equal internal keys from several children come out in child order going
// forward and in reverse child order going backward.
//
// Heap. heap_[0..size_) holds the children that are valid in the current
// direction, as a min-heap (forward) or max-heap (reverse) of that order. The
// current entry is always heap_[0]: Next/Prev move that child and sift it
// down in place (a replace-top, never pop + push), and an exhausted child is
// replaced by the last heap element. Each heap entry caches its child's
// key() so the comparisons make no virtual calls; the cache is refreshed
// right after the child moves. The heap array is sized once, at
// construction: no step allocates.
//
// Direction switch. Going forward, every non-current child rests on its
// first entry after the current one in the (key, index) order; going
// backward, on its last entry before it. Turning around repositions every
// non-current child with SeekForPrev(key()) / Seek(key()) and then steps once
// more where the landing entry ties with the current key on the wrong side
// of the current child's index. The heap is then rebuilt in O(n).
//
// With the bytewise user comparator the comparisons are inlined (memcmp
// plus the trailer); other comparators go through InternalKeyComparator.
#include "table/merging_iterator.h"

#include <cassert>
#include <cstring>
#include <utility>

#include "util/perf_context_imp.h"

namespace strata {

namespace {

// An iterator with no entries and a fixed status.
class EmptyInternalIterator final : public InternalIterator {
 public:
  explicit EmptyInternalIterator(Status status) : status_(std::move(status)) {}
  bool Valid() const override { return false; }
  void SeekToFirst() override {}
  void SeekToLast() override {}
  void Seek(const Slice& /*target*/) override {}
  void SeekForPrev(const Slice& /*target*/) override {}
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

// Internal-key order for the bytewise user comparator, without virtual calls.
struct BytewiseInternalOrder {
  explicit BytewiseInternalOrder(const InternalKeyComparator* /*icmp*/) {}
  int Compare(const Slice& a, const Slice& b) const {
    assert(a.size() >= kInternalKeyTrailerSize && b.size() >= kInternalKeyTrailerSize);
    const size_t an = a.size() - kInternalKeyTrailerSize;
    const size_t bn = b.size() - kInternalKeyTrailerSize;
    const size_t n = an < bn ? an : bn;
    int r = n == 0 ? 0 : std::memcmp(a.data(), b.data(), n);
    if (r != 0) return r;
    if (an != bn) return an < bn ? -1 : +1;
    const uint64_t af = DecodeFixed64(a.data() + an);
    const uint64_t bf = DecodeFixed64(b.data() + bn);
    // Higher trailer (newer) first.
    return af > bf ? -1 : (af < bf ? +1 : 0);
  }
};

// Internal-key order for any user comparator.
struct GenericInternalOrder {
  explicit GenericInternalOrder(const InternalKeyComparator* icmp) : icmp_(icmp) {}
  int Compare(const Slice& a, const Slice& b) const { return icmp_->Compare(a, b); }
  const InternalKeyComparator* icmp_;
};

template <typename Order>
class MergingIterator final : public InternalIterator {
 public:
  MergingIterator(const InternalKeyComparator* icmp,
                  std::vector<std::unique_ptr<InternalIterator>> children)
      : order_(icmp), children_(std::move(children)), heap_(children_.size()) {}

  bool Valid() const override { return size_ > 0; }

  void SeekToFirst() override {
    for (auto& c : children_) c->SeekToFirst();
    BuildHeap(kForward);
  }

  void SeekToLast() override {
    for (auto& c : children_) c->SeekToLast();
    BuildHeap(kReverse);
  }

  void Seek(const Slice& target) override {
    {
      PERF_TIMER_GUARD(seek_child_seek_time);
      for (auto& c : children_) c->Seek(target);
    }
    PERF_COUNTER_ADD(seek_child_seek_count, children_.size());
    PERF_TIMER_GUARD(seek_min_heap_time);
    BuildHeap(kForward);
  }

  void SeekForPrev(const Slice& target) override {
    {
      PERF_TIMER_GUARD(seek_child_seek_time);
      for (auto& c : children_) c->SeekForPrev(target);
    }
    PERF_COUNTER_ADD(seek_child_seek_count, children_.size());
    PERF_TIMER_GUARD(seek_min_heap_time);
    BuildHeap(kReverse);
  }

  void Next() override {
    assert(Valid());
    if (direction_ != kForward) {
      SwitchToForward();
      return;
    }
    Entry& top = heap_[0];
    top.iter->Next();
    AfterTopMoved<kForward>();
  }

  void Prev() override {
    assert(Valid());
    if (direction_ != kReverse) {
      SwitchToReverse();
      return;
    }
    Entry& top = heap_[0];
    top.iter->Prev();
    AfterTopMoved<kReverse>();
  }

  Slice key() const override {
    assert(Valid());
    return heap_[0].key;
  }

  Slice value() const override {
    assert(Valid());
    return heap_[0].iter->value();
  }

  bool IsValuePinned() const override {
    assert(Valid());
    return heap_[0].iter->IsValuePinned();
  }

  Status status() const override { return status_; }

 private:
  enum Direction : int { kForward, kReverse };

  struct Entry {
    InternalIterator* iter;
    Slice key;  // iter->key(), cached after every move of iter
    size_t index;
  };

  // True if a must be nearer the heap top than b in direction D.
  template <Direction D>
  bool Before(const Entry& a, const Entry& b) const {
    const int r = order_.Compare(a.key, b.key);
    if (D == kForward) return r < 0 || (r == 0 && a.index < b.index);
    return r > 0 || (r == 0 && a.index > b.index);
  }

  // Records the first error; an error empties the heap for good.
  // Returns false if the iteration must stop.
  bool CheckInvalidChild(InternalIterator* iter) {
    Status s = iter->status();
    if (s.ok()) return true;
    if (status_.ok()) status_ = std::move(s);
    size_ = 0;
    return false;
  }

  // Moves heap_[pos] down to its place in a heap of size_ entries.
  template <Direction D>
  void SiftDown(size_t pos) {
    const size_t n = size_;
    Entry moving = heap_[pos];
    for (;;) {
      size_t child = 2 * pos + 1;
      if (child >= n) break;
      if (child + 1 < n && Before<D>(heap_[child + 1], heap_[child])) child++;
      if (!Before<D>(heap_[child], moving)) break;
      heap_[pos] = heap_[child];
      pos = child;
    }
    heap_[pos] = moving;
  }

  // After heap_[0].iter moved in direction D: refresh its key and restore
  // the heap, or drop it if exhausted.
  template <Direction D>
  void AfterTopMoved() {
    Entry& top = heap_[0];
    if (top.iter->Valid()) {
      top.key = top.iter->key();
      if (size_ > 1) SiftDown<D>(0);
      return;
    }
    if (!CheckInvalidChild(top.iter)) return;
    size_--;
    if (size_ > 0) {
      heap_[0] = heap_[size_];
      SiftDown<D>(0);
    }
  }

  // Fills the heap from every valid child and orders it for direction d.
  void BuildHeap(Direction d) {
    direction_ = d;
    size_ = 0;
    if (!status_.ok()) return;  // a child error is sticky
    for (size_t i = 0; i < children_.size(); i++) {
      InternalIterator* it = children_[i].get();
      if (it->Valid()) {
        heap_[size_++] = Entry{it, it->key(), i};
      } else if (!CheckInvalidChild(it)) {
        return;
      }
    }
    if (size_ <= 1) return;
    for (size_t pos = size_ / 2; pos-- > 0;) {
      if (d == kForward) {
        SiftDown<kForward>(pos);
      } else {
        SiftDown<kReverse>(pos);
      }
    }
  }

  // Going backward from the current entry (key K of child c): every other
  // child moves to its last entry before (K, c), the current child steps
  // back, and the max-heap is rebuilt.
  void SwitchToReverse() {
    InternalIterator* const cur = heap_[0].iter;
    const size_t cur_index = heap_[0].index;
    const Slice target = heap_[0].key;  // stays valid: cur does not move yet
    for (size_t i = 0; i < children_.size(); i++) {
      if (i == cur_index) continue;
      InternalIterator* it = children_[i].get();
      it->SeekForPrev(target);
      // Children after c order their K after (K, c): step before it.
      if (i > cur_index && it->Valid() && order_.Compare(it->key(), target) == 0) it->Prev();
    }
    cur->Prev();
    BuildHeap(kReverse);
  }

  // Going forward: mirror image of SwitchToReverse.
  void SwitchToForward() {
    InternalIterator* const cur = heap_[0].iter;
    const size_t cur_index = heap_[0].index;
    const Slice target = heap_[0].key;
    for (size_t i = 0; i < children_.size(); i++) {
      if (i == cur_index) continue;
      InternalIterator* it = children_[i].get();
      it->Seek(target);
      // Children before c order their K before (K, c): step past it.
      if (i < cur_index && it->Valid() && order_.Compare(it->key(), target) == 0) it->Next();
    }
    cur->Next();
    BuildHeap(kForward);
  }

  const Order order_;
  const std::vector<std::unique_ptr<InternalIterator>> children_;
  std::vector<Entry> heap_;  // sized to children_.size() once
  size_t size_ = 0;          // entries of heap_ in use
  Direction direction_ = kForward;
  Status status_;  // first child error
};

}  // namespace

std::unique_ptr<InternalIterator> NewEmptyInternalIterator(Status status) {
  return std::make_unique<EmptyInternalIterator>(std::move(status));
}

std::unique_ptr<InternalIterator> NewMergingIterator(
    const InternalKeyComparator* icmp, std::vector<std::unique_ptr<InternalIterator>> children) {
  if (children.empty()) return NewEmptyInternalIterator();
  if (children.size() == 1) return std::move(children[0]);
  if (icmp->user_comparator() == BytewiseComparator()) {
    return std::make_unique<MergingIterator<BytewiseInternalOrder>>(icmp, std::move(children));
  }
  return std::make_unique<MergingIterator<GenericInternalOrder>>(icmp, std::move(children));
}

}  // namespace strata
