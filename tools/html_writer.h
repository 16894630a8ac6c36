// HtmlWriter: builds an HTML5 page that is also well-formed XML (XHTML
// syntax), for strata report (tools/strata_report.h). Every element is
// opened and closed through the writer, which keeps the stack of open
// tags, so tags always balance; every text and attribute value passes
// through EscapeXml, so no raw '<', '&' or quote reaches the output.
//
// Also the formatting helpers the report shares: keys shown as text when
// printable and as hex otherwise, byte counts in binary units.
//
// Thread-safety: not thread-safe (one writer per page); the free functions
// are pure.
// Invariants:
//  1. Finish() returns text in which every Open has its Close, in order.
//  2. Output is ASCII; no byte below 0x20 other than '\n' appears.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "strata/slice.h"

namespace strata {

// Escapes text for XML content or a quoted attribute value: & < > " ' as
// entities; bytes outside printable ASCII (except '\n' and '\t') become
// "\xNN" so the result is valid XML 1.0 and ASCII.
std::string EscapeXml(const Slice& text);

// A key for people: the bytes themselves when all are printable ASCII
// (0x20..0x7e), else "0x" and lowercase hex. Keys longer than max_bytes
// are cut and "...(N bytes)" appended. Not escaped: pass the result
// through EscapeXml (HtmlWriter does).
std::string FormatKey(const Slice& key, size_t max_bytes = 48);

// 1536 -> "1.5 KiB"; below 1 KiB: "512 B".
std::string FormatBytes(uint64_t bytes);
// printf-style %.*f without locale surprises.
std::string FormatDouble(double v, int decimals);

class HtmlWriter {
 public:
  using Attrs = std::vector<std::pair<std::string, std::string>>;

  HtmlWriter() = default;
  HtmlWriter(const HtmlWriter&) = delete;
  HtmlWriter& operator=(const HtmlWriter&) = delete;

  // <tag a="v"...>; the matching Close() closes it.
  void Open(const std::string& tag, const Attrs& attrs = {});
  // Closes the innermost open tag. REQUIRES: a tag is open.
  void Close();
  // An element without content: <tag a="v".../> for HTML void elements
  // (meta, br...) and inside <svg>; <tag ...></tag> otherwise.
  void Empty(const std::string& tag, const Attrs& attrs = {});
  // <tag ...>escaped text</tag>.
  void Element(const std::string& tag, const Attrs& attrs, const std::string& text);
  // Escaped text content.
  void Text(const std::string& text);
  // Text written as is: only for content the caller knows to be safe (a
  // style sheet without '<' or '&'). REQUIRES: raw has neither.
  void Raw(const std::string& raw);
  void Newline() { out_ += '\n'; }

  size_t depth() const { return open_.size(); }
  // The page so far, closing any tags still open.
  std::string Finish();

 private:
  void AppendTag(const std::string& tag, const Attrs& attrs);

  std::string out_;
  std::vector<std::string> open_;
};

}  // namespace strata
