// FilterPolicy: how a table file builds and reads its full (whole-file) key
// filter, a compact set summary that answers "definitely absent" or "maybe
// present" for a user key so point lookups can skip files.
//
// The built-in policy from NewBloomFilterPolicy() writes RocksDB's
// format_version 5 filter (cache-line-local "FastLocalBloom"), byte for byte,
// so RocksDB reads our filters and we read theirs (including RocksDB's older
// legacy Bloom layout). NewRibbonFilterPolicy() writes RocksDB's
// Standard128Ribbon filter, also byte for byte. The concrete builders and
// readers are internal; tables only accept policies returned by these two
// factories. Every built-in policy reads every built-in filter.
// Thread-safety: a FilterPolicy is immutable and safe to share between
// threads.
// Invariants:
//  1. A filter never gives a false negative for a key that was added.
//  2. Name() and CompatibilityName() never change for a policy: they are
//     stored in table properties and in the metaindex key.
#pragma once

#include <memory>

#include "strata/export.h"

namespace strata {

class STRATA_EXPORT FilterPolicy {
 public:
  virtual ~FilterPolicy();

  // The name recorded in the table property "rocksdb.filter.policy"
  // ("bloomfilter" for the built-in policy).
  virtual const char* Name() const = 0;

  // The name that makes filters of compatible policies interchangeable; the
  // filter block is stored under metaindex key "fullfilter." + this
  // ("rocksdb.BuiltinBloomFilter" for the built-in policy).
  virtual const char* CompatibilityName() const = 0;
};

// A Bloom filter policy using about `bits_per_key` bits per distinct key
// (10 gives roughly a 1% false-positive rate). bits_per_key is rounded to
// thousandths; values below 0.5 build no filter, values in [0.5, 1) are
// treated as 1, and values above 100 as 100.
STRATA_EXPORT std::shared_ptr<const FilterPolicy> NewBloomFilterPolicy(double bits_per_key);

// A Ribbon filter policy (RocksDB's Standard128Ribbon): the false-positive
// rate of a Bloom filter of bloom_equivalent_bits_per_key (rounded and
// clamped as above) in about 30% less space, at several times the CPU time
// and about 3x the temporary memory to build (queries cost about the same).
// Name() is "ribbonfilter"; CompatibilityName() is the Bloom one, so either
// policy reads the other's filters.
//
// bloom_before_level picks Bloom filters for the tables of the upper levels,
// where they live briefly and are queried most: under leveled and universal
// compaction a table gets a Bloom filter when its level is below
// bloom_before_level, where a flush counts as level -1 and a table of
// unknown level (SstFileWriter, repair) as INT_MAX. Under FIFO compaction
// every table counts as INT_MAX. So 0 (the default) = Bloom for flushes only,
// -1 = always Ribbon, INT_MAX = Bloom everywhere except tables of unknown
// level and FIFO. Even a "Ribbon" table gets a Bloom filter when that is
// smaller (a few hundred keys) or when Ribbon construction fails.
STRATA_EXPORT std::shared_ptr<const FilterPolicy> NewRibbonFilterPolicy(
    double bloom_equivalent_bits_per_key, int bloom_before_level = 0);

}  // namespace strata
