// rocksdb/utilities/options_util.h: the options a database was last opened
// with, read from its newest OPTIONS-NNNNNN file, ready for DB::Open.
//
// Strata reads the file (strata/utilities/options_util.h: RocksDB's and
// Strata's OPTIONS files alike); the result is converted to RocksDB's
// structs. Fields Strata lacks hold RocksDB's defaults. Objects the file
// names only (comparator, merge operator, prefix extractor, filter policy)
// are made when Strata has one of that name; env, info_log, listeners,
// statistics and compaction filters are not in the file.
//
// CheckOptionsCompatibility compares given options with the newest OPTIONS
// file at config_options.sanity_level, as RocksDB's parser does: the
// families' number and names always; at kSanityLevelLooselyCompatible (the
// level of the form taking an Env) the comparator's, merge operator's and
// table factory's names; at kSanityLevelExactMatch also every other
// option Strata serializes (DB, family and block-based table options).
// A mismatch is InvalidArgument naming the option
// ("[RocksDBOptionsParser]: failed the verification on ..."); a mismatch
// among the block-based table's own options is Corruption, as RocksDB's.
// Thread-safety: stateless functions.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "rocksdb/cache.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/options.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/status.h"

namespace rocksdb {

// *cache, if given and set, becomes every family's block cache.
Status LoadLatestOptions(const std::string& dbpath, Env* env, DBOptions* db_options,
                         std::vector<ColumnFamilyDescriptor>* cf_descs,
                         bool ignore_unknown_options = false, std::shared_ptr<Cache>* cache = {});
Status LoadLatestOptions(const ConfigOptions& config_options, const std::string& dbpath,
                         DBOptions* db_options, std::vector<ColumnFamilyDescriptor>* cf_descs,
                         std::shared_ptr<Cache>* cache = {});
Status LoadOptionsFromFile(const std::string& options_file_name, Env* env, DBOptions* db_options,
                           std::vector<ColumnFamilyDescriptor>* cf_descs,
                           bool ignore_unknown_options = false, std::shared_ptr<Cache>* cache = {});
Status LoadOptionsFromFile(const ConfigOptions& config_options,
                           const std::string& options_file_name, DBOptions* db_options,
                           std::vector<ColumnFamilyDescriptor>* cf_descs,
                           std::shared_ptr<Cache>* cache = {});
Status CheckOptionsCompatibility(const std::string& dbpath, Env* env, const DBOptions& db_options,
                                 const std::vector<ColumnFamilyDescriptor>& cf_descs,
                                 bool ignore_unknown_options = false);
Status CheckOptionsCompatibility(const ConfigOptions& config_options, const std::string& dbpath,
                                 const DBOptions& db_options,
                                 const std::vector<ColumnFamilyDescriptor>& cf_descs);

// The newest OPTIONS file's name, without the directory.
Status GetLatestOptionsFileName(const std::string& dbpath, Env* env,
                                std::string* options_file_name);

}  // namespace rocksdb
