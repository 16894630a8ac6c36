// DBImpl: opening a database -- option checks, creating a new database,
// recovery from the MANIFEST and the WAL files, the new WAL and MANIFEST an
// open session writes -- and DB::Open, ListColumnFamilies and DestroyDB.
#include <algorithm>
#include <cinttypes>
#include <map>
#include <random>

#include "db/db_impl.h"
#include "db/filename.h"
#include "db/flush_job.h"
#include "db/log_reader.h"
#include "db/memtable_inserter.h"
#include "db/options_dump.h"
#include "db/options_file.h"
#include "db/version_edit.h"
#include "db/write_batch_internal.h"
#include "env/auto_roll_logger.h"
#include "env/paced_writable_file.h"
#include "env/sst_file_manager_impl.h"
#include "strata/table.h"
#include "strata/wal_filter.h"
#include "table/compression.h"

namespace strata {

struct DBImpl::RecoveryState {
  uint64_t manifest_number = 0;
  uint64_t log_number = 0;
  uint64_t next_file_number = 0;
  uint64_t min_log_number_to_keep = 0;
  SequenceNumber last_sequence = 0;
  // From WAL replay.
  SequenceNumber max_sequence = 0;
  bool wal_stopped = false;           // point-in-time recovery stopped at damage
  bool replayed_any = false;          // some WAL record was applied
  bool filter_stopped = false;        // the WAL filter answered kStopReplay
  std::vector<uint64_t> wal_numbers;  // WAL files found (>= log_number), ascending
  uint64_t oldest_wal_with_data = 0;  // 0 = none
  // Level-0 tables written while replaying (memtable filled up), by
  // family id.
  std::map<uint32_t, VersionEdit> edits;
};

namespace {

std::string NewUuid() {
  std::random_device rd;
  std::mt19937_64 rng((static_cast<uint64_t>(rd()) << 32) ^ rd());
  const uint64_t hi = rng(), lo = rng();
  char buf[40];
  snprintf(buf, sizeof(buf), "%08x-%04x-4%03x-%04x-%012llx", static_cast<unsigned>(hi >> 32),
           static_cast<unsigned>((hi >> 16) & 0xffff), static_cast<unsigned>(hi & 0xfff),
           static_cast<unsigned>(0x8000 | ((lo >> 48) & 0x3fff)),
           static_cast<unsigned long long>(lo & 0xffffffffffffull));
  return buf;
}

// A session id in RocksDB's shape: 20 upper-case base-36 digits, so that
// RocksDB's table unique ids (derived from db_id, this id and the file
// number; it decodes the digits) exist for Strata's tables too. The last
// digit is never 0, keeping the decoded low word non-zero as RocksDB does.
std::string NewSessionId() {
  static constexpr char kDigits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  std::random_device rd;
  std::mt19937_64 rng((static_cast<uint64_t>(rd()) << 32) ^ rd());
  std::string id(20, '0');
  for (char& c : id) c = kDigits[rng() % 36];
  id.back() = kDigits[1 + rng() % 35];
  return id;
}

// Accepts a WAL record's payload that could be a record following the
// ones read: a write batch whose sequence lies in [lo, hi] (a value that
// merely holds log bytes would have to match that by chance).
log::RecordPayloadCheck BatchInSequenceRange(SequenceNumber lo, SequenceNumber hi) {
  return [lo, hi](const Slice& payload) {
    auto in_range = [lo, hi](const Slice& p) {
      if (p.size() < WriteBatchInternal::kHeader) return false;
      const SequenceNumber seq = DecodeFixed64(p.data());
      return seq >= lo && seq <= hi;
    };
    if (in_range(payload)) return true;
    // A compressed WAL's record: the batch header is inside the frame.
    std::string head;
    return log::DecompressRecordStart(payload, &head) && in_range(head);
  };
}

// How far past the sequences known a record found after damage may be.
constexpr SequenceNumber kFollowingSequenceWindow = SequenceNumber{1} << 32;

// Family options that depend on DB options (RocksDB 7.8.3's
// ColumnFamilyData::ValidateOptions): FIFO deletes files by age only when
// it can read every table's creation time, so with a ttl it needs all
// tables open (max_open_files = -1). `cf` is sanitized.
Status ValidateFamilyAgainstDBOptions(const DBOptions& db, const ColumnFamilyOptions& cf) {
  if (cf.compaction_style == kCompactionStyleFIFO && db.max_open_files != -1 && cf.ttl > 0) {
    return Status::NotSupported(
        "FIFO compaction only supported with max_open_files = -1 (options.ttl is " +
        std::to_string(cf.ttl) + ")");
  }
  // Table paths: RocksDB 7.8.3's CheckCFPathsSupported, in its words (FIFO
  // has no placement rule: it writes everything to path 0).
  if (cf.compaction_style != kCompactionStyleUniversal &&
      cf.compaction_style != kCompactionStyleLevel) {
    if (cf.cf_paths.size() > 1) {
      return Status::NotSupported(
          "More than one CF paths are only supported in universal and level compaction styles. ");
    }
    if (cf.cf_paths.empty() && db.db_paths.size() > 1) {
      return Status::NotSupported(
          "More than one DB paths are only supported in universal and level compaction styles. ");
    }
  }
  return Status::OK();
}

// Opening a DB with other compaction options than it was written with
// (RocksDB 7.8.3's rules): any style may open a DB written under any other
// -- leveled and universal both keep sorted runs in level 0 and in levels,
// and FIFO deletes from the last non-empty level first, so no check on the
// style itself (RocksDB 7.8.3 has none: the old "Not all files are at
// level 0" refusal of FIFO is gone). What does not work is a num_levels
// below a level holding files: RocksDB answers InvalidArgument "db has more
// levels than options.num_levels". The MANIFEST replay (VersionBuilder)
// meets such a file first and calls it damage; this gives RocksDB's status.
// (RocksDB also accepts a file placed above num_levels that a later edit
// removes; Strata's replay refuses that too -- a rare history.)
Status LevelsBeyondNumLevels(const Status& recovered) {
  if (recovered.IsCorruption() &&
      std::string(recovered.getState()).find("beyond num_levels") != std::string::npos) {
    return Status::InvalidArgument("db has more levels than options.num_levels",
                                   recovered.getState());
  }
  return recovered;
}

}  // namespace

Status DBImpl::ValidateOptions(const Options& o) {
  if (o.env == nullptr) return Status::InvalidArgument("options.env must not be null");
  ColumnFamilyOptions cf = o;
  SanitizeColumnFamilyOptions(&cf);
  Status s = ValidateColumnFamilyOptions(cf);
  if (!s.ok()) return s;
  s = ValidateFamilyAgainstDBOptions(o, cf);
  if (!s.ok()) return s;
  // Accepted by RocksDB, not (yet) implemented here: refused rather than
  // ignored.
  if (o.enable_pipelined_write) {
    return Status::InvalidArgument(
        "options.enable_pipelined_write is not supported: Strata's group commit writes the WAL "
        "and the memtables in one pipeline stage");
  }
  // File placement and direct I/O (issue 19, "paths"): RocksDB 7.8.3's
  // checks and messages.
  if (o.db_paths.size() > 4) {
    return Status::NotSupported("More than four DB paths are not supported yet. ");
  }
  if (o.allow_mmap_reads && o.use_direct_reads) {
    return Status::NotSupported(
        "If memory mapped reads (allow_mmap_reads) are enabled then direct I/O reads "
        "(use_direct_reads) must be disabled. ");
  }
  if (o.table_mmap_reads && o.use_direct_reads) {
    return Status::NotSupported(
        "If memory mapped table reads (table_mmap_reads, Strata's default) are enabled then "
        "direct I/O reads (use_direct_reads) must be disabled. ");
  }
  if (o.allow_mmap_writes && o.use_direct_io_for_flush_and_compaction) {
    return Status::NotSupported(
        "If memory mapped writes (allow_mmap_writes) are enabled then direct I/O writes "
        "(use_direct_io_for_flush_and_compaction) must be disabled. ");
  }
  if (o.use_direct_io_for_flush_and_compaction && o.writable_file_max_buffer_size == 0) {
    return Status::InvalidArgument("writes in direct IO require writable_file_max_buffer_size > 0");
  }
  if (o.sst_file_manager != nullptr &&
      dynamic_cast<SstFileManagerImpl*>(o.sst_file_manager.get()) == nullptr) {
    return Status::InvalidArgument(
        "options.sst_file_manager: only a manager made by NewSstFileManager is supported");
  }
  if (o.max_background_jobs < 1) {
    return Status::InvalidArgument("options.max_background_jobs must be at least 1");
  }
  if (o.max_write_batch_group_size_bytes == 0) {
    return Status::InvalidArgument("options.max_write_batch_group_size_bytes must be positive");
  }
  if ((o.allow_mmap_writes || o.wal_mmap_writes) && o.wal_preallocation_size == 0) {
    return Status::InvalidArgument("options.wal_mmap_writes needs wal_preallocation_size > 0");
  }
  switch (o.wal_recovery_mode) {
    case WALRecoveryMode::kTolerateCorruptedTailRecords:
    case WALRecoveryMode::kAbsoluteConsistency:
    case WALRecoveryMode::kPointInTimeRecovery:
    case WALRecoveryMode::kSkipAnyCorruptedRecords:
      break;
    default:
      return Status::InvalidArgument("options.wal_recovery_mode is not a known mode");
  }
  return Status::OK();
}

namespace {

// RocksDB's adjustments of DB-wide options; each change goes to *notes.
void SanitizeDBOptions(DBOptions* o, std::vector<std::string>* notes) {
  // -1 means unbounded; anything else is clipped as RocksDB clips it.
  if (o->max_open_files != -1 && (o->max_open_files < 20 || o->max_open_files > 0x400000)) {
    const int clipped = std::clamp(o->max_open_files, 20, 0x400000);
    notes->push_back("options.max_open_files " + std::to_string(o->max_open_files) +
                     " changed to " + std::to_string(clipped));
    o->max_open_files = clipped;
  }
  // As RocksDB 7.8.3: direct reads bypass the OS read-ahead, so compaction
  // inputs are read ahead 2 MiB at a time unless told otherwise.
  if (o->use_direct_reads && o->compaction_readahead_size == 0) {
    o->compaction_readahead_size = 2 << 20;
    notes->push_back("options.compaction_readahead_size 0 changed to 2097152 (use_direct_reads)");
  }
  // As RocksDB 7.8.3: only ZSTD compresses a WAL; other types turn it off.
  if (o->wal_compression != kNoCompression && !log::WalCompressionSupported(o->wal_compression)) {
    notes->push_back(std::string("options.wal_compression ") +
                     CompressionTypeName(o->wal_compression) +
                     " changed to NoCompression: WAL compression supports ZSTD only");
    o->wal_compression = kNoCompression;
  }
}

}  // namespace

Status DBImpl::SanitizeFamilies(const std::vector<ColumnFamilyDescriptor>& families,
                                std::map<std::string, ColumnFamilyOptions>* by_name) {
  Status s;
  SanitizeDBOptions(&options_, &sanitize_notes_);
  s = SetUpDBMemory(&options_, &budget_, &sanitize_notes_);
  if (!s.ok()) return s;
  wbm_ = options_.write_buffer_manager.get();
  for (const ColumnFamilyDescriptor& d : families) {
    ColumnFamilyOptions cf_options = d.options;
    std::vector<std::string> notes;
    ApplyMemoryBudget(options_, budget_, &cf_options, &notes);
    SanitizeColumnFamilyOptions(&cf_options, &notes);
    for (const std::string& n : notes) sanitize_notes_.push_back("[" + d.name + "] " + n);
    if (!by_name->emplace(d.name, cf_options).second) {
      return Status::InvalidArgument("column family listed twice", d.name);
    }
    s = ValidateColumnFamilyOptions(cf_options);
    if (s.ok()) s = ValidateFamilyAgainstDBOptions(options_, cf_options);
    if (!s.ok()) return s;
  }
  if (by_name->count(kDefaultColumnFamilyName) == 0) {
    return Status::InvalidArgument("Default column family not specified");
  }
  return Status::OK();
}

Status DBImpl::PrepareDirectory() {
  Status s;
  bool is_dir = false;
  if (fs_->IsDirectory(dbname_, &is_dir).ok() && !is_dir) {
    return Status::IOError(dbname_, "exists but is not a directory");
  }
  const bool exists = fs_->FileExists(CurrentFileName(dbname_)).ok();
  if (read_only()) return PrepareReadOnly(exists);
  if (!exists && !options_.create_if_missing) {
    return Status::InvalidArgument(dbname_, "does not exist (create_if_missing is false)");
  }
  if (exists && options_.error_if_exists) {
    return Status::InvalidArgument(dbname_, "exists (error_if_exists is true)");
  }
  if (!exists) {
    s = CheckNoOrphanedFiles();
    if (!s.ok()) return s;
  }
  s = fs_->CreateDirIfMissing(dbname_);
  if (!s.ok()) return s;
  if (wal_dir_ != dbname_) {
    // As RocksDB: wal_dir is created (not its parents), and a new DB's
    // wal_dir holds no WAL (it would be replayed into the new DB).
    s = fs_->CreateDirIfMissing(wal_dir_);
    if (!s.ok()) return s;
    std::vector<std::string> wal_children;
    if (!exists && fs_->GetChildren(wal_dir_, &wal_children).ok()) {
      for (const std::string& name : wal_children) {
        uint64_t number;
        FileType type;
        if (ParseFileName(name, &number, &type) && type == FileType::kWalFile) {
          return Status::Corruption("While creating a new Db, wal_dir contains existing log file: ",
                                    wal_dir_ + "/" + name);
        }
      }
    }
  }
  // The lock comes before anything else in the directory is touched: a
  // second open of a DB in use fails here, without rotating the info LOG of
  // the instance that holds it.
  s = fs_->LockFile(LockFileName(dbname_), &db_lock_);
  if (!s.ok()) return s;

  if (options_.info_log != nullptr) {
    info_log_ = options_.info_log;
  } else {
    // The LOG (in db_log_dir if set), the previous one rolled aside, old
    // ones trimmed to keep_log_file_num; rolled while the DB runs by
    // max_log_file_size / log_file_time_to_roll (env/auto_roll_logger.h).
    InfoLogPlacement where{dbname_, AbsoluteDBPath(dbname_), options_.db_log_dir};
    AutoRollOptions roll;
    roll.max_log_file_size = options_.max_log_file_size;
    roll.log_file_time_to_roll = options_.log_file_time_to_roll;
    roll.keep_log_file_num = options_.keep_log_file_num;
    roll.level = options_.info_log_level;
    s = NewDBInfoLog(fs_, clock_, where, roll, &info_log_);
    if (!s.ok()) return s;
  }

  s = fs_->NewDirectory(dbname_, &db_dir_);
  if (!s.ok()) return s;
  LogOptions();
  for (const std::string& n : sanitize_notes_) {
    Log(InfoLogLevel::kWarn, info_log_.get(), "sanitized: %s", n.c_str());
  }

  // The version set (each family gets its table cache and compaction
  // picker as the MANIFEST is read).
  versions_ =
      std::make_unique<VersionSet>(dbname_, options_, fs_, db_dir_.get(), info_log_.get(), &mu_);
  db_session_id_ = NewSessionId();
  // Background threads: a quarter of the jobs (at least one) flush on the
  // HIGH pool, the rest compact on the LOW pool.
  const int jobs = std::max(2, options_.max_background_jobs);
  max_flushes_ = std::max(1, jobs / 4);
  max_compactions_ = std::max(1, jobs - max_flushes_);
  if (env_->GetBackgroundThreads(Env::Priority::kHigh) < max_flushes_) {
    env_->SetBackgroundThreads(max_flushes_, Env::Priority::kHigh);
  }
  if (env_->GetBackgroundThreads(Env::Priority::kLow) < max_compactions_) {
    env_->SetBackgroundThreads(max_compactions_, Env::Priority::kLow);
  }
  return Status::OK();
}

Status DBImpl::CheckNoOrphanedFiles() {
  std::vector<std::string> children;
  if (!fs_->GetChildren(dbname_, &children).ok()) return Status::OK();  // no directory yet
  std::sort(children.begin(), children.end());
  std::string listed;
  size_t found = 0;
  // A table, a WAL or a MANIFEST past the first: what creating would lose.
  bool data = false;
  for (const std::string& name : children) {
    uint64_t number = 0;
    FileType type = FileType::kTableFile;
    bool orphan = false;
    if (ParseFileName(name, &number, &type)) {
      orphan = type == FileType::kTableFile || type == FileType::kWalFile ||
               type == FileType::kDescriptorFile || type == FileType::kBlobFile;
    }
    // Tables written by LevelDB-era tools keep their old suffix.
    const bool legacy_table = name.size() > 4 && name.compare(name.size() - 4, 4, ".ldb") == 0;
    if (!orphan && !legacy_table) continue;
    data = data || type != FileType::kDescriptorFile || number != 1;
    if (found++ < 8) listed += (listed.empty() ? "" : ", ") + name;
  }
  // MANIFEST-000001 alone is a creation cut short before CURRENT was
  // written (it lists no table); creating again rewrites it.
  if (found == 0 || !data) return Status::OK();
  if (found > 8) listed += ", ... (" + std::to_string(found) + " files)";
  // Creating a database here would treat these files as obsolete and
  // delete them: their data would be lost for good.
  return Status::Corruption(
      dbname_ + " has no CURRENT file but holds database files: " + listed,
      "refusing to create a new database over them (nothing was changed); run RepairDB "
      "(strata repair) to recover them into a new MANIFEST, or remove them");
}

Status DBImpl::PrepareReadOnly(bool exists) {
  if (!exists) {
    return Status::InvalidArgument(CurrentFileName(dbname_),
                                   "does not exist (a read-only open creates nothing)");
  }
  // No LOCK, no LOG (unless the caller gave one), no directory created.
  info_log_ = options_.info_log;
  Status s = fs_->NewDirectory(dbname_, &db_dir_);
  if (!s.ok()) return s;
  LogOptions();
  for (const std::string& n : sanitize_notes_) {
    Log(InfoLogLevel::kWarn, info_log_.get(), "sanitized: %s", n.c_str());
  }
  versions_ =
      std::make_unique<VersionSet>(dbname_, options_, fs_, db_dir_.get(), info_log_.get(), &mu_);
  db_session_id_ = NewSessionId();
  // One low-priority thread builds the level-0 key filters; nothing flushes
  // or compacts.
  if (env_->GetBackgroundThreads(Env::Priority::kLow) < 1) {
    env_->SetBackgroundThreads(1, Env::Priority::kLow);
  }
  return Status::OK();
}

Status DBImpl::Recover(const std::map<std::string, ColumnFamilyOptions>& by_name,
                       bool descriptors_given, std::vector<std::string>* not_found,
                       uint64_t* new_log_out, SequenceNumber* last_out) {
  mu_.AssertHeld();
  if (mode_ == OpenMode::kSecondary) return RecoverAsSecondary(by_name, not_found, last_out);
  Status s;
  // Another process may have created the database before we took the lock.
  const bool exists = fs_->FileExists(CurrentFileName(dbname_)).ok();
  if (!exists && read_only()) {
    return Status::InvalidArgument(CurrentFileName(dbname_), "does not exist");
  }
  if (!exists) {
    Log(info_log_.get(), "Creating a new database at %s", dbname_.c_str());
    s = versions_->CreateNew();
    if (!s.ok()) return s;
  }
  if (options_.use_direct_reads || options_.use_direct_io_for_flush_and_compaction) {
    // As RocksDB: a file system that refuses O_DIRECT is found now, by
    // opening CURRENT for direct reads, not at the first flush.
    FileOptions probe;
    probe.use_direct_reads = true;
    std::unique_ptr<RandomAccessFile> file;
    s = fs_->NewRandomAccessFile(CurrentFileName(dbname_), probe, &file);
    if (!s.ok()) {
      const std::string error = s.ToString();
      probe.use_direct_reads = false;
      s = fs_->NewRandomAccessFile(CurrentFileName(dbname_), probe, &file);
      if (s.ok()) {
        return Status::InvalidArgument("Direct I/O is not supported by the specified DB.",
                                       options_.use_direct_reads
                                           ? "use_direct_reads"
                                           : "use_direct_io_for_flush_and_compaction");
      }
      return Status::InvalidArgument("Found options incompatible with filesystem", error);
    }
  }

  s = versions_->Recover(by_name, /*allow_unopened=*/read_only(), not_found);
  if (!s.ok()) {
    if (!descriptors_given && s.IsInvalidArgument() &&
        s.ToString().find("Column families not opened") != std::string::npos) {
      // As RocksDB words it for DB::Open without descriptors.
      return Status::InvalidArgument("You have to open all column families. " +
                                     std::string(s.getState()));
    }
    return LevelsBeyondNumLevels(s);
  }
  if (!not_found->empty() && (read_only() || !options_.create_missing_column_families)) {
    std::string list;
    for (const std::string& n : *not_found) list += (list.empty() ? "" : ", ") + n;
    return Status::InvalidArgument("Column family not found: " + list);
  }
  // Every table's path id must name one of its family's table paths
  // (db_paths / cf_paths): a DB written with more paths than it is opened
  // with is refused by name rather than failing on some later read.
  for (const ColumnFamilyData* cfd : versions_->column_families()->live()) {
    const Version* v = cfd->current();
    const size_t num_paths = cfd->options().cf_paths.size();
    for (int level = 0; level < v->num_levels(); ++level) {
      for (const FileMetaData* f : v->files(level)) {
        if (f->path_id < num_paths) continue;
        return Status::InvalidArgument(
            "the MANIFEST places table file " + MakeFileNumber(f->number) +
                ".sst of column family [" + cfd->name() + "] in path id " +
                std::to_string(f->path_id) + ", but the options give the family only " +
                std::to_string(num_paths) + " table path(s) (db_paths / cf_paths)",
            dbname_);
      }
    }
  }
  // The DB's identity before any table is written (tables record it; a
  // read-only open only reads it).
  s = EnsureIdentity();
  if (!s.ok()) return s;
  ColumnFamilySet* cfs = versions_->column_families();
  default_cfd_ = versions_->default_cfd();
  default_cf_ = std::make_unique<ColumnFamilyHandleImpl>(default_cfd_, nullptr, this);
  multi_cf_ = cfs->NumberOfColumnFamilies() > 1;
  write_targets_.families = cfs;
  // With paranoid_checks, every table the MANIFEST lists must be there, at
  // its recorded size: a missing one is damage to report now, not an I/O
  // error on some later read. Without, as in RocksDB, Open goes on and the
  // reads that need the table fail naming it.
  for (const ColumnFamilyData* cfd : cfs->live()) {
    if (!options_.paranoid_checks) break;
    const Version* v = cfd->current();
    for (int level = 0; level < v->num_levels(); ++level) {
      for (const FileMetaData* f : v->files(level)) {
        const std::string& dir = cfd->options().cf_paths[f->path_id].path;
        std::string name = TableFileName(dir, f->number);
        uint64_t size = 0;
        Status fs = fs_->GetFileSize(name, &size);
        if (!fs.ok()) {
          const std::string legacy = dir + "/" + MakeFileNumber(f->number) + ".ldb";
          if (fs_->GetFileSize(legacy, &size).ok()) {
            fs = Status::OK();
            name = legacy;
          }
        }
        if (!fs.ok()) {
          return Status::Corruption("table file listed in the MANIFEST is missing", name);
        }
        if (size != f->file_size) {
          return Status::Corruption(name, "size " + std::to_string(size) + " differs from " +
                                              std::to_string(f->file_size) +
                                              " recorded in the MANIFEST");
        }
      }
    }
  }
  RecoveryState state;
  state.manifest_number = versions_->manifest_file_number();
  state.log_number = versions_->MinLogNumber();
  state.next_file_number = versions_->next_file_number();
  state.min_log_number_to_keep = versions_->min_log_number_to_keep();
  state.last_sequence = versions_->LastSequence();

  // Each family's memtable starts with one reference: the family's.
  for (ColumnFamilyData* cfd : cfs->live()) {
    cfd->mem() = new MemTable(cfd->icmp(), cfd->mem_options());
    // What the tables lack comes from the WALs into these memtables.
    cfd->mem()->SetEarliestSequenceNumber(state.last_sequence + 1);
  }
  s = ReplayWALs(&state);
  if (!s.ok()) return s;
  // Prepared sections left unresolved keep their WALs.
  for (const auto& [name, txn] : recovered_txns_) {
    logs_with_prep_tracker_.MarkLogAsContainingPrepSection(txn->log_number);
  }

  const SequenceNumber last = std::max(state.last_sequence, state.max_sequence);
  *last_out = last;
  last_allocated_sequence_ = last;
  last_sequence_.store(last, std::memory_order_release);
  versions_->MarkFileNumberUsed(state.next_file_number - 1);
  if (read_only()) {
    // The replayed writes stay in the memtables; nothing is written.
    versions_->SetLastSequence(last);
    for (ColumnFamilyData* cfd : cfs->live()) {
      cfd->mem_log_number() = state.oldest_wal_with_data != 0
                                  ? std::max(state.oldest_wal_with_data, cfd->log_number())
                                  : cfd->log_number();
      InstallNewSuperVersion(cfd);
    }
    return Status::OK();
  }

  // This session's WAL. Recovered data goes to level-0 tables (unless
  // avoid_flush_during_recovery), so older WALs become obsolete.
  const uint64_t new_log = versions_->NewFileNumber();
  *new_log_out = new_log;
  s = CreateWAL(new_log);
  if (s.ok()) {
    versions_->SetLastSequence(last);
    for (ColumnFamilyData* cfd : cfs->live()) {
      VersionEdit& edit = state.edits[cfd->id()];
      if (cfd->mem()->num_entries() > 0 && !options_.avoid_flush_during_recovery) {
        FileMetaData meta;
        {
          FlushJob job(MakeJobEnv(), cfd, cfd->mem(), snapshots_.GetAll());
          s = job.Run(&edit, &meta);
          if (s.ok()) cfd->internal_stats()->AddFlushStats(JobPriority::kUser, job.stats());
        }
        if (!s.ok()) break;
        cfd->mem()->Unref();
        cfd->mem() = new MemTable(cfd->icmp(), cfd->mem_options());
        cfd->mem()->SetEarliestSequenceNumber(last + 1);
      }
      const bool keep_old = cfd->mem()->num_entries() > 0 && state.oldest_wal_with_data != 0;
      cfd->mem_log_number() = keep_old ? state.oldest_wal_with_data : new_log;
      edit.SetLogNumber(cfd->mem_log_number());
      if (options_.allow_2pc) {
        // The WALs of the recovered prepared sections stay replayable.
        uint64_t keep = state.oldest_wal_with_data != 0
                            ? std::min(new_log, state.oldest_wal_with_data)
                            : new_log;
        const uint64_t prep = logs_with_prep_tracker_.FindMinLogContainingOutstandingPrep();
        if (prep != 0) keep = std::min(keep, prep);
        edit.SetMinLogNumberToKeep(keep);
      }
      // One MANIFEST record per family: a crash in between leaves the
      // later families' log numbers behind, and their WALs are replayed
      // again (the WALs go only after all records are written).
      s = versions_->LogAndApply(cfd, &edit, &mu_);
      if (!s.ok()) break;
    }
  }
  if (!s.ok()) return s;

  // Each SuperVersion takes its own references; the families keep theirs.
  for (ColumnFamilyData* cfd : cfs->live()) InstallNewSuperVersion(cfd);
  return Status::OK();
}

Status DBImpl::Open(const std::vector<ColumnFamilyDescriptor>& families,
                    std::vector<ColumnFamilyHandle*>* handles, bool descriptors_given) {
  std::map<std::string, ColumnFamilyOptions> by_name;
  Status s = SanitizeFamilies(families, &by_name);
  if (!s.ok()) return s;
  s = PrepareDirectory();
  if (!s.ok()) return s;
  if (!read_only()) {
    // The table paths are created as RocksDB creates them (not their
    // parents): db_paths and the cf_paths of each family opened.
    for (const DbPath& p : options_.db_paths) {
      s = fs_->CreateDirIfMissing(p.path);
      if (!s.ok()) return s;
    }
    for (const auto& [name, cf] : by_name) {
      for (const DbPath& p : cf.cf_paths) {
        s = fs_->CreateDirIfMissing(p.path);
        if (!s.ok()) return s;
      }
    }
  }
  wal_manager_ = std::make_unique<WalManager>(fs_, clock_, info_log_.get(), wal_dir_,
                                              options_.WAL_ttl_seconds, options_.WAL_size_limit_MB);
  std::vector<std::string> not_found;
  uint64_t new_log = 0;
  SequenceNumber last = 0;
  {
    // Recovery runs under the DB mutex: no other thread exists yet, but the
    // state it builds is the mutex's to guard (file I/O under it is fine
    // here, as nothing can wait for it).
    MutexLock l(&mu_);
    s = Recover(by_name, descriptors_given, &not_found, &new_log, &last);
  }
  if (!s.ok()) return s;
  ColumnFamilySet* cfs = versions_->column_families();
  // Families the caller listed that the DB does not have yet.
  for (const std::string& name : not_found) {
    ColumnFamilyHandle* h = nullptr;
    s = CreateColumnFamilyImpl(by_name[name], name, &h);
    if (!s.ok()) return s;
    // The handles below are made for every descriptor. This one's
    // reference is dropped here, without the file sweep a user's handle
    // release makes (the tables are not tracked yet).
    static_cast<ColumnFamilyHandleImpl*>(h)->Detach();
    delete h;
    MutexLock l(&mu_);
    cfs->GetByName(name)->Unref();
  }
  // Like RocksDB (fail_if_options_file_error=false): a failure here is
  // logged, not fatal.
  if (not_found.empty() && !read_only()) RewriteOptionsFile();

  MutexLock l(&mu_);
  if (!read_only()) {
    s = MigrateToDynamicLevelBytes();
    if (!s.ok()) return s;
  }
  if (handles != nullptr) {
    for (const ColumnFamilyDescriptor& d : families) {
      ColumnFamilyData* cfd = cfs->GetByName(d.name);
      cfd->Ref();
      handles->push_back(new ColumnFamilyHandleImpl(cfd, this));
    }
  }
  if (!read_only()) {
    TrackTablesAtOpen();
    DeleteObsoleteFiles();
    MaybeScheduleFlushOrCompaction();
  }
  if (!read_only() && wal_manager_->archiving()) {
    // The archive is purged at open (RocksDB's first purge has no wait)
    // and then every interval, also while no flush runs.
    mu_.Unlock();
    PurgeWalArchive(/*force=*/true);
    wal_purge_task_.Start(clock_, wal_manager_->PurgeIntervalSeconds() * 1000000,
                          [this] { PurgeWalArchive(/*force=*/false); });
    mu_.Lock();
  }
  ScheduleLevelZeroKeyFilters();
  if (!read_only()) {
    time_compaction_task_.Start(clock_, kTimeCompactionCheckSeconds * 1000000, [this] {
      MutexLock l(&mu_);
      if (!shutting_down_.load(std::memory_order_acquire)) MaybeScheduleFlushOrCompaction();
    });
  }
  Log(info_log_.get(),
      "DB opened: last sequence %" PRIu64 ", WAL %06" PRIu64 ".log, MANIFEST-%06" PRIu64
      ", %zu column famil%s",
      last, new_log, versions_->manifest_file_number(), cfs->NumberOfColumnFamilies(),
      cfs->NumberOfColumnFamilies() == 1 ? "y" : "ies");
  if (options_.stats_dump_period_sec > 0) {
    stats_dump_task_.Start(clock_, uint64_t{options_.stats_dump_period_sec} * 1000000,
                           [this] { DumpStatsToLog(this, info_log_.get(), stats_); });
  }
  return Status::OK();
}

// ---------------------------------------------------------------------------
// Migration to level_compaction_dynamic_level_bytes
//
// A DB written with static level targets keeps its data from L1 down; with
// dynamic targets the data should sit in the last levels (L0 goes to a
// base level above them). RocksDB 7.8.3 only drains such a tree by
// compactions (its base level stays at the first non-empty level, as
// Version::ComputeLevelCompactionScores does here); later RocksDB releases
// move the levels down at open, as done here: walking up from the last
// level, each non-empty level moves into the lowest level not yet filled.
// Every level between a moved level and its target is empty, so no newer
// data ends below older data. Like RocksDB, only leveled compaction with
// automatic compactions on, and with allow_ingest_behind the last level
// stays reserved for ingestion.

Status DBImpl::MigrateToDynamicLevelBytes() {
  mu_.AssertHeld();
  for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
    const Options& o = cfd->options();
    if (o.compaction_style != kCompactionStyleLevel || !o.level_compaction_dynamic_level_bytes ||
        o.disable_auto_compactions) {
      continue;
    }
    Version* v = cfd->current();
    const int num_levels = v->num_levels();
    int to = num_levels - 1;
    if (o.allow_ingest_behind) --to;
    VersionEdit edit;
    int moved_levels = 0;
    for (int level = num_levels - 1; level > 0 && to > 0; --level) {
      if (v->files(level).empty()) continue;
      if (level < to) {
        for (const FileMetaData* f : v->files(level)) {
          edit.DeleteFile(level, f->number);
          edit.AddFile(to, *f);
        }
        Log(info_log_.get(),
            "[%s] level_compaction_dynamic_level_bytes: moving %d files from L%d to L%d",
            cfd->name().c_str(), v->NumLevelFiles(level), level, to);
        ++moved_levels;
      }
      --to;
    }
    if (moved_levels == 0) continue;
    Status s = versions_->LogAndApply(cfd, &edit, &mu_);
    if (!s.ok()) return s;
    InstallNewSuperVersion(cfd);
  }
  return Status::OK();
}

void DBImpl::RewriteOptionsFile() {
  // The DB options in force (SetDBOptions changes options_) with each
  // family's options in force (SetOptions).
  std::vector<Options> options;
  options.reserve(versions_->column_families()->live().size());
  std::vector<OptionsFileFamily> fams;
  for (const ColumnFamilyData* cfd : versions_->column_families()->live()) {
    options.push_back(CurrentOptions(cfd));
    fams.push_back(OptionsFileFamily{cfd->name(), &options.back(), &cfd->table_options()});
  }
  std::lock_guard<std::mutex> options_guard(options_file_mu_);
  bool delete_older;
  {
    MutexLock l(&mu_);
    delete_older = disable_delete_obsolete_files_ == 0;
  }
  const uint64_t number = versions_->NewFileNumber();
  Status os = WriteOptionsFile(fs_, dbname_, number, fams, db_dir_.get(), delete_older);
  if (os.ok()) {
    MutexLock l(&mu_);
    options_file_number_ = number;
  } else {
    Log(InfoLogLevel::kWarn, info_log_.get(), "could not write the OPTIONS file: %s",
        os.ToString().c_str());
  }
}

void DBImpl::LogOptions() {
  Logger* log = info_log_.get();
  Log(InfoLogLevel::kHeader, log, "Strata version 0.1.0");
  Log(InfoLogLevel::kHeader, log, "DB path: %s", dbname_.c_str());
  // Every DBOptions field; each family's options follow when the family is
  // set up (VersionSet::NewFamily).
  LogDBOptions(log, options_);
}

Status DBImpl::ReplayWALs(RecoveryState* state) {
  std::vector<std::string> children;
  // Only wal_dir is searched (as RocksDB): WALs left in another directory
  // are not replayed.
  Status s = fs_->GetChildren(wal_dir_, &children);
  if (s.IsNotFound() || s.IsPathNotFound()) {
    return Status::InvalidArgument("wal_dir not found", wal_dir_);
  }
  if (!s.ok()) return s;
  // The oldest WAL any family may need (RocksDB also honours
  // MinLogNumberToKeep). With two-phase commit, older WALs may still hold
  // prepared sections: replay starts at min_log_number_to_keep, and the
  // families skip the records their tables already hold.
  uint64_t min_log = std::max(state->log_number, state->min_log_number_to_keep);
  if (options_.allow_2pc && state->min_log_number_to_keep != 0) {
    min_log = std::min(state->log_number, state->min_log_number_to_keep);
  }
  bool any_wal = false;
  for (const std::string& name : children) {
    uint64_t number;
    FileType type;
    if (ParseFileName(name, &number, &type) && type == FileType::kWalFile) {
      any_wal = true;
      if (number >= min_log) state->wal_numbers.push_back(number);
    }
  }
  std::sort(state->wal_numbers.begin(), state->wal_numbers.end());
  if (read_only() && error_if_wal_file_exists_ && !state->wal_numbers.empty()) {
    return Status::Corruption(
        "the DB was opened read-only with error_if_wal_file_exists, but a WAL file exists",
        LogFileName(wal_dir_, state->wal_numbers.front()));
  }
  if (options_.wal_filter != nullptr && any_wal) {
    // As RocksDB: the filter learns each family's log number (and the
    // names' ids) whenever the WAL directory holds a WAL, before replay.
    std::map<uint32_t, uint64_t> cf_lognumber_map;
    std::map<std::string, uint32_t> cf_name_id_map;
    for (const ColumnFamilyData* cfd : versions_->column_families()->live()) {
      cf_lognumber_map[cfd->id()] = cfd->log_number();
      cf_name_id_map[cfd->name()] = cfd->id();
    }
    options_.wal_filter->ColumnFamilyLogNumberMap(cf_lognumber_map, cf_name_id_map);
  }
  for (uint64_t number : state->wal_numbers) {
    state->next_file_number = std::max(state->next_file_number, number + 1);
    const std::string fname = LogFileName(wal_dir_, number);
    if (state->filter_stopped) {
      // The WAL filter stopped replay in an earlier WAL: this one's records
      // are dropped (obsolete once the recovered data is flushed).
      Log(InfoLogLevel::kWarn, info_log_.get(), "%s: dropped (the WAL filter stopped replay)",
          fname.c_str());
      continue;
    }
    bool has_data = false;
    bool dropped = false;
    s = ReplayOneWAL(number, state, &has_data, &dropped);
    if (!s.ok()) return s;
    uint64_t size = 0;
    const bool sized = fs_->GetFileSize(fname, &size).ok();
    if (dropped || (!has_data && sized && size == 0)) {
      // A WAL holding no bytes (a session that wrote nothing), or one whose
      // history point-in-time recovery cut off, is garbage (left in place
      // by a read-only open).
      if (read_only()) continue;
      s = fs_->DeleteFile(fname);
      if (!s.ok()) return s;
      continue;
    }
    if (state->oldest_wal_with_data == 0) state->oldest_wal_with_data = number;
  }
  return Status::OK();
}

// One WAL's replay in progress (ReplayOneWAL and its steps).
struct DBImpl::WalReplay {
  uint64_t number = 0;
  std::string fname;
  uint64_t file_size = 0;
  WALRecoveryMode mode = WALRecoveryMode::kPointInTimeRecovery;
  RecoveryState* state = nullptr;
  uint64_t records = 0;         // records applied
  uint64_t good_end = 0;        // file offset just past the last record applied
  SequenceNumber next_seq = 1;  // the sequence after the last record applied
  bool first_record = true;
  bool damage_confirmed = false;  // a second read met the damage at the same place

  // A record of this WAL that could follow the ones applied.
  log::RecordPayloadCheck FollowingRecord() const {
    const SequenceNumber known = std::max({next_seq, state->last_sequence, state->max_sequence});
    return BatchInSequenceRange(next_seq, known + kFollowingSequenceWindow);
  }
};

Status DBImpl::OnWalDamage(WalReplay* r, const Status& damage, bool at_end, bool* stop,
                           bool* torn) {
  Log(InfoLogLevel::kWarn, info_log_.get(), "WAL damage: %s", damage.ToString().c_str());
  // A failed (or short) read says nothing about the bytes on disk: it
  // fails the open in every mode rather than cut the log there.
  if (damage.IsIOError()) return damage;
  // Nor does a record of a feature Strata lacks (a compressed WAL): the
  // bytes are fine, the open is refused rather than the log cut there.
  if (damage.IsNotSupported()) return damage;
  // A write torn by a crash of an mmap-written WAL is not cut at the end
  // of the file: a partly copied record is followed by the zeros of the
  // preallocated space, and the reader reports it (a checksum mismatch,
  // or bytes after a zero header). It is still the log's tail when no
  // intact record of this log follows it.
  const WALRecoveryMode mode = r->mode;
  bool tail = false;
  if (mode == WALRecoveryMode::kTolerateCorruptedTailRecords && at_end && damage.IsCorruption()) {
    const log::RecordPayloadCheck follows = r->FollowingRecord();
    Status t = log::CheckFileTail(fs_, r->fname, r->number, r->good_end, r->file_size, &follows);
    if (t.IsIOError()) return t;
    tail = t.ok();
  }
  if (!r->damage_confirmed && (mode == WALRecoveryMode::kPointInTimeRecovery ||
                               mode == WALRecoveryMode::kSkipAnyCorruptedRecords || tail)) {
    // Records are about to be dropped for good: the damage must be on
    // disk, not in one read. A second read must meet it at the same place.
    uint64_t good = 0;
    bool damaged = false;
    Status rs = CountRecordsBeforeDamage(r->number, r->file_size, &good, &damaged);
    if (!rs.ok()) return rs;
    if (!damaged || good != r->records) {
      return Status::IOError("WAL read is not repeatable",
                             damage.ToString() + "; a second read found " +
                                 (damaged ? "damage after " + std::to_string(good) + " records"
                                          : std::string("no damage")) +
                                 " (first read: after " + std::to_string(r->records) + ")");
    }
    r->damage_confirmed = true;
  }
  switch (mode) {
    case WALRecoveryMode::kTolerateCorruptedTailRecords:
      if (tail) {
        *torn = true;
        return Status::OK();
      }
      return damage;
    case WALRecoveryMode::kAbsoluteConsistency:
      return damage;
    case WALRecoveryMode::kPointInTimeRecovery:
      *stop = true;
      return Status::OK();
    case WALRecoveryMode::kSkipAnyCorruptedRecords:
      return Status::OK();
  }
  return damage;
}

Status DBImpl::ApplyWalBatch(WalReplay* r, const WriteBatch& batch, uint64_t record_end,
                             bool* dropped) {
  RecoveryState* state = r->state;
  const SequenceNumber seq = WriteBatchInternal::Sequence(&batch);
  const uint32_t count = WriteBatchInternal::Count(&batch);
  if (r->first_record && state->wal_stopped) {
    // Point-in-time recovery stopped in an earlier WAL. This WAL continues
    // the kept history only if it starts right after it (a session that
    // began after an earlier lossy recovery); otherwise its writes came
    // after lost ones and replaying them would leave a hole.
    const SequenceNumber expected =
        (state->replayed_any ? state->max_sequence : state->last_sequence) + 1;
    if (seq != expected) {
      Log(InfoLogLevel::kWarn, info_log_.get(),
          "dropping %s: starts at sequence %" PRIu64 ", expected %" PRIu64, r->fname.c_str(), seq,
          expected);
      *dropped = true;
      return Status::OK();
    }
    state->wal_stopped = false;
  }
  r->first_record = false;
  // Each family takes the records of WALs not older than its log number
  // (older ones are in its tables); records of dropped families go.
  MemTableTargets targets;
  targets.default_mem = default_cfd_->log_number() <= r->number ? default_cfd_->mem() : nullptr;
  targets.families = versions_->column_families();
  targets.recovery_log_number = r->number;
  targets.recovered = options_.allow_2pc ? &recovered_txns_ : nullptr;
  SequenceNumber next_seq = seq;
  Status s = InsertBatchIntoMemTable(batch, seq, targets, /*concurrent=*/false, &next_seq);
  if (!s.ok()) return s;
  for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
    // A read-only open keeps everything in memory.
    if (read_only()) break;
    if (cfd->mem()->ApproximateMemoryUsage() <= cfd->options().write_buffer_size) continue;
    // A full memtable during replay goes to a level-0 table at once.
    versions_->SetLastSequence(std::max(versions_->LastSequence(), seq + count));
    FileMetaData meta;
    {
      FlushJob job(MakeJobEnv(), cfd, cfd->mem(), snapshots_.GetAll());
      s = job.Run(&state->edits[cfd->id()], &meta);
      if (s.ok()) cfd->internal_stats()->AddFlushStats(JobPriority::kUser, job.stats());
    }
    if (!s.ok()) return s;
    cfd->mem()->Unref();
    cfd->mem() = new MemTable(cfd->icmp(), cfd->mem_options());
    cfd->mem()->SetEarliestSequenceNumber(next_seq);
  }
  if (count > 0) state->max_sequence = std::max(state->max_sequence, seq + count - 1);
  // A Commit marker applies its prepared records past the batch's count.
  if (next_seq > seq) state->max_sequence = std::max(state->max_sequence, next_seq - 1);
  state->replayed_any = true;
  r->good_end = record_end;
  r->next_seq = seq + std::max<uint32_t>(count, 1);
  r->records++;
  return Status::OK();
}

Status DBImpl::FilterWalBatch(WalReplay* r, WriteBatch* batch, WalFilterVerdict* verdict) {
  WalFilter* filter = options_.wal_filter;
  WriteBatch new_batch;
  bool batch_changed = false;
  const WalFilter::WalProcessingOption option =
      filter->LogRecordFound(r->number, r->fname, *batch, &new_batch, &batch_changed);
  *verdict = WalFilterVerdict::kApply;
  switch (option) {
    case WalFilter::WalProcessingOption::kContinueProcessing:
      break;
    case WalFilter::WalProcessingOption::kIgnoreCurrentRecord:
      *verdict = WalFilterVerdict::kSkip;
      return Status::OK();
    case WalFilter::WalProcessingOption::kStopReplay:
      *verdict = WalFilterVerdict::kStopReplay;
      return Status::OK();
    case WalFilter::WalProcessingOption::kCorruptedRecord: {
      // RocksDB's rules: without paranoid_checks the report is ignored
      // (and the record applied as is); with them, it is damage in this
      // record, per wal_recovery_mode.
      const Status damage =
          Status::Corruption("Corruption reported by Wal Filter ", filter->Name());
      Log(InfoLogLevel::kWarn, info_log_.get(), "%s: %s", r->fname.c_str(),
          damage.ToString().c_str());
      if (!options_.paranoid_checks) return Status::OK();
      switch (r->mode) {
        case WALRecoveryMode::kTolerateCorruptedTailRecords:
        case WALRecoveryMode::kAbsoluteConsistency:
          return damage;
        case WALRecoveryMode::kPointInTimeRecovery:
        case WALRecoveryMode::kSkipAnyCorruptedRecords:
          // RocksDB stops reading this WAL at the report; point-in-time
          // recovery goes on only with a WAL continuing the history.
          *verdict = WalFilterVerdict::kStopThisWal;
          return Status::OK();
      }
      return damage;
    }
    default:
      return Status::NotSupported("Unknown WalProcessingOption returned by Wal Filter ",
                                  filter->Name());
  }
  if (!batch_changed) return Status::OK();
  const uint32_t new_count = WriteBatchInternal::Count(&new_batch);
  const uint32_t original_count = WriteBatchInternal::Count(batch);
  if (new_count > original_count) {
    Log(InfoLogLevel::kError, info_log_.get(),
        "%s: the WAL filter %s returned more records (%u) than the original (%u); recovery "
        "aborted",
        r->fname.c_str(), filter->Name(), new_count, original_count);
    return Status::NotSupported("More than original # of records returned by Wal Filter ",
                                filter->Name());
  }
  BatchContents contents;
  Status s = InspectBatch(new_batch, &contents);
  if (!s.ok()) {
    return Status::InvalidArgument(
        "the batch returned by Wal Filter " + std::string(filter->Name()) + " for " + r->fname,
        s.ToString());
  }
  // The changed batch takes the original's place in the sequence.
  WriteBatchInternal::SetSequence(&new_batch, WriteBatchInternal::Sequence(batch));
  *batch = std::move(new_batch);
  return Status::OK();
}

Status DBImpl::ReplayOneWAL(uint64_t number, RecoveryState* state, bool* has_data, bool* dropped) {
  WalReplay r;
  r.number = number;
  r.fname = LogFileName(wal_dir_, number);
  r.mode = options_.wal_recovery_mode;
  r.state = state;
  const std::string& fname = r.fname;
  std::unique_ptr<SequentialFile> file;
  Status s = fs_->NewSequentialFile(fname, FileOptions(), &file);
  if (!s.ok()) return s;
  s = fs_->GetFileSize(fname, &r.file_size);
  if (!s.ok()) return s;
  log::FirstDamageReporter reporter;
  log::Reader reader(std::move(file), &reporter, /*checksum=*/true, number, fname);
  reader.set_expected_file_size(r.file_size);
  Slice record;
  std::string scratch;
  WriteBatch batch;
  bool stopped_here = false;
  bool filter_stopped_here = false;

  while (reader.ReadRecord(&record, &scratch, r.mode)) {
    bool stop = false;
    if (!reporter.first.ok()) {
      s = OnWalDamage(&r, reporter.first, /*at_end=*/false, &stop, nullptr);
      reporter.first = Status::OK();
      if (!s.ok()) return s;
      if (stop) {
        stopped_here = true;
        break;
      }
    }
    // A record that passed its checksum but is not a valid batch is damage
    // too, handled the same way.
    Status damage;
    BatchContents contents;
    if (record.size() < WriteBatchInternal::kHeader) {
      damage = Status::Corruption("log record too small",
                                  fname + " offset " + std::to_string(reader.LastRecordOffset()));
    } else {
      s = WriteBatchInternal::SetContents(&batch, record);
      if (s.ok()) s = InspectBatch(batch, &contents);
      if (!s.ok()) {
        if (!s.IsCorruption()) return s;
        damage = Status::Corruption(
            s.getState(), fname + " record at offset " + std::to_string(reader.LastRecordOffset()));
      }
    }
    if (!damage.ok()) {
      s = OnWalDamage(&r, damage, /*at_end=*/false, &stop, nullptr);
      if (!s.ok()) return s;
      if (stop) {
        stopped_here = true;
        break;
      }
      continue;
    }
    bool filter = options_.wal_filter != nullptr;
    if (filter && r.first_record && state->wal_stopped) {
      // After a point-in-time stop a WAL that does not continue the kept
      // history is dropped unapplied (ApplyWalBatch); as in RocksDB, the
      // filter does not see its records.
      const SequenceNumber expected =
          (state->replayed_any ? state->max_sequence : state->last_sequence) + 1;
      filter = WriteBatchInternal::Sequence(&batch) == expected;
    }
    if (filter) {
      WalFilterVerdict verdict = WalFilterVerdict::kApply;
      s = FilterWalBatch(&r, &batch, &verdict);
      if (!s.ok()) return s;
      if (verdict != WalFilterVerdict::kApply) {
        // The record is not applied. It was read intact: the second read
        // of a damage check counts it, and a tail check starts after it.
        r.records++;
        r.good_end = reader.LastRecordEndOffset();
        r.next_seq = WriteBatchInternal::Sequence(&batch) +
                     std::max<uint32_t>(WriteBatchInternal::Count(&batch), 1);
        if (verdict == WalFilterVerdict::kSkip) continue;
        if (verdict == WalFilterVerdict::kStopReplay) state->filter_stopped = true;
        // kPointInTimeRecovery: later WALs go on only if they continue the
        // kept history, as after damage (but this WAL is not cut: its
        // bytes are fine, and RocksDB leaves them).
        if (verdict == WalFilterVerdict::kStopThisWal &&
            r.mode == WALRecoveryMode::kPointInTimeRecovery) {
          state->wal_stopped = true;
        }
        filter_stopped_here = true;
        break;
      }
    }
    s = ApplyWalBatch(&r, batch, reader.LastRecordEndOffset(), dropped);
    if (!s.ok() || *dropped) return s;
    *has_data = true;
  }
  if (filter_stopped_here) {
    Log(InfoLogLevel::kWarn, info_log_.get(),
        "%s: replay stopped by the WAL filter %s after %" PRIu64 " bytes", fname.c_str(),
        options_.wal_filter->Name(), r.good_end);
    return Status::OK();
  }
  bool torn_tail = false;
  if (!stopped_here && !reporter.first.ok()) {
    bool stop = false;
    s = OnWalDamage(&r, reporter.first, /*at_end=*/true, &stop, &torn_tail);
    if (!s.ok()) return s;
    stopped_here = stop;
    if (torn_tail) {
      Log(InfoLogLevel::kWarn, info_log_.get(),
          "%s ends in a torn write after %" PRIu64 " bytes (tolerated)", fname.c_str(), r.good_end);
    }
  }
  if (!stopped_here && !torn_tail &&
      (r.mode == WALRecoveryMode::kTolerateCorruptedTailRecords ||
       r.mode == WALRecoveryMode::kAbsoluteConsistency)) {
    // The log ended silently: what follows its last record must be a torn
    // final write. A damaged length looks the same to the reader, but then
    // intact records follow, and these modes never drop records unnoticed.
    const log::RecordPayloadCheck follows = r.FollowingRecord();
    s = log::CheckFileTail(fs_, fname, number, r.good_end, r.file_size, &follows);
    if (!s.ok()) return s;
  }
  if (stopped_here) {
    // Cut the damage off so later opens see a clean log that ends where the
    // kept history ends (RocksDB instead flushes and deletes the WAL).
    state->wal_stopped = true;
    if (read_only()) {
      Log(InfoLogLevel::kWarn, info_log_.get(),
          "point-in-time recovery stopped in %s at %" PRIu64 " bytes (read-only: left as is)",
          fname.c_str(), r.good_end);
      if (r.good_end == 0) *dropped = true;
      return Status::OK();
    }
    s = fs_->Truncate(fname, r.good_end);
    if (!s.ok()) return s;
    Log(InfoLogLevel::kWarn, info_log_.get(),
        "point-in-time recovery stopped in %s; truncated it to %" PRIu64 " bytes", fname.c_str(),
        r.good_end);
    if (r.good_end == 0) *dropped = true;
  }
  Log(info_log_.get(), "Replayed %s: %" PRIu64 " records, last sequence %" PRIu64, fname.c_str(),
      r.records, state->max_sequence);
  return Status::OK();
}

Status DBImpl::CountRecordsBeforeDamage(uint64_t number, uint64_t file_size, uint64_t* good,
                                        bool* damaged) {
  *good = 0;
  *damaged = false;
  const std::string fname = LogFileName(wal_dir_, number);
  std::unique_ptr<SequentialFile> file;
  Status s = fs_->NewSequentialFile(fname, FileOptions(), &file);
  if (!s.ok()) return s;
  log::FirstDamageReporter reporter;
  log::Reader reader(std::move(file), &reporter, /*checksum=*/true, number, fname);
  reader.set_expected_file_size(file_size);
  Slice record;
  std::string scratch;
  WriteBatch batch;
  // Point-in-time mode: the reader stops at the first report.
  while (reader.ReadRecord(&record, &scratch, WALRecoveryMode::kPointInTimeRecovery)) {
    if (!reporter.first.ok()) break;
    BatchContents contents;
    if (record.size() < WriteBatchInternal::kHeader ||
        !WriteBatchInternal::SetContents(&batch, record).ok() ||
        !InspectBatch(batch, &contents).ok()) {
      *damaged = true;
      return Status::OK();
    }
    ++*good;
  }
  if (!reporter.first.ok()) {
    if (reporter.first.IsIOError()) return reporter.first;
    *damaged = true;
  }
  return Status::OK();
}

Status DBImpl::VerifyWAL(uint64_t number) {
  const std::string fname = LogFileName(wal_dir_, number);
  uint64_t size = 0;
  Status s = fs_->GetFileSize(fname, &size);
  std::unique_ptr<SequentialFile> file;
  if (s.ok()) s = fs_->NewSequentialFile(fname, FileOptions(), &file);
  if (!s.ok()) return s;
  log::FirstDamageReporter reporter;
  log::Reader reader(std::move(file), &reporter, /*checksum=*/true, number, fname);
  reader.set_expected_file_size(size);
  Slice record;
  std::string scratch;
  // A torn tail is not damage here (a crash could leave one; replay drops
  // it); a bad record before the end is.
  uint64_t good_end = 0;
  SequenceNumber next_seq = 1;
  while (reporter.first.ok() &&
         reader.ReadRecord(&record, &scratch, WALRecoveryMode::kTolerateCorruptedTailRecords)) {
    good_end = reader.LastRecordEndOffset();
    if (record.size() >= WriteBatchInternal::kHeader) {
      next_seq =
          DecodeFixed64(record.data()) + std::max<uint32_t>(DecodeFixed32(record.data() + 8), 1);
    }
  }
  if (!reporter.first.ok()) return reporter.first;
  // A silent end before the end of the file is a torn tail only if no
  // record follows it (with no write in flight, a live WAL's records are
  // numbered up to the last allocated sequence).
  const log::RecordPayloadCheck follows =
      BatchInSequenceRange(next_seq, std::max(next_seq, last_allocated_sequence_));
  return log::CheckFileTail(fs_, fname, number, good_end, size, &follows);
}

Status DBImpl::CreateWAL(uint64_t number) {
  std::unique_ptr<WritableFile> file;
  const std::string fname = LogFileName(wal_dir_, number);
  Status s = fs_->NewWritableFile(fname, wal_file_options_, &file);
  if (!s.ok()) return s;
  if (options_.wal_bytes_per_sync > 0) {
    // Range syncs at the WAL's flushes only (env/paced_writable_file.h);
    // WAL writes are never rate limited.
    PacedWriteOptions pw;
    pw.bytes_per_sync = options_.wal_bytes_per_sync;
    pw.range_sync_on_flush_only = true;
    file = NewPacedWritableFile(std::move(file), pw);
  }
  log_ = std::make_unique<log::Writer>(std::move(file), number, /*recycle_log_files=*/false,
                                       /*manual_flush=*/options_.manual_wal_flush);
  if (options_.wal_compression != kNoCompression) {
    s = log_->AddCompressionTypeRecord(options_.wal_compression);
    if (!s.ok()) return s;
  }
  log_number_ = number;
  current_wal_number_.store(number, std::memory_order_relaxed);
  // Make the new file's directory entry durable, so a synced write in it
  // survives power loss.
  return db_dir_->Fsync();
}

Status DBImpl::EnsureIdentity() {
  const std::string fname = IdentityFileName(dbname_);
  if (fs_->FileExists(fname).ok()) {
    std::string id;
    Status s = ReadFileToString(fs_, fname, &id);
    if (!s.ok()) return s;
    while (!id.empty() && (id.back() == '\n' || id.back() == '\r' || id.back() == ' ')) {
      id.pop_back();
    }
    if (!id.empty() || read_only()) {
      db_id_ = id;  // tables record it (the db_id property)
      return Status::OK();
    }
  }
  if (read_only()) return Status::OK();
  const std::string id = NewUuid();
  FileOptions opts;
  opts.use_fsync = options_.use_fsync;
  Status s = WriteStringToFile(fs_, id, fname, /*should_sync=*/true, opts);
  if (s.ok()) db_id_ = id;
  return s;
}

// ---- DB static functions ----

namespace {

// DB::Open and DB::OpenForReadOnly: one DBImpl opened in `mode` with the
// given families (descriptors_given false: the default family alone, from
// `options`). The default family's options (if listed) go with the DB
// options.
Status OpenInMode(const DBOptions& options, const std::string& path,
                  const std::vector<ColumnFamilyDescriptor>& column_families,
                  bool descriptors_given, std::vector<ColumnFamilyHandle*>* handles,
                  std::unique_ptr<DB>* db, DBImpl::OpenMode mode, bool error_if_wal_file_exists) {
  if (handles != nullptr) handles->clear();
  db->reset();
  ColumnFamilyOptions default_options;
  for (const ColumnFamilyDescriptor& d : column_families) {
    if (d.name == kDefaultColumnFamilyName) default_options = d.options;
  }
  const Options merged(options, default_options);
  Status s = DBImpl::ValidateOptions(merged);
  if (!s.ok()) return s;
  auto impl = std::make_unique<DBImpl>(merged, path, mode, error_if_wal_file_exists);
  s = impl->Open(column_families, handles, descriptors_given);
  if (!s.ok()) {
    if (handles != nullptr) {
      for (ColumnFamilyHandle* h : *handles) {
        impl->DestroyColumnFamilyHandle(h).PermitUncheckedError();
      }
      handles->clear();
    }
    return s;
  }
  *db = std::move(impl);
  return Status::OK();
}

}  // namespace

Status DB::Open(const Options& options, const std::string& path, std::unique_ptr<DB>* db) {
  return OpenInMode(options, path, {ColumnFamilyDescriptor(kDefaultColumnFamilyName, options)},
                    /*descriptors_given=*/false, nullptr, db, DBImpl::OpenMode::kReadWrite, false);
}

Status DB::Open(const DBOptions& options, const std::string& path,
                const std::vector<ColumnFamilyDescriptor>& column_families,
                std::vector<ColumnFamilyHandle*>* handles, std::unique_ptr<DB>* db) {
  return OpenInMode(options, path, column_families, /*descriptors_given=*/true, handles, db,
                    DBImpl::OpenMode::kReadWrite, false);
}

Status DB::OpenForReadOnly(const Options& options, const std::string& path, std::unique_ptr<DB>* db,
                           bool error_if_wal_file_exists) {
  return OpenInMode(options, path, {ColumnFamilyDescriptor(kDefaultColumnFamilyName, options)},
                    /*descriptors_given=*/false, nullptr, db, DBImpl::OpenMode::kReadOnly,
                    error_if_wal_file_exists);
}

Status DB::OpenForReadOnly(const DBOptions& options, const std::string& path,
                           const std::vector<ColumnFamilyDescriptor>& column_families,
                           std::vector<ColumnFamilyHandle*>* handles, std::unique_ptr<DB>* db,
                           bool error_if_wal_file_exists) {
  return OpenInMode(options, path, column_families, /*descriptors_given=*/true, handles, db,
                    DBImpl::OpenMode::kReadOnly, error_if_wal_file_exists);
}

Status DB::ListColumnFamilies(const DBOptions& options, const std::string& path,
                              std::vector<std::string>* names) {
  names->clear();
  FileSystem* fs = options.env->GetFileSystem();
  std::string current;
  Status s = ReadFileToString(fs, CurrentFileName(path), &current);
  if (!s.ok()) return s;
  if (current.empty() || current.back() != '\n') {
    return Status::Corruption("CURRENT file does not end with newline", CurrentFileName(path));
  }
  current.pop_back();
  const std::string manifest = path + "/" + current;
  std::unique_ptr<SequentialFile> file;
  s = fs->NewSequentialFile(manifest, FileOptions(), &file);
  if (!s.ok()) return s;
  log::FirstDamageReporter reporter;
  log::Reader reader(std::move(file), &reporter, true, 0, manifest);
  std::map<uint32_t, std::string> families = {{0, kDefaultColumnFamilyName}};
  Slice record;
  std::string scratch;
  while (reader.ReadRecord(&record, &scratch, WALRecoveryMode::kTolerateCorruptedTailRecords)) {
    VersionEdit edit;
    s = edit.DecodeFrom(record);
    if (!s.ok()) return s;
    if (edit.column_family_add()) families[edit.column_family()] = *edit.column_family_add();
    if (edit.is_column_family_drop()) families.erase(edit.column_family());
  }
  if (!reporter.first.ok()) return reporter.first;
  for (const auto& [id, name] : families) names->push_back(name);
  return Status::OK();
}

Status DestroyDB(const std::string& path, const Options& options) {
  FileSystem* fs = options.env->GetFileSystem();
  std::vector<std::string> children;
  Status s = fs->GetChildren(path, &children);
  if (!s.ok()) {
    // Nothing to destroy when the directory does not exist. A path that
    // cannot be a directory (a file, or under one: ENOTDIR) is an error,
    // as RocksDB's (its lock file cannot be created there).
    return s.IsPathNotFound() || s.IsNotFound() ? Status::OK() : s;
  }
  std::unique_ptr<FileLock> lock;
  const std::string lock_name = LockFileName(path);
  s = fs->LockFile(lock_name, &lock);
  if (!s.ok()) return s;
  Status result;
  for (const std::string& name : children) {
    uint64_t number;
    FileType type;
    if (!ParseFileName(name, &number, &type) || type == FileType::kDBLockFile) continue;
    Status d = fs->DeleteFile(path + "/" + name);
    if (result.ok() && !d.ok() && !d.IsNotFound() && !d.IsPathNotFound()) result = d;
  }
  // The tables of the other table paths, then each path if that empties
  // it (the DB's own directory goes last, below).
  std::vector<std::string> table_dirs;
  auto add_dir = [&](const DbPath& p) {
    if (SameDirectory(p.path, path)) return;
    for (const std::string& d : table_dirs) {
      if (SameDirectory(d, p.path)) return;
    }
    table_dirs.push_back(p.path);
  };
  for (const DbPath& p : options.db_paths) add_dir(p);
  // (RocksDB also takes the cf_paths of the families it is given; Strata's
  // DestroyDB takes the default family's, in options.)
  for (const DbPath& p : options.cf_paths) add_dir(p);
  for (const std::string& dir : table_dirs) {
    std::vector<std::string> names;
    if (!fs->GetChildren(dir, &names).ok()) continue;
    for (const std::string& name : names) {
      uint64_t number;
      FileType type;
      if (!ParseFileName(name, &number, &type) ||
          (type != FileType::kTableFile && type != FileType::kBlobFile)) {
        continue;
      }
      Status d = fs->DeleteFile(dir + "/" + name);
      if (result.ok() && !d.ok() && !d.IsNotFound() && !d.IsPathNotFound()) result = d;
    }
    fs->DeleteDir(dir).PermitUncheckedError();  // only if empty
  }
  // The WALs of wal_dir when it is another directory (RocksDB deletes
  // them too, and the directory if that leaves it empty).
  const std::string wal_dir = WalDirOf(path, options.wal_dir);
  if (wal_dir != path) {
    std::vector<std::string> wals;
    if (fs->GetChildren(wal_dir, &wals).ok()) {
      for (const std::string& name : wals) {
        uint64_t number;
        FileType type;
        if (!ParseFileName(name, &number, &type) || type != FileType::kWalFile) continue;
        Status d = fs->DeleteFile(wal_dir + "/" + name);
        if (result.ok() && !d.ok() && !d.IsNotFound() && !d.IsPathNotFound()) result = d;
      }
    }
  }
  // Archived WALs (DBOptions::WAL_ttl_seconds, WAL_size_limit_MB), then
  // the archive directory itself; in the DB's directory and in wal_dir.
  for (const std::string& archive : {ArchivalDirectory(path), ArchivalDirectory(wal_dir)}) {
    std::vector<std::string> archived;
    if (!fs->GetChildren(archive, &archived).ok()) continue;
    for (const std::string& name : archived) {
      uint64_t number;
      FileType type;
      if (!ParseFileName(name, &number, &type) || type != FileType::kWalFile) continue;
      Status d = fs->DeleteFile(archive + "/" + name);
      if (result.ok() && !d.ok() && !d.IsNotFound() && !d.IsPathNotFound()) result = d;
    }
    fs->DeleteDir(archive).PermitUncheckedError();
  }
  if (wal_dir != path) fs->DeleteDir(wal_dir).PermitUncheckedError();  // only if empty
  fs->UnlockFile(std::move(lock)).PermitUncheckedError();
  fs->DeleteFile(lock_name).PermitUncheckedError();
  // Succeeds only if nothing else lives in the directory.
  fs->DeleteDir(path).PermitUncheckedError();
  return result;
}

}  // namespace strata
