// The control block db_stress and db_crashtest share through a small file
// in the expected-state directory (mapped MAP_SHARED by both processes).
//
// It carries db_stress's running counters (so the driver can report the
// operations of a run it killed) and the "recovery lock": while db_stress
// simulates a power loss it rewrites the DB files and then the expected
// state, and the two disagree until both are done, so a SIGKILL must not
// land in that window. Protocol: db_stress moves `recovery` from kIdle to
// kRecovering (compare-and-swap) before the window and back after it; the
// driver moves it from kIdle to kKilling before it sends SIGKILL (retrying
// while it is kRecovering); db_stress, finding kKilling, just waits to be
// killed. The next db_stress run resets it to kIdle.
//
// Thread-safety: every field is a lock-free std::atomic, so threads of both
// processes may use the block concurrently.
// Invariants: magic == kControlMagic once initialized; the layout never
// changes without changing kControlMagic.
#pragma once

#include <atomic>
#include <cstdint>

namespace strata {
namespace stress {

constexpr const char* kControlFileName = "CONTROL";
constexpr uint64_t kControlMagic = 0x5354524553534332ull;  // "STRESSC2"

enum RecoveryState : uint32_t {
  kIdle = 0,
  kRecovering = 1,
  kKilling = 2,
};

struct ControlBlock {
  std::atomic<uint64_t> magic;
  std::atomic<uint32_t> recovery;  // RecoveryState
  std::atomic<uint32_t> pad;
  std::atomic<uint64_t> ops_done;       // operations of the current run
  std::atomic<uint64_t> keys_verified;  // keys checked by the current run
  std::atomic<uint64_t> failures;       // verification failures of the run
  std::atomic<uint64_t> power_losses;   // simulated power losses of the run
};

static_assert(std::atomic<uint64_t>::is_always_lock_free, "needs lock-free 64-bit atomics");
static_assert(std::atomic<uint32_t>::is_always_lock_free, "needs lock-free 32-bit atomics");

}  // namespace stress
}  // namespace strata
