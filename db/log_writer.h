// log::Writer: appends logical records to a log file (WAL or MANIFEST) in
// the block format of db/log_format.h, splitting a record into FIRST /
// MIDDLE / LAST fragments where it crosses a block boundary.
//
// Cost: a record that fits in the current block is one Append of one
// contiguous buffer (header and payload assembled in a reused member
// string, no allocation once warmed up) and, unless manual_flush, one
// Flush. Larger records are assembled the same way in chunks.
// With compression (RocksDB's wal_compression, db/log_compression.h) the
// log starts with a kSetCompressionType record and each record's bytes are
// a ZSTD frame, fragmented the same way.
// Thread-safety: not thread-safe; the caller serializes all calls.
// Invariants:
//  1. block_offset_ == (bytes in the file) % kBlockSize, counting bytes that
//     were in the file when the writer was created.
//  2. After AddRecord returns OK the record's bytes were handed to dest in
//     full (and flushed unless manual_flush). After an error the file may
//     hold part of the record; the writer must not be used further except
//     for Close.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "db/log_compression.h"
#include "db/log_format.h"
#include "strata/env.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata::log {

class Writer {
 public:
  // dest: the file, appended to at its current end (GetFileSize()); owned.
  // log_number: the file's number; its low 32 bits go into recyclable
  //   headers. recycle_log_files: write recyclable (11-byte header) records.
  // manual_flush: AddRecord does not flush; the caller calls WriteBuffer().
  Writer(std::unique_ptr<WritableFile> dest, uint64_t log_number, bool recycle_log_files,
         bool manual_flush = false);

  // Makes this a compressed log: writes the kSetCompressionType record of
  // `type`, after which every AddRecord compresses. REQUIRES: nothing
  // written yet, WalCompressionSupported(type).
  Status AddCompressionTypeRecord(CompressionType type);
  // Flushes what AddRecord appended (errors are dropped; Close reports them).
  ~Writer();

  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  // Appends one logical record. REQUIRES: not closed.
  Status AddRecord(const Slice& slice);
  // Flushes dest (for manual_flush writers).
  Status WriteBuffer();
  // dest->Sync(): the records appended so far survive a machine crash.
  Status Sync();
  // Flushes and closes dest. Idempotent.
  Status Close();

  // Bytes in the file: what was there at construction plus what this writer
  // appended (padding included).
  uint64_t file_size() const { return file_size_; }
  uint64_t log_number() const { return log_number_; }
  bool recycle_log_files() const { return recycle_log_files_; }
  // The destination; null after Close.
  WritableFile* file() const { return dest_.get(); }

 private:
  // Appends header + payload of one physical record to buf_.
  void EmitPhysicalRecord(RecordType type, const char* data, size_t n);

  std::unique_ptr<WritableFile> dest_;
  const uint64_t log_number_;
  const bool recycle_log_files_;
  const bool manual_flush_;
  const size_t header_size_;
  size_t block_offset_;
  uint64_t file_size_;
  // crc32c of the type byte (followed, for recyclable types, by the log
  // number), indexed by record type; extended over the payload per record.
  uint32_t type_crc_[kMaxRecordType + 1];
  // Reused assembly buffer for the bytes of one Append.
  std::string buf_;
  // Compressed logs: the compressor and its output (one block's payload).
  std::unique_ptr<WalCompressor> compress_;
  std::unique_ptr<char[]> compressed_;
};

}  // namespace strata::log
