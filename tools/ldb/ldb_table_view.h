// TableView: the files of one column family as a read-only DB sees them,
// read directly (tables through BlockBasedTable, WALs through log::Reader)
// for the commands that need internal keys: idump (every key version),
// list_file_range_deletes (each table's tombstones) and approxsize (table
// offsets, the way RocksDB estimates them). Nothing is written.
// Thread-safety: not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "strata/status.h"
#include "table/block_based_table_reader.h"
#include "tools/ldb/ldb_manifest.h"

namespace strata::ldb {

struct InternalEntry {
  std::string key;  // internal key
  std::string value;
};

class TableView {
 public:
  // Reads dbpath's MANIFEST (through CURRENT) and finds family cf_name.
  static Status Open(const std::string& dbpath, const std::string& cf_name,
                     std::unique_ptr<TableView>* out);

  const ManifestFamily& family() const { return family_; }
  int num_levels() const;  // the levels the family shows (7, or deeper if used)

  // Opens the table file `number` of the family.
  Status OpenTable(uint64_t number, std::unique_ptr<BlockBasedTable>* table) const;
  std::string TablePath(uint64_t number) const;

  // Every point entry of the tables and of the WALs at or after the
  // family's log number, in internal-key order, without those a range
  // tombstone with a larger sequence number covers (as RocksDB's internal
  // iterator shows them). Two-phase-commit sections count as a
  // WriteCommitted DB's recovery counts them: committed ones at their
  // commit's sequence numbers, rolled-back and unresolved ones not at all.
  Status CollectEntries(std::vector<InternalEntry>* out) const;

  // RocksDB's estimate of the table bytes holding user keys in [start, end)
  // (VersionSet::ApproximateSize over all levels).
  Status ApproximateSize(const std::string& start, const std::string& end, uint64_t* size) const;

 private:
  std::string dbpath_;
  ManifestFamily family_;
};

}  // namespace strata::ldb
