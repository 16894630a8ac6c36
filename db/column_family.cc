#include "db/column_family.h"

#include <algorithm>

#include "memtable/dynamic_bloom.h"
#include "table/compression.h"

namespace strata {

MemTableOptions MemTableOptionsFor(const Options& options) {
  MemTableOptions m;
  size_t block = options.arena_block_size;
  if (block == 0) {
    block = options.write_buffer_size / 8;
    if (block < 4096) block = 4096;
    // 2 MiB blocks go on transparent huge pages (see util/arena.cc): far
    // fewer TLB misses for the random walks of a large memtable index.
    if (block > (2 << 20)) block = 2 << 20;
  }
  m.arena_block_size = block;
  m.point_index = options.memtable_point_index;
  m.write_buffer_size = options.write_buffer_size;
  m.prefix_extractor = options.prefix_extractor.get();
  m.whole_key_filtering = options.memtable_whole_key_filtering;
  m.bloom_bits = DynamicBloom::TotalBitsFor(
      options.write_buffer_size, std::min(options.memtable_prefix_bloom_size_ratio, 0.25));
  return m;
}

Status ValidateColumnFamilyOptions(const ColumnFamilyOptions& o) {
  if (o.comparator == nullptr) {
    return Status::InvalidArgument("options.comparator must not be null");
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
  // Options of the compaction-styles work not built yet: refused by name
  // until the part that implements each one lands (each block goes with it).
  if (o.compaction_style != kCompactionStyleLevel && o.compaction_style != kCompactionStyleNone) {
    return Status::NotSupported(
        "options.compaction_style: only kCompactionStyleLevel and "
        "kCompactionStyleNone are built so far");
  }
  if (o.compaction_pri == kRoundRobin) {
    // kRoundRobin needs the per-level compact cursor kept in the MANIFEST
    // (kCompactCursor), which Strata does not write yet.
    return Status::NotSupported("options.compaction_pri: kRoundRobin is not supported");
  }
  if ((o.ttl != 0 && o.ttl != ColumnFamilyOptions::kDefaultTtl) ||
      (o.periodic_compaction_seconds != 0 &&
       o.periodic_compaction_seconds != ColumnFamilyOptions::kDefaultTtl)) {
    return Status::NotSupported("options.ttl / periodic_compaction_seconds are not built yet");
  }
  {
    const CompressionOptions d;
    auto is_default = [&d](const CompressionOptions& c) {
      return c.level == d.level && c.max_dict_bytes == 0 && c.zstd_max_train_bytes == 0 &&
             c.parallel_threads <= 1 && !c.enabled;
    };
    if (!o.compression_per_level.empty() || o.bottommost_compression != kDisableCompressionOption ||
        !is_default(o.compression_opts) || !is_default(o.bottommost_compression_opts)) {
      return Status::NotSupported(
          "options.compression_per_level / bottommost_compression / compression_opts are not "
          "built yet");
    }
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
    if (t.format_version != 5) {
      return Status::InvalidArgument(
          "BlockBasedTableOptions::format_version " + std::to_string(t.format_version) +
          " is not supported for writing: Strata writes format_version 5 (and reads 0-5)");
    }
    if (t.data_block_index_type ==
            BlockBasedTableOptions::DataBlockIndexType::kDataBlockBinaryAndHash &&
        !(t.data_block_hash_table_util_ratio > 0)) {
      return Status::InvalidArgument(
          "BlockBasedTableOptions::data_block_hash_table_util_ratio must be positive with "
          "kDataBlockBinaryAndHash");
    }
    if ((t.cache_index_and_filter_blocks || t.pin_l0_filter_and_index_blocks_in_cache) &&
        t.no_block_cache) {
      return Status::InvalidArgument(
          "BlockBasedTableOptions::cache_index_and_filter_blocks needs a block cache "
          "(no_block_cache is set)");
    }
  }
  return Status::OK();
}

void SanitizeColumnFamilyOptions(ColumnFamilyOptions* o, std::vector<std::string>* notes) {
  auto note = [notes](std::string text) {
    if (notes != nullptr) notes->push_back(std::move(text));
  };
  auto adjust = [&](const char* name, auto* field, auto value) {
    note(std::string("options.") + name + " " + std::to_string(*field) + " changed to " +
         std::to_string(value));
    *field = value;
  };
  if (o->num_levels < 2) adjust("num_levels", &o->num_levels, 2);
  if (o->max_write_buffer_number < 2) {
    adjust("max_write_buffer_number", &o->max_write_buffer_number, 2);
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
