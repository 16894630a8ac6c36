// Paced I/O at the DB level (issue 19): the rate limiter charged by flushes
// (IO_HIGH) and compactions (IO_LOW, reads per mode), the SstFileManager's
// tracking, paced deletion through .trash files, the space limit as a
// background error that Resume clears, bytes_per_sync range syncs, and the
// options' text forms.
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <thread>

#include "env/forwarding_writable_file.h"
#include "env/sst_file_manager_impl.h"
#include "strata/convenience.h"
#include "strata/rate_limiter.h"
#include "strata/sst_file_manager.h"
#include "strata/statistics.h"
#include "strata/utilities/options_util.h"
#include "test_util/db_test_base.h"
#include "test_util/forwarding_file_system.h"

namespace strata {
namespace {

// Counts RangeSync calls on table and WAL files.
class RangeSyncCountingFS final : public test::ForwardingFileSystem {
 public:
  explicit RangeSyncCountingFS(std::shared_ptr<FileSystem> base)
      : ForwardingFileSystem(std::move(base)) {}
  Status NewWritableFile(const std::string& f, const FileOptions& o,
                         std::unique_ptr<WritableFile>* r) override {
    Status s = ForwardingFileSystem::NewWritableFile(f, o, r);
    if (s.ok()) {
      std::atomic<int>* counter = nullptr;
      if (EndsWith(f, ".sst")) counter = &table_syncs;
      if (EndsWith(f, ".log")) counter = &wal_syncs;
      if (counter != nullptr) *r = std::make_unique<File>(std::move(*r), counter);
    }
    return s;
  }
  std::atomic<int> table_syncs{0};
  std::atomic<int> wal_syncs{0};

 private:
  static bool EndsWith(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
  }
  class File final : public ForwardingWritableFile {
   public:
    File(std::unique_ptr<WritableFile> file, std::atomic<int>* n)
        : ForwardingWritableFile(std::move(file)), n_(n) {}
    Status RangeSync(uint64_t o, uint64_t n) override {
      ++*n_;
      return base()->RangeSync(o, n);
    }

   private:
    std::atomic<int>* n_;
  };
};

class DBPacedIOTest : public DBTestBase {
 protected:
  DBPacedIOTest() : DBTestBase("db_paced_io_test") {}

  // Keys start..start+n-1 in a scattered order, so tables overlap and
  // compactions rewrite rather than move them.
  void Fill(int n, int value_size = 200, int start = 0) {
    for (int j = 0; j < n; ++j) {
      const int i = start + static_cast<int>((int64_t{j} * 7919) % n);
      char key[32];
      snprintf(key, sizeof(key), "key%08d", i);
      ASSERT_OK(Put(key, std::string(value_size, static_cast<char>('a' + i % 26))));
    }
  }
  std::map<std::string, uint64_t> LiveTables() {
    std::vector<LiveFileMetaData> files;
    db_->GetLiveFilesMetaData(&files);
    std::map<std::string, uint64_t> m;
    for (const LiveFileMetaData& f : files) m[f.db_path + f.name] = f.size;
    return m;
  }
  std::vector<std::string> TrashFiles() {
    std::vector<std::string> children, trash;
    EXPECT_OK(options_.env->GetFileSystem()->GetChildren(dbname_, &children));
    for (const std::string& c : children) {
      if (SstFileManagerImpl::IsTrashFile(c)) trash.push_back(c);
    }
    return trash;
  }
};

TEST_F(DBPacedIOTest, RateLimiterChargesFlushHighAndCompactionLow) {
  for (RateLimiter::Mode mode :
       {RateLimiter::Mode::kWritesOnly, RateLimiter::Mode::kReadsOnly, RateLimiter::Mode::kAllIo}) {
    // Fast enough not to slow the test: what is checked is what was charged.
    auto limiter = NewGenericRateLimiter(1 << 30, 100000, 10, mode);
    Options o = SmallOptions();
    o.rate_limiter = limiter;
    o.statistics = CreateDBStatistics();
    DestroyAndReopen(o);
    Fill(3000);
    ASSERT_OK(Flush());
    ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
    ASSERT_OK(WaitForCompact());
    const uint64_t flushed = o.statistics->getTickerCount(FLUSH_WRITE_BYTES);
    const uint64_t compacted = o.statistics->getTickerCount(COMPACT_WRITE_BYTES);
    const uint64_t read = o.statistics->getTickerCount(COMPACT_READ_BYTES);
    ASSERT_GT(flushed, 0u);
    ASSERT_GT(compacted, 0u);
    const bool writes = mode != RateLimiter::Mode::kReadsOnly;
    const bool reads = mode != RateLimiter::Mode::kWritesOnly;
    // Flush writes, and only they, are IO_HIGH: every byte of every table.
    EXPECT_EQ(static_cast<uint64_t>(limiter->GetTotalBytesThrough(Env::IO_HIGH)),
              writes ? flushed : 0u);
    // Compaction: its writes, exactly, and its reads (charged from the
    // entries read, scaled to file bytes: about the input size).
    const uint64_t low = static_cast<uint64_t>(limiter->GetTotalBytesThrough(Env::IO_LOW));
    const uint64_t low_writes = writes ? compacted : 0;
    if (reads) {
      EXPECT_GE(low, low_writes + read * 9 / 10) << static_cast<int>(mode);
      EXPECT_LE(low, low_writes + read * 11 / 10) << static_cast<int>(mode);
    } else {
      EXPECT_EQ(low, low_writes);
    }
    EXPECT_EQ(limiter->GetTotalBytesThrough(Env::IO_USER), 0);
    EXPECT_EQ(limiter->GetTotalBytesThrough(Env::IO_MID), 0);
    Close();
  }
}

TEST_F(DBPacedIOTest, SstFileManagerTracksEveryTable) {
  auto sfm = NewSstFileManager(options_.env);
  Options o = SmallOptions();
  o.sst_file_manager = sfm;
  DestroyAndReopen(o);
  Fill(5000);
  ASSERT_OK(Flush());
  ASSERT_OK(WaitForCompact());
  auto live = LiveTables();
  ASSERT_GT(live.size(), 2u);
  auto tracked = sfm->GetTrackedFiles();
  EXPECT_EQ((std::map<std::string, uint64_t>(tracked.begin(), tracked.end())), live);
  uint64_t sum = 0;
  for (const auto& [p, s] : live) sum += s;
  EXPECT_EQ(sfm->GetTotalSize(), sum);
  // A new manager learns the live tables at open.
  auto sfm2 = NewSstFileManager(options_.env);
  o.sst_file_manager = sfm2;
  Reopen(o);
  tracked = sfm2->GetTrackedFiles();
  EXPECT_EQ((std::map<std::string, uint64_t>(tracked.begin(), tracked.end())), live);
  // A manager not made by NewSstFileManager is refused.
  class Mine final : public SstFileManager {
    void SetMaxAllowedSpaceUsage(uint64_t) override {}
    void SetCompactionBufferSize(uint64_t) override {}
    bool IsMaxAllowedSpaceReached() override { return false; }
    bool IsMaxAllowedSpaceReachedIncludingCompactions() override { return false; }
    uint64_t GetTotalSize() override { return 0; }
    std::unordered_map<std::string, uint64_t> GetTrackedFiles() override { return {}; }
    int64_t GetDeleteRateBytesPerSecond() override { return 0; }
    void SetDeleteRateBytesPerSecond(int64_t) override {}
    double GetMaxTrashDBRatio() override { return 0; }
    void SetMaxTrashDBRatio(double) override {}
    uint64_t GetTotalTrashSize() override { return 0; }
    void SetStatisticsPtr(const std::shared_ptr<Statistics>&) override {}
  };
  o.sst_file_manager = std::make_shared<Mine>();
  Status s = TryReopen(o);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("sst_file_manager"), std::string::npos);
}

// Obsolete tables become .trash files deleted in the background; trash
// left behind is cleaned at the next open, with or without a manager.
TEST_F(DBPacedIOTest, ObsoleteTablesGoThroughTheTrash) {
  Options o = SmallOptions();
  o.statistics = CreateDBStatistics();
  // 1 byte/s and no ratio limit: trash stays trash while the test looks.
  o.sst_file_manager = NewSstFileManager(options_.env, nullptr, "", 1, true, nullptr, 1e9, 0);
  DestroyAndReopen(o);
  Fill(4000);
  ASSERT_OK(Flush());
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  const std::vector<std::string> trash = TrashFiles();
  EXPECT_FALSE(trash.empty());
  EXPECT_GT(o.statistics->getTickerCount(FILES_MARKED_TRASH), 0u);
  EXPECT_GT(o.sst_file_manager->GetTotalTrashSize(), 0u);
  // The data is whole: trash is never read.
  for (int i = 0; i < 4000; i += 397) {
    char key[32];
    snprintf(key, sizeof(key), "key%08d", i);
    EXPECT_EQ(Get(key), std::string(200, static_cast<char>('a' + i % 26)));
  }
  Close();
  o.sst_file_manager.reset();  // the queued trash stays on disk
  // Reopen without a manager: deleted at once.
  o.statistics = nullptr;
  Reopen(o);
  EXPECT_TRUE(TrashFiles().empty());
  // And with one: handed to it, deleted at its rate.
  Fill(4000, 200, 10000);
  ASSERT_OK(Flush());
  Close();
  ASSERT_OK(WriteStringToFile(options_.env->GetFileSystem(), std::string(5000, 'x'),
                              dbname_ + "/000999.sst.trash"));
  auto sfm = NewSstFileManager(options_.env, nullptr, "", 1 << 30);
  o.sst_file_manager = sfm;
  Reopen(o);
  static_cast<SstFileManagerImpl*>(sfm.get())->WaitForEmptyTrash();
  EXPECT_TRUE(TrashFiles().empty());
  EXPECT_EQ(sfm->GetTotalTrashSize(), 0u);
}

// Past max_allowed_space_usage a flush is the background error
// SpaceLimit; writes fail; Resume succeeds only once the limit is raised.
TEST_F(DBPacedIOTest, SpaceLimitStopsWritesUntilResume) {
  auto sfm = NewSstFileManager(options_.env);
  Options o = SmallOptions();
  o.sst_file_manager = sfm;
  o.disable_auto_compactions = true;
  o.write_buffer_size = 4 << 20;  // only the test's flushes
  DestroyAndReopen(o);
  Fill(1000);
  ASSERT_OK(Flush());
  const uint64_t one = sfm->GetTotalSize();
  ASSERT_GT(one, 0u);
  sfm->SetMaxAllowedSpaceUsage(one + one / 2);
  EXPECT_FALSE(sfm->IsMaxAllowedSpaceReached());
  Fill(1000, 200, 1000);
  Status s = Flush();
  ASSERT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_EQ(s.subcode(), Status::kSpaceLimit);
  EXPECT_NE(s.ToString().find("Max allowed space was reached"), std::string::npos) << s.ToString();
  EXPECT_TRUE(sfm->IsMaxAllowedSpaceReached());
  // Writes fail with it; reads work.
  Status w = Put("after", "x");
  EXPECT_EQ(w.subcode(), Status::kSpaceLimit) << w.ToString();
  EXPECT_EQ(Get("key00001500"), std::string(200, static_cast<char>('a' + 1500 % 26)));
  // Resume refuses while the limit is reached.
  s = db_->Resume();
  EXPECT_EQ(s.subcode(), Status::kSpaceLimit) << s.ToString();
  EXPECT_EQ(Put("after", "x").subcode(), Status::kSpaceLimit);
  // Raised: Resume clears it.
  sfm->SetMaxAllowedSpaceUsage(100 * one);
  ASSERT_OK(db_->Resume());
  ASSERT_OK(Put("after", "x"));
  EXPECT_EQ(Get("after"), "x");
  ASSERT_OK(Flush());
  Reopen(o);
  EXPECT_EQ(Get("after"), "x");
  EXPECT_EQ(Get("key00001999"), std::string(200, static_cast<char>('a' + 1999 % 26)));
}

// As RocksDB's SstFileManager does, a space-limit error is resumed
// automatically once there is room again: nothing happens while the limit
// is reached; raising it clears the error without a call to Resume.
TEST_F(DBPacedIOTest, SpaceLimitResumesAutomaticallyOnceThereIsRoom) {
  auto sfm = NewSstFileManager(options_.env);
  Options o = SmallOptions();
  o.sst_file_manager = sfm;
  o.disable_auto_compactions = true;
  o.write_buffer_size = 4 << 20;
  o.bgerror_resume_retry_interval = 10000;  // 10 ms between checks
  o.statistics = CreateDBStatistics();
  DestroyAndReopen(o);
  Fill(1000);
  ASSERT_OK(Flush());
  const uint64_t one = sfm->GetTotalSize();
  sfm->SetMaxAllowedSpaceUsage(one + one / 2);
  Fill(1000, 200, 1000);
  Status s = Flush();
  ASSERT_EQ(s.subcode(), Status::kSpaceLimit) << s.ToString();
  // Still over the limit: no attempt is made, writes keep failing.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_EQ(Put("after", "x").subcode(), Status::kSpaceLimit);
  EXPECT_EQ(o.statistics->getTickerCount(ERROR_HANDLER_AUTORESUME_RETRY_TOTAL_COUNT), 0u);
  sfm->SetMaxAllowedSpaceUsage(100 * one);
  Status w;
  for (int i = 0; i < 1000; ++i) {
    w = Put("after", "x");
    if (w.ok()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_OK(w);
  EXPECT_EQ(Get("after"), "x");
  EXPECT_GE(o.statistics->getTickerCount(ERROR_HANDLER_AUTORESUME_SUCCESS_COUNT), 1u);
  // The data written before the error is all there.
  EXPECT_EQ(Get("key00001999"), std::string(200, static_cast<char>('a' + 1999 % 26)));
}

// A compaction that would pass the limit is not started: a manual one
// returns CompactionTooLarge and the DB stays writable.
TEST_F(DBPacedIOTest, CompactionNotStartedWithoutRoom) {
  auto sfm = NewSstFileManager(options_.env);
  Options o = SmallOptions();
  o.sst_file_manager = sfm;
  o.disable_auto_compactions = true;
  o.write_buffer_size = 4 << 20;
  o.target_file_size_base = 4 << 20;
  o.statistics = CreateDBStatistics();
  DestroyAndReopen(o);
  Fill(1000);
  ASSERT_OK(Flush());
  Fill(1000, 150, 500);  // overlaps the first table
  ASSERT_OK(Flush());
  const uint64_t total = sfm->GetTotalSize();
  sfm->SetMaxAllowedSpaceUsage(total + total / 2);  // inputs (all) do not fit
  Status s = db_->CompactRange(CompactRangeOptions(), nullptr, nullptr);
  EXPECT_TRUE(s.IsCompactionTooLarge()) << s.ToString();
  EXPECT_EQ(o.statistics->getTickerCount(COMPACTION_CANCELLED), 1u);
  ASSERT_OK(Put("still", "writable"));
  EXPECT_EQ(NumTableFilesAtLevel(0), 2);
  sfm->SetCompactionBufferSize(0);
  sfm->SetMaxAllowedSpaceUsage(3 * total);
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  EXPECT_EQ(NumTableFilesAtLevel(0), 0);
  EXPECT_FALSE(sfm->IsMaxAllowedSpaceReachedIncludingCompactions());  // reservation released
}

// An automatic compaction without room is not started; WaitForCompact
// says so instead of waiting forever, and goes on once the limit is raised.
TEST_F(DBPacedIOTest, AutomaticCompactionWaitsForRoom) {
  auto sfm = NewSstFileManager(options_.env);
  Options o = SmallOptions();
  o.sst_file_manager = sfm;
  o.write_buffer_size = 4 << 20;
  o.target_file_size_base = 4 << 20;
  o.level0_file_num_compaction_trigger = 2;
  o.statistics = CreateDBStatistics();
  DestroyAndReopen(o);
  Fill(1000);
  ASSERT_OK(Flush());
  const uint64_t one = sfm->GetTotalSize();
  sfm->SetMaxAllowedSpaceUsage(one * 5 / 2);  // two tables fit, their compaction not
  Fill(1000, 150, 500);
  ASSERT_OK(Flush());
  Status s = WaitForCompact();
  EXPECT_TRUE(s.IsCompactionTooLarge()) << s.ToString();
  EXPECT_GE(o.statistics->getTickerCount(COMPACTION_CANCELLED), 1u);
  EXPECT_EQ(NumTableFilesAtLevel(0), 2);
  ASSERT_OK(Put("still", "writable"));
  sfm->SetMaxAllowedSpaceUsage(10 * one);
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(NumTableFilesAtLevel(0), 0);
}

TEST_F(DBPacedIOTest, BytesPerSyncRangeSyncsTablesAndWal) {
  auto fs = std::make_shared<RangeSyncCountingFS>(Env::Default()->GetFileSystemPtr());
  Env env(fs, SystemClock::Default());
  Options o = SmallOptions();
  o.env = &env;
  o.write_buffer_size = 8 << 20;
  o.target_file_size_base = 8 << 20;
  o.disable_auto_compactions = true;
  DestroyAndReopen(o);
  Fill(15000);  // about 3 MB
  ASSERT_OK(Flush());
  EXPECT_EQ(fs->table_syncs.load(), 0);  // off by default
  EXPECT_EQ(fs->wal_syncs.load(), 0);
  o.bytes_per_sync = 256 << 10;
  o.wal_bytes_per_sync = 256 << 10;
  Reopen(o);
  Fill(15000, 200, 100000);
  ASSERT_OK(Flush());
  EXPECT_GE(fs->table_syncs.load(), 4);  // ~2 MB synced past the newest MiB
  EXPECT_GE(fs->wal_syncs.load(), 4);
  // Strict mode works too (it waits for the write-back as well).
  o.strict_bytes_per_sync = true;
  Reopen(o);
  Fill(15000, 200, 200000);
  ASSERT_OK(Flush());
  EXPECT_GE(fs->table_syncs.load(), 8);
  Close();
}

TEST_F(DBPacedIOTest, OptionsHaveTheirTextForms) {
  Options o = SmallOptions();
  o.bytes_per_sync = 1 << 20;
  o.wal_bytes_per_sync = 512 << 10;
  o.strict_bytes_per_sync = true;
  o.rate_limiter = NewGenericRateLimiter(10 << 20);
  o.sst_file_manager = NewSstFileManager(options_.env, nullptr, "", 12345);
  DestroyAndReopen(o);
  // The OPTIONS file carries the three numbers back.
  DBOptions loaded;
  std::vector<ColumnFamilyDescriptor> cfs;
  ConfigOptions config;
  ASSERT_OK(LoadLatestOptions(config, dbname_, &loaded, &cfs));
  EXPECT_EQ(loaded.bytes_per_sync, uint64_t{1} << 20);
  EXPECT_EQ(loaded.wal_bytes_per_sync, uint64_t{512} << 10);
  EXPECT_TRUE(loaded.strict_bytes_per_sync);
  EXPECT_EQ(loaded.rate_limiter, nullptr);  // objects are not written
  // The LOG lists them.
  std::string log;
  ASSERT_OK(ReadFileToString(options_.env->GetFileSystem(), dbname_ + "/LOG", &log));
  EXPECT_NE(log.find("Options.bytes_per_sync: 1048576"), std::string::npos);
  EXPECT_NE(log.find("Options.wal_bytes_per_sync: 524288"), std::string::npos);
  EXPECT_NE(log.find("Options.sst_file_manager.rate_bytes_per_sec: 12345"), std::string::npos);
  EXPECT_NE(log.find("Options.rate_limiter: 0x"), std::string::npos);
  // Mutable, as in RocksDB.
  ASSERT_OK(db_->SetDBOptions({{"bytes_per_sync", "2097152"}, {"strict_bytes_per_sync", "false"}}));
  EXPECT_EQ(db_->GetDBOptions().bytes_per_sync, uint64_t{2} << 20);
  EXPECT_FALSE(db_->GetDBOptions().strict_bytes_per_sync);
  // From a string.
  DBOptions parsed;
  ASSERT_OK(GetDBOptionsFromString(config, DBOptions(),
                                   "bytes_per_sync=1m;wal_bytes_per_sync=4096;"
                                   "strict_bytes_per_sync=true",
                                   &parsed));
  EXPECT_EQ(parsed.bytes_per_sync, uint64_t{1} << 20);
  EXPECT_EQ(parsed.wal_bytes_per_sync, 4096u);
}

}  // namespace
}  // namespace strata
