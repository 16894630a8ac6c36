// DBImpl: the live-file calls -- what a copy of the running DB needs
// (GetLiveFiles, GetLiveFilesMetaData, GetColumnFamilyMetaData,
// GetLiveFilesStorageInfo) and the switch that keeps those files on disk
// while they are copied (DisableFileDeletions / EnableFileDeletions).
// Checkpoint and BackupEngine (utilities/) are built on these.
//
// A consistent cut: GetLiveFilesStorageInfo runs as the exclusive write
// leader (no write is being logged or inserted) and holds mu_ while it
// reads the current Versions, the MANIFEST's valid length and the WALs'
// logical lengths, so the listed prefix of every file describes one state
// of the DB: the tables and MANIFEST records installed so far and every
// write acknowledged so far, nothing half-written. Files created after the
// cut are not listed; files listed are not deleted while deletions are
// disabled (DeleteObsoleteFiles checks the counter under mu_, and a file
// that is obsolete is never live again).
#include <algorithm>
#include <cinttypes>
#include <set>

#include "db/db_impl.h"
#include "db/filename.h"
#include "env/info_log.h"

namespace strata {

namespace {

// "000012.sst" -> "/000012.sst" (RocksDB's spelling in GetLiveFiles).
std::string Rooted(const std::string& path, const std::string& dbname) {
  return path.substr(dbname.size());
}

}  // namespace

Status DBImpl::DisableFileDeletions() {
  MutexLock l(&mu_);
  ++disable_delete_obsolete_files_;
  if (disable_delete_obsolete_files_ == 1) {
    Log(info_log_.get(), "File Deletions Disabled");
  } else {
    Log(InfoLogLevel::kWarn, info_log_.get(),
        "File Deletions Disabled, but already disabled. Counter: %d",
        disable_delete_obsolete_files_);
  }
  return Status::OK();
}

Status DBImpl::EnableFileDeletions(bool force) {
  MutexLock l(&mu_);
  if (force) {
    disable_delete_obsolete_files_ = 0;
  } else if (disable_delete_obsolete_files_ > 0) {
    --disable_delete_obsolete_files_;
  }
  if (disable_delete_obsolete_files_ == 0) {
    Log(info_log_.get(), "File Deletions Enabled");
    // What became obsolete meanwhile goes now.
    if (!closed_ && !read_only()) DeleteObsoleteFiles();
  } else {
    Log(InfoLogLevel::kWarn, info_log_.get(),
        "File Deletions Enable, but not really enabled. Counter: %d",
        disable_delete_obsolete_files_);
  }
  return Status::OK();
}

Status DBImpl::FlushAllFamilies() {
  std::vector<ColumnFamilyData*> families;
  {
    MutexLock l(&mu_);
    for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
      cfd->Ref();
      families.push_back(cfd);
    }
  }
  Status s;
  for (ColumnFamilyData* cfd : families) {
    if (s.ok() && !cfd->dropped()) {
      ColumnFamilyHandleImpl handle(cfd, nullptr);
      s = Flush(FlushOptions(), &handle);
    }
  }
  MutexLock l(&mu_);
  for (ColumnFamilyData* cfd : families) UnrefFamily(cfd);
  return s;
}

Status DBImpl::GetLiveFiles(std::vector<std::string>* files, uint64_t* manifest_file_size,
                            bool flush_memtable) {
  if (mode_ == OpenMode::kSecondary) return ReadOnlyError();
  if (flush_memtable && !read_only()) {
    Status s = FlushAllFamilies();
    if (!s.ok()) return s;
  }
  std::lock_guard<std::mutex> options_guard(options_file_mu_);
  MutexLock l(&mu_);
  std::set<uint64_t> live;
  versions_->AddLiveFiles(&live);
  files->clear();
  files->reserve(live.size() + 3);
  for (uint64_t number : live) files->push_back(Rooted(TableFileName(dbname_, number), dbname_));
  files->push_back(Rooted(CurrentFileName(dbname_), dbname_));
  files->push_back(Rooted(DescriptorFileName(dbname_, versions_->manifest_file_number()), dbname_));
  if (options_file_number_ != 0) {
    files->push_back(Rooted(OptionsFileName(dbname_, options_file_number_), dbname_));
  }
  *manifest_file_size = versions_->manifest_file_size();
  return Status::OK();
}

void DBImpl::FillFileMetaData(const std::vector<DbPath>& paths, const FileMetaData& f,
                              SstFileMetaData* m) const {
  // The table's own directory (its path id's entry of db_paths / cf_paths).
  const std::string& dir = paths[f.path_id].path;
  m->relative_filename = TableFileName(dir, f.number).substr(dir.size() + 1);
  m->directory = dir;
  m->db_path = dir;
  m->name = "/" + m->relative_filename;
  m->file_number = f.number;
  m->file_type = kTableFile;
  m->size = f.file_size;
  m->smallest_seqno = f.smallest_seqno;
  m->largest_seqno = f.largest_seqno;
  m->smallestkey = ExtractUserKey(f.smallest).ToString();
  m->largestkey = ExtractUserKey(f.largest).ToString();
  m->being_compacted = f.being_compacted;
  m->oldest_blob_file_number = f.oldest_blob_file_number;
  m->oldest_ancester_time = f.oldest_ancester_time;
  m->file_creation_time = f.file_creation_time;
  m->file_checksum = f.file_checksum;
  m->file_checksum_func_name = f.file_checksum_func_name;
}

void DBImpl::GetLiveFilesMetaData(std::vector<LiveFileMetaData>* metadata) {
  metadata->clear();
  MutexLock l(&mu_);
  for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
    const Version* v = cfd->current();
    for (int level = 0; level < v->num_levels(); level++) {
      for (const FileMetaData* f : v->files(level)) {
        LiveFileMetaData m;
        FillFileMetaData(cfd->options().cf_paths, *f, &m);
        m.column_family_name = cfd->name();
        m.level = level;
        metadata->push_back(std::move(m));
      }
    }
  }
}

void DBImpl::GetColumnFamilyMetaData(ColumnFamilyHandle* cf, ColumnFamilyMetaData* metadata) {
  ColumnFamilyData* cfd = FamilyOf(cf);
  *metadata = ColumnFamilyMetaData();
  MutexLock l(&mu_);
  FillFamilyMetaData(cfd, metadata);
}

void DBImpl::GetAllColumnFamilyMetaData(std::vector<ColumnFamilyMetaData>* metadata) {
  metadata->clear();
  MutexLock l(&mu_);
  for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
    metadata->emplace_back();
    FillFamilyMetaData(cfd, &metadata->back());
  }
}

Status DBImpl::GetCreationTimeOfOldestFile(uint64_t* creation_time) {
  // RocksDB's rule: with a bounded table cache the tables' properties
  // might not be at hand, so the call is refused.
  if (options_.max_open_files != -1) {
    return Status::NotSupported("This API only works if max_open_files = -1");
  }
  uint64_t oldest = UINT64_MAX;
  MutexLock l(&mu_);
  for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
    const Version* v = cfd->current();
    if (v == nullptr) continue;
    for (int level = 0; level < v->num_levels() && oldest != 0; level++) {
      for (const FileMetaData* f : v->files(level)) {
        // 0: a table that does not know when it was made; nothing is older.
        oldest = std::min(oldest, f->file_creation_time);
        if (oldest == 0) break;
      }
    }
  }
  *creation_time = oldest;
  return Status::OK();
}

void DBImpl::FillFamilyMetaData(ColumnFamilyData* cfd, ColumnFamilyMetaData* metadata) const {
  metadata->name = cfd->name();
  const Version* v = cfd->current();
  if (v == nullptr) return;
  for (int level = 0; level < v->num_levels(); level++) {
    std::vector<SstFileMetaData> files;
    uint64_t bytes = 0;
    for (const FileMetaData* f : v->files(level)) {
      SstFileMetaData m;
      FillFileMetaData(cfd->options().cf_paths, *f, &m);
      bytes += f->file_size;
      files.push_back(std::move(m));
    }
    metadata->size += bytes;
    metadata->file_count += files.size();
    metadata->levels.emplace_back(level, bytes, std::move(files));
  }
}

Status DBImpl::GetLiveFilesStorageInfo(const LiveFilesStorageInfoOptions& opts,
                                       std::vector<LiveFileStorageInfo>* files) {
  files->clear();
  if (mode_ == OpenMode::kSecondary) return ReadOnlyError();
  // Flush first unless the WALs are small enough to copy instead.
  bool flush = opts.wal_size_for_flush != UINT64_MAX && !read_only();
  if (flush && opts.wal_size_for_flush > 0) {
    uint64_t wal_bytes = 0;
    std::vector<std::string> children;
    Status s = fs_->GetChildren(wal_dir_, &children);
    if (!s.ok()) return s;
    for (const std::string& name : children) {
      uint64_t number, size;
      FileType type;
      if (ParseFileName(name, &number, &type) && type == FileType::kWalFile &&
          fs_->GetFileSize(wal_dir_ + "/" + name, &size).ok()) {
        wal_bytes += size;
      }
    }
    flush = wal_bytes >= opts.wal_size_for_flush;
  }
  if (flush) {
    Status s = FlushAllFamilies();
    if (!s.ok()) return s;
  }
  auto capture = [&]() -> Status {
    // The OPTIONS file named stays on disk while options_file_mu_ is held
    // (RewriteOptionsFile deletes older ones under it, and not at all while
    // deletions are disabled).
    std::lock_guard<std::mutex> options_guard(options_file_mu_);
    MutexLock l(&mu_);
    if (closed_) return Status::ShutdownInProgress("GetLiveFilesStorageInfo on a closed database");
    auto add = [&](const std::string& path, FileType type, uint64_t number, uint64_t size,
                   bool trim, const std::string* table_dir = nullptr) {
      // WALs are reported in wal_dir, tables in their table path, everything
      // else in the DB's directory.
      const std::string& dir =
          table_dir != nullptr ? *table_dir : (type == kWalFile ? wal_dir_ : dbname_);
      LiveFileStorageInfo info;
      info.relative_filename = path.substr(dir.size() + 1);
      info.directory = dir;
      info.file_number = number;
      info.file_type = type;
      info.size = size;
      info.trim_to_size = trim;
      info.file_checksum_func_name = "Unknown";
      files->push_back(std::move(info));
    };
    // Tables of the current Versions (every live family).
    for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
      const Version* v = cfd->current();
      for (int level = 0; level < v->num_levels(); level++) {
        for (const FileMetaData* f : v->files(level)) {
          const std::string& dir = cfd->options().cf_paths[f->path_id].path;
          add(TableFileName(dir, f->number), kTableFile, f->number, f->file_size, false, &dir);
          if (opts.include_checksum_info) {
            files->back().file_checksum = f->file_checksum;
            files->back().file_checksum_func_name = f->file_checksum_func_name;
          }
        }
      }
    }
    // The MANIFEST up to its last complete record, and a CURRENT naming it.
    const uint64_t manifest = versions_->manifest_file_number();
    add(DescriptorFileName(dbname_, manifest), kDescriptorFile, manifest,
        versions_->manifest_file_size(), true);
    if (options_file_number_ != 0) {
      uint64_t size = 0;
      const std::string path = OptionsFileName(dbname_, options_file_number_);
      Status s = fs_->GetFileSize(path, &size);
      if (!s.ok()) return s;
      add(path, kOptionsFile, options_file_number_, size, false);
    }
    // Every WAL some family still needs, each up to the last write
    // acknowledged (the current one is being appended to; the older ones may
    // be preallocated past their end).
    if (!read_only()) {
      // manual_wal_flush: the buffered tail goes to the file first, so the
      // sizes below are bytes on disk (RocksDB flushes the WAL here too).
      if (options_.manual_wal_flush && log_ != nullptr) {
        Status fs = log_->WriteBuffer();
        if (!fs.ok()) return fs;
      }
      const uint64_t min_log = MinLogNumberInUse();
      std::map<uint64_t, uint64_t> sizes;
      for (const auto& [number, bytes] : alive_wals_) sizes[number] = bytes;
      for (const auto& old : old_logs_) sizes[old->log_number()] = old->file_size();
      if (log_ != nullptr) sizes[log_number_] = log_->file_size();
      std::vector<std::string> children;
      Status s = fs_->GetChildren(wal_dir_, &children);
      if (!s.ok()) return s;
      std::vector<uint64_t> wals;
      for (const std::string& name : children) {
        uint64_t number;
        FileType type;
        if (ParseFileName(name, &number, &type) && type == FileType::kWalFile &&
            number >= min_log) {
          wals.push_back(number);
        }
      }
      std::sort(wals.begin(), wals.end());
      for (uint64_t number : wals) {
        const std::string path = LogFileName(wal_dir_, number);
        auto it = sizes.find(number);
        uint64_t size = 0;
        if (it != sizes.end()) {
          size = it->second;
        } else {
          // A WAL of an earlier session, not yet flushed: whole.
          s = fs_->GetFileSize(path, &size);
          if (!s.ok()) return s;
        }
        add(path, kWalFile, number, size, true);
      }
    }
    LiveFileStorageInfo current;
    current.relative_filename = CurrentFileName(dbname_).substr(dbname_.size() + 1);
    current.directory = dbname_;
    current.file_type = kCurrentFile;
    current.replacement_contents =
        DescriptorFileName(dbname_, manifest).substr(dbname_.size() + 1) + "\n";
    current.size = current.replacement_contents.size();
    current.file_checksum_func_name = "Unknown";
    files->push_back(std::move(current));
    return Status::OK();
  };
  // The exclusive leader runs the capture while no write is in flight; a
  // read-only instance has no writes.
  if (read_only()) return capture();
  return RunExclusive(capture);
}

Status DBImpl::GetDbIdentity(std::string* identity) const {
  *identity = db_id_;
  return Status::OK();
}

Status DBImpl::GetDbSessionId(std::string* session_id) const {
  *session_id = db_session_id_;
  return Status::OK();
}

}  // namespace strata
