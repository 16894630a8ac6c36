// rocksdb_checksum_tool: a test helper that links the system RocksDB
// (librocksdb 7.8.3) and nothing of Strata, for the full-file checksum
// interop test (db/db_file_checksum_interop_test.cc).
//
// Usage:
//   rocksdb_checksum_tool write --db=DIR [--n=N]
//     Creates a DB with DBOptions::file_checksum_gen_factory =
//     GetFileChecksumGenCrc32cFactory(), writes keys key000000 ..
//     key<N-1> (default 3000) in three flushed batches, compacts the whole
//     range once and writes one more flushed batch, then closes it.
//   rocksdb_checksum_tool list --db=DIR
//     Opens the DB with the crc32c factory and prints, one line per live
//     table file in file number order, "<number> <checksum hex> <function>"
//     (GetLiveFilesChecksumInfo), then "verify: <status>" from
//     VerifyFileChecksums.
//
// Exit status: 0 success, 1 a RocksDB error, 2 a usage error.
// Thread-safety: a single-threaded program.
#include <rocksdb/db.h>
#include <rocksdb/file_checksum.h>
#include <rocksdb/options.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace {

std::string Key(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "key%06d", i);
  return buf;
}

int Fail(const rocksdb::Status& s) {
  std::printf("error: %s\n", s.ToString().c_str());
  return 1;
}

std::string Hex(const std::string& s) {
  std::string out;
  char buf[3];
  for (unsigned char c : s) {
    std::snprintf(buf, sizeof(buf), "%02X", c);
    out += buf;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: rocksdb_checksum_tool write|list --db=DIR [--n=N]\n");
    return 2;
  }
  const std::string mode = argv[1];
  std::string dbname;
  int n = 3000;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--db=", 0) == 0) {
      dbname = arg.substr(5);
    } else if (arg.rfind("--n=", 0) == 0) {
      n = std::atoi(arg.c_str() + 4);
    } else {
      return 2;
    }
  }
  if (dbname.empty()) return 2;
  rocksdb::Options options;
  options.file_checksum_gen_factory = rocksdb::GetFileChecksumGenCrc32cFactory();
  rocksdb::DB* raw = nullptr;
  if (mode == "write") {
    options.create_if_missing = true;
    options.error_if_exists = true;
    rocksdb::Status s = rocksdb::DB::Open(options, dbname, &raw);
    if (!s.ok()) return Fail(s);
    std::unique_ptr<rocksdb::DB> db(raw);
    for (int part = 0; part < 3; ++part) {
      for (int i = part; i < n; i += 3) {
        s = db->Put(rocksdb::WriteOptions(), Key(i), "value-" + std::to_string(i));
        if (!s.ok()) return Fail(s);
      }
      s = db->Flush(rocksdb::FlushOptions());
      if (!s.ok()) return Fail(s);
    }
    s = db->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr);
    if (!s.ok()) return Fail(s);
    for (int i = 0; i < n; i += 7) {
      s = db->Put(rocksdb::WriteOptions(), Key(i), "again-" + std::to_string(i));
      if (!s.ok()) return Fail(s);
    }
    s = db->Flush(rocksdb::FlushOptions());
    if (!s.ok()) return Fail(s);
    s = db->Close();
    if (!s.ok()) return Fail(s);
    std::printf("OK\n");
    return 0;
  }
  if (mode == "list") {
    rocksdb::Status s = rocksdb::DB::Open(options, dbname, &raw);
    if (!s.ok()) return Fail(s);
    std::unique_ptr<rocksdb::DB> db(raw);
    std::unique_ptr<rocksdb::FileChecksumList> list(rocksdb::NewFileChecksumList());
    s = db->GetLiveFilesChecksumInfo(list.get());
    if (!s.ok()) return Fail(s);
    std::vector<uint64_t> numbers;
    std::vector<std::string> checksums;
    std::vector<std::string> names;
    s = list->GetAllFileChecksums(&numbers, &checksums, &names);
    if (!s.ok()) return Fail(s);
    for (size_t i = 0; i < numbers.size(); ++i) {
      std::printf("%" PRIu64 " %s %s\n", numbers[i], Hex(checksums[i]).c_str(), names[i].c_str());
    }
    std::printf("verify: %s\n", db->VerifyFileChecksums(rocksdb::ReadOptions()).ToString().c_str());
    return 0;
  }
  return 2;
}
