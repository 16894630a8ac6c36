// Fuzz target: util/coding.h decoders. Every varint, fixed-width integer and
// length-prefixed slice that decodes must encode back to the same bytes
// (varints: the canonical encoding may be shorter than an over-long input, so
// the re-encoding must decode to the same value and be no longer).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "fuzz/fuzz_check.h"
#include "strata/slice.h"
#include "util/coding.h"

namespace strata {
namespace {

void CheckVarint32(const Slice& before, const Slice& after, uint32_t v) {
  const size_t used = before.size() - after.size();
  FUZZ_CHECK(used >= 1 && used <= 5);
  std::string enc;
  PutVarint32(&enc, v);
  FUZZ_CHECK(static_cast<int>(enc.size()) == VarintLength(v));
  FUZZ_CHECK(enc.size() <= used);
  // The shortest encoding is the input itself when no padding 0x80 bytes
  // were used.
  // (A fifth byte's bits above bit 31 are dropped, as LevelDB does.)
  const auto last = static_cast<unsigned char>(before[used - 1]);
  if (enc.size() == used && (used < 5 || (last & 0xf0) == 0)) {
    FUZZ_CHECK(Slice(before.data(), used) == Slice(enc));
  }
  Slice back(enc);
  uint32_t v2 = 0;
  FUZZ_CHECK(GetVarint32(&back, &v2) && v2 == v && back.empty());
  // The pointer form agrees with the Slice form.
  uint32_t v3 = 0;
  const char* p = GetVarint32Ptr(before.data(), before.data() + before.size(), &v3);
  FUZZ_CHECK(p == after.data() && v3 == v);
}

void CheckVarint64(const Slice& before, const Slice& after, uint64_t v) {
  const size_t used = before.size() - after.size();
  FUZZ_CHECK(used >= 1 && used <= 10);
  std::string enc;
  PutVarint64(&enc, v);
  FUZZ_CHECK(static_cast<int>(enc.size()) == VarintLength(v));
  FUZZ_CHECK(enc.size() <= used);
  const auto last = static_cast<unsigned char>(before[used - 1]);
  if (enc.size() == used && (used < 10 || (last & 0xfe) == 0)) {
    FUZZ_CHECK(Slice(before.data(), used) == Slice(enc));
  }
  char buf[10];
  const char* end = EncodeVarint64(buf, v);
  FUZZ_CHECK(Slice(buf, static_cast<size_t>(end - buf)) == Slice(enc));
  Slice back(enc);
  uint64_t v2 = 0;
  FUZZ_CHECK(GetVarint64(&back, &v2) && v2 == v && back.empty());
  uint64_t v3 = 0;
  const char* p = GetVarint64Ptr(before.data(), before.data() + before.size(), &v3);
  FUZZ_CHECK(p == after.data() && v3 == v);
}

}  // namespace
}  // namespace strata

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace strata;
  // Copy into an exact-size heap buffer so ASan sees any read past the end.
  std::string bytes(reinterpret_cast<const char*>(data), size);
  const Slice all(bytes);

  // 1. A stream of varint32s.
  {
    Slice in = all;
    while (!in.empty()) {
      const Slice before = in;
      uint32_t v = 0;
      if (!GetVarint32(&in, &v)) {
        // A failed decode consumes nothing and leaves no valid pointer.
        FUZZ_CHECK(GetVarint32Ptr(before.data(), before.data() + before.size(), &v) == nullptr);
        in = before;
        in.remove_prefix(1);
        continue;
      }
      CheckVarint32(before, in, v);
    }
  }
  // 2. A stream of varint64s.
  {
    Slice in = all;
    while (!in.empty()) {
      const Slice before = in;
      uint64_t v = 0;
      if (!GetVarint64(&in, &v)) {
        FUZZ_CHECK(GetVarint64Ptr(before.data(), before.data() + before.size(), &v) == nullptr);
        in = before;
        in.remove_prefix(1);
        continue;
      }
      CheckVarint64(before, in, v);
    }
  }
  // 3. Length-prefixed slices, and the pointer form, until one fails.
  {
    Slice in = all;
    while (!in.empty()) {
      const Slice before = in;
      Slice value;
      Slice value2;
      const char* p =
          GetLengthPrefixedSlicePtr(before.data(), before.data() + before.size(), &value2);
      if (!GetLengthPrefixedSlice(&in, &value)) {
        FUZZ_CHECK(p == nullptr);
        break;
      }
      FUZZ_CHECK(p == in.data() && value2 == value);
      FUZZ_CHECK(value.data() >= before.data() && value.data() + value.size() <= in.data());
      std::string enc;
      PutLengthPrefixedSlice(&enc, value);
      Slice back(enc);
      Slice v3;
      FUZZ_CHECK(GetLengthPrefixedSlice(&back, &v3) && v3 == value && back.empty());
    }
  }
  // 4. Fixed-width integers and the mixed sequence a record header uses.
  {
    Slice in = all;
    uint32_t f32 = 0;
    uint64_t f64 = 0;
    while (in.size() >= 8) {
      const char* p = in.data();
      FUZZ_CHECK(GetFixed64(&in, &f64));
      FUZZ_CHECK(f64 == DecodeFixed64(p));
      std::string enc;
      PutFixed64(&enc, f64);
      FUZZ_CHECK(Slice(p, 8) == Slice(enc));
    }
    while (in.size() >= 4) {
      const char* p = in.data();
      FUZZ_CHECK(GetFixed32(&in, &f32));
      FUZZ_CHECK(f32 == DecodeFixed32(p));
      std::string enc;
      PutFixed32(&enc, f32);
      FUZZ_CHECK(Slice(p, 4) == Slice(enc));
    }
    if (in.size() >= 2) {
      const uint16_t f16 = DecodeFixed16(in.data());
      char buf[2];
      EncodeFixed16(buf, f16);
      FUZZ_CHECK(memcmp(buf, in.data(), 2) == 0);
    }
    FUZZ_CHECK(!GetFixed64(&in, &f64));
  }
  // 5. PutVarint32Varint32 of two decoded values reads back as both.
  {
    Slice in = all;
    uint32_t a = 0, b = 0;
    if (GetVarint32(&in, &a) && GetVarint32(&in, &b)) {
      std::string enc;
      PutVarint32Varint32(&enc, a, b);
      Slice back(enc);
      uint32_t a2 = 0, b2 = 0;
      FUZZ_CHECK(GetVarint32(&back, &a2) && GetVarint32(&back, &b2) && a2 == a && b2 == b);
    }
  }
  return 0;
}
