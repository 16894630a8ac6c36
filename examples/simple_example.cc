// The smallest useful Strata program: open (creating) a database, write,
// read, iterate, delete, close. Uses only the installed public API.
#include <cstdio>
#include <memory>
#include <string>

#include "strata/db.h"

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "/tmp/strata_simple_example";
  strata::Options options;
  options.create_if_missing = true;
  std::unique_ptr<strata::DB> db;
  strata::Status s = strata::DB::Open(options, path, &db);
  if (!s.ok()) {
    fprintf(stderr, "open: %s\n", s.ToString().c_str());
    return 1;
  }
  s = db->Put(strata::WriteOptions(), "hello", "world");
  std::string value;
  if (s.ok()) s = db->Get(strata::ReadOptions(), "hello", &value);
  if (!s.ok() || value != "world") {
    fprintf(stderr, "put/get: %s\n", s.ToString().c_str());
    return 1;
  }
  strata::WriteBatch batch;
  s = batch.Put("k1", "v1");
  if (s.ok()) s = batch.Put("k2", "v2");
  if (s.ok()) s = batch.Delete("hello");
  if (s.ok()) s = db->Write(strata::WriteOptions(), &batch);
  if (!s.ok()) {
    fprintf(stderr, "write: %s\n", s.ToString().c_str());
    return 1;
  }
  auto it = db->NewIterator(strata::ReadOptions());
  int n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    printf("%s=%s\n", it->key().ToString().c_str(), it->value().ToString().c_str());
    n++;
  }
  if (!it->status().ok() || n != 2) {
    fprintf(stderr, "iterate: %s (%d keys)\n", it->status().ToString().c_str(), n);
    return 1;
  }
  it.reset();
  s = db->Close();
  if (!s.ok()) return 1;
  s = strata::DestroyDB(path, options);
  return s.ok() ? 0 : 1;
}
