// The default behaviour of CompactionFilter (include/strata/compaction_filter.h):
// keep everything, and route FilterV2 to Filter / FilterMergeOperand.
#include "strata/compaction_filter.h"

#include "strata/convenience.h"

namespace strata {

CompactionFilter::~CompactionFilter() = default;

bool CompactionFilter::Filter(int /*level*/, const Slice& /*key*/, const Slice& /*existing_value*/,
                              std::string* /*new_value*/, bool* /*value_changed*/) const {
  return false;
}

bool CompactionFilter::FilterMergeOperand(int /*level*/, const Slice& /*key*/,
                                          const Slice& /*operand*/) const {
  return false;
}

CompactionFilter::Decision CompactionFilter::FilterV2(int level, const Slice& key,
                                                      ValueType value_type,
                                                      const Slice& existing_value,
                                                      std::string* new_value,
                                                      std::string* /*skip_until*/) const {
  switch (value_type) {
    case ValueType::kValue: {
      bool value_changed = false;
      if (Filter(level, key, existing_value, new_value, &value_changed)) return Decision::kRemove;
      return value_changed ? Decision::kChangeValue : Decision::kKeep;
    }
    case ValueType::kMergeOperand:
      return FilterMergeOperand(level, key, existing_value) ? Decision::kRemove : Decision::kKeep;
    case ValueType::kBlobIndex:
      break;
  }
  return Decision::kKeep;
}

CompactionFilterFactory::~CompactionFilterFactory() = default;

Status CompactionFilter::CreateFromString(const ConfigOptions& config_options,
                                          const std::string& name,
                                          const CompactionFilter** result) {
  if (name.empty() || name == "nullptr") {
    *result = nullptr;
  } else if (!config_options.ignore_unsupported_options) {
    return Status::NotSupported("Could not load CompactionFilter", name);
  }
  return Status::OK();
}

Status CompactionFilterFactory::CreateFromString(const ConfigOptions& config_options,
                                                 const std::string& name,
                                                 std::shared_ptr<CompactionFilterFactory>* result) {
  if (name.empty() || name == "nullptr") {
    result->reset();
  } else if (!config_options.ignore_unsupported_options) {
    return Status::NotSupported("Could not load CompactionFilterFactory", name);
  }
  return Status::OK();
}

}  // namespace strata
