// Engine-level kill -9 tests: a child process writes keys "t<j>-k<i>" in
// order and publishes, through a shared memory page, how many writes each of
// its threads has had acknowledged; the parent SIGKILLs it at a random moment
// and reopens the database. Every acknowledged write must be back with its
// value, and the keys present must form a prefix of each thread's sequence
// (at most the one write in flight beyond the acknowledged ones). Rounds
// repeat on the same database, so recovery replays the WALs of every earlier
// crash. Only the public API (plus fork/kill) is used.

#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <new>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "strata/db.h"
#include "strata/iterator.h"
#include "strata/options.h"
#include "strata/status.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

constexpr int kMaxThreads = 8;

// Lives in a MAP_SHARED page: written by the child, read by the parent.
struct Shared {
  // acked[t] = 1 + the index of thread t's last acknowledged write (that is,
  // the number of its keys known durable), absolute across rounds.
  std::atomic<uint64_t> acked[kMaxThreads];
  std::atomic<int> opened;
};
static_assert(std::atomic<uint64_t>::is_always_lock_free, "shared atomics must be lock-free");

std::string Key(int t, uint64_t i) {
  char buf[48];
  snprintf(buf, sizeof(buf), "t%d-k%010" PRIu64, t, i);
  return buf;
}

std::string KeyPrefix(int t) { return "t" + std::to_string(t) + "-k"; }

std::string Value(int t, uint64_t i) {
  std::string v = "v" + std::to_string(t) + "." + std::to_string(i) + ":";
  v.append(i % 61, static_cast<char>('a' + (i + t) % 26));
  return v;
}

struct CrashParams {
  const char* name;
  int threads;
  bool sync;
  bool mmap_writes;
  int rounds;
  uint64_t max_writes_per_round;  // per thread; the child idles after that
};

class DBCrashTest : public ::testing::Test {
 protected:
  DBCrashTest() : tmp_("db_crash_test"), dbname_(tmp_.path() + "/db") {
    void* p =
        mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    EXPECT_NE(p, MAP_FAILED);
    shared_ = new (p) Shared();
  }
  ~DBCrashTest() override {
    shared_->~Shared();
    munmap(shared_, sizeof(Shared));
  }

  Options MakeOptions(const CrashParams& params) const {
    Options o;
    o.create_if_missing = true;
    o.allow_mmap_writes = params.mmap_writes;
    return o;
  }

  // The child: open, write until killed. Never returns.
  [[noreturn]] void Child(const CrashParams& params, const std::vector<uint64_t>& start) {
    std::unique_ptr<DB> db;
    Status s = DB::Open(MakeOptions(params), dbname_, &db);
    if (!s.ok()) {
      fprintf(stderr, "child: Open: %s\n", s.ToString().c_str());
      _exit(2);
    }
    shared_->opened.store(1, std::memory_order_release);
    auto writer = [&](int t) {
      WriteOptions wo;
      wo.sync = params.sync;
      for (uint64_t i = start[t]; i < start[t] + params.max_writes_per_round; i++) {
        Status ps = db->Put(wo, Key(t, i), Value(t, i));
        if (!ps.ok()) {
          fprintf(stderr, "child: Put(%s): %s\n", Key(t, i).c_str(), ps.ToString().c_str());
          _exit(3);
        }
        shared_->acked[t].store(i + 1, std::memory_order_release);
      }
    };
    std::vector<std::thread> threads;
    for (int t = 1; t < params.threads; t++) threads.emplace_back(writer, t);
    writer(0);
    for (auto& th : threads) th.join();
    for (;;) pause();  // wait for the SIGKILL
  }

  // Reopens the database and checks every thread's keys. *present[t] gets
  // the number of thread t's keys found.
  void Verify(const CrashParams& params, const std::vector<uint64_t>& acked,
              std::vector<uint64_t>* present, const std::string& round) {
    std::unique_ptr<DB> db;
    Options o = MakeOptions(params);
    o.create_if_missing = false;
    ASSERT_OK(DB::Open(o, dbname_, &db));
    uint64_t total = 0;
    for (int t = 0; t < params.threads; t++) {
      SCOPED_TRACE(round + ", thread " + std::to_string(t));
      const std::string prefix = KeyPrefix(t);
      std::unique_ptr<Iterator> it = db->NewIterator(ReadOptions());
      uint64_t next = 0;
      for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next(), next++) {
        const std::string k = it->key().ToString();
        ASSERT_EQ(k, Key(t, next)) << "the keys present are not a prefix of the sequence "
                                      "(acknowledged: "
                                   << acked[t] << ")";
        ASSERT_EQ(it->value().ToString(), Value(t, next)) << "wrong value for " << k;
      }
      ASSERT_OK(it->status());
      EXPECT_GE(next, acked[t]) << "acknowledged writes were lost";
      EXPECT_LE(next, acked[t] + 1) << "more than the one in-flight write beyond the acknowledged";
      // Spot-check Get on the edges.
      std::string v;
      if (next > 0) {
        ASSERT_OK(db->Get(ReadOptions(), Key(t, next - 1), &v));
        EXPECT_EQ(v, Value(t, next - 1));
      }
      Status s = db->Get(ReadOptions(), Key(t, next), &v);
      EXPECT_TRUE(s.IsNotFound()) << s.ToString();
      (*present)[t] = next;
      total += next;
    }
    // Only Puts were ever written, one sequence number each.
    EXPECT_EQ(db->GetLatestSequenceNumber(), total);
    ASSERT_OK(db->Close());
  }

  void Run(const CrashParams& params) {
    ASSERT_LE(params.threads, kMaxThreads);
    const uint64_t seed = test::RandomSeed();
    std::mt19937_64 rng(seed);
    std::vector<uint64_t> next(params.threads, 0);  // keys present so far
    uint64_t total_acked_in_rounds = 0;
    int capped_rounds = 0;  // rounds whose child ran out of writes before the kill
    if (test::kThreadSanitizer)
      GTEST_SKIP() << "TSan forbids threads in a multi-threaded fork's child";
    for (int round = 0; round < params.rounds; round++) {
      const std::string round_name = std::string(params.name) + " round " + std::to_string(round);
      SCOPED_TRACE(round_name);
      for (int t = 0; t < kMaxThreads; t++) {
        shared_->acked[t].store(t < params.threads ? next[t] : 0, std::memory_order_relaxed);
      }
      shared_->opened.store(0, std::memory_order_relaxed);
      const int delay_ms = 10 + static_cast<int>(rng() % 191);
      // Every third round the clock starts at fork, so the kill may land
      // inside Open (recovery, MANIFEST and CURRENT writes); otherwise it
      // starts at the first acknowledged write.
      const bool from_fork = round % 3 == 2;
      fflush(nullptr);
      const pid_t pid = fork();
      ASSERT_GE(pid, 0);
      if (pid == 0) Child(params, next);

      bool child_exited = false;
      int wstatus = 0;
      if (!from_fork) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        for (;;) {
          bool any = false;
          for (int t = 0; t < params.threads; t++) {
            any |= shared_->acked[t].load(std::memory_order_acquire) > next[t];
          }
          if (any) break;
          if (waitpid(pid, &wstatus, WNOHANG) == pid) {
            child_exited = true;
            break;
          }
          if (std::chrono::steady_clock::now() > deadline) break;
          std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
      }
      if (!child_exited) {
        std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
        kill(pid, SIGKILL);
        ASSERT_EQ(waitpid(pid, &wstatus, 0), pid);
      }
      ASSERT_TRUE(WIFSIGNALED(wstatus) && WTERMSIG(wstatus) == SIGKILL)
          << "the child ended by itself: "
          << (WIFEXITED(wstatus) ? "exit code " + std::to_string(WEXITSTATUS(wstatus))
                                 : "signal " + std::to_string(WTERMSIG(wstatus)))
          << " (2 = Open failed, 3 = Put failed)";
      std::vector<uint64_t> acked(params.threads);
      bool capped = true;
      for (int t = 0; t < params.threads; t++) {
        acked[t] = shared_->acked[t].load(std::memory_order_acquire);
        total_acked_in_rounds += acked[t] - next[t];
        capped &= acked[t] - next[t] == params.max_writes_per_round;
      }
      if (capped) capped_rounds++;
      std::vector<uint64_t> present(params.threads, 0);
      Verify(params, acked, &present, round_name);
      if (HasFailure()) return;
      next = present;
    }
    uint64_t total = 0;
    for (uint64_t n : next) total += n;
    printf("%s: %d rounds (%d idle at the kill), %" PRIu64 " keys present, %" PRIu64
           " writes acknowledged\n",
           params.name, params.rounds, capped_rounds, total, total_acked_in_rounds);
    EXPECT_GT(total, 0u) << "no round wrote anything: the test did not test";
  }

  test::TempDir tmp_;
  std::string dbname_;
  Shared* shared_ = nullptr;
};

TEST_F(DBCrashTest, KillDuringUnsyncedWrites) {
  Run(CrashParams{"unsynced", 1, false, false, 10, 150000});
}

TEST_F(DBCrashTest, KillDuringSyncedWrites) {
  Run(CrashParams{"synced", 1, true, false, 10, 40000});
}

TEST_F(DBCrashTest, KillDuringConcurrentWriters) {
  Run(CrashParams{"4 threads", 4, false, false, 8, 40000});
}

TEST_F(DBCrashTest, KillDuringConcurrentSyncedWriters) {
  Run(CrashParams{"4 threads synced", 4, true, false, 5, 10000});
}

// DBOptions::allow_mmap_writes promises the same crash safety.
TEST_F(DBCrashTest, KillDuringMmapWrites) {
  Run(CrashParams{"mmap writes", 1, false, true, 6, 150000});
}

}  // namespace
}  // namespace strata
