// replication: a follower kept current by tailing a leader's WAL.
//
// A leader DB takes a write load from a thread of its own -- db_bench
// fillrandom's shape by default: random keys, --value_size-byte values, as
// fast as it can (--write_rate=N: N writes a second) -- made of Puts,
// Deletes, Merges (the leader and follower use the uint64add merge
// operator) and multi-key batches. A follower is bootstrapped from a
// checkpoint of the live leader (Checkpoint::CreateCheckpoint, taken while
// the writer runs), opened as an ordinary DB, and kept current by a loop of
//
//   leader->GetUpdatesSince(applied + 1)  ->  follower->Write(batch)
//
// The leader sets WAL_ttl_seconds so the WALs the follower still needs are
// archived (<db>/archive/) rather than deleted when a flush makes them
// obsolete. After --seconds the writer stops, the follower catches up, and
// both DBs are compared key by key.
//
// Prints the keys, batches and bytes shipped, the writer's rate, and the
// follower's lag: in sequence numbers (max, and when the writer stopped) and
// in milliseconds (the delay from a leader write to its application on the
// follower, sampled every 64 writes: max, and the last sample applied). Exits non-zero on any
// difference or error.
//
// Usage: replication [--seconds=5] [--value_size=100] [--write_rate=0]
//                    [--num=100000] [--dir=/tmp/strata-replication-<pid>]
//                    [--keep]
//
// Sequence numbers: a follower applying the leader's batches in order
// assigns them the same sequence numbers as the leader did, so its own last
// sequence is the last leader sequence applied. The first batch
// GetUpdatesSince returns may start before the requested sequence (a WAL
// record holds a whole write group); its records already applied are
// skipped, so nothing is applied twice.
//
// Uses only the installed public API.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>

#include "strata/db.h"
#include "strata/merge_operator.h"
#include "strata/options.h"
#include "strata/transaction_log.h"
#include "strata/utilities/checkpoint.h"
#include "strata/write_batch.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Flags {
  double seconds = 5;
  size_t value_size = 100;
  uint64_t write_rate = 0;  // writes per second; 0 = as fast as possible
  uint64_t num = 100000;    // key space
  std::string dir;
  bool keep = false;
};

bool ParseFlags(int argc, char** argv, Flags* f) {
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    auto value = [a](const char* name) -> const char* {
      const size_t n = strlen(name);
      return strncmp(a, name, n) == 0 && a[n] == '=' ? a + n + 1 : nullptr;
    };
    if (const char* v = value("--seconds")) {
      f->seconds = atof(v);
    } else if (const char* v = value("--value_size")) {
      f->value_size = strtoull(v, nullptr, 10);
    } else if (const char* v = value("--write_rate")) {
      f->write_rate = strtoull(v, nullptr, 10);
    } else if (const char* v = value("--num")) {
      f->num = std::max<uint64_t>(1, strtoull(v, nullptr, 10));
    } else if (const char* v = value("--dir")) {
      f->dir = v;
    } else if (strcmp(a, "--keep") == 0) {
      f->keep = true;
    } else {
      fprintf(stderr, "unknown flag %s\n", a);
      return false;
    }
  }
  if (f->dir.empty()) f->dir = "/tmp/strata-replication-" + std::to_string(getpid());
  return true;
}

uint64_t NowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now().time_since_epoch())
      .count();
}

bool Check(const strata::Status& s, const char* what) {
  if (s.ok()) return true;
  fprintf(stderr, "replication: %s: %s\n", what, s.ToString().c_str());
  return false;
}

// Copies the records of a batch from the `skip`-th on into *out.
class SuffixCopier : public strata::WriteBatch::Handler {
 public:
  SuffixCopier(uint64_t skip, strata::WriteBatch* out) : skip_(skip), out_(out) {}
  strata::Status PutCF(uint32_t, const strata::Slice& k, const strata::Slice& v) override {
    return Take() ? out_->Put(k, v) : strata::Status::OK();
  }
  strata::Status DeleteCF(uint32_t, const strata::Slice& k) override {
    return Take() ? out_->Delete(k) : strata::Status::OK();
  }
  strata::Status MergeCF(uint32_t, const strata::Slice& k, const strata::Slice& v) override {
    return Take() ? out_->Merge(k, v) : strata::Status::OK();
  }

 private:
  bool Take() { return seen_++ >= skip_; }
  const uint64_t skip_;
  uint64_t seen_ = 0;
  strata::WriteBatch* out_;
};

// Sampled leader writes: (last sequence of the write, when it returned).
struct Samples {
  std::mutex mu;
  std::deque<std::pair<uint64_t, uint64_t>> pending;
};

strata::Options CommonOptions() {
  strata::Options o;
  o.create_if_missing = true;
  o.merge_operator = strata::MergeOperators::CreateUInt64AddOperator();
  return o;
}

std::string Key(uint64_t k) {
  char buf[32];
  snprintf(buf, sizeof(buf), "key%016" PRIu64, k);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  if (!ParseFlags(argc, argv, &flags)) return 2;
  namespace fs = std::filesystem;
  const std::string leader_dir = flags.dir + "/leader";
  const std::string follower_dir = flags.dir + "/follower";
  fs::remove_all(flags.dir);
  fs::create_directories(flags.dir);

  strata::Options leader_options = CommonOptions();
  // Obsolete WALs go to archive/ and stay an hour: the follower reads them.
  leader_options.WAL_ttl_seconds = 3600;
  // Small memtables, so WALs roll (and get archived) during a short run.
  leader_options.write_buffer_size = 4 << 20;

  // 1. The leader, with some data.
  std::unique_ptr<strata::DB> leader;
  if (!Check(strata::DB::Open(leader_options, leader_dir, &leader), "open leader")) return 1;
  for (uint64_t i = 0; i < 1000; ++i) {
    if (!Check(leader->Put(strata::WriteOptions(), Key(i * 7 % flags.num), "seed"), "seed")) {
      return 1;
    }
  }

  // 2. The writer.
  std::atomic<bool> stop{false};
  std::atomic<bool> writer_failed{false};
  std::atomic<uint64_t> writes{0}, write_bytes{0};
  Samples samples;
  const uint64_t start_us = NowMicros();
  std::thread writer([&] {
    std::mt19937_64 rng(42);
    std::string value(flags.value_size, 'x');
    strata::WriteOptions wo;
    uint64_t n = 0;
    while (!stop.load(std::memory_order_relaxed)) {
      if (flags.write_rate > 0) {
        // Paced: write n happens no earlier than n / rate seconds in.
        const uint64_t due = start_us + n * 1000000 / flags.write_rate;
        const uint64_t now = NowMicros();
        if (now < due) std::this_thread::sleep_for(std::chrono::microseconds(due - now));
      }
      for (size_t i = 0; i < value.size(); i += 8) value[i] = static_cast<char>('a' + rng() % 26);
      const uint64_t r = rng() % 100;
      strata::Status s;
      size_t bytes = 0;
      if (r < 75) {
        s = leader->Put(wo, Key(rng() % flags.num), value);
        bytes = value.size();
      } else if (r < 85) {
        s = leader->Delete(wo, Key(rng() % flags.num));
      } else if (r < 92) {
        // uint64add operands: 8 bytes little-endian.
        const uint64_t add = rng() % 1000;
        char operand[8];
        memcpy(operand, &add, 8);
        s = leader->Merge(wo, Key(flags.num + rng() % 1000), strata::Slice(operand, 8));
        bytes = 8;
      } else {
        strata::WriteBatch b;
        for (int k = 0; k < 4 && s.ok(); ++k) {
          s = k == 3 ? b.Delete(Key(rng() % flags.num)) : b.Put(Key(rng() % flags.num), value);
        }
        if (s.ok()) s = leader->Write(wo, &b);
        bytes = 3 * value.size();
      }
      if (!s.ok()) {
        Check(s, "leader write");
        writer_failed = true;
        return;
      }
      writes.fetch_add(1, std::memory_order_relaxed);
      write_bytes.fetch_add(bytes, std::memory_order_relaxed);
      if (++n % 64 == 0) {
        std::lock_guard<std::mutex> l(samples.mu);
        samples.pending.emplace_back(leader->GetLatestSequenceNumber(), NowMicros());
      }
    }
  });

  // 3. The follower: a checkpoint of the live leader, taken under the
  //    write load, opened as an ordinary DB. Its last sequence is the last
  //    leader write it holds.
  std::this_thread::sleep_for(
      std::chrono::microseconds(static_cast<uint64_t>(std::min(0.5, flags.seconds / 4) * 1e6)));
  std::unique_ptr<strata::DB> follower;
  {
    std::unique_ptr<strata::Checkpoint> checkpoint;
    strata::Status s = strata::Checkpoint::Create(leader.get(), &checkpoint);
    if (s.ok()) s = checkpoint->CreateCheckpoint(follower_dir, /*log_size_for_flush=*/0);
    if (s.ok()) s = strata::DB::Open(CommonOptions(), follower_dir, &follower);
    if (!Check(s, "bootstrap the follower")) {
      stop = true;
      writer.join();
      return 1;
    }
  }

  // 4. The follower's loop (this thread).
  uint64_t applied = follower->GetLatestSequenceNumber();
  const uint64_t bootstrap_sequence = applied;
  {
    // Writes the checkpoint holds were never shipped: no lag to measure.
    std::lock_guard<std::mutex> l(samples.mu);
    while (!samples.pending.empty() && samples.pending.front().first <= applied) {
      samples.pending.pop_front();
    }
  }
  uint64_t batches = 0, keys = 0, bytes = 0;
  uint64_t max_lag_seq = 0, end_lag_seq = 0;
  double max_lag_ms = 0, last_lag_ms = 0;
  const uint64_t end_us = start_us + static_cast<uint64_t>(flags.seconds * 1e6);
  bool failed = false;
  bool writer_stopped = false;
  // Stops the writer once --seconds have passed (checked between batches
  // too: an iterator keeps following a writer faster than the follower).
  auto maybe_stop_writer = [&] {
    if (!writer_stopped && (NowMicros() >= end_us || writer_failed.load())) {
      stop = true;
      writer.join();
      writer_stopped = true;
      end_lag_seq = leader->GetLatestSequenceNumber() - applied;
      max_lag_seq = std::max(max_lag_seq, end_lag_seq);
    }
  };
  while (!failed) {
    maybe_stop_writer();
    const uint64_t leader_last = leader->GetLatestSequenceNumber();
    max_lag_seq = std::max(max_lag_seq, leader_last - applied);
    if (applied >= leader_last) {
      if (writer_stopped) break;  // caught up with the final state
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      continue;
    }
    std::unique_ptr<strata::TransactionLogIterator> it;
    if (!Check(leader->GetUpdatesSince(applied + 1, &it), "GetUpdatesSince")) {
      failed = true;
      break;
    }
    for (; it->Valid(); it->Next()) {
      strata::BatchResult r = it->GetBatch();
      strata::WriteBatch* b = r.writeBatchPtr.get();
      const uint64_t count = b->Count();
      if (r.sequence + count <= applied + 1 && r.sequence <= applied) continue;  // all applied
      strata::WriteBatch suffix;
      if (r.sequence <= applied) {
        // Starts before what we need: only its tail is new.
        SuffixCopier copier(applied + 1 - r.sequence, &suffix);
        if (!Check(b->Iterate(&copier), "batch")) failed = true;
        b = &suffix;
      } else if (r.sequence != applied + 1) {
        fprintf(stderr, "replication: sequence gap: expected %" PRIu64 ", got %" PRIu64 "\n",
                applied + 1, r.sequence);
        failed = true;
      }
      if (failed || !Check(follower->Write(strata::WriteOptions(), b), "follower write")) {
        failed = true;
        break;
      }
      applied = r.sequence + count - 1;
      if (++batches % 1024 == 0) {
        max_lag_seq = std::max(max_lag_seq, leader->GetLatestSequenceNumber() - applied);
        maybe_stop_writer();
      }
      keys += b->Count();
      bytes += b->Data().size();
    }
    if (!failed && !Check(it->status(), "WAL iterator")) failed = true;
    // Replication delay of the sampled writes now applied.
    const uint64_t now = NowMicros();
    std::lock_guard<std::mutex> l(samples.mu);
    while (!samples.pending.empty() && samples.pending.front().first <= applied) {
      last_lag_ms = (now - samples.pending.front().second) / 1000.0;
      max_lag_ms = std::max(max_lag_ms, last_lag_ms);
      samples.pending.pop_front();
    }
  }
  if (!writer_stopped) {
    stop = true;
    writer.join();
  }
  const double elapsed = (NowMicros() - start_us) / 1e6;
  failed = failed || writer_failed.load();

  // 5. Compare the two DBs key by key.
  uint64_t compared = 0, differences = 0;
  if (!failed) {
    auto a = leader->NewIterator(strata::ReadOptions());
    auto b = follower->NewIterator(strata::ReadOptions());
    for (a->SeekToFirst(), b->SeekToFirst(); a->Valid() || b->Valid(); a->Next(), b->Next()) {
      if (!a->Valid() || !b->Valid() || a->key() != b->key() || a->value() != b->value()) {
        if (++differences <= 5) {
          fprintf(stderr, "replication: difference at leader key %s / follower key %s\n",
                  a->Valid() ? a->key().ToString().c_str() : "(end)",
                  b->Valid() ? b->key().ToString().c_str() : "(end)");
        }
        if (!a->Valid() || !b->Valid()) break;
      }
      ++compared;
    }
    if (!Check(a->status(), "leader scan") || !Check(b->status(), "follower scan")) failed = true;
    if (leader->GetLatestSequenceNumber() != follower->GetLatestSequenceNumber()) {
      fprintf(stderr,
              "replication: last sequences differ: leader %" PRIu64 ", follower %" PRIu64 "\n",
              leader->GetLatestSequenceNumber(), follower->GetLatestSequenceNumber());
      failed = true;
    }
  }

  const double write_secs = std::min(elapsed, flags.seconds);
  printf("writer:   %" PRIu64 " writes in %.2f s: %.0f writes/s, %.2f MB/s of values\n",
         writes.load(), write_secs, writes.load() / write_secs,
         write_bytes.load() / write_secs / 1048576.0);
  printf("follower: bootstrapped from a checkpoint at sequence %" PRIu64 "\n", bootstrap_sequence);
  printf("shipped:  %" PRIu64 " keys, %" PRIu64 " batches, %" PRIu64 " bytes\n", keys, batches,
         bytes);
  printf("lag:      max %" PRIu64 " seq, %.1f ms; at end %" PRIu64 " seq, %.1f ms\n", max_lag_seq,
         max_lag_ms, end_lag_seq, last_lag_ms);
  printf("compare:  %" PRIu64 " keys, %" PRIu64 " differences -> %s\n", compared, differences,
         failed || differences > 0 ? "FAILED" : "OK");
  if (!Check(follower->Close(), "close follower") || !Check(leader->Close(), "close leader")) {
    failed = true;
  }
  follower.reset();
  leader.reset();
  if (!flags.keep) fs::remove_all(flags.dir);
  return failed || differences > 0 ? 1 : 0;
}
