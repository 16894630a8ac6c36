// BackupEngine (include/strata/utilities/backup_engine.h) and its
// implementation class (utilities/backup/backup_engine_impl.h). The layout
// and the meta file are RocksDB 7.8.3's; docs/design/backup.md says how a
// backup is made and restored and where Strata differs.

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <limits>
#include <set>
#include <thread>
#include <unordered_set>
#include <utility>

#include "db/filename.h"
#include "db/manifest_single_path.h"
#include "env/thread_priority.h"
#include "strata/sst_file_writer.h"
#include "util/crc32c.h"
#include "utilities/backup/backup_engine_impl.h"
#include "utilities/backup/backup_meta.h"

namespace strata {
namespace backup {
namespace {

constexpr size_t kCopyBufferSize = 5 * 1024 * 1024;  // RocksDB's copy buffer
constexpr size_t kMaxAppMetaSize = 1024 * 1024;      // RocksDB's limit
constexpr char kSharedDir[] = "shared";
constexpr char kSharedChecksumDir[] = "shared_checksum";
constexpr char kPrivateDir[] = "private";
constexpr char kMetaDir[] = "meta";

// The decimal id a meta file or private directory is named by; 0 if the
// name is not exactly a positive decimal uint32.
BackupID ParseBackupId(const std::string& name) {
  if (name.empty() || name.size() > 10 || name[0] == '0') return 0;
  uint64_t v = 0;
  for (char c : name) {
    if (c < '0' || c > '9') return 0;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  return v > std::numeric_limits<BackupID>::max() ? 0 : static_cast<BackupID>(v);
}

// The table file's db_session_id property, "" when it has none or cannot be
// read (then the legacy crc32c name is used, as RocksDB does).
std::string TableSessionId(Env* env, const std::string& path) {
  Options options;
  options.env = env;
  SstFileReader reader(options);
  if (!reader.Open(path).ok()) return "";
  std::shared_ptr<const TableProperties> props = reader.GetTableProperties();
  return props != nullptr ? props->db_session_id : "";
}

}  // namespace

BackupEngineImpl::BackupEngineImpl(const BackupEngineOptions& options, Env* db_env, bool read_only)
    : options_(options),
      db_env_(db_env != nullptr ? db_env : Env::Default()),
      backup_env_(options.backup_env != nullptr ? options.backup_env : db_env_),
      db_fs_(db_env_->GetFileSystem()),
      backup_fs_(backup_env_->GetFileSystem()),
      read_only_(read_only) {
  // Strip trailing slashes so Abs() makes one-slash paths.
  while (options_.backup_dir.size() > 1 && options_.backup_dir.back() == '/') {
    options_.backup_dir.pop_back();
  }
}

BackupEngineImpl::~BackupEngineImpl() = default;

Status BackupEngineImpl::Initialize() {
  MutexLock l(&mu_);
  const BackupEngineOptions& o = options_;
  if (o.backup_dir.empty()) {
    return Status::InvalidArgument("BackupEngineOptions::backup_dir is empty");
  }
  if (o.backup_rate_limit != 0) {
    return Status::NotSupported(
        "BackupEngineOptions::backup_rate_limit (no rate limiter in Strata)");
  }
  if (o.restore_rate_limit != 0) {
    return Status::NotSupported(
        "BackupEngineOptions::restore_rate_limit (no rate limiter in Strata)");
  }
  if (o.max_background_operations < 1) {
    return Status::InvalidArgument("BackupEngineOptions::max_background_operations must be >= 1");
  }
  if (o.schema_version < 1 || o.schema_version > 2) {
    return Status::InvalidArgument("BackupEngineOptions::schema_version must be 1 or 2");
  }
  const uint32_t naming =
      o.share_files_with_checksum_naming & BackupEngineOptions::kMaskNoNamingFlags;
  if (naming != BackupEngineOptions::kLegacyCrc32cAndFileSize &&
      naming != BackupEngineOptions::kUseDbSessionId) {
    return Status::InvalidArgument(
        "BackupEngineOptions::share_files_with_checksum_naming: unknown naming scheme");
  }
  if (read_only_ && o.destroy_old_data) {
    return Status::InvalidArgument("Can't destroy old data with ReadOnly BackupEngine");
  }
  Log(o.info_log, "BackupEngine: opening %s%s", o.backup_dir.c_str(),
      read_only_ ? " (read-only)" : "");

  if (!read_only_) {
    std::vector<std::string> dirs = {o.backup_dir};
    if (o.share_table_files) {
      dirs.push_back(Abs(o.share_files_with_checksum ? kSharedChecksumDir : kSharedDir));
    }
    dirs.push_back(Abs(kPrivateDir));
    dirs.push_back(Abs(kMetaDir));
    for (const std::string& d : dirs) {
      Status s = backup_fs_->CreateDirIfMissing(d);
      if (!s.ok()) return s;
    }
  }

  std::vector<std::string> meta_children;
  {
    Status s = backup_fs_->GetChildren(Abs(kMetaDir), &meta_children);
    if (s.IsNotFound() || s.IsPathNotFound()) {
      return Status::NotFound(Abs(kMetaDir) + " is missing");
    }
    if (!s.ok()) return s;
  }
  std::vector<BackupID> ids;
  for (const std::string& child : meta_children) {
    const BackupID id = ParseBackupId(child);
    if (id == 0) {
      Log(o.info_log, "BackupEngine: skipping unrecognized meta file %s", child.c_str());
      continue;
    }
    ids.push_back(id);
  }
  std::sort(ids.begin(), ids.end());
  latest_backup_id_ = ids.empty() ? 0 : ids.back();
  latest_valid_backup_id_ = 0;

  if (o.destroy_old_data) {
    for (BackupID id : ids) backups_[id] = std::make_unique<Backup>();
    // Nothing loaded: every file is unreferenced and goes.
    Status s;
    for (BackupID id : ids) {
      Status d = DeleteBackupNoGC(id);
      if (s.ok() && !d.ok()) s = d;
    }
    Status g = GarbageCollectLocked();
    if (s.ok()) s = g;
    latest_backup_id_ = 0;
    return s;
  }

  std::unordered_map<std::string, uint64_t> sizes;
  for (const char* dir : {kSharedDir, kSharedChecksumDir}) {
    Status s = ChildSizes(Abs(dir), &sizes);
    if (!s.ok()) return s;
  }
  // Newest first, so a read-only engine keeps the newest valid ones.
  int to_open = read_only_ ? o.max_valid_backups_to_open : std::numeric_limits<int>::max();
  for (auto it = ids.rbegin(); it != ids.rend() && to_open > 0; ++it) {
    const BackupID id = *it;
    Status s = ChildSizes(Abs(PrivateDir(id)), &sizes);
    std::unique_ptr<Backup> b;
    if (s.ok()) s = LoadBackup(id, sizes, &b);
    if (s.IsCorruption() || s.IsNotSupported()) {
      Log(o.info_log, "BackupEngine: backup %u corrupted -- %s", id, s.ToString().c_str());
      corrupt_backups_[id] = s;
    } else if (!s.ok()) {
      return s;
    } else {
      backups_[id] = std::move(b);
      if (latest_valid_backup_id_ == 0) latest_valid_backup_id_ = id;
      --to_open;
    }
  }
  if (!read_only_) {
    // Leftovers of interrupted backups and deletions.
    Status s = GarbageCollectLocked();
    if (!s.ok()) {
      Log(o.info_log, "BackupEngine: garbage collection at open -- %s", s.ToString().c_str());
    }
  }
  Log(o.info_log, "BackupEngine: latest backup %u, latest valid backup %u", latest_backup_id_,
      latest_valid_backup_id_);
  return Status::OK();
}

Status BackupEngineImpl::ChildSizes(const std::string& dir,
                                    std::unordered_map<std::string, uint64_t>* sizes) const {
  std::vector<std::string> children;
  Status s = backup_fs_->GetChildren(dir, &children);
  if (s.IsNotFound() || s.IsPathNotFound()) return Status::OK();
  if (!s.ok()) return s;
  for (const std::string& c : children) {
    uint64_t size = 0;
    const std::string path = dir + "/" + c;
    bool is_dir = false;
    if (backup_fs_->IsDirectory(path, &is_dir).ok() && is_dir) continue;
    s = backup_fs_->GetFileSize(path, &size);
    if (s.IsNotFound() || s.IsPathNotFound()) continue;  // deleted meanwhile
    if (!s.ok()) return s;
    (*sizes)[path] = size;
  }
  return Status::OK();
}

Status BackupEngineImpl::LoadBackup(BackupID id,
                                    const std::unordered_map<std::string, uint64_t>& sizes,
                                    std::unique_ptr<Backup>* backup) {
  mu_.AssertHeld();
  std::string text;
  const std::string meta_name = MetaFile(id);
  Status s = ReadFileToString(backup_fs_, meta_name, &text);
  if (!s.ok()) return s;
  BackupMetaContents meta;
  s = DecodeBackupMeta(text, meta_name, &meta);
  if (!s.ok()) return s;
  // Check every file first so a damaged backup holds no refs.
  std::vector<uint64_t> file_sizes;
  for (const BackupMetaFileEntry& f : meta.files) {
    uint64_t size = 0;
    auto known = files_.find(f.path);
    if (known != files_.end()) {
      size = known->second->size;
    } else {
      auto e = sizes.find(Abs(f.path));
      if (e == sizes.end()) {
        return Status::Corruption("Pathname in meta file not found on disk: " + Abs(f.path));
      }
      size = e->second;
    }
    if (f.has_size && f.size != size) {
      return Status::Corruption("For file " + f.path + " expected size " + std::to_string(f.size) +
                                " but found size " + std::to_string(size));
    }
    file_sizes.push_back(size);
  }
  auto b = std::make_unique<Backup>();
  b->timestamp = meta.timestamp;
  b->sequence_number = meta.sequence_number;
  b->app_metadata = std::move(meta.app_metadata);
  for (size_t i = 0; i < meta.files.size(); ++i) {
    const BackupMetaFileEntry& f = meta.files[i];
    s = AddFile(b.get(), f.path, file_sizes[i], f.has_checksum, f.crc32c);
    if (!s.ok()) {
      // Undo the refs taken so far.
      for (auto& rec : b->files) --rec->refs;
      return s;
    }
  }
  *backup = std::move(b);
  return Status::OK();
}

Status BackupEngineImpl::AddFile(Backup* b, const std::string& path, uint64_t size,
                                 bool has_checksum, uint32_t crc32c) {
  mu_.AssertHeld();
  auto it = files_.find(path);
  if (it == files_.end()) {
    auto rec = std::make_shared<FileRecord>();
    rec->path = path;
    rec->size = size;
    rec->has_checksum = has_checksum;
    rec->crc32c = crc32c;
    it = files_.emplace(path, std::move(rec)).first;
  } else {
    FileRecord& rec = *it->second;
    if (rec.size != size) {
      return Status::Corruption("Size mismatch for existing backup file: " + path +
                                " Size in backup is " + std::to_string(rec.size) +
                                " while size in DB is " + std::to_string(size));
    }
    if (has_checksum && !rec.has_checksum) {
      rec.has_checksum = true;
      rec.crc32c = crc32c;
    } else if (has_checksum && rec.crc32c != crc32c) {
      return Status::Corruption("Checksum mismatch for existing backup file: " + path +
                                " expected " + std::to_string(rec.crc32c) + " computed " +
                                std::to_string(crc32c));
    }
  }
  ++it->second->refs;
  b->size += size;
  b->files.push_back(it->second);
  return Status::OK();
}

// ---- reading ----

void BackupEngineImpl::FillInfo(BackupID id, const Backup& b, BackupInfo* info,
                                bool details) const {
  *info =
      BackupInfo(id, b.timestamp, b.size, static_cast<uint32_t>(b.files.size()), b.app_metadata);
  if (!details) return;
  const std::string dir = Abs(PrivateDir(id));
  for (const auto& f : b.files) {
    BackupFileInfo fi;
    fi.relative_filename = f->path;
    fi.directory = dir;
    fi.size = f->size;
    uint64_t number = 0;
    FileType type;
    if (ParseFileName(DbFileNameOfBackupFile(f->path), &number, &type)) {
      fi.file_number = number;
      fi.file_type = type;
    }
    if (f->has_checksum) {
      // RocksDB's FileChecksumGenCrc32c form: the crc32c big-endian.
      std::string c(4, '\0');
      for (int k = 0; k < 4; ++k) c[k] = static_cast<char>(f->crc32c >> (24 - 8 * k));
      fi.file_checksum = c;
      fi.file_checksum_func_name = kBackupFileChecksumFuncName;
    }
    info->file_details.push_back(std::move(fi));
  }
  info->name_for_open = dir;
}

Status BackupEngineImpl::GetInfoLocked(BackupID backup_id, BackupInfo* info, bool details) const {
  mu_.AssertHeld();
  auto c = corrupt_backups_.find(backup_id);
  if (c != corrupt_backups_.end()) return Status::Corruption(c->second.ToString());
  auto it = backups_.find(backup_id);
  if (it == backups_.end()) return Status::NotFound("Backup not found");
  FillInfo(backup_id, *it->second, info, details);
  return Status::OK();
}

Status BackupEngineImpl::GetLatestBackupInfo(BackupInfo* backup_info,
                                             bool include_file_details) const {
  MutexLock l(&mu_);
  if (latest_valid_backup_id_ == 0) return Status::NotFound("No backup");
  return GetInfoLocked(latest_valid_backup_id_, backup_info, include_file_details);
}

Status BackupEngineImpl::GetBackupInfo(BackupID backup_id, BackupInfo* backup_info,
                                       bool include_file_details) const {
  MutexLock l(&mu_);
  return GetInfoLocked(backup_id, backup_info, include_file_details);
}

void BackupEngineImpl::GetBackupInfo(std::vector<BackupInfo>* backup_infos,
                                     bool include_file_details) const {
  MutexLock l(&mu_);
  backup_infos->clear();
  for (const auto& [id, b] : backups_) {
    backup_infos->emplace_back();
    FillInfo(id, *b, &backup_infos->back(), include_file_details);
  }
}

void BackupEngineImpl::GetCorruptedBackups(std::vector<BackupID>* corrupt_backup_ids) const {
  MutexLock l(&mu_);
  corrupt_backup_ids->clear();
  for (const auto& [id, s] : corrupt_backups_) corrupt_backup_ids->push_back(id);
}

Status BackupEngineImpl::ComputeChecksum(FileSystem* fs, const std::string& path,
                                         uint64_t size_limit, bool stoppable, uint32_t* crc,
                                         uint64_t* size) const {
  std::unique_ptr<SequentialFile> file;
  Status s = fs->NewSequentialFile(path, FileOptions(), &file);
  if (!s.ok()) return s;
  std::unique_ptr<char[]> buf(new char[kCopyBufferSize]);
  uint32_t c = 0;
  uint64_t n = 0;
  while (size_limit > 0) {
    if (stoppable && stop_backup_.load(std::memory_order_acquire)) {
      return Status::Incomplete("Backup stopped");
    }
    Slice data;
    s = file->Read(static_cast<size_t>(std::min<uint64_t>(kCopyBufferSize, size_limit)), &data,
                   buf.get());
    if (!s.ok()) return s;
    if (data.empty()) break;
    c = crc32c::Extend(c, data.data(), data.size());
    n += data.size();
    size_limit -= data.size();
  }
  *crc = c;
  *size = n;
  return Status::OK();
}

Status BackupEngineImpl::VerifyBackup(BackupID backup_id, bool verify_with_checksum) const {
  MutexLock l(&mu_);
  auto c = corrupt_backups_.find(backup_id);
  if (c != corrupt_backups_.end()) return c->second;
  auto it = backups_.find(backup_id);
  if (it == backups_.end()) return Status::NotFound("Backup not found");
  Log(options_.info_log, "BackupEngine: verifying backup %u", backup_id);
  for (const auto& f : it->second->files) {
    const std::string path = Abs(f->path);
    uint64_t size = 0;
    Status s = backup_fs_->GetFileSize(path, &size);
    if (s.IsNotFound() || s.IsPathNotFound()) return Status::NotFound("File missing: " + path);
    if (!s.ok()) return s;
    if (size != f->size) {
      return Status::Corruption("File corrupted: File size mismatch for " + path +
                                ": Expected file size is " + std::to_string(f->size) +
                                " while found file size is " + std::to_string(size));
    }
    if (verify_with_checksum && f->has_checksum) {
      uint32_t crc = 0;
      s = ComputeChecksum(backup_fs_, path, UINT64_MAX, /*stoppable=*/false, &crc, &size);
      if (!s.ok()) return s;
      if (crc != f->crc32c) {
        return Status::Corruption("File corrupted: Checksum mismatch for " + path +
                                  ": Expected checksum is " + std::to_string(f->crc32c) +
                                  " while computed checksum is " + std::to_string(crc));
      }
    }
  }
  return Status::OK();
}

// ---- copying ----

Status BackupEngineImpl::CopyOne(CopyItem* item,
                                 const std::function<void(uint64_t)>& on_bytes) const {
  FileSystem* dst_fs = item->src_on_db_env ? backup_fs_ : db_fs_;
  FileSystem* src_fs = item->src_on_db_env ? db_fs_ : backup_fs_;
  std::unique_ptr<WritableFile> dst;
  Status s = dst_fs->NewWritableFile(item->dst, FileOptions(), &dst);
  if (!s.ok()) return s;
  uint32_t crc = 0;
  uint64_t written = 0;
  if (item->src.empty()) {
    s = dst->Append(item->contents);
    crc = crc32c::Value(item->contents.data(), item->contents.size());
    written = item->contents.size();
  } else {
    std::unique_ptr<SequentialFile> src;
    s = src_fs->NewSequentialFile(item->src, FileOptions(), &src);
    uint64_t limit = item->size_limit;
    std::unique_ptr<char[]> buf(new char[kCopyBufferSize]);
    while (s.ok() && limit > 0) {
      if (stop_backup_.load(std::memory_order_acquire) && item->src_on_db_env) {
        s = Status::Incomplete("Backup stopped");
        break;
      }
      Slice data;
      s = src->Read(static_cast<size_t>(std::min<uint64_t>(kCopyBufferSize, limit)), &data,
                    buf.get());
      if (!s.ok() || data.empty()) break;
      crc = crc32c::Extend(crc, data.data(), data.size());
      written += data.size();
      limit -= data.size();
      s = dst->Append(data);
      if (s.ok()) on_bytes(data.size());
    }
  }
  if (s.ok() && options_.sync) s = dst->Sync();
  Status c = dst->Close();
  if (s.ok()) s = c;
  item->size = written;
  item->crc32c = crc;
  return s;
}

void BackupEngineImpl::RunCopies(std::vector<CopyItem>* items,
                                 const std::function<void()>& progress, CpuPriority cpu) const {
  // Progress: one callback per callback_trigger_interval_size bytes, from
  // any copy thread but never two at once.
  std::mutex progress_mu;
  uint64_t toward_next = 0;
  const uint64_t interval = std::max<uint64_t>(1, options_.callback_trigger_interval_size);
  auto on_bytes = [&](uint64_t n) {
    if (!progress) return;
    std::lock_guard<std::mutex> g(progress_mu);
    toward_next += n;
    while (toward_next >= interval) {
      toward_next -= interval;
      progress();
    }
  };
  std::atomic<size_t> next{0};
  const bool lower = cpu < CpuPriority::kNormal;
  auto worker = [&]() {
    if (lower) SetCurrentThreadCpuPriority(cpu);
    for (;;) {
      // relaxed: the index only hands out distinct items; each item is then
      // touched by one thread and joined before being read.
      const size_t i = next.fetch_add(1, std::memory_order_relaxed);
      if (i >= items->size()) return;
      CopyItem& item = (*items)[i];
      item.status = CopyOne(&item, on_bytes);
    }
  };
  const size_t n_threads = std::min<size_t>(
      items->size(), static_cast<size_t>(std::max(1, options_.max_background_operations)));
  if (n_threads <= 1 && !lower) {
    worker();
    return;
  }
  std::vector<std::thread> threads;
  for (size_t t = 0; t < n_threads; ++t) threads.emplace_back(worker);
  for (std::thread& t : threads) t.join();
}

Status BackupEngineImpl::FsyncDir(const std::string& dir) const {
  std::unique_ptr<Directory> d;
  Status s = backup_fs_->NewDirectory(dir, &d);
  if (!s.ok()) return s;
  return d->Fsync();
}

// ---- creating ----

Status BackupEngineImpl::CreateNewBackupWithMetadata(const CreateBackupOptions& options, DB* db,
                                                     const std::string& app_metadata,
                                                     BackupID* new_backup_id) {
  MutexLock l(&mu_);
  if (read_only_) return Status::NotSupported("CreateNewBackup on a read-only BackupEngine");
  if (app_metadata.size() > kMaxAppMetaSize) {
    return Status::InvalidArgument("App metadata too large");
  }
  return CreateBackupLocked(options, db, app_metadata, new_backup_id);
}

Status BackupEngineImpl::CreateBackupLocked(const CreateBackupOptions& options, DB* db,
                                            const std::string& app_metadata,
                                            BackupID* new_backup_id) {
  mu_.AssertHeld();
  const BackupID id = latest_backup_id_ + 1;
  const std::string private_rel = PrivateDir(id);
  Status s = backup_fs_->FileExists(Abs(private_rel));
  if (s.ok()) {
    // An earlier attempt at this id left its directory: clean up first.
    s = GarbageCollectLocked();
  } else if (s.IsNotFound() || s.IsPathNotFound()) {
    s = Status::OK();
  }
  if (s.ok()) s = backup_fs_->CreateDir(Abs(private_rel));
  if (!s.ok()) return s;
  // From here on a failure leaves files no meta file names; the cleanup at
  // the end (and any later GarbageCollect) removes them.
  auto backup = std::make_unique<Backup>();
  Backup* b = backup.get();
  int64_t now = 0;
  if (!backup_env_->GetSystemClock()->GetCurrentTime(&now).ok()) now = 0;
  b->timestamp = now;
  b->app_metadata = app_metadata;
  backups_[id] = std::move(backup);
  Log(options_.info_log, "BackupEngine: started backup %u", id);

  // What each copied file becomes.
  struct Planned {
    std::string rel;      // final path relative to backup_dir
    std::string tmp_rel;  // written here first (shared files), else empty
    bool copy = true;     // false: already in the shared directory
    bool has_checksum = false;
    uint32_t crc32c = 0;
    uint64_t size = 0;
    size_t item = SIZE_MAX;  // index into items
  };
  std::vector<Planned> planned;
  std::vector<CopyItem> items;
  std::unordered_set<std::string> live_rels;

  const Status disabled = db->DisableFileDeletions();
  const uint64_t sequence = db->GetLatestSequenceNumber();
  std::vector<LiveFileStorageInfo> live;
  if (s.ok()) {
    LiveFilesStorageInfoOptions lopts;
    lopts.wal_size_for_flush =
        options.flush_before_backup ? 0 : std::numeric_limits<uint64_t>::max();
    s = db->GetLiveFilesStorageInfo(lopts, &live);
  }
  // Tables come from each table path (db_paths / cf_paths: each file's
  // `directory`) and a restore puts them all into the DB's directory, so
  // with tables in more than one directory the backup's MANIFEST places
  // every table in path 0 (db/manifest_single_path.h). RocksDB 7.8.3
  // refuses such a backup (NotSupported).
  std::set<std::string> table_dirs;
  for (const LiveFileStorageInfo& f : live) {
    if (f.file_type == kTableFile || f.file_type == kBlobFile) table_dirs.insert(f.directory);
  }
  for (size_t i = 0; s.ok() && i < live.size(); ++i) {
    const LiveFileStorageInfo& f = live[i];
    if (f.file_type == kWalFile && !options_.backup_log_files) continue;
    const std::string src = f.directory + "/" + f.relative_filename;
    Planned p;
    const bool shared =
        options_.share_table_files && (f.file_type == kTableFile || f.file_type == kBlobFile);
    std::string contents = f.replacement_contents;
    if (f.file_type == kDescriptorFile && table_dirs.size() > 1) {
      bool rewritten = false;
      std::string manifest;
      s = ManifestInOnePath(db_fs_, src, f.size, f.file_number, &manifest, &rewritten);
      if (!s.ok()) break;
      if (rewritten) contents = std::move(manifest);
    }
    if (!contents.empty()) {
      p.rel = private_rel + "/" + f.relative_filename;
      CopyItem item;
      item.contents = std::move(contents);
      item.dst = Abs(p.rel);
      p.item = items.size();
      items.push_back(std::move(item));
      planned.push_back(std::move(p));
      continue;
    }
    if (shared && options_.share_files_with_checksum) {
      uint64_t size = f.size;
      std::string session;
      const uint32_t naming =
          options_.share_files_with_checksum_naming & BackupEngineOptions::kMaskNoNamingFlags;
      if (naming == BackupEngineOptions::kUseDbSessionId && f.file_type == kTableFile) {
        session = TableSessionId(db_env_, src);
      }
      std::string name = f.relative_filename;
      const size_t dot = name.find_last_of('.');
      if (session.empty()) {
        // Legacy name: needs the crc32c of the file now.
        s = ComputeChecksum(db_fs_, src, f.size, /*stoppable=*/true, &p.crc32c, &size);
        if (!s.ok()) break;
        p.has_checksum = true;
        name.insert(dot, "_" + std::to_string(p.crc32c) + "_" + std::to_string(size));
      } else {
        std::string suffix = "_s" + session;
        if (options_.share_files_with_checksum_naming & BackupEngineOptions::kFlagIncludeFileSize) {
          suffix += "_" + std::to_string(size);
        }
        name.insert(dot, suffix);
      }
      p.rel = std::string(kSharedChecksumDir) + "/" + name;
      p.tmp_rel = std::string(kSharedChecksumDir) + "/." + name + ".tmp";
    } else if (shared) {
      p.rel = std::string(kSharedDir) + "/" + f.relative_filename;
      p.tmp_rel = std::string(kSharedDir) + "/." + f.relative_filename + ".tmp";
    } else {
      p.rel = private_rel + "/" + f.relative_filename;
    }
    p.size = f.size;
    if (shared) {
      const bool same_path = live_rels.count(p.rel) > 0;
      bool exists = same_path;
      if (!same_path) {
        Status e = backup_fs_->FileExists(Abs(p.rel));
        if (e.ok()) {
          exists = true;
        } else if (!e.IsNotFound() && !e.IsPathNotFound()) {
          s = e;
          break;
        }
      }
      if (exists) {
        auto known = files_.find(p.rel);
        if (known == files_.end() && !same_path) {
          // Present but named by no backup (an interrupted one): copy again.
          Log(options_.info_log, "BackupEngine: %s present but unreferenced; copying again",
              p.rel.c_str());
          backup_fs_->DeleteFile(Abs(p.rel)).PermitUncheckedError();
        } else {
          p.copy = false;
          if (!p.has_checksum && known != files_.end() && known->second->has_checksum) {
            p.has_checksum = true;
            p.crc32c = known->second->crc32c;
          } else if (!p.has_checksum) {
            s = ComputeChecksum(db_fs_, src, f.size, /*stoppable=*/true, &p.crc32c, &p.size);
            if (!s.ok()) break;
            p.has_checksum = true;
          }
        }
      }
    }
    live_rels.insert(p.rel);
    if (p.copy) {
      CopyItem item;
      item.src = src;
      item.dst = Abs(p.tmp_rel.empty() ? p.rel : p.tmp_rel);
      item.size_limit = f.size;
      p.item = items.size();
      items.push_back(std::move(item));
    }
    planned.push_back(std::move(p));
  }
  if (s.ok()) {
    Log(options_.info_log, "BackupEngine: backup %u copies %zu of %zu files", id, items.size(),
        planned.size());
    RunCopies(&items, options.progress_callback,
              options.decrease_background_thread_cpu_priority
                  ? options.background_thread_cpu_priority
                  : CpuPriority::kNormal);
  }
  if (disabled.ok()) db->EnableFileDeletions(false).PermitUncheckedError();

  for (size_t i = 0; s.ok() && i < planned.size(); ++i) {
    Planned& p = planned[i];
    if (p.item != SIZE_MAX) {
      CopyItem& item = items[p.item];
      if (!item.status.ok()) {
        s = item.status;
        break;
      }
      if (p.has_checksum && p.crc32c != item.crc32c) {
        s = Status::Corruption("Checksum mismatch after copying to " + item.dst +
                               ": the file changed while being backed up");
        break;
      }
      if (!item.src.empty() && item.size != p.size) {
        s = Status::Corruption("File " + item.src + " is shorter (" + std::to_string(item.size) +
                               " bytes) than the DB says (" + std::to_string(item.size_limit) +
                               ")");
        break;
      }
      p.has_checksum = true;
      p.crc32c = item.crc32c;
      p.size = item.size;
      if (!p.tmp_rel.empty()) {
        s = backup_fs_->RenameFile(Abs(p.tmp_rel), Abs(p.rel));
        if (!s.ok()) break;
      }
    }
    s = AddFile(b, p.rel, p.size, p.has_checksum, p.crc32c);
  }
  b->sequence_number = sequence;

  if (s.ok() && options_.sync) {
    // Every copied file is synced; make their names durable too (the
    // shared files' renames, the private directory) before the meta file
    // can name them. (RocksDB syncs these directories after the meta
    // file's rename, which lets a power loss keep a meta file naming
    // files whose renames were lost.)
    std::vector<std::string> dirs = {Abs(private_rel), Abs(kPrivateDir)};
    if (options_.share_table_files) {
      dirs.push_back(Abs(options_.share_files_with_checksum ? kSharedChecksumDir : kSharedDir));
    }
    dirs.push_back(options_.backup_dir);
    for (const std::string& dir : dirs) {
      s = FsyncDir(dir);
      if (!s.ok()) break;
    }
  }
  if (s.ok()) {
    // The meta file makes the backup exist: temp name, sync, rename, and
    // the rename made durable.
    BackupMetaContents meta;
    meta.timestamp = b->timestamp;
    meta.sequence_number = b->sequence_number;
    meta.app_metadata = b->app_metadata;
    for (const auto& f : b->files) {
      BackupMetaFileEntry e;
      e.path = f->path;
      e.has_checksum = f->has_checksum;
      e.crc32c = f->crc32c;
      e.size = f->size;
      meta.files.push_back(std::move(e));
    }
    s = WriteStringToFile(backup_fs_, EncodeBackupMeta(meta, options_.schema_version),
                          MetaTmpFile(id), options_.sync);
    if (s.ok()) s = backup_fs_->RenameFile(MetaTmpFile(id), MetaFile(id));
    if (s.ok() && options_.sync) s = FsyncDir(Abs(kMetaDir));
  }
  if (s.ok()) {
    latest_backup_id_ = id;
    latest_valid_backup_id_ = id;
    if (new_backup_id != nullptr) *new_backup_id = id;
    Log(options_.info_log, "BackupEngine: backup %u done: %zu files, %" PRIu64 " bytes", id,
        b->files.size(), b->size);
    return s;
  }
  Log(options_.info_log, "BackupEngine: backup %u failed -- %s", id, s.ToString().c_str());
  // Remove what was written; anything that cannot go now goes at the next
  // garbage collection (the meta file was never renamed into place).
  backup_fs_->DeleteFile(MetaTmpFile(id)).PermitUncheckedError();
  for (const CopyItem& item : items) backup_fs_->DeleteFile(item.dst).PermitUncheckedError();
  might_need_gc_ = true;
  DeleteBackupNoGC(id).PermitUncheckedError();
  GarbageCollectLocked().PermitUncheckedError();
  return s;
}

void BackupEngineImpl::StopBackup() { stop_backup_.store(true, std::memory_order_release); }

// ---- deleting ----

Status BackupEngineImpl::DeleteBackupNoGC(BackupID id) {
  mu_.AssertHeld();
  Log(options_.info_log, "BackupEngine: deleting backup %u", id);
  auto it = backups_.find(id);
  const bool corrupt = corrupt_backups_.count(id) > 0;
  if (it == backups_.end() && !corrupt) return Status::NotFound("Backup not found");
  // The meta file goes first: from then on the backup does not exist.
  Status s = backup_fs_->DeleteFile(MetaFile(id));
  if (!s.ok() && !s.IsNotFound() && !s.IsPathNotFound()) return s;
  if (it != backups_.end()) {
    for (auto& f : it->second->files) --f->refs;
    backups_.erase(it);
  }
  corrupt_backups_.erase(id);
  // The newest remaining backup becomes the latest valid one (RocksDB 7.8.3
  // keeps the deleted id there, so its GetLatestBackupInfo says NotFound
  // after the newest backup is deleted).
  latest_valid_backup_id_ = backups_.empty() ? 0 : backups_.rbegin()->first;
  // Best effort from here; failures leave garbage for GarbageCollect.
  for (auto f = files_.begin(); f != files_.end();) {
    if (f->second->refs <= 0) {
      Status d = backup_fs_->DeleteFile(Abs(f->first));
      if (!d.ok() && !d.IsNotFound() && !d.IsPathNotFound()) might_need_gc_ = true;
      f = files_.erase(f);
    } else {
      ++f;
    }
  }
  Status d = backup_fs_->DeleteDir(Abs(PrivateDir(id)));
  if (!d.ok() && !d.IsNotFound() && !d.IsPathNotFound()) might_need_gc_ = true;
  return Status::OK();
}

Status BackupEngineImpl::DeleteBackup(BackupID backup_id) {
  MutexLock l(&mu_);
  if (read_only_) return Status::NotSupported("DeleteBackup on a read-only BackupEngine");
  Status s = DeleteBackupNoGC(backup_id);
  Status g = might_need_gc_ ? GarbageCollectLocked() : Status::OK();
  return s.ok() ? g : s;
}

Status BackupEngineImpl::PurgeOldBackups(uint32_t num_backups_to_keep) {
  MutexLock l(&mu_);
  if (read_only_) return Status::NotSupported("PurgeOldBackups on a read-only BackupEngine");
  Log(options_.info_log, "BackupEngine: purging old backups, keeping %u", num_backups_to_keep);
  std::vector<BackupID> to_delete;
  for (auto it = backups_.begin();
       backups_.size() - to_delete.size() > num_backups_to_keep && it != backups_.end(); ++it) {
    to_delete.push_back(it->first);
  }
  Status overall;
  for (BackupID id : to_delete) {
    Status s = DeleteBackupNoGC(id);
    if (overall.ok() && !s.ok()) overall = s;
  }
  if (might_need_gc_) {
    Status g = GarbageCollectLocked();
    if (overall.ok()) overall = g;
  }
  return overall;
}

Status BackupEngineImpl::GarbageCollect() {
  MutexLock l(&mu_);
  if (read_only_) return Status::NotSupported("GarbageCollect on a read-only BackupEngine");
  return GarbageCollectLocked();
}

Status BackupEngineImpl::GarbageCollectLocked() {
  mu_.AssertHeld();
  Status overall;
  // A failure below means garbage is left: try again at the next chance.
  auto note = [&overall](const Status& s) {
    if (!s.ok() && !s.IsNotFound() && !s.IsPathNotFound() && overall.ok()) overall = s;
  };
  // Shared files no loaded backup names (temporary copies included).
  for (const char* dir : {kSharedDir, kSharedChecksumDir}) {
    std::vector<std::string> children;
    Status s = backup_fs_->GetChildren(Abs(dir), &children);
    if (s.IsNotFound() || s.IsPathNotFound()) continue;
    note(s);
    for (const std::string& c : children) {
      const std::string rel = std::string(dir) + "/" + c;
      auto it = files_.find(rel);
      if (it != files_.end() && it->second->refs > 0) continue;
      Log(options_.info_log, "BackupEngine: deleting unreferenced %s", rel.c_str());
      note(backup_fs_->DeleteFile(Abs(rel)));
      if (it != files_.end()) files_.erase(it);
    }
  }
  // Private directories of no loaded backup, and temporary ones.
  std::vector<std::string> children;
  Status s = backup_fs_->GetChildren(Abs(kPrivateDir), &children);
  if (!s.IsNotFound() && !s.IsPathNotFound()) note(s);
  for (const std::string& c : children) {
    const bool tmp = c.find(".tmp") != std::string::npos;
    const BackupID id = ParseBackupId(c);
    if (!tmp && (id == 0 || backups_.count(id) > 0)) continue;
    const std::string dir = Abs(std::string(kPrivateDir) + "/" + c);
    std::vector<std::string> sub;
    if (backup_fs_->GetChildren(dir, &sub).ok()) {
      for (const std::string& f : sub) note(backup_fs_->DeleteFile(dir + "/" + f));
    }
    Log(options_.info_log, "BackupEngine: deleting private dir %s", dir.c_str());
    note(backup_fs_->DeleteDir(dir));
  }
  // Meta files of interrupted backups (.<id>.tmp).
  std::vector<std::string> metas;
  if (backup_fs_->GetChildren(Abs(kMetaDir), &metas).ok()) {
    for (const std::string& m : metas) {
      if (!m.empty() && m[0] == '.' && m.size() > 4 && m.compare(m.size() - 4, 4, ".tmp") == 0) {
        note(backup_fs_->DeleteFile(Abs(std::string(kMetaDir) + "/" + m)));
      }
    }
  }
  might_need_gc_ = !overall.ok();
  return overall;
}

// ---- restoring ----

Status BackupEngineImpl::RestoreDBFromBackup(const RestoreOptions& options, BackupID backup_id,
                                             const std::string& db_dir,
                                             const std::string& wal_dir) const {
  MutexLock l(&mu_);
  return RestoreLocked(options, backup_id, db_dir, wal_dir);
}

Status BackupEngineImpl::RestoreDBFromLatestBackup(const RestoreOptions& options,
                                                   const std::string& db_dir,
                                                   const std::string& wal_dir) const {
  MutexLock l(&mu_);
  if (latest_valid_backup_id_ == 0) return Status::NotFound("No backup to restore");
  return RestoreLocked(options, latest_valid_backup_id_, db_dir, wal_dir);
}

Status BackupEngineImpl::RestoreLocked(const RestoreOptions& options, BackupID backup_id,
                                       const std::string& db_dir,
                                       const std::string& wal_dir) const {
  mu_.AssertHeld();
  auto c = corrupt_backups_.find(backup_id);
  if (c != corrupt_backups_.end()) return c->second;
  auto it = backups_.find(backup_id);
  if (it == backups_.end()) return Status::NotFound("Backup not found");
  const Backup& b = *it->second;
  Log(options_.info_log, "BackupEngine: restoring backup %u to %s (keep_log_files %d)", backup_id,
      db_dir.c_str(), static_cast<int>(options.keep_log_files));
  const std::string wdir = wal_dir.empty() ? db_dir : wal_dir;
  db_fs_->CreateDirIfMissing(db_dir).PermitUncheckedError();
  db_fs_->CreateDirIfMissing(wdir).PermitUncheckedError();

  // Delete the files there (ignoring errors, as RocksDB does); WALs stay
  // with keep_log_files, and archived ones move back to the WAL directory.
  auto delete_children = [&](const std::string& dir, bool keep_wals) {
    std::vector<std::string> children;
    if (!db_fs_->GetChildren(dir, &children).ok()) return;
    for (const std::string& f : children) {
      uint64_t number = 0;
      FileType type;
      if (keep_wals && ParseFileName(f, &number, &type) && type == kWalFile) continue;
      db_fs_->DeleteFile(dir + "/" + f).PermitUncheckedError();
    }
  };
  if (options.keep_log_files) {
    delete_children(db_dir, true);
    const std::string archive = wdir + "/archive";
    std::vector<std::string> archived;
    if (db_fs_->GetChildren(archive, &archived).ok()) {
      for (const std::string& f : archived) {
        uint64_t number = 0;
        FileType type;
        if (!ParseFileName(f, &number, &type) || type != kWalFile) continue;
        Status s = db_fs_->RenameFile(archive + "/" + f, wdir + "/" + f);
        if (!s.ok()) return s;
      }
    }
  } else {
    delete_children(wdir, false);
    delete_children(wdir + "/archive", false);
    delete_children(db_dir, false);
  }

  std::vector<CopyItem> items;
  std::vector<const FileRecord*> records;
  std::string current_tmp;
  std::string current_final;
  for (const auto& f : b.files) {
    std::string name = DbFileNameOfBackupFile(f->path);
    uint64_t number = 0;
    FileType type;
    if (!ParseFileName(name, &number, &type)) {
      return Status::Corruption("Backup corrupted: Fail to parse filename " + name + " (from " +
                                Abs(f->path) + ")");
    }
    std::string dst = (type == kWalFile ? wdir : db_dir) + "/" + name;
    if (type == kCurrentFile) {
      // CURRENT goes in last, by rename, once everything else is durable.
      current_final = dst;
      dst += ".tmp";
      current_tmp = dst;
    }
    CopyItem item;
    item.src = Abs(f->path);
    item.dst = dst;
    item.src_on_db_env = false;
    items.push_back(std::move(item));
    records.push_back(f.get());
  }
  RunCopies(&items, nullptr);
  for (size_t i = 0; i < items.size(); ++i) {
    const CopyItem& item = items[i];
    const FileRecord& rec = *records[i];
    if (!item.status.ok()) return item.status;
    if (item.size != rec.size) {
      return Status::Corruption("While restoring " + item.src + " -> " + item.dst +
                                ": expected size " + std::to_string(rec.size) + " but copied " +
                                std::to_string(item.size));
    }
    if (rec.has_checksum && item.crc32c != rec.crc32c) {
      return Status::Corruption("While restoring " + item.src + " -> " + item.dst +
                                ": expected checksum is " + std::to_string(rec.crc32c) +
                                " while computed checksum is " + std::to_string(item.crc32c));
    }
  }
  Status s;
  auto fsync_dir = [&](const std::string& dir) {
    std::unique_ptr<Directory> d;
    Status ds = db_fs_->NewDirectory(dir, &d);
    return ds.ok() ? d->Fsync() : ds;
  };
  if (options_.sync) {
    s = fsync_dir(db_dir);
    if (s.ok() && wdir != db_dir) s = fsync_dir(wdir);
  }
  if (s.ok() && !current_tmp.empty()) {
    s = db_fs_->RenameFile(current_tmp, current_final);
    if (s.ok() && options_.sync) s = fsync_dir(db_dir);
  }
  Log(options_.info_log, "BackupEngine: restore of backup %u done -- %s", backup_id,
      s.ToString().c_str());
  return s;
}

// ---- the read-only engine ----

namespace {

class ReadOnlyEngine final : public BackupEngineReadOnly {
 public:
  explicit ReadOnlyEngine(std::unique_ptr<BackupEngineImpl> impl) : impl_(std::move(impl)) {}
  Status GetLatestBackupInfo(BackupInfo* info, bool details) const override {
    return impl_->GetLatestBackupInfo(info, details);
  }
  Status GetBackupInfo(BackupID id, BackupInfo* info, bool details) const override {
    return impl_->GetBackupInfo(id, info, details);
  }
  void GetBackupInfo(std::vector<BackupInfo>* infos, bool details) const override {
    impl_->GetBackupInfo(infos, details);
  }
  void GetCorruptedBackups(std::vector<BackupID>* ids) const override {
    impl_->GetCorruptedBackups(ids);
  }
  Status RestoreDBFromBackup(const RestoreOptions& options, BackupID id, const std::string& db_dir,
                             const std::string& wal_dir) const override {
    return impl_->RestoreDBFromBackup(options, id, db_dir, wal_dir);
  }
  Status RestoreDBFromLatestBackup(const RestoreOptions& options, const std::string& db_dir,
                                   const std::string& wal_dir) const override {
    return impl_->RestoreDBFromLatestBackup(options, db_dir, wal_dir);
  }
  Status VerifyBackup(BackupID id, bool verify_with_checksum) const override {
    return impl_->VerifyBackup(id, verify_with_checksum);
  }

 private:
  std::unique_ptr<BackupEngineImpl> impl_;
};

}  // namespace
}  // namespace backup

Status BackupEngine::Open(const BackupEngineOptions& options, Env* db_env,
                          std::unique_ptr<BackupEngine>* backup_engine) {
  backup_engine->reset();
  auto impl = std::make_unique<backup::BackupEngineImpl>(options, db_env, false);
  Status s = impl->Initialize();
  if (s.ok()) *backup_engine = std::move(impl);
  return s;
}

Status BackupEngineReadOnly::Open(const BackupEngineOptions& options, Env* db_env,
                                  std::unique_ptr<BackupEngineReadOnly>* backup_engine) {
  backup_engine->reset();
  if (options.destroy_old_data) {
    return Status::InvalidArgument("Can't destroy old data with ReadOnly BackupEngine");
  }
  auto impl = std::make_unique<backup::BackupEngineImpl>(options, db_env, true);
  Status s = impl->Initialize();
  if (s.ok()) *backup_engine = std::make_unique<backup::ReadOnlyEngine>(std::move(impl));
  return s;
}

}  // namespace strata
