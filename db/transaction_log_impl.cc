// TransactionLogIteratorImpl (see the header).
#include "db/transaction_log_impl.h"

#include <cinttypes>

#include "db/wal_manager.h"
#include "db/write_batch_internal.h"

namespace strata {

TransactionLogIteratorImpl::TransactionLogIteratorImpl(
    WalManager* wals, const ReadOptions& options, SequenceNumber start, VectorLogPtr files,
    const std::atomic<SequenceNumber>* last_sequence)
    : wals_(wals),
      options_(options),
      start_(start),
      files_(std::move(files)),
      last_sequence_(last_sequence) {}

TransactionLogIteratorImpl::~TransactionLogIteratorImpl() = default;

void TransactionLogIteratorImpl::SeekToStart() {
  valid_ = false;
  while (true) {
    const ReadResult r = ReadNextBatch();
    if (r != ReadResult::kBatch) return;
    const SequenceNumber count = WriteBatchInternal::Count(batch_.get());
    if (count == 0 || current_batch_seq_ + count - 1 < start_) continue;  // before start_
    if (current_batch_seq_ > start_) {
      // Nothing holds start_: the batches before it are gone.
      SequenceMismatch(start_, current_batch_seq_);
      return;
    }
    started_ = true;
    valid_ = true;
    return;
  }
}

void TransactionLogIteratorImpl::Next() {
  valid_ = false;
  if (!status_.ok()) return;
  if (!started_) {
    // The start was not written yet when we looked: look again.
    SeekToStart();
    return;
  }
  valid_ = ReadNextBatch() == ReadResult::kBatch;
}

BatchResult TransactionLogIteratorImpl::GetBatch() {
  BatchResult r;
  r.sequence = current_batch_seq_;
  r.writeBatchPtr = std::move(batch_);
  return r;
}

void TransactionLogIteratorImpl::SequenceMismatch(SequenceNumber expected, SequenceNumber found) {
  valid_ = false;
  status_ = Status::Corruption(
      "Sequence mismatch in the WAL (a WAL file was deleted before it was read, or writes "
      "skipped the WAL)",
      "expected sequence " + std::to_string(expected) + ", found " + std::to_string(found) +
          " in " + reader_path_);
}

Status TransactionLogIteratorImpl::OpenReader(bool* vanished) {
  *vanished = false;
  const LogFile& f = *files_[index_];
  WalFileType type = f.Type();
  Status s;
  std::unique_ptr<SequentialFile> file;
  // acquire: every batch up to reader_limit_ is in the file before we open
  // it (the writer appends, then publishes).
  reader_limit_ = last_sequence_->load(std::memory_order_acquire);
  // Wherever it is now: a live WAL may have been archived since it was
  // listed (and the reverse is looked at too, for symmetry).
  for (int attempt = 0; attempt < 2; ++attempt) {
    reader_path_ = wals_->PathOf(f.LogNumber(), type);
    s = wals_->fs()->NewSequentialFile(reader_path_, FileOptions(), &file);
    if (s.ok() || !wals_->fs()->FileExists(reader_path_).IsNotFound()) break;
    type = type == kAliveLogFile ? kArchivedLogFile : kAliveLogFile;
  }
  if (!s.ok()) {
    if (wals_->fs()->FileExists(reader_path_).IsNotFound()) {
      *vanished = true;
      return Status::OK();
    }
    return s;
  }
  reporter_ = log::FirstDamageReporter();
  reader_ = std::make_unique<log::Reader>(std::move(file), &reporter_, options_.verify_checksums_,
                                          f.LogNumber(), reader_path_);
  if (offset_ > 0) {
    s = reader_->SkipTo(offset_);
    if (!s.ok()) reader_.reset();
  }
  return s;
}

bool TransactionLogIteratorImpl::RefreshFileList() {
  VectorLogPtr fresh;
  Status s = wals_->GetSortedWalFiles(&fresh);
  if (!s.ok()) return false;  // retried at the next call
  const uint64_t last = files_.empty() ? 0 : files_.back()->LogNumber();
  bool added = false;
  for (auto& f : fresh) {
    if (f->LogNumber() > last) {
      files_.push_back(std::move(f));
      added = true;
    }
  }
  return added;
}

TransactionLogIteratorImpl::ReadResult TransactionLogIteratorImpl::ReadNextBatch() {
  while (true) {
    if (index_ >= files_.size()) {
      // Every listed file is done: the sequence was published but its WAL
      // was not listed yet, or nothing more was written.
      if (!RefreshFileList()) return ReadResult::kEnd;
      continue;
    }
    if (reader_ == nullptr) {
      complete_ = index_ + 1 < files_.size();
      bool vanished = false;
      Status s = OpenReader(&vanished);
      if (!s.ok()) {
        status_ = s;
        return ReadResult::kError;
      }
      if (vanished) {
        // Purged or deleted before we got to it: whatever it held is a gap
        // the next file's first batch shows.
        ++index_;
        offset_ = 0;
        continue;
      }
    }
    if (current_last_seq_ != 0 && current_last_seq_ >= reader_limit_) {
      // Past what the reader may trust: done if nothing more is published,
      // else read on with a fresh reader.
      const SequenceNumber published = last_sequence_->load(std::memory_order_acquire);
      reader_.reset();
      if (current_last_seq_ >= published) return ReadResult::kEnd;
      continue;
    }
    Slice record;
    if (reader_->ReadRecord(&record, &scratch_)) {
      if (!reporter_.first.ok()) {
        // Intact records follow damage: not a torn tail.
        status_ = reporter_.first;
        reader_.reset();
        return ReadResult::kError;
      }
      if (record.size() < WriteBatchInternal::kHeader) {
        status_ = Status::Corruption(
            "WAL record too small for a write batch",
            reader_path_ + " offset " + std::to_string(reader_->LastRecordOffset()));
        reader_.reset();
        return ReadResult::kError;
      }
      auto batch = std::make_unique<WriteBatch>();
      Status s = WriteBatchInternal::SetContents(batch.get(), record);
      if (!s.ok()) {
        status_ = Status::Corruption(
            s.getState(), reader_path_ + " offset " + std::to_string(reader_->LastRecordOffset()));
        reader_.reset();
        return ReadResult::kError;
      }
      offset_ = reader_->LastRecordEndOffset();
      const SequenceNumber seq = WriteBatchInternal::Sequence(batch.get());
      const SequenceNumber count = WriteBatchInternal::Count(batch.get());
      if (current_last_seq_ != 0 && seq != current_last_seq_ + 1) {
        // Once anything was read, batches continue each other.
        SequenceMismatch(current_last_seq_ + 1, seq);
        reader_.reset();
        return ReadResult::kError;
      }
      batch_ = std::move(batch);
      current_batch_seq_ = seq;
      current_last_seq_ = count > 0 ? seq + count - 1 : seq - 1;
      return ReadResult::kBatch;
    }
    // No more records in this file (a damaged tail with nothing after it
    // counts as a torn write; a gap it hides shows at the next batch).
    reader_.reset();
    if (complete_) {
      ++index_;
      offset_ = 0;
      continue;
    }
    // The last file known. If a newer WAL exists now, this one is
    // complete; read it once more from here (the writer may have appended
    // after the end we saw) and then move on.
    if (index_ + 1 < files_.size() || RefreshFileList()) {
      complete_ = true;
      bool vanished = false;
      Status s = OpenReader(&vanished);
      if (!s.ok()) {
        status_ = s;
        return ReadResult::kError;
      }
      if (vanished) {
        ++index_;
        offset_ = 0;
      }
      // complete_ stays true for the reopened reader (OpenReader keeps it).
      continue;
    }
    return ReadResult::kEnd;
  }
}

}  // namespace strata
