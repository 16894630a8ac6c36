// Tests of db_bench's shared half: flag parsing, the key and value bytes
// (checked against bytes RocksDB 7.8.3's db_bench wrote), the report line,
// thread seeding, and the workloads over an in-memory engine, whose found
// counts must equal the ones RocksDB's db_bench prints for the same flags.

#include "tools/db_bench_common.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "test_util/testutil.h"
#include "tools/db_bench_options.h"

namespace strata::bench {
namespace {

// Parses args (without the program name) into *flags.
bool ParseArgs(std::vector<std::string> args, BenchFlags* flags, std::string* error) {
  args.insert(args.begin(), "db_bench");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  return flags->Parse(static_cast<int>(argv.size()), argv.data(), error);
}

TEST(BenchFlagsTest, ParsesGflagsSyntax) {
  BenchFlags f;
  std::string error;
  ASSERT_TRUE(ParseArgs({"--num=5", "-reads", "7", "--sync", "--nodisable_wal",
                         "--compression_type=zstd", "--compression_ratio=0.25",
                         "--benchmark_write_rate_limit=10", "-histogram=false", "--threads=0x10"},
                        &f, &error))
      << error;
  EXPECT_EQ(f.num, 5);
  EXPECT_EQ(f.reads, 7);
  EXPECT_TRUE(f.sync);
  EXPECT_FALSE(f.disable_wal);
  EXPECT_EQ(f.compression_type, "zstd");
  EXPECT_DOUBLE_EQ(f.compression_ratio, 0.25);
  EXPECT_EQ(f.benchmark_write_rate_limit, 10u);
  EXPECT_FALSE(f.histogram);
  EXPECT_EQ(f.threads, 16);
  EXPECT_TRUE(f.WasSet("num"));
  EXPECT_TRUE(f.WasSet("disable_wal"));
  EXPECT_FALSE(f.WasSet("value_size"));
  EXPECT_EQ(f.value_size, 100);  // RocksDB's default
  EXPECT_EQ(f.write_buffer_size, 64 << 20);
}

TEST(BenchFlagsTest, TableAndTreeFlagsHaveRocksDbDefaults) {
  // /usr/bin/db_bench --help (RocksDB 7.8.3).
  BenchFlags f;
  EXPECT_EQ(f.cache_size, 8388608);
  EXPECT_EQ(f.cache_numshardbits, -1);
  EXPECT_FALSE(f.cache_index_and_filter_blocks);
  EXPECT_EQ(f.bloom_bits, -1);
  EXPECT_EQ(f.block_size, 4096);
  EXPECT_EQ(f.num_levels, 7);
  EXPECT_EQ(f.max_background_jobs, 2);
  EXPECT_EQ(f.target_file_size_base, 67108864);
  EXPECT_EQ(f.max_bytes_for_level_base, 268435456u);
  EXPECT_DOUBLE_EQ(f.max_bytes_for_level_multiplier, 10);
  EXPECT_FALSE(f.level_compaction_dynamic_level_bytes);
  EXPECT_FALSE(f.disable_auto_compactions);
  EXPECT_EQ(f.level0_file_num_compaction_trigger, 4);
  EXPECT_EQ(f.level0_slowdown_writes_trigger, 20);
  EXPECT_EQ(f.level0_stop_writes_trigger, 36);
  EXPECT_EQ(f.max_write_buffer_number, 2);
  EXPECT_EQ(f.open_files, -1);
  EXPECT_EQ(f.subcompactions, 1u);
  EXPECT_EQ(f.compression_type, "snappy");

  std::string error;
  BenchFlags ribbon;
  ASSERT_TRUE(ParseArgs({"--use_ribbon_filter"}, &ribbon, &error)) << error;
  EXPECT_TRUE(ribbon.use_ribbon_filter);
  ASSERT_TRUE(
      ParseArgs({"--cache_size=1073741824", "--bloom_bits=10", "--block_size=16384",
                 "--cache_index_and_filter_blocks", "--level_compaction_dynamic_level_bytes",
                 "--disable_auto_compactions=true", "--max_bytes_for_level_multiplier=8",
                 "--cache_numshardbits=4", "--subcompactions=2", "--use_direct_reads"},
                &f, &error))
      << error;
  EXPECT_EQ(f.cache_size, 1073741824);
  EXPECT_EQ(f.bloom_bits, 10);
  EXPECT_FALSE(f.use_ribbon_filter);
  EXPECT_EQ(f.block_size, 16384);
  EXPECT_TRUE(f.cache_index_and_filter_blocks);
  EXPECT_TRUE(f.level_compaction_dynamic_level_bytes);
  EXPECT_TRUE(f.disable_auto_compactions);
  EXPECT_DOUBLE_EQ(f.max_bytes_for_level_multiplier, 8);
  EXPECT_EQ(f.cache_numshardbits, 4);
  EXPECT_EQ(f.subcompactions, 2u);
  EXPECT_TRUE(f.use_direct_reads);

  // Memory (issue 19): RocksDB's names and Strata's memory_budget.
  EXPECT_EQ(f.db_write_buffer_size, 0);
  EXPECT_EQ(f.memory_budget, 0u);
  ASSERT_TRUE(ParseArgs(
      {"--db_write_buffer_size=1048576", "--cost_write_buffer_to_cache",
       "--charge_table_reader=true", "--charge_filter_construction", "--memory_budget=268435456"},
      &f, &error))
      << error;
  EXPECT_EQ(f.db_write_buffer_size, 1048576);
  EXPECT_TRUE(f.cost_write_buffer_to_cache);
  EXPECT_TRUE(f.charge_table_reader);
  EXPECT_TRUE(f.charge_filter_construction);
  EXPECT_FALSE(f.charge_file_metadata);
  EXPECT_EQ(f.memory_budget, 268435456u);
}

TEST(BenchFlagsTest, UnknownFlagIsAnErrorNamingIt) {
  BenchFlags f;
  std::string error;
  EXPECT_FALSE(ParseArgs({"--num=5", "--bogus_flag=1"}, &f, &error));
  EXPECT_EQ(error, "unknown command line flag 'bogus_flag'");
  EXPECT_FALSE(ParseArgs({"--nonum"}, &f, &error));  // not a bool flag
  EXPECT_EQ(error, "unknown command line flag 'nonum'");
}

TEST(BenchFlagsTest, IllegalValuesAreErrors) {
  const std::vector<std::string> bad[] = {{"--num=12x"},
                                          {"--threads=99999999999"},
                                          {"--sync=maybe"},
                                          {"--subcompactions=-1"},
                                          {"--compression_ratio="},
                                          {"stray"},
                                          {"--num"}};
  for (const auto& args : bad) {
    BenchFlags f;
    std::string error;
    EXPECT_FALSE(ParseArgs(args, &f, &error)) << args[0];
    EXPECT_FALSE(error.empty()) << args[0];
  }
  BenchFlags f;
  std::string error;
  EXPECT_FALSE(ParseArgs({"--num=abc"}, &f, &error));
  EXPECT_EQ(error, "illegal value 'abc' specified for int64 flag 'num'");
}

TEST(CompressionTest, ParsesRocksDbNames) {
  Compression c;
  ASSERT_TRUE(ParseCompression("none", &c));
  EXPECT_STREQ(CompressionName(c), "NoCompression");
  ASSERT_TRUE(ParseCompression("snappy", &c));
  EXPECT_STREQ(CompressionName(c), "Snappy");
  ASSERT_TRUE(ParseCompression("lz4", &c));
  EXPECT_STREQ(CompressionName(c), "LZ4");
  ASSERT_TRUE(ParseCompression("zstd", &c));
  EXPECT_STREQ(CompressionName(c), "ZSTD");
  EXPECT_FALSE(ParseCompression("brotli", &c));
}

std::string Key(uint64_t v, int key_size) {
  std::string k(key_size, '\0');
  GenerateKeyFromInt(v, key_size, k.data());
  return k;
}

TEST(KeyTest, BigEndianThenZeroPadding) {
  EXPECT_EQ(Key(0x0102030405060708ull, 16),
            std::string("\x01\x02\x03\x04\x05\x06\x07\x08", 8) + "00000000");
  EXPECT_EQ(Key(1, 16), std::string(7, '\0') + "\x01" + "00000000");
  EXPECT_EQ(Key(0x0102030405060708ull, 8), std::string("\x01\x02\x03\x04\x05\x06\x07\x08", 8));
  // Shorter keys keep the low bytes, still big-endian.
  EXPECT_EQ(Key(0x0102030405060708ull, 4), "\x05\x06\x07\x08");
  EXPECT_EQ(Key(0x0102030405060708ull, 0), "");
}

TEST(KeyTest, ByteOrderIsIntegerOrder) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 10000; ++i) {
    const uint64_t a = rng();
    const uint64_t b = rng() >> (rng() % 64);
    ASSERT_EQ(a < b, Key(a, 16) < Key(b, 16)) << a << " " << b;
  }
}

std::string PrefixKey(uint64_t v, int64_t num_keys, int key_size, int prefix_size,
                      int64_t keys_per_prefix) {
  std::string k(key_size, '\0');
  GenerateKeyFromInt(v, num_keys, KeyFormat{key_size, prefix_size, keys_per_prefix}, k.data());
  return k;
}

TEST(KeyTest, PrefixFromKeyIndex) {
  // keys_per_prefix 0: the plain key, whatever prefix_size says.
  EXPECT_EQ(PrefixKey(77, 1000, 16, 4, 0), Key(77, 16));
  // 1000 keys, 10 per prefix: prefix 77 % 100 in 4 bytes, then 77 in the
  // remaining 12 (8 bytes and '0' padding). RocksDB 7.8.3's db_bench wrote
  // these bytes (ldb scan --hex of --key_size=16 --prefix_size=4
  // --keys_per_prefix=5 --num=40 holds 0x00000000000000000000000830303030).
  EXPECT_EQ(PrefixKey(77, 1000, 16, 4, 10),
            std::string("\0\0\0\x4d", 4) + std::string(7, '\0') + "\x4d" + "0000");
  EXPECT_EQ(PrefixKey(8, 40, 16, 4, 5), std::string(11, '\0') + "\x08" + "0000");
  // A prefix wider than 8 bytes is '0'-padded; a key part under 8 bytes keeps
  // v's low bytes (--key_size=12 --prefix_size=10 --keys_per_prefix=8
  // --num=40: 0x000000000000000030300005 for v = 5).
  EXPECT_EQ(PrefixKey(5, 40, 12, 10, 8), std::string(8, '\0') + "00" + std::string("\0\x05", 2));
  EXPECT_EQ(PrefixKey(0x0102, 40, 12, 10, 8),
            std::string(7, '\0') + "\x03" + "00" + std::string("\x01\x02", 2));  // 258 % 5
  // A prefix under 8 bytes keeps the prefix's low bytes.
  EXPECT_EQ(PrefixKey(0x1234567, 0x10000000, 10, 2, 1), "\x45\x67" + Key(0x1234567, 8));
  // Fewer keys than keys_per_prefix: one prefix (RocksDB would divide by 0).
  EXPECT_EQ(PrefixKey(3, 5, 8, 4, 10), std::string("\0\0\0\0\0\0\0\x03", 8));
}

TEST(KeyTest, KeysSharingAPrefixAreAdjacent) {
  // With prefixes, the keys of one prefix sort together and about
  // keys_per_prefix keys share each prefix.
  std::map<std::string, int> per_prefix;
  for (uint64_t v = 0; v < 1000; ++v) {
    ++per_prefix[PrefixKey(v, 1000, 16, 8, 10).substr(0, 8)];
  }
  EXPECT_EQ(per_prefix.size(), 100u);
  for (const auto& [prefix, n] : per_prefix) EXPECT_EQ(n, 10);
}

TEST(ValueTest, SameBytesAsRocksDbDbBench) {
  // The first three 100-byte values RocksDB 7.8.3's db_bench wrote with
  // --value_size=100 (compression_ratio 0.5: 50 bytes, twice).
  const std::string data = BuildValueData(100, 0.5);
  EXPECT_EQ(data.size(), 1048600u);  // 10486 pieces of 100 bytes
  const std::string v0 = R"(^{Vhz"!/%wMZ;'a F/REZJ4Tw@%NXxy2?.ArVCZ2B6[jnUd)4 )";
  const std::string v1 = R"(bO{\^aT?Vm2.$hec;~2L(+=KOI,qT;Op5YW6sKv`i$ut_AZ:St)";
  const std::string v2 = R"(~@~T4tpoQ8z!Foe"5DK3vK$4oY3gZ"p#@TM.9V=Zgcoo?LXy>T)";
  EXPECT_EQ(data.substr(0, 100), v0 + v0);
  EXPECT_EQ(data.substr(100, 100), v1 + v1);
  EXPECT_EQ(data.substr(200, 100), v2 + v2);

  ValueGenerator gen(&data, 100);
  EXPECT_EQ(gen.Next(), v0 + v0);
  EXPECT_EQ(gen.Next(), v1 + v1);
}

TEST(ValueTest, CompressionRatioSetsTheRepeat) {
  const std::string quarter = BuildValueData(100, 0.25);
  for (size_t piece = 0; piece < 50; ++piece) {
    const std::string p = quarter.substr(piece * 100, 100);
    for (int r = 1; r < 4; ++r) {
      EXPECT_EQ(p.substr(r * 25, 25), p.substr(0, 25));
    }
    EXPECT_NE(p.substr(0, 25), quarter.substr(piece * 100 + 100, 25));
  }
  // Ratio 0 still draws one character per piece; ratio 1 repeats nothing.
  const std::string zero = BuildValueData(100, 0);
  EXPECT_EQ(zero.substr(0, 100), std::string(100, zero[0]));
  const std::string one = BuildValueData(100, 1.0);
  EXPECT_NE(one.substr(0, 50), one.substr(50, 50));
  for (char c : one) ASSERT_TRUE(c >= ' ' && c <= '~');
  // Large values get a buffer that holds them.
  EXPECT_GE(BuildValueData(3 << 20, 0.5).size(), size_t{3} << 20);
}

TEST(ValueGeneratorTest, AdvancesAndWraps) {
  const std::string data = "abcdefghij";
  ValueGenerator gen(&data, 4);
  EXPECT_EQ(gen.Next(), "abcd");
  EXPECT_EQ(gen.Next(), "efgh");
  EXPECT_EQ(gen.Next(), "abcd");  // "ij" is too short: wrap
}

TEST(DurationTest, StopsAfterMaxOps) {
  Duration d(0, 10, 1000);
  EXPECT_FALSE(d.Done(3));
  EXPECT_FALSE(d.Done(3));
  EXPECT_FALSE(d.Done(3));
  EXPECT_TRUE(d.Done(3));  // 12 > 10: the batch does not fit
  Duration exact(0, 2, 1000);
  EXPECT_FALSE(exact.Done(1));
  EXPECT_FALSE(exact.Done(1));
  EXPECT_TRUE(exact.Done(1));
}

TEST(StatsTest, ReportLineHasRocksDbFormat) {
  Stats thread(false, false, 0);
  thread.Start(0);
  thread.FinishedOps(1000, OpType::kWrite);
  thread.AddBytes(116000);
  thread.AddMessage("(found)");
  thread.Stop();
  Stats merged(false, false, 0);
  merged.Merge(thread);
  testing::internal::CaptureStdout();
  merged.Report("fillrandom");
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_TRUE(
      std::regex_match(out, std::regex(R"(fillrandom   : +\d+\.\d{3} micros/op \d+ ops/sec )"
                                       R"(\d+\.\d{3} seconds 1000 operations; +\d+\.\d MB/s )"
                                       R"(\(found\)\n)")))
      << out;
}

TEST(StatsTest, MergeSumsKeepsFirstMessageAndSkipsExcluded) {
  Stats a(true, false, 0), b(true, false, 0), c(true, false, 0);
  a.Start(0);
  b.Start(1);
  c.Start(2);
  a.FinishedOps(3, OpType::kRead);
  b.FinishedOps(4, OpType::kRead);
  c.FinishedOps(100, OpType::kWrite);
  a.AddMessage("first");
  b.AddMessage("second");
  c.SetExcludeFromMerge();
  a.Stop();
  b.Stop();
  c.Stop();
  Stats merged(true, false, 0);
  merged.Merge(a);
  merged.Merge(b);
  merged.Merge(c);
  EXPECT_EQ(merged.done(), 7u);
  testing::internal::CaptureStdout();
  merged.Report("readrandom");
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("operations; first\n"), std::string::npos) << out;
  // One latency sample per FinishedOps call, as in RocksDB.
  EXPECT_NE(out.find("Microseconds per read:\nCount: 2 "), std::string::npos) << out;
  EXPECT_EQ(out.find("per write"), std::string::npos) << out;
}

// Exposes BenchmarkBase's thread launcher.
class Launcher : public BenchmarkBase {
 public:
  using BenchmarkBase::BenchmarkBase;
  using BenchmarkBase::RunBenchmark;
  uint64_t seed() const { return seed_base_; }
};

TEST(RunBenchmarkTest, SeedsThreadsLikeRocksDb) {
  BenchFlags flags;
  flags.seed = 42;
  flags.progress_reports = false;
  Launcher launcher(flags);
  ASSERT_EQ(launcher.seed(), 42u);
  std::vector<uint64_t> first(4);
  testing::internal::CaptureStdout();
  for (int run = 0; run < 2; ++run) {
    Stats merged = launcher.RunBenchmark(2, "probe", [&](ThreadState* t) {
      first[run * 2 + t->tid] = t->rand();
      if (t->tid == 0) t->stats.SetExcludeFromMerge();
      t->stats.FinishedOps(5, OpType::kOthers);
    });
    EXPECT_EQ(merged.done(), 5u);  // thread 0 excluded
  }
  testing::internal::GetCapturedStdout();
  // Thread i of every run: seed + (threads started so far, itself included).
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(first[i], std::mt19937_64(42 + i + 1)()) << i;
  }
}

// --report_interval_seconds: the file gets RocksDB's header and one
// "secs,qps" line per interval while the run lasts, counting every thread.
TEST(RunBenchmarkTest, ReportIntervalWritesRocksDbCsv) {
  const std::string path = ::testing::TempDir() + "/db_bench_report_test.csv";
  BenchFlags flags;
  flags.seed = 1;
  flags.progress_reports = false;
  flags.report_interval_seconds = 1;
  flags.report_file = path;
  Launcher launcher(flags);
  testing::internal::CaptureStdout();
  launcher.RunBenchmark(2, "probe", [](ThreadState* t) {
    // 2.5 s of work in small steps, so at least two intervals are reported.
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(2500);
    while (std::chrono::steady_clock::now() < end) {
      t->stats.FinishedOps(1, OpType::kWrite);
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  });
  testing::internal::GetCapturedStdout();
  std::FILE* f = std::fopen(path.c_str(), "r");
  ASSERT_NE(f, nullptr);
  char line[256];
  ASSERT_NE(std::fgets(line, sizeof(line), f), nullptr);
  EXPECT_STREQ(line, "secs_elapsed,interval_qps\n");
  int rows = 0;
  long secs = 0, qps = 0;
  while (std::fgets(line, sizeof(line), f) != nullptr) {
    ASSERT_EQ(std::sscanf(line, "%ld,%ld", &secs, &qps), 2) << line;
    ++rows;
    EXPECT_GE(secs, rows) << line;  // one line per whole second
    EXPECT_GT(qps, 0) << line;      // both threads were running
  }
  std::fclose(f);
  EXPECT_GE(rows, 2);
  EXPECT_LE(rows, 3);
  std::remove(path.c_str());
}

// An in-memory Engine: a std::map behind a mutex; iterators read an
// immutable copy made at the first iterator after a write. With kExtras it
// also has Merge (StringAppendOperator's rule, ',' between operands),
// MultiGet and DeleteRange; without, it stands for a store like LevelDB.
template <bool kExtras>
class BasicMapEngine {
 public:
  using Map = std::map<std::string, std::string>;
  // A write: key, value (nullopt = delete), and for a range delete its end.
  struct Op {
    std::string key;
    std::optional<std::string> value;
    std::optional<std::string> range_end;
  };
  using Batch = std::vector<Op>;
  struct MultiGetScratch {};
  class Iterator {
   public:
    explicit Iterator(std::shared_ptr<const Map> map) : map_(std::move(map)), it_(map_->end()) {}
    bool Valid() const { return it_ != map_->end(); }
    void SeekToFirst() { it_ = map_->begin(); }
    void SeekToLast() { it_ = map_->empty() ? map_->end() : std::prev(map_->end()); }
    void Next() { ++it_; }
    void Prev() { it_ = it_ == map_->begin() ? map_->end() : std::prev(it_); }
    void Seek(std::string_view t) { it_ = map_->lower_bound(std::string(t)); }
    const Map::value_type& entry() const { return *it_; }

   private:
    std::shared_ptr<const Map> map_;
    Map::const_iterator it_;
  };

  static const char* Name() { return "Map"; }
  static const char* PathPrefix() { return "map"; }
  static const char* StatsProperty() { return "map.stats"; }
  std::string Version() const { return "1"; }
  const char* CompressionName() const { return "NoCompression"; }
  bool Open(std::string*) { return true; }
  void Close() {}
  bool Destroy(std::string*) {
    std::lock_guard<std::mutex> lock(mu_);
    map_.clear();
    user_bytes_ = 0;  // a store's counters start again with a new database
    dirty_ = true;
    return true;
  }
  void SetWriteOptions(bool sync, bool) { sync_ = sync; }
  void BatchClear(Batch* b) { b->clear(); }
  void BatchPut(Batch* b, std::string_view k, std::string_view v) {
    b->push_back(Op{std::string(k), std::string(v), std::nullopt});
  }
  void BatchDelete(Batch* b, std::string_view k) {
    b->push_back(Op{std::string(k), std::nullopt, std::nullopt});
  }
  void BatchDeleteRange(Batch* b, std::string_view begin, std::string_view end) requires kExtras {
    b->push_back(Op{std::string(begin), std::nullopt, std::string(end)});
    ++range_deletes_;
  }
  bool Write(Batch* b, std::string*) {
    std::lock_guard<std::mutex> lock(mu_);
    size_t points = 0;
    for (const Op& op : *b) {
      if (op.range_end) {
        if (op.key < *op.range_end) {
          map_.erase(map_.lower_bound(op.key), map_.lower_bound(*op.range_end));
        }
        continue;
      }
      ++points;
      user_bytes_ += op.key.size() + (op.value ? op.value->size() : 0);
      if (op.value) {
        map_[op.key] = *op.value;
      } else {
        map_.erase(op.key);
      }
    }
    writes_ += points;
    if (sync_) synced_writes_ += points;
    dirty_ = true;
    return true;
  }
  bool Merge(std::string_view k, std::string_view operand, std::string*) requires kExtras {
    std::lock_guard<std::mutex> lock(mu_);
    auto [it, fresh] = map_.try_emplace(std::string(k));
    if (!fresh) it->second.push_back(',');
    it->second.append(operand);
    ++merges_;
    dirty_ = true;
    return true;
  }
  void MultiGet(MultiGetScratch*, const std::vector<std::string>& keys,
                std::vector<std::string>* values, std::vector<GetResult>* results,
                std::string*) requires kExtras {
    std::lock_guard<std::mutex> lock(mu_);
    for (size_t i = 0; i < keys.size(); ++i) {
      auto it = map_.find(keys[i]);
      (*results)[i] = it == map_.end() ? GetResult::kNotFound : GetResult::kFound;
      if (it != map_.end()) (*values)[i] = it->second;
    }
    multigets_ += 1;
  }
  bool Put(std::string_view k, std::string_view v, std::string* e) {
    Batch b;
    BatchPut(&b, k, v);
    return Write(&b, e);
  }
  GetResult Get(std::string_view k, std::string* value, std::string*) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = map_.find(std::string(k));
    if (it == map_.end()) return GetResult::kNotFound;
    *value = it->second;
    return GetResult::kFound;
  }
  std::unique_ptr<Iterator> NewIterator() {
    std::lock_guard<std::mutex> lock(mu_);
    if (dirty_) {
      snapshot_ = std::make_shared<const Map>(map_);
      dirty_ = false;
    }
    return std::make_unique<Iterator>(snapshot_);
  }
  static void Seek(Iterator* it, std::string_view t) { it->Seek(t); }
  static std::string_view Key(const Iterator* it) { return it->entry().first; }
  static std::string_view Value(const Iterator* it) { return it->entry().second; }
  static bool IterOk(const Iterator*, std::string*) { return true; }
  bool GetProperty(const char*, std::string* v) {
    std::lock_guard<std::mutex> lock(mu_);
    *v = "keys=" + std::to_string(map_.size());
    return true;
  }
  std::string StatisticsString() { return "map.tickers COUNT : 1"; }
  void SetThreadPerfLevel(int /*level*/) {}
  std::string ThreadPerfContextString() { return ""; }
  bool CompactAll(std::string*) {
    ++compactions_;
    return true;
  }
  bool Flush(std::string*) {
    ++flushes_;
    return true;
  }
  bool WaitForCompaction(std::string*) {
    ++waits_;
    return true;
  }
  // Pretends every user byte was written to tables twice.
  bool FlushCompactionBytes(uint64_t* bytes) {
    std::lock_guard<std::mutex> lock(mu_);
    *bytes = 2 * user_bytes_;
    return true;
  }

  size_t writes() const { return writes_; }
  int compactions() const { return compactions_; }
  int flushes() const { return flushes_; }
  int waits() const { return waits_; }
  size_t synced_writes() const { return synced_writes_; }
  size_t merges() const { return merges_; }
  size_t multigets() const { return multigets_; }
  size_t range_deletes() const { return range_deletes_; }
  std::vector<std::string> Keys() {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<std::string> keys;
    for (const auto& [k, v] : map_) keys.push_back(k);
    return keys;
  }

 private:
  std::mutex mu_;
  Map map_;
  bool dirty_ = true;
  std::shared_ptr<const Map> snapshot_;
  size_t writes_ = 0;
  bool sync_ = false;
  size_t synced_writes_ = 0;
  size_t merges_ = 0;
  size_t multigets_ = 0;
  size_t range_deletes_ = 0;
  uint64_t user_bytes_ = 0;
  int compactions_ = 0;
  int flushes_ = 0;
  int waits_ = 0;
};

using MapEngine = BasicMapEngine<true>;
using PlainMapEngine = BasicMapEngine<false>;
static_assert(EngineWithMerge<MapEngine> && EngineWithMultiGet<MapEngine> &&
              EngineWithDeleteRange<MapEngine>);
static_assert(!EngineWithMerge<PlainMapEngine> && !EngineWithMultiGet<PlainMapEngine> &&
              !EngineWithDeleteRange<PlainMapEngine>);

// Runs the benchmarks on a map engine; returns what they printed on stdout.
template <class Engine>
std::string RunOnMap(std::vector<std::string> args, Engine* engine, int expected_exit = 0) {
  BenchFlags flags;
  std::string error;
  args.push_back("--progress_reports=false");
  args.push_back("--db=/nonexistent/map");
  EXPECT_TRUE(ParseArgs(args, &flags, &error)) << error;
  testing::internal::CaptureStdout();
  Benchmark<Engine> bench(flags, engine);
  EXPECT_EQ(bench.Run(), expected_exit);
  return testing::internal::GetCapturedStdout();
}

// Expects each string of `expected` in `out`, in order.
void ExpectInOrder(const std::string& out, const std::vector<std::string>& expected) {
  size_t pos = 0;
  for (const std::string& e : expected) {
    pos = out.find(e, pos);
    ASSERT_NE(pos, std::string::npos) << e << "\n" << out;
  }
}

TEST(WorkloadTest, FoundCountMatchesRocksDb) {
  // RocksDB 7.8.3: db_bench --benchmarks=fillrandom,readrandom --num=100000
  // --seed=1 printed "(63293 of 100000 found)".
  MapEngine engine;
  const std::string out =
      RunOnMap({"--benchmarks=fillrandom,readrandom", "--num=100000", "--seed=1"}, &engine);
  EXPECT_NE(out.find("(63293 of 100000 found)\n"), std::string::npos) << out;
  EXPECT_NE(out.find("DB path: [/nonexistent/map]\nfillrandom   : "), std::string::npos) << out;
  EXPECT_EQ(engine.writes(), 100000u);
}

TEST(WorkloadTest, MultiThreadedSequenceMatchesRocksDb) {
  // The counts RocksDB 7.8.3's db_bench printed for the same flags.
  MapEngine engine;
  const std::string out =
      RunOnMap({"--benchmarks=fillrandom,readrandom,seekrandom,overwrite,readrandom,"
                "deleterandom,readrandom,readseq,readreverse",
                "--num=20000", "--seed=7", "--threads=2"},
               &engine);
  const char* expected[] = {
      "readrandom   : ", "(17318 of 20000 found)", "seekrandom   : ", "(17357 of 20000 found)",
      "readrandom   : ", "(19635 of 20000 found)", "readrandom   : ", "(2650 of 20000 found)",
      "readseq      : ", " 5330 operations;",      "readreverse  : ", " 5330 operations;"};
  size_t pos = 0;
  for (const char* e : expected) {
    pos = out.find(e, pos);
    ASSERT_NE(pos, std::string::npos) << e << "\n" << out;
  }
}

TEST(WorkloadTest, FillsyncBatchesDeletesAndSkips) {
  MapEngine engine;
  // fillsync: keys from num/1000, --num synced writes, "(N ops)" note.
  std::string out = RunOnMap({"--benchmarks=fillsync,readseq", "--num=5000", "--seed=3"}, &engine);
  EXPECT_EQ(engine.synced_writes(), 5000u);
  EXPECT_NE(out.find("5000 operations;"), std::string::npos) << out;
  EXPECT_NE(out.find(" (5 ops)\n"), std::string::npos) << out;
  EXPECT_NE(out.find(" 5 operations;"), std::string::npos) << out;

  // --batch_size: 1000 / 7 batches of 7; deleteseq removes every key.
  out = RunOnMap({"--benchmarks=fillseq,deleteseq,readrandom,stats", "--num=1000", "--batch_size=7",
                  "--seed=3"},
                 &engine);
  EXPECT_NE(out.find(" 994 operations;"), std::string::npos) << out;
  EXPECT_NE(out.find("(0 of 1000 found)"), std::string::npos) << out;
  EXPECT_NE(out.find("\nkeys=0\n"), std::string::npos) << out;

  // --use_existing_db skips the fill workloads, as RocksDB does.
  out = RunOnMap({"--benchmarks=fillseq,readwhilewriting", "--num=1000", "--use_existing_db=1",
                  "--threads=2", "--seed=3"},
                 &engine);
  EXPECT_NE(out.find("fillseq      : skipped (--use_existing_db is true)"), std::string::npos)
      << out;
  // Two readers counted, the writer not.
  EXPECT_NE(out.find("readwhilewriting : "), std::string::npos) << out;
  EXPECT_NE(out.find(" 2000 operations;"), std::string::npos) << out;
}

TEST(WorkloadTest, MetaWorkloadsPrintLikeRocksDb) {
  MapEngine engine;
  const std::string out =
      RunOnMap({"--benchmarks=fillseq,flush,waitforcompaction,compact,compactall,stats",
                "--num=1000", "--threads=3", "--seed=5"},
               &engine);
  // compact runs on one thread whatever --threads says, and reports its time
  // as one operation, as RocksDB's does.
  EXPECT_EQ(engine.compactions(), 2);
  EXPECT_EQ(engine.flushes(), 1);
  EXPECT_EQ(engine.waits(), 1);
  EXPECT_TRUE(std::regex_search(
      out, std::regex("\ncompact      : +[0-9.]+ micros/op [0-9]+ ops/sec [0-9.]+ seconds 1 "
                      "operations;\n")))
      << out;
  EXPECT_NE(out.find("compactall   : "), std::string::npos) << out;
  EXPECT_NE(out.find("\nflush memtable\nwaitforcompaction(/nonexistent/map): started\n"
                     "waitforcompaction(/nonexistent/map): finished\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("\nkeys=1000\n"), std::string::npos) << out;
  // No --statistics: no statistics block.
  EXPECT_EQ(out.find("STATISTICS:"), std::string::npos) << out;
}

TEST(WorkloadTest, StatisticsEndWithWriteAmplification) {
  MapEngine engine;
  // 1000 fillrandom writes of 16 + 100 bytes, then 500 deletes of 16-byte
  // keys; the map engine claims twice the user bytes were written.
  std::string out = RunOnMap({"--benchmarks=fillrandom,deleterandom", "--num=1000", "--deletes=500",
                              "--statistics", "--seed=9"},
                             &engine);
  const uint64_t user = 1000 * 116 + 500 * 16;
  const std::string expected =
      "STATISTICS:\nmap.tickers COUNT : 1\nWrite amplification: 2.000 "
      "(flush+compaction bytes written: " +
      std::to_string(2 * user) + ", user bytes written: " + std::to_string(user) + ")\n";
  EXPECT_NE(out.find(expected), std::string::npos) << out;

  // A fresh fill starts the count again; reads add nothing.
  MapEngine fresh;
  out = RunOnMap(
      {"--benchmarks=fillseq,readrandom,fillrandom", "--num=300", "--statistics", "--seed=9"},
      &fresh);
  EXPECT_NE(out.find("(flush+compaction bytes written: 69600, user bytes written: 34800)\n"),
            std::string::npos)
      << out;
}

// The new workloads' counts below are the ones RocksDB 7.8.3's db_bench
// printed for the same flags (with --compression_type=none).

TEST(WorkloadTest, MultiReadRandomMatchesRocksDb) {
  MapEngine engine;
  std::string out = RunOnMap({"--benchmarks=fillrandom,multireadrandom,readrandom,deleterandom,"
                              "readrandom,deleteseq,readrandom",
                              "--num=10000", "--batch_size=7", "--seed=1"},
                             &engine);
  // Each key of a MultiGet is one operation; 9996 = 1428 batches of 7.
  ExpectInOrder(out, {"multireadrandom : ", " 9996 operations;", "(6271 of 9996 found)\n",
                      "readrandom   : ", "(6234 of 10000 found)", "deleterandom : ",
                      " 9996 operations;", "readrandom   : ", "(2344 of 10000 found)",
                      "deleteseq    : ", "readrandom   : ", "(0 of 10000 found)"});
  EXPECT_EQ(engine.multigets(), 1428u);

  // --multiread_stride: MultiGet batches, and readrandom with --batch_size.
  MapEngine strided;
  out = RunOnMap({"--benchmarks=fillrandom,multireadrandom", "--num=10000", "--batch_size=16",
                  "--multiread_stride=3", "--seed=1"},
                 &strided);
  ExpectInOrder(out, {"(6263 of 10000 found)"});
  MapEngine strided_get;
  out = RunOnMap({"--benchmarks=fillrandom,readrandom", "--num=10000", "--batch_size=16",
                  "--multiread_stride=3", "--seed=1"},
                 &strided_get);
  ExpectInOrder(out, {"(6289 of 10000 found)"});
}

TEST(WorkloadTest, PrefixedKeysMatchRocksDb) {
  MapEngine engine;
  const std::string out =
      RunOnMap({"--benchmarks=fillseq,multireadrandom,readrandom", "--num=1000", "--batch_size=32",
                "--prefix_size=4", "--keys_per_prefix=10", "--seed=1"},
               &engine);
  ExpectInOrder(out, {"Prefix:    4 bytes\nKeys per prefix:    10\n", "fillseq      : ",
                      " 992 operations;", "(984 of 992 found)", "(991 of 1000 found)"});
  // Every stored key is the prefixed form of one of 0..991.
  std::vector<std::string> expected;
  for (uint64_t v = 0; v < 992; ++v) expected.push_back(PrefixKey(v, 1000, 16, 4, 10));
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(engine.Keys(), expected);
}

TEST(WorkloadTest, RangeTombstonesMatchRocksDb) {
  MapEngine engine;
  std::string out = RunOnMap({"--benchmarks=fillrandom,readrandom,seekrandom", "--num=10000",
                              "--writes_per_range_tombstone=100", "--range_tombstone_width=10",
                              "--max_num_range_tombstones=50", "--seed=1"},
                             &engine);
  ExpectInOrder(out, {"Number of range deletions: 50\nfillrandom   : ", " 10000 operations;",
                      "(6282 of 10000 found)", "seekrandom   : ", "(6310 of 10000 found)"});
  EXPECT_EQ(engine.range_deletes(), 50u);

  // fillseq: each tombstone takes the next key as its start.
  MapEngine seq;
  out = RunOnMap({"--benchmarks=fillseq,readrandom", "--num=10000", "--batch_size=10",
                  "--writes_per_range_tombstone=1000", "--range_tombstone_width=100",
                  "--max_num_range_tombstones=5", "--seed=1"},
                 &seq);
  ExpectInOrder(out, {"Number of range deletions: 5\n", "(9994 of 10000 found)"});

  // Expanded into point deletes, after 500 writes.
  MapEngine expanded;
  out = RunOnMap(
      {"--benchmarks=fillrandom,readrandom", "--num=10000", "--writes_per_range_tombstone=100",
       "--range_tombstone_width=10", "--max_num_range_tombstones=50", "--expand_range_tombstones",
       "--writes_before_delete_range=500", "--seed=1"},
      &expanded);
  ExpectInOrder(out, {"Number of range deletions: 50\n", "(6239 of 10000 found)"});
  EXPECT_EQ(expanded.range_deletes(), 0u);
}

TEST(WorkloadTest, MergeWorkloadsMatchRocksDb) {
  MapEngine engine;
  std::string out =
      RunOnMap({"--benchmarks=mergerandom,readrandommergerandom", "--merge_operator=stringappend",
                "--num=1000", "--merge_keys=10", "--mergereadpercent=50", "--seed=1"},
               &engine);
  ExpectInOrder(out, {"mergerandom  : ", " 1000 operations;", "( updates:1000)\n",
                      "readrandommergerandom : ", " 1000 operations;",
                      "(reads:504 merges:496 total:1000 hits:504 maxlength:17371)\n"});
  EXPECT_EQ(engine.merges(), 1496u);

  // The put operator's counts (hits do not depend on the operator).
  MapEngine all;
  out = RunOnMap({"--benchmarks=mergerandom,readseq,readrandommergerandom", "--merge_operator=put",
                  "--num=1000", "--merge_keys=100", "--seed=1"},
                 &all);
  ExpectInOrder(
      out, {"readseq      : ", " 100 operations;", "(reads:299 merges:701 total:1000 hits:299"});

  // Without --merge_operator RocksDB's db_bench stops with exit code 1.
  MapEngine none;
  out = RunOnMap({"--benchmarks=fillseq,mergerandom,readseq", "--num=100", "--seed=1"}, &none,
                 /*expected_exit=*/1);
  ExpectInOrder(out, {"fillseq      : ", "mergerandom  : skipped (--merge_operator is unknown)\n"});
  EXPECT_EQ(out.find("readseq"), std::string::npos) << out;
}

TEST(WorkloadTest, StoreWithoutMergeMultiGetOrDeleteRangeSkips) {
  PlainMapEngine engine;
  const std::string out =
      RunOnMap({"--benchmarks=fillseq,mergerandom,readrandommergerandom,multireadrandom,readrandom",
                "--merge_operator=put", "--num=100", "--seed=1"},
               &engine);
  ExpectInOrder(out, {"mergerandom  : skipped (Map has no Merge)\n",
                      "readrandommergerandom : skipped (Map has no Merge)\n",
                      "multireadrandom : skipped (Map has no MultiGet)\n",
                      "readrandom   : ", "(100 of 100 found)"});
  // Range tombstones become point deletes there when asked to.
  PlainMapEngine expanded;
  const std::string out2 = RunOnMap(
      {"--benchmarks=fillrandom,readrandom", "--num=10000", "--writes_per_range_tombstone=100",
       "--range_tombstone_width=10", "--max_num_range_tombstones=50", "--expand_range_tombstones",
       "--writes_before_delete_range=500", "--seed=1"},
      &expanded);
  ExpectInOrder(out2, {"(6239 of 10000 found)"});
}

TEST(BenchFlagsTest, NewFlagsHaveRocksDbDefaults) {
  BenchFlags f;
  EXPECT_EQ(f.merge_operator, "");
  EXPECT_EQ(f.merge_keys, -1);
  EXPECT_EQ(f.mergereadpercent, 70);
  EXPECT_EQ(f.prefix_size, 0);
  EXPECT_EQ(f.keys_per_prefix, 0);
  EXPECT_EQ(f.memtable_bloom_size_ratio, 0.0);
  EXPECT_FALSE(f.memtable_whole_key_filtering);
  EXPECT_TRUE(f.whole_key_filtering);
  EXPECT_FALSE(f.total_order_seek);
  EXPECT_FALSE(f.prefix_same_as_start);
  EXPECT_EQ(f.writes_per_range_tombstone, 0);
  EXPECT_EQ(f.range_tombstone_width, 100);
  EXPECT_EQ(f.max_num_range_tombstones, 0);
  EXPECT_EQ(f.writes_before_delete_range, 0);
  EXPECT_FALSE(f.expand_range_tombstones);
  EXPECT_EQ(f.multiread_stride, 0);
  EXPECT_FALSE(f.multiread_batched);
}

// ---------------------------------------------------------------------------
// Compaction-style flags

// Parses args, decodes the compaction settings and applies them to a default
// strata::Options; fails the test on an error.
Options ApplyArgs(const std::vector<std::string>& args) {
  BenchFlags flags;
  std::string error;
  EXPECT_TRUE(ParseArgs(args, &flags, &error)) << error;
  Compression compression;
  EXPECT_TRUE(ParseCompression(flags.compression_type, &compression));
  CompactionSettings settings;
  EXPECT_TRUE(ParseCompactionSettings(flags, compression, &settings, &error)) << error;
  Options options;
  ApplyCompactionSettings(settings, &options);
  return options;
}

// The error ParseArgs + ParseCompactionSettings give for args ("" if none).
std::string CompactionError(const std::vector<std::string>& args) {
  BenchFlags flags;
  std::string error;
  if (!ParseArgs(args, &flags, &error)) return error;
  Compression compression;
  if (!ParseCompression(flags.compression_type, &compression)) return "bad compression";
  CompactionSettings settings;
  if (ParseCompactionSettings(flags, compression, &settings, &error)) return "";
  return error;
}

TEST(CompactionFlagsTest, DefaultsAreRocksDbDbBenchs) {
  // RocksDB 7.8.3 `db_bench --help`.
  BenchFlags f;
  EXPECT_EQ(f.compaction_style, 0);
  EXPECT_EQ(f.compaction_pri, 3);
  EXPECT_EQ(f.universal_size_ratio, 0);
  EXPECT_EQ(f.universal_min_merge_width, 0);
  EXPECT_EQ(f.universal_max_merge_width, 0);
  EXPECT_EQ(f.universal_max_size_amplification_percent, 0);
  EXPECT_EQ(f.universal_compression_size_percent, -1);
  EXPECT_FALSE(f.universal_allow_trivial_move);
  EXPECT_FALSE(f.universal_incremental);
  EXPECT_EQ(f.fifo_compaction_max_table_files_size_mb, 0u);
  EXPECT_TRUE(f.fifo_compaction_allow_compaction);
  EXPECT_EQ(f.fifo_compaction_ttl, 0u);
  EXPECT_EQ(f.fifo_age_for_warm, 0u);
  EXPECT_EQ(f.ttl_seconds, 18446744073709551614ull);
  EXPECT_EQ(f.periodic_compaction_seconds, 18446744073709551614ull);
  EXPECT_EQ(f.max_bytes_for_level_multiplier_additional, "");
  EXPECT_EQ(f.compression_level, 32767);
  EXPECT_EQ(f.compression_max_dict_bytes, 0);
  EXPECT_EQ(f.compression_zstd_max_train_bytes, 0);
  EXPECT_EQ(f.compression_max_dict_buffer_bytes, 0u);
  EXPECT_TRUE(f.compression_use_zstd_dict_trainer);
  EXPECT_EQ(f.compression_parallel_threads, 1);
  EXPECT_EQ(f.min_level_to_compress, -1);
  EXPECT_EQ(f.compression_per_level, "");
  EXPECT_FALSE(f.compact_for_space_amp);
  const std::string usage = f.Usage();
  for (size_t i = 0; i < kNumCompactionStyleFlags; ++i) {
    EXPECT_NE(usage.find(std::string("-") + kCompactionStyleFlags[i] + " ("), std::string::npos)
        << kCompactionStyleFlags[i];
  }
}

TEST(CompactionFlagsTest, DefaultFlagsKeepTheStoresDefaultsButFifos) {
  const Options o = ApplyArgs({});
  const Options d;
  EXPECT_EQ(o.compaction_style, kCompactionStyleLevel);
  EXPECT_EQ(o.compaction_pri, kMinOverlappingRatio);
  EXPECT_EQ(o.compaction_options_universal.size_ratio, d.compaction_options_universal.size_ratio);
  EXPECT_EQ(o.compaction_options_universal.min_merge_width,
            d.compaction_options_universal.min_merge_width);
  EXPECT_EQ(o.compaction_options_universal.max_merge_width,
            d.compaction_options_universal.max_merge_width);
  EXPECT_EQ(o.compaction_options_universal.max_size_amplification_percent,
            d.compaction_options_universal.max_size_amplification_percent);
  EXPECT_EQ(o.compaction_options_universal.compression_size_percent, -1);
  EXPECT_EQ(o.ttl, ColumnFamilyOptions::kDefaultTtl);
  EXPECT_EQ(o.periodic_compaction_seconds, ColumnFamilyOptions::kDefaultTtl);
  EXPECT_EQ(o.max_bytes_for_level_multiplier_additional,
            d.max_bytes_for_level_multiplier_additional);
  EXPECT_TRUE(o.compression_per_level.empty());
  EXPECT_EQ(o.compression_opts.level, CompressionOptions::kDefaultCompressionLevel);
  EXPECT_EQ(o.compression_opts.max_dict_bytes, 0u);
  EXPECT_EQ(o.compression_opts.parallel_threads, 1u);
  // RocksDB's db_bench always assigns the FIFO options from its flags.
  EXPECT_EQ(o.compaction_options_fifo.max_table_files_size, 0u);
  EXPECT_TRUE(o.compaction_options_fifo.allow_compaction);
}

TEST(CompactionFlagsTest, EachFlagLandsInItsField) {
  const Options o = ApplyArgs({"--compaction_style=1",
                               "--compaction_pri=4",
                               "--universal_size_ratio=7",
                               "--universal_min_merge_width=3",
                               "--universal_max_merge_width=9",
                               "--universal_max_size_amplification_percent=150",
                               "--universal_compression_size_percent=60",
                               "--universal_allow_trivial_move",
                               "--universal_incremental=true",
                               "--fifo_compaction_max_table_files_size_mb=5",
                               "--nofifo_compaction_allow_compaction",
                               "--fifo_age_for_warm=11",
                               "--ttl_seconds=3600",
                               "--periodic_compaction_seconds=7200",
                               "--num_levels=4",
                               "--max_bytes_for_level_multiplier_additional=1,2,3,4",
                               "--compression_level=5",
                               "--compression_max_dict_bytes=16384",
                               "--compression_zstd_max_train_bytes=65536",
                               "--compression_max_dict_buffer_bytes=1048576",
                               "--compression_use_zstd_dict_trainer=false",
                               "--compression_parallel_threads=2",
                               "--compression_per_level=none,lz4,zstd"});
  EXPECT_EQ(o.compaction_style, kCompactionStyleUniversal);
  EXPECT_EQ(o.compaction_pri, kRoundRobin);
  EXPECT_EQ(o.compaction_options_universal.size_ratio, 7u);
  EXPECT_EQ(o.compaction_options_universal.min_merge_width, 3u);
  EXPECT_EQ(o.compaction_options_universal.max_merge_width, 9u);
  EXPECT_EQ(o.compaction_options_universal.max_size_amplification_percent, 150u);
  EXPECT_EQ(o.compaction_options_universal.compression_size_percent, 60);
  EXPECT_TRUE(o.compaction_options_universal.allow_trivial_move);
  EXPECT_TRUE(o.compaction_options_universal.incremental);
  EXPECT_EQ(o.compaction_options_fifo.max_table_files_size, 5u << 20);
  EXPECT_FALSE(o.compaction_options_fifo.allow_compaction);
  EXPECT_EQ(o.compaction_options_fifo.age_for_warm, 11u);
  EXPECT_EQ(o.ttl, 3600u);
  EXPECT_EQ(o.periodic_compaction_seconds, 7200u);
  EXPECT_EQ(o.max_bytes_for_level_multiplier_additional, (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(o.compression_opts.level, 5);
  EXPECT_EQ(o.compression_opts.max_dict_bytes, 16384u);
  EXPECT_EQ(o.compression_opts.zstd_max_train_bytes, 65536u);
  EXPECT_EQ(o.compression_opts.max_dict_buffer_bytes, 1048576u);
  EXPECT_FALSE(o.compression_opts.use_zstd_dict_trainer);
  EXPECT_EQ(o.compression_opts.parallel_threads, 2u);
  EXPECT_EQ(o.compression_per_level,
            (std::vector<CompressionType>{kNoCompression, kLZ4Compression, kZSTD}));

  EXPECT_EQ(ApplyArgs({"--compaction_style=2"}).compaction_style, kCompactionStyleFIFO);
  EXPECT_EQ(ApplyArgs({"--compaction_style=3"}).compaction_style, kCompactionStyleNone);
  EXPECT_EQ(ApplyArgs({"--compaction_pri=0"}).compaction_pri, kByCompensatedSize);
}

TEST(CompactionFlagsTest, MinLevelToCompressFillsCompressionPerLevel) {
  // RocksDB: levels below N uncompressed, the rest --compression_type, one
  // entry per level.
  Options o = ApplyArgs({"--min_level_to_compress=2", "--compression_type=lz4", "--num_levels=5"});
  EXPECT_EQ(o.compression_per_level,
            (std::vector<CompressionType>{kNoCompression, kNoCompression, kLZ4Compression,
                                          kLZ4Compression, kLZ4Compression}));
  o = ApplyArgs({"--min_level_to_compress=0", "--compression_type=zstd", "--num_levels=3"});
  EXPECT_EQ(o.compression_per_level, (std::vector<CompressionType>{kZSTD, kZSTD, kZSTD}));
  o = ApplyArgs({"--min_level_to_compress=3", "--num_levels=3"});
  EXPECT_EQ(o.compression_per_level,
            (std::vector<CompressionType>{kNoCompression, kNoCompression, kNoCompression}));
}

TEST(CompactionFlagsTest, TtlFlags) {
  EXPECT_EQ(ApplyArgs({"--fifo_compaction_ttl=100"}).ttl, 100u);
  EXPECT_EQ(ApplyArgs({"--ttl_seconds=200"}).ttl, 200u);
  EXPECT_EQ(ApplyArgs({"--ttl_seconds=300", "--fifo_compaction_ttl=300"}).ttl, 300u);
  EXPECT_EQ(ApplyArgs({"--ttl_seconds=0"}).ttl, 0u);
  const std::string error = CompactionError({"--ttl_seconds=300", "--fifo_compaction_ttl=30"});
  EXPECT_NE(error.find("--fifo_compaction_ttl=30"), std::string::npos) << error;
  EXPECT_NE(error.find("--ttl_seconds=300"), std::string::npos) << error;
}

TEST(CompactionFlagsTest, BadValuesAreRefusedNamingTheFlag) {
  const struct {
    std::vector<std::string> args;
    const char* flag;
  } kCases[] = {
      {{"--compaction_style=4"}, "--compaction_style=4"},
      {{"--compaction_style=-1"}, "--compaction_style=-1"},
      {{"--compaction_style=x"}, "'compaction_style'"},
      {{"--compaction_pri=5"}, "--compaction_pri=5"},
      {{"--universal_size_ratio=-1"}, "--universal_size_ratio=-1"},
      {{"--universal_min_merge_width=-2"}, "--universal_min_merge_width=-2"},
      {{"--universal_max_merge_width=-3"}, "--universal_max_merge_width=-3"},
      {{"--universal_max_size_amplification_percent=-4"},
       "--universal_max_size_amplification_percent=-4"},
      {{"--universal_compression_size_percent=101"}, "--universal_compression_size_percent=101"},
      {{"--universal_incremental=maybe"}, "'universal_incremental'"},
      {{"--fifo_compaction_max_table_files_size_mb=-1"},
       "'fifo_compaction_max_table_files_size_mb'"},
      {{"--fifo_compaction_max_table_files_size_mb=18446744073709551615"},
       "--fifo_compaction_max_table_files_size_mb="},
      {{"--ttl_seconds=abc"}, "'ttl_seconds'"},
      {{"--periodic_compaction_seconds=-5"}, "'periodic_compaction_seconds'"},
      {{"--max_bytes_for_level_multiplier_additional=1,2"},
       "--max_bytes_for_level_multiplier_additional=1,2: has 2 entries, --num_levels is 7"},
      {{"--max_bytes_for_level_multiplier_additional=1,,1,1,1,1,1"},
       "--max_bytes_for_level_multiplier_additional=1,,1,1,1,1,1"},
      {{"--max_bytes_for_level_multiplier_additional=1,2,x,1,1,1,1"}, "'x'"},
      {{"--max_bytes_for_level_multiplier_additional=1,2,-3,1,1,1,1"}, "'-3'"},
      {{"--compression_level=high"}, "'compression_level'"},
      {{"--compression_max_dict_bytes=-1"}, "--compression_max_dict_bytes=-1"},
      {{"--compression_zstd_max_train_bytes=-1"}, "--compression_zstd_max_train_bytes=-1"},
      {{"--compression_parallel_threads=0"}, "--compression_parallel_threads=0"},
      {{"--compression_max_dict_buffer_bytes=-1"}, "'compression_max_dict_buffer_bytes'"},
      {{"--min_level_to_compress=8"}, "--min_level_to_compress=8: exceeds --num_levels=7"},
      {{"--compression_per_level=none,lz5"},
       "--compression_per_level=none,lz5: unknown "
       "compression 'lz5'"},
      {{"--compression_per_level=none,"}, "--compression_per_level=none,"},
      {{"--compression_per_level=lz4", "--min_level_to_compress=1"},
       "--compression_per_level=lz4: cannot be combined with --min_level_to_compress"},
  };
  for (const auto& c : kCases) {
    const std::string error = CompactionError(c.args);
    EXPECT_NE(error.find(c.flag), std::string::npos)
        << c.args[0] << " gave \"" << error << "\", expected it to name " << c.flag;
  }
}

TEST(CompactionFlagsTest, RandomFanoutListsRoundTrip) {
  // Random lists of random length: accepted exactly when they have
  // --num_levels entries, and then copied entry for entry.
  const uint64_t seed = test::RandomSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rnd(seed);
  for (int iter = 0; iter < 200; ++iter) {
    const int num_levels = 1 + static_cast<int>(rnd() % 8);
    const int entries = 1 + static_cast<int>(rnd() % 9);
    std::vector<int> fanout;
    std::string list;
    for (int i = 0; i < entries; ++i) {
      fanout.push_back(static_cast<int>(rnd() % 20));
      list += (i ? "," : "") + std::to_string(fanout.back());
    }
    const std::vector<std::string> args = {"--num_levels=" + std::to_string(num_levels),
                                           "--max_bytes_for_level_multiplier_additional=" + list};
    if (entries == num_levels) {
      EXPECT_EQ(ApplyArgs(args).max_bytes_for_level_multiplier_additional, fanout) << list;
    } else {
      EXPECT_NE(CompactionError(args).find("has " + std::to_string(entries) + " entries"),
                std::string::npos)
          << list;
    }
  }
}

// ---------------------------------------------------------------------------
// Amplification figures

TEST(AmplificationTest, SpaceLine) {
  EXPECT_EQ(SpaceAmplificationLine(3000, 2000, "rocksdb.estimate-live-data-size"),
            "Space amplification: 1.500 (live SST bytes: 3000, live data bytes: 2000, live data "
            "= rocksdb.estimate-live-data-size)");
  EXPECT_EQ(SpaceAmplificationLine(1, 3, "x"),
            "Space amplification: 0.333 (live SST bytes: 1, live data bytes: 3, live data = x)");
  EXPECT_EQ(SpaceAmplificationLine(10, 0, "x"),
            "Space amplification: n/a (no live data; live data = x)");
}

TEST(AmplificationTest, ReadLine) {
  ReadProbes p;
  p.useful = 250;
  p.positive = 125;
  p.gets = 100;
  EXPECT_EQ(ReadAmplificationLine(p, true),
            "Read amplification: 3.750 tables probed per Get (filter useful: 250, filter "
            "positive: 125, Gets: 100; 1.250 tables read past the filter per Get)");
  EXPECT_EQ(ReadAmplificationLine(p, false).rfind("Read amplification: n/a (needs --bloom_bits", 0),
            0u);
  p.gets = 0;
  EXPECT_EQ(ReadAmplificationLine(p, true), "Read amplification: n/a (no readrandom Gets)");
}

// A map engine that also reports filter probes (3 useful and 1 positive
// per Get, whatever the workload) and table bytes (twice the user bytes;
// a compaction halves them).
class ProbingMapEngine : public MapEngine {
 public:
  GetResult Get(std::string_view k, std::string* value, std::string* err) {
    {
      std::lock_guard<std::mutex> lock(probe_mu_);
      probes_.useful += 3;
      probes_.positive += 1;
      probes_.gets += 1;
    }
    return MapEngine::Get(k, value, err);
  }
  bool ReadProbeCounts(ReadProbes* out) {
    std::lock_guard<std::mutex> lock(probe_mu_);
    *out = probes_;
    return true;
  }
  bool SpaceBytes(uint64_t* sst, uint64_t* live) {
    uint64_t written = 0;
    EXPECT_TRUE(FlushCompactionBytes(&written));
    *sst = written >> halvings_;
    *live = written / 4;
    return true;
  }
  bool CompactAll(std::string* e) {
    ++halvings_;
    return MapEngine::CompactAll(e);
  }

 private:
  std::mutex probe_mu_;
  ReadProbes probes_;
  int halvings_ = 0;
};
static_assert(EngineWithReadProbes<ProbingMapEngine> && EngineWithSpaceBytes<ProbingMapEngine>);
static_assert(!EngineWithReadProbes<MapEngine> && !EngineWithSpaceBytes<MapEngine>);

TEST(AmplificationTest, ReadProbesCountOnlyReadrandom) {
  // readmissing and readrandommergerandom Get too, but only readrandom's
  // Gets count: 2 x 200 of them.
  ProbingMapEngine engine;
  const std::string out = RunOnMap({"--benchmarks=fillrandom,readrandom,readmissing,readrandom",
                                    "--num=200", "--statistics", "--bloom_bits=10", "--seed=3"},
                                   &engine);
  EXPECT_NE(out.find("Read amplification: 4.000 tables probed per Get (filter useful: 1200, "
                     "filter positive: 400, Gets: 400; 1.000 tables read past the filter per "
                     "Get)\n"),
            std::string::npos)
      << out;
  // Without filters the count means nothing.
  ProbingMapEngine no_filter;
  const std::string out2 = RunOnMap(
      {"--benchmarks=fillrandom,readrandom", "--num=50", "--statistics", "--seed=3"}, &no_filter);
  EXPECT_NE(out2.find("Read amplification: n/a (needs --bloom_bits > 0"), std::string::npos)
      << out2;
}

TEST(AmplificationTest, SpaceLineFollowsWriteAmplification) {
  // 100 x 116 user bytes; the engine says 2x were written to tables, holds
  // them all, and estimates a quarter as live.
  ProbingMapEngine engine;
  std::string out = RunOnMap(
      {"--benchmarks=fillseq", "--num=100", "--statistics", "--compression_type=none"}, &engine);
  ExpectInOrder(out, {"STATISTICS:\n", "Write amplification: 2.000",
                      "Space amplification: 4.000 (live SST bytes: 23200, live data bytes: 5800, "
                      "live data = rocksdb.estimate-live-data-size)\n",
                      "Read amplification: n/a (no readrandom run)\n"});
  EXPECT_EQ(engine.compactions(), 0);
  // --compact_for_space_amp: the live data is what a full compaction
  // leaves; the write amplification is taken before it.
  ProbingMapEngine compacted;
  out = RunOnMap({"--benchmarks=fillseq", "--num=100", "--statistics", "--compact_for_space_amp"},
                 &compacted);
  ExpectInOrder(out, {"Write amplification: 2.000 (flush+compaction bytes written: 23200, ",
                      "Space amplification: 2.000 (live SST bytes: 23200, live data bytes: "
                      "11600, live data = live SST bytes after a full compaction)\n"});
  EXPECT_EQ(compacted.compactions(), 1);
  // A store that reports neither says so.
  MapEngine plain;
  out = RunOnMap({"--benchmarks=fillseq", "--num=10", "--statistics"}, &plain);
  ExpectInOrder(out, {"Space amplification: n/a (the store does not report its table bytes)\n",
                      "Read amplification: n/a (the store does not count filter probes)\n"});
}

// ---------------------------------------------------------------------------
// randomtransaction

TEST(BenchFlagsTest, TransactionFlagsHaveRocksDbDefaults) {
  BenchFlags f;
  EXPECT_FALSE(f.transaction_db);
  EXPECT_FALSE(f.optimistic_transaction_db);
  EXPECT_EQ(f.transaction_sets, 2u);
  EXPECT_FALSE(f.transaction_set_snapshot);
  EXPECT_EQ(f.transaction_sleep, 0);
  EXPECT_EQ(f.transaction_lock_timeout, 100u);
  std::string error;
  ASSERT_TRUE(ParseArgs(
      {"--transaction_db", "--optimistic_transaction_db=1", "--transaction_sets=7",
       "--transaction_set_snapshot=true", "--transaction_sleep=3", "--transaction_lock_timeout=5"},
      &f, &error))
      << error;
  EXPECT_TRUE(f.transaction_db);
  EXPECT_TRUE(f.optimistic_transaction_db);
  EXPECT_EQ(f.transaction_sets, 7u);
  EXPECT_TRUE(f.transaction_set_snapshot);
  EXPECT_EQ(f.transaction_sleep, 3);
  EXPECT_EQ(f.transaction_lock_timeout, 5u);
}

TEST(TransactionKeyTest, RocksDbsSetPrefixes) {
  EXPECT_EQ(TransactionSetKey(0, 42), "000142");
  EXPECT_EQ(TransactionSetKey(9998, 0), "99990");
  EXPECT_EQ(TransactionSetKey(11, 123456789), "0012123456789");
}

// A MapEngine with transactions, as a model of a TransactionDB (kind
// kPessimistic: exclusive key locks never waited for -- a held lock is an
// immediate conflict, as a lock timeout of 0 -- and a key written after the
// transaction's snapshot is a conflict when locked) or an
// OptimisticTransactionDB (kOptimistic: the keys read for update or
// written are checked at Commit against the commits since the snapshot, or
// since the transaction began). A commit applies its writes and its
// commit-time batch in one Write. With drop_put_at_commit = N, the N-th
// commit (from 1) loses its last Put: a lost update Verify must catch.
class TxnMapEngine : public MapEngine {
 public:
  explicit TxnMapEngine(TxnKind kind, int drop_put_at_commit = 0)
      : kind_(kind), drop_put_at_commit_(drop_put_at_commit) {}

  struct Txn {
    uint64_t id = 0;
    bool active = false;
    bool has_snapshot = false;
    uint64_t snapshot = 0;
    uint64_t begin_seq = 0;
    std::string name;
    bool prepared = false;
    Batch writes;
    Batch commit_time;
    std::map<std::string, std::optional<std::string>> own;  // nullopt: deleted
    std::set<std::string> locked;
    std::map<std::string, uint64_t> tracked;  // optimistic: key -> check point
  };

  TxnKind TransactionKind() const { return kind_; }
  TxnResult TxnBegin(Txn* t, const std::string& name, std::string* err) {
    if (t->active) Release(t);
    std::lock_guard<std::mutex> lock(mu_);
    *t = Txn();
    t->id = ++next_id_;
    t->active = true;
    t->name = name;
    t->begin_seq = seq_;
    if ((kind_ == TxnKind::kPessimistic) == name.empty()) {
      *err = "a pessimistic transaction needs a name, an optimistic one has none";
      return TxnResult::kError;
    }
    if (!name.empty() && !names_.insert(name).second) {
      *err = "name used twice: " + name;
      return TxnResult::kError;
    }
    return TxnResult::kOk;
  }
  bool TxnHasSnapshot(const Txn* t) { return t->has_snapshot; }
  void TxnSetSnapshot(Txn* t) {
    std::lock_guard<std::mutex> lock(mu_);
    t->has_snapshot = true;
    t->snapshot = seq_;
    ++snapshots_;
  }
  TxnResult TxnGet(Txn* t, std::string_view key, bool for_update, std::string* value,
                   std::string* err) {
    const std::string k(key);
    if (for_update) {
      const TxnResult r = Track(t, k, err);
      if (r != TxnResult::kOk) return r;
    }
    auto own = t->own.find(k);
    if (own != t->own.end()) {
      if (!own->second) return TxnResult::kNotFound;
      *value = *own->second;
      return TxnResult::kOk;
    }
    return Get(key, value, err) == GetResult::kFound ? TxnResult::kOk : TxnResult::kNotFound;
  }
  TxnResult TxnDelete(Txn* t, std::string_view key, bool /*single*/, std::string* err) {
    const std::string k(key);
    const TxnResult r = Track(t, k, err);
    if (r != TxnResult::kOk) return r;
    BatchDelete(&t->writes, k);
    t->own[k] = std::nullopt;
    return TxnResult::kOk;
  }
  TxnResult TxnPut(Txn* t, std::string_view key, std::string_view value, std::string* err) {
    const std::string k(key);
    const TxnResult r = Track(t, k, err);
    if (r != TxnResult::kOk) return r;
    BatchPut(&t->writes, k, value);
    t->own[k] = std::string(value);
    return TxnResult::kOk;
  }
  TxnResult TxnCommitTimePut(Txn* t, std::string_view key, std::string_view value, std::string*) {
    BatchPut(&t->commit_time, key, value);
    std::lock_guard<std::mutex> lock(mu_);
    ++commit_time_puts_;
    return TxnResult::kOk;
  }
  TxnResult TxnPrepare(Txn* t, std::string* err) {
    if (kind_ != TxnKind::kPessimistic || t->name.empty() || t->prepared) {
      *err = "Prepare out of place";
      return TxnResult::kError;
    }
    t->prepared = true;
    std::lock_guard<std::mutex> lock(mu_);
    ++prepares_;
    return TxnResult::kOk;
  }
  TxnResult TxnCommit(Txn* t, std::string* err) {
    std::unique_lock<std::mutex> lock(mu_);
    if (kind_ == TxnKind::kOptimistic) {
      for (const auto& [key, since] : t->tracked) {
        auto v = versions_.find(key);
        if (v != versions_.end() && v->second > since) {
          *err = "Busy: write conflict at commit";
          lock.unlock();
          Release(t);
          return TxnResult::kConflict;
        }
      }
    }
    Batch all = t->writes;
    all.insert(all.end(), t->commit_time.begin(), t->commit_time.end());
    if (++commits_ == drop_put_at_commit_) {
      for (size_t i = all.size(); i-- > 0;) {
        if (all[i].value) {
          all.erase(all.begin() + static_cast<long>(i));
          break;
        }
      }
    }
    std::string error;
    if (!Write(&all, &error)) {
      *err = error;
      return TxnResult::kError;
    }
    ++seq_;
    for (const Op& op : t->writes) versions_[op.key] = seq_;
    lock.unlock();
    Release(t);
    return TxnResult::kOk;
  }
  TxnResult TxnRollback(Txn* t, std::string*) {
    Release(t);
    std::lock_guard<std::mutex> lock(mu_);
    ++rollbacks_;
    return TxnResult::kOk;
  }

  uint64_t commits() const { return commits_; }
  uint64_t prepares() const { return prepares_; }
  uint64_t rollbacks() const { return rollbacks_; }
  uint64_t snapshots() const { return snapshots_; }
  uint64_t commit_time_puts() const { return commit_time_puts_; }

  // Each set's sum of values (keys "0001...", "0002...", ...).
  std::map<std::string, uint64_t> SetSums() {
    std::map<std::string, uint64_t> sums;
    std::unique_ptr<Iterator> it = NewIterator();
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const std::string& key = it->entry().first;
      if (key == "cat") continue;
      sums[key.substr(0, 4)] += std::stoull(it->entry().second);
    }
    return sums;
  }

 private:
  TxnResult Track(Txn* t, const std::string& key, std::string* err) {
    std::lock_guard<std::mutex> lock(mu_);
    if (kind_ == TxnKind::kPessimistic) {
      auto [it, fresh] = locks_.try_emplace(key, t->id);
      if (!fresh && it->second != t->id) {
        *err = "TimedOut: lock held by another transaction";
        return TxnResult::kConflict;
      }
      t->locked.insert(key);
      auto v = versions_.find(key);
      if (t->has_snapshot && v != versions_.end() && v->second > t->snapshot) {
        *err = "Busy: written after the snapshot";
        return TxnResult::kConflict;
      }
    } else {
      t->tracked.try_emplace(key, t->has_snapshot ? t->snapshot : t->begin_seq);
    }
    return TxnResult::kOk;
  }
  void Release(Txn* t) {
    std::lock_guard<std::mutex> lock(mu_);
    for (const std::string& key : t->locked) {
      auto it = locks_.find(key);
      if (it != locks_.end() && it->second == t->id) locks_.erase(it);
    }
    if (!t->name.empty()) names_.erase(t->name);
    *t = Txn();
  }

  const TxnKind kind_;
  const uint64_t drop_put_at_commit_;
  std::mutex mu_;
  uint64_t next_id_ = 0;                      // guarded by mu_
  uint64_t seq_ = 0;                          // guarded by mu_: commits so far
  std::map<std::string, uint64_t> versions_;  // guarded by mu_: key -> commit
  std::map<std::string, uint64_t> locks_;     // guarded by mu_: key -> txn id
  std::set<std::string> names_;               // guarded by mu_: live names
  uint64_t commits_ = 0, prepares_ = 0, rollbacks_ = 0, snapshots_ = 0;
  uint64_t commit_time_puts_ = 0;  // guarded by mu_
};
static_assert(EngineWithTransactions<TxnMapEngine>);
static_assert(!EngineWithTransactions<MapEngine>);

// Every set sums to the same total, and that total is not zero.
void ExpectEqualSetSums(TxnMapEngine* engine, size_t sets) {
  const std::map<std::string, uint64_t> sums = engine->SetSums();
  ASSERT_EQ(sums.size(), sets);
  for (const auto& [set, sum] : sums) {
    EXPECT_EQ(sum, sums.begin()->second) << set;
    EXPECT_GT(sum, 0u);
  }
}

TEST(RandomTransactionTest, PessimisticOneThreadPrintsRocksDbsLines) {
  TxnMapEngine engine(TxnKind::kPessimistic);
  const std::string out = RunOnMap(
      {"--benchmarks=randomtransaction", "--num=1000", "--transaction_db", "--seed=3"}, &engine);
  ExpectInOrder(out, {"DB path: [/nonexistent/map]\nrandomtransaction : ", " 1000 operations;",
                      "( transactions:1000 aborts:0)\n", "RandomTransactionVerify Success.\n"});
  // RocksDB's mix: Prepare 9 in 10, Rollback 1 in 20 (of those that got
  // so far), a commit-time write 1 in 20 of the prepared ones.
  EXPECT_EQ(engine.commits() + engine.rollbacks(), 1000u);
  EXPECT_GT(engine.prepares(), 850u);
  EXPECT_LT(engine.prepares(), 950u);
  EXPECT_GT(engine.rollbacks(), 25u);
  EXPECT_LT(engine.rollbacks(), 80u);
  EXPECT_GT(engine.commit_time_puts(), 20u);
  // Without --transaction_set_snapshot every transaction takes a snapshot.
  EXPECT_EQ(engine.snapshots(), 1000u);
  std::string value, error;
  EXPECT_EQ(engine.Get("cat", &value, &error), GetResult::kFound);
  EXPECT_EQ(value, "dog");
  ExpectEqualSetSums(&engine, 2);
}

TEST(RandomTransactionTest, OptimisticNeverPrepares) {
  TxnMapEngine engine(TxnKind::kOptimistic);
  const std::string out = RunOnMap({"--benchmarks=randomtransaction", "--num=500",
                                    "--optimistic_transaction_db", "--transaction_sets=5"},
                                   &engine);
  ExpectInOrder(out, {"( transactions:500 aborts:0)\n", "RandomTransactionVerify Success.\n"});
  EXPECT_EQ(engine.prepares(), 0u);
  EXPECT_EQ(engine.snapshots(), 0u);
  EXPECT_GT(engine.rollbacks(), 5u);
  ExpectEqualSetSums(&engine, 5);
}

// Threads on few keys: transactions conflict and abort, the sums stay equal.
TEST(RandomTransactionTest, ThreadsConflictAndTheSumsHold) {
  for (TxnKind kind : {TxnKind::kPessimistic, TxnKind::kOptimistic}) {
    TxnMapEngine engine(kind);
    const std::string out = RunOnMap(
        {"--benchmarks=randomtransaction", "--num=8", "--writes=3000", "--threads=4",
         "--transaction_sets=3", "--transaction_set_snapshot",
         kind == TxnKind::kPessimistic ? "--transaction_db" : "--optimistic_transaction_db",
         "--seed=" + std::to_string(test::RandomSeed())},
        &engine);
    ExpectInOrder(out, {" 12000 operations;",
                        "( transactions:3000 aborts:", "RandomTransactionVerify Success.\n"});
    ExpectEqualSetSums(&engine, 3);
  }
}

TEST(RandomTransactionTest, VerifyCatchesALostUpdate) {
  TxnMapEngine engine(TxnKind::kPessimistic, /*drop_put_at_commit=*/5);
  const std::string out = RunOnMap(
      {"--benchmarks=randomtransaction", "--num=100", "--transaction_db", "--seed=9"}, &engine);
  ExpectInOrder(out, {"( transactions:100 aborts:0)\n",
                      "RandomTransactionVerify found inconsistent totals using pointlookup? 0 ",
                      "RandomTransactionVerify FAILED!!\n"});
}

// Without a transaction DB: plain batches, RocksDB's "( batches:N )", no
// check -- on a store without transactions too.
TEST(RandomTransactionTest, PlainBatchesWithoutTransactions) {
  PlainMapEngine engine;
  const std::string out = RunOnMap(
      {"--benchmarks=fillseq,randomtransaction", "--num=300", "--transaction_sets=4"}, &engine);
  ExpectInOrder(out, {"randomtransaction : ", " 300 operations;", "( batches:300 )\n"});
  EXPECT_EQ(out.find("RandomTransactionVerify"), std::string::npos);
  // One thread: the batches alone keep the sums equal.
  std::map<std::string, uint64_t> sums;
  for (const std::string& key : engine.Keys()) {
    if (key.size() < 4 || key[0] != '0') continue;  // fillseq's binary keys
    std::string value, error;
    ASSERT_EQ(engine.Get(key, &value, &error), GetResult::kFound);
    sums[key.substr(0, 4)] += std::stoull(value);
  }
  ASSERT_EQ(sums.size(), 4u);
  for (const auto& [set, sum] : sums) EXPECT_EQ(sum, sums.begin()->second) << set;
}

TEST(RandomTransactionDeathTest, SetsOutOfRangeAreRefused) {
  for (const char* sets : {"--transaction_sets=0", "--transaction_sets=10000"}) {
    TxnMapEngine engine(TxnKind::kPessimistic);
    EXPECT_EXIT(RunOnMap({"--benchmarks=randomtransaction", "--num=10", sets}, &engine),
                testing::ExitedWithCode(1), "invalid value for transaction_sets");
  }
}

}  // namespace
}  // namespace strata::bench
