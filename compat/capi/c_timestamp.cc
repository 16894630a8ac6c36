// c_timestamp.cc: the functions of rocksdb/c.h that carry user-defined
// timestamps (RocksDB's `*_with_ts` calls, history trimming, timestamped
// reads and comparators). They use the timestamp overloads of the RocksDB
// C++ interface and nothing else does, so the whole area can be replaced by
// error stubs if the compat layer has no user timestamps.
#include "compat/capi/c_callbacks.h"
#include "compat/capi/c_ingest.h"

using strata_capi::CheckRefusedAll;
using strata_capi::CopyBytes;
using strata_capi::Descriptors;
using strata_capi::SaveError;
using strata_capi::StoreHandles;
using strata_capi::WrapDB;

namespace {

// A comparator whose keys end in a timestamp of a fixed size.
class TsComparator : public rocksdb::Comparator {
 public:
  TsComparator(void* state, void (*destructor)(void*),
               int (*compare)(void*, const char*, size_t, const char*, size_t),
               int (*compare_ts)(void*, const char*, size_t, const char*, size_t),
               int (*compare_without_ts)(void*, const char*, size_t, unsigned char, const char*,
                                         size_t, unsigned char),
               const char* (*name)(void*), size_t timestamp_size)
      : Comparator(timestamp_size),
        state_(state),
        destructor_(destructor),
        compare_(compare),
        compare_ts_(compare_ts),
        compare_without_ts_(compare_without_ts),
        name_(name) {}
  ~TsComparator() override {
    if (destructor_ != nullptr) destructor_(state_);
  }
  int Compare(const rocksdb::Slice& a, const rocksdb::Slice& b) const override {
    return compare_(state_, a.data(), a.size(), b.data(), b.size());
  }
  int CompareTimestamp(const rocksdb::Slice& a, const rocksdb::Slice& b) const override {
    if (compare_ts_ == nullptr) return 0;
    return compare_ts_(state_, a.data(), a.size(), b.data(), b.size());
  }
  int CompareWithoutTimestamp(const rocksdb::Slice& a, bool a_has_ts, const rocksdb::Slice& b,
                              bool b_has_ts) const override {
    if (compare_without_ts_ == nullptr) return Compare(a, b);
    return compare_without_ts_(state_, a.data(), a.size(), a_has_ts, b.data(), b.size(), b_has_ts);
  }
  const char* Name() const override { return name_(state_); }
  void FindShortestSeparator(std::string*, const rocksdb::Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}

 private:
  void* state_;
  void (*destructor_)(void*);
  int (*compare_)(void*, const char*, size_t, const char*, size_t);
  int (*compare_ts_)(void*, const char*, size_t, const char*, size_t);
  int (*compare_without_ts_)(void*, const char*, size_t, unsigned char, const char*, size_t,
                             unsigned char);
  const char* (*name_)(void*);
};

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

void MultiGetWithTs(rocksdb_t* db, const rocksdb_readoptions_t* options,
                    const std::vector<rocksdb::ColumnFamilyHandle*>& cfs, size_t num_keys,
                    const char* const* keys_list, const size_t* keys_list_sizes, char** values_list,
                    size_t* values_list_sizes, char** ts_list, size_t* ts_list_sizes, char** errs) {
  std::vector<rocksdb::Slice> keys;
  for (size_t i = 0; i < num_keys; i++) keys.emplace_back(keys_list[i], keys_list_sizes[i]);
  std::vector<std::string> values;
  std::vector<std::string> timestamps;
  std::vector<rocksdb::Status> statuses =
      db->rep->MultiGet(options->rep, cfs, keys, &values, &timestamps);
  strata_capi::FillMultiGet(statuses, values, values_list, values_list_sizes, errs);
  for (size_t i = 0; i < num_keys; i++) {
    if (statuses[i].ok()) {
      ts_list[i] = CopyBytes(timestamps[i].data(), timestamps[i].size());
      ts_list_sizes[i] = timestamps[i].size();
    } else {
      ts_list[i] = nullptr;
      ts_list_sizes[i] = 0;
    }
  }
}

}  // namespace

extern "C" {

// ---- comparators ----

rocksdb_comparator_t* rocksdb_comparator_with_ts_create(
    void* state, void (*destructor)(void*),
    int (*compare)(void*, const char* a, size_t alen, const char* b, size_t blen),
    int (*compare_ts)(void*, const char* a_ts, size_t a_tslen, const char* b_ts, size_t b_tslen),
    int (*compare_without_ts)(void*, const char* a, size_t alen, unsigned char a_has_ts,
                              const char* b, size_t blen, unsigned char b_has_ts),
    const char* (*name)(void*), size_t timestamp_size) {
  auto* c = new rocksdb_comparator_t;
  c->rep = std::make_unique<TsComparator>(state, destructor, compare, compare_ts,
                                          compare_without_ts, name, timestamp_size);
  return c;
}

// ---- database writes and reads ----

void rocksdb_put_with_ts(rocksdb_t* db, const rocksdb_writeoptions_t* options, const char* key,
                         size_t keylen, const char* ts, size_t tslen, const char* val,
                         size_t vallen, char** errptr) {
  SaveError(errptr, db->rep->Put(options->rep, rocksdb::Slice(key, keylen),
                                 rocksdb::Slice(ts, tslen), rocksdb::Slice(val, vallen)));
}

void rocksdb_put_cf_with_ts(rocksdb_t* db, const rocksdb_writeoptions_t* options,
                            rocksdb_column_family_handle_t* column_family, const char* key,
                            size_t keylen, const char* ts, size_t tslen, const char* val,
                            size_t vallen, char** errptr) {
  SaveError(errptr, db->rep->Put(options->rep, column_family->rep, rocksdb::Slice(key, keylen),
                                 rocksdb::Slice(ts, tslen), rocksdb::Slice(val, vallen)));
}

void rocksdb_delete_with_ts(rocksdb_t* db, const rocksdb_writeoptions_t* options, const char* key,
                            size_t keylen, const char* ts, size_t tslen, char** errptr) {
  SaveError(errptr,
            db->rep->Delete(options->rep, rocksdb::Slice(key, keylen), rocksdb::Slice(ts, tslen)));
}

void rocksdb_delete_cf_with_ts(rocksdb_t* db, const rocksdb_writeoptions_t* options,
                               rocksdb_column_family_handle_t* column_family, const char* key,
                               size_t keylen, const char* ts, size_t tslen, char** errptr) {
  SaveError(errptr, db->rep->Delete(options->rep, column_family->rep, rocksdb::Slice(key, keylen),
                                    rocksdb::Slice(ts, tslen)));
}

void rocksdb_singledelete_with_ts(rocksdb_t* db, const rocksdb_writeoptions_t* options,
                                  const char* key, size_t keylen, const char* ts, size_t tslen,
                                  char** errptr) {
  SaveError(errptr, db->rep->SingleDelete(options->rep, rocksdb::Slice(key, keylen),
                                          rocksdb::Slice(ts, tslen)));
}

void rocksdb_singledelete_cf_with_ts(rocksdb_t* db, const rocksdb_writeoptions_t* options,
                                     rocksdb_column_family_handle_t* column_family, const char* key,
                                     size_t keylen, const char* ts, size_t tslen, char** errptr) {
  SaveError(errptr, db->rep->SingleDelete(options->rep, column_family->rep,
                                          rocksdb::Slice(key, keylen), rocksdb::Slice(ts, tslen)));
}

void rocksdb_increase_full_history_ts_low(rocksdb_t* db,
                                          rocksdb_column_family_handle_t* column_family,
                                          const char* ts_low, size_t ts_lowlen, char** errptr) {
  SaveError(errptr,
            db->rep->IncreaseFullHistoryTsLow(column_family->rep, std::string(ts_low, ts_lowlen)));
}

char* rocksdb_get_full_history_ts_low(rocksdb_t* db, rocksdb_column_family_handle_t* column_family,
                                      size_t* ts_len, char** errptr) {
  std::string ts;
  if (SaveError(errptr, db->rep->GetFullHistoryTsLow(column_family->rep, &ts))) {
    *ts_len = 0;
    return nullptr;
  }
  *ts_len = ts.size();
  return CopyBytes(ts.data(), ts.size());
}

rocksdb_t* rocksdb_open_and_trim_history(const rocksdb_options_t* db_options, const char* name,
                                         int num_column_families,
                                         const char* const* column_family_names,
                                         const rocksdb_options_t* const* column_family_options,
                                         rocksdb_column_family_handle_t** column_family_handles,
                                         char* trim_ts, size_t trim_tslen, char** errptr) {
  if (!strata_capi::CheckRefusedAll(db_options, num_column_families, column_family_options,
                                    errptr)) {
    return nullptr;
  }
  rocksdb::DB* db = nullptr;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  if (SaveError(errptr,
                rocksdb::DB::OpenAndTrimHistory(
                    rocksdb::DBOptions(db_options->rep), name,
                    Descriptors(num_column_families, column_family_names, column_family_options),
                    &handles, &db, std::string(trim_ts, trim_tslen)))) {
    return nullptr;
  }
  StoreHandles(db, handles, column_family_handles);
  return WrapDB(db);
}

static char* GetWithTs(rocksdb_t* db, const rocksdb_readoptions_t* options,
                       rocksdb::ColumnFamilyHandle* cf, const char* key, size_t keylen,
                       size_t* vallen, char** ts, size_t* tslen, char** errptr) {
  std::string value;
  std::string timestamp;
  rocksdb::Status s =
      db->rep->Get(options->rep, cf, rocksdb::Slice(key, keylen), &value, &timestamp);
  char* result = ValueOrError(s, value, vallen, errptr);
  if (result != nullptr) {
    *ts = CopyBytes(timestamp.data(), timestamp.size());
    *tslen = timestamp.size();
  } else {
    *ts = nullptr;
    *tslen = 0;
  }
  return result;
}

char* rocksdb_get_with_ts(rocksdb_t* db, const rocksdb_readoptions_t* options, const char* key,
                          size_t keylen, size_t* vallen, char** ts, size_t* tslen, char** errptr) {
  return GetWithTs(db, options, db->rep->DefaultColumnFamily(), key, keylen, vallen, ts, tslen,
                   errptr);
}

char* rocksdb_get_cf_with_ts(rocksdb_t* db, const rocksdb_readoptions_t* options,
                             rocksdb_column_family_handle_t* column_family, const char* key,
                             size_t keylen, size_t* vallen, char** ts, size_t* tslen,
                             char** errptr) {
  return GetWithTs(db, options, column_family->rep, key, keylen, vallen, ts, tslen, errptr);
}

void rocksdb_multi_get_with_ts(rocksdb_t* db, const rocksdb_readoptions_t* options, size_t num_keys,
                               const char* const* keys_list, const size_t* keys_list_sizes,
                               char** values_list, size_t* values_list_sizes, char** timestamp_list,
                               size_t* timestamp_list_sizes, char** errs) {
  MultiGetWithTs(
      db, options,
      std::vector<rocksdb::ColumnFamilyHandle*>(num_keys, db->rep->DefaultColumnFamily()), num_keys,
      keys_list, keys_list_sizes, values_list, values_list_sizes, timestamp_list,
      timestamp_list_sizes, errs);
}

void rocksdb_multi_get_cf_with_ts(rocksdb_t* db, const rocksdb_readoptions_t* options,
                                  const rocksdb_column_family_handle_t* const* column_families,
                                  size_t num_keys, const char* const* keys_list,
                                  const size_t* keys_list_sizes, char** values_list,
                                  size_t* values_list_sizes, char** timestamps_list,
                                  size_t* timestamps_list_sizes, char** errs) {
  std::vector<rocksdb::ColumnFamilyHandle*> cfs;
  for (size_t i = 0; i < num_keys; i++) cfs.push_back(column_families[i]->rep);
  MultiGetWithTs(db, options, cfs, num_keys, keys_list, keys_list_sizes, values_list,
                 values_list_sizes, timestamps_list, timestamps_list_sizes, errs);
}

// ---- iterators, batches, SST files ----

const char* rocksdb_iter_timestamp(const rocksdb_iterator_t* iter, size_t* tslen) {
  rocksdb::Slice ts = iter->rep->timestamp();
  *tslen = ts.size();
  return ts.data();
}

void rocksdb_writebatch_put_cf_with_ts(rocksdb_writebatch_t* b,
                                       rocksdb_column_family_handle_t* column_family,
                                       const char* key, size_t klen, const char* ts, size_t tslen,
                                       const char* val, size_t vlen) {
  b->rep
      .Put(column_family->rep, rocksdb::Slice(key, klen), rocksdb::Slice(ts, tslen),
           rocksdb::Slice(val, vlen))
      .PermitUncheckedError();
}

void rocksdb_writebatch_delete_cf_with_ts(rocksdb_writebatch_t* b,
                                          rocksdb_column_family_handle_t* column_family,
                                          const char* key, size_t klen, const char* ts,
                                          size_t tslen) {
  b->rep.Delete(column_family->rep, rocksdb::Slice(key, klen), rocksdb::Slice(ts, tslen))
      .PermitUncheckedError();
}

void rocksdb_writebatch_singledelete_cf_with_ts(rocksdb_writebatch_t* b,
                                                rocksdb_column_family_handle_t* column_family,
                                                const char* key, size_t klen, const char* ts,
                                                size_t tslen) {
  b->rep.SingleDelete(column_family->rep, rocksdb::Slice(key, klen), rocksdb::Slice(ts, tslen))
      .PermitUncheckedError();
}

void rocksdb_sstfilewriter_put_with_ts(rocksdb_sstfilewriter_t* writer, const char* key,
                                       size_t keylen, const char* ts, size_t tslen, const char* val,
                                       size_t vallen, char** errptr) {
  SaveError(errptr, writer->rep->Put(rocksdb::Slice(key, keylen), rocksdb::Slice(ts, tslen),
                                     rocksdb::Slice(val, vallen)));
}

void rocksdb_sstfilewriter_delete_with_ts(rocksdb_sstfilewriter_t* writer, const char* key,
                                          size_t keylen, const char* ts, size_t tslen,
                                          char** errptr) {
  SaveError(errptr, writer->rep->Delete(rocksdb::Slice(key, keylen), rocksdb::Slice(ts, tslen)));
}

// ---- read and compact options ----

void rocksdb_readoptions_set_timestamp(rocksdb_readoptions_t* opt, const char* ts, size_t tslen) {
  if (ts == nullptr) {
    opt->timestamp.clear();
    opt->rep.timestamp = nullptr;
    return;
  }
  opt->timestamp.assign(ts, tslen);
  opt->timestamp_slice = rocksdb::Slice(opt->timestamp);
  opt->rep.timestamp = &opt->timestamp_slice;
}

void rocksdb_readoptions_set_iter_start_ts(rocksdb_readoptions_t* opt, const char* ts,
                                           size_t tslen) {
  if (ts == nullptr) {
    opt->iter_start_ts.clear();
    opt->rep.iter_start_ts = nullptr;
    return;
  }
  opt->iter_start_ts.assign(ts, tslen);
  opt->iter_start_ts_slice = rocksdb::Slice(opt->iter_start_ts);
  opt->rep.iter_start_ts = &opt->iter_start_ts_slice;
}

void rocksdb_compactoptions_set_full_history_ts_low(rocksdb_compactoptions_t* opt, char* ts,
                                                    size_t tslen) {
  if (ts == nullptr) {
    opt->full_history_ts_low.clear();
    opt->rep.full_history_ts_low = nullptr;
    return;
  }
  opt->full_history_ts_low.assign(ts, tslen);
  opt->full_history_ts_low_slice = rocksdb::Slice(opt->full_history_ts_low);
  opt->rep.full_history_ts_low = &opt->full_history_ts_low_slice;
}

}  // extern "C"
