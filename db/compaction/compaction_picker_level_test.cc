// Leveled compaction's choices, checked on trees built file by file
// (CompactFiles places each table at a chosen level while automatic
// compactions are off): the file each compaction_pri tries first and the
// one the first automatic compaction takes; level targets with
// max_bytes_for_level_multiplier_additional; the migration to
// level_compaction_dynamic_level_bytes at open; files a collector marks
// (NeedCompact); CompactFiles corner cases; and a randomized model test
// under each compaction_pri.

#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "db/compaction/compaction.h"
#include "db/db_impl.h"
#include "strata/db.h"
#include "strata/iterator.h"
#include "strata/listener.h"
#include "strata/metadata.h"
#include "strata/options.h"
#include "strata/table_properties.h"
#include "test_util/db_test_base.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

constexpr const char* kLdb = "/usr/bin/ldb";  // RocksDB 7.8.3's

using test::RunCommand;

// Records every compaction's start (after `armed` is set).
class BeginRecorder : public EventListener {
 public:
  void OnCompactionBegin(DB*, const CompactionJobInfo& info) override {
    std::lock_guard<std::mutex> l(mu_);
    if (armed_) infos_.push_back(info);
  }
  void Arm() {
    std::lock_guard<std::mutex> l(mu_);
    armed_ = true;
  }
  std::vector<CompactionJobInfo> infos() {
    std::lock_guard<std::mutex> l(mu_);
    return infos_;
  }

 private:
  std::mutex mu_;
  bool armed_ = false;
  std::vector<CompactionJobInfo> infos_;
};

// NeedCompact for a table holding at least `threshold` point deletions.
class DeletionMarker : public TablePropertiesCollector {
 public:
  explicit DeletionMarker(uint64_t threshold) : threshold_(threshold) {}
  Status AddUserKey(const Slice&, const Slice&, EntryType type, uint64_t, uint64_t) override {
    if (type == kEntryDelete) ++deletions_;
    return Status::OK();
  }
  Status Finish(UserCollectedProperties*) override { return Status::OK(); }
  UserCollectedProperties GetReadableProperties() const override { return {}; }
  const char* Name() const override { return "DeletionMarker"; }
  bool NeedCompact() const override { return deletions_ >= threshold_; }

 private:
  const uint64_t threshold_;
  uint64_t deletions_ = 0;
};

class DeletionMarkerFactory : public TablePropertiesCollectorFactory {
 public:
  explicit DeletionMarkerFactory(uint64_t threshold) : threshold_(threshold) {}
  TablePropertiesCollector* CreateTablePropertiesCollector(Context) override {
    return new DeletionMarker(threshold_);
  }
  const char* Name() const override { return "DeletionMarkerFactory"; }

 private:
  const uint64_t threshold_;
};

class LeveledTest : public DBTestBase {
 protected:
  LeveledTest() : DBTestBase("compaction_picker_level_test") {}

  static std::string Key(const char* prefix, int i) {
    char buf[32];
    snprintf(buf, sizeof(buf), "%s%03d", prefix, i);
    return buf;
  }

  std::vector<LiveFileMetaData> Live() {
    std::vector<LiveFileMetaData> files;
    db_->GetLiveFilesMetaData(&files);
    return files;
  }
  // The live table holding user key `key` at `level` (its number), or 0.
  uint64_t FileAt(int level, const std::string& key) {
    for (const LiveFileMetaData& f : Live()) {
      if (f.level == level && f.smallestkey <= key && key <= f.largestkey) return f.file_number;
    }
    return 0;
  }
  std::string PathOf(uint64_t number) {
    char buf[32];
    snprintf(buf, sizeof(buf), "/%06" PRIu64 ".sst", number);
    return dbname_ + buf;
  }
  // Flushes the memtable and moves the new level-0 tables to `level`.
  void FlushTo(int level) {
    ASSERT_OK(Flush());
    std::vector<std::string> l0;
    for (const LiveFileMetaData& f : Live()) {
      if (f.level == 0) l0.push_back(PathOf(f.file_number));
    }
    ASSERT_FALSE(l0.empty());
    if (level > 0) ASSERT_OK(db_->CompactFiles(CompactionOptions(), l0, level));
  }
  std::map<std::string, std::string> Scan() {
    std::map<std::string, std::string> r;
    std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
    for (it->SeekToFirst(); it->Valid(); it->Next())
      r[it->key().ToString()] = it->value().ToString();
    EXPECT_OK(it->status());
    return r;
  }

  // Four level-1 files over level-2 files, each file first under one
  // compaction_pri (see CompactionPriTest):
  //   X: x000-x099, its oldest entries the oldest of L1, its newest the
  //      newest of L1 (two writes merged);   over Bx (large)
  //   Y: y000-y049, written once in between;  over By (tiny)
  //   P: p000-p099 with 300-byte values, the largest file;  over Bp (tiny)
  //   W: deletions of w000-w199 (small, but compensated as large);  over Bw (large)
  void BuildPriTree(std::map<std::string, std::string>* model) {
    auto put = [&](const std::string& k, const std::string& v) {
      ASSERT_OK(Put(k, v));
      (*model)[k] = v;
    };
    auto del = [&](const std::string& k) {
      ASSERT_OK(Delete(k));
      model->erase(k);
    };
    // Level 2.
    for (int i = 0; i < 200; ++i) put(Key("x", i), std::string(500, 'b'));
    FlushTo(2);
    put(Key("y", 0), "b");
    put(Key("y", 999), "b");
    FlushTo(2);
    put(Key("p", 0), "b");
    put(Key("p", 999), "b");
    FlushTo(2);
    for (int i = 0; i < 200; ++i) put(Key("w", i), std::string(500, 'b'));
    FlushTo(2);
    // Level 1.
    for (int i = 0; i < 60; ++i) put(Key("x", i), std::string(100, 'x'));
    FlushTo(1);
    for (int i = 0; i < 50; ++i) put(Key("y", i), std::string(100, 'y'));
    FlushTo(1);
    for (int i = 0; i < 100; ++i) put(Key("p", i), std::string(300, 'p'));
    FlushTo(1);
    for (int i = 0; i < 200; ++i) del(Key("w", i));
    FlushTo(1);
    for (int i = 40; i < 100; ++i) put(Key("x", i), std::string(100, 'X'));
    FlushTo(1);  // merges with the first X
    ASSERT_EQ(FilesPerLevel(), "0,4,4");
  }
};

// ---------------------------------------------------------------------------
// compaction_pri

struct PriCase {
  CompactionPri pri;
  const char* first_key;  // a key of the file RocksDB's rule picks
};

class CompactionPriTest : public LeveledTest, public ::testing::WithParamInterface<PriCase> {};

TEST_P(CompactionPriTest, PicksRocksDBsFile) {
  const PriCase& pc = GetParam();
  auto recorder = std::make_shared<BeginRecorder>();
  Options o = SmallOptions();
  o.num_levels = 3;
  o.disable_auto_compactions = true;
  o.compaction_pri = pc.pri;
  o.level_compaction_dynamic_level_bytes = false;
  o.write_buffer_size = 4 << 20;  // one table per file of the tree
  o.target_file_size_base = 4 << 20;
  o.max_bytes_for_level_base = 1;  // level 1 is always over its target
  o.listeners.push_back(recorder);
  DestroyAndReopen(o);
  std::map<std::string, std::string> model;
  BuildPriTree(&model);
  if (HasFatalFailure()) return;
  const uint64_t want = FileAt(1, pc.first_key);
  ASSERT_NE(want, 0u);

  // The order the picker tries, first file.
  uint64_t first = 0;
  dbfull()->TEST_WithCurrentVersion([&](Version* v, CompactionPicker* picker) {
    auto* level = dynamic_cast<LevelCompactionPicker*>(picker);
    ASSERT_NE(level, nullptr);
    const std::vector<FileMetaData*> order = level->FilesByCompactionPri(v, 1);
    ASSERT_EQ(order.size(), 4u);
    first = order[0]->number;
  });
  EXPECT_EQ(first, want);

  // The first automatic compaction takes it.
  recorder->Arm();
  ASSERT_OK(db_->SetOptions({{"disable_auto_compactions", "false"}}));
  ASSERT_OK(WaitForCompact());
  const std::vector<CompactionJobInfo> infos = recorder->infos();
  ASSERT_FALSE(infos.empty());
  EXPECT_EQ(infos[0].base_input_level, 1);
  EXPECT_EQ(infos[0].compaction_reason, CompactionReason::kLevelMaxLevelSize);
  ASSERT_FALSE(infos[0].input_files.empty());
  EXPECT_EQ(infos[0].input_files[0], PathOf(want));
  EXPECT_EQ(NumTableFilesAtLevel(1), 0) << "level 1 drains (target 1 byte)";
  EXPECT_EQ(Scan(), model);
  for (const auto& [k, v] : model) ASSERT_EQ(Get(k), v) << k;
  EXPECT_EQ(CheckNewerAboveOlder(), "");
}

INSTANTIATE_TEST_SUITE_P(Pri, CompactionPriTest,
                         ::testing::Values(PriCase{kByCompensatedSize, "w000"},
                                           PriCase{kOldestLargestSeqFirst, "y000"},
                                           PriCase{kOldestSmallestSeqFirst, "x000"},
                                           PriCase{kMinOverlappingRatio, "p000"}),
                         [](const ::testing::TestParamInfo<PriCase>& info) {
                           switch (info.param.pri) {
                             case kByCompensatedSize:
                               return std::string("ByCompensatedSize");
                             case kOldestLargestSeqFirst:
                               return std::string("OldestLargestSeqFirst");
                             case kOldestSmallestSeqFirst:
                               return std::string("OldestSmallestSeqFirst");
                             default:
                               return std::string("MinOverlappingRatio");
                           }
                         });

TEST_F(LeveledTest, RoundRobinRefusedByName) {
  Options o = SmallOptions();
  o.compaction_pri = kRoundRobin;
  options_ = o;
  Status s = TryOpen();
  ASSERT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(s.ToString().find("compaction_pri"), std::string::npos) << s.ToString();
}

// ---------------------------------------------------------------------------
// Level targets

TEST_F(LeveledTest, MultiplierAdditionalInStaticTargets) {
  Options o = SmallOptions();
  o.num_levels = 6;
  o.level_compaction_dynamic_level_bytes = false;
  o.max_bytes_for_level_base = 1000;
  o.max_bytes_for_level_multiplier = 10;
  // RocksDB: L(n) = L(n-1) * multiplier * additional[n-1]; index 0 (L1)
  // is unused, and levels past the vector use 1.
  o.max_bytes_for_level_multiplier_additional = {7, 2, 3};
  DestroyAndReopen(o);
  std::vector<uint64_t> targets;
  dbfull()->TEST_WithCurrentVersion([&](Version* v, CompactionPicker*) {
    for (int l = 1; l < v->num_levels(); ++l) targets.push_back(v->MaxBytesForLevel(l));
  });
  EXPECT_EQ(targets, (std::vector<uint64_t>{1000, 20000, 600000, 6000000, 60000000}));

  // A fractional multiplier truncates at each level (RocksDB multiplies
  // level by level in integers).
  o.max_bytes_for_level_multiplier = 1.5;
  o.max_bytes_for_level_multiplier_additional = {1, 1, 3};
  o.max_bytes_for_level_base = 101;
  Reopen(o);
  targets.clear();
  dbfull()->TEST_WithCurrentVersion([&](Version* v, CompactionPicker*) {
    for (int l = 1; l < v->num_levels(); ++l) targets.push_back(v->MaxBytesForLevel(l));
  });
  // 101; 151.5 -> 151; 151 * 1.5 = 226.5 -> 226, * 3 = 678; 1017; 1525.5 -> 1525.
  EXPECT_EQ(targets[0], 101u);
  EXPECT_EQ(targets[1], 151u);
  EXPECT_EQ(targets[2], 678u);
  EXPECT_EQ(targets[3], 1017u);
  EXPECT_EQ(targets[4], 1525u);

  // With dynamic level bytes the vector is ignored (as in RocksDB).
  o.level_compaction_dynamic_level_bytes = true;
  o.max_bytes_for_level_multiplier = 10;
  o.max_bytes_for_level_base = 1000;
  o.max_bytes_for_level_multiplier_additional = {100, 100, 100, 100, 100};
  Reopen(o);
  targets.clear();
  dbfull()->TEST_WithCurrentVersion([&](Version* v, CompactionPicker*) {
    targets.push_back(v->MaxBytesForLevel(v->num_levels() - 1));
  });
  EXPECT_EQ(targets[0], 1000u);  // empty DB: the last level gets the base
}

TEST_F(LeveledTest, MultiplierAdditionalDrivesCompactions) {
  // The same tree under two vectors: L2's target is 100 * 10 * 50 bytes
  // with {1, 50} (the L2 file stays) and 100 * 10 with {1, 1} (it moves on).
  Options o = SmallOptions();
  o.num_levels = 4;
  o.disable_auto_compactions = true;
  o.level_compaction_dynamic_level_bytes = false;
  o.max_bytes_for_level_base = 100;
  o.max_bytes_for_level_multiplier = 10;
  o.max_bytes_for_level_multiplier_additional = {1, 50};
  DestroyAndReopen(o);
  std::map<std::string, std::string> model;
  for (int i = 0; i < 100; ++i) {
    ASSERT_OK(Put(Key("k", i), std::string(200, 'v')));
    model[Key("k", i)] = std::string(200, 'v');
  }
  FlushTo(3);
  for (int i = 0; i < 100; i += 2) {
    ASSERT_OK(Put(Key("k", i), "new"));
    model[Key("k", i)] = "new";
  }
  FlushTo(2);
  ASSERT_OK(db_->SetOptions({{"disable_auto_compactions", "false"}}));
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(FilesPerLevel(), "0,0,1,1");
  Close();
  o.disable_auto_compactions = false;
  o.max_bytes_for_level_multiplier_additional = {1, 1};
  Reopen(o);
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(FilesPerLevel(), "0,0,0,1");
  EXPECT_EQ(Scan(), model);
}

// ---------------------------------------------------------------------------
// Migration to level_compaction_dynamic_level_bytes

TEST_F(LeveledTest, DynamicLevelBytesMigratesLevelsDownAtOpen) {
  Options o = SmallOptions();
  o.num_levels = 6;
  o.disable_auto_compactions = true;
  o.level_compaction_dynamic_level_bytes = false;  // written without it
  DestroyAndReopen(o);
  std::map<std::string, std::string> model;
  auto put_range = [&](int from, int to, const std::string& v) {
    for (int i = from; i < to; ++i) {
      ASSERT_OK(Put(Key("k", i), v));
      model[Key("k", i)] = v;
    }
  };
  put_range(0, 300, "l3");
  FlushTo(3);
  put_range(100, 200, "l2");
  ASSERT_OK(DeleteRange(Key("k", 250), Key("k", 260)));
  for (int i = 250; i < 260; ++i) model.erase(Key("k", i));
  FlushTo(2);
  put_range(150, 160, "l1");
  FlushTo(1);
  put_range(155, 156, "l0");
  ASSERT_OK(Flush());
  ASSERT_EQ(FilesPerLevel(), "1,1,1,1");
  Close();

  // Reopened with the option (automatic compactions still off): nothing moves.
  o.level_compaction_dynamic_level_bytes = true;
  Reopen(o);
  EXPECT_EQ(FilesPerLevel(), "1,1,1,1");
  Close();

  // With automatic compactions: L3 -> L5, L2 -> L4, L1 -> L3 in one edit.
  o.disable_auto_compactions = false;
  o.level0_file_num_compaction_trigger = 4;  // keep the level-0 file
  Reopen(o);
  EXPECT_EQ(FilesPerLevel(), "1,0,0,1,1,1");
  EXPECT_EQ(Scan(), model);
  for (const auto& [k, v] : model) ASSERT_EQ(Get(k), v) << k;
  EXPECT_EQ(Get(Key("k", 255)), "NOT_FOUND");
  EXPECT_EQ(CheckNewerAboveOlder(), "");
  EXPECT_EQ(IntProperty("rocksdb.base-level"), 3u);

  // The moves are in the MANIFEST: the next open finds the same tree and
  // moves nothing.
  Reopen(o);
  EXPECT_EQ(FilesPerLevel(), "1,0,0,1,1,1");
  EXPECT_EQ(Scan(), model);

  // RocksDB reads the migrated DB: its MANIFEST lists the files at L3-L5.
  if (access(kLdb, X_OK) == 0) {
    Close();
    int rc = 0;
    const std::string check =
        RunCommand(std::string(kLdb) + " --db=" + dbname_ + " checkconsistency", &rc);
    EXPECT_EQ(rc, 0) << check;
    const std::string scan = RunCommand(std::string(kLdb) + " --db=" + dbname_ + " scan", &rc);
    EXPECT_EQ(rc, 0) << scan;
    EXPECT_EQ(static_cast<size_t>(std::count(scan.begin(), scan.end(), '\n')), model.size());
    EXPECT_NE(scan.find(Key("k", 155) + " : l0\n"), std::string::npos) << scan;
    const std::string dump =
        RunCommand(std::string(kLdb) + " --db=" + dbname_ + " manifest_dump", &rc);
    EXPECT_EQ(rc, 0) << dump;
    const size_t at = dump.rfind("--- level 5 ---");
    ASSERT_NE(at, std::string::npos) << dump;
    Reopen(o);
  }

  // Level 0 now goes to the base level, above the migrated data.
  put_range(0, 10, "new");
  ASSERT_OK(Flush());
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  EXPECT_EQ(Scan(), model);
  EXPECT_EQ(NumTableFilesAtLevel(0), 0);
}

TEST_F(LeveledTest, DynamicLevelBytesMigrationKeepsLastLevelForIngestBehind) {
  Options o = SmallOptions();
  o.num_levels = 5;
  o.disable_auto_compactions = true;
  o.allow_ingest_behind = true;
  o.level_compaction_dynamic_level_bytes = false;
  DestroyAndReopen(o);
  std::map<std::string, std::string> model;
  for (int i = 0; i < 50; ++i) {
    ASSERT_OK(Put(Key("k", i), "a"));
    model[Key("k", i)] = "a";
  }
  FlushTo(1);
  Close();
  o.level_compaction_dynamic_level_bytes = true;
  o.disable_auto_compactions = false;
  Reopen(o);
  EXPECT_EQ(FilesPerLevel(), "0,0,0,1") << "the last level stays reserved";
  EXPECT_EQ(Scan(), model);
}

// ---------------------------------------------------------------------------
// Files marked for compaction

TEST_F(LeveledTest, MarkedFilesCompactWhenNothingElseIsDue) {
  auto recorder = std::make_shared<BeginRecorder>();
  Options o = SmallOptions();
  o.num_levels = 4;
  o.disable_auto_compactions = true;
  o.level0_file_num_compaction_trigger = 10;
  o.level_compaction_dynamic_level_bytes = false;
  o.max_bytes_for_level_base = 64 << 20;  // no level is over its target
  o.table_properties_collector_factories = {std::make_shared<DeletionMarkerFactory>(20)};
  o.listeners.push_back(recorder);
  DestroyAndReopen(o);
  std::map<std::string, std::string> model;
  for (int i = 0; i < 200; ++i) {
    ASSERT_OK(Put(Key("k", i), "base"));
    model[Key("k", i)] = "base";
  }
  FlushTo(3);
  for (int i = 0; i < 50; ++i) {
    ASSERT_OK(Delete(Key("k", i)));
    model.erase(Key("k", i));
  }
  FlushTo(1);  // 50 deletions: marked
  for (int i = 100; i < 130; ++i) {
    ASSERT_OK(Delete(Key("k", i)));
    model.erase(Key("k", i));
  }
  ASSERT_OK(Flush());  // level 0, marked
  ASSERT_EQ(FilesPerLevel(), "1,1,0,1");

  recorder->Arm();
  ASSERT_OK(db_->SetOptions({{"disable_auto_compactions", "false"}}));
  ASSERT_OK(WaitForCompact());
  const std::vector<CompactionJobInfo> infos = recorder->infos();
  ASSERT_FALSE(infos.empty());
  for (const CompactionJobInfo& info : infos) {
    EXPECT_EQ(info.compaction_reason, CompactionReason::kFilesMarkedForCompaction);
  }
  // Marked files move down until they reach the last non-empty level,
  // where the deletions meet the data: the tree is one file.
  EXPECT_EQ(FilesPerLevel(), "0,0,0,1");
  EXPECT_EQ(Scan(), model);
  for (int i = 0; i < 200; ++i) {
    const auto it = model.find(Key("k", i));
    EXPECT_EQ(Get(Key("k", i)), it == model.end() ? "NOT_FOUND" : it->second);
  }
  EXPECT_EQ(CheckNewerAboveOlder(), "");
}

TEST_F(LeveledTest, MarkedFileInLastLevelIsLeftAlone) {
  auto recorder = std::make_shared<BeginRecorder>();
  Options o = SmallOptions();
  o.num_levels = 4;
  o.disable_auto_compactions = true;
  o.table_properties_collector_factories = {std::make_shared<DeletionMarkerFactory>(5)};
  o.listeners.push_back(recorder);
  DestroyAndReopen(o);
  for (int i = 0; i < 20; ++i) ASSERT_OK(Put(Key("k", i), "v"));
  for (int i = 20; i < 40; ++i) ASSERT_OK(Delete(Key("k", i)));
  FlushTo(2);  // marked, but the last non-empty level
  recorder->Arm();
  ASSERT_OK(db_->SetOptions({{"disable_auto_compactions", "false"}}));
  ASSERT_OK(WaitForCompact());
  EXPECT_TRUE(recorder->infos().empty());
  EXPECT_EQ(FilesPerLevel(), "0,0,1");
}

// ---------------------------------------------------------------------------
// CompactFiles corner cases

TEST_F(LeveledTest, CompactFilesSplitsByOutputFileSizeLimit) {
  Options o = SmallOptions();
  o.num_levels = 4;
  o.write_buffer_size = 4 << 20;
  o.target_file_size_base = 4 << 20;
  o.disable_auto_compactions = true;
  DestroyAndReopen(o);
  std::map<std::string, std::string> model;
  std::mt19937_64 rng(7);
  for (int i = 0; i < 400; ++i) {
    // Incompressible values: CompactionOptions compresses (Snappy).
    const std::string v = test::RandomPrintable(&rng, 200);
    ASSERT_OK(Put(Key("k", i), v));
    model[Key("k", i)] = v;
  }
  FlushTo(2);
  for (int i = 0; i < 400; i += 3) {
    ASSERT_OK(Put(Key("k", i), "z"));
    model[Key("k", i)] = "z";
  }
  ASSERT_OK(Flush());
  std::vector<std::string> inputs;
  for (const LiveFileMetaData& f : Live()) inputs.push_back(PathOf(f.file_number));
  ASSERT_EQ(inputs.size(), 2u);
  CompactionOptions co;
  co.output_file_size_limit = 16 << 10;
  std::vector<std::string> outputs;
  ASSERT_OK(db_->CompactFiles(co, inputs, 3, -1, &outputs));
  EXPECT_GE(outputs.size(), 4u);
  const std::vector<LiveFileMetaData> live = Live();
  EXPECT_EQ(live.size(), outputs.size());
  for (const LiveFileMetaData& f : live) {
    EXPECT_EQ(f.level, 3);
    // A file is cut after the block that reaches the limit.
    EXPECT_LT(f.size, co.output_file_size_limit + 8192) << f.name;
  }
  EXPECT_EQ(Scan(), model);
}

TEST_F(LeveledTest, CompactFilesRangeDeletionsAcrossMergedLevels) {
  Options o = SmallOptions();
  o.num_levels = 5;
  o.disable_auto_compactions = true;
  DestroyAndReopen(o);
  std::map<std::string, std::string> model;
  for (int i = 0; i < 300; ++i) {
    ASSERT_OK(Put(Key("k", i), "l4"));
    model[Key("k", i)] = "l4";
  }
  FlushTo(4);
  // Level 2: a range deletion over part of L4 and new values after it.
  ASSERT_OK(DeleteRange(Key("k", 50), Key("k", 150)));
  for (int i = 50; i < 150; ++i) model.erase(Key("k", i));
  for (int i = 100; i < 110; ++i) {
    ASSERT_OK(Put(Key("k", i), "l2"));
    model[Key("k", i)] = "l2";
  }
  FlushTo(2);
  // Level 0: another range deletion spanning both.
  ASSERT_OK(DeleteRange(Key("k", 105), Key("k", 200)));
  for (int i = 105; i < 200; ++i) model.erase(Key("k", i));
  ASSERT_OK(Flush());
  ASSERT_EQ(FilesPerLevel(), "1,0,1,0,1");
  // L0 + L2 into L3: L4 still holds older keys, the tombstones must stay.
  std::vector<std::string> inputs;
  for (const LiveFileMetaData& f : Live()) {
    if (f.level == 0) inputs.push_back(PathOf(f.file_number));
  }
  ASSERT_OK(db_->CompactFiles(CompactionOptions(), inputs, 3));
  EXPECT_EQ(FilesPerLevel(), "0,0,0,1,1");
  EXPECT_EQ(Scan(), model);
  for (int i = 0; i < 300; ++i) {
    const auto it = model.find(Key("k", i));
    ASSERT_EQ(Get(Key("k", i)), it == model.end() ? "NOT_FOUND" : it->second) << i;
  }
  // Then everything into L4 (bottommost): the tombstones apply and go.
  inputs.clear();
  for (const LiveFileMetaData& f : Live()) inputs.push_back(PathOf(f.file_number));
  ASSERT_OK(db_->CompactFiles(CompactionOptions(), inputs, 4));
  EXPECT_EQ(FilesPerLevel(), "0,0,0,0,1");
  EXPECT_EQ(Scan(), model);
  TablePropertiesCollection props;
  ASSERT_OK(db_->GetPropertiesOfAllTables(&props));
  ASSERT_EQ(props.size(), 1u);
  EXPECT_EQ(props.begin()->second->num_entries, model.size());
  EXPECT_EQ(props.begin()->second->num_deletions, 0u);
  EXPECT_EQ(props.begin()->second->num_range_deletions, 0u);
}

// ---------------------------------------------------------------------------
// Randomized: a model map against the DB under each compaction_pri.

class LeveledRandomTest : public LeveledTest,
                          public ::testing::WithParamInterface<CompactionPri> {};

TEST_P(LeveledRandomTest, MatchesModel) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  SCOPED_TRACE("seed " + std::to_string(seed));
  Options o = SmallOptions();
  o.num_levels = 5;
  o.compaction_pri = GetParam();
  o.write_buffer_size = 32 << 10;
  o.target_file_size_base = 16 << 10;
  o.max_bytes_for_level_base = 64 << 10;
  o.max_bytes_for_level_multiplier = 3;
  o.max_bytes_for_level_multiplier_additional = {1, 2, 1};
  o.level_compaction_dynamic_level_bytes = (rng() & 1) != 0;
  o.table_properties_collector_factories = {std::make_shared<DeletionMarkerFactory>(40)};
  DestroyAndReopen(o);
  std::map<std::string, std::string> model;
  const int kKeys = 2000;
  for (int op = 0; op < 12000; ++op) {
    const int k = static_cast<int>(rng() % kKeys);
    const std::string key = Key("k", 10000 + k) + std::to_string(k % 7);
    const uint64_t r = rng() % 100;
    if (r < 60) {
      const std::string v = std::to_string(op) + std::string(rng() % 120, 'v');
      ASSERT_OK(Put(key, v));
      model[key] = v;
    } else if (r < 95) {
      ASSERT_OK(Delete(key));
      model.erase(key);
    } else if (r < 97) {
      const int k2 = k + 1 + static_cast<int>(rng() % 50);
      const std::string end = Key("k", 10000 + k2);
      ASSERT_OK(DeleteRange(key, end));
      model.erase(model.lower_bound(key), model.lower_bound(end));
    } else if (r < 98) {
      ASSERT_OK(Flush());
    }
    if (op % 4000 == 3999) {
      ASSERT_OK(WaitForCompact());
      ASSERT_EQ(Scan(), model);
    }
  }
  ASSERT_OK(Flush());
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(Scan(), model);
  EXPECT_EQ(CheckNewerAboveOlder(), "");
  Reopen(o);
  EXPECT_EQ(Scan(), model);
}

INSTANTIATE_TEST_SUITE_P(Pri, LeveledRandomTest,
                         ::testing::Values(kByCompensatedSize, kOldestLargestSeqFirst,
                                           kOldestSmallestSeqFirst, kMinOverlappingRatio));

}  // namespace
}  // namespace strata
