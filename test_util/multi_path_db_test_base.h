// MultiPathDbTest: a fixture for the tests of copies (checkpoint, backup)
// of a DB whose tables are spread over three table paths (db_paths): a
// leveled DB with small files, filled so that every path holds tables, and
// a std::map model of its contents.
#pragma once

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "db/db_impl.h"
#include "gtest/gtest.h"
#include "strata/db.h"
#include "test_util/testutil.h"

namespace strata {
namespace test {

inline std::string Key(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "key%07d", i);
  return buf;
}

// Table file names directly in dir.
inline std::set<std::string> Tables(const std::string& dir) {
  std::set<std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    if (e.path().extension() == ".sst") out.insert(e.path().filename().string());
  }
  return out;
}

// A leveled DB over three table paths: flushes in p0, L1 and L2 in p1,
// deeper levels in p2 (db/db_paths_test.cc has the arithmetic).
class MultiPathDbTest : public testing::Test {
 protected:
  ~MultiPathDbTest() override { db_.reset(); }

  Options SmallOptions() const {
    Options o;
    o.create_if_missing = true;
    o.compression = kNoCompression;
    o.write_buffer_size = 64 << 10;
    o.target_file_size_base = 64 << 10;
    o.max_bytes_for_level_base = 256 << 10;
    o.max_bytes_for_level_multiplier = 2;
    o.level0_file_num_compaction_trigger = 2;
    return o;
  }

  // Writes n keys (random order) and waits for the compactions; the tables
  // end up in p1 and p2 too.
  void OpenAndFill(int n) {
    Options o = SmallOptions();
    o.db_paths = {DbPath(p0_, 300 << 10), DbPath(p1_, 800 << 10), DbPath(p2_, 1ull << 40)};
    ASSERT_OK(DB::Open(o, dbname_, &db_));
    std::vector<int> order(n);
    for (int i = 0; i < n; ++i) order[i] = i;
    std::mt19937_64 rng(5);
    std::shuffle(order.begin(), order.end(), rng);
    for (int i : order) {
      const std::string v = std::to_string(i) + std::string(100, static_cast<char>('a' + i % 26));
      ASSERT_OK(db_->Put(WriteOptions(), Key(i), v));
      model_[Key(i)] = v;
    }
    ASSERT_OK(db_->Flush(FlushOptions()));
    ASSERT_OK(static_cast<DBImpl*>(db_.get())->WaitForCompact());
    ASSERT_FALSE(Tables(p1_).empty());
    ASSERT_FALSE(Tables(p2_).empty());
  }

  void Verify(DB* db, const std::map<std::string, std::string>& model) {
    std::unique_ptr<Iterator> it = db->NewIterator(ReadOptions());
    auto m = model.begin();
    for (it->SeekToFirst(); it->Valid(); it->Next(), ++m) {
      ASSERT_NE(model.end(), m) << "extra key " << it->key().ToString();
      ASSERT_EQ(m->first, it->key().ToString());
      ASSERT_EQ(m->second, it->value().ToString());
    }
    ASSERT_OK(it->status());
    ASSERT_EQ(model.end(), m);
  }

  test::TempDir tmp_{"db_paths_copy_test"};
  const std::string dbname_ = tmp_.path() + "/db";
  const std::string p0_ = tmp_.path() + "/p0";
  const std::string p1_ = tmp_.path() + "/p1";
  const std::string p2_ = tmp_.path() + "/p2";
  std::unique_ptr<DB> db_;
  std::map<std::string, std::string> model_;
};

}  // namespace test
}  // namespace strata
