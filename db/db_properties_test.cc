// DB properties under RocksDB 7.8.3's names (docs/design/properties.md):
// on a database with data in several levels every property answers with a
// sensible value, the numeric ones agree with their text form, the
// rocksdb.stats text has RocksDB's headings and rows (and its Sum row adds
// up), the map properties carry RocksDB's keys, and the table-derived
// figures match sums computed here from each file's own properties.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "strata/cache.h"
#include "strata/db.h"
#include "strata/options.h"
#include "strata/sst_file_writer.h"
#include "strata/statistics.h"
#include "strata/table.h"
#include "strata/table_properties.h"
#include "test_util/db_test_base.h"
#include "test_util/stats_text.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

constexpr size_t kBlockCacheBytes = 4 << 20;
constexpr int kNumLevels = 4;

class DBPropertiesTest : public DBTestBase {
 protected:
  DBPropertiesTest() : DBTestBase("db_properties_test") {}

  static std::string Key(int i) {
    char buf[32];
    snprintf(buf, sizeof(buf), "key%08d", i);
    return buf;
  }

  Options PropertiesOptions() {
    Options o = SmallOptions();
    o.num_levels = kNumLevels;
    // Level 0 keeps the last flushes: the data ends in three levels.
    o.level0_file_num_compaction_trigger = 4;
    o.statistics = CreateDBStatistics();
    o.table_mmap_reads = false;  // reads go through the block cache
    BlockBasedTableOptions t;
    t.block_size = 1024;
    t.block_cache = NewLRUCache(kBlockCacheBytes);
    o.table_factory = NewBlockBasedTableFactory(t);
    return o;
  }

  // Data in level 0, the base level and below it, plus unflushed entries
  // (kMemPuts puts and kMemDeletes deletes in the mutable memtable).
  static constexpr int kKeys = 3000;
  static constexpr int kMemPuts = 7;
  static constexpr int kMemDeletes = 3;
  void FillSeveralLevels() {
    Open(PropertiesOptions());
    const std::string value(150, 'v');
    // Two rounds over the same keys: compactions drop the older versions.
    for (int round = 0; round < 2; ++round) {
      for (int i = 0; i < kKeys; ++i) ASSERT_OK(Put(Key(i), value + std::to_string(round)));
      ASSERT_OK(Flush());
      ASSERT_OK(WaitForCompact());
    }
    ASSERT_OK(Put(Key(1), "newer"));
    ASSERT_OK(Flush());
    ASSERT_OK(WaitForCompact());
    for (int i = 0; i < kMemPuts; ++i) ASSERT_OK(Put(Key(kKeys + i), "mem"));
    for (int i = 0; i < kMemDeletes; ++i) ASSERT_OK(Delete(Key(i)));
    // Reads open the table readers (rocksdb.estimate-table-readers-mem).
    for (int i = 0; i < kKeys; i += 97) EXPECT_EQ(Get(Key(i)).substr(0, 3), i < 3 ? "NOT" : "vvv");
  }

  std::string Prop(const std::string& name) {
    std::string v;
    EXPECT_TRUE(db_->GetProperty(name, &v)) << name;
    return v;
  }
  std::map<std::string, std::string> MapProp(const std::string& name) {
    std::map<std::string, std::string> m;
    EXPECT_TRUE(db_->GetMapProperty(name, &m)) << name;
    return m;
  }

  // The file numbers per level, from rocksdb.sstables.
  std::map<int, std::vector<uint64_t>> FilesByLevel() {
    std::map<int, std::vector<uint64_t>> r;
    std::istringstream in(Prop("rocksdb.sstables"));
    std::string line;
    int level = -1;
    while (std::getline(in, line)) {
      int l;
      if (sscanf(line.c_str(), "--- level %d ---", &l) == 1) {
        level = l;
      } else if (!line.empty() && line[0] == ' ') {
        r[level].push_back(strtoull(line.c_str() + 1, nullptr, 10));
      }
    }
    return r;
  }

  // Each file's own properties, read with SstFileReader.
  std::shared_ptr<const TableProperties> FileProperties(uint64_t number) {
    char name[32];
    snprintf(name, sizeof(name), "/%06" PRIu64 ".sst", number);
    SstFileReader reader(options_);
    EXPECT_OK(reader.Open(dbname_ + name));
    return reader.GetTableProperties();
  }
  uint64_t FileSize(uint64_t number) {
    char name[32];
    snprintf(name, sizeof(name), "/%06" PRIu64 ".sst", number);
    uint64_t size = 0;
    EXPECT_OK(options_.env->GetFileSystem()->GetFileSize(dbname_ + name, &size));
    return size;
  }
};

// Where a text figure is printed with limited precision.
void ExpectNear(double expected, double actual, double tolerance, const std::string& what) {
  EXPECT_LE(std::fabs(expected - actual), tolerance)
      << what << ": expected " << expected << ", got " << actual;
}

TEST_F(DBPropertiesTest, NumericPropertiesAnswerAndAgreeWithTheirText) {
  FillSeveralLevels();
  const Snapshot* snap = db_->GetSnapshot();
  const std::map<int, std::vector<uint64_t>> files = FilesByLevel();
  int levels_with_files = 0;
  uint64_t file_count = 0, file_bytes = 0;
  for (const auto& [level, numbers] : files) {
    levels_with_files += numbers.empty() ? 0 : 1;
    file_count += numbers.size();
    for (uint64_t n : numbers) file_bytes += FileSize(n);
  }
  ASSERT_GE(levels_with_files, 3) << Prop("rocksdb.sstables");
  ASSERT_FALSE(files.at(0).empty()) << Prop("rocksdb.sstables");

  const std::vector<std::string> names = {
      "num-immutable-mem-table",
      "num-immutable-mem-table-flushed",
      "mem-table-flush-pending",
      "compaction-pending",
      "background-errors",
      "cur-size-active-mem-table",
      "cur-size-all-mem-tables",
      "size-all-mem-tables",
      "num-entries-active-mem-table",
      "num-entries-imm-mem-tables",
      "num-deletes-active-mem-table",
      "num-deletes-imm-mem-tables",
      "estimate-num-keys",
      "estimate-table-readers-mem",
      "is-file-deletions-enabled",
      "num-snapshots",
      "oldest-snapshot-time",
      "oldest-snapshot-sequence",
      "num-live-versions",
      "current-super-version-number",
      "estimate-live-data-size",
      "min-log-number-to-keep",
      "base-level",
      "total-sst-files-size",
      "live-sst-files-size",
      "estimate-pending-compaction-bytes",
      "num-running-compactions",
      "num-running-flushes",
      "actual-delayed-write-rate",
      "is-write-stopped",
      "block-cache-capacity",
      "block-cache-usage",
      "block-cache-pinned-usage",
      "num-blob-files",
      "total-blob-file-size",
      "live-blob-file-size",
      "live-blob-file-garbage-size",
  };
  std::map<std::string, uint64_t> v;
  for (const std::string& name : names) {
    for (const char* prefix : {"rocksdb.", "strata."}) {
      uint64_t n = 0;
      ASSERT_TRUE(db_->GetIntProperty(prefix + name, &n)) << prefix << name;
      std::string text;
      ASSERT_TRUE(db_->GetProperty(prefix + name, &text)) << prefix << name;
      EXPECT_EQ(std::to_string(n), text) << prefix << name;
      v[name] = n;
    }
  }
  EXPECT_EQ(0u, v["num-immutable-mem-table"]);
  EXPECT_EQ(0u, v["mem-table-flush-pending"]);
  EXPECT_EQ(0u, v["compaction-pending"]);
  EXPECT_EQ(0u, v["background-errors"]);
  EXPECT_GT(v["cur-size-active-mem-table"], 0u);
  EXPECT_EQ(v["cur-size-active-mem-table"], v["cur-size-all-mem-tables"]);
  EXPECT_EQ(v["cur-size-all-mem-tables"], v["size-all-mem-tables"]);
  EXPECT_EQ(static_cast<uint64_t>(kMemPuts + kMemDeletes), v["num-entries-active-mem-table"]);
  EXPECT_EQ(static_cast<uint64_t>(kMemDeletes), v["num-deletes-active-mem-table"]);
  EXPECT_EQ(0u, v["num-entries-imm-mem-tables"]);
  // Entries minus twice the deletions, over the tables' entry counts: the
  // older versions still in upper levels make it an overestimate.
  EXPECT_GE(v["estimate-num-keys"], static_cast<uint64_t>(kKeys + kMemPuts - 2 * kMemDeletes));
  EXPECT_LE(v["estimate-num-keys"], static_cast<uint64_t>(3 * kKeys + kMemPuts));
  EXPECT_GT(v["estimate-table-readers-mem"], 0u);
  EXPECT_EQ(1u, v["is-file-deletions-enabled"]);
  EXPECT_EQ(1u, v["num-snapshots"]);
  int64_t now = 0;
  ASSERT_OK(options_.env->GetSystemClock()->GetCurrentTime(&now));
  EXPECT_LE(v["oldest-snapshot-time"], static_cast<uint64_t>(now));
  EXPECT_GE(v["oldest-snapshot-time"] + 60, static_cast<uint64_t>(now));
  EXPECT_EQ(snap->GetSequenceNumber(), v["oldest-snapshot-sequence"]);
  EXPECT_GE(v["num-live-versions"], 1u);
  EXPECT_GT(v["current-super-version-number"], 0u);
  EXPECT_GT(v["estimate-live-data-size"], 0u);
  EXPECT_LE(v["estimate-live-data-size"], file_bytes);
  EXPECT_GT(v["min-log-number-to-keep"], 0u);
  // Level 0 compacts into the base level: nothing lies between them.
  ASSERT_GE(v["base-level"], 1u);
  ASSERT_LT(v["base-level"], static_cast<uint64_t>(kNumLevels));
  for (uint64_t level = 1; level < v["base-level"]; ++level) {
    EXPECT_EQ(0u, files.count(level) ? files.at(level).size() : 0) << level;
  }
  EXPECT_EQ(file_bytes, v["live-sst-files-size"]);
  EXPECT_EQ(file_bytes, v["total-sst-files-size"]);  // no older Version holds other files
  EXPECT_EQ(0u, v["num-running-compactions"]);
  EXPECT_EQ(0u, v["num-running-flushes"]);
  EXPECT_EQ(0u, v["actual-delayed-write-rate"]);
  EXPECT_EQ(0u, v["is-write-stopped"]);
  EXPECT_EQ(kBlockCacheBytes, v["block-cache-capacity"]);
  EXPECT_GT(v["block-cache-usage"], 0u);
  EXPECT_LE(v["block-cache-usage"], v["block-cache-capacity"]);
  EXPECT_LE(v["block-cache-pinned-usage"], v["block-cache-usage"]);
  EXPECT_EQ(0u, v["num-blob-files"]);

  uint64_t by_level = 0;
  for (int level = 0; level < kNumLevels; ++level) {
    const std::string name = "rocksdb.num-files-at-level" + std::to_string(level);
    const uint64_t expected = files.count(level) ? files.at(level).size() : 0;
    EXPECT_EQ(std::to_string(expected), Prop(name));
    EXPECT_EQ(expected, IntProperty(name));
    by_level += expected;
  }
  EXPECT_EQ(file_count, by_level);

  // rocksdb.levelstats: one row per level, its files and MB.
  const std::string levelstats = Prop("rocksdb.levelstats");
  EXPECT_EQ(0u, levelstats.find("Level Files Size(MB)\n--------------------\n")) << levelstats;
  for (int level = 0; level < kNumLevels; ++level) {
    char row[64];
    snprintf(row, sizeof(row), "%3d %8zu ", level, files.count(level) ? files.at(level).size() : 0);
    EXPECT_NE(std::string::npos, levelstats.find(row)) << row << "\n" << levelstats;
  }

  // rocksdb.options-statistics: the Statistics object's own text.
  EXPECT_EQ(options_.statistics->ToString(), Prop("rocksdb.options-statistics"));
  db_->ReleaseSnapshot(snap);
  EXPECT_EQ(0u, IntProperty("rocksdb.num-snapshots"));
  EXPECT_EQ(0u, IntProperty("rocksdb.oldest-snapshot-time"));
}

TEST_F(DBPropertiesTest, UnknownAndMisshapenNamesAreRefused) {
  FillSeveralLevels();
  std::string s;
  uint64_t n = 0;
  std::map<std::string, std::string> m;
  for (const char* name :
       {"rocksdb.no-such-property", "strata.no-such-property", "leveldb.stats", "stats", "",
        "rocksdb.", "rocksdb.num-files-at-level", "rocksdb.num-files-at-level4",
        "rocksdb.num-files-at-level1x", "rocksdb.num-files-at-level-1",
        "rocksdb.compression-ratio-at-level9", "rocksdb.aggregated-table-properties-at-level"}) {
    EXPECT_FALSE(db_->GetProperty(name, &s)) << name;
    EXPECT_FALSE(db_->GetIntProperty(name, &n)) << name;
    EXPECT_FALSE(db_->GetMapProperty(name, &m)) << name;
  }
  // Issue 19: block-cache-entry-stats is a map of the charged roles only
  // (no per-role walk of the block cache for the string form).
  EXPECT_FALSE(db_->GetProperty("rocksdb.block-cache-entry-stats", &s));
  EXPECT_FALSE(db_->GetIntProperty("rocksdb.block-cache-entry-stats", &n));
  EXPECT_TRUE(db_->GetMapProperty("rocksdb.block-cache-entry-stats", &m));
  EXPECT_EQ(m.count("capacity"), 1u);
  // Text-only properties are no numbers, and numbers no maps.
  EXPECT_FALSE(db_->GetIntProperty("rocksdb.stats", &n));
  EXPECT_FALSE(db_->GetIntProperty("rocksdb.sstables", &n));
  EXPECT_FALSE(db_->GetMapProperty("rocksdb.estimate-num-keys", &m));
  EXPECT_FALSE(db_->GetMapProperty("rocksdb.stats", &m));
  // Without statistics there is nothing to print.
  Reopen(SmallOptions());
  EXPECT_FALSE(db_->GetProperty("rocksdb.options-statistics", &s));
  // A closed database answers nothing.
  ASSERT_OK(db_->Close());
  EXPECT_FALSE(db_->GetProperty("rocksdb.stats", &s));
  EXPECT_FALSE(db_->GetIntProperty("rocksdb.block-cache-capacity", &n));
  EXPECT_FALSE(db_->GetMapProperty("rocksdb.cfstats", &m));
  EXPECT_FALSE(db_->GetMapProperty("rocksdb.dbstats", &m));
}

TEST_F(DBPropertiesTest, BlockCachePropertiesNeedABlockCache) {
  Options o = SmallOptions();
  BlockBasedTableOptions t;
  t.no_block_cache = true;
  o.table_factory = NewBlockBasedTableFactory(t);
  Open(o);
  uint64_t n = 0;
  EXPECT_FALSE(db_->GetIntProperty("rocksdb.block-cache-capacity", &n));
  EXPECT_FALSE(db_->GetIntProperty("rocksdb.block-cache-usage", &n));
  EXPECT_FALSE(db_->GetIntProperty("rocksdb.block-cache-pinned-usage", &n));
}

TEST_F(DBPropertiesTest, StatsTextHasRocksDBsLayout) {
  FillSeveralLevels();
  const std::string stats = Prop("rocksdb.stats");
  // RocksDB 7.8.3's headings and labels, in its order.
  const std::vector<std::string> in_order = {
      "\n** Compaction Stats [default] **\n",
      "Level    Files   Size     Score Read(GB)  Rn(GB) Rnp1(GB) Write(GB) Wnew(GB) Moved(GB) "
      "W-Amp Rd(MB/s) Wr(MB/s) Comp(sec) CompMergeCPU(sec) Comp(cnt) Avg(sec) KeyIn KeyDrop "
      "Rblob(GB) Wblob(GB)\n---",
      "\n  L0 ",
      "\n Sum ",
      "\n Int ",
      "\n** Compaction Stats [default] **\n",
      "Priority    Files   Size     Score Read(GB)  Rn(GB) Rnp1(GB) Write(GB) Wnew(GB) Moved(GB) "
      "W-Amp Rd(MB/s) Wr(MB/s) Comp(sec) CompMergeCPU(sec) Comp(cnt) Avg(sec) KeyIn KeyDrop "
      "Rblob(GB) Wblob(GB)\n---",
      "\n Low ",
      "\nHigh ",
      "\nBlob file count: 0, total size: 0.0 GB, garbage size: 0.0 GB, space amp: 0.0\n",
      "\nUptime(secs): ",
      "\nFlush(GB): cumulative ",
      "\nAddFile(GB): cumulative ",
      "\nAddFile(Total Files): cumulative ",
      "\nAddFile(L0 Files): cumulative ",
      "\nAddFile(Keys): cumulative ",
      "\nCumulative compaction: ",
      "\nInterval compaction: ",
      "\nStalls(count): ",
      "\n** File Read Latency Histogram By Level [default] **\n",
      "\n** DB Stats **\nUptime(secs): ",
      "\nCumulative writes: ",
      "\nCumulative WAL: ",
      "\nCumulative stall: ",
      "\nInterval writes: ",
      "\nInterval WAL: ",
      "\nInterval stall: ",
  };
  size_t at = 0;
  for (const std::string& s : in_order) {
    const size_t found = stats.find(s, at);
    ASSERT_NE(std::string::npos, found) << "missing (in order): " << s << "\n" << stats;
    at = found + 1;
  }
  // The dashes under a heading are one longer than the heading line (as
  // RocksDB prints them: 191 and 192 characters).
  const size_t heading = stats.find("Level    Files");
  const size_t heading_end = stats.find('\n', heading);
  const size_t dashes_end = stats.find('\n', heading_end + 1);
  EXPECT_EQ(191u, heading_end - heading);
  EXPECT_EQ(192u, dashes_end - heading_end - 1);

  // The level rows: one per level with files (and every one parses in
  // full); the Sum row adds them up.
  const std::vector<test::StatsRow> rows = test::StatsRows(stats, "Level");
  test::StatsRow sum;
  double size_bytes = 0;
  int files = 0;
  uint64_t count = 0, key_in = 0, key_drop = 0;
  int level_rows = 0;
  for (const test::StatsRow& r : rows) {
    if (r.label == "Sum") sum = r;
    if (r.label[0] != 'L') continue;
    ++level_rows;
    const int level = atoi(r.label.c_str() + 1);
    EXPECT_EQ(NumTableFilesAtLevel(level), r.files) << r.label;
    files += r.files;
    size_bytes += r.size_bytes;
    count += r.comp_cnt;
    key_in += strtoull(r.key_in.c_str(), nullptr, 10);
    key_drop += strtoull(r.key_drop.c_str(), nullptr, 10);
  }
  ASSERT_GE(level_rows, 3) << stats;
  EXPECT_EQ(files, sum.files) << stats;
  ExpectNear(size_bytes, sum.size_bytes, 0.01 * size_bytes + 10240, "Sum size");
  EXPECT_EQ(count, sum.comp_cnt) << stats;
  EXPECT_GT(key_in, 0u) << stats;
  // RocksDB's counts: exact below 10000, then in K (and M) units.
  auto human = [](uint64_t n) {
    if (n < 10000) return std::to_string(n);
    if (n < 10000000) return std::to_string(n / 1000) + "K";
    return std::to_string(n / 1000000) + "M";
  };
  EXPECT_EQ(human(key_in), sum.key_in) << stats;
  EXPECT_EQ(human(key_drop), sum.key_drop) << stats;
  EXPECT_GT(key_drop, 0u) << "the second round replaced every key\n" << stats;

  // The priority rows: flushes ran as High, compactions as Low.
  const std::vector<test::StatsRow> pri = test::StatsRows(stats, "Priority");
  ASSERT_EQ(2u, pri.size()) << stats;
  EXPECT_EQ("Low", pri[0].label);
  EXPECT_EQ("High", pri[1].label);
  EXPECT_EQ(sum.comp_cnt, pri[0].comp_cnt + pri[1].comp_cnt) << stats;
  EXPECT_EQ("0", pri[1].key_in);  // a flush reads no keys from tables

  // DB Stats: every write so far was one Put or Delete by its own leader
  // (fewer than 10000: RocksDB prints such counts exactly).
  const uint64_t writes = 2 * kKeys + 1 + kMemPuts + kMemDeletes;
  ASSERT_LT(writes, 10000u);
  const std::string line = "Cumulative writes: " + std::to_string(writes) + " writes, " +
                           std::to_string(writes) + " keys, " + std::to_string(writes) +
                           " commit groups, 1.0 writes per commit group";
  EXPECT_NE(std::string::npos, stats.find(line)) << line << "\n" << stats;

  // The next dump's interval saw no work.
  const std::vector<test::StatsRow> again = test::StatsRows(Prop("rocksdb.stats"), "Level");
  for (const test::StatsRow& r : again) {
    if (r.label == "Int") {
      EXPECT_EQ(0u, r.comp_cnt);
    }
  }
  const std::string db_stats = Prop("rocksdb.dbstats");
  EXPECT_NE(std::string::npos, db_stats.find("Interval writes: 0 writes, 0 keys, 0 commit groups"))
      << db_stats;
  // cfstats = cfstats-no-file-histogram + cf-file-histogram.
  const std::string cfstats = Prop("rocksdb.cfstats");
  EXPECT_EQ(0u, cfstats.find("\n** Compaction Stats [default] **\n"));
  EXPECT_NE(std::string::npos, cfstats.find(Prop("rocksdb.cf-file-histogram")));
  EXPECT_EQ(std::string::npos, cfstats.find("** DB Stats **"));
  EXPECT_EQ(std::string::npos,
            Prop("rocksdb.cfstats-no-file-histogram").find("File Read Latency Histogram"));
}

TEST_F(DBPropertiesTest, StatsMapsHaveRocksDBsKeysAndAddUp) {
  FillSeveralLevels();
  const std::map<std::string, std::string> cf = MapProp("rocksdb.cfstats");
  const char* const additive[] = {"NumFiles",  "SizeBytes", "ReadGB",  "RnGB",    "Rnp1GB",
                                  "WriteGB",   "WnewGB",    "MovedGB", "CompSec", "CompMergeCPU",
                                  "CompCount", "KeyIn",     "KeyDrop"};
  for (const char* stat : additive) {
    double sum = 0;
    for (int level = 0; level < kNumLevels; ++level) {
      auto it = cf.find("compaction.L" + std::to_string(level) + "." + stat);
      if (it != cf.end()) sum += std::stod(it->second);
    }
    ASSERT_TRUE(cf.count(std::string("compaction.Sum.") + stat)) << stat;
    const double printed = std::stod(cf.at(std::string("compaction.Sum.") + stat));
    ExpectNear(sum, printed, 1e-5 * std::max(1.0, std::fabs(sum)) + 1e-5, stat);
  }
  for (const char* stat : {"CompactedFiles", "Score", "WriteAmp", "ReadMBps", "WriteMBps", "AvgSec",
                           "RblobGB", "WblobGB"}) {
    EXPECT_TRUE(cf.count(std::string("compaction.L0.") + stat)) << stat;
  }
  EXPECT_EQ(std::to_string(NumTableFilesAtLevel(0)) + ".000000", cf.at("compaction.L0.NumFiles"));
  // Level 0's Write(GB) is what flushes wrote.
  ExpectNear(static_cast<double>(IntProperty("strata.flush-write-bytes")),
             std::stod(cf.at("compaction.L0.WriteGB")) * 1073741824.0, 2048, "L0 WriteGB");
  for (const char* key :
       {"io_stalls.level0_slowdown", "io_stalls.level0_slowdown_with_compaction",
        "io_stalls.level0_numfiles", "io_stalls.level0_numfiles_with_compaction",
        "io_stalls.stop_for_pending_compaction_bytes",
        "io_stalls.slowdown_for_pending_compaction_bytes", "io_stalls.memtable_compaction",
        "io_stalls.memtable_slowdown", "io_stalls.total_stop", "io_stalls.total_slowdown"}) {
    EXPECT_TRUE(cf.count(key)) << key;
  }

  const std::map<std::string, std::string> db = MapProp("rocksdb.dbstats");
  const uint64_t writes = 2 * kKeys + 1 + kMemPuts + kMemDeletes;
  EXPECT_EQ(std::to_string(writes), db.at("db.user_writes_by_self"));
  EXPECT_EQ("0", db.at("db.user_writes_by_other"));
  EXPECT_EQ(std::to_string(writes), db.at("db.user_keys_written"));
  EXPECT_EQ(std::to_string(writes), db.at("db.user_writes_with_wal"));
  EXPECT_EQ("0", db.at("db.wal_syncs"));
  EXPECT_GT(std::stoull(db.at("db.wal_bytes_written")), std::stoull("0"));
  EXPECT_GT(std::stoull(db.at("db.user_bytes_written")), 150u * 2 * kKeys);
  EXPECT_TRUE(db.count("db.user_write_stall_micros"));
  EXPECT_TRUE(db.count("db.uptime"));
  EXPECT_EQ(9u, db.size());
}

TEST_F(DBPropertiesTest, TableDerivedFiguresMatchTheFilesOwnProperties) {
  FillSeveralLevels();
  const std::map<int, std::vector<uint64_t>> files = FilesByLevel();
  TableProperties all;
  for (int level = 0; level < kNumLevels; ++level) {
    uint64_t raw = 0, bytes = 0, entries = 0, data = 0;
    TableProperties at_level;
    const std::vector<uint64_t> numbers =
        files.count(level) ? files.at(level) : std::vector<uint64_t>();
    for (uint64_t n : numbers) {
      std::shared_ptr<const TableProperties> p = FileProperties(n);
      ASSERT_NE(nullptr, p);
      raw += p->raw_key_size + p->raw_value_size;
      bytes += FileSize(n);
      entries += p->num_entries;
      data += p->data_size;
      all.num_entries += p->num_entries;
      all.data_size += p->data_size;
      all.index_size += p->index_size;
      all.filter_size += p->filter_size;
      all.raw_key_size += p->raw_key_size;
      all.raw_value_size += p->raw_value_size;
      all.num_data_blocks += p->num_data_blocks;
      all.num_deletions += p->num_deletions;
      all.index_key_is_user_key += p->index_key_is_user_key;
      all.index_value_is_delta_encoded += p->index_value_is_delta_encoded;
    }
    const std::string lvl = std::to_string(level);
    // Compression ratio: raw key+value bytes over file bytes; -1 if empty.
    const double ratio = bytes == 0 ? -1.0 : static_cast<double>(raw) / bytes;
    EXPECT_EQ(std::to_string(ratio), Prop("rocksdb.compression-ratio-at-level" + lvl)) << lvl;
    const std::map<std::string, std::string> m =
        MapProp("rocksdb.aggregated-table-properties-at-level" + lvl);
    EXPECT_EQ(std::to_string(entries), m.at("num_entries")) << lvl;
    EXPECT_EQ(std::to_string(data), m.at("data_size")) << lvl;
    const std::string text = Prop("rocksdb.aggregated-table-properties-at-level" + lvl);
    EXPECT_NE(std::string::npos, text.find("# entries=" + std::to_string(entries) + ";")) << text;
  }
  const std::map<std::string, std::string> m = MapProp("rocksdb.aggregated-table-properties");
  const std::set<std::string> keys = {"data_size",
                                      "index_size",
                                      "index_partitions",
                                      "top_level_index_size",
                                      "filter_size",
                                      "raw_key_size",
                                      "raw_value_size",
                                      "num_data_blocks",
                                      "num_entries",
                                      "num_filter_entries",
                                      "num_deletions",
                                      "num_merge_operands",
                                      "num_range_deletions",
                                      "slow_compression_estimated_data_size",
                                      "fast_compression_estimated_data_size"};
  std::set<std::string> got;
  for (const auto& [k, value] : m) got.insert(k);
  EXPECT_EQ(keys, got);
  EXPECT_EQ(std::to_string(all.num_entries), m.at("num_entries"));
  EXPECT_EQ(std::to_string(all.data_size), m.at("data_size"));
  EXPECT_EQ(std::to_string(all.index_size), m.at("index_size"));
  EXPECT_EQ(std::to_string(all.filter_size), m.at("filter_size"));
  EXPECT_EQ(std::to_string(all.raw_key_size), m.at("raw_key_size"));
  EXPECT_EQ(std::to_string(all.raw_value_size), m.at("raw_value_size"));
  EXPECT_EQ(std::to_string(all.num_data_blocks), m.at("num_data_blocks"));
  EXPECT_EQ(std::to_string(all.num_deletions), m.at("num_deletions"));
  EXPECT_EQ(all.ToString(), Prop("rocksdb.aggregated-table-properties"));
}

TEST_F(DBPropertiesTest, SstablesListsEveryFileAsRocksDBPrintsIt) {
  FillSeveralLevels();
  const std::string s = Prop("rocksdb.sstables");
  for (int level = 0; level < kNumLevels; ++level) {
    EXPECT_NE(std::string::npos, s.find("--- level " + std::to_string(level) + " --- version# "))
        << s;
  }
  uint64_t listed = 0;
  for (const auto& [level, numbers] : FilesByLevel()) {
    listed += numbers.size();
    for (uint64_t n : numbers) {
      const std::string prefix = " " + std::to_string(n) + ":" + std::to_string(FileSize(n)) + "[";
      EXPECT_NE(std::string::npos, s.find(prefix)) << prefix << "\n" << s;
    }
  }
  EXPECT_GT(listed, 0u);
  // 'key00000000' in hex, its sequence and type.
  EXPECT_NE(std::string::npos, s.find("['6B6579")) << s;
  EXPECT_NE(std::string::npos, s.find("' seq:")) << s;
  EXPECT_NE(std::string::npos, s.find(", type:1 .. '")) << s;
}

TEST_F(DBPropertiesTest, PerFamilyStatsNameTheFamily) {
  FillSeveralLevels();
  ColumnFamilyHandle* cf = nullptr;
  ASSERT_OK(db_->CreateColumnFamily(ColumnFamilyOptions(options_), "other", &cf));
  ASSERT_OK(db_->Put(WriteOptions(), cf, "a", "b"));
  ASSERT_OK(db_->Flush(FlushOptions(), cf));
  std::string s;
  ASSERT_TRUE(db_->GetProperty(cf, "rocksdb.cfstats", &s));
  EXPECT_NE(std::string::npos, s.find("** Compaction Stats [other] **")) << s;
  const std::vector<test::StatsRow> rows = test::StatsRows(s, "Level");
  ASSERT_GE(rows.size(), 3u) << s;  // L0, Sum, Int
  EXPECT_EQ("L0", rows[0].label);
  EXPECT_EQ(1, rows[0].files);
  EXPECT_EQ(1u, rows[0].comp_cnt);
  uint64_t n = 0;
  ASSERT_TRUE(db_->GetIntProperty(cf, "rocksdb.num-entries-active-mem-table", &n));
  EXPECT_EQ(0u, n);
  std::map<std::string, std::string> m;
  ASSERT_TRUE(db_->GetMapProperty(cf, "rocksdb.aggregated-table-properties", &m));
  EXPECT_EQ("1", m.at("num_entries"));
  ASSERT_OK(db_->DestroyColumnFamilyHandle(cf));
}

}  // namespace
}  // namespace strata
