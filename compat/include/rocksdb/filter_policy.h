// rocksdb/filter_policy.h: per-table key filters. RocksDB's factories return
// a raw pointer that the caller puts in a shared_ptr
// (table_options.filter_policy.reset(NewBloomFilterPolicy(10))), while
// Strata's return a shared_ptr; so the FilterPolicy here is our own small
// class that holds the Strata policy it stands for. Only the built-in
// policies exist: a user subclass of FilterPolicy is refused at Open.
// Thread-safety: immutable after construction.
#pragma once

#include <memory>

#include "rocksdb/rocksdb_namespace.h"
#include "strata/filter_policy.h"

namespace rocksdb {
class FilterPolicy {
 public:
  // Built-in policies only; `impl` is the Strata policy, or null for a user
  // subclass (which Open refuses).
  explicit FilterPolicy(std::shared_ptr<const ::strata::FilterPolicy> impl = nullptr)
      : impl_(std::move(impl)) {}
  virtual ~FilterPolicy();
  // "bloomfilter" / "ribbonfilter"-style names of the policy underneath.
  virtual const char* Name() const;
  virtual const char* CompatibilityName() const;
  // The Strata policy, or null.
  const std::shared_ptr<const ::strata::FilterPolicy>& strata_policy() const { return impl_; }

 private:
  std::shared_ptr<const ::strata::FilterPolicy> impl_;
};

// A full-filter Bloom policy. use_block_based_builder is ignored by RocksDB
// 7.x as well (the block-based format is gone); it is accepted for the
// signature.
const FilterPolicy* NewBloomFilterPolicy(double bits_per_key, bool use_block_based_builder = false);
// A Ribbon filter sized like a Bloom filter of that many bits per key;
// levels below bloom_before_level use Bloom.
const FilterPolicy* NewRibbonFilterPolicy(double bloom_equivalent_bits_per_key,
                                          int bloom_before_level = 0);
}  // namespace rocksdb
