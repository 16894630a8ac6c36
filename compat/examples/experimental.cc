// experimental: RocksDB's deletion-triggered compaction
// (CompactOnDeletionCollectorFactory), through RocksDB's C++ interface.
// Built twice and compared byte for byte.
// Usage: experimental DB_DIR
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/utilities/table_properties_collectors.h"

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

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const std::string path = argv[1];
  mkdir(path.c_str(), 0755);  // Open makes only the last path component
  CompactOnDeletion(path + "/on_deletion");
  return 0;
}
