// SliceTransform: maps a key to its prefix, for prefix Bloom filters (in
// tables and memtables) and prefix-bounded iteration
// (ColumnFamilyOptions::prefix_extractor, ReadOptions::prefix_same_as_start).
// Name() is recorded in table properties ("rocksdb.prefix.extractor.name");
// a table whose recorded extractor differs from the configured one has its
// prefix filter ignored.
// Thread-safety: immutable; shared between threads.
// Invariants: for keys in the domain, Transform(key) is a prefix of key, and
// keys with equal prefixes are contiguous in the comparator's order.
#pragma once

#include <memory>
#include <string>

#include "strata/export.h"
#include "strata/slice.h"

namespace strata {

class STRATA_EXPORT SliceTransform {
 public:
  virtual ~SliceTransform();

  // RocksDB's spelling, e.g. "rocksdb.FixedPrefix.8", "rocksdb.CappedPrefix.8",
  // "rocksdb.Noop".
  virtual const char* Name() const = 0;
  // The prefix of key. REQUIRES: InDomain(key).
  virtual Slice Transform(const Slice& key) const = 0;
  // Whether key has a prefix (keys outside the domain bypass prefix filters).
  virtual bool InDomain(const Slice& key) const = 0;
  // Whether dst is a prefix of some key in the domain (kept for RocksDB
  // source compatibility).
  virtual bool InRange(const Slice& /*dst*/) const { return false; }
  // Whether every key that starts with prefix and is at least as long has
  // Transform(key) == prefix (lets Seek use a prefix filter on the target).
  virtual bool FullLengthEnabled(size_t* /*len*/) const { return false; }
};

// The first prefix_len bytes; keys shorter than that are outside the domain.
STRATA_EXPORT const SliceTransform* NewFixedPrefixTransform(size_t prefix_len);
// The first cap_len bytes, or the whole key if shorter (every key is in the
// domain).
STRATA_EXPORT const SliceTransform* NewCappedPrefixTransform(size_t cap_len);
// The whole key.
STRATA_EXPORT const SliceTransform* NewNoopTransform();

}  // namespace strata
