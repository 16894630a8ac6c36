// compat/tools.cc: RocksDB's tool and small utility headers over Strata's
// public API: rocksdb/ldb_tool.h and rocksdb/sst_dump_tool.h (Strata's
// tools, strata/utilities/ldb_tool.h and sst_dump_tool.h, with the options
// converted), utilities/debug.h, utilities/leveldb_options.h,
// utilities/info_log_finder.h and utilities/memory_util.h.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "compat/options_convert.h"
#include "rocksdb/ldb_tool.h"
#include "rocksdb/sst_dump_tool.h"
#include "rocksdb/table.h"
#include "rocksdb/utilities/debug.h"
#include "rocksdb/utilities/info_log_finder.h"
#include "rocksdb/utilities/leveldb_options.h"
#include "rocksdb/utilities/memory_util.h"
#include "strata/utilities/sst_dump_tool.h"

namespace rocksdb {

// ---- ldb_tool.h, sst_dump_tool.h ----

void LDBTool::Run(int argc, char** argv, Options db_options, const LDBOptions& ldb_options,
                  const std::vector<ColumnFamilyDescriptor>* column_families) {
  (void)column_families;  // not used, as in RocksDB 7.8.3
  ::strata::Options options;
  Status s = compat::ConvertOptions(db_options, &options);
  if (!s.ok()) {
    std::fprintf(stderr, "Failed: %s\n", s.ToString().c_str());
    std::exit(1);
  }
  std::exit(::strata::RunLDBTool(argc, argv, options, ldb_options));
}

int SSTDumpTool::Run(int argc, char const* const* argv, Options options) {
  ::strata::Options converted;
  Status s = compat::ConvertOptions(options, &converted);
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.ToString().c_str());
    return 1;
  }
  return ::strata::SSTDumpTool().Run(argc, argv, converted);
}

// ---- utilities/debug.h ----

Status GetAllKeyVersions(DB* db, Slice begin_key, Slice end_key, size_t max_num_ikeys,
                         std::vector<KeyVersion>* key_versions) {
  if (db == nullptr) return Status::InvalidArgument("db cannot be null.");
  return GetAllKeyVersions(db, db->DefaultColumnFamily(), begin_key, end_key, max_num_ikeys,
                           key_versions);
}

Status GetAllKeyVersions(DB* db, ColumnFamilyHandle* cfh, Slice begin_key, Slice end_key,
                         size_t max_num_ikeys, std::vector<KeyVersion>* key_versions) {
  if (db == nullptr) return Status::InvalidArgument("db cannot be null.");
  return ::strata::GetAllKeyVersions(db->GetStrataDB(), cfh, begin_key, end_key, max_num_ikeys,
                                     key_versions);
}

// ---- utilities/leveldb_options.h ----

LevelDBOptions::LevelDBOptions()
    : comparator(BytewiseComparator()),
      create_if_missing(false),
      error_if_exists(false),
      paranoid_checks(false),
      env(Env::Default()),
      info_log(nullptr),
      write_buffer_size(4 << 20),
      max_open_files(1000),
      block_cache(nullptr),
      block_size(4096),
      block_restart_interval(16),
      compression(kSnappyCompression),
      filter_policy(nullptr) {}

Options ConvertOptions(const LevelDBOptions& leveldb_options) {
  Options options;
  options.comparator = leveldb_options.comparator;
  options.create_if_missing = leveldb_options.create_if_missing;
  options.error_if_exists = leveldb_options.error_if_exists;
  options.paranoid_checks = leveldb_options.paranoid_checks;
  options.env = leveldb_options.env;
  options.info_log.reset(leveldb_options.info_log);
  options.write_buffer_size = leveldb_options.write_buffer_size;
  options.max_open_files = leveldb_options.max_open_files;
  options.compression = leveldb_options.compression;
  BlockBasedTableOptions table_options;
  table_options.block_cache.reset(leveldb_options.block_cache);
  table_options.block_size = leveldb_options.block_size;
  table_options.block_restart_interval = leveldb_options.block_restart_interval;
  table_options.filter_policy.reset(leveldb_options.filter_policy);
  options.table_factory.reset(NewBlockBasedTableFactory(table_options));
  return options;
}

// ---- utilities/info_log_finder.h ----

namespace {

// The name Strata (and RocksDB) gives the LOG of the DB at db_path when
// db_log_dir is set: the absolute path with every character but
// [A-Za-z0-9._-] made '_' (a leading one dropped), cut to fit RocksDB's
// 260-byte buffer, then "_LOG".
std::string LogNameInLogDir(const std::string& db_path) {
  std::string path;
  if (!db_path.empty() && db_path[0] == '/') {
    path = db_path;
  } else {
    char cwd[4096];
    path = getcwd(cwd, sizeof(cwd)) != nullptr ? std::string(cwd) + "/" + db_path : db_path;
  }
  std::string absolute;
  for (char c : path) {
    if (c == '/' && !absolute.empty() && absolute.back() == '/') continue;
    absolute += c;
  }
  constexpr size_t kBuf = 260;
  constexpr size_t kSuffix = sizeof("_LOG");
  std::string name;
  for (size_t i = 0; i < absolute.size() && name.size() < kBuf - kSuffix; ++i) {
    const char c = absolute[i];
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '.' || c == '_';
    if (keep) {
      name += c;
    } else if (i > 0) {
      name += '_';
    }
  }
  return name + "_LOG";
}

// True for base itself and base + ".old." + digits.
bool IsInfoLog(const std::string& base, const std::string& name) {
  if (name == base) return true;
  const std::string prefix = base + ".old.";
  if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) return false;
  for (size_t i = prefix.size(); i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return false;
  }
  return true;
}

}  // namespace

Status GetInfoLogList(DB* db, std::vector<std::string>* info_log_list) {
  if (db == nullptr) return Status::InvalidArgument("DB pointer is not valid");
  const Options options = db->GetOptions();
  const std::string dir = options.db_log_dir.empty() ? db->GetName() : options.db_log_dir;
  const std::string base =
      options.db_log_dir.empty() ? std::string("LOG") : LogNameInLogDir(db->GetName());
  Env* env = options.env != nullptr ? options.env : Env::Default();
  std::vector<std::string> names;
  Status s = env->GetChildren(dir, &names);
  if (!s.ok()) return s;
  for (const std::string& n : names) {
    if (IsInfoLog(base, n)) info_log_list->push_back(n);
  }
  return Status::OK();
}

// ---- utilities/memory_util.h ----

Status MemoryUtil::GetApproximateMemoryUsageByType(
    const std::vector<DB*>& dbs, const std::unordered_set<const Cache*> cache_set,
    std::map<MemoryUtil::UsageType, uint64_t>* usage_by_type) {
  usage_by_type->clear();
  for (DB* db : dbs) {
    uint64_t v = 0;
    if (db->GetAggregatedIntProperty(DB::Properties::kSizeAllMemTables, &v)) {
      (*usage_by_type)[kMemTableTotal] += v;
    }
    if (db->GetAggregatedIntProperty(DB::Properties::kCurSizeAllMemTables, &v)) {
      (*usage_by_type)[kMemTableUnFlushed] += v;
    }
  }
  for (DB* db : dbs) {
    uint64_t v = 0;
    if (db->GetAggregatedIntProperty(DB::Properties::kEstimateTableReadersMem, &v)) {
      (*usage_by_type)[kTableReadersTotal] += v;
    }
  }
  for (const Cache* cache : cache_set) {
    if (cache != nullptr) (*usage_by_type)[kCacheTotal] += cache->GetUsage();
  }
  return Status::OK();
}

}  // namespace rocksdb
