// WAL files and the WAL tail: DB::GetSortedWalFiles lists the WAL files
// (live ones in the DB directory, obsolete ones kept in archive/ while
// WAL_ttl_seconds or WAL_size_limit_MB says so), and DB::GetUpdatesSince
// returns a TransactionLogIterator that reads the write batches from a
// sequence number on, across WAL files -- what a replica applies to follow
// a primary. Names and semantics are RocksDB's (rocksdb/transaction_log.h).
//
// Thread-safety: a LogFile is immutable; a TransactionLogIterator is used
// by one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "strata/export.h"
#include "strata/status.h"
#include "strata/write_batch.h"

namespace strata {

enum WalFileType {
  kArchivedLogFile = 0,  // in <db>/archive/, no longer needed by the DB
  kAliveLogFile = 1      // in the DB directory
};

class STRATA_EXPORT LogFile {
 public:
  LogFile() = default;
  virtual ~LogFile() = default;
  // The path relative to the DB directory: "/000012.log" or
  // "/archive/000012.log".
  virtual std::string PathName() const = 0;
  virtual uint64_t LogNumber() const = 0;
  virtual WalFileType Type() const = 0;
  // The sequence number of the first write batch in the file (0 when the
  // file holds none).
  virtual uint64_t StartSequence() const = 0;
  virtual uint64_t SizeFileBytes() const = 0;
};

using VectorLogPtr = std::vector<std::unique_ptr<LogFile>>;

// One write batch of the WAL and the sequence number of its first record.
// Movable, not copyable (the batch is owned); a moved-from result keeps
// its sequence and has no batch.
struct STRATA_EXPORT BatchResult {
  uint64_t sequence = 0;
  std::unique_ptr<WriteBatch> writeBatchPtr;

  BatchResult() {}
  ~BatchResult() {}
  BatchResult(const BatchResult&) = delete;
  BatchResult& operator=(const BatchResult&) = delete;
  BatchResult(BatchResult&& other) noexcept
      : sequence(other.sequence), writeBatchPtr(std::move(other.writeBatchPtr)) {}
  BatchResult& operator=(BatchResult&& other) noexcept {
    sequence = other.sequence;
    writeBatchPtr = std::move(other.writeBatchPtr);
    return *this;
  }
};

class STRATA_EXPORT TransactionLogIterator {
 public:
  TransactionLogIterator() = default;
  virtual ~TransactionLogIterator() = default;
  // Whether GetBatch may be called. False at the end of what is written so
  // far (status() OK: call GetUpdatesSince again later) or on an error.
  virtual bool Valid() = 0;
  virtual void Next() = 0;
  // Not OK when the WAL cannot continue: a gap in the sequence numbers (a
  // WAL file was deleted before it was read) is Corruption naming the
  // sequence expected and the one found; a damaged record is Corruption
  // naming the file and offset.
  virtual Status status() = 0;
  virtual BatchResult GetBatch() = 0;

  struct ReadOptions {
    bool verify_checksums_ = true;
    ReadOptions() = default;
    explicit ReadOptions(bool verify_checksums) : verify_checksums_(verify_checksums) {}
  };
};

}  // namespace strata
