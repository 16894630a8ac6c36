// compat/experimental.cc: rocksdb/experimental.h over the DB's own calls.
#include "rocksdb/experimental.h"

namespace rocksdb {
namespace experimental {

Status SuggestCompactRange(DB* db, ColumnFamilyHandle* column_family, const Slice* begin,
                           const Slice* end) {
  if (db == nullptr) return Status::InvalidArgument("DB is empty");
  return db->SuggestCompactRange(column_family, begin, end);
}

Status SuggestCompactRange(DB* db, const Slice* begin, const Slice* end) {
  if (db == nullptr) return Status::InvalidArgument("DB is empty");
  return SuggestCompactRange(db, db->DefaultColumnFamily(), begin, end);
}

Status PromoteL0(DB* db, ColumnFamilyHandle* column_family, int target_level) {
  if (db == nullptr) return Status::InvalidArgument("Didn't recognize DB object");
  return db->PromoteL0(column_family, target_level);
}

Status UpdateManifestForFilesState(const DBOptions& db_opts, const std::string& db_name,
                                   const std::vector<ColumnFamilyDescriptor>& column_families,
                                   const UpdateManifestForFilesStateOptions& opts) {
  (void)opts;  // no temperatures to compare (see the header)
  std::vector<ColumnFamilyHandle*> handles;
  DB* db = nullptr;
  Status s = DB::OpenForReadOnly(db_opts, db_name, column_families, &handles, &db);
  if (!s.ok()) return s;
  for (ColumnFamilyHandle* h : handles) {
    Status d = db->DestroyColumnFamilyHandle(h);
    if (s.ok()) s = d;
  }
  Status c = db->Close();
  if (s.ok()) s = c;
  delete db;
  return s;
}

}  // namespace experimental
}  // namespace rocksdb
