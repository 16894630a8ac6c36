// db_surface: the members of rocksdb::DB beyond reads and writes, through
// RocksDB's C++ interface: GetEntity of plain values, LockWAL/UnlockWAL,
// GetCreationTimeOfOldestFile, GetAllColumnFamilyMetaData,
// GetCurrentWalFile, GetLiveFilesStorageInfo, IngestExternalFiles, the
// timestamp forms on families without timestamps, GetFileSystem, and trace
// records run by TraceRecord::NewExecutionHandler.
// Built twice and compared byte for byte.
// Usage: db_surface DB_DIR
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/file_system.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/trace_record.h"
#include "rocksdb/trace_record_result.h"
#include "rocksdb/wide_columns.h"

using namespace rocksdb;

namespace {

void Check(const Status& s, const char* what) {
  if (!s.ok()) {
    std::printf("FAILED %s: %s\n", what, s.ToString().c_str());
    std::exit(1);
  }
}

void Show(const char* what, const Status& s) {
  std::printf("%s: %s\n", what, s.ToString().c_str());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DB_DIR\n", argv[0]);
    return 2;
  }
  const std::string path = argv[1];
  Options options;
  options.create_if_missing = true;
  options.create_missing_column_families = true;
  std::vector<ColumnFamilyDescriptor> cfs{{kDefaultColumnFamilyName, ColumnFamilyOptions()},
                                          {"second", ColumnFamilyOptions()}};
  std::vector<ColumnFamilyHandle*> handles;
  DB* raw = nullptr;
  Check(DB::Open(DBOptions(options), path, cfs, &handles, &raw), "open");
  std::unique_ptr<DB> db(raw);

  // GetEntity: a plain value is one anonymous column.
  Check(db->Put(WriteOptions(), "k1", "v1"), "put");
  PinnableWideColumns columns;
  Check(db->GetEntity(ReadOptions(), handles[0], "k1", &columns), "get entity");
  for (const WideColumn& c : columns.columns()) {
    std::printf("entity column '%s' = '%s'\n", c.name().ToString().c_str(),
                c.value().ToString().c_str());
  }
  Show("get entity of an absent key", db->GetEntity(ReadOptions(), handles[0], "nope", &columns));
  std::printf("columns after absent: %zu\n", columns.columns().size());

  // The oldest file: no table yet, then two.
  uint64_t oldest = 0;
  Check(db->GetCreationTimeOfOldestFile(&oldest), "oldest (empty)");
  std::printf("oldest file, no tables: %s\n", oldest == UINT64_MAX ? "UINT64_MAX" : "other");
  Check(db->Flush(FlushOptions(), handles[0]), "flush");
  Check(db->Put(WriteOptions(), handles[1], "s1", "x"), "put second");
  Check(db->Flush(FlushOptions(), handles[1]), "flush second");
  Check(db->GetCreationTimeOfOldestFile(&oldest), "oldest");
  std::vector<LiveFileMetaData> live;
  db->GetLiveFilesMetaData(&live);
  uint64_t expected = UINT64_MAX;
  for (const LiveFileMetaData& m : live) expected = std::min(expected, m.file_creation_time);
  std::printf("oldest file matches the live files: %s (%zu files)\n",
              oldest == expected && oldest > 0 ? "yes" : "no", live.size());

  std::vector<ColumnFamilyMetaData> all;
  db->GetAllColumnFamilyMetaData(&all);
  for (const ColumnFamilyMetaData& m : all) {
    std::printf("family %s: %zu files, %zu levels, size>0 %d\n", m.name.c_str(), m.file_count,
                m.levels.size(), m.size > 0 ? 1 : 0);
  }

  std::unique_ptr<LogFile> wal;
  Check(db->GetCurrentWalFile(&wal), "current wal");
  std::printf("current wal: alive %d, start sequence %llu\n", wal->Type() == kAliveLogFile,
              static_cast<unsigned long long>(wal->StartSequence()));

  std::vector<LiveFileStorageInfo> files;
  Check(db->GetLiveFilesStorageInfo(LiveFilesStorageInfoOptions(), &files), "storage info");
  int tables = 0, current = 0, manifests = 0;
  for (const LiveFileStorageInfo& f : files) {
    tables += f.file_type == kTableFile;
    current += f.file_type == kCurrentFile;
    manifests += f.file_type == kDescriptorFile;
  }
  std::printf("storage info: %d tables, %d CURRENT, %d MANIFEST\n", tables, current, manifests);

  // LockWAL / UnlockWAL around nothing, then writes go on.
  Show("lock wal", db->LockWAL());
  Show("unlock wal", db->UnlockWAL());
  Check(db->Put(WriteOptions(), "k2", "v2"), "put after unlock");

  // Two families' files in one ingestion.
  std::vector<std::string> ext{path + "_a.sst", path + "_b.sst"};
  for (size_t i = 0; i < ext.size(); i++) {
    SstFileWriter writer(EnvOptions(), options);
    Check(writer.Open(ext[i]), "sst open");
    Check(writer.Put(i == 0 ? "ia" : "ib", "ingested"), "sst put");
    Check(writer.Finish(), "sst finish");
  }
  std::vector<IngestExternalFileArg> args(2);
  args[0].column_family = handles[0];
  args[0].external_files = {ext[0]};
  args[1].column_family = handles[1];
  args[1].external_files = {ext[1]};
  Check(db->IngestExternalFiles(args), "ingest files");
  std::string value;
  Check(db->Get(ReadOptions(), handles[0], "ia", &value), "get ia");
  std::printf("ia = %s\n", value.c_str());
  Check(db->Get(ReadOptions(), handles[1], "ib", &value), "get ib");
  std::printf("ib = %s\n", value.c_str());

  // Timestamp forms on families without timestamps.
  Show("put with ts", db->Put(WriteOptions(), handles[1], "k", "ts", "v"));
  Show("delete with ts", db->Delete(WriteOptions(), "k", "ts"));
  Show("single delete with ts", db->SingleDelete(WriteOptions(), "k", "ts"));
  std::string ts_low;
  Show("get full_history_ts_low", db->GetFullHistoryTsLow(handles[1], &ts_low));
  Show("increase full_history_ts_low", db->IncreaseFullHistoryTsLow(handles[1], "x"));
  std::string stamp = "unchanged";
  Show("get with timestamp output", db->Get(ReadOptions(), handles[0], "k1", &value, &stamp));
  std::printf("value %s, timestamp '%s'\n", value.c_str(), stamp.c_str());

  std::printf("file system is the env's: %d\n",
              db->GetFileSystem() == db->GetEnv()->GetFileSystem().get());

  // Trace records run against the database.
  std::unique_ptr<TraceRecord::Handler> handler(
      TraceRecord::NewExecutionHandler(db.get(), handles));
  WriteBatch batch;
  Check(batch.Put(handles[1], "t1", "traced"), "batch put");
  WriteQueryTraceRecord write(batch.Data(), 1);
  std::unique_ptr<TraceRecordResult> result;
  Show("trace write", write.Accept(handler.get(), &result));
  GetQueryTraceRecord get(handles[1]->GetID(), std::string("t1"), 2);
  Show("trace get", get.Accept(handler.get(), &result));
  auto* single = dynamic_cast<SingleValueTraceExecutionResult*>(result.get());
  std::printf("traced get: %s %s\n", single->GetStatus().ToString().c_str(),
              single->GetValue().c_str());
  IteratorSeekQueryTraceRecord seek(IteratorSeekQueryTraceRecord::kSeekForPrev, handles[0]->GetID(),
                                    std::string("k9"), 3);
  Show("trace seek", seek.Accept(handler.get(), &result));
  auto* it = dynamic_cast<IteratorTraceExecutionResult*>(result.get());
  std::printf("traced seek: valid %d key %s\n", it->GetValid(), it->GetKey().ToString().c_str());
  MultiGetQueryTraceRecord multi({handles[0]->GetID(), handles[1]->GetID()},
                                 std::vector<std::string>{"k2", "zz"}, 4);
  Show("trace multiget", multi.Accept(handler.get(), &result));
  auto* values = dynamic_cast<MultiValuesTraceExecutionResult*>(result.get());
  for (size_t i = 0; i < values->GetValues().size(); i++) {
    std::printf("traced multiget %zu: %s '%s'\n", i, values->GetMultiStatus()[i].ToString().c_str(),
                values->GetValues()[i].c_str());
  }
  GetQueryTraceRecord bad(12345, std::string("t1"), 5);
  Show("trace get of an unknown family", bad.Accept(handler.get(), &result));

  for (ColumnFamilyHandle* h : handles) Check(db->DestroyColumnFamilyHandle(h), "destroy handle");
  Check(db->Close(), "close");
  db.reset();

  // GetCreationTimeOfOldestFile needs max_open_files = -1.
  options.max_open_files = 100;
  cfs.resize(1);
  Check(DB::Open(DBOptions(options), path, {cfs[0], {"second", ColumnFamilyOptions()}}, &handles,
                 &raw),
        "reopen");
  db.reset(raw);
  Show("oldest file with max_open_files=100", db->GetCreationTimeOfOldestFile(&oldest));
  for (ColumnFamilyHandle* h : handles) Check(db->DestroyColumnFamilyHandle(h), "destroy handle");
  db.reset();
  for (const std::string& f : ext) Env::Default()->DeleteFile(f).PermitUncheckedError();
  std::printf("done\n");
  return 0;
}
