// c_convenience.cc: the C functions of RocksDB's rocksdb/convenience.h and
// rocksdb/utilities/options_util.h (rocksdb/c.h): options parsed from a
// string, the latest OPTIONS file of a database, deleting the files of a
// key range, and cancelling background work.
//
// Options strings and OPTIONS files go through the compat layer's
// rocksdb/convenience.h and rocksdb/utilities/options_util.h (Strata's
// parser, converted back to RocksDB's structs). Cancelling background work
// is the compat layer's CancelAllBackgroundWork (Strata's
// PauseBackgroundWork).
// Deleting the files of a range goes to Strata's DeleteFilesInRange.
#include "compat/capi/c_internal.h"
#include "rocksdb/convenience.h"
#include "rocksdb/utilities/options_util.h"
#include "strata/db.h"

using strata_capi::NotSupported;
using strata_capi::SaveError;

namespace {

// An optional key bound: NULL means "unbounded".
struct OptionalKey {
  OptionalKey(const char* k, size_t n) : slice(k, n), present(k != nullptr) {}
  const rocksdb::Slice* get() const { return present ? &slice : nullptr; }
  rocksdb::Slice slice;
  bool present;
};

}  // namespace

extern "C" {

void rocksdb_get_options_from_string(const rocksdb_options_t* base_options, const char* opts_str,
                                     rocksdb_options_t* new_options, char** errptr) {
  // On an error new_options becomes base_options, as in RocksDB.
  SaveError(errptr, rocksdb::GetOptionsFromString(base_options->rep, opts_str, &new_options->rep));
  // Settings only the C API records (refused at open) carry over too.
  new_options->refused = base_options->refused;
}

void rocksdb_load_latest_options(const char* db_path, rocksdb_env_t* env,
                                 bool ignore_unknown_options, rocksdb_cache_t* cache,
                                 rocksdb_options_t** db_options, size_t* num_column_families,
                                 char*** column_family_names,
                                 rocksdb_options_t*** column_family_options, char** errptr) {
  *db_options = nullptr;
  *num_column_families = 0;
  *column_family_names = nullptr;
  *column_family_options = nullptr;
  rocksdb::DBOptions db;
  std::vector<rocksdb::ColumnFamilyDescriptor> cfs;
  std::shared_ptr<rocksdb::Cache> block_cache;
  if (cache != nullptr) block_cache = cache->rep;
  rocksdb::Status s =
      rocksdb::LoadLatestOptions(db_path, env != nullptr ? env->rep : rocksdb::Env::Default(), &db,
                                 &cfs, ignore_unknown_options, &block_cache);
  if (SaveError(errptr, s)) return;
  auto** names = static_cast<char**>(malloc(sizeof(char*) * (cfs.empty() ? 1 : cfs.size())));
  auto** opts = static_cast<rocksdb_options_t**>(
      malloc(sizeof(rocksdb_options_t*) * (cfs.empty() ? 1 : cfs.size())));
  for (size_t i = 0; i < cfs.size(); i++) {
    names[i] = strata_capi::CopyString(cfs[i].name);
    opts[i] = new rocksdb_options_t;
    opts[i]->rep = rocksdb::Options(rocksdb::DBOptions(), cfs[i].options);
  }
  *db_options = new rocksdb_options_t;
  (*db_options)->rep = rocksdb::Options(db, rocksdb::ColumnFamilyOptions());
  *num_column_families = cfs.size();
  *column_family_names = names;
  *column_family_options = opts;
}

void rocksdb_load_latest_options_destroy(rocksdb_options_t* db_options,
                                         char** list_column_family_names,
                                         rocksdb_options_t** list_column_family_options,
                                         size_t len) {
  delete db_options;
  if (list_column_family_names != nullptr) {
    for (size_t i = 0; i < len; i++) free(list_column_family_names[i]);
    free(list_column_family_names);
  }
  if (list_column_family_options != nullptr) {
    for (size_t i = 0; i < len; i++) delete list_column_family_options[i];
    free(list_column_family_options);
  }
}

// rocksdb::CancelAllBackgroundWork: background work stops (running jobs
// finish first).
void rocksdb_cancel_all_background_work(rocksdb_t* db, unsigned char wait) {
  rocksdb::CancelAllBackgroundWork(db->rep, wait != 0);
}

void rocksdb_delete_file_in_range(rocksdb_t* db, const char* start_key, size_t start_key_len,
                                  const char* limit_key, size_t limit_key_len, char** errptr) {
  OptionalKey a(start_key, start_key_len), b(limit_key, limit_key_len);
  SaveError(errptr, ::strata::DeleteFilesInRange(db->rep->GetStrataDB(),
                                                 db->rep->DefaultColumnFamily(), a.get(), b.get()));
}

void rocksdb_delete_file_in_range_cf(rocksdb_t* db, rocksdb_column_family_handle_t* column_family,
                                     const char* start_key, size_t start_key_len,
                                     const char* limit_key, size_t limit_key_len, char** errptr) {
  OptionalKey a(start_key, start_key_len), b(limit_key, limit_key_len);
  SaveError(errptr, ::strata::DeleteFilesInRange(db->rep->GetStrataDB(), column_family->rep,
                                                 a.get(), b.get()));
}

}  // extern "C"
