// Memory budget and write buffer manager setup (see db/memory_budget.h).
#include "db/memory_budget.h"

#include <algorithm>

#include "cache/cache_reservation_manager.h"
#include "table/block_based_table_factory.h"

namespace strata {

Status SetUpDBMemory(DBOptions* o, MemoryBudgetPlan* plan, std::vector<std::string>* notes) {
  if (o->memory_budget > 0) {
    if (o->write_buffer_manager != nullptr) {
      return Status::InvalidArgument(
          "options.memory_budget and options.write_buffer_manager are exclusive: the budget "
          "makes its own WriteBufferManager");
    }
    if (o->db_write_buffer_size != 0) {
      return Status::InvalidArgument(
          "options.memory_budget and options.db_write_buffer_size are exclusive: the budget "
          "sizes the memtables itself");
    }
    if (o->memory_budget < (8u << 20)) {
      return Status::InvalidArgument("options.memory_budget must be 0 or at least 8 MiB, not " +
                                     std::to_string(o->memory_budget));
    }
    const size_t budget = static_cast<size_t>(o->memory_budget);
    // The cache's own bookkeeping (a handle per entry: ~130k handles per
    // 512 MiB of 4 KiB blocks) counts in the budget too.
    LRUCacheOptions cache_options;
    cache_options.capacity = budget - budget / kBudgetSlackDivisor;
    cache_options.metadata_charge_policy = CacheMetadataChargePolicy::kFullChargeCacheMetadata;
    plan->cache = NewLRUCache(cache_options);
    plan->write_buffer_manager = std::make_shared<WriteBufferManager>(
        budget / kBudgetMemtableShareDivisor, plan->cache, /*allow_stall=*/false);
    o->write_buffer_manager = plan->write_buffer_manager;
    if (o->table_mmap_reads) {
      // Blocks read in place from a mapping are resident memory the cache
      // cannot bound: under a budget they go through the block cache.
      o->table_mmap_reads = false;
      notes->push_back("options.table_mmap_reads turned off by memory_budget");
    }
    notes->push_back(
        "options.memory_budget " + std::to_string(budget) + ": one LRU block cache of " +
        std::to_string(budget - budget / kBudgetSlackDivisor) +
        " bytes for every family, memtables limited to " +
        std::to_string(budget / kBudgetMemtableShareDivisor) + " bytes and charged to it");
    return Status::OK();
  }
  if (o->write_buffer_manager == nullptr && o->db_write_buffer_size > 0) {
    plan->write_buffer_manager = std::make_shared<WriteBufferManager>(o->db_write_buffer_size);
    o->write_buffer_manager = plan->write_buffer_manager;
  }
  return Status::OK();
}

void ApplyMemoryBudget(const DBOptions& db, const MemoryBudgetPlan& plan, ColumnFamilyOptions* cf,
                       std::vector<std::string>* notes) {
  if (plan.cache == nullptr) return;
  const size_t cap = static_cast<size_t>(db.memory_budget / kBudgetWriteBufferCapDivisor);
  if (cf->write_buffer_size > cap) {
    notes->push_back("options.write_buffer_size " + std::to_string(cf->write_buffer_size) +
                     " capped to " + std::to_string(cap) + " by memory_budget");
    cf->write_buffer_size = cap;
  }
  BlockBasedTableOptions t = GetBlockBasedTableOptions(cf->table_factory.get());
  if (!t.no_block_cache) {
    // Folded in: the family's own block cache (set or default) is replaced.
    t.block_cache = plan.cache;
    CacheEntryRoleOptions& reader =
        t.cache_usage_options.options_overrides[CacheEntryRole::kBlockBasedTableReader];
    if (reader.charged == CacheEntryRoleOptions::Decision::kFallback) {
      reader.charged = CacheEntryRoleOptions::Decision::kEnabled;
    }
    // A filter's key hashes are the largest buffer of a flush or
    // compaction (8 bytes a key until the filter is written).
    CacheEntryRoleOptions& filter =
        t.cache_usage_options.options_overrides[CacheEntryRole::kFilterConstruction];
    if (filter.charged == CacheEntryRoleOptions::Decision::kFallback) {
      filter.charged = CacheEntryRoleOptions::Decision::kEnabled;
    }
    // Each live table's FileMetaData (its keys, ~300 bytes a file).
    CacheEntryRoleOptions& metadata =
        t.cache_usage_options.options_overrides[CacheEntryRole::kFileMetadata];
    if (metadata.charged == CacheEntryRoleOptions::Decision::kFallback) {
      metadata.charged = CacheEntryRoleOptions::Decision::kEnabled;
    }
  }
  cf->table_factory = NewBlockBasedTableFactory(t);
}

bool RoleCharged(const BlockBasedTableOptions& t, CacheEntryRole role) {
  return RoleCharged(t.cache_usage_options, role);
}

Status ValidateCacheUsageOptions(const BlockBasedTableOptions& t) {
  using Decision = CacheEntryRoleOptions::Decision;
  for (uint32_t i = 0; i < kNumCacheEntryRoles; ++i) {
    const CacheEntryRole role = static_cast<CacheEntryRole>(i);
    Decision d = Decision::kFallback;
    auto it = t.cache_usage_options.options_overrides.find(role);
    if (it != t.cache_usage_options.options_overrides.end()) d = it->second.charged;
    const bool built = role == CacheEntryRole::kBlockBasedTableReader ||
                       role == CacheEntryRole::kFilterConstruction ||
                       role == CacheEntryRole::kFileMetadata ||
                       role == CacheEntryRole::kCompressionDictionaryBuildingBuffer;
    // RocksDB refuses the roles it does not charge only through overrides;
    // the blanket `options` applies to the charged roles alone.
    if (d != Decision::kFallback && !built) {
      return Status::InvalidArgument(
          "BlockBasedTableOptions::cache_usage_options: charging the role " +
          GetCacheEntryRoleName(role) +
          " to the block cache is not supported (supported: block-based-table-reader, "
          "filter-construction, compression-dictionary-building-buffer, file-metadata; "
          "write-buffer through WriteBufferManager)");
    }
    // An explicit kEnabled needs a cache (the dictionary buffer's default
    // charge simply has nothing to charge without one).
    if (built && d == Decision::kEnabled && (t.no_block_cache || t.block_cache == nullptr)) {
      return Status::InvalidArgument("BlockBasedTableOptions::cache_usage_options: charging " +
                                     GetCacheEntryRoleName(role) + " needs a block cache");
    }
  }
  return Status::OK();
}

}  // namespace strata
