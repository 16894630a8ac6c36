// Prefix extractors through the DB: prefix Bloom filters in tables and
// memtables never hide a key, prefix_same_as_start stops at the prefix's
// end in both directions, total_order_seek sees everything.
#include <map>
#include <memory>
#include <string>

#include "strata/db.h"
#include "strata/options.h"
#include "strata/slice_transform.h"
#include "strata/table.h"
#include "test_util/db_test_base.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

class DBPrefixTest : public DBTestBase, public ::testing::WithParamInterface<bool> {
 protected:
  DBPrefixTest() : DBTestBase("db_prefix_test") {
    options_ = Options();
    options_.create_if_missing = true;
    options_.prefix_extractor.reset(NewFixedPrefixTransform(3));
    options_.memtable_prefix_bloom_size_ratio = 0.1;
    BlockBasedTableOptions t;
    t.filter_policy = NewBloomFilterPolicy(10);
    t.whole_key_filtering = GetParam();
    options_.table_factory = NewBlockBasedTableFactory(t);
    options_.write_buffer_size = 64 << 10;
  }
  ~DBPrefixTest() override { Close(); }

  // Keys "pNN-MMM": 20 prefixes of 30 keys, prefixes with odd NN absent.
  static std::string Key(int p, int i) {
    char buf[32];
    snprintf(buf, sizeof(buf), "p%02d-%03d", p, i);
    return buf;
  }

  void Fill() {
    for (int i = 0; i < 30; i++) {
      for (int p = 0; p < 20; p += 2) {
        ASSERT_OK(db_->Put(WriteOptions(), Key(p, i), "v" + Key(p, i)));
        model_[Key(p, i)] = "v" + Key(p, i);
      }
    }
  }

  // Every key in the model is found; absent keys (also of present
  // prefixes) are not.
  void CheckGets() {
    std::string v;
    for (const auto& [k, val] : model_) {
      ASSERT_OK(db_->Get(ReadOptions(), k, &v));
      EXPECT_EQ(v, val);
    }
    for (int p = 0; p < 21; p++) {
      EXPECT_TRUE(db_->Get(ReadOptions(), Key(p, 500), &v).IsNotFound());
    }
  }

  // With prefix_same_as_start, a Seek walks exactly its prefix's keys.
  void CheckPrefixWalks() {
    ReadOptions ro;
    ro.prefix_same_as_start = true;
    std::unique_ptr<Iterator> it(db_->NewIterator(ro));
    for (int p = 0; p < 21; p++) {
      const std::string prefix = Key(p, 0).substr(0, 3);
      std::string want, got;
      for (auto m = model_.lower_bound(prefix);
           m != model_.end() && m->first.compare(0, 3, prefix) == 0; ++m) {
        want += m->first + " ";
      }
      for (it->Seek(prefix); it->Valid(); it->Next()) got += it->key().ToString() + " ";
      ASSERT_OK(it->status());
      EXPECT_EQ(got, want) << "forward " << prefix;
      // Backward from the prefix's last possible key.
      std::string back;
      for (it->SeekForPrev(prefix + "\xff"); it->Valid(); it->Prev()) {
        back = it->key().ToString() + " " + back;
      }
      ASSERT_OK(it->status());
      EXPECT_EQ(back, want) << "backward " << prefix;
    }
    // total_order_seek: the whole database from anywhere.
    ReadOptions total;
    total.total_order_seek = true;
    std::unique_ptr<Iterator> all(db_->NewIterator(total));
    size_t n = 0;
    for (all->Seek(Key(1, 0)); all->Valid(); all->Next()) n++;
    ASSERT_OK(all->status());
    EXPECT_EQ(n, static_cast<size_t>(std::distance(model_.lower_bound(Key(1, 0)), model_.end())));
  }

  std::map<std::string, std::string> model_;
};

TEST_P(DBPrefixTest, MemtableTablesAndCompaction) {
  Open();
  Fill();
  CheckGets();
  CheckPrefixWalks();
  ASSERT_OK(Flush());
  CheckGets();
  CheckPrefixWalks();
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  CheckGets();
  CheckPrefixWalks();
  // Reopened with another extractor, the tables' prefix filters are
  // ignored and everything is still found.
  options_.prefix_extractor.reset(NewCappedPrefixTransform(2));
  Reopen();
  CheckGets();
}

INSTANTIATE_TEST_SUITE_P(WholeKeyFiltering, DBPrefixTest, ::testing::Bool());

}  // namespace
}  // namespace strata
