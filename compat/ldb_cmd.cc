// compat/ldb_cmd.cc: LDBCommand and LDBCommandRunner
// (rocksdb/utilities/ldb_cmd.h). Command lines run Strata's `strata` tool
// through strata::RunLDBTool; the base class's database handling and
// option parsing follow RocksDB 7.8.3's ldb_cmd.cc.
#include "rocksdb/utilities/ldb_cmd.h"

#include <cctype>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "compat/options_convert.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/slice_transform.h"
#include "rocksdb/table.h"
#include "rocksdb/utilities/options_util.h"
#include "strata/merge_operator.h"
#include "strata/utilities/ldb_tool.h"

namespace rocksdb {

const std::string LDBCommand::ARG_ENV_URI = "env_uri";
const std::string LDBCommand::ARG_FS_URI = "fs_uri";
const std::string LDBCommand::ARG_DB = "db";
const std::string LDBCommand::ARG_PATH = "path";
const std::string LDBCommand::ARG_SECONDARY_PATH = "secondary_path";
const std::string LDBCommand::ARG_HEX = "hex";
const std::string LDBCommand::ARG_KEY_HEX = "key_hex";
const std::string LDBCommand::ARG_VALUE_HEX = "value_hex";
const std::string LDBCommand::ARG_CF_NAME = "column_family";
const std::string LDBCommand::ARG_TTL = "ttl";
const std::string LDBCommand::ARG_TTL_START = "start_time";
const std::string LDBCommand::ARG_TTL_END = "end_time";
const std::string LDBCommand::ARG_TIMESTAMP = "timestamp";
const std::string LDBCommand::ARG_TRY_LOAD_OPTIONS = "try_load_options";
const std::string LDBCommand::ARG_DISABLE_CONSISTENCY_CHECKS = "disable_consistency_checks";
const std::string LDBCommand::ARG_IGNORE_UNKNOWN_OPTIONS = "ignore_unknown_options";
const std::string LDBCommand::ARG_FROM = "from";
const std::string LDBCommand::ARG_TO = "to";
const std::string LDBCommand::ARG_MAX_KEYS = "max_keys";
const std::string LDBCommand::ARG_BLOOM_BITS = "bloom_bits";
const std::string LDBCommand::ARG_FIX_PREFIX_LEN = "fix_prefix_len";
const std::string LDBCommand::ARG_COMPRESSION_TYPE = "compression_type";
const std::string LDBCommand::ARG_COMPRESSION_MAX_DICT_BYTES = "compression_max_dict_bytes";
const std::string LDBCommand::ARG_BLOCK_SIZE = "block_size";
const std::string LDBCommand::ARG_AUTO_COMPACTION = "auto_compaction";
const std::string LDBCommand::ARG_DB_WRITE_BUFFER_SIZE = "db_write_buffer_size";
const std::string LDBCommand::ARG_WRITE_BUFFER_SIZE = "write_buffer_size";
const std::string LDBCommand::ARG_FILE_SIZE = "file_size";
const std::string LDBCommand::ARG_CREATE_IF_MISSING = "create_if_missing";
const std::string LDBCommand::ARG_NO_VALUE = "no_value";
const std::string LDBCommand::ARG_ENABLE_BLOB_FILES = "enable_blob_files";
const std::string LDBCommand::ARG_MIN_BLOB_SIZE = "min_blob_size";
const std::string LDBCommand::ARG_BLOB_FILE_SIZE = "blob_file_size";
const std::string LDBCommand::ARG_BLOB_COMPRESSION_TYPE = "blob_compression_type";
const std::string LDBCommand::ARG_ENABLE_BLOB_GARBAGE_COLLECTION = "enable_blob_garbage_collection";
const std::string LDBCommand::ARG_BLOB_GARBAGE_COLLECTION_AGE_CUTOFF =
    "blob_garbage_collection_age_cutoff";
const std::string LDBCommand::ARG_BLOB_GARBAGE_COLLECTION_FORCE_THRESHOLD =
    "blob_garbage_collection_force_threshold";
const std::string LDBCommand::ARG_BLOB_COMPACTION_READAHEAD_SIZE = "blob_compaction_readahead_size";
const std::string LDBCommand::ARG_BLOB_FILE_STARTING_LEVEL = "blob_file_starting_level";
const std::string LDBCommand::ARG_PREPOPULATE_BLOB_CACHE = "prepopulate_blob_cache";
const std::string LDBCommand::ARG_DECODE_BLOB_INDEX = "decode_blob_index";
const std::string LDBCommand::ARG_DUMP_UNCOMPRESSED_BLOBS = "dump_uncompressed_blobs";

const char* LDBCommand::DELIM = " ==> ";

namespace {

// Runs Strata's tool with a command line (argv[0] first) and options.
int RunStrataTool(const std::vector<std::string>& args, const Options& options,
                  const LDBOptions& ldb_options) {
  ::strata::Options converted;
  Status s = compat::ConvertOptions(options, &converted);
  if (!s.ok()) {
    std::fprintf(stderr, "Failed: %s\n", s.ToString().c_str());
    return 1;
  }
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  return ::strata::RunLDBTool(static_cast<int>(argv.size()), argv.data(), converted, ldb_options);
}

// Any command: the parsed command line, run by Strata's tool (which opens
// the database itself and checks the command's options).
class StrataToolCommand : public LDBCommand {
 public:
  explicit StrataToolCommand(const ParsedParams& p)
      : LDBCommand(p.option_map, p.flags, /*is_read_only=*/false, AllOf(p)), parsed_(p) {}

  bool NoDBOpen() override { return true; }

  void DoCommand() override {
    std::vector<std::string> args = {"ldb"};
    for (const auto& [k, v] : parsed_.option_map) args.push_back("--" + k + "=" + v);
    for (const std::string& f : parsed_.flags) args.push_back("--" + f);
    args.push_back(parsed_.cmd);
    args.insert(args.end(), parsed_.cmd_params.begin(), parsed_.cmd_params.end());
    const int status = RunStrataTool(args, options_, ldb_options_);
    exec_state_ =
        status == 0
            ? LDBCommandExecuteResult::Succeed("")
            : LDBCommandExecuteResult::Failed(
                  parsed_.cmd + ": Strata's ldb tool exited with status " + std::to_string(status));
  }

 private:
  // Every option and flag given is one the command takes: the tool checks.
  static std::vector<std::string> AllOf(const ParsedParams& p) {
    std::vector<std::string> all = p.flags;
    for (const auto& entry : p.option_map) all.push_back(entry.first);
    return all;
  }

  const ParsedParams parsed_;
};

}  // namespace

LDBCommand* LDBCommand::SelectCommand(const ParsedParams& parsed_params) {
  if (parsed_params.cmd.empty()) return nullptr;
  return new StrataToolCommand(parsed_params);
}

LDBCommand* LDBCommand::InitFromCmdLineArgs(
    int argc, char const* const* argv, const Options& options, const LDBOptions& ldb_options,
    const std::vector<ColumnFamilyDescriptor>* column_families) {
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
  return InitFromCmdLineArgs(args, options, ldb_options, column_families, SelectCommand);
}

LDBCommand* LDBCommand::InitFromCmdLineArgs(
    const std::vector<std::string>& args, const Options& options, const LDBOptions& ldb_options,
    const std::vector<ColumnFamilyDescriptor>* /*column_families*/,
    const std::function<LDBCommand*(const ParsedParams&)>& selector) {
  ParsedParams parsed;
  std::vector<std::string> tokens;
  for (const std::string& arg : args) {
    if (arg.size() >= 2 && arg[0] == '-' && arg[1] == '-') {
      const size_t eq = arg.find('=');
      if (eq == std::string::npos) {
        parsed.flags.push_back(arg.substr(2));
      } else {
        parsed.option_map[arg.substr(2, eq - 2)] = arg.substr(eq + 1);
      }
    } else {
      tokens.push_back(arg);
    }
  }
  if (tokens.empty()) {
    std::fprintf(stderr, "Command not specified!");
    return nullptr;
  }
  parsed.cmd = tokens[0];
  parsed.cmd_params.assign(tokens.begin() + 1, tokens.end());
  LDBCommand* command = selector(parsed);
  if (command != nullptr) {
    command->SetDBOptions(options);
    command->SetLDBOptions(ldb_options);
  }
  return command;
}

LDBCommand::LDBCommand(const std::map<std::string, std::string>& options,
                       const std::vector<std::string>& flags, bool is_read_only,
                       const std::vector<std::string>& valid_cmd_line_options)
    : db_(nullptr),
      db_ttl_(nullptr),
      is_read_only_(is_read_only),
      is_key_hex_(false),
      is_value_hex_(false),
      is_db_ttl_(false),
      timestamp_(false),
      try_load_options_(false),
      create_if_missing_(false),
      option_map_(options),
      flags_(flags),
      valid_cmd_line_options_(valid_cmd_line_options) {
  auto get = [&](const std::string& name, std::string* out) {
    auto it = options.find(name);
    if (it != options.end()) *out = it->second;
  };
  get(ARG_DB, &db_path_);
  get(ARG_ENV_URI, &env_uri_);
  get(ARG_FS_URI, &fs_uri_);
  column_family_name_ = kDefaultColumnFamilyName;
  get(ARG_CF_NAME, &column_family_name_);
  get(ARG_SECONDARY_PATH, &secondary_path_);
  is_key_hex_ = IsKeyHex(options, flags);
  is_value_hex_ = IsValueHex(options, flags);
  is_db_ttl_ = IsFlagPresent(flags, ARG_TTL);
  timestamp_ = IsFlagPresent(flags, ARG_TIMESTAMP);
  try_load_options_ = IsTryLoadOptions(options, flags);
  force_consistency_checks_ = !IsFlagPresent(flags, ARG_DISABLE_CONSISTENCY_CHECKS);
  enable_blob_files_ = IsFlagPresent(flags, ARG_ENABLE_BLOB_FILES);
  enable_blob_garbage_collection_ = IsFlagPresent(flags, ARG_ENABLE_BLOB_GARBAGE_COLLECTION);
  config_options_.ignore_unknown_options = IsFlagPresent(flags, ARG_IGNORE_UNKNOWN_OPTIONS);
}

void LDBCommand::Run() {
  if (!exec_state_.IsNotStarted()) return;
  if (!env_uri_.empty() || !fs_uri_.empty()) {
    Env* env = nullptr;
    Status s = Env::CreateFromUri(config_options_, env_uri_, fs_uri_, &env, &env_guard_);
    if (!s.ok()) {
      std::fprintf(stderr, "%s\n", s.ToString().c_str());
      exec_state_ = LDBCommandExecuteResult::Failed(s.ToString());
      return;
    }
    options_.env = env;
  }
  if (db_ == nullptr && !NoDBOpen()) {
    OpenDB();
    // A failed open is not the end: some commands take a file, not a DB.
    if (exec_state_.IsFailed() && try_load_options_) return;
  }
  DoCommand();
  if (exec_state_.IsNotStarted()) exec_state_ = LDBCommandExecuteResult::Succeed("");
  if (db_ != nullptr) CloseDB();
}

void LDBCommand::PrepareOptions() {
  if (try_load_options_) {
    DBOptions db_options;
    std::vector<ColumnFamilyDescriptor> families;
    config_options_.env = options_.env;
    Status s = LoadLatestOptions(config_options_, db_path_, &db_options, &families);
    if (!s.ok() && !s.IsNotFound()) {
      exec_state_ = LDBCommandExecuteResult::Failed("Failed to load options: " + s.ToString());
      return;
    }
    if (s.ok()) {
      Env* env = options_.env;
      static_cast<DBOptions&>(options_) = db_options;
      if (env != nullptr) options_.env = env;
      column_families_ = families;
      for (const ColumnFamilyDescriptor& cf : families) {
        if (cf.name == kDefaultColumnFamilyName) {
          static_cast<ColumnFamilyOptions&>(options_) = cf.options;
        }
      }
    }
  }
  OverrideBaseOptions();
  if (!exec_state_.IsNotStarted()) return;
  if (column_families_.empty()) {
    // The database's families, each with the base options.
    std::vector<std::string> names;
    Status s = DB::ListColumnFamilies(options_, db_path_, &names);
    if (s.ok()) {
      for (const std::string& name : names) {
        column_families_.emplace_back(name, ColumnFamilyOptions(options_));
      }
    }
  } else {
    for (ColumnFamilyDescriptor& cf : column_families_) OverrideBaseCFOptions(&cf.options);
  }
}

void LDBCommand::OverrideBaseOptions() {
  options_.create_if_missing = false;
  int db_write_buffer_size = 0;
  if (ParseIntOption(option_map_, ARG_DB_WRITE_BUFFER_SIZE, db_write_buffer_size, exec_state_)) {
    if (db_write_buffer_size >= 0) {
      options_.db_write_buffer_size = db_write_buffer_size;
    } else {
      exec_state_ = LDBCommandExecuteResult::Failed(ARG_DB_WRITE_BUFFER_SIZE + " must be >= 0.");
    }
  }
  if (options_.db_paths.empty()) {
    options_.db_paths.emplace_back(db_path_, std::numeric_limits<uint64_t>::max());
  }
  OverrideBaseCFOptions(static_cast<ColumnFamilyOptions*>(&options_));
}

void LDBCommand::OverrideBaseCFOptions(ColumnFamilyOptions* cf_opts) {
  BlockBasedTableOptions table_options;
  bool use_table_options = false;
  int value = 0;
  if (ParseIntOption(option_map_, ARG_BLOOM_BITS, value, exec_state_)) {
    if (value > 0) {
      use_table_options = true;
      table_options.filter_policy.reset(NewBloomFilterPolicy(value));
    } else {
      exec_state_ = LDBCommandExecuteResult::Failed(ARG_BLOOM_BITS + " must be > 0.");
    }
  }
  if (ParseIntOption(option_map_, ARG_BLOCK_SIZE, value, exec_state_)) {
    if (value > 0) {
      use_table_options = true;
      table_options.block_size = value;
    } else {
      exec_state_ = LDBCommandExecuteResult::Failed(ARG_BLOCK_SIZE + " must be > 0.");
    }
  }
  cf_opts->force_consistency_checks = force_consistency_checks_;
  if (use_table_options) cf_opts->table_factory.reset(NewBlockBasedTableFactory(table_options));
  // Blob files: Open refuses them (compat/README.md) when asked for.
  cf_opts->enable_blob_files = enable_blob_files_;
  cf_opts->enable_blob_garbage_collection = enable_blob_garbage_collection_;
  auto it = option_map_.find(ARG_AUTO_COMPACTION);
  if (it != option_map_.end()) cf_opts->disable_auto_compactions = !StringToBool(it->second);
  CompressionType compression = kNoCompression;
  if (ParseCompressionTypeOption(option_map_, ARG_COMPRESSION_TYPE, compression, exec_state_)) {
    cf_opts->compression = compression;
  }
  if (ParseIntOption(option_map_, ARG_COMPRESSION_MAX_DICT_BYTES, value, exec_state_)) {
    if (value >= 0) {
      cf_opts->compression_opts.max_dict_bytes = value;
    } else {
      exec_state_ =
          LDBCommandExecuteResult::Failed(ARG_COMPRESSION_MAX_DICT_BYTES + " must be >= 0.");
    }
  }
  if (ParseIntOption(option_map_, ARG_WRITE_BUFFER_SIZE, value, exec_state_)) {
    if (value > 0) {
      cf_opts->write_buffer_size = value;
    } else {
      exec_state_ = LDBCommandExecuteResult::Failed(ARG_WRITE_BUFFER_SIZE + " must be > 0.");
    }
  }
  if (ParseIntOption(option_map_, ARG_FILE_SIZE, value, exec_state_)) {
    if (value > 0) {
      cf_opts->target_file_size_base = value;
    } else {
      exec_state_ = LDBCommandExecuteResult::Failed(ARG_FILE_SIZE + " must be > 0.");
    }
  }
  if (ParseIntOption(option_map_, ARG_FIX_PREFIX_LEN, value, exec_state_)) {
    if (value > 0) {
      cf_opts->prefix_extractor.reset(NewFixedPrefixTransform(static_cast<size_t>(value)));
    } else {
      exec_state_ = LDBCommandExecuteResult::Failed(ARG_FIX_PREFIX_LEN + " must be > 0.");
    }
  }
}

void LDBCommand::OpenDB() {
  PrepareOptions();
  if (!exec_state_.IsNotStarted()) return;
  if (column_families_.empty() && options_.merge_operator == nullptr) {
    // As ldb: a string-append operator when none is given.
    options_.merge_operator = ::strata::MergeOperators::CreateStringAppendOperator(':');
  }
  Status s;
  std::vector<ColumnFamilyHandle*> handles;
  if (is_db_ttl_) {
    if (!column_families_.empty() && column_families_.size() > 1) {
      exec_state_ = LDBCommandExecuteResult::Failed(
          "ldb doesn't support TTL DB with multiple column families");
      return;
    }
    if (!secondary_path_.empty()) {
      exec_state_ =
          LDBCommandExecuteResult::Failed("Open as secondary is not supported for TTL DB yet.");
      return;
    }
    s = DBWithTTL::Open(options_, db_path_, &db_ttl_, 0, is_read_only_);
    db_ = db_ttl_;
  } else if (is_read_only_ && secondary_path_.empty()) {
    s = column_families_.empty()
            ? DB::OpenForReadOnly(options_, db_path_, &db_)
            : DB::OpenForReadOnly(options_, db_path_, column_families_, &handles, &db_);
  } else if (secondary_path_.empty()) {
    s = column_families_.empty() ? DB::Open(options_, db_path_, &db_)
                                 : DB::Open(options_, db_path_, column_families_, &handles, &db_);
  } else {
    s = column_families_.empty() ? DB::OpenAsSecondary(options_, db_path_, secondary_path_, &db_)
                                 : DB::OpenAsSecondary(options_, db_path_, secondary_path_,
                                                       column_families_, &handles, &db_);
  }
  if (!s.ok()) {
    exec_state_ = LDBCommandExecuteResult::Failed(s.ToString());
    db_ = nullptr;
    db_ttl_ = nullptr;
    return;
  }
  bool found = column_family_name_ == kDefaultColumnFamilyName && handles.empty();
  for (size_t i = 0; i < handles.size() && i < column_families_.size(); ++i) {
    cf_handles_[column_families_[i].name] = handles[i];
    found |= column_families_[i].name == column_family_name_;
  }
  if (!found) {
    exec_state_ =
        LDBCommandExecuteResult::Failed("Non-existing column family " + column_family_name_);
    CloseDB();
  }
}

void LDBCommand::CloseDB() {
  if (db_ == nullptr) return;
  for (auto& entry : cf_handles_)
    db_->DestroyColumnFamilyHandle(entry.second).PermitUncheckedError();
  cf_handles_.clear();
  db_->Close().PermitUncheckedError();
  delete db_;
  db_ = nullptr;
  db_ttl_ = nullptr;
}

ColumnFamilyHandle* LDBCommand::GetCfHandle() {
  if (!cf_handles_.empty()) {
    auto it = cf_handles_.find(column_family_name_);
    if (it == cf_handles_.end()) {
      exec_state_ =
          LDBCommandExecuteResult::Failed("Cannot find column family " + column_family_name_);
      return nullptr;
    }
    return it->second;
  }
  return db_ != nullptr ? db_->DefaultColumnFamily() : nullptr;
}

bool LDBCommand::ValidateCmdLineOptions() {
  auto valid = [&](const std::string& name) {
    return std::find(valid_cmd_line_options_.begin(), valid_cmd_line_options_.end(), name) !=
           valid_cmd_line_options_.end();
  };
  for (const auto& entry : option_map_) {
    if (!valid(entry.first)) {
      std::fprintf(stderr, "Invalid command-line option %s\n", entry.first.c_str());
      return false;
    }
  }
  for (const std::string& flag : flags_) {
    if (!valid(flag)) {
      std::fprintf(stderr, "Invalid command-line flag %s\n", flag.c_str());
      return false;
    }
  }
  if (!NoDBOpen() && option_map_.find(ARG_DB) == option_map_.end() &&
      option_map_.find(ARG_PATH) == option_map_.end()) {
    std::fprintf(stderr, "Either %s or %s must be specified.\n", ARG_DB.c_str(), ARG_PATH.c_str());
    return false;
  }
  return true;
}

std::string LDBCommand::HexToString(const std::string& str) {
  if (str.size() < 2 || str[0] != '0' || str[1] != 'x') {
    std::fprintf(stderr, "Invalid hex input %s.  Must start with 0x\n", str.c_str());
    throw "Invalid hex input";
  }
  // Pairs of hex digits, either case; an odd count or another character
  // is bad input.
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  if (str.size() % 2 != 0) throw "Invalid hex input";
  std::string out;
  for (size_t i = 2; i < str.size(); i += 2) {
    const int hi = digit(str[i]);
    const int lo = digit(str[i + 1]);
    if (hi < 0 || lo < 0) throw "Invalid hex input";
    out.push_back(static_cast<char>(hi * 16 + lo));
  }
  return out;
}

std::string LDBCommand::StringToHex(const std::string& str) {
  return "0x" + Slice(str).ToString(/*hex=*/true);
}

std::string LDBCommand::PrintKeyValue(const std::string& key, const std::string& value,
                                      bool is_key_hex, bool is_value_hex) {
  return (is_key_hex ? StringToHex(key) : key) + DELIM +
         (is_value_hex ? StringToHex(value) : value);
}

std::string LDBCommand::PrintKeyValue(const std::string& key, const std::string& value,
                                      bool is_hex) {
  return PrintKeyValue(key, value, is_hex, is_hex);
}

bool LDBCommand::ParseKeyValue(const std::string& line, std::string* key, std::string* value,
                               bool is_key_hex, bool is_value_hex) {
  const size_t pos = line.find(DELIM);
  if (pos == std::string::npos) return false;
  *key = line.substr(0, pos);
  *value = line.substr(pos + std::strlen(DELIM));
  if (is_key_hex) *key = HexToString(*key);
  if (is_value_hex) *value = HexToString(*value);
  return true;
}

std::string LDBCommand::HelpRangeCmdArgs() { return " [--" + ARG_FROM + "] [--" + ARG_TO + "] "; }

std::vector<std::string> LDBCommand::BuildCmdLineOptions(std::vector<std::string> options) {
  std::vector<std::string> all = {ARG_ENV_URI,
                                  ARG_FS_URI,
                                  ARG_DB,
                                  ARG_SECONDARY_PATH,
                                  ARG_BLOOM_BITS,
                                  ARG_BLOCK_SIZE,
                                  ARG_AUTO_COMPACTION,
                                  ARG_COMPRESSION_TYPE,
                                  ARG_COMPRESSION_MAX_DICT_BYTES,
                                  ARG_WRITE_BUFFER_SIZE,
                                  ARG_FILE_SIZE,
                                  ARG_FIX_PREFIX_LEN,
                                  ARG_TRY_LOAD_OPTIONS,
                                  ARG_DISABLE_CONSISTENCY_CHECKS,
                                  ARG_ENABLE_BLOB_FILES,
                                  ARG_MIN_BLOB_SIZE,
                                  ARG_BLOB_FILE_SIZE,
                                  ARG_BLOB_COMPRESSION_TYPE,
                                  ARG_ENABLE_BLOB_GARBAGE_COLLECTION,
                                  ARG_BLOB_GARBAGE_COLLECTION_AGE_CUTOFF,
                                  ARG_BLOB_GARBAGE_COLLECTION_FORCE_THRESHOLD,
                                  ARG_BLOB_COMPACTION_READAHEAD_SIZE,
                                  ARG_BLOB_FILE_STARTING_LEVEL,
                                  ARG_PREPOPULATE_BLOB_CACHE,
                                  ARG_IGNORE_UNKNOWN_OPTIONS,
                                  ARG_CF_NAME};
  all.insert(all.end(), options.begin(), options.end());
  return all;
}

bool LDBCommand::ParseIntOption(const std::map<std::string, std::string>& /*options*/,
                                const std::string& option, int& value,
                                LDBCommandExecuteResult& exec_state) {
  auto it = option_map_.find(option);
  if (it == option_map_.end()) return false;
  try {
    value = std::stoi(it->second);
    return true;
  } catch (const std::invalid_argument&) {
    exec_state = LDBCommandExecuteResult::Failed(option + " has an invalid value.");
  } catch (const std::out_of_range&) {
    exec_state = LDBCommandExecuteResult::Failed(option + " has a value out-of-range.");
  }
  return false;
}

bool LDBCommand::ParseDoubleOption(const std::map<std::string, std::string>& /*options*/,
                                   const std::string& option, double& value,
                                   LDBCommandExecuteResult& exec_state) {
  auto it = option_map_.find(option);
  if (it == option_map_.end()) return false;
  try {
    value = std::stod(it->second);
    return true;
  } catch (const std::invalid_argument&) {
    exec_state = LDBCommandExecuteResult::Failed(option + " has an invalid value.");
  } catch (const std::out_of_range&) {
    exec_state = LDBCommandExecuteResult::Failed(option + " has a value out-of-range.");
  }
  return false;
}

bool LDBCommand::ParseStringOption(const std::map<std::string, std::string>& /*options*/,
                                   const std::string& option, std::string* value) {
  auto it = option_map_.find(option);
  if (it == option_map_.end()) return false;
  *value = it->second;
  return true;
}

bool LDBCommand::ParseCompressionTypeOption(const std::map<std::string, std::string>& /*options*/,
                                            const std::string& option, CompressionType& value,
                                            LDBCommandExecuteResult& exec_state) {
  auto it = option_map_.find(option);
  if (it == option_map_.end()) return false;
  static const std::pair<const char*, CompressionType> kNames[] = {
      {"no", kNoCompression},         {"snappy", kSnappyCompression},
      {"zlib", kZlibCompression},     {"bzip2", kBZip2Compression},
      {"lz4", kLZ4Compression},       {"lz4hc", kLZ4HCCompression},
      {"xpress", kXpressCompression}, {"zstd", kZSTD}};
  for (const auto& [name, type] : kNames) {
    if (it->second == name) {
      value = type;
      return true;
    }
  }
  exec_state = LDBCommandExecuteResult::Failed("Unknown compression algorithm: " + it->second);
  return false;
}

bool LDBCommand::ParseBooleanOption(const std::map<std::string, std::string>& options,
                                    const std::string& option, bool default_val) {
  auto it = options.find(option);
  return it == options.end() ? default_val : StringToBool(it->second);
}

bool LDBCommand::StringToBool(std::string val) {
  for (char& c : val) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (val == "true") return true;
  if (val == "false") return false;
  throw "Invalid value for boolean argument";
}

bool LDBCommand::IsKeyHex(const std::map<std::string, std::string>& options,
                          const std::vector<std::string>& flags) {
  return IsFlagPresent(flags, ARG_HEX) || IsFlagPresent(flags, ARG_KEY_HEX) ||
         ParseBooleanOption(options, ARG_HEX, false) ||
         ParseBooleanOption(options, ARG_KEY_HEX, false);
}

bool LDBCommand::IsValueHex(const std::map<std::string, std::string>& options,
                            const std::vector<std::string>& flags) {
  return IsFlagPresent(flags, ARG_HEX) || IsFlagPresent(flags, ARG_VALUE_HEX) ||
         ParseBooleanOption(options, ARG_HEX, false) ||
         ParseBooleanOption(options, ARG_VALUE_HEX, false);
}

bool LDBCommand::IsTryLoadOptions(const std::map<std::string, std::string>& options,
                                  const std::vector<std::string>& flags) {
  if (IsFlagPresent(flags, ARG_TRY_LOAD_OPTIONS)) return true;
  // With --db and no request to create it, the OPTIONS file is read.
  const bool default_val = options.find(ARG_DB) != options.end() &&
                           !IsFlagPresent(flags, ARG_CREATE_IF_MISSING) &&
                           !IsFlagPresent(flags, ARG_TTL);
  return ParseBooleanOption(options, ARG_TRY_LOAD_OPTIONS, default_val);
}

void LDBCommandRunner::PrintHelp(const LDBOptions& ldb_options, const char* exec_name,
                                 bool /*to_stderr*/) {
  RunStrataTool({exec_name != nullptr ? exec_name : "ldb", "--help"}, Options(), ldb_options);
}

int LDBCommandRunner::RunCommand(int argc, char const* const* argv, Options options,
                                 const LDBOptions& ldb_options,
                                 const std::vector<ColumnFamilyDescriptor>* /*column_families*/) {
  std::vector<std::string> args;
  for (int i = 0; i < argc; ++i) args.push_back(argv[i]);
  if (args.empty()) args.push_back("ldb");
  return RunStrataTool(args, options, ldb_options);
}

}  // namespace rocksdb
