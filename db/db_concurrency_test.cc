// Engine-level concurrency tests: writer threads doing Put/Delete (single
// and as multi-key WriteBatches, some synced) while reader threads check,
// with and without snapshots, that batches are atomic, iterators are sorted
// and unique, and snapshots are stable. Each writer owns its key range, so
// the final state is known exactly and is checked after the threads join and
// again after a reopen. Only the public API is used.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "strata/db.h"
#include "strata/iterator.h"
#include "strata/options.h"
#include "strata/snapshot.h"
#include "strata/status.h"
#include "strata/write_batch.h"
#include "test_util/db_test_base.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

constexpr int kWriters = 8;
constexpr int kReaders = 2;
constexpr int kOpsPerWriter = 4000;
constexpr int kSingleKeys = 100;  // per writer
constexpr int kSlots = 12;        // batch slots per writer
constexpr int kBatchKeys = 5;     // keys per slot, always written together

std::string SingleKey(int t, int k) {
  char buf[32];
  snprintf(buf, sizeof(buf), "w%d-s%03d", t, k);
  return buf;
}
std::string SlotPrefix(int t, int slot) {
  char buf[32];
  snprintf(buf, sizeof(buf), "w%d-b%02d-", t, slot);
  return buf;
}
std::string SlotKey(int t, int slot, int j) { return SlotPrefix(t, slot) + std::to_string(j); }

// Collects errors from many threads; reports a bounded number.
class Errors {
 public:
  void Add(const std::string& e) {
    std::lock_guard<std::mutex> l(mu_);
    count_++;
    if (first_.size() < 10) first_.push_back(e);
  }
  int count() {
    std::lock_guard<std::mutex> l(mu_);
    return count_;
  }
  std::string Report() {
    std::lock_guard<std::mutex> l(mu_);
    std::string r = std::to_string(count_) + " errors; first ones:";
    for (const auto& e : first_) r += "\n  " + e;
    return r;
  }

 private:
  std::mutex mu_;
  int count_ = 0;
  std::vector<std::string> first_;
};

// "" if the keys of a slot, read as (key, value, found) triples, are all
// present with one value or all absent.
std::string CheckSlotAtomic(const std::string& what, const std::vector<std::string>& values,
                            const std::vector<bool>& found) {
  const size_t n = std::count(found.begin(), found.end(), true);
  if (n != 0 && n != found.size()) {
    return what + ": " + std::to_string(n) + " of " + std::to_string(found.size()) +
           " keys of a batch present";
  }
  for (size_t i = 1; i < values.size(); i++) {
    if (found[i] && values[i] != values[0]) {
      return what + ": values of one batch differ: '" + values[0] + "' vs '" + values[i] + "'";
    }
  }
  return "";
}

// Scans an iterator over the whole database in one direction and checks
// order, uniqueness and that every batch slot is complete and uniform.
void CheckScan(Iterator* it, bool forward, const std::string& what, Errors* errors) {
  std::string prev;
  bool have_prev = false;
  std::string group_prefix;
  std::vector<std::string> group_values;
  auto flush_group = [&]() {
    if (group_prefix.empty()) return;
    if (group_values.size() != kBatchKeys) {
      errors->Add(what + ": slot " + group_prefix + " has " + std::to_string(group_values.size()) +
                  " keys");
    } else {
      for (const auto& v : group_values) {
        if (v != group_values[0]) {
          errors->Add(what + ": slot " + group_prefix + " mixes batches: '" + group_values[0] +
                      "' vs '" + v + "'");
          break;
        }
      }
    }
    group_prefix.clear();
    group_values.clear();
  };
  int n = 0;
  for (forward ? it->SeekToFirst() : it->SeekToLast(); it->Valid();
       forward ? it->Next() : it->Prev()) {
    const std::string k = it->key().ToString();
    if (have_prev && (forward ? !(prev < k) : !(k < prev))) {
      errors->Add(what + ": keys out of order or repeated: '" + prev + "' then '" + k + "'");
      return;
    }
    prev = k;
    have_prev = true;
    n++;
    // Slot keys look like "w<t>-bNN-<j>".
    const size_t dash = k.find("-b");
    if (dash != std::string::npos && k.size() > dash + 5) {
      const std::string prefix = k.substr(0, dash + 5);
      if (prefix != group_prefix) {
        flush_group();
        group_prefix = prefix;
      }
      group_values.push_back(it->value().ToString());
    } else {
      flush_group();
    }
  }
  flush_group();
  if (!it->status().ok()) errors->Add(what + ": iterator status " + it->status().ToString());
}

// Default options (with create_if_missing).
class DBConcurrencyTest : public DBTestBase {
 protected:
  DBConcurrencyTest() : DBTestBase("db_concurrency_test") {
    options_ = Options();
    options_.create_if_missing = true;
  }

  // Everything in the database, by forward scan.
  std::map<std::string, std::string> Dump() {
    std::map<std::string, std::string> m;
    std::unique_ptr<Iterator> it = db_->NewIterator(ReadOptions());
    for (it->SeekToFirst(); it->Valid(); it->Next())
      m[it->key().ToString()] = it->value().ToString();
    EXPECT_OK(it->status());
    return m;
  }

  static std::string DescribeDiff(const std::map<std::string, std::string>& got,
                                  const std::map<std::string, std::string>& want) {
    auto g = got.begin();
    auto w = want.begin();
    while (g != got.end() || w != want.end()) {
      if (g == got.end()) return "missing " + w->first + "=" + w->second;
      if (w == want.end()) return "unexpected " + g->first + "=" + g->second;
      if (g->first != w->first) {
        return g->first < w->first ? "unexpected " + g->first : "missing " + w->first;
      }
      if (g->second != w->second) {
        return "value of " + g->first + " is '" + g->second + "', expected '" + w->second + "'";
      }
      ++g;
      ++w;
    }
    return "";
  }
};

TEST_F(DBConcurrencyTest, WritersAndSnapshotReaders) {
  Open();
  const uint64_t seed = test::RandomSeed();
  Errors errors;
  std::atomic<int> writers_left{kWriters};
  std::vector<std::map<std::string, std::string>> models(kWriters);
  std::vector<uint64_t> counted(kWriters, 0);  // sequence numbers consumed per writer
  std::atomic<uint64_t> reader_checks{0};

  auto writer = [&](int t) {
    std::mt19937_64 rng(seed + 1000 + t);
    auto& model = models[t];
    uint64_t batch_id = 0;
    for (int op = 0; op < kOpsPerWriter && errors.count() == 0; op++) {
      WriteOptions wo;
      wo.sync = rng() % 40 == 0;
      const int choice = static_cast<int>(rng() % 100);
      Status s;
      uint64_t count = 0;
      if (choice < 35) {
        const std::string k = SingleKey(t, static_cast<int>(rng() % kSingleKeys));
        const std::string v = "t" + std::to_string(t) + "-op" + std::to_string(op);
        s = db_->Put(wo, k, v);
        if (s.ok()) model[k] = v;
        count = 1;
      } else if (choice < 50) {
        const std::string k = SingleKey(t, static_cast<int>(rng() % kSingleKeys));
        s = db_->Delete(wo, k);
        if (s.ok()) model.erase(k);
        count = 1;
      } else if (choice < 85) {
        // A whole slot written by one batch, maybe with single keys mixed in.
        const int slot = static_cast<int>(rng() % kSlots);
        const std::string v = "B" + std::to_string(t) + "." + std::to_string(++batch_id);
        WriteBatch batch;
        // (key, value or nullopt for a delete), in batch order.
        std::vector<std::pair<std::string, std::optional<std::string>>> ops;
        for (int j = 0; j < kBatchKeys; j++) ops.emplace_back(SlotKey(t, slot, j), v);
        const int extra = static_cast<int>(rng() % 3);
        for (int e = 0; e < extra; e++) {
          const std::string k = SingleKey(t, static_cast<int>(rng() % kSingleKeys));
          if (rng() % 2 == 0) {
            ops.emplace_back(k, v);
          } else {
            ops.emplace_back(k, std::nullopt);
          }
        }
        for (const auto& [k, val] : ops) {
          EXPECT_OK(val.has_value() ? batch.Put(k, *val) : batch.Delete(k));
        }
        count = batch.Count();
        s = db_->Write(wo, &batch);
        if (s.ok()) {
          for (const auto& [k, val] : ops) {
            if (val.has_value()) {
              model[k] = *val;
            } else {
              model.erase(k);
            }
          }
        }
      } else {
        // A whole slot deleted by one batch.
        const int slot = static_cast<int>(rng() % kSlots);
        WriteBatch batch;
        for (int j = 0; j < kBatchKeys; j++) EXPECT_OK(batch.Delete(SlotKey(t, slot, j)));
        count = batch.Count();
        s = db_->Write(wo, &batch);
        if (s.ok()) {
          for (int j = 0; j < kBatchKeys; j++) model.erase(SlotKey(t, slot, j));
        }
      }
      if (!s.ok()) {
        errors.Add("writer " + std::to_string(t) + " op " + std::to_string(op) + ": " +
                   s.ToString());
        break;
      }
      counted[t] += count;
      // Read-your-writes for this thread's own keys.
      if (op % 50 == 0) {
        const std::string k = SingleKey(t, static_cast<int>(rng() % kSingleKeys));
        std::string got;
        Status gs = db_->Get(ReadOptions(), k, &got);
        auto m = model.find(k);
        if (m == model.end() ? !gs.IsNotFound() : (!gs.ok() || got != m->second)) {
          errors.Add("writer " + std::to_string(t) + " reads its own key " + k + ": " +
                     gs.ToString() + " '" + got + "'");
        }
      }
    }
    writers_left.fetch_sub(1);
  };

  auto reader = [&](int r) {
    std::mt19937_64 rng(seed + 2000 + r);
    while (writers_left.load() > 0 && errors.count() == 0) {
      const int t = static_cast<int>(rng() % kWriters);
      const int slot = static_cast<int>(rng() % kSlots);
      const int kind = static_cast<int>(rng() % 10);
      if (kind < 6) {
        // Get every key of a slot through one snapshot, twice.
        const Snapshot* snap = db_->GetSnapshot();
        ReadOptions ro;
        ro.snapshot = snap;
        std::vector<std::string> first_values;
        std::vector<bool> first_found;
        for (int pass = 0; pass < 2; pass++) {
          std::vector<std::string> values(kBatchKeys);
          std::vector<bool> found(kBatchKeys);
          for (int j = 0; j < kBatchKeys; j++) {
            Status s = db_->Get(ro, SlotKey(t, slot, j), &values[j]);
            if (!s.ok() && !s.IsNotFound()) errors.Add("snapshot Get: " + s.ToString());
            found[j] = s.ok();
            if (!s.ok()) values[j].clear();
          }
          const std::string e =
              CheckSlotAtomic("snapshot Get of " + SlotPrefix(t, slot), values, found);
          if (!e.empty()) errors.Add(e);
          if (pass == 0) {
            first_values = values;
            first_found = found;
            std::this_thread::yield();
          } else if (values != first_values || found != first_found) {
            errors.Add("snapshot reads of " + SlotPrefix(t, slot) + " changed over time");
          }
        }
        // A MultiGet through the same snapshot agrees.
        std::vector<std::string> key_strings;
        for (int j = 0; j < kBatchKeys; j++) key_strings.push_back(SlotKey(t, slot, j));
        std::vector<Slice> keys(key_strings.begin(), key_strings.end());
        std::vector<std::string> mg_values;
        std::vector<Status> mg = db_->MultiGet(ro, keys, &mg_values);
        for (int j = 0; j < kBatchKeys && j < static_cast<int>(mg.size()); j++) {
          if (mg[j].ok() != first_found[j] || (mg[j].ok() && mg_values[j] != first_values[j])) {
            errors.Add("MultiGet through a snapshot disagrees with Get for " + SlotKey(t, slot, j));
            break;
          }
        }
        db_->ReleaseSnapshot(snap);
      } else if (kind < 8) {
        // A bounded iterator over one slot without an explicit snapshot.
        const std::string lower = SlotPrefix(t, slot);
        const std::string upper = lower + "\xff";
        Slice lo(lower);
        Slice up(upper);
        ReadOptions ro;
        ro.iterate_lower_bound = &lo;
        ro.iterate_upper_bound = &up;
        std::unique_ptr<Iterator> it = db_->NewIterator(ro);
        std::vector<std::string> values;
        for (it->SeekToFirst(); it->Valid(); it->Next()) values.push_back(it->value().ToString());
        if (!values.empty() && values.size() != kBatchKeys) {
          errors.Add("bounded iterator over " + lower + " saw " + std::to_string(values.size()) +
                     " keys");
        }
        for (const auto& v : values) {
          if (v != values[0]) errors.Add("bounded iterator over " + lower + " mixes batches");
        }
      } else {
        // A full scan, forward without and backward with a snapshot.
        std::unique_ptr<Iterator> it = db_->NewIterator(ReadOptions());
        CheckScan(it.get(), true, "forward scan", &errors);
        it.reset();
        const Snapshot* snap = db_->GetSnapshot();
        ReadOptions ro;
        ro.snapshot = snap;
        it = db_->NewIterator(ro);
        CheckScan(it.get(), false, "backward snapshot scan", &errors);
        it.reset();
        db_->ReleaseSnapshot(snap);
      }
      reader_checks.fetch_add(1);
    }
  };

  std::vector<std::thread> threads;
  for (int t = 0; t < kWriters; t++) threads.emplace_back(writer, t);
  for (int r = 0; r < kReaders; r++) threads.emplace_back(reader, r);
  for (auto& th : threads) th.join();
  ASSERT_EQ(errors.count(), 0) << errors.Report();
  printf("reader checks: %" PRIu64 "\n", reader_checks.load());

  std::map<std::string, std::string> expected;
  uint64_t total_count = 0;
  for (int t = 0; t < kWriters; t++) {
    expected.insert(models[t].begin(), models[t].end());
    total_count += counted[t];
  }
  EXPECT_EQ(DescribeDiff(Dump(), expected), "");
  EXPECT_EQ(db_->GetLatestSequenceNumber(), total_count);
  // Gets agree with the scan.
  for (const auto& [k, v] : expected) {
    std::string got;
    ASSERT_OK(db_->Get(ReadOptions(), k, &got));
    ASSERT_EQ(got, v) << k;
  }
  Reopen();
  EXPECT_EQ(DescribeDiff(Dump(), expected), "") << "after reopen";
  EXPECT_EQ(db_->GetLatestSequenceNumber(), total_count) << "after reopen";
}

// Threads overwrite the same keys: the winner of each key is some thread's
// last write, all keys end with a value from one of the writers, and every
// sequence number is accounted for.
TEST_F(DBConcurrencyTest, WritersOnSharedKeys) {
  Open();
  const int kThreads = 4;
  const int kKeys = 20;
  const int kRounds = 400;
  Errors errors;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t]() {
      for (int r = 0; r < kRounds; r++) {
        WriteBatch batch;
        for (int k = 0; k < kKeys; k += 4) {
          EXPECT_OK(batch.Put("shared" + std::to_string(k + r % 4),
                              "t" + std::to_string(t) + "r" + std::to_string(r)));
        }
        WriteOptions wo;
        wo.sync = r % 100 == 0;
        Status s = db_->Write(wo, &batch);
        if (!s.ok()) {
          errors.Add(s.ToString());
          return;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  ASSERT_EQ(errors.count(), 0) << errors.Report();
  EXPECT_EQ(db_->GetLatestSequenceNumber(),
            static_cast<uint64_t>(kThreads) * kRounds * (kKeys / 4));
  auto check = [&]() {
    for (int k = 0; k < kKeys; k++) {
      std::string got;
      ASSERT_OK(db_->Get(ReadOptions(), "shared" + std::to_string(k), &got));
      // Key k is written in rounds r with r % 4 == k % 4; the last such
      // round is one of the four final rounds.
      const int last_round = kRounds - 4 + k % 4;
      bool ok = false;
      for (int t = 0; t < kThreads; t++) {
        ok |= got == "t" + std::to_string(t) + "r" + std::to_string(last_round);
      }
      EXPECT_TRUE(ok) << "shared" << k << " = " << got;
    }
  };
  check();
  const auto before = Dump();
  Reopen();
  check();
  EXPECT_EQ(DescribeDiff(Dump(), before), "") << "replay picked a different winner";
}

// Snapshots taken while writers run see a state that later reads through
// the same snapshot reproduce exactly, even after much more writing.
TEST_F(DBConcurrencyTest, SnapshotsStayFrozenUnderConcurrentWrites) {
  Open();
  std::atomic<bool> stop{false};
  Errors errors;
  std::vector<std::thread> writers;
  for (int t = 0; t < 4; t++) {
    writers.emplace_back([&, t]() {
      std::mt19937_64 rng(t + 77);
      for (int i = 0; !stop.load(); i++) {
        const std::string k = "k" + std::to_string(rng() % 200);
        Status s = (rng() % 4 == 0) ? db_->Delete(WriteOptions(), k)
                                    : db_->Put(WriteOptions(), k, std::to_string(i));
        if (!s.ok()) {
          errors.Add(s.ToString());
          return;
        }
      }
    });
  }
  struct Frozen {
    const Snapshot* snap;
    std::map<std::string, std::string> state;
  };
  std::vector<Frozen> frozen;
  for (int i = 0; i < 10; i++) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    Frozen f;
    f.snap = db_->GetSnapshot();
    ReadOptions ro;
    ro.snapshot = f.snap;
    std::unique_ptr<Iterator> it = db_->NewIterator(ro);
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      f.state[it->key().ToString()] = it->value().ToString();
    }
    EXPECT_OK(it->status());  // no ASSERT: the writers must be joined first
    frozen.push_back(std::move(f));
  }
  stop.store(true);
  for (auto& th : writers) th.join();
  ASSERT_EQ(errors.count(), 0) << errors.Report();
  for (size_t i = 0; i < frozen.size(); i++) {
    SCOPED_TRACE("snapshot " + std::to_string(i));
    ReadOptions ro;
    ro.snapshot = frozen[i].snap;
    std::map<std::string, std::string> now;
    std::unique_ptr<Iterator> it = db_->NewIterator(ro);
    for (it->SeekToLast(); it->Valid(); it->Prev())
      now[it->key().ToString()] = it->value().ToString();
    EXPECT_EQ(DescribeDiff(now, frozen[i].state), "");
    for (int k = 0; k < 200; k += 7) {
      const std::string key = "k" + std::to_string(k);
      std::string got;
      Status s = db_->Get(ro, key, &got);
      auto f = frozen[i].state.find(key);
      if (f == frozen[i].state.end()) {
        EXPECT_TRUE(s.IsNotFound()) << key << ": " << s.ToString();
      } else {
        EXPECT_TRUE(s.ok()) << key << ": " << s.ToString();
        EXPECT_EQ(got, f->second) << key;
      }
    }
    db_->ReleaseSnapshot(frozen[i].snap);
  }
}

}  // namespace
}  // namespace strata
