// rocksdb_sst_tool: a test helper that links the system RocksDB (librocksdb,
// 7.8.3 from Debian) and nothing of Strata, so table_interop_test can have
// RocksDB itself write table files for our reader and check the files our
// builder writes. Every key and value on stdout is lowercase hex.
//
//   write PATH [--compression=none|snappy|lz4|zstd]
//              [--checksum=crc32c|xxh3|xxhash|xxhash64] [--bloom_bits=N]
//              [--hash_index=0|1] [--index_restart=N] [--block_size=N]
//              [--num=N] [--seed=S] [--prefix_len=N] [--whole_key_filtering=0|1]
//       Writes an SST with rocksdb::SstFileWriter (format_version 5, every
//       entry at sequence 0) and prints each entry it added, in order:
//         P <key> <value>      a Put
//         D <key>              a Delete
//       The entries are a deterministic function of --num and --seed (see
//       MakeEntries below), but a test simply parses this output.
//   read PATH
//       Opens PATH with rocksdb::SstFileReader (checksums verified) and
//       prints what a RocksDB iterator over it shows -- for each user key the
//       newest entry, deletions hidden -- one "<key> <value>" line each, then
//       verifies every block checksum. Exit 1 on any error.
//   get PATH --bloom_bits=N [--prefix_len=N] [--whole_key_filtering=0|1]
//            [--keys=FILE] [KEY...]
//       Ingests a copy of PATH into a fresh temporary DB whose table options
//       carry a Bloom filter policy of N bits/key (and, with --prefix_len, a
//       fixed prefix extractor of that length), then Gets each key (hex,
//       from the arguments or whitespace-separated in FILE). Prints
//         FOUND <key> <value>   or   NOTFOUND <key>
//       and finally a statistics line proving the file's filter was read:
//         STATS found=F notfound=M filter_useful=U filter_positive=P
//               prefix_checked=C prefix_useful=R
//       (filter_useful = lookups the filter answered "absent",
//       filter_positive = lookups it answered "may be present" by whole key,
//       prefix_checked / prefix_useful = lookups that probed the prefix
//       filter / that it answered "absent"). The file
//       must be ingestible: every sequence 0 and the SstFileWriter
//       properties "rocksdb.external_sst_file.version" (2) and
//       "...global_seqno".
//
// Exit status: 0 on success, 1 on a RocksDB error, 2 on a usage error.
// Thread-safety: a single-threaded program.

#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/sst_file_reader.h>
#include <rocksdb/sst_file_writer.h>
#include <rocksdb/statistics.h>
#include <rocksdb/table.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

std::string ToHex(const rocksdb::Slice& s) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size() * 2);
  for (size_t i = 0; i < s.size(); i++) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 0xf]);
  }
  return out;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool FromHex(const std::string& hex, std::string* out) {
  if (hex.size() % 2 != 0) return false;
  out->clear();
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int hi = HexDigit(hex[i]);
    const int lo = HexDigit(hex[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out->push_back(static_cast<char>(hi * 16 + lo));
  }
  return true;
}

// SplitMix64: the deterministic generator behind the written entries.
uint64_t Mix(uint64_t* state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

struct Entry {
  bool is_delete;
  std::string key;
  std::string value;
};

// Entry i (0 <= i < num), drawing h = Mix() twice per entry from state seed:
//   key   = "key" + 8-digit decimal (i * 3 + h1 % 3) + (h1 >> 8) % 5 bytes
//           of suffix, each 0x00, 'z' or 0xff chosen by the next bits -- so
//           keys are strictly increasing and some hold non-ASCII bytes;
//   kind  = Delete when h2 % 11 == 0, else Put;
//   value = (h2 >> 8) % 200 bytes, byte j = 'a' + ((h2 >> 20) + j / 7) % 26
//           (runs of one letter, so compression has something to remove).
std::vector<Entry> MakeEntries(uint64_t num, uint64_t seed) {
  std::vector<Entry> entries;
  entries.reserve(num);
  uint64_t state = seed;
  for (uint64_t i = 0; i < num; i++) {
    const uint64_t h1 = Mix(&state);
    const uint64_t h2 = Mix(&state);
    Entry e;
    char buf[32];
    std::snprintf(buf, sizeof(buf), "key%08llu", static_cast<unsigned long long>(i * 3 + h1 % 3));
    e.key = buf;
    const uint64_t suffix_len = (h1 >> 8) % 5;
    for (uint64_t j = 0; j < suffix_len; j++) {
      static const char kSuffix[] = {'\0', 'z', '\xff'};
      e.key.push_back(kSuffix[(h1 >> (16 + 2 * j)) % 3]);
    }
    e.is_delete = h2 % 11 == 0;
    if (!e.is_delete) {
      const uint64_t len = (h2 >> 8) % 200;
      for (uint64_t j = 0; j < len; j++) {
        e.value.push_back(static_cast<char>('a' + ((h2 >> 20) + j / 7) % 26));
      }
    }
    entries.push_back(std::move(e));
  }
  return entries;
}

// --name=value flags and positional arguments.
struct Args {
  std::map<std::string, std::string> flags;
  std::vector<std::string> positional;

  std::string Get(const std::string& name, const std::string& def) const {
    auto it = flags.find(name);
    return it == flags.end() ? def : it->second;
  }
  bool GetInt(const std::string& name, long long def, long long* out) const {
    const std::string s = Get(name, "");
    if (s.empty()) {
      *out = def;
      return true;
    }
    char* end = nullptr;
    *out = std::strtoll(s.c_str(), &end, 10);
    if (end == s.c_str() || *end != '\0') {
      std::fprintf(stderr, "bad integer for --%s: %s\n", name.c_str(), s.c_str());
      return false;
    }
    return true;
  }
};

Args ParseArgs(int argc, char** argv, int first) {
  Args args;
  for (int i = first; i < argc; i++) {
    const std::string a = argv[i];
    if (a.rfind("--", 0) == 0) {
      const size_t eq = a.find('=');
      if (eq == std::string::npos) {
        args.flags[a.substr(2)] = "1";
      } else {
        args.flags[a.substr(2, eq - 2)] = a.substr(eq + 1);
      }
    } else {
      args.positional.push_back(a);
    }
  }
  return args;
}

int Fail(const std::string& what, const rocksdb::Status& s) {
  std::fprintf(stderr, "%s: %s\n", what.c_str(), s.ToString().c_str());
  return 1;
}

// Builds the table options shared by write and get; false on a bad flag.
bool MakeOptions(const Args& args, rocksdb::Options* options) {
  rocksdb::BlockBasedTableOptions t;
  t.format_version = 5;
  const std::string checksum = args.Get("checksum", "xxh3");
  if (checksum == "crc32c") {
    t.checksum = rocksdb::kCRC32c;
  } else if (checksum == "xxh3") {
    t.checksum = rocksdb::kXXH3;
  } else if (checksum == "xxhash") {
    t.checksum = rocksdb::kxxHash;
  } else if (checksum == "xxhash64") {
    t.checksum = rocksdb::kxxHash64;
  } else {
    std::fprintf(stderr, "unknown --checksum=%s\n", checksum.c_str());
    return false;
  }
  const std::string compression = args.Get("compression", "none");
  if (compression == "none") {
    options->compression = rocksdb::kNoCompression;
  } else if (compression == "snappy") {
    options->compression = rocksdb::kSnappyCompression;
  } else if (compression == "lz4") {
    options->compression = rocksdb::kLZ4Compression;
  } else if (compression == "zstd") {
    options->compression = rocksdb::kZSTD;
  } else {
    std::fprintf(stderr, "unknown --compression=%s\n", compression.c_str());
    return false;
  }
  long long bloom_bits = 0, hash_index = 0, index_restart = 1, block_size = 4096;
  long long prefix_len = 0, whole_key_filtering = 1;
  if (!args.GetInt("bloom_bits", 0, &bloom_bits) || !args.GetInt("hash_index", 0, &hash_index) ||
      !args.GetInt("index_restart", 1, &index_restart) ||
      !args.GetInt("block_size", 4096, &block_size) || !args.GetInt("prefix_len", 0, &prefix_len) ||
      !args.GetInt("whole_key_filtering", 1, &whole_key_filtering)) {
    return false;
  }
  if (prefix_len < 0) {
    std::fprintf(stderr, "--prefix_len must not be negative\n");
    return false;
  }
  if (prefix_len > 0) {
    options->prefix_extractor.reset(
        rocksdb::NewFixedPrefixTransform(static_cast<size_t>(prefix_len)));
  }
  t.whole_key_filtering = whole_key_filtering != 0;
  if (index_restart < 1 || block_size < 1) {
    std::fprintf(stderr, "--index_restart and --block_size must be positive\n");
    return false;
  }
  if (bloom_bits > 0) {
    t.filter_policy.reset(rocksdb::NewBloomFilterPolicy(static_cast<double>(bloom_bits)));
  }
  t.data_block_index_type = hash_index != 0
                                ? rocksdb::BlockBasedTableOptions::kDataBlockBinaryAndHash
                                : rocksdb::BlockBasedTableOptions::kDataBlockBinarySearch;
  t.index_block_restart_interval = static_cast<int>(index_restart);
  t.block_size = static_cast<size_t>(block_size);
  options->table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
  return true;
}

int CmdWrite(const std::string& path, const Args& args) {
  rocksdb::Options options;
  if (!MakeOptions(args, &options)) return 2;
  long long num = 0, seed = 0;
  if (!args.GetInt("num", 1000, &num) || !args.GetInt("seed", 1, &seed) || num < 0) return 2;
  const std::vector<Entry> entries =
      MakeEntries(static_cast<uint64_t>(num), static_cast<uint64_t>(seed));

  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options);
  rocksdb::Status s = writer.Open(path);
  if (!s.ok()) return Fail("open " + path, s);
  std::string out;
  for (const Entry& e : entries) {
    if (e.is_delete) {
      s = writer.Delete(e.key);
      out += "D " + ToHex(e.key) + "\n";
    } else {
      s = writer.Put(e.key, e.value);
      out += "P " + ToHex(e.key) + " " + ToHex(e.value) + "\n";
    }
    if (!s.ok()) return Fail("add", s);
  }
  s = writer.Finish();
  if (!s.ok()) return Fail("finish " + path, s);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

int CmdRead(const std::string& path) {
  rocksdb::Options options;
  rocksdb::SstFileReader reader(options);
  rocksdb::Status s = reader.Open(path);
  if (!s.ok()) return Fail("open " + path, s);
  rocksdb::ReadOptions ro;
  ro.verify_checksums = true;
  std::unique_ptr<rocksdb::Iterator> it(reader.NewIterator(ro));
  std::string out;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    out += ToHex(it->key()) + " " + ToHex(it->value()) + "\n";
  }
  if (!it->status().ok()) return Fail("iterate " + path, it->status());
  it.reset();
  s = reader.VerifyChecksum();
  if (!s.ok()) return Fail("verify " + path, s);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

int CmdGet(const std::string& path, const Args& args) {
  long long bloom_bits = 0;
  if (!args.GetInt("bloom_bits", 0, &bloom_bits) || bloom_bits <= 0) {
    std::fprintf(stderr, "get needs --bloom_bits=N > 0\n");
    return 2;
  }
  std::vector<std::string> keys;
  std::vector<std::string> hex_keys(args.positional.begin() + 2, args.positional.end());
  const std::string key_file = args.Get("keys", "");
  if (!key_file.empty()) {
    std::ifstream in(key_file);
    if (!in) {
      std::fprintf(stderr, "cannot read %s\n", key_file.c_str());
      return 2;
    }
    std::string word;
    while (in >> word) hex_keys.push_back(word);
  }
  for (const std::string& h : hex_keys) {
    std::string k;
    if (!FromHex(h, &k)) {
      std::fprintf(stderr, "bad hex key %s\n", h.c_str());
      return 2;
    }
    keys.push_back(k);
  }

  // A private scratch DB beside nothing else: $TMPDIR/rocksdb_sst_tool.<pid>.
  const char* tmp = std::getenv("TMPDIR");
  const std::filesystem::path dir = std::filesystem::path(tmp != nullptr ? tmp : "/tmp") /
                                    ("rocksdb_sst_tool." + std::to_string(getpid()));
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);

  rocksdb::Options options;
  Args table_args;
  table_args.flags["bloom_bits"] = std::to_string(bloom_bits);
  for (const char* name : {"prefix_len", "whole_key_filtering"}) {
    if (args.flags.count(name) != 0) table_args.flags[name] = args.flags.at(name);
  }
  if (!MakeOptions(table_args, &options)) return 2;
  options.create_if_missing = true;
  options.statistics = rocksdb::CreateDBStatistics();
  options.info_log_level = rocksdb::InfoLogLevel::WARN_LEVEL;
  rocksdb::DB* raw_db = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, dir.string(), &raw_db);
  if (!s.ok()) return Fail("open scratch db " + dir.string(), s);
  std::unique_ptr<rocksdb::DB> db(raw_db);

  rocksdb::IngestExternalFileOptions ingest;
  ingest.move_files = false;  // copy: the caller's file stays untouched
  ingest.verify_checksums_before_ingest = true;
  s = db->IngestExternalFile({path}, ingest);
  int rc = 0;
  if (!s.ok()) {
    rc = Fail("ingest " + path, s);
  } else {
    // Count only the lookups below.
    (void)options.statistics->Reset();
    uint64_t found = 0, notfound = 0;
    std::string out;
    for (const std::string& k : keys) {
      std::string value;
      s = db->Get(rocksdb::ReadOptions(), k, &value);
      if (s.ok()) {
        found++;
        out += "FOUND " + ToHex(k) + " " + ToHex(value) + "\n";
      } else if (s.IsNotFound()) {
        notfound++;
        out += "NOTFOUND " + ToHex(k) + "\n";
      } else {
        rc = Fail("get " + ToHex(k), s);
        break;
      }
    }
    if (rc == 0) {
      const uint64_t useful = options.statistics->getTickerCount(rocksdb::BLOOM_FILTER_USEFUL);
      const uint64_t positive =
          options.statistics->getTickerCount(rocksdb::BLOOM_FILTER_FULL_POSITIVE);
      out +=
          "STATS found=" + std::to_string(found) + " notfound=" + std::to_string(notfound) +
          " filter_useful=" + std::to_string(useful) +
          " filter_positive=" + std::to_string(positive) + " prefix_checked=" +
          std::to_string(options.statistics->getTickerCount(rocksdb::BLOOM_FILTER_PREFIX_CHECKED)) +
          " prefix_useful=" +
          std::to_string(options.statistics->getTickerCount(rocksdb::BLOOM_FILTER_PREFIX_USEFUL)) +
          "\n";
      std::fwrite(out.data(), 1, out.size(), stdout);
    }
  }
  s = db->Close();
  db.reset();
  std::filesystem::remove_all(dir, ec);
  if (!s.ok() && rc == 0) rc = Fail("close scratch db", s);
  return rc;
}

int Usage() {
  std::fprintf(stderr,
               "usage: rocksdb_sst_tool write PATH [--compression=none|snappy|lz4|zstd]\n"
               "         [--checksum=crc32c|xxh3|xxhash|xxhash64] [--bloom_bits=N]\n"
               "         [--hash_index=0|1] [--index_restart=N] [--block_size=N]\n"
               "         [--num=N] [--seed=S] [--prefix_len=N] [--whole_key_filtering=0|1]\n"
               "       rocksdb_sst_tool read PATH\n"
               "       rocksdb_sst_tool get PATH --bloom_bits=N [--prefix_len=N]\n"
               "         [--whole_key_filtering=0|1] [--keys=FILE] [KEYHEX...]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = ParseArgs(argc, argv, 1);
  if (args.positional.size() < 2) return Usage();
  const std::string& cmd = args.positional[0];
  const std::string& path = args.positional[1];
  if (cmd == "write" && args.positional.size() == 2) return CmdWrite(path, args);
  if (cmd == "read" && args.positional.size() == 2) return CmdRead(path);
  if (cmd == "get") return CmdGet(path, args);
  return Usage();
}
