// c_ingest.cc: SST file writing (rocksdb_sstfilewriter_*) over
// rocksdb::SstFileWriter, and ingestion of external files
// (rocksdb_ingest_external_file*) (rocksdb/c.h).
#include "compat/capi/c_ingest.h"

struct rocksdb_ingestexternalfileoptions_t {
  rocksdb::IngestExternalFileOptions rep;
};

using strata_capi::SaveError;

extern "C" {

rocksdb_sstfilewriter_t* rocksdb_sstfilewriter_create(const rocksdb_envoptions_t* env,
                                                      const rocksdb_options_t* io_options) {
  auto* w = new rocksdb_sstfilewriter_t;
  w->rep = std::make_unique<rocksdb::SstFileWriter>(env->rep, io_options->rep);
  return w;
}

rocksdb_sstfilewriter_t* rocksdb_sstfilewriter_create_with_comparator(
    const rocksdb_envoptions_t* env, const rocksdb_options_t* io_options,
    const rocksdb_comparator_t* comparator) {
  // The writer's comparator is the one in io_options, as in RocksDB's C API
  // (the argument is kept for source compatibility).
  return rocksdb_sstfilewriter_create(env, io_options);
}

void rocksdb_sstfilewriter_open(rocksdb_sstfilewriter_t* writer, const char* name, char** errptr) {
  SaveError(errptr, writer->rep->Open(std::string(name)));
}

void rocksdb_sstfilewriter_add(rocksdb_sstfilewriter_t* writer, const char* key, size_t keylen,
                               const char* val, size_t vallen, char** errptr) {
  SaveError(errptr, writer->rep->Put(rocksdb::Slice(key, keylen), rocksdb::Slice(val, vallen)));
}

void rocksdb_sstfilewriter_put(rocksdb_sstfilewriter_t* writer, const char* key, size_t keylen,
                               const char* val, size_t vallen, char** errptr) {
  SaveError(errptr, writer->rep->Put(rocksdb::Slice(key, keylen), rocksdb::Slice(val, vallen)));
}

void rocksdb_sstfilewriter_merge(rocksdb_sstfilewriter_t* writer, const char* key, size_t keylen,
                                 const char* val, size_t vallen, char** errptr) {
  SaveError(errptr, writer->rep->Merge(rocksdb::Slice(key, keylen), rocksdb::Slice(val, vallen)));
}

void rocksdb_sstfilewriter_delete(rocksdb_sstfilewriter_t* writer, const char* key, size_t keylen,
                                  char** errptr) {
  SaveError(errptr, writer->rep->Delete(rocksdb::Slice(key, keylen)));
}

void rocksdb_sstfilewriter_delete_range(rocksdb_sstfilewriter_t* writer, const char* begin_key,
                                        size_t begin_keylen, const char* end_key, size_t end_keylen,
                                        char** errptr) {
  SaveError(errptr, writer->rep->DeleteRange(rocksdb::Slice(begin_key, begin_keylen),
                                             rocksdb::Slice(end_key, end_keylen)));
}

void rocksdb_sstfilewriter_finish(rocksdb_sstfilewriter_t* writer, char** errptr) {
  SaveError(errptr, writer->rep->Finish(nullptr));
}

void rocksdb_sstfilewriter_file_size(rocksdb_sstfilewriter_t* writer, uint64_t* file_size) {
  *file_size = writer->rep->FileSize();
}

void rocksdb_sstfilewriter_destroy(rocksdb_sstfilewriter_t* writer) { delete writer; }

rocksdb_ingestexternalfileoptions_t* rocksdb_ingestexternalfileoptions_create(void) {
  return new rocksdb_ingestexternalfileoptions_t;
}

void rocksdb_ingestexternalfileoptions_set_move_files(rocksdb_ingestexternalfileoptions_t* opt,
                                                      unsigned char move_files) {
  opt->rep.move_files = move_files;
}

void rocksdb_ingestexternalfileoptions_set_snapshot_consistency(
    rocksdb_ingestexternalfileoptions_t* opt, unsigned char snapshot_consistency) {
  opt->rep.snapshot_consistency = snapshot_consistency;
}

void rocksdb_ingestexternalfileoptions_set_allow_global_seqno(
    rocksdb_ingestexternalfileoptions_t* opt, unsigned char allow_global_seqno) {
  opt->rep.allow_global_seqno = allow_global_seqno;
}

void rocksdb_ingestexternalfileoptions_set_allow_blocking_flush(
    rocksdb_ingestexternalfileoptions_t* opt, unsigned char allow_blocking_flush) {
  opt->rep.allow_blocking_flush = allow_blocking_flush;
}

void rocksdb_ingestexternalfileoptions_set_ingest_behind(rocksdb_ingestexternalfileoptions_t* opt,
                                                         unsigned char ingest_behind) {
  opt->rep.ingest_behind = ingest_behind;
}

void rocksdb_ingestexternalfileoptions_destroy(rocksdb_ingestexternalfileoptions_t* opt) {
  delete opt;
}

static std::vector<std::string> Files(const char* const* file_list, size_t list_len) {
  return std::vector<std::string>(file_list, file_list + list_len);
}

void rocksdb_ingest_external_file(rocksdb_t* db, const char* const* file_list,
                                  const size_t list_len,
                                  const rocksdb_ingestexternalfileoptions_t* opt, char** errptr) {
  SaveError(errptr, db->rep->IngestExternalFile(Files(file_list, list_len), opt->rep));
}

void rocksdb_ingest_external_file_cf(rocksdb_t* db, rocksdb_column_family_handle_t* handle,
                                     const char* const* file_list, const size_t list_len,
                                     const rocksdb_ingestexternalfileoptions_t* opt,
                                     char** errptr) {
  SaveError(errptr, db->rep->IngestExternalFile(handle->rep, Files(file_list, list_len), opt->rep));
}

}  // extern "C"
