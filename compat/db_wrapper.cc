// compat/db_wrapper.cc: rocksdb::DB over strata::DB. CompatDB converts each
// call's options and forwards it; the objects it hands out (column family
// handles, iterators, snapshots, statuses) are Strata's own. It remembers
// the RocksDB options it was opened with, for GetOptions.
//
// Thread-safety: as strata::DB; the table of live handles and the options
// remembered per family are guarded by mu_.
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "compat/error_iterator.h"
#include "compat/options_convert.h"
#include "rocksdb/db.h"
#include "strata/db.h"
#include "strata/options.h"

namespace rocksdb {

using ::strata::Status;

const std::string kDefaultColumnFamilyName = "default";

DB::~DB() = default;

namespace {

using compat::ErrorIterator;

class CompatDB final : public DB {
 public:
  CompatDB(std::unique_ptr<::strata::DB> db, const DBOptions& db_options)
      : db_(std::move(db)), db_options_(db_options) {}
  ~CompatDB() override {
    db_.reset();  // closes the Strata database
  }

  // Called while opening: the families and the options they were opened with.
  void Remember(ColumnFamilyHandle* handle, const ColumnFamilyOptions& options) {
    std::lock_guard<std::mutex> lock(mu_);
    cf_options_[handle->GetName()] = options;
  }

  Status Resume() override { return db_->Resume(); }
  Status Close() override { return db_->Close(); }

  Status CreateColumnFamily(const ColumnFamilyOptions& options, const std::string& name,
                            ColumnFamilyHandle** handle) override {
    ::strata::ColumnFamilyOptions cf;
    Status s = compat::ConvertCFOptions(options, &cf);
    if (!s.ok()) return s;
    cf.max_subcompactions = db_options_.max_subcompactions;
    s = db_->CreateColumnFamily(cf, name, handle);
    if (s.ok()) {
      Remember(*handle, options);
      TrackHandle(*handle);
    }
    return s;
  }
  Status DropColumnFamily(ColumnFamilyHandle* cf) override {
    Status s = db_->DropColumnFamily(cf);
    if (s.ok()) ForgetHandle(cf);
    return s;
  }
  Status DestroyColumnFamilyHandle(ColumnFamilyHandle* cf) override {
    ForgetHandle(cf);
    return db_->DestroyColumnFamilyHandle(cf);
  }

  Status Put(const WriteOptions& options, ColumnFamilyHandle* cf, const Slice& key,
             const Slice& value) override {
    ::strata::WriteOptions wo;
    Status s = compat::ConvertWriteOptions(options, &wo);
    return s.ok() ? db_->Put(wo, cf, key, value) : s;
  }
  Status Delete(const WriteOptions& options, ColumnFamilyHandle* cf, const Slice& key) override {
    ::strata::WriteOptions wo;
    Status s = compat::ConvertWriteOptions(options, &wo);
    return s.ok() ? db_->Delete(wo, cf, key) : s;
  }
  Status SingleDelete(const WriteOptions& options, ColumnFamilyHandle* cf,
                      const Slice& key) override {
    ::strata::WriteOptions wo;
    Status s = compat::ConvertWriteOptions(options, &wo);
    return s.ok() ? db_->SingleDelete(wo, cf, key) : s;
  }
  Status DeleteRange(const WriteOptions& options, ColumnFamilyHandle* cf, const Slice& begin,
                     const Slice& end) override {
    ::strata::WriteOptions wo;
    Status s = compat::ConvertWriteOptions(options, &wo);
    return s.ok() ? db_->DeleteRange(wo, cf, begin, end) : s;
  }
  Status Merge(const WriteOptions& options, ColumnFamilyHandle* cf, const Slice& key,
               const Slice& value) override {
    ::strata::WriteOptions wo;
    Status s = compat::ConvertWriteOptions(options, &wo);
    return s.ok() ? db_->Merge(wo, cf, key, value) : s;
  }
  Status Write(const WriteOptions& options, WriteBatch* updates) override {
    ::strata::WriteOptions wo;
    Status s = compat::ConvertWriteOptions(options, &wo);
    return s.ok() ? db_->Write(wo, updates) : s;
  }

  using DB::Get;
  Status Get(const ReadOptions& options, ColumnFamilyHandle* cf, const Slice& key,
             PinnableSlice* value) override {
    ::strata::ReadOptions ro;
    Status s = compat::ConvertReadOptions(options, &ro);
    return s.ok() ? db_->Get(ro, cf, key, value) : s;
  }
  Status GetMergeOperands(const ReadOptions& options, ColumnFamilyHandle* cf, const Slice& key,
                          PinnableSlice* operands, GetMergeOperandsOptions* gmo,
                          int* number_of_operands) override {
    ::strata::ReadOptions ro;
    Status s = compat::ConvertReadOptions(options, &ro);
    return s.ok() ? db_->GetMergeOperands(ro, cf, key, operands, gmo, number_of_operands) : s;
  }

  using DB::MultiGet;
  std::vector<Status> MultiGet(const ReadOptions& options,
                               const std::vector<ColumnFamilyHandle*>& cfs,
                               const std::vector<Slice>& keys,
                               std::vector<std::string>* values) override {
    ::strata::ReadOptions ro;
    Status s = compat::ConvertReadOptions(options, &ro);
    if (!s.ok()) {
      values->assign(keys.size(), std::string());
      return std::vector<Status>(keys.size(), s);
    }
    return db_->MultiGet(ro, cfs, keys, values);
  }
  void MultiGet(const ReadOptions& options, ColumnFamilyHandle* cf, const size_t num_keys,
                const Slice* keys, PinnableSlice* values, Status* statuses,
                const bool sorted_input) override {
    ::strata::ReadOptions ro;
    Status s = compat::ConvertReadOptions(options, &ro);
    if (!s.ok()) {
      for (size_t i = 0; i < num_keys; i++) statuses[i] = s;
      return;
    }
    db_->MultiGet(ro, cf, num_keys, keys, values, statuses, sorted_input);
  }
  void MultiGet(const ReadOptions& options, const size_t num_keys, ColumnFamilyHandle** cfs,
                const Slice* keys, PinnableSlice* values, Status* statuses,
                const bool sorted_input) override {
    ::strata::ReadOptions ro;
    Status s = compat::ConvertReadOptions(options, &ro);
    if (!s.ok()) {
      for (size_t i = 0; i < num_keys; i++) statuses[i] = s;
      return;
    }
    db_->MultiGet(ro, num_keys, cfs, keys, values, statuses, sorted_input);
  }

  using DB::KeyMayExist;
  bool KeyMayExist(const ReadOptions& options, ColumnFamilyHandle* cf, const Slice& key,
                   std::string* value, bool* value_found) override {
    ::strata::ReadOptions ro;
    if (!compat::ConvertReadOptions(options, &ro).ok()) {
      if (value_found != nullptr) *value_found = false;
      return true;  // "may exist" is always a correct answer
    }
    return db_->KeyMayExist(ro, cf, key, value, value_found);
  }

  using DB::NewIterator;
  Iterator* NewIterator(const ReadOptions& options, ColumnFamilyHandle* cf) override {
    ::strata::ReadOptions ro;
    Status s = compat::ConvertReadOptions(options, &ro);
    if (!s.ok()) return new ErrorIterator(std::move(s));
    return db_->NewIterator(ro, cf).release();
  }
  Status NewIterators(const ReadOptions& options, const std::vector<ColumnFamilyHandle*>& cfs,
                      std::vector<Iterator*>* iterators) override {
    iterators->clear();
    ::strata::ReadOptions ro;
    Status s = compat::ConvertReadOptions(options, &ro);
    if (!s.ok()) return s;
    std::vector<std::unique_ptr<Iterator>> owned;
    s = db_->NewIterators(ro, cfs, &owned);
    if (!s.ok()) return s;
    for (auto& it : owned) iterators->push_back(it.release());
    return s;
  }

  const Snapshot* GetSnapshot() override { return db_->GetSnapshot(); }
  void ReleaseSnapshot(const Snapshot* snapshot) override { db_->ReleaseSnapshot(snapshot); }

  using DB::GetProperty;
  bool GetProperty(ColumnFamilyHandle* cf, const Slice& property, std::string* value) override {
    return db_->GetProperty(cf, property, value);
  }
  using DB::GetMapProperty;
  bool GetMapProperty(ColumnFamilyHandle* cf, const Slice& property,
                      std::map<std::string, std::string>* value) override {
    return db_->GetMapProperty(cf, property, value);
  }
  using DB::GetIntProperty;
  bool GetIntProperty(ColumnFamilyHandle* cf, const Slice& property, uint64_t* value) override {
    return db_->GetIntProperty(cf, property, value);
  }
  bool GetAggregatedIntProperty(const Slice& property, uint64_t* value) override {
    // The default family and every other family with a live handle from
    // this object.
    uint64_t sum = 0;
    if (!db_->GetIntProperty(db_->DefaultColumnFamily(), property, &sum)) return false;
    std::lock_guard<std::mutex> lock(mu_);
    for (ColumnFamilyHandle* h : handles_) {
      if (h->GetName() == kDefaultColumnFamilyName) continue;
      uint64_t v = 0;
      if (!db_->GetIntProperty(h, property, &v)) return false;
      sum += v;
    }
    *value = sum;
    return true;
  }
  void TrackHandle(ColumnFamilyHandle* h) {
    std::lock_guard<std::mutex> lock(mu_);
    handles_.insert(h);
  }
  void ForgetHandle(ColumnFamilyHandle* h) {
    std::lock_guard<std::mutex> lock(mu_);
    handles_.erase(h);
  }

  using DB::GetApproximateSizes;
  Status GetApproximateSizes(const SizeApproximationOptions& options, ColumnFamilyHandle* cf,
                             const Range* ranges, int n, uint64_t* sizes) override {
    ::strata::SizeApproximationOptions o;
    o.include_memtables = options.include_memtables;
    o.include_files = options.include_files;
    o.files_size_error_margin = options.files_size_error_margin;
    return db_->GetApproximateSizes(o, cf, ranges, n, sizes);
  }
  using DB::GetApproximateMemTableStats;
  void GetApproximateMemTableStats(ColumnFamilyHandle* cf, const Range& range,
                                   uint64_t* const count, uint64_t* const size) override {
    db_->GetApproximateMemTableStats(cf, range, count, size);
  }

  using DB::CompactRange;
  Status CompactRange(const CompactRangeOptions& options, ColumnFamilyHandle* cf,
                      const Slice* begin, const Slice* end) override {
    ::strata::CompactRangeOptions o;
    Status s = compat::ConvertCompactRangeOptions(options, &o);
    return s.ok() ? db_->CompactRange(o, cf, begin, end) : s;
  }
  using DB::SetOptions;
  Status SetOptions(ColumnFamilyHandle* cf,
                    const std::unordered_map<std::string, std::string>& new_options) override {
    return db_->SetOptions(cf, new_options);
  }
  Status SetDBOptions(const std::unordered_map<std::string, std::string>& new_options) override {
    return db_->SetDBOptions(new_options);
  }
  using DB::CompactFiles;
  Status CompactFiles(const CompactionOptions& options, ColumnFamilyHandle* cf,
                      const std::vector<std::string>& input_file_names, const int output_level,
                      const int output_path_id,
                      std::vector<std::string>* const output_file_names) override {
    ::strata::CompactionOptions o;
    o.compression = static_cast<::strata::CompressionType>(options.compression);
    o.output_file_size_limit = options.output_file_size_limit;
    o.max_subcompactions = options.max_subcompactions;
    return db_->CompactFiles(o, cf, input_file_names, output_level, output_path_id,
                             output_file_names);
  }
  Status PauseBackgroundWork() override { return db_->PauseBackgroundWork(); }
  Status ContinueBackgroundWork() override { return db_->ContinueBackgroundWork(); }
  Status EnableAutoCompaction(const std::vector<ColumnFamilyHandle*>& handles) override {
    return db_->EnableAutoCompaction(handles);
  }
  using DB::NumberLevels;
  int NumberLevels(ColumnFamilyHandle* cf) override { return db_->NumberLevels(cf); }
  using DB::MaxMemCompactionLevel;
  int MaxMemCompactionLevel(ColumnFamilyHandle* cf) override {
    return db_->MaxMemCompactionLevel(cf);
  }
  using DB::Level0StopWriteTrigger;
  int Level0StopWriteTrigger(ColumnFamilyHandle* cf) override {
    return db_->Level0StopWriteTrigger(cf);
  }

  const std::string& GetName() const override { return db_->GetName(); }
  Env* GetEnv() const override { return db_->GetEnv(); }
  using DB::GetOptions;
  Options GetOptions(ColumnFamilyHandle* cf) const override {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = cf_options_.find(cf->GetName());
    return Options(db_options_, it != cf_options_.end() ? it->second : ColumnFamilyOptions());
  }
  DBOptions GetDBOptions() const override { return db_options_; }

  using DB::Flush;
  Status Flush(const FlushOptions& options, ColumnFamilyHandle* cf) override {
    ::strata::FlushOptions o;
    o.wait = options.wait;
    return db_->Flush(o, cf);
  }
  Status Flush(const FlushOptions& options, const std::vector<ColumnFamilyHandle*>& cfs) override {
    for (ColumnFamilyHandle* cf : cfs) {
      Status s = Flush(options, cf);
      if (!s.ok()) return s;
    }
    return Status::OK();
  }
  Status FlushWAL(bool sync) override { return db_->FlushWAL(sync); }
  Status SyncWAL() override { return db_->SyncWAL(); }
  SequenceNumber GetLatestSequenceNumber() const override { return db_->GetLatestSequenceNumber(); }
  Status DisableFileDeletions() override { return db_->DisableFileDeletions(); }
  Status EnableFileDeletions(bool force) override { return db_->EnableFileDeletions(force); }
  Status GetLiveFiles(std::vector<std::string>& files, uint64_t* manifest_file_size,
                      bool flush_memtable) override {
    return db_->GetLiveFiles(&files, manifest_file_size, flush_memtable);
  }
  Status GetSortedWalFiles(VectorLogPtr& files) override { return db_->GetSortedWalFiles(files); }
  Status GetUpdatesSince(SequenceNumber seq, std::unique_ptr<TransactionLogIterator>* iter,
                         const TransactionLogIterator::ReadOptions& read_options) override {
    return db_->GetUpdatesSince(seq, iter, read_options);
  }
  void GetLiveFilesMetaData(std::vector<LiveFileMetaData>* metadata) override {
    db_->GetLiveFilesMetaData(metadata);
  }
  using DB::GetColumnFamilyMetaData;
  void GetColumnFamilyMetaData(ColumnFamilyHandle* cf, ColumnFamilyMetaData* metadata) override {
    db_->GetColumnFamilyMetaData(cf, metadata);
  }
  using DB::IngestExternalFile;
  Status IngestExternalFile(ColumnFamilyHandle* cf, const std::vector<std::string>& files,
                            const IngestExternalFileOptions& options) override {
    ::strata::IngestExternalFileOptions o;
    Status s = compat::ConvertIngestOptions(options, &o);
    return s.ok() ? db_->IngestExternalFile(cf, files, o) : s;
  }
  using DB::VerifyChecksum;
  Status VerifyChecksum(const ReadOptions& options) override {
    ::strata::ReadOptions ro;
    Status s = compat::ConvertReadOptions(options, &ro);
    return s.ok() ? db_->VerifyChecksum(ro) : s;
  }
  Status GetDbIdentity(std::string& identity) const override {
    return db_->GetDbIdentity(&identity);
  }
  Status GetDbSessionId(std::string& session_id) const override {
    return db_->GetDbSessionId(&session_id);
  }
  ColumnFamilyHandle* DefaultColumnFamily() const override { return db_->DefaultColumnFamily(); }
  using DB::GetPropertiesOfAllTables;
  Status GetPropertiesOfAllTables(ColumnFamilyHandle* cf,
                                  TablePropertiesCollection* props) override {
    return db_->GetPropertiesOfAllTables(cf, props);
  }
  Status GetPropertiesOfTablesInRange(ColumnFamilyHandle* cf, const Range* range, std::size_t n,
                                      TablePropertiesCollection* props) override {
    return db_->GetPropertiesOfTablesInRange(cf, range, n, props);
  }
  Status TryCatchUpWithPrimary() override { return db_->TryCatchUpWithPrimary(); }
  ::strata::DB* GetStrataDB() const override { return db_.get(); }

 private:
  std::unique_ptr<::strata::DB> db_;
  const DBOptions db_options_;
  mutable std::mutex mu_;
  std::map<std::string, ColumnFamilyOptions> cf_options_;  // guarded by mu_
  std::set<ColumnFamilyHandle*> handles_;                  // guarded by mu_
};

enum class OpenMode { kReadWrite, kReadOnly, kSecondary };

Status OpenWith(OpenMode mode, const DBOptions& db_options, const std::string& name,
                const std::string& secondary_path,
                const std::vector<ColumnFamilyDescriptor>& column_families,
                std::vector<ColumnFamilyHandle*>* handles, bool error_if_wal_file_exists,
                DB** dbptr) {
  *dbptr = nullptr;
  ::strata::DBOptions sdb;
  Status s = compat::ConvertDBOptions(db_options, &sdb);
  if (!s.ok()) return s;
  std::vector<::strata::ColumnFamilyDescriptor> scfs;
  for (const ColumnFamilyDescriptor& cf : column_families) {
    ::strata::ColumnFamilyOptions o;
    s = compat::ConvertCFOptions(cf.options, &o);
    if (!s.ok()) return s;
    o.max_subcompactions = db_options.max_subcompactions;
    scfs.emplace_back(cf.name, o);
  }
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
  for (size_t i = 0; i < handles->size() && i < column_families.size(); i++) {
    compat_db->Remember((*handles)[i], column_families[i].options);
    compat_db->TrackHandle((*handles)[i]);
  }
  *dbptr = compat_db.release();
  return s;
}

// Opens the default family only; the handle Strata returns for it is the
// DB's own default handle and is not the caller's to release.
Status OpenDefaultOnly(OpenMode mode, const Options& options, const std::string& name,
                       const std::string& secondary_path, bool error_if_wal_file_exists,
                       DB** dbptr) {
  std::vector<ColumnFamilyDescriptor> cfs;
  cfs.emplace_back(kDefaultColumnFamilyName, ColumnFamilyOptions(options));
  std::vector<ColumnFamilyHandle*> handles;
  Status s = OpenWith(mode, DBOptions(options), name, secondary_path, cfs, &handles,
                      error_if_wal_file_exists, dbptr);
  if (s.ok()) {
    for (ColumnFamilyHandle* h : handles) {
      if (h != (*dbptr)->DefaultColumnFamily())
        (*dbptr)->DestroyColumnFamilyHandle(h).PermitUncheckedError();
    }
  }
  return s;
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
  o.env = options.env != nullptr ? options.env : ::strata::Env::Default();
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
