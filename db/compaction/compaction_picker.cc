#include <algorithm>
#include <cmath>
#include <set>

#include "db/column_family.h"
#include "db/compaction/compaction.h"
#include "db/compaction/compaction_picker_fifo.h"
#include "db/compaction/compaction_picker_universal.h"
#include "db/compaction/compression_for_level.h"
#include "db/compaction/file_age.h"
#include "db/filename.h"
#include "strata/sst_partitioner.h"

namespace strata {

namespace {

// User-key range [*smallest, *largest] of a set of files.
void KeyRange(const std::vector<FileMetaData*>& files, const Comparator* ucmp,
              std::string* smallest, std::string* largest) {
  bool first = true;
  for (const FileMetaData* f : files) {
    const Slice s = ExtractUserKey(f->smallest);
    const Slice l = ExtractUserKey(f->largest);
    if (first || ucmp->Compare(s, *smallest) < 0) smallest->assign(s.data(), s.size());
    if (first || ucmp->Compare(l, *largest) > 0) largest->assign(l.data(), l.size());
    first = false;
  }
}

uint64_t TotalBytes(const std::vector<FileMetaData*>& files) {
  uint64_t sum = 0;
  for (const FileMetaData* f : files) sum += f->file_size;
  return sum;
}

}  // namespace

// ---------------------------------------------------------------------------
// Output placement

uint32_t LevelOutputPathId(const Options& o, int level) {
  const std::vector<DbPath>& paths = o.cf_paths;
  if (paths.size() <= 1) return 0;
  uint32_t p = 0;
  uint64_t left = paths[0].target_size;  // of the current path
  // Level 0 is taken to be as large as level 1.
  uint64_t level_size = o.max_bytes_for_level_base;
  int cur = 0;
  while (p + 1 < paths.size()) {
    if (level_size <= left) {
      if (cur == level) return p;
      left -= level_size;
      if (cur > 0) {
        // (Dynamic level sizes are off with several paths: the family's
        // options were sanitized so.)
        const std::vector<int>& extra = o.max_bytes_for_level_multiplier_additional;
        const double add = static_cast<size_t>(cur) < extra.size() ? extra[cur] : 1;
        level_size = static_cast<uint64_t>(static_cast<double>(level_size) *
                                           o.max_bytes_for_level_multiplier * add);
      }
      ++cur;
      continue;
    }
    ++p;
    left = paths[p].target_size;
  }
  return p;
}

uint32_t UniversalOutputPathId(const Options& o, uint64_t output_size) {
  const std::vector<DbPath>& paths = o.cf_paths;
  if (paths.size() <= 1) return 0;
  const uint64_t future = output_size * (100 - o.compaction_options_universal.size_ratio) / 100;
  uint64_t accumulated = 0;
  uint32_t p = 0;
  for (; p + 1 < paths.size(); ++p) {
    const uint64_t target = paths[p].target_size;
    if (target > output_size && accumulated + (target - output_size) > future) return p;
    accumulated += target;
  }
  return p;
}

// ---------------------------------------------------------------------------
// Compaction

Compaction::Compaction(Version* input_version, int output_level)
    : input_version_(input_version), output_level_(output_level) {
  input_version_->Ref();
}

Compaction::~Compaction() { input_version_->Unref(); }

std::vector<FileMetaData*>* Compaction::AddInputLevel(int level) {
  inputs_.push_back(CompactionInputFiles{level, {}});
  return &inputs_.back().files;
}

size_t Compaction::num_input_files() const {
  size_t n = 0;
  for (const CompactionInputFiles& in : inputs_) n += in.files.size();
  return n;
}

const std::vector<FileMetaData*>& Compaction::output_level_inputs() const {
  static const std::vector<FileMetaData*> kNone;
  if (!inputs_.empty() && inputs_.back().level == output_level_) return inputs_.back().files;
  return kNone;
}

uint64_t Compaction::TotalInputBytes() const {
  uint64_t sum = 0;
  for (const CompactionInputFiles& in : inputs_) sum += TotalBytes(in.files);
  return sum;
}

void Compaction::FinishSetup(uint64_t max_output_file_size, bool allow_ingest_behind) {
  const Comparator* ucmp = input_version_->user_comparator();
  std::vector<FileMetaData*> all;
  for (const CompactionInputFiles& in : inputs_)
    all.insert(all.end(), in.files.begin(), in.files.end());
  KeyRange(all, ucmp, &smallest_user_key_, &largest_user_key_);
  const Slice lo(smallest_user_key_), hi(largest_user_key_);
  grandparents_.clear();
  if (output_level_ + 1 < input_version_->num_levels()) {
    input_version_->GetOverlappingInputs(output_level_ + 1, &lo, &hi, &grandparents_);
  }
  // With allow_ingest_behind older data may still be ingested under the
  // last level: nothing is bottommost (RocksDB's rule).
  bottommost_ = !allow_ingest_behind;
  for (int level = output_level_ + 1; level < input_version_->num_levels(); ++level) {
    if (input_version_->OverlapInLevel(level, lo, hi)) {
      bottommost_ = false;
      break;
    }
  }
  // Level-0 files older than every level-0 input and overlapping the range
  // also lie "below" an output in level 0.
  if (bottommost_ && output_level_ == 0 && !inputs_.empty() && inputs_.front().level == 0) {
    const std::vector<FileMetaData*>& l0 = input_version_->files(0);
    const FileMetaData* oldest_input =
        inputs_.front().files.empty() ? nullptr : inputs_.front().files.back();
    bool past = false;
    for (const FileMetaData* f : l0) {
      if (past && ucmp->Compare(ExtractUserKey(f->smallest), hi) <= 0 &&
          ucmp->Compare(ExtractUserKey(f->largest), lo) >= 0) {
        bottommost_ = false;
        break;
      }
      if (f == oldest_input) past = true;
    }
  }
  max_output_file_size_ = max_output_file_size;
}

bool Compaction::KeyMayExistBelowOutput(const Slice& user_key) {
  if (bottommost_) return false;
  const Comparator* ucmp = input_version_->user_comparator();
  if (output_level_ == 0) return true;  // older level-0 files: not tracked per key
  for (int level = output_level_ + 1; level < input_version_->num_levels(); ++level) {
    const std::vector<FileMetaData*>& files = input_version_->files(level);
    size_t& i = level_ptrs_[level];
    while (i < files.size()) {
      const FileMetaData* f = files[i];
      if (ucmp->Compare(user_key, ExtractUserKey(f->largest)) <= 0) {
        if (ucmp->Compare(user_key, ExtractUserKey(f->smallest)) >= 0) return true;
        break;
      }
      ++i;
    }
  }
  return false;
}

void Compaction::AddInputDeletions(VersionEdit* edit) const {
  for (const CompactionInputFiles& in : inputs_) {
    for (const FileMetaData* f : in.files) edit->DeleteFile(in.level, f->number);
  }
}

void Compaction::MarkFilesBeingCompacted(bool value) {
  for (CompactionInputFiles& in : inputs_) {
    for (FileMetaData* f : in.files) f->being_compacted = value;
  }
}

std::string Compaction::Summary() const {
  std::string r;
  for (const CompactionInputFiles& in : inputs_) {
    if (in.files.empty()) continue;
    if (!r.empty()) r += " + ";
    r += std::to_string(in.files.size()) + "@L" + std::to_string(in.level);
  }
  if (r.empty()) r = "0 files";
  if (deletion_compaction_) return r + " deleted";
  r += " -> L" + std::to_string(output_level_);
  if (trivial_move_) r += " (trivial move)";
  return r;
}

// ---------------------------------------------------------------------------
// CompactionPicker

CompactionPicker::CompactionPicker(const Options* options, const InternalKeyComparator& icmp,
                                   Mutex* db_mu)
    : db_mu_(db_mu), options_(options), icmp_(icmp) {}

CompactionPicker::~CompactionPicker() = default;

std::unique_ptr<CompactionPicker> NewCompactionPicker(const Options* options,
                                                      const InternalKeyComparator& icmp,
                                                      Mutex* db_mu) {
  switch (options->compaction_style) {
    case kCompactionStyleNone:
      return std::make_unique<NoneCompactionPicker>(options, icmp, db_mu);
    case kCompactionStyleUniversal:
      return std::make_unique<UniversalCompactionPicker>(options, icmp, db_mu);
    case kCompactionStyleFIFO:
      return std::make_unique<FIFOCompactionPicker>(options, icmp, db_mu);
    case kCompactionStyleLevel:
    default:
      return std::make_unique<LevelCompactionPicker>(options, icmp, db_mu);
  }
}

uint64_t CompactionPicker::MaxFileSizeForLevel(int level) const {
  const Options& o = *options_.load(std::memory_order_acquire);
  double size = static_cast<double>(std::max<uint64_t>(1, o.target_file_size_base));
  const int multiplier = std::max(1, o.target_file_size_multiplier);
  for (int i = 1; i < level; ++i) size *= multiplier;
  return static_cast<uint64_t>(std::min(size, 9.0e18));
}

bool CompactionPicker::NeedsCompaction(const Version* v) const {
  for (const Version::LevelScore& ls : v->compaction_scores()) {
    if (ls.score >= 1) return true;
  }
  return false;
}

bool CompactionPicker::AnyBeingCompacted(const std::vector<FileMetaData*>& files) const {
  for (const FileMetaData* f : files) {
    if (f->being_compacted) return true;
  }
  return false;
}

bool CompactionPicker::RangeBusyInOutputLevel(int output_level, const Slice& smallest,
                                              const Slice& largest) const {
  const Comparator* ucmp = icmp_.user_comparator();
  for (const Compaction* c : running_) {
    if (c->output_level() != output_level) continue;
    if (ucmp->Compare(smallest, c->largest_user_key()) <= 0 &&
        ucmp->Compare(largest, c->smallest_user_key()) >= 0) {
      return true;
    }
  }
  return false;
}

bool CompactionPicker::SetupOtherInputs(Compaction* c) {
  const Comparator* ucmp = icmp_.user_comparator();
  Version* v = c->input_version_;
  const int start_level = c->start_level();
  const int output_level = c->output_level_;
  std::string smallest, largest;
  KeyRange(c->inputs(0), ucmp, &smallest, &largest);
  if (output_level != start_level) {
    Slice lo(smallest), hi(largest);
    std::vector<FileMetaData*>* out = c->AddInputLevel(output_level);
    v->GetOverlappingInputs(output_level, &lo, &hi, out);
    if (AnyBeingCompacted(*out)) return false;
  }
  c->FinishSetup(MaxFileSizeForLevel(output_level), options().allow_ingest_behind);
  if (RangeBusyInOutputLevel(output_level, c->smallest_user_key_, c->largest_user_key_)) {
    return false;
  }

  // Trivial move: the start-level files overlap nothing in the output level
  // and (for level 0) not each other either, and the move does not create
  // a file overlapping too much of the level below.
  if (c->output_level_inputs().empty() && output_level != start_level) {
    std::vector<FileMetaData*> sorted = c->inputs(0);
    std::sort(sorted.begin(), sorted.end(), [this](const FileMetaData* a, const FileMetaData* b) {
      return icmp_.Compare(a->smallest, b->smallest) < 0;
    });
    bool disjoint = true;
    for (size_t i = 1; i < sorted.size(); ++i) {
      if (ucmp->Compare(ExtractUserKey(sorted[i - 1]->largest),
                        ExtractUserKey(sorted[i]->smallest)) >= 0) {
        disjoint = false;
        break;
      }
    }
    // Each moved file must also not straddle an output-level file (it
    // does not: nothing there overlaps the range).
    const uint64_t max_grandparent = 10 * c->max_output_file_size_;
    // A moved file keeps its codec: move only when the output level's
    // compression is the start level's (RocksDB's
    // InputCompressionMatchesOutput).
    const Options& co = *options_.load(std::memory_order_acquire);
    const bool same_compression =
        CompressionForLevel(co, c->start_level(), v->base_level(),
                            IsBottommostForCompression(*v, c->start_level())) ==
        CompressionForLevel(co, c->output_level_, v->base_level(),
                            IsBottommostForCompression(*v, c->output_level_));
    // A moved file stays in its directory: move only when the first input
    // is already in the output path (RocksDB's check).
    const bool same_path = c->inputs_.front().files.empty() ||
                           c->inputs_.front().files.front()->path_id == c->output_path_id_;
    c->trivial_move_ = disjoint && TotalBytes(c->grandparents_) <= max_grandparent &&
                       same_compression && same_path;
    // A partitioner may veto the move of a file spanning partitions
    // (RocksDB asks it only when the output level is not the last).
    if (c->trivial_move_ && co.sst_partitioner_factory != nullptr &&
        output_level + 1 < v->num_levels()) {
      SstPartitioner::Context context;
      context.is_full_compaction = v->NumFiles() == c->num_input_files();
      context.is_manual_compaction = c->manual_;
      context.output_level = output_level;
      context.smallest_user_key = c->smallest_user_key_;
      context.largest_user_key = c->largest_user_key_;
      std::unique_ptr<SstPartitioner> partitioner =
          co.sst_partitioner_factory->CreatePartitioner(context);
      if (partitioner != nullptr) {
        for (const FileMetaData* f : c->inputs(0)) {
          if (!partitioner->CanDoTrivialMove(ExtractUserKey(f->smallest),
                                             ExtractUserKey(f->largest))) {
            c->trivial_move_ = false;
            break;
          }
        }
      }
    }
  }
  return true;
}

void CompactionPicker::Register(Compaction* c) {
  c->MarkFilesBeingCompacted(true);
  running_.push_back(c);
}

void CompactionPicker::ReleaseCompaction(Compaction* c) {
  db_mu_->AssertHeld();
  c->MarkFilesBeingCompacted(false);
  running_.erase(std::remove(running_.begin(), running_.end(), c), running_.end());
}

bool LevelCompactionPicker::NeedsCompaction(const Version* v) const {
  if (CompactionPicker::NeedsCompaction(v)) return true;
  for (const auto& [level, f] : v->files_marked_for_compaction()) {
    if (!f->being_compacted) return true;
  }
  db_mu_->AssertHeld();
  TimeBasedPick pick;
  return FindTimeBasedPick(v, &pick);
}

std::vector<FileMetaData*> LevelCompactionPicker::FilesByCompactionPri(const Version* v,
                                                                       int level) const {
  const Options& o = options();
  const std::vector<FileMetaData*>& files = v->files(level);
  std::vector<FileMetaData*> order(files.begin(), files.end());
  switch (o.compaction_pri) {
    case kByCompensatedSize: {
      // Largest compensated size first. RocksDB orders only the first
      // kNumberFilesToSort (50) and leaves the rest in key order.
      constexpr size_t kNumberFilesToSort = 50;
      const size_t n = std::min(order.size(), kNumberFilesToSort);
      std::vector<FileMetaData*> sorted = order;
      std::stable_sort(sorted.begin(), sorted.end(),
                       [v](const FileMetaData* a, const FileMetaData* b) {
                         return v->CompensatedFileSize(a) > v->CompensatedFileSize(b);
                       });
      sorted.resize(n);
      std::set<const FileMetaData*> head(sorted.begin(), sorted.end());
      for (FileMetaData* f : order) {
        if (head.count(f) == 0) sorted.push_back(f);
      }
      order = std::move(sorted);
      break;
    }
    case kOldestLargestSeqFirst:
      std::stable_sort(order.begin(), order.end(),
                       [](const FileMetaData* a, const FileMetaData* b) {
                         return a->largest_seqno < b->largest_seqno;
                       });
      break;
    case kOldestSmallestSeqFirst:
      std::stable_sort(order.begin(), order.end(),
                       [](const FileMetaData* a, const FileMetaData* b) {
                         return a->smallest_seqno < b->smallest_seqno;
                       });
      break;
    case kMinOverlappingRatio:
    default: {
      // RocksDB's ratio, in integers: bytes of the next level's files
      // overlapping f (by internal key) * 1024 / f's compensated size,
      // divided by the TTL boost of an old file.
      const std::vector<FileMetaData*>& next = v->files(level + 1);
      int num_non_empty_levels = 0;
      for (int l = v->num_levels() - 1; l >= 0; --l) {
        if (!v->files(l).empty()) {
          num_non_empty_levels = l + 1;
          break;
        }
      }
      // Leveled compaction's default TTL is 30 days (RocksDB's sanitizing).
      uint64_t ttl = o.ttl == ColumnFamilyOptions::kDefaultTtl ? 30 * 24 * 60 * 60 : o.ttl;
      int64_t now = 0;
      if (ttl != 0 && !o.env->GetSystemClock()->GetCurrentTime(&now).ok()) ttl = 0;
      const TtlBooster booster(static_cast<uint64_t>(now), ttl, num_non_empty_levels, level);
      std::vector<std::pair<uint64_t, FileMetaData*>> keyed;
      keyed.reserve(order.size());
      size_t j = 0;
      for (FileMetaData* f : order) {
        uint64_t overlap = 0;
        while (j < next.size() && icmp().Compare(next[j]->largest, f->smallest) < 0) ++j;
        while (j < next.size() && icmp().Compare(next[j]->smallest, f->largest) < 0) {
          overlap += next[j]->file_size;
          // A file crossing f's upper end may overlap the next f too.
          if (icmp().Compare(next[j]->largest, f->largest) > 0) break;
          ++j;
        }
        const uint64_t size = std::max<uint64_t>(1, v->CompensatedFileSize(f));
        keyed.emplace_back(overlap * 1024 / size / booster.Score(f), f);
      }
      std::stable_sort(keyed.begin(), keyed.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      for (size_t i = 0; i < keyed.size(); ++i) order[i] = keyed[i].second;
      break;
    }
  }
  return order;
}

LevelCompactionPicker::TtlBooster::TtlBooster(uint64_t now, uint64_t ttl, int num_non_empty_levels,
                                              int level)
    : now_(now) {
  if (ttl == 0 || level == 0 || level >= num_non_empty_levels - 1) return;
  // Files older than half the TTL get a boost that grows with their age,
  // starting later for levels further from the last one (RocksDB's
  // FileTtlBooster; the numbers are its).
  enabled_ = true;
  const uint64_t all_start = ttl / 2;
  const uint64_t all_range = (ttl / 32) * 31 - all_start;
  const uint64_t range = all_range >> (num_non_empty_levels - level - 1);
  start_age_ = all_start + range;
  step_ = std::max<uint64_t>(range / 16, 1);
}

uint64_t LevelCompactionPicker::TtlBooster::Score(const FileMetaData* f) const {
  if (!enabled_) return 1;
  // An unknown time (0) counts as very old, as in RocksDB.
  const uint64_t born = f->oldest_ancester_time;
  if (born >= now_) return 1;
  const uint64_t age = now_ - born;
  return age > start_age_ ? (age - start_age_) / step_ + 1 : 1;
}

std::unique_ptr<Compaction> LevelCompactionPicker::PickCompaction(Version* v) {
  db_mu_->AssertHeld();
  const int num_levels = v->num_levels();
  if (num_levels <= 1) return nullptr;
  const Options& o = options();
  const uint64_t max_compaction_bytes = o.max_compaction_bytes != 0
                                            ? o.max_compaction_bytes
                                            : 25 * std::max<uint64_t>(1, o.target_file_size_base);
  for (const Version::LevelScore& ls : v->compaction_scores()) {
    if (ls.score < 1) break;
    const int level = ls.level;
    if (level == 0) {
      std::unique_ptr<Compaction> c = PickLevel0(v, ls.score, CompactionReason::kLevelL0FilesNum);
      if (c != nullptr) return c;
      continue;
    }
    if (level >= num_levels - 1) continue;
    // Always the next level: skipping a level that holds older versions of
    // the same keys would put newer data below them.
    const int output_level = level + 1;
    // Candidates in compaction_pri's order.
    const std::vector<FileMetaData*> candidates = FilesByCompactionPri(v, level);
    const FileMetaData* last_free = nullptr;
    for (const FileMetaData* f : candidates) {
      if (!f->being_compacted) last_free = f;
    }
    for (FileMetaData* f : candidates) {
      if (f->being_compacted) continue;
      std::unique_ptr<Compaction> c(new Compaction(v, output_level));
      c->set_output_path_id(LevelOutputPathId(o, output_level));
      c->AddInputLevel(level)->push_back(f);
      c->set_score(ls.score);
      c->set_reason(CompactionReason::kLevelMaxLevelSize);
      if (!SetupOtherInputs(c.get())) continue;
      if (c->TotalInputBytes() > max_compaction_bytes && !c->output_level_inputs().empty()) {
        // Too big a merge for one job; still better than none when it is the
        // only candidate, so only skip if another candidate remains.
        if (f != last_free) continue;
      }
      Register(c.get());
      return c;
    }
  }

  // Nothing is due by size: files marked by a collector (RocksDB tries a
  // random one first, then each in order; Strata takes them in order).
  for (const auto& [level, f] : v->files_marked_for_compaction()) {
    if (f->being_compacted) continue;
    if (level == 0) {
      std::unique_ptr<Compaction> c = PickLevel0(v, 0, CompactionReason::kFilesMarkedForCompaction);
      if (c != nullptr) return c;
      continue;
    }
    std::unique_ptr<Compaction> c(new Compaction(v, level + 1));
    c->set_output_path_id(LevelOutputPathId(o, level + 1));
    c->AddInputLevel(level)->push_back(f);
    c->set_reason(CompactionReason::kFilesMarkedForCompaction);
    if (!SetupOtherInputs(c.get())) continue;
    // As in RocksDB, a marked file may move down trivially (keeping its
    // mark) until it reaches the last non-empty level.
    Register(c.get());
    return c;
  }
  return PickTimeBasedCompaction(v);
}

// ---------------------------------------------------------------------------
// LevelCompactionPicker: time-based compaction (ttl, periodic compaction).

bool LevelCompactionPicker::FindTimeBasedPick(const Version* v, TimeBasedPick* pick) const {
  const Options& o = options();
  const int num_levels = v->num_levels();
  if (num_levels <= 1) return false;
  const uint64_t ttl = EffectiveTtl(o);
  const uint64_t periodic = EffectivePeriodicCompactionSeconds(o);
  if (ttl == 0 && periodic == 0) return false;
  SystemClock* clock = o.env != nullptr ? o.env->GetSystemClock() : nullptr;
  int64_t signed_now = 0;
  if (clock == nullptr || !clock->GetCurrentTime(&signed_now).ok() || signed_now <= 0) {
    return false;
  }
  const uint64_t now = static_cast<uint64_t>(signed_now);
  int last_non_empty = -1;
  for (int level = 0; level < num_levels; ++level) {
    if (!v->files(level).empty()) last_non_empty = level;
  }
  // Whether the compaction of f from `level` into output_level could be
  // set up now (SetupOtherInputs' conditions).
  const Comparator* ucmp = icmp().user_comparator();
  auto feasible = [&](const FileMetaData* f, int level, int output_level) {
    db_mu_->AssertHeld();  // (the analysis does not follow into lambdas)
    if (level == 0) {
      if (AnyBeingCompacted(v->files(0))) return false;
      std::string lo, hi;
      KeyRange(v->files(0), ucmp, &lo, &hi);
      std::vector<FileMetaData*> out;
      const Slice l(lo), h(hi);
      v->GetOverlappingInputs(output_level, &l, &h, &out);
      return !AnyBeingCompacted(out) && !RangeBusyInOutputLevel(output_level, lo, hi);
    }
    const Slice lo = ExtractUserKey(f->smallest), hi = ExtractUserKey(f->largest);
    if (output_level != level) {
      std::vector<FileMetaData*> out;
      v->GetOverlappingInputs(output_level, &lo, &hi, &out);
      if (AnyBeingCompacted(out)) return false;
    }
    return !RangeBusyInOutputLevel(output_level, lo, hi);
  };
  if (ttl > 0 && now > ttl) {
    for (int level = 0; level < num_levels - 1 && level < last_non_empty; ++level) {
      for (FileMetaData* f : v->files(level)) {
        if (f->being_compacted) continue;
        const uint64_t t = FileOldestAncesterTime(*f);
        if (t == 0 || t >= now - ttl) continue;
        const int output_level = level == 0 ? std::max(1, v->base_level()) : level + 1;
        if (!feasible(f, level, output_level)) continue;
        *pick = TimeBasedPick{level, output_level, f, CompactionReason::kTtl};
        return true;
      }
    }
  }
  if (periodic > 0 && now > periodic) {
    for (int level = 0; level < num_levels; ++level) {
      for (FileMetaData* f : v->files(level)) {
        if (f->being_compacted) continue;
        uint64_t t = FileCreationTime(*f);
        if (t == 0) t = FileOldestAncesterTime(*f);
        if (t == 0 || t >= now - periodic) continue;
        const int output_level = level == 0 ? std::max(1, v->base_level()) : level;
        if (!feasible(f, level, output_level)) continue;
        *pick = TimeBasedPick{level, output_level, f, CompactionReason::kPeriodicCompaction};
        return true;
      }
    }
  }
  return false;
}

std::unique_ptr<Compaction> LevelCompactionPicker::PickTimeBasedCompaction(Version* v) {
  TimeBasedPick pick;
  if (!FindTimeBasedPick(v, &pick)) return nullptr;
  std::unique_ptr<Compaction> c(new Compaction(v, pick.output_level));
  c->set_output_path_id(LevelOutputPathId(options(), pick.output_level));
  if (pick.level == 0) {
    *c->AddInputLevel(0) = v->files(0);
  } else {
    c->AddInputLevel(pick.level)->push_back(pick.file);
  }
  c->set_reason(pick.reason);
  if (!SetupOtherInputs(c.get())) return nullptr;
  // A periodic compaction rewrites its file even where a move would do.
  if (pick.reason == CompactionReason::kPeriodicCompaction) c->set_trivial_move(false);
  Register(c.get());
  return c;
}

std::unique_ptr<Compaction> LevelCompactionPicker::PickLevel0(Version* v, double score,
                                                              CompactionReason reason) {
  // One level-0 compaction at a time: L0 files overlap each other.
  if (AnyBeingCompacted(v->files(0))) return nullptr;
  std::unique_ptr<Compaction> c(new Compaction(v, v->base_level()));
  c->set_output_path_id(LevelOutputPathId(options(), v->base_level()));
  *c->AddInputLevel(0) = v->files(0);
  c->set_score(score);
  c->set_reason(reason);
  if (!SetupOtherInputs(c.get())) return nullptr;
  Register(c.get());
  return c;
}

std::unique_ptr<Compaction> CompactionPicker::CompactRange(Version* v, int level, int output_level,
                                                           const Slice* begin, const Slice* end,
                                                           uint32_t output_path_id,
                                                           bool* conflict) {
  db_mu_->AssertHeld();
  *conflict = false;
  const Options& o = options();
  if (level == kCompactAllLevels) {
    // Every file of every level overlapping the range (level 0 whole, as
    // its files overlap each other), as one job into output_level.
    std::unique_ptr<Compaction> c(new Compaction(v, output_level));
    bool any = false;
    for (int l = 0; l < v->num_levels(); ++l) {
      std::vector<FileMetaData*> files;
      if (l == 0) {
        files = v->files(0);
      } else {
        v->GetOverlappingInputs(l, begin, end, &files);
      }
      if (files.empty() && l != output_level) continue;
      if (AnyBeingCompacted(files)) {
        *conflict = true;
        return nullptr;
      }
      any = any || !files.empty();
      *c->AddInputLevel(l) = std::move(files);
    }
    if (!any) return nullptr;
    c->set_output_path_id(output_path_id);
    c->set_manual(true);
    c->set_reason(CompactionReason::kManualCompaction);
    c->FinishSetup(MaxFileSizeForLevel(output_level), o.allow_ingest_behind);
    if (RangeBusyInOutputLevel(output_level, c->smallest_user_key(), c->largest_user_key())) {
      *conflict = true;
      return nullptr;
    }
    Register(c.get());
    return c;
  }
  std::vector<FileMetaData*> inputs;
  v->GetOverlappingInputs(level, begin, end, &inputs);
  if (inputs.empty()) return nullptr;
  if (AnyBeingCompacted(inputs)) {
    *conflict = true;
    return nullptr;
  }
  std::unique_ptr<Compaction> c(new Compaction(v, output_level));
  *c->AddInputLevel(level) = std::move(inputs);
  c->set_output_path_id(output_path_id);
  c->set_manual(true);
  c->set_reason(CompactionReason::kManualCompaction);
  if (!SetupOtherInputs(c.get())) {
    *conflict = true;
    return nullptr;
  }
  // A manual compaction of the last level into itself rewrites the files;
  // with a compaction filter a manual compaction always rewrites them, so
  // the filter sees every entry (as RocksDB does).
  if (level == output_level || o.compaction_filter != nullptr ||
      o.compaction_filter_factory != nullptr) {
    c->trivial_move_ = false;
  }
  Register(c.get());
  return c;
}

std::unique_ptr<Compaction> CompactionPicker::CompactFiles(Version* v,
                                                           const std::vector<uint64_t>& numbers,
                                                           int output_level,
                                                           const CompactionOptions& options,
                                                           Status* status) {
  db_mu_->AssertHeld();
  const Comparator* ucmp = icmp_.user_comparator();
  const int num_levels = v->num_levels();
  auto name_of = [](uint64_t number) { return TableFileName("", number); };
  if (output_level < 0) {
    *status = Status::InvalidArgument("Output level cannot be negative.");
    return nullptr;
  }
  if (output_level >= num_levels) {
    *status = Status::InvalidArgument("Output level for column family " + v->cfd()->name() +
                                      " must between [0, " + std::to_string(num_levels - 1) + "].");
    return nullptr;
  }
  if (numbers.empty()) {
    *status = Status::InvalidArgument("A compaction must contain at least one file.");
    return nullptr;
  }
  // Every named file must be in v, at or above the output level.
  std::set<uint64_t> wanted(numbers.begin(), numbers.end());
  for (uint64_t number : wanted) {
    int found_level = -1;
    for (int level = 0; level < num_levels && found_level < 0; ++level) {
      for (const FileMetaData* f : v->files(level)) {
        if (f->number == number) {
          found_level = level;
          break;
        }
      }
    }
    if (found_level < 0) {
      *status =
          Status::InvalidArgument("Specified compaction input file " + name_of(number) +
                                  " does not exist in column family " + v->cfd()->name() + ".");
      return nullptr;
    }
    if (found_level > output_level) {
      *status = Status::InvalidArgument(
          "Cannot compact file to up level, input file: " + name_of(number) + " level " +
          std::to_string(found_level) + " > output level " + std::to_string(output_level));
      return nullptr;
    }
  }

  // Grow the set level by level (RocksDB's rules, see the header) and keep
  // the key range [smallest, largest] of what is taken.
  std::string smallest, largest;
  bool have_range = false;
  auto widen = [&](const FileMetaData* f) {
    const Slice s = ExtractUserKey(f->smallest), l = ExtractUserKey(f->largest);
    if (!have_range || ucmp->Compare(s, smallest) < 0) smallest.assign(s.data(), s.size());
    if (!have_range || ucmp->Compare(l, largest) > 0) largest.assign(l.data(), l.size());
    have_range = true;
  };
  auto take = [&](const FileMetaData* f, bool named_range) -> bool {
    if (f->being_compacted) {
      *status = Status::Aborted(
          named_range ? "Necessary compaction input file " + name_of(f->number) +
                            " is currently being compacted."
                      : "File " + name_of(f->number) +
                            " that has overlapping key range with one of the compaction  input "
                            "file is currently being compacted.");
      return false;
    }
    wanted.insert(f->number);
    return true;
  };
  for (int level = 0; level <= output_level; ++level) {
    const std::vector<FileMetaData*>& files = v->files(level);
    int first = -1, last = -1;
    for (int i = 0; i < static_cast<int>(files.size()); ++i) {
      if (wanted.count(files[i]->number) == 0) continue;
      if (first < 0) first = i;
      last = i;
    }
    if (first < 0) continue;
    if (level > 0) {
      // Neighbours sharing a boundary user key go with the run.
      while (first > 0 && ucmp->Compare(ExtractUserKey(files[first - 1]->largest),
                                        ExtractUserKey(files[first]->smallest)) >= 0) {
        --first;
      }
      while (last + 1 < static_cast<int>(files.size()) &&
             ucmp->Compare(ExtractUserKey(files[last + 1]->smallest),
                           ExtractUserKey(files[last]->largest)) <= 0) {
        ++last;
      }
    } else if (output_level > 0) {
      // Level 0 is newest first: the older files go down too, else newer
      // data would land below older versions left in level 0.
      last = static_cast<int>(files.size()) - 1;
    }
    for (int i = first; i <= last; ++i) {
      if (!take(files[i], true)) return nullptr;
      widen(files[i]);
    }
    // Files of the levels below (down to the output) overlapping the range.
    for (int m = std::max(level, 1); m <= output_level; ++m) {
      for (const FileMetaData* f : v->files(m)) {
        if (ucmp->Compare(ExtractUserKey(f->largest), smallest) < 0 ||
            ucmp->Compare(ExtractUserKey(f->smallest), largest) > 0) {
          continue;
        }
        if (!take(f, false)) return nullptr;
      }
    }
  }
  if (RangeBusyInOutputLevel(output_level, smallest, largest)) {
    *status = Status::Aborted(
        "A running compaction is writing to the same output level in an overlapping key range");
    return nullptr;
  }

  // (Output level 0 takes level-0 files only: deeper files were refused
  // above as "up level", and the named level-0 files were taken as one
  // run, consecutive by age.)
  std::unique_ptr<Compaction> c(new Compaction(v, output_level));
  for (int level = 0; level <= output_level; ++level) {
    std::vector<FileMetaData*> files;
    for (FileMetaData* f : v->files(level)) {
      if (wanted.count(f->number) != 0) files.push_back(f);
    }
    if (files.empty() && level != output_level) continue;
    *c->AddInputLevel(level) = std::move(files);
  }
  // RocksDB: output_file_size_limit is the output files' target size
  // (UINT64_MAX, the default: one output file).
  c->FinishSetup(options.output_file_size_limit, this->options().allow_ingest_behind);
  c->set_manual(true);
  c->set_reason(CompactionReason::kManualCompaction);
  c->set_trivial_move(false);
  c->set_compression(options.compression);
  c->max_subcompactions_ = options.max_subcompactions;
  Register(c.get());
  *status = Status::OK();
  return c;
}

}  // namespace strata
