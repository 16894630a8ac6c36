// compat_status_test: RocksDB's value types over Strata's -- IOStatus (its
// factories, attributes surviving a trip through Status, status_to_io_status,
// ==), SharedCleanablePtr's reference counting, the DB iterator's columns(),
// timestamp() and GetProperty() (super-version-number moving with a flush
// and Refresh), snapshots' GetUnixTime/GetTimestamp, WideColumn's <<,
// GetRocksBuildProperties.
#include <unistd.h>

#include <cstdint>
#include <ctime>
#include <limits>
#include <memory>
#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "rocksdb/cleanable.h"
#include "rocksdb/db.h"
#include "rocksdb/io_status.h"
#include "rocksdb/iterator.h"
#include "rocksdb/options.h"
#include "rocksdb/slice.h"
#include "rocksdb/snapshot.h"
#include "rocksdb/status.h"
#include "rocksdb/version.h"
#include "rocksdb/wide_columns.h"

namespace rocksdb {
namespace {

std::string TestPath(const std::string& name) {
  return ::testing::TempDir() + "/compat_status_" + std::to_string(getpid()) + "_" + name;
}

TEST(CompatStatusTest, IOStatusFactoriesAndAttributes) {
  IOStatus s = IOStatus::IOFenced("writer", "2");
  EXPECT_TRUE(s.IsIOFenced());
  EXPECT_EQ("IO error: IO fenced off: writer: 2", s.ToString());
  EXPECT_EQ("IO error: IO fenced off", IOStatus::IOFenced().ToString());
  EXPECT_EQ("IO error: No such file or directory", IOStatus::PathNotFound().ToString());
  EXPECT_EQ("IO error: No space left on device: a", IOStatus::NoSpace("a").ToString());
  EXPECT_EQ("NotFound: No such file or directory",
            IOStatus::NotFound(IOStatus::kPathNotFound).ToString());
  EXPECT_EQ("Operation aborted: ", IOStatus::Aborted().ToString());
  EXPECT_EQ("Resource busy: Deadlock", IOStatus::Busy(IOStatus::kDeadlock).ToString());
  EXPECT_TRUE(IOStatus::OK().ok());

  EXPECT_FALSE(s.GetRetryable());
  EXPECT_FALSE(s.GetDataLoss());
  EXPECT_EQ(IOStatus::kIOErrorScopeFileSystem, s.GetScope());
  s.SetRetryable(true);
  s.SetDataLoss(true);
  s.SetScope(IOStatus::kIOErrorScopeFile);
  // Through a Status and back: the attributes are Status's own.
  Status plain = s;
  IOStatus back = status_to_io_status(std::move(plain));
  EXPECT_TRUE(back.GetRetryable());
  EXPECT_TRUE(back.GetDataLoss());
  EXPECT_EQ(IOStatus::kIOErrorScopeFile, back.GetScope());
  EXPECT_EQ(s.ToString(), back.ToString());
  IOStatus assigned;
  assigned = back;
  EXPECT_TRUE(assigned.GetRetryable());

  // == compares codes (RocksDB's IOStatus).
  EXPECT_TRUE(IOStatus::IOError() == IOStatus::NoSpace());
  EXPECT_TRUE(IOStatus::IOError() != IOStatus::Busy());
  EXPECT_TRUE(IOStatus::IOError("x") == Status::IOError("y"));
  EXPECT_TRUE(Status::IOError("y") == IOStatus::IOError("x"));
}

int g_cleanups = 0;
void CountCleanup(void*, void*) { ++g_cleanups; }

TEST(CompatStatusTest, SharedCleanablePtrRunsCleanupsWithTheLastReference) {
  g_cleanups = 0;
  SharedCleanablePtr p;
  EXPECT_EQ(nullptr, p.get());
  p.RegisterCopyWith(nullptr);  // nothing held: nothing to do
  p.Allocate();
  p->RegisterCleanup(&CountCleanup, nullptr, nullptr);
  EXPECT_TRUE(p.get()->HasCleanups());
  {
    Cleanable holder;
    p.RegisterCopyWith(&holder);
    SharedCleanablePtr q(p);
    SharedCleanablePtr r;
    r = q;
    p.Reset();
    q.Reset();
    EXPECT_EQ(0, g_cleanups);
    Cleanable holder2;
    r.MoveAsCleanupTo(&holder2);
    EXPECT_EQ(nullptr, r.get());
    holder.Reset();
    EXPECT_EQ(0, g_cleanups);
  }  // holder2 drops the last reference
  EXPECT_EQ(1, g_cleanups);
  SharedCleanablePtr a;
  a.Allocate();
  (*a).RegisterCleanup(&CountCleanup, nullptr, nullptr);
  SharedCleanablePtr b(std::move(a));
  EXPECT_EQ(nullptr, a.get());
  b.Allocate();  // drops the first: its cleanup runs
  EXPECT_EQ(2, g_cleanups);
}

TEST(CompatStatusTest, IteratorColumnsPropertiesAndSnapshots) {
  const std::string path = TestPath("iter");
  Options options;
  options.create_if_missing = true;
  ASSERT_TRUE(DestroyDB(path, options).ok());
  DB* raw = nullptr;
  ASSERT_TRUE(DB::Open(options, path, &raw).ok());
  std::unique_ptr<DB> db(raw);
  ASSERT_TRUE(db->Put(WriteOptions(), "k1", "v1").ok());
  ASSERT_TRUE(db->Put(WriteOptions(), "k2", "v2").ok());

  const int64_t before = static_cast<int64_t>(std::time(nullptr));
  const Snapshot* snap = db->GetSnapshot();
  const int64_t after = static_cast<int64_t>(std::time(nullptr));
  EXPECT_GE(snap->GetUnixTime(), before);
  EXPECT_LE(snap->GetUnixTime(), after);
  EXPECT_EQ(std::numeric_limits<uint64_t>::max(), snap->GetTimestamp());
  db->ReleaseSnapshot(snap);

  std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions()));
  std::string prop;
  ASSERT_TRUE(it->GetProperty("rocksdb.iterator.super-version-number", &prop).ok());
  const uint64_t sv1 = std::stoull(prop);
  EXPECT_GT(sv1, 0u);
  ASSERT_TRUE(it->GetProperty("rocksdb.iterator.is-key-pinned", &prop).ok());
  EXPECT_EQ("Iterator is not valid.", prop);
  ASSERT_TRUE(it->GetProperty("rocksdb.iterator.internal-key", &prop).ok());
  EXPECT_EQ("", prop);
  it->Seek("k2");
  ASSERT_TRUE(it->Valid());
  ASSERT_EQ(1u, it->columns().size());
  EXPECT_EQ(kDefaultWideColumnName, it->columns()[0].name());
  EXPECT_EQ("v2", it->columns()[0].value().ToString());
  EXPECT_TRUE(it->timestamp().empty());
  ASSERT_TRUE(it->GetProperty("rocksdb.iterator.is-key-pinned", &prop).ok());
  EXPECT_EQ("0", prop);
  ASSERT_TRUE(it->GetProperty("rocksdb.iterator.internal-key", &prop).ok());
  EXPECT_EQ("k2", prop);
  Status s = it->GetProperty("rocksdb.iterator.nope", &prop);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_EQ("Invalid argument: Unidentified property.", s.ToString());
  EXPECT_EQ("Invalid argument: prop is nullptr",
            it->GetProperty("rocksdb.iterator.internal-key", nullptr).ToString());

  // A flush installs a new SuperVersion; the iterator keeps its own until
  // Refresh, which takes the newest.
  ASSERT_TRUE(db->Flush(FlushOptions()).ok());
  ASSERT_TRUE(it->GetProperty("rocksdb.iterator.super-version-number", &prop).ok());
  EXPECT_EQ(sv1, std::stoull(prop));
  ASSERT_TRUE(it->Refresh().ok());
  ASSERT_TRUE(it->GetProperty("rocksdb.iterator.super-version-number", &prop).ok());
  EXPECT_GT(std::stoull(prop), sv1);
  std::string db_prop;
  ASSERT_TRUE(db->GetProperty("rocksdb.current-super-version-number", &db_prop));
  EXPECT_EQ(db_prop, prop);
  it.reset();

  // Iterators other than the DB's: the base answers.
  std::unique_ptr<Iterator> empty(NewEmptyIterator());
  ASSERT_TRUE(empty->GetProperty("rocksdb.iterator.is-key-pinned", &prop).ok());
  EXPECT_EQ("0", prop);
  EXPECT_TRUE(
      empty->GetProperty("rocksdb.iterator.super-version-number", &prop).IsInvalidArgument());
  EXPECT_TRUE(empty->columns().empty());
  db.reset();
  ASSERT_TRUE(DestroyDB(path, options).ok());
}

TEST(CompatStatusTest, WideColumnPrintsAndBuildProperties) {
  std::ostringstream os;
  os << WideColumn("n", "v") << ' ' << std::hex << WideColumn("a", "\x01");
  EXPECT_EQ("n:v 61:01", os.str());
  EXPECT_TRUE(GetRocksBuildProperties().empty());
  EXPECT_EQ("7.8.3", GetRocksVersionAsString());
  EXPECT_EQ(7, __ROCKSDB_MAJOR__);
}

}  // namespace
}  // namespace rocksdb
