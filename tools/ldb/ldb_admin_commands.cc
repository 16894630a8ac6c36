// The administration commands of `strata`: list_column_families,
// create_column_family, drop_column_family, compact, get_property, repair,
// change_compaction_style,
// and Strata's own verify and count (not in ldb).

#include <cinttypes>
#include <climits>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "db/filename.h"
#include "db/log_reader.h"
#include "strata/iterator.h"
#include "strata/utilities/checkpoint.h"
#include "tools/ldb/ldb_commands.h"
#include "tools/ldb/ldb_manifest.h"

namespace strata::ldb {
namespace {

class ListColumnFamiliesCommand : public LdbCommand {
 public:
  explicit ListColumnFamiliesCommand(const LdbArgs& args) : LdbCommand(args, true, {}) {}
  static void Help(std::string* r) { r->append("  list_column_families\n"); }

 private:
  bool NoDbOpen() const override { return true; }
  void DoCommand() override {
    std::vector<std::string> names;
    Status s = DB::ListColumnFamilies(DBOptions(), db_path_, &names);
    if (!s.ok()) {
      // ldb reports this on stderr and still exits 0.
      std::fprintf(stderr, "Error in processing db %s %s\n", db_path_.c_str(),
                   s.ToString().c_str());
      return;
    }
    std::printf("Column families in %s: \n{", db_path_.c_str());
    for (size_t i = 0; i < names.size(); ++i) {
      std::printf("%s%s", i == 0 ? "" : ", ", names[i].c_str());
    }
    std::printf("}\n");
  }
};

class CreateColumnFamilyCommand : public LdbCommand {
 public:
  explicit CreateColumnFamilyCommand(const LdbArgs& args)
      : LdbCommand(args, false, {kArgDb}, /*common=*/false) {
    if (args.params.size() != 1) {
      state_.Fail("new column family name must be specified");
    } else {
      name_ = args.params[0];
    }
  }
  static void Help(std::string* r) {
    r->append("  create_column_family --db=<db_path> <new_column_family_name>\n");
  }

 private:
  void DoCommand() override {
    if (db_ == nullptr) return;
    ColumnFamilyHandle* handle = nullptr;
    Status s = db_->CreateColumnFamily(ColumnFamilyOptions(), name_, &handle);
    if (s.ok()) {
      std::printf("OK\n");
      db_->DestroyColumnFamilyHandle(handle).PermitUncheckedError();
    } else {
      state_.Fail("Fail to create new column family: " + s.ToString());
    }
    CloseDb();
  }
  std::string name_;
};

class DropColumnFamilyCommand : public LdbCommand {
 public:
  explicit DropColumnFamilyCommand(const LdbArgs& args)
      : LdbCommand(args, false, {kArgDb}, /*common=*/false) {
    if (args.params.size() != 1) {
      state_.Fail("The name of column family to drop must be specified");
    } else {
      name_ = args.params[0];
    }
  }
  static void Help(std::string* r) {
    r->append("  drop_column_family --db=<db_path> <column_family_name_to_drop>\n");
  }

 private:
  void DoCommand() override {
    if (db_ == nullptr) return;
    auto it = handles_.find(name_);
    if (it == handles_.end()) {
      state_.Fail("Column family: " + name_ + " doesn't exist in db.");
      return;
    }
    Status s = db_->DropColumnFamily(it->second);
    if (s.ok()) {
      std::printf("OK\n");
    } else {
      state_.Fail("Fail to drop column family: " + s.ToString());
    }
    CloseDb();
  }
  std::string name_;
};

class CompactCommand : public LdbCommand {
 public:
  explicit CompactCommand(const LdbArgs& args)
      : LdbCommand(args, false, {kArgFrom, kArgTo, kArgHex, kArgKeyHex, kArgValueHex, kArgTtl}) {
    if (const std::string* v = FindOption(args, kArgFrom)) {
      from_ = *v;
      has_from_ = true;
      if (!DecodeHexArg(key_hex_, &from_)) return;
    }
    if (const std::string* v = FindOption(args, kArgTo)) {
      to_ = *v;
      has_to_ = true;
      DecodeHexArg(key_hex_, &to_);
    }
  }
  static void Help(std::string* r) { r->append("  compact" + HelpRangeArgs() + "\n"); }

 private:
  void DoCommand() override {
    if (db_ == nullptr) return;
    Slice from(from_);
    Slice to(to_);
    CompactRangeOptions cro;
    cro.bottommost_level_compaction = BottommostLevelCompaction::kForceOptimized;
    Status s =
        db_->CompactRange(cro, CfHandle(), has_from_ ? &from : nullptr, has_to_ ? &to : nullptr);
    if (!s.ok()) {
      state_.Fail("Compaction failed: " + s.ToString());
    } else {
      state_.Succeed();
    }
  }
  std::string from_, to_;
  bool has_from_ = false;
  bool has_to_ = false;
};

class GetPropertyCommand : public LdbCommand {
 public:
  explicit GetPropertyCommand(const LdbArgs& args) : LdbCommand(args, true, {}) {
    if (args.params.size() != 1) {
      state_.Fail("property name must be specified");
    } else {
      property_ = args.params[0];
    }
  }
  static void Help(std::string* r) { r->append("  get_property <property_name>\n"); }

 private:
  void DoCommand() override {
    if (db_ == nullptr) return;
    std::string value;
    if (db_->GetProperty(CfHandle(), property_, &value)) {
      std::printf("%s: %s\n", property_.c_str(), value.c_str());
    } else {
      state_.Fail("failed to get property: " + property_);
    }
  }
  std::string property_;
};

// Writes the repair's log lines to stderr (ldb's StderrLogger).
class StderrLogger : public Logger {
 public:
  explicit StderrLogger(InfoLogLevel level) : Logger(level) {}
  void Logv(InfoLogLevel level, const char* format, va_list ap) override {
    if (level < GetInfoLogLevel()) return;
    std::vfprintf(stderr, format, ap);
    std::fputc('\n', stderr);
  }
};

class RepairCommand : public LdbCommand {
 public:
  explicit RepairCommand(const LdbArgs& args) : LdbCommand(args, false, {"verbose"}) {
    verbose_ = HasFlag(args, "verbose");
  }
  static void Help(std::string* r) { r->append("  repair [--verbose]\n"); }

 private:
  bool NoDbOpen() const override { return true; }
  void DoCommand() override {
    Options options;
    Status s = BuildOptions(&options);
    if (s.ok()) {
      options.info_log =
          std::make_shared<StderrLogger>(verbose_ ? InfoLogLevel::kInfo : InfoLogLevel::kWarn);
      s = RepairDB(db_path_, options);
    }
    if (s.ok()) {
      std::printf("OK\n");
    } else {
      state_.Fail(s.ToString());
    }
  }
  bool verbose_ = false;
};

class ReduceLevelsCommand : public LdbCommand {
 public:
  explicit ReduceLevelsCommand(const LdbArgs& args)
      : LdbCommand(args, false, {"new_levels", "print_old_levels"}) {
    print_old_levels_ = HasFlag(args, "print_old_levels");
    if (!IntOption("new_levels", &new_levels_)) return;
    if (new_levels_ <= 0) state_.Fail(" Use --new_levels to specify a new level number\n");
  }
  static void Help(std::string* r) {
    r->append("  reduce_levels --new_levels=<New number of levels> [--print_old_levels]\n");
  }

 private:
  bool NoDbOpen() const override { return true; }
  void DoCommand() override {
    if (new_levels_ <= 1) {
      state_.Fail("Invalid number of levels.\n");
      return;
    }
    // The levels in use, from the MANIFEST (ldb recovers the default family
    // alone, so a DB with more families fails the same way).
    FileSystem* fs = Env::Default()->GetFileSystem();
    std::string manifest;
    ManifestState state;
    Status s = CurrentManifestPath(fs, db_path_, &manifest);
    if (s.ok()) s = ReadManifest(fs, manifest, nullptr, &state);
    if (s.ok() && state.families.size() > 1) {
      std::string names;
      for (const ManifestFamily& f : state.families) {
        if (f.id != 0) names += (names.empty() ? "" : ", ") + f.name;
      }
      s = Status::InvalidArgument("Column families not opened: " + names);
    }
    if (!s.ok()) {
      state_.Fail(s.ToString());
      return;
    }
    int old_levels = 0;
    for (int level = 0; level < kDumpLevels; ++level) {
      if (!state.families[0].levels[level].empty()) old_levels = level + 1;
    }
    if (print_old_levels_) std::printf("The old number of levels in use is %d\n", old_levels);
    if (old_levels <= new_levels_) return;
    // As ldb: compact everything to the bottom, then move that one level up
    // to new_levels - 1 in a new MANIFEST.
    if (!OpenDb()) return;
    std::printf("Compacting the db...\n");
    CompactRangeOptions cro;
    cro.bottommost_level_compaction = BottommostLevelCompaction::kForce;
    ManifestState after;
    // Strata's full compaction may leave a file above the bottom level when
    // a background job ran meanwhile; a few more rounds settle it.
    for (int round = 0; round < 3 && s.ok(); ++round) {
      s = db_->CompactRange(cro, CfHandle(), nullptr, nullptr);
      after = ManifestState();
      if (s.ok()) s = CurrentManifestPath(fs, db_path_, &manifest);
      if (s.ok()) s = ReadManifest(fs, manifest, nullptr, &after);
      int nonempty = 0;
      for (const auto& level : after.families[0].levels) nonempty += level.empty() ? 0 : 1;
      if (s.ok() && nonempty <= 1) break;
    }
    CloseDb();
    if (s.ok()) s = CurrentManifestPath(fs, db_path_, &manifest);
    after = ManifestState();
    if (s.ok()) s = ReadManifest(fs, manifest, nullptr, &after);
    if (s.ok()) s = MoveLastLevel(fs, manifest, &after);
    if (!s.ok()) state_.Fail(s.ToString());
  }

  Status MoveLastLevel(FileSystem* fs, const std::string& manifest, ManifestState* state) {
    std::vector<std::vector<FileMetaData>>& levels = state->families[0].levels;
    int nonempty = -1;
    for (int level = new_levels_ - 1; level < kDumpLevels; ++level) {
      if (levels[level].empty()) continue;
      if (nonempty >= 0) {
        char msg[255];
        std::snprintf(msg, sizeof(msg),
                      "Found at least two levels containing files: [%d:%zu],[%d:%zu].\n", nonempty,
                      levels[nonempty].size(), level, levels[level].size());
        return Status::InvalidArgument(msg);
      }
      nonempty = level;
    }
    if (nonempty <= new_levels_ - 1) return Status::OK();
    levels[new_levels_ - 1] = std::move(levels[nonempty]);
    levels[nonempty].clear();
    return WriteManifestSnapshot(fs, db_path_, *state, manifest);
  }

  int new_levels_ = -1;
  bool print_old_levels_ = false;
};

// Opens every family read-only, whatever --column_family says.
class AllFamiliesCommand : public LdbCommand {
 public:
  explicit AllFamiliesCommand(const LdbArgs& args) : LdbCommand(args, true, {kArgMergeOperator}) {}

 protected:
  bool NoDbOpen() const override { return true; }
  bool OpenAll() {
    Options options;
    Status s = BuildOptions(&options);
    std::vector<ColumnFamilyDescriptor> families;
    if (s.ok()) s = ListFamilies(&options, &families);
    if (s.ok() && families.empty()) {
      // Every family, even when the default is the only one.
      std::vector<std::string> names;
      s = DB::ListColumnFamilies(options, db_path_, &names);
      for (const std::string& name : names) families.emplace_back(name, options);
    }
    if (s.ok()) s = OpenDatabase(db_path_, options, families, /*read_only=*/true, &opened_);
    if (!s.ok()) {
      state_.Fail(s.ToString());
      return false;
    }
    db_ = opened_->db.get();
    return true;
  }
};

struct FirstDamage : public log::Reader::Reporter {
  void Corruption(size_t /*bytes*/, const Status& s) override {
    if (status.ok()) status = s;
  }
  Status status;
};

// Reads every WAL of the directory with checksums; the first damage found.
Status VerifyWals(const std::string& dir) {
  FileSystem* fs = Env::Default()->GetFileSystem();
  std::vector<std::string> children;
  Status s = fs->GetChildren(dir, &children);
  if (!s.ok()) return s;
  for (const std::string& name : children) {
    uint64_t number = 0;
    FileType type;
    if (!ParseFileName(name, &number, &type) || type != FileType::kWalFile) continue;
    std::unique_ptr<SequentialFile> file;
    const std::string path = dir + "/" + name;
    s = fs->NewSequentialFile(path, FileOptions(), &file);
    if (!s.ok()) return s;
    FirstDamage damage;
    log::Reader reader(std::move(file), &damage, true, number, path);
    Slice record;
    std::string scratch;
    // Every record must be whole: a damaged last record is damage here,
    // not a torn write to forgive.
    while (reader.ReadRecord(&record, &scratch, WALRecoveryMode::kAbsoluteConsistency)) {
    }
    if (!damage.status.ok()) return damage.status;  // names the file and offset
  }
  return Status::OK();
}

// Every live table the MANIFEST names exists with the size it records.
Status VerifyLiveFiles(const std::string& dir) {
  FileSystem* fs = Env::Default()->GetFileSystem();
  std::string manifest;
  Status s = CurrentManifestPath(fs, dir, &manifest);
  ManifestState state;
  if (s.ok()) s = ReadManifest(fs, manifest, nullptr, &state);
  if (!s.ok()) return s;
  for (const ManifestFamily& f : state.families) {
    for (const auto& level : f.levels) {
      for (const FileMetaData& m : level) {
        const std::string path = TableFileName(dir, m.number);
        uint64_t size = 0;
        s = fs->GetFileSize(path, &size);
        if (!s.ok()) return Status::Corruption(path, "missing: " + s.ToString());
        if (size != m.file_size) {
          return Status::Corruption(path, "size " + std::to_string(size) + ", the MANIFEST says " +
                                              std::to_string(m.file_size));
        }
      }
    }
  }
  return Status::OK();
}

class VerifyCommand : public AllFamiliesCommand {
 public:
  explicit VerifyCommand(const LdbArgs& args) : AllFamiliesCommand(args) {}
  static void Help(std::string* r) {
    r->append(
        "  verify [--merge_operator=<name>]\n"
        "    (strata) read-only: every live table exists with its recorded size and every\n"
        "    block checksum holds, every WAL record's checksum holds\n");
  }

 private:
  void DoCommand() override {
    Status s = VerifyLiveFiles(db_path_);
    if (s.ok()) s = VerifyWals(db_path_);
    if (s.ok() && OpenAll()) s = db_->VerifyChecksum(ReadOptions());
    if (!state_.not_started()) return;
    if (!s.ok()) {
      state_.Fail(s.ToString());
      return;
    }
    std::printf("OK: every block of every live table file has a valid checksum\n");
  }
};

class CountCommand : public AllFamiliesCommand {
 public:
  explicit CountCommand(const LdbArgs& args) : AllFamiliesCommand(args) {}
  static void Help(std::string* r) {
    r->append(
        "  count [--merge_operator=<name>]\n"
        "    (strata) read-only: the number of keys in every column family\n");
  }

 private:
  void DoCommand() override {
    if (!OpenAll()) return;
    for (ColumnFamilyHandle* h : opened_->handles) {
      uint64_t n = 0;
      std::unique_ptr<Iterator> it = db_->NewIterator(ReadOptions(), h);
      for (it->SeekToFirst(); it->Valid(); it->Next()) ++n;
      if (!it->status().ok()) {
        state_.Fail(it->status().ToString());
        return;
      }
      std::printf("%s: %" PRIu64 " keys\n", h->GetName().c_str(), n);
    }
  }
};

}  // namespace

// checkpoint --checkpoint_dir=<dir>: an openable copy of the DB (tables
// linked), as ldb's; the memtables are flushed first.
class CheckpointCommand : public LdbCommand {
 public:
  explicit CheckpointCommand(const LdbArgs& args) : LdbCommand(args, false, {"checkpoint_dir"}) {
    if (const std::string* v = FindOption(args, "checkpoint_dir")) dir_ = *v;
  }
  static void Help(std::string* r) { r->append("  checkpoint [--checkpoint_dir] \n"); }

 private:
  void DoCommand() override {
    if (db_ == nullptr) return;
    if (dir_.empty()) {
      state_.Fail(Status::InvalidArgument("invalid checkpoint directory name").ToString());
      return;
    }
    std::unique_ptr<Checkpoint> checkpoint;
    Status s = Checkpoint::Create(db_, &checkpoint);
    if (s.ok()) s = checkpoint->CreateCheckpoint(dir_);
    if (s.ok()) {
      std::printf("OK\n");
      state_.Succeed();
    } else {
      state_.Fail(s.ToString());
    }
  }
  std::string dir_;
};

// change_compaction_style: ldb's preparation of a leveled DB for universal
// compaction. It does not write compaction_style anywhere: it opens the DB
// with automatic compactions off and target sizes so large that one output
// file holds everything, compacts the whole family and moves the result to
// level 0 (CompactRange with change_level, target_level 0), then checks
// that level 0 holds exactly one file and every other level none. The user
// then opens the DB with kCompactionStyleUniversal. Only level (0) to
// universal (1) does anything; the other pairs fail with ldb's messages.
class ChangeCompactionStyleCommand : public LdbCommand {
 public:
  static constexpr const char* kArgOld = "old_compaction_style";
  static constexpr const char* kArgNew = "new_compaction_style";

  explicit ChangeCompactionStyleCommand(const LdbArgs& args)
      : LdbCommand(args, false, {kArgOld, kArgNew}) {
    // As ldb: a missing or unparsable value stays -1 and fails as "not a
    // style" (the message of the bad style replaces that of the bad int).
    IntOption(kArgOld, &old_style_);
    if (old_style_ != kCompactionStyleLevel && old_style_ != kCompactionStyleUniversal) {
      state_.Fail(std::string("Use --") + kArgOld +
                  " to specify old compaction style. Check ldb help for proper compaction style "
                  "value.\n");
      return;
    }
    IntOption(kArgNew, &new_style_);
    if (new_style_ != kCompactionStyleLevel && new_style_ != kCompactionStyleUniversal) {
      state_.Fail(std::string("Use --") + kArgNew +
                  " to specify new compaction style. Check ldb help for proper compaction style "
                  "value.\n");
      return;
    }
    if (new_style_ == old_style_) {
      state_.Fail("Old compaction style is the same as new compaction style. Nothing to do.\n");
      return;
    }
    if (old_style_ == kCompactionStyleUniversal && new_style_ == kCompactionStyleLevel) {
      state_.Fail("Convert from universal compaction to level compaction. Nothing to do.\n");
      return;
    }
  }
  static void Help(std::string* r) {
    r->append(std::string("  change_compaction_style --") + kArgOld +
              "=<Old compaction style: 0 for level compaction, 1 for universal compaction> --" +
              kArgNew +
              "=<New compaction style: 0 for level compaction, 1 for universal compaction>\n");
  }

 private:
  void OverrideOptions(Options* o) override {
    // Level to universal (the only pair that gets here): one output file
    // and no background compaction moving things meanwhile. ldb's values.
    o->disable_auto_compactions = true;
    o->target_file_size_base = INT_MAX;
    o->target_file_size_multiplier = 1;
    o->max_bytes_for_level_base = INT_MAX;
    o->max_bytes_for_level_multiplier = 1;
  }

  // "n0,n1,...": the files of every level of the family, as ldb prints them.
  std::string FilesPerLevel() {
    std::string r;
    for (int level = 0; level < db_->NumberLevels(CfHandle()); ++level) {
      std::string v;
      if (!db_->GetProperty(CfHandle(), "rocksdb.num-files-at-level" + std::to_string(level), &v)) {
        v.clear();
      }
      r += (level == 0 ? "" : ",") + v;
    }
    return r;
  }

  void DoCommand() override {
    if (db_ == nullptr) return;
    std::printf("files per level before compaction: %s\n", FilesPerLevel().c_str());
    CompactRangeOptions cro;
    cro.change_level = true;
    cro.target_level = 0;
    Status s = db_->CompactRange(cro, CfHandle(), nullptr, nullptr);
    if (!s.ok()) {
      state_.Fail("Compaction failed: " + s.ToString());
      return;
    }
    for (int level = 0; level < db_->NumberLevels(CfHandle()); ++level) {
      std::string v;
      if (!db_->GetProperty(CfHandle(), "rocksdb.num-files-at-level" + std::to_string(level), &v)) {
        v = "0";
      }
      const int files = std::atoi(v.c_str());
      if (level == 0 && files != 1) {
        state_.Fail("Number of db files at level 0 after compaction is " + std::to_string(files) +
                    ", not 1.\n");
        return;
      }
      if (level > 0 && files != 0) {
        state_.Fail("Number of db files at level " + std::to_string(level) +
                    " after compaction is " + std::to_string(files) + ", not 0.\n");
        return;
      }
    }
    std::printf("files per level after compaction: %s\n", FilesPerLevel().c_str());
  }

  int old_style_ = -1;
  int new_style_ = -1;
};

void AddAdminCommands(std::vector<CommandInfo>* t) {
  t->push_back(
      {"checkpoint", MakeCommand<CheckpointCommand>, CheckpointCommand::Help, HelpSection::kAdmin});
  t->push_back({"compact", MakeCommand<CompactCommand>, CompactCommand::Help, HelpSection::kAdmin});
  t->push_back({"get_property", MakeCommand<GetPropertyCommand>, GetPropertyCommand::Help,
                HelpSection::kAdmin});
  t->push_back({"list_column_families", MakeCommand<ListColumnFamiliesCommand>,
                ListColumnFamiliesCommand::Help, HelpSection::kAdmin});
  t->push_back({"create_column_family", MakeCommand<CreateColumnFamilyCommand>,
                CreateColumnFamilyCommand::Help, HelpSection::kAdmin});
  t->push_back({"drop_column_family", MakeCommand<DropColumnFamilyCommand>,
                DropColumnFamilyCommand::Help, HelpSection::kAdmin});
  t->push_back({"reduce_levels", MakeCommand<ReduceLevelsCommand>, ReduceLevelsCommand::Help,
                HelpSection::kAdmin});
  t->push_back({"change_compaction_style", MakeCommand<ChangeCompactionStyleCommand>,
                ChangeCompactionStyleCommand::Help, HelpSection::kAdmin});
  t->push_back({"repair", MakeCommand<RepairCommand>, RepairCommand::Help, HelpSection::kAdmin});
  t->push_back({"verify", MakeCommand<VerifyCommand>, VerifyCommand::Help, HelpSection::kAdmin});
  t->push_back({"count", MakeCommand<CountCommand>, CountCommand::Help, HelpSection::kAdmin});
}

}  // namespace strata::ldb
