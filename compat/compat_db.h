// compat/compat_db.h: the object DB::Open returns. CompatDBT<Base>
// implements rocksdb::DB (or a subclass of it, such as TransactionDB) over
// a strata::DB: it converts each call's options and forwards it; the
// objects it hands out (column family handles, iterators, snapshots,
// statuses) are Strata's own. It remembers the RocksDB options it was
// opened with, for GetOptions.
//
// Thread-safety: as strata::DB; the table of live handles and the options
// remembered per family are guarded by mu_.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "compat/error_iterator.h"
#include "compat/options_convert.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "strata/db.h"
#include "strata/options.h"
#include "strata/table_properties.h"

namespace rocksdb {
namespace compat {

using ::strata::Status;

// The handles this layer handed out, each with the DB that handed it out:
// ColumnFamilyHandle::GetDescriptor (GetColumnFamilyDescriptor in
// rocksdb/db.h) asks that DB for the family's options. Thread-safe.
void RememberHandle(const ColumnFamilyHandle* handle, const DB* db);
void ForgetHandle(const ColumnFamilyHandle* handle);
void ForgetHandlesOf(const DB* db);

template <class Base>
class CompatDBT : public Base {
 public:
  // base_args: Base's constructor arguments (for a StackableDB, the DB
  // under it).
  template <class... BaseArgs>
  CompatDBT(std::unique_ptr<::strata::DB> db, const DBOptions& db_options, BaseArgs&&... base_args)
      : Base(std::forward<BaseArgs>(base_args)...),
        owned_(std::move(db)),
        db_(owned_.get()),
        db_options_(db_options) {
    RememberDefaultHandle();
  }
  // A view of a Strata database owned elsewhere (deleting the view leaves
  // it open): the DB under a TransactionDB, for GetBaseDB.
  struct Borrow {};
  CompatDBT(Borrow, ::strata::DB* db, const DBOptions& db_options)
      : db_(db), db_options_(db_options) {
    RememberDefaultHandle();
  }
  ~CompatDBT() override {
    ForgetHandlesOf(this);
    owned_.reset();  // closes the Strata database (when owned)
  }

  // Takes the Strata database (for subclasses that keep a typed pointer to
  // it and construct with null).
  void Adopt(std::unique_ptr<::strata::DB> db) {
    owned_ = std::move(db);
    db_ = owned_.get();
    RememberDefaultHandle();
  }
  // The DB's own default handle, for GetDescriptor: once, not per
  // DefaultColumnFamily call (DB::Put and the other default-family forms
  // call it each time).
  void RememberDefaultHandle() {
    if (db_ != nullptr) RememberHandle(db_->DefaultColumnFamily(), this);
  }

  // Called while opening: the families and the options they were opened with.
  void Remember(ColumnFamilyHandle* handle, const ColumnFamilyOptions& options) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      cf_options_[handle->GetName()] = options;
    }
    RememberHandle(handle, this);
  }
  // Remember for every family of a successful Open (handles[i] opened
  // column_families[i]).
  void RememberAll(const std::vector<ColumnFamilyHandle*>& handles,
                   const std::vector<ColumnFamilyDescriptor>& column_families) {
    for (size_t i = 0; i < handles.size() && i < column_families.size(); i++) {
      Remember(handles[i], column_families[i].options);
    }
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
    if (s.ok()) Remember(*handle, options);
    return s;
  }
  Status DropColumnFamily(ColumnFamilyHandle* cf) override { return db_->DropColumnFamily(cf); }
  // DB's loops over the calls above (named here so that, under a
  // StackableDB base, they reach this object and not the DB under it).
  Status CreateColumnFamilies(const ColumnFamilyOptions& options,
                              const std::vector<std::string>& names,
                              std::vector<ColumnFamilyHandle*>* handles) override {
    return DB::CreateColumnFamilies(options, names, handles);
  }
  Status CreateColumnFamilies(const std::vector<ColumnFamilyDescriptor>& column_families,
                              std::vector<ColumnFamilyHandle*>* handles) override {
    return DB::CreateColumnFamilies(column_families, handles);
  }
  Status DropColumnFamilies(const std::vector<ColumnFamilyHandle*>& column_families) override {
    return DB::DropColumnFamilies(column_families);
  }
  Status ResetStats() override { return DB::ResetStats(); }
  // A plain `delete` of a handle works as well (Strata's handles release
  // their family when deleted, as RocksDB's do).
  Status DestroyColumnFamilyHandle(ColumnFamilyHandle* cf) override {
    if (cf != db_->DefaultColumnFamily()) ForgetHandle(cf);
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
  using Base::Write;  // TransactionDB's Write with optimizations stays visible
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
  // Strata stores plain values only: the value, as one anonymous column.
  Status GetEntity(const ReadOptions& options, ColumnFamilyHandle* cf, const Slice& key,
                   PinnableWideColumns* columns) override {
    if (cf == nullptr) {
      return Status::InvalidArgument("Cannot call GetEntity without a column family handle");
    }
    if (columns == nullptr) {
      return Status::InvalidArgument("Cannot call GetEntity without a PinnableWideColumns object");
    }
    columns->Reset();
    PinnableSlice value;
    Status s = Get(options, cf, key, &value);
    if (!s.ok()) return s;
    columns->SetPlainValue(value);
    return s;
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
    return db_->GetAggregatedIntProperty(property, value);
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
    Status s = db_->SetOptions(cf, new_options);
    if (!s.ok()) return s;
    // GetOptions (and GetDescriptor) then answer the new values, as
    // RocksDB's do: the remembered options take the same map.
    std::lock_guard<std::mutex> lock(mu_);
    auto it = cf_options_.find(cf->GetName());
    ColumnFamilyOptions base = it != cf_options_.end() ? it->second : ColumnFamilyOptions();
    ColumnFamilyOptions updated;
    ConfigOptions config;
    config.ignore_unknown_options = true;
    if (GetColumnFamilyOptionsFromMap(config, base, new_options, &updated).ok()) {
      cf_options_[cf->GetName()] = updated;
    }
    return s;
  }
  Status SetDBOptions(const std::unordered_map<std::string, std::string>& new_options) override {
    return db_->SetDBOptions(new_options);
  }
  using DB::CompactFiles;
  Status CompactFiles(const CompactionOptions& options, ColumnFamilyHandle* cf,
                      const std::vector<std::string>& input_file_names, const int output_level,
                      const int output_path_id, std::vector<std::string>* const output_file_names,
                      CompactionJobInfo* compaction_job_info) override {
    if (compaction_job_info != nullptr) {
      return Status::NotSupported(
          "CompactFiles: compaction_job_info is not supported by Strata: only its default value "
          "is accepted");
    }
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
  Env* GetEnv() const override {
    return db_options_.env != nullptr ? db_options_.env : Env::Default();
  }
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
  Status LockWAL() override { return db_->LockWAL(); }
  Status UnlockWAL() override { return db_->UnlockWAL(); }
  Status GetCreationTimeOfOldestFile(uint64_t* creation_time) override {
    return db_->GetCreationTimeOfOldestFile(creation_time);
  }
  Status GetCurrentWalFile(std::unique_ptr<LogFile>* current_log_file) override {
    return db_->GetCurrentWalFile(current_log_file);
  }
  Status GetLiveFilesStorageInfo(const LiveFilesStorageInfoOptions& opts,
                                 std::vector<LiveFileStorageInfo>* files) override {
    return db_->GetLiveFilesStorageInfo(opts, files);
  }
  void GetAllColumnFamilyMetaData(std::vector<ColumnFamilyMetaData>* metadata) override {
    db_->GetAllColumnFamilyMetaData(metadata);
  }
  Status IngestExternalFiles(const std::vector<IngestExternalFileArg>& args) override {
    std::vector<::strata::IngestExternalFileArg> converted(args.size());
    for (size_t i = 0; i < args.size(); i++) {
      if (!args[i].files_checksums.empty() || !args[i].files_checksum_func_names.empty()) {
        return Status::NotSupported(
            "IngestExternalFileArg::files_checksums is not supported by Strata: only its default "
            "value is accepted");
      }
      if (args[i].file_temperature != Temperature::kUnknown) {
        return Status::NotSupported(
            "IngestExternalFileArg::file_temperature is not supported by Strata: only its "
            "default value is accepted");
      }
      converted[i].column_family = args[i].column_family;
      converted[i].external_files = args[i].external_files;
      Status s = compat::ConvertIngestOptions(args[i].options, &converted[i].options);
      if (!s.ok()) return s;
    }
    return db_->IngestExternalFiles(converted);
  }
  Status CreateColumnFamilyWithImport(const ColumnFamilyOptions& options, const std::string& name,
                                      const ImportColumnFamilyOptions& import_options,
                                      const ExportImportFilesMetaData& metadata,
                                      ColumnFamilyHandle** handle) override {
    ::strata::ColumnFamilyOptions cf;
    Status s = compat::ConvertCFOptions(options, &cf);
    if (!s.ok()) return s;
    cf.max_subcompactions = db_options_.max_subcompactions;
    s = db_->CreateColumnFamilyWithImport(cf, name, import_options, metadata, handle);
    if (s.ok()) Remember(*handle, options);
    return s;
  }
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
    // Strata knows the entry counts only of the tables this process wrote;
    // RocksDB's come from each table's properties: read those for the
    // others of the default family.
    bool unknown = false;
    for (const LiveFileMetaData& m : *metadata) unknown = unknown || m.num_entries == 0;
    if (!unknown) return;
    std::vector<ColumnFamilyHandle*> families{db_->DefaultColumnFamily()};
    for (ColumnFamilyHandle* h : families) {
      ::strata::TablePropertiesCollection props;
      if (!db_->GetPropertiesOfAllTables(h, &props).ok()) continue;
      for (LiveFileMetaData& m : *metadata) {
        if (m.num_entries != 0 || m.column_family_name != h->GetName()) continue;
        auto it = props.find(m.db_path + m.name);
        if (it == props.end() || it->second == nullptr) continue;
        m.num_entries = it->second->num_entries;
        m.num_deletions = it->second->num_deletions;
      }
    }
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
  Status DeleteFile(std::string name) override { return db_->DeleteFile(std::move(name)); }
  Status SuggestCompactRange(ColumnFamilyHandle* cf, const Slice* begin,
                             const Slice* end) override {
    return db_->SuggestCompactRange(cf, begin, end);
  }
  Status PromoteL0(ColumnFamilyHandle* cf, int target_level) override {
    return db_->PromoteL0(cf, target_level);
  }
  void DisableManualCompaction() override { db_->DisableManualCompaction(); }
  void EnableManualCompaction() override { db_->EnableManualCompaction(); }
  // Full-file checksums (rocksdb/file_checksum.h).
  Status GetLiveFilesChecksumInfo(FileChecksumList* checksum_list) override {
    return db_->GetLiveFilesChecksumInfo(checksum_list);
  }
  Status VerifyFileChecksums(const ReadOptions& options) override {
    ::strata::ReadOptions ro;
    Status s = compat::ConvertReadOptions(options, &ro);
    return s.ok() ? db_->VerifyFileChecksums(ro) : s;
  }
  ::strata::DB* GetStrataDB() const override { return db_; }

 private:
  std::unique_ptr<::strata::DB> owned_;  // null for a view (Borrow)
  ::strata::DB* db_;                     // owned_, or the borrowed database
  const DBOptions db_options_;
  mutable std::mutex mu_;
  std::map<std::string, ColumnFamilyOptions> cf_options_;  // guarded by mu_
};

using CompatDB = CompatDBT<DB>;

// Opens the default family only, as the Open(Options) forms do: `open`
// takes (DBOptions, families, handles, DB**) and opens with families. The
// handle returned for the default family is released (the DB keeps its
// own).
template <class OpenFn>
Status OpenDefaultFamily(const Options& options, OpenFn open) {
  std::vector<ColumnFamilyDescriptor> cfs;
  cfs.emplace_back(kDefaultColumnFamilyName, ColumnFamilyOptions(options));
  std::vector<ColumnFamilyHandle*> handles;
  DB* db = nullptr;
  Status s = open(DBOptions(options), cfs, &handles, &db);
  if (s.ok()) {
    for (ColumnFamilyHandle* h : handles) {
      if (h != db->DefaultColumnFamily()) db->DestroyColumnFamilyHandle(h).PermitUncheckedError();
    }
  }
  return s;
}

}  // namespace compat
}  // namespace rocksdb
