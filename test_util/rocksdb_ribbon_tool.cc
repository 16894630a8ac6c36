// rocksdb_ribbon_tool: a test helper that links the system RocksDB (librocksdb
// 7.8.3) and nothing of Strata, so ribbon_interop_test can have RocksDB write
// tables with its Ribbon filter policy and read tables that Strata wrote.
// Keys come from a file, one per line (bytes other than '\n'), ascending.
//
//   write PATH KEYS --bits=B [--bloom_before_level=L] [--bloom]
//       Writes an SST with rocksdb::SstFileWriter holding every key of KEYS
//       (value "v" + key) and a filter from NewRibbonFilterPolicy(B, L) (or
//       NewBloomFilterPolicy(B) with --bloom).
//   get PATH PRESENT ABSENT --bits=B
//       Ingests a copy of PATH into a fresh temporary DB whose table options
//       carry NewRibbonFilterPolicy(B), Gets every key of PRESENT (each must
//       be found with value "v" + key) and of ABSENT (each must be missing),
//       and prints
//         STATS found=F notfound=M filter_useful=U filter_positive=P
//               filter_true_positive=T
//       (rocksdb.bloom.filter.useful / .full.positive / .full.true.positive).
//   db DIR KEYS --bits=B --bloom_before_level=L
//       Makes a RocksDB DB in DIR (leveled compaction) with every key of
//       KEYS flushed twice and compacted by CompactRange into one L1 table,
//       then flushed once more into L0, leaving RocksDB-made tables of both
//       filter kinds (as the policy chooses) for Strata to open.
//
// Exit status: 0 on success, 1 on a RocksDB error or wrong answer, 2 on a
// usage error.
// Thread-safety: a single-threaded program.

#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/sst_file_writer.h>
#include <rocksdb/statistics.h>
#include <rocksdb/table.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace {

int Usage() {
  std::fprintf(stderr,
               "usage: rocksdb_ribbon_tool write PATH KEYS --bits=B [--bloom_before_level=L] "
               "[--bloom]\n"
               "       rocksdb_ribbon_tool get PATH PRESENT ABSENT --bits=B\n"
               "       rocksdb_ribbon_tool db DIR KEYS --bits=B --bloom_before_level=L\n");
  return 2;
}

bool ReadKeys(const std::string& path, std::vector<std::string>* keys) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::string line;
  while (std::getline(in, line)) keys->push_back(line);
  return true;
}

int Fail(const rocksdb::Status& s, const char* what) {
  std::fprintf(stderr, "%s: %s\n", what, s.ToString().c_str());
  return 1;
}

struct Flags {
  double bits = 10;
  int bloom_before_level = 0;
  bool bloom = false;
};

bool ParseFlag(const char* arg, Flags* f) {
  if (std::strncmp(arg, "--bits=", 7) == 0) {
    f->bits = std::atof(arg + 7);
  } else if (std::strncmp(arg, "--bloom_before_level=", 21) == 0) {
    f->bloom_before_level = std::atoi(arg + 21);
  } else if (std::strcmp(arg, "--bloom") == 0) {
    f->bloom = true;
  } else {
    return false;
  }
  return true;
}

rocksdb::Options MakeOptions(const Flags& f) {
  rocksdb::Options options;
  rocksdb::BlockBasedTableOptions t;
  t.filter_policy.reset(f.bloom ? rocksdb::NewBloomFilterPolicy(f.bits)
                                : rocksdb::NewRibbonFilterPolicy(f.bits, f.bloom_before_level));
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
  options.compression = rocksdb::kNoCompression;
  return options;
}

int Write(const std::string& path, const std::vector<std::string>& keys, const Flags& f) {
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), MakeOptions(f));
  rocksdb::Status s = writer.Open(path);
  if (!s.ok()) return Fail(s, "open");
  for (const auto& k : keys) {
    s = writer.Put(k, "v" + k);
    if (!s.ok()) return Fail(s, "put");
  }
  s = writer.Finish();
  return s.ok() ? 0 : Fail(s, "finish");
}

int Get(const std::string& path, const std::vector<std::string>& present,
        const std::vector<std::string>& absent, const Flags& f) {
  char tmpl[] = "/tmp/rocksdb_ribbon_tool.XXXXXX";
  if (mkdtemp(tmpl) == nullptr) return 1;
  const std::string dir = tmpl;
  const std::string copy = dir + "/in.sst";
  std::filesystem::copy_file(path, copy);
  rocksdb::Options options = MakeOptions(f);
  options.create_if_missing = true;
  options.statistics = rocksdb::CreateDBStatistics();
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, dir + "/db", &raw);
  if (!s.ok()) return Fail(s, "open db");
  std::unique_ptr<rocksdb::DB> db(raw);
  rocksdb::IngestExternalFileOptions ingest;
  ingest.move_files = true;
  s = db->IngestExternalFile({copy}, ingest);
  if (!s.ok()) return Fail(s, "ingest");
  options.statistics->Reset().PermitUncheckedError();
  int rc = 0;
  size_t found = 0, notfound = 0;
  std::string value;
  for (const auto& k : present) {
    s = db->Get(rocksdb::ReadOptions(), k, &value);
    if (s.ok() && value == "v" + k) {
      found++;
    } else {
      std::fprintf(stderr, "present key %s: %s\n", k.c_str(), s.ToString().c_str());
      rc = 1;
    }
  }
  for (const auto& k : absent) {
    s = db->Get(rocksdb::ReadOptions(), k, &value);
    if (s.IsNotFound()) {
      notfound++;
    } else {
      std::fprintf(stderr, "absent key %s: %s\n", k.c_str(), s.ToString().c_str());
      rc = 1;
    }
  }
  const auto& st = options.statistics;
  std::printf(
      "STATS found=%zu notfound=%zu filter_useful=%llu filter_positive=%llu "
      "filter_true_positive=%llu\n",
      found, notfound,
      static_cast<unsigned long long>(st->getTickerCount(rocksdb::BLOOM_FILTER_USEFUL)),
      static_cast<unsigned long long>(st->getTickerCount(rocksdb::BLOOM_FILTER_FULL_POSITIVE)),
      static_cast<unsigned long long>(
          st->getTickerCount(rocksdb::BLOOM_FILTER_FULL_TRUE_POSITIVE)));
  db.reset();
  std::filesystem::remove_all(dir);
  return rc;
}

int MakeDb(const std::string& dir, const std::vector<std::string>& keys, const Flags& f) {
  rocksdb::Options options = MakeOptions(f);
  options.create_if_missing = true;
  options.disable_auto_compactions = true;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, dir, &raw);
  if (!s.ok()) return Fail(s, "open db");
  std::unique_ptr<rocksdb::DB> db(raw);
  // Two overlapping flushes compacted together (no trivial move) into L1,
  // then a third flush left in L0.
  for (int round = 0; round < 3; round++) {
    for (const auto& k : keys) {
      s = db->Put(rocksdb::WriteOptions(), k, "v" + k);
      if (!s.ok()) return Fail(s, "put");
    }
    s = db->Flush(rocksdb::FlushOptions());
    if (!s.ok()) return Fail(s, "flush");
    if (round == 1) {
      rocksdb::CompactRangeOptions cro;
      s = db->CompactRange(cro, nullptr, nullptr);
      if (!s.ok()) return Fail(s, "compact");
    }
  }
  s = db->Close();
  return s.ok() ? 0 : Fail(s, "close");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) return Usage();
  const std::string cmd = argv[1];
  std::vector<std::string> positional;
  Flags f;
  for (int i = 2; i < argc; i++) {
    if (std::strncmp(argv[i], "--", 2) == 0) {
      if (!ParseFlag(argv[i], &f)) return Usage();
    } else {
      positional.push_back(argv[i]);
    }
  }
  if ((cmd == "write" || cmd == "db") && positional.size() == 2) {
    std::vector<std::string> keys;
    if (!ReadKeys(positional[1], &keys)) return Usage();
    return cmd == "write" ? Write(positional[0], keys, f) : MakeDb(positional[0], keys, f);
  }
  if (cmd == "get" && positional.size() == 3) {
    std::vector<std::string> present, absent;
    if (!ReadKeys(positional[1], &present) || !ReadKeys(positional[2], &absent)) return Usage();
    return Get(positional[0], present, absent, f);
  }
  return Usage();
}
