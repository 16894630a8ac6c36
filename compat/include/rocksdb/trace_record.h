// rocksdb/trace_record.h: one recorded operation of a RocksDB 7.8.3 query
// trace (a write, a Get, an iterator seek, a MultiGet), as a Replayer hands
// them out, and the Handler that visits each kind.
//
// Strata writes no traces (DB::StartTrace answers NotSupported) and reads
// none (NewFileTraceReader, DB::NewDefaultReplayer answer NotSupported);
// the records are plain values a program may build itself, and
// NewExecutionHandler runs them against a database.
// Thread-safety: records are immutable after construction (const methods
// thread-safe); a Handler is not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"

namespace strata {
class ColumnFamilyHandle;
}  // namespace strata

namespace rocksdb {

using ColumnFamilyHandle = ::strata::ColumnFamilyHandle;
class DB;

// Kinds of trace entries. Values are RocksDB's trace file codes: never
// renumber.
enum TraceType : char {
  kTraceNone = 0,
  kTraceBegin = 1,
  kTraceEnd = 2,
  kTraceWrite = 3,
  kTraceGet = 4,
  kTraceIteratorSeek = 5,
  kTraceIteratorSeekForPrev = 6,
  kBlockTraceIndexBlock = 7,
  kBlockTraceFilterBlock = 8,
  kBlockTraceDataBlock = 9,
  kBlockTraceUncompressionDictBlock = 10,
  kBlockTraceRangeDeletionBlock = 11,
  kIOTracer = 12,
  kTraceMultiGet = 13,
  kTraceMax,
};

class GetQueryTraceRecord;
class IteratorSeekQueryTraceRecord;
class MultiGetQueryTraceRecord;
class TraceRecordResult;
class WriteQueryTraceRecord;

// Base of every record: its kind and when it was recorded (microseconds).
class TraceRecord {
 public:
  explicit TraceRecord(uint64_t timestamp);
  virtual ~TraceRecord() = default;

  virtual TraceType GetTraceType() const = 0;
  virtual uint64_t GetTimestamp() const;

  // Visits a record by its concrete kind; `result` (may be null) receives
  // what executing it produced.
  class Handler {
   public:
    virtual ~Handler() = default;
    virtual Status Handle(const WriteQueryTraceRecord& record,
                          std::unique_ptr<TraceRecordResult>* result) = 0;
    virtual Status Handle(const GetQueryTraceRecord& record,
                          std::unique_ptr<TraceRecordResult>* result) = 0;
    virtual Status Handle(const IteratorSeekQueryTraceRecord& record,
                          std::unique_ptr<TraceRecordResult>* result) = 0;
    virtual Status Handle(const MultiGetQueryTraceRecord& record,
                          std::unique_ptr<TraceRecordResult>* result) = 0;
  };

  // Calls the handler's Handle for this record's kind.
  virtual Status Accept(Handler* handler, std::unique_ptr<TraceRecordResult>* result) = 0;

  // A handler that runs each record against `db`: a write batch is
  // written, a Get / MultiGet read, a seek made on a new iterator; column
  // family ids are looked up in `handles` (the default family when
  // `handles` is empty). The caller owns the handler; db and the handles
  // must outlive it. Unknown family ids answer Corruption.
  static Handler* NewExecutionHandler(DB* db, const std::vector<ColumnFamilyHandle*>& handles);

 private:
  uint64_t timestamp_;
};

// A query (not a block or I/O record).
class QueryTraceRecord : public TraceRecord {
 public:
  explicit QueryTraceRecord(uint64_t timestamp);
};

// A write: the serialized WriteBatch (WriteBatch::Data()).
class WriteQueryTraceRecord : public QueryTraceRecord {
 public:
  WriteQueryTraceRecord(PinnableSlice&& write_batch_rep, uint64_t timestamp);
  WriteQueryTraceRecord(const std::string& write_batch_rep, uint64_t timestamp);
  virtual ~WriteQueryTraceRecord() override;

  TraceType GetTraceType() const override { return kTraceWrite; }
  virtual Slice GetWriteBatchRep() const;
  Status Accept(Handler* handler, std::unique_ptr<TraceRecordResult>* result) override;

 private:
  PinnableSlice rep_;
};

// A point lookup of `key` in the family with this id.
class GetQueryTraceRecord : public QueryTraceRecord {
 public:
  GetQueryTraceRecord(uint32_t column_family_id, PinnableSlice&& key, uint64_t timestamp);
  GetQueryTraceRecord(uint32_t column_family_id, const std::string& key, uint64_t timestamp);
  virtual ~GetQueryTraceRecord() override;

  TraceType GetTraceType() const override { return kTraceGet; }
  virtual uint32_t GetColumnFamilyID() const;
  virtual Slice GetKey() const;
  Status Accept(Handler* handler, std::unique_ptr<TraceRecordResult>* result) override;

 private:
  uint32_t cf_id_;
  PinnableSlice key_;
};

// An iterator operation, with the iterator's bounds (empty: none).
class IteratorQueryTraceRecord : public QueryTraceRecord {
 public:
  explicit IteratorQueryTraceRecord(uint64_t timestamp);
  IteratorQueryTraceRecord(PinnableSlice&& lower_bound, PinnableSlice&& upper_bound,
                           uint64_t timestamp);
  IteratorQueryTraceRecord(const std::string& lower_bound, const std::string& upper_bound,
                           uint64_t timestamp);
  virtual ~IteratorQueryTraceRecord() override;

  virtual Slice GetLowerBound() const;
  virtual Slice GetUpperBound() const;

 private:
  PinnableSlice lower_;
  PinnableSlice upper_;
};

// Seek or SeekForPrev to `key` on a new iterator over a family.
class IteratorSeekQueryTraceRecord : public IteratorQueryTraceRecord {
 public:
  enum SeekType { kSeek = kTraceIteratorSeek, kSeekForPrev = kTraceIteratorSeekForPrev };

  IteratorSeekQueryTraceRecord(SeekType seekType, uint32_t column_family_id, PinnableSlice&& key,
                               uint64_t timestamp);
  IteratorSeekQueryTraceRecord(SeekType seekType, uint32_t column_family_id, const std::string& key,
                               uint64_t timestamp);
  IteratorSeekQueryTraceRecord(SeekType seekType, uint32_t column_family_id, PinnableSlice&& key,
                               PinnableSlice&& lower_bound, PinnableSlice&& upper_bound,
                               uint64_t timestamp);
  IteratorSeekQueryTraceRecord(SeekType seekType, uint32_t column_family_id, const std::string& key,
                               const std::string& lower_bound, const std::string& upper_bound,
                               uint64_t timestamp);
  virtual ~IteratorSeekQueryTraceRecord() override;

  TraceType GetTraceType() const override;
  virtual SeekType GetSeekType() const;
  virtual uint32_t GetColumnFamilyID() const;
  virtual Slice GetKey() const;
  Status Accept(Handler* handler, std::unique_ptr<TraceRecordResult>* result) override;

 private:
  SeekType type_;
  uint32_t cf_id_;
  PinnableSlice key_;
};

// A MultiGet: keys[i] is read from the family column_family_ids[i].
class MultiGetQueryTraceRecord : public QueryTraceRecord {
 public:
  MultiGetQueryTraceRecord(std::vector<uint32_t> column_family_ids,
                           std::vector<PinnableSlice>&& keys, uint64_t timestamp);
  MultiGetQueryTraceRecord(std::vector<uint32_t> column_family_ids,
                           const std::vector<std::string>& keys, uint64_t timestamp);
  virtual ~MultiGetQueryTraceRecord() override;

  TraceType GetTraceType() const override { return kTraceMultiGet; }
  virtual std::vector<uint32_t> GetColumnFamilyIDs() const;
  virtual std::vector<Slice> GetKeys() const;
  Status Accept(Handler* handler, std::unique_ptr<TraceRecordResult>* result) override;

 private:
  std::vector<uint32_t> cf_ids_;
  std::vector<PinnableSlice> keys_;
};

}  // namespace rocksdb
