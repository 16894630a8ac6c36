// DBImpl: online option changes (SetOptions, SetDBOptions), the options in
// force (GetOptions, GetDBOptions), pausing background work and
// EnableAutoCompaction. Design: docs/design/online-options.md.
//
// How readers see a change: a family's options are one immutable set
// published through an atomic pointer (ColumnFamilyData::options()), so
// the write path, Get, flushes and compactions read a consistent set
// without a lock; the DB-wide options that can change are read under mu_
// or by the write-group leader only, and are changed as the exclusive write
// leader under mu_ (RunExclusive), so neither sees a half-made change. A
// family's options change under mu_ only (see SetOptions).
#include <algorithm>
#include <cinttypes>
#include <optional>

#include "db/db_impl.h"
#include "db/options_file.h"
#include "db/options_helper.h"
#include "db/periodic_task.h"

namespace strata {

namespace {

// The map as "name: value" lines for the LOG, in name order.
std::vector<std::pair<std::string, std::string>> Sorted(const OptionsMap& map) {
  std::vector<std::pair<std::string, std::string>> v(map.begin(), map.end());
  std::sort(v.begin(), v.end());
  return v;
}

// The config SetOptions parses with: only mutable options (RocksDB's
// "Option not changeable: X" otherwise).
ConfigOptions MutableOnly() {
  ConfigOptions c;
  c.mutable_options_only = true;
  return c;
}

void LogMutableOptions(Logger* log, OptionScope scope, const void* object) {
  for (const OptionInfo& i : OptionTable()) {
    if (i.scope != scope || !i.is_mutable) continue;
    Log(log, "%45s: %s", i.name, OptionValueToString(i, object).c_str());
  }
}

}  // namespace

Options DBImpl::CurrentOptions(const ColumnFamilyData* cfd) const {
  Options o(static_cast<const DBOptions&>(options_),
            static_cast<const ColumnFamilyOptions&>(cfd->options()));
  // The manager the DB made for itself is not the user's (issue 19).
  if (budget_.write_buffer_manager != nullptr) o.write_buffer_manager.reset();
  return o;
}

void DBImpl::ApplyBackgroundJobs() {
  mu_.AssertHeld();
  const int jobs = std::max(2, options_.max_background_jobs);
  max_flushes_ = std::max(1, jobs / 4);
  max_compactions_ = std::max(1, jobs - max_flushes_);
  if (env_->GetBackgroundThreads(Env::Priority::kHigh) < max_flushes_) {
    env_->SetBackgroundThreads(max_flushes_, Env::Priority::kHigh);
  }
  if (env_->GetBackgroundThreads(Env::Priority::kLow) < max_compactions_) {
    env_->SetBackgroundThreads(max_compactions_, Env::Priority::kLow);
  }
}

void DBImpl::InstallFamilyOptions(ColumnFamilyData* cfd, const ColumnFamilyOptions& cf) {
  mu_.AssertHeld();
  Options merged(static_cast<const DBOptions&>(cfd->options()), cf);
  cfd->SetOptions(merged);
  // A new SuperVersion recomputes the write-stall state with the new
  // triggers; then work the new thresholds call for is scheduled.
  InstallNewSuperVersion(cfd);
}

Status DBImpl::SetOptions(ColumnFamilyHandle* cf, const OptionsMap& new_options) {
  if (read_only()) return ReadOnlyError();
  ColumnFamilyData* cfd = FamilyOf(cf);
  Logger* log = info_log_.get();
  if (new_options.empty()) {
    Log(log, "SetOptions() on column family [%s], empty input", cfd->name().c_str());
    return Status::InvalidArgument("empty input");
  }
  std::lock_guard<std::mutex> one_at_a_time(set_options_mu_);
  Log(log, "SetOptions() on column family [%s], inputs:", cfd->name().c_str());
  for (const auto& [k, v] : Sorted(new_options)) Log(log, "%s: %s", k.c_str(), v.c_str());

  // Parse, sanitize and validate a copy: nothing changes on failure.
  ColumnFamilyOptions updated;
  {
    MutexLock l(&mu_);
    if (closed_) return Status::ShutdownInProgress("SetOptions on a closed database");
    updated = cfd->options();
  }
  Status s = ApplyCFOptionsMap(MutableOnly(), new_options, &updated);
  std::vector<std::string> notes;
  if (s.ok()) {
    SanitizeColumnFamilyOptions(&updated, &notes);
    s = ValidateOptions(Options(options_, updated));
  }
  if (s.ok()) {
    // Under mu_ alone, not as the exclusive write leader: a family's
    // options are published as one set (readers need no exclusion), and
    // SetOptions must work while writes are stopped -- it may be what
    // lifts the stop (a stalled writer rechecks under mu_).
    MutexLock l(&mu_);
    if (cfd->dropped()) {
      s = Status::InvalidArgument("column family was dropped", cfd->name());
    } else {
      InstallFamilyOptions(cfd, updated);
      MaybeScheduleFlushOrCompaction();
      bg_cv_.SignalAll();
    }
  }
  if (s.ok()) WriteCurrentOptionsFile();
  if (!s.ok()) {
    Log(InfoLogLevel::kWarn, log, "[%s] SetOptions() failed: %s", cfd->name().c_str(),
        s.ToString().c_str());
    return s;
  }
  for (const std::string& n : notes) {
    Log(InfoLogLevel::kWarn, log, "sanitized: [%s] %s", cfd->name().c_str(), n.c_str());
  }
  DeliverStallNotifications();
  Log(log, "[%s] SetOptions() succeeded", cfd->name().c_str());
  const ColumnFamilyOptions& now = cfd->options();
  LogMutableOptions(log, OptionScope::kCF, &now);
  const BlockBasedTableOptions& t = cfd->table_options();
  LogMutableOptions(log, OptionScope::kTable, &t);
  return Status::OK();
}

Status DBImpl::SetDBOptions(const OptionsMap& new_options) {
  if (read_only()) return ReadOnlyError();
  Logger* log = info_log_.get();
  if (new_options.empty()) {
    Log(log, "SetDBOptions(), empty input.");
    return Status::InvalidArgument("empty input");
  }
  std::lock_guard<std::mutex> one_at_a_time(set_options_mu_);
  Log(log, "SetDBOptions(), inputs:");
  for (const auto& [k, v] : Sorted(new_options)) Log(log, "%s: %s", k.c_str(), v.c_str());

  // max_subcompactions is a DB option in RocksDB and a family option here:
  // it is set in every family.
  OptionsMap db_map = new_options;
  std::optional<uint32_t> subcompactions;
  Status s;
  if (auto it = db_map.find("max_subcompactions"); it != db_map.end()) {
    ColumnFamilyOptions probe;
    s = ApplyCFOptionsMap(ConfigOptions(), {{it->first, it->second}}, &probe);
    if (s.ok()) subcompactions = std::max<uint32_t>(1, probe.max_subcompactions);
    db_map.erase(it);
  }
  DBOptions updated;
  {
    MutexLock l(&mu_);
    if (closed_) return Status::ShutdownInProgress("SetDBOptions on a closed database");
    updated = options_;
  }
  if (s.ok()) s = ApplyDBOptionsMap(MutableOnly(), db_map, &updated);
  if (s.ok() && updated.max_open_files != options_.max_open_files) {
    // The table cache's capacity and its pinning of readers (max_open_files
    // -1) are fixed at open.
    s = Status::InvalidArgument("Strata cannot change max_open_files on a live DB",
                                "reopen the DB with the new value");
  }
  if (s.ok()) s = ValidateOptions(Options(updated, ColumnFamilyOptions()));
  bool restart_stats_dump = false;
  if (s.ok()) {
    s = RunExclusive([&]() -> Status {
      {
        MutexLock l(&mu_);
        restart_stats_dump = updated.stats_dump_period_sec != options_.stats_dump_period_sec;
        // Only the mutable fields are written: the others are read without
        // mu_ by background threads (they are equal anyway).
        for (const OptionInfo& i : OptionTable()) {
          if (i.scope != OptionScope::kDB || !i.is_mutable) continue;
          ParseOptionValue(ConfigOptions(), i, OptionValueToString(i, &updated),
                           static_cast<DBOptions*>(&options_))
              .PermitUncheckedError();  // the text was just printed from a valid value
        }
        wal_file_options_.writable_file_max_buffer_size = options_.writable_file_max_buffer_size;
        wal_file_options_.strict_bytes_per_sync = options_.strict_bytes_per_sync;
        // The families' option sets carry the DB options their jobs read
        // (bytes_per_sync for the tables they write): new values to each.
        for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
          const Options& cur = cfd->options();
          if (cur.bytes_per_sync != options_.bytes_per_sync ||
              cur.strict_bytes_per_sync != options_.strict_bytes_per_sync) {
            Options next = cur;
            next.bytes_per_sync = options_.bytes_per_sync;
            next.strict_bytes_per_sync = options_.strict_bytes_per_sync;
            cfd->SetOptions(next);
          }
        }
        ApplyBackgroundJobs();
        if (subcompactions.has_value()) {
          for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
            ColumnFamilyOptions cf = cfd->options();
            cf.max_subcompactions = *subcompactions;
            InstallFamilyOptions(cfd, cf);
          }
        }
        // A lower delayed_write_rate or a new job count takes effect now.
        throttle_.SetDelayedWriteRate(options_.delayed_write_rate);
        for (ColumnFamilyData* cfd : versions_->column_families()->live()) UpdateWriteStall(cfd);
        MaybeScheduleFlushOrCompaction();
      }
      return Status::OK();
    });
    if (s.ok()) WriteCurrentOptionsFile();
  }
  if (!s.ok()) {
    Log(InfoLogLevel::kWarn, log, "SetDBOptions() failed: %s", s.ToString().c_str());
    return s;
  }
  if (restart_stats_dump) {
    // Without mu_: a dump in progress takes it.
    stats_dump_task_.Stop();
    if (updated.stats_dump_period_sec > 0) {
      stats_dump_task_.Start(clock_, uint64_t{updated.stats_dump_period_sec} * 1000000,
                             [this] { DumpStatsToLog(this, info_log_.get(), stats_); });
    }
  }
  DeliverStallNotifications();
  Log(log, "SetDBOptions() succeeded");
  LogMutableOptions(log, OptionScope::kDB, &updated);
  return Status::OK();
}

void DBImpl::WriteCurrentOptionsFile() {
  // A consistent picture under mu_, written without it.
  std::vector<std::string> names;
  std::vector<Options> options;
  std::vector<BlockBasedTableOptions> tables;
  uint64_t number = 0;
  {
    MutexLock l(&mu_);
    for (const ColumnFamilyData* cfd : versions_->column_families()->live()) {
      names.push_back(cfd->name());
      options.push_back(CurrentOptions(cfd));
      tables.push_back(cfd->table_options());
    }
    number = versions_->NewFileNumber();
  }
  std::vector<OptionsFileFamily> fams;
  for (size_t i = 0; i < names.size(); ++i) {
    fams.push_back(OptionsFileFamily{names[i], &options[i], &tables[i]});
  }
  Status s = WriteOptionsFile(fs_, dbname_, number, fams, db_dir_.get());
  if (!s.ok()) {
    Log(InfoLogLevel::kWarn, info_log_.get(), "could not write the OPTIONS file: %s",
        s.ToString().c_str());
  }
}

Options DBImpl::GetOptions(ColumnFamilyHandle* cf) const {
  MutexLock l(&mu_);
  return CurrentOptions(FamilyOf(cf));
}

DBOptions DBImpl::GetDBOptions() const {
  MutexLock l(&mu_);
  DBOptions o = options_;
  if (budget_.write_buffer_manager != nullptr) o.write_buffer_manager.reset();  // issue 19
  return o;
}

Status DBImpl::PauseBackgroundWork() {
  MutexLock l(&mu_);
  ++bg_work_paused_;
  while (flush_scheduled_ || compactions_scheduled_ > 0 || BottomCompactionsScheduled() > 0 ||
         key_filter_job_scheduled_) {
    bg_cv_.Wait();
  }
  return Status::OK();
}

Status DBImpl::ContinueBackgroundWork() {
  MutexLock l(&mu_);
  if (bg_work_paused_ == 0) return Status::InvalidArgument("Background work is not paused");
  if (--bg_work_paused_ == 0) {
    MaybeScheduleFlushOrCompaction();
    bg_cv_.SignalAll();
  }
  return Status::OK();
}

Status DBImpl::EnableAutoCompaction(const std::vector<ColumnFamilyHandle*>& handles) {
  Status s;
  for (ColumnFamilyHandle* h : handles) {
    Status one = SetOptions(h, {{"disable_auto_compactions", "false"}});
    if (s.ok() && !one.ok()) s = one;
  }
  return s;
}

}  // namespace strata
