// caches: RocksDB's cache and memory interfaces, as a program uses them.
// A counting MemoryAllocator under the block cache sees the blocks a
// database reads allocated, and every allocation freed once the database
// and the cache are gone; the default memtable factory is the skip list,
// and a SkipListFactory with a lookahead opens too; a SimCache counts the
// hits a smaller cache would have. Built against RocksDB and against
// Strata's compat layer; both must print the same.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "rocksdb/cache.h"
#include "rocksdb/db.h"
#include "rocksdb/memory_allocator.h"
#include "rocksdb/memtablerep.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"
#include "rocksdb/utilities/sim_cache.h"

namespace {

class CountingAllocator : public rocksdb::MemoryAllocator {
 public:
  const char* Name() const override { return "CountingAllocator"; }
  void* Allocate(size_t size) override {
    allocations_.fetch_add(1);
    return std::malloc(size);
  }
  void Deallocate(void* p) override {
    deallocations_.fetch_add(1);
    std::free(p);
  }
  uint64_t allocations() const { return allocations_.load(); }
  uint64_t deallocations() const { return deallocations_.load(); }

 private:
  std::atomic<uint64_t> allocations_{0};
  std::atomic<uint64_t> deallocations_{0};
};

std::string Key(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "key%05d", i);
  return buf;
}

const char* YesNo(bool b) { return b ? "yes" : "no"; }

void NoDelete(const rocksdb::Slice&, void*) {}

bool Check(const rocksdb::Status& s, const char* what) {
  if (!s.ok()) std::printf("%s: %s\n", what, s.ToString().c_str());
  return s.ok();
}

// Writes and reads back a database whose block cache uses a counting
// allocator.
int AllocatorDemo(const std::string& path) {
  auto alloc = std::make_shared<CountingAllocator>();
  {
    std::shared_ptr<rocksdb::Cache> cache = rocksdb::NewLRUCache(64 << 10, 0, false, 0.5, alloc);
    std::printf("cache uses the allocator: %s\n", YesNo(cache->memory_allocator() == alloc.get()));
    rocksdb::Options options;
    options.create_if_missing = true;
    // Compressed blocks go through the block cache in both engines (Strata
    // uses uncompressed blocks of its memory-mapped files in place).
    options.compression = rocksdb::kSnappyCompression;
    rocksdb::BlockBasedTableOptions table;
    table.block_cache = cache;
    table.block_size = 512;
    options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
    rocksdb::DB* db = nullptr;
    if (!Check(rocksdb::DB::Open(options, path, &db), "open")) return 1;
    for (int i = 0; i < 3000; i++) {
      if (!Check(db->Put(rocksdb::WriteOptions(), Key(i), std::string(40, 'a' + i % 26)), "put")) {
        return 1;
      }
    }
    if (!Check(db->Flush(rocksdb::FlushOptions()), "flush")) return 1;
    bool correct = true;
    for (int i = 0; i < 3000; i += 7) {
      std::string v;
      correct = correct && db->Get(rocksdb::ReadOptions(), Key(i), &v).ok() &&
                v == std::string(40, 'a' + i % 26);
    }
    std::printf("data correct: %s\n", YesNo(correct));
    std::printf("blocks allocated through the allocator: %s\n", YesNo(alloc->allocations() > 0));
    std::printf("evicted blocks freed through it: %s\n", YesNo(alloc->deallocations() > 0));
    std::printf("cache holds blocks: %s\n", YesNo(cache->GetUsage() > 0));
    if (!Check(db->Close(), "close")) return 1;
    delete db;
  }
  std::printf("allocations balanced once the cache is gone: %s\n",
              YesNo(alloc->allocations() == alloc->deallocations()));
  return 0;
}

int MemtableDemo(const std::string& path) {
  rocksdb::Options options;
  options.create_if_missing = true;
  std::printf("default memtable factory: %s\n", options.memtable_factory->Name());
  options.memtable_factory = std::make_shared<rocksdb::SkipListFactory>(8);
  rocksdb::DB* db = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, path, &db);
  std::printf("open with SkipListFactory(8): %s\n", s.ToString().c_str());
  if (!s.ok()) return 1;
  s = db->Put(rocksdb::WriteOptions(), "k", "v");
  std::string v;
  if (s.ok()) s = db->Get(rocksdb::ReadOptions(), "k", &v);
  std::printf("put/get: %s %s\n", s.ToString().c_str(), v.c_str());
  delete db;
  std::printf("vector factory name: %s\n", rocksdb::VectorRepFactory().Name());
  return 0;
}

// Ten keys fit the simulated capacity; ten more push them out.
void SimCacheDemo() {
  std::shared_ptr<rocksdb::SimCache> sim =
      rocksdb::NewSimCache(rocksdb::NewLRUCache(1 << 20, 0), 10, 0);
  std::printf("sim cache: %s, sim capacity %zu\n", sim->Name(), sim->GetSimCapacity());
  for (int i = 0; i < 10; i++) {
    if (!sim->Insert(Key(i), nullptr, 1, &NoDelete).ok()) std::printf("insert failed\n");
  }
  auto lookup = [&](int i) {
    rocksdb::Cache::Handle* h = sim->Lookup(Key(i));
    if (h != nullptr) sim->Release(h);
  };
  for (int i = 0; i < 10; i++) lookup(i);
  std::printf("after 10 lookups of present keys: hits %llu misses %llu\n",
              static_cast<unsigned long long>(sim->get_hit_counter()),
              static_cast<unsigned long long>(sim->get_miss_counter()));
  for (int i = 10; i < 20; i++) {
    if (!sim->Insert(Key(i), nullptr, 1, &NoDelete).ok()) std::printf("insert failed\n");
  }
  for (int i = 0; i < 20; i++) lookup(i);
  std::printf("sim usage %zu\n", sim->GetSimUsage());
  std::printf("%s", sim->ToString().c_str());
  sim->reset_counter();
  std::printf("after reset: hits %llu misses %llu\n",
              static_cast<unsigned long long>(sim->get_hit_counter()),
              static_cast<unsigned long long>(sim->get_miss_counter()));
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : "/tmp/compat_caches";
  if (AllocatorDemo(dir + "_alloc") != 0) return 1;
  if (MemtableDemo(dir + "_memtable") != 0) return 1;
  SimCacheDemo();
  rocksdb::Options options;
  rocksdb::DestroyDB(dir + "_alloc", options).PermitUncheckedError();
  rocksdb::DestroyDB(dir + "_memtable", options).PermitUncheckedError();
  return 0;
}
