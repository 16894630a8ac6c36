// Hash functions whose values are part of the on-disk format (docs/format/encoding.md (Hashes)), so
// their results must never change:
//
//  - XXH3_64: released XXH3 (xxHash >= 0.8.0, unseeded, default secret), from
//    libxxhash. Block checksum type kXXH3 and WAL-compression checks.
//  - XXPH3_64: the pre-release XXH3 of xxHash 0.7.2 that RocksDB keeps as
//    its Hash64() for FastLocalBloom and Ribbon filter keys. It differs from
//    released XXH3 at every length; implemented here from the specification.
//  - Hash32: RocksDB's legacy 32-bit MurmurHash-like hash (legacy Bloom
//    filters with seed 0xbc9f1d34, data-block hash index with seed 397).
//
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <cstdint>

namespace strata {

// Released XXH3_64bits(data, n).
uint64_t XXH3_64(const char* data, size_t n);

// RocksDB's Hash64(data, n, seed): XXPH3 (xxHash 0.7.2 preview XXH3).
// Filters use seed 0.
uint64_t XXPH3_64(const char* data, size_t n, uint64_t seed = 0);

// RocksDB's legacy Hash(data, n, seed).
uint32_t Hash32(const char* data, size_t n, uint32_t seed);

}  // namespace strata
