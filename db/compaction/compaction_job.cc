#include "db/compaction/compaction_job.h"

#include <algorithm>

#include "db/filename.h"
#include "table/block_based_table_builder.h"

namespace strata {

namespace {

// Restricts a forward iteration over `input` to user keys in [begin, end).
class RangeIterator final : public InternalIterator {
 public:
  RangeIterator(InternalIterator* input, const Comparator* ucmp, const Slice* begin,
                const Slice* end)
      : input_(input), ucmp_(ucmp), begin_(begin), end_(end) {}

  bool Valid() const override { return valid_; }
  void SeekToFirst() override {
    if (begin_ != nullptr) {
      std::string target;
      AppendInternalKey(&target, *begin_, kMaxSequenceNumber, kValueTypeForSeek);
      input_->Seek(target);
    } else {
      input_->SeekToFirst();
    }
    Update();
  }
  void SeekToLast() override { valid_ = false; }
  void Seek(const Slice& target) override {
    input_->Seek(target);
    Update();
  }
  void SeekForPrev(const Slice&) override { valid_ = false; }
  void Next() override {
    input_->Next();
    Update();
  }
  void Prev() override { valid_ = false; }
  Slice key() const override { return input_->key(); }
  Slice value() const override { return input_->value(); }
  Status status() const override { return input_->status(); }

 private:
  void Update() {
    valid_ = input_->Valid() &&
             (end_ == nullptr || ucmp_->Compare(ExtractUserKey(input_->key()), *end_) < 0);
  }
  InternalIterator* input_;
  const Comparator* ucmp_;
  const Slice* begin_;
  const Slice* end_;
  bool valid_ = false;
};

}  // namespace

Status RunTableOutput(const TableOutputOptions& o, InternalIterator* input,
                      std::vector<FileMetaData>* outputs, TableOutputStats* stats) {
  outputs->clear();
  const Comparator* ucmp = o.options->comparator;
  const InternalKeyComparator icmp(ucmp);
  RangeIterator ranged(input, ucmp, o.begin, o.end);
  CompactionIterator citer(&ranged, ucmp, o.snapshots, o.bottommost, o.key_may_exist_below);

  std::vector<std::string> created;
  std::unique_ptr<WritableFile> file;
  std::unique_ptr<BlockBasedTableBuilder> builder;
  FileMetaData meta;
  std::string last_user_key;
  size_t gp_index = 0;
  uint64_t gp_overlapped = 0;
  bool gp_seen_key = false;
  const uint64_t max_gp_overlap =
      o.max_output_file_size > (~0ull / 16) ? ~0ull : 10 * o.max_output_file_size;
  Status s;

  auto finish_file = [&]() -> Status {
    Status fs = builder->Finish();
    if (fs.ok()) fs = file->Sync();
    if (fs.ok()) fs = file->Close();
    if (fs.ok()) {
      meta.file_size = builder->FileSize();
      stats->bytes_written += meta.file_size;
      stats->num_output_files++;
      outputs->push_back(meta);
    }
    builder.reset();
    file.reset();
    return fs;
  };

  auto open_file = [&]() -> Status {
    meta = FileMetaData();
    meta.number = o.new_file_number();
    const std::string fname = TableFileName(o.dbname, meta.number);
    Status os = o.fs->NewWritableFile(fname, FileOptions(), &file);
    if (!os.ok()) return os;
    created.push_back(fname);
    TableBuilderOptions bo;
    bo.table_options = o.table_options;
    bo.user_comparator = ucmp;
    bo.compression = o.compression;
    bo.column_family_name = "default";
    bo.column_family_id = 0;
    bo.creation_time = o.creation_time;
    bo.oldest_key_time = o.creation_time;
    bo.file_creation_time = o.creation_time;
    bo.original_file_number = meta.number;
    bo.db_id = o.db_id;
    bo.db_session_id = o.db_session_id;
    meta.file_creation_time = o.creation_time;
    meta.oldest_ancester_time = o.creation_time;
    builder = std::make_unique<BlockBasedTableBuilder>(bo, file.get());
    return Status::OK();
  };

  for (citer.SeekToFirst(); citer.Valid(); citer.Next()) {
    const Slice key = citer.key();
    const Slice user_key = ExtractUserKey(key);
    // Grandparent overlap accumulates as keys pass grandparent files.
    bool cut_for_grandparents = false;
    while (gp_index < o.grandparents.size() &&
           icmp.Compare(key, o.grandparents[gp_index]->largest) > 0) {
      if (gp_seen_key) gp_overlapped += o.grandparents[gp_index]->file_size;
      ++gp_index;
    }
    gp_seen_key = true;
    if (gp_overlapped > max_gp_overlap) cut_for_grandparents = true;

    if (builder != nullptr && ucmp->Compare(user_key, last_user_key) != 0 &&
        (builder->FileSize() >= o.max_output_file_size || cut_for_grandparents)) {
      s = finish_file();
      if (!s.ok()) break;
      gp_overlapped = 0;
    }
    if (builder == nullptr) {
      s = open_file();
      if (!s.ok()) break;
      meta.smallest.assign(key.data(), key.size());
    }
    builder->Add(key, citer.value());
    meta.largest.assign(key.data(), key.size());
    const SequenceNumber seq = ExtractInternalKeyFooter(key) >> 8;
    meta.smallest_seqno = std::min(meta.smallest_seqno, seq);
    meta.largest_seqno = std::max(meta.largest_seqno, seq);
    last_user_key.assign(user_key.data(), user_key.size());
    stats->num_output_records++;
    if (!builder->status().ok()) {
      s = builder->status();
      break;
    }
  }
  if (s.ok()) s = citer.status();
  if (s.ok() && builder != nullptr) s = finish_file();
  stats->iter = citer.stats();
  if (!s.ok()) {
    if (builder != nullptr) builder->Abandon();
    builder.reset();
    file.reset();
    for (const std::string& fname : created) o.fs->DeleteFile(fname).PermitUncheckedError();
    outputs->clear();
  }
  return s;
}

std::vector<std::string> SubcompactionBoundaries(const Comparator* ucmp,
                                                 const std::vector<FileMetaData*>& inputs, int n) {
  std::vector<std::string> bounds;
  if (n <= 1 || inputs.size() < 2) return bounds;
  // Each file's bytes are attributed to its smallest key; cut where the
  // running total crosses k/n of the whole.
  std::vector<std::pair<std::string, uint64_t>> points;
  uint64_t total = 0;
  for (const FileMetaData* f : inputs) {
    const Slice s = ExtractUserKey(f->smallest);
    points.emplace_back(std::string(s.data(), s.size()), f->file_size);
    total += f->file_size;
  }
  std::sort(points.begin(), points.end(),
            [ucmp](const auto& a, const auto& b) { return ucmp->Compare(a.first, b.first) < 0; });
  uint64_t running = 0;
  int next = 1;
  for (size_t i = 0; i < points.size() && next < n; ++i) {
    if (i > 0 && running >= total * static_cast<uint64_t>(next) / static_cast<uint64_t>(n)) {
      if (bounds.empty() ? ucmp->Compare(points[i].first, points[0].first) > 0
                         : ucmp->Compare(points[i].first, bounds.back()) > 0) {
        bounds.push_back(points[i].first);
        ++next;
      }
    }
    running += points[i].second;
  }
  return bounds;
}

}  // namespace strata
