#include <algorithm>
#include <cmath>

#include "db/compaction/compaction.h"

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
// Compaction

Compaction::Compaction(Version* input_version, int start_level, int output_level)
    : input_version_(input_version), start_level_(start_level), output_level_(output_level) {
  input_version_->Ref();
}

Compaction::~Compaction() { input_version_->Unref(); }

uint64_t Compaction::TotalInputBytes() const {
  return TotalBytes(inputs_[0]) + TotalBytes(inputs_[1]);
}

bool Compaction::KeyMayExistBelowOutput(const Slice& user_key) {
  if (bottommost_) return false;
  const Comparator* ucmp = input_version_->user_comparator();
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
  for (const FileMetaData* f : inputs_[0]) edit->DeleteFile(start_level_, f->number);
  for (const FileMetaData* f : inputs_[1]) edit->DeleteFile(output_level_, f->number);
}

void Compaction::MarkFilesBeingCompacted(bool value) {
  for (FileMetaData* f : inputs_[0]) f->being_compacted = value;
  for (FileMetaData* f : inputs_[1]) f->being_compacted = value;
}

std::string Compaction::Summary() const {
  std::string r = std::to_string(inputs_[0].size()) + "@L" + std::to_string(start_level_);
  if (!inputs_[1].empty()) {
    r += " + " + std::to_string(inputs_[1].size()) + "@L" + std::to_string(output_level_);
  }
  r += " -> L" + std::to_string(output_level_);
  if (trivial_move_) r += " (trivial move)";
  return r;
}

// ---------------------------------------------------------------------------
// CompactionPicker

CompactionPicker::CompactionPicker(const Options* options, const InternalKeyComparator& icmp,
                                   Mutex* db_mu)
    : options_(options), icmp_(icmp), db_mu_(db_mu) {}

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
  std::string smallest, largest;
  KeyRange(c->inputs_[0], ucmp, &smallest, &largest);
  if (c->output_level_ != c->start_level_) {
    Slice lo(smallest), hi(largest);
    v->GetOverlappingInputs(c->output_level_, &lo, &hi, &c->inputs_[1]);
    if (AnyBeingCompacted(c->inputs_[1])) return false;
  }
  std::vector<FileMetaData*> all = c->inputs_[0];
  all.insert(all.end(), c->inputs_[1].begin(), c->inputs_[1].end());
  KeyRange(all, ucmp, &c->smallest_user_key_, &c->largest_user_key_);
  if (RangeBusyInOutputLevel(c->output_level_, c->smallest_user_key_, c->largest_user_key_)) {
    return false;
  }
  const Slice lo(c->smallest_user_key_), hi(c->largest_user_key_);
  if (c->output_level_ + 1 < v->num_levels()) {
    v->GetOverlappingInputs(c->output_level_ + 1, &lo, &hi, &c->grandparents_);
  }
  // With allow_ingest_behind older data may still be ingested under the
  // last level: nothing is bottommost (RocksDB's rule).
  c->bottommost_ = !options_.load(std::memory_order_acquire)->allow_ingest_behind;
  for (int level = c->output_level_ + 1; level < v->num_levels(); ++level) {
    if (v->OverlapInLevel(level, lo, hi)) {
      c->bottommost_ = false;
      break;
    }
  }
  c->max_output_file_size_ = MaxFileSizeForLevel(c->output_level_);

  // Trivial move: the start-level files overlap nothing in the output level
  // and (for level 0) not each other either, and the move does not create
  // a file overlapping too much of the level below.
  if (c->inputs_[1].empty() && c->output_level_ != c->start_level_) {
    std::vector<FileMetaData*> sorted = c->inputs_[0];
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
    // does not: inputs_[1] is empty, so nothing there overlaps the range).
    const uint64_t max_grandparent = 10 * c->max_output_file_size_;
    c->trivial_move_ = disjoint && TotalBytes(c->grandparents_) <= max_grandparent;
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

std::unique_ptr<Compaction> CompactionPicker::PickCompaction(Version* v) {
  db_mu_->AssertHeld();
  const int num_levels = v->num_levels();
  if (num_levels <= 1) return nullptr;
  const Options& o = *options_.load(std::memory_order_acquire);
  const uint64_t max_compaction_bytes =
      o.max_compaction_bytes != 0 ? o.max_compaction_bytes
                                  : 25 * std::max<uint64_t>(1, o.target_file_size_base);
  for (const Version::LevelScore& ls : v->compaction_scores()) {
    if (ls.score < 1) break;
    const int level = ls.level;
    if (level == 0) {
      // One level-0 compaction at a time: L0 files overlap each other.
      if (AnyBeingCompacted(v->files(0))) continue;
      const int output_level = v->base_level();
      std::unique_ptr<Compaction> c(new Compaction(v, 0, output_level));
      c->inputs_[0] = v->files(0);
      c->score_ = ls.score;
      if (!SetupOtherInputs(c.get())) continue;
      Register(c.get());
      return c;
    }
    if (level >= num_levels - 1) continue;
    // Always the next level: skipping a level that holds older versions of
    // the same keys would put newer data below them.
    const int output_level = level + 1;
    const std::vector<FileMetaData*>& files = v->files(level);
    // Candidates by overlap ratio with the output level, smallest first.
    std::vector<std::pair<double, FileMetaData*>> candidates;
    for (FileMetaData* f : files) {
      if (f->being_compacted) continue;
      const Slice lo = ExtractUserKey(f->smallest), hi = ExtractUserKey(f->largest);
      std::vector<FileMetaData*> overlap;
      v->GetOverlappingInputs(output_level, &lo, &hi, &overlap);
      const double ratio = static_cast<double>(TotalBytes(overlap)) /
                           static_cast<double>(std::max<uint64_t>(1, f->file_size));
      candidates.emplace_back(ratio, f);
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [ratio, f] : candidates) {
      std::unique_ptr<Compaction> c(new Compaction(v, level, output_level));
      c->inputs_[0].push_back(f);
      c->score_ = ls.score;
      if (!SetupOtherInputs(c.get())) continue;
      if (c->TotalInputBytes() > max_compaction_bytes && !c->inputs_[1].empty()) {
        // Too big a merge for one job; still better than none when it is the
        // only candidate, so only skip if another candidate remains.
        if (&f != &candidates.back().second) continue;
      }
      Register(c.get());
      return c;
    }
  }
  return nullptr;
}

std::unique_ptr<Compaction> CompactionPicker::CompactRange(Version* v, int level, int output_level,
                                                           const Slice* begin, const Slice* end,
                                                           bool* conflict) {
  db_mu_->AssertHeld();
  *conflict = false;
  std::vector<FileMetaData*> inputs;
  v->GetOverlappingInputs(level, begin, end, &inputs);
  if (inputs.empty()) return nullptr;
  if (AnyBeingCompacted(inputs)) {
    *conflict = true;
    return nullptr;
  }
  std::unique_ptr<Compaction> c(new Compaction(v, level, output_level));
  c->inputs_[0] = std::move(inputs);
  c->manual_ = true;
  if (!SetupOtherInputs(c.get())) {
    *conflict = true;
    return nullptr;
  }
  // A manual compaction of the last level into itself rewrites the files;
  // with a compaction filter a manual compaction always rewrites them, so
  // the filter sees every entry (as RocksDB does).
  const Options& o = *options_.load(std::memory_order_acquire);
  if (level == output_level || o.compaction_filter != nullptr ||
      o.compaction_filter_factory != nullptr) {
    c->trivial_move_ = false;
  }
  Register(c.get());
  return c;
}

}  // namespace strata
