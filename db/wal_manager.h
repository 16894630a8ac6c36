// WalManager: the WAL files as replication sees them -- the live ones in
// the DB directory and the archived ones in <db>/archive/ -- for
// DB::GetSortedWalFiles, DB::GetUpdatesSince and the archive's upkeep
// (DBOptions::WAL_ttl_seconds, WAL_size_limit_MB). It works on the
// directory only; which WALs are obsolete is the DB's business
// (DBImpl::DeleteObsoleteFiles hands them to ArchiveWALFile).
//
// Archive rules (RocksDB 7.8.3's, docs/design/wal-tailing.md):
//  - With WAL_ttl_seconds > 0 or WAL_size_limit_MB > 0 an obsolete WAL is
//    renamed to archive/NNNNNN.log instead of deleted.
//  - PurgeObsoleteWALFiles runs at most once per interval: WAL_ttl_seconds
//    / 2 when only the TTL is set, else 600 s. It deletes archived WALs
//    whose modification time is more than WAL_ttl_seconds ago, then, with a
//    size limit, empty ones and the oldest while there are more than
//    limit / (largest archived file's size) of them.
//
// Thread-safety: thread-safe (an internal mutex guards the first-sequence
// cache and the purge clock; no lock is held during file I/O).
// Invariants:
//  1. A cached first sequence is never 0: a WAL with no complete first
//     record may still get one and is read again next time.
//  2. GetSortedWalFiles lists every WAL once, ascending by number, an
//     archived copy winning over a stale live listing (the directory is
//     listed before the archive, so a WAL moved in between is still seen).
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "base/dbformat.h"
#include "strata/env.h"
#include "strata/transaction_log.h"
#include "util/mutex.h"

namespace strata {

// <db>/archive and <db>/archive/NNNNNN.log (RocksDB's names).
std::string ArchivalDirectory(const std::string& dbname);
std::string ArchivedLogFileName(const std::string& dbname, uint64_t number);

// A LogFile of GetSortedWalFiles / GetCurrentWalFile: plain values.
class LogFileImpl final : public LogFile {
 public:
  LogFileImpl(uint64_t number, WalFileType type, SequenceNumber start, uint64_t size)
      : number_(number), type_(type), start_(start), size_(size) {}
  std::string PathName() const override;
  uint64_t LogNumber() const override { return number_; }
  WalFileType Type() const override { return type_; }
  uint64_t StartSequence() const override { return start_; }
  uint64_t SizeFileBytes() const override { return size_; }

 private:
  const uint64_t number_;
  const WalFileType type_;
  const SequenceNumber start_;
  const uint64_t size_;
};

class WalManager {
 public:
  // fs, clock, info_log: borrowed, outlive this. ttl_seconds and
  // size_limit_mb: DBOptions::WAL_ttl_seconds and WAL_size_limit_MB.
  WalManager(FileSystem* fs, SystemClock* clock, Logger* info_log, std::string dbname,
             uint64_t ttl_seconds, uint64_t size_limit_mb);

  WalManager(const WalManager&) = delete;
  WalManager& operator=(const WalManager&) = delete;

  // Whether obsolete WALs are archived (either option > 0).
  bool archiving() const { return ttl_seconds_ > 0 || size_limit_mb_ > 0; }
  // How often PurgeObsoleteWALFiles does its work, in seconds (0: never).
  uint64_t PurgeIntervalSeconds() const;

  // Renames <db>/NNNNNN.log to <db>/archive/NNNNNN.log (creating the
  // directory). The file may be open for reading or writing meanwhile.
  Status ArchiveWALFile(uint64_t number);

  // Applies the TTL and size limit to the archive, unless the last run was
  // less than PurgeIntervalSeconds() ago (force: run anyway). Failures are
  // logged; the next run tries again.
  void PurgeObsoleteWALFiles(bool force = false);

  // Every WAL holding at least one batch, live and archived, ascending by
  // number (= by start sequence). A WAL that vanishes while it is listed
  // (purged) is left out.
  Status GetSortedWalFiles(VectorLogPtr* files);

  // The sequence of the first batch of WAL `number`, looked for first where
  // *type says and then in the other place (*type updated); 0 when it holds
  // no complete batch yet. NotFound when the file is in neither place.
  Status ReadFirstSequence(uint64_t number, WalFileType* type, SequenceNumber* seq);

  // The iterator of DB::GetUpdatesSince (see there). last_sequence: the
  // DB's published last sequence, read with acquire; it bounds what the
  // iterator reads (records past it may be half written). Borrowed; the DB
  // outlives the iterator (RocksDB's contract).
  Status GetUpdatesSince(SequenceNumber seq, const TransactionLogIterator::ReadOptions& options,
                         const std::atomic<SequenceNumber>* last_sequence,
                         std::unique_ptr<TransactionLogIterator>* iter);

  // Path of WAL `number` of `type`.
  std::string PathOf(uint64_t number, WalFileType type) const;
  const std::string& dbname() const { return dbname_; }
  FileSystem* fs() const { return fs_; }

 private:
  // Appends the WALs of one directory to *found (number -> type).
  Status ListWals(const std::string& dir, WalFileType type, std::map<uint64_t, WalFileType>* found);

  FileSystem* const fs_;
  SystemClock* const clock_;
  Logger* const info_log_;
  const std::string dbname_;
  const uint64_t ttl_seconds_;
  const uint64_t size_limit_mb_;

  Mutex mu_;
  std::map<uint64_t, SequenceNumber> first_sequence_cache_ GUARDED_BY(mu_);
  uint64_t purge_last_run_ GUARDED_BY(mu_) = 0;  // seconds since the epoch
};

}  // namespace strata
