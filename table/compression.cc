#include "table/compression.h"

#include <lz4.h>
#include <lz4hc.h>
#include <snappy.h>
#include <zdict.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>

#include "util/coding.h"

namespace strata {

namespace {

constexpr int kZstdDefaultLevel = 3;  // ZSTD_CLEVEL_DEFAULT, as RocksDB uses it
constexpr int kZlibMemLevel = 8;      // RocksDB's deflateInit2 memLevel

// Worst-case expansion of each codec (output bytes per input byte, rounded
// up): a Snappy copy-2 tag turns 3 bytes into 64, each LZ4 length-extension
// byte adds at most 255. Used to reject a damaged size before allocating.
constexpr uint64_t kSnappyMaxRatio = 22;
constexpr uint64_t kLZ4MaxRatio = 255;
// Deflate's limit is 1032:1 (a 258-byte match in about 2 bits).
constexpr uint64_t kZlibMaxRatio = 1040;

int LevelOr(const CompressionOptions& opts, int codec_default) {
  return opts.level == CompressionOptions::kDefaultCompressionLevel ? codec_default : opts.level;
}

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

// LZ4 stream states reused by a thread (a high-compression state is about
// 256 KiB: too much to allocate per block).
struct LZ4States {
  struct FreeHC {
    void operator()(LZ4_streamHC_t* s) const { LZ4_freeStreamHC(s); }
  };
  struct FreeFast {
    void operator()(LZ4_stream_t* s) const { LZ4_freeStream(s); }
  };
  std::unique_ptr<LZ4_streamHC_t, FreeHC> hc;
  std::unique_ptr<LZ4_stream_t, FreeFast> fast;
};

LZ4States& ThreadLZ4() {
  thread_local LZ4States states;
  return states;
}

bool CompressLZ4(bool high, int level, const CompressionDict* dict, const Slice& raw,
                 std::string* out) {
  // LZ4 in limited-output mode succeeds whenever the block fits and writes
  // the same bytes as with a full bound, so it gets only the space a
  // worthwhile result may use: an incompressible block fails early.
  const size_t max_stored = MaxStoredSize(raw.size());
  const size_t prefix_len = StartPrefixed(raw, max_stored, out);
  if (prefix_len == 0) return false;
  char* dst = out->data() + prefix_len;
  const int cap = static_cast<int>(out->size() - prefix_len);
  const int len = static_cast<int>(raw.size());
  const bool with_dict = dict != nullptr && !dict->raw().empty();
  int n = 0;
  if (high) {
    LZ4States& st = ThreadLZ4();
    if (st.hc == nullptr) {
      st.hc.reset(LZ4_createStreamHC());
      if (st.hc == nullptr) return false;
    }
    // Levels below 1 mean LZ4HC's default (9).
    LZ4_resetStreamHC_fast(st.hc.get(), level);
    if (with_dict) {
      LZ4_loadDictHC(st.hc.get(), dict->raw().data(), static_cast<int>(dict->raw().size()));
    }
    n = LZ4_compress_HC_continue(st.hc.get(), raw.data(), dst, len, cap);
  } else if (with_dict) {
    LZ4States& st = ThreadLZ4();
    if (st.fast == nullptr) {
      st.fast.reset(LZ4_createStream());
      if (st.fast == nullptr) return false;
    }
    LZ4_resetStream_fast(st.fast.get());
    LZ4_loadDict(st.fast.get(), dict->raw().data(), static_cast<int>(dict->raw().size()));
    n = LZ4_compress_fast_continue(st.fast.get(), raw.data(), dst, len, cap, 1);
  } else {
    n = LZ4_compress_default(raw.data(), dst, len, cap);
  }
  if (n <= 0 || prefix_len + static_cast<size_t>(n) > max_stored) return false;
  out->resize(prefix_len + static_cast<size_t>(n));
  return true;
}

bool CompressZstd(int level, const CompressionDict* dict, const Slice& raw, std::string* out) {
  // zstd may fail with "destination too small" even when its result would
  // fit a tighter buffer, so it gets its full bound.
  const size_t prefix_len = StartPrefixed(raw, ZSTD_compressBound(raw.size()), out);
  if (prefix_len == 0) return false;
  ZstdContexts& z = ThreadZstd();
  if (z.cctx == nullptr) {
    z.cctx.reset(ZSTD_createCCtx());
    if (z.cctx == nullptr) return false;
  }
  char* dst = out->data() + prefix_len;
  const size_t cap = out->size() - prefix_len;
  size_t n;
  if (dict != nullptr && dict->zstd_cdict() != nullptr) {
    n = ZSTD_compress_usingCDict(z.cctx.get(), dst, cap, raw.data(), raw.size(),
                                 dict->zstd_cdict());
  } else if (dict != nullptr && !dict->raw().empty()) {
    n = ZSTD_compress_usingDict(z.cctx.get(), dst, cap, raw.data(), raw.size(), dict->raw().data(),
                                dict->raw().size(), level);
  } else {
    n = ZSTD_compressCCtx(z.cctx.get(), dst, cap, raw.data(), raw.size(), level);
  }
  if (ZSTD_isError(n) || prefix_len + n > MaxStoredSize(raw.size())) return false;
  out->resize(prefix_len + n);
  return true;
}

bool CompressZlib(const CompressionOptions& opts, const CompressionDict* dict, const Slice& raw,
                  std::string* out) {
  const size_t max_stored = MaxStoredSize(raw.size());
  const size_t prefix_len = StartPrefixed(raw, max_stored, out);
  if (prefix_len == 0) return false;
  z_stream zs;
  std::memset(&zs, 0, sizeof(zs));
  if (deflateInit2(&zs, LevelOr(opts, Z_DEFAULT_COMPRESSION), Z_DEFLATED, opts.window_bits,
                   kZlibMemLevel, opts.strategy) != Z_OK) {
    return false;
  }
  bool ok = true;
  if (dict != nullptr && !dict->raw().empty()) {
    ok = deflateSetDictionary(&zs, reinterpret_cast<const Bytef*>(dict->raw().data()),
                              static_cast<uInt>(dict->raw().size())) == Z_OK;
  }
  if (ok) {
    // Output limited to a worthwhile size: a stream that does not end
    // inside it is not worth storing.
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.data()));
    zs.avail_in = static_cast<uInt>(raw.size());
    zs.next_out = reinterpret_cast<Bytef*>(out->data() + prefix_len);
    zs.avail_out = static_cast<uInt>(max_stored - prefix_len);
    ok = deflate(&zs, Z_FINISH) == Z_STREAM_END;
  }
  const size_t n = zs.total_out;
  deflateEnd(&zs);
  if (!ok || prefix_len + n > max_stored) return false;
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

Status UncompressLZ4(const char* codec, const Slice& stored, BlockBuffer* out,
                     const UncompressionDict* dict) {
  uint32_t ulen = 0;
  Slice payload;
  Status s = ReadSizePrefix(codec, stored, &ulen, &payload);
  if (!s.ok()) return s;
  if (payload.size() > static_cast<size_t>(INT_MAX) ||
      ulen > static_cast<uint64_t>(payload.size()) * kLZ4MaxRatio + 16) {
    return Status::Corruption(codec, ": size prefix does not fit the compressed size");
  }
  out->Allocate(ulen);
  const int n =
      dict != nullptr && !dict->raw().empty()
          ? LZ4_decompress_safe_usingDict(payload.data(), out->data(),
                                          static_cast<int>(payload.size()), static_cast<int>(ulen),
                                          dict->raw().data(), static_cast<int>(dict->raw().size()))
          : LZ4_decompress_safe(payload.data(), out->data(), static_cast<int>(payload.size()),
                                static_cast<int>(ulen));
  if (n < 0) return Status::Corruption(codec, ": damaged compressed block");
  if (static_cast<uint32_t>(n) != ulen) {
    return Status::Corruption(codec, ": decompressed size differs from size prefix");
  }
  return Status::OK();
}

Status UncompressZstd(const Slice& stored, BlockBuffer* out, const UncompressionDict* dict) {
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
  size_t n;
  if (dict != nullptr && dict->zstd_ddict() != nullptr) {
    n = ZSTD_decompress_usingDDict(z.dctx.get(), out->data(), ulen, payload.data(), payload.size(),
                                   dict->zstd_ddict());
  } else if (dict != nullptr && !dict->raw().empty()) {
    n = ZSTD_decompress_usingDict(z.dctx.get(), out->data(), ulen, payload.data(), payload.size(),
                                  dict->raw().data(), dict->raw().size());
  } else {
    n = ZSTD_decompressDCtx(z.dctx.get(), out->data(), ulen, payload.data(), payload.size());
  }
  if (ZSTD_isError(n)) {
    return Status::Corruption("ZSTD: damaged compressed block: ", ZSTD_getErrorName(n));
  }
  if (n != ulen) return Status::Corruption("ZSTD: decompressed size differs from size prefix");
  return Status::OK();
}

// One inflate pass over `payload` into the ulen bytes of *out; true when the
// stream ends exactly there.
bool InflateOnce(const Slice& payload, int window_bits, const UncompressionDict* dict,
                 BlockBuffer* out, std::string* why) {
  z_stream zs;
  std::memset(&zs, 0, sizeof(zs));
  if (inflateInit2(&zs, window_bits) != Z_OK) {
    *why = "cannot initialize inflate";
    return false;
  }
  const bool raw_stream = window_bits < 0;
  const bool with_dict = dict != nullptr && !dict->raw().empty();
  bool ok = true;
  // A raw stream takes its preset dictionary up front; a zlib-wrapped one
  // asks for it (Z_NEED_DICT) after its header.
  if (with_dict && raw_stream &&
      inflateSetDictionary(&zs, reinterpret_cast<const Bytef*>(dict->raw().data()),
                           static_cast<uInt>(dict->raw().size())) != Z_OK) {
    *why = "cannot set dictionary";
    ok = false;
  }
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(payload.data()));
  zs.avail_in = static_cast<uInt>(payload.size());
  zs.next_out = reinterpret_cast<Bytef*>(out->data());
  zs.avail_out = static_cast<uInt>(out->size());
  int rc = ok ? inflate(&zs, Z_FINISH) : Z_DATA_ERROR;
  if (ok && rc == Z_NEED_DICT && with_dict) {
    rc = inflateSetDictionary(&zs, reinterpret_cast<const Bytef*>(dict->raw().data()),
                              static_cast<uInt>(dict->raw().size()));
    if (rc == Z_OK) rc = inflate(&zs, Z_FINISH);
  }
  if (ok && rc != Z_STREAM_END) {
    *why = rc == Z_BUF_ERROR || (rc == Z_OK && zs.avail_out == 0)
               ? "stream longer than its size prefix or truncated"
               : (zs.msg != nullptr ? zs.msg : "damaged stream");
    ok = false;
  }
  if (ok && zs.total_out != out->size()) {
    *why = "decompressed size differs from size prefix";
    ok = false;
  }
  inflateEnd(&zs);
  return ok;
}

Status UncompressZlib(const Slice& stored, BlockBuffer* out, const UncompressionDict* dict) {
  uint32_t ulen = 0;
  Slice payload;
  Status s = ReadSizePrefix("Zlib", stored, &ulen, &payload);
  if (!s.ok()) return s;
  if (payload.size() > UINT32_MAX ||
      ulen > static_cast<uint64_t>(payload.size()) * kZlibMaxRatio + 64) {
    return Status::Corruption("Zlib: size prefix does not fit the compressed size");
  }
  out->Allocate(ulen);
  // RocksDB writes raw deflate (window_bits -14 by default; -15 reads any
  // raw window). A stream written with positive window_bits has a zlib
  // header: read it too.
  std::string why;
  if (InflateOnce(payload, -15, dict, out, &why)) return Status::OK();
  std::string why_wrapped;
  if (InflateOnce(payload, 15, dict, out, &why_wrapped)) return Status::OK();
  return Status::Corruption("Zlib: damaged compressed block: ", why);
}

}  // namespace

bool CompressBlock(CompressionType type, const Slice& raw, std::string* out) {
  static const CompressionOptions kDefaults;
  return CompressBlock(type, kDefaults, nullptr, raw, out);
}

bool CompressBlock(CompressionType type, const CompressionOptions& opts,
                   const CompressionDict* dict, const Slice& raw, std::string* out) {
  out->clear();
  if (raw.size() >= kMaxCompressibleBlockSize) return false;
  bool ok = false;
  switch (type) {
    case kSnappyCompression:
      ok = CompressSnappy(raw, out);
      break;
    case kZlibCompression:
      ok = CompressZlib(opts, dict, raw, out);
      break;
    case kLZ4Compression:
      ok = CompressLZ4(false, 0, dict, raw, out);
      break;
    case kLZ4HCCompression:
      // 0 is LZ4HC's default level.
      ok = CompressLZ4(true, LevelOr(opts, 0), dict, raw, out);
      break;
    case kZSTD:
      ok = CompressZstd(LevelOr(opts, kZstdDefaultLevel), dict, raw, out);
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
  if (allocator_ != nullptr) {
    // Never 0 bytes: an allocator may answer malloc(0)'s nullptr.
    const size_t want = n == 0 ? 1 : n;
    data_ = static_cast<char*>(allocator_->Allocate(want));
    capacity_ = allocator_->UsableSize(data_, want);
    size_ = n;
    return;
  }
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
  if (allocator_ != nullptr) {
    allocator_->Deallocate(data_);
    data_ = nullptr;
    size_ = capacity_ = 0;
    return;
  }
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

Status UncompressBlock(CompressionType type, const Slice& stored, std::string* out,
                       const UncompressionDict* dict) {
  BlockBuffer buf;
  Status s = UncompressBlock(type, stored, &buf, dict);
  if (s.ok()) out->assign(buf.data(), buf.size());
  return s;
}

Status UncompressBlock(CompressionType type, const Slice& stored, BlockBuffer* out,
                       const UncompressionDict* dict) {
  switch (static_cast<unsigned char>(type)) {
    case kNoCompression:
      out->Allocate(stored.size());
      if (stored.size() != 0) std::memcpy(out->data(), stored.data(), stored.size());
      return Status::OK();
    case kSnappyCompression:
      return UncompressSnappy(stored, out);
    case kLZ4Compression:
    case kLZ4HCCompression:
      return UncompressLZ4(CompressionTypeName(type), stored, out, dict);
    case kZSTD:
    case kZSTDNotFinalCompressionCode:
      return UncompressZstd(stored, out, dict);
    case kZlibCompression:
      return UncompressZlib(stored, out, dict);
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
    case kZlibCompression:
    case kLZ4Compression:
    case kLZ4HCCompression:
    case kZSTD:
      return true;
    default:
      return false;
  }
}

bool CompressionTypeUsesDictionary(CompressionType type) {
  switch (type) {
    case kZlibCompression:
    case kLZ4Compression:
    case kLZ4HCCompression:
    case kZSTD:
      return true;
    default:
      return false;
  }
}

CompressionDict::CompressionDict(std::string raw, CompressionType type, int level)
    : raw_(std::move(raw)) {
  if (type == kZSTD && !raw_.empty()) {
    const int l = level == CompressionOptions::kDefaultCompressionLevel ? kZstdDefaultLevel : level;
    zstd_cdict_ = ZSTD_createCDict(raw_.data(), raw_.size(), l);
  }
}

CompressionDict::~CompressionDict() { ZSTD_freeCDict(zstd_cdict_); }

Status UncompressionDict::Create(std::string raw, bool zstd,
                                 std::unique_ptr<UncompressionDict>* out) {
  std::unique_ptr<UncompressionDict> d(new UncompressionDict());
  d->raw_ = std::move(raw);
  if (zstd && !d->raw_.empty()) {
    // A dictionary starting with zstd's magic number must parse as one;
    // anything else is raw content.
    d->zstd_ddict_ = ZSTD_createDDict(d->raw_.data(), d->raw_.size());
    if (d->zstd_ddict_ == nullptr) {
      return Status::Corruption("ZSTD: the compression dictionary does not parse");
    }
  }
  *out = std::move(d);
  return Status::OK();
}

UncompressionDict::~UncompressionDict() { ZSTD_freeDDict(zstd_ddict_); }

size_t UncompressionDict::ApproximateMemoryUsage() const {
  return raw_.capacity() + (zstd_ddict_ != nullptr ? ZSTD_sizeof_DDict(zstd_ddict_) : 0);
}

std::string BuildCompressionDictionary(const CompressionOptions& opts, std::string samples,
                                       const std::vector<size_t>& sample_lens) {
  const size_t max_bytes = opts.max_dict_bytes;
  if (samples.empty() || max_bytes == 0) return std::string();
  if (opts.zstd_max_train_bytes == 0) {
    if (samples.size() > max_bytes) samples.resize(max_bytes);
    return samples;
  }
  std::string dict(max_bytes, '\0');
  size_t n;
  if (opts.use_zstd_dict_trainer) {
    n = ZDICT_trainFromBuffer(dict.data(), max_bytes, samples.data(), sample_lens.data(),
                              static_cast<unsigned>(sample_lens.size()));
  } else {
    ZDICT_params_t params;
    std::memset(&params, 0, sizeof(params));
    params.compressionLevel = LevelOr(opts, kZstdDefaultLevel);
    // The content part is the start of the samples, at most max_bytes.
    n = ZDICT_finalizeDictionary(
        dict.data(), max_bytes, samples.data(), std::min(samples.size(), max_bytes), samples.data(),
        sample_lens.data(), static_cast<unsigned>(sample_lens.size()), params);
  }
  if (ZDICT_isError(n)) return std::string();
  dict.resize(n);
  return dict;
}

namespace {

// The compatibility name of RocksDB's built-in compression manager (the
// block encodings of compression.h).
constexpr char kBuiltinManagerName[] = "BuiltinV2";

}  // namespace

std::string CompressionNameProperty(uint32_t format_version, CompressionType configured,
                                    const std::bitset<256>& used) {
  if (format_version < 7) return CompressionTypeName(configured);
  std::string name = configured == kNoCompression ? "" : kBuiltinManagerName;
  name.push_back(';');
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (size_t t = 1; t < used.size(); ++t) {
    if (!used.test(t)) continue;
    name.push_back(kHex[t >> 4]);
    name.push_back(kHex[t & 15]);
  }
  name.push_back(';');
  return name;
}

Status CheckCompressionNameProperty(uint32_t format_version, const std::string& name,
                                    bool* uses_zstd) {
  *uses_zstd = false;
  if (format_version < 7 || name.empty()) {
    *uses_zstd = name == "ZSTD" || name == "ZSTDNotFinal";
    return Status::OK();
  }
  const size_t sep = name.find(';');
  if (sep == std::string::npos) {
    return Status::Corruption("compression_name property without ';': ", name);
  }
  const std::string manager = name.substr(0, sep);
  if (manager != kBuiltinManagerName && !manager.empty() && manager != "nullptr") {
    return Status::NotSupported("table was written with compression manager '" + manager +
                                "' (a custom compression algorithm), which Strata does not have");
  }
  const size_t end = name.find(';', sep + 1);
  if (end == std::string::npos || (end - sep - 1) % 2 != 0) {
    return Status::Corruption("malformed compression types in compression_name property: ", name);
  }
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  bool any = false;
  for (size_t i = sep + 1; i < end; i += 2) {
    const int hi = hex(name[i]);
    const int lo = hex(name[i + 1]);
    const int t = hi < 0 || lo < 0 ? -1 : hi * 16 + lo;
    if (t <= 0 || t >= static_cast<int>(kDisableCompressionOption)) {
      return Status::Corruption("bad compression type in compression_name property: ", name);
    }
    any = true;
    const auto type = static_cast<CompressionType>(t);
    if (type == kZSTD || type == kZSTDNotFinalCompressionCode) *uses_zstd = true;
    if (manager == kBuiltinManagerName && !CompressionTypeSupported(type) &&
        type != kZSTDNotFinalCompressionCode) {
      return Status::NotSupported("table uses compression type " +
                                  std::string(CompressionTypeName(type)) + " (0x" +
                                  name.substr(i, 2) + "), which Strata cannot decompress");
    }
  }
  if (manager != kBuiltinManagerName && any) {
    return Status::Corruption("compression types listed without a compression manager: ", name);
  }
  return Status::OK();
}

}  // namespace strata
