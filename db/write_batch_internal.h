// WriteBatchInternal: the engine's access to a WriteBatch's wire bytes
// (docs/format/write_batch.md), which the public class keeps private.
//
//   +-----------+---------+======================+
//   | sequence  | count   | record ...           |
//   | fixed64   | fixed32 |                      |
//   +-----------+---------+======================+
//     0..7        8..11     12..
//
//   record = tag byte, then operands (lp = varint32 length + bytes,
//   cf = varint32 column family id):
//     tag   record          operands          CF tag (cf first)
//     0x00  Delete          lp key            0x04
//     0x01  Put             lp key, lp value  0x05
//     0x02  Merge           lp key, lp value  0x06
//     0x07  SingleDelete    lp key            0x08
//     0x0F  DeleteRange     lp begin, lp end  0x0E
//     0x03  LogData         lp blob           -     (not counted)
//     0x0D  Noop            -                 -     (not counted)
//   Two-phase commit markers (not counted; docs/format/write_batch.md):
//     0x09  BeginPrepare    -                       (0x12 persisted, 0x13
//                                                    unprepared: the same)
//     0x0A  EndPrepare      lp xid
//     0x0B  Commit          lp xid
//     0x0C  Rollback        lp xid
//   Family 0 always uses the plain tag, other families the CF tag.
//   Tags read but refused (NotSupported): CommitWithTimestamp 0x15;
//   BlobIndex 0x10/0x11; PutEntity 0x16/0x17.
//
//   A prepared transaction's WAL record is BeginPrepare, its records,
//   EndPrepare(xid); its Commit record is the commit-time batch's records
//   and Commit(xid), and the prepared records follow it in memory only
//   (behind the batch's WAL termination point).
//
//  - sequence: the sequence number of the first counted record; counted
//    record i (from 0) gets sequence + i.
//  - count: the number of counted records (all but LogData and Noop).
// Thread-safety: static functions; same rules as the WriteBatch they touch.
// Invariant: every WriteBatch built through the public API or these helpers
// has rep_.size() >= kHeader and a count equal to its counted records.
#pragma once

#include <cstddef>
#include <cstdint>

#include "base/dbformat.h"
#include "strata/slice.h"
#include "strata/status.h"
#include "strata/write_batch.h"

namespace strata {

class WriteBatchInternal {
 public:
  // Size of the sequence + count header.
  static constexpr size_t kHeader = 12;

  // Counted records, read from the header (0 for a batch shorter than the
  // header).
  static uint32_t Count(const WriteBatch* batch);
  static void SetCount(WriteBatch* batch, uint32_t n);

  // Sequence number of the first counted record.
  static SequenceNumber Sequence(const WriteBatch* batch);
  static void SetSequence(WriteBatch* batch, SequenceNumber seq);

  // The wire bytes (a view of the batch's buffer).
  static Slice Contents(const WriteBatch* batch) { return Slice(batch->rep_); }
  static size_t ByteSize(const WriteBatch* batch) { return batch->rep_.size(); }

  // Replaces the batch's bytes with contents (e.g. a WAL record). Corruption
  // ("log record too small") if contents is shorter than the header; the
  // records are validated later by Iterate.
  static Status SetContents(WriteBatch* batch, const Slice& contents);

  // Appends src's records to dst and adds src's count to dst's; dst keeps
  // its sequence. A src shorter than the header adds nothing. wal_only:
  // only src's records before its WAL termination point.
  static void Append(WriteBatch* dst, const WriteBatch* src, bool wal_only = false);

  // Whether MarkWalTerminationPoint cut the batch (what the WAL gets is
  // then WalPart, a copy of the records before the mark).
  static bool HasWalTerminationPoint(const WriteBatch* batch);
  static void WalPart(const WriteBatch* batch, WriteBatch* out);

  // OK unless the batch was made with the full constructor's
  // protection_bytes_per_key or default_cf_ts_sz, which Strata cannot
  // honour (the Status DB::Write answers then, naming the argument).
  static Status CheckWritable(const WriteBatch* batch);

  // Two-phase commit. InsertNoop appends the placeholder a transaction's
  // batch starts with; MarkEndPrepare turns it into BeginPrepare (or
  // inserts one) and appends EndPrepare(xid); MarkCommit / MarkRollback
  // append their marker.
  static void InsertNoop(WriteBatch* batch);
  // Raw marker appenders (tests, fuzzing): BeginPrepare (0x13 when
  // unprepare, else 0x09) and EndPrepare(xid), with no placeholder logic.
  static void AppendBeginPrepare(WriteBatch* batch, bool unprepare);
  static Status AppendEndPrepare(WriteBatch* batch, const Slice& xid);
  static Status MarkEndPrepare(WriteBatch* batch, const Slice& xid);
  static Status MarkCommit(WriteBatch* batch, const Slice& xid);
  static Status MarkRollback(WriteBatch* batch, const Slice& xid);

  // Record appenders by column family id (0 = default, plain tags). Each
  // returns InvalidArgument when a key or value exceeds 4 GiB - 1 bytes.
  static Status Put(WriteBatch* batch, uint32_t cf_id, const Slice& key, const Slice& value);
  static Status Delete(WriteBatch* batch, uint32_t cf_id, const Slice& key);
  static Status SingleDelete(WriteBatch* batch, uint32_t cf_id, const Slice& key);
  static Status DeleteRange(WriteBatch* batch, uint32_t cf_id, const Slice& begin_key,
                            const Slice& end_key);
  static Status Merge(WriteBatch* batch, uint32_t cf_id, const Slice& key, const Slice& value);
};

}  // namespace strata
