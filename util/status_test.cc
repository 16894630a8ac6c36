// Status: the size and allocation promises (OK and message-less statuses
// carry no heap state), every code's and subcode's ToString text (RocksDB's),
// the factory overloads, severities, copies, and the predicates.

#include "strata/status.h"

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>
#include <utility>

#include "gtest/gtest.h"

// Counts the program's heap allocations (this test binary only).
static std::atomic<long> g_allocations{0};
void* operator new(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
  // Replaced too: under ASan the array form does not go through operator new.
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace strata {
namespace {

TEST(StatusTest, StaysTwoWordsAndMessagelessStatusesAllocateNothing) {
  EXPECT_EQ(sizeof(Status), 2 * sizeof(void*));
  const long before = g_allocations.load();
  {
    Status ok = Status::OK();
    Status copy = ok;
    Status moved = std::move(copy);
    Status no_space = Status::NoSpace();
    Status not_found = Status::NotFound();
    Status paused = Status::Incomplete(Status::kManualCompactionPaused);
    Status sev(Status::IOError(Status::kIOFenced), Status::kHardError);
    Status empty_msg = Status::NotFound("");  // no subcode: nothing to keep
    no_space = not_found;
    EXPECT_TRUE(ok.ok() && moved.ok());
    EXPECT_TRUE(no_space.IsNotFound() && paused.IsManualCompactionPaused());
    EXPECT_TRUE(sev.IsIOFenced() && empty_msg.IsNotFound());
  }
  EXPECT_EQ(before, g_allocations.load());
  const Status ok = Status::OK();
  EXPECT_STREQ("", ok.getState());
  EXPECT_EQ(Status::kNoError, ok.severity());
  EXPECT_EQ("OK", ok.ToString());
  // A message is one allocation.
  const long before_msg = g_allocations.load();
  {
    Status s = Status::IOError("disk");
    EXPECT_STREQ("disk", s.getState());
  }
  EXPECT_EQ(before_msg + 1, g_allocations.load());
}

TEST(StatusTest, CodeTexts) {
  EXPECT_EQ("NotFound: ", Status::NotFound().ToString());
  EXPECT_EQ("NotFound: k", Status::NotFound("k").ToString());
  EXPECT_EQ("Corruption: a: b", Status::Corruption("a", "b").ToString());
  EXPECT_EQ("Not implemented: ", Status::NotSupported().ToString());
  EXPECT_EQ("Invalid argument: ", Status::InvalidArgument().ToString());
  EXPECT_EQ("IO error: ", Status::IOError().ToString());
  EXPECT_EQ("Merge in progress: ", Status::MergeInProgress().ToString());
  EXPECT_EQ("Result incomplete: ", Status::Incomplete().ToString());
  EXPECT_EQ("Shutdown in progress: ", Status::ShutdownInProgress().ToString());
  EXPECT_EQ("Operation timed out: ", Status::TimedOut().ToString());
  EXPECT_EQ("Operation aborted: ", Status::Aborted().ToString());
  EXPECT_EQ("Resource busy: ", Status::Busy().ToString());
  EXPECT_EQ("Operation expired: ", Status::Expired().ToString());
  EXPECT_EQ("Operation failed. Try again.: ", Status::TryAgain().ToString());
  EXPECT_EQ("Compaction too large: ", Status::CompactionTooLarge().ToString());
  EXPECT_EQ("Column family dropped: ", Status::ColumnFamilyDropped().ToString());
  EXPECT_EQ("Column family dropped: cf: 2", Status::ColumnFamilyDropped("cf", "2").ToString());
  EXPECT_EQ(Status::kColumnFamilyDropped, Status::ColumnFamilyDropped().code());
  EXPECT_TRUE(Status::ColumnFamilyDropped("x").IsColumnFamilyDropped());
}

TEST(StatusTest, SubCodeTexts) {
  const std::pair<Status::SubCode, const char*> cases[] = {
      {Status::kMutexTimeout, "Timeout Acquiring Mutex"},
      {Status::kLockTimeout, "Timeout waiting to lock key"},
      {Status::kLockLimit, "Failed to acquire lock due to max_num_locks limit"},
      {Status::kNoSpace, "No space left on device"},
      {Status::kDeadlock, "Deadlock"},
      {Status::kStaleFile, "Stale file handle"},
      {Status::kMemoryLimit, "Memory limit reached"},
      {Status::kSpaceLimit, "Space limit reached"},
      {Status::kPathNotFound, "No such file or directory"},
      {Status::KMergeOperandsInsufficientCapacity, "Insufficient capacity for merge operands"},
      {Status::kManualCompactionPaused, "Manual compaction paused"},
      {Status::kTxnNotPrepared, "Txn not prepared"},
      {Status::kIOFenced, "IO fenced off"},
  };
  for (const auto& [sub, text] : cases) {
    const Status s = Status::IOError(sub);
    EXPECT_EQ(sub, s.subcode());
    EXPECT_EQ(std::string("IO error: ") + text, s.ToString());
    // With a message: after ": ", even an empty one (RocksDB's form).
    EXPECT_EQ(std::string("NotFound: ") + text + ": m", Status::NotFound(sub, "m").ToString());
    EXPECT_EQ(std::string("NotFound: ") + text + ": ", Status::NotFound(sub, "").ToString());
  }
  // kOverwritten goes with OK, printed "OK".
  EXPECT_EQ("OK", Status::OkOverwritten().ToString());
  EXPECT_TRUE(Status::OkOverwritten().ok());
  EXPECT_TRUE(Status::OkOverwritten().IsOkOverwritten());
  EXPECT_FALSE(Status::OK().IsOkOverwritten());
}

TEST(StatusTest, ZeroArgumentAndMessageForms) {
  EXPECT_EQ("IO error: No space left on device", Status::NoSpace().ToString());
  EXPECT_EQ("IO error: No space left on device: ", Status::NoSpace("").ToString());
  EXPECT_EQ("IO error: No space left on device: a: b", Status::NoSpace("a", "b").ToString());
  EXPECT_EQ("Operation aborted: Memory limit reached", Status::MemoryLimit().ToString());
  EXPECT_EQ("IO error: Space limit reached", Status::SpaceLimit().ToString());
  EXPECT_EQ("IO error: No such file or directory", Status::PathNotFound().ToString());
  EXPECT_EQ("IO error: No such file or directory: open: /x",
            Status::PathNotFound("open", "/x").ToString());
  EXPECT_EQ("Invalid argument: Txn not prepared", Status::TxnNotPrepared().ToString());
  EXPECT_EQ("Invalid argument: Txn not prepared: t", Status::TxnNotPrepared("t").ToString());
  // Without a subcode an empty message prints as none.
  EXPECT_EQ("NotFound: ", Status::NotFound("").ToString());
  // Strata's subcode-with-message forms.
  EXPECT_EQ("Operation timed out: Timeout waiting to lock key: k",
            Status::TimedOut(Status::kLockTimeout, "k").ToString());
  EXPECT_EQ("Resource busy: Deadlock", Status::Busy(Status::kDeadlock).ToString());
}

TEST(StatusTest, Predicates) {
  EXPECT_TRUE(Status::PathNotFound().IsPathNotFound());
  EXPECT_TRUE(Status::NotFound(Status::kPathNotFound).IsPathNotFound());
  EXPECT_TRUE(Status::NotFound(Status::kPathNotFound).IsNotFound());
  EXPECT_FALSE(Status::Corruption(Status::kPathNotFound).IsPathNotFound());
  EXPECT_TRUE(Status::IOError(Status::kIOFenced).IsIOFenced());
  EXPECT_FALSE(Status::Busy(Status::kIOFenced).IsIOFenced());
  EXPECT_TRUE(Status::MemoryLimit().IsMemoryLimit());
  EXPECT_TRUE(Status::TxnNotPrepared().IsTxnNotPrepared());
  EXPECT_TRUE(Status::Incomplete(Status::kManualCompactionPaused).IsManualCompactionPaused());
}

TEST(StatusTest, Severity) {
  const Status s(Status::kIOError, Status::kNoSpace, Status::kHardError, "disk");
  EXPECT_EQ(Status::kHardError, s.severity());
  EXPECT_EQ("IO error: No space left on device: disk", s.ToString());
  const Status t(Status::kCorruption, Status::kNone, Status::kFatalError, "");
  EXPECT_EQ("Corruption: ", t.ToString());
  EXPECT_EQ(Status::kFatalError, t.severity());
  // An OK code keeps no message.
  const Status o(Status::kOk, Status::kNone, Status::kSoftError, "ignored");
  EXPECT_TRUE(o.ok());
  EXPECT_STREQ("", o.getState());
  // Copies, assignments and moves carry it; (Status, Severity) replaces it.
  const Status u(Status::IOError("flush"), Status::kUnrecoverableError);
  EXPECT_EQ(Status::kUnrecoverableError, u.severity());
  EXPECT_EQ("IO error: flush", u.ToString());
  Status copy(u);
  EXPECT_EQ(Status::kUnrecoverableError, copy.severity());
  Status assigned;
  assigned = u;
  EXPECT_EQ(Status::kUnrecoverableError, assigned.severity());
  Status moved(std::move(copy));
  EXPECT_EQ(Status::kUnrecoverableError, moved.severity());
  EXPECT_EQ("IO error: flush", moved.ToString());
  const Status lowered(u, Status::kSoftError);
  EXPECT_EQ(Status::kSoftError, lowered.severity());
  EXPECT_EQ(Status::kNoError, Status::IOError("x").severity());
  moved.MustCheck();  // no checked-status mode: nothing to observe but no harm
  EXPECT_FALSE(moved.ok());
}

}  // namespace
}  // namespace strata
