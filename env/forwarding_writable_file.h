// ForwardingWritableFile: a WritableFile that passes every call on to the
// file it owns. The engine's file decorators (checksumming, pacing) derive
// from it and override only what they change, so a call added to
// WritableFile reaches the real file through every decorator.
//
// Thread-safety: as the wrapped file (one thread at a time).
#pragma once

#include <memory>
#include <utility>

#include "strata/env.h"

namespace strata {

class ForwardingWritableFile : public WritableFile {
 public:
  explicit ForwardingWritableFile(std::unique_ptr<WritableFile> base) : base_(std::move(base)) {}

  Status Append(const Slice& data) override { return base_->Append(data); }
  Status Flush() override { return base_->Flush(); }
  Status Sync() override { return base_->Sync(); }
  Status Fsync() override { return base_->Fsync(); }
  Status Close() override { return base_->Close(); }
  uint64_t GetFileSize() const override { return base_->GetFileSize(); }
  Status Allocate(uint64_t offset, uint64_t len) override { return base_->Allocate(offset, len); }
  Status RangeSync(uint64_t offset, uint64_t nbytes) override {
    return base_->RangeSync(offset, nbytes);
  }

 protected:
  WritableFile* base() const { return base_.get(); }

 private:
  const std::unique_ptr<WritableFile> base_;
};

}  // namespace strata
