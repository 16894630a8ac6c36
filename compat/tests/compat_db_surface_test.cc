// compat_db_surface_test: the members of rocksdb::DB that RocksDB 7.8.3
// has beyond reads and writes, through DB::Open's object and through a
// StackableDB: GetEntity / PutEntity, LockWAL / UnlockWAL,
// GetCreationTimeOfOldestFile, GetAllColumnFamilyMetaData,
// GetCurrentWalFile, GetLiveFilesStorageInfo, IngestExternalFiles,
// CreateColumnFamilyWithImport, GetFileSystem; the timestamp, tracing,
// statistics-history and compaction-service calls Strata answers with
// RocksDB's Status; trace records run by TraceRecord::NewExecutionHandler.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "rocksdb/block_cache_trace_writer.h"
#include "rocksdb/cache.h"
#include "rocksdb/db.h"
#include "rocksdb/file_system.h"
#include "rocksdb/iostats_context.h"
#include "rocksdb/iterator.h"
#include "rocksdb/listener.h"
#include "rocksdb/metadata.h"
#include "rocksdb/options.h"
#include "rocksdb/perf_context.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/statistics.h"
#include "rocksdb/stats_history.h"
#include "rocksdb/table.h"
#include "rocksdb/table_reader_caller.h"
#include "rocksdb/trace_reader_writer.h"
#include "rocksdb/trace_record.h"
#include "rocksdb/trace_record_result.h"
#include "rocksdb/types.h"
#include "rocksdb/utilities/checkpoint.h"
#include "rocksdb/utilities/replayer.h"
#include "rocksdb/utilities/stackable_db.h"
#include "rocksdb/utilities/transaction.h"
#include "rocksdb/utilities/transaction_db.h"
#include "rocksdb/wide_columns.h"
#include "rocksdb/write_buffer_manager.h"

namespace rocksdb {
namespace {

std::string TestPath(const std::string& name) {
  return ::testing::TempDir() + "/compat_db_surface_" + std::to_string(getpid()) + "_" + name;
}

uint64_t FileSize(const std::string& path) {
  uint64_t size = 0;
  return Env::Default()->GetFileSize(path, &size).ok() ? size : 0;
}

class DBSurfaceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = TestPath(::testing::UnitTest::GetInstance()->current_test_info()->name());
    ASSERT_TRUE(DestroyDB(path_, Options()).ok());
    options_.create_if_missing = true;
  }
  void TearDown() override {
    for (ColumnFamilyHandle* h : handles_) delete h;
    handles_.clear();
    db_.reset();
    EXPECT_TRUE(DestroyDB(path_, Options()).ok());
  }
  void Open() {
    DB* raw = nullptr;
    Status s = DB::Open(options_, path_, &raw);
    ASSERT_TRUE(s.ok()) << s.ToString();
    db_.reset(raw);
  }

  std::string path_;
  Options options_;
  std::unique_ptr<DB> db_;
  std::vector<ColumnFamilyHandle*> handles_;
};

TEST_F(DBSurfaceTest, GetEntityReadsPlainValuesPutEntityRefused) {
  Open();
  ASSERT_TRUE(db_->Put(WriteOptions(), "k", "v").ok());
  PinnableWideColumns columns;
  ASSERT_TRUE(db_->GetEntity(ReadOptions(), db_->DefaultColumnFamily(), "k", &columns).ok());
  ASSERT_EQ(columns.columns().size(), 1u);
  EXPECT_EQ(columns.columns()[0].name(), kDefaultWideColumnName);
  EXPECT_EQ(columns.columns()[0].value(), "v");
  Status s = db_->GetEntity(ReadOptions(), db_->DefaultColumnFamily(), "absent", &columns);
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();
  EXPECT_TRUE(columns.columns().empty());
  s = db_->GetEntity(ReadOptions(), nullptr, "k", &columns);
  EXPECT_EQ(s.ToString(), "Invalid argument: Cannot call GetEntity without a column family handle");
  s = db_->GetEntity(ReadOptions(), db_->DefaultColumnFamily(), "k", nullptr);
  EXPECT_TRUE(s.IsInvalidArgument());

  WideColumns wide{{"a", "1"}, {"b", "2"}};
  s = db_->PutEntity(WriteOptions(), db_->DefaultColumnFamily(), "e", wide);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(s.ToString().find("PutEntity"), std::string::npos) << s.ToString();
  std::string v;
  EXPECT_TRUE(db_->Get(ReadOptions(), "e", &v).IsNotFound());

  // Through a StackableDB: the same answers.
  StackableDB stacked(db_.release());
  ASSERT_TRUE(stacked.GetEntity(ReadOptions(), stacked.DefaultColumnFamily(), "k", &columns).ok());
  EXPECT_EQ(columns.columns()[0].value(), "v");
  EXPECT_TRUE(
      stacked.PutEntity(WriteOptions(), stacked.DefaultColumnFamily(), "e", wide).IsNotSupported());
}

// ColumnFamilyHandle::GetDescriptor with RocksDB's descriptor: handles of
// Open with descriptors, CreateColumnFamily and DefaultColumnFamily answer
// their family's name and the options they were given (SetOptions
// included); the native descriptor works on the same handle.
TEST_F(DBSurfaceTest, GetDescriptorOfEveryKindOfHandle) {
  Open();
  ColumnFamilyOptions cf;
  cf.write_buffer_size = 3 << 20;
  cf.max_write_buffer_number = 5;
  ColumnFamilyHandle* h = nullptr;
  ASSERT_TRUE(db_->CreateColumnFamily(cf, "one", &h).ok());
  handles_.push_back(h);
  ColumnFamilyDescriptor desc;
  ASSERT_TRUE(h->GetDescriptor(&desc).ok());
  EXPECT_EQ("one", desc.name);
  EXPECT_EQ(size_t{3} << 20, desc.options.write_buffer_size);
  EXPECT_EQ(5, desc.options.max_write_buffer_number);
  ASSERT_TRUE(db_->DefaultColumnFamily()->GetDescriptor(&desc).ok());
  EXPECT_EQ(kDefaultColumnFamilyName, desc.name);
  for (ColumnFamilyHandle* x : handles_) delete x;
  handles_.clear();
  db_.reset();

  std::vector<ColumnFamilyDescriptor> families{{kDefaultColumnFamilyName, ColumnFamilyOptions()},
                                               {"one", cf}};
  DB* raw = nullptr;
  ASSERT_TRUE(DB::Open(DBOptions(options_), path_, families, &handles_, &raw).ok());
  db_.reset(raw);
  ASSERT_TRUE(handles_[1]->GetDescriptor(&desc).ok());
  EXPECT_EQ("one", desc.name);
  EXPECT_EQ(5, desc.options.max_write_buffer_number);
  ASSERT_TRUE(db_->SetOptions(handles_[1], {{"max_write_buffer_number", "7"}}).ok());
  ASSERT_TRUE(handles_[1]->GetDescriptor(&desc).ok());
  EXPECT_EQ(7, desc.options.max_write_buffer_number);
  // The native descriptor works on the same handle.
  ::strata::ColumnFamilyDescriptor native;
  ASSERT_TRUE(handles_[1]->GetDescriptor(&native).ok());
  EXPECT_EQ(7, native.options.max_write_buffer_number);
}

TEST_F(DBSurfaceTest, LockWALHoldsWritesUntilUnlocked) {
  options_.manual_wal_flush = true;
  Open();
  ASSERT_TRUE(db_->Put(WriteOptions(), "a", "1").ok());
  std::unique_ptr<LogFile> wal;
  ASSERT_TRUE(db_->GetCurrentWalFile(&wal).ok());
  EXPECT_EQ(wal->Type(), kAliveLogFile);
  EXPECT_EQ(wal->StartSequence(), 0u);
  const std::string wal_path = path_ + wal->PathName();
  EXPECT_EQ(FileSize(wal_path), 0u);  // manual_wal_flush: still buffered
  Status s = db_->UnlockWAL();
  EXPECT_TRUE(s.IsAborted()) << s.ToString();
  ASSERT_TRUE(db_->LockWAL().ok());
  const uint64_t locked = FileSize(wal_path);
  EXPECT_GT(locked, 0u);  // LockWAL wrote the buffer out
  std::atomic<bool> written{false};
  std::thread writer([&] {
    EXPECT_TRUE(db_->Put(WriteOptions(), "b", "2").ok());
    written.store(true);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(written.load());
  EXPECT_EQ(FileSize(wal_path), locked);
  ASSERT_TRUE(db_->UnlockWAL().ok());
  writer.join();
  EXPECT_TRUE(written.load());
  std::string v;
  ASSERT_TRUE(db_->Get(ReadOptions(), "b", &v).ok());
  EXPECT_EQ(v, "2");
  // Nested through a StackableDB: two locks need two unlocks.
  StackableDB stacked(db_.release());
  ASSERT_TRUE(stacked.LockWAL().ok());
  ASSERT_TRUE(stacked.LockWAL().ok());
  ASSERT_TRUE(stacked.UnlockWAL().ok());
  ASSERT_TRUE(stacked.UnlockWAL().ok());
  EXPECT_TRUE(stacked.UnlockWAL().IsAborted());
  ASSERT_TRUE(stacked.Put(WriteOptions(), "c", "3").ok());
  // Close lifts a lock still held.
  ASSERT_TRUE(stacked.LockWAL().ok());
  EXPECT_TRUE(stacked.Close().ok());
}

TEST_F(DBSurfaceTest, FilesAndMetadataOfEveryFamily) {
  Open();
  uint64_t oldest = 0;
  ASSERT_TRUE(db_->GetCreationTimeOfOldestFile(&oldest).ok());
  EXPECT_EQ(oldest, UINT64_MAX);
  ColumnFamilyHandle* other = nullptr;
  ASSERT_TRUE(db_->CreateColumnFamily(ColumnFamilyOptions(), "other", &other).ok());
  handles_.push_back(other);
  EXPECT_EQ(other->GetComparator(), BytewiseComparator());
  ASSERT_TRUE(db_->Put(WriteOptions(), "a", "1").ok());
  ASSERT_TRUE(db_->Flush(FlushOptions()).ok());
  for (int i = 0; i < 2; i++) {
    ASSERT_TRUE(db_->Put(WriteOptions(), other, "o" + std::to_string(i), "x").ok());
    ASSERT_TRUE(db_->Flush(FlushOptions(), other).ok());
  }
  std::vector<ColumnFamilyMetaData> all;
  db_->GetAllColumnFamilyMetaData(&all);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].name, "default");
  EXPECT_EQ(all[0].file_count, 1u);
  EXPECT_EQ(all[1].name, "other");
  EXPECT_EQ(all[1].file_count, 2u);
  ColumnFamilyMetaData one;
  db_->GetColumnFamilyMetaData(other, &one);
  EXPECT_EQ(one.size, all[1].size);
  // No blob files, one storage tier.
  EXPECT_TRUE(one.blob_files.empty());
  for (const LevelMetaData& level : one.levels) {
    for (const SstFileMetaData& f : level.files) EXPECT_EQ(Temperature::kUnknown, f.temperature);
  }

  std::vector<LiveFileMetaData> live;
  db_->GetLiveFilesMetaData(&live);
  ASSERT_EQ(live.size(), 3u);
  uint64_t expected = UINT64_MAX;
  for (const LiveFileMetaData& m : live) expected = std::min(expected, m.file_creation_time);
  EXPECT_GT(expected, 0u);
  ASSERT_TRUE(db_->GetCreationTimeOfOldestFile(&oldest).ok());
  EXPECT_EQ(oldest, expected);

  std::vector<LiveFileStorageInfo> files;
  ASSERT_TRUE(db_->GetLiveFilesStorageInfo(LiveFilesStorageInfoOptions(), &files).ok());
  std::set<std::string> names;
  for (const LiveFileStorageInfo& f : files) names.insert(f.relative_filename);
  EXPECT_EQ(names.count("CURRENT"), 1u);
  for (const LiveFileMetaData& m : live) {
    EXPECT_EQ(names.count(m.relative_filename), 1u) << m.relative_filename;
  }

  EXPECT_EQ(db_->GetFileSystem(), db_->GetEnv()->GetFileSystem().get());

  // CompactFiles with a CompactionJobInfo is refused; without, it works.
  std::vector<std::string> inputs;
  for (const LiveFileMetaData& m : live) {
    if (m.column_family_name == "other") inputs.push_back(m.name);
  }
  CompactionJobInfo job_info;
  std::vector<std::string> outputs;
  Status s = db_->CompactFiles(CompactionOptions(), other, inputs, 1, -1, &outputs, &job_info);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(s.ToString().find("compaction_job_info"), std::string::npos);
  s = db_->CompactFiles(CompactionOptions(), other, inputs, 1, -1, &outputs);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(outputs.size(), 1u);
  // Property names Strata does not answer.
  std::string prop;
  EXPECT_EQ(DB::Properties::kNumBlobFiles, "rocksdb.num-blob-files");
  EXPECT_EQ(DB::Properties::kBlobStats, "rocksdb.blob-stats");

  // GetApproximateSizes with combined flags.
  const DB::SizeApproximationFlags both =
      DB::SizeApproximationFlags::INCLUDE_FILES | DB::SizeApproximationFlags::INCLUDE_MEMTABLES;
  EXPECT_EQ(both & DB::SizeApproximationFlags::INCLUDE_FILES,
            DB::SizeApproximationFlags::INCLUDE_FILES);
  Range all_keys("a", "z");
  uint64_t size = 0;
  ASSERT_TRUE(db_->GetApproximateSizes(&all_keys, 1, &size, both).ok());
  EXPECT_GT(size, 0u);

  // RocksDB's rule: only with an unbounded table cache.
  ASSERT_TRUE(db_->DropColumnFamily(other).ok());
  for (ColumnFamilyHandle* h : handles_) delete h;
  handles_.clear();
  db_.reset();
  options_.max_open_files = 100;
  Open();
  s = db_->GetCreationTimeOfOldestFile(&oldest);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  db_.reset();
  // RepairDB with options for the families it finds unlisted.
  s = RepairDB(path_, DBOptions(options_), {}, ColumnFamilyOptions());
  ASSERT_TRUE(s.ok()) << s.ToString();
  Open();
  std::string v;
  ASSERT_TRUE(db_->Get(ReadOptions(), "a", &v).ok());
  EXPECT_EQ(v, "1");
}

TEST_F(DBSurfaceTest, IngestExternalFilesAndImport) {
  std::vector<ColumnFamilyDescriptor> cfs{{"default", ColumnFamilyOptions()},
                                          {"two", ColumnFamilyOptions()}};
  options_.create_missing_column_families = true;
  DB* raw = nullptr;
  ASSERT_TRUE(DB::Open(DBOptions(options_), path_, cfs, &handles_, &raw).ok());
  db_.reset(raw);
  const std::string f1 = path_ + "_ext1.sst";
  const std::string f2 = path_ + "_ext2.sst";
  for (const std::string& f : {f1, f2}) {
    SstFileWriter writer(EnvOptions(), options_);
    ASSERT_TRUE(writer.Open(f).ok());
    ASSERT_TRUE(writer.Put(f == f1 ? "x1" : "y1", "ext").ok());
    ASSERT_TRUE(writer.Finish().ok());
  }
  std::vector<IngestExternalFileArg> args(2);
  args[0].column_family = handles_[0];
  args[0].external_files = {f1};
  args[1].column_family = handles_[1];
  args[1].external_files = {f2};
  args[1].files_checksums = {"abc"};
  Status s = db_->IngestExternalFiles(args);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(s.ToString().find("files_checksums"), std::string::npos);
  args[1].files_checksums.clear();
  s = db_->IngestExternalFiles(args);
  ASSERT_TRUE(s.ok()) << s.ToString();
  std::string v;
  ASSERT_TRUE(db_->Get(ReadOptions(), handles_[0], "x1", &v).ok());
  EXPECT_EQ(v, "ext");
  ASSERT_TRUE(db_->Get(ReadOptions(), handles_[1], "y1", &v).ok());
  EXPECT_EQ(v, "ext");

  // Export family "two" and import it as a new family.
  Checkpoint* cp = nullptr;
  ASSERT_TRUE(Checkpoint::Create(db_.get(), &cp).ok());
  std::unique_ptr<Checkpoint> checkpoint(cp);
  ExportImportFilesMetaData* meta = nullptr;
  const std::string export_dir = path_ + "_export";
  ASSERT_TRUE(checkpoint->ExportColumnFamily(handles_[1], export_dir, &meta).ok());
  std::unique_ptr<ExportImportFilesMetaData> owned_meta(meta);
  ColumnFamilyHandle* imported = nullptr;
  ImportColumnFamilyOptions import_options;
  s = db_->CreateColumnFamilyWithImport(ColumnFamilyOptions(), "imported", import_options, *meta,
                                        &imported);
  ASSERT_TRUE(s.ok()) << s.ToString();
  handles_.push_back(imported);
  EXPECT_EQ(imported->GetName(), "imported");
  ASSERT_TRUE(db_->Get(ReadOptions(), imported, "y1", &v).ok());
  EXPECT_EQ(v, "ext");
  EXPECT_EQ(db_->GetOptions(imported).num_levels, ColumnFamilyOptions().num_levels);
  for (const std::string& f : {f1, f2}) Env::Default()->DeleteFile(f).PermitUncheckedError();
  for (const LiveFileMetaData& m : meta->files) {
    Env::Default()->DeleteFile(export_dir + "/" + m.relative_filename).PermitUncheckedError();
  }
  Env::Default()->DeleteDir(export_dir).PermitUncheckedError();
}

// What Strata does not back answers RocksDB's Status, naming the call.
TEST_F(DBSurfaceTest, RefusedCallsAnswerRocksDBsStatus) {
  Open();
  std::string ts;
  EXPECT_EQ(db_->GetFullHistoryTsLow(db_->DefaultColumnFamily(), &ts).ToString(),
            "Invalid argument: Timestamp is not enabled in this column family");
  EXPECT_EQ(db_->GetFullHistoryTsLow(nullptr, nullptr).ToString(),
            "Invalid argument: ts_low is nullptr");
  EXPECT_EQ(db_->IncreaseFullHistoryTsLow(db_->DefaultColumnFamily(), "x").ToString(),
            "Invalid argument: Timestamp is not enabled in this column family");
  // The timestamp forms: RocksDB's answers for a family without them.
  const std::string no_ts =
      "Invalid argument: cannot call this method on column family default that does not "
      "enable timestamp";
  EXPECT_EQ(db_->Put(WriteOptions(), "k", "ts", "v").ToString(), no_ts);
  EXPECT_EQ(db_->Delete(WriteOptions(), "k", "ts").ToString(), no_ts);
  EXPECT_EQ(db_->SingleDelete(WriteOptions(), "k", "ts").ToString(), no_ts);
  EXPECT_EQ(db_->DeleteRange(WriteOptions(), db_->DefaultColumnFamily(), "a", "b", "ts").ToString(),
            no_ts);
  EXPECT_EQ(db_->Put(WriteOptions(), nullptr, "k", "ts", "v").ToString(),
            "Invalid argument: column family handle cannot be null");
  EXPECT_EQ(db_->Merge(WriteOptions(), db_->DefaultColumnFamily(), "k", "ts", "v").ToString(),
            "Not implemented: Merge does not support user-defined timestamp yet");
  ASSERT_TRUE(db_->Put(WriteOptions(), "k", "v").ok());
  std::string value, stamp = "junk";
  ASSERT_TRUE(db_->Get(ReadOptions(), "k", &value, &stamp).ok());
  EXPECT_EQ(value, "v");
  EXPECT_EQ(stamp, "");
  std::vector<std::string> values, stamps;
  std::vector<Status> statuses =
      db_->MultiGet(ReadOptions(), {Slice("k"), Slice("x")}, &values, &stamps);
  ASSERT_EQ(statuses.size(), 2u);
  EXPECT_TRUE(statuses[0].ok());
  EXPECT_TRUE(statuses[1].IsNotFound());
  EXPECT_EQ(values[0], "v");
  EXPECT_EQ(stamps.size(), 2u);
  stamp = "junk";
  EXPECT_TRUE(db_->KeyMayExist(ReadOptions(), "k", &value, &stamp));
  EXPECT_EQ(stamp, "");
  EXPECT_EQ(db_->StartTrace(TraceOptions(), nullptr).ToString(),
            "Not implemented: StartTrace() is not implemented.");
  EXPECT_EQ(db_->EndTrace().ToString(), "Not implemented: EndTrace() is not implemented.");
  EXPECT_EQ(db_->StartIOTrace(TraceOptions(), nullptr).ToString(),
            "Not implemented: StartIOTrace() is not implemented.");
  EXPECT_EQ(db_->EndIOTrace().ToString(), "Not implemented: EndIOTrace() is not implemented.");
  EXPECT_EQ(db_->StartBlockCacheTrace(TraceOptions(), nullptr).ToString(),
            "Not implemented: StartBlockCacheTrace() is not implemented.");
  EXPECT_EQ(db_->StartBlockCacheTrace(BlockCacheTraceOptions(), nullptr).ToString(),
            "Not implemented: StartBlockCacheTrace() is not implemented.");
  EXPECT_EQ(db_->EndBlockCacheTrace().ToString(),
            "Not implemented: EndBlockCacheTrace() is not implemented.");
  std::unique_ptr<Replayer> replayer;
  EXPECT_EQ(db_->NewDefaultReplayer({}, nullptr, &replayer).ToString(),
            "Not implemented: NewDefaultReplayer() is not implemented.");
  std::unique_ptr<StatsHistoryIterator> history;
  EXPECT_EQ(db_->GetStatsHistory(0, UINT64_MAX, &history).ToString(),
            "Not implemented: GetStatsHistory() is not implemented.");
  EXPECT_EQ(history, nullptr);

  std::string output;
  Status s = DB::OpenAndCompact(path_, path_ + "_out", "input", &output,
                                CompactionServiceOptionsOverride());
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(s.ToString().find("OpenAndCompact"), std::string::npos);
  s = DB::OpenAndCompact(OpenAndCompactOptions(), path_, path_ + "_out", "input", &output,
                         CompactionServiceOptionsOverride());
  EXPECT_TRUE(s.IsNotSupported());
  std::vector<ColumnFamilyHandle*> handles;
  DB* trimmed = reinterpret_cast<DB*>(&output);
  s = DB::OpenAndTrimHistory(DBOptions(), path_, {ColumnFamilyDescriptor()}, &handles, &trimmed,
                             "ts");
  EXPECT_TRUE(s.IsNotSupported());
  EXPECT_NE(s.ToString().find("OpenAndTrimHistory"), std::string::npos);
  EXPECT_EQ(trimmed, nullptr);

  std::unique_ptr<TraceWriter> trace_writer;
  s = NewFileTraceWriter(Env::Default(), EnvOptions(), path_ + "_trace", &trace_writer);
  EXPECT_TRUE(s.IsNotSupported());
  EXPECT_EQ(trace_writer, nullptr);
  std::unique_ptr<TraceReader> trace_reader;
  EXPECT_TRUE(NewFileTraceReader(Env::Default(), EnvOptions(), path_ + "_trace", &trace_reader)
                  .IsNotSupported());
  std::unique_ptr<BlockCacheTraceWriter> bc = NewBlockCacheTraceWriter(
      SystemClock::Default().get(), BlockCacheTraceWriterOptions(), nullptr);
  ASSERT_NE(bc, nullptr);
  EXPECT_TRUE(bc->WriteHeader().IsNotSupported());
  BlockCacheTraceRecord record(1, "key", kBlockTraceDataBlock, 10, 0, "default", 1, 7,
                               TableReaderCaller::kUserGet, true, false, 5);
  EXPECT_TRUE(bc->WriteBlockAccess(record, "key", "default", "").IsNotSupported());
  EXPECT_EQ(BlockCacheTraceRecord::kReservedGetId, 0u);
}

// Records made by hand and run by NewExecutionHandler against the DB.
TEST_F(DBSurfaceTest, TraceRecordsExecuteAgainstTheDB) {
  Open();
  WriteBatch batch;
  ASSERT_TRUE(batch.Put("a", "1").ok());
  ASSERT_TRUE(batch.Put("c", "3").ok());
  const uint32_t id = db_->DefaultColumnFamily()->GetID();
  std::unique_ptr<TraceRecord::Handler> handler(
      TraceRecord::NewExecutionHandler(db_.get(), {db_->DefaultColumnFamily()}));
  ASSERT_NE(handler, nullptr);

  WriteQueryTraceRecord write(batch.Data(), 100);
  EXPECT_EQ(write.GetTraceType(), kTraceWrite);
  EXPECT_EQ(write.GetTimestamp(), 100u);
  std::unique_ptr<TraceRecordResult> result;
  ASSERT_TRUE(write.Accept(handler.get(), &result).ok());
  ASSERT_NE(result, nullptr);
  EXPECT_EQ(result->GetTraceType(), kTraceWrite);
  auto* status_only = dynamic_cast<StatusOnlyTraceExecutionResult*>(result.get());
  ASSERT_NE(status_only, nullptr);
  EXPECT_TRUE(status_only->GetStatus().ok());
  EXPECT_GE(status_only->GetEndTimestamp(), status_only->GetStartTimestamp());

  GetQueryTraceRecord get(id, std::string("a"), 101);
  ASSERT_TRUE(get.Accept(handler.get(), &result).ok());
  auto* single = dynamic_cast<SingleValueTraceExecutionResult*>(result.get());
  ASSERT_NE(single, nullptr);
  EXPECT_TRUE(single->GetStatus().ok());
  EXPECT_EQ(single->GetValue(), "1");
  GetQueryTraceRecord missing(id, std::string("b"), 102);
  ASSERT_TRUE(missing.Accept(handler.get(), &result).ok());
  single = dynamic_cast<SingleValueTraceExecutionResult*>(result.get());
  ASSERT_NE(single, nullptr);
  EXPECT_TRUE(single->GetStatus().IsNotFound());
  GetQueryTraceRecord bad_family(id + 77, std::string("a"), 103);
  EXPECT_TRUE(bad_family.Accept(handler.get(), &result).IsCorruption());

  IteratorSeekQueryTraceRecord seek(IteratorSeekQueryTraceRecord::kSeek, id, std::string("b"), 104);
  EXPECT_EQ(seek.GetTraceType(), kTraceIteratorSeek);
  ASSERT_TRUE(seek.Accept(handler.get(), &result).ok());
  auto* iter = dynamic_cast<IteratorTraceExecutionResult*>(result.get());
  ASSERT_NE(iter, nullptr);
  EXPECT_TRUE(iter->GetValid());
  EXPECT_EQ(iter->GetKey().ToString(), "c");
  EXPECT_EQ(iter->GetValue().ToString(), "3");
  IteratorSeekQueryTraceRecord bounded(IteratorSeekQueryTraceRecord::kSeekForPrev, id,
                                       std::string("z"), std::string("a"), std::string("b"), 105);
  EXPECT_EQ(bounded.GetTraceType(), kTraceIteratorSeekForPrev);
  EXPECT_EQ(bounded.GetUpperBound().ToString(), "b");
  ASSERT_TRUE(bounded.Accept(handler.get(), &result).ok());
  iter = dynamic_cast<IteratorTraceExecutionResult*>(result.get());
  ASSERT_NE(iter, nullptr);
  EXPECT_TRUE(iter->GetValid());
  EXPECT_EQ(iter->GetKey().ToString(), "a");

  MultiGetQueryTraceRecord multi({id, id}, std::vector<std::string>{"a", "b"}, 106);
  EXPECT_EQ(multi.GetKeys().size(), 2u);
  ASSERT_TRUE(multi.Accept(handler.get(), &result).ok());
  auto* values = dynamic_cast<MultiValuesTraceExecutionResult*>(result.get());
  ASSERT_NE(values, nullptr);
  ASSERT_EQ(values->GetValues().size(), 2u);
  EXPECT_EQ(values->GetValues()[0], "1");
  EXPECT_TRUE(values->GetMultiStatus()[1].IsNotFound());
  MultiGetQueryTraceRecord uneven({id}, std::vector<std::string>{"a", "b"}, 107);
  EXPECT_TRUE(uneven.Accept(handler.get(), &result).IsInvalidArgument());

  // A result handler sees each kind.
  struct Counter : public TraceRecordResult::Handler {
    int seen = 0;
    Status Handle(const StatusOnlyTraceExecutionResult&) override { return Seen(); }
    Status Handle(const SingleValueTraceExecutionResult&) override { return Seen(); }
    Status Handle(const MultiValuesTraceExecutionResult&) override { return Seen(); }
    Status Handle(const IteratorTraceExecutionResult&) override { return Seen(); }
    Status Seen() {
      seen++;
      return Status::OK();
    }
  } counter;
  ASSERT_TRUE(multi.Accept(handler.get(), &result).ok());  // (the failed call reset result)
  ASSERT_NE(result, nullptr);
  ASSERT_TRUE(result->Accept(&counter).ok());
  EXPECT_EQ(counter.seen, 1);
}

// Names of RocksDB's headers that are Strata's enums, and small helpers.
TEST_F(DBSurfaceTest, HeaderConstantsAndHelpers) {
  options_.statistics = CreateDBStatistics();
  options_.access_hint_on_compaction_start = DBOptions::SEQUENTIAL;
  Open();
  ASSERT_TRUE(db_->Put(WriteOptions(), "k", "v").ok());
  EXPECT_EQ(options_.statistics->getTickerCount(NUMBER_KEYS_WRITTEN), 1u);
  HistogramData data;
  options_.statistics->histogramData(DB_WRITE, &data);
  EXPECT_EQ(data.count, 1u);
  ASSERT_EQ(TickersNameMap.size(), static_cast<size_t>(TICKER_ENUM_MAX));
  EXPECT_EQ(TickersNameMap[BLOCK_CACHE_MISS].second, "rocksdb.block.cache.miss");
  ASSERT_EQ(HistogramsNameMap.size(), static_cast<size_t>(HISTOGRAM_ENUM_MAX));
  EXPECT_EQ(HistogramsNameMap[DB_GET].second, "rocksdb.db.get.micros");
  EXPECT_EQ(kTableFile, FileType::kTableFile);
  EXPECT_EQ(kEntryPut, EntryType::kEntryPut);

  std::unique_ptr<Iterator> empty(NewEmptyIterator());
  empty->SeekToFirst();
  EXPECT_FALSE(empty->Valid());
  EXPECT_TRUE(empty->status().ok());
  std::unique_ptr<Iterator> error(NewErrorIterator(Status::Corruption("bad")));
  EXPECT_EQ(error->status().ToString(), "Corruption: bad");

  // Refused per-call fields.
  ReadOptions ro;
  ro.rate_limiter_priority = Env::IO_LOW;
  std::string v;
  Status s = db_->Get(ro, "k", &v);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("ReadOptions::rate_limiter_priority"), std::string::npos);
  ReadOptions filtered;
  filtered.table_filter = [](const TableProperties&) { return true; };
  EXPECT_TRUE(db_->Get(filtered, "k", &v).IsInvalidArgument());
  WriteOptions wo;
  wo.rate_limiter_priority = Env::IO_HIGH;
  EXPECT_TRUE(db_->Put(wo, "k", "v").IsInvalidArgument());

  // Caches: the clock cache is Strata's HyperClockCache; NewClockCache an
  // LRU cache, as in RocksDB 7.8.3.
  std::shared_ptr<Cache> clock = HyperClockCacheOptions(1 << 20, 4096).MakeSharedCache();
  ASSERT_NE(clock, nullptr);
  EXPECT_STREQ(clock->Name(), "HyperClockCache");
  EXPECT_EQ(clock->GetCapacity(), size_t{1} << 20);
  std::shared_ptr<Cache> lru = NewClockCache(1 << 20);
  ASSERT_NE(lru, nullptr);
  EXPECT_STREQ(lru->Name(), "LRUCache");
}

// Another table format is refused at Open, naming it.
TEST_F(DBSurfaceTest, OtherTableFormatsRefused) {
  options_.table_factory.reset(NewPlainTableFactory());
  DB* raw = nullptr;
  Status s = DB::Open(options_, path_, &raw);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("PlainTable"), std::string::npos) << s.ToString();
  EXPECT_EQ(raw, nullptr);
  options_.table_factory.reset(NewCuckooTableFactory());
  EXPECT_TRUE(DB::Open(options_, path_, &raw).IsInvalidArgument());
  options_.table_factory.reset(NewAdaptiveTableFactory());
  EXPECT_TRUE(DB::Open(options_, path_, &raw).IsInvalidArgument());
}

// RocksDB's info-log helpers: level filtering, Header always written.
TEST_F(DBSurfaceTest, LogHelpers) {
  struct Capture : public Logger {
    explicit Capture(InfoLogLevel level) : Logger(level) {}
    void Logv(const InfoLogLevel level, const char* format, va_list ap) override {
      char buf[256];
      std::vsnprintf(buf, sizeof(buf), format, ap);
      lines.push_back(std::to_string(static_cast<int>(level)) + ":" + buf);
    }
    std::vector<std::string> lines;
  };
  auto log = std::make_shared<Capture>(WARN_LEVEL);
  std::shared_ptr<Logger> shared = log;
  Info(shared, "dropped %d", 1);
  Warn(shared, "warn %d", 2);
  Error(log.get(), "error %s", "x");
  Header(shared, "header");
  Log(ERROR_LEVEL, shared, "level %d", 3);
  Debug(log.get(), "dropped too");
  Log(static_cast<Logger*>(nullptr), "null logger ignored");
  LogFlush(shared);
  ASSERT_EQ(log->lines.size(), 4u);
  EXPECT_EQ(log->lines[0], "2:warn 2");
  EXPECT_EQ(log->lines[1], "3:error x");
  EXPECT_EQ(log->lines[2], "5:header");
  EXPECT_EQ(log->lines[3], "3:level 3");
}

// Transaction states and the write policy, by RocksDB's names.
TEST_F(DBSurfaceTest, TransactionStates) {
  TransactionDBOptions txn_options;
  txn_options.write_policy = WRITE_COMMITTED;
  TransactionDB* raw = nullptr;
  Status s = TransactionDB::Open(options_, txn_options, path_, &raw);
  ASSERT_TRUE(s.ok()) << s.ToString();
  std::unique_ptr<TransactionDB> txn_db(raw);
  std::unique_ptr<Transaction> txn(txn_db->BeginTransaction(WriteOptions()));
  EXPECT_EQ(txn->GetState(), Transaction::STARTED);
  ASSERT_TRUE(txn->SetName("t1").ok());
  ASSERT_TRUE(txn->Put("k", "v").ok());
  ASSERT_TRUE(txn->Prepare().ok());
  EXPECT_EQ(txn->GetState(), Transaction::PREPARED);
  ASSERT_TRUE(txn->Commit().ok());
  EXPECT_EQ(txn->GetState(), Transaction::COMMITTED);
  EXPECT_EQ(Transaction::COMMITED, Transaction::COMMITTED);
  EXPECT_GT(txn->GetId(), 0u);
  txn.reset();
  std::string v;
  ASSERT_TRUE(txn_db->Get(ReadOptions(), "k", &v).ok());
  EXPECT_EQ(v, "v");
}

TEST(MetadataConstructorsTest, RocksDBsFieldByFieldForms) {
  std::string checksum = "abcd";
  std::string func = "FileChecksumCrc32c";
  SstFileMetaData m("/000012.sst", 12, "/db", 4096, 5, 9, "a", "z", 3, true, Temperature::kWarm, 0,
                    111, 222, checksum, func);
  EXPECT_EQ("000012.sst", m.relative_filename);
  EXPECT_EQ("/000012.sst", m.name);
  EXPECT_EQ("/db", m.directory);
  EXPECT_EQ("/db", m.db_path);
  EXPECT_EQ(12u, m.file_number);
  EXPECT_EQ(kTableFile, m.file_type);
  EXPECT_EQ(4096u, m.size);
  EXPECT_EQ(5u, m.smallest_seqno);
  EXPECT_EQ(9u, m.largest_seqno);
  EXPECT_EQ("a", m.smallestkey);
  EXPECT_EQ("z", m.largestkey);
  EXPECT_TRUE(m.being_compacted);
  EXPECT_EQ(Temperature::kWarm, m.temperature);
  EXPECT_EQ(111u, m.oldest_ancester_time);
  EXPECT_EQ(222u, m.file_creation_time);
  EXPECT_EQ("abcd", m.file_checksum);
  EXPECT_EQ(func, m.file_checksum_func_name);
  SstFileMetaData relative("000013.sst", 13, "/db", 1, 0, 0, "", "", 0, false,
                           Temperature::kUnknown, 0, 0, 0, checksum, func);
  EXPECT_EQ("/000013.sst", relative.name);
  EXPECT_EQ("000013.sst", relative.relative_filename);

  std::vector<SstFileMetaData> files = {m};
  LevelMetaData level(1, 4096, std::move(files));
  EXPECT_EQ(1u, level.files.size());
  ColumnFamilyMetaData cf("cf", 4096, std::vector<LevelMetaData>{level});
  EXPECT_EQ("cf", cf.name);
  EXPECT_EQ(4096u, cf.size);
  EXPECT_EQ(1u, cf.levels.size());
  EXPECT_TRUE(cf.blob_files.empty());

  BlobMetaData blob(7, "000007.blob", "/db", 100, 2, 50, 1, 20, "sum", "func");
  EXPECT_EQ(7u, blob.blob_file_number);
  EXPECT_EQ("sum", blob.checksum_method);  // RocksDB's argument order
  EXPECT_EQ("func", blob.checksum_value);

  FileCreationBriefInfo brief("db", "cf", "/db/1.sst", 3);
  EXPECT_EQ(3, brief.job_id);
  FileDeletionInfo deleted("db", "/db/1.sst", 4, Status::OK());
  EXPECT_EQ(4, deleted.job_id);
  BlobFileCreationInfo blob_info("db", "cf", "/db/7.blob", 5, BlobFileCreationReason::kFlush, 2, 50,
                                 Status::OK(), "", "");
  EXPECT_EQ(5, blob_info.job_id);
  EXPECT_EQ(2u, blob_info.total_blob_count);
  BlobFileDeletionInfo blob_deleted("db", "/db/7.blob", 6, Status::OK());
  EXPECT_EQ(6, blob_deleted.job_id);
  BlobFileAdditionInfo added("/db/7.blob", 7, 2, 50);
  EXPECT_EQ(50u, added.total_blob_bytes);
  BlobFileGarbageInfo garbage("/db/7.blob", 7, 1, 20);
  EXPECT_EQ(20u, garbage.garbage_blob_bytes);
  FlushJobInfo flush;
  EXPECT_EQ(kNoCompression, flush.blob_compression_type);
  EXPECT_TRUE(flush.blob_file_addition_infos.empty());
  CompactionJobInfo compaction;
  EXPECT_TRUE(compaction.blob_file_garbage_infos.empty());
  const auto start = FileOperationInfo::StartNow();
  FileOperationInfo op(FileOperationType::kRead, "/db/1.sst", start, FileOperationInfo::FinishNow(),
                       Status::OK());
  EXPECT_EQ(Temperature::kUnknown, op.temperature);

  PerfContextByLevel by_level;
  by_level.bloom_filter_useful = 3;
  by_level.Reset();
  EXPECT_EQ(0u, by_level.bloom_filter_useful);
  FileIOByTemperature by_temperature;
  EXPECT_EQ(0u, by_temperature.cold_file_read_count);
  StallInterface* stall = nullptr;
  EXPECT_EQ(nullptr, stall);
}

}  // namespace
}  // namespace rocksdb
