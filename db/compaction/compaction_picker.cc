#include <algorithm>
#include <cmath>
#include <set>

#include "db/column_family.h"
#include "db/compaction/compaction.h"
#include "db/compaction/compression_for_level.h"
#include "db/filename.h"

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
    // A moved file keeps its codec: move only when the output level's
    // compression is the start level's (RocksDB's
    // InputCompressionMatchesOutput).
    const Options& co = *options_.load(std::memory_order_acquire);
    const bool same_compression =
        CompressionForLevel(co, c->start_level_, v->base_level(),
                            IsBottommostForCompression(*v, c->start_level_)) ==
        CompressionForLevel(co, c->output_level_, v->base_level(),
                            IsBottommostForCompression(*v, c->output_level_));
    c->trivial_move_ =
        disjoint && TotalBytes(c->grandparents_) <= max_grandparent && same_compression;
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
  const uint64_t max_compaction_bytes = o.max_compaction_bytes != 0
                                            ? o.max_compaction_bytes
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

  // Which levels the inputs come from: one above the output at most.
  int start_level = output_level;
  for (int level = 0; level < output_level; ++level) {
    bool any = false;
    for (const FileMetaData* f : v->files(level)) any = any || wanted.count(f->number) != 0;
    if (!any) continue;
    if (start_level != output_level) {
      *status = Status::NotSupported(
          "CompactFiles: the input files (with the files they need) span levels " +
          std::to_string(start_level) + " and " + std::to_string(level) + " above output level " +
          std::to_string(output_level) + "; Strata compacts one level into another");
      return nullptr;
    }
    start_level = level;
  }
  if (output_level == 0) {
    *status = Status::NotSupported(
        "CompactFiles: output level 0 is not supported (level 0 holds flush output only)");
    return nullptr;
  }

  std::unique_ptr<Compaction> c(new Compaction(v, start_level, output_level));
  for (FileMetaData* f : v->files(start_level)) {
    if (wanted.count(f->number) != 0) c->inputs_[0].push_back(f);
  }
  if (start_level != output_level) {
    for (FileMetaData* f : v->files(output_level)) {
      if (wanted.count(f->number) != 0) c->inputs_[1].push_back(f);
    }
  }
  std::vector<FileMetaData*> all = c->inputs_[0];
  all.insert(all.end(), c->inputs_[1].begin(), c->inputs_[1].end());
  KeyRange(all, ucmp, &c->smallest_user_key_, &c->largest_user_key_);
  const Slice lo(c->smallest_user_key_), hi(c->largest_user_key_);
  if (output_level + 1 < num_levels) {
    v->GetOverlappingInputs(output_level + 1, &lo, &hi, &c->grandparents_);
  }
  c->bottommost_ = true;
  for (int level = output_level + 1; level < num_levels; ++level) {
    if (v->OverlapInLevel(level, lo, hi)) {
      c->bottommost_ = false;
      break;
    }
  }
  // RocksDB: output_file_size_limit is the output files' target size
  // (UINT64_MAX, the default: one output file).
  c->max_output_file_size_ = options.output_file_size_limit;
  c->manual_ = true;
  c->trivial_move_ = false;
  c->compression_ = options.compression;
  c->max_subcompactions_ = options.max_subcompactions;
  Register(c.get());
  *status = Status::OK();
  return c;
}

}  // namespace strata
