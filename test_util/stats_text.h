// Reading the `rocksdb.stats` text back in tests: the rows of the
// "** Compaction Stats [cf] **" tables (RocksDB 7.8.3's layout, written by
// db/internal_stats.cc) and the "Stalls(count):" line.
//
// Thread-safety: plain functions over strings.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace strata::test {

// One row of a compaction table ("L0", "Sum", "Int", "Low", ...).
struct StatsRow {
  std::string label;
  int files = 0;
  int compacting = 0;
  double size_bytes = 0;  // from "2.17 MB"
  double score = 0, read_gb = 0, rn_gb = 0, rnp1_gb = 0, write_gb = 0, wnew_gb = 0, moved_gb = 0,
         w_amp = 0, rd_mbps = 0, wr_mbps = 0, comp_sec = 0, cpu_sec = 0;
  uint64_t comp_cnt = 0;
  double avg_sec = 0;
  std::string key_in, key_drop;  // human form ("482K")
  double rblob_gb = 0, wblob_gb = 0;
};

// Parses one row; false if `line` is not one.
inline bool ParseStatsRow(const std::string& line, StatsRow* row) {
  std::istringstream in(line);
  std::string files, unit;
  if (!(in >> row->label >> files >> row->size_bytes >> unit)) return false;
  const size_t slash = files.find('/');
  if (slash == std::string::npos) return false;
  row->files = atoi(files.c_str());
  row->compacting = atoi(files.c_str() + slash + 1);
  const double scale = unit == "KB"   ? 1024.0
                       : unit == "MB" ? 1048576.0
                       : unit == "GB" ? 1073741824.0
                       : unit == "TB" ? 1099511627776.0
                                      : 0;
  if (scale == 0) return false;
  row->size_bytes *= scale;
  in >> row->score >> row->read_gb >> row->rn_gb >> row->rnp1_gb >> row->write_gb >> row->wnew_gb >>
      row->moved_gb >> row->w_amp >> row->rd_mbps >> row->wr_mbps >> row->comp_sec >>
      row->cpu_sec >> row->comp_cnt >> row->avg_sec >> row->key_in >> row->key_drop >>
      row->rblob_gb >> row->wblob_gb;
  return !in.fail();
}

// The rows of the first table whose heading starts with `group_by`
// ("Level" or "Priority") in the text.
inline std::vector<StatsRow> StatsRows(const std::string& text, const std::string& group_by) {
  std::vector<StatsRow> rows;
  std::istringstream in(text);
  std::string line;
  bool in_table = false;
  while (std::getline(in, line)) {
    if (line.rfind(group_by + " ", 0) == 0) {
      in_table = true;
      continue;
    }
    if (!in_table || line.rfind("---", 0) == 0) continue;
    StatsRow row;
    if (!ParseStatsRow(line, &row)) {
      if (!rows.empty()) break;  // the table ended
      continue;
    }
    rows.push_back(row);
  }
  return rows;
}

// The counts of the "Stalls(count):" line, by their words ("level0_slowdown",
// "memtable_compaction", "stop for pending_compaction_bytes", ...); false if
// the line is absent.
inline bool ParseStallCounts(const std::string& text,
                             std::vector<std::pair<std::string, uint64_t>>* counts) {
  const size_t at = text.find("Stalls(count): ");
  if (at == std::string::npos) return false;
  const size_t end = text.find('\n', at);
  std::string line = text.substr(at + 15, end - at - 15);
  std::istringstream in(line);
  std::string item;
  while (std::getline(in, item, ',')) {
    while (!item.empty() && item[0] == ' ') item.erase(0, 1);
    if (item.rfind("interval ", 0) == 0) break;
    const size_t space = item.find(' ');
    if (space == std::string::npos) return false;
    counts->emplace_back(item.substr(space + 1), strtoull(item.c_str(), nullptr, 10));
  }
  return !counts->empty();
}

}  // namespace strata::test
