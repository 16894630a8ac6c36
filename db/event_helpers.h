// Event helpers: the info LOG's structured event lines and the EventListener
// notifications that go with them.
//
// EVENT_LOG lines. Each event is one LOG line in RocksDB's format, which
// RocksDB's LOG parsers and tools read:
//
//   <time> <thread> EVENT_LOG_v1 {"time_micros": 1700000000000000, "job": 3,
//       "event": "flush_started", "num_memtables": 1, ...}
//
// a flat JSON object (nested objects and arrays only where RocksDB has
// them) whose keys and their order follow RocksDB 7.8.3 (db/flush_job.cc,
// db/compaction/compaction_job.cc, db/event_helpers.cc):
//   flush_started        job, num_memtables, num_entries, num_deletes,
//                        total_data_size, memory_usage, flush_reason
//   flush_finished       job, output_compression, lsm_state [files per
//                        level], immutable_memtables
//   compaction_started   job, compaction_reason, files_L<n> [numbers] per
//                        input level, score, input_data_size,
//                        oldest_snapshot_seqno (-1 = none)
//   compaction_finished  job, compaction_time_micros,
//                        compaction_time_cpu_micros, output_level,
//                        num_output_files, total_output_size,
//                        num_input_records, num_output_records,
//                        num_subcompactions, output_compression,
//                        num_single_delete_mismatches,
//                        num_single_delete_fallthrough, lsm_state
//   trivial_move         job, destination_level, files, total_files_size
//   table_file_creation  cf_name, job, file_number, file_size,
//                        file_checksum, file_checksum_func_name,
//                        smallest_seqno, largest_seqno, table_properties {}
//   table_file_deletion  job, file_number (status when the delete failed)
// Every object starts with "time_micros" (the DB clock, microseconds since
// the epoch). Strings are escaped as JSON requires (RocksDB writes them
// raw; the two agree for the values the DB produces). Values Strata does not
// measure print as RocksDB prints them when unknown (0, "", "N/A").
//
// Thread-safety: EventLogLine is single-threaded; the functions are
// thread-safe (the Logger and listeners are), and are called without the
// DB mutex.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "strata/env.h"
#include "strata/listener.h"
#include "strata/status.h"
#include "strata/table_properties.h"

namespace strata {

using Listeners = std::vector<std::shared_ptr<EventListener>>;

// Builds one EVENT_LOG object: {"time_micros": t, then the added keys}.
class EventLogLine {
 public:
  explicit EventLogLine(uint64_t time_micros);

  EventLogLine& Add(const char* key, const std::string& value);
  EventLogLine& Add(const char* key, const char* value);
  EventLogLine& Add(const char* key, uint64_t value);
  EventLogLine& Add(const char* key, int64_t value);
  EventLogLine& Add(const char* key, int value) { return Add(key, static_cast<int64_t>(value)); }
  EventLogLine& AddDouble(const char* key, double value);
  EventLogLine& AddArray(const char* key, const std::vector<uint64_t>& values);
  // A nested object: keys added between the two go inside it.
  EventLogLine& BeginObject(const char* key);
  EventLogLine& EndObject();

  // The JSON text (closing what is open).
  std::string ToString() const;

 private:
  void Key(const char* key);
  std::string text_;
  int depth_ = 1;
  bool first_ = true;
};

// Writes "EVENT_LOG_v1 <json>" at info level (null log = nothing).
void LogEvent(Logger* log, const EventLogLine& line);

// RocksDB's display names.
const char* FlushReasonString(FlushReason reason);
const char* CompactionReasonString(CompactionReason reason);

// Table files (BuildTables calls these around each output).
void NotifyTableFileCreationStarted(const Listeners* listeners, const std::string& db_name,
                                    const std::string& cf_name, const std::string& file_path,
                                    int job_id, TableFileCreationReason reason);
// Logs table_file_creation (when s is OK) and calls OnTableFileCreated.
// props may be null when the file failed before it had any.
void LogAndNotifyTableFileCreationFinished(
    Logger* log, uint64_t now_micros, const Listeners* listeners, const std::string& db_name,
    const std::string& cf_name, const std::string& file_path, int job_id, uint64_t file_number,
    uint64_t file_size, uint64_t smallest_seqno, uint64_t largest_seqno,
    const TableProperties* props, TableFileCreationReason reason, const Status& s,
    const std::string& file_checksum = "", const std::string& file_checksum_func_name = "Unknown");
// Logs table_file_deletion and calls OnTableFileDeleted.
void LogAndNotifyTableFileDeletion(Logger* log, uint64_t now_micros, const Listeners* listeners,
                                   int job_id, uint64_t file_number, const std::string& file_path,
                                   const Status& s, const std::string& db_name);

// The table_properties object of table_file_creation (exposed for tests).
void AppendTablePropertiesJson(EventLogLine* line, const TableProperties& p);

}  // namespace strata
