// CRC-32C with the SSE4.2 crc32 instruction (compiled with -msse4.2 -mpclmul;
// called only when the CPU has both, see util/crc32c.cc).
//
// One crc32q folds 8 bytes but has a latency of 3 cycles, so a single chain
// runs at a third of the unit's throughput. Long inputs are therefore cut
// into blocks of three equal chunks A, B, C that are checksummed as three
// independent chains (B and C starting from 0), and the results are joined
// by linearity of the CRC:
//
//   crc(A B C) = shift(crc_A, 2L) ^ shift(crc_B, L) ^ crc_C
//
// where shift(c, L) = c * x^(8L) mod P is the effect of L zero bytes. The
// shift is one carry-less multiply by the constant x^(8L-33) mod P followed
// by one crc32q of the 64-bit product (which multiplies by x^32 and reduces;
// the reflected carry-less product contributes the remaining factor x).
// Block sizes come in tiers so that medium inputs also run three-way.

#if defined(__x86_64__)

#include <nmmintrin.h>
#include <wmmintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace strata::crc32c::internal {

namespace {

constexpr uint32_t kReflectedPoly = 0x82F63B78u;

// a * b mod P, both in the reflected representation (bit 31 is x^0).
constexpr uint32_t MulMod(uint32_t a, uint32_t b) {
  uint32_t product = 0;
  for (uint32_t m = 0x80000000u; m != 0; m >>= 1) {
    if (a & m) product ^= b;
    b = (b & 1) ? (b >> 1) ^ kReflectedPoly : b >> 1;
  }
  return product;
}

// x^n mod P, reflected.
constexpr uint32_t XPowMod(uint64_t n) {
  uint32_t result = 0x80000000u;  // x^0
  uint32_t base = 0x40000000u;    // x^1
  while (n != 0) {
    if (n & 1) result = MulMod(result, base);
    base = MulMod(base, base);
    n >>= 1;
  }
  return result;
}

inline uint64_t Load64(const unsigned char* p) {
  uint64_t v;
  memcpy(&v, p, sizeof(v));
  return v;
}
inline uint32_t Load32(const unsigned char* p) {
  uint32_t v;
  memcpy(&v, p, sizeof(v));
  return v;
}
inline uint16_t Load16(const unsigned char* p) {
  uint16_t v;
  memcpy(&v, p, sizeof(v));
  return v;
}

// crc_a shifted over 2L bytes, xor crc_b shifted over L bytes, reduced.
inline uint64_t ShiftTwo(uint64_t crc_a, uint32_t k2, uint64_t crc_b, uint32_t k1) {
  const __m128i pa = _mm_clmulepi64_si128(_mm_cvtsi64_si128(static_cast<int64_t>(crc_a)),
                                          _mm_cvtsi32_si128(static_cast<int>(k2)), 0x00);
  const __m128i pb = _mm_clmulepi64_si128(_mm_cvtsi64_si128(static_cast<int64_t>(crc_b)),
                                          _mm_cvtsi32_si128(static_cast<int>(k1)), 0x00);
  const uint64_t folded = static_cast<uint64_t>(_mm_cvtsi128_si64(_mm_xor_si128(pa, pb)));
  return _mm_crc32_u64(0, folded);
}

// Consumes as many blocks of 3 * kLen bytes as [*p, *p + *n) holds.
template <size_t kLen>
inline void ThreeWay(uint64_t* crc, const unsigned char** p, size_t* n) {
  static_assert(kLen % 8 == 0 && kLen >= 16);
  constexpr uint32_t k1 = XPowMod(8 * kLen - 33);
  constexpr uint32_t k2 = XPowMod(16 * kLen - 33);
  const unsigned char* q = *p;
  size_t left = *n;
  uint64_t a = *crc;
  while (left >= 3 * kLen) {
    uint64_t b = 0;
    uint64_t c = 0;
    for (size_t i = 0; i < kLen; i += 8) {
      a = _mm_crc32_u64(a, Load64(q + i));
      b = _mm_crc32_u64(b, Load64(q + kLen + i));
      c = _mm_crc32_u64(c, Load64(q + 2 * kLen + i));
    }
    a = ShiftTwo(a, k2, b, k1) ^ c;
    q += 3 * kLen;
    left -= 3 * kLen;
  }
  *crc = a;
  *p = q;
  *n = left;
}

}  // namespace

uint32_t ExtendSse42(uint32_t init_crc, const char* data, size_t n) {
  const auto* p = reinterpret_cast<const unsigned char*>(data);
  uint64_t crc = ~init_crc;
  if (n >= 3 * 64) {
    ThreeWay<8192>(&crc, &p, &n);
    ThreeWay<1024>(&crc, &p, &n);
    ThreeWay<128>(&crc, &p, &n);
    ThreeWay<64>(&crc, &p, &n);
  }
  while (n >= 8) {
    crc = _mm_crc32_u64(crc, Load64(p));
    p += 8;
    n -= 8;
  }
  uint32_t crc32 = static_cast<uint32_t>(crc);
  if (n & 4) {
    crc32 = _mm_crc32_u32(crc32, Load32(p));
    p += 4;
  }
  if (n & 2) {
    crc32 = _mm_crc32_u16(crc32, Load16(p));
    p += 2;
  }
  if (n & 1) crc32 = _mm_crc32_u8(crc32, *p);
  return ~crc32;
}

}  // namespace strata::crc32c::internal

#endif  // defined(__x86_64__)
