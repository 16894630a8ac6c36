// tuning: Options and BlockBasedTableOptions (bloom filter, LRU cache,
// block size), DB properties, GetApproximateSizes and CompactRange, through
// RocksDB's C++ interface. Sizes differ between engines, so it prints
// facts about them (zero or not, ordering) rather than the numbers.
// Built twice and compared byte for byte.
// Usage: tuning DB_DIR
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "rocksdb/cache.h"
#include "rocksdb/db.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"

namespace rdb = ROCKSDB_NAMESPACE;

static void Check(const rdb::Status& s, const char* what) {
  if (!s.ok()) {
    std::printf("FAILED %s: %s\n", what, s.ToString().c_str());
    std::exit(1);
  }
}

static std::string Key(int i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "key%06d", i);
  return buf;
}

static uint64_t IntProperty(rdb::DB* db, const std::string& name) {
  uint64_t v = 0;
  if (!db->GetIntProperty(name, &v)) {
    std::printf("FAILED property %s\n", name.c_str());
    std::exit(1);
  }
  return v;
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const std::string path = argv[1];
  rdb::Options options;
  options.create_if_missing = true;
  options.write_buffer_size = 1 << 20;
  options.compression = rdb::kNoCompression;
  options.level0_file_num_compaction_trigger = 100;  // compactions only when asked
  options.max_background_jobs = 2;
  options.IncreaseParallelism(2);
  std::shared_ptr<rdb::Cache> cache = rdb::NewLRUCache(8 << 20);
  rdb::BlockBasedTableOptions table;
  table.block_cache = cache;
  table.block_size = 8 * 1024;
  table.filter_policy.reset(rdb::NewBloomFilterPolicy(10, false));
  table.cache_index_and_filter_blocks = true;
  table.format_version = 5;
  options.table_factory.reset(rdb::NewBlockBasedTableFactory(table));

  rdb::DB* db = nullptr;
  Check(rdb::DB::Open(options, path, &db), "open");
  std::printf("cache capacity %zu\n", cache->GetCapacity());
  std::printf("block-cache-capacity %llu\n",
              static_cast<unsigned long long>(IntProperty(db, "rocksdb.block-cache-capacity")));

  const std::string value(200, 'v');
  for (int i = 0; i < 3000; i++) Check(db->Put(rdb::WriteOptions(), Key(i), value), "put");
  std::printf("entries in active memtable %llu\n",
              static_cast<unsigned long long>(
                  IntProperty(db, rdb::DB::Properties::kNumEntriesActiveMemTable)));
  Check(db->Flush(rdb::FlushOptions()), "flush");
  for (int i = 3000; i < 6000; i++) Check(db->Put(rdb::WriteOptions(), Key(i), value), "put");
  Check(db->Flush(rdb::FlushOptions()), "flush");

  std::string files;
  db->GetProperty(rdb::DB::Properties::kNumFilesAtLevelPrefix + "0", &files);
  std::printf("files at L0 after two flushes: %s\n", files.c_str());
  std::printf("estimate-num-keys %llu\n",
              static_cast<unsigned long long>(IntProperty(db, "rocksdb.estimate-num-keys")));
  std::printf("entries in active memtable %llu\n",
              static_cast<unsigned long long>(
                  IntProperty(db, rdb::DB::Properties::kNumEntriesActiveMemTable)));
  std::printf("sst files size > 500KB: %d\n",
              IntProperty(db, "rocksdb.total-sst-files-size") > 500 * 1024 ? 1 : 0);

  // Approximate sizes: a range holding half the keys is about half of all.
  std::string a = Key(0), m = Key(3000), z = Key(6000);
  rdb::Range ranges[3] = {rdb::Range(a, z), rdb::Range(a, m), rdb::Range("zzz", "zzzz")};
  uint64_t sizes[3] = {0, 0, 0};
  Check(db->GetApproximateSizes(ranges, 3, sizes), "approximate sizes");
  std::printf("approx all > 1MB: %d; half between 35%% and 65%%: %d; empty range 0: %d\n",
              sizes[0] > (1 << 20) ? 1 : 0,
              sizes[1] * 100 > sizes[0] * 35 && sizes[1] * 100 < sizes[0] * 65 ? 1 : 0,
              sizes[2] == 0 ? 1 : 0);
  uint64_t count = 0, size = 0;
  Check(db->Put(rdb::WriteOptions(), "key999999", value), "put");
  db->GetApproximateMemTableStats(rdb::Range("key9", "key:"), &count, &size);
  std::printf("memtable stats for one key: count=%llu size>0=%d\n",
              static_cast<unsigned long long>(count), size > 0 ? 1 : 0);

  // Reads through the filter and the cache.
  std::string v;
  int found = 0, missing = 0;
  for (int i = 0; i < 6000; i += 7) found += db->Get(rdb::ReadOptions(), Key(i), &v).ok() ? 1 : 0;
  for (int i = 0; i < 500; i++) {
    missing += db->Get(rdb::ReadOptions(), "absent" + std::to_string(i), &v).IsNotFound() ? 1 : 0;
  }
  std::printf("found %d, missing %d\n", found, missing);
  std::printf("cache in use: %d\n", cache->GetUsage() > 0 ? 1 : 0);

  // Compact everything: L0 empties.
  rdb::CompactRangeOptions cro;
  cro.bottommost_level_compaction = rdb::BottommostLevelCompaction::kForce;
  Check(db->CompactRange(cro, nullptr, nullptr), "compact");
  db->GetProperty("rocksdb.num-files-at-level0", &files);
  std::printf("files at L0 after CompactRange: %s\n", files.c_str());
  std::printf("estimate-num-keys %llu\n",
              static_cast<unsigned long long>(IntProperty(db, "rocksdb.estimate-num-keys")));
  std::string stats;
  std::printf("rocksdb.stats present: %d\n", db->GetProperty("rocksdb.stats", &stats) ? 1 : 0);
  std::printf("unknown property: %d\n", db->GetProperty("rocksdb.no-such-thing", &stats) ? 1 : 0);
  uint64_t total = 0;
  std::printf("aggregated estimate-num-keys %d ",
              db->GetAggregatedIntProperty("rocksdb.estimate-num-keys", &total) ? 1 : 0);
  std::printf("= %llu\n", static_cast<unsigned long long>(total));
  std::printf("levels %d, L0 stop trigger %d\n", db->NumberLevels(), db->Level0StopWriteTrigger());
  std::printf("options: write_buffer_size=%zu max_background_jobs=%d\n",
              db->GetOptions().write_buffer_size, db->GetDBOptions().max_background_jobs);
  Check(db->VerifyChecksum(), "verify checksum");
  std::printf("checksums verified\n");
  delete db;
  return 0;
}
