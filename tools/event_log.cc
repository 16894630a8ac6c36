// Reading EVENT_LOG_v1 lines and write-stall warnings (tools/event_log.h).
#include "tools/event_log.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <utility>

namespace strata {

namespace {

// The top-level members of one JSON object: scalars as text (strings
// unescaped, numbers as written); nested objects and arrays are skipped.
class FlatJson {
 public:
  bool Parse(const std::string& s) {
    s_ = &s;
    pos_ = 0;
    SkipSpace();
    if (!Eat('{')) return false;
    SkipSpace();
    if (Eat('}')) return true;
    while (true) {
      SkipSpace();
      std::string key;
      if (!String(&key)) return false;
      SkipSpace();
      if (!Eat(':')) return false;
      SkipSpace();
      std::string value;
      if (!Value(&value, /*keep=*/true)) return false;
      members_[key] = value;
      SkipSpace();
      if (Eat(',')) continue;
      return Eat('}');
    }
  }
  const std::string* Get(const std::string& key) const {
    auto it = members_.find(key);
    return it == members_.end() ? nullptr : &it->second;
  }
  int64_t Int(const std::string& key, int64_t missing = -1) const {
    const std::string* v = Get(key);
    if (v == nullptr || v->empty()) return missing;
    char* end = nullptr;
    const long long r = std::strtoll(v->c_str(), &end, 10);
    return end == v->c_str() ? missing : static_cast<int64_t>(r);
  }
  std::string Str(const std::string& key) const {
    const std::string* v = Get(key);
    return v == nullptr ? std::string() : *v;
  }

 private:
  bool Eat(char c) {
    if (pos_ < s_->size() && (*s_)[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void SkipSpace() {
    while (pos_ < s_->size() && ((*s_)[pos_] == ' ' || (*s_)[pos_] == '\t' || (*s_)[pos_] == '\r' ||
                                 (*s_)[pos_] == '\n')) {
      ++pos_;
    }
  }
  bool String(std::string* out) {
    if (!Eat('"')) return false;
    while (pos_ < s_->size()) {
      const char c = (*s_)[pos_++];
      if (c == '"') return true;
      if (c == '\\') {
        if (pos_ >= s_->size()) return false;
        const char e = (*s_)[pos_++];
        switch (e) {
          case 'n':
            *out += '\n';
            break;
          case 't':
            *out += '\t';
            break;
          case 'u':
            // Kept as written: the report shows it escaped anyway.
            *out += "\\u";
            break;
          default:
            *out += e;
        }
      } else {
        *out += c;
      }
    }
    return false;
  }
  bool Value(std::string* out, bool keep) {
    if (pos_ >= s_->size()) return false;
    const char c = (*s_)[pos_];
    if (c == '"') {
      std::string tmp;
      if (!String(&tmp)) return false;
      if (keep) *out = std::move(tmp);
      return true;
    }
    if (c == '{' || c == '[') {
      const char close = c == '{' ? '}' : ']';
      ++pos_;
      SkipSpace();
      if (Eat(close)) return true;
      while (true) {
        SkipSpace();
        std::string ignored;
        if (c == '{') {
          if (!String(&ignored)) return false;
          SkipSpace();
          if (!Eat(':')) return false;
          SkipSpace();
        }
        if (!Value(&ignored, false)) return false;
        SkipSpace();
        if (Eat(',')) continue;
        return Eat(close);
      }
    }
    const size_t start = pos_;
    while (pos_ < s_->size() && (*s_)[pos_] != ',' && (*s_)[pos_] != '}' && (*s_)[pos_] != ']' &&
           (*s_)[pos_] != ' ') {
      ++pos_;
    }
    if (pos_ == start) return false;
    if (keep) *out = s_->substr(start, pos_ - start);
    return true;
  }

  const std::string* s_ = nullptr;
  size_t pos_ = 0;
  std::map<std::string, std::string> members_;
};

// Days since 1970-01-01 of a civil date (proleptic Gregorian).
int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

// "2024/12/01-12:34:56.123456" at the start of a line, as microseconds
// (the clock the LOG was written in, read as if UTC); false if absent.
bool ParseLineTime(const std::string& line, int64_t* micros) {
  int y, mo, d, h, mi, s;
  long us;
  char tail;
  if (line.size() < 26 || std::sscanf(line.c_str(), "%4d/%2d/%2d-%2d:%2d:%2d.%6ld%c", &y, &mo, &d,
                                      &h, &mi, &s, &us, &tail) != 8) {
    return false;
  }
  *micros = ((DaysFromCivil(y, mo, d) * 24 + h) * 60 + mi) * 60 * 1000000LL + s * 1000000LL + us;
  return true;
}

// One thing that happened, from any file, before they are put in time order.
struct Item {
  int64_t time = 0;
  size_t order = 0;   // position in its file, to keep ties in LOG order
  std::string event;  // the JSON "event", or "stall"
  int64_t job = -1;
  uint64_t bytes = 0;
  bool stop = false;
  std::string family, cause;
};

// A write-stall warning line: "... [cf] Stalling writes because X" or
// "Stopping writes because X".
bool ParseStall(const std::string& line, Item* item) {
  size_t at = line.find("Stopping writes because ");
  item->stop = at != std::string::npos;
  if (at == std::string::npos) at = line.find("Stalling writes because ");
  if (at == std::string::npos) return false;
  item->event = "stall";
  item->cause = line.substr(at + 24);
  const size_t close = line.rfind("] ", at);
  if (close != std::string::npos) {
    const size_t open = line.rfind('[', close);
    if (open != std::string::npos) item->family = line.substr(open + 1, close - open - 1);
  }
  return true;
}

void ParseFile(const std::string& text, std::vector<Item>* items, uint64_t* bad_lines) {
  std::vector<Item> stalls;
  // time_micros minus the line's own stamp, from the first event line: puts
  // warning lines (stamped in the writer's local time) on the events' clock.
  bool have_offset = false;
  int64_t offset = 0;
  size_t pos = 0, order = items->size();
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    int64_t line_time = 0;
    const bool stamped = ParseLineTime(line, &line_time);
    const size_t at = line.find("EVENT_LOG_v1 {");
    if (at != std::string::npos) {
      FlatJson json;
      if (!json.Parse(line.substr(at + 13))) {
        ++*bad_lines;
        continue;
      }
      Item item;
      item.time = json.Int("time_micros", -1);
      item.event = json.Str("event");
      if (item.time < 0 || item.event.empty()) {
        ++*bad_lines;
        continue;
      }
      item.order = order++;
      item.job = json.Int("job", -1);
      item.family = json.Str("cf_name");
      if (item.event == "table_file_creation") {
        item.bytes = static_cast<uint64_t>(std::max<int64_t>(0, json.Int("file_size", 0)));
      } else if (item.event == "compaction_finished") {
        item.bytes = static_cast<uint64_t>(std::max<int64_t>(0, json.Int("total_output_size", 0)));
      }
      if (!have_offset && stamped) {
        offset = item.time - line_time;
        have_offset = true;
      }
      items->push_back(std::move(item));
      continue;
    }
    Item stall;
    if (stamped && ParseStall(line, &stall)) {
      stall.time = line_time;
      stall.order = order++;
      stalls.push_back(std::move(stall));
    }
  }
  for (Item& s : stalls) {
    s.time += offset;
    items->push_back(std::move(s));
  }
}

}  // namespace

double EventLog::WriteAmplification() const {
  if (flush_bytes == 0) return 0;
  return static_cast<double>(flush_bytes + compaction_bytes) / static_cast<double>(flush_bytes);
}

void ParseEventLog(const std::vector<std::pair<std::string, std::string>>& files, EventLog* log) {
  *log = EventLog();
  std::vector<Item> items;
  for (const auto& [name, text] : files) {
    log->files_read.push_back(name);
    const size_t first = items.size();
    ParseFile(text, &items, &log->bad_lines);
    if (items.size() > first) {
      EventLog::Session session;
      session.file = name;
      session.first_micros = items[first].time;
      session.last_micros = items[first].time;
      for (size_t i = first; i < items.size(); ++i) {
        session.first_micros = std::min(session.first_micros, items[i].time);
        session.last_micros = std::max(session.last_micros, items[i].time);
      }
      log->sessions.push_back(session);
    }
  }
  std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
    return a.time != b.time ? a.time < b.time : a.order < b.order;
  });
  std::sort(log->sessions.begin(), log->sessions.end(),
            [](const EventLog::Session& a, const EventLog::Session& b) {
              return a.first_micros < b.first_micros;
            });

  std::map<int64_t, bool> job_is_compaction;
  bool stall_open = false;
  EventLog::Stall stall;
  auto sample = [log](int64_t time) {
    log->samples.push_back({time, log->flush_bytes, log->compaction_bytes});
  };
  for (const Item& item : items) {
    if (item.event == "flush_started") {
      job_is_compaction[item.job] = false;
    } else if (item.event == "compaction_started") {
      job_is_compaction[item.job] = true;
    } else if (item.event == "table_file_creation") {
      ++log->files_created;
      auto it = job_is_compaction.find(item.job);
      // A compaction's bytes are counted once, from compaction_finished.
      if (it == job_is_compaction.end() || !it->second) {
        log->flush_bytes += item.bytes;
        sample(item.time);
      }
    } else if (item.event == "compaction_finished") {
      ++log->compactions;
      log->compaction_bytes += item.bytes;
      sample(item.time);
    } else if (item.event == "flush_finished") {
      ++log->flushes;
    } else if (item.event == "trivial_move") {
      ++log->trivial_moves;
    } else if (item.event == "table_file_deletion") {
      ++log->files_deleted;
    }
    if (item.event == "stall") {
      if (!stall_open) {
        stall = EventLog::Stall();
        stall.start_micros = item.time;
        stall.family = item.family;
        stall.cause = item.cause;
        stall_open = true;
      }
      stall.end_micros = item.time;
      if (item.stop && !stall.stop) {
        stall.stop = true;
        stall.cause = item.cause;
      }
    } else if (stall_open) {
      stall.end_micros = item.time;
      if (item.event == "flush_finished" || item.event == "compaction_finished") {
        log->stalls.push_back(stall);
        stall_open = false;
      }
    }
  }
  if (stall_open) log->stalls.push_back(stall);

  // A stall re-announced right as a job finishes is one period.
  std::vector<EventLog::Stall> merged;
  for (const EventLog::Stall& s : log->stalls) {
    if (!merged.empty() && s.start_micros - merged.back().end_micros < 1000 &&
        s.family == merged.back().family) {
      merged.back().end_micros = std::max(merged.back().end_micros, s.end_micros);
      if (s.stop && !merged.back().stop) {
        merged.back().stop = true;
        merged.back().cause = s.cause;
      }
    } else {
      merged.push_back(s);
    }
  }
  log->stalls = std::move(merged);
}

Status ReadEventLog(FileSystem* fs, const std::string& dir, EventLog* log) {
  std::vector<std::string> children;
  Status s = fs->GetChildren(dir, &children);
  if (!s.ok()) return s;
  std::sort(children.begin(), children.end());
  std::vector<std::pair<std::string, std::string>> files;
  for (const std::string& name : children) {
    if (name != "LOG" && name.rfind("LOG.old.", 0) != 0) continue;
    std::string text;
    s = ReadFileToString(fs, dir + "/" + name, &text);
    if (!s.ok()) return s;
    files.emplace_back(name, std::move(text));
  }
  ParseEventLog(files, log);
  return Status::OK();
}

}  // namespace strata
