// PacedWritableFile (see env/paced_writable_file.h).
#include "env/paced_writable_file.h"

#include <algorithm>

namespace strata {

namespace {

class PacedWritableFile final : public WritableFile {
 public:
  PacedWritableFile(std::unique_ptr<WritableFile> base, const PacedWriteOptions& o)
      : base_(std::move(base)),
        limiter_(o.priority < Env::IO_TOTAL ? o.rate_limiter : nullptr),
        priority_(o.priority),
        stats_(o.statistics),
        bytes_per_sync_(o.bytes_per_sync),
        sync_on_append_(!o.range_sync_on_flush_only),
        last_sync_end_(base_->GetFileSize()) {}

  Status Append(const Slice& data) override {
    Status s;
    if (limiter_ == nullptr) {
      s = base_->Append(data);
    } else {
      const char* p = data.data();
      size_t left = data.size();
      while (left > 0 && s.ok()) {
        const size_t n =
            limiter_->RequestToken(left, 0, priority_, stats_, RateLimiter::OpType::kWrite);
        s = base_->Append(Slice(p, n));
        p += n;
        left -= n;
      }
    }
    if (s.ok() && sync_on_append_) s = MaybeRangeSync();
    return s;
  }
  Status Flush() override {
    Status s = base_->Flush();
    if (s.ok()) s = MaybeRangeSync();
    return s;
  }
  Status Sync() override { return base_->Sync(); }
  Status Fsync() override { return base_->Fsync(); }
  Status Close() override { return base_->Close(); }
  uint64_t GetFileSize() const override { return base_->GetFileSize(); }
  Status Allocate(uint64_t offset, uint64_t len) override { return base_->Allocate(offset, len); }
  Status RangeSync(uint64_t offset, uint64_t nbytes) override {
    return base_->RangeSync(offset, nbytes);
  }

 private:
  Status MaybeRangeSync() {
    if (bytes_per_sync_ == 0) return Status::OK();
    const uint64_t size = base_->GetFileSize();
    if (size <= kRangeSyncSkipNewestBytes) return Status::OK();
    uint64_t end = size - kRangeSyncSkipNewestBytes;
    end -= end % kRangeSyncAlignment;
    if (end <= last_sync_end_ || end - last_sync_end_ < bytes_per_sync_) return Status::OK();
    // The range must have reached the file before it can be written back
    // (it is older than the newest megabyte, so usually it has: this flush
    // writes out at most the user-space buffer).
    Status s = sync_on_append_ ? base_->Flush() : Status::OK();
    if (s.ok()) s = base_->RangeSync(last_sync_end_, end - last_sync_end_);
    last_sync_end_ = end;
    return s;
  }

  const std::unique_ptr<WritableFile> base_;
  RateLimiter* const limiter_;
  const Env::IOPriority priority_;
  Statistics* const stats_;
  const uint64_t bytes_per_sync_;
  const bool sync_on_append_;
  uint64_t last_sync_end_;  // file offset synced up to
};

}  // namespace

std::unique_ptr<WritableFile> NewPacedWritableFile(std::unique_ptr<WritableFile> base,
                                                   const PacedWriteOptions& options) {
  const bool pace = options.rate_limiter != nullptr && options.priority < Env::IO_TOTAL;
  if (base == nullptr || (!pace && options.bytes_per_sync == 0)) return base;
  return std::make_unique<PacedWritableFile>(std::move(base), options);
}

}  // namespace strata
