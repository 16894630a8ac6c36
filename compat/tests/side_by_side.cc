// side_by_side: one program that uses Strata's native API (strata::, from
// libstrata.a) and the system RocksDB (rocksdb::, from librocksdb) together.
// Each writes a database; then RocksDB reads the one Strata wrote (the
// formats are shared) and Strata reads the one RocksDB wrote. Linking both
// without a clash is the point: libstrata defines no rocksdb:: symbol.
// Usage: side_by_side DIR
#include <rocksdb/db.h>
#include <rocksdb/options.h>

#include <cstdio>
#include <memory>
#include <string>

#include "strata/db.h"
#include "strata/options.h"

namespace {

int Fail(const char* what, const std::string& status) {
  std::printf("FAILED %s: %s\n", what, status.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  const std::string strata_path = dir + "/by_strata";
  const std::string rocksdb_path = dir + "/by_rocksdb";
  std::string cmd = "rm -rf '" + dir + "' && mkdir -p '" + dir + "'";
  if (std::system(cmd.c_str()) != 0) return Fail("mkdir", dir);

  {  // Strata writes.
    strata::Options o;
    o.create_if_missing = true;
    std::unique_ptr<strata::DB> db;
    strata::Status s = strata::DB::Open(o, strata_path, &db);
    if (!s.ok()) return Fail("strata open", s.ToString());
    for (int i = 0; i < 100; i++) {
      s = db->Put(strata::WriteOptions(), "s" + std::to_string(i), "strata" + std::to_string(i));
      if (!s.ok()) return Fail("strata put", s.ToString());
    }
    s = db->Flush(strata::FlushOptions());
    if (!s.ok()) return Fail("strata flush", s.ToString());
  }
  {  // RocksDB writes.
    rocksdb::Options o;
    o.create_if_missing = true;
    rocksdb::DB* db = nullptr;
    rocksdb::Status s = rocksdb::DB::Open(o, rocksdb_path, &db);
    if (!s.ok()) return Fail("rocksdb open", s.ToString());
    for (int i = 0; i < 100; i++) {
      s = db->Put(rocksdb::WriteOptions(), "r" + std::to_string(i), "rocks" + std::to_string(i));
      if (!s.ok()) return Fail("rocksdb put", s.ToString());
    }
    s = db->Flush(rocksdb::FlushOptions());
    if (!s.ok()) return Fail("rocksdb flush", s.ToString());
    delete db;
  }
  {  // RocksDB reads Strata's database.
    rocksdb::Options o;
    rocksdb::DB* db = nullptr;
    rocksdb::Status s = rocksdb::DB::OpenForReadOnly(o, strata_path, &db);
    if (!s.ok()) return Fail("rocksdb open strata's db", s.ToString());
    std::string v;
    s = db->Get(rocksdb::ReadOptions(), "s42", &v);
    if (!s.ok() || v != "strata42") return Fail("rocksdb get s42", s.ToString() + " " + v);
    std::printf("rocksdb read s42=%s from Strata's database\n", v.c_str());
    delete db;
  }
  {  // Strata reads RocksDB's database.
    strata::Options o;
    std::unique_ptr<strata::DB> db;
    strata::Status s = strata::DB::Open(o, rocksdb_path, &db);
    if (!s.ok()) return Fail("strata open rocksdb's db", s.ToString());
    std::string v;
    s = db->Get(strata::ReadOptions(), "r7", &v);
    if (!s.ok() || v != "rocks7") return Fail("strata get r7", s.ToString() + " " + v);
    std::printf("strata read r7=%s from RocksDB's database\n", v.c_str());
  }
  std::printf("OK: strata:: and rocksdb:: in one program\n");
  return 0;
}
