// LSM-level engine tests: the database is driven with tiny write buffers,
// tiny target file sizes and tiny level targets so that every operation
// crosses memtable switches, flushes, trivial moves and multi-level
// compactions. Checked against a std::map model: (a) a randomized mix of
// writes, snapshots, iterators, flushes, manual compactions and reopens;
// (b) concurrent writers and readers while compactions run; (c) deletions
// and snapshots surviving compaction; (d) recovery, including kill -9 of a
// forked child in the middle of flushes and compactions with synced writes.
// Randomized parts print their seed (STRATA_TEST_SEED replays one);
// STRATA_LSM_TEST_SCALE=<n> multiplies the amount of work for longer local
// runs. Only the public API is used, plus DBImpl::WaitForCompact().

#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <new>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "db/db_impl.h"
#include "strata/db.h"
#include "strata/iterator.h"
#include "strata/options.h"
#include "strata/snapshot.h"
#include "strata/statistics.h"
#include "strata/status.h"
#include "strata/table.h"
#include "strata/write_batch.h"
#include "test_util/db_test_base.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

using Model = std::map<std::string, std::string>;

int Scale() {
  const char* s = getenv("STRATA_LSM_TEST_SCALE");
  const int n = s != nullptr ? atoi(s) : 1;
  return n > 0 ? n : 1;
}

struct LsmParams {
  const char* name;
  bool dynamic_level_bytes;
  uint32_t max_subcompactions;
  int num_levels;
  size_t write_buffer_size;
  uint64_t max_bytes_for_level_base;
  // The compaction style under test (FIFO keeps every file: its size limit
  // is never reached, and it merges level-0 files with allow_compaction).
  CompactionStyle style = kCompactionStyleLevel;
};

Options TinyOptions(const LsmParams& p) {
  Options o;
  o.create_if_missing = true;
  o.write_buffer_size = p.write_buffer_size;
  o.max_write_buffer_number = 3;
  o.target_file_size_base = 32 << 10;
  o.max_bytes_for_level_base = p.max_bytes_for_level_base;
  o.max_bytes_for_level_multiplier = 4;
  o.level0_file_num_compaction_trigger = 2;
  o.level0_slowdown_writes_trigger = 8;
  o.level0_stop_writes_trigger = 16;
  o.num_levels = p.num_levels;
  o.level_compaction_dynamic_level_bytes = p.dynamic_level_bytes;
  o.max_subcompactions = p.max_subcompactions;
  o.max_background_jobs = 3;
  o.compression = kNoCompression;
  o.compaction_style = p.style;
  if (p.style == kCompactionStyleFIFO) {
    o.compaction_options_fifo.max_table_files_size = uint64_t{1} << 40;
    o.compaction_options_fifo.allow_compaction = true;
  }
  BlockBasedTableOptions t;
  t.block_size = 512;
  o.table_factory = NewBlockBasedTableFactory(t);
  return o;
}

Status WaitForCompact(DB* db) { return static_cast<DBImpl*>(db)->WaitForCompact(); }

uint64_t FilesAtLevel(DB* db, int level) {
  uint64_t n = 0;
  EXPECT_TRUE(db->GetIntProperty("strata.num-files-at-level" + std::to_string(level), &n));
  return n;
}

// Full forward and backward scans equal the model.
void CheckScan(DB* db, const Model& model, const Snapshot* snap, const std::string& where) {
  ReadOptions ro;
  ro.snapshot = snap;
  std::unique_ptr<Iterator> it = db->NewIterator(ro);
  auto m = model.begin();
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++m) {
    ASSERT_TRUE(m != model.end()) << where << ": extra key " << it->key().ToString();
    ASSERT_EQ(m->first, it->key().ToString()) << where;
    ASSERT_EQ(m->second, it->value().ToString()) << where << " key " << m->first;
  }
  ASSERT_OK(it->status());
  ASSERT_TRUE(m == model.end()) << where << ": missing key " << m->first;
  auto r = model.rbegin();
  for (it->SeekToLast(); it->Valid(); it->Prev(), ++r) {
    ASSERT_TRUE(r != model.rend()) << where << ": extra key (backward) " << it->key().ToString();
    ASSERT_EQ(r->first, it->key().ToString()) << where << " (backward)";
    ASSERT_EQ(r->second, it->value().ToString()) << where << " (backward)";
  }
  ASSERT_OK(it->status());
  ASSERT_TRUE(r == model.rend()) << where << ": missing key (backward) " << r->first;
}

// ---------------------------------------------------------------------------
// (a) randomized against a model

class DBLsmRandomizedTest : public DBTestBase, public ::testing::WithParamInterface<LsmParams> {
 protected:
  DBLsmRandomizedTest() : DBTestBase("db_lsm_test") {}
  ~DBLsmRandomizedTest() override {
    if (db_ != nullptr) {
      for (auto& s : snaps_) db_->ReleaseSnapshot(s.snap);
    }
  }

  struct Frozen {
    const Snapshot* snap;
    Model state;
  };

  std::string Where() const {
    return std::string(GetParam().name) + " seed " + std::to_string(seed_) + " op " +
           std::to_string(op_);
  }

  std::string RandomKey() {
    // Mostly a pool of random keys; some ranges are written in order.
    const int i = static_cast<int>(rng_() % 2500);
    char buf[32];
    snprintf(buf, sizeof(buf), "k%06d", i * 7 % 2500);
    return buf;
  }
  std::string NewValue(const std::string& key) {
    std::string v = key + "@" + std::to_string(op_) + ":";
    v.append(20 + rng_() % 200, static_cast<char>('a' + rng_() % 26));
    return v;
  }

  void CheckGet(const std::string& key, const Model& model, const Snapshot* snap) {
    ReadOptions ro;
    ro.snapshot = snap;
    std::string v;
    Status s = db_->Get(ro, key, &v);
    auto it = model.find(key);
    if (it == model.end()) {
      ASSERT_TRUE(s.IsNotFound()) << Where() << " key " << key << ": " << s.ToString() << " " << v;
    } else {
      ASSERT_TRUE(s.ok()) << Where() << " key " << key << ": " << s.ToString();
      ASSERT_EQ(it->second, v) << Where() << " key " << key;
    }
  }

  // A short walk from a random seek, with random bounds and direction
  // changes, compared step by step with the model.
  void CheckIterator(const Model& model, const Snapshot* snap) {
    std::string lo = RandomKey(), hi = RandomKey();
    if (hi < lo) std::swap(lo, hi);
    const bool use_lo = rng_() % 3 == 0, use_hi = rng_() % 3 == 0;
    Slice lo_s(lo), hi_s(hi);
    ReadOptions ro;
    ro.snapshot = snap;
    if (use_lo) ro.iterate_lower_bound = &lo_s;
    if (use_hi) ro.iterate_upper_bound = &hi_s;
    auto in_range = [&](Model::const_iterator m) {
      if (m == model.end()) return false;
      if (use_lo && m->first < lo) return false;
      if (use_hi && m->first >= hi) return false;
      return true;
    };
    std::unique_ptr<Iterator> it = db_->NewIterator(ro);
    const std::string target = RandomKey();
    Model::const_iterator m;
    bool valid;
    const int kind = static_cast<int>(rng_() % 4);
    switch (kind) {
      case 0:
        it->Seek(target);
        m = model.lower_bound(use_lo ? std::max(target, lo) : target);
        valid = in_range(m);
        break;
      case 1: {
        it->SeekForPrev(target);
        m = model.upper_bound(target);
        valid = false;
        if (m != model.begin()) {
          --m;
          while (use_hi && m->first >= hi && m != model.begin()) --m;
          valid = in_range(m);
        }
        break;
      }
      case 2:
        it->SeekToFirst();
        m = use_lo ? model.lower_bound(lo) : model.begin();
        valid = in_range(m);
        break;
      default:
        it->SeekToLast();
        m = use_hi ? model.lower_bound(hi) : model.end();
        valid = false;
        if (m != model.begin()) {
          --m;
          valid = in_range(m);
        }
        break;
    }
    const int steps = 1 + static_cast<int>(rng_() % 40);
    for (int i = 0; i < steps; i++) {
      ASSERT_EQ(valid, it->Valid()) << Where() << " step " << i << " lo=" << (use_lo ? lo : "-")
                                    << " hi=" << (use_hi ? hi : "-") << " target " << target
                                    << (valid ? " expected " + m->first : std::string())
                                    << (it->Valid() ? " got " + it->key().ToString() : "");
      if (!valid) break;
      ASSERT_EQ(m->first, it->key().ToString())
          << Where() << " step " << i << " kind " << kind << " target " << target
          << " lo=" << (use_lo ? lo : "-") << " hi=" << (use_hi ? hi : "-") << " snap "
          << (snap != nullptr);
      ASSERT_EQ(m->second, it->value().ToString()) << Where() << " step " << i;
      if (rng_() % 4 == 0) {
        it->Prev();
        if (m == model.begin()) {
          valid = false;
        } else {
          --m;
          valid = in_range(m);
        }
      } else {
        it->Next();
        ++m;
        valid = in_range(m);
      }
    }
    ASSERT_OK(it->status());
  }

  void Reopen() {
    for (auto& s : snaps_) {
      CheckScan(db_.get(), s.state, s.snap, Where() + " snapshot before reopen");
      db_->ReleaseSnapshot(s.snap);
    }
    snaps_.clear();
    DBTestBase::Reopen();
  }

  void NoteLevels() {
    for (int l = 0; l < options_.num_levels; l++) {
      if (FilesAtLevel(db_.get(), l) > 0) levels_used_.insert(l);
    }
  }

  void Run() {
    const LsmParams& p = GetParam();
    seed_ = test::RandomSeed();
    rng_.seed(seed_);
    printf("%s: seed %" PRIu64 "\n", p.name, seed_);
    ASSERT_OK(TryReopen(TinyOptions(p)));
    Model model;
    uint64_t seq_next = 0;  // sequential "q" keys (trivial moves)
    uint64_t single_next = 0;
    std::vector<std::string> single_live;  // "s" keys Put exactly once
    int flushes = 0, compactions = 0, reopens = 0;
    const int ops = 5000 * Scale();
    for (op_ = 0; op_ < ops; op_++) {
      const int r = static_cast<int>(rng_() % 1000);
      if (r < 380) {
        const std::string k = RandomKey();
        const std::string v = NewValue(k);
        ASSERT_OK_AT(db_->Put(WriteOptions(), k, v));
        model[k] = v;
      } else if (r < 440) {
        // A burst of sequential keys past everything written so far.
        const int n = 5 + static_cast<int>(rng_() % 40);
        for (int i = 0; i < n; i++) {
          char buf[32];
          snprintf(buf, sizeof(buf), "q%08" PRIu64, seq_next++);
          const std::string v = NewValue(buf);
          ASSERT_OK_AT(db_->Put(WriteOptions(), buf, v));
          model[buf] = v;
        }
      } else if (r < 580) {
        // Deletes (more often than the 140/1000 suggests: the burst slot
        // above is narrower than its range).
        const std::string k = RandomKey();
        ASSERT_OK_AT(db_->Delete(WriteOptions(), k));
        model.erase(k);
      } else if (r < 600) {
        char buf[32];
        snprintf(buf, sizeof(buf), "s%07" PRIu64, single_next++);
        const std::string v = NewValue(buf);
        ASSERT_OK_AT(db_->Put(WriteOptions(), buf, v));
        model[buf] = v;
        single_live.push_back(buf);
      } else if (r < 615 && !single_live.empty()) {
        const size_t i = rng_() % single_live.size();
        ASSERT_OK_AT(db_->SingleDelete(WriteOptions(), single_live[i]));
        model.erase(single_live[i]);
        single_live.erase(single_live.begin() + static_cast<long>(i));
      } else if (r < 660) {
        WriteBatch b;
        const int n = 1 + static_cast<int>(rng_() % 20);
        for (int i = 0; i < n; i++) {
          const std::string k = RandomKey();
          if (rng_() % 4 == 0) {
            ASSERT_OK(b.Delete(k));
            model.erase(k);
          } else {
            const std::string v = NewValue(k);
            ASSERT_OK(b.Put(k, v));
            model[k] = v;
          }
        }
        ASSERT_OK_AT(db_->Write(WriteOptions(), &b));
      } else if (r < 760) {
        if (!snaps_.empty() && rng_() % 2 == 0) {
          const Frozen& f = snaps_[rng_() % snaps_.size()];
          CheckGet(RandomKey(), f.state, f.snap);
        } else {
          CheckGet(RandomKey(), model, nullptr);
        }
        if (HasFatalFailure()) return;
      } else if (r < 800) {
        if (!snaps_.empty() && rng_() % 2 == 0) {
          const Frozen& f = snaps_[rng_() % snaps_.size()];
          CheckIterator(f.state, f.snap);
        } else {
          CheckIterator(model, nullptr);
        }
        if (HasFatalFailure()) return;
      } else if (r < 815) {
        if (snaps_.size() < 4) snaps_.push_back(Frozen{db_->GetSnapshot(), model});
      } else if (r < 825 && !snaps_.empty()) {
        const size_t i = rng_() % snaps_.size();
        CheckScan(db_.get(), snaps_[i].state, snaps_[i].snap, Where() + " snapshot");
        if (HasFatalFailure()) return;
        db_->ReleaseSnapshot(snaps_[i].snap);
        snaps_.erase(snaps_.begin() + static_cast<long>(i));
      } else if (r < 835) {
        ASSERT_OK_AT(db_->Flush(FlushOptions()));
        flushes++;
      } else if (r < 841) {
        CompactRangeOptions cro;
        if (rng_() % 3 == 0) cro.bottommost_level_compaction = BottommostLevelCompaction::kForce;
        if (rng_() % 2 == 0) {
          ASSERT_OK_AT(db_->CompactRange(cro, nullptr, nullptr));
        } else {
          std::string a = RandomKey(), b = RandomKey();
          if (b < a) std::swap(a, b);
          Slice as(a), bs(b);
          const int which = static_cast<int>(rng_() % 3);
          ASSERT_OK_AT(
              db_->CompactRange(cro, which == 1 ? nullptr : &as, which == 2 ? nullptr : &bs));
        }
        compactions++;
      } else if (r < 848) {
        ASSERT_OK_AT(WaitForCompact());
      } else if (r < 851) {
        NoteLevels();
        Reopen();
        if (HasFatalFailure()) return;
        reopens++;
        CheckScan(db_.get(), model, nullptr, Where() + " after reopen");
        if (HasFatalFailure()) return;
      }
      if (op_ % 50 == 0) NoteLevels();
    }
    ASSERT_OK_AT(WaitForCompact());
    NoteLevels();
    CheckScan(db_.get(), model, nullptr, Where() + " final");
    for (auto& s : snaps_) CheckScan(db_.get(), s.state, s.snap, Where() + " final snapshot");
    Reopen();
    CheckScan(db_.get(), model, nullptr, Where() + " final after reopen");
    std::string levels;
    for (int l : levels_used_) levels += " L" + std::to_string(l);
    printf("%s: %zu keys, %d flushes, %d manual compactions, %d reopens, levels used:%s\n", p.name,
           model.size(), flushes, compactions, reopens, levels.c_str());
    std::string stats;
    ASSERT_TRUE(db_->GetProperty("strata.stats", &stats));
    EXPECT_TRUE(levels_used_.count(0)) << stats;
    if (p.style == kCompactionStyleLevel) {
      // Level 0 and at least two deeper levels held files at some point.
      EXPECT_GE(levels_used_.size(), 3u) << Where() << stats;
    }
    if (p.style != kCompactionStyleFIFO) {
      EXPECT_TRUE(levels_used_.count(p.num_levels - 1)) << stats;
    }
  }

  std::vector<Frozen> snaps_;
  std::set<int> levels_used_;
  uint64_t seed_ = 0;
  std::mt19937_64 rng_;
  int op_ = 0;
};

TEST_P(DBLsmRandomizedTest, AgainstModel) { Run(); }

INSTANTIATE_TEST_SUITE_P(
    Tiny, DBLsmRandomizedTest,
    ::testing::Values(LsmParams{"static_levels_sub1", false, 1, 4, 16 << 10, 64 << 10},
                      LsmParams{"dynamic_levels_sub3", true, 3, 7, 32 << 10, 128 << 10},
                      LsmParams{"static_levels_sub3", false, 3, 4, 64 << 10, 96 << 10},
                      LsmParams{"dynamic_levels_sub1", true, 1, 5, 16 << 10, 64 << 10},
                      LsmParams{"universal_sub2", false, 2, 5, 16 << 10, 64 << 10,
                                kCompactionStyleUniversal},
                      LsmParams{"fifo", false, 1, 1, 16 << 10, 64 << 10, kCompactionStyleFIFO}),
    [](const ::testing::TestParamInfo<LsmParams>& info) { return std::string(info.param.name); });

// ---------------------------------------------------------------------------
// (b) concurrent writers and readers while compactions run

std::string CKey(int t, int i) {
  char buf[32];
  snprintf(buf, sizeof(buf), "w%d-%05d", t, i);
  return buf;
}
// The value names its key and a version that only grows.
std::string CValue(const std::string& key, uint64_t version) {
  std::string v = key + "#" + std::to_string(version) + "#";
  v.append(40 + version % 90, 'x');
  return v;
}
bool ParseCValue(const std::string& key, const std::string& v, uint64_t* version) {
  if (v.compare(0, key.size() + 1, key + "#") != 0) return false;
  const size_t end = v.find('#', key.size() + 1);
  if (end == std::string::npos) return false;
  *version = strtoull(v.c_str() + key.size() + 1, nullptr, 10);
  return CValue(key, *version) == v;
}

TEST(DBLsmConcurrentTest, WritersAndReadersDuringCompaction) {
  constexpr int kWriters = 3, kKeys = 400;
  const int writes_per_thread = 6000 * Scale();
  test::TempDir tmp("db_lsm_test");
  const std::string dbname = tmp.path() + "/db";
  LsmParams p{"concurrent", true, 2, 5, 32 << 10, 64 << 10};
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(TinyOptions(p), dbname, &db));
  const uint64_t seed = test::RandomSeed();
  printf("seed %" PRIu64 "\n", seed);
  // acked[t][i]: the last version of CKey(t, i) whose Put returned.
  std::vector<std::unique_ptr<std::atomic<uint64_t>[]>> acked;
  for (int t = 0; t < kWriters; t++) {
    acked.emplace_back(new std::atomic<uint64_t>[kKeys]);
    for (int i = 0; i < kKeys; i++) acked[t][i].store(0);
  }
  std::atomic<bool> stop{false};
  std::atomic<int> failures{0};
  std::atomic<uint64_t> reads{0}, scans{0};
  auto fail = [&](const std::string& msg) {
    if (failures.fetch_add(1) < 10) ADD_FAILURE() << "seed " << seed << ": " << msg;
  };
  auto writer = [&](int t) {
    std::mt19937_64 rng(seed + t);
    std::vector<uint64_t> version(kKeys, 0);
    for (int n = 0; n < writes_per_thread && failures.load() == 0; n++) {
      const int i = static_cast<int>(rng() % kKeys);
      const uint64_t ver = ++version[i];
      Status s;
      if (rng() % 8 == 0) {
        WriteBatch b;
        s = b.Put(CKey(t, i), CValue(CKey(t, i), ver));
        const int j = (i + 1) % kKeys;
        const uint64_t ver2 = ++version[j];
        if (s.ok()) s = b.Put(CKey(t, j), CValue(CKey(t, j), ver2));
        if (s.ok()) s = db->Write(WriteOptions(), &b);
        if (s.ok()) acked[t][j].store(ver2, std::memory_order_release);
      } else {
        s = db->Put(WriteOptions(), CKey(t, i), CValue(CKey(t, i), ver));
      }
      if (!s.ok()) {
        fail("Put: " + s.ToString());
        return;
      }
      acked[t][i].store(ver, std::memory_order_release);
    }
  };
  auto reader = [&](int r) {
    std::mt19937_64 rng(seed * 31 + r);
    while (!stop.load(std::memory_order_acquire) && failures.load() == 0) {
      if (rng() % 16 != 0) {
        const int t = static_cast<int>(rng() % kWriters), i = static_cast<int>(rng() % kKeys);
        const uint64_t floor = acked[t][i].load(std::memory_order_acquire);
        std::string v;
        Status s = db->Get(ReadOptions(), CKey(t, i), &v);
        uint64_t ver = 0;
        if (s.IsNotFound()) {
          if (floor > 0) fail("lost " + CKey(t, i) + " acked version " + std::to_string(floor));
        } else if (!s.ok()) {
          fail("Get: " + s.ToString());
        } else if (!ParseCValue(CKey(t, i), v, &ver)) {
          fail("bad value for " + CKey(t, i) + ": " + v);
        } else if (ver < floor) {
          fail("old version of " + CKey(t, i) + ": " + std::to_string(ver) + " < acked " +
               std::to_string(floor));
        }
        reads++;
      } else {
        // A scan (forward or backward): keys strictly ordered, each value
        // its own key's, never older than what was acknowledged before.
        std::vector<uint64_t> floors;
        const int t = static_cast<int>(rng() % kWriters);
        for (int i = 0; i < kKeys; i++) floors.push_back(acked[t][i].load());
        std::unique_ptr<Iterator> it = db->NewIterator(ReadOptions());
        const std::string prefix = "w" + std::to_string(t) + "-";
        const bool backward = rng() % 2 == 0;
        std::string prev;
        int seen = 0;
        if (backward) {
          it->SeekForPrev(prefix + "\xff");
        } else {
          it->Seek(prefix);
        }
        for (; it->Valid() && it->key().starts_with(prefix); backward ? it->Prev() : it->Next()) {
          const std::string k = it->key().ToString();
          if (!prev.empty() && (backward ? k >= prev : k <= prev))
            fail("scan out of order at " + k);
          prev = k;
          const int i = atoi(k.c_str() + prefix.size());
          uint64_t ver = 0;
          if (!ParseCValue(k, it->value().ToString(), &ver)) {
            fail("scan: bad value for " + k);
          } else if (ver < floors[i]) {
            fail("scan: old version of " + k);
          }
          seen++;
        }
        if (!it->status().ok()) fail("scan: " + it->status().ToString());
        int expected = 0;
        for (uint64_t f : floors) expected += f > 0 ? 1 : 0;
        if (seen < expected)
          fail("scan saw " + std::to_string(seen) + " < " + std::to_string(expected));
        scans++;
      }
    }
  };
  auto compactor = [&]() {
    std::mt19937_64 rng(seed * 7);
    while (!stop.load(std::memory_order_acquire) && failures.load() == 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20 + rng() % 80));
      Status s;
      if (rng() % 2 == 0) {
        s = db->Flush(FlushOptions());
      } else {
        const std::string a = CKey(static_cast<int>(rng() % kWriters), 0);
        Slice as(a);
        s = db->CompactRange(CompactRangeOptions(), rng() % 2 ? &as : nullptr, nullptr);
      }
      if (!s.ok()) fail("Flush/CompactRange: " + s.ToString());
    }
  };
  std::vector<std::thread> writers, others;
  for (int t = 0; t < kWriters; t++) writers.emplace_back(writer, t);
  for (int r = 0; r < 2; r++) others.emplace_back(reader, r);
  others.emplace_back(compactor);
  for (auto& th : writers) th.join();
  stop.store(true);
  for (auto& th : others) th.join();
  ASSERT_EQ(0, failures.load());
  printf("%" PRIu64 " reads, %" PRIu64 " scans\n", reads.load(), scans.load());

  Model model;
  for (int t = 0; t < kWriters; t++) {
    for (int i = 0; i < kKeys; i++) {
      const uint64_t v = acked[t][i].load();
      if (v > 0) model[CKey(t, i)] = CValue(CKey(t, i), v);
    }
  }
  CheckScan(db.get(), model, nullptr, "after join");
  ASSERT_OK(WaitForCompact(db.get()));
  CheckScan(db.get(), model, nullptr, "after WaitForCompact");
  ASSERT_OK(db->Close());
  db.reset();
  ASSERT_OK(DB::Open(TinyOptions(p), dbname, &db));
  CheckScan(db.get(), model, nullptr, "after reopen");
  ASSERT_OK(db->Close());
}

// ---------------------------------------------------------------------------
// (c) deletions and snapshots through compaction

class DBLsmTest : public DBTestBase {
 protected:
  DBLsmTest() : DBTestBase("db_lsm_test") {}
  static std::string Key(int i) {
    char buf[32];
    snprintf(buf, sizeof(buf), "key%06d", i);
    return buf;
  }
  static std::string Val(int i, int gen) {
    return "v" + std::to_string(gen) + "-" + std::to_string(i) + std::string(100, 'p');
  }
};

TEST_F(DBLsmTest, LevelZeroKeyFiltersSkipTablesNeverWrongly) {
  // Four overlapping level-0 tables (no table filter policy, so each gets
  // an in-memory key filter), one of them holding a range tombstone; every
  // Get and MultiGet must match a model, and lookups of absent keys must be
  // answered by the filters instead of table reads.
  Options o = options_;
  o.disable_auto_compactions = true;
  o.write_buffer_size = 64 << 20;  // one table per Flush()
  o.statistics = CreateDBStatistics();
  DestroyAndReopen(o);
  std::map<std::string, std::string> model;
  for (int gen = 0; gen < 3; ++gen) {
    for (int i = gen; i < 3000; i += 3) {
      ASSERT_OK(Put(Key(2 * i), Val(i, gen)));
      model[Key(2 * i)] = Val(i, gen);
    }
    ASSERT_OK(Flush());
  }
  // The newest table: deletes, overwrites, and a range tombstone over keys
  // that older tables hold.
  for (int i = 0; i < 3000; i += 7) {
    ASSERT_OK(Delete(Key(2 * i)));
    model.erase(Key(2 * i));
  }
  ASSERT_OK(DeleteRange(Key(1000), Key(1400)));
  for (auto it = model.lower_bound(Key(1000)); it != model.end() && it->first < Key(1400);) {
    it = model.erase(it);
  }
  ASSERT_OK(Put(Key(1200), "after-range"));
  model[Key(1200)] = "after-range";
  ASSERT_OK(Flush());
  ASSERT_EQ("4", FilesPerLevel());
  auto check = [&]() {
    std::vector<std::string> keys;
    for (int i = 0; i < 6000; ++i) {
      const std::string k = Key(i);  // odd i: never written
      keys.push_back(k);
      auto it = model.find(k);
      ASSERT_EQ(it == model.end() ? "NOT_FOUND" : it->second, Get(k)) << k;
    }
    std::vector<Slice> slices(keys.begin(), keys.end());
    std::vector<std::string> values;
    std::vector<Status> statuses = db_->MultiGet(ReadOptions(), slices, &values);
    for (size_t i = 0; i < keys.size(); ++i) {
      auto it = model.find(keys[i]);
      if (it == model.end()) {
        ASSERT_TRUE(statuses[i].IsNotFound()) << keys[i] << " " << statuses[i].ToString();
      } else {
        ASSERT_OK(statuses[i]);
        ASSERT_EQ(it->second, values[i]) << keys[i];
      }
    }
  };
  const uint64_t useful_before = o.statistics->getTickerCount(BLOOM_FILTER_USEFUL);
  check();
  // Get and MultiGet of 3000 never-written keys x 3 filtered tables, ~1%
  // false positives (keys the range tombstone covers stop earlier).
  EXPECT_GT(o.statistics->getTickerCount(BLOOM_FILTER_USEFUL) - useful_before,
            2u * 3 * 3000 * 8 / 10);
  // Below level 0 the filters are dropped; answers stay the same.
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  ASSERT_EQ(0, NumTableFilesAtLevel(0));
  const uint64_t useful_after_compaction = o.statistics->getTickerCount(BLOOM_FILTER_USEFUL);
  check();
  EXPECT_EQ(useful_after_compaction, o.statistics->getTickerCount(BLOOM_FILTER_USEFUL));
  // After a reopen, a background job gives the level-0 tables found there
  // their filters; answers are the same before and after.
  // Two tables, each spanning Key(5), which neither holds.
  for (int i : {1, 9}) {
    ASSERT_OK(Put(Key(i), "odd" + std::to_string(i)));
    model[Key(i)] = "odd" + std::to_string(i);
  }
  ASSERT_OK(Flush());
  for (int i : {3, 11}) {
    ASSERT_OK(Put(Key(i), "odd" + std::to_string(i)));
    model[Key(i)] = "odd" + std::to_string(i);
  }
  ASSERT_OK(Flush());
  Reopen();
  ASSERT_EQ(2, NumTableFilesAtLevel(0));
  check();
  bool filtered = false;
  for (int i = 0; i < 1000 && !filtered; ++i) {
    const uint64_t before = o.statistics->getTickerCount(BLOOM_FILTER_USEFUL);
    ASSERT_EQ("NOT_FOUND", Get(Key(5)));
    filtered = o.statistics->getTickerCount(BLOOM_FILTER_USEFUL) > before;
    if (!filtered) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(filtered) << "the level-0 tables found at open got no key filter";
  check();
}

TEST_F(DBLsmTest, DeletedKeysNeverComeBack) {
  Open(TinyOptions(LsmParams{"del", true, 1, 5, 32 << 10, 64 << 10}));
  constexpr int kN = 3000;
  Model model;
  for (int i = 0; i < kN; i++) {
    ASSERT_OK(db_->Put(WriteOptions(), Key(i), Val(i, 0)));
    model[Key(i)] = Val(i, 0);
  }
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  EXPECT_GT(FilesAtLevel(db_.get(), 4), 0u);
  // Overwrite a third (these land above the old versions) and delete every
  // other key, in several rounds with compactions between them.
  std::mt19937_64 rng(test::RandomSeed());
  for (int round = 0; round < 4; round++) {
    for (int i = round; i < kN; i += 3) {
      ASSERT_OK(db_->Put(WriteOptions(), Key(i), Val(i, round + 1)));
      model[Key(i)] = Val(i, round + 1);
    }
    for (int i = round % 2; i < kN; i += 2 + round) {
      if (rng() % 2 == 0) {
        ASSERT_OK(db_->Delete(WriteOptions(), Key(i)));
      } else {
        WriteBatch b;
        ASSERT_OK(b.Delete(Key(i)));
        ASSERT_OK(db_->Write(WriteOptions(), &b));
      }
      model.erase(Key(i));
    }
    ASSERT_OK(WaitForCompact());
    CheckScan(db_.get(), model, nullptr, "round " + std::to_string(round));
    if (round % 2 == 1) {
      Reopen();
      CheckScan(db_.get(), model, nullptr, "round " + std::to_string(round) + " reopened");
    }
    ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
    CheckScan(db_.get(), model, nullptr, "round " + std::to_string(round) + " compacted");
    for (int i = 0; i < kN; i += 97) {
      std::string v;
      Status s = db_->Get(ReadOptions(), Key(i), &v);
      if (model.count(Key(i))) {
        ASSERT_OK(s);
        EXPECT_EQ(model[Key(i)], v);
      } else {
        EXPECT_TRUE(s.IsNotFound()) << Key(i) << " came back: " << v;
      }
    }
  }
  // Deleting everything and compacting to the bottom leaves no table: the
  // tombstones are dropped at the bottommost level.
  for (const auto& [k, v] : model) ASSERT_OK(db_->Delete(WriteOptions(), k));
  model.clear();
  CompactRangeOptions force;
  force.bottommost_level_compaction = BottommostLevelCompaction::kForce;
  ASSERT_OK(db_->CompactRange(force, nullptr, nullptr));
  ASSERT_OK(WaitForCompact());
  CheckScan(db_.get(), model, nullptr, "all deleted");
  std::string stats;
  ASSERT_TRUE(db_->GetProperty("strata.stats", &stats));
  EXPECT_EQ(0u, IntProperty("strata.total-sst-files-size")) << stats;
  EXPECT_EQ(0u, IntProperty("strata.estimate-num-keys"));
  Reopen();
  CheckScan(db_.get(), model, nullptr, "all deleted, reopened");
}

TEST_F(DBLsmTest, SnapshotsKeepOldVersionsThroughCompaction) {
  Open(TinyOptions(LsmParams{"snap", false, 3, 4, 16 << 10, 64 << 10}));
  constexpr int kN = 2000;
  Model m0;
  for (int i = 0; i < kN; i++) {
    ASSERT_OK(db_->Put(WriteOptions(), Key(i), Val(i, 0)));
    m0[Key(i)] = Val(i, 0);
  }
  ASSERT_OK(db_->Flush(FlushOptions()));
  const Snapshot* s0 = db_->GetSnapshot();
  Model m1 = m0;
  for (int i = 0; i < kN; i += 2) {
    ASSERT_OK(db_->Put(WriteOptions(), Key(i), Val(i, 1)));
    m1[Key(i)] = Val(i, 1);
  }
  for (int i = 1; i < kN; i += 4) {
    ASSERT_OK(db_->Delete(WriteOptions(), Key(i)));
    m1.erase(Key(i));
  }
  // A key put once and single-deleted after the snapshot.
  ASSERT_OK(db_->Put(WriteOptions(), "single", "once"));
  m1["single"] = "once";
  const Snapshot* s1 = db_->GetSnapshot();
  Model m2 = m1;
  ASSERT_OK(db_->SingleDelete(WriteOptions(), "single"));
  m2.erase("single");
  for (int i = 0; i < kN; i += 3) {
    ASSERT_OK(db_->Delete(WriteOptions(), Key(i)));
    m2.erase(Key(i));
  }
  CompactRangeOptions force;
  force.bottommost_level_compaction = BottommostLevelCompaction::kForce;
  ASSERT_OK(db_->CompactRange(force, nullptr, nullptr));
  ASSERT_OK(WaitForCompact());
  EXPECT_GT(FilesAtLevel(db_.get(), 3), 0u);
  CheckScan(db_.get(), m0, s0, "snapshot 0");
  CheckScan(db_.get(), m1, s1, "snapshot 1");
  CheckScan(db_.get(), m2, nullptr, "latest");
  const uint64_t size_with_snapshots = IntProperty("strata.total-sst-files-size");
  db_->ReleaseSnapshot(s0);
  ASSERT_OK(db_->CompactRange(force, nullptr, nullptr));
  CheckScan(db_.get(), m1, s1, "snapshot 1 after releasing 0");
  CheckScan(db_.get(), m2, nullptr, "latest after releasing 0");
  db_->ReleaseSnapshot(s1);
  ASSERT_OK(db_->CompactRange(force, nullptr, nullptr));
  CheckScan(db_.get(), m2, nullptr, "latest after releasing all");
  // The hidden versions and the tombstones are gone now.
  EXPECT_LT(IntProperty("strata.total-sst-files-size"), size_with_snapshots * 3 / 4);
  Reopen();
  CheckScan(db_.get(), m2, nullptr, "reopened");
}

// Regression test for an engine bug this file found (live tables deleted by
// the obsolete-file scan), as it was: DBImpl::DeleteObsoleteFiles
// (db/db_impl_compaction_flush.cc) snapshots the live set and
// min_pending = pending_outputs_.empty() ? ~0 : min(pending) under the
// mutex, then lists the directory without it; a table a flush or compaction
// creates after the snapshot is neither live nor >= min_pending (~0 when
// nothing was pending) and is unlinked. Also the flush (now FlushJob) erased its
// pending_outputs_ entry before BackgroundFlush's LogAndApply (which drops
// the mutex), leaving the new L0 table unprotected in that window. Symptom:
// "IO error: While open a file for random read: .../NNNNNN.sst: No such
// file or directory" from Get/iterators/compactions and a sticky background
// error. (RocksDB protects by min_pending = next file number at snapshot.)
TEST_F(DBLsmTest, NewTablesSurviveTheObsoleteFileScan) {
  Open(TinyOptions(LsmParams{"obsolete", true, 1, 5, 16 << 10, 64 << 10}));
  Model model;
  for (int i = 0; i < 4000; i++) {
    ASSERT_OK(db_->Put(WriteOptions(), Key(i * 13 % 4000), Val(i, 0)));
    model[Key(i * 13 % 4000)] = Val(i, 0);
  }
  ASSERT_OK(WaitForCompact());
  CheckScan(db_.get(), model, nullptr, "after concurrent flushes and compactions");
  EXPECT_EQ(0u, IntProperty("strata.background-errors"));
}

// ---------------------------------------------------------------------------
// (d) recovery

TEST_F(DBLsmTest, ReopenWithDataInTablesAndMemtables) {
  Options o = TinyOptions(LsmParams{"reopen", true, 1, 6, 64 << 10, 64 << 10});
  Open(o);
  Model model;
  std::mt19937_64 rng(test::RandomSeed());
  int gen = 0;
  for (int session = 0; session < 6; session++) {
    gen++;
    const int n = 300 + static_cast<int>(rng() % 700);
    for (int j = 0; j < n; j++) {
      const int i = static_cast<int>(rng() % 1500);
      if (rng() % 5 == 0) {
        ASSERT_OK(db_->Delete(WriteOptions(), Key(i)));
        model.erase(Key(i));
      } else {
        ASSERT_OK(db_->Put(WriteOptions(), Key(i), Val(i, gen)));
        model[Key(i)] = Val(i, gen);
      }
      if (j == n / 2 && session % 2 == 0) ASSERT_OK(db_->Flush(FlushOptions()));
    }
    // Whatever is still in the memtable (and its WAL) is replayed.
    EXPECT_GT(IntProperty("strata.cur-size-all-mem-tables"), 0u);
    Reopen();
    CheckScan(db_.get(), model, nullptr, "session " + std::to_string(session));
    // Reopening again without writing changes nothing.
    Reopen();
    CheckScan(db_.get(), model, nullptr, "session " + std::to_string(session) + " twice");
  }
}

// A forked child writes (synced) a deterministic sequence of puts and
// deletes with tiny buffers while another thread keeps compacting; the
// parent kills it at a random moment. Op i: if i % 5 == 4, delete the key of
// op i - 2; else put key i. After recovery the database must equal the
// model after n ops with n = acked or acked + 1 (the one in flight).
struct CrashShared {
  std::atomic<uint64_t> acked;
};

std::string CrashKey(uint64_t i) {
  char buf[32];
  snprintf(buf, sizeof(buf), "c%08" PRIu64, i * 2654435761u % 100000007u);
  return buf;
}
std::string CrashValue(uint64_t i) {
  std::string v = "val" + std::to_string(i) + ":";
  v.append(200 + i % 300, static_cast<char>('a' + i % 26));
  return v;
}
void ApplyCrashOp(uint64_t i, Model* m) {
  if (i % 5 == 4) {
    m->erase(CrashKey(i - 2));
  } else {
    (*m)[CrashKey(i)] = CrashValue(i);
  }
}

TEST_F(DBLsmTest, KillDuringFlushAndCompaction) {
  if (test::kThreadSanitizer)
    GTEST_SKIP() << "TSan forbids threads in a multi-threaded fork's child";
  Options o = TinyOptions(LsmParams{"crash", true, 2, 5, 16 << 10, 64 << 10});
  void* mem =
      mmap(nullptr, sizeof(CrashShared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mem, MAP_FAILED);
  CrashShared* shared = new (mem) CrashShared();
  const uint64_t seed = test::RandomSeed();
  printf("seed %" PRIu64 "\n", seed);
  std::mt19937_64 rng(seed);
  uint64_t next = 0;  // ops known applied
  Model model;
  const int rounds = 6 * Scale();
  for (int round = 0; round < rounds; round++) {
    SCOPED_TRACE("round " + std::to_string(round) + " seed " + std::to_string(seed));
    shared->acked.store(next);
    fflush(nullptr);
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      std::unique_ptr<DB> db;
      if (!DB::Open(o, dbname_, &db).ok()) _exit(2);
      std::atomic<bool> done{false};
      std::thread compactor([&]() {
        while (!done.load()) {
          if (!db->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok()) _exit(4);
          std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
      });
      WriteOptions wo;
      wo.sync = true;
      for (uint64_t i = next;; i++) {
        Status s =
            i % 5 == 4 ? db->Delete(wo, CrashKey(i - 2)) : db->Put(wo, CrashKey(i), CrashValue(i));
        if (!s.ok()) _exit(3);
        shared->acked.store(i + 1, std::memory_order_release);
      }
    }
    // Kill once the child has written something, after a random delay.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (shared->acked.load() == next && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::microseconds(300));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100 + rng() % 700));
    kill(pid, SIGKILL);
    int wstatus = 0;
    ASSERT_EQ(pid, waitpid(pid, &wstatus, 0));
    ASSERT_TRUE(WIFSIGNALED(wstatus) && WTERMSIG(wstatus) == SIGKILL)
        << "child exited by itself: " << (WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1);
    const uint64_t acked = shared->acked.load();
    ASSERT_GT(acked, next) << "the child wrote nothing";
    Model at_acked = model;
    for (uint64_t i = next; i < acked; i++) ApplyCrashOp(i, &at_acked);
    Model at_plus_one = at_acked;
    ApplyCrashOp(acked, &at_plus_one);
    // Which of the two states is there? Op `acked` decides.
    Open(o);
    std::string v;
    Status s = db_->Get(ReadOptions(), acked % 5 == 4 ? CrashKey(acked - 2) : CrashKey(acked), &v);
    const bool in_flight_applied = acked % 5 == 4 ? s.IsNotFound() : s.ok();
    model = in_flight_applied ? at_plus_one : at_acked;
    next = in_flight_applied ? acked + 1 : acked;
    CheckScan(db_.get(), model, nullptr, "after kill at op " + std::to_string(acked));
    if (HasFatalFailure()) break;
    uint64_t levels = 0;
    for (int l = 0; l < o.num_levels; l++) levels += FilesAtLevel(db_.get(), l) > 0 ? 1 : 0;
    printf("round %d: %" PRIu64 " ops acknowledged, %zu keys, %" PRIu64 " levels with files\n",
           round, acked, model.size(), levels);
    ASSERT_OK(db_->Close());
    db_.reset();
  }
  shared->~CrashShared();
  munmap(mem, sizeof(CrashShared));
}

}  // namespace
}  // namespace strata
