#include "env/mem_file_system.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace strata {

struct MemFileSystem::FileData {
  Mutex mu;
  std::string bytes GUARDED_BY(mu);
};

namespace {

using FileData = MemFileSystem::FileData;

std::string ErrnoText(int err) {
  char buf[128];
  return std::string(strerror_r(err, buf, sizeof(buf)));
}

// The same Status PosixFileSystem gives for a system call failing with err.
Status MemError(const char* context, const std::string& path, int err) {
  const std::string msg = path + ": " + ErrnoText(err);
  if (err == ENOENT) return Status::PathNotFound(context, msg);
  return Status::IOError(context, msg);
}

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

// The prefix every path strictly below dir starts with.
std::string ChildPrefix(const std::string& dir) { return dir == "/" ? dir : dir + "/"; }

bool StartsWith(const std::string& s, const std::string& prefix) {
  return s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
}

const std::string& KeyOf(const std::string& s) { return s; }
const std::string& KeyOf(const std::pair<const std::string, std::shared_ptr<FileData>>& p) {
  return p.first;
}

template <typename Container>
bool HasKeyWithPrefix(const Container& c, const std::string& prefix) {
  auto it = c.lower_bound(prefix);
  return it != c.end() && StartsWith(KeyOf(*it), prefix);
}

class MemSequentialFile final : public SequentialFile {
 public:
  explicit MemSequentialFile(std::shared_ptr<FileData> data) : data_(std::move(data)) {}

  Status Read(size_t n, Slice* result, char* scratch) override {
    MutexLock l(&data_->mu);
    if (pos_ >= data_->bytes.size()) {
      *result = Slice(scratch, 0);
      return Status::OK();
    }
    const size_t k = static_cast<size_t>(std::min<uint64_t>(n, data_->bytes.size() - pos_));
    memcpy(scratch, data_->bytes.data() + pos_, k);
    pos_ += k;
    *result = Slice(scratch, k);
    return Status::OK();
  }

  Status Skip(uint64_t n) override {
    pos_ += n;  // like lseek: past the end is allowed, reads then return nothing
    return Status::OK();
  }

 private:
  const std::shared_ptr<FileData> data_;
  uint64_t pos_ = 0;
};

class MemRandomAccessFile final : public RandomAccessFile {
 public:
  explicit MemRandomAccessFile(std::shared_ptr<FileData> data) : data_(std::move(data)) {}

  Status Read(uint64_t offset, size_t n, Slice* result, char* scratch) const override {
    MutexLock l(&data_->mu);
    if (offset >= data_->bytes.size()) {
      *result = Slice(scratch, 0);
      return Status::OK();
    }
    const size_t k = static_cast<size_t>(std::min<uint64_t>(n, data_->bytes.size() - offset));
    memcpy(scratch, data_->bytes.data() + offset, k);
    *result = Slice(scratch, k);
    return Status::OK();
  }

 private:
  const std::shared_ptr<FileData> data_;
};

class MemWritableFile final : public WritableFile {
 public:
  MemWritableFile(std::string fname, std::shared_ptr<FileData> data)
      : fname_(std::move(fname)), data_(std::move(data)) {}

  Status Append(const Slice& slice) override {
    if (closed_) return MemError("While appending to file", fname_, EBADF);
    MutexLock l(&data_->mu);
    data_->bytes.append(slice.data(), slice.size());
    return Status::OK();
  }
  Status Flush() override { return Status::OK(); }
  Status Sync() override { return Status::OK(); }
  Status Close() override {
    closed_ = true;
    return Status::OK();
  }
  uint64_t GetFileSize() const override {
    MutexLock l(&data_->mu);
    return data_->bytes.size();
  }

 private:
  const std::string fname_;
  const std::shared_ptr<FileData> data_;
  bool closed_ = false;
};

class MemDirectory final : public Directory {
 public:
  Status Fsync() override { return Status::OK(); }
};

class MemFileLock final : public FileLock {
 public:
  explicit MemFileLock(std::string path) : path_(std::move(path)) {}
  const std::string& path() const { return path_; }

 private:
  const std::string path_;
};

}  // namespace

bool MemFileSystem::IsDirLocked(const std::string& path) const {
  if (path == "/" || dirs_.count(path) != 0) return true;
  const std::string prefix = ChildPrefix(path);
  return HasKeyWithPrefix(files_, prefix) || HasKeyWithPrefix(dirs_, prefix);
}

bool MemFileSystem::AncestorIsFileLocked(const std::string& path) const {
  for (size_t pos = path.find('/', 1); pos != std::string::npos; pos = path.find('/', pos + 1)) {
    if (files_.count(path.substr(0, pos)) != 0) return true;
  }
  return false;
}

Status MemFileSystem::OpenForWriteLocked(const std::string& path, const char* context,
                                         bool truncate, std::shared_ptr<FileData>* data) {
  auto it = files_.find(path);
  if (it != files_.end()) {
    *data = it->second;
    if (truncate) {
      MutexLock l(&(*data)->mu);
      (*data)->bytes.clear();
    }
    return Status::OK();
  }
  if (IsDirLocked(path)) return MemError(context, path, EISDIR);
  if (AncestorIsFileLocked(path)) return MemError(context, path, ENOTDIR);
  *data = std::make_shared<FileData>();
  files_.emplace(path, *data);
  return Status::OK();
}

Status MemFileSystem::OpenForRead(const std::string& fname, const char* context,
                                  std::shared_ptr<FileData>* data) {
  const std::string path = Normalize(fname);
  MutexLock l(&mu_);
  auto it = files_.find(path);
  if (it == files_.end()) {
    if (IsDirLocked(path)) return MemError(context, fname, EISDIR);
    return MemError(context, fname, AncestorIsFileLocked(path) ? ENOTDIR : ENOENT);
  }
  *data = it->second;
  return Status::OK();
}

Status MemFileSystem::NewSequentialFile(const std::string& fname, const FileOptions& /*opts*/,
                                        std::unique_ptr<SequentialFile>* result) {
  result->reset();
  std::shared_ptr<FileData> data;
  Status s = OpenForRead(fname, "While open a file for sequential reading", &data);
  if (s.ok()) *result = std::make_unique<MemSequentialFile>(std::move(data));
  return s;
}

Status MemFileSystem::NewRandomAccessFile(const std::string& fname, const FileOptions& /*opts*/,
                                          std::unique_ptr<RandomAccessFile>* result) {
  result->reset();
  std::shared_ptr<FileData> data;
  Status s = OpenForRead(fname, "While open a file for random read", &data);
  if (s.ok()) *result = std::make_unique<MemRandomAccessFile>(std::move(data));
  return s;
}

Status MemFileSystem::OpenWritable(const std::string& fname, bool truncate,
                                   std::unique_ptr<WritableFile>* result) {
  result->reset();
  std::shared_ptr<FileData> data;
  {
    MutexLock l(&mu_);
    Status s =
        OpenForWriteLocked(Normalize(fname), "While open a file for appending", truncate, &data);
    if (!s.ok()) return s;
  }
  *result = std::make_unique<MemWritableFile>(fname, std::move(data));
  return Status::OK();
}

Status MemFileSystem::NewWritableFile(const std::string& fname, const FileOptions& /*opts*/,
                                      std::unique_ptr<WritableFile>* result) {
  return OpenWritable(fname, /*truncate=*/true, result);
}

Status MemFileSystem::ReopenWritableFile(const std::string& fname, const FileOptions& /*opts*/,
                                         std::unique_ptr<WritableFile>* result) {
  return OpenWritable(fname, /*truncate=*/false, result);
}

Status MemFileSystem::NewDirectory(const std::string& name, std::unique_ptr<Directory>* result) {
  result->reset();
  const std::string path = Normalize(name);
  MutexLock l(&mu_);
  if (files_.count(path) != 0) return MemError("While open directory", name, ENOTDIR);
  if (!IsDirLocked(path)) return MemError("While open directory", name, ENOENT);
  *result = std::make_unique<MemDirectory>();
  return Status::OK();
}

Status MemFileSystem::FileExists(const std::string& fname) {
  const std::string path = Normalize(fname);
  MutexLock l(&mu_);
  if (files_.count(path) != 0 || IsDirLocked(path)) return Status::OK();
  return Status::NotFound(fname);
}

Status MemFileSystem::GetChildren(const std::string& dir, std::vector<std::string>* result) {
  result->clear();
  const std::string path = Normalize(dir);
  MutexLock l(&mu_);
  if (files_.count(path) != 0) return MemError("While opendir", dir, ENOTDIR);
  if (!IsDirLocked(path)) return MemError("While opendir", dir, ENOENT);
  const std::string prefix = ChildPrefix(path);
  std::set<std::string> names;
  auto add = [&](const std::string& key) {
    const size_t end = key.find('/', prefix.size());
    names.insert(key.substr(prefix.size(), end == std::string::npos ? end : end - prefix.size()));
  };
  for (auto it = files_.lower_bound(prefix); it != files_.end() && StartsWith(it->first, prefix);
       ++it) {
    add(it->first);
  }
  for (auto it = dirs_.lower_bound(prefix); it != dirs_.end() && StartsWith(*it, prefix); ++it) {
    add(*it);
  }
  result->assign(names.begin(), names.end());
  return Status::OK();
}

Status MemFileSystem::DeleteFile(const std::string& fname) {
  const std::string path = Normalize(fname);
  MutexLock l(&mu_);
  if (files_.erase(path) != 0) return Status::OK();  // open files keep their bytes
  return MemError("While unlink", fname, IsDirLocked(path) ? EISDIR : ENOENT);
}

Status MemFileSystem::CreateDir(const std::string& dirname) {
  const std::string path = Normalize(dirname);
  MutexLock l(&mu_);
  if (files_.count(path) != 0 || IsDirLocked(path)) {
    return MemError("While mkdir", dirname, EEXIST);
  }
  if (AncestorIsFileLocked(path)) return MemError("While mkdir", dirname, ENOTDIR);
  dirs_.insert(path);
  return Status::OK();
}

Status MemFileSystem::CreateDirIfMissing(const std::string& dirname) {
  const std::string path = Normalize(dirname);
  MutexLock l(&mu_);
  if (files_.count(path) != 0) {
    return Status::IOError("While mkdir if missing", dirname + ": exists but is not a directory");
  }
  if (IsDirLocked(path)) return Status::OK();
  if (AncestorIsFileLocked(path)) return MemError("While mkdir if missing", dirname, ENOTDIR);
  dirs_.insert(path);
  return Status::OK();
}

Status MemFileSystem::DeleteDir(const std::string& dirname) {
  const std::string path = Normalize(dirname);
  MutexLock l(&mu_);
  if (files_.count(path) != 0) return MemError("While rmdir", dirname, ENOTDIR);
  if (!IsDirLocked(path)) return MemError("While rmdir", dirname, ENOENT);
  const std::string prefix = ChildPrefix(path);
  if (HasKeyWithPrefix(files_, prefix) || HasKeyWithPrefix(dirs_, prefix)) {
    return MemError("While rmdir", dirname, ENOTEMPTY);
  }
  dirs_.erase(path);
  return Status::OK();
}

Status MemFileSystem::GetFileSize(const std::string& fname, uint64_t* size) {
  *size = 0;
  const std::string path = Normalize(fname);
  std::shared_ptr<FileData> data;
  {
    MutexLock l(&mu_);
    auto it = files_.find(path);
    if (it == files_.end()) {
      if (IsDirLocked(path)) return Status::OK();
      return MemError("While stat a file for size", fname, ENOENT);
    }
    data = it->second;
  }
  MutexLock l(&data->mu);
  *size = data->bytes.size();
  return Status::OK();
}

Status MemFileSystem::LinkFile(const std::string& src, const std::string& target) {
  const std::string from = Normalize(src);
  const std::string to = Normalize(target);
  const std::string what = src + " to " + target;
  MutexLock l(&mu_);
  auto it = files_.find(from);
  if (it == files_.end()) {
    return MemError("While linking a file", what, IsDirLocked(from) ? EPERM : ENOENT);
  }
  if (files_.count(to) != 0 || IsDirLocked(to))
    return MemError("While linking a file", what, EEXIST);
  if (AncestorIsFileLocked(to)) return MemError("While linking a file", what, ENOTDIR);
  files_[to] = it->second;
  return Status::OK();
}

Status MemFileSystem::RenameFile(const std::string& src, const std::string& target) {
  const std::string from = Normalize(src);
  const std::string to = Normalize(target);
  const std::string what = src + " to " + target;
  MutexLock l(&mu_);
  if (from == to) {
    if (files_.count(from) != 0 || IsDirLocked(from)) return Status::OK();
    return MemError("While renaming a file", what, ENOENT);
  }
  auto it = files_.find(from);
  if (it != files_.end()) {
    if (IsDirLocked(to)) return MemError("While renaming a file", what, EISDIR);
    if (AncestorIsFileLocked(to)) return MemError("While renaming a file", what, ENOTDIR);
    std::shared_ptr<FileData> data = std::move(it->second);
    files_.erase(it);
    files_[to] = std::move(data);  // replaces target atomically
    return Status::OK();
  }
  if (!IsDirLocked(from)) return MemError("While renaming a file", what, ENOENT);
  // A directory: the target must be missing or an empty directory, and not
  // below the source.
  if (files_.count(to) != 0) return MemError("While renaming a file", what, ENOTDIR);
  const std::string from_prefix = ChildPrefix(from);
  const std::string to_prefix = ChildPrefix(to);
  if (StartsWith(to, from_prefix)) return MemError("While renaming a file", what, EINVAL);
  if (HasKeyWithPrefix(files_, to_prefix) || HasKeyWithPrefix(dirs_, to_prefix)) {
    return MemError("While renaming a file", what, ENOTEMPTY);
  }
  FileMap moved_files;
  for (auto f = files_.lower_bound(from_prefix);
       f != files_.end() && StartsWith(f->first, from_prefix);) {
    moved_files.emplace(to_prefix + f->first.substr(from_prefix.size()), std::move(f->second));
    f = files_.erase(f);
  }
  std::set<std::string> moved_dirs;
  for (auto d = dirs_.lower_bound(from_prefix); d != dirs_.end() && StartsWith(*d, from_prefix);) {
    moved_dirs.insert(to_prefix + d->substr(from_prefix.size()));
    d = dirs_.erase(d);
  }
  dirs_.erase(from);
  files_.merge(moved_files);
  dirs_.merge(moved_dirs);
  dirs_.insert(to);
  return Status::OK();
}

Status MemFileSystem::IsDirectory(const std::string& path_in, bool* is_dir) {
  const std::string path = Normalize(path_in);
  MutexLock l(&mu_);
  if (files_.count(path) != 0) {
    *is_dir = false;
    return Status::OK();
  }
  if (IsDirLocked(path)) {
    *is_dir = true;
    return Status::OK();
  }
  return MemError("While stat for IsDirectory", path_in, ENOENT);
}

Status MemFileSystem::Truncate(const std::string& fname, uint64_t size) {
  const std::string path = Normalize(fname);
  std::shared_ptr<FileData> data;
  {
    MutexLock l(&mu_);
    auto it = files_.find(path);
    if (it == files_.end()) {
      return MemError("While truncate file", fname, IsDirLocked(path) ? EISDIR : ENOENT);
    }
    data = it->second;
  }
  MutexLock l(&data->mu);
  data->bytes.resize(static_cast<size_t>(size), '\0');
  return Status::OK();
}

Status MemFileSystem::LockFile(const std::string& fname, std::unique_ptr<FileLock>* lock) {
  lock->reset();
  const std::string path = Normalize(fname);
  MutexLock l(&mu_);
  if (locked_.count(path) != 0) {
    return Status::IOError("lock hold by current process", fname + ": " + ErrnoText(EAGAIN));
  }
  std::shared_ptr<FileData> data;
  Status s = OpenForWriteLocked(path, "While open a file for lock", /*truncate=*/false, &data);
  if (!s.ok()) return s;
  locked_.insert(path);
  *lock = std::make_unique<MemFileLock>(path);
  return Status::OK();
}

Status MemFileSystem::UnlockFile(std::unique_ptr<FileLock> lock) {
  auto* mem_lock = static_cast<MemFileLock*>(lock.get());
  if (mem_lock == nullptr) return Status::InvalidArgument("UnlockFile: null lock");
  MutexLock l(&mu_);
  locked_.erase(mem_lock->path());
  return Status::OK();
}

}  // namespace strata
