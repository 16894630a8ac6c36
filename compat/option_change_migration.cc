// compat/option_change_migration.cc: OptionChangeMigration
// (rocksdb/utilities/option_change_migration.h), RocksDB 7.8.3's rules run
// through this layer's DB.
#include "rocksdb/utilities/option_change_migration.h"

#include <memory>
#include <string>

#include "rocksdb/db.h"
#include "rocksdb/metadata.h"

namespace rocksdb {
namespace {

// The options with nothing compacting or stalling on its own.
Options Quiet(const Options& opts) {
  Options o = opts;
  o.disable_auto_compactions = true;
  o.level0_slowdown_writes_trigger = 999999;
  o.level0_stop_writes_trigger = 999999;
  o.soft_pending_compaction_bytes_limit = 0;
  o.hard_pending_compaction_bytes_limit = 0;
  return o;
}

Status OpenDb(const Options& options, const std::string& dbname, std::unique_ptr<DB>* db) {
  db->reset();
  DB* raw = nullptr;
  Status s = DB::Open(options, dbname, &raw);
  if (s.ok()) db->reset(raw);
  return s;
}

// Compacts everything into dest_level (level 0: into one run of files of
// at most l0_file_size bytes, one file when 0). With reopen, the database
// is opened once more so that its MANIFEST names no higher level.
Status CompactToLevel(const Options& options, const std::string& dbname, int dest_level,
                      uint64_t l0_file_size, bool reopen) {
  Options quiet = Quiet(options);
  if (dest_level == 0) {
    if (l0_file_size == 0) l0_file_size = 999999999999999ULL;
    quiet.target_file_size_base = l0_file_size;
    quiet.max_compaction_bytes = l0_file_size;
  }
  std::unique_ptr<DB> db;
  Status s = OpenDb(quiet, dbname, &db);
  if (!s.ok()) return s;
  CompactRangeOptions cro;
  cro.change_level = true;
  cro.target_level = dest_level;
  if (dest_level == 0) cro.bottommost_level_compaction = BottommostLevelCompaction::kForce;
  s = db->CompactRange(cro, nullptr, nullptr);
  if (s.ok() && reopen) {
    db.reset();
    s = OpenDb(quiet, dbname, &db);
  }
  return s;
}

Status MigrateToUniversal(const std::string& dbname, const Options& old_opts,
                          const Options& new_opts) {
  if (old_opts.num_levels <= new_opts.num_levels ||
      old_opts.compaction_style == kCompactionStyleFIFO) {
    return Status::OK();
  }
  bool need_compact = false;
  {
    std::unique_ptr<DB> db;
    Status s = OpenDb(Quiet(old_opts), dbname, &db);
    if (!s.ok()) return s;
    ColumnFamilyMetaData meta;
    db->GetColumnFamilyMetaData(&meta);
    // The deepest level holding files must exist in the new shape.
    for (const LevelMetaData& level : meta.levels) {
      if (!level.files.empty() && level.level >= new_opts.num_levels) need_compact = true;
    }
    if (!meta.levels.empty() && meta.levels.back().level >= new_opts.num_levels) {
      need_compact = true;
    }
  }
  if (!need_compact) return Status::OK();
  return CompactToLevel(old_opts, dbname, new_opts.num_levels - 1, 0, /*reopen=*/true);
}

Status MigrateToLevelBase(const std::string& dbname, const Options& old_opts,
                          const Options& new_opts) {
  if (old_opts.num_levels == 1) return Status::OK();
  if (!new_opts.level_compaction_dynamic_level_bytes) {
    // Level 1 always exists; compacting there also reshapes the tree for
    // the new level sizes.
    Options opts = old_opts;
    opts.target_file_size_base = new_opts.target_file_size_base;
    return CompactToLevel(opts, dbname, 1, 0, /*reopen=*/true);
  }
  // Dynamic level bytes wants the data in the last level.
  if (new_opts.num_levels > old_opts.num_levels) {
    return CompactToLevel(new_opts, dbname, new_opts.num_levels - 1, 0, /*reopen=*/false);
  }
  Options opts = old_opts;
  opts.target_file_size_base = new_opts.target_file_size_base;
  return CompactToLevel(opts, dbname, new_opts.num_levels - 1, 0, /*reopen=*/true);
}

}  // namespace

Status OptionChangeMigration(std::string dbname, const Options& old_opts, const Options& new_opts) {
  if (old_opts.compaction_style == kCompactionStyleFIFO) {
    return Status::OK();  // a FIFO tree opens under any style
  }
  switch (new_opts.compaction_style) {
    case kCompactionStyleUniversal:
      return MigrateToUniversal(dbname, old_opts, new_opts);
    case kCompactionStyleLevel:
      return MigrateToLevelBase(dbname, old_opts, new_opts);
    case kCompactionStyleFIFO: {
      // At least eight files fit the FIFO size limit, so the migrated data
      // does not all fall out at once.
      const uint64_t max = new_opts.compaction_options_fifo.max_table_files_size;
      return CompactToLevel(old_opts, dbname, 0, max > 0 ? max / 8 : 0, /*reopen=*/true);
    }
    default:
      return Status::NotSupported("Do not how to migrate to this compaction style");
  }
}

}  // namespace rocksdb
