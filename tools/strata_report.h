// strata report: one self-contained HTML page that draws a database's LSM
// tree -- every live table file of every column family, by level and key
// range -- with per-level sizes, targets and compaction scores, and the
// history of flush and compaction bytes (write amplification) and write
// stalls from the info LOG. docs/tools/report.md describes the page.
//
//   strata report --db=DIR --out=FILE.html
//
// The database is read, never written: CURRENT and the MANIFEST are
// replayed through VersionSet::Recover (which reads only; nothing here
// calls LogAndApply or writes a MANIFEST), each table's properties are read
// through SstFileReader, the newest OPTIONS file gives the family options
// that targets and scores depend on, and LOG / LOG.old.* give the history.
// No lock is taken, so a DB open elsewhere can be reported on (a MANIFEST
// being appended to may show as a torn tail: run again). Works on RocksDB's
// databases and LOGs too (same formats).
//
// Thread-safety: stateless functions; the structs are plain data.
// Invariants:
//  1. LsmShape lists exactly the files of each family's current Version.
//  2. target, score and base_level are Version's own (ComputeCompactionScores),
//     computed with the options of the DB's OPTIONS file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "strata/env.h"
#include "strata/status.h"
#include "tools/event_log.h"

namespace strata {

struct ReportFile {
  uint64_t number = 0;
  uint64_t size = 0;
  std::string smallest;  // user keys
  std::string largest;
  uint64_t smallest_seqno = 0;
  uint64_t largest_seqno = 0;
  // From the table's properties; props_error is set when they could not be read.
  uint64_t entries = 0;
  uint64_t deletions = 0;
  std::string compression;
  std::string props_error;
};

struct ReportLevel {
  int level = 0;
  std::vector<ReportFile> files;  // level 0: newest first; else by key
  uint64_t bytes = 0;
  uint64_t target = 0;     // bytes; 0 = none (level 0, or above the base level)
  double score = 0;        // as the compaction picker sees it
  bool has_score = false;  // the last level has none
  std::string configured_compression;
};

struct ReportFamily {
  std::string name;
  uint32_t id = 0;
  bool reverse_keys = false;        // the comparator is ReverseBytewise
  std::vector<ReportLevel> levels;  // all num_levels of them
  int base_level = 1;
  // The options the targets come from.
  bool dynamic_level_bytes = false;
  uint64_t max_bytes_for_level_base = 0;
  double max_bytes_for_level_multiplier = 0;
  int level0_file_num_compaction_trigger = 0;
  std::string compaction_style;  // as the OPTIONS file names it, or empty

  uint64_t NumFiles() const;
  uint64_t Bytes() const;
};

struct LsmShape {
  std::string db;
  std::string manifest;      // CURRENT's MANIFEST
  std::string options_file;  // empty: none found, defaults used
  std::vector<ReportFamily> families;
  std::vector<std::string> notes;  // things the reader should know
};

// Reads the LSM shape of the database at db through fs. Errors name the
// file (CURRENT, MANIFEST, OPTIONS) that is missing or damaged.
Status ReadLsmShape(FileSystem* fs, const std::string& db, LsmShape* shape);

// The page (tools/report_page.cc).
std::string RenderReport(const LsmShape& shape, const EventLog& log);

// ReadLsmShape + ReadEventLog + RenderReport, written to out. out must not
// be inside db (InvalidArgument).
Status WriteReport(FileSystem* fs, const std::string& db, const std::string& out);

// `strata report` (argv[0] is "report"): --db=DIR --out=FILE.html.
// Returns the process exit status: 0, 1 on an error, 2 on bad arguments.
int RunReport(int argc, char** argv);

}  // namespace strata
