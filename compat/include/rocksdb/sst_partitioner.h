// rocksdb/sst_partitioner.h: RocksDB 7.8.3's SST partitioner interface over
// Strata's (include/strata/sst_partitioner.h). The result enum, request,
// partitioner and fixed-prefix partitioner are Strata's types; the factory
// classes are RocksDB's, derived from Strata's factory, so a program's own
// factory is called by the engine directly. A fixed-prefix factory is
// written to the OPTIONS file as RocksDB writes it
// ({id=SstPartitionerFixedPrefixFactory;length=N;}). SstPartitionerFactory
// is not a Customizable here: Name(), Type() and CreateFromString are
// offered, Customizable's other methods are not.
// Thread-safety: factories are thread-safe; a partitioner is used by one
// compaction thread.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "strata/sst_partitioner.h"

namespace rocksdb {

struct ConfigOptions;  // rocksdb/convenience.h

using PartitionerResult = ::strata::PartitionerResult;
using ::strata::kNotRequired;
using ::strata::kRequired;
using PartitionerRequest = ::strata::PartitionerRequest;
using SstPartitioner = ::strata::SstPartitioner;
using SstPartitionerFixedPrefix = ::strata::SstPartitionerFixedPrefix;

class SstPartitionerFactory : public ::strata::SstPartitionerFactory {
 public:
  ~SstPartitionerFactory() override {}
  static const char* Type() { return "SstPartitionerFactory"; }
  // "SstPartitionerFixedPrefixFactory" (length 0),
  // "{id=SstPartitionerFixedPrefixFactory;length=N}", or "nullptr" / ""
  // (result reset). Another id: InvalidArgument (NotFound-free: RocksDB's
  // object registry is not offered).
  static Status CreateFromString(const ConfigOptions& options, const std::string& value,
                                 std::shared_ptr<SstPartitionerFactory>* result);

  std::unique_ptr<SstPartitioner> CreatePartitioner(
      const SstPartitioner::Context& context) const override = 0;
  const char* Name() const override = 0;
};

class SstPartitionerFixedPrefixFactory : public SstPartitionerFactory {
 public:
  explicit SstPartitionerFixedPrefixFactory(size_t len);
  ~SstPartitionerFixedPrefixFactory() override {}

  static const char* kClassName() { return "SstPartitionerFixedPrefixFactory"; }
  const char* Name() const override { return kClassName(); }
  std::unique_ptr<SstPartitioner> CreatePartitioner(
      const SstPartitioner::Context& context) const override;
  // Strata's addition: the prefix length (Open converts the factory to
  // Strata's own so the OPTIONS file records it).
  size_t prefix_len() const { return len_; }

 private:
  size_t len_;
};

extern std::shared_ptr<SstPartitionerFactory> NewSstPartitionerFixedPrefixFactory(
    size_t prefix_len);

}  // namespace rocksdb
