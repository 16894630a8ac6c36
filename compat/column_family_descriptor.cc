// ColumnFamilyHandle::GetDescriptor for RocksDB's descriptor: the handle is
// Strata's class, so the compat DB that handed it out is found in a table
// of the handles this layer gave out (filled by CompatDBT::Remember and
// DefaultColumnFamily, emptied by DestroyColumnFamilyHandle and the DB's
// destructor), and asked for the family's options.
#include <mutex>
#include <unordered_map>

#include "compat/compat_db.h"
#include "rocksdb/db.h"

namespace rocksdb {
namespace compat {
namespace {

struct HandleTable {
  std::mutex mu;
  std::unordered_map<const ColumnFamilyHandle*, const DB*> owner;
};

HandleTable& Handles() {
  static HandleTable* table = new HandleTable();  // never destroyed: used at exit
  return *table;
}

}  // namespace

void RememberHandle(const ColumnFamilyHandle* handle, const DB* db) {
  HandleTable& t = Handles();
  std::lock_guard<std::mutex> l(t.mu);
  t.owner[handle] = db;
}

void ForgetHandle(const ColumnFamilyHandle* handle) {
  HandleTable& t = Handles();
  std::lock_guard<std::mutex> l(t.mu);
  t.owner.erase(handle);
}

void ForgetHandlesOf(const DB* db) {
  HandleTable& t = Handles();
  std::lock_guard<std::mutex> l(t.mu);
  for (auto it = t.owner.begin(); it != t.owner.end();) {
    it = it->second == db ? t.owner.erase(it) : std::next(it);
  }
}

}  // namespace compat

Status GetColumnFamilyDescriptor(ColumnFamilyHandle* handle, ColumnFamilyDescriptor* desc) {
  if (handle == nullptr || desc == nullptr) {
    return Status::InvalidArgument("GetDescriptor: null handle or descriptor");
  }
  const DB* db = nullptr;
  {
    compat::HandleTable& t = compat::Handles();
    std::lock_guard<std::mutex> l(t.mu);
    auto it = t.owner.find(handle);
    if (it != t.owner.end()) db = it->second;
  }
  if (db == nullptr) {
    return Status::InvalidArgument("GetDescriptor: a column family handle no open DB handed out",
                                   handle->GetName());
  }
  const Options options = db->GetOptions(handle);
  *desc = ColumnFamilyDescriptor(handle->GetName(), ColumnFamilyOptions(options));
  return Status::OK();
}

}  // namespace rocksdb
