// Thread priorities: lowering the calling thread's CPU priority the way
// Env's pools do (Env::LowerThreadPoolCPUPriority), for code that runs its
// own threads (BackupEngine's copy threads).
// Thread-safety: thread-safe (acts on the calling thread only).
#pragma once

#include "strata/env.h"

namespace strata {

// Sets the calling thread's CPU scheduling to cpu (Linux: kIdle is
// SCHED_IDLE, kLow nice 19, kNormal nice 0, kHigh nice -20; elsewhere
// nothing). Best effort: a change the process may not make (raising
// priority without privileges) leaves the thread as it was.
void SetCurrentThreadCpuPriority(CpuPriority cpu);

}  // namespace strata
