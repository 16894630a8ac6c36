// strata: the command-line tool for a database directory. It takes RocksDB
// 7.8.3 ldb's commands, flags and output (docs/tools/ldb.md lists them and
// every difference), plus Strata's own `verify` and `count`:
//
//   strata --db=DIR scan [--from=K] [--to=K] [--max_keys=N] ...
//   strata --db=DIR verify [--merge_operator=NAME]   (also: strata verify DIR)
//   strata --db=DIR count [--merge_operator=NAME]    (also: strata count DIR)
//
// Read commands open the DB read-only and change nothing in it. The exit
// status is 0 on success and 1 on any failure (printed as "Failed: ..." on
// stderr), as ldb's.
// The commands live in tools/ldb/ (one file per group, a table in
// ldb_commands.h); this file is only main().

#include "tools/ldb/ldb_tool.h"

int main(int argc, char** argv) { return strata::ldb::RunLdbTool(argc, argv); }
