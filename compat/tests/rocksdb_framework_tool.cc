// rocksdb_framework_tool: RocksDB's side of compat_framework_test, linked
// against the system librocksdb only. Subcommands (each prints its results
// on stdout, one per line, and exits 0 on success):
//   uniqueid <dir>      make a database of two table files in <dir>; print
//                       "<file> <id> <extended id>" for each table
//   ids <dir>           print the same lines for an existing database
#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/table_properties.h"
#include "rocksdb/unique_id.h"

namespace {

int Fail(const rocksdb::Status& s, const char* what) {
  fprintf(stderr, "%s: %s\n", what, s.ToString().c_str());
  return 1;
}

int PrintIds(rocksdb::DB* db) {
  rocksdb::TablePropertiesCollection props;
  rocksdb::Status s = db->GetPropertiesOfAllTables(&props);
  if (!s.ok()) return Fail(s, "GetPropertiesOfAllTables");
  std::map<std::string, std::string> lines;  // by file name, sorted
  for (const auto& [file, p] : props) {
    std::string id, ext;
    s = rocksdb::GetUniqueIdFromTableProperties(*p, &id);
    if (!s.ok()) return Fail(s, "GetUniqueIdFromTableProperties");
    s = rocksdb::GetExtendedUniqueIdFromTableProperties(*p, &ext);
    if (!s.ok()) return Fail(s, "GetExtendedUniqueIdFromTableProperties");
    const std::string base = file.substr(file.rfind('/') + 1);
    lines[base] =
        base + " " + rocksdb::UniqueIdToHumanString(id) + " " + rocksdb::UniqueIdToHumanString(ext);
  }
  for (const auto& [file, line] : lines) printf("%s\n", line.c_str());
  return 0;
}

int UniqueIds(const std::string& dir, bool create) {
  rocksdb::Options options;
  options.create_if_missing = create;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, dir, &raw);
  if (!s.ok()) return Fail(s, "Open");
  std::unique_ptr<rocksdb::DB> db(raw);
  if (create) {
    for (int f = 0; f < 2; ++f) {
      for (int i = 0; i < 10; ++i) {
        s = db->Put(rocksdb::WriteOptions(), "key" + std::to_string(f * 10 + i), "value");
        if (!s.ok()) return Fail(s, "Put");
      }
      s = db->Flush(rocksdb::FlushOptions());
      if (!s.ok()) return Fail(s, "Flush");
    }
  }
  return PrintIds(db.get());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s uniqueid|ids <dir>\n", argv[0]);
    return 2;
  }
  const std::string cmd = argv[1];
  if (cmd == "uniqueid") return UniqueIds(argv[2], /*create=*/true);
  if (cmd == "ids") return UniqueIds(argv[2], /*create=*/false);
  fprintf(stderr, "unknown command %s\n", cmd.c_str());
  return 2;
}
