// WAL compression over ZSTD's streaming API (see db/log_compression.h).
#include "db/log_compression.h"

#include <zstd.h>

#include "db/log_format.h"
#include "util/coding.h"

namespace strata::log {

bool WalCompressionSupported(CompressionType t) { return t == kZSTD; }

namespace {

class ZstdWalCompressor final : public WalCompressor {
 public:
  explicit ZstdWalCompressor(size_t max_output)
      : max_output_(max_output), cctx_(ZSTD_createCCtx()) {
    // Each frame carries ZSTD's content checksum, as RocksDB writes it.
    ZSTD_CCtx_setParameter(cctx_, ZSTD_c_checksumFlag, 1);
  }
  ~ZstdWalCompressor() override { ZSTD_freeCCtx(cctx_); }
  ZstdWalCompressor(const ZstdWalCompressor&) = delete;
  ZstdWalCompressor& operator=(const ZstdWalCompressor&) = delete;

  void Reset() override {
    ZSTD_CCtx_reset(cctx_, ZSTD_reset_session_only);
    in_ = {nullptr, 0, 0};
  }

  int Compress(const Slice& record, char* out, size_t* out_len) override {
    *out_len = 0;
    if (record.empty()) return 0;
    if (in_.src != record.data()) in_ = {record.data(), record.size(), 0};
    ZSTD_outBuffer o = {out, max_output_, 0};
    const size_t remaining = ZSTD_compressStream2(cctx_, &o, &in_, ZSTD_e_end);
    if (ZSTD_isError(remaining)) {
      Reset();
      return -1;
    }
    *out_len = o.pos;
    return static_cast<int>(remaining);
  }

 private:
  const size_t max_output_;
  ZSTD_CCtx* const cctx_;
  ZSTD_inBuffer in_ = {nullptr, 0, 0};
};

class ZstdWalDecompressor final : public WalDecompressor {
 public:
  ZstdWalDecompressor() : dctx_(ZSTD_createDCtx()) {}
  ~ZstdWalDecompressor() override { ZSTD_freeDCtx(dctx_); }
  ZstdWalDecompressor(const ZstdWalDecompressor&) = delete;
  ZstdWalDecompressor& operator=(const ZstdWalDecompressor&) = delete;

  void Reset() override { ZSTD_DCtx_reset(dctx_, ZSTD_reset_session_only); }

  Status Decompress(const Slice& fragment, std::string* out) override {
    out->clear();
    ZSTD_inBuffer in = {fragment.data(), fragment.size(), 0};
    // Until the input is consumed and a call leaves room in the output
    // (ZSTD may hold decoded bytes back while the output is full).
    while (true) {
      const size_t start = out->size();
      out->resize(start + kBlockSize);
      ZSTD_outBuffer o = {out->data() + start, kBlockSize, 0};
      const size_t r = ZSTD_decompressStream(dctx_, &o, &in);
      out->resize(start + o.pos);
      if (ZSTD_isError(r)) {
        Reset();
        return Status::Corruption(std::string("compressed WAL record: ") + ZSTD_getErrorName(r));
      }
      if (in.pos == in.size && o.pos < kBlockSize) return Status::OK();
    }
  }

 private:
  ZSTD_DCtx* const dctx_;
};

}  // namespace

std::unique_ptr<WalCompressor> WalCompressor::New(CompressionType type, size_t max_output) {
  if (!WalCompressionSupported(type)) return nullptr;
  return std::make_unique<ZstdWalCompressor>(max_output);
}

std::unique_ptr<WalDecompressor> WalDecompressor::New(CompressionType type) {
  if (!WalCompressionSupported(type)) return nullptr;
  return std::make_unique<ZstdWalDecompressor>();
}

bool DecompressRecordStart(const Slice& fragment, std::string* out) {
  out->clear();
  if (fragment.size() < 4 || DecodeFixed32(fragment.data()) != ZSTD_MAGICNUMBER) return false;
  ZstdWalDecompressor d;
  return d.Decompress(fragment, out).ok();
}

}  // namespace strata::log
