#include "db/version_set.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include "db/column_family.h"
#include "db/compaction/compaction_picker_fifo.h"
#include "db/compaction/compaction_picker_universal.h"
#include "db/filename.h"
#include "db/level_iterator.h"
#include "db/log_reader.h"
#include "db/options_dump.h"
#include "db/range_del_skip_iterator.h"
#include "db/version_builder.h"
#include "env/info_log.h"
#include "memtable/dynamic_bloom.h"
#include "util/coding.h"
#include "util/perf_context_imp.h"
#include "util/stop_watch.h"

namespace strata {

namespace {
struct LogReporter : public log::Reader::Reporter {
  Status first;
  void Corruption(size_t /*bytes*/, const Status& s) override {
    if (first.ok()) first = s;
  }
};

// First file of a sorted, disjoint level whose largest key is >= key.
size_t FindFileIndex(const InternalKeyComparator& icmp, const std::vector<FileMetaData*>& files,
                     const Slice& key) {
  size_t left = 0, right = files.size();
  while (left < right) {
    const size_t mid = left + (right - left) / 2;
    if (icmp.Compare(files[mid]->largest, key) < 0) {
      left = mid + 1;
    } else {
      right = mid;
    }
  }
  return left;
}

}  // namespace

// ---------------------------------------------------------------------------
// Version

Version::Version(VersionSet* vset, ColumnFamilyData* cfd, uint64_t version_number)
    : vset_(vset), cfd_(cfd), version_number_(version_number), num_levels_(cfd->num_levels()) {}

Version::~Version() { vset_->RemoveVersion(this); }

const Comparator* Version::user_comparator() const { return cfd_->icmp().user_comparator(); }

void Version::Ref() { refs_.fetch_add(1, std::memory_order_relaxed); }

void Version::Unref() {
  if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
}

uint64_t Version::NumLevelBytes(int level) const {
  uint64_t sum = 0;
  for (const FileMetaData* f : files_[level]) sum += f->file_size;
  return sum;
}

uint64_t Version::TotalFileBytes() const {
  uint64_t sum = 0;
  for (int level = 0; level < num_levels_; ++level) sum += NumLevelBytes(level);
  return sum;
}

uint64_t Version::NumFiles() const {
  uint64_t n = 0;
  for (int level = 0; level < num_levels_; ++level) n += files_[level].size();
  return n;
}

// ---- point lookups: the file picking Get and MultiGet share ----

bool Version::L0FileMayHold(const FileMetaData* f, const Slice& user_key) const {
  const Comparator* ucmp = cfd_->icmp().user_comparator();
  return ucmp->Compare(user_key, ExtractUserKey(f->smallest)) >= 0 &&
         ucmp->Compare(user_key, ExtractUserKey(f->largest)) <= 0;
}

size_t Version::LevelFileIndex(int level, const Slice& internal_key) const {
  const std::vector<FileMetaData*>& files = files_[level];
  size_t i = FindFileIndex(cfd_->icmp(), files, internal_key);
  // A sentinel largest key is exclusive: that file holds nothing of the
  // user key (a lookup at kMaxSequenceNumber sorts before the sentinel).
  if (i < files.size() && IsRangeDelSentinel(files[i]->largest) &&
      cfd_->icmp().user_comparator()->Compare(ExtractUserKey(internal_key),
                                              ExtractUserKey(files[i]->largest)) == 0) {
    ++i;
  }
  return i;
}

bool Version::BeforeFile(const FileMetaData* f, const Slice& user_key) const {
  return cfd_->icmp().user_comparator()->Compare(user_key, ExtractUserKey(f->smallest)) < 0;
}

Status Version::FileRangeTombstones(FileMetaData* f, int level,
                                    const FragmentedRangeTombstoneList** list) {
  *list = nullptr;
  if (f->range_tombstones.loaded() && f->range_tombstones.get() == nullptr) return Status::OK();
  return cfd_->table_cache()->GetRangeTombstones(f, level, list);
}

void Version::UnrefVersion(void* version, void* /*unused*/) {
  static_cast<Version*>(version)->Unref();
}

Status Version::Get(const ReadOptions& options, const Slice& internal_key,
                    GetContext* get_context) {
  const Slice user_key = ExtractUserKey(internal_key);
  TableCache* tc = cfd_->table_cache();
  // Raises the context's watermark by f's range tombstones, then looks the
  // key up in f. Returns false when the search is over.
  auto search = [&](FileMetaData* f, int level, Status* s) {
    const FragmentedRangeTombstoneList* tombstones;
    *s = FileRangeTombstones(f, level, &tombstones);
    if (!s->ok()) return false;
    if (tombstones != nullptr) get_context->AddRangeTombstones(*tombstones);
    *s = tc->Get(options, f, level, internal_key, get_context);
    if (get_context->pin_pending()) {
      // The value is in the mapping of a reader this Version's file pins:
      // the slice keeps the Version (and so the file's reader) alive.
      Ref();
      get_context->pinnable()->RegisterCleanup(&UnrefVersion, this, nullptr);
      get_context->PinDone();
    }
    if (s->ok() && get_context->state() == GetContext::kFound) {
      RecordTick(cfd_->options().statistics.get(),
                 level == 0 ? GET_HIT_L0 : (level == 1 ? GET_HIT_L1 : GET_HIT_L2_AND_UP));
    }
    return s->ok() && !get_context->done();
  };
  Status s;
  uint64_t filter_hash = 0;
  bool hashed = false;
  for (FileMetaData* f : files_[0]) {
    if (!L0FileMayHold(f, user_key)) continue;
    if (const DynamicBloom* filter = f->KeyFilter()) {
      if (!hashed) {
        filter_hash = DynamicBloom::Hash(user_key);
        hashed = true;
      }
      if (!filter->MayContainHash(filter_hash)) {
        RecordTick(cfd_->options().statistics.get(), BLOOM_FILTER_USEFUL);
        PERF_COUNTER_ADD(bloom_sst_miss_count, 1);
        continue;
      }
    }
    if (!search(f, 0, &s)) return s;
  }
  for (int level = 1; level < num_levels_; ++level) {
    const std::vector<FileMetaData*>& files = files_[level];
    if (files.empty()) continue;
    const size_t i = LevelFileIndex(level, internal_key);
    if (i == files.size() || BeforeFile(files[i], user_key)) continue;
    if (!search(files[i], level, &s)) return s;
  }
  return Status::OK();
}

void Version::MultiGet(const ReadOptions& options, size_t n, const Slice* keys,
                       GetContext* const* contexts, Status* statuses) {
  const Comparator* ucmp = cfd_->icmp().user_comparator();
  TableCache* tc = cfd_->table_cache();
  // One file's batch (reused across calls on this thread).
  thread_local std::vector<size_t> batch;
  thread_local std::vector<Slice> batch_keys;
  thread_local std::vector<GetContext*> batch_contexts;
  thread_local std::vector<Status> batch_statuses;
  auto pending = [&](size_t i) { return statuses[i].ok() && !contexts[i]->done(); };
  // Raises the batch's watermarks by f's tombstones, then looks them up.
  auto run = [&](FileMetaData* f, int level) {
    if (batch.empty()) return;
    const FragmentedRangeTombstoneList* tombstones;
    Status s = FileRangeTombstones(f, level, &tombstones);
    if (!s.ok()) {
      for (size_t i : batch) statuses[i] = s;
      batch.clear();
      return;
    }
    batch_keys.clear();
    batch_contexts.clear();
    for (size_t i : batch) {
      if (tombstones != nullptr) contexts[i]->AddRangeTombstones(*tombstones);
      batch_keys.push_back(keys[i]);
      batch_contexts.push_back(contexts[i]);
    }
    batch_statuses.assign(batch.size(), Status::OK());
    tc->MultiGet(options, f, level, batch.size(), batch_keys.data(), batch_contexts.data(),
                 batch_statuses.data());
    for (size_t j = 0; j < batch.size(); j++) {
      if (!batch_statuses[j].ok()) statuses[batch[j]] = batch_statuses[j];
      GetContext* ctx = batch_contexts[j];
      if (ctx->pin_pending()) {
        // In the mapping of a reader the file pins (see Get).
        Ref();
        ctx->pinnable()->RegisterCleanup(&UnrefVersion, this, nullptr);
        ctx->PinDone();
      }
    }
    batch.clear();
  };
  batch.clear();
  for (FileMetaData* f : files_[0]) {
    for (size_t i = 0; i < n; i++) {
      if (!pending(i) || !L0FileMayHold(f, ExtractUserKey(keys[i]))) continue;
      const DynamicBloom* filter = f->KeyFilter();
      if (filter != nullptr && !filter->MayContain(ExtractUserKey(keys[i]))) {
        RecordTick(cfd_->options().statistics.get(), BLOOM_FILTER_USEFUL);
        PERF_COUNTER_ADD(bloom_sst_miss_count, 1);
        continue;
      }
      batch.push_back(i);
    }
    run(f, 0);
  }
  for (int level = 1; level < num_levels_; ++level) {
    const std::vector<FileMetaData*>& files = files_[level];
    if (files.empty()) continue;
    size_t i = 0;
    while (i < n) {
      if (!pending(i)) {
        i++;
        continue;
      }
      const size_t fi = LevelFileIndex(level, keys[i]);
      if (fi == files.size()) break;  // this key and every later one are past the level
      FileMetaData* f = files[fi];
      if (BeforeFile(f, ExtractUserKey(keys[i]))) {
        i++;
        continue;
      }
      // Every following key that this file may hold joins the batch.
      const Slice largest = ExtractUserKey(f->largest);
      const bool sentinel = IsRangeDelSentinel(f->largest);
      for (; i < n; i++) {
        if (!pending(i)) continue;
        const int c = ucmp->Compare(ExtractUserKey(keys[i]), largest);
        if (c > 0 || (c == 0 && sentinel)) break;
        batch.push_back(i);
      }
      run(f, level);
    }
  }
}

Status Version::GetRangeTombstones(const FragmentedRangeTombstoneList** list) {
  MutexLock l(&range_del_mu_);
  if (!range_del_built_) {
    std::vector<RangeTombstone> all;
    TableCache* tc = cfd_->table_cache();
    for (int level = 0; level < num_levels_; ++level) {
      for (FileMetaData* f : files_[level]) {
        const FragmentedRangeTombstoneList* file_list = nullptr;
        Status s = tc->GetRangeTombstones(f, level, &file_list);
        if (!s.ok()) return s;  // not cached: a later call retries
        if (file_list != nullptr) file_list->ToTombstones(&all);
      }
    }
    if (!all.empty()) {
      range_del_ = std::make_unique<FragmentedRangeTombstoneList>(all, user_comparator());
    }
    range_del_built_ = true;
  }
  *list = range_del_.get();
  return Status::OK();
}

void Version::AddIterators(const ReadOptions& options,
                           std::vector<std::unique_ptr<InternalIterator>>* iters,
                           const std::vector<const FragmentedRangeTombstoneList*>* range_tombstones,
                           SequenceNumber read_seq) {
  const bool skip_deleted = range_tombstones != nullptr && !range_tombstones->empty();
  TableCache* tc = cfd_->table_cache();
  const Comparator* ucmp = cfd_->icmp().user_comparator();
  for (FileMetaData* f : files_[0]) {
    // Files wholly outside the bounds need not be opened.
    if (options.iterate_upper_bound != nullptr &&
        ucmp->Compare(ExtractUserKey(f->smallest), *options.iterate_upper_bound) >= 0) {
      continue;
    }
    if (options.iterate_lower_bound != nullptr &&
        ucmp->Compare(ExtractUserKey(f->largest), *options.iterate_lower_bound) < 0) {
      continue;
    }
    std::unique_ptr<InternalIterator> it = tc->NewIterator(options, f, 0);
    if (skip_deleted) {
      it = NewRangeDelSkipIterator(std::move(it), ucmp, *range_tombstones, read_seq, f);
    }
    iters->push_back(std::move(it));
  }
  for (int level = 1; level < num_levels_; ++level) {
    if (files_[level].empty()) continue;
    std::unique_ptr<InternalIterator> it =
        NewLevelIterator(tc, options, &cfd_->icmp(), files_[level], level);
    if (skip_deleted) {
      it = NewRangeDelSkipIterator(std::move(it), ucmp, *range_tombstones, read_seq, nullptr);
    }
    iters->push_back(std::move(it));
  }
}

void Version::GetOverlappingInputs(int level, const Slice* begin, const Slice* end,
                                   std::vector<FileMetaData*>* inputs) const {
  inputs->clear();
  const Comparator* ucmp = cfd_->icmp().user_comparator();
  std::string lo = begin != nullptr ? begin->ToString() : std::string();
  std::string hi = end != nullptr ? end->ToString() : std::string();
  bool has_lo = begin != nullptr, has_hi = end != nullptr;
  const std::vector<FileMetaData*>& files = files_[level];
  for (size_t i = 0; i < files.size();) {
    FileMetaData* f = files[i++];
    const Slice fs = ExtractUserKey(f->smallest);
    const Slice fl = ExtractUserKey(f->largest);
    if (has_hi && ucmp->Compare(fs, hi) > 0) continue;
    if (has_lo && ucmp->Compare(fl, lo) < 0) continue;
    inputs->push_back(f);
    if (level == 0) {
      // Level-0 files overlap each other: widen the range and start over
      // whenever this file sticks out of it.
      bool restart = false;
      if (has_lo && ucmp->Compare(fs, lo) < 0) {
        lo = fs.ToString();
        restart = true;
      }
      if (has_hi && ucmp->Compare(fl, hi) > 0) {
        hi = fl.ToString();
        restart = true;
      }
      if (restart) {
        inputs->clear();
        i = 0;
      }
    }
  }
}

bool Version::OverlapInLevel(int level, const Slice& smallest, const Slice& largest) const {
  const Comparator* ucmp = cfd_->icmp().user_comparator();
  const std::vector<FileMetaData*>& files = files_[level];
  if (level == 0) {
    for (const FileMetaData* f : files) {
      if (ucmp->Compare(ExtractUserKey(f->largest), smallest) >= 0 &&
          ucmp->Compare(ExtractUserKey(f->smallest), largest) <= 0) {
        return true;
      }
    }
    return false;
  }
  std::string key;
  AppendInternalKey(&key, smallest, kMaxSequenceNumber, kValueTypeForSeek);
  const size_t i = FindFileIndex(cfd_->icmp(), files, key);
  if (i == files.size()) return false;
  return ucmp->Compare(ExtractUserKey(files[i]->smallest), largest) <= 0;
}

void Version::SetCompactionScores(std::vector<LevelScore> scores, uint64_t pending_bytes,
                                  int l0_delay_trigger_count) {
  scores_ = std::move(scores);
  std::stable_sort(scores_.begin(), scores_.end(),
                   [](const LevelScore& a, const LevelScore& b) { return a.score > b.score; });
  pending_compaction_bytes_ = pending_bytes;
  l0_delay_trigger_count_ = l0_delay_trigger_count;
}

void Version::ComputeCompactionScores(const ColumnFamilyOptions& o) {
  l0_delay_trigger_count_ = static_cast<int>(files_[0].size());
  switch (o.compaction_style) {
    case kCompactionStyleUniversal:
      ComputeUniversalCompactionScores(o, this);
      break;
    case kCompactionStyleFIFO:
      ComputeFifoCompactionScores(this, o, vset_->options().env->GetSystemClock());
      break;
    case kCompactionStyleLevel:
    case kCompactionStyleNone:
    default:
      ComputeLevelCompactionScores(o);
      break;
  }
}

void Version::ComputeLevelCompactionScores(const ColumnFamilyOptions& o) {
  const double multiplier = std::max(1.0, o.max_bytes_for_level_multiplier);
  const uint64_t base = std::max<uint64_t>(1, o.max_bytes_for_level_base);
  const int last = num_levels_ - 1;
  for (int i = 0; i < kMaxLevels; ++i) level_max_bytes_[i] = 0;

  ComputeFileStatistics();
  if (num_levels_ <= 1) {
    base_level_ = 0;
  } else if (!o.level_compaction_dynamic_level_bytes) {
    // RocksDB's static targets: L1 = base, L(n) = L(n-1) * multiplier *
    // max_bytes_for_level_multiplier_additional[n-1] (1 past the vector's
    // end), each product truncated to an integer, kept at the previous
    // value when it would overflow, and 0 for a factor <= 0.
    auto times = [](uint64_t v, double factor) -> uint64_t {
      if (v == 0 || factor <= 0) return 0;
      if (static_cast<double>(std::numeric_limits<uint64_t>::max() / v) < factor) return v;
      return static_cast<uint64_t>(static_cast<double>(v) * factor);
    };
    const std::vector<int>& additional = o.max_bytes_for_level_multiplier_additional;
    base_level_ = 1;
    level_max_bytes_[1] = base;
    for (int level = 2; level < num_levels_; ++level) {
      const size_t i = static_cast<size_t>(level - 1);
      const double extra = i < additional.size() ? additional[i] : 1.0;
      level_max_bytes_[level] =
          times(times(level_max_bytes_[level - 1], o.max_bytes_for_level_multiplier), extra);
    }
  } else {
    // Targets are set from the largest level down: each level above it
    // is 1/multiplier of the one below, and the base level (where L0 goes)
    // is the highest level whose target is still >= base / multiplier.
    uint64_t max_level_size = 0;
    int first_non_empty = 0;
    for (int level = 1; level < num_levels_; ++level) {
      const uint64_t bytes = NumLevelBytes(level);
      max_level_size = std::max(max_level_size, bytes);
      if (first_non_empty == 0 && !files_[level].empty()) first_non_empty = level;
    }
    double cur = static_cast<double>(std::max(max_level_size, base));
    double targets[kMaxLevels] = {};
    targets[last] = cur;
    int base_level = last;
    while (base_level > 1 && cur > static_cast<double>(base)) {
      cur /= multiplier;
      --base_level;
      targets[base_level] = cur;
    }
    // Newer data must never sit below older data: L0 may only skip levels
    // that are empty. A tree with data above the natural base level (a DB
    // written with other settings) keeps its base at the first non-empty
    // level, whose small targets then drain it downward.
    if (first_non_empty != 0 && first_non_empty < base_level) {
      for (int level = base_level - 1; level >= first_non_empty; --level) {
        targets[level] = targets[level + 1] / multiplier;
      }
      base_level = first_non_empty;
    }
    base_level_ = base_level;
    for (int level = base_level; level < num_levels_; ++level) {
      level_max_bytes_[level] =
          static_cast<uint64_t>(std::min(std::max(targets[level], 1.0), 9.0e18));
    }
  }

  scores_.clear();
  pending_compaction_bytes_ = 0;
  // Level 0 by file count.
  {
    int files = 0;
    uint64_t bytes = 0;
    for (const FileMetaData* f : files_[0]) {
      if (!f->being_compacted) {
        ++files;
        bytes += CompensatedFileSize(f);
      }
    }
    double score = static_cast<double>(files) / std::max(1, o.level0_file_num_compaction_trigger);
    if (num_levels_ > 1 && files >= o.level0_file_num_compaction_trigger) {
      score = std::max(score, static_cast<double>(bytes) / static_cast<double>(base));
    }
    scores_.push_back({0, score});
    if (files >= o.level0_file_num_compaction_trigger) pending_compaction_bytes_ += bytes;
  }
  for (int level = 1; level < last; ++level) {
    uint64_t bytes = 0;
    for (const FileMetaData* f : files_[level]) {
      if (!f->being_compacted) bytes += CompensatedFileSize(f);
    }
    // Levels above the base level are empty (see above).
    const double score =
        level_max_bytes_[level] == 0
            ? 0.0
            : static_cast<double>(bytes) / static_cast<double>(level_max_bytes_[level]);
    scores_.push_back({level, score});
    if (bytes > level_max_bytes_[level]) {
      pending_compaction_bytes_ += static_cast<uint64_t>(
          static_cast<double>(bytes - level_max_bytes_[level]) * (multiplier + 1));
    }
  }
  std::stable_sort(scores_.begin(), scores_.end(),
                   [](const LevelScore& a, const LevelScore& b) { return a.score > b.score; });
}

void Version::ComputeFileStatistics() {
  // RocksDB's average value size: raw value bytes per non-deletion entry,
  // scaled by the ratio of file bytes to raw bytes (compression), over the
  // files whose statistics are known.
  uint64_t file_bytes = 0, raw_keys = 0, raw_values = 0, non_deletions = 0;
  for (int level = 0; level < num_levels_; ++level) {
    for (const FileMetaData* f : files_[level]) {
      if (f->num_entries == 0) continue;
      file_bytes += f->file_size;
      raw_keys += f->raw_key_size;
      raw_values += f->raw_value_size;
      non_deletions += f->num_entries - std::min(f->num_entries, f->num_deletions);
    }
  }
  average_value_size_ = non_deletions == 0 || raw_keys + raw_values == 0
                            ? 0
                            : raw_values / non_deletions * file_bytes / (raw_keys + raw_values);

  // Marked files, except in the last non-empty level (a collector asking
  // for it there would only see the file rewritten in place, forever).
  files_marked_for_compaction_.clear();
  int last_qualifying = 0;
  for (int level = num_levels_ - 1; level >= 1; --level) {
    if (!files_[level].empty()) {
      last_qualifying = level - 1;
      break;
    }
  }
  for (int level = 0; level <= last_qualifying; ++level) {
    for (FileMetaData* f : files_[level]) {
      if (f->marked_for_compaction) files_marked_for_compaction_.emplace_back(level, f);
    }
  }
}

std::string Version::LevelSummary() const {
  std::string r = "files[";
  for (int level = 0; level < num_levels_; ++level) {
    r += " " + std::to_string(files_[level].size());
  }
  r += " ]";
  return r;
}

// ---------------------------------------------------------------------------
// VersionSet

VersionSet::VersionSet(const std::string& dbname, const Options& options, FileSystem* fs,
                       Directory* db_dir, Logger* info_log, Mutex* db_mu)
    : dbname_(dbname),
      options_(options),
      fs_(fs),
      db_dir_(db_dir),
      info_log_(info_log),
      db_mu_(db_mu),
      table_readers_(TableCache::NewReaderCache(options.max_open_files)),
      column_families_(std::make_unique<ColumnFamilySet>()) {}

VersionSet::~VersionSet() {
  // Families' Versions call back into this set as they go: release them
  // while it is whole. Versions still referenced by others would outlive
  // us: a caller bug.
  column_families_.reset();
}

ColumnFamilyData* VersionSet::default_cfd() const { return column_families_->GetDefault(); }

ColumnFamilyData* VersionSet::NewFamily(uint32_t id, const std::string& name,
                                        const ColumnFamilyOptions& options) {
  // The family's table directories, as RocksDB sanitizes them: cf_paths,
  // else db_paths, else the DB's directory. Path ids index this list.
  Options merged(options_, options);
  merged.cf_paths = TablePathsOf(dbname_, options_.db_paths, options.cf_paths);
  if (merged.cf_paths.size() > 1 && merged.level_compaction_dynamic_level_bytes) {
    // RocksDB 7.8.3 does not combine the two either (its SanitizeOptions).
    Log(InfoLogLevel::kWarn, info_log_,
        "[%s] options.level_compaction_dynamic_level_bytes turned off: it cannot be used with "
        "more than one table path (db_paths / cf_paths)",
        name.c_str());
    merged.level_compaction_dynamic_level_bytes = false;
  }
  auto* cfd = new ColumnFamilyData(id, name, merged, dbname_, db_mu_, table_readers_);
  LogColumnFamilyOptions(info_log_, name, cfd->options(), cfd->table_options());
  return cfd;
}

uint64_t VersionSet::MinLogNumber() const {
  uint64_t min_log = ~uint64_t{0};
  for (const ColumnFamilyData* cfd : column_families_->live()) {
    min_log = std::min(min_log, cfd->log_number());
  }
  return min_log == ~uint64_t{0} ? 0 : min_log;
}

void VersionSet::AppendVersion(ColumnFamilyData* cfd, Version* v) {
  cfd->db_mu_->AssertHeld();
  v->Ref();
  {
    MutexLock l(&versions_mu_);
    versions_.insert(v);
    for (int level = 0; level < v->num_levels(); ++level) {
      for (FileMetaData* f : v->files_[level]) ++f->refs;
    }
  }
  Version* old = cfd->current_;
  cfd->current_ = v;
  if (old != nullptr) old->Unref();
}

void VersionSet::RemoveVersion(Version* v) {
  // Readers drop Versions without the DB mutex: file reference counts are
  // guarded by versions_mu_.
  std::vector<FileMetaData*> dead;
  {
    MutexLock l(&versions_mu_);
    if (versions_.erase(v) == 0) {
      // Never installed: its files hold no reference from it. Delete the
      // ones no installed Version references either.
      for (int level = 0; level < v->num_levels(); ++level) {
        for (FileMetaData* f : v->files_[level]) {
          if (f->refs == 0) dead.push_back(f);
        }
      }
    } else {
      for (int level = 0; level < v->num_levels(); ++level) {
        for (FileMetaData* f : v->files_[level]) {
          if (--f->refs == 0) dead.push_back(f);
        }
      }
    }
  }
  for (FileMetaData* f : dead) delete f;
}

void VersionSet::AddLiveFiles(std::set<uint64_t>* live) const {
  MutexLock l(&versions_mu_);
  for (const Version* v : versions_) {
    for (int level = 0; level < v->num_levels(); ++level) {
      for (const FileMetaData* f : v->files(level)) live->insert(f->number);
    }
  }
}

void VersionSet::LiveVersionsOf(const ColumnFamilyData* cfd, uint64_t* versions,
                                uint64_t* file_bytes) const {
  MutexLock l(&versions_mu_);
  std::set<uint64_t> seen;
  *versions = 0;
  *file_bytes = 0;
  for (const Version* v : versions_) {
    if (v->cfd() != cfd) continue;
    ++*versions;
    for (int level = 0; level < v->num_levels(); ++level) {
      for (const FileMetaData* f : v->files(level)) {
        if (seen.insert(f->number).second) *file_bytes += f->file_size;
      }
    }
  }
}

void VersionSet::MarkFileNumberUsed(uint64_t number) {
  uint64_t cur = next_file_number_.load();
  while (cur <= number && !next_file_number_.compare_exchange_weak(cur, number + 1)) {
  }
}

Status VersionSet::CreateNew() {
  db_mu_->AssertHeld();
  VersionEdit edit;
  edit.SetComparatorName(options_.comparator->Name());
  edit.SetLogNumber(0);
  edit.SetNextFile(2);
  edit.SetLastSequence(0);
  if (!db_id_.empty()) edit.SetDBId(db_id_);
  const std::string manifest = DescriptorFileName(dbname_, 1);
  std::unique_ptr<WritableFile> file;
  FileOptions file_options;
  file_options.use_fsync = options_.use_fsync;
  Status s = fs_->NewWritableFile(manifest, file_options, &file);
  if (!s.ok()) return s;
  log::Writer writer(std::move(file), 0, false);
  std::string record;
  edit.EncodeTo(&record);
  s = writer.AddRecord(record);
  if (s.ok()) s = writer.Sync();
  Status c = writer.Close();
  if (s.ok()) s = c;
  // As in LogAndApply: once the CURRENT rename has been tried, CURRENT may
  // name this MANIFEST even if the call failed, so the file stays (a new
  // open then finds a complete, empty database).
  if (s.ok()) return SetCurrentFile(fs_, dbname_, 1, db_dir_, options_.use_fsync);
  fs_->DeleteFile(manifest).PermitUncheckedError();
  return s;
}

// What replaying a MANIFEST found: one entry per family it added and did
// not drop (families the caller opens get their object and builder), and
// the last value of each counter.
struct VersionSet::RecoveredManifest {
  struct Family {
    std::string name;
    std::unique_ptr<ColumnFamilyData> cfd;  // null: not opened by the caller
    std::unique_ptr<VersionBuilder> builder;
    std::optional<uint64_t> log_number;
  };
  std::string name;  // the MANIFEST's path
  uint64_t number = 0;
  uint64_t end_offset = 0;  // just past the last complete record
  std::map<uint32_t, Family> families;
  std::optional<uint64_t> prev_log, next_file, min_log_to_keep;
  std::optional<SequenceNumber> last_sequence;
  uint32_t max_cf = 0;
};

Status VersionSet::Recover(const std::map<std::string, ColumnFamilyOptions>& families,
                           bool allow_unopened, std::vector<std::string>* not_found) {
  db_mu_->AssertHeld();
  not_found->clear();
  RecoveredManifest m;
  Status s = ReplayManifest(families, &m);
  if (!s.ok()) return s;
  std::string not_opened;
  for (const auto& [id, fam] : m.families) {
    if (fam.cfd == nullptr) not_opened += (not_opened.empty() ? "" : ", ") + fam.name;
  }
  if (!not_opened.empty() && !allow_unopened) {
    return Status::InvalidArgument("Column families not opened: " + not_opened);
  }
  for (const auto& [name, options] : families) {
    bool found = false;
    for (const auto& [id, fam] : m.families) found = found || fam.name == name;
    if (!found) not_found->push_back(name);
  }
  return InstallRecovered(&m);
}

Status VersionSet::ReplayManifest(const std::map<std::string, ColumnFamilyOptions>& families,
                                  RecoveredManifest* m) {
  const std::string current_name = CurrentFileName(dbname_);
  std::string current;
  Status s = ReadFileToString(fs_, current_name, &current);
  if (!s.ok()) return s;
  if (current.empty() || current.back() != '\n') {
    return Status::Corruption("CURRENT file does not end with newline", current_name);
  }
  current.pop_back();
  FileType type;
  if (!ParseFileName(current, &m->number, &type) || type != FileType::kDescriptorFile) {
    return Status::Corruption("CURRENT file does not name a MANIFEST", current_name);
  }
  const std::string manifest = dbname_ + "/" + current;
  m->name = manifest;
  std::unique_ptr<SequentialFile> file;
  s = fs_->NewSequentialFile(manifest, FileOptions(), &file);
  if (!s.ok()) {
    if (fs_->FileExists(manifest).IsNotFound()) {
      return Status::Corruption("CURRENT points to a non-existent file", manifest);
    }
    return s;
  }

  std::map<uint32_t, RecoveredManifest::Family>& fams = m->families;
  auto open_family = [&](uint32_t id, const std::string& name) {
    RecoveredManifest::Family& f = fams[id];
    f.name = name;
    auto it = families.find(name);
    if (it != families.end()) {
      f.cfd.reset(NewFamily(id, name, it->second));
      f.builder = std::make_unique<VersionBuilder>(f.cfd->icmp(), nullptr, f.cfd->num_levels(),
                                                   f.cfd->file_metadata_charge());
    }
  };
  open_family(0, kDefaultColumnFamilyName);

  // One edit replayed into the families and counters.
  auto apply_edit = [&](const VersionEdit& edit, const std::string& where)
                        REQUIRES(db_mu_) -> Status {
    Status s;
    const uint32_t id = edit.column_family();
    m->max_cf = std::max(m->max_cf, id);
    if (edit.max_column_family()) m->max_cf = std::max(m->max_cf, *edit.max_column_family());
    if (edit.column_family_add().has_value()) {
      if (fams.count(id) > 0) {
        return Status::Corruption("column family id " + std::to_string(id) + " added twice", where);
      }
      open_family(id, *edit.column_family_add());
    }
    auto it = fams.find(id);
    if (it == fams.end()) {
      return Status::Corruption("edit of unknown column family id " + std::to_string(id), where);
    }
    RecoveredManifest::Family& fam = it->second;
    if (edit.is_column_family_drop()) {
      if (id == 0) return Status::Corruption("the default column family is dropped", where);
      fams.erase(it);
    } else if (fam.cfd != nullptr) {
      if (edit.comparator().has_value() &&
          *edit.comparator() != fam.cfd->user_comparator()->Name()) {
        return Status::InvalidArgument(fam.cfd->user_comparator()->Name(),
                                       "does not match existing comparator " + *edit.comparator() +
                                           " of column family \"" + fam.name + "\" (" + manifest +
                                           ")");
      }
      s = fam.builder->Apply(edit);
      if (!s.ok()) return Status::Corruption(s.getState(), where);
      if (edit.log_number()) fam.log_number = edit.log_number();
    }
    if (edit.prev_log_number()) m->prev_log = edit.prev_log_number();
    if (edit.next_file_number()) m->next_file = edit.next_file_number();
    if (edit.last_sequence()) m->last_sequence = edit.last_sequence();
    if (edit.min_log_number_to_keep()) m->min_log_to_keep = edit.min_log_number_to_keep();
    if (edit.db_id()) db_id_ = *edit.db_id();
    return Status::OK();
  };
  std::vector<std::pair<VersionEdit, std::string>> group;
  uint32_t group_remaining = 0;

  LogReporter reporter;
  log::Reader reader(std::move(file), &reporter, /*checksum=*/true, /*log_number=*/0, manifest);
  Slice record;
  std::string scratch;
  uint64_t good_end = 0;  // file offset just past the last record read
  // Where the MANIFEST's complete part ends when it stops inside an atomic
  // group: before the group (a secondary tails on from there).
  uint64_t group_start = 0;
  while (reader.ReadRecord(&record, &scratch, WALRecoveryMode::kTolerateCorruptedTailRecords)) {
    if (!reporter.first.ok()) break;
    if (group.empty()) group_start = good_end;
    good_end = reader.LastRecordEndOffset();
    VersionEdit edit;
    const std::string where =
        manifest + " record at offset " + std::to_string(reader.LastRecordOffset());
    s = edit.DecodeFrom(record);
    if (!s.ok()) return Status::Corruption(s.getState(), where);
    // The edits of an atomic group (several families changed together, as
    // IngestExternalFiles does) apply only once the whole group is read; a
    // group cut short by the end of the MANIFEST (a torn write) is dropped.
    if (edit.remaining_in_atomic_group().has_value()) {
      if (!group.empty() && *edit.remaining_in_atomic_group() + 1 != group_remaining) {
        return Status::Corruption("atomic group out of order", where);
      }
      group_remaining = *edit.remaining_in_atomic_group();
      group.emplace_back(std::move(edit), where);
      if (group_remaining != 0) continue;
      for (auto& [e, w] : group) {
        s = apply_edit(e, w);
        if (!s.ok()) return s;
      }
      group.clear();
      continue;
    }
    if (!group.empty()) return Status::Corruption("atomic group ended early", where);
    s = apply_edit(edit, where);
    if (!s.ok()) return s;
  }
  if (!reporter.first.ok()) return reporter.first;
  {
    // A silent end before the end of the file must be a torn final write.
    uint64_t size = 0;
    s = fs_->GetFileSize(manifest, &size);
    if (s.ok()) s = log::CheckFileTail(fs_, manifest, /*log_number=*/0, good_end, size);
    if (!s.ok()) return s;
  }
  if (!m->next_file || !m->last_sequence) {
    return Status::Corruption("no next_file_number or last_sequence entry in MANIFEST", manifest);
  }
  m->end_offset = group.empty() ? good_end : group_start;
  return Status::OK();
}

Status VersionSet::InstallRecovered(RecoveredManifest* m) {
  const std::string& manifest = m->name;
  const SequenceNumber last_sequence = *m->last_sequence;
  uint64_t max_number = m->number;
  std::vector<std::pair<ColumnFamilyData*, Version*>> built;
  auto discard = [&built]() {
    for (auto& [cfd, v] : built) delete v;
  };
  for (auto& [id, fam] : m->families) {
    if (fam.cfd == nullptr) continue;  // a family the caller did not open
    auto* v = new Version(this, fam.cfd.get(), next_version_number_++);
    built.emplace_back(fam.cfd.get(), v);
    Status s = fam.builder->SaveTo(v);
    if (!s.ok()) {
      discard();
      return Status::Corruption(s.getState(), manifest);
    }
    for (int level = 0; level < v->num_levels(); ++level) {
      for (const FileMetaData* f : v->files(level)) {
        max_number = std::max(max_number, f->number);
        if (f->largest_seqno > last_sequence) {
          const uint64_t number = f->number, seq = f->largest_seqno;
          discard();
          return Status::Corruption("file " + std::to_string(number) +
                                        " has sequence numbers up to " + std::to_string(seq) +
                                        ", beyond the last sequence of the MANIFEST",
                                    manifest);
        }
      }
    }
  }
  // Everything checked: the families go live.
  size_t i = 0;
  for (auto& [id, fam] : m->families) {
    if (fam.cfd == nullptr) continue;
    ColumnFamilyData* cfd = fam.cfd.release();
    Version* v = built[i++].second;
    v->ComputeCompactionScores(cfd->options());
    cfd->set_log_number(fam.log_number.value_or(0));
    column_families_->Add(cfd);
    AppendVersion(cfd, v);
  }
  column_families_->UpdateMaxColumnFamily(m->max_cf);
  manifest_file_number_ = m->number;
  recovered_manifest_end_ = m->end_offset;
  next_file_number_.store(std::max(*m->next_file, max_number + 1));
  last_sequence_ = last_sequence;
  prev_log_number_ = m->prev_log.value_or(0);
  min_log_number_to_keep_ = m->min_log_to_keep.value_or(0);
  for (const ColumnFamilyData* cfd : column_families_->live()) {
    Log(info_log_,
        "Recovered %s: column family \"%s\" (id %u) %s, log number %" PRIu64 ", next file %" PRIu64
        ", last sequence %" PRIu64,
        manifest.c_str(), cfd->name().c_str(), cfd->id(), cfd->current()->LevelSummary().c_str(),
        cfd->log_number(), next_file_number_.load(), last_sequence_);
  }
  return Status::OK();
}

void VersionSet::EncodeSnapshot(std::vector<std::string>* records) const {
  records->clear();
  // Per live family, as RocksDB writes a MANIFEST's opening state: its
  // addition (except the default family) with the comparator in one edit,
  // then its files and log number in another. RocksDB applies nothing but
  // the addition from an edit that adds a family, so files in that edit
  // would be lost to it.
  for (const ColumnFamilyData* cfd : column_families_->live()) {
    if (cfd->id() != 0) {
      VersionEdit add;
      add.SetColumnFamily(cfd->id());
      add.AddColumnFamily(cfd->name());
      add.SetComparatorName(cfd->user_comparator()->Name());
      records->emplace_back();
      add.EncodeTo(&records->back());
    }
    VersionEdit edit;
    edit.SetColumnFamily(cfd->id());
    if (cfd->id() == 0) edit.SetComparatorName(cfd->user_comparator()->Name());
    if (cfd->id() == 0 && !db_id_.empty()) edit.SetDBId(db_id_);
    // The whole DB's, recorded once (RocksDB puts it with the default
    // family): recovery with two-phase commit starts at it, and a new
    // MANIFEST that lost it would skip WALs holding prepared sections.
    if (cfd->id() == 0 && min_log_number_to_keep_ != 0) {
      edit.SetMinLogNumberToKeep(min_log_number_to_keep_);
    }
    const Version* v = cfd->current();
    for (int level = 0; level < v->num_levels(); ++level) {
      for (const FileMetaData* f : v->files(level)) edit.AddFile(level, *f);
    }
    edit.SetLogNumber(cfd->log_number());
    records->emplace_back();
    edit.EncodeTo(&records->back());
  }
  VersionEdit counters;
  counters.SetPrevLogNumber(prev_log_number_);
  counters.SetNextFile(next_file_number_.load());
  counters.SetLastSequence(last_sequence_);
  if (column_families_->max_column_family() > 0) {
    counters.SetMaxColumnFamily(column_families_->max_column_family());
  }
  records->emplace_back();
  counters.EncodeTo(&records->back());
}

Status VersionSet::LogAndApply(ColumnFamilyData* cfd, VersionEdit* edit, Mutex* mu) {
  db_mu_->AssertHeld();
  return LogAndApplyImpl(cfd, edit, mu, nullptr, nullptr);
}

Status VersionSet::LogAndApplyGroup(const std::vector<ColumnFamilyData*>& cfds,
                                    const std::vector<VersionEdit*>& edits, Mutex* mu) {
  db_mu_->AssertHeld();
  return LogAndApplyGroupImpl(cfds, edits, mu);
}

Status VersionSet::LogAndApplyGroupImpl(const std::vector<ColumnFamilyData*>& cfds,
                                        const std::vector<VersionEdit*>& edits, Mutex* mu) {
  assert(mu == db_mu_);
  assert(cfds.size() == edits.size() && !cfds.empty());
  if (cfds.size() == 1) return LogAndApplyImpl(cfds[0], edits[0], mu, nullptr, nullptr);
  if (manifest_cv_ == nullptr) manifest_cv_ = std::make_unique<CondVar>(db_mu_);
  while (manifest_writing_) manifest_cv_->Wait();
  manifest_writing_ = true;
  auto finish = [this](const Status& st) REQUIRES(db_mu_) {
    manifest_writing_ = false;
    manifest_cv_->SignalAll();
    return st;
  };
  std::vector<Version*> versions;
  auto drop_versions = [&versions]() {
    for (Version* v : versions) delete v;
  };
  Status s;
  for (size_t i = 0; i < cfds.size() && s.ok(); ++i) {
    ColumnFamilyData* cfd = cfds[i];
    VersionEdit* edit = edits[i];
    if (cfd->dropped()) {
      s = Status::InvalidArgument("column family was dropped", cfd->name());
      break;
    }
    edit->SetColumnFamily(cfd->id());
    if (!edit->log_number().has_value() || *edit->log_number() < cfd->log_number()) {
      edit->SetLogNumber(cfd->log_number());
    }
    if (!edit->prev_log_number().has_value()) edit->SetPrevLogNumber(prev_log_number_);
    if (!edit->last_sequence().has_value() || *edit->last_sequence() < last_sequence_) {
      edit->SetLastSequence(last_sequence_);
    }
    edit->MarkAtomicGroup(static_cast<uint32_t>(cfds.size() - 1 - i));
    Version* v = new Version(this, cfd, next_version_number_++);
    versions.push_back(v);
    VersionBuilder builder(cfd->icmp(), cfd->current(), cfd->num_levels(),
                           cfd->file_metadata_charge());
    s = builder.Apply(*edit);
    if (s.ok()) s = builder.SaveTo(v);
    if (s.ok()) v->ComputeCompactionScores(cfd->options());
  }
  if (!s.ok()) {
    drop_versions();
    return finish(s);
  }

  const bool new_manifest =
      descriptor_log_ == nullptr || descriptor_size_ > options_.max_manifest_file_size;
  const uint64_t manifest_number = new_manifest ? NewFileNumber() : manifest_file_number_;
  std::vector<std::string> records;
  for (VersionEdit* edit : edits) {
    edit->SetNextFile(next_file_number_.load());
    records.emplace_back();
    edit->EncodeTo(&records.back());
  }
  std::vector<std::string> snapshot;
  if (new_manifest) EncodeSnapshot(&snapshot);

  log::Writer* const current_log = descriptor_log_.get();
  db_mu_->Unlock();
  std::unique_ptr<log::Writer> new_log;
  bool current_attempted = false;
  s = WriteManifest(new_manifest, manifest_number, snapshot, records, current_log, &new_log,
                    &current_attempted);
  db_mu_->Lock();
  FinishManifestWrite(s, new_manifest, manifest_number, std::move(new_log), current_attempted);

  if (s.ok()) {
    if (edits.back()->prev_log_number()) prev_log_number_ = *edits.back()->prev_log_number();
    for (size_t i = 0; i < cfds.size(); ++i) {
      cfds[i]->set_log_number(*edits[i]->log_number());
      AppendVersion(cfds[i], versions[i]);
    }
  } else {
    drop_versions();
  }
  return finish(s);
}

Status VersionSet::CreateColumnFamily(const std::string& name, const ColumnFamilyOptions& options,
                                      uint64_t log_number, Mutex* mu, ColumnFamilyData** cfd) {
  db_mu_->AssertHeld();
  VersionEdit edit;
  edit.AddColumnFamily(name);
  edit.SetComparatorName(options.comparator->Name());
  edit.SetLogNumber(log_number);
  return LogAndApplyImpl(nullptr, &edit, mu, &options, cfd);
}

Status VersionSet::DropColumnFamily(ColumnFamilyData* cfd, Mutex* mu) {
  db_mu_->AssertHeld();
  VersionEdit edit;
  edit.DropColumnFamily();
  return LogAndApplyImpl(cfd, &edit, mu, nullptr, nullptr);
}

Status VersionSet::LogAndApplyImpl(ColumnFamilyData* cfd, VersionEdit* edit, Mutex* mu,
                                   const ColumnFamilyOptions* new_options,
                                   ColumnFamilyData** created) {
  assert(mu == db_mu_);  // one DB mutex: the caller's is the set's  // one DB mutex: the caller's
                         // is the set's
  if (manifest_cv_ == nullptr) manifest_cv_ = std::make_unique<CondVar>(db_mu_);
  while (manifest_writing_) manifest_cv_->Wait();
  manifest_writing_ = true;
  auto finish = [this](const Status& st) REQUIRES(db_mu_) {
    manifest_writing_ = false;
    manifest_cv_->SignalAll();
    return st;
  };

  const bool is_add = cfd == nullptr;
  const bool is_drop = edit->is_column_family_drop();
  uint32_t new_id = 0;
  if (is_add) {
    if (column_families_->GetByName(*edit->column_family_add()) != nullptr) {
      return finish(
          Status::InvalidArgument("column family already exists", *edit->column_family_add()));
    }
    new_id = column_families_->max_column_family() + 1;
    edit->SetColumnFamily(new_id);
    edit->SetMaxColumnFamily(new_id);
  } else {
    if (cfd->dropped()) {
      return finish(Status::InvalidArgument("column family was dropped", cfd->name()));
    }
    edit->SetColumnFamily(cfd->id());
    if (!is_drop) {
      if (edit->log_number().has_value()) {
        if (*edit->log_number() < cfd->log_number()) edit->SetLogNumber(cfd->log_number());
      } else {
        edit->SetLogNumber(cfd->log_number());
      }
    }
  }
  if (!is_add && !is_drop) {
    if (!edit->prev_log_number().has_value()) edit->SetPrevLogNumber(prev_log_number_);
    if (!edit->last_sequence().has_value() || *edit->last_sequence() < last_sequence_) {
      edit->SetLastSequence(last_sequence_);
    }
  }

  Version* v = nullptr;
  Status s;
  if (!is_add && !is_drop) {
    v = new Version(this, cfd, next_version_number_++);
    {
      VersionBuilder builder(cfd->icmp(), cfd->current(), cfd->num_levels(),
                             cfd->file_metadata_charge());
      s = builder.Apply(*edit);
      if (s.ok()) s = builder.SaveTo(v);
    }
    if (!s.ok()) {
      delete v;
      return finish(s);
    }
    v->ComputeCompactionScores(cfd->options());
  }

  const bool new_manifest =
      descriptor_log_ == nullptr || descriptor_size_ > options_.max_manifest_file_size;
  const uint64_t manifest_number = new_manifest ? NewFileNumber() : manifest_file_number_;
  edit->SetNextFile(next_file_number_.load());
  std::string record;
  edit->EncodeTo(&record);
  // The snapshot a new MANIFEST starts with is taken under the mutex (the
  // counters change under it); it describes the state before this edit.
  std::vector<std::string> snapshot;
  if (new_manifest) EncodeSnapshot(&snapshot);

  // The MANIFEST writer is ours alone while manifest_writing_ is set.
  log::Writer* const current_log = descriptor_log_.get();
  db_mu_->Unlock();
  std::unique_ptr<log::Writer> new_log;
  bool current_attempted = false;
  s = WriteManifest(new_manifest, manifest_number, snapshot, {record}, current_log, &new_log,
                    &current_attempted);
  db_mu_->Lock();
  FinishManifestWrite(s, new_manifest, manifest_number, std::move(new_log), current_attempted);

  if (s.ok()) {
    if (edit->prev_log_number()) prev_log_number_ = *edit->prev_log_number();
    if (edit->min_log_number_to_keep()) min_log_number_to_keep_ = *edit->min_log_number_to_keep();
    if (is_add) {
      ColumnFamilyData* fresh = NewFamily(new_id, *edit->column_family_add(), *new_options);
      fresh->set_log_number(edit->log_number().value_or(0));
      column_families_->Add(fresh);
      auto* empty = new Version(this, fresh, next_version_number_++);
      empty->ComputeCompactionScores(fresh->options());
      AppendVersion(fresh, empty);
      if (created != nullptr) *created = fresh;
    } else if (is_drop) {
      column_families_->Remove(cfd);
    } else {
      cfd->set_log_number(*edit->log_number());
      AppendVersion(cfd, v);
    }
  } else {
    delete v;
  }
  return finish(s);
}

Status VersionSet::WriteManifest(bool new_manifest, uint64_t manifest_number,
                                 const std::vector<std::string>& snapshot,
                                 const std::vector<std::string>& records, log::Writer* current_log,
                                 std::unique_ptr<log::Writer>* new_log, bool* current_attempted) {
  Status s;
  if (new_manifest) {
    std::unique_ptr<WritableFile> file;
    FileOptions file_options;
    file_options.use_fsync = options_.use_fsync;
    s = fs_->NewWritableFile(DescriptorFileName(dbname_, manifest_number), file_options, &file);
    if (s.ok()) {
      *new_log = std::make_unique<log::Writer>(std::move(file), 0, false);
      for (const std::string& r : snapshot) {
        if (s.ok()) s = (*new_log)->AddRecord(r);
      }
    }
  }
  log::Writer* log = new_manifest ? new_log->get() : current_log;
  for (const std::string& r : records) {
    if (s.ok()) s = log->AddRecord(r);
  }
  if (s.ok()) {
    StopWatch sw(options_.env->GetSystemClock(), options_.statistics.get(),
                 MANIFEST_FILE_SYNC_MICROS);
    s = log->Sync();
  }
  // Once the rename of CURRENT has been tried, CURRENT may name the new
  // MANIFEST even though the call failed (the rename done, the directory
  // fsync not): that file must then stay.
  *current_attempted = s.ok() && new_manifest;
  if (*current_attempted) {
    s = SetCurrentFile(fs_, dbname_, manifest_number, db_dir_, options_.use_fsync);
  }
  return s;
}

void VersionSet::FinishManifestWrite(const Status& s, bool new_manifest, uint64_t manifest_number,
                                     std::unique_ptr<log::Writer> new_log, bool current_attempted) {
  db_mu_->AssertHeld();
  if (s.ok()) {
    manifest_write_failed_ = false;
    if (new_manifest) {
      if (descriptor_log_ != nullptr) descriptor_log_->Close().PermitUncheckedError();
      descriptor_log_ = std::move(new_log);
      manifest_file_number_ = manifest_number;
    }
    descriptor_size_ = descriptor_log_->file_size();
    return;
  }
  Log(InfoLogLevel::kError, info_log_, "MANIFEST write failed: %s", s.ToString().c_str());
  // Whether the edit is durable is unknown now (a failed sync may or may
  // not have written it; CURRENT may or may not name the new MANIFEST):
  // the next edit starts a new MANIFEST with a full snapshot of the state
  // in memory, and until then no file may be deleted as obsolete (the edit
  // may have reached the disk and name files this process thinks unused).
  manifest_write_failed_ = true;
  if (new_log != nullptr) new_log->Close().PermitUncheckedError();
  if (new_manifest && !current_attempted) {
    fs_->DeleteFile(DescriptorFileName(dbname_, manifest_number)).PermitUncheckedError();
  }
  // The MANIFEST may end in a partial record, or CURRENT may name the new
  // one: never append to the old one again.
  if (descriptor_log_ != nullptr) descriptor_log_->Close().PermitUncheckedError();
  descriptor_log_.reset();
}

}  // namespace strata
