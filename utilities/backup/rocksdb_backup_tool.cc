// rocksdb_backup_tool: a test helper linked against the system RocksDB
// (librocksdb 7.8.3) and nothing of Strata, so backup_interop_test can have
// RocksDB's own BackupEngine make and read backups with options ldb cannot
// set. Keys and values on stdout are printed as "<key> <value>" lines.
//
//   backup DB BACKUP_DIR [--num=N] [--seed=S] [--schema_version=1|2]
//          [--share_table_files=0|1] [--with_checksum=0|1]
//          [--naming=session|legacy|session_nosize] [--metadata=TEXT]
//       Opens (creating) DB, writes N keys (key<seed>_<i> -> value), flushes
//       half of them, and adds a backup with those engine options.
//   info BACKUP_DIR
//       One line per valid backup: "<id> <size> <number_files> <metadata>".
//   verify BACKUP_DIR ID
//       VerifyBackup(ID, true); exit 1 with the status on failure.
//   restore BACKUP_DIR ID DB
//       RestoreDBFromBackup(ID, DB, DB).
//   scan DB
//       Every key and value of DB.
#include <rocksdb/db.h>
#include <rocksdb/utilities/backup_engine.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

namespace {

int Fail(const rocksdb::Status& s, const char* what) {
  std::fprintf(stderr, "%s: %s\n", what, s.ToString().c_str());
  return 1;
}

const char* Flag(int argc, char** argv, const char* name, const char* def) {
  const size_t n = std::strlen(name);
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], name, n) == 0 && argv[i][n] == '=') return argv[i] + n + 1;
  }
  return def;
}

int Backup(int argc, char** argv) {
  const std::string db_path = argv[2];
  const std::string backup_dir = argv[3];
  const int num = std::atoi(Flag(argc, argv, "--num", "1000"));
  const std::string seed = Flag(argc, argv, "--seed", "0");
  rocksdb::Options options;
  options.create_if_missing = true;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, db_path, &raw);
  if (!s.ok()) return Fail(s, "open");
  std::unique_ptr<rocksdb::DB> db(raw);
  for (int i = 0; i < num; ++i) {
    s = db->Put(rocksdb::WriteOptions(), "key" + seed + "_" + std::to_string(i),
                "value" + std::to_string(i * 7) + std::string(i % 50, 'x'));
    if (!s.ok()) return Fail(s, "put");
    if (i == num / 2) {
      s = db->Flush(rocksdb::FlushOptions());
      if (!s.ok()) return Fail(s, "flush");
    }
  }
  rocksdb::BackupEngineOptions o(backup_dir);
  o.schema_version = std::atoi(Flag(argc, argv, "--schema_version", "1"));
  o.share_table_files = std::strcmp(Flag(argc, argv, "--share_table_files", "1"), "1") == 0;
  o.share_files_with_checksum = std::strcmp(Flag(argc, argv, "--with_checksum", "1"), "1") == 0;
  const std::string naming = Flag(argc, argv, "--naming", "session");
  if (naming == "legacy") {
    o.share_files_with_checksum_naming = rocksdb::BackupEngineOptions::kLegacyCrc32cAndFileSize;
  } else if (naming == "session_nosize") {
    o.share_files_with_checksum_naming = rocksdb::BackupEngineOptions::kUseDbSessionId;
  }
  rocksdb::BackupEngine* engine_raw = nullptr;
  rocksdb::IOStatus io = rocksdb::BackupEngine::Open(o, rocksdb::Env::Default(), &engine_raw);
  if (!io.ok()) return Fail(io, "open backup engine");
  std::unique_ptr<rocksdb::BackupEngine> engine(engine_raw);
  io = engine->CreateNewBackupWithMetadata(db.get(), Flag(argc, argv, "--metadata", ""));
  if (!io.ok()) return Fail(io, "backup");
  return 0;
}

int Info(char** argv) {
  rocksdb::BackupEngineReadOnly* raw = nullptr;
  rocksdb::IOStatus io = rocksdb::BackupEngineReadOnly::Open(rocksdb::BackupEngineOptions(argv[2]),
                                                             rocksdb::Env::Default(), &raw);
  if (!io.ok()) return Fail(io, "open");
  std::unique_ptr<rocksdb::BackupEngineReadOnly> engine(raw);
  std::vector<rocksdb::BackupInfo> infos;
  engine->GetBackupInfo(&infos);
  for (const auto& i : infos) {
    std::printf("%u %llu %u %s\n", i.backup_id, static_cast<unsigned long long>(i.size),
                i.number_files, i.app_metadata.c_str());
  }
  std::vector<rocksdb::BackupID> corrupt;
  engine->GetCorruptedBackups(&corrupt);
  for (auto id : corrupt) std::printf("corrupt %u\n", id);
  return 0;
}

int VerifyOrRestore(char** argv, bool restore) {
  rocksdb::BackupEngineReadOnly* raw = nullptr;
  rocksdb::IOStatus io = rocksdb::BackupEngineReadOnly::Open(rocksdb::BackupEngineOptions(argv[2]),
                                                             rocksdb::Env::Default(), &raw);
  if (!io.ok()) return Fail(io, "open");
  std::unique_ptr<rocksdb::BackupEngineReadOnly> engine(raw);
  const rocksdb::BackupID id = static_cast<rocksdb::BackupID>(std::atoi(argv[3]));
  io = restore ? engine->RestoreDBFromBackup(id, argv[4], argv[4]) : engine->VerifyBackup(id, true);
  if (!io.ok()) return Fail(io, restore ? "restore" : "verify");
  return 0;
}

int Scan(char** argv) {
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::OpenForReadOnly(rocksdb::Options(), argv[2], &raw);
  if (!s.ok()) return Fail(s, "open");
  std::unique_ptr<rocksdb::DB> db(raw);
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(rocksdb::ReadOptions()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    std::printf("%s %s\n", it->key().ToString().c_str(), it->value().ToString().c_str());
  }
  return it->status().ok() ? 0 : Fail(it->status(), "scan");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: see the file comment\n");
    return 2;
  }
  const std::string cmd = argv[1];
  if (cmd == "backup" && argc >= 4) return Backup(argc, argv);
  if (cmd == "info") return Info(argv);
  if (cmd == "verify" && argc >= 4) return VerifyOrRestore(argv, false);
  if (cmd == "restore" && argc >= 5) return VerifyOrRestore(argv, true);
  if (cmd == "scan") return Scan(argv);
  std::fprintf(stderr, "bad command\n");
  return 2;
}
