// WAL tailing and archive (db/wal_manager.h, db/transaction_log_impl.h,
// db/db_impl_wal.cc): GetUpdatesSince against a model of every batch
// written (several families, WALs rolling and archived, reopen), gaps,
// concurrent writers, GetSortedWalFiles, the archive's purge by size and
// TTL, DestroyDB, manual_wal_flush with FlushWAL (also across a killed
// process), and RocksDB's tools on a DB with archive/.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utime.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <map>
#include <random>
#include <thread>

#include "db/filename.h"
#include "db/wal_manager.h"
#include "db/write_batch_internal.h"
#include "strata/transaction_log.h"
#include "test_util/db_test_base.h"

namespace strata {

namespace {

// One batch as written: its first sequence and its records (the batch's
// bytes after the 8-byte sequence).
struct Written {
  SequenceNumber seq;
  uint32_t count;
  std::string body;
};

std::string Body(WriteBatch* b) { return b->Data().substr(8); }

uint64_t FileSize(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

std::vector<uint64_t> WalNumbersIn(const std::string& dir) {
  std::vector<std::string> children;
  std::vector<uint64_t> out;
  if (!FileSystem::Default()->GetChildren(dir, &children).ok()) return out;
  for (const std::string& name : children) {
    uint64_t number;
    FileType type;
    if (ParseFileName(name, &number, &type) && type == FileType::kWalFile) out.push_back(number);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

class DBWalTailingTest : public DBTestBase {
 protected:
  DBWalTailingTest() : DBTestBase("db_wal_tailing_test") {
    options_.WAL_ttl_seconds = 100000;
    options_.write_buffer_size = 32 << 10;
  }

  // Writes one random batch (1-4 records over `handles`) and records it.
  void WriteRandomBatch(std::mt19937_64* rng, const std::vector<ColumnFamilyHandle*>& handles,
                        std::vector<Written>* model) {
    WriteBatch b;
    const int n = 1 + static_cast<int>((*rng)() % 4);
    for (int i = 0; i < n; ++i) {
      ColumnFamilyHandle* h = handles[(*rng)() % handles.size()];
      const std::string key = "k" + std::to_string((*rng)() % 500);
      if ((*rng)() % 5 == 0) {
        ASSERT_OK(b.Delete(h, key));
      } else {
        ASSERT_OK(b.Put(h, key, std::string(20 + (*rng)() % 200, 'a' + static_cast<char>(i))));
      }
    }
    ASSERT_OK(db_->Write(WriteOptions(), &b));
    const SequenceNumber last = db_->GetLatestSequenceNumber();
    model->push_back(Written{last - b.Count() + 1, static_cast<uint32_t>(b.Count()), Body(&b)});
  }

  // Iterates from `start` to the end and checks every batch against the
  // model: the first holds start, then each following one in order.
  void CheckFrom(SequenceNumber start, const std::vector<Written>& model) {
    SCOPED_TRACE("start " + std::to_string(start));
    std::unique_ptr<TransactionLogIterator> it;
    ASSERT_OK(db_->GetUpdatesSince(start, &it));
    size_t i = 0;
    while (i < model.size() && model[i].seq + model[i].count - 1 < start) ++i;
    for (; it->Valid(); it->Next(), ++i) {
      ASSERT_LT(i, model.size());
      BatchResult r = it->GetBatch();
      ASSERT_NE(r.writeBatchPtr, nullptr);
      EXPECT_EQ(r.sequence, model[i].seq);
      EXPECT_EQ(r.writeBatchPtr->Count(), model[i].count);
      EXPECT_EQ(Body(r.writeBatchPtr.get()), model[i].body) << "batch at " << model[i].seq;
    }
    EXPECT_OK(it->status());
    EXPECT_EQ(i, model.size());
  }
};

TEST_F(DBWalTailingTest, GetUpdatesSinceMatchesModel) {
  const uint64_t seed = std::random_device()();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  Open();
  ColumnFamilyHandle* cf1 = nullptr;
  ASSERT_OK(db_->CreateColumnFamily(options_, "one", &cf1));
  std::vector<ColumnFamilyHandle*> handles = {db_->DefaultColumnFamily(), cf1};
  std::vector<Written> model;
  for (int i = 0; i < 1500; ++i) {
    WriteRandomBatch(&rng, handles, &model);
    if (rng() % 200 == 0) ASSERT_OK(db_->Flush(FlushOptions(), handles[rng() % 2]));
  }
  ASSERT_OK(dbfull()->WaitForCompact());
  // WALs rolled and the obsolete ones were archived, not deleted.
  EXPECT_GE(WalNumbersIn(ArchivalDirectory(dbname_)).size(), 2u);
  CheckFrom(0, model);
  CheckFrom(1, model);
  for (int i = 0; i < 15; ++i) CheckFrom(1 + rng() % db_->GetLatestSequenceNumber(), model);
  // The batch holding a sequence comes first even when it starts earlier.
  const Written& multi =
      *std::find_if(model.begin() + 10, model.end(), [](const Written& w) { return w.count > 1; });
  CheckFrom(multi.seq + 1, model);

  // Across a reopen: recovery ignores archive/, the next session's WAL
  // continues the sequence.
  ASSERT_OK(db_->DestroyColumnFamilyHandle(cf1));
  Close();
  std::vector<ColumnFamilyHandle*> reopened;
  ASSERT_OK(DB::Open(options_, dbname_,
                     {ColumnFamilyDescriptor(kDefaultColumnFamilyName, options_),
                      ColumnFamilyDescriptor("one", options_)},
                     &reopened, &db_));
  for (int i = 0; i < 300; ++i) WriteRandomBatch(&rng, reopened, &model);
  CheckFrom(1, model);
  CheckFrom(model[model.size() - 200].seq, model);
  for (ColumnFamilyHandle* h : reopened) {
    if (h != db_->DefaultColumnFamily()) ASSERT_OK(db_->DestroyColumnFamilyHandle(h));
  }
}

TEST_F(DBWalTailingTest, SequenceLimits) {
  Open();
  std::unique_ptr<TransactionLogIterator> it;
  ASSERT_OK(Put("a", "1"));
  ASSERT_OK(Put("b", "2"));
  // Not written yet: NotFound (RocksDB's answer).
  EXPECT_TRUE(db_->GetUpdatesSince(3, &it).IsNotFound());
  ASSERT_OK(db_->GetUpdatesSince(2, &it));
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->GetBatch().sequence, 2u);
  it->Next();
  EXPECT_FALSE(it->Valid());
  EXPECT_OK(it->status());
  // Written after the iterator reached the end: the same iterator goes on.
  ASSERT_OK(Put("c", "3"));
  it->Next();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->GetBatch().sequence, 3u);

  // Without an archive, flushed WALs are deleted: older sequences are gone.
  options_.WAL_ttl_seconds = 0;
  DestroyAndReopen();
  for (int i = 0; i < 10; ++i) ASSERT_OK(Put("k" + std::to_string(i), "v"));
  ASSERT_OK(Flush());
  ASSERT_OK(Put("x", "y"));
  Status s = db_->GetUpdatesSince(1, &it);
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();
  ASSERT_OK(db_->GetUpdatesSince(11, &it));
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->GetBatch().sequence, 11u);
}

TEST_F(DBWalTailingTest, DeletedArchivedWalIsAGap) {
  options_.wal_mmap_writes = false;
  DestroyAndReopen();
  for (int round = 0; round < 4; ++round) {
    for (int i = 0; i < 20; ++i) ASSERT_OK(Put("k" + std::to_string(i), std::to_string(round)));
    ASSERT_OK(Flush());
  }
  ASSERT_OK(dbfull()->WaitForCompact());  // the archiving pass ends the flush job
  std::vector<uint64_t> archived = WalNumbersIn(ArchivalDirectory(dbname_));
  ASSERT_GE(archived.size(), 3u);
  {
    std::unique_ptr<TransactionLogIterator> it;
    ASSERT_OK(db_->GetUpdatesSince(1, &it));
    int n = 0;
    for (; it->Valid(); it->Next()) ++n;
    EXPECT_OK(it->status());
    EXPECT_EQ(n, 80);
  }
  ASSERT_OK(FileSystem::Default()->DeleteFile(ArchivedLogFileName(dbname_, archived[1])));
  std::unique_ptr<TransactionLogIterator> it;
  ASSERT_OK(db_->GetUpdatesSince(1, &it));
  SequenceNumber last = 0;
  for (; it->Valid(); it->Next()) last = it->GetBatch().sequence;
  EXPECT_EQ(last, 20u);  // the first WAL's batches, then the gap
  ASSERT_TRUE(it->status().IsCorruption()) << it->status().ToString();
  EXPECT_NE(it->status().ToString().find("expected sequence 21, found 41"), std::string::npos)
      << it->status().ToString();
  // Starting inside the gap fails at once.
  EXPECT_TRUE(db_->GetUpdatesSince(25, &it).IsCorruption());
}

// A tailer following concurrent writers (WALs rolling and archived under
// it) sees exactly the batches written, in order, through mmap-written and
// write(2)-written WALs.
class DBWalTailingConcurrentTest : public DBWalTailingTest,
                                   public ::testing::WithParamInterface<bool> {};

TEST_P(DBWalTailingConcurrentTest, TailerSeesEveryBatchInOrder) {
  options_.wal_mmap_writes = GetParam();
  options_.write_buffer_size = 16 << 10;
  DestroyAndReopen();
  constexpr int kWrites = 4000;
  std::atomic<bool> done{false};
  std::thread writer([&] {
    for (int i = 1; i <= kWrites; ++i) {
      // Batch i holds key i (one record): sequence i.
      ASSERT_OK(Put("key" + std::to_string(i), std::string(100, 'v')));
    }
    done.store(true);
  });
  SequenceNumber next = 1;
  int restarts = 0;
  while (next <= kWrites) {
    if (next > db_->GetLatestSequenceNumber()) {
      ASSERT_FALSE(done.load() && next <= db_->GetLatestSequenceNumber());
      std::this_thread::yield();
      continue;
    }
    std::unique_ptr<TransactionLogIterator> it;
    ASSERT_OK(db_->GetUpdatesSince(next, &it));
    ++restarts;
    for (; it->Valid(); it->Next()) {
      BatchResult r = it->GetBatch();
      ASSERT_EQ(r.sequence, next);
      WriteBatch want;
      ASSERT_OK(want.Put("key" + std::to_string(next), std::string(100, 'v')));
      ASSERT_EQ(Body(r.writeBatchPtr.get()), Body(&want)) << "sequence " << next;
      ++next;
    }
    ASSERT_OK(it->status());
  }
  writer.join();
  EXPECT_EQ(next, static_cast<SequenceNumber>(kWrites + 1));
  EXPECT_GE(WalNumbersIn(ArchivalDirectory(dbname_)).size(), 1u);
  std::printf("tailer restarted %d times\n", restarts);
}

INSTANTIATE_TEST_SUITE_P(MmapAndWrite, DBWalTailingConcurrentTest, ::testing::Bool());

TEST_F(DBWalTailingTest, SortedWalFiles) {
  options_.wal_mmap_writes = false;  // sizes on disk are the bytes written
  DestroyAndReopen();
  for (int round = 0; round < 4; ++round) {
    for (int i = 0; i < 10; ++i) ASSERT_OK(Put("k" + std::to_string(i), std::to_string(round)));
    ASSERT_OK(Flush());
  }
  ASSERT_OK(Put("last", "x"));
  VectorLogPtr files;
  ASSERT_OK(db_->GetSortedWalFiles(files));
  ASSERT_EQ(files.size(), 5u);
  for (size_t i = 0; i < files.size(); ++i) {
    const LogFile& f = *files[i];
    const bool live = i + 1 == files.size();
    EXPECT_EQ(f.Type(), live ? kAliveLogFile : kArchivedLogFile);
    char name[32];
    snprintf(name, sizeof(name), "%06llu.log", static_cast<unsigned long long>(f.LogNumber()));
    EXPECT_EQ(f.PathName(), (live ? "/" : "/archive/") + std::string(name));
    EXPECT_EQ(f.StartSequence(), 1 + 10 * i);
    EXPECT_EQ(f.SizeFileBytes(), FileSize(dbname_ + f.PathName()));
    if (i > 0) {
      EXPECT_GT(f.LogNumber(), files[i - 1]->LogNumber());
    }
  }
  std::unique_ptr<LogFile> current;
  ASSERT_OK(db_->GetCurrentWalFile(&current));
  EXPECT_EQ(current->LogNumber(), files.back()->LogNumber());
  EXPECT_EQ(current->Type(), kAliveLogFile);
  EXPECT_GT(current->SizeFileBytes(), 0u);
}

TEST_F(DBWalTailingTest, PurgeBySize) {
  options_.WAL_ttl_seconds = 0;
  options_.WAL_size_limit_MB = 1;
  options_.wal_mmap_writes = false;
  options_.write_buffer_size = 1 << 20;
  DestroyAndReopen();
  const std::string value(100 << 10, 'v');
  for (int round = 0; round < 6; ++round) {
    for (int i = 0; i < 3; ++i) ASSERT_OK(Put("k" + std::to_string(i), value));
    ASSERT_OK(Flush());
  }
  // Flush returns once the memtable is in a table; the WAL it frees is
  // archived by the obsolete-file pass that follows (the flush job ends
  // after it).
  ASSERT_OK(dbfull()->WaitForCompact());
  std::vector<uint64_t> before = WalNumbersIn(ArchivalDirectory(dbname_));
  ASSERT_EQ(before.size(), 6u);
  // The first purge ran at open; the interval (600 s) keeps the next ones
  // from doing anything until then.
  EXPECT_EQ(WalNumbersIn(ArchivalDirectory(dbname_)), before);
  dbfull()->TEST_PurgeWalArchive();
  // Each WAL holds ~300 KiB: 1 MiB keeps 3 of them, the newest.
  std::vector<uint64_t> after = WalNumbersIn(ArchivalDirectory(dbname_));
  EXPECT_EQ(after, std::vector<uint64_t>(before.end() - 3, before.end()));
  // What is gone is reported, not skipped.
  std::unique_ptr<TransactionLogIterator> it;
  EXPECT_TRUE(db_->GetUpdatesSince(1, &it).IsNotFound());
  ASSERT_OK(db_->GetUpdatesSince(10, &it));
  EXPECT_TRUE(it->Valid());
}

TEST_F(DBWalTailingTest, PurgeByTtl) {
  options_.WAL_ttl_seconds = 3600;
  options_.wal_mmap_writes = false;
  DestroyAndReopen();
  for (int round = 0; round < 4; ++round) {
    ASSERT_OK(Put("k", std::to_string(round)));
    ASSERT_OK(Flush());
  }
  ASSERT_OK(dbfull()->WaitForCompact());  // the archiving pass ends the flush job
  std::vector<uint64_t> archived = WalNumbersIn(ArchivalDirectory(dbname_));
  ASSERT_EQ(archived.size(), 4u);
  // The two oldest last changed two hours ago.
  const time_t old = time(nullptr) - 7200;
  for (int i = 0; i < 2; ++i) {
    struct utimbuf t = {old, old};
    ASSERT_EQ(utime(ArchivedLogFileName(dbname_, archived[i]).c_str(), &t), 0);
  }
  dbfull()->TEST_PurgeWalArchive();
  EXPECT_EQ(WalNumbersIn(ArchivalDirectory(dbname_)),
            std::vector<uint64_t>(archived.begin() + 2, archived.end()));
  // At open too.
  struct utimbuf t = {old, old};
  ASSERT_EQ(utime(ArchivedLogFileName(dbname_, archived[2]).c_str(), &t), 0);
  Reopen();
  std::vector<uint64_t> left = WalNumbersIn(ArchivalDirectory(dbname_));
  EXPECT_EQ(std::count(left.begin(), left.end(), archived[2]), 0);
  EXPECT_EQ(std::count(left.begin(), left.end(), archived[3]), 1);

  // DestroyDB removes the archive with the rest.
  Close();
  ASSERT_OK(DestroyDB(dbname_, options_));
  EXPECT_TRUE(FileSystem::Default()->FileExists(ArchivalDirectory(dbname_)).IsNotFound());
  EXPECT_TRUE(FileSystem::Default()->FileExists(dbname_).IsNotFound());
}

TEST_F(DBWalTailingTest, NothingArchivedOrPurgedWhileDeletionsDisabled) {
  options_.WAL_ttl_seconds = 3600;
  options_.wal_mmap_writes = false;
  DestroyAndReopen();
  ASSERT_OK(Put("a", "1"));
  ASSERT_OK(Flush());
  ASSERT_OK(dbfull()->WaitForCompact());  // the archiving pass ends the flush job
  std::vector<uint64_t> archived = WalNumbersIn(ArchivalDirectory(dbname_));
  ASSERT_EQ(archived.size(), 1u);
  ASSERT_OK(db_->DisableFileDeletions());
  std::vector<uint64_t> live_before = WalNumbersIn(dbname_);
  ASSERT_OK(Put("b", "2"));
  ASSERT_OK(Flush());
  // Aged after the flush: the writer closes an old WAL (cutting it to its
  // size, which sets its mtime) at the switch after its data is flushed.
  const time_t old = time(nullptr) - 7200;
  struct utimbuf t = {old, old};
  ASSERT_EQ(utime(ArchivedLogFileName(dbname_, archived[0]).c_str(), &t), 0);
  dbfull()->TEST_PurgeWalArchive();
  // The expired archived WAL stays, the newly obsolete one is not moved.
  EXPECT_EQ(WalNumbersIn(ArchivalDirectory(dbname_)), archived);
  for (uint64_t n : live_before)
    EXPECT_OK(FileSystem::Default()->FileExists(LogFileName(dbname_, n)));
  ASSERT_OK(db_->EnableFileDeletions(true));
  dbfull()->TEST_PurgeWalArchive();
  std::vector<uint64_t> after = WalNumbersIn(ArchivalDirectory(dbname_));
  EXPECT_EQ(std::count(after.begin(), after.end(), archived[0]), 0);  // expired: purged
  for (uint64_t n : live_before) EXPECT_EQ(std::count(after.begin(), after.end(), n), 1);
}

// A live WAL archived between the listing and the read is found in
// archive/ (what GetSortedWalFiles and the iterator do when a flush's purge
// moves a file under them).
TEST_F(DBWalTailingTest, WalArchivedUnderTheReader) {
  options_.wal_mmap_writes = false;
  DestroyAndReopen();
  for (int i = 0; i < 50; ++i) ASSERT_OK(Put("k" + std::to_string(i), "v"));
  VectorLogPtr files;
  ASSERT_OK(db_->GetSortedWalFiles(files));
  ASSERT_EQ(files.size(), 1u);
  ASSERT_EQ(files[0]->Type(), kAliveLogFile);
  const uint64_t number = files[0]->LogNumber();
  // An iterator positioned in the live WAL, then the WAL archived by a flush.
  std::unique_ptr<TransactionLogIterator> it;
  ASSERT_OK(db_->GetUpdatesSince(10, &it));
  ASSERT_TRUE(it->Valid());
  ASSERT_OK(Flush());
  ASSERT_OK(FileSystem::Default()->FileExists(ArchivedLogFileName(dbname_, number)));
  ASSERT_OK(Put("after", "flush"));
  SequenceNumber last = 0;
  for (; it->Valid(); it->Next()) last = it->GetBatch().sequence;
  EXPECT_OK(it->status());
  EXPECT_EQ(last, 51u);
  // The WalManager's lookup: listed live, found archived.
  WalFileType type = kAliveLogFile;
  SequenceNumber first = 0;
  WalManager wm(FileSystem::Default().get(), SystemClock::Default().get(), nullptr, dbname_, 1, 0);
  ASSERT_OK(wm.ReadFirstSequence(number, &type, &first));
  EXPECT_EQ(type, kArchivedLogFile);
  EXPECT_EQ(first, 1u);
}

TEST_F(DBWalTailingTest, ManualWalFlush) {
  options_.manual_wal_flush = true;
  options_.WAL_ttl_seconds = 0;
  DestroyAndReopen();
  std::unique_ptr<LogFile> current;
  ASSERT_OK(db_->GetCurrentWalFile(&current));
  const std::string wal = dbname_ + current->PathName();
  const uint64_t start = FileSize(wal);
  for (int i = 0; i < 10; ++i) ASSERT_OK(Put("k" + std::to_string(i), "v"));
  EXPECT_EQ(FileSize(wal), start);  // still in the buffer
  EXPECT_EQ(Get("k3"), "v");        // visible to reads all the same
  ASSERT_OK(db_->FlushWAL(false));
  const uint64_t flushed = FileSize(wal);
  EXPECT_GT(flushed, start);
  ASSERT_OK(Put("k10", "v"));
  ASSERT_OK(db_->SyncWAL());  // flushes first
  EXPECT_GT(FileSize(wal), flushed);
  ASSERT_OK(Put("k11", "v"));
  ASSERT_OK(db_->FlushWAL(true));
  // The tailer sees what was flushed.
  std::unique_ptr<TransactionLogIterator> it;
  ASSERT_OK(db_->GetUpdatesSince(1, &it));
  int n = 0;
  for (; it->Valid(); it->Next()) ++n;
  EXPECT_OK(it->status());
  EXPECT_EQ(n, 12);
}

TEST_F(DBWalTailingTest, ManualWalFlushSurvivesKillAsPrefix) {
  // The forked child opens a DB (background threads): TSan refuses threads
  // in the child of a multi-threaded fork (test::kThreadSanitizer).
  if (test::kThreadSanitizer) GTEST_SKIP() << "fork with threads under TSan";
  options_.manual_wal_flush = true;
  options_.WAL_ttl_seconds = 0;
  Close();
  ASSERT_OK(DestroyDB(dbname_, options_));
  const uint64_t seed = std::random_device()();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (int round = 0; round < 3; ++round) {
    const int flushed = 50 + static_cast<int>(rng() % 200);
    const int written = flushed + 1 + static_cast<int>(rng() % 200);
    const int base = round * 1000;
    fflush(stdout);
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      std::unique_ptr<DB> db;
      if (!DB::Open(options_, dbname_, &db).ok()) _exit(2);
      for (int i = 0; i < written; ++i) {
        if (!db->Put(WriteOptions(), "k" + std::to_string(base + i), "v").ok()) _exit(3);
        if (i + 1 == flushed && !db->FlushWAL(false).ok()) _exit(4);
      }
      _exit(0);  // no Close: the buffered tail is lost
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 0);
    Open();
    int present = 0;
    for (int i = 0; i < written; ++i) {
      if (Get("k" + std::to_string(base + i)) == "v") {
        ASSERT_EQ(present, i) << "not a prefix: key " << i << " survived after a lost one";
        ++present;
      }
    }
    EXPECT_GE(present, flushed);
    EXPECT_LT(present, written);  // 1 MiB buffer: nothing past the flush went out
    Close();
  }
}

// RocksDB's tools on archives: a RocksDB DB with archive/ opens in Strata
// (and its WALs are read by GetUpdatesSince); a Strata DB with archive/
// opens in RocksDB's ldb.
TEST_F(DBWalTailingTest, RocksDBToolsAndArchive) {
  if (access("/usr/bin/db_bench", X_OK) != 0 || access("/usr/bin/ldb", X_OK) != 0) {
    GTEST_SKIP() << "RocksDB's db_bench/ldb not installed";
  }
  Close();
  const std::string rdb = tmp_.path() + "/rocks";
  const std::string cmd = "/usr/bin/db_bench --db=" + rdb +
                          " --wal_ttl_seconds=1000 --benchmarks=fillrandom --num=20000"
                          " --write_buffer_size=262144 --compression_type=none >/dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  ASSERT_FALSE(WalNumbersIn(ArchivalDirectory(rdb)).empty());
  Options o = options_;
  o.create_if_missing = false;
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(o, rdb, &db));
  VectorLogPtr files;
  ASSERT_OK(db->GetSortedWalFiles(files));
  ASSERT_FALSE(files.empty());
  EXPECT_EQ(files.front()->Type(), kArchivedLogFile);
  std::unique_ptr<TransactionLogIterator> it;
  ASSERT_OK(db->GetUpdatesSince(files.front()->StartSequence(), &it));
  SequenceNumber expected = files.front()->StartSequence();
  for (; it->Valid(); it->Next()) {
    BatchResult r = it->GetBatch();
    ASSERT_EQ(r.sequence, expected);
    expected += r.writeBatchPtr->Count();
  }
  EXPECT_OK(it->status());
  ASSERT_OK(db->Close());
  db.reset();

  // Strata's archive, read by ldb.
  options_.wal_mmap_writes = false;
  DestroyAndReopen();
  for (int i = 0; i < 100; ++i) ASSERT_OK(Put("key" + std::to_string(i), "value"));
  ASSERT_OK(Flush());
  ASSERT_OK(Put("late", "x"));
  Close();
  ASSERT_FALSE(WalNumbersIn(ArchivalDirectory(dbname_)).empty());
  const std::string out = tmp_.path() + "/ldb.out";
  const std::string scan = "/usr/bin/ldb --db=" + dbname_ + " scan > " + out + " 2>&1";
  ASSERT_EQ(std::system(scan.c_str()), 0);
  std::string text;
  ASSERT_OK(ReadFileToString(FileSystem::Default().get(), out, &text));
  EXPECT_NE(text.find("key42 : value"), std::string::npos) << text;
  EXPECT_NE(text.find("late : x"), std::string::npos) << text;
}

// LockWAL holds every write until UnlockWAL (counted), writes out the
// manual_wal_flush buffer first, and the WAL file does not grow meanwhile.
TEST_F(DBWalTailingTest, LockWALHoldsWrites) {
  options_.manual_wal_flush = true;
  Reopen();
  ASSERT_OK(Put("a", "1"));
  std::unique_ptr<LogFile> current;
  ASSERT_OK(db_->GetCurrentWalFile(&current));
  const std::string wal = dbname_ + current->PathName();
  EXPECT_EQ(FileSize(wal), 0u);  // still in the buffer
  EXPECT_TRUE(db_->UnlockWAL().IsAborted());
  ASSERT_OK(db_->LockWAL());
  const uint64_t locked_size = FileSize(wal);
  EXPECT_GT(locked_size, 0u);  // the buffer went out
  ASSERT_OK(db_->LockWAL());   // nested: two unlocks needed
  std::atomic<bool> done{false};
  std::thread writer([&] {
    EXPECT_OK(Put("b", "2"));
    done.store(true);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(done.load());
  EXPECT_EQ(FileSize(wal), locked_size);
  ASSERT_OK(db_->UnlockWAL());
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(done.load());
  ASSERT_OK(db_->UnlockWAL());
  writer.join();
  EXPECT_TRUE(done.load());
  EXPECT_TRUE(db_->UnlockWAL().IsAborted());
  std::string v;
  ASSERT_OK(db_->Get(ReadOptions(), "b", &v));
  EXPECT_EQ(v, "2");
  // Close lifts a lock still held.
  ASSERT_OK(db_->LockWAL());
  Close();
  Open();
  ASSERT_OK(db_->Get(ReadOptions(), "a", &v));
  EXPECT_EQ(v, "1");
}

}  // namespace strata
