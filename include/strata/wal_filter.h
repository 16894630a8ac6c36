// WalFilter: a hook into WAL replay at DB::Open. Before any WAL record is
// applied to the memtables, the filter sees it (as a WriteBatch) and decides
// whether it is applied as is, applied in a changed form, skipped, treated
// as damage, or whether replay stops there. RocksDB 7.8.3's interface
// (rocksdb/wal_filter.h) with the same names and meanings, so a RocksDB
// filter ports by renaming the namespace.
//
// Set through DBOptions::wal_filter (a borrowed pointer: the filter must
// outlive every Open given it). The primary and the read-only opens call
// it; a secondary instance does not (as RocksDB). Replay, per Open:
//   1. ColumnFamilyLogNumberMap once, when the WAL directory holds WAL
//      files, with every column family's id -> log number (records of WALs
//      older than a family's log number are already in its tables and are
//      not applied to it) and name -> id.
//   2. LogRecordFound for each intact record of each WAL replayed, oldest
//      first, in file order. Its answer:
//      - kContinueProcessing: the record is applied (the changed batch when
//        *batch_changed was set, under the original's sequence number; it
//        must not hold more records than the original, else Open fails with
//        NotSupported "More than original # of records returned by Wal
//        Filter : <Name()>");
//      - kIgnoreCurrentRecord: the record is skipped;
//      - kStopReplay: the record and everything after it, in this WAL and
//        in later ones, is dropped (once the recovered data is flushed,
//        which Open does unless avoid_flush_during_recovery, those WALs are
//        obsolete and never replayed again);
//      - kCorruptedRecord: Corruption "Corruption reported by Wal Filter :
//        <Name()>", handled per wal_recovery_mode: kTolerateCorruptedTail-
//        Records and kAbsoluteConsistency fail Open with it;
//        kPointInTimeRecovery stops replay there; kSkipAnyCorruptedRecords
//        drops the rest of that WAL and goes on with the next. Without
//        paranoid_checks the report is ignored and the record applied.
//
// Thread-safety: called only from the thread running DB::Open, one call at
// a time. Invariant: the batch passed in is valid only during the call.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "strata/export.h"
#include "strata/status.h"

namespace strata {

class WriteBatch;      // strata/write_batch.h
struct ConfigOptions;  // strata/convenience.h

class STRATA_EXPORT WalFilter {
 public:
  static const char* Type() { return "WalFilter"; }
  // A filter by id (RocksDB's Customizable loader). Strata registers no
  // filters: "" and "nullptr" set *result null; any other id is unknown:
  // OK with *result unchanged when options.ignore_unsupported_options (as
  // RocksDB's loader), else NotSupported naming it.
  static Status CreateFromString(const ConfigOptions& options, const std::string& value,
                                 WalFilter** result);

  // Persisted by nobody, but RocksDB's values: never renumber.
  enum class WalProcessingOption {
    kContinueProcessing = 0,
    kIgnoreCurrentRecord = 1,
    kStopReplay = 2,
    kCorruptedRecord = 3,
    kWalProcessingOptionMax = 4
  };

  virtual ~WalFilter() = default;

  // Called once before replay (see the file comment): cf_lognumber_map is
  // column family id -> log number, cf_name_id_map name -> id. Both are
  // valid during the call only. The default does nothing.
  virtual void ColumnFamilyLogNumberMap(const std::map<uint32_t, uint64_t>& /*cf_lognumber_map*/,
                                        const std::map<std::string, uint32_t>& /*cf_name_id_map*/) {
  }

  // One WAL record: log_number and log_file_name name the WAL (the name is
  // informational). To change the record, fill *new_batch (empty on entry)
  // and set *batch_changed = true; without that flag *new_batch is ignored.
  // The default calls LogRecord.
  virtual WalProcessingOption LogRecordFound(unsigned long long /*log_number*/,
                                             const std::string& /*log_file_name*/,
                                             const WriteBatch& batch, WriteBatch* new_batch,
                                             bool* batch_changed) {
    return LogRecord(batch, new_batch, batch_changed);
  }

  // The older form of LogRecordFound, without the WAL's number and name.
  // The default continues.
  virtual WalProcessingOption LogRecord(const WriteBatch& /*batch*/, WriteBatch* /*new_batch*/,
                                        bool* /*batch_changed*/) const {
    return WalProcessingOption::kContinueProcessing;
  }

  // The filter's name: logged at Open and quoted in its errors.
  virtual const char* Name() const = 0;
};

}  // namespace strata
