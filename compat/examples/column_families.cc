// column_families: column families (create, list, drop, reopen with
// descriptors), WriteBatch across families with a Handler walking it, and
// the MultiGet forms, through RocksDB's C++ interface. Built twice and
// compared byte for byte (see compat/tests/tests.cmake).
// Usage: column_families DB_DIR
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/slice.h"
#include "rocksdb/write_batch.h"

namespace rdb = ROCKSDB_NAMESPACE;

static void Check(const rdb::Status& s, const char* what) {
  if (!s.ok()) {
    std::printf("FAILED %s: %s\n", what, s.ToString().c_str());
    std::exit(1);
  }
}

// Prints each update of a batch as the Handler sees it.
class Printer : public rdb::WriteBatch::Handler {
 public:
  rdb::Status PutCF(uint32_t cf, const rdb::Slice& key, const rdb::Slice& value) override {
    std::printf("  put cf%u %s=%s\n", cf == 0 ? 0u : 1u, key.ToString().c_str(),
                value.ToString().c_str());
    return rdb::Status::OK();
  }
  rdb::Status DeleteCF(uint32_t cf, const rdb::Slice& key) override {
    std::printf("  delete cf%u %s\n", cf == 0 ? 0u : 1u, key.ToString().c_str());
    return rdb::Status::OK();
  }
  rdb::Status MergeCF(uint32_t, const rdb::Slice& key, const rdb::Slice&) override {
    std::printf("  merge %s\n", key.ToString().c_str());
    return rdb::Status::OK();
  }
};

static void PrintStatuses(const char* label, const std::vector<rdb::Status>& statuses,
                          const std::vector<std::string>& values) {
  std::printf("%s:", label);
  for (size_t i = 0; i < statuses.size(); i++) {
    if (statuses[i].ok()) {
      std::printf(" %s", values[i].c_str());
    } else {
      std::printf(" <%s>", statuses[i].IsNotFound() ? "notfound" : "error");
    }
  }
  std::printf("\n");
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const std::string path = argv[1];
  rdb::Options options;
  options.create_if_missing = true;
  rdb::DB* db = nullptr;
  Check(rdb::DB::Open(options, path, &db), "open");

  rdb::ColumnFamilyHandle* users = nullptr;
  rdb::ColumnFamilyOptions users_options;
  users_options.write_buffer_size = 3 << 20;
  users_options.num_levels = 5;
  Check(db->CreateColumnFamily(users_options, "users", &users), "create users");
  // The descriptor of a handle: its name and options.
  rdb::ColumnFamilyDescriptor desc;
  Check(users->GetDescriptor(&desc), "descriptor users");
  std::printf("descriptor %s: write_buffer_size %zu, num_levels %d\n", desc.name.c_str(),
              desc.options.write_buffer_size, desc.options.num_levels);
  Check(db->DefaultColumnFamily()->GetDescriptor(&desc), "descriptor default");
  std::printf("descriptor %s: write_buffer_size %zu\n", desc.name.c_str(),
              desc.options.write_buffer_size);
  Check(db->SetOptions(users, {{"write_buffer_size", "5242880"}}), "set options");
  Check(users->GetDescriptor(&desc), "descriptor users after SetOptions");
  std::printf("descriptor %s after SetOptions: write_buffer_size %zu\n", desc.name.c_str(),
              desc.options.write_buffer_size);
  std::vector<rdb::ColumnFamilyHandle*> more;
  Check(db->CreateColumnFamilies(rdb::ColumnFamilyOptions(), {"logs", "tmp"}, &more),
        "create more");
  std::printf("created %s (id>0: %d), %zu more\n", users->GetName().c_str(),
              users->GetID() > 0 ? 1 : 0, more.size());

  rdb::WriteBatch batch;
  Check(batch.Put("k1", "default-1"), "batch put");
  Check(batch.Put(users, "alice", "1"), "batch put users");
  Check(batch.Put(users, "bob", "2"), "batch put users");
  Check(batch.Put(users, "carol", "3"), "batch put users");
  Check(batch.Delete(users, "bob"), "batch delete users");
  Check(batch.Put(more[0], "l1", "log line"), "batch put logs");
  std::printf("batch count %u\n", batch.Count());
  Printer printer;
  Check(batch.Iterate(&printer), "iterate batch");
  Check(db->Write(rdb::WriteOptions(), &batch), "write");

  std::string v;
  rdb::Status s = db->Get(rdb::ReadOptions(), users, "alice", &v);
  std::printf("users/alice: %s\n", s.ok() ? v.c_str() : "missing");
  s = db->Get(rdb::ReadOptions(), "alice", &v);
  std::printf("default/alice found: %d\n", s.ok() ? 1 : 0);

  // MultiGet, vector form, one family and several.
  std::vector<rdb::Slice> keys = {"alice", "bob", "carol", "dave"};
  std::vector<std::string> values;
  std::vector<rdb::Status> statuses = db->MultiGet(
      rdb::ReadOptions(), std::vector<rdb::ColumnFamilyHandle*>(4, users), keys, &values);
  PrintStatuses("multiget users", statuses, values);
  std::vector<rdb::ColumnFamilyHandle*> cfs = {db->DefaultColumnFamily(), users, more[0], more[1]};
  std::vector<rdb::Slice> keys2 = {"k1", "carol", "l1", "nothing"};
  statuses = db->MultiGet(rdb::ReadOptions(), cfs, keys2, &values);
  PrintStatuses("multiget mixed", statuses, values);
  statuses = db->MultiGet(rdb::ReadOptions(), std::vector<rdb::Slice>{"k1", "k2"}, &values);
  PrintStatuses("multiget default", statuses, values);

  // MultiGet, array form with PinnableSlice.
  rdb::Slice akeys[3] = {"alice", "carol", "zed"};
  rdb::PinnableSlice avalues[3];
  rdb::Status astatuses[3];
  db->MultiGet(rdb::ReadOptions(), users, 3, akeys, avalues, astatuses);
  std::printf("multiget array:");
  for (int i = 0; i < 3; i++) {
    std::printf(" %s", astatuses[i].ok() ? avalues[i].ToString().c_str() : "<notfound>");
  }
  std::printf("\n");

  // Iterate one family.
  rdb::Iterator* it = db->NewIterator(rdb::ReadOptions(), users);
  std::printf("users:");
  for (it->SeekToFirst(); it->Valid(); it->Next()) std::printf(" %s", it->key().ToString().c_str());
  std::printf("\n");
  delete it;

  // Drop one family; list what is left.
  Check(db->DropColumnFamily(more[1]), "drop tmp");
  for (auto* h : more) Check(db->DestroyColumnFamilyHandle(h), "destroy handle");
  Check(db->DestroyColumnFamilyHandle(users), "destroy users handle");
  delete db;

  std::vector<std::string> names;
  Check(rdb::DB::ListColumnFamilies(rdb::DBOptions(), path, &names), "list");
  std::sort(names.begin(), names.end());
  std::printf("families:");
  for (const auto& n : names) std::printf(" %s", n.c_str());
  std::printf("\n");

  // Reopen with descriptors for every family.
  std::vector<rdb::ColumnFamilyDescriptor> descriptors;
  for (const auto& n : names) descriptors.emplace_back(n, rdb::ColumnFamilyOptions());
  std::vector<rdb::ColumnFamilyHandle*> handles;
  Check(rdb::DB::Open(rdb::DBOptions(), path, descriptors, &handles, &db), "reopen");
  std::printf("reopened with %zu handles\n", handles.size());
  for (size_t i = 0; i < handles.size(); i++) {
    it = db->NewIterator(rdb::ReadOptions(), handles[i]);
    std::printf("%s:", handles[i]->GetName().c_str());
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      std::printf(" %s=%s", it->key().ToString().c_str(), it->value().ToString().c_str());
    }
    std::printf("\n");
    delete it;
  }
  // Opening without every family fails.
  rdb::DB* db2 = nullptr;
  std::vector<rdb::ColumnFamilyHandle*> h2;
  s = rdb::DB::Open(rdb::DBOptions(), path + "_missing", descriptors, &h2, &db2);
  std::printf("open missing dir: ok=%d\n", s.ok() ? 1 : 0);
  for (auto* h : handles) Check(db->DestroyColumnFamilyHandle(h), "destroy");
  delete db;
  return 0;
}
