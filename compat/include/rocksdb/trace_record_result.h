// rocksdb/trace_record_result.h: what executing a trace record produced
// (RocksDB 7.8.3's classes): a status only (a write), one value (a Get),
// several (a MultiGet), or an iterator's position (a seek), each with the
// start and end time of the execution, in microseconds.
// Plain values built by TraceRecord::NewExecutionHandler's handler or by a
// program; a Handler visits them by kind.
// Thread-safety: immutable after construction (const methods thread-safe).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "rocksdb/trace_record.h"

namespace rocksdb {

class IteratorTraceExecutionResult;
class MultiValuesTraceExecutionResult;
class SingleValueTraceExecutionResult;
class StatusOnlyTraceExecutionResult;

class TraceRecordResult {
 public:
  explicit TraceRecordResult(TraceType trace_type);
  virtual ~TraceRecordResult() = default;

  // The kind of record this is the result of.
  virtual TraceType GetTraceType() const;

  class Handler {
   public:
    virtual ~Handler() = default;
    virtual Status Handle(const StatusOnlyTraceExecutionResult& result) = 0;
    virtual Status Handle(const SingleValueTraceExecutionResult& result) = 0;
    virtual Status Handle(const MultiValuesTraceExecutionResult& result) = 0;
    virtual Status Handle(const IteratorTraceExecutionResult& result) = 0;
  };

  // Calls the handler's Handle for this result's kind.
  virtual Status Accept(Handler* handler) = 0;

 private:
  TraceType trace_type_;
};

// A result with the execution's start and end times.
class TraceExecutionResult : public TraceRecordResult {
 public:
  TraceExecutionResult(uint64_t start_timestamp, uint64_t end_timestamp, TraceType trace_type);

  virtual uint64_t GetStartTimestamp() const;
  virtual uint64_t GetEndTimestamp() const;
  inline uint64_t GetLatency() const { return GetEndTimestamp() - GetStartTimestamp(); }

 private:
  uint64_t ts_start_;
  uint64_t ts_end_;
};

// A write's result: its status.
class StatusOnlyTraceExecutionResult : public TraceExecutionResult {
 public:
  StatusOnlyTraceExecutionResult(Status status, uint64_t start_timestamp, uint64_t end_timestamp,
                                 TraceType trace_type);
  virtual ~StatusOnlyTraceExecutionResult() override = default;

  virtual const Status& GetStatus() const;
  virtual Status Accept(Handler* handler) override;

 private:
  Status status_;
};

// A Get's result: its status and the value found (empty when none).
class SingleValueTraceExecutionResult : public TraceExecutionResult {
 public:
  SingleValueTraceExecutionResult(Status status, const std::string& value, uint64_t start_timestamp,
                                  uint64_t end_timestamp, TraceType trace_type);
  SingleValueTraceExecutionResult(Status status, std::string&& value, uint64_t start_timestamp,
                                  uint64_t end_timestamp, TraceType trace_type);
  virtual ~SingleValueTraceExecutionResult() override;

  virtual const Status& GetStatus() const;
  virtual const std::string& GetValue() const;
  virtual Status Accept(Handler* handler) override;

 private:
  Status status_;
  std::string value_;
};

// A MultiGet's result: a status and a value per key.
class MultiValuesTraceExecutionResult : public TraceExecutionResult {
 public:
  MultiValuesTraceExecutionResult(std::vector<Status> multi_status, std::vector<std::string> values,
                                  uint64_t start_timestamp, uint64_t end_timestamp,
                                  TraceType trace_type);
  virtual ~MultiValuesTraceExecutionResult() override;

  virtual const std::vector<Status>& GetMultiStatus() const;
  virtual const std::vector<std::string>& GetValues() const;
  virtual Status Accept(Handler* handler) override;

 private:
  std::vector<Status> multi_status_;
  std::vector<std::string> values_;
};

// A seek's result: whether the iterator was valid, its status, and the
// entry it was at (empty when not valid).
class IteratorTraceExecutionResult : public TraceExecutionResult {
 public:
  IteratorTraceExecutionResult(bool valid, Status status, PinnableSlice&& key,
                               PinnableSlice&& value, uint64_t start_timestamp,
                               uint64_t end_timestamp, TraceType trace_type);
  IteratorTraceExecutionResult(bool valid, Status status, const std::string& key,
                               const std::string& value, uint64_t start_timestamp,
                               uint64_t end_timestamp, TraceType trace_type);
  virtual ~IteratorTraceExecutionResult() override;

  virtual bool GetValid() const;
  virtual const Status& GetStatus() const;
  virtual Slice GetKey() const;
  virtual Slice GetValue() const;
  virtual Status Accept(Handler* handler) override;

 private:
  bool valid_;
  Status status_;
  PinnableSlice key_;
  PinnableSlice value_;
};

}  // namespace rocksdb
