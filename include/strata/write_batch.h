// WriteBatch: an ordered list of updates applied atomically by DB::Write.
//
// The batch is kept in RocksDB's WriteBatch wire format (docs/format/write_batch.md)
// -- a 12-byte header (fixed64 sequence, fixed32 count) followed by tagged
// records -- so Data() is exactly the payload of one WAL record and a batch
// can be rebuilt from bytes RocksDB wrote. Records for column family 0 use
// the plain tags; other families use the column-family tags.
//
// WriteBatch implements WriteBatchBase (strata/write_batch_base.h: the
// timestamp forms, SliceParts forms and PutEntity are described there) and
// is final, so calls on a WriteBatch (not through a WriteBatchBase) are
// direct calls.
// Thread-safety: not thread-safe; const methods may run concurrently.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "strata/export.h"
#include "strata/slice.h"
#include "strata/status.h"
#include "strata/write_batch_base.h"

namespace strata {

class ColumnFamilyHandle;
struct SavePoints;  // RocksDB's internal save-point stack; declared only

// A position in a batch (RocksDB's struct): its byte size, its record
// count, and the content flags it had then (RocksDB's internal bits; 0 in
// the save points Strata keeps, filled in for the WAL termination point).
struct SavePoint {
  size_t size;
  int count;
  uint32_t content_flags;
  SavePoint() : size(0), count(0), content_flags(0) {}
  SavePoint(size_t _size, int _count, uint32_t _flags)
      : size(_size), count(_count), content_flags(_flags) {}
  void clear() {
    size = 0;
    count = 0;
    content_flags = 0;
  }
  bool is_cleared() const { return (size | static_cast<size_t>(count) | content_flags) == 0; }
};

class STRATA_EXPORT WriteBatch final : public WriteBatchBase {
 public:
  // reserved_bytes: initial capacity of the wire buffer (at least the header).
  // max_bytes: see SetMaxBytes (0: no limit).
  explicit WriteBatch(size_t reserved_bytes = 0, size_t max_bytes = 0);
  // RocksDB's full form. Strata keeps no per-key checksums and no
  // user-defined timestamps: protection_bytes_per_key and default_cf_ts_sz
  // are recorded (GetProtectionBytesPerKey) and a batch made with either
  // non-zero is refused by DB::Write -- NotSupported for
  // protection_bytes_per_key 8 (RocksDB's only value) or a non-zero
  // default_cf_ts_sz, InvalidArgument for any other protection value --
  // rather than written without what was asked.
  explicit WriteBatch(size_t reserved_bytes, size_t max_bytes, size_t protection_bytes_per_key,
                      size_t default_cf_ts_sz);
  // Builds a batch over existing wire bytes (validated lazily by Iterate).
  explicit WriteBatch(std::string rep);
  ~WriteBatch() override;
  WriteBatch(const WriteBatch&);
  WriteBatch& operator=(const WriteBatch&);
  WriteBatch(WriteBatch&&) noexcept;
  WriteBatch& operator=(WriteBatch&&) noexcept;

  // Each returns InvalidArgument when a key or value exceeds 4 GiB - 1 bytes
  // (the wire format stores lengths as varint32), and Aborted (MemoryLimit)
  // past max_bytes; either way the batch is unchanged.
  Status Put(const Slice& key, const Slice& value) override;
  Status Put(ColumnFamilyHandle* cf, const Slice& key, const Slice& value) override;
  Status Put(ColumnFamilyHandle* cf, const Slice& key, const Slice& ts,
             const Slice& value) override;
  Status Put(ColumnFamilyHandle* cf, const SliceParts& key, const SliceParts& value) override;
  Status Put(const SliceParts& key, const SliceParts& value) override;
  Status PutEntity(ColumnFamilyHandle* cf, const Slice& key, const WideColumns& columns) override;
  Status Delete(const Slice& key) override;
  Status Delete(ColumnFamilyHandle* cf, const Slice& key) override;
  Status Delete(ColumnFamilyHandle* cf, const Slice& key, const Slice& ts) override;
  Status Delete(ColumnFamilyHandle* cf, const SliceParts& key) override;
  Status Delete(const SliceParts& key) override;
  Status SingleDelete(const Slice& key) override;
  Status SingleDelete(ColumnFamilyHandle* cf, const Slice& key) override;
  Status SingleDelete(ColumnFamilyHandle* cf, const Slice& key, const Slice& ts) override;
  Status SingleDelete(ColumnFamilyHandle* cf, const SliceParts& key) override;
  Status SingleDelete(const SliceParts& key) override;
  // Deletes [begin_key, end_key).
  Status DeleteRange(const Slice& begin_key, const Slice& end_key) override;
  Status DeleteRange(ColumnFamilyHandle* cf, const Slice& begin_key, const Slice& end_key) override;
  Status DeleteRange(ColumnFamilyHandle* cf, const Slice& begin_key, const Slice& end_key,
                     const Slice& ts) override;
  Status DeleteRange(ColumnFamilyHandle* cf, const SliceParts& begin_key,
                     const SliceParts& end_key) override;
  Status DeleteRange(const SliceParts& begin_key, const SliceParts& end_key) override;
  Status Merge(const Slice& key, const Slice& value) override;
  Status Merge(ColumnFamilyHandle* cf, const Slice& key, const Slice& value) override;
  Status Merge(ColumnFamilyHandle* cf, const Slice& key, const Slice& ts,
               const Slice& value) override;
  Status Merge(ColumnFamilyHandle* cf, const SliceParts& key, const SliceParts& value) override;
  Status Merge(const SliceParts& key, const SliceParts& value) override;
  // A blob stored in the WAL but never applied to the database.
  Status PutLogData(const Slice& blob) override;

  // Empties the batch and drops its save points and WAL termination point
  // (max_bytes stays).
  void Clear() override;

  WriteBatch* GetWriteBatch() override { return this; }
  // A record that would make Data() longer than max_bytes is not added:
  // the call returns Aborted (MemoryLimit). 0: no limit. Applies to later
  // calls only.
  void SetMaxBytes(size_t max_bytes) override { max_bytes_ = max_bytes; }

  // Marks the batch's current end as the end of what goes to the WAL: the
  // records appended after it are applied to the memtables but not logged
  // (RocksDB's; two-phase commit appends the prepared data, already in the
  // WAL, behind the Commit marker this way). Clear removes the mark.
  void MarkWalTerminationPoint();

  // Save points (RocksDB's semantics): SetSavePoint records the batch's
  // current size and count; RollbackToSavePoint truncates the batch back to
  // the most recent one and removes it; PopSavePoint removes it and keeps
  // the records. Both return NotFound when no save point is set. Save
  // points nest; Clear drops them all.
  void SetSavePoint() override;
  Status RollbackToSavePoint() override;
  Status PopSavePoint() override;
  // Number of counted records (everything but LogData/Noop).
  uint32_t Count() const;

  // Whether the batch holds a record of each kind (RocksDB's content
  // flags). Computed when asked by one pass over the records (the write
  // path keeps no flags), so each call costs O(batch size); a malformed
  // batch answers for the records before the damage.
  bool HasPut() const;
  bool HasDelete() const;
  bool HasSingleDelete() const;
  bool HasDeleteRange() const;
  bool HasMerge() const;
  bool HasBeginPrepare() const;
  bool HasEndPrepare() const;
  bool HasCommit() const;
  bool HasRollback() const;
  bool HasPutEntity() const;

  // The mark set by MarkWalTerminationPoint (cleared: none).
  const SavePoint& GetWalTerminationPoint() const { return wal_term_point_; }

  // RocksDB's per-key checksums (declared only: Strata has none).
  struct ProtectionInfo;
  // The protection_bytes_per_key the batch was made with (0 by default).
  size_t GetProtectionBytesPerKey() const { return protection_bytes_per_key_; }
  // OK without protection (RocksDB's answer then); NotSupported for a
  // batch made with protection_bytes_per_key != 0.
  Status VerifyChecksum() const;
  // Overwrites the last ts.size() bytes of every key (and of a range's end
  // key) of the column families for which ts_sz_func(cf id) returns
  // ts.size(), in place, as RocksDB does; 0 skips the family;
  // SIZE_MAX answers NotFound; another size InvalidArgument. An empty ts
  // is InvalidArgument once there is a record.
  Status UpdateTimestamps(const Slice& ts, std::function<size_t(uint32_t /*cf*/)> ts_sz_func);
  // The wire bytes.
  const std::string& Data() const { return rep_; }
  size_t GetDataSize() const { return rep_.size(); }

  // Receives the records of a batch, in order. The default implementations
  // of the column-family variants forward to the plain ones for family 0 and
  // return InvalidArgument for other families.
  class STRATA_EXPORT Handler {
   public:
    virtual ~Handler();
    virtual Status PutCF(uint32_t cf_id, const Slice& key, const Slice& value);
    virtual Status DeleteCF(uint32_t cf_id, const Slice& key);
    virtual Status SingleDeleteCF(uint32_t cf_id, const Slice& key);
    virtual Status DeleteRangeCF(uint32_t cf_id, const Slice& begin_key, const Slice& end_key);
    virtual Status MergeCF(uint32_t cf_id, const Slice& key, const Slice& value);
    // Records Strata never writes but RocksDB may have (read from its WAL
    // or from bytes): a wide-column entity (default: NotSupported), a
    // BlobDB blob index (default: InvalidArgument), a Commit marker with a
    // commit timestamp (default: InvalidArgument), as RocksDB's defaults.
    virtual Status PutEntityCF(uint32_t column_family_id, const Slice& key, const Slice& entity);
    virtual Status PutBlobIndexCF(uint32_t column_family_id, const Slice& key, const Slice& value);
    virtual Status MarkCommitWithTimestamp(const Slice& xid, const Slice& commit_ts);
    virtual void LogData(const Slice& blob);

    // Two-phase commit markers (RocksDB's tags 0x09-0x0D, 0x12, 0x13).
    // The defaults refuse the transaction markers with InvalidArgument
    // ("... handler not defined", as RocksDB's) and accept Noop.
    // MarkBeginPrepare's unprepare is true for RocksDB's
    // WRITE_UNPREPARED marker (0x13). MarkNoop's empty_batch is true when
    // no counted record precedes it.
    virtual Status MarkBeginPrepare(bool unprepare = false);
    virtual Status MarkEndPrepare(const Slice& xid);
    virtual Status MarkCommit(const Slice& xid);
    virtual Status MarkRollback(const Slice& xid);
    virtual Status MarkNoop(bool empty_batch);

    virtual void Put(const Slice& key, const Slice& value);
    virtual void Delete(const Slice& key);
    virtual void SingleDelete(const Slice& key);
    virtual void DeleteRange(const Slice& begin_key, const Slice& end_key);
    virtual void Merge(const Slice& key, const Slice& value);

    // Return false to stop the iteration early.
    virtual bool Continue() { return true; }
  };

  // Calls handler for each record. Corruption names the byte offset of a
  // malformed record; a count that disagrees with the records is Corruption.
  Status Iterate(Handler* handler) const;

 private:
  friend class WriteBatchInternal;
  // The content flags (RocksDB's bits) of the records, by one pass.
  uint32_t ComputeContentFlags() const;
  // Calls append (which adds one record); past max_bytes_, undoes it and
  // returns MemoryLimit.
  template <typename Append>
  Status Bounded(Append append);

  std::string rep_;
  size_t max_bytes_ = 0;                // 0: no limit
  std::vector<SavePoint> save_points_;  // oldest first
  // MarkWalTerminationPoint's mark (size 0: none).
  SavePoint wal_term_point_;
  // The full constructor's arguments Strata cannot honour (DB::Write
  // refuses the batch when either is non-zero).
  size_t protection_bytes_per_key_ = 0;
  size_t default_cf_ts_sz_ = 0;
};

}  // namespace strata
