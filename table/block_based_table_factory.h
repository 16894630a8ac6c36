// BlockBasedTableFactory: the one TableFactory (strata/table.h). It holds the
// column family's BlockBasedTableOptions with the block cache resolved, so
// every table builder and reader made for the column family shares it.
//
// Thread-safety: immutable after construction; thread-safe.
// Invariants:
//  1. table_options().block_cache is non-null unless no_block_cache is set:
//     a null cache in the given options is replaced, once, in the
//     constructor by a private NewLRUCache(32 MiB) (RocksDB's default).
//  2. With no_block_cache set, table_options().block_cache is null.
#pragma once

#include <memory>

#include "strata/table.h"

namespace strata {

class BlockBasedTableFactory final : public TableFactory {
 public:
  // Capacity of the cache made when the options have none.
  static constexpr size_t kDefaultBlockCacheCapacity = 32 << 20;

  explicit BlockBasedTableFactory(const BlockBasedTableOptions& options = BlockBasedTableOptions());
  ~BlockBasedTableFactory() override;

  const char* Name() const override { return "BlockBasedTable"; }
  const BlockBasedTableOptions& table_options() const override { return options_; }

 private:
  BlockBasedTableOptions options_;
};

// The options of `factory` (its table_options()). A null factory means
// ColumnFamilyOptions::table_factory was left unset: the result is then the
// options of one process-wide default factory (default options and one
// shared 32 MiB cache, never destroyed). Code opening a DB should rather
// fill an unset table_factory with NewBlockBasedTableFactory() so each DB
// has its own cache. The reference stays valid while `factory` lives
// (forever for null).
const BlockBasedTableOptions& GetBlockBasedTableOptions(const TableFactory* factory);

}  // namespace strata
