// DBImpl's properties: GetProperty, GetIntProperty and GetMapProperty under
// RocksDB 7.8.3's names ("rocksdb.<name>", "strata.<name>" as an alias)
// and meanings; docs/design/properties.md lists them. The figures come
// from the family's SuperVersion and Version, the DB's snapshot list and
// background state, the block cache, the table files' properties and the
// counters of db/internal_stats.h.
//
// Locking: most properties are read under mu_. Those that read table
// properties or reader sizes (which may open files) hold a reference to
// the current Version instead and run without mu_, as RocksDB's
// "out of mutex" properties do.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>

#include "cache/cache_reservation_manager.h"
#include "db/db_impl.h"
#include "db/snapshot_impl.h"
#include "strata/statistics.h"
#include "strata/table_properties.h"

namespace strata {

namespace {

// Strips "rocksdb." or the "strata." alias; false for other prefixes.
bool StripPropertyPrefix(Slice* name) {
  for (const char* prefix : {"rocksdb.", "strata."}) {
    if (name->starts_with(prefix)) {
      name->remove_prefix(strlen(prefix));
      return true;
    }
  }
  return false;
}

// For "<prefix><N>": true with *level = N when N is a decimal level below
// num_levels (and nothing follows it).
bool ParseLevelSuffix(const Slice& name, const char* prefix, int num_levels, int* level) {
  if (!name.starts_with(prefix)) return false;
  Slice digits = name;
  digits.remove_prefix(strlen(prefix));
  if (digits.empty() || digits.size() > 3) return false;
  int n = 0;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (digits[i] < '0' || digits[i] > '9') return false;
    n = n * 10 + (digits[i] - '0');
  }
  if (n >= num_levels) return false;
  *level = n;
  return true;
}

// The sum of the files' properties that add up (RocksDB's
// TableProperties::Add); the string fields stay empty.
void AddTableProperties(const TableProperties& from, TableProperties* to) {
  to->data_size += from.data_size;
  to->index_size += from.index_size;
  to->index_partitions += from.index_partitions;
  to->top_level_index_size += from.top_level_index_size;
  to->index_key_is_user_key += from.index_key_is_user_key;
  to->index_value_is_delta_encoded += from.index_value_is_delta_encoded;
  to->filter_size += from.filter_size;
  to->raw_key_size += from.raw_key_size;
  to->raw_value_size += from.raw_value_size;
  to->num_data_blocks += from.num_data_blocks;
  to->num_entries += from.num_entries;
  to->num_filter_entries += from.num_filter_entries;
  to->num_deletions += from.num_deletions;
  to->num_merge_operands += from.num_merge_operands;
  to->num_range_deletions += from.num_range_deletions;
}

// RocksDB's map of the aggregatable properties (its keys; the fields
// Strata's tables never carry are 0: no compression estimates).
void AggregatedPropertiesMap(const TableProperties& tp, std::map<std::string, std::string>* out) {
  out->clear();
  auto put = [out](const char* key, uint64_t v) { (*out)[key] = std::to_string(v); };
  put("data_size", tp.data_size);
  put("index_size", tp.index_size);
  put("index_partitions", tp.index_partitions);
  put("top_level_index_size", tp.top_level_index_size);
  put("filter_size", tp.filter_size);
  put("raw_key_size", tp.raw_key_size);
  put("raw_value_size", tp.raw_value_size);
  put("num_data_blocks", tp.num_data_blocks);
  put("num_entries", tp.num_entries);
  put("num_filter_entries", tp.num_filter_entries);
  put("num_deletions", tp.num_deletions);
  put("num_merge_operands", tp.num_merge_operands);
  put("num_range_deletions", tp.num_range_deletions);
  put("slow_compression_estimated_data_size", 0);
  put("fast_compression_estimated_data_size", 0);
}

// Bytes of a maximal set of files, bottom level first, whose key ranges do
// not overlap each other (RocksDB's estimate-live-data-size: data shadowed
// by newer overlapping files is not counted twice).
uint64_t EstimateLiveDataSize(const Version& v, const InternalKeyComparator& icmp) {
  auto less = [&icmp](const std::string& a, const std::string& b) {
    return icmp.Compare(a, b) < 0;
  };
  // largest key -> smallest key of each file counted so far
  std::map<std::string, std::string, decltype(less)> counted(less);
  uint64_t size = 0;
  for (int level = v.num_levels() - 1; level >= 0; --level) {
    for (const FileMetaData* f : v.files(level)) {
      // The first counted file ending at or after f's start overlaps f
      // iff it starts at or before f's end.
      auto it = counted.lower_bound(f->smallest);
      if (it == counted.end() || icmp.Compare(f->largest, it->second) < 0) {
        counted.emplace_hint(it, f->largest, f->smallest);
        size += f->file_size;
      }
    }
  }
  return size;
}

std::string KeyDebugString(const std::string& internal_key) {
  ParsedInternalKey parsed;
  if (!ParseInternalKey(internal_key, &parsed).ok()) {
    return "(bad)" + Slice(internal_key).ToString(true);
  }
  char buf[64];
  snprintf(buf, sizeof(buf), "' seq:%" PRIu64 ", type:%d", parsed.sequence,
           static_cast<int>(parsed.type));
  return "'" + parsed.user_key.ToString(true) + buf;
}

}  // namespace

// ---------------------------------------------------------------------------
// Helpers

bool DBImpl::IsClosed() {
  MutexLock l(&mu_);
  return closed_;
}

Version* DBImpl::RefCurrentVersion(ColumnFamilyData* cfd) {
  MutexLock l(&mu_);
  Version* v = cfd->current();
  if (v != nullptr) v->Ref();
  return v;
}

void DBImpl::UnrefVersion(Version* v) {
  MutexLock l(&mu_);
  v->Unref();
}

void DBImpl::RecordStallCauses(bool stop) {
  mu_.AssertHeld();
  for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
    const Options& o = cfd->options();
    const Version* v = cfd->current();
    if (v == nullptr) continue;
    const bool auto_compact = !o.disable_auto_compactions;
    const uint64_t debt = v->EstimatedPendingCompactionBytes();
    InternalStats* stats = cfd->internal_stats();
    if (stop) {
      if (static_cast<int>(cfd->imm().size()) >= std::max(1, o.max_write_buffer_number - 1) &&
          cfd->mem()->ApproximateMemoryUsage() >= o.write_buffer_size) {
        stats->AddStall(StallCause::kMemtableStop);
      } else if (auto_compact && v->l0_delay_trigger_count() >= o.level0_stop_writes_trigger) {
        stats->AddStall(StallCause::kLevel0NumFiles);
      } else if (auto_compact && o.hard_pending_compaction_bytes_limit > 0 &&
                 debt >= o.hard_pending_compaction_bytes_limit) {
        stats->AddStall(StallCause::kPendingCompactionBytesStop);
      }
    } else if (cfd->NeedsWriteSlowdown()) {
      stats->AddStall(v->l0_delay_trigger_count() >= o.level0_slowdown_writes_trigger
                          ? StallCause::kLevel0Slowdown
                          : StallCause::kPendingCompactionBytesSlowdown);
    }
  }
}

void DBImpl::RecordWriteGroup(const WriteThread::WriteGroup& group, size_t writes, size_t keys) {
  write_stats_.Add(DBWriteStats::kWriteDoneBySelf, 1);
  write_stats_.Add(DBWriteStats::kWriteDoneByOther, writes - 1);
  write_stats_.Add(DBWriteStats::kNumKeysWritten, keys);
  write_stats_.Add(DBWriteStats::kBytesWritten, group.total_bytes);
  if (!group.disable_wal) write_stats_.Add(DBWriteStats::kWriteWithWal, writes);
}

std::string DBImpl::CFStatsString(ColumnFamilyData* cfd) {
  MutexLock l(&mu_);
  const Version* v = cfd->current();
  if (v == nullptr) return std::string();
  return cfd->internal_stats()->DumpNoFileHistogram(cfd->name(), *v);
}

// ---------------------------------------------------------------------------
// Numbers

bool DBImpl::GetAggregatedIntProperty(const Slice& property, uint64_t* value) {
  std::vector<ColumnFamilyData*> families;
  {
    MutexLock l(&mu_);
    if (closed_) return false;
    for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
      if (cfd->dropped()) continue;
      cfd->Ref();
      families.push_back(cfd);
    }
  }
  Slice name = property;
  const bool per_cache = StripPropertyPrefix(&name) &&
                         (name == "block-cache-capacity" || name == "block-cache-usage" ||
                          name == "block-cache-pinned-usage");
  std::vector<const Cache*> caches_seen;
  uint64_t sum = 0;
  bool ok = !families.empty();
  for (ColumnFamilyData* cfd : families) {
    if (per_cache) {
      const Cache* cache = cfd->table_options().block_cache.get();
      if (std::find(caches_seen.begin(), caches_seen.end(), cache) != caches_seen.end()) continue;
      caches_seen.push_back(cache);
    }
    ColumnFamilyHandleImpl handle(cfd, nullptr);
    uint64_t v = 0;
    if (!GetIntProperty(&handle, property, &v)) {
      ok = false;
      break;
    }
    sum += v;
  }
  {
    MutexLock l(&mu_);
    for (ColumnFamilyData* cfd : families) UnrefFamily(cfd);
  }
  if (ok) *value = sum;
  return ok;
}

bool DBImpl::GetIntProperty(ColumnFamilyHandle* cf, const Slice& property, uint64_t* value) {
  ColumnFamilyData* cfd = FamilyOf(cf);
  Slice name = property;
  if (!StripPropertyPrefix(&name) || IsClosed()) return false;

  // The block cache (set at open, never replaced).
  if (name == "block-cache-capacity" || name == "block-cache-usage" ||
      name == "block-cache-pinned-usage") {
    const std::shared_ptr<Cache>& cache = cfd->table_options().block_cache;
    if (cache == nullptr || cfd->table_options().no_block_cache) return false;
    *value = name == "block-cache-capacity" ? cache->GetCapacity()
             : name == "block-cache-usage"  ? cache->GetUsage()
                                            : cache->GetPinnedUsage();
    return true;
  }
  // Out of the mutex: these read the current Version's table readers.
  if (name == "estimate-table-readers-mem" || name == "estimate-live-data-size") {
    Version* v = RefCurrentVersion(cfd);
    if (v == nullptr) return false;
    uint64_t sum = 0;
    if (name == "estimate-live-data-size") {
      sum = EstimateLiveDataSize(*v, cfd->icmp());
    } else {
      for (int level = 0; level < v->num_levels(); ++level) {
        for (const FileMetaData* f : v->files(level)) {
          sum += cfd->table_cache()->ReaderMemoryUsage(f->number);
        }
      }
    }
    UnrefVersion(v);
    *value = sum;
    return true;
  }
  if (name == "estimate-num-keys") {
    // As RocksDB estimates it: entries minus twice the deletions (a
    // deletion hides a key and is itself an entry), memtables and tables.
    uint64_t entries = 0, deletes = 0;
    Version* v = nullptr;
    {
      MutexLock l(&mu_);
      const SuperVersion* sv = cfd->super_version();
      if (sv == nullptr) return false;
      entries = sv->mem->num_entries();
      deletes = sv->mem->num_deletes();
      for (const MemTable* m : sv->imm) {
        entries += m->num_entries();
        deletes += m->num_deletes();
      }
      v = cfd->current();
      v->Ref();
    }
    for (int level = 0; level < v->num_levels(); ++level) {
      for (const FileMetaData* f : v->files(level)) {
        std::shared_ptr<const TableProperties> props;
        if (cfd->table_cache()
                ->GetTableProperties(
                    TableFileMeta{f->number, f->file_size, level, f->largest_seqno, f->path_id},
                    &props)
                .ok()) {
          entries += props->num_entries;
          deletes += props->num_deletions;
        }
      }
    }
    UnrefVersion(v);
    *value = entries > 2 * deletes ? entries - 2 * deletes : 0;
    return true;
  }

  MutexLock l(&mu_);
  const SuperVersion* sv = cfd->super_version();
  if (sv == nullptr) return false;
  const Version* current = sv->current;
  uint64_t imm_size = 0, imm_entries = 0, imm_deletes = 0;
  for (const MemTable* m : sv->imm) {
    imm_size += m->ApproximateMemoryUsage();
    imm_entries += m->num_entries();
    imm_deletes += m->num_deletes();
  }
  int level = 0;
  if (name == "cur-size-all-mem-tables" || name == "size-all-mem-tables") {
    // No flushed memtables are kept for history: both are the unflushed ones.
    *value = sv->mem->ApproximateMemoryUsage() + imm_size;
  } else if (name == "cur-size-active-mem-table") {
    *value = sv->mem->ApproximateMemoryUsage();
  } else if (name == "num-entries-active-mem-table") {
    *value = sv->mem->num_entries();
  } else if (name == "num-deletes-active-mem-table") {
    *value = sv->mem->num_deletes();
  } else if (name == "num-entries-imm-mem-tables") {
    *value = imm_entries;
  } else if (name == "num-deletes-imm-mem-tables") {
    *value = imm_deletes;
  } else if (name == "num-immutable-mem-table") {
    *value = sv->imm.size();
  } else if (name == "num-immutable-mem-table-flushed") {
    *value = 0;  // flushed memtables are not kept (no max_write_buffer_size_to_maintain)
  } else if (name == "mem-table-flush-pending") {
    *value = cfd->imm().empty() ? 0 : 1;
  } else if (name == "compaction-pending") {
    *value = cfd->picker()->NeedsCompaction(current) ? 1 : 0;
  } else if (name == "num-snapshots") {
    *value = snapshots_.count();
  } else if (name == "oldest-snapshot-time") {
    *value = snapshots_.empty() ? 0 : static_cast<uint64_t>(snapshots_.oldest()->unix_time());
  } else if (name == "oldest-snapshot-sequence") {
    *value = snapshots_.empty() ? 0 : snapshots_.oldest()->GetSequenceNumber();
  } else if (name == "background-errors") {
    *value = bg_errors_;
  } else if (name == "total-sst-files-size" || name == "num-live-versions") {
    uint64_t versions = 0, bytes = 0;
    versions_->LiveVersionsOf(cfd, &versions, &bytes);
    *value = name == "num-live-versions" ? versions : bytes;
  } else if (name == "live-sst-files-size") {
    *value = current->TotalFileBytes();
  } else if (name == "estimate-pending-compaction-bytes") {
    *value = current->EstimatedPendingCompactionBytes();
  } else if (name == "is-write-stopped") {
    *value = write_stopped_ ? 1 : 0;
  } else if (name == "actual-delayed-write-rate") {
    // The throttle's pace (bytes/s) from level-0 and debt pressure, the
    // slower of the debt pace and the stop pace, else 0.
    uint64_t rate = throttle_.debt_pace();
    if (throttle_.pressure() > 0) {
      const uint64_t stop = static_cast<uint64_t>(throttle_.RateFor(throttle_.pressure()));
      rate = rate == 0 ? stop : std::min(rate, stop);
    }
    *value = rate;
  } else if (name == "num-running-compactions") {
    uint64_t running = 0;
    for (const ColumnFamilyData* c : versions_->column_families()->live()) {
      running += static_cast<uint64_t>(c->picker()->running_compactions());
    }
    *value = running;
  } else if (name == "num-running-flushes") {
    *value = flush_scheduled_ ? 1 : 0;
  } else if (name == "base-level") {
    *value = static_cast<uint64_t>(current->base_level());
  } else if (name == "current-super-version-number") {
    *value = sv->version_number;
  } else if (name == "is-file-deletions-enabled") {
    *value = 1;  // Strata has no DisableFileDeletions: always enabled
  } else if (name == "min-log-number-to-keep") {
    *value = MinLogNumberInUse();
  } else if (name == "num-blob-files" || name == "total-blob-file-size" ||
             name == "live-blob-file-size" || name == "live-blob-file-garbage-size") {
    *value = 0;                         // no blob files in Strata
  } else if (name == "stall-micros") {  // Strata's own: write stall time
    *value = write_stats_.Get(DBWriteStats::kWriteStallMicros);
  } else if (name == "flush-write-bytes") {  // Strata's own
    *value = cfd->internal_stats()->bytes_flushed();
  } else if (name == "compact-write-bytes" || name == "compact-read-bytes") {  // Strata's own
    const bool write = name == "compact-write-bytes";
    uint64_t sum = 0;
    for (int l = 1; l < cfd->num_levels(); ++l) {
      const CompactionStats& s = cfd->internal_stats()->level_stats(l);
      sum += write ? s.bytes_written : s.bytes_read_non_output_levels + s.bytes_read_output_level;
    }
    *value = sum;
  } else if (ParseLevelSuffix(name, "num-files-at-level", current->num_levels(), &level)) {
    // A string property in RocksDB; answered as a number too.
    *value = current->files(level).size();
  } else {
    return false;
  }
  return true;
}

// ---------------------------------------------------------------------------
// Texts

bool DBImpl::GetProperty(ColumnFamilyHandle* cf, const Slice& property, std::string* value) {
  uint64_t n;
  if (GetIntProperty(cf, property, &n)) {
    *value = std::to_string(n);
    return true;
  }
  ColumnFamilyData* cfd = FamilyOf(cf);
  Slice name = property;
  if (!StripPropertyPrefix(&name) || IsClosed()) return false;
  int level = 0;
  const int num_levels = cfd->num_levels();

  if (name == "stats") {
    *value =
        CFStatsString(cfd) + InternalStats::DumpFileHistogram(cfd->name()) + write_stats_.Dump();
  } else if (name == "cfstats") {
    *value = CFStatsString(cfd) + InternalStats::DumpFileHistogram(cfd->name());
  } else if (name == "cfstats-no-file-histogram") {
    *value = CFStatsString(cfd);
  } else if (name == "cf-file-histogram") {
    *value = InternalStats::DumpFileHistogram(cfd->name());
  } else if (name == "dbstats") {
    *value = write_stats_.Dump();
  } else if (name == "levelstats") {
    MutexLock l(&mu_);
    const Version* v = cfd->current();
    if (v == nullptr) return false;
    *value = "Level Files Size(MB)\n--------------------\n";
    char buf[100];
    for (int i = 0; i < v->num_levels(); ++i) {
      snprintf(buf, sizeof(buf), "%3d %8d %8.0f\n", i, v->NumLevelFiles(i),
               v->NumLevelBytes(i) / 1048576.0);
      value->append(buf);
    }
  } else if (name == "sstables") {
    // RocksDB's Version::DebugString(hex, print_stats) layout; the
    // trailing "(n)" is the sampled read count, which Strata does not keep.
    MutexLock l(&mu_);
    const Version* v = cfd->current();
    if (v == nullptr) return false;
    value->clear();
    for (int i = 0; i < v->num_levels(); ++i) {
      value->append("--- level " + std::to_string(i) + " --- version# " +
                    std::to_string(v->version_number()) + " ---\n");
      for (const FileMetaData* f : v->files(i)) {
        value->append(" " + std::to_string(f->number) + ":" + std::to_string(f->file_size) + "[" +
                      std::to_string(f->smallest_seqno) + " .. " +
                      std::to_string(f->largest_seqno) + "][" + KeyDebugString(f->smallest) +
                      " .. " + KeyDebugString(f->largest) + "](0)\n");
      }
    }
  } else if (name == "aggregated-table-properties" ||
             ParseLevelSuffix(name, "aggregated-table-properties-at-level", num_levels, &level)) {
    TableProperties tp;
    if (!AggregatedTableProperties(cfd, name == "aggregated-table-properties" ? -1 : level, &tp)) {
      return false;
    }
    *value = tp.ToString();
  } else if (ParseLevelSuffix(name, "compression-ratio-at-level", num_levels, &level)) {
    // Uncompressed key and value bytes over file bytes; -1 for an empty level.
    Version* v = RefCurrentVersion(cfd);
    if (v == nullptr) return false;
    uint64_t raw = 0, file_bytes = 0;
    bool ok = true;
    for (const FileMetaData* f : v->files(level)) {
      std::shared_ptr<const TableProperties> props;
      ok = ok && cfd->table_cache()
                     ->GetTableProperties(TableFileMeta{f->number, f->file_size, level,
                                                        f->largest_seqno, f->path_id},
                                          &props)
                     .ok();
      if (!ok) break;
      raw += props->raw_key_size + props->raw_value_size;
      file_bytes += f->file_size;
    }
    UnrefVersion(v);
    if (!ok) return false;
    *value = std::to_string(file_bytes == 0 ? -1.0 : static_cast<double>(raw) / file_bytes);
  } else if (ParseLevelSuffix(name, "live-sst-files-size-at-temperature", 256, &level)) {
    MutexLock l(&mu_);
    uint64_t bytes = 0;
    const Version* v = cfd->current();
    for (int i = 0; v != nullptr && i < v->num_levels(); ++i) {
      for (const FileMetaData* f : v->files(i)) {
        if (f->temperature == level) bytes += f->file_size;
      }
    }
    *value = std::to_string(bytes);
  } else if (name == "options-statistics") {
    if (stats_ == nullptr) return false;
    *value = stats_->ToString();
  } else if (name == "blob-stats") {
    *value =
        "Number of blob files: 0\nTotal size of blob files: 0\n"
        "Total size of garbage in blob files: 0\nBlob file space amplification: 0\n";
  } else {
    return false;
  }
  return true;
}

// ---------------------------------------------------------------------------
// Maps

bool DBImpl::GetMapProperty(ColumnFamilyHandle* cf, const Slice& property,
                            std::map<std::string, std::string>* value) {
  ColumnFamilyData* cfd = FamilyOf(cf);
  Slice name = property;
  if (!StripPropertyPrefix(&name) || IsClosed()) return false;
  int level = 0;
  if (name == "cfstats") {
    MutexLock l(&mu_);
    const Version* v = cfd->current();
    if (v == nullptr) return false;
    value->clear();
    cfd->internal_stats()->DumpMap(*v, value);
    return true;
  }
  if (name == "dbstats") {
    value->clear();
    write_stats_.DumpMap(value);
    return true;
  }
  if (name == "block-cache-entry-stats") {
    // Issue 19: the memory charged to the block cache by role. Only the
    // charged roles are known here (the cache does not tag its blocks);
    // the rest of "usage" is cached blocks.
    const std::shared_ptr<Cache>& cache = cfd->table_options().block_cache;
    if (cache == nullptr || cfd->table_options().no_block_cache) return false;
    value->clear();
    char id[64];
    snprintf(id, sizeof(id), "%s@%p", cache->Name(), static_cast<const void*>(cache.get()));
    (*value)["id"] = id;
    (*value)["capacity"] = std::to_string(cache->GetCapacity());
    (*value)["usage"] = std::to_string(cache->GetUsage());
    const size_t capacity = std::max<size_t>(1, cache->GetCapacity());
    for (CacheEntryRole role :
         {CacheEntryRole::kWriteBuffer, CacheEntryRole::kBlockBasedTableReader,
          CacheEntryRole::kFilterConstruction, CacheEntryRole::kCompressionDictionaryBuildingBuffer,
          CacheEntryRole::kFileMetadata, CacheEntryRole::kMisc}) {
      const size_t bytes = CacheReservationManager::ChargedBytes(cache.get(), role);
      const std::string& n = GetCacheEntryRoleName(role);
      (*value)["bytes." + n] = std::to_string(bytes);
      (*value)["count." + n] = std::to_string(bytes / CacheReservationManager::kSizeDummyEntry);
      char pct[32];
      snprintf(pct, sizeof(pct), "%.2f", 100.0 * static_cast<double>(bytes) / capacity);
      (*value)["percent." + n] = pct;
    }
    return true;
  }
  if (name == "aggregated-table-properties" ||
      ParseLevelSuffix(name, "aggregated-table-properties-at-level", cfd->num_levels(), &level)) {
    TableProperties tp;
    if (!AggregatedTableProperties(cfd, name == "aggregated-table-properties" ? -1 : level, &tp)) {
      return false;
    }
    AggregatedPropertiesMap(tp, value);
    return true;
  }
  return false;
}

bool DBImpl::AggregatedTableProperties(ColumnFamilyData* cfd, int level, TableProperties* tp) {
  Version* v = RefCurrentVersion(cfd);
  if (v == nullptr) return false;
  bool ok = true;
  for (int i = 0; ok && i < v->num_levels(); ++i) {
    if (level >= 0 && i != level) continue;
    for (const FileMetaData* f : v->files(i)) {
      std::shared_ptr<const TableProperties> props;
      ok = cfd->table_cache()
               ->GetTableProperties(
                   TableFileMeta{f->number, f->file_size, i, f->largest_seqno, f->path_id}, &props)
               .ok();
      if (!ok) break;
      AddTableProperties(*props, tp);
    }
  }
  UnrefVersion(v);
  return ok;
}

}  // namespace strata
