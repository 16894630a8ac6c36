// WriteThrottle on a manual clock: the measured base rate, the pace under
// pressure, the delayed_write_rate cap, the banked idle time and the floor.
#include "db/write_throttle.h"

#include <gtest/gtest.h>

#include <cmath>

#include "test_util/manual_clock.h"

namespace strata {
namespace {

constexpr uint64_t kMiB = 1 << 20;

StallPressure Hard(double p) { return StallPressure{0, p}; }
StallPressure Debt(double d) { return StallPressure{d, 0}; }

class WriteThrottleTest : public ::testing::Test {
 protected:
  // Measures an unthrottled ingest of rate bytes/s over one second.
  void MeasureBase(WriteThrottle* t, uint64_t rate) {
    t->Update(Hard(0), false);
    t->AddIngest(rate);
    clock_.Advance(1000000);
    t->Update(Hard(0), false);
  }
  // Paces n groups of `bytes` and returns the clock's advance, micros.
  uint64_t PaceGroups(WriteThrottle* t, int n, uint64_t bytes, double memtable_pressure = 0) {
    const uint64_t start = clock_.NowMicros();
    for (int i = 0; i < n; ++i) {
      t->AddIngest(bytes);
      t->Pace(bytes, memtable_pressure);
    }
    return clock_.NowMicros() - start;
  }

  test::ManualClock clock_{/*auto_advance=*/true};
};

TEST_F(WriteThrottleTest, InactiveWithoutPressure) {
  WriteThrottle t(&clock_, 0);
  t.Update(Hard(0), false);
  EXPECT_FALSE(t.Active());
  EXPECT_FALSE(t.WatchMemtables());
  EXPECT_EQ(PaceGroups(&t, 100, 4096), 0u);
  EXPECT_EQ(t.rate(), 0u);
}

TEST_F(WriteThrottleTest, MeasuresBaseRateWhileUnthrottled) {
  WriteThrottle t(&clock_, 0);
  EXPECT_EQ(t.base_rate(), 0u);
  MeasureBase(&t, 40 * kMiB);
  EXPECT_EQ(t.base_rate(), 40 * kMiB);
  // A shorter interval than kSampleMicros is not a sample.
  t.AddIngest(kMiB);
  clock_.Advance(WriteThrottle::kSampleMicros / 2);
  t.Update(Hard(0), false);
  EXPECT_EQ(t.base_rate(), 40 * kMiB);
  // A slower sample: the base decays towards it, by e every 10 s.
  t.AddIngest(3 * kMiB);
  clock_.Advance(WriteThrottle::kSampleMicros * 2);
  t.Update(Hard(0), false);
  const double interval = WriteThrottle::kSampleMicros * 2.5;
  const double decayed = 40.0 * kMiB * std::exp(-interval / WriteThrottle::kBaseDecayMicros);
  EXPECT_NEAR(static_cast<double>(t.base_rate()), decayed, 2.0);
  // A pause of writers does not make the base a crawl.
  clock_.Advance(2000000);
  t.Update(Hard(0), false);
  EXPECT_GT(static_cast<double>(t.base_rate()), 0.8 * decayed);
  // A faster sample replaces it at once.
  t.AddIngest(20 * kMiB);
  clock_.Advance(WriteThrottle::kSampleMicros);
  t.Update(Hard(0), false);
  EXPECT_EQ(t.base_rate(), 100 * kMiB);
}

TEST_F(WriteThrottleTest, ThrottledIntervalsDoNotMoveTheBase) {
  WriteThrottle t(&clock_, 0);
  MeasureBase(&t, 40 * kMiB);
  t.Update(Hard(0.5), false);
  t.AddIngest(kMiB);
  clock_.Advance(1000000);
  t.Update(Hard(0.5), false);
  EXPECT_EQ(t.base_rate(), 40 * kMiB);
  // Nor does the interval that ends the throttling.
  clock_.Advance(1000000);
  t.Update(Hard(0), false);
  EXPECT_EQ(t.base_rate(), 40 * kMiB);
}

TEST_F(WriteThrottleTest, RateFallsWithTheSquareOfPressure) {
  WriteThrottle t(&clock_, 0);
  MeasureBase(&t, 40 * kMiB);
  EXPECT_DOUBLE_EQ(t.RateFor(0), 40.0 * kMiB);
  EXPECT_DOUBLE_EQ(t.RateFor(0.5), 10.0 * kMiB);
  EXPECT_DOUBLE_EQ(t.RateFor(0.75), 2.5 * kMiB);
  // A floor near the stop: the stop itself is the long wait.
  EXPECT_GT(t.RateFor(1.0), 0);
  EXPECT_LT(t.RateFor(1.0), 64.0 * 1024);
}

TEST_F(WriteThrottleTest, PacesAtTheRate) {
  WriteThrottle t(&clock_, 0);
  MeasureBase(&t, 40 * kMiB);
  t.Update(Hard(0.5), false);
  EXPECT_TRUE(t.Active());
  // 10 MiB/s: 10000 groups of 1048 bytes take one second (nothing banked
  // when the pacing starts).
  const uint64_t took = PaceGroups(&t, 10000, 1048);
  const uint64_t want = 10000ull * 1048 * 1000000 / (10 * kMiB);
  EXPECT_GE(took + 10, want);
  EXPECT_LE(took, want + 10);
  EXPECT_EQ(t.rate(), 10 * kMiB);
}

TEST_F(WriteThrottleTest, DelayedWriteRateIsTheBaseBeforeAMeasurementAndCapsIt) {
  {
    WriteThrottle t(&clock_, 0);
    t.Update(Hard(0.5), false);
    EXPECT_DOUBLE_EQ(t.RateFor(0.5), 4.0 * kMiB);  // 16 MiB/s default / 4
  }
  WriteThrottle t(&clock_, 8 * kMiB);
  MeasureBase(&t, 40 * kMiB);
  EXPECT_DOUBLE_EQ(t.RateFor(0.5), 2.0 * kMiB);
  t.SetDelayedWriteRate(0);
  EXPECT_DOUBLE_EQ(t.RateFor(0.5), 10.0 * kMiB);
}

TEST_F(WriteThrottleTest, IdleTimeIsBankedForAMillisecondAtMost) {
  WriteThrottle t(&clock_, 0);
  MeasureBase(&t, 40 * kMiB);
  t.Update(Hard(0.5), false);
  PaceGroups(&t, 100, 1000);
  clock_.Advance(100000);  // a writer pause of 100 ms
  // At 10 MiB/s 10 KB costs ~977 us: all of it within the bank.
  EXPECT_EQ(PaceGroups(&t, 10, 1000), 0u);
  // The next 100 KB are paced in full, less what is left of the bank.
  const uint64_t took = PaceGroups(&t, 100, 1000);
  EXPECT_GE(took + WriteThrottle::kBankMicros, 110000ull * 1000000 / (10 * kMiB));
  EXPECT_LE(took, 100000ull * 1000000 / (10 * kMiB) + 1);
}

TEST_F(WriteThrottleTest, MemtablePressureAddsToThePace) {
  WriteThrottle t(&clock_, 0);
  MeasureBase(&t, 40 * kMiB);
  t.Update(Hard(0), /*watch_memtables=*/true);
  EXPECT_TRUE(t.Active());
  EXPECT_TRUE(t.WatchMemtables());
  // An empty watched memtable: no pacing.
  EXPECT_EQ(PaceGroups(&t, 100, 1000, 0.0), 0u);
  // Three quarters full: 2.5 MiB/s.
  PaceGroups(&t, 10, 1000, 0.75);
  EXPECT_EQ(t.rate(), static_cast<uint64_t>(2.5 * kMiB));
  // Level-0 pressure larger than the memtable's wins.
  t.Update(Hard(0.9), true);
  PaceGroups(&t, 10, 1000, 0.75);
  EXPECT_LT(t.rate(), static_cast<uint64_t>(0.5 * kMiB));
  t.Update(Hard(0), false);
  EXPECT_FALSE(t.Active());
  EXPECT_EQ(t.rate(), 0u);
}

TEST_F(WriteThrottleTest, DebtPaceStartsPastTheSetPointAndFollowsTheDebt) {
  WriteThrottle t(&clock_, 0);
  MeasureBase(&t, 40 * kMiB);
  // At or under the set point: nothing.
  t.Update(Debt(WriteThrottle::kSetPoint), false);
  EXPECT_FALSE(t.Active());
  EXPECT_EQ(t.debt_pace(), 0u);
  // Past it: paced, starting at the base rate. (No time passes: an idle
  // interval would be a sample of a lower ingest rate.)
  t.Update(Debt(0.5), false);
  EXPECT_TRUE(t.Active());
  EXPECT_EQ(t.debt_pace(), 40 * kMiB);
  // A second at debt 0.5: down by exp(-kGainDown * 0.25).
  clock_.Advance(1000000);
  t.Update(Debt(0.5), false);
  double want = 40.0 * kMiB * std::exp(-WriteThrottle::kGainDown * 0.25);
  EXPECT_NEAR(static_cast<double>(t.debt_pace()), want, 2.0);
  // Gaps longer than a second count as one.
  clock_.Advance(10000000);
  t.Update(Debt(0.5), false);
  want *= std::exp(-WriteThrottle::kGainDown * 0.25);
  EXPECT_NEAR(static_cast<double>(t.debt_pace()), want, 2.0);
  // Writes go at the pace.
  const uint64_t took = PaceGroups(&t, 1000, 1000);
  EXPECT_NEAR(static_cast<double>(took), 1000.0 * 1000 * 1e6 / want,
              WriteThrottle::kBankMicros + 2);
  // The base rate is not measured while paced.
  EXPECT_EQ(t.base_rate(), 40 * kMiB);
  // Debt 0: up by exp(kGainUp * 0.25) a second, until back at the base.
  clock_.Advance(1000000);
  t.Update(Debt(0), false);
  want *= std::exp(WriteThrottle::kGainUp * 0.25);
  EXPECT_NEAR(static_cast<double>(t.debt_pace()), want, 2.0);
  int seconds = 0;
  while (t.debt_pace() != 0 && seconds < 1000) {
    clock_.Advance(1000000);
    t.Update(Debt(0), false);
    ++seconds;
  }
  EXPECT_EQ(t.debt_pace(), 0u);
  EXPECT_FALSE(t.Active());
  // ln(base / pace) / (kGainUp * 0.25) seconds, give or take one.
  const double expected = std::log(40.0 * kMiB / want) / (WriteThrottle::kGainUp * 0.25);
  EXPECT_NEAR(seconds, expected, 1.5);
}

TEST_F(WriteThrottleTest, TheSlowerPaceWins) {
  WriteThrottle t(&clock_, 0);
  MeasureBase(&t, 40 * kMiB);
  t.Update(Debt(0.5), false);
  for (int i = 0; i < 10; ++i) {
    clock_.Advance(1000000);
    t.Update(Debt(0.5), false);
  }
  const double debt_pace = static_cast<double>(t.debt_pace());
  ASSERT_LT(debt_pace, 10.0 * kMiB);
  // A stop pressure of 0.5 (10 MiB/s) is faster: the debt pace holds.
  t.Update(StallPressure{0.5, 0.5}, false);
  PaceGroups(&t, 10, 1000);
  EXPECT_LE(static_cast<double>(t.rate()), debt_pace);
  // Near the stop, the stop pace is slower.
  t.Update(StallPressure{0.5, 0.95}, false);
  PaceGroups(&t, 10, 1000);
  EXPECT_NEAR(static_cast<double>(t.rate()), t.RateFor(0.95), 1.0);
  EXPECT_LT(t.RateFor(0.95), debt_pace);
}

}  // namespace
}  // namespace strata
