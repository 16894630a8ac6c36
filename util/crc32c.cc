// CRC-32C: the portable slicing-by-8 implementation and the run-time choice
// between it and the SSE4.2 one in util/crc32c_sse42.cc.
//
// Slicing-by-8: table k maps a byte to the CRC contribution it makes when k
// more zero bytes follow it, so eight input bytes are folded per step with
// eight independent lookups instead of a chain of eight dependent ones.

#include "util/crc32c.h"

#include "util/coding.h"

namespace strata::crc32c {

namespace internal {
// Defined in util/crc32c_sse42.cc (x86-64 only). REQUIRES: the CPU has
// SSE4.2 and PCLMULQDQ.
uint32_t ExtendSse42(uint32_t init_crc, const char* data, size_t n);
}  // namespace internal

namespace {

constexpr uint32_t kReflectedPoly = 0x82F63B78u;

struct SliceTables {
  uint32_t t[8][256];
};

constexpr SliceTables MakeSliceTables() {
  SliceTables tables{};
  for (uint32_t b = 0; b < 256; b++) {
    uint32_t crc = b;
    for (int bit = 0; bit < 8; bit++) {
      crc = (crc & 1) ? (crc >> 1) ^ kReflectedPoly : crc >> 1;
    }
    tables.t[0][b] = crc;
  }
  for (int k = 1; k < 8; k++) {
    for (uint32_t b = 0; b < 256; b++) {
      const uint32_t prev = tables.t[k - 1][b];
      tables.t[k][b] = (prev >> 8) ^ tables.t[0][prev & 0xff];
    }
  }
  return tables;
}

constexpr SliceTables kTables = MakeSliceTables();
static_assert(kTables.t[0][1] == 0xF26B8303u, "CRC-32C table");

bool DetectHardware() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  return __builtin_cpu_supports("sse4.2") && __builtin_cpu_supports("pclmul");
#else
  return false;
#endif
}

// Dynamic initialization. Before it runs (a CRC computed by another file's
// static initializer) the flag reads false and the portable code is used,
// which gives the same answer.
const bool g_use_hardware = DetectHardware();

}  // namespace

uint32_t ExtendPortable(uint32_t init_crc, const char* data, size_t n) {
  const auto& t = kTables.t;
  const auto* p = reinterpret_cast<const unsigned char*>(data);
  uint32_t crc = ~init_crc;
  // Byte at a time until 4-byte aligned: aligned loads are cheaper on the
  // platforms where this path actually runs.
  while (n > 0 && (reinterpret_cast<uintptr_t>(p) & 3) != 0) {
    crc = t[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
    n--;
  }
  while (n >= 8) {
    const uint32_t lo = DecodeFixed32(reinterpret_cast<const char*>(p)) ^ crc;
    const uint32_t hi = DecodeFixed32(reinterpret_cast<const char*>(p + 4));
    crc = t[7][lo & 0xff] ^ t[6][(lo >> 8) & 0xff] ^ t[5][(lo >> 16) & 0xff] ^ t[4][lo >> 24] ^
          t[3][hi & 0xff] ^ t[2][(hi >> 8) & 0xff] ^ t[1][(hi >> 16) & 0xff] ^ t[0][hi >> 24];
    p += 8;
    n -= 8;
  }
  while (n > 0) {
    crc = t[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
    n--;
  }
  return ~crc;
}

bool IsFastCrc32Supported() { return g_use_hardware; }

uint32_t Extend(uint32_t init_crc, const char* data, size_t n) {
#if defined(__x86_64__)
  if (g_use_hardware) return internal::ExtendSse42(init_crc, data, n);
#endif
  return ExtendPortable(init_crc, data, n);
}

}  // namespace strata::crc32c
