// rocksdb/utilities/checkpoint.h: an openable copy of a live DB made of hard
// links (or copies) of its files. Over strata::Checkpoint.
// Thread-safety: as strata::Checkpoint.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "rocksdb/db.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/status.h"
#include "strata/utilities/checkpoint.h"

namespace rocksdb {
class Checkpoint {
 public:
  // Makes a Checkpoint for `db`; the caller deletes *checkpoint_ptr.
  static Status Create(DB* db, Checkpoint** checkpoint_ptr);
  virtual ~Checkpoint();

  // Writes the checkpoint into checkpoint_dir, which must not exist.
  virtual Status CreateCheckpoint(const std::string& checkpoint_dir,
                                  uint64_t log_size_for_flush = 0,
                                  uint64_t* sequence_number_ptr = nullptr);
  virtual Status ExportColumnFamily(ColumnFamilyHandle* handle, const std::string& export_dir,
                                    ExportImportFilesMetaData** metadata);

 protected:
  Checkpoint() = default;

 private:
  std::unique_ptr<::strata::Checkpoint> impl_;
};
}  // namespace rocksdb
