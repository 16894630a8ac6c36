// Databases written by a current RocksDB (10.5.1, testdata/rocksdb-10.5.1,
// see testdata/README.md for how they were made): one table at
// format_version 6 and one at 7, a MANIFEST with the records a current
// RocksDB writes by default (epoch numbers, tail sizes, unique ids...), a WAL
// holding newer writes, and a 10.5.1 OPTIONS file. Strata must open each
// with its defaults, read every key back, iterate, verify every checksum,
// load the OPTIONS file, and keep working (write, flush, compact, reopen).
#include "strata/db.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "strata/env.h"
#include "strata/table.h"
#include "strata/table_properties.h"
#include "strata/utilities/options_util.h"
#include "test_util/testutil.h"

#ifndef STRATA_TESTDATA_DIR
#error "STRATA_TESTDATA_DIR must name the repository's testdata directory"
#endif

namespace strata {
namespace {

std::string Key(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "key%06d", i);
  return buf;
}
std::string Value(int i) { return "value-" + std::to_string(i) + "-" + std::string(i % 37, 'x'); }

// What scripts/rocksdb_npm_make_db.js wrote: keys 0..399, every 50th
// deleted, [key000300, key000310) range-deleted, all flushed to one table;
// then, in the WAL only, keys 1..49 overwritten and keys 400..449 added.
std::map<std::string, std::string> Model() {
  std::map<std::string, std::string> m;
  for (int i = 0; i < 400; ++i) m[Key(i)] = Value(i);
  for (int i = 0; i < 400; i += 50) m.erase(Key(i));
  for (int i = 300; i < 310; ++i) m.erase(Key(i));
  for (int i = 1; i < 50; ++i) m[Key(i)] = "new-" + Value(i);
  for (int i = 400; i < 450; ++i) m[Key(i)] = Value(i);
  return m;
}

void CheckContents(DB* db, const std::map<std::string, std::string>& model) {
  for (int i = 0; i < 460; ++i) {
    std::string v;
    Status s = db->Get(ReadOptions(), Key(i), &v);
    auto it = model.find(Key(i));
    if (it == model.end()) {
      ASSERT_TRUE(s.IsNotFound()) << Key(i) << ": " << s.ToString();
    } else {
      ASSERT_OK(s);
      ASSERT_EQ(v, it->second) << Key(i);
    }
  }
  auto it = db->NewIterator(ReadOptions());
  auto m = model.begin();
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++m) {
    ASSERT_NE(m, model.end());
    ASSERT_EQ(it->key().ToString(), m->first);
    ASSERT_EQ(it->value().ToString(), m->second);
  }
  ASSERT_OK(it->status());
  ASSERT_EQ(m, model.end());
  // Backwards too.
  auto r = model.rbegin();
  for (it->SeekToLast(); it->Valid(); it->Prev(), ++r) {
    ASSERT_NE(r, model.rend());
    ASSERT_EQ(it->key().ToString(), r->first);
  }
  ASSERT_OK(it->status());
  ASSERT_EQ(r, model.rend());
  ASSERT_OK(db->VerifyChecksum());
}

class DBCurrentRocksDBTest : public testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    const std::string src =
        std::string(STRATA_TESTDATA_DIR) + "/rocksdb-10.5.1/fv" + std::to_string(GetParam());
    ASSERT_TRUE(std::filesystem::is_directory(src)) << src;
    std::filesystem::copy(src, path_, std::filesystem::copy_options::recursive);
  }
  test::TempDir dir_{"current_rocksdb"};
  std::string path_ = dir_.path() + "/db";
};

TEST_P(DBCurrentRocksDBTest, TableFormatVersion) {
  // The table file itself: its footer says what RocksDB wrote.
  std::string bytes;
  ASSERT_OK(ReadFileToString(Env::Default()->GetFileSystem(), path_ + "/000009.sst", &bytes));
  ASSERT_GT(bytes.size(), 53u);
  EXPECT_EQ(static_cast<unsigned char>(bytes[bytes.size() - 12]), GetParam());
  EXPECT_EQ(bytes.substr(bytes.size() - 52, 4), std::string("\x3e\x00\x7a\x00", 4));
}

TEST_P(DBCurrentRocksDBTest, OpenReadOnlyWithDefaults) {
  Options options;
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::OpenForReadOnly(options, path_, &db));
  CheckContents(db.get(), Model());
  std::vector<LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  ASSERT_EQ(files.size(), 1u);
  TablePropertiesCollection props;
  ASSERT_OK(db->GetPropertiesOfAllTables(&props));
  ASSERT_EQ(props.size(), 1u);
  const TableProperties& p = *props.begin()->second;
  EXPECT_EQ(p.format_version, static_cast<uint64_t>(GetParam()));
  EXPECT_EQ(p.compression_name, GetParam() >= 7 ? ";;" : "NoCompression");
  EXPECT_EQ(p.num_range_deletions, 1u);
  EXPECT_EQ(p.filter_policy_name, "bloomfilter");
}

TEST_P(DBCurrentRocksDBTest, OpenWriteCompactReopen) {
  auto model = Model();
  Options options;
  {
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(options, path_, &db));
    CheckContents(db.get(), model);
    ASSERT_OK(db->Put(WriteOptions(), "key000500", "strata"));
    ASSERT_OK(db->Delete(WriteOptions(), Key(1)));
    model["key000500"] = "strata";
    model.erase(Key(1));
    ASSERT_OK(db->Flush(FlushOptions()));
    CheckContents(db.get(), model);
    ASSERT_OK(db->CompactRange(CompactRangeOptions(), nullptr, nullptr));
    CheckContents(db.get(), model);
  }
  {
    // Strata's own tables at 6 and 7 beside RocksDB's.
    BlockBasedTableOptions t;
    t.format_version = 7;
    options.table_factory = NewBlockBasedTableFactory(t);
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(options, path_, &db));
    CheckContents(db.get(), model);
    ASSERT_OK(db->Put(WriteOptions(), "key000501", "fv7"));
    model["key000501"] = "fv7";
    ASSERT_OK(db->Flush(FlushOptions()));
    CompactRangeOptions cro;  // rewrite the last level too
    cro.bottommost_level_compaction = BottommostLevelCompaction::kForce;
    ASSERT_OK(db->CompactRange(cro, nullptr, nullptr));
    CheckContents(db.get(), model);
    TablePropertiesCollection props;
    ASSERT_OK(db->GetPropertiesOfAllTables(&props));
    for (const auto& [name, p] : props) EXPECT_EQ(p->format_version, 7u) << name;
  }
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(Options(), path_, &db));
  CheckContents(db.get(), model);
}

TEST_P(DBCurrentRocksDBTest, LoadOptionsFile) {
  DBOptions db_options;
  std::vector<ColumnFamilyDescriptor> cfs;
  // Strictly, options Strata lacks that do not hold RocksDB 7.8.3's default
  // are refused naming them (RocksDB's parser, too, refuses unknown options
  // unless ignore_unknown_options).
  Status strict = LoadLatestOptions(path_, Env::Default(), &db_options, &cfs);
  ASSERT_TRUE(strict.IsInvalidArgument()) << strict.ToString();
  ASSERT_NE(strict.ToString().find("OPTIONS-000007"), std::string::npos) << strict.ToString();
  // A newer RocksDB's file holds options Strata lacks; as RocksDB does for a
  // file from a newer release, they are skipped when asked to.
  ASSERT_OK(LoadLatestOptions(path_, Env::Default(), &db_options, &cfs,
                              /*ignore_unknown_options=*/true));
  ASSERT_EQ(cfs.size(), 1u);
  EXPECT_EQ(cfs[0].name, "default");
  const auto& t = cfs[0].options.table_factory->table_options();
  EXPECT_EQ(t.format_version, static_cast<uint32_t>(GetParam()));
  EXPECT_EQ(t.block_size, 8192u);
  // And the database opens with what was loaded.
  Options options(db_options, cfs[0].options);
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(options, path_, &db));
  CheckContents(db.get(), Model());
}

INSTANTIATE_TEST_SUITE_P(FormatVersions, DBCurrentRocksDBTest, testing::Values(6, 7));

// A WAL compressed with ZSTD (wal_compression, written by RocksDB 9.7.4 as
// the @nxtedition/rocksdb binding configures it: one batch of 400 puts and
// 8 deletes, never flushed): every recovery mode replays it, read-only
// opens read it, and a reopen with wal_compression writes a compressed WAL
// of its own that reads back too.
TEST(DBCurrentRocksDBWalTest, CompressedWalIsReplayed) {
  test::TempDir dir("current_rocksdb_wal");
  auto expect_contents = [](DB* db) {
    for (int i = 0; i < 400; ++i) {
      char key[16];
      snprintf(key, sizeof(key), "key%06d", i);
      std::string v;
      Status s = db->Get(ReadOptions(), key, &v);
      if (i % 50 == 0) {
        EXPECT_TRUE(s.IsNotFound()) << key << " " << s.ToString();
      } else {
        ASSERT_OK(s);
        EXPECT_EQ(v, "value-" + std::to_string(i) + "-" + std::string(i % 37, 'x')) << key;
      }
    }
  };
  for (WALRecoveryMode mode :
       {WALRecoveryMode::kPointInTimeRecovery, WALRecoveryMode::kTolerateCorruptedTailRecords,
        WALRecoveryMode::kAbsoluteConsistency, WALRecoveryMode::kSkipAnyCorruptedRecords}) {
    const std::string path = dir.path() + "/db" + std::to_string(static_cast<int>(mode));
    std::filesystem::copy(std::string(STRATA_TESTDATA_DIR) + "/rocksdb-9.7.4-wal-compression", path,
                          std::filesystem::copy_options::recursive);
    Options options;
    options.wal_recovery_mode = mode;
    // Writes stay in the WALs across closes: each open replays them.
    options.avoid_flush_during_shutdown = true;
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::OpenForReadOnly(options, path, &db));
    expect_contents(db.get());
    db.reset();
    ASSERT_OK(DB::Open(options, path, &db));
    expect_contents(db.get());
    ASSERT_OK(db->Put(WriteOptions(), "key000000", "again"));
    db.reset();
    options.wal_compression = kZSTD;
    ASSERT_OK(DB::Open(options, path, &db));
    ASSERT_OK(db->Put(WriteOptions(), "key000050", "compressed"));
    db.reset();
    // The WAL holding that write starts with the compression marker.
    std::string newest_log;
    for (const auto& e : std::filesystem::directory_iterator(path)) {
      const std::string name = e.path().filename().string();
      if (name.size() > 4 && name.substr(name.size() - 4) == ".log" && name > newest_log) {
        newest_log = name;
      }
    }
    std::string log_bytes;
    ASSERT_OK(
        ReadFileToString(Env::Default()->GetFileSystem(), path + "/" + newest_log, &log_bytes));
    ASSERT_GT(log_bytes.size(), 11u);
    EXPECT_EQ(log_bytes[6], 9) << newest_log << ": kSetCompressionType";
    options.wal_compression = kNoCompression;
    ASSERT_OK(DB::Open(options, path, &db));
    std::string v;
    ASSERT_OK(db->Get(ReadOptions(), "key000000", &v));
    EXPECT_EQ(v, "again");
    ASSERT_OK(db->Get(ReadOptions(), "key000050", &v));
    EXPECT_EQ(v, "compressed");
  }
}

}  // namespace
}  // namespace strata
