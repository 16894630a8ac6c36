// ForwardingFileSystem: a FileSystem that passes every call to another one,
// for tests that change or record a few calls (override those only).
//
// Thread-safety: as the wrapped file system.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "strata/env.h"

namespace strata::test {

class ForwardingFileSystem : public FileSystem {
 public:
  explicit ForwardingFileSystem(std::shared_ptr<FileSystem> base) : base_(std::move(base)) {}
  const char* Name() const override { return base_->Name(); }
  Status NewSequentialFile(const std::string& f, const FileOptions& o,
                           std::unique_ptr<SequentialFile>* r) override {
    return base_->NewSequentialFile(f, o, r);
  }
  Status NewRandomAccessFile(const std::string& f, const FileOptions& o,
                             std::unique_ptr<RandomAccessFile>* r) override {
    return base_->NewRandomAccessFile(f, o, r);
  }
  Status NewWritableFile(const std::string& f, const FileOptions& o,
                         std::unique_ptr<WritableFile>* r) override {
    return base_->NewWritableFile(f, o, r);
  }
  Status ReopenWritableFile(const std::string& f, const FileOptions& o,
                            std::unique_ptr<WritableFile>* r) override {
    return base_->ReopenWritableFile(f, o, r);
  }
  Status NewDirectory(const std::string& n, std::unique_ptr<Directory>* r) override {
    return base_->NewDirectory(n, r);
  }
  Status FileExists(const std::string& f) override { return base_->FileExists(f); }
  Status GetChildren(const std::string& d, std::vector<std::string>* r) override {
    return base_->GetChildren(d, r);
  }
  Status DeleteFile(const std::string& f) override { return base_->DeleteFile(f); }
  Status CreateDir(const std::string& d) override { return base_->CreateDir(d); }
  Status CreateDirIfMissing(const std::string& d) override { return base_->CreateDirIfMissing(d); }
  Status DeleteDir(const std::string& d) override { return base_->DeleteDir(d); }
  Status GetFileSize(const std::string& f, uint64_t* s) override {
    return base_->GetFileSize(f, s);
  }
  Status RenameFile(const std::string& a, const std::string& b) override {
    return base_->RenameFile(a, b);
  }
  Status LinkFile(const std::string& a, const std::string& b) override {
    return base_->LinkFile(a, b);
  }
  Status IsDirectory(const std::string& p, bool* d) override { return base_->IsDirectory(p, d); }
  Status Truncate(const std::string& f, uint64_t s) override { return base_->Truncate(f, s); }
  Status GetFreeSpace(const std::string& path, uint64_t* free_bytes) override {
    return base_->GetFreeSpace(path, free_bytes);
  }
  Status NumFileLinks(const std::string& f, uint64_t* n) override {
    return base_->NumFileLinks(f, n);
  }
  Status LockFile(const std::string& f, std::unique_ptr<FileLock>* l) override {
    return base_->LockFile(f, l);
  }
  Status UnlockFile(std::unique_ptr<FileLock> l) override {
    return base_->UnlockFile(std::move(l));
  }
  Status GetFileModificationTime(const std::string& f, uint64_t* t) override {
    return base_->GetFileModificationTime(f, t);
  }
  Status NewRandomRWFile(const std::string& f, const FileOptions& o,
                         std::unique_ptr<RandomRWFile>* r) override {
    return base_->NewRandomRWFile(f, o, r);
  }

 protected:
  FileSystem* base() const { return base_.get(); }

 private:
  std::shared_ptr<FileSystem> base_;
};

}  // namespace strata::test
