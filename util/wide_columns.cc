// Wide-column data types: see strata/wide_columns.h (the entity format is
// described there).
#include "strata/wide_columns.h"

#include "util/coding.h"

namespace strata {

const Slice kDefaultWideColumnName;
const WideColumns kNoWideColumns;

namespace {
constexpr uint32_t kEntityVersion = 1;  // the newest entity format read
}  // namespace

void PinnableWideColumns::Hold(const Slice& value, Cleanable* cleanable) {
  if (cleanable == nullptr) {
    value_.PinSelf(value);
  } else {
    value_.PinSlice(value, cleanable);
  }
}

void PinnableWideColumns::SetPlainValue(const Slice& value) { SetPlainValue(value, nullptr); }

void PinnableWideColumns::SetPlainValue(const Slice& value, Cleanable* cleanable) {
  Hold(value, cleanable);
  columns_ = WideColumns{{kDefaultWideColumnName, Slice(value_.data(), value_.size())}};
}

Status PinnableWideColumns::SetWideColumnValue(const Slice& value) {
  return SetWideColumnValue(value, nullptr);
}

Status PinnableWideColumns::SetWideColumnValue(const Slice& value, Cleanable* cleanable) {
  Hold(value, cleanable);
  return IndexEntity();
}

void PinnableWideColumns::Reset() {
  value_.Reset();
  columns_.clear();
}

Status PinnableWideColumns::IndexEntity() {
  columns_.clear();
  Slice in(value_.data(), value_.size());
  uint32_t version = 0;
  if (!GetVarint32(&in, &version)) return Status::Corruption("Error decoding wide column version");
  if (version > kEntityVersion) return Status::NotSupported("Unsupported wide column version");
  uint32_t n = 0;
  if (!GetVarint32(&in, &n)) return Status::Corruption("Error decoding number of wide columns");
  // The index: names with their value sizes; the values follow it.
  std::vector<uint32_t> sizes;
  for (uint32_t i = 0; i < n; ++i) {
    Slice name;
    if (!GetLengthPrefixedSlice(&in, &name)) {
      return Status::Corruption("Error decoding wide column name");
    }
    if (!columns_.empty() && columns_.back().name().compare(name) >= 0) {
      return Status::Corruption("Wide columns out of order");
    }
    uint32_t size = 0;
    if (!GetVarint32(&in, &size)) {
      return Status::Corruption("Error decoding wide column value size");
    }
    columns_.emplace_back(name, Slice());
    sizes.push_back(size);
  }
  size_t pos = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (sizes[i] > in.size() - pos) {
      return Status::Corruption("Error decoding wide column value payload");
    }
    columns_[i].value() = Slice(in.data() + pos, sizes[i]);
    pos += sizes[i];
  }
  return Status::OK();
}

}  // namespace strata
