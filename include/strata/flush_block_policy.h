// FlushBlockPolicy: decides where a table's data blocks end
// (BlockBasedTableOptions::flush_block_policy_factory), RocksDB 7.8.3's
// interface. The table builder makes one policy per table file and, before
// adding each entry, calls Update(internal key, value): true closes the
// current data block first (ignored while the block is empty), so the
// entry starts the next block. The default (a null factory, or
// FlushBlockBySizePolicyFactory) closes a block when it reaches block_size,
// or earlier when the entry would overflow block_size while the block is
// already more than (100 - block_size_deviation)% full.
// Thread-safety: a factory is shared by every table the family writes and
// must be thread-safe; a policy is used by one table builder (one thread).
// Invariants: Update sees every point entry of the table, in order, once.
#pragma once

#include <cstddef>
#include <memory>

#include "strata/export.h"
#include "strata/slice.h"

namespace strata {

struct BlockBasedTableOptions;

// What a policy may read of the data block being built (RocksDB passes its
// internal BlockBuilder; Strata passes this view of it). Borrowed from the
// table builder; valid for the policy's lifetime.
class STRATA_EXPORT DataBlockView {
 public:
  virtual ~DataBlockView();
  // No entry added since the block was last closed.
  virtual bool empty() const = 0;
  // The block's encoded size so far.
  virtual size_t CurrentSizeEstimate() const = 0;
  // Its size once (key, value) is added.
  virtual size_t EstimateSizeAfterKV(const Slice& key, const Slice& value) const = 0;
};

class STRATA_EXPORT FlushBlockPolicy {
 public:
  virtual ~FlushBlockPolicy();
  // key: the entry's internal key (user key + 8-byte trailer). True: close
  // the current block before this entry.
  virtual bool Update(const Slice& key, const Slice& value) = 0;
};

class STRATA_EXPORT FlushBlockPolicyFactory {
 public:
  virtual ~FlushBlockPolicyFactory();
  static const char* Type() { return "FlushBlockPolicyFactory"; }
  // Written to the OPTIONS file; names the factory when read back.
  virtual const char* Name() const = 0;
  // A policy for one table (owned by the caller); table_options and
  // data_block outlive it. Null: the default size policy.
  virtual std::unique_ptr<FlushBlockPolicy> NewFlushBlockPolicy(
      const BlockBasedTableOptions& table_options, const DataBlockView& data_block) const = 0;
};

// The default: blocks cut by size (see the top).
class STRATA_EXPORT FlushBlockBySizePolicyFactory : public FlushBlockPolicyFactory {
 public:
  static const char* kClassName() { return "FlushBlockBySizePolicyFactory"; }
  const char* Name() const override { return kClassName(); }
  std::unique_ptr<FlushBlockPolicy> NewFlushBlockPolicy(
      const BlockBasedTableOptions& table_options, const DataBlockView& data_block) const override;
  // The size policy with these parameters.
  static std::unique_ptr<FlushBlockPolicy> NewFlushBlockPolicy(size_t size, int deviation,
                                                               const DataBlockView& data_block);
};

// One entry per data block (RocksDB registers this name too; it is not in
// its public header).
class STRATA_EXPORT FlushBlockEveryKeyPolicyFactory : public FlushBlockPolicyFactory {
 public:
  static const char* kClassName() { return "FlushBlockEveryKeyPolicyFactory"; }
  const char* Name() const override { return kClassName(); }
  std::unique_ptr<FlushBlockPolicy> NewFlushBlockPolicy(
      const BlockBasedTableOptions& table_options, const DataBlockView& data_block) const override;
};

}  // namespace strata
