// Checkpoint: an openable copy of a live database, made while it is being
// written, flushed and compacted. Table files are hard-linked (copied when
// the checkpoint directory is on another file system); the MANIFEST, the
// OPTIONS file and the WALs still needed are copied up to the point where
// the copy was cut, and CURRENT is written to name that MANIFEST. The copy
// holds every write acknowledged before CreateCheckpoint began, and a
// prefix of the ones made meanwhile -- never part of a write batch.
//
// ExportColumnFamily does the same for one family's tables, for
// DB::CreateColumnFamilyWithImport. Names and semantics are RocksDB's
// (rocksdb/utilities/checkpoint.h).
//
// Thread-safety: thread-safe (each call works on its own directory).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "strata/db.h"
#include "strata/export.h"
#include "strata/metadata.h"
#include "strata/status.h"

namespace strata {

class STRATA_EXPORT Checkpoint {
 public:
  // A Checkpoint object for db (which must outlive it).
  static Status Create(DB* db, std::unique_ptr<Checkpoint>* checkpoint);
  virtual ~Checkpoint() = default;

  // Builds the copy in checkpoint_dir, which must not exist (InvalidArgument
  // "Directory exists"); it is assembled in checkpoint_dir + ".tmp" and
  // renamed when complete, so a crash leaves no half checkpoint under the
  // name. The memtables are flushed first when the live WALs total at least
  // log_size_for_flush bytes (0: always; the WALs are copied otherwise).
  // *sequence_number_ptr (if given) gets a sequence number every write up
  // to which the copy holds.
  virtual Status CreateCheckpoint(const std::string& checkpoint_dir,
                                  uint64_t log_size_for_flush = 0,
                                  uint64_t* sequence_number_ptr = nullptr) = 0;

  // Flushes the family and links (or copies) its table files into
  // export_dir, which must not exist; *metadata lists them with their
  // levels, key ranges and sequence numbers, and the comparator's name.
  virtual Status ExportColumnFamily(ColumnFamilyHandle* handle, const std::string& export_dir,
                                    std::unique_ptr<ExportImportFilesMetaData>* metadata) = 0;
};

}  // namespace strata
