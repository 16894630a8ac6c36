// XXPH3_64 follows docs/format/encoding.md (Hashes) (the xxHash 0.7.2 preview of XXH3
// as carried by RocksDB); Hash32 is the legacy 32-bit hash of the same page.

#include "util/hash.h"

#include <xxhash.h>

#include "util/coding.h"

namespace strata {

uint64_t XXH3_64(const char* data, size_t n) { return XXH3_64bits(data, n); }

namespace {

constexpr uint64_t kP32_1 = 0x9E3779B1u;
constexpr uint64_t kP32_2 = 0x85EBCA77u;
constexpr uint64_t kP32_3 = 0xC2B2AE3Du;
constexpr uint64_t kP64_1 = 0x9E3779B185EBCA87ull;
constexpr uint64_t kP64_2 = 0xC2B2AE3D27D4EB4Full;
constexpr uint64_t kP64_3 = 0x165667B19E3779F9ull;
constexpr uint64_t kP64_4 = 0x85EBCA77C2B2AE63ull;
constexpr uint64_t kP64_5 = 0x27D4EB2F165667C5ull;

constexpr size_t kSecretSize = 192;
constexpr size_t kStripeLen = 64;
constexpr size_t kStripesPerBlock = (kSecretSize - kStripeLen) / 8;  // 16
constexpr size_t kBlockLen = kStripeLen * kStripesPerBlock;          // 1024

// The default secret (the same 192 bytes as released XXH3's).
alignas(64) constexpr unsigned char kSecret[kSecretSize] = {
    0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
    0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f,
    0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
    0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c,
    0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3,
    0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
    0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d,
    0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64,
    0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
    0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e,
    0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce,
    0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e,
};

inline uint64_t R64(const unsigned char* p) {
  return DecodeFixed64(reinterpret_cast<const char*>(p));
}
inline uint32_t R32(const unsigned char* p) {
  return DecodeFixed32(reinterpret_cast<const char*>(p));
}

// Low and high halves of the 128-bit product, xored.
inline uint64_t Fold(uint64_t a, uint64_t b) {
  const unsigned __int128 product = static_cast<unsigned __int128>(a) * b;
  return static_cast<uint64_t>(product) ^ static_cast<uint64_t>(product >> 64);
}

inline uint64_t Avalanche(uint64_t h) {
  h ^= h >> 37;
  h *= kP64_3;
  h ^= h >> 32;
  return h;
}

inline uint64_t Mix16(const unsigned char* in, const unsigned char* secret, uint64_t seed) {
  return Fold(R64(in) ^ (R64(secret) + seed), R64(in + 8) ^ (R64(secret + 8) - seed));
}

uint64_t Len1To3(const unsigned char* in, size_t n, uint64_t seed) {
  const uint32_t combined =
      static_cast<uint32_t>(in[0]) | (static_cast<uint32_t>(in[n >> 1]) << 8) |
      (static_cast<uint32_t>(in[n - 1]) << 16) | (static_cast<uint32_t>(n) << 24);
  return Avalanche((combined ^ (R32(kSecret) + seed)) * kP64_1);
}

uint64_t Len4To8(const unsigned char* in, size_t n, uint64_t seed) {
  const uint64_t x = R32(in) | (static_cast<uint64_t>(R32(in + n - 4)) << 32);
  const uint64_t k = x ^ (R64(kSecret) + seed);
  const uint64_t m = n + (k ^ (k >> 51)) * kP32_1;
  return Avalanche((m ^ (m >> 47)) * kP64_2);
}

uint64_t Len9To16(const unsigned char* in, size_t n, uint64_t seed) {
  const uint64_t lo = R64(in) ^ (R64(kSecret) + seed);
  const uint64_t hi = R64(in + n - 8) ^ (R64(kSecret + 8) - seed);
  return Avalanche(n + lo + hi + Fold(lo, hi));
}

uint64_t Len17To128(const unsigned char* in, size_t n, uint64_t seed) {
  uint64_t acc = n * kP64_1;
  if (n > 32) {
    if (n > 64) {
      if (n > 96) {
        acc += Mix16(in + 48, kSecret + 96, seed);
        acc += Mix16(in + n - 64, kSecret + 112, seed);
      }
      acc += Mix16(in + 32, kSecret + 64, seed);
      acc += Mix16(in + n - 48, kSecret + 80, seed);
    }
    acc += Mix16(in + 16, kSecret + 32, seed);
    acc += Mix16(in + n - 32, kSecret + 48, seed);
  }
  acc += Mix16(in, kSecret, seed);
  acc += Mix16(in + n - 16, kSecret + 16, seed);
  return Avalanche(acc);
}

uint64_t Len129To240(const unsigned char* in, size_t n, uint64_t seed) {
  uint64_t acc = n * kP64_1;
  for (size_t i = 0; i < 8; i++) acc += Mix16(in + 16 * i, kSecret + 16 * i, seed);
  acc = Avalanche(acc);
  const size_t rounds = n / 16;
  for (size_t i = 8; i < rounds; i++) {
    acc += Mix16(in + 16 * i, kSecret + 16 * (i - 8) + 3, seed);
  }
  acc += Mix16(in + n - 16, kSecret + kSecretSize - 64 - 9, seed);  // secret + 119
  return Avalanche(acc);
}

inline void Stripe(uint64_t* acc, const unsigned char* in, const unsigned char* secret) {
  for (size_t i = 0; i < 8; i++) {
    const uint64_t v = R64(in + 8 * i);
    const uint64_t k = v ^ R64(secret + 8 * i);
    acc[i] += v + (k & 0xFFFFFFFFu) * (k >> 32);
  }
}

inline void Scramble(uint64_t* acc, const unsigned char* secret) {
  for (size_t i = 0; i < 8; i++) {
    uint64_t a = acc[i];
    a ^= a >> 47;
    a ^= R64(secret + kSecretSize - kStripeLen + 8 * i);
    acc[i] = a * kP32_1;
  }
}

// n > 240, with a 192-byte secret (the default one for seed 0).
uint64_t HashLong(const unsigned char* in, size_t n, const unsigned char* secret) {
  uint64_t acc[8] = {kP32_3, kP64_1, kP64_2, kP64_3, kP64_4, kP32_2, kP64_5, kP32_1};
  const size_t blocks = n / kBlockLen;
  for (size_t b = 0; b < blocks; b++) {
    for (size_t s = 0; s < kStripesPerBlock; s++) {
      Stripe(acc, in + b * kBlockLen + s * kStripeLen, secret + 8 * s);
    }
    Scramble(acc, secret);
  }
  const size_t tail_stripes = (n - blocks * kBlockLen) / kStripeLen;
  for (size_t s = 0; s < tail_stripes; s++) {
    Stripe(acc, in + blocks * kBlockLen + s * kStripeLen, secret + 8 * s);
  }
  if (n % kStripeLen != 0) {
    Stripe(acc, in + n - kStripeLen, secret + kSecretSize - kStripeLen - 7);
  }
  uint64_t result = n * kP64_1;
  for (size_t j = 0; j < 4; j++) {
    result +=
        Fold(acc[2 * j] ^ R64(secret + 11 + 16 * j), acc[2 * j + 1] ^ R64(secret + 19 + 16 * j));
  }
  return Avalanche(result);
}

uint64_t HashLongWithSeed(const unsigned char* in, size_t n, uint64_t seed) {
  if (seed == 0) return HashLong(in, n, kSecret);
  // A seeded long hash uses a secret derived from the seed, in the manner of
  // the seeded short paths: seed added to the first word of each 16-byte
  // pair, subtracted from the second.
  alignas(8) unsigned char secret[kSecretSize];
  for (size_t i = 0; i < kSecretSize / 16; i++) {
    EncodeFixed64(reinterpret_cast<char*>(secret + 16 * i), R64(kSecret + 16 * i) + seed);
    EncodeFixed64(reinterpret_cast<char*>(secret + 16 * i + 8), R64(kSecret + 16 * i + 8) - seed);
  }
  return HashLong(in, n, secret);
}

}  // namespace

uint64_t XXPH3_64(const char* data, size_t n, uint64_t seed) {
  const auto* in = reinterpret_cast<const unsigned char*>(data);
  if (n <= 16) {
    if (n > 8) return Len9To16(in, n, seed);
    if (n >= 4) return Len4To8(in, n, seed);
    if (n > 0) return Len1To3(in, n, seed);
    return Fold(seed + R64(kSecret), kP64_2);
  }
  if (n <= 128) return Len17To128(in, n, seed);
  if (n <= 240) return Len129To240(in, n, seed);
  return HashLongWithSeed(in, n, seed);
}

uint32_t Hash32(const char* data, size_t n, uint32_t seed) {
  constexpr uint32_t m = 0xC6A4A793u;
  uint32_t h = seed ^ (static_cast<uint32_t>(n) * m);
  const char* p = data;
  const char* const limit = data + n;
  while (limit - p >= 4) {
    h += DecodeFixed32(p);
    h *= m;
    h ^= h >> 16;
    p += 4;
  }
  // Tail bytes are sign-extended, as in RocksDB (part of the format).
  auto byte = [](char c) {
    return static_cast<uint32_t>(static_cast<int32_t>(static_cast<signed char>(c)));
  };
  switch (limit - p) {
    case 3:
      h += byte(p[2]) << 16;
      [[fallthrough]];
    case 2:
      h += byte(p[1]) << 8;
      [[fallthrough]];
    case 1:
      h += byte(p[0]);
      h *= m;
      h ^= h >> 24;
      break;
    default:
      break;
  }
  return h;
}

}  // namespace strata
