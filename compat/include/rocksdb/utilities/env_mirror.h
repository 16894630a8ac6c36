// rocksdb/utilities/env_mirror.h: EnvMirror, an Env that does every file
// operation on two Envs, a and b, and answers with a's result -- for
// checking that a new Env behaves as a trusted one. Files opened through
// it are mirrored too: writes go to both, reads read both.
//
// Where RocksDB 7.8.3's EnvMirror asserts that the two answers agree,
// this one returns Corruption naming the operation and both answers (so a
// release build does not carry on silently). Every other call (clock,
// threads, ...) goes to a, as EnvWrapper's.
// Thread-safety: as the two Envs (the mirror keeps no state of its own
// beyond the pair).
// Invariant: a and b outlive the mirror, unless free_a / free_b hand them
// to it (then it deletes them).
#pragma once

#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/env.h"

namespace rocksdb {

class SequentialFileMirror;
class RandomAccessFileMirror;
class WritableFileMirror;

class EnvMirror : public EnvWrapper {
  Env *a_, *b_;
  bool free_a_, free_b_;

 public:
  EnvMirror(Env* a, Env* b, bool free_a = false, bool free_b = false)
      : EnvWrapper(a), a_(a), b_(b), free_a_(free_a), free_b_(free_b) {}
  ~EnvMirror() {
    if (free_a_) delete a_;
    if (free_b_) delete b_;
  }

  Status NewSequentialFile(const std::string& f, std::unique_ptr<SequentialFile>* r,
                           const EnvOptions& options) override;
  Status NewRandomAccessFile(const std::string& f, std::unique_ptr<RandomAccessFile>* r,
                             const EnvOptions& options) override;
  Status NewWritableFile(const std::string& f, std::unique_ptr<WritableFile>* r,
                         const EnvOptions& options) override;
  Status ReuseWritableFile(const std::string& fname, const std::string& old_fname,
                           std::unique_ptr<WritableFile>* r, const EnvOptions& options) override;
  Status NewDirectory(const std::string& name, std::unique_ptr<Directory>* result) override;
  Status FileExists(const std::string& f) override;
  // Both listings, sorted, must be equal.
  Status GetChildren(const std::string& dir, std::vector<std::string>* r) override;
  Status DeleteFile(const std::string& f) override;
  Status CreateDir(const std::string& d) override;
  Status CreateDirIfMissing(const std::string& d) override;
  Status DeleteDir(const std::string& d) override;
  Status GetFileSize(const std::string& f, uint64_t* s) override;
  // The two times may differ by up to 10 seconds (RocksDB's tolerance).
  Status GetFileModificationTime(const std::string& fname, uint64_t* file_mtime) override;
  Status RenameFile(const std::string& s, const std::string& t) override;
  Status LinkFile(const std::string& s, const std::string& t) override;

  // The locks taken on a and on b.
  class FileLockMirror : public FileLock {
   public:
    FileLock *a_, *b_;
    FileLockMirror(FileLock* a, FileLock* b) : a_(a), b_(b) {}
  };

  Status LockFile(const std::string& f, FileLock** l) override;
  Status UnlockFile(FileLock* l) override;
};

}  // namespace rocksdb
