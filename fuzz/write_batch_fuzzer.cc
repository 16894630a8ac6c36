// Fuzz target: WriteBatch wire bytes (db/write_batch_internal.h). The input
// is set as a batch's contents and iterated. Iterate either accepts the
// whole batch (and then the records, rebuilt through the public appenders,
// iterate back identically, and every record lands in a MemTable with
// sequence first + i) or reports Corruption / NotSupported -- never a crash.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "base/dbformat.h"
#include "base/internal_iterator.h"
#include "db/memtable_inserter.h"
#include "db/write_batch_internal.h"
#include "fuzz/fuzz_check.h"
#include "memtable/memtable.h"
#include "strata/comparator.h"
#include "strata/write_batch.h"

namespace strata {
namespace {

struct Record {
  // 'P'ut 'D'elete 'S'ingleDelete 'R'angeDelete 'M'erge 'L'ogData; the
  // uncounted two-phase-commit markers: 'b'eginPrepare (a = "u" for
  // unprepare), 'e'ndPrepare, 'c'ommit, 'r'ollback (a = xid), 'n'oop.
  char op;
  uint32_t cf;
  std::string a, b;
  bool operator==(const Record& o) const {
    return op == o.op && cf == o.cf && a == o.a && b == o.b;
  }
};

class Recorder : public WriteBatch::Handler {
 public:
  std::vector<Record> records;
  Status PutCF(uint32_t cf, const Slice& k, const Slice& v) override {
    records.push_back({'P', cf, k.ToString(), v.ToString()});
    return Status::OK();
  }
  Status DeleteCF(uint32_t cf, const Slice& k) override {
    records.push_back({'D', cf, k.ToString(), ""});
    return Status::OK();
  }
  Status SingleDeleteCF(uint32_t cf, const Slice& k) override {
    records.push_back({'S', cf, k.ToString(), ""});
    return Status::OK();
  }
  Status DeleteRangeCF(uint32_t cf, const Slice& b, const Slice& e) override {
    records.push_back({'R', cf, b.ToString(), e.ToString()});
    return Status::OK();
  }
  Status MergeCF(uint32_t cf, const Slice& k, const Slice& v) override {
    records.push_back({'M', cf, k.ToString(), v.ToString()});
    return Status::OK();
  }
  void LogData(const Slice& blob) override { records.push_back({'L', 0, blob.ToString(), ""}); }
  Status MarkBeginPrepare(bool unprepare) override {
    records.push_back({'b', 0, unprepare ? "u" : "", ""});
    return Status::OK();
  }
  Status MarkEndPrepare(const Slice& xid) override {
    records.push_back({'e', 0, xid.ToString(), ""});
    return Status::OK();
  }
  Status MarkCommit(const Slice& xid) override {
    records.push_back({'c', 0, xid.ToString(), ""});
    return Status::OK();
  }
  Status MarkRollback(const Slice& xid) override {
    records.push_back({'r', 0, xid.ToString(), ""});
    return Status::OK();
  }
  Status MarkNoop(bool) override {
    records.push_back({'n', 0, "", ""});
    return Status::OK();
  }  // Records Strata never writes: refused, as the engine does.
  Status PutEntityCF(uint32_t, const Slice&, const Slice&) override {
    return Status::NotSupported("PutEntity");
  }
  Status PutBlobIndexCF(uint32_t, const Slice&, const Slice&) override {
    return Status::NotSupported("BlobIndex");
  }
  Status MarkCommitWithTimestamp(const Slice&, const Slice&) override {
    return Status::NotSupported("CommitXIDAndTimestamp");
  }
};

// Records that take no sequence number.
bool Uncounted(char op) {
  return op == 'L' || op == 'b' || op == 'e' || op == 'c' || op == 'r' || op == 'n';
}

// A handler that stops after a given number of records (Continue()).
class Stopper : public WriteBatch::Handler {
 public:
  explicit Stopper(int n) : left_(n) {}
  bool Continue() override { return left_-- > 0; }
  Status PutCF(uint32_t, const Slice&, const Slice&) override { return Status::OK(); }
  Status DeleteCF(uint32_t, const Slice&) override { return Status::OK(); }
  Status SingleDeleteCF(uint32_t, const Slice&) override { return Status::OK(); }
  Status DeleteRangeCF(uint32_t, const Slice&, const Slice&) override { return Status::OK(); }
  Status MergeCF(uint32_t, const Slice&, const Slice&) override { return Status::OK(); }

 private:
  int left_;
};

}  // namespace
}  // namespace strata

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace strata;
  const Slice input(reinterpret_cast<const char*>(data), size);
  WriteBatch batch;
  Status s = WriteBatchInternal::SetContents(&batch, input);
  if (!s.ok()) {
    FUZZ_CHECK(size < WriteBatchInternal::kHeader && s.IsCorruption());
    return 0;
  }
  FUZZ_CHECK(WriteBatchInternal::Contents(&batch) == input);
  const uint32_t count = WriteBatchInternal::Count(&batch);
  FUZZ_CHECK(count == batch.Count());

  Recorder rec;
  s = batch.Iterate(&rec);
  {
    Stopper stop(static_cast<int>(size % 7));
    batch.Iterate(&stop).PermitUncheckedError();
  }
  BatchContents contents;
  const Status inspect = InspectBatch(batch, &contents);
  FUZZ_CHECK(inspect.ok() == s.ok());
  if (!s.ok()) {
    FUZZ_CHECK(s.IsCorruption() || s.IsNotSupported());
    return 0;
  }

  // Accepted: the counted records match the header's count.
  uint32_t counted = 0;
  for (const Record& r : rec.records) counted += !Uncounted(r.op);
  FUZZ_CHECK(counted == count);
  FUZZ_CHECK(contents.puts + contents.deletes + contents.single_deletes + contents.merges +
                 contents.range_deletes ==
             count);

  // Rebuilt through the appenders, the batch iterates to the same records.
  WriteBatch rebuilt;
  for (const Record& r : rec.records) {
    Status a;
    switch (r.op) {
      case 'P':
        a = WriteBatchInternal::Put(&rebuilt, r.cf, r.a, r.b);
        break;
      case 'D':
        a = WriteBatchInternal::Delete(&rebuilt, r.cf, r.a);
        break;
      case 'S':
        a = WriteBatchInternal::SingleDelete(&rebuilt, r.cf, r.a);
        break;
      case 'R':
        a = WriteBatchInternal::DeleteRange(&rebuilt, r.cf, r.a, r.b);
        break;
      case 'M':
        a = WriteBatchInternal::Merge(&rebuilt, r.cf, r.a, r.b);
        break;
      case 'b':
        WriteBatchInternal::AppendBeginPrepare(&rebuilt, r.a == "u");
        break;
      case 'e':
        a = WriteBatchInternal::AppendEndPrepare(&rebuilt, r.a);
        break;
      case 'c':
        a = WriteBatchInternal::MarkCommit(&rebuilt, r.a);
        break;
      case 'r':
        a = WriteBatchInternal::MarkRollback(&rebuilt, r.a);
        break;
      case 'n':
        WriteBatchInternal::InsertNoop(&rebuilt);
        break;
      default:
        a = rebuilt.PutLogData(r.a);
        break;
    }
    FUZZ_CHECK(a.ok());
  }
  FUZZ_CHECK(rebuilt.Count() == count);
  Recorder rec2;
  FUZZ_CHECK(rebuilt.Iterate(&rec2).ok());
  FUZZ_CHECK(rec2.records == rec.records);
  // Append keeps both batches' records.
  WriteBatch doubled;
  WriteBatchInternal::Append(&doubled, &batch);
  WriteBatchInternal::Append(&doubled, &rebuilt);
  FUZZ_CHECK(doubled.Count() == 2 * count);
  Recorder rec3;
  FUZZ_CHECK(doubled.Iterate(&rec3).ok());
  FUZZ_CHECK(rec3.records.size() == 2 * rec.records.size());

  // Into a MemTable: only family 0 exists, so other families are refused.
  const InternalKeyComparator icmp(BytewiseComparator());
  MemTableOptions mopts;
  mopts.arena_block_size = 4096;
  auto* mem = new MemTable(icmp, mopts);
  MemTableTargets targets;
  targets.default_mem = mem;
  const SequenceNumber first = (WriteBatchInternal::Sequence(&batch) & 0xffffffffffull) + 1;
  s = InsertBatchIntoMemTable(batch, first, targets, false);
  if (contents.non_default_cf > 0) {
    FUZZ_CHECK(!s.ok());
  } else {
    FUZZ_CHECK(s.ok());
    // Every point record is in the memtable with its sequence and type.
    std::set<std::tuple<std::string, SequenceNumber, int>> expected;
    SequenceNumber seq = first;
    uint64_t range_dels = 0;
    for (const Record& r : rec.records) {
      if (Uncounted(r.op)) continue;
      const SequenceNumber this_seq = seq++;
      ValueType t;
      switch (r.op) {
        case 'P':
          t = kTypeValue;
          break;
        case 'D':
          t = kTypeDeletion;
          break;
        case 'S':
          t = kTypeSingleDeletion;
          break;
        case 'M':
          t = kTypeMerge;
          break;
        default:
          ++range_dels;
          continue;
      }
      expected.emplace(r.a, this_seq, static_cast<int>(t));
    }
    std::set<std::tuple<std::string, SequenceNumber, int>> got;
    std::unique_ptr<InternalIterator> it(mem->NewIterator());
    std::string prev;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      ParsedInternalKey pk;
      FUZZ_CHECK(ParseInternalKey(it->key(), &pk).ok());
      if (!prev.empty()) FUZZ_CHECK(icmp.Compare(prev, it->key()) < 0);
      prev = it->key().ToString();
      got.emplace(pk.user_key.ToString(), pk.sequence, static_cast<int>(pk.type));
    }
    FUZZ_CHECK(it->status().ok());
    FUZZ_CHECK(got == expected);
    FUZZ_CHECK(mem->num_range_deletes() == range_dels);
  }
  mem->Unref();
  return 0;
}
