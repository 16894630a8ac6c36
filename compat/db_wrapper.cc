// compat/db_wrapper.cc: DB::Open and the other static and free functions of
// rocksdb/db.h; the DB object itself is compat/compat_db.h.
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "compat/compat_db.h"
#include "compat/options_convert.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/file_system.h"
#include "strata/db.h"
#include "strata/options.h"

namespace rocksdb {

using ::strata::Status;

const std::string kDefaultColumnFamilyName = "default";
const std::string kPersistentStatsColumnFamilyName = "___rocksdb_stats_history___";

DB::~DB() = default;

namespace {

// RocksDB's answer to a timestamped write on a family without timestamps.
Status NoTimestamps(ColumnFamilyHandle* column_family) {
  if (column_family == nullptr) {
    return Status::InvalidArgument("column family handle cannot be null");
  }
  return Status::InvalidArgument("cannot call this method on column family " +
                                 column_family->GetName() + " that does not enable timestamp");
}

}  // namespace

Status DB::Put(const WriteOptions& /*options*/, ColumnFamilyHandle* column_family,
               const Slice& /*key*/, const Slice& /*ts*/, const Slice& /*value*/) {
  return NoTimestamps(column_family);
}

Status DB::Delete(const WriteOptions& /*options*/, ColumnFamilyHandle* column_family,
                  const Slice& /*key*/, const Slice& /*ts*/) {
  return NoTimestamps(column_family);
}

Status DB::SingleDelete(const WriteOptions& /*options*/, ColumnFamilyHandle* column_family,
                        const Slice& /*key*/, const Slice& /*ts*/) {
  return NoTimestamps(column_family);
}

Status DB::DeleteRange(const WriteOptions& /*options*/, ColumnFamilyHandle* column_family,
                       const Slice& /*begin_key*/, const Slice& /*end_key*/, const Slice& /*ts*/) {
  return NoTimestamps(column_family);
}

Status DB::PutEntity(const WriteOptions& options, ColumnFamilyHandle* column_family,
                     const Slice& key, const WideColumns& columns) {
  // As RocksDB's: a batch holding the entity, written. Strata's batch
  // refuses entities, so the batch's status is the answer.
  WriteBatch batch;
  Status s = batch.PutEntity(column_family, key, columns);
  if (!s.ok()) return s;
  return Write(options, &batch);
}

FileSystem* DB::GetFileSystem() const {
  Env* env = GetEnv();
  return env != nullptr ? env->GetFileSystem().get() : nullptr;
}

Status DB::IncreaseFullHistoryTsLow(ColumnFamilyHandle* /*column_family*/, std::string /*ts_low*/) {
  // No family of a Strata database has user-defined timestamps.
  return Status::InvalidArgument("Timestamp is not enabled in this column family");
}

Status DB::GetFullHistoryTsLow(ColumnFamilyHandle* /*column_family*/, std::string* ts_low) {
  if (ts_low == nullptr) return Status::InvalidArgument("ts_low is nullptr");
  return Status::InvalidArgument("Timestamp is not enabled in this column family");
}

Status DB::OpenAndCompact(const std::string& /*name*/, const std::string& /*output_directory*/,
                          const std::string& /*input*/, std::string* /*output*/,
                          const CompactionServiceOptionsOverride& /*override_options*/) {
  return Status::NotSupported("OpenAndCompact: Strata has no remote compaction service");
}

Status DB::OpenAndCompact(const OpenAndCompactOptions& /*options*/, const std::string& name,
                          const std::string& output_directory, const std::string& input,
                          std::string* output,
                          const CompactionServiceOptionsOverride& override_options) {
  return OpenAndCompact(name, output_directory, input, output, override_options);
}

Status DB::OpenAndTrimHistory(const DBOptions& /*db_options*/, const std::string& /*dbname*/,
                              const std::vector<ColumnFamilyDescriptor>& /*column_families*/,
                              std::vector<ColumnFamilyHandle*>* /*handles*/, DB** dbptr,
                              std::string /*trim_ts*/) {
  if (dbptr != nullptr) *dbptr = nullptr;
  return Status::NotSupported("OpenAndTrimHistory: Strata has no user-defined timestamps");
}

namespace {

using compat::CompatDB;

enum class OpenMode { kReadWrite, kReadOnly, kSecondary };

Status OpenWith(OpenMode mode, const DBOptions& db_options, const std::string& name,
                const std::string& secondary_path,
                const std::vector<ColumnFamilyDescriptor>& column_families,
                std::vector<ColumnFamilyHandle*>* handles, bool error_if_wal_file_exists,
                DB** dbptr) {
  *dbptr = nullptr;
  ::strata::DBOptions sdb;
  std::vector<::strata::ColumnFamilyDescriptor> scfs;
  auto listener_target = std::make_shared<compat::ListenerTarget>();
  Status s = compat::ConvertForOpen(db_options, column_families, listener_target, &sdb, &scfs);
  if (!s.ok()) return s;
  std::unique_ptr<::strata::DB> db;
  switch (mode) {
    case OpenMode::kReadWrite:
      s = ::strata::DB::Open(sdb, name, scfs, handles, &db);
      break;
    case OpenMode::kReadOnly:
      s = ::strata::DB::OpenForReadOnly(sdb, name, scfs, handles, &db, error_if_wal_file_exists);
      break;
    case OpenMode::kSecondary:
      s = ::strata::DB::OpenAsSecondary(sdb, name, secondary_path, scfs, handles, &db);
      break;
  }
  if (!s.ok()) return s;
  auto compat_db = std::make_unique<CompatDB>(std::move(db), db_options);
  compat_db->RememberAll(*handles, column_families);
  listener_target->db.store(compat_db.get(), std::memory_order_release);
  *dbptr = compat_db.release();
  return s;
}

// Opens the default family only (the Open(Options) forms).
Status OpenDefaultOnly(OpenMode mode, const Options& options, const std::string& name,
                       const std::string& secondary_path, bool error_if_wal_file_exists,
                       DB** dbptr) {
  return compat::OpenDefaultFamily(
      options, [&](const DBOptions& db_options, const std::vector<ColumnFamilyDescriptor>& cfs,
                   std::vector<ColumnFamilyHandle*>* handles, DB** db) {
        Status s = OpenWith(mode, db_options, name, secondary_path, cfs, handles,
                            error_if_wal_file_exists, dbptr);
        *db = *dbptr;
        return s;
      });
}

}  // namespace

Status DB::Open(const Options& options, const std::string& name, DB** dbptr) {
  return OpenDefaultOnly(OpenMode::kReadWrite, options, name, "", false, dbptr);
}

Status DB::Open(const DBOptions& db_options, const std::string& name,
                const std::vector<ColumnFamilyDescriptor>& column_families,
                std::vector<ColumnFamilyHandle*>* handles, DB** dbptr) {
  return OpenWith(OpenMode::kReadWrite, db_options, name, "", column_families, handles, false,
                  dbptr);
}

Status DB::OpenForReadOnly(const Options& options, const std::string& name, DB** dbptr,
                           bool error_if_wal_file_exists) {
  return OpenDefaultOnly(OpenMode::kReadOnly, options, name, "", error_if_wal_file_exists, dbptr);
}

Status DB::OpenForReadOnly(const DBOptions& db_options, const std::string& name,
                           const std::vector<ColumnFamilyDescriptor>& column_families,
                           std::vector<ColumnFamilyHandle*>* handles, DB** dbptr,
                           bool error_if_wal_file_exists) {
  return OpenWith(OpenMode::kReadOnly, db_options, name, "", column_families, handles,
                  error_if_wal_file_exists, dbptr);
}

Status DB::OpenAsSecondary(const Options& options, const std::string& name,
                           const std::string& secondary_path, DB** dbptr) {
  return OpenDefaultOnly(OpenMode::kSecondary, options, name, secondary_path, false, dbptr);
}

Status DB::OpenAsSecondary(const DBOptions& db_options, const std::string& name,
                           const std::string& secondary_path,
                           const std::vector<ColumnFamilyDescriptor>& column_families,
                           std::vector<ColumnFamilyHandle*>* handles, DB** dbptr) {
  return OpenWith(OpenMode::kSecondary, db_options, name, secondary_path, column_families, handles,
                  false, dbptr);
}

Status DB::ListColumnFamilies(const DBOptions& db_options, const std::string& name,
                              std::vector<std::string>* column_families) {
  ::strata::DBOptions sdb;
  Status s = compat::ConvertDBOptions(db_options, &sdb);
  if (!s.ok()) return s;
  return ::strata::DB::ListColumnFamilies(sdb, name, column_families);
}

Status DB::CreateColumnFamilies(const ColumnFamilyOptions& options,
                                const std::vector<std::string>& names,
                                std::vector<ColumnFamilyHandle*>* handles) {
  handles->clear();
  for (const std::string& name : names) {
    ColumnFamilyHandle* h = nullptr;
    Status s = CreateColumnFamily(options, name, &h);
    if (!s.ok()) return s;
    handles->push_back(h);
  }
  return Status::OK();
}

Status DB::CreateColumnFamilies(const std::vector<ColumnFamilyDescriptor>& column_families,
                                std::vector<ColumnFamilyHandle*>* handles) {
  handles->clear();
  for (const ColumnFamilyDescriptor& cf : column_families) {
    ColumnFamilyHandle* h = nullptr;
    Status s = CreateColumnFamily(cf.options, cf.name, &h);
    if (!s.ok()) return s;
    handles->push_back(h);
  }
  return Status::OK();
}

Status DB::DropColumnFamilies(const std::vector<ColumnFamilyHandle*>& column_families) {
  for (ColumnFamilyHandle* h : column_families) {
    Status s = DropColumnFamily(h);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

Status DB::GetApproximateSizes(ColumnFamilyHandle* cf, const Range* ranges, int n, uint64_t* sizes,
                               SizeApproximationFlags include_flags) {
  SizeApproximationOptions o;
  const auto flags = static_cast<uint8_t>(include_flags);
  o.include_memtables =
      (flags & static_cast<uint8_t>(SizeApproximationFlags::INCLUDE_MEMTABLES)) != 0;
  o.include_files = (flags & static_cast<uint8_t>(SizeApproximationFlags::INCLUDE_FILES)) != 0;
  return GetApproximateSizes(o, cf, ranges, n, sizes);
}

Status DestroyDB(const std::string& name, const Options& options,
                 const std::vector<ColumnFamilyDescriptor>& /*column_families*/) {
  // Only where the files are matters here: the Env, the WAL and log
  // directories and the paths. Other options are not looked at.
  ::strata::Options o;
  o.env = options.env != nullptr ? options.env->GetStrataEnv() : ::strata::Env::Default();
  o.info_log = options.info_log;
  o.wal_dir = options.wal_dir;
  o.db_log_dir = options.db_log_dir;
  for (const DbPath& p : options.db_paths) o.db_paths.emplace_back(p.path, p.target_size);
  return ::strata::DestroyDB(name, o);
}

Status RepairDB(const std::string& dbname, const Options& options) {
  ::strata::Options o;
  Status s = compat::ConvertOptions(options, &o);
  if (!s.ok()) return s;
  return ::strata::RepairDB(dbname, o);
}

Status RepairDB(const std::string& dbname, const DBOptions& db_options,
                const std::vector<ColumnFamilyDescriptor>& column_families,
                const ColumnFamilyOptions& unknown_cf_opts) {
  ColumnFamilyOptions cf = unknown_cf_opts;
  for (const ColumnFamilyDescriptor& d : column_families) {
    if (d.name == kDefaultColumnFamilyName) cf = d.options;
  }
  return RepairDB(dbname, Options(db_options, cf));
}

Status RepairDB(const std::string& dbname, const DBOptions& db_options,
                const std::vector<ColumnFamilyDescriptor>& column_families) {
  // Strata's repairer rebuilds every family it finds with one set of
  // family options: the default family's when given.
  ColumnFamilyOptions cf;
  for (const ColumnFamilyDescriptor& d : column_families) {
    if (d.name == kDefaultColumnFamilyName) cf = d.options;
  }
  return RepairDB(dbname, Options(db_options, cf));
}

}  // namespace rocksdb
