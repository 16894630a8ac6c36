// HtmlWriter and the report's formatting helpers (tools/html_writer.h).
#include "tools/html_writer.h"

#include <algorithm>
#include <cassert>
#include <cinttypes>
#include <cstdio>

namespace strata {

std::string EscapeXml(const Slice& text) {
  std::string r;
  r.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    switch (c) {
      case '&':
        r += "&amp;";
        break;
      case '<':
        r += "&lt;";
        break;
      case '>':
        r += "&gt;";
        break;
      case '"':
        r += "&quot;";
        break;
      case '\'':
        r += "&#39;";
        break;
      default:
        if ((c >= 0x20 && c < 0x7f) || c == '\n' || c == '\t') {
          r += static_cast<char>(c);
        } else {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\x%02x", c);
          r += buf;
        }
    }
  }
  return r;
}

std::string FormatKey(const Slice& key, size_t max_bytes) {
  const size_t n = key.size() < max_bytes ? key.size() : max_bytes;
  bool printable = true;
  for (size_t i = 0; i < key.size() && printable; ++i) {
    const unsigned char c = static_cast<unsigned char>(key[i]);
    printable = c >= 0x20 && c < 0x7f;
  }
  std::string r;
  if (printable) {
    r.assign(key.data(), n);
  } else {
    r = "0x";
    static const char kHex[] = "0123456789abcdef";
    for (size_t i = 0; i < n; ++i) {
      const unsigned char c = static_cast<unsigned char>(key[i]);
      r += kHex[c >> 4];
      r += kHex[c & 15];
    }
  }
  if (n < key.size()) r += "...(" + std::to_string(key.size()) + " bytes)";
  if (key.empty()) r = "(empty)";
  return r;
}

std::string FormatBytes(uint64_t bytes) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  if (bytes < 1024) return std::to_string(bytes) + " B";
  double v = static_cast<double>(bytes);
  int unit = 0;
  while (v >= 1024 && unit < 5) {
    v /= 1024;
    ++unit;
  }
  return FormatDouble(v, v < 10 ? 2 : (v < 100 ? 1 : 0)) + " " + kUnits[unit];
}

std::string FormatDouble(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*f", decimals, v);
  return buf;
}

void HtmlWriter::AppendTag(const std::string& tag, const Attrs& attrs) {
  out_ += '<';
  out_ += tag;
  for (const auto& [name, value] : attrs) {
    out_ += ' ';
    out_ += name;
    out_ += "=\"";
    out_ += EscapeXml(value);
    out_ += '"';
  }
}

void HtmlWriter::Open(const std::string& tag, const Attrs& attrs) {
  AppendTag(tag, attrs);
  out_ += '>';
  open_.push_back(tag);
}

void HtmlWriter::Close() {
  assert(!open_.empty());
  if (open_.empty()) return;
  out_ += "</" + open_.back() + ">";
  open_.pop_back();
}

void HtmlWriter::Empty(const std::string& tag, const Attrs& attrs) {
  // HTML reads "<span/>" as an open tag: only void elements and SVG (foreign
  // content) may self-close; other elements get an explicit end tag.
  static const char* const kVoid[] = {"meta", "br", "hr", "img", "input", "link", "col"};
  bool self_close = std::find(open_.begin(), open_.end(), "svg") != open_.end() || tag == "svg";
  for (const char* v : kVoid) self_close = self_close || tag == v;
  AppendTag(tag, attrs);
  out_ += self_close ? "/>" : ("></" + tag + ">");
}

void HtmlWriter::Element(const std::string& tag, const Attrs& attrs, const std::string& text) {
  Open(tag, attrs);
  Text(text);
  Close();
}

void HtmlWriter::Text(const std::string& text) { out_ += EscapeXml(text); }

void HtmlWriter::Raw(const std::string& raw) {
  assert(raw.find_first_of("<&") == std::string::npos);
  // A style sheet is raw text in HTML (entities are not decoded there), so
  // it cannot be escaped; refuse it whole rather than break the page.
  if (raw.find_first_of("<&") == std::string::npos) out_ += raw;
}

std::string HtmlWriter::Finish() {
  while (!open_.empty()) Close();
  out_ += '\n';
  return std::move(out_);
}

}  // namespace strata
