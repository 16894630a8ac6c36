// JobEnv: what a background job (FlushJob, CompactionJob) borrows from its
// DB -- names, file system, clock, versions, logging -- and the helpers both
// jobs use to set up their table output.
//
// Thread-safety: a JobEnv is a bundle of borrowed pointers, immutable after
// the job is made; the pointees are thread-safe (VersionSet's file-number
// counter included) except where a job's method says REQUIRES the mutex.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "base/dbformat.h"
#include "db/builder.h"
#include "db/event_helpers.h"
#include "strata/compaction_filter.h"
#include "strata/env.h"
#include "strata/statistics.h"
#include "util/mutex.h"

namespace strata {

class ColumnFamilyData;
class DB;
class Version;
class VersionSet;

struct JobEnv {
  const std::string* dbname = nullptr;
  FileSystem* fs = nullptr;
  Directory* db_dir = nullptr;  // synced before the MANIFEST names new files
  SystemClock* clock = nullptr;
  VersionSet* versions = nullptr;
  Mutex* mu = nullptr;          // the DB mutex
  Statistics* stats = nullptr;  // may be null
  Logger* info_log = nullptr;   // may be null
  const std::string* db_id = nullptr;
  const std::string* db_session_id = nullptr;
  // Events: the DB's listeners (may be empty) and this job's number, which
  // its EVENT_LOG lines and listener infos carry (db/event_helpers.h).
  const Listeners* listeners = nullptr;
  int job_id = 0;
  DB* db = nullptr;  // passed to the listeners' flush and compaction callbacks
  // DBOptions::compaction_readahead_size when the job was made (mutable).
  size_t compaction_readahead_size = 0;
  // Paced I/O (issue 19): a compaction's outputs, before its MANIFEST edit,
  // go to the SstFileManager; an error (the space limit reached) fails the
  // compaction. Empty: nothing to tell.
  // The family's table paths are the first argument.
  std::function<Status(const std::vector<DbPath>&, const std::vector<FileMetaData>&)> on_new_tables;
};

// The BuildTables options every job of cfd starts from: table options,
// compression, merge operator, file numbering, identity, creation time.
// The outputs go to the family's first table path (flushes, as RocksDB).
BuildTablesOptions NewBuildTablesOptions(const JobEnv& env, ColumnFamilyData* cfd);

// Makes the new directory entries in `dir` (a table path) durable: the
// DB's directory through env.db_dir, another one opened for the purpose.
Status SyncTableDir(const JobEnv& env, const std::string& dir);

// The compaction filter for one job of cfd: its options' filter, or a new
// one from the factory (kept in *owned) when the factory's
// ShouldFilterTableFileCreation(reason) says so, or null.
const CompactionFilter* CompactionFilterFor(ColumnFamilyData* cfd, bool manual, bool full,
                                            TableFileCreationReason reason,
                                            std::unique_ptr<CompactionFilter>* owned);

// NotSupported if filter's IgnoreSnapshots() is false (RocksDB 7.8.3 fails
// such a job with the same words), else OK.
Status CheckCompactionFilter(const CompactionFilter* filter);

// Whether a file of v at from_level or deeper has user_key in its range.
// Without the DB mutex: v is immutable and referenced by the caller.
bool KeyInLevelsFrom(const Version* v, int from_level, const Slice& user_key);

// Bits per key of the in-memory key filters cfd's level-0 tables get
// (Options::l0_key_filter_bits_per_key), or 0: only when the tables have no
// whole-key filter of their own, and only with comparators whose equality
// is byte equality (the filter hashes bytes).
uint32_t LevelZeroKeyFilterBits(ColumnFamilyData* cfd);

// Reads the level-0 table f through cfd's table cache and installs a key
// filter over its user keys in f->late_key_filter. Leaves f alone when it
// holds range tombstones (a lookup skipping it would skip them) or already
// has a filter. REQUIRES: f stays live (a referenced Version lists it).
Status BuildLateKeyFilter(ColumnFamilyData* cfd, FileMetaData* f, uint32_t bits_per_key);

}  // namespace strata
