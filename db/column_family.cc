#include "db/column_family.h"

#include <algorithm>
#include <climits>

#include "db/filename.h"
#include "db/memory_budget.h"
#include "memtable/dynamic_bloom.h"
#include "strata/write_buffer_manager.h"
#include "table/compression.h"
#include "table/format.h"
#include "util/concurrent_task_limiter_impl.h"

namespace strata {

const Comparator* ColumnFamilyHandle::GetComparator() const { return BytewiseComparator(); }

Status ColumnFamilyHandle::GetDescriptor(ColumnFamilyDescriptor* /*desc*/) {
  return Status::InvalidArgument("GetDescriptor: a column family handle made outside a DB",
                                 GetName());
}

MemTableOptions MemTableOptionsFor(const Options& options) {
  MemTableOptions m;
  size_t block = options.arena_block_size;
  if (block == 0) {
    block = options.write_buffer_size / 8;
    if (block < 4096) block = 4096;
    // 2 MiB blocks go on transparent huge pages (see util/arena.cc): far
    // fewer TLB misses for the random walks of a large memtable index.
    if (block > (2 << 20)) block = 2 << 20;
    // A memtable starts with one block: under a WriteBufferManager the
    // block stays small beside the limit, or every fresh memtable would
    // count as half full and each write would switch it (issue 19).
    const WriteBufferManager* wbm = options.write_buffer_manager.get();
    if (wbm != nullptr && wbm->enabled()) {
      block = std::min(block, std::max<size_t>(4096, wbm->buffer_size() / 32));
    }
  }
  m.arena_block_size = block;
  m.point_index = options.memtable_point_index;
  m.write_buffer_size = options.write_buffer_size;
  m.prefix_extractor = options.prefix_extractor.get();
  m.whole_key_filtering = options.memtable_whole_key_filtering;
  m.clock = options.env != nullptr ? options.env->GetSystemClock() : nullptr;
  m.write_buffer_manager = options.write_buffer_manager.get();
  m.bloom_bits = DynamicBloom::TotalBitsFor(
      options.write_buffer_size, std::min(options.memtable_prefix_bloom_size_ratio, 0.25));
  return m;
}

namespace {

// Compression by level and its options (db/compaction/compression_for_level.h):
// every codec this build can write, the dictionary settings RocksDB
// accepts, and only what is built.
Status ValidateCompressionOptions(const ColumnFamilyOptions& o) {
  for (size_t i = 0; i < o.compression_per_level.size(); ++i) {
    if (!CompressionTypeSupported(o.compression_per_level[i])) {
      return Status::InvalidArgument("options.compression_per_level[" + std::to_string(i) +
                                     "]: " + CompressionTypeName(o.compression_per_level[i]) +
                                     " is not supported by this build");
    }
  }
  if (o.bottommost_compression != kDisableCompressionOption &&
      !CompressionTypeSupported(o.bottommost_compression)) {
    return Status::InvalidArgument(std::string("options.bottommost_compression: ") +
                                   CompressionTypeName(o.bottommost_compression) +
                                   " is not supported by this build");
  }
  // Whether a dictionary codec is among those each set of options is used
  // with (compression_opts: every level's codec, and the bottommost one
  // unless it has options of its own; bottommost_compression_opts: the
  // bottommost codec), and their names for the message.
  bool general_dict = false, bottom_dict = false;
  std::string general_names, bottom_names;
  auto note = [](CompressionType t, bool* any, std::string* names) {
    *any = *any || CompressionTypeUsesDictionary(t);
    *names += std::string(names->empty() ? "" : ", ") + CompressionTypeName(t);
  };
  if (o.compression_per_level.empty()) note(o.compression, &general_dict, &general_names);
  for (CompressionType t : o.compression_per_level) note(t, &general_dict, &general_names);
  if (o.bottommost_compression != kDisableCompressionOption) {
    note(o.bottommost_compression, &bottom_dict, &bottom_names);
    if (!o.bottommost_compression_opts.enabled) {
      note(o.bottommost_compression, &general_dict, &general_names);
    }
  } else {
    bottom_dict = general_dict;
    bottom_names = general_names;
  }
  auto check = [](const char* name, const CompressionOptions& c, bool any_dict,
                  const std::string& names) -> Status {
    const std::string opt = std::string("options.") + name;
    if (c.zstd_max_train_bytes > 0 && c.max_dict_bytes == 0) {
      // RocksDB's rule.
      return Status::InvalidArgument(opt + ".zstd_max_train_bytes needs " + opt +
                                     ".max_dict_bytes > 0 (the dictionary size limit)");
    }
    if (c.max_dict_bytes > 0) {
      if (!any_dict) {
        return Status::InvalidArgument(opt + ".max_dict_bytes: no codec it applies to (" + names +
                                       ") uses a dictionary (ZSTD, LZ4, LZ4HC and Zlib do)");
      }
    }
    if (c.parallel_threads > 1) {
      return Status::NotSupported(opt +
                                  ".parallel_threads > 1 (parallel compression) is not "
                                  "built yet");
    }
    return Status::OK();
  };
  Status s = check("compression_opts", o.compression_opts, general_dict, general_names);
  if (s.ok() && o.bottommost_compression_opts.enabled) {
    s = check("bottommost_compression_opts", o.bottommost_compression_opts, bottom_dict,
              bottom_names);
  }
  return s;
}

}  // namespace

Status ValidateColumnFamilyOptions(const ColumnFamilyOptions& o) {
  if (o.cf_paths.size() > kMaxTablePaths) {
    // RocksDB's MANIFEST cannot record a path id past 3 either.
    return Status::NotSupported("options.cf_paths: more than four CF paths are not supported");
  }
  if (o.comparator == nullptr) {
    return Status::InvalidArgument("options.comparator must not be null");
  }
  if (o.comparator->timestamp_size() != 0) {
    // RocksDB's user-defined timestamps: keys would carry a suffix the
    // engine does not strip.
    return Status::NotSupported(
        std::string("options.comparator: ") + o.comparator->Name() + " has timestamp_size() " +
        std::to_string(o.comparator->timestamp_size()) + "; Strata has no user-defined timestamps");
  }
  if (o.compaction_thread_limiter != nullptr && dynamic_cast<const ConcurrentTaskLimiterImpl*>(
                                                    o.compaction_thread_limiter.get()) == nullptr) {
    return Status::InvalidArgument(
        "options.compaction_thread_limiter must be made by NewConcurrentTaskLimiter");
  }
  if (o.write_buffer_size < 4096) {
    return Status::InvalidArgument("options.write_buffer_size must be at least 4096");
  }
  if (o.num_levels > kMaxLevels) {
    return Status::InvalidArgument("options.num_levels must be at most " +
                                   std::to_string(kMaxLevels));
  }
  // Values that would otherwise be quietly replaced by something else (a
  // compression this build lacks would store blocks raw; a zero file or
  // level size would split every key into its own file).
  if (!CompressionTypeSupported(o.compression)) {
    return Status::InvalidArgument(std::string("options.compression: ") +
                                   CompressionTypeName(o.compression) +
                                   " is not supported by this build");
  }
  if (o.target_file_size_base == 0) {
    return Status::InvalidArgument("options.target_file_size_base must be positive");
  }
  if (o.target_file_size_multiplier < 1) {
    return Status::InvalidArgument("options.target_file_size_multiplier must be at least 1");
  }
  if (o.max_bytes_for_level_base == 0) {
    return Status::InvalidArgument("options.max_bytes_for_level_base must be positive");
  }
  // Compaction options Strata does not implement: refused by name.
  if (o.compaction_pri == kRoundRobin) {
    // kRoundRobin needs the per-level compact cursor kept in the MANIFEST
    // (kCompactCursor), which Strata does not write yet.
    return Status::NotSupported("options.compaction_pri: kRoundRobin is not supported");
  }
  // Tiered storage (FIFO's warm-temperature moves) is not built.
  if (o.compaction_options_fifo.age_for_warm != 0) {
    return Status::NotSupported(
        "options.compaction_options_fifo.age_for_warm: tiered storage is not supported");
  }
  {
    Status s = ValidateCompressionOptions(o);
    if (!s.ok()) return s;
  }
  if (o.table_factory != nullptr) {
    const BlockBasedTableOptions& t = o.table_factory->table_options();
    if (t.block_size == 0) {
      return Status::InvalidArgument("BlockBasedTableOptions::block_size must be positive");
    }
    if (t.block_size > 0xffffffffu) {
      return Status::InvalidArgument(
          "BlockBasedTableOptions::block_size exceeds the maximum (4 GiB)");
    }
    if (Status fs = ValidateFormatVersionForWrite(t.format_version); !fs.ok()) return fs;
    if (t.data_block_index_type ==
            BlockBasedTableOptions::DataBlockIndexType::kDataBlockBinaryAndHash &&
        !(t.data_block_hash_table_util_ratio > 0)) {
      return Status::InvalidArgument(
          "BlockBasedTableOptions::data_block_hash_table_util_ratio must be positive with "
          "kDataBlockBinaryAndHash");
    }
    // Index layouts (issue 19): binary search and two-level are built.
    if (t.index_type == BlockBasedTableOptions::IndexType::kHashSearch ||
        t.index_type == BlockBasedTableOptions::IndexType::kBinarySearchWithFirstKey) {
      return Status::InvalidArgument(
          std::string("BlockBasedTableOptions::index_type ") +
          (t.index_type == BlockBasedTableOptions::IndexType::kHashSearch
               ? "kHashSearch"
               : "kBinarySearchWithFirstKey") +
          " is not supported: use kBinarySearch or kTwoLevelIndexSearch");
    }
    if (t.index_type != BlockBasedTableOptions::IndexType::kBinarySearch &&
        t.index_type != BlockBasedTableOptions::IndexType::kTwoLevelIndexSearch) {
      return Status::InvalidArgument("BlockBasedTableOptions::index_type " +
                                     std::to_string(static_cast<int>(t.index_type)) +
                                     " is not an index type");
    }
    Status charging = ValidateCacheUsageOptions(t);  // issue 19
    if (!charging.ok()) return charging;
    if ((t.cache_index_and_filter_blocks || t.pin_l0_filter_and_index_blocks_in_cache) &&
        t.no_block_cache) {
      return Status::InvalidArgument(
          "BlockBasedTableOptions::cache_index_and_filter_blocks needs a block cache "
          "(no_block_cache is set)");
    }
  }
  return Status::OK();
}

namespace {

// ttl and periodic_compaction_seconds as RocksDB 7.8.3 resolves them (all
// Strata tables are block-based, RocksDB's condition for the 30 days):
//  - ttl kDefaultTtl: 30 days, except FIFO: 0;
//  - not FIFO: periodic kDefaultTtl becomes 30 days when a compaction
//    filter is set;
//  - FIFO: with ttl 0, ttl takes periodic (kDefaultTtl there meaning 30
//    days); with both set, ttl becomes the smaller;
//  - universal: ttl works through periodic compaction, so periodic becomes
//    the smaller of the two (or ttl, if periodic is 0);
//  - periodic still kDefaultTtl: 0.
template <typename Adjust>
void SanitizeAges(ColumnFamilyOptions* o, Adjust& adjust) {
  constexpr uint64_t kDefault = ColumnFamilyOptions::kDefaultTtl;
  if (o->ttl == kDefault) {
    adjust("ttl (default)", &o->ttl,
           o->compaction_style == kCompactionStyleFIFO ? uint64_t{0} : kResolvedDefaultTtl);
  }
  if (o->compaction_style != kCompactionStyleFIFO) {
    if ((o->compaction_filter != nullptr || o->compaction_filter_factory != nullptr) &&
        o->periodic_compaction_seconds == kDefault) {
      adjust("periodic_compaction_seconds (default, with a compaction filter)",
             &o->periodic_compaction_seconds, kResolvedDefaultTtl);
    }
  } else if (o->ttl == 0) {
    if (o->periodic_compaction_seconds == kDefault) {
      adjust("periodic_compaction_seconds (default, FIFO)", &o->periodic_compaction_seconds,
             kResolvedDefaultTtl);
    }
    if (o->periodic_compaction_seconds != 0) {
      adjust("ttl (FIFO: from periodic_compaction_seconds)", &o->ttl,
             o->periodic_compaction_seconds);
    }
  } else if (o->periodic_compaction_seconds != 0 && o->periodic_compaction_seconds < o->ttl) {
    adjust("ttl (FIFO: the smaller of ttl and periodic_compaction_seconds)", &o->ttl,
           o->periodic_compaction_seconds);
  }
  if (o->compaction_style == kCompactionStyleUniversal && o->ttl != 0) {
    const uint64_t p = o->periodic_compaction_seconds != 0
                           ? std::min(o->ttl, o->periodic_compaction_seconds)
                           : o->ttl;
    if (p != o->periodic_compaction_seconds) {
      adjust("periodic_compaction_seconds (universal: ttl works through it)",
             &o->periodic_compaction_seconds, p);
    }
  }
  if (o->periodic_compaction_seconds == kDefault) {
    adjust("periodic_compaction_seconds (default)", &o->periodic_compaction_seconds, uint64_t{0});
  }
}

}  // namespace

void SanitizeColumnFamilyOptions(ColumnFamilyOptions* o, std::vector<std::string>* notes) {
  auto note = [notes](std::string text) {
    if (notes != nullptr) notes->push_back(std::move(text));
  };
  auto adjust = [&](const char* name, auto* field, auto value) {
    note(std::string("options.") + name + " " + std::to_string(*field) + " changed to " +
         std::to_string(value));
    *field = value;
  };
  // RocksDB 7.8.3's rules (its SanitizeOptions in db/column_family.cc):
  // leveled compaction needs a level to compact into; the other styles can
  // live in level 0 alone.
  if (o->num_levels < 1) adjust("num_levels", &o->num_levels, 1);
  if (o->compaction_style == kCompactionStyleLevel && o->num_levels < 2) {
    adjust("num_levels (level compaction needs two levels)", &o->num_levels, 2);
  }
  if (o->max_write_buffer_number < 2) {
    adjust("max_write_buffer_number", &o->max_write_buffer_number, 2);
  }
  if (o->compaction_style == kCompactionStyleFIFO) {
    // FIFO deletes level-0 files when there are too many: the level-0
    // write triggers mean nothing (RocksDB sets them out of reach).
    if (o->level0_slowdown_writes_trigger != INT_MAX) {
      adjust("level0_slowdown_writes_trigger (FIFO)", &o->level0_slowdown_writes_trigger, INT_MAX);
    }
    if (o->level0_stop_writes_trigger != INT_MAX) {
      adjust("level0_stop_writes_trigger (FIFO)", &o->level0_stop_writes_trigger, INT_MAX);
    }
  }
  if (o->max_bytes_for_level_multiplier <= 0) {
    adjust("max_bytes_for_level_multiplier", &o->max_bytes_for_level_multiplier, 1.0);
  }
  if (o->memtable_prefix_bloom_size_ratio > 0.25) {
    adjust("memtable_prefix_bloom_size_ratio", &o->memtable_prefix_bloom_size_ratio, 0.25);
  } else if (o->memtable_prefix_bloom_size_ratio < 0) {
    adjust("memtable_prefix_bloom_size_ratio", &o->memtable_prefix_bloom_size_ratio, 0.0);
  }
  if (o->max_subcompactions == 0) adjust("max_subcompactions", &o->max_subcompactions, 1u);
  if (o->level0_file_num_compaction_trigger < 1) {
    adjust("level0_file_num_compaction_trigger", &o->level0_file_num_compaction_trigger, 1);
  }
  if (o->level0_slowdown_writes_trigger < o->level0_file_num_compaction_trigger) {
    adjust("level0_slowdown_writes_trigger (must be >= level0_file_num_compaction_trigger)",
           &o->level0_slowdown_writes_trigger, o->level0_file_num_compaction_trigger);
  }
  if (o->level0_stop_writes_trigger < o->level0_slowdown_writes_trigger) {
    adjust("level0_stop_writes_trigger (must be >= level0_slowdown_writes_trigger)",
           &o->level0_stop_writes_trigger, o->level0_slowdown_writes_trigger);
  }
  if (o->soft_pending_compaction_bytes_limit == 0 ||
      (o->hard_pending_compaction_bytes_limit > 0 &&
       o->soft_pending_compaction_bytes_limit > o->hard_pending_compaction_bytes_limit)) {
    if (o->soft_pending_compaction_bytes_limit != o->hard_pending_compaction_bytes_limit) {
      adjust("soft_pending_compaction_bytes_limit", &o->soft_pending_compaction_bytes_limit,
             o->hard_pending_compaction_bytes_limit);
    }
  }
  if (o->level_compaction_dynamic_level_bytes && o->compaction_style != kCompactionStyleLevel) {
    adjust("level_compaction_dynamic_level_bytes (only for level compaction)",
           &o->level_compaction_dynamic_level_bytes, false);
  }
  // A factor per level (RocksDB grows the list with 1s; it never shrinks it).
  if (o->max_bytes_for_level_multiplier_additional.size() < static_cast<size_t>(o->num_levels)) {
    note("options.max_bytes_for_level_multiplier_additional extended with 1s to num_levels (" +
         std::to_string(o->num_levels) + ")");
    o->max_bytes_for_level_multiplier_additional.resize(o->num_levels, 1);
  }
  SanitizeAges(o, adjust);
  if (o->table_factory != nullptr) {
    // RocksDB's block-based table factory makes these corrections itself.
    BlockBasedTableOptions t = o->table_factory->table_options();
    bool changed = false;
    if (t.block_size_deviation < 0 || t.block_size_deviation > 100) {
      adjust("block_size_deviation", &t.block_size_deviation, 0);
      changed = true;
    }
    if (t.block_restart_interval < 1) {
      adjust("block_restart_interval", &t.block_restart_interval, 1);
      changed = true;
    }
    if (t.index_block_restart_interval < 1) {
      adjust("index_block_restart_interval", &t.index_block_restart_interval, 1);
      changed = true;
    }
    if (changed) o->table_factory = NewBlockBasedTableFactory(t);
  }
}

// ---------------------------------------------------------------------------
// ColumnFamilyData

ColumnFamilyData::ColumnFamilyData(uint32_t id, const std::string& name, const Options& options,
                                   const std::string& dbname, Mutex* db_mu,
                                   std::shared_ptr<Cache> table_readers)
    : id_(id),
      name_(name),
      icmp_(options.comparator),
      num_levels_(std::clamp(options.num_levels, 1, kMaxLevels)),
      db_mu_(db_mu) {
  option_sets_.push_back(MakeOptionSet(options));
  const OptionSet* first = option_sets_.back().get();
  current_options_.store(first, std::memory_order_release);
  // The table cache opens readers with the options of open time (the
  // mutable table options only concern table building).
  table_cache_ =
      std::make_unique<TableCache>(dbname, first->options, first->table,
                                   first->options.max_open_files, std::move(table_readers));
  if (first->table.block_cache != nullptr && !first->table.no_block_cache &&
      RoleCharged(first->table.cache_usage_options, CacheEntryRole::kFileMetadata)) {
    file_metadata_charge_ = std::make_shared<ConcurrentCacheReservationManager>(
        first->table.block_cache, CacheEntryRole::kFileMetadata);
  }
  picker_ = NewCompactionPicker(&first->options, icmp_, db_mu_);
  SystemClock* clock = first->options.env != nullptr ? first->options.env->GetSystemClock()
                                                     : Env::Default()->GetSystemClock();
  internal_stats_ = std::make_unique<InternalStats>(num_levels_, clock);
}

std::unique_ptr<ColumnFamilyData::OptionSet> ColumnFamilyData::MakeOptionSet(
    const Options& options) {
  auto set = std::make_unique<OptionSet>();
  set->options = options;
  if (set->options.table_factory == nullptr) {
    set->options.table_factory = NewBlockBasedTableFactory();
  }
  set->table = set->options.table_factory->table_options();
  set->mem = MemTableOptionsFor(set->options);
  return set;
}

void ColumnFamilyData::SetOptions(const Options& options) {
  db_mu_->AssertHeld();
  option_sets_.push_back(MakeOptionSet(options));
  const OptionSet* set = option_sets_.back().get();
  current_options_.store(set, std::memory_order_release);
  picker_->SetOptions(&set->options);
  if (current_ != nullptr) current_->ComputeCompactionScores(set->options);
}

void ColumnFamilyData::RecomputeCompactionScores() {
  db_mu_->AssertHeld();
  if (current_ != nullptr) current_->ComputeCompactionScores(options());
}

ColumnFamilyData::~ColumnFamilyData() {
  // No reader or job uses the family any more (DB close), so nothing can
  // race with the release; the DB mutex may or may not be held here.
  DropReferences();
}

uint64_t ColumnFamilyData::OldestLogWithData() const {
  db_mu_->AssertHeld();
  return imm_.empty() ? mem_log_number_ : imm_.back().log_number;
}

void ColumnFamilyData::InstallSuperVersion() {
  db_mu_->AssertHeld();
  auto* sv = new SuperVersion;
  mem_->Ref();
  sv->mem = mem_;
  for (const ImmMemTable& m : imm_) {
    m.mem->Ref();
    sv->imm.push_back(m.mem);
  }
  sv->current = current_;
  sv->current->Ref();
  sv->version_number = ++super_version_number_;
  SuperVersion* old = super_version_;
  super_version_ = sv->Ref();
  sv_cache.ResetAll();
  if (old != nullptr) old->Unref();
}

void ColumnFamilyData::ReleaseResources() {
  db_mu_->AssertHeld();
  DropReferences();
}

void ColumnFamilyData::DropReferences() {
  sv_cache.ResetAll();
  if (super_version_ != nullptr) {
    super_version_->Unref();
    super_version_ = nullptr;
  }
  for (const ImmMemTable& m : imm_) m.mem->Unref();
  imm_.clear();
  if (mem_ != nullptr) {
    mem_->Unref();
    mem_ = nullptr;
  }
  if (current_ != nullptr) {
    Version* v = current_;
    current_ = nullptr;
    v->Unref();
  }
}

bool ColumnFamilyData::NeedsWriteSlowdown() const {
  db_mu_->AssertHeld();
  const Options& o = options();
  if (o.disable_auto_compactions || current_ == nullptr) return false;
  return current_->l0_delay_trigger_count() >= o.level0_slowdown_writes_trigger ||
         (o.soft_pending_compaction_bytes_limit > 0 &&
          current_->EstimatedPendingCompactionBytes() >= o.soft_pending_compaction_bytes_limit);
}

// ---------------------------------------------------------------------------
// ColumnFamilySet

ColumnFamilySet::ColumnFamilySet() {
  tables_.push_back(std::make_unique<Table>());
  table_.store(tables_.back().get(), std::memory_order_release);
}

ColumnFamilySet::~ColumnFamilySet() {
  // Families hold Versions that call back into the VersionSet: the owner
  // releases them first (VersionSet::~VersionSet).
  all_.clear();
}

void ColumnFamilySet::Add(ColumnFamilyData* cfd) {
  all_.emplace_back(cfd);
  cfd->Ref();
  if (cfd->id() == 0) default_ = cfd;
  live_.insert(std::lower_bound(live_.begin(), live_.end(), cfd,
                                [](const ColumnFamilyData* a, const ColumnFamilyData* b) {
                                  return a->id() < b->id();
                                }),
               cfd);
  by_name_[cfd->name()] = cfd;
  UpdateMaxColumnFamily(cfd->id());
  Publish();
}

void ColumnFamilySet::Remove(ColumnFamilyData* cfd) {
  cfd->dropped_.store(true, std::memory_order_release);
  live_.erase(std::remove(live_.begin(), live_.end(), cfd), live_.end());
  by_name_.erase(cfd->name());
  Publish();
}

ColumnFamilyData* ColumnFamilySet::GetByName(const std::string& name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : it->second;
}

void ColumnFamilySet::Publish() {
  auto t = std::make_unique<Table>();
  uint32_t max_id = 0;
  for (const ColumnFamilyData* cfd : live_) max_id = std::max(max_id, cfd->id());
  t->assign(live_.empty() ? 0 : max_id + 1, nullptr);
  for (ColumnFamilyData* cfd : live_) (*t)[cfd->id()] = cfd;
  table_.store(t.get(), std::memory_order_release);
  tables_.push_back(std::move(t));
}

}  // namespace strata
