// CRC-32C (Castagnoli), as stored in WAL records and block trailers
// (docs/format/encoding.md (CRC32C and masking)): reflected polynomial 0x82F63B78, init and final
// xor 0xFFFFFFFF; crc32c("123456789") = 0xE3069283.
//
// Value/Extend use the SSE4.2 crc32 instruction when the CPU has it (checked
// once at run time) and a portable table-driven loop otherwise.
// Every CRC written to a file is masked (Mask) so that a CRC of data that
// itself contains CRCs is not degenerate.
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <cstdint>

namespace strata::crc32c {

// The crc32c of concat(A, data[0, n)) where init_crc is the crc32c of A.
uint32_t Extend(uint32_t init_crc, const char* data, size_t n);

// The crc32c of data[0, n).
inline uint32_t Value(const char* data, size_t n) { return Extend(0, data, n); }

// The portable implementation (for tests and benchmarks).
uint32_t ExtendPortable(uint32_t init_crc, const char* data, size_t n);

// True if Extend uses the SSE4.2 instruction on this CPU.
bool IsFastCrc32Supported();

constexpr uint32_t kMaskDelta = 0xa282ead8ul;

// Rotate right by 15 bits, then add a constant.
inline uint32_t Mask(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + kMaskDelta; }

inline uint32_t Unmask(uint32_t masked_crc) {
  const uint32_t rot = masked_crc - kMaskDelta;
  return ((rot >> 17) | (rot << 15));
}

}  // namespace strata::crc32c
