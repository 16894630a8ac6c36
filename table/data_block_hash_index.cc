#include "table/data_block_hash_index.h"

#include "util/coding.h"
#include "util/hash.h"

namespace strata {

uint32_t DataBlockHashIndexHash(const Slice& user_key) {
  return Hash32(user_key.data(), user_key.size(), kDataBlockHashIndexSeed);
}

void DataBlockHashIndexBuilder::Add(const Slice& user_key, size_t restart_index) {
  if (restart_index > kMaxRestartSupportedByHashIndex) {
    valid_ = false;
    return;
  }
  entries_.emplace_back(DataBlockHashIndexHash(user_key), static_cast<uint8_t>(restart_index));
  estimated_num_buckets_ += bucket_per_key_;
}

uint16_t DataBlockHashIndexBuilder::NumBuckets() const {
  // Clamp before the cast: a huge count is never used (the block would
  // exceed 64 KiB) but must not be undefined behaviour.
  const double n = estimated_num_buckets_ < 65535.0 ? estimated_num_buckets_ : 65535.0;
  return static_cast<uint16_t>(n);
}

size_t DataBlockHashIndexBuilder::EstimateSize() const {
  return sizeof(uint16_t) + static_cast<size_t>(NumBuckets() | 1);
}

void DataBlockHashIndexBuilder::Finish(std::string* buffer) const {
  uint16_t num_buckets = NumBuckets();
  if (num_buckets == 0) num_buckets = 1;
  num_buckets |= 1;
  const size_t start = buffer->size();
  buffer->append(num_buckets, static_cast<char>(kHashIndexNoEntry));
  char* buckets = buffer->data() + start;
  for (const auto& [hash, restart_index] : entries_) {
    auto& b = reinterpret_cast<uint8_t&>(buckets[hash % num_buckets]);
    if (b == kHashIndexNoEntry) {
      b = restart_index;
    } else if (b != restart_index) {
      b = kHashIndexCollision;
    }
  }
  PutFixed16(buffer, num_buckets);
}

void DataBlockHashIndexBuilder::Reset() {
  estimated_num_buckets_ = 0;
  valid_ = true;
  entries_.clear();
}

}  // namespace strata
