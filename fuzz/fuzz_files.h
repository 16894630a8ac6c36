// In-memory file adaptors for the fuzz targets: a SequentialFile that reads
// a string (optionally in short reads) and a WritableFile that appends to a
// string. Lighter than a whole FileSystem for one file.
// Thread-safety: none; each object is used by one thread.
#pragma once

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

#include "strata/env.h"

namespace strata::fuzz {

class StringSequentialFile final : public SequentialFile {
 public:
  // max_read > 0 caps every read (short reads, as a pipe would give).
  explicit StringSequentialFile(std::string contents, size_t max_read = 0)
      : contents_(std::move(contents)), max_read_(max_read) {}
  Status Read(size_t n, Slice* result, char* scratch) override {
    if (max_read_ > 0) n = std::min(n, max_read_);
    const size_t take = std::min(n, contents_.size() - pos_);
    if (take > 0) memcpy(scratch, contents_.data() + pos_, take);
    pos_ += take;
    *result = Slice(scratch, take);
    return Status::OK();
  }
  Status Skip(uint64_t n) override {
    pos_ += static_cast<size_t>(std::min<uint64_t>(n, contents_.size() - pos_));
    return Status::OK();
  }

 private:
  const std::string contents_;
  const size_t max_read_;
  size_t pos_ = 0;
};

// Reads a string; with mapped, also exposes it as mapped_contents() (the
// zero-copy path an mmap-ed file takes).
class StringRandomAccessFile final : public RandomAccessFile {
 public:
  // The bytes are copied into an exact-size heap buffer, so ASan reports a
  // read one byte past the end.
  StringRandomAccessFile(const std::string& contents, bool mapped)
      : buf_(new char[contents.size() + (contents.empty() ? 1 : 0)]),
        size_(contents.size()),
        mapped_(mapped) {
    if (size_ > 0) memcpy(buf_.get(), contents.data(), size_);
  }
  Status Read(uint64_t offset, size_t n, Slice* result, char* scratch) const override {
    if (offset > size_) {
      *result = Slice();
      return Status::IOError("read past the end of the file");
    }
    const size_t take = static_cast<size_t>(std::min<uint64_t>(n, size_ - offset));
    if (take > 0) memcpy(scratch, buf_.get() + offset, take);
    *result = Slice(scratch, take);
    return Status::OK();
  }
  Slice mapped_contents() const override { return mapped_ ? Slice(buf_.get(), size_) : Slice(); }

 private:
  const std::unique_ptr<char[]> buf_;
  const size_t size_;
  const bool mapped_;
};

class StringWritableFile final : public WritableFile {
 public:
  explicit StringWritableFile(std::string* dest) : dest_(dest) {}
  Status Append(const Slice& data) override {
    dest_->append(data.data(), data.size());
    return Status::OK();
  }
  Status Flush() override { return Status::OK(); }
  Status Sync() override { return Status::OK(); }
  Status Close() override { return Status::OK(); }
  uint64_t GetFileSize() const override { return dest_->size(); }

 private:
  std::string* const dest_;
};

}  // namespace strata::fuzz
