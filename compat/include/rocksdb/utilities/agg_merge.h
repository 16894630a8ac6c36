// rocksdb/utilities/agg_merge.h: the aggregation merge operator. Each
// value and operand names the aggregation function that combines it:
//   value := varint32 len(function name) || function name || payload
// (EncodeAggFuncAndPayload). Merging runs the registered Aggregator of the
// newest function over the payloads (when the function changes midway, the
// older run is aggregated first and its result becomes the first payload
// of the newer). The result is stored encoded the same way. If the
// operands cannot be aggregated (bad encoding, unregistered function), the
// merge still succeeds: the value becomes kErrorFuncName's encoding of the
// list of every operand (the base value first), each length-prefixed, for
// ExtractList to take apart. Byte-compatible with RocksDB 7.8.3
// ("AggMergeOperator.v1").
// Thread-safety: AddAggregator may be called at any time (compat guards the
// registry); aggregators must be thread-safe.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "rocksdb/merge_operator.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"

namespace rocksdb {

// Combines payloads into one (result replaces the previous content).
class Aggregator {
 public:
  virtual ~Aggregator() {}
  // False if the payloads cannot be aggregated.
  virtual bool Aggregate(const std::vector<Slice>& values, std::string& result) const = 0;
  // Whether partial merges (operands without the base value) may
  // aggregate with this function.
  virtual bool DoPartialAggregate() const { return true; }
};

// Registers agg under function_name (a name already registered keeps its
// first aggregator). InvalidArgument for kErrorFuncName.
Status AddAggregator(const std::string& function_name, std::unique_ptr<Aggregator>&& agg);

// The process-wide operator (never destroyed).
std::shared_ptr<MergeOperator> GetAggMergeOperator();

// output = the encoding of (function_name, payload). InvalidArgument for
// kErrorFuncName or a name not registered (kUnnamedFuncName is allowed: its
// operands take the function of the others).
Status EncodeAggFuncAndPayload(const Slice& function_name, const Slice& payload,
                               std::string& output);

// Splits an encoded value; false if the length prefix is bad. func and
// value point into op.
bool ExtractAggFuncAndValue(const Slice& op, Slice& func, Slice& value);

// Splits a list of length-prefixed items (kErrorFuncName's payload); false
// if bytes are left over that are not a whole item.
bool ExtractList(const Slice& encoded_list, std::vector<Slice>& decoded_list);

extern const std::string kUnnamedFuncName;
extern const std::string kErrorFuncName;

}  // namespace rocksdb
