// ManifestState: the LSM shape a MANIFEST describes, rebuilt by replaying
// its VersionEdits without opening the DB (nothing is written), for
// manifest_dump, list_live_files_metadata, dump_live_files, checkconsistency
// and reduce_levels. Levels are ordered as a Version orders them: level 0
// newest first (largest sequence number, then file number, descending),
// other levels by smallest key.
// Thread-safety: plain values; not thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "db/version_edit.h"
#include "strata/env.h"
#include "strata/status.h"

namespace strata::ldb {

// RocksDB's DumpManifest shows 64 levels; files may sit on any of them.
inline constexpr int kDumpLevels = 64;

struct ManifestFamily {
  uint32_t id = 0;
  std::string name;
  uint64_t log_number = 0;
  std::string comparator;                         // as recorded ("" if never)
  std::vector<std::vector<FileMetaData>> levels;  // kDumpLevels entries
};

struct ManifestState {
  std::vector<ManifestFamily> families;  // live ones, in creation order
  int families_created = 0;              // every family ever created, default included
  uint64_t next_file_number = 0;         // as recorded (RocksDB prints it plus one)
  uint64_t last_sequence = 0;
  uint64_t prev_log_number = 0;
  uint64_t min_log_number_to_keep = 0;
  uint32_t max_column_family = 0;
  std::string db_id;
};

// Replays the MANIFEST at path. on_edit (if set) sees each edit first.
Status ReadManifest(FileSystem* fs, const std::string& path,
                    const std::function<void(const VersionEdit&)>& on_edit, ManifestState* out);

// The MANIFEST that dbpath/CURRENT names.
Status CurrentManifestPath(FileSystem* fs, const std::string& dbpath, std::string* path);

// Writes a new MANIFEST (numbered state.next_file_number) holding state as
// one snapshot edit per family, points CURRENT at it and removes the old
// MANIFEST old_path. For reduce_levels, with the DB closed.
Status WriteManifestSnapshot(FileSystem* fs, const std::string& dbpath, const ManifestState& state,
                             const std::string& old_path);

// RocksDB's InternalKey::DebugString: 'user_key' seq:N, type:T (the user
// key hex-encoded without 0x when hex), or (bad) and the escaped bytes.
std::string InternalKeyDebugString(const Slice& internal_key, bool hex);

}  // namespace strata::ldb
