// rocksdb/types.h: small shared types of the RocksDB interface.
#pragma once

#include <cstdint>

#include "rocksdb/rocksdb_namespace.h"

namespace rocksdb {
using SequenceNumber = uint64_t;
const SequenceNumber kMinUnCommittedSeq = 1;
}  // namespace rocksdb
