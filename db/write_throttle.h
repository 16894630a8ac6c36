// WriteThrottle: slows writes early and smoothly, from compaction debt,
// instead of letting them run at full speed into a stop (RocksDB issue
// 9423: throughput collapses, then long stops).
//
// Two paces; a write goes at the slower of those that apply.
//
// 1. The debt pace, a slow feedback loop. Each column family's debt is
//      (level-0 files - level0_file_num_compaction_trigger) /
//      (level0_stop_writes_trigger - level0_file_num_compaction_trigger)
//    or, if larger, kSetPoint * pending compaction bytes / (half the
//    soft_pending_compaction_bytes_limit). When the largest debt passes
//    kSetPoint (level 0 a quarter of the way from its compaction trigger to
//    its stop), writes are paced, starting at the base rate; at every
//    update the pace is multiplied by exp(gain * (kSetPoint - debt) *
//    seconds since the last update): it falls while the debt is above the
//    set point, and rises, more slowly, while below, until it is back at
//    the base rate with the debt below the set point. Under sustained
//    writes the pace settles where compaction absorbs what is written, and
//    every write is paced alike, instead of bursts at full speed between
//    slowdowns.
//
// 2. The stop pace, proportional and fast, for what the loop cannot
//    smooth. Its pressure p in [0, 1] is the largest of:
//      level 0     (files - slowdown + 1) / (stop - slowdown + 1) once level
//                  0 holds level0_slowdown_writes_trigger files;
//      debt        (pending - soft) / (hard - soft) once the estimated
//                  pending compaction bytes reach the soft limit;
//      memtables   the mutable memtable's fill fraction once the immutable
//                  ones alone would make its switch a stop (as many as
//                  max_write_buffer_number - 1): writes ease off while the
//                  flush runs instead of stopping when the memtable is full.
//    The pace is base * (1 - p)^2.
//
// Level-0 and debt pressures count only with automatic compactions on.
// The base rate is the ingest rate measured while writes were not paced (a
// maximum over samples of at least kSampleMicros that decays with a time
// constant of kBaseDecayMicros), or delayed_write_rate before any
// measurement; a delayed_write_rate that is set caps it.
//
// Pacing. The write-group leader charges each group's bytes to a virtual
// timeline that advances by bytes / rate, and waits until its slot: long
// waits sleep, the last stretch (and any wait under kSpinMicros) spins
// with a yield, so that every write is delayed by about the same amount
// rather than one write in many sleeping for a timer tick. Idle time is
// banked for at most kBankMicros, so a writer that pauses does not get a
// burst afterwards; the time before the pacing starts is not banked.
//
// Thread-safety: Update REQUIRES the DB mutex (callers read Versions and
// memtables for it) and also takes the throttle's own; Pace is called by
// write-group leaders (one at a time) and takes the pacing mutex; the rest
// is lock-free.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>

namespace strata {

class ColumnFamilyData;
class SystemClock;

struct StallPressure {
  double debt = 0;  // for the debt pace; kSetPoint is its set point
  double hard = 0;  // for the stop pace, in [0, 1]
};

// The pressures of one family (see above). REQUIRES: the DB mutex.
StallPressure WriteStallPressure(const ColumnFamilyData* cfd);

class WriteThrottle {
 public:
  static constexpr double kSetPoint = 0.25;
  // Gains of the debt pace, per second per unit of debt off the set point:
  // at debt 0 the pace rises 5% a second; at the slowdown trigger (debt
  // about 0.5 with RocksDB's default triggers) it falls 22% a second.
  static constexpr double kGainUp = 0.2;
  static constexpr double kGainDown = 1.0;
  // The slowest pace, bytes/s: under it a group's slot would be seconds
  // away, and a stop (which waits for the background work itself) is the
  // better wait.
  static constexpr double kMinRate = 16 << 10;
  static constexpr uint64_t kBankMicros = 1000;
  static constexpr uint64_t kSpinMicros = 200;
  // Shortest interval over which the unpaced ingest rate is sampled, and
  // the time constant of the base rate's decay (see Update).
  static constexpr uint64_t kSampleMicros = 200000;
  static constexpr double kBaseDecayMicros = 10e6;

  // delayed_write_rate: DBOptions::delayed_write_rate (0: 16 MiB/s).
  WriteThrottle(SystemClock* clock, uint64_t delayed_write_rate);

  // SetDBOptions changed delayed_write_rate.
  void SetDelayedWriteRate(uint64_t rate) {
    delayed_write_rate_.store(rate, std::memory_order_relaxed);
  }

  // Sets the pressures (the largest over the families), and whether some
  // family's memtable must be watched on every write (its immutable
  // memtables are at the limit); moves the debt pace. Called after every
  // flush, compaction, memtable switch and option change.
  void Update(StallPressure pressure, bool watch_memtables);

  // Whether a write leader must call Pace. Lock-free; read on every write.
  bool Active() const { return active_.load(std::memory_order_acquire); }
  bool WatchMemtables() const { return watch_memtables_.load(std::memory_order_acquire); }

  // Counts bytes written (by every leader, paced or not): the base rate is
  // measured from it.
  void AddIngest(uint64_t bytes) { ingested_.fetch_add(bytes, std::memory_order_relaxed); }

  // Waits for the slot of a group of `bytes` at the slower of the debt pace
  // and the stop pace, whose memtable pressure is memtable_pressure (the
  // largest fill fraction of a watched family's memtable); returns the
  // micros waited.
  uint64_t Pace(uint64_t bytes, double memtable_pressure);

  // The stop pace under pressure p, bytes/s.
  double RateFor(double p) const;
  // The base rate, bytes/s (see above).
  double BaseRate() const;

  // The stop pressure of the last Update; the pace of the last paced write
  // (bytes/s; 0 when none since an Update left the throttle inactive); the
  // debt pace (0 when off); the measured ingest rate (0 before a sample).
  double pressure() const { return pressure_.load(std::memory_order_relaxed); }
  uint64_t rate() const { return rate_.load(std::memory_order_relaxed); }
  uint64_t debt_pace() const;
  uint64_t base_rate() const;

 private:
  SystemClock* const clock_;
  // Spinning needs a clock that moves by itself: a test's mock clock moves
  // only when slept on.
  const bool real_clock_;
  std::atomic<uint64_t> delayed_write_rate_;
  std::atomic<bool> active_{false};
  std::atomic<bool> watch_memtables_{false};
  std::atomic<double> pressure_{0};
  std::atomic<double> debt_pace_{0};
  std::atomic<uint64_t> rate_{0};
  std::atomic<uint64_t> ingested_{0};
  std::atomic<double> base_{0};

  // Update's state.
  std::mutex update_mu_;
  uint64_t sample_start_micros_ = 0;
  uint64_t sample_start_bytes_ = 0;
  uint64_t last_update_micros_ = 0;

  // Set when the pacing starts: the timeline restarts at the next slot.
  std::atomic<bool> restart_timeline_{false};
  // The virtual timeline (leaders only).
  std::mutex pace_mu_;
  uint64_t next_nanos_ = 0;  // the next free slot, NowNanos time
};

}  // namespace strata
