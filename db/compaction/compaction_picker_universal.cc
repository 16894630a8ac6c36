// Universal compaction (see compaction_picker_universal.h and
// docs/design/universal-compaction.md). The picks follow RocksDB 7.8.3's
// db/compaction/compaction_picker_universal.cc; the code is our own.
#include "db/compaction/compaction_picker_universal.h"

#include <algorithm>
#include <climits>

#include "db/column_family.h"
#include "strata/env.h"
#include "strata/universal_compaction.h"

namespace strata {

namespace {

// RocksDB's default TTL once sanitized for block-based tables (the only
// table format Strata writes): 30 days.
constexpr uint64_t kSanitizedDefaultTtl = 30ull * 24 * 60 * 60;

// True if no two input files overlap in user keys (so the runs can be
// moved instead of merged).
bool InputsDisjoint(const Compaction& c, const Comparator* ucmp) {
  std::vector<const FileMetaData*> files;
  for (const CompactionInputFiles& in : c.input_levels()) {
    files.insert(files.end(), in.files.begin(), in.files.end());
  }
  std::sort(files.begin(), files.end(), [ucmp](const FileMetaData* a, const FileMetaData* b) {
    return ucmp->Compare(ExtractUserKey(a->smallest), ExtractUserKey(b->smallest)) < 0;
  });
  for (size_t i = 1; i < files.size(); ++i) {
    if (ucmp->Compare(ExtractUserKey(files[i - 1]->largest), ExtractUserKey(files[i]->smallest)) >=
        0) {
      return false;
    }
  }
  return true;
}

// The age a file counts from for periodic compaction (0: unknown, never
// due). RocksDB falls back to the file's mtime; we do no file I/O under the
// DB mutex, so a file without either time is never due.
uint64_t FileTime(const FileMetaData* f) {
  return f->file_creation_time != 0 ? f->file_creation_time : f->oldest_ancester_time;
}

}  // namespace

std::vector<UniversalSortedRun> UniversalSortedRuns(const Version& v, bool skip_last_level) {
  std::vector<UniversalSortedRun> runs;
  for (FileMetaData* f : v.files(0)) {
    runs.push_back(UniversalSortedRun{0, f, f->file_size, f->being_compacted});
  }
  const int end = skip_last_level ? v.num_levels() - 1 : v.num_levels();
  for (int level = 1; level < end; ++level) {
    UniversalSortedRun run;
    run.level = level;
    for (const FileMetaData* f : v.files(level)) {
      run.size += f->file_size;
      // A run is busy when any of its files is (a trivial move may take
      // only part of a level).
      if (f->being_compacted) run.being_compacted = true;
    }
    if (!v.files(level).empty()) runs.push_back(run);
  }
  return runs;
}

uint64_t UniversalPeriodicSeconds(const ColumnFamilyOptions& o) {
  uint64_t ttl = o.ttl == ColumnFamilyOptions::kDefaultTtl ? kSanitizedDefaultTtl : o.ttl;
  uint64_t periodic = o.periodic_compaction_seconds;
  if (periodic == ColumnFamilyOptions::kDefaultTtl) {
    // RocksDB turns periodic compaction on (30 days) for families with a
    // compaction filter; ttl below caps it anyway.
    periodic = (o.compaction_filter != nullptr || o.compaction_filter_factory != nullptr)
                   ? kSanitizedDefaultTtl
                   : 0;
  }
  if (ttl != 0) periodic = periodic != 0 ? std::min(ttl, periodic) : ttl;
  return periodic;
}

// The pending-bytes estimate (RocksDB 7.8.3 reports 0 under universal, so
// its pending-bytes stalls never fire there; we estimate so that
// soft/hard_pending_compaction_bytes_limit mean something): once the runs
// reach the trigger, every run but the oldest is bytes some compaction must
// still rewrite; when size amplification is over its limit, the full merge
// rewrites the oldest run too.
void ComputeUniversalCompactionScores(const ColumnFamilyOptions& o, Version* v) {
  // allow_ingest_behind is a DB option (immutable): read from the family.
  const bool ingest_behind = v->cfd() != nullptr && v->cfd()->options().allow_ingest_behind;
  const std::vector<UniversalSortedRun> runs = UniversalSortedRuns(*v, ingest_behind);
  int idle = 0;
  for (const UniversalSortedRun& r : runs) {
    if (!r.being_compacted) ++idle;
  }
  const int trigger = std::max(1, o.level0_file_num_compaction_trigger);
  const double score = static_cast<double>(idle) / trigger;
  uint64_t pending = 0;
  if (!runs.empty() && idle >= trigger) {
    uint64_t newer = 0;
    for (size_t i = 0; i + 1 < runs.size(); ++i) newer += runs[i].size;
    pending = newer;
    const uint64_t oldest = runs.back().size;
    if (newer * 100 >=
        static_cast<uint64_t>(o.compaction_options_universal.max_size_amplification_percent) *
            oldest) {
      pending += oldest;
    }
  }
  // What the level-0 stall triggers count: every sorted run (RocksDB).
  int all_runs = v->NumLevelFiles(0);
  for (int level = 1; level < v->num_levels(); ++level) {
    if (v->NumLevelFiles(level) > 0) ++all_runs;
  }
  v->SetCompactionScores({{0, score}}, pending, all_runs);
}

// ---------------------------------------------------------------------------
// The triggers (pure)

bool UniversalPickPeriodic(const std::vector<UniversalSortedRun>& runs, UniversalRunPick* pick) {
  bool any_due = false;
  for (const UniversalSortedRun& r : runs) any_due = any_due || r.periodic_due;
  if (!any_due) return false;
  // A merge from the oldest run up to the first busy one (RocksDB's
  // simplification: the oldest data is mostly in the oldest runs).
  size_t start = runs.size();
  while (start > 0 && !runs[start - 1].being_compacted) --start;
  if (start == runs.size()) return false;
  // Only the oldest run is free: worth it only if it is due itself.
  if (start == runs.size() - 1 && !runs[start].periodic_due) return false;
  *pick = UniversalRunPick{start, runs.size() - 1, CompactionReason::kPeriodicCompaction, true};
  return true;
}

bool UniversalPickSizeAmp(const std::vector<UniversalSortedRun>& runs,
                          const CompactionOptionsUniversal& u, UniversalRunPick* pick) {
  if (runs.size() < 2 || runs.back().being_compacted) return false;
  // The newest idle run starts the candidates; every run from it to the
  // oldest must be idle.
  size_t start = runs.size();
  for (size_t i = 0; i + 1 < runs.size(); ++i) {
    if (!runs[i].being_compacted) {
      start = i;
      break;
    }
  }
  if (start == runs.size()) return false;
  const size_t end = runs.size() - 1;
  uint64_t newer = 0;
  for (size_t i = start; i < end; ++i) {
    if (runs[i].being_compacted) return false;
    newer += runs[i].size;
  }
  // Amplification = the newer runs' bytes as a percentage of the oldest's.
  if (newer * 100 < static_cast<uint64_t>(u.max_size_amplification_percent) * runs.back().size) {
    return false;
  }
  *pick = UniversalRunPick{start, end, CompactionReason::kUniversalSizeAmplification, true};
  return true;
}

bool UniversalPickSortedRuns(const std::vector<UniversalSortedRun>& runs,
                             const CompactionOptionsUniversal& u, unsigned int ratio,
                             unsigned int max_runs, UniversalRunPick* pick) {
  const unsigned int min_width = std::max(u.min_merge_width, 2u);
  const unsigned int max_width = std::min(u.max_merge_width, max_runs);
  size_t start = 0;
  unsigned int count = 0;
  bool found = false;
  for (size_t loop = 0; loop < runs.size(); ++loop) {
    count = 0;
    // The first idle run from `loop` on starts the candidate stretch.
    while (loop < runs.size() && runs[loop].being_compacted) ++loop;
    if (loop == runs.size()) break;
    count = 1;
    uint64_t candidate = runs[loop].size;
    for (size_t i = loop + 1; count < max_width && i < runs.size(); ++i) {
      const UniversalSortedRun& next = runs[i];
      if (next.being_compacted) break;
      // Take the next run while it is within ratio% of what was taken
      // (total size) or of the last run taken (similar size).
      if (static_cast<double>(candidate) * (100.0 + ratio) / 100.0 <
          static_cast<double>(next.size)) {
        break;
      }
      if (u.stop_style == kCompactionStopStyleSimilarSize) {
        // ...and the last run taken is not far bigger than the next.
        if (static_cast<double>(next.size) * (100.0 + ratio) / 100.0 <
            static_cast<double>(candidate)) {
          break;
        }
        candidate = next.size;
      } else {
        candidate += next.size;
      }
      ++count;
    }
    if (count >= min_width) {
      start = loop;
      found = true;
      break;
    }
    // As RocksDB: the next try starts one run later (not past the stretch).
  }
  if (!found || count <= 1) return false;
  const size_t first_after = start + count;
  *pick = UniversalRunPick{start, first_after - 1,
                           max_runs == UINT_MAX ? CompactionReason::kUniversalSizeRatio
                                                : CompactionReason::kUniversalSortedRunNum,
                           true};
  // compression_size_percent: the output is compressed only while the runs
  // older than it hold less than that percent of all the data.
  if (u.compression_size_percent >= 0) {
    uint64_t total = 0;
    for (const UniversalSortedRun& r : runs) total += r.size;
    uint64_t older = 0;
    for (size_t i = runs.size(); i > first_after; --i) {
      older += runs[i - 1].size;
      if (older * 100 >= total * static_cast<uint64_t>(u.compression_size_percent)) {
        pick->compress = false;
        break;
      }
    }
  }
  return true;
}

bool UniversalPickIncrementalWindow(const std::vector<FileMetaData*>& upper,
                                    const std::vector<FileMetaData*>& bottom,
                                    const InternalKeyComparator& icmp, uint64_t threshold_bytes,
                                    double fanout_limit, size_t* start, size_t* end) {
  double best = fanout_limit;
  bool found = false;
  size_t win = 0;           // first upper file of the window
  size_t bottom_first = 0;  // first bottom file counted in the window
  size_t bottom_next = 0;   // first bottom file not wholly before the last upper file
  // bottom[bottom_next] reaches past the last upper file's end and its
  // bytes are already in bottom_bytes.
  bool next_counted = false;
  uint64_t upper_bytes = 0;
  uint64_t bottom_bytes = 0;
  for (size_t e = 0; e < upper.size(); ++e) {
    const FileMetaData* f = upper[e];
    // Step over the bottom files ending before f; more than one means some
    // bottom file lies wholly in the gap before f: joining f to the window
    // would rewrite it for nothing, so a new window starts at f.
    size_t passed = 0;
    while (bottom_next < bottom.size() &&
           icmp.Compare(bottom[bottom_next]->largest, f->smallest) < 0) {
      if (!next_counted) bottom_bytes += bottom[bottom_next]->file_size;
      next_counted = false;
      ++bottom_next;
      ++passed;
    }
    if (passed > 1) win = e;
    if (win == e) {
      upper_bytes = 0;
      bottom_bytes = 0;
      bottom_first = bottom_next;
      next_counted = false;
    }
    upper_bytes += f->file_size;
    // Count the bottom files overlapping f; one reaching past f's end stays
    // next (it may overlap the next upper file too).
    while (bottom_next < bottom.size() &&
           icmp.Compare(bottom[bottom_next]->smallest, f->largest) < 0) {
      if (!next_counted) {
        bottom_bytes += bottom[bottom_next]->file_size;
        next_counted = true;
      }
      if (icmp.Compare(bottom[bottom_next]->largest, f->largest) > 0) break;
      ++bottom_next;
      next_counted = false;
    }
    if ((upper_bytes + bottom_bytes > threshold_bytes || e + 1 == upper.size()) &&
        upper_bytes > 0) {
      const double fanout = static_cast<double>(bottom_bytes) / static_cast<double>(upper_bytes);
      if (fanout < best) {
        best = fanout;
        *start = win;
        *end = e;
        found = true;
      }
      // Drop files from the window's start until it is under the threshold
      // again, with the bottom files that end before the new start.
      while (upper_bytes + bottom_bytes > threshold_bytes && win <= e) {
        upper_bytes -= upper[win]->file_size;
        ++win;
        if (win > e) break;  // empty: the next upper file starts afresh
        while (bottom_first < bottom_next &&
               icmp.Compare(bottom[bottom_first]->largest, upper[win]->smallest) < 0) {
          bottom_bytes -= bottom[bottom_first]->file_size;
          ++bottom_first;
        }
      }
    }
  }
  return found;
}

int UniversalOutputLevel(const std::vector<UniversalSortedRun>& runs, size_t start, size_t end,
                         int num_levels, bool allow_ingest_behind) {
  int max_input_level = 0;
  for (size_t i = start; i <= end; ++i) max_input_level = std::max(max_input_level, runs[i].level);
  int output_level;
  if (end == runs.size() - 1) {
    // Everything older is included: the output is the bottom (the last
    // level, or the one above it when it is kept for ingest-behind).
    output_level = num_levels - 1;
    if (allow_ingest_behind && output_level > 0) --output_level;
  } else if (runs[end + 1].level == 0) {
    output_level = 0;
  } else {
    // Just above the first run left out.
    output_level = runs[end + 1].level - 1;
  }
  return std::max(output_level, max_input_level);
}

// ---------------------------------------------------------------------------
// UniversalCompactionPicker

uint64_t UniversalCompactionPicker::NowSeconds() const {
  int64_t now = 0;
  Env* env = options().env != nullptr ? options().env : Env::Default();
  if (!env->GetSystemClock()->GetCurrentTime(&now).ok() || now < 0) return 0;
  return static_cast<uint64_t>(now);
}

bool UniversalCompactionPicker::AnyFileDue(const Version* v, uint64_t now) const {
  const uint64_t period = UniversalPeriodicSeconds(options());
  if (period == 0 || period > now) return false;
  const uint64_t limit = now - period;
  for (int level = 0; level < v->num_levels(); ++level) {
    for (const FileMetaData* f : v->files(level)) {
      const uint64_t t = FileTime(f);
      if (!f->being_compacted && t != 0 && t <= limit) return true;
    }
  }
  return false;
}

bool UniversalCompactionPicker::NeedsCompaction(const Version* v) const {
  // Evaluated live on the runs (not from the stored score): true only when
  // a trigger of PickCompaction would fire. With exactly `trigger` runs the
  // score is 1 but, as in RocksDB, only size amplification or size ratio
  // may act; saying "needed" then would keep WaitForCompact waiting.
  const Options& o = options();
  const std::vector<UniversalSortedRun> runs = UniversalSortedRuns(*v, o.allow_ingest_behind);
  const size_t trigger = static_cast<size_t>(std::max(1, o.level0_file_num_compaction_trigger));
  if (!runs.empty() && runs.size() >= trigger) {
    size_t idle = 0;
    for (const UniversalSortedRun& r : runs) {
      if (!r.being_compacted) ++idle;
    }
    if (idle > trigger) return true;
    UniversalRunPick pick;
    const CompactionOptionsUniversal& u = o.compaction_options_universal;
    if (idle == trigger && (UniversalPickSizeAmp(runs, u, &pick) ||
                            UniversalPickSortedRuns(runs, u, u.size_ratio, UINT_MAX, &pick))) {
      return true;
    }
  }
  return AnyFileDue(v, NowSeconds());
}

std::unique_ptr<Compaction> UniversalCompactionPicker::PickCompaction(Version* v) {
  db_mu_->AssertHeld();
  const Options& o = options();
  const CompactionOptionsUniversal& u = o.compaction_options_universal;
  std::vector<UniversalSortedRun> runs = UniversalSortedRuns(*v, o.allow_ingest_behind);
  const size_t trigger = static_cast<size_t>(std::max(1, o.level0_file_num_compaction_trigger));
  // Which runs hold a file due for periodic compaction.
  bool periodic_due = false;
  const uint64_t period = UniversalPeriodicSeconds(o);
  const uint64_t now = period != 0 ? NowSeconds() : 0;
  if (period != 0 && period <= now) {
    const uint64_t limit = now - period;
    auto due = [limit](const FileMetaData* f) {
      const uint64_t t = FileTime(f);
      return !f->being_compacted && t != 0 && t <= limit;
    };
    for (UniversalSortedRun& r : runs) {
      if (r.level == 0) {
        r.periodic_due = due(r.file);
      } else {
        for (const FileMetaData* f : v->files(r.level)) r.periodic_due = r.periodic_due || due(f);
      }
      periodic_due = periodic_due || r.periodic_due;
    }
  }
  if (runs.empty() || (!periodic_due && runs.size() < trigger)) return nullptr;

  // RocksDB's order; a pick whose output range is busy falls through to
  // the next trigger.
  std::unique_ptr<Compaction> c;
  UniversalRunPick pick;
  if (periodic_due && UniversalPickPeriodic(runs, &pick)) c = FromRuns(v, runs, pick);
  if (c == nullptr && runs.size() >= trigger) {
    if (UniversalPickSizeAmp(runs, u, &pick)) {
      // Incremental mode: part of the last level if a window qualifies,
      // else (as RocksDB) the full merge.
      if (u.incremental) c = IncrementalSizeAmp(v, runs, pick);
      if (c == nullptr) c = FromRuns(v, runs, pick);
    }
    if (c == nullptr && UniversalPickSortedRuns(runs, u, u.size_ratio, UINT_MAX, &pick)) {
      c = FromRuns(v, runs, pick);
    }
    if (c == nullptr) {
      // Last resort: bring the idle runs down to the trigger, ignoring
      // sizes.
      size_t idle = 0;
      for (const UniversalSortedRun& r : runs) {
        if (!r.being_compacted) ++idle;
      }
      if (idle > trigger &&
          UniversalPickSortedRuns(runs, u, UINT_MAX, static_cast<unsigned int>(idle - trigger + 1),
                                  &pick)) {
        c = FromRuns(v, runs, pick);
      }
    }
  }
  if (c == nullptr) return nullptr;
  // A move within level 0 changes nothing (and would be picked again and
  // again): only moves to a deeper level count.
  if (u.allow_trivial_move && c->reason() != CompactionReason::kPeriodicCompaction &&
      c->output_level() > 0) {
    c->set_trivial_move(InputsDisjoint(*c, icmp().user_comparator()));
  }
  if (!v->compaction_scores().empty()) c->set_score(v->compaction_scores().front().score);
  Register(c.get());
  return c;
}

std::unique_ptr<Compaction> UniversalCompactionPicker::CompactRange(
    Version* v, int level, int output_level, const Slice* begin, const Slice* end,
    uint32_t output_path_id, bool* conflict) {
  if (level == kCompactAllLevels && v->num_levels() > 1) {
    begin = nullptr;
    end = nullptr;
  }
  return CompactionPicker::CompactRange(v, level, output_level, begin, end, output_path_id,
                                        conflict);
}

std::unique_ptr<Compaction> UniversalCompactionPicker::IncrementalSizeAmp(
    Version* v, const std::vector<UniversalSortedRun>& runs, const UniversalRunPick& pick) {
  const Options& o = options();
  if (runs.size() < 2 || pick.end != runs.size() - 1) return nullptr;
  const UniversalSortedRun& last = runs.back();
  const UniversalSortedRun& second = runs[runs.size() - 2];
  // A level-0 file is a run of its own: it cannot be split.
  if (second.level == 0) return nullptr;
  uint64_t newer = 0;
  for (size_t i = pick.start; i < pick.end; ++i) newer += runs[i].size;
  if (newer == 0 || last.size == 0) return nullptr;
  // RocksDB's bound: a window must cost less than 1.8 times the full
  // merge's bottom bytes per newer byte, else the full merge is better.
  const double fanout_limit = static_cast<double>(last.size) / static_cast<double>(newer) * 1.8;
  const uint64_t max_bytes = o.max_compaction_bytes != 0
                                 ? o.max_compaction_bytes
                                 : 25 * std::max<uint64_t>(1, o.target_file_size_base);
  const std::vector<FileMetaData*>& upper = v->files(second.level);
  const std::vector<FileMetaData*>& bottom = v->files(last.level);
  size_t s = 0, e = 0;
  if (!UniversalPickIncrementalWindow(upper, bottom, icmp(), max_bytes / 2, fanout_limit, &s, &e)) {
    return nullptr;
  }
  // Clean cut: a user key split over two neighbouring files goes whole.
  const Comparator* ucmp = icmp().user_comparator();
  auto shares_key = [ucmp](const FileMetaData* a, const FileMetaData* b) {
    return ucmp->Compare(ExtractUserKey(a->largest), ExtractUserKey(b->smallest)) == 0;
  };
  while (s > 0 && shares_key(upper[s - 1], upper[s])) --s;
  while (e + 1 < upper.size() && shares_key(upper[e], upper[e + 1])) ++e;
  std::unique_ptr<Compaction> c(new Compaction(v, last.level));
  std::vector<FileMetaData*>* in = c->AddInputLevel(second.level);
  in->assign(upper.begin() + static_cast<std::ptrdiff_t>(s),
             upper.begin() + static_cast<std::ptrdiff_t>(e) + 1);
  if (AnyBeingCompacted(*in)) return nullptr;
  // Every bottom file overlapping the window (cleanly cut too).
  const Slice lo = ExtractUserKey(upper[s]->smallest);
  const Slice hi = ExtractUserKey(upper[e]->largest);
  std::vector<FileMetaData*> overlap;
  v->GetOverlappingInputs(last.level, &lo, &hi, &overlap);
  std::vector<FileMetaData*>* out = c->AddInputLevel(last.level);
  if (!overlap.empty()) {
    size_t bs = std::find(bottom.begin(), bottom.end(), overlap.front()) - bottom.begin();
    size_t be = std::find(bottom.begin(), bottom.end(), overlap.back()) - bottom.begin();
    while (bs > 0 && shares_key(bottom[bs - 1], bottom[bs])) --bs;
    while (be + 1 < bottom.size() && shares_key(bottom[be], bottom[be + 1])) ++be;
    out->assign(bottom.begin() + static_cast<std::ptrdiff_t>(bs),
                bottom.begin() + static_cast<std::ptrdiff_t>(be) + 1);
  }
  if (AnyBeingCompacted(*out)) return nullptr;
  // RocksDB's incremental outputs: cut at the last level's target file
  // size; RocksDB passes no grandparents (there is no level below), so its
  // overlap limit (1.5 x target_file_size_base) never cuts a file.
  c->FinishSetup(MaxFileSizeForLevel(last.level), o.allow_ingest_behind);
  c->set_grandparents({});
  c->set_reason(CompactionReason::kUniversalSizeAmplification);
  if (RangeBusyInOutputLevel(last.level, c->smallest_user_key(), c->largest_user_key())) {
    return nullptr;
  }
  return c;
}

std::unique_ptr<Compaction> UniversalCompactionPicker::FromRuns(
    Version* v, const std::vector<UniversalSortedRun>& runs, const UniversalRunPick& pick) {
  const Options& o = options();
  const int output_level =
      UniversalOutputLevel(runs, pick.start, pick.end, v->num_levels(), o.allow_ingest_behind);
  std::unique_ptr<Compaction> c(new Compaction(v, output_level));
  // The output's size estimate for its placement, as RocksDB takes it: the
  // runs picked, and for a size-ratio / run-count pick every run from the
  // newest (busy ones included) to the last one picked.
  const bool by_ratio = pick.reason == CompactionReason::kUniversalSizeRatio ||
                        pick.reason == CompactionReason::kUniversalSortedRunNum;
  uint64_t estimated_size = 0;
  for (size_t i = by_ratio ? 0 : pick.start; i <= pick.end; ++i) estimated_size += runs[i].size;
  c->set_output_path_id(UniversalOutputPathId(o, estimated_size));
  std::vector<FileMetaData*> l0;
  for (size_t i = pick.start; i <= pick.end; ++i) {
    if (runs[i].level == 0) l0.push_back(runs[i].file);
  }
  int last_added = -1;
  if (!l0.empty()) {
    *c->AddInputLevel(0) = std::move(l0);
    last_added = 0;
  }
  for (size_t i = pick.start; i <= pick.end; ++i) {
    if (runs[i].level == 0) continue;
    *c->AddInputLevel(runs[i].level) = v->files(runs[i].level);
    last_added = runs[i].level;
  }
  if (last_added != output_level) c->AddInputLevel(output_level);
  // RocksDB's universal output file limit: none in level 0 (a level-0
  // output is one file: one run), the leveled targets below.
  c->FinishSetup(output_level == 0 ? UINT64_MAX : MaxFileSizeForLevel(output_level),
                 o.allow_ingest_behind);
  // Universal cuts output files by size only (no grandparent overlap limit).
  c->set_grandparents({});
  c->set_reason(pick.reason);
  if (!pick.compress) c->set_compression(kNoCompression);
  if (output_level != 0 &&
      RangeBusyInOutputLevel(output_level, c->smallest_user_key(), c->largest_user_key())) {
    return nullptr;
  }
  return c;
}

}  // namespace strata
