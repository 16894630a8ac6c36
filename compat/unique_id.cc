// compat/unique_id.cc: RocksDB 7.8.3's table unique ids
// (rocksdb/unique_id.h), computed the same way bit for bit.
//
// Layout of the computation (RocksDB's, written down from its behaviour):
//   1. db_session_id (13..24 base-36 digits, either case) decodes to a
//      128-bit (upper, lower): the last 12 digits give b, the ones before
//      give a; upper = a >> 2, lower = (b & 2^62-1) | (a << 62).
//   2. internal id: w0 = lower; (h, l) = XXH3-128(db_id, seed = upper);
//      w1 = h ^ orig_file_number; extended form w2 = l.
//   3. external id: (hi, lo) = bijective mix of (w1 + kHiOffset,
//      w0 + kLoOffset) (XXH3's 9-16-byte 128-bit path on those words);
//      w0 = lo, w1 = hi, w2 += lo + hi.
//   4. bytes: each word as 8 little-endian bytes, w0 first.
#include "rocksdb/unique_id.h"

#include <cstdint>
#include <string>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "rocksdb/slice.h"

namespace rocksdb {
namespace {

// Offsets making an all-zero internal id map to an all-zero external one.
constexpr uint64_t kHiOffsetForZero = 17391078804906429400U;
constexpr uint64_t kLoOffsetForZero = 6417269962128484497U;

bool ParseBase36(const char** p, size_t n, uint64_t* v) {
  for (; n > 0; --n, ++*p) {
    const char c = **p;
    uint64_t digit;
    if (c >= '0' && c <= '9') {
      digit = static_cast<uint64_t>(c - '0');
    } else if (c >= 'A' && c <= 'Z') {
      digit = static_cast<uint64_t>(c - 'A' + 10);
    } else if (c >= 'a' && c <= 'z') {
      digit = static_cast<uint64_t>(c - 'a' + 10);
    } else {
      return false;
    }
    *v = *v * 36 + digit;
  }
  return true;
}

Status DecodeSessionId(const std::string& id, uint64_t* upper, uint64_t* lower) {
  const size_t len = id.size();
  if (len == 0) return Status::NotSupported("Missing db_session_id");
  if (len < 13) return Status::NotSupported("Too short db_session_id");
  if (len > 24) return Status::NotSupported("Too long db_session_id");
  uint64_t a = 0;
  uint64_t b = 0;
  const char* p = id.data();
  if (!ParseBase36(&p, len - 12, &a) || !ParseBase36(&p, 12, &b)) {
    return Status::NotSupported("Bad digit in db_session_id");
  }
  *upper = a >> 2;
  *lower = (b & (UINT64_MAX >> 2)) | (a << 62);
  return Status::OK();
}

uint64_t Avalanche(uint64_t h) {
  h ^= h >> 37;
  h *= 0x165667919E3779F9U;
  h ^= h >> 32;
  return h;
}

uint64_t ByteSwap(uint64_t v) { return __builtin_bswap64(v); }

// A 128 -> 128-bit bijection (XXH3's 128-bit hash of 16 bytes, seed 0).
void BijectiveHash(uint64_t in_hi, uint64_t in_lo, uint64_t* out_hi, uint64_t* out_lo) {
  const uint64_t flip_lo = 0x59973f0033362349U;
  const uint64_t flip_hi = 0xc202797692d63d58U;
  unsigned __int128 m =
      static_cast<unsigned __int128>(in_lo ^ in_hi ^ flip_lo) * 0x9E3779B185EBCA87U;
  uint64_t lo = static_cast<uint64_t>(m);
  uint64_t hi = static_cast<uint64_t>(m >> 64);
  lo += 0x3c0000000000000U;
  in_hi ^= flip_hi;
  hi += in_hi + (static_cast<uint64_t>(static_cast<uint32_t>(in_hi)) * uint64_t{0x85EBCA76});
  lo ^= ByteSwap(hi);
  m = static_cast<unsigned __int128>(lo) * 0xC2B2AE3D27D4EB4FU;
  lo = static_cast<uint64_t>(m);
  hi = static_cast<uint64_t>(m >> 64) + hi * 0xC2B2AE3D27D4EB4FU;
  *out_lo = Avalanche(lo);
  *out_hi = Avalanche(hi);
}

void PutFixed64(char* dst, uint64_t v) {
  for (int i = 0; i < 8; ++i) dst[i] = static_cast<char>(v >> (8 * i));
}

Status UniqueId(const TableProperties& props, bool extended, std::string* out_id) {
  out_id->clear();
  if (props.db_id.empty()) return Status::NotSupported("Missing db_id");
  if (props.original_file_number == 0) {
    return Status::NotSupported("Missing or bad file number");
  }
  if (props.db_session_id.empty()) return Status::NotSupported("Missing db_session_id");
  uint64_t upper = 0;
  uint64_t lower = 0;
  Status s = DecodeSessionId(props.db_session_id, &upper, &lower);
  if (!s.ok()) return s;
  const XXH128_hash_t h = XXH3_128bits_withSeed(props.db_id.data(), props.db_id.size(), upper);
  uint64_t w[3] = {lower, h.high64 ^ props.original_file_number, h.low64};
  uint64_t hi = 0;
  uint64_t lo = 0;
  BijectiveHash(w[1] + kHiOffsetForZero, w[0] + kLoOffsetForZero, &hi, &lo);
  w[0] = lo;
  w[1] = hi;
  w[2] += lo + hi;
  out_id->assign(extended ? 24 : 16, '\0');
  for (int i = 0; i < (extended ? 3 : 2); ++i) PutFixed64(&(*out_id)[8 * i], w[i]);
  return Status::OK();
}

}  // namespace

Status GetUniqueIdFromTableProperties(const TableProperties& props, std::string* out_id) {
  return UniqueId(props, /*extended=*/false, out_id);
}

Status GetExtendedUniqueIdFromTableProperties(const TableProperties& props, std::string* out_id) {
  return UniqueId(props, /*extended=*/true, out_id);
}

std::string UniqueIdToHumanString(const std::string& id) {
  std::string hex = Slice(id).ToString(/*hex=*/true);
  for (size_t i = 16; i < hex.size(); i += 17) hex.insert(i, "-");
  return hex;
}

}  // namespace rocksdb
