// c_iter.cc: iterators, snapshots, the WAL iterator and pinnable slices
// (rocksdb/c.h).
//
// Keys and values returned by rocksdb_iter_key/value and
// rocksdb_pinnableslice_value are borrowed: they stay valid until the
// iterator moves or the handle is destroyed. The WAL iterator is Strata's
// GetUpdatesSince (WAL records from a sequence number, archived WALs
// included while WAL_ttl_seconds / WAL_size_limit_MB keep them).
#include "compat/capi/c_internal.h"
#include "rocksdb/transaction_log.h"

struct rocksdb_wal_iterator_t {
  std::unique_ptr<rocksdb::TransactionLogIterator> rep;
};

// c.h has no function that makes one; kept for the signature.
struct rocksdb_wal_readoptions_t {
  rocksdb::TransactionLogIterator::ReadOptions rep;
};

using strata_capi::SaveError;

extern "C" {

// ---- iterators ----

rocksdb_iterator_t* rocksdb_create_iterator(rocksdb_t* db, const rocksdb_readoptions_t* options) {
  return strata_capi::WrapIterator(db->rep->NewIterator(options->rep));
}

rocksdb_iterator_t* rocksdb_create_iterator_cf(rocksdb_t* db, const rocksdb_readoptions_t* options,
                                               rocksdb_column_family_handle_t* column_family) {
  return strata_capi::WrapIterator(db->rep->NewIterator(options->rep, column_family->rep));
}

void rocksdb_create_iterators(rocksdb_t* db, rocksdb_readoptions_t* opts,
                              rocksdb_column_family_handle_t** column_families,
                              rocksdb_iterator_t** iterators, size_t size, char** errptr) {
  std::vector<rocksdb::ColumnFamilyHandle*> cfs;
  for (size_t i = 0; i < size; i++) cfs.push_back(column_families[i]->rep);
  std::vector<rocksdb::Iterator*> its;
  if (SaveError(errptr, db->rep->NewIterators(opts->rep, cfs, &its))) return;
  for (size_t i = 0; i < size && i < its.size(); i++) {
    iterators[i] = strata_capi::WrapIterator(its[i]);
  }
}

void rocksdb_iter_destroy(rocksdb_iterator_t* iter) {
  delete iter->rep;
  delete iter;
}

unsigned char rocksdb_iter_valid(const rocksdb_iterator_t* iter) { return iter->rep->Valid(); }

void rocksdb_iter_seek_to_first(rocksdb_iterator_t* iter) { iter->rep->SeekToFirst(); }

void rocksdb_iter_seek_to_last(rocksdb_iterator_t* iter) { iter->rep->SeekToLast(); }

void rocksdb_iter_seek(rocksdb_iterator_t* iter, const char* k, size_t klen) {
  iter->rep->Seek(rocksdb::Slice(k, klen));
}

void rocksdb_iter_seek_for_prev(rocksdb_iterator_t* iter, const char* k, size_t klen) {
  iter->rep->SeekForPrev(rocksdb::Slice(k, klen));
}

void rocksdb_iter_next(rocksdb_iterator_t* iter) { iter->rep->Next(); }

void rocksdb_iter_prev(rocksdb_iterator_t* iter) { iter->rep->Prev(); }

const char* rocksdb_iter_key(const rocksdb_iterator_t* iter, size_t* klen) {
  rocksdb::Slice key = iter->rep->key();
  *klen = key.size();
  return key.data();
}

const char* rocksdb_iter_value(const rocksdb_iterator_t* iter, size_t* vlen) {
  rocksdb::Slice value = iter->rep->value();
  *vlen = value.size();
  return value.data();
}

void rocksdb_iter_get_error(const rocksdb_iterator_t* iter, char** errptr) {
  SaveError(errptr, iter->rep->status());
}

// ---- snapshots ----

const rocksdb_snapshot_t* rocksdb_create_snapshot(rocksdb_t* db) {
  auto* snap = new rocksdb_snapshot_t;
  snap->rep = db->rep->GetSnapshot();
  return snap;
}

void rocksdb_release_snapshot(rocksdb_t* db, const rocksdb_snapshot_t* snapshot) {
  db->rep->ReleaseSnapshot(snapshot->rep);
  delete snapshot;
}

// ---- the WAL iterator ----

rocksdb_wal_iterator_t* rocksdb_get_updates_since(rocksdb_t* db, uint64_t seq_number,
                                                  const rocksdb_wal_readoptions_t* options,
                                                  char** errptr) {
  rocksdb::TransactionLogIterator::ReadOptions ro;
  if (options != nullptr) ro = options->rep;
  std::unique_ptr<rocksdb::TransactionLogIterator> it;
  if (SaveError(errptr, db->rep->GetUpdatesSince(seq_number, &it, ro))) return nullptr;
  auto* result = new rocksdb_wal_iterator_t;
  result->rep = std::move(it);
  return result;
}

void rocksdb_wal_iter_next(rocksdb_wal_iterator_t* iter) { iter->rep->Next(); }

unsigned char rocksdb_wal_iter_valid(const rocksdb_wal_iterator_t* iter) {
  return iter->rep->Valid() ? 1 : 0;
}

void rocksdb_wal_iter_status(const rocksdb_wal_iterator_t* iter, char** errptr) {
  SaveError(errptr, iter->rep->status());
}

// A new batch (the caller destroys it) holding the current WAL record.
rocksdb_writebatch_t* rocksdb_wal_iter_get_batch(const rocksdb_wal_iterator_t* iter,
                                                 uint64_t* seq) {
  rocksdb::BatchResult r = iter->rep->GetBatch();
  auto* batch = new rocksdb_writebatch_t;
  if (r.writeBatchPtr != nullptr) batch->rep = std::move(*r.writeBatchPtr);
  if (seq != nullptr) *seq = r.sequence;
  return batch;
}

void rocksdb_wal_iter_destroy(const rocksdb_wal_iterator_t* iter) { delete iter; }

// ---- pinnable slices ----

static rocksdb_pinnableslice_t* Pinned(const rocksdb::Status& s, rocksdb_pinnableslice_t* v,
                                       char** errptr) {
  if (s.ok()) return v;
  delete v;
  if (!s.IsNotFound()) SaveError(errptr, s);
  return nullptr;
}

rocksdb_pinnableslice_t* rocksdb_get_pinned(rocksdb_t* db, const rocksdb_readoptions_t* options,
                                            const char* key, size_t keylen, char** errptr) {
  auto* v = new rocksdb_pinnableslice_t;
  rocksdb::Status s = db->rep->Get(options->rep, db->rep->DefaultColumnFamily(),
                                   rocksdb::Slice(key, keylen), &v->rep);
  return Pinned(s, v, errptr);
}

rocksdb_pinnableslice_t* rocksdb_get_pinned_cf(rocksdb_t* db, const rocksdb_readoptions_t* options,
                                               rocksdb_column_family_handle_t* column_family,
                                               const char* key, size_t keylen, char** errptr) {
  auto* v = new rocksdb_pinnableslice_t;
  rocksdb::Status s =
      db->rep->Get(options->rep, column_family->rep, rocksdb::Slice(key, keylen), &v->rep);
  return Pinned(s, v, errptr);
}

void rocksdb_pinnableslice_destroy(rocksdb_pinnableslice_t* v) { delete v; }

const char* rocksdb_pinnableslice_value(const rocksdb_pinnableslice_t* v, size_t* vlen) {
  if (v == nullptr) {
    *vlen = 0;
    return nullptr;
  }
  *vlen = v->rep.size();
  return v->rep.data();
}

}  // extern "C"
