// Engine-level randomized test: the database and a std::map model are driven
// by the same random operations (Put, Delete, SingleDelete on keys written
// once, WriteBatches, Gets, MultiGets, iterator walks from random seeks with
// random bounds and direction changes, snapshots frozen with a copy of the
// model and checked later, close and reopen every few hundred operations).
// The seed is printed (test::RandomSeed()); STRATA_TEST_SEED=<seed> replays
// a run exactly. Only the public API is used.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "strata/comparator.h"
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

// Orders model keys the way the database's comparator does.
struct KeyOrder {
  bool reverse = false;
  bool operator()(const std::string& a, const std::string& b) const {
    return reverse ? b < a : a < b;
  }
};
using Model = std::map<std::string, std::string, KeyOrder>;

struct RandomizedParams {
  int key_space;  // distinct keys in the pool
  bool reverse;   // ReverseBytewiseComparator
  int ops;
};

// Default options, with the comparator the parameters name.
class DBRandomizedTest : public DBTestBase, public ::testing::WithParamInterface<RandomizedParams> {
 protected:
  DBRandomizedTest()
      : DBTestBase("db_randomized_test"), order_{GetParam().reverse}, model_(order_) {
    options_ = Options();
    options_.create_if_missing = true;
    if (GetParam().reverse) options_.comparator = ReverseBytewiseComparator();
  }
  ~DBRandomizedTest() override {
    if (db_ != nullptr) {
      for (auto& s : snapshots_) db_->ReleaseSnapshot(s.snap);
    }
  }

  struct FrozenSnapshot {
    const Snapshot* snap;
    Model state;
    uint64_t sequence;
    int taken_at_op;
  };

  std::string Where() const {
    return "seed " + std::to_string(seed_) + ", op " + std::to_string(op_);
  }

  // Keys: printable ones that sort in clusters, plus binary ones with zero
  // and 0xff bytes and the empty key.
  void MakeKeys() {
    const int n = GetParam().key_space;
    for (int i = 0; i < n; i++) {
      const int kind = static_cast<int>(rng_() % 10);
      std::string k;
      if (kind < 7) {
        char buf[32];
        snprintf(buf, sizeof(buf), "key%05d", static_cast<int>(rng_() % (n * 4)));
        k = buf;
      } else if (kind < 9) {
        k = test::RandomBytes(&rng_, 1 + rng_() % 6);
      } else {
        k = std::string(rng_() % 3, '\xff') + std::string(rng_() % 3, '\0');
      }
      keys_.push_back(k);
    }
    keys_.push_back("");
    std::sort(keys_.begin(), keys_.end());
    keys_.erase(std::unique(keys_.begin(), keys_.end()), keys_.end());
  }

  const std::string& RandomKey() { return keys_[rng_() % keys_.size()]; }
  // A key from the pool, or a nearby string that is not in it.
  std::string RandomTarget() {
    switch (rng_() % 4) {
      case 0:
        return RandomKey() + std::string(1, static_cast<char>(rng_() % 256));
      case 1: {
        std::string k = RandomKey();
        if (!k.empty()) k.pop_back();
        return k;
      }
      default:
        return RandomKey();
    }
  }
  std::string RandomValue() {
    const int r = static_cast<int>(rng_() % 100);
    size_t len = r < 5 ? 0 : (r < 97 ? rng_() % 60 : 1000 + rng_() % 20000);
    std::string v = test::RandomPrintable(&rng_, len);
    if (r % 7 == 0 && !v.empty()) v[0] = '\0';
    return v;
  }

  // ---- writes: applied to the database and the model together ----

  bool MaySingleDelete(const std::string& k) const {
    auto it = puts_since_delete_.find(k);
    return it == puts_since_delete_.end() || it->second <= 1;
  }
  void ModelPut(const std::string& k, const std::string& v) {
    model_[k] = v;
    puts_since_delete_[k]++;
  }
  void ModelDelete(const std::string& k) {
    model_.erase(k);
    puts_since_delete_[k] = 0;
  }

  WriteOptions RandomWriteOptions() {
    WriteOptions wo;
    wo.sync = rng_() % 200 == 0;
    return wo;
  }

  void DoPut() {
    const std::string k = RandomKey();
    const std::string v = RandomValue();
    ASSERT_OK_AT(db_->Put(RandomWriteOptions(), k, v));
    ModelPut(k, v);
    sequence_++;
  }
  void DoDelete() {
    // Mostly keys that exist.
    std::string k = RandomKey();
    if (!model_.empty() && rng_() % 3 != 0) {
      auto it = model_.lower_bound(k);
      if (it == model_.end()) it = model_.begin();
      k = it->first;
    }
    ASSERT_OK_AT(db_->Delete(RandomWriteOptions(), k));
    ModelDelete(k);
    sequence_++;
  }
  void DoSingleDelete() {
    for (int attempt = 0; attempt < 10; attempt++) {
      std::string k = RandomKey();
      if (!model_.empty() && rng_() % 4 != 0) {
        auto it = model_.lower_bound(k);
        if (it == model_.end()) it = model_.begin();
        k = it->first;
      }
      if (!MaySingleDelete(k)) continue;
      ASSERT_OK_AT(db_->SingleDelete(RandomWriteOptions(), k));
      ModelDelete(k);
      sequence_++;
      return;
    }
  }
  void DoBatch() {
    WriteBatch batch;
    Model after = model_;
    auto counts = puts_since_delete_;
    const int n = 1 + static_cast<int>(rng_() % 8);
    for (int i = 0; i < n; i++) {
      const std::string k = RandomKey();
      const int r = static_cast<int>(rng_() % 10);
      if (r < 6) {
        const std::string v = RandomValue();
        ASSERT_OK(batch.Put(k, v));
        after[k] = v;
        counts[k]++;
      } else if (r < 9 || counts[k] > 1) {
        ASSERT_OK(batch.Delete(k));
        after.erase(k);
        counts[k] = 0;
      } else {
        ASSERT_OK(batch.SingleDelete(k));
        after.erase(k);
        counts[k] = 0;
      }
    }
    ASSERT_EQ(batch.Count(), static_cast<uint32_t>(n));
    ASSERT_OK_AT(db_->Write(RandomWriteOptions(), &batch));
    model_ = std::move(after);
    puts_since_delete_ = std::move(counts);
    sequence_ += n;
  }

  // ---- reads ----

  void CheckGet(const Snapshot* snap, const Model& model, const std::string& k) {
    ReadOptions ro;
    ro.snapshot = snap;
    std::string got;
    Status s = db_->Get(ro, k, &got);
    auto it = model.find(k);
    if (it == model.end()) {
      ASSERT_TRUE(s.IsNotFound()) << Where() << ": Get('" << Slice(k).ToString(true) << "') "
                                  << s.ToString() << " '" << Slice(got).ToString(true) << "'";
    } else {
      ASSERT_TRUE(s.ok()) << Where() << ": Get('" << Slice(k).ToString(true) << "') "
                          << s.ToString();
      ASSERT_TRUE(got == it->second) << Where() << ": Get('" << Slice(k).ToString(true) << "') = '"
                                     << Slice(got).ToString(true) << "', expected '"
                                     << Slice(it->second).ToString(true) << "'";
    }
  }

  void CheckMultiGet(const Snapshot* snap, const Model& model) {
    std::vector<std::string> key_strings;
    const int n = 1 + static_cast<int>(rng_() % 10);
    for (int i = 0; i < n; i++) key_strings.push_back(RandomKey());
    std::vector<Slice> keys(key_strings.begin(), key_strings.end());
    std::vector<std::string> values;
    ReadOptions ro;
    ro.snapshot = snap;
    std::vector<Status> st = db_->MultiGet(ro, keys, &values);
    ASSERT_EQ(st.size(), keys.size()) << Where();
    ASSERT_EQ(values.size(), keys.size()) << Where();
    for (int i = 0; i < n; i++) {
      auto it = model.find(key_strings[i]);
      if (it == model.end()) {
        ASSERT_TRUE(st[i].IsNotFound()) << Where() << ": MultiGet " << st[i].ToString();
      } else {
        ASSERT_TRUE(st[i].ok()) << Where() << ": MultiGet " << st[i].ToString();
        ASSERT_TRUE(values[i] == it->second)
            << Where() << ": MultiGet value of '" << Slice(key_strings[i]).ToString(true) << "'";
      }
    }
  }

  // Compares a whole scan in both directions with model.
  void CheckScan(const Snapshot* snap, const Model& model) {
    ReadOptions ro;
    ro.snapshot = snap;
    std::unique_ptr<Iterator> it = db_->NewIterator(ro);
    auto m = model.begin();
    for (it->SeekToFirst(); it->Valid(); it->Next(), ++m) {
      ASSERT_NE(m, model.end()) << Where() << ": extra key '" << it->key().ToString(true) << "'";
      ASSERT_EQ(it->key().ToString(true), Slice(m->first).ToString(true)) << Where();
      ASSERT_TRUE(it->value() == Slice(m->second))
          << Where() << ": value of '" << Slice(m->first).ToString(true) << "'";
    }
    ASSERT_OK(it->status());
    ASSERT_EQ(m, model.end()) << Where() << ": missing key '" << Slice(m->first).ToString(true)
                              << "'";
    auto r = model.rbegin();
    for (it->SeekToLast(); it->Valid(); it->Prev(), ++r) {
      ASSERT_NE(r, model.rend()) << Where() << ": extra key (backward)";
      ASSERT_EQ(it->key().ToString(true), Slice(r->first).ToString(true)) << Where();
      ASSERT_TRUE(it->value() == Slice(r->second)) << Where();
    }
    ASSERT_OK(it->status());
    ASSERT_EQ(r, model.rend()) << Where() << ": missing key (backward)";
  }

  // A random walk: random seek, random bounds, random steps and direction
  // changes; sometimes with writes in the middle that it must not see.
  void CheckIteratorWalk() {
    const Snapshot* snap = nullptr;
    const Model* base = &model_;
    if (!snapshots_.empty() && rng_() % 3 == 0) {
      const auto& s = snapshots_[rng_() % snapshots_.size()];
      snap = s.snap;
      base = &s.state;
    }
    std::optional<std::string> lower, upper;
    if (rng_() % 3 == 0) lower = RandomTarget();
    if (rng_() % 3 == 0) upper = RandomTarget();
    Slice lower_slice, upper_slice;
    ReadOptions ro;
    ro.snapshot = snap;
    if (lower) {
      lower_slice = Slice(*lower);
      ro.iterate_lower_bound = &lower_slice;
    }
    if (upper) {
      upper_slice = Slice(*upper);
      ro.iterate_upper_bound = &upper_slice;
    }
    // The keys the iterator may show, in order.
    std::vector<std::pair<std::string, std::string>> visible;
    for (const auto& kv : *base) {
      if (lower && order_(kv.first, *lower)) continue;
      if (upper && !order_(kv.first, *upper)) continue;
      visible.push_back(kv);
    }
    std::unique_ptr<Iterator> it = db_->NewIterator(ro);
    // Writes after creation must stay invisible.
    if (rng_() % 4 == 0) {
      const int writes = 1 + static_cast<int>(rng_() % 4);
      for (int w = 0; w < writes; w++) {
        if (rng_() % 2 == 0) {
          DoPut();
        } else {
          DoDelete();
        }
        if (HasFatalFailure()) return;
      }
    }
    std::string trace;
    auto describe = [&](long pos) {
      return pos < 0 || pos >= static_cast<long>(visible.size())
                 ? std::string("INVALID")
                 : "'" + Slice(visible[pos].first).ToString(true) + "'";
    };
    auto check = [&](long pos) {
      const bool want_valid = pos >= 0 && pos < static_cast<long>(visible.size());
      ASSERT_EQ(it->Valid(), want_valid)
          << Where() << ": after " << trace << " expected " << describe(pos) << ", got "
          << (it->Valid() ? "'" + it->key().ToString(true) + "'" : "INVALID ")
          << it->status().ToString();
      if (want_valid) {
        ASSERT_EQ(it->key().ToString(true), Slice(visible[pos].first).ToString(true))
            << Where() << ": after " << trace;
        ASSERT_TRUE(it->value() == Slice(visible[pos].second)) << Where() << ": after " << trace;
      } else {
        ASSERT_OK(it->status());
      }
    };
    auto lower_pos = [&](const std::string& t) {  // first visible >= t
      return static_cast<long>(std::lower_bound(visible.begin(), visible.end(), t,
                                                [&](const auto& kv, const std::string& x) {
                                                  return order_(kv.first, x);
                                                }) -
                               visible.begin());
    };
    long pos = -1;
    auto seek = [&]() {
      switch (rng_() % 4) {
        case 0:
          it->SeekToFirst();
          trace += " SeekToFirst";
          pos = visible.empty() ? -1 : 0;
          break;
        case 1:
          it->SeekToLast();
          trace += " SeekToLast";
          pos = static_cast<long>(visible.size()) - 1;
          break;
        case 2: {
          const std::string t = RandomTarget();
          it->Seek(t);
          trace += " Seek('" + Slice(t).ToString(true) + "')";
          pos = lower_pos(t);
          break;
        }
        default: {
          const std::string t = RandomTarget();
          it->SeekForPrev(t);
          trace += " SeekForPrev('" + Slice(t).ToString(true) + "')";
          // last visible <= t
          pos = static_cast<long>(std::upper_bound(visible.begin(), visible.end(), t,
                                                   [&](const std::string& x, const auto& kv) {
                                                     return order_(x, kv.first);
                                                   }) -
                                  visible.begin()) -
                1;
          break;
        }
      }
    };
    seek();
    check(pos);
    if (HasFatalFailure()) return;
    bool forward = rng_() % 2 == 0;
    const int steps = static_cast<int>(rng_() % 25);
    for (int s = 0; s < steps; s++) {
      if (!it->Valid()) {
        seek();
      } else {
        if (rng_() % 4 == 0) forward = !forward;
        if (forward) {
          it->Next();
          trace += " Next";
          pos++;
        } else {
          it->Prev();
          trace += " Prev";
          pos--;
        }
        if (pos >= static_cast<long>(visible.size())) pos = static_cast<long>(visible.size());
        if (pos < -1) pos = -1;
      }
      check(pos);
      if (HasFatalFailure()) return;
    }
  }

  // ---- snapshots ----

  void TakeSnapshot() {
    const Snapshot* s = db_->GetSnapshot();
    ASSERT_NE(s, nullptr);
    ASSERT_EQ(s->GetSequenceNumber(), sequence_) << Where();
    snapshots_.push_back(FrozenSnapshot{s, model_, sequence_, op_});
  }

  void CheckSnapshot(size_t i, bool full) {
    const FrozenSnapshot& s = snapshots_[i];
    SCOPED_TRACE("snapshot taken at op " + std::to_string(s.taken_at_op));
    ASSERT_EQ(s.snap->GetSequenceNumber(), s.sequence);
    for (int n = 0; n < 5; n++) {
      CheckGet(s.snap, s.state, RandomKey());
      if (HasFatalFailure()) return;
    }
    if (full) CheckScan(s.snap, s.state);
  }

  void ReleaseSnapshot(size_t i) {
    db_->ReleaseSnapshot(snapshots_[i].snap);
    snapshots_.erase(snapshots_.begin() + static_cast<long>(i));
  }

  void CheckAndReopen() {
    for (size_t i = 0; i < snapshots_.size(); i++) {
      CheckSnapshot(i, true);
      if (HasFatalFailure()) return;
    }
    while (!snapshots_.empty()) ReleaseSnapshot(snapshots_.size() - 1);
    ASSERT_EQ(db_->GetLatestSequenceNumber(), sequence_) << Where();
    Reopen();
    if (HasFatalFailure()) return;
    ASSERT_EQ(db_->GetLatestSequenceNumber(), sequence_) << Where() << " after reopen";
    CheckScan(nullptr, model_);
  }

  KeyOrder order_;
  uint64_t seed_ = 0;
  int op_ = 0;
  std::mt19937_64 rng_;
  std::vector<std::string> keys_;
  Model model_;
  std::map<std::string, int> puts_since_delete_;
  uint64_t sequence_ = 0;
  std::vector<FrozenSnapshot> snapshots_;
};

TEST_P(DBRandomizedTest, MatchesModel) {
  seed_ = test::RandomSeed();
  rng_.seed(seed_);
  MakeKeys();
  Open();
  sequence_ = db_->GetLatestSequenceNumber();
  int next_reopen = 200 + static_cast<int>(rng_() % 300);
  int reopens = 0;
  const int ops = GetParam().ops;
  for (op_ = 0; op_ < ops && !HasFailure(); op_++) {
    const int r = static_cast<int>(rng_() % 100);
    if (r < 25) {
      DoPut();
    } else if (r < 35) {
      DoDelete();
    } else if (r < 40) {
      DoSingleDelete();
    } else if (r < 55) {
      DoBatch();
    } else if (r < 68) {
      for (int n = 0; n < 4 && !HasFailure(); n++) CheckGet(nullptr, model_, RandomKey());
    } else if (r < 82) {
      CheckIteratorWalk();
    } else if (r < 85) {
      CheckMultiGet(nullptr, model_);
    } else if (r < 89) {
      if (snapshots_.size() < 6) TakeSnapshot();
    } else if (r < 94) {
      if (!snapshots_.empty()) {
        const size_t i = rng_() % snapshots_.size();
        CheckSnapshot(i, rng_() % 4 == 0);
        if (!HasFailure() && rng_() % 2 == 0) ReleaseSnapshot(i);
      }
    } else if (r < 95) {
      if (!snapshots_.empty()) {
        const auto& s = snapshots_[rng_() % snapshots_.size()];
        CheckMultiGet(s.snap, s.state);
      }
    } else if (r < 96) {
      CheckScan(nullptr, model_);
    } else {
      ASSERT_EQ(db_->GetLatestSequenceNumber(), sequence_) << Where();
    }
    if (op_ == next_reopen) {
      CheckAndReopen();
      reopens++;
      next_reopen = op_ + 200 + static_cast<int>(rng_() % 300);
    }
  }
  if (!HasFailure()) CheckAndReopen();
  printf("%d ops, %d reopens, %zu keys at the end, sequence %llu\n", op_, reopens, model_.size(),
         static_cast<unsigned long long>(sequence_));
}

INSTANTIATE_TEST_SUITE_P(Variants, DBRandomizedTest,
                         ::testing::Values(RandomizedParams{300, false, 10000},
                                           RandomizedParams{20, false, 5000},
                                           RandomizedParams{300, true, 6000},
                                           RandomizedParams{20, true, 4000}),
                         [](const ::testing::TestParamInfo<RandomizedParams>& info) {
                           return std::string(info.param.reverse ? "Reverse" : "Bytewise") +
                                  std::to_string(info.param.key_space) + "Keys";
                         });

}  // namespace
}  // namespace strata
