// Tests of LevelIterator over real table files (written with
// BlockBasedTableBuilder on the POSIX file system, read through a
// TableCache): full scans both ways, Seek/SeekForPrev at and between file
// boundaries, random walks, the bound rule (files left unopened), file
// errors, and FindFile.
#include "db/level_iterator.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "base/dbformat.h"
#include "db/filename.h"
#include "db/table_cache.h"
#include "db/version_edit.h"
#include "strata/env.h"
#include "table/block_based_table_builder.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

std::string UserKey(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "k%05d", i);
  return buf;
}

std::string IKey(const std::string& user_key, SequenceNumber seq, ValueType t = kTypeValue) {
  std::string k;
  AppendInternalKey(&k, user_key, seq, t);
  return k;
}

constexpr int kNumFiles = 6;
constexpr uint64_t kFirstFileNumber = 7;

using Entries = std::vector<std::pair<std::string, std::string>>;

class LevelIteratorTest : public testing::Test {
 protected:
  LevelIteratorTest() : icmp_(BytewiseComparator()) {
    // File f holds user keys 100f + 2j (j < 40), every fifth one also with
    // an older deletion. The newest version of k00300 moves to the end of
    // file 2, so that user key spans the boundary of files 2 and 3.
    std::vector<Entries> contents(kNumFiles);
    for (int f = 0; f < kNumFiles; f++) {
      for (int j = 0; j < 40; j++) {
        const std::string uk = UserKey(100 * f + 2 * j);
        const SequenceNumber seq = 1000 + static_cast<SequenceNumber>(100 * f + j);
        contents[f].emplace_back(IKey(uk, seq), "v" + uk + "@" + std::to_string(seq));
        if (j % 5 == 0) contents[f].emplace_back(IKey(uk, 10, kTypeDeletion), "");
      }
    }
    contents[2].push_back(contents[3].front());
    contents[3].erase(contents[3].begin());
    for (int f = 0; f < kNumFiles; f++) {
      for (size_t e = 1; e < contents[f].size(); e++) {
        EXPECT_LT(icmp_.Compare(contents[f][e - 1].first, contents[f][e].first), 0);
      }
    }

    fs_ = FileSystem::Default();
    for (int f = 0; f < kNumFiles; f++) {
      metas_.push_back(WriteFile(kFirstFileNumber + f, contents[f]));
      for (auto& e : contents[f]) model_.push_back(e);
    }
    for (auto& m : metas_) files_.push_back(&m);
  }

  FileMetaData WriteFile(uint64_t number, const Entries& entries) {
    std::unique_ptr<WritableFile> file;
    EXPECT_OK(fs_->NewWritableFile(TableFileName(dir_.path(), number), FileOptions(), &file));
    TableBuilderOptions bo;
    bo.table_options.block_size = 256;  // several data blocks per file
    BlockBasedTableBuilder builder(bo, file.get());
    for (const auto& [k, v] : entries) builder.Add(k, v);
    EXPECT_OK(builder.Finish());
    EXPECT_OK(file->Close());
    FileMetaData meta;
    meta.number = number;
    meta.file_size = builder.FileSize();
    meta.smallest = entries.front().first;
    meta.largest = entries.back().first;
    return meta;
  }

  // A bounded cache: readers are not pinned by file metadata, so each
  // cache's NumOpenReaders shows what the iterator opened through it.
  std::unique_ptr<TableCache> NewCache(int max_open_files = 1000) {
    return std::make_unique<TableCache>(dir_.path(), Options(), BlockBasedTableOptions(),
                                        max_open_files);
  }

  std::unique_ptr<InternalIterator> NewIter(TableCache* cache,
                                            const ReadOptions& ro = ReadOptions()) {
    return std::unique_ptr<InternalIterator>(NewLevelIterator(cache, ro, &icmp_, files_, 1));
  }

  void ExpectAt(const InternalIterator& it, size_t pos) const {
    if (pos >= model_.size()) {
      ASSERT_FALSE(it.Valid());
      ASSERT_OK(it.status());
      return;
    }
    ASSERT_TRUE(it.Valid()) << "expected " << model_[pos].second;
    ASSERT_EQ(model_[pos].first, it.key().ToString());
    ASSERT_EQ(model_[pos].second, it.value().ToString());
  }
  size_t SeekPos(const Slice& t) const {
    size_t i = 0;
    while (i < model_.size() && icmp_.Compare(model_[i].first, t) < 0) i++;
    return i;
  }
  size_t SeekForPrevPos(const Slice& t) const {
    for (size_t i = model_.size(); i-- > 0;) {
      if (icmp_.Compare(model_[i].first, t) <= 0) return i;
    }
    return model_.size();
  }

  // Seek targets: every stored key, and for every user key in and around
  // the files the seek-before-all and seek-after-all versions.
  std::vector<std::string> Targets() const {
    std::vector<std::string> t;
    for (const auto& e : model_) t.push_back(e.first);
    for (int i = -1; i <= 100 * kNumFiles + 1; i++) {
      const std::string uk = i < 0 ? std::string("a") : UserKey(i);
      t.push_back(IKey(uk, kMaxSequenceNumber, kValueTypeForSeek));
      t.push_back(IKey(uk, 0, kValueTypeForSeekForPrev));
    }
    return t;
  }

  test::TempDir dir_{"level_iterator_test"};
  InternalKeyComparator icmp_;
  std::shared_ptr<FileSystem> fs_;
  std::vector<FileMetaData> metas_;
  std::vector<FileMetaData*> files_;
  Entries model_;
};

TEST_F(LevelIteratorTest, FullScansBothWays) {
  auto cache = NewCache();
  auto it = NewIter(cache.get());
  EXPECT_FALSE(it->Valid());
  EXPECT_EQ(0u, cache->NumOpenReaders());
  it->SeekToFirst();
  for (size_t i = 0; i < model_.size(); i++, it->Next()) ASSERT_NO_FATAL_FAILURE(ExpectAt(*it, i));
  ASSERT_NO_FATAL_FAILURE(ExpectAt(*it, model_.size()));
  EXPECT_EQ(static_cast<size_t>(kNumFiles), cache->NumOpenReaders());
  it->SeekToLast();
  for (size_t i = model_.size(); i-- > 0; it->Prev()) ASSERT_NO_FATAL_FAILURE(ExpectAt(*it, i));
  ASSERT_NO_FATAL_FAILURE(ExpectAt(*it, model_.size()));
}

TEST_F(LevelIteratorTest, SeekAndSeekForPrevEverywhere) {
  auto cache = NewCache();
  auto it = NewIter(cache.get());
  for (const std::string& t : Targets()) {
    SCOPED_TRACE(
        ParsedInternalKey(ExtractUserKey(t), ExtractInternalKeyFooter(t) >> 8, ExtractValueType(t))
            .DebugString(false));
    it->Seek(t);
    size_t pos = SeekPos(t);
    ASSERT_NO_FATAL_FAILURE(ExpectAt(*it, pos));
    if (pos < model_.size()) {  // step across whatever boundary is near
      it->Next();
      ASSERT_NO_FATAL_FAILURE(ExpectAt(*it, pos + 1));
      if (pos + 1 < model_.size()) {
        it->Prev();
        it->Prev();
        ASSERT_NO_FATAL_FAILURE(ExpectAt(*it, pos == 0 ? model_.size() : pos - 1));
      }
    }
    it->SeekForPrev(t);
    pos = SeekForPrevPos(t);
    ASSERT_NO_FATAL_FAILURE(ExpectAt(*it, pos));
    if (pos < model_.size()) {
      it->Prev();
      ASSERT_NO_FATAL_FAILURE(ExpectAt(*it, pos == 0 ? model_.size() : pos - 1));
      if (pos > 0) {
        it->Next();
        it->Next();
        ASSERT_NO_FATAL_FAILURE(ExpectAt(*it, pos + 1));
      }
    }
  }
}

TEST_F(LevelIteratorTest, RandomWalk) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  auto cache = NewCache();
  auto it = NewIter(cache.get());
  const std::vector<std::string> targets = Targets();
  for (int round = 0; round < 200; round++) {
    const std::string& t = targets[rng() % targets.size()];
    size_t pos;
    if (rng() % 2 == 0) {
      it->Seek(t);
      pos = SeekPos(t);
    } else {
      it->SeekForPrev(t);
      pos = SeekForPrevPos(t);
    }
    ASSERT_NO_FATAL_FAILURE(ExpectAt(*it, pos));
    for (int step = 0; step < 60 && pos < model_.size(); step++) {
      if (rng() % 2 == 0) {
        it->Next();
        pos++;
      } else {
        it->Prev();
        pos = pos == 0 ? model_.size() : pos - 1;
      }
      ASSERT_NO_FATAL_FAILURE(ExpectAt(*it, pos));
    }
  }
}

TEST_F(LevelIteratorTest, UpperBoundKeepsLaterFilesClosed) {
  // Bound inside file 2: files 3.. must stay closed.
  const std::string ub_key = UserKey(250);
  const Slice ub(ub_key);
  ReadOptions ro;
  ro.iterate_upper_bound = &ub;
  {
    auto cache = NewCache();
    auto it = NewIter(cache.get(), ro);
    size_t n = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next(), n++) {
      ASSERT_EQ(model_[n].first, it->key().ToString());
    }
    ASSERT_OK(it->status());
    EXPECT_GE(n, SeekPos(IKey(ub_key, kMaxSequenceNumber, kValueTypeForSeek)));
    EXPECT_LE(n, SeekPos(metas_[3].smallest));
    EXPECT_EQ(3u, cache->NumOpenReaders());

    // Seeks into files at or above the bound open nothing.
    auto cache2 = NewCache();
    auto it2 = NewIter(cache2.get(), ro);
    it2->Seek(IKey(UserKey(410), kMaxSequenceNumber, kValueTypeForSeek));
    EXPECT_FALSE(it2->Valid());
    ASSERT_OK(it2->status());
    it2->Seek(metas_[3].smallest);
    EXPECT_FALSE(it2->Valid());
    EXPECT_EQ(0u, cache2->NumOpenReaders());

    // Backward from beyond the bound starts in file 2, opening no later file.
    it2->SeekToLast();
    ASSERT_TRUE(it2->Valid());
    EXPECT_EQ(model_[SeekPos(metas_[3].smallest) - 1].first, it2->key().ToString());
    it2->SeekForPrev(metas_[5].largest);
    ASSERT_TRUE(it2->Valid());
    EXPECT_EQ(model_[SeekPos(metas_[3].smallest) - 1].first, it2->key().ToString());
    EXPECT_EQ(1u, cache2->NumOpenReaders());
    it2->Prev();
    ASSERT_TRUE(it2->Valid());
    EXPECT_EQ(model_[SeekPos(metas_[3].smallest) - 2].first, it2->key().ToString());
  }
  {
    // A bound equal to file 3's smallest user key (k00300, which also ends
    // file 2) keeps file 3 closed.
    const std::string ub3 = UserKey(300);
    const Slice ub3s(ub3);
    ReadOptions ro3;
    ro3.iterate_upper_bound = &ub3s;
    auto cache = NewCache();
    auto it = NewIter(cache.get(), ro3);
    it->Seek(metas_[2].largest);
    ASSERT_TRUE(it->Valid());
    it->Next();
    EXPECT_FALSE(it->Valid());
    ASSERT_OK(it->status());
    EXPECT_EQ(1u, cache->NumOpenReaders());
  }
}

TEST_F(LevelIteratorTest, LowerBoundKeepsEarlierFilesClosedBackward) {
  // Bound inside file 3: going backward, files 0..2 stay closed.
  const std::string lb_key = UserKey(350);
  const Slice lb(lb_key);
  ReadOptions ro;
  ro.iterate_lower_bound = &lb;
  auto cache = NewCache();
  auto it = NewIter(cache.get(), ro);
  size_t pos = model_.size();
  for (it->SeekToLast(); it->Valid(); it->Prev()) {
    ASSERT_GT(pos, 0u);
    pos--;
    ASSERT_EQ(model_[pos].first, it->key().ToString());
  }
  ASSERT_OK(it->status());
  EXPECT_LE(pos, SeekPos(IKey(lb_key, kMaxSequenceNumber, kValueTypeForSeek)));
  EXPECT_GE(pos, SeekPos(metas_[3].smallest));
  EXPECT_EQ(3u, cache->NumOpenReaders());

  auto cache2 = NewCache();
  auto it2 = NewIter(cache2.get(), ro);
  it2->SeekForPrev(metas_[1].largest);
  EXPECT_FALSE(it2->Valid());
  ASSERT_OK(it2->status());
  EXPECT_EQ(0u, cache2->NumOpenReaders());
}

TEST_F(LevelIteratorTest, MissingFileStopsWithError) {
  auto cache = NewCache();
  FileMetaData missing = metas_[2];
  missing.number = 999;  // no such file
  std::vector<FileMetaData*> files = files_;
  files[2] = &missing;
  std::unique_ptr<InternalIterator> it(
      NewLevelIterator(cache.get(), ReadOptions(), &icmp_, files, 1));
  size_t n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) n++;
  EXPECT_EQ(SeekPos(metas_[2].smallest), n);  // files 0 and 1, then the error
  EXPECT_FALSE(it->status().ok());
  it->Seek(metas_[4].smallest);  // the error is sticky
  EXPECT_FALSE(it->Valid());
  EXPECT_FALSE(it->status().ok());

  // Backward into the missing file.
  std::unique_ptr<InternalIterator> it2(
      NewLevelIterator(cache.get(), ReadOptions(), &icmp_, files, 1));
  it2->Seek(metas_[3].smallest);
  ASSERT_TRUE(it2->Valid());
  it2->Prev();
  EXPECT_FALSE(it2->Valid());
  EXPECT_FALSE(it2->status().ok());
}

TEST_F(LevelIteratorTest, EmptyLevel) {
  auto cache = NewCache();
  const std::vector<FileMetaData*> none;  // outlives the iterator, as a level must
  std::unique_ptr<InternalIterator> it(
      NewLevelIterator(cache.get(), ReadOptions(), &icmp_, none, 1));
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  it->SeekToLast();
  EXPECT_FALSE(it->Valid());
  it->Seek(IKey("a", 1));
  EXPECT_FALSE(it->Valid());
  it->SeekForPrev(IKey("z", 1));
  EXPECT_FALSE(it->Valid());
  EXPECT_OK(it->status());
}

TEST_F(LevelIteratorTest, FindFile) {
  EXPECT_EQ(0u, FindFile(icmp_, {}, IKey("a", 1)));
  for (size_t f = 0; f < files_.size(); f++) {
    EXPECT_EQ(f, FindFile(icmp_, files_, metas_[f].smallest));
    EXPECT_EQ(f, FindFile(icmp_, files_, metas_[f].largest));
  }
  EXPECT_EQ(0u, FindFile(icmp_, files_, IKey("a", 1)));
  // Between file 0 (ends k00078) and file 1 (starts k00100).
  EXPECT_EQ(1u, FindFile(icmp_, files_, IKey(UserKey(90), 1)));
  // The spanning user key: the newest version in file 2, older in file 3.
  EXPECT_EQ(2u, FindFile(icmp_, files_, IKey(UserKey(300), 1300)));
  EXPECT_EQ(3u, FindFile(icmp_, files_, IKey(UserKey(300), 1299)));
  EXPECT_EQ(3u, FindFile(icmp_, files_, IKey(UserKey(300), 10, kTypeDeletion)));
  EXPECT_EQ(files_.size(), FindFile(icmp_, files_, IKey("z", 1)));
}

}  // namespace
TEST_F(LevelIteratorTest, UnboundedCachePinsReadersByFile) {
  // Declared before the metadata, so destroyed after it: the pins go back
  // into a live cache, as a Version's files die before the DB's cache.
  auto cache = NewCache(-1);
  std::vector<FileMetaData> metas = metas_;  // copies start unpinned
  std::vector<FileMetaData*> files;
  for (auto& m : metas) files.push_back(&m);
  for (int pass = 0; pass < 2; pass++) {
    std::unique_ptr<InternalIterator> it(
        NewLevelIterator(cache.get(), ReadOptions(), &icmp_, files, 1));
    size_t n = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next(), n++) {
      ASSERT_EQ(model_[n].first, it->key().ToString());
      ASSERT_EQ(model_[n].second, it->value().ToString());
    }
    ASSERT_OK(it->status());
    EXPECT_EQ(model_.size(), n);
    // Every file's reader is pinned by its metadata; the second pass reads
    // through the pins and opens nothing more.
    for (const FileMetaData& m : metas) EXPECT_NE(nullptr, m.pinned_table.table());
    EXPECT_EQ(metas.size(), cache->NumOpenReaders());
  }
}

}  // namespace strata
