// compat/env_mirror.cc: EnvMirror (rocksdb/utilities/env_mirror.h) and the
// mirrored files it opens.
#include "rocksdb/utilities/env_mirror.h"

#include <cstring>
#include <memory>
#include <string>

namespace rocksdb {
namespace {

// a's answer when the two agree (same code and subcode); else Corruption
// naming the operation and both answers.
Status Agree(const std::string& what, const Status& a, const Status& b) {
  if (a.code() == b.code() && a.subcode() == b.subcode()) return a;
  return Status::Corruption("EnvMirror: " + what + ": the two Envs disagree",
                            a.ToString() + " vs " + b.ToString());
}

Status SameBytes(const std::string& what, const Slice& a, const Slice& b) {
  if (a == b) return Status::OK();
  return Status::Corruption("EnvMirror: " + what + ": the two Envs returned different bytes");
}

}  // namespace

class SequentialFileMirror : public SequentialFile {
 public:
  SequentialFileMirror(std::string name, std::unique_ptr<SequentialFile> a,
                       std::unique_ptr<SequentialFile> b)
      : name_(std::move(name)), a_(std::move(a)), b_(std::move(b)) {}

  // b may return the same bytes in shorter reads: it is read until it has
  // given as many as a did (or stops giving any).
  Status Read(size_t n, Slice* result, char* scratch) override {
    Status as = a_->Read(n, result, scratch);
    std::string theirs;
    std::unique_ptr<char[]> buf(new char[n > 0 ? n : 1]);
    Status bs;
    do {
      Slice part;
      bs = b_->Read(n - theirs.size(), &part, buf.get());
      if (!bs.ok() || part.empty()) break;
      theirs.append(part.data(), part.size());
    } while (as.ok() && theirs.size() < result->size());
    Status s = Agree("Read " + name_, as, bs);
    if (s.ok()) s = SameBytes("Read " + name_, *result, theirs);
    return s;
  }

  Status Skip(uint64_t n) override { return Agree("Skip " + name_, a_->Skip(n), b_->Skip(n)); }

  Status InvalidateCache(size_t offset, size_t length) override {
    return Agree("InvalidateCache " + name_, a_->InvalidateCache(offset, length),
                 b_->InvalidateCache(offset, length));
  }

 private:
  const std::string name_;
  std::unique_ptr<SequentialFile> a_, b_;
};

class RandomAccessFileMirror : public RandomAccessFile {
 public:
  RandomAccessFileMirror(std::string name, std::unique_ptr<RandomAccessFile> a,
                         std::unique_ptr<RandomAccessFile> b)
      : name_(std::move(name)), a_(std::move(a)), b_(std::move(b)) {}

  Status Read(uint64_t offset, size_t n, Slice* result, char* scratch) const override {
    Status as = a_->Read(offset, n, result, scratch);
    std::string theirs;
    std::unique_ptr<char[]> buf(new char[n > 0 ? n : 1]);
    Status bs;
    do {
      Slice part;
      bs = b_->Read(offset + theirs.size(), n - theirs.size(), &part, buf.get());
      if (!bs.ok() || part.empty()) break;
      theirs.append(part.data(), part.size());
    } while (as.ok() && theirs.size() < result->size());
    Status s = Agree("Read " + name_, as, bs);
    if (s.ok()) s = SameBytes("Read " + name_, *result, theirs);
    return s;
  }

  size_t GetUniqueId(char* id, size_t max_size) const override {
    return a_->GetUniqueId(id, max_size);
  }

 private:
  const std::string name_;
  std::unique_ptr<RandomAccessFile> a_, b_;
};

class WritableFileMirror : public WritableFile {
 public:
  WritableFileMirror(std::string name, std::unique_ptr<WritableFile> a,
                     std::unique_ptr<WritableFile> b, const EnvOptions& options)
      : WritableFile(options), name_(std::move(name)), a_(std::move(a)), b_(std::move(b)) {}

  Status Append(const Slice& data) override {
    return Agree("Append " + name_, a_->Append(data), b_->Append(data));
  }
  Status Append(const Slice& data, const DataVerificationInfo& info) override {
    return Agree("Append " + name_, a_->Append(data, info), b_->Append(data, info));
  }
  Status PositionedAppend(const Slice& data, uint64_t offset) override {
    return Agree("PositionedAppend " + name_, a_->PositionedAppend(data, offset),
                 b_->PositionedAppend(data, offset));
  }
  Status Truncate(uint64_t size) override {
    return Agree("Truncate " + name_, a_->Truncate(size), b_->Truncate(size));
  }
  Status Close() override { return Agree("Close " + name_, a_->Close(), b_->Close()); }
  Status Flush() override { return Agree("Flush " + name_, a_->Flush(), b_->Flush()); }
  Status Sync() override { return Agree("Sync " + name_, a_->Sync(), b_->Sync()); }
  Status Fsync() override { return Agree("Fsync " + name_, a_->Fsync(), b_->Fsync()); }
  bool IsSyncThreadSafe() const override {
    return a_->IsSyncThreadSafe() && b_->IsSyncThreadSafe();
  }
  void SetIOPriority(Env::IOPriority pri) override {
    a_->SetIOPriority(pri);
    b_->SetIOPriority(pri);
  }
  Env::IOPriority GetIOPriority() override { return a_->GetIOPriority(); }
  void SetWriteLifeTimeHint(Env::WriteLifeTimeHint hint) override {
    a_->SetWriteLifeTimeHint(hint);
    b_->SetWriteLifeTimeHint(hint);
  }
  Env::WriteLifeTimeHint GetWriteLifeTimeHint() override { return a_->GetWriteLifeTimeHint(); }
  uint64_t GetFileSize() override { return a_->GetFileSize(); }
  void SetPreallocationBlockSize(size_t size) override {
    a_->SetPreallocationBlockSize(size);
    b_->SetPreallocationBlockSize(size);
  }
  void GetPreallocationStatus(size_t* block_size, size_t* last_allocated_block) override {
    a_->GetPreallocationStatus(block_size, last_allocated_block);
  }
  size_t GetUniqueId(char* id, size_t max_size) const override {
    return a_->GetUniqueId(id, max_size);
  }
  Status InvalidateCache(size_t offset, size_t length) override {
    return Agree("InvalidateCache " + name_, a_->InvalidateCache(offset, length),
                 b_->InvalidateCache(offset, length));
  }
  Status RangeSync(uint64_t offset, uint64_t nbytes) override {
    return Agree("RangeSync " + name_, a_->RangeSync(offset, nbytes),
                 b_->RangeSync(offset, nbytes));
  }
  void PrepareWrite(size_t offset, size_t len) override {
    a_->PrepareWrite(offset, len);
    b_->PrepareWrite(offset, len);
  }
  Status Allocate(uint64_t offset, uint64_t len) override {
    return Agree("Allocate " + name_, a_->Allocate(offset, len), b_->Allocate(offset, len));
  }

 private:
  const std::string name_;
  std::unique_ptr<WritableFile> a_, b_;
};

namespace {

class DirectoryMirror : public Directory {
 public:
  DirectoryMirror(std::string name, std::unique_ptr<Directory> a, std::unique_ptr<Directory> b)
      : name_(std::move(name)), a_(std::move(a)), b_(std::move(b)) {}
  Status Fsync() override { return Agree("Fsync " + name_, a_->Fsync(), b_->Fsync()); }
  Status Close() override { return Agree("Close " + name_, a_->Close(), b_->Close()); }
  size_t GetUniqueId(char* id, size_t max_size) const override {
    return a_->GetUniqueId(id, max_size);
  }

 private:
  const std::string name_;
  std::unique_ptr<Directory> a_, b_;
};

}  // namespace

Status EnvMirror::NewSequentialFile(const std::string& f, std::unique_ptr<SequentialFile>* r,
                                    const EnvOptions& options) {
  if (f.find("/proc/") == 0) return a_->NewSequentialFile(f, r, options);
  std::unique_ptr<SequentialFile> a, b;
  Status s = Agree("NewSequentialFile " + f, a_->NewSequentialFile(f, &a, options),
                   b_->NewSequentialFile(f, &b, options));
  if (s.ok()) r->reset(new SequentialFileMirror(f, std::move(a), std::move(b)));
  return s;
}

Status EnvMirror::NewRandomAccessFile(const std::string& f, std::unique_ptr<RandomAccessFile>* r,
                                      const EnvOptions& options) {
  if (f.find("/proc/") == 0) return a_->NewRandomAccessFile(f, r, options);
  std::unique_ptr<RandomAccessFile> a, b;
  Status s = Agree("NewRandomAccessFile " + f, a_->NewRandomAccessFile(f, &a, options),
                   b_->NewRandomAccessFile(f, &b, options));
  if (s.ok()) r->reset(new RandomAccessFileMirror(f, std::move(a), std::move(b)));
  return s;
}

Status EnvMirror::NewWritableFile(const std::string& f, std::unique_ptr<WritableFile>* r,
                                  const EnvOptions& options) {
  if (f.find("/proc/") == 0) return a_->NewWritableFile(f, r, options);
  std::unique_ptr<WritableFile> a, b;
  Status s = Agree("NewWritableFile " + f, a_->NewWritableFile(f, &a, options),
                   b_->NewWritableFile(f, &b, options));
  if (s.ok()) r->reset(new WritableFileMirror(f, std::move(a), std::move(b), options));
  return s;
}

Status EnvMirror::ReuseWritableFile(const std::string& fname, const std::string& old_fname,
                                    std::unique_ptr<WritableFile>* r, const EnvOptions& options) {
  if (fname.find("/proc/") == 0) return a_->ReuseWritableFile(fname, old_fname, r, options);
  std::unique_ptr<WritableFile> a, b;
  Status s =
      Agree("ReuseWritableFile " + fname, a_->ReuseWritableFile(fname, old_fname, &a, options),
            b_->ReuseWritableFile(fname, old_fname, &b, options));
  if (s.ok()) r->reset(new WritableFileMirror(fname, std::move(a), std::move(b), options));
  return s;
}

Status EnvMirror::NewDirectory(const std::string& name, std::unique_ptr<Directory>* result) {
  std::unique_ptr<Directory> a, b;
  Status s = Agree("NewDirectory " + name, a_->NewDirectory(name, &a), b_->NewDirectory(name, &b));
  if (s.ok()) result->reset(new DirectoryMirror(name, std::move(a), std::move(b)));
  return s;
}

Status EnvMirror::FileExists(const std::string& f) {
  return Agree("FileExists " + f, a_->FileExists(f), b_->FileExists(f));
}

Status EnvMirror::GetChildren(const std::string& dir, std::vector<std::string>* r) {
  std::vector<std::string> ar, br;
  Status s = Agree("GetChildren " + dir, a_->GetChildren(dir, &ar), b_->GetChildren(dir, &br));
  if (!s.ok()) return s;
  std::sort(ar.begin(), ar.end());
  std::sort(br.begin(), br.end());
  if (ar != br) {
    return Status::Corruption("EnvMirror: GetChildren " + dir +
                              ": the two Envs list different files");
  }
  *r = std::move(ar);
  return s;
}

Status EnvMirror::DeleteFile(const std::string& f) {
  return Agree("DeleteFile " + f, a_->DeleteFile(f), b_->DeleteFile(f));
}

Status EnvMirror::CreateDir(const std::string& d) {
  return Agree("CreateDir " + d, a_->CreateDir(d), b_->CreateDir(d));
}

Status EnvMirror::CreateDirIfMissing(const std::string& d) {
  return Agree("CreateDirIfMissing " + d, a_->CreateDirIfMissing(d), b_->CreateDirIfMissing(d));
}

Status EnvMirror::DeleteDir(const std::string& d) {
  return Agree("DeleteDir " + d, a_->DeleteDir(d), b_->DeleteDir(d));
}

Status EnvMirror::GetFileSize(const std::string& f, uint64_t* size) {
  uint64_t as = 0, bs = 0;
  Status s = Agree("GetFileSize " + f, a_->GetFileSize(f, &as), b_->GetFileSize(f, &bs));
  if (s.ok() && as != bs) {
    return Status::Corruption("EnvMirror: GetFileSize " + f,
                              std::to_string(as) + " vs " + std::to_string(bs));
  }
  *size = as;
  return s;
}

Status EnvMirror::GetFileModificationTime(const std::string& fname, uint64_t* file_mtime) {
  uint64_t at = 0, bt = 0;
  Status s = Agree("GetFileModificationTime " + fname, a_->GetFileModificationTime(fname, &at),
                   b_->GetFileModificationTime(fname, &bt));
  if (s.ok() && (at > bt ? at - bt : bt - at) >= 10000) {
    return Status::Corruption("EnvMirror: GetFileModificationTime " + fname,
                              std::to_string(at) + " vs " + std::to_string(bt));
  }
  *file_mtime = at;
  return s;
}

Status EnvMirror::RenameFile(const std::string& s, const std::string& t) {
  return Agree("RenameFile " + s, a_->RenameFile(s, t), b_->RenameFile(s, t));
}

Status EnvMirror::LinkFile(const std::string& s, const std::string& t) {
  return Agree("LinkFile " + s, a_->LinkFile(s, t), b_->LinkFile(s, t));
}

Status EnvMirror::LockFile(const std::string& f, FileLock** l) {
  FileLock* al = nullptr;
  FileLock* bl = nullptr;
  Status as = a_->LockFile(f, &al);
  Status bs = b_->LockFile(f, &bl);
  Status s = Agree("LockFile " + f, as, bs);
  if (s.ok()) {
    *l = new FileLockMirror(al, bl);
  } else {
    // Give back whichever lock was taken.
    if (as.ok()) a_->UnlockFile(al).PermitUncheckedError();
    if (bs.ok()) b_->UnlockFile(bl).PermitUncheckedError();
  }
  return s;
}

Status EnvMirror::UnlockFile(FileLock* l) {
  auto* ml = static_cast<FileLockMirror*>(l);
  Status s = Agree("UnlockFile", a_->UnlockFile(ml->a_), b_->UnlockFile(ml->b_));
  delete ml;
  return s;
}

}  // namespace rocksdb
