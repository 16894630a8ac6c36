// FIFO compaction end to end (db/compaction/compaction_picker_fifo.h):
// size deletion keeps the newest data under max_table_files_size, ttl
// deletion by age on a clock the test moves, allow_compaction merges small
// level-0 files without losing a key, the listener sees each reason,
// CompactRange picks as the automatic path, the file times flushes and
// compactions record, and a randomized model test in which a key reads as
// its latest value or, once FIFO dropped its file, as absent -- never as
// an older value, and absent only if every older write is gone too.
// Interop (skipped without RocksDB's tools): a FIFO DB Strata wrote passes
// /usr/bin/ldb's scan and checkconsistency, and a DB written by
// /usr/bin/db_bench --compaction_style=2 opens and reads the same in Strata.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "db/db_impl.h"
#include "strata/db.h"
#include "strata/listener.h"
#include "strata/metadata.h"
#include "strata/options.h"
#include "test_util/db_test_base.h"
#include "test_util/mock_clock.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

// Records the reasons of completed compactions.
class ReasonListener : public EventListener {
 public:
  void OnCompactionCompleted(DB*, const CompactionJobInfo& info) override {
    std::lock_guard<std::mutex> l(mu_);
    reasons_.push_back(info.compaction_reason);
  }
  int Count(CompactionReason r) {
    std::lock_guard<std::mutex> l(mu_);
    return static_cast<int>(std::count(reasons_.begin(), reasons_.end(), r));
  }
  int Total() {
    std::lock_guard<std::mutex> l(mu_);
    return static_cast<int>(reasons_.size());
  }

 private:
  std::mutex mu_;
  std::vector<CompactionReason> reasons_;
};

class DBFifoCompactionTest : public DBTestBase {
 protected:
  DBFifoCompactionTest()
      : DBTestBase("db_fifo_compaction_test"),
        clock_(std::make_shared<test::WallClockOffset>()),
        env_(test::NewWallClockOffsetEnv(clock_)),
        listener_(std::make_shared<ReasonListener>()) {
    options_ = SmallOptions();
    options_.env = env_.get();
    options_.compaction_style = kCompactionStyleFIFO;
    options_.compaction_options_fifo.max_table_files_size = 1ull << 30;
    options_.ttl = 0;
    options_.periodic_compaction_seconds = 0;
    options_.write_buffer_size = 1 << 20;
    options_.listeners.push_back(listener_);
  }
  ~DBFifoCompactionTest() override { Close(); }

  static std::string Key(int i) {
    char buf[16];
    snprintf(buf, sizeof(buf), "key%06d", i);
    return buf;
  }
  static std::string Value(int i, int round) {
    return "v" + std::to_string(round) + "-" + std::to_string(i) + std::string(100, 'x');
  }
  // Writes keys [begin, end) with `round`'s values and flushes: one
  // level-0 file.
  void WriteFile(int begin, int end, int round = 0) {
    for (int i = begin; i < end; ++i) ASSERT_OK(Put(Key(i), Value(i, round)));
    ASSERT_OK(Flush());
  }
  uint64_t TotalTableBytes() {
    std::vector<LiveFileMetaData> files;
    db_->GetLiveFilesMetaData(&files);
    uint64_t total = 0;
    for (const LiveFileMetaData& f : files) total += f.size;
    return total;
  }

  std::shared_ptr<test::WallClockOffset> clock_;
  std::unique_ptr<Env> env_;
  std::shared_ptr<ReasonListener> listener_;
};

TEST_F(DBFifoCompactionTest, SizeDeletionKeepsNewestUnderLimit) {
  options_.compaction_options_fifo.max_table_files_size = 150 << 10;  // 150 KiB
  DestroyAndReopen();
  // Ten files of about 50 KiB each (400 keys x ~120 bytes).
  for (int f = 0; f < 10; ++f) {
    WriteFile(f * 400, (f + 1) * 400);
    ASSERT_OK(WaitForCompact());
    EXPECT_LE(TotalTableBytes(), options_.compaction_options_fifo.max_table_files_size);
  }
  EXPECT_EQ(FilesPerLevel(), std::to_string(NumTableFilesAtLevel(0)));
  EXPECT_GE(NumTableFilesAtLevel(0), 2);
  // The newest file's keys are all there; the oldest file's are gone.
  for (int i = 3600; i < 4000; ++i) ASSERT_EQ(Get(Key(i)), Value(i, 0)) << i;
  for (int i = 0; i < 400; ++i) ASSERT_EQ(Get(Key(i)), "NOT_FOUND") << i;
  EXPECT_GT(listener_->Count(CompactionReason::kFIFOMaxSize), 0);
  EXPECT_EQ(listener_->Count(CompactionReason::kFIFOTtl), 0);
}

TEST_F(DBFifoCompactionTest, TtlDeletesFilesByAge) {
  options_.ttl = 3600;
  DestroyAndReopen();
  WriteFile(0, 100);
  WriteFile(100, 200);
  clock_->Advance(1800);
  WriteFile(200, 300);
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(NumTableFilesAtLevel(0), 3);
  // The first two are now 3601+ seconds old, the third 1801.
  clock_->Advance(1801);
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(NumTableFilesAtLevel(0), 1);
  for (int i = 0; i < 200; ++i) ASSERT_EQ(Get(Key(i)), "NOT_FOUND") << i;
  for (int i = 200; i < 300; ++i) ASSERT_EQ(Get(Key(i)), Value(i, 0)) << i;
  EXPECT_EQ(listener_->Count(CompactionReason::kFIFOTtl), 1);
  // Nothing more is old enough.
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(NumTableFilesAtLevel(0), 1);
  clock_->Advance(1800);
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(NumTableFilesAtLevel(0), 0);
  EXPECT_EQ(listener_->Count(CompactionReason::kFIFOTtl), 2);
}

TEST_F(DBFifoCompactionTest, TtlWaitsForSizeRuleWhenRestTooBig) {
  // ttl expires the oldest file, but what stays is still over the limit:
  // the size rule deletes instead (kFIFOMaxSize), as RocksDB's picker does.
  options_.ttl = 3600;
  options_.disable_auto_compactions = true;
  options_.compaction_options_fifo.max_table_files_size = 60 << 10;
  DestroyAndReopen();
  WriteFile(0, 400);
  clock_->Advance(4000);
  WriteFile(400, 800);
  WriteFile(800, 1200);
  ASSERT_OK(db_->SetOptions({{"disable_auto_compactions", "false"}}));
  ASSERT_OK(WaitForCompact());
  EXPECT_LE(TotalTableBytes(), options_.compaction_options_fifo.max_table_files_size);
  EXPECT_GT(listener_->Count(CompactionReason::kFIFOMaxSize), 0);
  for (int i = 800; i < 1200; ++i) ASSERT_EQ(Get(Key(i)), Value(i, 0)) << i;
}

TEST_F(DBFifoCompactionTest, AllowCompactionMergesSmallFiles) {
  options_.compaction_options_fifo.allow_compaction = true;
  options_.level0_file_num_compaction_trigger = 4;
  options_.level0_slowdown_writes_trigger = 100;
  options_.level0_stop_writes_trigger = 200;
  DestroyAndReopen();
  // Sixteen small files with overlapping keys (overwrites).
  for (int f = 0; f < 16; ++f) {
    WriteFile(f * 20, f * 20 + 40, f);
  }
  ASSERT_OK(WaitForCompact());
  EXPECT_GT(listener_->Count(CompactionReason::kFIFOReduceNumFiles), 0);
  EXPECT_LT(NumTableFilesAtLevel(0), 16);
  EXPECT_EQ(FilesPerLevel(), std::to_string(NumTableFilesAtLevel(0)));
  // Every key reads its latest value (file f wrote keys [20f, 20f+40)).
  for (int i = 0; i < 16 * 20 + 20; ++i) {
    const int last_file = std::min(15, i / 20);
    ASSERT_EQ(Get(Key(i)), Value(i, last_file)) << i;
  }
  EXPECT_EQ(CheckNewerAboveOlder(), "");
  Reopen();
  for (int i = 0; i < 16 * 20 + 20; ++i) {
    ASSERT_EQ(Get(Key(i)), Value(i, std::min(15, i / 20))) << i;
  }
}

TEST_F(DBFifoCompactionTest, NoMergeWithoutAllowCompaction) {
  options_.level0_file_num_compaction_trigger = 2;
  options_.level0_slowdown_writes_trigger = 100;
  options_.level0_stop_writes_trigger = 200;
  DestroyAndReopen();
  for (int f = 0; f < 8; ++f) WriteFile(f * 10, f * 10 + 10);
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(NumTableFilesAtLevel(0), 8);
  EXPECT_EQ(listener_->Total(), 0);
}

TEST_F(DBFifoCompactionTest, CompactRangeDoesTheAutomaticPick) {
  options_.disable_auto_compactions = true;
  options_.compaction_options_fifo.max_table_files_size = 120 << 10;
  DestroyAndReopen();
  for (int f = 0; f < 6; ++f) WriteFile(f * 400, (f + 1) * 400);
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(NumTableFilesAtLevel(0), 6);
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  EXPECT_LE(TotalTableBytes(), options_.compaction_options_fifo.max_table_files_size);
  EXPECT_EQ(listener_->Count(CompactionReason::kFIFOMaxSize), 1);
  for (int i = 2000; i < 2400; ++i) ASSERT_EQ(Get(Key(i)), Value(i, 0)) << i;
  for (int i = 0; i < 400; ++i) ASSERT_EQ(Get(Key(i)), "NOT_FOUND") << i;
  // Under the limit: CompactRange has nothing to do.
  const int before = NumTableFilesAtLevel(0);
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  EXPECT_EQ(NumTableFilesAtLevel(0), before);
}

TEST_F(DBFifoCompactionTest, FileTimesOfFlushAndCompaction) {
  options_.compaction_options_fifo.allow_compaction = true;
  options_.level0_file_num_compaction_trigger = 3;
  options_.disable_auto_compactions = true;
  DestroyAndReopen();
  const uint64_t t0 = static_cast<uint64_t>(clock_->Now());
  ASSERT_OK(Put(Key(0), "a"));  // the memtable's first write
  clock_->Advance(100);
  ASSERT_OK(Put(Key(1), "b"));
  ASSERT_OK(Flush());
  std::vector<LiveFileMetaData> files;
  db_->GetLiveFilesMetaData(&files);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_GE(files[0].oldest_ancester_time, t0);
  EXPECT_LT(files[0].oldest_ancester_time, t0 + 50);
  EXPECT_GE(files[0].file_creation_time, t0 + 100);
  // The table properties: FIFO's flush writes the file time as
  // creation_time (RocksDB), and the memtable's first write as
  // oldest_key_time.
  TablePropertiesCollection props;
  ASSERT_OK(db_->GetPropertiesOfAllTables(&props));
  ASSERT_EQ(props.size(), 1u);
  const TableProperties& p = *props.begin()->second;
  EXPECT_EQ(p.creation_time, files[0].file_creation_time);
  EXPECT_EQ(p.oldest_key_time, files[0].oldest_ancester_time);
  EXPECT_EQ(p.file_creation_time, files[0].file_creation_time);

  clock_->Advance(100);
  WriteFile(10, 20);
  clock_->Advance(100);
  WriteFile(20, 30);
  ASSERT_OK(db_->SetOptions({{"disable_auto_compactions", "false"}}));
  ASSERT_OK(WaitForCompact());
  ASSERT_EQ(listener_->Count(CompactionReason::kFIFOReduceNumFiles), 1);
  db_->GetLiveFilesMetaData(&files);
  ASSERT_EQ(files.size(), 1u);
  // The merged file's data is as old as the oldest input.
  EXPECT_GE(files[0].oldest_ancester_time, t0);
  EXPECT_LT(files[0].oldest_ancester_time, t0 + 50);
  EXPECT_GE(files[0].file_creation_time, t0 + 300);
  ASSERT_OK(db_->GetPropertiesOfAllTables(&props));
  std::shared_ptr<const TableProperties> merged;
  for (const auto& [path, p] : props) {
    if (path.size() >= files[0].relative_filename.size() &&
        path.compare(path.size() - files[0].relative_filename.size(), std::string::npos,
                     files[0].relative_filename) == 0) {
      merged = p;
    }
  }
  ASSERT_NE(merged, nullptr);
  EXPECT_EQ(merged->creation_time, files[0].oldest_ancester_time);
  EXPECT_EQ(merged->oldest_key_time, 0u);
  EXPECT_EQ(merged->file_creation_time, files[0].file_creation_time);
}

TEST_F(DBFifoCompactionTest, AgeForWarmRefused) {
  options_.compaction_options_fifo.age_for_warm = 10;
  Close();
  Status s = TryReopen(options_);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(s.ToString().find("age_for_warm"), std::string::npos) << s.ToString();
}

// Randomized: puts, deletes and flushes under FIFO with a small size
// limit, ttl and allow_compaction drawn per run, the clock moving. FIFO
// drops whole files, oldest first, so a key's read is its latest write
// (value or deletion), or absent once its file went -- and then every key
// whose latest write is older went too. Writes still in the memtable are
// always there.
TEST_F(DBFifoCompactionTest, RandomizedAgainstModel) {
  const uint32_t seed = static_cast<uint32_t>(test::RandomSeed());
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937 rnd(seed);
  for (int run = 0; run < 3; ++run) {
    options_.compaction_options_fifo.max_table_files_size = (40 + rnd() % 80) << 10;
    options_.compaction_options_fifo.allow_compaction = rnd() % 2 == 0;
    options_.ttl = rnd() % 2 == 0 ? 0 : 1000;
    options_.level0_file_num_compaction_trigger = 2 + static_cast<int>(rnd() % 3);
    options_.level0_slowdown_writes_trigger = 1000;
    options_.level0_stop_writes_trigger = 2000;
    DestroyAndReopen();
    struct Entry {
      std::string value;  // empty: deleted
      int epoch;          // the memtable (flush count) it went to
    };
    std::map<std::string, Entry> model;
    int epoch = 0;
    for (int step = 0; step < 3000; ++step) {
      const std::string key = Key(static_cast<int>(rnd() % 500));
      const uint32_t op = rnd() % 100;
      if (op < 80) {
        const std::string value = "s" + std::to_string(step) + std::string(rnd() % 200, 'y');
        ASSERT_OK(Put(key, value));
        model[key] = Entry{value, epoch};
      } else if (op < 95) {
        ASSERT_OK(Delete(key));
        model[key] = Entry{"", epoch};
      } else {
        ASSERT_OK(Flush());
        epoch++;
        if (rnd() % 4 == 0) clock_->Advance(static_cast<int64_t>(rnd() % 600));
        if (rnd() % 3 == 0) ASSERT_OK(WaitForCompact());
      }
      if (step % 500 != 499) continue;
      ASSERT_OK(WaitForCompact());
      // Newest epoch of a key found missing; every older latest write must
      // be missing too.
      int newest_missing = -1;
      for (const auto& [k, e] : model) {
        const std::string got = Get(k);
        if (e.value.empty()) {
          ASSERT_EQ(got, "NOT_FOUND") << k;
          continue;
        }
        if (got == "NOT_FOUND") {
          ASSERT_LT(e.epoch, epoch) << k << ": a memtable write is lost";
          newest_missing = std::max(newest_missing, e.epoch);
        } else {
          ASSERT_EQ(got, e.value) << k << ": stale value";
        }
      }
      for (const auto& [k, e] : model) {
        if (!e.value.empty() && e.epoch < newest_missing) {
          ASSERT_EQ(Get(k), "NOT_FOUND")
              << k << " (epoch " << e.epoch << ") survived a newer dropped write";
        }
      }
      EXPECT_EQ(FilesPerLevel(), NumTableFilesAtLevel(0) > 0
                                     ? std::to_string(NumTableFilesAtLevel(0))
                                     : std::string());
    }
    if (run == 1) Reopen();
  }
}

// ---- interop with RocksDB's tools ----

constexpr const char* kLdb = "/usr/bin/ldb";
constexpr const char* kDbBench = "/usr/bin/db_bench";

using test::RunCommand;

// `ldb --hex scan` output as a map.
std::map<std::string, std::string> LdbScan(const std::string& path, int* rc) {
  const std::string out = RunCommand(std::string(kLdb) + " --db=" + path + " --hex scan", rc);
  auto unhex = [](const std::string& h) {
    std::string r;
    for (size_t i = 2; i + 1 < h.size(); i += 2) {
      r += static_cast<char>(std::stoi(h.substr(i, 2), nullptr, 16));
    }
    return r;
  };
  std::map<std::string, std::string> m;
  size_t pos = 0;
  while (pos < out.size()) {
    size_t eol = out.find('\n', pos);
    if (eol == std::string::npos) eol = out.size();
    const std::string line = out.substr(pos, eol - pos);
    pos = eol + 1;
    const size_t sep = line.find(" : ");
    if (sep == std::string::npos || line.compare(0, 2, "0x") != 0) continue;
    m[unhex(line.substr(0, sep))] = unhex(line.substr(sep + 3));
  }
  return m;
}

std::map<std::string, std::string> ScanAll(DB* db) {
  std::map<std::string, std::string> m;
  std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) m[it->key().ToString()] = it->value().ToString();
  EXPECT_OK(it->status());
  return m;
}

TEST_F(DBFifoCompactionTest, RocksDBLdbReadsStrataFifoDb) {
  if (access(kLdb, X_OK) != 0) GTEST_SKIP() << kLdb << " not installed";
  options_.compaction_options_fifo.max_table_files_size = 200 << 10;
  options_.compaction_options_fifo.allow_compaction = true;
  options_.level0_file_num_compaction_trigger = 3;
  DestroyAndReopen();
  for (int f = 0; f < 12; ++f) WriteFile(f * 150, f * 150 + 300, f);
  ASSERT_OK(WaitForCompact());
  EXPECT_GT(listener_->Count(CompactionReason::kFIFOMaxSize) +
                listener_->Count(CompactionReason::kFIFOReduceNumFiles),
            0);
  const std::map<std::string, std::string> strata = ScanAll(db_.get());
  ASSERT_FALSE(strata.empty());
  Close();
  int rc = 0;
  const std::map<std::string, std::string> rocks = LdbScan(dbname_, &rc);
  ASSERT_EQ(rc, 0);
  EXPECT_EQ(rocks.size(), strata.size());
  EXPECT_TRUE(rocks == strata) << "ldb scan differs from Strata's";
  const std::string check =
      RunCommand(std::string(kLdb) + " --db=" + dbname_ + " checkconsistency", &rc);
  EXPECT_EQ(rc, 0) << check;
  EXPECT_NE(check.find("OK"), std::string::npos) << check;
}

TEST_F(DBFifoCompactionTest, StrataOpensDbBenchFifoDb) {
  if (access(kDbBench, X_OK) != 0 || access(kLdb, X_OK) != 0) {
    GTEST_SKIP() << kDbBench << " / " << kLdb << " not installed";
  }
  Close();
  const std::string path = tmp_.path() + "/db_bench_fifo";
  int rc = 0;
  const std::string out = RunCommand(std::string(kDbBench) +
                                         " --benchmarks=fillrandom --num=20000 --value_size=100"
                                         " --compaction_style=2 --compression_type=none"
                                         " --write_buffer_size=65536"
                                         " --fifo_compaction_max_table_files_size_mb=1 --db=" +
                                         path,
                                     &rc);
  ASSERT_EQ(rc, 0) << out;
  const std::map<std::string, std::string> rocks = LdbScan(path, &rc);
  ASSERT_EQ(rc, 0);
  ASSERT_GT(rocks.size(), 1000u);
  Options o = options_;
  o.create_if_missing = false;
  o.compaction_options_fifo.max_table_files_size = 1 << 20;
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(o, path, &db));
  EXPECT_TRUE(ScanAll(db.get()) == rocks) << "Strata reads differently from ldb";
  // Strata keeps going under FIFO: more writes stay within the limit.
  for (int i = 0; i < 3000; ++i) {
    ASSERT_OK(db->Put(WriteOptions(), Key(i), Value(i, 1)));
  }
  ASSERT_OK(db->Flush(FlushOptions()));
  ASSERT_OK(static_cast<DBImpl*>(db.get())->WaitForCompact());
  std::vector<LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  uint64_t total = 0;
  for (const LiveFileMetaData& f : files) {
    total += f.size;
    EXPECT_EQ(f.level, 0);
  }
  EXPECT_LE(total, uint64_t{1} << 20);
  std::string v;
  ASSERT_OK(db->Get(ReadOptions(), Key(2999), &v));
  EXPECT_EQ(v, Value(2999, 1));
  ASSERT_OK(db->Close());
  db.reset();
  const std::string check =
      RunCommand(std::string(kLdb) + " --db=" + path + " checkconsistency", &rc);
  EXPECT_EQ(rc, 0) << check;
}

}  // namespace
}  // namespace strata
