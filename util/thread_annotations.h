// Clang thread-safety analysis attributes (no-ops on other compilers).
//
// GUARDED_BY(mu) on a field, REQUIRES(mu)/EXCLUDES(mu) on functions, checked
// by clang's -Wthread-safety. See docs/design/locking.md for the lock order.
// Thread-safety: not applicable (macros only).
#pragma once

#if defined(__clang__)
#define STRATA_TSA(x) __attribute__((x))
#else
#define STRATA_TSA(x)
#endif

#define CAPABILITY(x) STRATA_TSA(capability(x))
#define SCOPED_CAPABILITY STRATA_TSA(scoped_lockable)
#define GUARDED_BY(x) STRATA_TSA(guarded_by(x))
#define PT_GUARDED_BY(x) STRATA_TSA(pt_guarded_by(x))
#define ACQUIRED_AFTER(...) STRATA_TSA(acquired_after(__VA_ARGS__))
#define ACQUIRED_BEFORE(...) STRATA_TSA(acquired_before(__VA_ARGS__))
#define REQUIRES(...) STRATA_TSA(requires_capability(__VA_ARGS__))
#define REQUIRES_SHARED(...) STRATA_TSA(requires_shared_capability(__VA_ARGS__))
#define ACQUIRE(...) STRATA_TSA(acquire_capability(__VA_ARGS__))
#define RELEASE(...) STRATA_TSA(release_capability(__VA_ARGS__))
#define TRY_ACQUIRE(...) STRATA_TSA(try_acquire_capability(__VA_ARGS__))
#define EXCLUDES(...) STRATA_TSA(locks_excluded(__VA_ARGS__))
#define ASSERT_CAPABILITY(x) STRATA_TSA(assert_capability(x))
#define RETURN_CAPABILITY(x) STRATA_TSA(lock_returned(x))
#define NO_THREAD_SAFETY_ANALYSIS STRATA_TSA(no_thread_safety_analysis)
