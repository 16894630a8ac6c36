// PerfLevel: how much the calling thread's PerfContext and IOStatsContext
// collect (strata/perf_context.h, strata/iostats_context.h). The values and
// their meaning are RocksDB's.
//
// The level is per thread; a new thread starts at kDisable, where counting
// sites cost one thread-local load and a branch.
// Thread-safety: thread-safe (each thread sets and reads its own level).
#pragma once

#include "strata/export.h"

namespace strata {

// Never renumber: the values are RocksDB's.
enum PerfLevel : unsigned char {
  kUninitialized = 0,                       // unknown setting
  kDisable = 1,                             // count nothing
  kEnableCount = 2,                         // counters only, no clock reads
  kEnableTimeExceptForMutex = 3,            // counters and wall-clock timers
  kEnableTimeAndCPUTimeExceptForMutex = 4,  // the same plus CPU timers
  kEnableTime = 5,                          // everything, DB mutex wait time included
  kOutOfBounds = 6                          // marker; never a valid setting
};

// Sets the calling thread's level. kUninitialized and kOutOfBounds (or any
// larger value) are ignored, leaving the level unchanged.
STRATA_EXPORT void SetPerfLevel(PerfLevel level);
// The calling thread's level.
STRATA_EXPORT PerfLevel GetPerfLevel();

}  // namespace strata
