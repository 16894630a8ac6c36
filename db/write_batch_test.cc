// Tests of WriteBatch and WriteBatchInternal: every record type through
// Iterate, counts, Append, RocksDB's exact bytes, and malformed batches
// (each must give a Status naming the offset, never a crash).

#include "strata/write_batch.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "db/write_batch_internal.h"
#include "strata/db.h"
#include "test_util/testutil.h"
#include "util/coding.h"

namespace strata {
namespace {

class FakeColumnFamily : public ColumnFamilyHandle {
 public:
  explicit FakeColumnFamily(uint32_t id) : id_(id), name_("cf" + std::to_string(id)) {}
  const std::string& GetName() const override { return name_; }
  uint32_t GetID() const override { return id_; }

 private:
  uint32_t id_;
  std::string name_;
};

// Records every call as text.
class Recorder : public WriteBatch::Handler {
 public:
  Status PutCF(uint32_t cf, const Slice& key, const Slice& value) override {
    Add("Put", cf, key.ToString() + "," + value.ToString());
    return Status::OK();
  }
  Status DeleteCF(uint32_t cf, const Slice& key) override {
    Add("Delete", cf, key.ToString());
    return Status::OK();
  }
  Status SingleDeleteCF(uint32_t cf, const Slice& key) override {
    Add("SingleDelete", cf, key.ToString());
    return Status::OK();
  }
  Status DeleteRangeCF(uint32_t cf, const Slice& begin, const Slice& end) override {
    Add("DeleteRange", cf, begin.ToString() + "," + end.ToString());
    return Status::OK();
  }
  Status MergeCF(uint32_t cf, const Slice& key, const Slice& value) override {
    Add("Merge", cf, key.ToString() + "," + value.ToString());
    return Status::OK();
  }
  void LogData(const Slice& blob) override { log += "LogData(" + blob.ToString() + ")"; }

  std::string log;

 private:
  void Add(const char* op, uint32_t cf, const std::string& args) {
    log += op;
    log += "(";
    if (cf != 0) log += "cf" + std::to_string(cf) + ":";
    log += args + ")";
  }
};

// Overrides only the plain methods: exercises the Handler defaults.
class PlainRecorder : public WriteBatch::Handler {
 public:
  void Put(const Slice& key, const Slice& value) override {
    log += "Put(" + key.ToString() + "," + value.ToString() + ")";
  }
  void Delete(const Slice& key) override { log += "Delete(" + key.ToString() + ")"; }
  void SingleDelete(const Slice& key) override { log += "SingleDelete(" + key.ToString() + ")"; }
  void DeleteRange(const Slice& begin, const Slice& end) override {
    log += "DeleteRange(" + begin.ToString() + "," + end.ToString() + ")";
  }
  void Merge(const Slice& key, const Slice& value) override {
    log += "Merge(" + key.ToString() + "," + value.ToString() + ")";
  }
  std::string log;
};

std::string PrintContents(const WriteBatch& batch) {
  Recorder r;
  Status s = batch.Iterate(&r);
  if (!s.ok()) return r.log + "<" + s.ToString() + ">";
  return r.log;
}

std::string Hex(const std::string& s) {
  std::string r;
  char buf[4];
  for (unsigned char c : s) {
    snprintf(buf, sizeof(buf), "%02x ", c);
    r += buf;
  }
  if (!r.empty()) r.pop_back();
  return r;
}

TEST(WriteBatchTest, Empty) {
  WriteBatch batch;
  EXPECT_EQ(batch.Count(), 0u);
  EXPECT_EQ(batch.GetDataSize(), WriteBatchInternal::kHeader);
  EXPECT_EQ(batch.Data(), std::string(12, '\0'));
  EXPECT_EQ(PrintContents(batch), "");
  WriteBatch reserved(1000);
  EXPECT_EQ(reserved.GetDataSize(), 12u);
  EXPECT_GE(reserved.Data().capacity(), 1000u);
}

TEST(WriteBatchTest, EveryRecordTypeRoundTrips) {
  FakeColumnFamily cf0(0);
  FakeColumnFamily cf3(3);
  FakeColumnFamily cf_big(300);
  WriteBatch batch;
  ASSERT_OK(batch.Put("k1", "v1"));
  ASSERT_OK(batch.Delete("k2"));
  ASSERT_OK(batch.SingleDelete("k3"));
  ASSERT_OK(batch.DeleteRange("a", "b"));
  ASSERT_OK(batch.Merge("k4", "m"));
  ASSERT_OK(batch.PutLogData("blob"));
  ASSERT_OK(batch.Put(&cf3, "k5", "v5"));
  ASSERT_OK(batch.Delete(&cf3, "k6"));
  ASSERT_OK(batch.SingleDelete(&cf_big, "k7"));
  ASSERT_OK(batch.DeleteRange(&cf3, "c", "d"));
  ASSERT_OK(batch.Merge(&cf_big, "k8", "n"));
  ASSERT_OK(batch.Put(&cf0, "k9", "v9"));
  ASSERT_OK(batch.Put(nullptr, "", ""));
  EXPECT_EQ(batch.Count(), 12u);
  EXPECT_EQ(PrintContents(batch),
            "Put(k1,v1)Delete(k2)SingleDelete(k3)DeleteRange(a,b)Merge(k4,m)LogData("
            "blob)"
            "Put(cf3:k5,v5)Delete(cf3:k6)SingleDelete(cf300:k7)DeleteRange(cf3:c,d)"
            "Merge(cf300:k8,n)Put(k9,v9)Put(,)");
  // Family 0 by handle uses the plain tag: the same bytes as without one.
  WriteBatch by_handle;
  WriteBatch plain;
  ASSERT_OK(by_handle.Put(&cf0, "k", "v"));
  ASSERT_OK(plain.Put("k", "v"));
  EXPECT_EQ(by_handle.Data(), plain.Data());
}

TEST(WriteBatchTest, BinaryKeysAndValues) {
  WriteBatch batch;
  const std::string key("\0k\xff", 3);
  const std::string value(300, '\x80');  // varint length takes two bytes
  ASSERT_OK(batch.Put(key, value));
  struct Check : WriteBatch::Handler {
    void Put(const Slice& k, const Slice& v) override {
      key = k.ToString();
      value = v.ToString();
    }
    std::string key, value;
  } check;
  ASSERT_OK(batch.Iterate(&check));
  EXPECT_EQ(check.key, key);
  EXPECT_EQ(check.value, value);
}

TEST(WriteBatchTest, LogDataAndNoopAreNotCounted) {
  WriteBatch batch;
  ASSERT_OK(batch.PutLogData("x"));
  EXPECT_EQ(batch.Count(), 0u);
  ASSERT_OK(batch.Put("k", "v"));
  std::string rep = batch.Data();
  rep.push_back(static_cast<char>(kTypeNoop));
  WriteBatch with_noop(rep);
  EXPECT_EQ(with_noop.Count(), 1u);
  EXPECT_EQ(PrintContents(with_noop), "LogData(x)Put(k,v)");
}

TEST(WriteBatchTest, SequenceAndCount) {
  WriteBatch batch;
  ASSERT_OK(batch.Put("a", "1"));
  ASSERT_OK(batch.Put("b", "2"));
  WriteBatchInternal::SetSequence(&batch, 0x0123456789abcdefull);
  EXPECT_EQ(WriteBatchInternal::Sequence(&batch), 0x0123456789abcdefull);
  EXPECT_EQ(WriteBatchInternal::Count(&batch), 2u);
  EXPECT_EQ(DecodeFixed64(batch.Data().data()), 0x0123456789abcdefull);
  EXPECT_EQ(DecodeFixed32(batch.Data().data() + 8), 2u);
  WriteBatchInternal::SetCount(&batch, 7);
  EXPECT_EQ(batch.Count(), 7u);
  EXPECT_EQ(WriteBatchInternal::ByteSize(&batch), batch.Data().size());
  EXPECT_EQ(WriteBatchInternal::Contents(&batch), Slice(batch.Data()));
}

TEST(WriteBatchTest, Clear) {
  WriteBatch batch;
  ASSERT_OK(batch.Put("a", "1"));
  WriteBatchInternal::SetSequence(&batch, 9);
  batch.Clear();
  EXPECT_EQ(batch.Data(), std::string(12, '\0'));
  EXPECT_EQ(batch.Count(), 0u);
}

TEST(WriteBatchTest, CopyAndMove) {
  WriteBatch batch;
  ASSERT_OK(batch.Put("a", "1"));
  WriteBatch copy(batch);
  EXPECT_EQ(copy.Data(), batch.Data());
  WriteBatch assigned;
  assigned = batch;
  EXPECT_EQ(assigned.Data(), batch.Data());
  WriteBatch moved(std::move(copy));
  EXPECT_EQ(PrintContents(moved), "Put(a,1)");
  // A moved-from batch is empty and usable.
  EXPECT_EQ(copy.Count(), 0u);  // NOLINT(bugprone-use-after-move)
  ASSERT_OK(copy.Delete("x"));
  EXPECT_EQ(PrintContents(copy), "Delete(x)");
  WriteBatch move_assigned;
  move_assigned = std::move(assigned);
  EXPECT_EQ(PrintContents(move_assigned), "Put(a,1)");
  EXPECT_EQ(assigned.GetDataSize(), 12u);  // NOLINT(bugprone-use-after-move)
}

TEST(WriteBatchTest, Append) {
  WriteBatch dst;
  WriteBatch src;
  WriteBatchInternal::SetSequence(&dst, 200);
  WriteBatchInternal::SetSequence(&src, 300);
  WriteBatchInternal::Append(&dst, &src);
  EXPECT_EQ(dst.Count(), 0u);
  EXPECT_EQ(PrintContents(dst), "");
  ASSERT_OK(src.Put("a", "va"));
  WriteBatchInternal::Append(&dst, &src);
  EXPECT_EQ(PrintContents(dst), "Put(a,va)");
  EXPECT_EQ(dst.Count(), 1u);
  src.Clear();
  ASSERT_OK(src.Put("b", "vb"));
  ASSERT_OK(src.PutLogData("blob"));
  ASSERT_OK(src.Delete("c"));
  WriteBatchInternal::Append(&dst, &src);
  EXPECT_EQ(PrintContents(dst), "Put(a,va)Put(b,vb)LogData(blob)Delete(c)");
  EXPECT_EQ(dst.Count(), 3u);
  EXPECT_EQ(WriteBatchInternal::Sequence(&dst), 200u);
  EXPECT_EQ(dst.GetDataSize(), 12 + (src.GetDataSize() - 12) + (1 + 2 + 3));
}

TEST(WriteBatchTest, SetContents) {
  WriteBatch batch;
  Status s = WriteBatchInternal::SetContents(&batch, Slice("short", 5));
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_EQ(s.ToString(), "Corruption: log record too small");
  WriteBatch src;
  ASSERT_OK(src.Merge("k", "v"));
  ASSERT_OK(WriteBatchInternal::SetContents(&batch, src.Data()));
  EXPECT_EQ(batch.Data(), src.Data());
  EXPECT_EQ(PrintContents(batch), "Merge(k,v)");
}

TEST(WriteBatchTest, HandlerDefaults) {
  FakeColumnFamily cf2(2);
  WriteBatch batch;
  ASSERT_OK(batch.Put("a", "1"));
  ASSERT_OK(batch.Delete("b"));
  ASSERT_OK(batch.SingleDelete("c"));
  ASSERT_OK(batch.DeleteRange("d", "e"));
  ASSERT_OK(batch.Merge("f", "2"));
  ASSERT_OK(batch.PutLogData("ignored by default"));
  PlainRecorder plain;
  ASSERT_OK(batch.Iterate(&plain));
  EXPECT_EQ(plain.log, "Put(a,1)Delete(b)SingleDelete(c)DeleteRange(d,e)Merge(f,2)");

  // Other families are refused by the defaults.
  for (int op = 0; op < 5; op++) {
    WriteBatch cf_batch;
    switch (op) {
      case 0:
        ASSERT_OK(cf_batch.Put(&cf2, "k", "v"));
        break;
      case 1:
        ASSERT_OK(cf_batch.Delete(&cf2, "k"));
        break;
      case 2:
        ASSERT_OK(cf_batch.SingleDelete(&cf2, "k"));
        break;
      case 3:
        ASSERT_OK(cf_batch.DeleteRange(&cf2, "k", "l"));
        break;
      case 4:
        ASSERT_OK(cf_batch.Merge(&cf2, "k", "v"));
        break;
    }
    PlainRecorder r;
    Status s = cf_batch.Iterate(&r);
    EXPECT_TRUE(s.IsInvalidArgument()) << op << " " << s.ToString();
    EXPECT_EQ(r.log, "");
  }
  // The base Handler accepts everything of family 0 and does nothing.
  WriteBatch::Handler base;
  ASSERT_OK(batch.Iterate(&base));
}

TEST(WriteBatchTest, HandlerErrorStopsIteration) {
  struct Failing : WriteBatch::Handler {
    Status DeleteCF(uint32_t, const Slice&) override { return Status::Busy("no"); }
    void Put(const Slice& k, const Slice&) override { seen += k.ToString(); }
    std::string seen;
  } h;
  WriteBatch batch;
  ASSERT_OK(batch.Put("a", "1"));
  ASSERT_OK(batch.Delete("b"));
  ASSERT_OK(batch.Put("c", "1"));
  Status s = batch.Iterate(&h);
  EXPECT_TRUE(s.IsBusy());
  EXPECT_EQ(h.seen, "a");
}

TEST(WriteBatchTest, ContinueFalseStopsEarly) {
  struct StopAfterTwo : WriteBatch::Handler {
    void Put(const Slice& k, const Slice&) override { seen += k.ToString(); }
    bool Continue() override { return seen.size() < 2; }
    std::string seen;
  } h;
  WriteBatch batch;
  for (const char* k : {"a", "b", "c", "d"}) ASSERT_OK(batch.Put(k, "v"));
  ASSERT_OK(batch.Iterate(&h));
  EXPECT_EQ(h.seen, "ab");
}

// ---- wire bytes ----

TEST(WriteBatchTest, PutBytesMatchRocksDb) {
  // The payload of the 30-byte RocksDB WAL of docs/format/write_batch.md.
  WriteBatch batch;
  ASSERT_OK(batch.Put("k5", "value5"));
  WriteBatchInternal::SetSequence(&batch, 5);
  EXPECT_EQ(Hex(batch.Data()),
            "05 00 00 00 00 00 00 00 01 00 00 00 01 02 6b 35 06 76 61 6c 75 65 35");
}

TEST(WriteBatchTest, RecordBytes) {
  FakeColumnFamily cf(300);  // varint 0xac 0x02
  WriteBatch batch;
  ASSERT_OK(batch.Delete("k5"));
  ASSERT_OK(batch.Merge("k", "m"));
  ASSERT_OK(batch.SingleDelete("s"));
  ASSERT_OK(batch.DeleteRange("a", "b"));
  ASSERT_OK(batch.PutLogData("L"));
  ASSERT_OK(batch.Put(&cf, "k", "v"));
  ASSERT_OK(batch.Delete(&cf, "k"));
  ASSERT_OK(batch.Merge(&cf, "k", "m"));
  ASSERT_OK(batch.SingleDelete(&cf, "k"));
  ASSERT_OK(batch.DeleteRange(&cf, "a", "b"));
  WriteBatchInternal::SetSequence(&batch, 0x0102);
  EXPECT_EQ(Hex(batch.Data()),
            "02 01 00 00 00 00 00 00 09 00 00 00 "  // seq 0x102, count 9
            "00 02 6b 35 "                          // Delete k5
            "02 01 6b 01 6d "                       // Merge k m
            "07 01 73 "                             // SingleDelete s
            "0f 01 61 01 62 "                       // DeleteRange a b
            "03 01 4c "                             // LogData L
            "05 ac 02 01 6b 01 76 "                 // CF Put
            "04 ac 02 01 6b "                       // CF Delete
            "06 ac 02 01 6b 01 6d "                 // CF Merge
            "08 ac 02 01 6b "                       // CF SingleDelete
            "0e ac 02 01 61 01 62");                // CF DeleteRange
}

TEST(WriteBatchTest, OversizedKeyOrValue) {
  // Only the size is looked at before the check, so a fake slice will do.
  const char small[1] = {'x'};
  const Slice huge(small, size_t{1} << 32);
  WriteBatch batch;
  EXPECT_TRUE(batch.Put(huge, "v").IsInvalidArgument());
  EXPECT_TRUE(batch.Put("k", huge).IsInvalidArgument());
  EXPECT_TRUE(batch.Delete(huge).IsInvalidArgument());
  EXPECT_TRUE(batch.SingleDelete(huge).IsInvalidArgument());
  EXPECT_TRUE(batch.DeleteRange(huge, "b").IsInvalidArgument());
  EXPECT_TRUE(batch.DeleteRange("a", huge).IsInvalidArgument());
  EXPECT_TRUE(batch.Merge(huge, "v").IsInvalidArgument());
  EXPECT_TRUE(batch.Merge("k", huge).IsInvalidArgument());
  EXPECT_TRUE(batch.PutLogData(huge).IsInvalidArgument());
  EXPECT_EQ(batch.Count(), 0u);
  EXPECT_EQ(batch.GetDataSize(), 12u);
}

// ---- malformed batches ----

TEST(WriteBatchTest, TooSmall) {
  for (size_t n = 0; n < 12; n++) {
    WriteBatch batch(std::string(n, '\0'));
    Recorder r;
    Status s = batch.Iterate(&r);
    EXPECT_TRUE(s.IsCorruption());
    EXPECT_EQ(s.ToString(), "Corruption: log record too small");
    EXPECT_EQ(batch.Count(), 0u);
    // Adding to such a batch starts from a fresh header.
    ASSERT_OK(batch.Put("k", "v"));
    EXPECT_EQ(PrintContents(batch), "Put(k,v)");
  }
}

TEST(WriteBatchTest, WrongCount) {
  WriteBatch batch;
  ASSERT_OK(batch.Put("a", "1"));
  ASSERT_OK(batch.Delete("b"));
  for (uint32_t count : {0u, 1u, 3u, 0xffffffffu}) {
    WriteBatch bad(batch.Data());
    WriteBatchInternal::SetCount(&bad, count);
    Recorder r;
    Status s = bad.Iterate(&r);
    EXPECT_TRUE(s.IsCorruption());
    EXPECT_EQ(s.ToString(), "Corruption: WriteBatch has wrong count");
  }
}

TEST(WriteBatchTest, UnknownTag) {
  for (unsigned char tag : {0x14, 0x18, 0x7f, 0xff}) {
    WriteBatch batch;
    ASSERT_OK(batch.Put("a", "1"));
    std::string rep = batch.Data();
    const size_t offset = rep.size();
    rep.push_back(static_cast<char>(tag));
    rep += "junk";
    WriteBatch bad(rep);
    Recorder r;
    Status s = bad.Iterate(&r);
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    char expected[80];
    snprintf(expected, sizeof(expected), "Corruption: unknown WriteBatch tag 0x%02x: offset %zu",
             tag, offset);
    EXPECT_EQ(s.ToString(), expected);
    EXPECT_EQ(r.log, "Put(a,1)");
  }
}

// Records Strata never writes but RocksDB may have (blob index, wide-column
// entity, Commit with a timestamp) are decoded and handed to the handler;
// the defaults refuse them as RocksDB's do. They count as records (the
// Commit marker does not).
TEST(WriteBatchTest, RocksDBOnlyRecords) {
  struct Taker : Recorder {
    Status PutEntityCF(uint32_t cf, const Slice& key, const Slice& entity) override {
      log += "Entity(" + std::to_string(cf) + "," + key.ToString() + "," + entity.ToString() + ")";
      return Status::OK();
    }
    Status PutBlobIndexCF(uint32_t cf, const Slice& key, const Slice& value) override {
      log += "Blob(" + std::to_string(cf) + "," + key.ToString() + "," + value.ToString() + ")";
      return Status::OK();
    }
    Status MarkCommitWithTimestamp(const Slice& xid, const Slice& ts) override {
      log += "CommitTs(" + xid.ToString() + "," + ts.ToString() + ")";
      return Status::OK();
    }
  };
  struct Case {
    std::string record;  // tag and body
    bool counted;
    std::string taken;    // Taker's log
    std::string refusal;  // the default handler's Status
  };
  const std::vector<Case> cases = {
      {std::string("\x11\x01k\x01v", 5), true, "Blob(0,k,v)",
       "Invalid argument: PutBlobIndexCF not implemented"},
      {std::string("\x10\x03\x01k\x01v", 6), true, "Blob(3,k,v)",
       "Invalid argument: PutBlobIndexCF not implemented"},
      {std::string("\x16\x01k\x01w", 5), true, "Entity(0,k,w)",
       "Not implemented: PutEntityCF not implemented"},
      {std::string("\x17\x02\x01k\x01w", 6), true, "Entity(2,k,w)",
       "Not implemented: PutEntityCF not implemented"},
      {std::string("\x15\x02ts\x03xid", 8), false, "CommitTs(xid,ts)",
       "Invalid argument: MarkCommitWithTimestamp() handler not defined."},
  };
  for (const Case& c : cases) {
    WriteBatch batch;
    ASSERT_OK(batch.Delete("x"));
    std::string rep = batch.Data() + c.record;
    if (c.counted) WriteBatchInternal::SetCount(&batch, 2);
    rep.replace(0, 12, batch.Data().substr(0, 12));
    Taker taker;
    ASSERT_OK(WriteBatch(rep).Iterate(&taker));
    EXPECT_EQ(taker.log, "Delete(x)" + c.taken);
    Recorder plain;
    Status s = WriteBatch(rep).Iterate(&plain);
    EXPECT_EQ(s.ToString(), c.refusal);
    // A truncated record is Corruption naming its offset.
    std::string cut = rep.substr(0, rep.size() - 1);
    s = WriteBatch(cut).Iterate(&taker);
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    EXPECT_NE(s.ToString().find("offset 15"), std::string::npos) << s.ToString();
  }
  WriteBatch entity(
      std::string(cases[2].record).insert(0, std::string("\0\0\0\0\0\0\0\0\x01\0\0\0", 12)));
  EXPECT_TRUE(entity.HasPutEntity());
  EXPECT_FALSE(entity.HasPut());
}

// The content flags answer for the records present, whichever way the
// batch was made (calls, bytes, copies, save points).
TEST(WriteBatchTest, ContentFlags) {
  auto flags = [](const WriteBatch& b) {
    std::string f;
    f += b.HasPut() ? "P" : "-";
    f += b.HasDelete() ? "D" : "-";
    f += b.HasSingleDelete() ? "S" : "-";
    f += b.HasDeleteRange() ? "R" : "-";
    f += b.HasMerge() ? "M" : "-";
    f += b.HasBeginPrepare() ? "B" : "-";
    f += b.HasEndPrepare() ? "E" : "-";
    f += b.HasCommit() ? "C" : "-";
    f += b.HasRollback() ? "X" : "-";
    f += b.HasPutEntity() ? "W" : "-";
    return f;
  };
  WriteBatch b;
  EXPECT_EQ(flags(b), "----------");
  ASSERT_OK(b.PutLogData("blob"));
  EXPECT_EQ(flags(b), "----------");
  ASSERT_OK(b.Put("a", "1"));
  EXPECT_EQ(flags(b), "P---------");
  b.SetSavePoint();
  FakeColumnFamily cf(3);
  ASSERT_OK(b.Delete(&cf, "b"));
  ASSERT_OK(b.SingleDelete("c"));
  ASSERT_OK(b.DeleteRange("d", "e"));
  ASSERT_OK(b.Merge(&cf, "f", "g"));
  EXPECT_EQ(flags(b), "PDSRM-----");
  EXPECT_EQ(flags(WriteBatch(b)), "PDSRM-----");
  EXPECT_EQ(flags(WriteBatch(b.Data())), "PDSRM-----");
  ASSERT_OK(b.RollbackToSavePoint());
  EXPECT_EQ(flags(b), "P---------");
  b.Clear();
  EXPECT_EQ(flags(b), "----------");

  WriteBatch txn;
  WriteBatchInternal::InsertNoop(&txn);
  ASSERT_OK(txn.Put("k", "v"));
  ASSERT_OK(WriteBatchInternal::MarkEndPrepare(&txn, "x1"));
  EXPECT_EQ(flags(txn), "P----BE---");
  ASSERT_OK(WriteBatchInternal::MarkCommit(&txn, "x1"));
  EXPECT_EQ(flags(txn), "P----BEC--");
  WriteBatch rollback;
  ASSERT_OK(WriteBatchInternal::MarkRollback(&rollback, "x1"));
  EXPECT_EQ(flags(rollback), "--------X-");
}

// The WAL termination point is a SavePoint: size, count and the content
// flags of the records before it (RocksDB's bits); Clear clears it.
TEST(WriteBatchTest, WalTerminationPointIsASavePoint) {
  WriteBatch b;
  EXPECT_TRUE(b.GetWalTerminationPoint().is_cleared());
  ASSERT_OK(b.Put("a", "1"));
  ASSERT_OK(b.Delete("b"));
  b.MarkWalTerminationPoint();
  const SavePoint& wp = b.GetWalTerminationPoint();
  EXPECT_EQ(wp.size, b.GetDataSize());
  EXPECT_EQ(wp.count, 2);
  EXPECT_EQ(wp.content_flags, (1u << 1) | (1u << 2));  // HAS_PUT | HAS_DELETE
  ASSERT_OK(b.Merge("c", "2"));
  EXPECT_EQ(b.GetWalTerminationPoint().count, 2);
  b.Clear();
  EXPECT_TRUE(b.GetWalTerminationPoint().is_cleared());
}

// The full constructor: reserved and max_bytes work; protection and a
// default-family timestamp size are recorded, VerifyChecksum answers OK
// only without protection.
TEST(WriteBatchTest, FullConstructor) {
  WriteBatch plain(100, 40, 0, 0);
  EXPECT_EQ(plain.GetProtectionBytesPerKey(), 0u);
  ASSERT_OK(plain.VerifyChecksum());
  ASSERT_OK(plain.Put("a", "1"));
  EXPECT_TRUE(plain.Put("b", std::string(40, 'x')).IsMemoryLimit());
  WriteBatch protected_batch(0, 0, 8, 0);
  EXPECT_EQ(protected_batch.GetProtectionBytesPerKey(), 8u);
  EXPECT_TRUE(protected_batch.VerifyChecksum().IsNotSupported());
  WriteBatch moved(std::move(protected_batch));
  EXPECT_EQ(moved.GetProtectionBytesPerKey(), 8u);
  WriteBatch copied(moved);
  EXPECT_EQ(copied.GetProtectionBytesPerKey(), 8u);
  EXPECT_OK(WriteBatchInternal::CheckWritable(&plain));
  Status s = WriteBatchInternal::CheckWritable(&moved);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(s.ToString().find("protection_bytes_per_key=8"), std::string::npos);
  WriteBatch odd(0, 0, 3, 0);
  s = WriteBatchInternal::CheckWritable(&odd);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("protection_bytes_per_key must be 0 or 8"), std::string::npos);
  WriteBatch ts(0, 0, 0, 8);
  s = WriteBatchInternal::CheckWritable(&ts);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(s.ToString().find("default_cf_ts_sz"), std::string::npos);
}

// UpdateTimestamps overwrites the trailing bytes of the keys of the
// families whose size matches, skips size-0 families, and answers
// NotFound / InvalidArgument as RocksDB.
TEST(WriteBatchTest, UpdateTimestamps) {
  FakeColumnFamily cf(1);
  WriteBatch b;
  ASSERT_OK(b.Put("k1TTTT", "v"));
  ASSERT_OK(b.Put(&cf, "k2", "v"));
  ASSERT_OK(b.DeleteRange("aTTTT", "bTTTT"));
  ASSERT_OK(b.UpdateTimestamps("0042", [](uint32_t id) -> size_t { return id == 0 ? 4 : 0; }));
  Recorder r;
  ASSERT_OK(b.Iterate(&r));
  EXPECT_EQ(r.log, "Put(k10042,v)Put(cf1:k2,v)DeleteRange(a0042,b0042)");
  EXPECT_TRUE(b.UpdateTimestamps("00", [](uint32_t) -> size_t { return SIZE_MAX; }).IsNotFound());
  EXPECT_TRUE(b.UpdateTimestamps("00", [](uint32_t) -> size_t { return 4; }).IsInvalidArgument());
  EXPECT_TRUE(b.UpdateTimestamps("", [](uint32_t) -> size_t { return 0; }).IsInvalidArgument());
  ASSERT_OK(WriteBatch().UpdateTimestamps("", nullptr));
}

// The two-phase-commit markers reach the handler in order, with their
// transaction names; they are not counted; a handler that does not take
// them stops the iteration with RocksDB's InvalidArgument.
TEST(WriteBatchTest, TwoPhaseCommitMarkers) {
  struct MarkerRecorder : WriteBatch::Handler {
    std::string log;
    Status PutCF(uint32_t cf, const Slice& k, const Slice& v) override {
      log += "Put(" + std::to_string(cf) + "," + k.ToString() + "," + v.ToString() + ")";
      return Status::OK();
    }
    Status MarkBeginPrepare(bool unprepare) override {
      log += unprepare ? "BeginUnprepare " : "BeginPrepare ";
      return Status::OK();
    }
    Status MarkEndPrepare(const Slice& xid) override {
      log += " EndPrepare(" + xid.ToString() + ")";
      return Status::OK();
    }
    Status MarkCommit(const Slice& xid) override {
      log += "Commit(" + xid.ToString() + ")";
      return Status::OK();
    }
    Status MarkRollback(const Slice& xid) override {
      log += "Rollback(" + xid.ToString() + ")";
      return Status::OK();
    }
    Status MarkNoop(bool empty) override {
      log += empty ? "Noop(empty) " : "Noop ";
      return Status::OK();
    }
  };
  WriteBatch prepared;
  WriteBatchInternal::InsertNoop(&prepared);
  ASSERT_OK(WriteBatchInternal::Put(&prepared, 0, "a", "1"));
  ASSERT_OK(WriteBatchInternal::Put(&prepared, 3, "b", "2"));
  ASSERT_OK(WriteBatchInternal::MarkEndPrepare(&prepared, "xid1"));
  EXPECT_EQ(2u, prepared.Count());
  MarkerRecorder r;
  ASSERT_OK(prepared.Iterate(&r));
  EXPECT_EQ("BeginPrepare Put(0,a,1)Put(3,b,2) EndPrepare(xid1)", r.log);

  // Without the placeholder the marker is inserted at the front.
  WriteBatch plain;
  ASSERT_OK(plain.Put("k", "v"));
  ASSERT_OK(WriteBatchInternal::MarkEndPrepare(&plain, "x"));
  r.log.clear();
  ASSERT_OK(plain.Iterate(&r));
  EXPECT_EQ("BeginPrepare Put(0,k,v) EndPrepare(x)", r.log);

  WriteBatch commit;
  ASSERT_OK(WriteBatchInternal::MarkCommit(&commit, "xid1"));
  ASSERT_OK(WriteBatchInternal::MarkRollback(&commit, "xid2"));
  WriteBatchInternal::InsertNoop(&commit);
  r.log.clear();
  ASSERT_OK(commit.Iterate(&r));
  EXPECT_EQ("Commit(xid1)Rollback(xid2)Noop(empty) ", r.log);
  EXPECT_EQ(0u, commit.Count());

  // RocksDB's default handler refuses the transaction markers.
  Recorder plain_handler;
  Status s = prepared.Iterate(&plain_handler);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("MarkBeginPrepare() handler not defined"), std::string::npos);

  // A cut xid is Corruption naming the offset.
  std::string rep = commit.Data().substr(0, 14);
  s = WriteBatch(rep).Iterate(&r);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.ToString().find("offset 12"), std::string::npos) << s.ToString();
}

// The WAL termination point: what is appended after it stays out of the
// WAL view (Append with wal_only, WalPart) but in the batch.
TEST(WriteBatchTest, WalTerminationPoint) {
  WriteBatch b;
  ASSERT_OK(WriteBatchInternal::MarkCommit(&b, "t"));
  b.MarkWalTerminationPoint();
  ASSERT_OK(b.Put("a", "1"));
  ASSERT_OK(b.Put("b", "2"));
  EXPECT_TRUE(WriteBatchInternal::HasWalTerminationPoint(&b));
  WriteBatch wal;
  WriteBatchInternal::WalPart(&b, &wal);
  EXPECT_EQ(0u, wal.Count());
  // The same records; only the header's count differs.
  EXPECT_EQ(b.Data().substr(12, wal.Data().size() - 12), wal.Data().substr(12));
  WriteBatch group;
  ASSERT_OK(group.Put("x", "y"));
  WriteBatchInternal::Append(&group, &b, /*wal_only=*/true);
  EXPECT_EQ(1u, group.Count());
  WriteBatchInternal::Append(&group, &b);
  EXPECT_EQ(3u, group.Count());
  b.Clear();
  EXPECT_FALSE(WriteBatchInternal::HasWalTerminationPoint(&b));
}

// Cuts a batch holding every record type at every byte: each cut inside a
// record is Corruption naming that record's offset; a cut between records
// is a wrong count. Never a crash (run under ASan to be sure).
TEST(WriteBatchTest, TruncatedAtEveryByte) {
  FakeColumnFamily cf(200);
  WriteBatch batch;
  std::vector<size_t> starts;  // record start offsets
  auto mark = [&] { starts.push_back(batch.GetDataSize()); };
  mark();
  ASSERT_OK(batch.Put("key1", std::string(200, 'v')));
  mark();
  ASSERT_OK(batch.Delete("key2"));
  mark();
  ASSERT_OK(batch.SingleDelete("key3"));
  mark();
  ASSERT_OK(batch.DeleteRange("b1", "e1"));
  mark();
  ASSERT_OK(batch.Merge("key4", "mm"));
  mark();
  ASSERT_OK(batch.PutLogData("blob"));
  mark();
  ASSERT_OK(batch.Put(&cf, "key5", "v5"));
  mark();
  ASSERT_OK(batch.Delete(&cf, "key6"));
  mark();
  ASSERT_OK(batch.SingleDelete(&cf, "key7"));
  mark();
  ASSERT_OK(batch.DeleteRange(&cf, "b2", "e2"));
  mark();
  ASSERT_OK(batch.Merge(&cf, "key8", "mm"));
  const size_t end = batch.GetDataSize();
  ASSERT_EQ(PrintContents(batch).find('<'), std::string::npos) << PrintContents(batch);

  for (size_t cut = 12; cut < end; cut++) {
    // Copy into an exactly sized heap buffer so ASan sees any overread.
    WriteBatch truncated(std::string(batch.Data().data(), cut));
    Recorder r;
    Status s = truncated.Iterate(&r);
    ASSERT_TRUE(s.IsCorruption()) << cut << " " << s.ToString();
    const bool at_boundary = std::find(starts.begin(), starts.end(), cut) != starts.end();
    if (at_boundary) {
      EXPECT_EQ(s.ToString(), "Corruption: WriteBatch has wrong count") << cut;
    } else {
      size_t record_start = 0;
      for (size_t st : starts) {
        if (st < cut) record_start = st;
      }
      EXPECT_NE(s.ToString().find("offset " + std::to_string(record_start)), std::string::npos)
          << cut << " " << s.ToString();
    }
  }
}

// A length running past the end of the batch.
TEST(WriteBatchTest, LengthPastEnd) {
  WriteBatch batch;
  ASSERT_OK(batch.Put("k", "value"));
  std::string rep = batch.Data();
  rep[12 + 1 + 1 + 1] = 100;  // value length 100, 5 bytes present
  Recorder r;
  Status s = WriteBatch(rep).Iterate(&r);
  EXPECT_EQ(s.ToString(), "Corruption: bad WriteBatch Put: offset 12");
  // An over-long varint.
  rep = batch.Data();
  rep.resize(13);
  rep += std::string(6, '\xff');
  s = WriteBatch(rep).Iterate(&r);
  EXPECT_EQ(s.ToString(), "Corruption: bad WriteBatch Put: offset 12");
}

TEST(WriteBatchTest, RandomGarbageNeverCrashes) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  WriteBatch good;
  ASSERT_OK(good.Put("key", "value"));
  ASSERT_OK(good.Delete("key2"));
  ASSERT_OK(good.Merge("key3", "m"));
  int ok = 0;
  for (int i = 0; i < 20000; i++) {
    std::string rep = good.Data();
    // Damage a few bytes after the header, or append garbage.
    const int flips = 1 + static_cast<int>(rng() % 3);
    for (int f = 0; f < flips; f++) {
      const size_t pos = 12 + rng() % (rep.size() - 12);
      rep[pos] = static_cast<char>(rng());
    }
    if (rng() % 4 == 0) rep += test::RandomBytes(&rng, rng() % 8);
    if (rng() % 4 == 0) rep.resize(12 + rng() % (rep.size() - 11));
    Recorder r;
    Status s = WriteBatch(std::string(rep)).Iterate(&r);
    if (s.ok()) {
      ok++;
    } else {
      // InvalidArgument: a damaged byte became a two-phase-commit marker
      // or a blob index, which the test's handler (as RocksDB's default)
      // does not take.
      EXPECT_TRUE(s.IsCorruption() || s.IsNotSupported() ||
                  (s.IsInvalidArgument() &&
                   (s.ToString().find("handler not defined") != std::string::npos ||
                    s.ToString().find("PutBlobIndexCF not implemented") != std::string::npos)))
          << s.ToString();
    }
  }
  // Damage that keeps the batch well formed (e.g. inside a key) is fine.
  EXPECT_GT(ok, 0);
}

// ---- save points ----

TEST(WriteBatchTest, SavePointsWithoutOneAreNotFound) {
  WriteBatch b;
  EXPECT_TRUE(b.RollbackToSavePoint().IsNotFound());
  EXPECT_TRUE(b.PopSavePoint().IsNotFound());
  ASSERT_OK(b.Put("a", "1"));
  b.SetSavePoint();
  ASSERT_OK(b.Put("b", "2"));
  b.Clear();  // drops the save point
  EXPECT_TRUE(b.RollbackToSavePoint().IsNotFound());
  EXPECT_EQ(b.Count(), 0u);
}

TEST(WriteBatchTest, RollbackRestoresBytesAndCount) {
  FakeColumnFamily cf3(3);
  WriteBatch b;
  ASSERT_OK(b.Put("k1", "v1"));
  b.SetSavePoint();
  const std::string at_save = b.Data();
  ASSERT_OK(b.Delete(&cf3, "k2"));
  ASSERT_OK(b.Merge("k3", "m"));
  ASSERT_OK(b.PutLogData("blob"));
  b.SetSavePoint();
  ASSERT_OK(b.DeleteRange("a", "z"));
  EXPECT_EQ(b.Count(), 4u);
  ASSERT_OK(b.RollbackToSavePoint());
  EXPECT_EQ(b.Count(), 3u);
  ASSERT_OK(b.RollbackToSavePoint());
  EXPECT_EQ(b.Data(), at_save);
  EXPECT_EQ(b.Count(), 1u);
  Recorder r;
  ASSERT_OK(b.Iterate(&r));
  EXPECT_EQ(r.log, "Put(k1,v1)");
  EXPECT_TRUE(b.RollbackToSavePoint().IsNotFound());
}

// Random operations against a model: the list of records and a stack of
// record counts at each save point. After every step the batch must equal
// one rebuilt from the model's records.
TEST(WriteBatchTest, RandomizedSavePointsMatchModel) {
  std::mt19937_64 rng(301);
  FakeColumnFamily cf5(5);
  struct Rec {
    int op;
    bool cf;
    std::string key, value;
  };
  auto apply = [&](WriteBatch* b, const Rec& r) {
    ColumnFamilyHandle* h = r.cf ? &cf5 : nullptr;
    switch (r.op) {
      case 0:
        return b->Put(h, r.key, r.value);
      case 1:
        return b->Delete(h, r.key);
      case 2:
        return b->Merge(h, r.key, r.value);
      case 3:
        return b->SingleDelete(h, r.key);
      default:
        return b->PutLogData(r.value);
    }
  };
  for (int round = 0; round < 50; round++) {
    WriteBatch b;
    std::vector<Rec> model;
    std::vector<size_t> saves;
    for (int step = 0; step < 200; step++) {
      const int action = static_cast<int>(rng() % 10);
      if (action < 6) {
        Rec r{static_cast<int>(rng() % 5), rng() % 2 == 0, "k" + std::to_string(rng() % 50),
              test::RandomBytes(&rng, rng() % 20)};
        ASSERT_OK(apply(&b, r));
        model.push_back(r);
      } else if (action == 6 || action == 7) {
        b.SetSavePoint();
        saves.push_back(model.size());
      } else if (action == 8) {
        Status s = b.RollbackToSavePoint();
        if (saves.empty()) {
          ASSERT_TRUE(s.IsNotFound());
        } else {
          ASSERT_OK(s);
          model.resize(saves.back());
          saves.pop_back();
        }
      } else {
        Status s = b.PopSavePoint();
        if (saves.empty()) {
          ASSERT_TRUE(s.IsNotFound());
        } else {
          ASSERT_OK(s);
          saves.pop_back();
        }
      }
      WriteBatch expected;
      uint32_t count = 0;
      for (const Rec& r : model) {
        ASSERT_OK(apply(&expected, r));
        if (r.op != 4) count++;
      }
      ASSERT_EQ(b.Data(), expected.Data()) << "round " << round << " step " << step;
      ASSERT_EQ(b.Count(), count);
      ASSERT_EQ(b.GetDataSize(), expected.GetDataSize());
    }
  }
}

// The WriteBatchBase forms: SliceParts joins its pieces (the same bytes as
// the joined Slice form); the timestamp forms, Merge with a timestamp and
// PutEntity give RocksDB 7.8.3's answers for a family without timestamps;
// everything works through a WriteBatchBase reference.
TEST(WriteBatchTest, BaseForms) {
  FakeColumnFamily cf3(3);
  WriteBatch batch;
  WriteBatchBase& base = batch;
  EXPECT_EQ(base.GetWriteBatch(), &batch);
  const Slice k[3] = {"ab", "", "c"};
  const Slice v[2] = {"x", "yz"};
  const SliceParts key(k, 3), value(v, 2), none;
  ASSERT_OK(base.Put(key, value));
  ASSERT_OK(base.Put(&cf3, key, value));
  ASSERT_OK(base.Merge(key, value));
  ASSERT_OK(base.Merge(&cf3, key, none));
  ASSERT_OK(base.Delete(key));
  ASSERT_OK(base.Delete(&cf3, SliceParts(v, 1)));
  ASSERT_OK(base.SingleDelete(key));
  ASSERT_OK(base.SingleDelete(&cf3, key));
  ASSERT_OK(base.DeleteRange(SliceParts(k, 1), key));
  ASSERT_OK(base.DeleteRange(&cf3, none, key));
  ASSERT_OK(base.Put("p", "q"));
  EXPECT_EQ(batch.Count(), 11u);
  EXPECT_EQ(PrintContents(batch),
            "Put(abc,xyz)Put(cf3:abc,xyz)Merge(abc,xyz)Merge(cf3:abc,)Delete(abc)Delete(cf3:x)"
            "SingleDelete(abc)SingleDelete(cf3:abc)DeleteRange(ab,abc)DeleteRange(cf3:,abc)"
            "Put(p,q)");
  WriteBatch joined;
  ASSERT_OK(joined.Put("abc", "xyz"));
  WriteBatch parts;
  ASSERT_OK(parts.Put(key, value));
  EXPECT_EQ(parts.Data(), joined.Data());

  const std::string before = batch.Data();
  EXPECT_EQ(base.Put(&cf3, "k", "ts", "v").ToString(), "Invalid argument: timestamp disabled");
  EXPECT_EQ(base.Put(nullptr, "k", "ts", "v").ToString(),
            "Invalid argument: column family handle cannot be null");
  EXPECT_EQ(base.Delete(&cf3, "k", "ts").ToString(), "Invalid argument: timestamp disabled");
  EXPECT_EQ(base.SingleDelete(&cf3, "k", "ts").ToString(), "Invalid argument: timestamp disabled");
  EXPECT_EQ(base.DeleteRange(&cf3, "a", "b", "ts").ToString(),
            "Invalid argument: timestamp disabled");
  EXPECT_EQ(base.Delete(nullptr, "k", "ts").ToString(),
            "Invalid argument: column family handle cannot be null");
  EXPECT_EQ(base.Merge(&cf3, "k", "ts", "v").ToString(),
            "Not implemented: Merge does not support user-defined timestamp");
  const WideColumns columns{{"c1", "v1"}};
  EXPECT_EQ(base.PutEntity(nullptr, "k", columns).ToString(),
            "Invalid argument: Cannot call this method without a column family handle");
  Status s = base.PutEntity(&cf3, "k", columns);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(s.ToString().find("PutEntity"), std::string::npos);
  EXPECT_EQ(batch.Data(), before);  // nothing was added
}

// SetMaxBytes / the constructor's max_bytes: a record past the limit is
// not added (MemoryLimit) and the batch stays as it was.
TEST(WriteBatchTest, MaxBytes) {
  WriteBatch batch(0, 40);
  ASSERT_OK(batch.Put("k1", "v1"));  // 12 + 7 bytes
  const std::string before = batch.Data();
  Status s = batch.Put("k2", std::string(30, 'x'));
  EXPECT_TRUE(s.IsMemoryLimit()) << s.ToString();
  EXPECT_EQ(s.ToString(), "Operation aborted: Memory limit reached");
  EXPECT_EQ(batch.Data(), before);
  EXPECT_EQ(batch.Count(), 1u);
  EXPECT_TRUE(batch.PutLogData(std::string(30, 'l')).IsMemoryLimit());
  EXPECT_TRUE(batch.DeleteRange("a", std::string(30, 'z')).IsMemoryLimit());
  ASSERT_OK(batch.Delete("k3"));  // 19 + 4 bytes fit
  EXPECT_EQ(batch.Count(), 2u);
  // A copy and a move keep the limit.
  WriteBatch copy = batch;
  EXPECT_TRUE(copy.Merge("k", std::string(20, 'm')).IsMemoryLimit());
  WriteBatch moved = std::move(copy);
  EXPECT_TRUE(moved.Merge("k", std::string(20, 'm')).IsMemoryLimit());
  batch.SetMaxBytes(0);
  ASSERT_OK(batch.Put("k2", std::string(300, 'x')));
  batch.SetMaxBytes(10);
  EXPECT_TRUE(batch.SingleDelete("k").IsMemoryLimit());
  EXPECT_EQ(batch.Count(), 3u);
}

}  // namespace
}  // namespace strata
