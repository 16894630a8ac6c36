// MergeOperator: the user's read-modify-write rule. DB::Merge(key, operand)
// records an operand without reading; reads, flushes and compactions later
// combine the operands of a key with its base value (the newest Put below
// them, or none) by calling FullMergeV2, and may pre-combine adjacent
// operands with PartialMerge(Multi). RocksDB's semantics and signatures, so
// a RocksDB operator ports by renaming the namespace.
//
// Operand order: operand_list is oldest first (apply front() first).
// A merge that returns false fails the read or compaction with
// Status::Corruption naming the operator (e.g. a malformed uint64 operand).
// Name() is recorded in each table's properties ("rocksdb.merge.operator").
// Thread-safety: an operator is shared by every thread of the DB; its
// methods must be thread-safe (they are const and should keep no state).
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "strata/export.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

class Logger;

struct ConfigOptions;  // strata/convenience.h

class STRATA_EXPORT MergeOperator {
 public:
  virtual ~MergeOperator();

  // The registry type name (RocksDB's Customizable::Type).
  static const char* Type() { return "MergeOperator"; }
  // The built-in operator named id (MergeOperators::CreateFromStringId's
  // names: "put", "uint64add", "stringappend", "max" and the operators'
  // Name()s); "" or "nullptr" resets *result. Any other id is NotSupported
  // ("Could not load MergeOperator: <id>"), or OK leaving *result unchanged
  // when config_options.ignore_unsupported_options is set (RocksDB's answers).
  static Status CreateFromString(const ConfigOptions& opts, const std::string& id,
                                 std::shared_ptr<MergeOperator>* result);

  struct MergeOperationInput {
    MergeOperationInput(const Slice& k, const Slice* existing, const std::vector<Slice>& operands,
                        Logger* log)
        : key(k), existing_value(existing), operand_list(operands), logger(log) {}
    const Slice& key;                        // the user key
    const Slice* existing_value;             // the base value, or null if none
    const std::vector<Slice>& operand_list;  // oldest first; never empty
    Logger* logger;                          // may be null
  };

  struct MergeOperationOutput {
    MergeOperationOutput(std::string& value, Slice& operand)
        : new_value(value), existing_operand(operand) {}
    // The result. Arrives empty.
    std::string& new_value;
    // Alternatively (to save a copy) the operator may point this at the base
    // value or at one of the operands; it then takes precedence over
    // new_value. Arrives as Slice(nullptr, 0): callers test data() != nullptr
    // afterwards (a default Slice() points at "" and would read as set).
    Slice& existing_operand;
  };

  // Combines the base value (if any) with the operands. False = failure.
  virtual bool FullMergeV2(const MergeOperationInput& merge_in,
                           MergeOperationOutput* merge_out) const;

  // Older interface, called by the default FullMergeV2. Operands oldest
  // first. The default returns false (so an operator must override one of
  // the two).
  virtual bool FullMerge(const Slice& key, const Slice* existing_value,
                         const std::deque<std::string>& operand_list, std::string* new_value,
                         Logger* logger) const;

  // Combines two adjacent operands (left older) into one, when the operator
  // can do so without the base value. False = cannot (both are kept).
  virtual bool PartialMerge(const Slice& key, const Slice& left_operand, const Slice& right_operand,
                            std::string* new_value, Logger* logger) const;

  // Combines two or more adjacent operands (oldest first). The default folds
  // PartialMerge over the list.
  virtual bool PartialMergeMulti(const Slice& key, const std::deque<Slice>& operand_list,
                                 std::string* new_value, Logger* logger) const;

  virtual const char* Name() const = 0;

  // Whether PartialMerge may be called with one operand left over (RocksDB's
  // hint); unused by Strata's engine but kept for source compatibility.
  virtual bool AllowSingleOperand() const { return false; }

  // Whether operands should be merged eagerly on reads once this many are
  // met (unused hint, kept for source compatibility).
  virtual bool ShouldMerge(const std::vector<Slice>& /*operands*/) const { return false; }
};

// An operator whose operands and values have the same type and whose merge
// is associative: implement Merge (existing_value null = no base) and both
// FullMergeV2 and PartialMerge follow from it.
class STRATA_EXPORT AssociativeMergeOperator : public MergeOperator {
 public:
  ~AssociativeMergeOperator() override;

  virtual bool Merge(const Slice& key, const Slice* existing_value, const Slice& value,
                     std::string* new_value, Logger* logger) const = 0;

  bool FullMergeV2(const MergeOperationInput& merge_in,
                   MergeOperationOutput* merge_out) const override;
  bool PartialMerge(const Slice& key, const Slice& left_operand, const Slice& right_operand,
                    std::string* new_value, Logger* logger) const override;
};

// Built-in operators (utilities/merge_operators).
namespace MergeOperators {
// The last operand wins (a Put spelled as a merge). Name "PutOperator".
STRATA_EXPORT std::shared_ptr<MergeOperator> CreatePutOperator();
// Values and operands are 8-byte little-endian unsigned integers; the result
// is their sum (mod 2^64). A value or operand of another length fails the
// merge (Corruption). Name "UInt64AddOperator".
STRATA_EXPORT std::shared_ptr<MergeOperator> CreateUInt64AddOperator();
// Joins base and operands (oldest first) with the delimiter. Name
// "StringAppendOperator".
STRATA_EXPORT std::shared_ptr<MergeOperator> CreateStringAppendOperator(char delim = ',');
STRATA_EXPORT std::shared_ptr<MergeOperator> CreateStringAppendOperator(const std::string& delim);
// The bytewise largest of base and operands. Name "MaxOperator".
STRATA_EXPORT std::shared_ptr<MergeOperator> CreateMaxOperator();
// By name as db_bench spells them: "put", "uint64add", "stringappend",
// "max" (and the operators' Name()s); null if unknown.
STRATA_EXPORT std::shared_ptr<MergeOperator> CreateFromStringId(const std::string& id);
}  // namespace MergeOperators

}  // namespace strata
