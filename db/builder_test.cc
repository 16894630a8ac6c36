// BuildTables with range tombstones: covered entries dropped, tombstones
// written into the outputs (clipped per file, read back from the
// range-deletion block), file bounds widened to cover them, several outputs
// disjoint in internal-key order, tombstone-only outputs, snapshots,
// bottommost dropping and subcompaction bounds.
#include "db/builder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "db/compaction/compaction_range_del_aggregator.h"
#include "db/filename.h"
#include "memtable/dynamic_bloom.h"
#include "strata/env.h"
#include "strata/merge_operator.h"
#include "table/block_based_table_reader.h"
#include "test_util/testutil.h"
#include "test_util/vector_iterator.h"

namespace strata {
namespace {

std::string IKey(const std::string& user, SequenceNumber seq, ValueType t = kTypeValue) {
  std::string k;
  AppendInternalKey(&k, user, seq, t);
  return k;
}

std::string UKey(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "k%04d", i);
  return buf;
}

RangeTombstone T(const std::string& s, const std::string& e, SequenceNumber seq) {
  RangeTombstone t;
  t.start = s;
  t.end = e;
  t.seq = seq;
  return t;
}

struct OutputFile {
  FileMetaData meta;
  std::vector<std::pair<std::string, std::string>> points;  // internal key, value
  std::vector<RangeTombstone> tombstones;
};

std::string ShowTs(const std::vector<RangeTombstone>& ts) {
  std::string s;
  for (const RangeTombstone& t : ts) {
    s += "[" + t.start + "," + t.end + ")@" + std::to_string(t.seq) + " ";
  }
  return s;
}

std::string ShowKey(const std::string& ikey) {
  ParsedInternalKey p;
  if (!ParseInternalKey(ikey, &p).ok()) return "<bad>";
  const std::string seq =
      p.sequence == kMaxSequenceNumber ? std::string("max") : std::to_string(p.sequence);
  return p.user_key.ToString() + "@" + seq + ":" + std::to_string(static_cast<int>(p.type));
}

class BuildTablesTest : public testing::Test {
 protected:
  BuildTablesTest() : fs_(NewMemFileSystem()), icmp_(BytewiseComparator()) {
    EXPECT_OK(fs_->CreateDirIfMissing(dbname_));
    o_.dbname = dbname_;
    o_.options = &options_;
    o_.fs = fs_.get();
    o_.new_file_number = [this] { return next_file_++; };
  }

  void AddPoint(const std::string& user, SequenceNumber seq, ValueType t = kTypeValue,
                const std::string& value = "v") {
    input_.emplace_back(IKey(user, seq, t), value);
  }

  // Runs BuildTables over input_ with tombstones_ and reads every output
  // back into outputs_.
  void Run(std::vector<SequenceNumber> snapshots = {}, bool bottommost = false) {
    outputs_.clear();
    o_.snapshots = snapshots;
    o_.bottommost = bottommost;
    CompactionRangeDelAggregator agg(&icmp_, snapshots);
    agg.AddTombstones(tombstones_);
    o_.range_del_agg = &agg;
    test::VectorIterator input(input_, &icmp_);
    input.Sorted();
    std::vector<FileMetaData> metas;
    stats_ = BuildTablesStats();
    ASSERT_OK(BuildTables(o_, &input, &metas, &stats_));
    o_.range_del_agg = nullptr;
    for (const FileMetaData& m : metas) {
      OutputFile f;
      f.meta = m;
      const std::string fname = TableFileName(dbname_, m.number);
      std::unique_ptr<RandomAccessFile> rfile;
      ASSERT_OK(fs_->NewRandomAccessFile(fname, FileOptions(), &rfile));
      uint64_t size = 0;
      ASSERT_OK(fs_->GetFileSize(fname, &size));
      ASSERT_EQ(size, m.file_size);
      TableReaderOptions ro;
      ro.file_name = fname;
      std::unique_ptr<BlockBasedTable> table;
      ASSERT_OK(BlockBasedTable::Open(ro, std::move(rfile), size, &table));
      std::unique_ptr<InternalIterator> it(table->NewIterator(ReadOptions()));
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        f.points.emplace_back(it->key().ToString(), it->value().ToString());
      }
      ASSERT_OK(it->status());
      std::unique_ptr<InternalIterator> rit(table->NewRangeTombstoneIterator(ReadOptions()));
      if (rit != nullptr) {
        for (rit->SeekToFirst(); rit->Valid(); rit->Next()) {
          ParsedInternalKey p;
          ASSERT_OK(ParseInternalKey(rit->key(), &p));
          ASSERT_EQ(p.type, kTypeRangeDeletion);
          f.tombstones.push_back(T(p.user_key.ToString(), rit->value().ToString(), p.sequence));
        }
        ASSERT_OK(rit->status());
      }
      outputs_.push_back(std::move(f));
    }
    CheckOutputsConsistent();
  }

  // Each file's bounds cover its contents exactly (the smallest/largest are
  // attained), and consecutive files are disjoint in internal-key order.
  void CheckOutputsConsistent() {
    for (size_t i = 0; i < outputs_.size(); ++i) {
      const OutputFile& f = outputs_[i];
      ASSERT_FALSE(f.points.empty() && f.tombstones.empty()) << "empty file " << i;
      std::string lo, hi;
      SequenceNumber min_seq = kMaxSequenceNumber, max_seq = 0;
      auto widen = [&](const std::string& smallest, const std::string& largest,
                       SequenceNumber seq) {
        if (lo.empty() || icmp_.Compare(smallest, lo) < 0) lo = smallest;
        if (hi.empty() || icmp_.Compare(largest, hi) > 0) hi = largest;
        min_seq = std::min(min_seq, seq);
        max_seq = std::max(max_seq, seq);
      };
      for (const auto& p : f.points)
        widen(p.first, p.first, ExtractInternalKeyFooter(p.first) >> 8);
      for (const RangeTombstone& t : f.tombstones) {
        widen(IKey(t.start, t.seq, kTypeRangeDeletion),
              IKey(t.end, kMaxSequenceNumber, kTypeRangeDeletion), t.seq);
      }
      EXPECT_EQ(ShowKey(f.meta.smallest), ShowKey(lo)) << "file " << i;
      EXPECT_EQ(ShowKey(f.meta.largest), ShowKey(hi)) << "file " << i;
      EXPECT_EQ(f.meta.smallest_seqno, min_seq) << "file " << i;
      EXPECT_EQ(f.meta.largest_seqno, max_seq) << "file " << i;
      if (i > 0) {
        EXPECT_LT(icmp_.Compare(outputs_[i - 1].meta.largest, f.meta.smallest), 0)
            << "files " << i - 1 << " and " << i << ": " << ShowKey(outputs_[i - 1].meta.largest)
            << " vs " << ShowKey(f.meta.smallest);
      }
    }
  }

  std::vector<std::string> PointKeys(size_t file) const {
    std::vector<std::string> keys;
    for (const auto& p : outputs_[file].points) keys.push_back(ShowKey(p.first));
    return keys;
  }

  std::shared_ptr<FileSystem> fs_;
  InternalKeyComparator icmp_;
  Options options_;
  const std::string dbname_ = "/cjt";
  BuildTablesOptions o_;
  uint64_t next_file_ = 10;
  std::vector<std::pair<std::string, std::string>> input_;
  std::vector<RangeTombstone> tombstones_;
  std::vector<OutputFile> outputs_;
  BuildTablesStats stats_;
};

TEST_F(BuildTablesTest, CoveredKeysDropped) {
  AddPoint("a", 1);
  AddPoint("b", 2);
  AddPoint("c", 3);
  AddPoint("c", 7);  // newer than the tombstone
  AddPoint("d", 4);
  tombstones_ = {T("b", "d", 5)};
  Run();
  ASSERT_EQ(outputs_.size(), 1u);
  EXPECT_EQ(PointKeys(0), (std::vector<std::string>{"a@1:1", "c@7:1", "d@4:1"}));
  EXPECT_EQ(ShowTs(outputs_[0].tombstones), "[b,d)@5 ");
  EXPECT_EQ(stats_.num_output_records, 3u);
  EXPECT_EQ(stats_.num_output_range_tombstones, 1u);
}

TEST_F(BuildTablesTest, TombstoneCarriedAndBoundsWidened) {
  // The tombstone is older than every point, so nothing is covered.
  AddPoint("c", 10);
  AddPoint("d", 11);
  tombstones_ = {T("a", "z", 5)};
  Run();
  ASSERT_EQ(outputs_.size(), 1u);
  EXPECT_EQ(PointKeys(0), (std::vector<std::string>{"c@10:1", "d@11:1"}));
  EXPECT_EQ(ShowTs(outputs_[0].tombstones), "[a,z)@5 ");
  EXPECT_EQ(ShowKey(outputs_[0].meta.smallest), "a@5:15");
  EXPECT_EQ(ShowKey(outputs_[0].meta.largest), "z@max:15");
  EXPECT_EQ(outputs_[0].meta.smallest_seqno, 5u);
  EXPECT_EQ(outputs_[0].meta.largest_seqno, 11u);

  // Inside the point range the bounds stay the points'.
  tombstones_ = {T("c", "d", 5)};
  Run();
  ASSERT_EQ(outputs_.size(), 1u);
  EXPECT_EQ(ShowKey(outputs_[0].meta.smallest), "c@10:1");
  EXPECT_EQ(ShowKey(outputs_[0].meta.largest), "d@11:1");
  // A tombstone ending at the last point's user key: the sentinel sorts
  // before d@11.
  EXPECT_LT(icmp_.Compare(IKey("d", kMaxSequenceNumber, kTypeRangeDeletion), IKey("d", 11)), 0);
}

TEST_F(BuildTablesTest, NoAggregatorOrEmptyAggregator) {
  AddPoint("a", 1);
  tombstones_.clear();
  Run();
  ASSERT_EQ(outputs_.size(), 1u);
  EXPECT_TRUE(outputs_[0].tombstones.empty());
  EXPECT_EQ(ShowKey(outputs_[0].meta.largest), "a@1:1");
  // Nothing at all: no file.
  input_.clear();
  Run();
  EXPECT_TRUE(outputs_.empty());
}

TEST_F(BuildTablesTest, SeveralFilesDisjointWithClippedTombstones) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  // Points k0100..k0399 (seq >= 100) with 200-byte values; small files.
  for (int i = 100; i < 400; ++i) {
    AddPoint(UKey(i), 100 + static_cast<SequenceNumber>(i), kTypeValue,
             test::RandomPrintable(&rng, 200));
  }
  o_.max_output_file_size = 4096;
  // Tombstones older than every point: one over everything, one before the
  // first point, one after the last, and random ones.
  std::vector<RangeTombstone> input_ts = {T(UKey(0), UKey(500), 1), T("a", "b", 2), T("x", "y", 3)};
  for (int i = 0; i < 40; ++i) {
    const int a = static_cast<int>(rng() % 500);
    input_ts.push_back(T(UKey(a), UKey(a + 1 + static_cast<int>(rng() % 30)), 4 + rng() % 90));
  }
  tombstones_ = input_ts;
  const std::vector<SequenceNumber> snapshots = {3, 50, 99};
  Run(snapshots);
  ASSERT_GE(outputs_.size(), 4u) << "seed " << seed;

  // File i's tombstones lie in [its first user key (unbounded for file 0),
  // the next file's first user key (unbounded for the last)).
  for (size_t i = 0; i < outputs_.size(); ++i) {
    ASSERT_FALSE(outputs_[i].points.empty());
    for (const RangeTombstone& t : outputs_[i].tombstones) {
      if (i > 0) {
        EXPECT_GE(t.start, ExtractUserKey(outputs_[i].points.front().first).ToString());
      }
      if (i + 1 < outputs_.size()) {
        EXPECT_LE(t.end, ExtractUserKey(outputs_[i + 1].points.front().first).ToString());
      }
    }
  }
  EXPECT_EQ(ShowTs({outputs_.front().tombstones.front()}), "[a,b)@2 ");
  EXPECT_EQ(ShowTs({outputs_.back().tombstones.back()}), "[x,y)@3 ");
  // Together the outputs hide exactly what the input tombstones hide, for
  // every key (points, gaps, outside) and every reader (each snapshot and
  // the latest state).
  std::vector<RangeTombstone> all;
  for (const OutputFile& f : outputs_)
    all.insert(all.end(), f.tombstones.begin(), f.tombstones.end());
  FragmentedRangeTombstoneList want(input_ts, BytewiseComparator());
  FragmentedRangeTombstoneList got(all, BytewiseComparator());
  std::vector<std::string> keys = {"a", "ax", "b", "w", "x", "xx", "y", "z"};
  for (int i = 0; i <= 530; ++i) {
    keys.push_back(UKey(i));
    keys.push_back(UKey(i) + "x");
  }
  for (const std::string& k : keys) {
    for (SequenceNumber r : {snapshots[0], snapshots[1], snapshots[2], kMaxSequenceNumber}) {
      ASSERT_EQ(got.MaxCoveringSeq(k, r), want.MaxCoveringSeq(k, r))
          << "seed " << seed << " key " << k << " read " << r;
    }
  }
  // No tombstone piece is written twice: pieces of different files never
  // overlap.
  for (size_t i = 1; i < outputs_.size(); ++i) {
    for (const RangeTombstone& a : outputs_[i - 1].tombstones) {
      for (const RangeTombstone& b : outputs_[i].tombstones) {
        EXPECT_LE(a.end, b.start);
      }
    }
  }
  uint64_t n = 0;
  for (const OutputFile& f : outputs_) n += f.points.size();
  EXPECT_EQ(n, 300u);
}

// Points only near the ends: the tombstones in the long gap between two
// files belong to exactly one of them.
TEST_F(BuildTablesTest, GapTombstonesCarriedOnce) {
  for (int i = 0; i < 20; ++i) AddPoint(UKey(i), 100 + i, kTypeValue, std::string(300, 'v'));
  for (int i = 900; i < 920; ++i) AddPoint(UKey(i), 100 + i, kTypeValue, std::string(300, 'v'));
  o_.max_output_file_size = 3000;
  tombstones_ = {T(UKey(300), UKey(400), 7), T(UKey(19), UKey(901), 5)};
  Run();
  ASSERT_GE(outputs_.size(), 3u);
  size_t carriers = 0;
  for (const OutputFile& f : outputs_) {
    for (const RangeTombstone& t : f.tombstones) {
      if (t.seq == 7) {
        ++carriers;
        EXPECT_EQ(ShowTs({t}), "[" + UKey(300) + "," + UKey(400) + ")@7 ");
      }
    }
  }
  EXPECT_EQ(carriers, 1u);
}

TEST_F(BuildTablesTest, TombstoneOnlyOutput) {
  // A flush of a memtable holding only a DeleteRange.
  tombstones_ = {T("c", "f", 7)};
  Run();
  ASSERT_EQ(outputs_.size(), 1u);
  EXPECT_TRUE(outputs_[0].points.empty());
  EXPECT_EQ(ShowTs(outputs_[0].tombstones), "[c,f)@7 ");
  EXPECT_EQ(ShowKey(outputs_[0].meta.smallest), "c@7:15");
  EXPECT_EQ(ShowKey(outputs_[0].meta.largest), "f@max:15");
  EXPECT_EQ(outputs_[0].meta.smallest_seqno, 7u);
  EXPECT_EQ(outputs_[0].meta.largest_seqno, 7u);
  EXPECT_EQ(stats_.num_output_files, 1u);
  EXPECT_EQ(stats_.num_output_records, 0u);

  // Points outside the subcompaction range do not matter; the tombstone is
  // clipped to [begin, end).
  AddPoint("a", 3);
  AddPoint("z", 3);
  const Slice begin("d"), end("e");
  o_.begin = &begin;
  o_.end = &end;
  Run();
  ASSERT_EQ(outputs_.size(), 1u);
  EXPECT_TRUE(outputs_[0].points.empty());
  EXPECT_EQ(ShowTs(outputs_[0].tombstones), "[d,e)@7 ");

  // A range without tombstones or points: no file.
  const Slice begin2("g"), end2("h");
  o_.begin = &begin2;
  o_.end = &end2;
  Run();
  EXPECT_TRUE(outputs_.empty());
}

TEST_F(BuildTablesTest, SubcompactionBoundsClipTombstones) {
  for (int i = 100; i < 300; ++i) AddPoint(UKey(i), 1000 + i);
  tombstones_ = {T(UKey(0), UKey(500), 1)};
  const std::string b = UKey(150), e = UKey(200);
  const Slice begin(b), end(e);
  o_.begin = &begin;
  o_.end = &end;
  Run();
  ASSERT_EQ(outputs_.size(), 1u);
  EXPECT_EQ(outputs_[0].points.size(), 50u);
  EXPECT_EQ(ShowTs(outputs_[0].tombstones), "[" + UKey(150) + "," + UKey(200) + ")@1 ");
  EXPECT_EQ(ShowKey(outputs_[0].meta.smallest), UKey(150) + "@1150:1");  // newer first
  EXPECT_EQ(ShowKey(outputs_[0].meta.largest), UKey(200) + "@max:15");
}

TEST_F(BuildTablesTest, SnapshotKeepsCoveredKey) {
  AddPoint("b", 3);
  tombstones_ = {T("a", "c", 5)};
  // Snapshot 4 still sees b@3; the tombstone is needed by newer readers.
  Run({4}, /*bottommost=*/true);
  ASSERT_EQ(outputs_.size(), 1u);
  EXPECT_EQ(PointKeys(0), (std::vector<std::string>{"b@3:1"}));
  EXPECT_EQ(ShowTs(outputs_[0].tombstones), "[a,c)@5 ");
  // Two tombstones in one stripe: only the newer is written.
  tombstones_ = {T("a", "c", 5), T("a", "c", 6), T("a", "c", 2)};
  Run({4}, /*bottommost=*/false);
  ASSERT_EQ(outputs_.size(), 1u);
  EXPECT_EQ(ShowTs(outputs_[0].tombstones), "[a,c)@6 [a,c)@2 ");
}

TEST_F(BuildTablesTest, BottommostDropsTombstones) {
  AddPoint("d", 10);
  tombstones_ = {T("a", "c", 5)};
  Run({}, /*bottommost=*/true);
  ASSERT_EQ(outputs_.size(), 1u);
  EXPECT_TRUE(outputs_[0].tombstones.empty());
  EXPECT_EQ(ShowKey(outputs_[0].meta.smallest), "d@10:1");
  EXPECT_EQ(ShowKey(outputs_[0].meta.largest), "d@10:1");
  // Not bottommost: kept.
  Run({}, /*bottommost=*/false);
  ASSERT_EQ(outputs_.size(), 1u);
  EXPECT_EQ(ShowTs(outputs_[0].tombstones), "[a,c)@5 ");
  // Tombstones only, bottommost: nothing to write.
  input_.clear();
  Run({}, /*bottommost=*/true);
  EXPECT_TRUE(outputs_.empty());
  // A snapshot below the tombstone keeps it.
  Run({3}, /*bottommost=*/true);
  ASSERT_EQ(outputs_.size(), 1u);
  EXPECT_EQ(ShowTs(outputs_[0].tombstones), "[a,c)@5 ");
}

// Never asked to merge here (the input holds no operands); only its name
// matters.
class NamedMergeOperator final : public MergeOperator {
 public:
  const char* Name() const override { return "TestMergeOperator"; }
};

TEST_F(BuildTablesTest, MergeOperatorNameRecorded) {
  AddPoint("a", 1);
  NamedMergeOperator op;
  o_.merge_operator = &op;
  o_.filter_level = 3;
  Run();
  ASSERT_EQ(outputs_.size(), 1u);
  const std::string fname = TableFileName(dbname_, outputs_[0].meta.number);
  std::unique_ptr<RandomAccessFile> rfile;
  ASSERT_OK(fs_->NewRandomAccessFile(fname, FileOptions(), &rfile));
  TableReaderOptions ro;
  ro.file_name = fname;
  std::unique_ptr<BlockBasedTable> table;
  ASSERT_OK(BlockBasedTable::Open(ro, std::move(rfile), outputs_[0].meta.file_size, &table));
  EXPECT_EQ(table->GetTableProperties()->merge_operator_name, "TestMergeOperator");
}

TEST_F(BuildTablesTest, KeyFiltersCoverEachFilesKeys) {
  // Several versions of each key, small files: each file's filter admits
  // every user key the file holds; keys never written are mostly rejected.
  for (int i = 0; i < 2000; ++i) {
    AddPoint(UKey(2 * i), 10 + static_cast<SequenceNumber>(i), kTypeValue, std::string(50, 'v'));
    if (i % 3 == 0) AddPoint(UKey(2 * i), 5, kTypeDeletion, "");
  }
  o_.max_output_file_size = 16 << 10;
  o_.key_filter_bits_per_key = 10;
  Run({7});
  ASSERT_GE(outputs_.size(), 3u);
  size_t false_positives = 0, probes = 0;
  for (const OutputFile& f : outputs_) {
    ASSERT_NE(f.meta.key_filter, nullptr);
    for (const auto& p : f.points) {
      EXPECT_TRUE(f.meta.key_filter->MayContain(ExtractUserKey(p.first)))
          << ShowKey(p.first) << " in file " << f.meta.number;
    }
    for (int i = 0; i < 4000; ++i) {
      probes++;
      if (f.meta.key_filter->MayContain(UKey(2 * i + 1))) false_positives++;
    }
  }
  // 10 bits per key: about 1% (5% leaves room for small files' rounding).
  EXPECT_LT(false_positives, probes / 20) << false_positives << " of " << probes;
}

TEST_F(BuildTablesTest, NoKeyFilterForFilesWithTombstonesOrWhenOff) {
  for (int i = 0; i < 100; ++i) AddPoint(UKey(i), 10 + static_cast<SequenceNumber>(i));
  Run();
  ASSERT_EQ(outputs_.size(), 1u);
  EXPECT_EQ(outputs_[0].meta.key_filter, nullptr);  // off by default
  o_.key_filter_bits_per_key = 10;
  tombstones_ = {T(UKey(5), UKey(8), 200)};
  Run();
  ASSERT_EQ(outputs_.size(), 1u);
  ASSERT_FALSE(outputs_[0].tombstones.empty());
  // A lookup that skipped this file by its key filter would miss the
  // tombstone: such files get none.
  EXPECT_EQ(outputs_[0].meta.key_filter, nullptr);
}

}  // namespace
}  // namespace strata
