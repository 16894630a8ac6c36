// WriteBatchWithIndex: a WriteBatch plus a searchable index of its records,
// so a transaction-like writer can read its own uncommitted writes -- alone
// (GetFromBatch, NewIterator) or laid over the database (GetFromBatchAndDB,
// NewIteratorWithBase) -- before handing the batch to DB::Write. RocksDB's
// utility with its names and semantics, so code ports by renaming the
// namespace; the differences are listed at the end of this comment.
//
// Thread-safety: not thread-safe, reads included (lookups build a cache of
// range deletions lazily); use one object from one thread at a time.
//
// Model. Every write appends one record to the underlying WriteBatch
// (GetWriteBatch()) and, except PutLogData, makes the record visible to the
// readers below. A key's state in the batch is what applying its records in
// order gives: Put sets a value, Delete and SingleDelete remove it, Merge
// adds an operand, DeleteRange(begin, end) removes every key in
// [begin, end) written before it (in the batch and in the database).
//
// Invariants:
//  1. The index orders point records by (column family id, user key by the
//     index comparator, position in the batch); records of one key appear
//     oldest first when iterating forward, as in RocksDB.
//  2. overwrite_key = false: every point record is indexed.
//     overwrite_key = true: a Put, Delete or SingleDelete of a key already
//     indexed in its family replaces that key's newest index entry (the
//     WriteBatch still holds both records); a Merge always adds an entry
//     (its operands are needed). So NewIterator shows at most one entry per
//     key unless Merges are involved -- RocksDB's behaviour.
//  3. Range deletions are kept beside the index, per family; NewIterator
//     (the batch-only WBWIIterator) shows point records only, while every
//     read (GetFromBatch*, NewIteratorWithBase) applies them.
//  4. The batch's bytes are never rewritten: the WriteBatch returned by
//     GetWriteBatch() is exactly the sequence of calls made since the last
//     Clear(), in order.
//
// Merge operators. RocksDB takes a family's merge operator from the family
// handle; a Strata ColumnFamilyHandle does not expose its options, so the
// readers that may need to resolve Merge records take the operator as an
// argument (`const MergeOperator*`, borrowed for the call / the iterator's
// life). With no operator, a read that must combine operands fails with
// InvalidArgument("Merge_operator must be set for column_family").
//
// Differences from RocksDB: DeleteRange is supported (RocksDB refuses it);
// one comparator (backup_index_comparator) orders every family, and the
// base iterator given to NewIteratorWithBase must use the same order;
// max_bytes overflow returns Aborted with the MemoryLimit subcode, as
// RocksDB's; no PinnableSlice variants.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "strata/comparator.h"
#include "strata/export.h"
#include "strata/iterator.h"
#include "strata/options.h"
#include "strata/slice.h"
#include "strata/status.h"
#include "strata/write_batch.h"

namespace strata {

class ColumnFamilyHandle;
class Comparator;
class DB;
class MergeOperator;

// The kind of a batch record as WBWIIterator reports it (RocksDB's values).
enum WriteType {
  kPutRecord,
  kMergeRecord,
  kDeleteRecord,
  kSingleDeleteRecord,
  kDeleteRangeRecord,
  kLogDataRecord,
  kXIDRecord,
  kPutEntityRecord,
  kUnknownRecord,
};

// One batch record. key and value point into the batch's buffer: valid until
// the batch is next written to or cleared. value is empty for deletions.
struct STRATA_EXPORT WriteEntry {
  WriteType type = kUnknownRecord;
  Slice key;
  Slice value;
};

// A cursor over one column family's indexed point records (invariant 1),
// without the database. Seek(k) lands on the oldest record of the first key
// >= k; SeekForPrev(k) on the newest record of the last key <= k.
// The batch must outlive the iterator. Writing to the batch while an
// iterator is open is allowed: the iterator stays usable, Entry() must be
// called again, and later moves may or may not see the new records.
// Thread-safety: not thread-safe.
class STRATA_EXPORT WBWIIterator {
 public:
  virtual ~WBWIIterator();
  virtual bool Valid() const = 0;
  virtual void SeekToFirst() = 0;
  virtual void SeekToLast() = 0;
  virtual void Seek(const Slice& key) = 0;
  virtual void SeekForPrev(const Slice& key) = 0;
  // REQUIRES: Valid()
  virtual void Next() = 0;
  // REQUIRES: Valid()
  virtual void Prev() = 0;
  // REQUIRES: Valid()
  virtual WriteEntry Entry() const = 0;
  // Always OK (the index holds only records it wrote itself).
  virtual Status status() const = 0;
};

// A WriteBatchBase (strata/write_batch_base.h): the SliceParts forms join
// their parts. The timestamp forms and PutEntity answer as RocksDB 7.8.3's
// WriteBatchWithIndex: InvalidArgument without a family, else NotSupported
// (DeleteRange with a timestamp: NotSupported "DeleteRange unsupported in
// WriteBatchWithIndex"; PutEntity: "PutEntity not supported by
// WriteBatchWithIndex"; Merge: as WriteBatch's).
class STRATA_EXPORT WriteBatchWithIndex final : public WriteBatchBase {
 public:
  // backup_index_comparator: the user-key order of the index (borrowed; must
  // outlive the batch). reserved_bytes: initial capacity of the WriteBatch.
  // overwrite_key: see invariant 2. max_bytes: 0 = unlimited; otherwise a
  // write that would make the batch larger fails with Aborted and changes
  // nothing.
  explicit WriteBatchWithIndex(const Comparator* backup_index_comparator = BytewiseComparator(),
                               size_t reserved_bytes = 0, bool overwrite_key = false,
                               size_t max_bytes = 0);
  ~WriteBatchWithIndex() override;
  WriteBatchWithIndex(const WriteBatchWithIndex&) = delete;
  WriteBatchWithIndex& operator=(const WriteBatchWithIndex&) = delete;
  WriteBatchWithIndex(WriteBatchWithIndex&&) noexcept;
  WriteBatchWithIndex& operator=(WriteBatchWithIndex&&) noexcept;

  // Writers. cf null (or the overloads without cf) = the default family
  // (id 0); otherwise cf->GetID() names the family (the handle is not kept).
  // Each fails, changing nothing, with InvalidArgument when a key or value
  // exceeds 4 GiB - 1 bytes, or with Aborted past max_bytes.
  using WriteBatchBase::Delete;
  using WriteBatchBase::DeleteRange;
  using WriteBatchBase::Merge;
  using WriteBatchBase::Put;
  using WriteBatchBase::SingleDelete;
  Status Put(ColumnFamilyHandle* cf, const Slice& key, const Slice& value) override;
  Status Put(const Slice& key, const Slice& value) override;
  Status Put(ColumnFamilyHandle* cf, const Slice& key, const Slice& ts,
             const Slice& value) override;
  Status PutEntity(ColumnFamilyHandle* cf, const Slice& key, const WideColumns& columns) override;
  Status Merge(ColumnFamilyHandle* cf, const Slice& key, const Slice& value) override;
  Status Merge(const Slice& key, const Slice& value) override;
  Status Merge(ColumnFamilyHandle* cf, const Slice& key, const Slice& ts,
               const Slice& value) override;
  Status Delete(ColumnFamilyHandle* cf, const Slice& key) override;
  Status Delete(const Slice& key) override;
  Status Delete(ColumnFamilyHandle* cf, const Slice& key, const Slice& ts) override;
  Status SingleDelete(ColumnFamilyHandle* cf, const Slice& key) override;
  Status SingleDelete(const Slice& key) override;
  Status SingleDelete(ColumnFamilyHandle* cf, const Slice& key, const Slice& ts) override;
  // Deletes [begin_key, end_key); covers nothing unless begin_key < end_key.
  Status DeleteRange(ColumnFamilyHandle* cf, const Slice& begin_key, const Slice& end_key) override;
  Status DeleteRange(const Slice& begin_key, const Slice& end_key) override;
  Status DeleteRange(ColumnFamilyHandle* cf, const Slice& begin_key, const Slice& end_key,
                     const Slice& ts) override;
  // A blob written to the WAL only; not indexed.
  Status PutLogData(const Slice& blob) override;

  // Empties the batch and the index (and drops the save points).
  // Iterators of this batch must be destroyed first.
  void Clear() override;
  // Replaces the constructor's max_bytes for later writes (0: no limit).
  void SetMaxBytes(size_t max_bytes) override;

  // Save points of the batch (WriteBatch's): RollbackToSavePoint also
  // rolls the index back (it is rebuilt from the remaining records, O(n));
  // NotFound when no save point is set. Iterators of this batch must be
  // destroyed before a rollback.
  void SetSavePoint() override;
  Status RollbackToSavePoint() override;
  Status PopSavePoint() override;

  // The underlying batch, to pass to DB::Write. Owned by this object; valid
  // until it is destroyed. Do not modify it directly (the index would miss
  // the change).
  WriteBatch* GetWriteBatch() override;

  // A cursor over the batch's records of one family (default: family 0).
  std::unique_ptr<WBWIIterator> NewIterator(ColumnFamilyHandle* cf) const;
  std::unique_ptr<WBWIIterator> NewIterator() const;

  // The batch laid over base_iterator (an iterator over family cf of the
  // database, in the index comparator's order; owned by the result): keys
  // deleted in the batch (also by DeleteRange) are hidden, Puts replace the
  // base value, Merges are combined with the batch's or the base's older
  // value by merge_operator (see the top comment). Both directions; seeks
  // and direction changes at any time. read_options (borrowed; may be null)
  // supplies iterate_lower_bound / iterate_upper_bound, applied to both the
  // batch and the base. status() reports the base iterator's error or a
  // failed merge; a failed merge also makes the iterator invalid.
  // The batch must outlive the iterator; writing to the batch while it is
  // open invalidates key() and value() until the next move or seek.
  std::unique_ptr<Iterator> NewIteratorWithBase(
      ColumnFamilyHandle* cf, std::unique_ptr<Iterator> base_iterator,
      const ReadOptions* read_options = nullptr,
      const MergeOperator* merge_operator = nullptr) const;
  std::unique_ptr<Iterator> NewIteratorWithBase(std::unique_ptr<Iterator> base_iterator) const;

  // Reads key from the batch alone. OK with *value set when the batch
  // determines the value (a Put, possibly with Merges on top, or Merges on
  // top of a deletion); NotFound when the batch deleted the key or never
  // wrote it; MergeInProgress when only Merges were written (the base value
  // is needed; *value unchanged); InvalidArgument when operands must be
  // combined and merge_operator is null; Corruption when the merge fails.
  // The DBOptions overloads have no operator; the Options overloads use
  // options.merge_operator.
  Status GetFromBatch(ColumnFamilyHandle* cf, const DBOptions& options, const Slice& key,
                      std::string* value, const MergeOperator* merge_operator = nullptr);
  Status GetFromBatch(const DBOptions& options, const Slice& key, std::string* value) {
    return GetFromBatch(nullptr, options, key, value);
  }
  Status GetFromBatch(ColumnFamilyHandle* cf, const Options& options, const Slice& key,
                      std::string* value);
  Status GetFromBatch(const Options& options, const Slice& key, std::string* value) {
    return GetFromBatch(nullptr, options, key, value);
  }

  // Reads key as the database would after DB::Write of this batch: the batch
  // decides if its newest word on key is a Put or a deletion (a DeleteRange
  // covering key included); otherwise the database value (db->Get with
  // read_options; cf null = default family) is read and the batch's Merge
  // operands, if any, are applied on top with merge_operator. Returns what
  // DB::Get would (OK / NotFound / error), plus the merge failures of
  // GetFromBatch.
  Status GetFromBatchAndDB(DB* db, const ReadOptions& read_options, ColumnFamilyHandle* cf,
                           const Slice& key, std::string* value,
                           const MergeOperator* merge_operator = nullptr);
  Status GetFromBatchAndDB(DB* db, const ReadOptions& read_options, const Slice& key,
                           std::string* value) {
    return GetFromBatchAndDB(db, read_options, nullptr, key, value);
  }

  // Bytes held by the index (arena and range-deletion lists), not counting
  // the WriteBatch.
  size_t IndexMemoryUsage() const;

  struct Rep;

 private:
  std::unique_ptr<Rep> rep_;
};

}  // namespace strata
