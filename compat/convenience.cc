// compat/convenience.cc: rocksdb/convenience.h and
// rocksdb/utilities/options_util.h over Strata's option parser and OPTIONS
// file reader. Each call converts the RocksDB base options to Strata's,
// lets Strata apply the text (or read the file), and converts the result
// back with options_convert's ConvertBack*, which leaves the fields Strata
// lacks as the base had them.
#include "rocksdb/convenience.h"

#include "compat/options_convert.h"
#include "rocksdb/sst_file_reader.h"
#include "rocksdb/utilities/options_util.h"
#include "strata/convenience.h"
#include "strata/db.h"
#include "strata/utilities/options_util.h"

namespace rocksdb {
namespace {

using StringMap = std::unordered_map<std::string, std::string>;

::strata::ConfigOptions ToStrata(const ConfigOptions& in) {
  ::strata::ConfigOptions out;
  out.ignore_unknown_options = in.ignore_unknown_options;
  out.ignore_unsupported_options = in.ignore_unsupported_options;
  out.input_strings_escaped = in.input_strings_escaped;
  out.mutable_options_only = in.mutable_options_only;
  out.delimiter = in.delimiter;
  out.env = in.env != nullptr ? in.env->GetStrataEnv() : ::strata::Env::Default();
  return out;
}

}  // namespace

ConfigOptions::operator ::strata::ConfigOptions() const { return ToStrata(*this); }

namespace {

ConfigOptions Legacy(bool input_strings_escaped, bool ignore_unknown_options) {
  ConfigOptions c;
  c.input_strings_escaped = input_strings_escaped;
  c.ignore_unknown_options = ignore_unknown_options;
  return c;
}

// The three shapes of "base + text -> new": Strata type S, RocksDB type R.
// apply(strata_config, strata_base, strata_new) runs Strata's parser.
template <typename R, typename S, typename Forward, typename Back, typename Apply>
Status ParseInto(const ConfigOptions& config, const R& base, R* out, Forward forward, Back back,
                 Apply apply) {
  S strata_base;
  Status s = forward(base, &strata_base);
  if (s.ok()) {
    S strata_new = strata_base;
    s = apply(ToStrata(config), strata_base, &strata_new);
    if (s.ok()) {
      R result = base;
      back(strata_new, &result);
      *out = std::move(result);
      return s;
    }
  }
  *out = base;
  return s;
}

Status ForwardDB(const DBOptions& in, ::strata::DBOptions* out) {
  return compat::ConvertDBOptions(in, out);
}
void BackDB(const ::strata::DBOptions& in, DBOptions* out) {
  compat::ConvertBackDBOptions(in, out);
}
Status ForwardCF(const ColumnFamilyOptions& in, ::strata::ColumnFamilyOptions* out) {
  return compat::ConvertCFOptions(in, out);
}
void BackCF(const ::strata::ColumnFamilyOptions& in, ColumnFamilyOptions* out) {
  compat::ConvertBackCFOptions(in, out);
}
Status ForwardAll(const Options& in, ::strata::Options* out) {
  return compat::ConvertOptions(in, out);
}
void BackAll(const ::strata::Options& in, Options* out) { compat::ConvertBackOptions(in, out); }
Status ForwardTable(const BlockBasedTableOptions& in, ::strata::BlockBasedTableOptions* out) {
  return compat::ConvertTableOptions(in, out);
}

Status DBFromString(const ConfigOptions& c, const DBOptions& base, const std::string& text,
                    DBOptions* out) {
  return ParseInto<DBOptions, ::strata::DBOptions>(
      c, base, out, ForwardDB, BackDB,
      [&](const ::strata::ConfigOptions& sc, const ::strata::DBOptions& sb,
          ::strata::DBOptions* sn) { return ::strata::GetDBOptionsFromString(sc, sb, text, sn); });
}

Status CFFromString(const ConfigOptions& c, const ColumnFamilyOptions& base,
                    const std::string& text, ColumnFamilyOptions* out) {
  return ParseInto<ColumnFamilyOptions, ::strata::ColumnFamilyOptions>(
      c, base, out, ForwardCF, BackCF,
      [&](const ::strata::ConfigOptions& sc, const ::strata::ColumnFamilyOptions& sb,
          ::strata::ColumnFamilyOptions* sn) {
        return ::strata::GetColumnFamilyOptionsFromString(sc, sb, text, sn);
      });
}

// Table options: the back conversion keeps base's filter policy object
// when the policy underneath is unchanged.
template <typename Apply>
Status TableInto(const ConfigOptions& c, const BlockBasedTableOptions& base,
                 BlockBasedTableOptions* out, Apply apply) {
  return ParseInto<BlockBasedTableOptions, ::strata::BlockBasedTableOptions>(
      c, base, out, ForwardTable,
      [&base](const ::strata::BlockBasedTableOptions& in, BlockBasedTableOptions* o) {
        compat::ConvertBackTableOptions(in, &base, o);
      },
      apply);
}

Status TableFromString(const ConfigOptions& c, const BlockBasedTableOptions& base,
                       const std::string& text, BlockBasedTableOptions* out) {
  return TableInto(
      c, base, out,
      [&](const ::strata::ConfigOptions& sc, const ::strata::BlockBasedTableOptions& sb,
          ::strata::BlockBasedTableOptions* sn) {
        return ::strata::GetBlockBasedTableOptionsFromString(sc, sb, text, sn);
      });
}

// Converts what Strata read from an OPTIONS file.
void BackLoaded(const ::strata::DBOptions& db_in,
                const std::vector<::strata::ColumnFamilyDescriptor>& cfs_in, DBOptions* db_out,
                std::vector<ColumnFamilyDescriptor>* cfs_out) {
  DBOptions db;
  compat::ConvertBackDBOptions(db_in, &db);
  *db_out = std::move(db);
  cfs_out->clear();
  for (const ::strata::ColumnFamilyDescriptor& d : cfs_in) {
    ColumnFamilyOptions cf;
    compat::ConvertBackCFOptions(d.options, &cf);
    cfs_out->emplace_back(d.name, cf);
  }
}

}  // namespace

// ---- maps ----

Status GetColumnFamilyOptionsFromMap(const ConfigOptions& config_options,
                                     const ColumnFamilyOptions& base_options,
                                     const StringMap& opts_map, ColumnFamilyOptions* new_options) {
  return ParseInto<ColumnFamilyOptions, ::strata::ColumnFamilyOptions>(
      config_options, base_options, new_options, ForwardCF, BackCF,
      [&](const ::strata::ConfigOptions& sc, const ::strata::ColumnFamilyOptions& sb,
          ::strata::ColumnFamilyOptions* sn) {
        return ::strata::GetColumnFamilyOptionsFromMap(sc, sb, opts_map, sn);
      });
}

Status GetColumnFamilyOptionsFromMap(const ColumnFamilyOptions& base_options,
                                     const StringMap& opts_map, ColumnFamilyOptions* new_options,
                                     bool input_strings_escaped, bool ignore_unknown_options) {
  return GetColumnFamilyOptionsFromMap(Legacy(input_strings_escaped, ignore_unknown_options),
                                       base_options, opts_map, new_options);
}

Status GetDBOptionsFromMap(const ConfigOptions& cfg_options, const DBOptions& base_options,
                           const StringMap& opts_map, DBOptions* new_options) {
  return ParseInto<DBOptions, ::strata::DBOptions>(
      cfg_options, base_options, new_options, ForwardDB, BackDB,
      [&](const ::strata::ConfigOptions& sc, const ::strata::DBOptions& sb,
          ::strata::DBOptions* sn) { return ::strata::GetDBOptionsFromMap(sc, sb, opts_map, sn); });
}

Status GetDBOptionsFromMap(const DBOptions& base_options, const StringMap& opts_map,
                           DBOptions* new_options, bool input_strings_escaped,
                           bool ignore_unknown_options) {
  return GetDBOptionsFromMap(Legacy(input_strings_escaped, ignore_unknown_options), base_options,
                             opts_map, new_options);
}

Status GetBlockBasedTableOptionsFromMap(const ConfigOptions& config_options,
                                        const BlockBasedTableOptions& table_options,
                                        const StringMap& opts_map,
                                        BlockBasedTableOptions* new_table_options) {
  return TableInto(
      config_options, table_options, new_table_options,
      [&](const ::strata::ConfigOptions& sc, const ::strata::BlockBasedTableOptions& sb,
          ::strata::BlockBasedTableOptions* sn) {
        return ::strata::GetBlockBasedTableOptionsFromMap(sc, sb, opts_map, sn);
      });
}

Status GetBlockBasedTableOptionsFromMap(const BlockBasedTableOptions& table_options,
                                        const StringMap& opts_map,
                                        BlockBasedTableOptions* new_table_options,
                                        bool input_strings_escaped, bool ignore_unknown_options) {
  return GetBlockBasedTableOptionsFromMap(Legacy(input_strings_escaped, ignore_unknown_options),
                                          table_options, opts_map, new_table_options);
}

// ---- strings ----

Status GetColumnFamilyOptionsFromString(const ConfigOptions& config_options,
                                        const ColumnFamilyOptions& base_options,
                                        const std::string& opts_str,
                                        ColumnFamilyOptions* new_options) {
  return CFFromString(config_options, base_options, opts_str, new_options);
}

Status GetColumnFamilyOptionsFromString(const ColumnFamilyOptions& base_options,
                                        const std::string& opts_str,
                                        ColumnFamilyOptions* new_options) {
  return CFFromString(Legacy(false, false), base_options, opts_str, new_options);
}

Status GetDBOptionsFromString(const ConfigOptions& config_options, const DBOptions& base_options,
                              const std::string& opts_str, DBOptions* new_options) {
  return DBFromString(config_options, base_options, opts_str, new_options);
}

Status GetDBOptionsFromString(const DBOptions& base_options, const std::string& opts_str,
                              DBOptions* new_options) {
  return DBFromString(Legacy(false, false), base_options, opts_str, new_options);
}

Status GetBlockBasedTableOptionsFromString(const BlockBasedTableOptions& table_options,
                                           const std::string& opts_str,
                                           BlockBasedTableOptions* new_table_options) {
  return TableFromString(Legacy(false, false), table_options, opts_str, new_table_options);
}

Status GetBlockBasedTableOptionsFromString(const ConfigOptions& config_options,
                                           const BlockBasedTableOptions& table_options,
                                           const std::string& opts_str,
                                           BlockBasedTableOptions* new_table_options) {
  return TableFromString(config_options, table_options, opts_str, new_table_options);
}

Status GetOptionsFromString(const ConfigOptions& config_options, const Options& base_options,
                            const std::string& opts_str, Options* new_options) {
  return ParseInto<Options, ::strata::Options>(
      config_options, base_options, new_options, ForwardAll, BackAll,
      [&](const ::strata::ConfigOptions& sc, const ::strata::Options& sb, ::strata::Options* sn) {
        return ::strata::GetOptionsFromString(sc, sb, opts_str, sn);
      });
}

Status GetOptionsFromString(const Options& base_options, const std::string& opts_str,
                            Options* new_options) {
  return GetOptionsFromString(Legacy(false, false), base_options, opts_str, new_options);
}

Status GetStringFromDBOptions(const ConfigOptions& config_options, const DBOptions& db_options,
                              std::string* opts_str) {
  ::strata::DBOptions s;
  Status st = compat::ConvertDBOptions(db_options, &s);
  if (!st.ok()) return st;
  return ::strata::GetStringFromDBOptions(ToStrata(config_options), s, opts_str);
}

Status GetStringFromDBOptions(std::string* opts_str, const DBOptions& db_options,
                              const std::string& delimiter) {
  ConfigOptions c;
  c.delimiter = delimiter;
  return GetStringFromDBOptions(c, db_options, opts_str);
}

Status GetStringFromColumnFamilyOptions(const ConfigOptions& config_options,
                                        const ColumnFamilyOptions& cf_options,
                                        std::string* opts_str) {
  ::strata::ColumnFamilyOptions s;
  Status st = compat::ConvertCFOptions(cf_options, &s);
  if (!st.ok()) return st;
  return ::strata::GetStringFromColumnFamilyOptions(ToStrata(config_options), s, opts_str);
}

Status GetStringFromColumnFamilyOptions(std::string* opts_str,
                                        const ColumnFamilyOptions& cf_options,
                                        const std::string& delimiter) {
  ConfigOptions c;
  c.delimiter = delimiter;
  return GetStringFromColumnFamilyOptions(c, cf_options, opts_str);
}

Status StringToMap(const std::string& opts_str, StringMap* opts_map) {
  return ::strata::StringToMap(opts_str, opts_map);
}

// ---- files of key ranges ----

Status DeleteFilesInRange(DB* db, ColumnFamilyHandle* column_family, const Slice* begin,
                          const Slice* end, bool include_end) {
  return ::strata::DeleteFilesInRange(db->GetStrataDB(), column_family, begin, end, include_end);
}

Status DeleteFilesInRanges(DB* db, ColumnFamilyHandle* column_family, const RangePtr* ranges,
                           size_t n, bool include_end) {
  return ::strata::DeleteFilesInRanges(db->GetStrataDB(), column_family, ranges, n, include_end);
}

// ---- compression types, background work, table files ----

Status GetStringFromCompressionType(std::string* compression_str,
                                    CompressionType compression_type) {
  if (compression_type == kZSTDNotFinalCompression) {
    *compression_str = "kZSTDNotFinalCompression";
    return Status::OK();
  }
  return ::strata::GetStringFromCompressionType(
      compression_str, static_cast<::strata::CompressionType>(compression_type));
}

std::vector<CompressionType> GetSupportedCompressions() {
  std::vector<CompressionType> out;
  for (::strata::CompressionType t : ::strata::GetSupportedCompressions()) {
    out.push_back(static_cast<CompressionType>(t));
  }
  return out;
}

void CancelAllBackgroundWork(DB* db, bool /*wait*/) {
  // A second call (already paused) changes nothing.
  db->GetStrataDB()->PauseBackgroundWork().PermitUncheckedError();
}

Status VerifySstFileChecksum(const Options& options, const EnvOptions& env_options,
                             const std::string& file_path) {
  return VerifySstFileChecksum(options, env_options, ReadOptions(), file_path);
}

Status VerifySstFileChecksum(const Options& options, const EnvOptions& /*env_options*/,
                             const ReadOptions& read_options, const std::string& file_path,
                             const SequenceNumber& /*largest_seqno*/) {
  SstFileReader reader(options);
  Status s = reader.Open(file_path);
  return s.ok() ? reader.VerifyChecksum(read_options) : s;
}

// ---- OPTIONS files ----

Status LoadLatestOptions(const ConfigOptions& config_options, const std::string& dbpath,
                         DBOptions* db_options, std::vector<ColumnFamilyDescriptor>* cf_descs,
                         std::shared_ptr<Cache>* cache) {
  ::strata::DBOptions db;
  std::vector<::strata::ColumnFamilyDescriptor> cfs;
  Status s = ::strata::LoadLatestOptions(ToStrata(config_options), dbpath, &db, &cfs, cache);
  if (s.ok()) BackLoaded(db, cfs, db_options, cf_descs);
  return s;
}

Status LoadLatestOptions(const std::string& dbpath, Env* env, DBOptions* db_options,
                         std::vector<ColumnFamilyDescriptor>* cf_descs, bool ignore_unknown_options,
                         std::shared_ptr<Cache>* cache) {
  ConfigOptions c;
  c.ignore_unknown_options = ignore_unknown_options;
  c.input_strings_escaped = true;
  c.env = env;
  return LoadLatestOptions(c, dbpath, db_options, cf_descs, cache);
}

Status LoadOptionsFromFile(const ConfigOptions& config_options,
                           const std::string& options_file_name, DBOptions* db_options,
                           std::vector<ColumnFamilyDescriptor>* cf_descs,
                           std::shared_ptr<Cache>* cache) {
  ::strata::DBOptions db;
  std::vector<::strata::ColumnFamilyDescriptor> cfs;
  Status s =
      ::strata::LoadOptionsFromFile(ToStrata(config_options), options_file_name, &db, &cfs, cache);
  if (s.ok()) BackLoaded(db, cfs, db_options, cf_descs);
  return s;
}

Status LoadOptionsFromFile(const std::string& options_file_name, Env* env, DBOptions* db_options,
                           std::vector<ColumnFamilyDescriptor>* cf_descs,
                           bool ignore_unknown_options, std::shared_ptr<Cache>* cache) {
  ConfigOptions c;
  c.ignore_unknown_options = ignore_unknown_options;
  c.env = env;
  return LoadOptionsFromFile(c, options_file_name, db_options, cf_descs, cache);
}

Status GetLatestOptionsFileName(const std::string& dbpath, Env* env,
                                std::string* options_file_name) {
  Status s = ::strata::GetLatestOptionsFileName(
      dbpath, env != nullptr ? env->GetStrataEnv() : ::strata::Env::Default(), options_file_name);
  // A missing directory is RocksDB's NotFound (its directory listing says
  // NotFound where Strata's says IOError).
  if (s.IsIOError() && (env != nullptr ? env : Env::Default())->FileExists(dbpath).IsNotFound()) {
    return Status::NotFound("No options files found in the DB directory.", dbpath);
  }
  return s;
}

}  // namespace rocksdb
