// strata report: reading the database's shape (tools/strata_report.h).
#include "tools/strata_report.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>

#include "base/dbformat.h"
#include "db/column_family.h"
#include "db/filename.h"
#include "db/version_set.h"
#include "strata/comparator.h"
#include "strata/db.h"
#include "strata/options.h"
#include "strata/sst_file_writer.h"
#include "strata/table_properties.h"
#include "table/compression.h"
#include "util/mutex.h"

namespace strata {

uint64_t ReportFamily::NumFiles() const {
  uint64_t n = 0;
  for (const ReportLevel& l : levels) n += l.files.size();
  return n;
}

uint64_t ReportFamily::Bytes() const {
  uint64_t n = 0;
  for (const ReportLevel& l : levels) n += l.bytes;
  return n;
}

namespace {

// The [CFOptions "name"] sections of an OPTIONS file: name -> key -> value.
using OptionsSections = std::map<std::string, std::map<std::string, std::string>>;

std::string Trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\r')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r')) --e;
  return s.substr(b, e - b);
}

OptionsSections ParseOptionsFile(const std::string& text) {
  OptionsSections sections;
  std::map<std::string, std::string>* cur = nullptr;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string line = Trim(text.substr(pos, end - pos));
    pos = end + 1;
    if (line.empty() || line[0] == '#') continue;
    if (line[0] == '[') {
      cur = nullptr;
      const std::string prefix = "[CFOptions \"";
      if (line.rfind(prefix, 0) == 0 && line.size() > prefix.size() + 2) {
        cur = &sections[line.substr(prefix.size(), line.size() - prefix.size() - 2)];
      }
      continue;
    }
    const size_t eq = line.find('=');
    if (cur != nullptr && eq != std::string::npos) {
      (*cur)[Trim(line.substr(0, eq))] = Trim(line.substr(eq + 1));
    }
  }
  return sections;
}

// Display name of an OPTIONS compression value ("kSnappyCompression"), as
// table properties spell it ("Snappy").
std::string OptionsCompressionName(const std::string& option) {
  static const std::map<std::string, std::string> kNames = {
      {"kNoCompression", "NoCompression"}, {"kSnappyCompression", "Snappy"},
      {"kZlibCompression", "Zlib"},        {"kBZip2Compression", "BZip2"},
      {"kLZ4Compression", "LZ4"},          {"kLZ4HCCompression", "LZ4HC"},
      {"kXpressCompression", "Xpress"},    {"kZSTD", "ZSTD"},
      {"kZSTDNotFinalCompression", "ZSTD"}};
  auto it = kNames.find(option);
  return it == kNames.end() ? option : it->second;
}

// What the report takes from a family's OPTIONS section.
struct FamilySettings {
  ColumnFamilyOptions options;
  std::string compaction_style;
  std::vector<std::string> compression_per_level;  // display names
  std::string compression;
  std::string bottommost;  // empty: as compression
};

Status ApplySection(const std::string& file, const std::string& family,
                    const std::map<std::string, std::string>& kv, FamilySettings* fs) {
  ColumnFamilyOptions& o = fs->options;
  auto where = [&](const std::string& key) {
    return file + " [CFOptions \"" + family + "\"] " + key;
  };
  for (const auto& [key, value] : kv) {
    char* end = nullptr;
    if (key == "num_levels" || key == "level0_file_num_compaction_trigger") {
      const long v = std::strtol(value.c_str(), &end, 10);
      if (end == value.c_str() || *end != '\0' || v < 1 || v > 1000000) {
        return Status::InvalidArgument("bad value \"" + value + "\"", where(key));
      }
      (key == "num_levels" ? o.num_levels : o.level0_file_num_compaction_trigger) =
          static_cast<int>(v);
    } else if (key == "max_bytes_for_level_base") {
      const unsigned long long v = std::strtoull(value.c_str(), &end, 10);
      if (end == value.c_str() || *end != '\0') {
        return Status::InvalidArgument("bad value \"" + value + "\"", where(key));
      }
      o.max_bytes_for_level_base = v;
    } else if (key == "max_bytes_for_level_multiplier") {
      const double v = std::strtod(value.c_str(), &end);
      if (end == value.c_str() || *end != '\0') {
        return Status::InvalidArgument("bad value \"" + value + "\"", where(key));
      }
      o.max_bytes_for_level_multiplier = v;
    } else if (key == "level_compaction_dynamic_level_bytes") {
      if (value != "true" && value != "false") {
        return Status::InvalidArgument("bad value \"" + value + "\"", where(key));
      }
      o.level_compaction_dynamic_level_bytes = value == "true";
    } else if (key == "comparator") {
      if (value == "rocksdb.ReverseBytewiseComparator") {
        o.comparator = ReverseBytewiseComparator();
      } else if (value != "leveldb.BytewiseComparator") {
        return Status::NotSupported(
            "the report knows only the bytewise comparators, not \"" + value + "\"", where(key));
      }
    } else if (key == "compaction_style") {
      fs->compaction_style = value;
    } else if (key == "compression") {
      fs->compression = OptionsCompressionName(value);
    } else if (key == "bottommost_compression") {
      if (value != "kDisableCompressionOption") fs->bottommost = OptionsCompressionName(value);
    } else if (key == "compression_per_level") {
      size_t p = 0;
      while (p < value.size()) {
        size_t colon = value.find(':', p);
        if (colon == std::string::npos) colon = value.size();
        const std::string one = Trim(value.substr(p, colon - p));
        if (!one.empty()) fs->compression_per_level.push_back(OptionsCompressionName(one));
        p = colon + 1;
      }
    }
  }
  return Status::OK();
}

// The newest OPTIONS-<number> file of dir, or "" if none.
std::string NewestOptionsFile(const std::vector<std::string>& children) {
  uint64_t best = 0;
  std::string name;
  for (const std::string& child : children) {
    uint64_t number = 0;
    FileType type;
    if (ParseFileName(child, &number, &type) && type == FileType::kOptionsFile && number >= best) {
      best = number;
      name = child;
    }
  }
  return name;
}

// RocksDB's choice of compression for a level (compression_per_level
// indexed from the base level when level sizes are dynamic; the
// bottommost setting for the last level).
std::string ConfiguredCompression(const FamilySettings& fs, int level, int base_level,
                                  int num_levels) {
  if (!fs.bottommost.empty() && level == num_levels - 1 && level > 0) return fs.bottommost;
  if (!fs.compression_per_level.empty()) {
    int i = level;
    if (level > 0 && fs.options.level_compaction_dynamic_level_bytes) {
      i = std::max(0, level - base_level + 1);
    }
    i = std::min(i, static_cast<int>(fs.compression_per_level.size()) - 1);
    return fs.compression_per_level[i];
  }
  return fs.compression.empty() ? CompressionTypeName(fs.options.compression) : fs.compression;
}

void ReadProperties(const std::string& path, const Comparator* cmp, ReportFile* f) {
  Options options;
  options.comparator = cmp;
  SstFileReader reader(options);
  Status s = reader.Open(path);
  if (!s.ok()) {
    f->props_error = s.ToString();
    return;
  }
  std::shared_ptr<const TableProperties> props = reader.GetTableProperties();
  if (props == nullptr) {
    f->props_error = "no properties block";
    return;
  }
  f->entries = props->num_entries;
  f->deletions = props->num_deletions;
  f->compression = props->compression_name;
}

}  // namespace

Status ReadLsmShape(FileSystem* fs, const std::string& db, LsmShape* shape) {
  *shape = LsmShape();
  shape->db = db;
  // CURRENT first: a missing database is named by it.
  DBOptions db_options;
  std::vector<std::string> names;
  Status s = DB::ListColumnFamilies(db_options, db, &names);
  if (!s.ok()) return s;
  std::vector<std::string> children;
  s = fs->GetChildren(db, &children);
  if (!s.ok()) return s;

  // Family options from the newest OPTIONS file (defaults without one).
  std::map<std::string, FamilySettings> settings;
  for (const std::string& name : names) settings[name] = FamilySettings();
  shape->options_file = NewestOptionsFile(children);
  if (shape->options_file.empty()) {
    shape->notes.push_back("No OPTIONS file: targets and scores use Strata's default options.");
  } else {
    std::string text;
    const std::string path = db + "/" + shape->options_file;
    s = ReadFileToString(fs, path, &text);
    if (!s.ok()) return s;
    const OptionsSections sections = ParseOptionsFile(text);
    for (auto& [name, fam] : settings) {
      auto it = sections.find(name);
      if (it == sections.end()) {
        shape->notes.push_back("Column family \"" + name + "\" has no section in " +
                               shape->options_file + ": default options assumed.");
        continue;
      }
      s = ApplySection(path, name, it->second, &fam);
      if (!s.ok()) return s;
    }
  }

  // Replay the MANIFEST. VersionSet::Recover only reads (CURRENT, the
  // MANIFEST); it writes nothing and no LogAndApply follows.
  Options vs_options;
  vs_options.env = Env::Default();
  Mutex mu;
  VersionSet versions(db, vs_options, fs, /*db_dir=*/nullptr, /*info_log=*/nullptr, &mu);
  std::map<std::string, ColumnFamilyOptions> families;
  for (const auto& [name, fam] : settings) families[name] = fam.options;
  std::vector<std::string> not_found;
  {
    MutexLock l(&mu);
    s = versions.Recover(families, /*allow_unopened=*/false, &not_found);
    if (s.ok()) shape->manifest = DescriptorFileName("", versions.manifest_file_number()).substr(1);
  }
  if (!s.ok()) return s;

  for (ColumnFamilyData* cfd : versions.column_families()->live()) {
    const FamilySettings& fam = settings[cfd->name()];
    ReportFamily rf;
    rf.name = cfd->name();
    rf.id = cfd->id();
    rf.reverse_keys = fam.options.comparator == ReverseBytewiseComparator();
    rf.dynamic_level_bytes = fam.options.level_compaction_dynamic_level_bytes;
    rf.max_bytes_for_level_base = fam.options.max_bytes_for_level_base;
    rf.max_bytes_for_level_multiplier = fam.options.max_bytes_for_level_multiplier;
    rf.level0_file_num_compaction_trigger = fam.options.level0_file_num_compaction_trigger;
    rf.compaction_style = fam.compaction_style;
    Version* v;
    {
      MutexLock l(&mu);
      v = cfd->current();
    }
    rf.base_level = v->base_level();
    std::map<int, double> scores;
    for (const Version::LevelScore& ls : v->compaction_scores()) scores[ls.level] = ls.score;
    for (int level = 0; level < v->num_levels(); ++level) {
      ReportLevel rl;
      rl.level = level;
      rl.target = level == 0 ? 0 : v->MaxBytesForLevel(level);
      auto it = scores.find(level);
      rl.has_score = it != scores.end();
      rl.score = rl.has_score ? it->second : 0;
      rl.configured_compression =
          ConfiguredCompression(fam, level, v->base_level(), v->num_levels());
      for (const FileMetaData* f : v->files(level)) {
        ReportFile file;
        file.number = f->number;
        file.size = f->file_size;
        file.smallest = ExtractUserKey(f->smallest).ToString();
        file.largest = ExtractUserKey(f->largest).ToString();
        file.smallest_seqno = f->smallest_seqno;
        file.largest_seqno = f->largest_seqno;
        ReadProperties(TableFileName(db, f->number), fam.options.comparator, &file);
        rl.bytes += file.size;
        rl.files.push_back(std::move(file));
      }
      rf.levels.push_back(std::move(rl));
    }
    shape->families.push_back(std::move(rf));
  }
  return Status::OK();
}

namespace {

// "a/b/" and "a/b" are the same directory.
std::string StripSlashes(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

}  // namespace

Status WriteReport(FileSystem* fs, const std::string& db, const std::string& out) {
  const size_t slash = out.rfind('/');
  const std::string out_dir = slash == std::string::npos ? "." : out.substr(0, slash);
  // The same directory under another spelling (a symlink, "..") still
  // holds the database's CURRENT.
  if (StripSlashes(out_dir) == StripSlashes(db) || StripSlashes(out) == StripSlashes(db) ||
      fs->FileExists(CurrentFileName(out_dir)).ok()) {
    return Status::InvalidArgument("--out must not be inside a database directory", out);
  }
  LsmShape shape;
  Status s = ReadLsmShape(fs, db, &shape);
  if (!s.ok()) return s;
  EventLog log;
  s = ReadEventLog(fs, db, &log);
  if (!s.ok()) return s;
  return WriteStringToFile(fs, RenderReport(shape, log), out, /*should_sync=*/false);
}

int RunReport(int argc, char** argv) {
  std::string db, out;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--db=", 0) == 0) {
      db = arg.substr(5);
    } else if (arg.rfind("--out=", 0) == 0) {
      out = arg.substr(6);
    } else {
      std::fprintf(stderr, "strata report: unknown argument %s\n", arg.c_str());
      db.clear();
      break;
    }
  }
  if (db.empty() || out.empty()) {
    std::fprintf(stderr, "usage: strata report --db=DIR --out=FILE.html\n");
    return 2;
  }
  Status s = WriteReport(Env::Default()->GetFileSystem(), db, out);
  if (!s.ok()) {
    std::fprintf(stderr, "strata report: %s\n", s.ToString().c_str());
    return 1;
  }
  std::printf("wrote %s\n", out.c_str());
  return 0;
}

}  // namespace strata
