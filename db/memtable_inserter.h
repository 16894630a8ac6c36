// Applying a WriteBatch to a memtable: record i of the batch gets sequence
// first_seq + i (LogData records take none), as RocksDB numbers them.
// Thread-safety: as MemTable::Add -- concurrent calls need concurrent=true.
#pragma once

#include "db/dbformat.h"
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
};
Status InspectBatch(const WriteBatch& batch, BatchContents* contents);

// Inserts every record of batch into mem. Records for a column family other
// than 0 are skipped (they still consume a sequence number) when
// skip_other_cfs, else they fail with InvalidArgument (callers check with
// InspectBatch first, so nothing is half-applied in normal operation). Range
// deletions go to the memtable's range tombstones.
Status InsertBatchIntoMemTable(const WriteBatch& batch, SequenceNumber first_seq, MemTable* mem,
                               bool concurrent, bool skip_other_cfs);

}  // namespace strata
