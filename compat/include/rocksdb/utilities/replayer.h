// rocksdb/utilities/replayer.h: RocksDB 7.8.3's Replayer, which reads a
// query trace and runs its records against a database, and ReplayOptions.
// Strata makes no Replayer (DB::NewDefaultReplayer answers NotSupported);
// a program may implement the interface, e.g. over
// TraceRecord::NewExecutionHandler.
// Thread-safety: an implementation's own.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/status.h"

namespace rocksdb {

class TraceRecord;
class TraceRecordResult;

struct ReplayOptions {
  uint32_t num_threads;  // threads running records at once (0 counts as 1)
  double fast_forward;   // > 0: divides the recorded gaps between records
  ReplayOptions() : num_threads(1), fast_forward(1.0) {}
  ReplayOptions(uint32_t num_of_threads, double fast_forward_ratio)
      : num_threads(num_of_threads), fast_forward(fast_forward_ratio) {}
};

class Replayer {
 public:
  virtual ~Replayer() = default;
  // Reads the trace's header; call before the others (and to start over).
  virtual Status Prepare() = 0;
  // The header's time (microseconds). REQUIRES: Prepare() succeeded.
  virtual uint64_t GetHeaderTimestamp() const = 0;
  // The next record; Incomplete at the end of the trace.
  virtual Status Next(std::unique_ptr<TraceRecord>* record) = 0;
  // Runs one record; *result (may be null) gets what it produced.
  virtual Status Execute(const std::unique_ptr<TraceRecord>& record,
                         std::unique_ptr<TraceRecordResult>* result) = 0;
  // Runs every record, calling result_callback (may be empty) with each
  // one's status and result.
  virtual Status Replay(
      const ReplayOptions& options,
      const std::function<void(Status, std::unique_ptr<TraceRecordResult>&&)>& result_callback) = 0;
};

}  // namespace rocksdb
