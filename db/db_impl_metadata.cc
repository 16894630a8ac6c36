// DBImpl: size and metadata calls (include/strata/db.h, "size and
// metadata"): GetApproximateSizes and GetApproximateMemTableStats, the
// table properties of a family's files, DeleteFilesInRanges and
// CompactFiles, and the small per-family accessors. docs/design/metadata.md
// says what each does next to RocksDB 7.8.3.
//
// Locking: the size and properties calls read a referenced SuperVersion (or
// Version) without mu_, opening tables through the table cache;
// DeleteFilesInRanges and CompactFiles take mu_ and release it only inside
// LogAndApply / the compaction job, around their file I/O.
#include <algorithm>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "db/column_family.h"
#include "db/compaction/compaction.h"
#include "db/db_impl.h"
#include "db/filename.h"
#include "db/version_edit.h"
#include "db/version_set.h"
#include "strata/table_properties.h"
#include "util/sync_point.h"

namespace strata {

namespace {

// The number in a table file name as CompactFiles accepts it: "000012.sst",
// "/000012.sst", "/path/db/000012.sst" (RocksDB's TableFileNameToNumber
// reads the digits after the last '/'). False if there are none.
bool TableFileNumber(const std::string& name, uint64_t* number) {
  const size_t slash = name.rfind('/');
  const size_t begin = slash == std::string::npos ? 0 : slash + 1;
  uint64_t n = 0;
  size_t i = begin;
  for (; i < name.size() && name[i] >= '0' && name[i] <= '9'; ++i) {
    if (n > (~uint64_t{0} - 9) / 10) return false;
    n = n * 10 + static_cast<uint64_t>(name[i] - '0');
  }
  if (i == begin) return false;
  const std::string rest = name.substr(i);
  if (!rest.empty() && rest != ".sst" && rest != ".ldb") return false;
  *number = n;
  return true;
}

}  // namespace

// ---------------------------------------------------------------------------
// Approximate sizes

Status DBImpl::ApproximateFileBytes(ColumnFamilyData* cfd, Version* v, const Slice& start,
                                    const Slice& end, double margin, uint64_t* bytes) {
  const InternalKeyComparator& icmp = cfd->icmp();
  TableCache* cache = cfd->table_cache();
  *bytes = 0;
  // RocksDB's selection (VersionSet::ApproximateSize): every level-0 file,
  // and per sorted level the file where start falls and the one where end
  // falls are "edge" files, estimated from their index; the files between
  // those two count in full.
  uint64_t full = 0;
  uint64_t edge_total = 0;
  std::vector<std::pair<const FileMetaData*, int>> edges;
  for (int level = 0; level < v->num_levels(); ++level) {
    const std::vector<FileMetaData*>& files = v->files(level);
    if (files.empty()) continue;
    if (level == 0) {
      for (const FileMetaData* f : files) edges.emplace_back(f, 0);
      continue;
    }
    // The first file whose largest key is >= key (the last file if none).
    auto find = [&](const Slice& key, size_t from) {
      const auto it = std::partition_point(
          files.begin() + static_cast<std::ptrdiff_t>(from), files.end() - 1,
          [&](const FileMetaData* f) { return icmp.Compare(f->largest, key) < 0; });
      return static_cast<size_t>(it - files.begin());
    };
    const size_t first = find(start, 0);
    size_t last = first;
    if (icmp.Compare(files[last]->largest, end) < 0) last = find(end, first);
    for (size_t i = first + 1; i < last; ++i) full += files[i]->file_size;
    edges.emplace_back(files[first], level);
    if (last != first) edges.emplace_back(files[last], level);
  }
  for (const auto& e : edges) edge_total += e.first->file_size;
  // files_size_error_margin: when the edge files are small against what is
  // surely in range, half of them is close enough (RocksDB's shortcut, its
  // condition).
  if (margin > 0 && edge_total < static_cast<uint64_t>(static_cast<double>(full) * margin)) {
    *bytes = full + edge_total / 2;
    return Status::OK();
  }
  for (const auto& [f, level] : edges) {
    // RocksDB's per-file estimate: nothing for a file outside the range;
    // from the file's start to end's offset, or from start's offset to the
    // file's end, when one bound lies outside it; else the scaled bytes
    // between the two offsets.
    if (icmp.Compare(f->largest, start) <= 0 || icmp.Compare(f->smallest, end) > 0) continue;
    const TableFileMeta meta{f->number, f->file_size, level, kMaxSequenceNumber, f->path_id};
    uint64_t part = 0;
    Status s;
    if (icmp.Compare(f->smallest, start) >= 0) {
      if (icmp.Compare(f->largest, end) <= 0) {
        part = f->file_size;
      } else {
        s = cache->ApproximateOffsetOf(meta, end, &part);
      }
    } else if (icmp.Compare(f->largest, end) < 0) {
      uint64_t offset = 0;
      s = cache->ApproximateOffsetOf(meta, start, &offset);
      part = f->file_size - std::min(offset, f->file_size);
    } else {
      s = cache->ApproximateSize(meta, start, end, &part);
    }
    if (!s.ok()) return s;
    full += part;
  }
  *bytes = full;
  return Status::OK();
}

Status DBImpl::GetApproximateSizes(const SizeApproximationOptions& options, ColumnFamilyHandle* cf,
                                   const Range* ranges, int n, uint64_t* sizes) {
  if (!options.include_memtables && !options.include_files) {
    return Status::InvalidArgument("Invalid options");  // RocksDB's words
  }
  if (n < 0) return Status::InvalidArgument("GetApproximateSizes: negative range count");
  ColumnFamilyData* cfd = FamilyOf(cf);
  SuperVersion* sv = AcquireSuperVersion(cfd);
  if (sv == nullptr) return Status::ShutdownInProgress("GetApproximateSizes after Close");
  const Comparator* ucmp = cfd->user_comparator();
  Status s;
  std::string k1, k2;
  for (int i = 0; i < n; ++i) {
    sizes[i] = 0;
    // An inverted range holds nothing (RocksDB answers 0 too).
    if (ucmp->Compare(ranges[i].start, ranges[i].limit) >= 0) continue;
    k1.clear();
    k2.clear();
    AppendInternalKey(&k1, ranges[i].start, kMaxSequenceNumber, kValueTypeForSeek);
    AppendInternalKey(&k2, ranges[i].limit, kMaxSequenceNumber, kValueTypeForSeek);
    if (options.include_files) {
      uint64_t bytes = 0;
      s = ApproximateFileBytes(cfd, sv->current, k1, k2, options.files_size_error_margin, &bytes);
      if (!s.ok()) break;
      sizes[i] += bytes;
    }
    if (options.include_memtables) {
      sizes[i] += sv->mem->ApproximateStats(k1, k2).size;
      for (MemTable* m : sv->imm) sizes[i] += m->ApproximateStats(k1, k2).size;
    }
  }
  ReleaseSuperVersion(cfd, sv);
  return s;
}

void DBImpl::GetApproximateMemTableStats(ColumnFamilyHandle* cf, const Range& range,
                                         uint64_t* count, uint64_t* size) {
  *count = 0;
  *size = 0;
  ColumnFamilyData* cfd = FamilyOf(cf);
  SuperVersion* sv = AcquireSuperVersion(cfd);
  if (sv == nullptr) return;
  std::string k1, k2;
  AppendInternalKey(&k1, range.start, kMaxSequenceNumber, kValueTypeForSeek);
  AppendInternalKey(&k2, range.limit, kMaxSequenceNumber, kValueTypeForSeek);
  MemTable::ApproximateStatsResult r = sv->mem->ApproximateStats(k1, k2);
  *count += r.count;
  *size += r.size;
  for (MemTable* m : sv->imm) {
    r = m->ApproximateStats(k1, k2);
    *count += r.count;
    *size += r.size;
  }
  ReleaseSuperVersion(cfd, sv);
}

// ---------------------------------------------------------------------------
// Table properties

Status DBImpl::CollectTableProperties(ColumnFamilyData* cfd, Version* v,
                                      const std::function<bool(const FileMetaData&)>& wanted,
                                      TablePropertiesCollection* props) {
  TableCache* cache = cfd->table_cache();
  for (int level = 0; level < v->num_levels(); ++level) {
    for (const FileMetaData* f : v->files(level)) {
      if (wanted && !wanted(*f)) continue;
      const std::string path = TableFileName(cfd->options().cf_paths, f->number, f->path_id);
      if (props->count(path) != 0) continue;
      std::shared_ptr<const TableProperties> p;
      Status s = cache->GetTableProperties(
          TableFileMeta{f->number, f->file_size, level, kMaxSequenceNumber, f->path_id}, &p);
      if (!s.ok()) return s;
      (*props)[path] = std::move(p);
    }
  }
  return Status::OK();
}

Status DBImpl::GetPropertiesOfAllTables(ColumnFamilyHandle* cf, TablePropertiesCollection* props) {
  ColumnFamilyData* cfd = FamilyOf(cf);
  Version* v = RefCurrentVersion(cfd);
  if (v == nullptr) return Status::ShutdownInProgress("GetPropertiesOfAllTables after Close");
  Status s = CollectTableProperties(cfd, v, nullptr, props);
  UnrefVersion(v);
  return s;
}

Status DBImpl::GetPropertiesOfTablesInRange(ColumnFamilyHandle* cf, const Range* ranges,
                                            std::size_t n, TablePropertiesCollection* props) {
  ColumnFamilyData* cfd = FamilyOf(cf);
  const Comparator* ucmp = cfd->user_comparator();
  Version* v = RefCurrentVersion(cfd);
  if (v == nullptr) return Status::ShutdownInProgress("GetPropertiesOfTablesInRange after Close");
  // A file is taken when its user keys meet some [start, limit] (both ends
  // included, as RocksDB's overlap test on user keys does).
  auto overlaps = [&](const FileMetaData& f) {
    for (std::size_t i = 0; i < n; ++i) {
      if (ucmp->Compare(ExtractUserKey(f.largest), ranges[i].start) >= 0 &&
          ucmp->Compare(ExtractUserKey(f.smallest), ranges[i].limit) <= 0) {
        return true;
      }
    }
    return false;
  };
  Status s = CollectTableProperties(cfd, v, overlaps, props);
  UnrefVersion(v);
  return s;
}

// ---------------------------------------------------------------------------
// DeleteFilesInRanges

Status DBImpl::DeleteFilesInRanges(ColumnFamilyHandle* cf, const RangePtr* ranges, size_t n,
                                   bool include_end) {
  if (read_only()) return ReadOnlyError();
  ColumnFamilyData* cfd = FamilyOf(cf);
  const InternalKeyComparator& icmp = cfd->icmp();
  const Comparator* ucmp = cfd->user_comparator();
  const int job_id = next_job_id_.fetch_add(1, std::memory_order_relaxed);
  MutexLock l(&mu_);
  if (cfd->dropped()) return Status::InvalidArgument("column family was dropped", cfd->name());
  Version* v = cfd->current();
  VersionEdit edit;
  std::vector<FileMetaData*> deleted;
  std::string lo, hi;
  for (size_t r = 0; r < n; ++r) {
    const Slice* begin = ranges[r].start;
    const Slice* end = ranges[r].limit;
    // Internal-key bounds covering every version of the end keys.
    if (begin != nullptr) {
      lo.clear();
      AppendInternalKey(&lo, *begin, kMaxSequenceNumber, kValueTypeForSeek);
    }
    if (end != nullptr) {
      hi.clear();
      AppendInternalKey(&hi, *end, 0, static_cast<ValueType>(0));
    }
    // Level 0 is left alone: its files overlap newer and older data in
    // ways a range cannot cut cleanly (RocksDB skips it too).
    for (int level = 1; level < v->num_levels(); ++level) {
      const std::vector<FileMetaData*>& files = v->files(level);
      // The run of files wholly inside [lo, hi]...
      size_t first = 0;
      while (first < files.size() && begin != nullptr &&
             icmp.Compare(files[first]->smallest, lo) < 0) {
        ++first;
      }
      size_t last = first;  // one past the run
      while (last < files.size() &&
             (end == nullptr || icmp.Compare(files[last]->largest, hi) <= 0)) {
        ++last;
      }
      // ...minus files sharing a boundary user key with a neighbour outside
      // it (a clean cut: a user key's versions go together or not at all).
      while (first < last && first > 0 &&
             ucmp->Compare(ExtractUserKey(files[first - 1]->largest),
                           ExtractUserKey(files[first]->smallest)) == 0) {
        ++first;
      }
      while (last > first && last < files.size() &&
             ucmp->Compare(ExtractUserKey(files[last - 1]->largest),
                           ExtractUserKey(files[last]->smallest)) == 0) {
        --last;
      }
      for (size_t i = first; i < last; ++i) {
        FileMetaData* f = files[i];
        if (f->being_compacted) continue;
        if (std::find(deleted.begin(), deleted.end(), f) != deleted.end()) continue;
        if (!include_end && end != nullptr &&
            ucmp->Compare(ExtractUserKey(f->largest), *end) == 0) {
          continue;
        }
        edit.DeleteFile(level, f->number);
        deleted.push_back(f);
        // Keeps compactions off the files while LogAndApply releases mu_.
        f->being_compacted = true;
      }
    }
  }
  if (deleted.empty()) return Status::OK();
  v->Ref();  // the files' metadata stays valid until their flags are cleared
  Status s = versions_->LogAndApply(cfd, &edit, &mu_);
  if (s.ok()) {
    InstallNewSuperVersion(cfd);
    Log(info_log_.get(), "[%s] DeleteFilesInRanges deleted %zu file(s)", cfd->name().c_str(),
        deleted.size());
  }
  for (FileMetaData* f : deleted) f->being_compacted = false;
  v->Unref();
  DeleteObsoleteFiles(job_id);
  MaybeScheduleFlushOrCompaction();
  bg_cv_.SignalAll();
  return s;
}

Status DBImpl::DeleteFile(std::string name) {
  if (read_only()) return ReadOnlyError();
  // RocksDB takes the name with or without a leading '/'.
  while (!name.empty() && name.front() == '/') name.erase(0, 1);
  const std::string kArchive = "archive/";
  const bool archived = name.compare(0, kArchive.size(), kArchive) == 0;
  uint64_t number = 0;
  FileType type;
  if (!ParseFileName(archived ? name.substr(kArchive.size()) : name, &number, &type) ||
      (type != kTableFile && type != kWalFile) || (archived && type != kWalFile)) {
    Log(info_log_.get(), "DeleteFile %s failed: not a table file or an archived WAL", name.c_str());
    return Status::InvalidArgument("Invalid file name");
  }
  if (type == kWalFile) {
    if (!archived) return Status::NotSupported("Delete only supported for archived logs");
    Status s = fs_->DeleteFile(wal_manager_->PathOf(number, kArchivedLogFile));
    Log(info_log_.get(), "DeleteFile %s: %s", name.c_str(), s.ToString().c_str());
    return s;
  }

  const int job_id = next_job_id_.fetch_add(1, std::memory_order_relaxed);
  MutexLock l(&mu_);
  ColumnFamilyData* cfd = nullptr;
  FileMetaData* file = nullptr;
  int level = -1;
  for (ColumnFamilyData* c : versions_->column_families()->live()) {
    Version* v = c->current();
    for (int lv = 0; lv < v->num_levels() && file == nullptr; ++lv) {
      for (FileMetaData* f : v->files(lv)) {
        if (f->number == number) {
          cfd = c;
          file = f;
          level = lv;
          break;
        }
      }
    }
    if (file != nullptr) break;
  }
  if (file == nullptr) {
    Log(info_log_.get(), "DeleteFile %s failed: no family holds it", name.c_str());
    return Status::InvalidArgument("File not found");
  }
  if (file->being_compacted) {
    Log(info_log_.get(), "DeleteFile %s skipped: a compaction is using it", name.c_str());
    return Status::OK();
  }
  Version* v = cfd->current();
  // Only data nothing lies under may go: a deletion in it could otherwise
  // uncover older versions below.
  for (int lv = level + 1; lv < v->num_levels(); ++lv) {
    if (!v->files(lv).empty()) {
      Log(info_log_.get(), "DeleteFile %s failed: level %d is not the family's last", name.c_str(),
          level);
      return Status::InvalidArgument("File not in last level");
    }
  }
  if (level == 0 && v->files(0).back() != file) {  // level 0 is newest first
    Log(info_log_.get(), "DeleteFile %s failed: not the oldest file of level 0", name.c_str());
    return Status::InvalidArgument("File in level 0, but not oldest");
  }
  VersionEdit edit;
  edit.DeleteFile(level, number);
  v->Ref();  // the file's metadata stays valid until its flag is cleared
  // Keeps compactions off the file while LogAndApply releases mu_.
  file->being_compacted = true;
  Status s = versions_->LogAndApply(cfd, &edit, &mu_);
  if (s.ok()) {
    InstallNewSuperVersion(cfd);
    Log(info_log_.get(), "[%s] DeleteFile %s from level %d", cfd->name().c_str(), name.c_str(),
        level);
  }
  file->being_compacted = false;
  v->Unref();
  DeleteObsoleteFiles(job_id);
  MaybeScheduleFlushOrCompaction();
  bg_cv_.SignalAll();
  return s;
}

Status DeleteFilesInRanges(DB* db, ColumnFamilyHandle* cf, const RangePtr* ranges, size_t n,
                           bool include_end) {
  return db->DeleteFilesInRanges(cf, ranges, n, include_end);
}

Status DeleteFilesInRange(DB* db, ColumnFamilyHandle* cf, const Slice* begin, const Slice* end,
                          bool include_end) {
  const RangePtr range(begin, end);
  return db->DeleteFilesInRanges(cf, &range, 1, include_end);
}

// ---------------------------------------------------------------------------
// CompactFiles

Status DBImpl::CompactFiles(const CompactionOptions& options, ColumnFamilyHandle* cf,
                            const std::vector<std::string>& input_file_names, int output_level,
                            int output_path_id, std::vector<std::string>* output_file_names) {
  if (read_only()) return ReadOnlyError();
  ColumnFamilyData* cfd = FamilyOf(cf);
  // The family's table paths are fixed at open (no lock needed).
  const size_t num_paths = cfd->options().cf_paths.size();
  if (output_path_id < 0) {
    if (num_paths > 1) {
      // RocksDB 7.8.3's refusal, in its words.
      return Status::NotSupported(
          "Automatic output path selection is not yet supported in CompactFiles()");
    }
    output_path_id = 0;
  }
  if (static_cast<size_t>(output_path_id) >= std::max<size_t>(num_paths, 1)) {
    return Status::InvalidArgument(
        "CompactFiles: output_path_id " + std::to_string(output_path_id) +
        " does not exist (the family has " + std::to_string(num_paths) + " table path(s))");
  }
  std::vector<uint64_t> numbers;
  for (const std::string& name : input_file_names) {
    uint64_t number = 0;
    if (!TableFileNumber(name, &number)) {
      return Status::InvalidArgument("CompactFiles: not a table file name: " + name);
    }
    numbers.push_back(number);
  }
  MutexLock l(&mu_);
  if (shutting_down_.load(std::memory_order_acquire)) {
    return Status::ShutdownInProgress("CompactFiles during close");
  }
  if (cfd->dropped()) return Status::InvalidArgument("column family was dropped", cfd->name());
  if (manual_compaction_paused_ > 0) return Status::Incomplete(Status::kManualCompactionPaused);
  if (!bg_error_.ok()) return bg_error_;
  Status s;
  std::unique_ptr<Compaction> c =
      cfd->picker()->CompactFiles(cfd->current(), numbers, output_level, options, &s);
  if (c == nullptr) return s;
  c->set_output_path_id(static_cast<uint32_t>(output_path_id));
  ++manual_compactions_;
  cfd->Ref();
  TEST_SYNC_POINT_CALLBACK("DBImpl::CompactFiles:Picked", c.get());
  int job_id = 0;
  std::vector<std::string> outputs;
  s = RunCompaction(cfd, c.get(), &job_id, &outputs);
  cfd->picker()->ReleaseCompaction(c.get());
  c.reset();
  if (s.ok() && output_file_names != nullptr) {
    output_file_names->insert(output_file_names->end(), outputs.begin(), outputs.end());
  }
  UnrefFamily(cfd);
  DeleteObsoleteFiles(job_id);
  --manual_compactions_;
  MaybeScheduleFlushOrCompaction();
  bg_cv_.SignalAll();
  if (!s.ok() && !s.IsShutdownInProgress() && !s.IsCompactionTooLarge()) {
    RecordBackgroundError(s, BgErrorReason::kCompaction);
  }
  return s;
}

// ---------------------------------------------------------------------------
// Per-family accessors

int DBImpl::NumberLevels(ColumnFamilyHandle* cf) { return FamilyOf(cf)->num_levels(); }

int DBImpl::MaxMemCompactionLevel(ColumnFamilyHandle* cf) {
  (void)cf;
  return 0;  // flushes always write level 0 (RocksDB's answer too)
}

int DBImpl::Level0StopWriteTrigger(ColumnFamilyHandle* cf) {
  return FamilyOf(cf)->options().level0_stop_writes_trigger;
}

}  // namespace strata
