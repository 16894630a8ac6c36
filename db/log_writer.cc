#include "db/log_writer.h"

#include <algorithm>

#include "util/coding.h"
#include "util/crc32c.h"

namespace strata::log {

namespace {

// A record larger than this is handed to the file in pieces of about this
// size, so the assembly buffer stays small however big the record is.
constexpr size_t kMaxAssembly = 8 * kBlockSize;

const char kZeros[kRecyclableHeaderSize] = {};

}  // namespace

Writer::Writer(std::unique_ptr<WritableFile> dest, uint64_t log_number, bool recycle_log_files,
               bool manual_flush)
    : dest_(std::move(dest)),
      log_number_(log_number),
      recycle_log_files_(recycle_log_files),
      manual_flush_(manual_flush),
      header_size_(recycle_log_files ? kRecyclableHeaderSize : kHeaderSize),
      block_offset_(0),
      file_size_(0) {
  file_size_ = dest_->GetFileSize();
  block_offset_ = static_cast<size_t>(file_size_ % kBlockSize);
  char prefix[1 + 4];
  EncodeFixed32(prefix + 1, static_cast<uint32_t>(log_number_));
  for (unsigned int t = 0; t <= kMaxRecordType; t++) {
    prefix[0] = static_cast<char>(t);
    type_crc_[t] = crc32c::Value(prefix, IsRecyclableType(t) ? 5 : 1);
  }
}

Writer::~Writer() {
  if (dest_ != nullptr) dest_->Flush().PermitUncheckedError();
}

Status Writer::AddCompressionTypeRecord(CompressionType type) {
  if (dest_ == nullptr) return Status::InvalidArgument("log::Writer after Close");
  if (file_size_ != 0 || compress_ != nullptr || !WalCompressionSupported(type)) {
    return Status::InvalidArgument("log::Writer::AddCompressionTypeRecord: not a new log or " +
                                   std::to_string(static_cast<int>(type)) + " not supported");
  }
  char payload[4];
  EncodeFixed32(payload, static_cast<uint32_t>(type));
  buf_.clear();
  EmitPhysicalRecord(kSetCompressionType, payload, sizeof(payload));
  Status s = dest_->Append(buf_);
  file_size_ += buf_.size();
  if (s.ok() && !manual_flush_) s = dest_->Flush();
  if (!s.ok()) return s;
  const size_t max_output = kBlockSize - header_size_;
  compress_ = WalCompressor::New(type, max_output);
  compressed_ = std::make_unique<char[]>(max_output);
  return Status::OK();
}

Status Writer::AddRecord(const Slice& slice) {
  if (dest_ == nullptr) return Status::InvalidArgument("log::Writer::AddRecord after Close");
  const char* ptr = slice.data();
  size_t left = slice.size();
  const uint8_t type_offset = recycle_log_files_ ? kRecyclableFullType - kFullType : 0;
  buf_.clear();
  Status s;
  bool begin = true;
  // Compressed logs: the compressor's output comes a block's payload at a
  // time; `pending` is what it still has to flush after the piece in hand.
  int pending = 0;
  bool compress_start = compress_ != nullptr;
  if (compress_ != nullptr) compress_->Reset();
  do {
    const size_t leftover = kBlockSize - block_offset_;
    if (leftover < header_size_) {
      // Too little room for a header: pad the block tail with zeros.
      buf_.append(kZeros, leftover);
      block_offset_ = 0;
    }
    const size_t avail = kBlockSize - block_offset_ - header_size_;
    if (compress_ != nullptr && (compress_start || left == 0)) {
      // The next piece of the frame (an empty record stays one empty FULL).
      pending = compress_->Compress(slice, compressed_.get(), &left);
      if (pending < 0) return Status::Corruption("log::Writer: WAL compression failed");
      if (left == 0 && !compress_start) break;
      compress_start = false;
      ptr = compressed_.get();
    }
    const size_t fragment = std::min(left, avail);
    const bool end = fragment == left && pending == 0;
    RecordType type;
    if (begin && end) {
      type = kFullType;
    } else if (begin) {
      type = kFirstType;
    } else if (end) {
      type = kLastType;
    } else {
      type = kMiddleType;
    }
    EmitPhysicalRecord(static_cast<RecordType>(type + type_offset), ptr, fragment);
    ptr += fragment;
    left -= fragment;
    begin = false;
    if ((left > 0 || pending > 0) && buf_.size() >= kMaxAssembly) {
      s = dest_->Append(buf_);
      file_size_ += buf_.size();
      buf_.clear();
      if (!s.ok()) return s;
    }
  } while (left > 0 || pending > 0);
  s = dest_->Append(buf_);
  file_size_ += buf_.size();
  if (s.ok() && !manual_flush_) s = dest_->Flush();
  return s;
}

void Writer::EmitPhysicalRecord(RecordType type, const char* data, size_t n) {
  // Callers keep every fragment inside one block, so n fits in 16 bits.
  char header[kRecyclableHeaderSize];
  header[4] = static_cast<char>(n & 0xff);
  header[5] = static_cast<char>(n >> 8);
  header[6] = static_cast<char>(type);
  // The compression marker keeps the legacy header in a recyclable log too.
  const size_t header_size = IsRecyclableType(type) ? kRecyclableHeaderSize : kHeaderSize;
  if (IsRecyclableType(type)) EncodeFixed32(header + 7, static_cast<uint32_t>(log_number_));
  const uint32_t crc = crc32c::Extend(type_crc_[type], data, n);
  EncodeFixed32(header, crc32c::Mask(crc));
  buf_.append(header, header_size);
  buf_.append(data, n);
  block_offset_ += header_size + n;
}

Status Writer::WriteBuffer() {
  if (dest_ == nullptr) return Status::InvalidArgument("log::Writer::WriteBuffer after Close");
  return dest_->Flush();
}

Status Writer::Sync() {
  if (dest_ == nullptr) return Status::InvalidArgument("log::Writer::Sync after Close");
  return dest_->Sync();
}

Status Writer::Close() {
  if (dest_ == nullptr) return Status::OK();
  Status s = dest_->Close();
  dest_.reset();
  return s;
}

}  // namespace strata::log
