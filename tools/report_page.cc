// strata report: the page (RenderReport in tools/strata_report.h).
//
// Layout: a header with totals and a legend; per column family an SVG of
// its levels beside a table of per-level numbers; then the write history
// (tools/report_history.h). docs/tools/report.md explains the geometry:
// positions are key values (or ranks) of file boundary keys, heights are
// bytes.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "strata/slice.h"
#include "tools/html_writer.h"
#include "tools/report_history.h"
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
