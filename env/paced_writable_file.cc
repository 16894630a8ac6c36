// PacedWritableFile (see env/paced_writable_file.h).
#include "env/paced_writable_file.h"

#include <algorithm>

#include "env/forwarding_writable_file.h"

namespace strata {

namespace {

class PacedWritableFile final : public ForwardingWritableFile {
 public:
  PacedWritableFile(std::unique_ptr<WritableFile> file, const PacedWriteOptions& o)
      : ForwardingWritableFile(std::move(file)),
        limiter_(o.priority < Env::IO_TOTAL ? o.rate_limiter : nullptr),
        priority_(o.priority),
        stats_(o.statistics),
        bytes_per_sync_(o.bytes_per_sync),
        sync_on_append_(!o.range_sync_on_flush_only),
        last_sync_end_(base()->GetFileSize()) {}

  Status Append(const Slice& data) override {
    Status s;
    if (limiter_ == nullptr) {
      s = base()->Append(data);
    } else {
      const char* p = data.data();
      size_t left = data.size();
      while (left > 0 && s.ok()) {
        const size_t n =
            limiter_->RequestToken(left, 0, priority_, stats_, RateLimiter::OpType::kWrite);
        s = base()->Append(Slice(p, n));
        p += n;
        left -= n;
      }
    }
    if (s.ok() && sync_on_append_) s = MaybeRangeSync();
    return s;
  }
  Status Flush() override {
    Status s = base()->Flush();
    if (s.ok()) s = MaybeRangeSync();
    return s;
  }

 private:
  Status MaybeRangeSync() {
    if (bytes_per_sync_ == 0) return Status::OK();
    const uint64_t size = base()->GetFileSize();
    if (size <= kRangeSyncSkipNewestBytes) return Status::OK();
    uint64_t end = size - kRangeSyncSkipNewestBytes;
    end -= end % kRangeSyncAlignment;
    if (end <= last_sync_end_ || end - last_sync_end_ < bytes_per_sync_) return Status::OK();
    // The range must have reached the file before it can be written back
    // (it is older than the newest megabyte, so usually it has: this flush
    // writes out at most the user-space buffer).
    Status s = sync_on_append_ ? base()->Flush() : Status::OK();
    if (s.ok()) s = base()->RangeSync(last_sync_end_, end - last_sync_end_);
    last_sync_end_ = end;
    return s;
  }

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
