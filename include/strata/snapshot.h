// Snapshot: a handle to a consistent, read-only view of the database as of
// the moment it was taken (a sequence number).
//
// Obtained from DB::GetSnapshot() and returned with DB::ReleaseSnapshot();
// the DB owns it. Reads through ReadOptions::snapshot see exactly the writes
// acknowledged before GetSnapshot() returned.
// Thread-safety: thread-safe (immutable).
#pragma once

#include <cstdint>

#include "strata/export.h"

namespace strata {

class STRATA_EXPORT Snapshot {
 public:
  virtual uint64_t GetSequenceNumber() const = 0;

 protected:
  virtual ~Snapshot() = default;
};

}  // namespace strata
