// Fault walks: a scripted workload over FaultInjectionFileSystem (on
// MemFileSystem) runs once to count its file operations, then once per
// operation index with a fault injected exactly there, for each variant:
//
//  - eio-oneshot: that operation fails with IOError, later ones succeed;
//  - eio-sticky:  that operation and every later write-side one fail until
//                 the fault is cleared;
//  - enospc:      from that allocating operation on the disk is full
//                 (NoSpace) until the space "returns";
//  - eio-powerloss, enospc-powerloss: eio-oneshot / enospc, the run goes
//                 on after the resume, then the power fails at the end
//                 (DropUnsyncedData) and the DB reopens;
//  - crash:       the file system dies there (FaultMode::kCrash), then
//                 power loss (DropUnsyncedData) and reopen;
//  - read walks:  a DB is reopened, scanned and read key by key with an
//                 IOError / short read / flipped bit at each read;
//  - 2pc walks:   each write-side variant over a TransactionDB workload of
//                 two-phase transactions (Prepare and Commit/Rollback with
//                 sync, some left prepared): after the fault and a reopen,
//                 every acknowledged Prepare is prepared with exactly its
//                 writes or, once its Commit was acknowledged, committed;
//                 nothing is half-visible (see RunTxnWalk).
//
// The workload: open, single puts with and without sync, multi-key batches
// (with deletes), a flush, writes that overflow a tiny memtable (background
// flushes), CompactRange, MANIFEST switches (tiny max_manifest_file_size),
// close. Every value names its write, so the recovered state tells exactly
// which writes survived. The contract each run checks:
//
//  - a failing operation returns a non-OK Status (a crash or a hang fails
//    the test; a watchdog aborts a run stuck for 60 s and names it);
//  - acknowledged writes survive; a failed write may or may not, but a
//    failed batch is never partly visible; no deleted key comes back, no
//    value is wrong;
//  - after an error the DB refuses writes and serves reads (acknowledged
//    data); once the fault is cleared Resume() (or, for NoSpace, the
//    automatic resume) brings writes back, and in any case Close + reopen
//    shows every acknowledged write;
//  - crash: every acknowledged synced write survives and the unsynced ones
//    survive as a prefix (no hole);
//  - reads under a read fault return the right value, a right NotFound, or
//    a non-OK status other than NotFound -- never a wrong value, never a
//    NotFound for a key that exists.
//
// The closing lines of the output give, per variant, the fault points
// walked. A walk of more than 600 points is strided unless
// STRATA_FULL_WALK=1 (the workload has about 300: every point is walked).
// STRATA_FAULT_WALK_VERBOSE=1 prints each violation as found.

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "env/fault_injection_fs.h"
#include "strata/db.h"
#include "strata/env.h"
#include "strata/iterator.h"
#include "strata/options.h"
#include "strata/status.h"
#include "strata/table.h"
#include "strata/utilities/transaction_db.h"
#include "strata/utilities/write_batch_with_index.h"
#include "strata/write_batch.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

constexpr char kDbName[] = "/db";
constexpr char kProbePrefix[] = "zprobe";
constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

class NullLogger final : public Logger {
 public:
  void Logv(InfoLogLevel, const char*, va_list) override {}
};

bool FullWalk() {
  const char* v = getenv("STRATA_FULL_WALK");
  return v != nullptr && v[0] != '\0' && v[0] != '0';
}

bool Verbose() { return getenv("STRATA_FAULT_WALK_VERBOSE") != nullptr; }

// Aborts the process, naming the run, if it takes longer than the limit.
class Watchdog {
 public:
  Watchdog(std::string what, int seconds) : what_(std::move(what)) {
    thread_ = std::thread([this, seconds] {
      std::unique_lock<std::mutex> l(mu_);
      if (!cv_.wait_for(l, std::chrono::seconds(seconds), [this] { return done_; })) {
        fprintf(stderr, "HANG: %s did not finish in %d s\n", what_.c_str(), seconds);
        fflush(stderr);
        abort();
      }
    });
  }
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> l(mu_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

 private:
  const std::string what_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

// ---------------------------------------------------------------------------
// The script

struct KeyOp {
  std::string key;
  std::optional<std::string> value;  // nullopt: delete
};

struct ScriptWrite {
  std::vector<KeyOp> ops;  // one op: a single Put/Delete; more: a WriteBatch
  bool sync = false;
};

enum class StepKind { kWrite, kFlush, kCompact };

struct Step {
  StepKind kind;
  size_t write = 0;  // index into Script::writes for kWrite
};

struct Script {
  std::vector<ScriptWrite> writes;
  std::vector<Step> steps;
  std::set<std::string> keys;  // every key written
};

std::string Key(int k) {
  char buf[16];
  snprintf(buf, sizeof(buf), "key%03d", k);
  return buf;
}

// Unique per (write, key): the recovered value names the write it came from.
std::string Value(size_t write, const std::string& key, size_t len) {
  std::string v = "w" + std::to_string(write) + "." + key + ":";
  v.append(len + (write * 13) % 70, static_cast<char>('a' + write % 26));
  return v;
}

Script MakeScript() {
  Script s;
  auto put = [&s](int k, bool sync, size_t len = 90) {
    ScriptWrite w;
    w.ops.push_back({Key(k), Value(s.writes.size(), Key(k), len)});
    w.sync = sync;
    s.steps.push_back({StepKind::kWrite, s.writes.size()});
    s.keys.insert(Key(k));
    s.writes.push_back(std::move(w));
  };
  auto del = [&s](int k, bool sync) {
    ScriptWrite w;
    w.ops.push_back({Key(k), std::nullopt});
    w.sync = sync;
    s.steps.push_back({StepKind::kWrite, s.writes.size()});
    s.keys.insert(Key(k));
    s.writes.push_back(std::move(w));
  };
  auto batch = [&s](std::vector<int> keys, int delete_pos, bool sync) {
    ScriptWrite w;
    for (size_t i = 0; i < keys.size(); i++) {
      const std::string k = Key(keys[i]);
      if (static_cast<int>(i) == delete_pos) {
        w.ops.push_back({k, std::nullopt});
      } else {
        w.ops.push_back({k, Value(s.writes.size(), k, 90)});
      }
      s.keys.insert(k);
    }
    w.sync = sync;
    s.steps.push_back({StepKind::kWrite, s.writes.size()});
    s.writes.push_back(std::move(w));
  };
  // Phase 1: unsynced puts, a synced one, batches.
  for (int i = 0; i < 12; i++) put(i % 10, false);
  put(10, true);
  batch({1, 11, 12, 13}, -1, false);
  batch({2, 3, 14, 15}, 1, true);
  del(4, false);
  put(5, false);
  // Phase 2: an explicit flush.
  s.steps.push_back({StepKind::kFlush});
  // Phase 3: enough to overflow the memtable (background flush, L0
  // compaction); every 6th write synced; deletes of flushed keys.
  for (int i = 0; i < 30; i++) put(16 + i % 12, i % 6 == 5, 900);
  del(0, false);
  batch({6, 7, 16, 30}, 2, false);
  del(11, true);
  // Phase 4: compact everything.
  s.steps.push_back({StepKind::kCompact});
  // Phase 5: more writes after the compaction, ending with unsynced ones.
  batch({20, 21, 22}, 0, true);
  for (int i = 0; i < 6; i++) put(31 + i, false);
  del(5, false);
  put(0, false);
  return s;
}

Options WalkOptions(Env* env) {
  Options o;
  o.env = env;
  o.create_if_missing = true;
  o.info_log = std::make_shared<NullLogger>();
  o.write_buffer_size = 16 << 10;
  o.max_write_buffer_number = 3;
  o.target_file_size_base = 32 << 10;
  o.max_bytes_for_level_base = 256 << 10;
  o.level0_file_num_compaction_trigger = 2;
  o.level0_slowdown_writes_trigger = 20;
  o.level0_stop_writes_trigger = 30;
  o.num_levels = 3;
  o.max_background_jobs = 2;
  o.max_manifest_file_size = 256;  // a few MANIFEST switches
  o.compression = kNoCompression;
  o.table_mmap_reads = false;  // MemFileSystem has no maps anyway
  o.allow_mmap_reads = false;
  o.bgerror_resume_retry_interval = 10000;  // 10 ms
  o.max_bgerror_resume_count = 100;
  BlockBasedTableOptions t;
  t.block_size = 4096;
  o.table_factory = NewBlockBasedTableFactory(t);
  return o;
}

Status DoWrite(DB* db, const ScriptWrite& w) {
  WriteOptions wo;
  wo.sync = w.sync;
  if (w.ops.size() == 1) {
    const KeyOp& op = w.ops[0];
    return op.value.has_value() ? db->Put(wo, op.key, *op.value) : db->Delete(wo, op.key);
  }
  WriteBatch b;
  for (const KeyOp& op : w.ops) {
    if (op.value.has_value()) {
      EXPECT_OK(b.Put(op.key, *op.value));
    } else {
      EXPECT_OK(b.Delete(op.key));
    }
  }
  return db->Write(wo, &b);
}

// ---------------------------------------------------------------------------
// Checking states

enum class WriteResult { kNotRun, kAcked, kFailed };

// Reads the whole DB by a scan; checks every Get against it. Returns "" or
// an error description (a failed read with no fault injected on reads is
// an error).
std::string ReadAll(DB* db, const Script& script, std::map<std::string, std::string>* out) {
  out->clear();
  std::unique_ptr<Iterator> it = db->NewIterator(ReadOptions());
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    (*out)[it->key().ToString()] = it->value().ToString();
  }
  if (!it->status().ok()) return "scan failed: " + it->status().ToString();
  it.reset();
  for (const std::string& k : script.keys) {
    std::string v;
    Status s = db->Get(ReadOptions(), k, &v);
    auto found = out->find(k);
    if (s.IsNotFound()) {
      if (found != out->end()) return "Get(" + k + ") NotFound but the scan has it";
    } else if (!s.ok()) {
      return "Get(" + k + ") failed: " + s.ToString();
    } else if (found == out->end() || found->second != v) {
      return "Get(" + k + ") = " + v.substr(0, 12) + "... disagrees with the scan";
    }
  }
  return "";
}

std::string Show(const std::optional<std::string>& v) {
  if (!v.has_value()) return "<absent>";
  const size_t colon = v->find(':');
  return colon == std::string::npos ? v->substr(0, 16) : v->substr(0, colon);
}

// Non-crash contract: every acknowledged write is in the state; a failed
// write may be, but as a whole (batch atomicity). Returns "" or the damage.
std::string CheckAllAcked(const Script& script, const std::vector<WriteResult>& results,
                          const std::map<std::string, std::string>& state) {
  std::string errors;
  for (const auto& [k, v] : state) {
    if (k.compare(0, strlen(kProbePrefix), kProbePrefix) == 0) continue;
    if (script.keys.count(k) == 0) errors += "unexpected key " + k + "; ";
  }
  // explained[key] = the allowed writes (index, -1 = never written) that
  // explain the key's state.
  std::map<std::string, std::vector<long>> explained;
  for (const std::string& key : script.keys) {
    long last_acked = -1;
    std::vector<std::pair<long, std::optional<std::string>>> touches;
    for (size_t i = 0; i < script.writes.size(); i++) {
      for (const KeyOp& op : script.writes[i].ops) {
        if (op.key != key) continue;
        if (results[i] == WriteResult::kAcked) last_acked = static_cast<long>(i);
        if (results[i] != WriteResult::kNotRun)
          touches.emplace_back(static_cast<long>(i), op.value);
      }
    }
    auto it = state.find(key);
    const std::optional<std::string> got =
        it == state.end() ? std::nullopt : std::optional<std::string>(it->second);
    std::vector<long>& ex = explained[key];
    if (last_acked < 0 && !got.has_value()) ex.push_back(-1);
    std::optional<std::string> want;
    for (const auto& [i, value] : touches) {
      if (i < last_acked) continue;
      if (i == last_acked) want = value;
      if (value == got) ex.push_back(i);
    }
    if (ex.empty()) {
      const std::string kind = !got.has_value()                       ? "acknowledged write lost"
                               : !want.has_value() && last_acked >= 0 ? "deleted key resurrected"
                                                                      : "wrong value";
      errors += kind + ": " + key + " = " + Show(got) + ", want " + Show(want) + " (write #" +
                std::to_string(last_acked) + " acknowledged); ";
    }
  }
  // A failed batch is all-or-nothing.
  for (size_t b = 0; b < script.writes.size(); b++) {
    if (results[b] != WriteResult::kFailed || script.writes[b].ops.size() < 2) continue;
    bool visible = false, invisible = false;
    for (const KeyOp& op : script.writes[b].ops) {
      const std::vector<long>& ex = explained[op.key];
      if (ex.empty()) continue;
      if (ex.size() == 1 && ex[0] == static_cast<long>(b)) visible = true;
      if (*std::max_element(ex.begin(), ex.end()) < static_cast<long>(b)) invisible = true;
    }
    if (visible && invisible) {
      errors += "failed batch #" + std::to_string(b) + " partly visible; ";
    }
  }
  return errors;
}

// The state after the first p writes.
std::map<std::string, std::string> StateAfter(const Script& script, size_t p) {
  std::map<std::string, std::string> m;
  for (size_t i = 0; i < p; i++) {
    for (const KeyOp& op : script.writes[i].ops) {
      if (op.value.has_value()) {
        m[op.key] = *op.value;
      } else {
        m.erase(op.key);
      }
    }
  }
  return m;
}

// Crash contract: the state is the one after a prefix of the writes that
// covers every acknowledged synced write and ends at most at the first
// failed write.
std::string CheckPrefix(const Script& script, const std::vector<WriteResult>& results,
                        std::map<std::string, std::string> state) {
  for (auto it = state.begin(); it != state.end();) {
    it = it->first.compare(0, strlen(kProbePrefix), kProbePrefix) == 0 ? state.erase(it)
                                                                       : std::next(it);
  }
  size_t min_p = 0, max_p = 0;
  for (size_t i = 0; i < script.writes.size(); i++) {
    if (results[i] == WriteResult::kNotRun) break;
    if (results[i] == WriteResult::kFailed) {
      max_p = i + 1;
      break;
    }
    max_p = i + 1;
    if (script.writes[i].sync) min_p = i + 1;
  }
  for (size_t p = min_p; p <= max_p; p++) {
    if (StateAfter(script, p) == state) return "";
  }
  // Describe against the longest allowed prefix.
  std::string msg =
      "state is no allowed prefix [" + std::to_string(min_p) + ", " + std::to_string(max_p) + "]:";
  const auto want = StateAfter(script, max_p);
  const auto floor = StateAfter(script, min_p);
  int shown = 0;
  for (const std::string& k : script.keys) {
    auto g = state.find(k);
    auto w = want.find(k);
    auto f = floor.find(k);
    std::optional<std::string> gv, wv, fv;
    if (g != state.end()) gv = g->second;
    if (w != want.end()) wv = w->second;
    if (f != floor.end()) fv = f->second;
    if (gv != wv && gv != fv && shown++ < 4) {
      msg += " " + k + "=" + Show(gv) + " (synced floor " + Show(fv) + ", max " + Show(wv) + ")";
    }
  }
  return msg;
}

// Power loss after a run with failed writes: the state is the one after
// the acknowledged writes before some point P -- P past the last
// acknowledged synced write -- and any of the failed writes before P, each
// whole. (Up to 8 failed writes are enumerated; more are taken all-or-none.)
std::string CheckSyncedPrefix(const Script& script, const std::vector<WriteResult>& results,
                              std::map<std::string, std::string> state) {
  for (auto it = state.begin(); it != state.end();) {
    it = it->first.compare(0, strlen(kProbePrefix), kProbePrefix) == 0 ? state.erase(it)
                                                                       : std::next(it);
  }
  size_t min_p = 0, n = 0;
  for (size_t i = 0; i < script.writes.size(); i++) {
    if (results[i] == WriteResult::kNotRun) break;
    n = i + 1;
    if (results[i] == WriteResult::kAcked && script.writes[i].sync) min_p = i + 1;
  }
  for (size_t p = min_p; p <= n; p++) {
    std::vector<size_t> failed;
    for (size_t i = 0; i < p; i++) {
      if (results[i] == WriteResult::kFailed) failed.push_back(i);
    }
    const bool enumerate = failed.size() <= 8;
    const uint64_t subsets = enumerate ? uint64_t{1} << failed.size() : 2;
    for (uint64_t mask = 0; mask < subsets; mask++) {
      std::map<std::string, std::string> m;
      size_t f = 0;
      for (size_t i = 0; i < p; i++) {
        if (results[i] == WriteResult::kFailed) {
          const bool take = enumerate ? ((mask >> f) & 1) != 0 : mask != 0;
          f++;
          if (!take) continue;
        }
        for (const KeyOp& op : script.writes[i].ops) {
          if (op.value.has_value()) {
            m[op.key] = *op.value;
          } else {
            m.erase(op.key);
          }
        }
      }
      if (m == state) return "";
    }
  }
  std::string msg = "state is no allowed prefix [" + std::to_string(min_p) + ", " +
                    std::to_string(n) + "] (failed writes optional):";
  const auto floor = StateAfter(script, min_p);
  int shown = 0;
  for (const std::string& k : script.keys) {
    auto g = state.find(k);
    auto f = floor.find(k);
    std::optional<std::string> gv, fv;
    if (g != state.end()) gv = g->second;
    if (f != floor.end()) fv = f->second;
    if (gv != fv && shown++ < 4)
      msg += " " + k + "=" + Show(gv) + " (synced floor " + Show(fv) + ")";
  }
  return msg;
}

// ---------------------------------------------------------------------------
// Write-side walks

enum class Variant { kEioOneShot, kEioSticky, kNoSpace, kEioPowerLoss, kNoSpacePowerLoss, kCrash };

bool IsNoSpace(Variant v) { return v == Variant::kNoSpace || v == Variant::kNoSpacePowerLoss; }
bool LosesPower(Variant v) {
  return v == Variant::kEioPowerLoss || v == Variant::kNoSpacePowerLoss || v == Variant::kCrash;
}

const char* VariantName(Variant v) {
  switch (v) {
    case Variant::kEioOneShot:
      return "eio-oneshot";
    case Variant::kEioSticky:
      return "eio-sticky";
    case Variant::kNoSpace:
      return "enospc";
    case Variant::kEioPowerLoss:
      return "eio-powerloss";
    case Variant::kNoSpacePowerLoss:
      return "enospc-powerloss";
    case Variant::kCrash:
      return "crash";
  }
  return "?";
}

// Per-variant tallies, printed at the end of the binary.
struct Tally {
  uint64_t total_points = 0;   // operations counted in the fault-free run
  uint64_t walked = 0;         // fault points run
  uint64_t fired = 0;          // runs where the fault fired
  uint64_t errors_seen = 0;    // runs where the DB reported an error
  uint64_t resumed = 0;        // runs resumed (Resume or automatic)
  uint64_t auto_resumed = 0;   // of which automatically
  uint64_t resume_failed = 0;  // runs where Resume failed after the fault cleared
  uint64_t read_errors = 0;    // read walks: reads that returned an error
  std::vector<std::string> violations;
};

std::mutex g_tally_mu;
std::map<std::string, Tally> g_tallies;

void AddViolation(Tally* t, const std::string& what) {
  if (Verbose()) printf("VIOLATION %s\n", what.c_str());
  t->violations.push_back(what);
}

FaultOpMask WalkMask(Variant v) {
  constexpr FaultOpMask kWriteOps = kMutatingFaultOps | FaultOpBit(FaultOp::kAllocate);
  constexpr FaultOpMask kAllocating = FaultOpBit(FaultOp::kCreate) | FaultOpBit(FaultOp::kAppend) |
                                      FaultOpBit(FaultOp::kFlush) | FaultOpBit(FaultOp::kSync) |
                                      FaultOpBit(FaultOp::kAllocate) | FaultOpBit(FaultOp::kDirOp);
  return IsNoSpace(v) ? kAllocating : kWriteOps;
}

// What the fault-free run saw.
struct Census {
  uint64_t points = 0;  // matching operations of the variant's mask
  uint64_t mutating = 0;
  std::map<FaultOp, uint64_t> per_kind;
  std::map<std::string, uint64_t> per_type;  // by file type (a rename: its source)
};

// True if the DB reports a background error (strata.background-errors).
uint64_t BgErrors(DB* db) {
  uint64_t n = 0;
  if (!db->GetIntProperty("strata.background-errors", &n)) return 0;
  return n;
}

// Runs the script with the variant's fault at point (kNever: none).
// Appends contract violations to tally; fills census on a fault-free run.
void RunWriteWalk(const Script& script, Variant variant, uint64_t point, Tally* tally,
                  Census* census) {
  const std::string run = std::string(VariantName(variant)) + " point " +
                          (point == kNever ? std::string("none") : std::to_string(point));
  Watchdog watchdog(run, 60);
  auto base = NewMemFileSystem();
  auto fs = std::make_shared<FaultInjectionFileSystem>(base);
  fs->set_hide_mapped_contents(true);
  FaultSpec spec;
  spec.ops = WalkMask(variant);
  spec.countdown = point;
  spec.sticky = variant == Variant::kEioSticky || IsNoSpace(variant);
  spec.error = IsNoSpace(variant) ? FaultError::kNoSpace : FaultError::kIOError;
  if (variant == Variant::kCrash) {
    spec.countdown = kNever;  // counts only
    if (point != kNever) fs->FailAfter(point, FaultMode::kCrash);
  }
  // The fault-free run also counts the operations per file type.
  auto per_type = std::make_shared<std::map<std::string, uint64_t>>();
  if (point == kNever) {
    spec.predicate = [per_type](const std::string& path) {
      const std::string name = path.substr(path.rfind('/') + 1);
      std::string type =
          name.find(".log") != std::string::npos   ? "log"
          : name.find(".sst") != std::string::npos ? "sst"
          : name.compare(0, 9, "MANIFEST-") == 0   ? "MANIFEST"
          : name.find("CURRENT") != std::string::npos || name.find(".dbtmp") != std::string::npos
              ? "CURRENT"
          : name.compare(0, 7, "OPTIONS") == 0 ? "OPTIONS"
          : name == "db"                       ? "dir"
                                               : "other:" + name;
      (*per_type)[type]++;
      return true;
    };
  }
  fs->InjectFault(spec);
  std::vector<WriteResult> results(script.writes.size(), WriteResult::kNotRun);
  auto fault_on = [&] {
    return variant == Variant::kCrash ? !fs->IsFilesystemActive() : fs->spec_faults() > 0;
  };
  // The injected fault, for the reports.
  auto first_fault = std::make_shared<std::string>();
  fs->SetFaultListener([first_fault](FaultOp op, const std::string& path, const Status& s) {
    if (first_fault->empty())
      *first_fault = std::string(FaultOpName(op)) + " " + path + " (" + s.ToString() + ")";
  });
  auto violation = [&](const std::string& what) {
    AddViolation(tally, run + " [fault: " + *first_fault + "]: " + what);
  };
  bool error_seen = false;
  {
    Env env(fs, SystemClock::Default());
    std::unique_ptr<DB> db;
    Status s = DB::Open(WalkOptions(&env), kDbName, &db);
    if (!s.ok() && !fault_on()) violation("open failed with no fault: " + s.ToString());
    bool stopped = !s.ok();  // no DB, or a DB that could not be resumed
    if (!s.ok()) error_seen = true;
    uint64_t bg_errors = 0;
    int probes = 0;
    for (size_t step_i = 0; step_i < script.steps.size() && !stopped; step_i++) {
      const Step& step = script.steps[step_i];
      if (step.kind == StepKind::kWrite) {
        s = DoWrite(db.get(), script.writes[step.write]);
        results[step.write] = s.ok() ? WriteResult::kAcked : WriteResult::kFailed;
      } else if (step.kind == StepKind::kFlush) {
        FlushOptions fo;
        fo.wait = true;
        s = db->Flush(fo);
      } else {
        CompactRangeOptions co;
        s = db->CompactRange(co, nullptr, nullptr);
      }
      if (!s.ok() && !fault_on()) {
        violation("step " + std::to_string(step_i) + " failed with no fault: " + s.ToString());
      }
      const uint64_t now_bg = BgErrors(db.get());
      const bool bg_error = now_bg > bg_errors;
      bg_errors = now_bg;
      if (s.ok() && !bg_error) continue;
      error_seen = true;
      if (variant == Variant::kCrash) continue;  // everything fails from here; checked at reopen
      // The DB is in error: writes must fail, reads must serve acknowledged data.
      {
        std::map<std::string, std::string> state;
        const std::string read_err = ReadAll(db.get(), script, &state);
        if (!read_err.empty()) {
          violation("reads in error state: " + read_err);
        } else {
          const std::string damage = CheckAllAcked(script, results, state);
          if (!damage.empty()) violation("in error state: " + damage);
        }
      }
      const bool write_failed = !s.ok() && step.kind == StepKind::kWrite;
      if (write_failed || bg_error) {
        Status p =
            db->Put(WriteOptions(), std::string(kProbePrefix) + std::to_string(probes++), "p");
        if (p.ok()) {
          const std::string what =
              "a write was accepted after the error of step " + std::to_string(step_i) +
              (step.kind == StepKind::kWrite   ? " (write #" + std::to_string(step.write) + ")"
               : step.kind == StepKind::kFlush ? " (Flush)"
                                               : " (CompactRange)") +
              ": " + s.ToString();
          // A failed write or a background error must stay until resumed
          // (a write that fails for an I/O reason, even one that changed
          // nothing, such as a new WAL that could not be created, stops
          // writes like RocksDB does).
          violation(what + (bg_error ? " (background-errors rose)" : " (no background error)"));
        } else if (IsNoSpace(variant) && !p.IsNoSpace()) {
          violation("write while the disk is full failed with " + p.ToString() + ", not NoSpace");
        }
      }
      // The fault is cleared (space returns).
      fs->ClearFault();
      bool resumed = false;
      if (IsNoSpace(variant)) {
        // Automatic resume within a bounded wait (10 ms retry interval).
        for (int i = 0; i < 100 && !resumed; i++) {
          Status p =
              db->Put(WriteOptions(), std::string(kProbePrefix) + std::to_string(probes++), "p");
          if (p.ok()) {
            resumed = true;
            tally->auto_resumed++;
          } else {
            env.GetSystemClock()->SleepForMicroseconds(10000);
          }
        }
      }
      if (!resumed) {
        Status r = db->Resume();
        if (r.ok()) {
          Status p =
              db->Put(WriteOptions(), std::string(kProbePrefix) + std::to_string(probes++), "p");
          if (!p.ok()) {
            violation("Resume returned OK but writes still fail: " + p.ToString());
          } else {
            resumed = true;
          }
        } else {
          tally->resume_failed++;
          if (IsNoSpace(variant)) {
            violation("no resume after the space returned (auto-resume waited 1 s; Resume: " +
                      r.ToString() + ")");
          }
        }
      }
      if (resumed) {
        tally->resumed++;
        bg_errors = BgErrors(db.get());
      } else {
        stopped = true;
      }
    }
    if (LosesPower(variant)) {
      fs->SetFilesystemActive(false);  // the power fails before the close
    }
    if (db != nullptr) db->Close().PermitUncheckedError();
    db.reset();
    env.WaitForJobsAndJoinAllThreads();
  }
  if (point == kNever) {
    if (!fault_on() && std::count(results.begin(), results.end(), WriteResult::kAcked) !=
                           static_cast<long>(results.size())) {
      violation("fault-free run failed writes");
    }
    census->points = variant == Variant::kCrash ? fs->mutating_ops() : fs->matched_ops();
    census->mutating = fs->mutating_ops();
    census->per_type = *per_type;
    for (int k = 0; k < static_cast<int>(FaultOp::kNumKinds); k++) {
      census->per_kind[static_cast<FaultOp>(k)] = fs->op_counts(static_cast<FaultOp>(k)).attempted;
    }
  }
  if (fault_on()) tally->fired++;
  if (error_seen) tally->errors_seen++;
  // Recovery by reopening.
  fs->ClearFault();
  fs->ClearFailAfter();
  fs->SetNoSpace(false);
  if (LosesPower(variant)) {
    Status d = fs->DropUnsyncedData();
    if (!d.ok()) {
      violation("DropUnsyncedData: " + d.ToString());
      return;
    }
    fs->SetFilesystemActive(true);
  }
  Env env(fs, SystemClock::Default());
  std::unique_ptr<DB> db;
  Status s = DB::Open(WalkOptions(&env), kDbName, &db);
  if (!s.ok()) {
    violation("reopen failed: " + s.ToString());
    return;
  }
  std::map<std::string, std::string> state;
  const std::string read_err = ReadAll(db.get(), script, &state);
  if (!read_err.empty()) {
    violation("after reopen: " + read_err);
  } else {
    const std::string damage = variant == Variant::kCrash ? CheckPrefix(script, results, state)
                               : LosesPower(variant) ? CheckSyncedPrefix(script, results, state)
                                                     : CheckAllAcked(script, results, state);
    if (!damage.empty()) violation("after reopen: " + damage);
  }
  // The reopened DB takes writes.
  s = db->Put(WriteOptions(), "zzafter", "x");
  if (!s.ok()) violation("write after reopen failed: " + s.ToString());
  s = db->Close();
  if (!s.ok()) violation("close after reopen failed: " + s.ToString());
}

uint64_t Stride(uint64_t points, uint64_t target) {
  if (FullWalk() || points <= target) return 1;
  return (points + target - 1) / target;
}

class FaultWalkTest : public ::testing::TestWithParam<Variant> {};

TEST_P(FaultWalkTest, WalkEveryOperation) {
  const Variant variant = GetParam();
  const Script script = MakeScript();
  Tally tally;
  Census census;
  RunWriteWalk(script, variant, kNever, &tally, &census);
  ASSERT_TRUE(tally.violations.empty()) << tally.violations[0];
  ASSERT_GT(census.points, 50u);
  std::string kinds;
  for (const auto& [op, n] : census.per_kind) {
    if (n > 0) kinds += std::string(" ") + FaultOpName(op) + "=" + std::to_string(n);
  }
  for (const auto& [type, n] : census.per_type) kinds += " " + type + ":" + std::to_string(n);
  printf("%s: %llu fault points (mutating ops %llu; per kind:%s)\n", VariantName(variant),
         static_cast<unsigned long long>(census.points),
         static_cast<unsigned long long>(census.mutating), kinds.c_str());
  tally = Tally();
  tally.total_points = census.points;
  // Budget: ~120 runs per variant in a normal run.
  const uint64_t stride = Stride(census.points, 600);
  for (uint64_t p = 0; p < census.points; p += stride) {
    RunWriteWalk(script, variant, p, &tally, &census);
    tally.walked++;
  }
  printf(
      "%s: walked %llu of %llu points (stride %llu): fired %llu, error seen %llu, resumed %llu "
      "(auto %llu), resume failed %llu, violations %zu\n",
      VariantName(variant), static_cast<unsigned long long>(tally.walked),
      static_cast<unsigned long long>(tally.total_points), static_cast<unsigned long long>(stride),
      static_cast<unsigned long long>(tally.fired),
      static_cast<unsigned long long>(tally.errors_seen),
      static_cast<unsigned long long>(tally.resumed),
      static_cast<unsigned long long>(tally.auto_resumed),
      static_cast<unsigned long long>(tally.resume_failed), tally.violations.size());
  for (size_t i = 0; i < tally.violations.size() && i < 8; i++) {
    printf("  %s\n", tally.violations[i].c_str());
  }
  EXPECT_TRUE(tally.violations.empty())
      << tally.violations.size() << " violations; first: " << tally.violations[0];
  std::lock_guard<std::mutex> l(g_tally_mu);
  g_tallies[VariantName(variant)] = std::move(tally);
}

INSTANTIATE_TEST_SUITE_P(Variants, FaultWalkTest,
                         ::testing::Values(Variant::kEioOneShot, Variant::kEioSticky,
                                           Variant::kNoSpace, Variant::kEioPowerLoss,
                                           Variant::kNoSpacePowerLoss, Variant::kCrash),
                         [](const ::testing::TestParamInfo<Variant>& info) {
                           switch (info.param) {
                             case Variant::kEioOneShot:
                               return std::string("EioOneShot");
                             case Variant::kEioSticky:
                               return std::string("EioSticky");
                             case Variant::kNoSpace:
                               return std::string("NoSpace");
                             case Variant::kEioPowerLoss:
                               return std::string("EioThenPowerLoss");
                             case Variant::kNoSpacePowerLoss:
                               return std::string("NoSpaceThenPowerLoss");
                             case Variant::kCrash:
                               return std::string("Crash");
                           }
                           return std::string("Unknown");
                         });

// ---------------------------------------------------------------------------
// Two-phase-commit walks: a TransactionDB workload of named transactions
// (Prepare with sync, then Commit or Rollback with sync, some left
// prepared at the end), plain synced writes, an explicit flush and enough
// data to make the small memtable flush in the background while
// transactions are prepared (their WALs must be kept). A fault is injected
// at each operation as above (transactions span two column families that
// flush at different times); the workload stops at the first failed
// step, the DB closes (the power fails first for the power-loss variants
// and the crash) and is reopened as a TransactionDB. The contract:
//
//  - a transaction whose Prepare was acknowledged is either still prepared
//    (in GetAllPreparedTransactions, with exactly its writes, none of them
//    visible) or -- if its Commit was acknowledged, or attempted and
//    failed -- committed (all of its writes visible, not in the prepared
//    list); a Commit that was acknowledged is never undone and a Rollback
//    that was acknowledged never comes back;
//  - nothing is half-way: a transaction's writes are all visible or none;
//    a transaction whose Commit was never attempted has none visible;
//  - the prepared list names no transaction that never ran Prepare;
//  - acknowledged plain writes survive;
//  - the recovered transactions can be committed, and after one more
//    reopen nothing is prepared and every committed write is there.

struct TxnSpec {
  std::string name;
  std::vector<std::pair<std::string, std::string>> puts;
};

enum class TxnStepKind { kPrepare, kCommit, kRollback, kPlainPut, kFlush };

struct TxnStep {
  TxnStepKind kind;
  size_t index = 0;  // the transaction (or plain write) it concerns
};

struct TxnScript {
  std::vector<TxnSpec> txns;
  std::vector<std::pair<std::string, std::string>> plain;  // key, value
  std::vector<TxnStep> steps;
};

TxnScript MakeTxnScript() {
  TxnScript s;
  auto txn = [&s](int keys, size_t len) {
    TxnSpec t;
    const size_t i = s.txns.size();
    t.name = "xid" + std::to_string(i);
    for (int k = 0; k < keys; k++) {
      const std::string key = "t" + std::to_string(i) + "k" + std::to_string(k);
      std::string v = "txn" + std::to_string(i) + "." + key + ":";
      v.append(len, static_cast<char>('a' + i % 26));
      t.puts.emplace_back(key, v);
    }
    s.txns.push_back(std::move(t));
    s.steps.push_back({TxnStepKind::kPrepare, i});
    return i;
  };
  auto commit = [&s](size_t i) { s.steps.push_back({TxnStepKind::kCommit, i}); };
  auto rollback = [&s](size_t i) { s.steps.push_back({TxnStepKind::kRollback, i}); };
  auto plain = [&s](size_t len) {
    const size_t i = s.plain.size();
    const std::string key = "plain" + std::to_string(i);
    s.plain.emplace_back(key, key + ":" + std::string(len, 'p'));
    s.steps.push_back({TxnStepKind::kPlainPut, i});
  };
  // Phase 1: prepared transactions resolved both ways, one left open
  // across everything that follows.
  const size_t t0 = txn(2, 60), t1 = txn(3, 60), t2 = txn(1, 60);
  commit(t0);
  plain(60);
  rollback(t1);
  const size_t t3 = txn(2, 60);
  // Phase 2: an explicit flush (of cf1 only) with t2 and t3 prepared.
  s.steps.push_back({TxnStepKind::kFlush, 1});
  commit(t3);
  // Phase 3: big transactions overflow the memtable (background flushes,
  // new WALs) while t2 and others are prepared.
  std::vector<size_t> big;
  for (int i = 0; i < 12; i++) {
    big.push_back(txn(3, 2500));
    if (i % 2 == 1) commit(big[i - 1]);
    if (i % 3 == 2) plain(900);
  }
  commit(t2);
  // The default family's flush, with both families holding committed data
  // of prepared sections and others still prepared.
  s.steps.push_back({TxnStepKind::kFlush, 0});
  rollback(big[3]);
  commit(big[5]);
  // Phase 4: the last ones; several big ones and a small one stay prepared.
  const size_t last = txn(2, 60);
  commit(big[1]);
  plain(60);
  (void)last;
  return s;
}

enum class TxnResult { kNotRun, kAcked, kFailed };

struct TxnRun {
  std::vector<TxnResult> prepare, resolve, plain;
  std::vector<bool> resolve_is_commit;
};

Options TxnWalkOptions(Env* env) {
  Options o = WalkOptions(env);
  o.max_manifest_file_size = 1 << 20;  // the plain walks cover MANIFEST switches
  o.create_missing_column_families = true;
  return o;
}

// Keys ending in an odd digit live in column family "cf1": a transaction
// of two or more keys spans both families, which flush at different times
// (the explicit flush is cf1's alone), so a prepared section's WAL must be
// kept for whichever family still holds its data.
size_t KeyCf(const std::string& key) { return static_cast<size_t>(key.back() - '0') % 2; }

// A TransactionDB with the default family and cf1; *handles gets both.
Status OpenTxnDb(Env* env, std::unique_ptr<TransactionDB>* db,
                 std::vector<ColumnFamilyHandle*>* handles) {
  const Options o = TxnWalkOptions(env);
  const std::vector<ColumnFamilyDescriptor> fams = {{kDefaultColumnFamilyName, o}, {"cf1", o}};
  return TransactionDB::Open(o, TransactionDBOptions(), kDbName, fams, handles, db);
}

void CloseTxnDb(std::unique_ptr<TransactionDB>* db, std::vector<ColumnFamilyHandle*>* handles,
                Status* close_status) {
  if (*db == nullptr) return;
  for (ColumnFamilyHandle* h : *handles) (*db)->DestroyColumnFamilyHandle(h).PermitUncheckedError();
  handles->clear();
  *close_status = (*db)->Close();
  db->reset();
}

void RunTxnWalk(const TxnScript& script, Variant variant, uint64_t point, Tally* tally,
                Census* census) {
  const std::string run = std::string("2pc-") + VariantName(variant) + " point " +
                          (point == kNever ? std::string("none") : std::to_string(point));
  Watchdog watchdog(run, 60);
  auto fs = std::make_shared<FaultInjectionFileSystem>(NewMemFileSystem());
  fs->set_hide_mapped_contents(true);
  FaultSpec spec;
  spec.ops = WalkMask(variant);
  spec.countdown = point;
  spec.sticky = variant == Variant::kEioSticky || IsNoSpace(variant);
  spec.error = IsNoSpace(variant) ? FaultError::kNoSpace : FaultError::kIOError;
  if (variant == Variant::kCrash) {
    spec.countdown = kNever;
    if (point != kNever) fs->FailAfter(point, FaultMode::kCrash);
  }
  fs->InjectFault(spec);
  auto fault_on = [&] {
    return variant == Variant::kCrash ? !fs->IsFilesystemActive() : fs->spec_faults() > 0;
  };
  auto first_fault = std::make_shared<std::string>();
  fs->SetFaultListener([first_fault](FaultOp op, const std::string& path, const Status& s) {
    if (first_fault->empty())
      *first_fault = std::string(FaultOpName(op)) + " " + path + " (" + s.ToString() + ")";
  });
  auto violation = [&](const std::string& what) {
    AddViolation(tally, run + " [fault: " + *first_fault + "]: " + what);
  };
  const size_t n = script.txns.size();
  TxnRun r;
  r.prepare.assign(n, TxnResult::kNotRun);
  r.resolve.assign(n, TxnResult::kNotRun);
  r.resolve_is_commit.assign(n, false);
  r.plain.assign(script.plain.size(), TxnResult::kNotRun);
  bool error_seen = false;
  {
    Env env(fs, SystemClock::Default());
    std::unique_ptr<TransactionDB> db;
    std::vector<ColumnFamilyHandle*> handles;
    Status s = OpenTxnDb(&env, &db, &handles);
    if (!s.ok() && !fault_on()) violation("open failed with no fault: " + s.ToString());
    bool stopped = !s.ok();
    error_seen = !s.ok();
    WriteOptions sync;
    sync.sync = true;
    std::vector<std::unique_ptr<Transaction>> live(n);
    uint64_t bg_errors = 0;
    for (size_t step_i = 0; step_i < script.steps.size() && !stopped; step_i++) {
      const TxnStep& step = script.steps[step_i];
      switch (step.kind) {
        case TxnStepKind::kPrepare: {
          const TxnSpec& t = script.txns[step.index];
          live[step.index] = db->BeginTransaction(sync);
          Transaction* txn = live[step.index].get();
          s = txn->SetName(t.name);
          for (const auto& [k, v] : t.puts) {
            if (s.ok()) s = txn->Put(handles[KeyCf(k)], k, v);
          }
          if (!s.ok()) {
            violation("building " + t.name + " failed: " + s.ToString());
            stopped = true;
            break;
          }
          s = txn->Prepare();
          r.prepare[step.index] = s.ok() ? TxnResult::kAcked : TxnResult::kFailed;
          break;
        }
        case TxnStepKind::kCommit:
        case TxnStepKind::kRollback: {
          const bool commit = step.kind == TxnStepKind::kCommit;
          Transaction* txn = live[step.index].get();
          s = commit ? txn->Commit() : txn->Rollback();
          r.resolve[step.index] = s.ok() ? TxnResult::kAcked : TxnResult::kFailed;
          r.resolve_is_commit[step.index] = commit;
          break;
        }
        case TxnStepKind::kPlainPut: {
          const auto& [k, v] = script.plain[step.index];
          s = db->Put(sync, handles[KeyCf(k)], k, v);
          r.plain[step.index] = s.ok() ? TxnResult::kAcked : TxnResult::kFailed;
          break;
        }
        case TxnStepKind::kFlush:
          s = db->Flush(FlushOptions(), handles[step.index]);
          break;
      }
      if (stopped) break;
      if (!s.ok() && !fault_on()) {
        violation("step " + std::to_string(step_i) + " failed with no fault: " + s.ToString());
      }
      const uint64_t now_bg = BgErrors(db.get());
      if (!s.ok() || now_bg > bg_errors) {
        error_seen = true;
        stopped = true;  // no resume here: the plain walks test it
      }
      bg_errors = now_bg;
    }
    // The application goes away: live transaction objects are dropped (the
    // prepared ones stay prepared in the WAL), then the DB.
    live.clear();
    if (LosesPower(variant)) fs->SetFilesystemActive(false);
    Status close_status;
    CloseTxnDb(&db, &handles, &close_status);
    close_status.PermitUncheckedError();
    env.WaitForJobsAndJoinAllThreads();
  }
  if (point == kNever) {
    bool all = true;
    for (size_t i = 0; i < n; i++) all = all && r.prepare[i] == TxnResult::kAcked;
    for (TxnResult p : r.plain) all = all && p == TxnResult::kAcked;
    if (!all) violation("fault-free run failed a step");
    census->points = variant == Variant::kCrash ? fs->mutating_ops() : fs->matched_ops();
    census->mutating = fs->mutating_ops();
  }
  if (fault_on()) tally->fired++;
  if (error_seen) tally->errors_seen++;
  fs->ClearFault();
  fs->ClearFailAfter();
  fs->SetNoSpace(false);
  if (LosesPower(variant)) {
    Status d = fs->DropUnsyncedData();
    if (!d.ok()) {
      violation("DropUnsyncedData: " + d.ToString());
      return;
    }
    fs->SetFilesystemActive(true);
  }
  Env env(fs, SystemClock::Default());
  std::unique_ptr<TransactionDB> db;
  std::vector<ColumnFamilyHandle*> handles;
  Status s = OpenTxnDb(&env, &db, &handles);
  if (!s.ok()) {
    violation("reopen failed: " + s.ToString());
    return;
  }
  std::vector<Transaction*> prepared_list;
  db->GetAllPreparedTransactions(&prepared_list);
  std::map<std::string, Transaction*> prepared;
  for (Transaction* p : prepared_list) {
    if (!prepared.emplace(p->GetName(), p).second) violation("prepared twice: " + p->GetName());
  }
  // Returns the number of t's writes visible in the DB (a wrong value is a
  // violation).
  auto visible = [&](const TxnSpec& t) {
    size_t seen = 0;
    for (const auto& [k, v] : t.puts) {
      std::string got;
      Status g = db->Get(ReadOptions(), handles[KeyCf(k)], k, &got);
      if (g.ok()) {
        seen++;
        if (got != v) violation(t.name + ": " + k + " has a wrong value");
      } else if (!g.IsNotFound()) {
        violation(t.name + ": Get(" + k + ") failed: " + g.ToString());
      }
    }
    return seen;
  };
  std::set<std::string> known;
  for (size_t i = 0; i < n; i++) {
    const TxnSpec& t = script.txns[i];
    known.insert(t.name);
    const size_t v = visible(t);
    if (v != 0 && v != t.puts.size()) {
      violation(t.name + " partly visible (" + std::to_string(v) + " of " +
                std::to_string(t.puts.size()) + " writes)");
      continue;
    }
    const bool committed = v == t.puts.size();
    auto p = prepared.find(t.name);
    const bool is_prepared = p != prepared.end();
    const bool commit_tried = r.resolve[i] != TxnResult::kNotRun && r.resolve_is_commit[i];
    const char* state = committed && is_prepared ? "committed and prepared"
                        : committed              ? "committed"
                        : is_prepared            ? "prepared"
                                                 : "absent";
    bool ok = true;
    if (committed && is_prepared) {
      ok = false;
    } else if (r.prepare[i] == TxnResult::kNotRun) {
      ok = !committed && !is_prepared;
    } else if (r.prepare[i] == TxnResult::kFailed) {
      ok = !committed;  // may have reached the WAL: prepared or absent
    } else if (r.resolve[i] == TxnResult::kNotRun) {
      ok = is_prepared;
    } else if (commit_tried) {
      ok = r.resolve[i] == TxnResult::kAcked ? committed : (committed || is_prepared);
    } else {
      ok = !committed && (r.resolve[i] == TxnResult::kFailed || !is_prepared);
    }
    if (!ok) {
      const char* res[] = {"not run", "acknowledged", "failed"};
      violation(t.name + " is " + state + " after prepare " + res[static_cast<int>(r.prepare[i])] +
                ", " + (r.resolve_is_commit[i] ? "commit " : "rollback ") +
                res[static_cast<int>(r.resolve[i])]);
    }
    if (is_prepared) {
      // Exactly its writes.
      Transaction* txn = p->second;
      if (txn->GetState() != Transaction::PREPARED) violation(t.name + " recovered not PREPARED");
      const uint32_t count = txn->GetWriteBatch()->GetWriteBatch()->Count();
      if (count != t.puts.size()) {
        violation(t.name + " recovered with " + std::to_string(count) + " writes, want " +
                  std::to_string(t.puts.size()));
      }
      for (const auto& [k, val] : t.puts) {
        std::string got;
        Status g = txn->Get(ReadOptions(), handles[KeyCf(k)], k, &got);
        if (!g.ok() || got != val) violation(t.name + " recovered without its write of " + k);
      }
    }
  }
  for (const auto& [name, p] : prepared) {
    if (known.count(name) == 0) violation("unknown prepared transaction " + name);
  }
  for (size_t i = 0; i < script.plain.size(); i++) {
    if (r.plain[i] != TxnResult::kAcked) continue;
    std::string got;
    Status g =
        db->Get(ReadOptions(), handles[KeyCf(script.plain[i].first)], script.plain[i].first, &got);
    if (!g.ok() || got != script.plain[i].second) {
      violation("acknowledged plain write " + script.plain[i].first + " lost: " + g.ToString());
    }
  }
  // The recovered transactions commit; after one more reopen nothing is
  // prepared and their writes are there.
  std::vector<size_t> resolved;
  for (size_t i = 0; i < n; i++) {
    auto p = prepared.find(script.txns[i].name);
    if (p == prepared.end()) continue;
    Status c = p->second->Commit();
    if (!c.ok()) {
      violation("commit of recovered " + script.txns[i].name + ": " + c.ToString());
    } else {
      resolved.push_back(i);
    }
    delete p->second;
  }
  CloseTxnDb(&db, &handles, &s);
  if (!s.ok()) violation("close after recovery failed: " + s.ToString());
  s = OpenTxnDb(&env, &db, &handles);
  if (!s.ok()) {
    violation("second reopen failed: " + s.ToString());
    return;
  }
  prepared_list.clear();
  db->GetAllPreparedTransactions(&prepared_list);
  if (!prepared_list.empty()) {
    violation(std::to_string(prepared_list.size()) + " prepared after they were committed");
  }
  for (size_t i : resolved) {
    if (visible(script.txns[i]) != script.txns[i].puts.size()) {
      violation("recovered and committed " + script.txns[i].name + " lost after a reopen");
    }
  }
  CloseTxnDb(&db, &handles, &s);
  if (!s.ok()) violation("final close failed: " + s.ToString());
}

class TxnFaultWalkTest : public ::testing::TestWithParam<Variant> {};

TEST_P(TxnFaultWalkTest, WalkPrepareAndCommit) {
  const Variant variant = GetParam();
  const TxnScript script = MakeTxnScript();
  Tally tally;
  Census census;
  RunTxnWalk(script, variant, kNever, &tally, &census);
  ASSERT_TRUE(tally.violations.empty()) << tally.violations[0];
  ASSERT_GT(census.points, 30u);
  tally = Tally();
  tally.total_points = census.points;
  const uint64_t stride = Stride(census.points, 600);
  for (uint64_t p = 0; p < census.points; p += stride) {
    RunTxnWalk(script, variant, p, &tally, &census);
    tally.walked++;
  }
  printf(
      "2pc-%s: walked %llu of %llu points (stride %llu): fired %llu, error seen %llu, "
      "violations %zu\n",
      VariantName(variant), static_cast<unsigned long long>(tally.walked),
      static_cast<unsigned long long>(tally.total_points), static_cast<unsigned long long>(stride),
      static_cast<unsigned long long>(tally.fired),
      static_cast<unsigned long long>(tally.errors_seen), tally.violations.size());
  for (size_t i = 0; i < tally.violations.size() && i < 8; i++) {
    printf("  %s\n", tally.violations[i].c_str());
  }
  EXPECT_TRUE(tally.violations.empty())
      << tally.violations.size() << " violations; first: " << tally.violations[0];
  std::lock_guard<std::mutex> l(g_tally_mu);
  g_tallies[std::string("2pc-") + VariantName(variant)] = std::move(tally);
}

INSTANTIATE_TEST_SUITE_P(Variants, TxnFaultWalkTest,
                         ::testing::Values(Variant::kEioOneShot, Variant::kEioSticky,
                                           Variant::kNoSpace, Variant::kEioPowerLoss,
                                           Variant::kNoSpacePowerLoss, Variant::kCrash),
                         [](const ::testing::TestParamInfo<Variant>& info) {
                           std::string name = VariantName(info.param);
                           std::string out;
                           bool upper = true;
                           for (char c : name) {
                             if (c == '-') {
                               upper = true;
                               continue;
                             }
                             out += upper ? static_cast<char>(toupper(c)) : c;
                             upper = false;
                           }
                           return out;
                         });

// ---------------------------------------------------------------------------
// Read walks

// A copy of every file of src's DB directory in a fresh MemFileSystem.
std::shared_ptr<FileSystem> CopyDb(FileSystem* src) {
  auto dst = NewMemFileSystem();
  EXPECT_OK(dst->CreateDirIfMissing(kDbName));
  std::vector<std::string> names;
  EXPECT_OK(src->GetChildren(kDbName, &names));
  for (const std::string& n : names) {
    const std::string path = std::string(kDbName) + "/" + n;
    std::string data;
    EXPECT_OK(ReadFileToString(src, path, &data));
    EXPECT_OK(WriteStringToFile(dst.get(), data, path, true));
  }
  return dst;
}

struct ReadVariant {
  const char* name;
  FaultError error;
  FaultOpMask ops;
};

// Builds the DB the read walks start from: the script's writes, all
// acknowledged, some in tables, the last ones only in the WAL.
std::shared_ptr<FileSystem> BuildReadDb(const Script& script) {
  auto base = NewMemFileSystem();
  {
    Env env(base, SystemClock::Default());
    Options o = WalkOptions(&env);
    o.avoid_flush_during_shutdown = true;
    std::unique_ptr<DB> db;
    EXPECT_OK(DB::Open(o, kDbName, &db));
    if (db == nullptr) return base;
    for (const Step& step : script.steps) {
      if (step.kind == StepKind::kWrite) {
        EXPECT_OK(DoWrite(db.get(), script.writes[step.write]));
      } else if (step.kind == StepKind::kFlush) {
        FlushOptions fo;
        EXPECT_OK(db->Flush(fo));
      } else {
        EXPECT_OK(db->CompactRange(CompactRangeOptions(), nullptr, nullptr));
      }
    }
    EXPECT_OK(db->Close());
    db.reset();
    env.WaitForJobsAndJoinAllThreads();
  }
  return base;
}

// Reopens a copy of the DB with the read fault at point, scans and reads
// every key. Returns the matching reads seen.
uint64_t RunReadWalk(const Script& script, FileSystem* pristine, const ReadVariant& rv,
                     uint64_t point, Tally* tally) {
  const std::string run =
      std::string(rv.name) + " point " + (point == kNever ? "none" : std::to_string(point));
  Watchdog watchdog(run, 60);
  const std::map<std::string, std::string> model = StateAfter(script, script.writes.size());
  auto fs = std::make_shared<FaultInjectionFileSystem>(CopyDb(pristine));
  fs->set_hide_mapped_contents(true);
  auto first_fault = std::make_shared<std::string>();
  fs->SetFaultListener([first_fault](FaultOp op, const std::string& path, const Status& s) {
    if (first_fault->empty())
      *first_fault = std::string(FaultOpName(op)) + " " + path + " (" + s.ToString() + ")";
  });
  auto violation = [&](const std::string& what) {
    AddViolation(tally, run + " [fault: " + *first_fault + "]: " + what);
  };
  FaultSpec spec;
  spec.ops = rv.ops;
  spec.error = rv.error;
  spec.countdown = point;
  spec.seed = point;
  fs->InjectFault(spec);
  uint64_t matched = 0;
  {
    Env env(fs, SystemClock::Default());
    Options o = WalkOptions(&env);
    std::unique_ptr<DB> db;
    Status s = DB::Open(o, kDbName, &db);
    if (!s.ok()) {
      tally->read_errors++;
      if (fs->spec_faults() == 0) violation("open failed with no fault: " + s.ToString());
    } else {
      // Scan: every pair returned is right; an OK end means all of them.
      std::map<std::string, std::string> seen;
      // Blocks are not cached, so every read reaches the file system.
      ReadOptions ro;
      ro.fill_cache = false;
      std::unique_ptr<Iterator> it = db->NewIterator(ro);
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        const std::string k = it->key().ToString();
        auto m = model.find(k);
        if (m == model.end()) {
          violation("scan returned " + k + " which is absent (deleted or never written)");
        } else if (m->second != it->value().ToString()) {
          violation("scan returned a wrong value for " + k + ": " + Show(it->value().ToString()) +
                    ", want " + Show(m->second));
        }
        seen[k] = it->value().ToString();
      }
      if (!it->status().ok()) {
        tally->read_errors++;
        if (it->status().ToString().find(std::string(kDbName) + "/") == std::string::npos) {
          violation("scan error names no file: " + it->status().ToString());
        }
      } else if (seen.size() != model.size()) {
        for (const auto& [k, v] : model) {
          if (seen.count(k) == 0) {
            violation("scan ended OK without " + k + " (" + Show(v) + ")");
            break;
          }
        }
      }
      it.reset();
      for (int round = 0; round < 2; round++) {
        for (const std::string& k : script.keys) {
          std::string v;
          s = db->Get(ro, k, &v);
          auto m = model.find(k);
          if (s.ok()) {
            if (m == model.end()) {
              violation("Get(" + k + ") returned " + Show(v) + " for an absent key");
            } else if (m->second != v) {
              violation("Get(" + k + ") returned a wrong value " + Show(v) + ", want " +
                        Show(m->second));
            }
          } else if (s.IsNotFound()) {
            if (m != model.end()) {
              violation("Get(" + k + ") NotFound, but it holds " + Show(m->second));
            }
          } else {
            tally->read_errors++;
            if (s.ToString().find(std::string(kDbName) + "/") == std::string::npos) {
              violation("Get(" + k + ") error names no file: " + s.ToString());
            }
          }
        }
      }
      db->Close().PermitUncheckedError();
      db.reset();
    }
    env.WaitForJobsAndJoinAllThreads();
    matched = fs->matched_ops();
  }
  if (fs->spec_faults() > 0) tally->fired++;
  // After the fault, the DB opens and holds exactly the data.
  fs->ClearFault();
  Env env(fs, SystemClock::Default());
  std::unique_ptr<DB> db;
  Status s = DB::Open(WalkOptions(&env), kDbName, &db);
  if (!s.ok()) {
    violation("reopen without fault failed: " + s.ToString());
    return matched;
  }
  std::map<std::string, std::string> state;
  const std::string read_err = ReadAll(db.get(), script, &state);
  if (!read_err.empty()) {
    violation("reopen without fault: " + read_err);
  } else if (state != model) {
    std::vector<WriteResult> all(script.writes.size(), WriteResult::kAcked);
    violation("reopen without fault: " + CheckAllAcked(script, all, state));
  }
  db->Close().PermitUncheckedError();
  return matched;
}

class ReadFaultWalkTest : public ::testing::TestWithParam<int> {};

const ReadVariant kReadVariants[] = {
    {"read-eio", FaultError::kIOError, kReadFaultOps},
    {"read-short", FaultError::kShortRead, FaultOpBit(FaultOp::kRead)},
    {"read-bitflip", FaultError::kCorruptRead, FaultOpBit(FaultOp::kRead)},
};

TEST_P(ReadFaultWalkTest, WalkEveryRead) {
  const ReadVariant& rv = kReadVariants[GetParam()];
  const Script script = MakeScript();
  auto pristine = BuildReadDb(script);
  Tally tally;
  const uint64_t points = RunReadWalk(script, pristine.get(), rv, kNever, &tally);
  ASSERT_TRUE(tally.violations.empty()) << tally.violations[0];
  ASSERT_GT(points, 10u);
  tally = Tally();
  tally.total_points = points;
  const uint64_t stride = Stride(points, 600);
  for (uint64_t p = 0; p < points; p += stride) {
    RunReadWalk(script, pristine.get(), rv, p, &tally);
    tally.walked++;
  }
  printf(
      "%s: walked %llu of %llu points (stride %llu): fired %llu, reads failed %llu, "
      "violations %zu\n",
      rv.name, static_cast<unsigned long long>(tally.walked),
      static_cast<unsigned long long>(points), static_cast<unsigned long long>(stride),
      static_cast<unsigned long long>(tally.fired),
      static_cast<unsigned long long>(tally.read_errors), tally.violations.size());
  for (size_t i = 0; i < tally.violations.size() && i < 8; i++) {
    printf("  %s\n", tally.violations[i].c_str());
  }
  EXPECT_TRUE(tally.violations.empty())
      << tally.violations.size() << " violations; first: " << tally.violations[0];
  std::lock_guard<std::mutex> l(g_tally_mu);
  g_tallies[rv.name] = std::move(tally);
}

std::string ReadVariantTestName(const ::testing::TestParamInfo<int>& info) {
  static const char* const kNames[] = {"Eio", "ShortRead", "BitFlip"};
  return kNames[info.param];
}

INSTANTIATE_TEST_SUITE_P(Variants, ReadFaultWalkTest, ::testing::Values(0, 1, 2),
                         ReadVariantTestName);

// The closing lines: fault points walked per variant.
class SummaryEnvironment : public ::testing::Environment {
 public:
  void TearDown() override {
    std::lock_guard<std::mutex> l(g_tally_mu);
    bool every = true;
    for (const auto& [name, t] : g_tallies) every = every && t.walked == t.total_points;
    printf("\nFAULT WALK SUMMARY (%s)\n",
           every ? "every fault point walked" : "strided; STRATA_FULL_WALK=1 for every point");
    for (const auto& [name, t] : g_tallies) {
      printf("  %-20s %4llu of %4llu fault points walked, fired %4llu, violations %zu\n",
             name.c_str(), static_cast<unsigned long long>(t.walked),
             static_cast<unsigned long long>(t.total_points),
             static_cast<unsigned long long>(t.fired), t.violations.size());
    }
  }
};

[[maybe_unused]] ::testing::Environment* const kSummary =
    ::testing::AddGlobalTestEnvironment(new SummaryEnvironment);

}  // namespace
}  // namespace strata
