// compat/trace.cc: RocksDB 7.8.3's trace records and results (plain values),
// the handler that executes records against a rocksdb::DB, and the trace
// file / block cache trace factories, which Strata does not back
// (NotSupported naming them).
#include <chrono>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "rocksdb/block_cache_trace_writer.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/system_clock.h"
#include "rocksdb/trace_reader_writer.h"
#include "rocksdb/trace_record.h"
#include "rocksdb/trace_record_result.h"
#include "rocksdb/write_batch.h"

namespace rocksdb {

namespace {

// A PinnableSlice holding its own copy of s.
PinnableSlice Copied(const std::string& s) {
  PinnableSlice p;
  p.PinSelf(s);
  return p;
}

}  // namespace

// ---- records ----

TraceRecord::TraceRecord(uint64_t timestamp) : timestamp_(timestamp) {}
uint64_t TraceRecord::GetTimestamp() const { return timestamp_; }

QueryTraceRecord::QueryTraceRecord(uint64_t timestamp) : TraceRecord(timestamp) {}

WriteQueryTraceRecord::WriteQueryTraceRecord(PinnableSlice&& write_batch_rep, uint64_t timestamp)
    : QueryTraceRecord(timestamp), rep_(std::move(write_batch_rep)) {}
WriteQueryTraceRecord::WriteQueryTraceRecord(const std::string& write_batch_rep, uint64_t timestamp)
    : QueryTraceRecord(timestamp), rep_(Copied(write_batch_rep)) {}
WriteQueryTraceRecord::~WriteQueryTraceRecord() = default;
Slice WriteQueryTraceRecord::GetWriteBatchRep() const { return rep_; }
Status WriteQueryTraceRecord::Accept(Handler* handler, std::unique_ptr<TraceRecordResult>* result) {
  if (handler == nullptr) return Status::InvalidArgument("handler is null");
  return handler->Handle(*this, result);
}

GetQueryTraceRecord::GetQueryTraceRecord(uint32_t column_family_id, PinnableSlice&& key,
                                         uint64_t timestamp)
    : QueryTraceRecord(timestamp), cf_id_(column_family_id), key_(std::move(key)) {}
GetQueryTraceRecord::GetQueryTraceRecord(uint32_t column_family_id, const std::string& key,
                                         uint64_t timestamp)
    : QueryTraceRecord(timestamp), cf_id_(column_family_id), key_(Copied(key)) {}
GetQueryTraceRecord::~GetQueryTraceRecord() = default;
uint32_t GetQueryTraceRecord::GetColumnFamilyID() const { return cf_id_; }
Slice GetQueryTraceRecord::GetKey() const { return key_; }
Status GetQueryTraceRecord::Accept(Handler* handler, std::unique_ptr<TraceRecordResult>* result) {
  if (handler == nullptr) return Status::InvalidArgument("handler is null");
  return handler->Handle(*this, result);
}

IteratorQueryTraceRecord::IteratorQueryTraceRecord(uint64_t timestamp)
    : QueryTraceRecord(timestamp) {}
IteratorQueryTraceRecord::IteratorQueryTraceRecord(PinnableSlice&& lower_bound,
                                                   PinnableSlice&& upper_bound, uint64_t timestamp)
    : QueryTraceRecord(timestamp), lower_(std::move(lower_bound)), upper_(std::move(upper_bound)) {}
IteratorQueryTraceRecord::IteratorQueryTraceRecord(const std::string& lower_bound,
                                                   const std::string& upper_bound,
                                                   uint64_t timestamp)
    : QueryTraceRecord(timestamp), lower_(Copied(lower_bound)), upper_(Copied(upper_bound)) {}
IteratorQueryTraceRecord::~IteratorQueryTraceRecord() = default;
Slice IteratorQueryTraceRecord::GetLowerBound() const { return lower_; }
Slice IteratorQueryTraceRecord::GetUpperBound() const { return upper_; }

IteratorSeekQueryTraceRecord::IteratorSeekQueryTraceRecord(SeekType seekType,
                                                           uint32_t column_family_id,
                                                           PinnableSlice&& key, uint64_t timestamp)
    : IteratorQueryTraceRecord(timestamp),
      type_(seekType),
      cf_id_(column_family_id),
      key_(std::move(key)) {}
IteratorSeekQueryTraceRecord::IteratorSeekQueryTraceRecord(SeekType seekType,
                                                           uint32_t column_family_id,
                                                           const std::string& key,
                                                           uint64_t timestamp)
    : IteratorQueryTraceRecord(timestamp),
      type_(seekType),
      cf_id_(column_family_id),
      key_(Copied(key)) {}
IteratorSeekQueryTraceRecord::IteratorSeekQueryTraceRecord(
    SeekType seekType, uint32_t column_family_id, PinnableSlice&& key, PinnableSlice&& lower_bound,
    PinnableSlice&& upper_bound, uint64_t timestamp)
    : IteratorQueryTraceRecord(std::move(lower_bound), std::move(upper_bound), timestamp),
      type_(seekType),
      cf_id_(column_family_id),
      key_(std::move(key)) {}
IteratorSeekQueryTraceRecord::IteratorSeekQueryTraceRecord(
    SeekType seekType, uint32_t column_family_id, const std::string& key,
    const std::string& lower_bound, const std::string& upper_bound, uint64_t timestamp)
    : IteratorQueryTraceRecord(lower_bound, upper_bound, timestamp),
      type_(seekType),
      cf_id_(column_family_id),
      key_(Copied(key)) {}
IteratorSeekQueryTraceRecord::~IteratorSeekQueryTraceRecord() = default;
TraceType IteratorSeekQueryTraceRecord::GetTraceType() const {
  return static_cast<TraceType>(type_);
}
IteratorSeekQueryTraceRecord::SeekType IteratorSeekQueryTraceRecord::GetSeekType() const {
  return type_;
}
uint32_t IteratorSeekQueryTraceRecord::GetColumnFamilyID() const { return cf_id_; }
Slice IteratorSeekQueryTraceRecord::GetKey() const { return key_; }
Status IteratorSeekQueryTraceRecord::Accept(Handler* handler,
                                            std::unique_ptr<TraceRecordResult>* result) {
  if (handler == nullptr) return Status::InvalidArgument("handler is null");
  return handler->Handle(*this, result);
}

MultiGetQueryTraceRecord::MultiGetQueryTraceRecord(std::vector<uint32_t> column_family_ids,
                                                   std::vector<PinnableSlice>&& keys,
                                                   uint64_t timestamp)
    : QueryTraceRecord(timestamp), cf_ids_(std::move(column_family_ids)), keys_(std::move(keys)) {}
MultiGetQueryTraceRecord::MultiGetQueryTraceRecord(std::vector<uint32_t> column_family_ids,
                                                   const std::vector<std::string>& keys,
                                                   uint64_t timestamp)
    : QueryTraceRecord(timestamp), cf_ids_(std::move(column_family_ids)) {
  keys_.reserve(keys.size());
  for (const std::string& k : keys) keys_.push_back(Copied(k));
}
MultiGetQueryTraceRecord::~MultiGetQueryTraceRecord() = default;
std::vector<uint32_t> MultiGetQueryTraceRecord::GetColumnFamilyIDs() const { return cf_ids_; }
std::vector<Slice> MultiGetQueryTraceRecord::GetKeys() const {
  return std::vector<Slice>(keys_.begin(), keys_.end());
}
Status MultiGetQueryTraceRecord::Accept(Handler* handler,
                                        std::unique_ptr<TraceRecordResult>* result) {
  if (handler == nullptr) return Status::InvalidArgument("handler is null");
  return handler->Handle(*this, result);
}

// ---- results ----

TraceRecordResult::TraceRecordResult(TraceType trace_type) : trace_type_(trace_type) {}
TraceType TraceRecordResult::GetTraceType() const { return trace_type_; }

TraceExecutionResult::TraceExecutionResult(uint64_t start_timestamp, uint64_t end_timestamp,
                                           TraceType trace_type)
    : TraceRecordResult(trace_type), ts_start_(start_timestamp), ts_end_(end_timestamp) {}
uint64_t TraceExecutionResult::GetStartTimestamp() const { return ts_start_; }
uint64_t TraceExecutionResult::GetEndTimestamp() const { return ts_end_; }

StatusOnlyTraceExecutionResult::StatusOnlyTraceExecutionResult(Status status,
                                                               uint64_t start_timestamp,
                                                               uint64_t end_timestamp,
                                                               TraceType trace_type)
    : TraceExecutionResult(start_timestamp, end_timestamp, trace_type),
      status_(std::move(status)) {}
const Status& StatusOnlyTraceExecutionResult::GetStatus() const { return status_; }
Status StatusOnlyTraceExecutionResult::Accept(Handler* handler) {
  if (handler == nullptr) return Status::InvalidArgument("handler is null");
  return handler->Handle(*this);
}

SingleValueTraceExecutionResult::SingleValueTraceExecutionResult(Status status,
                                                                 const std::string& value,
                                                                 uint64_t start_timestamp,
                                                                 uint64_t end_timestamp,
                                                                 TraceType trace_type)
    : TraceExecutionResult(start_timestamp, end_timestamp, trace_type),
      status_(std::move(status)),
      value_(value) {}
SingleValueTraceExecutionResult::SingleValueTraceExecutionResult(Status status, std::string&& value,
                                                                 uint64_t start_timestamp,
                                                                 uint64_t end_timestamp,
                                                                 TraceType trace_type)
    : TraceExecutionResult(start_timestamp, end_timestamp, trace_type),
      status_(std::move(status)),
      value_(std::move(value)) {}
SingleValueTraceExecutionResult::~SingleValueTraceExecutionResult() = default;
const Status& SingleValueTraceExecutionResult::GetStatus() const { return status_; }
const std::string& SingleValueTraceExecutionResult::GetValue() const { return value_; }
Status SingleValueTraceExecutionResult::Accept(Handler* handler) {
  if (handler == nullptr) return Status::InvalidArgument("handler is null");
  return handler->Handle(*this);
}

MultiValuesTraceExecutionResult::MultiValuesTraceExecutionResult(std::vector<Status> multi_status,
                                                                 std::vector<std::string> values,
                                                                 uint64_t start_timestamp,
                                                                 uint64_t end_timestamp,
                                                                 TraceType trace_type)
    : TraceExecutionResult(start_timestamp, end_timestamp, trace_type),
      multi_status_(std::move(multi_status)),
      values_(std::move(values)) {}
MultiValuesTraceExecutionResult::~MultiValuesTraceExecutionResult() = default;
const std::vector<Status>& MultiValuesTraceExecutionResult::GetMultiStatus() const {
  return multi_status_;
}
const std::vector<std::string>& MultiValuesTraceExecutionResult::GetValues() const {
  return values_;
}
Status MultiValuesTraceExecutionResult::Accept(Handler* handler) {
  if (handler == nullptr) return Status::InvalidArgument("handler is null");
  return handler->Handle(*this);
}

IteratorTraceExecutionResult::IteratorTraceExecutionResult(
    bool valid, Status status, PinnableSlice&& key, PinnableSlice&& value, uint64_t start_timestamp,
    uint64_t end_timestamp, TraceType trace_type)
    : TraceExecutionResult(start_timestamp, end_timestamp, trace_type),
      valid_(valid),
      status_(std::move(status)),
      key_(std::move(key)),
      value_(std::move(value)) {}
IteratorTraceExecutionResult::IteratorTraceExecutionResult(
    bool valid, Status status, const std::string& key, const std::string& value,
    uint64_t start_timestamp, uint64_t end_timestamp, TraceType trace_type)
    : TraceExecutionResult(start_timestamp, end_timestamp, trace_type),
      valid_(valid),
      status_(std::move(status)),
      key_(Copied(key)),
      value_(Copied(value)) {}
IteratorTraceExecutionResult::~IteratorTraceExecutionResult() = default;
bool IteratorTraceExecutionResult::GetValid() const { return valid_; }
const Status& IteratorTraceExecutionResult::GetStatus() const { return status_; }
Slice IteratorTraceExecutionResult::GetKey() const { return key_; }
Slice IteratorTraceExecutionResult::GetValue() const { return value_; }
Status IteratorTraceExecutionResult::Accept(Handler* handler) {
  if (handler == nullptr) return Status::InvalidArgument("handler is null");
  return handler->Handle(*this);
}

// ---- executing records ----

namespace {

// Runs records against a DB with default read and write options. Reads
// that find nothing are results (NotFound inside), not errors; results are
// made only for successful executions, as RocksDB's handler does.
class ExecutionHandler : public TraceRecord::Handler {
 public:
  ExecutionHandler(DB* db, const std::vector<ColumnFamilyHandle*>& handles) : db_(db) {
    if (handles.empty()) {
      families_[db->DefaultColumnFamily()->GetID()] = db->DefaultColumnFamily();
    }
    for (ColumnFamilyHandle* h : handles) {
      if (h != nullptr) families_[h->GetID()] = h;
    }
    Env* env = db->GetEnv();
    clock_ = env != nullptr ? env->GetSystemClock().get() : nullptr;
  }

  Status Handle(const WriteQueryTraceRecord& record,
                std::unique_ptr<TraceRecordResult>* result) override {
    if (result != nullptr) result->reset();
    const uint64_t start = Now();
    WriteBatch batch(record.GetWriteBatchRep().ToString());
    Status s = db_->Write(WriteOptions(), &batch);
    const uint64_t end = Now();
    if (s.ok() && result != nullptr) {
      result->reset(new StatusOnlyTraceExecutionResult(s, start, end, record.GetTraceType()));
    }
    return s;
  }

  Status Handle(const GetQueryTraceRecord& record,
                std::unique_ptr<TraceRecordResult>* result) override {
    if (result != nullptr) result->reset();
    ColumnFamilyHandle* cf = Family(record.GetColumnFamilyID());
    if (cf == nullptr) return Status::Corruption("Invalid Column Family ID.");
    const uint64_t start = Now();
    std::string value;
    Status s = db_->Get(ReadOptions(), cf, record.GetKey(), &value);
    const uint64_t end = Now();
    if (!s.ok() && !s.IsNotFound()) return s;
    if (result != nullptr) {
      result->reset(new SingleValueTraceExecutionResult(std::move(s), std::move(value), start, end,
                                                        record.GetTraceType()));
    } else {
      s.PermitUncheckedError();
    }
    return Status::OK();
  }

  Status Handle(const IteratorSeekQueryTraceRecord& record,
                std::unique_ptr<TraceRecordResult>* result) override {
    if (result != nullptr) result->reset();
    ColumnFamilyHandle* cf = Family(record.GetColumnFamilyID());
    if (cf == nullptr) return Status::Corruption("Invalid Column Family ID.");
    ReadOptions ro;
    const Slice lower = record.GetLowerBound();
    const Slice upper = record.GetUpperBound();
    if (!lower.empty()) ro.iterate_lower_bound = &lower;
    if (!upper.empty()) ro.iterate_upper_bound = &upper;
    std::unique_ptr<Iterator> it(db_->NewIterator(ro, cf));
    const uint64_t start = Now();
    if (record.GetSeekType() == IteratorSeekQueryTraceRecord::kSeekForPrev) {
      it->SeekForPrev(record.GetKey());
    } else {
      it->Seek(record.GetKey());
    }
    const uint64_t end = Now();
    Status s = it->status();
    if (s.ok() && result != nullptr) {
      const bool valid = it->Valid();
      result->reset(new IteratorTraceExecutionResult(
          valid, s, valid ? it->key().ToString() : std::string(),
          valid ? it->value().ToString() : std::string(), start, end, record.GetTraceType()));
    }
    return s;
  }

  Status Handle(const MultiGetQueryTraceRecord& record,
                std::unique_ptr<TraceRecordResult>* result) override {
    if (result != nullptr) result->reset();
    std::vector<ColumnFamilyHandle*> cfs;
    for (uint32_t id : record.GetColumnFamilyIDs()) {
      ColumnFamilyHandle* cf = Family(id);
      if (cf == nullptr) return Status::Corruption("Invalid Column Family ID.");
      cfs.push_back(cf);
    }
    std::vector<Slice> keys = record.GetKeys();
    if (cfs.empty() || keys.empty())
      return Status::InvalidArgument("Empty MultiGet cf_ids or keys.");
    if (cfs.size() != keys.size()) {
      return Status::InvalidArgument("MultiGet cf_ids and keys size mismatch.");
    }
    const uint64_t start = Now();
    std::vector<std::string> values;
    std::vector<Status> statuses = db_->MultiGet(ReadOptions(), cfs, keys, &values);
    const uint64_t end = Now();
    for (const Status& s : statuses) {
      if (!s.ok() && !s.IsNotFound()) return s;
    }
    if (result != nullptr) {
      result->reset(new MultiValuesTraceExecutionResult(std::move(statuses), std::move(values),
                                                        start, end, record.GetTraceType()));
    }
    return Status::OK();
  }

 private:
  ColumnFamilyHandle* Family(uint32_t id) const {
    auto it = families_.find(id);
    return it == families_.end() ? nullptr : it->second;
  }
  uint64_t Now() const {
    if (clock_ != nullptr) return clock_->NowMicros();
    return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                     std::chrono::system_clock::now().time_since_epoch())
                                     .count());
  }

  DB* const db_;
  std::unordered_map<uint32_t, ColumnFamilyHandle*> families_;
  SystemClock* clock_ = nullptr;
};

// Block cache trace writer of NewBlockCacheTraceWriter: refuses each call.
class RefusingBlockCacheTraceWriter : public BlockCacheTraceWriter {
 public:
  explicit RefusingBlockCacheTraceWriter(std::unique_ptr<TraceWriter>&& writer)
      : writer_(std::move(writer)) {}
  Status WriteBlockAccess(const BlockCacheTraceRecord& /*record*/, const Slice& /*block_key*/,
                          const Slice& /*cf_name*/, const Slice& /*referenced_key*/) override {
    return Status::NotSupported(
        "BlockCacheTraceWriter::WriteBlockAccess: Strata has no block cache trace format");
  }
  Status WriteHeader() override {
    return Status::NotSupported(
        "BlockCacheTraceWriter::WriteHeader: Strata has no block cache trace format");
  }

 private:
  std::unique_ptr<TraceWriter> writer_;
};

}  // namespace

TraceRecord::Handler* TraceRecord::NewExecutionHandler(
    DB* db, const std::vector<ColumnFamilyHandle*>& handles) {
  if (db == nullptr) return nullptr;
  return new ExecutionHandler(db, handles);
}

// ---- factories Strata does not back ----

const uint64_t BlockCacheTraceRecord::kReservedGetId = 0;

Status NewFileTraceWriter(Env* /*env*/, const EnvOptions& /*env_options*/,
                          const std::string& /*trace_filename*/,
                          std::unique_ptr<TraceWriter>* trace_writer) {
  if (trace_writer != nullptr) trace_writer->reset();
  return Status::NotSupported("NewFileTraceWriter: Strata does not write traces");
}

Status NewFileTraceReader(Env* /*env*/, const EnvOptions& /*env_options*/,
                          const std::string& /*trace_filename*/,
                          std::unique_ptr<TraceReader>* trace_reader) {
  if (trace_reader != nullptr) trace_reader->reset();
  return Status::NotSupported("NewFileTraceReader: Strata does not read traces");
}

std::unique_ptr<BlockCacheTraceWriter> NewBlockCacheTraceWriter(
    SystemClock* /*clock*/, const BlockCacheTraceWriterOptions& /*trace_options*/,
    std::unique_ptr<TraceWriter>&& trace_writer) {
  return std::make_unique<RefusingBlockCacheTraceWriter>(std::move(trace_writer));
}

}  // namespace rocksdb
