#include "table/block.h"

#include <cassert>
#include <utility>

#include "table/data_block_hash_index.h"
#include "util/coding.h"

namespace strata {

namespace {
constexpr size_t kInternalTrailer = 8;

// Decodes the three entry-header varints; nullptr if they do not fit or the
// key delta and value run past limit.
inline const char* DecodeEntry(const char* p, const char* limit, uint32_t* shared,
                               uint32_t* non_shared, uint32_t* value_length) {
  if (limit - p < 3) return nullptr;
  *shared = static_cast<uint8_t>(p[0]);
  *non_shared = static_cast<uint8_t>(p[1]);
  *value_length = static_cast<uint8_t>(p[2]);
  if ((*shared | *non_shared | *value_length) < 128) {
    p += 3;  // fast path: all three fit in one byte
  } else {
    if ((p = GetVarint32Ptr(p, limit, shared)) == nullptr) return nullptr;
    if ((p = GetVarint32Ptr(p, limit, non_shared)) == nullptr) return nullptr;
    if ((p = GetVarint32Ptr(p, limit, value_length)) == nullptr) return nullptr;
  }
  if (static_cast<uint64_t>(limit - p) <
      static_cast<uint64_t>(*non_shared) + static_cast<uint64_t>(*value_length)) {
    return nullptr;
  }
  return p;
}
}  // namespace

Block::Block(std::string&& contents) : owned_(std::move(contents)) {
  data_ = owned_.data();
  size_ = owned_.size();
  Parse();
}

Block::Block(BlockBuffer&& contents) : owned_buffer_(std::move(contents)) {
  data_ = owned_buffer_.data();
  size_ = owned_buffer_.size();
  Parse();
}

Block::Block(const Slice& contents) : data_(contents.data()), size_(contents.size()) { Parse(); }

void Block::Parse() {
  num_restarts_ = 0;  // malformed until proven otherwise
  // Offsets are 32-bit; a block must also hold at least the footer word.
  if (size_ < sizeof(uint32_t) || size_ > 0xFFFFFFFFu) return;
  const uint32_t footer = DecodeFixed32(data_ + size_ - sizeof(uint32_t));
  size_t end = size_ - sizeof(uint32_t);
  uint32_t num_restarts = footer;
  if (size_ <= kMaxBlockSizeSupportedByHashIndex) {
    num_restarts = footer & 0x7FFFFFFFu;
    if ((footer >> 31) != 0) {
      if (end < sizeof(uint16_t)) return;
      const uint16_t num_buckets = DecodeFixed16(data_ + end - sizeof(uint16_t));
      end -= sizeof(uint16_t);
      if (num_buckets == 0 || num_buckets > end) return;
      end -= num_buckets;
      hash_map_ = data_ + end;
      num_buckets_ = num_buckets;
    }
  }
  if (num_restarts == 0 || num_restarts > end / sizeof(uint32_t)) {
    hash_map_ = nullptr;
    num_buckets_ = 0;
    return;
  }
  restart_offset_ = static_cast<uint32_t>(end - num_restarts * sizeof(uint32_t));
  num_restarts_ = num_restarts;
}

BlockIter* Block::NewIterator(const Comparator* cmp) const {
  auto* iter = new BlockIter;
  InitIterator(cmp, iter);
  return iter;
}

void Block::InitIterator(const Comparator* cmp, BlockIter* iter) const {
  iter->Init(cmp, data_, restart_offset_, num_restarts_, hash_map_, num_buckets_);
  if (num_restarts_ == 0) iter->status_ = Status::Corruption("bad block contents");
}

void Block::InitIndexIterator(const Comparator* cmp, bool value_delta_encoded,
                              BlockIter* iter) const {
  InitIterator(cmp, iter);
  iter->index_mode_ = value_delta_encoded ? 2 : 1;
}

const char* BlockIter::DecodeHeader(const char* p, const char* limit, uint32_t* shared,
                                    uint32_t* non_shared, uint32_t* value_length) const {
  if (index_mode_ != 2) return DecodeEntry(p, limit, shared, non_shared, value_length);
  // No value length: the handle's varints delimit the value.
  if (limit - p < 2) return nullptr;
  *shared = static_cast<uint8_t>(p[0]);
  *non_shared = static_cast<uint8_t>(p[1]);
  if ((*shared | *non_shared) < 128) {
    p += 2;
  } else {
    if ((p = GetVarint32Ptr(p, limit, shared)) == nullptr) return nullptr;
    if ((p = GetVarint32Ptr(p, limit, non_shared)) == nullptr) return nullptr;
  }
  if (static_cast<uint64_t>(limit - p) < *non_shared) return nullptr;
  *value_length = 0;
  return p;
}

bool BlockIter::DecodeIndexValue(const char* p, const char* limit, uint32_t shared) {
  uint64_t offset, size;
  const char* q;
  if (index_mode_ == 1 || shared == 0) {
    if ((q = GetVarint64Ptr(p, limit, &offset)) == nullptr) return false;
    if ((q = GetVarint64Ptr(q, limit, &size)) == nullptr) return false;
  } else {
    // Size delta against the previous handle (zigzag); the block follows
    // the previous one and its trailer.
    uint64_t zigzag;
    if ((q = GetVarint64Ptr(p, limit, &zigzag)) == nullptr) return false;
    const int64_t delta = static_cast<int64_t>(zigzag >> 1) ^ -static_cast<int64_t>(zigzag & 1);
    offset = handle_.offset() + handle_.size() + kBlockTrailerSize;
    size = handle_.size() + static_cast<uint64_t>(delta);
  }
  handle_ = BlockHandle(offset, size);
  if (index_mode_ == 2) value_ = Slice(p, static_cast<size_t>(q - p));
  return true;
}

void BlockIter::Init(const Comparator* cmp, const char* data, uint32_t restarts,
                     uint32_t num_restarts, const char* hash_map, uint16_t num_buckets) {
  cmp_ = cmp;
  data_ = data;
  restarts_ = restarts;
  num_restarts_ = num_restarts;
  hash_map_ = hash_map;
  num_buckets_ = num_buckets;
  current_ = restarts_;
  next_ = restarts_;
  restart_index_ = num_restarts_;
  index_mode_ = 0;
  key_ = Slice();
  value_ = Slice();
  status_ = Status::OK();
}

uint32_t BlockIter::RestartPoint(uint32_t index) const {
  assert(index < num_restarts_);
  return DecodeFixed32(data_ + restarts_ + index * sizeof(uint32_t));
}

void BlockIter::CorruptionError() {
  current_ = restarts_;
  next_ = restarts_;
  restart_index_ = num_restarts_;
  status_ = Status::Corruption("bad entry in block");
  key_ = Slice();
  value_ = Slice();
}

void BlockIter::SeekToRestartPoint(uint32_t index) {
  key_ = Slice();
  value_ = Slice();
  restart_index_ = index;
  const uint32_t offset = RestartPoint(index);
  if (offset > restarts_) {
    CorruptionError();
    return;
  }
  next_ = offset;
}

bool BlockIter::ParseNextKey() {
  current_ = next_;
  if (current_ >= restarts_) {
    current_ = restarts_;
    restart_index_ = num_restarts_;
    return false;
  }
  const char* p = data_ + current_;
  const char* limit = data_ + restarts_;
  uint32_t shared, non_shared, value_length;
  p = DecodeHeader(p, limit, &shared, &non_shared, &value_length);
  if (p == nullptr || key_.size() < shared) {
    CorruptionError();
    return false;
  }
  if (shared == 0) {
    key_ = Slice(p, non_shared);  // points into the block: no copy
  } else {
    if (key_.data() != key_buf_.data()) {
      key_buf_.assign(key_.data(), shared);
    } else {
      key_buf_.resize(shared);
    }
    key_buf_.append(p, non_shared);
    key_ = Slice(key_buf_);
  }
  value_ = Slice(p + non_shared, value_length);
  if (index_mode_ != 0) {
    if (!DecodeIndexValue(p + non_shared, index_mode_ == 1 ? p + non_shared + value_length : limit,
                          shared)) {
      CorruptionError();
      return false;
    }
    next_ = static_cast<uint32_t>((value_.data() + value_.size()) - data_);
  } else {
    next_ = static_cast<uint32_t>((p + non_shared + value_length) - data_);
  }
  while (restart_index_ + 1 < num_restarts_ && RestartPoint(restart_index_ + 1) <= current_) {
    ++restart_index_;
  }
  return true;
}

void BlockIter::SeekToRestart(uint32_t index) {
  if (!status_.ok() || num_restarts_ == 0) return;
  if (index >= num_restarts_) {
    CorruptionError();
    return;
  }
  SeekToRestartPoint(index);
  if (status_.ok()) ParseNextKey();
}

void BlockIter::SeekToFirst() {
  if (!status_.ok() || num_restarts_ == 0) return;
  SeekToRestartPoint(0);
  if (status_.ok()) ParseNextKey();
}

void BlockIter::SeekToLast() {
  if (!status_.ok() || num_restarts_ == 0) return;
  SeekToRestartPoint(num_restarts_ - 1);
  if (!status_.ok()) return;
  while (ParseNextKey() && next_ < restarts_) {
  }
}

void BlockIter::Next() {
  assert(Valid());
  ParseNextKey();
}

void BlockIter::Prev() {
  assert(Valid());
  const uint32_t original = current_;
  while (RestartPoint(restart_index_) >= original) {
    if (restart_index_ == 0) {
      current_ = restarts_;  // before the first entry
      next_ = restarts_;
      restart_index_ = num_restarts_;
      return;
    }
    --restart_index_;
  }
  SeekToRestartPoint(restart_index_);
  if (!status_.ok()) return;
  do {
    if (!ParseNextKey()) return;
  } while (next_ < original);
  if (current_ >= original) CorruptionError();  // restart array inconsistent
}

bool BlockIter::BinarySeek(const Slice& target, uint32_t* index) {
  uint32_t left = 0;
  uint32_t right = num_restarts_ - 1;
  while (left < right) {
    const uint32_t mid = left + (right - left + 1) / 2;
    const uint32_t offset = RestartPoint(mid);
    uint32_t shared, non_shared, value_length;
    const char* p = offset < restarts_ ? DecodeHeader(data_ + offset, data_ + restarts_, &shared,
                                                      &non_shared, &value_length)
                                       : nullptr;
    if (p == nullptr || shared != 0) {
      CorruptionError();
      return false;
    }
    if (cmp_->Compare(Slice(p, non_shared), target) < 0) {
      left = mid;  // every key before mid is < target too
    } else {
      right = mid - 1;
    }
  }
  *index = left;
  return true;
}

void BlockIter::Seek(const Slice& target) {
  if (!status_.ok() || num_restarts_ == 0) return;
  uint32_t index;
  if (!BinarySeek(target, &index)) return;
  SeekToRestartPoint(index);
  if (!status_.ok()) return;
  while (ParseNextKey()) {
    if (cmp_->Compare(key_, target) >= 0) return;
  }
}

void BlockIter::SeekForPrev(const Slice& target) {
  if (!status_.ok() || num_restarts_ == 0) return;
  Seek(target);
  if (!status_.ok()) return;
  if (!Valid()) {
    SeekToLast();
  }
  while (Valid() && cmp_->Compare(key_, target) > 0) Prev();
}

bool BlockIter::SeekForGet(const Slice& target, const Comparator* user_cmp) {
  if (hash_map_ == nullptr || target.size() < kInternalTrailer) {
    Seek(target);
    return true;
  }
  if (!status_.ok()) return true;
  const Slice user_key(target.data(), target.size() - kInternalTrailer);
  const uint8_t entry = DataBlockHashIndexLookup(hash_map_, num_buckets_, user_key);
  if (entry == kHashIndexCollision) {
    Seek(target);
    return true;
  }
  // No entry: the key is not in this block, but if it sorts after every key
  // here it may be in the next one -- scan the last interval to find out.
  const uint32_t restart = entry == kHashIndexNoEntry ? num_restarts_ - 1 : entry;
  if (restart >= num_restarts_) {
    CorruptionError();
    return true;
  }
  SeekToRestartPoint(restart);
  if (!status_.ok()) return true;
  while (ParseNextKey()) {
    if (key_.size() < kInternalTrailer) {
      CorruptionError();
      return true;
    }
    if (user_cmp->Compare(Slice(key_.data(), key_.size() - kInternalTrailer), user_key) >= 0) {
      break;
    }
  }
  if (!Valid()) return true;  // past the end (or corruption): try the next block
  if (!user_cmp->Equal(Slice(key_.data(), key_.size() - kInternalTrailer), user_key)) {
    return false;
  }
  // Same user key: move to the first version visible at target's sequence.
  while (Valid() && cmp_->Compare(key_, target) < 0) Next();
  return true;
}

}  // namespace strata
