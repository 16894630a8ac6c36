// rocksdb/filter_policy.h: per-table key filters. RocksDB's factories return
// a raw pointer that the caller puts in a shared_ptr
// (table_options.filter_policy.reset(NewBloomFilterPolicy(10))), while
// Strata's return a shared_ptr; so the FilterPolicy here is our own small
// class that holds the Strata policy it stands for. Only the built-in
// policies exist: a user subclass of FilterPolicy is refused at Open.
// - Type() is "FilterPolicy". CreateFromString knows RocksDB's forms
//   "bloomfilter:<bits>[:<ignored bool>]", "ribbonfilter:<bits>[:<bloom
//   before level>]", "rocksdb.BuiltinBloomFilter" (a Bloom policy of 10
//   bits per key) and "" / "nullptr" (no policy); other ids are
//   NotSupported ("Could not load FilterPolicy: <id>"), or OK leaving
//   *result unchanged when ignore_unsupported_options is set, as RocksDB.
// - FilterBitsBuilder / FilterBitsReader are RocksDB's internal filter
//   classes, declared only: GetBuilderWithContext and GetFilterBitsReader
//   return nullptr (Strata's filter builders and readers are internal).
// Thread-safety: immutable after construction.
#pragma once

#include <memory>
#include <string>

#include "rocksdb/advanced_options.h"
#include "rocksdb/env.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "strata/filter_policy.h"
#include "strata/listener.h"

namespace rocksdb {
struct BlockBasedTableOptions;
struct ConfigOptions;
class FilterBitsBuilder;
class FilterBitsReader;
using TableFileCreationReason = ::strata::TableFileCreationReason;

// What a filter policy learns about the table file a filter is built for.
struct FilterBuildingContext {
  FilterBuildingContext(const BlockBasedTableOptions& table_options);  // NOLINT: RocksDB's
  const BlockBasedTableOptions& table_options;
  CompactionStyle compaction_style = kCompactionStyleLevel;
  int num_levels = -1;
  Logger* info_log = nullptr;
  std::string column_family_name;
  int level_at_creation = -1;
  bool is_bottommost = false;
  TableFileCreationReason reason = TableFileCreationReason::kMisc;
};

class FilterPolicy {
 public:
  // Built-in policies only; `impl` is the Strata policy, or null for a user
  // subclass (which Open refuses).
  explicit FilterPolicy(std::shared_ptr<const ::strata::FilterPolicy> impl = nullptr)
      : impl_(std::move(impl)) {}
  virtual ~FilterPolicy();
  static const char* Type() { return "FilterPolicy"; }
  static Status CreateFromString(const ConfigOptions& config_options, const std::string& value,
                                 std::shared_ptr<const FilterPolicy>* result);
  // "bloomfilter" / "ribbonfilter"-style names of the policy underneath.
  virtual const char* Name() const;
  virtual const char* CompatibilityName() const;
  // nullptr (see above).
  virtual FilterBitsBuilder* GetBuilderWithContext(const FilterBuildingContext&) const;
  virtual FilterBitsReader* GetFilterBitsReader(const Slice& /*contents*/) const;
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
