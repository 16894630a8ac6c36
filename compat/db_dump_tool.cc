// compat/db_dump_tool.cc: DbDumpTool and DbUndumpTool
// (rocksdb/db_dump_tool.h; the file format is documented there), and the
// benchmark/stress tool entry points, which this library does not carry.
#include "rocksdb/db_dump_tool.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>

#include "rocksdb/cache_bench_tool.h"
#include "rocksdb/db_bench_tool.h"
#include "rocksdb/db_stress_tool.h"
#include "rocksdb/env.h"

namespace rocksdb {
namespace {

const char kMagic[8] = {'R', 'O', 'C', 'K', 'D', 'U', 'M', 'P'};
const char kVersion[8] = {0, 0, 0, 0, 0, 0, 0, 1};

void PutFixed32(char* dst, uint32_t v) {
  for (int i = 0; i < 4; ++i) dst[i] = static_cast<char>(v >> (8 * i));
}

uint32_t GetFixed32(const char* src) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(src[i]);
  return v;
}

// Appends a fixed32 size and the bytes.
Status AppendSized(WritableFile* file, const Slice& s) {
  char size[4];
  PutFixed32(size, static_cast<uint32_t>(s.size()));
  Status st = file->Append(Slice(size, 4));
  if (st.ok()) st = file->Append(s);
  return st;
}

// Reads exactly n bytes into *out (false: fewer were there).
bool ReadExactly(SequentialFile* file, size_t n, std::string* out, Status* status) {
  out->resize(n);
  size_t got = 0;
  while (got < n) {
    Slice part;
    *status = file->Read(n - got, &part, &(*out)[got]);
    if (!status->ok() || part.empty()) return false;
    if (part.data() != out->data() + got) memmove(&(*out)[got], part.data(), part.size());
    got += part.size();
  }
  return true;
}

int NotInThisLibrary(const char* call, const char* program) {
  std::fprintf(stderr, "%s: not available in libstrata-rocksdb; run Strata's %s program instead\n",
               call, program);
  return 1;
}

}  // namespace

bool DbDumpTool::Run(const DumpOptions& dump_options, Options options) {
  Env* env = Env::Default();
  options.create_if_missing = false;
  DB* raw = nullptr;
  Status s = DB::OpenForReadOnly(options, dump_options.db_path, &raw);
  if (!s.ok()) {
    std::cerr << "Unable to open database '" << dump_options.db_path
              << "' for reading: " << s.ToString() << std::endl;
    return false;
  }
  const std::unique_ptr<DB> db(raw);
  std::unique_ptr<WritableFile> file;
  s = env->NewWritableFile(dump_options.dump_location, &file, EnvOptions());
  if (!s.ok()) {
    std::cerr << "Unable to open dump file '" << dump_options.dump_location
              << "' for writing: " << s.ToString() << std::endl;
    return false;
  }
  std::string info = "{}";
  if (!dump_options.anonymous) {
    char host[1024] = "";
    int64_t now = 0;
    std::string path;
    env->GetHostName(host, sizeof(host)).PermitUncheckedError();
    env->GetCurrentTime(&now).PermitUncheckedError();
    env->GetAbsolutePath(dump_options.db_path, &path).PermitUncheckedError();
    char json[4096];
    std::snprintf(json, sizeof(json),
                  "{ \"database-path\": \"%s\", \"hostname\": \"%s\", \"creation-time\": %" PRIi64
                  " }",
                  path.c_str(), host, now);
    info = json;
  }
  s = file->Append(Slice(kMagic, 8));
  if (s.ok()) s = file->Append(Slice(kVersion, 8));
  if (s.ok()) s = AppendSized(file.get(), info);
  const std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions()));
  for (it->SeekToFirst(); s.ok() && it->Valid(); it->Next()) {
    s = AppendSized(file.get(), it->key());
    if (s.ok()) s = AppendSized(file.get(), it->value());
  }
  if (!s.ok()) {
    std::cerr << "Append failed: " << s.ToString() << std::endl;
    return false;
  }
  if (!it->status().ok()) {
    std::cerr << "Database iteration failed: " << it->status().ToString() << std::endl;
    return false;
  }
  s = file->Close();
  if (!s.ok()) {
    std::cerr << "Append failed: " << s.ToString() << std::endl;
    return false;
  }
  return true;
}

bool DbUndumpTool::Run(const UndumpOptions& undump_options, Options options) {
  Env* env = Env::Default();
  std::unique_ptr<SequentialFile> file;
  Status s = env->NewSequentialFile(undump_options.dump_location, &file, EnvOptions());
  if (!s.ok()) {
    std::cerr << "Unable to open dump file '" << undump_options.dump_location
              << "' for reading: " << s.ToString() << std::endl;
    return false;
  }
  std::string buf;
  if (!ReadExactly(file.get(), 8, &buf, &s) || memcmp(buf.data(), kMagic, 8) != 0) {
    std::cerr << "File '" << undump_options.dump_location << "' is not a recognizable dump file."
              << std::endl;
    return false;
  }
  if (!ReadExactly(file.get(), 8, &buf, &s) || memcmp(buf.data(), kVersion, 8) != 0) {
    std::cerr << "File '" << undump_options.dump_location << "' version not recognized."
              << std::endl;
    return false;
  }
  if (!ReadExactly(file.get(), 4, &buf, &s)) {
    std::cerr << "Unable to read info blob size." << std::endl;
    return false;
  }
  s = file->Skip(GetFixed32(buf.data()));
  if (!s.ok()) {
    std::cerr << "Unable to skip info blob: " << s.ToString() << std::endl;
    return false;
  }
  options.create_if_missing = true;
  DB* raw = nullptr;
  s = DB::Open(options, undump_options.db_path, &raw);
  if (!s.ok()) {
    std::cerr << "Unable to open database '" << undump_options.db_path
              << "' for writing: " << s.ToString() << std::endl;
    return false;
  }
  const std::unique_ptr<DB> db(raw);
  std::string key, value;
  // Entries until the file ends at an entry boundary.
  while (ReadExactly(file.get(), 4, &buf, &s)) {
    if (!ReadExactly(file.get(), GetFixed32(buf.data()), &key, &s)) {
      std::cerr << "Key read failure: " << (s.ok() ? "insufficient data" : s.ToString())
                << std::endl;
      return false;
    }
    if (!ReadExactly(file.get(), 4, &buf, &s)) {
      std::cerr << "Unable to read value size: " << (s.ok() ? "insufficient data" : s.ToString())
                << std::endl;
      return false;
    }
    if (!ReadExactly(file.get(), GetFixed32(buf.data()), &value, &s)) {
      std::cerr << "Unable to read value: " << (s.ok() ? "insufficient data" : s.ToString())
                << std::endl;
      return false;
    }
    s = db->Put(WriteOptions(), key, value);
    if (!s.ok()) {
      std::fprintf(stderr, "Unable to write database entry\n");
      return false;
    }
  }
  if (undump_options.compact_db) {
    s = db->CompactRange(CompactRangeOptions(), nullptr, nullptr);
    if (!s.ok()) {
      std::fprintf(stderr, "Unable to compact the database after loading the dumped file\n");
      return false;
    }
  }
  return true;
}

int db_bench_tool(int /*argc*/, char** /*argv*/) {
  return NotInThisLibrary("db_bench_tool", "db_bench");
}

int db_stress_tool(int /*argc*/, char** /*argv*/) {
  return NotInThisLibrary("db_stress_tool", "db_stress");
}

int cache_bench_tool(int /*argc*/, char** /*argv*/) {
  return NotInThisLibrary("cache_bench_tool", "cache_bench");
}

}  // namespace rocksdb
