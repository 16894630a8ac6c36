// strata: the command-line tool for a database directory. It takes RocksDB
// 7.8.3 ldb's commands, flags and output (docs/tools/ldb.md lists them and
// every difference), plus Strata's own `verify`, `count` and `report`:
//
//   strata --db=DIR scan [--from=K] [--to=K] [--max_keys=N] ...
//   strata --db=DIR verify [--merge_operator=NAME]   (also: strata verify DIR)
//   strata --db=DIR count [--merge_operator=NAME]    (also: strata count DIR)
//   strata report --db=DIR --out=FILE.html           (docs/tools/report.md)
//
// Read commands open the DB read-only and change nothing in it. The exit
// status is 0 on success and 1 on any failure (printed as "Failed: ..." on
// stderr), as ldb's.
// The ldb commands live in tools/ldb/ (one file per group, a table in
// ldb_commands.h), built into libstrata and run through the public
// strata::RunLDBTool (strata/utilities/ldb_tool.h, also RocksDB's LDBTool in
// libstrata-rocksdb); `report` parses its own arguments
// (tools/strata_report.h).

#include <cstring>

#include "strata/utilities/ldb_tool.h"
#include "tools/strata_report.h"

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "report") == 0) {
    return strata::RunReport(argc - 1, argv + 1);
  }
  strata::LDBOptions ldb_options;
  ldb_options.print_help_header =
      "strata: RocksDB 7.8.3 ldb's commands on a Strata (or RocksDB) database";
  return strata::RunLDBTool(argc, argv, strata::Options(), ldb_options);
}
