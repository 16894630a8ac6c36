// compat/thread_status.cc: ThreadStatus's naming helpers
// (rocksdb/thread_status.h), with RocksDB 7.8.3's names.
#include "rocksdb/thread_status.h"

#include <cinttypes>
#include <cstdio>

namespace rocksdb {
namespace {

const std::string& Empty() {
  static const std::string* const kEmpty = new std::string();
  return *kEmpty;
}

// Looks name i up in a table of n names; "" when out of range.
const std::string& Lookup(const std::string* names, int n, int i) {
  return (i < 0 || i >= n) ? Empty() : names[i];
}

const std::string kOperationNames[ThreadStatus::NUM_OP_TYPES] = {"", "Compaction", "Flush"};
const std::string kStageNames[ThreadStatus::NUM_OP_STAGES] = {
    "",
    "FlushJob::Run",
    "FlushJob::WriteLevel0Table",
    "CompactionJob::Prepare",
    "CompactionJob::Run",
    "CompactionJob::ProcessKeyValueCompaction",
    "CompactionJob::Install",
    "CompactionJob::FinishCompactionOutputFile",
    "MemTableList::PickMemtablesToFlush",
    "MemTableList::RollbackMemtableFlush",
    "MemTableList::TryInstallMemtableFlushResults",
};
const std::string kStateNames[ThreadStatus::NUM_STATE_TYPES] = {"", "Mutex Wait"};
const std::string kCompactionProperties[ThreadStatus::NUM_COMPACTION_PROPERTIES] = {
    "JobID",           "InputOutputLevel", "Manual/Deletion/Trivial",
    "TotalInputBytes", "BytesRead",        "BytesWritten",
};
const std::string kFlushProperties[ThreadStatus::NUM_FLUSH_PROPERTIES] = {"JobID", "BytesMemtables",
                                                                          "BytesWritten"};

}  // namespace

std::string ThreadStatus::GetThreadTypeName(ThreadType thread_type) {
  switch (thread_type) {
    case HIGH_PRIORITY:
      return "High Pri";
    case LOW_PRIORITY:
      return "Low Pri";
    case USER:
      return "User";
    case BOTTOM_PRIORITY:
      return "Bottom Pri";
    case NUM_THREAD_TYPES:
      break;
  }
  return "Unknown";
}

const std::string& ThreadStatus::GetOperationName(OperationType op_type) {
  return Lookup(kOperationNames, NUM_OP_TYPES, op_type);
}

const std::string& ThreadStatus::GetOperationStageName(OperationStage stage) {
  return Lookup(kStageNames, NUM_OP_STAGES, stage);
}

const std::string& ThreadStatus::GetStateName(StateType state_type) {
  return Lookup(kStateNames, NUM_STATE_TYPES, state_type);
}

const std::string ThreadStatus::MicrosToString(uint64_t micros) {
  if (micros == 0) return "";
  char buf[100];
  const double secs_in_minute = static_cast<double>(micros % 60000000) / 1000000;
  if (micros < 10000) {
    snprintf(buf, sizeof(buf), "%" PRIu64 " us", micros);
  } else if (micros < 10000000) {
    snprintf(buf, sizeof(buf), "%.3lf ms", static_cast<double>(micros) / 1000);
  } else if (micros < uint64_t{60} * 1000000) {
    snprintf(buf, sizeof(buf), "%.3lf sec", static_cast<double>(micros) / 1000000);
  } else if (micros < uint64_t{3600} * 1000000) {
    snprintf(buf, sizeof(buf), "%02" PRIu64 ":%05.3f M:S", micros / 1000000 / 60, secs_in_minute);
  } else {
    snprintf(buf, sizeof(buf), "%02" PRIu64 ":%02" PRIu64 ":%05.3f H:M:S", micros / 1000000 / 3600,
             (micros / 1000000 / 60) % 60, secs_in_minute);
  }
  return buf;
}

const std::string& ThreadStatus::GetOperationPropertyName(OperationType op_type, int i) {
  switch (op_type) {
    case OP_COMPACTION:
      return Lookup(kCompactionProperties, NUM_COMPACTION_PROPERTIES, i);
    case OP_FLUSH:
      return Lookup(kFlushProperties, NUM_FLUSH_PROPERTIES, i);
    default:
      return Empty();
  }
}

std::map<std::string, uint64_t> ThreadStatus::InterpretOperationProperties(
    OperationType op_type, const uint64_t* op_properties) {
  int n = 0;
  if (op_type == OP_COMPACTION) n = NUM_COMPACTION_PROPERTIES;
  if (op_type == OP_FLUSH) n = NUM_FLUSH_PROPERTIES;
  std::map<std::string, uint64_t> out;
  for (int i = 0; i < n; ++i) {
    const uint64_t v = op_properties[i];
    if (op_type == OP_COMPACTION && i == COMPACTION_INPUT_OUTPUT_LEVEL) {
      out.emplace("BaseInputLevel", v >> 32);
      out.emplace("OutputLevel", v & 0xffffffffU);
    } else if (op_type == OP_COMPACTION && i == COMPACTION_PROP_FLAGS) {
      out.emplace("IsManual", (v >> 1) & 1);
      out.emplace("IsDeletion", (v >> 2) & 1);
      out.emplace("IsTrivialMove", (v >> 3) & 1);
    } else {
      out.emplace(GetOperationPropertyName(op_type, i), v);
    }
  }
  return out;
}

}  // namespace rocksdb
