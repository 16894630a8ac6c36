// LdbCommand (tools/ldb/ldb_command.h): option checks, open and close.

#include "tools/ldb/ldb_command.h"

#include <algorithm>
#include <cstdio>

#include "strata/merge_operator.h"
#include "tools/ldb/ldb_options_file.h"

namespace strata::ldb {

namespace {

// ldb takes these everywhere; Strata has nothing to do them with, so a
// command given one fails naming it instead of ignoring it.
const char* const kRefusedOptions[] = {
    "env_uri",
    "fs_uri",
    "secondary_path",
    "bloom_bits",
    "block_size",
    "compression_max_dict_bytes",
    "fix_prefix_len",
    "disable_consistency_checks",
    "enable_blob_files",
    "min_blob_size",
    "blob_file_size",
    "blob_compression_type",
    "enable_blob_garbage_collection",
    "blob_garbage_collection_age_cutoff",
    "blob_garbage_collection_force_threshold",
    "blob_compaction_readahead_size",
    "blob_file_starting_level",
    "prepopulate_blob_cache",
};

bool Contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace

std::string ExecState::ToString() const {
  switch (state_) {
    case kSucceeded:
      return message_;
    case kFailed:
      return "Failed: " + message_;
    case kNotStarted:
      break;
  }
  return "Not started: " + message_;
}

const std::vector<std::string>& LdbCommand::CommonOptions() {
  static const std::vector<std::string> kCommon = {
      "env_uri",
      "fs_uri",
      kArgDb,
      "secondary_path",
      "bloom_bits",
      "block_size",
      "auto_compaction",
      "compression_type",
      "compression_max_dict_bytes",
      "write_buffer_size",
      "file_size",
      "fix_prefix_len",
      kArgTryLoadOptions,
      "disable_consistency_checks",
      "enable_blob_files",
      "min_blob_size",
      "blob_file_size",
      "blob_compression_type",
      "enable_blob_garbage_collection",
      "blob_garbage_collection_age_cutoff",
      "blob_garbage_collection_force_threshold",
      "blob_compaction_readahead_size",
      "blob_file_starting_level",
      "prepopulate_blob_cache",
      kArgIgnoreUnknownOptions,
      kArgCfName,
      kArgWalDir,
  };
  return kCommon;
}

LdbCommand::LdbCommand(const LdbArgs& args, bool read_only, std::vector<std::string> valid,
                       bool common)
    : args_(args), read_only_(read_only) {
  if (common) valid_ = CommonOptions();
  valid_.insert(valid_.end(), valid.begin(), valid.end());

  if (const std::string* v = FindOption(args, kArgDb)) db_path_ = *v;
  if (const std::string* v = FindOption(args, kArgCfName)) cf_name_ = *v;

  bool hex = false;
  bool key_hex = false;
  bool value_hex = false;
  Status s = FlagOrBool(args, kArgHex, false, &hex);
  if (s.ok()) s = FlagOrBool(args, kArgKeyHex, false, &key_hex);
  if (s.ok()) s = FlagOrBool(args, kArgValueHex, false, &value_hex);
  key_hex_ = hex || key_hex;
  value_hex_ = hex || value_hex;
  ttl_ = HasFlag(args, kArgTtl);
  create_if_missing_ = HasFlag(args, kArgCreateIfMissing);
  ignore_unknown_options_ = HasFlag(args, kArgIgnoreUnknownOptions);
  // As in ldb: on by default when --db is given, unless creating or TTL.
  const bool default_load = FindOption(args, kArgDb) != nullptr && !create_if_missing_ && !ttl_;
  if (s.ok()) s = FlagOrBool(args, kArgTryLoadOptions, default_load, &try_load_options_);
  if (!s.ok()) {
    state_.Fail(s.getState());
    return;
  }
  if (const std::string* v = FindOption(args, kArgMergeOperator)) {
    merge_operator_ = MergeOperators::CreateFromStringId(*v);
    if (merge_operator_ == nullptr) {
      state_.Fail("--merge_operator=" + *v +
                  ": unknown merge operator (put, uint64add, stringappend, max, ...)");
    }
  }
}

LdbCommand::~LdbCommand() { CloseDb(); }

bool LdbCommand::ValidateCmdLineOptions() {
  for (const auto& [name, value] : args_.options) {
    if (!Contains(valid_, name)) {
      std::fprintf(stderr, "Invalid command-line option %s\n", name.c_str());
      return false;
    }
  }
  for (const std::string& flag : args_.flags) {
    if (!Contains(valid_, flag)) {
      std::fprintf(stderr, "Invalid command-line flag %s\n", flag.c_str());
      return false;
    }
  }
  if (!NoDbOpen() && FindOption(args_, kArgDb) == nullptr &&
      FindOption(args_, kArgPath) == nullptr) {
    std::fprintf(stderr, "Either %s or %s must be specified.\n", kArgDb, kArgPath);
    return false;
  }
  return true;
}

void LdbCommand::Run() {
  if (!state_.not_started()) return;
  for (const char* name : kRefusedOptions) {
    if (FindOption(args_, name) != nullptr || HasFlag(args_, name)) {
      state_.Fail(std::string("--") + name + " is not supported by strata");
      return;
    }
  }
  if (!NoDbOpen()) {
    if (!OpenDb() && try_load_options_) return;
  }
  DoCommand();
  if (state_.not_started()) state_.Succeed();
  CloseDb();
}

Status LdbCommand::BuildOptions(Options* options) {
  // The caller's base options (LDBTool::Run), the flags over them.
  Options o = args_.db_options != nullptr ? *args_.db_options : Options();
  o.create_if_missing = create_if_missing_;
  if (merge_operator_ != nullptr) {
    o.merge_operator = merge_operator_;
  } else if (o.merge_operator == nullptr) {
    o.merge_operator = MergeOperators::CreateStringAppendOperator(':');
  }
  if (const std::string* v = FindOption(args_, "write_buffer_size")) {
    int n = 0;
    Status s = ParseInt("write_buffer_size", *v, &n);
    if (!s.ok()) return s;
    if (n <= 0) return Status::InvalidArgument("write_buffer_size must be > 0.");
    o.write_buffer_size = static_cast<size_t>(n);
  }
  if (const std::string* v = FindOption(args_, "file_size")) {
    int n = 0;
    Status s = ParseInt("file_size", *v, &n);
    if (!s.ok()) return s;
    if (n <= 0) return Status::InvalidArgument("file_size must be > 0.");
    o.target_file_size_base = static_cast<uint64_t>(n);
  }
  if (const std::string* v = FindOption(args_, "auto_compaction")) {
    bool on = true;
    Status s = ParseBool("auto_compaction", *v, &on);
    if (!s.ok()) return s;
    o.disable_auto_compactions = !on;
  }
  if (const std::string* v = FindOption(args_, "compression_type")) {
    static const std::pair<const char*, CompressionType> kTypes[] = {
        {"no", kNoCompression},         {"snappy", kSnappyCompression},
        {"zlib", kZlibCompression},     {"bzip2", kBZip2Compression},
        {"lz4", kLZ4Compression},       {"lz4hc", kLZ4HCCompression},
        {"xpress", kXpressCompression}, {"zstd", kZSTD},
    };
    bool found = false;
    for (const auto& [name, type] : kTypes) {
      if (*v == name) {
        o.compression = type;
        found = true;
      }
    }
    if (!found) return Status::InvalidArgument("Unknown compression algorithm: " + *v);
  }
  // Strata's --wal_dir (ldb takes it only from the OPTIONS file).
  if (const std::string* v = FindOption(args_, kArgWalDir)) o.wal_dir = *v;
  OverrideOptions(&o);
  *options = std::move(o);
  return Status::OK();
}

std::string LdbCommand::WalDir() const {
  if (const std::string* v = FindOption(args_, kArgWalDir)) return *v;
  std::vector<LoadedFamily> loaded;
  std::string wal_dir;
  if (LoadOptionsFile(db_path_, /*ignore_unknown=*/true, &loaded, nullptr, &wal_dir).ok() &&
      !wal_dir.empty() && Env::Default()->GetFileSystem()->FileExists(wal_dir).ok()) {
    return wal_dir;
  }
  return db_path_;
}

Status LdbCommand::ListFamilies(Options* options, std::vector<ColumnFamilyDescriptor>* families) {
  families->clear();
  auto with_merge = [&](std::shared_ptr<MergeOperator> from_file) {
    ColumnFamilyOptions cf = *options;
    if (merge_operator_ == nullptr && from_file != nullptr) cf.merge_operator = from_file;
    return cf;
  };
  if (try_load_options_ && !create_if_missing_) {
    std::vector<LoadedFamily> loaded;
    bool allow_2pc = false;
    std::string wal_dir;
    Status s = LoadOptionsFile(db_path_, ignore_unknown_options_, &loaded, &allow_2pc, &wal_dir,
                               options->comparator);
    if (!s.ok() && !s.IsNotFound()) return s;
    // As ldb, which opens with the file's DBOptions: a TransactionDB's
    // prepared sections in the WALs need allow_2pc.
    if (allow_2pc) options->allow_2pc = true;
    // The file's wal_dir (unless --wal_dir said otherwise); as ldb, one that
    // does not exist is ignored.
    if (options->wal_dir.empty() && !wal_dir.empty()) {
      if (Env::Default()->GetFileSystem()->FileExists(wal_dir).IsNotFound()) {
        std::fprintf(stderr, "wal_dir loaded from the option file doesn't exist. Ignore it.\n");
      } else {
        options->wal_dir = wal_dir;
      }
    }
    for (const LoadedFamily& f : loaded)
      families->emplace_back(f.name, with_merge(f.merge_operator));
    if (!families->empty()) return Status::OK();
  }
  // As ldb: a DB with one family opens it alone, one with more opens all.
  std::vector<std::string> names;
  if (DB::ListColumnFamilies(*options, db_path_, &names).ok() && names.size() > 1) {
    for (const std::string& name : names) families->emplace_back(name, with_merge(nullptr));
  }
  return Status::OK();
}

bool LdbCommand::OpenDb() {
  Options options;
  Status s = BuildOptions(&options);
  if (!s.ok()) {
    state_.Fail(s.getState());
    return false;
  }
  std::vector<ColumnFamilyDescriptor> families;
  s = ListFamilies(&options, &families);
  if (!s.ok()) {
    state_.Fail(s.ToString());
    return false;
  }
  if (ttl_ && FindOption(args_, kArgCfName) != nullptr) {
    state_.Fail("ldb doesn't support TTL DB with multiple column families");
    return false;
  }
  bool found = families.empty();
  for (const ColumnFamilyDescriptor& f : families) found = found || f.name == cf_name_;
  if (!found) {
    state_.Fail("Non-existing column family " + cf_name_);
    return false;
  }
  s = OpenDatabase(db_path_, options, families, read_only_, &opened_, ttl_);
  if (!s.ok()) {
    state_.Fail(s.ToString());
    return false;
  }
  db_ = opened_->db.get();
  for (size_t i = 0; i < families.size(); ++i) handles_[families[i].name] = opened_->handles[i];
  if (families.empty() && cf_name_ != "default") {
    state_.Fail("Non-existing column family " + cf_name_);
    CloseDb();
    return false;
  }
  return true;
}

void LdbCommand::CloseDb() {
  handles_.clear();
  db_ = nullptr;
  opened_.reset();
}

ColumnFamilyHandle* LdbCommand::CfHandle() {
  if (!handles_.empty()) {
    auto it = handles_.find(cf_name_);
    if (it != handles_.end()) return it->second;
    state_.Fail("Cannot find column family " + cf_name_);
  }
  return db_->DefaultColumnFamily();
}

bool LdbCommand::DecodeHexArg(bool hex, std::string* s) {
  if (!hex) return true;
  Status st = HexToString(std::string(*s), s);
  if (!st.ok()) {
    state_.Fail(st.getState());
    return false;
  }
  return true;
}

bool LdbCommand::IntOption(const std::string& name, int* out, bool* given) {
  const std::string* v = FindOption(args_, name);
  if (given != nullptr) *given = v != nullptr;
  if (v == nullptr) return true;
  Status s = ParseInt(name, *v, out);
  if (!s.ok()) {
    state_.Fail(s.getState());
    return false;
  }
  return true;
}

}  // namespace strata::ldb
