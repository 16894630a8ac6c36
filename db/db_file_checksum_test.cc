// Engine-level tests of full-file checksums (strata/file_checksum.h): the
// crc32c function's bytes, FileChecksumList, and a DB with
// file_checksum_gen_factory -- every table a flush, compaction or ingestion
// writes carries the checksum of its bytes (computed here independently),
// in GetLiveFilesChecksumInfo, LiveFileMetaData, the listener and across a
// reopen; VerifyFileChecksums passes, and names the file when a byte is
// flipped. The RocksDB side is db/db_file_checksum_interop_test.cc.
#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "strata/convenience.h"
#include "strata/db.h"
#include "strata/file_checksum.h"
#include "strata/listener.h"
#include "strata/options.h"
#include "strata/sst_file_writer.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

std::string Crc32cChecksumOf(const std::string& bytes) {
  auto gen = GetFileChecksumGenCrc32cFactory()->CreateFileChecksumGenerator({});
  gen->Update(bytes.data(), bytes.size());
  gen->Finalize();
  return gen->GetChecksum();
}

TEST(FileChecksumTest, Crc32cIsRocksDbsEncoding) {
  auto factory = GetFileChecksumGenCrc32cFactory();
  EXPECT_STREQ(factory->Name(), "FileChecksumGenCrc32cFactory");
  EXPECT_EQ(factory, GetFileChecksumGenCrc32cFactory());
  FileChecksumGenContext context;
  auto gen = factory->CreateFileChecksumGenerator(context);
  ASSERT_NE(gen, nullptr);
  EXPECT_STREQ(gen->Name(), "FileChecksumCrc32c");
  // CRC-32C("123456789") = 0xE3069283, stored most significant byte first;
  // fed in two pieces.
  gen->Update("1234", 4);
  gen->Update("56789", 5);
  gen->Finalize();
  EXPECT_EQ(gen->GetChecksum(), std::string("\xE3\x06\x92\x83", 4));
  EXPECT_EQ(Crc32cChecksumOf(""), std::string(4, '\0'));
  context.requested_checksum_func_name = "FileChecksumCrc32c";
  EXPECT_NE(factory->CreateFileChecksumGenerator(context), nullptr);
  context.requested_checksum_func_name = "SomethingElse";
  EXPECT_EQ(factory->CreateFileChecksumGenerator(context), nullptr);
}

TEST(FileChecksumTest, List) {
  std::unique_ptr<FileChecksumList> list = NewFileChecksumList();
  EXPECT_EQ(list->size(), 0u);
  ASSERT_OK(list->InsertOneFileChecksum(9, "b", "f"));
  ASSERT_OK(list->InsertOneFileChecksum(3, "a", "f"));
  ASSERT_OK(list->InsertOneFileChecksum(9, "c", "g"));  // replaces
  EXPECT_EQ(list->size(), 2u);
  std::string c, f;
  ASSERT_OK(list->SearchOneFileChecksum(9, &c, &f));
  EXPECT_EQ(c + f, "cg");
  EXPECT_TRUE(list->SearchOneFileChecksum(4, &c, &f).IsNotFound());
  EXPECT_TRUE(list->SearchOneFileChecksum(9, nullptr, &f).IsInvalidArgument());
  std::vector<uint64_t> numbers;
  std::vector<std::string> checksums, names;
  EXPECT_TRUE(list->GetAllFileChecksums(&numbers, nullptr, &names).IsInvalidArgument());
  ASSERT_OK(list->GetAllFileChecksums(&numbers, &checksums, &names));
  EXPECT_EQ(numbers, (std::vector<uint64_t>{3, 9}));
  EXPECT_EQ(checksums, (std::vector<std::string>{"a", "c"}));
  ASSERT_OK(list->RemoveOneFileChecksum(3));
  EXPECT_TRUE(list->RemoveOneFileChecksum(3).IsNotFound());
  list->reset();
  EXPECT_EQ(list->size(), 0u);
}

// The option by name (OPTIONS files, option strings): RocksDB's spelling.
TEST(FileChecksumTest, OptionByName) {
  DBOptions o;
  ASSERT_OK(GetDBOptionsFromString(DBOptions(),
                                   "file_checksum_gen_factory=FileChecksumGenCrc32cFactory", &o));
  EXPECT_EQ(o.file_checksum_gen_factory, GetFileChecksumGenCrc32cFactory());
  std::string text;
  ASSERT_OK(GetStringFromDBOptions(&text, o, ";"));
  EXPECT_NE(text.find("file_checksum_gen_factory=FileChecksumGenCrc32cFactory;"), std::string::npos)
      << text;
  ASSERT_OK(GetDBOptionsFromString(o, "file_checksum_gen_factory=nullptr", &o));
  EXPECT_EQ(o.file_checksum_gen_factory, nullptr);
  ASSERT_OK(GetStringFromDBOptions(&text, o, ";"));
  EXPECT_NE(text.find("file_checksum_gen_factory=nullptr;"), std::string::npos) << text;
  const Status s = GetDBOptionsFromString(DBOptions(), "file_checksum_gen_factory=Mine", &o);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("file_checksum_gen_factory"), std::string::npos) << s.ToString();
}

class CreatedFiles : public EventListener {
 public:
  void OnTableFileCreated(const TableFileCreationInfo& info) override {
    std::lock_guard<std::mutex> l(mu);
    by_path[info.file_path] = info.file_checksum + "/" + info.file_checksum_func_name;
  }
  std::mutex mu;
  std::map<std::string, std::string> by_path;
};

class DBFileChecksumTest : public ::testing::Test {
 protected:
  Options Opts() {
    Options o;
    o.create_if_missing = true;
    o.file_checksum_gen_factory = GetFileChecksumGenCrc32cFactory();
    o.listeners.push_back(listener_);
    o.disable_auto_compactions = true;
    return o;
  }

  static std::string Key(int i) {
    char buf[16];
    std::snprintf(buf, sizeof(buf), "key%06d", i);
    return buf;
  }

  // Three flushes, a full compaction, one more flush and an ingested file.
  void Fill(DB* db) {
    for (int part = 0; part < 3; ++part) {
      for (int i = part; i < 3000; i += 3) {
        ASSERT_OK(db->Put(WriteOptions(), Key(i), "value-" + std::to_string(i)));
      }
      ASSERT_OK(db->Flush(FlushOptions()));
    }
    ASSERT_OK(db->CompactRange(CompactRangeOptions(), nullptr, nullptr));
    for (int i = 0; i < 3000; i += 7) ASSERT_OK(db->Put(WriteOptions(), Key(i), "again"));
    ASSERT_OK(db->Flush(FlushOptions()));
    const std::string sst = ext_.path() + "/ext.sst";
    SstFileWriter w{Options()};
    ASSERT_OK(w.Open(sst));
    for (int i = 0; i < 100; ++i) ASSERT_OK(w.Put("zz" + Key(i), "ingested"));
    ASSERT_OK(w.Finish());
    ASSERT_OK(db->IngestExternalFile({sst}, IngestExternalFileOptions()));
  }

  // Every live table's recorded checksum is the crc32c of its bytes.
  void ExpectChecksumsOfTheBytes(DB* db, size_t expected_files) {
    std::unique_ptr<FileChecksumList> list = NewFileChecksumList();
    ASSERT_OK(db->GetLiveFilesChecksumInfo(list.get()));
    std::vector<LiveFileMetaData> meta;
    db->GetLiveFilesMetaData(&meta);
    ASSERT_EQ(meta.size(), expected_files);
    EXPECT_EQ(list->size(), meta.size());
    for (const LiveFileMetaData& m : meta) {
      const std::string path = m.directory + "/" + m.relative_filename;
      const std::string want = Crc32cChecksumOf(test::ReadFileOrDie(path));
      EXPECT_EQ(m.file_checksum, want) << path;
      EXPECT_EQ(m.file_checksum_func_name, "FileChecksumCrc32c") << path;
      std::string c, f;
      ASSERT_OK(list->SearchOneFileChecksum(m.file_number, &c, &f));
      EXPECT_EQ(c, want);
      EXPECT_EQ(f, "FileChecksumCrc32c");
    }
  }

  std::shared_ptr<CreatedFiles> listener_ = std::make_shared<CreatedFiles>();
  test::TempDir dir_{"file_checksum"};
  test::TempDir ext_{"file_checksum_ext"};
};

TEST_F(DBFileChecksumTest, EveryTableCarriesTheChecksumOfItsBytes) {
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(Opts(), dir_.path(), &db));
  Fill(db.get());
  ExpectChecksumsOfTheBytes(db.get(), 3);  // compacted, flushed, ingested
  ASSERT_OK(db->VerifyFileChecksums(ReadOptions()));
  // The listener was told each flush and compaction output's checksum.
  std::vector<LiveFileMetaData> meta;
  db->GetLiveFilesMetaData(&meta);
  size_t told = 0;
  {
    std::lock_guard<std::mutex> l(listener_->mu);
    EXPECT_GE(listener_->by_path.size(), 5u);  // 4 flushes + 1 compaction output
    for (const LiveFileMetaData& m : meta) {
      auto it = listener_->by_path.find(m.directory + "/" + m.relative_filename);
      if (it == listener_->by_path.end()) continue;  // the ingested file
      EXPECT_EQ(it->second, m.file_checksum + "/FileChecksumCrc32c");
      ++told;
    }
  }
  EXPECT_EQ(told, 2u);
  // GetLiveFilesStorageInfo gives them on request.
  LiveFilesStorageInfoOptions so;
  so.include_checksum_info = true;
  std::vector<LiveFileStorageInfo> files;
  ASSERT_OK(db->GetLiveFilesStorageInfo(so, &files));
  size_t tables = 0;
  for (const LiveFileStorageInfo& f : files) {
    if (f.file_type != kTableFile) continue;
    ++tables;
    EXPECT_EQ(f.file_checksum_func_name, "FileChecksumCrc32c");
    EXPECT_EQ(f.file_checksum.size(), 4u);
  }
  EXPECT_EQ(tables, 3u);
  // The MANIFEST keeps them across a reopen (and a recovery flush adds one).
  ASSERT_OK(db->Put(WriteOptions(), "unflushed", "x"));
  ASSERT_OK(db->Close());
  db.reset();
  ASSERT_OK(DB::Open(Opts(), dir_.path(), &db));
  ExpectChecksumsOfTheBytes(db.get(), 4);
  ASSERT_OK(db->VerifyFileChecksums(ReadOptions()));
  // The OPTIONS file names the factory, as RocksDB's does.
  bool named = false;
  for (const auto& [name, bytes] : test::DirectoryContents(dir_.path())) {
    if (name.rfind("OPTIONS-", 0) == 0) {
      named = named || bytes.find("  file_checksum_gen_factory=FileChecksumGenCrc32cFactory\n") !=
                           std::string::npos;
    }
  }
  EXPECT_TRUE(named);
}

// Repair records no checksums, as RocksDB 7.8.3's repairer (it rebuilds
// every table's entry from a scan of the file, the tables it makes from the
// WALs included): "" and "Unknown", and nothing for VerifyFileChecksums.
TEST_F(DBFileChecksumTest, RepairRecordsNoChecksums) {
  {
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(Opts(), dir_.path(), &db));
    for (int i = 0; i < 100; ++i) ASSERT_OK(db->Put(WriteOptions(), Key(i), "v"));
    ASSERT_OK(db->Flush(FlushOptions()));
    ASSERT_OK(db->Put(WriteOptions(), "wal-only", "w"));
    ASSERT_OK(db->Close());
  }
  ASSERT_OK(RepairDB(dir_.path(), Opts()));
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(Opts(), dir_.path(), &db));
  std::vector<LiveFileMetaData> meta;
  db->GetLiveFilesMetaData(&meta);
  ASSERT_EQ(meta.size(), 2u);
  for (const LiveFileMetaData& m : meta) {
    EXPECT_EQ(m.file_checksum, "");
    EXPECT_EQ(m.file_checksum_func_name, "Unknown");
  }
  ASSERT_OK(db->VerifyFileChecksums(ReadOptions()));
  std::string v;
  ASSERT_OK(db->Get(ReadOptions(), "wal-only", &v));
}

TEST_F(DBFileChecksumTest, AFlippedByteIsCorruptionNamingTheFile) {
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(Opts(), dir_.path(), &db));
  Fill(db.get());
  std::vector<LiveFileMetaData> meta;
  db->GetLiveFilesMetaData(&meta);
  ASSERT_FALSE(meta.empty());
  const std::string path = meta[0].directory + "/" + meta[0].relative_filename;
  std::string bytes = test::ReadFileOrDie(path);
  bytes[bytes.size() / 2] ^= 0x40;
  test::WriteFileOrDie(path, bytes);
  const Status s = db->VerifyFileChecksums(ReadOptions());
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.ToString().find(path + " file checksum mismatch, expecting "), std::string::npos)
      << s.ToString();
  EXPECT_NE(s.ToString().find(", but actual "), std::string::npos) << s.ToString();
}

TEST_F(DBFileChecksumTest, WithoutAFactory) {
  Options o = Opts();
  o.file_checksum_gen_factory = nullptr;
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(o, dir_.path(), &db));
  ASSERT_OK(db->Put(WriteOptions(), "a", "1"));
  ASSERT_OK(db->Flush(FlushOptions()));
  std::unique_ptr<FileChecksumList> list = NewFileChecksumList();
  ASSERT_OK(db->GetLiveFilesChecksumInfo(list.get()));
  std::vector<uint64_t> numbers;
  std::vector<std::string> checksums, names;
  ASSERT_OK(list->GetAllFileChecksums(&numbers, &checksums, &names));
  ASSERT_EQ(numbers.size(), 1u);
  EXPECT_EQ(checksums[0], "");
  EXPECT_EQ(names[0], "Unknown");
  EXPECT_TRUE(db->GetLiveFilesChecksumInfo(nullptr).IsInvalidArgument());
  const Status s = db->VerifyFileChecksums(ReadOptions());
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_EQ(s.ToString(),
            "Invalid argument: Cannot verify file checksum if "
            "options.file_checksum_gen_factory is null");
  // Reopened with the factory: the old file has nothing to check, new
  // ones get checksums.
  ASSERT_OK(db->Close());
  db.reset();
  ASSERT_OK(DB::Open(Opts(), dir_.path(), &db));
  ASSERT_OK(db->Put(WriteOptions(), "b", "2"));
  ASSERT_OK(db->Flush(FlushOptions()));
  ASSERT_OK(db->VerifyFileChecksums(ReadOptions()));
  ASSERT_OK(db->GetLiveFilesChecksumInfo(list.get()));
  numbers.clear(), checksums.clear(), names.clear();
  ASSERT_OK(list->GetAllFileChecksums(&numbers, &checksums, &names));
  ASSERT_EQ(names.size(), 2u);
  EXPECT_EQ(names[0], "Unknown");
  EXPECT_EQ(names[1], "FileChecksumCrc32c");
}

// A factory that declines (returns no generator) leaves files unchecked.
TEST_F(DBFileChecksumTest, AFactoryWithoutAGenerator) {
  class Declining : public FileChecksumGenFactory {
   public:
    std::unique_ptr<FileChecksumGenerator> CreateFileChecksumGenerator(
        const FileChecksumGenContext&) override {
      return nullptr;
    }
    const char* Name() const override { return "Declining"; }
  };
  Options o = Opts();
  o.file_checksum_gen_factory = std::make_shared<Declining>();
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(o, dir_.path(), &db));
  ASSERT_OK(db->Put(WriteOptions(), "a", "1"));
  ASSERT_OK(db->Flush(FlushOptions()));
  std::vector<LiveFileMetaData> meta;
  db->GetLiveFilesMetaData(&meta);
  ASSERT_EQ(meta.size(), 1u);
  EXPECT_EQ(meta[0].file_checksum, "");
  EXPECT_EQ(meta[0].file_checksum_func_name, "Unknown");
  ASSERT_OK(db->VerifyFileChecksums(ReadOptions()));
}

TEST(FileChecksumLoaderTest, CreateFromStringKnowsTheCrc32cFactory) {
  ConfigOptions config;
  std::shared_ptr<FileChecksumGenFactory> f;
  ASSERT_OK(FileChecksumGenFactory::CreateFromString(config, "FileChecksumGenCrc32cFactory", &f));
  EXPECT_EQ(GetFileChecksumGenCrc32cFactory(), f);
  ASSERT_OK(FileChecksumGenFactory::CreateFromString(config, "", &f));
  EXPECT_EQ(nullptr, f);
  f = GetFileChecksumGenCrc32cFactory();
  ASSERT_OK(FileChecksumGenFactory::CreateFromString(config, "nullptr", &f));
  EXPECT_EQ(nullptr, f);
  ASSERT_OK(FileChecksumGenFactory::CreateFromString(config, "Unknown", &f));  // ignored
  EXPECT_EQ(nullptr, f);
  config.ignore_unsupported_options = false;
  Status s = FileChecksumGenFactory::CreateFromString(config, "Unknown", &f);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
}

}  // namespace
}  // namespace strata
