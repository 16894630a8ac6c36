// Tests of `strata dump_wal` on WALs holding the two-phase-commit markers
// (BeginPrepare, EndPrepare(xid), Commit(xid), Rollback(xid), Noop):
//  - WALs written here with Strata's log::Writer and WriteBatchInternal's
//    markers, fixed and random; the expected text comes from a model of
//    ldb's printer kept in this file, and RocksDB's /usr/bin/ldb (when
//    installed) must print the same bytes;
//  - a WAL RocksDB itself wrote through a TransactionDB
//    (test_util/rocksdb_txn_wal_gen.cc, when librocksdb is installed):
//    strata's output must equal ldb's, byte for byte.
// Every command runs the built `strata` binary; stdout alone is compared
// (the Status texts on stderr differ, see docs/tools/ldb.md).

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "base/dbformat.h"
#include "db/log_format.h"
#include "db/log_writer.h"
#include "db/write_batch_internal.h"
#include "strata/env.h"
#include "strata/write_batch.h"
#include "test_util/testutil.h"
#include "tools/ldb/ldb_args.h"
#include "tools/ldb/ldb_table_view.h"

#ifndef STRATA_TOOL_PATH
#error "STRATA_TOOL_PATH (the strata binary) must be defined by the build"
#endif

namespace strata::ldb {
namespace {

const char* const kLdb = "/usr/bin/ldb";

bool HaveLdb() { return access(kLdb, X_OK) == 0; }

// Runs cmd; its stdout (stderr dropped) and exit status.
std::string Stdout(const std::string& cmd, int* rc) {
  return test::RunCommand("{ " + cmd + " 2>/dev/null; }", rc);
}

// One batch to write: its contents and the row ldb prints for it, with and
// without values (everything after the "seq,count,size,offset," prefix).
struct ModelBatch {
  WriteBatch batch;
  std::string row_keys;
  std::string row_values;
};

// The model of ldb's InMemoryHandler: appends one record's text.
class Model {
 public:
  explicit Model(ModelBatch* b) : b_(b) {}
  void Put(uint32_t cf, const std::string& k, const std::string& v) {
    ASSERT_TRUE(WriteBatchInternal::Put(&b_->batch, cf, k, v).ok());
    KeyValue("PUT(" + std::to_string(cf) + ") : ", k, v);
  }
  void Merge(uint32_t cf, const std::string& k, const std::string& v) {
    ASSERT_TRUE(WriteBatchInternal::Merge(&b_->batch, cf, k, v).ok());
    KeyValue("MERGE(" + std::to_string(cf) + ") : ", k, v);
  }
  void Delete(uint32_t cf, const std::string& k) {
    ASSERT_TRUE(WriteBatchInternal::Delete(&b_->batch, cf, k).ok());
    Both("DELETE(" + std::to_string(cf) + ") : " + StringToHex(k) + " ");
  }
  void SingleDelete(uint32_t cf, const std::string& k) {
    ASSERT_TRUE(WriteBatchInternal::SingleDelete(&b_->batch, cf, k).ok());
    Both("SINGLE_DELETE(" + std::to_string(cf) + ") : " + StringToHex(k) + " ");
  }
  void DeleteRange(uint32_t cf, const std::string& b, const std::string& e) {
    ASSERT_TRUE(WriteBatchInternal::DeleteRange(&b_->batch, cf, b, e).ok());
    Both("DELETE_RANGE(" + std::to_string(cf) + ") : " + StringToHex(b) + " " + StringToHex(e) +
         " ");
  }
  void LogData(const std::string& blob) { ASSERT_TRUE(b_->batch.PutLogData(blob).ok()); }
  void Noop() {
    WriteBatchInternal::InsertNoop(&b_->batch);
    Both("NOOP ");
  }
  // A prepared section: MarkEndPrepare turns the leading Noop (or nothing)
  // into BeginPrepare, so the row starts with it.
  void EndPrepare(const std::string& xid, bool had_leading_noop) {
    ASSERT_TRUE(WriteBatchInternal::MarkEndPrepare(&b_->batch, xid).ok());
    const std::string begin = "BEGIN_PREPARE(false) ";
    if (had_leading_noop) {
      // The leading "NOOP " became BEGIN_PREPARE.
      ASSERT_EQ(b_->row_keys.rfind("NOOP ", 0), 0u);
      b_->row_keys.replace(0, 5, begin);
      b_->row_values.replace(0, 5, begin);
    } else {
      b_->row_keys.insert(0, begin);
      b_->row_values.insert(0, begin);
    }
    Both("END_PREPARE(" + StringToHex(xid) + ") ");
  }
  void Commit(const std::string& xid) {
    ASSERT_TRUE(WriteBatchInternal::MarkCommit(&b_->batch, xid).ok());
    Both("COMMIT(" + StringToHex(xid) + ") ");
  }
  void Rollback(const std::string& xid) {
    ASSERT_TRUE(WriteBatchInternal::MarkRollback(&b_->batch, xid).ok());
    Both("ROLLBACK(" + StringToHex(xid) + ") ");
  }

 private:
  void KeyValue(const std::string& prefix, const std::string& k, const std::string& v) {
    b_->row_keys += prefix + StringToHex(k) + " ";
    b_->row_values += prefix + StringToHex(k) + " : " + StringToHex(v) + " ";
  }
  void Both(const std::string& text) {
    b_->row_keys += text;
    b_->row_values += text;
  }
  ModelBatch* b_;
};

// Writes the batches (sequence numbers from first_seq on) into path with
// Strata's log writer; the offset ldb prints for each record: where the
// previous one ended. (A record starts there, or at the next block when
// fewer than a header's bytes are left; RocksDB's reader then still names
// the start of that trailer.)
std::vector<uint64_t> WriteWal(const std::string& path, std::vector<ModelBatch>* batches,
                               SequenceNumber first_seq) {
  std::unique_ptr<WritableFile> file;
  EXPECT_TRUE(Env::Default()->GetFileSystem()->NewWritableFile(path, FileOptions(), &file).ok());
  log::Writer writer(std::move(file), /*log_number=*/7, /*recycle_log_files=*/false);
  std::vector<uint64_t> offsets;
  uint64_t pos = 0;
  SequenceNumber seq = first_seq;
  for (ModelBatch& b : *batches) {
    WriteBatchInternal::SetSequence(&b.batch, seq);
    seq += std::max<uint32_t>(1, b.batch.Count());
    const Slice contents = WriteBatchInternal::Contents(&b.batch);
    EXPECT_TRUE(writer.AddRecord(contents).ok());
    size_t left = contents.size();
    offsets.push_back(pos);
    do {
      uint64_t room = log::kBlockSize - pos % log::kBlockSize;
      if (room < log::kHeaderSize) {
        pos += room;
        room = log::kBlockSize;
      }
      const size_t fragment = std::min<size_t>(left, room - log::kHeaderSize);
      pos += log::kHeaderSize + fragment;
      left -= fragment;
    } while (left > 0);
  }
  EXPECT_TRUE(writer.Close().ok());
  return offsets;
}

// What dump_wal prints for the batches: the three shapes tested.
struct Expected {
  std::string plain;   // no flags
  std::string values;  // --print_value
  std::string header;  // --header --print_value
};

Expected Render(const std::vector<ModelBatch>& batches, const std::vector<uint64_t>& offsets) {
  Expected e;
  e.header = "Sequence,Count,ByteSize,Physical Offset,Key(s) : value \n";
  for (size_t i = 0; i < batches.size(); ++i) {
    const WriteBatch& b = batches[i].batch;
    const std::string prefix = std::to_string(WriteBatchInternal::Sequence(&b)) + "," +
                               std::to_string(WriteBatchInternal::Count(&b)) + "," +
                               std::to_string(WriteBatchInternal::ByteSize(&b)) + "," +
                               std::to_string(offsets[i]) + ",";
    e.plain += prefix + batches[i].row_keys + "\n";
    e.values += prefix + batches[i].row_values + "\n";
  }
  e.header += e.values;
  return e;
}

class DumpWalTest : public ::testing::Test {
 protected:
  std::string DumpWal(const char* tool, const std::string& wal, const std::string& flags, int* rc) {
    return Stdout(std::string(tool) + " dump_wal --walfile=" + wal + flags, rc);
  }

  // strata (and ldb, when installed) print exactly `e` for the file.
  void CheckBoth(const std::string& wal, const Expected& e) {
    const std::pair<const char*, const std::string*> cases[] = {
        {"", &e.plain}, {" --print_value", &e.values}, {" --header --print_value", &e.header}};
    for (const auto& [flags, want] : cases) {
      int rc = 0;
      EXPECT_EQ(DumpWal(STRATA_TOOL_PATH, wal, flags, &rc), *want) << "strata" << flags;
      EXPECT_EQ(rc, 0);
      if (HaveLdb()) {
        EXPECT_EQ(DumpWal(kLdb, wal, flags, &rc), *want) << "ldb" << flags;
        EXPECT_EQ(rc, 0);
      }
    }
  }

  // TableView::CollectEntries of both families of db equals `ldb idump`.
  void CheckTableViewAgainstLdbIdump(const std::string& db, bool flushed);

  test::TempDir dir_{"dump_wal"};
};

TEST_F(DumpWalTest, FixedMarkers) {
  std::vector<ModelBatch> batches(7);
  {
    Model m(&batches[0]);  // plain writes
    m.Put(0, "a", "1");
    m.Put(2, "b", "2");
    m.Delete(0, "c");
  }
  {
    Model m(&batches[1]);  // a prepared section as a transaction writes it
    m.Noop();
    m.Put(0, "k1", "v1");
    m.Merge(3, "k2", "v2");
    m.SingleDelete(0, "k3");
    m.DeleteRange(1, "r1", "r2");
    m.EndPrepare("xid_commit", /*had_leading_noop=*/true);
  }
  {
    Model m(&batches[2]);  // its commit: a marker alone, count 0
    m.Commit("xid_commit");
  }
  {
    Model m(&batches[3]);  // prepared without the placeholder, rolled back
    m.Put(0, "k4", "v4");
    m.EndPrepare("xid_rb", /*had_leading_noop=*/false);
  }
  {
    Model m(&batches[4]);
    m.Rollback("xid_rb");
  }
  {
    Model m(&batches[5]);  // Noop and LogData among records; an empty xid
    m.LogData("blob");
    m.Put(0, std::string("\0\xff", 2), std::string(3000, 'x'));
    m.Noop();
    m.Commit("");
  }
  {
    Model m(&batches[6]);  // a prepared section left open
    m.Noop();
    m.Put(0, "open", "o");
    m.EndPrepare("xid_open", /*had_leading_noop=*/true);
  }
  const std::string wal = dir_.path() + "/000007.log";
  const std::vector<uint64_t> offsets = WriteWal(wal, &batches, 100);
  const Expected e = Render(batches, offsets);
  // A spot check of the model itself against the text ldb prints.
  EXPECT_NE(e.plain.find("103,4,52,33,"), std::string::npos);
  EXPECT_NE(e.plain.find("BEGIN_PREPARE(false) PUT(0) : 0x6B31 MERGE(3) : 0x6B32 "
                         "SINGLE_DELETE(0) : 0x6B33 DELETE_RANGE(1) : 0x7231 0x7232 "
                         "END_PREPARE(0x7869645F636F6D6D6974) \n"),
            std::string::npos)
      << e.plain;
  EXPECT_NE(e.plain.find("107,0,24,92,COMMIT("), std::string::npos) << e.plain;  // the commit batch
  EXPECT_NE(e.plain.find("COMMIT(0x7869645F636F6D6D6974) \n"), std::string::npos);
  EXPECT_NE(e.plain.find("ROLLBACK(0x7869645F7262) \n"), std::string::npos);
  EXPECT_NE(e.plain.find("PUT(0) : 0x00FF NOOP COMMIT(0x) \n"), std::string::npos);
  CheckBoth(wal, e);
}

// A record that ends 3 bytes before a block boundary: the writer pads the
// trailer and starts the next record on the next block, and ldb names the
// trailer's start (32765) as that record's offset; strata must too.
TEST_F(DumpWalTest, OffsetAfterBlockTrailer) {
  std::vector<ModelBatch> batches(3);
  // 12 header + 1 tag + 1 + 1 key + 3 (varint 32740) + 32740 = 32758 bytes,
  // a 32765-byte physical record.
  Model(&batches[0]).Put(0, "k", std::string(32740, 'v'));
  ASSERT_EQ(WriteBatchInternal::ByteSize(&batches[0].batch), 32758u);
  Model(&batches[1]).Put(0, "after", "trailer");
  {
    Model m(&batches[2]);
    m.Noop();
    m.Put(0, "p", "q");
    m.EndPrepare("x", true);
  }
  const std::string wal = dir_.path() + "/000011.log";
  const std::vector<uint64_t> offsets = WriteWal(wal, &batches, 1);
  ASSERT_EQ(offsets, (std::vector<uint64_t>{0, 32765, 32768 + 7 + 27}));
  const Expected e = Render(batches, offsets);
  EXPECT_NE(e.plain.find("2,1,27,32765,PUT(0) : 0x6166746572 \n"), std::string::npos) << e.plain;
  CheckBoth(wal, e);
}

// Random batches of every record kind, some as prepared sections, some as
// commit or rollback markers; strata and ldb against the model.
TEST_F(DumpWalTest, RandomBatchesWithMarkers) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (int round = 0; round < 3; ++round) {
    std::vector<ModelBatch> batches(40 + rng() % 80);
    std::vector<std::string> prepared;
    for (ModelBatch& b : batches) {
      Model m(&b);
      const int shape = static_cast<int>(rng() % 6);
      if (shape == 0 && !prepared.empty()) {
        const size_t i = rng() % prepared.size();
        if (rng() % 2 == 0) {
          m.Commit(prepared[i]);
        } else {
          m.Rollback(prepared[i]);
        }
        prepared.erase(prepared.begin() + static_cast<long>(i));
        continue;
      }
      const bool prepare = shape == 1 || shape == 2;
      const bool noop_first = prepare && rng() % 4 != 0;
      if (noop_first) m.Noop();
      const int n = static_cast<int>(rng() % 6);
      auto key = [&] { return test::RandomBytes(&rng, rng() % 12); };
      auto value = [&] {
        return test::RandomBytes(&rng, rng() % 5 == 0 ? rng() % 9000 : rng() % 40);
      };
      for (int i = 0; i < n; ++i) {
        const uint32_t cf = rng() % 3 == 0 ? static_cast<uint32_t>(rng() % 5) : 0;
        switch (rng() % 8) {
          case 0:
            m.Delete(cf, key());
            break;
          case 1:
            m.SingleDelete(cf, key());
            break;
          case 2:
            m.DeleteRange(cf, key(), key());
            break;
          case 3:
            m.Merge(cf, key(), value());
            break;
          case 4:
            m.LogData(value());
            break;
          case 5:
            if (!prepare) m.Noop();
            break;
          default:
            m.Put(cf, key(), value());
            break;
        }
      }
      if (prepare) {
        const std::string xid =
            "x" + std::to_string(rng() % 100000) + test::RandomBytes(&rng, rng() % 4);
        m.EndPrepare(xid, noop_first);
        prepared.push_back(xid);
      }
    }
    const std::string wal = dir_.path() + "/00000" + std::to_string(round + 1) + ".log";
    const std::vector<uint64_t> offsets = WriteWal(wal, &batches, 1 + rng() % 1000000);
    CheckBoth(wal, Render(batches, offsets));
    if (HasFailure()) break;
  }
}

#ifdef STRATA_ROCKSDB_TXN_WAL_GEN
// The WAL RocksDB's own TransactionDB wrote (prepared + committed, prepared
// + rolled back, prepared and left open, committed without Prepare), read
// by both tools.
TEST_F(DumpWalTest, RocksDbMadeTransactionWal) {
  if (!HaveLdb()) GTEST_SKIP() << kLdb << " not installed";
  int n = 0;
  for (const char* gen_flags : {"--exit=crash", "--exit=close", "--flush_mid_txn"}) {
    SCOPED_TRACE(gen_flags);
    const std::string db = dir_.path() + "/rocksdb_" + std::to_string(n++);
    int rc = 0;
    const std::string facts = test::RunCommand(
        std::string(STRATA_ROCKSDB_TXN_WAL_GEN) + " --db=" + db + " --open_txns=2 " + gen_flags,
        &rc);
    ASSERT_EQ(rc, 0) << facts;
    ASSERT_NE(facts.find("PREPARED xid_open1 cf1 cf1_open_key1 cf1_open_value1\n"),
              std::string::npos)
        << facts;
    std::vector<std::string> wals;
    for (const auto& [name, contents] : test::DirectoryContents(db)) {
      uint64_t number = 0;
      if (test::ParseLogFileName(name, &number)) wals.push_back(db + "/" + name);
    }
    ASSERT_FALSE(wals.empty());
    std::string all;
    for (const std::string& wal : wals) {
      for (const char* flags : {"", " --print_value", " --header", " --header --print_value"}) {
        int lrc = 0;
        int src = 0;
        const std::string want = DumpWal(kLdb, wal, flags, &lrc);
        const std::string got = DumpWal(STRATA_TOOL_PATH, wal, flags, &src);
        EXPECT_EQ(got, want) << wal << flags;
        EXPECT_EQ(src, lrc) << wal << flags;
        if (std::string(flags) == " --print_value") all += got;
      }
    }
    // Every marker kind is there (xids in hex: "xid_" is 0x7869645F).
    EXPECT_NE(all.find("BEGIN_PREPARE(false) "), std::string::npos) << all;
    EXPECT_NE(all.find("END_PREPARE(0x7869645F636F6D6D6974) "), std::string::npos) << all;
    EXPECT_NE(all.find("COMMIT(0x7869645F636F6D6D6974) "), std::string::npos) << all;
    EXPECT_NE(all.find("ROLLBACK(0x7869645F726F6C6C6261636B) "), std::string::npos) << all;
    EXPECT_NE(all.find("END_PREPARE(0x7869645F6F70656E31) "), std::string::npos) << all;
    EXPECT_EQ(all.find("COMMIT(0x7869645F6F70656E"), std::string::npos) << all;
  }
}

// The generator's stdout facts hold in RocksDB itself: every KEY reads back
// through ldb, every ABSENT key is not found, and every PREPARED
// transaction's EndPrepare is in the WALs without a Commit or Rollback.
TEST_F(DumpWalTest, GeneratorFactsHoldInRocksDb) {
  if (!HaveLdb()) GTEST_SKIP() << kLdb << " not installed";
  const std::string db = dir_.path() + "/facts";
  int rc = 0;
  const std::string facts = test::RunCommand(
      std::string(STRATA_ROCKSDB_TXN_WAL_GEN) + " --db=" + db + " --open_txns=2 --flush_mid_txn",
      &rc);
  ASSERT_EQ(rc, 0) << facts;
  std::string wal_text;
  for (const auto& [name, contents] : test::DirectoryContents(db)) {
    uint64_t number = 0;
    if (test::ParseLogFileName(name, &number)) {
      wal_text += DumpWal(kLdb, db + "/" + name, "", &rc);
    }
  }
  const std::string copy = dir_.path() + "/facts_copy";
  ASSERT_EQ(system(("cp -a " + db + " " + copy).c_str()), 0);
  std::istringstream in(facts);
  std::string line;
  int keys = 0, absent = 0, prepared = 0;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string kind, a, b, c, d;
    fields >> kind >> a >> b >> c >> d;
    SCOPED_TRACE(line);
    if (kind == "KEY" || kind == "ABSENT") {
      const std::string got =
          Stdout(std::string(kLdb) + " --db=" + copy + " --column_family=" + a + " get " + b, &rc);
      if (kind == "KEY") {
        EXPECT_EQ(got, c + "\n");
        ++keys;
      } else {
        EXPECT_EQ(WEXITSTATUS(rc), 1) << got;
        ++absent;
      }
    } else if (kind == "PREPARED") {
      const std::string xid = StringToHex(a);
      EXPECT_NE(wal_text.find("END_PREPARE(" + xid + ")"), std::string::npos);
      EXPECT_EQ(wal_text.find("COMMIT(" + xid + ")"), std::string::npos);
      EXPECT_EQ(wal_text.find("ROLLBACK(" + xid + ")"), std::string::npos);
      ++prepared;
    } else {
      ADD_FAILURE() << "unknown fact";
    }
  }
  EXPECT_EQ(keys, 7);
  EXPECT_EQ(absent, 8);
  EXPECT_EQ(prepared, 4);
}

// TableView (idump's reader of the WALs) replays the sections as RocksDB's
// WriteCommitted recovery does: the entries equal `ldb idump`'s on a copy
// of the DB (which RocksDB opens; the open transactions stay out).
// With --flush_mid_txn a section's Prepare sits in a WAL older than the
// families' log numbers (kept for it) and its Commit in the newer one.
TEST_F(DumpWalTest, TableViewReplaysCommittedSections) {
  if (!HaveLdb()) GTEST_SKIP() << kLdb << " not installed";
  for (const bool flushed : {false, true}) {
    SCOPED_TRACE(flushed ? "--flush_mid_txn" : "");
    const std::string db = dir_.path() + (flushed ? "/rocksdb_idump_flushed" : "/rocksdb_idump");
    int rc = 0;
    const std::string facts =
        test::RunCommand(std::string(STRATA_ROCKSDB_TXN_WAL_GEN) + " --db=" + db +
                             " --open_txns=2" + (flushed ? " --flush_mid_txn" : ""),
                         &rc);
    ASSERT_EQ(rc, 0) << facts;
    CheckTableViewAgainstLdbIdump(db, flushed);
  }
}

void DumpWalTest::CheckTableViewAgainstLdbIdump(const std::string& db, bool flushed) {
  int rc = 0;
  for (const char* cf : {"default", "cf1"}) {
    SCOPED_TRACE(cf);
    std::unique_ptr<TableView> view;
    ASSERT_TRUE(TableView::Open(db, cf, &view).ok());
    std::vector<InternalEntry> entries;
    const Status s = view->CollectEntries(&entries);
    ASSERT_TRUE(s.ok()) << s.ToString();
    std::string got;
    for (const InternalEntry& e : entries) {
      ParsedInternalKey p;
      ASSERT_TRUE(ParseInternalKey(e.key, &p).ok());
      got += "'" + p.user_key.ToString() + "' seq:" + std::to_string(p.sequence) +
             ", type:" + std::to_string(static_cast<int>(p.type)) + " => " + e.value + "\n";
    }
    got += "Internal keys in range: " + std::to_string(entries.size()) + "\n";
    const std::string copy = dir_.path() + "/idump_copy";
    const std::string want =
        Stdout("rm -rf " + copy + " && cp -a " + db + " " + copy + " && " + kLdb + " --db=" + copy +
                   " --column_family=" + cf + " idump",
               &rc);
    ASSERT_EQ(rc, 0);
    EXPECT_EQ(got, want);
    EXPECT_EQ(got.find("open_key"), std::string::npos);
    EXPECT_EQ(got.find("rollback_key"), std::string::npos);
    if (flushed) {
      EXPECT_NE(got.find("span_"), std::string::npos) << got;
    }
  }
}

// The strata tool opens a RocksDB TransactionDB's directory as ldb does
// (allow_2pc from its OPTIONS file; committed sections replayed, open ones
// kept aside): the same stdout and exit status for read commands, and a
// write that ldb reads back. Needs the transactions layer (the engine's
// recovery of prepared sections comes with it).
TEST_F(DumpWalTest, ToolOpensRocksDbTransactionDbAsLdb) {
  if (!HaveLdb()) GTEST_SKIP() << kLdb << " not installed";
#ifndef STRATA_HAVE_TRANSACTIONS
  GTEST_SKIP() << "this build has no transactions layer";
#endif
  int n = 0;
  for (const char* gen_flags : {"--exit=crash", "--exit=close", "--flush_mid_txn"}) {
    SCOPED_TRACE(gen_flags);
    const std::string db = dir_.path() + "/txndb_" + std::to_string(n++);
    const bool span = std::string(gen_flags) == "--flush_mid_txn";
    int rc = 0;
    const std::string facts = test::RunCommand(
        std::string(STRATA_ROCKSDB_TXN_WAL_GEN) + " --db=" + db + " " + gen_flags, &rc);
    ASSERT_EQ(rc, 0) << facts;
    const std::string copy = dir_.path() + "/txndb_copy";
    // Runs `tool --db=<copy> args` on a fresh copy of db.
    auto run = [&](const char* tool, const std::string& args, int* status) {
      return Stdout("rm -rf " + copy + " && cp -a " + db + " " + copy + " && " + tool +
                        " --db=" + copy + " " + args,
                    status);
    };
    for (const char* args :
         {"scan", "idump", "--column_family=cf1 scan", "--column_family=cf1 idump",
          "get commit_key", "get open_key0", "get rollback_key", "checkconsistency"}) {
      int lrc = 0;
      int src = 0;
      const std::string want = run(kLdb, args, &lrc);
      const std::string got = run(STRATA_TOOL_PATH, args, &src);
      EXPECT_EQ(got, want) << args;
      EXPECT_EQ(src, lrc) << args;
    }
    int lrc = 0;
    int src = 0;
    const std::string ldb_scan = Stdout(std::string(kLdb) + " --db=" + copy + " scan", &lrc);
    const std::string first = span ? "after_flush : after_flush_value\n" : "";
    const std::string last = span ? "span_key : span_value\n" : "";
    EXPECT_EQ(ldb_scan, first + "commit_key : commit_value\ndirect_key : direct_value\n" +
                            "plain : plain_value\n" + last);
    // A write by strata, read back by ldb.
    EXPECT_EQ(run(STRATA_TOOL_PATH, "put newkey v", &src), "OK\n");
    EXPECT_EQ(Stdout(std::string(kLdb) + " --db=" + copy + " scan", &lrc),
              first + "commit_key : commit_value\ndirect_key : direct_value\nnewkey : v\n" +
                  "plain : plain_value\n" + last);
    EXPECT_EQ(lrc, 0);
  }
}
#endif

// ldb refuses a WriteUnprepared marker (0x13) under the default
// --write_committed=true, printing nothing for that batch; strata does too.
TEST_F(DumpWalTest, UnpreparedMarkerRefused) {
  std::vector<ModelBatch> batches(2);
  Model(&batches[0]).Put(0, "a", "1");
  {
    Model m(&batches[1]);
    m.Noop();
    m.Put(0, "b", "2");
    m.EndPrepare("u", true);
  }
  const std::string wal = dir_.path() + "/000009.log";
  std::vector<uint64_t> offsets = WriteWal(wal, &batches, 5);
  // Rewrite the second batch's BeginPrepare (0x09) as BeginUnprepare (0x13).
  std::string contents(WriteBatchInternal::Contents(&batches[1].batch).ToString());
  ASSERT_EQ(contents[WriteBatchInternal::kHeader], static_cast<char>(kTypeBeginPrepareXID));
  contents[WriteBatchInternal::kHeader] = static_cast<char>(kTypeBeginUnprepareXID);
  {
    std::unique_ptr<WritableFile> file;
    ASSERT_TRUE(Env::Default()->GetFileSystem()->NewWritableFile(wal, FileOptions(), &file).ok());
    log::Writer writer(std::move(file), 9, false);
    ASSERT_TRUE(writer.AddRecord(WriteBatchInternal::Contents(&batches[0].batch)).ok());
    ASSERT_TRUE(writer.AddRecord(contents).ok());
    ASSERT_TRUE(writer.Close().ok());
  }
  const std::string first = "5,1,17,0,PUT(0) : 0x61 \n";
  int rc = 0;
  EXPECT_EQ(DumpWal(STRATA_TOOL_PATH, wal, "", &rc), first);
  EXPECT_EQ(WEXITSTATUS(rc), 1);
  if (HaveLdb()) {
    EXPECT_EQ(DumpWal(kLdb, wal, "", &rc), first);
    EXPECT_EQ(WEXITSTATUS(rc), 1);
  }
}

}  // namespace
}  // namespace strata::ldb
