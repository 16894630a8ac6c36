// Power-loss recovery tests over FaultInjectionFileSystem (on MemFileSystem).
//
// A scripted workload of Put/Delete with a mix of sync=true and sync=false
// writes runs with tiny write buffers and target sizes, so WALs roll,
// memtables flush, compactions run and the MANIFEST (and CURRENT) is
// replaced all the time. The file system is cut off ("crash") at the k-th
// mutating file operation -- inside a WAL append, a table write, a MANIFEST
// switch, a directory fsync, anything -- for a sample of k over the whole
// workload; then everything not made durable is dropped, the DB reopens and
// its contents are checked against a model of the acknowledged writes:
//
//  - the recovered state equals the model after some prefix P of the
//    acknowledged writes (plus possibly the one write in flight at the
//    crash), so unsynced writes survive only as a prefix and no deleted key
//    comes back;
//  - P covers the last acknowledged synced write: no synced write is lost.
//
// Environment: STRATA_FAULT_TEST_POINTS sets the number of crash points per
// walk (default 60); STRATA_TEST_SEED replays a run.

#include <algorithm>
#include <cinttypes>
#include <condition_variable>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "env/fault_injection_fs.h"
#include "strata/db.h"
#include "strata/env.h"
#include "strata/iterator.h"
#include "strata/options.h"
#include "strata/status.h"
#include "strata/table.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

constexpr char kDbName[] = "/db";

class NullLogger final : public Logger {
 public:
  void Logv(InfoLogLevel, const char*, va_list) override {}
};

// One scripted write.
struct Op {
  int key;
  bool del;
  bool sync;
  uint32_t version;
};

std::string Key(int k) {
  char buf[16];
  snprintf(buf, sizeof(buf), "key%05d", k);
  return buf;
}

std::string Value(int k, uint32_t version) {
  std::string v = "v" + std::to_string(k) + "." + std::to_string(version) + ":";
  v.append(60 + (k * 7 + version) % 80, static_cast<char>('a' + (k + version) % 26));
  return v;
}

struct WorkloadParams {
  int num_ops;
  int num_keys;
  int sync_one_in;    // a write is synced with probability 1/sync_one_in
  int delete_one_in;  // a write is a delete with probability 1/delete_one_in
};

std::vector<Op> MakeWorkload(const WorkloadParams& p, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Op> ops;
  std::vector<uint32_t> versions(p.num_keys, 0);
  for (int i = 0; i < p.num_ops; i++) {
    Op op;
    op.key = static_cast<int>(rng() % p.num_keys);
    op.del = rng() % p.delete_one_in == 0;
    op.sync = rng() % p.sync_one_in == 0;
    op.version = ++versions[op.key];
    ops.push_back(op);
  }
  return ops;
}

Options TinyOptions(Env* env) {
  Options o;
  o.env = env;
  o.create_if_missing = true;
  o.info_log = std::make_shared<NullLogger>();
  o.write_buffer_size = 4096;
  o.max_write_buffer_number = 3;
  o.target_file_size_base = 8 << 10;
  o.max_bytes_for_level_base = 16 << 10;
  o.max_bytes_for_level_multiplier = 4;
  o.level0_file_num_compaction_trigger = 2;
  o.level0_slowdown_writes_trigger = 8;
  o.level0_stop_writes_trigger = 16;
  o.num_levels = 4;
  o.max_background_jobs = 3;
  o.max_manifest_file_size = 4 << 10;  // MANIFEST and CURRENT switch often
  o.compression = kNoCompression;
  BlockBasedTableOptions t;
  t.block_size = 512;
  o.table_factory = NewBlockBasedTableFactory(t);
  return o;
}

// What one crashed run produced.
struct RunResult {
  uint64_t file_ops = 0;   // mutating file operations seen before the crash
  size_t acked = 0;        // ops[0, acked) were acknowledged
  bool in_flight = false;  // ops[acked] failed (it may or may not be durable)
  bool crashed = false;    // the fault fired during the workload
  std::string open_error;
};

// Runs ops against a fresh DB whose file system dies at file operation
// crash_at (never if crash_at is empty), then simulates power loss and
// reopens. On success *recovered holds the DB's contents.
void RunWithCrash(const std::vector<Op>& ops, std::optional<uint64_t> crash_at, RunResult* r,
                  std::map<std::string, std::string>* recovered) {
  auto base = NewMemFileSystem();
  auto fault = std::make_shared<FaultInjectionFileSystem>(base);
  {
    Env env(fault, SystemClock::Default());
    if (crash_at.has_value()) fault->FailAfter(*crash_at, FaultMode::kCrash);
    std::unique_ptr<DB> db;
    Status s = DB::Open(TinyOptions(&env), kDbName, &db);
    if (s.ok()) {
      for (const Op& op : ops) {
        WriteOptions wo;
        wo.sync = op.sync;
        s = op.del ? db->Delete(wo, Key(op.key))
                   : db->Put(wo, Key(op.key), Value(op.key, op.version));
        if (!s.ok()) {
          r->in_flight = true;
          break;
        }
        r->acked++;
      }
    }
    // The crash: whatever happens after this point never reaches the disk.
    r->crashed = !fault->IsFilesystemActive();
    r->file_ops = fault->mutating_ops();
    fault->SetFilesystemActive(false);
    if (db != nullptr) db->Close().PermitUncheckedError();
    db.reset();
    env.WaitForJobsAndJoinAllThreads();
  }
  ASSERT_OK(fault->DropUnsyncedData());
  if (getenv("STRATA_FAULT_TEST_DEBUG") != nullptr) {
    std::vector<std::string> names;
    ASSERT_OK(base->GetChildren(kDbName, &names));
    std::sort(names.begin(), names.end());
    for (const std::string& n : names) {
      uint64_t size = 0;
      base->GetFileSize(std::string(kDbName) + "/" + n, &size).PermitUncheckedError();
      printf("  after drop: %s %" PRIu64 "\n", n.c_str(), size);
    }
  }
  fault->ClearFailAfter();
  fault->SetFilesystemActive(true);

  Env env(fault, SystemClock::Default());
  std::unique_ptr<DB> db;
  Status s = DB::Open(TinyOptions(&env), kDbName, &db);
  if (!s.ok()) {
    r->open_error = "reopen failed: " + s.ToString();
    return;
  }
  recovered->clear();
  std::unique_ptr<Iterator> it = db->NewIterator(ReadOptions());
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    (*recovered)[it->key().ToString()] = it->value().ToString();
  }
  if (!it->status().ok()) {
    r->open_error = "scan after reopen failed: " + it->status().ToString();
    return;
  }
  it.reset();
  // Point reads agree with the scan.
  for (const auto& [k, v] : *recovered) {
    std::string got;
    s = db->Get(ReadOptions(), k, &got);
    if (!s.ok() || got != v) {
      r->open_error = "Get(" + k + ") after reopen: " + s.ToString() + " disagrees with the scan";
      return;
    }
  }
  ASSERT_OK(db->Close());
}

// Checks the recovered state against the model (see the file comment).
// Returns "" if it is the state after some allowed prefix, else a
// description of the damage.
std::string Verify(const std::vector<Op>& ops, const RunResult& r,
                   const std::map<std::string, std::string>& recovered) {
  size_t min_prefix = 0;  // one past the last acknowledged synced write
  for (size_t i = 0; i < r.acked; i++) {
    if (ops[i].sync) min_prefix = i + 1;
  }
  const size_t max_prefix = r.acked + (r.in_flight ? 1 : 0);
  for (const auto& [k, v] : recovered) {
    if (k.size() != 8 || k.compare(0, 3, "key") != 0) return "unexpected key " + k;
  }
  // model[key] after prefix P; mismatches counts keys where it differs.
  std::map<int, std::string> model;
  auto value_of = [&](int key) -> std::optional<std::string> {
    auto it = model.find(key);
    if (it == model.end()) return std::nullopt;
    return it->second;
  };
  auto recovered_of = [&](int key) -> std::optional<std::string> {
    auto it = recovered.find(Key(key));
    if (it == recovered.end()) return std::nullopt;
    return it->second;
  };
  auto apply = [&](const Op& op) {
    if (op.del) {
      model.erase(op.key);
    } else {
      model[op.key] = Value(op.key, op.version);
    }
  };
  for (size_t i = 0; i < min_prefix; i++) apply(ops[i]);
  std::map<int, bool> mismatch;  // keys that differ
  for (const auto& [k, v] : recovered) mismatch[atoi(k.c_str() + 3)] = true;
  for (const auto& [key, v] : model) mismatch[key] = true;
  size_t bad = 0;
  for (auto& [key, m] : mismatch) {
    m = value_of(key) != recovered_of(key);
    bad += m;
  }
  size_t best_bad = bad, best_p = min_prefix;
  for (size_t p = min_prefix;; p++) {
    if (bad == 0) return "";
    if (bad < best_bad) best_bad = bad, best_p = p;
    if (p == max_prefix) break;
    const Op& op = ops[p];
    const bool was = mismatch[op.key];
    apply(op);
    const bool now = value_of(op.key) != recovered_of(op.key);
    mismatch[op.key] = now;
    bad = bad - was + now;
  }
  // Describe the state against the closest prefix.
  model.clear();
  for (size_t i = 0; i < best_p; i++) apply(ops[i]);
  std::string msg = "recovered state is no allowed prefix: acked=" + std::to_string(r.acked) +
                    " in_flight=" + std::to_string(r.in_flight) +
                    " last_synced_prefix=" + std::to_string(min_prefix) + "; closest prefix " +
                    std::to_string(best_p) + " differs in " + std::to_string(best_bad) + " key(s):";
  int shown = 0;
  for (int key = 0; key < 100000 && shown < 8; key++) {
    auto want = value_of(key);
    auto got = recovered_of(key);
    if (want == got) continue;
    // The last op on the key within the acked history, to tell what it was.
    int last = -1;
    for (size_t i = 0; i < max_prefix; i++) {
      if (ops[i].key == key) last = static_cast<int>(i);
    }
    msg += " [" + Key(key) + " want=" + (want ? want->substr(0, 12) : "<none>") +
           " got=" + (got ? got->substr(0, 12) : "<none>");
    if (last >= 0) {
      msg += " last_op#" + std::to_string(last) + (ops[last].del ? " del" : " put") +
             (ops[last].sync ? " sync" : " nosync");
    }
    msg += "]";
    shown++;
  }
  return msg;
}

int CrashPoints() {
  const char* s = getenv("STRATA_FAULT_TEST_POINTS");
  return s != nullptr ? std::max(1, atoi(s)) : 60;
}

// Counts the workload's file operations, then crashes at a sample of them.
void CrashWalk(const WorkloadParams& p, const char* name) {
  const uint64_t seed = test::RandomSeed();
  const std::vector<Op> ops = MakeWorkload(p, seed);
  RunResult full;
  std::map<std::string, std::string> state;
  RunWithCrash(ops, std::nullopt, &full, &state);
  ASSERT_TRUE(full.open_error.empty()) << full.open_error;
  ASSERT_EQ(full.acked, ops.size());
  // A crash just after the workload is a crash point too (not fatal, so
  // the walk still runs).
  EXPECT_EQ(Verify(ops, full, state), "") << "crash after the whole workload, seed " << seed;
  const uint64_t total = full.file_ops;
  ASSERT_GT(total, 0u);

  std::mt19937_64 rng(seed ^ 0x5eed);
  const int points = CrashPoints();
  int walked = 0, crashed_in_workload = 0, failures = 0;
  std::map<std::string, int> kinds;
  const char* only = getenv("STRATA_FAULT_TEST_K");  // replays one crash point
  for (int i = 0; i < (only != nullptr ? 1 : points); i++) {
    // Evenly spread, jittered within each stride.
    const uint64_t stride = std::max<uint64_t>(1, total / points);
    uint64_t k = std::min<uint64_t>(total - 1, i * stride + rng() % stride);
    if (only != nullptr) k = strtoull(only, nullptr, 10);
    RunResult r;
    RunWithCrash(ops, k, &r, &state);
    walked++;
    crashed_in_workload += r.crashed;
    std::string err;
    if (!r.open_error.empty()) {
      err = r.open_error;
    } else {
      err = Verify(ops, r, state);
    }
    if (!err.empty()) {
      failures++;
      // Failures by kind, with the first few of each kind shown.
      const char* kind = err.find("No such file") != std::string::npos        ? "missing table file"
                         : err.find("no allowed prefix") != std::string::npos ? "not a prefix"
                         : err.find("reopen failed") != std::string::npos     ? "reopen failed"
                                                                              : "other";
      if (++kinds[kind] <= 3) {
        ADD_FAILURE() << name << ": crash at file op " << k << " of " << total << " (replay: "
                      << "STRATA_TEST_SEED=" << seed << " STRATA_FAULT_TEST_K=" << k
                      << "): " << err;
      }
    }
  }
  printf("%s: %" PRIu64
         " file ops in the workload, %d crash points walked (%d inside the "
         "workload), %d failed\n",
         name, total, walked, crashed_in_workload, failures);
  for (const auto& [kind, n] : kinds) printf("  %s: %d\n", kind.c_str(), n);
  EXPECT_EQ(failures, 0);
}

// A DB over a fault-injecting MemFileSystem, for the scripted cases below.
class DBPowerLossTest : public ::testing::Test {
 protected:
  DBPowerLossTest()
      : base_(NewMemFileSystem()), fault_(std::make_shared<FaultInjectionFileSystem>(base_)) {
    env_ = std::make_unique<Env>(fault_, SystemClock::Default());
    Options o = TinyOptions(env_.get());
    o.disable_auto_compactions = true;
    o.write_buffer_size = 64 << 10;
    EXPECT_OK(DB::Open(o, kDbName, &db_));
  }

  // Cuts the power: nothing more reaches the disk, the DB closes, unsynced
  // data is dropped and the DB reopens on what is left.
  void PowerLossAndReopen() {
    fault_->SetFilesystemActive(false);
    db_->Close().PermitUncheckedError();
    db_.reset();
    env_->WaitForJobsAndJoinAllThreads();
    env_.reset();
    ASSERT_OK(fault_->DropUnsyncedData());
    fault_->SetFilesystemActive(true);
    env_ = std::make_unique<Env>(fault_, SystemClock::Default());
    ASSERT_OK(DB::Open(TinyOptions(env_.get()), kDbName, &db_));
  }

  std::string Get(const std::string& k) {
    std::string v;
    Status s = db_->Get(ReadOptions(), k, &v);
    return s.ok() ? v : s.IsNotFound() ? "NOT_FOUND" : "ERROR: " + s.ToString();
  }

  ~DBPowerLossTest() override {
    if (db_ != nullptr) db_->Close().PermitUncheckedError();
    db_.reset();
    env_.reset();
  }

  std::shared_ptr<FileSystem> base_;
  std::shared_ptr<FaultInjectionFileSystem> fault_;
  std::unique_ptr<Env> env_;
  std::unique_ptr<DB> db_;
};

TEST_F(DBPowerLossTest, SyncedWritesSurvive) {
  WriteOptions sync;
  sync.sync = true;
  ASSERT_OK(db_->Put(sync, "a", "1"));
  ASSERT_OK(db_->Put(WriteOptions(), "b", "2"));
  ASSERT_OK(db_->Delete(sync, "a"));
  ASSERT_OK(db_->Put(sync, "c", "3"));
  ASSERT_OK(db_->Put(WriteOptions(), "d", "4"));  // unsynced: lost
  PowerLossAndReopen();
  EXPECT_EQ(Get("a"), "NOT_FOUND");
  EXPECT_EQ(Get("b"), "2");
  EXPECT_EQ(Get("c"), "3");
  EXPECT_EQ(Get("d"), "NOT_FOUND");
}

// ENGINE BUG (found by CrashWalk*): a flush (and likewise a compaction)
// syncs its table file and records it in the synced MANIFEST, but never
// fsyncs the DB directory, so after power loss the MANIFEST names a table
// whose directory entry is gone; the WAL that held the data is already
// obsolete. Open succeeds and the read fails with "No such file".
// (db/db_impl_compaction_flush.cc BackgroundFlush/RunCompaction: no
// db_dir_->Fsync() between the table outputs and LogAndApply.)
TEST_F(DBPowerLossTest, FlushedTableSurvivesPowerLoss) {
  WriteOptions sync;
  sync.sync = true;
  ASSERT_OK(db_->Put(sync, "a", "1"));
  ASSERT_OK(db_->Flush(FlushOptions()));
  PowerLossAndReopen();
  EXPECT_EQ(Get("a"), "1");
}

// ENGINE BUG (found by CrashWalk*): a memtable switch closes the old WAL
// without syncing it; a later sync write syncs only the new WAL. After power
// loss the earlier unsynced write is gone while the later synced one is
// back: a hole, not a prefix. (db/db_impl_compaction_flush.cc
// SwitchMemtable closes old_log without Sync; db/db_impl_write.cc
// WriteGroupToWAL syncs only log_.) The flush is held back so the old
// memtable stays unflushed.
TEST_F(DBPowerLossTest, SyncWriteAfterMemtableSwitchKeepsEarlierWrites) {
  std::mutex mu;
  std::condition_variable cv;
  bool release = false;
  // Occupy the single flush thread.
  env_->Schedule(
      [&]() {
        std::unique_lock<std::mutex> l(mu);
        cv.wait(l, [&] { return release; });
      },
      Env::Priority::kHigh);
  ASSERT_OK(db_->Put(WriteOptions(), "a", "1"));  // unsynced, in WAL #1
  FlushOptions no_wait;
  no_wait.wait = false;
  ASSERT_OK(db_->Flush(no_wait));  // switches to WAL #2; the flush waits
  WriteOptions sync;
  sync.sync = true;
  ASSERT_OK(db_->Put(sync, "b", "2"));  // synced in WAL #2
  fault_->SetFilesystemActive(false);   // the crash, before the flush runs
  {
    std::lock_guard<std::mutex> l(mu);
    release = true;
  }
  cv.notify_all();
  PowerLossAndReopen();
  EXPECT_EQ(Get("b"), "2");
  EXPECT_EQ(Get("a"), "1") << "an earlier write was lost while a later synced write survived";
}

TEST(DBFaultInjectionTest, CrashWalkMixedSync) {
  CrashWalk(WorkloadParams{1500, 200, 4, 5}, "mixed-sync");
}

TEST(DBFaultInjectionTest, CrashWalkAllSync) {
  CrashWalk(WorkloadParams{600, 100, 1, 4}, "all-sync");
}

TEST(DBFaultInjectionTest, CrashWalkNoSync) {
  CrashWalk(WorkloadParams{1500, 200, 1 << 30, 5}, "no-sync");
}

}  // namespace
}  // namespace strata
