// OpenDatabase (tools/ldb/ldb_open.h).

#include "tools/ldb/ldb_open.h"

#include "strata/utilities/db_ttl.h"

namespace strata::ldb {

OpenedDb::~OpenedDb() {
  if (db == nullptr) return;
  for (ColumnFamilyHandle* h : handles) db->DestroyColumnFamilyHandle(h).PermitUncheckedError();
  handles.clear();
  db->Close().PermitUncheckedError();
  db.reset();
}

Status OpenDatabase(const std::string& path, const Options& options,
                    const std::vector<ColumnFamilyDescriptor>& families, bool read_only,
                    std::unique_ptr<OpenedDb>* out, bool ttl) {
  auto opened = std::make_unique<OpenedDb>();
  Status s;
  if (ttl) {
    if (!families.empty()) {
      return Status::InvalidArgument("ldb doesn't support TTL DB with multiple column families");
    }
    std::unique_ptr<DBWithTTL> ttl_db;
    s = DBWithTTL::Open(options, path, &ttl_db, /*ttl=*/0, read_only);
    opened->db = std::move(ttl_db);
  } else if (families.empty()) {
    s = read_only ? DB::OpenForReadOnly(options, path, &opened->db)
                  : DB::Open(options, path, &opened->db);
  } else {
    const DBOptions& db_options = options;
    s = read_only ? DB::OpenForReadOnly(db_options, path, families, &opened->handles, &opened->db)
                  : DB::Open(db_options, path, families, &opened->handles, &opened->db);
  }
  if (!s.ok()) return s;
  *out = std::move(opened);
  return Status::OK();
}

}  // namespace strata::ldb
