// DB::OpenForReadOnly: what it reads (tables and WALs of every listed
// family), what it refuses (every write and background operation), and that
// it leaves the directory byte-identical -- also while a read-write instance
// holds the DB, and when the WAL it replays is damaged.
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "strata/db.h"
#include "strata/iterator.h"
#include "strata/options.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

class DBReadOnlyTest : public ::testing::Test {
 protected:
  DBReadOnlyTest() : dbname_(tmp_.path() + "/db") {
    options_.create_if_missing = true;
    options_.create_missing_column_families = true;
    options_.write_buffer_size = 64 << 10;
  }

  // A DB with families "default" and "cf1": keys a<i> flushed to tables,
  // keys w<i> left only in the WAL.
  void MakeDatabase(int flushed = 500, int in_wal = 200) {
    std::unique_ptr<DB> db;
    std::vector<ColumnFamilyHandle*> handles;
    ASSERT_OK(DB::Open(options_, dbname_, Families(), &handles, &db));
    for (ColumnFamilyHandle* h : handles) {
      for (int i = 0; i < flushed; ++i) {
        ASSERT_OK(db->Put(WriteOptions(), h, Key("a", i), Value(h, i)));
      }
      ASSERT_OK(db->Flush(FlushOptions(), h));
      for (int i = 0; i < in_wal; ++i) {
        ASSERT_OK(db->Put(WriteOptions(), h, Key("w", i), Value(h, i)));
      }
    }
    for (ColumnFamilyHandle* h : handles) ASSERT_OK(db->DestroyColumnFamilyHandle(h));
    ASSERT_OK(db->Close());
  }

  std::vector<ColumnFamilyDescriptor> Families() const {
    return {ColumnFamilyDescriptor(kDefaultColumnFamilyName, options_),
            ColumnFamilyDescriptor("cf1", options_)};
  }
  static std::string Key(const char* prefix, int i) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%s%06d", prefix, i);
    return buf;
  }
  static std::string Value(ColumnFamilyHandle* h, int i) {
    return h->GetName() + "-" + std::to_string(i) + std::string(100, 'v');
  }

  test::TempDir tmp_{"db_readonly_test"};
  std::string dbname_;
  Options options_;
};

TEST_F(DBReadOnlyTest, ReadsTablesAndWalOfEveryFamilyAndWritesNothing) {
  MakeDatabase();
  const auto before = test::DirectoryContents(dbname_);
  {
    std::unique_ptr<DB> db;
    std::vector<ColumnFamilyHandle*> handles;
    ASSERT_OK(DB::OpenForReadOnly(options_, dbname_, Families(), &handles, &db));
    ASSERT_EQ(2u, handles.size());
    for (ColumnFamilyHandle* h : handles) {
      std::string value;
      for (int i = 0; i < 500; i += 37) {
        ASSERT_OK(db->Get(ReadOptions(), h, Key("a", i), &value));
        EXPECT_EQ(Value(h, i), value);
      }
      for (int i = 0; i < 200; i += 13) {
        ASSERT_OK(db->Get(ReadOptions(), h, Key("w", i), &value));
        EXPECT_EQ(Value(h, i), value);
      }
      EXPECT_TRUE(db->Get(ReadOptions(), h, "zzz", &value).IsNotFound());
      size_t n = 0;
      std::unique_ptr<Iterator> it = db->NewIterator(ReadOptions(), h);
      for (it->SeekToFirst(); it->Valid(); it->Next()) ++n;
      ASSERT_OK(it->status());
      EXPECT_EQ(700u, n);
    }
    EXPECT_OK(db->VerifyChecksum());

    // Every write and background operation is refused.
    ColumnFamilyHandle* cf1 = handles[1];
    WriteBatch batch;
    ASSERT_OK(batch.Put("k", "v"));
    ColumnFamilyHandle* created = nullptr;
    const Status refused[] = {
        db->Put(WriteOptions(), "k", "v"),
        db->Put(WriteOptions(), cf1, "k", "v"),
        db->Delete(WriteOptions(), "k"),
        db->SingleDelete(WriteOptions(), "k"),
        db->DeleteRange(WriteOptions(), cf1, "a", "b"),
        db->Write(WriteOptions(), &batch),
        db->Flush(FlushOptions()),
        db->SyncWAL(),
        db->CompactRange(CompactRangeOptions(), nullptr, nullptr),
        db->CreateColumnFamily(options_, "cf2", &created),
        db->DropColumnFamily(cf1),
        db->Resume(),
    };
    for (const Status& s : refused) {
      EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
      EXPECT_NE(std::string::npos, s.ToString().find("read only")) << s.ToString();
    }
    EXPECT_EQ(nullptr, created);
    for (ColumnFamilyHandle* h : handles) ASSERT_OK(db->DestroyColumnFamilyHandle(h));
    ASSERT_OK(db->Close());
  }
  EXPECT_TRUE(before == test::DirectoryContents(dbname_))
      << "a read-only open changed the directory";
}

TEST_F(DBReadOnlyTest, OpensWhileAReadWriteInstanceHoldsTheDatabase) {
  MakeDatabase();
  std::unique_ptr<DB> primary;
  std::vector<ColumnFamilyHandle*> handles;
  ASSERT_OK(DB::Open(options_, dbname_, Families(), &handles, &primary));
  ASSERT_OK(primary->Put(WriteOptions(), "before", "1"));

  std::unique_ptr<DB> reader;
  ASSERT_OK(DB::OpenForReadOnly(options_, dbname_, &reader));
  // The state of the moment it opened: later writes are not seen.
  ASSERT_OK(primary->Put(WriteOptions(), "after", "2"));
  std::string value;
  ASSERT_OK(reader->Get(ReadOptions(), "before", &value));
  EXPECT_EQ("1", value);
  EXPECT_TRUE(reader->Get(ReadOptions(), "after", &value).IsNotFound());
  ASSERT_OK(reader->Close());

  for (ColumnFamilyHandle* h : handles) ASSERT_OK(primary->DestroyColumnFamilyHandle(h));
  ASSERT_OK(primary->Close());
}

TEST_F(DBReadOnlyTest, OpensASubsetOfFamiliesButNotAMissingOne) {
  MakeDatabase(50, 10);
  // The default family alone: the DB has cf1 too (a read-write open would
  // need it listed).
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::OpenForReadOnly(options_, dbname_, &db));
  std::string value;
  ASSERT_OK(db->Get(ReadOptions(), Key("w", 3), &value));
  ASSERT_OK(db->Close());
  db.reset();

  std::vector<ColumnFamilyHandle*> handles;
  std::vector<ColumnFamilyDescriptor> families = Families();
  families.emplace_back("nope", options_);
  const Status s = DB::OpenForReadOnly(options_, dbname_, families, &handles, &db);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("nope")) << s.ToString();
  EXPECT_TRUE(handles.empty());
}

TEST_F(DBReadOnlyTest, ErrorIfWalFileExists) {
  MakeDatabase(50, 10);
  const auto before = test::DirectoryContents(dbname_);
  std::unique_ptr<DB> db;
  Status s = DB::OpenForReadOnly(options_, dbname_, &db, /*error_if_wal_file_exists=*/true);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(".log")) << s.ToString();
  EXPECT_EQ(nullptr, db);
  EXPECT_TRUE(before == test::DirectoryContents(dbname_));
}

TEST_F(DBReadOnlyTest, MissingDatabaseIsAnErrorAndNothingIsCreated) {
  std::unique_ptr<DB> db;
  const Status s = DB::OpenForReadOnly(options_, dbname_, &db);  // create_if_missing is set
  EXPECT_FALSE(s.ok());
  EXPECT_NE(std::string::npos, s.ToString().find("CURRENT")) << s.ToString();
  EXPECT_FALSE(std::ifstream(dbname_).good());
  EXPECT_TRUE(test::DirectoryContents(tmp_.path()).empty());
}

TEST_F(DBReadOnlyTest, WalLargerThanTheWriteBufferStaysInMemory) {
  options_.avoid_flush_during_recovery = true;  // recovery would flush it otherwise
  MakeDatabase(0, 3000);                        // ~330 KiB per family: 5x the write buffer
  options_.avoid_flush_during_recovery = false;
  const auto before = test::DirectoryContents(dbname_);
  std::unique_ptr<DB> db;
  std::vector<ColumnFamilyHandle*> handles;
  ASSERT_OK(DB::OpenForReadOnly(options_, dbname_, Families(), &handles, &db));
  std::string value;
  for (ColumnFamilyHandle* h : handles) {
    for (int i = 0; i < 3000; i += 101) {
      ASSERT_OK(db->Get(ReadOptions(), h, Key("w", i), &value));
      EXPECT_EQ(Value(h, i), value);
    }
    ASSERT_OK(db->DestroyColumnFamilyHandle(h));
  }
  ASSERT_OK(db->Close());
  EXPECT_TRUE(before == test::DirectoryContents(dbname_));
}

// A flipped byte in the WAL: point-in-time recovery serves the prefix
// before it, leaves the file as it is (a read-write open would truncate
// it), and VerifyChecksum reports the damage.
TEST_F(DBReadOnlyTest, DamagedWalIsReportedAndLeftAlone) {
  options_.avoid_flush_during_recovery = true;
  MakeDatabase(0, 400);
  std::string wal;
  for (const auto& [name, bytes] : test::DirectoryContents(dbname_)) {
    uint64_t number;
    if (test::ParseLogFileName(name, &number) && bytes.size() > 20000) wal = name;
  }
  ASSERT_FALSE(wal.empty());
  {
    std::fstream f(dbname_ + "/" + wal, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(20000);
    char c;
    f.seekg(20000);
    f.get(c);
    f.seekp(20000);
    f.put(static_cast<char>(c ^ 0x40));
  }
  const auto before = test::DirectoryContents(dbname_);
  Options options = options_;
  options.wal_recovery_mode = WALRecoveryMode::kPointInTimeRecovery;
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::OpenForReadOnly(options, dbname_, &db));
  std::string value;
  ASSERT_OK(db->Get(ReadOptions(), Key("w", 0), &value));
  const Status v = db->VerifyChecksum();
  EXPECT_TRUE(v.IsCorruption()) << v.ToString();
  EXPECT_NE(std::string::npos, v.ToString().find(wal)) << v.ToString();
  ASSERT_OK(db->Close());
  EXPECT_TRUE(before == test::DirectoryContents(dbname_));
}

}  // namespace
}  // namespace strata
