// SyncPoint: named places in the library where a test can make one thread
// wait for another, or run code of its own, so that a race is forced into
// the order the test wants instead of being hoped for with sleeps.
//
// The library marks a place with
//   TEST_SYNC_POINT("Class::Function:Where");
//   TEST_SYNC_POINT_CALLBACK("Class::Function:Where", pointer);
// Both expand to nothing unless the build defines STRATA_SYNC_POINTS (the
// CMake option of that name: on when the tests are built, off in release
// builds). The registry below exists only in such builds; only tests use
// it directly. A point's name says where it is (Class::Function:Where);
// docs/design/testing.md lists the library's points, what is held at each
// and what the pointer is.
//
// A test drives the process-wide registry:
//   SyncPoint* sp = SyncPoint::GetInstance();
//   sp->LoadDependency({{"A", "B"}});  // a thread at B waits until A is passed
//   sp->SetCallBack("C", [&](void* arg) { ... });
//   sp->EnableProcessing();
//   ... the code under test ...
//   sp->DisableProcessing();
//   sp->ClearAllCallBacks();
//
// Rules:
//  1. While processing is disabled (the initial state) a point does
//     nothing: no waiting, no callback, no trace.
//  2. A thread reaching point P first waits until every predecessor of P
//     (every A of a loaded pair {A, P}) is in the trace, or until
//     processing is disabled (which releases every waiting thread; it then
//     leaves P at once, without the callback and without tracing P).
//  3. Then P's callback, if one is set, runs on that thread with the
//     point's pointer (nullptr for TEST_SYNC_POINT), without the registry's
//     lock held: a callback may block, or reach other points.
//  4. After the callback returns, P joins the trace (so a successor of P
//     runs after P's callback has finished). The trace is the set of
//     points passed since the last ClearTrace or LoadDependency.
//  5. LoadDependency replaces every loaded pair and clears the trace.
//  6. ClearCallBack and ClearAllCallBacks return only when no callback is
//     running, so state the callbacks captured may be destroyed after
//     them. REQUIRES: not called from inside a callback (it would wait for
//     itself).
//  7. A library point is often passed with a mutex held (the list says
//     which): a test must not make such a point wait for a predecessor
//     that needs the same mutex.
//
// Thread-safety: thread-safe.
// Cost: with processing disabled, one atomic load per point passed.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "util/mutex.h"
#include "util/thread_annotations.h"

namespace strata {

// {predecessor, successor}: a thread at successor waits until predecessor
// has been passed.
struct SyncPointPair {
  std::string predecessor;
  std::string successor;
};

class SyncPoint {
 public:
  // The process-wide registry; never destroyed (background threads may
  // pass points while the process exits).
  static SyncPoint* GetInstance();

  SyncPoint(const SyncPoint&) = delete;
  SyncPoint& operator=(const SyncPoint&) = delete;

  // Replaces the loaded pairs with `pairs` and clears the trace. Threads
  // waiting at a point re-check against the new pairs.
  void LoadDependency(const std::vector<SyncPointPair>& pairs) EXCLUDES(mu_);

  // Sets (replaces) the callback of `point`; `callback` is copied.
  void SetCallBack(const std::string& point, std::function<void(void*)> callback) EXCLUDES(mu_);
  // Removes the callback of `point` (rule 6).
  void ClearCallBack(const std::string& point) EXCLUDES(mu_);
  // Removes every callback (rule 6).
  void ClearAllCallBacks() EXCLUDES(mu_);

  void EnableProcessing() EXCLUDES(mu_);
  // Also releases every thread waiting at a point (rule 2).
  void DisableProcessing() EXCLUDES(mu_);

  // Forgets which points were passed.
  void ClearTrace() EXCLUDES(mu_);

  // What the macros call: rules 1-4. `point` must be a NUL-terminated name;
  // `arg` is handed to the callback as is.
  void Process(const char* point, void* arg = nullptr) EXCLUDES(mu_);

 private:
  SyncPoint() = default;
  ~SyncPoint() = default;

  // True if every predecessor of `point` is in the trace.
  bool PredecessorsPassed(const std::string& point) const REQUIRES(mu_);

  // Immutable after construction: mu_ and cv_.
  Mutex mu_;
  CondVar cv_{&mu_};  // signalled when the trace, the pairs or running_callbacks_ change

  // Guarded by mu_.
  std::map<std::string, std::vector<std::string>> predecessors_ GUARDED_BY(mu_);
  std::map<std::string, std::function<void(void*)>> callbacks_ GUARDED_BY(mu_);
  std::set<std::string> trace_ GUARDED_BY(mu_);
  int running_callbacks_ GUARDED_BY(mu_) = 0;

  // Atomics. Written under mu_ (so a waiter re-checks it after a signal);
  // read without it on the fast path, acquire pairing with the release
  // store so a thread that sees processing enabled also sees the pairs and
  // callbacks loaded before EnableProcessing.
  std::atomic<bool> enabled_{false};
};

}  // namespace strata

#ifdef STRATA_SYNC_POINTS
#define TEST_SYNC_POINT(name) ::strata::SyncPoint::GetInstance()->Process(name)
#define TEST_SYNC_POINT_CALLBACK(name, arg) \
  ::strata::SyncPoint::GetInstance()->Process(name, static_cast<void*>(arg))
#else
#define TEST_SYNC_POINT(name)
#define TEST_SYNC_POINT_CALLBACK(name, arg)
#endif
