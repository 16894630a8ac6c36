// rocksdb/trace_reader_writer.h: where RocksDB 7.8.3 writes a trace
// (TraceWriter) and reads one back (TraceReader). A program may implement
// both; Strata's DB never writes a trace (StartTrace & co. answer
// NotSupported), and the file-backed factories below answer NotSupported
// naming themselves (*trace_writer / *trace_reader left null).
// Thread-safety: an implementation's own; the DB would call a writer from
// one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "rocksdb/env.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"

namespace rocksdb {

// Receives the bytes of a trace, record by record.
class TraceWriter {
 public:
  virtual ~TraceWriter() = default;
  virtual Status Write(const Slice& data) = 0;
  virtual Status Close() = 0;
  // Bytes written so far.
  virtual uint64_t GetFileSize() = 0;
};

// Hands back a trace's records in order; Reset starts over.
class TraceReader {
 public:
  virtual ~TraceReader() = default;
  virtual Status Read(std::string* data) = 0;
  virtual Status Close() = 0;
  virtual Status Reset() = 0;
};

// NotSupported in Strata ("NewFileTraceWriter: ..."); the output is reset.
Status NewFileTraceWriter(Env* env, const EnvOptions& env_options,
                          const std::string& trace_filename,
                          std::unique_ptr<TraceWriter>* trace_writer);
// NotSupported in Strata ("NewFileTraceReader: ..."); the output is reset.
Status NewFileTraceReader(Env* env, const EnvOptions& env_options,
                          const std::string& trace_filename,
                          std::unique_ptr<TraceReader>* trace_reader);

}  // namespace rocksdb
