// Random and Random64: small, fast pseudo-random generators for tests,
// benchmarks and randomized structures (skip-list node heights).
//
// Random is the Park-Miller "minimal standard" Lehmer generator
// (x' = 16807 * x mod (2^31 - 1)): 32-bit state, one multiply per draw,
// deterministic for a given seed. Its outputs lie in [1, 2^31 - 2]. It is
// good enough for heights and test data, not for anything statistical or
// cryptographic. Random64 wraps std::mt19937_64 for 64-bit ranges.
// Thread-safety: not thread-safe; give each thread its own instance.
// Invariants: Random's state is always in [1, 2^31 - 2] (0 and 2^31 - 1 are
// fixed points of the recurrence and are never stored).
#pragma once

#include <cstdint>
#include <random>

namespace strata {

class Random {
 public:
  // The modulus, 2^31 - 1; Next() never returns it.
  static constexpr uint32_t kModulus = 2147483647u;
  // The largest value Next() can return.
  static constexpr uint32_t kMaxNext = kModulus - 1;

  explicit Random(uint32_t seed) : state_(seed & kModulus) {
    // 0 and the modulus would make every later draw the same value.
    if (state_ == 0 || state_ == kModulus) state_ = 1;
  }

  // The next value, in [1, kMaxNext].
  uint32_t Next() {
    constexpr uint64_t kMultiplier = 16807;  // 7^5, a primitive root mod 2^31-1
    const uint64_t product = state_ * kMultiplier;
    // product mod (2^31 - 1) without a division: 2^31 == 1 (mod 2^31 - 1), so
    // the high part (bits 31 and up) folds onto the low 31 bits.
    uint64_t folded = (product >> 31) + (product & kModulus);
    // One fold leaves at most kModulus + (product >> 31) < 2 * kModulus.
    if (folded > kModulus) folded -= kModulus;
    state_ = static_cast<uint32_t>(folded);
    return state_;
  }

  // Uniform in [0, n). REQUIRES: n > 0. (Slightly biased for n not dividing
  // 2^31 - 2; irrelevant for the uses here.)
  uint32_t Uniform(uint32_t n) { return Next() % n; }

  // True with probability about 1/n. REQUIRES: n > 0.
  bool OneIn(uint32_t n) { return Next() % n == 0; }

  // Picks a bit width uniformly from [0, max_log], then a value uniform
  // below 2^width: small numbers are exponentially more likely than large
  // ones. REQUIRES: max_log <= 30.
  uint32_t Skewed(int max_log) {
    return Uniform(1u << Uniform(static_cast<uint32_t>(max_log) + 1));
  }

 private:
  uint32_t state_;
};

class Random64 {
 public:
  explicit Random64(uint64_t seed) : engine_(seed) {}

  // A uniform 64-bit value.
  uint64_t Next() { return engine_(); }

  // Uniform in [0, n). REQUIRES: n > 0.
  uint64_t Uniform(uint64_t n) {
    return std::uniform_int_distribution<uint64_t>(0, n - 1)(engine_);
  }

  // True with probability 1/n. REQUIRES: n > 0.
  bool OneIn(uint64_t n) { return Uniform(n) == 0; }

 private:
  std::mt19937_64 engine_;
};

}  // namespace strata
