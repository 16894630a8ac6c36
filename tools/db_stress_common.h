// What the parts of db_stress share (tools/db_stress.cc, the driver of the
// run, and tools/db_stress_txn.cc, its transaction modes): the flags, keys
// and values, the expected state, a thread's state, the shared globals and
// the checking helpers. See tools/db_stress.cc's opening comment for what
// db_stress does.
//
// Thread-safety: FLAGS is written once before any thread starts; the
// expected state is atomics (a key's entry is changed only under its
// stripe's mutex); Fail is thread-safe; a ThreadState belongs to its thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "strata/db.h"
#include "strata/options.h"
#include "strata/slice.h"
#include "strata/snapshot.h"
#include "strata/status.h"

namespace strata {
namespace stress {

constexpr uint64_t kStripe = 16;
constexpr int kMaxTxnThreads = 64;
constexpr uint32_t kAbsent = 0;

// ---------------------------------------------------------------- flags ----

struct Flags {
  std::string db;
  std::string expected_dir;
  int threads = 4;
  uint64_t ops_per_thread = 0;  // 0 = until --duration
  double duration = 0;          // seconds; 0 = until --ops_per_thread
  uint64_t max_key = 16384;
  bool sync = false;
  bool disable_wal = false;
  uint64_t write_buffer_size = 64 << 10;
  uint64_t target_file_size_base = 128 << 10;
  uint64_t max_bytes_for_level_base = 512 << 10;
  int level0_file_num_compaction_trigger = 4;
  int max_background_jobs = 2;
  int max_write_buffer_number = 2;
  std::string compression = "snappy";
  bool wal_mmap_writes = true;
  // RocksDB's numbering: 0 kTolerateCorruptedTailRecords, 1
  // kAbsoluteConsistency, 2 kPointInTimeRecovery, 3 kSkipAnyCorruptedRecords.
  int wal_recovery_mode = 2;
  uint64_t reopen = 0;  // close + reopen every N ops (all threads together)
  bool verify_only = false;
  uint64_t seed = 0;
  bool destroy_db_initially = false;
  // Only open (creating) and close --db with the options, then destroy it:
  // exit 0 if it opens, 3 if the build refuses an option (NotSupported),
  // 1 on another error. db_crashtest asks which styles and options to draw.
  bool probe_open = false;
  // Test of the drivers' style paths on a build that refuses some styles:
  // the checks follow --compaction_style (FIFO's rules, with drops
  // simulated as by --inject_bug_for_test=3) but the DB opens leveled.
  bool emulate_styles_for_test = false;
  uint64_t simulate_power_loss_one_in = 0;
  uint64_t flush_one_in = 2000;
  uint64_t compact_range_one_in = 4000;
  // A checkpoint of the live DB (into <expected_dir>/checkpoints/), opened
  // and checked, one op in N (0: never). Not in power-loss mode.
  uint64_t checkpoint_one_in = 0;
  // A backup (BackupEngine, <expected_dir>/backups; the newest 3 kept),
  // restored and checked, one op in N (0: never). Not in power-loss mode.
  uint64_t backup_one_in = 0;
  // Self-tests of the checks (each must make a run or its verification
  // fail): 1 an acknowledged Put forgotten, 2 a hole in the power-loss
  // prefix, 3/4 FIFO drops (3 must pass) and stale values, 5 a rolled-back
  // prepared transaction still recorded as prepared, 6 a recovered
  // transaction's writes compared with a changed record.
  int inject_bug_for_test = 0;
  // Compaction style and its options (RocksDB's db_stress / db_bench flag
  // names; see "Compaction styles" below).
  int compaction_style = kCompactionStyleLevel;  // 0 level 1 universal 2 FIFO 3 none
  int compaction_pri = Options().compaction_pri;
  int num_levels = Options().num_levels;
  // 0 (or -1 for compression_size_percent): the option's default.
  int universal_size_ratio = 0;
  int universal_min_merge_width = 0;
  int universal_max_merge_width = 0;
  int universal_max_size_amplification_percent = 0;
  int universal_compression_size_percent = -1;
  bool universal_allow_trivial_move = false;
  bool universal_incremental = false;
  uint64_t fifo_compaction_max_table_files_size_mb = 0;  // 0: the default (1 GiB)
  bool fifo_compaction_allow_compaction = false;
  uint64_t compaction_ttl = ColumnFamilyOptions::kDefaultTtl;  // options.ttl
  uint64_t periodic_compaction_seconds = ColumnFamilyOptions::kDefaultTtl;
  int min_level_to_compress = -1;  // >= 0: compression_per_level from there on
  std::string bottommost_compression_type = "disable";
  int compression_max_dict_bytes = 0;
  int compression_zstd_max_train_bytes = 0;
  int compression_parallel_threads = 1;
  bool sd_delete_range = false;  // DeleteRange may cover single-delete keys
  bool single_delete = true;     // false: no single-delete keys at all
  // Percentages of the operation mix (normalized by their sum).
  int put_pct = 30;
  int delete_pct = 8;
  int delrange_pct = 2;
  int merge_pct = 10;
  int batch_pct = 5;
  int get_pct = 20;
  int multiget_pct = 8;
  int iter_pct = 12;
  int snapshot_pct = 5;
  // Transactions (RocksDB's db_stress names: use_txn, txn_write_policy,
  // unordered_write; the others are ours). See "Transactions" above.
  bool use_txn = false;
  int txn_write_policy = 0;  // only 0 (WRITE_COMMITTED) is built
  bool unordered_write = false;
  bool use_optimistic_txn = false;
  int txn_2pc_pct = 50;       // pessimistic: transactions made two-phase
  int txn_rollback_pct = 10;  // transactions rolled back instead of committed
  int txn_hold_pct = 10;      // prepared ones left open for a few more ops
  int txn_direct_pct = 20;    // writes through the DB's own (locking) write path
  int txn_lock_timeout_ms = 20;
  int txn_lock_first_pct = 50;  // pessimistic: keys locked before the stripe
};

extern Flags FLAGS;

// --------------------------------------------------------- keys, values ----

// "k" + 12 decimal digits.
std::string Key(uint64_t k);
// Parses a key made by Key(); false if malformed.
bool ParseKey(const Slice& s, uint64_t* k);
// f(key, base): the base in hex, the key, then filler derived from both.
std::string Value(uint64_t k, uint32_t base);
// The base of a value of key k; false if the value is not f(k, base).
bool ParseValue(uint64_t k, const Slice& v, uint32_t* base);
// At most 120 bytes of s, non-printable ones escaped.
std::string Printable(const Slice& s);
bool IsSingleDeleteKey(uint64_t k);

// ------------------------------------------------------- expected state ----

// Maps path (created, or truncated to size and zeroed when its size
// differs: *created) MAP_SHARED; exits on an error.
void* MapFile(const std::string& path, size_t size, bool* created);

struct ExpectedEntry {
  std::atomic<uint32_t> value;    // committed base (kAbsent = no key)
  std::atomic<uint32_t> pending;  // 1 while a write is in flight
  std::atomic<uint32_t> pending_value;
  std::atomic<uint32_t> gen;  // last base handed out for this key
};
static_assert(sizeof(ExpectedEntry) == 16, "layout");

struct ExpectedHeader {
  uint64_t magic;
  uint64_t max_key;
  uint64_t pad[6];
};
constexpr uint64_t kExpectedMagic = 0x5354524553534531ull;  // "STRESSE1"

class ExpectedState {
 public:
  // Maps (creating or resetting when reset or when the layout differs).
  ExpectedState(const std::string& dir, uint64_t max_key, bool reset);
  bool fresh() const { return fresh_; }
  ExpectedEntry& at(uint64_t k) { return entries_[k]; }
  uint64_t max_key() const { return max_key_; }

  // A new base for key k, never 0 and never equal to the last one.
  uint32_t NextBase(uint64_t k) {
    uint32_t g = entries_[k].gen.load() + 1;
    if (g == kAbsent) g = 1;
    entries_[k].gen.store(g);
    return g;
  }

 private:
  const uint64_t max_key_;
  ExpectedHeader* header_;
  ExpectedEntry* entries_;
  bool fresh_ = false;
};

extern ExpectedState* g_expected;

// ------------------------------------------------------------ operations ----

enum OpKind {
  kPut,
  kDelete,
  kSingleDelete,
  kDeleteRange,
  kMerge,
  kBatch,
  kGet,
  kMultiGet,
  kIter,
  kSnapshot,
  kFlush,
  kCompactRange,
  kCheckpoint,
  kBackup,
  kNumOpKinds
};

// One acknowledged (or, last, possibly applied) write of a thread in
// power-loss mode: op index and the base it gave to one key.
struct LogEntry {
  uint64_t op;
  uint64_t key;
  uint32_t base;
};

struct ThreadState {
  int id = 0;
  std::mt19937_64 rng;
  uint64_t ops = 0;
  uint64_t counts[kNumOpKinds] = {};
  // Power-loss mode: the epoch's write log.
  std::vector<LogEntry> log;
  uint64_t log_ops = 0;   // acknowledged writes logged
  bool maybe_op = false;  // the last logged op failed (may or may not be in)
  // A held snapshot, checked later.
  const Snapshot* snap = nullptr;
  uint64_t snap_stripe = 0;
  std::vector<uint32_t> snap_values;
  int snap_countdown = 0;

  uint64_t Uniform(uint64_t n) { return n == 0 ? 0 : rng() % n; }
  bool OneIn(uint64_t n) { return n != 0 && Uniform(n) == 0; }
};

// ------------------------------------------------------ shared globals ----

extern std::unique_ptr<DB> g_db;
extern std::vector<std::mutex>* g_locks;  // one per stripe

// --------------------------------------------------------------- checks ----

// Reports a verification failure (stdout, "VERIFICATION FAILURE: ...") and
// stops the run.
void Fail(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string DescribeBase(uint32_t b);
std::string DescribeExpected(ExpectedEntry& e);
// Whether base a read for key k is allowed (the caller holds k's stripe).
bool Accept(uint64_t k, uint32_t a);
// Reads a Get result into a base; reports malformed values and errors.
bool ReadResult(uint64_t k, const Status& s, const std::string& v, uint32_t* base,
                const char* what);
// Reads the whole DB (a scan and a Get per key, which must agree) into
// actual[k] (kAbsent if missing); false on a failure (reported).
bool ReadAll(std::vector<uint32_t>* actual);

}  // namespace stress
}  // namespace strata
