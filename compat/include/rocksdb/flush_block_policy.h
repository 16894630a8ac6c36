// rocksdb/flush_block_policy.h: RocksDB 7.8.3's data-block cutting policy
// (BlockBasedTableOptions::flush_block_policy_factory). RocksDB's classes:
// Open wraps a factory for Strata's table builder (include/strata/
// flush_block_policy.h), which asks the policy before adding each entry
// (the internal key and the value). BlockBuilder is opaque, as in RocksDB's
// public headers: a policy may keep the reference and hand it to
// FlushBlockBySizePolicyFactory::NewFlushBlockPolicy. The factories are not
// Customizables here: Name(), Type() and CreateFromString are offered
// (CreateFromString knows FlushBlockBySizePolicyFactory and
// FlushBlockEveryKeyPolicyFactory, RocksDB's two registered names).
// Thread-safety: a factory is shared and must be thread-safe; a policy is
// used by one table builder.
#pragma once

#include <memory>
#include <string>

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "rocksdb/table.h"

namespace rocksdb {

class BlockBuilder;    // opaque: the data block being built
struct ConfigOptions;  // rocksdb/convenience.h
struct Options;

class FlushBlockPolicy {
 public:
  // key: the entry's internal key. True: close the current block first.
  virtual bool Update(const Slice& key, const Slice& value) = 0;
  virtual ~FlushBlockPolicy() {}
};

class FlushBlockPolicyFactory {
 public:
  static const char* Type() { return "FlushBlockPolicyFactory"; }
  static Status CreateFromString(const ConfigOptions& config_options, const std::string& value,
                                 std::shared_ptr<FlushBlockPolicyFactory>* result);

  virtual const char* Name() const = 0;
  // A policy for one table, owned by the caller (null: the size policy).
  virtual FlushBlockPolicy* NewFlushBlockPolicy(const BlockBasedTableOptions& table_options,
                                                const BlockBuilder& data_block_builder) const = 0;

  virtual ~FlushBlockPolicyFactory() {}
};

class FlushBlockBySizePolicyFactory : public FlushBlockPolicyFactory {
 public:
  FlushBlockBySizePolicyFactory();

  static const char* kClassName() { return "FlushBlockBySizePolicyFactory"; }
  const char* Name() const override { return kClassName(); }

  FlushBlockPolicy* NewFlushBlockPolicy(const BlockBasedTableOptions& table_options,
                                        const BlockBuilder& data_block_builder) const override;

  static FlushBlockPolicy* NewFlushBlockPolicy(const uint64_t size, const int deviation,
                                               const BlockBuilder& data_block_builder);
};

}  // namespace rocksdb
