// utilities: WriteBatchWithIndex (read-your-writes over a DB),
// SstFileWriter + IngestExternalFile, Checkpoint, OpenForReadOnly and
// ManagedSnapshot, through RocksDB's C++ interface. Built twice and
// compared byte for byte.
// Usage: utilities DB_DIR
#include <cstdio>
#include <cstdlib>
#include <string>

#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/snapshot.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/utilities/checkpoint.h"
#include "rocksdb/utilities/write_batch_with_index.h"

namespace rdb = ROCKSDB_NAMESPACE;

static void Check(const rdb::Status& s, const char* what) {
  if (!s.ok()) {
    std::printf("FAILED %s: %s\n", what, s.ToString().c_str());
    std::exit(1);
  }
}

static void DumpDB(rdb::DB* db, const char* label) {
  rdb::Iterator* it = db->NewIterator(rdb::ReadOptions());
  std::printf("%s:", label);
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    std::printf(" %s=%s", it->key().ToString().c_str(), it->value().ToString().c_str());
  }
  std::printf("\n");
  Check(it->status(), "iterate");
  delete it;
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const std::string path = argv[1];
  rdb::Options options;
  options.create_if_missing = true;
  rdb::DB* db = nullptr;
  Check(rdb::DB::Open(options, path, &db), "open");
  for (const char* k : {"a", "c", "e", "g"}) Check(db->Put(rdb::WriteOptions(), k, "db"), "put");

  // WriteBatchWithIndex: the batch's writes seen over the DB before commit.
  rdb::WriteBatchWithIndex wbwi(rdb::BytewiseComparator(), 0, true);
  Check(wbwi.Put("b", "batch"), "wbwi put");
  Check(wbwi.Put("c", "batch"), "wbwi put");
  Check(wbwi.Delete("e"), "wbwi delete");
  std::string v;
  rdb::Status s = wbwi.GetFromBatch(rdb::DBOptions(), "b", &v);
  std::printf("batch b: %s\n", s.ok() ? v.c_str() : "<absent>");
  s = wbwi.GetFromBatch(rdb::DBOptions(), "a", &v);
  std::printf("batch a notfound: %d\n", s.IsNotFound() ? 1 : 0);
  s = wbwi.GetFromBatchAndDB(db, rdb::ReadOptions(), "a", &v);
  std::printf("batch+db a: %s\n", s.ok() ? v.c_str() : "<absent>");
  s = wbwi.GetFromBatchAndDB(db, rdb::ReadOptions(), "e", &v);
  std::printf("batch+db e notfound: %d\n", s.IsNotFound() ? 1 : 0);
  rdb::Iterator* merged = wbwi.NewIteratorWithBase(db->NewIterator(rdb::ReadOptions()));
  std::printf("batch over db:");
  for (merged->SeekToFirst(); merged->Valid(); merged->Next()) {
    std::printf(" %s=%s", merged->key().ToString().c_str(), merged->value().ToString().c_str());
  }
  std::printf("\n");
  delete merged;
  rdb::WBWIIterator* own = wbwi.NewIterator();
  std::printf("batch entries:");
  for (own->SeekToFirst(); own->Valid(); own->Next()) {
    rdb::WriteEntry e = own->Entry();
    std::printf(" %s(%s)", e.key.ToString().c_str(), e.type == rdb::kPutRecord ? "put" : "delete");
  }
  std::printf("\n");
  delete own;
  Check(db->Write(rdb::WriteOptions(), wbwi.GetWriteBatch()), "write wbwi");
  DumpDB(db, "after commit");

  // ManagedSnapshot.
  {
    rdb::ManagedSnapshot snap(db);
    Check(db->Put(rdb::WriteOptions(), "a", "later"), "put");
    rdb::ReadOptions ro;
    ro.snapshot = snap.snapshot();
    Check(db->Get(ro, "a", &v), "get at snapshot");
    std::printf("managed snapshot a = %s\n", v.c_str());
  }

  // SstFileWriter + IngestExternalFile.
  const std::string sst = path + "_ingest.sst";
  {
    rdb::SstFileWriter writer(rdb::EnvOptions(), options);
    Check(writer.Open(sst), "sst open");
    for (const char* k : {"x1", "x2", "x3"})
      Check(writer.Put(k, std::string("ingested-") + k), "sst put");
    s = writer.Put("x0", "out of order");
    std::printf("out-of-order put refused: %d\n", s.ok() ? 0 : 1);
    rdb::ExternalSstFileInfo info;
    Check(writer.Finish(&info), "sst finish");
    std::printf("sst: %llu entries, %s..%s\n", static_cast<unsigned long long>(info.num_entries),
                info.smallest_key.c_str(), info.largest_key.c_str());
  }
  Check(db->IngestExternalFile({sst}, rdb::IngestExternalFileOptions()), "ingest");
  DumpDB(db, "after ingest");

  // Checkpoint, opened read-only.
  rdb::Checkpoint* checkpoint = nullptr;
  Check(rdb::Checkpoint::Create(db, &checkpoint), "checkpoint create");
  const std::string cp = path + "_checkpoint";
  Check(checkpoint->CreateCheckpoint(cp), "checkpoint");
  delete checkpoint;
  Check(db->Put(rdb::WriteOptions(), "z", "after checkpoint"), "put");
  delete db;

  rdb::DB* ro_db = nullptr;
  Check(rdb::DB::OpenForReadOnly(rdb::Options(), cp, &ro_db), "open checkpoint read-only");
  DumpDB(ro_db, "checkpoint");
  s = ro_db->Put(rdb::WriteOptions(), "q", "q");
  std::printf("write to read-only: ok=%d\n", s.ok() ? 1 : 0);
  delete ro_db;
  Check(rdb::DestroyDB(cp, rdb::Options()), "destroy checkpoint");
  std::remove(sst.c_str());
  return 0;
}
