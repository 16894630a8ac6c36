// ManifestTailer: how a secondary instance (DB::OpenAsSecondary) follows
// the MANIFEST of a primary that keeps appending to it, in this process or
// another one (docs/design/secondary.md).
//
// VersionSet::Recover reads the MANIFEST once; the tailer goes on from the
// end of the last complete record it read. Each CatchUp reads CURRENT: if it
// still names the same MANIFEST, the records appended since are decoded; if
// it names a new one (the primary rolled over at max_manifest_file_size, or
// reopened), that one is replayed from its start, which describes the whole
// state again. The edits read are applied, per family the secondary opened,
// to a VersionBuilder (based on the family's current Version, or on nothing
// after a switch); every table file of the resulting Version is opened and
// pinned (TableCache::Pin) before the Version is installed, so the files of
// an installed Version stay readable after the primary deletes them. A file
// already gone means the primary compacted it away after an edit not read
// yet: the tailer reads on and builds again.
//
// A record the primary is still appending (the file ends inside it) is not
// damage: the tailer stops before it and reads it next time. Damage followed
// by intact records is Corruption naming the MANIFEST and the offset.
//
// Edits of families the secondary did not open, and families the primary
// created after the secondary opened, are ignored (as RocksDB does). A
// family the secondary opened that the primary dropped is reported in
// *dropped; the caller takes it out of the live set.
//
// Thread-safety: not thread-safe -- one CatchUp at a time (DBImpl
// serializes them). CatchUp takes the DB mutex itself, to build and to
// install, and releases it while it reads files.
// Invariants:
//  1. offset_ is 0 or the end of a complete record of MANIFEST
//     manifest_number_; every record before it is in pending_ or applied.
//  2. pending_ holds the edits read but not yet installed (a failed attempt
//     keeps them for the next); from_scratch_ says they start a MANIFEST.
//  3. Every file of every family's installed Version is pinned open.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "db/version_edit.h"
#include "db/version_set.h"
#include "strata/env.h"
#include "strata/status.h"
#include "util/mutex.h"

namespace strata {

class ColumnFamilyData;

class ManifestTailer {
 public:
  // versions, fs and info_log are borrowed and must outlive the tailer.
  ManifestTailer(VersionSet* versions, FileSystem* fs, const std::string& dbname, Logger* info_log);
  ManifestTailer(const ManifestTailer&) = delete;
  ManifestTailer& operator=(const ManifestTailer&) = delete;

  // Continues from where VersionSet::Recover stopped. The next CatchUp
  // pins the files of the recovered Versions (building them again) even if
  // nothing new was appended. REQUIRES: the DB mutex.
  void Start();

  // Reads what was appended (or a new MANIFEST) and installs each opened
  // family's new Version, log number and the set's counters. changed: the
  // families that got a new Version; dropped: opened families the primary
  // dropped (still in the live set; the caller removes them). TryAgain
  // when table files stayed missing through many rounds of newer edits; a
  // file missing with nothing newer to read fails with its open error.
  // REQUIRES: the DB mutex is not held.
  Status CatchUp(std::vector<ColumnFamilyData*>* changed, std::vector<ColumnFamilyData*>* dropped);

  // The MANIFEST being tailed and the offset reached (tests, logs).
  uint64_t manifest_number() const { return manifest_number_; }
  uint64_t offset() const { return offset_; }

  // Drops from the table caches the readers of files this tailer pinned
  // that no Version lists any more (the primary has deleted them; the
  // descriptor would otherwise stay open). REQUIRES: the DB mutex.
  void EvictUnusedTables();

 private:
  // One family's next Version, built but not installed.
  struct Candidate {
    ColumnFamilyData* cfd = nullptr;
    Version* v = nullptr;  // null: the family is dropped
    uint64_t log_number = 0;
  };

  Status ReadCurrent(uint64_t* number);
  // Reads the records past offset_ (after switching MANIFEST if CURRENT
  // names another) into pending_. *progress: something was read or the
  // MANIFEST switched.
  Status ReadNew(bool* progress);
  // The next Version of each live family from pending_. REQUIRES: mutex.
  Status Build(std::vector<Candidate>* out);
  // Opens and pins every file of the candidates; the first failure.
  Status PinAll(const std::vector<Candidate>& candidates, uint64_t* failed_file);
  void Discard(std::vector<Candidate>* candidates);
  // Makes the candidates current and folds the counters. REQUIRES: mutex.
  void Install(std::vector<Candidate>* candidates, std::vector<ColumnFamilyData*>* changed,
               std::vector<ColumnFamilyData*>* dropped);

  VersionSet* const versions_;
  FileSystem* const fs_;
  const std::string dbname_;
  Logger* const info_log_;
  Mutex* const db_mu_;

  uint64_t manifest_number_ = 0;
  uint64_t offset_ = 0;
  bool from_scratch_ = false;
  bool rebuild_ = false;  // build and pin even with nothing pending (open)
  std::vector<VersionEdit> pending_;
  // Files pinned so far, with the family whose table cache holds them.
  std::map<uint64_t, ColumnFamilyData*> pinned_;
};

}  // namespace strata
