// A MANIFEST for a copy of a DB gathered into one directory: a checkpoint
// or a backup of a DB whose tables are spread over several table paths
// (DBOptions::db_paths, ColumnFamilyOptions::cf_paths) puts every table
// into its one directory, so the copy's MANIFEST must place every table in
// path 0 for the copy to open without those paths. Used by utilities/
// checkpoint and utilities/backup (the db internal they need: the MANIFEST
// record format).
//
// Thread-safety: a pure function of the file it reads.
#pragma once

#include <cstdint>
#include <string>

#include "strata/env.h"
#include "strata/status.h"

namespace strata {

// Reads the first `size` bytes of the MANIFEST at `path` (its valid prefix,
// as GetLiveFilesStorageInfo reports it) and sets *contents to the same
// VersionEdits, re-encoded, with every table's path id 0. *changed tells
// whether any path id was not 0 (the contents are then the rewritten
// ones; else the caller may copy the file as it is). Corruption naming
// the file and offset for a damaged record.
Status ManifestInOnePath(FileSystem* fs, const std::string& path, uint64_t size,
                         uint64_t manifest_number, std::string* contents, bool* changed);

}  // namespace strata
