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

bool DBImpl::EnoughRoomForCompaction(const Compaction* c) {
  mu_.AssertHeld();
  // A trivial move writes nothing: it always fits.
  if (sfm_ == nullptr || c->trivial_move()) return true;
  if (sfm_->EnoughRoomForCompaction(c->TotalInputBytes())) return true;
  Log(InfoLogLevel::kWarn, info_log_.get(),
      "cancelled compaction (%" PRIu64
      " input bytes): not enough room under the SstFileManager's max allowed space",
      c->TotalInputBytes());
  RecordTick(stats_, COMPACTION_CANCELLED);
  return false;
}

void DBImpl::ReleaseCompactionRoom(const Compaction* c) {
  mu_.AssertHeld();
  if (sfm_ != nullptr && !c->trivial_move()) sfm_->OnCompactionCompletion(c->TotalInputBytes());
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
