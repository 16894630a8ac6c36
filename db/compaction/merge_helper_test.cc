#include "db/compaction/merge_helper.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "db/compaction/compaction_range_del_aggregator.h"
#include "test_util/testutil.h"
#include "test_util/vector_iterator.h"

namespace strata {

namespace {

using test::IKey;

using Entry = test::KeyValue;

// The shared vector iterator over entries already in internal-key order,
// with an optional error reported at the end; MergeHelper never seeks.
class VectorIterator final : public test::VectorIterator {
 public:
  explicit VectorIterator(std::vector<Entry> entries, Status end_status = Status::OK())
      : test::VectorIterator(std::move(entries)) {
    WithEndStatus(std::move(end_status)).NoSeek().NoSeekForPrev();
  }
};

struct Op {
  std::string user_key;
  SequenceNumber seq;
  ValueType type;
  std::string value;
};

std::vector<Entry> Build(const std::vector<Op>& ops) {
  std::vector<Entry> v;
  for (const Op& op : ops) v.push_back({IKey(op.user_key, op.seq, op.type), op.value});
  return v;
}

// Joins the base and the operands (oldest first) with ','; no base starts
// with the first operand, so "no base" and "empty base" differ. Associative,
// so PartialMerge (when allowed) joins the same way. An operand "fail" makes
// the full merge fail.
class JoinOperator final : public MergeOperator {
 public:
  explicit JoinOperator(bool allow_partial) : allow_partial_(allow_partial) {}
  bool FullMergeV2(const MergeOperationInput& in, MergeOperationOutput* out) const override {
    ++full_merges;
    std::string r;
    bool first = true;
    if (in.existing_value != nullptr) {
      r = in.existing_value->ToString();
      first = false;
    }
    for (const Slice& op : in.operand_list) {
      if (op == Slice("fail")) return false;
      if (!first) r += ",";
      r += op.ToString();
      first = false;
    }
    out->new_value = r;
    return true;
  }
  bool PartialMerge(const Slice&, const Slice& left, const Slice& right, std::string* new_value,
                    Logger*) const override {
    ++partial_merges;
    if (!allow_partial_) return false;
    *new_value = left.ToString() + "," + right.ToString();
    return true;
  }
  const char* Name() const override { return "JoinOperator"; }

  mutable int full_merges = 0;
  mutable int partial_merges = 0;

 private:
  bool allow_partial_;
};

// Answers through existing_operand (the newest operand wins), to check the
// copy-free path of FullMergeV2.
class LastOperandOperator final : public MergeOperator {
 public:
  bool FullMergeV2(const MergeOperationInput& in, MergeOperationOutput* out) const override {
    out->existing_operand = in.operand_list.back();
    return true;
  }
  const char* Name() const override { return "LastOperandOperator"; }
};

// Removes operands "drop", rewrites operands "old" to "new"; records calls.
class OperandFilter final : public CompactionFilter {
 public:
  Decision FilterV2(int level, const Slice& key, ValueType type, const Slice& value,
                    std::string* new_value, std::string*) const override {
    ++calls;
    last_level = level;
    EXPECT_EQ(ValueType::kMergeOperand, type);
    EXPECT_EQ("k", key.ToString());
    if (value == Slice("drop")) return Decision::kRemove;
    if (value == Slice("skip")) return Decision::kRemoveAndSkipUntil;
    if (value == Slice("old")) {
      *new_value = "new";
      return Decision::kChangeValue;
    }
    return Decision::kKeep;
  }
  const char* Name() const override { return "OperandFilter"; }
  mutable int calls = 0;
  mutable int last_level = -1;
};

std::string Render(const Slice& ikey) {
  ParsedInternalKey p;
  if (!ParseInternalKey(ikey, &p).ok()) return "<corrupt>";
  return p.user_key.ToString() + "@" + std::to_string(p.sequence) + ":" +
         std::to_string(static_cast<int>(p.type));
}

// The helper's output as "k@3:1=value k@2:2=value".
std::string Output(const MergeHelper& mh) {
  std::string s;
  for (size_t i = 0; i < mh.keys().size(); ++i) {
    if (!s.empty()) s += " ";
    s += Render(mh.keys()[i]) + "=" + mh.values()[i];
  }
  return s;
}

constexpr SequenceNumber kNoStop = MergeHelper::kNoStripeBelow;

}  // namespace

// ---- TimedFullMerge ----

TEST(MergeHelperTest, TimedFullMergeWithAndWithoutBase) {
  JoinOperator op(false);
  std::string result = "garbage";
  const Slice base("b");
  std::vector<Slice> operands = {"x", "y"};
  ASSERT_OK(TimedFullMerge(&op, "k", &base, operands, &result, nullptr, nullptr));
  EXPECT_EQ("b,x,y", result);
  ASSERT_OK(TimedFullMerge(&op, "k", nullptr, operands, &result, nullptr, nullptr));
  EXPECT_EQ("x,y", result);
}

TEST(MergeHelperTest, TimedFullMergeExistingOperandIsCopied) {
  LastOperandOperator op;
  std::string result;
  std::vector<Slice> operands = {"x", "y"};
  ASSERT_OK(TimedFullMerge(&op, "k", nullptr, operands, &result, nullptr, nullptr));
  EXPECT_EQ("y", result);
}

TEST(MergeHelperTest, TimedFullMergeWithoutOperatorIsInvalidArgument) {
  std::string result;
  std::vector<Slice> operands = {"x"};
  Status s = TimedFullMerge(nullptr, "k", nullptr, operands, &result, nullptr, nullptr);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("no merge operator configured"));
}

TEST(MergeHelperTest, TimedFullMergeFailureNamesOperatorAndKey) {
  JoinOperator op(false);
  std::string result;
  std::vector<Slice> operands = {"x", "fail"};
  Status s = TimedFullMerge(&op, "mykey", nullptr, operands, &result, nullptr, nullptr);
  ASSERT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("JoinOperator")) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("'mykey'")) << s.ToString();

  // A binary key is shown in hex; a long one is cut.
  const std::string binary("\x01\xff", 2);
  s = TimedFullMerge(&op, binary, nullptr, operands, &result, nullptr, nullptr);
  ASSERT_TRUE(s.IsCorruption());
  EXPECT_NE(std::string::npos, s.ToString().find("0x01FF")) << s.ToString();
  const std::string long_key(1000, 'z');
  s = TimedFullMerge(&op, long_key, nullptr, operands, &result, nullptr, nullptr);
  ASSERT_TRUE(s.IsCorruption());
  EXPECT_EQ(std::string::npos, s.ToString().find(std::string(65, 'z'))) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("1000 bytes")) << s.ToString();
}

// ---- MergeUntil: how a run ends ----

TEST(MergeHelperTest, RunOverPutIsFullMerged) {
  JoinOperator op(true);
  VectorIterator it(Build({{"k", 9, kTypeMerge, "c"},
                           {"k", 8, kTypeMerge, "b"},
                           {"k", 7, kTypeValue, "base"},
                           {"k", 6, kTypeValue, "older"},
                           {"l", 5, kTypeValue, "next"}}));
  MergeHelper mh(BytewiseComparator(), &op, nullptr, 0, nullptr, nullptr);
  it.SeekToFirst();
  ASSERT_OK(mh.MergeUntil(&it, kNoStop, /*at_bottom=*/false, false, nullptr));
  EXPECT_EQ("k@9:1=base,b,c", Output(mh));
  EXPECT_TRUE(mh.full_merged());
  EXPECT_FALSE(mh.partial_merged());
  EXPECT_EQ(3u, mh.consumed());
  EXPECT_EQ(3u, it.pos());  // on the older Put, left to the caller
}

TEST(MergeHelperTest, RunOverDeletionIsFullMergedWithoutBase) {
  for (ValueType del : {kTypeDeletion, kTypeSingleDeletion, kTypeDeletionWithTimestamp}) {
    JoinOperator op(true);
    VectorIterator it(Build({{"k", 9, kTypeMerge, "c"},
                             {"k", 8, kTypeMerge, "b"},
                             {"k", 7, del, ""},
                             {"k", 6, kTypeValue, "older"}}));
    MergeHelper mh(BytewiseComparator(), &op, nullptr, 0, nullptr, nullptr);
    it.SeekToFirst();
    ASSERT_OK(mh.MergeUntil(&it, kNoStop, false, false, nullptr));
    EXPECT_EQ("k@9:1=b,c", Output(mh)) << static_cast<int>(del);
    EXPECT_TRUE(mh.full_merged());
    EXPECT_EQ(3u, mh.consumed());
    EXPECT_EQ(3u, it.pos());
  }
}

TEST(MergeHelperTest, RunEndingAtOtherKeyOrEndAtBottomIsFullMerged) {
  JoinOperator op(true);
  MergeHelper mh(BytewiseComparator(), &op, nullptr, 0, nullptr, nullptr);
  {
    VectorIterator it(Build(
        {{"k", 9, kTypeMerge, "c"}, {"k", 8, kTypeMerge, "b"}, {"l", 7, kTypeValue, "other key"}}));
    it.SeekToFirst();
    ASSERT_OK(mh.MergeUntil(&it, kNoStop, /*at_bottom=*/true, false, nullptr));
    EXPECT_EQ("k@9:1=b,c", Output(mh));
    EXPECT_EQ(2u, mh.consumed());
    EXPECT_EQ(2u, it.pos());
  }
  {
    VectorIterator it(Build({{"k", 9, kTypeMerge, "c"}}));
    it.SeekToFirst();
    ASSERT_OK(mh.MergeUntil(&it, kNoStop, /*at_bottom=*/true, false, nullptr));
    EXPECT_EQ("k@9:1=c", Output(mh));
    EXPECT_TRUE(mh.full_merged());
    EXPECT_FALSE(it.Valid());
  }
}

TEST(MergeHelperTest, RunNotAtBottomIsPartialMerged) {
  JoinOperator op(true);
  MergeHelper mh(BytewiseComparator(), &op, nullptr, 0, nullptr, nullptr);
  VectorIterator it(Build({{"k", 9, kTypeMerge, "c"},
                           {"k", 8, kTypeMerge, "b"},
                           {"k", 7, kTypeMerge, "a"},
                           {"l", 7, kTypeValue, "other key"}}));
  it.SeekToFirst();
  ASSERT_OK(mh.MergeUntil(&it, kNoStop, /*at_bottom=*/false, false, nullptr));
  EXPECT_EQ("k@9:2=a,b,c", Output(mh));
  EXPECT_TRUE(mh.partial_merged());
  EXPECT_FALSE(mh.full_merged());
  EXPECT_EQ(0, op.full_merges);
  EXPECT_EQ(3u, it.pos());
}

TEST(MergeHelperTest, PartialMergeDeclinedKeepsOperands) {
  JoinOperator op(/*allow_partial=*/false);
  MergeHelper mh(BytewiseComparator(), &op, nullptr, 0, nullptr, nullptr);
  VectorIterator it(Build({{"k", 9, kTypeMerge, "c"}, {"k", 8, kTypeMerge, "b"}}));
  it.SeekToFirst();
  ASSERT_OK(mh.MergeUntil(&it, kNoStop, false, false, nullptr));
  EXPECT_EQ("k@9:2=c k@8:2=b", Output(mh));
  EXPECT_FALSE(mh.partial_merged());
  EXPECT_EQ(1, op.partial_merges);
  EXPECT_EQ(2u, mh.consumed());
}

TEST(MergeHelperTest, SingleOperandNotAtBottomIsUnchanged) {
  JoinOperator op(true);
  MergeHelper mh(BytewiseComparator(), &op, nullptr, 0, nullptr, nullptr);
  VectorIterator it(Build({{"k", 9, kTypeMerge, "c"}, {"l", 8, kTypeMerge, "b"}}));
  it.SeekToFirst();
  ASSERT_OK(mh.MergeUntil(&it, kNoStop, false, false, nullptr));
  EXPECT_EQ("k@9:2=c", Output(mh));
  EXPECT_EQ(0, op.partial_merges);
  EXPECT_EQ(0, op.full_merges);
}

TEST(MergeHelperTest, StripeBoundaryEndsRun) {
  // Snapshot at 7: the operands 9, 8 form the run; 7 and below belong to the
  // older stripe, so the Put at 6 is not merged over.
  JoinOperator op(true);
  MergeHelper mh(BytewiseComparator(), &op, nullptr, 0, nullptr, nullptr);
  VectorIterator it(Build({{"k", 9, kTypeMerge, "c"},
                           {"k", 8, kTypeMerge, "b"},
                           {"k", 7, kTypeMerge, "a"},
                           {"k", 6, kTypeValue, "base"}}));
  it.SeekToFirst();
  ASSERT_OK(mh.MergeUntil(&it, /*stop_before=*/7, false, false, nullptr));
  EXPECT_EQ("k@9:2=b,c", Output(mh));
  EXPECT_EQ(2u, it.pos());
  // The older stripe's run, which reaches the Put.
  ASSERT_OK(mh.MergeUntil(&it, kNoStop, false, false, nullptr));
  EXPECT_EQ("k@7:1=base,a", Output(mh));
  EXPECT_FALSE(it.Valid());
}

TEST(MergeHelperTest, SnapshotAtZeroAndSequenceZero) {
  // stop_before 0 (a snapshot at 0) excludes a version with sequence 0;
  // kNoStripeBelow (the earliest stripe) includes it.
  JoinOperator op(true);
  MergeHelper mh(BytewiseComparator(), &op, nullptr, 0, nullptr, nullptr);
  VectorIterator it(Build({{"k", 2, kTypeMerge, "b"}, {"k", 0, kTypeValue, "base0"}}));
  it.SeekToFirst();
  // A snapshot at 0: the Put at 0 lies below the stripe.
  ASSERT_OK(mh.MergeUntil(&it, /*stop_before=*/0, false, false, nullptr));
  EXPECT_EQ("k@2:2=b", Output(mh));
  EXPECT_EQ(1u, it.pos());
  // The earliest stripe includes sequence 0.
  it.SeekToFirst();
  ASSERT_OK(mh.MergeUntil(&it, kNoStop, true, false, nullptr));
  EXPECT_EQ("k@2:1=base0,b", Output(mh));
  EXPECT_FALSE(it.Valid());
}

TEST(MergeHelperTest, UnmergeableTypeEndsRunUnconsumed) {
  JoinOperator op(false);
  MergeHelper mh(BytewiseComparator(), &op, nullptr, 0, nullptr, nullptr);
  VectorIterator it(Build({{"k", 9, kTypeMerge, "c"}, {"k", 8, kTypeBlobIndex, "blob"}}));
  it.SeekToFirst();
  ASSERT_OK(mh.MergeUntil(&it, kNoStop, true, false, nullptr));
  EXPECT_EQ("k@9:2=c", Output(mh));
  EXPECT_EQ(1u, it.pos());
}

// ---- errors ----

TEST(MergeHelperTest, FullMergeFailureIsCorruption) {
  JoinOperator op(true);
  MergeHelper mh(BytewiseComparator(), &op, nullptr, 0, nullptr, nullptr);
  VectorIterator it(Build({{"k", 9, kTypeMerge, "fail"}, {"k", 8, kTypeValue, "base"}}));
  it.SeekToFirst();
  Status s = mh.MergeUntil(&it, kNoStop, false, false, nullptr);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("JoinOperator"));
  EXPECT_TRUE(mh.keys().empty());
}

TEST(MergeHelperTest, CorruptKeyInRunIsCorruption) {
  JoinOperator op(true);
  MergeHelper mh(BytewiseComparator(), &op, nullptr, 0, nullptr, nullptr);
  std::vector<Entry> in = Build({{"k", 9, kTypeMerge, "c"}});
  in.push_back({"bad", "x"});  // shorter than a trailer
  VectorIterator it(std::move(in));
  it.SeekToFirst();
  Status s = mh.MergeUntil(&it, kNoStop, true, false, nullptr);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_TRUE(mh.keys().empty());
}

TEST(MergeHelperTest, InputErrorIsReturned) {
  JoinOperator op(true);
  MergeHelper mh(BytewiseComparator(), &op, nullptr, 0, nullptr, nullptr);
  VectorIterator it(Build({{"k", 9, kTypeMerge, "c"}}), Status::IOError("disk"));
  it.SeekToFirst();
  Status s = mh.MergeUntil(&it, kNoStop, /*at_bottom=*/true, false, nullptr);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_TRUE(mh.keys().empty());
  EXPECT_EQ(0, op.full_merges);  // no value made from a truncated run
}

// ---- compaction filter ----

TEST(MergeHelperTest, FilterRemovesAndRewritesOperands) {
  JoinOperator op(false);
  OperandFilter filter;
  MergeHelper mh(BytewiseComparator(), &op, &filter, 3, nullptr, nullptr);
  VectorIterator it(Build({{"k", 9, kTypeMerge, "c"},
                           {"k", 8, kTypeMerge, "drop"},
                           {"k", 7, kTypeMerge, "old"},
                           {"k", 6, kTypeMerge, "skip"},
                           {"l", 1, kTypeValue, ""}}));
  it.SeekToFirst();
  ASSERT_OK(mh.MergeUntil(&it, kNoStop, false, /*may_filter=*/true, nullptr));
  EXPECT_EQ("k@9:2=c k@7:2=new", Output(mh));
  EXPECT_EQ(4, filter.calls);
  EXPECT_EQ(3, filter.last_level);
  EXPECT_EQ(4u, mh.consumed());
  EXPECT_EQ(2u, mh.filtered());
  EXPECT_EQ(1u, mh.filter_changed());
  EXPECT_EQ(4u, it.pos());
}

TEST(MergeHelperTest, FilterNotCalledUnlessAllowed) {
  JoinOperator op(false);
  OperandFilter filter;
  MergeHelper mh(BytewiseComparator(), &op, &filter, 0, nullptr, nullptr);
  VectorIterator it(Build({{"k", 9, kTypeMerge, "drop"}, {"k", 8, kTypeValue, "base"}}));
  it.SeekToFirst();
  ASSERT_OK(mh.MergeUntil(&it, kNoStop, false, /*may_filter=*/false, nullptr));
  EXPECT_EQ("k@9:1=base,drop", Output(mh));
  EXPECT_EQ(0, filter.calls);
}

TEST(MergeHelperTest, AllOperandsFilteredLeavesBaseForCaller) {
  JoinOperator op(false);
  OperandFilter filter;
  MergeHelper mh(BytewiseComparator(), &op, &filter, 0, nullptr, nullptr);
  VectorIterator it(Build(
      {{"k", 9, kTypeMerge, "drop"}, {"k", 8, kTypeMerge, "drop"}, {"k", 7, kTypeValue, "base"}}));
  it.SeekToFirst();
  ASSERT_OK(mh.MergeUntil(&it, kNoStop, true, true, nullptr));
  EXPECT_TRUE(mh.keys().empty());
  EXPECT_FALSE(mh.full_merged());
  EXPECT_EQ(2u, mh.consumed());
  EXPECT_EQ(2u, mh.filtered());
  EXPECT_EQ(2u, it.pos());  // the Put is not consumed
  EXPECT_EQ(0, op.full_merges);
}

// ---- range tombstones ----

TEST(MergeHelperTest, RangeTombstoneUnderRunActsAsDeletion) {
  // Tombstone [a, z)@8 covers k@7 and k@6 (same stripe: no snapshots), not
  // the operands above it.
  JoinOperator op(true);
  InternalKeyComparator icmp(BytewiseComparator());
  CompactionRangeDelAggregator agg(&icmp, {});
  agg.AddTombstones(std::vector<RangeTombstone>{{"a", "z", 8}});
  MergeHelper mh(BytewiseComparator(), &op, nullptr, 0, nullptr, nullptr);
  VectorIterator it(Build({{"k", 10, kTypeMerge, "c"},
                           {"k", 9, kTypeMerge, "b"},
                           {"k", 7, kTypeMerge, "covered"},
                           {"k", 6, kTypeValue, "covered base"}}));
  it.SeekToFirst();
  ASSERT_OK(mh.MergeUntil(&it, kNoStop, false, false, &agg));
  EXPECT_EQ("k@10:1=b,c", Output(mh));
  EXPECT_TRUE(mh.full_merged());
  EXPECT_EQ(2u, mh.consumed());
  EXPECT_EQ(2u, it.pos());  // the covered entry is left for the caller
}

TEST(MergeHelperTest, RangeTombstoneInOlderStripeDoesNotEndRun) {
  // Snapshot 8: the tombstone @8 and k@7 share the older stripe; the run of
  // the newer stripe (10, 9) stops at the boundary instead.
  JoinOperator op(true);
  InternalKeyComparator icmp(BytewiseComparator());
  CompactionRangeDelAggregator agg(&icmp, {8});
  agg.AddTombstones(std::vector<RangeTombstone>{{"a", "z", 8}});
  MergeHelper mh(BytewiseComparator(), &op, nullptr, 0, nullptr, nullptr);
  VectorIterator it(Build(
      {{"k", 10, kTypeMerge, "c"}, {"k", 9, kTypeMerge, "b"}, {"k", 7, kTypeMerge, "covered"}}));
  it.SeekToFirst();
  ASSERT_OK(mh.MergeUntil(&it, /*stop_before=*/8, false, false, &agg));
  EXPECT_EQ("k@10:2=b,c", Output(mh));
  EXPECT_TRUE(mh.partial_merged());
}

// ---- reuse ----

TEST(MergeHelperTest, BuffersAreReusedAcrossRuns) {
  JoinOperator op(false);
  MergeHelper mh(BytewiseComparator(), &op, nullptr, 0, nullptr, nullptr);
  std::vector<Op> ops;
  for (int k = 0; k < 50; ++k) {
    const std::string key = "key" + std::to_string(100 + k);
    ops.push_back({key, 9, kTypeMerge, "operand-with-some-length-" + std::to_string(k)});
    ops.push_back({key, 8, kTypeMerge, "operand-with-some-length-" + std::to_string(k)});
  }
  VectorIterator it(Build(ops));
  it.SeekToFirst();
  ASSERT_OK(mh.MergeUntil(&it, kNoStop, false, false, nullptr));
  const std::string* keys_data = mh.keys().data();
  const char* value0 = mh.values()[0].data();
  int runs = 1;
  while (it.Valid()) {
    ASSERT_OK(mh.MergeUntil(&it, kNoStop, false, false, nullptr));
    ASSERT_EQ(2u, mh.keys().size());
    // Same slots, same string buffers: nothing was reallocated.
    EXPECT_EQ(keys_data, mh.keys().data());
    EXPECT_EQ(value0, mh.values()[0].data());
    ++runs;
  }
  EXPECT_EQ(50, runs);
}

}  // namespace strata
