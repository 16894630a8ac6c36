// rocksdb_paths_tool: a test helper that links the system RocksDB
// (librocksdb 7.8.3) and nothing of Strata, for the interop tests of
// DBOptions::wal_dir and db_paths (db/db_paths_interop_test.cc).
//
// Usage:
//   rocksdb_paths_tool write --db=DIR [--wal_dir=DIR] [--db_path=DIR:BYTES]...
//                            [--n=N]
//     Creates a DB (DIR must not hold one) and writes keys key000000 ..
//     key<N-1> (default 5000) with Value(i): the first half is flushed to
//     table files, the second half stays only in the WAL, and the program
//     ends with _exit(0) with the DB open, so the next open must replay the
//     WAL from wal_dir. --db_path (repeatable) sets DBOptions::db_paths;
//     --wal_compression sets DBOptions::wal_compression = kZSTD.
//   rocksdb_paths_tool read --db=DIR [--wal_dir=DIR] [--db_path=DIR:BYTES]...
//                           [--n=N]
//     Opens the DB (read-write, as a user would) and checks that exactly
//     the keys key000000 .. key<N-1> are there with Value(i).
//
// Standard output: "OK <keys>" on success, else a line naming the first
// difference. Exit status: 0 success, 1 a RocksDB error or a difference,
// 2 a usage error.
// Thread-safety: a single-threaded program.
#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

namespace {

std::string Key(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "key%06d", i);
  return buf;
}

std::string Value(int i) { return "value-" + std::to_string(i) + std::string(i % 50, 'x'); }

int Usage() {
  std::fprintf(stderr,
               "usage: rocksdb_paths_tool write|read --db=DIR [--wal_dir=DIR] "
               "[--db_path=DIR:BYTES]... [--wal_compression] [--n=N]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return Usage();
  const std::string mode = argv[1];
  rocksdb::Options options;
  std::string db;
  int n = 5000;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--db=", 0) == 0) {
      db = arg.substr(5);
    } else if (arg.rfind("--wal_dir=", 0) == 0) {
      options.wal_dir = arg.substr(10);
    } else if (arg.rfind("--db_path=", 0) == 0) {
      const std::string v = arg.substr(10);
      const size_t colon = v.rfind(':');
      if (colon == std::string::npos) return Usage();
      options.db_paths.emplace_back(v.substr(0, colon),
                                    std::strtoull(v.c_str() + colon + 1, nullptr, 10));
    } else if (arg == "--wal_compression") {
      options.wal_compression = rocksdb::kZSTD;
    } else if (arg.rfind("--n=", 0) == 0) {
      n = std::atoi(arg.c_str() + 4);
    } else {
      return Usage();
    }
  }
  if (db.empty() || (mode != "write" && mode != "read")) return Usage();

  options.create_if_missing = mode == "write";
  options.error_if_exists = mode == "write";
  options.write_buffer_size = 64 << 10;
  options.target_file_size_base = 64 << 10;
  options.max_bytes_for_level_base = 256 << 10;
  options.level0_file_num_compaction_trigger = 2;
  options.compression = rocksdb::kNoCompression;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, db, &raw);
  if (!s.ok()) {
    std::printf("open: %s\n", s.ToString().c_str());
    return 1;
  }
  std::unique_ptr<rocksdb::DB> d(raw);

  if (mode == "write") {
    for (int i = 0; i < n; ++i) {
      if (i == n / 2) {
        // The first half into tables (and compacted down), the rest only
        // in the WAL.
        s = d->Flush(rocksdb::FlushOptions());
        if (s.ok()) s = d->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr);
        if (!s.ok()) break;
        // A large buffer from here on: no flush before the _exit below.
        s = d->SetOptions({{"write_buffer_size", "67108864"}});
        if (!s.ok()) break;
      }
      s = d->Put(rocksdb::WriteOptions(), Key(i), Value(i));
      if (!s.ok()) break;
    }
    if (!s.ok()) {
      std::printf("write: %s\n", s.ToString().c_str());
      return 1;
    }
    std::printf("OK %d\n", n);
    std::fflush(stdout);
    _exit(0);  // the DB stays open: its WAL is replayed by the next open
  }

  std::unique_ptr<rocksdb::Iterator> it(d->NewIterator(rocksdb::ReadOptions()));
  int i = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++i) {
    if (i >= n || it->key().ToString() != Key(i) || it->value().ToString() != Value(i)) {
      std::printf("at %d: found %s\n", i, it->key().ToString().c_str());
      return 1;
    }
  }
  if (!it->status().ok()) {
    std::printf("iterate: %s\n", it->status().ToString().c_str());
    return 1;
  }
  if (i != n) {
    std::printf("found %d keys, want %d\n", i, n);
    return 1;
  }
  it.reset();
  s = d->Close();
  if (!s.ok()) {
    std::printf("close: %s\n", s.ToString().c_str());
    return 1;
  }
  std::printf("OK %d\n", n);
  return 0;
}
