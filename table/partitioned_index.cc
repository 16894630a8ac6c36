#include "table/partitioned_index.h"

#include <algorithm>
#include <cassert>

#include "base/dbformat.h"
#include "util/coding.h"

namespace strata {

namespace {

void PutZigZag64(std::string* dst, int64_t v) {
  PutVarint64(dst, (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63));
}

}  // namespace

PartitionedIndexBuilder::PartitionedIndexBuilder(int restart_interval, uint64_t metadata_block_size,
                                                 int block_size_deviation)
    : restart_interval_(std::max(1, restart_interval)),
      metadata_block_size_(std::max<uint64_t>(1, metadata_block_size)),
      deviation_limit_((metadata_block_size_ *
                            static_cast<uint64_t>(100 - std::clamp(block_size_deviation, 0, 100)) +
                        99) /
                       100),
      top_with_seq_(restart_interval_, true),
      top_user_keys_(restart_interval_, true) {}

void PartitionedIndexBuilder::OpenPartition() {
  current_.with_seq = std::make_unique<BlockBuilder>(restart_interval_, true);
  current_.user_keys = std::make_unique<BlockBuilder>(restart_interval_, true);
  current_.key.clear();
  cut_requested_ = false;
}

void PartitionedIndexBuilder::MaybeCut(const Slice& last_key, const BlockHandle& handle,
                                       bool needs_sequence) {
  if (current_.with_seq == nullptr) return;
  // The size rule of RocksDB's block flush policy, applied to the form of
  // the partition that will be kept if nothing changes.
  const BlockBuilder& b = needs_sequence ? *current_.with_seq : *current_.user_keys;
  bool cut = cut_requested_;
  if (!cut && !b.empty()) {
    const size_t size = b.CurrentSizeEstimate();
    if (size >= metadata_block_size_) {
      cut = true;
    } else if (deviation_limit_ != 0) {
      handle_buf_.clear();
      handle.EncodeTo(&handle_buf_);
      cut = b.EstimateSizeAfterKV(last_key, handle_buf_, /*value_delta_encoded=*/true) >
                metadata_block_size_ &&
            size > deviation_limit_;
    }
  }
  if (!cut) return;
  ClosePartition();
}

void PartitionedIndexBuilder::ClosePartition() {
  current_.key = current_key_;
  current_.bytes =
      current_.with_seq->CurrentSizeEstimate() + current_.user_keys->CurrentSizeEstimate();
  closed_bytes_ += current_.bytes;
  closed_.push_back(std::move(current_));
  current_ = Partition();
  filter_cut_ = true;
}

void PartitionedIndexBuilder::AddEntry(const Slice& separator, const Slice& encoded_handle,
                                       const Slice& delta, bool last) {
  if (current_.with_seq == nullptr) OpenPartition();
  current_.with_seq->AddIndexEntry(separator, encoded_handle, delta);
  current_.user_keys->AddIndexEntry(ExtractUserKey(separator), encoded_handle, delta);
  current_key_.assign(separator.data(), separator.size());
  if (last) ClosePartition();
}

bool PartitionedIndexBuilder::NextPartition(bool needs_sequence, const BlockHandle& previous_handle,
                                            Slice* contents, Slice* top_level) {
  if (!finishing_) {
    finishing_ = true;
    num_partitions_ = closed_.size();
  } else {
    // Record the partition handed out last, now that it is written.
    handle_buf_.clear();
    previous_handle.EncodeTo(&handle_buf_);
    delta_buf_.clear();
    if (has_last_handle_) {
      PutZigZag64(&delta_buf_, static_cast<int64_t>(previous_handle.size()) -
                                   static_cast<int64_t>(last_handle_.size()));
    }
    top_with_seq_.AddIndexEntry(pending_key_, handle_buf_, delta_buf_);
    top_user_keys_.AddIndexEntry(ExtractUserKey(pending_key_), handle_buf_, delta_buf_);
    last_handle_ = previous_handle;
    has_last_handle_ = true;
    closed_bytes_ -= closed_.front().bytes;
    closed_.pop_front();
  }
  if (closed_.empty()) {
    *top_level = needs_sequence ? top_with_seq_.Finish() : top_user_keys_.Finish();
    top_level_size_ = top_level->size();
    raw_index_size_ += top_level_size_;
    return false;
  }
  Partition& p = closed_.front();
  pending_key_ = p.key;
  *contents = needs_sequence ? p.with_seq->Finish() : p.user_keys->Finish();
  raw_index_size_ += contents->size();
  return true;
}

}  // namespace strata
