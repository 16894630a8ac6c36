// Snapshot: a handle to a consistent, read-only view of the database as of
// the moment it was taken (a sequence number).
//
// Obtained from DB::GetSnapshot() and returned with DB::ReleaseSnapshot();
// the DB owns it. Reads through ReadOptions::snapshot see exactly the writes
// acknowledged before GetSnapshot() returned.
// Thread-safety: thread-safe (immutable).
#pragma once

#include <cstdint>
#include <limits>

#include "strata/export.h"

namespace strata {

class STRATA_EXPORT Snapshot {
 public:
  virtual uint64_t GetSequenceNumber() const = 0;
  // When the snapshot was taken, in seconds since the epoch (the DB's
  // clock); 0 for a snapshot that does not say (the default).
  virtual int64_t GetUnixTime() const { return 0; }
  // The user-defined timestamp of the snapshot. Strata has no user-defined
  // timestamps: the maximum value, as RocksDB answers for a snapshot taken
  // without one.
  virtual uint64_t GetTimestamp() const { return std::numeric_limits<uint64_t>::max(); }

 protected:
  virtual ~Snapshot() = default;
};

}  // namespace strata
