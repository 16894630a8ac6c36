// Checkpoint: see strata/utilities/checkpoint.h. Both calls follow one
// pattern: stop file deletions, list what is live, link the immutable table
// files and copy the prefixes of the growing ones into a staging directory,
// allow deletions again, and only then give the result its name.
//
// A DB with tables in several table paths (db_paths / cf_paths) gives a
// checkpoint in one directory: the tables of every path are linked or
// copied into it, and its MANIFEST is the DB's with every table in path 0
// (db/manifest_single_path.h, the one db internal used here), so it opens
// as a plain DB. RocksDB 7.8.3 refuses such a checkpoint (NotSupported).
#include "strata/utilities/checkpoint.h"

#include <algorithm>
#include <set>

#include "db/manifest_single_path.h"
#include "strata/comparator.h"
#include "strata/env.h"
#include "strata/options.h"

namespace strata {

namespace {

class CheckpointImpl final : public Checkpoint {
 public:
  explicit CheckpointImpl(DB* db) : db_(db), fs_(db->GetEnv()->GetFileSystem()) {}

  Status CreateCheckpoint(const std::string& checkpoint_dir, uint64_t log_size_for_flush,
                          uint64_t* sequence_number_ptr) override;
  Status ExportColumnFamily(ColumnFamilyHandle* handle, const std::string& export_dir,
                            std::unique_ptr<ExportImportFilesMetaData>* metadata) override;

 private:
  // checkpoint_dir must not exist; its staging directory (a leftover of a
  // crash, possibly) is emptied and created.
  Status PrepareStaging(const std::string& dir, std::string* staging);
  // Removes the staging directory and whatever is in it.
  void RemoveStaging(const std::string& staging);
  // Links src to dst, or copies it when links are not possible here
  // (*use_copy then stays set for the following files).
  Status LinkOrCopy(const std::string& src, const std::string& dst, bool* use_copy);
  // Syncs the staging directory, renames it to dir and syncs the parent.
  Status Publish(const std::string& staging, const std::string& dir);

  DB* const db_;
  FileSystem* const fs_;
};

std::string ParentDir(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string TrimSlashes(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

Status CheckpointImpl::PrepareStaging(const std::string& dir, std::string* staging) {
  if (dir.empty()) return Status::InvalidArgument("invalid checkpoint directory name");
  Status s = fs_->FileExists(dir);
  if (s.ok()) return Status::InvalidArgument("Directory exists");
  if (!s.IsNotFound() && !s.IsPathNotFound()) return s;
  *staging = dir + ".tmp";
  if (fs_->FileExists(*staging).ok()) RemoveStaging(*staging);
  return fs_->CreateDir(*staging);
}

void CheckpointImpl::RemoveStaging(const std::string& staging) {
  std::vector<std::string> children;
  if (fs_->GetChildren(staging, &children).ok()) {
    for (const std::string& name : children) {
      if (name == "." || name == "..") continue;
      fs_->DeleteFile(staging + "/" + name).PermitUncheckedError();
    }
  }
  fs_->DeleteDir(staging).PermitUncheckedError();
}

Status CheckpointImpl::LinkOrCopy(const std::string& src, const std::string& dst, bool* use_copy) {
  if (!*use_copy) {
    Status s = fs_->LinkFile(src, dst);
    if (s.ok()) return s;
    if (!s.IsNotSupported()) return s;
    *use_copy = true;  // another file system, or none with links
  }
  return CopyFile(fs_, src, dst, /*size=*/0, /*sync=*/true);
}

Status CheckpointImpl::Publish(const std::string& staging, const std::string& dir) {
  std::unique_ptr<Directory> d;
  Status s = fs_->NewDirectory(staging, &d);
  if (s.ok()) s = d->Fsync();
  if (s.ok()) s = fs_->RenameFile(staging, dir);
  if (s.ok()) {
    std::unique_ptr<Directory> parent;
    if (fs_->NewDirectory(ParentDir(dir), &parent).ok()) s = parent->Fsync();
  }
  return s;
}

Status CheckpointImpl::CreateCheckpoint(const std::string& checkpoint_dir,
                                        uint64_t log_size_for_flush,
                                        uint64_t* sequence_number_ptr) {
  const std::string dir = TrimSlashes(checkpoint_dir);
  std::string staging;
  Status s = PrepareStaging(dir, &staging);
  if (!s.ok()) return s;
  s = db_->DisableFileDeletions();
  if (!s.ok()) {
    RemoveStaging(staging);
    return s;
  }
  // Every write acknowledged by now is in the copy (the cut comes later).
  const uint64_t sequence = db_->GetLatestSequenceNumber();
  std::vector<LiveFileStorageInfo> files;
  LiveFilesStorageInfoOptions opts;
  opts.wal_size_for_flush = log_size_for_flush;
  s = db_->GetLiveFilesStorageInfo(opts, &files);
  // Tables in more than one directory: the copy's MANIFEST places them all
  // in its own.
  std::set<std::string> table_dirs;
  for (const LiveFileStorageInfo& f : files) {
    if (f.file_type == kTableFile || f.file_type == kBlobFile) table_dirs.insert(f.directory);
  }
  bool use_copy = false;
  for (size_t i = 0; s.ok() && i < files.size(); i++) {
    const LiveFileStorageInfo& f = files[i];
    const std::string src = f.directory + "/" + f.relative_filename;
    const std::string dst = staging + "/" + f.relative_filename;
    std::string manifest;
    bool rewritten = false;
    if (f.file_type == kDescriptorFile && table_dirs.size() > 1) {
      s = ManifestInOnePath(fs_, src, f.size, f.file_number, &manifest, &rewritten);
      if (!s.ok()) break;
    }
    if (rewritten) {
      s = WriteStringToFile(fs_, manifest, dst, /*should_sync=*/true);
    } else if (!f.replacement_contents.empty()) {
      s = WriteStringToFile(fs_, f.replacement_contents, dst, /*should_sync=*/true);
    } else if (f.file_type == kTableFile || f.file_type == kBlobFile) {
      s = LinkOrCopy(src, dst, &use_copy);
    } else {
      // Growing files (MANIFEST, WALs): only the prefix the cut covers.
      s = CopyFile(fs_, src, dst, f.trim_to_size ? f.size : 0, /*sync=*/true);
      if (s.ok() && f.trim_to_size && f.size == 0) {
        s = WriteStringToFile(fs_, Slice(), dst, /*should_sync=*/true);
      }
    }
  }
  // Deletions resume whatever happened above (undoing only this call's
  // Disable).
  Status es = db_->EnableFileDeletions(/*force=*/false);
  if (s.ok()) s = es;
  if (s.ok()) s = Publish(staging, dir);
  if (!s.ok()) {
    RemoveStaging(staging);
    return s;
  }
  if (sequence_number_ptr != nullptr) *sequence_number_ptr = sequence;
  return Status::OK();
}

Status CheckpointImpl::ExportColumnFamily(ColumnFamilyHandle* handle, const std::string& export_dir,
                                          std::unique_ptr<ExportImportFilesMetaData>* metadata) {
  metadata->reset();
  const std::string dir = TrimSlashes(export_dir);
  std::string staging;
  Status s = PrepareStaging(dir, &staging);
  if (!s.ok()) return s;
  s = db_->Flush(FlushOptions(), handle);
  if (s.ok()) s = db_->DisableFileDeletions();
  if (!s.ok()) {
    RemoveStaging(staging);
    return s;
  }
  ColumnFamilyMetaData cf_meta;
  db_->GetColumnFamilyMetaData(handle, &cf_meta);
  auto result = std::make_unique<ExportImportFilesMetaData>();
  const Options options = db_->GetOptions(handle);
  result->db_comparator_name =
      options.comparator != nullptr ? options.comparator->Name() : BytewiseComparator()->Name();
  bool use_copy = false;
  for (const LevelMetaData& level : cf_meta.levels) {
    for (const SstFileMetaData& f : level.files) {
      if (!s.ok()) break;
      s = LinkOrCopy(f.directory + "/" + f.relative_filename, staging + "/" + f.relative_filename,
                     &use_copy);
      LiveFileMetaData live;
      static_cast<SstFileMetaData&>(live) = f;
      live.directory = dir;
      live.db_path = dir;
      live.column_family_name = cf_meta.name;
      live.level = level.level;
      result->files.push_back(std::move(live));
    }
  }
  Status es = db_->EnableFileDeletions(/*force=*/false);
  if (s.ok()) s = es;
  if (s.ok()) s = Publish(staging, dir);
  if (!s.ok()) {
    RemoveStaging(staging);
    return s;
  }
  *metadata = std::move(result);
  return Status::OK();
}

}  // namespace

Status Checkpoint::Create(DB* db, std::unique_ptr<Checkpoint>* checkpoint) {
  if (db == nullptr) return Status::InvalidArgument("Checkpoint::Create: db is null");
  *checkpoint = std::make_unique<CheckpointImpl>(db);
  return Status::OK();
}

}  // namespace strata
