// Engine-level tests of DeleteRange through the public API (plus
// DBImpl::WaitForCompact): range tombstones in the memtable, in level-0
// files, and compacted into lower levels with small files so a tombstone
// spans several output files; covered keys hidden from Get, MultiGet and
// iterators in both directions (seeks into and out of deleted ranges,
// bounds); keys written after the deletion visible; snapshots taken before
// it still seeing the keys through flushes and compactions; argument
// checks; recovery from the WAL and from tables; compaction to the bottom
// dropping covered keys and the tombstone; overlapping and nested
// tombstones; tombstones covering nothing; merges after a range deletion.
// Tests named Repro_* are minimal reproductions of engine bugs found here.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "db/db_impl.h"
#include "strata/db.h"
#include "strata/iterator.h"
#include "strata/merge_operator.h"
#include "strata/options.h"
#include "strata/snapshot.h"
#include "strata/sst_file_writer.h"
#include "strata/status.h"
#include "strata/table.h"
#include "strata/table_properties.h"
#include "strata/write_batch.h"
#include "test_util/db_test_base.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

using Model = std::map<std::string, std::string>;

std::string Key(int i) {
  char buf[16];
  snprintf(buf, sizeof(buf), "key%05d", i);
  return buf;
}

// Options start as defaults (with create_if_missing); SmallOptions() has
// smaller files and levels than DBTestBase's, so a few thousand keys make
// several files per level.
class DBRangeDelTest : public DBTestBase {
 protected:
  DBRangeDelTest() : DBTestBase("db_range_del_test") {
    options_ = Options();
    options_.create_if_missing = true;
  }

  static Options SmallOptions() {
    Options o = DBTestBase::SmallOptions();
    o.target_file_size_base = 16 << 10;
    o.max_bytes_for_level_base = 64 << 10;
    return o;
  }

  Status CompactAll() {
    CompactRangeOptions cro;
    cro.bottommost_level_compaction = BottommostLevelCompaction::kForce;
    return db_->CompactRange(cro, nullptr, nullptr);
  }
  Status Compact(const std::string& b, const std::string& e) {
    Slice bs(b), es(e);
    CompactRangeOptions cro;
    return db_->CompactRange(cro, &bs, &es);
  }
  uint64_t FilesAtLevel(int level) { return static_cast<uint64_t>(NumTableFilesAtLevel(level)); }
  uint64_t TotalFiles() {
    uint64_t n = 0;
    for (int l = 0; l < options_.num_levels; l++) n += FilesAtLevel(l);
    return n;
  }

  // Sum of a table property over every table file in the directory.
  uint64_t SumTableProperty(uint64_t TableProperties::*field) {
    uint64_t sum = 0;
    for (const auto& e : std::filesystem::directory_iterator(dbname_)) {
      if (e.path().extension() != ".sst") continue;
      SstFileReader r(options_);
      Status s = r.Open(e.path().string());
      EXPECT_TRUE(s.ok()) << e.path() << ": " << s.ToString();
      if (s.ok()) sum += (*r.GetTableProperties()).*field;
    }
    return sum;
  }

  // Every read path agrees with the model: Get and MultiGet of each key in
  // probe, full scans both ways, and Seek/SeekForPrev at each probe key
  // with a short Next/Prev walk.
  void Check(const Model& model, const std::vector<std::string>& probe,
             const Snapshot* snap = nullptr, const std::string& where = "") {
    ReadOptions ro;
    ro.snapshot = snap;
    for (const std::string& k : probe) {
      auto m = model.find(k);
      EXPECT_EQ(m == model.end() ? "NOT_FOUND" : m->second, Get(k, snap)) << where << " key " << k;
    }
    std::vector<Slice> ks(probe.begin(), probe.end());
    std::vector<std::string> vals;
    std::vector<Status> st = db_->MultiGet(ro, ks, &vals);
    EXPECT_EQ(probe.size(), st.size());
    for (size_t i = 0; i < st.size() && i < probe.size(); i++) {
      auto m = model.find(probe[i]);
      if (m == model.end()) {
        EXPECT_TRUE(st[i].IsNotFound())
            << where << " MultiGet " << probe[i] << ": " << st[i].ToString();
      } else {
        EXPECT_TRUE(st[i].ok()) << where << " MultiGet " << probe[i] << ": " << st[i].ToString();
        if (st[i].ok()) {
          EXPECT_EQ(m->second, vals[i]) << where << " MultiGet " << probe[i];
        }
      }
    }
    std::unique_ptr<Iterator> it = db_->NewIterator(ro);
    auto f = model.begin();
    for (it->SeekToFirst(); it->Valid(); it->Next(), ++f) {
      ASSERT_TRUE(f != model.end()) << where << ": extra key " << it->key().ToString();
      ASSERT_EQ(f->first, it->key().ToString()) << where;
      ASSERT_EQ(f->second, it->value().ToString()) << where;
    }
    ASSERT_OK(it->status());
    ASSERT_TRUE(f == model.end()) << where << ": missing " << f->first;
    auto r = model.rbegin();
    for (it->SeekToLast(); it->Valid(); it->Prev(), ++r) {
      ASSERT_TRUE(r != model.rend()) << where << ": extra key (backward) " << it->key().ToString();
      ASSERT_EQ(r->first, it->key().ToString()) << where << " (backward)";
      ASSERT_EQ(r->second, it->value().ToString()) << where << " (backward)";
    }
    ASSERT_OK(it->status());
    ASSERT_TRUE(r == model.rend()) << where << ": missing (backward) " << r->first;
    for (const std::string& k : probe) {
      it->Seek(k);
      auto m = model.lower_bound(k);
      for (int step = 0; step < 3; step++) {
        ASSERT_EQ(m != model.end(), it->Valid()) << where << " Seek(" << k << ") step " << step;
        if (m == model.end()) break;
        ASSERT_EQ(m->first, it->key().ToString()) << where << " Seek(" << k << ") step " << step;
        it->Next();
        ++m;
      }
      it->SeekForPrev(k);
      auto p = model.upper_bound(k);
      for (int step = 0; step < 3; step++) {
        const bool valid = p != model.begin();
        ASSERT_EQ(valid, it->Valid()) << where << " SeekForPrev(" << k << ") step " << step;
        if (!valid) break;
        --p;
        ASSERT_EQ(p->first, it->key().ToString())
            << where << " SeekForPrev(" << k << ") step " << step;
        it->Prev();
      }
      ASSERT_OK(it->status());
    }
  }
};

std::vector<std::string> Probe(int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; i++) out.push_back(Key(i));
  out.push_back("a");
  out.push_back("zzz");
  return out;
}

void ModelDeleteRange(Model* m, const std::string& b, const std::string& e) {
  m->erase(m->lower_bound(b), m->lower_bound(e));
}

// ---------------------------------------------------------------------------

TEST_F(DBRangeDelTest, InMemtable) {
  Open();
  Model m;
  for (int i = 0; i < 20; i++) {
    ASSERT_OK(Put(Key(i), "v" + std::to_string(i)));
    m[Key(i)] = "v" + std::to_string(i);
  }
  ASSERT_OK(DeleteRange(Key(5), Key(10)));
  ModelDeleteRange(&m, Key(5), Key(10));
  Check(m, Probe(20), nullptr, "memtable");
  EXPECT_EQ("v4", Get(Key(4)));
  EXPECT_EQ("NOT_FOUND", Get(Key(5)));
  EXPECT_EQ("NOT_FOUND", Get(Key(9)));
  EXPECT_EQ("v10", Get(Key(10)));
}

TEST_F(DBRangeDelTest, AfterFlushTombstoneInL0) {
  Open();
  Model m;
  for (int i = 0; i < 20; i++) {
    ASSERT_OK(Put(Key(i), "v" + std::to_string(i)));
    m[Key(i)] = "v" + std::to_string(i);
  }
  ASSERT_OK(DeleteRange(Key(5), Key(10)));
  ModelDeleteRange(&m, Key(5), Key(10));
  ASSERT_OK(Flush());
  Check(m, Probe(20), nullptr, "one L0 file");
  EXPECT_EQ(1u, SumTableProperty(&TableProperties::num_range_deletions));
  // Keys in an older file, the tombstone in a newer one.
  ASSERT_OK(DeleteRange(Key(12), Key(15)));
  ModelDeleteRange(&m, Key(12), Key(15));
  ASSERT_OK(Flush());
  Check(m, Probe(20), nullptr, "two L0 files");
  // The tombstone in the memtable over keys in files.
  ASSERT_OK(DeleteRange(Key(0), Key(2)));
  ModelDeleteRange(&m, Key(0), Key(2));
  Check(m, Probe(20), nullptr, "memtable over L0");
}

TEST_F(DBRangeDelTest, KeysWrittenAfterDeleteRangeVisible) {
  Open();
  Model m;
  for (int i = 0; i < 20; i++) {
    ASSERT_OK(Put(Key(i), "old"));
    m[Key(i)] = "old";
  }
  ASSERT_OK(DeleteRange(Key(0), Key(20)));
  m.clear();
  ASSERT_OK(Put(Key(3), "new3"));
  m[Key(3)] = "new3";
  Check(m, Probe(20), nullptr, "memtable");
  ASSERT_OK(Flush());
  ASSERT_OK(Put(Key(7), "new7"));
  m[Key(7)] = "new7";
  Check(m, Probe(20), nullptr, "L0 + memtable");
  ASSERT_OK(Flush());
  ASSERT_OK(CompactAll());
  Check(m, Probe(20), nullptr, "after compaction");
  // The same key written in the same batch after the range deletion.
  WriteBatch b;
  ASSERT_OK(b.DeleteRange(Key(0), Key(20)));
  ASSERT_OK(b.Put(Key(10), "batch"));
  ASSERT_OK(db_->Write(WriteOptions(), &b));
  m.clear();
  m[Key(10)] = "batch";
  Check(m, Probe(20), nullptr, "batch");
  ASSERT_OK(Flush());
  Check(m, Probe(20), nullptr, "batch flushed");
}

TEST_F(DBRangeDelTest, SnapshotBeforeDeleteRangeSeesKeys) {
  Open();
  Model before;
  for (int i = 0; i < 20; i++) {
    ASSERT_OK(Put(Key(i), "v" + std::to_string(i)));
    before[Key(i)] = "v" + std::to_string(i);
  }
  ASSERT_OK(Flush());
  const Snapshot* snap = db_->GetSnapshot();
  ASSERT_OK(DeleteRange(Key(2), Key(18)));
  Model after = before;
  ModelDeleteRange(&after, Key(2), Key(18));
  Check(before, Probe(20), snap, "snapshot, memtable tombstone");
  Check(after, Probe(20), nullptr, "latest, memtable tombstone");
  ASSERT_OK(Flush());
  Check(before, Probe(20), snap, "snapshot, L0 tombstone");
  Check(after, Probe(20), nullptr, "latest, L0 tombstone");
  ASSERT_OK(CompactAll());
  Check(before, Probe(20), snap, "snapshot, compacted");
  Check(after, Probe(20), nullptr, "latest, compacted");
  db_->ReleaseSnapshot(snap);
  Reopen();
  Check(after, Probe(20), nullptr, "latest, reopened");
}

TEST_F(DBRangeDelTest, ArgumentChecks) {
  Open();
  ASSERT_OK(Put("b", "1"));
  Status s = DeleteRange("c", "a");
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  const uint64_t seq = db_->GetLatestSequenceNumber();
  ASSERT_OK(DeleteRange("b", "b"));  // empty range: a no-op
  EXPECT_EQ("1", Get("b"));
  EXPECT_EQ(seq, db_->GetLatestSequenceNumber());
  ASSERT_OK(Flush());
  EXPECT_EQ("1", Get("b"));
  EXPECT_EQ(0u, SumTableProperty(&TableProperties::num_range_deletions));
}

TEST_F(DBRangeDelTest, ReopenFromWALAndFromTables) {
  Open();
  Model m;
  for (int i = 0; i < 30; i++) {
    ASSERT_OK(Put(Key(i), "v"));
    m[Key(i)] = "v";
  }
  ASSERT_OK(Flush());
  ASSERT_OK(DeleteRange(Key(3), Key(8)));
  ModelDeleteRange(&m, Key(3), Key(8));
  ASSERT_OK(Put(Key(5), "after"));
  m[Key(5)] = "after";
  Reopen();  // from the WAL
  Check(m, Probe(30), nullptr, "after WAL replay");
  ASSERT_OK(DeleteRange(Key(20), Key(25)));
  ModelDeleteRange(&m, Key(20), Key(25));
  ASSERT_OK(Flush());
  Reopen();  // from tables
  Check(m, Probe(30), nullptr, "after reopen from tables");
  ASSERT_OK(CompactAll());
  Reopen();
  Check(m, Probe(30), nullptr, "after compaction and reopen");
}

TEST_F(DBRangeDelTest, OverlappingNestedAndEmptyTombstones) {
  Open();
  Model m;
  for (int i = 0; i < 60; i++) {
    ASSERT_OK(Put(Key(i), "v" + std::to_string(i)));
    m[Key(i)] = "v" + std::to_string(i);
  }
  ASSERT_OK(Flush());
  // Overlapping.
  ASSERT_OK(DeleteRange(Key(10), Key(20)));
  ASSERT_OK(DeleteRange(Key(15), Key(25)));
  // Nested (one inside another, in both orders of writing).
  ASSERT_OK(DeleteRange(Key(30), Key(45)));
  ASSERT_OK(DeleteRange(Key(33), Key(36)));
  ASSERT_OK(Flush());
  ASSERT_OK(DeleteRange(Key(51), Key(52)));
  ASSERT_OK(DeleteRange(Key(48), Key(56)));
  // Covering nothing.
  ASSERT_OK(DeleteRange("zz0", "zz9"));
  ASSERT_OK(DeleteRange("0", "1"));
  ModelDeleteRange(&m, Key(10), Key(25));
  ModelDeleteRange(&m, Key(30), Key(45));
  ModelDeleteRange(&m, Key(48), Key(56));
  ASSERT_OK(Put(Key(33), "re"));  // rewritten under two tombstones
  m[Key(33)] = "re";
  Check(m, Probe(60), nullptr, "memtable + L0");
  ASSERT_OK(Flush());
  Check(m, Probe(60), nullptr, "L0");
  ASSERT_OK(CompactAll());
  Check(m, Probe(60), nullptr, "compacted");
  Reopen();
  Check(m, Probe(60), nullptr, "reopened");
}

TEST_F(DBRangeDelTest, TombstoneCoveringNothingOnly) {
  Open();
  ASSERT_OK(DeleteRange("a", "z"));
  ASSERT_OK(Flush());
  Check({}, {"a", "m", "z"}, nullptr, "only a tombstone");
  ASSERT_OK(Put("m", "1"));
  Check({{"m", "1"}}, {"a", "m", "z"}, nullptr, "key over tombstone");
  ASSERT_OK(CompactAll());
  Check({{"m", "1"}}, {"a", "m", "z"}, nullptr, "compacted");
  EXPECT_EQ(0u, SumTableProperty(&TableProperties::num_range_deletions));
}

// Several files per level: the tombstone spans files, at L0 and (kept by a
// snapshot) at the bottom level.
TEST_F(DBRangeDelTest, TombstonesAcrossFileBoundaries) {
  Open(SmallOptions());
  Model m;
  const int n = 3000;
  const std::string pad(60, 'p');
  for (int i = 0; i < n; i++) {
    ASSERT_OK(Put(Key(i), pad + std::to_string(i)));
    m[Key(i)] = pad + std::to_string(i);
  }
  ASSERT_OK(Flush());
  ASSERT_OK(CompactAll());
  ASSERT_OK(WaitForCompact());
  ASSERT_GT(TotalFiles(), 5u) << "expected several bottom-level files";
  std::vector<std::string> probe;
  for (int i = 0; i < n; i += 37) probe.push_back(Key(i));
  for (int i : {499, 500, 501, 1999, 2000, 2001}) probe.push_back(Key(i));
  const uint64_t size_before = IntProperty("strata.total-sst-files-size");

  const Snapshot* snap = db_->GetSnapshot();
  const Model before = m;
  ASSERT_OK(DeleteRange(Key(500), Key(2000)));
  ModelDeleteRange(&m, Key(500), Key(2000));
  Check(m, probe, nullptr, "memtable tombstone over bottom files");
  ASSERT_OK(Flush());
  Check(m, probe, nullptr, "L0 tombstone over bottom files");
  Check(before, probe, snap, "snapshot, L0 tombstone");
  // Partial compaction of the middle: the tombstone and the keys it covers
  // go down together; the snapshot keeps them.
  ASSERT_OK(Compact(Key(900), Key(1200)));
  ASSERT_OK(WaitForCompact());
  Check(m, probe, nullptr, "after partial compaction");
  Check(before, probe, snap, "snapshot, after partial compaction");
  ASSERT_OK(CompactAll());
  Check(m, probe, nullptr, "compacted with snapshot");
  Check(before, probe, snap, "snapshot, compacted");
  EXPECT_GE(SumTableProperty(&TableProperties::num_range_deletions), 1u);
  db_->ReleaseSnapshot(snap);
  Reopen();
  Check(m, probe, nullptr, "reopened");
  // Without the snapshot a compaction to the bottom drops both.
  ASSERT_OK(CompactAll());
  Check(m, probe, nullptr, "compacted, no snapshot");
  EXPECT_EQ(0u, SumTableProperty(&TableProperties::num_range_deletions));
  const uint64_t size_after = IntProperty("strata.total-sst-files-size");
  EXPECT_LT(size_after, size_before * 3 / 5) << size_before << " -> " << size_after;
  EXPECT_EQ(m.size(), SumTableProperty(&TableProperties::num_entries));
}

// The tombstone travels down by automatic compactions while other keys are
// written; nothing it covers ever reappears.
TEST_F(DBRangeDelTest, AutomaticCompactionsCarryTombstones) {
  Open(SmallOptions());
  Model m;
  const std::string pad(60, 'p');
  for (int i = 0; i < 2000; i++) {
    ASSERT_OK(Put(Key(i), pad + std::to_string(i)));
    m[Key(i)] = pad + std::to_string(i);
  }
  ASSERT_OK(WaitForCompact());
  ASSERT_OK(DeleteRange(Key(100), Key(1700)));
  ModelDeleteRange(&m, Key(100), Key(1700));
  for (int round = 0; round < 4; round++) {
    for (int i = 0; i < 2000; i += 4) {
      const int k = (i + round) % 2000;
      if (k >= 100 && k < 1700) continue;
      ASSERT_OK(Put(Key(k), pad + "r" + std::to_string(round)));
      m[Key(k)] = pad + "r" + std::to_string(round);
    }
    ASSERT_OK(WaitForCompact());
  }
  std::vector<std::string> probe;
  for (int i = 0; i < 2000; i += 13) probe.push_back(Key(i));
  Check(m, probe, nullptr, "after automatic compactions");
  Reopen();
  Check(m, probe, nullptr, "reopened");
}

TEST_F(DBRangeDelTest, IteratorBoundsAndSeeksIntoDeletedRange) {
  Open();
  Model m;
  for (int i = 0; i < 40; i++) {
    ASSERT_OK(Put(Key(i), "v"));
    m[Key(i)] = "v";
  }
  ASSERT_OK(Flush());
  ASSERT_OK(DeleteRange(Key(10), Key(30)));
  ModelDeleteRange(&m, Key(10), Key(30));
  for (int stage = 0; stage < 3; stage++) {
    SCOPED_TRACE("stage " + std::to_string(stage));
    if (stage == 1) ASSERT_OK(Flush());
    if (stage == 2) ASSERT_OK(CompactAll());
    std::string lo = Key(5), hi = Key(35);
    Slice los(lo), his(hi);
    ReadOptions ro;
    ro.iterate_lower_bound = &los;
    ro.iterate_upper_bound = &his;
    std::unique_ptr<Iterator> it = db_->NewIterator(ro);
    it->Seek(Key(15));
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ(Key(30), it->key().ToString());
    it->Prev();
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ(Key(9), it->key().ToString());
    it->Next();
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ(Key(30), it->key().ToString());
    it->SeekForPrev(Key(20));
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ(Key(9), it->key().ToString());
    it->Next();
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ(Key(30), it->key().ToString());
    it->SeekToLast();
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ(Key(34), it->key().ToString());
    it->SeekToFirst();
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ(Key(5), it->key().ToString());
    int count = 0;
    for (; it->Valid(); it->Next()) count++;
    EXPECT_EQ(10, count);  // 5..9 and 30..34
    ASSERT_OK(it->status());
    // Bounds entirely inside the deleted range.
    std::string ilo = Key(12), ihi = Key(20);
    Slice ilos(ilo), ihis(ihi);
    ReadOptions ri;
    ri.iterate_lower_bound = &ilos;
    ri.iterate_upper_bound = &ihis;
    std::unique_ptr<Iterator> in = db_->NewIterator(ri);
    in->SeekToFirst();
    EXPECT_FALSE(in->Valid());
    in->SeekToLast();
    EXPECT_FALSE(in->Valid());
    in->Seek(Key(15));
    EXPECT_FALSE(in->Valid());
    ASSERT_OK(in->status());
  }
}

// A merge after a range deletion starts from no base value.
TEST_F(DBRangeDelTest, MergeAfterDeleteRangeHasNoBase) {
  Options o;
  o.create_if_missing = true;
  o.merge_operator = MergeOperators::CreateStringAppendOperator(',');
  for (int mode = 0; mode < 4; mode++) {
    SCOPED_TRACE("mode " + std::to_string(mode));
    if (db_ != nullptr) {
      ASSERT_OK(db_->Close());
      db_.reset();
      ASSERT_OK(DestroyDB(dbname_, options_));
    }
    Open(o);
    ASSERT_OK(Put("k1", "base"));
    ASSERT_OK(db_->Merge(WriteOptions(), "k2", "m0"));
    ASSERT_OK(Put("k3", "keep"));
    if (mode >= 1) ASSERT_OK(Flush());
    if (mode >= 2) ASSERT_OK(CompactAll());
    const Snapshot* snap = db_->GetSnapshot();
    ASSERT_OK(DeleteRange("k1", "k3"));
    if (mode >= 2) ASSERT_OK(Flush());
    ASSERT_OK(db_->Merge(WriteOptions(), "k1", "a"));
    ASSERT_OK(db_->Merge(WriteOptions(), "k2", "b"));
    ASSERT_OK(db_->Merge(WriteOptions(), "k2", "c"));
    if (mode >= 3) ASSERT_OK(CompactAll());
    Model m{{"k1", "a"}, {"k2", "b,c"}, {"k3", "keep"}};
    Check(m, {"k0", "k1", "k2", "k3"}, nullptr, "latest");
    Model s{{"k1", "base"}, {"k2", "m0"}, {"k3", "keep"}};
    Check(s, {"k0", "k1", "k2", "k3"}, snap, "snapshot");
    db_->ReleaseSnapshot(snap);
    ASSERT_OK(CompactAll());
    Check(m, {"k0", "k1", "k2", "k3"}, nullptr, "compacted");
  }
}

}  // namespace
}  // namespace strata
