// rocksdb/experimental.h: RocksDB's experimental calls. SuggestCompactRange
// and PromoteL0 call the DB's methods of the same names (Strata's
// DB::SuggestCompactRange / DB::PromoteL0 underneath, include/strata/db.h).
// UpdateManifestForFilesState has nothing to update in Strata (its file
// systems report no file temperatures): it checks that the database opens
// read-only with the given families and returns that status.
// Thread-safety: as the DB calls they make.
#pragma once

#include <string>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/status.h"

namespace rocksdb {
namespace experimental {

// Marks the files of column_family overlapping [*begin, *end] (null: open
// end) for compaction. InvalidArgument "DB is empty" for a null db.
Status SuggestCompactRange(DB* db, ColumnFamilyHandle* column_family, const Slice* begin,
                           const Slice* end);
// The same for the default family.
Status SuggestCompactRange(DB* db, const Slice* begin, const Slice* end);

// Moves every level-0 file to target_level (see strata::DB::PromoteL0 for
// the checks). InvalidArgument "Didn't recognize DB object" for a null db.
Status PromoteL0(DB* db, ColumnFamilyHandle* column_family, int target_level = 1);

struct UpdateManifestForFilesStateOptions {
  // RocksDB: update the MANIFEST's file temperatures from the file system.
  // Strata's file systems report none, so there is never anything to change.
  bool update_temperatures = true;
};

Status UpdateManifestForFilesState(const DBOptions& db_opts, const std::string& db_name,
                                   const std::vector<ColumnFamilyDescriptor>& column_families,
                                   const UpdateManifestForFilesStateOptions& opts = {});

}  // namespace experimental
}  // namespace rocksdb
