// rocksdb_txn_recover: a test helper linking the system RocksDB (7.8.3,
// Debian's librocksdb) and nothing of Strata. It opens an existing
// directory as a RocksDB TransactionDB (WRITE_COMMITTED), with every column
// family the directory lists, and reports the prepared transactions
// RocksDB's recovery returns -- so tests can check that RocksDB recovers
// the prepared transactions Strata logged, byte for byte -- then resolves
// them as asked and closes the DB.
//
// Usage:
//   rocksdb_txn_recover --db=DIR [--resolve=none|commit|rollback]
//                       [--get=<cf>:<key>]...
//
// Standard output, one fact a line, sorted by xid then write order:
//   PREPARED <xid> <cf> PUT <key> <value>
//   PREPARED <xid> <cf> DELETE <key>
//   PREPARED <xid> <cf> SINGLEDELETE <key>
//   PREPARED <xid> <cf> MERGE <key> <value>
// then, after the resolution, for each --get (in order):
//   GET <cf> <key> <value> | GET <cf> <key> NOT_FOUND
// Keys and values are printed as they are (tests use printable ASCII).
//
// Exit status: 0 on success, 1 on a RocksDB error, 2 on a usage error.
// Thread-safety: a single-threaded program.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/utilities/transaction.h"
#include "rocksdb/utilities/transaction_db.h"
#include "rocksdb/utilities/write_batch_with_index.h"
#include "rocksdb/write_batch.h"

namespace {

int Fail(const rocksdb::Status& s, const char* what) {
  fprintf(stderr, "rocksdb_txn_recover: %s: %s\n", what, s.ToString().c_str());
  return 1;
}

// Prints a prepared transaction's writes.
class Printer : public rocksdb::WriteBatch::Handler {
 public:
  Printer(const std::string& xid, const std::map<uint32_t, std::string>& names)
      : xid_(xid), names_(names) {}
  rocksdb::Status PutCF(uint32_t cf, const rocksdb::Slice& k, const rocksdb::Slice& v) override {
    printf("PREPARED %s %s PUT %s %s\n", xid_.c_str(), Name(cf), k.ToString().c_str(),
           v.ToString().c_str());
    return rocksdb::Status::OK();
  }
  rocksdb::Status DeleteCF(uint32_t cf, const rocksdb::Slice& k) override {
    printf("PREPARED %s %s DELETE %s\n", xid_.c_str(), Name(cf), k.ToString().c_str());
    return rocksdb::Status::OK();
  }
  rocksdb::Status SingleDeleteCF(uint32_t cf, const rocksdb::Slice& k) override {
    printf("PREPARED %s %s SINGLEDELETE %s\n", xid_.c_str(), Name(cf), k.ToString().c_str());
    return rocksdb::Status::OK();
  }
  rocksdb::Status MergeCF(uint32_t cf, const rocksdb::Slice& k, const rocksdb::Slice& v) override {
    printf("PREPARED %s %s MERGE %s %s\n", xid_.c_str(), Name(cf), k.ToString().c_str(),
           v.ToString().c_str());
    return rocksdb::Status::OK();
  }
  rocksdb::Status MarkBeginPrepare(bool) override { return rocksdb::Status::OK(); }
  rocksdb::Status MarkEndPrepare(const rocksdb::Slice&) override { return rocksdb::Status::OK(); }
  rocksdb::Status MarkNoop(bool) override { return rocksdb::Status::OK(); }

 private:
  const char* Name(uint32_t cf) const {
    auto it = names_.find(cf);
    return it == names_.end() ? "?" : it->second.c_str();
  }
  std::string xid_;
  const std::map<uint32_t, std::string>& names_;
};

}  // namespace

int main(int argc, char** argv) {
  std::string db_path, resolve = "none";
  std::vector<std::pair<std::string, std::string>> gets;
  for (int i = 1; i < argc; i++) {
    if (strncmp(argv[i], "--db=", 5) == 0) {
      db_path = argv[i] + 5;
    } else if (strncmp(argv[i], "--resolve=", 10) == 0) {
      resolve = argv[i] + 10;
    } else if (strncmp(argv[i], "--get=", 6) == 0) {
      const std::string arg = argv[i] + 6;
      const size_t colon = arg.find(':');
      if (colon == std::string::npos) return 2;
      gets.emplace_back(arg.substr(0, colon), arg.substr(colon + 1));
    } else {
      fprintf(stderr, "rocksdb_txn_recover: unknown argument %s\n", argv[i]);
      return 2;
    }
  }
  if (db_path.empty() || (resolve != "none" && resolve != "commit" && resolve != "rollback")) {
    fprintf(stderr, "usage: rocksdb_txn_recover --db=DIR [--resolve=none|commit|rollback]\n");
    return 2;
  }
  rocksdb::DBOptions db_options;
  std::vector<std::string> names;
  rocksdb::Status s = rocksdb::DB::ListColumnFamilies(db_options, db_path, &names);
  if (!s.ok()) return Fail(s, "ListColumnFamilies");
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  for (const std::string& n : names) families.emplace_back(n, rocksdb::ColumnFamilyOptions());
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::TransactionDB* db = nullptr;
  s = rocksdb::TransactionDB::Open(db_options, rocksdb::TransactionDBOptions(), db_path, families,
                                   &handles, &db);
  if (!s.ok()) return Fail(s, "TransactionDB::Open");
  std::map<uint32_t, std::string> id_names;
  std::map<std::string, rocksdb::ColumnFamilyHandle*> by_name;
  for (auto* h : handles) {
    id_names[h->GetID()] = h->GetName();
    by_name[h->GetName()] = h;
  }
  std::vector<rocksdb::Transaction*> prepared;
  db->GetAllPreparedTransactions(&prepared);
  std::sort(prepared.begin(), prepared.end(), [](rocksdb::Transaction* a, rocksdb::Transaction* b) {
    return a->GetName() < b->GetName();
  });
  int rc = 0;
  for (rocksdb::Transaction* t : prepared) {
    Printer printer(t->GetName(), id_names);
    s = t->GetWriteBatch()->GetWriteBatch()->Iterate(&printer);
    if (!s.ok()) rc = Fail(s, "Iterate");
    if (resolve == "commit") s = t->Commit();
    if (resolve == "rollback") s = t->Rollback();
    if (!s.ok()) rc = Fail(s, "resolve");
    delete t;
  }
  for (const auto& [cf, key] : gets) {
    std::string value;
    auto it = by_name.find(cf);
    if (it == by_name.end()) return 2;
    s = db->Get(rocksdb::ReadOptions(), it->second, key, &value);
    if (s.IsNotFound()) {
      printf("GET %s %s NOT_FOUND\n", cf.c_str(), key.c_str());
    } else if (s.ok()) {
      printf("GET %s %s %s\n", cf.c_str(), key.c_str(), value.c_str());
    } else {
      rc = Fail(s, "Get");
    }
  }
  for (auto* h : handles) db->DestroyColumnFamilyHandle(h);
  s = db->Close();
  if (!s.ok()) rc = Fail(s, "Close");
  delete db;
  return rc;
}
