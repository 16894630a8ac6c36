#include "env/posix_file_system.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>

#include "util/mutex.h"
#include "util/perf_context_imp.h"

namespace strata {

namespace {

std::string ErrnoText(int err) {
  char buf[128];
  // The GNU strerror_r returns the text, in buf or in static storage.
  return std::string(strerror_r(err, buf, sizeof(buf)));
}

// The Status for a failed system call on path: "<context>: <path>: <errno>".
Status PosixError(const char* context, const std::string& path, int err) {
  const std::string msg = path + ": " + ErrnoText(err);
  switch (err) {
    case ENOSPC:
      return Status::NoSpace(context, msg);
    case ENOENT:
      return Status::PathNotFound(context, msg);
    default:
      return Status::IOError(context, msg);
  }
}

size_t PageSize() {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return page;
}

// Writes all n bytes at the file position, retrying partial writes and EINTR.
// Returns 0 or an errno value.
int WriteFully(int fd, const char* data, size_t n) {
  IOSTATS_TIMER_GUARD(write_nanos);
  IOSTATS_ADD(bytes_written, n);
  while (n > 0) {
    const ssize_t w = write(fd, data, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    data += w;
    n -= static_cast<size_t>(w);
  }
  return 0;
}

// Direct I/O (O_DIRECT): offsets, lengths and buffer addresses must be
// multiples of the device's logical block size.

// The logical block size of the device holding fd's file, from sysfs (the
// device itself, or the disk a partition belongs to); 4096 when it cannot
// be told, which is a multiple of every usual block size.
size_t LogicalBlockSize(int fd) {
  struct stat st;
  if (fstat(fd, &st) < 0) return 4096;
  const std::string dev =
      "/sys/dev/block/" + std::to_string(major(st.st_dev)) + ":" + std::to_string(minor(st.st_dev));
  for (const char* rel : {"/queue/logical_block_size", "/../queue/logical_block_size"}) {
    const std::string path = dev + rel;
    FILE* f = fopen(path.c_str(), "re");
    if (f == nullptr) continue;
    unsigned long v = 0;
    const int got = fscanf(f, "%lu", &v);
    fclose(f);
    // A power of two between 512 bytes and 64 KiB, or it is not believed.
    if (got == 1 && v >= 512 && v <= 65536 && (v & (v - 1)) == 0) return v;
  }
  return 4096;
}

uint64_t AlignDown(uint64_t x, size_t a) { return x & ~static_cast<uint64_t>(a - 1); }
uint64_t AlignUp(uint64_t x, size_t a) { return AlignDown(x + a - 1, a); }

struct FreeDeleter {
  void operator()(char* p) const { free(p); }
};
using AlignedBuf = std::unique_ptr<char, FreeDeleter>;

// n bytes (rounded up to the alignment) aligned to `align` (and to the page,
// which O_DIRECT asks for on some kernels).
AlignedBuf NewAlignedBuf(size_t align, size_t n) {
  const size_t a = std::max(align, PageSize());
  return AlignedBuf(static_cast<char*>(aligned_alloc(a, AlignUp(std::max<size_t>(n, 1), a))));
}

// The Status of an open(2) with O_DIRECT that the file system refused.
Status DirectIOError(const char* option, const std::string& path, int err) {
  if (err == EINVAL || err == EOPNOTSUPP) {
    return Status::InvalidArgument(
        std::string("Direct I/O (") + option + ") is not supported by the file system",
        path + ": " + ErrnoText(err));
  }
  return PosixError((std::string("While open a file with O_DIRECT (") + option + ")").c_str(), path,
                    err);
}

class PosixSequentialFile final : public SequentialFile {
 public:
  PosixSequentialFile(std::string fname, int fd) : fname_(std::move(fname)), fd_(fd) {}
  ~PosixSequentialFile() override { close(fd_); }

  Status Read(size_t n, Slice* result, char* scratch) override {
    IOSTATS_TIMER_GUARD(read_nanos);
    size_t got = 0;
    while (got < n) {
      const ssize_t r = read(fd_, scratch + got, n - got);
      if (r < 0) {
        if (errno == EINTR) continue;
        *result = Slice();
        return PosixError("While reading file sequentially", fname_, errno);
      }
      if (r == 0) break;  // end of file
      got += static_cast<size_t>(r);
    }
    *result = Slice(scratch, got);
    IOSTATS_ADD(bytes_read, got);
    return Status::OK();
  }

  Status Skip(uint64_t n) override {
    if (lseek(fd_, static_cast<off_t>(n), SEEK_CUR) == static_cast<off_t>(-1)) {
      return PosixError("While skipping in file", fname_, errno);
    }
    return Status::OK();
  }

 private:
  const std::string fname_;
  const int fd_;
};

class PosixRandomAccessFile final : public RandomAccessFile {
 public:
  PosixRandomAccessFile(std::string fname, int fd) : fname_(std::move(fname)), fd_(fd) {}
  ~PosixRandomAccessFile() override { close(fd_); }

  Status Read(uint64_t offset, size_t n, Slice* result, char* scratch) const override {
    IOSTATS_TIMER_GUARD(read_nanos);
    size_t got = 0;
    while (got < n) {
      const ssize_t r = pread(fd_, scratch + got, n - got, static_cast<off_t>(offset + got));
      if (r < 0) {
        if (errno == EINTR) continue;
        *result = Slice();
        return PosixError("While pread from file", fname_, errno);
      }
      if (r == 0) break;  // end of file
      got += static_cast<size_t>(r);
    }
    *result = Slice(scratch, got);
    IOSTATS_ADD(bytes_read, got);
    return Status::OK();
  }

  Status Prefetch(uint64_t offset, size_t n) override {
    // Advice only; an error here changes nothing for correctness.
    (void)posix_fadvise(fd_, static_cast<off_t>(offset), static_cast<off_t>(n),
                        POSIX_FADV_WILLNEED);
    return Status::OK();
  }

 private:
  const std::string fname_;
  const int fd_;
};

// Reads through O_DIRECT: the aligned blocks covering the wanted range are
// read into an aligned buffer and the range is copied out (or read straight
// into scratch when scratch, offset and length are all aligned).
class PosixDirectRandomAccessFile final : public RandomAccessFile {
 public:
  PosixDirectRandomAccessFile(std::string fname, int fd, size_t align)
      : fname_(std::move(fname)), fd_(fd), align_(align) {}
  ~PosixDirectRandomAccessFile() override { close(fd_); }

  Status Read(uint64_t offset, size_t n, Slice* result, char* scratch) const override {
    IOSTATS_TIMER_GUARD(read_nanos);
    *result = Slice();
    if (n == 0) return Status::OK();
    const uint64_t start = AlignDown(offset, align_);
    const size_t len = static_cast<size_t>(AlignUp(offset + n, align_) - start);
    const bool in_place = start == offset && len == n &&
                          reinterpret_cast<uintptr_t>(scratch) % std::max(align_, PageSize()) == 0;
    // One buffer per thread, kept for the next read (Read is thread-safe and
    // called for every block); reads larger than 4 MiB get their own.
    thread_local AlignedBuf cached;
    thread_local size_t cached_size = 0;
    AlignedBuf own;
    char* buf = scratch;
    if (!in_place) {
      if (len > (size_t{4} << 20)) {
        own = NewAlignedBuf(align_, len);
        buf = own.get();
      } else {
        if (cached_size < len) {
          cached = NewAlignedBuf(align_, len);
          cached_size = len;
        }
        buf = cached.get();
      }
      if (buf == nullptr)
        return Status::IOError("While pread from file (O_DIRECT)", fname_ + ": out of memory");
    }
    size_t got = 0;
    while (got < len) {
      const ssize_t r = pread(fd_, buf + got, len - got, static_cast<off_t>(start + got));
      if (r < 0) {
        if (errno == EINTR) continue;
        return PosixError("While pread from file (O_DIRECT)", fname_, errno);
      }
      if (r == 0) break;  // end of file
      got += static_cast<size_t>(r);
      if (got % align_ != 0) break;  // a short read ends at the end of the file
    }
    const size_t skip = static_cast<size_t>(offset - start);
    const size_t avail = got > skip ? std::min(n, got - skip) : 0;
    if (!in_place && avail > 0) memcpy(scratch, buf + skip, avail);
    *result = Slice(scratch, avail);
    IOSTATS_ADD(bytes_read, avail);
    return Status::OK();
  }

  // The page cache is bypassed: there is nothing to advise.
  Status Prefetch(uint64_t /*offset*/, size_t /*n*/) override { return Status::OK(); }

 private:
  const std::string fname_;
  const int fd_;
  const size_t align_;  // logical block size of the device
};

// The whole file mapped read-only; the map is taken at open, so bytes
// appended later are not visible.
class PosixMmapReadableFile final : public RandomAccessFile {
 public:
  PosixMmapReadableFile(const char* base, size_t length) : base_(base), length_(length) {}
  ~PosixMmapReadableFile() override { munmap(const_cast<char*>(base_), length_); }

  Slice mapped_contents() const override { return Slice(base_, length_); }

  Status Read(uint64_t offset, size_t n, Slice* result, char* /*scratch*/) const override {
    if (offset >= length_) {
      *result = Slice();
      return Status::OK();
    }
    *result = Slice(base_ + offset, std::min<uint64_t>(n, length_ - offset));
    IOSTATS_ADD(bytes_read, result->size());
    return Status::OK();
  }

  Status Prefetch(uint64_t offset, size_t n) override {
    if (offset >= length_) return Status::OK();
    const size_t page = PageSize();
    const uint64_t start = offset & ~static_cast<uint64_t>(page - 1);
    const uint64_t end = std::min<uint64_t>(offset + n, length_);
    (void)madvise(const_cast<char*>(base_) + start, end - start, MADV_WILLNEED);
    return Status::OK();
  }

 private:
  const char* const base_;
  const size_t length_;
};

// bytes_per_sync (issue 19): starts write-back of [offset, offset+nbytes)
// with sync_file_range; strict also waits for the write-back of everything
// before. Where sync_file_range is not available (ENOSYS; ESPIPE, EINVAL on
// file systems that refuse it) the range is written with fdatasync instead.
Status PosixRangeSync(int fd, const std::string& fname, uint64_t offset, uint64_t nbytes,
                      bool strict) {
  if (fd < 0) return PosixError("While sync_file_range", fname, EBADF);
  IOSTATS_TIMER_GUARD(fsync_nanos);
  const int r = strict ? sync_file_range(fd, 0, static_cast<off_t>(offset + nbytes),
                                         SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE)
                       : sync_file_range(fd, static_cast<off_t>(offset), static_cast<off_t>(nbytes),
                                         SYNC_FILE_RANGE_WRITE);
  if (r == 0) return Status::OK();
  if (errno != ENOSYS && errno != ESPIPE && errno != EINVAL) {
    return PosixError("While sync_file_range", fname, errno);
  }
  if (fdatasync(fd) < 0) return PosixError("While fdatasync", fname, errno);
  return Status::OK();
}

// Buffered writes through write(2).
class PosixWritableFile final : public WritableFile {
 public:
  PosixWritableFile(std::string fname, int fd, uint64_t initial_size, const FileOptions& opts)
      : fname_(std::move(fname)),
        capacity_(opts.writable_file_max_buffer_size),
        prealloc_block_(opts.preallocation_block_size),
        use_fsync_(opts.use_fsync),
        strict_bytes_per_sync_(opts.strict_bytes_per_sync),
        fd_(fd),
        filesize_(initial_size),
        preallocated_(initial_size) {}

  ~PosixWritableFile() override {
    if (fd_ >= 0) Close().PermitUncheckedError();
  }

  Status Append(const Slice& data) override {
    const char* src = data.data();
    const size_t n = data.size();
    if (n == 0) return Status::OK();
    if (fd_ < 0) return PosixError("While appending to file", fname_, EBADF);
    if (prealloc_block_ > 0 && filesize_ + n > preallocated_) {
      Status s = Preallocate(filesize_ + n);
      if (!s.ok()) return s;
    }
    if (n > capacity_ - buffered_) {
      Status s = FlushBuffer();
      if (!s.ok()) return s;
      if (n >= capacity_) {  // too big to be worth a copy
        const int err = WriteFully(fd_, src, n);
        if (err != 0) return PosixError("While appending to file", fname_, err);
        filesize_ += n;
        return Status::OK();
      }
    }
    if (buf_ == nullptr) buf_.reset(new char[capacity_]);
    memcpy(buf_.get() + buffered_, src, n);
    buffered_ += n;
    filesize_ += n;
    return Status::OK();
  }

  Status Flush() override { return FlushBuffer(); }

  Status Sync() override {
    if (use_fsync_) return Fsync();
    Status s = FlushBuffer();
    if (!s.ok()) return s;
    IOSTATS_TIMER_GUARD(fsync_nanos);
    if (fdatasync(fd_) < 0) return PosixError("While fdatasync", fname_, errno);
    return Status::OK();
  }

  Status Fsync() override {
    Status s = FlushBuffer();
    if (!s.ok()) return s;
    IOSTATS_TIMER_GUARD(fsync_nanos);
    if (fsync(fd_) < 0) return PosixError("While fsync", fname_, errno);
    return Status::OK();
  }

  Status Close() override {
    if (fd_ < 0) return Status::OK();
    Status s = FlushBuffer();
    // Space reserved past the end (FALLOC_FL_KEEP_SIZE) is released by
    // cutting the file at its size.
    if (preallocated_ > filesize_ && ftruncate(fd_, static_cast<off_t>(filesize_)) < 0 && s.ok()) {
      s = PosixError("While truncating file to its size", fname_, errno);
    }
    if (close(fd_) < 0 && s.ok()) s = PosixError("While closing file", fname_, errno);
    fd_ = -1;
    buf_.reset();
    return s;
  }

  uint64_t GetFileSize() const override { return filesize_; }

  Status Allocate(uint64_t offset, uint64_t len) override {
    if (fd_ < 0) return PosixError("While allocating space in file", fname_, EBADF);
    IOSTATS_TIMER_GUARD(allocate_nanos);
    if (fallocate(fd_, FALLOC_FL_KEEP_SIZE, static_cast<off_t>(offset), static_cast<off_t>(len)) <
        0) {
      if (errno == EOPNOTSUPP || errno == ENOSYS) return Status::OK();  // advisory
      return PosixError("While allocating space in file", fname_, errno);
    }
    preallocated_ = std::max(preallocated_, offset + len);
    return Status::OK();
  }

  Status RangeSync(uint64_t offset, uint64_t nbytes) override {
    return PosixRangeSync(fd_, fname_, offset, nbytes, strict_bytes_per_sync_);
  }

 private:
  Status FlushBuffer() {
    if (buffered_ == 0) return Status::OK();
    if (fd_ < 0) return PosixError("While appending to file", fname_, EBADF);
    const int err = WriteFully(fd_, buf_.get(), buffered_);
    // On error the file's contents are unknown; the bytes are dropped and
    // the caller must treat the file as failed.
    buffered_ = 0;
    if (err != 0) return PosixError("While appending to file", fname_, err);
    return Status::OK();
  }

  // Reserves space up to `end`, rounded up to the preallocation block.
  Status Preallocate(uint64_t end) {
    const uint64_t block = prealloc_block_;
    const uint64_t target = (end + block - 1) / block * block;
    IOSTATS_TIMER_GUARD(allocate_nanos);
    if (fallocate(fd_, FALLOC_FL_KEEP_SIZE, static_cast<off_t>(preallocated_),
                  static_cast<off_t>(target - preallocated_)) < 0) {
      if (errno == EOPNOTSUPP || errno == ENOSYS) {
        prealloc_block_ = 0;  // the file system cannot; stop trying
        return Status::OK();
      }
      return PosixError("While allocating space in file", fname_, errno);
    }
    preallocated_ = target;
    return Status::OK();
  }

  const std::string fname_;
  const size_t capacity_;
  size_t prealloc_block_;
  const bool use_fsync_;  // Sync is fsync(2)
  const bool strict_bytes_per_sync_;
  int fd_;
  std::unique_ptr<char[]> buf_;  // capacity_ bytes, allocated on first use
  size_t buffered_ = 0;
  uint64_t filesize_;      // bytes appended, including buffered ones
  uint64_t preallocated_;  // file space reserved up to here
};

// Writes through O_DIRECT. The buffer (a multiple of the alignment) holds
// the bytes from buf_offset_ (aligned) on; a full buffer is written whole.
// Flush writes what is buffered padded with zeros to the next aligned
// boundary and keeps the partial last page, which the next write rewrites
// with more bytes in it. So the file on disk may end with up to one page of
// zeros until Close cuts it to the appended size.
class PosixDirectWritableFile final : public WritableFile {
 public:
  PosixDirectWritableFile(std::string fname, int fd, size_t align, const FileOptions& opts)
      : fname_(std::move(fname)),
        align_(align),
        capacity_(AlignUp(std::max(opts.writable_file_max_buffer_size, align), align)),
        use_fsync_(opts.use_fsync),
        fd_(fd) {}

  ~PosixDirectWritableFile() override {
    if (fd_ >= 0) Close().PermitUncheckedError();
  }

  Status Append(const Slice& data) override {
    const char* src = data.data();
    size_t n = data.size();
    if (n == 0) return Status::OK();
    if (fd_ < 0) return PosixError("While appending to file", fname_, EBADF);
    if (buf_ == nullptr) {
      buf_ = NewAlignedBuf(align_, capacity_);
      if (buf_ == nullptr)
        return Status::IOError("While appending to file", fname_ + ": out of memory");
    }
    while (n > 0) {
      const size_t k = std::min(n, capacity_ - buffered_);
      memcpy(buf_.get() + buffered_, src, k);
      buffered_ += k;
      filesize_ += k;
      src += k;
      n -= k;
      if (buffered_ == capacity_) {
        Status s = WriteBuffer();
        if (!s.ok()) return s;
      }
    }
    return Status::OK();
  }

  Status Flush() override { return WriteBuffer(); }

  Status Sync() override {
    if (use_fsync_) return Fsync();
    Status s = WriteBuffer();
    if (!s.ok()) return s;
    IOSTATS_TIMER_GUARD(fsync_nanos);
    // The data is on the device; fdatasync makes the file's size durable.
    if (fdatasync(fd_) < 0) return PosixError("While fdatasync", fname_, errno);
    return Status::OK();
  }

  Status Fsync() override {
    Status s = WriteBuffer();
    if (!s.ok()) return s;
    IOSTATS_TIMER_GUARD(fsync_nanos);
    if (fsync(fd_) < 0) return PosixError("While fsync", fname_, errno);
    return Status::OK();
  }

  Status Close() override {
    if (fd_ < 0) return Status::OK();
    Status s = WriteBuffer();
    // The last page was written padded: cut the file to its real size.
    if (ftruncate(fd_, static_cast<off_t>(filesize_)) < 0 && s.ok()) {
      s = PosixError("While truncating file to its size", fname_, errno);
    }
    if (close(fd_) < 0 && s.ok()) s = PosixError("While closing file", fname_, errno);
    fd_ = -1;
    buf_.reset();
    return s;
  }

  uint64_t GetFileSize() const override { return filesize_; }

 private:
  // Writes the buffered bytes (padded to the alignment) at buf_offset_ and
  // keeps only the partial last page in the buffer.
  Status WriteBuffer() {
    if (filesize_ == written_) return Status::OK();  // nothing new since the last write
    if (fd_ < 0) return PosixError("While appending to file", fname_, EBADF);
    const size_t padded = static_cast<size_t>(AlignUp(buffered_, align_));
    memset(buf_.get() + buffered_, 0, padded - buffered_);
    IOSTATS_TIMER_GUARD(write_nanos);
    IOSTATS_ADD(bytes_written, padded);
    size_t done = 0;
    while (done < padded) {
      const ssize_t w =
          pwrite(fd_, buf_.get() + done, padded - done, static_cast<off_t>(buf_offset_ + done));
      if (w < 0) {
        if (errno == EINTR) continue;
        return PosixError("While appending to file (O_DIRECT)", fname_, errno);
      }
      done += static_cast<size_t>(w);
    }
    written_ = filesize_;
    const size_t whole = static_cast<size_t>(AlignDown(buffered_, align_));
    const size_t tail = buffered_ - whole;
    if (whole > 0 && tail > 0) memmove(buf_.get(), buf_.get() + whole, tail);
    buf_offset_ += whole;
    buffered_ = tail;
    return Status::OK();
  }

  const std::string fname_;
  const size_t align_;     // logical block size of the device
  const size_t capacity_;  // buffer size, a multiple of align_
  const bool use_fsync_;   // Sync is fsync(2)
  int fd_;
  AlignedBuf buf_;           // capacity_ bytes, allocated on first use
  size_t buffered_ = 0;      // bytes in buf_, the first at file offset buf_offset_
  uint64_t buf_offset_ = 0;  // aligned
  uint64_t filesize_ = 0;    // bytes appended
  uint64_t written_ = 0;     // filesize_ as of the last write to the file
};

// Appends by memcpy into mapped, preallocated chunks of the file.
class PosixMmapWritableFile final : public WritableFile {
 public:
  PosixMmapWritableFile(std::string fname, int fd, uint64_t initial_size, size_t chunk,
                        bool use_fsync, bool strict_bytes_per_sync)
      : fname_(std::move(fname)),
        chunk_(chunk),
        use_fsync_(use_fsync),
        strict_bytes_per_sync_(strict_bytes_per_sync),
        fd_(fd),
        filesize_(initial_size),
        reserved_(initial_size) {}

  ~PosixMmapWritableFile() override {
    if (fd_ >= 0) Close().PermitUncheckedError();
  }

  Status Append(const Slice& data) override {
    const char* src = data.data();
    size_t n = data.size();
    if (n > 0 && fd_ < 0) return PosixError("While appending to file", fname_, EBADF);
    IOSTATS_TIMER_GUARD(write_nanos);
    IOSTATS_ADD(bytes_written, n);
    while (n > 0) {
      if (dst_ == limit_) {
        Status s = MapNextChunk();
        if (!s.ok()) return s;
      }
      const size_t k = std::min(n, static_cast<size_t>(limit_ - dst_));
      memcpy(dst_, src, k);
      dst_ += k;
      src += k;
      n -= k;
      filesize_ += k;
    }
    return Status::OK();
  }

  // The bytes are in the page cache once copied: nothing to do.
  Status Flush() override { return Status::OK(); }

  // fdatasync writes back every dirty page of the file, including pages
  // dirtied through this and earlier (already unmapped) chunks, so no msync
  // is needed on Linux.
  Status Sync() override {
    if (use_fsync_) return Fsync();
    IOSTATS_TIMER_GUARD(fsync_nanos);
    if (fd_ >= 0 && fdatasync(fd_) < 0) return PosixError("While fdatasync", fname_, errno);
    return Status::OK();
  }

  Status Fsync() override {
    IOSTATS_TIMER_GUARD(fsync_nanos);
    if (fd_ >= 0 && fsync(fd_) < 0) return PosixError("While fsync", fname_, errno);
    return Status::OK();
  }

  Status Close() override {
    if (fd_ < 0) return Status::OK();
    Status s = Unmap();
    if (ftruncate(fd_, static_cast<off_t>(filesize_)) < 0 && s.ok()) {
      s = PosixError("While truncating file to its size", fname_, errno);
    }
    if (close(fd_) < 0 && s.ok()) s = PosixError("While closing file", fname_, errno);
    fd_ = -1;
    return s;
  }

  uint64_t GetFileSize() const override { return filesize_; }

  // Pages written through the map are dirty in the page cache, so
  // sync_file_range writes them back as it would written ones.
  Status RangeSync(uint64_t offset, uint64_t nbytes) override {
    return PosixRangeSync(fd_, fname_, offset, nbytes, strict_bytes_per_sync_);
  }

 private:
  Status Unmap() {
    if (base_ == nullptr) return Status::OK();
    const int r = munmap(base_, static_cast<size_t>(limit_ - base_));
    base_ = dst_ = limit_ = nullptr;
    if (r < 0) return PosixError("While munmap file", fname_, errno);
    return Status::OK();
  }

  // Maps the chunk that starts at the page holding filesize_, reserving its
  // space on disk first (so a later page fault cannot hit a full disk).
  Status MapNextChunk() {
    Status s = Unmap();
    if (!s.ok()) return s;
    const uint64_t offset = filesize_ & ~static_cast<uint64_t>(PageSize() - 1);
    const uint64_t end = offset + chunk_;
    if (end > reserved_) {
      // posix_fallocate uses fallocate(2) and, where the file system lacks
      // it, writes the blocks: either way the space is really allocated.
      int err;
      do {
        err = posix_fallocate(fd_, static_cast<off_t>(reserved_),
                              static_cast<off_t>(end - reserved_));
      } while (err == EINTR);
      if (err != 0) return PosixError("While allocating space in file", fname_, err);
      reserved_ = end;
    }
    void* p =
        mmap(nullptr, chunk_, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, static_cast<off_t>(offset));
    if (p == MAP_FAILED) return PosixError("While mmap file for writing", fname_, errno);
    base_ = static_cast<char*>(p);
    limit_ = base_ + chunk_;
    dst_ = base_ + (filesize_ - offset);
    return Status::OK();
  }

  const std::string fname_;
  const size_t chunk_;    // a multiple of the page size
  const bool use_fsync_;  // Sync is fsync(2)
  const bool strict_bytes_per_sync_;
  int fd_;
  char* base_ = nullptr;   // start of the mapped chunk (page aligned)
  char* dst_ = nullptr;    // next byte to write; dst_ == limit_ => map more
  char* limit_ = nullptr;  // end of the mapped chunk
  uint64_t filesize_;      // bytes appended
  uint64_t reserved_;      // the file's size on disk (allocated) so far
};

class PosixDirectory final : public Directory {
 public:
  PosixDirectory(std::string name, int fd) : name_(std::move(name)), fd_(fd) {}
  ~PosixDirectory() override { close(fd_); }

  Status Fsync() override {
    // Some file systems refuse fsync on a directory (EINVAL); there is
    // nothing more to do on those.
    if (fsync(fd_) < 0 && errno != EINVAL) {
      return PosixError("While fsync directory", name_, errno);
    }
    return Status::OK();
  }

 private:
  const std::string name_;
  const int fd_;
};

// Paths locked by this process (fcntl locks alone do not conflict within a
// process). Leaked so that a lock released during static destruction works.
struct LockTable {
  Mutex mu;
  std::set<std::string> paths GUARDED_BY(mu);
};

LockTable* Locks() {
  static LockTable* const table = new LockTable;
  return table;
}

class PosixFileLock final : public FileLock {
 public:
  PosixFileLock(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  const std::string& path() const { return path_; }
  int fd() const { return fd_; }

 private:
  const std::string path_;
  const int fd_;
};

// Sets (type F_WRLCK) or clears (F_UNLCK) a whole-file fcntl lock. Returns 0
// or -1 with errno.
int SetFileLock(int fd, short type) {
  struct flock f;
  memset(&f, 0, sizeof(f));
  f.l_type = type;
  f.l_whence = SEEK_SET;
  f.l_start = 0;
  f.l_len = 0;  // to the end of the file, however long
  int r = fcntl(fd, F_OFD_SETLK, &f);
  if (r < 0 && errno == EINVAL) r = fcntl(fd, F_SETLK, &f);  // kernel without OFD locks
  return r;
}

int OpenRetryingEintr(const char* path, int flags, mode_t mode = 0644) {
  IOSTATS_TIMER_GUARD(open_nanos);
  int fd;
  do {
    fd = open(path, flags | O_CLOEXEC, mode);
  } while (fd < 0 && errno == EINTR);
  return fd;
}

}  // namespace

std::shared_ptr<FileSystem> FileSystem::Default() {
  // Leaked: usable from static destructors.
  static auto* const fs = new std::shared_ptr<FileSystem>(std::make_shared<PosixFileSystem>());
  return *fs;
}

Status PosixFileSystem::NewSequentialFile(const std::string& fname, const FileOptions& /*opts*/,
                                          std::unique_ptr<SequentialFile>* result) {
  result->reset();
  const int fd = OpenRetryingEintr(fname.c_str(), O_RDONLY);
  if (fd < 0) return PosixError("While open a file for sequential reading", fname, errno);
  *result = std::make_unique<PosixSequentialFile>(fname, fd);
  return Status::OK();
}

Status PosixFileSystem::NewRandomAccessFile(const std::string& fname, const FileOptions& opts,
                                            std::unique_ptr<RandomAccessFile>* result) {
  result->reset();
  if (opts.use_direct_reads && !opts.use_mmap_reads) {
    const int fd = OpenRetryingEintr(fname.c_str(), O_RDONLY | O_DIRECT);
    if (fd < 0) return DirectIOError("use_direct_reads", fname, errno);
    *result = std::make_unique<PosixDirectRandomAccessFile>(fname, fd, LogicalBlockSize(fd));
    return Status::OK();
  }
  const int fd = OpenRetryingEintr(fname.c_str(), O_RDONLY);
  if (fd < 0) return PosixError("While open a file for random read", fname, errno);
  if (opts.use_mmap_reads) {
    struct stat st;
    if (fstat(fd, &st) < 0) {
      const int err = errno;
      close(fd);
      return PosixError("While fstat a file for mmap", fname, err);
    }
    if (st.st_size > 0) {  // an empty file cannot be mapped; pread serves it
      const size_t length = static_cast<size_t>(st.st_size);
      void* base = mmap(nullptr, length, PROT_READ, MAP_SHARED, fd, 0);
      const int err = errno;
      close(fd);  // the map keeps its own reference to the file
      if (base == MAP_FAILED) return PosixError("While mmap file for read", fname, err);
      *result = std::make_unique<PosixMmapReadableFile>(static_cast<const char*>(base), length);
      return Status::OK();
    }
  }
  *result = std::make_unique<PosixRandomAccessFile>(fname, fd);
  return Status::OK();
}

Status PosixFileSystem::OpenWritable(const std::string& fname, const FileOptions& opts,
                                     bool truncate, std::unique_ptr<WritableFile>* result) {
  result->reset();
  // A reopened file (an existing tail to append to) is written buffered.
  if (opts.use_direct_writes && truncate && !opts.use_mmap_writes) {
    const int fd = OpenRetryingEintr(fname.c_str(), O_CREAT | O_TRUNC | O_WRONLY | O_DIRECT);
    if (fd < 0) return DirectIOError("use_direct_io_for_flush_and_compaction", fname, errno);
    *result = std::make_unique<PosixDirectWritableFile>(fname, fd, LogicalBlockSize(fd), opts);
    return Status::OK();
  }
  int flags = O_CREAT | (truncate ? O_TRUNC : 0);
  // The mmap file maps the descriptor PROT_WRITE, which needs O_RDWR.
  flags |= opts.use_mmap_writes ? O_RDWR : (O_WRONLY | O_APPEND);
  const int fd = OpenRetryingEintr(fname.c_str(), flags);
  if (fd < 0) return PosixError("While open a file for appending", fname, errno);
  uint64_t size = 0;
  if (!truncate) {
    struct stat st;
    if (fstat(fd, &st) < 0) {
      const int err = errno;
      close(fd);
      return PosixError("While fstat a file for appending", fname, err);
    }
    size = static_cast<uint64_t>(st.st_size);
  }
  if (opts.use_mmap_writes) {
    const size_t page = PageSize();
    size_t chunk =
        opts.preallocation_block_size == 0 ? size_t{4} << 20 : opts.preallocation_block_size;
    chunk = (chunk + page - 1) / page * page;
    *result = std::make_unique<PosixMmapWritableFile>(fname, fd, size, chunk, opts.use_fsync,
                                                      opts.strict_bytes_per_sync);
  } else {
    *result = std::make_unique<PosixWritableFile>(fname, fd, size, opts);
  }
  return Status::OK();
}

Status PosixFileSystem::NewWritableFile(const std::string& fname, const FileOptions& opts,
                                        std::unique_ptr<WritableFile>* result) {
  return OpenWritable(fname, opts, /*truncate=*/true, result);
}

Status PosixFileSystem::ReopenWritableFile(const std::string& fname, const FileOptions& opts,
                                           std::unique_ptr<WritableFile>* result) {
  return OpenWritable(fname, opts, /*truncate=*/false, result);
}

Status PosixFileSystem::NewDirectory(const std::string& name, std::unique_ptr<Directory>* result) {
  result->reset();
  const int fd = OpenRetryingEintr(name.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0) return PosixError("While open directory", name, errno);
  *result = std::make_unique<PosixDirectory>(name, fd);
  return Status::OK();
}

Status PosixFileSystem::FileExists(const std::string& fname) {
  if (access(fname.c_str(), F_OK) == 0) return Status::OK();
  const int err = errno;
  if (err == ENOENT || err == ENOTDIR) return Status::NotFound(fname);
  return PosixError("While checking whether file exists", fname, err);
}

Status PosixFileSystem::GetChildren(const std::string& dir, std::vector<std::string>* result) {
  result->clear();
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return PosixError("While opendir", dir, errno);
  while (true) {
    errno = 0;
    const struct dirent* entry = readdir(d);
    if (entry == nullptr) {
      const int err = errno;
      closedir(d);
      if (err != 0) return PosixError("While readdir", dir, err);
      return Status::OK();
    }
    if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
    result->emplace_back(entry->d_name);
  }
}

Status PosixFileSystem::DeleteFile(const std::string& fname) {
  if (unlink(fname.c_str()) < 0) return PosixError("While unlink", fname, errno);
  return Status::OK();
}

Status PosixFileSystem::CreateDir(const std::string& dirname) {
  if (mkdir(dirname.c_str(), 0755) < 0) return PosixError("While mkdir", dirname, errno);
  return Status::OK();
}

Status PosixFileSystem::CreateDirIfMissing(const std::string& dirname) {
  if (mkdir(dirname.c_str(), 0755) == 0) return Status::OK();
  const int err = errno;
  if (err != EEXIST) return PosixError("While mkdir if missing", dirname, err);
  struct stat st;
  if (stat(dirname.c_str(), &st) < 0) return PosixError("While mkdir if missing", dirname, errno);
  if (!S_ISDIR(st.st_mode)) {
    return Status::IOError("While mkdir if missing", dirname + ": exists but is not a directory");
  }
  return Status::OK();
}

Status PosixFileSystem::DeleteDir(const std::string& dirname) {
  if (rmdir(dirname.c_str()) < 0) return PosixError("While rmdir", dirname, errno);
  return Status::OK();
}

Status PosixFileSystem::GetFileSize(const std::string& fname, uint64_t* size) {
  struct stat st;
  if (stat(fname.c_str(), &st) < 0) {
    *size = 0;
    return PosixError("While stat a file for size", fname, errno);
  }
  *size = static_cast<uint64_t>(st.st_size);
  return Status::OK();
}

Status PosixFileSystem::GetFileModificationTime(const std::string& fname, uint64_t* file_mtime) {
  struct stat st;
  if (stat(fname.c_str(), &st) < 0) {
    *file_mtime = 0;
    return PosixError("While stat a file for modification time", fname, errno);
  }
  *file_mtime = static_cast<uint64_t>(st.st_mtime);
  return Status::OK();
}

Status PosixFileSystem::RenameFile(const std::string& src, const std::string& target) {
  if (rename(src.c_str(), target.c_str()) < 0) {
    return PosixError("While renaming a file", src + " to " + target, errno);
  }
  return Status::OK();
}

Status PosixFileSystem::LinkFile(const std::string& src, const std::string& target) {
  if (link(src.c_str(), target.c_str()) < 0) {
    // Across file systems (or where links are not allowed) the caller copies.
    if (errno == EXDEV || errno == EPERM || errno == EMLINK || errno == ENOTSUP) {
      return Status::NotSupported("While linking a file", src + " to " + target);
    }
    return PosixError("While linking a file", src + " to " + target, errno);
  }
  return Status::OK();
}

Status PosixFileSystem::IsDirectory(const std::string& path, bool* is_dir) {
  struct stat st;
  if (stat(path.c_str(), &st) < 0) return PosixError("While stat for IsDirectory", path, errno);
  *is_dir = S_ISDIR(st.st_mode);
  return Status::OK();
}

Status PosixFileSystem::GetFreeSpace(const std::string& path, uint64_t* free_bytes) {
  struct statvfs sv;
  if (statvfs(path.c_str(), &sv) < 0) return PosixError("While statvfs", path, errno);
  // Blocks available to unprivileged users, in fragment-size units.
  *free_bytes = static_cast<uint64_t>(sv.f_bavail) * static_cast<uint64_t>(sv.f_frsize);
  return Status::OK();
}

Status PosixFileSystem::NumFileLinks(const std::string& fname, uint64_t* count) {
  struct stat st;
  if (stat(fname.c_str(), &st) != 0)
    return PosixError("While stat a file for link count", fname, errno);
  *count = static_cast<uint64_t>(st.st_nlink);
  return Status::OK();
}

Status PosixFileSystem::Truncate(const std::string& fname, uint64_t size) {
  if (truncate(fname.c_str(), static_cast<off_t>(size)) < 0) {
    return PosixError("While truncate file", fname, errno);
  }
  return Status::OK();
}

namespace {

// A file written in place with pwrite.
class PosixRandomRWFile final : public RandomRWFile {
 public:
  PosixRandomRWFile(std::string fname, int fd) : fname_(std::move(fname)), fd_(fd) {}
  ~PosixRandomRWFile() override {
    if (fd_ >= 0) close(fd_);
  }
  Status Write(uint64_t offset, const Slice& data) override {
    const char* p = data.data();
    size_t left = data.size();
    while (left > 0) {
      const ssize_t n = pwrite(fd_, p, left, static_cast<off_t>(offset));
      if (n < 0) {
        if (errno == EINTR) continue;
        return PosixError(("While pwrite to file at offset " + std::to_string(offset)).c_str(),
                          fname_, errno);
      }
      p += n;
      offset += static_cast<uint64_t>(n);
      left -= static_cast<size_t>(n);
    }
    return Status::OK();
  }
  Status Sync() override {
    if (fdatasync(fd_) < 0) return PosixError("While fdatasync", fname_, errno);
    return Status::OK();
  }
  Status Fsync() override {
    if (fsync(fd_) < 0) return PosixError("While fsync", fname_, errno);
    return Status::OK();
  }
  Status Close() override {
    if (fd_ >= 0 && close(fd_) < 0) {
      fd_ = -1;
      return PosixError("While close file", fname_, errno);
    }
    fd_ = -1;
    return Status::OK();
  }

 private:
  std::string fname_;
  int fd_;
};

}  // namespace

Status PosixFileSystem::NewRandomRWFile(const std::string& fname, const FileOptions& /*opts*/,
                                        std::unique_ptr<RandomRWFile>* result) {
  result->reset();
  const int fd = open(fname.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return PosixError("While open file for random read/write", fname, errno);
  *result = std::make_unique<PosixRandomRWFile>(fname, fd);
  return Status::OK();
}

Status PosixFileSystem::LockFile(const std::string& fname, std::unique_ptr<FileLock>* lock) {
  lock->reset();
  LockTable* table = Locks();
  MutexLock l(&table->mu);
  if (table->paths.count(fname) != 0) {
    return Status::IOError("lock hold by current process", fname + ": " + ErrnoText(EAGAIN));
  }
  const int fd = OpenRetryingEintr(fname.c_str(), O_RDWR | O_CREAT);
  if (fd < 0) return PosixError("While open a file for lock", fname, errno);
  if (SetFileLock(fd, F_WRLCK) < 0) {
    // Another process holds it: EAGAIN (or EACCES on some systems).
    const int err = errno;
    close(fd);
    return Status::IOError("While lock file", fname + ": " + ErrnoText(err));
  }
  table->paths.insert(fname);
  *lock = std::make_unique<PosixFileLock>(fname, fd);
  return Status::OK();
}

Status PosixFileSystem::UnlockFile(std::unique_ptr<FileLock> lock) {
  auto* posix_lock = static_cast<PosixFileLock*>(lock.get());
  if (posix_lock == nullptr) return Status::InvalidArgument("UnlockFile: null lock");
  Status s;
  if (SetFileLock(posix_lock->fd(), F_UNLCK) < 0) {
    s = PosixError("While unlock file", posix_lock->path(), errno);
  }
  close(posix_lock->fd());  // closing the descriptor drops the lock regardless
  LockTable* table = Locks();
  MutexLock l(&table->mu);
  table->paths.erase(posix_lock->path());
  return s;
}

}  // namespace strata
