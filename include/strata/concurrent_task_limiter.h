// ConcurrentTaskLimiter: a counter of running background tasks with a cap,
// shared by column families (ColumnFamilyOptions::compaction_thread_limiter),
// RocksDB 7.8.3's interface. Before an automatic compaction of a family
// with a limiter is picked, the scheduler takes a slot; a limiter at its
// cap makes the scheduler pass over the family (its compactions wait, the
// others' go on). The slot is returned when the compaction ends.
// Manual compactions (CompactRange, CompactFiles) are counted but never
// held back. A cap < 0 means unlimited; 0 stops automatic compactions of
// the families using the limiter.
// Thread-safety: thread-safe.
// Invariants: GetOutstandingTask() is the number of compactions holding a
// slot; it exceeds the cap only through manual compactions or a lowered cap.
// Only limiters made by NewConcurrentTaskLimiter can be given to a
// family (Open refuses another subclass with InvalidArgument).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "strata/export.h"

namespace strata {

class STRATA_EXPORT ConcurrentTaskLimiter {
 public:
  virtual ~ConcurrentTaskLimiter();

  virtual const std::string& GetName() const = 0;
  // Sets the cap (< 0: unlimited). Tasks running are not stopped.
  virtual void SetMaxOutstandingTask(int32_t limit) = 0;
  // Unlimited again.
  virtual void ResetMaxOutstandingTask() = 0;
  // Tasks holding a slot now.
  virtual int32_t GetOutstandingTask() const = 0;
};

// A limiter named `name` with cap `limit` (< 0: unlimited); owned by the
// caller (give it to families as a shared_ptr).
STRATA_EXPORT std::unique_ptr<ConcurrentTaskLimiter> NewConcurrentTaskLimiter(
    const std::string& name, int32_t limit);

}  // namespace strata
