// Engine-level tests of the first slice of DBImpl (WAL + memtable, no SST
// files): opening and the directory layout, option validation, the basic
// operations, iterators, snapshots, properties, sequence numbers, reopening,
// DestroyDB, disableWAL and sync writes. Only the public API is used.

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "strata/db.h"
#include "strata/env.h"
#include "strata/iterator.h"
#include "strata/merge_operator.h"
#include "strata/options.h"
#include "strata/snapshot.h"
#include "strata/status.h"
#include "strata/write_batch.h"
#include "test_util/db_test_base.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> ListDir(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) {
    if (!out.empty()) out += " ";
    out += n;
  }
  return out;
}

// Numbers of the NNNNNN.log files in dir, ascending.
std::vector<uint64_t> LogNumbers(const std::string& dir) {
  std::vector<uint64_t> numbers;
  for (const auto& name : ListDir(dir)) {
    uint64_t number;
    if (test::ParseLogFileName(name, &number)) numbers.push_back(number);
  }
  std::sort(numbers.begin(), numbers.end());
  return numbers;
}

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// Default options (not DBTestBase's small ones): these tests are about the
// first slice, WAL and memtable, with the defaults a user gets.
class DBBasicTest : public DBTestBase {
 protected:
  DBBasicTest() : DBTestBase("db_basic_test") {
    options_ = Options();
    options_.create_if_missing = true;
  }
  ~DBBasicTest() override {
    // The database may use mem_env_, which goes before DBTestBase closes.
    if (db_ != nullptr) db_->Close().PermitUncheckedError();
    db_.reset();
  }

  // "k1=v1 k2=v2 ..." scanning forward; with a trailing "ERROR" on a bad
  // iterator status.
  std::string Contents(const ReadOptions& ro = ReadOptions()) {
    std::unique_ptr<Iterator> it = db_->NewIterator(ro);
    std::string out;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      if (!out.empty()) out += " ";
      out += it->key().ToString() + "=" + it->value().ToString();
    }
    if (!it->status().ok()) out += " ERROR: " + it->status().ToString();
    return out;
  }

  // The same scanning backward (listed in backward order).
  std::string ContentsBackward(const ReadOptions& ro = ReadOptions()) {
    std::unique_ptr<Iterator> it = db_->NewIterator(ro);
    std::string out;
    for (it->SeekToLast(); it->Valid(); it->Prev()) {
      if (!out.empty()) out += " ";
      out += it->key().ToString() + "=" + it->value().ToString();
    }
    if (!it->status().ok()) out += " ERROR: " + it->status().ToString();
    return out;
  }

  // "key=value" at the iterator, or "INVALID" (plus an error if any).
  static std::string At(const Iterator* it) {
    if (!it->Valid()) {
      return it->status().ok() ? "INVALID" : "INVALID ERROR: " + it->status().ToString();
    }
    return it->key().ToString() + "=" + it->value().ToString();
  }

  std::unique_ptr<Env> mem_env_;  // outlives db_ (the destructor closes it)
};

// ---- opening, layout, locking -------------------------------------------

TEST_F(DBBasicTest, OpenCreatesRocksDBDirectoryLayout) {
  Open();
  ASSERT_EQ(db_->GetName(), dbname_);
  std::vector<std::string> names = ListDir(dbname_);
  SCOPED_TRACE("directory: " + JoinNames(names));
  auto has = [&](const std::string& n) {
    return std::find(names.begin(), names.end(), n) != names.end();
  };
  ASSERT_TRUE(has("CURRENT"));
  ASSERT_TRUE(has("IDENTITY"));
  ASSERT_TRUE(has("LOCK"));
  ASSERT_TRUE(has("LOG"));

  std::string current = test::ReadFileOrDie(dbname_ + "/CURRENT");
  // "MANIFEST-" + at least 6 digits + exactly one newline.
  const std::string prefix = "MANIFEST-";
  ASSERT_TRUE(current.size() >= prefix.size() + 6 + 1 &&
              current.compare(0, prefix.size(), prefix) == 0 && current.back() == '\n' &&
              std::all_of(current.begin() + prefix.size(), current.end() - 1,
                          [](char c) { return c >= '0' && c <= '9'; }))
      << "CURRENT holds '" << current << "'";
  const std::string manifest = current.substr(0, current.size() - 1);
  EXPECT_TRUE(has(manifest)) << manifest;
  EXPECT_GT(fs::file_size(dbname_ + "/" + manifest), 0u);

  EXPECT_EQ(LogNumbers(dbname_).size(), 1u);
  for (const auto& n : names) {
    uint64_t number;
    size_t digits = 0;
    if (test::ParseLogFileName(n, &number, &digits)) {
      EXPECT_GE(digits, 6u) << n << ": not zero-padded to 6 digits";
    }
  }
  // IDENTITY holds some id text.
  EXPECT_FALSE(test::ReadFileOrDie(dbname_ + "/IDENTITY").empty());
}

// A batch made with RocksDB's per-key protection or a default-family
// timestamp size is refused by Write (Strata can honour neither), naming
// the argument; nothing is written.
TEST_F(DBBasicTest, WriteRefusesBatchesAskingForProtectionOrTimestamps) {
  Open();
  struct Case {
    size_t protection;
    size_t ts_sz;
    bool not_supported;
    const char* names;
  };
  for (const Case& c : {Case{8, 0, true, "protection_bytes_per_key=8"},
                        Case{1, 0, false, "protection_bytes_per_key must be 0 or 8"},
                        Case{0, 8, true, "default_cf_ts_sz"}}) {
    WriteBatch batch(0, 0, c.protection, c.ts_sz);
    ASSERT_TRUE(batch.Put("k", "v").ok());
    Status s = db_->Write(WriteOptions(), &batch);
    EXPECT_EQ(s.IsNotSupported(), c.not_supported) << s.ToString();
    EXPECT_EQ(s.IsInvalidArgument(), !c.not_supported) << s.ToString();
    EXPECT_NE(s.ToString().find(c.names), std::string::npos) << s.ToString();
  }
  EXPECT_EQ(Contents(), "");
  WriteBatch fine(0, 0, 0, 0);
  ASSERT_TRUE(fine.Put("k", "v").ok());
  ASSERT_TRUE(db_->Write(WriteOptions(), &fine).ok());
  EXPECT_EQ(Contents(), "k=v");
}

TEST_F(DBBasicTest, IdentityIsStableAcrossReopen) {
  Open();
  const std::string id = test::ReadFileOrDie(dbname_ + "/IDENTITY");
  Reopen();
  EXPECT_EQ(test::ReadFileOrDie(dbname_ + "/IDENTITY"), id);
}

TEST_F(DBBasicTest, MissingDatabaseWithoutCreateIfMissingIsInvalidArgument) {
  options_.create_if_missing = false;
  Status s = TryOpen();
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_EQ(db_, nullptr);
}

TEST_F(DBBasicTest, ErrorIfExistsOnExistingDatabaseIsInvalidArgument) {
  Open();
  ASSERT_OK(Put("k", "v"));
  Close();
  options_.error_if_exists = true;
  Status s = TryOpen();
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_EQ(db_, nullptr);
  // The database is untouched.
  options_.error_if_exists = false;
  Open();
  EXPECT_EQ(Get("k"), "v");
}

TEST_F(DBBasicTest, ErrorIfExistsOnNewDatabaseSucceeds) {
  options_.error_if_exists = true;
  Open();
  ASSERT_OK(Put("k", "v"));
  EXPECT_EQ(Get("k"), "v");
}

TEST_F(DBBasicTest, SecondOpenInSameProcessFailsNamingLockFile) {
  Open();
  std::unique_ptr<DB> second;
  Status s = DB::Open(options_, dbname_, &second);
  ASSERT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_TRUE(Contains(s.ToString(), dbname_ + "/LOCK")) << s.ToString();
  EXPECT_EQ(second, nullptr);
  // The first handle still works.
  ASSERT_OK(Put("a", "1"));
  EXPECT_EQ(Get("a"), "1");
  // Closing releases the lock.
  Close();
  ASSERT_OK(DB::Open(options_, dbname_, &second));
  std::string v;
  ASSERT_OK(second->Get(ReadOptions(), "a", &v));
  EXPECT_EQ(v, "1");
  ASSERT_OK(second->Close());
}

TEST_F(DBBasicTest, DestructorWithoutCloseReleasesLock) {
  Open();
  ASSERT_OK(Put("a", "1"));
  db_.reset();  // no Close()
  Open();
  EXPECT_EQ(Get("a"), "1");
}

TEST_F(DBBasicTest, CloseIsIdempotent) {
  Open();
  ASSERT_OK(Put("a", "1"));
  ASSERT_OK(db_->Close());
  ASSERT_OK(db_->Close());
  db_.reset();
  Open();
  EXPECT_EQ(Get("a"), "1");
}

TEST_F(DBBasicTest, OperationsAfterCloseFailCleanly) {
  Open();
  ASSERT_OK(Put("a", "1"));
  std::string v;
  ASSERT_OK(db_->Get(ReadOptions(), "a", &v));  // fills this thread's cached view
  ASSERT_OK(db_->Close());
  EXPECT_TRUE(db_->Put(WriteOptions(), "b", "2").IsShutdownInProgress());
  EXPECT_TRUE(db_->Get(ReadOptions(), "a", &v).IsShutdownInProgress());
  auto it = db_->NewIterator(ReadOptions());
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().IsShutdownInProgress());
  it.reset();
  std::string prop;
  EXPECT_FALSE(db_->GetProperty("strata.stats", &prop));
  EXPECT_FALSE(db_->GetProperty("strata.cur-size-all-mem-tables", &prop));
  EXPECT_TRUE(db_->SyncWAL().IsShutdownInProgress());
}

// The child processes of the two tests below run this binary again
// (test::SpawnSelf), with the database's path and their pipes in the
// environment; in a normal run the test skips.
constexpr const char* kChildDbEnv = "STRATA_BASIC_TEST_CHILD_DB";
constexpr const char* kChildModeEnv = "STRATA_BASIC_TEST_CHILD_MODE";
constexpr const char* kChildToParentEnv = "STRATA_BASIC_TEST_CHILD_TO_PARENT";
constexpr const char* kChildFromParentEnv = "STRATA_BASIC_TEST_CHILD_FROM_PARENT";

// Exit codes: "try": 0 = Open failed with IOError, 10 = Open succeeded,
// 11 = Open failed with another status. "hold": 0 = held and closed,
// 2x = a pipe or Open failed.
int RunChild(const std::string& mode, const std::string& dbname, int to_parent, int from_parent) {
  Options options;
  std::unique_ptr<DB> db;
  Status s = DB::Open(options, dbname, &db);
  if (mode == "try") {
    if (s.ok()) db->Close().PermitUncheckedError();
    return s.ok() ? 10 : (s.IsIOError() ? 0 : 11);
  }
  char c = s.ok() ? 'o' : 'e';
  if (write(to_parent, &c, 1) != 1) return 20;
  if (!s.ok()) return 21;
  // Wait until the parent has tried.
  if (read(from_parent, &c, 1) != 1) return 22;
  s = db->Close();
  db.reset();
  return s.ok() ? 0 : 23;
}

TEST(DBBasicChildProcess, Run) {
  const char* db = std::getenv(kChildDbEnv);
  const char* mode = std::getenv(kChildModeEnv);
  if (db == nullptr || mode == nullptr) {
    GTEST_SKIP() << "the child process of DBBasicTest's two-process lock tests";
  }
  const char* to_parent = std::getenv(kChildToParentEnv);
  const char* from_parent = std::getenv(kChildFromParentEnv);
  const int code = RunChild(mode, db, to_parent != nullptr ? std::atoi(to_parent) : -1,
                            from_parent != nullptr ? std::atoi(from_parent) : -1);
  std::fflush(stdout);
  _exit(code);
}

// A child process tries to open the database this process holds open.
TEST_F(DBBasicTest, OpenFromChildProcessWhileParentHoldsItFails) {
  if (test::kThreadSanitizer) GTEST_SKIP() << "fork-based test: skipped under TSan";
  Open();
  ASSERT_OK(Put("a", "1"));
  const int pid =
      test::SpawnSelf("DBBasicChildProcess.Run", {{kChildDbEnv, dbname_}, {kChildModeEnv, "try"}});
  ASSERT_GT(pid, 0);
  int wstatus = 0;
  ASSERT_EQ(waitpid(pid, &wstatus, 0), pid);
  ASSERT_TRUE(WIFEXITED(wstatus)) << "child did not exit normally: " << wstatus;
  EXPECT_EQ(WEXITSTATUS(wstatus), 0)
      << "10 = child's Open succeeded, 11 = child's Open failed but not with IOError";
  EXPECT_EQ(Get("a"), "1");
}

// The database is held open by another process (which has none of this
// process's in-memory state): Open here must fail on the LOCK file.
TEST_F(DBBasicTest, OpenWhileChildProcessHoldsItFailsWithIOError) {
  if (test::kThreadSanitizer) GTEST_SKIP() << "fork-based test: skipped under TSan";
  Open();
  ASSERT_OK(Put("a", "1"));
  Close();
  int to_parent[2];
  int to_child[2];
  ASSERT_EQ(pipe(to_parent), 0);
  ASSERT_EQ(pipe(to_child), 0);
  const int pid = test::SpawnSelf("DBBasicChildProcess.Run",
                                  {{kChildDbEnv, dbname_},
                                   {kChildModeEnv, "hold"},
                                   {kChildToParentEnv, std::to_string(to_parent[1])},
                                   {kChildFromParentEnv, std::to_string(to_child[0])}});
  ASSERT_GT(pid, 0);
  close(to_parent[1]);
  close(to_child[0]);
  char c = 0;
  ASSERT_EQ(read(to_parent[0], &c, 1), 1);
  ASSERT_EQ(c, 'o') << "child could not open the database";
  std::unique_ptr<DB> db;
  Status s = DB::Open(options_, dbname_, &db);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_TRUE(Contains(s.ToString(), "LOCK")) << s.ToString();
  EXPECT_EQ(db, nullptr);
  if (db != nullptr) db->Close().PermitUncheckedError();
  db.reset();
  ASSERT_EQ(write(to_child[1], "x", 1), 1);
  int wstatus = 0;
  ASSERT_EQ(waitpid(pid, &wstatus, 0), pid);
  close(to_parent[0]);
  close(to_child[1]);
  ASSERT_TRUE(WIFEXITED(wstatus));
  EXPECT_EQ(WEXITSTATUS(wstatus), 0);
  // The child is gone: the lock is free again.
  Open();
  EXPECT_EQ(Get("a"), "1");
}

TEST_F(DBBasicTest, PathIsARegularFileFails) {
  test::WriteFileOrDie(dbname_, "I am a file, not a directory");
  Status s = TryOpen();
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(db_, nullptr);
  // The file is not clobbered.
  EXPECT_EQ(test::ReadFileOrDie(dbname_), "I am a file, not a directory");
}

TEST_F(DBBasicTest, DirectoryWithGarbageButNoCurrentFails) {
  fs::create_directories(dbname_);
  test::WriteFileOrDie(dbname_ + "/garbage", "not a database");
  test::WriteFileOrDie(dbname_ + "/000007.log", "\x01\x02\x03 definitely not a WAL");
  options_.create_if_missing = false;
  Status s = TryOpen();
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(s.IsInvalidArgument() || s.IsNotFound() || s.IsPathNotFound()) << s.ToString();
  EXPECT_EQ(db_, nullptr);
}

TEST_F(DBBasicTest, CurrentNamingMissingManifestFailsNamingIt) {
  Open();
  ASSERT_OK(Put("a", "1"));
  Close();
  std::string current = test::ReadFileOrDie(dbname_ + "/CURRENT");
  ASSERT_FALSE(current.empty());
  const std::string manifest = current.substr(0, current.size() - 1);
  ASSERT_TRUE(fs::remove(dbname_ + "/" + manifest)) << manifest;
  options_.create_if_missing = false;
  Status s = TryOpen();
  EXPECT_TRUE(s.IsCorruption() || s.IsIOError()) << s.ToString();
  EXPECT_TRUE(Contains(s.ToString(), manifest)) << s.ToString();
  EXPECT_EQ(db_, nullptr);
}

TEST_F(DBBasicTest, CurrentNamingMissingManifestFailsEvenWithCreateIfMissing) {
  Open();
  Close();
  test::WriteFileOrDie(dbname_ + "/CURRENT", "MANIFEST-999999\n");
  Status s = TryOpen();
  EXPECT_TRUE(s.IsCorruption() || s.IsIOError()) << s.ToString();
  EXPECT_TRUE(Contains(s.ToString(), "MANIFEST-999999")) << s.ToString();
}

TEST_F(DBBasicTest, BadOptionsAreInvalidArgumentNamingTheOption) {
  struct Case {
    const char* name;
    void (*mutate)(Options*);
  };
  const Case cases[] = {
      {"write_buffer_size", [](Options* o) { o->write_buffer_size = 0; }},
      {"num_levels", [](Options* o) { o->num_levels = 100; }},
      {"target_file_size_multiplier", [](Options* o) { o->target_file_size_multiplier = 0; }},
      {"comparator", [](Options* o) { o->comparator = nullptr; }},
      {"env", [](Options* o) { o->env = nullptr; }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Options o = options_;
    c.mutate(&o);
    std::unique_ptr<DB> db;
    Status s = DB::Open(o, dbname_, &db);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_TRUE(Contains(s.ToString(), c.name)) << s.ToString();
    EXPECT_EQ(db, nullptr);
    if (db != nullptr) db->Close().PermitUncheckedError();
  }
  // A valid set of options still opens afterwards.
  Open();
}

TEST_F(DBBasicTest, InMemoryEnvLeavesNoFilesOnDisk) {
  mem_env_ = NewMemEnv();
  options_.env = mem_env_.get();
  Open();
  ASSERT_OK(Put("a", "1"));
  ASSERT_OK(Put("b", "2"));
  Reopen();
  EXPECT_EQ(Get("a"), "1");
  EXPECT_EQ(Get("b"), "2");
  Close();
  EXPECT_FALSE(fs::exists(dbname_));
}

// ---- basic operations ----------------------------------------------------

TEST_F(DBBasicTest, PutGetDeleteOverwrite) {
  Open();
  EXPECT_EQ(Get("foo"), "NOT_FOUND");
  ASSERT_OK(Put("foo", "v1"));
  EXPECT_EQ(Get("foo"), "v1");
  ASSERT_OK(Put("bar", "v2"));
  ASSERT_OK(Put("foo", "v3"));
  EXPECT_EQ(Get("foo"), "v3");
  EXPECT_EQ(Get("bar"), "v2");
  ASSERT_OK(Delete("foo"));
  EXPECT_EQ(Get("foo"), "NOT_FOUND");
  EXPECT_EQ(Get("bar"), "v2");
  // Deleting a missing key is fine.
  ASSERT_OK(Delete("never-written"));
  EXPECT_EQ(Get("never-written"), "NOT_FOUND");
  // Put after delete.
  ASSERT_OK(Put("foo", "v4"));
  EXPECT_EQ(Get("foo"), "v4");
  EXPECT_EQ(Contents(), "bar=v2 foo=v4");
  Reopen();
  EXPECT_EQ(Get("foo"), "v4");
  EXPECT_EQ(Get("bar"), "v2");
  EXPECT_EQ(Contents(), "bar=v2 foo=v4");
}

TEST_F(DBBasicTest, GetOfMissingKeyLeavesStatusNotFound) {
  Open();
  std::string value = "untouched";
  Status s = db_->Get(ReadOptions(), "missing", &value);
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();
}

TEST_F(DBBasicTest, EmptyKeyAndEmptyValue) {
  Open();
  ASSERT_OK(Put("", "empty-key"));
  ASSERT_OK(Put("k", ""));
  EXPECT_EQ(Get(""), "empty-key");
  std::string value = "garbage";
  ASSERT_OK(db_->Get(ReadOptions(), "k", &value));
  EXPECT_EQ(value, "");
  EXPECT_EQ(Contents(), "=empty-key k=");
  Reopen();
  EXPECT_EQ(Get(""), "empty-key");
  value = "garbage";
  ASSERT_OK(db_->Get(ReadOptions(), "k", &value));
  EXPECT_EQ(value, "");
  ASSERT_OK(Delete(""));
  EXPECT_EQ(Get(""), "NOT_FOUND");
  EXPECT_EQ(Contents(), "k=");
}

TEST_F(DBBasicTest, LargeValues) {
  Open();
  std::mt19937_64 rng(42);
  const std::string big = test::RandomBytes(&rng, 8 << 20);
  const std::string big2 = test::RandomBytes(&rng, (8 << 20) + 12345);
  ASSERT_OK(Put("big", big));
  ASSERT_OK(Put("small", "s"));
  ASSERT_OK(Put("big2", big2));
  std::string v;
  ASSERT_OK(db_->Get(ReadOptions(), "big", &v));
  EXPECT_TRUE(v == big) << "size " << v.size();
  Reopen();
  ASSERT_OK(db_->Get(ReadOptions(), "big", &v));
  EXPECT_TRUE(v == big) << "size " << v.size();
  ASSERT_OK(db_->Get(ReadOptions(), "big2", &v));
  EXPECT_TRUE(v == big2) << "size " << v.size();
  EXPECT_EQ(Get("small"), "s");
  // A large key too.
  const std::string big_key = test::RandomBytes(&rng, 100000);
  ASSERT_OK(Put(big_key, "bk"));
  Reopen();
  EXPECT_EQ(Get(big_key), "bk");
}

TEST_F(DBBasicTest, BinaryKeysSortBytewise) {
  Open();
  const std::vector<std::string> keys = {
      std::string("\0", 1),         std::string("\0\0", 2),    std::string("a\0b", 3),
      std::string("a\0", 2),        std::string("a"),          std::string("\xff"),
      std::string("\xff\xff", 2),   std::string("\x7f"),       std::string("\x80"),
      std::string("\xff\0\xff", 3), std::string("b\xff\0", 3), std::string("b"),
  };
  std::map<std::string, std::string> model;
  for (size_t i = 0; i < keys.size(); i++) {
    std::string value = "v" + std::to_string(i) + std::string("\0\xff", 2);
    ASSERT_OK(Put(keys[i], value));
    model[keys[i]] = value;
  }
  for (int pass = 0; pass < 2; pass++) {
    SCOPED_TRACE(pass == 0 ? "before reopen" : "after reopen");
    for (const auto& [k, v] : model) EXPECT_EQ(Get(k), v);
    std::unique_ptr<Iterator> it = db_->NewIterator(ReadOptions());
    auto mit = model.begin();
    for (it->SeekToFirst(); it->Valid(); it->Next(), ++mit) {
      ASSERT_NE(mit, model.end());
      EXPECT_EQ(it->key().ToString(), mit->first);
      EXPECT_EQ(it->value().ToString(), mit->second);
    }
    EXPECT_EQ(mit, model.end());
    ASSERT_OK(it->status());
    auto rit = model.rbegin();
    for (it->SeekToLast(); it->Valid(); it->Prev(), ++rit) {
      ASSERT_NE(rit, model.rend());
      EXPECT_EQ(it->key().ToString(), rit->first);
    }
    EXPECT_EQ(rit, model.rend());
    it.reset();
    if (pass == 0) Reopen();
  }
  // A key that is a prefix of others, with a zero byte: exact match only.
  ASSERT_OK(Delete(std::string("a\0", 2)));
  EXPECT_EQ(Get(std::string("a\0", 2)), "NOT_FOUND");
  EXPECT_NE(Get("a"), "NOT_FOUND");
  EXPECT_NE(Get(std::string("a\0b", 3)), "NOT_FOUND");
}

TEST_F(DBBasicTest, SingleDelete) {
  Open();
  ASSERT_OK(Put("a", "1"));
  ASSERT_OK(Put("b", "2"));
  ASSERT_OK(db_->SingleDelete(WriteOptions(), "a"));
  EXPECT_EQ(Get("a"), "NOT_FOUND");
  EXPECT_EQ(Get("b"), "2");
  EXPECT_EQ(Contents(), "b=2");
  ASSERT_OK(Put("a", "3"));
  EXPECT_EQ(Get("a"), "3");
  Reopen();
  EXPECT_EQ(Get("a"), "3");
  ASSERT_OK(db_->SingleDelete(WriteOptions(), "a"));
  Reopen();
  EXPECT_EQ(Get("a"), "NOT_FOUND");
  EXPECT_EQ(Contents(), "b=2");
}

TEST_F(DBBasicTest, WriteBatchAppliesAllUpdates) {
  Open();
  ASSERT_OK(Put("gone", "x"));
  ASSERT_OK(Put("single", "x"));
  WriteBatch batch;
  ASSERT_OK(batch.Put("a", "1"));
  ASSERT_OK(batch.Put("b", "2"));
  ASSERT_OK(batch.Delete("gone"));
  ASSERT_OK(batch.SingleDelete("single"));
  ASSERT_OK(batch.Put("a", "3"));  // a later record of the same batch wins
  ASSERT_OK(batch.Put("c", "4"));
  ASSERT_OK(batch.Delete("c"));
  ASSERT_OK(batch.PutLogData("a blob that is not applied"));
  const std::string data_before = batch.Data();
  ASSERT_OK(db_->Write(WriteOptions(), &batch));
  EXPECT_EQ(batch.Data(), data_before) << "Write modified the batch";
  EXPECT_EQ(Contents(), "a=3 b=2");
  Reopen();
  EXPECT_EQ(Contents(), "a=3 b=2");
  // The batch can be written again.
  ASSERT_OK(Put("c", "5"));
  ASSERT_OK(db_->Write(WriteOptions(), &batch));
  EXPECT_EQ(Contents(), "a=3 b=2");
}

TEST_F(DBBasicTest, EmptyWriteBatchIsOk) {
  Open();
  WriteBatch batch;
  ASSERT_OK(db_->Write(WriteOptions(), &batch));
  ASSERT_OK(Put("a", "1"));
  Reopen();
  EXPECT_EQ(Contents(), "a=1");
}

TEST_F(DBBasicTest, MergeWithoutOperatorAndBadRangesAreRejected) {
  Open();
  ASSERT_OK(Put("a", "1"));
  Status s = db_->Merge(WriteOptions(), "a", "2");
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  s = db_->DeleteRange(WriteOptions(), db_->DefaultColumnFamily(), "z", "a");
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  ASSERT_OK(db_->DeleteRange(WriteOptions(), db_->DefaultColumnFamily(), "a", "a"));
  EXPECT_EQ(Get("a"), "1");

  WriteBatch with_merge;
  ASSERT_OK(with_merge.Put("b", "1"));
  ASSERT_OK(with_merge.Merge("a", "2"));
  s = db_->Write(WriteOptions(), &with_merge);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();

  // A rejected batch is not applied at all, before or after a reopen; a
  // range deletion in a batch applies with the rest of it.
  EXPECT_EQ(Contents(), "a=1");
  WriteBatch with_range;
  ASSERT_OK(with_range.Put("c", "1"));
  ASSERT_OK(with_range.DeleteRange("a", "b"));
  ASSERT_OK(db_->Write(WriteOptions(), &with_range));
  EXPECT_EQ(Contents(), "c=1");
  Reopen();
  EXPECT_EQ(Contents(), "c=1");
  ASSERT_OK(Put("d", "4"));
  EXPECT_EQ(Contents(), "c=1 d=4");
}

namespace {

// Joins operands with '+' (no base: the operands alone).
class JoinOperator final : public MergeOperator {
 public:
  bool FullMergeV2(const MergeOperationInput& in, MergeOperationOutput* out) const override {
    std::string& r = out->new_value;
    if (in.existing_value != nullptr)
      r.assign(in.existing_value->data(), in.existing_value->size());
    for (const Slice& op : in.operand_list) {
      if (!r.empty()) r.push_back('+');
      r.append(op.data(), op.size());
    }
    return true;
  }
  const char* Name() const override { return "JoinOperator"; }
};

}  // namespace

TEST_F(DBBasicTest, MergeThroughMemtableFlushCompactionAndReopen) {
  options_.merge_operator = std::make_shared<JoinOperator>();
  Open();
  ASSERT_OK(Put("a", "1"));
  ASSERT_OK(db_->Merge(WriteOptions(), "a", "2"));
  ASSERT_OK(db_->Merge(WriteOptions(), "b", "x"));
  const Snapshot* snap = db_->GetSnapshot();
  ASSERT_OK(db_->Merge(WriteOptions(), "a", "3"));
  ASSERT_OK(db_->Merge(WriteOptions(), "b", "y"));
  ASSERT_OK(Delete("c"));
  ASSERT_OK(db_->Merge(WriteOptions(), "c", "z"));
  EXPECT_EQ(Get("a"), "1+2+3");
  EXPECT_EQ(Get("a", snap), "1+2");
  EXPECT_EQ(Contents(), "a=1+2+3 b=x+y c=z");
  EXPECT_EQ(ContentsBackward(), "c=z b=x+y a=1+2+3");
  ASSERT_OK(db_->Flush(FlushOptions()));
  ASSERT_OK(db_->Merge(WriteOptions(), "a", "4"));
  EXPECT_EQ(Get("a"), "1+2+3+4");
  EXPECT_EQ(Get("b", snap), "x");
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  EXPECT_EQ(Get("a"), "1+2+3+4");
  EXPECT_EQ(Get("a", snap), "1+2");
  EXPECT_EQ(Contents(), "a=1+2+3+4 b=x+y c=z");
  EXPECT_EQ(ContentsBackward(), "c=z b=x+y a=1+2+3+4");
  db_->ReleaseSnapshot(snap);
  Reopen();
  EXPECT_EQ(Contents(), "a=1+2+3+4 b=x+y c=z");
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  EXPECT_EQ(Contents(), "a=1+2+3+4 b=x+y c=z");
}

TEST_F(DBBasicTest, DeleteRangeThroughMemtableFlushCompactionAndReopen) {
  Open();
  for (char c = 'a'; c <= 'h'; c++) ASSERT_OK(Put(std::string(1, c), "v"));
  const Snapshot* snap = db_->GetSnapshot();
  ASSERT_OK(db_->DeleteRange(WriteOptions(), db_->DefaultColumnFamily(), "b", "e"));
  ASSERT_OK(Put("c", "new"));
  EXPECT_EQ(Contents(), "a=v c=new e=v f=v g=v h=v");
  EXPECT_EQ(ContentsBackward(), "h=v g=v f=v e=v c=new a=v");
  EXPECT_EQ(Get("b"), "NOT_FOUND");
  EXPECT_EQ(Get("b", snap), "v");
  ASSERT_OK(db_->Flush(FlushOptions()));
  EXPECT_EQ(Contents(), "a=v c=new e=v f=v g=v h=v");
  EXPECT_EQ(Get("d"), "NOT_FOUND");
  ASSERT_OK(db_->DeleteRange(WriteOptions(), db_->DefaultColumnFamily(), "f", "zz"));
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  EXPECT_EQ(Contents(), "a=v c=new e=v");
  EXPECT_EQ(ContentsBackward(), "e=v c=new a=v");
  EXPECT_EQ(Get("d", snap), "v");
  db_->ReleaseSnapshot(snap);
  Reopen();
  EXPECT_EQ(Contents(), "a=v c=new e=v");
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  EXPECT_EQ(Contents(), "a=v c=new e=v");
  EXPECT_EQ(Get("g"), "NOT_FOUND");
}

TEST_F(DBBasicTest, FlushAndCompactKeepDataAndFamiliesAreCreated) {
  Open();
  ASSERT_OK(Put("a", "1"));
  ASSERT_OK(db_->Flush(FlushOptions()));
  uint64_t files = 0;
  ASSERT_TRUE(db_->GetIntProperty("strata.num-files-at-level0", &files));
  EXPECT_EQ(files, 1u);
  ASSERT_OK(Put("b", "2"));
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  ASSERT_TRUE(db_->GetIntProperty("strata.num-files-at-level0", &files));
  EXPECT_EQ(files, 0u);
  EXPECT_EQ(Get("b"), "2");
  ColumnFamilyHandle* handle = nullptr;
  ASSERT_OK(db_->CreateColumnFamily(ColumnFamilyOptions(), "cf1", &handle));
  ASSERT_NE(handle, nullptr);
  EXPECT_EQ(handle->GetName(), "cf1");
  EXPECT_EQ(handle->GetID(), 1u);
  // The new family is empty; the default one keeps its data.
  std::string v;
  EXPECT_TRUE(db_->Get(ReadOptions(), handle, "a", &v).IsNotFound());
  ASSERT_OK(db_->DestroyColumnFamilyHandle(handle));
  ASSERT_NE(db_->DefaultColumnFamily(), nullptr);
  EXPECT_EQ(db_->DefaultColumnFamily()->GetName(), kDefaultColumnFamilyName);
  EXPECT_EQ(db_->DefaultColumnFamily()->GetID(), 0u);
  EXPECT_EQ(Get("a"), "1");
}

TEST_F(DBBasicTest, ExplicitDefaultColumnFamilyHandle) {
  Open();
  ColumnFamilyHandle* cf = db_->DefaultColumnFamily();
  ASSERT_OK(db_->Put(WriteOptions(), cf, "a", "1"));
  std::string v;
  ASSERT_OK(db_->Get(ReadOptions(), cf, "a", &v));
  EXPECT_EQ(v, "1");
  ASSERT_OK(db_->Delete(WriteOptions(), cf, "a"));
  EXPECT_TRUE(db_->Get(ReadOptions(), cf, "a", &v).IsNotFound());
  WriteBatch batch;
  ASSERT_OK(batch.Put(cf, "b", "2"));
  ASSERT_OK(db_->Write(WriteOptions(), &batch));
  EXPECT_EQ(Contents(), "b=2");
  std::unique_ptr<Iterator> it = db_->NewIterator(ReadOptions(), cf);
  it->SeekToFirst();
  EXPECT_EQ(At(it.get()), "b=2");
}

TEST_F(DBBasicTest, MultiGet) {
  Open();
  ASSERT_OK(Put("a", "1"));
  ASSERT_OK(Put("c", "3"));
  ASSERT_OK(Put("d", "4"));
  ASSERT_OK(Delete("d"));
  std::vector<Slice> keys = {"a", "b", "c", "d", "a"};
  std::vector<std::string> values;
  std::vector<Status> statuses = db_->MultiGet(ReadOptions(), keys, &values);
  ASSERT_EQ(statuses.size(), 5u);
  ASSERT_EQ(values.size(), 5u);
  EXPECT_TRUE(statuses[0].ok()) << statuses[0].ToString();
  EXPECT_EQ(values[0], "1");
  EXPECT_TRUE(statuses[1].IsNotFound()) << statuses[1].ToString();
  EXPECT_TRUE(statuses[2].ok()) << statuses[2].ToString();
  EXPECT_EQ(values[2], "3");
  EXPECT_TRUE(statuses[3].IsNotFound()) << statuses[3].ToString();
  EXPECT_TRUE(statuses[4].ok()) << statuses[4].ToString();
  EXPECT_EQ(values[4], "1");
}

TEST_F(DBBasicTest, SyncWritesAndSyncWAL) {
  Open();
  WriteOptions sync;
  sync.sync = true;
  ASSERT_OK(Put("a", "1", sync));
  ASSERT_OK(Put("b", "2"));
  ASSERT_OK(db_->SyncWAL());
  WriteBatch batch;
  ASSERT_OK(batch.Put("c", "3"));
  ASSERT_OK(batch.Delete("a"));
  ASSERT_OK(db_->Write(sync, &batch));
  ASSERT_OK(db_->Delete(sync, "b"));
  ASSERT_OK(Put("d", "4", sync));
  EXPECT_EQ(Contents(), "c=3 d=4");
  Reopen();
  EXPECT_EQ(Contents(), "c=3 d=4");
}

// With avoid_flush_during_shutdown, writes that skipped the WAL live only in
// the memtable and are gone after a reopen.
TEST_F(DBBasicTest, DisableWALWritesAreVisibleButLostOnReopen) {
  options_.avoid_flush_during_shutdown = true;
  Open();
  ASSERT_OK(Put("logged1", "1"));
  WriteOptions no_wal;
  no_wal.disableWAL = true;
  ASSERT_OK(Put("unlogged", "u", no_wal));
  ASSERT_OK(Put("logged1", "overwritten-unlogged", no_wal));
  ASSERT_OK(Put("logged2", "2"));
  EXPECT_EQ(Get("unlogged"), "u");
  EXPECT_EQ(Get("logged1"), "overwritten-unlogged");
  EXPECT_EQ(Contents(), "logged1=overwritten-unlogged logged2=2 unlogged=u");
  Reopen();
  EXPECT_EQ(Get("unlogged"), "NOT_FOUND");
  EXPECT_EQ(Get("logged1"), "1");
  EXPECT_EQ(Get("logged2"), "2");
  EXPECT_EQ(Contents(), "logged1=1 logged2=2");
}

// By default Close flushes the memtables when some write skipped the WAL
// (RocksDB's avoid_flush_during_shutdown=false); without such writes it
// flushes nothing.
TEST_F(DBBasicTest, CloseFlushesWritesMadeWithoutTheWal) {
  options_.avoid_flush_during_recovery = true;  // only Close makes tables here
  Open();
  ASSERT_OK(Put("logged", "1"));
  Close();
  Open();
  EXPECT_EQ(0, NumTableFilesAtLevel(0));  // nothing unpersisted: no flush at close
  WriteOptions no_wal;
  no_wal.disableWAL = true;
  ASSERT_OK(Put("unlogged", "u", no_wal));
  ASSERT_OK(Put("logged", "2"));
  Close();
  Open();
  EXPECT_EQ(1, NumTableFilesAtLevel(0));
  EXPECT_EQ(Get("unlogged"), "u");
  EXPECT_EQ(Get("logged"), "2");
}

// ---- iterators -------------------------------------------------------------

TEST_F(DBBasicTest, IteratorOnEmptyDatabase) {
  Open();
  std::unique_ptr<Iterator> it = db_->NewIterator(ReadOptions());
  EXPECT_FALSE(it->Valid());
  it->SeekToFirst();
  EXPECT_EQ(At(it.get()), "INVALID");
  it->SeekToLast();
  EXPECT_EQ(At(it.get()), "INVALID");
  it->Seek("a");
  EXPECT_EQ(At(it.get()), "INVALID");
  it->SeekForPrev("a");
  EXPECT_EQ(At(it.get()), "INVALID");
  ASSERT_OK(it->status());
}

TEST_F(DBBasicTest, IteratorOnlyDeletedKeys) {
  Open();
  for (char c = 'a'; c <= 'e'; c++) ASSERT_OK(Put(std::string(1, c), "v"));
  for (char c = 'a'; c <= 'e'; c++) ASSERT_OK(Delete(std::string(1, c)));
  std::unique_ptr<Iterator> it = db_->NewIterator(ReadOptions());
  it->SeekToFirst();
  EXPECT_EQ(At(it.get()), "INVALID");
  it->SeekToLast();
  EXPECT_EQ(At(it.get()), "INVALID");
  it->Seek("c");
  EXPECT_EQ(At(it.get()), "INVALID");
  it->SeekForPrev("c");
  EXPECT_EQ(At(it.get()), "INVALID");
  ASSERT_OK(it->status());
}

TEST_F(DBBasicTest, IteratorSeeksAndSteps) {
  Open();
  ASSERT_OK(Put("a", "va"));
  ASSERT_OK(Put("b", "vb"));
  ASSERT_OK(Put("c", "vc"));
  ASSERT_OK(Put("d", "vd"));
  ASSERT_OK(Put("e", "ve"));
  ASSERT_OK(Delete("c"));
  for (int pass = 0; pass < 2; pass++) {
    SCOPED_TRACE(pass == 0 ? "before reopen" : "after reopen");
    std::unique_ptr<Iterator> it = db_->NewIterator(ReadOptions());
    it->SeekToFirst();
    EXPECT_EQ(At(it.get()), "a=va");
    it->Next();
    EXPECT_EQ(At(it.get()), "b=vb");
    it->Next();
    EXPECT_EQ(At(it.get()), "d=vd");  // c is deleted
    it->Prev();
    EXPECT_EQ(At(it.get()), "b=vb");
    it->Prev();
    EXPECT_EQ(At(it.get()), "a=va");
    it->Prev();
    EXPECT_EQ(At(it.get()), "INVALID");

    it->SeekToLast();
    EXPECT_EQ(At(it.get()), "e=ve");
    it->Prev();
    EXPECT_EQ(At(it.get()), "d=vd");
    it->Prev();
    EXPECT_EQ(At(it.get()), "b=vb");
    it->Next();
    EXPECT_EQ(At(it.get()), "d=vd");
    it->Next();
    EXPECT_EQ(At(it.get()), "e=ve");
    it->Next();
    EXPECT_EQ(At(it.get()), "INVALID");

    it->Seek("c");
    EXPECT_EQ(At(it.get()), "d=vd");
    it->Seek("b");
    EXPECT_EQ(At(it.get()), "b=vb");
    it->Prev();
    EXPECT_EQ(At(it.get()), "a=va");
    it->Next();
    EXPECT_EQ(At(it.get()), "b=vb");
    it->Seek("");
    EXPECT_EQ(At(it.get()), "a=va");
    it->Seek("e");
    EXPECT_EQ(At(it.get()), "e=ve");
    it->Seek(std::string("e\0", 2));
    EXPECT_EQ(At(it.get()), "INVALID");
    it->Seek("z");
    EXPECT_EQ(At(it.get()), "INVALID");

    it->SeekForPrev("c");
    EXPECT_EQ(At(it.get()), "b=vb");
    it->Next();
    EXPECT_EQ(At(it.get()), "d=vd");
    it->SeekForPrev("d");
    EXPECT_EQ(At(it.get()), "d=vd");
    it->Prev();
    EXPECT_EQ(At(it.get()), "b=vb");
    it->SeekForPrev("z");
    EXPECT_EQ(At(it.get()), "e=ve");
    it->SeekForPrev("a");
    EXPECT_EQ(At(it.get()), "a=va");
    it->SeekForPrev("");
    EXPECT_EQ(At(it.get()), "INVALID");
    it->SeekForPrev("0");
    EXPECT_EQ(At(it.get()), "INVALID");
    ASSERT_OK(it->status());
    it.reset();
    if (pass == 0) Reopen();
  }
}

// Many versions of the same keys, deletions and re-insertions: each user key
// shows up once, with its newest value, in both directions.
TEST_F(DBBasicTest, IteratorCollapsesVersions) {
  Open();
  ASSERT_OK(Put("a", "a1"));
  for (int i = 1; i <= 5; i++) ASSERT_OK(Put("b", "b" + std::to_string(i)));
  ASSERT_OK(Put("c", "c1"));
  ASSERT_OK(Delete("c"));
  ASSERT_OK(Put("c", "c2"));
  ASSERT_OK(Put("d", "d1"));
  ASSERT_OK(Delete("d"));
  ASSERT_OK(Put("e", "e1"));
  ASSERT_OK(Delete("e"));
  ASSERT_OK(Delete("e"));
  ASSERT_OK(Put("f", "f1"));
  ASSERT_OK(Put("f", "f2"));
  ASSERT_OK(Delete("g"));
  for (int pass = 0; pass < 2; pass++) {
    SCOPED_TRACE(pass == 0 ? "before reopen" : "after reopen");
    EXPECT_EQ(Contents(), "a=a1 b=b5 c=c2 f=f2");
    EXPECT_EQ(ContentsBackward(), "f=f2 c=c2 b=b5 a=a1");
    std::unique_ptr<Iterator> it = db_->NewIterator(ReadOptions());
    // Zig-zag across the collapsed versions.
    it->Seek("b");
    EXPECT_EQ(At(it.get()), "b=b5");
    it->Next();
    EXPECT_EQ(At(it.get()), "c=c2");
    it->Prev();
    EXPECT_EQ(At(it.get()), "b=b5");
    it->Next();
    EXPECT_EQ(At(it.get()), "c=c2");
    it->Next();
    EXPECT_EQ(At(it.get()), "f=f2");
    it->Prev();
    EXPECT_EQ(At(it.get()), "c=c2");
    it->Prev();
    EXPECT_EQ(At(it.get()), "b=b5");
    it->Prev();
    EXPECT_EQ(At(it.get()), "a=a1");
    it->Next();
    EXPECT_EQ(At(it.get()), "b=b5");
    it->SeekForPrev("e");
    EXPECT_EQ(At(it.get()), "c=c2");
    it->Next();
    EXPECT_EQ(At(it.get()), "f=f2");
    it->Seek("d");
    EXPECT_EQ(At(it.get()), "f=f2");
    it->Prev();
    EXPECT_EQ(At(it.get()), "c=c2");
    ASSERT_OK(it->status());
    it.reset();
    if (pass == 0) Reopen();
  }
}

TEST_F(DBBasicTest, IteratorBounds) {
  Open();
  for (char c = 'a'; c <= 'j'; c++) {
    ASSERT_OK(Put(std::string(1, c), std::string("v") + c));
  }
  Slice lower("c");
  Slice upper("g");
  ReadOptions ro;
  ro.iterate_lower_bound = &lower;
  ro.iterate_upper_bound = &upper;
  EXPECT_EQ(Contents(ro), "c=vc d=vd e=ve f=vf");
  EXPECT_EQ(ContentsBackward(ro), "f=vf e=ve d=vd c=vc");
  std::unique_ptr<Iterator> it = db_->NewIterator(ro);
  it->SeekToFirst();
  EXPECT_EQ(At(it.get()), "c=vc");
  it->Prev();
  EXPECT_EQ(At(it.get()), "INVALID");
  it->SeekToLast();
  EXPECT_EQ(At(it.get()), "f=vf");
  it->Next();
  EXPECT_EQ(At(it.get()), "INVALID");
  it->Seek("a");
  EXPECT_EQ(At(it.get()), "c=vc");
  it->Seek("e");
  EXPECT_EQ(At(it.get()), "e=ve");
  it->Seek("g");
  EXPECT_EQ(At(it.get()), "INVALID");
  it->Seek("h");
  EXPECT_EQ(At(it.get()), "INVALID");
  it->SeekForPrev("z");
  EXPECT_EQ(At(it.get()), "f=vf");
  it->SeekForPrev("g");
  EXPECT_EQ(At(it.get()), "f=vf");
  it->SeekForPrev("d");
  EXPECT_EQ(At(it.get()), "d=vd");
  it->SeekForPrev("b");
  EXPECT_EQ(At(it.get()), "INVALID");
  ASSERT_OK(it->status());
  it.reset();

  // Only an upper bound.
  ReadOptions upper_only;
  upper_only.iterate_upper_bound = &upper;
  EXPECT_EQ(Contents(upper_only), "a=va b=vb c=vc d=vd e=ve f=vf");
  EXPECT_EQ(ContentsBackward(upper_only), "f=vf e=ve d=vd c=vc b=vb a=va");
  // Only a lower bound.
  ReadOptions lower_only;
  lower_only.iterate_lower_bound = &lower;
  EXPECT_EQ(Contents(lower_only), "c=vc d=vd e=ve f=vf g=vg h=vh i=vi j=vj");
  EXPECT_EQ(ContentsBackward(lower_only), "j=vj i=vi h=vh g=vg f=vf e=ve d=vd c=vc");
  // Bounds that are not keys, and deleted keys at the edges.
  ASSERT_OK(Delete("c"));
  ASSERT_OK(Delete("f"));
  Slice lower2("bb");
  Slice upper2("ff");
  ReadOptions ro2;
  ro2.iterate_lower_bound = &lower2;
  ro2.iterate_upper_bound = &upper2;
  EXPECT_EQ(Contents(ro2), "d=vd e=ve");
  EXPECT_EQ(ContentsBackward(ro2), "e=ve d=vd");
  // An empty range.
  Slice same("d");
  ReadOptions empty;
  empty.iterate_lower_bound = &same;
  empty.iterate_upper_bound = &same;
  EXPECT_EQ(Contents(empty), "");
  EXPECT_EQ(ContentsBackward(empty), "");
}

TEST_F(DBBasicTest, IteratorDoesNotSeeLaterWrites) {
  Open();
  ASSERT_OK(Put("a", "1"));
  ASSERT_OK(Put("b", "2"));
  ASSERT_OK(Put("d", "4"));
  std::unique_ptr<Iterator> it = db_->NewIterator(ReadOptions());
  ASSERT_OK(Put("a", "changed"));
  ASSERT_OK(Delete("b"));
  ASSERT_OK(Put("c", "new"));
  ASSERT_OK(Put("e", "new"));
  WriteBatch batch;
  ASSERT_OK(batch.Put("0", "new"));
  ASSERT_OK(batch.Delete("d"));
  ASSERT_OK(db_->Write(WriteOptions(), &batch));
  std::string seen;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    seen += it->key().ToString() + "=" + it->value().ToString() + " ";
  }
  EXPECT_EQ(seen, "a=1 b=2 d=4 ");
  seen.clear();
  for (it->SeekToLast(); it->Valid(); it->Prev()) {
    seen += it->key().ToString() + "=" + it->value().ToString() + " ";
  }
  EXPECT_EQ(seen, "d=4 b=2 a=1 ");
  it->Seek("c");
  EXPECT_EQ(At(it.get()), "d=4");
  ASSERT_OK(it->status());
  it.reset();
  EXPECT_EQ(Contents(), "0=new a=changed c=new e=new");
}

TEST_F(DBBasicTest, IteratorKeyAndValueStayValidUntilMoved) {
  Open();
  ASSERT_OK(Put("k1", std::string(1000, 'x')));
  ASSERT_OK(Put("k2", std::string(1000, 'y')));
  std::unique_ptr<Iterator> it = db_->NewIterator(ReadOptions());
  it->SeekToFirst();
  ASSERT_TRUE(it->Valid());
  Slice k = it->key();
  Slice v = it->value();
  // Writes do not move the iterator.
  for (int i = 0; i < 1000; i++) ASSERT_OK(Put("k1", std::to_string(i)));
  EXPECT_EQ(k.ToString(), "k1");
  EXPECT_EQ(v.ToString(), std::string(1000, 'x'));
}

TEST_F(DBBasicTest, ReverseComparatorOrdersKeysBackward) {
  options_.comparator = ReverseBytewiseComparator();
  Open();
  ASSERT_OK(Put("a", "1"));
  ASSERT_OK(Put("c", "3"));
  ASSERT_OK(Put("b", "2"));
  EXPECT_EQ(Contents(), "c=3 b=2 a=1");
  Reopen();
  EXPECT_EQ(Contents(), "c=3 b=2 a=1");
  std::unique_ptr<Iterator> it = db_->NewIterator(ReadOptions());
  it->Seek("bb");  // first key at or after "bb" in reverse order
  EXPECT_EQ(At(it.get()), "b=2");
  it.reset();
  Close();
  // The comparator is recorded: opening with a different one is refused.
  options_.comparator = BytewiseComparator();
  Status s = TryOpen();
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
}

// ---- snapshots -----------------------------------------------------------

TEST_F(DBBasicTest, SnapshotsSeeTheStateWhenTaken) {
  Open();
  ASSERT_OK(Put("a", "1"));
  ASSERT_OK(Put("b", "1"));
  const Snapshot* s1 = db_->GetSnapshot();
  ASSERT_NE(s1, nullptr);
  EXPECT_EQ(s1->GetSequenceNumber(), db_->GetLatestSequenceNumber());
  ASSERT_OK(Put("a", "2"));
  ASSERT_OK(Delete("b"));
  ASSERT_OK(Put("c", "2"));
  const Snapshot* s2 = db_->GetSnapshot();
  EXPECT_EQ(s2->GetSequenceNumber(), db_->GetLatestSequenceNumber());
  EXPECT_GT(s2->GetSequenceNumber(), s1->GetSequenceNumber());
  WriteBatch batch;
  ASSERT_OK(batch.Put("a", "3"));
  ASSERT_OK(batch.Put("b", "3"));
  ASSERT_OK(batch.Delete("c"));
  ASSERT_OK(db_->Write(WriteOptions(), &batch));

  EXPECT_EQ(Get("a", s1), "1");
  EXPECT_EQ(Get("b", s1), "1");
  EXPECT_EQ(Get("c", s1), "NOT_FOUND");
  EXPECT_EQ(Get("a", s2), "2");
  EXPECT_EQ(Get("b", s2), "NOT_FOUND");
  EXPECT_EQ(Get("c", s2), "2");
  EXPECT_EQ(Get("a"), "3");
  EXPECT_EQ(Get("b"), "3");
  EXPECT_EQ(Get("c"), "NOT_FOUND");

  ReadOptions r1;
  r1.snapshot = s1;
  ReadOptions r2;
  r2.snapshot = s2;
  EXPECT_EQ(Contents(r1), "a=1 b=1");
  EXPECT_EQ(ContentsBackward(r1), "b=1 a=1");
  EXPECT_EQ(Contents(r2), "a=2 c=2");
  EXPECT_EQ(ContentsBackward(r2), "c=2 a=2");
  EXPECT_EQ(Contents(), "a=3 b=3");

  // Bounds and snapshots together.
  Slice upper("b");
  r2.iterate_upper_bound = &upper;
  EXPECT_EQ(Contents(r2), "a=2");

  std::vector<Slice> keys = {"a", "b", "c"};
  std::vector<std::string> values;
  std::vector<Status> st = db_->MultiGet(r1, keys, &values);
  ASSERT_EQ(st.size(), 3u);
  EXPECT_TRUE(st[0].ok());
  EXPECT_EQ(values[0], "1");
  EXPECT_TRUE(st[1].ok());
  EXPECT_EQ(values[1], "1");
  EXPECT_TRUE(st[2].IsNotFound());

  db_->ReleaseSnapshot(s1);
  EXPECT_EQ(Get("a", s2), "2");
  db_->ReleaseSnapshot(s2);
  EXPECT_EQ(Get("a"), "3");
}

TEST_F(DBBasicTest, SnapshotOfEmptyDatabase) {
  Open();
  const Snapshot* s = db_->GetSnapshot();
  ASSERT_OK(Put("a", "1"));
  EXPECT_EQ(Get("a", s), "NOT_FOUND");
  ReadOptions ro;
  ro.snapshot = s;
  EXPECT_EQ(Contents(ro), "");
  db_->ReleaseSnapshot(s);
}

TEST_F(DBBasicTest, ManySnapshotsOfOneKey) {
  Open();
  std::vector<const Snapshot*> snaps;
  for (int i = 0; i < 50; i++) {
    ASSERT_OK(Put("k", "v" + std::to_string(i)));
    snaps.push_back(db_->GetSnapshot());
  }
  // Release in a scrambled order and check the rest.
  std::vector<int> order;
  for (int i = 0; i < 50; i++) order.push_back((i * 17) % 50);
  std::vector<bool> released(50, false);
  for (int n = 0; n < 50; n++) {
    for (int i = 0; i < 50; i += 7) {
      if (!released[i]) {
        EXPECT_EQ(Get("k", snaps[i]), "v" + std::to_string(i));
      }
    }
    db_->ReleaseSnapshot(snaps[order[n]]);
    released[order[n]] = true;
  }
}

// ---- properties and sequence numbers ------------------------------------

TEST_F(DBBasicTest, MemtableSizeProperty) {
  Open();
  for (int i = 0; i < 100; i++) {
    ASSERT_OK(Put("key" + std::to_string(i), std::string(100, 'v')));
  }
  for (const char* name : {"strata.cur-size-all-mem-tables", "rocksdb.cur-size-all-mem-tables"}) {
    SCOPED_TRACE(name);
    std::string value;
    ASSERT_TRUE(db_->GetProperty(name, &value));
    ASSERT_FALSE(value.empty());
    ASSERT_TRUE(std::all_of(value.begin(), value.end(), [](char c) {
      return c >= '0' && c <= '9';
    })) << value;
    EXPECT_GE(std::stoull(value), 100u * 100u) << "100 entries of 100-byte values";
    uint64_t int_value = 0;
    ASSERT_TRUE(db_->GetIntProperty(name, &int_value));
    EXPECT_GE(int_value, 100u * 100u);
  }
}

TEST_F(DBBasicTest, EstimateNumKeysProperty) {
  Open();
  for (int i = 0; i < 100; i++) ASSERT_OK(Put("key" + std::to_string(i), "v"));
  for (const char* name : {"strata.estimate-num-keys", "rocksdb.estimate-num-keys"}) {
    SCOPED_TRACE(name);
    std::string value;
    ASSERT_TRUE(db_->GetProperty(name, &value));
    ASSERT_FALSE(value.empty());
    ASSERT_TRUE(std::all_of(value.begin(), value.end(), [](char c) {
      return c >= '0' && c <= '9';
    })) << value;
    uint64_t n = std::stoull(value);
    EXPECT_GE(n, 1u);
    EXPECT_LE(n, 200u);
  }
}

TEST_F(DBBasicTest, UnknownPropertiesAreFalse) {
  Open();
  std::string value;
  EXPECT_FALSE(db_->GetProperty("strata.no-such-property", &value));
  EXPECT_FALSE(db_->GetProperty("rocksdb.no-such-property", &value));
  EXPECT_FALSE(db_->GetProperty("cur-size-all-mem-tables", &value));
  EXPECT_FALSE(db_->GetProperty("", &value));
  uint64_t n = 0;
  EXPECT_FALSE(db_->GetIntProperty("strata.no-such-property", &n));
}

TEST_F(DBBasicTest, SequenceNumbersAdvanceByBatchCount) {
  Open();
  const uint64_t s0 = db_->GetLatestSequenceNumber();
  ASSERT_OK(Put("a", "1"));
  EXPECT_EQ(db_->GetLatestSequenceNumber(), s0 + 1);
  ASSERT_OK(Delete("a"));
  EXPECT_EQ(db_->GetLatestSequenceNumber(), s0 + 2);
  ASSERT_OK(db_->SingleDelete(WriteOptions(), "zz"));
  EXPECT_EQ(db_->GetLatestSequenceNumber(), s0 + 3);
  WriteBatch batch;
  ASSERT_OK(batch.Put("a", "2"));
  ASSERT_OK(batch.Delete("b"));
  ASSERT_OK(batch.Put("c", "3"));
  ASSERT_OK(batch.PutLogData("not counted"));
  ASSERT_EQ(batch.Count(), 3u);
  ASSERT_OK(db_->Write(WriteOptions(), &batch));
  EXPECT_EQ(db_->GetLatestSequenceNumber(), s0 + 6);
  WriteOptions sync;
  sync.sync = true;
  ASSERT_OK(db_->Put(sync, "d", "4"));
  EXPECT_EQ(db_->GetLatestSequenceNumber(), s0 + 7);
  WriteOptions no_wal;
  no_wal.disableWAL = true;
  ASSERT_OK(db_->Put(no_wal, "e", "5"));
  EXPECT_EQ(db_->GetLatestSequenceNumber(), s0 + 8);
}

TEST_F(DBBasicTest, SequenceNumbersContinueAfterReopen) {
  Open();
  for (int i = 0; i < 10; i++) ASSERT_OK(Put("k" + std::to_string(i), "v"));
  WriteBatch batch;
  ASSERT_OK(batch.Put("x", "1"));
  ASSERT_OK(batch.Put("y", "1"));
  ASSERT_OK(db_->Write(WriteOptions(), &batch));
  const uint64_t before = db_->GetLatestSequenceNumber();
  EXPECT_GE(before, 12u);
  Reopen();
  EXPECT_EQ(db_->GetLatestSequenceNumber(), before);
  ASSERT_OK(Put("z", "1"));
  EXPECT_EQ(db_->GetLatestSequenceNumber(), before + 1);
  Reopen();
  EXPECT_EQ(db_->GetLatestSequenceNumber(), before + 1);
  // A reopen with no writes in between keeps it too.
  Reopen();
  EXPECT_EQ(db_->GetLatestSequenceNumber(), before + 1);
  // A snapshot taken after reopen hides a later overwrite.
  const Snapshot* snap = db_->GetSnapshot();
  EXPECT_EQ(snap->GetSequenceNumber(), before + 1);
  ASSERT_OK(Put("z", "2"));
  EXPECT_EQ(Get("z", snap), "1");
  EXPECT_EQ(Get("z"), "2");
  db_->ReleaseSnapshot(snap);
}

// ---- durability across reopen -------------------------------------------

TEST_F(DBBasicTest, EveryReopenStartsANewWALAndReplaysTheOldOnes) {
  std::map<std::string, std::string> model;
  uint64_t last_log = 0;
  for (int session = 0; session < 6; session++) {
    SCOPED_TRACE("session " + std::to_string(session));
    Open();
    std::vector<uint64_t> logs = LogNumbers(dbname_);
    ASSERT_FALSE(logs.empty());
    EXPECT_GT(logs.back(), last_log) << "the new session did not start a new WAL";
    last_log = logs.back();
    // Everything from the earlier sessions is back.
    std::string expected;
    for (const auto& [k, v] : model) {
      if (!expected.empty()) expected += " ";
      expected += k + "=" + v;
    }
    EXPECT_EQ(Contents(), expected);
    for (int i = 0; i < 20; i++) {
      const std::string k = "k" + std::to_string((session * 7 + i) % 30);
      const std::string v = "s" + std::to_string(session) + "_" + std::to_string(i);
      ASSERT_OK(Put(k, v));
      model[k] = v;
    }
    const std::string del = "k" + std::to_string((session * 11) % 30);
    ASSERT_OK(Delete(del));
    model.erase(del);
    Close();
  }
}

TEST_F(DBBasicTest, ManyKeysSurviveReopen) {
  Open();
  const int kN = 20000;
  for (int i = 0; i < kN; i++) {
    char key[32];
    snprintf(key, sizeof(key), "key%08d", i);
    ASSERT_OK(Put(key, "value" + std::to_string(i * 7)));
  }
  Reopen();
  std::unique_ptr<Iterator> it = db_->NewIterator(ReadOptions());
  int i = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), i++) {
    char key[32];
    snprintf(key, sizeof(key), "key%08d", i);
    ASSERT_EQ(it->key().ToString(), key);
    ASSERT_EQ(it->value().ToString(), "value" + std::to_string(i * 7));
  }
  ASSERT_OK(it->status());
  EXPECT_EQ(i, kN);
}

// ---- DestroyDB -------------------------------------------------------------

TEST_F(DBBasicTest, DestroyDBRemovesTheDatabaseFiles) {
  Open();
  ASSERT_OK(Put("a", "1"));
  Reopen();  // two WALs
  ASSERT_OK(Put("b", "2"));
  Close();
  test::WriteFileOrDie(dbname_ + "/user-file.txt", "not ours");
  ASSERT_OK(DestroyDB(dbname_, options_));
  std::vector<std::string> left = ListDir(dbname_);
  for (const auto& n : left) {
    EXPECT_TRUE(n == "user-file.txt") << "DestroyDB left " << n;
  }
  EXPECT_EQ(test::ReadFileOrDie(dbname_ + "/user-file.txt"), "not ours");
  options_.create_if_missing = false;
  Status s = TryOpen();
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  // A fresh database can be created in its place, empty.
  options_.create_if_missing = true;
  Open();
  EXPECT_EQ(Contents(), "");
}

TEST_F(DBBasicTest, DestroyDBOfAPlainDatabaseDirectoryRemovesIt) {
  Open();
  ASSERT_OK(Put("a", "1"));
  Close();
  ASSERT_OK(DestroyDB(dbname_, options_));
  EXPECT_TRUE(!fs::exists(dbname_) || ListDir(dbname_).empty()) << JoinNames(ListDir(dbname_));
}

TEST_F(DBBasicTest, DestroyDBOfAMissingPathIsOk) {
  ASSERT_OK(DestroyDB(dbname_ + "-never-created", options_));
}

// A path under a regular file cannot be a database: an IOError naming it,
// as RocksDB's (its lock file cannot be created there); the file stays.
TEST_F(DBBasicTest, DestroyDBUnderAFileIsAnIOError) {
  const std::string file = dbname_ + "-plain-file";
  test::WriteFileOrDie(file, "not a database");
  Status s = DestroyDB(file + "/db", options_);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(s.ToString().find("plain-file"), std::string::npos) << s.ToString();
  s = DestroyDB(file, options_);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_EQ(test::ReadFileOrDie(file), "not a database");
}

TEST_F(DBBasicTest, DestroyDBOfAnOpenDatabaseFails) {
  Open();
  ASSERT_OK(Put("a", "1"));
  Status s = DestroyDB(dbname_, options_);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_EQ(Get("a"), "1");
  Reopen();
  EXPECT_EQ(Get("a"), "1");
}

}  // namespace
}  // namespace strata
