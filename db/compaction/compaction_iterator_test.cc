#include "db/compaction/compaction_iterator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "db/compaction/compaction_range_del_aggregator.h"
#include "db/compaction/merge_helper.h"
#include "test_util/testutil.h"
#include "test_util/vector_iterator.h"

namespace strata {

namespace {

using test::IKey;

using Entry = test::KeyValue;

// The shared vector iterator (bytewise internal-key order), with an
// optional error status reported at the end; the compaction iterator never
// seeks backward.
class VectorIterator final : public test::VectorIterator {
 public:
  explicit VectorIterator(std::vector<Entry> entries, Status end_status = Status::OK())
      : test::VectorIterator(std::move(entries)) {
    WithEndStatus(std::move(end_status)).NoSeekForPrev();
  }
};

// Short spelling for hand-written inputs: {"a", 3, kTypeValue, "v"}.
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

// "a@3:1" style rendering of output for readable expectations.
std::string Render(const Slice& ikey) {
  ParsedInternalKey p;
  if (!ParseInternalKey(ikey, &p).ok()) return "<corrupt>";
  return p.user_key.ToString() + "@" + std::to_string(p.sequence) + ":" +
         std::to_string(static_cast<int>(p.type));
}

struct RunResult {
  std::vector<Entry> out;
  Status status;
  CompactionIteratorStats stats;
  std::string Keys() const {
    std::string s;
    for (const Entry& e : out) {
      if (!s.empty()) s += " ";
      s += Render(e.key);
    }
    return s;
  }
};

RunResult Compact(std::vector<Entry> input, std::vector<SequenceNumber> snapshots, bool bottommost,
                  std::function<bool(const Slice&)> may_exist_below = {},
                  Status end_status = Status::OK()) {
  VectorIterator it(std::move(input), std::move(end_status));
  CompactionIterator ci(&it, BytewiseComparator(), std::move(snapshots), bottommost,
                        std::move(may_exist_below));
  RunResult r;
  for (ci.SeekToFirst(); ci.Valid(); ci.Next()) {
    r.out.push_back({ci.key().ToString(), ci.value().ToString()});
  }
  r.status = ci.status();
  r.stats = ci.stats();
  return r;
}

RunResult CompactWith(std::vector<Entry> input, CompactionIteratorOptions options,
                      int* seeks = nullptr) {
  VectorIterator it(std::move(input));
  if (options.user_cmp == nullptr) options.user_cmp = BytewiseComparator();
  CompactionIterator ci(&it, std::move(options));
  RunResult r;
  for (ci.SeekToFirst(); ci.Valid(); ci.Next()) {
    r.out.push_back({ci.key().ToString(), ci.value().ToString()});
  }
  r.status = ci.status();
  r.stats = ci.stats();
  if (seeks != nullptr) *seeks = it.seeks();
  return r;
}

// Every input entry is either written or counted in exactly one drop bucket.
void CheckAccounting(const RunResult& r, size_t input_size) {
  const CompactionIteratorStats& s = r.stats;
  EXPECT_EQ(input_size, s.num_input_records);
  EXPECT_EQ(r.out.size(), s.num_output_records);
  EXPECT_EQ(s.num_input_records, s.num_output_records + s.num_dropped_hidden +
                                     s.num_dropped_deletions + s.num_dropped_covered +
                                     2 * s.num_single_delete_pairs + s.num_dropped_range_del +
                                     s.num_merge_absorbed + s.num_filter_removed);
}

const std::vector<SequenceNumber> kNoSnapshots;

}  // namespace

// ---- stripes ----

TEST(CompactionIteratorTest, EmptyInput) {
  RunResult r = Compact({}, kNoSnapshots, true);
  ASSERT_OK(r.status);
  EXPECT_TRUE(r.out.empty());
  CheckAccounting(r, 0);
}

TEST(CompactionIteratorTest, NoSnapshotKeepsOnlyNewestVersion) {
  auto in = Build({{"a", 3, kTypeValue, "a3"},
                   {"a", 2, kTypeValue, "a2"},
                   {"a", 1, kTypeValue, "a1"},
                   {"b", 5, kTypeValue, "b5"}});
  RunResult r = Compact(in, kNoSnapshots, false);
  ASSERT_OK(r.status);
  EXPECT_EQ("a@3:1 b@5:1", r.Keys());
  EXPECT_EQ("a3", r.out[0].value);
  EXPECT_EQ("b5", r.out[1].value);
  EXPECT_EQ(2u, r.stats.num_dropped_hidden);
  CheckAccounting(r, in.size());
}

TEST(CompactionIteratorTest, SnapshotsSplitStripes) {
  // Stripes: (4, latest] = {5}, (2, 4] = {4, 3}, [0, 2] = {2, 1}.
  auto in = Build({{"a", 5, kTypeValue, ""},
                   {"a", 4, kTypeValue, ""},
                   {"a", 3, kTypeValue, ""},
                   {"a", 2, kTypeValue, ""},
                   {"a", 1, kTypeValue, ""}});
  RunResult r = Compact(in, {2, 4}, false);
  ASSERT_OK(r.status);
  EXPECT_EQ("a@5:1 a@4:1 a@2:1", r.Keys());
  EXPECT_EQ(2u, r.stats.num_dropped_hidden);
  CheckAccounting(r, in.size());
}

TEST(CompactionIteratorTest, UnsortedDuplicateSnapshotsAreNormalized) {
  auto in = Build({{"a", 5, kTypeValue, ""},
                   {"a", 4, kTypeValue, ""},
                   {"a", 3, kTypeValue, ""},
                   {"a", 2, kTypeValue, ""},
                   {"a", 1, kTypeValue, ""}});
  RunResult r = Compact(in, {4, 2, 4}, false);
  ASSERT_OK(r.status);
  EXPECT_EQ("a@5:1 a@4:1 a@2:1", r.Keys());
}

TEST(CompactionIteratorTest, SnapshotsAboveAndBelowAllVersions) {
  auto in = Build({{"a", 5, kTypeValue, ""}, {"a", 4, kTypeValue, ""}});
  // Both versions in the stripe of snapshot 100: only the newest survives.
  EXPECT_EQ("a@5:1", Compact(in, {100}, false).Keys());
  // Both in the latest stripe (snapshot 1 is below them).
  EXPECT_EQ("a@5:1", Compact(in, {1}, false).Keys());
  // Snapshot 4 separates them.
  EXPECT_EQ("a@5:1 a@4:1", Compact(in, {1, 4, 100}, false).Keys());
}

TEST(CompactionIteratorTest, StripesRestartPerKey) {
  auto in = Build({{"a", 9, kTypeValue, ""},
                   {"a", 1, kTypeValue, ""},
                   {"b", 8, kTypeValue, ""},
                   {"b", 7, kTypeValue, ""},
                   {"c", 2, kTypeValue, ""},
                   {"c", 1, kTypeValue, ""}});
  RunResult r = Compact(in, {5}, false);
  ASSERT_OK(r.status);
  EXPECT_EQ("a@9:1 a@1:1 b@8:1 c@2:1", r.Keys());
  CheckAccounting(r, in.size());
}

// ---- merge operands ----

TEST(CompactionIteratorTest, MergeOperandsAbovePutKeptOlderDropped) {
  auto in = Build({{"a", 5, kTypeMerge, "m5"},
                   {"a", 4, kTypeMerge, "m4"},
                   {"a", 3, kTypeValue, "v3"},
                   {"a", 2, kTypeMerge, "m2"},
                   {"a", 1, kTypeValue, "v1"}});
  RunResult r = Compact(in, kNoSnapshots, false);
  ASSERT_OK(r.status);
  EXPECT_EQ("a@5:2 a@4:2 a@3:1", r.Keys());
  EXPECT_EQ("m5", r.out[0].value);
  EXPECT_EQ(2u, r.stats.num_dropped_hidden);
  CheckAccounting(r, in.size());
}

TEST(CompactionIteratorTest, MergeChainAcrossStripesKept) {
  auto in = Build({{"a", 4, kTypeMerge, ""},
                   {"a", 3, kTypeMerge, ""},
                   {"a", 2, kTypeMerge, ""},
                   {"a", 1, kTypeValue, ""},
                   {"b", 2, kTypeMerge, ""},
                   {"b", 1, kTypeDeletion, ""}});
  RunResult r = Compact(in, {2}, false);
  ASSERT_OK(r.status);
  EXPECT_EQ("a@4:2 a@3:2 a@2:2 a@1:1 b@2:2 b@1:0", r.Keys());
}

TEST(CompactionIteratorTest, MergeBelowDeleteInSameStripeDropped) {
  auto in =
      Build({{"a", 3, kTypeDeletion, ""}, {"a", 2, kTypeMerge, ""}, {"a", 1, kTypeMerge, ""}});
  RunResult r = Compact(in, kNoSnapshots, false);
  ASSERT_OK(r.status);
  EXPECT_EQ("a@3:0", r.Keys());
  EXPECT_EQ(2u, r.stats.num_dropped_hidden);
}

// ---- deletions ----

TEST(CompactionIteratorTest, DeletionDroppedAtBottommostWithOlderVersions) {
  auto in = Build({{"a", 3, kTypeDeletion, ""},
                   {"a", 2, kTypeValue, ""},
                   {"a", 1, kTypeMerge, ""},
                   {"b", 4, kTypeValue, "b"}});
  RunResult r = Compact(in, kNoSnapshots, true);
  ASSERT_OK(r.status);
  EXPECT_EQ("b@4:1", r.Keys());
  EXPECT_EQ(1u, r.stats.num_dropped_deletions);
  EXPECT_EQ(2u, r.stats.num_dropped_covered);
  EXPECT_EQ(0u, r.stats.num_dropped_hidden);
  CheckAccounting(r, in.size());
}

TEST(CompactionIteratorTest, DeletionKeptWhenKeyMayExistBelow) {
  auto in = Build({{"a", 3, kTypeDeletion, ""}, {"a", 2, kTypeValue, ""}});
  // No function: the key is assumed to exist below.
  RunResult r = Compact(in, kNoSnapshots, false);
  ASSERT_OK(r.status);
  EXPECT_EQ("a@3:0", r.Keys());
  EXPECT_EQ(1u, r.stats.num_dropped_hidden);
  EXPECT_EQ(0u, r.stats.num_dropped_deletions);
  // A function saying yes.
  r = Compact(in, kNoSnapshots, false, [](const Slice&) { return true; });
  EXPECT_EQ("a@3:0", r.Keys());
}

TEST(CompactionIteratorTest, DeletionDroppedWhenKeyCannotExistBelow) {
  auto in = Build({{"a", 3, kTypeDeletion, ""},
                   {"a", 2, kTypeValue, ""},
                   {"b", 3, kTypeDeletion, ""},
                   {"b", 2, kTypeValue, ""}});
  std::vector<std::string> asked;
  RunResult r = Compact(in, kNoSnapshots, false, [&asked](const Slice& k) {
    asked.push_back(k.ToString());
    return k == Slice("b");
  });
  ASSERT_OK(r.status);
  EXPECT_EQ("b@3:0", r.Keys());
  EXPECT_EQ((std::vector<std::string>{"a", "b"}), asked);
  EXPECT_EQ(1u, r.stats.num_dropped_deletions);
  EXPECT_EQ(1u, r.stats.num_dropped_covered);
  CheckAccounting(r, in.size());
}

TEST(CompactionIteratorTest, DeletionAboveASnapshotKept) {
  // The deletion is in the latest stripe, the Put in snapshot 2's stripe: a
  // reader at snapshot 2 must still see the Put, so both stay.
  auto in = Build({{"a", 3, kTypeDeletion, ""}, {"a", 1, kTypeValue, ""}});
  RunResult r = Compact(in, {2}, true);
  ASSERT_OK(r.status);
  EXPECT_EQ("a@3:0 a@1:1", r.Keys());
  EXPECT_EQ(0u, r.stats.num_dropped_deletions);
}

TEST(CompactionIteratorTest, DeletionBelowAllSnapshotsDroppedNewerKept) {
  auto in = Build({{"a", 7, kTypeValue, "a7"},
                   {"a", 6, kTypeDeletion, ""},
                   {"a", 3, kTypeDeletion, ""},
                   {"a", 2, kTypeValue, ""}});
  RunResult r = Compact(in, {5}, true);
  ASSERT_OK(r.status);
  // a@6 is hidden by a@7 (same stripe); a@3 is the newest in the earliest
  // stripe and goes with a@2.
  EXPECT_EQ("a@7:1", r.Keys());
  EXPECT_EQ(1u, r.stats.num_dropped_hidden);
  EXPECT_EQ(1u, r.stats.num_dropped_deletions);
  EXPECT_EQ(1u, r.stats.num_dropped_covered);
  CheckAccounting(r, in.size());
}

TEST(CompactionIteratorTest, DeletionNewerThanSnapshotKeptWhenOnlyInLatestStripe) {
  auto in = Build({{"a", 7, kTypeDeletion, ""}, {"a", 6, kTypeValue, ""}});
  RunResult r = Compact(in, {5}, true);
  ASSERT_OK(r.status);
  // Latest stripe, not the earliest: the tombstone stays (a reader at 5 sees
  // nothing either way, but the rule only drops tombstones of stripe 0).
  EXPECT_EQ("a@7:0", r.Keys());
}

TEST(CompactionIteratorTest, DeletionUnderMergeInEarliestStripeKept) {
  // Not the newest of its key in the earliest stripe: kept (merging is not
  // done here), the Put under it is hidden.
  auto in =
      Build({{"a", 3, kTypeMerge, "m"}, {"a", 2, kTypeDeletion, ""}, {"a", 1, kTypeValue, ""}});
  RunResult r = Compact(in, kNoSnapshots, true);
  ASSERT_OK(r.status);
  EXPECT_EQ("a@3:2 a@2:0", r.Keys());
  EXPECT_EQ(1u, r.stats.num_dropped_hidden);
}

TEST(CompactionIteratorTest, DeletionAtSnapshotSequenceIsInThatStripe) {
  // seq 5 == snapshot 5: it belongs to the stripe of 5, the earliest one.
  auto in = Build({{"a", 5, kTypeDeletion, ""}, {"a", 4, kTypeValue, ""}});
  RunResult r = Compact(in, {5}, true);
  ASSERT_OK(r.status);
  EXPECT_EQ("", r.Keys());
  EXPECT_EQ(1u, r.stats.num_dropped_deletions);
}

TEST(CompactionIteratorTest, DeletionWithTimestampTypeTreatedAsDeletion) {
  auto in = Build({{"a", 3, kTypeDeletionWithTimestamp, ""}, {"a", 2, kTypeValue, ""}});
  EXPECT_EQ("", Compact(in, kNoSnapshots, true).Keys());
  EXPECT_EQ("a@3:20", Compact(in, kNoSnapshots, false).Keys());
}

// ---- single deletes ----

const auto kNothingBelow = [](const Slice&) { return false; };

TEST(CompactionIteratorTest, SingleDeleteMeetsPutBothDropped) {
  auto in = Build(
      {{"a", 2, kTypeSingleDeletion, ""}, {"a", 1, kTypeValue, "v"}, {"b", 1, kTypeValue, "b"}});
  // Not bottommost, but the key is nowhere below: the pair annihilates.
  RunResult r = Compact(in, kNoSnapshots, false, kNothingBelow);
  ASSERT_OK(r.status);
  EXPECT_EQ("b@1:1", r.Keys());
  // (Nothing below: the SingleDelete goes as any tombstone would, with all
  // it covers.)
  EXPECT_EQ(1u, r.stats.num_dropped_deletions + r.stats.num_single_delete_pairs);
  CheckAccounting(r, in.size());
}

// The key may have older versions below the output level: the SingleDelete
// stays as a tombstone (the Put goes), since a deletion between those
// versions and the Put may have been dropped by an earlier compaction.
TEST(CompactionIteratorTest, SingleDeleteKeptWhenKeyMayExistBelow) {
  auto in = Build(
      {{"a", 2, kTypeSingleDeletion, ""}, {"a", 1, kTypeValue, "v"}, {"b", 1, kTypeValue, "b"}});
  RunResult r = Compact(in, kNoSnapshots, false);
  ASSERT_OK(r.status);
  EXPECT_EQ("a@2:7 b@1:1", r.Keys());
  EXPECT_EQ(0u, r.stats.num_single_delete_pairs);
  CheckAccounting(r, in.size());
  r = Compact(in, kNoSnapshots, false, [](const Slice& k) { return k == Slice("a"); });
  EXPECT_EQ("a@2:7 b@1:1", r.Keys());
}

// db_stress's finding: Put(v1)@2 lies below the output level; SD@4 and
// Put(v3)@5 are compacted together first (SD@4 is hidden by the newer Put
// and dropped); then SD@6 meets Put@5 with nothing older in its input.
// Dropping that pair would bring v1 back.
TEST(CompactionIteratorTest, SingleDeleteCyclesDoNotResurrectAnOlderPut) {
  auto first = Compact(Build({{"a", 5, kTypeValue, "v3"}, {"a", 4, kTypeSingleDeletion, ""}}),
                       kNoSnapshots, false);
  ASSERT_OK(first.status);
  EXPECT_EQ("a@5:1", first.Keys());
  auto second = Compact(Build({{"a", 6, kTypeSingleDeletion, ""}, {"a", 5, kTypeValue, "v3"}}),
                        kNoSnapshots, false);
  ASSERT_OK(second.status);
  EXPECT_EQ("a@6:7", second.Keys());  // still covers Put(v1)@2 below
  // The kept SingleDelete then meets Put@2 where nothing is below it.
  auto third = Compact(Build({{"a", 6, kTypeSingleDeletion, ""}, {"a", 2, kTypeValue, "v1"}}),
                       kNoSnapshots, false, kNothingBelow);
  ASSERT_OK(third.status);
  EXPECT_EQ("", third.Keys());
}

TEST(CompactionIteratorTest, SingleDeletePairAtEndOfInput) {
  auto in = Build({{"a", 2, kTypeSingleDeletion, ""}, {"a", 1, kTypeValue, "v"}});
  RunResult r = Compact(in, kNoSnapshots, false, kNothingBelow);
  ASSERT_OK(r.status);
  EXPECT_EQ("", r.Keys());
  EXPECT_EQ(1u, r.stats.num_dropped_deletions + r.stats.num_single_delete_pairs);
  CheckAccounting(r, in.size());
  r = Compact(in, kNoSnapshots, false);
  ASSERT_OK(r.status);
  EXPECT_EQ("a@2:7", r.Keys());
}

TEST(CompactionIteratorTest, SingleDeleteAndPutSeparatedBySnapshotKept) {
  auto in = Build({{"a", 2, kTypeSingleDeletion, ""}, {"a", 1, kTypeValue, "v"}});
  for (bool bottom : {false, true}) {
    RunResult r = Compact(in, {1}, bottom);
    ASSERT_OK(r.status);
    EXPECT_EQ("a@2:7 a@1:1", r.Keys()) << bottom;
    EXPECT_EQ(0u, r.stats.num_single_delete_pairs);
    CheckAccounting(r, in.size());
  }
}

TEST(CompactionIteratorTest, SingleDeleteAloneDroppedOnlyWhenNothingBelow) {
  auto in = Build({{"a", 2, kTypeSingleDeletion, ""}, {"b", 1, kTypeValue, ""}});
  RunResult r = Compact(in, kNoSnapshots, true);
  ASSERT_OK(r.status);
  EXPECT_EQ("b@1:1", r.Keys());
  EXPECT_EQ(1u, r.stats.num_dropped_deletions);
  CheckAccounting(r, in.size());

  r = Compact(in, kNoSnapshots, false);
  EXPECT_EQ("a@2:7 b@1:1", r.Keys());
  r = Compact(in, kNoSnapshots, false, [](const Slice& k) { return k != Slice("a"); });
  EXPECT_EQ("b@1:1", r.Keys());
  // Above a snapshot: not in the earliest stripe.
  r = Compact(in, {1}, true);
  EXPECT_EQ("a@2:7 b@1:1", r.Keys());
}

TEST(CompactionIteratorTest, SingleDeleteOverDeleteOrMergeKeptAndHides) {
  for (ValueType t : {kTypeDeletion, kTypeMerge, kTypeSingleDeletion}) {
    auto in = Build({{"a", 3, kTypeSingleDeletion, ""}, {"a", 2, t, ""}, {"a", 1, kTypeValue, ""}});
    RunResult r = Compact(in, kNoSnapshots, false);
    ASSERT_OK(r.status);
    EXPECT_EQ("a@3:7", r.Keys()) << static_cast<int>(t);
    EXPECT_EQ(0u, r.stats.num_single_delete_pairs);
    EXPECT_EQ(2u, r.stats.num_dropped_hidden);
    CheckAccounting(r, in.size());
  }
}

TEST(CompactionIteratorTest, SingleDeleteOverPutAtBottommostCountsAsDeletion) {
  auto in = Build({{"a", 3, kTypeSingleDeletion, ""}, {"a", 2, kTypeValue, ""}});
  RunResult r = Compact(in, kNoSnapshots, true);
  ASSERT_OK(r.status);
  EXPECT_EQ("", r.Keys());
  EXPECT_EQ(1u, r.stats.num_dropped_deletions + r.stats.num_single_delete_pairs);
  CheckAccounting(r, in.size());
}

TEST(CompactionIteratorTest, SingleDeleteUnderMergeStillPairsWithPut) {
  auto in = Build({{"a", 4, kTypeMerge, "m"},
                   {"a", 3, kTypeSingleDeletion, ""},
                   {"a", 2, kTypeValue, ""},
                   {"b", 1, kTypeValue, ""}});
  RunResult r = Compact(in, kNoSnapshots, false, kNothingBelow);
  ASSERT_OK(r.status);
  EXPECT_EQ("a@4:2 b@1:1", r.Keys());
  EXPECT_EQ(1u, r.stats.num_single_delete_pairs);
  CheckAccounting(r, in.size());
}

TEST(CompactionIteratorTest, SingleDeleteKeptWhenAnOlderValueWouldReappear) {
  // The contract is broken (the key was written twice), and the older write
  // sits under a snapshot: dropping the pair would resurrect a@1 for the
  // latest reader, so the SingleDelete stays.
  auto in = Build({{"a", 5, kTypeSingleDeletion, ""},
                   {"a", 4, kTypeValue, "v4"},
                   {"a", 3, kTypeValue, "v3"},
                   {"a", 1, kTypeValue, "v1"},
                   {"b", 1, kTypeValue, ""}});
  RunResult r = Compact(in, {2}, false);
  ASSERT_OK(r.status);
  EXPECT_EQ("a@5:7 a@1:1 b@1:1", r.Keys());
  EXPECT_EQ("v1", r.out[1].value);
  EXPECT_EQ(0u, r.stats.num_single_delete_pairs);
  EXPECT_EQ(2u, r.stats.num_dropped_hidden);
  CheckAccounting(r, in.size());

  // Same with a merge operand as the older value.
  in = Build(
      {{"a", 5, kTypeSingleDeletion, ""}, {"a", 4, kTypeValue, ""}, {"a", 1, kTypeMerge, ""}});
  r = Compact(in, {2}, false);
  EXPECT_EQ("a@5:7 a@1:2", r.Keys());
}

TEST(CompactionIteratorTest, SingleDeleteKeptWhenKeyWrittenAgainInItsStripe) {
  // Put, Delete, Put, SingleDelete in one stripe: dropping the pair would
  // also drop the hidden Delete, exposing whatever lies below. The
  // SingleDelete stays and hides the rest of its stripe.
  for (ValueType t : {kTypeDeletion, kTypeValue, kTypeMerge, kTypeSingleDeletion}) {
    auto in = Build({{"a", 4, kTypeSingleDeletion, ""},
                     {"a", 3, kTypeValue, ""},
                     {"a", 2, t, ""},
                     {"a", 1, kTypeValue, ""},
                     {"b", 1, kTypeValue, ""}});
    RunResult r = Compact(in, kNoSnapshots, false);
    ASSERT_OK(r.status);
    EXPECT_EQ("a@4:7 b@1:1", r.Keys()) << static_cast<int>(t);
    EXPECT_EQ(0u, r.stats.num_single_delete_pairs);
    EXPECT_EQ(3u, r.stats.num_dropped_hidden);
    CheckAccounting(r, in.size());
  }
}

TEST(CompactionIteratorTest, SingleDeletePairOverOlderTombstoneDropped) {
  auto in = Build({{"a", 5, kTypeSingleDeletion, ""},
                   {"a", 4, kTypeValue, ""},
                   {"a", 1, kTypeDeletion, ""},
                   {"a", 0, kTypeValue, ""}});
  RunResult r = Compact(in, {2}, false);
  ASSERT_OK(r.status);
  EXPECT_EQ("a@1:0", r.Keys());
  EXPECT_EQ(1u, r.stats.num_single_delete_pairs);
  CheckAccounting(r, in.size());
  // Bottommost: the old tombstone goes too.
  r = Compact(in, {2}, true);
  EXPECT_EQ("", r.Keys());
  CheckAccounting(r, in.size());
}

TEST(CompactionIteratorTest, SingleDeleteValueIsPreserved) {
  auto in = Build({{"a", 2, kTypeSingleDeletion, "sd-payload"}, {"a", 1, kTypeMerge, ""}});
  RunResult r = Compact(in, kNoSnapshots, false);
  ASSERT_OK(r.status);
  ASSERT_EQ(1u, r.out.size());
  EXPECT_EQ(in[0].key, r.out[0].key);
  EXPECT_EQ("sd-payload", r.out[0].value);
}

// ---- other behaviour ----

TEST(CompactionIteratorTest, SequenceNumbersNeverZeroed) {
  auto in = Build({{"a", 9, kTypeValue, "v"}});
  RunResult r = Compact(in, kNoSnapshots, true);
  ASSERT_EQ(1u, r.out.size());
  EXPECT_EQ(in[0].key, r.out[0].key);
}

TEST(CompactionIteratorTest, CorruptKeyStopsWithCorruption) {
  std::vector<Entry> in = Build({{"a", 2, kTypeValue, "a"}});
  in.push_back({std::string("xy"), "short"});  // shorter than a trailer
  in.push_back({IKey("c", 1, kTypeValue), "c"});
  RunResult r = Compact(in, kNoSnapshots, false);
  EXPECT_TRUE(r.status.IsCorruption()) << r.status.ToString();
  EXPECT_NE(std::string::npos, r.status.ToString().find("7879")) << r.status.ToString();
  EXPECT_EQ("a@2:1", r.Keys());
  EXPECT_EQ(1u, r.stats.num_corrupt_keys);

  // An unknown value type (0x42).
  std::string bad = "b";
  PutFixed64(&bad, (7ull << 8) | 0x42);
  in = Build({{"a", 2, kTypeValue, "a"}});
  in.push_back({bad, ""});
  r = Compact(in, kNoSnapshots, true);
  EXPECT_TRUE(r.status.IsCorruption());
  EXPECT_NE(std::string::npos, r.status.ToString().find(Slice(bad).ToString(true)))
      << r.status.ToString();
  EXPECT_EQ("a@2:1", r.Keys());
}

TEST(CompactionIteratorTest, CorruptKeyAfterSingleDelete) {
  // The SingleDelete looks ahead; a corrupt key there is not mistaken for
  // anything: the SingleDelete is written, then the corruption reported.
  std::vector<Entry> in = Build({{"a", 2, kTypeSingleDeletion, ""}});
  in.push_back({std::string("z"), ""});
  RunResult r = Compact(in, kNoSnapshots, false);
  EXPECT_TRUE(r.status.IsCorruption());
  EXPECT_EQ("a@2:7", r.Keys());
}

TEST(CompactionIteratorTest, InputErrorIsReported) {
  auto in = Build({{"a", 1, kTypeValue, ""}});
  RunResult r = Compact(in, kNoSnapshots, false, {}, Status::IOError("disk on fire"));
  EXPECT_TRUE(r.status.IsIOError()) << r.status.ToString();
  EXPECT_EQ("a@1:1", r.Keys());
}

TEST(CompactionIteratorTest, SeekToFirstRestarts) {
  VectorIterator it(Build({{"a", 2, kTypeSingleDeletion, ""},
                           {"a", 1, kTypeValue, ""},
                           {"b", 3, kTypeValue, ""},
                           {"b", 2, kTypeValue, ""}}));
  CompactionIterator ci(&it, BytewiseComparator(), {}, false, kNothingBelow);
  for (int round = 0; round < 2; ++round) {
    std::string got;
    for (ci.SeekToFirst(); ci.Valid(); ci.Next()) got += Render(ci.key()) + " ";
    EXPECT_EQ("b@3:1 ", got);
    ASSERT_OK(ci.status());
    EXPECT_EQ(4u, ci.stats().num_input_records);
    EXPECT_EQ(1u, ci.stats().num_dropped_deletions + ci.stats().num_single_delete_pairs);
  }
}

TEST(CompactionIteratorTest, UsesTheUserComparator) {
  // Reverse order: "b" before "a".
  std::vector<Entry> in = Build({{"b", 3, kTypeValue, ""},
                                 {"b", 2, kTypeValue, ""},
                                 {"a", 5, kTypeDeletion, ""},
                                 {"a", 1, kTypeValue, ""}});
  VectorIterator it(in);
  CompactionIterator ci(&it, ReverseBytewiseComparator(), {}, true);
  std::string got;
  for (ci.SeekToFirst(); ci.Valid(); ci.Next()) got += Render(ci.key()) + " ";
  ASSERT_OK(ci.status());
  EXPECT_EQ("b@3:1 ", got);
}

// ---- randomized comparison against a reader model ----

namespace {

// What a reader at some snapshot sees for one key: the merge operands on top
// (newest first) and the base under them (a Put's value, or none for a
// deletion / no entry).
struct View {
  std::vector<std::string> operands;
  std::optional<std::string> base;
  bool operator==(const View& o) const { return operands == o.operands && base == o.base; }
};

std::string ToString(const View& v) {
  std::string s = "[";
  for (const auto& o : v.operands) s += o + ",";
  s += "] base=";
  s += v.base ? *v.base : "<none>";
  return s;
}

// Newest entry of user_key with seq <= snap (plus the operands above it),
// over entries sorted in internal-key order. `layers` are read in order,
// newest first (the input, then what lies below it).
View Read(const std::vector<const std::vector<Entry>*>& layers, const std::string& user_key,
          SequenceNumber snap) {
  View v;
  for (const auto* layer : layers) {
    for (const Entry& e : *layer) {
      ParsedInternalKey p;
      EXPECT_OK(ParseInternalKey(e.key, &p));
      if (p.user_key != Slice(user_key) || p.sequence > snap) continue;
      if (p.type == kTypeMerge) {
        v.operands.push_back(e.value);
        continue;
      }
      if (p.type == kTypeValue) v.base = e.value;
      return v;
    }
  }
  return v;
}

struct History {
  std::vector<Entry> input;  // newer part, internal-key order
  std::vector<Entry> below;  // older part (a lower level), internal-key order
  std::vector<SequenceNumber> snapshots;
  std::vector<std::string> keys;
};

// strict_single_delete: a SingleDelete only where RocksDB allows it (exactly
// one Put since the key's last deletion); otherwise only "the previous write
// of the key is a Put" (the key may have been overwritten).
History MakeHistory(std::mt19937_64* rng, bool strict_single_delete, bool with_below) {
  History h;
  const int num_keys = 1 + static_cast<int>((*rng)() % 6);
  for (int i = 0; i < num_keys; ++i) h.keys.push_back(std::string(1, static_cast<char>('a' + i)));
  const int num_ops = 1 + static_cast<int>((*rng)() % 60);
  // Per key: the types written so far (oldest first).
  std::map<std::string, std::vector<ValueType>> written;
  std::vector<std::pair<Entry, SequenceNumber>> all;
  for (int i = 0; i < num_ops; ++i) {
    const SequenceNumber seq = static_cast<SequenceNumber>(i + 1);
    const std::string& k = h.keys[(*rng)() % h.keys.size()];
    std::vector<ValueType>& w = written[k];
    ValueType t;
    const unsigned r = static_cast<unsigned>((*rng)() % 10);
    bool sd_allowed = !w.empty() && w.back() == kTypeValue;
    if (strict_single_delete && sd_allowed && w.size() >= 2) {
      const ValueType before = w[w.size() - 2];
      sd_allowed = before == kTypeDeletion || before == kTypeSingleDeletion;
    }
    if (r < 4) {
      t = kTypeValue;
    } else if (r < 6) {
      t = kTypeMerge;
    } else if (r < 8 && sd_allowed) {
      t = kTypeSingleDeletion;
    } else {
      t = kTypeDeletion;
    }
    w.push_back(t);
    std::string value;
    if (t == kTypeValue) value = "v" + std::to_string(seq);
    if (t == kTypeMerge) value = "m" + std::to_string(seq);
    all.push_back({{IKey(k, seq, t), value}, seq});
  }
  SequenceNumber cut = 0;  // entries with seq <= cut lie below the input
  if (with_below) cut = (*rng)() % (num_ops + 1);
  InternalKeyComparator icmp(BytewiseComparator());
  for (auto& [e, seq] : all) (seq <= cut ? h.below : h.input).push_back(std::move(e));
  auto by_key = [&icmp](const Entry& a, const Entry& b) { return icmp.Compare(a.key, b.key) < 0; };
  std::sort(h.input.begin(), h.input.end(), by_key);
  std::sort(h.below.begin(), h.below.end(), by_key);
  const int num_snaps = static_cast<int>((*rng)() % 5);
  for (int i = 0; i < num_snaps; ++i) {
    h.snapshots.push_back((*rng)() % (static_cast<SequenceNumber>(num_ops) + 2));
  }
  std::sort(h.snapshots.begin(), h.snapshots.end());
  h.snapshots.erase(std::unique(h.snapshots.begin(), h.snapshots.end()), h.snapshots.end());
  return h;
}

std::string Dump(const std::vector<Entry>& v) {
  std::string s;
  for (const Entry& e : v) s += Render(e.key) + "=" + e.value + " ";
  return s;
}

// Runs one history through the iterator and checks the invariants.
void CheckHistory(const History& h, bool bottommost,
                  const std::function<bool(const Slice&)>& may_exist_below,
                  const std::string& what) {
  RunResult r = Compact(h.input, h.snapshots, bottommost, may_exist_below);
  std::string snaps;
  for (SequenceNumber s : h.snapshots) snaps += std::to_string(s) + " ";
  const std::string ctx = what + "\n input: " + Dump(h.input) + "\n below: " + Dump(h.below) +
                          "\n snapshots: " + snaps + "\n output: " + Dump(r.out);
  ASSERT_OK(r.status);
  CheckAccounting(r, h.input.size());

  // Output: strictly increasing, and every entry is an input entry unchanged.
  InternalKeyComparator icmp(BytewiseComparator());
  size_t j = 0;
  for (size_t i = 0; i < r.out.size(); ++i) {
    if (i > 0) {
      ASSERT_LT(icmp.Compare(r.out[i - 1].key, r.out[i].key), 0) << ctx;
    }
    while (j < h.input.size() && h.input[j].key != r.out[i].key) ++j;
    ASSERT_LT(j, h.input.size()) << "output entry not in input\n" << ctx;
    ASSERT_EQ(h.input[j].value, r.out[i].value) << ctx;
  }

  // Every snapshot and the latest state read the same over output + below as
  // over input + below.
  std::vector<SequenceNumber> read_at = h.snapshots;
  read_at.push_back(kMaxSequenceNumber);
  for (SequenceNumber snap : read_at) {
    for (const std::string& k : h.keys) {
      const View want = Read({&h.input, &h.below}, k, snap);
      const View got = Read({&r.out, &h.below}, k, snap);
      ASSERT_TRUE(want == got) << "key " << k << " at " << snap << ": want " << ToString(want)
                               << " got " << ToString(got) << "\n"
                               << ctx;
    }
  }
}

}  // namespace

TEST(CompactionIteratorTest, RandomizedAgainstReaderModel) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  CompactionIteratorStats total;
  for (int iter = 0; iter < 3000; ++iter) {
    SCOPED_TRACE("seed " + std::to_string(seed) + " iteration " + std::to_string(iter));
    // (1) Nothing below the input; SingleDelete even on overwritten keys.
    {
      History h = MakeHistory(&rng, /*strict_single_delete=*/false, /*with_below=*/false);
      ASSERT_NO_FATAL_FAILURE(CheckHistory(h, true, {}, "bottommost"));
      ASSERT_NO_FATAL_FAILURE(CheckHistory(h, false, {}, "not bottommost, no function"));
      // Any answer is right when nothing is below; answer per key at random.
      const uint64_t mask = rng();
      ASSERT_NO_FATAL_FAILURE(CheckHistory(
          h, false, [mask](const Slice& k) { return ((mask >> (k[0] & 63)) & 1) != 0; },
          "not bottommost, random answers"));
    }
    // (2) Older entries below the input; SingleDelete used as RocksDB
    // requires (the pair rule trusts that for what lies below).
    {
      History h = MakeHistory(&rng, /*strict_single_delete=*/true, /*with_below=*/true);
      std::set<std::string> below_keys;
      for (const Entry& e : h.below) below_keys.insert(ExtractUserKey(e.key).ToString());
      const bool bottom = h.below.empty();
      ASSERT_NO_FATAL_FAILURE(CheckHistory(h, bottom, {}, "below, no function"));
      ASSERT_NO_FATAL_FAILURE(CheckHistory(
          h, bottom, [&below_keys](const Slice& k) { return below_keys.count(k.ToString()) > 0; },
          "below, exact function"));
      RunResult r = Compact(h.input, h.snapshots, bottom, [&below_keys](const Slice& k) {
        return below_keys.count(k.ToString()) > 0;
      });
      total.num_dropped_hidden += r.stats.num_dropped_hidden;
      total.num_dropped_deletions += r.stats.num_dropped_deletions;
      total.num_dropped_covered += r.stats.num_dropped_covered;
      total.num_single_delete_pairs += r.stats.num_single_delete_pairs;
    }
  }
  // The histories exercise every rule.
  EXPECT_GT(total.num_dropped_hidden, 0u);
  EXPECT_GT(total.num_dropped_deletions, 0u);
  EXPECT_GT(total.num_dropped_covered, 0u);
  EXPECT_GT(total.num_single_delete_pairs, 0u);
}

// ---- merges with an operator ----

namespace {

// Joins the base and the operands (oldest first) with ','; no base starts
// with the first operand ("no base" and "empty base" differ). Associative,
// so PartialMerge (when allowed) joins the same way. An operand "fail"
// fails the full merge.
class JoinOperator final : public MergeOperator {
 public:
  explicit JoinOperator(bool allow_partial = true) : allow_partial_(allow_partial) {}
  bool FullMergeV2(const MergeOperationInput& in, MergeOperationOutput* out) const override {
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
    if (!allow_partial_) return false;
    *new_value = left.ToString() + "," + right.ToString();
    return true;
  }
  const char* Name() const override { return "JoinOperator"; }

 private:
  bool allow_partial_;
};

// A filter driven by a function of (type, value); counts its calls.
class FnFilter final : public CompactionFilter {
 public:
  using Fn =
      std::function<Decision(ValueType type, const std::string& key, const std::string& value,
                             std::string* new_value, std::string* skip_until)>;
  explicit FnFilter(Fn fn) : fn_(std::move(fn)) {}
  Decision FilterV2(int level, const Slice& key, ValueType type, const Slice& value,
                    std::string* new_value, std::string* skip_until) const override {
    ++calls;
    last_level = level;
    seen.push_back(key.ToString() + "=" + value.ToString());
    return fn_(type, key.ToString(), value.ToString(), new_value, skip_until);
  }
  const char* Name() const override { return "FnFilter"; }
  mutable int calls = 0;
  mutable int last_level = -1;
  mutable std::vector<std::string> seen;

 private:
  Fn fn_;
};

// Keys with values: "a@3:1=v".
std::string KeysValues(const RunResult& r) {
  std::string s;
  for (const Entry& e : r.out) {
    if (!s.empty()) s += " ";
    s += Render(e.key) + "=" + e.value;
  }
  return s;
}

CompactionIteratorOptions MergeOptions(const MergeOperator* op,
                                       std::vector<SequenceNumber> snapshots, bool bottommost) {
  CompactionIteratorOptions o;
  o.user_cmp = BytewiseComparator();
  o.snapshots = std::move(snapshots);
  o.bottommost = bottommost;
  o.merge_operator = op;
  return o;
}

}  // namespace

TEST(CompactionIteratorTest, MergeRunOverPutFullMerged) {
  JoinOperator op;
  auto in = Build({{"a", 5, kTypeMerge, "m5"},
                   {"a", 4, kTypeMerge, "m4"},
                   {"a", 3, kTypeValue, "v3"},
                   {"a", 2, kTypeMerge, "m2"},
                   {"a", 1, kTypeValue, "v1"},
                   {"b", 1, kTypeValue, "b1"}});
  RunResult r = CompactWith(in, MergeOptions(&op, {}, false));
  ASSERT_OK(r.status);
  EXPECT_EQ("a@5:1=v3,m4,m5 b@1:1=b1", KeysValues(r));
  EXPECT_EQ(1u, r.stats.num_full_merges);
  EXPECT_EQ(2u, r.stats.num_merge_absorbed);
  EXPECT_EQ(2u, r.stats.num_dropped_hidden);
  CheckAccounting(r, in.size());
}

TEST(CompactionIteratorTest, MergeRunOverDeletionDropsIt) {
  JoinOperator op;
  auto in = Build({{"a", 5, kTypeMerge, "m5"},
                   {"a", 4, kTypeDeletion, ""},
                   {"a", 3, kTypeValue, "v3"},
                   {"b", 5, kTypeMerge, "n5"},
                   {"b", 4, kTypeSingleDeletion, ""},
                   {"b", 3, kTypeValue, "w3"}});
  RunResult r = CompactWith(in, MergeOptions(&op, {}, false));
  ASSERT_OK(r.status);
  EXPECT_EQ("a@5:1=m5 b@5:1=n5", KeysValues(r));
  EXPECT_EQ(2u, r.stats.num_full_merges);
  CheckAccounting(r, in.size());
}

TEST(CompactionIteratorTest, MergeRunWithoutBaseDependsOnBottom) {
  JoinOperator op;
  auto in = Build({{"a", 5, kTypeMerge, "m5"}, {"a", 4, kTypeMerge, "m4"}});
  RunResult r = CompactWith(in, MergeOptions(&op, {}, /*bottommost=*/true));
  ASSERT_OK(r.status);
  EXPECT_EQ("a@5:1=m4,m5", KeysValues(r));
  CheckAccounting(r, in.size());

  // Not bottommost: an older base may lie below; pre-combined only.
  r = CompactWith(in, MergeOptions(&op, {}, false));
  ASSERT_OK(r.status);
  EXPECT_EQ("a@5:2=m4,m5", KeysValues(r));
  EXPECT_EQ(1u, r.stats.num_partial_merges);
  CheckAccounting(r, in.size());

  // ... unless key_may_exist_below says the key is nowhere below.
  CompactionIteratorOptions o = MergeOptions(&op, {}, false);
  o.key_may_exist_below = [](const Slice&) { return false; };
  r = CompactWith(in, std::move(o));
  EXPECT_EQ("a@5:1=m4,m5", KeysValues(r));

  // An operator without PartialMerge: the operands stay as they are.
  JoinOperator no_partial(false);
  r = CompactWith(in, MergeOptions(&no_partial, {}, false));
  ASSERT_OK(r.status);
  EXPECT_EQ("a@5:2=m5 a@4:2=m4", KeysValues(r));
  CheckAccounting(r, in.size());
}

TEST(CompactionIteratorTest, MergeRunsNeverCrossASnapshot) {
  // Snapshots 3 and 6: stripes (6, max] = {8, 7}, (3, 6] = {6, 5},
  // [0, 3] = {3, 2 (Put), 1}.
  JoinOperator op;
  auto in = Build({{"a", 8, kTypeMerge, "m8"},
                   {"a", 7, kTypeMerge, "m7"},
                   {"a", 6, kTypeMerge, "m6"},
                   {"a", 5, kTypeMerge, "m5"},
                   {"a", 3, kTypeMerge, "m3"},
                   {"a", 2, kTypeValue, "v2"},
                   {"a", 1, kTypeMerge, "m1"}});
  RunResult r = CompactWith(in, MergeOptions(&op, {3, 6}, true));
  ASSERT_OK(r.status);
  EXPECT_EQ("a@8:2=m7,m8 a@6:2=m5,m6 a@3:1=v2,m3", KeysValues(r));
  EXPECT_EQ(1u, r.stats.num_dropped_hidden);
  CheckAccounting(r, in.size());

  // Bottommost with the earliest stripe holding only operands: full merge
  // there, partial above.
  auto in2 = Build({{"b", 8, kTypeMerge, "m8"},
                    {"b", 7, kTypeMerge, "m7"},
                    {"b", 2, kTypeMerge, "m2"},
                    {"b", 1, kTypeMerge, "m1"}});
  r = CompactWith(in2, MergeOptions(&op, {5}, true));
  EXPECT_EQ("b@8:2=m7,m8 b@2:1=m1,m2", KeysValues(r));
  r = CompactWith(in2, MergeOptions(&op, {5}, false));
  EXPECT_EQ("b@8:2=m7,m8 b@2:2=m1,m2", KeysValues(r));
}

TEST(CompactionIteratorTest, MergeFailureStopsWithCorruption) {
  JoinOperator op;
  auto in = Build({{"a", 2, kTypeValue, "a"},
                   {"b", 5, kTypeMerge, "fail"},
                   {"b", 4, kTypeValue, "v"},
                   {"c", 1, kTypeValue, "c"}});
  RunResult r = CompactWith(in, MergeOptions(&op, {}, false));
  EXPECT_TRUE(r.status.IsCorruption()) << r.status.ToString();
  EXPECT_NE(std::string::npos, r.status.ToString().find("JoinOperator"));
  EXPECT_EQ("a@2:1=a", KeysValues(r));  // nothing after the failure
}

TEST(CompactionIteratorTest, MergeOperandUnderDeletionStillHidden) {
  JoinOperator op;
  auto in = Build({{"a", 3, kTypeDeletion, ""}, {"a", 2, kTypeMerge, "m2"}});
  RunResult r = CompactWith(in, MergeOptions(&op, {}, false));
  EXPECT_EQ("a@3:0=", KeysValues(r));
  r = CompactWith(in, MergeOptions(&op, {}, true));
  EXPECT_EQ("", KeysValues(r));
  CheckAccounting(r, in.size());
}

// ---- compaction filter ----

TEST(CompactionIteratorTest, FilterKeepChangeRemove) {
  FnFilter filter([](CompactionFilter::ValueType, const std::string& key, const std::string&,
                     std::string* new_value, std::string*) {
    if (key == "change") {
      *new_value = "changed";
      return CompactionFilter::Decision::kChangeValue;
    }
    if (key == "remove") return CompactionFilter::Decision::kRemove;
    return CompactionFilter::Decision::kKeep;
  });
  auto in = Build({{"change", 5, kTypeValue, "old"},
                   {"change", 4, kTypeValue, "older"},
                   {"keep", 5, kTypeValue, "k"},
                   {"remove", 7, kTypeValue, "r"},
                   {"remove", 6, kTypeValue, "r-older"}});
  CompactionIteratorOptions o;
  o.compaction_filter = &filter;
  o.filter_level = 4;
  RunResult r = CompactWith(in, o);
  ASSERT_OK(r.status);
  // Not bottommost: the removed value becomes a Deletion at its sequence.
  EXPECT_EQ("change@5:1=changed keep@5:1=k remove@7:0=", KeysValues(r));
  EXPECT_EQ(3, filter.calls);  // only the newest version of each key
  EXPECT_EQ(4, filter.last_level);
  EXPECT_EQ(1u, r.stats.num_filter_changed);
  EXPECT_EQ(1u, r.stats.num_filter_to_deletion);
  CheckAccounting(r, in.size());

  // Bottommost: the Deletion would be dropped, so the value and what it
  // hides go.
  o.bottommost = true;
  r = CompactWith(in, o);
  ASSERT_OK(r.status);
  EXPECT_EQ("change@5:1=changed keep@5:1=k", KeysValues(r));
  EXPECT_EQ(1u, r.stats.num_filter_removed);
  EXPECT_EQ(1u, r.stats.num_dropped_covered);
  CheckAccounting(r, in.size());
}

TEST(CompactionIteratorTest, FilterNeverSeesVersionsASnapshotCanSee) {
  FnFilter filter([](CompactionFilter::ValueType, const std::string&, const std::string&,
                     std::string*, std::string*) { return CompactionFilter::Decision::kRemove; });
  // Snapshot 5: only versions above 5 may be filtered.
  auto in = Build({{"a", 7, kTypeValue, "a7"},
                   {"a", 5, kTypeValue, "a5"},
                   {"b", 5, kTypeValue, "b5"},
                   {"c", 3, kTypeValue, "c3"},
                   {"d", 9, kTypeMerge, "d9"},
                   {"d", 8, kTypeMerge, "d8"},
                   {"d", 4, kTypeMerge, "d4"}});
  JoinOperator op(false);
  CompactionIteratorOptions o;
  o.snapshots = {5};
  o.bottommost = true;
  o.compaction_filter = &filter;
  o.merge_operator = &op;
  RunResult r = CompactWith(in, o);
  ASSERT_OK(r.status);
  EXPECT_EQ("a@7:0= a@5:1=a5 b@5:1=b5 c@3:1=c3 d@4:1=d4", KeysValues(r));
  std::string seen;
  for (const std::string& s : filter.seen) seen += s + " ";
  EXPECT_EQ("a=a7 d=d9 d=d8 ", seen);
  CheckAccounting(r, in.size());
}

TEST(CompactionIteratorTest, FilterRemovesAndChangesMergeOperands) {
  FnFilter filter([](CompactionFilter::ValueType type, const std::string&, const std::string& value,
                     std::string* new_value, std::string*) {
    if (type == CompactionFilter::ValueType::kMergeOperand) {
      if (value == "drop") return CompactionFilter::Decision::kRemove;
      if (value == "old") {
        *new_value = "new";
        return CompactionFilter::Decision::kChangeValue;
      }
    }
    return CompactionFilter::Decision::kKeep;
  });
  JoinOperator op;
  auto in = Build({{"a", 9, kTypeMerge, "x"},
                   {"a", 8, kTypeMerge, "drop"},
                   {"a", 7, kTypeMerge, "old"},
                   {"a", 6, kTypeValue, "base"},
                   {"b", 9, kTypeMerge, "drop"},
                   {"b", 8, kTypeValue, "bbase"}});
  CompactionIteratorOptions o = MergeOptions(&op, {}, false);
  o.compaction_filter = &filter;
  RunResult r = CompactWith(in, o);
  ASSERT_OK(r.status);
  // b: its only operand removed; the Put under it is then filtered itself.
  EXPECT_EQ("a@9:1=base,new,x b@8:1=bbase", KeysValues(r));
  std::string seen;
  for (const std::string& s : filter.seen) seen += s + " ";
  // The merged result of a is offered as a value too.
  EXPECT_EQ("a=x a=drop a=old a=base,new,x b=drop b=bbase ", seen);
  EXPECT_EQ(2u, r.stats.num_filter_removed);
  EXPECT_EQ(1u, r.stats.num_filter_changed);
  CheckAccounting(r, in.size());
}

TEST(CompactionIteratorTest, FilterOnMergedResult) {
  FnFilter filter([](CompactionFilter::ValueType type, const std::string&, const std::string& value,
                     std::string* new_value, std::string*) {
    if (type == CompactionFilter::ValueType::kValue && value == "m1,m2") {
      return CompactionFilter::Decision::kRemove;
    }
    if (type == CompactionFilter::ValueType::kValue && value == "v,m3") {
      *new_value = "rewritten";
      return CompactionFilter::Decision::kChangeValue;
    }
    return CompactionFilter::Decision::kKeep;
  });
  JoinOperator op;
  auto in = Build({{"a", 2, kTypeMerge, "m2"},
                   {"a", 1, kTypeMerge, "m1"},
                   {"b", 3, kTypeMerge, "m3"},
                   {"b", 2, kTypeValue, "v"}});
  CompactionIteratorOptions o = MergeOptions(&op, {}, true);
  o.compaction_filter = &filter;
  RunResult r = CompactWith(in, o);
  ASSERT_OK(r.status);
  EXPECT_EQ("b@3:1=rewritten", KeysValues(r));
  CheckAccounting(r, in.size());
  // Not at the bottom the run is only partially merged: no value to filter.
  o.bottommost = false;
  r = CompactWith(in, o);
  ASSERT_OK(r.status);
  EXPECT_EQ("a@2:2=m1,m2 b@3:1=rewritten", KeysValues(r));
}

TEST(CompactionIteratorTest, FilterRemoveAndSkipUntil) {
  FnFilter filter([](CompactionFilter::ValueType, const std::string& key, const std::string&,
                     std::string*, std::string* skip_until) {
    if (key == "b") {
      *skip_until = "e";
      return CompactionFilter::Decision::kRemoveAndSkipUntil;
    }
    if (key == "f") {
      *skip_until = "a";  // backwards: acts as kKeep
      return CompactionFilter::Decision::kRemoveAndSkipUntil;
    }
    return CompactionFilter::Decision::kKeep;
  });
  auto in = Build({{"a", 1, kTypeValue, "a"},
                   {"b", 2, kTypeValue, "b"},
                   {"b", 1, kTypeValue, "b-old"},
                   {"c", 1, kTypeValue, "c"},
                   {"d", 1, kTypeDeletion, ""},
                   {"e", 1, kTypeValue, "e"},
                   {"f", 1, kTypeValue, "f"}});
  CompactionIteratorOptions o;
  o.compaction_filter = &filter;
  int seeks = 0;
  RunResult r = CompactWith(in, o, &seeks);
  ASSERT_OK(r.status);
  EXPECT_EQ("a@1:1=a e@1:1=e f@1:1=f", KeysValues(r));
  EXPECT_EQ(1, seeks);
  EXPECT_EQ(1u, r.stats.num_filter_skips);
  EXPECT_EQ(1u, r.stats.num_filter_removed);

  // With a snapshot it acts as kKeep (though b@2 is above the snapshot).
  o.snapshots = {1};
  r = CompactWith(in, o, &seeks);
  ASSERT_OK(r.status);
  EXPECT_EQ("a@1:1=a b@2:1=b b@1:1=b-old c@1:1=c d@1:0= e@1:1=e f@1:1=f", KeysValues(r));
  EXPECT_EQ(0, seeks);
  EXPECT_EQ(0u, r.stats.num_filter_skips);
  CheckAccounting(r, in.size());
}

// ---- range deletions ----

TEST(CompactionIteratorTest, RangeTombstoneDropsCoveredEntriesOfItsStripe) {
  InternalKeyComparator icmp(BytewiseComparator());
  // Tombstone [b, d)@10, snapshot 6: covers versions of b and c in (6, 10).
  CompactionRangeDelAggregator agg(&icmp, {6});
  agg.AddTombstones(std::vector<RangeTombstone>{{"b", "d", 10}});
  auto in = Build({{"a", 8, kTypeValue, "a8"},
                   {"b", 12, kTypeValue, "b12"},
                   {"b", 9, kTypeValue, "b9"},
                   {"b", 8, kTypeDeletion, ""},
                   {"b", 5, kTypeValue, "b5"},
                   {"c", 9, kTypeMerge, "c9"},
                   {"c", 8, kTypeSingleDeletion, ""},
                   {"c", 7, kTypeMerge, "c7"},
                   {"c", 4, kTypeValue, "c4"},
                   {"d", 8, kTypeValue, "d8"}});
  CompactionIteratorOptions o;
  o.snapshots = {6};
  o.range_del_agg = &agg;
  RunResult r = CompactWith(in, o);
  ASSERT_OK(r.status);
  EXPECT_EQ("a@8:1=a8 b@12:1=b12 b@5:1=b5 c@4:1=c4 d@8:1=d8", KeysValues(r));
  EXPECT_EQ(3u, r.stats.num_dropped_range_del);  // c@9, c@8, c@7
  EXPECT_EQ(2u, r.stats.num_dropped_hidden);     // b@9, b@8 under b@12
  CheckAccounting(r, in.size());
}

TEST(CompactionIteratorTest, RangeTombstoneUnderMergeRun) {
  InternalKeyComparator icmp(BytewiseComparator());
  CompactionRangeDelAggregator agg(&icmp, {});
  agg.AddTombstones(std::vector<RangeTombstone>{{"a", "b", 5}});
  JoinOperator op;
  auto in = Build({{"a", 7, kTypeMerge, "m7"},
                   {"a", 6, kTypeMerge, "m6"},
                   {"a", 4, kTypeMerge, "m4"},
                   {"a", 3, kTypeValue, "v3"}});
  CompactionIteratorOptions o = MergeOptions(&op, {}, false);
  o.range_del_agg = &agg;
  RunResult r = CompactWith(in, o);
  ASSERT_OK(r.status);
  // The tombstone acts as a deletion under the run.
  EXPECT_EQ("a@7:1=m6,m7", KeysValues(r));
  CheckAccounting(r, in.size());
}

TEST(CompactionIteratorTest, SingleDeleteWhosePutIsRangeDeleted) {
  InternalKeyComparator icmp(BytewiseComparator());
  CompactionRangeDelAggregator agg(&icmp, {});
  agg.AddTombstones(std::vector<RangeTombstone>{{"a", "b", 5}});
  auto in = Build({{"a", 6, kTypeSingleDeletion, ""}, {"a", 4, kTypeValue, "v4"}});
  CompactionIteratorOptions o;
  o.range_del_agg = &agg;
  o.key_may_exist_below = kNothingBelow;
  RunResult r = CompactWith(in, o);
  ASSERT_OK(r.status);
  // The pair goes; the tombstone (written by the caller) still covers
  // anything older below.
  EXPECT_EQ("", KeysValues(r));
  CheckAccounting(r, in.size());
}

// ---- randomized: merges, range tombstones and a filter against a model ----

namespace {

struct Tomb {
  std::string start, end;
  SequenceNumber seq;
};

// The value a reader at `snap` computes for user_key over `layers` (newest
// first, each in internal-key order) and the tombstones: operands down to
// the newest Put / deletion / covered version, full-merged with op. "<none>"
// when nothing; "<error>" when the merge fails.
std::string ReadValue(const std::vector<const std::vector<Entry>*>& layers,
                      const std::vector<Tomb>& tombs, const MergeOperator& op,
                      const std::string& user_key, SequenceNumber snap) {
  std::vector<std::string> operands;  // newest first
  std::optional<std::string> base;
  bool done = false;
  for (const auto* layer : layers) {
    for (const Entry& e : *layer) {
      ParsedInternalKey p;
      EXPECT_OK(ParseInternalKey(e.key, &p));
      if (p.user_key != Slice(user_key) || p.sequence > snap) continue;
      bool covered = false;
      for (const Tomb& t : tombs) {
        if (t.start <= user_key && user_key < t.end && t.seq > p.sequence && t.seq <= snap) {
          covered = true;
        }
      }
      if (covered) {
        done = true;
        break;
      }
      if (p.type == kTypeMerge) {
        operands.push_back(e.value);
        continue;
      }
      if (p.type == kTypeValue) base = e.value;
      done = true;
      break;
    }
    if (done) break;
  }
  if (operands.empty()) return base ? "=" + *base : "<none>";
  std::vector<Slice> ops(operands.rbegin(), operands.rend());
  std::string result;
  Slice base_slice;
  if (base) base_slice = *base;
  Status s =
      TimedFullMerge(&op, user_key, base ? &base_slice : nullptr, ops, &result, nullptr, nullptr);
  if (!s.ok()) return "<error>";
  return "=" + result;
}

struct MergeHistory {
  std::vector<Entry> input;
  std::vector<Tomb> input_tombs;
  std::vector<SequenceNumber> snapshots;
  std::vector<std::string> keys;
};

MergeHistory MakeMergeHistory(std::mt19937_64* rng, bool with_tombs) {
  MergeHistory h;
  const int num_keys = 1 + static_cast<int>((*rng)() % 5);
  for (int i = 0; i < num_keys; ++i) h.keys.push_back(std::string(1, static_cast<char>('a' + i)));
  const int num_ops = 1 + static_cast<int>((*rng)() % 40);
  std::map<std::string, std::vector<ValueType>> written;
  for (int i = 0; i < num_ops; ++i) {
    const SequenceNumber seq = static_cast<SequenceNumber>(i + 1);
    const unsigned r = static_cast<unsigned>((*rng)() % 20);
    if (with_tombs && r == 0) {
      size_t a = (*rng)() % h.keys.size();
      size_t b = (*rng)() % (h.keys.size() + 1);
      if (a > b) std::swap(a, b);
      const std::string end = b < h.keys.size() ? h.keys[b] : std::string("z");
      h.input_tombs.push_back({h.keys[a], end, seq});
      continue;
    }
    const std::string& k = h.keys[(*rng)() % h.keys.size()];
    std::vector<ValueType>& w = written[k];
    // SingleDelete only as RocksDB allows it: right after the key's only
    // Put since its last deletion.
    bool sd_allowed = !w.empty() && w.back() == kTypeValue;
    if (sd_allowed && w.size() >= 2) {
      sd_allowed = w[w.size() - 2] == kTypeDeletion || w[w.size() - 2] == kTypeSingleDeletion;
    }
    ValueType t;
    if (r < 7) {
      t = kTypeMerge;
    } else if (r < 12) {
      t = kTypeValue;
    } else if (r < 14 && sd_allowed) {
      t = kTypeSingleDeletion;
    } else {
      t = kTypeDeletion;
    }
    w.push_back(t);
    std::string value;
    if (t == kTypeValue) value = "v" + std::to_string(seq);
    if (t == kTypeMerge) value = "m" + std::to_string(seq);
    h.input.push_back({IKey(k, seq, t), value});
  }
  InternalKeyComparator icmp(BytewiseComparator());
  std::sort(h.input.begin(), h.input.end(),
            [&icmp](const Entry& a, const Entry& b) { return icmp.Compare(a.key, b.key) < 0; });
  const int num_snaps = static_cast<int>((*rng)() % 4);
  for (int i = 0; i < num_snaps; ++i) {
    h.snapshots.push_back((*rng)() % (static_cast<SequenceNumber>(num_ops) + 2));
  }
  std::sort(h.snapshots.begin(), h.snapshots.end());
  h.snapshots.erase(std::unique(h.snapshots.begin(), h.snapshots.end()), h.snapshots.end());
  return h;
}

// The sequence a test value or operand was written with ("v12", "m7!",
// "m3,m4": the last part).
SequenceNumber SeqOfValue(const std::string& v) {
  const size_t comma = v.rfind(',');
  std::string part = comma == std::string::npos ? v : v.substr(comma + 1);
  while (!part.empty() && part.back() == '!') part.pop_back();
  return part.size() >= 2 ? std::stoull(part.substr(1)) : 0;
}

// Runs h (bottommost or not) with the operator, its tombstones, and
// optionally a filter, and compares reads. below: what a lower level holds
// (read under both the input and the output).
void CheckMergeHistory(const MergeHistory& h, const MergeOperator& op, bool bottommost,
                       const std::vector<Entry>& below, const CompactionFilter* filter,
                       CompactionIteratorStats* total, const std::string& what) {
  InternalKeyComparator icmp(BytewiseComparator());
  CompactionRangeDelAggregator agg(&icmp, h.snapshots);
  std::vector<RangeTombstone> rts;
  for (const Tomb& t : h.input_tombs) rts.push_back({t.start, t.end, t.seq});
  agg.AddTombstones(rts);
  CompactionIteratorOptions o = MergeOptions(&op, h.snapshots, bottommost);
  o.range_del_agg = &agg;
  o.compaction_filter = filter;
  RunResult r = CompactWith(h.input, o);

  std::string snaps;
  for (SequenceNumber s : h.snapshots) snaps += std::to_string(s) + " ";
  std::string tombs;
  for (const Tomb& t : h.input_tombs) {
    tombs += "[" + t.start + "," + t.end + ")@" + std::to_string(t.seq) + " ";
  }
  const std::string ctx = what + "\n input: " + Dump(h.input) + "\n below: " + Dump(below) +
                          "\n tombstones: " + tombs + "\n snapshots: " + snaps +
                          "\n output: " + Dump(r.out);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString() << ctx;
  CheckAccounting(r, h.input.size());

  // Output: strictly increasing; each output's sequence is an input
  // sequence of the same key.
  for (size_t i = 0; i < r.out.size(); ++i) {
    if (i > 0) {
      ASSERT_LT(icmp.Compare(r.out[i - 1].key, r.out[i].key), 0) << ctx;
    }
    ParsedInternalKey po;
    ASSERT_OK(ParseInternalKey(r.out[i].key, &po));
    bool found = false;
    for (const Entry& e : h.input) {
      ParsedInternalKey pi;
      ASSERT_OK(ParseInternalKey(e.key, &pi));
      if (pi.user_key == po.user_key && pi.sequence == po.sequence) found = true;
    }
    ASSERT_TRUE(found) << "output " << Render(r.out[i].key) << " has no input sequence\n" << ctx;
  }

  // Reads at every snapshot and (without a filter) the latest state.
  std::vector<SequenceNumber> read_at = h.snapshots;
  if (filter == nullptr) read_at.push_back(kMaxSequenceNumber);
  for (SequenceNumber snap : read_at) {
    for (const std::string& k : h.keys) {
      const std::string want = ReadValue({&h.input, &below}, h.input_tombs, op, k, snap);
      const std::string got = ReadValue({&r.out, &below}, h.input_tombs, op, k, snap);
      ASSERT_EQ(want, got) << "key " << k << " at " << snap << "\n" << ctx;
    }
  }
  total->num_full_merges += r.stats.num_full_merges;
  total->num_partial_merges += r.stats.num_partial_merges;
  total->num_dropped_range_del += r.stats.num_dropped_range_del;
  total->num_filter_removed += r.stats.num_filter_removed;
  total->num_filter_changed += r.stats.num_filter_changed;
  total->num_filter_to_deletion += r.stats.num_filter_to_deletion;
}

}  // namespace

TEST(CompactionIteratorTest, RandomizedMergesAgainstReaderModel) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  JoinOperator partial_op(true);
  JoinOperator no_partial_op(false);
  // Removes or rewrites by the value's sequence; checks that it never sees
  // a version some snapshot can see.
  SequenceNumber max_snapshot = 0;
  bool has_snapshot = false;
  FnFilter filter([&](CompactionFilter::ValueType, const std::string&, const std::string& value,
                      std::string* new_value, std::string*) {
    const SequenceNumber seq = SeqOfValue(value);
    EXPECT_TRUE(!has_snapshot || seq > max_snapshot)
        << "filter saw " << value << " under snapshot " << max_snapshot;
    switch (seq % 3) {
      case 0:
        return CompactionFilter::Decision::kRemove;
      case 1:
        *new_value = value + "!";
        return CompactionFilter::Decision::kChangeValue;
      default:
        return CompactionFilter::Decision::kKeep;
    }
  });
  CompactionIteratorStats total;
  for (int iter = 0; iter < 1500; ++iter) {
    SCOPED_TRACE("seed " + std::to_string(seed) + " iteration " + std::to_string(iter));
    const MergeHistory h = MakeMergeHistory(&rng, /*with_tombs=*/iter % 2 == 0);
    const MergeOperator& op = iter % 3 == 0 ? static_cast<const MergeOperator&>(no_partial_op)
                                            : static_cast<const MergeOperator&>(partial_op);
    // Nothing below: bottommost or not must both read the same.
    ASSERT_NO_FATAL_FAILURE(CheckMergeHistory(h, op, true, {}, nullptr, &total, "bottommost"));
    ASSERT_NO_FATAL_FAILURE(
        CheckMergeHistory(h, op, false, {}, nullptr, &total, "not bottommost, nothing below"));
    // Not bottommost with an older version below every key (at sequence 0):
    // output + below must read as input + below.
    // A key with a SingleDelete gets a deletion below: anything else would
    // break the SingleDelete contract (one Put since the last deletion).
    std::set<std::string> sd_keys;
    for (const Entry& e : h.input) {
      if (ExtractValueType(e.key) == kTypeSingleDeletion) {
        sd_keys.insert(ExtractUserKey(e.key).ToString());
      }
    }
    std::vector<Entry> below;
    for (const std::string& k : h.keys) {
      switch (sd_keys.count(k) > 0 ? 2 : rng() % 3) {
        case 0:
          below.push_back({IKey(k, 0, kTypeValue), "B"});
          break;
        case 1:
          below.push_back({IKey(k, 0, kTypeMerge), "M"});
          break;
        default:
          below.push_back({IKey(k, 0, kTypeDeletion), ""});
          break;
      }
    }
    ASSERT_NO_FATAL_FAILURE(
        CheckMergeHistory(h, op, false, below, nullptr, &total, "not bottommost, base below"));
    // A filter: snapshots read the same; the filter sees no visible version.
    has_snapshot = !h.snapshots.empty();
    max_snapshot = has_snapshot ? h.snapshots.back() : 0;
    ASSERT_NO_FATAL_FAILURE(
        CheckMergeHistory(h, op, iter % 4 == 1, {}, &filter, &total, "with filter"));
  }
  EXPECT_GT(total.num_full_merges, 0u);
  EXPECT_GT(total.num_partial_merges, 0u);
  EXPECT_GT(total.num_dropped_range_del, 0u);
  EXPECT_GT(total.num_filter_removed, 0u);
  EXPECT_GT(total.num_filter_changed, 0u);
  EXPECT_GT(total.num_filter_to_deletion, 0u);
  EXPECT_GT(filter.calls, 0);
}

TEST(CompactionIteratorTest, FilterPurgeWritesSingleDelete) {
  FnFilter filter([](CompactionFilter::ValueType type, const std::string& key, const std::string&,
                     std::string*, std::string*) {
    if (type == CompactionFilter::kValue && key == "purge") {
      return CompactionFilter::Decision::kPurge;
    }
    return CompactionFilter::Decision::kKeep;
  });
  auto in = Build({{"keep", 5, kTypeValue, "k"},
                   {"purge", 7, kTypeValue, "p"},
                   {"purge", 6, kTypeValue, "p-older"}});
  CompactionIteratorOptions o;
  o.compaction_filter = &filter;
  RunResult r = CompactWith(in, o);
  ASSERT_OK(r.status);
  // Not bottommost: a SingleDelete (type 7) at the purged version's sequence.
  EXPECT_EQ("keep@5:1=k purge@7:7=", KeysValues(r));
  EXPECT_EQ(1u, r.stats.num_filter_to_deletion);
  CheckAccounting(r, in.size());

  // Bottommost, nothing below: the version and what it hides go.
  o.bottommost = true;
  r = CompactWith(in, o);
  ASSERT_OK(r.status);
  EXPECT_EQ("keep@5:1=k", KeysValues(r));
  EXPECT_EQ(1u, r.stats.num_filter_removed);
  CheckAccounting(r, in.size());
}

TEST(CompactionIteratorTest, FilterBlobDecisionsFailTheCompaction) {
  const struct {
    CompactionFilter::Decision decision;
    const char* message;
  } cases[] = {
      {CompactionFilter::Decision::kIOError,
       "CompactionFilter for integrated BlobDB should not return kIOError"},
      {CompactionFilter::Decision::kChangeBlobIndex,
       "Only stacked BlobDB's internal compaction filter can return kChangeBlobIndex."},
      {CompactionFilter::Decision::kUndetermined, "FilterV2() should never return kUndetermined"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.message);
    const CompactionFilter::Decision d = c.decision;
    FnFilter filter(
        [d](CompactionFilter::ValueType, const std::string& key, const std::string&, std::string*,
            std::string*) { return key == "bad" ? d : CompactionFilter::Decision::kKeep; });
    auto in =
        Build({{"a", 5, kTypeValue, "a"}, {"bad", 4, kTypeValue, "x"}, {"c", 3, kTypeValue, "c"}});
    CompactionIteratorOptions o;
    o.compaction_filter = &filter;
    RunResult r = CompactWith(in, o);
    EXPECT_TRUE(r.status.IsNotSupported()) << r.status.ToString();
    EXPECT_NE(std::string::npos, r.status.ToString().find(c.message)) << r.status.ToString();
    // Output stops at the failing entry.
    EXPECT_EQ("a@5:1=a", KeysValues(r));
  }
}

TEST(CompactionIteratorTest, FilterOtherDecisionsRemoveMergeOperands) {
  // As RocksDB: for an operand, every answer but kKeep / kChangeValue drops it.
  FnFilter filter([](CompactionFilter::ValueType type, const std::string&, const std::string& value,
                     std::string*, std::string*) {
    if (type != CompactionFilter::kMergeOperand) return CompactionFilter::Decision::kKeep;
    if (value == "purge") return CompactionFilter::Decision::kPurge;
    if (value == "io") return CompactionFilter::Decision::kIOError;
    return CompactionFilter::Decision::kKeep;
  });
  JoinOperator op;
  auto in = Build({{"a", 9, kTypeMerge, "x"},
                   {"a", 8, kTypeMerge, "purge"},
                   {"a", 7, kTypeMerge, "io"},
                   {"a", 6, kTypeValue, "base"}});
  CompactionIteratorOptions o = MergeOptions(&op, {}, false);
  o.compaction_filter = &filter;
  RunResult r = CompactWith(in, o);
  ASSERT_OK(r.status);
  EXPECT_EQ("a@9:1=base,x", KeysValues(r));
  CheckAccounting(r, in.size());
}

}  // namespace strata
