// rocksdb/utilities/option_change_migration.h: rewrites a closed database
// so that it opens with new options whose compaction style or number of
// levels differ from the old ones, as RocksDB 7.8.3 does: the data is
// compacted into a level the new shape has (universal: below num_levels;
// level style: level 1, or the last level with dynamic level bytes; FIFO:
// level 0, in files of at most max_table_files_size / 8). The database is
// opened (with the old options and automatic compactions off) and closed
// by the call; only the default column family is migrated.
// Thread-safety: no other user of the database while it runs.
#pragma once

#include <string>

#include "rocksdb/options.h"
#include "rocksdb/status.h"

namespace rocksdb {

// OK without doing anything when no rewrite is needed (an old FIFO
// database, fewer old levels than new, ...).
Status OptionChangeMigration(std::string dbname, const Options& old_opts, const Options& new_opts);

}  // namespace rocksdb
