// CompressionForLevel / CompressionOptionsForLevel / CompressionForFlush
// against RocksDB 7.8.3's rules (see the header), case by case.
#include "db/compaction/compression_for_level.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

TEST(CompressionForLevelTest, PlainCompressionEverywhere) {
  ColumnFamilyOptions o;
  o.compression = kLZ4Compression;
  for (int level = 0; level < 7; level++) {
    EXPECT_EQ(CompressionForLevel(o, level, 1, false), kLZ4Compression);
    EXPECT_EQ(CompressionForLevel(o, level, 1, true), kLZ4Compression);  // no bottommost set
  }
  EXPECT_EQ(CompressionForFlush(o), kLZ4Compression);
  EXPECT_EQ(CompressionForLevel(o, 3, 1, false, /*enable_compression=*/false), kNoCompression);
}

TEST(CompressionForLevelTest, PerLevelWithStaticBaseLevel) {
  ColumnFamilyOptions o;
  o.compression = kSnappyCompression;  // unused when per-level is set
  o.compression_per_level = {kNoCompression, kLZ4Compression, kZSTD};
  EXPECT_EQ(CompressionForLevel(o, 0, 1, false), kNoCompression);
  EXPECT_EQ(CompressionForLevel(o, 1, 1, false), kLZ4Compression);
  EXPECT_EQ(CompressionForLevel(o, 2, 1, false), kZSTD);
  // Past the end: the last entry.
  EXPECT_EQ(CompressionForLevel(o, 6, 1, false), kZSTD);
  EXPECT_EQ(CompressionForFlush(o), kNoCompression);
}

TEST(CompressionForLevelTest, PerLevelFollowsDynamicBaseLevel) {
  ColumnFamilyOptions o;
  o.level_compaction_dynamic_level_bytes = true;
  o.compression_per_level = {kNoCompression, kSnappyCompression, kLZ4Compression, kZSTD};
  // Base level 4: L4 takes entry 1, L5 entry 2, L6 entry 3.
  EXPECT_EQ(CompressionForLevel(o, 0, 4, false), kNoCompression);
  EXPECT_EQ(CompressionForLevel(o, 4, 4, false), kSnappyCompression);
  EXPECT_EQ(CompressionForLevel(o, 5, 4, false), kLZ4Compression);
  EXPECT_EQ(CompressionForLevel(o, 6, 4, false), kZSTD);
  // Above the base level (never picked by RocksDB): entry 0.
  EXPECT_EQ(CompressionForLevel(o, 2, 4, false), kNoCompression);
}

TEST(CompressionForLevelTest, Bottommost) {
  ColumnFamilyOptions o;
  o.compression = kLZ4Compression;
  o.compression_per_level = {kNoCompression, kLZ4Compression};
  o.bottommost_compression = kZSTD;
  EXPECT_EQ(CompressionForLevel(o, 3, 1, true), kZSTD);
  EXPECT_EQ(CompressionForLevel(o, 3, 1, false), kLZ4Compression);
  // A bottommost level-0 output (the only non-empty level) also takes it,
  // as in RocksDB; a flush never does.
  EXPECT_EQ(CompressionForLevel(o, 0, 1, true), kZSTD);
  EXPECT_EQ(CompressionForFlush(o), kNoCompression);
  // Disabled compression wins over bottommost.
  EXPECT_EQ(CompressionForLevel(o, 3, 1, true, false), kNoCompression);

  o.compression_opts.level = 1;
  o.bottommost_compression_opts.level = 19;
  EXPECT_EQ(CompressionOptionsForLevel(o, true).level, 1);  // not enabled
  o.bottommost_compression_opts.enabled = true;
  EXPECT_EQ(CompressionOptionsForLevel(o, true).level, 19);
  EXPECT_EQ(CompressionOptionsForLevel(o, false).level, 1);
}

TEST(CompressionForLevelTest, UniversalFlushHonoursCompressionSizePercent) {
  ColumnFamilyOptions o;
  o.compression = kZSTD;
  o.compaction_style = kCompactionStyleUniversal;
  EXPECT_EQ(CompressionForFlush(o), kZSTD);  // -1: compress everything
  o.compaction_options_universal.compression_size_percent = 50;
  EXPECT_EQ(CompressionForFlush(o), kNoCompression);
  o.compaction_style = kCompactionStyleLevel;
  EXPECT_EQ(CompressionForFlush(o), kZSTD);
}

}  // namespace
}  // namespace strata
