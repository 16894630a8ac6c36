// rocksdb_framework_tool: RocksDB's side of compat_framework_test, linked
// against the system librocksdb only. Subcommands (each prints its results
// on stdout, one per line, and exits 0 on success):
//   uniqueid <dir>      make a database of two table files in <dir>; print
//                       "<file> <id> <extended id>" for each table
//   ids <dir>           print the same lines for an existing database
//   encwrite <dir>      write a database encrypted with CTR over ROT13
//                       (32-byte blocks): keys k000..k199, flushed, and
//                       "tail" left in the WAL
//   encread <dir>       print "key=value" of every entry of such a database
#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/env_encryption.h"
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

std::unique_ptr<rocksdb::Env> EncryptedEnv() {
  // RocksDB 7.8.3 declares BlockCipher::NewROT13Cipher but does not define
  // it: the cipher comes from its registry.
  std::shared_ptr<rocksdb::BlockCipher> cipher;
  rocksdb::Status s =
      rocksdb::BlockCipher::CreateFromString(rocksdb::ConfigOptions(), "ROT13:32", &cipher);
  if (!s.ok()) Fail(s, "BlockCipher::CreateFromString");
  auto provider = rocksdb::EncryptionProvider::NewCTRProvider(cipher);
  return std::unique_ptr<rocksdb::Env>(rocksdb::NewEncryptedEnv(rocksdb::Env::Default(), provider));
}

int EncWrite(const std::string& dir) {
  std::unique_ptr<rocksdb::Env> env = EncryptedEnv();
  rocksdb::Options options;
  options.create_if_missing = true;
  options.env = env.get();
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, dir, &raw);
  if (!s.ok()) return Fail(s, "Open");
  std::unique_ptr<rocksdb::DB> db(raw);
  char key[16];
  for (int i = 0; i < 200; ++i) {
    snprintf(key, sizeof(key), "k%03d", i);
    s = db->Put(rocksdb::WriteOptions(), key, std::string("secret-value-") + key);
    if (!s.ok()) return Fail(s, "Put");
  }
  s = db->Flush(rocksdb::FlushOptions());
  if (!s.ok()) return Fail(s, "Flush");
  s = db->Put(rocksdb::WriteOptions(), "tail", "secret-tail");
  if (!s.ok()) return Fail(s, "Put");
  return 0;
}

int EncRead(const std::string& dir) {
  std::unique_ptr<rocksdb::Env> env = EncryptedEnv();
  rocksdb::Options options;
  options.env = env.get();
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, dir, &raw);
  if (!s.ok()) return Fail(s, "Open");
  std::unique_ptr<rocksdb::DB> db(raw);
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(rocksdb::ReadOptions()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    printf("%s=%s\n", it->key().ToString().c_str(), it->value().ToString().c_str());
  }
  if (!it->status().ok()) return Fail(it->status(), "Iterator");
  return 0;
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
  if (cmd == "encwrite") return EncWrite(argv[2]);
  if (cmd == "encread") return EncRead(argv[2]);
  fprintf(stderr, "unknown command %s\n", cmd.c_str());
  return 2;
}
