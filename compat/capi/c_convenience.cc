// c_convenience.cc: the C functions backed by rocksdb/convenience.h and
// rocksdb/utilities/options_util.h (rocksdb/c.h): options parsed from a
// string, the latest OPTIONS file of a database, deleting the files of a
// key range, and cancelling background work.
#include "compat/capi/c_internal.h"
#include "rocksdb/convenience.h"
#include "rocksdb/utilities/options_util.h"

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
  rocksdb::ConfigOptions config;
  SaveError(errptr, rocksdb::GetOptionsFromString(config, base_options->rep, std::string(opts_str),
                                                  &new_options->rep));
}

void rocksdb_load_latest_options(const char* db_path, rocksdb_env_t* env,
                                 bool ignore_unknown_options, rocksdb_cache_t* cache,
                                 rocksdb_options_t** db_options, size_t* num_column_families,
                                 char*** column_family_names,
                                 rocksdb_options_t*** column_family_options, char** errptr) {
  rocksdb::ConfigOptions config;
  config.ignore_unknown_options = ignore_unknown_options;
  config.env = env != nullptr ? env->rep : rocksdb::Env::Default();
  rocksdb::DBOptions db_opts;
  std::vector<rocksdb::ColumnFamilyDescriptor> cfs;
  std::shared_ptr<rocksdb::Cache> shared_cache = cache != nullptr ? cache->rep : nullptr;
  rocksdb::Status s =
      rocksdb::LoadLatestOptions(config, std::string(db_path), &db_opts, &cfs, &shared_cache);
  if (SaveError(errptr, s)) {
    *db_options = nullptr;
    *num_column_families = 0;
    *column_family_names = nullptr;
    *column_family_options = nullptr;
    return;
  }
  *db_options = new rocksdb_options_t;
  (*db_options)->rep = rocksdb::Options(db_opts, rocksdb::ColumnFamilyOptions());
  *num_column_families = cfs.size();
  *column_family_names = static_cast<char**>(malloc(sizeof(char*) * (cfs.size() + 1)));
  *column_family_options =
      static_cast<rocksdb_options_t**>(malloc(sizeof(rocksdb_options_t*) * (cfs.size() + 1)));
  for (size_t i = 0; i < cfs.size(); i++) {
    (*column_family_names)[i] = strata_capi::CopyString(cfs[i].name);
    (*column_family_options)[i] = new rocksdb_options_t;
    (*column_family_options)[i]->rep = rocksdb::Options(db_opts, cfs[i].options);
  }
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

void rocksdb_cancel_all_background_work(rocksdb_t* db, unsigned char wait) {
  rocksdb::CancelAllBackgroundWork(db->rep, wait != 0);
}

void rocksdb_delete_file_in_range(rocksdb_t* db, const char* start_key, size_t start_key_len,
                                  const char* limit_key, size_t limit_key_len, char** errptr) {
  OptionalKey a(start_key, start_key_len), b(limit_key, limit_key_len);
  SaveError(errptr,
            rocksdb::DeleteFilesInRange(db->rep, db->rep->DefaultColumnFamily(), a.get(), b.get()));
}

void rocksdb_delete_file_in_range_cf(rocksdb_t* db, rocksdb_column_family_handle_t* column_family,
                                     const char* start_key, size_t start_key_len,
                                     const char* limit_key, size_t limit_key_len, char** errptr) {
  OptionalKey a(start_key, start_key_len), b(limit_key, limit_key_len);
  SaveError(errptr, rocksdb::DeleteFilesInRange(db->rep, column_family->rep, a.get(), b.get()));
}

}  // extern "C"
