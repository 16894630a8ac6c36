// The backup commands of `strata`, as RocksDB 7.8.3's ldb runs them:
//   backup  --db=<dir> --backup_dir=<dir> [--num_threads=N] [--stderr_log_level=N]
//   restore --db=<dir> --backup_dir=<dir> [--num_threads=N] [--stderr_log_level=N]
// backup opens the DB and adds a backup (BackupEngine::CreateNewBackup);
// restore restores the newest valid backup into --db (the WAL files too),
// with ldb's progress lines on stdout. ldb's --backup_env_uri and
// --backup_fs_uri (a custom Env from the object registry) are refused:
// Strata has no such registry.

#include <cstdarg>
#include <cstdio>
#include <memory>
#include <string>

#include "strata/utilities/backup_engine.h"
#include "tools/ldb/ldb_commands.h"

namespace strata::ldb {
namespace {

constexpr const char* kArgBackupEnvUri = "backup_env_uri";
constexpr const char* kArgBackupFsUri = "backup_fs_uri";
constexpr const char* kArgBackupDir = "backup_dir";
constexpr const char* kArgNumThreads = "num_threads";
constexpr const char* kArgStderrLogLevel = "stderr_log_level";

// Log lines at or above a level go to stderr (ldb's StderrLogger).
class BackupStderrLogger : public Logger {
 public:
  explicit BackupStderrLogger(InfoLogLevel level) : Logger(level) {}
  void Logv(InfoLogLevel level, const char* format, va_list ap) override {
    if (level < GetInfoLogLevel()) return;
    std::vfprintf(stderr, format, ap);
    std::fputc('\n', stderr);
  }
};

// What backup and restore share: their options and the engine's options.
class BackupEngineCommand : public LdbCommand {
 public:
  explicit BackupEngineCommand(const LdbArgs& args, bool read_only)
      : LdbCommand(args, read_only,
                   {kArgBackupEnvUri, kArgBackupFsUri, kArgBackupDir, kArgNumThreads,
                    kArgStderrLogLevel}) {
    if (!IntOption(kArgNumThreads, &num_threads_)) return;
    const bool env_uri = FindOption(args, kArgBackupEnvUri) != nullptr;
    const bool fs_uri = FindOption(args, kArgBackupFsUri) != nullptr;
    if (env_uri && fs_uri) {
      state_.Fail(std::string("you may not specity both --") + kArgBackupEnvUri + " and --" +
                  kArgBackupFsUri);
      return;
    }
    if (env_uri || fs_uri) {
      state_.Fail(std::string("--") + (env_uri ? kArgBackupEnvUri : kArgBackupFsUri) +
                  " is not supported by strata (it has no object registry of Envs)");
      return;
    }
    if (const std::string* dir = FindOption(args, kArgBackupDir)) {
      backup_dir_ = *dir;
    } else {
      state_.Fail(std::string("--") + kArgBackupDir + ": missing backup directory");
      return;
    }
    int level = 0;
    bool given = false;
    if (!IntOption(kArgStderrLogLevel, &level, &given)) return;
    if (given) {
      constexpr int kNumLevels = static_cast<int>(InfoLogLevel::kHeader) + 1;
      if (level < 0 || level >= kNumLevels) {
        state_.Fail(std::string(kArgStderrLogLevel) + " must be >= 0 and < " +
                    std::to_string(kNumLevels) + ".");
        return;
      }
      logger_ = std::make_unique<BackupStderrLogger>(static_cast<InfoLogLevel>(level));
    }
  }

  static void Help(const char* name, std::string* r) {
    r->append("  ");
    r->append(name);
    r->append(std::string(" [--") + kArgBackupEnvUri + " | --" + kArgBackupFsUri + "] ");
    r->append(std::string(" [--") + kArgBackupDir + "] ");
    r->append(std::string(" [--") + kArgNumThreads + "] ");
    r->append(std::string(" [--") + kArgStderrLogLevel + "=<int (InfoLogLevel)>] ");
    r->append("\n");
  }

 protected:
  BackupEngineOptions EngineOptions() const {
    BackupEngineOptions o(backup_dir_);
    o.info_log = logger_.get();
    o.max_background_operations = num_threads_;
    return o;
  }

  std::string backup_dir_;
  int num_threads_ = 1;
  std::unique_ptr<Logger> logger_;
};

class BackupCommand : public BackupEngineCommand {
 public:
  explicit BackupCommand(const LdbArgs& args) : BackupEngineCommand(args, false) {}
  static void Help(std::string* r) { BackupEngineCommand::Help("backup", r); }

 private:
  void DoCommand() override {
    if (db_ == nullptr) {
      if (!state_.failed()) state_.Fail("could not open the database");
      return;
    }
    std::printf("open db OK\n");
    std::unique_ptr<BackupEngine> engine;
    Status s = BackupEngine::Open(EngineOptions(), Env::Default(), &engine);
    if (!s.ok()) {
      state_.Fail(s.ToString());
      return;
    }
    std::printf("open backup engine OK\n");
    s = engine->CreateNewBackup(db_);
    if (!s.ok()) {
      state_.Fail(s.ToString());
      return;
    }
    std::printf("create new backup OK\n");
  }
};

class RestoreCommand : public BackupEngineCommand {
 public:
  explicit RestoreCommand(const LdbArgs& args) : BackupEngineCommand(args, false) {}
  static void Help(std::string* r) { BackupEngineCommand::Help("restore", r); }

 private:
  bool NoDbOpen() const override { return true; }
  void DoCommand() override {
    std::unique_ptr<BackupEngineReadOnly> engine;
    Status s = BackupEngineReadOnly::Open(EngineOptions(), Env::Default(), &engine);
    if (s.ok()) {
      std::printf("open restore engine OK\n");
      s = engine->RestoreDBFromLatestBackup(db_path_, db_path_);
    }
    if (s.ok()) {
      std::printf("restore from backup OK\n");
    } else {
      state_.Fail(s.ToString());
    }
  }
};

}  // namespace

void AddBackupCommands(std::vector<CommandInfo>* t) {
  t->push_back({"backup", MakeCommand<BackupCommand>, BackupCommand::Help, HelpSection::kAdmin});
  t->push_back({"restore", MakeCommand<RestoreCommand>, RestoreCommand::Help, HelpSection::kAdmin});
}

}  // namespace strata::ldb
