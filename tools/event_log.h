// EventLog: what strata report draws about the DB's history, read from the
// EVENT_LOG_v1 lines of its info LOG files (LOG and LOG.old.*), which carry
// RocksDB's format:
//
//   <date>-<time>.<us> <thread> [(Original Log Time ...)] EVENT_LOG_v1 {json}
//
// with "time_micros", "job" and "event" in every object. Used events:
//   flush_started, compaction_started    -> which kind of job a job id is
//   table_file_creation ("file_size")    -> bytes a flush wrote (the job is
//                                           a flush, or unknown: WAL recovery)
//   compaction_finished ("total_output_size") -> bytes a compaction wrote
//   flush_finished, compaction_finished  -> the end of a write stall
//   trivial_move, table_file_deletion    -> counted
// and the write-stall warnings "Stalling writes because ..." (a slowdown)
// and "Stopping writes because ..." (a stop), which RocksDB logs when a
// family enters (or stays in) a stall. The LOG has no line for a stall's
// end: a stall is taken to last until the next flush or compaction
// finishes, the only events that can lift it; periods closer than 1 ms
// are merged.
//
// Job ids restart at 1 when the DB is reopened; a job's kind is taken from
// the latest *_started event with its id, which always precedes the job's
// table files, so ids reused across sessions are read right.
//
// Thread-safety: plain data and a stateless reader.
// Invariants:
//  1. samples are in time order and their counters never decrease.
//  2. flush_bytes and compaction_bytes equal the last sample's counters.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "strata/env.h"
#include "strata/status.h"

namespace strata {

struct EventLog {
  // Cumulative bytes written after one event that wrote bytes.
  struct Sample {
    int64_t time_micros = 0;
    uint64_t flushed = 0;    // table files written by flushes (and recovery)
    uint64_t compacted = 0;  // output of compactions
  };
  struct Stall {
    int64_t start_micros = 0;
    int64_t end_micros = 0;  // the next flush/compaction finish, or the last event
    bool stop = false;       // writes stopped (else slowed down)
    std::string family;      // "default", or empty when not named
    std::string cause;       // the warning's text after "because "
  };
  // One LOG file that had events.
  struct Session {
    std::string file;
    int64_t first_micros = 0;
    int64_t last_micros = 0;
  };

  std::vector<Sample> samples;
  std::vector<Stall> stalls;
  std::vector<Session> sessions;  // by first_micros
  std::vector<std::string> files_read;
  uint64_t flush_bytes = 0;
  uint64_t compaction_bytes = 0;
  uint64_t flushes = 0;      // flush_finished events
  uint64_t compactions = 0;  // compaction_finished events
  uint64_t trivial_moves = 0;
  uint64_t files_created = 0;
  uint64_t files_deleted = 0;
  uint64_t bad_lines = 0;  // EVENT_LOG_v1 lines whose JSON did not parse

  bool empty() const { return samples.empty() && stalls.empty(); }
  // (flush + compaction bytes) / flush bytes; 0 when nothing was flushed.
  double WriteAmplification() const;
};

// Reads LOG and every LOG.old.* in dir through fs (reads only). A missing
// LOG is not an error (the log is empty); an unreadable one is.
Status ReadEventLog(FileSystem* fs, const std::string& dir, EventLog* log);

// The same from texts: (file name, contents) pairs, in any order.
void ParseEventLog(const std::vector<std::pair<std::string, std::string>>& files, EventLog* log);

}  // namespace strata
