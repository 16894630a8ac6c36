// Memory accounting of the DB (issue 19): a WriteBufferManager shared by
// column families and DBs triggers flushes of the oldest memtable and,
// with allow_stall, blocks and releases writers; memtables, table readers
// are charged to the block cache; memory_budget keeps the cache usage
// (which holds the memtables' and readers' charges) within the budget.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <random>
#include <thread>

#include "cache/cache_reservation_manager.h"
#include "strata/cache.h"
#include "strata/listener.h"
#include "strata/statistics.h"
#include "strata/table.h"
#include "strata/write_buffer_manager.h"
#include "test_util/db_test_base.h"
#include "util/sync_point.h"

namespace strata {
namespace {

constexpr size_t kKiB = 1024;
constexpr size_t kMiB = 1024 * 1024;
constexpr size_t kDummy = CacheReservationManager::kSizeDummyEntry;

class FlushReasons : public EventListener {
 public:
  void OnFlushCompleted(DB*, const FlushJobInfo& info) override {
    std::lock_guard<std::mutex> l(mu);
    flushes.emplace_back(info.cf_name, info.flush_reason);
  }
  std::mutex mu;
  std::vector<std::pair<std::string, FlushReason>> flushes;
};

class DBMemoryTest : public DBTestBase {
 protected:
  DBMemoryTest() : DBTestBase("db_memory_test") {}

  Options BigMemtables() {
    Options o = SmallOptions();
    o.write_buffer_size = 64 * kMiB;  // memtables never fill on their own
    o.max_write_buffer_number = 4;
    o.disable_auto_compactions = true;
    o.arena_block_size = 16 * kKiB;
    return o;
  }
  static std::string Value(size_t n, int seed) { return std::string(n, 'a' + seed % 26); }
};

TEST_F(DBMemoryTest, DbWriteBufferSizeFlushesTheOldestFamily) {
  auto reasons = std::make_shared<FlushReasons>();
  Options o = BigMemtables();
  o.db_write_buffer_size = 1 * kMiB;
  o.listeners.push_back(reasons);
  Open(o);
  ColumnFamilyHandle* b = nullptr;
  ASSERT_OK(db_->CreateColumnFamily(o, "b", &b));
  // The default family's memtable is the older one...
  for (int i = 0; i < 100; ++i) ASSERT_OK(Put("d" + std::to_string(i), Value(1000, i)));
  // ...then family b grows until the manager's limit (7/8 of 1 MiB).
  for (int i = 0; i < 1000 && reasons->flushes.empty(); ++i) {
    ASSERT_OK(db_->Put(WriteOptions(), b, "b" + std::to_string(i), Value(1000, i)));
    ASSERT_OK(dbfull()->WaitForCompact());
  }
  {
    std::lock_guard<std::mutex> l(reasons->mu);
    ASSERT_FALSE(reasons->flushes.empty());
    EXPECT_EQ(reasons->flushes[0].first, "default");
    EXPECT_EQ(reasons->flushes[0].second, FlushReason::kWriteBufferManager);
  }
  // All data still there; the manager bounds the memtables (one more
  // group over the limit at most).
  for (int i = 0; i < 2000; ++i) {
    ASSERT_OK(db_->Put(WriteOptions(), b, "x" + std::to_string(i), Value(1000, i)));
  }
  ASSERT_OK(dbfull()->WaitForCompact());
  uint64_t mem = 0;
  ASSERT_TRUE(db_->GetIntProperty(b, "rocksdb.cur-size-all-mem-tables", &mem));
  EXPECT_LT(mem, 2 * kMiB);
  EXPECT_EQ(Get("d5"), Value(1000, 5));
  std::string v;
  ASSERT_OK(db_->Get(ReadOptions(), b, "x1999", &v));
  EXPECT_EQ(v, Value(1000, 1999));
  ASSERT_OK(db_->DestroyColumnFamilyHandle(b));
}

// A limit far below write_buffer_size: fresh memtables are small beside it
// (their arena blocks are sized from the limit), so writes do not switch
// the memtable one by one.
TEST_F(DBMemoryTest, SmallLimitDoesNotSwitchOnEveryWrite) {
  Options o = SmallOptions();
  o.write_buffer_size = 64 * kMiB;
  o.arena_block_size = 0;  // derived
  o.db_write_buffer_size = 4 * kMiB;
  o.disable_auto_compactions = true;
  Open(o);
  for (int i = 0; i < 20000; ++i) ASSERT_OK(Put("k" + std::to_string(i), Value(100, i)));
  ASSERT_OK(dbfull()->WaitForCompact());
  // ~2.5 MB of data under a 4 MiB limit: at most one switch.
  EXPECT_LE(IntProperty("rocksdb.num-files-at-level0"), 1u);
  for (int i = 0; i < 40000; ++i) ASSERT_OK(Put("m" + std::to_string(i), Value(100, i)));
  ASSERT_OK(dbfull()->WaitForCompact());
  // ~5 MB more: a few switches at the limit, not thousands.
  EXPECT_LE(IntProperty("rocksdb.num-files-at-level0"), 6u);
  EXPECT_EQ(Get("m39999"), Value(100, 39999));
}

TEST_F(DBMemoryTest, ManagerSharedByTwoDBs) {
  auto wbm = std::make_shared<WriteBufferManager>(2 * kMiB);
  Options o = BigMemtables();
  o.write_buffer_manager = wbm;
  Open(o);
  test::TempDir other_dir("db_memory_test_other");
  std::unique_ptr<DB> other;
  ASSERT_OK(DB::Open(o, other_dir.path() + "/db", &other));
  for (int i = 0; i < 500; ++i) ASSERT_OK(Put("a" + std::to_string(i), Value(1000, i)));
  const size_t after_first = wbm->memory_usage();
  EXPECT_GT(after_first, 500 * 1000u);
  for (int i = 0; i < 500; ++i) {
    ASSERT_OK(other->Put(WriteOptions(), "b" + std::to_string(i), Value(1000, i)));
  }
  // Both DBs' memtables count in the one manager.
  EXPECT_GT(wbm->memory_usage(), after_first + 500 * 1000u);
  // The second DB's writes crossed the limit: it flushed its own memtable.
  for (int i = 0; i < 3000; ++i) {
    ASSERT_OK(other->Put(WriteOptions(), "c" + std::to_string(i), Value(1000, i)));
  }
  ASSERT_OK(static_cast<DBImpl*>(other.get())->WaitForCompact());
  EXPECT_LT(wbm->memory_usage(), 3 * kMiB);
  std::string files;
  ASSERT_TRUE(other->GetProperty("rocksdb.num-files-at-level0", &files));
  EXPECT_NE(files, "0");
  ASSERT_OK(other->Close());
  other.reset();
  // Closing a DB frees its memtables' share.
  EXPECT_EQ(wbm->memory_usage(), IntProperty("rocksdb.cur-size-all-mem-tables"));
  Close();
  EXPECT_EQ(wbm->memory_usage(), 0u);
}

TEST_F(DBMemoryTest, AllowStallBlocksWritersOfAnotherDBUntilAFlushFreesMemory) {
  auto wbm = std::make_shared<WriteBufferManager>(1 * kMiB, nullptr, /*allow_stall=*/true);
  Options o = BigMemtables();
  o.write_buffer_manager = wbm;
  Open(o);
  test::TempDir other_dir("db_memory_test_stall");
  std::unique_ptr<DB> other;
  ASSERT_OK(DB::Open(o, other_dir.path() + "/db", &other));
  // One batch takes this DB's memtable past the limit.
  WriteBatch batch;
  for (int i = 0; i < 1200; ++i) ASSERT_OK(batch.Put("k" + std::to_string(i), Value(1000, i)));
  ASSERT_OK(db_->Write(WriteOptions(), &batch));
  ASSERT_TRUE(wbm->ShouldStall());
  // A no_slowdown writer of the other DB is turned away at once.
  WriteOptions no_slowdown;
  no_slowdown.no_slowdown = true;
  EXPECT_TRUE(other->Put(no_slowdown, "x", "y").IsIncomplete());
  std::atomic<bool> done{false};
  std::thread writer([&] {
    EXPECT_OK(other->Put(WriteOptions(), "x", "y"));
    done.store(true);
  });
  while (!wbm->IsStallActive()) std::this_thread::yield();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(done.load());  // waits: nothing of its own DB to flush
  // The first DB's flush frees its memtable and ends the stall.
  ASSERT_OK(db_->Flush(FlushOptions()));
  writer.join();
  EXPECT_TRUE(done.load());
  EXPECT_FALSE(wbm->ShouldStall());
  std::string v;
  ASSERT_OK(other->Get(ReadOptions(), "x", &v));
  EXPECT_EQ(v, "y");
  ASSERT_OK(other->Close());
}

TEST_F(DBMemoryTest, CostToCacheChargesMemtablesAndReleasesThem) {
  std::shared_ptr<Cache> cache = NewLRUCache(32 * kMiB);
  auto wbm = std::make_shared<WriteBufferManager>(0, cache);
  Options o = BigMemtables();
  o.write_buffer_manager = wbm;
  BlockBasedTableOptions t;
  t.block_cache = cache;
  o.table_factory = NewBlockBasedTableFactory(t);
  Open(o);
  for (int i = 0; i < 3000; ++i) ASSERT_OK(Put("k" + std::to_string(i), Value(1000, i)));
  const size_t used = wbm->memory_usage();
  EXPECT_GT(used, 3000 * 1000u);
  EXPECT_EQ(wbm->dummy_entries_in_cache_usage(), (used + kDummy - 1) / kDummy * kDummy);
  EXPECT_EQ(cache->GetUsage(), wbm->dummy_entries_in_cache_usage());
  std::map<std::string, std::string> stats;
  ASSERT_TRUE(db_->GetMapProperty("rocksdb.block-cache-entry-stats", &stats));
  EXPECT_EQ(stats["bytes.write-buffer"], std::to_string(wbm->dummy_entries_in_cache_usage()));
  EXPECT_EQ(stats["capacity"], std::to_string(32 * kMiB));
  ASSERT_OK(db_->Flush(FlushOptions()));
  ASSERT_OK(dbfull()->WaitForCompact());
  // The flushed memtable's charge is gone; a fresh empty one remains.
  EXPECT_LT(wbm->memory_usage(), 256 * kKiB);
  EXPECT_LE(wbm->dummy_entries_in_cache_usage(), kDummy);
  Close();
  EXPECT_EQ(wbm->dummy_entries_in_cache_usage(), 0u);
  EXPECT_EQ(cache->GetUsage(), 0u);
}

TEST_F(DBMemoryTest, TableReadersChargedToTheBlockCache) {
  std::shared_ptr<Cache> cache = NewLRUCache(32 * kMiB);
  Options o = SmallOptions();
  o.disable_auto_compactions = true;
  BlockBasedTableOptions t;
  t.block_cache = cache;
  t.filter_policy = NewBloomFilterPolicy(10);
  t.cache_usage_options.options_overrides[CacheEntryRole::kBlockBasedTableReader].charged =
      CacheEntryRoleOptions::Decision::kEnabled;
  o.table_factory = NewBlockBasedTableFactory(t);
  Open(o);
  for (int f = 0; f < 4; ++f) {
    for (int i = 0; i < 2000; ++i) ASSERT_OK(Put("k" + std::to_string(f * 2000 + i), "v"));
    ASSERT_OK(db_->Flush(FlushOptions()));
  }
  for (int i = 0; i < 8000; i += 100) EXPECT_EQ(Get("k" + std::to_string(i)), "v");
  uint64_t readers = 0;
  ASSERT_TRUE(db_->GetIntProperty("rocksdb.estimate-table-readers-mem", &readers));
  ASSERT_GT(readers, 0u);
  const size_t charged =
      CacheReservationManager::ChargedBytes(cache.get(), CacheEntryRole::kBlockBasedTableReader);
  EXPECT_EQ(charged, (readers + kDummy - 1) / kDummy * kDummy);
  Close();
  EXPECT_EQ(
      CacheReservationManager::ChargedBytes(cache.get(), CacheEntryRole::kBlockBasedTableReader),
      0u);
}

TEST_F(DBMemoryTest, ChargingARoleNotBuiltIsRefused) {
  for (CacheEntryRole role : {CacheEntryRole::kBlobCache, CacheEntryRole::kWriteBuffer,
                              CacheEntryRole::kDataBlock, CacheEntryRole::kIndexBlock}) {
    Options o = SmallOptions();
    BlockBasedTableOptions t;
    t.cache_usage_options.options_overrides[role].charged =
        CacheEntryRoleOptions::Decision::kEnabled;
    o.table_factory = NewBlockBasedTableFactory(t);
    Status s = TryReopen(o);
    ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(s.ToString().find(GetCacheEntryRoleName(role)), std::string::npos) << s.ToString();
  }
  // A built role asked for without a block cache is refused too.
  Options o = SmallOptions();
  BlockBasedTableOptions t;
  t.no_block_cache = true;
  t.cache_usage_options.options_overrides[CacheEntryRole::kFilterConstruction].charged =
      CacheEntryRoleOptions::Decision::kEnabled;
  o.table_factory = NewBlockBasedTableFactory(t);
  Status s = TryReopen(o);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("needs a block cache"), std::string::npos) << s.ToString();
}

TEST_F(DBMemoryTest, MemoryBudgetRefusesASecondManager) {
  Options o = SmallOptions();
  o.memory_budget = 64 * kMiB;
  o.write_buffer_manager = std::make_shared<WriteBufferManager>(kMiB);
  Status s = TryReopen(o);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("memory_budget"), std::string::npos);
  o.write_buffer_manager.reset();
  o.db_write_buffer_size = kMiB;
  s = TryReopen(o);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  o.db_write_buffer_size = 0;
  // Options read back from a budgeted DB reopen it (the manager the budget
  // made is not handed out).
  o.write_buffer_size = 64 * kMiB;
  ASSERT_OK(TryReopen(o));
  Options back = db_->GetOptions();
  EXPECT_EQ(back.write_buffer_manager, nullptr);
  EXPECT_EQ(back.memory_budget, 64 * kMiB);
  EXPECT_EQ(back.write_buffer_size, 8 * kMiB);  // capped at budget / 8
  ASSERT_OK(TryReopen(back));
  o.memory_budget = kMiB;  // too small to split
  s = TryReopen(o);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
}

// The model workload: random writes and reads against a std::map, with a
// 16 MiB budget over ~24 MiB of data. The budget's cache holds the blocks,
// the memtables' charge and the readers' charge; its usage never passes
// the budget, and every read matches the model.
TEST_F(DBMemoryTest, MemoryBudgetBoundsCacheAndMemtables) {
  const uint64_t kBudget = 16 * kMiB;
  Options o = SmallOptions();
  o.memory_budget = kBudget;
  o.write_buffer_size = 64 * kMiB;  // capped to budget / 8
  o.target_file_size_base = 2 * kMiB;
  o.max_bytes_for_level_base = 8 * kMiB;
  BlockBasedTableOptions t;
  t.block_size = 4096;
  t.filter_policy = NewBloomFilterPolicy(10);
  o.table_factory = NewBlockBasedTableFactory(t);
  DestroyAndReopen(o);
  uint64_t capacity = 0;
  ASSERT_TRUE(db_->GetIntProperty("rocksdb.block-cache-capacity", &capacity));
  // A sixteenth of the budget is left to the allocator's slack.
  EXPECT_EQ(capacity, kBudget - kBudget / 16);
  const uint32_t seed = static_cast<uint32_t>(std::random_device{}());
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937 rng(seed);
  std::map<std::string, std::string> model;
  uint64_t peak_usage = 0, peak_mem = 0;
  for (int i = 0; i < 24000; ++i) {
    char key[16];
    snprintf(key, sizeof(key), "k%07u", static_cast<unsigned>(rng() % 40000));
    std::string value = std::string(1000, static_cast<char>('a' + rng() % 26));
    ASSERT_OK(Put(key, value));
    model[key] = value;
    if (i % 8 == 0) {
      snprintf(key, sizeof(key), "k%07u", static_cast<unsigned>(rng() % 40000));
      auto it = model.find(key);
      EXPECT_EQ(Get(key), it == model.end() ? "NOT_FOUND" : it->second) << key;
    }
    if (i % 500 == 0) {
      uint64_t usage = 0, mem = 0;
      ASSERT_TRUE(db_->GetIntProperty("rocksdb.block-cache-usage", &usage));
      ASSERT_TRUE(db_->GetIntProperty("rocksdb.cur-size-all-mem-tables", &mem));
      peak_usage = std::max(peak_usage, usage);
      peak_mem = std::max(peak_mem, mem);
      EXPECT_LE(usage, kBudget);
      std::map<std::string, std::string> stats;
      ASSERT_TRUE(db_->GetMapProperty("rocksdb.block-cache-entry-stats", &stats));
      // The memtables' charge is in the cache usage; flushes and
      // compactions charge their buffers (key hashes for the filter, the
      // builder's working memory) while they run.
      EXPECT_GE(std::stoull(stats["bytes.write-buffer"]) + kDummy, mem);
    }
  }
  ASSERT_OK(dbfull()->WaitForCompact());
  // Every key reads back (twice: the cache fills and evicts).
  int n = 0;
  for (int round = 0; round < 2; ++round) {
    for (const auto& [k, v] : model) {
      ASSERT_EQ(Get(k), v) << k;
      if (++n % 1000 == 0) {
        uint64_t usage = 0;
        ASSERT_TRUE(db_->GetIntProperty("rocksdb.block-cache-usage", &usage));
        EXPECT_LE(usage, kBudget);
        peak_usage = std::max(peak_usage, usage);
      }
    }
  }
  // The cache was used up to the budget, not beyond.
  EXPECT_GE(peak_usage, kBudget * 3 / 4);
  uint64_t usage = 0;
  ASSERT_TRUE(db_->GetIntProperty("rocksdb.block-cache-usage", &usage));
  EXPECT_LE(usage, kBudget);
  std::map<std::string, std::string> stats;
  ASSERT_TRUE(db_->GetMapProperty("rocksdb.block-cache-entry-stats", &stats));
  EXPECT_GT(std::stoull(stats["bytes.block-based-table-reader"]), 0u);
  printf("budget %llu: peak cache usage %llu, peak memtables %llu\n",
         static_cast<unsigned long long>(kBudget), static_cast<unsigned long long>(peak_usage),
         static_cast<unsigned long long>(peak_mem));
  // Memtables stayed near their quarter of the budget.
  EXPECT_LE(peak_mem, kBudget / 2) << "peak cache usage " << peak_usage;
}

// Past the budget's memtable share, writes are delayed in proportion to the
// overshoot (no stop): with flushes paused, memtables pile past the share
// and writes go on, slowed; once flushed, writes are not delayed.
TEST_F(DBMemoryTest, MemoryBudgetSlowsWritesPastTheMemtableShare) {
  Options o = SmallOptions();
  o.memory_budget = 16 * kMiB;  // memtable share 4 MiB, memtables capped at 2 MiB
  o.write_buffer_size = 64 * kMiB;
  o.max_write_buffer_number = 8;
  o.delayed_write_rate = 64 * kMiB;
  o.disable_auto_compactions = true;
  o.statistics = CreateDBStatistics();
  DestroyAndReopen(o);
  auto stalled = [&] { return o.statistics->getTickerCount(STALL_MICROS); };
  // Within the share: no delay.
  for (int i = 0; i < 2000; ++i) ASSERT_OK(Put("a" + std::to_string(i), Value(1000, i)));
  EXPECT_EQ(stalled(), 0u);
  ASSERT_OK(db_->PauseBackgroundWork());
  // 7 MB more: up to ~75% over the share, in 3-4 memtables (below the
  // max_write_buffer_number stop).
  for (int i = 0; i < 7000; ++i) ASSERT_OK(Put("b" + std::to_string(i), Value(1000, i)));
  const uint64_t delayed = stalled();
  EXPECT_GT(delayed, 0u);
  uint64_t mem = 0;
  ASSERT_TRUE(db_->GetIntProperty("rocksdb.cur-size-all-mem-tables", &mem));
  EXPECT_GT(mem, 4 * kMiB);
  // no_slowdown writers are turned away while writes are slowed.
  WriteOptions no_slowdown;
  no_slowdown.no_slowdown = true;
  EXPECT_TRUE(db_->Put(no_slowdown, "x", "y").IsIncomplete());
  ASSERT_OK(db_->ContinueBackgroundWork());
  ASSERT_OK(db_->Flush(FlushOptions()));
  ASSERT_OK(dbfull()->WaitForCompact());
  const uint64_t after_flush = stalled();
  for (int i = 0; i < 200; ++i) ASSERT_OK(Put("c" + std::to_string(i), Value(1000, i)));
  EXPECT_EQ(stalled(), after_flush);
  EXPECT_EQ(Get("b6999"), Value(1000, 6999));
}

// Under a budget, a flush or compaction charges its buffers to the budget's
// cache while it builds a table: the filter's key hashes
// (filter-construction) and the builder's working memory (misc: at least
// the output file's 1 MiB write buffer); both are released afterwards.
TEST_F(DBMemoryTest, MemoryBudgetChargesFlushAndCompactionBuffers) {
  Options o = SmallOptions();
  o.memory_budget = 64 * kMiB;
  BlockBasedTableOptions t;
  t.filter_policy = NewBloomFilterPolicy(10);
  o.table_factory = NewBlockBasedTableFactory(t);
  DestroyAndReopen(o);
  std::vector<std::pair<uint64_t, uint64_t>> seen;  // (filter, misc) charges
  SyncPoint::GetInstance()->SetCallBack("BuildTables:BeforeFinish", [&](void*) {
    std::map<std::string, std::string> stats;
    if (db_->GetMapProperty("rocksdb.block-cache-entry-stats", &stats)) {
      seen.emplace_back(std::stoull(stats["bytes.filter-construction"]),
                        std::stoull(stats["bytes.misc"]));
    }
  });
  SyncPoint::GetInstance()->EnableProcessing();
  for (int i = 0; i < 20000; ++i) ASSERT_OK(Put("key" + std::to_string(i), std::string(100, 'v')));
  ASSERT_OK(Flush());
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  SyncPoint::GetInstance()->DisableProcessing();
  SyncPoint::GetInstance()->ClearAllCallBacks();
  ASSERT_GE(seen.size(), 2u) << "a flush and a compaction";
  for (const auto& [filter, misc] : seen) {
    EXPECT_GE(filter, kDummy) << "20000 key hashes: one dummy entry";
    EXPECT_GE(misc, 4 * kDummy) << "the output file's write buffer";
  }
  std::map<std::string, std::string> stats;
  ASSERT_TRUE(db_->GetMapProperty("rocksdb.block-cache-entry-stats", &stats));
  EXPECT_EQ(stats["bytes.filter-construction"], "0");
  EXPECT_EQ(stats["bytes.misc"], "0");
}

// kFileMetadata (RocksDB's semantics): each live table's FileMetaData is
// charged to the block cache while a Version lists it; a strict cache
// without room fails the flush with MemoryLimit.
TEST_F(DBMemoryTest, FileMetadataChargedToTheBlockCache) {
  auto charged = [this]() {
    std::map<std::string, std::string> stats;
    EXPECT_TRUE(db_->GetMapProperty("rocksdb.block-cache-entry-stats", &stats));
    return std::stoull(stats["bytes.file-metadata"]);
  };
  Options o = SmallOptions();
  o.disable_auto_compactions = true;
  BlockBasedTableOptions t;
  t.block_cache = NewLRUCache(64 * kMiB);
  t.cache_usage_options.options_overrides[CacheEntryRole::kFileMetadata].charged =
      CacheEntryRoleOptions::Decision::kEnabled;
  o.table_factory = NewBlockBasedTableFactory(t);
  DestroyAndReopen(o);
  EXPECT_EQ(charged(), 0u);
  for (int f = 0; f < 5; ++f) {
    for (int i = 0; i < 100; ++i) ASSERT_OK(Put("k" + std::to_string(f * 100 + i), "v"));
    ASSERT_OK(Flush());
    // A dummy entry covers hundreds of files' metadata.
    EXPECT_EQ(charged(), kDummy) << f;
  }
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  EXPECT_EQ(charged(), kDummy);
  // Reopened: the recovered files are charged too.
  Reopen(o);
  EXPECT_EQ(charged(), kDummy);
  std::string v;
  ASSERT_OK(db_->Get(ReadOptions(), "k42", &v));
  EXPECT_EQ(v, "v");
  // Nothing left once every file is gone.
  ASSERT_OK(db_->DeleteRange(WriteOptions(), db_->DefaultColumnFamily(), "k", "l"));
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  EXPECT_EQ(NumTableFilesAtLevel(0) + NumTableFilesAtLevel(1) + NumTableFilesAtLevel(6), 0);
  EXPECT_EQ(charged(), 0u);

  // A strict cache smaller than one dummy entry cannot take the charge.
  t.block_cache = NewLRUCache(128 << 10, 0, /*strict_capacity_limit=*/true);
  o.table_factory = NewBlockBasedTableFactory(t);
  DestroyAndReopen(o);
  ASSERT_OK(Put("a", "b"));
  Status s = Flush();
  EXPECT_TRUE(s.IsMemoryLimit()) << s.ToString();
  EXPECT_NE(s.ToString().find("Can't allocate FileMetadata due to exceeding the memory limit"),
            std::string::npos)
      << s.ToString();
}

}  // namespace
}  // namespace strata
