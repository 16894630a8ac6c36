// LoadOptionsFile (tools/ldb/ldb_options_file.h).

#include "tools/ldb/ldb_options_file.h"

#include "db/filename.h"
#include "strata/comparator.h"
#include "strata/env.h"
#include "strata/utilities/db_ttl.h"

namespace strata::ldb {
namespace {

std::string Trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

// The value of `name=` inside "{id=X;delimiter=\:;}" (backslash escapes
// removed), or "".
std::string Field(const std::string& braced, const std::string& name) {
  const std::string key = name + "=";
  size_t pos = 0;
  while ((pos = braced.find(key, pos)) != std::string::npos) {
    if (pos == 1 || braced[pos - 1] == ';') break;
    ++pos;
  }
  if (pos == std::string::npos) return "";
  std::string out;
  for (size_t i = pos + key.size(); i < braced.size() && braced[i] != ';' && braced[i] != '}';
       ++i) {
    if (braced[i] == '\\' && i + 1 < braced.size()) ++i;
    out.push_back(braced[i]);
  }
  return out;
}

// The value of a field that is itself braced ("name={...}" inside braced),
// braces included; "" when absent.
std::string NestedField(const std::string& braced, const std::string& name) {
  const std::string key = name + "=";
  const size_t pos = braced.find(key);
  if (pos == std::string::npos || pos + key.size() >= braced.size()) return "";
  const size_t start = pos + key.size();
  if (braced[start] != '{') return Field(braced, name);
  int depth = 0;
  for (size_t i = start; i < braced.size(); ++i) {
    if (braced[i] == '\\') {
      ++i;
    } else if (braced[i] == '{') {
      ++depth;
    } else if (braced[i] == '}' && --depth == 0) {
      return braced.substr(start, i + 1 - start);
    }
  }
  return "";
}

Status MakeMergeOperator(const std::string& family, const std::string& value, bool ignore_unknown,
                         std::shared_ptr<MergeOperator>* out) {
  if (value.empty() || value == "nullptr") return Status::OK();
  std::string id = value;
  std::string delimiter;
  bool has_delimiter = false;
  if (value.front() == '{') {
    id = Field(value, "id");
    has_delimiter = value.find("delimiter=") != std::string::npos;
    delimiter = Field(value, "delimiter");
  }
  if (id == "TtlMergeOperator") {
    // A TTL database's: the operator it wraps, merging as DBWithTTL does.
    std::shared_ptr<MergeOperator> user;
    Status s =
        MakeMergeOperator(family, NestedField(value, "user_operator"), ignore_unknown, &user);
    if (!s.ok()) return s;
    *out = NewTtlMergeOperator(std::move(user));
    return Status::OK();
  }
  if (id == "StringAppendOperator" || id == "stringappend") {
    *out = MergeOperators::CreateStringAppendOperator(has_delimiter ? delimiter : ",");
  } else {
    *out = MergeOperators::CreateFromStringId(id);
  }
  if (*out == nullptr && !ignore_unknown) {
    return Status::InvalidArgument("--try_load_options: the OPTIONS file names merge_operator " +
                                       value + " for column family " + family,
                                   "strata has no such merge operator");
  }
  return Status::OK();
}

}  // namespace

Status LoadOptionsFile(const std::string& dbpath, bool ignore_unknown,
                       std::vector<LoadedFamily>* families, bool* allow_2pc, std::string* wal_dir,
                       const Comparator* known) {
  FileSystem* fs = Env::Default()->GetFileSystem();
  std::vector<std::string> children;
  Status s = fs->GetChildren(dbpath, &children);
  if (!s.ok()) return Status::NotFound(dbpath, s.ToString());
  uint64_t newest = 0;
  for (const std::string& name : children) {
    uint64_t number = 0;
    FileType type;
    if (ParseFileName(name, &number, &type) && type == FileType::kOptionsFile) {
      newest = std::max(newest, number);
    }
  }
  if (newest == 0) return Status::NotFound(dbpath, "no OPTIONS file");
  const std::string path = OptionsFileName(dbpath, newest);
  std::string text;
  s = ReadFileToString(fs, path, &text);
  if (!s.ok()) return s;

  std::vector<LoadedFamily> out;
  bool in_family = false;
  bool in_db_options = false;
  bool two_pc = false;
  std::string file_wal_dir;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = Trim(text.substr(start, end - start));
    start = end + 1;
    if (line.empty() || line[0] == '#') continue;
    if (line[0] == '[') {
      const std::string prefix = "[CFOptions \"";
      in_family = line.rfind(prefix, 0) == 0 && line.size() > prefix.size() + 2;
      in_db_options = line == "[DBOptions]";
      if (in_family) {
        out.push_back({line.substr(prefix.size(), line.size() - prefix.size() - 2), nullptr});
      }
      continue;
    }
    if (!in_family && !in_db_options) continue;
    const size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = Trim(line.substr(0, eq));
    const std::string value = Trim(line.substr(eq + 1));
    if (in_db_options) {
      if (key == "allow_2pc") two_pc = value == "true";
      if (key == "wal_dir") file_wal_dir = value;
      continue;
    }
    if (key == "merge_operator") {
      s = MakeMergeOperator(out.back().name, value, ignore_unknown, &out.back().merge_operator);
      if (!s.ok()) return s;
    } else if (key == "comparator" && value != BytewiseComparator()->Name() &&
               (known == nullptr || value != known->Name())) {
      return Status::InvalidArgument(
          path + ": column family " + out.back().name + " uses comparator " + value,
          "strata has only " + std::string(BytewiseComparator()->Name()));
    }
  }
  if (out.empty()) return Status::Corruption(path, "no [CFOptions] section");
  *families = std::move(out);
  if (allow_2pc != nullptr) *allow_2pc = two_pc;
  if (wal_dir != nullptr) *wal_dir = file_wal_dir;
  return Status::OK();
}

}  // namespace strata::ldb
