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
#include "strata/status.h"

namespace strata {

struct ConfigOptions;  // strata/convenience.h

class STRATA_EXPORT SliceTransform {
 public:
  virtual ~SliceTransform();

  // The registry type name (RocksDB's Customizable::Type).
  static const char* Type() { return "SliceTransform"; }
  // "fixed:N", "capped:N", "rocksdb.FixedPrefix.N", "rocksdb.CappedPrefix.N",
  // "rocksdb.Noop": a new built-in transform; "" or "nullptr" resets *result.
  // Any other id is NotSupported ("Could not load SliceTransform: <id>"), or
  // OK leaving *result unchanged when config_options.ignore_unsupported_options
  // is set (RocksDB's answers).
  static Status CreateFromString(const ConfigOptions& config_options, const std::string& id,
                                 std::shared_ptr<const SliceTransform>* result);
  // The transform's id as written to table properties: Name() (for the
  // built-ins "rocksdb.FixedPrefix.8" and the like, as RocksDB writes them).
  std::string AsString() const { return Name(); }

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
  // Whether appending bytes to prefix never changes its prefix
  // (Transform(prefix + x) == Transform(prefix)); false (the default) is
  // always correct.
  virtual bool SameResultWhenAppended(const Slice& /*prefix*/) const { return false; }
};

// The first prefix_len bytes; keys shorter than that are outside the domain.
STRATA_EXPORT const SliceTransform* NewFixedPrefixTransform(size_t prefix_len);
// The first cap_len bytes, or the whole key if shorter (every key is in the
// domain).
STRATA_EXPORT const SliceTransform* NewCappedPrefixTransform(size_t cap_len);
// The whole key.
STRATA_EXPORT const SliceTransform* NewNoopTransform();

}  // namespace strata
