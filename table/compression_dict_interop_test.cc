// Dictionary compression and the zlib / LZ4HC codecs against RocksDB 7.8.3
// itself (docs/design/compression.md):
//  - tables our builder writes with every dictionary codec (zstd with raw,
//    trained and finalized dictionaries, LZ4, LZ4HC, zlib) and with LZ4HC /
//    zlib at a few levels are scanned by /usr/bin/sst_dump (--command=scan
//    --output_hex, compared entry by entry) and pass its
//    --command=check --verify_checksum;
//  - databases /usr/bin/db_bench fills with compression_max_dict_bytes set
//    (zstd trained, LZ4, zlib) are read by our BlockBasedTable: every table
//    file holds "rocksdb.compression_dict", and our scan of each file equals
//    sst_dump's scan of it.
// The tests skip when the tools are missing.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "strata/env.h"
#include "table/block.h"
#include "table/block_based_table_builder.h"
#include "table/block_based_table_reader.h"
#include "table/compression.h"
#include "table/format.h"
#include "table/meta_blocks.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

constexpr const char* kSstDump = "/usr/bin/sst_dump";
constexpr const char* kDbBench = "/usr/bin/db_bench";

bool IsExecutable(const char* path) { return access(path, X_OK) == 0; }

struct CommandResult {
  int exit_code = -1;
  std::string out;  // stdout and stderr together
};

CommandResult RunCommand(const std::string& command) {
  CommandResult r;
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  if (p == nullptr) return r;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) r.out.append(buf, n);
  const int status = pclose(p);
  if (status != -1 && WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  return r;
}

std::string Hex(const Slice& s) {
  static const char kDigits[] = "0123456789ABCDEF";
  std::string out;
  for (size_t i = 0; i < s.size(); i++) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 0xf]);
  }
  return out;
}

// sst_dump --command=scan --output_hex lines "'KEYHEX' seq:N, type:T => VALUEHEX",
// normalized to "KEYHEX N T VALUEHEX" (hex upper case).
std::vector<std::string> SstDumpScan(const std::string& file) {
  const CommandResult r =
      RunCommand(std::string(kSstDump) + " --file='" + file + "' --command=scan --output_hex");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  std::vector<std::string> lines;
  std::istringstream in(r.out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] != '\'') continue;
    const size_t close = line.find("' seq:");
    const size_t type_at = line.find(", type:");
    const size_t arrow = line.find(" => ");
    if (close == std::string::npos || type_at == std::string::npos || arrow == std::string::npos) {
      ADD_FAILURE() << "unparsed sst_dump line: " << line;
      continue;
    }
    std::string key = line.substr(1, close - 1), value = line.substr(arrow + 4);
    for (char& c : key) c = static_cast<char>(toupper(c));
    for (char& c : value) c = static_cast<char>(toupper(c));
    lines.push_back(key + " " + line.substr(close + 6, type_at - close - 6) + " " +
                    line.substr(type_at + 7, arrow - type_at - 7) + " " + value);
  }
  return lines;
}

std::string Line(const Slice& ikey, const Slice& value) {
  ParsedInternalKey p;
  if (!ParseInternalKey(ikey, &p).ok()) return "bad key " + Hex(ikey);
  return Hex(p.user_key) + " " + std::to_string(p.sequence) + " " +
         std::to_string(static_cast<int>(p.type)) + " " + Hex(value);
}

Status OpenTable(const std::string& path, std::unique_ptr<BlockBasedTable>* table) {
  std::unique_ptr<RandomAccessFile> file;
  Status s = FileSystem::Default()->NewRandomAccessFile(path, FileOptions(), &file);
  uint64_t size = 0;
  if (s.ok()) s = FileSystem::Default()->GetFileSize(path, &size);
  if (!s.ok()) return s;
  TableReaderOptions ro;
  ro.file_name = path;
  return BlockBasedTable::Open(ro, std::move(file), size, table);
}

bool HasDictionaryBlock(BlockBasedTable* table) {
  std::string contents;
  if (!table->ReadBlockContents(table->footer().metaindex_handle(), &contents).ok()) return false;
  Block meta(std::move(contents));
  std::unique_ptr<BlockIter> it(meta.NewIterator(BytewiseComparator()));
  it->Seek(kCompressionDictBlockName);
  return it->Valid() && it->key() == Slice(kCompressionDictBlockName);
}

struct WriteCase {
  const char* name;
  CompressionType type;
  CompressionOptions opts;
};

std::vector<WriteCase> WriteCases() {
  std::vector<WriteCase> cases;
  auto add = [&](const char* name, CompressionType t, uint32_t dict, uint32_t train, bool trainer,
                 int level) {
    WriteCase c{name, t, CompressionOptions()};
    c.opts.max_dict_bytes = dict;
    c.opts.zstd_max_train_bytes = train;
    c.opts.use_zstd_dict_trainer = trainer;
    c.opts.level = level;
    cases.push_back(c);
  };
  constexpr int kDefault = CompressionOptions::kDefaultCompressionLevel;
  add("zstd raw dict", kZSTD, 16384, 0, true, kDefault);
  add("zstd trained dict", kZSTD, 16384, 1 << 20, true, kDefault);
  add("zstd finalized dict level 7", kZSTD, 16384, 1 << 20, false, 7);
  add("lz4 dict", kLZ4Compression, 16384, 0, true, kDefault);
  add("lz4hc dict", kLZ4HCCompression, 16384, 0, true, kDefault);
  add("zlib dict", kZlibCompression, 16384, 0, true, kDefault);
  add("lz4hc level 12", kLZ4HCCompression, 0, 0, true, 12);
  add("zlib level 9", kZlibCompression, 0, 0, true, 9);
  add("zlib default", kZlibCompression, 0, 0, true, kDefault);
  add("zstd level 19", kZSTD, 0, 0, true, 19);
  return cases;
}

TEST(CompressionDictInteropTest, SstDumpReadsOurTables) {
  if (!IsExecutable(kSstDump)) GTEST_SKIP() << "needs " << kSstDump;
  test::TempDir dir("cdict_interop");
  std::mt19937_64 rng(test::RandomSeed());
  static const char* const kWords[] = {"country=FR;",  "lang=fr;",       "tier=gold;",
                                       "plan=yearly;", "status=active;", "device=mobile;"};
  std::map<std::string, std::string> model;
  while (model.size() < 4000) {
    std::string v = "{id:" + std::to_string(rng() % 100000) + ";";
    for (int w = 0; w < 4; w++) v += kWords[rng() % 6];
    if (rng() % 20 == 0) v += test::RandomBytes(&rng, 300);
    model["key" + std::to_string(rng() % 100000000)] = v;
  }
  int n = 0;
  for (const WriteCase& c : WriteCases()) {
    SCOPED_TRACE(c.name);
    const std::string path = dir.path() + "/" + std::to_string(++n) + ".sst";
    std::vector<std::string> want;
    {
      std::unique_ptr<WritableFile> file;
      ASSERT_OK(FileSystem::Default()->NewWritableFile(path, FileOptions(), &file));
      TableBuilderOptions bo;
      bo.table_options.block_size = 2048;
      bo.compression = c.type;
      bo.compression_opts = c.opts;
      BlockBasedTableBuilder builder(bo, file.get());
      SequenceNumber seq = 100;
      for (const auto& [k, v] : model) {
        std::string ikey;
        AppendInternalKey(&ikey, k, seq, kTypeValue);
        builder.Add(ikey, v);
        want.push_back(Line(ikey, v));
        seq++;
      }
      ASSERT_OK(builder.Finish());
      ASSERT_OK(file->Close());
    }
    std::unique_ptr<BlockBasedTable> table;
    ASSERT_OK(OpenTable(path, &table));
    EXPECT_EQ(HasDictionaryBlock(table.get()), c.opts.max_dict_bytes > 0);
    table.reset();
    EXPECT_EQ(SstDumpScan(path), want);
    const CommandResult check = RunCommand(std::string(kSstDump) + " --file='" + path +
                                           "' --command=check --verify_checksum");
    EXPECT_EQ(check.exit_code, 0) << check.out;
    EXPECT_EQ(check.out.find("Corruption"), std::string::npos) << check.out;
    const CommandResult props =
        RunCommand(std::string(kSstDump) + " --file='" + path + "' --show_properties");
    EXPECT_NE(
        props.out.find(std::string("SST file compression algo: ") + CompressionTypeName(c.type)),
        std::string::npos)
        << props.out;
  }
}

TEST(CompressionDictInteropTest, WeReadRocksDBDictionaryTables) {
  if (!IsExecutable(kSstDump) || !IsExecutable(kDbBench)) {
    GTEST_SKIP() << "needs " << kSstDump << " and " << kDbBench;
  }
  const struct {
    const char* codec;
    const char* extra;
  } cases[] = {
      {"zstd", "--compression_zstd_max_train_bytes=65536"},
      {"zstd", ""},
      {"lz4", ""},
      {"zlib", ""},
      {"lz4hc", "--compression_level=10"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.codec) + " " + c.extra);
    test::TempDir dir("cdict_rocksdb");
    const std::string db = dir.path() + "/db";
    // A small memtable: several flushed tables (and compactions), each
    // written with a dictionary.
    const CommandResult r =
        RunCommand(std::string(kDbBench) + " --benchmarks=fillrandom,flush --num=20000" +
                   " --compression_type=" + c.codec + " --compression_max_dict_bytes=16384 " +
                   c.extra + " --write_buffer_size=1000000 --db='" + db + "'");
    ASSERT_EQ(r.exit_code, 0) << r.out;
    int tables = 0;
    std::vector<std::string> children;
    ASSERT_OK(FileSystem::Default()->GetChildren(db, &children));
    for (const std::string& name : children) {
      if (name.size() < 4 || name.substr(name.size() - 4) != ".sst") continue;
      const std::string path = db + "/" + name;
      SCOPED_TRACE(path);
      tables++;
      std::unique_ptr<BlockBasedTable> table;
      ASSERT_OK(OpenTable(path, &table));
      EXPECT_TRUE(HasDictionaryBlock(table.get()));
      std::vector<std::string> ours;
      std::unique_ptr<InternalIterator> it(table->NewIterator(ReadOptions()));
      for (it->SeekToFirst(); it->Valid(); it->Next()) ours.push_back(Line(it->key(), it->value()));
      ASSERT_OK(it->status());
      ASSERT_OK(table->VerifyChecksum());
      EXPECT_EQ(ours.size(), table->GetTableProperties()->num_entries);
      EXPECT_GT(ours.size(), 0u);
      const std::vector<std::string> theirs = SstDumpScan(path);
      ASSERT_EQ(ours.size(), theirs.size());
      EXPECT_TRUE(ours == theirs);
    }
    EXPECT_GT(tables, 0);
  }
}

}  // namespace
}  // namespace strata
