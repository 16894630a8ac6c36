// rocksdb/file_checksum.h: full-file checksums of table files
// (DBOptions::file_checksum_gen_factory, DB::GetLiveFilesChecksumInfo,
// DB::VerifyFileChecksums). The context, generator, factory and list are
// Strata's classes (include/strata/file_checksum.h) with RocksDB's names
// and virtual functions; GetFileChecksumGenCrc32cFactory is RocksDB's
// function (same name "FileChecksumCrc32c", same 4-byte big-endian CRC-32C),
// so checksums recorded by either engine read the same in the other.
// NewFileChecksumList returns a raw pointer the caller deletes, as in
// RocksDB. FileChecksumGenFactory::CreateFromString knows "" / "nullptr"
// and "FileChecksumGenCrc32cFactory" (not the object registry).
// Thread-safety: see include/strata/file_checksum.h.
#pragma once

#include <cassert>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/status.h"
#include "strata/convenience.h"  // CreateFromString takes Strata's ConfigOptions
#include "strata/file_checksum.h"

namespace rocksdb {

using ::strata::kStandardDbFileChecksumFuncName;
using ::strata::kUnknownFileChecksum;
using ::strata::kUnknownFileChecksumFuncName;
using FileChecksumGenContext = ::strata::FileChecksumGenContext;
using FileChecksumGenerator = ::strata::FileChecksumGenerator;
using FileChecksumGenFactory = ::strata::FileChecksumGenFactory;
using FileChecksumList = ::strata::FileChecksumList;

// An empty list; the caller owns it (delete).
FileChecksumList* NewFileChecksumList();

// The shared crc32c factory.
std::shared_ptr<FileChecksumGenFactory> GetFileChecksumGenCrc32cFactory();

}  // namespace rocksdb
