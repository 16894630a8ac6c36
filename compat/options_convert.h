// compat/options_convert.h: converts RocksDB 7.8.3's option structs (the
// ones in compat/include/rocksdb/) to Strata's, field by field. Every field
// is converted, accepted as advisory (listed in the headers' comments), or
// refused: when set to anything but RocksDB's default, the conversion
// returns InvalidArgument naming it as "<Struct>::<field>".
// The reverse direction (ConvertBack*) copies every field Strata has back
// into RocksDB's structs and leaves the fields Strata lacks as they were:
// options parsed from strings and OPTIONS files by Strata reach RocksDB's
// structs that way. For fields Strata has, Convert then ConvertBack is the
// identity (objects compare equal; a table factory is rebuilt).
// Thread-safety: pure functions.
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "rocksdb/options.h"
#include "rocksdb/table.h"
#include "strata/db.h"
#include "strata/flush_block_policy.h"
#include "strata/options.h"
#include "strata/sst_partitioner.h"
#include "strata/status.h"
#include "strata/table.h"

namespace rocksdb {
class DB;
class FlushBlockPolicyFactory;
class SstPartitionerFactory;
struct ColumnFamilyDescriptor;

namespace compat {

// The rocksdb::DB that the listeners of one Open report (set once Open has
// made it; null before).
struct ListenerTarget {
  std::atomic<DB*> db{nullptr};
};

// Each listener of `in` is wrapped for Strata's engine; its callbacks get
// target->db (a fresh, never-set target when none is given).
::strata::Status ConvertDBOptions(const DBOptions& in, ::strata::DBOptions* out,
                                  const std::shared_ptr<ListenerTarget>& target = nullptr);
::strata::Status ConvertCFOptions(const ColumnFamilyOptions& in,
                                  ::strata::ColumnFamilyOptions* out);
::strata::Status ConvertOptions(const Options& in, ::strata::Options* out);
::strata::Status ConvertTableOptions(const BlockBasedTableOptions& in,
                                     ::strata::BlockBasedTableOptions* out);
::strata::Status ConvertReadOptions(const ReadOptions& in, ::strata::ReadOptions* out);
::strata::Status ConvertWriteOptions(const WriteOptions& in, ::strata::WriteOptions* out);
::strata::Status ConvertCompactRangeOptions(const CompactRangeOptions& in,
                                            ::strata::CompactRangeOptions* out);
::strata::Status ConvertIngestOptions(const IngestExternalFileOptions& in,
                                      ::strata::IngestExternalFileOptions* out);
::strata::CompressionOptions ConvertCompressionOptions(const CompressionOptions& in);
// The options of an Open with column families: the DB's, then each
// family's (which also takes db_options.max_subcompactions, a DB option in
// RocksDB and a family option in Strata).
::strata::Status ConvertForOpen(const DBOptions& db_options,
                                const std::vector<ColumnFamilyDescriptor>& column_families,
                                const std::shared_ptr<ListenerTarget>& listener_target,
                                ::strata::DBOptions* sdb,
                                std::vector<::strata::ColumnFamilyDescriptor>* scfs);

void ConvertBackDBOptions(const ::strata::DBOptions& in, DBOptions* out);
// prev: the factory `out` held before (its filter policy object is reused
// when the Strata policy underneath is the same); may be null.
void ConvertBackTableOptions(const ::strata::BlockBasedTableOptions& in,
                             const BlockBasedTableOptions* prev, BlockBasedTableOptions* out);
void ConvertBackCFOptions(const ::strata::ColumnFamilyOptions& in, ColumnFamilyOptions* out);
void ConvertBackOptions(const ::strata::Options& in, Options* out);

// The pluggable objects of compat/compaction_hooks.cc. ToStrata*: the
// engine's object for RocksDB's (null for null; the size policy is Strata's
// default, null). FromStrata*: RocksDB's object for the engine's, reusing
// prev (the object the RocksDB struct held) when it is the same one.
std::shared_ptr<::strata::FlushBlockPolicyFactory> ToStrataFlushBlockPolicyFactory(
    const BlockBasedTableOptions& table_options);
std::shared_ptr<FlushBlockPolicyFactory> FromStrataFlushBlockPolicyFactory(
    const std::shared_ptr<::strata::FlushBlockPolicyFactory>& in,
    const std::shared_ptr<FlushBlockPolicyFactory>& prev);
std::shared_ptr<::strata::SstPartitionerFactory> ToStrataSstPartitionerFactory(
    const std::shared_ptr<SstPartitionerFactory>& in);
std::shared_ptr<SstPartitionerFactory> FromStrataSstPartitionerFactory(
    const std::shared_ptr<::strata::SstPartitionerFactory>& in,
    const std::shared_ptr<SstPartitionerFactory>& prev);

}  // namespace compat
}  // namespace rocksdb
