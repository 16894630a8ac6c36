// The flush-block policies (include/strata/flush_block_policy.h).
#include "strata/flush_block_policy.h"

#include <algorithm>

#include "strata/table.h"

namespace strata {

DataBlockView::~DataBlockView() = default;
FlushBlockPolicy::~FlushBlockPolicy() = default;
FlushBlockPolicyFactory::~FlushBlockPolicyFactory() = default;

namespace {

// The size rule the table builder applies when no factory is set (the
// same arithmetic as BlockBasedTableBuilder::Add's inline check).
class FlushBlockBySizePolicy final : public FlushBlockPolicy {
 public:
  FlushBlockBySizePolicy(size_t size, int deviation, const DataBlockView& block)
      : limit_(std::max<size_t>(1, size)), block_(block) {
    const int dev = std::clamp(deviation, 0, 100);
    deviation_limit_ = (limit_ * static_cast<size_t>(100 - dev) + 99) / 100;
  }
  bool Update(const Slice& key, const Slice& value) override {
    if (block_.empty()) return false;
    const size_t current = block_.CurrentSizeEstimate();
    return current >= limit_ ||
           (current > deviation_limit_ && block_.EstimateSizeAfterKV(key, value) > limit_);
  }

 private:
  const size_t limit_;
  size_t deviation_limit_;
  const DataBlockView& block_;
};

class FlushBlockEveryKeyPolicy final : public FlushBlockPolicy {
 public:
  bool Update(const Slice& /*key*/, const Slice& /*value*/) override {
    // The first entry of a table starts the first block; every later one
    // starts its own.
    if (!started_) {
      started_ = true;
      return false;
    }
    return true;
  }

 private:
  bool started_ = false;
};

}  // namespace

std::unique_ptr<FlushBlockPolicy> FlushBlockBySizePolicyFactory::NewFlushBlockPolicy(
    const BlockBasedTableOptions& table_options, const DataBlockView& data_block) const {
  return NewFlushBlockPolicy(table_options.block_size, table_options.block_size_deviation,
                             data_block);
}

std::unique_ptr<FlushBlockPolicy> FlushBlockBySizePolicyFactory::NewFlushBlockPolicy(
    size_t size, int deviation, const DataBlockView& data_block) {
  return std::make_unique<FlushBlockBySizePolicy>(size, deviation, data_block);
}

std::unique_ptr<FlushBlockPolicy> FlushBlockEveryKeyPolicyFactory::NewFlushBlockPolicy(
    const BlockBasedTableOptions& /*table_options*/, const DataBlockView& /*data_block*/) const {
  return std::make_unique<FlushBlockEveryKeyPolicy>();
}

}  // namespace strata
