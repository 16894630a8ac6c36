// c_batch_ops.h: what plain and indexed write batches share in the C API
// (c_batch.cc, c_batch_wi.cc): helpers over either batch kind and the
// STRATA_BATCH_OPS macro that stamps out the common C functions.
//
// STRATA_BATCH_OPS(T, P) expects, at the point of use, two overloads for
// the handle type T: `Base(T*)` (the batch operations go to: a
// rocksdb::WriteBatch* or rocksdb::WriteBatchWithIndex*) and `rocksdb::WriteBatch* Plain(T*)` (the
// serialized batch).
//
// Operations have no error channel in RocksDB's C API: a failure inside a
// batch operation (for example DeleteRange on an indexed batch, which
// RocksDB does not support) is not reported, exactly as there.
#pragma once

#include <string>

#include "compat/capi/c_internal.h"

namespace strata_capi {

// Joins parallel pointer/length arrays into one string (a key or value
// given in parts is stored as the concatenation of its parts, as in
// RocksDB's SliceParts forms).
inline std::string Join(int n, const char* const* list, const size_t* sizes) {
  std::string out;
  for (int i = 0; i < n; i++) out.append(list[i], sizes[i]);
  return out;
}

// The helpers below take either batch kind (rocksdb::WriteBatch or
// rocksdb::WriteBatchWithIndex): both have the same Put/Merge/Delete/
// DeleteRange members.
template <typename B>
void PutV(B* b, rocksdb::ColumnFamilyHandle* cf, int num_keys, const char* const* keys_list,
          const size_t* keys_list_sizes, int num_values, const char* const* values_list,
          const size_t* values_list_sizes, bool merge) {
  std::string key = Join(num_keys, keys_list, keys_list_sizes);
  std::string value = Join(num_values, values_list, values_list_sizes);
  rocksdb::Status s;
  if (merge) {
    s = cf != nullptr ? b->Merge(cf, key, value) : b->Merge(key, value);
  } else {
    s = cf != nullptr ? b->Put(cf, key, value) : b->Put(key, value);
  }
  s.PermitUncheckedError();
}

template <typename B>
void DeleteV(B* b, rocksdb::ColumnFamilyHandle* cf, int num_keys, const char* const* keys_list,
             const size_t* keys_list_sizes) {
  std::string key = Join(num_keys, keys_list, keys_list_sizes);
  (cf != nullptr ? b->Delete(cf, key) : b->Delete(key)).PermitUncheckedError();
}

template <typename B>
void DeleteRangeV(B* b, rocksdb::ColumnFamilyHandle* cf, int num_keys,
                  const char* const* start_keys_list, const size_t* start_keys_list_sizes,
                  const char* const* end_keys_list, const size_t* end_keys_list_sizes) {
  std::string a = Join(num_keys, start_keys_list, start_keys_list_sizes);
  std::string z = Join(num_keys, end_keys_list, end_keys_list_sizes);
  (cf != nullptr ? b->DeleteRange(cf, a, z) : b->DeleteRange(a, z)).PermitUncheckedError();
}

// Reports the puts and deletes of the default column family to C
// callbacks, as RocksDB's C API does; other records end the iteration.
class CallbackHandler : public rocksdb::WriteBatch::Handler {
 public:
  CallbackHandler(void* state,
                  void (*put)(void*, const char* k, size_t klen, const char* v, size_t vlen),
                  void (*deleted)(void*, const char* k, size_t klen))
      : state_(state), put_(put), deleted_(deleted) {}
  void Put(const rocksdb::Slice& key, const rocksdb::Slice& value) override {
    put_(state_, key.data(), key.size(), value.data(), value.size());
  }
  void Delete(const rocksdb::Slice& key) override { deleted_(state_, key.data(), key.size()); }

 private:
  void* state_;
  void (*put_)(void*, const char*, size_t, const char*, size_t);
  void (*deleted_)(void*, const char*, size_t);
};

}  // namespace strata_capi

// The operations both batch kinds share, for C type T and name prefix P.
#define STRATA_BATCH_OPS(T, P)                                                                     \
  void P##_clear(T* b) { Base(b)->Clear(); }                                                       \
  int P##_count(T* b) { return Plain(b)->Count(); }                                                \
  void P##_put(T* b, const char* key, size_t klen, const char* val, size_t vlen) {                 \
    Base(b)->Put(rocksdb::Slice(key, klen), rocksdb::Slice(val, vlen)).PermitUncheckedError();     \
  }                                                                                                \
  void P##_put_cf(T* b, rocksdb_column_family_handle_t* column_family, const char* key,            \
                  size_t klen, const char* val, size_t vlen) {                                     \
    Base(b)                                                                                        \
        ->Put(column_family->rep, rocksdb::Slice(key, klen), rocksdb::Slice(val, vlen))            \
        .PermitUncheckedError();                                                                   \
  }                                                                                                \
  void P##_putv(T* b, int num_keys, const char* const* keys_list, const size_t* keys_list_sizes,   \
                int num_values, const char* const* values_list, const size_t* values_list_sizes) { \
    strata_capi::PutV(Base(b), nullptr, num_keys, keys_list, keys_list_sizes, num_values,          \
                      values_list, values_list_sizes, false);                                      \
  }                                                                                                \
  void P##_putv_cf(T* b, rocksdb_column_family_handle_t* column_family, int num_keys,              \
                   const char* const* keys_list, const size_t* keys_list_sizes, int num_values,    \
                   const char* const* values_list, const size_t* values_list_sizes) {              \
    strata_capi::PutV(Base(b), column_family->rep, num_keys, keys_list, keys_list_sizes,           \
                      num_values, values_list, values_list_sizes, false);                          \
  }                                                                                                \
  void P##_merge(T* b, const char* key, size_t klen, const char* val, size_t vlen) {               \
    Base(b)->Merge(rocksdb::Slice(key, klen), rocksdb::Slice(val, vlen)).PermitUncheckedError();   \
  }                                                                                                \
  void P##_merge_cf(T* b, rocksdb_column_family_handle_t* column_family, const char* key,          \
                    size_t klen, const char* val, size_t vlen) {                                   \
    Base(b)                                                                                        \
        ->Merge(column_family->rep, rocksdb::Slice(key, klen), rocksdb::Slice(val, vlen))          \
        .PermitUncheckedError();                                                                   \
  }                                                                                                \
  void P##_mergev(T* b, int num_keys, const char* const* keys_list, const size_t* keys_list_sizes, \
                  int num_values, const char* const* values_list,                                  \
                  const size_t* values_list_sizes) {                                               \
    strata_capi::PutV(Base(b), nullptr, num_keys, keys_list, keys_list_sizes, num_values,          \
                      values_list, values_list_sizes, true);                                       \
  }                                                                                                \
  void P##_mergev_cf(T* b, rocksdb_column_family_handle_t* column_family, int num_keys,            \
                     const char* const* keys_list, const size_t* keys_list_sizes, int num_values,  \
                     const char* const* values_list, const size_t* values_list_sizes) {            \
    strata_capi::PutV(Base(b), column_family->rep, num_keys, keys_list, keys_list_sizes,           \
                      num_values, values_list, values_list_sizes, true);                           \
  }                                                                                                \
  void P##_delete(T* b, const char* key, size_t klen) {                                            \
    Base(b)->Delete(rocksdb::Slice(key, klen)).PermitUncheckedError();                             \
  }                                                                                                \
  void P##_singledelete(T* b, const char* key, size_t klen) {                                      \
    Base(b)->SingleDelete(rocksdb::Slice(key, klen)).PermitUncheckedError();                       \
  }                                                                                                \
  void P##_delete_cf(T* b, rocksdb_column_family_handle_t* column_family, const char* key,         \
                     size_t klen) {                                                                \
    Base(b)->Delete(column_family->rep, rocksdb::Slice(key, klen)).PermitUncheckedError();         \
  }                                                                                                \
  void P##_singledelete_cf(T* b, rocksdb_column_family_handle_t* column_family, const char* key,   \
                           size_t klen) {                                                          \
    Base(b)->SingleDelete(column_family->rep, rocksdb::Slice(key, klen)).PermitUncheckedError();   \
  }                                                                                                \
  void P##_deletev(T* b, int num_keys, const char* const* keys_list,                               \
                   const size_t* keys_list_sizes) {                                                \
    strata_capi::DeleteV(Base(b), nullptr, num_keys, keys_list, keys_list_sizes);                  \
  }                                                                                                \
  void P##_deletev_cf(T* b, rocksdb_column_family_handle_t* column_family, int num_keys,           \
                      const char* const* keys_list, const size_t* keys_list_sizes) {               \
    strata_capi::DeleteV(Base(b), column_family->rep, num_keys, keys_list, keys_list_sizes);       \
  }                                                                                                \
  void P##_delete_range(T* b, const char* start_key, size_t start_key_len, const char* end_key,    \
                        size_t end_key_len) {                                                      \
    Base(b)                                                                                        \
        ->DeleteRange(rocksdb::Slice(start_key, start_key_len),                                    \
                      rocksdb::Slice(end_key, end_key_len))                                        \
        .PermitUncheckedError();                                                                   \
  }                                                                                                \
  void P##_delete_range_cf(T* b, rocksdb_column_family_handle_t* column_family,                    \
                           const char* start_key, size_t start_key_len, const char* end_key,       \
                           size_t end_key_len) {                                                   \
    Base(b)                                                                                        \
        ->DeleteRange(column_family->rep, rocksdb::Slice(start_key, start_key_len),                \
                      rocksdb::Slice(end_key, end_key_len))                                        \
        .PermitUncheckedError();                                                                   \
  }                                                                                                \
  void P##_delete_rangev(T* b, int num_keys, const char* const* start_keys_list,                   \
                         const size_t* start_keys_list_sizes, const char* const* end_keys_list,    \
                         const size_t* end_keys_list_sizes) {                                      \
    strata_capi::DeleteRangeV(Base(b), nullptr, num_keys, start_keys_list, start_keys_list_sizes,  \
                              end_keys_list, end_keys_list_sizes);                                 \
  }                                                                                                \
  void P##_delete_rangev_cf(T* b, rocksdb_column_family_handle_t* column_family, int num_keys,     \
                            const char* const* start_keys_list,                                    \
                            const size_t* start_keys_list_sizes, const char* const* end_keys_list, \
                            const size_t* end_keys_list_sizes) {                                   \
    strata_capi::DeleteRangeV(Base(b), column_family->rep, num_keys, start_keys_list,              \
                              start_keys_list_sizes, end_keys_list, end_keys_list_sizes);          \
  }                                                                                                \
  void P##_put_log_data(T* b, const char* blob, size_t len) {                                      \
    Base(b)->PutLogData(rocksdb::Slice(blob, len)).PermitUncheckedError();                         \
  }                                                                                                \
  void P##_iterate(T* b, void* state,                                                              \
                   void (*put)(void*, const char* k, size_t klen, const char* v, size_t vlen),     \
                   void (*deleted)(void*, const char* k, size_t klen)) {                           \
    strata_capi::CallbackHandler handler(state, put, deleted);                                     \
    Plain(b)->Iterate(&handler).PermitUncheckedError();                                            \
  }                                                                                                \
  const char* P##_data(T* b, size_t* size) {                                                       \
    const std::string& data = Plain(b)->Data();                                                    \
    *size = data.size();                                                                           \
    return data.data();                                                                            \
  }                                                                                                \
  void P##_set_save_point(T* b) { Base(b)->SetSavePoint(); }                                       \
  void P##_rollback_to_save_point(T* b, char** errptr) {                                           \
    strata_capi::SaveError(errptr, Base(b)->RollbackToSavePoint());                                \
  }
