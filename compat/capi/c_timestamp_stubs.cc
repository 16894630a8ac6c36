// c_timestamp_stubs.cc: the user-defined-timestamp functions of
// rocksdb/c.h (see c_timestamp.cc, the implementation over RocksDB's
// timestamp overloads) as error stubs: Strata keys carry no user
// timestamps, and the compat layer offers none of those overloads. Each
// function that has an errptr reports "Not implemented: <function>: ..."
// through it; the others return NULL or do nothing. The three setters of
// read and compact options store the timestamp in the options, which the
// layer then refuses (ReadOptions::timestamp, ReadOptions::iter_start_ts,
// CompactRangeOptions::full_history_ts_low: InvalidArgument naming the
// field at the call).
#include "compat/capi/c_internal.h"

using strata_capi::NotSupported;

namespace {
constexpr char kWhy[] = "user-defined timestamps are not supported by Strata";

// Every key of a MultiGet gets no value, no timestamp and the error.
void MultiGetStub(const char* fn, size_t num_keys, char** values_list, size_t* values_list_sizes,
                  char** timestamp_list, size_t* timestamp_list_sizes, char** errs) {
  for (size_t i = 0; i < num_keys; i++) {
    values_list[i] = nullptr;
    values_list_sizes[i] = 0;
    timestamp_list[i] = nullptr;
    timestamp_list_sizes[i] = 0;
    errs[i] = nullptr;
    NotSupported(&errs[i], fn, kWhy);
  }
}
}  // namespace

extern "C" {

void rocksdb_put_with_ts(rocksdb_t* /*db*/, const rocksdb_writeoptions_t* /*options*/,
                         const char* /*key*/, size_t /*keylen*/, const char* /*ts*/,
                         size_t /*tslen*/, const char* /*val*/, size_t /*vallen*/, char** errptr) {
  NotSupported(errptr, "rocksdb_put_with_ts", kWhy);
}

void rocksdb_put_cf_with_ts(rocksdb_t* /*db*/, const rocksdb_writeoptions_t* /*options*/,
                            rocksdb_column_family_handle_t* /*column_family*/, const char* /*key*/,
                            size_t /*keylen*/, const char* /*ts*/, size_t /*tslen*/,
                            const char* /*val*/, size_t /*vallen*/, char** errptr) {
  NotSupported(errptr, "rocksdb_put_cf_with_ts", kWhy);
}

void rocksdb_delete_with_ts(rocksdb_t* /*db*/, const rocksdb_writeoptions_t* /*options*/,
                            const char* /*key*/, size_t /*keylen*/, const char* /*ts*/,
                            size_t /*tslen*/, char** errptr) {
  NotSupported(errptr, "rocksdb_delete_with_ts", kWhy);
}

void rocksdb_delete_cf_with_ts(rocksdb_t* /*db*/, const rocksdb_writeoptions_t* /*options*/,
                               rocksdb_column_family_handle_t* /*column_family*/,
                               const char* /*key*/, size_t /*keylen*/, const char* /*ts*/,
                               size_t /*tslen*/, char** errptr) {
  NotSupported(errptr, "rocksdb_delete_cf_with_ts", kWhy);
}

void rocksdb_singledelete_with_ts(rocksdb_t* /*db*/, const rocksdb_writeoptions_t* /*options*/,
                                  const char* /*key*/, size_t /*keylen*/, const char* /*ts*/,
                                  size_t /*tslen*/, char** errptr) {
  NotSupported(errptr, "rocksdb_singledelete_with_ts", kWhy);
}

void rocksdb_singledelete_cf_with_ts(rocksdb_t* /*db*/, const rocksdb_writeoptions_t* /*options*/,
                                     rocksdb_column_family_handle_t* /*column_family*/,
                                     const char* /*key*/, size_t /*keylen*/, const char* /*ts*/,
                                     size_t /*tslen*/, char** errptr) {
  NotSupported(errptr, "rocksdb_singledelete_cf_with_ts", kWhy);
}

void rocksdb_increase_full_history_ts_low(rocksdb_t* /*db*/,
                                          rocksdb_column_family_handle_t* /*column_family*/,
                                          const char* /*ts_low*/, size_t /*ts_lowlen*/,
                                          char** errptr) {
  NotSupported(errptr, "rocksdb_increase_full_history_ts_low", kWhy);
}

char* rocksdb_get_full_history_ts_low(rocksdb_t* /*db*/,
                                      rocksdb_column_family_handle_t* /*column_family*/,
                                      size_t* /*ts_lowlen*/, char** errptr) {
  NotSupported(errptr, "rocksdb_get_full_history_ts_low", kWhy);
  return nullptr;
}

rocksdb_t* rocksdb_open_and_trim_history(const rocksdb_options_t* /*options*/, const char* /*name*/,
                                         int /*num_column_families*/,
                                         const char* const* /*column_family_names*/,
                                         const rocksdb_options_t* const* /*column_family_options*/,
                                         rocksdb_column_family_handle_t** /*column_family_handles*/,
                                         char* /*trim_ts*/, size_t /*trim_tslen*/, char** errptr) {
  NotSupported(errptr, "rocksdb_open_and_trim_history", kWhy);
  return nullptr;
}

char* rocksdb_get_with_ts(rocksdb_t* /*db*/, const rocksdb_readoptions_t* /*options*/,
                          const char* /*key*/, size_t /*keylen*/, size_t* /*vallen*/, char** /*ts*/,
                          size_t* /*tslen*/, char** errptr) {
  NotSupported(errptr, "rocksdb_get_with_ts", kWhy);
  return nullptr;
}

char* rocksdb_get_cf_with_ts(rocksdb_t* /*db*/, const rocksdb_readoptions_t* /*options*/,
                             rocksdb_column_family_handle_t* /*column_family*/, const char* /*key*/,
                             size_t /*keylen*/, size_t* /*vallen*/, char** /*ts*/,
                             size_t* /*tslen*/, char** errptr) {
  NotSupported(errptr, "rocksdb_get_cf_with_ts", kWhy);
  return nullptr;
}

void rocksdb_multi_get_with_ts(rocksdb_t* /*db*/, const rocksdb_readoptions_t* /*options*/,
                               size_t num_keys, const char* const* /*keys_list*/,
                               const size_t* /*keys_list_sizes*/, char** values_list,
                               size_t* values_list_sizes, char** timestamp_list,
                               size_t* timestamp_list_sizes, char** errs) {
  MultiGetStub("rocksdb_multi_get_with_ts", num_keys, values_list, values_list_sizes,
               timestamp_list, timestamp_list_sizes, errs);
}

void rocksdb_multi_get_cf_with_ts(rocksdb_t* /*db*/, const rocksdb_readoptions_t* /*options*/,
                                  const rocksdb_column_family_handle_t* const* /*column_families*/,
                                  size_t num_keys, const char* const* /*keys_list*/,
                                  const size_t* /*keys_list_sizes*/, char** values_list,
                                  size_t* values_list_sizes, char** timestamp_list,
                                  size_t* timestamp_list_sizes, char** errs) {
  MultiGetStub("rocksdb_multi_get_cf_with_ts", num_keys, values_list, values_list_sizes,
               timestamp_list, timestamp_list_sizes, errs);
}

const char* rocksdb_iter_timestamp(const rocksdb_iterator_t*, size_t* /*tslen*/) { return nullptr; }

void rocksdb_writebatch_put_cf_with_ts(rocksdb_writebatch_t*,
                                       rocksdb_column_family_handle_t* /*column_family*/,
                                       const char* /*key*/, size_t /*klen*/, const char* /*ts*/,
                                       size_t /*tslen*/, const char* /*val*/, size_t /*vlen*/) {}

void rocksdb_writebatch_delete_cf_with_ts(rocksdb_writebatch_t*,
                                          rocksdb_column_family_handle_t* /*column_family*/,
                                          const char* /*key*/, size_t /*klen*/, const char* /*ts*/,
                                          size_t /*tslen*/) {}

void rocksdb_writebatch_singledelete_cf_with_ts(rocksdb_writebatch_t* /*b*/,
                                                rocksdb_column_family_handle_t* /*column_family*/,
                                                const char* /*key*/, size_t /*klen*/,
                                                const char* /*ts*/, size_t /*tslen*/) {}

rocksdb_comparator_t* rocksdb_comparator_with_ts_create(
    void* /*state*/, void (*destructor)(void*),
    int (*compare)(void*, const char* /*a*/, size_t /*alen*/, const char* /*b*/, size_t blen),
    int (*compare_ts)(void*, const char* /*a_ts*/, size_t /*a_tslen*/, const char* /*b_ts*/,
                      size_t b_tslen),
    int (*compare_without_ts)(void*, const char* /*a*/, size_t /*alen*/, unsigned char /*a_has_ts*/,
                              const char* /*b*/, size_t /*blen*/, unsigned char b_has_ts),
    const char* (*name)(void*), size_t /*timestamp_size*/) {
  return nullptr;
}

void rocksdb_sstfilewriter_put_with_ts(rocksdb_sstfilewriter_t* /*writer*/, const char* /*key*/,
                                       size_t /*keylen*/, const char* /*ts*/, size_t /*tslen*/,
                                       const char* /*val*/, size_t /*vallen*/, char** errptr) {
  NotSupported(errptr, "rocksdb_sstfilewriter_put_with_ts", kWhy);
}

void rocksdb_sstfilewriter_delete_with_ts(rocksdb_sstfilewriter_t* /*writer*/, const char* /*key*/,
                                          size_t /*keylen*/, const char* /*ts*/, size_t /*tslen*/,
                                          char** errptr) {
  NotSupported(errptr, "rocksdb_sstfilewriter_delete_with_ts", kWhy);
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
