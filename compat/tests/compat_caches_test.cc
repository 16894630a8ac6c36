// compat_caches_test: RocksDB 7.8.3's cache and memory headers over Strata.
// A program's MemoryAllocator given to NewLRUCache allocates the blocks a
// database reads (every one freed by the time the cache is gone); a
// SimCache counts the hits of its key-only LRU, checked against a model and
// under a database; memtable factories other than the skip list, secondary
// caches, persistent caches and cache dumps are refused by name.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <unordered_set>

#include "gtest/gtest.h"
#include "rocksdb/cache.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/memory_allocator.h"
#include "rocksdb/memtablerep.h"
#include "rocksdb/options.h"
#include "rocksdb/persistent_cache.h"
#include "rocksdb/secondary_cache.h"
#include "rocksdb/table.h"
#include "rocksdb/utilities/cache_dump_load.h"
#include "rocksdb/utilities/sim_cache.h"

namespace rocksdb {
namespace {

class CountingAllocator : public MemoryAllocator {
 public:
  const char* Name() const override { return "CountingAllocator"; }
  void* Allocate(size_t size) override {
    void* p = std::malloc(size);
    std::lock_guard<std::mutex> l(mu_);
    live_.insert(p);
    allocations_++;
    return p;
  }
  void Deallocate(void* p) override {
    {
      std::lock_guard<std::mutex> l(mu_);
      if (live_.erase(p) == 0) {
        bad_frees_++;
        return;
      }
      deallocations_++;
    }
    std::free(p);
  }
  uint64_t allocations() {
    std::lock_guard<std::mutex> l(mu_);
    return allocations_;
  }
  uint64_t deallocations() {
    std::lock_guard<std::mutex> l(mu_);
    return deallocations_;
  }
  size_t live() {
    std::lock_guard<std::mutex> l(mu_);
    return live_.size();
  }
  uint64_t bad_frees() {
    std::lock_guard<std::mutex> l(mu_);
    return bad_frees_;
  }

 private:
  std::mutex mu_;
  std::unordered_set<void*> live_;
  uint64_t allocations_ = 0;
  uint64_t deallocations_ = 0;
  uint64_t bad_frees_ = 0;
};

class CompatCachesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = ::testing::TempDir() + "/compat_caches_test_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name();
    ASSERT_TRUE(DestroyDB(path_, Options()).ok());
  }
  void TearDown() override { ASSERT_TRUE(DestroyDB(path_, Options()).ok()); }

  Options WithCache(std::shared_ptr<Cache> cache) {
    Options o;
    o.create_if_missing = true;
    // Compressed: under Strata's memory-mapped table reads (which the compat
    // layer keeps), uncompressed blocks are used in place and never cached.
    o.compression = kSnappyCompression;
    BlockBasedTableOptions t;
    t.block_cache = std::move(cache);
    t.block_size = 256;
    t.cache_index_and_filter_blocks = true;
    o.table_factory.reset(NewBlockBasedTableFactory(t));
    return o;
  }

  // Writes n keys in two tables, reads them all back (point reads and a
  // scan), checking the values.
  void WriteAndRead(DB* db, int n) {
    for (int i = 0; i < n; i++) {
      ASSERT_TRUE(db->Put(WriteOptions(), Key(i), Value(i)).ok());
      if (i == n / 2) {
        ASSERT_TRUE(db->Flush(FlushOptions()).ok());
      }
    }
    ASSERT_TRUE(db->Flush(FlushOptions()).ok());
    for (int i = 0; i < n; i++) {
      std::string v;
      ASSERT_TRUE(db->Get(ReadOptions(), Key(i), &v).ok()) << Key(i);
      ASSERT_EQ(Value(i), v);
    }
    std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions()));
    int i = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next(), i++) {
      ASSERT_EQ(Key(i), it->key().ToString());
      ASSERT_EQ(Value(i), it->value().ToString());
    }
    ASSERT_TRUE(it->status().ok());
    ASSERT_EQ(n, i);
  }

  static std::string Key(int i) {
    char buf[16];
    std::snprintf(buf, sizeof(buf), "key%06d", i);
    return buf;
  }
  static std::string Value(int i) { return "value-" + std::to_string(i * 7919); }

  // Opens with `options` and expects InvalidArgument containing `text`.
  void ExpectRefused(Options options, const std::string& text) {
    options.create_if_missing = true;
    DB* db = nullptr;
    Status s = DB::Open(options, path_, &db);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(s.ToString().find(text), std::string::npos) << s.ToString();
    EXPECT_EQ(db, nullptr);
    delete db;
  }

  std::string path_;
};

// ---- memory_allocator.h ----

TEST_F(CompatCachesTest, AllocatorSeesEveryCachedBlock) {
  auto alloc = std::make_shared<CountingAllocator>();
  std::shared_ptr<Cache> cache = NewLRUCache(32 << 10, 0, false, 0.5, alloc);
  ASSERT_NE(cache, nullptr);
  EXPECT_EQ(alloc.get(), cache->memory_allocator());
  {
    DB* raw = nullptr;
    ASSERT_TRUE(DB::Open(WithCache(cache), path_, &raw).ok());
    std::unique_ptr<DB> db(raw);
    WriteAndRead(db.get(), 2000);
    EXPECT_GT(alloc->allocations(), 0u);
    // A small cache: blocks were evicted, their memory given back.
    EXPECT_GT(alloc->deallocations(), 0u);
    ASSERT_TRUE(db->Close().ok());
  }
  // What is still allocated is in the cache.
  EXPECT_GT(alloc->live(), 0u);
  EXPECT_GT(cache->GetUsage(), 0u);
  cache.reset();
  EXPECT_EQ(0u, alloc->live());
  EXPECT_EQ(alloc->allocations(), alloc->deallocations());
  EXPECT_EQ(0u, alloc->bad_frees());
}

TEST_F(CompatCachesTest, AllocatorThroughLRUCacheOptions) {
  auto alloc = std::make_shared<CountingAllocator>();
  LRUCacheOptions co;
  co.capacity = 1 << 20;
  co.memory_allocator = alloc;
  std::shared_ptr<Cache> cache = NewLRUCache(co);
  ASSERT_NE(cache, nullptr);
  {
    DB* raw = nullptr;
    ASSERT_TRUE(DB::Open(WithCache(cache), path_, &raw).ok());
    std::unique_ptr<DB> db(raw);
    WriteAndRead(db.get(), 500);
    ASSERT_TRUE(db->Close().ok());
  }
  EXPECT_GT(alloc->allocations(), 0u);
  cache->EraseUnRefEntries();
  EXPECT_EQ(0u, alloc->live());
  EXPECT_EQ(0u, alloc->bad_frees());
}

TEST_F(CompatCachesTest, AllocatorFactories) {
  ConfigOptions config;
  std::shared_ptr<MemoryAllocator> a = std::make_shared<CountingAllocator>();
  ASSERT_TRUE(MemoryAllocator::CreateFromString(config, "", &a).ok());
  EXPECT_EQ(nullptr, a);
  ASSERT_TRUE(MemoryAllocator::CreateFromString(config, "DefaultMemoryAllocator", &a).ok());
  ASSERT_NE(nullptr, a);
  EXPECT_STREQ("DefaultMemoryAllocator", a->Name());
  void* p = a->Allocate(100);
  ASSERT_NE(nullptr, p);
  EXPECT_EQ(100u, a->UsableSize(p, 100));
  a->Deallocate(p);
  EXPECT_EQ(0u, a->GetId().find("DefaultMemoryAllocator@"));
  Status s = MemoryAllocator::CreateFromString(config, "JemallocNodumpAllocator", &a);
  EXPECT_TRUE(s.IsNotSupported());
  EXPECT_NE(std::string::npos, s.ToString().find("JemallocNodumpAllocator")) << s.ToString();

  JemallocAllocatorOptions jopts;
  std::shared_ptr<MemoryAllocator> j;
  s = NewJemallocNodumpAllocator(jopts, &j);
  EXPECT_TRUE(s.IsNotSupported());
  EXPECT_NE(std::string::npos, s.ToString().find("NewJemallocNodumpAllocator")) << s.ToString();
  EXPECT_EQ(nullptr, j);
}

// ---- secondary_cache.h ----

class RecordingSecondaryCache : public SecondaryCache {
 public:
  const char* Name() const override { return "RecordingSecondaryCache"; }
  Status Insert(const Slice& key, void* /*value*/, const Cache::CacheItemHelper* /*h*/) override {
    inserts.push_back(key.ToString());
    return Status::OK();
  }
  std::unique_ptr<SecondaryCacheResultHandle> Lookup(const Slice& key,
                                                     const Cache::CreateCallback& /*cb*/,
                                                     bool /*wait*/, bool /*advise_erase*/,
                                                     bool& is_in_sec_cache) override {
    lookups.push_back(key.ToString());
    is_in_sec_cache = false;
    return nullptr;
  }
  bool SupportForceErase() const override { return false; }
  void Erase(const Slice& /*key*/) override {}
  void WaitAll(std::vector<SecondaryCacheResultHandle*> /*handles*/) override {}

  std::vector<std::string> inserts;
  std::vector<std::string> lookups;
};

TEST_F(CompatCachesTest, SecondaryCacheRefused) {
  auto secondary = std::make_shared<RecordingSecondaryCache>();
  size_t cap = 0;
  EXPECT_TRUE(secondary->GetCapacity(cap).IsNotSupported());
  EXPECT_TRUE(secondary->SetCapacity(10).IsNotSupported());
  EXPECT_EQ(0u, secondary->GetId().find("RecordingSecondaryCache@"));
  LRUCacheOptions co;
  co.capacity = 1 << 20;
  co.secondary_cache = secondary;
  EXPECT_EQ(nullptr, NewLRUCache(co));
  EXPECT_EQ(nullptr, NewCompressedSecondaryCache(1 << 20));
  CompressedSecondaryCacheOptions cso(1 << 20, -1, false, 0.5);
  EXPECT_EQ(kLZ4Compression, cso.compression_type);
  EXPECT_EQ(nullptr, NewCompressedSecondaryCache(cso));
  ConfigOptions config;
  std::shared_ptr<SecondaryCache> sc = secondary;
  ASSERT_TRUE(SecondaryCache::CreateFromString(config, "", &sc).ok());
  EXPECT_EQ(nullptr, sc);
  Status s =
      SecondaryCache::CreateFromString(config, "compressed_secondary_cache://capacity=1M", &sc);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("SecondaryCache")) << s.ToString();
}

// ---- memtablerep.h ----

TEST_F(CompatCachesTest, SkipListFactoryAccepted) {
  Options o;
  o.create_if_missing = true;
  ASSERT_NE(nullptr, o.memtable_factory);
  EXPECT_STREQ("SkipListFactory", o.memtable_factory->Name());
  EXPECT_STREQ("skip_list", SkipListFactory().NickName());
  EXPECT_TRUE(o.memtable_factory->IsInsertConcurrentlySupported());
  for (auto factory : {o.memtable_factory, std::shared_ptr<MemTableRepFactory>(),
                       std::shared_ptr<MemTableRepFactory>(new SkipListFactory(16))}) {
    o.memtable_factory = factory;
    DB* raw = nullptr;
    ASSERT_TRUE(DB::Open(o, path_, &raw).ok());
    std::unique_ptr<DB> db(raw);
    ASSERT_TRUE(db->Put(WriteOptions(), "k", "v").ok());
    std::string v;
    ASSERT_TRUE(db->Get(ReadOptions(), "k", &v).ok());
    EXPECT_EQ("v", v);
  }
  EXPECT_EQ("SkipListFactory:16", SkipListFactory(16).GetId());
}

TEST_F(CompatCachesTest, OtherMemtablesRefused) {
  const std::string tail = " is not supported by Strata: its memtable is a skip list";
  Options o;
  o.memtable_factory = std::make_shared<VectorRepFactory>();
  ExpectRefused(o, "ColumnFamilyOptions::memtable_factory VectorRepFactory" + tail);
  o.memtable_factory.reset(NewHashSkipListRepFactory());
  ExpectRefused(o, "ColumnFamilyOptions::memtable_factory HashSkipListRepFactory" + tail);
  o.memtable_factory.reset(NewHashLinkListRepFactory());
  ExpectRefused(o, "ColumnFamilyOptions::memtable_factory HashLinkListRepFactory" + tail);
  // A program's subclass of SkipListFactory with its own name is not the
  // skip list.
  class MyFactory : public SkipListFactory {
   public:
    const char* Name() const override { return "MyFactory"; }
  };
  o.memtable_factory = std::make_shared<MyFactory>();
  ExpectRefused(o, "ColumnFamilyOptions::memtable_factory MyFactory" + tail);

  ConfigOptions config;
  std::shared_ptr<MemTableRepFactory> f;
  ASSERT_TRUE(MemTableRepFactory::CreateFromString(config, "skip_list:8", &f).ok());
  EXPECT_STREQ("SkipListFactory", f->Name());
  EXPECT_EQ("SkipListFactory:8", f->GetId());
  ASSERT_TRUE(MemTableRepFactory::CreateFromString(config, "vector", &f).ok());
  EXPECT_STREQ("VectorRepFactory", f->Name());
  EXPECT_TRUE(MemTableRepFactory::CreateFromString(config, "no_such_rep", &f).IsNotSupported());
  struct BytewiseKeys : public MemTableRep::KeyComparator {
    int operator()(const char* a, const char* b) const override {
      return decode_key(a).compare(decode_key(b));
    }
    int operator()(const char* a, const Slice& b) const override {
      return decode_key(a).compare(b);
    }
  } keys;
  EXPECT_EQ(nullptr, SkipListFactory().CreateMemTableRep(keys, nullptr, nullptr, nullptr));
  const char encoded[] =
      "\x03"
      "abc";
  EXPECT_EQ("abc", GetLengthPrefixedSlice(encoded).ToString());
}

// ---- utilities/sim_cache.h ----

void NoDelete(const Slice&, void*) {}

// A cache of unit-charge entries in which nothing is looked up again
// before it is inserted: the key-only LRU then behaves as a FIFO of
// `capacity` keys, which the model is.
TEST_F(CompatCachesTest, SimCacheCountsAgainstModel) {
  const size_t kSimCapacity = 16;
  std::shared_ptr<SimCache> sim = NewSimCache(NewLRUCache(1 << 20, 0), kSimCapacity, 0);
  ASSERT_NE(nullptr, sim);
  EXPECT_STREQ("SimCache", sim->Name());
  EXPECT_EQ(kSimCapacity, sim->GetSimCapacity());
  EXPECT_EQ(size_t{1} << 20, sim->GetCapacity());
  std::mt19937 rng(7);
  std::map<std::string, bool> model;  // keys in the simulated cache
  std::vector<std::string> order;     // insertion order of those keys
  uint64_t hits = 0, misses = 0;
  for (int step = 0; step < 2000; step++) {
    const std::string key = "k" + std::to_string(rng() % 40);
    // A hit is erased and inserted again, so recency is insertion order.
    Cache::Handle* h = sim->Lookup(key);
    if (h != nullptr) sim->Release(h);
    if (model.count(key) != 0) {
      hits++;
      sim->Erase(key);
      model.erase(key);
      order.erase(std::find(order.begin(), order.end(), key));
    } else {
      misses++;
    }
    ASSERT_TRUE(sim->Insert(key, nullptr, 1, &NoDelete).ok());
    model[key] = true;
    order.push_back(key);
    if (order.size() > kSimCapacity) {
      model.erase(order.front());
      order.erase(order.begin());
    }
    ASSERT_EQ(hits, sim->get_hit_counter()) << "step " << step;
    ASSERT_EQ(misses, sim->get_miss_counter()) << "step " << step;
    ASSERT_EQ(order.size(), sim->GetSimUsage()) << "step " << step;
  }
  EXPECT_GT(hits, 0u);
  EXPECT_GT(misses, 0u);
  std::ostringstream expect;
  expect << "SimCache MISSes:  " << misses << "\nSimCache HITs:    " << hits << "\n";
  EXPECT_EQ(0u, sim->ToString().find(expect.str())) << sim->ToString();
  sim->reset_counter();
  EXPECT_EQ(0u, sim->get_hit_counter());
  EXPECT_EQ(0u, sim->get_miss_counter());
  sim->SetSimCapacity(4);
  EXPECT_EQ(4u, sim->GetSimUsage());
}

TEST_F(CompatCachesTest, SimCacheUnderADatabase) {
  std::shared_ptr<Cache> real = NewLRUCache(1 << 20);
  // Larger than the real cache: the simulation hits whenever the real
  // cache does.
  std::shared_ptr<SimCache> sim = NewSimCache(real, 64 << 20, 0);
  ASSERT_NE(nullptr, sim);
  {
    DB* raw = nullptr;
    ASSERT_TRUE(DB::Open(WithCache(sim), path_, &raw).ok());
    std::unique_ptr<DB> db(raw);
    WriteAndRead(db.get(), 1000);
    ASSERT_TRUE(db->Close().ok());
  }
  const Cache::CacheStats st = real->GetStats();
  EXPECT_GT(st.hits, 0u);
  EXPECT_EQ(st.hits + st.misses, sim->get_hit_counter() + sim->get_miss_counter());
  EXPECT_GE(sim->get_hit_counter(), st.hits);
  EXPECT_GT(sim->GetSimUsage(), 0u);
  EXPECT_EQ(real->GetUsage(), sim->GetUsage());
  // A simulated capacity of 0 misses every lookup.
  std::shared_ptr<SimCache> none = NewSimCache(NewLRUCache(1 << 20), 0, 0);
  ASSERT_TRUE(none->Insert("a", nullptr, 1, &NoDelete).ok());
  Cache::Handle* h = none->Lookup("a");
  ASSERT_NE(nullptr, h);  // the real cache has it
  none->Release(h);
  EXPECT_EQ(0u, none->get_hit_counter());
  EXPECT_EQ(1u, none->get_miss_counter());
  EXPECT_EQ(nullptr, NewSimCache(real, 100, 20));
}

TEST_F(CompatCachesTest, SimCacheWithoutRealCacheAndActivityLog) {
  std::shared_ptr<SimCache> sim = NewSimCache(NewLRUCache(100, 0), nullptr, 0);
  ASSERT_NE(nullptr, sim);
  const std::string log = path_ + "_activity";
  ASSERT_TRUE(sim->StartActivityLogging(log, Env::Default()).ok());
  int deleted = 0;
  auto deleter = [](const Slice&, void* v) { ++*static_cast<int*>(v); };
  ASSERT_TRUE(sim->Insert("ab", &deleted, 5, deleter).ok());
  EXPECT_EQ(1, deleted);  // nothing keeps the value
  Cache::Handle* h = nullptr;
  EXPECT_TRUE(sim->Insert("ab", &deleted, 5, deleter, &h).IsIncomplete());
  EXPECT_EQ(nullptr, h);
  EXPECT_EQ(2, deleted);
  EXPECT_EQ(nullptr, sim->Lookup("ab"));
  EXPECT_EQ(1u, sim->get_hit_counter());
  sim->StopActivityLogging();
  EXPECT_TRUE(sim->GetActivityLoggingStatus().ok());
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ("ADD - 6162 - 5\nADD - 6162 - 5\nLOOKUP - 6162\n", text.str());
  std::filesystem::remove(log);
}

// ---- persistent_cache.h, utilities/cache_dump_load.h ----

TEST_F(CompatCachesTest, PersistentCacheAndDumpsNotSupported) {
  std::shared_ptr<PersistentCache> pc;
  Status s = NewPersistentCache(Env::Default(), path_, 1 << 20, nullptr, false, &pc);
  EXPECT_TRUE(s.IsNotSupported());
  EXPECT_NE(std::string::npos, s.ToString().find("NewPersistentCache")) << s.ToString();
  EXPECT_EQ(nullptr, pc);

  std::unique_ptr<CacheDumpWriter> writer;
  s = NewToFileCacheDumpWriter(FileSystem::Default(), FileOptions(), path_ + "_dump", &writer);
  EXPECT_TRUE(s.IsNotSupported());
  EXPECT_NE(std::string::npos, s.ToString().find("NewToFileCacheDumpWriter")) << s.ToString();
  std::unique_ptr<CacheDumpReader> reader;
  s = NewFromFileCacheDumpReader(FileSystem::Default(), FileOptions(), path_ + "_dump", &reader);
  EXPECT_TRUE(s.IsNotSupported());
  CacheDumpOptions dump_options;
  dump_options.clock = nullptr;
  std::unique_ptr<CacheDumper> dumper;
  s = NewDefaultCacheDumper(dump_options, NewLRUCache(1 << 20), std::move(writer), &dumper);
  EXPECT_TRUE(s.IsNotSupported());
  EXPECT_NE(std::string::npos, s.ToString().find("NewDefaultCacheDumper")) << s.ToString();
  EXPECT_EQ(nullptr, dumper);
  std::unique_ptr<CacheDumpedLoader> loader;
  s = NewDefaultCacheDumpedLoader(dump_options, BlockBasedTableOptions(), nullptr,
                                  std::move(reader), &loader);
  EXPECT_TRUE(s.IsNotSupported());
  EXPECT_EQ(nullptr, loader);

  // A persistent cache of a program's own is refused at Open.
  class MyPersistentCache : public PersistentCache {
   public:
    Status Insert(const Slice&, const char*, const size_t) override { return Status::OK(); }
    Status Lookup(const Slice&, std::unique_ptr<char[]>*, size_t*) override {
      return Status::NotFound("");
    }
    bool IsCompressed() override { return false; }
    StatsType Stats() override { return {}; }
    std::string GetPrintableOptions() const override { return ""; }
    uint64_t NewId() override { return 1; }
  };
  Options o;
  BlockBasedTableOptions t;
  t.persistent_cache = std::make_shared<MyPersistentCache>();
  o.table_factory.reset(NewBlockBasedTableFactory(t));
  ExpectRefused(o, "BlockBasedTableOptions::persistent_cache");
}

}  // namespace
}  // namespace rocksdb
