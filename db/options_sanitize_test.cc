// SanitizeColumnFamilyOptions for the compaction styles (RocksDB 7.8.3's
// SanitizeOptions rules): levels, FIFO's level-0 triggers, dynamic level
// bytes, the per-level multiplier list, and how ttl and
// periodic_compaction_seconds defaults are resolved per style; the
// resolved defaults pass validation, and sanitizing twice changes nothing
// the second time (SetOptions sanitizes options sanitized at open).
#include <gtest/gtest.h>

#include <climits>
#include <string>
#include <vector>

#include "db/column_family.h"
#include "strata/compaction_filter.h"
#include "test_util/testutil.h"
#include "util/random.h"

namespace strata {
namespace {

constexpr uint64_t kDays30 = 30 * 24 * 3600;
constexpr uint64_t kDefault = ColumnFamilyOptions::kDefaultTtl;

class KeepAll : public CompactionFilter {
 public:
  const char* Name() const override { return "KeepAll"; }
  bool Filter(int, const Slice&, const Slice&, std::string*, bool*) const override { return false; }
};

ColumnFamilyOptions Sanitized(ColumnFamilyOptions o, std::vector<std::string>* notes = nullptr) {
  SanitizeColumnFamilyOptions(&o, notes);
  return o;
}

ColumnFamilyOptions WithStyle(CompactionStyle style) {
  ColumnFamilyOptions o;
  o.compaction_style = style;
  return o;
}

TEST(OptionsSanitizeTest, LevelDefaults) {
  std::vector<std::string> notes;
  const ColumnFamilyOptions o = Sanitized(ColumnFamilyOptions(), &notes);
  EXPECT_EQ(o.ttl, kDays30);
  EXPECT_EQ(o.periodic_compaction_seconds, 0u);
  EXPECT_EQ(o.num_levels, 7);
  EXPECT_TRUE(o.level_compaction_dynamic_level_bytes);
  EXPECT_EQ(o.max_bytes_for_level_multiplier_additional, std::vector<int>(7, 1));
  bool noted = false;
  for (const std::string& n : notes) noted |= n.find("options.ttl") != std::string::npos;
  EXPECT_TRUE(noted);
  EXPECT_OK(ValidateColumnFamilyOptions(o));

  // A compaction filter turns periodic compaction on (30 days).
  ColumnFamilyOptions f;
  KeepAll filter;
  f.compaction_filter = &filter;
  EXPECT_EQ(Sanitized(f).periodic_compaction_seconds, kDays30);
  EXPECT_OK(ValidateColumnFamilyOptions(Sanitized(f)));
  f.periodic_compaction_seconds = 0;
  EXPECT_EQ(Sanitized(f).periodic_compaction_seconds, 0u);
  // Explicit values stay as given, and are accepted.
  ColumnFamilyOptions e;
  e.ttl = 3600;
  EXPECT_EQ(Sanitized(e).ttl, 3600u);
  EXPECT_OK(ValidateColumnFamilyOptions(Sanitized(e)));
  e.ttl = 0;
  EXPECT_EQ(Sanitized(e).ttl, 0u);
  EXPECT_OK(ValidateColumnFamilyOptions(Sanitized(e)));
}

TEST(OptionsSanitizeTest, Levels) {
  ColumnFamilyOptions o;
  o.num_levels = 1;
  EXPECT_EQ(Sanitized(o).num_levels, 2);  // level compaction needs two
  o.num_levels = 0;
  EXPECT_EQ(Sanitized(o).num_levels, 2);
  for (CompactionStyle style :
       {kCompactionStyleUniversal, kCompactionStyleFIFO, kCompactionStyleNone}) {
    ColumnFamilyOptions u = WithStyle(style);
    u.num_levels = 1;
    EXPECT_EQ(Sanitized(u).num_levels, 1) << style;
    u.num_levels = -3;
    EXPECT_EQ(Sanitized(u).num_levels, 1) << style;
    // Dynamic level bytes are for level compaction only.
    EXPECT_FALSE(Sanitized(u).level_compaction_dynamic_level_bytes) << style;
  }
  // The per-level factors grow with 1s to num_levels, never shrink.
  o = ColumnFamilyOptions();
  o.max_bytes_for_level_multiplier_additional = {3, 4};
  EXPECT_EQ(Sanitized(o).max_bytes_for_level_multiplier_additional,
            (std::vector<int>{3, 4, 1, 1, 1, 1, 1}));
  o.max_bytes_for_level_multiplier_additional = std::vector<int>(9, 2);
  EXPECT_EQ(Sanitized(o).max_bytes_for_level_multiplier_additional, std::vector<int>(9, 2));
}

TEST(OptionsSanitizeTest, FIFO) {
  ColumnFamilyOptions o = Sanitized(WithStyle(kCompactionStyleFIFO));
  EXPECT_EQ(o.level0_slowdown_writes_trigger, INT_MAX);
  EXPECT_EQ(o.level0_stop_writes_trigger, INT_MAX);
  // ttl's default is 0 for FIFO, so ttl takes periodic's default: 30 days.
  EXPECT_EQ(o.ttl, kDays30);
  EXPECT_EQ(o.periodic_compaction_seconds, kDays30);
  ColumnFamilyOptions f = WithStyle(kCompactionStyleFIFO);
  f.ttl = 100;
  f.periodic_compaction_seconds = 50;
  EXPECT_EQ(Sanitized(f).ttl, 50u);  // the smaller
  f.ttl = 100;
  f.periodic_compaction_seconds = 500;
  EXPECT_EQ(Sanitized(f).ttl, 100u);
  f.ttl = 0;
  f.periodic_compaction_seconds = 70;
  EXPECT_EQ(Sanitized(f).ttl, 70u);
  f.ttl = 0;
  f.periodic_compaction_seconds = 0;
  EXPECT_EQ(Sanitized(f).ttl, 0u);
  f.ttl = 100;
  f.periodic_compaction_seconds = kDefault;
  EXPECT_EQ(Sanitized(f).ttl, 100u);
  EXPECT_EQ(Sanitized(f).periodic_compaction_seconds, 0u);
}

TEST(OptionsSanitizeTest, Universal) {
  // ttl works through periodic compaction under universal.
  ColumnFamilyOptions o = Sanitized(WithStyle(kCompactionStyleUniversal));
  EXPECT_EQ(o.ttl, kDays30);
  EXPECT_EQ(o.periodic_compaction_seconds, kDays30);
  ColumnFamilyOptions u = WithStyle(kCompactionStyleUniversal);
  u.ttl = 100;
  EXPECT_EQ(Sanitized(u).periodic_compaction_seconds, 100u);
  u.periodic_compaction_seconds = 40;
  EXPECT_EQ(Sanitized(u).periodic_compaction_seconds, 40u);
  u.periodic_compaction_seconds = 0;
  EXPECT_EQ(Sanitized(u).periodic_compaction_seconds, 100u);
  u.ttl = 0;
  u.periodic_compaction_seconds = kDefault;
  EXPECT_EQ(Sanitized(u).periodic_compaction_seconds, 0u);
  EXPECT_EQ(Sanitized(u).ttl, 0u);
}

// Random options: sanitizing a second time neither changes a value nor
// notes anything, and the resolved ages are never kDefaultTtl.
TEST(OptionsSanitizeTest, IdempotentOnRandomOptions) {
  Random64 rnd(test::RandomSeed());
  KeepAll filter;
  const uint64_t ages[] = {0, 1, 50, 100, 3600, kDays30, kDefault};
  for (int round = 0; round < 2000; ++round) {
    ColumnFamilyOptions o;
    o.compaction_style = static_cast<CompactionStyle>(rnd.Uniform(4));
    o.num_levels = static_cast<int>(rnd.Uniform(9)) - 1;
    o.ttl = ages[rnd.Uniform(7)];
    o.periodic_compaction_seconds = ages[rnd.Uniform(7)];
    if (rnd.OneIn(2)) o.compaction_filter = &filter;
    o.level0_file_num_compaction_trigger = static_cast<int>(rnd.Uniform(10));
    o.level0_slowdown_writes_trigger = static_cast<int>(rnd.Uniform(30));
    o.level0_stop_writes_trigger = static_cast<int>(rnd.Uniform(40));
    o.level_compaction_dynamic_level_bytes = rnd.OneIn(2);
    o.max_bytes_for_level_multiplier_additional.assign(rnd.Uniform(10), 2);
    SanitizeColumnFamilyOptions(&o);
    ASSERT_NE(o.ttl, kDefault);
    ASSERT_NE(o.periodic_compaction_seconds, kDefault);
    ASSERT_GE(o.num_levels, o.compaction_style == kCompactionStyleLevel ? 2 : 1);
    ASSERT_GE(o.max_bytes_for_level_multiplier_additional.size(),
              static_cast<size_t>(o.num_levels));
    ColumnFamilyOptions again = o;
    std::vector<std::string> notes;
    SanitizeColumnFamilyOptions(&again, &notes);
    ASSERT_TRUE(notes.empty()) << "round " << round << ": " << notes.front();
    ASSERT_EQ(again.ttl, o.ttl);
    ASSERT_EQ(again.periodic_compaction_seconds, o.periodic_compaction_seconds);
    ASSERT_EQ(again.num_levels, o.num_levels);
  }
}

}  // namespace
}  // namespace strata
