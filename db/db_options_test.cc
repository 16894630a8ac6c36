// Online option changes on a live DB (db/db_impl_options.cc): each mutable
// option takes effect, immutable and invalid ones change nothing, the
// OPTIONS file and GetOptions show the change, background work pauses, and
// SetOptions races safely with writers and readers.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <map>
#include <mutex>
#include <random>
#include <thread>

#include "db/filename.h"
#include "strata/convenience.h"
#include "strata/listener.h"
#include "strata/utilities/options_util.h"
#include "test_util/db_test_base.h"
#include "util/random.h"

namespace strata {
namespace {

class FlushCounter : public EventListener {
 public:
  void OnFlushBegin(DB*, const FlushJobInfo&) override { flushes.fetch_add(1); }
  void OnCompactionBegin(DB*, const CompactionJobInfo&) override { compactions.fetch_add(1); }
  std::atomic<int> flushes{0};
  std::atomic<int> compactions{0};
};

class DBOptionsTest : public DBTestBase {
 protected:
  DBOptionsTest() : DBTestBase("db_options_test") {}

  // n keys of value_size bytes, keys "k<seed>-<i>".
  void Fill(int n, int value_size, int seed = 0) {
    std::mt19937_64 rng(301 + seed);
    for (int i = 0; i < n; ++i) {
      ASSERT_OK(Put("k" + std::to_string(seed) + "-" + std::to_string(i),
                    test::RandomPrintable(&rng, value_size)));
    }
  }
  // The newest OPTIONS file's text.
  std::string OptionsFileText() {
    std::string name;
    EXPECT_OK(GetLatestOptionsFileName(dbname_, options_.env, &name));
    std::string text;
    EXPECT_OK(ReadFileToString(options_.env->GetFileSystem(), dbname_ + "/" + name, &text));
    return text;
  }
};

TEST_F(DBOptionsTest, WriteBufferSizeSwitchesMemtablesAtTheNewSize) {
  Options o = SmallOptions();
  o.write_buffer_size = 4 << 20;
  o.disable_auto_compactions = true;
  Open(o);
  Fill(200, 1000);  // 200 KB: no switch at 4 MiB
  EXPECT_EQ(NumTableFilesAtLevel(0), 0);
  ASSERT_OK(db_->SetOptions({{"write_buffer_size", "64k"}}));
  EXPECT_EQ(db_->GetOptions().write_buffer_size, 64u << 10);
  Fill(1000, 1000, 1);  // ~1 MB more: about 15 switches at 64 KiB
  ASSERT_OK(WaitForCompact());
  EXPECT_GE(NumTableFilesAtLevel(0), 10);
  // Back up: the next megabyte stays in the memtable.
  ASSERT_OK(db_->SetOptions({{"write_buffer_size", "8m"}}));
  ASSERT_OK(Flush());
  const int files = NumTableFilesAtLevel(0);
  Fill(1000, 1000, 2);
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(NumTableFilesAtLevel(0), files);
  EXPECT_EQ(Get("k1-999").size(), 1000u);
}

TEST_F(DBOptionsTest, ImmutableUnknownAndInvalidChangeNothing) {
  Open(SmallOptions());
  const Options before = db_->GetOptions();
  Status s = db_->SetOptions({{"write_buffer_size", "1m"}, {"num_levels", "3"}});
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_EQ(s.ToString(), "Invalid argument: Option not changeable: num_levels");
  s = db_->SetOptions({{"write_buffer_size", "1m"}, {"no_such_option", "3"}});
  EXPECT_EQ(s.ToString(), "Invalid argument: Could not find option: : no_such_option");
  s = db_->SetOptions({{"write_buffer_size", "1m"}, {"level0_stop_writes_trigger", "x"}});
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("level0_stop_writes_trigger"), std::string::npos);
  // Validated as at Open.
  s = db_->SetOptions({{"write_buffer_size", "100"}});
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("write_buffer_size"), std::string::npos);
  s = db_->SetOptions({{"compression", "kXpressCompression"}});
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  s = db_->SetOptions({{"block_based_table_factory", "{checksum=kCRC32c}"}});
  EXPECT_EQ(s.ToString(), "Invalid argument: Option not changeable: checksum");
  EXPECT_TRUE(db_->SetOptions({}).IsInvalidArgument());
  // A RocksDB option Strata lacks: fine at RocksDB's default, refused else.
  ASSERT_OK(db_->SetOptions({{"report_bg_io_stats", "false"}}));
  s = db_->SetOptions({{"report_bg_io_stats", "true"}});
  EXPECT_NE(s.ToString().find("Strata does not support option report_bg_io_stats"),
            std::string::npos);
  EXPECT_EQ(db_->GetOptions().write_buffer_size, before.write_buffer_size);
  EXPECT_EQ(db_->GetOptions().level0_stop_writes_trigger, before.level0_stop_writes_trigger);

  s = db_->SetDBOptions({{"max_background_jobs", "4"}, {"create_if_missing", "false"}});
  EXPECT_EQ(s.ToString(), "Invalid argument: Option not changeable: create_if_missing");
  EXPECT_EQ(db_->GetDBOptions().max_background_jobs, before.max_background_jobs);
  s = db_->SetDBOptions({{"max_open_files", "100"}});
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("max_open_files"), std::string::npos);
  EXPECT_TRUE(db_->SetDBOptions({{"max_background_jobs", "0"}}).IsInvalidArgument());
  EXPECT_EQ(db_->GetDBOptions().max_background_jobs, before.max_background_jobs);
}

TEST_F(DBOptionsTest, OptionsFileAndGetOptionsShowTheChange) {
  Open(SmallOptions());
  ASSERT_OK(db_->SetOptions({{"write_buffer_size", "123456"},
                             {"max_bytes_for_level_multiplier", "7"},
                             {"block_based_table_factory", "{block_size=16k}"},
                             {"compression", "kNoCompression"}}));
  ASSERT_OK(db_->SetDBOptions({{"delayed_write_rate", "2m"}, {"max_total_wal_size", "1g"}}));
  const std::string text = OptionsFileText();
  EXPECT_NE(text.find("write_buffer_size=123456"), std::string::npos) << text;
  EXPECT_NE(text.find("block_size=16384"), std::string::npos);
  EXPECT_NE(text.find("delayed_write_rate=2097152"), std::string::npos);
  EXPECT_NE(text.find("max_total_wal_size=1073741824"), std::string::npos);
  const Options now = db_->GetOptions();
  EXPECT_EQ(now.write_buffer_size, 123456u);
  EXPECT_DOUBLE_EQ(now.max_bytes_for_level_multiplier, 7);
  EXPECT_EQ(now.table_factory->table_options().block_size, 16384u);
  EXPECT_EQ(now.table_factory->table_options().block_restart_interval, 16);
  EXPECT_EQ(now.delayed_write_rate, 2u << 20);
  EXPECT_EQ(db_->GetDBOptions().max_total_wal_size, 1u << 30);

  // Parsed back by LoadLatestOptions.
  DBOptions db_opts;
  std::vector<ColumnFamilyDescriptor> cfs;
  ASSERT_OK(LoadLatestOptions(ConfigOptions(), dbname_, &db_opts, &cfs));
  ASSERT_EQ(cfs.size(), 1u);
  EXPECT_EQ(cfs[0].options.write_buffer_size, 123456u);
  EXPECT_EQ(cfs[0].options.table_factory->table_options().block_size, 16384u);
  EXPECT_EQ(db_opts.delayed_write_rate, 2u << 20);

  // Flushes with the new table options still read back.
  Fill(100, 100);
  ASSERT_OK(Flush());
  EXPECT_EQ(Get("k0-5").size(), 100u);
  // The LOG says what changed.
  std::string log;
  ASSERT_OK(ReadFileToString(options_.env->GetFileSystem(), dbname_ + "/LOG", &log));
  EXPECT_NE(log.find("SetOptions() on column family [default], inputs:"), std::string::npos);
  EXPECT_NE(log.find("write_buffer_size: 123456"), std::string::npos);
  EXPECT_NE(log.find("[default] SetOptions() succeeded"), std::string::npos);
  EXPECT_NE(log.find("SetDBOptions() succeeded"), std::string::npos);
}

// The compaction-style options RocksDB 7.8.3 lets SetOptions change: the
// new values are the family's options (GetOptions, the OPTIONS file, the
// picker's next picks read the same published set); compaction_style and
// compaction_pri are fixed at open.
TEST_F(DBOptionsTest, SetCompactionStyleOptions) {
  Open(SmallOptions());
  const Options before = db_->GetOptions();
  // Resolved at open as RocksDB does: 30 days for leveled, block-based.
  EXPECT_EQ(before.ttl, 30u * 24 * 3600);
  EXPECT_EQ(before.periodic_compaction_seconds, 0u);
  ASSERT_OK(db_->SetOptions({{"compaction_options_universal", "{size_ratio=7;max_merge_width=9}"},
                             {"compaction_options_fifo", "{max_table_files_size=4m}"},
                             {"compaction_options_fifo.allow_compaction", "true"},
                             {"ttl", "0"},
                             {"periodic_compaction_seconds", "0"}}));
  Options now = db_->GetOptions();
  EXPECT_EQ(now.compaction_options_universal.size_ratio, 7u);
  EXPECT_EQ(now.compaction_options_universal.max_merge_width, 9u);
  EXPECT_EQ(now.compaction_options_universal.min_merge_width, 2u);  // untouched
  EXPECT_EQ(now.compaction_options_fifo.max_table_files_size, 4u << 20);
  EXPECT_TRUE(now.compaction_options_fifo.allow_compaction);
  EXPECT_EQ(now.ttl, 0u);
  std::string text = OptionsFileText();
  EXPECT_NE(text.find("compaction_options_universal={incremental=false;compression_size_percent=-1;"
                      "allow_trivial_move=false;max_size_amplification_percent=200;"
                      "max_merge_width=9;stop_style=kCompactionStopStyleTotalSize;"
                      "min_merge_width=2;size_ratio=7;}"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("compaction_options_fifo={allow_compaction=true;age_for_warm=0;"
                      "max_table_files_size=4194304;}"),
            std::string::npos);
  EXPECT_NE(text.find("  ttl=0\n"), std::string::npos);
  // Back to the 30 days of the default.
  ASSERT_OK(db_->SetOptions({{"ttl", "2592000"}}));
  EXPECT_EQ(db_->GetOptions().ttl, 2592000u);

  // Fixed at open.
  Status s = db_->SetOptions({{"compaction_style", "kCompactionStyleUniversal"}});
  EXPECT_EQ(s.ToString(), "Invalid argument: Option not changeable: compaction_style");
  s = db_->SetOptions({{"compaction_pri", "kByCompensatedSize"}});
  EXPECT_EQ(s.ToString(), "Invalid argument: Option not changeable: compaction_pri");
  // A bad nested value names the field and changes nothing.
  s = db_->SetOptions({{"compaction_options_universal", "{size_ratio=7;min_merge_width=x}"}});
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("compaction_options_universal.min_merge_width"), std::string::npos)
      << s.ToString();
  EXPECT_EQ(db_->GetOptions().compaction_options_universal.min_merge_width, 2u);
  // ttl is mutable (RocksDB 7.8.3) and takes effect.
  EXPECT_EQ(db_->GetOptions().ttl, 2592000u);
  ASSERT_OK(db_->SetOptions({{"ttl", "3600"}}));
  EXPECT_EQ(db_->GetOptions().ttl, 3600u);

  // What SetOptions set survives a reopen through the OPTIONS file.
  DBOptions db_opts;
  std::vector<ColumnFamilyDescriptor> cfs;
  ASSERT_OK(LoadLatestOptions(ConfigOptions(), dbname_, &db_opts, &cfs));
  ASSERT_EQ(cfs.size(), 1u);
  EXPECT_EQ(cfs[0].options.compaction_options_universal.size_ratio, 7u);
  EXPECT_TRUE(cfs[0].options.compaction_options_fifo.allow_compaction);
}

TEST_F(DBOptionsTest, Level0TriggerStartsCompaction) {
  Options o = SmallOptions();
  o.level0_file_num_compaction_trigger = 10;
  o.level0_slowdown_writes_trigger = 20;
  o.level0_stop_writes_trigger = 30;
  Open(o);
  for (int i = 0; i < 4; ++i) {
    Fill(50, 100, i);
    ASSERT_OK(Flush());
  }
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(NumTableFilesAtLevel(0), 4);
  ASSERT_OK(db_->SetOptions({{"level0_file_num_compaction_trigger", "2"}}));
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(NumTableFilesAtLevel(0), 0);
  int deeper = 0;
  for (int level = 1; level < 7; ++level) deeper += NumTableFilesAtLevel(level);
  EXPECT_GT(deeper, 0);
}

TEST_F(DBOptionsTest, Level0StallTriggers) {
  Options o = SmallOptions();
  o.level0_file_num_compaction_trigger = 10;
  o.level0_slowdown_writes_trigger = 20;
  o.level0_stop_writes_trigger = 30;
  Open(o);
  for (int i = 0; i < 4; ++i) {
    Fill(50, 100, i);
    ASSERT_OK(Flush());
  }
  EXPECT_EQ(IntProperty("rocksdb.actual-delayed-write-rate"), 0u);
  WriteOptions no_wait;
  no_wait.no_slowdown = true;
  ASSERT_OK(Put("x", "1", no_wait));
  // Paused, so the compaction the new triggers call for does not run.
  ASSERT_OK(db_->PauseBackgroundWork());
  ASSERT_OK(db_->SetOptions({{"level0_file_num_compaction_trigger", "2"},
                             {"level0_slowdown_writes_trigger", "3"},
                             {"level0_stop_writes_trigger", "4"}}));
  EXPECT_GT(IntProperty("rocksdb.actual-delayed-write-rate"), 0u);
  Status s = Put("y", "1", no_wait);
  EXPECT_TRUE(s.IsIncomplete()) << s.ToString();
  // Stop trigger raised: slowed down, not stopped.
  ASSERT_OK(db_->SetOptions({{"level0_stop_writes_trigger", "40"}}));
  ASSERT_OK(db_->SetOptions({{"level0_slowdown_writes_trigger", "30"}}));
  EXPECT_EQ(IntProperty("rocksdb.actual-delayed-write-rate"), 0u);
  ASSERT_OK(Put("y", "1", no_wait));
  ASSERT_OK(db_->ContinueBackgroundWork());
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(NumTableFilesAtLevel(0), 0);
}

TEST_F(DBOptionsTest, DisableAndEnableAutoCompaction) {
  Options o = SmallOptions();
  o.disable_auto_compactions = true;
  Open(o);
  for (int i = 0; i < 5; ++i) {
    Fill(50, 100, i);
    ASSERT_OK(Flush());
  }
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(NumTableFilesAtLevel(0), 5);
  ASSERT_OK(db_->EnableAutoCompaction({db_->DefaultColumnFamily()}));
  EXPECT_FALSE(db_->GetOptions().disable_auto_compactions);
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(NumTableFilesAtLevel(0), 0);
  ASSERT_OK(db_->SetOptions({{"disable_auto_compactions", "true"}}));
  for (int i = 0; i < 3; ++i) {
    Fill(50, 100, 10 + i);
    ASSERT_OK(Flush());
  }
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(NumTableFilesAtLevel(0), 3);
}

TEST_F(DBOptionsTest, TargetFileSizeBaseSizesNewCompactionOutputs) {
  Options o = SmallOptions();
  o.write_buffer_size = 4 << 20;
  o.target_file_size_base = 8 << 20;
  o.disable_auto_compactions = true;
  Open(o);
  Fill(1000, 1000);
  ASSERT_OK(Flush());
  CompactRangeOptions cro;
  cro.bottommost_level_compaction = BottommostLevelCompaction::kForce;
  ASSERT_OK(db_->CompactRange(cro, nullptr, nullptr));
  const int before = NumTableFilesAtLevel(1) + NumTableFilesAtLevel(6);
  EXPECT_LE(before, 1);
  ASSERT_OK(db_->SetOptions({{"target_file_size_base", "128k"}}));
  ASSERT_OK(db_->CompactRange(cro, nullptr, nullptr));
  std::vector<LiveFileMetaData> files;
  int outputs = 0;
  for (int level = 1; level < 7; ++level) outputs += NumTableFilesAtLevel(level);
  EXPECT_GE(outputs, 6);  // ~1 MB in files of ~128 KiB
  EXPECT_EQ(Get("k0-10").size(), 1000u);
}

TEST_F(DBOptionsTest, MaxBackgroundJobsGrowsThePools) {
  Open(SmallOptions());
  ASSERT_OK(db_->SetDBOptions({{"max_background_jobs", "12"}}));
  EXPECT_EQ(db_->GetDBOptions().max_background_jobs, 12);
  EXPECT_GE(options_.env->GetBackgroundThreads(Env::Priority::kLow), 9);
  EXPECT_GE(options_.env->GetBackgroundThreads(Env::Priority::kHigh), 3);
  ASSERT_OK(db_->SetDBOptions({{"max_subcompactions", "3"},
                               {"stats_dump_period_sec", "0"},
                               {"avoid_flush_during_shutdown", "true"},
                               {"writable_file_max_buffer_size", "64k"}}));
  EXPECT_EQ(db_->GetOptions().max_subcompactions, 3u);
  EXPECT_EQ(db_->GetDBOptions().stats_dump_period_sec, 0u);
  EXPECT_TRUE(db_->GetDBOptions().avoid_flush_during_shutdown);
  Fill(500, 200);
  ASSERT_OK(Flush());
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(Get("k0-1").size(), 200u);
}

TEST_F(DBOptionsTest, PauseStopsFlushesAndCompactions) {
  auto counter = std::make_shared<FlushCounter>();
  Options o = SmallOptions();
  o.max_write_buffer_number = 20;
  o.listeners.push_back(counter);
  Open(o);
  ASSERT_OK(db_->PauseBackgroundWork());
  ASSERT_OK(db_->PauseBackgroundWork());  // counted
  const int flushes = counter->flushes.load();
  const int compactions = counter->compactions.load();
  Fill(300, 1000);  // ~5 memtables at 64 KiB: switched, not flushed
  FlushOptions no_wait;
  no_wait.wait = false;
  ASSERT_OK(db_->Flush(no_wait));
  EXPECT_TRUE(db_->Flush(FlushOptions()).IsIncomplete());
  EXPECT_EQ(NumTableFilesAtLevel(0), 0);
  ASSERT_OK(db_->ContinueBackgroundWork());
  EXPECT_EQ(counter->flushes.load(), flushes);
  EXPECT_EQ(counter->compactions.load(), compactions);
  EXPECT_EQ(Get("k0-299").size(), 1000u);
  ASSERT_OK(db_->ContinueBackgroundWork());
  EXPECT_TRUE(db_->ContinueBackgroundWork().IsInvalidArgument());
  ASSERT_OK(WaitForCompact());
  EXPECT_GT(counter->flushes.load(), flushes);
  EXPECT_GT(counter->compactions.load(), compactions);
  EXPECT_EQ(Get("k0-299").size(), 1000u);
}

TEST_F(DBOptionsTest, OtherFamiliesAndReadOnly) {
  Open(SmallOptions());
  ColumnFamilyHandle* h = nullptr;
  ASSERT_OK(db_->CreateColumnFamily(ColumnFamilyOptions(), "two", &h));
  ASSERT_OK(db_->SetOptions(h, {{"write_buffer_size", "256k"}, {"prefix_extractor", "fixed:2"}}));
  EXPECT_EQ(db_->GetOptions(h).write_buffer_size, 256u << 10);
  EXPECT_STREQ(db_->GetOptions(h).prefix_extractor->Name(), "rocksdb.FixedPrefix.2");
  EXPECT_EQ(db_->GetOptions().write_buffer_size, SmallOptions().write_buffer_size);
  ASSERT_OK(db_->Put(WriteOptions(), h, "abc", "1"));
  std::string v;
  ASSERT_OK(db_->Get(ReadOptions(), h, "abc", &v));
  EXPECT_EQ(v, "1");
  const std::string text = OptionsFileText();
  EXPECT_NE(text.find("[CFOptions \"two\"]"), std::string::npos);
  EXPECT_NE(text.find("write_buffer_size=262144"), std::string::npos);
  ASSERT_OK(db_->DestroyColumnFamilyHandle(h));
  Close();
  std::unique_ptr<DB> ro;
  Options o = SmallOptions();
  ASSERT_OK(DB::OpenForReadOnly(o, dbname_, &ro));
  EXPECT_TRUE(ro->SetOptions({{"write_buffer_size", "1m"}}).IsNotSupported());
  EXPECT_TRUE(ro->SetDBOptions({{"delayed_write_rate", "1m"}}).IsNotSupported());
}

// SetOptions in a loop while writers and readers run; the data is checked
// against a model at the end (run under TSan too).
TEST_F(DBOptionsTest, SetOptionsRacesWithWritersAndReaders) {
  Options o = SmallOptions();
  o.max_write_buffer_number = 4;
  Open(o);
  std::atomic<bool> stop{false};
  std::mutex model_mu;
  std::map<std::string, std::string> model;
  std::vector<std::thread> threads;
  for (int w = 0; w < 2; ++w) {
    threads.emplace_back([&, w] {
      Random rnd(w + 11);
      std::mt19937_64 rng(w + 11);
      for (int i = 0; i < 3000; ++i) {
        const std::string key = "w" + std::to_string(w) + "-" + std::to_string(rnd.Uniform(500));
        const std::string value = test::RandomPrintable(&rng, 100);
        ASSERT_OK(db_->Put(WriteOptions(), key, value));
        std::lock_guard<std::mutex> l(model_mu);
        model[key] = value;
      }
    });
  }
  threads.emplace_back([&] {
    std::string v;
    while (!stop.load()) {
      Status s = db_->Get(ReadOptions(), "w0-1", &v);
      ASSERT_TRUE(s.ok() || s.IsNotFound());
    }
  });
  int changes = 0;
  std::thread changer([&] {
    Random rnd(5);
    while (!stop.load()) {
      const std::string wbs = std::to_string(32 + rnd.Uniform(96)) + "k";
      ASSERT_OK(db_->SetOptions(
          {{"write_buffer_size", wbs},
           {"level0_file_num_compaction_trigger", std::to_string(2 + rnd.Uniform(4))},
           {"target_file_size_base", std::to_string(32 + rnd.Uniform(64)) + "k"},
           {"disable_auto_compactions", rnd.OneIn(4) ? "true" : "false"}}));
      ASSERT_OK(
          db_->SetDBOptions({{"delayed_write_rate", std::to_string(1 + rnd.Uniform(64)) + "m"}}));
      ++changes;
    }
  });
  threads[0].join();
  threads[1].join();
  stop.store(true);
  threads[2].join();
  changer.join();
  EXPECT_GT(changes, 0);
  ASSERT_OK(db_->SetOptions({{"disable_auto_compactions", "false"}}));
  ASSERT_OK(WaitForCompact());
  for (const auto& [k, v] : model) EXPECT_EQ(Get(k), v) << k;
  Reopen();
  for (const auto& [k, v] : model) ASSERT_EQ(Get(k), v) << k;
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

// An OPTIONS file RocksDB 7.8.3 wrote (db_bench), read by LoadLatestOptions;
// the DB it describes opens with the options read and its keys read back.
TEST(LoadOptionsTest, RocksDBWrittenOptionsFile) {
  if (access("/usr/bin/db_bench", X_OK) != 0) GTEST_SKIP() << "no /usr/bin/db_bench";
  test::TempDir dir("load_options_test");
  const std::string path = dir.path() + "/rocks";
  const std::string cmd =
      "/usr/bin/db_bench --benchmarks=fillseq --num=1000 --compression_type=none"
      " --db=" +
      path + " >/dev/null 2>&1";
  ASSERT_EQ(system(cmd.c_str()), 0);
  DBOptions db;
  std::vector<ColumnFamilyDescriptor> cfs;
  // db_bench sets options Strata lacks to values other than RocksDB's
  // defaults: named, unless ignored.
  Status s = LoadLatestOptions(ConfigOptions(), path, &db, &cfs);
  if (!s.ok()) {
    std::fprintf(stderr, "strict load: %s\n", s.ToString().c_str());
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(s.ToString().find("OPTIONS-"), std::string::npos) << s.ToString();
    EXPECT_NE(s.ToString().find("Strata does not support option"), std::string::npos)
        << s.ToString();
  }
  ConfigOptions lenient;
  lenient.ignore_unknown_options = true;
  ASSERT_OK(LoadLatestOptions(lenient, path, &db, &cfs));
  ASSERT_EQ(cfs.size(), 1u);
  EXPECT_EQ(cfs[0].name, "default");
  EXPECT_EQ(cfs[0].options.compression, kNoCompression);
  EXPECT_EQ(cfs[0].options.write_buffer_size, 64u << 20);
  EXPECT_EQ(cfs[0].options.table_factory->table_options().block_size, 4096u);
  EXPECT_EQ(cfs[0].options.table_factory->table_options().format_version, 5u);
  std::shared_ptr<Cache> cache = NewLRUCache(1 << 20);
  ASSERT_OK(LoadLatestOptions(lenient, path, &db, &cfs, &cache));
  EXPECT_EQ(cfs[0].options.table_factory->table_options().block_cache, cache);

  // db_bench turns on enable_pipelined_write, which Strata refuses at Open.
  EXPECT_TRUE(db.enable_pipelined_write);
  db.enable_pipelined_write = false;
  std::vector<ColumnFamilyHandle*> handles;
  std::unique_ptr<DB> opened;
  ASSERT_OK(DB::Open(db, path, cfs, &handles, &opened));
  std::unique_ptr<Iterator> it = opened->NewIterator(ReadOptions());
  int n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++n;
  ASSERT_OK(it->status());
  EXPECT_EQ(n, 1000);
  it.reset();
  for (ColumnFamilyHandle* h : handles) ASSERT_OK(opened->DestroyColumnFamilyHandle(h));
  ASSERT_OK(opened->Close());
}

TEST(LoadOptionsTest, BadFilesAreNamed) {
  test::TempDir dir("load_options_bad");
  FileSystem* fs = Env::Default()->GetFileSystem();
  DBOptions db;
  std::vector<ColumnFamilyDescriptor> cfs;
  EXPECT_TRUE(LoadLatestOptions(ConfigOptions(), dir.path(), &db, &cfs).IsNotFound());
  const std::string file = dir.path() + "/OPTIONS-000005";
  ASSERT_OK(WriteStringToFile(fs,
                              "[Version]\n  rocksdb_version=7.8.3\n[DBOptions]\n"
                              "  max_open_files=50\n  delete_obsolete_files_period_micros=1000\n"
                              "[CFOptions \"default\"]\n  write_buffer_size=1k\n",
                              file, false));
  Status s = LoadLatestOptions(ConfigOptions(), dir.path(), &db, &cfs);
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("OPTIONS-000005: [DBOptions]"), std::string::npos) << s.ToString();
  EXPECT_NE(s.ToString().find("delete_obsolete_files_period_micros"), std::string::npos)
      << s.ToString();
  ConfigOptions lenient;
  lenient.ignore_unknown_options = true;
  ASSERT_OK(LoadLatestOptions(lenient, dir.path(), &db, &cfs));
  EXPECT_EQ(db.max_open_files, 50);
  EXPECT_EQ(cfs[0].options.write_buffer_size, 1024u);
  ASSERT_OK(WriteStringToFile(fs, "[DBOptions]\n  garbage line\n", file, false));
  s = LoadLatestOptions(lenient, dir.path(), &db, &cfs);
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("OPTIONS-000005:2"), std::string::npos) << s.ToString();
  ASSERT_OK(WriteStringToFile(fs, "[DBOptions]\n  max_open_files=-1\n", file, false));
  EXPECT_TRUE(LoadLatestOptions(lenient, dir.path(), &db, &cfs).IsInvalidArgument());
}

}  // namespace
}  // namespace strata
