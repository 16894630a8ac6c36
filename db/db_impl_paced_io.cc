// DBImpl: the SstFileManager's hooks (paced I/O, issue 19;
// docs/design/paced-io.md). The manager tracks every table the DB adds and
// deletes, may refuse a compaction that would pass its space limit, turns a
// flush or compaction that passes it into the background error
// Status::SpaceLimit, and deletes obsolete tables at its paced rate.
// Rate limiting and range syncs of the files written are not here: they are
// in env/paced_writable_file.h, applied where the files are opened.
#include <algorithm>
#include <cinttypes>

#include "db/compaction/compaction.h"
#include "db/db_impl.h"
#include "db/filename.h"
#include "env/sst_file_manager_impl.h"
#include "util/stop_watch.h"

namespace strata {

void DBImpl::TrackTablesAtOpen() {
  mu_.AssertHeld();
  if (sfm_ != nullptr) {
    sfm_->SetStatisticsPtr(options_.statistics);
    std::set<uint64_t> seen;
    for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
      const Version* v = cfd->current();
      for (int level = 0; level < v->num_levels(); ++level) {
        for (const FileMetaData* f : v->files(level)) {
          if (seen.insert(f->number).second) {
            sfm_->OnAddFile(TableFileName(cfd->options().cf_paths, f->number, f->path_id),
                            f->file_size);
          }
        }
      }
    }
  }
  // Trash left by an earlier run (a crash, or a manager destroyed with
  // files queued): the manager deletes it at its rate; without one it goes
  // now. The directory scan without the mutex.
  std::vector<std::string> dirs = TableDirs();
  if (std::none_of(dirs.begin(), dirs.end(),
                   [this](const std::string& d) { return SameDirectory(d, dbname_); })) {
    dirs.push_back(dbname_);
  }
  mu_.Unlock();
  for (const std::string& dir : dirs) {
    Status s = SstFileManagerImpl::CleanupDirectory(fs_, sfm_, dir);
    if (!s.ok()) {
      Log(InfoLogLevel::kWarn, info_log_.get(), "cleaning up trash files in %s: %s", dir.c_str(),
          s.ToString().c_str());
    }
  }
  mu_.Lock();
}

Status DBImpl::TrackNewTables(const std::vector<DbPath>& paths,
                              const std::vector<FileMetaData>& files) {
  if (sfm_ == nullptr) return Status::OK();
  for (const FileMetaData& f : files) {
    sfm_->OnAddFile(TableFileName(paths, f.number, f.path_id), f.file_size);
  }
  if (!files.empty() && sfm_->IsMaxAllowedSpaceReached()) {
    return Status::SpaceLimit("Max allowed space was reached");
  }
  return Status::OK();
}

bool DBImpl::EnoughRoomForCompaction(ColumnFamilyData* cfd, const Compaction* c) {
  mu_.AssertHeld();
  // A trivial move writes nothing: it always fits.
  if (c->trivial_move()) return true;
  const uint64_t input_bytes = c->TotalInputBytes();
  if (sfm_ != nullptr && !sfm_->EnoughRoomForCompaction(input_bytes)) {
    Log(InfoLogLevel::kWarn, info_log_.get(),
        "cancelled compaction (%" PRIu64
        " input bytes): not enough room under the SstFileManager's max allowed space",
        input_bytes);
    RecordTick(stats_, COMPACTION_CANCELLED);
    return false;
  }
  // RocksDB checks the disk itself only once this DB has seen a NoSpace
  // error: until then the check would cost every compaction a statvfs.
  if ((!soft_bg_error_.ok() || bg_error_.IsNoSpace()) && !FreeSpaceForCompaction(cfd, c)) {
    if (sfm_ != nullptr) sfm_->OnCompactionCompletion(input_bytes);  // the reservation above
    RecordTick(stats_, COMPACTION_CANCELLED);
    return false;
  }
  running_compaction_bytes_ += input_bytes;
  return true;
}

void DBImpl::ReleaseCompactionRoom(const Compaction* c) {
  mu_.AssertHeld();
  if (c->trivial_move()) return;
  const uint64_t input_bytes = c->TotalInputBytes();
  if (sfm_ != nullptr) sfm_->OnCompactionCompletion(input_bytes);
  running_compaction_bytes_ -= std::min(running_compaction_bytes_, input_bytes);
}

uint64_t DBImpl::FreeBytesFor(ColumnFamilyData* cfd, uint32_t path_id, bool* cannot_tell) {
  mu_.AssertHeld();
  const std::vector<DbPath>& paths = cfd->options().cf_paths;
  const std::string dir =
      paths.empty() ? dbname_ : paths[std::min<size_t>(path_id, paths.size() - 1)].path;
  uint64_t free_bytes = 0;
  *cannot_tell = !fs_->GetFreeSpace(dir, &free_bytes).ok();
  return free_bytes;
}

bool DBImpl::FreeSpaceForCompaction(ColumnFamilyData* cfd, const Compaction* c) {
  mu_.AssertHeld();
  bool cannot_tell = false;
  const uint64_t free_bytes = FreeBytesFor(cfd, c->output_path_id(), &cannot_tell);
  // A file system that cannot tell gets its attempt.
  if (cannot_tell) return true;
  // The outputs may be as large as the inputs (which stay until the
  // compaction installs); the running compactions may still write as much
  // as they read; and the memtables' flushes need their room (or the
  // SstFileManager's compaction buffer, when one is set).
  // (The manager has reserved this compaction's inputs already.)
  uint64_t others = running_compaction_bytes_;
  if (sfm_ != nullptr) {
    const uint64_t reserved = sfm_->GetCompactionsReservedSize();
    others = reserved - std::min(reserved, c->TotalInputBytes());
  }
  const uint64_t buffer = sfm_ != nullptr && sfm_->GetCompactionBufferSize() > 0
                              ? sfm_->GetCompactionBufferSize()
                              : ReservedDiskBuffer();
  const uint64_t needed = others + c->TotalInputBytes() + buffer;
  if (free_bytes >= needed) return true;
  Log(InfoLogLevel::kWarn, info_log_.get(),
      "cancelled compaction (%" PRIu64 " input bytes): %" PRIu64 " bytes free, %" PRIu64
      " needed (after a NoSpace error)",
      c->TotalInputBytes(), free_bytes, needed);
  return false;
}

std::vector<std::string> DBImpl::TableDirs() const {
  mu_.AssertHeld();
  std::vector<std::string> dirs;
  auto add = [&dirs](const std::string& d) {
    for (const std::string& have : dirs) {
      if (SameDirectory(have, d)) return;
    }
    dirs.push_back(d);
  };
  for (const DbPath& p : options_.db_paths) add(p.path);
  for (const auto& cfd : versions_->column_families()->all()) {
    for (const DbPath& p : cfd->options().cf_paths) add(p.path);
  }
  return dirs;
}

Status DBImpl::DeleteTableFile(const std::string& path, const std::string& dir) {
  if (sfm_ != nullptr) return sfm_->ScheduleFileDeletion(path, dir);
  Status s = fs_->DeleteFile(path);
  if (s.ok()) RecordTick(stats_, FILES_DELETED_IMMEDIATELY);
  return s;
}

}  // namespace strata
