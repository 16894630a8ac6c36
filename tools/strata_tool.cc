// strata: the command-line tool for a database directory (the public API
// only; ldb-like commands live in RocksDB's ldb, which reads our files).
//
//   strata repair DIR               RepairDB: salvage tables and WALs into a
//                                   new MANIFEST (the DB must not be open)
//   strata verify DIR               open the DB (every column family) and
//                                   DB::VerifyChecksum: every block of every
//                                   live table
//   strata list_column_families DIR
//   strata count DIR                open, count the keys of every family
//
// Errors print the Status on stderr (it names the file and offset); the exit
// status is 1 on an error, 2 for bad arguments, else 0.
// Thread-safety: a single-threaded program.

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "strata/db.h"
#include "strata/iterator.h"
#include "strata/options.h"
#include "tools/strata_report.h"

namespace strata {
namespace {

int Fail(const char* what, const Status& s) {
  std::fprintf(stderr, "strata %s: %s\n", what, s.ToString().c_str());
  return 1;
}

// Opens every column family of the DB at dir.
Status OpenAll(const std::string& dir, std::unique_ptr<DB>* db,
               std::vector<ColumnFamilyHandle*>* handles) {
  DBOptions options;
  std::vector<std::string> names;
  Status s = DB::ListColumnFamilies(options, dir, &names);
  if (!s.ok()) return s;
  std::vector<ColumnFamilyDescriptor> families;
  for (const std::string& name : names) families.emplace_back(name, ColumnFamilyOptions());
  return DB::Open(options, dir, families, handles, db);
}

void CloseAll(DB* db, std::vector<ColumnFamilyHandle*>* handles) {
  for (ColumnFamilyHandle* h : *handles) db->DestroyColumnFamilyHandle(h).PermitUncheckedError();
  handles->clear();
  db->Close().PermitUncheckedError();
}

int Repair(const std::string& dir) {
  Options options;
  Status s = RepairDB(dir, options);
  if (!s.ok()) return Fail("repair", s);
  std::printf("repaired %s (see its LOG for what was kept and what went to lost/)\n", dir.c_str());
  return 0;
}

int Verify(const std::string& dir) {
  std::unique_ptr<DB> db;
  std::vector<ColumnFamilyHandle*> handles;
  Status s = OpenAll(dir, &db, &handles);
  if (!s.ok()) return Fail("verify", s);
  s = db->VerifyChecksum();
  CloseAll(db.get(), &handles);
  if (!s.ok()) return Fail("verify", s);
  std::printf("OK: every block of every live table file has a valid checksum\n");
  return 0;
}

int ListFamilies(const std::string& dir) {
  std::vector<std::string> names;
  Status s = DB::ListColumnFamilies(DBOptions(), dir, &names);
  if (!s.ok()) return Fail("list_column_families", s);
  for (const std::string& name : names) std::printf("%s\n", name.c_str());
  return 0;
}

int Count(const std::string& dir) {
  std::unique_ptr<DB> db;
  std::vector<ColumnFamilyHandle*> handles;
  Status s = OpenAll(dir, &db, &handles);
  if (!s.ok()) return Fail("count", s);
  for (ColumnFamilyHandle* h : handles) {
    uint64_t n = 0;
    std::unique_ptr<Iterator> it = db->NewIterator(ReadOptions(), h);
    for (it->SeekToFirst(); it->Valid(); it->Next()) ++n;
    s = it->status();
    it.reset();
    if (!s.ok()) break;
    std::printf("%s: %llu keys\n", h->GetName().c_str(), static_cast<unsigned long long>(n));
  }
  CloseAll(db.get(), &handles);
  if (!s.ok()) return Fail("count", s);
  return 0;
}

int Usage() {
  std::fprintf(stderr,
               "usage: strata repair DIR | verify DIR | list_column_families DIR | count DIR\n");
  return 2;
}

}  // namespace
}  // namespace strata

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "report") == 0)
    return strata::RunReport(argc - 1, argv + 1);
  if (argc != 3) return strata::Usage();
  const std::string command = argv[1];
  const std::string dir = argv[2];
  if (command == "repair") return strata::Repair(dir);
  if (command == "verify") return strata::Verify(dir);
  if (command == "list_column_families") return strata::ListFamilies(dir);
  if (command == "count") return strata::Count(dir);
  return strata::Usage();
}
