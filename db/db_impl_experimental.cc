// DBImpl: RocksDB's "experimental" calls, SuggestCompactRange and PromoteL0
// (include/strata/db.h says what each does).
//
// Locking: both take mu_. SuggestCompactRange only sets flags on the
// current Version's files and recomputes its scores under mu_ (no I/O);
// PromoteL0 releases mu_ only inside LogAndApply, with the level-0 files
// flagged being_compacted meanwhile so no compaction picks them.
#include <algorithm>
#include <string>
#include <vector>

#include "db/column_family.h"
#include "db/db_impl.h"
#include "db/version_edit.h"
#include "db/version_set.h"

namespace strata {

Status DBImpl::SuggestCompactRange(ColumnFamilyHandle* cf, const Slice* begin, const Slice* end) {
  if (read_only()) return ReadOnlyError();
  MutexLock l(&mu_);
  ColumnFamilyData* cfd = FamilyOf(cf);
  if (cfd->dropped()) return Status::InvalidArgument("column family was dropped", cfd->name());
  Version* v = cfd->current();
  int last_non_empty = -1;
  for (int level = 0; level < v->num_levels(); ++level) {
    if (v->NumLevelFiles(level) > 0) last_non_empty = level;
  }
  // As RocksDB: every level above the last non-empty one (marking a file
  // there would only have it rewritten in place).
  size_t marked = 0;
  for (int level = 0; level < last_non_empty; ++level) {
    std::vector<FileMetaData*> inputs;
    v->GetOverlappingInputs(level, begin, end, &inputs);
    for (FileMetaData* f : inputs) {
      if (!f->marked_for_compaction) ++marked;
      f->marked_for_compaction = true;
    }
  }
  cfd->RecomputeCompactionScores();
  Log(info_log_.get(), "[%s] SuggestCompactRange marked %zu file(s)", cfd->name().c_str(), marked);
  MaybeScheduleFlushOrCompaction();
  return Status::OK();
}

Status DBImpl::PromoteL0(ColumnFamilyHandle* cf, int target_level) {
  if (read_only()) return ReadOnlyError();
  MutexLock l(&mu_);
  ColumnFamilyData* cfd = FamilyOf(cf);
  if (cfd->dropped()) return Status::InvalidArgument("column family was dropped", cfd->name());
  auto fail = [&](const std::string& why, const char* message) {
    Log(info_log_.get(), "[%s] PromoteL0 failed: %s", cfd->name().c_str(), why.c_str());
    return Status::InvalidArgument(message);
  };
  if (target_level < 1) {
    return fail("invalid target level " + std::to_string(target_level), "Invalid target level");
  }
  Version* v = cfd->current();
  if (target_level >= v->num_levels()) {
    return fail("target level " + std::to_string(target_level) + " does not exist",
                "Target level does not exist");
  }
  // Level 0 by key range; any two neighbours must be disjoint.
  const InternalKeyComparator& icmp = cfd->icmp();
  std::vector<FileMetaData*> l0 = v->files(0);
  std::sort(l0.begin(), l0.end(), [&icmp](const FileMetaData* a, const FileMetaData* b) {
    return icmp.Compare(a->largest, b->largest) < 0;
  });
  for (size_t i = 0; i < l0.size(); ++i) {
    if (l0[i]->being_compacted) {
      return fail("file " + std::to_string(l0[i]->number) + " is being compacted",
                  "PromoteL0 called during L0 compaction");
    }
    if (i > 0 && icmp.Compare(l0[i - 1]->largest, l0[i]->smallest) >= 0) {
      return fail("files " + std::to_string(l0[i - 1]->number) + " and " +
                      std::to_string(l0[i]->number) + " overlap",
                  "L0 has overlapping files");
    }
  }
  for (int level = 1; level <= target_level; ++level) {
    if (v->NumLevelFiles(level) > 0) {
      return fail("level " + std::to_string(level) + " is not empty",
                  "All levels up to target_level must be empty");
    }
  }

  VersionEdit edit;
  for (FileMetaData* f : l0) {
    edit.DeleteFile(0, f->number);
    edit.AddFile(target_level, *f);
  }
  v->Ref();  // the files' metadata stays valid until their flags are cleared
  // Keeps compactions off the files while LogAndApply releases mu_.
  for (FileMetaData* f : l0) f->being_compacted = true;
  Status s = versions_->LogAndApply(cfd, &edit, &mu_);
  if (s.ok()) {
    InstallNewSuperVersion(cfd);
    Log(info_log_.get(), "[%s] PromoteL0 moved %zu file(s) to level %d", cfd->name().c_str(),
        l0.size(), target_level);
  }
  for (FileMetaData* f : l0) f->being_compacted = false;
  v->Unref();
  MaybeScheduleFlushOrCompaction();
  bg_cv_.SignalAll();
  return s;
}

}  // namespace strata
