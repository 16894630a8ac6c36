// strata report: the write-history section (tools/report_history.h).
//
// The time axis is seconds since the first event; long idle gaps between
// sessions (LOG files) are cut to a marked break (TimeAxis).
#include "tools/report_history.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace strata {

namespace {

using Attrs = HtmlWriter::Attrs;

std::string Num(double v) { return FormatDouble(v, 1); }
std::string U64(uint64_t v) { return std::to_string(v); }

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

}  // namespace

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

}  // namespace strata
