// A WritableFile decorator that feeds every byte its file takes to a
// full-file checksum generator (strata/file_checksum.h), so a table file's
// checksum is made as the file is written, not by reading it back: used by
// flushes and compactions (db/builder.cc) and by SstFileWriter.
//
// Thread-safety: one wrapper per file, used by one thread (as any
// WritableFile).
// Invariant: the generator has seen exactly the bytes the base file took,
// in order: an Append that failed is not fed (the file is failed anyway).
#pragma once

#include <memory>

#include "strata/env.h"
#include "strata/file_checksum.h"

namespace strata {

// Wraps base: every Append also goes to *gen (borrowed; must outlive the
// returned file).
std::unique_ptr<WritableFile> NewChecksummingWritableFile(std::unique_ptr<WritableFile> base,
                                                          FileChecksumGenerator* gen);

}  // namespace strata
