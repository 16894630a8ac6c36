#include "env/fault_injection_fs.h"

#include <algorithm>
#include <utility>

namespace strata {

struct FaultInjectionFileSystem::FileState {
  uint64_t size = 0;         // bytes appended (the base file's size)
  uint64_t synced_size = 0;  // bytes that survive power loss
  int durable_links = 0;     // directories whose durable entries name this file
  bool has_saved = false;    // saved holds the durable bytes (file not live)
  std::string saved;
};

namespace {

using FileState = FaultInjectionFileSystem::FileState;

std::string Normalize(const std::string& path) {
  std::string out;
  out.reserve(path.size());
  for (char c : path) {
    if (c == '/' && !out.empty() && out.back() == '/') continue;
    out.push_back(c);
  }
  if (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

// Splits a normalized path into its directory and entry name.
void SplitPath(const std::string& path, std::string* dir, std::string* name) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) {
    *dir = ".";
    *name = path;
  } else {
    *dir = slash == 0 ? "/" : path.substr(0, slash);
    *name = path.substr(slash + 1);
  }
}

std::string JoinPath(const std::string& dir, const std::string& name) {
  return dir == "/" ? "/" + name : dir + "/" + name;
}

}  // namespace

// A WritableFile whose every call is recorded by the file system.
class FaultWritableFile final : public WritableFile {
 public:
  FaultWritableFile(FaultInjectionFileSystem* fs, std::string path,
                    std::shared_ptr<FileState> state, std::unique_ptr<WritableFile> base)
      : fs_(fs), path_(std::move(path)), state_(std::move(state)), base_(std::move(base)) {}

  Status Append(const Slice& data) override {
    return fs_->FileAppend(path_, state_.get(), base_.get(), data);
  }
  Status Flush() override { return fs_->FileFlush(path_, base_.get()); }
  Status Sync() override { return fs_->FileSync(path_, state_.get(), base_.get(), false); }
  Status Fsync() override { return fs_->FileSync(path_, state_.get(), base_.get(), true); }
  Status Close() override { return fs_->FileClose(path_, base_.get()); }
  uint64_t GetFileSize() const override { return base_->GetFileSize(); }
  Status Allocate(uint64_t offset, uint64_t len) override { return base_->Allocate(offset, len); }

 private:
  FaultInjectionFileSystem* const fs_;
  const std::string path_;  // as opened (a later rename is not followed)
  const std::shared_ptr<FileState> state_;
  const std::unique_ptr<WritableFile> base_;
};

class FaultDirectory final : public Directory {
 public:
  FaultDirectory(FaultInjectionFileSystem* fs, std::string name, std::unique_ptr<Directory> base)
      : fs_(fs), name_(std::move(name)), base_(std::move(base)) {}
  Status Fsync() override { return fs_->DirFsync(name_, base_.get()); }

 private:
  FaultInjectionFileSystem* const fs_;
  const std::string name_;
  const std::unique_ptr<Directory> base_;
};

FaultInjectionFileSystem::FaultInjectionFileSystem(std::shared_ptr<FileSystem> base)
    : base_(std::move(base)) {}

FaultInjectionFileSystem::~FaultInjectionFileSystem() = default;

// ---------------------------------------------------------------------------
// Fault control

void FaultInjectionFileSystem::SetFilesystemActive(bool active) {
  MutexLock l(&mu_);
  active_ = active;
}

bool FaultInjectionFileSystem::IsFilesystemActive() const {
  MutexLock l(&mu_);
  return active_;
}

void FaultInjectionFileSystem::FailAfter(uint64_t n, FaultMode mode) {
  MutexLock l(&mu_);
  countdown_armed_ = true;
  countdown_ = n;
  countdown_mode_ = mode;
}

void FaultInjectionFileSystem::ClearFailAfter() {
  MutexLock l(&mu_);
  countdown_armed_ = false;
}

uint64_t FaultInjectionFileSystem::mutating_ops() const {
  MutexLock l(&mu_);
  return mutating_ops_;
}

uint64_t FaultInjectionFileSystem::injected_faults() const {
  MutexLock l(&mu_);
  return injected_faults_;
}

Status FaultInjectionFileSystem::CheckFault(const char* op, const std::string& path) {
  mu_.AssertHeld();
  ++mutating_ops_;
  if (!active_) {
    ++injected_faults_;
    return Status::IOError(op, path + ": file system inactive (simulated crash)");
  }
  if (countdown_armed_) {
    if (countdown_ > 0) {
      --countdown_;
    } else {
      countdown_armed_ = false;
      if (countdown_mode_ == FaultMode::kCrash) active_ = false;
      ++injected_faults_;
      return Status::IOError(op, path + ": injected fault");
    }
  }
  return Status::OK();
}

Status FaultInjectionFileSystem::DropUnsyncedData() {
  MutexLock l(&mu_);
  // Where each file lives now, to copy durable bytes from.
  std::map<const FileState*, std::string> live_path;
  for (const auto& [dir, d] : dirs_) {
    for (const auto& [name, f] : d.live) live_path[f.get()] = JoinPath(dir, name);
  }
  // Plan everything (reading what must be copied) before changing the base,
  // so renamed files cannot be overwritten before they are read.
  std::vector<std::string> to_delete;
  std::vector<std::pair<std::string, std::string>> to_write;  // path, bytes
  std::vector<std::pair<std::string, uint64_t>> to_truncate;
  Status result;
  for (auto& [dir, d] : dirs_) {
    for (const auto& [name, f] : d.live) {
      auto it = d.durable.find(name);
      if (it == d.durable.end() || it->second != f) to_delete.push_back(JoinPath(dir, name));
    }
    for (const auto& [name, f] : d.durable) {
      const std::string path = JoinPath(dir, name);
      auto it = d.live.find(name);
      if (it != d.live.end() && it->second == f) {
        if (f->size > f->synced_size) to_truncate.emplace_back(path, f->synced_size);
        continue;
      }
      auto lp = live_path.find(f.get());
      std::string bytes;
      if (lp != live_path.end()) {
        Status s = ReadFileToString(base_.get(), lp->second, &bytes);
        if (!s.ok() && result.ok()) result = s;
        if (bytes.size() > f->synced_size) bytes.resize(f->synced_size);
      } else if (f->has_saved) {
        bytes = f->saved;
      }
      to_write.emplace_back(path, std::move(bytes));
    }
  }
  for (const std::string& path : to_delete) {
    Status s = base_->DeleteFile(path);
    if (!s.ok() && result.ok()) result = s;
  }
  for (const auto& [path, bytes] : to_write) {
    Status s = WriteStringToFile(base_.get(), bytes, path, /*should_sync=*/true);
    if (!s.ok() && result.ok()) result = s;
  }
  for (const auto& [path, size] : to_truncate) {
    Status s = base_->Truncate(path, size);
    if (!s.ok() && result.ok()) result = s;
  }
  // The base now holds exactly the durable state: all of it counts as
  // synced, each file under one name (copies became files of their own).
  for (auto& [dir, d] : dirs_) {
    NameMap fresh;
    for (const auto& [name, f] : d.durable) {
      auto nf = std::make_shared<FileState>();
      auto it = d.live.find(name);
      nf->size = nf->synced_size = (it != d.live.end() && it->second == f)
                                       ? std::min(f->size, f->synced_size)
                                       : (f->has_saved ? f->saved.size() : f->synced_size);
      nf->durable_links = 1;
      fresh.emplace(name, std::move(nf));
    }
    d.live = fresh;
    d.durable = std::move(fresh);
  }
  return result;
}

// ---------------------------------------------------------------------------
// Bookkeeping

FaultInjectionFileSystem::DirState* FaultInjectionFileSystem::GetDir(const std::string& dir) {
  mu_.AssertHeld();
  auto it = dirs_.find(dir);
  if (it != dirs_.end()) return &it->second;
  DirState& d = dirs_[dir];
  std::vector<std::string> children;
  if (base_->GetChildren(dir, &children).ok()) {
    for (const std::string& name : children) {
      const std::string path = JoinPath(dir, name);
      bool is_dir = false;
      if (base_->IsDirectory(path, &is_dir).ok() && is_dir) continue;
      auto f = std::make_shared<FileState>();
      uint64_t size = 0;
      if (base_->GetFileSize(path, &size).ok()) f->size = f->synced_size = size;
      f->durable_links = 1;
      d.live[name] = f;
      d.durable[name] = std::move(f);
    }
  }
  return &d;
}

std::shared_ptr<FileState> FaultInjectionFileSystem::Lookup(const std::string& path) {
  mu_.AssertHeld();
  std::string dir, name;
  SplitPath(path, &dir, &name);
  DirState* d = GetDir(dir);
  auto it = d->live.find(name);
  if (it != d->live.end()) return it->second;
  // Created behind our back (directly on the base): take it as durable.
  if (!base_->FileExists(path).ok()) return nullptr;
  bool is_dir = false;
  if (base_->IsDirectory(path, &is_dir).ok() && is_dir) return nullptr;
  auto f = std::make_shared<FileState>();
  uint64_t size = 0;
  if (base_->GetFileSize(path, &size).ok()) f->size = f->synced_size = size;
  if (d->durable.emplace(name, f).second) f->durable_links++;
  d->live[name] = f;
  return f;
}

bool FaultInjectionFileSystem::IsDurableSomewhere(const FileState* f) const {
  mu_.AssertHeld();
  return f->durable_links > 0;
}

void FaultInjectionFileSystem::Unlink(const std::string& path) {
  mu_.AssertHeld();
  std::string dir, name;
  SplitPath(path, &dir, &name);
  DirState* d = GetDir(dir);
  auto it = d->live.find(name);
  if (it == d->live.end()) return;
  d->live.erase(it);
}

// ---------------------------------------------------------------------------
// Writable files and directories

Status FaultInjectionFileSystem::FileAppend(const std::string& path, FileState* f,
                                            WritableFile* base, const Slice& data) {
  MutexLock l(&mu_);
  Status s = CheckFault("While appending to file", path);
  if (!s.ok()) return s;
  s = base->Append(data);
  if (s.ok()) f->size += data.size();
  return s;
}

Status FaultInjectionFileSystem::FileFlush(const std::string& path, WritableFile* base) {
  MutexLock l(&mu_);
  Status s = CheckFault("While flushing file", path);
  if (!s.ok()) return s;
  return base->Flush();
}

Status FaultInjectionFileSystem::FileSync(const std::string& path, FileState* f, WritableFile* base,
                                          bool fsync) {
  MutexLock l(&mu_);
  Status s = CheckFault("While syncing file", path);
  if (!s.ok()) return s;
  s = fsync ? base->Fsync() : base->Sync();
  if (s.ok()) f->synced_size = f->size;
  return s;
}

Status FaultInjectionFileSystem::FileClose(const std::string& path, WritableFile* base) {
  MutexLock l(&mu_);
  Status s = CheckFault("While closing file", path);
  // A refused Close still releases the base file; what it held is unsynced
  // and DropUnsyncedData cuts it off.
  Status c = base->Close();
  return s.ok() ? c : s;
}

Status FaultInjectionFileSystem::DirFsync(const std::string& dir, Directory* base) {
  MutexLock l(&mu_);
  Status s = CheckFault("While fsyncing directory", dir);
  if (!s.ok()) return s;
  s = base->Fsync();
  if (!s.ok()) return s;
  DirState* d = GetDir(dir);
  for (auto& [name, f] : d->durable) {
    if (--f->durable_links == 0) {
      f->has_saved = false;
      f->saved.clear();
      f->saved.shrink_to_fit();
    }
  }
  // Increments after decrements: a file durable before and after keeps 1.
  for (auto& [name, f] : d->live) f->durable_links++;
  for (auto& [name, f] : d->live) {
    // A file durable again under a live name needs no saved copy.
    if (f->has_saved) {
      f->has_saved = false;
      f->saved.clear();
    }
  }
  d->durable = d->live;
  return Status::OK();
}

// ---------------------------------------------------------------------------
// FileSystem

Status FaultInjectionFileSystem::NewSequentialFile(const std::string& fname,
                                                   const FileOptions& opts,
                                                   std::unique_ptr<SequentialFile>* result) {
  return base_->NewSequentialFile(fname, opts, result);
}

Status FaultInjectionFileSystem::NewRandomAccessFile(const std::string& fname,
                                                     const FileOptions& opts,
                                                     std::unique_ptr<RandomAccessFile>* result) {
  return base_->NewRandomAccessFile(fname, opts, result);
}

Status FaultInjectionFileSystem::NewWritableFile(const std::string& fname, const FileOptions& opts,
                                                 std::unique_ptr<WritableFile>* result) {
  result->reset();
  const std::string path = Normalize(fname);
  MutexLock l(&mu_);
  Status s = CheckFault("NewWritableFile", path);
  if (!s.ok()) return s;
  std::string dir, name;
  SplitPath(path, &dir, &name);
  DirState* d = GetDir(dir);  // lists the directory before the file exists
  std::unique_ptr<WritableFile> base;
  s = base_->NewWritableFile(fname, opts, &base);
  if (!s.ok()) return s;
  std::shared_ptr<FileState>& f = d->live[name];
  if (f == nullptr) f = std::make_shared<FileState>();
  // Truncating an existing file truncates its durable bytes too (the
  // metadata change is not durable either, but the old bytes are gone).
  f->size = 0;
  f->synced_size = 0;
  *result = std::make_unique<FaultWritableFile>(this, path, f, std::move(base));
  return Status::OK();
}

Status FaultInjectionFileSystem::ReopenWritableFile(const std::string& fname,
                                                    const FileOptions& opts,
                                                    std::unique_ptr<WritableFile>* result) {
  result->reset();
  const std::string path = Normalize(fname);
  MutexLock l(&mu_);
  Status s = CheckFault("ReopenWritableFile", path);
  if (!s.ok()) return s;
  std::string dir, name;
  SplitPath(path, &dir, &name);
  DirState* d = GetDir(dir);
  std::shared_ptr<FileState> f = Lookup(path);
  std::unique_ptr<WritableFile> base;
  s = base_->ReopenWritableFile(fname, opts, &base);
  if (!s.ok()) return s;
  if (f == nullptr) {
    f = std::make_shared<FileState>();
    d->live[name] = f;
  }
  f->size = base->GetFileSize();
  f->synced_size = std::min(f->synced_size, f->size);
  *result = std::make_unique<FaultWritableFile>(this, path, std::move(f), std::move(base));
  return Status::OK();
}

Status FaultInjectionFileSystem::NewDirectory(const std::string& name,
                                              std::unique_ptr<Directory>* result) {
  result->reset();
  std::unique_ptr<Directory> base;
  Status s = base_->NewDirectory(name, &base);
  if (!s.ok()) return s;
  *result = std::make_unique<FaultDirectory>(this, Normalize(name), std::move(base));
  return Status::OK();
}

Status FaultInjectionFileSystem::FileExists(const std::string& fname) {
  return base_->FileExists(fname);
}

Status FaultInjectionFileSystem::GetChildren(const std::string& dir,
                                             std::vector<std::string>* result) {
  return base_->GetChildren(dir, result);
}

Status FaultInjectionFileSystem::DeleteFile(const std::string& fname) {
  const std::string path = Normalize(fname);
  MutexLock l(&mu_);
  Status s = CheckFault("DeleteFile", path);
  if (!s.ok()) return s;
  std::shared_ptr<FileState> f = Lookup(path);
  // The durable bytes are needed to undo the delete; read them first.
  std::string bytes;
  const bool save = f != nullptr && IsDurableSomewhere(f.get());
  if (save) {
    s = ReadFileToString(base_.get(), path, &bytes);
    if (!s.ok()) return s;
    if (bytes.size() > f->synced_size) bytes.resize(f->synced_size);
  }
  s = base_->DeleteFile(fname);
  if (!s.ok()) return s;
  Unlink(path);
  if (save) {
    f->saved = std::move(bytes);
    f->has_saved = true;
  }
  return Status::OK();
}

Status FaultInjectionFileSystem::CreateDir(const std::string& dirname) {
  MutexLock l(&mu_);
  Status s = CheckFault("CreateDir", dirname);
  if (!s.ok()) return s;
  return base_->CreateDir(dirname);
}

Status FaultInjectionFileSystem::CreateDirIfMissing(const std::string& dirname) {
  MutexLock l(&mu_);
  Status s = CheckFault("CreateDirIfMissing", dirname);
  if (!s.ok()) return s;
  return base_->CreateDirIfMissing(dirname);
}

Status FaultInjectionFileSystem::DeleteDir(const std::string& dirname) {
  MutexLock l(&mu_);
  Status s = CheckFault("DeleteDir", dirname);
  if (!s.ok()) return s;
  s = base_->DeleteDir(dirname);
  if (s.ok()) dirs_.erase(Normalize(dirname));
  return s;
}

Status FaultInjectionFileSystem::GetFileSize(const std::string& fname, uint64_t* size) {
  return base_->GetFileSize(fname, size);
}

Status FaultInjectionFileSystem::RenameFile(const std::string& src, const std::string& target) {
  const std::string from = Normalize(src);
  const std::string to = Normalize(target);
  MutexLock l(&mu_);
  Status s = CheckFault("RenameFile", from + " -> " + to);
  if (!s.ok()) return s;
  std::shared_ptr<FileState> f = Lookup(from);
  std::shared_ptr<FileState> replaced = Lookup(to);
  // The replaced file's durable bytes come back if the rename is undone.
  std::string bytes;
  const bool save = replaced != nullptr && replaced != f && IsDurableSomewhere(replaced.get());
  if (save) {
    s = ReadFileToString(base_.get(), to, &bytes);
    if (!s.ok()) return s;
    if (bytes.size() > replaced->synced_size) bytes.resize(replaced->synced_size);
  }
  s = base_->RenameFile(src, target);
  if (!s.ok() || f == nullptr || from == to) return s;
  Unlink(to);
  Unlink(from);
  std::string dir, name;
  SplitPath(to, &dir, &name);
  GetDir(dir)->live[name] = f;
  if (save) {
    replaced->saved = std::move(bytes);
    replaced->has_saved = true;
  }
  return Status::OK();
}

Status FaultInjectionFileSystem::IsDirectory(const std::string& path, bool* is_dir) {
  return base_->IsDirectory(path, is_dir);
}

Status FaultInjectionFileSystem::Truncate(const std::string& fname, uint64_t size) {
  const std::string path = Normalize(fname);
  MutexLock l(&mu_);
  Status s = CheckFault("Truncate", path);
  if (!s.ok()) return s;
  std::shared_ptr<FileState> f = Lookup(path);
  s = base_->Truncate(fname, size);
  if (s.ok() && f != nullptr) {
    f->size = size;
    f->synced_size = std::min(f->synced_size, size);
  }
  return s;
}

Status FaultInjectionFileSystem::LockFile(const std::string& fname,
                                          std::unique_ptr<FileLock>* lock) {
  return base_->LockFile(fname, lock);
}

Status FaultInjectionFileSystem::UnlockFile(std::unique_ptr<FileLock> lock) {
  return base_->UnlockFile(std::move(lock));
}

}  // namespace strata
