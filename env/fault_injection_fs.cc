#include "env/fault_injection_fs.h"

#include <algorithm>
#include <cstring>
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

// Operations that need free space: a full disk fails them.
bool Allocates(FaultOp op) {
  switch (op) {
    case FaultOp::kCreate:
    case FaultOp::kAppend:
    case FaultOp::kFlush:
    case FaultOp::kSync:
    case FaultOp::kAllocate:
    case FaultOp::kDirOp:
      return true;
    default:
      return false;
  }
}

// True if spec's file filters accept path.
bool SpecAccepts(const FaultSpec& spec, const std::string& path) {
  if (path.empty()) return false;
  if (!spec.name_contains.empty()) {
    const size_t slash = path.rfind('/');
    const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    bool any = false;
    for (const std::string& part : spec.name_contains) {
      if (name.find(part) != std::string::npos) {
        any = true;
        break;
      }
    }
    if (!any) return false;
  }
  return !spec.predicate || spec.predicate(path);
}

}  // namespace

const char* FaultOpName(FaultOp op) {
  switch (op) {
    case FaultOp::kCreate:
      return "create";
    case FaultOp::kAppend:
      return "append";
    case FaultOp::kFlush:
      return "flush";
    case FaultOp::kSync:
      return "sync";
    case FaultOp::kClose:
      return "close";
    case FaultOp::kRename:
      return "rename";
    case FaultOp::kDelete:
      return "delete";
    case FaultOp::kTruncate:
      return "truncate";
    case FaultOp::kDirFsync:
      return "dir-fsync";
    case FaultOp::kAllocate:
      return "allocate";
    case FaultOp::kDirOp:
      return "dir-op";
    case FaultOp::kOpenRead:
      return "open-read";
    case FaultOp::kRead:
      return "read";
    case FaultOp::kNumKinds:
      break;
  }
  return "unknown";
}

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
  Status Allocate(uint64_t offset, uint64_t len) override {
    return fs_->FileAllocate(path_, base_.get(), offset, len);
  }

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

// Read wrappers: every Read (and Skip) asks the file system for its fault.
class FaultRandomAccessFile final : public RandomAccessFile {
 public:
  FaultRandomAccessFile(FaultInjectionFileSystem* fs, std::string path,
                        std::unique_ptr<RandomAccessFile> base, bool hide_mapped)
      : fs_(fs), path_(std::move(path)), base_(std::move(base)), hide_mapped_(hide_mapped) {}

  Status Read(uint64_t offset, size_t n, Slice* result, char* scratch) const override {
    Status error;
    const auto fault = fs_->CheckRead(path_, &error);
    if (fault == FaultInjectionFileSystem::ReadFault::kError) {
      *result = Slice();
      return error;
    }
    Status s = base_->Read(offset, n, result, scratch);
    if (s.ok() && fault != FaultInjectionFileSystem::ReadFault::kNone) {
      fs_->DamageRead(fault, n, result, scratch);
    }
    return s;
  }
  Status Prefetch(uint64_t offset, size_t n) override { return base_->Prefetch(offset, n); }
  Slice mapped_contents() const override {
    return hide_mapped_ ? Slice() : base_->mapped_contents();
  }

 private:
  FaultInjectionFileSystem* const fs_;
  const std::string path_;
  const std::unique_ptr<RandomAccessFile> base_;
  const bool hide_mapped_;
};

class FaultSequentialFile final : public SequentialFile {
 public:
  FaultSequentialFile(FaultInjectionFileSystem* fs, std::string path,
                      std::unique_ptr<SequentialFile> base)
      : fs_(fs), path_(std::move(path)), base_(std::move(base)) {}

  Status Read(size_t n, Slice* result, char* scratch) override {
    Status error;
    const auto fault = fs_->CheckRead(path_, &error);
    if (fault == FaultInjectionFileSystem::ReadFault::kError) {
      *result = Slice();
      return error;
    }
    Status s = base_->Read(n, result, scratch);
    if (s.ok() && fault != FaultInjectionFileSystem::ReadFault::kNone) {
      fs_->DamageRead(fault, n, result, scratch);
    }
    return s;
  }
  // A short or corrupt fault has nothing to damage in a skip.
  Status Skip(uint64_t n) override {
    Status error;
    if (fs_->CheckRead(path_, &error) == FaultInjectionFileSystem::ReadFault::kError) return error;
    return base_->Skip(n);
  }

 private:
  FaultInjectionFileSystem* const fs_;
  const std::string path_;
  const std::unique_ptr<SequentialFile> base_;
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

void FaultInjectionFileSystem::InjectFault(const FaultSpec& spec) {
  MutexLock l(&mu_);
  spec_ = spec;
  spec_armed_ = true;
  spec_fired_ = false;
  spec_remaining_ = spec.countdown;
  matched_ops_ = 0;
  spec_faults_ = 0;
  rng_.seed(spec.seed);
}

void FaultInjectionFileSystem::ClearFault() {
  MutexLock l(&mu_);
  spec_armed_ = false;
  spec_ = FaultSpec();
}

uint64_t FaultInjectionFileSystem::matched_ops() const {
  MutexLock l(&mu_);
  return matched_ops_;
}

uint64_t FaultInjectionFileSystem::spec_faults() const {
  MutexLock l(&mu_);
  return spec_faults_;
}

void FaultInjectionFileSystem::SetNoSpace(bool no_space) {
  MutexLock l(&mu_);
  no_space_ = no_space;
}

bool FaultInjectionFileSystem::IsNoSpace() const {
  MutexLock l(&mu_);
  return no_space_;
}

void FaultInjectionFileSystem::SetFreeSpace(uint64_t bytes) {
  MutexLock l(&mu_);
  free_space_set_ = true;
  free_space_ = bytes;
}

Status FaultInjectionFileSystem::GetFreeSpace(const std::string& path, uint64_t* free_bytes) {
  {
    MutexLock l(&mu_);
    if (no_space_ || free_space_set_) {
      *free_bytes = no_space_ ? 0 : free_space_;
      return Status::OK();
    }
  }
  return base_->GetFreeSpace(path, free_bytes);
}

FaultOpCounts FaultInjectionFileSystem::op_counts(FaultOp op) const {
  MutexLock l(&mu_);
  return counts_[static_cast<int>(op)];
}

void FaultInjectionFileSystem::ResetOpCounts() {
  MutexLock l(&mu_);
  for (FaultOpCounts& c : counts_) c = FaultOpCounts();
}

void FaultInjectionFileSystem::SetFaultListener(FaultListener listener) {
  MutexLock l(&mu_);
  listener_ = std::move(listener);
}

void FaultInjectionFileSystem::set_hide_mapped_contents(bool hide) {
  MutexLock l(&mu_);
  hide_mapped_ = hide;
}

bool FaultInjectionFileSystem::SpecMatches(FaultOp kind, const std::string& path,
                                           const std::string& path2) const {
  mu_.AssertHeld();
  if (!spec_armed_ || (spec_.ops & FaultOpBit(kind)) == 0) return false;
  return SpecAccepts(spec_, path) || SpecAccepts(spec_, path2);
}

bool FaultInjectionFileSystem::SpecFires() {
  mu_.AssertHeld();
  if (spec_.probability > 0) {
    // 53 random bits as a double in [0, 1): the same on every platform.
    const double draw = static_cast<double>(rng_() >> 11) * (1.0 / 9007199254740992.0);
    return draw < spec_.probability;
  }
  if (spec_fired_) return spec_.sticky;
  if (spec_remaining_ > 0) {
    --spec_remaining_;
    return false;
  }
  spec_fired_ = true;
  return true;
}

Status FaultInjectionFileSystem::CheckFault(FaultOp kind, const char* op, const std::string& path,
                                            const std::string& path2) {
  mu_.AssertHeld();
  FaultOpCounts& counts = counts_[static_cast<int>(kind)];
  ++counts.attempted;
  auto where = [&] { return path2.empty() ? path : path + " -> " + path2; };
  Status s;
  const bool mutating = (kMutatingFaultOps & FaultOpBit(kind)) != 0;
  if (mutating) ++mutating_ops_;
  if (!active_ && kind != FaultOp::kOpenRead) {
    s = Status::IOError(op, where() + ": file system inactive (simulated crash)");
  } else if (mutating && countdown_armed_ && countdown_ > 0) {
    --countdown_;
  } else if (mutating && countdown_armed_) {
    countdown_armed_ = false;
    if (countdown_mode_ == FaultMode::kCrash) active_ = false;
    s = Status::IOError(op, where() + ": injected fault");
  }
  if (s.ok() && no_space_ && Allocates(kind)) {
    s = Status::NoSpace(op, where() + ": no space left on device (injected)");
  }
  if (s.ok() && SpecMatches(kind, path, path2)) {
    ++matched_ops_;
    if (SpecFires()) {
      ++spec_faults_;
      s = spec_.error == FaultError::kNoSpace
              ? Status::NoSpace(op, where() + ": no space left on device (injected)")
              : Status::IOError(op, where() + ": injected fault");
    }
  }
  if (!s.ok()) {
    ++counts.failed;
    ++injected_faults_;
    if (listener_) listener_(kind, where(), s);
  }
  return s;
}

FaultInjectionFileSystem::ReadFault FaultInjectionFileSystem::CheckRead(const std::string& path,
                                                                        Status* error) {
  MutexLock l(&mu_);
  FaultOpCounts& counts = counts_[static_cast<int>(FaultOp::kRead)];
  ++counts.attempted;
  if (!SpecMatches(FaultOp::kRead, path, std::string())) return ReadFault::kNone;
  ++matched_ops_;
  if (!SpecFires()) return ReadFault::kNone;
  ++spec_faults_;
  ++counts.failed;
  ++injected_faults_;
  ReadFault fault = ReadFault::kError;
  switch (spec_.error) {
    case FaultError::kShortRead:
      fault = ReadFault::kShort;
      break;
    case FaultError::kCorruptRead:
      fault = ReadFault::kCorrupt;
      break;
    case FaultError::kNoSpace:
      *error = Status::NoSpace("While reading file", path + ": injected fault");
      break;
    case FaultError::kIOError:
      *error = Status::IOError("While reading file", path + ": injected fault");
      break;
  }
  if (listener_) {
    listener_(FaultOp::kRead, path,
              fault == ReadFault::kShort     ? Status::Corruption("injected short read", path)
              : fault == ReadFault::kCorrupt ? Status::Corruption("injected bit flip", path)
                                             : *error);
  }
  return fault;
}

void FaultInjectionFileSystem::DamageRead(ReadFault f, size_t n, Slice* result, char* scratch) {
  const size_t size = result->size();
  if (size == 0) return;
  if (f == ReadFault::kShort) {
    // At most half of what was asked for (and of what the file gave).
    *result = Slice(result->data(), std::min(size, n) / 2);
    return;
  }
  uint64_t bit;
  {
    MutexLock l(&mu_);
    bit = rng_() % (uint64_t{size} * 8);
  }
  if (result->data() != scratch) memmove(scratch, result->data(), size);
  scratch[bit / 8] = static_cast<char>(scratch[bit / 8] ^ (1 << (bit % 8)));
  *result = Slice(scratch, size);
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
  Status s = CheckFault(FaultOp::kAppend, "While appending to file", path);
  if (!s.ok()) return s;
  s = base->Append(data);
  if (s.ok()) f->size += data.size();
  return s;
}

Status FaultInjectionFileSystem::FileFlush(const std::string& path, WritableFile* base) {
  MutexLock l(&mu_);
  Status s = CheckFault(FaultOp::kFlush, "While flushing file", path);
  if (!s.ok()) return s;
  return base->Flush();
}

Status FaultInjectionFileSystem::FileSync(const std::string& path, FileState* f, WritableFile* base,
                                          bool fsync) {
  MutexLock l(&mu_);
  Status s = CheckFault(FaultOp::kSync, "While syncing file", path);
  if (!s.ok()) return s;
  s = fsync ? base->Fsync() : base->Sync();
  if (s.ok()) f->synced_size = f->size;
  return s;
}

Status FaultInjectionFileSystem::FileAllocate(const std::string& path, WritableFile* base,
                                              uint64_t offset, uint64_t len) {
  MutexLock l(&mu_);
  Status s = CheckFault(FaultOp::kAllocate, "While allocating file space", path);
  if (!s.ok()) return s;
  return base->Allocate(offset, len);
}

Status FaultInjectionFileSystem::FileClose(const std::string& path, WritableFile* base) {
  MutexLock l(&mu_);
  Status s = CheckFault(FaultOp::kClose, "While closing file", path);
  // A refused Close still releases the base file; what it held is unsynced
  // and DropUnsyncedData cuts it off.
  Status c = base->Close();
  return s.ok() ? c : s;
}

Status FaultInjectionFileSystem::DirFsync(const std::string& dir, Directory* base) {
  MutexLock l(&mu_);
  Status s = CheckFault(FaultOp::kDirFsync, "While fsyncing directory", dir);
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
  result->reset();
  {
    MutexLock l(&mu_);
    Status s = CheckFault(FaultOp::kOpenRead, "NewSequentialFile", Normalize(fname));
    if (!s.ok()) return s;
  }
  std::unique_ptr<SequentialFile> base;
  Status s = base_->NewSequentialFile(fname, opts, &base);
  if (!s.ok()) return s;
  *result = std::make_unique<FaultSequentialFile>(this, Normalize(fname), std::move(base));
  return Status::OK();
}

Status FaultInjectionFileSystem::NewRandomAccessFile(const std::string& fname,
                                                     const FileOptions& opts,
                                                     std::unique_ptr<RandomAccessFile>* result) {
  result->reset();
  bool hide;
  {
    MutexLock l(&mu_);
    Status s = CheckFault(FaultOp::kOpenRead, "NewRandomAccessFile", Normalize(fname));
    if (!s.ok()) return s;
    hide = hide_mapped_;
  }
  std::unique_ptr<RandomAccessFile> base;
  Status s = base_->NewRandomAccessFile(fname, opts, &base);
  if (!s.ok()) return s;
  *result = std::make_unique<FaultRandomAccessFile>(this, Normalize(fname), std::move(base), hide);
  return Status::OK();
}

Status FaultInjectionFileSystem::NewWritableFile(const std::string& fname, const FileOptions& opts,
                                                 std::unique_ptr<WritableFile>* result) {
  result->reset();
  const std::string path = Normalize(fname);
  MutexLock l(&mu_);
  Status s = CheckFault(FaultOp::kCreate, "NewWritableFile", path);
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
  Status s = CheckFault(FaultOp::kCreate, "ReopenWritableFile", path);
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
  Status s = CheckFault(FaultOp::kDelete, "DeleteFile", path);
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
  Status s = CheckFault(FaultOp::kDirOp, "CreateDir", dirname);
  if (!s.ok()) return s;
  return base_->CreateDir(dirname);
}

Status FaultInjectionFileSystem::CreateDirIfMissing(const std::string& dirname) {
  MutexLock l(&mu_);
  Status s = CheckFault(FaultOp::kDirOp, "CreateDirIfMissing", dirname);
  if (!s.ok()) return s;
  return base_->CreateDirIfMissing(dirname);
}

Status FaultInjectionFileSystem::DeleteDir(const std::string& dirname) {
  MutexLock l(&mu_);
  Status s = CheckFault(FaultOp::kDirOp, "DeleteDir", dirname);
  if (!s.ok()) return s;
  s = base_->DeleteDir(dirname);
  if (s.ok()) dirs_.erase(Normalize(dirname));
  return s;
}

Status FaultInjectionFileSystem::GetFileSize(const std::string& fname, uint64_t* size) {
  return base_->GetFileSize(fname, size);
}

Status FaultInjectionFileSystem::GetFileModificationTime(const std::string& fname,
                                                         uint64_t* file_mtime) {
  return base_->GetFileModificationTime(fname, file_mtime);
}

Status FaultInjectionFileSystem::RenameFile(const std::string& src, const std::string& target) {
  const std::string from = Normalize(src);
  const std::string to = Normalize(target);
  MutexLock l(&mu_);
  Status s = CheckFault(FaultOp::kRename, "RenameFile", from, to);
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
  Status s = CheckFault(FaultOp::kTruncate, "Truncate", path);
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
