// c_utilities.cc: checkpoints, backups, SST file writing and external file
// ingestion (rocksdb/c.h), over rocksdb::Checkpoint, rocksdb::BackupEngine,
// rocksdb::SstFileWriter and DB::IngestExternalFile.
#include "compat/capi/c_internal.h"

using strata_capi::SaveError;

#define STRATA_BACKUP_OPT(cname, c_t, field)                                                \
  void rocksdb_backup_engine_options_set_##cname(rocksdb_backup_engine_options_t* options,  \
                                                 c_t v) {                                   \
    options->rep.field = static_cast<decltype(options->rep.field)>(v);                      \
  }                                                                                         \
  c_t rocksdb_backup_engine_options_get_##cname(rocksdb_backup_engine_options_t* options) { \
    return static_cast<c_t>(options->rep.field);                                            \
  }

using UChar = unsigned char;

extern "C" {

// ---- checkpoints ----

rocksdb_checkpoint_t* rocksdb_checkpoint_object_create(rocksdb_t* db, char** errptr) {
  rocksdb::Checkpoint* checkpoint = nullptr;
  if (SaveError(errptr, rocksdb::Checkpoint::Create(db->rep, &checkpoint))) {
    return nullptr;
  }
  auto* c = new rocksdb_checkpoint_t;
  c->rep = checkpoint;
  return c;
}

void rocksdb_checkpoint_create(rocksdb_checkpoint_t* checkpoint, const char* checkpoint_dir,
                               uint64_t log_size_for_flush, char** errptr) {
  SaveError(errptr,
            checkpoint->rep->CreateCheckpoint(std::string(checkpoint_dir), log_size_for_flush));
}

void rocksdb_checkpoint_object_destroy(rocksdb_checkpoint_t* checkpoint) {
  delete checkpoint->rep;
  delete checkpoint;
}

// ---- backup engine ----

static rocksdb_backup_engine_t* OpenBackupEngine(const rocksdb::BackupEngineOptions& options,
                                                 rocksdb::Env* env, char** errptr) {
  rocksdb::BackupEngine* be = nullptr;
  if (SaveError(errptr, rocksdb::BackupEngine::Open(options, env, &be))) {
    return nullptr;
  }
  auto* b = new rocksdb_backup_engine_t;
  b->rep = be;
  return b;
}

rocksdb_backup_engine_t* rocksdb_backup_engine_open(const rocksdb_options_t* options,
                                                    const char* path, char** errptr) {
  rocksdb::BackupEngineOptions be_options(path, nullptr, true, options->rep.info_log.get());
  return OpenBackupEngine(be_options, options->rep.env, errptr);
}

rocksdb_backup_engine_t* rocksdb_backup_engine_open_opts(
    const rocksdb_backup_engine_options_t* options, rocksdb_env_t* env, char** errptr) {
  return OpenBackupEngine(options->rep, env != nullptr ? env->rep : rocksdb::Env::Default(),
                          errptr);
}

void rocksdb_backup_engine_create_new_backup(rocksdb_backup_engine_t* be, rocksdb_t* db,
                                             char** errptr) {
  SaveError(errptr, be->rep->CreateNewBackup(db->rep));
}

void rocksdb_backup_engine_create_new_backup_flush(rocksdb_backup_engine_t* be, rocksdb_t* db,
                                                   unsigned char flush_before_backup,
                                                   char** errptr) {
  SaveError(errptr, be->rep->CreateNewBackup(db->rep, flush_before_backup));
}

void rocksdb_backup_engine_purge_old_backups(rocksdb_backup_engine_t* be,
                                             uint32_t num_backups_to_keep, char** errptr) {
  SaveError(errptr, be->rep->PurgeOldBackups(num_backups_to_keep));
}

void rocksdb_backup_engine_verify_backup(rocksdb_backup_engine_t* be, uint32_t backup_id,
                                         char** errptr) {
  SaveError(errptr, be->rep->VerifyBackup(backup_id));
}

void rocksdb_backup_engine_restore_db_from_latest_backup(
    rocksdb_backup_engine_t* be, const char* db_dir, const char* wal_dir,
    const rocksdb_restore_options_t* restore_options, char** errptr) {
  SaveError(errptr, be->rep->RestoreDBFromLatestBackup(std::string(db_dir), std::string(wal_dir),
                                                       restore_options->rep));
}

void rocksdb_backup_engine_restore_db_from_backup(rocksdb_backup_engine_t* be, const char* db_dir,
                                                  const char* wal_dir,
                                                  const rocksdb_restore_options_t* restore_options,
                                                  const uint32_t backup_id, char** errptr) {
  SaveError(errptr, be->rep->RestoreDBFromBackup(restore_options->rep, backup_id,
                                                 std::string(db_dir), std::string(wal_dir)));
}

const rocksdb_backup_engine_info_t* rocksdb_backup_engine_get_backup_info(
    rocksdb_backup_engine_t* be) {
  auto* info = new rocksdb_backup_engine_info_t;
  be->rep->GetBackupInfo(&info->rep);
  return info;
}

int rocksdb_backup_engine_info_count(const rocksdb_backup_engine_info_t* info) {
  return static_cast<int>(info->rep.size());
}

int64_t rocksdb_backup_engine_info_timestamp(const rocksdb_backup_engine_info_t* info, int index) {
  return info->rep[index].timestamp;
}

uint32_t rocksdb_backup_engine_info_backup_id(const rocksdb_backup_engine_info_t* info, int index) {
  return info->rep[index].backup_id;
}

uint64_t rocksdb_backup_engine_info_size(const rocksdb_backup_engine_info_t* info, int index) {
  return info->rep[index].size;
}

uint32_t rocksdb_backup_engine_info_number_files(const rocksdb_backup_engine_info_t* info,
                                                 int index) {
  return info->rep[index].number_files;
}

void rocksdb_backup_engine_info_destroy(const rocksdb_backup_engine_info_t* info) { delete info; }

void rocksdb_backup_engine_close(rocksdb_backup_engine_t* be) {
  delete be->rep;
  delete be;
}

rocksdb_restore_options_t* rocksdb_restore_options_create(void) {
  return new rocksdb_restore_options_t;
}

void rocksdb_restore_options_destroy(rocksdb_restore_options_t* opt) { delete opt; }

void rocksdb_restore_options_set_keep_log_files(rocksdb_restore_options_t* opt, int v) {
  opt->rep.keep_log_files = v != 0;
}

// ---- backup engine options ----

rocksdb_backup_engine_options_t* rocksdb_backup_engine_options_create(const char* backup_dir) {
  auto* o = new rocksdb_backup_engine_options_t;
  o->rep.backup_dir = backup_dir;
  return o;
}

void rocksdb_backup_engine_options_set_backup_dir(rocksdb_backup_engine_options_t* options,
                                                  const char* backup_dir) {
  options->rep.backup_dir = backup_dir;
}

void rocksdb_backup_engine_options_set_env(rocksdb_backup_engine_options_t* options,
                                           rocksdb_env_t* env) {
  options->rep.backup_env = env != nullptr ? env->rep : nullptr;
}

STRATA_BACKUP_OPT(share_table_files, UChar, share_table_files)
STRATA_BACKUP_OPT(sync, UChar, sync)
STRATA_BACKUP_OPT(destroy_old_data, UChar, destroy_old_data)
STRATA_BACKUP_OPT(backup_log_files, UChar, backup_log_files)
STRATA_BACKUP_OPT(backup_rate_limit, uint64_t, backup_rate_limit)
STRATA_BACKUP_OPT(restore_rate_limit, uint64_t, restore_rate_limit)
STRATA_BACKUP_OPT(max_background_operations, int, max_background_operations)
STRATA_BACKUP_OPT(callback_trigger_interval_size, uint64_t, callback_trigger_interval_size)
STRATA_BACKUP_OPT(max_valid_backups_to_open, int, max_valid_backups_to_open)
STRATA_BACKUP_OPT(share_files_with_checksum_naming, int, share_files_with_checksum_naming)

void rocksdb_backup_engine_options_destroy(rocksdb_backup_engine_options_t* options) {
  delete options;
}

// ---- SST file writer ----

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

void rocksdb_sstfilewriter_put_with_ts(rocksdb_sstfilewriter_t* writer, const char* key,
                                       size_t keylen, const char* ts, size_t tslen, const char* val,
                                       size_t vallen, char** errptr) {
  SaveError(errptr, writer->rep->Put(rocksdb::Slice(key, keylen), rocksdb::Slice(ts, tslen),
                                     rocksdb::Slice(val, vallen)));
}

void rocksdb_sstfilewriter_merge(rocksdb_sstfilewriter_t* writer, const char* key, size_t keylen,
                                 const char* val, size_t vallen, char** errptr) {
  SaveError(errptr, writer->rep->Merge(rocksdb::Slice(key, keylen), rocksdb::Slice(val, vallen)));
}

void rocksdb_sstfilewriter_delete(rocksdb_sstfilewriter_t* writer, const char* key, size_t keylen,
                                  char** errptr) {
  SaveError(errptr, writer->rep->Delete(rocksdb::Slice(key, keylen)));
}

void rocksdb_sstfilewriter_delete_with_ts(rocksdb_sstfilewriter_t* writer, const char* key,
                                          size_t keylen, const char* ts, size_t tslen,
                                          char** errptr) {
  SaveError(errptr, writer->rep->Delete(rocksdb::Slice(key, keylen), rocksdb::Slice(ts, tslen)));
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

// ---- ingestion ----

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
