#include "db/filename.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

namespace strata {

namespace {

std::string NumberedName(const std::string& dbname, uint64_t number, const char* suffix) {
  char buf[64];
  snprintf(buf, sizeof(buf), "/%06" PRIu64 ".%s", number, suffix);
  return dbname + buf;
}

// Parses a decimal number at the front of *s, advancing it. False on
// overflow or when there is no digit.
bool ConsumeDecimal(Slice* s, uint64_t* value) {
  uint64_t v = 0;
  size_t digits = 0;
  while (digits < s->size() && (*s)[digits] >= '0' && (*s)[digits] <= '9') {
    const uint64_t d = static_cast<uint64_t>((*s)[digits] - '0');
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
    digits++;
  }
  if (digits == 0) return false;
  s->remove_prefix(digits);
  *value = v;
  return true;
}

}  // namespace

std::string MakeFileNumber(uint64_t number) {
  char buf[32];
  snprintf(buf, sizeof(buf), "%06" PRIu64, number);
  return buf;
}

std::string WalDirOf(const std::string& dbname, const std::string& wal_dir) {
  auto strip = [](std::string p) {
    while (p.size() > 1 && p.back() == '/') p.pop_back();
    return p;
  };
  std::string dir = strip(wal_dir);
  if (dir.empty() || dir == strip(dbname)) return dbname;
  return dir;
}

void TakeWalsFromWalDir(FileSystem* fs, const std::string& dbname, const std::string& wal_dir,
                        std::vector<std::string>* children) {
  if (wal_dir == dbname) return;
  auto is_wal = [](const std::string& name) {
    uint64_t number;
    FileType type;
    return ParseFileName(name, &number, &type) && type == FileType::kWalFile;
  };
  children->erase(std::remove_if(children->begin(), children->end(), is_wal), children->end());
  std::vector<std::string> wals;
  if (!fs->GetChildren(wal_dir, &wals).ok()) return;
  for (std::string& name : wals) {
    if (is_wal(name)) children->push_back(std::move(name));
  }
}

std::string LogFileName(const std::string& dbname, uint64_t number) {
  return NumberedName(dbname, number, "log");
}
std::string TableFileName(const std::string& dbname, uint64_t number) {
  return NumberedName(dbname, number, "sst");
}
std::string TableFileName(const std::vector<DbPath>& paths, uint64_t number, uint32_t path_id) {
  return TableFileName(paths[path_id].path, number);
}
std::vector<DbPath> TablePathsOf(const std::string& dbname, const std::vector<DbPath>& db_paths,
                                 const std::vector<DbPath>& cf_paths) {
  if (!cf_paths.empty()) return cf_paths;
  if (!db_paths.empty()) return db_paths;
  return {DbPath(dbname, UINT64_MAX)};
}
bool SameDirectory(const std::string& a, const std::string& b) {
  size_t na = a.size(), nb = b.size();
  while (na > 1 && a[na - 1] == '/') --na;
  while (nb > 1 && b[nb - 1] == '/') --nb;
  return a.compare(0, na, b, 0, nb) == 0;
}
std::string TempFileName(const std::string& dbname, uint64_t number) {
  return NumberedName(dbname, number, "dbtmp");
}
std::string DescriptorFileName(const std::string& dbname, uint64_t number) {
  return dbname + "/MANIFEST-" + MakeFileNumber(number);
}
std::string OptionsFileName(const std::string& dbname, uint64_t number) {
  return dbname + "/OPTIONS-" + MakeFileNumber(number);
}
std::string CurrentFileName(const std::string& dbname) { return dbname + "/CURRENT"; }
std::string LockFileName(const std::string& dbname) { return dbname + "/LOCK"; }
std::string InfoLogFileName(const std::string& dbname) { return dbname + "/LOG"; }
std::string OldInfoLogFileName(const std::string& dbname, uint64_t micros) {
  return dbname + "/LOG.old." + std::to_string(micros);
}
std::string IdentityFileName(const std::string& dbname) { return dbname + "/IDENTITY"; }

bool ParseFileName(const std::string& filename, uint64_t* number, FileType* type) {
  Slice rest(filename);
  if (rest == "CURRENT") {
    *number = 0;
    *type = FileType::kCurrentFile;
  } else if (rest == "LOCK") {
    *number = 0;
    *type = FileType::kDBLockFile;
  } else if (rest == "IDENTITY") {
    *number = 0;
    *type = FileType::kIdentityFile;
  } else if (rest == "LOG" || rest.starts_with("LOG.old.")) {
    *number = 0;
    *type = FileType::kInfoLogFile;
  } else if (rest.starts_with("MANIFEST-")) {
    rest.remove_prefix(strlen("MANIFEST-"));
    uint64_t num;
    if (!ConsumeDecimal(&rest, &num) || !rest.empty()) return false;
    *number = num;
    *type = FileType::kDescriptorFile;
  } else if (rest.starts_with("OPTIONS-")) {
    rest.remove_prefix(strlen("OPTIONS-"));
    uint64_t num;
    if (!ConsumeDecimal(&rest, &num)) return false;
    // "OPTIONS-NNNNNN" or "OPTIONS-NNNNNN.dbtmp" while being written.
    if (rest.empty()) {
      *type = FileType::kOptionsFile;
    } else if (rest == ".dbtmp") {
      *type = FileType::kTempFile;
    } else {
      return false;
    }
    *number = num;
  } else {
    uint64_t num;
    if (!ConsumeDecimal(&rest, &num)) return false;
    if (rest == ".log") {
      *type = FileType::kWalFile;
    } else if (rest == ".sst" || rest == ".ldb") {
      *type = FileType::kTableFile;
    } else if (rest == ".dbtmp") {
      *type = FileType::kTempFile;
    } else if (rest == ".blob") {
      *type = FileType::kBlobFile;
    } else {
      return false;
    }
    *number = num;
  }
  return true;
}

Status SetCurrentFile(FileSystem* fs, const std::string& dbname, uint64_t descriptor_number,
                      Directory* db_dir, bool use_fsync) {
  const std::string manifest = DescriptorFileName(dbname, descriptor_number);
  Slice contents(manifest);
  contents.remove_prefix(dbname.size() + 1);  // just the file name
  const std::string tmp = TempFileName(dbname, descriptor_number);
  FileOptions opts;
  opts.use_fsync = use_fsync;
  Status s = WriteStringToFile(fs, contents.ToString() + "\n", tmp, /*should_sync=*/true, opts);
  if (s.ok()) s = fs->RenameFile(tmp, CurrentFileName(dbname));
  if (s.ok() && db_dir != nullptr) s = db_dir->Fsync();
  if (!s.ok()) fs->DeleteFile(tmp).PermitUncheckedError();
  return s;
}

}  // namespace strata
