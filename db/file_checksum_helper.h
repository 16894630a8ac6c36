// Full-file checksums inside the engine (strata/file_checksum.h): a
// WritableFile that feeds a generator with every byte appended to a table
// file as it is written, and a whole-file read that makes a checksum of a
// file already on disk (ingestion, VerifyFileChecksums).
//
// Thread-safety: one wrapper per file, used by one thread; the helpers are
// thread-safe when the factory is.
// Invariant: a WritableFile keeps exactly the bytes appended to it
// (strata/env.h), so the generator of a closed wrapper has seen the file.
#pragma once

#include <memory>
#include <string>

#include "strata/env.h"
#include "strata/file_checksum.h"

namespace strata {

// Wraps base: every Append also goes to *gen (borrowed; must outlive the
// returned file).
std::unique_ptr<WritableFile> NewChecksummingWritableFile(std::unique_ptr<WritableFile> base,
                                                          FileChecksumGenerator* gen);

// Reads fname whole and makes its checksum with a generator from factory
// for requested_func_name (empty: the factory's own). InvalidArgument when
// the factory is null or has no such function (RocksDB's messages); the
// file system's error when the file cannot be read.
Status GenerateFileChecksum(FileSystem* fs, const std::string& fname,
                            FileChecksumGenFactory* factory, const std::string& requested_func_name,
                            std::string* checksum, std::string* func_name);

}  // namespace strata
