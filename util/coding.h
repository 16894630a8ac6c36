// Fixed-width and variable-length integer coding (docs/format/encoding.md).
//
//  - fixed16/32/64: little-endian, 2/4/8 bytes.
//  - varint32/64: LEB128, 7 payload bits per byte, low group first, 0x80 set
//    on every byte but the last; at most 5 / 10 bytes.
//  - length-prefixed slice: varint32 length, then the bytes.
// Decoders take untrusted input: they never read past the given limit and
// report failure (false / nullptr) on truncated or over-long encodings.
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "strata/slice.h"

namespace strata {

constexpr int kMaxVarint32Length = 5;
constexpr int kMaxVarint64Length = 10;

inline void EncodeFixed16(char* buf, uint16_t v) { memcpy(buf, &v, sizeof(v)); }
inline void EncodeFixed32(char* buf, uint32_t v) { memcpy(buf, &v, sizeof(v)); }
inline void EncodeFixed64(char* buf, uint64_t v) { memcpy(buf, &v, sizeof(v)); }

inline uint16_t DecodeFixed16(const char* p) {
  uint16_t v;
  memcpy(&v, p, sizeof(v));
  return v;
}
inline uint32_t DecodeFixed32(const char* p) {
  uint32_t v;
  memcpy(&v, p, sizeof(v));
  return v;
}
inline uint64_t DecodeFixed64(const char* p) {
  uint64_t v;
  memcpy(&v, p, sizeof(v));
  return v;
}

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "fixed-width coding assumes a little-endian host");

inline void PutFixed16(std::string* dst, uint16_t v) {
  char buf[sizeof(v)];
  EncodeFixed16(buf, v);
  dst->append(buf, sizeof(buf));
}
inline void PutFixed32(std::string* dst, uint32_t v) {
  char buf[sizeof(v)];
  EncodeFixed32(buf, v);
  dst->append(buf, sizeof(buf));
}
inline void PutFixed64(std::string* dst, uint64_t v) {
  char buf[sizeof(v)];
  EncodeFixed64(buf, v);
  dst->append(buf, sizeof(buf));
}

// Writes v at dst; returns the byte after the last one written.
inline char* EncodeVarint32(char* dst, uint32_t v) {
  auto* p = reinterpret_cast<unsigned char*>(dst);
  while (v >= 0x80) {
    *p++ = static_cast<unsigned char>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<unsigned char>(v);
  return reinterpret_cast<char*>(p);
}
inline char* EncodeVarint64(char* dst, uint64_t v) {
  auto* p = reinterpret_cast<unsigned char*>(dst);
  while (v >= 0x80) {
    *p++ = static_cast<unsigned char>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<unsigned char>(v);
  return reinterpret_cast<char*>(p);
}

inline int VarintLength(uint64_t v) {
  int len = 1;
  while (v >= 0x80) {
    v >>= 7;
    len++;
  }
  return len;
}

inline void PutVarint32(std::string* dst, uint32_t v) {
  char buf[kMaxVarint32Length];
  dst->append(buf, EncodeVarint32(buf, v) - buf);
}
inline void PutVarint64(std::string* dst, uint64_t v) {
  char buf[kMaxVarint64Length];
  dst->append(buf, EncodeVarint64(buf, v) - buf);
}
inline void PutVarint32Varint32(std::string* dst, uint32_t a, uint32_t b) {
  char buf[2 * kMaxVarint32Length];
  char* p = EncodeVarint32(buf, a);
  p = EncodeVarint32(p, b);
  dst->append(buf, p - buf);
}
inline void PutLengthPrefixedSlice(std::string* dst, const Slice& value) {
  PutVarint32(dst, static_cast<uint32_t>(value.size()));
  dst->append(value.data(), value.size());
}

// Slow paths of the decoders below (multi-byte encodings).
const char* GetVarint32PtrFallback(const char* p, const char* limit, uint32_t* value);
const char* GetVarint64PtrFallback(const char* p, const char* limit, uint64_t* value);

// Decodes a varint from [p, limit). Returns the byte after it, or nullptr if
// the encoding is truncated or too long.
inline const char* GetVarint32Ptr(const char* p, const char* limit, uint32_t* value) {
  if (p < limit) {
    uint32_t result = *reinterpret_cast<const unsigned char*>(p);
    if ((result & 0x80) == 0) {
      *value = result;
      return p + 1;
    }
  }
  return GetVarint32PtrFallback(p, limit, value);
}
inline const char* GetVarint64Ptr(const char* p, const char* limit, uint64_t* value) {
  if (p < limit) {
    uint64_t result = *reinterpret_cast<const unsigned char*>(p);
    if ((result & 0x80) == 0) {
      *value = result;
      return p + 1;
    }
  }
  return GetVarint64PtrFallback(p, limit, value);
}

// Decode from the front of *input and advance it; false on bad input (input
// is then unspecified).
inline bool GetVarint32(Slice* input, uint32_t* value) {
  const char* p = input->data();
  const char* limit = p + input->size();
  const char* q = GetVarint32Ptr(p, limit, value);
  if (q == nullptr) return false;
  *input = Slice(q, static_cast<size_t>(limit - q));
  return true;
}
inline bool GetVarint64(Slice* input, uint64_t* value) {
  const char* p = input->data();
  const char* limit = p + input->size();
  const char* q = GetVarint64Ptr(p, limit, value);
  if (q == nullptr) return false;
  *input = Slice(q, static_cast<size_t>(limit - q));
  return true;
}
inline bool GetFixed32(Slice* input, uint32_t* value) {
  if (input->size() < sizeof(uint32_t)) return false;
  *value = DecodeFixed32(input->data());
  input->remove_prefix(sizeof(uint32_t));
  return true;
}
inline bool GetFixed64(Slice* input, uint64_t* value) {
  if (input->size() < sizeof(uint64_t)) return false;
  *value = DecodeFixed64(input->data());
  input->remove_prefix(sizeof(uint64_t));
  return true;
}
inline bool GetLengthPrefixedSlice(Slice* input, Slice* result) {
  uint32_t len;
  if (!GetVarint32(input, &len) || input->size() < len) return false;
  *result = Slice(input->data(), len);
  input->remove_prefix(len);
  return true;
}
// Returns the byte after the slice, or nullptr.
inline const char* GetLengthPrefixedSlicePtr(const char* p, const char* limit, Slice* result) {
  uint32_t len;
  p = GetVarint32Ptr(p, limit, &len);
  if (p == nullptr || static_cast<size_t>(limit - p) < len) return nullptr;
  *result = Slice(p, len);
  return p + len;
}

}  // namespace strata
