// basic_crud: Put/Get/Delete/SingleDelete/DeleteRange, iteration both ways,
// Seek/SeekForPrev, snapshots and reopen, through RocksDB's C++ interface.
// Built twice (system RocksDB and libstrata-rocksdb); CTest compares the
// output byte for byte, so it prints only deterministic facts.
// Usage: basic_crud DB_DIR
#include <cstdio>
#include <cstdlib>
#include <string>

#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/slice.h"

using ROCKSDB_NAMESPACE::DB;
using ROCKSDB_NAMESPACE::Iterator;
using ROCKSDB_NAMESPACE::Options;
using ROCKSDB_NAMESPACE::ReadOptions;
using ROCKSDB_NAMESPACE::Slice;
using ROCKSDB_NAMESPACE::Status;
using ROCKSDB_NAMESPACE::WriteOptions;

static void Check(const Status& s, const char* what) {
  if (!s.ok()) {
    std::printf("FAILED %s: %s\n", what, s.ToString().c_str());
    std::exit(1);
  }
}

static void Dump(DB* db, const ReadOptions& ro, const char* label) {
  Iterator* it = db->NewIterator(ro);
  std::printf("%s forward:", label);
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    std::printf(" %s=%s", it->key().ToString().c_str(), it->value().ToString().c_str());
  }
  std::printf("\n%s backward:", label);
  for (it->SeekToLast(); it->Valid(); it->Prev()) {
    std::printf(" %s", it->key().ToString().c_str());
  }
  std::printf("\n");
  Check(it->status(), "iterator");
  delete it;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DB_DIR\n", argv[0]);
    return 2;
  }
  const std::string path = argv[1];
  Options options;
  options.create_if_missing = true;
  DB* db = nullptr;
  Check(DB::Open(options, path, &db), "open");

  WriteOptions wo;
  for (int i = 0; i < 20; i++) {
    char key[16], value[16];
    std::snprintf(key, sizeof(key), "key%02d", i);
    std::snprintf(value, sizeof(value), "v%d", i * i);
    Check(db->Put(wo, key, value), "put");
  }
  std::string value;
  Check(db->Get(ReadOptions(), "key07", &value), "get");
  std::printf("get key07 = %s\n", value.c_str());
  Status s = db->Get(ReadOptions(), "nokey", &value);
  std::printf("get nokey: IsNotFound=%d code=%d\n", s.IsNotFound() ? 1 : 0,
              static_cast<int>(s.code()));

  Check(db->Delete(wo, "key03"), "delete");
  Check(db->SingleDelete(wo, "key04"), "single delete");
  Check(db->DeleteRange(wo, db->DefaultColumnFamily(), "key10", "key15"), "delete range");

  const ROCKSDB_NAMESPACE::Snapshot* snap = db->GetSnapshot();
  Check(db->Put(wo, "key00", "changed"), "put after snapshot");
  Check(db->Delete(wo, "key19"), "delete after snapshot");
  Check(db->Put(wo, "key99", "new"), "put new");

  ReadOptions at_snap;
  at_snap.snapshot = snap;
  Dump(db, ReadOptions(), "now");
  Dump(db, at_snap, "snapshot");
  Check(db->Get(at_snap, "key00", &value), "get at snapshot");
  std::printf("snapshot key00 = %s\n", value.c_str());
  db->ReleaseSnapshot(snap);

  Iterator* it = db->NewIterator(ReadOptions());
  it->Seek("key05");
  std::printf("seek key05 -> %s\n", it->Valid() ? it->key().ToString().c_str() : "(end)");
  it->Seek("key10");
  std::printf("seek key10 -> %s\n", it->Valid() ? it->key().ToString().c_str() : "(end)");
  it->SeekForPrev("key12");
  std::printf("seekforprev key12 -> %s\n", it->Valid() ? it->key().ToString().c_str() : "(end)");
  it->SeekForPrev("a");
  std::printf("seekforprev a -> %s\n", it->Valid() ? it->key().ToString().c_str() : "(end)");
  it->Seek("zzz");
  std::printf("seek zzz -> %s\n", it->Valid() ? it->key().ToString().c_str() : "(end)");
  delete it;

  Check(db->Close(), "close");
  delete db;

  // Reopen: everything is still there (from the WAL).
  options.create_if_missing = false;
  Check(DB::Open(options, path, &db), "reopen");
  Dump(db, ReadOptions(), "reopened");
  Check(db->Flush(ROCKSDB_NAMESPACE::FlushOptions()), "flush");
  Dump(db, ReadOptions(), "flushed");
  delete db;

  // error_if_exists on an existing DB fails with InvalidArgument.
  options.error_if_exists = true;
  s = DB::Open(options, path, &db);
  std::printf("open with error_if_exists: ok=%d IsInvalidArgument=%d db_null=%d\n", s.ok() ? 1 : 0,
              s.IsInvalidArgument() ? 1 : 0, db == nullptr ? 1 : 0);
  Check(ROCKSDB_NAMESPACE::DestroyDB(path, Options()), "destroy");
  options.error_if_exists = false;
  s = DB::Open(options, path, &db);
  std::printf("open destroyed without create_if_missing: ok=%d IsInvalidArgument=%d\n",
              s.ok() ? 1 : 0, s.IsInvalidArgument() ? 1 : 0);
  delete db;
  return 0;
}
