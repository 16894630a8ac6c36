// DbDumpTool and DbUndumpTool (db_dump_tool.h): a database dumped to
// RocksDB's dump format (anonymous: the file's bytes depend on the data
// only), the file's bytes summed up, then loaded into a new database; bad
// dump files refused. Built against RocksDB and against Strata's compat
// layer; the output must be identical.
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "rocksdb/db.h"
#include "rocksdb/db_dump_tool.h"
#include "rocksdb/options.h"

using namespace rocksdb;

namespace {

void Must(const Status& s, const char* what) {
  if (!s.ok()) printf("%s: %s\n", what, s.ToString().c_str());
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void WriteAll(const std::string& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << data;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string base = argc > 1 ? argv[1] : "/tmp/compat_dump";
  const std::string src = base + "_src", dst = base + "_dst", file = base + ".dump";
  Options options;
  options.create_if_missing = true;
  Must(DestroyDB(src, options), "DestroyDB");
  Must(DestroyDB(dst, options), "DestroyDB");
  {
    DB* raw = nullptr;
    Must(DB::Open(options, src, &raw), "Open");
    std::unique_ptr<DB> db(raw);
    for (int i = 0; i < 300; ++i) {
      Must(db->Put(WriteOptions(), "key" + std::to_string(i), std::string(i % 40, 'x')), "Put");
    }
    Must(db->Put(WriteOptions(), std::string("bin\0key", 7), std::string("\0\1\2", 3)), "Put");
    Must(db->Delete(WriteOptions(), "key7"), "Delete");
    Must(db->Flush(FlushOptions()), "Flush");
    Must(db->Put(WriteOptions(), "unflushed", "in the wal"), "Put");
  }

  DumpOptions dump;
  dump.db_path = src;
  dump.dump_location = file;
  dump.anonymous = true;
  printf("dump: %d\n", DbDumpTool().Run(dump));
  const std::string bytes = ReadAll(file);
  unsigned long long sum = 0;
  for (unsigned char c : bytes) sum = sum * 131 + c;
  printf("dump file: %zu bytes, head [%s], info size %d, checksum %llu\n", bytes.size(),
         bytes.substr(0, 8).c_str(), static_cast<int>(static_cast<unsigned char>(bytes[16])), sum);

  UndumpOptions undump;
  undump.db_path = dst;
  undump.dump_location = file;
  undump.compact_db = true;
  printf("undump: %d\n", DbUndumpTool().Run(undump));
  {
    DB* raw = nullptr;
    Must(DB::Open(options, dst, &raw), "Open");
    std::unique_ptr<DB> db(raw);
    int count = 0;
    std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions()));
    for (it->SeekToFirst(); it->Valid(); it->Next()) ++count;
    std::string v;
    printf("loaded: %d entries; key7 %s; unflushed %s; bin %zu bytes\n", count,
           db->Get(ReadOptions(), "key7", &v).ToString().c_str(),
           db->Get(ReadOptions(), "unflushed", &v).ok() ? v.c_str() : "missing",
           db->Get(ReadOptions(), std::string("bin\0key", 7), &v).ok() ? v.size() : 0);
  }

  dump.anonymous = false;
  dump.dump_location = file + ".named";
  printf("named dump: %d\n", DbDumpTool().Run(dump));
  undump.dump_location = file + ".named";
  printf("named undump: %d\n", DbUndumpTool().Run(undump));

  // Refusals (their messages go to stderr).
  WriteAll(file + ".bad", "NOTADUMP0000000");
  undump.dump_location = file + ".bad";
  printf("bad magic: %d\n", DbUndumpTool().Run(undump));
  WriteAll(file + ".cut", bytes.substr(0, bytes.size() - 3));
  undump.dump_location = file + ".cut";
  printf("truncated: %d\n", DbUndumpTool().Run(undump));
  undump.dump_location = file + ".missing";
  printf("missing: %d\n", DbUndumpTool().Run(undump));
  dump.db_path = base + "_nodb";
  printf("dump of nothing: %d\n", DbDumpTool().Run(dump));

  Must(DestroyDB(src, options), "DestroyDB");
  Must(DestroyDB(dst, options), "DestroyDB");
  for (const char* suffix : {"", ".named", ".bad", ".cut"}) std::remove((file + suffix).c_str());
  return 0;
}
