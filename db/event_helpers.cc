// Event helpers (see the header).
#include "db/event_helpers.h"

#include <cinttypes>
#include <cstdio>

namespace strata {

namespace {

void AppendQuoted(std::string* out, const char* s) {
  out->push_back('"');
  for (; *s != '\0'; ++s) {
    const unsigned char c = static_cast<unsigned char>(*s);
    if (c == '"' || c == '\\') {
      out->push_back('\\');
      out->push_back(static_cast<char>(c));
    } else if (c < 0x20) {
      char buf[8];
      snprintf(buf, sizeof(buf), "\\u%04x", c);
      out->append(buf);
    } else {
      out->push_back(static_cast<char>(c));
    }
  }
  out->push_back('"');
}

uint64_t SafeDivide(uint64_t a, uint64_t b) { return b == 0 ? 0 : a / b; }

}  // namespace

EventLogLine::EventLogLine(uint64_t time_micros) : text_("{") { Add("time_micros", time_micros); }

void EventLogLine::Key(const char* key) {
  if (!first_) text_ += ", ";
  first_ = false;
  AppendQuoted(&text_, key);
  text_ += ": ";
}

EventLogLine& EventLogLine::Add(const char* key, const std::string& value) {
  return Add(key, value.c_str());
}

EventLogLine& EventLogLine::Add(const char* key, const char* value) {
  Key(key);
  AppendQuoted(&text_, value);
  return *this;
}

EventLogLine& EventLogLine::Add(const char* key, uint64_t value) {
  Key(key);
  text_ += std::to_string(value);
  return *this;
}

EventLogLine& EventLogLine::Add(const char* key, int64_t value) {
  Key(key);
  text_ += std::to_string(value);
  return *this;
}

EventLogLine& EventLogLine::AddDouble(const char* key, double value) {
  Key(key);
  // What an ostream prints by default (RocksDB streams doubles): %g.
  char buf[32];
  snprintf(buf, sizeof(buf), "%g", value);
  text_ += buf;
  return *this;
}

EventLogLine& EventLogLine::AddArray(const char* key, const std::vector<uint64_t>& values) {
  Key(key);
  text_ += "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) text_ += ", ";
    text_ += std::to_string(values[i]);
  }
  text_ += "]";
  return *this;
}

EventLogLine& EventLogLine::BeginObject(const char* key) {
  Key(key);
  text_ += "{";
  first_ = true;
  ++depth_;
  return *this;
}

EventLogLine& EventLogLine::EndObject() {
  if (depth_ > 1) {
    text_ += "}";
    --depth_;
    first_ = false;
  }
  return *this;
}

std::string EventLogLine::ToString() const { return text_ + std::string(depth_, '}'); }

void LogEvent(Logger* log, const EventLogLine& line) {
  if (log == nullptr) return;
  const std::string text = line.ToString();
  Log(InfoLogLevel::kInfo, log, "EVENT_LOG_v1 %s", text.c_str());
}

const char* FlushReasonString(FlushReason reason) {
  switch (reason) {
    case FlushReason::kOthers:
      return "Other Reasons";
    case FlushReason::kGetLiveFiles:
      return "Get Live Files";
    case FlushReason::kShutDown:
      return "Shut down";
    case FlushReason::kExternalFileIngestion:
      return "External File Ingestion";
    case FlushReason::kManualCompaction:
      return "Manual Compaction";
    case FlushReason::kWriteBufferManager:
      return "Write Buffer Manager";
    case FlushReason::kWriteBufferFull:
      return "Write Buffer Full";
    case FlushReason::kTest:
      return "Test";
    case FlushReason::kDeleteFiles:
      return "Delete Files";
    case FlushReason::kAutoCompaction:
      return "Auto Compaction";
    case FlushReason::kManualFlush:
      return "Manual Flush";
    case FlushReason::kErrorRecovery:
      return "Error Recovery";
    case FlushReason::kWalFull:
      return "WAL Full";
    default:
      return "Invalid";
  }
}

const char* CompactionReasonString(CompactionReason reason) {
  switch (reason) {
    case CompactionReason::kUnknown:
      return "Unknown";
    case CompactionReason::kLevelL0FilesNum:
      return "LevelL0FilesNum";
    case CompactionReason::kLevelMaxLevelSize:
      return "LevelMaxLevelSize";
    case CompactionReason::kUniversalSizeAmplification:
      return "UniversalSizeAmplification";
    case CompactionReason::kUniversalSizeRatio:
      return "UniversalSizeRatio";
    case CompactionReason::kUniversalSortedRunNum:
      return "UniversalSortedRunNum";
    case CompactionReason::kFIFOMaxSize:
      return "FIFOMaxSize";
    case CompactionReason::kFIFOReduceNumFiles:
      return "FIFOReduceNumFiles";
    case CompactionReason::kFIFOTtl:
      return "FIFOTtl";
    case CompactionReason::kManualCompaction:
      return "ManualCompaction";
    case CompactionReason::kFilesMarkedForCompaction:
      return "FilesMarkedForCompaction";
    case CompactionReason::kBottommostFiles:
      return "BottommostFiles";
    case CompactionReason::kTtl:
      return "Ttl";
    case CompactionReason::kFlush:
      return "Flush";
    case CompactionReason::kExternalSstIngestion:
      return "ExternalSstIngestion";
    case CompactionReason::kPeriodicCompaction:
      return "PeriodicCompaction";
    case CompactionReason::kChangeTemperature:
      return "ChangeTemperature";
    case CompactionReason::kForcedBlobGC:
      return "ForcedBlobGC";
    case CompactionReason::kRoundRobinTtl:
      return "RoundRobinTtl";
    case CompactionReason::kNumOfReasons:
      break;
  }
  return "Invalid";
}

void AppendTablePropertiesJson(EventLogLine* line, const TableProperties& p) {
  line->BeginObject("table_properties");
  line->Add("data_size", p.data_size)
      .Add("index_size", p.index_size)
      .Add("index_partitions", p.index_partitions)
      .Add("top_level_index_size", p.top_level_index_size)
      .Add("index_key_is_user_key", p.index_key_is_user_key)
      .Add("index_value_is_delta_encoded", p.index_value_is_delta_encoded)
      .Add("filter_size", p.filter_size)
      .Add("raw_key_size", p.raw_key_size)
      .Add("raw_average_key_size", SafeDivide(p.raw_key_size, p.num_entries))
      .Add("raw_value_size", p.raw_value_size)
      .Add("raw_average_value_size", SafeDivide(p.raw_value_size, p.num_entries))
      .Add("num_data_blocks", p.num_data_blocks)
      .Add("num_entries", p.num_entries)
      .Add("num_filter_entries", p.num_filter_entries)
      .Add("num_deletions", p.num_deletions)
      .Add("num_merge_operands", p.num_merge_operands)
      .Add("num_range_deletions", p.num_range_deletions)
      .Add("format_version", p.format_version)
      .Add("fixed_key_len", p.fixed_key_len)
      .Add("filter_policy", p.filter_policy_name)
      .Add("column_family_name", p.column_family_name)
      .Add("column_family_id", p.column_family_id)
      .Add("comparator", p.comparator_name)
      .Add("merge_operator", p.merge_operator_name)
      .Add("prefix_extractor_name", p.prefix_extractor_name)
      .Add("property_collectors", p.property_collectors_names)
      .Add("compression", p.compression_name)
      .Add("compression_options", p.compression_options)
      .Add("creation_time", p.creation_time)
      .Add("oldest_key_time", p.oldest_key_time)
      .Add("file_creation_time", p.file_creation_time)
      .Add("slow_compression_estimated_data_size", uint64_t{0})
      .Add("fast_compression_estimated_data_size", uint64_t{0})
      .Add("db_id", p.db_id)
      .Add("db_session_id", p.db_session_id)
      .Add("orig_file_number", p.original_file_number)
      .Add("seqno_to_time_mapping", "N/A");
  line->EndObject();
}

void NotifyTableFileCreationStarted(const Listeners* listeners, const std::string& db_name,
                                    const std::string& cf_name, const std::string& file_path,
                                    int job_id, TableFileCreationReason reason) {
  if (listeners == nullptr || listeners->empty()) return;
  TableFileCreationBriefInfo info;
  info.db_name = db_name;
  info.cf_name = cf_name;
  info.file_path = file_path;
  info.job_id = job_id;
  info.reason = reason;
  for (const auto& l : *listeners) l->OnTableFileCreationStarted(info);
}

void LogAndNotifyTableFileCreationFinished(
    Logger* log, uint64_t now_micros, const Listeners* listeners, const std::string& db_name,
    const std::string& cf_name, const std::string& file_path, int job_id, uint64_t file_number,
    uint64_t file_size, uint64_t smallest_seqno, uint64_t largest_seqno,
    const TableProperties* props, TableFileCreationReason reason, const Status& s,
    const std::string& file_checksum, const std::string& file_checksum_func_name) {
  if (s.ok() && log != nullptr) {
    EventLogLine line(now_micros);
    line.Add("cf_name", cf_name)
        .Add("job", job_id)
        .Add("event", "table_file_creation")
        .Add("file_number", file_number)
        .Add("file_size", file_size)
        .Add("file_checksum", Slice(file_checksum).ToString(/*hex=*/true))
        .Add("file_checksum_func_name", file_checksum_func_name)
        .Add("smallest_seqno", smallest_seqno)
        .Add("largest_seqno", largest_seqno);
    AppendTablePropertiesJson(&line, props != nullptr ? *props : TableProperties());
    LogEvent(log, line);
  }
  if (listeners == nullptr || listeners->empty()) return;
  TableFileCreationInfo info;
  info.db_name = db_name;
  info.cf_name = cf_name;
  info.file_path = file_path;
  info.job_id = job_id;
  info.reason = reason;
  info.file_size = file_size;
  if (props != nullptr) info.table_properties = *props;
  info.status = s;
  info.file_checksum = file_checksum;
  info.file_checksum_func_name = file_checksum_func_name;
  for (const auto& l : *listeners) l->OnTableFileCreated(info);
}

void LogAndNotifyTableFileDeletion(Logger* log, uint64_t now_micros, const Listeners* listeners,
                                   int job_id, uint64_t file_number, const std::string& file_path,
                                   const Status& s, const std::string& db_name) {
  EventLogLine line(now_micros);
  line.Add("job", job_id).Add("event", "table_file_deletion").Add("file_number", file_number);
  if (!s.ok()) line.Add("status", s.ToString());
  LogEvent(log, line);
  if (listeners == nullptr || listeners->empty()) return;
  TableFileDeletionInfo info;
  info.db_name = db_name;
  info.file_path = file_path;
  info.job_id = job_id;
  info.status = s;
  for (const auto& l : *listeners) l->OnTableFileDeleted(info);
}

}  // namespace strata
