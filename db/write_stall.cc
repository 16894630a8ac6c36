// Write stalls (see the header).
#include "db/write_stall.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "db/column_family.h"
#include "db/version_set.h"

namespace strata {

namespace {

const char* CauseName(WriteStallCause cause) {
  switch (cause) {
    case WriteStallCause::kMemtableLimit:
      return "memtable limit";
    case WriteStallCause::kL0FileCountLimit:
      return "level-0 file count limit";
    case WriteStallCause::kPendingCompactionBytes:
      return "pending compaction bytes";
    case WriteStallCause::kNone:
      break;
  }
  return "none";
}

// The memtables waiting for a flush when a writer is stopped for them: the
// immutable ones and the full mutable one (RocksDB would have switched it
// already and counts it among the immutable ones).
int WaitingMemtables(const ColumnFamilyData* cfd) {
  return static_cast<int>(cfd->imm().size()) + 1;
}

}  // namespace

WriteStallState ComputeWriteStall(const ColumnFamilyData* cfd, bool memtable_stop) {
  const Options& o = cfd->options();
  const Version* v = cfd->current();
  WriteStallState st;
  if (memtable_stop) {
    st.condition = WriteStallCondition::kStopped;
    st.cause = WriteStallCause::kMemtableLimit;
    return st;
  }
  if (o.disable_auto_compactions || v == nullptr) return st;
  const int l0 = v->l0_delay_trigger_count();
  const uint64_t pending = v->EstimatedPendingCompactionBytes();
  if (l0 >= o.level0_stop_writes_trigger) {
    st = {WriteStallCondition::kStopped, WriteStallCause::kL0FileCountLimit};
  } else if (o.hard_pending_compaction_bytes_limit > 0 &&
             pending >= o.hard_pending_compaction_bytes_limit) {
    st = {WriteStallCondition::kStopped, WriteStallCause::kPendingCompactionBytes};
  } else if (l0 >= o.level0_slowdown_writes_trigger) {
    st = {WriteStallCondition::kDelayed, WriteStallCause::kL0FileCountLimit};
  } else if (o.soft_pending_compaction_bytes_limit > 0 &&
             pending >= o.soft_pending_compaction_bytes_limit) {
    st = {WriteStallCondition::kDelayed, WriteStallCause::kPendingCompactionBytes};
  }
  return st;
}

std::string WriteStallChangeMessage(const ColumnFamilyData* cfd, const WriteStallState& prev,
                                    const WriteStallState& cur, uint64_t rate) {
  const Version* v = cfd->current();
  const int l0 = v != nullptr ? v->l0_delay_trigger_count() : 0;
  const uint64_t pending = v != nullptr ? v->EstimatedPendingCompactionBytes() : 0;
  const char* name = cfd->name().c_str();
  char buf[512];
  if (cur.condition == WriteStallCondition::kNormal) {
    snprintf(buf, sizeof(buf),
             "[%s] Resuming writes (were %s: %s): %d level-0 files, %d immutable memtables, "
             "estimated pending compaction bytes %" PRIu64,
             name, prev.condition == WriteStallCondition::kStopped ? "stopped" : "delayed",
             CauseName(prev.cause), l0, static_cast<int>(cfd->imm().size()), pending);
    return buf;
  }
  const bool stop = cur.condition == WriteStallCondition::kStopped;
  switch (cur.cause) {
    case WriteStallCause::kMemtableLimit:
      snprintf(buf, sizeof(buf),
               "[%s] Stopping writes because we have %d immutable memtables (waiting for flush), "
               "max_write_buffer_number is set to %d",
               name, WaitingMemtables(cfd), cfd->options().max_write_buffer_number);
      break;
    case WriteStallCause::kL0FileCountLimit:
      if (stop) {
        snprintf(buf, sizeof(buf), "[%s] Stopping writes because we have %d level-0 files", name,
                 l0);
      } else {
        snprintf(buf, sizeof(buf),
                 "[%s] Stalling writes because we have %d level-0 files rate %" PRIu64, name, l0,
                 rate);
      }
      break;
    case WriteStallCause::kPendingCompactionBytes:
      if (stop) {
        snprintf(buf, sizeof(buf),
                 "[%s] Stopping writes because of estimated pending compaction bytes %" PRIu64,
                 name, pending);
      } else {
        snprintf(buf, sizeof(buf),
                 "[%s] Stalling writes because of estimated pending compaction bytes %" PRIu64
                 " rate %" PRIu64,
                 name, pending, rate);
      }
      break;
    case WriteStallCause::kNone:
      buf[0] = '\0';
      break;
  }
  return buf;
}

}  // namespace strata
