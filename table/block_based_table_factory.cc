// BlockBasedTableFactory and NewBlockBasedTableFactory (contract in
// table/block_based_table_factory.h and strata/table.h).

#include "table/block_based_table_factory.h"

#include "strata/cache.h"

namespace strata {

TableFactory::~TableFactory() = default;

BlockBasedTableFactory::BlockBasedTableFactory(const BlockBasedTableOptions& options)
    : options_(options) {
  // As RocksDB: partitioned filters need the partitioned index.
  if (options_.partition_filters &&
      options_.index_type != BlockBasedTableOptions::IndexType::kTwoLevelIndexSearch) {
    options_.partition_filters = false;
  }
  if (options_.no_block_cache) {
    options_.block_cache.reset();
  } else if (options_.block_cache == nullptr) {
    options_.block_cache = NewLRUCache(kDefaultBlockCacheCapacity);
  }
}

BlockBasedTableFactory::~BlockBasedTableFactory() = default;

std::shared_ptr<TableFactory> NewBlockBasedTableFactory(const BlockBasedTableOptions& options) {
  return std::make_shared<BlockBasedTableFactory>(options);
}

const BlockBasedTableOptions& GetBlockBasedTableOptions(const TableFactory* factory) {
  if (factory != nullptr) return factory->table_options();
  // Leaked on purpose: tables may be read during static destruction.
  static const TableFactory* const default_factory = new BlockBasedTableFactory();
  return default_factory->table_options();
}

}  // namespace strata
