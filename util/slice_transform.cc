// The built-in SliceTransforms (contract in strata/slice_transform.h): a
// fixed-length prefix, a capped-length prefix and the identity. Their Name()
// strings match RocksDB's so table properties agree between the two.

#include "strata/slice_transform.h"

#include <algorithm>
#include <string>

namespace strata {

SliceTransform::~SliceTransform() = default;

namespace {

// The first len_ bytes; shorter keys are outside the domain.
class FixedPrefixTransform final : public SliceTransform {
 public:
  explicit FixedPrefixTransform(size_t len)
      : len_(len), name_("rocksdb.FixedPrefix." + std::to_string(len)) {}

  const char* Name() const override { return name_.c_str(); }
  Slice Transform(const Slice& key) const override { return Slice(key.data(), len_); }
  bool InDomain(const Slice& key) const override { return key.size() >= len_; }
  bool InRange(const Slice& dst) const override { return dst.size() == len_; }
  bool FullLengthEnabled(size_t* len) const override {
    *len = len_;
    return true;
  }
  bool SameResultWhenAppended(const Slice& prefix) const override { return InDomain(prefix); }

 private:
  const size_t len_;
  const std::string name_;
};

// The first len_ bytes, or the whole key when it is shorter.
class CappedPrefixTransform final : public SliceTransform {
 public:
  explicit CappedPrefixTransform(size_t len)
      : len_(len), name_("rocksdb.CappedPrefix." + std::to_string(len)) {}

  const char* Name() const override { return name_.c_str(); }
  Slice Transform(const Slice& key) const override {
    return Slice(key.data(), std::min(len_, key.size()));
  }
  bool InDomain(const Slice& /*key*/) const override { return true; }
  bool InRange(const Slice& dst) const override { return dst.size() <= len_; }
  bool FullLengthEnabled(size_t* len) const override {
    *len = len_;
    return true;
  }
  bool SameResultWhenAppended(const Slice& prefix) const override { return prefix.size() >= len_; }

 private:
  const size_t len_;
  const std::string name_;
};

// The whole key.
class NoopTransform final : public SliceTransform {
 public:
  const char* Name() const override { return "rocksdb.Noop"; }
  Slice Transform(const Slice& key) const override { return key; }
  bool InDomain(const Slice& /*key*/) const override { return true; }
  bool InRange(const Slice& /*dst*/) const override { return true; }
};

}  // namespace

const SliceTransform* NewFixedPrefixTransform(size_t prefix_len) {
  return new FixedPrefixTransform(prefix_len);
}

const SliceTransform* NewCappedPrefixTransform(size_t cap_len) {
  return new CappedPrefixTransform(cap_len);
}

const SliceTransform* NewNoopTransform() { return new NoopTransform(); }

}  // namespace strata
