#include "utilities/write_batch_with_index/write_batch_index.h"

#include <algorithm>
#include <cassert>
#include <limits>

#include "util/coding.h"

namespace strata {

namespace {
constexpr size_t kMaxOffset = std::numeric_limits<size_t>::max();
}  // namespace

WriteBatchIndex::WriteBatchIndex(const Comparator* ucmp, const WriteBatch* batch,
                                 bool overwrite_key)
    : ucmp_(ucmp), batch_(batch), overwrite_key_(overwrite_key), rnd_(0x5eed1234u) {
  Clear();
}

void WriteBatchIndex::Clear() {
  arena_ = std::make_unique<Arena>();
  head_ = NewNode(kMaxHeight);
  head_->entry = WbwiEntry{0, 0, 0, 0, kUnknownRecord};
  head_->prev = nullptr;
  for (int i = 0; i < kMaxHeight; i++) Links(head_)[i] = nullptr;
  tail_ = head_;
  height_ = 1;
  tombstones_.clear();
}

size_t WriteBatchIndex::MemoryUsage() const {
  size_t bytes = arena_->MemoryUsage() + tombstones_.capacity() * sizeof(CfTombstones);
  for (const CfTombstones& t : tombstones_) {
    bytes += t.raw.capacity() * sizeof(RawTombstone) + t.bounds.capacity() * sizeof(KeyRef) +
             t.seqs.capacity() * sizeof(size_t);
  }
  return bytes;
}

WriteBatchIndex::Node* WriteBatchIndex::NewNode(int height) {
  char* mem = arena_->AllocateAligned(sizeof(Node) + sizeof(Node*) * static_cast<size_t>(height));
  return reinterpret_cast<Node*>(mem);
}

int WriteBatchIndex::RandomHeight() {
  int h = 1;
  while (h < kMaxHeight && rnd_.OneIn(4)) h++;
  return h;
}

Slice WriteBatchIndex::ValueOf(const Node* n) const {
  if (n->entry.type != kPutRecord && n->entry.type != kMergeRecord) return Slice();
  const std::string& data = batch_->Data();
  const char* p = data.data() + n->entry.key_offset + n->entry.key_size;
  const char* limit = data.data() + data.size();
  uint32_t len = 0;
  p = GetVarint32Ptr(p, limit, &len);
  assert(p != nullptr && static_cast<size_t>(limit - p) >= len);
  return Slice(p, len);
}

int WriteBatchIndex::Compare(const Node* n, const Target& t) const {
  if (n->entry.cf_id != t.cf) return n->entry.cf_id < t.cf ? -1 : 1;
  if (t.key == nullptr) return 1;
  const int c = ucmp_->Compare(KeyOf(n), *t.key);
  if (c != 0) return c;
  if (n->entry.offset == t.offset) return 0;
  return n->entry.offset < t.offset ? -1 : 1;
}

WriteBatchIndex::Node* WriteBatchIndex::FindLessThan(const Target& t, Node** prev) const {
  Node* x = head_;
  for (int level = height_ - 1; level >= 0; level--) {
    Node* next = Links(x)[level];
    while (next != nullptr && Compare(next, t) < 0) {
      x = next;
      next = Links(x)[level];
    }
    if (prev != nullptr) prev[level] = x;
  }
  return x;
}

void WriteBatchIndex::AddPoint(const WbwiEntry& entry) {
  const Slice key(batch_->Data().data() + entry.key_offset, entry.key_size);
  if (overwrite_key_ && entry.type != kMergeRecord) {
    Node* last = FindLessThan(Target{entry.cf_id, &key, kMaxOffset}, nullptr);
    if (last != head_ && last->entry.cf_id == entry.cf_id && SameKey(last, key)) {
      last->entry = entry;  // the newest entry of the key stays the newest (invariant 2)
      return;
    }
  }
  Node* prev[kMaxHeight];
  FindLessThan(Target{entry.cf_id, &key, entry.offset}, prev);
  const int height = RandomHeight();
  if (height > height_) {
    for (int i = height_; i < height; i++) prev[i] = head_;
    height_ = height;
  }
  Node* x = NewNode(height);
  x->entry = entry;
  for (int i = 0; i < height; i++) {
    Links(x)[i] = Links(prev[i])[i];
    Links(prev[i])[i] = x;
  }
  x->prev = prev[0];
  Node* after = Links(x)[0];
  if (after != nullptr) {
    after->prev = x;
  } else {
    tail_ = x;
  }
}

WriteBatchIndex::Node* WriteBatchIndex::First(uint32_t cf_id) const {
  Node* x = Links(FindLessThan(Target{cf_id, nullptr, 0}, nullptr))[0];
  return (x != nullptr && x->entry.cf_id == cf_id) ? x : nullptr;
}

WriteBatchIndex::Node* WriteBatchIndex::Last(uint32_t cf_id) const {
  Node* x = FindLessThan(Target{uint64_t{cf_id} + 1, nullptr, 0}, nullptr);
  return (x != head_ && x->entry.cf_id == cf_id) ? x : nullptr;
}

WriteBatchIndex::Node* WriteBatchIndex::SeekGE(uint32_t cf_id, const Slice& key) const {
  Node* x = Links(FindLessThan(Target{cf_id, &key, 0}, nullptr))[0];
  return (x != nullptr && x->entry.cf_id == cf_id) ? x : nullptr;
}

WriteBatchIndex::Node* WriteBatchIndex::SeekLE(uint32_t cf_id, const Slice& key) const {
  Node* x = FindLessThan(Target{cf_id, &key, kMaxOffset}, nullptr);
  return (x != head_ && x->entry.cf_id == cf_id) ? x : nullptr;
}

// ---- range deletions ----

void WriteBatchIndex::AddRangeDeletion(uint32_t cf_id, size_t offset, size_t begin_offset,
                                       uint32_t begin_size, size_t end_offset, uint32_t end_size) {
  CfTombstones* t = const_cast<CfTombstones*>(FindTombstones(cf_id));
  if (t == nullptr) {
    tombstones_.emplace_back();
    t = &tombstones_.back();
    t->cf_id = cf_id;
  }
  t->raw.push_back(
      RawTombstone{offset, KeyRef{begin_offset, begin_size}, KeyRef{end_offset, end_size}});
  t->dirty = true;
}

const WriteBatchIndex::CfTombstones* WriteBatchIndex::FindTombstones(uint32_t cf_id) const {
  for (const CfTombstones& t : tombstones_) {
    if (t.cf_id == cf_id) return &t;
  }
  return nullptr;
}

void WriteBatchIndex::BuildFragments(CfTombstones* t) const {
  t->bounds.clear();
  t->seqs.clear();
  for (const RawTombstone& r : t->raw) {
    if (ucmp_->Compare(KeyOf(r.begin), KeyOf(r.end)) >= 0) continue;  // empty range
    t->bounds.push_back(r.begin);
    t->bounds.push_back(r.end);
  }
  auto less = [this](const KeyRef& a, const KeyRef& b) {
    return ucmp_->Compare(KeyOf(a), KeyOf(b)) < 0;
  };
  std::sort(t->bounds.begin(), t->bounds.end(), less);
  t->bounds.erase(std::unique(t->bounds.begin(), t->bounds.end(),
                              [this](const KeyRef& a, const KeyRef& b) {
                                return ucmp_->Equal(KeyOf(a), KeyOf(b));
                              }),
                  t->bounds.end());
  t->seqs.assign(t->bounds.empty() ? 0 : t->bounds.size() - 1, 0);
  for (const RawTombstone& r : t->raw) {
    if (ucmp_->Compare(KeyOf(r.begin), KeyOf(r.end)) >= 0) continue;
    const size_t lo =
        std::lower_bound(t->bounds.begin(), t->bounds.end(), r.begin, less) - t->bounds.begin();
    const size_t hi =
        std::lower_bound(t->bounds.begin(), t->bounds.end(), r.end, less) - t->bounds.begin();
    for (size_t i = lo; i < hi; i++) t->seqs[i] = std::max(t->seqs[i], r.offset);
  }
  t->dirty = false;
}

size_t WriteBatchIndex::CoveringTombstone(uint32_t cf_id, const Slice& key) const {
  if (tombstones_.empty()) return 0;
  CfTombstones* t = const_cast<CfTombstones*>(FindTombstones(cf_id));
  if (t == nullptr) return 0;
  if (t->dirty) BuildFragments(t);
  // The last boundary <= key.
  auto it = std::upper_bound(
      t->bounds.begin(), t->bounds.end(), key,
      [this](const Slice& k, const KeyRef& b) { return ucmp_->Compare(k, KeyOf(b)) < 0; });
  if (it == t->bounds.begin()) return 0;
  const size_t i = static_cast<size_t>(it - t->bounds.begin()) - 1;
  return i < t->seqs.size() ? t->seqs[i] : 0;
}

// ---- resolution ----

WriteBatchIndex::Node* WriteBatchIndex::Resolve(Node* oldest, const Slice& key, size_t tombstone,
                                                WbwiResolved* out) const {
  out->operands.clear();
  out->value = Slice();
  // Applied oldest first: the range deletion acts as a deletion at its offset.
  WbwiKeyState state = tombstone != 0 ? WbwiKeyState::kDeleted : WbwiKeyState::kNotFound;
  Node* n = oldest;
  for (; n != nullptr && SameKey(n, key); n = Next(n)) {
    if (n->entry.offset < tombstone) continue;
    switch (n->entry.type) {
      case kPutRecord:
        state = WbwiKeyState::kFound;
        out->value = ValueOf(n);
        out->operands.clear();
        break;
      case kDeleteRecord:
      case kSingleDeleteRecord:
        state = WbwiKeyState::kDeleted;
        out->operands.clear();
        break;
      case kMergeRecord:
        if (state == WbwiKeyState::kNotFound) state = WbwiKeyState::kMergeInProgress;
        out->operands.push_back(ValueOf(n));
        break;
      default:
        assert(false);
        break;
    }
  }
  out->state = state;
  return n;
}

void WriteBatchIndex::Get(uint32_t cf_id, const Slice& key, WbwiResolved* out) const {
  Node* oldest = SeekGE(cf_id, key);
  if (oldest != nullptr && !SameKey(oldest, key)) oldest = nullptr;
  Resolve(oldest, key, CoveringTombstone(cf_id, key), out);
}

}  // namespace strata

namespace strata {

Status ApplyMerge(const MergeOperator* merge_operator, const Slice& key, const Slice* base,
                  const std::vector<Slice>& operands, std::string* result) {
  if (merge_operator == nullptr) {
    return Status::InvalidArgument("Merge_operator must be set for column_family");
  }
  // result must not alias base or an operand (the operator writes into it).
  result->clear();
  Slice existing_operand(nullptr, 0);  // "arrives empty": data() == nullptr
  MergeOperator::MergeOperationOutput out(*result, existing_operand);
  if (!merge_operator->FullMergeV2(MergeOperator::MergeOperationInput(key, base, operands, nullptr),
                                   &out)) {
    return Status::Corruption("merge operator failed", merge_operator->Name());
  }
  if (existing_operand.data() != nullptr) {
    result->assign(existing_operand.data(), existing_operand.size());
  }
  return Status::OK();
}

Status MergeInProgressStatus() {
  return Status::MergeInProgress("the batch holds only merge operands for the key");
}

}  // namespace strata
