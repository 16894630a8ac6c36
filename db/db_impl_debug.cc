// DBImpl::GetAllKeyVersions and the public GetAllKeyVersions
// (strata/utilities/debug.h): the stored versions of a key range, read from
// the same merged source a DB iterator reads (memtables and the current
// Version's tables of the family), before any version is hidden.
#include <string>
#include <vector>

#include "base/dbformat.h"
#include "db/column_family.h"
#include "db/db_impl.h"
#include "db/db_iter.h"
#include "strata/utilities/debug.h"

namespace strata {

Status DBImpl::GetAllKeyVersions(ColumnFamilyHandle* cf, const Slice& begin_key,
                                 const Slice& end_key, size_t max_num_ikeys,
                                 std::vector<KeyVersion>* key_versions) {
  ColumnFamilyData* cfd = FamilyOf(cf);
  // Our own reference to the SuperVersion (as NewIterator takes one).
  SuperVersion* sv;
  {
    MutexLock l(&mu_);
    if (cfd->super_version() == nullptr) {
      return Status::ShutdownInProgress("GetAllKeyVersions on a closed database");
    }
    sv = cfd->super_version()->Ref();
  }
  // The source takes sv's reference (released by its cleanup).
  DBIterSource src = NewIteratorSource(ReadOptions(), cfd, sv, kMaxSequenceNumber);
  if (!src.status.ok()) return src.status;
  Status s;
  {
    std::unique_ptr<InternalIterator> it = std::move(src.input);
    if (begin_key.empty()) {
      it->SeekToFirst();
    } else {
      std::string target;
      AppendInternalKey(&target, begin_key, kMaxSequenceNumber, kValueTypeForSeek);
      it->Seek(target);
    }
    const Comparator* ucmp = cfd->user_comparator();
    for (; it->Valid() && key_versions->size() < max_num_ikeys; it->Next()) {
      ParsedInternalKey p;
      s = ParseInternalKey(it->key(), &p);
      if (!s.ok()) break;
      if (!end_key.empty() && ucmp->Compare(p.user_key, end_key) > 0) break;
      key_versions->emplace_back(p.user_key.ToString(), it->value().ToString(), p.sequence,
                                 static_cast<int>(p.type));
    }
    if (s.ok()) s = it->status();
  }
  if (src.cleanup) src.cleanup();
  return s;
}

std::string KeyVersion::GetTypeName() const {
  // RocksDB's names of the stored type codes (base/dbformat.h).
  static const char* const kNames[] = {
      "TypeDeletion",
      "TypeValue",
      "TypeMerge",
      "TypeLogData",
      "TypeColumnFamilyDeletion",
      "TypeColumnFamilyValue",
      "TypeColumnFamilyMerge",
      "TypeSingleDeletion",
      "TypeColumnFamilySingleDeletion",
      "TypeBeginPrepareXID",
      "TypeEndPrepareXID",
      "TypeCommitXID",
      "TypeRollbackXID",
      "TypeNoop",
      "TypeColumnFamilyRangeDeletion",
      "TypeRangeDeletion",
      "TypeColumnFamilyBlobIndex",
      "TypeBlobIndex",
      "TypeBeginPersistedPrepareXID",
      "TypeBeginUnprepareXID",
      "TypeDeletionWithTimestamp",
      "TypeCommitXIDAndTimestamp",
      "TypeWideColumnEntity",
      "TypeColumnFamilyWideColumnEntity",
  };
  static_assert(sizeof(kNames) / sizeof(kNames[0]) == kTypeColumnFamilyWideColumnEntity + 1,
                "one name per type code");
  if (type < 0 || static_cast<size_t>(type) >= sizeof(kNames) / sizeof(kNames[0])) {
    return "Invalid";
  }
  return kNames[type];
}

Status GetAllKeyVersions(DB* db, ColumnFamilyHandle* cfh, Slice begin_key, Slice end_key,
                         size_t max_num_ikeys, std::vector<KeyVersion>* key_versions) {
  if (db == nullptr) return Status::InvalidArgument("db cannot be null.");
  if (cfh == nullptr) return Status::InvalidArgument("Column family handle cannot be null.");
  if (key_versions == nullptr) return Status::InvalidArgument("key_versions cannot be null.");
  key_versions->clear();
  auto* impl = dynamic_cast<DBImpl*>(db->GetRootDB());
  if (impl == nullptr) {
    return Status::InvalidArgument("GetAllKeyVersions: the DB is not a Strata database");
  }
  return impl->GetAllKeyVersions(cfh, begin_key, end_key, max_num_ikeys, key_versions);
}

Status GetAllKeyVersions(DB* db, Slice begin_key, Slice end_key, size_t max_num_ikeys,
                         std::vector<KeyVersion>* key_versions) {
  if (db == nullptr) return Status::InvalidArgument("db cannot be null.");
  return GetAllKeyVersions(db, db->DefaultColumnFamily(), begin_key, end_key, max_num_ikeys,
                           key_versions);
}

}  // namespace strata
