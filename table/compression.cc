#include "table/compression.h"

#include <lz4.h>
#include <snappy.h>
#include <zstd.h>

#include <climits>
#include <cstdint>
#include <cstring>
#include <memory>

#include "util/coding.h"

namespace strata {

namespace {

constexpr int kZstdLevel = 3;

// Worst-case expansion of each codec (output bytes per input byte, rounded
// up): a Snappy copy-2 tag turns 3 bytes into 64, each LZ4 length-extension
// byte adds at most 255. Used to reject a damaged size before allocating.
constexpr uint64_t kSnappyMaxRatio = 22;
constexpr uint64_t kLZ4MaxRatio = 255;

struct ZstdContexts {
  struct FreeC {
    void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
  };
  struct FreeD {
    void operator()(ZSTD_DCtx* d) const { ZSTD_freeDCtx(d); }
  };
  std::unique_ptr<ZSTD_CCtx, FreeC> cctx;
  std::unique_ptr<ZSTD_DCtx, FreeD> dctx;
};

// One compression and one decompression context per thread: creating a
// level-3 context per block would cost an allocation of several hundred KiB.
ZstdContexts& ThreadZstd() {
  thread_local ZstdContexts contexts;
  return contexts;
}

// Largest stored size that still counts as worth compressing `n` raw bytes.
size_t MaxStoredSize(size_t n) {
  const size_t limit = n - n / 8;
  return limit == 0 ? 0 : limit - 1;
}

bool CompressSnappy(const Slice& raw, std::string* out) {
  out->resize(snappy::MaxCompressedLength(raw.size()));
  size_t len = 0;
  snappy::RawCompress(raw.data(), raw.size(), out->data(), &len);
  if (len > MaxStoredSize(raw.size())) return false;
  out->resize(len);
  return true;
}

// Writes the varint32 raw size into *out, sized to the prefix plus
// `payload_capacity`, and returns the prefix length; 0 when even the prefix
// alone leaves no room for a worthwhile payload.
size_t StartPrefixed(const Slice& raw, size_t payload_capacity, std::string* out) {
  const size_t max_stored = MaxStoredSize(raw.size());
  char prefix[kMaxVarint32Length];
  const size_t prefix_len =
      static_cast<size_t>(EncodeVarint32(prefix, static_cast<uint32_t>(raw.size())) - prefix);
  if (max_stored <= prefix_len) return 0;
  out->resize(prefix_len + payload_capacity);
  out->replace(0, prefix_len, prefix, prefix_len);
  return prefix_len;
}

bool CompressLZ4(const Slice& raw, std::string* out) {
  // LZ4 in limited-output mode succeeds whenever the block fits and writes
  // the same bytes as with a full bound, so it gets only the space a
  // worthwhile result may use: an incompressible block fails early.
  const size_t max_stored = MaxStoredSize(raw.size());
  const size_t prefix_len = StartPrefixed(raw, max_stored, out);
  if (prefix_len == 0) return false;
  const int n =
      LZ4_compress_default(raw.data(), out->data() + prefix_len, static_cast<int>(raw.size()),
                           static_cast<int>(out->size() - prefix_len));
  if (n <= 0 || prefix_len + static_cast<size_t>(n) > max_stored) return false;
  out->resize(prefix_len + static_cast<size_t>(n));
  return true;
}

bool CompressZstd(const Slice& raw, std::string* out) {
  // zstd may fail with "destination too small" even when its result would
  // fit a tighter buffer, so it gets its full bound.
  const size_t prefix_len = StartPrefixed(raw, ZSTD_compressBound(raw.size()), out);
  if (prefix_len == 0) return false;
  ZstdContexts& z = ThreadZstd();
  if (z.cctx == nullptr) {
    z.cctx.reset(ZSTD_createCCtx());
    if (z.cctx == nullptr) return false;
  }
  const size_t n = ZSTD_compressCCtx(z.cctx.get(), out->data() + prefix_len,
                                     out->size() - prefix_len, raw.data(), raw.size(), kZstdLevel);
  if (ZSTD_isError(n) || prefix_len + n > MaxStoredSize(raw.size())) return false;
  out->resize(prefix_len + n);
  return true;
}

Status UncompressSnappy(const Slice& stored, BlockBuffer* out) {
  size_t ulen = 0;
  if (!snappy::GetUncompressedLength(stored.data(), stored.size(), &ulen)) {
    return Status::Corruption("Snappy: bad uncompressed length header");
  }
  if (ulen >= kMaxCompressibleBlockSize ||
      ulen > static_cast<uint64_t>(stored.size()) * kSnappyMaxRatio) {
    return Status::Corruption("Snappy: implausible uncompressed length ", std::to_string(ulen));
  }
  out->Allocate(ulen);
  if (!snappy::RawUncompress(stored.data(), stored.size(), out->data())) {
    return Status::Corruption("Snappy: damaged compressed block");
  }
  return Status::OK();
}

// Parses the varint32 raw-size prefix of LZ4/ZSTD blocks; on success
// `*payload` holds the codec's bytes.
Status ReadSizePrefix(const char* codec, const Slice& stored, uint32_t* ulen, Slice* payload) {
  *payload = stored;
  if (!GetVarint32(payload, ulen)) {
    return Status::Corruption(codec, ": missing or bad uncompressed size prefix");
  }
  if (*ulen >= kMaxCompressibleBlockSize) {
    return Status::Corruption(codec, ": uncompressed size prefix too large");
  }
  return Status::OK();
}

Status UncompressLZ4(const Slice& stored, BlockBuffer* out) {
  uint32_t ulen = 0;
  Slice payload;
  Status s = ReadSizePrefix("LZ4", stored, &ulen, &payload);
  if (!s.ok()) return s;
  if (payload.size() > static_cast<size_t>(INT_MAX) ||
      ulen > static_cast<uint64_t>(payload.size()) * kLZ4MaxRatio + 16) {
    return Status::Corruption("LZ4: size prefix does not fit the compressed size");
  }
  out->Allocate(ulen);
  const int n = LZ4_decompress_safe(payload.data(), out->data(), static_cast<int>(payload.size()),
                                    static_cast<int>(ulen));
  if (n < 0) return Status::Corruption("LZ4: damaged compressed block");
  if (static_cast<uint32_t>(n) != ulen) {
    return Status::Corruption("LZ4: decompressed size differs from size prefix");
  }
  return Status::OK();
}

Status UncompressZstd(const Slice& stored, BlockBuffer* out) {
  uint32_t ulen = 0;
  Slice payload;
  Status s = ReadSizePrefix("ZSTD", stored, &ulen, &payload);
  if (!s.ok()) return s;
  const unsigned long long frame_size = ZSTD_getFrameContentSize(payload.data(), payload.size());
  if (frame_size == ZSTD_CONTENTSIZE_ERROR) {
    return Status::Corruption("ZSTD: bad frame header");
  }
  if (frame_size != ZSTD_CONTENTSIZE_UNKNOWN && frame_size != ulen) {
    return Status::Corruption("ZSTD: frame content size differs from size prefix");
  }
  ZstdContexts& z = ThreadZstd();
  if (z.dctx == nullptr) {
    z.dctx.reset(ZSTD_createDCtx());
    if (z.dctx == nullptr) return Status::Corruption("ZSTD: cannot create decompression context");
  }
  out->Allocate(ulen);
  const size_t n =
      ZSTD_decompressDCtx(z.dctx.get(), out->data(), ulen, payload.data(), payload.size());
  if (ZSTD_isError(n)) {
    return Status::Corruption("ZSTD: damaged compressed block: ", ZSTD_getErrorName(n));
  }
  if (n != ulen) return Status::Corruption("ZSTD: decompressed size differs from size prefix");
  return Status::OK();
}

}  // namespace

bool CompressBlock(CompressionType type, const Slice& raw, std::string* out) {
  out->clear();
  if (raw.size() >= kMaxCompressibleBlockSize) return false;
  bool ok = false;
  switch (type) {
    case kSnappyCompression:
      ok = CompressSnappy(raw, out);
      break;
    case kLZ4Compression:
      ok = CompressLZ4(raw, out);
      break;
    case kZSTD:
      ok = CompressZstd(raw, out);
      break;
    default:
      break;
  }
  if (!ok) out->clear();
  return ok;
}

namespace {

// A thread's recycled block buffers (see BlockBuffer).
struct BufferStash {
  struct Slot {
    char* data;
    size_t capacity;
  };
  Slot slots[BlockBuffer::kStashSlots];
  int count = 0;
  ~BufferStash();
};

thread_local BufferStash tls_stash;
// False once this thread's stash is destroyed: buffers released later (by
// objects destroyed after it at thread or program exit) are freed at once.
thread_local bool tls_stash_alive = true;

BufferStash::~BufferStash() {
  tls_stash_alive = false;
  for (int i = 0; i < count; ++i) delete[] slots[i].data;
  count = 0;
}

}  // namespace

void BlockBuffer::Allocate(size_t n) {
  if (data_ != nullptr && capacity_ >= n && capacity_ - n <= n / 2) {
    size_ = n;  // this buffer already fits
    return;
  }
  Release();
  BufferStash& stash = tls_stash;
  for (int i = tls_stash_alive ? stash.count - 1 : -1; i >= 0; --i) {
    const size_t cap = stash.slots[i].capacity;
    if (cap >= n && cap - n <= n / 2) {
      data_ = stash.slots[i].data;
      capacity_ = cap;
      size_ = n;
      stash.slots[i] = stash.slots[--stash.count];
      return;
    }
  }
  // Capacity in 512-byte steps, so the similar sizes of one table's
  // blocks can share buffers.
  capacity_ = n <= kMaxRecycledSize ? (n + 511) & ~size_t{511} : n;
  data_ = new char[capacity_ == 0 ? 1 : capacity_];
  size_ = n;
}

void BlockBuffer::Release() {
  if (data_ == nullptr) return;
  if (capacity_ <= kMaxRecycledSize && tls_stash_alive) {
    BufferStash& stash = tls_stash;
    if (stash.count == kStashSlots) {
      // Full: one entry makes room.
      delete[] stash.slots[0].data;
      stash.slots[0] = stash.slots[--stash.count];
    }
    stash.slots[stash.count++] = {data_, capacity_};
  } else {
    delete[] data_;
  }
  data_ = nullptr;
  size_ = capacity_ = 0;
}

Status UncompressBlock(CompressionType type, const Slice& stored, std::string* out) {
  BlockBuffer buf;
  Status s = UncompressBlock(type, stored, &buf);
  if (s.ok()) out->assign(buf.data(), buf.size());
  return s;
}

Status UncompressBlock(CompressionType type, const Slice& stored, BlockBuffer* out) {
  switch (static_cast<unsigned char>(type)) {
    case kNoCompression:
      out->Allocate(stored.size());
      if (stored.size() != 0) std::memcpy(out->data(), stored.data(), stored.size());
      return Status::OK();
    case kSnappyCompression:
      return UncompressSnappy(stored, out);
    case kLZ4Compression:
    case kLZ4HCCompression:
      return UncompressLZ4(stored, out);
    case kZSTD:
    case kZSTDNotFinalCompressionCode:
      return UncompressZstd(stored, out);
    case kZlibCompression:
    case kBZip2Compression:
    case kXpressCompression:
      return Status::NotSupported(CompressionTypeName(type), " decompression is not supported");
    default:
      return Status::Corruption("unknown compression type ",
                                std::to_string(static_cast<unsigned>(type)));
  }
}

const char* CompressionTypeName(CompressionType type) {
  switch (static_cast<unsigned char>(type)) {
    case kNoCompression:
      return "NoCompression";
    case kSnappyCompression:
      return "Snappy";
    case kZlibCompression:
      return "Zlib";
    case kBZip2Compression:
      return "BZip2";
    case kLZ4Compression:
      return "LZ4";
    case kLZ4HCCompression:
      return "LZ4HC";
    case kXpressCompression:
      return "Xpress";
    case kZSTD:
      return "ZSTD";
    case kZSTDNotFinalCompressionCode:
      return "ZSTDNotFinal";
    case kDisableCompressionOption:
      return "DisableOption";
    default:
      return "Unknown";
  }
}

bool CompressionTypeSupported(CompressionType type) {
  switch (type) {
    case kNoCompression:
    case kSnappyCompression:
    case kLZ4Compression:
    case kZSTD:
      return true;
    default:
      return false;
  }
}

}  // namespace strata
