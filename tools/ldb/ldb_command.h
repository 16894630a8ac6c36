// LdbCommand: one `strata` command run the way RocksDB 7.8.3's ldb runs it.
//
// A command is built from the parsed command line (ldb_args.h), checks that
// it was given only the options and flags it takes (ValidateCmdLineOptions,
// ldb's "Invalid command-line option X"), then Run() opens the database
// (unless the command works on files: NoDbOpen), calls DoCommand and closes.
// The outcome is an ExecState: not started, succeeded or failed with a
// message; the tool prints "Failed: <message>" on stderr and exits 1 for a
// failure, 0 otherwise, as ldb does.
//
// Opening: every command opens through OpenDb(), which goes to one function
// (ldb_open.h). Commands built with read_only=true never write to the
// directory (no LOG, OPTIONS, MANIFEST, WAL, table or LOCK change).
// Column families: as in ldb, a DB with more than one family is opened with
// all of them and --column_family picks the one the command works on.
// Thread-safety: not thread-safe; one command per process.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "strata/db.h"
#include "strata/options.h"
#include "tools/ldb/ldb_args.h"
#include "tools/ldb/ldb_open.h"

namespace strata::ldb {

// The option names (ldb's ARG_* strings).
inline constexpr const char* kArgDb = "db";
inline constexpr const char* kArgHex = "hex";
inline constexpr const char* kArgKeyHex = "key_hex";
inline constexpr const char* kArgValueHex = "value_hex";
inline constexpr const char* kArgCfName = "column_family";
// Strata's: where the WALs are (DBOptions::wal_dir); ldb reads it from the OPTIONS file.
inline constexpr const char* kArgWalDir = "wal_dir";
inline constexpr const char* kArgTtl = "ttl";
inline constexpr const char* kArgTtlStart = "start_time";
inline constexpr const char* kArgTtlEnd = "end_time";
inline constexpr const char* kArgTimestamp = "timestamp";
inline constexpr const char* kArgTryLoadOptions = "try_load_options";
inline constexpr const char* kArgIgnoreUnknownOptions = "ignore_unknown_options";
inline constexpr const char* kArgFrom = "from";
inline constexpr const char* kArgTo = "to";
inline constexpr const char* kArgMaxKeys = "max_keys";
inline constexpr const char* kArgCreateIfMissing = "create_if_missing";
inline constexpr const char* kArgNoValue = "no_value";
inline constexpr const char* kArgPath = "path";
inline constexpr const char* kArgMergeOperator = "merge_operator";

class ExecState {
 public:
  bool not_started() const { return state_ == kNotStarted; }
  bool failed() const { return state_ == kFailed; }
  const std::string& message() const { return message_; }
  void Succeed(const std::string& message = "") {
    state_ = kSucceeded;
    message_ = message;
  }
  void Fail(const std::string& message) {
    state_ = kFailed;
    message_ = message;
  }
  // What ldb prints on stderr at the end ("" for a silent success).
  std::string ToString() const;

 private:
  enum State { kNotStarted, kSucceeded, kFailed };
  State state_ = kNotStarted;
  std::string message_;
};

class LdbCommand {
 public:
  // valid: the options and flags this command takes besides the common ones
  // (CommonOptions()); with common=false only `valid` (ldb's
  // create_column_family and drop_column_family take only --db).
  LdbCommand(const LdbArgs& args, bool read_only, std::vector<std::string> valid,
             bool common = true);
  virtual ~LdbCommand();
  LdbCommand(const LdbCommand&) = delete;
  LdbCommand& operator=(const LdbCommand&) = delete;

  // The options every ldb command takes.
  static const std::vector<std::string>& CommonOptions();

  // Prints ldb's message on stderr and returns false for an option or flag
  // the command does not take, or a missing --db.
  bool ValidateCmdLineOptions();
  void Run();
  const ExecState& state() const { return state_; }

 protected:
  virtual bool NoDbOpen() const { return false; }
  virtual void DoCommand() = 0;
  // Last say on the options the DB is opened with.
  virtual void OverrideOptions(Options* /*options*/) {}

  // Opens db_path_ (every family if there are several); false (state
  // failed) on error.
  bool OpenDb();
  void CloseDb();
  // The --column_family handle (the default family if none was given).
  ColumnFamilyHandle* CfHandle();
  // Decodes s in place if hex; false (state failed, message printed) if it
  // is not valid hex.
  bool DecodeHexArg(bool hex, std::string* s);
  // Parses --name as an int into *out if given; false (state failed) on a
  // bad value; *given tells whether it was there.
  bool IntOption(const std::string& name, int* out, bool* given = nullptr);
  // The options the DB is opened with (common flags applied).
  // The directory of the DB's WALs: --wal_dir, else the OPTIONS file's
  // wal_dir (when it exists), else the DB's directory.
  std::string WalDir() const;
  Status BuildOptions(Options* options);
  // The families to open, as ldb picks them: those of the OPTIONS file with
  // --try_load_options (each with the merge operator the file names), else
  // every family when there are several, else none (the default alone).
  // With --try_load_options also the file's allow_2pc goes into *options.
  Status ListFamilies(Options* options, std::vector<ColumnFamilyDescriptor>* families);

  const LdbArgs args_;
  const bool read_only_;
  std::string db_path_;
  std::string cf_name_ = "default";
  bool key_hex_ = false;
  bool value_hex_ = false;
  bool ttl_ = false;
  bool try_load_options_ = false;
  bool create_if_missing_ = false;
  bool ignore_unknown_options_ = false;
  std::shared_ptr<MergeOperator> merge_operator_;  // null: ldb's StringAppend(':')
  ExecState state_;

  std::unique_ptr<OpenedDb> opened_;  // set while the DB is open
  DB* db_ = nullptr;                  // opened_->db while open
  std::map<std::string, ColumnFamilyHandle*> handles_;

 private:
  std::vector<std::string> valid_;
};

}  // namespace strata::ldb
