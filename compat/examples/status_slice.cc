// status_slice: the texts and answers of Status, IOStatus, Slice, Cleanable,
// SharedCleanablePtr, an iterator's columns/GetProperty, a
// snapshot's timestamp and a wide column printed to a stream, through
// RocksDB's C++ interface. Built twice (against RocksDB and against
// libstrata-rocksdb) and compared byte for byte: the ToString of every
// factory form, subcode and severity must be RocksDB's.
// Usage: status_slice DB_DIR
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

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

namespace rdb = ROCKSDB_NAMESPACE;
using S = rdb::Status;
using IO = rdb::IOStatus;

static void Check(const rdb::Status& s, const char* what) {
  if (!s.ok()) {
    std::printf("FAILED %s: %s\n", what, s.ToString().c_str());
    std::exit(1);
  }
}

static void Show(const char* label, const rdb::Status& s) {
  std::printf("%-34s code=%d sub=%d sev=%d ok=%d [%s]\n", label, static_cast<int>(s.code()),
              static_cast<int>(s.subcode()), static_cast<int>(s.severity()), s.ok() ? 1 : 0,
              s.ToString().c_str());
}

static void Predicates(const char* label, const rdb::Status& s) {
  std::printf("%-34s nf=%d io=%d nospace=%d pnf=%d fenced=%d cfd=%d okow=%d mem=%d txn=%d\n", label,
              s.IsNotFound(), s.IsIOError(), s.IsNoSpace(), s.IsPathNotFound(), s.IsIOFenced(),
              s.IsColumnFamilyDropped(), s.IsOkOverwritten(), s.IsMemoryLimit(),
              s.IsTxnNotPrepared());
}

static void Statuses() {
  std::printf("-- Status factories\n");
  Show("OK()", S::OK());
  Show("OkOverwritten()", S::OkOverwritten());
  Show("NotFound()", S::NotFound());
  Show("NotFound(msg)", S::NotFound("key k"));
  Show("NotFound(msg,msg2)", S::NotFound("key k", "in cf"));
  Show("NotFound(kPathNotFound)", S::NotFound(S::kPathNotFound));
  Show("NotFound(kPathNotFound,msg)", S::NotFound(S::kPathNotFound, "dir/x"));
  Show("Corruption(kNone)", S::Corruption(S::kNone));
  Show("Corruption(msg,msg2)", S::Corruption("block", "checksum"));
  Show("NotSupported()", S::NotSupported());
  Show("NotSupported(msg)", S::NotSupported("feature"));
  Show("InvalidArgument()", S::InvalidArgument());
  Show("InvalidArgument(kTxnNotPrepared)", S::InvalidArgument(S::kTxnNotPrepared));
  Show("IOError()", S::IOError());
  Show("IOError(kStaleFile)", S::IOError(S::kStaleFile));
  Show("IOError(kIOFenced)", S::IOError(S::kIOFenced));
  Show("IOError(msg,msg2)", S::IOError("write", "disk"));
  Show("MergeInProgress()", S::MergeInProgress());
  Show("MergeInProgress(KMergeOperands...)",
       S::MergeInProgress(S::KMergeOperandsInsufficientCapacity));
  Show("Incomplete()", S::Incomplete());
  Show("Incomplete(kManualCompactionPaused)", S::Incomplete(S::kManualCompactionPaused));
  Show("ShutdownInProgress()", S::ShutdownInProgress());
  Show("ShutdownInProgress(msg)", S::ShutdownInProgress("closing"));
  Show("Aborted()", S::Aborted());
  Show("Aborted(kMemoryLimit)", S::Aborted(S::kMemoryLimit));
  Show("Busy(kDeadlock)", S::Busy(S::kDeadlock));
  Show("Busy(msg)", S::Busy("locked"));
  Show("TimedOut(kMutexTimeout)", S::TimedOut(S::kMutexTimeout));
  Show("TimedOut(kLockTimeout)", S::TimedOut(S::kLockTimeout));
  Show("Expired()", S::Expired());
  Show("Expired(msg)", S::Expired("ttl"));
  Show("TryAgain()", S::TryAgain());
  Show("TryAgain(msg,msg2)", S::TryAgain("later", "now"));
  Show("CompactionTooLarge()", S::CompactionTooLarge());
  Show("ColumnFamilyDropped()", S::ColumnFamilyDropped());
  Show("ColumnFamilyDropped(msg)", S::ColumnFamilyDropped("cf1"));
  Show("NoSpace()", S::NoSpace());
  Show("NoSpace(msg)", S::NoSpace("wal"));
  Show("NoSpace(empty)", S::NoSpace(""));
  Show("MemoryLimit()", S::MemoryLimit());
  Show("MemoryLimit(msg,msg2)", S::MemoryLimit("a", "b"));
  Show("SpaceLimit()", S::SpaceLimit());
  Show("SpaceLimit(msg)", S::SpaceLimit("sst"));
  Show("PathNotFound()", S::PathNotFound());
  Show("PathNotFound(msg,msg2)", S::PathNotFound("open", "/nowhere"));
  Show("TxnNotPrepared()", S::TxnNotPrepared());
  Show("TxnNotPrepared(msg)", S::TxnNotPrepared("txn1"));

  std::printf("-- severities\n");
  Show("(kIOError,kNoSpace,kHardError,msg)",
       S(S::kIOError, S::kNoSpace, S::kHardError, "disk full"));
  Show("(kCorruption,kNone,kFatalError,msg)", S(S::kCorruption, S::kNone, S::kFatalError, "bad"));
  Show("(kIOError,kNone,kSoftError,empty)", S(S::kIOError, S::kNone, S::kSoftError, ""));
  Show("(kBusy,kLockLimit,kNoError,empty)", S(S::kBusy, S::kLockLimit, S::kNoError, ""));
  const S hard(S::IOError("flush"), S::kUnrecoverableError);
  Show("(IOError(flush),kUnrecoverable)", hard);
  S copy = hard;
  Show("copy of it", copy);
  S moved = std::move(copy);
  Show("moved from the copy", moved);
  std::printf("kMaxSeverity=%d kMaxCode=%d kMaxSubCode=%d\n", static_cast<int>(S::kMaxSeverity),
              static_cast<int>(S::kMaxCode), static_cast<int>(S::kMaxSubCode));

  std::printf("-- predicates\n");
  Predicates("NotFound(kPathNotFound)", S::NotFound(S::kPathNotFound));
  Predicates("PathNotFound()", S::PathNotFound());
  Predicates("IOError(kIOFenced)", S::IOError(S::kIOFenced));
  Predicates("NoSpace()", S::NoSpace());
  Predicates("ColumnFamilyDropped()", S::ColumnFamilyDropped());
  Predicates("OkOverwritten()", S::OkOverwritten());
  Predicates("MemoryLimit()", S::MemoryLimit());
  Predicates("TxnNotPrepared()", S::TxnNotPrepared());
  S checked = S::OK();
  checked.MustCheck();
  checked.PermitUncheckedError();
  std::printf("MustCheck then ok(): %d\n", checked.ok());
}

static void IOStatuses() {
  std::printf("-- IOStatus\n");
  Show("IO::OK()", IO::OK());
  Show("IO::NotSupported()", IO::NotSupported());
  Show("IO::NotSupported(msg)", IO::NotSupported("mmap"));
  Show("IO::NotFound(kPathNotFound)", IO::NotFound(IO::kPathNotFound));
  Show("IO::NotFound(msg,msg2)", IO::NotFound("file", "f1"));
  Show("IO::Corruption()", IO::Corruption());
  Show("IO::Corruption(msg)", IO::Corruption("crc"));
  Show("IO::InvalidArgument()", IO::InvalidArgument());
  Show("IO::InvalidArgument(msg,msg2)", IO::InvalidArgument("offset", "42"));
  Show("IO::IOError()", IO::IOError());
  Show("IO::IOError(kStaleFile)", IO::IOError(IO::kStaleFile));
  Show("IO::IOError(msg)", IO::IOError("read"));
  Show("IO::Busy()", IO::Busy());
  Show("IO::Busy(msg)", IO::Busy("lock"));
  Show("IO::TimedOut()", IO::TimedOut());
  Show("IO::TimedOut(msg)", IO::TimedOut("slow"));
  Show("IO::NoSpace()", IO::NoSpace());
  Show("IO::NoSpace(msg,msg2)", IO::NoSpace("append", "wal"));
  Show("IO::PathNotFound()", IO::PathNotFound());
  Show("IO::PathNotFound(msg)", IO::PathNotFound("/x"));
  Show("IO::IOFenced()", IO::IOFenced());
  Show("IO::IOFenced(msg,msg2)", IO::IOFenced("writer", "2"));
  Show("IO::Aborted()", IO::Aborted());
  Show("IO::Aborted(msg)", IO::Aborted("stop"));

  IO io = IO::IOError("sync");
  std::printf("fresh: retryable=%d data_loss=%d scope=%d\n", io.GetRetryable(), io.GetDataLoss(),
              static_cast<int>(io.GetScope()));
  io.SetRetryable(true);
  io.SetDataLoss(true);
  io.SetScope(IO::kIOErrorScopeRange);
  std::printf("set: retryable=%d data_loss=%d scope=%d\n", io.GetRetryable(), io.GetDataLoss(),
              static_cast<int>(io.GetScope()));
  IO io_copy(io);
  std::printf("copy: retryable=%d data_loss=%d scope=%d [%s]\n", io_copy.GetRetryable(),
              io_copy.GetDataLoss(), static_cast<int>(io_copy.GetScope()),
              io_copy.ToString().c_str());
  IO via = rdb::status_to_io_status(S::NoSpace("from status"));
  Show("status_to_io_status(NoSpace)", via);
  std::printf("IOError()==IOError(msg): %d  IOError()==NoSpace(): %d  IOError()!=Busy(): %d\n",
              IO::IOError() == IO::IOError("x"), IO::IOError() == IO::NoSpace(),
              IO::IOError() != IO::Busy());
  std::printf("scopes: %d %d %d %d\n", static_cast<int>(IO::kIOErrorScopeFileSystem),
              static_cast<int>(IO::kIOErrorScopeFile), static_cast<int>(IO::kIOErrorScopeRange),
              static_cast<int>(IO::kIOErrorScopeMax));
  const S as_status = IO::IOFenced("f");
  Show("IOFenced as Status", as_status);
}

static void Slices() {
  std::printf("-- Slice\n");
  const rdb::Slice s("prefix-body-suffix");
  std::printf("ends_with suffix=%d body=%d empty=%d longer=%d\n", s.ends_with("suffix"),
              s.ends_with("body"), s.ends_with(""), rdb::Slice("ab").ends_with("xab"));
  std::printf("difference_offset: %zu %zu %zu %zu\n", s.difference_offset("prefix-bx"),
              s.difference_offset("prefix-body-suffix"), s.difference_offset(""),
              rdb::Slice("abc").difference_offset("abcdef"));
  std::printf("public fields: size_=%zu data_[0]=%c\n", s.size_, s.data_[0]);
  rdb::Slice moved = s;
  moved.data_ += 7;
  moved.size_ = 4;
  std::printf("after setting fields: %s\n", moved.ToString().c_str());

  const char* hexes[] = {"4869", "48656c6C6f", "abc", "zz", "4g", "", "00FF7f"};
  for (const char* h : hexes) {
    std::string out = "junk";
    const bool ok = rdb::Slice(h).DecodeHex(&out);
    std::printf("DecodeHex(\"%s\") = %d, %s\n", h, ok, rdb::Slice(out).ToString(true).c_str());
  }
  std::printf("DecodeHex(null) = %d\n", rdb::Slice("00").DecodeHex(nullptr));

  rdb::Slice parts[3] = {rdb::Slice("one"), rdb::Slice(""), rdb::Slice("-two")};
  std::string buf;
  rdb::Slice joined(rdb::SliceParts(parts, 3), &buf);
  std::printf("SliceParts: [%s] buf=[%s] same=%d\n", joined.ToString().c_str(), buf.c_str(),
              joined.data() == buf.data());
  std::string buf2 = "pre:";
  rdb::Slice joined2(rdb::SliceParts(parts, 1), &buf2);
  std::printf("SliceParts on a non-empty buffer: [%s]\n", joined2.ToString().c_str());
  rdb::Slice none(rdb::SliceParts(), &buf2);
  std::printf("no parts: [%s]\n", none.ToString().c_str());
  std::printf("== %d %d != %d\n", rdb::Slice("a") == rdb::Slice("a"),
              rdb::operator==(rdb::Slice("a"), rdb::Slice("b")),
              rdb::operator!=(rdb::Slice("a"), rdb::Slice("b")));
}

static int order_counter = 0;
static void Record(void* arg1, void* arg2) {
  std::printf("  cleanup %s (#%d)\n", static_cast<const char*>(arg1), ++order_counter);
  (void)arg2;
}

static void Cleanables() {
  std::printf("-- Cleanable\n");
  {
    rdb::Cleanable c;
    std::printf("empty HasCleanups=%d\n", c.HasCleanups());
    c.RegisterCleanup(&Record, const_cast<char*>("first"), nullptr);
    std::printf("one HasCleanups=%d\n", c.HasCleanups());
    c.Reset();
    std::printf("after Reset HasCleanups=%d\n", c.HasCleanups());
  }
  std::printf("-- SharedCleanablePtr\n");
  rdb::SharedCleanablePtr p;
  std::printf("get() before Allocate: %s\n", p.get() == nullptr ? "null" : "set");
  p.Allocate();
  p->RegisterCleanup(&Record, const_cast<char*>("shared"), nullptr);
  std::printf("HasCleanups through ptr: %d\n", (*p).HasCleanups());
  {
    rdb::Cleanable holder1;
    rdb::Cleanable holder2;
    p.RegisterCopyWith(&holder1);
    rdb::SharedCleanablePtr q = p;
    p.Reset();
    std::printf("p reset, q holds: %s\n", q.get() != nullptr ? "yes" : "no");
    q.MoveAsCleanupTo(&holder2);
    std::printf("q moved: %s\n", q.get() == nullptr ? "null" : "set");
    std::printf("holder1 reset\n");
    holder1.Reset();
    std::printf("holder2 reset (last reference)\n");
    holder2.Reset();
  }
  rdb::SharedCleanablePtr r;
  r.Allocate();
  r->RegisterCleanup(&Record, const_cast<char*>("reallocated"), nullptr);
  rdb::SharedCleanablePtr s2(std::move(r));
  std::printf("moved-from: %s\n", r.get() == nullptr ? "null" : "set");
  s2.Allocate();  // drops the old one
  std::printf("end of Cleanables\n");
}

static void Iterators(const std::string& dir) {
  std::printf("-- Iterator and Snapshot\n");
  rdb::Options options;
  options.create_if_missing = true;
  rdb::DB* db = nullptr;
  Check(rdb::DB::Open(options, dir, &db), "open");
  Check(db->Put(rdb::WriteOptions(), "a", "apple"), "put a");
  Check(db->Put(rdb::WriteOptions(), "b", "banana"), "put b");
  const rdb::Snapshot* snap = db->GetSnapshot();
  std::printf("snapshot timestamp=%llu unix_time>0=%d\n",
              static_cast<unsigned long long>(snap->GetTimestamp()), snap->GetUnixTime() > 0);
  db->ReleaseSnapshot(snap);

  rdb::Iterator* it = db->NewIterator(rdb::ReadOptions());
  std::string prop;
  rdb::Status s = it->GetProperty("rocksdb.iterator.is-key-pinned", &prop);
  std::printf("unpositioned is-key-pinned: %s [%s]\n", s.ToString().c_str(), prop.c_str());
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    const rdb::WideColumns& cols = it->columns();
    // (timestamp() is not called: RocksDB's asserts when timestamps are
    // off, and the reference library is a debug build.)
    std::printf("%s: %zu column(s), name=[%s] value=[%s]\n", it->key().ToString().c_str(),
                cols.size(), cols[0].name().ToString().c_str(), cols[0].value().ToString().c_str());
    prop.clear();
    s = it->GetProperty("rocksdb.iterator.is-key-pinned", &prop);
    std::printf("  is-key-pinned: %s [%s]\n", s.ToString().c_str(), prop.c_str());
    prop.clear();
    s = it->GetProperty("rocksdb.iterator.internal-key", &prop);
    std::printf("  internal-key: %s [%s]\n", s.ToString().c_str(), prop.c_str());
  }
  prop.clear();
  s = it->GetProperty("rocksdb.iterator.super-version-number", &prop);
  std::printf("super-version-number: %s, a number: %d\n", s.ToString().c_str(),
              !prop.empty() && prop.find_first_not_of("0123456789") == std::string::npos);
  s = it->GetProperty("rocksdb.iterator.no-such-thing", &prop);
  std::printf("unknown property: %s\n", s.ToString().c_str());
  s = it->GetProperty("rocksdb.iterator.is-key-pinned", nullptr);
  std::printf("null prop: %s\n", s.ToString().c_str());
  delete it;

  rdb::Iterator* empty = rdb::NewEmptyIterator();
  prop.clear();
  s = empty->GetProperty("rocksdb.iterator.is-key-pinned", &prop);
  std::printf("empty iterator is-key-pinned: %s [%s]\n", s.ToString().c_str(), prop.c_str());
  s = empty->GetProperty("rocksdb.iterator.internal-key", &prop);
  std::printf("empty iterator internal-key: %s\n", s.ToString().c_str());
  delete empty;
  delete db;
}

static void Columns() {
  std::printf("-- wide columns and version\n");
  std::ostringstream os;
  os << rdb::WideColumn("name", "value");
  os << ' ' << std::hex << rdb::WideColumn("n", "\x01\xff") << std::dec;
  std::printf("%s\n", os.str().c_str());
  std::printf("version %s\n", rdb::GetRocksVersionAsString().c_str());
  std::printf("macros %d.%d.%d\n", __ROCKSDB_MAJOR__, __ROCKSDB_MINOR__, __ROCKSDB_PATCH__);
  const auto& props = rdb::GetRocksBuildProperties();
  std::printf("build properties is a map: %d\n", props.size() < 1000);
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s DB_DIR\n", argv[0]);
    return 2;
  }
  Statuses();
  IOStatuses();
  Slices();
  Cleanables();
  Iterators(argv[1]);
  Columns();
  return 0;
}
