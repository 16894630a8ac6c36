// db_crashtest: the crash-test driver. Round after round on the same DB it
// starts db_stress with random (sane) options, SIGKILLs it after a random
// delay -- so kills land during writes, flushes, compactions and MANIFEST
// switches, which the tiny buffers make constant -- and then runs
// db_stress --verify_only on the same DB and expected state, which must
// pass: a SIGKILL loses nothing acknowledged even with sync=0, since an
// acknowledged write is in the OS page cache (or a shared memory map).
//
// Modes: sync (WriteOptions.sync=1; one round in three also simulates power
// losses, which must lose nothing acknowledged) and nosync (sync=0 with
// db_stress's in-process power-loss simulation and its prefix check); "both"
// splits the time between them (and, with --use_txn, the transaction modes
// too). Some rounds let db_stress finish on its own instead (it must then
// exit 0).
//
// Transaction modes (docs/design/stress-transactions.md): txn runs
// db_stress --use_txn (a TransactionDB, WriteOptions.sync=1) with many
// two-phase transactions, often left prepared, so a kill finds them in
// every state; the verification checks that recovery returns exactly the
// prepared transactions db_stress's records allow, with their exact writes,
// then commits or rolls them back. otxn runs --use_optimistic_txn. Neither
// draws FIFO, power losses, checkpoints or backups. On a failure the driver stops, keeps the DB,
// the expected state and the logs, prints their paths and exits 1.
//
// Compaction styles: each round runs under a compaction style (level,
// universal, FIFO, none) and options drawn for it, printed on the round's
// line. A style lasts a few rounds (another one is drawn with probability
// 1/3), so crash-kill rounds keep meeting the DB the last one left. Level,
// universal and none switch on the same DB (RocksDB allows those changes);
// a change of shape -- to or from FIFO, or of num_levels -- starts a fresh
// DB and expected state, as RocksDB's crash test does for any style change.
// --styles picks the styles drawn; by default ("auto") the driver first
// asks db_stress (--probe_open) which styles and optional options (by name
// in kOptionalFeatures) this build opens and draws only those, printing the
// ones it leaves out. Given explicitly, a style the build refuses fails.
// docs/design/stress-compaction-styles.md.
//
// The kill respects db_stress's recovery window (tools/db_stress_shared.h).
// Thread-safety: single-threaded.
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tools/db_stress_shared.h"

namespace strata {
namespace stress {
namespace {

struct DriverFlags {
  std::string mode = "both";
  double duration = 600;
  std::string dir;
  std::string stress;
  uint64_t seed = 0;
  int min_kill_ms = 500;
  int max_kill_ms = 5000;
  uint64_t max_key = 8192;
  int max_threads = 4;
  bool keep = false;
  bool dir_created = false;     // by mkdtemp: removed whole on success
  std::string styles = "auto";  // comma list of level,universal,fifo,none; or auto / all
  bool fresh_on_style_change = false;
  // Adds the transaction modes (txn, otxn) to --mode=both.
  bool use_txn = false;
  std::vector<std::string> extra;  // --stress_arg=... passed through
};
DriverFlags DF;

struct Totals {
  uint64_t rounds = 0, kills = 0, clean_exits = 0, ops = 0, power_losses = 0, keys_verified = 0,
           failures = 0;
  // Checkpoints and backups a killed run left that the verification
  // opened (or verified and restored), and unfinished checkpoints removed.
  uint64_t checkpoints_verified = 0, backups_verified = 0, partial_copies = 0;
  uint64_t style_rounds[4] = {};  // rounds run under each compaction style
  uint64_t fresh_starts = 0;      // DBs wiped for a change of shape
  // Transaction modes: prepared transactions the verifications recovered
  // (and checked), and rounds whose kill left at least one.
  uint64_t prepared_recovered = 0, rounds_with_prepared = 0;
  uint64_t prepared_open = 0;        // of them: Prepare acknowledged, left open
  uint64_t prepared_in_flight = 0;   // of them: Prepare/Commit/Rollback in flight
  uint64_t committed_at_kill = 0;    // Commit in flight, found committed
  uint64_t one_phase_in_flight = 0;  // one-phase commits in flight: all or nothing
};

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string SelfDir() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n <= 0) return ".";
  buf[n] = 0;
  std::string p(buf);
  size_t slash = p.rfind('/');
  return slash == std::string::npos ? "." : p.substr(0, slash);
}

[[noreturn]] void Usage(const char* msg) {
  fprintf(stderr, "db_crashtest: %s\n", msg);
  fprintf(stderr,
          "usage: db_crashtest [--mode=sync|nosync|txn|otxn|both] [--use_txn=0|1]\n"
          "  [--duration=SECS] [--dir=DIR]\n"
          "  [--stress=PATH_TO_DB_STRESS] [--seed=N] [--min_kill_ms=N] [--max_kill_ms=N]\n"
          "  [--max_key=N] [--max_threads=N] [--keep=0|1] [--stress_arg=--flag=value ...]\n"
          "  [--styles=auto|all|level,universal,fifo,none] [--fresh_on_style_change=0|1]\n");
  exit(2);
}

void ParseFlags(int argc, char** argv) {
  bool seed_given = false;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto val = [&](const char* name, std::string* out) {
      std::string p = std::string("--") + name + "=";
      if (a.compare(0, p.size(), p) != 0) return false;
      *out = a.substr(p.size());
      return true;
    };
    std::string v;
    if (val("mode", &DF.mode) || val("dir", &DF.dir) || val("stress", &DF.stress) ||
        val("styles", &DF.styles)) {
      continue;
    }
    if (val("duration", &v)) {
      DF.duration = strtod(v.c_str(), nullptr);
    } else if (val("seed", &v)) {
      DF.seed = strtoull(v.c_str(), nullptr, 10);
      seed_given = true;
    } else if (val("min_kill_ms", &v)) {
      DF.min_kill_ms = atoi(v.c_str());
    } else if (val("max_kill_ms", &v)) {
      DF.max_kill_ms = atoi(v.c_str());
    } else if (val("max_key", &v)) {
      DF.max_key = strtoull(v.c_str(), nullptr, 10);
    } else if (val("max_threads", &v)) {
      DF.max_threads = atoi(v.c_str());
    } else if (val("fresh_on_style_change", &v)) {
      DF.fresh_on_style_change = v == "1" || v == "true";
    } else if (val("use_txn", &v)) {
      DF.use_txn = v == "1" || v == "true";
    } else if (val("keep", &v)) {
      DF.keep = v == "1" || v == "true";
    } else if (val("stress_arg", &v)) {
      DF.extra.push_back(v);
    } else {
      fprintf(stderr, "db_crashtest: unknown flag %s\n", a.c_str());
      Usage("bad flag");
    }
  }
  if (DF.mode != "sync" && DF.mode != "nosync" && DF.mode != "txn" && DF.mode != "otxn" &&
      DF.mode != "both") {
    Usage("bad --mode");
  }
  if (DF.min_kill_ms < 1 || DF.max_kill_ms < DF.min_kill_ms) Usage("bad kill delays");
  if (DF.max_threads < 1) Usage("bad --max_threads");
  if (DF.stress.empty()) DF.stress = SelfDir() + "/db_stress";
  if (access(DF.stress.c_str(), X_OK) != 0) {
    fprintf(stderr, "db_crashtest: cannot run %s\n", DF.stress.c_str());
    exit(2);
  }
  if (!seed_given) {
    DF.seed = std::random_device{}() ^
              static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  }
  if (DF.dir.empty()) {
    const char* tmp = getenv("TMPDIR");
    std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/strata_crashtest_XXXXXX";
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back(0);
    if (mkdtemp(buf.data()) == nullptr) {
      perror("mkdtemp");
      exit(2);
    }
    DF.dir = buf.data();
    DF.dir_created = true;
  } else {
    mkdir(DF.dir.c_str(), 0755);
  }
}

// Starts db_stress with args, its stdout and stderr appended to log.
pid_t Spawn(const std::vector<std::string>& args, const std::string& log) {
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0) {
    perror("fork");
    exit(2);
  }
  if (pid == 0) {
    int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
      close(fd);
    }
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(DF.stress.c_str()));
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(DF.stress.c_str(), argv.data());
    perror("execv");
    _exit(127);
  }
  return pid;
}

std::string DescribeStatus(int status) {
  char buf[64];
  if (WIFEXITED(status)) {
    snprintf(buf, sizeof(buf), "exit %d", WEXITSTATUS(status));
  } else if (WIFSIGNALED(status)) {
    snprintf(buf, sizeof(buf), "signal %d", WTERMSIG(status));
  } else {
    snprintf(buf, sizeof(buf), "status 0x%x", status);
  }
  return buf;
}

// Waits up to `secs` for pid; true (and *status) if it exited.
bool WaitFor(pid_t pid, double secs, int* status) {
  double end = Now() + secs;
  for (;;) {
    pid_t r = waitpid(pid, status, WNOHANG);
    if (r == pid) return true;
    if (Now() >= end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

void PrintTail(const std::string& log) {
  FILE* f = fopen(log.c_str(), "r");
  if (!f) return;
  std::vector<std::string> lines;
  char buf[4096];
  while (fgets(buf, sizeof(buf), f)) {
    lines.push_back(buf);
    if (lines.size() > 40) lines.erase(lines.begin());
  }
  fclose(f);
  printf("---- last lines of %s ----\n", log.c_str());
  for (const std::string& l : lines) fputs(l.c_str(), stdout);
  printf("----\n");
}

ControlBlock* MapControl(const std::string& expected_dir) {
  mkdir(expected_dir.c_str(), 0755);
  std::string path = expected_dir + "/" + kControlFileName;
  int fd = open(path.c_str(), O_RDWR | O_CREAT, 0644);
  if (fd < 0 || ftruncate(fd, sizeof(ControlBlock)) != 0) {
    perror(path.c_str());
    exit(2);
  }
  void* p = mmap(nullptr, sizeof(ControlBlock), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (p == MAP_FAILED) {
    perror("mmap");
    exit(2);
  }
  return static_cast<ControlBlock*>(p);
}

// rm -rf path.
int RemoveTree(const std::string& path) {
  std::vector<char> p(path.begin(), path.end());
  p.push_back(0);
  pid_t pid = fork();
  if (pid == 0) {
    execlp("rm", "rm", "-rf", p.data(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  if (pid > 0) waitpid(pid, &status, 0);
  return status;
}

// ------------------------------------------------------ compaction styles ----

// RocksDB's CompactionStyle values, by --styles name.
const char* const kStyleNames[4] = {"level", "universal", "fifo", "none"};
constexpr int kFifo = 2;

// Options drawn only when this build opens them (probed at start): the
// flags that turn each on.
struct Feature {
  const char* name;
  std::vector<std::string> probe_args;
};
const Feature kOptionalFeatures[] = {
    {"compaction_pri", {"--compaction_pri=0"}},
    {"compaction_ttl", {"--compaction_ttl=3600"}},
    {"periodic_compaction_seconds", {"--periodic_compaction_seconds=3600"}},
    {"compression_per_level", {"--min_level_to_compress=1"}},
    {"bottommost_compression", {"--bottommost_compression_type=zstd"}},
    {"compression_dictionary",
     {"--compression=zstd", "--compression_max_dict_bytes=4096",
      "--compression_zstd_max_train_bytes=16384"}},
    {"fifo_ttl", {"--compaction_style=2", "--compaction_ttl=3600"}},
};

// What the rounds may draw.
struct Capabilities {
  std::vector<int> styles;
  std::set<std::string> features;
};
Capabilities g_caps;

// Runs db_stress --probe_open with args on a scratch DB: 0 opens, 3 the
// build refuses an option (NotSupported), anything else an error.
int Probe(const std::vector<std::string>& args, std::string* message) {
  const std::string db = DF.dir + "/probe-db", log = DF.dir + "/probe.log";
  RemoveTree(db);
  unlink(log.c_str());
  std::vector<std::string> a = {"--db=" + db, "--expected_dir=" + DF.dir + "/probe-expected",
                                "--probe_open=1"};
  a.insert(a.end(), DF.extra.begin(), DF.extra.end());  // they may change what opens
  a.insert(a.end(), args.begin(), args.end());
  pid_t pid = Spawn(a, log);
  int status = 0;
  if (!WaitFor(pid, 120, &status)) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
  }
  message->clear();
  if (FILE* f = fopen(log.c_str(), "r")) {
    char line[1024];
    while (fgets(line, sizeof(line), f) != nullptr) {
      std::string l = line;
      if (!l.empty() && l.back() == '\n') l.pop_back();
      *message += (message->empty() ? "" : " / ") + l;
    }
    fclose(f);
  }
  unlink(log.c_str());
  RemoveTree(db);
  RemoveTree(DF.dir + "/probe-expected");
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

// Fills g_caps from --styles and the probes; false (printed) on a failure.
bool SetUpStyles() {
  std::vector<int> wanted;
  const bool automatic = DF.styles == "auto";
  if (automatic || DF.styles == "all") {
    wanted = {0, 1, 2, 3};
  } else {
    size_t start = 0;
    while (start <= DF.styles.size()) {
      size_t comma = DF.styles.find(',', start);
      if (comma == std::string::npos) comma = DF.styles.size();
      const std::string name = DF.styles.substr(start, comma - start);
      int found = -1;
      for (int i = 0; i < 4; i++) {
        if (name == kStyleNames[i]) found = i;
      }
      if (found < 0) {
        fprintf(stderr, "db_crashtest: unknown style '%s' in --styles\n", name.c_str());
        if (DF.dir_created) RemoveTree(DF.dir);
        exit(2);
      }
      wanted.push_back(found);
      start = comma + 1;
    }
  }
  std::string used, skipped;
  for (int style : wanted) {
    std::string msg;
    int rc = Probe({"--compaction_style=" + std::to_string(style)}, &msg);
    if (rc == 0) {
      g_caps.styles.push_back(style);
      used += std::string(used.empty() ? "" : ",") + kStyleNames[style];
    } else if (rc == 3 && automatic) {
      skipped += std::string(skipped.empty() ? "" : "; ") + kStyleNames[style] + ": " + msg;
    } else {
      printf("db_crashtest: FAILURE: compaction style %s does not open (exit %d): %s\n",
             kStyleNames[style], rc, msg.c_str());
      return false;
    }
  }
  if (g_caps.styles.empty()) {
    printf("db_crashtest: FAILURE: no compaction style of --styles=%s opens\n", DF.styles.c_str());
    return false;
  }
  std::string fused, fskipped;
  for (const Feature& f : kOptionalFeatures) {
    std::string msg;
    int rc = Probe(f.probe_args, &msg);
    if (rc == 0) {
      g_caps.features.insert(f.name);
      fused += std::string(fused.empty() ? "" : ",") + f.name;
    } else if (rc == 3) {
      fskipped += std::string(fskipped.empty() ? "" : ",") + f.name;
    } else {
      printf("db_crashtest: FAILURE: probe of option %s failed (exit %d): %s\n", f.name, rc,
             msg.c_str());
      return false;
    }
  }
  printf("db_crashtest: styles drawn: %s; options drawn: %s\n", used.c_str(),
         fused.empty() ? "(none optional)" : fused.c_str());
  if (!skipped.empty())
    printf("db_crashtest: styles this build refuses (skipped): %s\n", skipped.c_str());
  if (!fskipped.empty()) {
    printf("db_crashtest: options this build refuses (not drawn): %s\n", fskipped.c_str());
  }
  fflush(stdout);
  return true;
}

bool Has(const char* feature) { return g_caps.features.count(feature) != 0; }

// A round's compaction style and its options, as db_stress flags (given to
// the run and to its verification, which must open the DB the same way).
struct RoundStyle {
  int style = 0;
  int num_levels = 7;
  std::vector<std::string> args;

  // Rounds of two styles may share a DB unless one is FIFO (one level) or
  // the number of levels differs.
  bool SameShape(const RoundStyle& o) const {
    return (style == kFifo) == (o.style == kFifo) && num_levels == o.num_levels;
  }
  std::string Describe() const {
    std::string r = kStyleNames[style];
    std::string opts;
    for (size_t i = 1; i < args.size(); i++) {
      opts += (opts.empty() ? "" : " ") + args[i].substr(2);
    }
    return opts.empty() ? r : r + "(" + opts + ")";
  }
};

template <typename Uni>
RoundStyle DrawStyle(int style, Uni uni) {
  RoundStyle r;
  r.style = style;
  r.args.push_back("--compaction_style=" + std::to_string(style));
  auto add = [&](const std::string& name, uint64_t v) {
    r.args.push_back("--" + name + "=" + std::to_string(v));
  };
  const uint64_t ttls[] = {0, 2, 10, 100, 1000};
  switch (style) {
    case 0:  // level
      // kRoundRobin (4) is refused at Open.
      if (Has("compaction_pri")) add("compaction_pri", uni(0, 3));
      break;
    case 1:                                     // universal
      add("universal_size_ratio", uni(0, 10));  // 0: the default (1)
      add("universal_min_merge_width", uni(2, 4));
      if (uni(0, 1) == 0) add("universal_max_merge_width", uni(4, 10));
      if (uni(0, 1) == 0) {
        const uint64_t amp[] = {25, 50, 100, 200, 400};
        add("universal_max_size_amplification_percent", amp[uni(0, 4)]);
      }
      add("universal_allow_trivial_move", uni(0, 1));
      add("universal_incremental", uni(0, 1));
      if (uni(0, 3) == 0) {  // single-level universal has its own paths
        r.num_levels = 1;
        add("num_levels", 1);
      }
      break;
    case kFifo: {
      r.num_levels = 1;
      // Small limits drop tables all the time (the latest-or-absent rule
      // gets exercised); 1 GiB drops nothing in a run.
      const uint64_t mb[] = {1, 2, 4, 1024};
      add("fifo_compaction_max_table_files_size_mb", mb[uni(0, 3)]);
      add("fifo_compaction_allow_compaction", uni(0, 1));
      if (Has("fifo_ttl") && uni(0, 2) == 0) add("compaction_ttl", uni(2, 30));
      break;
    }
    default:  // none
      break;
  }
  if (style != kFifo) {
    if (Has("compaction_ttl") && uni(0, 3) == 0) add("compaction_ttl", ttls[uni(0, 4)]);
    if (Has("periodic_compaction_seconds") && uni(0, 3) == 0) {
      add("periodic_compaction_seconds", ttls[uni(0, 4)]);
    }
  }
  return r;
}

// Runs one mode for `secs`; returns false on a failure (paths printed).
bool RunMode(const std::string& mode, double secs, std::mt19937_64& rng, Totals* totals) {
  const bool nosync = mode == "nosync";
  // Transaction modes: db_stress --use_txn (txn, with synced writes so that
  // an acknowledged Prepare is durable) or --use_optimistic_txn (otxn).
  // No power-loss simulation, checkpoints or backups there, and no FIFO
  // (db_stress refuses them with transactions).
  const bool txn = mode == "txn", otxn = mode == "otxn";
  const std::vector<std::string> txn_args = txn ? std::vector<std::string>{"--use_txn=1"}
                                            : otxn
                                                ? std::vector<std::string>{"--use_optimistic_txn=1"}
                                                : std::vector<std::string>{};
  std::vector<int> styles;
  for (int st : g_caps.styles) {
    if (!(txn || otxn) || st != kFifo) styles.push_back(st);
  }
  if (styles.empty()) {
    printf(
        "db_crashtest: FAILURE: mode %s has no compaction style to draw (FIFO is not run "
        "with transactions)\n",
        mode.c_str());
    return false;
  }
  std::string base = DF.dir + "/" + mode;
  mkdir(base.c_str(), 0755);
  std::string db = base + "/db", expected = base + "/expected";
  // Start from nothing (done here, not by db_stress, so no kill can land
  // between wiping the DB and wiping its expected state).
  RemoveTree(db);
  RemoveTree(expected);
  ControlBlock* control = MapControl(expected);
  auto uni = [&](uint64_t lo, uint64_t hi) { return lo + rng() % (hi - lo + 1); };
  double end = Now() + secs;
  Totals t;
  bool ok = true;
  RoundStyle style;
  bool have_style = false;
  for (uint64_t round = 1; ok && Now() + DF.min_kill_ms / 1000.0 < end; round++) {
    // A style lasts a few rounds; a change of shape starts from nothing.
    std::string fresh_note;
    if (!have_style || uni(0, 2) == 0) {
      // Another style than the current one when there is a choice, so
      // short runs meet several.
      int pick = styles[rng() % styles.size()];
      while (have_style && styles.size() > 1 && pick == style.style) {
        pick = styles[rng() % styles.size()];
      }
      RoundStyle next = DrawStyle(pick, uni);
      if (have_style &&
          (!next.SameShape(style) || (DF.fresh_on_style_change && next.style != style.style))) {
        munmap(control, sizeof(ControlBlock));
        RemoveTree(db);
        RemoveTree(expected);
        control = MapControl(expected);
        t.fresh_starts++;
        fresh_note = std::string(" (fresh DB: ") + kStyleNames[style.style] + " -> " +
                     kStyleNames[next.style] + ")";
      }
      style = next;
      have_style = true;
    }
    t.style_rounds[style.style]++;
    uint64_t stress_seed = rng();
    int threads = static_cast<int>(uni(1, static_cast<uint64_t>(DF.max_threads)));
    std::vector<std::string> args = {
        "--db=" + db,
        "--expected_dir=" + expected,
        "--max_key=" + std::to_string(DF.max_key),
        "--seed=" + std::to_string(stress_seed),
        "--threads=" + std::to_string(threads),
        "--sync=" + std::string(nosync || (otxn && uni(0, 1) == 0) ? "0" : "1"),
        "--write_buffer_size=" + std::to_string(uni(16, 256) << 10),
        "--target_file_size_base=" + std::to_string(uni(32, 512) << 10),
        "--max_bytes_for_level_base=" + std::to_string(uni(128, 2048) << 10),
        "--level0_file_num_compaction_trigger=" + std::to_string(uni(2, 6)),
        "--max_write_buffer_number=" + std::to_string(uni(2, 4)),
        "--max_background_jobs=" + std::to_string(uni(1, 4)),
        "--wal_mmap_writes=" + std::to_string(uni(0, 1)),
        "--flush_one_in=" + std::to_string(uni(500, 5000)),
        "--compact_range_one_in=" + std::to_string(uni(1000, 10000)),
    };
    // Point-in-time recovery (the default) or kTolerateCorruptedTailRecords,
    // which must take a write torn by the kill or the power loss (with the
    // mmap-written WAL: a partly copied record, then zeros) as the tail;
    // the verification opens the same way.
    const std::string recovery_mode =
        "--wal_recovery_mode=" + std::string(uni(0, 1) == 0 ? "0" : "2");
    args.push_back(recovery_mode);
    const char* comps[] = {"none", "snappy", "lz4", "zstd"};
    args.push_back(std::string("--compression=") + comps[uni(0, 3)]);
    if (Has("bottommost_compression") && uni(0, 2) == 0) {
      args.push_back(std::string("--bottommost_compression_type=") + comps[uni(0, 3)]);
    }
    if (Has("compression_per_level") && uni(0, 2) == 0) {
      args.push_back("--min_level_to_compress=" + std::to_string(uni(0, 3)));
    }
    if (Has("compression_dictionary") && uni(0, 2) == 0) {
      args.back() = "--compression=zstd";
      args.push_back("--compression_max_dict_bytes=" + std::to_string(uni(1, 16) << 10));
      if (uni(0, 1) == 0) {
        args.push_back("--compression_zstd_max_train_bytes=" + std::to_string(uni(16, 64) << 10));
      }
    }
    for (const std::string& a : style.args) args.push_back(a);
    if (uni(0, 3) == 0) args.push_back("--reopen=" + std::to_string(uni(2000, 20000)));
    if (txn || otxn) {
      for (const std::string& a : txn_args) args.push_back(a);
      args.push_back("--txn_rollback_pct=" + std::to_string(uni(0, 30)));
      args.push_back("--txn_direct_pct=" + std::to_string(uni(0, 30)));
      if (txn) {
        // Many prepared transactions, often left open, so the kill finds
        // some in every state.
        args.push_back("--txn_2pc_pct=" + std::to_string(uni(40, 100)));
        args.push_back("--txn_hold_pct=" + std::to_string(uni(10, 60)));
        args.push_back("--txn_lock_timeout_ms=" + std::to_string(uni(2, 50)));
        args.push_back("--txn_lock_first_pct=" + std::to_string(uni(0, 100)));
      }
    } else if (nosync || uni(0, 2) == 0) {
      // nosync: always power losses (prefix rule); sync: in one round of
      // three (nothing acknowledged may be lost).
      args.push_back("--simulate_power_loss_one_in=" + std::to_string(uni(2000, 20000)));
    } else if (uni(0, 1) == 0) {
      // Copies of the live DB made while the kill may land: a checkpoint
      // that survives under its final name, and every backup the engine
      // lists, must be complete and hold well-formed data.
      args.push_back("--checkpoint_one_in=" + std::to_string(uni(300, 3000)));
      args.push_back("--backup_one_in=" + std::to_string(uni(300, 3000)));
    }
    for (const std::string& e : DF.extra) args.push_back(e);

    // One round in eight lets db_stress finish by itself.
    bool clean = uni(0, 7) == 0;
    int delay_ms = static_cast<int>(
        uni(static_cast<uint64_t>(DF.min_kill_ms), static_cast<uint64_t>(DF.max_kill_ms)));
    double left_ms = (end - Now()) * 1000;
    if (delay_ms > left_ms) delay_ms = static_cast<int>(std::max(left_ms, 1.0));
    char dur[32];
    snprintf(dur, sizeof(dur), "--duration=%.3f", clean ? delay_ms / 1000.0 : 86400.0);
    args.push_back(dur);

    std::string log = base + "/round-" + std::to_string(round) + ".log";
    unlink(log.c_str());
    std::string cmd = DF.stress;
    for (const std::string& a : args) cmd += " " + a;
    {
      FILE* f = fopen(log.c_str(), "w");
      if (f) {
        fprintf(f, "command: %s\n", cmd.c_str());
        fclose(f);
      }
    }
    pid_t pid = Spawn(args, log);
    int status = 0;
    bool exited = WaitFor(pid, clean ? delay_ms / 1000.0 + 120 : delay_ms / 1000.0, &status);
    bool killed = false;
    std::string what;
    if (!exited && !clean) {
      // Kill outside db_stress's recovery window.
      for (;;) {
        uint32_t idle = kIdle;
        if (control->recovery.compare_exchange_strong(idle, kKilling)) break;
        if (WaitFor(pid, 0.001, &status)) {
          exited = true;
          break;
        }
      }
      if (!exited) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        killed = true;
      }
    } else if (!exited) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      what = "did not finish in time";
      ok = false;
    }
    uint64_t ops = control->ops_done.load();
    if (!killed && ok) {
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        what = "db_stress failed (" + DescribeStatus(status) + ")";
        ok = false;
      } else {
        t.clean_exits++;
      }
    }
    if (killed) t.kills++;
    if (ok && control->failures.load() != 0) {
      what = "db_stress reported a verification failure (before the kill)";
      ok = false;
    }
    t.ops += ops;
    t.power_losses += control->power_losses.load();
    t.keys_verified += control->keys_verified.load();
    t.rounds++;
    std::string vlog = base + "/verify-" + std::to_string(round) + ".log";
    if (ok) {
      // Verify what the run (killed or not) left behind.
      unlink(vlog.c_str());
      std::vector<std::string> vargs = {"--db=" + db, "--expected_dir=" + expected,
                                        "--max_key=" + std::to_string(DF.max_key),
                                        "--verify_only=1", recovery_mode};
      for (const std::string& a : style.args) vargs.push_back(a);
      for (const std::string& a : txn_args) vargs.push_back(a);
      for (const std::string& e : DF.extra) {
        // (The self-test of the recovered transactions' comparison acts in
        // the verification.)
        if (e.rfind("--emulate_styles_for_test", 0) == 0 || e == "--inject_bug_for_test=6") {
          vargs.push_back(e);
        }
      }
      pid_t vpid = Spawn(vargs, vlog);
      int vstatus = 0;
      if (!WaitFor(vpid, 600, &vstatus)) {
        kill(vpid, SIGKILL);
        waitpid(vpid, &vstatus, 0);
        what = "verify_only hung";
        ok = false;
      } else if (!WIFEXITED(vstatus) || WEXITSTATUS(vstatus) != 0) {
        what = "verify_only failed (" + DescribeStatus(vstatus) + ")";
        ok = false;
      }
      t.keys_verified += control->keys_verified.load();
    }
    // What the verification said about the copies the run left.
    unsigned long cps = 0, partial = 0, bks = 0, prepared = 0, prepared_open = 0,
                  prepared_in_flight = 0, committed_at_kill = 0, one_phase_in_flight = 0;
    if (FILE* f = fopen(vlog.c_str(), "r")) {
      char line[512];
      while (fgets(line, sizeof(line), f) != nullptr) {
        unsigned long a = 0, b = 0;
        if (sscanf(line,
                   "db_stress: %lu checkpoint(s) left by an earlier run open and hold well-formed "
                   "data; %lu",
                   &a, &b) == 2) {
          cps += a;
          partial += b;
        } else if (sscanf(line, "db_stress: %lu backup(s) left by an earlier run verify", &a) ==
                   1) {
          bks += a;
        } else {
          unsigned long c = 0, d = 0, e = 0;
          if (sscanf(line,
                     "db_stress: recovered %lu prepared transaction(s) (%lu acknowledged and "
                     "left open, %lu with Prepare, Commit or Rollback in flight; exact writes "
                     "checked), then committed %*u and rolled back %*u; not recovered: %lu "
                     "with Commit in flight (all writes visible), %*u with Prepare or Rollback "
                     "in flight (none visible); one-phase commits in flight found all or "
                     "nothing: %lu",
                     &a, &b, &c, &d, &e) == 5) {
            prepared += a;
            prepared_open += b;
            prepared_in_flight += c;
            committed_at_kill += d;
            one_phase_in_flight += e;
          }
        }
      }
      fclose(f);
    }
    t.checkpoints_verified += cps;
    t.backups_verified += bks;
    t.partial_copies += partial;
    t.prepared_recovered += prepared;
    t.prepared_open += prepared_open;
    t.prepared_in_flight += prepared_in_flight;
    t.committed_at_kill += committed_at_kill;
    t.one_phase_in_flight += one_phase_in_flight;
    if (prepared > 0) t.rounds_with_prepared++;
    printf("[%s] round %" PRIu64 ": style=%s%s seed=%" PRIu64
           " threads=%d %s after %d ms, ops=%" PRIu64 ", verify %s",
           mode.c_str(), round, style.Describe().c_str(), fresh_note.c_str(), stress_seed, threads,
           killed ? "killed" : "exited", delay_ms, ops, ok ? "ok" : "FAILED");
    if (txn) {
      printf(
          " (prepared transactions recovered and checked: %lu = %lu open + %lu in flight; "
          "commits in flight found committed: %lu; one-phase in flight: %lu)",
          prepared, prepared_open, prepared_in_flight, committed_at_kill, one_phase_in_flight);
    } else if (otxn) {
      printf(" (one-phase commits in flight, all or nothing: %lu)", one_phase_in_flight);
    }
    if (cps + bks + partial > 0) {
      printf(" (checkpoints left %lu, unfinished %lu, backups left %lu: all verified)", cps,
             partial, bks);
    }
    printf("\n");
    fflush(stdout);
    if (!ok) {
      t.failures++;
      printf("FAILURE in mode %s round %" PRIu64 ": %s\n", mode.c_str(), round, what.c_str());
      printf("  stress command: %s\n", cmd.c_str());
      printf("  kept: db=%s expected=%s logs=%s %s\n", db.c_str(), expected.c_str(), log.c_str(),
             vlog.c_str());
      PrintTail(log);
      if (access(vlog.c_str(), R_OK) == 0) PrintTail(vlog);
    } else {
      unlink(log.c_str());
      unlink(vlog.c_str());
    }
  }
  printf("[%s] totals: rounds=%" PRIu64 " kills=%" PRIu64 " clean_exits=%" PRIu64 " ops=%" PRIu64
         " power_losses=%" PRIu64 " keys_verified=%" PRIu64 " checkpoints_verified=%" PRIu64
         " unfinished_checkpoints=%" PRIu64 " backups_verified=%" PRIu64 " failures=%" PRIu64
         " rounds_by_style: level=%" PRIu64 " universal=%" PRIu64 " fifo=%" PRIu64 " none=%" PRIu64
         " fresh_starts=%" PRIu64 "\n",
         mode.c_str(), t.rounds, t.kills, t.clean_exits, t.ops, t.power_losses, t.keys_verified,
         t.checkpoints_verified, t.partial_copies, t.backups_verified, t.failures,
         t.style_rounds[0], t.style_rounds[1], t.style_rounds[2], t.style_rounds[3],
         t.fresh_starts);
  if (txn) {
    printf("[%s] prepared transactions recovered and checked: %" PRIu64 " in %" PRIu64
           " of %" PRIu64 " rounds (%" PRIu64 " acknowledged and left open, %" PRIu64
           " with Prepare, Commit or Rollback in flight); commits in flight found committed: "
           "%" PRIu64 "; one-phase commits in flight found all or nothing: %" PRIu64 "\n",
           mode.c_str(), t.prepared_recovered, t.rounds_with_prepared, t.rounds, t.prepared_open,
           t.prepared_in_flight, t.committed_at_kill, t.one_phase_in_flight);
  } else if (otxn) {
    printf("[%s] one-phase commits in flight at a kill found all or nothing: %" PRIu64 "\n",
           mode.c_str(), t.one_phase_in_flight);
  }
  fflush(stdout);
  totals->rounds += t.rounds;
  totals->kills += t.kills;
  totals->clean_exits += t.clean_exits;
  totals->ops += t.ops;
  totals->power_losses += t.power_losses;
  totals->keys_verified += t.keys_verified;
  totals->failures += t.failures;
  munmap(control, sizeof(ControlBlock));
  return ok;
}

int Main(int argc, char** argv) {
  ParseFlags(argc, argv);
  printf("db_crashtest: mode=%s duration=%.0fs seed=%" PRIu64 " dir=%s stress=%s\n",
         DF.mode.c_str(), DF.duration, DF.seed, DF.dir.c_str(), DF.stress.c_str());
  fflush(stdout);
  std::mt19937_64 rng(DF.seed);
  Totals totals;
  if (!SetUpStyles()) {
    printf("db_crashtest: FAIL (kept %s)\n", DF.dir.c_str());
    return 1;
  }
  bool ok = true;
  std::vector<std::string> modes;
  if (DF.mode == "both") {
    modes = {"sync", "nosync"};
    if (DF.use_txn) {
      modes.push_back("txn");
      modes.push_back("otxn");
    }
  } else {
    modes = {DF.mode};
  }
  for (const std::string& m : modes) {
    ok = RunMode(m, DF.duration / static_cast<double>(modes.size()), rng, &totals);
    if (!ok) break;
  }
  printf("db_crashtest totals: rounds=%" PRIu64 " kills=%" PRIu64 " clean_exits=%" PRIu64
         " ops=%" PRIu64 " power_losses=%" PRIu64 " keys_verified=%" PRIu64 " failures=%" PRIu64
         " -> %s\n",
         totals.rounds, totals.kills, totals.clean_exits, totals.ops, totals.power_losses,
         totals.keys_verified, totals.failures, ok ? "PASS" : "FAIL");
  if (ok && !DF.keep) {
    if (DF.dir_created) {
      RemoveTree(DF.dir);
    } else {
      for (const std::string& m : modes) RemoveTree(DF.dir + "/" + m);
    }
  } else {
    printf("db_crashtest: kept %s\n", DF.dir.c_str());
  }
  fflush(stdout);
  return ok ? 0 : 1;
}

}  // namespace
}  // namespace stress
}  // namespace strata

int main(int argc, char** argv) { return strata::stress::Main(argc, argv); }
