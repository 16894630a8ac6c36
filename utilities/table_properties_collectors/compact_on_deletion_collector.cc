// CompactOnDeletionCollectorFactory and its collector: see
// strata/utilities/table_properties_collectors.h for what marks a file.
#include <array>
#include <cerrno>
#include <cstdlib>
#include <sstream>

#include "db/options_helper.h"
#include "strata/convenience.h"
#include "strata/utilities/table_properties_collectors.h"

namespace strata {
namespace {

// Counts deletions over a window of the last entries and over the whole
// file. The window is a ring of kBuckets buckets of bucket_size_ entries:
// when the current bucket is full the oldest one is dropped and reused, so
// the window always holds the current bucket plus kBuckets - 1 full ones.
class CompactOnDeletionCollector final : public TablePropertiesCollector {
 public:
  static constexpr size_t kBuckets = 128;

  CompactOnDeletionCollector(size_t window, size_t trigger, double ratio)
      : bucket_size_((window + kBuckets - 1) / kBuckets),
        trigger_(trigger),
        ratio_(ratio),
        ratio_enabled_(ratio > 0 && ratio <= 1) {}

  Status AddUserKey(const Slice&, const Slice&, EntryType type, uint64_t, uint64_t) override {
    // Once marked, nothing more is counted (the ratio check is skipped too).
    if (need_compact_ || (bucket_size_ == 0 && !ratio_enabled_)) return Status::OK();
    const bool deletion = type == kEntryDelete;
    if (ratio_enabled_) {
      ++entries_;
      if (deletion) ++deletions_;
    }
    if (bucket_size_ == 0) return Status::OK();
    if (in_bucket_ == bucket_size_) {
      // Move to the next bucket, forgetting the deletions it held.
      current_ = (current_ + 1) % kBuckets;
      in_window_ -= buckets_[current_];
      buckets_[current_] = 0;
      in_bucket_ = 0;
    }
    ++in_bucket_;
    if (deletion) {
      ++buckets_[current_];
      if (++in_window_ >= trigger_) need_compact_ = true;
    }
    return Status::OK();
  }

  Status Finish(UserCollectedProperties*) override {
    if (!need_compact_ && ratio_enabled_ && entries_ > 0) {
      need_compact_ = static_cast<double>(deletions_) / static_cast<double>(entries_) >= ratio_;
    }
    return Status::OK();
  }

  UserCollectedProperties GetReadableProperties() const override { return {}; }
  const char* Name() const override { return CompactOnDeletionCollectorFactory::kClassName(); }
  bool NeedCompact() const override { return need_compact_; }

 private:
  const size_t bucket_size_;  // 0: the window check is off
  const size_t trigger_;
  const double ratio_;
  const bool ratio_enabled_;

  std::array<size_t, kBuckets> buckets_{};  // deletions per bucket
  size_t current_ = 0;                      // the bucket being filled
  size_t in_bucket_ = 0;                    // entries in it so far
  size_t in_window_ = 0;                    // sum of buckets_
  size_t entries_ = 0;                      // ratio check: entries and deletions
  size_t deletions_ = 0;
  bool need_compact_ = false;
};

}  // namespace

CompactOnDeletionCollectorFactory::CompactOnDeletionCollectorFactory(size_t sliding_window_size,
                                                                     size_t deletion_trigger,
                                                                     double deletion_ratio)
    : sliding_window_size_(sliding_window_size),
      deletion_trigger_(deletion_trigger),
      deletion_ratio_(deletion_ratio) {}

TablePropertiesCollector* CompactOnDeletionCollectorFactory::CreateTablePropertiesCollector(
    TablePropertiesCollectorFactory::Context) {
  return new CompactOnDeletionCollector(GetWindowSize(), GetDeletionTrigger(), GetDeletionRatio());
}

std::string CompactOnDeletionCollectorFactory::ToString() const {
  std::ostringstream s;
  s << Name() << " (Sliding window size = " << GetWindowSize()
    << " Deletion trigger = " << GetDeletionTrigger() << " Deletion ratio = " << GetDeletionRatio()
    << ')';
  return s.str();
}

std::map<std::string, std::string> CompactOnDeletionCollectorFactory::SerializedOptions() const {
  return {{"deletion_ratio", std::to_string(GetDeletionRatio())},
          {"deletion_trigger", std::to_string(GetDeletionTrigger())},
          {"window_size", std::to_string(GetWindowSize())}};
}

Status TablePropertiesCollectorFactory::CreateFromString(
    const ConfigOptions& options, const std::string& value,
    std::shared_ptr<TablePropertiesCollectorFactory>* result) {
  if (value.empty() || value == "nullptr") {
    result->reset();
    return Status::OK();
  }
  OptionsMap fields;
  std::string id = value;
  if (value.find('=') != std::string::npos) {
    Status s = StringToMap(StripBraces(value), &fields);
    if (!s.ok()) return s;
    id = fields["id"];
    fields.erase("id");
  }
  if (id != CompactOnDeletionCollectorFactory::kClassName()) {
    if (options.ignore_unsupported_options) return Status::OK();
    return Status::NotSupported("Could not load TablePropertiesCollectorFactory", id);
  }
  // RocksDB's registered factory starts switched off.
  auto made = std::make_shared<CompactOnDeletionCollectorFactory>(0, 0, 0);
  for (const auto& [name, v] : fields) {
    char* end = nullptr;
    errno = 0;
    if (name == "deletion_ratio") {
      const double d = std::strtod(v.c_str(), &end);
      if (end == v.c_str() || *end != '\0' || errno != 0) {
        return Status::InvalidArgument("Error parsing deletion_ratio", v);
      }
      made->SetDeletionRatio(d);
      continue;
    }
    if (name != "window_size" && name != "deletion_trigger") {
      return Status::InvalidArgument("Unrecognized option", "." + name);
    }
    const unsigned long long n = std::strtoull(v.c_str(), &end, 10);
    if (v.empty() || *end != '\0' || errno != 0) {
      return Status::InvalidArgument("Error parsing " + name, v);
    }
    if (name == "window_size") {
      made->SetWindowSize(static_cast<size_t>(n));
    } else {
      made->SetDeletionTrigger(static_cast<size_t>(n));
    }
  }
  *result = std::move(made);
  return Status::OK();
}

std::shared_ptr<CompactOnDeletionCollectorFactory> NewCompactOnDeletionCollectorFactory(
    size_t sliding_window_size, size_t deletion_trigger, double deletion_ratio) {
  return std::make_shared<CompactOnDeletionCollectorFactory>(sliding_window_size, deletion_trigger,
                                                             deletion_ratio);
}

}  // namespace strata
