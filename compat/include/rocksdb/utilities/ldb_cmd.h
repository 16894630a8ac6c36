// rocksdb/utilities/ldb_cmd.h: LDBCommand, one command of RocksDB's ldb
// tool as an object (parse a command line, Run it, read its
// LDBCommandExecuteResult), and LDBCommandRunner, which runs a whole
// command line.
//
// compat: the commands are Strata's `strata` tool (RocksDB 7.8.3 ldb's
// commands, flags and output; docs/tools/ldb.md) through its library entry
// point (include/strata/utilities/ldb_tool.h). SelectCommand gives, for any
// command name, a command that runs the tool with the parsed command line
// and the options (converted as Open converts them) and records its exit
// status; RocksDB's own command classes (GetCommand, ScanCommand, ...) are
// not offered. A program's own LDBCommand subclasses work as in RocksDB:
// OpenDB opens db_ (read-only, TTL, secondary and column families as
// RocksDB does), and the option parsing helpers are RocksDB's. --env_uri
// and --fs_uri fail the command with Env::CreateFromUri's NotSupported.
// Thread-safety: a command is used by one thread.
#pragma once

#include <stdio.h>
#include <stdlib.h>

#include <algorithm>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "rocksdb/convenience.h"
#include "rocksdb/env.h"
#include "rocksdb/iterator.h"
#include "rocksdb/ldb_tool.h"
#include "rocksdb/options.h"
#include "rocksdb/slice.h"
#include "rocksdb/utilities/db_ttl.h"
#include "rocksdb/utilities/ldb_cmd_execute_result.h"

namespace rocksdb {

class LDBCommand {
 public:
  // The common command-line options (the text after "--").
  static const std::string ARG_ENV_URI;
  static const std::string ARG_FS_URI;
  static const std::string ARG_DB;
  static const std::string ARG_PATH;
  static const std::string ARG_SECONDARY_PATH;
  static const std::string ARG_HEX;
  static const std::string ARG_KEY_HEX;
  static const std::string ARG_VALUE_HEX;
  static const std::string ARG_CF_NAME;
  static const std::string ARG_TTL;
  static const std::string ARG_TTL_START;
  static const std::string ARG_TTL_END;
  static const std::string ARG_TIMESTAMP;
  static const std::string ARG_TRY_LOAD_OPTIONS;
  static const std::string ARG_IGNORE_UNKNOWN_OPTIONS;
  static const std::string ARG_FROM;
  static const std::string ARG_TO;
  static const std::string ARG_MAX_KEYS;
  static const std::string ARG_BLOOM_BITS;
  static const std::string ARG_FIX_PREFIX_LEN;
  static const std::string ARG_COMPRESSION_TYPE;
  static const std::string ARG_COMPRESSION_MAX_DICT_BYTES;
  static const std::string ARG_BLOCK_SIZE;
  static const std::string ARG_AUTO_COMPACTION;
  static const std::string ARG_DB_WRITE_BUFFER_SIZE;
  static const std::string ARG_WRITE_BUFFER_SIZE;
  static const std::string ARG_FILE_SIZE;
  static const std::string ARG_CREATE_IF_MISSING;
  static const std::string ARG_NO_VALUE;
  static const std::string ARG_DISABLE_CONSISTENCY_CHECKS;
  static const std::string ARG_ENABLE_BLOB_FILES;
  static const std::string ARG_MIN_BLOB_SIZE;
  static const std::string ARG_BLOB_FILE_SIZE;
  static const std::string ARG_BLOB_COMPRESSION_TYPE;
  static const std::string ARG_ENABLE_BLOB_GARBAGE_COLLECTION;
  static const std::string ARG_BLOB_GARBAGE_COLLECTION_AGE_CUTOFF;
  static const std::string ARG_BLOB_GARBAGE_COLLECTION_FORCE_THRESHOLD;
  static const std::string ARG_BLOB_COMPACTION_READAHEAD_SIZE;
  static const std::string ARG_BLOB_FILE_STARTING_LEVEL;
  static const std::string ARG_PREPOPULATE_BLOB_CACHE;
  static const std::string ARG_DECODE_BLOB_INDEX;
  static const std::string ARG_DUMP_UNCOMPRESSED_BLOBS;

  // A command line taken apart: "--k=v" options, "--flag" flags, the
  // command and its parameters.
  struct ParsedParams {
    std::string cmd;
    std::vector<std::string> cmd_params;
    std::map<std::string, std::string> option_map;
    std::vector<std::string> flags;
  };

  // The command for parsed_parms (compat: one running Strata's tool, for
  // any non-empty command name). The caller owns it.
  static LDBCommand* SelectCommand(const ParsedParams& parsed_parms);

  // Parses args (without the program name) and selects the command; null
  // (after "Command not specified!" on stderr) without a command. The
  // caller owns the result.
  static LDBCommand* InitFromCmdLineArgs(
      const std::vector<std::string>& args, const Options& options, const LDBOptions& ldb_options,
      const std::vector<ColumnFamilyDescriptor>* column_families,
      const std::function<LDBCommand*(const ParsedParams&)>& selector = SelectCommand);
  // The same over argv[1..argc-1].
  static LDBCommand* InitFromCmdLineArgs(
      int argc, char const* const* argv, const Options& options, const LDBOptions& ldb_options,
      const std::vector<ColumnFamilyDescriptor>* column_families);

  // False (with the reason on stderr) for an option or flag the command
  // does not take, or no --db / --path when the command opens a database.
  bool ValidateCmdLineOptions();

  // Sets options_ (and column_families_) for OpenDB: the OPTIONS file with
  // --try_load_options, then the command line's overrides.
  virtual void PrepareOptions();
  virtual void OverrideBaseOptions();
  virtual void OverrideBaseCFOptions(ColumnFamilyOptions* cf_opts);

  virtual void SetDBOptions(Options options) { options_ = options; }
  virtual void SetColumnFamilies(const std::vector<ColumnFamilyDescriptor>* column_families) {
    if (column_families != nullptr) {
      column_families_ = *column_families;
    } else {
      column_families_.clear();
    }
  }
  void SetLDBOptions(const LDBOptions& ldb_options) { ldb_options_ = ldb_options; }

  const std::map<std::string, std::string>& TEST_GetOptionMap() { return option_map_; }
  const std::vector<std::string>& TEST_GetFlags() { return flags_; }

  // True for commands that open no database themselves.
  virtual bool NoDBOpen() { return false; }

  virtual ~LDBCommand() { CloseDB(); }

  // Opens the database (unless NoDBOpen), runs DoCommand, closes it; the
  // outcome is GetExecuteState().
  void Run();
  virtual void DoCommand() = 0;

  LDBCommandExecuteResult GetExecuteState() { return exec_state_; }
  void ClearPreviousRunState() { exec_state_.Reset(); }

  // "0x4142" -> "AB" (throws a C string for bad input, as RocksDB's does).
  static std::string HexToString(const std::string& str);
  // "AB" -> "0x4142".
  static std::string StringToHex(const std::string& str);

  // " ==> ", between a key and its value.
  static const char* DELIM;

 protected:
  LDBCommandExecuteResult exec_state_;
  std::string env_uri_;
  std::string fs_uri_;
  std::string db_path_;
  std::string secondary_path_;
  std::string column_family_name_;
  DB* db_;
  DBWithTTL* db_ttl_;
  std::map<std::string, ColumnFamilyHandle*> cf_handles_;

  // The command can work on a database opened read-only.
  bool is_read_only_;
  // Keys / values are read and written in hex.
  bool is_key_hex_;
  bool is_value_hex_;
  // The database is a TTL one.
  bool is_db_ttl_;
  bool timestamp_;
  bool try_load_options_;
  bool force_consistency_checks_;
  bool enable_blob_files_;
  bool enable_blob_garbage_collection_;
  bool create_if_missing_;

  // The command line's options and flags.
  const std::map<std::string, std::string> option_map_;
  const std::vector<std::string> flags_;
  // The options and flags the command takes.
  const std::vector<std::string> valid_cmd_line_options_;

  // Keeps an Env made from --env_uri alive (unused in compat).
  std::shared_ptr<Env> env_guard_;

  // Splits "key ==> value" (hex-decoding as asked); false if malformed.
  bool ParseKeyValue(const std::string& line, std::string* key, std::string* value, bool is_key_hex,
                     bool is_value_hex);

  LDBCommand(const std::map<std::string, std::string>& options,
             const std::vector<std::string>& flags, bool is_read_only,
             const std::vector<std::string>& valid_cmd_line_options);

  void OpenDB();
  void CloseDB();
  // The handle of --column_family (the default family when none was
  // opened); sets a failure if there is none.
  ColumnFamilyHandle* GetCfHandle();

  static std::string PrintKeyValue(const std::string& key, const std::string& value,
                                   bool is_key_hex, bool is_value_hex);
  static std::string PrintKeyValue(const std::string& key, const std::string& value, bool is_hex);

  static bool IsFlagPresent(const std::vector<std::string>& flags, const std::string& flag) {
    return std::find(flags.begin(), flags.end(), flag) != flags.end();
  }

  // The help text of --from/--to.
  static std::string HelpRangeCmdArgs();

  // options plus the options every command takes.
  static std::vector<std::string> BuildCmdLineOptions(std::vector<std::string> options);

  // Each: false (and a failed exec_state) for a bad value; true with the
  // value set, or true untouched when the option is absent (ParseIntOption
  // and ParseDoubleOption return false when absent).
  bool ParseIntOption(const std::map<std::string, std::string>& options, const std::string& option,
                      int& value, LDBCommandExecuteResult& exec_state);
  bool ParseDoubleOption(const std::map<std::string, std::string>& options,
                         const std::string& option, double& value,
                         LDBCommandExecuteResult& exec_state);
  bool ParseStringOption(const std::map<std::string, std::string>& options,
                         const std::string& option, std::string* value);
  bool ParseCompressionTypeOption(const std::map<std::string, std::string>& options,
                                  const std::string& option, CompressionType& value,
                                  LDBCommandExecuteResult& exec_state);
  // The option's value as a boolean ("true"/"false", any case), default_val
  // when absent; throws for anything else, as RocksDB's does.
  bool ParseBooleanOption(const std::map<std::string, std::string>& options,
                          const std::string& option, bool default_val);

  Options options_;
  std::vector<ColumnFamilyDescriptor> column_families_;
  ConfigOptions config_options_;
  LDBOptions ldb_options_;

 private:
  bool IsKeyHex(const std::map<std::string, std::string>& options,
                const std::vector<std::string>& flags);
  bool IsValueHex(const std::map<std::string, std::string>& options,
                  const std::vector<std::string>& flags);
  bool IsTryLoadOptions(const std::map<std::string, std::string>& options,
                        const std::vector<std::string>& flags);
  bool StringToBool(std::string val);
};

class LDBCommandRunner {
 public:
  // The tool's help text (compat: the tool prints it to stdout, whatever
  // to_stderr says).
  static void PrintHelp(const LDBOptions& ldb_options, const char* exec_name,
                        bool to_stderr = true);
  // Runs argv[1..argc-1] with Strata's tool; the exit status (0 success).
  static int RunCommand(int argc, char const* const* argv, Options options,
                        const LDBOptions& ldb_options,
                        const std::vector<ColumnFamilyDescriptor>* column_families);
};

}  // namespace rocksdb
