// compat_txn_surface_test: the members of RocksDB's transaction, batch,
// backup and WAL-iterator headers that the compared program
// (compat/examples/txn_surface.cc) cannot show because Strata answers
// differently from RocksDB (refusals) or because the answer is not
// printable: refused options and calls with the names they carry, the
// snapshot notifier, write options reaching Commit, BackupEngine's new
// members, transaction_log.h's BatchResult.
#include <unistd.h>

#include <climits>
#include <cstdarg>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/options.h"
#include "rocksdb/rate_limiter.h"
#include "rocksdb/transaction_log.h"
#include "rocksdb/utilities/backup_engine.h"
#include "rocksdb/utilities/optimistic_transaction_db.h"
#include "rocksdb/utilities/transaction.h"
#include "rocksdb/utilities/transaction_db.h"
#include "rocksdb/utilities/write_batch_with_index.h"
#include "rocksdb/write_batch.h"

namespace rocksdb {
namespace {

std::string TestPath(const std::string& name) {
  return ::testing::TempDir() + "/compat_txn_surface_" + std::to_string(getpid()) + "_" + name;
}

class TxnSurfaceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = TestPath(::testing::UnitTest::GetInstance()->current_test_info()->name());
    ASSERT_TRUE(DestroyDB(path_, Options()).ok());
    options_.create_if_missing = true;
  }
  void TearDown() override {
    delete db_;
    db_ = nullptr;
    EXPECT_TRUE(DestroyDB(path_, Options()).ok());
  }
  void OpenTxnDB(const TransactionDBOptions& txn_options = TransactionDBOptions()) {
    Status s = TransactionDB::Open(options_, txn_options, path_, &db_);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  std::string Read(const std::string& key) {
    std::string v;
    Status s = db_->Get(ReadOptions(), key, &v);
    return s.ok() ? v : s.ToString();
  }

  std::string path_;
  Options options_;
  TransactionDB* db_ = nullptr;
};

class CountingNotifier : public TransactionNotifier {
 public:
  void SnapshotCreated(const Snapshot* snapshot) override {
    ++calls;
    last = snapshot;
  }
  int calls = 0;
  const Snapshot* last = nullptr;
};

// SliceParts writes store the concatenated parts; the untracked forms
// still lock their key (RocksDB's pessimistic transactions do).
TEST_F(TxnSurfaceTest, SlicePartsWritesConcatenate) {
  OpenTxnDB();
  std::unique_ptr<Transaction> t1(db_->BeginTransaction(WriteOptions()));
  Slice k[3] = {"a", "", "bc"};
  Slice v[2] = {"x", "yz"};
  ASSERT_TRUE(t1->Put(SliceParts(k, 3), SliceParts(v, 2)).ok());
  Slice k2[2] = {"un", "tracked"};
  ASSERT_TRUE(t1->PutUntracked(SliceParts(k2, 2), SliceParts(v, 2)).ok());
  EXPECT_EQ(t1->GetNumKeys(), 2u);
  TransactionOptions no_wait;
  no_wait.lock_timeout = 0;
  std::unique_ptr<Transaction> t2(db_->BeginTransaction(WriteOptions(), no_wait));
  std::string got;
  EXPECT_TRUE(t2->GetForUpdate(ReadOptions(), "untracked", &got).IsTimedOut());
  std::unique_ptr<Transaction> t3(db_->BeginTransaction(WriteOptions(), no_wait));
  EXPECT_TRUE(t3->GetForUpdate(ReadOptions(), "abc", &got).IsTimedOut());
  ASSERT_TRUE(t1->Commit().ok());
  EXPECT_EQ(Read("abc"), "xyz");
  EXPECT_EQ(Read("untracked"), "xyz");
  ASSERT_TRUE(t2->Rollback().ok());
  ASSERT_TRUE(t3->Rollback().ok());

  std::unique_ptr<Transaction> t4(db_->BeginTransaction(WriteOptions()));
  ASSERT_TRUE(t4->Delete(SliceParts(k, 3)).ok());
  ASSERT_TRUE(t4->SingleDeleteUntracked("untracked").ok());
  ASSERT_TRUE(t4->Commit().ok());
  EXPECT_TRUE(Read("abc").find("NotFound") != std::string::npos);
  EXPECT_TRUE(Read("untracked").find("NotFound") != std::string::npos);
}

// The notifier gets the snapshot once, at the first write after the
// request; GetTimestampedSnapshot shares that snapshot.
TEST_F(TxnSurfaceTest, NotifierSeesTheSnapshotOnce) {
  OpenTxnDB();
  ASSERT_TRUE(db_->Put(WriteOptions(), "k", "before").ok());
  auto notifier = std::make_shared<CountingNotifier>();
  std::unique_ptr<Transaction> t(db_->BeginTransaction(WriteOptions()));
  t->SetSnapshotOnNextOperation(notifier);
  EXPECT_EQ(notifier->calls, 0);
  EXPECT_EQ(t->GetTimestampedSnapshot(), nullptr);
  ASSERT_TRUE(t->Put("x", "1").ok());
  ASSERT_EQ(notifier->calls, 1);
  ASSERT_NE(t->GetSnapshot(), nullptr);
  EXPECT_EQ(notifier->last, t->GetSnapshot());
  std::shared_ptr<const Snapshot> shared = t->GetTimestampedSnapshot();
  EXPECT_EQ(shared.get(), t->GetSnapshot());
  ASSERT_TRUE(db_->Put(WriteOptions(), "k", "after").ok());
  ASSERT_TRUE(t->Put("y", "1").ok());
  EXPECT_EQ(notifier->calls, 1);
  t->ClearSnapshot();
  ReadOptions ro;
  ro.snapshot = shared.get();
  std::string v;
  ASSERT_TRUE(db_->Get(ro, "k", &v).ok());
  EXPECT_EQ(v, "before");
  shared.reset();
  ASSERT_TRUE(t->Commit().ok());
}

// Changes through GetWriteOptions reach Commit (a refused field is
// refused there); SetWriteOptions replaces them.
TEST_F(TxnSurfaceTest, WriteOptionsReachCommit) {
  OpenTxnDB();
  std::unique_ptr<Transaction> t(db_->BeginTransaction(WriteOptions()));
  ASSERT_TRUE(t->Put("a", "1").ok());
  t->GetWriteOptions()->rate_limiter_priority = Env::IO_HIGH;
  Status s = t->Commit();
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("rate_limiter_priority"), std::string::npos) << s.ToString();
  WriteOptions plain;
  t->SetWriteOptions(plain);
  EXPECT_EQ(t->GetWriteOptions()->rate_limiter_priority, Env::IO_TOTAL);
  ASSERT_TRUE(t->Commit().ok());
  EXPECT_EQ(Read("a"), "1");
  // Begun again with other options: those are the ones returned.
  WriteOptions synced;
  synced.sync = true;
  Transaction* again = db_->BeginTransaction(synced, TransactionOptions(), t.get());
  EXPECT_EQ(again, t.get());
  EXPECT_TRUE(t->GetWriteOptions()->sync);
  EXPECT_EQ(t->GetCommitTimestamp(), kMaxTxnTimestamp);
  ASSERT_TRUE(t->Rollback().ok());
}

// Strata has no timestamped commit snapshots: CommitAndTryCreateSnapshot
// checks the timestamps as RocksDB, then refuses, naming itself, without
// committing.
TEST_F(TxnSurfaceTest, CommitAndTryCreateSnapshotRefusesWithoutCommitting) {
  OpenTxnDB();
  std::unique_ptr<Transaction> t(db_->BeginTransaction(WriteOptions()));
  ASSERT_TRUE(t->Put("a", "1").ok());
  TransactionDB* db = db_;
  std::shared_ptr<const Snapshot> snapshot(db->GetSnapshot(),
                                           [db](const Snapshot* p) { db->ReleaseSnapshot(p); });
  Status s = t->CommitAndTryCreateSnapshot(nullptr, kMaxTxnTimestamp, &snapshot);
  EXPECT_EQ(s.ToString(), "Invalid argument: Commit timestamp unset");
  s = t->CommitAndTryCreateSnapshot(std::make_shared<CountingNotifier>(), 100, &snapshot);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(s.ToString().find("CommitAndTryCreateSnapshot"), std::string::npos);
  EXPECT_EQ(snapshot, nullptr);
  EXPECT_EQ(t->GetCommitTimestamp(), 100u);  // set on the way, as in RocksDB
  EXPECT_EQ(t->GetState(), Transaction::STARTED);
  EXPECT_TRUE(Read("a").find("NotFound") != std::string::npos);
  ASSERT_TRUE(t->Commit().ok());
  EXPECT_EQ(Read("a"), "1");
}

// Range locks and custom lock managers do not exist: refused by name.
TEST_F(TxnSurfaceTest, RangeLockingRefused) {
  EXPECT_EQ(NewRangeLockManager(nullptr), nullptr);
  struct Handle : LockManagerHandle {
    LockManager* getLockManager() override { return nullptr; }
  };
  TransactionDBOptions with_handle;
  with_handle.lock_mgr_handle = std::make_shared<Handle>();
  Status s = TransactionDB::Open(options_, with_handle, path_, &db_);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(s.ToString().find("lock_mgr_handle"), std::string::npos);
  EXPECT_EQ(db_, nullptr);

  // The WRITE_PREPARED-only rollback options change nothing under
  // WRITE_COMMITTED: accepted.
  TransactionDBOptions rollback_opts;
  rollback_opts.rollback_merge_operands = true;
  int callback_calls = 0;
  rollback_opts.rollback_deletion_type_callback = [&](TransactionDB*, ColumnFamilyHandle*,
                                                      const Slice&) {
    ++callback_calls;
    return true;
  };
  OpenTxnDB(rollback_opts);
  std::unique_ptr<Transaction> t(db_->BeginTransaction(WriteOptions()));
  s = t->GetRangeLock(nullptr, Endpoint("a"), Endpoint("b", true));
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  ASSERT_TRUE(t->Put("a", "1").ok());
  ASSERT_TRUE(t->Rollback().ok());
  EXPECT_EQ(callback_calls, 0);

  std::vector<ColumnFamilyDescriptor> cfs;
  DBOptions dbo;
  std::vector<size_t> indices;
  TransactionDB::PrepareWrap(&dbo, &cfs, &indices);
  EXPECT_TRUE(cfs.empty());
  TransactionDB* wrapped = reinterpret_cast<TransactionDB*>(1);
  s = TransactionDB::WrapDB(db_, TransactionDBOptions(), indices, {}, &wrapped);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(s.ToString().find("WrapDB"), std::string::npos);
  EXPECT_EQ(wrapped, nullptr);
  s = TransactionDB::WrapStackableDB(db_, TransactionDBOptions(), indices, {}, &wrapped);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(s.ToString().find("WrapStackableDB"), std::string::npos);

  RangeDeadlockPath path;
  EXPECT_TRUE(path.empty());
  DeadlockPath limited(0, true);
  EXPECT_FALSE(limited.empty());
}

// Lock status names the holder; the optimizations skip locking.
TEST_F(TxnSurfaceTest, LockStatusAndWriteOptimizations) {
  TransactionDBOptions txn_options;
  txn_options.default_lock_timeout = 10;
  OpenTxnDB(txn_options);
  std::unique_ptr<Transaction> t(db_->BeginTransaction(WriteOptions()));
  ASSERT_TRUE(t->Put("held", "t").ok());
  std::string v;
  ASSERT_TRUE(t->GetForUpdate(ReadOptions(), "shared", &v, /*exclusive=*/false).IsNotFound());
  auto locks = db_->GetLockStatusData();
  ASSERT_EQ(locks.size(), 2u);
  for (const auto& [cf, info] : locks) {
    EXPECT_EQ(cf, 0u);
    EXPECT_EQ(info.ids, std::vector<TransactionID>({t->GetID()}));
    EXPECT_EQ(info.exclusive, info.key == "held") << info.key;
  }
  WriteBatch batch;
  ASSERT_TRUE(batch.Put("held", "batch").ok());
  EXPECT_TRUE(db_->Write(WriteOptions(), TransactionDBWriteOptimizations(), &batch).IsTimedOut());
  TransactionDBWriteOptimizations skip;
  skip.skip_concurrency_control = true;
  ASSERT_TRUE(db_->Write(WriteOptions(), skip, &batch).ok());
  EXPECT_EQ(Read("held"), "batch");
  WriteOptions refused;
  refused.rate_limiter_priority = Env::IO_HIGH;
  EXPECT_TRUE(db_->Write(refused, skip, &batch).IsInvalidArgument());
  ASSERT_TRUE(t->Rollback().ok());
  EXPECT_TRUE(db_->GetLockStatusData().empty());
}

// Optimistic transactions refuse timestamps as RocksDB's.
TEST_F(TxnSurfaceTest, OptimisticTimestampsNotSupported) {
  OptimisticTransactionDB* occ = nullptr;
  ASSERT_TRUE(OptimisticTransactionDB::Open(options_, path_, &occ).ok());
  std::unique_ptr<OptimisticTransactionDB> hold(occ);
  std::unique_ptr<Transaction> t(occ->BeginTransaction(WriteOptions()));
  EXPECT_EQ(t->SetCommitTimestamp(1).ToString(), "Not implemented: timestamp not supported");
  EXPECT_EQ(t->SetReadTimestampForValidation(1).ToString(),
            "Not implemented: timestamp not supported");
  EXPECT_TRUE(t->CommitAndTryCreateSnapshot(nullptr, 5).IsNotSupported());
  EXPECT_TRUE(t->GetRangeLock(nullptr, Endpoint("a"), Endpoint("b")).IsNotSupported());
  EXPECT_FALSE(t->IsDeadlockDetect());
  Slice k[2] = {"p", "q"};
  ASSERT_TRUE(t->Put(SliceParts(k, 2), SliceParts(k, 1)).ok());
  ASSERT_TRUE(t->Commit().ok());
  std::string v;
  ASSERT_TRUE(occ->Get(ReadOptions(), "pq", &v).ok());
  EXPECT_EQ(v, "p");
}

// Timestamped snapshots: held by the DB's list until released; a holder
// keeps its snapshot readable after the release.
TEST_F(TxnSurfaceTest, TimestampedSnapshotsFollowRocksDBRules) {
  OpenTxnDB();
  ASSERT_TRUE(db_->Put(WriteOptions(), "k", "1").ok());
  auto [s1, snap1] = db_->CreateTimestampedSnapshot(1);
  ASSERT_TRUE(s1.ok()) << s1.ToString();
  EXPECT_EQ(db_->CreateTimestampedSnapshot(1).second, snap1);
  ASSERT_TRUE(db_->Put(WriteOptions(), "k", "2").ok());
  Status s = db_->CreateTimestampedSnapshot(1).first;
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("same timestamp 1"), std::string::npos) << s.ToString();
  EXPECT_EQ(db_->GetLatestTimestampedSnapshot(), snap1);
  db_->ReleaseTimestampedSnapshotsOlderThan(2);
  EXPECT_EQ(db_->GetLatestTimestampedSnapshot(), nullptr);
  std::vector<std::shared_ptr<const Snapshot>> all = {snap1};
  ASSERT_TRUE(db_->GetAllTimestampedSnapshots(all).ok());
  EXPECT_TRUE(all.empty());
  ReadOptions ro;
  ro.snapshot = snap1.get();
  std::string v;
  ASSERT_TRUE(db_->Get(ro, "k", &v).ok());
  EXPECT_EQ(v, "1");
  // After the release a lower timestamp is accepted again.
  auto [s0, snap0] = db_->CreateTimestampedSnapshot(0);
  EXPECT_TRUE(s0.ok()) << s0.ToString();
  snap0.reset();
  snap1.reset();
}

// WriteBatch's full constructor: a batch asking for protection is refused
// by Write, naming the argument; the content flags are the records'.
TEST_F(TxnSurfaceTest, WriteBatchProtectionAndFlags) {
  OpenTxnDB();
  WriteBatch protected_batch(0, 0, 8, 0);
  ASSERT_TRUE(protected_batch.Put("p", "1").ok());
  EXPECT_EQ(protected_batch.GetProtectionBytesPerKey(), 8u);
  EXPECT_TRUE(protected_batch.VerifyChecksum().IsNotSupported());
  Status s = db_->Write(WriteOptions(), &protected_batch);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(s.ToString().find("protection_bytes_per_key"), std::string::npos);
  EXPECT_TRUE(Read("p").find("NotFound") != std::string::npos);
  WriteBatch b;
  ASSERT_TRUE(b.SingleDelete("x").ok());
  EXPECT_TRUE(b.HasSingleDelete());
  EXPECT_FALSE(b.HasPut());
  EXPECT_FALSE(b.HasCommit());
  // MultiGetFromBatchAndDB at one point of the DB.
  ASSERT_TRUE(db_->Put(WriteOptions(), "a", "db").ok());
  WriteBatchWithIndex wbwi;
  ASSERT_TRUE(wbwi.Merge("b", "m").ok());
  Slice keys[2] = {"a", "b"};
  PinnableSlice values[2];
  Status statuses[2];
  wbwi.MultiGetFromBatchAndDB(db_, ReadOptions(), db_->DefaultColumnFamily(), 2, keys, values,
                              statuses, true);
  EXPECT_TRUE(statuses[0].ok());
  EXPECT_EQ(values[0].ToString(), "db");
  // A merge operand without a merge operator cannot be resolved.
  EXPECT_FALSE(statuses[1].ok());
}

// BackupEngine: the rate limiter objects are refused by name; the other
// new members work (full constructor, Dump, CPU priority, the
// append-only base, the progress-callback forms).
TEST_F(TxnSurfaceTest, BackupEngineMembers) {
  OpenTxnDB();
  ASSERT_TRUE(db_->Put(WriteOptions(), "k", "v").ok());
  const std::string backup_dir = path_ + "_backup";
  BackupEngineOptions limited(backup_dir);
  limited.backup_rate_limiter.reset(NewGenericRateLimiter(1 << 20));
  BackupEngine* engine = nullptr;
  Status s = BackupEngine::Open(limited, Env::Default(), &engine);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(s.ToString().find("backup_rate_limiter"), std::string::npos);
  EXPECT_EQ(engine, nullptr);
  BackupEngineOptions restore_limited(backup_dir);
  restore_limited.restore_rate_limiter.reset(NewGenericRateLimiter(1 << 20));
  BackupEngineReadOnly* reader = nullptr;
  s = BackupEngineReadOnly::Open(restore_limited, Env::Default(), &reader);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(s.ToString().find("restore_rate_limiter"), std::string::npos);

  struct Lines : Logger {
    std::vector<std::string> lines;
    void Logv(const InfoLogLevel, const char* format, va_list ap) override {
      char buf[512];
      vsnprintf(buf, sizeof(buf), format, ap);
      lines.emplace_back(buf);
    }
  };
  BackupEngineOptions options(backup_dir, nullptr, true, nullptr, true, true, true, 0, 0, 2, 1024,
                              INT_MAX, BackupEngineOptions::kLegacyCrc32cAndFileSize);
  options.current_temperatures_override_manifest = true;  // advisory
  Lines lines;
  options.Dump(&lines);
  ASSERT_GE(lines.lines.size(), 10u);
  EXPECT_NE(lines.lines[0].find(backup_dir), std::string::npos) << lines.lines[0];
  EXPECT_NE(lines.lines.back().find("max_background_operations: 2"), std::string::npos);
  options.Dump(nullptr);

  ASSERT_TRUE(BackupEngine::Open(options, Env::Default(), &engine).ok());
  std::unique_ptr<BackupEngine> hold(engine);
  BackupEngineAppendOnlyBase* appender = engine;
  int progress = 0;
  ASSERT_TRUE(appender->CreateNewBackup(db_, true, [&progress] { ++progress; }).ok());
  CreateBackupOptions cbo;
  cbo.decrease_background_thread_cpu_priority = true;
  cbo.background_thread_cpu_priority = CpuPriority::kLow;
  BackupID id = 0;
  ASSERT_TRUE(db_->Put(WriteOptions(), "k2", "v2").ok());
  ASSERT_TRUE(appender->CreateNewBackupWithMetadata(cbo, db_, "meta", &id).ok());
  EXPECT_EQ(id, 2u);
  BackupInfo info;
  ASSERT_TRUE(engine->GetBackupInfo(id, &info, true).ok());
  EXPECT_EQ(info.app_metadata, "meta");
  EXPECT_EQ(info.env_for_open, nullptr);
  ASSERT_FALSE(info.file_details.empty());
  // Legacy naming: shared_checksum/<number>_<crc32c>_<size>.sst.
  bool legacy_named = false;
  for (const auto& f : info.file_details) {
    if (f.relative_filename.rfind("shared_checksum/", 0) == 0) {
      legacy_named = f.relative_filename.find("_s") == std::string::npos;
    }
  }
  EXPECT_TRUE(legacy_named);
  std::vector<BackupInfo> infos;
  engine->GetBackupInfo(&infos);
  ASSERT_EQ(infos.size(), 2u);
  EXPECT_EQ(infos[1].app_metadata, "meta");
  ASSERT_TRUE(appender->GarbageCollect().ok());
  const std::string restored = path_ + "_restored";
  ASSERT_TRUE(engine->RestoreDBFromLatestBackup(restored, restored).ok());
  DB* copy = nullptr;
  ASSERT_TRUE(DB::Open(Options(), restored, &copy).ok());
  std::string v;
  ASSERT_TRUE(copy->Get(ReadOptions(), "k2", &v).ok());
  EXPECT_EQ(v, "v2");
  delete copy;
  hold.reset();
  EXPECT_TRUE(DestroyDB(restored, Options()).ok());
}

// transaction_log.h: BatchResult moves (not copies) its batch.
TEST_F(TxnSurfaceTest, BatchResultMoves) {
  BatchResult a;
  a.sequence = 7;
  a.writeBatchPtr.reset(new WriteBatch());
  ASSERT_TRUE(a.writeBatchPtr->Put("k", "v").ok());
  BatchResult b(std::move(a));
  EXPECT_EQ(b.sequence, 7u);
  ASSERT_NE(b.writeBatchPtr, nullptr);
  EXPECT_EQ(a.writeBatchPtr, nullptr);
  BatchResult c;
  c = std::move(b);
  EXPECT_EQ(c.sequence, 7u);
  EXPECT_EQ(c.writeBatchPtr->Count(), 1u);
}

}  // namespace
}  // namespace rocksdb
