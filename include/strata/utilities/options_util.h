// Reading a database's OPTIONS-NNNNNN file (RocksDB 7.8.3's
// utilities/options_util.h): the DB options and the column families with
// their options, as RocksDB or Strata last wrote them, ready for DB::Open.
//
// Every option Strata has is set from the file. A RocksDB option Strata
// lacks is skipped when it holds RocksDB's default value and is otherwise
// an InvalidArgument naming the file, the section and the option -- unless
// ignore_unknown_options, which skips it (and unknown names, and table
// formats other than BlockBasedTable) silently. Objects the file names
// only (comparators, merge operators, prefix extractors, filter policies)
// are made when Strata has one of that name (see strata/convenience.h);
// a comparator or merge operator it lacks is an InvalidArgument unless
// ignore_unknown_options (then the default: bytewise / none), and the
// caller sets it before Open. env, info_log, listeners, statistics and
// compaction filters are not in the file and keep their defaults.
// Thread-safety: stateless functions.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "strata/cache.h"
#include "strata/convenience.h"
#include "strata/db.h"
#include "strata/env.h"
#include "strata/export.h"
#include "strata/options.h"
#include "strata/status.h"

namespace strata {

// The newest OPTIONS file of dbpath. *cache, if given and set, becomes the
// block cache of every family (RocksDB's meaning). NotFound when dbpath
// has no OPTIONS file.
STRATA_EXPORT Status LoadLatestOptions(const ConfigOptions& config_options,
                                       const std::string& dbpath, DBOptions* db_options,
                                       std::vector<ColumnFamilyDescriptor>* cf_descs,
                                       std::shared_ptr<Cache>* cache = nullptr);
STRATA_EXPORT Status LoadLatestOptions(const std::string& dbpath, Env* env, DBOptions* db_options,
                                       std::vector<ColumnFamilyDescriptor>* cf_descs,
                                       bool ignore_unknown_options = false,
                                       std::shared_ptr<Cache>* cache = nullptr);
// One named OPTIONS file.
STRATA_EXPORT Status LoadOptionsFromFile(const ConfigOptions& config_options,
                                         const std::string& options_file_name,
                                         DBOptions* db_options,
                                         std::vector<ColumnFamilyDescriptor>* cf_descs,
                                         std::shared_ptr<Cache>* cache = nullptr);
STRATA_EXPORT Status LoadOptionsFromFile(const std::string& options_file_name, Env* env,
                                         DBOptions* db_options,
                                         std::vector<ColumnFamilyDescriptor>* cf_descs,
                                         bool ignore_unknown_options = false,
                                         std::shared_ptr<Cache>* cache = nullptr);
// The newest OPTIONS file's name (no directory), "OPTIONS-000007".
STRATA_EXPORT Status GetLatestOptionsFileName(const std::string& dbpath, Env* env,
                                              std::string* options_file_name);

}  // namespace strata
