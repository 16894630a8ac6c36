#include "table/partitioned_filter_block.h"

#include <algorithm>
#include <cassert>
#include <utility>

#include "base/dbformat.h"
#include "util/coding.h"

namespace strata {

PartitionedFilterBlockBuilder::PartitionedFilterBlockBuilder(
    std::unique_ptr<FilterBitsBuilder> bits_builder, const SliceTransform* prefix_extractor,
    bool whole_key_filtering, int restart_interval, PartitionedIndexBuilder* index,
    size_t partition_bytes)
    : bits_(std::move(bits_builder)),
      prefix_extractor_(prefix_extractor),
      whole_key_filtering_(whole_key_filtering),
      index_(index),
      top_with_seq_(std::max(1, restart_interval), true),
      top_user_keys_(std::max(1, restart_interval), true) {
  assert(bits_ != nullptr && index_ != nullptr);
  keys_per_partition_ = bits_->ApproximateNumEntries(partition_bytes);
  if (keys_per_partition_ < 1) {
    // The partition is smaller than the smallest filter: grow the size
    // until one key fits (RocksDB's search, with its fallback of one key
    // per byte).
    size_t larger = std::max(partition_bytes + 4, size_t{16});
    for (;;) {
      keys_per_partition_ = bits_->ApproximateNumEntries(larger);
      if (keys_per_partition_ >= 1) break;
      larger += larger / 4;
      if (larger > 100000) {
        keys_per_partition_ = partition_bytes;
        break;
      }
    }
  }
}

void PartitionedFilterBlockBuilder::AddKey(const Slice& key) {
  bits_->AddKey(key);
  any_added_ = true;
  ++keys_in_partition_;
}

void PartitionedFilterBlockBuilder::MaybeCut(const Slice* next_key) {
  // Asked once; the index builder cuts at its next entry.
  if (keys_in_partition_ == keys_per_partition_) index_->RequestCut();
  if (!index_->TakeFilterCut()) return;
  // The next key's prefix goes into the partition being closed too, so
  // that a prefix seek landing on this partition sees it.
  if (next_key != nullptr && prefix_extractor_ != nullptr &&
      prefix_extractor_->InDomain(*next_key)) {
    const Slice prefix = prefix_extractor_->Transform(*next_key);
    if (prefix.compare(Slice(last_prefix_)) != 0) AddKey(prefix);
  }
  total_added_ += bits_->EstimateEntriesAdded();
  Partition p;
  p.key = index_->partition_key();
  p.filter = bits_->Finish(&p.data);
  held_bytes_ += p.filter.size();
  partitions_.push_back(std::move(p));
  keys_in_partition_ = 0;
  last_whole_key_recorded_ = false;
  last_prefix_recorded_ = false;
}

void PartitionedFilterBlockBuilder::Add(const Slice& user_key) {
  MaybeCut(&user_key);
  const bool add_prefix = prefix_extractor_ != nullptr && prefix_extractor_->InDomain(user_key);
  if (!last_prefix_recorded_ && last_key_in_domain_) {
    // A new partition starts with the previous key's prefix (RocksDB's
    // rule, for prefix SeekForPrev).
    AddKey(last_prefix_);
    last_prefix_recorded_ = true;
  }
  if (whole_key_filtering_) {
    if (!add_prefix) {
      AddKey(user_key);
    } else if (!last_whole_key_recorded_ || Slice(last_whole_key_) != user_key) {
      AddKey(user_key);
      last_whole_key_recorded_ = true;
      last_whole_key_.assign(user_key.data(), user_key.size());
    }
  }
  last_key_in_domain_ = add_prefix;
  if (!add_prefix) return;
  const Slice prefix = prefix_extractor_->Transform(user_key);
  if (!whole_key_filtering_) {
    AddKey(prefix);
  } else if (!last_prefix_recorded_ || Slice(last_prefix_) != prefix) {
    AddKey(prefix);
    last_prefix_recorded_ = true;
    last_prefix_.assign(prefix.data(), prefix.size());
  }
}

bool PartitionedFilterBlockBuilder::NextPartition(bool needs_sequence,
                                                  const BlockHandle& previous_handle,
                                                  Slice* contents, Slice* top_level) {
  if (!finishing_) {
    MaybeCut(nullptr);
    finishing_ = true;
  } else {
    handle_buf_.clear();
    previous_handle.EncodeTo(&handle_buf_);
    delta_buf_.clear();
    if (has_last_handle_) {
      const int64_t d =
          static_cast<int64_t>(previous_handle.size()) - static_cast<int64_t>(last_handle_.size());
      PutVarint64(&delta_buf_, (static_cast<uint64_t>(d) << 1) ^ static_cast<uint64_t>(d >> 63));
    }
    top_with_seq_.AddIndexEntry(pending_key_, handle_buf_, delta_buf_);
    top_user_keys_.AddIndexEntry(ExtractUserKey(pending_key_), handle_buf_, delta_buf_);
    last_handle_ = previous_handle;
    has_last_handle_ = true;
  }
  pending_data_.reset();
  if (partitions_.empty()) {
    *top_level = needs_sequence ? top_with_seq_.Finish() : top_user_keys_.Finish();
    return false;
  }
  Partition& p = partitions_.front();
  pending_key_ = std::move(p.key);
  pending_data_ = std::move(p.data);
  *contents = p.filter;
  held_bytes_ -= p.filter.size();
  partitions_.pop_front();
  return true;
}

}  // namespace strata
