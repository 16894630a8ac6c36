// compat/db_ttl.cc: RocksDB's DBWithTTL over Strata's. The object Open
// returns is a StackableDB over a CompatDB that forwards to a
// strata::DBWithTTL (which stamps, strips and expires); only the TTL calls
// are added here.
#include "rocksdb/utilities/db_ttl.h"

#include <memory>
#include <string>
#include <vector>

#include "compat/compat_db.h"
#include "compat/options_convert.h"
#include "strata/utilities/db_ttl.h"

namespace rocksdb {
namespace {

class CompatDBWithTTL final : public DBWithTTL {
 public:
  // inner forwards to ttl; this object owns inner.
  CompatDBWithTTL(compat::CompatDB* inner, ::strata::DBWithTTL* ttl, const DBOptions& db_options)
      : DBWithTTL(inner), inner_(inner), ttl_(ttl), db_options_(db_options) {}

  Status CreateColumnFamilyWithTtl(const ColumnFamilyOptions& options, const std::string& name,
                                   ColumnFamilyHandle** handle, int ttl) override {
    ::strata::ColumnFamilyOptions cf;
    Status s = compat::ConvertCFOptions(options, &cf);
    if (!s.ok()) return s;
    cf.max_subcompactions = db_options_.max_subcompactions;
    s = ttl_->CreateColumnFamilyWithTtl(cf, name, handle, ttl);
    if (s.ok()) inner_->Remember(*handle, options);
    return s;
  }
  // A family made without a ttl never expires (as RocksDB's).
  Status CreateColumnFamily(const ColumnFamilyOptions& options, const std::string& name,
                            ColumnFamilyHandle** handle) override {
    return CreateColumnFamilyWithTtl(options, name, handle, 0);
  }
  void SetTtl(int32_t ttl) override { ttl_->SetTtl(ttl); }
  void SetTtl(ColumnFamilyHandle* h, int32_t ttl) override { ttl_->SetTtl(h, ttl); }

 private:
  compat::CompatDB* const inner_;   // owned by the StackableDB base
  ::strata::DBWithTTL* const ttl_;  // owned by inner_
  const DBOptions db_options_;
};

}  // namespace

Status DBWithTTL::Open(const DBOptions& db_options, const std::string& dbname,
                       const std::vector<ColumnFamilyDescriptor>& column_families,
                       std::vector<ColumnFamilyHandle*>* handles, DBWithTTL** dbptr,
                       const std::vector<int32_t>& ttls, bool read_only) {
  *dbptr = nullptr;
  ::strata::DBOptions sdb;
  std::vector<::strata::ColumnFamilyDescriptor> scfs;
  auto listener_target = std::make_shared<compat::ListenerTarget>();
  Status s = compat::ConvertForOpen(db_options, column_families, listener_target, &sdb, &scfs);
  if (!s.ok()) return s;
  std::unique_ptr<::strata::DBWithTTL> ttl_db;
  s = ::strata::DBWithTTL::Open(sdb, dbname, scfs, handles, &ttl_db, ttls, read_only);
  if (!s.ok()) return s;
  ::strata::DBWithTTL* ttl = ttl_db.get();
  auto* inner = new compat::CompatDB(std::move(ttl_db), db_options);
  inner->RememberAll(*handles, column_families);
  auto* result = new CompatDBWithTTL(inner, ttl, db_options);
  listener_target->db.store(result, std::memory_order_release);
  *dbptr = result;
  return s;
}

Status DBWithTTL::Open(const Options& options, const std::string& dbname, DBWithTTL** dbptr,
                       int32_t ttl, bool read_only) {
  return compat::OpenDefaultFamily(
      options, [&](const DBOptions& db_options, const std::vector<ColumnFamilyDescriptor>& cfs,
                   std::vector<ColumnFamilyHandle*>* handles, DB** db) {
        Status s = Open(db_options, dbname, cfs, handles, dbptr, {ttl}, read_only);
        *db = *dbptr;
        return s;
      });
}

}  // namespace rocksdb
