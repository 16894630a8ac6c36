// The SstPartitioner classes (include/strata/sst_partitioner.h).
#include "strata/sst_partitioner.h"

#include <algorithm>

namespace strata {

SstPartitioner::~SstPartitioner() = default;
SstPartitionerFactory::~SstPartitionerFactory() = default;
SstPartitionerFixedPrefix::~SstPartitionerFixedPrefix() = default;
SstPartitionerFixedPrefixFactory::~SstPartitionerFixedPrefixFactory() = default;

PartitionerResult SstPartitionerFixedPrefix::ShouldPartition(const PartitionerRequest& request) {
  const Slice& prev = *request.prev_user_key;
  const Slice& cur = *request.current_user_key;
  const Slice a(prev.data(), std::min(prev.size(), len_));
  const Slice b(cur.data(), std::min(cur.size(), len_));
  return a.compare(b) != 0 ? kRequired : kNotRequired;
}

bool SstPartitionerFixedPrefix::CanDoTrivialMove(const Slice& smallest_user_key,
                                                 const Slice& largest_user_key) {
  return ShouldPartition(PartitionerRequest(smallest_user_key, largest_user_key, 0)) ==
         kNotRequired;
}

std::unique_ptr<SstPartitioner> SstPartitionerFixedPrefixFactory::CreatePartitioner(
    const SstPartitioner::Context& /*context*/) const {
  return std::make_unique<SstPartitionerFixedPrefix>(len_);
}

std::shared_ptr<SstPartitionerFactory> NewSstPartitionerFixedPrefixFactory(size_t prefix_len) {
  return std::make_shared<SstPartitionerFixedPrefixFactory>(prefix_len);
}

}  // namespace strata
