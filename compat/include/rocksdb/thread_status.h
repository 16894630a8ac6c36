// rocksdb/thread_status.h: ThreadStatus, RocksDB's description of what one
// thread of a database is doing (its pool, operation, stage, state and the
// operation's counters), with the static helpers naming each enum value as
// RocksDB 7.8.3 names it.
// Strata does not track its threads' operations: Env::GetThreadList and
// DB::GetThreadList answer NotSupported; the struct and helpers are real.
// Thread-safety: thread-safe (immutable values; static tables).
// Invariant: the enum values are RocksDB's, in its order (never renumber).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "rocksdb/rocksdb_namespace.h"

#if !defined(ROCKSDB_LITE) && !defined(NROCKSDB_THREAD_STATUS)
#define ROCKSDB_USING_THREAD_STATUS
#endif

namespace rocksdb {

// The larger of two ints, at compile time.
template <int A, int B>
struct constexpr_max {
  static const int result = (A > B) ? A : B;
};

struct ThreadStatus {
  // Which pool a thread belongs to (USER: a thread of the program).
  enum ThreadType : int {
    HIGH_PRIORITY = 0,
    LOW_PRIORITY,
    USER,
    BOTTOM_PRIORITY,
    NUM_THREAD_TYPES
  };

  enum OperationType : int { OP_UNKNOWN = 0, OP_COMPACTION, OP_FLUSH, NUM_OP_TYPES };

  enum OperationStage : int {
    STAGE_UNKNOWN = 0,
    STAGE_FLUSH_RUN,
    STAGE_FLUSH_WRITE_L0,
    STAGE_COMPACTION_PREPARE,
    STAGE_COMPACTION_RUN,
    STAGE_COMPACTION_PROCESS_KV,
    STAGE_COMPACTION_INSTALL,
    STAGE_COMPACTION_SYNC_FILE,
    STAGE_PICK_MEMTABLES_TO_FLUSH,
    STAGE_MEMTABLE_ROLLBACK,
    STAGE_MEMTABLE_INSTALL_FLUSH_RESULTS,
    NUM_OP_STAGES
  };

  // Indexes into op_properties for a compaction.
  enum CompactionPropertyType : int {
    COMPACTION_JOB_ID = 0,
    COMPACTION_INPUT_OUTPUT_LEVEL,  // input level << 32 | output level
    COMPACTION_PROP_FLAGS,          // bit 1 manual, bit 2 deletion, bit 3 trivial
    COMPACTION_TOTAL_INPUT_BYTES,
    COMPACTION_BYTES_READ,
    COMPACTION_BYTES_WRITTEN,
    NUM_COMPACTION_PROPERTIES
  };

  // Indexes into op_properties for a flush.
  enum FlushPropertyType : int {
    FLUSH_JOB_ID = 0,
    FLUSH_BYTES_MEMTABLES,
    FLUSH_BYTES_WRITTEN,
    NUM_FLUSH_PROPERTIES
  };

  static const int kNumOperationProperties =
      constexpr_max<NUM_COMPACTION_PROPERTIES, NUM_FLUSH_PROPERTIES>::result;

  enum StateType : int { STATE_UNKNOWN = 0, STATE_MUTEX_WAIT = 1, NUM_STATE_TYPES };

  // _op_props must hold kNumOperationProperties values (copied).
  ThreadStatus(const uint64_t _id, const ThreadType _thread_type, const std::string& _db_name,
               const std::string& _cf_name, const OperationType _operation_type,
               const uint64_t _op_elapsed_micros, const OperationStage _operation_stage,
               const uint64_t _op_props[], const StateType _state_type)
      : thread_id(_id),
        thread_type(_thread_type),
        db_name(_db_name),
        cf_name(_cf_name),
        operation_type(_operation_type),
        op_elapsed_micros(_op_elapsed_micros),
        operation_stage(_operation_stage),
        state_type(_state_type) {
    for (int i = 0; i < kNumOperationProperties; ++i) {
      op_properties[i] = _op_props[i];
    }
  }

  const uint64_t thread_id;
  const ThreadType thread_type;
  const std::string db_name;  // empty when the thread works for no database
  const std::string cf_name;  // empty when it works for no column family
  const OperationType operation_type;
  const uint64_t op_elapsed_micros;
  const OperationStage operation_stage;
  uint64_t op_properties[kNumOperationProperties];
  const StateType state_type;

  // "High Pri", "Low Pri", "User", "Bottom Pri" ("Unknown" otherwise).
  static std::string GetThreadTypeName(ThreadType thread_type);
  // "", "Compaction", "Flush"; "" for a value out of range.
  static const std::string& GetOperationName(OperationType op_type);
  // A duration as RocksDB prints one ("12 us", "3.500 ms", ...); "" for 0.
  static const std::string MicrosToString(uint64_t op_elapsed_time);
  // The RocksDB function a stage is named after ("FlushJob::Run", ...).
  static const std::string& GetOperationStageName(OperationStage stage);
  // The name of op_properties[i] for op_type; "" when there is none.
  static const std::string& GetOperationPropertyName(OperationType op_type, int i);
  // op_properties as name -> value, the packed ones split (BaseInputLevel,
  // OutputLevel, IsManual, IsDeletion, IsTrivialMove).
  static std::map<std::string, uint64_t> InterpretOperationProperties(
      OperationType op_type, const uint64_t* op_properties);
  // "", "Mutex Wait".
  static const std::string& GetStateName(StateType state_type);
};

}  // namespace rocksdb
