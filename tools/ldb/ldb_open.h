// The one place `strata` opens a database (every command goes through
// OpenDatabase), so the read-only guarantee lives in one function.
//
// read_only=true opens without writing anything in the directory: no LOG,
// OPTIONS, MANIFEST, WAL or table file is created, changed or removed, and
// the WAL is replayed into memory only.
// Thread-safety: not thread-safe; one open DB per OpenedDb.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "strata/db.h"
#include "strata/options.h"
#include "strata/status.h"

namespace strata::ldb {

// An open DB with a handle per family asked for (in the order asked).
// Destruction destroys the handles and closes the DB.
struct OpenedDb {
  OpenedDb() = default;
  OpenedDb(const OpenedDb&) = delete;
  OpenedDb& operator=(const OpenedDb&) = delete;
  ~OpenedDb();

  std::unique_ptr<DB> db;
  std::vector<ColumnFamilyHandle*> handles;
};

// Opens the DB at path with the given families (handles in that order); an
// empty list opens the default family alone with options.
// ttl: opens it as a DBWithTTL with ttl 0 (values stamped on writes and
// stripped on reads, nothing expires), as ldb --ttl does; the default family
// only (InvalidArgument with families, ldb's message).
Status OpenDatabase(const std::string& path, const Options& options,
                    const std::vector<ColumnFamilyDescriptor>& families, bool read_only,
                    std::unique_ptr<OpenedDb>* out, bool ttl = false);

}  // namespace strata::ldb
