#include "env/paced_writable_file.h"

#include <memory>
#include <string>
#include <vector>

#include "test_util/manual_clock.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

// Records what reaches the file: the bytes, each append's size, and each
// range sync with how much had been flushed when it came.
struct Record {
  std::string data;
  uint64_t flushed = 0;
  std::vector<size_t> appends;
  struct Sync {
    uint64_t offset, nbytes, flushed;
  };
  std::vector<Sync> syncs;
};

class RecordingFile final : public WritableFile {
 public:
  explicit RecordingFile(Record* r) : r_(r) {}
  Status Append(const Slice& d) override {
    r_->data.append(d.data(), d.size());
    r_->appends.push_back(d.size());
    return Status::OK();
  }
  Status Flush() override {
    r_->flushed = r_->data.size();
    return Status::OK();
  }
  Status Sync() override { return Flush(); }
  Status Close() override { return Flush(); }
  uint64_t GetFileSize() const override { return r_->data.size(); }
  Status RangeSync(uint64_t offset, uint64_t nbytes) override {
    r_->syncs.push_back({offset, nbytes, r_->flushed});
    return Status::OK();
  }

 private:
  Record* r_;
};

std::string Block(size_t n, int i) { return std::string(n, static_cast<char>('a' + i % 26)); }

TEST(PacedWritableFileTest, NothingToPaceReturnsTheFileItself) {
  Record r;
  auto base = std::make_unique<RecordingFile>(&r);
  WritableFile* raw = base.get();
  auto limiter = NewGenericRateLimiter(1 << 20);
  PacedWriteOptions o;
  o.rate_limiter = limiter.get();
  o.priority = Env::IO_TOTAL;  // not limited
  std::unique_ptr<WritableFile> f = NewPacedWritableFile(std::move(base), o);
  EXPECT_EQ(f.get(), raw);
}

TEST(PacedWritableFileTest, RangeSyncsEveryBytesPerSyncBehindTheNewestMegabyte) {
  Record r;
  PacedWriteOptions o;
  o.bytes_per_sync = 256 * 1024;
  auto f = NewPacedWritableFile(std::make_unique<RecordingFile>(&r), o);
  std::string expected;
  for (int i = 0; i < 1024; ++i) {  // 4 MiB in 4 KiB blocks
    const std::string b = Block(4096, i);
    ASSERT_OK(f->Append(b));
    expected += b;
    // Nothing within the newest megabyte is ever synced.
    if (!r.syncs.empty()) {
      const auto& last = r.syncs.back();
      EXPECT_LE(last.offset + last.nbytes + kRangeSyncSkipNewestBytes, r.data.size());
    }
  }
  ASSERT_OK(f->Close());
  EXPECT_EQ(r.data, expected);
  // 3 MiB synced in 256 KiB ranges, contiguous from 0, aligned, each one
  // flushed to the file before it was synced.
  ASSERT_EQ(r.syncs.size(), 12u);
  uint64_t next = 0;
  for (const auto& s : r.syncs) {
    EXPECT_EQ(s.offset, next);
    EXPECT_GE(s.nbytes, o.bytes_per_sync);
    EXPECT_EQ((s.offset + s.nbytes) % kRangeSyncAlignment, 0u);
    EXPECT_GE(s.flushed, s.offset + s.nbytes);
    next = s.offset + s.nbytes;
  }
  EXPECT_EQ(next, 3u << 20);
}

TEST(PacedWritableFileTest, WalSyncsOnlyAtFlush) {
  Record r;
  PacedWriteOptions o;
  o.bytes_per_sync = 64 * 1024;
  o.range_sync_on_flush_only = true;
  auto f = NewPacedWritableFile(std::make_unique<RecordingFile>(&r), o);
  for (int i = 0; i < 512; ++i) ASSERT_OK(f->Append(Block(4096, i)));
  EXPECT_TRUE(r.syncs.empty());  // appends alone never sync (manual_wal_flush)
  EXPECT_EQ(r.flushed, 0u);      // nor flush
  ASSERT_OK(f->Flush());
  ASSERT_EQ(r.syncs.size(), 1u);
  EXPECT_EQ(r.syncs[0].offset, 0u);
  EXPECT_EQ(r.syncs[0].nbytes, (2u << 20) - kRangeSyncSkipNewestBytes);
}

TEST(PacedWritableFileTest, AppendsArePacedAtTheFilesPriority) {
  auto clock = std::make_shared<test::ManualClock>(true);
  auto limiter =
      NewGenericRateLimiter(1000000, 100000, 10, RateLimiter::Mode::kWritesOnly, false, clock);
  Record r;
  PacedWriteOptions o;
  o.rate_limiter = limiter.get();
  o.priority = Env::IO_HIGH;
  auto f = NewPacedWritableFile(std::make_unique<RecordingFile>(&r), o);
  const uint64_t start = clock->NowMicros();
  std::string expected;
  for (int i = 0; i < 20; ++i) {  // 5 MB, some appends far past a burst
    const std::string b = Block(i % 2 == 0 ? 50000 : 450000, i);
    ASSERT_OK(f->Append(b));
    expected += b;
  }
  ASSERT_OK(f->Close());
  EXPECT_EQ(r.data, expected);
  EXPECT_EQ(limiter->GetTotalBytesThrough(Env::IO_HIGH), 5000000);
  EXPECT_EQ(limiter->GetTotalBytesThrough(Env::IO_LOW), 0);
  for (size_t n : r.appends) EXPECT_LE(n, 100000u);  // one burst at most
  // 5 MB at 1 MB/s (the first burst is free).
  EXPECT_NEAR(static_cast<double>(clock->NowMicros() - start) / 1e6, 4.9, 0.11);
}

TEST(PacedWritableFileTest, PosixRangeSyncWorks) {
  // sync_file_range on a real file (or fdatasync where it is refused):
  // succeeds, and the bytes are all there after close.
  test::TempDir tmp("paced_writable_file_test");
  const std::string& dir = tmp.path();
  FileSystem* fs = Env::Default()->GetFileSystem();
  for (bool mmap : {false, true}) {
    for (bool strict : {false, true}) {
      const std::string fname = dir + "/f";
      FileOptions fo;
      fo.use_mmap_writes = mmap;
      fo.strict_bytes_per_sync = strict;
      std::unique_ptr<WritableFile> base;
      ASSERT_OK(fs->NewWritableFile(fname, fo, &base));
      PacedWriteOptions o;
      o.bytes_per_sync = 128 * 1024;
      auto f = NewPacedWritableFile(std::move(base), o);
      std::string expected;
      for (int i = 0; i < 600; ++i) {
        const std::string b = Block(4096, i);
        ASSERT_OK(f->Append(b));
        expected += b;
      }
      ASSERT_OK(f->Close());
      std::string got;
      ASSERT_OK(ReadFileToString(fs, fname, &got));
      EXPECT_EQ(got, expected) << mmap << strict;
      ASSERT_OK(fs->DeleteFile(fname));
    }
  }
}

}  // namespace
}  // namespace strata
