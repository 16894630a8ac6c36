// LevelIterator (see level_iterator.h): a two-level iterator whose first
// level is the sorted file list of one level, searched with FindFile, and
// whose second level is the iterator of one open table file.
//
// At most one file is open at a time (file_iter_, for (*files_)[file_index_]);
// a seek that lands in the file already open reuses its iterator. When the
// file iterator runs out, the iteration continues with the neighbouring
// file, unless the bound rule of the header says that file need not be
// opened, or a file reports an error (which then stops the iteration and
// stays in status()).
#include "db/level_iterator.h"

#include <algorithm>
#include <cassert>
#include <memory>
#include <utility>

namespace strata {

namespace {

class LevelIterator final : public InternalIterator {
 public:
  LevelIterator(TableCache* table_cache, const ReadOptions& read_options,
                const InternalKeyComparator* icmp, const std::vector<FileMetaData*>& files,
                int level, bool for_compaction)
      : for_compaction_(for_compaction),
        table_cache_(table_cache),
        read_options_(read_options),
        icmp_(icmp),
        ucmp_(icmp->user_comparator()),
        files_(&files),
        level_(level) {}

  bool Valid() const override { return valid_; }

  void SeekToFirst() override {
    if (!status_.ok() || files_->empty() || !MayOpenForward(0)) return SetInvalid();
    OpenFile(0);
    file_iter_->SeekToFirst();
    SkipEmptyForward();
  }

  void SeekToLast() override {
    if (!status_.ok() || files_->empty()) return SetInvalid();
    size_t i = files_->size() - 1;
    if (!MayOpenForward(i)) {
      i = FirstFileAtOrAboveUpperBound();
      if (i == 0) return SetInvalid();
      i--;
    }
    if (!MayOpenBackward(i)) return SetInvalid();
    OpenFile(i);
    file_iter_->SeekToLast();
    SkipEmptyBackward();
  }

  void Seek(const Slice& target) override {
    if (!status_.ok()) return SetInvalid();
    const size_t i = FindFile(*icmp_, *files_, target);
    if (i >= files_->size() || !MayOpenForward(i)) return SetInvalid();
    OpenFile(i);
    file_iter_->Seek(target);
    SkipEmptyForward();
  }

  void SeekForPrev(const Slice& target) override {
    if (!status_.ok()) return SetInvalid();
    // The last file whose smallest key is <= target.
    size_t end = FindFile(*icmp_, *files_, target);
    if (end < files_->size() && icmp_->Compare((*files_)[end]->smallest, target) <= 0) end++;
    if (end == 0) return SetInvalid();
    size_t i = end - 1;
    if (!MayOpenForward(i)) {
      i = FirstFileAtOrAboveUpperBound();
      if (i == 0) return SetInvalid();
      i--;
    }
    if (!MayOpenBackward(i)) return SetInvalid();
    OpenFile(i);
    file_iter_->SeekForPrev(target);
    SkipEmptyBackward();
  }

  void Next() override {
    assert(Valid());
    file_iter_->Next();
    SkipEmptyForward();
  }

  void Prev() override {
    assert(Valid());
    file_iter_->Prev();
    SkipEmptyBackward();
  }

  Slice key() const override {
    assert(Valid());
    return file_iter_->key();
  }

  Slice value() const override {
    assert(Valid());
    return file_iter_->value();
  }

  Status status() const override { return status_; }

  bool CurrentFileRange(uint64_t* largest_seqno, Slice* smallest_user_key,
                        Slice* largest_user_key) const override {
    if (!valid_) return false;
    const FileMetaData* f = (*files_)[file_index_];
    *largest_seqno = f->largest_seqno;
    *smallest_user_key = ExtractUserKey(f->smallest);
    *largest_user_key = ExtractUserKey(f->largest);
    return true;
  }

 private:
  void SetInvalid() { valid_ = false; }

  // Under iterate_upper_bound, files whose smallest user key is >= the bound
  // are never opened.
  bool MayOpenForward(size_t i) const {
    const Slice* ub = read_options_.iterate_upper_bound;
    return ub == nullptr || ucmp_->Compare(ExtractUserKey((*files_)[i]->smallest), *ub) < 0;
  }

  // Under iterate_lower_bound, backward iteration never opens files whose
  // largest user key is < the bound.
  bool MayOpenBackward(size_t i) const {
    const Slice* lb = read_options_.iterate_lower_bound;
    return lb == nullptr || ucmp_->Compare(ExtractUserKey((*files_)[i]->largest), *lb) >= 0;
  }

  // Index of the first file that MayOpenForward rejects (files_->size() if
  // none). REQUIRES: iterate_upper_bound set.
  size_t FirstFileAtOrAboveUpperBound() const {
    const Slice& ub = *read_options_.iterate_upper_bound;
    auto it = std::partition_point(files_->begin(), files_->end(), [&](const FileMetaData* f) {
      return ucmp_->Compare(ExtractUserKey(f->smallest), ub) < 0;
    });
    return static_cast<size_t>(it - files_->begin());
  }

  // Makes (*files_)[i] the open file (reusing the iterator if it already is).
  void OpenFile(size_t i) {
    if (file_iter_ != nullptr && file_index_ == i) return;
    file_iter_.reset();  // unpin the previous reader first
    FileMetaData* f = (*files_)[i];
    if (for_compaction_) {
      file_iter_ = table_cache_->NewCompactionIterator(
          read_options_,
          TableFileMeta{f->number, f->file_size, level_, f->largest_seqno, f->path_id});
    } else {
      file_iter_ = table_cache_->NewIterator(read_options_, f, level_);
    }
    file_index_ = i;
  }

  // True if the exhausted file iterator ended with an error (recorded).
  bool FileFailed() {
    Status s = file_iter_->status();
    if (s.ok()) return false;
    status_ = std::move(s);
    return true;
  }

  // While the open file is exhausted, moves to the start of the next file.
  void SkipEmptyForward() {
    while (!file_iter_->Valid()) {
      if (FileFailed()) return SetInvalid();
      const size_t next = file_index_ + 1;
      if (next >= files_->size() || !MayOpenForward(next)) return SetInvalid();
      OpenFile(next);
      file_iter_->SeekToFirst();
    }
    valid_ = true;
  }

  // While the open file is exhausted, moves to the end of the previous file.
  void SkipEmptyBackward() {
    while (!file_iter_->Valid()) {
      if (FileFailed()) return SetInvalid();
      if (file_index_ == 0 || !MayOpenBackward(file_index_ - 1)) return SetInvalid();
      OpenFile(file_index_ - 1);
      file_iter_->SeekToLast();
    }
    valid_ = true;
  }

  const bool for_compaction_;
  TableCache* const table_cache_;
  const ReadOptions read_options_;
  const InternalKeyComparator* const icmp_;
  const Comparator* const ucmp_;
  // The caller's list (a Version's level, a compaction's inputs), which
  // outlives the iterator: never copied.
  const std::vector<FileMetaData*>* const files_;
  const int level_;

  std::unique_ptr<InternalIterator> file_iter_;  // over (*files_)[file_index_]
  size_t file_index_ = 0;
  bool valid_ = false;  // file_iter_->Valid(), cached
  Status status_;       // first file error; sticky
};

}  // namespace

size_t FindFile(const InternalKeyComparator& icmp, const std::vector<FileMetaData*>& files,
                const Slice& key) {
  auto it = std::partition_point(files.begin(), files.end(), [&](const FileMetaData* f) {
    return icmp.Compare(f->largest, key) < 0;
  });
  return static_cast<size_t>(it - files.begin());
}

std::unique_ptr<InternalIterator> NewLevelIterator(TableCache* table_cache,
                                                   const ReadOptions& read_options,
                                                   const InternalKeyComparator* icmp,
                                                   const std::vector<FileMetaData*>& files,
                                                   int level, bool for_compaction) {
  return std::make_unique<LevelIterator>(table_cache, read_options, icmp, files, level,
                                         for_compaction);
}

}  // namespace strata
