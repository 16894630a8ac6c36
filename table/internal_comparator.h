// InternalComparatorAdapter: a strata::Comparator over internal keys
// (db/dbformat.h), so table code that is written against Comparator (block
// iterators, index blocks) can order internal keys: user key ascending by
// the user comparator, then the 8-byte trailer descending.
//
// Thread-safety: immutable after construction; thread-safe.
// Invariants: every key compared is at least 8 bytes (an internal key).
#pragma once

#include <string>

#include "db/dbformat.h"
#include "strata/comparator.h"

namespace strata {

class InternalComparatorAdapter final : public Comparator {
 public:
  // `user` is borrowed and must outlive this object.
  explicit InternalComparatorAdapter(const Comparator* user)
      : icmp_(user), name_(std::string("rocksdb.InternalKeyComparator:") + user->Name()) {}

  int Compare(const Slice& a, const Slice& b) const override { return icmp_.Compare(a, b); }
  const char* Name() const override { return name_.c_str(); }
  // Shortening internal keys needs care with the trailer; not done here.
  void FindShortestSeparator(std::string*, const Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}

  const Comparator* user_comparator() const { return icmp_.user_comparator(); }
  const InternalKeyComparator& internal_comparator() const { return icmp_; }

 private:
  InternalKeyComparator icmp_;
  std::string name_;
};

}  // namespace strata
