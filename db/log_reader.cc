#include "db/log_reader.h"

#include <algorithm>
#include <cassert>
#include <cstdio>

#include "util/coding.h"
#include "util/crc32c.h"

namespace strata::log {

namespace {

bool IsAllZero(const Slice& s) {
  const char* p = s.data();
  const char* end = p + s.size();
  for (; p != end; ++p) {
    if (*p != 0) return false;
  }
  return true;
}

}  // namespace

Reader::Reporter::~Reporter() = default;

Reader::Reader(std::unique_ptr<SequentialFile> file, Reporter* reporter, bool checksum,
               uint64_t log_number, std::string file_name_for_messages)
    : file_(std::move(file)),
      reporter_(reporter),
      checksum_(checksum),
      log_number_(log_number),
      file_name_(std::move(file_name_for_messages)),
      backing_store_(new char[kBlockSize]) {}

Reader::~Reader() = default;

Status Reader::SkipTo(uint64_t offset) {
  assert(end_of_buffer_offset_ == 0 && buffer_.empty());
  if (offset == 0) return Status::OK();
  // A compressed log says so in its first record only: read the first
  // block and look (a record that is not an intact marker means none).
  Slice first;
  Status s = file_->Read(kBlockSize, &first, backing_store_.get());
  if (!s.ok()) return s;
  if (first.size() >= kHeaderSize + 4 &&
      static_cast<unsigned char>(first[6]) == kSetCompressionType) {
    const size_t length = static_cast<unsigned char>(first[4]) |
                          (static_cast<size_t>(static_cast<unsigned char>(first[5])) << 8);
    if (kHeaderSize + length <= first.size() && crc32c::Unmask(DecodeFixed32(first.data())) ==
                                                    crc32c::Value(first.data() + 6, 1 + length)) {
      SetCompression(Slice(first.data() + kHeaderSize, length), 0,
                     WALRecoveryMode::kTolerateCorruptedTailRecords);
    }
  }
  // Blocks stay aligned: whole blocks are skipped in the file, the rest of
  // the way inside the first block read.
  const uint64_t block_start = offset - offset % kBlockSize;
  if (block_start == 0) {
    // The block just read is the one to continue in.
    buffer_ = first;
    end_of_buffer_offset_ = first.size();
    if (first.size() < kBlockSize) eof_ = true;
    buffer_.remove_prefix(std::min<size_t>(buffer_.size(), static_cast<size_t>(offset)));
    return Status::OK();
  }
  if (first.size() < kBlockSize) {
    // The file ends before offset.
    eof_ = true;
    end_of_buffer_offset_ = first.size();
    return Status::OK();
  }
  if (block_start > kBlockSize) {
    s = file_->Skip(block_start - kBlockSize);
    if (!s.ok()) return s;
  }
  end_of_buffer_offset_ = block_start;
  initial_skip_ = static_cast<size_t>(offset - block_start);
  return Status::OK();
}

void Reader::SetCompression(const Slice& p, uint64_t offset, WALRecoveryMode mode) {
  if (offset != 0) {
    ReportCorruption(p.size(), offset, "SetCompressionType not the first record", mode);
    return;
  }
  if (uncompress_ != nullptr) return;  // seen by SkipTo already
  if (p.size() < 4) {
    ReportCorruption(p.size(), offset, "could not decode SetCompressionType record", mode);
    return;
  }
  const uint32_t type = DecodeFixed32(p.data());
  if (type > 0xff || !WalCompressionSupported(static_cast<CompressionType>(type))) {
    ReportUnsupported(p.size(), offset,
                      "WAL compression type " + std::to_string(type) +
                          " not supported (RocksDB wal_compression supports ZSTD only)");
    return;
  }
  compression_ = static_cast<CompressionType>(type);
  uncompress_ = WalDecompressor::New(compression_);
}

void Reader::ReportCorruption(size_t bytes, uint64_t offset, const char* reason,
                              WALRecoveryMode mode) {
  if (mode == WALRecoveryMode::kPointInTimeRecovery) stopped_ = true;
  if (reporter_ == nullptr) return;
  reporter_->Corruption(
      bytes, Status::Corruption(reason, file_name_ + " offset " + std::to_string(offset)));
}

void Reader::ReportUnsupported(size_t bytes, uint64_t offset, const std::string& reason) {
  stopped_ = true;
  if (reporter_ == nullptr) return;
  reporter_->Corruption(
      bytes, Status::NotSupported(reason, file_name_ + " offset " + std::to_string(offset)));
}

bool Reader::ReadMore(size_t* drop_size, unsigned int* error) {
  if (!eof_ && !read_error_) {
    // Whatever is left is a block trailer (zero padding shorter than a
    // header): skip it and read the next block.
    buffer_.clear();
    const uint64_t block_start = end_of_buffer_offset_;
    Status s = file_->Read(kBlockSize, &buffer_, backing_store_.get());
    if (!s.ok()) {
      buffer_.clear();
      read_error_ = true;
      if (reporter_ != nullptr) {
        reporter_->Corruption(
            kBlockSize,
            Status::IOError(s.getState(), file_name_ + " offset " + std::to_string(block_start)));
      }
      *error = kEof;
      return false;
    }
    end_of_buffer_offset_ += buffer_.size();
    if (buffer_.size() < kBlockSize) {
      if (end_of_buffer_offset_ < expected_file_size_) {
        // The file holds more: this read failed to deliver it.
        buffer_.clear();
        read_error_ = true;
        if (reporter_ != nullptr) {
          reporter_->Corruption(
              kBlockSize,
              Status::IOError("short read", file_name_ + " offset " + std::to_string(block_start) +
                                                ": " + std::to_string(end_of_buffer_offset_) +
                                                " of " + std::to_string(expected_file_size_) +
                                                " bytes read"));
        }
        *error = kEof;
        return false;
      }
      eof_ = true;
    }
    if (initial_skip_ > 0) {
      buffer_.remove_prefix(std::min(initial_skip_, buffer_.size()));
      initial_skip_ = 0;
    }
    return true;
  }
  // End of file. Bytes left over are a header cut by a crash mid-write,
  // or zero padding (the writer padded a block and stopped).
  if (!buffer_.empty() && !IsAllZero(buffer_)) {
    *drop_size = buffer_.size();
    buffer_.clear();
    *error = kBadHeader;
    return false;
  }
  buffer_.clear();
  *error = kEof;
  return false;
}

unsigned int Reader::ReadPhysicalRecord(Slice* result, size_t* drop_size, uint64_t* offset) {
  while (true) {
    *offset = end_of_buffer_offset_ - buffer_.size();
    if (buffer_.size() < kHeaderSize) {
      unsigned int r = kEof;
      if (!ReadMore(drop_size, &r)) return r;
      continue;
    }
    const char* header = buffer_.data();
    const uint32_t length = static_cast<uint32_t>(static_cast<unsigned char>(header[4])) |
                            (static_cast<uint32_t>(static_cast<unsigned char>(header[5])) << 8);
    const unsigned int type = static_cast<unsigned char>(header[6]);
    size_t header_size = kHeaderSize;
    if (HasRecyclableHeader(type)) {
      if (*offset == 0) recycled_ = true;
      header_size = kRecyclableHeaderSize;
      if (buffer_.size() < kRecyclableHeaderSize) {
        unsigned int r = kEof;
        if (!ReadMore(drop_size, &r)) return r;
        continue;
      }
      if (DecodeFixed32(header + kHeaderSize) != static_cast<uint32_t>(log_number_)) {
        if (!recycled_) {
          // A file that did not start with a recyclable record is not a
          // reused one, so this is no stale record but a damaged header
          // (e.g. a flipped type byte); don't let it end the log silently.
          *drop_size = buffer_.size();
          buffer_.clear();
          return kBadRecordChecksum;
        }
        // Stale data of a reused file; skip it (only kSkipAnyCorruptedRecords
        // reads on).
        const size_t skip = header_size + length;
        *drop_size = skip <= buffer_.size() ? skip : buffer_.size();
        buffer_.remove_prefix(*drop_size);
        return kOldRecord;
      }
    }
    if (header_size + length > buffer_.size()) {
      *drop_size = buffer_.size();
      buffer_.clear();
      return kBadRecordLen;
    }
    if (type == kZeroType && length == 0) {
      // Unwritten (preallocated, zero-filled) space, or the zero padding of
      // a recyclable log's block tail: skip the rest of the block.
      const size_t n = buffer_.size();
      const bool all_zero = IsAllZero(buffer_);
      buffer_.clear();
      if (!all_zero) {
        *drop_size = n;
        return kBadZeroRecord;
      }
      if (n >= kRecyclableHeaderSize) {
        if (pending_zero_bytes_ == 0) pending_zero_offset_ = *offset;
        pending_zero_bytes_ += n;
      }
      continue;
    }
    if (checksum_) {
      const uint32_t expected = crc32c::Unmask(DecodeFixed32(header));
      const uint32_t actual = crc32c::Value(header + 6, header_size - 6 + length);
      if (actual != expected) {
        // The length may be the damaged field: trusting it could land on
        // bytes that merely look like a record, so drop the whole block.
        *drop_size = buffer_.size();
        buffer_.clear();
        return kBadRecordChecksum;
      }
    }
    buffer_.remove_prefix(header_size + length);
    *result = Slice(header + header_size, length);
    return type;
  }
}

bool Reader::ReadRecord(Slice* record, std::string* scratch, WALRecoveryMode mode) {
  scratch->clear();
  *record = Slice();
  bool in_fragmented_record = false;
  // Offset of the first fragment of the record being assembled.
  uint64_t prospective_record_offset = 0;
  const bool absolute = mode == WALRecoveryMode::kAbsoluteConsistency;

  Slice fragment;
  while (!stopped_) {
    size_t drop_size = 0;
    uint64_t offset = 0;
    const unsigned int type = ReadPhysicalRecord(&fragment, &drop_size, &offset);

    if (pending_zero_bytes_ > 0 && type != kEof && type != kOldRecord) {
      // Something follows the zero-filled stretch: it was a hole, not the
      // end of the log. Whatever was being assembled around it is lost.
      ReportCorruption(pending_zero_bytes_ + scratch->size(), pending_zero_offset_,
                       "zero-filled hole in log", mode);
      pending_zero_bytes_ = 0;
      in_fragmented_record = false;
      scratch->clear();
      if (stopped_) break;
    }

    if (uncompress_ != nullptr && type >= kFullType && type <= kRecyclableLastType) {
      // A compressed log: the fragment's bytes are a piece of the record's
      // frame (FULL and FIRST start one).
      const unsigned int legacy = IsRecyclableType(type) ? type - 4 : type;
      if (legacy == kFullType || legacy == kFirstType) uncompress_->Reset();
      if (!uncompress_->Decompress(fragment, &uncompressed_).ok()) {
        ReportCorruption(fragment.size() + scratch->size(),
                         in_fragmented_record ? prospective_record_offset : offset,
                         "corrupted compressed WAL record", mode);
        in_fragmented_record = false;
        scratch->clear();
        continue;
      }
      fragment = Slice(uncompressed_);
    }

    switch (type) {
      case kFullType:
      case kRecyclableFullType:
        if (in_fragmented_record && !scratch->empty()) {
          // An empty FIRST at a block tail followed by a FULL is what old
          // RocksDB writers produced; only a non-empty one is damage.
          ReportCorruption(scratch->size(), prospective_record_offset, "partial record without end",
                           mode);
          if (stopped_) break;
        }
        scratch->clear();
        *record = fragment;
        last_record_offset_ = offset;
        return true;

      case kFirstType:
      case kRecyclableFirstType:
        if (in_fragmented_record && !scratch->empty()) {
          ReportCorruption(scratch->size(), prospective_record_offset, "partial record without end",
                           mode);
          if (stopped_) break;
        }
        prospective_record_offset = offset;
        scratch->assign(fragment.data(), fragment.size());
        in_fragmented_record = true;
        break;

      case kMiddleType:
      case kRecyclableMiddleType:
        if (!in_fragmented_record) {
          ReportCorruption(fragment.size(), offset, "missing start of fragmented record", mode);
        } else {
          scratch->append(fragment.data(), fragment.size());
        }
        break;

      case kLastType:
      case kRecyclableLastType:
        if (!in_fragmented_record) {
          ReportCorruption(fragment.size(), offset, "missing start of fragmented record", mode);
          break;
        }
        scratch->append(fragment.data(), fragment.size());
        *record = Slice(*scratch);
        last_record_offset_ = prospective_record_offset;
        return true;

      case kBadHeader:
        if (absolute) {
          ReportCorruption(drop_size + scratch->size(),
                           in_fragmented_record ? prospective_record_offset : offset,
                           "truncated header", mode);
        }
        scratch->clear();
        return false;

      case kEof:
        pending_zero_bytes_ = 0;
        if (in_fragmented_record && absolute) {
          ReportCorruption(scratch->size(), prospective_record_offset,
                           "unfinished fragmented record at end of log", mode);
        }
        scratch->clear();
        return false;

      case kOldRecord:
        pending_zero_bytes_ = 0;
        if (mode != WALRecoveryMode::kSkipAnyCorruptedRecords) {
          if (in_fragmented_record && absolute) {
            ReportCorruption(scratch->size(), prospective_record_offset,
                             "unfinished fragmented record at end of log", mode);
          }
          stopped_ = true;
          scratch->clear();
          return false;
        }
        if (in_fragmented_record) {
          ReportCorruption(scratch->size(), prospective_record_offset, "error in middle of record",
                           mode);
          in_fragmented_record = false;
          scratch->clear();
        }
        break;

      case kBadRecordLen:
        if (eof_) {
          // The last record was cut short by the end of the file.
          if (absolute) {
            ReportCorruption(drop_size + scratch->size(),
                             in_fragmented_record ? prospective_record_offset : offset,
                             "truncated record body", mode);
          }
          scratch->clear();
          return false;
        }
        [[fallthrough]];
      case kBadRecordChecksum:
      case kBadZeroRecord:
        if (recycled_ && mode == WALRecoveryMode::kTolerateCorruptedTailRecords) {
          // In a reused file, damage past the new data is the old file's
          // leftovers.
          stopped_ = true;
          scratch->clear();
          return false;
        }
        ReportCorruption(drop_size + scratch->size(),
                         in_fragmented_record ? prospective_record_offset : offset,
                         type == kBadRecordLen        ? "bad record length"
                         : type == kBadRecordChecksum ? "checksum mismatch"
                                                      : "bytes after a zero record header",
                         mode);
        in_fragmented_record = false;
        scratch->clear();
        break;

      case kSetCompressionType:
        SetCompression(fragment, offset, mode);
        break;

      case kUserDefinedTimestampSizeType:
      case kRecyclableUserDefinedTimestampSizeType:
        ReportUnsupported(fragment.size() + scratch->size(), offset,
                          "user-defined timestamp size record (RocksDB user-defined timestamps "
                          "are not supported)");
        break;

      default: {
        if ((type & kRecordTypeSafeIgnoreMask) != 0 && !in_fragmented_record) {
          // A record newer RocksDB marks as skippable by readers that do not
          // know it (e.g. the predecessor-WAL record).
          break;
        }
        char buf[48];
        snprintf(buf, sizeof(buf), "unknown record type %u", type);
        ReportCorruption(fragment.size() + scratch->size(),
                         in_fragmented_record ? prospective_record_offset : offset, buf, mode);
        in_fragmented_record = false;
        scratch->clear();
        break;
      }
    }
  }
  scratch->clear();
  *record = Slice();
  return false;
}

Status CheckTornTail(const std::string& fname, uint64_t log_number, const Slice& tail,
                     uint64_t tail_offset, const RecordPayloadCheck* next_record) {
  auto header_at = [&](size_t p, size_t* header_size, size_t* length, unsigned int* type) {
    const char* h = tail.data() + p;
    *type = static_cast<unsigned char>(h[6]);
    *header_size = HasRecyclableHeader(*type) ? kRecyclableHeaderSize : kHeaderSize;
    *length = static_cast<size_t>(static_cast<unsigned char>(h[4])) |
              (static_cast<size_t>(static_cast<unsigned char>(h[5])) << 8);
  };
  // An intact physical record of this log starts at p.
  auto intact = [&](size_t p) {
    if (p + kHeaderSize > tail.size()) return false;
    size_t header_size, length;
    unsigned int type;
    header_at(p, &header_size, &length, &type);
    if (type < kFullType || type > kRecyclableLastType) return false;
    if (p + header_size + length > tail.size()) return false;
    const char* h = tail.data() + p;
    if (crc32c::Unmask(DecodeFixed32(h)) != crc32c::Value(h + 6, header_size - 6 + length)) {
      return false;
    }
    // A recycled file's stale records carry an older log's number.
    return header_size == kHeaderSize ||
           DecodeFixed32(h + kHeaderSize) == static_cast<uint32_t>(log_number);
  };
  // Walk the intact fragments the reader dropped as an unfinished record: a
  // FIRST, then MIDDLEs.
  size_t p = 0;
  while (true) {
    const size_t left = kBlockSize - (tail_offset + p) % kBlockSize;
    if (left < kHeaderSize) {
      p += left;
      continue;
    }
    if (p >= tail.size() || !intact(p)) break;
    size_t header_size, length;
    unsigned int type;
    header_at(p, &header_size, &length, &type);
    const unsigned int legacy = IsRecyclableType(type) ? type - 4 : type;
    if (legacy != (p == 0 ? kFirstType : kMiddleType)) break;
    p += header_size + length;
  }
  if (p + kHeaderSize > tail.size()) return Status::OK();  // a torn header
  size_t header_size, length;
  unsigned int type;
  header_at(p, &header_size, &length, &type);
  // Intact records from q on, one after another, up to the end of the
  // bytes: where they stop there is nothing, fewer bytes than a header,
  // zeros, or a record cut by the end. The log after a damaged record looks
  // like that; an intact record inside a torn record's payload (a value
  // that holds log bytes) is almost never followed so.
  auto chain_to_end = [&](size_t r) {
    while (true) {
      const size_t left = kBlockSize - (tail_offset + r) % kBlockSize;
      if (left < kHeaderSize) {
        r += left;
        continue;
      }
      if (r + kHeaderSize > tail.size()) return true;
      if (intact(r)) {
        size_t hs, len;
        unsigned int t;
        header_at(r, &hs, &len, &t);
        r += hs + len;
        continue;
      }
      size_t hs, len;
      unsigned int t;
      header_at(r, &hs, &len, &t);
      if (t == kZeroType && len == 0) {
        for (size_t z = r; z < tail.size(); z++) {
          if (tail[z] != 0) return false;
        }
        return true;
      }
      return r + hs + len > tail.size() && (tail_offset + r) % kBlockSize + hs + len <= kBlockSize;
    }
  };
  auto follows = [&](size_t q) {
    if (!intact(q)) return false;
    size_t hs, len;
    unsigned int t;
    header_at(q, &hs, &len, &t);
    const unsigned int legacy = IsRecyclableType(t) ? t - 4 : t;
    if (legacy != kFullType && legacy != kFirstType) return false;
    if (next_record != nullptr && !(*next_record)(Slice(tail.data() + q + hs, len))) return false;
    return chain_to_end(q);
  };
  // A length overrunning its block, or a record of this log here or later,
  // was not torn off. (A zero header is preallocated space, unless records
  // follow it.)
  bool damaged = (tail_offset + p) % kBlockSize + header_size + length > kBlockSize || follows(p);
  for (size_t q = p + 1; !damaged && q + kHeaderSize <= tail.size(); q++) damaged = follows(q);
  if (!damaged) return Status::OK();
  return Status::Corruption("bad record length (intact records follow)",
                            fname + " record at offset " + std::to_string(tail_offset + p));
}

Status CheckFileTail(FileSystem* fs, const std::string& fname, uint64_t log_number, uint64_t offset,
                     uint64_t file_size, const RecordPayloadCheck* next_record) {
  if (offset >= file_size) return Status::OK();
  std::unique_ptr<RandomAccessFile> file;
  Status s = fs->NewRandomAccessFile(fname, FileOptions(), &file);
  if (!s.ok()) return s;
  const size_t n = static_cast<size_t>(std::min<uint64_t>(file_size - offset, 2 * kBlockSize));
  std::string buf(n, '\0');
  Slice tail;
  s = file->Read(offset, n, &tail, buf.data());
  if (!s.ok()) return s;
  if (tail.size() != n) {
    return Status::IOError("short read of the log's tail",
                           fname + " offset " + std::to_string(offset + tail.size()));
  }
  return CheckTornTail(fname, log_number, tail, offset, next_record);
}

}  // namespace strata::log
