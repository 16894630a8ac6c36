// WalManager (see the header): listing, archiving and purging WAL files.
#include "db/wal_manager.h"

#include <algorithm>
#include <cinttypes>
#include <vector>

#include "db/filename.h"
#include "db/log_reader.h"
#include "db/transaction_log_impl.h"
#include "db/write_batch_internal.h"
#include "util/coding.h"

namespace strata {

namespace {

constexpr const char* kArchivalDirName = "archive";
// RocksDB's kDefaultIntervalToDeleteObsoleteWAL.
constexpr uint64_t kDefaultPurgeIntervalSeconds = 600;

std::string NumberedLogName(uint64_t number) {
  char buf[32];
  snprintf(buf, sizeof(buf), "%06" PRIu64 ".log", number);
  return buf;
}

}  // namespace

std::string ArchivalDirectory(const std::string& dbname) { return dbname + "/" + kArchivalDirName; }

std::string ArchivedLogFileName(const std::string& dbname, uint64_t number) {
  return ArchivalDirectory(dbname) + "/" + NumberedLogName(number);
}

std::string LogFileImpl::PathName() const {
  if (type_ == kArchivedLogFile)
    return std::string("/") + kArchivalDirName + "/" + NumberedLogName(number_);
  return "/" + NumberedLogName(number_);
}

WalManager::WalManager(FileSystem* fs, SystemClock* clock, Logger* info_log, std::string dbname,
                       uint64_t ttl_seconds, uint64_t size_limit_mb)
    : fs_(fs),
      clock_(clock),
      info_log_(info_log),
      dbname_(std::move(dbname)),
      ttl_seconds_(ttl_seconds),
      size_limit_mb_(size_limit_mb) {}

uint64_t WalManager::PurgeIntervalSeconds() const {
  if (!archiving()) return 0;
  if (ttl_seconds_ > 0 && size_limit_mb_ == 0) return std::max<uint64_t>(1, ttl_seconds_ / 2);
  return kDefaultPurgeIntervalSeconds;
}

std::string WalManager::PathOf(uint64_t number, WalFileType type) const {
  return type == kArchivedLogFile ? ArchivedLogFileName(dbname_, number)
                                  : LogFileName(dbname_, number);
}

Status WalManager::ArchiveWALFile(uint64_t number) {
  Status s = fs_->CreateDirIfMissing(ArchivalDirectory(dbname_));
  if (s.ok())
    s = fs_->RenameFile(LogFileName(dbname_, number), ArchivedLogFileName(dbname_, number));
  Log(info_log_, "moved WAL %06" PRIu64 ".log to archive/: %s", number, s.ToString().c_str());
  return s;
}

void WalManager::PurgeObsoleteWALFiles(bool force) {
  if (!archiving()) return;
  int64_t now_signed = 0;
  if (!clock_->GetCurrentTime(&now_signed).ok()) return;
  const uint64_t now = static_cast<uint64_t>(now_signed);
  {
    MutexLock l(&mu_);
    if (!force && purge_last_run_ != 0 && purge_last_run_ + PurgeIntervalSeconds() > now) return;
    purge_last_run_ = now;
  }
  const std::string dir = ArchivalDirectory(dbname_);
  std::vector<std::string> children;
  if (!fs_->GetChildren(dir, &children).ok()) return;  // no archive yet
  // What survives the TTL: number -> size.
  std::map<uint64_t, uint64_t> kept;
  uint64_t largest = 0;
  for (const std::string& name : children) {
    uint64_t number;
    FileType type;
    if (!ParseFileName(name, &number, &type) || type != FileType::kWalFile) continue;
    const std::string path = dir + "/" + name;
    if (ttl_seconds_ > 0) {
      uint64_t mtime = 0;
      Status s = fs_->GetFileModificationTime(path, &mtime);
      if (!s.ok()) {
        Log(InfoLogLevel::kWarn, info_log_, "archived WAL %s: no modification time: %s",
            name.c_str(), s.ToString().c_str());
        continue;
      }
      if (now > mtime && now - mtime > ttl_seconds_) {
        s = fs_->DeleteFile(path);
        Log(info_log_, "deleted archived WAL %s (older than WAL_ttl_seconds %" PRIu64 "): %s",
            name.c_str(), ttl_seconds_, s.ToString().c_str());
        if (s.ok()) {
          MutexLock l(&mu_);
          first_sequence_cache_.erase(number);
        }
        continue;
      }
    }
    if (size_limit_mb_ > 0) {
      uint64_t size = 0;
      Status s = fs_->GetFileSize(path, &size);
      if (!s.ok()) continue;
      if (size == 0) {
        // RocksDB deletes empty archived WALs under a size limit.
        s = fs_->DeleteFile(path);
        Log(info_log_, "deleted empty archived WAL %s: %s", name.c_str(), s.ToString().c_str());
        continue;
      }
      kept[number] = size;
      largest = std::max(largest, size);
    }
  }
  if (size_limit_mb_ == 0 || kept.empty()) return;
  // RocksDB's estimate: the archive may hold limit / largest files.
  const uint64_t keep = size_limit_mb_ * 1024 * 1024 / largest;
  if (kept.size() <= keep) return;
  size_t to_delete = kept.size() - static_cast<size_t>(keep);
  for (auto it = kept.begin(); it != kept.end() && to_delete > 0; ++it, --to_delete) {
    Status s = fs_->DeleteFile(ArchivedLogFileName(dbname_, it->first));
    Log(info_log_,
        "deleted archived WAL %06" PRIu64 ".log (archive over WAL_size_limit_MB %" PRIu64 "): %s",
        it->first, size_limit_mb_, s.ToString().c_str());
    if (s.ok()) {
      MutexLock l(&mu_);
      first_sequence_cache_.erase(it->first);
    }
  }
}

Status WalManager::ListWals(const std::string& dir, WalFileType type,
                            std::map<uint64_t, WalFileType>* found) {
  std::vector<std::string> children;
  Status s = fs_->GetChildren(dir, &children);
  if (!s.ok()) {
    // No archive directory is an empty archive.
    if (type == kArchivedLogFile && fs_->FileExists(dir).IsNotFound()) return Status::OK();
    return s;
  }
  for (const std::string& name : children) {
    uint64_t number;
    FileType ft;
    if (ParseFileName(name, &number, &ft) && ft == FileType::kWalFile) (*found)[number] = type;
  }
  return Status::OK();
}

Status WalManager::ReadFirstSequence(uint64_t number, WalFileType* type, SequenceNumber* seq) {
  *seq = 0;
  {
    MutexLock l(&mu_);
    auto it = first_sequence_cache_.find(number);
    if (it != first_sequence_cache_.end()) {
      // The sequence is known; where the file is now still needs a look.
      *seq = it->second;
    }
  }
  const SequenceNumber cached = *seq;
  for (int attempt = 0; attempt < 2; ++attempt) {
    const std::string path = PathOf(number, *type);
    if (cached != 0) {
      Status e = fs_->FileExists(path);
      if (e.ok()) return Status::OK();
      if (!e.IsNotFound()) return e;
    } else {
      std::unique_ptr<SequentialFile> file;
      Status s = fs_->NewSequentialFile(path, FileOptions(), &file);
      if (s.ok()) {
        // No reporter: a first record that is not complete yet (the file is
        // being written) reads as none.
        log::Reader reader(std::move(file), nullptr, /*checksum=*/true, number, path);
        Slice record;
        std::string scratch;
        if (reader.ReadRecord(&record, &scratch) && record.size() >= WriteBatchInternal::kHeader) {
          *seq = DecodeFixed64(record.data());
          MutexLock l(&mu_);
          if (*seq != 0) first_sequence_cache_[number] = *seq;
        }
        return Status::OK();
      }
      if (!fs_->FileExists(path).IsNotFound()) return s;
    }
    // Moved between the listing and now: a live WAL is archived, never the
    // other way round, but look in both places all the same.
    *type = *type == kAliveLogFile ? kArchivedLogFile : kAliveLogFile;
  }
  return Status::NotFound("WAL file is neither live nor archived", NumberedLogName(number));
}

Status WalManager::GetSortedWalFiles(VectorLogPtr* files) {
  files->clear();
  // The live directory first, the archive second: a WAL archived in
  // between shows up in the archive listing (invariant 2).
  std::map<uint64_t, WalFileType> found;
  Status s = ListWals(dbname_, kAliveLogFile, &found);
  if (s.ok()) s = ListWals(ArchivalDirectory(dbname_), kArchivedLogFile, &found);
  if (!s.ok()) return s;
  for (auto [number, type] : found) {
    SequenceNumber seq = 0;
    s = ReadFirstSequence(number, &type, &seq);
    if (s.IsNotFound()) continue;  // purged meanwhile
    if (!s.ok()) return s;
    if (seq == 0) continue;  // no batch yet (RocksDB leaves these out too)
    // The file may be archived between the lookup above and this one: look
    // in the other place before concluding it was purged.
    uint64_t size = 0;
    bool gone = false;
    for (int attempt = 0; attempt < 2; ++attempt) {
      s = fs_->GetFileSize(PathOf(number, type), &size);
      if (s.ok()) break;
      if (!fs_->FileExists(PathOf(number, type)).IsNotFound()) return s;
      gone = attempt == 1;
      type = type == kAliveLogFile ? kArchivedLogFile : kAliveLogFile;
    }
    if (gone) continue;  // purged meanwhile
    files->push_back(std::make_unique<LogFileImpl>(number, type, seq, size));
  }
  return Status::OK();
}

Status WalManager::GetUpdatesSince(SequenceNumber seq,
                                   const TransactionLogIterator::ReadOptions& options,
                                   const std::atomic<SequenceNumber>* last_sequence,
                                   std::unique_ptr<TransactionLogIterator>* iter) {
  iter->reset();
  // acquire, before the listing: every batch up to `published` is then in
  // a file the listing sees.
  const SequenceNumber published = last_sequence->load(std::memory_order_acquire);
  if (seq > published) {
    return Status::NotFound("Requested sequence not yet written in the db",
                            std::to_string(seq) + " > last sequence " + std::to_string(published));
  }
  VectorLogPtr files;
  Status s = GetSortedWalFiles(&files);
  if (!s.ok()) return s;
  const SequenceNumber start = std::max<SequenceNumber>(seq, 1);
  if (files.empty() || start < files.front()->StartSequence()) {
    return Status::NotFound(
        "Requested sequence is older than every WAL kept",
        "sequence " + std::to_string(seq) +
            (files.empty() ? std::string(", no WAL holds a batch")
                           : ", oldest WAL " + files.front()->PathName() + " starts at " +
                                 std::to_string(files.front()->StartSequence())));
  }
  // The last file starting at or before `start` holds it (if any does).
  auto it = std::upper_bound(
      files.begin(), files.end(), start,
      [](SequenceNumber v, const std::unique_ptr<LogFile>& f) { return v < f->StartSequence(); });
  files.erase(files.begin(), it - 1);
  auto impl = std::make_unique<TransactionLogIteratorImpl>(this, options, start, std::move(files),
                                                           last_sequence);
  impl->SeekToStart();
  s = impl->status();
  if (!s.ok()) return s;
  *iter = std::move(impl);
  return Status::OK();
}

}  // namespace strata
