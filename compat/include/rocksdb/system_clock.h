// rocksdb/system_clock.h: RocksDB's SystemClock (wall time, monotonic time,
// sleeping) with RocksDB 7.8.3's signatures. SystemClock::Default() is
// Strata's process-wide clock; a clock given to an Env (Env(fs, clock), or
// an Env subclass's own NowMicros & co., which RocksDB's and this layer's
// Env() constructor turn into its clock) is the clock the engine uses for a
// database opened with that Env.
//
// Thread-safety: implementations must be thread-safe.
#pragma once

#include <stdint.h>

#include <memory>
#include <string>

#include "rocksdb/customizable.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/status.h"

namespace rocksdb {
struct ConfigOptions;

class SystemClock : public Customizable {
 public:
  ~SystemClock() override {}

  static const char* Type() { return "SystemClock"; }
  // Loading a clock by name (RocksDB's object registry): NotSupported.
  static Status CreateFromString(const ConfigOptions& options, const std::string& value,
                                 std::shared_ptr<SystemClock>* result);
  const char* Name() const override = 0;
  static const char* kDefaultName() { return "DefaultClock"; }

  // The process-wide real clock (Strata's); never destroyed.
  static const std::shared_ptr<SystemClock>& Default();

  // Wall-clock microseconds since the epoch.
  virtual uint64_t NowMicros() = 0;
  // Monotonic nanoseconds, for intervals.
  virtual uint64_t NowNanos() { return NowMicros() * 1000; }
  // CPU time of the calling thread; 0 when the clock cannot tell.
  virtual uint64_t CPUMicros() { return 0; }
  virtual uint64_t CPUNanos() { return CPUMicros() * 1000; }
  virtual void SleepForMicroseconds(int micros) = 0;
  // Seconds since the epoch.
  virtual Status GetCurrentTime(int64_t* unix_time) = 0;
  // "YYYY/MM/DD-HH:MM:SS" (local time) for seconds since the epoch.
  virtual std::string TimeToString(uint64_t time) = 0;
};

// Forwards every call to another clock; subclass it to change some.
class SystemClockWrapper : public SystemClock {
 public:
  explicit SystemClockWrapper(const std::shared_ptr<SystemClock>& t);

  const char* Name() const override { return target_->Name(); }
  uint64_t NowMicros() override { return target_->NowMicros(); }
  uint64_t NowNanos() override { return target_->NowNanos(); }
  uint64_t CPUMicros() override { return target_->CPUMicros(); }
  uint64_t CPUNanos() override { return target_->CPUNanos(); }
  void SleepForMicroseconds(int micros) override { return target_->SleepForMicroseconds(micros); }
  Status GetCurrentTime(int64_t* unix_time) override { return target_->GetCurrentTime(unix_time); }
  std::string TimeToString(uint64_t time) override { return target_->TimeToString(time); }

  // Makes the target SystemClock::Default() when none was given.
  Status PrepareOptions(const ConfigOptions& options) override;
  // The wrapper's options, then "target=<the target's>" unless the target is
  // the default clock or the depth is shallow.
  std::string SerializeOptions(const ConfigOptions& config_options,
                               const std::string& header) const override;
  const Customizable* Inner() const override { return target_.get(); }

 protected:
  std::shared_ptr<SystemClock> target_;
};

}  // namespace rocksdb
