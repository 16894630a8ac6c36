// FIFOCompactionPicker and FIFO's score function (see the header).
#include "db/compaction/compaction_picker_fifo.h"

#include <algorithm>
#include <limits>

#include "db/compaction/file_age.h"

namespace strata {

namespace {

uint64_t Now(SystemClock* clock) {
  if (clock == nullptr) return 0;
  int64_t now = 0;
  if (!clock->GetCurrentTime(&now).ok() || now < 0) return 0;
  return static_cast<uint64_t>(now);
}

SystemClock* ClockOf(const Options& o) {
  return o.env != nullptr ? o.env->GetSystemClock() : nullptr;
}

// 16 MiB: RocksDB's output file size for FIFO's intra-L0 merges.
constexpr uint64_t kIntraL0OutputFileSize = 16 << 20;

}  // namespace

void ComputeFifoCompactionScores(Version* v, const ColumnFamilyOptions& o, SystemClock* clock) {
  const std::vector<FileMetaData*>& l0 = v->files(0);
  uint64_t total = 0;
  int runs = 0;
  for (const FileMetaData* f : l0) {
    if (f->being_compacted) continue;
    total += f->file_size;
    runs++;
  }
  const uint64_t limit = std::max<uint64_t>(1, o.compaction_options_fifo.max_table_files_size);
  double score = static_cast<double>(total) / static_cast<double>(limit);
  if (o.compaction_options_fifo.allow_compaction) {
    score = std::max(score,
                     static_cast<double>(runs) / std::max(1, o.level0_file_num_compaction_trigger));
  }
  const uint64_t ttl = EffectiveTtl(o);
  const uint64_t now = Now(clock);
  if (ttl > 0 && now > ttl) {
    // RocksDB counts by oldest_ancester_time here (the pick reads the
    // creation_time property; see FifoFileTime).
    uint64_t expired = 0;
    for (const FileMetaData* f : l0) {
      if (f->being_compacted) continue;
      const uint64_t t = FileOldestAncesterTime(*f);
      if (t != 0 && t < now - ttl) expired++;
    }
    score = std::max(score, static_cast<double>(expired));
  }
  v->SetCompactionScores({Version::LevelScore{0, score}}, 0, static_cast<int>(l0.size()));
}

bool FindIntraL0Compaction(const std::vector<FileMetaData*>& level0_files,
                           size_t min_files_to_compact, uint64_t max_compact_bytes_per_del_file,
                           uint64_t max_compaction_bytes, std::vector<FileMetaData*>* out) {
  // FIFO passes no memtable bound, so the run starts at the newest file,
  // which must be free.
  if (level0_files.empty() || level0_files[0]->being_compacted) return false;
  uint64_t bytes = level0_files[0]->file_size;
  uint64_t per_deleted = std::numeric_limits<uint64_t>::max();
  size_t limit = 1;
  // Pull in older files while the work per removed file does not grow.
  for (; limit < level0_files.size(); ++limit) {
    bytes += level0_files[limit]->file_size;
    const uint64_t next_per_deleted = bytes / limit;
    if (level0_files[limit]->being_compacted || next_per_deleted > per_deleted ||
        bytes > max_compaction_bytes) {
      break;
    }
    per_deleted = next_per_deleted;
  }
  if (limit < min_files_to_compact || per_deleted >= max_compact_bytes_per_del_file) return false;
  out->assign(level0_files.begin(), level0_files.begin() + static_cast<std::ptrdiff_t>(limit));
  return true;
}

bool FIFOCompactionPicker::NeedsCompaction(const Version* v) const {
  db_mu_->AssertHeld();
  Plan plan;
  return MakePlan(v, &plan);
}

bool FIFOCompactionPicker::PlanTtl(const Version* v, uint64_t now, Plan* plan) const {
  const Options& o = options();
  const uint64_t ttl = EffectiveTtl(o);
  if (ttl == 0 || now <= ttl) return false;
  const std::vector<FileMetaData*>& l0 = v->files(0);
  uint64_t total = 0;
  for (const FileMetaData* f : l0) total += f->file_size;
  plan->files.clear();
  for (auto it = l0.rbegin(); it != l0.rend(); ++it) {
    FileMetaData* f = *it;
    const uint64_t t = FifoFileTime(*f);
    if (t == 0 || t >= now - ttl) break;
    total -= f->file_size;
    plan->files.push_back(f);
  }
  // What stays must fit; otherwise the size rule decides.
  if (plan->files.empty() || total > o.compaction_options_fifo.max_table_files_size) {
    plan->files.clear();
    return false;
  }
  plan->level = 0;
  plan->reason = CompactionReason::kFIFOTtl;
  return true;
}

bool FIFOCompactionPicker::PlanSize(const Version* v, Plan* plan) const {
  const Options& o = options();
  const uint64_t limit = o.compaction_options_fifo.max_table_files_size;
  int last_level = 0;
  uint64_t total = 0;
  for (int level = 0; level < v->num_levels(); ++level) {
    const uint64_t bytes = v->NumLevelBytes(level);
    total += bytes;
    if (bytes > 0) last_level = level;
  }
  plan->files.clear();
  if (last_level == 0 && total <= limit) {
    if (!o.compaction_options_fifo.allow_compaction) return false;
    const uint64_t max_compaction_bytes = o.max_compaction_bytes != 0
                                              ? o.max_compaction_bytes
                                              : 25 * std::max<uint64_t>(1, o.target_file_size_base);
    // RocksDB: 1.1 x write_buffer_size of work per removed file at most.
    const uint64_t per_deleted =
        static_cast<uint64_t>(std::min(1.1 * static_cast<double>(o.write_buffer_size), 1.8e19));
    const size_t min_files = static_cast<size_t>(std::max(1, o.level0_file_num_compaction_trigger));
    if (!FindIntraL0Compaction(v->files(0), min_files, per_deleted, max_compaction_bytes,
                               &plan->files)) {
      return false;
    }
    plan->level = 0;
    plan->intra_l0 = true;
    plan->reason = CompactionReason::kFIFOReduceNumFiles;
    // The merged run's range must not collide with another level-0 output.
    std::string lo, hi;
    const Comparator* ucmp = icmp().user_comparator();
    for (size_t i = 0; i < plan->files.size(); ++i) {
      const Slice s = ExtractUserKey(plan->files[i]->smallest);
      const Slice l = ExtractUserKey(plan->files[i]->largest);
      if (i == 0 || ucmp->Compare(s, lo) < 0) lo.assign(s.data(), s.size());
      if (i == 0 || ucmp->Compare(l, hi) > 0) hi.assign(l.data(), l.size());
    }
    if (RangeBusyInOutputLevel(0, lo, hi)) {
      plan->files.clear();
      return false;
    }
    return true;
  }
  if (total <= limit || !running().empty()) return false;
  const std::vector<FileMetaData*>& files = v->files(last_level);
  auto take = [&](FileMetaData* f) {
    total -= f->file_size;
    plan->files.push_back(f);
    return total <= limit;
  };
  if (last_level == 0) {
    for (auto it = files.rbegin(); it != files.rend(); ++it) {
      if (take(*it)) break;
    }
  } else {
    for (FileMetaData* f : files) {
      if (take(f)) break;
    }
  }
  plan->level = last_level;
  plan->reason = CompactionReason::kFIFOMaxSize;
  return !plan->files.empty();
}

bool FIFOCompactionPicker::MakePlan(const Version* v, Plan* plan) const {
  // One FIFO deletion at a time (RocksDB: they are quick); an intra-L0
  // merge only needs its own files free.
  if (running().empty() && PlanTtl(v, Now(ClockOf(options())), plan)) return true;
  return PlanSize(v, plan);
}

std::unique_ptr<Compaction> FIFOCompactionPicker::PickCompaction(Version* v) {
  db_mu_->AssertHeld();
  Plan plan;
  if (!MakePlan(v, &plan)) return nullptr;
  const Options& o = options();
  std::unique_ptr<Compaction> c(new Compaction(v, plan.level));
  *c->AddInputLevel(plan.level) = std::move(plan.files);
  c->FinishSetup(plan.intra_l0 ? kIntraL0OutputFileSize : MaxFileSizeForLevel(plan.level),
                 o.allow_ingest_behind);
  c->set_deletion_compaction(!plan.intra_l0);
  if (plan.intra_l0) c->set_compression(o.compression);
  c->set_reason(plan.reason);
  c->set_score(v->compaction_scores().empty() ? 0 : v->compaction_scores().front().score);
  Register(c.get());
  return c;
}

std::unique_ptr<Compaction> FIFOCompactionPicker::CompactRange(Version* v, int, int, const Slice*,
                                                               const Slice*, uint32_t,
                                                               bool* conflict) {
  db_mu_->AssertHeld();
  // RocksDB: a manual compaction under FIFO is the automatic pick.
  *conflict = false;
  return PickCompaction(v);
}

}  // namespace strata
