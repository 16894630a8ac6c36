// c_internal.cc: helpers shared by the area files of the C API (see
// c_internal.h).
#include "compat/capi/c_internal.h"

namespace strata_capi {

bool SaveError(char** errptr, const rocksdb::Status& s) {
  if (s.ok()) return false;
  SaveErrorMessage(errptr, s.ToString());
  return true;
}

void SaveErrorMessage(char** errptr, const std::string& message) {
  if (errptr == nullptr) return;
  free(*errptr);  // a message left from an earlier call is replaced
  *errptr = CopyString(message);
}

void NotSupported(char** errptr, const char* fn, const char* why) {
  SaveErrorMessage(errptr, std::string("Not implemented: ") + fn + ": " + why);
}

char* CopyBytes(const char* data, size_t n) {
  // malloc(0) may return NULL; callers test the result for "found", so
  // always allocate at least one byte.
  char* p = static_cast<char*>(malloc(n == 0 ? 1 : n));
  if (n > 0) memcpy(p, data, n);
  return p;
}

char* CopyString(const std::string& s) {
  char* p = static_cast<char*>(malloc(s.size() + 1));
  memcpy(p, s.data(), s.size());
  p[s.size()] = '\0';
  return p;
}

bool CheckRefused(const rocksdb_options_t* opts, char** errptr) {
  if (opts == nullptr || opts->refused.empty()) return true;
  std::string names;
  for (const std::string& r : opts->refused) {
    if (!names.empty()) names += ", ";
    names += r;
  }
  SaveErrorMessage(errptr, "Invalid argument: options set by " + names + " are not supported");
  return false;
}

bool CheckRefusedAll(const rocksdb_options_t* db_options, int n,
                     const rocksdb_options_t* const* cf_options, char** errptr) {
  if (!CheckRefused(db_options, errptr)) return false;
  for (int i = 0; i < n; i++) {
    if (!CheckRefused(cf_options[i], errptr)) return false;
  }
  return true;
}

rocksdb_t* WrapDB(rocksdb::DB* db) {
  auto* w = new rocksdb_t;
  w->rep = db;
  return w;
}

void StoreHandles(rocksdb::DB* db, const std::vector<rocksdb::ColumnFamilyHandle*>& handles,
                  rocksdb_column_family_handle_t** out) {
  for (size_t i = 0; i < handles.size(); i++) out[i] = WrapHandle(db, handles[i]);
}

rocksdb_column_family_handle_t* WrapHandle(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* h) {
  auto* w = new rocksdb_column_family_handle_t;
  w->rep = h;
  w->db = db;
  return w;
}

std::vector<rocksdb::ColumnFamilyDescriptor> Descriptors(int n, const char* const* names,
                                                         const rocksdb_options_t* const* options) {
  std::vector<rocksdb::ColumnFamilyDescriptor> out;
  for (int i = 0; i < n; i++) {
    out.emplace_back(std::string(names[i]), rocksdb::ColumnFamilyOptions(options[i]->rep));
  }
  return out;
}

void FillMultiGet(const std::vector<rocksdb::Status>& statuses, std::vector<std::string>& values,
                  char** values_list, size_t* values_list_sizes, char** errs) {
  for (size_t i = 0; i < statuses.size(); i++) {
    if (statuses[i].ok()) {
      values_list[i] = CopyBytes(values[i].data(), values[i].size());
      values_list_sizes[i] = values[i].size();
      errs[i] = nullptr;
    } else {
      values_list[i] = nullptr;
      values_list_sizes[i] = 0;
      errs[i] = statuses[i].IsNotFound() ? nullptr : CopyString(statuses[i].ToString());
    }
  }
}

rocksdb_iterator_t* WrapIterator(rocksdb::Iterator* it) {
  if (it == nullptr) return nullptr;
  auto* w = new rocksdb_iterator_t;
  w->rep = it;
  return w;
}

}  // namespace strata_capi
