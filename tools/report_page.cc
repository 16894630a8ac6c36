// strata report: the page (RenderReport in tools/strata_report.h).
//
// Layout: a header with totals and a legend; per column family an SVG of
// its levels beside a table of per-level numbers; then the write history
// (cumulative bytes flushed vs written by compactions, cumulative write
// amplification, write stalls as bands). docs/tools/report.md explains the
// geometry: positions are ranks of file boundary keys, heights are bytes.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "strata/slice.h"
#include "tools/html_writer.h"
#include "tools/strata_report.h"

namespace strata {

namespace {

using Attrs = HtmlWriter::Attrs;

// One fill per level (and a darker stroke), readable on white.
const char* const kLevelFill[] = {"#e15759", "#f28e2b", "#edc948", "#59a14f", "#4e79a7", "#76b7b2",
                                  "#b07aa1", "#9c755f", "#bab0ac", "#ff9da7", "#86bcb6", "#8cd17d"};
const char* const kLevelStroke[] = {"#9c2f31", "#a85a10", "#a88a12", "#326b2b",
                                    "#2c4f75", "#3f7d78", "#7a4a6f", "#664a3a",
                                    "#7a726e", "#b5606a", "#4f8580", "#4f8f42"};
const char* Fill(int level) { return kLevelFill[level % 12]; }
const char* Stroke(int level) { return kLevelStroke[level % 12]; }

std::string Num(double v) { return FormatDouble(v, 1); }
std::string U64(uint64_t v) { return std::to_string(v); }

// 1234567 -> "1,234,567".
std::string Grouped(uint64_t v) {
  std::string s = std::to_string(v), r;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i > 0 && (s.size() - i) % 3 == 0) r += ',';
    r += s[i];
  }
  return r;
}

const char kStyle[] = R"CSS(
body { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif;
       margin: 20px 24px; color: #222; background: #fff; font-size: 14px; }
h1 { font-size: 22px; margin: 0 0 4px 0; }
h2 { font-size: 18px; margin: 28px 0 6px 0; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
.sub { color: #666; margin: 0 0 10px 0; }
.note { color: #8a5a00; background: #fff6e0; padding: 4px 8px; margin: 4px 0; }
.family { display: flex; flex-wrap: wrap; gap: 20px; align-items: flex-start; }
table { border-collapse: collapse; font-size: 13px; }
th, td { padding: 3px 8px; text-align: right; border-bottom: 1px solid #eee; white-space: nowrap; }
th { background: #f4f4f4; font-weight: 600; }
td.l, th.l { text-align: left; }
td.hot { color: #b00; font-weight: 700; }
tr.total td { border-top: 1px solid #999; font-weight: 600; }
.dim { color: #999; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; align-items: center; margin: 6px 0; }
.legend span { white-space: nowrap; }
.sw { display: inline-block; width: 12px; height: 12px; vertical-align: -1px; margin-right: 4px;
      border: 1px solid #555; }
.line { display: inline-block; width: 18px; height: 0; vertical-align: 3px; margin-right: 4px;
        border-top: 3px solid #000; }
.params { color: #555; font-size: 12px; margin: 2px 0 8px 0; }
svg text { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif; }
svg .key { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 10px; fill: #444; }
svg rect.f:hover { stroke: #000; stroke-width: 1.5; }
)CSS";

// ---------------------------------------------------------------------------
// The LSM drawing of one family.

constexpr double kSvgWidth = 860;
constexpr double kPlotX0 = 70;
constexpr double kPlotX1 = kSvgWidth - 14;

int CompareKeys(const ReportFamily& fam, const std::string& a, const std::string& b) {
  const int r = Slice(a).compare(Slice(b));
  return fam.reverse_keys ? -r : r;
}

bool Printable(const std::string& key) {
  return std::all_of(key.begin(), key.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
}

// A key short enough for an axis label (at most 18 characters): the part
// after the first `common` bytes (which every label shares) marked "..".
std::string ShortKey(const std::string& key, size_t common) {
  common = std::min(common, key.size());
  const std::string whole = FormatKey(key, 64);
  std::string s;
  if (common == 0) {
    s = whole;
  } else if (!Printable(key)) {
    static const char kHex[] = "0123456789abcdef";
    s = "0x..";
    for (size_t i = common; i < key.size() && s.size() < 20; ++i) {
      const unsigned char c = static_cast<unsigned char>(key[i]);
      s += kHex[c >> 4];
      s += kHex[c & 15];
    }
  } else {
    s = ".." + key.substr(common);
  }
  if (s.size() > 18) s = s.substr(0, 16) + "..";
  return s;
}

std::string FileTitle(int level, const ReportFile& f) {
  std::string t = "L" + std::to_string(level) + "  file #" + U64(f.number) + "\n";
  t += "size: " + FormatBytes(f.size) + " (" + Grouped(f.size) + " bytes)\n";
  t += "smallest: " + FormatKey(f.smallest, 64) + "\n";
  t += "largest: " + FormatKey(f.largest, 64) + "\n";
  if (f.props_error.empty()) {
    t += "entries: " + Grouped(f.entries);
    if (f.deletions > 0) t += " (" + Grouped(f.deletions) + " deletions)";
    t += "\n";
  } else {
    t += "properties unreadable: " + f.props_error + "\n";
  }
  t += "sequence: " + U64(f.smallest_seqno) + " .. " + U64(f.largest_seqno);
  if (!f.compression.empty()) t += "\ncompression: " + f.compression;
  return t;
}

// Positions in [0, 1] of sorted distinct keys by their bytes: the first 7
// bytes after the keys' common prefix read as a big-endian fraction, scaled
// so the first key is at 0 and the last at 1. Empty when all keys read the
// same (fewer than two keys, or they differ only later).
std::vector<double> ValuePositions(const std::vector<std::string>& keys) {
  if (keys.size() < 2) return {};
  const std::string& a = keys.front();
  const std::string& b = keys.back();
  size_t common = 0;
  while (common < a.size() && common < b.size() && a[common] == b[common]) ++common;
  std::vector<double> v;
  for (const std::string& k : keys) {
    double x = 0, scale = 1;
    for (size_t i = common; i < common + 7; ++i) {
      scale /= 256;
      if (i < k.size()) x += static_cast<unsigned char>(k[i]) * scale;
    }
    v.push_back(x);
  }
  const double lo = v.front(), span = v.back() - v.front();
  if (span == 0) return {};
  for (double& x : v) x = (x - lo) / span;
  return v;
}

// Whether positioning by value would squash files that rank positions show:
// more than a tenth of the files under a pixel wide by value but 3 pixels
// or more by rank (clustered keys). Then the rank axis is used.
template <typename RankFn>
bool ValueAxisCrowds(const ReportFamily& fam, const std::vector<std::string>& keys,
                     const std::vector<double>& by_value, const RankFn& rank) {
  const double width = kPlotX1 - kPlotX0;
  size_t files = 0, squashed = 0;
  for (const ReportLevel& l : fam.levels) {
    for (const ReportFile& f : l.files) {
      ++files;
      const size_t a = rank(f.smallest), b = rank(f.largest);
      const double value_w = std::fabs(by_value[b] - by_value[a]) * width;
      const double rank_w =
          static_cast<double>(b > a ? b - a : a - b) / static_cast<double>(keys.size() - 1) * width;
      if (value_w < 1 && rank_w >= 3) ++squashed;
    }
  }
  return squashed * 10 > files;
}

void DrawFamily(const ReportFamily& fam, HtmlWriter* w) {
  // The key axis: every distinct file boundary, in comparator order.
  std::vector<std::string> keys;
  uint64_t max_size = 1;
  for (const ReportLevel& l : fam.levels) {
    for (const ReportFile& f : l.files) {
      keys.push_back(f.smallest);
      keys.push_back(f.largest);
      max_size = std::max(max_size, f.size);
    }
  }
  auto less = [&fam](const std::string& a, const std::string& b) {
    return CompareKeys(fam, a, b) < 0;
  };
  std::sort(keys.begin(), keys.end(), less);
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  auto rank = [&](const std::string& k) {
    return std::lower_bound(keys.begin(), keys.end(), k, less) - keys.begin();
  };
  const std::vector<double> by_value = ValuePositions(keys);
  bool use_value = !by_value.empty() && !ValueAxisCrowds(fam, keys, by_value, rank);
  auto frac = [&](const std::string& k) {
    if (keys.size() <= 1) return 0.5;
    const size_t i = rank(k);
    return use_value ? by_value[i] : static_cast<double>(i) / static_cast<double>(keys.size() - 1);
  };
  auto pos = [&](const std::string& k) { return kPlotX0 + (kPlotX1 - kPlotX0) * frac(k); };

  // Level 0: pack files (newest first) into lanes so that files in one
  // lane never overlap; overlapping files land in different lanes.
  std::vector<int> l0_lane;
  int l0_lanes = 0;
  if (!fam.levels.empty()) {
    std::vector<std::vector<std::pair<long, long>>> lanes;
    for (const ReportFile& f : fam.levels[0].files) {
      const long lo = rank(f.smallest), hi = rank(f.largest);
      size_t lane = 0;
      for (; lane < lanes.size(); ++lane) {
        bool clash = false;
        for (const auto& [a, b] : lanes[lane]) clash = clash || (lo <= b && a <= hi);
        if (!clash) break;
      }
      if (lane == lanes.size()) lanes.emplace_back();
      lanes[lane].emplace_back(lo, hi);
      l0_lane.push_back(static_cast<int>(lane));
    }
    l0_lanes = static_cast<int>(lanes.size());
  }

  // Row geometry.
  struct Row {
    double y = 0, h = 0, lane_h = 0;
  };
  std::vector<Row> rows(fam.levels.size());
  double y = 8;
  for (size_t i = 0; i < fam.levels.size(); ++i) {
    const ReportLevel& l = fam.levels[i];
    Row& r = rows[i];
    r.y = y;
    if (l.files.empty()) {
      r.h = 22;
    } else if (l.level == 0) {
      r.lane_h = l0_lanes <= 4 ? 34 : std::max(12.0, 136.0 / l0_lanes);
      r.h = r.lane_h * l0_lanes + 8;
    } else {
      r.lane_h = 44;
      r.h = r.lane_h + 8;
    }
    y += r.h;
  }
  const double axis_y = y + 4;
  const double height = axis_y + 34;

  w->Open("svg", {{"xmlns", "http://www.w3.org/2000/svg"},
                  {"width", Num(kSvgWidth)},
                  {"height", Num(height)},
                  {"viewBox", "0 0 " + Num(kSvgWidth) + " " + Num(height)},
                  {"role", "img"},
                  {"aria-label", "levels of column family " + fam.name}});
  w->Element("title", {}, "Column family " + fam.name + ": table files by level and key range");
  for (size_t i = 0; i < fam.levels.size(); ++i) {
    const ReportLevel& l = fam.levels[i];
    const Row& r = rows[i];
    if (i % 2 == 0) {
      w->Empty("rect", {{"x", "0"},
                        {"y", Num(r.y)},
                        {"width", Num(kSvgWidth)},
                        {"height", Num(r.h)},
                        {"fill", "#fafafa"}});
    }
    std::string label = "L" + std::to_string(l.level);
    if (l.level == fam.base_level && fam.dynamic_level_bytes && l.level > 0) label += " base";
    w->Element("text",
               {{"x", "8"},
                {"y", Num(r.y + std::min(r.h / 2, 16.0) + 4)},
                {"font-size", "13"},
                {"font-weight", "600"},
                {"fill", Stroke(l.level)}},
               label);
    if (l.files.empty()) {
      w->Element("text",
                 {{"x", Num(kPlotX0)}, {"y", Num(r.y + 15)}, {"font-size", "11"}, {"fill", "#aaa"}},
                 "empty");
      continue;
    }
    w->Element("text",
               {{"x", "8"},
                {"y", Num(r.y + std::min(r.h / 2, 16.0) + 18)},
                {"font-size", "10"},
                {"fill", "#777"}},
               std::to_string(l.files.size()) + (l.files.size() == 1 ? " file" : " files"));
    for (size_t j = 0; j < l.files.size(); ++j) {
      const ReportFile& f = l.files[j];
      const int lane = l.level == 0 ? l0_lane[j] : 0;
      const double lane_top = r.y + 4 + lane * r.lane_h;
      const double bh = std::max(
          3.0, (r.lane_h - 3) * static_cast<double>(f.size) / static_cast<double>(max_size));
      double x0 = pos(f.smallest), x1 = pos(f.largest);
      if (x1 < x0) std::swap(x0, x1);
      if (x1 - x0 < 2) {
        const double mid = (x0 + x1) / 2;
        x0 = mid - 1;
        x1 = mid + 1;
      }
      w->Open("rect", {{"class", "f"},
                       {"x", Num(x0)},
                       {"y", Num(lane_top + r.lane_h - 3 - bh)},
                       {"width", Num(x1 - x0)},
                       {"height", Num(bh)},
                       {"fill", Fill(l.level)},
                       {"fill-opacity", l.level == 0 ? "0.85" : "1"},
                       {"stroke", Stroke(l.level)},
                       {"stroke-width", "0.6"},
                       {"data-file", U64(f.number)}});
      w->Element("title", {}, FileTitle(l.level, f));
      w->Close();
    }
  }

  // The key axis: five boundary keys, spread by rank.
  w->Empty("line", {{"x1", Num(kPlotX0)},
                    {"y1", Num(axis_y)},
                    {"x2", Num(kPlotX1)},
                    {"y2", Num(axis_y)},
                    {"stroke", "#888"}});
  // Labels: the boundary keys nearest to five evenly spaced points, each
  // at its own position, skipped when it would overlap the previous one.
  size_t common = 0;
  if (keys.size() >= 2) {
    const std::string &a = keys.front(), &b = keys.back();
    while (common < a.size() && common < b.size() && a[common] == b[common]) ++common;
  }
  double last_right = -1e9;
  for (int t = 0; t < 5 && !keys.empty(); ++t) {
    const double target = t / 4.0;
    size_t best = 0;
    for (size_t i = 0; i < keys.size(); ++i) {
      if (std::fabs(frac(keys[i]) - target) < std::fabs(frac(keys[best]) - target)) best = i;
    }
    const double x = pos(keys[best]);
    const std::string label = ShortKey(keys[best], common);
    const double text_w = 6.2 * static_cast<double>(label.size());
    const char* anchor = "middle";
    double left = x - text_w / 2;
    if (x - text_w / 2 < kPlotX0 - 8) {
      anchor = "start";
      left = x;
    } else if (x + text_w / 2 > kPlotX1 + 8) {
      anchor = "end";
      left = x - text_w;
    }
    if (left < last_right + 12) continue;
    w->Empty("line", {{"x1", Num(x)},
                      {"y1", Num(axis_y)},
                      {"x2", Num(x)},
                      {"y2", Num(axis_y + 4)},
                      {"stroke", "#888"}});
    w->Open("text",
            {{"class", "key"}, {"x", Num(x)}, {"y", Num(axis_y + 15)}, {"text-anchor", anchor}});
    w->Element("title", {}, FormatKey(keys[best], 256));
    w->Text(label);
    w->Close();
    last_right = left + text_w;
  }
  std::string caption =
      use_value ? "key (position = value of the first 7 bytes after the common prefix of the " +
                      U64(keys.size()) + " file boundary keys)"
                : "key (position = rank among " + U64(keys.size()) + " file boundary keys)";
  if (fam.reverse_keys) caption += ", reverse order";
  w->Element("text",
             {{"x", Num((kPlotX0 + kPlotX1) / 2)},
              {"y", Num(axis_y + 30)},
              {"font-size", "11"},
              {"fill", "#666"},
              {"text-anchor", "middle"}},
             caption);
  w->Close();  // svg
}

std::string LevelCompression(const ReportLevel& l) {
  std::map<std::string, int> seen;
  for (const ReportFile& f : l.files) {
    if (!f.compression.empty()) ++seen[f.compression];
  }
  std::string r;
  for (const auto& [name, n] : seen) {
    if (!r.empty()) r += ", ";
    r += name;
    if (seen.size() > 1) r += " x" + std::to_string(n);
  }
  return r;
}

void LevelTable(const ReportFamily& fam, HtmlWriter* w) {
  w->Open("table");
  w->Open("tr");
  for (const char* h : {"Level", "Files", "Size", "Target", "Score", "Compression"}) {
    w->Element("th",
               {{"class", std::string(h) == "Level" || std::string(h) == "Compression" ? "l" : ""}},
               h);
  }
  w->Close();
  uint64_t files = 0, bytes = 0;
  for (const ReportLevel& l : fam.levels) {
    files += l.files.size();
    bytes += l.bytes;
    w->Open("tr");
    w->Open("td", {{"class", "l"}});
    w->Empty("span", {{"class", "sw"}, {"style", std::string("background:") + Fill(l.level)}});
    w->Text("L" + std::to_string(l.level));
    if (l.level > 0 && l.level == fam.base_level && fam.dynamic_level_bytes) {
      w->Element("span", {{"class", "dim"}}, " base");
    }
    w->Close();
    w->Element("td", {}, U64(l.files.size()));
    w->Element("td", {{"title", Grouped(l.bytes) + " bytes"}}, FormatBytes(l.bytes));
    if (l.level == 0) {
      w->Element("td", {{"title", "level0_file_num_compaction_trigger"}},
                 std::to_string(fam.level0_file_num_compaction_trigger) + " files");
    } else if (l.target == 0) {
      w->Element("td", {{"class", "dim"}, {"title", "above the base level: unused"}}, "-");
    } else {
      w->Element("td", {{"title", Grouped(l.target) + " bytes"}}, FormatBytes(l.target));
    }
    if (l.has_score) {
      w->Element("td", {{"class", l.score >= 1 ? "hot" : ""}}, FormatDouble(l.score, 2));
    } else {
      w->Element("td", {{"class", "dim"}, {"title", "the last level has no score"}}, "-");
    }
    const std::string actual = LevelCompression(l);
    if (actual.empty()) {
      w->Element("td", {{"class", "l dim"}, {"title", "configured"}}, l.configured_compression);
    } else if (actual != l.configured_compression) {
      w->Element("td",
                 {{"class", "l"},
                  {"title", "files say " + actual + "; options say " + l.configured_compression}},
                 actual + " (cfg " + l.configured_compression + ")");
    } else {
      w->Element("td", {{"class", "l"}}, actual);
    }
    w->Close();
  }
  w->Open("tr", {{"class", "total"}});
  w->Element("td", {{"class", "l"}}, "Total");
  w->Element("td", {}, U64(files));
  w->Element("td", {{"title", Grouped(bytes) + " bytes"}}, FormatBytes(bytes));
  w->Element("td", {}, "");
  w->Element("td", {}, "");
  w->Element("td", {}, "");
  w->Close();
  w->Close();  // table
}

void FamilySection(const ReportFamily& fam, HtmlWriter* w) {
  w->Element("h2", {},
             "Column family \"" + fam.name + "\" (id " + std::to_string(fam.id) +
                 "): " + U64(fam.NumFiles()) + " files, " + FormatBytes(fam.Bytes()));
  std::string params =
      "level_compaction_dynamic_level_bytes=" +
      std::string(fam.dynamic_level_bytes ? "true" : "false") +
      ", max_bytes_for_level_base=" + FormatBytes(fam.max_bytes_for_level_base) +
      ", max_bytes_for_level_multiplier=" + FormatDouble(fam.max_bytes_for_level_multiplier, 1) +
      ", level0_file_num_compaction_trigger=" +
      std::to_string(fam.level0_file_num_compaction_trigger) + "; L0 compacts into L" +
      std::to_string(fam.base_level);
  w->Element("p", {{"class", "params"}}, params);
  if (!fam.compaction_style.empty() && fam.compaction_style != "kCompactionStyleLevel") {
    w->Element("p", {{"class", "note"}},
               "compaction_style is " + fam.compaction_style +
                   ": targets and scores below are those of leveled compaction.");
  }
  w->Open("div", {{"class", "family"}});
  w->Open("div");
  DrawFamily(fam, w);
  w->Close();
  w->Open("div");
  LevelTable(fam, w);
  w->Close();
  w->Close();
}

// ---------------------------------------------------------------------------
// The write history.

constexpr double kChartWidth = 1340;
constexpr double kChartX0 = 84;
constexpr double kChartX1 = kChartWidth - 24;
constexpr double kPanelHeight = 200;

std::string FormatElapsed(double seconds) {
  if (seconds < 60) {
    return FormatDouble(seconds, seconds < 1 ? 2 : (seconds < 10 ? 1 : 0)) + " s";
  }
  const uint64_t s = static_cast<uint64_t>(seconds + 0.5);
  if (s < 3600) return std::to_string(s / 60) + "m" + std::to_string(s % 60) + "s";
  if (s < 86400) return std::to_string(s / 3600) + "h" + std::to_string(s / 60 % 60) + "m";
  return std::to_string(s / 86400) + "d" + std::to_string(s / 3600 % 24) + "h";
}

// A 1-2-5 step giving about `count` intervals over `span`.
double NiceStep(double span, int count) {
  if (span <= 0) return 1;
  const double raw = span / std::max(1, count);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / mag;
  return mag * (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10);
}

// Time -> x over the sessions: each run of activity gets width by its
// length, and long idle gaps (the DB closed) shrink to a fixed break.
class TimeAxis {
 public:
  TimeAxis(const EventLog& log, int64_t t_min, int64_t t_max) : t_min_(t_min) {
    std::vector<std::pair<int64_t, int64_t>> runs;
    for (const EventLog::Session& s : log.sessions)
      runs.emplace_back(s.first_micros, s.last_micros);
    if (runs.empty()) runs.emplace_back(t_min, t_max);
    runs.front().first = std::min(runs.front().first, t_min);
    std::sort(runs.begin(), runs.end());
    int64_t active = 0;
    for (const auto& r : runs) active += r.second - r.first;
    for (const auto& r : runs) {
      if (!segs_.empty() && r.first - segs_.back().t1 <= std::max<int64_t>(60000000, active / 4)) {
        segs_.back().t1 = std::max(segs_.back().t1, r.second);
      } else {
        segs_.push_back({r.first, r.second, 0, 0});
      }
    }
    segs_.back().t1 = std::max(segs_.back().t1, t_max);
    int64_t total = 0;
    for (const Seg& s : segs_) total += std::max<int64_t>(1, s.t1 - s.t0);
    const double gap = 18;
    const double usable = kChartX1 - kChartX0 - gap * (segs_.size() - 1);
    double x = kChartX0;
    for (Seg& s : segs_) {
      s.x0 = x;
      s.x1 = x + usable * static_cast<double>(std::max<int64_t>(1, s.t1 - s.t0)) /
                     static_cast<double>(total);
      x = s.x1 + gap;
    }
  }
  double X(int64_t t) const {
    for (size_t i = 0; i < segs_.size(); ++i) {
      const Seg& s = segs_[i];
      if (t <= s.t1 || i + 1 == segs_.size()) {
        if (t <= s.t0) return s.x0;
        if (s.t1 == s.t0) return s.x0;
        return std::min(s.x1, s.x0 + (s.x1 - s.x0) * static_cast<double>(t - s.t0) /
                                         static_cast<double>(s.t1 - s.t0));
      }
      if (t < segs_[i + 1].t0) return s.x1;  // inside a break
    }
    return kChartX1;
  }
  void DrawTicks(double y, HtmlWriter* w) const {
    for (size_t i = 0; i < segs_.size(); ++i) {
      const Seg& s = segs_[i];
      const double span = static_cast<double>(s.t1 - s.t0) / 1e6;
      const int count = std::max(1, static_cast<int>((s.x1 - s.x0) / 110));
      const double step = NiceStep(span, count);
      const double start = static_cast<double>(s.t0 - t_min_) / 1e6;
      for (double v = std::ceil(start / step) * step; v <= start + span + 1e-9; v += step) {
        const double x = X(t_min_ + static_cast<int64_t>(v * 1e6));
        w->Empty("line", {{"x1", Num(x)},
                          {"y1", Num(y)},
                          {"x2", Num(x)},
                          {"y2", Num(y + 4)},
                          {"stroke", "#888"}});
        w->Element("text",
                   {{"x", Num(x)},
                    {"y", Num(y + 16)},
                    {"font-size", "11"},
                    {"fill", "#555"},
                    {"text-anchor", "middle"}},
                   FormatElapsed(v));
      }
      if (i + 1 < segs_.size()) {
        const double gx = (s.x1 + segs_[i + 1].x0) / 2;
        w->Open("g", {{"stroke", "#444"}});
        w->Element("title", {},
                   "idle for " + FormatElapsed(static_cast<double>(segs_[i + 1].t0 - s.t1) / 1e6) +
                       " (time axis cut)");
        w->Empty(
            "line",
            {{"x1", Num(gx - 5)}, {"y1", Num(y + 5)}, {"x2", Num(gx - 1)}, {"y2", Num(y - 5)}});
        w->Empty(
            "line",
            {{"x1", Num(gx + 1)}, {"y1", Num(y + 5)}, {"x2", Num(gx + 5)}, {"y2", Num(y - 5)}});
        w->Close();
      }
    }
  }

 private:
  struct Seg {
    int64_t t0, t1;
    double x0, x1;
  };
  int64_t t_min_;
  std::vector<Seg> segs_;
};

// Nice y ticks in one binary unit.
struct ByteScale {
  double unit = 1;
  const char* name = "B";
  double step = 1;
  double top = 1;
};

ByteScale MakeByteScale(uint64_t max_bytes) {
  static const char* const kNames[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  ByteScale s;
  int i = 0;
  double v = static_cast<double>(std::max<uint64_t>(1, max_bytes));
  while (v >= 1024 && i < 4) {
    v /= 1024;
    s.unit *= 1024;
    ++i;
  }
  s.name = kNames[i];
  s.step = NiceStep(v, 4);
  s.top = std::ceil(v / s.step) * s.step;
  return s;
}

void StallBands(const EventLog& log, const TimeAxis& axis, double top, double h, HtmlWriter* w) {
  for (const EventLog::Stall& s : log.stalls) {
    double x0 = axis.X(s.start_micros), x1 = axis.X(s.end_micros);
    if (x1 - x0 < 2) x1 = x0 + 2;
    w->Open("rect", {{"x", Num(x0)},
                     {"y", Num(top)},
                     {"width", Num(x1 - x0)},
                     {"height", Num(h)},
                     {"fill", s.stop ? "#d62728" : "#ff9f40"},
                     {"fill-opacity", s.stop ? "0.3" : "0.25"}});
    w->Element("title", {},
               std::string(s.stop ? "writes stopped" : "writes slowed") + " for " +
                   FormatElapsed(static_cast<double>(s.end_micros - s.start_micros) / 1e6) +
                   (s.family.empty() ? "" : " [" + s.family + "]") + ": " + s.cause);
    w->Close();
  }
}

void Gridline(double y, const std::string& label, HtmlWriter* w) {
  w->Empty("line", {{"x1", Num(kChartX0)},
                    {"y1", Num(y)},
                    {"x2", Num(kChartX1)},
                    {"y2", Num(y)},
                    {"stroke", "#e4e4e4"}});
  w->Element("text",
             {{"x", Num(kChartX0 - 6)},
              {"y", Num(y + 4)},
              {"font-size", "11"},
              {"fill", "#555"},
              {"text-anchor", "end"}},
             label);
}

void HistoryCharts(const EventLog& log, HtmlWriter* w) {
  int64_t t_min =
      log.samples.empty() ? log.stalls.front().start_micros : log.samples.front().time_micros;
  int64_t t_max = t_min;
  for (const EventLog::Session& s : log.sessions) {
    t_min = std::min(t_min, s.first_micros);
    t_max = std::max(t_max, s.last_micros);
  }
  for (const EventLog::Sample& s : log.samples) t_max = std::max(t_max, s.time_micros);
  for (const EventLog::Stall& s : log.stalls) {
    t_min = std::min(t_min, s.start_micros);
    t_max = std::max(t_max, s.end_micros);
  }
  const TimeAxis axis(log, t_min, t_max);

  const double top1 = 16, top2 = top1 + kPanelHeight + 40;
  const double height = top2 + kPanelHeight + 44;
  w->Open("svg", {{"xmlns", "http://www.w3.org/2000/svg"},
                  {"width", Num(kChartWidth)},
                  {"height", Num(height)},
                  {"viewBox", "0 0 " + Num(kChartWidth) + " " + Num(height)},
                  {"role", "img"},
                  {"aria-label", "bytes written and write amplification over time"}});
  w->Element("title", {}, "Bytes written by flushes and compactions over time");

  // Panel 1: cumulative bytes.
  const ByteScale ys = MakeByteScale(std::max(log.flush_bytes, log.compaction_bytes));
  auto y1 = [&](uint64_t bytes) {
    return top1 + kPanelHeight - kPanelHeight * (static_cast<double>(bytes) / ys.unit) / ys.top;
  };
  w->Element(
      "text",
      {{"x", Num(kChartX0)}, {"y", Num(top1 - 4)}, {"font-size", "12"}, {"font-weight", "600"}},
      "Cumulative bytes written");
  for (double v = 0; v <= ys.top + 1e-9; v += ys.step) {
    Gridline(y1(static_cast<uint64_t>(v * ys.unit)),
             FormatDouble(v, ys.step < 1 ? 1 : 0) + " " + ys.name, w);
  }
  StallBands(log, axis, top1, kPanelHeight, w);
  auto steps = [&](bool compaction) {
    std::string pts = Num(axis.X(t_min)) + "," + Num(y1(0));
    uint64_t prev = 0;
    for (const EventLog::Sample& s : log.samples) {
      const uint64_t v = compaction ? s.compacted : s.flushed;
      if (v == prev) continue;
      const double x = axis.X(s.time_micros);
      pts += " " + Num(x) + "," + Num(y1(prev)) + " " + Num(x) + "," + Num(y1(v));
      prev = v;
    }
    pts += " " + Num(axis.X(t_max)) + "," + Num(y1(prev));
    return pts;
  };
  w->Empty(
      "polyline",
      {{"points", steps(false)}, {"fill", "none"}, {"stroke", "#1f77b4"}, {"stroke-width", "2"}});
  w->Empty(
      "polyline",
      {{"points", steps(true)}, {"fill", "none"}, {"stroke", "#ff7f0e"}, {"stroke-width", "2"}});
  w->Empty("line", {{"x1", Num(kChartX0)},
                    {"y1", Num(top1 + kPanelHeight)},
                    {"x2", Num(kChartX1)},
                    {"y2", Num(top1 + kPanelHeight)},
                    {"stroke", "#888"}});
  axis.DrawTicks(top1 + kPanelHeight, w);

  // Panel 2: cumulative write amplification.
  double max_wa = 1;
  for (const EventLog::Sample& s : log.samples) {
    if (s.flushed > 0) {
      max_wa = std::max(
          max_wa, static_cast<double>(s.flushed + s.compacted) / static_cast<double>(s.flushed));
    }
  }
  const double wa_step = NiceStep(max_wa - 1, 4);
  const double wa_top = 1 + std::max(1.0, std::ceil((max_wa - 1) / wa_step)) * wa_step;
  auto y2 = [&](double wa) { return top2 + kPanelHeight - kPanelHeight * (wa - 1) / (wa_top - 1); };
  w->Element(
      "text",
      {{"x", Num(kChartX0)}, {"y", Num(top2 - 4)}, {"font-size", "12"}, {"font-weight", "600"}},
      "Cumulative write amplification = (flush + compaction bytes) / flush bytes");
  for (double v = 1; v <= wa_top + 1e-9; v += wa_step) {
    Gridline(y2(v), FormatDouble(v, wa_step < 1 ? 1 : 0), w);
  }
  StallBands(log, axis, top2, kPanelHeight, w);
  std::string pts;
  double last_wa = 0;
  for (const EventLog::Sample& s : log.samples) {
    if (s.flushed == 0) continue;
    last_wa = static_cast<double>(s.flushed + s.compacted) / static_cast<double>(s.flushed);
    const double x = axis.X(s.time_micros);
    pts += (pts.empty() ? "" : " ") + Num(x) + "," + Num(y2(last_wa));
  }
  if (!pts.empty()) {
    pts += " " + Num(axis.X(t_max)) + "," + Num(y2(last_wa));
    w->Empty("polyline",
             {{"points", pts}, {"fill", "none"}, {"stroke", "#2ca02c"}, {"stroke-width", "2"}});
  }
  w->Empty("line", {{"x1", Num(kChartX0)},
                    {"y1", Num(top2 + kPanelHeight)},
                    {"x2", Num(kChartX1)},
                    {"y2", Num(top2 + kPanelHeight)},
                    {"stroke", "#888"}});
  axis.DrawTicks(top2 + kPanelHeight, w);
  w->Element("text",
             {{"x", Num((kChartX0 + kChartX1) / 2)},
              {"y", Num(height - 4)},
              {"font-size", "11"},
              {"fill", "#666"},
              {"text-anchor", "middle"}},
             "time since the first event");
  w->Close();  // svg
}

void HistoryLegend(HtmlWriter* w) {
  w->Open("div", {{"class", "legend"}});
  auto line = [w](const char* color, const std::string& text) {
    w->Open("span");
    w->Empty("span", {{"class", "line"}, {"style", std::string("border-color:") + color}});
    w->Text(text);
    w->Close();
  };
  auto band = [w](const char* color, const std::string& text) {
    w->Open("span");
    w->Empty("span",
             {{"class", "sw"}, {"style", std::string("border-color:#999;background:") + color}});
    w->Text(text);
    w->Close();
  };
  line("#1f77b4", "flushed (level-0 table files)");
  line("#ff7f0e", "written by compactions");
  line("#2ca02c", "write amplification");
  band("#efa9a9", "writes stopped");
  band("#ffd9b3", "writes slowed");
  w->Close();
}

void HistorySection(const EventLog& log, HtmlWriter* w) {
  w->Element("h2", {}, "Write amplification and stalls");
  if (log.empty()) {
    w->Element(
        "p", {{"class", "note"}},
        "No EVENT_LOG_v1 flush/compaction events or write-stall warnings in " +
            (log.files_read.empty() ? std::string("the DB directory (no LOG file)")
                                    : std::to_string(log.files_read.size()) + " LOG file(s)") +
            ": nothing to chart.");
    return;
  }
  int64_t stall_micros = 0, stops = 0;
  for (const EventLog::Stall& s : log.stalls) {
    stall_micros += s.end_micros - s.start_micros;
    stops += s.stop ? 1 : 0;
  }
  std::string summary = "Flushed " + FormatBytes(log.flush_bytes) + ", compactions wrote " +
                        FormatBytes(log.compaction_bytes) + ": write amplification " +
                        FormatDouble(log.WriteAmplification(), 2) + ". " + U64(log.flushes) +
                        " flushes, " + U64(log.compactions) + " compactions, " +
                        U64(log.trivial_moves) + " trivial moves; " + U64(log.stalls.size()) +
                        " stall periods (" + std::to_string(stops) + " stops), " +
                        FormatElapsed(static_cast<double>(stall_micros) / 1e6) + " in all.";
  w->Element("p", {}, summary);
  std::string files = "From ";
  for (size_t i = 0; i < log.files_read.size(); ++i) {
    files += (i == 0 ? "" : ", ") + log.files_read[i];
  }
  files += " (" + U64(log.sessions.size()) + " with events)";
  if (log.bad_lines > 0) files += "; " + U64(log.bad_lines) + " EVENT_LOG_v1 lines unreadable";
  files += ". A stall is drawn from its warning to the next flush or compaction finish.";
  w->Element("p", {{"class", "params"}}, files);
  HistoryLegend(w);
  HistoryCharts(log, w);
  if (!log.stalls.empty()) {
    const int64_t t0 =
        log.sessions.empty() ? log.stalls.front().start_micros : log.sessions.front().first_micros;
    w->Open("table");
    w->Open("tr");
    for (const char* h : {"Start", "Duration", "Kind", "Family", "Cause"}) {
      w->Element("th", {{"class", "l"}}, h);
    }
    w->Close();
    const size_t shown = std::min<size_t>(log.stalls.size(), 25);
    for (size_t i = 0; i < shown; ++i) {
      const EventLog::Stall& s = log.stalls[i];
      w->Open("tr");
      w->Element("td", {{"class", "l"}},
                 "+" + FormatElapsed(static_cast<double>(s.start_micros - t0) / 1e6));
      w->Element("td", {{"class", "l"}},
                 FormatElapsed(static_cast<double>(s.end_micros - s.start_micros) / 1e6));
      w->Element("td", {{"class", "l"}}, s.stop ? "stop" : "slowdown");
      w->Element("td", {{"class", "l"}}, s.family);
      w->Element("td", {{"class", "l"}}, s.cause);
      w->Close();
    }
    if (shown < log.stalls.size()) {
      w->Open("tr");
      w->Element("td", {{"class", "l dim"}, {"colspan", "5"}},
                 "... and " + U64(log.stalls.size() - shown) + " more");
      w->Close();
    }
    w->Close();
  }
}

void LsmLegend(const LsmShape& shape, HtmlWriter* w) {
  int levels = 0;
  for (const ReportFamily& f : shape.families) {
    levels = std::max(levels, static_cast<int>(f.levels.size()));
  }
  w->Open("div", {{"class", "legend"}});
  for (int l = 0; l < levels; ++l) {
    w->Open("span");
    w->Empty("span",
             {{"class", "sw"},
              {"style", std::string("background:") + Fill(l) + ";border-color:" + Stroke(l)}});
    w->Text("L" + std::to_string(l));
    w->Close();
  }
  w->Close();
  w->Element("p", {{"class", "params"}},
             "Each box is a live table file. Horizontal: its key range, from its smallest to its "
             "largest key; keys are placed by their leading bytes (after the prefix all keys "
             "share), or, where that would squash files (clustered keys), by rank among all "
             "file boundary keys, evenly spaced. Either way boxes overlap exactly when key "
             "ranges do. Height: the file's bytes, the family's "
             "largest file filling its row. Level 0 files may overlap: they are stacked in "
             "lanes, newest on top, and overlapping files never share a lane. Hover a box for "
             "its file number, size, keys, entries and sequence numbers.");
}

}  // namespace

std::string RenderReport(const LsmShape& shape, const EventLog& log) {
  HtmlWriter w;
  std::string page = "<!DOCTYPE html>\n";
  w.Open("html", {{"xmlns", "http://www.w3.org/1999/xhtml"}, {"lang", "en"}});
  w.Open("head");
  w.Empty("meta", {{"charset", "utf-8"}});
  w.Element("title", {}, "strata report: " + shape.db);
  w.Open("style");
  w.Raw(kStyle);
  w.Close();
  w.Close();
  w.Newline();
  w.Open("body");
  w.Element("h1", {}, "LSM tree of " + shape.db);
  uint64_t files = 0, bytes = 0;
  for (const ReportFamily& f : shape.families) {
    files += f.NumFiles();
    bytes += f.Bytes();
  }
  w.Element("p", {{"class", "sub"}},
            U64(shape.families.size()) +
                (shape.families.size() == 1 ? " column family, " : " column families, ") +
                U64(files) + " live table files, " + FormatBytes(bytes) + ". From " +
                shape.manifest + (shape.options_file.empty() ? "" : " and " + shape.options_file) +
                ".");
  for (const std::string& note : shape.notes) w.Element("p", {{"class", "note"}}, note);
  LsmLegend(shape, &w);
  for (const ReportFamily& fam : shape.families) {
    FamilySection(fam, &w);
    w.Newline();
  }
  HistorySection(log, &w);
  return page + w.Finish();
}

}  // namespace strata
