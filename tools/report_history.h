// strata report: the write-history section of the page -- cumulative bytes
// flushed vs written by compactions, cumulative write amplification, and
// write stalls as bands over both charts -- drawn from an EventLog
// (tools/event_log.h). docs/tools/report.md describes it.
//
// Thread-safety: stateless.
#pragma once

#include "tools/event_log.h"
#include "tools/html_writer.h"

namespace strata {

// Appends the section (a heading, a summary, a legend, two SVG charts
// sharing a time axis and a table of stalls) to w; a note instead when the
// log has no events.
void HistorySection(const EventLog& log, HtmlWriter* w);

}  // namespace strata
