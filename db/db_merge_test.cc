// Engine-level tests of Merge and of compaction filters, through the public
// API only (plus DBImpl::WaitForCompact): the built-in operators read back
// through Get, MultiGet and iterators (both directions, seeks, bounds) while
// the operands sit in the memtable, in level-0 files, fully merged at the
// bottom level, or are replayed from the WAL; snapshots taken between
// operands; merges over a Put, a Delete or nothing; a missing operator; a
// malformed uint64 operand (Corruption, on reads and in compaction); the
// operator's name in table properties; compaction filters and filter
// factories applied by CompactRange without changing what a snapshot sees.
// Tests named Repro_* are minimal reproductions of engine bugs found here.

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "db/db_impl.h"
#include "strata/compaction_filter.h"
#include "strata/db.h"
#include "strata/iterator.h"
#include "strata/merge_operator.h"
#include "strata/options.h"
#include "strata/snapshot.h"
#include "strata/sst_file_writer.h"
#include "strata/status.h"
#include "strata/table_properties.h"
#include "strata/write_batch.h"
#include "test_util/db_test_base.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

std::string U64(uint64_t v) {
  std::string s(8, '\0');
  for (int i = 0; i < 8; i++) s[i] = static_cast<char>((v >> (8 * i)) & 0xff);
  return s;
}

uint64_t FromU64(const std::string& s) {
  EXPECT_EQ(8u, s.size());
  uint64_t v = 0;
  for (size_t i = 0; i < s.size() && i < 8; i++) {
    v |= static_cast<uint64_t>(static_cast<unsigned char>(s[i])) << (8 * i);
  }
  return v;
}

class DBMergeTest : public DBTestBase {
 protected:
  DBMergeTest() : DBTestBase("db_merge_test") {}

  static Options MakeOptions(std::shared_ptr<MergeOperator> op) {
    Options o;
    o.create_if_missing = true;
    o.merge_operator = std::move(op);
    return o;
  }

  Status CompactAll() {
    CompactRangeOptions cro;
    cro.bottommost_level_compaction = BottommostLevelCompaction::kForce;
    return db_->CompactRange(cro, nullptr, nullptr);
  }

  // MultiGet of keys, each as Get() spells it.
  std::vector<std::string> MultiGet(const std::vector<std::string>& keys,
                                    const Snapshot* snap = nullptr) {
    ReadOptions ro;
    ro.snapshot = snap;
    std::vector<Slice> ks(keys.begin(), keys.end());
    std::vector<std::string> values;
    std::vector<Status> st = db_->MultiGet(ro, ks, &values);
    EXPECT_EQ(keys.size(), st.size());
    EXPECT_EQ(keys.size(), values.size());
    std::vector<std::string> out;
    for (size_t i = 0; i < st.size() && i < values.size(); i++) {
      if (st[i].IsNotFound()) {
        out.push_back("NOT_FOUND");
      } else if (!st[i].ok()) {
        out.push_back("ERROR: " + st[i].ToString());
      } else {
        out.push_back(values[i]);
      }
    }
    return out;
  }

  // "k=v k=v ..." forward (or backward) over the whole DB.
  std::string Scan(const Snapshot* snap = nullptr, bool backward = false) {
    ReadOptions ro;
    ro.snapshot = snap;
    std::unique_ptr<Iterator> it = db_->NewIterator(ro);
    std::string out;
    if (backward) {
      for (it->SeekToLast(); it->Valid(); it->Prev()) {
        if (!out.empty()) out += " ";
        out += it->key().ToString() + "=" + it->value().ToString();
      }
    } else {
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        if (!out.empty()) out += " ";
        out += it->key().ToString() + "=" + it->value().ToString();
      }
    }
    if (!it->status().ok()) out += " ERROR: " + it->status().ToString();
    return out;
  }

  // Forward scan, and the backward scan reversed, both equal expected.
  void ExpectScan(const std::string& expected, const Snapshot* snap = nullptr,
                  const std::string& where = "") {
    EXPECT_EQ(expected, Scan(snap, false)) << where << " (forward)";
    std::string back = Scan(snap, true);
    // Reverse the order of "k=v" tokens.
    std::vector<std::string> toks;
    size_t p = 0;
    while (p <= back.size() && !back.empty()) {
      size_t q = back.find(' ', p);
      if (q == std::string::npos) q = back.size();
      toks.push_back(back.substr(p, q - p));
      p = q + 1;
    }
    std::reverse(toks.begin(), toks.end());
    std::string fwd;
    for (const auto& t : toks) {
      if (!fwd.empty()) fwd += " ";
      fwd += t;
    }
    EXPECT_EQ(expected, fwd) << where << " (backward)";
  }

  std::vector<std::string> TableFiles() const {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(dbname_)) {
      if (e.path().extension() == ".sst") out.push_back(e.path().string());
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  // Sum of a table property over every live table file.
  uint64_t SumTableProperty(uint64_t TableProperties::*field) {
    uint64_t sum = 0;
    for (const std::string& f : TableFiles()) {
      SstFileReader r(options_);
      Status s = r.Open(f);
      EXPECT_TRUE(s.ok()) << f << ": " << s.ToString();
      if (!s.ok()) continue;
      sum += (*r.GetTableProperties()).*field;
    }
    return sum;
  }
};

// ---------------------------------------------------------------------------
// Operands in each place the read path looks.

TEST_F(DBMergeTest, StringAppendInMemtable) {
  Open(MakeOptions(MergeOperators::CreateStringAppendOperator(',')));
  ASSERT_OK(Merge("k", "a"));
  ASSERT_OK(Merge("k", "b"));
  ASSERT_OK(Merge("k", "c"));
  EXPECT_EQ("a,b,c", Get("k"));
  EXPECT_EQ((std::vector<std::string>{"a,b,c", "NOT_FOUND"}), MultiGet({"k", "z"}));
  ExpectScan("k=a,b,c");
}

TEST_F(DBMergeTest, StringAppendAfterFlush) {
  Open(MakeOptions(MergeOperators::CreateStringAppendOperator(',')));
  ASSERT_OK(Merge("k", "a"));
  ASSERT_OK(Merge("k", "b"));
  ASSERT_OK(Flush());
  EXPECT_EQ("a,b", Get("k"));
  ExpectScan("k=a,b");
  // Operands spread over two files and the memtable.
  ASSERT_OK(Merge("k", "c"));
  ASSERT_OK(Flush());
  ASSERT_OK(Merge("k", "d"));
  EXPECT_EQ("a,b,c,d", Get("k"));
  EXPECT_EQ((std::vector<std::string>{"a,b,c,d"}), MultiGet({"k"}));
  ExpectScan("k=a,b,c,d");
}

TEST_F(DBMergeTest, CompactRangeToBottomFullyMerges) {
  Open(MakeOptions(MergeOperators::CreateStringAppendOperator(',')));
  for (int f = 0; f < 3; f++) {
    for (int i = 0; i < 3; i++) ASSERT_OK(Merge("k", std::to_string(f * 3 + i)));
    ASSERT_OK(Merge("other" + std::to_string(f), "x"));
    ASSERT_OK(Flush());
  }
  EXPECT_GT(SumTableProperty(&TableProperties::num_merge_operands), 0u);
  ASSERT_OK(CompactAll());
  EXPECT_EQ("0,1,2,3,4,5,6,7,8", Get("k"));
  ExpectScan("k=0,1,2,3,4,5,6,7,8 other0=x other1=x other2=x");
  // With no snapshot, a bottom-level compaction leaves no operand behind.
  EXPECT_EQ(0u, SumTableProperty(&TableProperties::num_merge_operands));
  EXPECT_EQ(0, NumTableFilesAtLevel(0));
  // More operands on top of the merged value.
  ASSERT_OK(Merge("k", "9"));
  EXPECT_EQ("0,1,2,3,4,5,6,7,8,9", Get("k"));
  ASSERT_OK(Flush());
  ASSERT_OK(CompactAll());
  EXPECT_EQ("0,1,2,3,4,5,6,7,8,9", Get("k"));
}

TEST_F(DBMergeTest, ReopenReplaysOperandsFromWAL) {
  Open(MakeOptions(MergeOperators::CreateUInt64AddOperator()));
  ASSERT_OK(Merge("a", U64(1)));
  ASSERT_OK(Merge("a", U64(2)));
  ASSERT_OK(Flush());
  ASSERT_OK(Merge("a", U64(10)));
  ASSERT_OK(Merge("b", U64(5)));
  WriteBatch batch;
  ASSERT_OK(batch.Merge("b", U64(6)));
  ASSERT_OK(batch.Put("c", U64(100)));
  ASSERT_OK(batch.Merge("c", U64(1)));
  ASSERT_OK(db_->Write(WriteOptions(), &batch));
  Reopen();
  EXPECT_EQ(13u, FromU64(Get("a")));
  EXPECT_EQ(11u, FromU64(Get("b")));
  EXPECT_EQ(101u, FromU64(Get("c")));
  // Reopen again (the replayed memtable was flushed or is replayed again).
  ASSERT_OK(Merge("a", U64(1)));
  Reopen();
  EXPECT_EQ(14u, FromU64(Get("a")));
  ASSERT_OK(CompactAll());
  EXPECT_EQ(14u, FromU64(Get("a")));
  EXPECT_EQ(11u, FromU64(Get("b")));
  EXPECT_EQ(101u, FromU64(Get("c")));
}

TEST_F(DBMergeTest, ManyOperandsOneKey) {
  Open(MakeOptions(MergeOperators::CreateUInt64AddOperator()));
  uint64_t expect = 0;
  for (int i = 1; i <= 1000; i++) {
    ASSERT_OK(Merge("k", U64(i)));
    expect += i;
    if (i % 250 == 0) ASSERT_OK(Flush());
  }
  EXPECT_EQ(expect, FromU64(Get("k")));
  std::unique_ptr<Iterator> it = db_->NewIterator(ReadOptions());
  it->SeekToLast();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(expect, FromU64(it->value().ToString()));
  ASSERT_OK(CompactAll());
  EXPECT_EQ(expect, FromU64(Get("k")));
}

// ---------------------------------------------------------------------------
// Snapshots between operands.

TEST_F(DBMergeTest, SnapshotsSeeOnlyOlderOperands) {
  Open(MakeOptions(MergeOperators::CreateStringAppendOperator(',')));
  ASSERT_OK(Put("k", "base"));
  const Snapshot* s0 = db_->GetSnapshot();
  ASSERT_OK(Merge("k", "a"));
  const Snapshot* s1 = db_->GetSnapshot();
  ASSERT_OK(Merge("k", "b"));
  ASSERT_OK(Flush());
  const Snapshot* s2 = db_->GetSnapshot();
  ASSERT_OK(Merge("k", "c"));
  auto check = [&](const std::string& where) {
    EXPECT_EQ("base", Get("k", s0)) << where;
    EXPECT_EQ("base,a", Get("k", s1)) << where;
    EXPECT_EQ("base,a,b", Get("k", s2)) << where;
    EXPECT_EQ("base,a,b,c", Get("k")) << where;
    EXPECT_EQ((std::vector<std::string>{"base,a"}), MultiGet({"k"}, s1)) << where;
    ExpectScan("k=base", s0, where);
    ExpectScan("k=base,a", s1, where);
    ExpectScan("k=base,a,b", s2, where);
    ExpectScan("k=base,a,b,c", nullptr, where);
  };
  check("memtable+L0");
  ASSERT_OK(Flush());
  check("after flush");
  ASSERT_OK(CompactAll());
  check("after compaction");
  db_->ReleaseSnapshot(s1);
  ASSERT_OK(CompactAll());
  EXPECT_EQ("base", Get("k", s0));
  EXPECT_EQ("base,a,b", Get("k", s2));
  EXPECT_EQ("base,a,b,c", Get("k"));
  db_->ReleaseSnapshot(s0);
  db_->ReleaseSnapshot(s2);
  ASSERT_OK(CompactAll());
  EXPECT_EQ("base,a,b,c", Get("k"));
  EXPECT_EQ(0u, SumTableProperty(&TableProperties::num_merge_operands));
}

TEST_F(DBMergeTest, SnapshotBeforeAnyOperand) {
  Open(MakeOptions(MergeOperators::CreateStringAppendOperator(',')));
  const Snapshot* s = db_->GetSnapshot();
  ASSERT_OK(Merge("k", "a"));
  ASSERT_OK(Flush());
  ASSERT_OK(Merge("k", "b"));
  ASSERT_OK(Flush());
  ASSERT_OK(CompactAll());
  EXPECT_EQ("NOT_FOUND", Get("k", s));
  ExpectScan("", s);
  EXPECT_EQ("a,b", Get("k"));
  db_->ReleaseSnapshot(s);
}

// ---------------------------------------------------------------------------
// Merge over a Put, a Delete, nothing -- with the base and the operands in
// different places.

TEST_F(DBMergeTest, MergeOverPutDeleteNothing) {
  for (int mode = 0; mode < 4; mode++) {
    SCOPED_TRACE("mode " + std::to_string(mode));
    // mode 0: all in memtable; 1: bases flushed, operands in memtable;
    // 2: bases and first operands compacted to the bottom, last operand in
    // L0; 3: everything compacted.
    if (db_ != nullptr) {
      ASSERT_OK(db_->Close());
      db_.reset();
      ASSERT_OK(DestroyDB(dbname_, options_));
    }
    Open(MakeOptions(MergeOperators::CreateStringAppendOperator('+')));
    ASSERT_OK(Put("put", "base"));
    ASSERT_OK(Put("del", "old"));
    ASSERT_OK(Delete("del"));
    ASSERT_OK(Put("put_del_put", "x"));
    ASSERT_OK(Delete("put_del_put"));
    ASSERT_OK(Put("put_del_put", "y"));
    if (mode >= 1) ASSERT_OK(Flush());
    if (mode >= 2) ASSERT_OK(CompactAll());
    ASSERT_OK(Merge("put", "1"));
    ASSERT_OK(Merge("del", "1"));
    ASSERT_OK(Merge("none", "1"));
    ASSERT_OK(Merge("put_del_put", "1"));
    if (mode >= 2) ASSERT_OK(Flush());
    ASSERT_OK(Merge("put", "2"));
    ASSERT_OK(Merge("del", "2"));
    ASSERT_OK(Merge("none", "2"));
    ASSERT_OK(Merge("put_del_put", "2"));
    if (mode >= 3) ASSERT_OK(CompactAll());
    EXPECT_EQ("base+1+2", Get("put"));
    EXPECT_EQ("1+2", Get("del"));
    EXPECT_EQ("1+2", Get("none"));
    EXPECT_EQ("y+1+2", Get("put_del_put"));
    EXPECT_EQ((std::vector<std::string>{"1+2", "1+2", "base+1+2", "y+1+2", "NOT_FOUND"}),
              MultiGet({"del", "none", "put", "put_del_put", "zzz"}));
    ExpectScan("del=1+2 none=1+2 put=base+1+2 put_del_put=y+1+2");
    // A Put over operands replaces them; a Delete removes the key.
    ASSERT_OK(Put("put", "new"));
    ASSERT_OK(Delete("none"));
    if (mode >= 3) ASSERT_OK(CompactAll());
    EXPECT_EQ("new", Get("put"));
    EXPECT_EQ("NOT_FOUND", Get("none"));
    ExpectScan("del=1+2 put=new put_del_put=y+1+2");
  }
}

TEST_F(DBMergeTest, PutAndMaxOperators) {
  Open(MakeOptions(MergeOperators::CreatePutOperator()));
  ASSERT_OK(Put("k", "base"));
  ASSERT_OK(Merge("k", "one"));
  ASSERT_OK(Flush());
  ASSERT_OK(Merge("k", "two"));
  EXPECT_EQ("two", Get("k"));
  ASSERT_OK(CompactAll());
  EXPECT_EQ("two", Get("k"));
  DestroyAndReopen(MakeOptions(MergeOperators::CreateMaxOperator()));
  ASSERT_OK(Put("k", "m"));
  ASSERT_OK(Merge("k", "c"));
  ASSERT_OK(Merge("k", "q"));
  ASSERT_OK(Flush());
  ASSERT_OK(Merge("k", "b"));
  EXPECT_EQ("q", Get("k"));
  ASSERT_OK(CompactAll());
  EXPECT_EQ("q", Get("k"));
  ExpectScan("k=q");
}

TEST_F(DBMergeTest, UInt64AddSumsAcrossLevels) {
  Open(MakeOptions(MergeOperators::CreateUInt64AddOperator()));
  ASSERT_OK(Put("k", U64(1000)));
  ASSERT_OK(Flush());
  ASSERT_OK(CompactAll());
  ASSERT_OK(Merge("k", U64(1)));
  ASSERT_OK(Flush());
  ASSERT_OK(Merge("k", U64(~uint64_t{0})));  // -1 mod 2^64
  ASSERT_OK(Merge("k", U64(3)));
  EXPECT_EQ(1003u, FromU64(Get("k")));
  ASSERT_OK(CompactAll());
  EXPECT_EQ(1003u, FromU64(Get("k")));
}

// ---------------------------------------------------------------------------
// Errors.

TEST_F(DBMergeTest, MergeWithoutOperatorIsInvalidArgument) {
  Open(MakeOptions(nullptr));
  Status s = Merge("k", "v");
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  WriteBatch batch;
  ASSERT_OK(batch.Put("a", "1"));
  ASSERT_OK(batch.Merge("k", "v"));
  s = db_->Write(WriteOptions(), &batch);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  // Nothing of the rejected batch was applied.
  EXPECT_EQ("NOT_FOUND", Get("a"));
  EXPECT_EQ("NOT_FOUND", Get("k"));
  ASSERT_OK(Put("b", "2"));
  EXPECT_EQ("2", Get("b"));
}

// Operands written with an operator, the DB reopened without one: reading
// them cannot succeed silently.
TEST_F(DBMergeTest, ReadOperandsWithoutOperator) {
  Open(MakeOptions(MergeOperators::CreateStringAppendOperator(',')));
  ASSERT_OK(Merge("k", "a"));
  ASSERT_OK(Flush());
  ASSERT_OK(Put("p", "v"));
  options_.merge_operator = nullptr;
  Reopen();
  std::string v;
  Status s = db_->Get(ReadOptions(), "k", &v);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
  it->Seek("k");
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().IsInvalidArgument()) << it->status().ToString();
  EXPECT_EQ("v", Get("p"));
}

TEST_F(DBMergeTest, UInt64MalformedOperandIsCorruption) {
  Open(MakeOptions(MergeOperators::CreateUInt64AddOperator()));
  ASSERT_OK(Put("a", U64(1)));
  ASSERT_OK(Merge("k", U64(1)));
  ASSERT_OK(Merge("k", "bad"));  // 3 bytes
  ASSERT_OK(Put("z", U64(2)));
  auto check_reads = [&](const std::string& where) {
    std::string v;
    Status s = db_->Get(ReadOptions(), "k", &v);
    EXPECT_TRUE(s.IsCorruption()) << where << ": " << s.ToString();
    std::vector<std::string> mg = MultiGet({"a", "k", "z"});
    ASSERT_EQ(3u, mg.size());
    EXPECT_EQ(U64(1), mg[0]) << where;
    EXPECT_EQ(0u, mg[1].rfind("ERROR: Corruption", 0)) << where << ": " << mg[1];
    EXPECT_EQ(U64(2), mg[2]) << where;
    // Neighbours still read.
    EXPECT_EQ(1u, FromU64(Get("a"))) << where;
    EXPECT_EQ(2u, FromU64(Get("z"))) << where;
    // An iterator stops with Corruption at the bad key (never a garbage value).
    std::unique_ptr<Iterator> it = db_->NewIterator(ReadOptions());
    int n = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      EXPECT_NE("k", it->key().ToString()) << where << ": merged value shown for a bad operand";
      n++;
    }
    EXPECT_TRUE(it->status().IsCorruption()) << where << ": " << it->status().ToString();
    EXPECT_LE(n, 1) << where;
    it->Seek("k");
    EXPECT_FALSE(it->Valid()) << where;
    EXPECT_TRUE(it->status().IsCorruption()) << where << ": " << it->status().ToString();
  };
  check_reads("memtable");
  ASSERT_OK(Flush());  // a flush does not merge (no full merge without the bottom)
  check_reads("L0");
}

// What a compaction that meets a malformed operand does: it fails with
// Corruption, which becomes the DB's background error; later writes fail.
TEST_F(DBMergeTest, UInt64MalformedOperandFailsCompaction) {
  Open(MakeOptions(MergeOperators::CreateUInt64AddOperator()));
  ASSERT_OK(Put("k", U64(1)));
  ASSERT_OK(Flush());
  ASSERT_OK(Merge("k", "bad"));
  ASSERT_OK(Flush());
  Status s = CompactAll();
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  uint64_t bg = 0;
  EXPECT_TRUE(db_->GetIntProperty("strata.background-errors", &bg));
  // A later write gets the (sticky) background error.
  Status w = Put("x", "y");
  EXPECT_FALSE(w.ok());
  std::printf("compaction: %s; background-errors=%llu; next write: %s\n", s.ToString().c_str(),
              static_cast<unsigned long long>(bg), w.ToString().c_str());
  // Reads of the bad key still report Corruption, not garbage.
  std::string v;
  Status g = db_->Get(ReadOptions(), "k", &v);
  EXPECT_TRUE(g.IsCorruption()) << g.ToString();
}

// ---------------------------------------------------------------------------
// Iterators over merged keys mixed with puts and deletes.

class DBMergeIterTest : public DBMergeTest {
 protected:
  // Keys k00..k19: even keys merged (two operands over a base for k%4==0),
  // odd keys put, every fifth key deleted. Returns the expected state.
  std::map<std::string, std::string> Fill(int layout) {
    std::map<std::string, std::string> m;
    auto key = [](int i) {
      char buf[8];
      snprintf(buf, sizeof(buf), "k%02d", i);
      return std::string(buf);
    };
    for (int i = 0; i < 20; i++) {
      if (i % 4 == 0) {
        EXPECT_OK(Put(key(i), "b"));
        m[key(i)] = "b";
      }
    }
    if (layout >= 1) EXPECT_OK(Flush());
    if (layout >= 2) EXPECT_OK(CompactAll());
    for (int i = 0; i < 20; i++) {
      if (i % 2 == 0) {
        EXPECT_OK(Merge(key(i), "x" + std::to_string(i)));
        m[key(i)] =
            m.count(key(i)) ? m[key(i)] + "," + "x" + std::to_string(i) : "x" + std::to_string(i);
      } else {
        EXPECT_OK(Put(key(i), "p" + std::to_string(i)));
        m[key(i)] = "p" + std::to_string(i);
      }
    }
    if (layout >= 1) EXPECT_OK(Flush());
    for (int i = 0; i < 20; i += 2) {
      EXPECT_OK(Merge(key(i), "y"));
      m[key(i)] += ",y";
    }
    for (int i = 0; i < 20; i += 5) {
      EXPECT_OK(Delete(key(i)));
      m.erase(key(i));
    }
    if (layout >= 3) EXPECT_OK(CompactAll());
    return m;
  }
};

TEST_F(DBMergeIterTest, BothDirectionsSeeksBoundsDirectionChanges) {
  for (int layout = 0; layout < 4; layout++) {
    SCOPED_TRACE("layout " + std::to_string(layout));
    if (db_ != nullptr) {
      ASSERT_OK(db_->Close());
      db_.reset();
      ASSERT_OK(DestroyDB(dbname_, options_));
    }
    Open(MakeOptions(MergeOperators::CreateStringAppendOperator(',')));
    const std::map<std::string, std::string> m = Fill(layout);
    std::string expected;
    for (const auto& [k, v] : m) {
      if (!expected.empty()) expected += " ";
      expected += k + "=" + v;
    }
    ExpectScan(expected);
    for (const auto& [k, v] : m) EXPECT_EQ(v, Get(k)) << k;

    std::unique_ptr<Iterator> it = db_->NewIterator(ReadOptions());
    // Seek into the middle of the merged keys: k06 (merged), k05 deleted.
    it->Seek("k05");
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ("k06", it->key().ToString());
    EXPECT_EQ(m.at("k06"), it->value().ToString());
    // Direction changes on a merged key.
    it->Prev();
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ("k04", it->key().ToString());
    EXPECT_EQ(m.at("k04"), it->value().ToString());
    it->Next();
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ("k06", it->key().ToString());
    EXPECT_EQ(m.at("k06"), it->value().ToString());
    it->Next();
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ("k07", it->key().ToString());
    it->Prev();
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ("k06", it->key().ToString());
    EXPECT_EQ(m.at("k06"), it->value().ToString());
    it->Prev();
    it->Prev();
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ("k03", it->key().ToString());
    // SeekForPrev onto a deleted merged key lands on the previous live one.
    it->SeekForPrev("k10");
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ("k09", it->key().ToString());
    it->SeekForPrev("k08");
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ("k08", it->key().ToString());
    EXPECT_EQ(m.at("k08"), it->value().ToString());
    it->Next();
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ("k09", it->key().ToString());
    it->Prev();
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ("k08", it->key().ToString());
    EXPECT_EQ(m.at("k08"), it->value().ToString());
    ASSERT_OK(it->status());

    // Bounds [k06, k13): forward and backward.
    Slice lo("k06"), hi("k13");
    ReadOptions ro;
    ro.iterate_lower_bound = &lo;
    ro.iterate_upper_bound = &hi;
    std::unique_ptr<Iterator> b = db_->NewIterator(ro);
    std::string got, want;
    for (b->SeekToFirst(); b->Valid(); b->Next())
      got += b->key().ToString() + "=" + b->value().ToString() + " ";
    for (auto i = m.lower_bound("k06"); i != m.lower_bound("k13"); ++i)
      want += i->first + "=" + i->second + " ";
    EXPECT_EQ(want, got);
    got.clear();
    want.clear();
    for (b->SeekToLast(); b->Valid(); b->Prev())
      got += b->key().ToString() + "=" + b->value().ToString() + " ";
    for (auto i = m.lower_bound("k13"); i != m.lower_bound("k06");) {
      --i;
      want += i->first + "=" + i->second + " ";
    }
    EXPECT_EQ(want, got);
    ASSERT_OK(b->status());
  }
}

// ---------------------------------------------------------------------------
// Table properties.

TEST_F(DBMergeTest, TablePropertyNamesTheOperator) {
  Open(MakeOptions(MergeOperators::CreateStringAppendOperator(',')));
  ASSERT_OK(Merge("k", "a"));
  ASSERT_OK(Put("p", "v"));
  ASSERT_OK(Flush());
  std::vector<std::string> files = TableFiles();
  ASSERT_EQ(1u, files.size());
  SstFileReader r(options_);
  ASSERT_OK(r.Open(files[0]));
  auto props = r.GetTableProperties();
  ASSERT_TRUE(props != nullptr);
  EXPECT_EQ("StringAppendOperator", props->merge_operator_name);
  EXPECT_EQ(1u, props->num_merge_operands);
  DestroyAndReopen(MakeOptions(nullptr));
  ASSERT_OK(Put("p", "v"));
  ASSERT_OK(Flush());
  files = TableFiles();
  ASSERT_EQ(1u, files.size());
  SstFileReader r2(options_);
  ASSERT_OK(r2.Open(files[0]));
  EXPECT_EQ("nullptr", r2.GetTableProperties()->merge_operator_name);
}

// ---------------------------------------------------------------------------
// Compaction filters.

// Removes keys starting with "drop_"; rewrites values of keys starting with
// "chg_" to "changed". Counts its calls.
class TestFilter : public CompactionFilter {
 public:
  bool Filter(int /*level*/, const Slice& key, const Slice& /*existing_value*/,
              std::string* new_value, bool* value_changed) const override {
    calls_.fetch_add(1, std::memory_order_relaxed);
    if (key.starts_with("drop_")) return true;
    if (key.starts_with("chg_")) {
      *new_value = "changed";
      *value_changed = true;
    }
    return false;
  }
  const char* Name() const override { return "TestFilter"; }
  mutable std::atomic<int> calls_{0};
};

TEST_F(DBMergeTest, CompactionFilterRemovesAndChanges) {
  TestFilter filter;
  Options o = MakeOptions(nullptr);
  o.compaction_filter = &filter;
  Open(o);
  ASSERT_OK(Put("drop_a", "1"));
  ASSERT_OK(Put("chg_b", "2"));
  ASSERT_OK(Put("keep_c", "3"));
  ASSERT_OK(Flush());
  // A flush does not run the filter (FilterDuringFlush is false).
  EXPECT_EQ("1", Get("drop_a"));
  EXPECT_EQ("2", Get("chg_b"));
  ASSERT_OK(CompactAll());
  EXPECT_GT(filter.calls_.load(), 0);
  EXPECT_EQ("NOT_FOUND", Get("drop_a"));
  EXPECT_EQ("changed", Get("chg_b"));
  EXPECT_EQ("3", Get("keep_c"));
  ExpectScan("chg_b=changed keep_c=3");
}

TEST_F(DBMergeTest, CompactionFilterNeverChangesSnapshotView) {
  TestFilter filter;
  Options o = MakeOptions(nullptr);
  o.compaction_filter = &filter;
  Open(o);
  ASSERT_OK(Put("drop_a", "1"));
  ASSERT_OK(Put("chg_b", "2"));
  ASSERT_OK(Put("keep_c", "3"));
  ASSERT_OK(Flush());
  const Snapshot* snap = db_->GetSnapshot();
  ASSERT_OK(Put("chg_b", "2new"));
  ASSERT_OK(Put("drop_d", "4"));
  ASSERT_OK(Flush());
  ASSERT_OK(CompactAll());
  // The snapshot sees everything as it was.
  EXPECT_EQ("1", Get("drop_a", snap));
  EXPECT_EQ("2", Get("chg_b", snap));
  EXPECT_EQ("3", Get("keep_c", snap));
  EXPECT_EQ("NOT_FOUND", Get("drop_d", snap));
  ExpectScan("chg_b=2 drop_a=1 keep_c=3", snap);
  // The newest versions, visible to no snapshot in another form, were
  // filtered.
  EXPECT_EQ("changed", Get("chg_b"));
  EXPECT_EQ("NOT_FOUND", Get("drop_d"));
  db_->ReleaseSnapshot(snap);
  ASSERT_OK(CompactAll());
  EXPECT_EQ("NOT_FOUND", Get("drop_a"));
  EXPECT_EQ("changed", Get("chg_b"));
  ExpectScan("chg_b=changed keep_c=3");
}

class CountingFactory : public CompactionFilterFactory {
 public:
  std::unique_ptr<CompactionFilter> CreateCompactionFilter(
      const CompactionFilter::Context& context) override {
    created_.fetch_add(1);
    if (context.is_manual_compaction) manual_.fetch_add(1);
    return std::make_unique<TestFilter>();
  }
  const char* Name() const override { return "CountingFactory"; }
  std::atomic<int> created_{0};
  std::atomic<int> manual_{0};
};

TEST_F(DBMergeTest, CompactionFilterFactoryOnePerCompaction) {
  auto factory = std::make_shared<CountingFactory>();
  Options o = MakeOptions(nullptr);
  o.compaction_filter_factory = factory;
  o.disable_auto_compactions = true;
  Open(o);
  ASSERT_OK(Put("drop_a", "1"));
  ASSERT_OK(Put("chg_b", "2"));
  ASSERT_OK(Flush());
  ASSERT_OK(Put("drop_a", "1"));
  ASSERT_OK(Flush());
  // Not for flushes (see Repro_FilterFactoryCalledForFlush).
  const int at_flush = factory->created_.load();
  EXPECT_EQ(0, at_flush);
  ASSERT_OK(CompactAll());  // overlapping files: a real compaction
  const int after_first = factory->created_.load() - at_flush;
  EXPECT_GE(after_first, 1);
  EXPECT_EQ(after_first, factory->manual_.load());
  EXPECT_EQ("NOT_FOUND", Get("drop_a"));
  EXPECT_EQ("changed", Get("chg_b"));
  const int flushes_before = factory->created_.load() - factory->manual_.load();
  ASSERT_OK(Put("drop_x", "1"));
  ASSERT_OK(Flush());
  const int flush_filters = factory->created_.load() - factory->manual_.load() - flushes_before;
  ASSERT_OK(CompactAll());  // the new file overlaps the bottom file's range
  EXPECT_GT(factory->manual_.load(), after_first);
  EXPECT_EQ(factory->created_.load() - flushes_before - flush_filters, factory->manual_.load());
  EXPECT_EQ("NOT_FOUND", Get("drop_x"));
}

// Merge operands offered to the filter: FilterMergeOperand removes operands
// starting with "-".
class OperandFilter : public CompactionFilter {
 public:
  bool FilterMergeOperand(int /*level*/, const Slice& /*key*/,
                          const Slice& operand) const override {
    return operand.starts_with("-");
  }
  const char* Name() const override { return "OperandFilter"; }
};

TEST_F(DBMergeTest, CompactionFilterOnMergeOperands) {
  OperandFilter filter;
  Options o = MakeOptions(MergeOperators::CreateStringAppendOperator(','));
  o.compaction_filter = &filter;
  Open(o);
  ASSERT_OK(Merge("k", "a"));
  ASSERT_OK(Flush());
  ASSERT_OK(Merge("k", "-b"));
  ASSERT_OK(Flush());
  ASSERT_OK(Merge("k", "c"));
  ASSERT_OK(Flush());
  EXPECT_EQ("a,-b,c", Get("k"));
  ASSERT_OK(CompactAll());  // overlapping files: a real compaction
  EXPECT_EQ("a,c", Get("k"));
}

// ---------------------------------------------------------------------------
// Minimal reproductions (see the file comment).

// A manual compaction must run the compaction filter: RocksDB forbids
// trivial moves in a manual compaction when a filter is configured, and its
// default bottommost_level_compaction (kIfHaveCompactionFilter) rewrites the
// bottom level. Here the lone level-0 file is moved down untouched.
TEST_F(DBMergeTest, Repro_CompactRangeTrivialMoveSkipsCompactionFilter) {
  TestFilter filter;
  Options o = MakeOptions(nullptr);
  o.compaction_filter = &filter;
  Open(o);
  ASSERT_OK(Put("drop_a", "1"));
  ASSERT_OK(Flush());
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  EXPECT_GT(filter.calls_.load(), 0);
  EXPECT_EQ("NOT_FOUND", Get("drop_a"));
}

// Same with the data already at the bottom and the default options
// (kIfHaveCompactionFilter): the bottom level is not rewritten.
TEST_F(DBMergeTest, Repro_CompactRangeDefaultSkipsBottomWithFilter) {
  TestFilter filter;
  Options o = MakeOptions(nullptr);
  Open(o);
  ASSERT_OK(Put("drop_a", "1"));
  ASSERT_OK(Put("drop_b", "1"));
  ASSERT_OK(Flush());
  ASSERT_OK(Put("drop_a", "2"));
  ASSERT_OK(Flush());
  ASSERT_OK(CompactAll());  // two overlapping files: a real compaction
  ASSERT_EQ(0, NumTableFilesAtLevel(0));
  options_.compaction_filter = &filter;
  Reopen();
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  EXPECT_GT(filter.calls_.load(), 0);
  EXPECT_EQ("NOT_FOUND", Get("drop_a"));
}

// CompactRange with kForce over a database whose only file is in level 0:
// the file is moved to the bottom but never rewritten, so its merge
// operands stay unmerged (reads are still right).
TEST_F(DBMergeTest, Repro_CompactRangeForceSingleL0FileKeepsOperands) {
  Open(MakeOptions(MergeOperators::CreateStringAppendOperator(',')));
  ASSERT_OK(Merge("k", "a"));
  ASSERT_OK(Merge("k", "b"));
  ASSERT_OK(Flush());
  ASSERT_OK(CompactAll());
  EXPECT_EQ("a,b", Get("k"));
  EXPECT_EQ(0, NumTableFilesAtLevel(0));
  EXPECT_EQ(0u, SumTableProperty(&TableProperties::num_merge_operands));
}

// RocksDB asks a factory for a filter only for compactions (flushes need
// ShouldFilterTableFileCreation(kFlush)); here a flush creates one (with
// is_manual_compaction false) and then discards it.
TEST_F(DBMergeTest, Repro_FilterFactoryCalledForFlush) {
  auto factory = std::make_shared<CountingFactory>();
  Options o = MakeOptions(nullptr);
  o.compaction_filter_factory = factory;
  Open(o);
  ASSERT_OK(Put("a", "1"));
  ASSERT_OK(Flush());
  EXPECT_EQ(0, factory->created_.load());
}

}  // namespace
}  // namespace strata
