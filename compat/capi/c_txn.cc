// c_txn.cc: transactions (rocksdb/c.h): pessimistic ones over
// rocksdb::TransactionDB and optimistic ones over
// rocksdb::OptimisticTransactionDB, with their options.
//
// A transaction handle is reused when passed as `old_txn` to *_begin, as in
// RocksDB. rocksdb_transaction_get_snapshot and
// rocksdb_transaction_get_writebatch_wi return malloc'd handles that borrow
// the transaction's snapshot and batch; free them with rocksdb_free.
#include <new>

#include "compat/capi/c_checkpoint.h"
#include "compat/capi/c_internal.h"
#include "compat/capi/c_wbwi.h"
#include "rocksdb/utilities/optimistic_transaction_db.h"
#include "rocksdb/utilities/transaction.h"
#include "rocksdb/utilities/transaction_db.h"

using strata_capi::CheckRefused;
using strata_capi::CopyBytes;
using strata_capi::CopyString;
using strata_capi::Descriptors;
using strata_capi::SaveError;

struct rocksdb_transactiondb_options_t {
  rocksdb::TransactionDBOptions rep;
};

struct rocksdb_transactiondb_t {
  rocksdb::TransactionDB* rep = nullptr;
};

struct rocksdb_transaction_options_t {
  rocksdb::TransactionOptions rep;
};

struct rocksdb_transaction_t {
  rocksdb::Transaction* rep = nullptr;
};

struct rocksdb_optimistictransactiondb_t {
  rocksdb::OptimisticTransactionDB* rep = nullptr;
};

struct rocksdb_optimistictransaction_options_t {
  rocksdb::OptimisticTransactionOptions rep;
};

namespace {

char* ValueOrError(const rocksdb::Status& s, const std::string& value, size_t* vlen,
                   char** errptr) {
  if (s.ok()) {
    *vlen = value.size();
    return CopyBytes(value.data(), value.size());
  }
  *vlen = 0;
  if (!s.IsNotFound()) SaveError(errptr, s);
  return nullptr;
}

rocksdb_pinnableslice_t* PinnedOrError(const rocksdb::Status& s, rocksdb_pinnableslice_t* v,
                                       char** errptr) {
  if (s.ok()) return v;
  delete v;
  if (!s.IsNotFound()) SaveError(errptr, s);
  return nullptr;
}

std::vector<rocksdb::Slice> Keys(size_t n, const char* const* keys_list,
                                 const size_t* keys_list_sizes) {
  std::vector<rocksdb::Slice> keys;
  for (size_t i = 0; i < n; i++) keys.emplace_back(keys_list[i], keys_list_sizes[i]);
  return keys;
}

rocksdb_transaction_t* Begin(rocksdb::Transaction* txn, rocksdb_transaction_t* old_txn) {
  if (old_txn != nullptr) {
    old_txn->rep = txn;  // the same C++ object, reinitialized
    return old_txn;
  }
  auto* t = new rocksdb_transaction_t;
  t->rep = txn;
  return t;
}

rocksdb_checkpoint_t* NewCheckpoint(rocksdb::DB* db, char** errptr) {
  rocksdb::Checkpoint* checkpoint = nullptr;
  if (SaveError(errptr, rocksdb::Checkpoint::Create(db, &checkpoint))) {
    return nullptr;
  }
  auto* c = new rocksdb_checkpoint_t;
  c->rep = checkpoint;
  return c;
}

int IntProperty(rocksdb::DB* db, const char* propname, uint64_t* out_val) {
  return db->GetIntProperty(rocksdb::Slice(propname), out_val) ? 0 : -1;
}

char* StringProperty(rocksdb::DB* db, const char* propname) {
  std::string value;
  if (!db->GetProperty(rocksdb::Slice(propname), &value)) return nullptr;
  return CopyString(value);
}

}  // namespace

extern "C" {

// ---- pessimistic transaction databases ----

rocksdb_transactiondb_t* rocksdb_transactiondb_open(
    const rocksdb_options_t* options, const rocksdb_transactiondb_options_t* txn_db_options,
    const char* name, char** errptr) {
  if (!CheckRefused(options, errptr)) return nullptr;
  rocksdb::TransactionDB* db = nullptr;
  if (SaveError(errptr,
                rocksdb::TransactionDB::Open(options->rep, txn_db_options->rep, name, &db))) {
    return nullptr;
  }
  auto* t = new rocksdb_transactiondb_t;
  t->rep = db;
  return t;
}

rocksdb_transactiondb_t* rocksdb_transactiondb_open_column_families(
    const rocksdb_options_t* options, const rocksdb_transactiondb_options_t* txn_db_options,
    const char* name, int num_column_families, const char* const* column_family_names,
    const rocksdb_options_t* const* column_family_options,
    rocksdb_column_family_handle_t** column_family_handles, char** errptr) {
  if (!strata_capi::CheckRefusedAll(options, num_column_families, column_family_options, errptr)) {
    return nullptr;
  }
  rocksdb::TransactionDB* db = nullptr;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  if (SaveError(errptr,
                rocksdb::TransactionDB::Open(
                    rocksdb::DBOptions(options->rep), txn_db_options->rep, name,
                    Descriptors(num_column_families, column_family_names, column_family_options),
                    &handles, &db))) {
    return nullptr;
  }
  for (size_t i = 0; i < handles.size(); i++) {
    column_family_handles[i] = strata_capi::WrapHandle(db, handles[i]);
  }
  auto* t = new rocksdb_transactiondb_t;
  t->rep = db;
  return t;
}

rocksdb_column_family_handle_t* rocksdb_transactiondb_create_column_family(
    rocksdb_transactiondb_t* txn_db, const rocksdb_options_t* column_family_options,
    const char* column_family_name, char** errptr) {
  if (!CheckRefused(column_family_options, errptr)) return nullptr;
  rocksdb::ColumnFamilyHandle* handle = nullptr;
  if (SaveError(errptr, txn_db->rep->CreateColumnFamily(
                            rocksdb::ColumnFamilyOptions(column_family_options->rep),
                            column_family_name, &handle))) {
    return nullptr;
  }
  return strata_capi::WrapHandle(txn_db->rep, handle);
}

void rocksdb_transactiondb_close(rocksdb_transactiondb_t* txn_db) {
  delete txn_db->rep;
  delete txn_db;
}

const rocksdb_snapshot_t* rocksdb_transactiondb_create_snapshot(rocksdb_transactiondb_t* txn_db) {
  auto* snap = new rocksdb_snapshot_t;
  snap->rep = txn_db->rep->GetSnapshot();
  return snap;
}

void rocksdb_transactiondb_release_snapshot(rocksdb_transactiondb_t* txn_db,
                                            const rocksdb_snapshot_t* snapshot) {
  txn_db->rep->ReleaseSnapshot(snapshot->rep);
  delete snapshot;
}

char* rocksdb_transactiondb_property_value(rocksdb_transactiondb_t* db, const char* propname) {
  return StringProperty(db->rep, propname);
}

int rocksdb_transactiondb_property_int(rocksdb_transactiondb_t* db, const char* propname,
                                       uint64_t* out_val) {
  return IntProperty(db->rep, propname, out_val);
}

// A malloc'd array of new handles (the caller destroys each, then frees
// the array with rocksdb_free), or NULL when none is prepared.
rocksdb_transaction_t** rocksdb_transactiondb_get_prepared_transactions(
    rocksdb_transactiondb_t* txn_db, size_t* cnt) {
  std::vector<rocksdb::Transaction*> prepared;
  txn_db->rep->GetAllPreparedTransactions(&prepared);
  *cnt = prepared.size();
  if (prepared.empty()) return nullptr;
  auto** list = static_cast<rocksdb_transaction_t**>(
      malloc(sizeof(rocksdb_transaction_t*) * prepared.size()));
  for (size_t i = 0; i < prepared.size(); i++) {
    list[i] = new rocksdb_transaction_t;
    list[i]->rep = prepared[i];
  }
  return list;
}

rocksdb_transaction_t* rocksdb_transaction_begin(rocksdb_transactiondb_t* txn_db,
                                                 const rocksdb_writeoptions_t* write_options,
                                                 const rocksdb_transaction_options_t* txn_options,
                                                 rocksdb_transaction_t* old_txn) {
  return Begin(txn_db->rep->BeginTransaction(write_options->rep, txn_options->rep,
                                             old_txn != nullptr ? old_txn->rep : nullptr),
               old_txn);
}

char* rocksdb_transactiondb_get(rocksdb_transactiondb_t* txn_db,
                                const rocksdb_readoptions_t* options, const char* key, size_t klen,
                                size_t* vlen, char** errptr) {
  std::string value;
  rocksdb::Status s = txn_db->rep->Get(options->rep, rocksdb::Slice(key, klen), &value);
  return ValueOrError(s, value, vlen, errptr);
}

rocksdb_pinnableslice_t* rocksdb_transactiondb_get_pinned(rocksdb_transactiondb_t* txn_db,
                                                          const rocksdb_readoptions_t* options,
                                                          const char* key, size_t klen,
                                                          char** errptr) {
  auto* v = new rocksdb_pinnableslice_t;
  rocksdb::Status s = txn_db->rep->Get(options->rep, txn_db->rep->DefaultColumnFamily(),
                                       rocksdb::Slice(key, klen), &v->rep);
  return PinnedOrError(s, v, errptr);
}

char* rocksdb_transactiondb_get_cf(rocksdb_transactiondb_t* txn_db,
                                   const rocksdb_readoptions_t* options,
                                   rocksdb_column_family_handle_t* column_family, const char* key,
                                   size_t keylen, size_t* vallen, char** errptr) {
  std::string value;
  rocksdb::Status s =
      txn_db->rep->Get(options->rep, column_family->rep, rocksdb::Slice(key, keylen), &value);
  return ValueOrError(s, value, vallen, errptr);
}

rocksdb_pinnableslice_t* rocksdb_transactiondb_get_pinned_cf(
    rocksdb_transactiondb_t* txn_db, const rocksdb_readoptions_t* options,
    rocksdb_column_family_handle_t* column_family, const char* key, size_t keylen, char** errptr) {
  auto* v = new rocksdb_pinnableslice_t;
  rocksdb::Status s =
      txn_db->rep->Get(options->rep, column_family->rep, rocksdb::Slice(key, keylen), &v->rep);
  return PinnedOrError(s, v, errptr);
}

void rocksdb_transactiondb_multi_get(rocksdb_transactiondb_t* txn_db,
                                     const rocksdb_readoptions_t* options, size_t num_keys,
                                     const char* const* keys_list, const size_t* keys_list_sizes,
                                     char** values_list, size_t* values_list_sizes, char** errs) {
  std::vector<std::string> values;
  std::vector<rocksdb::Status> statuses =
      txn_db->rep->MultiGet(options->rep, Keys(num_keys, keys_list, keys_list_sizes), &values);
  strata_capi::FillMultiGet(statuses, values, values_list, values_list_sizes, errs);
}

void rocksdb_transactiondb_multi_get_cf(
    rocksdb_transactiondb_t* txn_db, const rocksdb_readoptions_t* options,
    const rocksdb_column_family_handle_t* const* column_families, size_t num_keys,
    const char* const* keys_list, const size_t* keys_list_sizes, char** values_list,
    size_t* values_list_sizes, char** errs) {
  std::vector<rocksdb::ColumnFamilyHandle*> cfs;
  for (size_t i = 0; i < num_keys; i++) cfs.push_back(column_families[i]->rep);
  std::vector<std::string> values;
  std::vector<rocksdb::Status> statuses =
      txn_db->rep->MultiGet(options->rep, cfs, Keys(num_keys, keys_list, keys_list_sizes), &values);
  strata_capi::FillMultiGet(statuses, values, values_list, values_list_sizes, errs);
}

void rocksdb_transactiondb_put(rocksdb_transactiondb_t* txn_db,
                               const rocksdb_writeoptions_t* options, const char* key, size_t klen,
                               const char* val, size_t vlen, char** errptr) {
  SaveError(errptr,
            txn_db->rep->Put(options->rep, rocksdb::Slice(key, klen), rocksdb::Slice(val, vlen)));
}

void rocksdb_transactiondb_put_cf(rocksdb_transactiondb_t* txn_db,
                                  const rocksdb_writeoptions_t* options,
                                  rocksdb_column_family_handle_t* column_family, const char* key,
                                  size_t keylen, const char* val, size_t vallen, char** errptr) {
  SaveError(errptr, txn_db->rep->Put(options->rep, column_family->rep, rocksdb::Slice(key, keylen),
                                     rocksdb::Slice(val, vallen)));
}

void rocksdb_transactiondb_write(rocksdb_transactiondb_t* txn_db,
                                 const rocksdb_writeoptions_t* options, rocksdb_writebatch_t* batch,
                                 char** errptr) {
  SaveError(errptr, txn_db->rep->Write(options->rep, &batch->rep));
}

void rocksdb_transactiondb_merge(rocksdb_transactiondb_t* txn_db,
                                 const rocksdb_writeoptions_t* options, const char* key,
                                 size_t klen, const char* val, size_t vlen, char** errptr) {
  SaveError(errptr,
            txn_db->rep->Merge(options->rep, rocksdb::Slice(key, klen), rocksdb::Slice(val, vlen)));
}

void rocksdb_transactiondb_merge_cf(rocksdb_transactiondb_t* txn_db,
                                    const rocksdb_writeoptions_t* options,
                                    rocksdb_column_family_handle_t* column_family, const char* key,
                                    size_t klen, const char* val, size_t vlen, char** errptr) {
  SaveError(errptr, txn_db->rep->Merge(options->rep, column_family->rep, rocksdb::Slice(key, klen),
                                       rocksdb::Slice(val, vlen)));
}

void rocksdb_transactiondb_delete(rocksdb_transactiondb_t* txn_db,
                                  const rocksdb_writeoptions_t* options, const char* key,
                                  size_t klen, char** errptr) {
  SaveError(errptr, txn_db->rep->Delete(options->rep, rocksdb::Slice(key, klen)));
}

void rocksdb_transactiondb_delete_cf(rocksdb_transactiondb_t* txn_db,
                                     const rocksdb_writeoptions_t* options,
                                     rocksdb_column_family_handle_t* column_family, const char* key,
                                     size_t keylen, char** errptr) {
  SaveError(errptr,
            txn_db->rep->Delete(options->rep, column_family->rep, rocksdb::Slice(key, keylen)));
}

rocksdb_iterator_t* rocksdb_transactiondb_create_iterator(rocksdb_transactiondb_t* txn_db,
                                                          const rocksdb_readoptions_t* options) {
  return strata_capi::WrapIterator(txn_db->rep->NewIterator(options->rep));
}

rocksdb_iterator_t* rocksdb_transactiondb_create_iterator_cf(
    rocksdb_transactiondb_t* txn_db, const rocksdb_readoptions_t* options,
    rocksdb_column_family_handle_t* column_family) {
  return strata_capi::WrapIterator(txn_db->rep->NewIterator(options->rep, column_family->rep));
}

void rocksdb_transactiondb_flush(rocksdb_transactiondb_t* txn_db,
                                 const rocksdb_flushoptions_t* options, char** errptr) {
  SaveError(errptr, txn_db->rep->Flush(options->rep));
}

void rocksdb_transactiondb_flush_cf(rocksdb_transactiondb_t* txn_db,
                                    const rocksdb_flushoptions_t* options,
                                    rocksdb_column_family_handle_t* column_family, char** errptr) {
  SaveError(errptr, txn_db->rep->Flush(options->rep, column_family->rep));
}

void rocksdb_transactiondb_flush_wal(rocksdb_transactiondb_t* txn_db, unsigned char sync,
                                     char** errptr) {
  SaveError(errptr, txn_db->rep->FlushWAL(sync != 0));
}

rocksdb_checkpoint_t* rocksdb_transactiondb_checkpoint_object_create(
    rocksdb_transactiondb_t* txn_db, char** errptr) {
  return NewCheckpoint(txn_db->rep, errptr);
}

// ---- transactions ----

void rocksdb_transaction_set_name(rocksdb_transaction_t* txn, const char* name, size_t name_len,
                                  char** errptr) {
  SaveError(errptr, txn->rep->SetName(std::string(name, name_len)));
}

char* rocksdb_transaction_get_name(rocksdb_transaction_t* txn, size_t* name_len) {
  std::string name = txn->rep->GetName();
  *name_len = name.size();
  return CopyString(name);
}

void rocksdb_transaction_prepare(rocksdb_transaction_t* txn, char** errptr) {
  SaveError(errptr, txn->rep->Prepare());
}

void rocksdb_transaction_commit(rocksdb_transaction_t* txn, char** errptr) {
  SaveError(errptr, txn->rep->Commit());
}

void rocksdb_transaction_rollback(rocksdb_transaction_t* txn, char** errptr) {
  SaveError(errptr, txn->rep->Rollback());
}

void rocksdb_transaction_set_savepoint(rocksdb_transaction_t* txn) { txn->rep->SetSavePoint(); }

void rocksdb_transaction_rollback_to_savepoint(rocksdb_transaction_t* txn, char** errptr) {
  SaveError(errptr, txn->rep->RollbackToSavePoint());
}

void rocksdb_transaction_destroy(rocksdb_transaction_t* txn) {
  delete txn->rep;
  delete txn;
}

// A malloc'd handle (RocksDB's callers free it with rocksdb_free) that
// borrows the transaction's batch.
rocksdb_writebatch_wi_t* rocksdb_transaction_get_writebatch_wi(rocksdb_transaction_t* txn) {
  void* mem = malloc(sizeof(rocksdb_writebatch_wi_t));
  if (mem == nullptr) return nullptr;
  auto* wi = new (mem) rocksdb_writebatch_wi_t;
  wi->rep = txn->rep->GetWriteBatch();
  return wi;
}

void rocksdb_transaction_rebuild_from_writebatch(rocksdb_transaction_t* txn,
                                                 rocksdb_writebatch_t* writebatch, char** errptr) {
  SaveError(errptr, txn->rep->RebuildFromWriteBatch(&writebatch->rep));
}

void rocksdb_transaction_rebuild_from_writebatch_wi(rocksdb_transaction_t* txn,
                                                    rocksdb_writebatch_wi_t* wi, char** errptr) {
  SaveError(errptr, txn->rep->RebuildFromWriteBatch(wi->rep->GetWriteBatch()));
}

// Transactions with user timestamps are not offered (error stubs): with
// no error channel in RocksDB's C API, these do nothing, as RocksDB's do
// when timestamps are not enabled.
void rocksdb_transaction_set_commit_timestamp(rocksdb_transaction_t* /*txn*/,
                                              uint64_t /*commit_timestamp*/) {}

void rocksdb_transaction_set_read_timestamp_for_validation(rocksdb_transaction_t* /*txn*/,
                                                           uint64_t /*read_timestamp*/) {}

const rocksdb_snapshot_t* rocksdb_transaction_get_snapshot(rocksdb_transaction_t* txn) {
  void* mem = malloc(sizeof(rocksdb_snapshot_t));
  auto* snap = new (mem) rocksdb_snapshot_t;
  snap->rep = txn->rep->GetSnapshot();
  return snap;
}

char* rocksdb_transaction_get(rocksdb_transaction_t* txn, const rocksdb_readoptions_t* options,
                              const char* key, size_t klen, size_t* vlen, char** errptr) {
  std::string value;
  rocksdb::Status s = txn->rep->Get(options->rep, rocksdb::Slice(key, klen), &value);
  return ValueOrError(s, value, vlen, errptr);
}

rocksdb_pinnableslice_t* rocksdb_transaction_get_pinned(rocksdb_transaction_t* txn,
                                                        const rocksdb_readoptions_t* options,
                                                        const char* key, size_t klen,
                                                        char** errptr) {
  auto* v = new rocksdb_pinnableslice_t;
  rocksdb::Status s = txn->rep->Get(options->rep, rocksdb::Slice(key, klen), &v->rep);
  return PinnedOrError(s, v, errptr);
}

char* rocksdb_transaction_get_cf(rocksdb_transaction_t* txn, const rocksdb_readoptions_t* options,
                                 rocksdb_column_family_handle_t* column_family, const char* key,
                                 size_t klen, size_t* vlen, char** errptr) {
  std::string value;
  rocksdb::Status s =
      txn->rep->Get(options->rep, column_family->rep, rocksdb::Slice(key, klen), &value);
  return ValueOrError(s, value, vlen, errptr);
}

rocksdb_pinnableslice_t* rocksdb_transaction_get_pinned_cf(
    rocksdb_transaction_t* txn, const rocksdb_readoptions_t* options,
    rocksdb_column_family_handle_t* column_family, const char* key, size_t klen, char** errptr) {
  auto* v = new rocksdb_pinnableslice_t;
  rocksdb::Status s =
      txn->rep->Get(options->rep, column_family->rep, rocksdb::Slice(key, klen), &v->rep);
  return PinnedOrError(s, v, errptr);
}

char* rocksdb_transaction_get_for_update(rocksdb_transaction_t* txn,
                                         const rocksdb_readoptions_t* options, const char* key,
                                         size_t klen, size_t* vlen, unsigned char exclusive,
                                         char** errptr) {
  std::string value;
  rocksdb::Status s =
      txn->rep->GetForUpdate(options->rep, rocksdb::Slice(key, klen), &value, exclusive != 0);
  return ValueOrError(s, value, vlen, errptr);
}

rocksdb_pinnableslice_t* rocksdb_transaction_get_pinned_for_update(
    rocksdb_transaction_t* txn, const rocksdb_readoptions_t* options, const char* key, size_t klen,
    unsigned char exclusive, char** errptr) {
  auto* v = new rocksdb_pinnableslice_t;
  // The default-family GetForUpdate has no PinnableSlice form: read into
  // the slice's own buffer and pin that.
  rocksdb::Status s = txn->rep->GetForUpdate(options->rep, rocksdb::Slice(key, klen),
                                             v->rep.GetSelf(), exclusive != 0);
  if (s.ok()) v->rep.PinSelf();
  return PinnedOrError(s, v, errptr);
}

char* rocksdb_transaction_get_for_update_cf(rocksdb_transaction_t* txn,
                                            const rocksdb_readoptions_t* options,
                                            rocksdb_column_family_handle_t* column_family,
                                            const char* key, size_t klen, size_t* vlen,
                                            unsigned char exclusive, char** errptr) {
  std::string value;
  rocksdb::Status s = txn->rep->GetForUpdate(options->rep, column_family->rep,
                                             rocksdb::Slice(key, klen), &value, exclusive != 0);
  return ValueOrError(s, value, vlen, errptr);
}

rocksdb_pinnableslice_t* rocksdb_transaction_get_pinned_for_update_cf(
    rocksdb_transaction_t* txn, const rocksdb_readoptions_t* options,
    rocksdb_column_family_handle_t* column_family, const char* key, size_t klen,
    unsigned char exclusive, char** errptr) {
  auto* v = new rocksdb_pinnableslice_t;
  rocksdb::Status s = txn->rep->GetForUpdate(options->rep, column_family->rep,
                                             rocksdb::Slice(key, klen), &v->rep, exclusive != 0);
  return PinnedOrError(s, v, errptr);
}

void rocksdb_transaction_multi_get(rocksdb_transaction_t* txn, const rocksdb_readoptions_t* options,
                                   size_t num_keys, const char* const* keys_list,
                                   const size_t* keys_list_sizes, char** values_list,
                                   size_t* values_list_sizes, char** errs) {
  std::vector<std::string> values;
  std::vector<rocksdb::Status> statuses =
      txn->rep->MultiGet(options->rep, Keys(num_keys, keys_list, keys_list_sizes), &values);
  strata_capi::FillMultiGet(statuses, values, values_list, values_list_sizes, errs);
}

void rocksdb_transaction_multi_get_cf(rocksdb_transaction_t* txn,
                                      const rocksdb_readoptions_t* options,
                                      const rocksdb_column_family_handle_t* const* column_families,
                                      size_t num_keys, const char* const* keys_list,
                                      const size_t* keys_list_sizes, char** values_list,
                                      size_t* values_list_sizes, char** errs) {
  std::vector<rocksdb::ColumnFamilyHandle*> cfs;
  for (size_t i = 0; i < num_keys; i++) cfs.push_back(column_families[i]->rep);
  std::vector<std::string> values;
  std::vector<rocksdb::Status> statuses =
      txn->rep->MultiGet(options->rep, cfs, Keys(num_keys, keys_list, keys_list_sizes), &values);
  strata_capi::FillMultiGet(statuses, values, values_list, values_list_sizes, errs);
}

void rocksdb_transaction_put(rocksdb_transaction_t* txn, const char* key, size_t klen,
                             const char* val, size_t vlen, char** errptr) {
  SaveError(errptr, txn->rep->Put(rocksdb::Slice(key, klen), rocksdb::Slice(val, vlen)));
}

void rocksdb_transaction_put_cf(rocksdb_transaction_t* txn,
                                rocksdb_column_family_handle_t* column_family, const char* key,
                                size_t klen, const char* val, size_t vlen, char** errptr) {
  SaveError(errptr, txn->rep->Put(column_family->rep, rocksdb::Slice(key, klen),
                                  rocksdb::Slice(val, vlen)));
}

void rocksdb_transaction_merge(rocksdb_transaction_t* txn, const char* key, size_t klen,
                               const char* val, size_t vlen, char** errptr) {
  SaveError(errptr, txn->rep->Merge(rocksdb::Slice(key, klen), rocksdb::Slice(val, vlen)));
}

void rocksdb_transaction_merge_cf(rocksdb_transaction_t* txn,
                                  rocksdb_column_family_handle_t* column_family, const char* key,
                                  size_t klen, const char* val, size_t vlen, char** errptr) {
  SaveError(errptr, txn->rep->Merge(column_family->rep, rocksdb::Slice(key, klen),
                                    rocksdb::Slice(val, vlen)));
}

void rocksdb_transaction_delete(rocksdb_transaction_t* txn, const char* key, size_t klen,
                                char** errptr) {
  SaveError(errptr, txn->rep->Delete(rocksdb::Slice(key, klen)));
}

void rocksdb_transaction_delete_cf(rocksdb_transaction_t* txn,
                                   rocksdb_column_family_handle_t* column_family, const char* key,
                                   size_t klen, char** errptr) {
  SaveError(errptr, txn->rep->Delete(column_family->rep, rocksdb::Slice(key, klen)));
}

rocksdb_iterator_t* rocksdb_transaction_create_iterator(rocksdb_transaction_t* txn,
                                                        const rocksdb_readoptions_t* options) {
  return strata_capi::WrapIterator(txn->rep->GetIterator(options->rep));
}

rocksdb_iterator_t* rocksdb_transaction_create_iterator_cf(
    rocksdb_transaction_t* txn, const rocksdb_readoptions_t* options,
    rocksdb_column_family_handle_t* column_family) {
  return strata_capi::WrapIterator(txn->rep->GetIterator(options->rep, column_family->rep));
}

// ---- optimistic transaction databases ----

rocksdb_optimistictransactiondb_t* rocksdb_optimistictransactiondb_open(
    const rocksdb_options_t* options, const char* name, char** errptr) {
  if (!CheckRefused(options, errptr)) return nullptr;
  rocksdb::OptimisticTransactionDB* db = nullptr;
  if (SaveError(errptr, rocksdb::OptimisticTransactionDB::Open(options->rep, name, &db))) {
    return nullptr;
  }
  auto* o = new rocksdb_optimistictransactiondb_t;
  o->rep = db;
  return o;
}

rocksdb_optimistictransactiondb_t* rocksdb_optimistictransactiondb_open_column_families(
    const rocksdb_options_t* db_options, const char* name, int num_column_families,
    const char* const* column_family_names, const rocksdb_options_t* const* column_family_options,
    rocksdb_column_family_handle_t** column_family_handles, char** errptr) {
  if (!strata_capi::CheckRefusedAll(db_options, num_column_families, column_family_options,
                                    errptr)) {
    return nullptr;
  }
  rocksdb::OptimisticTransactionDB* db = nullptr;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  if (SaveError(errptr,
                rocksdb::OptimisticTransactionDB::Open(
                    rocksdb::DBOptions(db_options->rep), name,
                    Descriptors(num_column_families, column_family_names, column_family_options),
                    &handles, &db))) {
    return nullptr;
  }
  for (size_t i = 0; i < handles.size(); i++) {
    column_family_handles[i] = strata_capi::WrapHandle(db, handles[i]);
  }
  auto* o = new rocksdb_optimistictransactiondb_t;
  o->rep = db;
  return o;
}

// The returned handle borrows the base database: release it with
// rocksdb_optimistictransactiondb_close_base_db (which frees only the
// handle), never rocksdb_close.
rocksdb_t* rocksdb_optimistictransactiondb_get_base_db(rocksdb_optimistictransactiondb_t* otxn_db) {
  rocksdb::DB* base = otxn_db->rep->GetBaseDB();
  if (base == nullptr) return nullptr;
  auto* db = new rocksdb_t;
  db->rep = base;
  return db;
}

void rocksdb_optimistictransactiondb_close_base_db(rocksdb_t* base_db) { delete base_db; }

rocksdb_transaction_t* rocksdb_optimistictransaction_begin(
    rocksdb_optimistictransactiondb_t* otxn_db, const rocksdb_writeoptions_t* write_options,
    const rocksdb_optimistictransaction_options_t* otxn_options, rocksdb_transaction_t* old_txn) {
  return Begin(otxn_db->rep->BeginTransaction(write_options->rep, otxn_options->rep,
                                              old_txn != nullptr ? old_txn->rep : nullptr),
               old_txn);
}

void rocksdb_optimistictransactiondb_write(rocksdb_optimistictransactiondb_t* otxn_db,
                                           const rocksdb_writeoptions_t* options,
                                           rocksdb_writebatch_t* batch, char** errptr) {
  SaveError(errptr, otxn_db->rep->Write(options->rep, &batch->rep));
}

void rocksdb_optimistictransactiondb_close(rocksdb_optimistictransactiondb_t* otxn_db) {
  delete otxn_db->rep;
  delete otxn_db;
}

rocksdb_checkpoint_t* rocksdb_optimistictransactiondb_checkpoint_object_create(
    rocksdb_optimistictransactiondb_t* otxn_db, char** errptr) {
  return NewCheckpoint(otxn_db->rep, errptr);
}

char* rocksdb_optimistictransactiondb_property_value(rocksdb_optimistictransactiondb_t* db,
                                                     const char* propname) {
  return StringProperty(db->rep, propname);
}

int rocksdb_optimistictransactiondb_property_int(rocksdb_optimistictransactiondb_t* db,
                                                 const char* propname, uint64_t* out_val) {
  return IntProperty(db->rep, propname, out_val);
}

// ---- transaction options ----

rocksdb_transactiondb_options_t* rocksdb_transactiondb_options_create(void) {
  return new rocksdb_transactiondb_options_t;
}

void rocksdb_transactiondb_options_destroy(rocksdb_transactiondb_options_t* opt) { delete opt; }

void rocksdb_transactiondb_options_set_max_num_locks(rocksdb_transactiondb_options_t* opt,
                                                     int64_t max_num_locks) {
  opt->rep.max_num_locks = max_num_locks;
}

void rocksdb_transactiondb_options_set_num_stripes(rocksdb_transactiondb_options_t* opt,
                                                   size_t num_stripes) {
  opt->rep.num_stripes = num_stripes;
}

void rocksdb_transactiondb_options_set_transaction_lock_timeout(
    rocksdb_transactiondb_options_t* opt, int64_t txn_lock_timeout) {
  opt->rep.transaction_lock_timeout = txn_lock_timeout;
}

void rocksdb_transactiondb_options_set_default_lock_timeout(rocksdb_transactiondb_options_t* opt,
                                                            int64_t default_lock_timeout) {
  opt->rep.default_lock_timeout = default_lock_timeout;
}

rocksdb_transaction_options_t* rocksdb_transaction_options_create(void) {
  return new rocksdb_transaction_options_t;
}

void rocksdb_transaction_options_destroy(rocksdb_transaction_options_t* opt) { delete opt; }

void rocksdb_transaction_options_set_set_snapshot(rocksdb_transaction_options_t* opt,
                                                  unsigned char v) {
  opt->rep.set_snapshot = v;
}

void rocksdb_transaction_options_set_deadlock_detect(rocksdb_transaction_options_t* opt,
                                                     unsigned char v) {
  opt->rep.deadlock_detect = v;
}

void rocksdb_transaction_options_set_lock_timeout(rocksdb_transaction_options_t* opt,
                                                  int64_t lock_timeout) {
  opt->rep.lock_timeout = lock_timeout;
}

void rocksdb_transaction_options_set_expiration(rocksdb_transaction_options_t* opt,
                                                int64_t expiration) {
  opt->rep.expiration = expiration;
}

void rocksdb_transaction_options_set_deadlock_detect_depth(rocksdb_transaction_options_t* opt,
                                                           int64_t depth) {
  opt->rep.deadlock_detect_depth = depth;
}

void rocksdb_transaction_options_set_max_write_batch_size(rocksdb_transaction_options_t* opt,
                                                          size_t size) {
  opt->rep.max_write_batch_size = size;
}

void rocksdb_transaction_options_set_skip_prepare(rocksdb_transaction_options_t* opt,
                                                  unsigned char v) {
  opt->rep.skip_prepare = v;
}

rocksdb_optimistictransaction_options_t* rocksdb_optimistictransaction_options_create(void) {
  return new rocksdb_optimistictransaction_options_t;
}

void rocksdb_optimistictransaction_options_destroy(rocksdb_optimistictransaction_options_t* opt) {
  delete opt;
}

void rocksdb_optimistictransaction_options_set_set_snapshot(
    rocksdb_optimistictransaction_options_t* opt, unsigned char v) {
  opt->rep.set_snapshot = v;
}

}  // extern "C"
