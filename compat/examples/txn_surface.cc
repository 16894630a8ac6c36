// txn_surface: the less common members of RocksDB's transaction, batch and
// backup interfaces -- WriteBatch content flags, SliceParts writes in a
// transaction, the snapshot notifier, a transaction's write options,
// commit timestamps, range locks (refused by point locking), lock status,
// TransactionDB::Write with optimizations, timestamped snapshots,
// WriteBatchWithIndex::MultiGetFromBatchAndDB, BackupEngineOptions'
// naming flags and BackupStatistics. Built twice (RocksDB, Strata) and
// compared byte for byte.
// Usage: txn_surface DB_DIR
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/merge_operator.h"
#include "rocksdb/options.h"
#include "rocksdb/utilities/backup_engine.h"
#include "rocksdb/utilities/optimistic_transaction_db.h"
#include "rocksdb/utilities/transaction.h"
#include "rocksdb/utilities/transaction_db.h"
#include "rocksdb/utilities/write_batch_with_index.h"
#include "rocksdb/write_batch.h"

namespace rdb = ROCKSDB_NAMESPACE;

static void Check(const rdb::Status& s, const char* what) {
  if (!s.ok()) {
    std::printf("FAILED %s: %s\n", what, s.ToString().c_str());
    std::exit(1);
  }
}

static std::string Read(rdb::DB* db, const std::string& key,
                        const rdb::Snapshot* snapshot = nullptr) {
  rdb::ReadOptions ro;
  ro.snapshot = snapshot;
  std::string v;
  rdb::Status s = db->Get(ro, key, &v);
  return s.ok() ? v : (s.IsNotFound() ? "<none>" : "<error " + s.ToString() + ">");
}

static std::string Flags(const rdb::WriteBatch& b) {
  std::string f;
  f += b.HasPut() ? "P" : "-";
  f += b.HasDelete() ? "D" : "-";
  f += b.HasSingleDelete() ? "S" : "-";
  f += b.HasDeleteRange() ? "R" : "-";
  f += b.HasMerge() ? "M" : "-";
  f += b.HasBeginPrepare() ? "B" : "-";
  f += b.HasEndPrepare() ? "E" : "-";
  f += b.HasCommit() ? "C" : "-";
  f += b.HasRollback() ? "X" : "-";
  f += b.HasPutEntity() ? "W" : "-";
  return f;
}

static const char* Code(const rdb::Status& s) {
  if (s.ok()) return "OK";
  if (s.IsNotSupported()) return "NotSupported";
  if (s.IsInvalidArgument()) return "InvalidArgument";
  if (s.IsTimedOut()) return "TimedOut";
  if (s.IsBusy()) return "Busy";
  if (s.IsNotFound()) return "NotFound";
  return "other";
}

class Notifier : public rdb::TransactionNotifier {
 public:
  void SnapshotCreated(const rdb::Snapshot* snapshot) override {
    ++calls;
    last = snapshot;
  }
  int calls = 0;
  const rdb::Snapshot* last = nullptr;
};

static void WriteBatchFlags() {
  rdb::WriteBatch empty;
  std::printf("flags empty: %s\n", Flags(empty).c_str());
  rdb::WriteBatch log_only;
  Check(log_only.PutLogData("blob"), "log data");
  std::printf("flags log data: %s\n", Flags(log_only).c_str());
  rdb::WriteBatch put;
  Check(put.Put("a", "1"), "put");
  std::printf("flags put: %s\n", Flags(put).c_str());
  rdb::WriteBatch del;
  Check(del.Delete("a"), "delete");
  std::printf("flags delete: %s\n", Flags(del).c_str());
  rdb::WriteBatch sdel;
  Check(sdel.SingleDelete("a"), "single delete");
  std::printf("flags single delete: %s\n", Flags(sdel).c_str());
  rdb::WriteBatch range;
  Check(range.DeleteRange("a", "b"), "delete range");
  std::printf("flags delete range: %s\n", Flags(range).c_str());
  rdb::WriteBatch merge;
  Check(merge.Merge("a", "x"), "merge");
  std::printf("flags merge: %s\n", Flags(merge).c_str());

  rdb::WriteBatch mixed;
  Check(mixed.Put("a", "1"), "put");
  mixed.SetSavePoint();
  Check(mixed.Delete("b"), "delete");
  Check(mixed.Merge("c", "2"), "merge");
  std::printf("flags mixed: %s\n", Flags(mixed).c_str());
  rdb::WriteBatch from_bytes(mixed.Data());
  std::printf("flags from bytes: %s\n", Flags(from_bytes).c_str());
  rdb::WriteBatch copy(mixed);
  std::printf("flags copy: %s\n", Flags(copy).c_str());
  Check(mixed.RollbackToSavePoint(), "rollback to save point");
  std::printf("flags after rollback: %s\n", Flags(mixed).c_str());
  mixed.MarkWalTerminationPoint();
  const rdb::SavePoint& wp = mixed.GetWalTerminationPoint();
  std::printf("wal termination point: count %d, cleared %d\n", wp.count,
              static_cast<int>(wp.is_cleared()));
  mixed.Clear();
  std::printf("flags cleared: %s, termination point cleared %d\n", Flags(mixed).c_str(),
              static_cast<int>(mixed.GetWalTerminationPoint().is_cleared()));

  rdb::WriteBatch full(0, 0, 0, 0);
  Check(full.Put("k", "v"), "put");
  std::printf("full constructor: protection %zu, verify %s, count %d\n",
              full.GetProtectionBytesPerKey(), Code(full.VerifyChecksum()),
              static_cast<int>(full.Count()));
  rdb::Status ts = full.UpdateTimestamps("12345678", [](uint32_t) -> size_t { return 0; });
  std::printf("update timestamps without timestamped families: %s, data kept %d\n", Code(ts),
              static_cast<int>(full.Count() == 1));
}

static void PessimisticSurface(const std::string& path, const rdb::Options& options) {
  rdb::TransactionDBOptions txn_db_options;
  txn_db_options.default_lock_timeout = 20;
  txn_db_options.transaction_lock_timeout = 20;
  rdb::TransactionDB* db = nullptr;
  Check(rdb::TransactionDB::Open(options, txn_db_options, path + "_pessimistic", &db), "open");

  // SliceParts writes: the parts concatenated.
  rdb::TransactionOptions txn_options;
  txn_options.deadlock_detect = true;
  rdb::Transaction* txn = db->BeginTransaction(rdb::WriteOptions(), txn_options);
  rdb::Slice key_parts[2] = {"ke", "y1"};
  rdb::Slice value_parts[3] = {"va", "l", "ue"};
  Check(txn->Put(rdb::SliceParts(key_parts, 2), rdb::SliceParts(value_parts, 3)), "put parts");
  rdb::Slice key2[2] = {"ke", "y2"};
  Check(txn->PutUntracked(rdb::SliceParts(key2, 2), rdb::SliceParts(value_parts, 3)),
        "put untracked parts");
  std::string v;
  Check(txn->Get(rdb::ReadOptions(), "key1", &v), "get key1");
  std::printf("txn reads key1=%s\n", v.c_str());
  std::printf("deadlock detect %d, waiting for %zu\n", static_cast<int>(txn->IsDeadlockDetect()),
              txn->GetWaitingTxns(nullptr, nullptr).size());
  std::printf("commit timestamp unset: %d\n",
              static_cast<int>(txn->GetCommitTimestamp() == rdb::kMaxTxnTimestamp));
  rdb::Status s = txn->CommitAndTryCreateSnapshot();
  std::printf("commit-and-snapshot without a timestamp: %s\n", s.ToString().c_str());
  Check(txn->SetCommitTimestamp(40), "set commit timestamp");
  s = txn->CommitAndTryCreateSnapshot(nullptr, 41);
  std::printf("commit-and-snapshot with another timestamp: %s\n", s.ToString().c_str());
  Check(txn->SetReadTimestampForValidation(50), "set read timestamp");
  s = txn->SetCommitTimestamp(45);
  std::printf("commit timestamp below the read one: %s\n", s.ToString().c_str());
  s = txn->SetReadTimestampForValidation(49);
  std::printf("read timestamp going down: %s\n", s.ToString().c_str());
  s = txn->GetRangeLock(nullptr, rdb::Endpoint("a"), rdb::Endpoint("b", true));
  std::printf("range lock: %s\n", Code(s));
  Check(txn->Commit(), "commit");
  std::printf("after commit: key1=%s key2=%s\n", Read(db, "key1").c_str(),
              Read(db, "key2").c_str());
  delete txn;

  // Deletes by parts, tracked and untracked.
  txn = db->BeginTransaction(rdb::WriteOptions());
  Check(txn->Delete(rdb::SliceParts(key_parts, 2)), "delete parts");
  Check(txn->DeleteUntracked(rdb::SliceParts(key2, 2)), "delete untracked parts");
  Check(txn->SingleDeleteUntracked("nothing"), "single delete untracked");
  Check(txn->Commit(), "commit deletes");
  std::printf("after deletes: key1=%s key2=%s\n", Read(db, "key1").c_str(),
              Read(db, "key2").c_str());
  delete txn;

  // The notifier is told of the snapshot when the next write takes it.
  auto notifier = std::make_shared<Notifier>();
  txn = db->BeginTransaction(rdb::WriteOptions());
  txn->SetSnapshotOnNextOperation(notifier);
  std::printf("notifier before the write: %d calls, snapshot %d\n", notifier->calls,
              static_cast<int>(txn->GetSnapshot() != nullptr));
  Check(txn->Put("n", "1"), "put n");
  std::printf("notifier after the write: %d calls, same snapshot %d, shared same %d\n",
              notifier->calls, static_cast<int>(notifier->last == txn->GetSnapshot()),
              static_cast<int>(txn->GetTimestampedSnapshot().get() == txn->GetSnapshot()));
  Check(txn->Put("m", "1"), "put m");
  std::printf("notifier after another write: %d calls\n", notifier->calls);
  Check(txn->Commit(), "commit");
  std::printf("n=%s m=%s\n", Read(db, "n").c_str(), Read(db, "m").c_str());
  delete txn;

  // The transaction's write options reach its commit.
  txn = db->BeginTransaction(rdb::WriteOptions());
  Check(txn->Put("wo", "1"), "put wo");
  txn->GetWriteOptions()->sync = true;
  txn->GetWriteOptions()->disableWAL = true;
  s = txn->Commit();
  std::printf("commit with sync and no WAL: %s\n", Code(s));
  txn->SetWriteOptions(rdb::WriteOptions());
  std::printf("write options reset: sync %d\n", static_cast<int>(txn->GetWriteOptions()->sync));
  delete txn;

  // Lock status, and a batch written past a held lock only when told to
  // skip concurrency control.
  txn = db->BeginTransaction(rdb::WriteOptions());
  Check(txn->GetForUpdate(rdb::ReadOptions(), "locked", &v).IsNotFound()
            ? rdb::Status::OK()
            : rdb::Status::Corruption("expected NotFound"),
        "get for update");
  auto locks = db->GetLockStatusData();
  for (const auto& [cf, info] : locks) {
    std::printf("lock: cf %u key %s exclusive %d holders %zu\n", cf, info.key.c_str(),
                static_cast<int>(info.exclusive), info.ids.size());
  }
  rdb::WriteBatch batch;
  Check(batch.Put("locked", "by-batch"), "batch put");
  s = db->Write(rdb::WriteOptions(), &batch);
  std::printf("batch on a locked key: %s\n", Code(s));
  rdb::TransactionDBWriteOptimizations skip;
  skip.skip_concurrency_control = true;
  s = db->Write(rdb::WriteOptions(), skip, &batch);
  std::printf("batch skipping concurrency control: %s, locked=%s\n", Code(s),
              Read(db, "locked").c_str());
  Check(txn->Rollback(), "rollback");
  delete txn;
  std::printf("locks after rollback: %zu\n", db->GetLockStatusData().size());

  // Timestamped snapshots.
  Check(db->Put(rdb::WriteOptions(), "ts", "at-10"), "put ts");
  auto r10 = db->CreateTimestampedSnapshot(10);
  Check(r10.first, "create ts snapshot 10");
  auto again = db->CreateTimestampedSnapshot(10);
  std::printf("same timestamp, no write since: %s, same snapshot %d\n", Code(again.first),
              static_cast<int>(again.second == r10.second));
  auto lower = db->CreateTimestampedSnapshot(5);
  std::printf("lower timestamp: %s\n", lower.first.ToString().c_str());
  std::printf("max timestamp: %s\n",
              db->CreateTimestampedSnapshot(rdb::kMaxTxnTimestamp).first.ToString().c_str());
  Check(db->Put(rdb::WriteOptions(), "ts", "at-20"), "put ts");
  auto same_after_write = db->CreateTimestampedSnapshot(10);
  std::printf("same timestamp after a write: %s\n", Code(same_after_write.first));
  auto r20 = db->CreateTimestampedSnapshot(20);
  Check(r20.first, "create ts snapshot 20");
  std::printf("read at 10: %s, at 20: %s\n", Read(db, "ts", r10.second.get()).c_str(),
              Read(db, "ts", r20.second.get()).c_str());
  std::printf("latest is 20: %d, 10 found: %d, 15 found: %d\n",
              static_cast<int>(db->GetLatestTimestampedSnapshot() == r20.second),
              static_cast<int>(db->GetTimestampedSnapshot(10) == r10.second),
              static_cast<int>(db->GetTimestampedSnapshot(15) != nullptr));
  std::vector<std::shared_ptr<const rdb::Snapshot>> listed;
  Check(db->GetAllTimestampedSnapshots(listed), "all ts snapshots");
  std::printf("all: %zu\n", listed.size());
  Check(db->GetTimestampedSnapshots(11, 21, listed), "ts snapshots in range");
  std::printf("in [11, 21): %zu\n", listed.size());
  s = db->GetTimestampedSnapshots(20, 20, listed);
  std::printf("empty range: %s\n", s.ToString().c_str());
  db->ReleaseTimestampedSnapshotsOlderThan(15);
  std::printf("after release below 15: 10 found %d, 20 found %d\n",
              static_cast<int>(db->GetTimestampedSnapshot(10) != nullptr),
              static_cast<int>(db->GetTimestampedSnapshot(20) != nullptr));
  std::printf("still readable at 10 while held: %s\n", Read(db, "ts", r10.second.get()).c_str());
  r10.second.reset();
  again.second.reset();
  r20.second.reset();
  listed.clear();
  db->ReleaseTimestampedSnapshotsOlderThan(rdb::kMaxTxnTimestamp);

  // WriteBatchWithIndex over the DB, several keys at once.
  Check(db->Put(rdb::WriteOptions(), "w1", "db1"), "put w1");
  Check(db->Put(rdb::WriteOptions(), "w2", "db2"), "put w2");
  rdb::WriteBatchWithIndex wbwi;
  Check(wbwi.Put("w2", "batch2"), "wbwi put");
  Check(wbwi.Delete("w1"), "wbwi delete");
  Check(wbwi.Put("w3", "batch3"), "wbwi put");
  rdb::Slice keys[4] = {"w1", "w2", "w3", "w4"};
  rdb::PinnableSlice values[4];
  rdb::Status statuses[4];
  wbwi.MultiGetFromBatchAndDB(db, rdb::ReadOptions(), db->DefaultColumnFamily(), 4, keys, values,
                              statuses, false);
  for (int i = 0; i < 4; ++i) {
    std::printf("multiget %s: %s %s\n", keys[i].ToString().c_str(), Code(statuses[i]),
                statuses[i].ok() ? values[i].ToString().c_str() : "");
  }
  rdb::PinnableSlice tvalues[2];
  rdb::Status tstatuses[2];
  txn = db->BeginTransaction(rdb::WriteOptions());
  Check(txn->Put("w4", "txn4"), "txn put");
  txn->MultiGet(rdb::ReadOptions(), db->DefaultColumnFamily(), 2, keys + 2, tvalues, tstatuses,
                true);
  std::printf("txn multiget: %s %s / %s %s\n", Code(tstatuses[0]), tvalues[0].ToString().c_str(),
              Code(tstatuses[1]), tvalues[1].ToString().c_str());
  Check(txn->Rollback(), "rollback");
  delete txn;
  rdb::DeadlockPath no_deadlock;
  std::printf("empty deadlock path: %d\n", static_cast<int>(no_deadlock.empty()));
  delete db;
}

static void OptimisticSurface(const std::string& path, const rdb::Options& options) {
  rdb::OptimisticTransactionDB* db = nullptr;
  Check(rdb::OptimisticTransactionDB::Open(options, path + "_optimistic", &db), "open occ");
  rdb::Transaction* txn = db->BeginTransaction(rdb::WriteOptions());
  rdb::Slice key_parts[3] = {"o", "k", "1"};
  rdb::Slice value_parts[2] = {"v", "1"};
  Check(txn->Put(rdb::SliceParts(key_parts, 3), rdb::SliceParts(value_parts, 2)), "occ put");
  Check(txn->SingleDelete(rdb::SliceParts(key_parts, 1)), "occ single delete");
  std::printf("occ commit timestamp: %s\n", Code(txn->SetCommitTimestamp(7)));
  std::printf("occ read timestamp: %s\n", Code(txn->SetReadTimestampForValidation(7)));
  std::printf("occ commit-and-snapshot with a timestamp: %s\n",
              Code(txn->CommitAndTryCreateSnapshot(nullptr, 9)));
  std::printf("occ range lock: %s\n",
              Code(txn->GetRangeLock(nullptr, rdb::Endpoint("a"), rdb::Endpoint("b"))));
  Check(txn->Commit(), "occ commit");
  std::printf("ok1=%s\n", Read(db, "ok1").c_str());
  delete txn;
  delete db;
}

static void BackupSurface() {
  using BEO = rdb::BackupEngineOptions;
  BEO options("/nonexistent-backup-dir", nullptr, true, nullptr, true, false, true, 0, 0, 2, 1024,
              3, BEO::kLegacyCrc32cAndFileSize);
  std::printf("backup options: ops %d, interval %llu, open %d, naming %u\n",
              options.max_background_operations,
              static_cast<unsigned long long>(options.callback_trigger_interval_size),
              options.max_valid_backups_to_open,
              static_cast<unsigned>(options.share_files_with_checksum_naming));
  BEO::ShareFilesNaming naming = BEO::kUseDbSessionId | BEO::kFlagIncludeFileSize;
  std::printf("naming %u, scheme %u, flags %u\n", static_cast<unsigned>(naming),
              static_cast<unsigned>(naming & BEO::kMaskNoNamingFlags),
              static_cast<unsigned>(naming & BEO::kMaskNamingFlags));
  rdb::BackupStatistics stats;
  stats.IncrementNumberSuccessBackup();
  stats.IncrementNumberSuccessBackup();
  stats.IncrementNumberFailBackup();
  std::printf("%s\n", stats.ToString().c_str());
  std::printf("checksum names: %s %s\n", rdb::kDbFileChecksumFuncName,
              rdb::kBackupFileChecksumFuncName);
  rdb::BackupInfo info;
  std::printf("env_for_open null: %d\n", static_cast<int>(info.env_for_open == nullptr));
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const std::string path = argv[1];
  rdb::Options options;
  options.create_if_missing = true;
  WriteBatchFlags();
  PessimisticSurface(path, options);
  OptimisticSurface(path, options);
  BackupSurface();
  std::printf("done\n");
  return 0;
}
