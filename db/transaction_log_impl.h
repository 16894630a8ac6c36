// TransactionLogIteratorImpl: the iterator of DB::GetUpdatesSince. It reads
// the write batches of the WAL files in order -- live and archived, the
// list refreshed when the last file ends -- from the batch holding the
// start sequence on, while the DB keeps appending.
//
// Reading a WAL that is being written (docs/design/wal-tailing.md):
//  - Only batches up to the DB's published last sequence are read: their
//    bytes were in the file before the sequence was published; anything
//    after may be half written (or still zeros, in an mmap-written WAL).
//  - A log::Reader buffers whole 32 KiB blocks, so bytes it buffered may be
//    older than a later published sequence. A reader is therefore trusted
//    only up to the sequence published before it was opened; past that the
//    file is opened again at the end of the last record read.
//  - A file ends when its reader returns no more records. The last listed
//    file is done only once a newer WAL is known to exist -- and then it is
//    read once more from where it stopped, since the writer may have
//    appended to it between the end seen and the switch.
//  - Consecutive batches must continue the sequence (batch sequence ==
//    previous batch's last sequence + 1). A gap -- a WAL deleted before it
//    was read, writes made with disableWAL -- is Corruption naming the
//    sequence expected, the one found and the file; damage before an
//    intact record is Corruption naming the file and offset. A damaged
//    tail with nothing after it is a torn write: the file ends there (a
//    real loss then shows as a gap).
//  - Reaching what is published: Valid() false, status() OK.
//
// Thread-safety: not thread-safe (one user at a time, RocksDB's contract).
// Invariants:
//  1. Once started_, current_last_seq_ is the last sequence of the batch
//     last returned, and every batch returned continued the one before.
//  2. offset_ is the end of the last record read from files_[index_] (0
//     before the first), where a new reader of that file resumes.
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "base/dbformat.h"
#include "db/log_reader.h"
#include "strata/transaction_log.h"

namespace strata {

class WalManager;

class TransactionLogIteratorImpl final : public TransactionLogIterator {
 public:
  // wals, last_sequence: borrowed, outlive the iterator (they belong to
  // the DB). files: the WALs from the one holding `start` on, oldest first.
  TransactionLogIteratorImpl(WalManager* wals, const ReadOptions& options, SequenceNumber start,
                             VectorLogPtr files, const std::atomic<SequenceNumber>* last_sequence);
  ~TransactionLogIteratorImpl() override;

  // Positions at the batch holding the start sequence (Valid), or at the
  // end (not Valid, OK: not written yet), or fails (status()).
  void SeekToStart();

  bool Valid() override { return valid_; }
  void Next() override;
  Status status() override { return status_; }
  // Hands over the current batch (RocksDB's too): a second call at the same
  // position returns a null batch. REQUIRES: Valid().
  BatchResult GetBatch() override;

 private:
  enum class ReadResult { kBatch, kEnd, kError };
  // Reads the next batch into batch_ (checking continuity once started_).
  ReadResult ReadNextBatch();
  // Opens files_[index_] at offset_ (live or archived, wherever it is now).
  // *vanished: in neither place.
  Status OpenReader(bool* vanished);
  // Appends WALs newer than the last listed one; true if any were found.
  bool RefreshFileList();
  // Sets status_ to Corruption for a sequence gap.
  void SequenceMismatch(SequenceNumber expected, SequenceNumber found);

  WalManager* const wals_;
  const ReadOptions options_;
  const SequenceNumber start_;
  VectorLogPtr files_;
  const std::atomic<SequenceNumber>* const last_sequence_;

  size_t index_ = 0;
  uint64_t offset_ = 0;
  // files_[index_] is known complete: a newer WAL existed when its reader
  // was opened.
  bool complete_ = false;
  std::unique_ptr<log::Reader> reader_;
  log::FirstDamageReporter reporter_;
  std::string reader_path_;
  // The published sequence read just before reader_ was opened (invariant
  // of the header: the reader is trusted up to it).
  SequenceNumber reader_limit_ = 0;
  std::string scratch_;

  bool started_ = false;
  bool valid_ = false;
  Status status_;
  SequenceNumber current_batch_seq_ = 0;
  SequenceNumber current_last_seq_ = 0;  // 0: no batch read yet
  std::unique_ptr<WriteBatch> batch_;
};

}  // namespace strata
