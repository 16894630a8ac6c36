// The `strata` commands that read a database's files directly rather than
// through an open DB: manifest_dump, dump_wal, list_live_files_metadata,
// checkconsistency. None of them writes anything.

#include <algorithm>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "db/filename.h"
#include "strata/table_properties.h"
#include "tools/ldb/ldb_commands.h"
#include "tools/ldb/ldb_edit_text.h"
#include "tools/ldb/ldb_file_dump.h"
#include "tools/ldb/ldb_manifest.h"
#include "tools/ldb/ldb_table_view.h"

namespace strata::ldb {
namespace {

// The single MANIFEST-* in dir, as ldb finds it (not through CURRENT).
Status FindManifest(const std::string& dir, std::string* path) {
  std::vector<std::string> children;
  Status s = Env::Default()->GetFileSystem()->GetChildren(dir, &children);
  if (!s.ok()) return Status::IOError(s.ToString() + ": Failed to list the content of " + dir);
  std::string found;
  for (const std::string& name : children) {
    uint64_t number = 0;
    FileType type;
    if (ParseFileName(name, &number, &type) && type == FileType::kDescriptorFile) {
      if (!found.empty()) {
        return Status::InvalidArgument("Multiple MANIFEST files found; use --path to select one");
      }
      found = name;
    }
  }
  if (found.empty()) return Status::NotFound("No MANIFEST found in " + dir);
  *path = (dir.empty() || dir.back() != '/' ? dir + "/" : dir) + found;
  return Status::OK();
}

class ManifestDumpCommand : public LdbCommand {
 public:
  explicit ManifestDumpCommand(const LdbArgs& args)
      : LdbCommand(args, true, {"verbose", kArgPath, kArgHex, "json"}) {
    verbose_ = HasFlag(args, "verbose");
    json_ = HasFlag(args, "json");
    if (const std::string* v = FindOption(args, kArgPath)) {
      path_ = *v;
      if (path_.empty()) state_.Fail("--path: missing pathname");
    }
  }
  static void Help(std::string* r) {
    r->append("  manifest_dump [--verbose] [--json] [--path=<path_to_manifest_file>]\n");
  }

 private:
  bool NoDbOpen() const override { return true; }
  void DoCommand() override {
    std::string file = path_;
    if (file.empty()) {
      Status s = FindManifest(db_path_, &file);
      if (!s.ok()) {
        state_.Fail(s.getState());
        return;
      }
    }
    if (verbose_) std::printf("Processing Manifest file %s\n", file.c_str());
    DumpManifestFile(file, verbose_, key_hex_, json_);
    if (verbose_) std::printf("Processing Manifest file %s done\n", file.c_str());
  }
  bool verbose_ = false;
  bool json_ = false;
  std::string path_;
};

class DumpWalCommand : public LdbCommand {
 public:
  explicit DumpWalCommand(const LdbArgs& args)
      : LdbCommand(args, true, {"walfile", "write_committed", "header", "print_value"}) {
    if (const std::string* v = FindOption(args, "walfile")) wal_ = *v;
    header_ = HasFlag(args, "header");
    values_ = HasFlag(args, "print_value");
    if (const std::string* v = FindOption(args, "write_committed")) {
      bool committed = true;
      Status s = ParseBool("write_committed", *v, &committed);
      if (!s.ok()) {
        state_.Fail(s.getState());
        return;
      }
      // Strata has no write-prepared transactions: only the default fits.
      if (!committed) {
        state_.Fail("--write_committed=false is not supported by strata");
        return;
      }
    }
    if (wal_.empty()) state_.Fail("Argument walfile must be specified.");
  }
  static void Help(std::string* r) {
    r->append(
        "  dump_wal --walfile=<write_ahead_log_file_path> [--header]  [--print_value]  "
        "[--write_committed=true|false] \n");
  }

 private:
  bool NoDbOpen() const override { return true; }
  void DoCommand() override { DumpWalFile(wal_, header_, values_, &state_); }
  std::string wal_;
  bool header_ = false;
  bool values_ = false;
};

// ldb's NormalizePath: runs of '/' become one.
std::string NormalizePath(const std::string& path) {
  std::string r;
  for (char c : path) {
    if (c == '/' && !r.empty() && r.back() == '/') continue;
    r.push_back(c);
  }
  return r;
}

// The MANIFEST's families, read through CURRENT.
Status LiveState(const std::string& dir, ManifestState* state) {
  FileSystem* fs = Env::Default()->GetFileSystem();
  std::string manifest;
  Status s = CurrentManifestPath(fs, dir, &manifest);
  if (s.ok()) s = ReadManifest(fs, manifest, nullptr, state);
  return s;
}

// The levels a family shows (Options::num_levels unless files sit deeper).
int ShownLevels(const ManifestFamily& f) {
  int n = Options().num_levels;
  for (int level = n; level < kDumpLevels; ++level) {
    if (!f.levels[level].empty()) n = level + 1;
  }
  return n;
}

class ListLiveFilesMetadataCommand : public LdbCommand {
 public:
  explicit ListLiveFilesMetadataCommand(const LdbArgs& args)
      : LdbCommand(args, true, {"sort_by_filename"}) {
    sort_by_filename_ = HasFlag(args, "sort_by_filename");
  }
  static void Help(std::string* r) {
    r->append("  list_live_files_metadata [--sort_by_filename] \n");
  }

 private:
  bool NoDbOpen() const override { return true; }
  void DoCommand() override {
    ManifestState state;
    Status s = LiveState(db_path_, &state);
    if (!s.ok()) {
      state_.Fail(s.ToString());
      return;
    }
    auto file_path = [this](uint64_t number) {
      return NormalizePath(db_path_ + "/" + "/" + MakeFileNumber(number) + ".sst");
    };
    if (sort_by_filename_) {
      std::printf("Live SST and Blob Files:\n");
      std::vector<std::tuple<std::string, int, std::string>> all;
      for (const ManifestFamily& f : state.families) {
        for (int level = 0; level < kDumpLevels; ++level) {
          for (const FileMetaData& m : f.levels[level]) {
            all.emplace_back(file_path(m.number), level, f.name);
          }
        }
      }
      std::sort(all.begin(), all.end());
      for (const auto& [file, level, cf] : all) {
        std::printf("%s : level %d, column family '%s'\n", file.c_str(), level, cf.c_str());
      }
    } else {
      for (const ManifestFamily& f : state.families) {
        std::printf("===== Column Family: %s =====\n", f.name.c_str());
        std::printf("Live SST Files:\n");
        for (int level = 0; level < ShownLevels(f); ++level) {
          std::printf("---------- level %d ----------\n", level);
          for (const FileMetaData& m : f.levels[level]) {
            std::printf("%s\n", file_path(m.number).c_str());
          }
        }
        std::printf("Live Blob Files:\n");
      }
    }
    std::printf("------------------------------\n");
  }
  bool sort_by_filename_ = false;
};

// Prints one table as ldb's dump_live_files does (sst_dump's scan lines,
// then the table properties).
void DumpTable(const TableView& view, const FileMetaData& meta, const std::string& path) {
  const uint64_t number = meta.number;
  std::printf("Process %s\nSst file format: block-based\n", path.c_str());
  std::unique_ptr<BlockBasedTable> table;
  Status s = view.OpenTable(number, &table);
  if (s.ok()) {
    std::unique_ptr<InternalIterator> it = table->NewIterator(ReadOptions());
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const std::string key = UpToNul(InternalKeyDebugString(it->key(), false));
      const std::string value = UpToNul(it->value().ToString());
      std::printf("%s => %s\n", key.c_str(), value.c_str());
    }
    s = it->status();
  }
  if (!s.ok()) {
    std::fflush(stdout);
    std::fprintf(stderr, "Error in reading SST file %s%s\n", path.c_str(), s.ToString().c_str());
    return;
  }
  std::shared_ptr<const TableProperties> props = table->GetTableProperties();
  if (props != nullptr) {
    std::printf("\nTable Properties:\n%s\n", TablePropertiesText(*props, meta.unique_id).c_str());
  }
}

class DumpLiveFilesCommand : public LdbCommand {
 public:
  explicit DumpLiveFilesCommand(const LdbArgs& args)
      : LdbCommand(args, true, {"decode_blob_index", "dump_uncompressed_blobs"}) {}
  static void Help(std::string* r) {
    r->append("  dump_live_files [--decode_blob_index]  [--dump_uncompressed_blobs] \n");
  }

 private:
  void DoCommand() override {
    if (db_ == nullptr) return;
    FileSystem* fs = Env::Default()->GetFileSystem();
    std::printf("Manifest File\n==============================\n");
    std::string manifest;
    Status s = CurrentManifestPath(fs, db_path_, &manifest);
    if (!s.ok()) {
      std::fflush(stdout);
      std::fprintf(stderr, "Error when reading CURRENT file %s/CURRENT\n", db_path_.c_str());
    }
    manifest = NormalizePath(manifest);
    std::printf("%s\n", manifest.c_str());
    std::fflush(stdout);
    DumpManifestFile(manifest, false, false, false);
    std::printf("\n");
    ManifestState state;
    s = LiveState(db_path_, &state);
    if (!s.ok()) {
      state_.Fail(s.ToString());
      return;
    }
    for (const ManifestFamily& f : state.families) {
      std::printf("Column family name: %s\n==============================\n\n", f.name.c_str());
      std::printf("SST Files\n==============================\n");
      std::unique_ptr<TableView> view;
      s = TableView::Open(db_path_, f.name, &view);
      if (!s.ok()) {
        state_.Fail(s.ToString());
        return;
      }
      for (int level = 0; level < view->num_levels(); ++level) {
        for (const FileMetaData& m : f.levels[level]) {
          const std::string path =
              NormalizePath(db_path_ + "/" + "/" + MakeFileNumber(m.number) + ".sst");
          std::printf("%s level:%d\n------------------------------\n", path.c_str(), level);
          DumpTable(*view, m, path);
          std::printf("\n");
        }
      }
      std::printf("Blob Files\n==============================\n");
    }
    std::printf("\nWrite Ahead Log Files\n==============================\n");
    std::vector<std::string> children;
    const std::string wal_dir = WalDir();
    s = fs->GetChildren(wal_dir, &children);
    std::vector<uint64_t> wals;
    for (const std::string& name : children) {
      uint64_t number = 0;
      FileType type;
      if (ParseFileName(name, &number, &type) && type == FileType::kWalFile) wals.push_back(number);
    }
    std::sort(wals.begin(), wals.end());
    for (uint64_t number : wals) {
      const std::string path = wal_dir + "/" + MakeFileNumber(number) + ".log";
      std::printf("%s\n", path.c_str());
      std::fflush(stdout);
      DumpWalFile(path, true, true, &state_);
    }
  }
};

class CheckConsistencyCommand : public LdbCommand {
 public:
  explicit CheckConsistencyCommand(const LdbArgs& args) : LdbCommand(args, true, {}) {}
  static void Help(std::string* r) { r->append("  checkconsistency\n"); }

 private:
  bool NoDbOpen() const override { return true; }
  void DoCommand() override {
    // The files the MANIFEST lists must all be there with their sizes, and
    // the DB must open (read-only).
    ManifestState state;
    FileSystem* fs = Env::Default()->GetFileSystem();
    Status s = LiveState(db_path_, &state);
    for (const ManifestFamily& f : state.families) {
      for (const auto& level : f.levels) {
        for (const FileMetaData& m : level) {
          if (!s.ok()) break;
          const std::string path = TableFileName(db_path_, m.number);
          uint64_t size = 0;
          s = fs->GetFileSize(path, &size);
          if (s.ok() && size != m.file_size) {
            s = Status::Corruption("Sst file size mismatch: " + path +
                                   ". Size recorded in manifest " + std::to_string(m.file_size) +
                                   ", actual size " + std::to_string(size));
          }
        }
      }
    }
    if (!s.ok()) {
      state_.Fail(s.ToString());
      return;
    }
    if (OpenDb()) std::printf("OK\n");
    CloseDb();
  }
};

}  // namespace

void AddFileCommands(std::vector<CommandInfo>* t) {
  t->push_back({"checkconsistency", MakeCommand<CheckConsistencyCommand>,
                CheckConsistencyCommand::Help, HelpSection::kData});
  t->push_back(
      {"dump_wal", MakeCommand<DumpWalCommand>, DumpWalCommand::Help, HelpSection::kAdmin});
  t->push_back({"manifest_dump", MakeCommand<ManifestDumpCommand>, ManifestDumpCommand::Help,
                HelpSection::kAdmin});
  t->push_back({"dump_live_files", MakeCommand<DumpLiveFilesCommand>, DumpLiveFilesCommand::Help,
                HelpSection::kAdmin});
  t->push_back({"list_live_files_metadata", MakeCommand<ListLiveFilesMetadataCommand>,
                ListLiveFilesMetadataCommand::Help, HelpSection::kAdmin});
}

}  // namespace strata::ldb
