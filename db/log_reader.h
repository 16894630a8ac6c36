// log::Reader: reads back the logical records of a log file (WAL or
// MANIFEST) written in the format of db/log_format.h, reassembling
// fragments and checking each physical record's crc and length. Damage is
// reported to a Reporter and handled per WALRecoveryMode the way RocksDB
// 7.8.3 handles it (docs/format/log.md (Reading)):
//
//  - End of file inside a header, inside a record body, or inside a
//    FIRST..MIDDLE sequence: the log ends there (a torn final write). Only
//    kAbsoluteConsistency reports it.
//  - Bad crc, a length running past its block, or an unknown record type
//    before the end: reported; the rest of the block is dropped and
//    reading resumes at the next block (kTolerateCorruptedTailRecords,
//    kAbsoluteConsistency, kSkipAnyCorruptedRecords -- the caller decides
//    whether a report is fatal). In kPointInTimeRecovery the reader stops
//    at the first report: ReadRecord returns false from then on, so the
//    records returned are a prefix of the log.
//  - A zero header (type 0, length 0), which is unwritten preallocated
//    space (e.g. an mmap-written WAL cut by a crash): the rest of the block
//    is skipped silently; an all-zero tail is the end of the log. If the
//    zero-filled stretch is followed by more records, it was a hole and is
//    reported once, when the next record is found.
//  - A recyclable record carrying another log number is stale data of a
//    reused file: end of log (kSkipAnyCorruptedRecords skips it instead).
//    Only a file that starts with a recyclable record is a reused one;
//    elsewhere such a header is damage and reported like a bad crc.
//  - kSetCompressionType as the first record (RocksDB's wal_compression,
//    db/log_compression.h): every later record is decompressed fragment
//    by fragment; a fragment that does not decompress is damage like a bad
//    crc ("corrupted compressed WAL record"). A compression type other
//    than ZSTD is reported as NotSupported and the reader stops in every
//    mode; a marker anywhere but at the file's start is damage. SkipTo
//    reads the file's first record first, so a reader started mid-file
//    knows whether to decompress.
//  - A failed read of the file is reported (IOError) and ends the log; so
//    is a read that comes back short before the size the caller measured
//    (set_expected_file_size).
// Every reported Status names the file and the byte offset of the damage.
// The file is read in 32 KiB blocks into a buffer the reader owns.
// Thread-safety: not thread-safe.
// Invariants:
//  1. end_of_buffer_offset_ is the file offset just past buffer_;
//     end_of_buffer_offset_ - buffer_.size() is the offset of buffer_[0].
//  2. The file offset of buffer_'s end is a multiple of kBlockSize unless
//     eof_ (reads are whole blocks until the short one).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "db/log_compression.h"
#include "db/log_format.h"
#include "strata/env.h"
#include "strata/options.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata::log {

// A Reporter that keeps the first damage reported and counts the bytes
// dropped (WAL replay, VerifyChecksum, RepairDB).
class FirstDamageReporter;

class Reader {
 public:
  // Receives damage found while reading.
  struct Reporter {
    virtual ~Reporter();
    // bytes: about how many bytes were dropped; status: Corruption (or
    // IOError for a failed read, NotSupported for a record of a feature
    // Strata lacks) naming the file and the offset.
    virtual void Corruption(size_t bytes, const Status& status) = 0;
  };

  // file: read from its start; owned. reporter: may be null (damage is then
  //   ignored); borrowed, must outlive the reader. checksum: verify crcs.
  // log_number: the file's number (checked against recyclable headers).
  // file_name_for_messages: used in every reported Status.
  Reader(std::unique_ptr<SequentialFile> file, Reporter* reporter, bool checksum,
         uint64_t log_number, std::string file_name_for_messages);
  ~Reader();

  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  // Reads the next logical record into *record and returns true, or returns
  // false at the end of the log. *record points into *scratch or into the
  // reader's buffer and is valid until the next call on this reader or a
  // change of *scratch.
  bool ReadRecord(Slice* record, std::string* scratch,
                  WALRecoveryMode mode = WALRecoveryMode::kTolerateCorruptedTailRecords);

  // Starts reading at offset instead of the file's start. REQUIRES: nothing
  // read yet; offset is 0 or the end of a record of this log (an earlier
  // reader's LastRecordEndOffset), so a header starts there or only block
  // padding follows. For tailing a log another process appends to: a new
  // reader picks up where the last one stopped. Offsets reported stay file
  // offsets.
  Status SkipTo(uint64_t offset);

  // File offset of the first header of the record last returned.
  uint64_t LastRecordOffset() const { return last_record_offset_; }
  // File offset just past the record last returned (valid until the next
  // ReadRecord call): where a log cut after that record would end.
  uint64_t LastRecordEndOffset() const { return end_of_buffer_offset_ - buffer_.size(); }
  // File offset just past the bytes read from the file so far.
  uint64_t EndOfBufferOffset() const { return end_of_buffer_offset_; }
  // True once a read came back short (the end of the file was seen).
  bool IsEOF() const { return eof_; }
  uint64_t log_number() const { return log_number_; }
  // kZSTD once a compressed log's marker was read, else kNoCompression.
  CompressionType compression() const { return compression_; }
  SequentialFile* file() const { return file_.get(); }
  // The file's size as measured before reading (the caller's GetFileSize).
  // With it, a read that comes back short before that size is a failed
  // read -- reported as an IOError, and the log ends -- instead of the end
  // of the file (which would silently drop the records after it).
  void set_expected_file_size(uint64_t size) { expected_file_size_ = size; }

 private:
  // Outcomes of ReadPhysicalRecord beyond the record types 0..255.
  enum : unsigned int {
    kEof = 0x100,
    // Fewer than a header's bytes, not all zero, at the end of the file.
    kBadHeader,
    // header + length runs past the bytes of the block.
    kBadRecordLen,
    kBadRecordChecksum,
    // A zero header followed by non-zero bytes in the same block.
    kBadZeroRecord,
    // A recyclable record of another log number.
    kOldRecord,
  };

  // Returns a record type with *result set to its payload, or one of the
  // outcomes above with *drop_size set to the bytes dropped. *offset is the
  // file offset of the header (or of the dropped bytes).
  unsigned int ReadPhysicalRecord(Slice* result, size_t* drop_size, uint64_t* offset);
  // Reads the next block into buffer_. False at the end of the file, with
  // *error = kEof or kBadHeader (and *drop_size set).
  bool ReadMore(size_t* drop_size, unsigned int* error);
  // Reports damage at offset; in kPointInTimeRecovery also stops the reader.
  void ReportCorruption(size_t bytes, uint64_t offset, const char* reason, WALRecoveryMode mode);
  // A record of a feature Strata lacks (WAL compression, user-defined
  // timestamps): NotSupported, and the reader stops in every mode. Never
  // damage: recovery must refuse the log, not cut it there.
  void ReportUnsupported(size_t bytes, uint64_t offset, const std::string& reason);

  const std::unique_ptr<SequentialFile> file_;
  Reporter* const reporter_;
  const bool checksum_;
  const uint64_t log_number_;
  const std::string file_name_;
  const std::unique_ptr<char[]> backing_store_;

  Slice buffer_;
  bool eof_ = false;
  bool read_error_ = false;
  // The log ended before the end of the file (stale records of a reused
  // file, a report in kPointInTimeRecovery, a compression marker): every
  // later ReadRecord returns false.
  bool stopped_ = false;
  // The file starts with a recyclable record (a reused file).
  bool recycled_ = false;
  uint64_t end_of_buffer_offset_ = 0;
  uint64_t expected_file_size_ = 0;  // 0: unknown
  // Bytes of the first block read that SkipTo passes over.
  size_t initial_skip_ = 0;
  uint64_t last_record_offset_ = 0;
  // Compressed logs: the marker's type, the decompressor, and the current
  // fragment's decompressed bytes.
  CompressionType compression_ = kNoCompression;
  std::unique_ptr<WalDecompressor> uncompress_;
  std::string uncompressed_;
  // Handles a kSetCompressionType record at offset (payload `p`).
  void SetCompression(const Slice& p, uint64_t offset, WALRecoveryMode mode);
  // A zero-filled stretch skipped but not yet known to be the log's tail.
  uint64_t pending_zero_offset_ = 0;
  size_t pending_zero_bytes_ = 0;
};

class FirstDamageReporter final : public Reader::Reporter {
 public:
  void Corruption(size_t bytes, const Status& status) override {
    dropped_bytes += bytes;
    if (first.ok()) first = status;
  }
  Status first;
  size_t dropped_bytes = 0;
};

// Whether the bytes of a log after the last record a reader returned (tail,
// starting at file offset tail_offset) are what a write torn by a crash
// leaves: the intact leading fragments of a record whose next fragment runs
// past the end of the file, fewer bytes than a header, zeros, or stale
// records of another log number. The reader ends the log silently there
// (RocksDB's rule); but a damaged length in an earlier record looks the
// same to it, and then the length overruns its 32 KiB block (a writer never
// lets a record cross one) or intact records of this log follow in the
// bytes it claims. Returns Corruption naming fname and the offset then.
//
// A torn record's own payload may hold bytes that form an intact record
// (a value that is itself a log): a following record counts only if
// next_record (when given) accepts its payload -- a FULL or FIRST record,
// for instance a WAL batch whose sequence continues the log.
using RecordPayloadCheck = std::function<bool(const Slice& payload)>;
Status CheckTornTail(const std::string& fname, uint64_t log_number, const Slice& tail,
                     uint64_t tail_offset, const RecordPayloadCheck* next_record = nullptr);

// CheckTornTail over fname's bytes from offset (up to two blocks of them)
// when offset is short of file_size; OK when it is not.
Status CheckFileTail(FileSystem* fs, const std::string& fname, uint64_t log_number, uint64_t offset,
                     uint64_t file_size, const RecordPayloadCheck* next_record = nullptr);

}  // namespace strata::log
