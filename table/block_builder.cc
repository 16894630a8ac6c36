#include "table/block_builder.h"

#include <algorithm>
#include <cassert>

#include "util/coding.h"

namespace strata {

namespace {
constexpr size_t kTrailerSize = 8;  // internal-key trailer
}  // namespace

BlockBuilder::BlockBuilder(int restart_interval, bool use_delta_encoding, bool use_hash_index,
                           double hash_util_ratio)
    : restart_interval_(restart_interval),
      use_delta_encoding_(use_delta_encoding),
      use_hash_index_(use_hash_index),
      hash_index_(hash_util_ratio) {
  assert(restart_interval_ >= 1);
  Reset();
}

void BlockBuilder::Reset() {
  buffer_.clear();
  restarts_.assign(1, 0);
  estimate_ = 2 * sizeof(uint32_t);
  counter_ = 0;
  finished_ = false;
  last_key_.clear();
  hash_index_.Reset();
}

size_t BlockBuilder::CurrentSizeEstimate() const {
  if (use_hash_index_ && hash_index_.Valid()) return estimate_ + hash_index_.EstimateSize();
  return estimate_;
}

size_t BlockBuilder::EstimateSizeAfterKV(const Slice& key, const Slice& value,
                                         bool value_delta_encoded) const {
  // Same estimate as RocksDB's (it decides where data blocks and index
  // partitions are cut): a fixed 4 bytes for `shared`, exact varints for
  // the two lengths.
  const bool full_value = !value_delta_encoded || counter_ >= restart_interval_;
  size_t est = CurrentSizeEstimate() + key.size() + (full_value ? value.size() : value.size() / 2);
  if (counter_ >= restart_interval_) est += sizeof(uint32_t);
  est += sizeof(uint32_t) + VarintLength(key.size());
  if (full_value) est += VarintLength(value.size());
  return est;
}

void BlockBuilder::Add(const Slice& key, const Slice& value) { AddEntry(key, value, nullptr); }

void BlockBuilder::AddIndexEntry(const Slice& key, const Slice& full_value,
                                 const Slice& delta_value) {
  AddEntry(key, full_value, &delta_value);
}

void BlockBuilder::AddEntry(const Slice& key, const Slice& full_value, const Slice* delta_value) {
  assert(!finished_);
  const size_t before = buffer_.size();
  size_t shared = 0;
  if (counter_ >= restart_interval_) {
    restarts_.push_back(static_cast<uint32_t>(buffer_.size()));
    estimate_ += sizeof(uint32_t);
    counter_ = 0;
  } else if (use_delta_encoding_) {
    const size_t min_len = std::min(last_key_.size(), key.size());
    while (shared < min_len && last_key_[shared] == key[shared]) ++shared;
  }
  const size_t non_shared = key.size() - shared;
  // Index entries with delta values carry no value length; their value is
  // the full one at entries that share nothing with the previous key.
  const Slice& value = (delta_value != nullptr && shared != 0) ? *delta_value : full_value;
  char header[15];
  char* p = EncodeVarint32(header, static_cast<uint32_t>(shared));
  p = EncodeVarint32(p, static_cast<uint32_t>(non_shared));
  if (delta_value == nullptr) p = EncodeVarint32(p, static_cast<uint32_t>(value.size()));
  buffer_.append(header, static_cast<size_t>(p - header));
  buffer_.append(key.data() + shared, non_shared);
  buffer_.append(value.data(), value.size());

  if (use_delta_encoding_) {
    last_key_.resize(shared);
    last_key_.append(key.data() + shared, non_shared);
  }
  if (use_hash_index_) {
    assert(key.size() >= kTrailerSize);
    hash_index_.Add(Slice(key.data(), key.size() - kTrailerSize), restarts_.size() - 1);
  }
  ++counter_;
  estimate_ += buffer_.size() - before;
}

Slice BlockBuilder::Finish() {
  for (uint32_t r : restarts_) PutFixed32(&buffer_, r);
  uint32_t footer = static_cast<uint32_t>(restarts_.size());
  if (use_hash_index_ && hash_index_.Valid() &&
      CurrentSizeEstimate() <= kMaxBlockSizeSupportedByHashIndex) {
    hash_index_.Finish(&buffer_);
    footer |= 1u << 31;
  }
  PutFixed32(&buffer_, footer);
  finished_ = true;
  return Slice(buffer_);
}

}  // namespace strata
