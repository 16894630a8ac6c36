// The built-in comparators: bytewise and reverse bytewise, with separator
// shortening for the bytewise order.
#include "strata/comparator.h"

#include <algorithm>

namespace strata {

namespace {

class BytewiseComparatorImpl final : public Comparator {
 public:
  const char* Name() const override { return "leveldb.BytewiseComparator"; }
  int Compare(const Slice& a, const Slice& b) const override { return a.compare(b); }
  bool Equal(const Slice& a, const Slice& b) const override { return a == b; }

  void FindShortestSeparator(std::string* start, const Slice& limit) const override {
    const size_t min_length = std::min(start->size(), limit.size());
    size_t diff = 0;
    while (diff < min_length && (*start)[diff] == limit[diff]) diff++;
    if (diff >= min_length) return;  // one is a prefix of the other
    const auto byte = static_cast<uint8_t>((*start)[diff]);
    const auto limit_byte = static_cast<uint8_t>(limit[diff]);
    if (byte >= limit_byte) return;
    // RocksDB 7.8.3's rule (index separators must match its bytes): bump
    // the first differing byte and cut there when the result stays below
    // limit -- always so when limit goes on past that byte; otherwise keep
    // that byte and bump the first later byte of start that is not 0xff.
    if (diff + 1 < limit.size() || byte + 1 < limit_byte) {
      (*start)[diff]++;
      start->resize(diff + 1);
      return;
    }
    for (size_t i = diff + 1; i < start->size(); i++) {
      if (static_cast<uint8_t>((*start)[i]) < 0xff) {
        (*start)[i]++;
        start->resize(i + 1);
        return;
      }
    }
  }

  void FindShortSuccessor(std::string* key) const override {
    for (size_t i = 0; i < key->size(); i++) {
      const auto byte = static_cast<uint8_t>((*key)[i]);
      if (byte != 0xff) {
        (*key)[i] = static_cast<char>(byte + 1);
        key->resize(i + 1);
        return;
      }
    }
  }
};

class ReverseBytewiseComparatorImpl final : public Comparator {
 public:
  const char* Name() const override { return "rocksdb.ReverseBytewiseComparator"; }
  int Compare(const Slice& a, const Slice& b) const override { return -a.compare(b); }
  bool Equal(const Slice& a, const Slice& b) const override { return a == b; }
  void FindShortestSeparator(std::string*, const Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}
};

}  // namespace

const Comparator* BytewiseComparator() {
  static const BytewiseComparatorImpl kInstance;
  return &kInstance;
}

const Comparator* ReverseBytewiseComparator() {
  static const ReverseBytewiseComparatorImpl kInstance;
  return &kInstance;
}

}  // namespace strata
