// OpenDatabase (tools/ldb/ldb_open.h).

#include "tools/ldb/ldb_open.h"

#include <cstdlib>

#include "strata/env.h"

namespace strata::ldb {

namespace {

// Interim read-only open until DB::OpenForReadOnly lands: the directory's
// files are copied into a scratch directory and that copy is opened, so the
// original is only read.
Status CopyToScratch(FileSystem* fs, const std::string& path, std::string* scratch) {
  const char* tmp = std::getenv("TMPDIR");
  std::string dir = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/strata-ldb-" +
                    std::to_string(Env::Default()->NowNanos());
  Status s = fs->CreateDir(dir);
  if (!s.ok()) return s;
  *scratch = dir;
  std::vector<std::string> children;
  s = fs->GetChildren(path, &children);
  if (!s.ok()) return s;
  for (const std::string& name : children) {
    if (name == "." || name == ".." || name == "LOCK" || name.rfind("LOG", 0) == 0) continue;
    bool is_dir = false;
    if (fs->IsDirectory(path + "/" + name, &is_dir).ok() && is_dir) continue;
    std::string data;
    s = ReadFileToString(fs, path + "/" + name, &data);
    if (s.ok()) s = WriteStringToFile(fs, data, dir + "/" + name, false);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

}  // namespace

OpenedDb::~OpenedDb() {
  if (db != nullptr) {
    for (ColumnFamilyHandle* h : handles) db->DestroyColumnFamilyHandle(h).PermitUncheckedError();
    handles.clear();
    db->Close().PermitUncheckedError();
    db.reset();
  }
  if (!scratch.empty()) {
    FileSystem* fs = Env::Default()->GetFileSystem();
    std::vector<std::string> children;
    if (fs->GetChildren(scratch, &children).ok()) {
      for (const std::string& name : children) {
        if (name != "." && name != "..")
          fs->DeleteFile(scratch + "/" + name).PermitUncheckedError();
      }
    }
    fs->DeleteDir(scratch).PermitUncheckedError();
  }
}

Status OpenDatabase(const std::string& path, const Options& options,
                    const std::vector<std::string>& families, bool read_only,
                    std::unique_ptr<OpenedDb>* out) {
  auto opened = std::make_unique<OpenedDb>();
  Status s;
  std::string dir = path;
  if (read_only) {
    s = options.env->GetFileSystem()->FileExists(path + "/CURRENT");
    if (!s.ok()) return Status::InvalidArgument(path + "/CURRENT", "does not exist");
    s = CopyToScratch(options.env->GetFileSystem(), path, &opened->scratch);
    if (!s.ok()) return s;
    dir = opened->scratch;
  }
  if (families.empty()) {
    s = DB::Open(options, dir, &opened->db);
  } else {
    std::vector<ColumnFamilyDescriptor> descriptors;
    for (const std::string& name : families) {
      descriptors.emplace_back(name, static_cast<const ColumnFamilyOptions&>(options));
    }
    const DBOptions& db_options = options;
    s = DB::Open(db_options, dir, descriptors, &opened->handles, &opened->db);
  }
  if (!s.ok()) return s;
  *out = std::move(opened);
  return Status::OK();
}

}  // namespace strata::ldb
