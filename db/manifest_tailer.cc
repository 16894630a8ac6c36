#include "db/manifest_tailer.h"

#include <algorithm>
#include <cinttypes>
#include <optional>
#include <set>

#include "db/column_family.h"
#include "db/filename.h"
#include "db/log_reader.h"
#include "db/version_builder.h"

namespace strata {

namespace {

// Rounds of "a file is missing, newer edits exist" before giving up: each
// round needs the primary to have written a newer edit meanwhile.
constexpr int kMaxPinRounds = 64;

}  // namespace

ManifestTailer::ManifestTailer(VersionSet* versions, FileSystem* fs, const std::string& dbname,
                               Logger* info_log)
    : versions_(versions),
      fs_(fs),
      dbname_(dbname),
      info_log_(info_log),
      db_mu_(versions->db_mu_) {}

void ManifestTailer::Start() {
  db_mu_->AssertHeld();
  manifest_number_ = versions_->manifest_file_number();
  offset_ = versions_->recovered_manifest_end();
  from_scratch_ = false;
  rebuild_ = true;
  pending_.clear();
}

Status ManifestTailer::ReadCurrent(uint64_t* number) {
  const std::string current_name = CurrentFileName(dbname_);
  std::string current;
  Status s = ReadFileToString(fs_, current_name, &current);
  if (!s.ok()) return s;
  if (current.empty() || current.back() != '\n') {
    return Status::Corruption("CURRENT file does not end with newline", current_name);
  }
  current.pop_back();
  FileType type;
  if (!ParseFileName(current, number, &type) || type != FileType::kDescriptorFile) {
    return Status::Corruption("CURRENT file does not name a MANIFEST", current_name);
  }
  return Status::OK();
}

Status ManifestTailer::ReadNew(bool* progress) {
  *progress = false;
  for (int attempt = 0;; ++attempt) {
    uint64_t number = 0;
    Status s = ReadCurrent(&number);
    if (!s.ok()) return s;
    if (number != manifest_number_) {
      Log(info_log_,
          "secondary: CURRENT names MANIFEST-%06" PRIu64 " (was %06" PRIu64
          "); replaying it from its start",
          number, manifest_number_);
      manifest_number_ = number;
      offset_ = 0;
      pending_.clear();
      from_scratch_ = true;
      *progress = true;
    }
    const std::string fname = DescriptorFileName(dbname_, manifest_number_);
    std::unique_ptr<SequentialFile> file;
    s = fs_->NewSequentialFile(fname, FileOptions(), &file);
    if (!s.ok()) {
      // The primary may have rolled over (and deleted this one) since
      // CURRENT was read: read CURRENT again.
      if (attempt < 8 && fs_->FileExists(fname).IsNotFound()) continue;
      return s;
    }
    log::FirstDamageReporter reporter;
    log::Reader reader(std::move(file), &reporter, /*checksum=*/true, /*log_number=*/0, fname);
    s = reader.SkipTo(offset_);
    if (!s.ok()) return s;
    Slice record;
    std::string scratch;
    while (reader.ReadRecord(&record, &scratch, WALRecoveryMode::kTolerateCorruptedTailRecords)) {
      if (!reporter.first.ok()) {
        // Intact records after damage: not a record still being appended.
        return Status::Corruption("secondary: damaged MANIFEST record before intact ones",
                                  reporter.first.ToString());
      }
      VersionEdit edit;
      s = edit.DecodeFrom(record);
      if (!s.ok()) {
        return Status::Corruption(
            s.getState(), fname + " record at offset " + std::to_string(reader.LastRecordOffset()));
      }
      pending_.push_back(std::move(edit));
      offset_ = reader.LastRecordEndOffset();
      *progress = true;
    }
    if (!reporter.first.ok()) {
      // Damage with nothing after it: a record being written; read again
      // from offset_ next time.
      Log(InfoLogLevel::kDebug, info_log_, "secondary: %s: stopping at %" PRIu64 " (%s)",
          fname.c_str(), offset_, reporter.first.ToString().c_str());
    }
    return Status::OK();
  }
}

Status ManifestTailer::Build(std::vector<Candidate>* out) {
  db_mu_->AssertHeld();
  versions_->db_mu_->AssertHeld();  // the same mutex, for the analysis
  out->clear();
  ColumnFamilySet* families = versions_->column_families();
  // Which families the edits drop (or, replaying a MANIFEST from its start,
  // which ones it has at its end) and their last log numbers.
  std::set<uint32_t> present{0};
  std::set<uint32_t> dropped_ids;
  std::map<uint32_t, uint64_t> log_numbers;
  for (const VersionEdit& edit : pending_) {
    const uint32_t id = edit.column_family();
    if (edit.column_family_add().has_value()) present.insert(id);
    if (edit.is_column_family_drop()) {
      present.erase(id);
      dropped_ids.insert(id);
    }
    if (edit.log_number()) log_numbers[id] = *edit.log_number();
  }
  for (ColumnFamilyData* cfd : families->live()) {
    const uint32_t id = cfd->id();
    Candidate c;
    c.cfd = cfd;
    const bool gone = from_scratch_ ? present.count(id) == 0 : dropped_ids.count(id) > 0;
    if (gone) {
      out->push_back(c);
      continue;
    }
    VersionBuilder builder(cfd->icmp(), from_scratch_ ? nullptr : cfd->current(), cfd->num_levels(),
                           cfd->file_metadata_charge());
    Status s;
    for (const VersionEdit& edit : pending_) {
      if (edit.column_family() != id || edit.is_column_family_drop()) continue;
      if (edit.comparator().has_value() && *edit.comparator() != cfd->user_comparator()->Name()) {
        s = Status::InvalidArgument(cfd->user_comparator()->Name(),
                                    "does not match comparator " + *edit.comparator() +
                                        " of column family \"" + cfd->name() + "\" in " +
                                        DescriptorFileName(dbname_, manifest_number_));
        break;
      }
      s = builder.Apply(edit);
      if (!s.ok()) break;
    }
    c.v = new Version(versions_, cfd, versions_->next_version_number_++);
    if (s.ok()) s = builder.SaveTo(c.v);
    if (!s.ok()) {
      delete c.v;
      Discard(out);
      if (s.IsCorruption()) {
        return Status::Corruption(s.getState(), DescriptorFileName(dbname_, manifest_number_));
      }
      return s;
    }
    auto it = log_numbers.find(id);
    c.log_number = it != log_numbers.end() ? it->second : (from_scratch_ ? 0 : cfd->log_number());
    out->push_back(c);
  }
  return Status::OK();
}

Status ManifestTailer::PinAll(const std::vector<Candidate>& candidates, uint64_t* failed_file) {
  for (const Candidate& c : candidates) {
    if (c.v == nullptr) continue;
    for (int level = 0; level < c.v->num_levels(); ++level) {
      for (FileMetaData* f : c.v->files(level)) {
        Status s = c.cfd->table_cache()->Pin(f, level);
        // Also a candidate that is discarded leaves the reader in the cache:
        // EvictUnusedTables must know of it.
        if (s.ok()) pinned_.emplace(f->number, c.cfd);
        if (!s.ok()) {
          *failed_file = f->number;
          return s;
        }
      }
    }
  }
  return Status::OK();
}

void ManifestTailer::Discard(std::vector<Candidate>* candidates) {
  // Never installed: deleting one frees only the files it added.
  for (Candidate& c : *candidates) delete c.v;
  candidates->clear();
}

void ManifestTailer::Install(std::vector<Candidate>* candidates,
                             std::vector<ColumnFamilyData*>* changed,
                             std::vector<ColumnFamilyData*>* dropped) {
  db_mu_->AssertHeld();
  versions_->db_mu_->AssertHeld();  // the same mutex, for the analysis
  for (Candidate& c : *candidates) {
    if (c.v == nullptr) {
      dropped->push_back(c.cfd);
      continue;
    }
    c.v->ComputeCompactionScores(c.cfd->options());
    c.cfd->set_log_number(c.log_number);
    versions_->AppendVersion(c.cfd, c.v);
    changed->push_back(c.cfd);
  }
  candidates->clear();
  // The counters, as recovery folds them (a new MANIFEST restates them).
  std::optional<uint64_t> next_file, prev_log, min_log_to_keep;
  std::optional<SequenceNumber> last_sequence;
  for (const VersionEdit& edit : pending_) {
    if (edit.next_file_number()) next_file = edit.next_file_number();
    if (edit.prev_log_number()) prev_log = edit.prev_log_number();
    if (edit.min_log_number_to_keep()) min_log_to_keep = edit.min_log_number_to_keep();
    if (edit.last_sequence()) last_sequence = edit.last_sequence();
    if (edit.max_column_family()) {
      versions_->column_families()->UpdateMaxColumnFamily(*edit.max_column_family());
    }
  }
  if (next_file) versions_->MarkFileNumberUsed(*next_file - 1);
  if (prev_log) versions_->prev_log_number_ = *prev_log;
  if (min_log_to_keep) versions_->min_log_number_to_keep_ = *min_log_to_keep;
  // The secondary's last sequence never goes back (its WAL records may be
  // ahead of the MANIFEST).
  if (last_sequence && *last_sequence > versions_->last_sequence_) {
    versions_->last_sequence_ = *last_sequence;
  }
  versions_->manifest_file_number_ = manifest_number_;
  pending_.clear();
  from_scratch_ = false;
  rebuild_ = false;
}

Status ManifestTailer::CatchUp(std::vector<ColumnFamilyData*>* changed,
                               std::vector<ColumnFamilyData*>* dropped) {
  changed->clear();
  dropped->clear();
  bool progress = false;
  Status s = ReadNew(&progress);
  if (!s.ok()) return s;
  for (int round = 0;; ++round) {
    std::vector<Candidate> candidates;
    {
      MutexLock l(db_mu_);
      if (pending_.empty() && !from_scratch_ && !rebuild_) return Status::OK();
      s = Build(&candidates);
      if (!s.ok()) return s;
    }
    // Opening the tables is file I/O: without the mutex (readers are
    // unaffected; only this thread changes the families' Versions).
    uint64_t failed_file = 0;
    Status pin = PinAll(candidates, &failed_file);
    MutexLock l(db_mu_);
    if (pin.ok()) {
      Install(&candidates, changed, dropped);
      return Status::OK();
    }
    Discard(&candidates);
    Log(InfoLogLevel::kInfo, info_log_,
        "secondary: table file %06" PRIu64 " of MANIFEST-%06" PRIu64
        " could not be opened (%s); "
        "reading newer edits",
        failed_file, manifest_number_, pin.ToString().c_str());
    if (round + 1 >= kMaxPinRounds) {
      return Status::TryAgain(
          "secondary: table files kept disappearing while the MANIFEST was read",
          "last: " + TableFileName(dbname_, failed_file));
    }
    // A file deleted by the primary is deleted after the edit that drops
    // it was written: read on. With nothing newer, the file is missing for
    // good.
    db_mu_->Unlock();
    s = ReadNew(&progress);
    db_mu_->Lock();
    if (!s.ok()) return s;
    if (!progress) {
      return Status::Corruption("secondary: table file listed in MANIFEST-" +
                                    std::to_string(manifest_number_) + " cannot be opened",
                                pin.ToString());
    }
  }
}

void ManifestTailer::EvictUnusedTables() {
  db_mu_->AssertHeld();
  std::set<uint64_t> live;
  versions_->AddLiveFiles(&live);
  for (auto it = pinned_.begin(); it != pinned_.end();) {
    if (live.count(it->first) > 0) {
      ++it;
      continue;
    }
    it->second->table_cache()->Evict(it->first);
    it = pinned_.erase(it);
  }
}

}  // namespace strata
