// strata report: builds small databases (two column families, several
// levels), renders the page and checks that it is well-formed XML, names
// every live table file, shows the levels' targets and scores, escapes
// hostile keys, and leaves the database directory untouched; and the
// EVENT_LOG_v1 reader on RocksDB-format LOG lines.

#include "tools/strata_report.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "db/db_impl.h"
#include "db/filename.h"
#include "strata/db.h"
#include "strata/options.h"
#include "test_util/testutil.h"
#include "tools/event_log.h"
#include "tools/html_writer.h"

namespace strata {
namespace {

// "" if text is well-formed XML as far as the page needs (balanced tags,
// quoted attributes, known entities, no raw '<' or '&' in text); else what
// is wrong and where.
std::string CheckWellFormed(const std::string& text) {
  std::vector<std::string> stack;
  size_t i = 0;
  auto at = [&](size_t p) { return " at offset " + std::to_string(p); };
  auto check_entity = [&](size_t p) -> bool {
    const size_t semi = text.find(';', p);
    if (semi == std::string::npos || semi - p > 8) return false;
    const std::string name = text.substr(p + 1, semi - p - 1);
    if (name == "amp" || name == "lt" || name == "gt" || name == "quot" || name == "apos")
      return true;
    if (name.size() >= 2 && name[0] == '#') {
      return std::all_of(name.begin() + 1, name.end(), [](char c) { return c >= '0' && c <= '9'; });
    }
    return false;
  };
  bool seen_root = false;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '&') {
      if (!check_entity(i)) return "bad entity" + at(i);
      ++i;
      continue;
    }
    if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' && c != '\r') {
      return "control byte" + at(i);
    }
    if (c != '<') {
      if (c != '\n' && c != ' ' && stack.empty()) return "text outside the root" + at(i);
      ++i;
      continue;
    }
    if (text.compare(i, 9, "<!DOCTYPE") == 0) {
      if (seen_root) return "DOCTYPE after the root" + at(i);
      i = text.find('>', i);
      if (i == std::string::npos) return "unterminated DOCTYPE";
      ++i;
      continue;
    }
    const bool closing = i + 1 < text.size() && text[i + 1] == '/';
    size_t p = i + (closing ? 2 : 1);
    const size_t name_start = p;
    while (p < text.size() && (std::isalnum(static_cast<unsigned char>(text[p])) ||
                               text[p] == '-' || text[p] == ':')) {
      ++p;
    }
    const std::string name = text.substr(name_start, p - name_start);
    if (name.empty()) return "raw '<' in text" + at(i);
    if (closing) {
      if (stack.empty() || stack.back() != name) {
        return "</" + name + "> does not close <" + (stack.empty() ? "" : stack.back()) + ">" +
               at(i);
      }
      stack.pop_back();
      p = text.find('>', p);
      if (p == std::string::npos) return "unterminated end tag";
      i = p + 1;
      continue;
    }
    // Attributes: name="value" with no '<' and valid entities in value.
    std::set<std::string> attrs;
    while (true) {
      while (p < text.size() && (text[p] == ' ' || text[p] == '\n')) ++p;
      if (p >= text.size()) return "unterminated tag <" + name + ">";
      if (text[p] == '>' || text.compare(p, 2, "/>") == 0) break;
      const size_t a = p;
      while (p < text.size() && text[p] != '=' && text[p] != ' ' && text[p] != '>') ++p;
      const std::string attr = text.substr(a, p - a);
      if (attr.empty() || p >= text.size() || text[p] != '=' || p + 1 >= text.size() ||
          text[p + 1] != '"') {
        return "attribute without a quoted value in <" + name + ">" + at(a);
      }
      if (!attrs.insert(attr).second) return "duplicate attribute " + attr + at(a);
      const size_t end = text.find('"', p + 2);
      if (end == std::string::npos) return "unterminated attribute" + at(a);
      for (size_t k = p + 2; k < end; ++k) {
        if (text[k] == '<') return "'<' in attribute" + at(k);
        if (text[k] == '&' && !check_entity(k)) return "bad entity in attribute" + at(k);
      }
      p = end + 1;
    }
    if (text[p] == '/') {
      i = p + 2;
    } else {
      stack.push_back(name);
      i = p + 1;
    }
    if (stack.size() == 1) {
      if (seen_root && !closing) return "second root element" + at(i);
      seen_root = true;
    }
    if (name == "style" && text[p] != '/') {
      const size_t end = text.find("</style>", i);
      if (end == std::string::npos) return "unterminated style";
      if (text.substr(i, end - i).find_first_of("<&") != std::string::npos) {
        return "'<' or '&' in style";
      }
      i = end;
    }
  }
  if (!stack.empty()) return "unclosed <" + stack.back() + ">";
  if (!seen_root) return "no root element";
  return "";
}

// Names, sizes and modification times of everything in dir.
using DirSnapshot = std::map<std::string, std::tuple<uintmax_t, int64_t>>;
DirSnapshot Snapshot(const std::string& dir) {
  DirSnapshot snap;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const uintmax_t size = e.is_regular_file() ? e.file_size() : 0;
    snap[e.path().filename().string()] =
        std::make_tuple(size, static_cast<int64_t>(e.last_write_time().time_since_epoch().count()));
  }
  return snap;
}

std::set<uint64_t> TableFilesIn(const std::string& dir) {
  std::set<uint64_t> numbers;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    uint64_t number;
    FileType type;
    if (ParseFileName(e.path().filename().string(), &number, &type) &&
        type == FileType::kTableFile) {
      numbers.insert(number);
    }
  }
  return numbers;
}

std::string ReadAll(const std::string& path) {
  std::string data;
  EXPECT_OK(ReadFileToString(Env::Default()->GetFileSystem(), path, &data));
  return data;
}

// Also runs python3's XML parser on the page when python3 is installed.
void ExpectPythonParses(const std::string& path) {
  if (std::system("command -v python3 >/dev/null 2>&1") != 0) return;
  const std::string cmd =
      "python3 -c \"import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])\" '" + path + "'";
  EXPECT_EQ(0, std::system(cmd.c_str())) << cmd;
}

Options SmallOptions() {
  Options o;
  o.create_if_missing = true;
  o.create_missing_column_families = true;
  o.write_buffer_size = 64 << 10;
  o.target_file_size_base = 64 << 10;
  o.max_bytes_for_level_base = 256 << 10;
  o.max_bytes_for_level_multiplier = 4;
  o.level0_file_num_compaction_trigger = 2;
  o.level_compaction_dynamic_level_bytes = false;
  o.compression = kNoCompression;
  return o;
}

std::string Key(int i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "key%08d", i);
  return buf;
}

class StrataReportTest : public ::testing::Test {
 protected:
  StrataReportTest() : dir_("strata_report_test"), db_(dir_.path() + "/db") {}

  // Two families: "default" (levels by fixed targets) and "second"
  // (dynamic level sizes), each with data in several levels and level 0.
  void BuildDb() {
    Options options = SmallOptions();
    ColumnFamilyOptions second = options;
    second.level_compaction_dynamic_level_bytes = true;
    std::vector<ColumnFamilyDescriptor> families = {{kDefaultColumnFamilyName, options},
                                                    {"second", second}};
    std::vector<ColumnFamilyHandle*> handles;
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(options, db_, families, &handles, &db));
    const std::string value(100, 'v');
    for (int i = 0; i < 24000; ++i) {
      const int k = static_cast<int>((i * 7919LL) % 24000);
      ASSERT_OK(db->Put(WriteOptions(), handles[0], Key(k), value));
      if (i % 2 == 0) ASSERT_OK(db->Put(WriteOptions(), handles[1], Key(k), value));
    }
    ASSERT_OK(static_cast<DBImpl*>(db.get())->WaitForCompact());
    for (ColumnFamilyHandle* h : handles) ASSERT_OK(db->DestroyColumnFamilyHandle(h));
    ASSERT_OK(db->Close());
    db.reset();
    // A fresh level-0 file in each family, which no compaction takes.
    options.disable_auto_compactions = true;
    families[0].options.disable_auto_compactions = true;
    families[1].options.disable_auto_compactions = true;
    ASSERT_OK(DB::Open(options, db_, families, &handles, &db));
    for (int i = 0; i < 300; ++i) {
      ASSERT_OK(db->Put(WriteOptions(), handles[0], Key(i * 3), "late"));
      ASSERT_OK(db->Put(WriteOptions(), handles[1], Key(i * 5), "late"));
    }
    FlushOptions fo;
    fo.wait = true;
    ASSERT_OK(db->Flush(fo, handles[0]));
    ASSERT_OK(db->Flush(fo, handles[1]));
    for (ColumnFamilyHandle* h : handles) ASSERT_OK(db->DestroyColumnFamilyHandle(h));
    ASSERT_OK(db->Close());
  }

  test::TempDir dir_;
  const std::string db_;
};

TEST_F(StrataReportTest, DrawsEveryLiveFileAndWritesNothingIntoTheDb) {
  BuildDb();
  if (HasFatalFailure()) return;
  const std::string out = dir_.path() + "/report.html";
  const DirSnapshot before = Snapshot(db_);

  std::string arg_db = "--db=" + db_, arg_out = "--out=" + out;
  char* argv[] = {const_cast<char*>("report"), arg_db.data(), arg_out.data()};
  ASSERT_EQ(0, RunReport(3, argv));

  EXPECT_EQ(before, Snapshot(db_)) << "the report changed the database directory";
  const std::string page = ReadAll(out);
  EXPECT_EQ("", CheckWellFormed(page));
  ExpectPythonParses(out);

  // Every live table file (the MANIFEST's, which after a clean close are
  // exactly the directory's) is drawn, once.
  LsmShape shape;
  ASSERT_OK(ReadLsmShape(Env::Default()->GetFileSystem(), db_, &shape));
  std::set<uint64_t> live;
  ASSERT_EQ(2u, shape.families.size());
  for (const ReportFamily& fam : shape.families) {
    int levels_with_files = 0;
    for (const ReportLevel& l : fam.levels) {
      levels_with_files += l.files.empty() ? 0 : 1;
      for (const ReportFile& f : l.files) {
        EXPECT_TRUE(live.insert(f.number).second);
        EXPECT_TRUE(f.props_error.empty()) << f.props_error;
        EXPECT_GT(f.entries, 0u);
        EXPECT_LE(f.smallest_seqno, f.largest_seqno);
      }
    }
    EXPECT_GE(levels_with_files, 3) << fam.name;
    EXPECT_FALSE(fam.levels[0].files.empty()) << fam.name;
  }
  EXPECT_EQ(TableFilesIn(db_), live);
  for (uint64_t number : live) {
    const std::string needle = "data-file=\"" + std::to_string(number) + "\"";
    const size_t first = page.find(needle);
    EXPECT_NE(std::string::npos, first) << number;
    EXPECT_EQ(std::string::npos, page.find(needle, first + 1)) << number;
  }
  EXPECT_NE(std::string::npos, page.find("Column family &quot;second&quot;"));

  // Targets as leveled compaction computes them: fixed for "default"
  // (256 KiB, then x4), and scores = bytes / target.
  const ReportFamily& def = shape.families[0];
  ASSERT_EQ("default", def.name);
  EXPECT_EQ(256u << 10, def.levels[1].target);
  EXPECT_EQ(1024u << 10, def.levels[2].target);
  for (int level = 1; level + 1 < static_cast<int>(def.levels.size()); ++level) {
    const ReportLevel& l = def.levels[level];
    ASSERT_TRUE(l.has_score);
    EXPECT_DOUBLE_EQ(static_cast<double>(l.bytes) / static_cast<double>(l.target), l.score);
  }
  EXPECT_FALSE(def.levels.back().has_score);
  EXPECT_DOUBLE_EQ(static_cast<double>(def.levels[0].files.size()) / 2, def.levels[0].score);
  // "second": dynamic targets, the last level's is its size (or the base).
  const ReportFamily& second = shape.families[1];
  EXPECT_TRUE(second.dynamic_level_bytes);
  EXPECT_GT(second.base_level, 1);
  EXPECT_EQ(0u, second.levels[1].target);
  EXPECT_EQ(std::max<uint64_t>(second.levels.back().bytes, 256 << 10), second.levels.back().target);
  EXPECT_EQ("NoCompression", def.levels[1].configured_compression);
}

TEST_F(StrataReportTest, EscapesHostileKeys) {
  {
    Options options = SmallOptions();
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(options, db_, &db));
    ASSERT_OK(db->Put(WriteOptions(), "<a&b>", "1"));
    ASSERT_OK(db->Put(WriteOptions(), "\"quoted' key", "2"));
    ASSERT_OK(db->Put(WriteOptions(), std::string("\x00\x01\xff<&", 5), "3"));
    ASSERT_OK(db->Put(WriteOptions(), "]]>--></svg>", "4"));
    FlushOptions fo;
    ASSERT_OK(db->Flush(fo));
    ASSERT_OK(db->Close());
  }
  const std::string out = dir_.path() + "/escape.html";
  ASSERT_OK(WriteReport(Env::Default()->GetFileSystem(), db_, out));
  const std::string page = ReadAll(out);
  EXPECT_EQ("", CheckWellFormed(page));
  ExpectPythonParses(out);
  // The binary key is the smallest: hex; "]]>--></svg>" the largest, escaped.
  EXPECT_NE(std::string::npos, page.find("smallest: 0x0001ff3c26"));
  EXPECT_NE(std::string::npos, page.find("largest: ]]&gt;--&gt;&lt;/svg&gt;"));
  EXPECT_EQ(std::string::npos, page.find("<a&b>"));
}

TEST(HtmlWriterTest, EscapesAndFormats) {
  EXPECT_EQ("&lt;a&amp;b&gt; &quot;q&quot; &#39;s&#39;", EscapeXml("<a&b> \"q\" 's'"));
  EXPECT_EQ("\\x00\\x01\\xff", EscapeXml(Slice("\x00\x01\xff", 3)));
  EXPECT_EQ("plain key", FormatKey("plain key"));
  EXPECT_EQ("0x00ff41", FormatKey(Slice("\x00\xff"
                                        "A",
                                        3)));
  EXPECT_EQ("abc...(5 bytes)", FormatKey("abcde", 3));
  EXPECT_EQ("(empty)", FormatKey(""));
  EXPECT_EQ("512 B", FormatBytes(512));
  EXPECT_EQ("1.50 KiB", FormatBytes(1536));
  EXPECT_EQ("100 MiB", FormatBytes(100ull << 20));

  HtmlWriter w;
  w.Open("div", {{"title", "a<b & \"c\""}});
  w.Empty("span", {{"class", "x"}});
  w.Open("svg");
  w.Empty("rect", {{"x", "1"}});
  w.Text("1 < 2 & 3");
  const std::string page = w.Finish();
  EXPECT_EQ(
      "<div title=\"a&lt;b &amp; &quot;c&quot;\"><span class=\"x\"></span><svg><rect x=\"1\"/>"
      "1 &lt; 2 &amp; 3</svg></div>\n",
      page);
}

// RocksDB's LOG lines (the format, abridged), over two sessions whose job
// ids repeat.
const char kOldLog[] =
    "2026/12/01-10:00:00.000100 1 EVENT_LOG_v1 {\"time_micros\": 1000000100, \"job\": 2, "
    "\"event\": \"flush_started\", \"num_memtables\": 1}\n"
    "2026/12/01-10:00:00.100000 1 EVENT_LOG_v1 {\"time_micros\": 1000100000, \"cf_name\": "
    "\"default\", \"job\": 2, \"event\": \"table_file_creation\", \"file_number\": 9, "
    "\"file_size\": 1000, \"table_properties\": {\"data_size\": 900, \"compression\": "
    "\"Snappy\"}}\n"
    "2026/12/01-10:00:00.150000 9 [WARN] [db/column_family.cc:944] [default] Stopping writes "
    "because we have 2 immutable memtables (waiting for flush), max_write_buffer_number is set "
    "to 2\n"
    "2026/12/01-10:00:00.200000 1 (Original Log Time 2026/12/01-10:00:00.199000) EVENT_LOG_v1 "
    "{\"time_micros\": 1000200000, \"job\": 2, \"event\": \"flush_finished\", \"lsm_state\": "
    "[1, 0, 0]}\n"
    "2026/12/01-10:00:00.300000 1 EVENT_LOG_v1 {\"time_micros\": 1000300000, \"job\": 3, "
    "\"event\": \"compaction_started\", \"files_L0\": [9, 7]}\n"
    "2026/12/01-10:00:00.400000 1 EVENT_LOG_v1 {\"time_micros\": 1000400000, \"cf_name\": "
    "\"default\", \"job\": 3, \"event\": \"table_file_creation\", \"file_number\": 11, "
    "\"file_size\": 1800}\n"
    "2026/12/01-10:00:00.500000 1 EVENT_LOG_v1 {\"time_micros\": 1000500000, \"job\": 3, "
    "\"event\": \"compaction_finished\", \"output_level\": 1, \"total_output_size\": 1800, "
    "\"num_input_records\": 20}\n"
    "2026/12/01-10:00:00.500100 1 EVENT_LOG_v1 {\"time_micros\": 1000500100, \"job\": 3, "
    "\"event\": \"table_file_deletion\", \"file_number\": 9}\n"
    "2026/12/01-10:00:00.600000 1 EVENT_LOG_v1 {\"time_micros\": broken\n";
const char kLog[] =
    "2026/12/01-11:00:00.000000 1 EVENT_LOG_v1 {\"time_micros\": 1003600000, \"job\": 3, "
    "\"event\": \"flush_started\"}\n"
    "2026/12/01-11:00:00.100000 1 EVENT_LOG_v1 {\"time_micros\": 1003600100, \"cf_name\": "
    "\"x\", \"job\": 3, \"event\": \"table_file_creation\", \"file_number\": 20, "
    "\"file_size\": 500}\n"
    "2026/12/01-11:00:00.200000 1 EVENT_LOG_v1 {\"time_micros\": 1003600200, \"job\": 3, "
    "\"event\": \"flush_finished\"}\n"
    "2026/12/01-11:00:00.300000 9 [WARN] [db/column_family.cc:1000] [x] Stalling writes "
    "because we have 20 level-0 files rate 16777216\n";

TEST(EventLogTest, ReadsRocksDbLines) {
  EventLog log;
  ParseEventLog({{"LOG", kLog}, {"LOG.old.1", kOldLog}}, &log);
  EXPECT_EQ(1u, log.bad_lines);
  EXPECT_EQ(1500u, log.flush_bytes);  // job 3 of the second session is a flush
  EXPECT_EQ(1800u, log.compaction_bytes);
  EXPECT_DOUBLE_EQ(3300.0 / 1500.0, log.WriteAmplification());
  EXPECT_EQ(2u, log.flushes);
  EXPECT_EQ(1u, log.compactions);
  EXPECT_EQ(3u, log.files_created);
  EXPECT_EQ(1u, log.files_deleted);
  ASSERT_EQ(3u, log.samples.size());
  EXPECT_EQ(1000100000, log.samples[0].time_micros);
  EXPECT_EQ(1800u, log.samples[1].compacted);
  EXPECT_EQ(1500u, log.samples[2].flushed);
  ASSERT_EQ(2u, log.sessions.size());
  EXPECT_EQ("LOG.old.1", log.sessions[0].file);

  // The warning's local stamp is moved onto the events' clock (offset from
  // the file's first event); a stall lasts until the next finish.
  ASSERT_EQ(2u, log.stalls.size());
  EXPECT_TRUE(log.stalls[0].stop);
  EXPECT_EQ("default", log.stalls[0].family);
  EXPECT_EQ(1000150000 - 100 + 100, log.stalls[0].start_micros);
  EXPECT_EQ(1000200000, log.stalls[0].end_micros);
  EXPECT_FALSE(log.stalls[1].stop);
  EXPECT_EQ("x", log.stalls[1].family);
  EXPECT_EQ("we have 20 level-0 files rate 16777216", log.stalls[1].cause);
}

// A database and LOG written by RocksDB itself (its db_bench, when
// installed): the page names every table file and charts the LOG's events.
TEST_F(StrataReportTest, ReadsRocksDbDatabaseAndLog) {
  const char* const kRocksDbBench = "/usr/bin/db_bench";
  if (!std::filesystem::exists(kRocksDbBench)) GTEST_SKIP() << kRocksDbBench << " not installed";
  const std::string cmd = std::string(kRocksDbBench) +
                          " --benchmarks=fillrandom --num=30000 --db=" + db_ +
                          " --write_buffer_size=200000 --target_file_size_base=200000"
                          " --max_bytes_for_level_base=800000 >/dev/null 2>&1";
  ASSERT_EQ(0, std::system(cmd.c_str())) << cmd;
  const DirSnapshot before = Snapshot(db_);
  const std::string out = dir_.path() + "/rocksdb.html";
  ASSERT_OK(WriteReport(Env::Default()->GetFileSystem(), db_, out));
  EXPECT_EQ(before, Snapshot(db_));
  const std::string page = ReadAll(out);
  EXPECT_EQ("", CheckWellFormed(page));
  const std::set<uint64_t> tables = TableFilesIn(db_);
  ASSERT_FALSE(tables.empty());
  for (uint64_t number : tables) {
    EXPECT_NE(std::string::npos, page.find("data-file=\"" + std::to_string(number) + "\""))
        << number;
  }
  EventLog log;
  ASSERT_OK(ReadEventLog(Env::Default()->GetFileSystem(), db_, &log));
  EXPECT_GT(log.flushes, 0u);
  EXPECT_GT(log.compactions, 0u);
  EXPECT_GT(log.WriteAmplification(), 1.0);
  EXPECT_EQ(0u, log.bad_lines);
  EXPECT_NE(std::string::npos, page.find("Cumulative write amplification"));
}

TEST_F(StrataReportTest, RefusesBadArguments) {
  {
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(SmallOptions(), db_, &db));
    ASSERT_OK(db->Put(WriteOptions(), "k", "v"));
    ASSERT_OK(db->Close());
  }
  const DirSnapshot before = Snapshot(db_);
  Status s = WriteReport(Env::Default()->GetFileSystem(), db_, db_ + "/report.html");
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  s = WriteReport(Env::Default()->GetFileSystem(), db_,
                  db_ + "/../" + std::filesystem::path(db_).filename().string() + "/r.html");
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_EQ(before, Snapshot(db_));
  s = WriteReport(Env::Default()->GetFileSystem(), dir_.path() + "/missing",
                  dir_.path() + "/r.html");
  EXPECT_FALSE(s.ok());
  EXPECT_NE(std::string::npos, s.ToString().find("CURRENT")) << s.ToString();
  char* argv[] = {const_cast<char*>("report"), const_cast<char*>("--bogus=1")};
  EXPECT_EQ(2, RunReport(2, argv));
}

}  // namespace
}  // namespace strata
