// rocksdb_partition_tool: a test helper linked with the system RocksDB
// (7.8.3) only, for db/partitioned_interop_test: RocksDB writes tables with a
// partitioned index (kTwoLevelIndexSearch) and partitioned filters, and reads
// Strata's. Keys and values are lowercase hex.
//
//   write PATH --input=FILE [table flags]
//       Writes the entries of FILE ("<key> <value>" lines, keys ascending)
//       with rocksdb::SstFileWriter.
//   get PATH --keys=FILE [table flags]
//       Ingests a copy of PATH into a scratch DB with these table options,
//       Gets each key of FILE, then scans the DB.
//   dbget DBDIR --keys=FILE [table flags]
//       Opens DBDIR read-only (a DB another program wrote) and does the same.
//   The output of get and dbget:
//       FOUND <key> <value>  |  NOTFOUND <key>     per key
//       SCAN <entries>                             a full forward scan
//       STATS found=F notfound=M filter_useful=U filter_positive=P
//             prefix_checked=C prefix_useful=R index_partitions=I
//   (index_partitions: the "rocksdb.index.partitions" property summed over
//   the DB's tables).
//
// Table flags: --bloom_bits=N (default 10; 0 = no filter)
//   --partition_filters=0|1 (1) --metadata_block_size=N (4096)
//   --block_size=N (4096) --index_restart=N (1) --prefix_len=N (0)
//   --whole_key_filtering=0|1 (1) --compression=none|snappy|lz4|zstd
//   --cache_index_and_filter_blocks=0|1 (0) --index_type=0..3 (2,
//   kTwoLevelIndexSearch; 1 kHashSearch needs --prefix_len). format_version 5.
//
// Exit status: 0 on success, 1 on a RocksDB error, 2 on a usage error.
// Thread-safety: a single-threaded program.

#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/sst_file_writer.h>
#include <rocksdb/statistics.h>
#include <rocksdb/table.h>
#include <rocksdb/table_properties.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

std::string ToHex(const rocksdb::Slice& s) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < s.size(); i++) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 0xf]);
  }
  return out;
}

bool FromHex(const std::string& h, std::string* out) {
  auto digit = [](char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  if (h.size() % 2 != 0) return false;
  out->clear();
  for (size_t i = 0; i < h.size(); i += 2) {
    const int a = digit(h[i]), b = digit(h[i + 1]);
    if (a < 0 || b < 0) return false;
    out->push_back(static_cast<char>(a * 16 + b));
  }
  return true;
}

std::map<std::string, std::string> ParseFlags(int argc, char** argv, int first) {
  std::map<std::string, std::string> flags;
  for (int i = first; i < argc; i++) {
    const std::string a = argv[i];
    if (a.rfind("--", 0) != 0) continue;
    const size_t eq = a.find('=');
    flags[a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2)] =
        eq == std::string::npos ? "1" : a.substr(eq + 1);
  }
  return flags;
}

long long IntFlag(const std::map<std::string, std::string>& f, const char* name, long long def) {
  auto it = f.find(name);
  return it == f.end() ? def : std::strtoll(it->second.c_str(), nullptr, 10);
}

bool MakeOptions(const std::map<std::string, std::string>& f, rocksdb::Options* options) {
  rocksdb::BlockBasedTableOptions t;
  t.format_version = 5;
  const long long index_type = IntFlag(f, "index_type", 2);
  if (index_type < 0 || index_type > 3) {
    std::fprintf(stderr, "bad --index_type\n");
    return false;
  }
  t.index_type = static_cast<rocksdb::BlockBasedTableOptions::IndexType>(index_type);
  t.partition_filters = IntFlag(f, "partition_filters", 1) != 0;
  t.metadata_block_size = static_cast<uint64_t>(IntFlag(f, "metadata_block_size", 4096));
  t.block_size = static_cast<size_t>(IntFlag(f, "block_size", 4096));
  t.index_block_restart_interval = static_cast<int>(IntFlag(f, "index_restart", 1));
  t.whole_key_filtering = IntFlag(f, "whole_key_filtering", 1) != 0;
  t.cache_index_and_filter_blocks = IntFlag(f, "cache_index_and_filter_blocks", 0) != 0;
  const long long bits = IntFlag(f, "bloom_bits", 10);
  if (bits > 0) t.filter_policy.reset(rocksdb::NewBloomFilterPolicy(static_cast<double>(bits)));
  const long long prefix_len = IntFlag(f, "prefix_len", 0);
  if (prefix_len > 0) {
    options->prefix_extractor.reset(
        rocksdb::NewFixedPrefixTransform(static_cast<size_t>(prefix_len)));
  }
  const auto c = f.count("compression") != 0 ? f.at("compression") : std::string("none");
  if (c == "none") {
    options->compression = rocksdb::kNoCompression;
  } else if (c == "snappy") {
    options->compression = rocksdb::kSnappyCompression;
  } else if (c == "lz4") {
    options->compression = rocksdb::kLZ4Compression;
  } else if (c == "zstd") {
    options->compression = rocksdb::kZSTD;
  } else {
    std::fprintf(stderr, "unknown --compression=%s\n", c.c_str());
    return false;
  }
  options->table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
  return true;
}

int Fail(const std::string& what, const rocksdb::Status& s) {
  std::fprintf(stderr, "%s: %s\n", what.c_str(), s.ToString().c_str());
  return 1;
}

int CmdWrite(const std::string& path, const std::map<std::string, std::string>& f) {
  rocksdb::Options options;
  if (!MakeOptions(f, &options)) return 2;
  std::ifstream in(f.count("input") != 0 ? f.at("input") : std::string());
  if (!in) {
    std::fprintf(stderr, "write needs --input=FILE\n");
    return 2;
  }
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options);
  rocksdb::Status s = writer.Open(path);
  if (!s.ok()) return Fail("open " + path, s);
  std::string hk, hv, k, v;
  while (in >> hk >> hv) {
    if (!FromHex(hk, &k) || !FromHex(hv == "-" ? "" : hv, &v)) {
      std::fprintf(stderr, "bad hex line\n");
      return 2;
    }
    s = writer.Put(k, v);
    if (!s.ok()) return Fail("put", s);
  }
  s = writer.Finish();
  if (!s.ok()) return Fail("finish " + path, s);
  return 0;
}

// Gets every key of --keys, scans, prints the statistics.
int Lookups(rocksdb::DB* db, const rocksdb::Options& options,
            const std::map<std::string, std::string>& f) {
  std::ifstream in(f.count("keys") != 0 ? f.at("keys") : std::string());
  if (!in) {
    std::fprintf(stderr, "needs --keys=FILE\n");
    return 2;
  }
  std::vector<std::string> keys;
  std::string h, k;
  while (in >> h) {
    if (!FromHex(h, &k)) return 2;
    keys.push_back(k);
  }
  (void)options.statistics->Reset();
  uint64_t found = 0, notfound = 0;
  std::string out;
  for (const std::string& key : keys) {
    std::string value;
    rocksdb::Status s = db->Get(rocksdb::ReadOptions(), key, &value);
    if (s.ok()) {
      found++;
      out += "FOUND " + ToHex(key) + " " + ToHex(value) + "\n";
    } else if (s.IsNotFound()) {
      notfound++;
      out += "NOTFOUND " + ToHex(key) + "\n";
    } else {
      return Fail("get " + ToHex(key), s);
    }
  }
  auto* st = options.statistics.get();
  const std::string stats =
      "STATS found=" + std::to_string(found) + " notfound=" + std::to_string(notfound) +
      " filter_useful=" + std::to_string(st->getTickerCount(rocksdb::BLOOM_FILTER_USEFUL)) +
      " filter_positive=" +
      std::to_string(st->getTickerCount(rocksdb::BLOOM_FILTER_FULL_POSITIVE)) + " prefix_checked=" +
      std::to_string(st->getTickerCount(rocksdb::BLOOM_FILTER_PREFIX_CHECKED)) +
      " prefix_useful=" + std::to_string(st->getTickerCount(rocksdb::BLOOM_FILTER_PREFIX_USEFUL));
  rocksdb::ReadOptions ro;
  ro.verify_checksums = true;
  ro.total_order_seek = true;
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(ro));
  uint64_t n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) n++;
  if (!it->status().ok()) return Fail("scan", it->status());
  it.reset();
  rocksdb::TablePropertiesCollection props;
  rocksdb::Status s = db->GetPropertiesOfAllTables(&props);
  if (!s.ok()) return Fail("properties", s);
  uint64_t partitions = 0;
  for (const auto& [name, p] : props) partitions += p->index_partitions;
  out += "SCAN " + std::to_string(n) + "\n" + stats +
         " index_partitions=" + std::to_string(partitions) + "\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

int CmdGet(const std::string& path, const std::map<std::string, std::string>& f, bool open_db) {
  rocksdb::Options options;
  if (!MakeOptions(f, &options)) return 2;
  options.statistics = rocksdb::CreateDBStatistics();
  options.info_log_level = rocksdb::InfoLogLevel::WARN_LEVEL;
  rocksdb::DB* raw = nullptr;
  std::filesystem::path scratch;
  rocksdb::Status s;
  if (open_db) {
    s = rocksdb::DB::OpenForReadOnly(options, path, &raw);
    if (!s.ok()) return Fail("open " + path, s);
  } else {
    const char* tmp = std::getenv("TMPDIR");
    scratch = std::filesystem::path(tmp != nullptr ? tmp : "/tmp") /
              ("rocksdb_partition_tool." + std::to_string(getpid()));
    std::error_code ec;
    std::filesystem::remove_all(scratch, ec);
    options.create_if_missing = true;
    s = rocksdb::DB::Open(options, scratch.string(), &raw);
    if (!s.ok()) return Fail("open scratch db", s);
  }
  std::unique_ptr<rocksdb::DB> db(raw);
  int rc = 0;
  if (!open_db) {
    rocksdb::IngestExternalFileOptions ingest;
    ingest.move_files = false;
    ingest.verify_checksums_before_ingest = true;
    s = db->IngestExternalFile({path}, ingest);
    if (!s.ok()) rc = Fail("ingest " + path, s);
  }
  if (rc == 0) rc = Lookups(db.get(), options, f);
  s = db->Close();
  db.reset();
  if (!scratch.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(scratch, ec);
  }
  if (!s.ok() && rc == 0) rc = Fail("close", s);
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: rocksdb_partition_tool write|get|dbget PATH [--input=F|--keys=F] "
                 "[table flags]\n");
    return 2;
  }
  const std::string cmd = argv[1];
  const auto flags = ParseFlags(argc, argv, 3);
  if (cmd == "write") return CmdWrite(argv[2], flags);
  if (cmd == "get") return CmdGet(argv[2], flags, false);
  if (cmd == "dbget") return CmdGet(argv[2], flags, true);
  std::fprintf(stderr, "unknown command %s\n", cmd.c_str());
  return 2;
}
