// experimental: RocksDB's deletion-triggered compaction
// (CompactOnDeletionCollectorFactory), experimental::SuggestCompactRange
// and experimental::PromoteL0, and WriteBatchBase (WriteBatch and
// WriteBatchWithIndex filled through one interface: SliceParts forms, the
// timestamp forms' errors, SetMaxBytes), and the tool and small utility
// headers (LDBTool and SSTDumpTool run in a child process,
// GetAllKeyVersions, LevelDBOptions, MemoryUtil), through
// RocksDB's C++ interface.
// Built twice and compared byte for byte.
// Usage: experimental DB_DIR
#include "rocksdb/experimental.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "rocksdb/cache.h"
#include "rocksdb/db.h"
#include "rocksdb/ldb_tool.h"
#include "rocksdb/merge_operator.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_dump_tool.h"
#include "rocksdb/table.h"
#include "rocksdb/utilities/debug.h"
#include "rocksdb/utilities/leveldb_options.h"
#include "rocksdb/utilities/memory_util.h"
#include "rocksdb/utilities/table_properties_collectors.h"
#include "rocksdb/utilities/write_batch_with_index.h"
#include "rocksdb/wide_columns.h"
#include "rocksdb/write_batch.h"
#include "rocksdb/write_batch_base.h"

namespace rdb = ROCKSDB_NAMESPACE;

static void Check(const rdb::Status& s, const char* what) {
  if (!s.ok()) {
    std::printf("FAILED %s: %s\n", what, s.ToString().c_str());
    std::exit(1);
  }
}

static std::string Key(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "key%04d", i);
  return buf;
}

static size_t LiveFiles(rdb::DB* db) {
  std::vector<rdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  return files.size();
}

// Waits (up to 10 s) until the DB has `want` table files; the last count.
static size_t WaitForFiles(rdb::DB* db, size_t want) {
  size_t n = LiveFiles(db);
  for (int i = 0; i < 200 && n != want; ++i) {
    usleep(50 * 1000);
    n = LiveFiles(db);
  }
  return n;
}

// A file of deletions is marked by the collector and compacted away with
// the values under it; a file with too few deletions stays.
static void CompactOnDeletion(const std::string& path) {
  auto factory = rdb::NewCompactOnDeletionCollectorFactory(256, 50);
  std::printf("factory: %s\n", factory->Name());
  std::printf("settings: window %zu trigger %zu ratio %.2f\n", factory->GetWindowSize(),
              factory->GetDeletionTrigger(), factory->GetDeletionRatio());
  factory->SetDeletionTrigger(40);
  factory->SetDeletionRatio(0.9);
  std::printf("%s\n", factory->ToString().c_str());

  rdb::Options options;
  options.create_if_missing = true;
  options.level0_file_num_compaction_trigger = 10;
  options.table_properties_collector_factories.push_back(factory);
  rdb::DB* db = nullptr;
  Check(rdb::DB::Open(options, path, &db), "open");
  rdb::WriteOptions wo;
  for (int i = 0; i < 500; ++i) Check(db->Put(wo, Key(i), "value"), "put");
  Check(db->CompactRange(rdb::CompactRangeOptions(), nullptr, nullptr), "compact");
  std::printf("after values: %zu file(s)\n", WaitForFiles(db, 1));

  // 39 deletions spread over 500 keys, among 100 new values: under the
  // trigger, under the ratio.
  for (int i = 0; i < 39; ++i) Check(db->Delete(wo, Key(i * 12)), "delete");
  for (int i = 500; i < 600; ++i) Check(db->Put(wo, Key(i), "value"), "put");
  Check(db->Flush(rdb::FlushOptions()), "flush");
  usleep(300 * 1000);
  std::printf("after 39 deletions: %zu file(s)\n", WaitForFiles(db, 2));

  // Every key deleted: the new file is marked and compacted away, and the
  // values with it.
  for (int i = 0; i < 600; ++i) Check(db->Delete(wo, Key(i)), "delete");
  Check(db->Flush(rdb::FlushOptions()), "flush");
  std::printf("after deleting all: %zu file(s)\n", WaitForFiles(db, 0));
  rdb::Iterator* it = db->NewIterator(rdb::ReadOptions());
  it->SeekToFirst();
  std::printf("keys left: %s\n", it->Valid() ? "yes" : "none");
  Check(it->status(), "iterate");
  delete it;
  Check(db->Close(), "close");
  delete db;
}

static std::string Property(rdb::DB* db, const std::string& name) {
  std::string v;
  if (!db->GetProperty(name, &v)) return "?";
  return v;
}

// "files per level: 0 0 2 0 0 0 0".
static void PrintLevels(rdb::DB* db, const char* label) {
  std::printf("%s:", label);
  for (int level = 0; level < db->NumberLevels(); ++level) {
    std::printf(" %s", Property(db, "rocksdb.num-files-at-level" + std::to_string(level)).c_str());
  }
  std::printf("\n");
}

static void Print(const char* what, const rdb::Status& s) {
  std::printf("%s: %s\n", what, s.ToString().c_str());
}

// PromoteL0's moves and errors (automatic compactions off).
static void PromoteL0(const std::string& path) {
  rdb::Options options;
  options.create_if_missing = true;
  options.disable_auto_compactions = true;
  rdb::DB* db = nullptr;
  Check(rdb::DB::Open(options, path, &db), "open");
  rdb::WriteOptions wo;
  rdb::ColumnFamilyHandle* cf = db->DefaultColumnFamily();
  Print("promote, empty level 0", rdb::experimental::PromoteL0(db, cf, 1));
  for (int i = 0; i < 100; ++i) Check(db->Put(wo, Key(i), "a"), "put");
  Check(db->Flush(rdb::FlushOptions()), "flush");
  for (int i = 100; i < 200; ++i) Check(db->Put(wo, Key(i), "b"), "put");
  Check(db->Flush(rdb::FlushOptions()), "flush");
  PrintLevels(db, "two level-0 files");
  Print("promote to 0", rdb::experimental::PromoteL0(db, cf, 0));
  Print("promote to 7", rdb::experimental::PromoteL0(db, cf, 7));
  Print("promote with no DB", rdb::experimental::PromoteL0(nullptr, cf, 1));
  Print("promote to 3", rdb::experimental::PromoteL0(db, cf, 3));
  PrintLevels(db, "after");
  for (int i = 300; i < 310; ++i) Check(db->Put(wo, Key(i), "e"), "put");
  Check(db->Flush(rdb::FlushOptions()), "flush");
  Print("promote past level 3", rdb::experimental::PromoteL0(db, cf, 4));
  Print("promote to 3 again", rdb::experimental::PromoteL0(db, cf, 3));
  Print("promote to 2", rdb::experimental::PromoteL0(db, cf, 2));
  PrintLevels(db, "after");
  for (int i = 50; i < 60; ++i) Check(db->Put(wo, Key(i), "c"), "put");
  Check(db->Flush(rdb::FlushOptions()), "flush");
  for (int i = 55; i < 65; ++i) Check(db->Put(wo, Key(i), "d"), "put");
  Check(db->Flush(rdb::FlushOptions()), "flush");
  Print("promote overlapping files", rdb::experimental::PromoteL0(db, cf, 1));
  std::string v;
  Check(db->Get(rdb::ReadOptions(), Key(57), &v), "get");
  std::printf("%s=%s\n", Key(57).c_str(), v.c_str());
  Check(db->Close(), "close");
  delete db;
}

// SuggestCompactRange: the level-0 file over the range is compacted down.
static void SuggestCompactRange(const std::string& path) {
  rdb::Options options;
  options.create_if_missing = true;
  options.level0_file_num_compaction_trigger = 10;
  rdb::DB* db = nullptr;
  Check(rdb::DB::Open(options, path, &db), "open");
  rdb::WriteOptions wo;
  for (int i = 0; i < 100; ++i) Check(db->Put(wo, Key(i), "a"), "put");
  Check(db->CompactRange(rdb::CompactRangeOptions(), nullptr, nullptr), "compact");
  for (int i = 40; i < 60; ++i) Check(db->Put(wo, Key(i), "b"), "put");
  Check(db->Flush(rdb::FlushOptions()), "flush");
  std::printf("level-0 files: %s\n", Property(db, "rocksdb.num-files-at-level0").c_str());
  const rdb::Slice none_b("zz0"), none_e("zz9");
  Print("suggest over no file", rdb::experimental::SuggestCompactRange(db, &none_b, &none_e));
  usleep(300 * 1000);
  std::printf("level-0 files: %s\n", Property(db, "rocksdb.num-files-at-level0").c_str());
  // (The overload without a family reads db's default family first: RocksDB
  // crashes on a null db there, Strata answers "DB is empty".)
  Print("suggest with no DB", rdb::experimental::SuggestCompactRange(
                                  nullptr, db->DefaultColumnFamily(), nullptr, nullptr));
  const std::string b = Key(45), e = Key(50);
  const rdb::Slice bs(b), es(e);
  Print("suggest", rdb::experimental::SuggestCompactRange(db, db->DefaultColumnFamily(), &bs, &es));
  std::printf("files: %zu\n", WaitForFiles(db, 1));
  std::printf("level-0 files: %s\n", Property(db, "rocksdb.num-files-at-level0").c_str());
  std::string v;
  Check(db->Get(rdb::ReadOptions(), Key(45), &v), "get");
  std::printf("%s=%s\n", Key(45).c_str(), v.c_str());
  Check(db->Close(), "close");
  delete db;
}

// Appends operands with ",".
class AppendOperator : public rdb::AssociativeMergeOperator {
 public:
  bool Merge(const rdb::Slice&, const rdb::Slice* existing, const rdb::Slice& value,
             std::string* new_value, rdb::Logger*) const override {
    *new_value = existing != nullptr ? existing->ToString() + "," : "";
    new_value->append(value.data(), value.size());
    return true;
  }
  const char* Name() const override { return "AppendOperator"; }
};

// Fills any batch kind through WriteBatchBase.
static void Fill(rdb::WriteBatchBase* b, rdb::ColumnFamilyHandle* cf, const char* tag) {
  const rdb::Slice key_parts[3] = {"key", "-", tag};
  const rdb::Slice value_parts[2] = {"val", tag};
  Check(b->Put(rdb::SliceParts(key_parts, 3), rdb::SliceParts(value_parts, 2)), "put parts");
  Check(b->Put(cf, std::string("plain-") + tag, "v"), "put");
  const rdb::Slice del_parts[2] = {"plain-", tag};
  Check(b->Delete(cf, rdb::SliceParts(del_parts, 2)), "delete parts");
  const rdb::Slice gone_parts[1] = {"gone"};
  Check(b->SingleDelete(rdb::SliceParts(gone_parts, 1)), "single delete parts");
  Check(b->Merge(cf, rdb::SliceParts(key_parts, 2), rdb::SliceParts(value_parts, 1)), "merge");
  b->SetSavePoint();
  Check(b->Put("rolled-back", "x"), "put");
  Check(b->RollbackToSavePoint(), "rollback");
}

static void WriteBatchBaseForms(const std::string& path) {
  rdb::Options options;
  options.create_if_missing = true;
  options.merge_operator = std::make_shared<AppendOperator>();
  rdb::DB* db = nullptr;
  Check(rdb::DB::Open(options, path, &db), "open");
  rdb::ColumnFamilyHandle* cf = db->DefaultColumnFamily();

  rdb::WriteBatch batch;
  Fill(&batch, cf, "wb");
  std::printf("batch count %d\n", batch.Count());
  rdb::WriteBatchWithIndex wbwi;
  Fill(&wbwi, cf, "wbwi");
  std::printf("indexed batch count %d\n", wbwi.GetWriteBatch()->Count());
  Check(db->Write(rdb::WriteOptions(), &batch), "write");
  Check(db->Write(rdb::WriteOptions(), wbwi.GetWriteBatch()), "write");
  rdb::Iterator* it = db->NewIterator(rdb::ReadOptions());
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    std::printf("  %s=%s\n", it->key().ToString().c_str(), it->value().ToString().c_str());
  }
  Check(it->status(), "iterate");
  delete it;

  // The timestamp forms on a family without timestamps, and PutEntity.
  rdb::WriteBatchBase* b = &batch;
  Print("put with ts", b->Put(cf, "k", "ts", "v"));
  Print("put with ts, no family", b->Put(nullptr, "k", "ts", "v"));
  Print("delete with ts", b->Delete(cf, "k", "ts"));
  Print("single delete with ts", b->SingleDelete(cf, "k", "ts"));
  Print("delete range with ts", b->DeleteRange(cf, "a", "b", "ts"));
  Print("merge with ts", b->Merge(cf, "k", "ts", "v"));
  const rdb::WideColumns columns{{"c1", "v1"}, {rdb::kDefaultWideColumnName, "v0"}};
  Print("put entity, no family", b->PutEntity(nullptr, "k", columns));
  // (PutEntity with a family: RocksDB stores the entity; Strata refuses it
  // with NotSupported, having no wide-column entities.)
  rdb::WriteBatchBase* wb = &wbwi;
  Print("indexed put with ts, no family", wb->Put(nullptr, "k", "ts", "v"));
  std::printf("indexed put with ts: %s\n",
              wb->Put(cf, "k", "ts", "v").IsNotSupported() ? "NotSupported" : "other");
  Print("indexed merge with ts", wb->Merge(cf, "k", "ts", "v"));
  Print("indexed delete range with ts", wb->DeleteRange(cf, "a", "b", "ts"));
  Print("indexed put entity", wb->PutEntity(cf, "k", columns));

  // SetMaxBytes through the base.
  rdb::WriteBatch small;
  b = &small;
  b->SetMaxBytes(30);
  Print("small put", b->Put("k", "v"));
  Print("large put", b->Put("k", std::string(40, 'x')));
  std::printf("small count %d, bytes %zu\n", small.Count(), small.GetDataSize());
  std::printf("GetWriteBatch is itself: %s\n", b->GetWriteBatch() == &small ? "yes" : "no");
  b->Clear();
  std::printf("after clear %d\n", small.Count());

  rdb::PinnableWideColumns pinned;
  pinned.SetPlainValue("plain");
  std::printf("plain value columns: %zu, name '%s', value '%s'\n", pinned.columns().size(),
              pinned.columns()[0].name().ToString().c_str(),
              pinned.columns()[0].value().ToString().c_str());
  Check(db->Close(), "close");
  delete db;
}

// Runs `ldb --db=path <args>` through LDBTool::Run (which ends the process)
// in a child: this program run again as `experimental --ldb ARGS...` (a
// fresh process, not a fork of one with background threads). Its output
// goes to our stdout. Returns its exit status.
static int RunLdb(const std::string& path, std::vector<std::string> args) {
  std::fflush(stdout);
  const pid_t pid = fork();
  if (pid == 0) {
    args.insert(args.begin(), "--db=" + path);
    args.insert(args.begin(), "--ldb");
    args.insert(args.begin(), "experimental");
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv("/proc/self/exe", argv.data());
    _exit(98);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void ToolsAndUtilities(const std::string& path) {
  // LevelDB's options, converted.
  rdb::LevelDBOptions leveldb;
  leveldb.create_if_missing = true;
  leveldb.block_size = 8192;
  rdb::Options options = rdb::ConvertOptions(leveldb);
  std::printf(
      "from LevelDB: create_if_missing %d, write_buffer_size %zu, max_open_files %d, "
      "compression %d\n",
      options.create_if_missing, options.write_buffer_size, options.max_open_files,
      static_cast<int>(options.compression));
  options.compression = rdb::kNoCompression;
  rdb::DB* db = nullptr;
  Check(rdb::DB::Open(options, path, &db), "open");
  rdb::WriteOptions wo;
  Check(db->Put(wo, "apple", "1"), "put");
  Check(db->Put(wo, "banana", "2"), "put");
  Check(db->Flush(rdb::FlushOptions()), "flush");
  Check(db->Put(wo, "apple", "3"), "put");
  Check(db->Delete(wo, "banana"), "delete");
  Check(db->SingleDelete(wo, "cherry"), "single delete");

  std::vector<rdb::KeyVersion> versions;
  Check(rdb::GetAllKeyVersions(db, "", "", 100, &versions), "key versions");
  for (const rdb::KeyVersion& v : versions) {
    std::printf("  version %s seq %llu %s (%d) '%s'\n", v.user_key.c_str(),
                static_cast<unsigned long long>(v.sequence), v.GetTypeName().c_str(), v.type,
                v.value.c_str());
  }
  Check(rdb::GetAllKeyVersions(db, db->DefaultColumnFamily(), "banana", "banana", 1, &versions),
        "key versions");
  std::printf("bounded: %zu", versions.size());
  if (!versions.empty()) {
    std::printf(", first %s seq %llu", versions[0].user_key.c_str(),
                static_cast<unsigned long long>(versions[0].sequence));
  }
  std::printf("\n");
  Check(rdb::GetAllKeyVersions(db, "b", "b", 10, &versions), "key versions");
  std::printf("between b and b: %zu\n", versions.size());
  Print("versions with no db", rdb::GetAllKeyVersions(nullptr, "", "", 1, &versions));

  // (GetInfoLogList: Debian's librocksdb does not export it; compat_tools_test
  // checks it.)

  std::shared_ptr<rdb::Cache> cache = rdb::NewLRUCache(1 << 20);
  std::map<rdb::MemoryUtil::UsageType, uint64_t> usage;
  Check(rdb::MemoryUtil::GetApproximateMemoryUsageByType({db}, {cache.get()}, &usage), "usage");
  std::printf("usage kinds:");
  for (const auto& [kind, bytes] : usage) std::printf(" %d", static_cast<int>(kind));
  std::printf("; memtables %s\n", usage[rdb::MemoryUtil::kMemTableTotal] > 0 ? "> 0" : "0");

  std::vector<rdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  const std::string table = files.at(0).db_path + files.at(0).name;
  Check(db->Close(), "close");
  delete db;

  std::printf("ldb get:\n");
  std::printf("exit %d\n", RunLdb(path, {"get", "apple"}));
  std::printf("ldb scan:\n");
  std::printf("exit %d\n", RunLdb(path, {"scan"}));
  std::printf("ldb get of a missing key: exit %d\n", RunLdb(path, {"get", "zzz"}));

  // sst_dump's text is its own; only the exit status is compared.
  std::fflush(stdout);
  const int saved = dup(1);
  const int devnull = open("/dev/null", O_WRONLY);
  dup2(devnull, 1);
  const std::string file_arg = "--file=" + table;
  const char* verify[] = {"sst_dump", file_arg.c_str(), "--command=verify"};
  const int verify_rc = rdb::SSTDumpTool().Run(3, verify);
  const char* missing[] = {"sst_dump", "--file=/nonexistent/x.sst"};
  const int missing_rc = rdb::SSTDumpTool().Run(2, missing);
  std::fflush(stdout);
  dup2(saved, 1);
  close(devnull);
  close(saved);
  std::printf("sst_dump verify: exit %d; missing file: exit %d\n", verify_rc,
              missing_rc != 0 ? 1 : 0);
}

int main(int argc, char** argv) {
  if (argc >= 2 && std::string(argv[1]) == "--ldb") {
    // The child of RunLdb: ldb's command line is the rest (argv[1] plays
    // the program name).
    rdb::LDBTool().Run(argc - 1, argv + 1);
    return 97;  // not reached: Run ends the process
  }
  if (argc != 2) return 2;
  const std::string path = argv[1];
  mkdir(path.c_str(), 0755);  // Open makes only the last path component
  CompactOnDeletion(path + "/on_deletion");
  PromoteL0(path + "/promote");
  SuggestCompactRange(path + "/suggest");
  WriteBatchBaseForms(path + "/batches");
  ToolsAndUtilities(path + "/tools");
  return 0;
}
