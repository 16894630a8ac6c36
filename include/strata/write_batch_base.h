// WriteBatchBase: the interface of a batch of updates, RocksDB's abstract
// base of WriteBatch and WriteBatchWithIndex (rocksdb/write_batch_base.h),
// so code can fill either kind through one reference.
//
// Every update has four forms: with and without a column family (null: the
// default family), and with Slice or SliceParts arguments (a SliceParts key
// or value is stored as the concatenation of its parts). The forms taking a
// timestamp `ts` exist for RocksDB's user-defined timestamps, which Strata
// has not: they return InvalidArgument "column family handle cannot be
// null" for a null family and "timestamp disabled" otherwise (RocksDB's
// answers for a family whose comparator has no timestamp), and Merge with a
// timestamp is NotSupported, as in RocksDB. PutEntity (wide columns) is
// NotSupported: Strata stores no wide-column entities.
//
// Thread-safety: not thread-safe (an implementation's const methods may
// run concurrently).
#pragma once

#include <cstddef>

#include "strata/export.h"
#include "strata/slice.h"
#include "strata/status.h"
#include "strata/wide_columns.h"

namespace strata {

class ColumnFamilyHandle;
class WriteBatch;

class STRATA_EXPORT WriteBatchBase {
 public:
  virtual ~WriteBatchBase();

  virtual Status Put(ColumnFamilyHandle* column_family, const Slice& key, const Slice& value) = 0;
  virtual Status Put(const Slice& key, const Slice& value) = 0;
  virtual Status Put(ColumnFamilyHandle* column_family, const Slice& key, const Slice& ts,
                     const Slice& value) = 0;
  // The SliceParts forms' defaults join the parts and call the Slice form.
  virtual Status Put(ColumnFamilyHandle* column_family, const SliceParts& key,
                     const SliceParts& value);
  virtual Status Put(const SliceParts& key, const SliceParts& value);

  virtual Status PutEntity(ColumnFamilyHandle* column_family, const Slice& key,
                           const WideColumns& columns) = 0;

  virtual Status Merge(ColumnFamilyHandle* column_family, const Slice& key, const Slice& value) = 0;
  virtual Status Merge(const Slice& key, const Slice& value) = 0;
  virtual Status Merge(ColumnFamilyHandle* column_family, const Slice& key, const Slice& ts,
                       const Slice& value) = 0;
  virtual Status Merge(ColumnFamilyHandle* column_family, const SliceParts& key,
                       const SliceParts& value);
  virtual Status Merge(const SliceParts& key, const SliceParts& value);

  virtual Status Delete(ColumnFamilyHandle* column_family, const Slice& key) = 0;
  virtual Status Delete(const Slice& key) = 0;
  virtual Status Delete(ColumnFamilyHandle* column_family, const Slice& key, const Slice& ts) = 0;
  virtual Status Delete(ColumnFamilyHandle* column_family, const SliceParts& key);
  virtual Status Delete(const SliceParts& key);

  virtual Status SingleDelete(ColumnFamilyHandle* column_family, const Slice& key) = 0;
  virtual Status SingleDelete(const Slice& key) = 0;
  virtual Status SingleDelete(ColumnFamilyHandle* column_family, const Slice& key,
                              const Slice& ts) = 0;
  virtual Status SingleDelete(ColumnFamilyHandle* column_family, const SliceParts& key);
  virtual Status SingleDelete(const SliceParts& key);

  // Deletes [begin_key, end_key).
  virtual Status DeleteRange(ColumnFamilyHandle* column_family, const Slice& begin_key,
                             const Slice& end_key) = 0;
  virtual Status DeleteRange(const Slice& begin_key, const Slice& end_key) = 0;
  virtual Status DeleteRange(ColumnFamilyHandle* column_family, const Slice& begin_key,
                             const Slice& end_key, const Slice& ts) = 0;
  virtual Status DeleteRange(ColumnFamilyHandle* column_family, const SliceParts& begin_key,
                             const SliceParts& end_key);
  virtual Status DeleteRange(const SliceParts& begin_key, const SliceParts& end_key);

  // A blob for the WAL only (never applied, not counted).
  virtual Status PutLogData(const Slice& blob) = 0;

  // Empties the batch (and drops its save points).
  virtual void Clear() = 0;

  // The batch in its wire form, owned by this object (for DB::Write).
  virtual WriteBatch* GetWriteBatch() = 0;

  // Save points: see WriteBatch.
  virtual void SetSavePoint() = 0;
  virtual Status RollbackToSavePoint() = 0;
  virtual Status PopSavePoint() = 0;

  // An update that would grow the batch past max_bytes (0: no limit) is
  // undone and returns Aborted with the MemoryLimit subcode.
  virtual void SetMaxBytes(size_t max_bytes) = 0;

 protected:
  // The answers shared by every implementation's timestamp and PutEntity
  // forms (see the file comment).
  static Status TimestampRefused(ColumnFamilyHandle* column_family);
  static Status MergeTimestampRefused();
  static Status PutEntityRefused(ColumnFamilyHandle* column_family);
};

}  // namespace strata
