// compat/agg_merge.cc: the aggregation merge operator
// (rocksdb/utilities/agg_merge.h), RocksDB 7.8.3's encoding and rules.
#include "rocksdb/utilities/agg_merge.h"

#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace rocksdb {

const std::string kUnnamedFuncName = "";
const std::string kErrorFuncName = "kErrorFuncName";

namespace {

// The registered functions; entries are never removed, so an Aggregator
// found under the lock may be used after it is released.
struct Registry {
  std::mutex mu;
  std::unordered_map<std::string, std::unique_ptr<Aggregator>> functions;
};

Registry& Functions() {
  static Registry* const registry = new Registry();
  return *registry;
}

const Aggregator* Find(const Slice& name) {
  Registry& r = Functions();
  std::lock_guard<std::mutex> l(r.mu);
  auto it = r.functions.find(name.ToString());
  return it == r.functions.end() ? nullptr : it->second.get();
}

void PutVarint32(std::string* dst, uint32_t v) {
  while (v >= 0x80) {
    dst->push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  dst->push_back(static_cast<char>(v));
}

void PutLengthPrefixed(std::string* dst, const Slice& s) {
  PutVarint32(dst, static_cast<uint32_t>(s.size()));
  dst->append(s.data(), s.size());
}

bool GetLengthPrefixed(Slice* input, Slice* result) {
  uint32_t len = 0;
  size_t i = 0;
  for (int shift = 0; shift <= 28; shift += 7) {
    if (i >= input->size()) return false;
    const uint32_t byte = static_cast<unsigned char>((*input)[i++]);
    len |= (byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      if (input->size() - i < len) return false;
      *result = Slice(input->data() + i, len);
      input->remove_prefix(i + len);
      return true;
    }
  }
  return false;
}

std::string EncodeNoCheck(const Slice& function_name, const Slice& value) {
  std::string out;
  PutLengthPrefixed(&out, function_name);
  out.append(value.data(), value.size());
  return out;
}

// Collects operands oldest first and aggregates runs of one function.
class Accumulator {
 public:
  // False when a partial merge must give up (the caller keeps the
  // operands); true otherwise, including operands it decided to ignore.
  bool Add(const Slice& op, bool partial) {
    if (ignore_) return true;
    Slice func, value;
    if (!ExtractAggFuncAndValue(op, func, value)) {
      ignore_ = true;
      return true;
    }
    if (partial && !func.empty()) {
      const Aggregator* f = Find(func);
      if (f == nullptr || !f->DoPartialAggregate()) return false;
    }
    if (!func_valid_) {
      if (func != kUnnamedFuncName) {
        func_ = func;
        func_valid_ = true;
      }
    } else if (func_ != func) {
      // The function changed: aggregate the older run first.
      if (partial) {
        func_valid_ = false;
        ignore_ = true;
        return false;
      }
      const Aggregator* f = Find(func_);
      if (f == nullptr || !f->Aggregate(values_, scratch_)) {
        func_valid_ = false;
        ignore_ = true;
        return true;
      }
      std::swap(scratch_, aggregated_);
      values_.clear();
      values_.push_back(aggregated_);
      func_ = func;
    }
    values_.push_back(value);
    return true;
  }

  bool Result(std::string* out) {
    if (!func_valid_) return false;
    const Aggregator* f = Find(func_);
    if (f == nullptr || !f->Aggregate(values_, scratch_)) return false;
    *out = EncodeNoCheck(func_, scratch_);
    return true;
  }

 private:
  Slice func_;
  std::vector<Slice> values_;
  std::string aggregated_;
  std::string scratch_;
  bool ignore_ = false;
  bool func_valid_ = false;
};

class AggMergeOperator : public MergeOperator {
 public:
  const char* Name() const override { return "AggMergeOperator.v1"; }
  bool AllowSingleOperand() const override { return true; }
  bool ShouldMerge(const std::vector<Slice>&) const override { return false; }

  bool FullMergeV2(const MergeOperationInput& in, MergeOperationOutput* out) const override {
    Accumulator acc;
    if (in.existing_value != nullptr) acc.Add(*in.existing_value, /*partial=*/false);
    for (const Slice& op : in.operand_list) acc.Add(op, /*partial=*/false);
    if (!acc.Result(&out->new_value)) {
      // Keep everything, under the error function, rather than fail.
      out->new_value.clear();
      PutLengthPrefixed(&out->new_value, kErrorFuncName);
      if (in.existing_value != nullptr) PutLengthPrefixed(&out->new_value, *in.existing_value);
      for (const Slice& op : in.operand_list) PutLengthPrefixed(&out->new_value, op);
    }
    return true;
  }

  bool PartialMergeMulti(const Slice& /*key*/, const std::deque<Slice>& operands,
                         std::string* new_value, Logger* /*logger*/) const override {
    Accumulator acc;
    for (const Slice& op : operands) {
      if (!acc.Add(op, /*partial=*/true)) return false;
    }
    return acc.Result(new_value);
  }
};

}  // namespace

Status AddAggregator(const std::string& function_name, std::unique_ptr<Aggregator>&& agg) {
  if (function_name == kErrorFuncName) {
    return Status::InvalidArgument("Cannot register function name kErrorFuncName");
  }
  Registry& r = Functions();
  std::lock_guard<std::mutex> l(r.mu);
  r.functions.emplace(function_name, std::move(agg));
  return Status::OK();
}

std::shared_ptr<MergeOperator> GetAggMergeOperator() {
  static const std::shared_ptr<MergeOperator>* const op =
      new std::shared_ptr<MergeOperator>(std::make_shared<AggMergeOperator>());
  return *op;
}

Status EncodeAggFuncAndPayload(const Slice& function_name, const Slice& payload,
                               std::string& output) {
  if (function_name == kErrorFuncName) {
    return Status::InvalidArgument("Cannot use error function name");
  }
  if (function_name != kUnnamedFuncName && Find(function_name) == nullptr) {
    return Status::InvalidArgument("Function name not registered");
  }
  output = EncodeNoCheck(function_name, payload);
  return Status::OK();
}

bool ExtractAggFuncAndValue(const Slice& op, Slice& func, Slice& value) {
  value = op;
  return GetLengthPrefixed(&value, &func);
}

bool ExtractList(const Slice& encoded_list, std::vector<Slice>& decoded_list) {
  decoded_list.clear();
  Slice rest = encoded_list;
  Slice item;
  while (GetLengthPrefixed(&rest, &item)) decoded_list.push_back(item);
  return rest.empty();
}

}  // namespace rocksdb
