// Full-file checksums inside the engine (strata/file_checksum.h): a
// whole-file read that makes a checksum of a file already on disk
// (ingestion, VerifyFileChecksums). A table file being written gets its
// checksum from env/checksumming_writable_file.h.
//
// Thread-safety: thread-safe when the factory is.
#pragma once

#include <string>

#include "strata/env.h"
#include "strata/file_checksum.h"

namespace strata {

// Reads fname whole and makes its checksum with a generator from factory
// for requested_func_name (empty: the factory's own). InvalidArgument when
// the factory is null or has no such function (RocksDB's messages); the
// file system's error when the file cannot be read.
Status GenerateFileChecksum(FileSystem* fs, const std::string& fname,
                            FileChecksumGenFactory* factory, const std::string& requested_func_name,
                            std::string* checksum, std::string* func_name);

}  // namespace strata
