// The DB's side of memory accounting (issue 19; rule in
// docs/design/memory-budget.md):
//  - MemoryBudgetPlan: what DBOptions::memory_budget builds (one LRU block
//    cache of the budget, a WriteBufferManager of a quarter of it charged
//    to that cache) and how it folds into each family's options;
//  - WBMStallInterface: how a writer of this DB waits in a stall of a
//    (shared) WriteBufferManager;
//  - the checks of BlockBasedTableOptions::cache_usage_options.
// Thread-safety: MemoryBudgetPlan is plain data after Make; the stall
// interface is thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "strata/cache.h"
#include "strata/options.h"
#include "strata/status.h"
#include "strata/table.h"
#include "strata/write_buffer_manager.h"
#include "util/mutex.h"

namespace strata {

// The share of the budget the memtables get (the rest is the cache's, for
// blocks and table readers), and the cap of one memtable.
constexpr uint64_t kBudgetMemtableShareDivisor = 4;
// The part of the budget the cache does not get: the allocator's slack
// (free memory it holds between the cache's allocations and frees) and the
// buffers nothing charges (WAL writer, iterators, the cache's hash tables).
constexpr uint64_t kBudgetSlackDivisor = 16;
constexpr uint64_t kBudgetWriteBufferCapDivisor = 8;

struct MemoryBudgetPlan {
  std::shared_ptr<Cache> cache;  // memory_budget only
  // The manager the DB made (memory_budget or db_write_buffer_size; null
  // when the user gave one or none is used). GetOptions leaves it out, so
  // options read back reopen the same way.
  std::shared_ptr<WriteBufferManager> write_buffer_manager;
};

// Checks the DB options' memory settings and sets up the DB's
// WriteBufferManager: with memory_budget, *plan gets the budget's cache and
// manager; with db_write_buffer_size (and no manager), a private manager
// (in plan->write_buffer_manager too).
// o->write_buffer_manager is the manager the DB uses afterwards (null if
// none). Notes for the LOG go to *notes.
Status SetUpDBMemory(DBOptions* o, MemoryBudgetPlan* plan, std::vector<std::string>* notes);

// Folds the budget into one family's options (plan->cache set): the
// budget's cache replaces the family's block cache, table readers are
// charged to it, write_buffer_size is capped. No-op without a budget.
void ApplyMemoryBudget(const DBOptions& db, const MemoryBudgetPlan& plan, ColumnFamilyOptions* cf,
                       std::vector<std::string>* notes);

// InvalidArgument naming a role whose charging is set but not built, or
// asked without a block cache.
Status ValidateCacheUsageOptions(const BlockBasedTableOptions& t);

// Whether role's memory is charged (the decision resolved with RocksDB's
// precedence and the role's default).
bool RoleCharged(const BlockBasedTableOptions& t, CacheEntryRole role);

// A writer of this DB waits here while a WriteBufferManager stall is on.
class WBMStallInterface : public StallInterface {
 public:
  void Block() override EXCLUDES(mu_) {
    MutexLock l(&mu_);
    while (blocked_) cv_.Wait();
  }
  void Signal() override EXCLUDES(mu_) {
    MutexLock l(&mu_);
    blocked_ = false;
    cv_.SignalAll();
  }
  // Called before BeginWriteStall: the next Block waits for a Signal.
  void SetBlocked() EXCLUDES(mu_) {
    MutexLock l(&mu_);
    blocked_ = true;
  }

 private:
  Mutex mu_;
  CondVar cv_{&mu_};
  bool blocked_ GUARDED_BY(mu_) = false;
};

}  // namespace strata
