// LoadLatestOptions and friends (strata/utilities/options_util.h): the
// OPTIONS file's sections, each read through the option table
// (db/options_helper.h). File format: docs/format/options.md.
#include "strata/utilities/options_util.h"

#include <map>

#include "db/filename.h"
#include "db/options_helper.h"

namespace strata {

namespace {

std::string Trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

// One [section] of the file and its name=value lines.
struct Section {
  std::string header;  // "DBOptions", "CFOptions", "TableOptions/BlockBasedTable", ...
  std::string arg;     // the quoted family name, if any
  int line = 0;
  OptionsMap values;
};

Status ParseSections(const std::string& path, const std::string& text, std::vector<Section>* out) {
  size_t start = 0;
  int line_no = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = Trim(text.substr(start, end - start));
    start = end + 1;
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    if (line[0] == '[') {
      if (line.back() != ']') {
        return Status::InvalidArgument(path + ":" + std::to_string(line_no),
                                       "malformed section header: " + line);
      }
      Section s;
      s.line = line_no;
      std::string inner = line.substr(1, line.size() - 2);
      const size_t quote = inner.find('"');
      if (quote != std::string::npos) {
        const size_t close = inner.rfind('"');
        if (close == quote) {
          return Status::InvalidArgument(path + ":" + std::to_string(line_no),
                                         "unterminated quote: " + line);
        }
        s.arg = inner.substr(quote + 1, close - quote - 1);
        inner = Trim(inner.substr(0, quote));
      }
      s.header = inner;
      out->push_back(std::move(s));
      continue;
    }
    const size_t eq = line.find('=');
    if (eq == std::string::npos || out->empty()) {
      return Status::InvalidArgument(path + ":" + std::to_string(line_no),
                                     "expected name=value inside a section: " + line);
    }
    out->back().values[Trim(line.substr(0, eq))] = Trim(line.substr(eq + 1));
  }
  return Status::OK();
}

Status Located(const std::string& path, const Section& s, const Status& st) {
  if (st.ok()) return st;
  std::string where = path + ": [" + s.header + (s.arg.empty() ? "" : " \"" + s.arg + "\"") + "]";
  return Status::InvalidArgument(where, st.ToString());
}

}  // namespace

Status LoadOptionsFromFile(const ConfigOptions& config_options,
                           const std::string& options_file_name, DBOptions* db_options,
                           std::vector<ColumnFamilyDescriptor>* cf_descs,
                           std::shared_ptr<Cache>* cache) {
  Env* env = config_options.env != nullptr ? config_options.env : Env::Default();
  std::string text;
  Status s = ReadFileToString(env->GetFileSystem(), options_file_name, &text);
  if (!s.ok()) return s;
  std::vector<Section> sections;
  s = ParseSections(options_file_name, text, &sections);
  if (!s.ok()) return s;

  DBOptions db;
  std::vector<ColumnFamilyDescriptor> families;
  std::map<std::string, size_t> index;
  std::string subcompactions;  // RocksDB's DB option, a family option here
  bool saw_db = false;
  for (const Section& sec : sections) {
    if (sec.header == "Version") continue;
    if (sec.header == "DBOptions") {
      OptionsMap values = sec.values;
      if (auto it = values.find("max_subcompactions"); it != values.end()) {
        subcompactions = it->second;
        values.erase(it);
      }
      s = Located(options_file_name, sec, ApplyDBOptionsMap(config_options, values, &db));
      if (!s.ok()) return s;
      saw_db = true;
    } else if (sec.header == "CFOptions") {
      if (index.count(sec.arg) != 0) {
        return Located(options_file_name, sec, Status::InvalidArgument("family listed twice"));
      }
      ColumnFamilyOptions cf;
      s = Located(options_file_name, sec, ApplyCFOptionsMap(config_options, sec.values, &cf));
      if (!s.ok()) return s;
      index[sec.arg] = families.size();
      families.emplace_back(sec.arg, cf);
    } else if (sec.header.rfind("TableOptions/", 0) == 0) {
      auto it = index.find(sec.arg);
      if (it == index.end()) {
        return Located(options_file_name, sec,
                       Status::InvalidArgument("table options of a family not listed before"));
      }
      if (sec.header != "TableOptions/BlockBasedTable") {
        if (config_options.ignore_unknown_options) continue;
        return Located(options_file_name, sec,
                       Status::InvalidArgument("Strata has only BlockBasedTable tables"));
      }
      ColumnFamilyOptions& cf = families[it->second].options;
      BlockBasedTableOptions t = cf.table_factory != nullptr ? cf.table_factory->table_options()
                                                             : BlockBasedTableOptions();
      s = Located(options_file_name, sec, ApplyTableOptionsMap(config_options, sec.values, &t));
      if (!s.ok()) return s;
      cf.table_factory = NewBlockBasedTableFactory(t);
    } else if (!config_options.ignore_unknown_options) {
      return Located(options_file_name, sec, Status::InvalidArgument("unknown section"));
    }
  }
  if (!saw_db || families.empty()) {
    return Status::InvalidArgument(options_file_name,
                                   "no [DBOptions] or no [CFOptions] section: not an OPTIONS file");
  }
  for (ColumnFamilyDescriptor& f : families) {
    if (!subcompactions.empty()) {
      s = ApplyCFOptionsMap(config_options, {{"max_subcompactions", subcompactions}}, &f.options);
      if (!s.ok())
        return Status::InvalidArgument(options_file_name + ": [DBOptions]", s.ToString());
    }
    if (cache != nullptr && *cache != nullptr) {
      BlockBasedTableOptions t = f.options.table_factory != nullptr
                                     ? f.options.table_factory->table_options()
                                     : BlockBasedTableOptions();
      t.block_cache = *cache;
      t.no_block_cache = false;
      f.options.table_factory = NewBlockBasedTableFactory(t);
    }
  }
  *db_options = db;
  *cf_descs = std::move(families);
  return Status::OK();
}

Status LoadOptionsFromFile(const std::string& options_file_name, Env* env, DBOptions* db_options,
                           std::vector<ColumnFamilyDescriptor>* cf_descs,
                           bool ignore_unknown_options, std::shared_ptr<Cache>* cache) {
  ConfigOptions config;
  config.env = env;
  config.ignore_unknown_options = ignore_unknown_options;
  return LoadOptionsFromFile(config, options_file_name, db_options, cf_descs, cache);
}

Status GetLatestOptionsFileName(const std::string& dbpath, Env* env,
                                std::string* options_file_name) {
  if (env == nullptr) env = Env::Default();
  std::vector<std::string> children;
  Status s = env->GetFileSystem()->GetChildren(dbpath, &children);
  if (!s.ok()) return s;
  uint64_t newest = 0;
  std::string name;
  for (const std::string& c : children) {
    uint64_t number = 0;
    FileType type;
    if (ParseFileName(c, &number, &type) && type == FileType::kOptionsFile && number >= newest) {
      newest = number;
      name = c;
    }
  }
  if (name.empty()) return Status::NotFound("No options files found in the DB directory.", dbpath);
  *options_file_name = name;
  return Status::OK();
}

Status LoadLatestOptions(const ConfigOptions& config_options, const std::string& dbpath,
                         DBOptions* db_options, std::vector<ColumnFamilyDescriptor>* cf_descs,
                         std::shared_ptr<Cache>* cache) {
  std::string name;
  Status s = GetLatestOptionsFileName(dbpath, config_options.env, &name);
  if (!s.ok()) return s;
  return LoadOptionsFromFile(config_options, dbpath + "/" + name, db_options, cf_descs, cache);
}

Status LoadLatestOptions(const std::string& dbpath, Env* env, DBOptions* db_options,
                         std::vector<ColumnFamilyDescriptor>* cf_descs, bool ignore_unknown_options,
                         std::shared_ptr<Cache>* cache) {
  ConfigOptions config;
  config.env = env;
  config.ignore_unknown_options = ignore_unknown_options;
  return LoadLatestOptions(config, dbpath, db_options, cf_descs, cache);
}

}  // namespace strata
