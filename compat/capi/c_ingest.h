// c_ingest.h: the SST file writer handle, shared by c_ingest.cc and
// c_timestamp.cc (writes with user timestamps).
// Thread safety: as rocksdb::SstFileWriter (not thread-safe).
#pragma once

#include <memory>

#include "compat/capi/c_internal.h"
#include "rocksdb/sst_file_writer.h"

struct rocksdb_sstfilewriter_t {
  std::unique_ptr<rocksdb::SstFileWriter> rep;
};
