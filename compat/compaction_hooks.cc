// compat/compaction_hooks.cc: RocksDB's SstPartitioner factories,
// ConcurrentTaskLimiter and FlushBlockPolicy classes
// (rocksdb/sst_partitioner.h, concurrent_task_limiter.h,
// flush_block_policy.h) over Strata's, and the conversions Open and the
// option parsers use (compat/options_convert.h).
#include <memory>
#include <string>
#include <typeinfo>

#include "compat/options_convert.h"
#include "rocksdb/concurrent_task_limiter.h"
#include "rocksdb/convenience.h"
#include "rocksdb/flush_block_policy.h"
#include "rocksdb/sst_partitioner.h"
#include "strata/concurrent_task_limiter.h"
#include "strata/convenience.h"
#include "strata/flush_block_policy.h"
#include "strata/sst_partitioner.h"

namespace rocksdb {

// The data block a policy is made for: Strata's view of it.
class BlockBuilder {
 public:
  explicit BlockBuilder(const ::strata::DataBlockView& view) : view_(view) {}
  const ::strata::DataBlockView& view() const { return view_; }

 private:
  const ::strata::DataBlockView& view_;
};

namespace {

// The dynamic type of *p (p not null), without typeid's side-effect warning.
template <typename T>
const std::type_info& TypeOf(const std::shared_ptr<T>& p) {
  const T& r = *p;
  return typeid(r);
}

// "X" / "{id=X;...}" / "id=X;..." as the value of `option` in a Strata
// option string.
std::string OptionText(const char* option, const std::string& value) {
  std::string v = value;
  if (!v.empty() && v.front() != '{' && v.find('=') != std::string::npos) v = "{" + v + "}";
  return std::string(option) + "=" + v;
}

::strata::ConfigOptions ToStrataConfig(const ConfigOptions& c) {
  ::strata::ConfigOptions s;
  s.ignore_unknown_options = c.ignore_unknown_options;
  s.input_strings_escaped = c.input_strings_escaped;
  return s;
}

// A Strata policy as RocksDB's (the size policy's static maker).
class StrataPolicy final : public FlushBlockPolicy {
 public:
  explicit StrataPolicy(std::unique_ptr<::strata::FlushBlockPolicy> p) : p_(std::move(p)) {}
  bool Update(const Slice& key, const Slice& value) override { return p_->Update(key, value); }

 private:
  std::unique_ptr<::strata::FlushBlockPolicy> p_;
};

// RocksDB's registered FlushBlockEveryKeyPolicyFactory (not in its public
// headers): made by CreateFromString and the option parsers.
class EveryKeyFactory final : public FlushBlockPolicyFactory {
 public:
  const char* Name() const override {
    return ::strata::FlushBlockEveryKeyPolicyFactory::kClassName();
  }
  FlushBlockPolicy* NewFlushBlockPolicy(const BlockBasedTableOptions& /*table_options*/,
                                        const BlockBuilder& data_block_builder) const override {
    ::strata::BlockBasedTableOptions unused;
    return new StrataPolicy(::strata::FlushBlockEveryKeyPolicyFactory().NewFlushBlockPolicy(
        unused, data_block_builder.view()));
  }
};

// A RocksDB policy as the engine's: holds the BlockBuilder the policy was
// given (it must live as long as the policy).
class PolicyAdapter final : public ::strata::FlushBlockPolicy {
 public:
  explicit PolicyAdapter(const ::strata::DataBlockView& view) : block_(view) {}
  bool Update(const Slice& key, const Slice& value) override { return p_->Update(key, value); }
  const BlockBuilder& block() const { return block_; }
  void set(::rocksdb::FlushBlockPolicy* p) { p_.reset(p); }
  bool has_policy() const { return p_ != nullptr; }

 private:
  BlockBuilder block_;
  std::unique_ptr<::rocksdb::FlushBlockPolicy> p_;
};

// A RocksDB factory as the engine's; the RocksDB table options the program
// set are what its NewFlushBlockPolicy receives.
class FactoryAdapter final : public ::strata::FlushBlockPolicyFactory {
 public:
  explicit FactoryAdapter(const BlockBasedTableOptions& options)
      : factory_(options.flush_block_policy_factory), options_(options) {}
  const char* Name() const override { return factory_->Name(); }
  std::unique_ptr<::strata::FlushBlockPolicy> NewFlushBlockPolicy(
      const ::strata::BlockBasedTableOptions& /*table_options*/,
      const ::strata::DataBlockView& data_block) const override {
    auto adapter = std::make_unique<PolicyAdapter>(data_block);
    adapter->set(factory_->NewFlushBlockPolicy(options_, adapter->block()));
    if (!adapter->has_policy()) return nullptr;
    return adapter;
  }
  const std::shared_ptr<::rocksdb::FlushBlockPolicyFactory>& factory() const { return factory_; }

 private:
  const std::shared_ptr<::rocksdb::FlushBlockPolicyFactory> factory_;
  const BlockBasedTableOptions options_;
};

}  // namespace

// ---- SstPartitioner ----

SstPartitionerFixedPrefixFactory::SstPartitionerFixedPrefixFactory(size_t len) : len_(len) {}

std::unique_ptr<SstPartitioner> SstPartitionerFixedPrefixFactory::CreatePartitioner(
    const SstPartitioner::Context& /*context*/) const {
  return std::make_unique<SstPartitionerFixedPrefix>(len_);
}

std::shared_ptr<SstPartitionerFactory> NewSstPartitionerFixedPrefixFactory(size_t prefix_len) {
  return std::make_shared<SstPartitionerFixedPrefixFactory>(prefix_len);
}

Status SstPartitionerFactory::CreateFromString(const ConfigOptions& options,
                                               const std::string& value,
                                               std::shared_ptr<SstPartitionerFactory>* result) {
  if (value.empty() || value == "nullptr") {
    result->reset();
    return Status::OK();
  }
  ::strata::ColumnFamilyOptions parsed;
  Status s = ::strata::GetColumnFamilyOptionsFromString(
      ToStrataConfig(options), ::strata::ColumnFamilyOptions(),
      OptionText("sst_partitioner_factory", value), &parsed);
  if (!s.ok()) return s;
  if (parsed.sst_partitioner_factory == nullptr) {
    return Status::NotSupported("SstPartitionerFactory::CreateFromString: unknown factory " +
                                value);
  }
  *result = compat::FromStrataSstPartitionerFactory(parsed.sst_partitioner_factory, nullptr);
  return Status::OK();
}

// ---- ConcurrentTaskLimiter ----

ConcurrentTaskLimiter* NewConcurrentTaskLimiter(const std::string& name, int32_t limit) {
  return ::strata::NewConcurrentTaskLimiter(name, limit).release();
}

// ---- FlushBlockPolicy ----

FlushBlockBySizePolicyFactory::FlushBlockBySizePolicyFactory() = default;

FlushBlockPolicy* FlushBlockBySizePolicyFactory::NewFlushBlockPolicy(
    const BlockBasedTableOptions& table_options, const BlockBuilder& data_block_builder) const {
  return NewFlushBlockPolicy(table_options.block_size, table_options.block_size_deviation,
                             data_block_builder);
}

FlushBlockPolicy* FlushBlockBySizePolicyFactory::NewFlushBlockPolicy(
    const uint64_t size, const int deviation, const BlockBuilder& data_block_builder) {
  return new StrataPolicy(::strata::FlushBlockBySizePolicyFactory::NewFlushBlockPolicy(
      static_cast<size_t>(size), deviation, data_block_builder.view()));
}

Status FlushBlockPolicyFactory::CreateFromString(const ConfigOptions& config_options,
                                                 const std::string& value,
                                                 std::shared_ptr<FlushBlockPolicyFactory>* result) {
  std::string id = value;
  if (!id.empty() && (id.front() == '{' || id.find('=') != std::string::npos)) {
    std::unordered_map<std::string, std::string> fields;
    std::string inner = id.front() == '{' && id.back() == '}' ? id.substr(1, id.size() - 2) : id;
    Status s = ::strata::StringToMap(inner, &fields);
    if (!s.ok()) return s;
    id = fields["id"];
  }
  if (id.empty() || id == "nullptr" || id == FlushBlockBySizePolicyFactory::kClassName()) {
    // RocksDB's default object (an empty value gives it too).
    *result = std::make_shared<FlushBlockBySizePolicyFactory>();
  } else if (id == ::strata::FlushBlockEveryKeyPolicyFactory::kClassName()) {
    *result = std::make_shared<EveryKeyFactory>();
  } else if (config_options.ignore_unknown_options) {
    return Status::OK();
  } else {
    return Status::NotSupported("FlushBlockPolicyFactory::CreateFromString: unknown factory " +
                                value);
  }
  return Status::OK();
}

namespace compat {

std::shared_ptr<::strata::FlushBlockPolicyFactory> ToStrataFlushBlockPolicyFactory(
    const BlockBasedTableOptions& table_options) {
  const std::shared_ptr<FlushBlockPolicyFactory>& f = table_options.flush_block_policy_factory;
  if (f == nullptr || TypeOf(f) == typeid(FlushBlockBySizePolicyFactory)) return nullptr;
  if (TypeOf(f) == typeid(EveryKeyFactory)) {
    return std::make_shared<::strata::FlushBlockEveryKeyPolicyFactory>();
  }
  return std::make_shared<FactoryAdapter>(table_options);
}

std::shared_ptr<FlushBlockPolicyFactory> FromStrataFlushBlockPolicyFactory(
    const std::shared_ptr<::strata::FlushBlockPolicyFactory>& in,
    const std::shared_ptr<FlushBlockPolicyFactory>& prev) {
  if (in == nullptr) {
    // The size policy: prev if it is one (RocksDB's default object), else
    // RocksDB's null default.
    if (prev != nullptr && TypeOf(prev) == typeid(FlushBlockBySizePolicyFactory)) return prev;
    return nullptr;
  }
  if (const auto* a = dynamic_cast<const FactoryAdapter*>(in.get())) return a->factory();
  if (dynamic_cast<const ::strata::FlushBlockEveryKeyPolicyFactory*>(in.get()) != nullptr) {
    if (prev != nullptr && TypeOf(prev) == typeid(EveryKeyFactory)) return prev;
    return std::make_shared<EveryKeyFactory>();
  }
  if (dynamic_cast<const ::strata::FlushBlockBySizePolicyFactory*>(in.get()) != nullptr) {
    return std::make_shared<FlushBlockBySizePolicyFactory>();
  }
  return prev;  // a Strata-only factory has no RocksDB form
}

std::shared_ptr<::strata::SstPartitionerFactory> ToStrataSstPartitionerFactory(
    const std::shared_ptr<SstPartitionerFactory>& in) {
  if (in == nullptr) return nullptr;
  // Strata's own fixed-prefix factory, so the OPTIONS file records the
  // length as RocksDB does.
  if (TypeOf(in) == typeid(SstPartitionerFixedPrefixFactory)) {
    return ::strata::NewSstPartitionerFixedPrefixFactory(
        static_cast<const SstPartitionerFixedPrefixFactory&>(*in).prefix_len());
  }
  return in;
}

std::shared_ptr<SstPartitionerFactory> FromStrataSstPartitionerFactory(
    const std::shared_ptr<::strata::SstPartitionerFactory>& in,
    const std::shared_ptr<SstPartitionerFactory>& prev) {
  if (in == nullptr) return nullptr;
  if (auto mine = std::dynamic_pointer_cast<SstPartitionerFactory>(in)) return mine;
  if (const auto* fixed =
          dynamic_cast<const ::strata::SstPartitionerFixedPrefixFactory*>(in.get())) {
    if (prev != nullptr && TypeOf(prev) == typeid(SstPartitionerFixedPrefixFactory) &&
        static_cast<const SstPartitionerFixedPrefixFactory&>(*prev).prefix_len() ==
            fixed->prefix_len()) {
      return prev;
    }
    return std::make_shared<SstPartitionerFixedPrefixFactory>(fixed->prefix_len());
  }
  return prev;  // a Strata-only factory has no RocksDB form
}

}  // namespace compat
}  // namespace rocksdb
