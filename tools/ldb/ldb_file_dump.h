// Printing a WAL or a MANIFEST file the way ldb 7.8.3 does (dump_wal,
// manifest_dump, dump --path=FILE). These read the file only.
// Thread-safety: plain functions writing to stdout/stderr.
#pragma once

#include <string>

#include "tools/ldb/ldb_command.h"

namespace strata::ldb {

// One line per WAL record: sequence,count,byte size,offset,records (keys and
// with print_values the values, hex). Damage is reported on stderr ("Corruption
// detected in log file ...") and reading goes on, as ldb does; a batch that
// does not parse fails *state.
void DumpWalFile(const std::string& path, bool print_header, bool print_values, ExecState* state);

// The column families and their levels at the end of the MANIFEST, then
// the counters line; verbose prints every edit first. Errors go to stderr as
// "Error in processing file <path> <status>".
void DumpManifestFile(const std::string& path, bool verbose, bool hex, bool json);

// dump --path=FILE: a WAL or a MANIFEST by its name; other files fail.
void DumpFileByType(const std::string& path, bool hex, ExecState* state);

}  // namespace strata::ldb
