// JobEnv helpers (see the header).
#include "db/job_env.h"

#include <algorithm>
#include <vector>

#include "db/column_family.h"
#include "db/filename.h"
#include "db/level_iterator.h"
#include "db/version_set.h"
#include "memtable/dynamic_bloom.h"

namespace strata {

BuildTablesOptions NewBuildTablesOptions(const JobEnv& env, ColumnFamilyData* cfd) {
  const Options& options = cfd->options();
  BuildTablesOptions o;
  o.dbname = *env.dbname;
  o.table_dir = options.cf_paths.empty() ? *env.dbname : options.cf_paths[0].path;
  o.path_id = 0;
  o.options = &options;
  o.fs = env.fs;
  o.table_options = cfd->table_options();
  o.compression = options.compression;
  o.merge_operator = options.merge_operator.get();
  o.logger = options.info_log.get();
  o.statistics = options.statistics.get();
  VersionSet* versions = env.versions;
  o.new_file_number = [versions]() { return versions->NewFileNumber(); };
  o.db_id = *env.db_id;
  o.db_session_id = *env.db_session_id;
  o.column_family_id = cfd->id();
  o.column_family_name = cfd->name();
  int64_t now = 0;
  env.clock->GetCurrentTime(&now).PermitUncheckedError();
  o.creation_time = static_cast<uint64_t>(now);
  o.listeners = env.listeners;
  o.event_log = env.info_log;
  o.clock = env.clock;
  o.job_id = env.job_id;
  return o;
}

const CompactionFilter* CompactionFilterFor(ColumnFamilyData* cfd, bool manual, bool full,
                                            TableFileCreationReason reason,
                                            std::unique_ptr<CompactionFilter>* owned) {
  const Options& o = cfd->options();
  if (o.compaction_filter != nullptr) return o.compaction_filter;
  if (o.compaction_filter_factory == nullptr) return nullptr;
  if (!o.compaction_filter_factory->ShouldFilterTableFileCreation(reason)) return nullptr;
  CompactionFilter::Context context;
  context.is_full_compaction = full;
  context.is_manual_compaction = manual;
  context.column_family_id = cfd->id();
  context.reason = reason;
  *owned = o.compaction_filter_factory->CreateCompactionFilter(context);
  return owned->get();
}

Status CheckCompactionFilter(const CompactionFilter* filter) {
  if (filter != nullptr && !filter->IgnoreSnapshots()) {
    return Status::NotSupported(
        "CompactionFilter::IgnoreSnapshots() = false is not supported anymore.");
  }
  return Status::OK();
}

bool KeyInLevelsFrom(const Version* v, int from_level, const Slice& user_key) {
  const InternalKeyComparator& icmp = v->cfd()->icmp();
  const Comparator* ucmp = icmp.user_comparator();
  std::string key;
  for (int level = from_level; level < v->num_levels(); ++level) {
    const std::vector<FileMetaData*>& files = v->files(level);
    if (files.empty()) continue;
    if (level == 0) {
      // Level-0 files overlap: each one is asked.
      for (const FileMetaData* f : files) {
        if (ucmp->Compare(ExtractUserKey(f->smallest), user_key) <= 0 &&
            ucmp->Compare(user_key, ExtractUserKey(f->largest)) <= 0) {
          return true;
        }
      }
      continue;
    }
    if (key.empty()) AppendInternalKey(&key, user_key, kMaxSequenceNumber, kValueTypeForSeek);
    const size_t i = FindFile(icmp, files, key);
    if (i < files.size() && ucmp->Compare(ExtractUserKey(files[i]->smallest), user_key) <= 0) {
      return true;
    }
  }
  return false;
}

uint32_t LevelZeroKeyFilterBits(ColumnFamilyData* cfd) {
  const Comparator* ucmp = cfd->icmp().user_comparator();
  const BlockBasedTableOptions& t = cfd->table_options();
  if (t.filter_policy != nullptr && t.whole_key_filtering) return 0;
  if (ucmp != BytewiseComparator() && ucmp != ReverseBytewiseComparator()) return 0;
  return cfd->options().l0_key_filter_bits_per_key;
}

Status BuildLateKeyFilter(ColumnFamilyData* cfd, FileMetaData* f, uint32_t bits_per_key) {
  if (bits_per_key == 0 || f->KeyFilter() != nullptr) return Status::OK();
  TableCache* tc = cfd->table_cache();
  const FragmentedRangeTombstoneList* tombstones = nullptr;
  Status s = tc->GetRangeTombstones(f, 0, &tombstones);
  if (!s.ok() || tombstones != nullptr) return s;
  ReadOptions ro;
  ro.fill_cache = false;  // one pass over the table: keep the cache for readers
  TableFileMeta meta;
  meta.number = f->number;
  meta.file_size = f->file_size;
  meta.level = 0;
  meta.largest_seqno = f->largest_seqno;
  meta.path_id = f->path_id;
  std::unique_ptr<InternalIterator> it = tc->NewIterator(ro, meta);
  std::vector<uint64_t> hashes;
  std::string last;
  const Comparator* ucmp = cfd->icmp().user_comparator();
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    const Slice user_key = ExtractUserKey(it->key());
    if (hashes.empty() || ucmp->Compare(user_key, last) != 0) {
      hashes.push_back(DynamicBloom::Hash(user_key));
      last.assign(user_key.data(), user_key.size());
    }
  }
  if (!it->status().ok()) return it->status();
  if (hashes.empty()) return Status::OK();
  const uint64_t bits = hashes.size() * uint64_t{bits_per_key};
  auto* filter =
      new DynamicBloom(nullptr, static_cast<uint32_t>(std::min<uint64_t>(bits, uint64_t{1} << 31)));
  for (uint64_t h : hashes) filter->AddHash(h);
  f->late_key_filter.Install(filter);
  return Status::OK();
}

Status SyncTableDir(const JobEnv& env, const std::string& dir) {
  if (SameDirectory(dir, *env.dbname))
    return env.db_dir != nullptr ? env.db_dir->Fsync() : Status::OK();
  std::unique_ptr<Directory> d;
  Status s = env.fs->NewDirectory(dir, &d);
  if (s.ok()) s = d->Fsync();
  return s;
}

}  // namespace strata
