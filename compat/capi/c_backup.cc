// c_backup.cc: backups (rocksdb_backup_engine_*, rocksdb_restore_options_*)
// over rocksdb::BackupEngine (rocksdb/c.h).
#include "compat/capi/c_internal.h"
#include "rocksdb/utilities/backup_engine.h"

using strata_capi::SaveError;

struct rocksdb_backup_engine_t {
  rocksdb::BackupEngine* rep = nullptr;
};

struct rocksdb_backup_engine_info_t {
  std::vector<rocksdb::BackupInfo> rep;
};

struct rocksdb_backup_engine_options_t {
  rocksdb::BackupEngineOptions rep{""};
};

struct rocksdb_restore_options_t {
  rocksdb::RestoreOptions rep;
};

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

void rocksdb_backup_engine_options_destroy(rocksdb_backup_engine_options_t* options) {
  delete options;
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

}  // extern "C"
