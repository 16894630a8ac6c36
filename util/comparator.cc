// The built-in comparators: bytewise and reverse bytewise, with separator
// shortening for the bytewise order.
#include "strata/comparator.h"

#include <algorithm>

#include "strata/convenience.h"

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

  // t follows s immediately among keys of their length: at the first byte
  // where they differ t's is s's plus one, and after it s has only 0xff
  // bytes and t only 0x00 bytes (the carry of an increment).
  bool IsSameLengthImmediateSuccessor(const Slice& s, const Slice& t) const override {
    if (s.size() != t.size() || s.empty()) return false;
    size_t i = 0;
    while (i < s.size() && s[i] == t[i]) i++;
    if (i == s.size()) return false;  // equal
    const auto bs = static_cast<uint8_t>(s[i]);
    const auto bt = static_cast<uint8_t>(t[i]);
    if (bs == 0xff || bs + 1 != bt) return false;
    for (i++; i < s.size(); i++) {
      if (static_cast<uint8_t>(s[i]) != 0xff || static_cast<uint8_t>(t[i]) != 0x00) return false;
    }
    return true;
  }
  bool CanKeysWithDifferentByteContentsBeEqual() const override { return false; }
  using Comparator::CompareWithoutTimestamp;
  int CompareWithoutTimestamp(const Slice& a, bool, const Slice& b, bool) const override {
    return a.compare(b);
  }
  bool EqualWithoutTimestamp(const Slice& a, const Slice& b) const override { return a == b; }
};

class ReverseBytewiseComparatorImpl final : public Comparator {
 public:
  const char* Name() const override { return "rocksdb.ReverseBytewiseComparator"; }
  int Compare(const Slice& a, const Slice& b) const override { return -a.compare(b); }
  bool Equal(const Slice& a, const Slice& b) const override { return a == b; }
  void FindShortestSeparator(std::string*, const Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}
  bool CanKeysWithDifferentByteContentsBeEqual() const override { return false; }
  using Comparator::CompareWithoutTimestamp;
  int CompareWithoutTimestamp(const Slice& a, bool, const Slice& b, bool) const override {
    return -a.compare(b);
  }
  bool EqualWithoutTimestamp(const Slice& a, const Slice& b) const override { return a == b; }
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

Status Comparator::CreateFromString(const ConfigOptions& opts, const std::string& id,
                                    const Comparator** comp) {
  if (id == BytewiseComparator()->Name()) {
    *comp = BytewiseComparator();
  } else if (id == ReverseBytewiseComparator()->Name()) {
    *comp = ReverseBytewiseComparator();
  } else if (id.empty()) {
    *comp = nullptr;
  } else if (!opts.ignore_unsupported_options) {
    return Status::NotSupported("Could not load Comparator", id);
  }
  return Status::OK();
}

}  // namespace strata
