// compat/options_extras.cc: the option helpers of RocksDB 7.8.3's options.h,
// convenience.h and utilities/options_util.h that are more than field
// conversions: OldDefaults, DisableExtraChecks, Dump/DumpCFOptions (the
// options written to an info log), CreateLoggerFromOptions (the LOG file
// DB::Open makes), the plain-table option parser, the memtable factory
// parser and CheckOptionsCompatibility (given options against the newest
// OPTIONS file, at RocksDB's sanity levels).
#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "rocksdb/configurable.h"
#include "rocksdb/convenience.h"
#include "rocksdb/env.h"
#include "rocksdb/listener.h"
#include "rocksdb/memtablerep.h"
#include "rocksdb/merge_operator.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"
#include "rocksdb/utilities/object_registry.h"
#include "rocksdb/utilities/options_type.h"
#include "rocksdb/utilities/options_util.h"

namespace rocksdb {

const char* kHostnameForDbHostId = "__hostname__";

AdvancedColumnFamilyOptions::AdvancedColumnFamilyOptions() = default;
ColumnFamilyOptions::ColumnFamilyOptions() = default;
DBOptions::DBOptions() = default;

namespace {

// True if <major>.<minor> is older than <m>.<n>.
bool Before(int major, int minor, int m, int n) { return major < m || (major == m && minor < n); }

// Splits "a=1;b={c=2;d=3};e=4" at the top-level ';' into its name=value
// pieces, in order.
std::vector<std::pair<std::string, std::string>> SplitOptions(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> out;
  std::string piece;
  int depth = 0;
  auto flush = [&]() {
    size_t b = piece.find_first_not_of(' ');
    if (b != std::string::npos) {
      piece = piece.substr(b);
      const size_t eq = piece.find('=');
      if (eq == std::string::npos) {
        out.emplace_back(piece, "");
      } else {
        out.emplace_back(piece.substr(0, eq), piece.substr(eq + 1));
      }
    }
    piece.clear();
  };
  for (char c : text) {
    if (c == '{') depth++;
    if (c == '}') depth--;
    if (c == ';' && depth == 0) {
      flush();
    } else {
      piece.push_back(c);
    }
  }
  flush();
  return out;
}

void DumpText(Logger* log, const Status& s, const std::string& text) {
  if (log == nullptr) return;
  if (!s.ok()) {
    Header(log, "Options: %s", s.ToString().c_str());
    return;
  }
  for (const auto& [name, value] : SplitOptions(text)) {
    const std::string key = "Options." + name;
    Header(log, "%45s: %s", key.c_str(), value.c_str());
  }
}

}  // namespace

ColumnFamilyOptions* ColumnFamilyOptions::OldDefaults(int rocksdb_major_version,
                                                      int rocksdb_minor_version) {
  const int ma = rocksdb_major_version;
  const int mi = rocksdb_minor_version;
  if (Before(ma, mi, 5, 19)) compaction_pri = kByCompensatedSize;
  if (Before(ma, mi, 4, 7)) {
    write_buffer_size = 4 << 20;
    target_file_size_base = 2 * 1048576;
    max_bytes_for_level_base = 10 * 1048576;
    soft_pending_compaction_bytes_limit = 0;
    hard_pending_compaction_bytes_limit = 0;
  }
  if (ma < 5) {
    level0_stop_writes_trigger = 24;
  } else if (ma == 5 && mi < 2) {
    level0_stop_writes_trigger = 30;
  }
  return this;
}

DBOptions* DBOptions::OldDefaults(int rocksdb_major_version, int rocksdb_minor_version) {
  const int ma = rocksdb_major_version;
  const int mi = rocksdb_minor_version;
  if (Before(ma, mi, 4, 7)) {
    max_file_opening_threads = 1;
    table_cache_numshardbits = 4;
  }
  if (Before(ma, mi, 5, 2)) {
    delayed_write_rate = 2 * 1024U * 1024U;
  } else if (Before(ma, mi, 5, 6)) {
    delayed_write_rate = 16 * 1024U * 1024U;
  }
  max_open_files = 5000;
  wal_recovery_mode = WALRecoveryMode::kTolerateCorruptedTailRecords;
  return this;
}

Options* Options::OldDefaults(int rocksdb_major_version, int rocksdb_minor_version) {
  ColumnFamilyOptions::OldDefaults(rocksdb_major_version, rocksdb_minor_version);
  DBOptions::OldDefaults(rocksdb_major_version, rocksdb_minor_version);
  return this;
}

Options* Options::DisableExtraChecks() {
  force_consistency_checks = false;
  return this;
}

void DBOptions::Dump(Logger* log) const {
  std::string text;
  ConfigOptions config;
  config.delimiter = ";";
  Status s = GetStringFromDBOptions(config, *this, &text);
  DumpText(log, s, text);
}

void ColumnFamilyOptions::Dump(Logger* log) const {
  std::string text;
  ConfigOptions config;
  config.delimiter = ";";
  Status s = GetStringFromColumnFamilyOptions(config, *this, &text);
  DumpText(log, s, text);
}

void Options::Dump(Logger* log) const {
  DBOptions::Dump(log);
  ColumnFamilyOptions::Dump(log);
}

void Options::DumpCFOptions(Logger* log) const { ColumnFamilyOptions::Dump(log); }

// ---- the info log ----

namespace {

// RocksDB's name of a LOG kept in db_log_dir: the database's absolute path
// with every character but [A-Za-z0-9._-] made '_' (a leading one dropped).
std::string InfoLogPrefix(const std::string& db_absolute_path) {
  std::string out;
  for (size_t i = 0; i < db_absolute_path.size() && out.size() < 495; i++) {
    const char c = db_absolute_path[i];
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '.' || c == '_';
    if (keep) {
      out.push_back(c);
    } else if (i > 0) {
      out.push_back('_');
    }
  }
  return out;
}

}  // namespace

Status CreateLoggerFromOptions(const std::string& dbname, const DBOptions& options,
                               std::shared_ptr<Logger>* logger) {
  if (logger == nullptr) return Status::InvalidArgument("CreateLoggerFromOptions: null logger");
  logger->reset();
  Env* env = options.env != nullptr ? options.env : Env::Default();
  std::string db_absolute_path;
  Status s = env->GetAbsolutePath(dbname, &db_absolute_path);
  if (!s.ok()) return s;
  if (options.log_file_time_to_roll > 0 || options.max_log_file_size > 0) {
    return Status::NotSupported(
        "CreateLoggerFromOptions: a rolling info log (max_log_file_size, log_file_time_to_roll) "
        "is not supported by Strata here; DB::Open makes one");
  }
  std::string fname;
  std::string old_prefix;
  if (options.db_log_dir.empty()) {
    fname = dbname + "/LOG";
    old_prefix = dbname + "/LOG.old.";
  } else {
    const std::string prefix = options.db_log_dir + "/" + InfoLogPrefix(db_absolute_path);
    fname = prefix + "_LOG";
    old_prefix = prefix + "_LOG.old.";
  }
  env->CreateDirIfMissing(dbname).PermitUncheckedError();
  env->RenameFile(fname, old_prefix + std::to_string(env->NowMicros())).PermitUncheckedError();
  s = env->NewLogger(fname, logger);
  if (*logger != nullptr) {
    (*logger)->SetInfoLogLevel(options.info_log_level);
  }
  return s;
}

// ---- plain-table options, memtable factories ----

namespace {

const std::unordered_map<std::string, EncodingType> kEncodingTypes = {{"kPlain", kPlain},
                                                                      {"kPrefix", kPrefix}};

const std::unordered_map<std::string, OptionTypeInfo> kPlainTableTypeInfo = {
    {"user_key_len", {offsetof(PlainTableOptions, user_key_len), OptionType::kUInt32T}},
    {"bloom_bits_per_key", {offsetof(PlainTableOptions, bloom_bits_per_key), OptionType::kInt}},
    {"hash_table_ratio", {offsetof(PlainTableOptions, hash_table_ratio), OptionType::kDouble}},
    {"index_sparseness", {offsetof(PlainTableOptions, index_sparseness), OptionType::kSizeT}},
    {"huge_page_tlb_size", {offsetof(PlainTableOptions, huge_page_tlb_size), OptionType::kSizeT}},
    {"encoding_type", OptionTypeInfo::Enum<EncodingType>(offsetof(PlainTableOptions, encoding_type),
                                                         &kEncodingTypes)},
    {"full_scan_mode", {offsetof(PlainTableOptions, full_scan_mode), OptionType::kBoolean}},
    {"store_index_in_file",
     {offsetof(PlainTableOptions, store_index_in_file), OptionType::kBoolean}},
};

// The options of a plain table as a Configurable (RocksDB's PlainTableFactory
// registers the same map).
class PlainTableConfig : public Configurable {
 public:
  explicit PlainTableConfig(const PlainTableOptions& options) : options_(options) {
    RegisterOptions(&options_, &kPlainTableTypeInfo);
  }
  const PlainTableOptions& options() const { return options_; }

 private:
  PlainTableOptions options_;
};

}  // namespace

Status GetPlainTableOptionsFromMap(const ConfigOptions& config_options,
                                   const PlainTableOptions& table_options,
                                   const std::unordered_map<std::string, std::string>& opts_map,
                                   PlainTableOptions* new_table_options) {
  PlainTableConfig config(table_options);
  Status s = config.ConfigureFromMap(config_options, opts_map);
  *new_table_options = s.ok() ? config.options() : table_options;
  return s;
}

Status GetPlainTableOptionsFromMap(const PlainTableOptions& table_options,
                                   const std::unordered_map<std::string, std::string>& opts_map,
                                   PlainTableOptions* new_table_options, bool input_strings_escaped,
                                   bool ignore_unknown_options) {
  ConfigOptions config_options;
  config_options.input_strings_escaped = input_strings_escaped;
  config_options.ignore_unknown_options = ignore_unknown_options;
  return GetPlainTableOptionsFromMap(config_options, table_options, opts_map, new_table_options);
}

Status GetPlainTableOptionsFromString(const PlainTableOptions& table_options,
                                      const std::string& opts_str,
                                      PlainTableOptions* new_table_options) {
  ConfigOptions config_options;
  config_options.input_strings_escaped = false;
  config_options.ignore_unknown_options = false;
  config_options.invoke_prepare_options = false;
  return GetPlainTableOptionsFromString(config_options, table_options, opts_str, new_table_options);
}

Status GetPlainTableOptionsFromString(const ConfigOptions& config_options,
                                      const PlainTableOptions& table_options,
                                      const std::string& opts_str,
                                      PlainTableOptions* new_table_options) {
  std::unordered_map<std::string, std::string> opts_map;
  Status s = StringToMap(opts_str, &opts_map);
  if (!s.ok()) return s;
  s = GetPlainTableOptionsFromMap(config_options, table_options, opts_map, new_table_options);
  // As RocksDB: every failure reads as InvalidArgument.
  if (s.ok() || s.IsInvalidArgument()) return s;
  return Status::InvalidArgument(s.getState());
}

Status GetMemTableRepFactoryFromString(const std::string& opts_str,
                                       std::unique_ptr<MemTableRepFactory>* new_mem_factory) {
  ConfigOptions config_options;
  config_options.ignore_unsupported_options = false;
  config_options.ignore_unknown_options = false;
  // RocksDB 7.8.3 registers "cuckoo" only to refuse it.
  if (opts_str == "cuckoo") {
    return Status::InvalidArgument("cuckoo hash memtable is not supported anymore.", opts_str);
  }
  return MemTableRepFactory::CreateFromString(config_options, opts_str, new_mem_factory);
}

// ---- EventListener::CreateFromString ----

Status EventListener::CreateFromString(const ConfigOptions& options, const std::string& id,
                                       std::shared_ptr<EventListener>* result) {
  const std::string value = [&]() {
    const size_t b = id.find_first_not_of(" ");
    const size_t e = id.find_last_not_of(" ");
    return b == std::string::npos ? std::string() : id.substr(b, e - b + 1);
  }();
  if (value.empty() || value == "nullptr") {
    result->reset();
    return Status::OK();
  }
  if (value.find('=') != std::string::npos) {
    return Status::NotSupported(
        "EventListener::CreateFromString: options for a listener are not supported by Strata",
        value);
  }
  if (options.registry == nullptr)
    return Status::InvalidArgument("ConfigOptions::registry is null");
  std::shared_ptr<EventListener> made;
  Status s = options.registry->NewSharedObject<EventListener>(value, &made);
  if (s.ok()) {
    *result = std::move(made);
  } else if (s.IsNotSupported() && options.ignore_unsupported_options) {
    s = Status::OK();
  }
  return s;
}

// ---- CheckOptionsCompatibility ----

namespace {

using Section = std::map<std::string, std::string>;

// An OPTIONS file: [DBOptions], then per family [CFOptions "name"] and
// [TableOptions/<Factory> "name"], each of "name=value" lines.
struct OptionsFile {
  Section db;
  std::vector<std::string> cf_names;
  std::vector<Section> cf;
  std::vector<std::string> table_factory;  // per family; "" if none
  std::vector<Section> table;
};

std::string Trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

Status ReadOptionsFile(Env* env, const std::string& fname, OptionsFile* out) {
  std::string data;
  Status s = ReadFileToString(env, fname, &data);
  if (!s.ok()) return s;
  Section* cur = nullptr;
  size_t pos = 0;
  while (pos < data.size()) {
    size_t nl = data.find('\n', pos);
    if (nl == std::string::npos) nl = data.size();
    std::string line = data.substr(pos, nl - pos);
    pos = nl + 1;
    const size_t hash = line.find('#');
    if (hash != std::string::npos) line = line.substr(0, hash);
    line = Trim(line);
    if (line.empty()) continue;
    if (line.front() == '[' && line.back() == ']') {
      const std::string title = line.substr(1, line.size() - 2);
      std::string arg;
      const size_t q1 = title.find('"');
      const size_t q2 = title.rfind('"');
      if (q1 != std::string::npos && q2 > q1) arg = title.substr(q1 + 1, q2 - q1 - 1);
      const std::string head = Trim(title.substr(0, q1));
      if (head == "DBOptions") {
        cur = &out->db;
      } else if (head == "CFOptions") {
        out->cf_names.push_back(arg);
        out->cf.emplace_back();
        out->table_factory.emplace_back();
        out->table.emplace_back();
        cur = &out->cf.back();
      } else if (head.rfind("TableOptions/", 0) == 0) {
        const auto it = std::find(out->cf_names.begin(), out->cf_names.end(), arg);
        if (it == out->cf_names.end()) {
          cur = nullptr;
        } else {
          const size_t i = static_cast<size_t>(it - out->cf_names.begin());
          out->table_factory[i] = head.substr(13);
          cur = &out->table[i];
        }
      } else {
        cur = nullptr;  // [Version] and others
      }
      continue;
    }
    const size_t eq = line.find('=');
    if (cur == nullptr || eq == std::string::npos) continue;
    (*cur)[Trim(line.substr(0, eq))] = Trim(line.substr(eq + 1));
  }
  if (out->cf_names.empty()) {
    return Status::Corruption("[RocksDBOptionsParser]: no CFOptions section in " + fname);
  }
  return Status::OK();
}

// An object written by name: "nullptr" is none.
std::string NamedValue(const Section& section, const std::string& name) {
  const auto it = section.find(name);
  if (it == section.end() || it->second == "nullptr") return "";
  return it->second;
}

std::map<std::string, std::string> ToMap(const std::string& text) {
  std::map<std::string, std::string> out;
  for (auto& [k, v] : SplitOptions(text)) out[k] = v;
  return out;
}

// Keys compared by name (or not at all) rather than by value.
bool IsObjectKey(const std::string& key) {
  static const char* const kKeys[] = {"comparator",
                                      "merge_operator",
                                      "compaction_filter",
                                      "compaction_filter_factory",
                                      "table_factory",
                                      "block_based_table_factory",
                                      "prefix_extractor",
                                      "memtable_factory",
                                      "sst_partitioner_factory",
                                      "env",
                                      "file_checksum_gen_factory",
                                      "rate_limiter",
                                      "wal_filter",
                                      "statistics"};
  for (const char* k : kKeys) {
    if (key == k) return true;
  }
  return false;
}

// The first key of `given` (sorted) whose value differs from the same key of
// `persisted` (both written by the same serializer); "" if none.
std::string FirstMismatch(const std::map<std::string, std::string>& given,
                          const std::map<std::string, std::string>& persisted,
                          std::string* given_value, std::string* persisted_value) {
  for (const auto& [k, v] : given) {
    if (IsObjectKey(k)) continue;
    const auto it = persisted.find(k);
    if (it == persisted.end() || it->second == v) continue;
    *given_value = v;
    *persisted_value = it->second;
    return k;
  }
  return "";
}

Status Mismatch(const std::string& what, const std::string& sep, const std::string& name,
                const std::string& given, const std::string& persisted) {
  return Status::InvalidArgument("[RocksDBOptionsParser]: failed the verification on " + what +
                                 "::" + name + sep + "The specified one is " + given +
                                 " while the persisted one is " + persisted + ".\n");
}

// Parses a section of the file as `T` through the same parser as given
// options, and serializes it back, so both sides read in one format.
template <typename T, typename Parse, typename Write>
Status Normalize(const ConfigOptions& config, const Section& section, Parse parse, Write write,
                 std::map<std::string, std::string>* out) {
  std::unordered_map<std::string, std::string> map;
  for (const auto& [k, v] : section) {
    if (!IsObjectKey(k)) map[k] = v;
  }
  T parsed;
  Status s = parse(config, T(), map, &parsed);
  if (!s.ok()) return s;
  std::string text;
  s = write(config, parsed, &text);
  if (s.ok()) *out = ToMap(text);
  return s;
}

}  // namespace

Status CheckOptionsCompatibility(const std::string& dbpath, Env* env, const DBOptions& db_options,
                                 const std::vector<ColumnFamilyDescriptor>& cf_descs,
                                 bool ignore_unknown_options) {
  ConfigOptions config_options(db_options);
  config_options.sanity_level = ConfigOptions::kSanityLevelLooselyCompatible;
  config_options.ignore_unknown_options = ignore_unknown_options;
  config_options.input_strings_escaped = true;
  config_options.env = env;
  return CheckOptionsCompatibility(config_options, dbpath, db_options, cf_descs);
}

Status CheckOptionsCompatibility(const ConfigOptions& config_options, const std::string& dbpath,
                                 const DBOptions& db_options,
                                 const std::vector<ColumnFamilyDescriptor>& cf_descs) {
  Env* env = config_options.env != nullptr ? config_options.env : Env::Default();
  std::string options_file_name;
  Status s = GetLatestOptionsFileName(dbpath, env, &options_file_name);
  if (!s.ok()) return s;
  OptionsFile file;
  s = ReadOptionsFile(env, dbpath + "/" + options_file_name, &file);
  if (!s.ok()) return s;

  ConfigOptions parse_config = config_options;
  parse_config.ignore_unknown_options = true;  // the file may be newer
  parse_config.delimiter = ";";
  const bool exact = config_options.sanity_level >= ConfigOptions::kSanityLevelExactMatch;
  const bool loose = config_options.sanity_level >= ConfigOptions::kSanityLevelLooselyCompatible;

  if (exact) {
    std::map<std::string, std::string> persisted;
    s = Normalize<DBOptions>(
        parse_config, file.db,
        [](const ConfigOptions& c, const DBOptions& b,
           const std::unordered_map<std::string, std::string>& m,
           DBOptions* o) { return GetDBOptionsFromMap(c, b, m, o); },
        [](const ConfigOptions& c, const DBOptions& o, std::string* t) {
          return GetStringFromDBOptions(c, o, t);
        },
        &persisted);
    if (!s.ok()) return s;
    std::string text;
    s = GetStringFromDBOptions(parse_config, db_options, &text);
    if (!s.ok()) return s;
    std::string gv, pv;
    const std::string name = FirstMismatch(ToMap(text), persisted, &gv, &pv);
    if (!name.empty()) return Mismatch("DBOptions", " -- -- ", name, gv, pv);
  }

  if (cf_descs.size() != file.cf_names.size()) {
    if (loose) {
      return Status::InvalidArgument(
          "[RocksDBOptionParser Error] The persisted options does not have the same number of "
          "column family names as the db instance.");
    } else if (cf_descs.size() > file.cf_names.size()) {
      return Status::InvalidArgument(
          "[RocksDBOptionsParser Error]",
          "The persisted options file has less number of column family names than that of the "
          "specified one.");
    }
  }
  for (size_t i = 0; i < cf_descs.size() && i < file.cf_names.size(); i++) {
    if (cf_descs[i].name != file.cf_names[i]) {
      return Status::InvalidArgument(
          "[RocksDBOptionParser Error] The persisted options and the dbinstance does not have "
          "the same name for column family ",
          std::to_string(i));
    }
  }
  if (!loose) return Status::OK();

  for (size_t i = 0; i < cf_descs.size() && i < file.cf.size(); i++) {
    const ColumnFamilyOptions& cf = cf_descs[i].options;
    const Section& persisted_cf = file.cf[i];
    // Loose: the objects compared by name.
    const std::string given_cmp = cf.comparator != nullptr ? cf.comparator->Name() : "";
    const std::string file_cmp = NamedValue(persisted_cf, "comparator");
    if (!file_cmp.empty() && given_cmp != file_cmp) {
      return Mismatch("ColumnFamilyOptions", "--- ", "comparator", given_cmp, file_cmp);
    }
    const std::string given_merge = cf.merge_operator != nullptr ? cf.merge_operator->Name() : "";
    const std::string file_merge = NamedValue(persisted_cf, "merge_operator");
    // A persisted null is compatible with any (RocksDB's kByNameAllowFromNull).
    if (!file_merge.empty() && given_merge != file_merge) {
      return Mismatch("ColumnFamilyOptions", "--- ", "merge_operator",
                      given_merge.empty() ? "nullptr" : given_merge, file_merge);
    }
    const std::string given_tf = cf.table_factory != nullptr ? cf.table_factory->Name()
                                                             : TableFactory::kBlockBasedTableName();
    // (A family option compared by name, as RocksDB's, before the table's
    // own options.)
    if (!file.table_factory[i].empty() && given_tf != file.table_factory[i]) {
      return Mismatch("ColumnFamilyOptions", "--- ", "table_factory", given_tf,
                      file.table_factory[i]);
    }
    if (!exact) continue;
    std::map<std::string, std::string> persisted;
    s = Normalize<ColumnFamilyOptions>(
        parse_config, persisted_cf,
        [](const ConfigOptions& c, const ColumnFamilyOptions& b,
           const std::unordered_map<std::string, std::string>& m,
           ColumnFamilyOptions* o) { return GetColumnFamilyOptionsFromMap(c, b, m, o); },
        [](const ConfigOptions& c, const ColumnFamilyOptions& o, std::string* t) {
          return GetStringFromColumnFamilyOptions(c, o, t);
        },
        &persisted);
    if (!s.ok()) return s;
    std::string text;
    s = GetStringFromColumnFamilyOptions(parse_config, cf, &text);
    if (!s.ok()) return s;
    std::string gv, pv;
    const std::string name = FirstMismatch(ToMap(text), persisted, &gv, &pv);
    if (!name.empty()) return Mismatch("ColumnFamilyOptions", "--- ", name, gv, pv);
    // The block-based table's options.
    if (file.table_factory[i] == TableFactory::kBlockBasedTableName()) {
      BlockBasedTableOptions persisted_table;
      std::unordered_map<std::string, std::string> map(file.table[i].begin(), file.table[i].end());
      for (auto it = map.begin(); it != map.end();) {
        it = IsObjectKey(it->first) || it->first == "filter_policy" || it->first == "block_cache" ||
                     it->first == "flush_block_policy_factory"
                 ? map.erase(it)
                 : std::next(it);
      }
      s = GetBlockBasedTableOptionsFromMap(parse_config, BlockBasedTableOptions(), map,
                                           &persisted_table);
      if (!s.ok()) return s;
      const BlockBasedTableOptions given_table = cf.table_factory != nullptr
                                                     ? cf.table_factory->table_options()
                                                     : BlockBasedTableOptions();
      ColumnFamilyOptions a, b;
      a.table_factory.reset(NewBlockBasedTableFactory(given_table));
      b.table_factory.reset(NewBlockBasedTableFactory(persisted_table));
      std::string ta, tb;
      s = GetStringFromColumnFamilyOptions(parse_config, a, &ta);
      if (s.ok()) s = GetStringFromColumnFamilyOptions(parse_config, b, &tb);
      if (!s.ok()) return s;
      auto ma = ToMap(ta), mb = ToMap(tb);
      const std::string key = "block_based_table_factory";
      if (ma.count(key) != 0 && mb.count(key) != 0) {
        const auto ia = ToMap(ma[key].substr(1, ma[key].size() - 2));
        const auto ib = ToMap(mb[key].substr(1, mb[key].size() - 2));
        const std::string tname = FirstMismatch(ia, ib, &gv, &pv);
        if (!tname.empty()) {
          return Status::Corruption(
              "[RocksDBOptionsParser]:failed the verification on BlockBasedTable::", tname);
        }
      }
    }
  }
  return Status::OK();
}

}  // namespace rocksdb
