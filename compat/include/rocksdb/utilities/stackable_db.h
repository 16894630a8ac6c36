// rocksdb/utilities/stackable_db.h: RocksDB 7.8.3's StackableDB, a DB that
// forwards every call to the DB under it, so a wrapper (a user's, or
// DBWithTTL) overrides only what it changes.
//
// Ownership: StackableDB(DB*) owns the DB under it and deletes it when
// destroyed; StackableDB(std::shared_ptr<DB>) shares it. Close() closes the
// DB under it.
// GetStrataDB() is the Strata database of the DB underneath: the utilities
// that work on a Strata database (Checkpoint, BackupEngine,
// WriteBatchWithIndex::GetFromBatchAndDB) reach it directly, not through a
// wrapper's overrides, except where the wrapper is itself built on a Strata
// stack (DBWithTTL).
// Thread-safety: as the DB under it.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/rocksdb_namespace.h"

namespace rocksdb {

class StackableDB : public DB {
 public:
  explicit StackableDB(DB* db) : db_(db) {}
  explicit StackableDB(std::shared_ptr<DB> db) : db_(db.get()), shared_db_ptr_(std::move(db)) {}
  ~StackableDB() override {
    if (shared_db_ptr_ == nullptr) delete db_;
    db_ = nullptr;
  }

  Status Close() override { return db_->Close(); }
  virtual DB* GetBaseDB() { return db_; }
  DB* GetRootDB() override { return db_->GetRootDB(); }
  ::strata::DB* GetStrataDB() const override { return db_->GetStrataDB(); }
  Status Resume() override { return db_->Resume(); }

  Status CreateColumnFamily(const ColumnFamilyOptions& options, const std::string& name,
                            ColumnFamilyHandle** handle) override {
    return db_->CreateColumnFamily(options, name, handle);
  }
  Status CreateColumnFamilies(const ColumnFamilyOptions& options,
                              const std::vector<std::string>& names,
                              std::vector<ColumnFamilyHandle*>* handles) override {
    return db_->CreateColumnFamilies(options, names, handles);
  }
  Status CreateColumnFamilies(const std::vector<ColumnFamilyDescriptor>& column_families,
                              std::vector<ColumnFamilyHandle*>* handles) override {
    return db_->CreateColumnFamilies(column_families, handles);
  }
  Status DropColumnFamily(ColumnFamilyHandle* column_family) override {
    return db_->DropColumnFamily(column_family);
  }
  Status DropColumnFamilies(const std::vector<ColumnFamilyHandle*>& column_families) override {
    return db_->DropColumnFamilies(column_families);
  }
  Status DestroyColumnFamilyHandle(ColumnFamilyHandle* column_family) override {
    return db_->DestroyColumnFamilyHandle(column_family);
  }

  using DB::Put;
  Status Put(const WriteOptions& options, ColumnFamilyHandle* column_family, const Slice& key,
             const Slice& value) override {
    return db_->Put(options, column_family, key, value);
  }
  Status Put(const WriteOptions& options, ColumnFamilyHandle* column_family, const Slice& key,
             const Slice& ts, const Slice& value) override {
    return db_->Put(options, column_family, key, ts, value);
  }
  using DB::Delete;
  Status Delete(const WriteOptions& options, ColumnFamilyHandle* column_family,
                const Slice& key) override {
    return db_->Delete(options, column_family, key);
  }
  Status Delete(const WriteOptions& options, ColumnFamilyHandle* column_family, const Slice& key,
                const Slice& ts) override {
    return db_->Delete(options, column_family, key, ts);
  }
  using DB::SingleDelete;
  Status SingleDelete(const WriteOptions& options, ColumnFamilyHandle* column_family,
                      const Slice& key) override {
    return db_->SingleDelete(options, column_family, key);
  }
  Status SingleDelete(const WriteOptions& options, ColumnFamilyHandle* column_family,
                      const Slice& key, const Slice& ts) override {
    return db_->SingleDelete(options, column_family, key, ts);
  }
  using DB::DeleteRange;
  Status DeleteRange(const WriteOptions& options, ColumnFamilyHandle* column_family,
                     const Slice& begin_key, const Slice& end_key) override {
    return db_->DeleteRange(options, column_family, begin_key, end_key);
  }
  Status DeleteRange(const WriteOptions& options, ColumnFamilyHandle* column_family,
                     const Slice& begin_key, const Slice& end_key, const Slice& ts) override {
    return db_->DeleteRange(options, column_family, begin_key, end_key, ts);
  }
  using DB::Merge;
  Status Merge(const WriteOptions& options, ColumnFamilyHandle* column_family, const Slice& key,
               const Slice& value) override {
    return db_->Merge(options, column_family, key, value);
  }
  Status Merge(const WriteOptions& options, ColumnFamilyHandle* column_family, const Slice& key,
               const Slice& ts, const Slice& value) override {
    return db_->Merge(options, column_family, key, ts, value);
  }
  Status Write(const WriteOptions& options, WriteBatch* updates) override {
    return db_->Write(options, updates);
  }

  using DB::Get;
  Status Get(const ReadOptions& options, ColumnFamilyHandle* column_family, const Slice& key,
             PinnableSlice* value) override {
    return db_->Get(options, column_family, key, value);
  }
  Status Get(const ReadOptions& options, ColumnFamilyHandle* column_family, const Slice& key,
             PinnableSlice* value, std::string* timestamp) override {
    return db_->Get(options, column_family, key, value, timestamp);
  }
  Status GetMergeOperands(const ReadOptions& options, ColumnFamilyHandle* column_family,
                          const Slice& key, PinnableSlice* merge_operands,
                          GetMergeOperandsOptions* get_merge_operands_options,
                          int* number_of_operands) override {
    return db_->GetMergeOperands(options, column_family, key, merge_operands,
                                 get_merge_operands_options, number_of_operands);
  }
  using DB::MultiGet;
  std::vector<Status> MultiGet(const ReadOptions& options,
                               const std::vector<ColumnFamilyHandle*>& column_family,
                               const std::vector<Slice>& keys,
                               std::vector<std::string>* values) override {
    return db_->MultiGet(options, column_family, keys, values);
  }
  std::vector<Status> MultiGet(const ReadOptions& options,
                               const std::vector<ColumnFamilyHandle*>& column_family,
                               const std::vector<Slice>& keys, std::vector<std::string>* values,
                               std::vector<std::string>* timestamps) override {
    return db_->MultiGet(options, column_family, keys, values, timestamps);
  }
  void MultiGet(const ReadOptions& options, ColumnFamilyHandle* column_family,
                const size_t num_keys, const Slice* keys, PinnableSlice* values, Status* statuses,
                const bool sorted_input = false) override {
    db_->MultiGet(options, column_family, num_keys, keys, values, statuses, sorted_input);
  }
  void MultiGet(const ReadOptions& options, const size_t num_keys,
                ColumnFamilyHandle** column_families, const Slice* keys, PinnableSlice* values,
                Status* statuses, const bool sorted_input = false) override {
    db_->MultiGet(options, num_keys, column_families, keys, values, statuses, sorted_input);
  }
  using DB::KeyMayExist;
  bool KeyMayExist(const ReadOptions& options, ColumnFamilyHandle* column_family, const Slice& key,
                   std::string* value, bool* value_found = nullptr) override {
    return db_->KeyMayExist(options, column_family, key, value, value_found);
  }
  bool KeyMayExist(const ReadOptions& options, ColumnFamilyHandle* column_family, const Slice& key,
                   std::string* value, std::string* timestamp,
                   bool* value_found = nullptr) override {
    return db_->KeyMayExist(options, column_family, key, value, timestamp, value_found);
  }

  using DB::NewIterator;
  Iterator* NewIterator(const ReadOptions& options, ColumnFamilyHandle* column_family) override {
    return db_->NewIterator(options, column_family);
  }
  Status NewIterators(const ReadOptions& options,
                      const std::vector<ColumnFamilyHandle*>& column_families,
                      std::vector<Iterator*>* iterators) override {
    return db_->NewIterators(options, column_families, iterators);
  }
  const Snapshot* GetSnapshot() override { return db_->GetSnapshot(); }
  void ReleaseSnapshot(const Snapshot* snapshot) override { db_->ReleaseSnapshot(snapshot); }

  using DB::GetProperty;
  bool GetProperty(ColumnFamilyHandle* column_family, const Slice& property,
                   std::string* value) override {
    return db_->GetProperty(column_family, property, value);
  }
  using DB::GetMapProperty;
  bool GetMapProperty(ColumnFamilyHandle* column_family, const Slice& property,
                      std::map<std::string, std::string>* value) override {
    return db_->GetMapProperty(column_family, property, value);
  }
  using DB::GetIntProperty;
  bool GetIntProperty(ColumnFamilyHandle* column_family, const Slice& property,
                      uint64_t* value) override {
    return db_->GetIntProperty(column_family, property, value);
  }
  bool GetAggregatedIntProperty(const Slice& property, uint64_t* value) override {
    return db_->GetAggregatedIntProperty(property, value);
  }
  Status ResetStats() override { return db_->ResetStats(); }

  using DB::GetApproximateSizes;
  Status GetApproximateSizes(const SizeApproximationOptions& options,
                             ColumnFamilyHandle* column_family, const Range* ranges, int n,
                             uint64_t* sizes) override {
    return db_->GetApproximateSizes(options, column_family, ranges, n, sizes);
  }
  using DB::GetApproximateMemTableStats;
  void GetApproximateMemTableStats(ColumnFamilyHandle* column_family, const Range& range,
                                   uint64_t* const count, uint64_t* const size) override {
    db_->GetApproximateMemTableStats(column_family, range, count, size);
  }

  using DB::CompactRange;
  Status CompactRange(const CompactRangeOptions& options, ColumnFamilyHandle* column_family,
                      const Slice* begin, const Slice* end) override {
    return db_->CompactRange(options, column_family, begin, end);
  }
  using DB::SetOptions;
  Status SetOptions(ColumnFamilyHandle* column_family,
                    const std::unordered_map<std::string, std::string>& new_options) override {
    return db_->SetOptions(column_family, new_options);
  }
  Status SetDBOptions(const std::unordered_map<std::string, std::string>& new_options) override {
    return db_->SetDBOptions(new_options);
  }
  using DB::CompactFiles;
  Status CompactFiles(const CompactionOptions& compact_options, ColumnFamilyHandle* column_family,
                      const std::vector<std::string>& input_file_names, const int output_level,
                      const int output_path_id = -1,
                      std::vector<std::string>* const output_file_names = nullptr,
                      CompactionJobInfo* compaction_job_info = nullptr) override {
    return db_->CompactFiles(compact_options, column_family, input_file_names, output_level,
                             output_path_id, output_file_names, compaction_job_info);
  }
  Status PauseBackgroundWork() override { return db_->PauseBackgroundWork(); }
  void DisableManualCompaction() override { db_->DisableManualCompaction(); }
  void EnableManualCompaction() override { db_->EnableManualCompaction(); }
  Status ContinueBackgroundWork() override { return db_->ContinueBackgroundWork(); }
  Status EnableAutoCompaction(
      const std::vector<ColumnFamilyHandle*>& column_family_handles) override {
    return db_->EnableAutoCompaction(column_family_handles);
  }
  using DB::NumberLevels;
  int NumberLevels(ColumnFamilyHandle* column_family) override {
    return db_->NumberLevels(column_family);
  }
  using DB::MaxMemCompactionLevel;
  int MaxMemCompactionLevel(ColumnFamilyHandle* column_family) override {
    return db_->MaxMemCompactionLevel(column_family);
  }
  using DB::Level0StopWriteTrigger;
  int Level0StopWriteTrigger(ColumnFamilyHandle* column_family) override {
    return db_->Level0StopWriteTrigger(column_family);
  }

  const std::string& GetName() const override { return db_->GetName(); }
  Env* GetEnv() const override { return db_->GetEnv(); }
  using DB::GetOptions;
  Options GetOptions(ColumnFamilyHandle* column_family) const override {
    return db_->GetOptions(column_family);
  }
  DBOptions GetDBOptions() const override { return db_->GetDBOptions(); }

  using DB::Flush;
  Status Flush(const FlushOptions& options, ColumnFamilyHandle* column_family) override {
    return db_->Flush(options, column_family);
  }
  Status Flush(const FlushOptions& options,
               const std::vector<ColumnFamilyHandle*>& column_families) override {
    return db_->Flush(options, column_families);
  }
  Status FlushWAL(bool sync) override { return db_->FlushWAL(sync); }
  Status SyncWAL() override { return db_->SyncWAL(); }
  SequenceNumber GetLatestSequenceNumber() const override { return db_->GetLatestSequenceNumber(); }
  Status DisableFileDeletions() override { return db_->DisableFileDeletions(); }
  Status EnableFileDeletions(bool force = true) override { return db_->EnableFileDeletions(force); }
  Status GetLiveFiles(std::vector<std::string>& files, uint64_t* manifest_file_size,
                      bool flush_memtable = true) override {
    return db_->GetLiveFiles(files, manifest_file_size, flush_memtable);
  }
  Status GetSortedWalFiles(VectorLogPtr& files) override { return db_->GetSortedWalFiles(files); }
  Status GetCurrentWalFile(std::unique_ptr<LogFile>* current_log_file) override {
    return db_->GetCurrentWalFile(current_log_file);
  }
  Status GetLiveFilesStorageInfo(const LiveFilesStorageInfoOptions& opts,
                                 std::vector<LiveFileStorageInfo>* files) override {
    return db_->GetLiveFilesStorageInfo(opts, files);
  }
  // (RocksDB's StackableDB leaves this one to DB's empty default.)
  void GetAllColumnFamilyMetaData(std::vector<ColumnFamilyMetaData>* metadata) override {
    db_->GetAllColumnFamilyMetaData(metadata);
  }
  Status GetCreationTimeOfOldestFile(uint64_t* creation_time) override {
    return db_->GetCreationTimeOfOldestFile(creation_time);
  }
  Status LockWAL() override { return db_->LockWAL(); }
  Status UnlockWAL() override { return db_->UnlockWAL(); }
  Status IncreaseFullHistoryTsLow(ColumnFamilyHandle* column_family, std::string ts_low) override {
    return db_->IncreaseFullHistoryTsLow(column_family, std::move(ts_low));
  }
  Status GetFullHistoryTsLow(ColumnFamilyHandle* column_family, std::string* ts_low) override {
    return db_->GetFullHistoryTsLow(column_family, ts_low);
  }
  FileSystem* GetFileSystem() const override { return db_->GetFileSystem(); }
  Status PutEntity(const WriteOptions& options, ColumnFamilyHandle* column_family, const Slice& key,
                   const WideColumns& columns) override {
    return db_->PutEntity(options, column_family, key, columns);
  }
  Status GetEntity(const ReadOptions& options, ColumnFamilyHandle* column_family, const Slice& key,
                   PinnableWideColumns* columns) override {
    return db_->GetEntity(options, column_family, key, columns);
  }
  Status IngestExternalFiles(const std::vector<IngestExternalFileArg>& args) override {
    return db_->IngestExternalFiles(args);
  }
  Status CreateColumnFamilyWithImport(const ColumnFamilyOptions& options,
                                      const std::string& column_family_name,
                                      const ImportColumnFamilyOptions& import_options,
                                      const ExportImportFilesMetaData& metadata,
                                      ColumnFamilyHandle** handle) override {
    return db_->CreateColumnFamilyWithImport(options, column_family_name, import_options, metadata,
                                             handle);
  }
  Status StartTrace(const TraceOptions& options,
                    std::unique_ptr<TraceWriter>&& trace_writer) override {
    return db_->StartTrace(options, std::move(trace_writer));
  }
  Status EndTrace() override { return db_->EndTrace(); }
  Status StartIOTrace(const TraceOptions& options,
                      std::unique_ptr<TraceWriter>&& trace_writer) override {
    return db_->StartIOTrace(options, std::move(trace_writer));
  }
  Status EndIOTrace() override { return db_->EndIOTrace(); }
  Status StartBlockCacheTrace(const TraceOptions& options,
                              std::unique_ptr<TraceWriter>&& trace_writer) override {
    return db_->StartBlockCacheTrace(options, std::move(trace_writer));
  }
  Status StartBlockCacheTrace(const BlockCacheTraceOptions& options,
                              std::unique_ptr<BlockCacheTraceWriter>&& trace_writer) override {
    return db_->StartBlockCacheTrace(options, std::move(trace_writer));
  }
  Status EndBlockCacheTrace() override { return db_->EndBlockCacheTrace(); }
  Status NewDefaultReplayer(const std::vector<ColumnFamilyHandle*>& handles,
                            std::unique_ptr<TraceReader>&& reader,
                            std::unique_ptr<Replayer>* replayer) override {
    return db_->NewDefaultReplayer(handles, std::move(reader), replayer);
  }
  Status DeleteFile(std::string name) override { return db_->DeleteFile(std::move(name)); }
  Status SuggestCompactRange(ColumnFamilyHandle* column_family, const Slice* begin,
                             const Slice* end) override {
    return db_->SuggestCompactRange(column_family, begin, end);
  }
  Status PromoteL0(ColumnFamilyHandle* column_family, int target_level) override {
    return db_->PromoteL0(column_family, target_level);
  }
  Status GetUpdatesSince(SequenceNumber seq_number, std::unique_ptr<TransactionLogIterator>* iter,
                         const TransactionLogIterator::ReadOptions& read_options =
                             TransactionLogIterator::ReadOptions()) override {
    return db_->GetUpdatesSince(seq_number, iter, read_options);
  }
  void GetLiveFilesMetaData(std::vector<LiveFileMetaData>* metadata) override {
    db_->GetLiveFilesMetaData(metadata);
  }
  using DB::GetColumnFamilyMetaData;
  void GetColumnFamilyMetaData(ColumnFamilyHandle* column_family,
                               ColumnFamilyMetaData* metadata) override {
    db_->GetColumnFamilyMetaData(column_family, metadata);
  }
  using DB::IngestExternalFile;
  Status IngestExternalFile(ColumnFamilyHandle* column_family,
                            const std::vector<std::string>& external_files,
                            const IngestExternalFileOptions& options) override {
    return db_->IngestExternalFile(column_family, external_files, options);
  }
  using DB::VerifyChecksum;
  Status VerifyChecksum(const ReadOptions& read_options) override {
    return db_->VerifyChecksum(read_options);
  }
  Status VerifyFileChecksums(const ReadOptions& read_options) override {
    return db_->VerifyFileChecksums(read_options);
  }
  Status GetLiveFilesChecksumInfo(FileChecksumList* checksum_list) override {
    return db_->GetLiveFilesChecksumInfo(checksum_list);
  }
  Status GetDbIdentity(std::string& identity) const override {
    return db_->GetDbIdentity(identity);
  }
  Status GetDbSessionId(std::string& session_id) const override {
    return db_->GetDbSessionId(session_id);
  }
  ColumnFamilyHandle* DefaultColumnFamily() const override { return db_->DefaultColumnFamily(); }
  using DB::GetPropertiesOfAllTables;
  Status GetPropertiesOfAllTables(ColumnFamilyHandle* column_family,
                                  TablePropertiesCollection* props) override {
    return db_->GetPropertiesOfAllTables(column_family, props);
  }
  Status GetPropertiesOfTablesInRange(ColumnFamilyHandle* column_family, const Range* range,
                                      std::size_t n, TablePropertiesCollection* props) override {
    return db_->GetPropertiesOfTablesInRange(column_family, range, n, props);
  }
  Status TryCatchUpWithPrimary() override { return db_->TryCatchUpWithPrimary(); }

 protected:
  DB* db_;
  std::shared_ptr<DB> shared_db_ptr_;
};

}  // namespace rocksdb
