// compat_db_test: the RocksDB interface over Strata against a std::map model.
// Random Put/Delete/SingleDelete/DeleteRange/WriteBatch operations through
// rocksdb::DB, with flushes, compactions and reopens; after each round every
// key is checked with Get, MultiGet (both forms) and a full iteration both
// ways, and snapshots taken earlier still read the model of their time.
// The seed is printed; STRATA_COMPAT_SEED replays it.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/write_batch.h"

namespace rocksdb {
namespace {

using Model = std::map<std::string, std::string>;

std::string KeyOf(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "k%04d", i);
  return buf;
}

void ExpectMatches(DB* db, const ReadOptions& ro, const Model& model, int key_space) {
  // Point reads.
  std::vector<std::string> key_strings;
  for (int i = 0; i < key_space; i++) key_strings.push_back(KeyOf(i));
  std::vector<Slice> keys(key_strings.begin(), key_strings.end());
  std::vector<std::string> values;
  std::vector<Status> statuses = db->MultiGet(ro, keys, &values);
  std::vector<PinnableSlice> pinned(keys.size());
  std::vector<Status> pinned_statuses(keys.size());
  db->MultiGet(ro, db->DefaultColumnFamily(), keys.size(), keys.data(), pinned.data(),
               pinned_statuses.data());
  for (int i = 0; i < key_space; i++) {
    auto it = model.find(key_strings[i]);
    std::string v;
    Status s = db->Get(ro, key_strings[i], &v);
    if (it == model.end()) {
      ASSERT_TRUE(s.IsNotFound()) << key_strings[i] << " " << s.ToString();
      ASSERT_TRUE(statuses[i].IsNotFound()) << key_strings[i];
      ASSERT_TRUE(pinned_statuses[i].IsNotFound()) << key_strings[i];
    } else {
      ASSERT_TRUE(s.ok()) << key_strings[i] << " " << s.ToString();
      ASSERT_EQ(v, it->second) << key_strings[i];
      ASSERT_TRUE(statuses[i].ok());
      ASSERT_EQ(values[i], it->second);
      ASSERT_TRUE(pinned_statuses[i].ok());
      ASSERT_EQ(pinned[i].ToString(), it->second);
    }
  }
  for (auto& p : pinned) p.Reset();
  // Iteration both ways.
  std::unique_ptr<Iterator> iter(db->NewIterator(ro));
  auto m = model.begin();
  for (iter->SeekToFirst(); iter->Valid(); iter->Next(), ++m) {
    ASSERT_NE(m, model.end());
    ASSERT_EQ(iter->key().ToString(), m->first);
    ASSERT_EQ(iter->value().ToString(), m->second);
  }
  ASSERT_EQ(m, model.end());
  ASSERT_TRUE(iter->status().ok());
  auto r = model.rbegin();
  for (iter->SeekToLast(); iter->Valid(); iter->Prev(), ++r) {
    ASSERT_NE(r, model.rend());
    ASSERT_EQ(iter->key().ToString(), r->first);
  }
  ASSERT_EQ(r, model.rend());
}

TEST(CompatDBTest, RandomOperationsMatchAMap) {
  unsigned seed = std::random_device{}();
  if (const char* env = std::getenv("STRATA_COMPAT_SEED")) seed = std::strtoul(env, nullptr, 10);
  std::printf("seed %u (replay with STRATA_COMPAT_SEED=%u)\n", seed, seed);
  std::mt19937 rng(seed);
  const std::string path = ::testing::TempDir() + "/compat_db_test";
  ASSERT_TRUE(DestroyDB(path, Options()).ok());
  Options options;
  options.create_if_missing = true;
  options.write_buffer_size = 64 << 10;  // several flushes per round
  DB* raw = nullptr;
  ASSERT_TRUE(DB::Open(options, path, &raw).ok());
  std::unique_ptr<DB> db(raw);

  const int kKeys = 300;
  Model model;
  struct Snap {
    const Snapshot* snapshot;
    Model model;
  };
  std::vector<Snap> snaps;
  for (int round = 0; round < 8; round++) {
    for (int op = 0; op < 2000; op++) {
      const int k = static_cast<int>(rng() % kKeys);
      const std::string key = KeyOf(k);
      switch (rng() % 10) {
        case 0:
        case 1:
        case 2:
        case 3: {
          std::string value = "v" + std::to_string(rng() % 100000) + std::string(rng() % 64, 'x');
          ASSERT_TRUE(db->Put(WriteOptions(), key, value).ok());
          model[key] = value;
          break;
        }
        case 4:
          ASSERT_TRUE(db->Delete(WriteOptions(), key).ok());
          model.erase(key);
          break;
        case 5:
          if (model.count(key) == 0) {  // SingleDelete only over at most one Put
            ASSERT_TRUE(db->Put(WriteOptions(), key, "single").ok());
            ASSERT_TRUE(db->SingleDelete(WriteOptions(), key).ok());
          }
          break;
        case 6: {
          const std::string end = KeyOf(k + static_cast<int>(rng() % 5));
          ASSERT_TRUE(db->DeleteRange(WriteOptions(), db->DefaultColumnFamily(), key, end).ok());
          model.erase(model.lower_bound(key), model.lower_bound(end));
          break;
        }
        default: {
          WriteBatch batch;
          for (int j = 0; j < 3; j++) {
            const std::string bk = KeyOf(static_cast<int>(rng() % kKeys));
            if (rng() % 3 == 0) {
              ASSERT_TRUE(batch.Delete(bk).ok());
              model.erase(bk);
            } else {
              ASSERT_TRUE(batch.Put(bk, "b" + std::to_string(round)).ok());
              model[bk] = "b" + std::to_string(round);
            }
          }
          ASSERT_TRUE(db->Write(WriteOptions(), &batch).ok());
        }
      }
    }
    if (round % 3 == 0) snaps.push_back({db->GetSnapshot(), model});
    ASSERT_NO_FATAL_FAILURE(ExpectMatches(db.get(), ReadOptions(), model, kKeys));
    for (const Snap& s : snaps) {
      ReadOptions ro;
      ro.snapshot = s.snapshot;
      ASSERT_NO_FATAL_FAILURE(ExpectMatches(db.get(), ro, s.model, kKeys));
    }
    if (round % 2 == 1) {
      ASSERT_TRUE(db->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
    }
    if (round == 4) {  // reopen: snapshots end with the DB
      for (const Snap& s : snaps) db->ReleaseSnapshot(s.snapshot);
      snaps.clear();
      ASSERT_TRUE(db->Close().ok());
      db.reset();
      options.create_if_missing = false;
      ASSERT_TRUE(DB::Open(options, path, &raw).ok());
      db.reset(raw);
      ASSERT_NO_FATAL_FAILURE(ExpectMatches(db.get(), ReadOptions(), model, kKeys));
    }
  }
  for (const Snap& s : snaps) db->ReleaseSnapshot(s.snapshot);
  db.reset();
  ASSERT_TRUE(DestroyDB(path, Options()).ok());
}

}  // namespace
}  // namespace rocksdb
