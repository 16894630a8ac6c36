// The info LOG's EVENT_LOG_v1 lines: each is parsed as JSON (a small reader
// below), its keys and their order are compared with lines RocksDB 7.8.3
// wrote (db_bench fillrandom), and its values with the database's state:
// flushed and compacted file numbers, sizes, entry counts, the LSM shape and
// the job numbers that tie an event's lines together.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "db/event_helpers.h"
#include "strata/db.h"
#include "test_util/db_test_base.h"

namespace strata {
namespace {

// ---- a small JSON reader: objects keep their key order ----

struct JsonField;

struct Json {
  enum Type { kNull, kBool, kNumber, kString, kArray, kObject } type = kNull;
  bool b = false;
  std::string text;  // a number's literal, or a string's value
  std::vector<Json> items;
  std::vector<JsonField> fields;  // an object's members, in order

  const Json& operator[](const std::string& key) const;
  bool Has(const std::string& key) const;
  int64_t Int() const { return std::strtoll(text.c_str(), nullptr, 10); }
  uint64_t Uint() const { return std::strtoull(text.c_str(), nullptr, 10); }
  std::vector<std::string> Keys() const;
};

// One member of an object (a named pair rather than std::pair, which may
// not hold the still incomplete Json).
struct JsonField {
  std::string first;
  Json second;
};

const Json& Json::operator[](const std::string& key) const {
  static const Json kMissing;
  for (const auto& [k, v] : fields) {
    if (k == key) return v;
  }
  return kMissing;
}

bool Json::Has(const std::string& key) const {
  for (const auto& f : fields) {
    if (f.first == key) return true;
  }
  return false;
}

std::vector<std::string> Json::Keys() const {
  std::vector<std::string> k;
  for (const auto& f : fields) k.push_back(f.first);
  return k;
}

class JsonReader {
 public:
  explicit JsonReader(const std::string& s) : s_(s) {}
  // False on any syntax error or trailing bytes.
  bool Parse(Json* out) {
    if (!Value(out)) return false;
    Space();
    return pos_ == s_.size();
  }

 private:
  void Space() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t')) ++pos_;
  }
  bool Eat(char c) {
    Space();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool String(std::string* out) {
    if (!Eat('"')) return false;
    while (pos_ < s_.size() && s_[pos_] != '"') {
      char c = s_[pos_++];
      if (c == '\\') {
        if (pos_ >= s_.size()) return false;
        c = s_[pos_++];
        if (c == 'u') {
          if (pos_ + 4 > s_.size()) return false;
          c = static_cast<char>(std::strtol(s_.substr(pos_, 4).c_str(), nullptr, 16));
          pos_ += 4;
        } else if (c == 'n') {
          c = '\n';
        } else if (c == 't') {
          c = '\t';
        }
      } else if (static_cast<unsigned char>(c) < 0x20) {
        return false;
      }
      out->push_back(c);
    }
    return Eat('"');
  }
  bool Value(Json* v) {
    Space();
    if (pos_ >= s_.size()) return false;
    const char c = s_[pos_];
    if (c == '{') {
      ++pos_;
      v->type = Json::kObject;
      if (Eat('}')) return true;
      do {
        std::string key;
        Json value;
        if (!String(&key) || !Eat(':') || !Value(&value)) return false;
        v->fields.push_back(JsonField{std::move(key), std::move(value)});
      } while (Eat(','));
      return Eat('}');
    }
    if (c == '[') {
      ++pos_;
      v->type = Json::kArray;
      if (Eat(']')) return true;
      do {
        Json item;
        if (!Value(&item)) return false;
        v->items.push_back(std::move(item));
      } while (Eat(','));
      return Eat(']');
    }
    if (c == '"') {
      v->type = Json::kString;
      return String(&v->text);
    }
    for (const char* word : {"true", "false", "null"}) {
      const size_t n = strlen(word);
      if (s_.compare(pos_, n, word) == 0) {
        pos_ += n;
        v->type = word[0] == 'n' ? Json::kNull : Json::kBool;
        v->b = word[0] == 't';
        return true;
      }
    }
    const size_t start = pos_;
    if (pos_ < s_.size() && s_[pos_] == '-') ++pos_;
    while (pos_ < s_.size() &&
           (isdigit(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '.' || s_[pos_] == 'e' ||
            s_[pos_] == 'E' || s_[pos_] == '+' || s_[pos_] == '-')) {
      ++pos_;
    }
    if (pos_ == start) return false;
    v->type = Json::kNumber;
    v->text = s_.substr(start, pos_ - start);
    return true;
  }

  const std::string& s_;
  size_t pos_ = 0;
};

// The EVENT_LOG_v1 objects of a LOG, in order; a line that does not parse
// fails the test.
std::vector<Json> EventLines(const std::string& log) {
  std::vector<Json> events;
  size_t pos = 0;
  while (pos < log.size()) {
    size_t end = log.find('\n', pos);
    if (end == std::string::npos) end = log.size();
    const std::string line = log.substr(pos, end - pos);
    pos = end + 1;
    const size_t at = line.find("EVENT_LOG_v1 ");
    if (at == std::string::npos) continue;
    Json j;
    EXPECT_TRUE(JsonReader(line.substr(at + 13)).Parse(&j)) << line;
    EXPECT_EQ(j.type, Json::kObject) << line;
    events.push_back(std::move(j));
  }
  return events;
}

// Lines RocksDB 7.8.3's db_bench wrote (fillrandom, write_buffer_size
// 1000000): the shapes ours must have.
const char* const kRocksDBLines[] = {
    R"(2026/12/01-21:04:10.417429 30330 EVENT_LOG_v1 {"time_micros": 1796159050417423, "job": 3, "event": "flush_started", "num_memtables": 1, "num_entries": 6797, "num_deletes": 0, "total_data_size": 856422, "memory_usage": 986408, "flush_reason": "Write Buffer Full"})",
    R"(2026/12/01-21:04:10.430168 30330 (Original Log Time 2026/12/01-21:04:10.430126) EVENT_LOG_v1 {"time_micros": 1796159050430122, "job": 3, "event": "flush_finished", "output_compression": "Snappy", "lsm_state": [2, 0, 0, 0, 0, 0, 0], "immutable_memtables": 0})",
    R"(2026/12/01-21:04:11.025279 30329 EVENT_LOG_v1 {"time_micros": 1796159051025272, "job": 11, "event": "compaction_started", "compaction_reason": "LevelL0FilesNum", "files_L0": [24, 22, 20, 18], "files_L1": [16], "score": 1, "input_data_size": 3460805, "oldest_snapshot_seqno": -1})",
    R"(2026/12/01-21:04:11.057022 30329 (Original Log Time 2026/12/01-21:04:11.056972) EVENT_LOG_v1 {"time_micros": 1796159051056965, "job": 11, "event": "compaction_finished", "compaction_time_micros": 31219, "compaction_time_cpu_micros": 27824, "output_level": 1, "num_output_files": 1, "total_output_size": 3068348, "num_input_records": 52100, "num_output_records": 47581, "num_subcompactions": 1, "output_compression": "Snappy", "num_single_delete_mismatches": 0, "num_single_delete_fallthrough": 0, "lsm_state": [0, 1, 0, 0, 0, 0, 0]})",
    R"(2026/12/01-21:04:10.429626 30330 EVENT_LOG_v1 {"time_micros": 1796159050429602, "cf_name": "default", "job": 3, "event": "table_file_creation", "file_number": 11, "file_size": 457117, "file_checksum": "", "file_checksum_func_name": "Unknown", "smallest_seqno": 6785, "largest_seqno": 13581, "table_properties": {"data_size": 453648, "index_size": 3828, "index_partitions": 0, "top_level_index_size": 0, "index_key_is_user_key": 1, "index_value_is_delta_encoded": 1, "filter_size": 0, "raw_key_size": 160776, "raw_average_key_size": 24, "raw_value_size": 669900, "raw_average_value_size": 100, "num_data_blocks": 203, "num_entries": 6699, "num_filter_entries": 0, "num_deletions": 0, "num_merge_operands": 0, "num_range_deletions": 0, "format_version": 0, "fixed_key_len": 0, "filter_policy": "", "column_family_name": "default", "column_family_id": 0, "comparator": "leveldb.BytewiseComparator", "merge_operator": "nullptr", "prefix_extractor_name": "nullptr", "property_collectors": "[]", "compression": "Snappy", "compression_options": "window_bits=-14; level=32767; strategy=0; max_dict_bytes=0; zstd_max_train_bytes=0; enabled=0; max_dict_buffer_bytes=0; use_zstd_dict_trainer=1; ", "creation_time": 1796159050, "oldest_key_time": 1796159050, "file_creation_time": 1796159050, "slow_compression_estimated_data_size": 0, "fast_compression_estimated_data_size": 0, "db_id": "eab0b45d-059c-40c2-89a5-317353ecbfdb", "db_session_id": "GANHCA3A8CQIKNKRID4M", "orig_file_number": 11, "seqno_to_time_mapping": "N/A"}})",
    R"(2026/12/01-21:04:10.918235 30330 EVENT_LOG_v1 {"time_micros": 1796159050918228, "job": 7, "event": "table_file_deletion", "file_number": 13})",
};

// An event's keys with the per-level "files_L<n>" keys made generic.
std::vector<std::string> Shape(const Json& j) {
  std::vector<std::string> keys;
  for (const auto& [k, v] : j.fields) {
    keys.push_back(k.compare(0, 7, "files_L") == 0 ? "files_L*" : k);
    if (v.type == Json::kObject) {
      for (const std::string& nested : v.Keys()) keys.push_back(k + "." + nested);
    }
    if (v.type == Json::kArray) keys.back() += "[]";
  }
  // files_L* appears once per input level.
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

// The value kinds of an event (by key), to compare with RocksDB's.
std::map<std::string, Json::Type> Kinds(const Json& j) {
  std::map<std::string, Json::Type> m;
  for (const auto& [k, v] : j.fields) {
    m[k.compare(0, 7, "files_L") == 0 ? "files_L*" : k] = v.type;
    for (const auto& [nk, nv] : v.fields) m[k + "." + nk] = nv.type;
  }
  return m;
}

class EventLogTest : public DBTestBase {
 protected:
  EventLogTest() : DBTestBase("event_log_test") {}
};

TEST_F(EventLogTest, ReaderReadsRocksDBLines) {
  for (const char* line : kRocksDBLines) {
    const std::vector<Json> e = EventLines(line);
    ASSERT_EQ(e.size(), 1u) << line;
    EXPECT_TRUE(e[0].Has("event"));
  }
  // And an escaped string.
  EventLogLine l(5);
  l.Add("job", 1).Add("event", "x\"y\\z\n");
  const std::vector<Json> e = EventLines("EVENT_LOG_v1 " + l.ToString());
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0]["event"].text, "x\"y\\z\n");
  EXPECT_EQ(e[0]["time_micros"].Uint(), 5u);
}

TEST_F(EventLogTest, LinesMatchRocksDBAndTheDatabase) {
  options_.disable_auto_compactions = true;
  options_.compression = kSnappyCompression;
  int64_t before = 0;
  ASSERT_OK(SystemClock::Default()->GetCurrentTime(&before));
  Open();
  // Three flushes of overlapping keys, then a compaction of everything.
  std::map<uint64_t, uint64_t> flushed;  // file number -> size
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 200; ++i) {
      ASSERT_OK(Put("key" + std::to_string(1000 + i * 3 + round), std::string(64, 'a' + round)));
    }
    ASSERT_OK(Delete("key1000"));
    ASSERT_OK(Flush());
  }
  std::vector<std::string> children;
  ASSERT_OK(Env::Default()->GetFileSystem()->GetChildren(dbname_, &children));
  for (const std::string& name : children) {
    if (name.size() > 4 && name.substr(name.size() - 4) == ".sst") {
      uint64_t size = 0;
      ASSERT_OK(Env::Default()->GetFileSystem()->GetFileSize(dbname_ + "/" + name, &size));
      flushed[std::strtoull(name.c_str(), nullptr, 10)] = size;
    }
  }
  ASSERT_EQ(flushed.size(), 3u);
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  const std::string files_per_level = FilesPerLevel();
  Close();
  const std::vector<Json> events = EventLines(test::ReadFileOrDie(dbname_ + "/LOG"));

  // RocksDB's shapes by event name.
  std::map<std::string, Json> rocks;
  for (const char* line : kRocksDBLines) {
    const std::vector<Json> e = EventLines(line);
    ASSERT_EQ(e.size(), 1u);
    rocks[e[0]["event"].text] = e[0];
  }
  std::map<std::string, std::vector<Json>> by_event;
  for (const Json& e : events) {
    const std::string name = e["event"].text;
    ASSERT_EQ(rocks.count(name), 1u) << "unexpected event " << name;
    EXPECT_EQ(Shape(e), Shape(rocks[name])) << name;
    EXPECT_EQ(Kinds(e), Kinds(rocks[name])) << name;
    EXPECT_EQ(e.fields[0].first, "time_micros");
    EXPECT_GE(e["time_micros"].Uint(), static_cast<uint64_t>(before) * 1000000);
    by_event[name].push_back(e);
  }

  // Flushes: started, table, finished, tied by the job number.
  const std::vector<Json>& started = by_event["flush_started"];
  const std::vector<Json>& finished = by_event["flush_finished"];
  ASSERT_EQ(started.size(), 3u);
  ASSERT_EQ(finished.size(), 3u);
  std::map<int64_t, Json> created_by_job;
  std::map<uint64_t, Json> created_by_number;
  for (const Json& c : by_event["table_file_creation"]) {
    created_by_job[c["job"].Int()] = c;
    created_by_number[c["file_number"].Uint()] = c;
  }
  for (int i = 0; i < 3; ++i) {
    const int64_t job = started[i]["job"].Int();
    EXPECT_EQ(finished[i]["job"].Int(), job);
    EXPECT_EQ(started[i]["num_memtables"].Uint(), 1u);
    EXPECT_EQ(started[i]["num_entries"].Uint(), 201u);
    EXPECT_EQ(started[i]["num_deletes"].Uint(), 1u);
    EXPECT_EQ(started[i]["flush_reason"].text, "Manual Flush");
    EXPECT_EQ(finished[i]["output_compression"].text, "Snappy");
    EXPECT_EQ(finished[i]["immutable_memtables"].Uint(), 0u);
    const Json& lsm = finished[i]["lsm_state"];
    ASSERT_EQ(lsm.items.size(), 7u);
    EXPECT_EQ(lsm.items[0].Uint(), static_cast<uint64_t>(i + 1));
    ASSERT_EQ(created_by_job.count(job), 1u) << job;
    const Json& table = created_by_job[job];
    const uint64_t number = table["file_number"].Uint();
    ASSERT_EQ(flushed.count(number), 1u) << number;
    EXPECT_EQ(table["file_size"].Uint(), flushed[number]);
    EXPECT_EQ(table["cf_name"].text, "default");
    const Json& props = table["table_properties"];
    // 200 Puts and the Delete; the first round's Put of key1000 is dropped
    // under its Delete.
    EXPECT_EQ(props["num_entries"].Uint(), i == 0 ? 200u : 201u);
    EXPECT_EQ(props["num_deletions"].Uint(), 1u);
    EXPECT_EQ(props["column_family_name"].text, "default");
    EXPECT_EQ(props["comparator"].text, "leveldb.BytewiseComparator");
    EXPECT_EQ(props["compression"].text, "Snappy");
    EXPECT_EQ(props["orig_file_number"].Uint(), number);
    EXPECT_EQ(props["raw_average_value_size"].Uint(),
              props["raw_value_size"].Uint() / props["num_entries"].Uint());
    EXPECT_LE(table["smallest_seqno"].Uint(), table["largest_seqno"].Uint());
  }

  // The compaction: its inputs are the flushed tables, its outputs the
  // tables left, which then deleted the inputs under its job number.
  ASSERT_EQ(by_event["compaction_started"].size(), 1u);
  ASSERT_EQ(by_event["compaction_finished"].size(), 1u);
  const Json& cs = by_event["compaction_started"][0];
  const Json& cf = by_event["compaction_finished"][0];
  const int64_t job = cs["job"].Int();
  EXPECT_EQ(cf["job"].Int(), job);
  EXPECT_EQ(cs["compaction_reason"].text, "ManualCompaction");
  EXPECT_EQ(cs["oldest_snapshot_seqno"].Int(), -1);
  std::set<uint64_t> inputs;
  for (const Json& n : cs["files_L0"].items) inputs.insert(n.Uint());
  std::set<uint64_t> flushed_numbers;
  uint64_t flushed_bytes = 0;
  for (const auto& [n, size] : flushed) {
    flushed_numbers.insert(n);
    flushed_bytes += size;
  }
  EXPECT_EQ(inputs, flushed_numbers);
  EXPECT_EQ(cs["input_data_size"].Uint(), flushed_bytes);
  const int out = static_cast<int>(cf["output_level"].Int());
  EXPECT_GE(out, 1);
  // FilesPerLevel: "0,...,0,n" with n files at the output level.
  std::string want;
  for (int level = 0; level < out; ++level) want += "0,";
  want += std::to_string(cf["num_output_files"].Uint());
  EXPECT_EQ(files_per_level, want);
  const Json& lsm = cf["lsm_state"];
  ASSERT_EQ(lsm.items.size(), 7u);
  EXPECT_EQ(lsm.items[0].Uint(), 0u);
  EXPECT_EQ(lsm.items[out].Uint(), cf["num_output_files"].Uint());
  EXPECT_EQ(cf["num_input_records"].Uint(), 200u + 201u + 201u);
  // 600 keys; key1000's Put and Deletes all go at the bottom level.
  EXPECT_EQ(cf["num_output_records"].Uint(), 599u);
  EXPECT_EQ(cf["num_subcompactions"].Uint(), 1u);
  uint64_t output_bytes = 0;
  size_t outputs = 0;
  for (const auto& [n, c] : created_by_number) {
    if (c["job"].Int() != job) continue;
    ++outputs;
    output_bytes += c["file_size"].Uint();
  }
  EXPECT_EQ(outputs, cf["num_output_files"].Uint());
  EXPECT_EQ(cf["total_output_size"].Uint(), output_bytes);
  std::set<uint64_t> deleted;
  for (const Json& d : by_event["table_file_deletion"]) {
    EXPECT_EQ(d["job"].Int(), job);
    deleted.insert(d["file_number"].Uint());
  }
  EXPECT_EQ(deleted, flushed_numbers);
}

TEST_F(EventLogTest, LogGoesToDbLogDirRollsAndIsTrimmed) {
  const std::string log_dir = tmp_.path() + "/logs";
  options_.db_log_dir = log_dir;
  options_.max_log_file_size = 8192;
  options_.keep_log_file_num = 3;
  Open();
  for (int round = 0; round < 5; ++round) {
    for (int i = 0; i < 50; ++i) ASSERT_OK(Put("k" + std::to_string(i), "v"));
    ASSERT_OK(Flush());
  }
  Reopen();
  Close();
  // RocksDB's name: the absolute DB path, '/' turned into '_' (the first
  // dropped), then "_LOG".
  std::string prefix;
  for (size_t i = 0; i < dbname_.size(); ++i) {
    const char c = dbname_[i];
    if (isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_') {
      prefix += c;
    } else if (i > 0) {
      prefix += '_';
    }
  }
  prefix += "_LOG";
  std::vector<std::string> logs;
  ASSERT_OK(Env::Default()->GetFileSystem()->GetChildren(log_dir, &logs));
  std::sort(logs.begin(), logs.end());
  ASSERT_EQ(logs.size(), 3u);  // the LOG and two rolled ones
  EXPECT_EQ(logs[0], prefix);
  EXPECT_EQ(logs[1].compare(0, prefix.size() + 5, prefix + ".old."), 0) << logs[1];
  EXPECT_EQ(logs[2].compare(0, prefix.size() + 5, prefix + ".old."), 0) << logs[2];
  std::vector<std::string> children;
  ASSERT_OK(Env::Default()->GetFileSystem()->GetChildren(dbname_, &children));
  for (const std::string& c : children) EXPECT_NE(c.compare(0, 3, "LOG"), 0) << c;
  // Every file starts with the options header, rolled ones included.
  for (const std::string& name : logs) {
    const std::string text = test::ReadFileOrDie(log_dir + "/" + name);
    EXPECT_NE(text.find("Options.max_log_file_size: 8192\n"), std::string::npos) << name;
    EXPECT_LE(text.size(), 8192u + 4096u) << name;
  }
  options_.keep_log_file_num = 0;
  Status s = TryReopen(options_);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("keep_log_file_num"), std::string::npos);
}

}  // namespace
}  // namespace strata
