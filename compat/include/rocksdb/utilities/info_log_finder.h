// rocksdb/utilities/info_log_finder.h: the names of a database's info LOG
// files (the current one and the rolled ones), from its options'
// db_log_dir or its own directory, as RocksDB names them (Strata names its
// LOGs the same way).
// Thread-safety: thread-safe.
#pragma once

#include <string>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/rocksdb_namespace.h"

namespace rocksdb {
// Appends the file names (not paths) to *info_log_list. InvalidArgument
// "DB pointer is not valid" for a null db.
Status GetInfoLogList(DB* db, std::vector<std::string>* info_log_list);
}  // namespace rocksdb
