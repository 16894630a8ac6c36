// A compaction's input iterator that charges what it reads to the
// RateLimiter at Env::IO_LOW, when the limiter's mode limits reads
// (kReadsOnly, kAllIo; RocksDB charges compaction reads the same way).
//
// Tables are read through mmap or the block cache below the table layer,
// where no single read call sees the file bytes, so the charge is made here
// from the entries read: each entry's key and value bytes times
// file_bytes_per_entry_byte (the inputs' file size over their raw key and
// value bytes, from the FileMetaData), i.e. about the file bytes behind
// the entries. Charges are made in units of up to one burst, after the
// bytes are read: the long-run rate is the limit, as for writes.
//
// Thread-safety: not thread-safe (one per subcompaction).
#pragma once

#include <memory>

#include "base/internal_iterator.h"
#include "strata/rate_limiter.h"
#include "strata/statistics.h"

namespace strata {

// Returns input itself when limiter is null or does not limit reads.
std::unique_ptr<InternalIterator> NewRateLimitedInput(std::unique_ptr<InternalIterator> input,
                                                      RateLimiter* limiter, Statistics* stats,
                                                      double file_bytes_per_entry_byte);

}  // namespace strata
