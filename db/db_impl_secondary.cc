// DBImpl: secondary instances -- DB::OpenAsSecondary and
// TryCatchUpWithPrimary (docs/design/secondary.md).
//
// A secondary is a read-only instance (OpenMode::kSecondary) that follows a
// live primary. A catch-up first tails the MANIFEST (db/manifest_tailer.h:
// new Versions with their tables pinned open), then the WALs the opened
// families still need, each from where the last catch-up stopped. Every
// memtable of a secondary holds the records of one WAL, so when a family's
// log number moves past a WAL (the primary flushed it) that WAL's memtables
// are dropped whole -- their data is in the tables of the Version installed
// in the same step. A WAL that vanishes before it is read was flushed too:
// the MANIFEST is read again and the WALs after it. Last, each family gets a
// new SuperVersion, and the last sequence (the larger of the MANIFEST's and
// the WAL records') is published, in that order: a reader holding an older
// SuperVersion with the newer sequence sees a prefix of the writes.
#include <algorithm>
#include <cinttypes>
#include <map>
#include <mutex>
#include <set>

#include "db/db_impl.h"
#include "db/filename.h"
#include "db/log_reader.h"
#include "db/manifest_tailer.h"
#include "db/memtable_inserter.h"
#include "db/write_batch_internal.h"

namespace strata {

namespace {

// Catch-up rounds (MANIFEST, then WALs) while WALs keep vanishing.
constexpr int kMaxWalRounds = 64;

}  // namespace

struct DBImpl::SecondaryState {
  // One catch-up at a time; guards the fields below.
  std::mutex catch_up_mu;
  std::unique_ptr<ManifestTailer> manifest;
  // WALs being tailed: number -> file offset just past the last record
  // applied. WALs older than every opened family's log number are dropped.
  std::map<uint64_t, uint64_t> wal_offsets;
  // WALs read to their end after the primary had moved to a newer one:
  // nothing more can come (not even read again).
  std::set<uint64_t> wals_done;
  // The largest sequence number any WAL record applied so far used.
  SequenceNumber max_wal_sequence = 0;
  // WALs found missing before the MANIFEST was last read through: skipped
  // (see TailWALs).
  std::set<uint64_t> vanished;
  // The WALs listed when the current catch-up began.
  std::set<uint64_t> at_start;
};

Status DBImpl::RecoverAsSecondary(const std::map<std::string, ColumnFamilyOptions>& by_name,
                                  std::vector<std::string>* not_found, SequenceNumber* last) {
  mu_.AssertHeld();
  // The primary may be appending to the MANIFEST (or replacing it) while it
  // is read: a record half written at that moment, or a CURRENT naming a
  // MANIFEST that just went, reads as damage that a second read does not
  // find. A failed replay changes nothing, so it is simply read again.
  Status s;
  for (int attempt = 0; attempt < 20; ++attempt) {
    s = versions_->Recover(by_name, /*allow_unopened=*/true, not_found);
    if (!s.IsCorruption()) break;
    Log(InfoLogLevel::kWarn, info_log_.get(), "secondary open: %s; reading the MANIFEST again",
        s.ToString().c_str());
    mu_.Unlock();
    clock_->SleepForMicroseconds(10000);
    mu_.Lock();
  }
  if (!s.ok()) return s;
  if (!not_found->empty()) {
    std::string list;
    for (const std::string& n : *not_found) list += (list.empty() ? "" : ", ") + n;
    return Status::InvalidArgument("Column family not found: " + list);
  }
  ColumnFamilySet* cfs = versions_->column_families();
  default_cfd_ = versions_->default_cfd();
  default_cf_ = std::make_unique<ColumnFamilyHandleImpl>(default_cfd_, nullptr, this);
  multi_cf_ = cfs->NumberOfColumnFamilies() > 1;
  write_targets_.families = cfs;
  for (ColumnFamilyData* cfd : cfs->live()) {
    cfd->mem() = new MemTable(cfd->icmp(), cfd->mem_options());
    cfd->mem_log_number() = cfd->log_number();
  }
  secondary_ = std::make_shared<SecondaryState>();
  secondary_->manifest =
      std::make_unique<ManifestTailer>(versions_.get(), fs_, dbname_, info_log_.get());
  secondary_->manifest->Start();
  // The first catch-up reads files: without the mutex (no other thread can
  // reach this instance yet).
  mu_.Unlock();
  {
    std::lock_guard<std::mutex> l(secondary_->catch_up_mu);
    s = CatchUpWithPrimary();
  }
  mu_.Lock();
  if (!s.ok()) return s;
  *last = versions_->LastSequence();
  return Status::OK();
}

Status DBImpl::TryCatchUpWithPrimary() {
  if (mode_ != OpenMode::kSecondary) return DB::TryCatchUpWithPrimary();
  {
    MutexLock l(&mu_);
    if (closed_) return Status::ShutdownInProgress("TryCatchUpWithPrimary on a closed database");
  }
  std::lock_guard<std::mutex> l(secondary_->catch_up_mu);
  return CatchUpWithPrimary();
}

Status DBImpl::CatchUpWithPrimary() {
  SecondaryState* st = secondary_.get();
  st->vanished.clear();
  // The WALs that exist now hold every write acknowledged before this
  // call that the MANIFEST read next does not show flushed.
  Status s = ListWALs(&st->at_start);
  if (!s.ok()) return s;
  for (int round = 0;; ++round) {
    s = CatchUpManifest();
    if (!s.ok()) return s;
    bool missing = false;
    s = TailWALs(&missing);
    if (!s.ok()) return s;
    if (!missing) break;
    // A WAL vanished: the MANIFEST is read again before the WALs after it.
    if (round + 1 >= kMaxWalRounds) {
      return Status::TryAgain("secondary: WALs kept disappearing before they could be read");
    }
  }
  // The MANIFEST once more: a WAL created after the first listing and
  // deleted before the second (so never read) had its flush recorded before
  // it went -- by now. Without this its writes could be missing while later
  // ones (in WALs read) are there.
  s = CatchUpManifest();
  if (!s.ok()) return s;
  MutexLock l(&mu_);
  for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
    DropFlushedMemtables(cfd);
    InstallNewSuperVersion(cfd);
  }
  // Published after the SuperVersions (see the top of this file).
  const SequenceNumber last = std::max(versions_->LastSequence(), st->max_wal_sequence);
  versions_->SetLastSequence(last);
  last_allocated_sequence_ = last;
  last_sequence_.store(last, std::memory_order_release);
  st->manifest->EvictUnusedTables();
  ScheduleLevelZeroKeyFilters();
  Log(InfoLogLevel::kDebug, info_log_.get(),
      "secondary: caught up to sequence %" PRIu64 " (MANIFEST-%06" PRIu64 " at %" PRIu64 ")", last,
      st->manifest->manifest_number(), st->manifest->offset());
  return Status::OK();
}

Status DBImpl::CatchUpManifest() {
  std::vector<ColumnFamilyData*> changed, dropped;
  Status s = secondary_->manifest->CatchUp(&changed, &dropped);
  if (!s.ok() || dropped.empty()) return s;
  MutexLock l(&mu_);
  for (ColumnFamilyData* cfd : dropped) {
    // As a drop on the primary: out of the live set, the set's reference
    // gone; handles still read what it had.
    versions_->column_families()->Remove(cfd);
    Log(info_log_.get(), "secondary: column family \"%s\" (id %u) was dropped by the primary",
        cfd->name().c_str(), cfd->id());
    UnrefFamily(cfd);
  }
  multi_cf_ = versions_->column_families()->NumberOfColumnFamilies() > 1;
  return Status::OK();
}

Status DBImpl::ListWALs(std::set<uint64_t>* wals) {
  wals->clear();
  std::vector<std::string> children;
  Status s = fs_->GetChildren(wal_dir_, &children);
  if (!s.ok()) return s;
  for (const std::string& name : children) {
    uint64_t number;
    FileType type;
    if (ParseFileName(name, &number, &type) && type == FileType::kWalFile) wals->insert(number);
  }
  return Status::OK();
}

void DBImpl::SwitchSecondaryMemtables(uint64_t number) {
  mu_.AssertHeld();
  for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
    if (cfd->mem_log_number() == number) continue;
    if (!cfd->mem()->IsEmpty() && cfd->mem_log_number() < number) {
      cfd->imm().insert(cfd->imm().begin(), ImmMemTable{cfd->mem(), cfd->mem_log_number()});
      cfd->mem() = new MemTable(cfd->icmp(), cfd->mem_options());
    }
    // An empty memtable is simply retagged. (A WAL older than the
    // memtable's never comes after it: WALs are read in number order.)
    cfd->mem_log_number() = std::max(cfd->mem_log_number(), number);
  }
}

void DBImpl::DropFlushedMemtables(ColumnFamilyData* cfd) {
  mu_.AssertHeld();
  const uint64_t log_number = cfd->log_number();
  std::vector<ImmMemTable>& imm = cfd->imm();
  for (auto it = imm.begin(); it != imm.end();) {
    if (it->log_number >= log_number) {
      ++it;
      continue;
    }
    it->mem->Unref();  // SuperVersions still reading it hold their own
    it = imm.erase(it);
  }
  if (cfd->mem_log_number() < log_number) {
    if (!cfd->mem()->IsEmpty()) {
      cfd->mem()->Unref();
      cfd->mem() = new MemTable(cfd->icmp(), cfd->mem_options());
    }
    cfd->mem_log_number() = log_number;
  }
}

Status DBImpl::TailWALs(bool* missing) {
  *missing = false;
  SecondaryState* st = secondary_.get();
  uint64_t min_log = ~uint64_t{0};
  {
    MutexLock l(&mu_);
    for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
      min_log = std::min(min_log, cfd->log_number());
    }
  }
  // WALs every opened family has flushed are done with.
  st->wal_offsets.erase(st->wal_offsets.begin(), st->wal_offsets.lower_bound(min_log));
  st->wals_done.erase(st->wals_done.begin(), st->wals_done.lower_bound(min_log));
  // Those found at the start, those being tailed, and any newer ones.
  std::set<uint64_t> wals;
  Status s = ListWALs(&wals);
  if (!s.ok()) return s;
  wals.insert(st->at_start.begin(), st->at_start.end());
  for (const auto& [number, offset] : st->wal_offsets) wals.insert(number);
  wals.erase(wals.begin(), wals.lower_bound(min_log));
  if (wals.empty()) return Status::OK();
  for (uint64_t number : wals) {
    const std::string fname = LogFileName(wal_dir_, number);
    // A newer WAL exists: the primary appends nothing more to this one.
    const bool complete = number != *wals.rbegin();
    if (st->wals_done.count(number) > 0) continue;
    std::unique_ptr<SequentialFile> file;
    s = fs_->NewSequentialFile(fname, FileOptions(), &file);
    if (!s.ok()) {
      if (!fs_->FileExists(fname).IsNotFound()) return s;
      // The primary deleted it. It deletes a WAL once no family has
      // unflushed data in it -- after writing the flushes' edits, but a
      // family without data there keeps its older log number in the
      // MANIFEST. So: the first time, the MANIFEST is read again (the edits
      // of the flushes that let it go become visible) and nothing after
      // this WAL is applied meanwhile (the memtables hold a prefix of the
      // writes); found missing again after that, it held nothing that is
      // not in those tables, and it is skipped.
      st->wal_offsets.erase(number);
      if (st->vanished.count(number) > 0) continue;
      st->vanished.insert(number);
      *missing = true;
      return Status::OK();
    }
    auto [it, fresh] = st->wal_offsets.emplace(number, 0);
    const uint64_t start = it->second;
    log::FirstDamageReporter reporter;
    log::Reader reader(std::move(file), &reporter, /*checksum=*/true, number, fname);
    s = reader.SkipTo(start);
    if (!s.ok()) return s;
    // Read without the mutex; applied under it below.
    std::vector<std::string> batches;
    std::vector<uint64_t> ends;
    Slice record;
    std::string scratch;
    Status damage;
    while (reader.ReadRecord(&record, &scratch, WALRecoveryMode::kTolerateCorruptedTailRecords)) {
      if (!reporter.first.ok()) {
        damage = reporter.first;
        break;
      }
      if (record.size() < WriteBatchInternal::kHeader) {
        damage = Status::Corruption("log record too small",
                                    fname + " offset " + std::to_string(reader.LastRecordOffset()));
        break;
      }
      batches.emplace_back(record.data(), record.size());
      ends.push_back(reader.LastRecordEndOffset());
    }
    if (!damage.ok()) {
      // Intact records follow the damage. In the WAL the primary is
      // appending to, that is a record caught half copied (an mmap-written
      // WAL fills in page by page): read again from the last good record
      // next time. In a WAL the primary is done with it is damage.
      if (complete && options_.wal_recovery_mode != WALRecoveryMode::kSkipAnyCorruptedRecords) {
        return damage;
      }
      Log(InfoLogLevel::kDebug, info_log_.get(), "secondary: %s: stopping before %s", fname.c_str(),
          damage.ToString().c_str());
    }
    // Damage with nothing intact after it is a record still being written
    // (or a torn tail): the reader stopped there, and so do we.
    if (complete && damage.ok()) st->wals_done.insert(number);
    MutexLock l(&mu_);
    if (!batches.empty()) SwitchSecondaryMemtables(number);
    WriteBatch batch;
    for (size_t i = 0; i < batches.size(); ++i) {
      s = WriteBatchInternal::SetContents(&batch, batches[i]);
      BatchContents contents;
      if (s.ok()) s = InspectBatch(batch, &contents);
      if (!s.ok()) {
        return Status::Corruption(s.getState(),
                                  fname + " record ending at offset " + std::to_string(ends[i]));
      }
      const SequenceNumber seq = WriteBatchInternal::Sequence(&batch);
      const uint32_t count = WriteBatchInternal::Count(&batch);
      // Each family takes the records of WALs not older than its log
      // number; records of families not opened (or dropped) are skipped.
      MemTableTargets targets;
      targets.default_mem = default_cfd_->log_number() <= number && !default_cfd_->dropped()
                                ? default_cfd_->mem()
                                : nullptr;
      targets.families = versions_->column_families();
      targets.recovery_log_number = number;
      // A TransactionDB primary: prepared sections wait for their Commit
      // marker across catch-ups (with allow_2pc, as in recovery; without
      // it they are refused, as RocksDB's secondary does).
      targets.recovered = options_.allow_2pc ? &recovered_txns_ : nullptr;
      SequenceNumber next_seq = seq;
      s = InsertBatchIntoMemTable(batch, seq, targets, /*concurrent=*/false, &next_seq);
      if (!s.ok()) return s;
      if (count > 0) st->max_wal_sequence = std::max(st->max_wal_sequence, seq + count - 1);
      if (next_seq > seq) st->max_wal_sequence = std::max(st->max_wal_sequence, next_seq - 1);
      it->second = ends[i];
    }
  }
  return Status::OK();
}

Status DB::OpenAsSecondary(const Options& options, const std::string& path,
                           const std::string& secondary_path, std::unique_ptr<DB>* db) {
  std::vector<ColumnFamilyHandle*> handles;
  Status s =
      OpenAsSecondary(DBOptions(options), path, secondary_path,
                      {ColumnFamilyDescriptor(kDefaultColumnFamilyName, options)}, &handles, db);
  // The default family's handle is the DB's own.
  for (ColumnFamilyHandle* h : handles) {
    if (*db != nullptr) (*db)->DestroyColumnFamilyHandle(h).PermitUncheckedError();
  }
  return s;
}

Status DB::OpenAsSecondary(const DBOptions& options, const std::string& path,
                           const std::string& secondary_path,
                           const std::vector<ColumnFamilyDescriptor>& column_families,
                           std::vector<ColumnFamilyHandle*>* handles, std::unique_ptr<DB>* db) {
  handles->clear();
  db->reset();
  ColumnFamilyOptions default_options;
  for (const ColumnFamilyDescriptor& d : column_families) {
    if (d.name == kDefaultColumnFamilyName) default_options = d.options;
  }
  Options merged(options, default_options);
  Status s = DBImpl::ValidateOptions(merged);
  if (!s.ok()) return s;
  if (secondary_path.empty()) {
    return Status::InvalidArgument("OpenAsSecondary: secondary_path must not be empty");
  }
  auto trimmed = [](std::string p) {
    while (p.size() > 1 && p.back() == '/') p.pop_back();
    return p;
  };
  if (merged.info_log == nullptr && trimmed(secondary_path) == trimmed(path)) {
    // Its LOG would replace the primary's.
    return Status::InvalidArgument("OpenAsSecondary: secondary_path is the DB's own directory",
                                   secondary_path);
  }
  FileSystem* fs = merged.env->GetFileSystem();
  if (merged.info_log == nullptr) {
    // The secondary's own LOG, in its own directory (as RocksDB does).
    s = fs->CreateDirIfMissing(secondary_path);
    if (!s.ok()) return s;
    const std::string log_name = InfoLogFileName(secondary_path);
    if (fs->FileExists(log_name).ok()) {
      s = fs->RenameFile(
          log_name, OldInfoLogFileName(secondary_path, merged.env->GetSystemClock()->NowMicros()));
      if (!s.ok()) return s;
    }
    std::shared_ptr<Logger> logger;
    s = fs->NewLogger(log_name, &logger);
    if (!s.ok()) return s;
    logger->SetInfoLogLevel(merged.info_log_level);
    merged.info_log = logger;
  }
  Log(merged.info_log.get(), "Opening %s as a secondary instance (its LOG is in %s)", path.c_str(),
      secondary_path.c_str());
  if (merged.max_open_files != -1) {
    // RocksDB warns and opens; so do we. The tables of the Versions in use
    // are held open regardless (TableCache::Pin).
    Log(InfoLogLevel::kWarn, merged.info_log.get(),
        "secondary instance opened with max_open_files=%d, not -1: the primary deletes table "
        "files once they are obsolete; this instance keeps the tables of the Versions it uses "
        "open so that they stay readable",
        merged.max_open_files);
  }
  auto impl = std::make_unique<DBImpl>(merged, path, DBImpl::OpenMode::kSecondary);
  s = impl->Open(column_families, handles, /*descriptors_given=*/true);
  if (!s.ok()) {
    for (ColumnFamilyHandle* h : *handles)
      impl->DestroyColumnFamilyHandle(h).PermitUncheckedError();
    handles->clear();
    return s;
  }
  *db = std::move(impl);
  return Status::OK();
}

}  // namespace strata
