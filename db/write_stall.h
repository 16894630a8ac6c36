// Write stalls: a column family's write-stall condition (normal, delayed,
// stopped) and its cause, computed from the family's Version and memtables
// with the rules DBImpl::MaybeStallWrite enforces, and the WARN lines the
// LOG gets when it changes (RocksDB's wording for the start of a stall).
//
//   stopped  a writer waits for this family's flush (max_write_buffer_number
//            memtables are full), or level 0 holds level0_stop_writes_trigger
//            files, or the estimated pending compaction bytes reach
//            hard_pending_compaction_bytes_limit;
//   delayed  level 0 holds level0_slowdown_writes_trigger files, or the
//            pending bytes reach soft_pending_compaction_bytes_limit;
//   normal   otherwise.
// Level 0 and pending bytes count only with automatic compactions on (as in
// RocksDB: nothing would clear them otherwise).
//
// Thread-safety: functions of their arguments; ComputeWriteStall REQUIRES
// the DB mutex (it reads the family's current Version and memtables).
#pragma once

#include <cstdint>
#include <string>

#include "strata/listener.h"

namespace strata {

class ColumnFamilyData;

enum class WriteStallCause {
  kNone,
  kMemtableLimit,
  kL0FileCountLimit,
  kPendingCompactionBytes,
};

struct WriteStallState {
  WriteStallCondition condition = WriteStallCondition::kNormal;
  WriteStallCause cause = WriteStallCause::kNone;
  bool operator==(const WriteStallState& o) const {
    return condition == o.condition && cause == o.cause;
  }
  bool operator!=(const WriteStallState& o) const { return !(*this == o); }
};

// memtable_stop: a writer is waiting for this family's memtables to flush.
WriteStallState ComputeWriteStall(const ColumnFamilyData* cfd, bool memtable_stop);

// The WARN line (without the level tag) for a change from prev to cur:
//   "[cf] Stopping writes because we have 36 level-0 files"
//   "[cf] Stalling writes because we have 20 level-0 files rate 16777216"
//   "[cf] Stopping writes because we have 2 immutable memtables (waiting for
//    flush), max_write_buffer_number is set to 2"
//   "[cf] Stopping writes because of estimated pending compaction bytes N"
//   "[cf] Stalling writes because of estimated pending compaction bytes N
//    rate R"
// and, when a stall ends, "[cf] Resuming writes (were stopped|delayed:
// cause): L level-0 files, M immutable memtables, estimated pending
// compaction bytes N". rate: the delayed write rate, bytes/s.
// REQUIRES: the DB mutex.
std::string WriteStallChangeMessage(const ColumnFamilyData* cfd, const WriteStallState& prev,
                                    const WriteStallState& cur, uint64_t rate);

}  // namespace strata
