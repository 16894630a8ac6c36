// Interoperability of our block-based tables with RocksDB 7.8.3 itself
// (docs/format/table.md and docs/format/filter.md), checked by running RocksDB's code:
//  - our builder's files go through /usr/bin/sst_dump (scan, check, verify)
//    and through rocksdb_sst_tool (SstFileReader iteration and, for filters,
//    ingestion into a RocksDB DB and Get with a Bloom policy);
//  - RocksDB's files (written by rocksdb_sst_tool with SstFileWriter) are
//    read by our BlockBasedTable: forward and backward iteration, Seek, Get,
//    checksum verification, and the Bloom filter.
// Each covers every compression (none, Snappy, LZ4, ZSTD) and checksum
// (CRC32c, XXH3, xxHash, xxHash64), with and without the data-block hash
// index, index restart intervals 1 and 4.
//
// rocksdb_sst_tool links the system librocksdb and is built beside this test
// (test_util/rocksdb_sst_tool.cc); its path comes in STRATA_ROCKSDB_SST_TOOL.
// Without it, sst_dump or ldb the tests skip.

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "base/dbformat.h"
#include "base/get_context.h"
#include "strata/env.h"
#include "strata/filter_policy.h"
#include "strata/options.h"
#include "strata/table.h"
#include "table/block_based_table_builder.h"
#include "table/block_based_table_reader.h"
#include "test_util/testutil.h"
#include "util/coding.h"

namespace strata {
namespace {

#ifdef STRATA_ROCKSDB_SST_TOOL
constexpr const char* kTool = STRATA_ROCKSDB_SST_TOOL;
#else
constexpr const char* kTool = "";
#endif
constexpr const char* kSstDump = "/usr/bin/sst_dump";
constexpr const char* kLdb = "/usr/bin/ldb";

bool IsExecutable(const char* path) { return path[0] != '\0' && access(path, X_OK) == 0; }

#define SKIP_WITHOUT_ROCKSDB()                                                                   \
  do {                                                                                           \
    if (!IsExecutable(kSstDump) || !IsExecutable(kLdb) || !IsExecutable(kTool)) {                \
      GTEST_SKIP() << "needs " << kSstDump << ", " << kLdb << " and rocksdb_sst_tool (" << kTool \
                   << ")";                                                                       \
    }                                                                                            \
  } while (0)

struct Codec {
  CompressionType type;
  const char* name;  // rocksdb_sst_tool's --compression
};
constexpr Codec kCodecs[] = {
    {kNoCompression, "none"},
    {kSnappyCompression, "snappy"},
    {kLZ4Compression, "lz4"},
    {kZSTD, "zstd"},
};
struct Checksum {
  ChecksumType type;
  const char* name;  // rocksdb_sst_tool's --checksum
};
constexpr Checksum kChecksums[] = {
    {kCRC32c, "crc32c"},
    {kXXH3, "xxh3"},
    {kxxHash, "xxhash"},
    {kxxHash64, "xxhash64"},
};

// One of the 16 compression x checksum cases; the data-block hash index and
// the index restart interval rotate so each of their four combinations meets
// every codec and every checksum once.
struct Case {
  Codec codec;
  Checksum checksum;
  bool hash_index;
  int index_restart;
  std::string Name() const {
    return std::string(codec.name) + "/" + checksum.name + "/hash" + (hash_index ? "1" : "0") +
           "/irestart" + std::to_string(index_restart);
  }
};
std::vector<Case> AllCases() {
  std::vector<Case> cases;
  for (int c = 0; c < 4; c++) {
    for (int k = 0; k < 4; k++) {
      const int rot = (c + k) % 4;
      cases.push_back({kCodecs[c], kChecksums[k], (rot & 1) != 0, (rot & 2) != 0 ? 4 : 1});
    }
  }
  return cases;
}

// Lowercase hex, as rocksdb_sst_tool prints.
// The cases of the filter tests: each codec and each checksum once, two with
// the hash index.
constexpr size_t kFilterCases[] = {0, 6, 11, 13};

std::string Hex(const std::string& s) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 0xf]);
  }
  return out;
}

bool FromHex(const std::string& hex, std::string* out) {
  auto digit = [](char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  if (hex.size() % 2 != 0) return false;
  out->clear();
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int hi = digit(hex[i]);
    const int lo = digit(hex[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out->push_back(static_cast<char>(hi * 16 + lo));
  }
  return true;
}

std::string IKey(const std::string& user_key, SequenceNumber seq, ValueType t) {
  std::string k;
  AppendInternalKey(&k, user_key, seq, t);
  return k;
}

struct Entry {
  std::string ikey;  // internal key
  std::string value;
  std::string user_key() const { return ExtractUserKey(ikey).ToString(); }
  ValueType type() const { return ExtractValueType(ikey); }
  bool operator==(const Entry& o) const { return ikey == o.ikey && value == o.value; }
};

std::string Describe(const Entry& e) {
  ParsedInternalKey p;
  if (!ParseInternalKey(e.ikey, &p).ok()) return "bad key " + Hex(e.ikey);
  return "'" + Hex(p.user_key.ToString()) + "' seq:" + std::to_string(p.sequence) +
         " type:" + std::to_string(static_cast<int>(p.type)) + " => " + Hex(e.value);
}

// Equal lists, or the first difference.
::testing::AssertionResult SameEntries(const std::vector<Entry>& want,
                                       const std::vector<Entry>& got) {
  for (size_t i = 0; i < want.size() && i < got.size(); i++) {
    if (!(want[i] == got[i])) {
      return ::testing::AssertionFailure()
             << "entry " << i << ": want " << Describe(want[i]) << ", got " << Describe(got[i]);
    }
  }
  if (want.size() != got.size()) {
    return ::testing::AssertionFailure()
           << want.size() << " entries wanted, " << got.size() << " read";
  }
  return ::testing::AssertionSuccess();
}

struct CommandResult {
  int exit_code = -1;  // -1: did not exit normally (e.g. an assertion abort)
  std::string out;     // stdout
  std::string err;     // stderr
};

// Runs a shell command line; stderr goes to a file in `dir`.
CommandResult RunCommand(const std::string& command, const std::string& dir) {
  CommandResult r;
  const std::string err_file = dir + "/stderr.txt";
  FILE* p = popen((command + " 2>'" + err_file + "'").c_str(), "r");
  if (p == nullptr) return r;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) r.out.append(buf, n);
  const int status = pclose(p);
  if (status != -1 && WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  r.err = test::ReadFileOrDie(err_file);
  return r;
}

std::string Quote(const std::string& s) { return "'" + s + "'"; }

// Parses sst_dump --command=scan --output_hex: lines
//   'USERKEYHEX' seq:N, type:T => VALUEHEX
// (other lines are banners). False on a malformed entry line.
bool ParseSstDumpScan(const std::string& out, std::vector<Entry>* entries) {
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] != '\'') continue;
    const size_t close = line.find("' seq:");
    const size_t type_at = line.find(", type:");
    const size_t arrow = line.find(" => ");
    if (close == std::string::npos || type_at == std::string::npos || arrow == std::string::npos ||
        !(close < type_at && type_at < arrow)) {
      return false;
    }
    std::string user_key, value;
    if (!FromHex(line.substr(1, close - 1), &user_key) ||
        !FromHex(line.substr(arrow + 4), &value)) {
      return false;
    }
    const uint64_t seq = std::stoull(line.substr(close + 6, type_at - close - 6));
    const int type = std::stoi(line.substr(type_at + 7, arrow - type_at - 7));
    entries->push_back({IKey(user_key, seq, static_cast<ValueType>(type)), value});
  }
  return true;
}

// Parses "KEYHEX VALUEHEX" lines (rocksdb_sst_tool read).
bool ParseKeyValueLines(const std::string& out,
                        std::vector<std::pair<std::string, std::string>>* kvs) {
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string k, v, key, value;
    fields >> k >> v;
    if (!FromHex(k, &key) || !FromHex(v, &value)) return false;
    kvs->emplace_back(key, value);
  }
  return true;
}

// A few thousand entries of our own: user keys "u" + 6 digits + 0..3 random
// bytes, some with several versions (newest first), deletions, single
// deletions, empty values, compressible and incompressible values and a few
// larger than a block. Every sequence is > 0 unless seq_zero (then each user
// key has one Put at sequence 0, as an ingestible file needs).
std::vector<Entry> MakeOurEntries(std::mt19937_64* rng, int num_user_keys, bool multi_version,
                                  bool seq_zero) {
  std::vector<Entry> entries;
  auto random_value = [&]() {
    std::string v;
    const int shape = static_cast<int>((*rng)() % 10);
    if (shape == 0) return v;  // empty
    if (shape == 1) return test::RandomBytes(rng, 1500 + (*rng)() % 1500);
    const size_t len = (*rng)() % 120;
    while (v.size() < len) {
      v.append(1 + (*rng)() % 12, static_cast<char>('a' + (*rng)() % 4));
      if ((*rng)() % 4 == 0) v += test::RandomBytes(rng, 2);
    }
    return v;
  };
  for (int i = 0; i < num_user_keys; i++) {
    char buf[16];
    std::snprintf(buf, sizeof(buf), "u%06d", i * 2);
    std::string user_key = buf;
    user_key += test::RandomBytes(rng, (*rng)() % 4);
    if (seq_zero) {
      entries.push_back({IKey(user_key, 0, kTypeValue), random_value()});
      continue;
    }
    const int versions =
        multi_version && (*rng)() % 4 == 0 ? 2 + static_cast<int>((*rng)() % 3) : 1;
    SequenceNumber seq = 1000 + (*rng)() % 1000000;
    for (int v = 0; v < versions; v++) {
      const uint64_t r = (*rng)() % 10;
      if (r == 0) {
        entries.push_back({IKey(user_key, seq, kTypeDeletion), ""});
      } else if (r == 1 && versions == 1) {
        entries.push_back({IKey(user_key, seq, kTypeSingleDeletion), ""});
      } else {
        entries.push_back({IKey(user_key, seq, kTypeValue), random_value()});
      }
      seq -= 1 + (*rng)() % 100;
    }
  }
  return entries;
}

// What a RocksDB iterator shows: per user key its newest entry, unless that
// is a deletion.
std::vector<std::pair<std::string, std::string>> Visible(const std::vector<Entry>& entries) {
  std::vector<std::pair<std::string, std::string>> kvs;
  std::string last_user_key;
  bool first = true;
  for (const Entry& e : entries) {
    const std::string uk = e.user_key();
    if (!first && uk == last_user_key) continue;
    first = false;
    last_user_key = uk;
    if (e.type() == kTypeValue) kvs.emplace_back(uk, e.value);
  }
  return kvs;
}

void WriteOurTable(const std::string& path, const TableBuilderOptions& options,
                   const std::vector<Entry>& entries) {
  std::unique_ptr<WritableFile> file;
  ASSERT_OK(FileSystem::Default()->NewWritableFile(path, FileOptions(), &file));
  BlockBasedTableBuilder builder(options, file.get());
  for (const Entry& e : entries) builder.Add(e.ikey, e.value);
  ASSERT_OK(builder.status());
  ASSERT_OK(builder.Finish());
  ASSERT_EQ(builder.NumEntries(), entries.size());
  ASSERT_OK(file->Close());
  uint64_t size = 0;
  ASSERT_OK(FileSystem::Default()->GetFileSize(path, &size));
  ASSERT_EQ(builder.FileSize(), size);
}

void OpenOurReader(const std::string& path, std::shared_ptr<const FilterPolicy> policy,
                   std::unique_ptr<BlockBasedTable>* table) {
  std::unique_ptr<RandomAccessFile> file;
  ASSERT_OK(FileSystem::Default()->NewRandomAccessFile(path, FileOptions(), &file));
  uint64_t size = 0;
  ASSERT_OK(FileSystem::Default()->GetFileSize(path, &size));
  TableReaderOptions options;
  options.table_options.filter_policy = std::move(policy);
  options.file_name = path;
  ASSERT_OK(BlockBasedTable::Open(options, std::move(file), size, table));
}

// How a table file is laid out, read from its bytes through our reader's
// index: proof that a case exercised what it names.
struct Shape {
  size_t data_blocks = 0;
  size_t compressed_blocks = 0;    // trailer type != 0 (data blocks)
  size_t hash_indexed_blocks = 0;  // footer word bit 31 (data blocks)
  uint32_t index_restarts = 0;     // restart points of the index block
  bool index_compressed = false;
  bool user_key_index = false;
  ChecksumType checksum = kNoChecksum;
  uint32_t format_version = 0;
};

void InspectShape(const std::string& path, BlockBasedTable* table, Shape* shape) {
  const std::string bytes = test::ReadFileOrDie(path);
  std::unique_ptr<InternalIterator> index(table->NewIndexIterator());
  for (index->SeekToFirst(); index->Valid(); index->Next()) {
    Slice v = index->value();
    BlockHandle h;
    ASSERT_OK(h.DecodeFrom(&v));
    ASSERT_LT(h.offset() + h.size(), bytes.size());
    shape->data_blocks++;
    if (bytes[h.offset() + h.size()] != 0) shape->compressed_blocks++;
    std::string block;
    ASSERT_OK(table->ReadBlockContents(h, &block));
    ASSERT_GE(block.size(), 4u);
    if ((DecodeFixed32(block.data() + block.size() - 4) >> 31) != 0) {
      shape->hash_indexed_blocks++;
    }
  }
  ASSERT_OK(index->status());
  const BlockHandle& ih = table->footer().index_handle();
  ASSERT_LT(ih.offset() + ih.size(), bytes.size());
  shape->index_compressed = bytes[ih.offset() + ih.size()] != 0;
  std::string index_block;
  ASSERT_OK(table->ReadBlockContents(ih, &index_block));
  ASSERT_GE(index_block.size(), 4u);
  shape->index_restarts = DecodeFixed32(index_block.data() + index_block.size() - 4);
  shape->user_key_index = table->GetTableProperties()->index_key_is_user_key != 0;
  shape->checksum = table->footer().checksum_type();
  shape->format_version = table->footer().format_version();
}

// The shape a case asks for: many blocks, compressed blocks exactly when
// compressing, the hash index exactly when asked for (every data block here
// is small enough to carry one), the index restart interval, the checksum
// kind and format_version 5.
void CheckShape(const Case& c, const Shape& shape) {
  EXPECT_EQ(shape.checksum, c.checksum.type);
  EXPECT_EQ(shape.format_version, 5u);
  EXPECT_GE(shape.data_blocks, 20u);
  if (c.codec.type == kNoCompression) {
    EXPECT_EQ(shape.compressed_blocks, 0u);
    EXPECT_FALSE(shape.index_compressed);
  } else {
    EXPECT_GT(shape.compressed_blocks, 0u);
  }
  EXPECT_EQ(shape.hash_indexed_blocks, c.hash_index ? shape.data_blocks : 0u);
  const size_t interval = static_cast<size_t>(c.index_restart);
  EXPECT_EQ(shape.index_restarts, (shape.data_blocks + interval - 1) / interval);
}

// Runs rocksdb_sst_tool write and parses what it wrote.
void RocksDBWrite(const std::string& path, const std::string& flags, const std::string& dir,
                  std::vector<Entry>* entries) {
  const CommandResult r =
      RunCommand(std::string(kTool) + " write " + Quote(path) + " " + flags, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream in(r.out);
  std::string line;
  while (std::getline(in, line)) {
    // "P KEY VALUE" (VALUE empty for an empty value) or "D KEY".
    std::istringstream fields(line);
    std::string kind, key_hex, value_hex, key, value;
    fields >> kind >> key_hex >> value_hex;
    ASSERT_TRUE(FromHex(key_hex, &key)) << line;
    ASSERT_TRUE(FromHex(value_hex, &value)) << line;
    if (kind == "P") {
      entries->push_back({IKey(key, 0, kTypeValue), value});
    } else {
      ASSERT_EQ(kind, "D") << line;
      ASSERT_TRUE(value.empty()) << line;
      entries->push_back({IKey(key, 0, kTypeDeletion), ""});
    }
  }
  ASSERT_GT(entries->size(), 100u);
}

// (a) Our files, read by RocksDB's sst_dump and SstFileReader.
TEST(TableInteropTest, OurTablesReadByRocksDB) {
  SKIP_WITHOUT_ROCKSDB();
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  test::TempDir dir("table_interop");
  int n = 0;
  int user_key_indexes = 0, internal_key_indexes = 0;
  for (const Case& c : AllCases()) {
    SCOPED_TRACE(c.Name());
    const bool multi_version = n % 2 == 0;
    const std::vector<Entry> entries = MakeOurEntries(&rng, 2000, multi_version, false);
    TableBuilderOptions options;
    options.compression = c.codec.type;
    options.table_options.checksum = c.checksum.type;
    options.table_options.block_size = n % 3 == 0 ? 256 : 1024;
    options.table_options.data_block_index_type =
        c.hash_index ? BlockBasedTableOptions::DataBlockIndexType::kDataBlockBinaryAndHash
                     : BlockBasedTableOptions::DataBlockIndexType::kDataBlockBinarySearch;
    options.table_options.index_block_restart_interval = c.index_restart;
    const std::string path = dir.path() + "/our" + std::to_string(n++) + ".sst";
    WriteOurTable(path, options, entries);
    if (HasFatalFailure()) return;
    {
      std::unique_ptr<BlockBasedTable> table;
      OpenOurReader(path, nullptr, &table);
      if (HasFatalFailure()) return;
      Shape shape;
      InspectShape(path, table.get(), &shape);
      if (HasFatalFailure()) return;
      CheckShape(c, shape);
      (shape.user_key_index ? user_key_indexes : internal_key_indexes)++;
    }

    // Every internal entry, as sst_dump decodes it. sst_dump verifies block
    // checksums only with --verify_checksum (even for --command=verify), and
    // exits 0 after reporting a corrupt file on stderr.
    CommandResult r = RunCommand(std::string(kSstDump) + " --file=" + Quote(path) +
                                     " --command=scan --output_hex --verify_checksum",
                                 dir.path());
    ASSERT_EQ(r.exit_code, 0) << path << "\n" << r.out << r.err;
    std::vector<Entry> scanned;
    ASSERT_TRUE(ParseSstDumpScan(r.out, &scanned)) << r.out;
    ASSERT_TRUE(SameEntries(entries, scanned)) << path;
    ASSERT_EQ(r.err.find("orrupt"), std::string::npos) << r.err;

    for (const char* command : {"check", "verify"}) {
      r = RunCommand(std::string(kSstDump) + " --file=" + Quote(path) + " --command=" + command +
                         " --verify_checksum",
                     dir.path());
      ASSERT_EQ(r.exit_code, 0) << command << " " << path << "\n" << r.out << r.err;
      const std::string all = r.out + r.err;
      EXPECT_EQ(all.find("orrupt"), std::string::npos) << command << "\n" << all;
      EXPECT_EQ(all.find("rror"), std::string::npos) << command << "\n" << all;
      if (std::string(command) == "verify") {
        EXPECT_NE(all.find("The file is ok"), std::string::npos) << all;
      }
    }

    // What a RocksDB iterator shows (newest version per key, deletions
    // hidden), then RocksDB's own checksum verification.
    r = RunCommand(std::string(kTool) + " read " + Quote(path), dir.path());
    ASSERT_EQ(r.exit_code, 0) << path << "\n" << r.err;
    std::vector<std::pair<std::string, std::string>> kvs;
    ASSERT_TRUE(ParseKeyValueLines(r.out, &kvs));
    const auto want = Visible(entries);
    ASSERT_EQ(want.size(), kvs.size());
    for (size_t i = 0; i < want.size(); i++) {
      ASSERT_EQ(Hex(want[i].first), Hex(kvs[i].first)) << "entry " << i;
      ASSERT_EQ(Hex(want[i].second), Hex(kvs[i].second)) << "entry " << i;
    }
  }
  // Files whose versions of one user key straddle a block boundary need an
  // index of internal keys; the others have user keys. Both were checked.
  std::printf("index keys: %d files user keys, %d files internal keys\n", user_key_indexes,
              internal_key_indexes);
  EXPECT_GT(user_key_indexes, 0);
  EXPECT_GT(internal_key_indexes, 0);
}

// The harness itself: a flipped byte in a data block of our file must show
// in every RocksDB check the tests above rely on.
TEST(TableInteropTest, HarnessSeesCorruption) {
  SKIP_WITHOUT_ROCKSDB();
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  test::TempDir dir("table_interop");
  const std::vector<Entry> entries = MakeOurEntries(&rng, 500, false, false);
  TableBuilderOptions options;
  options.table_options.block_size = 512;
  options.table_options.checksum = kCRC32c;
  const std::string path = dir.path() + "/bad.sst";
  WriteOurTable(path, options, entries);
  if (HasFatalFailure()) return;
  std::string bytes = test::ReadFileOrDie(path);
  bytes[10] ^= 0x10;  // inside the first data block
  test::WriteFileOrDie(path, bytes);

  for (const char* command : {"scan", "check", "verify"}) {
    const CommandResult r = RunCommand(std::string(kSstDump) + " --file=" + Quote(path) +
                                           " --command=" + command + " --verify_checksum",
                                       dir.path());
    const std::string all = r.out + r.err;
    EXPECT_NE(all.find("orrupt"), std::string::npos) << command << "\n" << all;
    EXPECT_EQ(all.find("The file is ok"), std::string::npos) << command << "\n" << all;
  }
  const CommandResult r = RunCommand(std::string(kTool) + " read " + Quote(path), dir.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("orrupt"), std::string::npos) << r.err;
}

// (b) RocksDB's files, read by our BlockBasedTable.
TEST(TableInteropTest, RocksDBTablesReadByUs) {
  SKIP_WITHOUT_ROCKSDB();
  const uint64_t seed = test::RandomSeed();
  test::TempDir dir("table_interop");
  int n = 0;
  for (const Case& c : AllCases()) {
    SCOPED_TRACE(c.Name());
    const std::string path = dir.path() + "/rocks" + std::to_string(n) + ".sst";
    const std::string flags =
        std::string("--compression=") + c.codec.name + " --checksum=" + c.checksum.name +
        " --hash_index=" + (c.hash_index ? "1" : "0") +
        " --index_restart=" + std::to_string(c.index_restart) +
        " --block_size=" + (n % 3 == 0 ? "256" : "1024") +
        " --num=2500 --seed=" + std::to_string((seed + static_cast<uint64_t>(n)) % 1000000007);
    n++;
    std::vector<Entry> entries;
    RocksDBWrite(path, flags, dir.path(), &entries);
    if (HasFatalFailure()) return;
    SCOPED_TRACE(path + " written with " + flags);

    std::unique_ptr<BlockBasedTable> table;
    OpenOurReader(path, nullptr, &table);
    if (HasFatalFailure()) return;
    ASSERT_OK(table->VerifyChecksum());
    Shape shape;
    InspectShape(path, table.get(), &shape);
    if (HasFatalFailure()) return;
    CheckShape(c, shape);
    EXPECT_TRUE(shape.user_key_index);  // SstFileWriter keys are unique

    std::unique_ptr<InternalIterator> it(table->NewIterator(ReadOptions()));
    std::vector<Entry> forward;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      forward.push_back({it->key().ToString(), it->value().ToString()});
    }
    ASSERT_OK(it->status());
    ASSERT_TRUE(SameEntries(entries, forward)) << "forward";
    std::vector<Entry> backward;
    for (it->SeekToLast(); it->Valid(); it->Prev()) {
      backward.push_back({it->key().ToString(), it->value().ToString()});
    }
    ASSERT_OK(it->status());
    std::vector<Entry> reversed(entries.rbegin(), entries.rend());
    ASSERT_TRUE(SameEntries(reversed, backward)) << "backward";
    for (size_t i = 0; i < entries.size(); i += 7) {
      it->Seek(entries[i].ikey);
      ASSERT_TRUE(it->Valid()) << Describe(entries[i]);
      ASSERT_EQ(Hex(entries[i].ikey), Hex(it->key().ToString()));
      // Between this key and the next: lands on the next.
      const std::string between = IKey(entries[i].user_key() + '\x01', 0, kTypeValue);
      it->Seek(between);
      if (i + 1 < entries.size()) {
        ASSERT_TRUE(it->Valid());
        ASSERT_EQ(Hex(entries[i + 1].ikey), Hex(it->key().ToString()));
      } else {
        ASSERT_FALSE(it->Valid());
      }
    }
    ASSERT_OK(it->status());
    it.reset();

    for (const Entry& e : entries) {
      const std::string user_key = e.user_key();
      LookupKey lookup(user_key, kMaxSequenceNumber);
      std::string value;
      GetContext ctx(BytewiseComparator(), user_key, &value);
      ASSERT_OK(table->Get(ReadOptions(), lookup.internal_key(), &ctx));
      if (e.type() == kTypeValue) {
        ASSERT_EQ(ctx.state(), GetContext::kFound) << Describe(e);
        ASSERT_EQ(Hex(e.value), Hex(value)) << Describe(e);
      } else {
        ASSERT_EQ(ctx.state(), GetContext::kDeleted) << Describe(e);
      }
      // Absent: no generated key has a 0x01 byte.
      const std::string absent = user_key + '\x01';
      LookupKey absent_lookup(absent, kMaxSequenceNumber);
      GetContext absent_ctx(BytewiseComparator(), absent, &value);
      ASSERT_OK(table->Get(ReadOptions(), absent_lookup.internal_key(), &absent_ctx));
      ASSERT_EQ(absent_ctx.state(), GetContext::kNotFound) << Hex(absent);
    }
  }
}

// (c) RocksDB's Bloom filter read by our reader: no false negative, and a
// false-positive rate near 1% proves the filter was used.
TEST(TableInteropTest, RocksDBFilterReadByUs) {
  SKIP_WITHOUT_ROCKSDB();
  const uint64_t seed = test::RandomSeed();
  test::TempDir dir("table_interop");
  for (int n = 0; n < 4; n++) {
    const Case c = AllCases()[kFilterCases[n]];
    SCOPED_TRACE(c.Name());
    const std::string path = dir.path() + "/bloom" + std::to_string(n) + ".sst";
    const std::string flags = std::string("--compression=") + c.codec.name +
                              " --checksum=" + c.checksum.name + " --bloom_bits=10" +
                              " --block_size=1024 --num=4000 --seed=" +
                              std::to_string((seed + static_cast<uint64_t>(n)) % 1000000007);
    std::vector<Entry> entries;
    RocksDBWrite(path, flags, dir.path(), &entries);
    if (HasFatalFailure()) return;
    SCOPED_TRACE(path + " written with " + flags);

    std::unique_ptr<BlockBasedTable> table;
    OpenOurReader(path, NewBloomFilterPolicy(10), &table);
    if (HasFatalFailure()) return;
    size_t false_positives = 0;
    for (const Entry& e : entries) {
      const std::string user_key = e.user_key();
      ASSERT_TRUE(table->KeyMayMatch(user_key)) << "false negative " << Describe(e);
      if (table->KeyMayMatch(user_key + '\x01')) false_positives++;
      // A lookup through the filter still finds the key.
      if (e.type() == kTypeValue) {
        LookupKey lookup(user_key, kMaxSequenceNumber);
        std::string value;
        GetContext ctx(BytewiseComparator(), user_key, &value);
        ASSERT_OK(table->Get(ReadOptions(), lookup.internal_key(), &ctx));
        ASSERT_EQ(ctx.state(), GetContext::kFound) << Describe(e);
        ASSERT_EQ(Hex(e.value), Hex(value));
      }
    }
    const double fp_rate = static_cast<double>(false_positives) / entries.size();
    std::printf("%s: false-positive rate %.4f over %zu absent keys\n", c.Name().c_str(), fp_rate,
                entries.size());
    // 10 bits/key with 6 probes is ~1%; 5% leaves room for chance.
    EXPECT_LT(fp_rate, 0.05);
  }
}

// (c) Our Bloom filter read by RocksDB: the file is ingested into a RocksDB
// DB configured with a 10-bit Bloom policy, which Gets every key (no false
// negative allowed) and keys absent from the file (which the filter must
// mostly reject).
TEST(TableInteropTest, OurFilterReadByRocksDB) {
  SKIP_WITHOUT_ROCKSDB();
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  test::TempDir dir("table_interop");
  for (int n = 0; n < 4; n++) {
    const Case c = AllCases()[kFilterCases[n]];
    SCOPED_TRACE(c.Name());
    const std::vector<Entry> entries = MakeOurEntries(&rng, 3000, false, true);
    TableBuilderOptions options;
    options.compression = c.codec.type;
    options.table_options.checksum = c.checksum.type;
    options.table_options.block_size = 1024;
    options.table_options.data_block_index_type =
        c.hash_index ? BlockBasedTableOptions::DataBlockIndexType::kDataBlockBinaryAndHash
                     : BlockBasedTableOptions::DataBlockIndexType::kDataBlockBinarySearch;
    options.table_options.index_block_restart_interval = c.index_restart;
    options.table_options.filter_policy = NewBloomFilterPolicy(10);
    // What RocksDB's SstFileWriter records, so the file can be ingested.
    std::string version, global_seqno;
    PutFixed32(&version, 2);
    PutFixed64(&global_seqno, 0);
    options.extra_properties["rocksdb.external_sst_file.version"] = version;
    options.extra_properties["rocksdb.external_sst_file.global_seqno"] = global_seqno;
    const std::string path = dir.path() + "/ourbloom" + std::to_string(n) + ".sst";
    WriteOurTable(path, options, entries);
    if (HasFatalFailure()) return;

    std::string key_list;
    for (const Entry& e : entries) key_list += Hex(e.user_key()) + "\n";
    for (const Entry& e : entries) key_list += Hex(e.user_key() + '\x01') + "\n";
    const std::string key_file = dir.path() + "/keys.txt";
    test::WriteFileOrDie(key_file, key_list);
    const CommandResult r = RunCommand(
        std::string(kTool) + " get " + Quote(path) + " --bloom_bits=10 --keys=" + Quote(key_file),
        dir.path());
    ASSERT_EQ(r.exit_code, 0) << path << "\n" << r.err;

    std::istringstream in(r.out);
    std::string line;
    size_t i = 0;
    size_t useful = 0, positive = 0;
    bool have_stats = false;
    while (std::getline(in, line)) {
      std::istringstream fields(line);
      std::string word, key_hex, value_hex;
      fields >> word;
      if (word == "STATS") {
        std::string f;
        while (fields >> f) {
          if (f.rfind("filter_useful=", 0) == 0) useful = std::stoull(f.substr(14));
          if (f.rfind("filter_positive=", 0) == 0) positive = std::stoull(f.substr(16));
        }
        have_stats = true;
        continue;
      }
      ASSERT_LT(i, 2 * entries.size()) << line;
      fields >> key_hex >> value_hex;
      if (i < entries.size()) {
        const Entry& e = entries[i];
        ASSERT_EQ(word, "FOUND") << "RocksDB missed " << Describe(e) << " in " << path;
        ASSERT_EQ(key_hex, Hex(e.user_key()));
        ASSERT_EQ(value_hex, Hex(e.value)) << Describe(e);
      } else {
        ASSERT_EQ(word, "NOTFOUND") << line;
      }
      i++;
    }
    ASSERT_EQ(i, 2 * entries.size());
    ASSERT_TRUE(have_stats) << r.out;
    // Each Get consulted the one file's filter once, but for the last absent
    // key, which is past the file's key range...
    EXPECT_EQ(useful + positive, 2 * entries.size() - 1);
    // ...which said "maybe" for every present key and rejected nearly all the
    // absent ones.
    EXPECT_GE(positive, entries.size());
    EXPECT_GT(useful, entries.size() * 95 / 100);
  }
}

}  // namespace
}  // namespace strata
