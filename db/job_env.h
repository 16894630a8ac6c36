// JobEnv: what a background job (FlushJob, CompactionJob) borrows from its
// DB -- names, file system, clock, versions, logging -- and the helpers both
// jobs use to set up their table output.
//
// Thread-safety: a JobEnv is a bundle of borrowed pointers, immutable after
// the job is made; the pointees are thread-safe (VersionSet's file-number
// counter included) except where a job's method says REQUIRES the mutex.
#pragma once

#include <memory>
#include <string>

#include "base/dbformat.h"
#include "db/builder.h"
#include "strata/compaction_filter.h"
#include "strata/env.h"
#include "strata/statistics.h"
#include "util/mutex.h"

namespace strata {

class ColumnFamilyData;
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
};

// The BuildTables options every job of cfd starts from: table options,
// compression, merge operator, file numbering, identity, creation time.
BuildTablesOptions NewBuildTablesOptions(const JobEnv& env, ColumnFamilyData* cfd);

// The compaction filter for one job of cfd: its options' filter, or a new
// one from the factory (kept in *owned), or null.
const CompactionFilter* CompactionFilterFor(ColumnFamilyData* cfd, bool manual, bool full,
                                            std::unique_ptr<CompactionFilter>* owned);

// Whether a file of v at from_level or deeper has user_key in its range.
// Without the DB mutex: v is immutable and referenced by the caller.
bool KeyInLevelsFrom(const Version* v, int from_level, const Slice& user_key);

}  // namespace strata
