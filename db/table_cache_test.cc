// Tests of TableCache: lookups and iterators through the cache, the bound on
// open readers, eviction, missing files, and concurrent lookups.
#include "db/table_cache.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "base/dbformat.h"
#include "base/get_context.h"
#include "db/filename.h"
#include "strata/env.h"
#include "strata/sst_file_writer.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

constexpr char kDbPath[] = "/db";
constexpr int kKeysPerFile = 50;

// File n holds keys "f<n>-k<i>" -> "v<n>-<i>" for i in [0, kKeysPerFile),
// with every 10th key deleted.
std::string FileKey(uint64_t n, int i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "f%04llu-k%03d", static_cast<unsigned long long>(n), i);
  return buf;
}
std::string FileValue(uint64_t n, int i) {
  return "v" + std::to_string(n) + "-" + std::to_string(i);
}

class TableCacheTest : public testing::Test {
 protected:
  TableCacheTest() : env_(NewMemEnv()) {
    options_.env = env_.get();
    options_.compression = kNoCompression;
    EXPECT_OK(env_->GetFileSystem()->CreateDirIfMissing(kDbPath));
  }

  // Writes table file n (to `path`, default <db>/<n>.sst) and returns its meta.
  TableFileMeta MakeFile(uint64_t n, std::string path = "") {
    if (path.empty()) path = TableFileName(kDbPath, n);
    SstFileWriter writer(options_);
    EXPECT_OK(writer.Open(path));
    for (int i = 0; i < kKeysPerFile; i++) {
      if (i % 10 == 3) {
        EXPECT_OK(writer.Delete(FileKey(n, i)));
      } else {
        EXPECT_OK(writer.Put(FileKey(n, i), FileValue(n, i)));
      }
    }
    ExternalSstFileInfo info;
    EXPECT_OK(writer.Finish(&info));
    TableFileMeta meta;
    meta.number = n;
    meta.file_size = info.file_size;
    meta.level = 1;
    return meta;
  }

  // Looks key up in one file; returns the state and fills *value.
  static GetContext::State Lookup(TableCache* cache, const TableFileMeta& meta,
                                  const std::string& key, std::string* value, Status* s) {
    LookupKey lk(key, kMaxSequenceNumber);
    GetContext ctx(BytewiseComparator(), lk.user_key(), value);
    *s = cache->Get(ReadOptions(), meta, lk.internal_key(), &ctx);
    return ctx.state();
  }

  // Checks a few keys of file `meta` through the cache.
  static void CheckFile(TableCache* cache, const TableFileMeta& meta) {
    std::string value;
    Status s;
    ASSERT_EQ(GetContext::kFound, Lookup(cache, meta, FileKey(meta.number, 0), &value, &s));
    ASSERT_OK(s);
    ASSERT_EQ(FileValue(meta.number, 0), value);
    ASSERT_EQ(GetContext::kFound, Lookup(cache, meta, FileKey(meta.number, 49), &value, &s));
    ASSERT_OK(s);
    ASSERT_EQ(FileValue(meta.number, 49), value);
    ASSERT_EQ(GetContext::kDeleted, Lookup(cache, meta, FileKey(meta.number, 13), &value, &s));
    ASSERT_OK(s);
    ASSERT_EQ(GetContext::kNotFound, Lookup(cache, meta, FileKey(meta.number, 50), &value, &s));
    ASSERT_OK(s);
  }

  std::unique_ptr<Env> env_;
  Options options_;
};

TEST_F(TableCacheTest, GetAndIterateThroughCache) {
  TableCache cache(kDbPath, options_, BlockBasedTableOptions(), -1);
  std::vector<TableFileMeta> files;
  for (uint64_t n = 1; n <= 3; n++) files.push_back(MakeFile(n));
  EXPECT_EQ(0u, cache.NumOpenReaders());
  for (const TableFileMeta& meta : files) ASSERT_NO_FATAL_FAILURE(CheckFile(&cache, meta));
  EXPECT_EQ(3u, cache.NumOpenReaders());
  for (const TableFileMeta& meta : files) ASSERT_NO_FATAL_FAILURE(CheckFile(&cache, meta));
  EXPECT_EQ(3u, cache.NumOpenReaders());  // reused, not reopened

  BlockBasedTable* table = nullptr;
  std::unique_ptr<InternalIterator> it(cache.NewIterator(ReadOptions(), files[1], &table));
  ASSERT_NE(nullptr, table);
  EXPECT_EQ(static_cast<uint64_t>(kKeysPerFile), table->GetTableProperties()->num_entries);
  int i = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), i++) {
    ParsedInternalKey pk;
    ASSERT_OK(ParseInternalKey(it->key(), &pk));
    EXPECT_EQ(FileKey(2, i), pk.user_key.ToString());
    if (i % 10 == 3) {
      EXPECT_EQ(kTypeDeletion, pk.type);
    } else {
      EXPECT_EQ(kTypeValue, pk.type);
      EXPECT_EQ(FileValue(2, i), it->value().ToString());
    }
  }
  ASSERT_OK(it->status());
  EXPECT_EQ(kKeysPerFile, i);
  for (it->SeekToLast(); it->Valid(); it->Prev()) i--;
  EXPECT_EQ(0, i);
  std::string seek_key;
  AppendInternalKey(&seek_key, FileKey(2, 20), kMaxSequenceNumber, kValueTypeForSeek);
  it->Seek(seek_key);
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(FileKey(2, 20), ExtractUserKey(it->key()).ToString());
  it->SeekForPrev(seek_key);
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(FileKey(2, 19), ExtractUserKey(it->key()).ToString());

  std::shared_ptr<const TableProperties> props;
  ASSERT_OK(cache.GetTableProperties(files[2], &props));
  ASSERT_NE(nullptr, props);
  EXPECT_EQ(5u, props->num_deletions);
}

TEST_F(TableCacheTest, OpenReadersBoundedByMaxOpenFiles) {
  // max_open_files 15 -> at most max(15 - 10, 20) = 20 readers.
  TableCache cache(kDbPath, options_, BlockBasedTableOptions(), 15);
  std::vector<TableFileMeta> files;
  for (uint64_t n = 1; n <= 60; n++) files.push_back(MakeFile(n));
  for (int round = 0; round < 2; round++) {
    for (const TableFileMeta& meta : files) {
      ASSERT_NO_FATAL_FAILURE(CheckFile(&cache, meta));
      ASSERT_LE(cache.NumOpenReaders(), 20u);
    }
  }
  EXPECT_GE(cache.NumOpenReaders(), 10u);  // the cache does hold readers

  // Unbounded with -1.
  TableCache unbounded(kDbPath, options_, BlockBasedTableOptions(), -1);
  for (const TableFileMeta& meta : files) ASSERT_NO_FATAL_FAILURE(CheckFile(&unbounded, meta));
  EXPECT_EQ(60u, unbounded.NumOpenReaders());

  // A larger bound: 110 - 10 = 100.
  TableCache hundred(kDbPath, options_, BlockBasedTableOptions(), 110);
  for (uint64_t n = 61; n <= 150; n++) files.push_back(MakeFile(n));
  for (const TableFileMeta& meta : files) {
    ASSERT_NO_FATAL_FAILURE(CheckFile(&hundred, meta));
    ASSERT_LE(hundred.NumOpenReaders(), 100u);
  }
  EXPECT_GE(hundred.NumOpenReaders(), 50u);
}

TEST_F(TableCacheTest, IteratorsPinReaders) {
  TableCache cache(kDbPath, options_, BlockBasedTableOptions(), 1);  // 20 readers
  std::vector<TableFileMeta> files;
  for (uint64_t n = 1; n <= 30; n++) files.push_back(MakeFile(n));
  // 30 live iterators: more than the capacity, all stay usable.
  std::vector<std::unique_ptr<InternalIterator>> iters;
  for (const TableFileMeta& meta : files) {
    iters.emplace_back(cache.NewIterator(ReadOptions(), meta));
  }
  EXPECT_EQ(30u, cache.NumOpenReaders());
  cache.Evict(files[0].number);
  for (size_t f = 0; f < files.size(); f++) {
    iters[f]->SeekToFirst();
    ASSERT_TRUE(iters[f]->Valid());
    EXPECT_EQ(FileKey(files[f].number, 0), ExtractUserKey(iters[f]->key()).ToString());
  }
  iters.clear();
  EXPECT_LE(cache.NumOpenReaders(), 20u);
}

TEST_F(TableCacheTest, Evict) {
  TableCache cache(kDbPath, options_, BlockBasedTableOptions(), -1);
  TableFileMeta a = MakeFile(7), b = MakeFile(8);
  ASSERT_NO_FATAL_FAILURE(CheckFile(&cache, a));
  ASSERT_NO_FATAL_FAILURE(CheckFile(&cache, b));
  EXPECT_EQ(2u, cache.NumOpenReaders());
  cache.Evict(7);
  EXPECT_EQ(1u, cache.NumOpenReaders());
  cache.Evict(7);  // not cached: nothing happens
  cache.Evict(12345);
  EXPECT_EQ(1u, cache.NumOpenReaders());

  // A replaced file is reopened after Evict.
  ASSERT_OK(env_->GetFileSystem()->DeleteFile(TableFileName(kDbPath, 7)));
  std::string value;
  Status s;
  Lookup(&cache, a, FileKey(7, 0), &value, &s);
  EXPECT_FALSE(s.ok());  // reopening a deleted file fails
  EXPECT_EQ(1u, cache.NumOpenReaders());
  a = MakeFile(7);
  ASSERT_NO_FATAL_FAILURE(CheckFile(&cache, a));
  EXPECT_EQ(2u, cache.NumOpenReaders());
}

TEST_F(TableCacheTest, MissingFileNamedInError) {
  TableCache cache(kDbPath, options_, BlockBasedTableOptions(), -1);
  TableFileMeta meta;
  meta.number = 99;
  meta.file_size = 1000;
  std::string value;
  Status s;
  EXPECT_EQ(GetContext::kNotFound, Lookup(&cache, meta, "k", &value, &s));
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(s.IsIOError() || s.IsNotFound() || s.IsPathNotFound()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("000099.sst")) << s.ToString();

  BlockBasedTable* table = reinterpret_cast<BlockBasedTable*>(1);
  std::unique_ptr<InternalIterator> it(cache.NewIterator(ReadOptions(), meta, &table));
  EXPECT_EQ(nullptr, table);
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  EXPECT_NE(std::string::npos, it->status().ToString().find("000099.sst"))
      << it->status().ToString();
  std::shared_ptr<const TableProperties> props;
  EXPECT_FALSE(cache.GetTableProperties(meta, &props).ok());
  EXPECT_EQ(0u, cache.NumOpenReaders());  // errors are not cached
}

TEST_F(TableCacheTest, WrongFileSizeIsCorruption) {
  TableCache cache(kDbPath, options_, BlockBasedTableOptions(), -1);
  TableFileMeta meta = MakeFile(5);
  meta.file_size -= 1;
  std::string value;
  Status s;
  Lookup(&cache, meta, FileKey(5, 0), &value, &s);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("000005.sst")) << s.ToString();
}

TEST_F(TableCacheTest, LegacyLdbName) {
  TableCache cache(kDbPath, options_, BlockBasedTableOptions(), -1);
  TableFileMeta meta = MakeFile(11, std::string(kDbPath) + "/000011.ldb");
  ASSERT_NO_FATAL_FAILURE(CheckFile(&cache, meta));
  EXPECT_EQ(1u, cache.NumOpenReaders());
}

TEST_F(TableCacheTest, ConcurrentGets) {
  const uint64_t seed = test::RandomSeed();
  constexpr int kFiles = 40;
  constexpr int kThreads = 4;
  constexpr int kOpsPerThread = 20000;
  // 20 readers for 40 files: lookups keep opening and evicting.
  TableCache cache(kDbPath, options_, BlockBasedTableOptions(), 20);
  std::vector<TableFileMeta> files;
  for (uint64_t n = 1; n <= kFiles; n++) files.push_back(MakeFile(n));
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      std::mt19937_64 rng(seed + static_cast<uint64_t>(t));
      std::string value;
      for (int op = 0; op < kOpsPerThread; op++) {
        const TableFileMeta& meta = files[rng() % kFiles];
        const int i = static_cast<int>(rng() % kKeysPerFile);
        if (op % 50 == 0) {
          std::unique_ptr<InternalIterator> it(cache.NewIterator(ReadOptions(), meta));
          it->SeekToFirst();
          int count = 0;
          for (; it->Valid(); it->Next()) count++;
          if (count != kKeysPerFile || !it->status().ok()) failures++;
          continue;
        }
        Status s;
        GetContext::State st = Lookup(&cache, meta, FileKey(meta.number, i), &value, &s);
        if (!s.ok()) {
          failures++;
        } else if (i % 10 == 3) {
          if (st != GetContext::kDeleted) failures++;
        } else if (st != GetContext::kFound || value != FileValue(meta.number, i)) {
          failures++;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(0, failures.load()) << "seed " << seed;
  EXPECT_LE(cache.NumOpenReaders(), 20u);
}

}  // namespace
}  // namespace strata
