// rocksdb/utilities/cache_dump_load.h: RocksDB 7.8.3's tools to dump the
// blocks of a block cache to a file and load them into a secondary cache.
//
// Declared with RocksDB's signatures. Strata's cache entries are not
// exported and its block cache has no secondary tier, so the factories
// answer `Not implemented: <function> is not supported by Strata`
// (NewToFileCacheDumpWriter, NewFromFileCacheDumpReader,
// NewDefaultCacheDumper, NewDefaultCacheDumpedLoader), leaving their output
// unchanged. The base classes' default methods answer NotSupported as
// RocksDB's do; a program's own writer and reader subclasses compile.
// Thread-safety: as RocksDB's: an object is used by one thread at a time.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "rocksdb/cache.h"
#include "rocksdb/env.h"
#include "rocksdb/file_system.h"
#include "rocksdb/io_status.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/secondary_cache.h"
#include "rocksdb/system_clock.h"
#include "rocksdb/table.h"

namespace rocksdb {

class DB;

static const int kCacheDumpMajorVersion = 0;
static const int kCacheDumpMinorVersion = 1;

// Where a dumper writes: one metadata record, then packets.
class CacheDumpWriter {
 public:
  virtual ~CacheDumpWriter() = default;
  virtual IOStatus WriteMetadata(const Slice& metadata) = 0;
  virtual IOStatus WritePacket(const Slice& data) = 0;
  virtual IOStatus Close() = 0;
};

// What a loader reads: the records a CacheDumpWriter wrote, in order.
class CacheDumpReader {
 public:
  virtual ~CacheDumpReader() = default;
  virtual IOStatus ReadMetadata(std::string* metadata) = 0;
  virtual IOStatus ReadPacket(std::string* data) = 0;
};

struct CacheDumpOptions {
  SystemClock* clock;
};

class CacheDumper {
 public:
  virtual ~CacheDumper() = default;
  // Restricts the dump to the blocks of these databases' files.
  virtual Status SetDumpFilter(std::vector<DB*> db_list) {
    (void)db_list;
    return Status::NotSupported("SetDumpFilter is not supported");
  }
  virtual IOStatus DumpCacheEntriesToWriter() {
    return IOStatus::NotSupported("DumpCacheEntriesToWriter is not supported");
  }
};

class CacheDumpedLoader {
 public:
  virtual ~CacheDumpedLoader() = default;
  virtual IOStatus RestoreCacheEntriesToSecondaryCache() {
    return IOStatus::NotSupported("RestoreCacheEntriesToSecondaryCache is not supported");
  }
};

// All four: NotSupported (see the top of this file).
IOStatus NewToFileCacheDumpWriter(const std::shared_ptr<FileSystem>& fs,
                                  const FileOptions& file_opts, const std::string& file_name,
                                  std::unique_ptr<CacheDumpWriter>* writer);
IOStatus NewFromFileCacheDumpReader(const std::shared_ptr<FileSystem>& fs,
                                    const FileOptions& file_opts, const std::string& file_name,
                                    std::unique_ptr<CacheDumpReader>* reader);
Status NewDefaultCacheDumper(const CacheDumpOptions& dump_options,
                             const std::shared_ptr<Cache>& cache,
                             std::unique_ptr<CacheDumpWriter>&& writer,
                             std::unique_ptr<CacheDumper>* cache_dumper);
Status NewDefaultCacheDumpedLoader(const CacheDumpOptions& dump_options,
                                   const BlockBasedTableOptions& toptions,
                                   const std::shared_ptr<SecondaryCache>& secondary_cache,
                                   std::unique_ptr<CacheDumpReader>&& reader,
                                   std::unique_ptr<CacheDumpedLoader>* cache_dump_loader);

}  // namespace rocksdb
