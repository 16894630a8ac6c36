// StackableDB: a DB that forwards every call to another DB it owns (or
// borrows), so a layer -- TransactionDB, OptimisticTransactionDB, a user's
// own wrapper -- overrides only what it changes. Names and semantics are
// RocksDB's (rocksdb/utilities/stackable_db.h).
//
// GetRootDB() walks down the stack to the engine itself (a stack of
// wrappers ends at the DB returned by DB::Open); GetBaseDB() is the next DB
// down. Closing or destroying a StackableDB closes the DB under it when it
// owns it.
//
// Thread-safety: as the wrapped DB (every method forwards).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "strata/db.h"
#include "strata/export.h"

namespace strata {

class STRATA_EXPORT StackableDB : public DB {
 public:
  // Takes ownership of db.
  explicit StackableDB(std::unique_ptr<DB> db) : db_(db.get()), owned_(std::move(db)) {}
  // Borrows db, which must outlive this object.
  explicit StackableDB(DB* db) : db_(db) {}
  ~StackableDB() override;

  DB* GetBaseDB() { return db_; }
  DB* GetRootDB() override { return db_->GetRootDB(); }

  // The convenience overloads of DB (default family, fewer arguments).
  using DB::CompactFiles;
  using DB::CompactRange;
  using DB::Delete;
  using DB::Flush;
  using DB::Get;
  using DB::GetApproximateSizes;
  using DB::GetColumnFamilyMetaData;
  using DB::GetIntProperty;
  using DB::GetMapProperty;
  using DB::GetOptions;
  using DB::GetPropertiesOfAllTables;
  using DB::GetProperty;
  using DB::IngestExternalFile;
  using DB::KeyMayExist;
  using DB::Level0StopWriteTrigger;
  using DB::MaxMemCompactionLevel;
  using DB::Merge;
  using DB::MultiGet;
  using DB::NewIterator;
  using DB::NumberLevels;
  using DB::Put;
  using DB::SetOptions;
  using DB::SingleDelete;
  using DB::VerifyChecksum;

  Status Put(const WriteOptions& o, ColumnFamilyHandle* cf, const Slice& k,
             const Slice& v) override {
    return db_->Put(o, cf, k, v);
  }
  Status Delete(const WriteOptions& o, ColumnFamilyHandle* cf, const Slice& k) override {
    return db_->Delete(o, cf, k);
  }
  Status SingleDelete(const WriteOptions& o, ColumnFamilyHandle* cf, const Slice& k) override {
    return db_->SingleDelete(o, cf, k);
  }
  Status DeleteRange(const WriteOptions& o, ColumnFamilyHandle* cf, const Slice& b,
                     const Slice& e) override {
    return db_->DeleteRange(o, cf, b, e);
  }
  Status Merge(const WriteOptions& o, ColumnFamilyHandle* cf, const Slice& k,
               const Slice& v) override {
    return db_->Merge(o, cf, k, v);
  }
  Status Write(const WriteOptions& o, WriteBatch* updates) override {
    return db_->Write(o, updates);
  }
  Status Get(const ReadOptions& o, ColumnFamilyHandle* cf, const Slice& k,
             std::string* value) override {
    return db_->Get(o, cf, k, value);
  }
  Status Get(const ReadOptions& o, ColumnFamilyHandle* cf, const Slice& k,
             PinnableSlice* value) override {
    return db_->Get(o, cf, k, value);
  }
  std::vector<Status> MultiGet(const ReadOptions& o, const std::vector<Slice>& keys,
                               std::vector<std::string>* values) override {
    return db_->MultiGet(o, keys, values);
  }
  std::vector<Status> MultiGet(const ReadOptions& o, const std::vector<ColumnFamilyHandle*>& cfs,
                               const std::vector<Slice>& keys,
                               std::vector<std::string>* values) override {
    return db_->MultiGet(o, cfs, keys, values);
  }
  void MultiGet(const ReadOptions& o, ColumnFamilyHandle* cf, size_t n, const Slice* keys,
                PinnableSlice* values, Status* statuses, bool sorted_input = false) override {
    db_->MultiGet(o, cf, n, keys, values, statuses, sorted_input);
  }
  void MultiGet(const ReadOptions& o, size_t n, ColumnFamilyHandle** cfs, const Slice* keys,
                PinnableSlice* values, Status* statuses, bool sorted_input = false) override {
    db_->MultiGet(o, n, cfs, keys, values, statuses, sorted_input);
  }
  std::unique_ptr<Iterator> NewIterator(const ReadOptions& o, ColumnFamilyHandle* cf) override {
    return db_->NewIterator(o, cf);
  }
  Status NewIterators(const ReadOptions& o, const std::vector<ColumnFamilyHandle*>& cfs,
                      std::vector<std::unique_ptr<Iterator>>* iterators) override {
    return db_->NewIterators(o, cfs, iterators);
  }
  bool KeyMayExist(const ReadOptions& o, ColumnFamilyHandle* cf, const Slice& k, std::string* value,
                   bool* value_found = nullptr) override {
    return db_->KeyMayExist(o, cf, k, value, value_found);
  }
  Status GetMergeOperands(const ReadOptions& o, ColumnFamilyHandle* cf, const Slice& k,
                          PinnableSlice* operands, GetMergeOperandsOptions* opts, int* n) override {
    return db_->GetMergeOperands(o, cf, k, operands, opts, n);
  }

  const Snapshot* GetSnapshot() override { return db_->GetSnapshot(); }
  void ReleaseSnapshot(const Snapshot* s) override { db_->ReleaseSnapshot(s); }

  bool GetProperty(ColumnFamilyHandle* cf, const Slice& p, std::string* v) override {
    return db_->GetProperty(cf, p, v);
  }
  bool GetIntProperty(ColumnFamilyHandle* cf, const Slice& p, uint64_t* v) override {
    return db_->GetIntProperty(cf, p, v);
  }
  bool GetAggregatedIntProperty(const Slice& p, uint64_t* v) override {
    return db_->GetAggregatedIntProperty(p, v);
  }
  bool GetMapProperty(ColumnFamilyHandle* cf, const Slice& p,
                      std::map<std::string, std::string>* v) override {
    return db_->GetMapProperty(cf, p, v);
  }

  Status Flush(const FlushOptions& o, ColumnFamilyHandle* cf) override { return db_->Flush(o, cf); }
  Status SyncWAL() override { return db_->SyncWAL(); }
  Status FlushWAL(bool sync) override { return db_->FlushWAL(sync); }
  Status CompactRange(const CompactRangeOptions& o, ColumnFamilyHandle* cf, const Slice* b,
                      const Slice* e) override {
    return db_->CompactRange(o, cf, b, e);
  }
  Status CompactFiles(const CompactionOptions& o, ColumnFamilyHandle* cf,
                      const std::vector<std::string>& inputs, int output_level,
                      int output_path_id = -1,
                      std::vector<std::string>* output_file_names = nullptr) override {
    return db_->CompactFiles(o, cf, inputs, output_level, output_path_id, output_file_names);
  }

  Status CreateColumnFamily(const ColumnFamilyOptions& o, const std::string& name,
                            ColumnFamilyHandle** handle) override {
    return db_->CreateColumnFamily(o, name, handle);
  }
  Status DropColumnFamily(ColumnFamilyHandle* handle) override {
    return db_->DropColumnFamily(handle);
  }
  Status DestroyColumnFamilyHandle(ColumnFamilyHandle* handle) override {
    return db_->DestroyColumnFamilyHandle(handle);
  }
  ColumnFamilyHandle* DefaultColumnFamily() const override { return db_->DefaultColumnFamily(); }

  const std::string& GetName() const override { return db_->GetName(); }
  uint64_t GetLatestSequenceNumber() const override { return db_->GetLatestSequenceNumber(); }
  Env* GetEnv() const override { return db_->GetEnv(); }
  Status VerifyChecksum(const ReadOptions& o) override { return db_->VerifyChecksum(o); }
  Status GetLiveFilesChecksumInfo(FileChecksumList* l) override {
    return db_->GetLiveFilesChecksumInfo(l);
  }
  Status VerifyFileChecksums(const ReadOptions& o) override { return db_->VerifyFileChecksums(o); }
  Status Resume() override { return db_->Resume(); }
  Status TryCatchUpWithPrimary() override { return db_->TryCatchUpWithPrimary(); }
  // Closes the DB under this one (when owned; a borrowed DB is its owner's
  // to close).
  Status Close() override;

  Status DisableFileDeletions() override { return db_->DisableFileDeletions(); }
  Status EnableFileDeletions(bool force = true) override { return db_->EnableFileDeletions(force); }
  Status GetLiveFiles(std::vector<std::string>* files, uint64_t* manifest_file_size,
                      bool flush_memtable = true) override {
    return db_->GetLiveFiles(files, manifest_file_size, flush_memtable);
  }
  void GetLiveFilesMetaData(std::vector<LiveFileMetaData>* metadata) override {
    db_->GetLiveFilesMetaData(metadata);
  }
  void GetColumnFamilyMetaData(ColumnFamilyHandle* cf, ColumnFamilyMetaData* metadata) override {
    db_->GetColumnFamilyMetaData(cf, metadata);
  }
  Status GetLiveFilesStorageInfo(const LiveFilesStorageInfoOptions& o,
                                 std::vector<LiveFileStorageInfo>* files) override {
    return db_->GetLiveFilesStorageInfo(o, files);
  }
  Status GetSortedWalFiles(VectorLogPtr& files) override { return db_->GetSortedWalFiles(files); }
  Status GetCurrentWalFile(std::unique_ptr<LogFile>* f) override {
    return db_->GetCurrentWalFile(f);
  }
  Status LockWAL() override { return db_->LockWAL(); }
  Status UnlockWAL() override { return db_->UnlockWAL(); }
  void GetAllColumnFamilyMetaData(std::vector<ColumnFamilyMetaData>* metadata) override {
    db_->GetAllColumnFamilyMetaData(metadata);
  }
  Status GetCreationTimeOfOldestFile(uint64_t* creation_time) override {
    return db_->GetCreationTimeOfOldestFile(creation_time);
  }
  Status GetUpdatesSince(uint64_t seq, std::unique_ptr<TransactionLogIterator>* iter,
                         const TransactionLogIterator::ReadOptions& o =
                             TransactionLogIterator::ReadOptions()) override {
    return db_->GetUpdatesSince(seq, iter, o);
  }
  Status GetDbIdentity(std::string* identity) const override {
    return db_->GetDbIdentity(identity);
  }
  Status GetDbSessionId(std::string* session_id) const override {
    return db_->GetDbSessionId(session_id);
  }

  Status IngestExternalFile(ColumnFamilyHandle* cf, const std::vector<std::string>& files,
                            const IngestExternalFileOptions& o) override {
    return db_->IngestExternalFile(cf, files, o);
  }
  Status IngestExternalFiles(const std::vector<IngestExternalFileArg>& args) override {
    return db_->IngestExternalFiles(args);
  }
  Status CreateColumnFamilyWithImport(const ColumnFamilyOptions& o, const std::string& name,
                                      const ImportColumnFamilyOptions& import_options,
                                      const ExportImportFilesMetaData& metadata,
                                      ColumnFamilyHandle** handle) override {
    return db_->CreateColumnFamilyWithImport(o, name, import_options, metadata, handle);
  }

  Status SetOptions(ColumnFamilyHandle* cf,
                    const std::unordered_map<std::string, std::string>& o) override {
    return db_->SetOptions(cf, o);
  }
  Status SetDBOptions(const std::unordered_map<std::string, std::string>& o) override {
    return db_->SetDBOptions(o);
  }
  Options GetOptions(ColumnFamilyHandle* cf) const override { return db_->GetOptions(cf); }
  DBOptions GetDBOptions() const override { return db_->GetDBOptions(); }
  Status PauseBackgroundWork() override { return db_->PauseBackgroundWork(); }
  Status ContinueBackgroundWork() override { return db_->ContinueBackgroundWork(); }
  Status EnableAutoCompaction(const std::vector<ColumnFamilyHandle*>& handles) override {
    return db_->EnableAutoCompaction(handles);
  }

  Status GetApproximateSizes(const SizeApproximationOptions& o, ColumnFamilyHandle* cf,
                             const Range* ranges, int n, uint64_t* sizes) override {
    return db_->GetApproximateSizes(o, cf, ranges, n, sizes);
  }
  void GetApproximateMemTableStats(ColumnFamilyHandle* cf, const Range& range, uint64_t* count,
                                   uint64_t* size) override {
    db_->GetApproximateMemTableStats(cf, range, count, size);
  }
  Status GetPropertiesOfAllTables(ColumnFamilyHandle* cf,
                                  TablePropertiesCollection* props) override {
    return db_->GetPropertiesOfAllTables(cf, props);
  }
  Status GetPropertiesOfTablesInRange(ColumnFamilyHandle* cf, const Range* range, std::size_t n,
                                      TablePropertiesCollection* props) override {
    return db_->GetPropertiesOfTablesInRange(cf, range, n, props);
  }
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
  Status DeleteFilesInRanges(ColumnFamilyHandle* cf, const RangePtr* ranges, size_t n,
                             bool include_end = true) override {
    return db_->DeleteFilesInRanges(cf, ranges, n, include_end);
  }
  int NumberLevels(ColumnFamilyHandle* cf) override { return db_->NumberLevels(cf); }
  int MaxMemCompactionLevel(ColumnFamilyHandle* cf) override {
    return db_->MaxMemCompactionLevel(cf);
  }
  int Level0StopWriteTrigger(ColumnFamilyHandle* cf) override {
    return db_->Level0StopWriteTrigger(cf);
  }

 protected:
  DB* db_;  // the DB under this one (owned_ or borrowed)

 private:
  std::unique_ptr<DB> owned_;
};

}  // namespace strata
