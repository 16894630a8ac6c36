// ReadManifest and friends (tools/ldb/ldb_manifest.h).

#include "tools/ldb/ldb_manifest.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>

#include "base/dbformat.h"
#include "db/filename.h"
#include "db/log_reader.h"
#include "db/log_writer.h"

namespace strata::ldb {

namespace {

struct CountingReporter : public log::Reader::Reporter {
  void Corruption(size_t /*bytes*/, const Status& s) override {
    if (status.ok()) status = s;
  }
  Status status;
};

std::string EscapeBytes(const Slice& s) {
  std::string r;
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= ' ' && c <= '~') {
      r.push_back(static_cast<char>(c));
    } else {
      char buf[10];
      std::snprintf(buf, sizeof(buf), "\\x%02x", c);
      r.append(buf);
    }
  }
  return r;
}

}  // namespace

std::string InternalKeyDebugString(const Slice& internal_key, bool hex) {
  ParsedInternalKey parsed;
  if (!ParseInternalKey(internal_key, &parsed).ok()) {
    return "(bad)" + EscapeBytes(internal_key);
  }
  char buf[64];
  std::snprintf(buf, sizeof(buf), "' seq:%" PRIu64 ", type:%d",
                static_cast<uint64_t>(parsed.sequence), static_cast<int>(parsed.type));
  return "'" + parsed.user_key.ToString(hex) + buf;
}

Status CurrentManifestPath(FileSystem* fs, const std::string& dbpath, std::string* path) {
  std::string current;
  Status s = ReadFileToString(fs, dbpath + "/CURRENT", &current);
  if (!s.ok()) return s;
  if (current.empty() || current.back() != '\n') {
    return Status::Corruption(dbpath + "/CURRENT", "does not end with a newline");
  }
  current.pop_back();
  *path = dbpath + "/" + current;
  return Status::OK();
}

Status ReadManifest(FileSystem* fs, const std::string& path,
                    const std::function<void(const VersionEdit&)>& on_edit, ManifestState* out) {
  std::unique_ptr<SequentialFile> file;
  Status s = fs->NewSequentialFile(path, FileOptions(), &file);
  if (!s.ok()) return s;
  CountingReporter reporter;
  log::Reader reader(std::move(file), &reporter, true, 0, path);

  // Families by id; the order of creation is kept in `order`.
  std::map<uint32_t, ManifestFamily> families;
  std::vector<uint32_t> order;
  auto create = [&](uint32_t id, const std::string& name) {
    ManifestFamily f;
    f.id = id;
    f.name = name;
    f.levels.resize(kDumpLevels);
    families[id] = std::move(f);
    order.push_back(id);
    ++out->families_created;
  };
  create(0, "default");

  Slice record;
  std::string scratch;
  while (reader.ReadRecord(&record, &scratch)) {
    VersionEdit edit;
    s = edit.DecodeFrom(record);
    if (!s.ok()) return s;
    if (on_edit) on_edit(edit);
    const uint32_t id = edit.column_family();
    if (edit.column_family_add().has_value()) {
      create(id, *edit.column_family_add());
      out->max_column_family = std::max(out->max_column_family, id);
    } else if (edit.is_column_family_drop()) {
      families.erase(id);
      order.erase(std::remove(order.begin(), order.end(), id), order.end());
      continue;
    }
    auto it = families.find(id);
    if (it == families.end()) {
      return Status::Corruption(
          path, "an edit names column family " + std::to_string(id) + ", which does not exist");
    }
    ManifestFamily& f = it->second;
    if (edit.comparator().has_value()) f.comparator = *edit.comparator();
    if (edit.log_number().has_value()) f.log_number = *edit.log_number();
    if (edit.prev_log_number().has_value()) out->prev_log_number = *edit.prev_log_number();
    if (edit.next_file_number().has_value()) out->next_file_number = *edit.next_file_number();
    if (edit.last_sequence().has_value()) out->last_sequence = *edit.last_sequence();
    if (edit.min_log_number_to_keep().has_value()) {
      out->min_log_number_to_keep = *edit.min_log_number_to_keep();
    }
    if (edit.db_id().has_value()) out->db_id = *edit.db_id();
    if (edit.max_column_family().has_value()) {
      out->max_column_family = std::max(out->max_column_family, *edit.max_column_family());
    }
    for (const auto& [level, number] : edit.deleted_files()) {
      if (level < 0 || level >= kDumpLevels) continue;
      auto& files = f.levels[level];
      files.erase(std::remove_if(files.begin(), files.end(),
                                 [n = number](const FileMetaData& m) { return m.number == n; }),
                  files.end());
    }
    for (const auto& [level, meta] : edit.new_files()) {
      if (level < 0 || level >= kDumpLevels) {
        return Status::Corruption(path, "a file on level " + std::to_string(level));
      }
      f.levels[level].push_back(meta);
    }
  }
  if (!reporter.status.ok()) return reporter.status;

  const Comparator* ucmp = BytewiseComparator();
  for (uint32_t id : order) {
    ManifestFamily& f = families[id];
    std::sort(f.levels[0].begin(), f.levels[0].end(),
              [](const FileMetaData& a, const FileMetaData& b) {
                if (a.largest_seqno != b.largest_seqno) return a.largest_seqno > b.largest_seqno;
                return a.number > b.number;
              });
    for (int level = 1; level < kDumpLevels; ++level) {
      std::sort(f.levels[level].begin(), f.levels[level].end(),
                [ucmp](const FileMetaData& a, const FileMetaData& b) {
                  const int c =
                      ucmp->Compare(ExtractUserKey(a.smallest), ExtractUserKey(b.smallest));
                  return c != 0 ? c < 0 : a.number < b.number;
                });
    }
    out->families.push_back(std::move(f));
  }
  return Status::OK();
}

Status WriteManifestSnapshot(FileSystem* fs, const std::string& dbpath, const ManifestState& state,
                             const std::string& old_path) {
  const uint64_t number = state.next_file_number;
  const std::string path = DescriptorFileName(dbpath, number);
  std::unique_ptr<WritableFile> file;
  Status s = fs->NewWritableFile(path, FileOptions(), &file);
  if (!s.ok()) return s;
  log::Writer writer(std::move(file), number, false);
  for (const ManifestFamily& f : state.families) {
    VersionEdit edit;
    edit.SetColumnFamily(f.id);
    if (f.id != 0) edit.AddColumnFamily(f.name);
    if (!f.comparator.empty()) edit.SetComparatorName(f.comparator);
    edit.SetLogNumber(f.log_number);
    for (int level = 0; level < kDumpLevels; ++level) {
      for (const FileMetaData& m : f.levels[level]) edit.AddFile(level, m);
    }
    if (f.id == 0) {
      if (!state.db_id.empty()) edit.SetDBId(state.db_id);
      edit.SetPrevLogNumber(state.prev_log_number);
      edit.SetNextFile(number + 1);
      edit.SetLastSequence(state.last_sequence);
      edit.SetMinLogNumberToKeep(state.min_log_number_to_keep);
      edit.SetMaxColumnFamily(state.max_column_family);
    }
    std::string record;
    edit.EncodeTo(&record);
    s = writer.AddRecord(record);
    if (!s.ok()) return s;
  }
  s = writer.Sync();
  if (s.ok()) s = writer.Close();
  if (s.ok()) s = SetCurrentFile(fs, dbpath, number, nullptr);
  if (s.ok()) s = fs->DeleteFile(old_path);
  return s;
}

}  // namespace strata::ldb
