// Worked examples of universal compaction's triggers (the pure functions
// of compaction_picker_universal.h), each derived by hand from RocksDB
// 7.8.3's algorithm, plus a randomized check of the pick invariants.
// Whole-DB behaviour is in db/db_universal_compaction_test.cc.
#include "db/compaction/compaction_picker_universal.h"

#include <gtest/gtest.h>

#include <climits>
#include <random>

#include "base/dbformat.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

// Files of one level from (smallest, largest, size), user keys.
struct FileSpec {
  const char* lo;
  const char* hi;
  uint64_t size;
};
std::vector<std::unique_ptr<FileMetaData>> Files(std::initializer_list<FileSpec> spec) {
  std::vector<std::unique_ptr<FileMetaData>> files;
  for (const FileSpec& s : spec) {
    auto f = std::make_unique<FileMetaData>();
    AppendInternalKey(&f->smallest, s.lo, 100, kTypeValue);
    AppendInternalKey(&f->largest, s.hi, 100, kTypeValue);
    f->file_size = s.size;
    files.push_back(std::move(f));
  }
  return files;
}
std::vector<FileMetaData*> Ptrs(const std::vector<std::unique_ptr<FileMetaData>>& files) {
  std::vector<FileMetaData*> r;
  for (const auto& f : files) r.push_back(f.get());
  return r;
}

// Runs from (level, size) pairs, newest first.
std::vector<UniversalSortedRun> Runs(std::initializer_list<std::pair<int, uint64_t>> spec) {
  std::vector<UniversalSortedRun> runs;
  for (const auto& [level, size] : spec) {
    UniversalSortedRun r;
    r.level = level;
    r.size = size;
    runs.push_back(r);
  }
  return runs;
}

TEST(UniversalPickTest, SizeAmpFiresAtThePercentage) {
  CompactionOptionsUniversal u;  // 200%
  UniversalRunPick pick;
  // 30 newer bytes over 100: 30% < 200%.
  EXPECT_FALSE(UniversalPickSizeAmp(Runs({{0, 10}, {0, 10}, {0, 10}, {6, 100}}), u, &pick));
  // 200 over 100: exactly 200% fires; every run is merged.
  ASSERT_TRUE(UniversalPickSizeAmp(Runs({{0, 100}, {0, 100}, {6, 100}}), u, &pick));
  EXPECT_EQ(0u, pick.start);
  EXPECT_EQ(2u, pick.end);
  EXPECT_EQ(CompactionReason::kUniversalSizeAmplification, pick.reason);
  EXPECT_TRUE(pick.compress);
  // 199 over 100 does not.
  EXPECT_FALSE(UniversalPickSizeAmp(Runs({{0, 100}, {0, 99}, {6, 100}}), u, &pick));
  u.max_size_amplification_percent = 25;
  EXPECT_TRUE(UniversalPickSizeAmp(Runs({{0, 10}, {0, 10}, {0, 10}, {6, 100}}), u, &pick));
}

TEST(UniversalPickTest, SizeAmpSkipsNewestBusyRunsButNotBusyOlderOnes) {
  CompactionOptionsUniversal u;
  UniversalRunPick pick;
  auto runs = Runs({{0, 500}, {0, 150}, {0, 150}, {6, 100}});
  runs[0].being_compacted = true;
  ASSERT_TRUE(UniversalPickSizeAmp(runs, u, &pick));
  EXPECT_EQ(1u, pick.start);
  EXPECT_EQ(3u, pick.end);
  // A busy run between the candidates and the oldest: no size-amp pick.
  runs[0].being_compacted = false;
  runs[2].being_compacted = true;
  EXPECT_FALSE(UniversalPickSizeAmp(runs, u, &pick));
  // The oldest busy: none either.
  runs[2].being_compacted = false;
  runs[3].being_compacted = true;
  EXPECT_FALSE(UniversalPickSizeAmp(runs, u, &pick));
}

TEST(UniversalPickTest, SizeRatioTotalSize) {
  CompactionOptionsUniversal u;  // ratio 1, total size, widths 2..UINT_MAX
  UniversalRunPick pick;
  // 1, 1, 1, 1 are taken (each <= 1.01 x the total so far); 100 is not.
  ASSERT_TRUE(UniversalPickSortedRuns(Runs({{0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 100}}), u,
                                      u.size_ratio, UINT_MAX, &pick));
  EXPECT_EQ(0u, pick.start);
  EXPECT_EQ(3u, pick.end);
  EXPECT_EQ(CompactionReason::kUniversalSizeRatio, pick.reason);
  // 1 cannot take 3; from the next run 3, 3, 3 go together (3 <= 3.03, 3 <= 6.06).
  ASSERT_TRUE(
      UniversalPickSortedRuns(Runs({{0, 1}, {0, 3}, {0, 3}, {0, 3}}), u, 1, UINT_MAX, &pick));
  EXPECT_EQ(1u, pick.start);
  EXPECT_EQ(3u, pick.end);
  // Doubling sizes never fit within 1%.
  EXPECT_FALSE(UniversalPickSortedRuns(Runs({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}}), u, 1,
                                       UINT_MAX, &pick));
  // ...but they do with a 100% ratio under total size: 1+2=3 >= 4/2, ...
  ASSERT_TRUE(UniversalPickSortedRuns(Runs({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}}), u, 100,
                                      UINT_MAX, &pick));
  EXPECT_EQ(0u, pick.start);
  EXPECT_EQ(4u, pick.end);
}

TEST(UniversalPickTest, SizeRatioSimilarSizeAndWidths) {
  CompactionOptionsUniversal u;
  u.stop_style = kCompactionStopStyleSimilarSize;
  UniversalRunPick pick;
  // Similar size: 1, 1 go; 4 is over 1.01 x the last one taken.
  ASSERT_TRUE(UniversalPickSortedRuns(Runs({{0, 1}, {0, 1}, {0, 4}, {0, 4}, {0, 4}}), u, 1,
                                      UINT_MAX, &pick));
  EXPECT_EQ(0u, pick.start);
  EXPECT_EQ(1u, pick.end);
  // With ratio 100 under similar size, 1, 2, 4 each fit the last one (x2),
  // while total size would also take 8 (1+2+4 = 7, x2 >= 8).
  ASSERT_TRUE(
      UniversalPickSortedRuns(Runs({{0, 1}, {0, 2}, {0, 4}, {0, 9}}), u, 100, UINT_MAX, &pick));
  EXPECT_EQ(0u, pick.start);
  EXPECT_EQ(2u, pick.end);
  u.stop_style = kCompactionStopStyleTotalSize;
  ASSERT_TRUE(
      UniversalPickSortedRuns(Runs({{0, 1}, {0, 2}, {0, 4}, {0, 9}}), u, 100, UINT_MAX, &pick));
  EXPECT_EQ(3u, pick.end);
  // max_merge_width caps the stretch, min_merge_width refuses short ones.
  u.max_merge_width = 2;
  ASSERT_TRUE(UniversalPickSortedRuns(Runs({{0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 100}}), u, 1,
                                      UINT_MAX, &pick));
  EXPECT_EQ(0u, pick.start);
  EXPECT_EQ(1u, pick.end);
  u.max_merge_width = UINT_MAX;
  u.min_merge_width = 5;
  EXPECT_FALSE(UniversalPickSortedRuns(Runs({{0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 100}}), u, 1,
                                       UINT_MAX, &pick));
}

TEST(UniversalPickTest, SizeRatioStartsAfterBusyRuns) {
  CompactionOptionsUniversal u;
  UniversalRunPick pick;
  auto runs = Runs({{0, 1}, {0, 1}, {0, 1}, {0, 1}});
  runs[1].being_compacted = true;
  // Run 0 alone (run 1 busy) is too short; from run 2: 2..3.
  ASSERT_TRUE(UniversalPickSortedRuns(runs, u, 1, UINT_MAX, &pick));
  EXPECT_EQ(2u, pick.start);
  EXPECT_EQ(3u, pick.end);
}

TEST(UniversalPickTest, RunCountIgnoresSizes) {
  CompactionOptionsUniversal u;
  UniversalRunPick pick;
  // 5 runs, trigger 4: the picker asks for 5 - 4 + 1 = 2 runs.
  ASSERT_TRUE(UniversalPickSortedRuns(Runs({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}}), u, UINT_MAX,
                                      2, &pick));
  EXPECT_EQ(0u, pick.start);
  EXPECT_EQ(1u, pick.end);
  EXPECT_EQ(CompactionReason::kUniversalSortedRunNum, pick.reason);
}

TEST(UniversalPickTest, CompressionSizePercent) {
  CompactionOptionsUniversal u;
  UniversalRunPick pick;
  const auto runs = Runs({{0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 100}});
  // The runs older than the output hold 100 of 104 bytes (96%).
  u.compression_size_percent = 50;
  ASSERT_TRUE(UniversalPickSortedRuns(runs, u, 1, UINT_MAX, &pick));
  EXPECT_FALSE(pick.compress);
  u.compression_size_percent = 97;
  ASSERT_TRUE(UniversalPickSortedRuns(runs, u, 1, UINT_MAX, &pick));
  EXPECT_TRUE(pick.compress);
  u.compression_size_percent = -1;
  ASSERT_TRUE(UniversalPickSortedRuns(runs, u, 1, UINT_MAX, &pick));
  EXPECT_TRUE(pick.compress);
  // A stretch that reaches the oldest run is always compressed.
  u.compression_size_percent = 0;
  ASSERT_TRUE(UniversalPickSortedRuns(Runs({{0, 1}, {0, 1}}), u, 1, UINT_MAX, &pick));
  EXPECT_TRUE(pick.compress);
}

TEST(UniversalPickTest, Periodic) {
  UniversalRunPick pick;
  auto runs = Runs({{0, 1}, {0, 1}, {0, 1}, {6, 10}});
  EXPECT_FALSE(UniversalPickPeriodic(runs, &pick));
  runs[1].periodic_due = true;
  ASSERT_TRUE(UniversalPickPeriodic(runs, &pick));
  EXPECT_EQ(0u, pick.start);
  EXPECT_EQ(3u, pick.end);
  EXPECT_EQ(CompactionReason::kPeriodicCompaction, pick.reason);
  // Only the runs older than the newest busy one.
  runs[0].being_compacted = true;
  ASSERT_TRUE(UniversalPickPeriodic(runs, &pick));
  EXPECT_EQ(1u, pick.start);
  // The oldest run alone is free: only when it is due itself.
  runs[2].being_compacted = true;
  EXPECT_FALSE(UniversalPickPeriodic(runs, &pick));
  runs[3].periodic_due = true;
  ASSERT_TRUE(UniversalPickPeriodic(runs, &pick));
  EXPECT_EQ(3u, pick.start);
  EXPECT_EQ(3u, pick.end);
}

TEST(UniversalPickTest, OutputLevel) {
  const auto runs = Runs({{0, 1}, {0, 1}, {0, 1}, {3, 10}, {6, 100}});
  EXPECT_EQ(0, UniversalOutputLevel(runs, 0, 1, 7, false));  // next run is a level-0 file
  EXPECT_EQ(2, UniversalOutputLevel(runs, 0, 2, 7, false));  // just above L3
  EXPECT_EQ(5, UniversalOutputLevel(runs, 1, 3, 7, false));  // just above L6
  EXPECT_EQ(6, UniversalOutputLevel(runs, 0, 4, 7, false));  // the oldest: last level
  EXPECT_EQ(5, UniversalOutputLevel(runs, 2, 3, 6, true));   // just above L6
  EXPECT_EQ(4,
            UniversalOutputLevel(Runs({{0, 1}, {3, 1}}), 0, 1, 6, true));  // L5 kept for ingestion
}

TEST(UniversalPickTest, PeriodicSecondsAsRocksDBSanitizes) {
  ColumnFamilyOptions o;
  EXPECT_EQ(30u * 24 * 3600, UniversalPeriodicSeconds(o));  // default ttl: 30 days
  o.ttl = 0;
  EXPECT_EQ(0u, UniversalPeriodicSeconds(o));
  o.periodic_compaction_seconds = 100;
  EXPECT_EQ(100u, UniversalPeriodicSeconds(o));
  o.ttl = 50;
  EXPECT_EQ(50u, UniversalPeriodicSeconds(o));
  o.periodic_compaction_seconds = 0;
  EXPECT_EQ(50u, UniversalPeriodicSeconds(o));
}

// Worked by hand: upper files of 10 bytes at 10-19, 20-29, 30-39, 40-49;
// the bottom has 100 bytes under the first two and 5 under each of the
// others. With a 25-byte threshold the windows measured are {0} (fan-out
// 10), {1} (10) and {2,3} (10/20 = 0.5): the last, the cheap part, is
// chosen, leaving the dense bottom file alone.
TEST(UniversalPickTest, IncrementalPicksTheLowestFanoutWindow) {
  InternalKeyComparator icmp(BytewiseComparator());
  auto upper = Files({{"10", "19", 10}, {"20", "29", 10}, {"30", "39", 10}, {"40", "49", 10}});
  auto bottom = Files({{"10", "29", 100}, {"30", "39", 5}, {"40", "49", 5}});
  size_t start = 99, end = 99;
  ASSERT_TRUE(
      UniversalPickIncrementalWindow(Ptrs(upper), Ptrs(bottom), icmp, 25, 100.0, &start, &end));
  EXPECT_EQ(2u, start);
  EXPECT_EQ(3u, end);
  // The fan-out bound: 0.5 is the best there is, so a limit at or under it
  // leaves no window (the caller then merges every run).
  EXPECT_FALSE(
      UniversalPickIncrementalWindow(Ptrs(upper), Ptrs(bottom), icmp, 25, 0.5, &start, &end));
  EXPECT_TRUE(
      UniversalPickIncrementalWindow(Ptrs(upper), Ptrs(bottom), icmp, 25, 0.51, &start, &end));
  // A threshold over everything: one window, all of upper, measured at
  // upper's end: 110 / 40.
  ASSERT_TRUE(
      UniversalPickIncrementalWindow(Ptrs(upper), Ptrs(bottom), icmp, 1000, 100.0, &start, &end));
  EXPECT_EQ(0u, start);
  EXPECT_EQ(3u, end);
  EXPECT_FALSE(
      UniversalPickIncrementalWindow(Ptrs(upper), Ptrs(bottom), icmp, 1000, 2.75, &start, &end));
}

// Two bottom files wholly between two upper files: the window restarts
// after them (they would be rewritten for nothing); one file in the gap
// does not cut the window.
TEST(UniversalPickTest, IncrementalWindowRestartsAfterABottomGap) {
  InternalKeyComparator icmp(BytewiseComparator());
  auto upper = Files({{"10", "19", 10}, {"50", "59", 10}});
  auto two = Files({{"20", "29", 10}, {"30", "39", 10}});
  size_t start = 99, end = 99;
  ASSERT_TRUE(
      UniversalPickIncrementalWindow(Ptrs(upper), Ptrs(two), icmp, 1000, 100.0, &start, &end));
  EXPECT_EQ(1u, start);
  EXPECT_EQ(1u, end);
  auto one = Files({{"20", "29", 10}});
  ASSERT_TRUE(
      UniversalPickIncrementalWindow(Ptrs(upper), Ptrs(one), icmp, 1000, 100.0, &start, &end));
  EXPECT_EQ(0u, start);
  EXPECT_EQ(1u, end);
  // No bottom at all: fan-out 0, every upper file.
  ASSERT_TRUE(UniversalPickIncrementalWindow(Ptrs(upper), {}, icmp, 1000, 1.0, &start, &end));
  EXPECT_EQ(0u, start);
  EXPECT_EQ(1u, end);
}

// Random disjoint levels: a window is inside upper, and its fan-out
// (bottom bytes overlapping it / its bytes) is below the limit up to the
// bottom files the window's measure counts at its edges.
TEST(UniversalPickTest, IncrementalWindowRandom) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  InternalKeyComparator icmp(BytewiseComparator());
  for (int iter = 0; iter < 3000; ++iter) {
    // Boundaries on a key line 0..999, each level's files disjoint.
    auto level = [&](int n) {
      std::vector<int> cuts;
      for (int i = 0; i < 2 * n; ++i) cuts.push_back(static_cast<int>(rng() % 1000));
      std::sort(cuts.begin(), cuts.end());
      cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
      if (cuts.size() % 2) cuts.pop_back();
      std::vector<std::unique_ptr<FileMetaData>> files;
      for (size_t i = 0; i + 1 < cuts.size(); i += 2) {
        auto f = std::make_unique<FileMetaData>();
        char lo[8], hi[8];
        snprintf(lo, sizeof(lo), "%03d", cuts[i]);
        snprintf(hi, sizeof(hi), "%03d", cuts[i + 1]);
        AppendInternalKey(&f->smallest, lo, 100, kTypeValue);
        AppendInternalKey(&f->largest, hi, 100, kTypeValue);
        f->file_size = 1 + rng() % 100;
        files.push_back(std::move(f));
      }
      return files;
    };
    auto upper = level(1 + static_cast<int>(rng() % 12));
    auto bottom = level(static_cast<int>(rng() % 20));
    if (upper.empty()) continue;
    const uint64_t threshold = rng() % 600;
    const double limit = static_cast<double>(rng() % 400) / 100.0;
    size_t start = 0, end = 0;
    if (!UniversalPickIncrementalWindow(Ptrs(upper), Ptrs(bottom), icmp, threshold, limit, &start,
                                        &end)) {
      continue;
    }
    ASSERT_LE(start, end) << "seed " << seed << " iter " << iter;
    ASSERT_LT(end, upper.size()) << "seed " << seed << " iter " << iter;
    uint64_t up = 0;
    for (size_t i = start; i <= end; ++i) up += upper[i]->file_size;
    // Bottom bytes strictly inside the window's key span are all counted.
    uint64_t inside = 0;
    for (const auto& b : bottom) {
      if (icmp.Compare(b->smallest, upper[start]->smallest) > 0 &&
          icmp.Compare(b->largest, upper[end]->largest) < 0) {
        inside += b->file_size;
      }
    }
    ASSERT_LT(static_cast<double>(inside) / static_cast<double>(up), limit)
        << "seed " << seed << " iter " << iter;
  }
}

// Random runs: every pick is a stretch of idle runs inside the list, and
// its output level is at or below every input and above every run left
// out below it.
TEST(UniversalPickTest, RandomPicksKeepTheInvariants) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  for (int iter = 0; iter < 20000; ++iter) {
    std::vector<UniversalSortedRun> runs;
    const int l0 = static_cast<int>(rng() % 6);
    for (int i = 0; i < l0; ++i) runs.push_back(UniversalSortedRun{0, nullptr, 1 + rng() % 1000});
    for (int level = 1; level < 7; ++level) {
      if (rng() % 2) runs.push_back(UniversalSortedRun{level, nullptr, 1 + rng() % 100000});
    }
    if (runs.empty()) continue;
    for (auto& r : runs) r.being_compacted = rng() % 8 == 0;
    CompactionOptionsUniversal u;
    u.size_ratio = static_cast<unsigned>(rng() % 50);
    u.max_size_amplification_percent = static_cast<unsigned>(rng() % 300);
    u.stop_style = rng() % 2 ? kCompactionStopStyleSimilarSize : kCompactionStopStyleTotalSize;
    UniversalRunPick pick;
    bool got = false;
    switch (rng() % 3) {
      case 0:
        got = UniversalPickSizeAmp(runs, u, &pick);
        break;
      case 1:
        got = UniversalPickSortedRuns(runs, u, u.size_ratio, UINT_MAX, &pick);
        break;
      default:
        got = UniversalPickSortedRuns(runs, u, UINT_MAX, 2 + rng() % 3, &pick);
        break;
    }
    if (!got) continue;
    ASSERT_LT(pick.start, pick.end) << "seed " << seed;
    ASSERT_LT(pick.end, runs.size()) << "seed " << seed;
    for (size_t i = pick.start; i <= pick.end; ++i) {
      ASSERT_FALSE(runs[i].being_compacted) << "seed " << seed << " iter " << iter;
    }
    const int out = UniversalOutputLevel(runs, pick.start, pick.end, 7, false);
    for (size_t i = pick.start; i <= pick.end; ++i) ASSERT_GE(out, runs[i].level);
    if (pick.end + 1 < runs.size()) {
      const int next = runs[pick.end + 1].level;
      ASSERT_TRUE(next == 0 ? out == 0 : out < next) << "seed " << seed;
    } else {
      ASSERT_EQ(6, out);
    }
  }
}

}  // namespace
}  // namespace strata
