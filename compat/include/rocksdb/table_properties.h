// rocksdb/table_properties.h: the properties block of a table file and the
// collectors that add to it. Strata's types are the same types here
// (TableProperties with RocksDB's fields and Add / GetAggregatablePropertiesAsMap
// / ApproximateMemoryUsage; the collector's deprecated Add, called by
// AddUserKey's default; the factory's Type, CreateFromString and
// ToString(ConfigOptions), which knows CompactOnDeletionCollector), as are
// UserCollectedProperties, GetDeletedKeys and GetMergeOperands.
// TablePropertiesNames holds RocksDB's property names.
// Differences: the collector factory is not a Customizable.
// Thread-safety: TableProperties is a plain struct; collectors are used by
// one table builder (one thread) each; factories must be thread-safe.
#pragma once

#include <string>

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/status.h"
#include "rocksdb/types.h"
#include "strata/table_properties.h"

namespace rocksdb {
using UserCollectedProperties = ::strata::UserCollectedProperties;
using TableProperties = ::strata::TableProperties;
using TablePropertiesCollector = ::strata::TablePropertiesCollector;
using TablePropertiesCollectorFactory = ::strata::TablePropertiesCollectorFactory;
using ::strata::GetDeletedKeys;
using ::strata::GetMergeOperands;

// The names under which the properties block stores TableProperties'
// fields (RocksDB's strings, which Strata's files use too).
struct TablePropertiesNames {
  static const std::string kDbId;
  static const std::string kDbSessionId;
  static const std::string kDbHostId;
  static const std::string kOriginalFileNumber;
  static const std::string kDataSize;
  static const std::string kIndexSize;
  static const std::string kIndexPartitions;
  static const std::string kTopLevelIndexSize;
  static const std::string kIndexKeyIsUserKey;
  static const std::string kIndexValueIsDeltaEncoded;
  static const std::string kFilterSize;
  static const std::string kRawKeySize;
  static const std::string kRawValueSize;
  static const std::string kNumDataBlocks;
  static const std::string kNumEntries;
  static const std::string kNumFilterEntries;
  static const std::string kDeletedKeys;
  static const std::string kMergeOperands;
  static const std::string kNumRangeDeletions;
  static const std::string kFormatVersion;
  static const std::string kFixedKeyLen;
  static const std::string kFilterPolicy;
  static const std::string kColumnFamilyName;
  static const std::string kColumnFamilyId;
  static const std::string kComparator;
  static const std::string kMergeOperator;
  static const std::string kPrefixExtractorName;
  static const std::string kPropertyCollectors;
  static const std::string kCompression;
  static const std::string kCompressionOptions;
  static const std::string kCreationTime;
  static const std::string kOldestKeyTime;
  static const std::string kFileCreationTime;
  static const std::string kSlowCompressionEstimatedDataSize;
  static const std::string kFastCompressionEstimatedDataSize;
  static const std::string kSequenceNumberTimeMapping;
};
}  // namespace rocksdb
