// rocksdb/file_checksum.h's functions over Strata's (the classes are
// Strata's own, include/strata/file_checksum.h).
#include "rocksdb/file_checksum.h"

namespace rocksdb {

FileChecksumList* NewFileChecksumList() { return ::strata::NewFileChecksumList().release(); }

std::shared_ptr<FileChecksumGenFactory> GetFileChecksumGenCrc32cFactory() {
  return ::strata::GetFileChecksumGenCrc32cFactory();
}

}  // namespace rocksdb
