// c_db.cc: opening, closing and using a database (rocksdb/c.h): reads and
// writes, column families, MultiGet, properties, approximate sizes, manual
// compaction and flushes, live-file and column-family metadata, repair and
// destroy.
//
// Every open function first refuses options that rocksdb::Options cannot
// carry (CheckRefused), then calls the matching rocksdb::DB factory.
// Databases with a TTL open as rocksdb::DBWithTTL. SuggestCompactRange (an
// experimental RocksDB API) is not available and reports an error.
#include "compat/capi/c_internal.h"
#include "rocksdb/experimental.h"
#include "rocksdb/utilities/db_ttl.h"

using strata_capi::CheckRefused;
using strata_capi::CopyBytes;
using strata_capi::CopyString;
using strata_capi::Descriptors;
using strata_capi::SaveError;
using strata_capi::StoreHandles;
using strata_capi::WrapDB;

namespace {

// Returns a malloc'd copy of a found value, NULL for not-found (no error)
// and NULL with an error for anything else.
char* ValueOrError(const rocksdb::Status& s, const std::string& value, size_t* vallen,
                   char** errptr) {
  if (s.ok()) {
    *vallen = value.size();
    return CopyBytes(value.data(), value.size());
  }
  *vallen = 0;
  if (!s.IsNotFound()) SaveError(errptr, s);
  return nullptr;
}

rocksdb::ColumnFamilyHandle* CF(rocksdb_t* db, rocksdb_column_family_handle_t* cf) {
  return cf != nullptr ? cf->rep : db->rep->DefaultColumnFamily();
}

// An optional key bound: NULL means "unbounded".
struct OptionalKey {
  OptionalKey(const char* k, size_t n) : slice(k, n), present(k != nullptr) {}
  const rocksdb::Slice* get() const { return present ? &slice : nullptr; }
  rocksdb::Slice slice;
  bool present;
};

std::vector<rocksdb::Range> Ranges(int n, const char* const* start, const size_t* start_len,
                                   const char* const* limit, const size_t* limit_len) {
  std::vector<rocksdb::Range> ranges;
  for (int i = 0; i < n; i++) {
    ranges.emplace_back(rocksdb::Slice(start[i], start_len[i]),
                        rocksdb::Slice(limit[i], limit_len[i]));
  }
  return ranges;
}

void MultiGetImpl(rocksdb_t* db, const rocksdb_readoptions_t* options,
                  const std::vector<rocksdb::ColumnFamilyHandle*>& cfs, size_t num_keys,
                  const char* const* keys_list, const size_t* keys_list_sizes, char** values_list,
                  size_t* values_list_sizes, char** errs) {
  std::vector<rocksdb::Slice> keys;
  for (size_t i = 0; i < num_keys; i++) {
    keys.emplace_back(keys_list[i], keys_list_sizes[i]);
  }
  std::vector<std::string> values;
  std::vector<rocksdb::Status> statuses = db->rep->MultiGet(options->rep, cfs, keys, &values);
  strata_capi::FillMultiGet(statuses, values, values_list, values_list_sizes, errs);
}

unsigned char KeyMayExistImpl(rocksdb_t* db, const rocksdb_readoptions_t* options,
                              rocksdb::ColumnFamilyHandle* cf, const char* key, size_t key_len,
                              char** value, size_t* val_len, const char* timestamp,
                              size_t timestamp_len, unsigned char* value_found) {
  // The C++ timestamp argument is an output that RocksDB's C API throws
  // away (it passes a temporary copy of `timestamp`), so the overload
  // without one gives the same result.
  std::string found_value;
  bool found = false;
  bool may_exist = db->rep->KeyMayExist(options->rep, cf, rocksdb::Slice(key, key_len),
                                        &found_value, value_found != nullptr ? &found : nullptr);
  if (value_found != nullptr) {
    *value_found = found;
    if (found && value != nullptr) {
      *value = CopyBytes(found_value.data(), found_value.size());
      if (val_len != nullptr) *val_len = found_value.size();
    }
  }
  return may_exist;
}

}  // namespace

extern "C" {

// ---- open and close ----

rocksdb_t* rocksdb_open(const rocksdb_options_t* options, const char* name, char** errptr) {
  if (!CheckRefused(options, errptr)) return nullptr;
  rocksdb::DB* db = nullptr;
  if (SaveError(errptr, rocksdb::DB::Open(options->rep, name, &db))) {
    return nullptr;
  }
  return WrapDB(db);
}

rocksdb_t* rocksdb_open_with_ttl(const rocksdb_options_t* options, const char* name, int ttl,
                                 char** errptr) {
  if (!CheckRefused(options, errptr)) return nullptr;
  rocksdb::DBWithTTL* db = nullptr;
  if (SaveError(errptr, rocksdb::DBWithTTL::Open(options->rep, name, &db, ttl))) {
    return nullptr;
  }
  return WrapDB(db);
}

rocksdb_t* rocksdb_open_for_read_only(const rocksdb_options_t* options, const char* name,
                                      unsigned char error_if_wal_file_exists, char** errptr) {
  if (!CheckRefused(options, errptr)) return nullptr;
  rocksdb::DB* db = nullptr;
  if (SaveError(errptr, rocksdb::DB::OpenForReadOnly(options->rep, name, &db,
                                                     error_if_wal_file_exists != 0))) {
    return nullptr;
  }
  return WrapDB(db);
}

rocksdb_t* rocksdb_open_as_secondary(const rocksdb_options_t* options, const char* name,
                                     const char* secondary_path, char** errptr) {
  if (!CheckRefused(options, errptr)) return nullptr;
  rocksdb::DB* db = nullptr;
  if (SaveError(errptr, rocksdb::DB::OpenAsSecondary(options->rep, name, secondary_path, &db))) {
    return nullptr;
  }
  return WrapDB(db);
}

rocksdb_t* rocksdb_open_column_families(const rocksdb_options_t* db_options, const char* name,
                                        int num_column_families,
                                        const char* const* column_family_names,
                                        const rocksdb_options_t* const* column_family_options,
                                        rocksdb_column_family_handle_t** column_family_handles,
                                        char** errptr) {
  if (!strata_capi::CheckRefusedAll(db_options, num_column_families, column_family_options,
                                    errptr)) {
    return nullptr;
  }
  rocksdb::DB* db = nullptr;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  if (SaveError(errptr, rocksdb::DB::Open(rocksdb::DBOptions(db_options->rep), name,
                                          Descriptors(num_column_families, column_family_names,
                                                      column_family_options),
                                          &handles, &db))) {
    return nullptr;
  }
  StoreHandles(db, handles, column_family_handles);
  return WrapDB(db);
}

rocksdb_t* rocksdb_open_column_families_with_ttl(
    const rocksdb_options_t* db_options, const char* name, int num_column_families,
    const char* const* column_family_names, const rocksdb_options_t* const* column_family_options,
    rocksdb_column_family_handle_t** column_family_handles, const int* ttls, char** errptr) {
  if (!strata_capi::CheckRefusedAll(db_options, num_column_families, column_family_options,
                                    errptr)) {
    return nullptr;
  }
  rocksdb::DBWithTTL* db = nullptr;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  std::vector<int32_t> ttl_list(ttls, ttls + num_column_families);
  if (SaveError(errptr,
                rocksdb::DBWithTTL::Open(
                    rocksdb::DBOptions(db_options->rep), name,
                    Descriptors(num_column_families, column_family_names, column_family_options),
                    &handles, &db, ttl_list))) {
    return nullptr;
  }
  StoreHandles(db, handles, column_family_handles);
  return WrapDB(db);
}

rocksdb_t* rocksdb_open_for_read_only_column_families(
    const rocksdb_options_t* db_options, const char* name, int num_column_families,
    const char* const* column_family_names, const rocksdb_options_t* const* column_family_options,
    rocksdb_column_family_handle_t** column_family_handles, unsigned char error_if_wal_file_exists,
    char** errptr) {
  if (!strata_capi::CheckRefusedAll(db_options, num_column_families, column_family_options,
                                    errptr)) {
    return nullptr;
  }
  rocksdb::DB* db = nullptr;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  if (SaveError(errptr,
                rocksdb::DB::OpenForReadOnly(
                    rocksdb::DBOptions(db_options->rep), name,
                    Descriptors(num_column_families, column_family_names, column_family_options),
                    &handles, &db, error_if_wal_file_exists != 0))) {
    return nullptr;
  }
  StoreHandles(db, handles, column_family_handles);
  return WrapDB(db);
}

rocksdb_t* rocksdb_open_as_secondary_column_families(
    const rocksdb_options_t* db_options, const char* name, const char* secondary_path,
    int num_column_families, const char* const* column_family_names,
    const rocksdb_options_t* const* column_family_options,
    rocksdb_column_family_handle_t** column_family_handles, char** errptr) {
  if (!strata_capi::CheckRefusedAll(db_options, num_column_families, column_family_options,
                                    errptr)) {
    return nullptr;
  }
  rocksdb::DB* db = nullptr;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  if (SaveError(errptr,
                rocksdb::DB::OpenAsSecondary(
                    rocksdb::DBOptions(db_options->rep), name, secondary_path,
                    Descriptors(num_column_families, column_family_names, column_family_options),
                    &handles, &db))) {
    return nullptr;
  }
  StoreHandles(db, handles, column_family_handles);
  return WrapDB(db);
}

void rocksdb_close(rocksdb_t* db) {
  delete db->rep;
  delete db;
}

void rocksdb_try_catch_up_with_primary(rocksdb_t* db, char** errptr) {
  SaveError(errptr, db->rep->TryCatchUpWithPrimary());
}

void rocksdb_destroy_db(const rocksdb_options_t* options, const char* name, char** errptr) {
  SaveError(errptr, rocksdb::DestroyDB(name, options->rep));
}

void rocksdb_repair_db(const rocksdb_options_t* options, const char* name, char** errptr) {
  SaveError(errptr, rocksdb::RepairDB(name, options->rep));
}

// ---- column families ----

char** rocksdb_list_column_families(const rocksdb_options_t* options, const char* name,
                                    size_t* lencfs, char** errptr) {
  std::vector<std::string> families;
  if (SaveError(errptr, rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(options->rep), name,
                                                        &families))) {
    *lencfs = 0;
    return nullptr;
  }
  *lencfs = families.size();
  char** list = static_cast<char**>(malloc(sizeof(char*) * families.size()));
  for (size_t i = 0; i < families.size(); i++) {
    list[i] = CopyString(families[i]);
  }
  return list;
}

void rocksdb_list_column_families_destroy(char** list, size_t len) {
  if (list == nullptr) return;
  for (size_t i = 0; i < len; i++) free(list[i]);
  free(list);
}

rocksdb_column_family_handle_t* rocksdb_create_column_family(
    rocksdb_t* db, const rocksdb_options_t* column_family_options, const char* column_family_name,
    char** errptr) {
  if (!CheckRefused(column_family_options, errptr)) return nullptr;
  rocksdb::ColumnFamilyHandle* handle = nullptr;
  if (SaveError(errptr, db->rep->CreateColumnFamily(
                            rocksdb::ColumnFamilyOptions(column_family_options->rep),
                            column_family_name, &handle))) {
    return nullptr;
  }
  return strata_capi::WrapHandle(db->rep, handle);
}

rocksdb_column_family_handle_t* rocksdb_create_column_family_with_ttl(
    rocksdb_t* db, const rocksdb_options_t* column_family_options, const char* column_family_name,
    int ttl, char** errptr) {
  // RocksDB's casts db->rep to a DBWithTTL unchecked; a DB opened without a
  // TTL gets an error here instead.
  auto* ttl_db = dynamic_cast<rocksdb::DBWithTTL*>(db->rep);
  if (ttl_db == nullptr) {
    SaveError(errptr, rocksdb::Status::InvalidArgument(
                          "rocksdb_create_column_family_with_ttl: the database was not opened "
                          "with rocksdb_open_with_ttl or rocksdb_open_column_families_with_ttl"));
    return nullptr;
  }
  if (!CheckRefused(column_family_options, errptr)) return nullptr;
  rocksdb::ColumnFamilyHandle* handle = nullptr;
  if (SaveError(errptr, ttl_db->CreateColumnFamilyWithTtl(
                            rocksdb::ColumnFamilyOptions(column_family_options->rep),
                            column_family_name, &handle, ttl))) {
    return nullptr;
  }
  return strata_capi::WrapHandle(db->rep, handle);
}

void rocksdb_drop_column_family(rocksdb_t* db, rocksdb_column_family_handle_t* handle,
                                char** errptr) {
  SaveError(errptr, db->rep->DropColumnFamily(handle->rep));
}

void rocksdb_column_family_handle_destroy(rocksdb_column_family_handle_t* handle) {
  // Through the DB, so it forgets the handle and releases its family.
  if (handle->db != nullptr) {
    handle->db->DestroyColumnFamilyHandle(handle->rep).PermitUncheckedError();
  } else {
    delete handle->rep;
  }
  delete handle;
}

uint32_t rocksdb_column_family_handle_get_id(rocksdb_column_family_handle_t* handle) {
  return handle->rep->GetID();
}

char* rocksdb_column_family_handle_get_name(rocksdb_column_family_handle_t* handle,
                                            size_t* name_len) {
  const std::string& name = handle->rep->GetName();
  *name_len = name.size();
  return CopyString(name);
}

// ---- writes ----

void rocksdb_put(rocksdb_t* db, const rocksdb_writeoptions_t* options, const char* key,
                 size_t keylen, const char* val, size_t vallen, char** errptr) {
  SaveError(errptr,
            db->rep->Put(options->rep, rocksdb::Slice(key, keylen), rocksdb::Slice(val, vallen)));
}

void rocksdb_put_cf(rocksdb_t* db, const rocksdb_writeoptions_t* options,
                    rocksdb_column_family_handle_t* column_family, const char* key, size_t keylen,
                    const char* val, size_t vallen, char** errptr) {
  SaveError(errptr, db->rep->Put(options->rep, column_family->rep, rocksdb::Slice(key, keylen),
                                 rocksdb::Slice(val, vallen)));
}

void rocksdb_delete(rocksdb_t* db, const rocksdb_writeoptions_t* options, const char* key,
                    size_t keylen, char** errptr) {
  SaveError(errptr, db->rep->Delete(options->rep, rocksdb::Slice(key, keylen)));
}

void rocksdb_delete_cf(rocksdb_t* db, const rocksdb_writeoptions_t* options,
                       rocksdb_column_family_handle_t* column_family, const char* key,
                       size_t keylen, char** errptr) {
  SaveError(errptr, db->rep->Delete(options->rep, column_family->rep, rocksdb::Slice(key, keylen)));
}

void rocksdb_singledelete(rocksdb_t* db, const rocksdb_writeoptions_t* options, const char* key,
                          size_t keylen, char** errptr) {
  SaveError(errptr, db->rep->SingleDelete(options->rep, rocksdb::Slice(key, keylen)));
}

void rocksdb_singledelete_cf(rocksdb_t* db, const rocksdb_writeoptions_t* options,
                             rocksdb_column_family_handle_t* column_family, const char* key,
                             size_t keylen, char** errptr) {
  SaveError(errptr,
            db->rep->SingleDelete(options->rep, column_family->rep, rocksdb::Slice(key, keylen)));
}

void rocksdb_delete_range_cf(rocksdb_t* db, const rocksdb_writeoptions_t* options,
                             rocksdb_column_family_handle_t* column_family, const char* start_key,
                             size_t start_key_len, const char* end_key, size_t end_key_len,
                             char** errptr) {
  SaveError(errptr, db->rep->DeleteRange(options->rep, column_family->rep,
                                         rocksdb::Slice(start_key, start_key_len),
                                         rocksdb::Slice(end_key, end_key_len)));
}

void rocksdb_merge(rocksdb_t* db, const rocksdb_writeoptions_t* options, const char* key,
                   size_t keylen, const char* val, size_t vallen, char** errptr) {
  SaveError(errptr,
            db->rep->Merge(options->rep, rocksdb::Slice(key, keylen), rocksdb::Slice(val, vallen)));
}

void rocksdb_merge_cf(rocksdb_t* db, const rocksdb_writeoptions_t* options,
                      rocksdb_column_family_handle_t* column_family, const char* key, size_t keylen,
                      const char* val, size_t vallen, char** errptr) {
  SaveError(errptr, db->rep->Merge(options->rep, column_family->rep, rocksdb::Slice(key, keylen),
                                   rocksdb::Slice(val, vallen)));
}

void rocksdb_write(rocksdb_t* db, const rocksdb_writeoptions_t* options,
                   rocksdb_writebatch_t* batch, char** errptr) {
  SaveError(errptr, db->rep->Write(options->rep, &batch->rep));
}

// ---- point reads ----

char* rocksdb_get(rocksdb_t* db, const rocksdb_readoptions_t* options, const char* key,
                  size_t keylen, size_t* vallen, char** errptr) {
  std::string value;
  rocksdb::Status s = db->rep->Get(options->rep, rocksdb::Slice(key, keylen), &value);
  return ValueOrError(s, value, vallen, errptr);
}

char* rocksdb_get_cf(rocksdb_t* db, const rocksdb_readoptions_t* options,
                     rocksdb_column_family_handle_t* column_family, const char* key, size_t keylen,
                     size_t* vallen, char** errptr) {
  std::string value;
  rocksdb::Status s =
      db->rep->Get(options->rep, column_family->rep, rocksdb::Slice(key, keylen), &value);
  return ValueOrError(s, value, vallen, errptr);
}

void rocksdb_multi_get(rocksdb_t* db, const rocksdb_readoptions_t* options, size_t num_keys,
                       const char* const* keys_list, const size_t* keys_list_sizes,
                       char** values_list, size_t* values_list_sizes, char** errs) {
  MultiGetImpl(db, options,
               std::vector<rocksdb::ColumnFamilyHandle*>(num_keys, db->rep->DefaultColumnFamily()),
               num_keys, keys_list, keys_list_sizes, values_list, values_list_sizes, errs);
}

void rocksdb_multi_get_cf(rocksdb_t* db, const rocksdb_readoptions_t* options,
                          const rocksdb_column_family_handle_t* const* column_families,
                          size_t num_keys, const char* const* keys_list,
                          const size_t* keys_list_sizes, char** values_list,
                          size_t* values_list_sizes, char** errs) {
  std::vector<rocksdb::ColumnFamilyHandle*> cfs;
  for (size_t i = 0; i < num_keys; i++) cfs.push_back(column_families[i]->rep);
  MultiGetImpl(db, options, cfs, num_keys, keys_list, keys_list_sizes, values_list,
               values_list_sizes, errs);
}

void rocksdb_batched_multi_get_cf(rocksdb_t* db, const rocksdb_readoptions_t* options,
                                  rocksdb_column_family_handle_t* column_family, size_t num_keys,
                                  const char* const* keys_list, const size_t* keys_list_sizes,
                                  rocksdb_pinnableslice_t** values, char** errs,
                                  const bool sorted_input) {
  std::vector<rocksdb::Slice> keys;
  for (size_t i = 0; i < num_keys; i++) {
    keys.emplace_back(keys_list[i], keys_list_sizes[i]);
  }
  std::vector<rocksdb::PinnableSlice> found(num_keys);
  std::vector<rocksdb::Status> statuses(num_keys);
  db->rep->MultiGet(options->rep, CF(db, column_family), num_keys, keys.data(), found.data(),
                    statuses.data(), sorted_input);
  for (size_t i = 0; i < num_keys; i++) {
    if (statuses[i].ok()) {
      values[i] = new rocksdb_pinnableslice_t;
      values[i]->rep = std::move(found[i]);
      errs[i] = nullptr;
    } else {
      values[i] = nullptr;
      errs[i] = statuses[i].IsNotFound() ? nullptr : CopyString(statuses[i].ToString());
    }
  }
}

unsigned char rocksdb_key_may_exist(rocksdb_t* db, const rocksdb_readoptions_t* options,
                                    const char* key, size_t key_len, char** value, size_t* val_len,
                                    const char* timestamp, size_t timestamp_len,
                                    unsigned char* value_found) {
  return KeyMayExistImpl(db, options, db->rep->DefaultColumnFamily(), key, key_len, value, val_len,
                         timestamp, timestamp_len, value_found);
}

unsigned char rocksdb_key_may_exist_cf(rocksdb_t* db, const rocksdb_readoptions_t* options,
                                       rocksdb_column_family_handle_t* column_family,
                                       const char* key, size_t key_len, char** value,
                                       size_t* val_len, const char* timestamp, size_t timestamp_len,
                                       unsigned char* value_found) {
  return KeyMayExistImpl(db, options, column_family->rep, key, key_len, value, val_len, timestamp,
                         timestamp_len, value_found);
}

// ---- properties and sizes ----

char* rocksdb_property_value(rocksdb_t* db, const char* propname) {
  std::string value;
  if (!db->rep->GetProperty(rocksdb::Slice(propname), &value)) return nullptr;
  return CopyString(value);
}

char* rocksdb_property_value_cf(rocksdb_t* db, rocksdb_column_family_handle_t* column_family,
                                const char* propname) {
  std::string value;
  if (!db->rep->GetProperty(column_family->rep, rocksdb::Slice(propname), &value)) {
    return nullptr;
  }
  return CopyString(value);
}

void rocksdb_approximate_sizes(rocksdb_t* db, int num_ranges, const char* const* range_start_key,
                               const size_t* range_start_key_len,
                               const char* const* range_limit_key,
                               const size_t* range_limit_key_len, uint64_t* sizes, char** errptr) {
  std::vector<rocksdb::Range> ranges = Ranges(num_ranges, range_start_key, range_start_key_len,
                                              range_limit_key, range_limit_key_len);
  SaveError(errptr, db->rep->GetApproximateSizes(db->rep->DefaultColumnFamily(), ranges.data(),
                                                 num_ranges, sizes));
}

void rocksdb_approximate_sizes_cf(rocksdb_t* db, rocksdb_column_family_handle_t* column_family,
                                  int num_ranges, const char* const* range_start_key,
                                  const size_t* range_start_key_len,
                                  const char* const* range_limit_key,
                                  const size_t* range_limit_key_len, uint64_t* sizes,
                                  char** errptr) {
  std::vector<rocksdb::Range> ranges = Ranges(num_ranges, range_start_key, range_start_key_len,
                                              range_limit_key, range_limit_key_len);
  SaveError(errptr,
            db->rep->GetApproximateSizes(column_family->rep, ranges.data(), num_ranges, sizes));
}

uint64_t rocksdb_get_latest_sequence_number(rocksdb_t* db) {
  return db->rep->GetLatestSequenceNumber();
}

// ---- manual compaction and flushes ----
//
// The compact_range functions have no errptr in RocksDB's C API; a failure
// is not reported there either.

void rocksdb_compact_range(rocksdb_t* db, const char* start_key, size_t start_key_len,
                           const char* limit_key, size_t limit_key_len) {
  OptionalKey a(start_key, start_key_len), b(limit_key, limit_key_len);
  db->rep->CompactRange(rocksdb::CompactRangeOptions(), a.get(), b.get()).PermitUncheckedError();
}

void rocksdb_compact_range_cf(rocksdb_t* db, rocksdb_column_family_handle_t* column_family,
                              const char* start_key, size_t start_key_len, const char* limit_key,
                              size_t limit_key_len) {
  OptionalKey a(start_key, start_key_len), b(limit_key, limit_key_len);
  db->rep->CompactRange(rocksdb::CompactRangeOptions(), column_family->rep, a.get(), b.get())
      .PermitUncheckedError();
}

void rocksdb_compact_range_opt(rocksdb_t* db, rocksdb_compactoptions_t* opt, const char* start_key,
                               size_t start_key_len, const char* limit_key, size_t limit_key_len) {
  OptionalKey a(start_key, start_key_len), b(limit_key, limit_key_len);
  db->rep->CompactRange(opt->rep, a.get(), b.get()).PermitUncheckedError();
}

void rocksdb_compact_range_cf_opt(rocksdb_t* db, rocksdb_column_family_handle_t* column_family,
                                  rocksdb_compactoptions_t* opt, const char* start_key,
                                  size_t start_key_len, const char* limit_key,
                                  size_t limit_key_len) {
  OptionalKey a(start_key, start_key_len), b(limit_key, limit_key_len);
  db->rep->CompactRange(opt->rep, column_family->rep, a.get(), b.get()).PermitUncheckedError();
}

// Null keys are open ends (as in RocksDB).
void rocksdb_suggest_compact_range(rocksdb_t* db, const char* start_key, size_t start_key_len,
                                   const char* limit_key, size_t limit_key_len, char** errptr) {
  rocksdb_suggest_compact_range_cf(db, nullptr, start_key, start_key_len, limit_key, limit_key_len,
                                   errptr);
}

void rocksdb_suggest_compact_range_cf(rocksdb_t* db, rocksdb_column_family_handle_t* column_family,
                                      const char* start_key, size_t start_key_len,
                                      const char* limit_key, size_t limit_key_len, char** errptr) {
  rocksdb::Slice a, b;
  if (start_key != nullptr) a = rocksdb::Slice(start_key, start_key_len);
  if (limit_key != nullptr) b = rocksdb::Slice(limit_key, limit_key_len);
  rocksdb::ColumnFamilyHandle* cf =
      column_family != nullptr ? column_family->rep : db->rep->DefaultColumnFamily();
  SaveError(errptr, rocksdb::experimental::SuggestCompactRange(
                        db->rep, cf, start_key != nullptr ? &a : nullptr,
                        limit_key != nullptr ? &b : nullptr));
}

void rocksdb_flush(rocksdb_t* db, const rocksdb_flushoptions_t* options, char** errptr) {
  SaveError(errptr, db->rep->Flush(options->rep));
}

void rocksdb_flush_cf(rocksdb_t* db, const rocksdb_flushoptions_t* options,
                      rocksdb_column_family_handle_t* column_family, char** errptr) {
  SaveError(errptr, db->rep->Flush(options->rep, column_family->rep));
}

void rocksdb_flush_wal(rocksdb_t* db, unsigned char sync, char** errptr) {
  SaveError(errptr, db->rep->FlushWAL(sync != 0));
}

void rocksdb_disable_file_deletions(rocksdb_t* db, char** errptr) {
  SaveError(errptr, db->rep->DisableFileDeletions());
}

void rocksdb_enable_file_deletions(rocksdb_t* db, unsigned char force, char** errptr) {
  SaveError(errptr, db->rep->EnableFileDeletions(force != 0));
}

void rocksdb_disable_manual_compaction(rocksdb_t* db) { db->rep->DisableManualCompaction(); }

void rocksdb_enable_manual_compaction(rocksdb_t* db) { db->rep->EnableManualCompaction(); }

// ---- files ----

// c.h gives no error channel: a refused name (see DB::DeleteFile) leaves
// everything as it was, as in RocksDB.
void rocksdb_delete_file(rocksdb_t* db, const char* name) {
  db->rep->DeleteFile(name).PermitUncheckedError();
}

const rocksdb_livefiles_t* rocksdb_livefiles(rocksdb_t* db) {
  auto* files = new rocksdb_livefiles_t;
  db->rep->GetLiveFilesMetaData(&files->rep);
  return files;
}

int rocksdb_livefiles_count(const rocksdb_livefiles_t* lf) {
  return static_cast<int>(lf->rep.size());
}

const char* rocksdb_livefiles_column_family_name(const rocksdb_livefiles_t* lf, int index) {
  return lf->rep[index].column_family_name.c_str();
}

const char* rocksdb_livefiles_name(const rocksdb_livefiles_t* lf, int index) {
  return lf->rep[index].name.c_str();
}

int rocksdb_livefiles_level(const rocksdb_livefiles_t* lf, int index) {
  return lf->rep[index].level;
}

size_t rocksdb_livefiles_size(const rocksdb_livefiles_t* lf, int index) {
  return lf->rep[index].size;
}

const char* rocksdb_livefiles_smallestkey(const rocksdb_livefiles_t* lf, int index, size_t* size) {
  *size = lf->rep[index].smallestkey.size();
  return lf->rep[index].smallestkey.data();
}

const char* rocksdb_livefiles_largestkey(const rocksdb_livefiles_t* lf, int index, size_t* size) {
  *size = lf->rep[index].largestkey.size();
  return lf->rep[index].largestkey.data();
}

uint64_t rocksdb_livefiles_entries(const rocksdb_livefiles_t* lf, int index) {
  return lf->rep[index].num_entries;
}

uint64_t rocksdb_livefiles_deletions(const rocksdb_livefiles_t* lf, int index) {
  return lf->rep[index].num_deletions;
}

void rocksdb_livefiles_destroy(const rocksdb_livefiles_t* lf) { delete lf; }

// ---- column-family metadata ----
//
// Level and file handles point into their column-family metadata and are
// valid only while it lives.

rocksdb_column_family_metadata_t* rocksdb_get_column_family_metadata(rocksdb_t* db) {
  auto* meta = new rocksdb_column_family_metadata_t;
  db->rep->GetColumnFamilyMetaData(&meta->rep);
  return meta;
}

rocksdb_column_family_metadata_t* rocksdb_get_column_family_metadata_cf(
    rocksdb_t* db, rocksdb_column_family_handle_t* column_family) {
  auto* meta = new rocksdb_column_family_metadata_t;
  db->rep->GetColumnFamilyMetaData(column_family->rep, &meta->rep);
  return meta;
}

void rocksdb_column_family_metadata_destroy(rocksdb_column_family_metadata_t* cf_meta) {
  delete cf_meta;
}

uint64_t rocksdb_column_family_metadata_get_size(rocksdb_column_family_metadata_t* cf_meta) {
  return cf_meta->rep.size;
}

size_t rocksdb_column_family_metadata_get_file_count(rocksdb_column_family_metadata_t* cf_meta) {
  return cf_meta->rep.file_count;
}

char* rocksdb_column_family_metadata_get_name(rocksdb_column_family_metadata_t* cf_meta) {
  return CopyString(cf_meta->rep.name);
}

size_t rocksdb_column_family_metadata_get_level_count(rocksdb_column_family_metadata_t* cf_meta) {
  return cf_meta->rep.levels.size();
}

rocksdb_level_metadata_t* rocksdb_column_family_metadata_get_level_metadata(
    rocksdb_column_family_metadata_t* cf_meta, size_t i) {
  if (i >= cf_meta->rep.levels.size()) return nullptr;
  auto* level = new rocksdb_level_metadata_t;
  level->rep = &cf_meta->rep.levels[i];
  return level;
}

void rocksdb_level_metadata_destroy(rocksdb_level_metadata_t* level_meta) { delete level_meta; }

int rocksdb_level_metadata_get_level(rocksdb_level_metadata_t* level_meta) {
  return level_meta->rep->level;
}

uint64_t rocksdb_level_metadata_get_size(rocksdb_level_metadata_t* level_meta) {
  return level_meta->rep->size;
}

size_t rocksdb_level_metadata_get_file_count(rocksdb_level_metadata_t* level_meta) {
  return level_meta->rep->files.size();
}

rocksdb_sst_file_metadata_t* rocksdb_level_metadata_get_sst_file_metadata(
    rocksdb_level_metadata_t* level_meta, size_t i) {
  if (i >= level_meta->rep->files.size()) return nullptr;
  auto* file = new rocksdb_sst_file_metadata_t;
  file->rep = &level_meta->rep->files[i];
  return file;
}

void rocksdb_sst_file_metadata_destroy(rocksdb_sst_file_metadata_t* file_meta) { delete file_meta; }

char* rocksdb_sst_file_metadata_get_relative_filename(rocksdb_sst_file_metadata_t* file_meta) {
  return CopyString(file_meta->rep->relative_filename);
}

uint64_t rocksdb_sst_file_metadata_get_size(rocksdb_sst_file_metadata_t* file_meta) {
  return file_meta->rep->size;
}

char* rocksdb_sst_file_metadata_get_smallestkey(rocksdb_sst_file_metadata_t* file_meta,
                                                size_t* len) {
  *len = file_meta->rep->smallestkey.size();
  return CopyBytes(file_meta->rep->smallestkey.data(), *len);
}

char* rocksdb_sst_file_metadata_get_largestkey(rocksdb_sst_file_metadata_t* file_meta,
                                               size_t* len) {
  *len = file_meta->rep->largestkey.size();
  return CopyBytes(file_meta->rep->largestkey.data(), *len);
}

}  // extern "C"
