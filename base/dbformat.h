// Internal keys: how a user key is versioned inside Strata (docs/format/internal_key.md).
//
//   internal_key = user_key | fixed64((sequence << 8) | value_type)
//
// Internal keys order by user key ascending (user comparator), then by the
// packed 64-bit trailer descending: for one user key, newer entries (higher
// sequence) come first, so a lookup at snapshot S lands on the newest entry
// with sequence <= S.
// Thread-safety: pure functions and immutable comparators.
#pragma once

#include <cstdint>
#include <string>

#include "strata/comparator.h"
#include "strata/slice.h"
#include "strata/status.h"
#include "util/coding.h"
#include "util/perf_context_imp.h"

namespace strata {

using SequenceNumber = uint64_t;

// 2^56 - 1: the sequence lives in the upper 56 bits of the trailer.
constexpr SequenceNumber kMaxSequenceNumber = (1ull << 56) - 1;

// Persisted in WAL records, memtables and SSTs: never renumber.
enum ValueType : unsigned char {
  kTypeDeletion = 0x0,
  kTypeValue = 0x1,
  kTypeMerge = 0x2,
  kTypeLogData = 0x3,
  kTypeColumnFamilyDeletion = 0x4,
  kTypeColumnFamilyValue = 0x5,
  kTypeColumnFamilyMerge = 0x6,
  kTypeSingleDeletion = 0x7,
  kTypeColumnFamilySingleDeletion = 0x8,
  kTypeBeginPrepareXID = 0x9,
  kTypeEndPrepareXID = 0xA,
  kTypeCommitXID = 0xB,
  kTypeRollbackXID = 0xC,
  kTypeNoop = 0xD,
  kTypeColumnFamilyRangeDeletion = 0xE,
  kTypeRangeDeletion = 0xF,
  kTypeColumnFamilyBlobIndex = 0x10,
  kTypeBlobIndex = 0x11,
  kTypeBeginPersistedPrepareXID = 0x12,
  kTypeBeginUnprepareXID = 0x13,
  kTypeDeletionWithTimestamp = 0x14,
  kTypeCommitXIDAndTimestamp = 0x15,
  kTypeWideColumnEntity = 0x16,
  kTypeColumnFamilyWideColumnEntity = 0x17,
  kTypeMaxValid,
  kMaxValue = 0x7F
};
static_assert(kTypeWideColumnEntity == 0x16, "ValueType codes are persisted");

// The highest type: a seek key with it sorts before every entry of the same
// user key and sequence.
constexpr ValueType kValueTypeForSeek = kTypeWideColumnEntity;
// The lowest type, for SeekForPrev keys.
constexpr ValueType kValueTypeForSeekForPrev = kTypeDeletion;

// True for the types that may appear in a memtable or SST entry.
inline bool IsValueTypeInTable(unsigned char t) {
  return t == kTypeDeletion || t == kTypeValue || t == kTypeMerge || t == kTypeSingleDeletion ||
         t == kTypeRangeDeletion || t == kTypeBlobIndex || t == kTypeDeletionWithTimestamp ||
         t == kTypeWideColumnEntity;
}

constexpr size_t kInternalKeyTrailerSize = 8;

inline uint64_t PackSequenceAndType(SequenceNumber seq, ValueType t) { return (seq << 8) | t; }
inline void UnpackSequenceAndType(uint64_t packed, SequenceNumber* seq, ValueType* t) {
  *seq = packed >> 8;
  *t = static_cast<ValueType>(packed & 0xff);
}

struct ParsedInternalKey {
  Slice user_key;
  SequenceNumber sequence = 0;
  ValueType type = kTypeDeletion;

  ParsedInternalKey() = default;
  ParsedInternalKey(const Slice& u, SequenceNumber seq, ValueType t)
      : user_key(u), sequence(seq), type(t) {}
  std::string DebugString(bool hex = true) const;
};

inline void AppendInternalKey(std::string* result, const ParsedInternalKey& key) {
  result->append(key.user_key.data(), key.user_key.size());
  PutFixed64(result, PackSequenceAndType(key.sequence, key.type));
}
inline void AppendInternalKey(std::string* result, const Slice& user_key, SequenceNumber seq,
                              ValueType t) {
  result->append(user_key.data(), user_key.size());
  PutFixed64(result, PackSequenceAndType(seq, t));
}

// REQUIRES: internal_key.size() >= 8
inline Slice ExtractUserKey(const Slice& internal_key) {
  return Slice(internal_key.data(), internal_key.size() - kInternalKeyTrailerSize);
}
// REQUIRES: internal_key.size() >= 8
inline uint64_t ExtractInternalKeyFooter(const Slice& internal_key) {
  return DecodeFixed64(internal_key.data() + internal_key.size() - kInternalKeyTrailerSize);
}

// Whether ikey is a range deletion sentinel (user key, kMaxSequenceNumber,
// kTypeRangeDeletion): the exclusive upper bound a table file gets when a
// range tombstone extends its key range. It sorts before every real entry
// of its user key.
inline bool IsRangeDelSentinel(const Slice& ikey) {
  return ikey.size() >= kInternalKeyTrailerSize &&
         ExtractInternalKeyFooter(ikey) ==
             PackSequenceAndType(kMaxSequenceNumber, kTypeRangeDeletion);
}
inline ValueType ExtractValueType(const Slice& internal_key) {
  return static_cast<ValueType>(ExtractInternalKeyFooter(internal_key) & 0xff);
}

// Corruption if the key is shorter than the trailer or has a type that may
// not be stored.
Status ParseInternalKey(const Slice& internal_key, ParsedInternalKey* result);

// Orders internal keys as described at the top of this file. It is the one
// internal-key order of the engine: a Comparator itself (named
// "rocksdb.InternalKeyComparator:<user comparator name>", as RocksDB names
// it), so code written against Comparator (block iterators, index blocks)
// orders internal keys through it, and the class is final so calls through
// an InternalKeyComparator are not virtual. The memtable's skip list
// (memtable/memtable.h) decodes its entries and applies the same rule
// through CompareTrailers.
// Thread-safety: immutable after construction; thread-safe.
class InternalKeyComparator final : public Comparator {
 public:
  // `user` is borrowed and must outlive this object.
  explicit InternalKeyComparator(const Comparator* user)
      : user_(user), name_(std::string("rocksdb.InternalKeyComparator:") + user->Name()) {}

  int Compare(const Slice& a, const Slice& b) const override {
    // A key shorter than its trailer comes only from damaged bytes (a table
    // read without checksums, a crafted file): compared whole, never read
    // outside; whoever parses it reports the Corruption.
    if (a.size() < kInternalKeyTrailerSize || b.size() < kInternalKeyTrailerSize) [[unlikely]] {
      return a.compare(b);
    }
    PERF_COUNTER_ADD(user_key_comparison_count, 1);
    const int r = user_->Compare(ExtractUserKey(a), ExtractUserKey(b));
    if (r != 0) return r;
    return CompareTrailers(ExtractInternalKeyFooter(a), ExtractInternalKeyFooter(b));
  }

  // For equal user keys: the higher trailer (newer sequence, then higher
  // type) sorts first.
  static int CompareTrailers(uint64_t a, uint64_t b) { return a > b ? -1 : (a < b ? 1 : 0); }

  const char* Name() const override { return name_.c_str(); }
  // Shortening internal keys needs care with the trailer; the table builder
  // shortens user keys itself, so these keep the key as it is.
  void FindShortestSeparator(std::string*, const Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}

  const Comparator* user_comparator() const { return user_; }

 private:
  const Comparator* user_;
  std::string name_;
};

// A key for looking up user_key as of sequence s, in the three shapes the
// layers need:
//   memtable_key() = varint32(internal key length) | internal key
//   internal_key() = user_key | trailer(s, kValueTypeForSeek)
//   user_key()
// Short keys live in an inline buffer (no allocation).
class LookupKey {
 public:
  LookupKey(const Slice& user_key, SequenceNumber s);
  ~LookupKey();
  LookupKey(const LookupKey&) = delete;
  LookupKey& operator=(const LookupKey&) = delete;

  Slice memtable_key() const { return Slice(start_, static_cast<size_t>(end_ - start_)); }
  Slice internal_key() const { return Slice(kstart_, static_cast<size_t>(end_ - kstart_)); }
  Slice user_key() const {
    return Slice(kstart_, static_cast<size_t>(end_ - kstart_) - kInternalKeyTrailerSize);
  }

 private:
  const char* start_;
  const char* kstart_;
  const char* end_;
  char* heap_ = nullptr;
  char space_[200];
};

}  // namespace strata
