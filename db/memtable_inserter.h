// Applying a WriteBatch to the memtables of its column families: record i of
// the batch gets sequence first_seq + i (LogData records take none), as
// RocksDB numbers them.
// Thread-safety: as MemTable::Add -- concurrent calls need concurrent=true.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "base/dbformat.h"
#include "db/column_family.h"
#include "memtable/memtable.h"
#include "strata/status.h"
#include "strata/write_batch.h"

namespace strata {

// What the batch holds, found by one pass over it.
struct BatchContents {
  uint32_t puts = 0;
  uint32_t deletes = 0;
  uint32_t single_deletes = 0;
  uint32_t merges = 0;
  uint32_t range_deletes = 0;
  uint32_t non_default_cf = 0;  // records for a column family other than 0
  // Merges into a family with no merge operator (counted when the families
  // are given).
  uint32_t merges_without_operator = 0;
  // Two-phase-commit markers (BeginPrepare, EndPrepare, Commit, Rollback).
  uint32_t txn_markers = 0;
};
// With families non-null, also checks that every column family id of the
// batch is live (InvalidArgument otherwise).
Status InspectBatch(const WriteBatch& batch, BatchContents* contents,
                    const ColumnFamilySet* families = nullptr);

// A prepared transaction found in the WALs at open: its name, the WAL
// holding its prepared section, and the section's records.
struct RecoveredTransaction {
  std::string name;
  uint64_t log_number = 0;
  WriteBatch batch;
};
// By name; replay adds at EndPrepare and removes at Commit / Rollback.
using RecoveredTransactions = std::map<std::string, std::unique_ptr<RecoveredTransaction>>;

// Where the records of a batch go.
struct MemTableTargets {
  // Family 0's memtable; null skips its records (recovery).
  MemTable* default_mem = nullptr;
  // The other families (their mutable memtables); null when only the
  // default family exists.
  const ColumnFamilySet* families = nullptr;
  // Non-zero during recovery: the number of the WAL being replayed.
  // Records of a family whose log number is past it are skipped (its data
  // is in tables) and records of unknown (dropped) families are ignored.
  uint64_t recovery_log_number = 0;
  // Recovery with allow_2pc: where prepared sections are rebuilt (null:
  // a BeginPrepare marker in a replayed WAL is NotSupported). Outside
  // recovery the markers are skipped and the records between them (a
  // commit's prepared data, behind the WAL termination point) inserted.
  RecoveredTransactions* recovered = nullptr;
  // Two-phase commit: the WAL of the prepared section whose data this
  // batch commits (0: none); each memtable written references it.
  uint64_t log_ref = 0;
};

// Inserts every record of batch into its family's memtable. Skipped
// records still consume a sequence number. A record of an unknown family
// fails with InvalidArgument outside recovery (callers check with
// InspectBatch first, so nothing is half-applied in normal operation). Range
// deletions go to the memtable's range tombstones.
// *next_seq (optional) gets the sequence after the last one consumed
// (during recovery a Commit marker consumes the sequences of the prepared
// records it applies).
Status InsertBatchIntoMemTable(const WriteBatch& batch, SequenceNumber first_seq,
                               const MemTableTargets& targets, bool concurrent,
                               SequenceNumber* next_seq = nullptr);

}  // namespace strata
