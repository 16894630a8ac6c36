// The pluggable compaction and table hooks: SstPartitioner (output files
// cut at partition boundaries, trivial moves vetoed), FlushBlockPolicy
// (data blocks cut where the policy says), ConcurrentTaskLimiter (shared
// caps on running compactions) and their OPTIONS-file forms.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "strata/concurrent_task_limiter.h"
#include "strata/convenience.h"
#include "strata/flush_block_policy.h"
#include "strata/iterator.h"
#include "strata/listener.h"
#include "strata/metadata.h"
#include "strata/sst_partitioner.h"
#include "strata/table.h"
#include "strata/table_properties.h"
#include "strata/utilities/options_util.h"
#include "test_util/db_test_base.h"
#include "util/random.h"
#include "util/sync_point.h"

namespace strata {
namespace {

class DBCompactionHooksTest : public DBTestBase {
 protected:
  DBCompactionHooksTest() : DBTestBase("db_compaction_hooks_test") {}

  // Live tables of the default family at `level`.
  std::vector<LiveFileMetaData> FilesAt(int level) {
    std::vector<LiveFileMetaData> all, r;
    db_->GetLiveFilesMetaData(&all);
    for (const LiveFileMetaData& f : all) {
      if (f.level == level && f.column_family_name == "default") r.push_back(f);
    }
    std::sort(r.begin(), r.end(), [](const LiveFileMetaData& a, const LiveFileMetaData& b) {
      return a.smallestkey < b.smallestkey;
    });
    return r;
  }

  // Every key and value of the default family, in order.
  std::map<std::string, std::string> Contents() {
    std::map<std::string, std::string> r;
    std::unique_ptr<Iterator> it = db_->NewIterator(ReadOptions());
    for (it->SeekToFirst(); it->Valid(); it->Next())
      r[it->key().ToString()] = it->value().ToString();
    EXPECT_TRUE(it->status().ok()) << it->status().ToString();
    return r;
  }

  uint64_t DataBlocks(uint64_t* entries) {
    TablePropertiesCollection props;
    EXPECT_TRUE(db_->GetPropertiesOfAllTables(&props).ok());
    uint64_t blocks = 0;
    *entries = 0;
    for (const auto& [path, p] : props) {
      blocks += p->num_data_blocks;
      *entries += p->num_entries;
    }
    return blocks;
  }
};

// Cuts like the fixed-prefix partitioner but counts its calls and may veto
// every trivial move.
class CountingPartitioner : public SstPartitioner {
 public:
  CountingPartitioner(std::atomic<int>* should, std::atomic<int>* moves, bool allow_moves)
      : should_(should), moves_(moves), allow_moves_(allow_moves) {}
  const char* Name() const override { return "CountingPartitioner"; }
  PartitionerResult ShouldPartition(const PartitionerRequest& request) override {
    should_->fetch_add(1);
    return SstPartitionerFixedPrefix(1).ShouldPartition(request);
  }
  bool CanDoTrivialMove(const Slice&, const Slice&) override {
    moves_->fetch_add(1);
    return allow_moves_;
  }

 private:
  std::atomic<int>* should_;
  std::atomic<int>* moves_;
  const bool allow_moves_;
};

class CountingPartitionerFactory : public SstPartitionerFactory {
 public:
  explicit CountingPartitionerFactory(bool allow_moves) : allow_moves_(allow_moves) {}
  const char* Name() const override { return "CountingPartitionerFactory"; }
  std::unique_ptr<SstPartitioner> CreatePartitioner(
      const SstPartitioner::Context& context) const override {
    last_output_level = context.output_level;
    return std::make_unique<CountingPartitioner>(&should, &moves, allow_moves_);
  }
  mutable std::atomic<int> should{0};
  mutable std::atomic<int> moves{0};
  mutable std::atomic<int> last_output_level{-1};

 private:
  const bool allow_moves_;
};

TEST_F(DBCompactionHooksTest, FixedPrefixCutsCompactionOutputsAtPrefixes) {
  const uint32_t seed = static_cast<uint32_t>(std::random_device()());
  std::fprintf(stderr, "FixedPrefixCutsCompactionOutputsAtPrefixes seed %u\n", seed);
  SCOPED_TRACE("seed " + std::to_string(seed));
  Random rnd(seed);
  Options o = SmallOptions();
  o.disable_auto_compactions = true;
  o.sst_partitioner_factory = NewSstPartitionerFixedPrefixFactory(3);
  DestroyAndReopen(o);
  std::map<std::string, std::string> model;
  const char* prefixes[] = {"aaa", "aab", "abc", "b", "bzz", "cab"};
  for (int round = 0; round < 4; ++round) {
    for (int i = 0; i < 300; ++i) {
      const std::string key =
          std::string(prefixes[rnd.Uniform(6)]) + std::to_string(rnd.Uniform(200));
      if (rnd.OneIn(8)) {
        ASSERT_OK(Delete(key));
        model.erase(key);
      } else {
        const std::string value(rnd.Uniform(300), static_cast<char>('a' + rnd.Uniform(26)));
        ASSERT_OK(Put(key, value));
        model[key] = value;
      }
    }
    ASSERT_OK(Flush());
  }
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  std::set<std::string> prefixes_seen;
  int files = 0;
  for (int level = 1; level < o.num_levels; ++level) {
    for (const LiveFileMetaData& f : FilesAt(level)) {
      ++files;
      // A file never spans two prefixes (the partition of "b..." keys is the
      // key itself when shorter than 3 bytes).
      EXPECT_EQ(f.smallestkey.substr(0, 3), f.largestkey.substr(0, 3))
          << f.smallestkey << ".." << f.largestkey;
      prefixes_seen.insert(f.smallestkey.substr(0, 3));
    }
  }
  EXPECT_EQ(NumTableFilesAtLevel(0), 0);
  EXPECT_GE(files, static_cast<int>(prefixes_seen.size()));
  EXPECT_GE(prefixes_seen.size(), 5u);
  EXPECT_EQ(Contents(), model);
  Reopen();
  EXPECT_EQ(Contents(), model);
}

TEST_F(DBCompactionHooksTest, NoPartitionerLeavesOneOutputFile) {
  Options o = SmallOptions();
  o.disable_auto_compactions = true;
  DestroyAndReopen(o);
  for (int i = 0; i < 50; ++i) ASSERT_OK(Put(std::string(1, 'a' + i % 5) + std::to_string(i), "v"));
  ASSERT_OK(Flush());
  for (int i = 0; i < 50; ++i) ASSERT_OK(Put(std::string(1, 'a' + i % 5) + std::to_string(i), "w"));
  ASSERT_OK(Flush());
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  int files = 0;
  for (int level = 1; level < o.num_levels; ++level)
    files += static_cast<int>(FilesAt(level).size());
  EXPECT_EQ(files, 1);

  // The same with a one-byte prefix partitioner: five files.
  auto factory = std::make_shared<CountingPartitionerFactory>(true);
  o.sst_partitioner_factory = factory;
  DestroyAndReopen(o);
  for (int i = 0; i < 50; ++i) ASSERT_OK(Put(std::string(1, 'a' + i % 5) + std::to_string(i), "v"));
  ASSERT_OK(Flush());
  for (int i = 0; i < 50; ++i) ASSERT_OK(Put(std::string(1, 'a' + i % 5) + std::to_string(i), "w"));
  ASSERT_OK(Flush());
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  files = 0;
  for (int level = 1; level < o.num_levels; ++level)
    files += static_cast<int>(FilesAt(level).size());
  EXPECT_EQ(files, 5);
  // Asked for every entry after each file's first: 50 entries out, 5 files.
  EXPECT_GE(factory->should.load(), 45);
  EXPECT_GE(factory->last_output_level.load(), 1);
}

TEST_F(DBCompactionHooksTest, PartitionerVetoesTrivialMove) {
  for (bool allow : {true, false}) {
    SCOPED_TRACE(allow ? "moves allowed" : "moves vetoed");
    Options o = SmallOptions();
    o.disable_auto_compactions = true;
    // Level 0 goes to level 1, above the last level (a move into the last
    // level does not ask the partitioner, as in RocksDB).
    o.level_compaction_dynamic_level_bytes = false;
    auto factory = std::make_shared<CountingPartitionerFactory>(allow);
    o.sst_partitioner_factory = factory;
    DestroyAndReopen(o);
    // One level-0 file with keys of one prefix: a trivial move candidate.
    for (int i = 0; i < 20; ++i) ASSERT_OK(Put("a" + std::to_string(100 + i), "v"));
    ASSERT_OK(Flush());
    const std::vector<LiveFileMetaData> before = FilesAt(0);
    ASSERT_EQ(before.size(), 1u);
    CompactRangeOptions cro;
    ASSERT_OK(db_->CompactRange(cro, nullptr, nullptr));
    std::vector<uint64_t> after;
    for (int level = 1; level < o.num_levels; ++level) {
      for (const LiveFileMetaData& f : FilesAt(level)) after.push_back(f.file_number);
    }
    ASSERT_EQ(after.size(), 1u);
    EXPECT_GE(factory->moves.load(), 1);
    if (allow) {
      EXPECT_EQ(after[0], before[0].file_number);  // moved, not rewritten
    } else {
      EXPECT_NE(after[0], before[0].file_number);  // rewritten
    }
    EXPECT_EQ(Get("a105"), "v");
  }
}

TEST_F(DBCompactionHooksTest, FlushAndLevelZeroOutputsAreNotPartitioned) {
  Options o = SmallOptions();
  o.disable_auto_compactions = true;
  o.sst_partitioner_factory = NewSstPartitionerFixedPrefixFactory(1);
  DestroyAndReopen(o);
  for (int i = 0; i < 30; ++i) ASSERT_OK(Put(std::string(1, 'a' + i % 3) + std::to_string(i), "v"));
  ASSERT_OK(Flush());
  EXPECT_EQ(NumTableFilesAtLevel(0), 1);
}

// ---- FlushBlockPolicy ----

class RecordingPolicy : public FlushBlockPolicy {
 public:
  explicit RecordingPolicy(std::vector<std::string>* keys) : keys_(keys) {}
  bool Update(const Slice& key, const Slice& value) override {
    keys_->push_back(key.ToString() + "=" + value.ToString());
    return false;  // one block
  }

 private:
  std::vector<std::string>* keys_;
};

class RecordingFactory : public FlushBlockPolicyFactory {
 public:
  const char* Name() const override { return "RecordingFactory"; }
  std::unique_ptr<FlushBlockPolicy> NewFlushBlockPolicy(const BlockBasedTableOptions&,
                                                        const DataBlockView&) const override {
    return std::make_unique<RecordingPolicy>(&keys);
  }
  mutable std::vector<std::string> keys;
};

TEST_F(DBCompactionHooksTest, EveryKeyPolicyMakesOneEntryPerBlock) {
  Options o = SmallOptions();
  BlockBasedTableOptions t;
  t.flush_block_policy_factory = std::make_shared<FlushBlockEveryKeyPolicyFactory>();
  o.table_factory = NewBlockBasedTableFactory(t);
  DestroyAndReopen(o);
  for (int i = 0; i < 57; ++i) ASSERT_OK(Put("k" + std::to_string(1000 + i), std::string(10, 'x')));
  ASSERT_OK(Flush());
  uint64_t entries = 0;
  EXPECT_EQ(DataBlocks(&entries), 57u);
  EXPECT_EQ(entries, 57u);
  EXPECT_EQ(Get("k1030"), std::string(10, 'x'));
}

TEST_F(DBCompactionHooksTest, SizePolicyFactoryMatchesTheDefault) {
  uint64_t blocks[2], entries[2];
  for (int with_factory = 0; with_factory < 2; ++with_factory) {
    Options o = SmallOptions();
    BlockBasedTableOptions t;
    t.block_size = 512;
    if (with_factory)
      t.flush_block_policy_factory = std::make_shared<FlushBlockBySizePolicyFactory>();
    o.table_factory = NewBlockBasedTableFactory(t);
    DestroyAndReopen(o);
    Random rnd(301);
    for (int i = 0; i < 500; ++i) {
      ASSERT_OK(Put("k" + std::to_string(10000 + i), std::string(rnd.Uniform(100), 'v')));
    }
    ASSERT_OK(Flush());
    blocks[with_factory] = DataBlocks(&entries[with_factory]);
  }
  EXPECT_EQ(blocks[0], blocks[1]);
  EXPECT_EQ(entries[0], entries[1]);
  EXPECT_GT(blocks[0], 10u);
}

TEST_F(DBCompactionHooksTest, UserPolicySeesEveryEntry) {
  Options o = SmallOptions();
  BlockBasedTableOptions t;
  auto factory = std::make_shared<RecordingFactory>();
  t.flush_block_policy_factory = factory;
  o.table_factory = NewBlockBasedTableFactory(t);
  DestroyAndReopen(o);
  ASSERT_OK(Put("b", "2"));
  ASSERT_OK(Put("a", "1"));
  ASSERT_OK(Delete("c"));
  ASSERT_OK(Flush());
  ASSERT_EQ(factory->keys.size(), 3u);
  // Internal keys (user key + 8-byte trailer), in order.
  EXPECT_EQ(factory->keys[0].substr(0, 1), "a");
  EXPECT_EQ(factory->keys[0].size(), 1 + 8 + 2u);
  EXPECT_EQ(factory->keys[0].substr(9), "=1");
  EXPECT_EQ(factory->keys[1].substr(0, 1), "b");
  EXPECT_EQ(factory->keys[2].substr(0, 1), "c");
  uint64_t entries = 0;
  EXPECT_EQ(DataBlocks(&entries), 1u);
}

// ---- ConcurrentTaskLimiter ----

TEST_F(DBCompactionHooksTest, LimiterBasics) {
  std::unique_ptr<ConcurrentTaskLimiter> l = NewConcurrentTaskLimiter("lim", 3);
  EXPECT_EQ(l->GetName(), "lim");
  EXPECT_EQ(l->GetOutstandingTask(), 0);
  l->SetMaxOutstandingTask(0);
  l->ResetMaxOutstandingTask();
  EXPECT_EQ(l->GetOutstandingTask(), 0);
}

class OwnLimiter : public ConcurrentTaskLimiter {
 public:
  const std::string& GetName() const override { return name_; }
  void SetMaxOutstandingTask(int32_t) override {}
  void ResetMaxOutstandingTask() override {}
  int32_t GetOutstandingTask() const override { return 0; }

 private:
  std::string name_ = "own";
};

TEST_F(DBCompactionHooksTest, OpenRefusesAForeignLimiter) {
  Options o = SmallOptions();
  o.compaction_thread_limiter = std::make_shared<OwnLimiter>();
  Close();
  Status s = TryReopen(o);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("compaction_thread_limiter"), std::string::npos);
}

TEST_F(DBCompactionHooksTest, LimitZeroStopsAutomaticCompactions) {
  std::shared_ptr<ConcurrentTaskLimiter> limiter = NewConcurrentTaskLimiter("zero", 0);
  Options o = SmallOptions();
  o.level0_file_num_compaction_trigger = 2;
  o.compaction_thread_limiter = limiter;
  DestroyAndReopen(o);
  for (int f = 0; f < 4; ++f) {
    for (int i = 0; i < 10; ++i) ASSERT_OK(Put("k" + std::to_string(i), std::to_string(f)));
    ASSERT_OK(Flush());
  }
  // No compaction can start: WaitForCompact would wait for ever, so give
  // the background a moment instead.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_EQ(NumTableFilesAtLevel(0), 4);
  EXPECT_EQ(limiter->GetOutstandingTask(), 0);
  // A manual compaction is never held back.
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  EXPECT_EQ(NumTableFilesAtLevel(0), 0);
  EXPECT_EQ(limiter->GetOutstandingTask(), 0);
  // Unlimited again: the next flushes compact.
  limiter->ResetMaxOutstandingTask();
  for (int f = 0; f < 2; ++f) {
    ASSERT_OK(Put("x" + std::to_string(f), "v"));
    ASSERT_OK(Flush());
  }
  ASSERT_OK(WaitForCompact());
  EXPECT_LT(NumTableFilesAtLevel(0), 2);
  EXPECT_EQ(Get("k3"), "3");
}

TEST_F(DBCompactionHooksTest, SharedLimiterOfOneRunsOneCompactionAtATime) {
  std::shared_ptr<ConcurrentTaskLimiter> limiter = NewConcurrentTaskLimiter("one", 1);
  Options o = SmallOptions();
  o.max_background_jobs = 6;
  o.level0_file_num_compaction_trigger = 2;
  o.compaction_thread_limiter = limiter;
  DestroyAndReopen(o);
  ColumnFamilyHandle* second = nullptr;
  ASSERT_OK(db_->CreateColumnFamily(o, "second", &second));

  std::atomic<int> running{0};
  std::atomic<int> max_running{0};
  std::atomic<int> jobs{0};
  SyncPoint* sp = SyncPoint::GetInstance();
  sp->SetCallBack("CompactionJob::Run:Unlocked", [&](void*) {
    const int now = running.fetch_add(1) + 1;
    int seen = max_running.load();
    while (now > seen && !max_running.compare_exchange_weak(seen, now)) {
    }
    jobs.fetch_add(1);
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    running.fetch_sub(1);
  });
  sp->EnableProcessing();
  for (int round = 0; round < 6; ++round) {
    for (ColumnFamilyHandle* cf : {db_->DefaultColumnFamily(), second}) {
      for (int i = 0; i < 50; ++i) {
        ASSERT_OK(db_->Put(WriteOptions(), cf, "k" + std::to_string(round * 50 + i),
                           std::string(100, 'v')));
      }
      ASSERT_OK(db_->Flush(FlushOptions(), cf));
    }
  }
  ASSERT_OK(WaitForCompact());
  sp->DisableProcessing();
  sp->ClearAllCallBacks();
  EXPECT_GE(jobs.load(), 2);
  EXPECT_EQ(max_running.load(), 1);
  EXPECT_EQ(limiter->GetOutstandingTask(), 0);
  ASSERT_OK(db_->DestroyColumnFamilyHandle(second));
}

// ---- the OPTIONS-file forms ----

TEST_F(DBCompactionHooksTest, OptionStringsRoundTrip) {
  ConfigOptions config;
  ColumnFamilyOptions cf;
  cf.sst_partitioner_factory = NewSstPartitionerFixedPrefixFactory(4);
  std::string text;
  ASSERT_OK(GetStringFromColumnFamilyOptions(config, cf, &text));
  EXPECT_NE(text.find("sst_partitioner_factory={id=SstPartitionerFixedPrefixFactory;length=4;}"),
            std::string::npos)
      << text;
  ColumnFamilyOptions parsed;
  ASSERT_OK(GetColumnFamilyOptionsFromString(config, ColumnFamilyOptions(), text, &parsed));
  auto* fixed =
      dynamic_cast<SstPartitionerFixedPrefixFactory*>(parsed.sst_partitioner_factory.get());
  ASSERT_NE(fixed, nullptr);
  EXPECT_EQ(fixed->prefix_len(), 4u);
  ASSERT_OK(
      GetColumnFamilyOptionsFromString(config, cf, "sst_partitioner_factory=nullptr", &parsed));
  EXPECT_EQ(parsed.sst_partitioner_factory, nullptr);
  EXPECT_TRUE(GetColumnFamilyOptionsFromString(config, ColumnFamilyOptions(),
                                               "sst_partitioner_factory=NoSuchFactory", &parsed)
                  .IsInvalidArgument());

  BlockBasedTableOptions t;
  ASSERT_OK(GetBlockBasedTableOptionsFromString(
      config, t, "flush_block_policy_factory=FlushBlockEveryKeyPolicyFactory", &t));
  ASSERT_NE(t.flush_block_policy_factory, nullptr);
  EXPECT_STREQ(t.flush_block_policy_factory->Name(), "FlushBlockEveryKeyPolicyFactory");
  ASSERT_OK(GetBlockBasedTableOptionsFromString(
      config, t, "flush_block_policy_factory=FlushBlockBySizePolicyFactory", &t));
  EXPECT_EQ(t.flush_block_policy_factory, nullptr);
}

TEST_F(DBCompactionHooksTest, OptionsFileRecordsThePartitioner) {
  Options o = SmallOptions();
  o.sst_partitioner_factory = NewSstPartitionerFixedPrefixFactory(5);
  BlockBasedTableOptions t;
  t.flush_block_policy_factory = std::make_shared<FlushBlockEveryKeyPolicyFactory>();
  o.table_factory = NewBlockBasedTableFactory(t);
  DestroyAndReopen(o);
  Close();
  DBOptions db_options;
  std::vector<ColumnFamilyDescriptor> cfs;
  ASSERT_OK(LoadLatestOptions(ConfigOptions(), dbname_, &db_options, &cfs));
  ASSERT_EQ(cfs.size(), 1u);
  auto* fixed =
      dynamic_cast<SstPartitionerFixedPrefixFactory*>(cfs[0].options.sst_partitioner_factory.get());
  ASSERT_NE(fixed, nullptr);
  EXPECT_EQ(fixed->prefix_len(), 5u);
  ASSERT_NE(cfs[0].options.table_factory, nullptr);
  const auto& f = cfs[0].options.table_factory->table_options().flush_block_policy_factory;
  ASSERT_NE(f, nullptr);
  EXPECT_STREQ(f->Name(), "FlushBlockEveryKeyPolicyFactory");
}

// ---- CompactionJobStats ----

class StatsListener : public EventListener {
 public:
  void OnCompactionCompleted(DB*, const CompactionJobInfo& info) override {
    std::lock_guard<std::mutex> l(mu);
    last = info.stats;
  }
  std::mutex mu;
  CompactionJobStats last;
};

TEST_F(DBCompactionHooksTest, JobStatsCarryRocksDBsFields) {
  auto listener = std::make_shared<StatsListener>();
  Options o = SmallOptions();
  o.disable_auto_compactions = true;
  o.listeners.push_back(listener);
  DestroyAndReopen(o);
  for (int f = 0; f < 2; ++f) {
    for (int i = 0; i < 20; ++i) ASSERT_OK(Put("key" + std::to_string(i), std::string(30, 'v')));
    ASSERT_OK(Flush());
  }
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  CompactionJobStats js;
  {
    std::lock_guard<std::mutex> l(listener->mu);
    js = listener->last;
  }
  EXPECT_EQ(js.num_input_files, 2u);
  EXPECT_EQ(js.num_input_records, 40u);
  EXPECT_EQ(js.num_output_records, 20u);
  EXPECT_TRUE(js.is_manual_compaction);
  // Keys "keyN" plus their 8-byte trailers; values of 30 bytes.
  EXPECT_EQ(js.total_input_raw_value_bytes, 40u * 30);
  EXPECT_GT(js.total_input_raw_key_bytes, 40u * 8);
  EXPECT_EQ(js.num_blobs_read, 0u);
  EXPECT_EQ(CompactionJobStats::kMaxPrefixLength, 8u);

  CompactionJobStats sum = js;
  sum.Add(js);
  EXPECT_EQ(sum.num_input_records, 80u);
  EXPECT_EQ(sum.total_input_raw_value_bytes, 2 * 40u * 30);
  sum.Reset();
  EXPECT_EQ(sum.num_input_records, 0u);
  EXPECT_FALSE(sum.is_manual_compaction);
  EXPECT_TRUE(sum.smallest_output_key_prefix.empty());
}

}  // namespace
}  // namespace strata
