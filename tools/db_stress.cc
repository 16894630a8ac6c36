// db_stress: random concurrent operations on a Strata DB, every read checked
// against an expected state that survives the process being killed.
//
// Keys are "k" + 12 decimal digits over [0, --max_key), grouped in stripes of
// kStripe consecutive keys; one mutex per stripe. A thread holds a stripe's
// mutex while it writes keys of the stripe (and updates their expected
// values) and while it reads them, so every read is checked exactly. Every
// operation stays inside one stripe (DeleteRange, WriteBatch, MultiGet and
// iterator ranges too), so no thread ever holds two stripe locks.
//
// Values: f(key, base) for a 32-bit base != 0 (0 means "absent"): the base
// in hex, the key, then filler derived from both, so a value read under the
// wrong key or a torn value is detected. Merges use the "put" operator (the
// last operand wins), so a merge sets the key to f(key, new base) as well.
//
// Key classes: keys with k % 8 == 7 are single-delete keys: they only ever
// get Put when absent and SingleDelete when present, and no DeleteRange
// covers them (unless --sd_delete_range), so SingleDelete is always legal.
// --single_delete=0 makes them ordinary keys.
//
// Expected state (--expected_dir/EXPECTED, mmap'd MAP_SHARED): per key the
// committed base, a pending base and a pending flag. A writer sets pending
// before it issues the write and resolves it after the DB acknowledged it,
// so after a kill a pending key may hold either base; the next run resolves
// it from the DB before doing anything else.
//
// Power-loss mode (--simulate_power_loss_one_in=N): the DB runs on a
// FaultInjectionFileSystem over POSIX; each thread owns the stripes s with
// s % threads == its id and logs its acknowledged writes in order. One write
// in N deactivates the file system (the crash moment); the threads stop, the
// DB is closed, the unsynced data dropped and the DB reopened. The recovered
// state must then be explained, per thread, by one prefix of its log (with
// --sync=1: a prefix containing every acknowledged write).
//
// Compaction styles (--compaction_style, RocksDB's numbering): level,
// universal and none change nothing in the checks. FIFO deletes whole
// tables, the oldest first, so any key may lose its value at any moment:
// the rule is then "a key reads as its latest value or as absent, never as
// a stale value" -- the dropped tables are the oldest, and a table holding
// an older version of a key is never newer than one holding a newer version,
// so a drop can only make a key vanish, never roll it back. A read that
// finds a key absent makes it expected-absent (under its stripe lock), so
// its old value may not come back either; iterators may skip missing keys
// but what they show must be expected; snapshot reads and copies may lack
// keys; the power-loss prefix check ignores absent keys. The summary counts
// the reads that found a dropped key (fifo_dropped_reads).
// docs/design/stress-compaction-styles.md.
//
// Transactions (--use_txn: a TransactionDB, WRITE_COMMITTED only;
// --use_optimistic_txn: an OptimisticTransactionDB): every write op goes
// through a transaction (single keys, batches with GetForUpdate
// read-modify-writes and reads of the transaction's own writes, a range as
// one Delete per key) or, --txn_direct_pct of the time, through the DB's own
// locking write path. --txn_rollback_pct of the transactions are rolled back
// (their writes must not show); pessimistic ones are two-phase
// (SetName, Prepare, Commit) --txn_2pc_pct of the time, and a prepared one
// may be left open for a few ops (--txn_hold_pct), its keys locked: other
// writers meet lock timeouts (--txn_lock_timeout_ms) and retry with the
// stripe released. Optimistic ones now and then get a conflicting write
// between their writes and their commit, which must then fail (Busy or
// TryAgain); a conflict no write made fails the run. The two-phase ones are
// recorded in --expected_dir/TXNS (see TxnRecord) with their writes and
// state; after every open the prepared transactions recovery returns must
// be exactly those the records allow: every one whose Prepare was
// acknowledged and whose Commit or Rollback was not issued, plus possibly
// ones whose Prepare, Commit or Rollback was in flight -- each with exactly
// its recorded writes, none of them visible; one whose Commit was in flight
// and that is not returned must show all its writes. Each recovered one is
// then committed or rolled back at random. Code: tools/db_stress_txn.cc;
// docs/design/stress-transactions.md. (tools/db_stress_common.h holds what
// the two files share.)
//
// Thread-safety: a single process; the shared state is the stripe mutexes,
// the expected state (atomics) and a few global atomics.
// Exit status: 0 when no verification failed, 1 otherwise, 2 on bad usage or
// an environment error.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "env/fault_injection_fs.h"
#include "strata/db.h"
#include "strata/env.h"
#include "strata/iterator.h"
#include "strata/merge_operator.h"
#include "strata/options.h"
#include "strata/snapshot.h"
#include "strata/status.h"
#include "strata/utilities/backup_engine.h"
#include "strata/utilities/checkpoint.h"
#include "strata/write_batch.h"
#include "tools/db_stress_common.h"
#include "tools/db_stress_shared.h"
#include "tools/db_stress_txn.h"

namespace strata {
namespace stress {

// ---------------------------------------------------------------- flags ----

Flags FLAGS;

bool ParseFlag(const char* arg, const char* name, std::string* value) {
  size_t n = strlen(name);
  if (strncmp(arg, "--", 2) != 0 || strncmp(arg + 2, name, n) != 0 || arg[2 + n] != '=') {
    return false;
  }
  *value = arg + 3 + n;
  return true;
}

// A compression name of RocksDB's db_stress (--compression_type's values,
// and "disable" for the bottommost level's "not set").
bool ParseCompression(const std::string& name, bool allow_disable, CompressionType* out) {
  static const std::pair<const char*, CompressionType> kNames[] = {
      {"none", kNoCompression},       {"snappy", kSnappyCompression},
      {"zlib", kZlibCompression},     {"bzip2", kBZip2Compression},
      {"lz4", kLZ4Compression},       {"lz4hc", kLZ4HCCompression},
      {"xpress", kXpressCompression}, {"zstd", kZSTD}};
  if (allow_disable && name == "disable") {
    *out = kDisableCompressionOption;
    return true;
  }
  for (const auto& [n, t] : kNames) {
    if (name == n) {
      *out = t;
      return true;
    }
  }
  return false;
}

[[noreturn]] void Usage(const char* msg) {
  fprintf(stderr, "db_stress: %s\n", msg);
  fprintf(stderr,
          "usage: db_stress --db=DIR --expected_dir=DIR [--threads=N] [--duration=SECS |\n"
          "  --ops_per_thread=N] [--max_key=N] [--sync=0|1] [--disable_wal=0|1]\n"
          "  [--write_buffer_size=B] [--target_file_size_base=B] [--max_bytes_for_level_base=B]\n"
          "  [--level0_file_num_compaction_trigger=N] [--max_background_jobs=N]\n"
          "  [--max_write_buffer_number=N] [--compression=none|snappy|lz4|zstd]\n"
          "  [--wal_mmap_writes=0|1] [--wal_recovery_mode=0..3] [--reopen=N]\n"
          "  [--verify_only=0|1] [--probe_open=0|1] [--seed=N]\n"
          "  [--destroy_db_initially=0|1] [--simulate_power_loss_one_in=N]\n"
          "  [--flush_one_in=N] [--compact_range_one_in=N] [--checkpoint_one_in=N]\n"
          "  [--backup_one_in=N]\n"
          "  [--inject_bug_for_test=0..6] [--emulate_styles_for_test=0|1]\n"
          "  [--compaction_style=0..3] [--compaction_pri=0..4] [--num_levels=N]\n"
          "  [--universal_size_ratio=N] [--universal_min_merge_width=N]\n"
          "  [--universal_max_merge_width=N] [--universal_max_size_amplification_percent=N]\n"
          "  [--universal_compression_size_percent=N] [--universal_allow_trivial_move=0|1]\n"
          "  [--universal_incremental=0|1] [--fifo_compaction_max_table_files_size_mb=N]\n"
          "  [--fifo_compaction_allow_compaction=0|1] [--compaction_ttl=SECS]\n"
          "  [--periodic_compaction_seconds=SECS] [--min_level_to_compress=N]\n"
          "  [--bottommost_compression_type=disable|none|snappy|lz4|zstd|...]\n"
          "  [--compression_max_dict_bytes=N] [--compression_zstd_max_train_bytes=N]\n"
          "  [--compression_parallel_threads=N]\n"
          "  [--single_delete=0|1] [--sd_delete_range=0|1]\n"
          "  [--use_txn=0|1] [--use_optimistic_txn=0|1] [--txn_write_policy=0]\n"
          "  [--unordered_write=0] [--txn_2pc_pct=N] [--txn_rollback_pct=N] [--txn_hold_pct=N]\n"
          "  [--txn_direct_pct=N] [--txn_lock_timeout_ms=N] [--txn_lock_first_pct=N]\n"
          "  [--put_pct= --delete_pct= --delrange_pct= --merge_pct= --batch_pct= --get_pct=\n"
          "   --multiget_pct= --iter_pct= --snapshot_pct=]\n");
  exit(2);
}

void ParseFlags(int argc, char** argv) {
  struct U64 {
    const char* name;
    uint64_t* v;
  };
  struct Int {
    const char* name;
    int* v;
  };
  struct Bool {
    const char* name;
    bool* v;
  };
  const U64 u64s[] = {
      {"ops_per_thread", &FLAGS.ops_per_thread},
      {"max_key", &FLAGS.max_key},
      {"write_buffer_size", &FLAGS.write_buffer_size},
      {"target_file_size_base", &FLAGS.target_file_size_base},
      {"max_bytes_for_level_base", &FLAGS.max_bytes_for_level_base},
      {"reopen", &FLAGS.reopen},
      {"seed", &FLAGS.seed},
      {"simulate_power_loss_one_in", &FLAGS.simulate_power_loss_one_in},
      {"flush_one_in", &FLAGS.flush_one_in},
      {"compact_range_one_in", &FLAGS.compact_range_one_in},
      {"checkpoint_one_in", &FLAGS.checkpoint_one_in},
      {"backup_one_in", &FLAGS.backup_one_in},
      {"fifo_compaction_max_table_files_size_mb", &FLAGS.fifo_compaction_max_table_files_size_mb},
      {"compaction_ttl", &FLAGS.compaction_ttl},
      {"periodic_compaction_seconds", &FLAGS.periodic_compaction_seconds}};
  const Int ints[] = {
      {"threads", &FLAGS.threads},
      {"txn_write_policy", &FLAGS.txn_write_policy},
      {"txn_2pc_pct", &FLAGS.txn_2pc_pct},
      {"txn_rollback_pct", &FLAGS.txn_rollback_pct},
      {"txn_hold_pct", &FLAGS.txn_hold_pct},
      {"txn_direct_pct", &FLAGS.txn_direct_pct},
      {"txn_lock_timeout_ms", &FLAGS.txn_lock_timeout_ms},
      {"txn_lock_first_pct", &FLAGS.txn_lock_first_pct},
      {"level0_file_num_compaction_trigger", &FLAGS.level0_file_num_compaction_trigger},
      {"max_background_jobs", &FLAGS.max_background_jobs},
      {"max_write_buffer_number", &FLAGS.max_write_buffer_number},
      {"wal_recovery_mode", &FLAGS.wal_recovery_mode},
      {"inject_bug_for_test", &FLAGS.inject_bug_for_test},
      {"compaction_style", &FLAGS.compaction_style},
      {"compaction_pri", &FLAGS.compaction_pri},
      {"num_levels", &FLAGS.num_levels},
      {"universal_size_ratio", &FLAGS.universal_size_ratio},
      {"universal_min_merge_width", &FLAGS.universal_min_merge_width},
      {"universal_max_merge_width", &FLAGS.universal_max_merge_width},
      {"universal_max_size_amplification_percent", &FLAGS.universal_max_size_amplification_percent},
      {"universal_compression_size_percent", &FLAGS.universal_compression_size_percent},
      {"min_level_to_compress", &FLAGS.min_level_to_compress},
      {"compression_max_dict_bytes", &FLAGS.compression_max_dict_bytes},
      {"compression_zstd_max_train_bytes", &FLAGS.compression_zstd_max_train_bytes},
      {"compression_parallel_threads", &FLAGS.compression_parallel_threads},
      {"put_pct", &FLAGS.put_pct},
      {"delete_pct", &FLAGS.delete_pct},
      {"delrange_pct", &FLAGS.delrange_pct},
      {"merge_pct", &FLAGS.merge_pct},
      {"batch_pct", &FLAGS.batch_pct},
      {"get_pct", &FLAGS.get_pct},
      {"multiget_pct", &FLAGS.multiget_pct},
      {"iter_pct", &FLAGS.iter_pct},
      {"snapshot_pct", &FLAGS.snapshot_pct}};
  const Bool bools[] = {
      {"sync", &FLAGS.sync},
      {"use_txn", &FLAGS.use_txn},
      {"unordered_write", &FLAGS.unordered_write},
      {"use_optimistic_txn", &FLAGS.use_optimistic_txn},
      {"disable_wal", &FLAGS.disable_wal},
      {"wal_mmap_writes", &FLAGS.wal_mmap_writes},
      {"verify_only", &FLAGS.verify_only},
      {"destroy_db_initially", &FLAGS.destroy_db_initially},
      {"probe_open", &FLAGS.probe_open},
      {"emulate_styles_for_test", &FLAGS.emulate_styles_for_test},
      {"sd_delete_range", &FLAGS.sd_delete_range},
      {"single_delete", &FLAGS.single_delete},
      {"universal_allow_trivial_move", &FLAGS.universal_allow_trivial_move},
      {"universal_incremental", &FLAGS.universal_incremental},
      {"fifo_compaction_allow_compaction", &FLAGS.fifo_compaction_allow_compaction}};
  bool seed_given = false;
  for (int i = 1; i < argc; i++) {
    std::string v;
    const char* a = argv[i];
    bool matched = false;
    if (ParseFlag(a, "db", &FLAGS.db) || ParseFlag(a, "expected_dir", &FLAGS.expected_dir) ||
        ParseFlag(a, "compression", &FLAGS.compression) ||
        ParseFlag(a, "bottommost_compression_type", &FLAGS.bottommost_compression_type)) {
      continue;
    }
    if (ParseFlag(a, "duration", &v)) {
      FLAGS.duration = strtod(v.c_str(), nullptr);
      continue;
    }
    for (const U64& f : u64s) {
      if (ParseFlag(a, f.name, &v)) {
        *f.v = strtoull(v.c_str(), nullptr, 10);
        matched = true;
        if (f.v == &FLAGS.seed) seed_given = true;
      }
    }
    for (const Int& f : ints) {
      if (ParseFlag(a, f.name, &v)) {
        *f.v = atoi(v.c_str());
        matched = true;
      }
    }
    for (const Bool& f : bools) {
      if (ParseFlag(a, f.name, &v)) {
        *f.v = (v == "1" || v == "true");
        matched = true;
      }
    }
    if (!matched) {
      fprintf(stderr, "db_stress: unknown flag %s\n", a);
      Usage("bad flag");
    }
  }
  if (FLAGS.db.empty() || FLAGS.expected_dir.empty()) Usage("--db and --expected_dir are needed");
  if (FLAGS.threads < 1) Usage("--threads must be >= 1");
  if (FLAGS.wal_recovery_mode < 0 || FLAGS.wal_recovery_mode > 3) {
    Usage("--wal_recovery_mode must be 0..3");
  }
  if (FLAGS.compaction_style < 0 || FLAGS.compaction_style > 3) {
    Usage("--compaction_style must be 0 (level), 1 (universal), 2 (FIFO) or 3 (none)");
  }
  if (FLAGS.compaction_pri < 0 || FLAGS.compaction_pri > 4) Usage("--compaction_pri must be 0..4");
  if (FLAGS.num_levels < 1) Usage("--num_levels must be >= 1");
  CompressionType unused;
  if (!ParseCompression(FLAGS.compression, false, &unused)) Usage("unknown --compression");
  if (!ParseCompression(FLAGS.bottommost_compression_type, true, &unused)) {
    Usage("unknown --bottommost_compression_type");
  }
  if (FLAGS.max_key < kStripe) FLAGS.max_key = kStripe;
  FLAGS.max_key = (FLAGS.max_key + kStripe - 1) / kStripe * kStripe;
  if (FLAGS.max_key / kStripe < static_cast<uint64_t>(FLAGS.threads)) {
    Usage("--max_key must give every thread a stripe (max_key >= 16 * threads)");
  }
  if (FLAGS.ops_per_thread == 0 && FLAGS.duration <= 0) FLAGS.ops_per_thread = 10000;
  if (FLAGS.use_optimistic_txn) FLAGS.use_txn = true;
  if (FLAGS.use_txn) {
    if (FLAGS.txn_write_policy != 0) {
      Usage(
          "--txn_write_policy: only 0 (WRITE_COMMITTED) is built; 1 (WRITE_PREPARED) and 2 "
          "(WRITE_UNPREPARED) are not");
    }
    if (FLAGS.threads > kMaxTxnThreads) Usage("--use_txn allows at most 64 --threads");
    if (FLAGS.simulate_power_loss_one_in != 0) {
      Usage(
          "--use_txn with --simulate_power_loss_one_in is not supported (the power-loss "
          "prefix check does not model transactions)");
    }
    if (FLAGS.checkpoint_one_in != 0 || FLAGS.backup_one_in != 0) {
      Usage(
          "--use_txn with --checkpoint_one_in or --backup_one_in is not supported (a copy "
          "holding prepared transactions needs a TransactionDB to open)");
    }
    if (FLAGS.disable_wal) Usage("--use_txn with --disable_wal is not supported");
    if (FLAGS.compaction_style == kCompactionStyleFIFO) {
      Usage(
          "--use_txn with FIFO compaction is not supported (the exact checks of recovered "
          "transactions assume no key silently vanishes)");
    }
    if (FLAGS.inject_bug_for_test >= 3 && FLAGS.inject_bug_for_test <= 4) {
      Usage("--inject_bug_for_test=3/4 (FIFO self-tests) are not run with --use_txn");
    }
  }
  if (FLAGS.unordered_write) {
    Usage(
        "--unordered_write=1 is not supported (RocksDB tests it only with WRITE_PREPARED, "
        "which is not built)");
  }
  if (FLAGS.txn_lock_timeout_ms < 0) Usage("--txn_lock_timeout_ms must be >= 0");
  if (!seed_given) {
    FLAGS.seed = std::random_device{}() ^
                 static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  }
}

// --------------------------------------------------------- keys, values ----

std::string Key(uint64_t k) {
  char buf[32];
  snprintf(buf, sizeof(buf), "k%012" PRIu64, k);
  return buf;
}

// Parses a key made by Key(); false if malformed.
bool ParseKey(const Slice& s, uint64_t* k) {
  if (s.size() != 13 || s[0] != 'k') return false;
  uint64_t v = 0;
  for (size_t i = 1; i < 13; i++) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + static_cast<uint64_t>(s[i] - '0');
  }
  *k = v;
  return true;
}

std::string Value(uint64_t k, uint32_t base) {
  char buf[64];
  snprintf(buf, sizeof(buf), "%08x|k%012" PRIu64 "|", base, k);
  std::string v = buf;
  size_t filler = (static_cast<uint64_t>(base) * 7 + k) % 48;
  for (size_t i = 0; i < filler; i++) {
    v.push_back(static_cast<char>('a' + (base + i * 31 + k) % 26));
  }
  return v;
}

// The base of a value of key k; false if the value is not f(k, base).
bool ParseValue(uint64_t k, const Slice& v, uint32_t* base) {
  if (v.size() < 8) return false;
  uint32_t b = 0;
  for (size_t i = 0; i < 8; i++) {
    char c = v[i];
    uint32_t d;
    if (c >= '0' && c <= '9') {
      d = static_cast<uint32_t>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      d = static_cast<uint32_t>(c - 'a' + 10);
    } else {
      return false;
    }
    b = b * 16 + d;
  }
  if (b == kAbsent || v != Slice(Value(k, b))) return false;
  *base = b;
  return true;
}

std::string Printable(const Slice& s) {
  std::string r;
  for (size_t i = 0; i < s.size() && i < 120; i++) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 32 && c < 127) {
      r.push_back(static_cast<char>(c));
    } else {
      char b[8];
      snprintf(b, sizeof(b), "\\x%02x", c);
      r += b;
    }
  }
  return r;
}

bool IsSingleDeleteKey(uint64_t k) { return FLAGS.single_delete && k % 8 == 7; }

// ------------------------------------------------------- expected state ----

void* MapFile(const std::string& path, size_t size, bool* created) {
  int fd = open(path.c_str(), O_RDWR | O_CREAT, 0644);
  if (fd < 0) {
    fprintf(stderr, "db_stress: cannot open %s: %s\n", path.c_str(), strerror(errno));
    exit(2);
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    perror("fstat");
    exit(2);
  }
  *created = static_cast<size_t>(st.st_size) != size;
  if (*created && ftruncate(fd, 0) != 0) {
    perror("ftruncate");
    exit(2);
  }
  if (*created && ftruncate(fd, static_cast<off_t>(size)) != 0) {
    perror("ftruncate");
    exit(2);
  }
  void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (p == MAP_FAILED) {
    perror("mmap");
    exit(2);
  }
  return p;
}

ExpectedState::ExpectedState(const std::string& dir, uint64_t max_key, bool reset)
    : max_key_(max_key) {
  mkdir(dir.c_str(), 0755);
  size_t size = sizeof(ExpectedHeader) + max_key * sizeof(ExpectedEntry);
  bool created;
  void* p = MapFile(dir + "/EXPECTED", size, &created);
  header_ = static_cast<ExpectedHeader*>(p);
  entries_ = reinterpret_cast<ExpectedEntry*>(static_cast<char*>(p) + sizeof(ExpectedHeader));
  if (!created && !reset && (header_->magic != kExpectedMagic || header_->max_key != max_key)) {
    fprintf(stderr,
            "db_stress: %s/EXPECTED was made for another --max_key; use "
            "--destroy_db_initially=1\n",
            dir.c_str());
    exit(2);
  }
  fresh_ = created || reset;
  if (fresh_) {
    memset(p, 0, size);
    header_->max_key = max_key;
    header_->magic = kExpectedMagic;
  }
}

// ------------------------------------------------------------ globals ----

const char* const kOpNames[kNumOpKinds] = {
    "put",      "delete", "single_delete", "delete_range", "merge",         "batch",      "get",
    "multiget", "iter",   "snapshot",      "flush",        "compact_range", "checkpoint", "backup"};

enum StopReason : int { kNoStop = 0, kStopReopen = 1, kStopPowerLoss = 2, kStopFailure = 3 };

ControlBlock* g_control = nullptr;
ExpectedState* g_expected = nullptr;
std::unique_ptr<DB> g_db;
std::shared_ptr<FaultInjectionFileSystem> g_fault_fs;
std::unique_ptr<Env> g_fault_env;
std::vector<std::mutex>* g_locks = nullptr;
std::atomic<int> g_stop{kNoStop};
std::atomic<uint64_t> g_failures{0};
std::atomic<uint64_t> g_total_ops{0};
std::atomic<uint64_t> g_next_reopen{0};
std::mutex g_print_mu;
std::chrono::steady_clock::time_point g_deadline;
uint64_t g_keys_verified = 0;
uint64_t g_reopens = 0;
uint64_t g_power_losses = 0;
uint64_t g_log_ops_checked = 0;
uint64_t g_ops_lost_to_power_loss = 0;

void Fail(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
void Fail(const char* fmt, ...) {
  std::lock_guard<std::mutex> l(g_print_mu);
  va_list ap;
  va_start(ap, fmt);
  fprintf(stdout, "VERIFICATION FAILURE: ");
  vfprintf(stdout, fmt, ap);
  fprintf(stdout, "\n");
  fflush(stdout);
  va_end(ap);
  g_failures.fetch_add(1);
  if (g_control != nullptr) g_control->failures.fetch_add(1);
  g_stop.store(kStopFailure);
}

std::string DescribeBase(uint32_t b) {
  if (b == kAbsent) return "absent";
  char buf[32];
  snprintf(buf, sizeof(buf), "base %08x", b);
  return buf;
}

std::string DescribeExpected(ExpectedEntry& e) {
  std::string r = DescribeBase(e.value.load());
  if (e.pending.load() != 0) r += " or (in flight) " + DescribeBase(e.pending_value.load());
  return r;
}

// Whether actual base a is allowed by the entry (either base while pending).
bool Allowed(ExpectedEntry& e, uint32_t a) {
  if (a == e.value.load()) return true;
  return e.pending.load() != 0 && a == e.pending_value.load();
}

// FIFO compaction deletes whole tables, oldest first, whenever the family
// grows past max_table_files_size (or its tables pass ttl): then any key
// may read as absent. See "FIFO" in the header comment.
// (--inject_bug_for_test=3 and 4 check these rules on any style: see OneOp.)
bool FifoMayDrop() {
  return FLAGS.compaction_style == kCompactionStyleFIFO || FLAGS.inject_bug_for_test == 3 ||
         FLAGS.inject_bug_for_test == 4;
}
std::atomic<uint64_t> g_fifo_dropped{0};  // reads that found a key FIFO dropped

// Whether base a read for key k is allowed: the expected base (either one
// while in flight), or, under FIFO, absent. The caller holds k's stripe;
// a key found dropped becomes expected-absent, so its old value can never
// come back unnoticed.
bool Accept(uint64_t k, uint32_t a) {
  ExpectedEntry& e = g_expected->at(k);
  if (Allowed(e, a)) return true;
  if (!FifoMayDrop() || a != kAbsent) return false;
  if (e.pending.load() == 0) e.value.store(kAbsent);
  g_fifo_dropped.fetch_add(1, std::memory_order_relaxed);
  return true;
}

// Reads a Get result into a base; reports malformed values and errors.
bool ReadResult(uint64_t k, const Status& s, const std::string& v, uint32_t* base,
                const char* what) {
  if (s.IsNotFound()) {
    *base = kAbsent;
    return true;
  }
  if (!s.ok()) {
    Fail("%s of %s failed: %s", what, Key(k).c_str(), s.ToString().c_str());
    return false;
  }
  if (!ParseValue(k, v, base)) {
    Fail("%s of %s returned a malformed value '%s' (expected %s)", what, Key(k).c_str(),
         Printable(v).c_str(), DescribeExpected(g_expected->at(k)).c_str());
    return false;
  }
  return true;
}

// ------------------------------------------------------------- options ----

Options MakeOptions() {
  Options o;
  o.create_if_missing = true;
  o.write_buffer_size = FLAGS.write_buffer_size;
  o.target_file_size_base = FLAGS.target_file_size_base;
  o.max_bytes_for_level_base = FLAGS.max_bytes_for_level_base;
  o.level0_file_num_compaction_trigger = FLAGS.level0_file_num_compaction_trigger;
  o.max_background_jobs = FLAGS.max_background_jobs;
  o.max_write_buffer_number = FLAGS.max_write_buffer_number;
  o.wal_mmap_writes = FLAGS.wal_mmap_writes;
  o.wal_recovery_mode = static_cast<WALRecoveryMode>(FLAGS.wal_recovery_mode);
  o.merge_operator = MergeOperators::CreatePutOperator();
  ParseCompression(FLAGS.compression, false, &o.compression);  // checked by ParseFlags
  ParseCompression(FLAGS.bottommost_compression_type, true, &o.bottommost_compression);
  if (FLAGS.min_level_to_compress >= 0) {
    // db_bench's meaning: no compression above that level, --compression
    // from it on.
    o.compression_per_level.assign(static_cast<size_t>(FLAGS.num_levels), o.compression);
    for (int i = 0; i < FLAGS.min_level_to_compress && i < FLAGS.num_levels; i++) {
      o.compression_per_level[static_cast<size_t>(i)] = kNoCompression;
    }
  }
  o.compression_opts.max_dict_bytes = static_cast<uint32_t>(FLAGS.compression_max_dict_bytes);
  o.compression_opts.zstd_max_train_bytes =
      static_cast<uint32_t>(FLAGS.compression_zstd_max_train_bytes);
  o.compression_opts.parallel_threads = static_cast<uint32_t>(FLAGS.compression_parallel_threads);
  o.compaction_style = static_cast<CompactionStyle>(FLAGS.compaction_style);
  o.compaction_pri = static_cast<CompactionPri>(FLAGS.compaction_pri);
  o.num_levels = FLAGS.num_levels;
  CompactionOptionsUniversal& u = o.compaction_options_universal;
  if (FLAGS.universal_size_ratio > 0)
    u.size_ratio = static_cast<unsigned>(FLAGS.universal_size_ratio);
  if (FLAGS.universal_min_merge_width > 0) {
    u.min_merge_width = static_cast<unsigned>(FLAGS.universal_min_merge_width);
  }
  if (FLAGS.universal_max_merge_width > 0) {
    u.max_merge_width = static_cast<unsigned>(FLAGS.universal_max_merge_width);
  }
  if (FLAGS.universal_max_size_amplification_percent > 0) {
    u.max_size_amplification_percent =
        static_cast<unsigned>(FLAGS.universal_max_size_amplification_percent);
  }
  u.compression_size_percent = FLAGS.universal_compression_size_percent;
  u.allow_trivial_move = FLAGS.universal_allow_trivial_move;
  u.incremental = FLAGS.universal_incremental;
  if (FLAGS.fifo_compaction_max_table_files_size_mb > 0) {
    o.compaction_options_fifo.max_table_files_size = FLAGS.fifo_compaction_max_table_files_size_mb
                                                     << 20;
  }
  o.compaction_options_fifo.allow_compaction = FLAGS.fifo_compaction_allow_compaction;
  o.ttl = FLAGS.compaction_ttl;
  o.periodic_compaction_seconds = FLAGS.periodic_compaction_seconds;
  if (o.compaction_style == kCompactionStyleFIFO) {
    // FIFO keeps one level (RocksDB sanitizes num_levels to 1 itself).
    o.num_levels = 1;
  }
  if (o.compaction_style == kCompactionStyleNone) {
    // Nothing but CompactRange empties level 0, and a thread blocked in a
    // stopped write never gets to issue one: without these, level 0 would
    // reach the stop trigger and every thread would wait forever.
    o.level0_slowdown_writes_trigger = 1 << 30;
    o.level0_stop_writes_trigger = 1 << 30;
  }
  if (FLAGS.emulate_styles_for_test) {
    o.compaction_style = kCompactionStyleLevel;
    o.num_levels = Options().num_levels;
  }
  if (g_fault_env) o.env = g_fault_env.get();
  return o;
}

Status OpenDB() {
  Options o = MakeOptions();
  if (FLAGS.use_txn) return OpenTxnDB(o);
  return DB::Open(o, FLAGS.db, &g_db);
}

// ------------------------------------------------------ full verification ----

// Reads the whole DB twice (one scan, one Get per key), checks both agree
// and every value is well formed; fills actual[k] with the base (kAbsent if
// missing). Returns false on a failure (already reported).
bool ReadAll(std::vector<uint32_t>* actual) {
  actual->assign(FLAGS.max_key, kAbsent);
  bool ok = true;
  ReadOptions ro;
  std::unique_ptr<Iterator> it = g_db->NewIterator(ro);
  uint64_t prev = 0;
  bool have_prev = false;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    uint64_t k;
    if (!ParseKey(it->key(), &k) || k >= FLAGS.max_key) {
      Fail("scan found an unknown key '%s'", Printable(it->key()).c_str());
      return false;
    }
    if (have_prev && k <= prev) {
      Fail("scan out of order: %s after %s", Key(k).c_str(), Key(prev).c_str());
      return false;
    }
    prev = k;
    have_prev = true;
    uint32_t b;
    if (!ParseValue(k, it->value(), &b)) {
      Fail("scan: %s has a malformed value '%s' (expected %s)", Key(k).c_str(),
           Printable(it->value()).c_str(), DescribeExpected(g_expected->at(k)).c_str());
      return false;
    }
    (*actual)[k] = b;
  }
  if (!it->status().ok()) {
    Fail("scan failed: %s", it->status().ToString().c_str());
    return false;
  }
  it.reset();
  std::string v;
  for (uint64_t k = 0; k < FLAGS.max_key; k++) {
    Status s = g_db->Get(ro, Key(k), &v);
    uint32_t b;
    if (!ReadResult(k, s, v, &b, "verification Get")) return false;
    if (b != (*actual)[k] && FifoMayDrop() && b == kAbsent) {
      // FIFO dropped the key's table between the scan and the Get.
      (*actual)[k] = kAbsent;
    } else if (b != (*actual)[k]) {
      Fail("%s: Get returns %s but a scan returns %s", Key(k).c_str(), DescribeBase(b).c_str(),
           DescribeBase((*actual)[k]).c_str());
      ok = false;
    }
  }
  return ok;
}

// Checks every key against the expected state; with resolve, in-flight
// entries take the value found. Returns the number of failures.
uint64_t VerifyAll(bool resolve, const char* when) {
  std::vector<uint32_t> actual;
  if (!ReadAll(&actual)) return 1;
  uint64_t failures = 0;
  for (uint64_t k = 0; k < FLAGS.max_key; k++) {
    ExpectedEntry& e = g_expected->at(k);
    if (!Accept(k, actual[k])) {
      if (failures < 20) {
        Fail("%s: key %s expected %s, found %s", when, Key(k).c_str(), DescribeExpected(e).c_str(),
             DescribeBase(actual[k]).c_str());
      }
      failures++;
    } else if (resolve && e.pending.load() != 0) {
      e.value.store(actual[k]);
      e.pending.store(0);
    }
  }
  g_keys_verified += FLAGS.max_key;
  if (g_control) g_control->keys_verified.fetch_add(FLAGS.max_key);
  if (failures > 20) Fail("%s: %" PRIu64 " keys wrong in all", when, failures);
  return failures;
}

// ------------------------------------------------------------- threads ----

bool PowerLossMode() { return FLAGS.simulate_power_loss_one_in != 0; }

uint64_t PickStripe(ThreadState* ts) {
  uint64_t stripes = FLAGS.max_key / kStripe;
  if (!PowerLossMode()) return ts->Uniform(stripes);
  uint64_t owned = (stripes - static_cast<uint64_t>(ts->id) + FLAGS.threads - 1) / FLAGS.threads;
  return static_cast<uint64_t>(ts->id) + FLAGS.threads * ts->Uniform(owned);
}

WriteOptions MakeWriteOptions() {
  WriteOptions wo;
  wo.sync = FLAGS.sync;
  wo.disableWAL = FLAGS.disable_wal;
  return wo;
}

// Issues a write that sets the keys of `changes` to the given bases: marks
// them pending, runs `issue`, then commits or (power loss) leaves them in
// flight. Returns false when the thread must stop. The stripe lock is held.
template <typename IssueFn>
bool DoWrite(ThreadState* ts, const std::vector<std::pair<uint64_t, uint32_t>>& changes,
             OpKind kind, IssueFn issue) {
  for (const auto& c : changes) {
    ExpectedEntry& e = g_expected->at(c.first);
    e.pending_value.store(c.second);
    e.pending.store(1);
  }
  Status s = issue();
  if (s.ok()) {
    ts->log_ops++;
    bool skip = FLAGS.inject_bug_for_test == 1 && kind == kPut && ts->OneIn(500);
    for (const auto& c : changes) {
      ExpectedEntry& e = g_expected->at(c.first);
      if (!skip) e.value.store(c.second);
      e.pending.store(0);
      if (PowerLossMode()) ts->log.push_back({ts->log_ops, c.first, c.second});
    }
    ts->counts[kind]++;
    return true;
  }
  if (PowerLossMode() && !g_fault_fs->IsFilesystemActive()) {
    // The crash happened under this write: it may or may not have landed.
    ts->maybe_op = true;
    for (const auto& c : changes) ts->log.push_back({ts->log_ops + 1, c.first, c.second});
    return false;
  }
  Fail("%s of %s failed: %s", kOpNames[kind], Key(changes[0].first).c_str(), s.ToString().c_str());
  return false;
}

// Checks what an iterator shows of [lo, hi) against `exp` (bases indexed
// from lo) after Seek/SeekForPrev; keys outside the range are not locked
// and are only checked for order.
bool CheckIterator(ThreadState* ts, uint64_t lo, uint64_t hi, const std::vector<uint32_t>& exp,
                   const Snapshot* snap, const char* what) {
  std::string lo_key = Key(lo), hi_key = Key(hi);
  Slice lo_s(lo_key), hi_s(hi_key);
  ReadOptions ro;
  ro.snapshot = snap;
  bool bounded_hi = ts->OneIn(2), bounded_lo = ts->OneIn(2);
  if (bounded_hi) ro.iterate_upper_bound = &hi_s;
  if (bounded_lo) ro.iterate_lower_bound = &lo_s;
  std::unique_ptr<Iterator> it = g_db->NewIterator(ro);
  auto next_existing = [&](uint64_t from) -> uint64_t {  // first existing >= from, or hi
    for (uint64_t k = from; k < hi; k++) {
      if (exp[k - lo] != kAbsent) return k;
    }
    return hi;
  };
  auto prev_existing = [&](uint64_t from) -> int64_t {  // last existing <= from, or -1
    for (int64_t k = static_cast<int64_t>(from); k >= static_cast<int64_t>(lo); k--) {
      if (exp[static_cast<uint64_t>(k) - lo] != kAbsent) return k;
    }
    return -1;
  };
  // Checks the iterator is at key want (or, when want is outside the range,
  // past the range in that direction or invalid).
  auto check_at = [&](int64_t want, bool forward) -> bool {
    if (!it->status().ok()) {
      Fail("%s: iterator error %s", what, it->status().ToString().c_str());
      return false;
    }
    bool outside = want < 0 || static_cast<uint64_t>(want) >= hi;
    if (outside) {
      if (!it->Valid()) return true;
      if ((forward && bounded_hi) || (!forward && bounded_lo)) {
        Fail("%s: %s iterator at '%s', expected nothing %s in [%s, %s) (bounded)", what,
             forward ? "forward" : "backward", Printable(it->key()).c_str(),
             forward ? "from here on" : "before here", lo_key.c_str(), hi_key.c_str());
        return false;
      }
      uint64_t k;
      if (!ParseKey(it->key(), &k) || (forward && k < hi) || (!forward && k >= lo)) {
        Fail("%s: %s iterator at '%s', expected nothing %s in [%s, %s)", what,
             forward ? "forward" : "backward", Printable(it->key()).c_str(),
             forward ? "from here on" : "before here", lo_key.c_str(), hi_key.c_str());
        return false;
      }
      return true;
    }
    uint64_t w = static_cast<uint64_t>(want);
    if (!it->Valid()) {
      Fail("%s: iterator invalid, expected %s (%s)", what, Key(w).c_str(),
           DescribeBase(exp[w - lo]).c_str());
      return false;
    }
    uint64_t k;
    uint32_t b;
    if (!ParseKey(it->key(), &k) || k != w) {
      Fail("%s: iterator at '%s', expected %s (%s)", what, Printable(it->key()).c_str(),
           Key(w).c_str(), DescribeBase(exp[w - lo]).c_str());
      return false;
    }
    if (!ParseValue(k, it->value(), &b) || b != exp[w - lo]) {
      Fail("%s: iterator value of %s is '%s', expected %s", what, Key(w).c_str(),
           Printable(it->value()).c_str(), DescribeBase(exp[w - lo]).c_str());
      return false;
    }
    return true;
  };
  // Under FIFO an expected key may be missing (its table dropped): the
  // iterator may skip ahead to a later key of the range (or past it), and
  // check_at then holds what it shows to the expected base, so a key that
  // should be absent, or a stale value, still fails.
  const bool fifo = FifoMayDrop();
  auto skip_forward = [&](uint64_t want) -> uint64_t {
    uint64_t k;
    if (!fifo || want >= hi || !it->status().ok()) return want;
    if (!it->Valid()) return hi;
    if (!ParseKey(it->key(), &k) || k < want) return want;  // check_at reports it
    return std::min(k, hi);
  };
  auto skip_backward = [&](int64_t want) -> int64_t {
    uint64_t k;
    if (!fifo || want < 0 || !it->status().ok()) return want;
    if (!it->Valid()) return -1;
    if (!ParseKey(it->key(), &k) || k > static_cast<uint64_t>(want)) return want;
    return k < lo ? -1 : static_cast<int64_t>(k);
  };
  // Forward.
  uint64_t target = lo + ts->Uniform(hi - lo);
  it->Seek(Key(target));
  uint64_t want = skip_forward(next_existing(target));
  if (!check_at(want >= hi ? -1 : static_cast<int64_t>(want), true)) return false;
  for (int i = 0; i < 4 && want < hi && it->Valid(); i++) {
    it->Next();
    want = skip_forward(next_existing(want + 1));
    if (!check_at(want >= hi ? -1 : static_cast<int64_t>(want), true)) return false;
  }
  // Backward.
  target = lo + ts->Uniform(hi - lo);
  it->SeekForPrev(Key(target));
  int64_t pw = skip_backward(prev_existing(target));
  if (!check_at(pw, false)) return false;
  for (int i = 0; i < 4 && pw >= 0 && it->Valid(); i++) {
    it->Prev();
    pw = pw == static_cast<int64_t>(lo) ? -1 : prev_existing(static_cast<uint64_t>(pw) - 1);
    pw = skip_backward(pw);
    if (!check_at(pw, false)) return false;
  }
  return true;
}

void CheckHeldSnapshot(ThreadState* ts) {
  uint64_t lo = ts->snap_stripe * kStripe, hi = lo + kStripe;
  ReadOptions ro;
  ro.snapshot = ts->snap;
  std::string v;
  for (uint64_t k = lo; k < hi; k++) {
    Status s = g_db->Get(ro, Key(k), &v);
    uint32_t b;
    if (!ReadResult(k, s, v, &b, "snapshot Get")) break;
    if (b != ts->snap_values[k - lo] && !(FifoMayDrop() && b == kAbsent)) {
      Fail("snapshot Get of %s: expected %s (at snapshot time), found %s", Key(k).c_str(),
           DescribeBase(ts->snap_values[k - lo]).c_str(), DescribeBase(b).c_str());
      break;
    }
  }
  if (g_stop.load() != kStopFailure) {
    CheckIterator(ts, lo, hi, ts->snap_values, ts->snap, "snapshot iterator");
  }
  g_db->ReleaseSnapshot(ts->snap);
  ts->snap = nullptr;
}

// ---------------------------------------------------------- checkpoints ----

// Checkpoints live in <expected_dir>/checkpoints/cp-<thread>. A directory
// is only ever created under its final name by Checkpoint's rename, and
// removed by renaming it to <name>.del first, so a kill at any moment
// leaves every directory without a suffix complete.
std::string CheckpointRoot() { return FLAGS.expected_dir + "/checkpoints"; }

bool HasSuffix(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

void RemoveCopy(const std::string& dir) {
  std::error_code ec;
  if (std::filesystem::exists(dir, ec)) {
    std::filesystem::rename(dir, dir + ".del", ec);
    std::filesystem::remove_all(dir + ".del", ec);
  }
}

// Opens a copy of the DB read-only: every key and value must be well
// formed, and the keys of [lo, hi) (the caller holds their stripe) must
// hold exactly their expected bases.
bool CheckCopy(const std::string& dir, uint64_t lo, uint64_t hi, const char* what) {
  Options o = MakeOptions();
  o.create_if_missing = false;
  o.env = Env::Default();
  std::unique_ptr<DB> copy;
  Status s = DB::OpenForReadOnly(o, dir, &copy);
  if (!s.ok()) {
    Fail("%s %s does not open: %s", what, dir.c_str(), s.ToString().c_str());
    return false;
  }
  std::vector<uint32_t> seen(hi - lo, kAbsent);
  std::unique_ptr<Iterator> it = copy->NewIterator(ReadOptions());
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    uint64_t k;
    uint32_t b;
    if (!ParseKey(it->key(), &k) || k >= FLAGS.max_key || !ParseValue(k, it->value(), &b)) {
      Fail("%s %s holds a malformed entry '%s' -> '%s'", what, dir.c_str(),
           Printable(it->key()).c_str(), Printable(it->value()).c_str());
      return false;
    }
    if (k >= lo && k < hi) seen[k - lo] = b;
  }
  if (!it->status().ok()) {
    Fail("%s %s: scan failed: %s", what, dir.c_str(), it->status().ToString().c_str());
    return false;
  }
  for (uint64_t k = lo; k < hi; k++) {
    const uint32_t want = g_expected->at(k).value.load();
    // Under FIFO the copy may lack tables the live DB has since dropped
    // (and the other way round).
    if (seen[k - lo] != want && !(FifoMayDrop() && (seen[k - lo] == kAbsent || want == kAbsent))) {
      Fail("%s %s: %s is %s, expected %s", what, dir.c_str(), Key(k).c_str(),
           DescribeBase(seen[k - lo]).c_str(), DescribeBase(want).c_str());
      return false;
    }
  }
  return true;
}

std::string BackupRoot() { return FLAGS.expected_dir + "/backups"; }

// The backups of a run (opened at the first backup op).
std::mutex g_backup_mu;
std::unique_ptr<BackupEngine> g_backups;

Status OpenBackups() {
  std::lock_guard<std::mutex> l(g_backup_mu);
  if (g_backups != nullptr) return Status::OK();
  return BackupEngine::Open(BackupEngineOptions(BackupRoot()), Env::Default(), &g_backups);
}

// Every backup a (possibly killed) run left that the engine lists must
// verify with checksums and none may be corrupt; the newest must restore
// to a DB that opens with well-formed data. (Opening the engine removes
// what an interrupted backup left.)
void VerifyLeftBackups() {
  std::error_code ec;
  if (!std::filesystem::is_directory(BackupRoot(), ec)) return;
  Status s = OpenBackups();
  if (!s.ok()) {
    Fail("BackupEngine::Open of %s failed: %s", BackupRoot().c_str(), s.ToString().c_str());
    return;
  }
  std::vector<BackupID> corrupt;
  g_backups->GetCorruptedBackups(&corrupt);
  if (!corrupt.empty()) {
    Fail("%zu backup(s) left by an earlier run are corrupt (first: %u)", corrupt.size(),
         corrupt.front());
    return;
  }
  std::vector<BackupInfo> infos;
  g_backups->GetBackupInfo(&infos);
  for (const BackupInfo& info : infos) {
    s = g_backups->VerifyBackup(info.backup_id, /*verify_with_checksum=*/true);
    if (!s.ok()) {
      Fail("backup %u left by an earlier run does not verify: %s", info.backup_id,
           s.ToString().c_str());
      return;
    }
  }
  if (!infos.empty()) {
    const std::string dir = FLAGS.expected_dir + "/restore-verify";
    std::filesystem::remove_all(dir, ec);
    s = g_backups->RestoreDBFromLatestBackup(RestoreOptions(), dir, dir);
    if (!s.ok()) {
      Fail("restore of the newest backup failed: %s", s.ToString().c_str());
      return;
    }
    if (!CheckCopy(dir, 0, 0, "restored backup left by an earlier run")) return;
    std::filesystem::remove_all(dir, ec);
  }
  printf("db_stress: %zu backup(s) left by an earlier run verify; the newest restores\n",
         infos.size());
}

// At startup: what an earlier (possibly killed) run left. Staging and
// half-removed directories go; every other one must be a complete copy.
void VerifyLeftCopies() {
  VerifyLeftBackups();
  if (g_failures.load() != 0) return;
  std::error_code ec;
  if (!std::filesystem::is_directory(CheckpointRoot(), ec)) return;
  std::vector<std::string> dirs;
  for (const auto& e : std::filesystem::directory_iterator(CheckpointRoot(), ec)) {
    dirs.push_back(e.path().string());
  }
  int complete = 0, partial = 0;
  for (const std::string& d : dirs) {
    if (HasSuffix(d, ".tmp") || HasSuffix(d, ".del")) {
      std::filesystem::remove_all(d, ec);
      partial++;
    } else if (!CheckCopy(d, 0, 0, "checkpoint left by an earlier run")) {
      return;
    } else {
      complete++;
    }
  }
  printf(
      "db_stress: %d checkpoint(s) left by an earlier run open and hold well-formed data;"
      " %d unfinished one(s) removed\n",
      complete, partial);
}

// One random operation. Returns false when the thread must stop.
bool OneOp(ThreadState* ts) {
  const int weights[] = {FLAGS.put_pct,      FLAGS.delete_pct,   0,
                         FLAGS.delrange_pct, FLAGS.merge_pct,    FLAGS.batch_pct,
                         FLAGS.get_pct,      FLAGS.multiget_pct, FLAGS.iter_pct,
                         FLAGS.snapshot_pct};
  int total = 0;
  for (int w : weights) total += std::max(w, 0);
  if (total <= 0) total = 1;
  int r = static_cast<int>(ts->Uniform(static_cast<uint64_t>(total)));
  int kind = 0;
  for (; kind < 10; kind++) {
    int w = std::max(weights[kind], 0);
    if (r < w) break;
    r -= w;
  }
  if (kind >= 10) kind = kGet;
  if (ts->OneIn(FLAGS.flush_one_in)) kind = kFlush;
  if (ts->OneIn(FLAGS.compact_range_one_in)) kind = kCompactRange;
  if (!PowerLossMode() && ts->OneIn(FLAGS.checkpoint_one_in)) kind = kCheckpoint;
  if (!PowerLossMode() && ts->OneIn(FLAGS.backup_one_in)) kind = kBackup;

  uint64_t stripe = PickStripe(ts);
  uint64_t lo = stripe * kStripe, hi = lo + kStripe;
  uint64_t k = lo + ts->Uniform(kStripe);
  std::unique_lock<std::mutex> lock((*g_locks)[stripe]);
  WriteOptions wo = MakeWriteOptions();
  ReadOptions ro;

  if (PowerLossMode() && (kind <= kBatch) && ts->OneIn(FLAGS.simulate_power_loss_one_in)) {
    // The crash moment: nothing more reaches the disk from now on -- unless
    // another thread already stopped the epoch (a reopen, whose Close must
    // not meet a dead file system).
    int expected = kNoStop;
    if (g_stop.compare_exchange_strong(expected, kStopPowerLoss)) {
      g_fault_fs->SetFilesystemActive(false);
    }
  }

  // Single-delete keys follow their own rule for every single-key write.
  if ((kind == kPut || kind == kDelete || kind == kMerge) && IsSingleDeleteKey(k)) {
    kind = g_expected->at(k).value.load() == kAbsent ? kPut : kSingleDelete;
  }
  if (FLAGS.use_txn && kind <= kBatch) return TxnOp(ts, lock, kind, k, stripe);

  switch (kind) {
    case kPut:
    case kMerge: {
      const uint32_t old = g_expected->at(k).value.load();
      uint32_t b = g_expected->NextBase(k);
      std::string key = Key(k), val = Value(k, b);
      bool ok = DoWrite(ts, {{k, b}}, static_cast<OpKind>(kind), [&] {
        return kind == kPut ? g_db->Put(wo, key, val) : g_db->Merge(wo, key, val);
      });
      const bool simulate_drops =
          FLAGS.inject_bug_for_test == 3 || FLAGS.inject_bug_for_test == 4 ||
          (FLAGS.emulate_styles_for_test && FLAGS.compaction_style == kCompactionStyleFIFO);
      if (ok && simulate_drops && !IsSingleDeleteKey(k) && ts->OneIn(100)) {
        // Self-tests of the FIFO rules. 3: the key silently vanishes, as
        // if FIFO dropped its table (must pass, with fifo_dropped_reads >
        // 0). 4: it silently goes back to its previous value, which no
        // drop can do (must fail).
        Status s = FLAGS.inject_bug_for_test != 4 || old == kAbsent
                       ? g_db->Delete(wo, key)
                       : g_db->Put(wo, key, Value(k, old));
        if (!s.ok()) {
          if (PowerLossMode() && !g_fault_fs->IsFilesystemActive()) return false;
          Fail("self-test write failed: %s", s.ToString().c_str());
          return false;
        }
      }
      return ok;
    }
    case kDelete:
    case kSingleDelete: {
      std::string key = Key(k);
      return DoWrite(ts, {{k, kAbsent}}, static_cast<OpKind>(kind), [&] {
        return kind == kDelete ? g_db->Delete(wo, key) : g_db->SingleDelete(wo, key);
      });
    }
    case kDeleteRange: {
      // Unless --sd_delete_range, a range never covers a single-delete key
      // (keys lo+7 and lo+15 of the stripe): RocksDB's rule allows only one
      // Put since the last SingleDelete, and Put, DeleteRange, Put,
      // SingleDelete has two.
      uint64_t a = lo + ts->Uniform(kStripe);
      uint64_t b = std::min(hi, a + 1 + ts->Uniform(6));
      if (!FLAGS.sd_delete_range) {
        uint64_t group = lo + 8 * ts->Uniform(2);
        a = group + ts->Uniform(7);
        b = std::min(group + 7, a + 1 + ts->Uniform(6));
      }
      std::vector<std::pair<uint64_t, uint32_t>> ch;
      for (uint64_t x = a; x < b; x++) ch.push_back({x, kAbsent});
      std::string ka = Key(a), kb = Key(b);
      return DoWrite(ts, ch, kDeleteRange,
                     [&] { return g_db->DeleteRange(wo, g_db->DefaultColumnFamily(), ka, kb); });
    }
    case kBatch: {
      WriteBatch batch;
      std::vector<std::pair<uint64_t, uint32_t>> ch;
      int n = 2 + static_cast<int>(ts->Uniform(5));
      std::vector<bool> used(kStripe, false);
      for (int i = 0; i < n; i++) {
        uint64_t x = lo + ts->Uniform(kStripe);
        if (used[x - lo]) continue;
        used[x - lo] = true;
        std::string key = Key(x);
        Status s;
        if (IsSingleDeleteKey(x)) {
          if (g_expected->at(x).value.load() == kAbsent) {
            uint32_t b = g_expected->NextBase(x);
            s = batch.Put(key, Value(x, b));
            ch.push_back({x, b});
          } else {
            s = batch.SingleDelete(key);
            ch.push_back({x, kAbsent});
          }
        } else {
          switch (ts->Uniform(3)) {
            case 0: {
              uint32_t b = g_expected->NextBase(x);
              s = batch.Put(key, Value(x, b));
              ch.push_back({x, b});
              break;
            }
            case 1: {
              uint32_t b = g_expected->NextBase(x);
              s = batch.Merge(key, Value(x, b));
              ch.push_back({x, b});
              break;
            }
            default:
              s = batch.Delete(key);
              ch.push_back({x, kAbsent});
              break;
          }
        }
        if (!s.ok()) {
          Fail("WriteBatch build failed: %s", s.ToString().c_str());
          return false;
        }
      }
      return DoWrite(ts, ch, kBatch, [&] { return g_db->Write(wo, &batch); });
    }
    case kGet: {
      std::string v;
      Status s = g_db->Get(ro, Key(k), &v);
      uint32_t b;
      if (!ReadResult(k, s, v, &b, "Get")) return false;
      if (!Accept(k, b)) {
        Fail("Get of %s: expected %s, found %s", Key(k).c_str(),
             DescribeExpected(g_expected->at(k)).c_str(), DescribeBase(b).c_str());
        return false;
      }
      ts->counts[kGet]++;
      return true;
    }
    case kMultiGet: {
      int n = 1 + static_cast<int>(ts->Uniform(8));
      std::vector<std::string> keys;
      std::vector<uint64_t> idx;
      for (int i = 0; i < n; i++) {
        uint64_t x = lo + ts->Uniform(kStripe);
        idx.push_back(x);
        keys.push_back(Key(x));
      }
      std::vector<Slice> slices(keys.begin(), keys.end());
      std::vector<std::string> values;
      std::vector<Status> st = g_db->MultiGet(ro, slices, &values);
      if (st.size() != keys.size() || values.size() != keys.size()) {
        Fail("MultiGet returned %zu statuses and %zu values for %zu keys", st.size(), values.size(),
             keys.size());
        return false;
      }
      for (size_t i = 0; i < keys.size(); i++) {
        uint32_t b;
        if (!ReadResult(idx[i], st[i], values[i], &b, "MultiGet")) return false;
        if (!Accept(idx[i], b)) {
          Fail("MultiGet of %s: expected %s, found %s", keys[i].c_str(),
               DescribeExpected(g_expected->at(idx[i])).c_str(), DescribeBase(b).c_str());
          return false;
        }
      }
      ts->counts[kMultiGet]++;
      return true;
    }
    case kIter: {
      std::vector<uint32_t> exp(kStripe);
      for (uint64_t x = lo; x < hi; x++) exp[x - lo] = g_expected->at(x).value.load();
      if (!CheckIterator(ts, lo, hi, exp, nullptr, "iterator")) return false;
      ts->counts[kIter]++;
      return true;
    }
    case kSnapshot: {
      if (ts->snap != nullptr) return true;
      ts->snap = g_db->GetSnapshot();
      ts->snap_stripe = stripe;
      ts->snap_values.resize(kStripe);
      for (uint64_t x = lo; x < hi; x++) ts->snap_values[x - lo] = g_expected->at(x).value.load();
      ts->snap_countdown = 1 + static_cast<int>(ts->Uniform(30));
      ts->counts[kSnapshot]++;
      return true;
    }
    case kFlush: {
      lock.unlock();
      FlushOptions fo;
      fo.wait = ts->OneIn(2);
      Status s = g_db->Flush(fo);
      if (!s.ok()) {
        if (PowerLossMode() && !g_fault_fs->IsFilesystemActive()) return false;
        Fail("Flush failed: %s", s.ToString().c_str());
        return false;
      }
      ts->counts[kFlush]++;
      return true;
    }
    case kCompactRange: {
      lock.unlock();
      std::string a = Key(lo), b = Key(lo + kStripe * (1 + ts->Uniform(64)));
      Slice sa(a), sb(b);
      CompactRangeOptions co;
      Status s = g_db->CompactRange(co, &sa, &sb);
      if (!s.ok()) {
        if (PowerLossMode() && !g_fault_fs->IsFilesystemActive()) return false;
        Fail("CompactRange failed: %s", s.ToString().c_str());
        return false;
      }
      ts->counts[kCompactRange]++;
      return true;
    }
    case kCheckpoint: {
      // The stripe stays locked: its keys must be in the copy exactly.
      std::error_code ec;
      std::filesystem::create_directories(CheckpointRoot(), ec);
      const std::string dir = CheckpointRoot() + "/cp-" + std::to_string(ts->id);
      RemoveCopy(dir);
      std::unique_ptr<Checkpoint> cp;
      Status s = Checkpoint::Create(g_db.get(), &cp);
      // Flushed first, or the WALs copied.
      if (s.ok()) s = cp->CreateCheckpoint(dir, ts->OneIn(2) ? 0 : UINT64_MAX);
      if (!s.ok()) {
        Fail("CreateCheckpoint failed: %s", s.ToString().c_str());
        return false;
      }
      if (!CheckCopy(dir, lo, hi, "checkpoint")) return false;
      ts->counts[kCheckpoint]++;
      return true;
    }
    case kBackup: {
      // The stripe stays locked: the newest backup (this one, or a later
      // one of another thread) holds its keys exactly.
      Status s = OpenBackups();
      CreateBackupOptions bo;
      bo.flush_before_backup = ts->OneIn(2);
      if (s.ok()) s = g_backups->CreateNewBackup(bo, g_db.get());
      if (!s.ok()) {
        Fail("CreateNewBackup failed: %s", s.ToString().c_str());
        return false;
      }
      const std::string dir = FLAGS.expected_dir + "/restore-" + std::to_string(ts->id);
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
      s = g_backups->RestoreDBFromLatestBackup(RestoreOptions(), dir, dir);
      if (!s.ok()) {
        Fail("RestoreDBFromLatestBackup failed: %s", s.ToString().c_str());
        return false;
      }
      if (!CheckCopy(dir, lo, hi, "restored backup")) return false;
      std::filesystem::remove_all(dir, ec);
      s = g_backups->PurgeOldBackups(3);
      if (!s.ok()) {
        Fail("PurgeOldBackups failed: %s", s.ToString().c_str());
        return false;
      }
      ts->counts[kBackup]++;
      return true;
    }
    default:
      return true;
  }
}

void ThreadBody(ThreadState* ts) {
  while (g_stop.load(std::memory_order_relaxed) == kNoStop) {
    if (FLAGS.ops_per_thread != 0 && ts->ops >= FLAGS.ops_per_thread) break;
    if (FLAGS.duration > 0 && (ts->ops & 15) == 0 &&
        std::chrono::steady_clock::now() >= g_deadline) {
      break;
    }
    if (FLAGS.use_txn && !TickHeld(ts)) break;
    bool go_on = OneOp(ts);
    ts->ops++;
    if (g_control && (ts->ops & 15) == 0) g_control->ops_done.fetch_add(16);
    if (ts->snap != nullptr && --ts->snap_countdown <= 0) CheckHeldSnapshot(ts);
    if (!go_on) break;
    uint64_t total = g_total_ops.fetch_add(1) + 1;
    if (FLAGS.reopen != 0 && total >= g_next_reopen.load(std::memory_order_relaxed)) {
      int expected = kNoStop;
      g_stop.compare_exchange_strong(expected, kStopReopen);
    }
  }
  if (FLAGS.use_txn) {
    // A held transaction is resolved before the DB closes; after a failure
    // it is only dropped (it stays prepared in the DB, as after a crash).
    if (g_stop.load() != kStopFailure) {
      ResolveHeld(ts);
    } else {
      DropHeld(ts);
    }
  }
  if (ts->snap != nullptr) {
    if (g_stop.load() != kStopFailure) {
      CheckHeldSnapshot(ts);
    } else {
      g_db->ReleaseSnapshot(ts->snap);
      ts->snap = nullptr;
    }
  }
}

// ------------------------------------------------------- power loss check ----

// A sorted list of disjoint closed intervals of prefix lengths.
using IntervalSet = std::vector<std::pair<uint64_t, uint64_t>>;

IntervalSet Intersect(const IntervalSet& a, const IntervalSet& b) {
  IntervalSet r;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    uint64_t lo = std::max(a[i].first, b[j].first), hi = std::min(a[i].second, b[j].second);
    if (lo <= hi) r.push_back({lo, hi});
    if (a[i].second < b[j].second) {
      i++;
    } else {
      j++;
    }
  }
  return r;
}

std::string DescribeSet(const IntervalSet& s) {
  std::string r = "{";
  for (const auto& iv : s) {
    char buf[64];
    snprintf(buf, sizeof(buf), "%s[%" PRIu64 ",%" PRIu64 "]", r.size() > 1 ? " " : "", iv.first,
             iv.second);
    r += buf;
  }
  return r + "}";
}

// Checks the recovered state `actual` against each thread's log: one prefix
// length per thread must explain every key of its partition. `initial` is
// the expected state when the epoch began.
bool CheckPrefixes(const std::vector<ThreadState>& threads, const std::vector<uint32_t>& initial,
                   const std::vector<uint32_t>& actual) {
  bool ok = true;
  uint64_t stripes = FLAGS.max_key / kStripe;
  for (const ThreadState& ts : threads) {
    uint64_t n = ts.log_ops + (ts.maybe_op ? 1 : 0);
    uint64_t min_prefix = FLAGS.sync && !FLAGS.disable_wal ? ts.log_ops : 0;
    IntervalSet feasible = {{min_prefix, n}};
    // Per key, its writes in op order.
    std::map<uint64_t, std::vector<std::pair<uint64_t, uint32_t>>> hist;
    for (const LogEntry& e : ts.log) hist[e.key].push_back({e.op, e.base});
    uint64_t bad_key = UINT64_MAX;
    for (uint64_t s = static_cast<uint64_t>(ts.id); s < stripes; s += FLAGS.threads) {
      for (uint64_t k = s * kStripe; k < (s + 1) * kStripe; k++) {
        // Under FIFO an absent key may have been dropped: it tells nothing
        // about the prefix.
        if (FifoMayDrop() && actual[k] == kAbsent) continue;
        IntervalSet ks;
        auto it = hist.find(k);
        // Value w_j holds for prefixes [op_j, op_{j+1} - 1]; w_0 = initial.
        uint64_t start = 0;
        uint32_t val = initial[k];
        auto add = [&](uint64_t end) {
          if (val == actual[k] && start <= end) {
            if (!ks.empty() && ks.back().second + 1 >= start) {
              ks.back().second = std::max(ks.back().second, end);
            } else {
              ks.push_back({start, end});
            }
          }
        };
        if (it != hist.end()) {
          for (const auto& w : it->second) {
            if (w.first > start) add(w.first - 1);
            start = w.first;
            val = w.second;
          }
        }
        add(n);
        IntervalSet next = Intersect(feasible, ks);
        if (next.empty()) {
          bad_key = k;
          Fail("power loss %" PRIu64
               ": thread %d, key %s recovered as %s: consistent with "
               "prefixes %s of %" PRIu64 " ops (%" PRIu64
               " acknowledged, sync=%d), but the "
               "keys before it allow only %s",
               g_power_losses, ts.id, Key(k).c_str(), DescribeBase(actual[k]).c_str(),
               DescribeSet(ks).c_str(), n, ts.log_ops, FLAGS.sync ? 1 : 0,
               DescribeSet(feasible).c_str());
          {
            std::lock_guard<std::mutex> l(g_print_mu);
            printf("  history of %s: initial %s", Key(k).c_str(), DescribeBase(initial[k]).c_str());
            if (it != hist.end()) {
              for (const auto& w : it->second) {
                printf(", op %" PRIu64 " -> %s", w.first, DescribeBase(w.second).c_str());
              }
            }
            printf("\n");
            fflush(stdout);
          }
          break;
        }
        feasible = std::move(next);
      }
      if (bad_key != UINT64_MAX) break;
    }
    if (bad_key != UINT64_MAX) {
      ok = false;
    } else {
      g_log_ops_checked += n;
      // Ops in the log past the largest consistent prefix were lost.
      g_ops_lost_to_power_loss += ts.log_ops - std::min(ts.log_ops, feasible.back().second);
    }
  }
  return ok;
}

// Claims the recovery window (see tools/db_stress_shared.h); if the driver
// is about to kill us, waits for it.
void EnterRecovery() {
  if (g_control == nullptr) return;
  for (;;) {
    uint32_t expected = kIdle;
    if (g_control->recovery.compare_exchange_strong(expected, kRecovering)) return;
    if (expected == kKilling) {
      for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

void LeaveRecovery() {
  if (g_control != nullptr) g_control->recovery.store(kIdle);
}

// After the threads stopped on a power loss: close, drop the unsynced data,
// reopen and check the prefix rule. Returns false on a failure.
bool RecoverFromPowerLoss(std::vector<ThreadState>& threads, const std::vector<uint32_t>& initial) {
  EnterRecovery();
  g_power_losses++;
  if (g_control) g_control->power_losses.fetch_add(1);
  g_db->Close().PermitUncheckedError();  // fails: the file system is inactive
  g_db.reset();
  Status s = g_fault_fs->DropUnsyncedData();
  g_fault_fs->SetFilesystemActive(true);
  if (!s.ok()) {
    fprintf(stderr, "db_stress: DropUnsyncedData failed: %s\n", s.ToString().c_str());
    exit(2);
  }
  s = OpenDB();
  if (!s.ok()) {
    Fail("reopen after power loss %" PRIu64 " failed: %s", g_power_losses, s.ToString().c_str());
    LeaveRecovery();
    return false;
  }
  std::vector<uint32_t> actual;
  if (!ReadAll(&actual)) {
    LeaveRecovery();
    return false;
  }
  if (FLAGS.inject_bug_for_test == 2 && !threads[0].log.empty()) {
    // Self-test: pretend the thread's first write was lost (a hole, not a
    // lost suffix), which the prefix check must reject.
    const LogEntry& first = threads[0].log.front();
    actual[first.key] = initial[first.key];
  }
  bool ok = CheckPrefixes(threads, initial, actual);
  if (ok) {
    // The recovered state is the new expected state.
    for (uint64_t k = 0; k < FLAGS.max_key; k++) {
      ExpectedEntry& e = g_expected->at(k);
      e.value.store(actual[k]);
      e.pending.store(0);
    }
    g_keys_verified += FLAGS.max_key;
    if (g_control) g_control->keys_verified.fetch_add(FLAGS.max_key);
  }
  LeaveRecovery();
  return ok;
}

void PrintSummary(const std::vector<uint64_t>& counts, uint64_t ops, double secs) {
  printf("db_stress summary: seed=%" PRIu64 " ops=%" PRIu64 " (%.0f ops/s)", FLAGS.seed, ops,
         secs > 0 ? static_cast<double>(ops) / secs : 0.0);
  for (int i = 0; i < kNumOpKinds; i++) printf(" %s=%" PRIu64, kOpNames[i], counts[i]);
  printf(" fifo_dropped_reads=%" PRIu64, g_fifo_dropped.load());
  printf(" reopens=%" PRIu64 " power_losses=%" PRIu64 " log_ops_checked=%" PRIu64
         " ops_lost_to_power_loss=%" PRIu64 " keys_verified=%" PRIu64 " failures=%" PRIu64 "\n",
         g_reopens, g_power_losses, g_log_ops_checked, g_ops_lost_to_power_loss, g_keys_verified,
         g_failures.load());
  if (FLAGS.use_txn) PrintTxnSummary();
  fflush(stdout);
}

// --probe_open: see Flags::probe_open.
int ProbeOpen() {
  Options o = MakeOptions();
  std::unique_ptr<DB> db;
  Status s = DB::Open(o, FLAGS.db, &db);
  if (s.ok()) s = db->Close();
  db.reset();
  DestroyDB(FLAGS.db, o).PermitUncheckedError();
  if (s.ok()) return 0;
  printf("db_stress: probe open: %s\n", s.ToString().c_str());
  return s.IsNotSupported() ? 3 : 1;
}

int Run() {
  if (FLAGS.probe_open) return ProbeOpen();
  printf("db_stress: seed=%" PRIu64 " db=%s expected_dir=%s threads=%d max_key=%" PRIu64
         " sync=%d disable_wal=%d power_loss_one_in=%" PRIu64
         " verify_only=%d compaction_style=%d\n",
         FLAGS.seed, FLAGS.db.c_str(), FLAGS.expected_dir.c_str(), FLAGS.threads, FLAGS.max_key,
         FLAGS.sync ? 1 : 0, FLAGS.disable_wal ? 1 : 0, FLAGS.simulate_power_loss_one_in,
         FLAGS.verify_only ? 1 : 0, FLAGS.compaction_style);
  fflush(stdout);
  mkdir(FLAGS.expected_dir.c_str(), 0755);
  bool created;
  g_control = static_cast<ControlBlock*>(
      MapFile(FLAGS.expected_dir + "/" + kControlFileName, sizeof(ControlBlock), &created));
  g_control->magic.store(kControlMagic);
  g_control->recovery.store(kIdle);
  g_control->ops_done.store(0);
  g_control->keys_verified.store(0);
  g_control->failures.store(0);
  g_control->power_losses.store(0);

  if (FLAGS.destroy_db_initially && !FLAGS.verify_only) {
    Options o = MakeOptions();
    Status s = DestroyDB(FLAGS.db, o);
    if (!s.ok()) {
      fprintf(stderr, "db_stress: DestroyDB failed: %s\n", s.ToString().c_str());
      return 2;
    }
  }
  ExpectedState expected(FLAGS.expected_dir, FLAGS.max_key,
                         FLAGS.destroy_db_initially && !FLAGS.verify_only);
  g_expected = &expected;
  std::vector<std::mutex> locks(FLAGS.max_key / kStripe);
  g_locks = &locks;
  if (FLAGS.use_txn) SetUpTxnRecords(FLAGS.destroy_db_initially && !FLAGS.verify_only);

  if (PowerLossMode()) {
    g_fault_fs = std::make_shared<FaultInjectionFileSystem>(FileSystem::Default());
    g_fault_env = std::make_unique<Env>(g_fault_fs, SystemClock::Default());
  }
  Status s = OpenDB();
  if (!s.ok()) {
    Fail("open of %s failed: %s", FLAGS.db.c_str(), s.ToString().c_str());
    PrintSummary(std::vector<uint64_t>(kNumOpKinds, 0), 0, 0);
    return 1;
  }
  // The prepared transactions a killed run left: exactly the recorded ones.
  RecoverPreparedTxns(FLAGS.seed);
  // Resolve what a killed run left in flight (and check everything).
  if (g_failures.load() == 0 && (!FLAGS.destroy_db_initially || FLAGS.verify_only)) {
    VerifyAll(/*resolve=*/true, FLAGS.verify_only ? "verify_only" : "startup");
  }
  if (g_failures.load() == 0) VerifyLeftCopies();
  if (FLAGS.verify_only || g_failures.load() != 0) {
    if (g_failures.load() == 0) {
      printf("db_stress: verified %" PRIu64 " keys: OK\n", g_keys_verified);
    }
    PrintSummary(std::vector<uint64_t>(kNumOpKinds, 0), 0, 0);
    g_db->Close().PermitUncheckedError();
    g_db.reset();
    return g_failures.load() == 0 ? 0 : 1;
  }

  auto start = std::chrono::steady_clock::now();
  g_deadline = start + std::chrono::microseconds(static_cast<int64_t>(FLAGS.duration * 1e6));
  g_next_reopen.store(FLAGS.reopen);
  std::vector<ThreadState> threads(static_cast<size_t>(FLAGS.threads));
  for (int i = 0; i < FLAGS.threads; i++) {
    threads[i].id = i;
    threads[i].rng.seed(FLAGS.seed * 1000003 + static_cast<uint64_t>(i));
  }
  std::vector<uint64_t> counts(kNumOpKinds, 0);
  uint64_t total_ops = 0;
  std::vector<uint32_t> initial(FLAGS.max_key);
  for (;;) {
    // One epoch: the threads run until done or stopped.
    for (uint64_t k = 0; k < FLAGS.max_key; k++) initial[k] = expected.at(k).value.load();
    for (ThreadState& ts : threads) {
      ts.log.clear();
      ts.log_ops = 0;
      ts.maybe_op = false;
    }
    g_stop.store(kNoStop);
    std::vector<std::thread> workers;
    for (ThreadState& ts : threads) workers.emplace_back(ThreadBody, &ts);
    for (std::thread& t : workers) t.join();
    int reason = g_stop.load();
    if (reason == kStopFailure) break;
    if (reason == kStopPowerLoss) {
      if (!RecoverFromPowerLoss(threads, initial)) break;
      continue;
    }
    if (reason == kStopReopen) {
      g_reopens++;
      g_next_reopen.store(g_total_ops.load() + FLAGS.reopen);
      s = g_db->Close();
      g_db.reset();
      if (!s.ok()) {
        Fail("Close before reopen failed: %s", s.ToString().c_str());
        break;
      }
      s = OpenDB();
      if (!s.ok()) {
        Fail("reopen failed: %s", s.ToString().c_str());
        break;
      }
      if (!RecoverPreparedTxns(FLAGS.seed + g_reopens)) break;
      if (VerifyAll(false, "after reopen") != 0) break;
      continue;
    }
    break;  // every thread is done
  }
  for (ThreadState& ts : threads) {
    total_ops += ts.ops;
    for (int i = 0; i < kNumOpKinds; i++) counts[i] += ts.counts[i];
  }
  if (g_failures.load() == 0 && g_db) VerifyAll(false, "final");
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (g_db) {
    s = g_db->Close();
    if (!s.ok() && g_failures.load() == 0) Fail("Close failed: %s", s.ToString().c_str());
    g_db.reset();
  }
  PrintSummary(counts, total_ops, secs);
  return g_failures.load() == 0 ? 0 : 1;
}

}  // namespace stress
}  // namespace strata

int main(int argc, char** argv) {
  strata::stress::ParseFlags(argc, argv);
  const int rc = strata::stress::Run();
  strata::stress::g_backups.reset();
  return rc;
}
