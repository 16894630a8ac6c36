// compat/misc.cc: the small pieces of the RocksDB interface: filter policy
// and table factory holders, the SST file manager factory, the version
// strings, ManagedSnapshot and the property names of
// DB::Properties.
#include <memory>
#include <string>
#include <unordered_map>

#include "compat/env_internal.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/rate_limiter.h"
#include "rocksdb/snapshot.h"
#include "rocksdb/sst_file_manager.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "rocksdb/version.h"
#include "strata/env.h"
#include "strata/filter_policy.h"

namespace rocksdb {

FilterPolicy::~FilterPolicy() = default;

const char* FilterPolicy::Name() const {
  return impl_ != nullptr ? impl_->Name() : "rocksdb.compat.UserFilterPolicy";
}

const char* FilterPolicy::CompatibilityName() const {
  return impl_ != nullptr ? impl_->CompatibilityName() : Name();
}

FilterBuildingContext::FilterBuildingContext(const BlockBasedTableOptions& _table_options)
    : table_options(_table_options) {}

FilterBitsBuilder* FilterPolicy::GetBuilderWithContext(const FilterBuildingContext&) const {
  return nullptr;
}

FilterBitsReader* FilterPolicy::GetFilterBitsReader(const Slice& /*contents*/) const {
  return nullptr;
}

Status FilterPolicy::CreateFromString(const ConfigOptions& config_options, const std::string& value,
                                      std::shared_ptr<const FilterPolicy>* result) {
  if (value == "rocksdb.BuiltinBloomFilter") {
    // RocksDB's read-only policy (reads old filters, writes none).
    return Status::InvalidArgument(
        "FilterPolicy::CreateFromString: rocksdb.BuiltinBloomFilter (RocksDB's read-only "
        "policy) is not supported by Strata");
  }
  // Strata's option-string parser knows RocksDB's forms of the built-ins.
  ::strata::ConfigOptions strict = config_options;
  strict.ignore_unknown_options = false;
  ::strata::BlockBasedTableOptions parsed;
  Status s = ::strata::GetBlockBasedTableOptionsFromString(
      strict, ::strata::BlockBasedTableOptions(), "filter_policy=" + value, &parsed);
  if (!s.ok()) {
    if (config_options.ignore_unsupported_options) return Status::OK();
    return Status::NotSupported("Could not load FilterPolicy", value);
  }
  if (parsed.filter_policy == nullptr) {
    result->reset();
  } else {
    *result = std::make_shared<FilterPolicy>(parsed.filter_policy);
  }
  return Status::OK();
}

const FilterPolicy* NewBloomFilterPolicy(double bits_per_key, bool /*use_block_based_builder*/) {
  return new FilterPolicy(::strata::NewBloomFilterPolicy(bits_per_key));
}

const FilterPolicy* NewRibbonFilterPolicy(double bloom_equivalent_bits_per_key,
                                          int bloom_before_level) {
  return new FilterPolicy(
      ::strata::NewRibbonFilterPolicy(bloom_equivalent_bits_per_key, bloom_before_level));
}

TableFactory::~TableFactory() = default;

Status TableFactory::NewTableReader(const TableReaderOptions& table_reader_options,
                                    std::unique_ptr<RandomAccessFileReader>&& file,
                                    uint64_t file_size, std::unique_ptr<TableReader>* table_reader,
                                    bool prefetch_index_and_filter_in_cache) const {
  return NewTableReader(ReadOptions(), table_reader_options, std::move(file), file_size,
                        table_reader, prefetch_index_and_filter_in_cache);
}

Status TableFactory::NewTableReader(const ReadOptions& /*ro*/,
                                    const TableReaderOptions& /*table_reader_options*/,
                                    std::unique_ptr<RandomAccessFileReader>&& /*file*/,
                                    uint64_t /*file_size*/,
                                    std::unique_ptr<TableReader>* /*table_reader*/,
                                    bool /*prefetch_index_and_filter_in_cache*/) const {
  return Status::NotSupported(
      "TableFactory::NewTableReader is not supported by Strata: its table readers are internal "
      "(use SstFileReader)");
}

TableBuilder* TableFactory::NewTableBuilder(const TableBuilderOptions& /*table_builder_options*/,
                                            WritableFileWriter* /*file*/) const {
  return nullptr;  // Strata's table builders are internal (use SstFileWriter)
}

Status TableFactory::CreateFromString(const ConfigOptions& config_options, const std::string& id,
                                      std::shared_ptr<TableFactory>* factory) {
  std::string name = id;
  std::string rest;
  if (id.find('=') != std::string::npos) {
    // "id=BlockBasedTable;block_size=8192;...": the id, then the options.
    std::unordered_map<std::string, std::string> fields;
    Status s = StringToMap(id, &fields);
    if (!s.ok()) return s;
    name = fields["id"];
    fields.erase("id");
    for (const auto& [k, v] : fields) rest += k + "=" + v + ";";
  }
  if (name == kBlockBasedTableName()) {
    BlockBasedTableOptions options;
    if (!rest.empty()) {
      Status s = GetBlockBasedTableOptionsFromString(config_options, options, rest, &options);
      if (!s.ok()) return s;
    }
    factory->reset(NewBlockBasedTableFactory(options));
  } else if (name == kPlainTableName() && rest.empty()) {
    factory->reset(NewPlainTableFactory());
  } else if (name == kCuckooTableName() && rest.empty()) {
    factory->reset(NewCuckooTableFactory());
  } else if (name.empty() && rest.empty()) {
    factory->reset();
  } else if (!config_options.ignore_unsupported_options) {
    return Status::NotSupported("Could not load TableFactory", name);
  }
  return Status::OK();
}

const std::string BlockBasedTablePropertyNames::kIndexType = "rocksdb.block.based.table.index.type";
const std::string BlockBasedTablePropertyNames::kWholeKeyFiltering =
    "rocksdb.block.based.table.whole.key.filtering";
const std::string BlockBasedTablePropertyNames::kPrefixFiltering =
    "rocksdb.block.based.table.prefix.filtering";

const std::string PlainTablePropertyNames::kEncodingType = "rocksdb.plain.table.encoding.type";
const std::string PlainTablePropertyNames::kBloomVersion = "rocksdb.plain.table.bloom.version";
const std::string PlainTablePropertyNames::kNumBloomBlocks = "rocksdb.plain.table.bloom.numblocks";

const std::string CuckooTablePropertyNames::kEmptyKey = "rocksdb.cuckoo.bucket.empty.key";
const std::string CuckooTablePropertyNames::kNumHashFunc = "rocksdb.cuckoo.hash.num";
const std::string CuckooTablePropertyNames::kHashTableSize = "rocksdb.cuckoo.hash.size";
const std::string CuckooTablePropertyNames::kValueLength = "rocksdb.cuckoo.value.length";
const std::string CuckooTablePropertyNames::kIsLastLevel = "rocksdb.cuckoo.file.islastlevel";
const std::string CuckooTablePropertyNames::kCuckooBlockSize =
    "rocksdb.cuckoo.hash.cuckooblocksize";
const std::string CuckooTablePropertyNames::kIdentityAsFirstHash =
    "rocksdb.cuckoo.hash.identityfirst";
const std::string CuckooTablePropertyNames::kUseModuleHash = "rocksdb.cuckoo.hash.usemodule";
const std::string CuckooTablePropertyNames::kUserKeyLength = "rocksdb.cuckoo.hash.userkeylength";

// The properties block's names (the same strings table/meta_blocks.cc
// writes).
const std::string TablePropertiesNames::kDbId = "rocksdb.creating.db.identity";
const std::string TablePropertiesNames::kDbSessionId = "rocksdb.creating.session.identity";
const std::string TablePropertiesNames::kDbHostId = "rocksdb.creating.host.identity";
const std::string TablePropertiesNames::kOriginalFileNumber = "rocksdb.original.file.number";
const std::string TablePropertiesNames::kDataSize = "rocksdb.data.size";
const std::string TablePropertiesNames::kIndexSize = "rocksdb.index.size";
const std::string TablePropertiesNames::kIndexPartitions = "rocksdb.index.partitions";
const std::string TablePropertiesNames::kTopLevelIndexSize = "rocksdb.top-level.index.size";
const std::string TablePropertiesNames::kIndexKeyIsUserKey = "rocksdb.index.key.is.user.key";
const std::string TablePropertiesNames::kIndexValueIsDeltaEncoded =
    "rocksdb.index.value.is.delta.encoded";
const std::string TablePropertiesNames::kFilterSize = "rocksdb.filter.size";
const std::string TablePropertiesNames::kRawKeySize = "rocksdb.raw.key.size";
const std::string TablePropertiesNames::kRawValueSize = "rocksdb.raw.value.size";
const std::string TablePropertiesNames::kNumDataBlocks = "rocksdb.num.data.blocks";
const std::string TablePropertiesNames::kNumEntries = "rocksdb.num.entries";
const std::string TablePropertiesNames::kNumFilterEntries = "rocksdb.num.filter_entries";
const std::string TablePropertiesNames::kDeletedKeys = "rocksdb.deleted.keys";
const std::string TablePropertiesNames::kMergeOperands = "rocksdb.merge.operands";
const std::string TablePropertiesNames::kNumRangeDeletions = "rocksdb.num.range-deletions";
const std::string TablePropertiesNames::kFilterPolicy = "rocksdb.filter.policy";
const std::string TablePropertiesNames::kFormatVersion = "rocksdb.format.version";
const std::string TablePropertiesNames::kFixedKeyLen = "rocksdb.fixed.key.length";
const std::string TablePropertiesNames::kColumnFamilyId = "rocksdb.column.family.id";
const std::string TablePropertiesNames::kColumnFamilyName = "rocksdb.column.family.name";
const std::string TablePropertiesNames::kComparator = "rocksdb.comparator";
const std::string TablePropertiesNames::kMergeOperator = "rocksdb.merge.operator";
const std::string TablePropertiesNames::kPrefixExtractorName = "rocksdb.prefix.extractor.name";
const std::string TablePropertiesNames::kPropertyCollectors = "rocksdb.property.collectors";
const std::string TablePropertiesNames::kCompression = "rocksdb.compression";
const std::string TablePropertiesNames::kCompressionOptions = "rocksdb.compression_options";
const std::string TablePropertiesNames::kCreationTime = "rocksdb.creation.time";
const std::string TablePropertiesNames::kOldestKeyTime = "rocksdb.oldest.key.time";
const std::string TablePropertiesNames::kFileCreationTime = "rocksdb.file.creation.time";
const std::string TablePropertiesNames::kSlowCompressionEstimatedDataSize =
    "rocksdb.sample_for_compression.slow.data.size";
const std::string TablePropertiesNames::kFastCompressionEstimatedDataSize =
    "rocksdb.sample_for_compression.fast.data.size";
const std::string TablePropertiesNames::kSequenceNumberTimeMapping = "rocksdb.seqno.time.map";

SstFileManager* NewSstFileManager(Env* env, std::shared_ptr<FileSystem> fs,
                                  std::shared_ptr<Logger> info_log, const std::string& trash_dir,
                                  int64_t rate_bytes_per_sec, bool delete_existing_trash,
                                  Status* status, double max_trash_db_ratio,
                                  uint64_t bytes_max_delete_chunk) {
  std::shared_ptr<::strata::SstFileManager> impl = ::strata::NewSstFileManager(
      env != nullptr ? env->GetStrataEnv() : ::strata::Env::Default(),
      fs != nullptr ? compat::NewEngineFileSystem(fs) : nullptr, std::move(info_log), trash_dir,
      rate_bytes_per_sec, delete_existing_trash, status, max_trash_db_ratio,
      bytes_max_delete_chunk);
  return impl != nullptr ? new SstFileManager(std::move(impl)) : nullptr;
}

SstFileManager* NewSstFileManager(Env* env, std::shared_ptr<Logger> info_log, std::string trash_dir,
                                  int64_t rate_bytes_per_sec, bool delete_existing_trash,
                                  Status* status, double max_trash_db_ratio,
                                  uint64_t bytes_max_delete_chunk) {
  return ::rocksdb::NewSstFileManager(env, std::shared_ptr<FileSystem>(), std::move(info_log),
                                      trash_dir, rate_bytes_per_sec, delete_existing_trash, status,
                                      max_trash_db_ratio, bytes_max_delete_chunk);
}

TableFactory* NewBlockBasedTableFactory(const BlockBasedTableOptions& table_options) {
  return new TableFactory(table_options);
}

const std::unordered_map<std::string, std::string>& GetRocksBuildProperties() {
  static const std::unordered_map<std::string, std::string> kNone;
  return kNone;
}

std::string GetRocksVersionAsString(bool with_patch) {
  std::string v = std::to_string(ROCKSDB_MAJOR) + "." + std::to_string(ROCKSDB_MINOR);
  if (with_patch) v += "." + std::to_string(ROCKSDB_PATCH);
  return v;
}

std::string GetRocksBuildInfoAsString(const std::string& program, bool /*verbose*/) {
  return program + " (RocksDB) " + GetRocksVersionAsString(true) +
         " interface, implemented by Strata (libstrata-rocksdb)\n";
}

ManagedSnapshot::ManagedSnapshot(DB* db) : db_(db), snapshot_(db->GetSnapshot()) {}

ManagedSnapshot::ManagedSnapshot(DB* db, const Snapshot* snapshot) : db_(db), snapshot_(snapshot) {}

ManagedSnapshot::~ManagedSnapshot() {
  if (snapshot_ != nullptr) db_->ReleaseSnapshot(snapshot_);
}

const Snapshot* ManagedSnapshot::snapshot() { return snapshot_; }

#define COMPAT_PROPERTY(member, text) const std::string DB::Properties::member = "rocksdb." text
COMPAT_PROPERTY(kNumFilesAtLevelPrefix, "num-files-at-level");
COMPAT_PROPERTY(kCompressionRatioAtLevelPrefix, "compression-ratio-at-level");
COMPAT_PROPERTY(kStats, "stats");
COMPAT_PROPERTY(kSSTables, "sstables");
COMPAT_PROPERTY(kCFStats, "cfstats");
COMPAT_PROPERTY(kCFStatsNoFileHistogram, "cfstats-no-file-histogram");
COMPAT_PROPERTY(kCFFileHistogram, "cf-file-histogram");
COMPAT_PROPERTY(kDBStats, "dbstats");
COMPAT_PROPERTY(kLevelStats, "levelstats");
COMPAT_PROPERTY(kBlockCacheEntryStats, "block-cache-entry-stats");
COMPAT_PROPERTY(kNumImmutableMemTable, "num-immutable-mem-table");
COMPAT_PROPERTY(kNumImmutableMemTableFlushed, "num-immutable-mem-table-flushed");
COMPAT_PROPERTY(kMemTableFlushPending, "mem-table-flush-pending");
COMPAT_PROPERTY(kNumRunningFlushes, "num-running-flushes");
COMPAT_PROPERTY(kCompactionPending, "compaction-pending");
COMPAT_PROPERTY(kNumRunningCompactions, "num-running-compactions");
COMPAT_PROPERTY(kBackgroundErrors, "background-errors");
COMPAT_PROPERTY(kCurSizeActiveMemTable, "cur-size-active-mem-table");
COMPAT_PROPERTY(kCurSizeAllMemTables, "cur-size-all-mem-tables");
COMPAT_PROPERTY(kSizeAllMemTables, "size-all-mem-tables");
COMPAT_PROPERTY(kNumEntriesActiveMemTable, "num-entries-active-mem-table");
COMPAT_PROPERTY(kNumEntriesImmMemTables, "num-entries-imm-mem-tables");
COMPAT_PROPERTY(kNumDeletesActiveMemTable, "num-deletes-active-mem-table");
COMPAT_PROPERTY(kNumDeletesImmMemTables, "num-deletes-imm-mem-tables");
COMPAT_PROPERTY(kEstimateNumKeys, "estimate-num-keys");
COMPAT_PROPERTY(kEstimateTableReadersMem, "estimate-table-readers-mem");
COMPAT_PROPERTY(kIsFileDeletionsEnabled, "is-file-deletions-enabled");
COMPAT_PROPERTY(kNumSnapshots, "num-snapshots");
COMPAT_PROPERTY(kOldestSnapshotTime, "oldest-snapshot-time");
COMPAT_PROPERTY(kOldestSnapshotSequence, "oldest-snapshot-sequence");
COMPAT_PROPERTY(kNumLiveVersions, "num-live-versions");
COMPAT_PROPERTY(kCurrentSuperVersionNumber, "current-super-version-number");
COMPAT_PROPERTY(kEstimateLiveDataSize, "estimate-live-data-size");
COMPAT_PROPERTY(kMinLogNumberToKeep, "min-log-number-to-keep");
COMPAT_PROPERTY(kMinObsoleteSstNumberToKeep, "min-obsolete-sst-number-to-keep");
COMPAT_PROPERTY(kTotalSstFilesSize, "total-sst-files-size");
COMPAT_PROPERTY(kLiveSstFilesSize, "live-sst-files-size");
COMPAT_PROPERTY(kBaseLevel, "base-level");
COMPAT_PROPERTY(kEstimatePendingCompactionBytes, "estimate-pending-compaction-bytes");
COMPAT_PROPERTY(kAggregatedTableProperties, "aggregated-table-properties");
COMPAT_PROPERTY(kAggregatedTablePropertiesAtLevel, "aggregated-table-properties-at-level");
COMPAT_PROPERTY(kActualDelayedWriteRate, "actual-delayed-write-rate");
COMPAT_PROPERTY(kIsWriteStopped, "is-write-stopped");
COMPAT_PROPERTY(kEstimateOldestKeyTime, "estimate-oldest-key-time");
COMPAT_PROPERTY(kBlockCacheCapacity, "block-cache-capacity");
COMPAT_PROPERTY(kBlockCacheUsage, "block-cache-usage");
COMPAT_PROPERTY(kBlockCachePinnedUsage, "block-cache-pinned-usage");
COMPAT_PROPERTY(kOptionsStatistics, "options-statistics");
COMPAT_PROPERTY(kFastBlockCacheEntryStats, "fast-block-cache-entry-stats");
COMPAT_PROPERTY(kLiveSstFilesSizeAtTemperature, "live-sst-files-size-at-temperature");
COMPAT_PROPERTY(kNumBlobFiles, "num-blob-files");
COMPAT_PROPERTY(kBlobStats, "blob-stats");
COMPAT_PROPERTY(kTotalBlobFileSize, "total-blob-file-size");
COMPAT_PROPERTY(kLiveBlobFileSize, "live-blob-file-size");
COMPAT_PROPERTY(kLiveBlobFileGarbageSize, "live-blob-file-garbage-size");
COMPAT_PROPERTY(kBlobCacheCapacity, "blob-cache-capacity");
COMPAT_PROPERTY(kBlobCacheUsage, "blob-cache-usage");
COMPAT_PROPERTY(kBlobCachePinnedUsage, "blob-cache-pinned-usage");
#undef COMPAT_PROPERTY

namespace {

// A RateLimiter the caller owns through a raw pointer, over the
// shared_ptr-owned limiter Strata's factory makes: every call forwards.
class OwnedRateLimiter final : public RateLimiter {
 public:
  OwnedRateLimiter(std::shared_ptr<RateLimiter> impl, Mode mode)
      : RateLimiter(mode), impl_(std::move(impl)) {}
  void SetBytesPerSecond(int64_t bytes_per_second) override {
    impl_->SetBytesPerSecond(bytes_per_second);
  }
  void Request(const int64_t bytes, const Env::IOPriority pri, Statistics* stats) override {
    impl_->Request(bytes, pri, stats);
  }
  void Request(const int64_t bytes, const Env::IOPriority pri, Statistics* stats,
               OpType op_type) override {
    impl_->Request(bytes, pri, stats, op_type);
  }
  size_t RequestToken(size_t bytes, size_t alignment, Env::IOPriority io_priority,
                      Statistics* stats, OpType op_type) override {
    return impl_->RequestToken(bytes, alignment, io_priority, stats, op_type);
  }
  int64_t GetSingleBurstBytes() const override { return impl_->GetSingleBurstBytes(); }
  int64_t GetTotalBytesThrough(const Env::IOPriority pri) const override {
    return impl_->GetTotalBytesThrough(pri);
  }
  int64_t GetTotalRequests(const Env::IOPriority pri) const override {
    return impl_->GetTotalRequests(pri);
  }
  Status GetTotalPendingRequests(int64_t* total_pending_requests,
                                 const Env::IOPriority pri) const override {
    return impl_->GetTotalPendingRequests(total_pending_requests, pri);
  }
  int64_t GetBytesPerSecond() const override { return impl_->GetBytesPerSecond(); }
  bool IsRateLimited(OpType op_type) override { return impl_->IsRateLimited(op_type); }

 private:
  std::shared_ptr<RateLimiter> impl_;
};

}  // namespace

RateLimiter* NewGenericRateLimiter(int64_t rate_bytes_per_sec, int64_t refill_period_us,
                                   int32_t fairness, RateLimiter::Mode mode, bool auto_tuned) {
  std::shared_ptr<RateLimiter> impl = ::strata::NewGenericRateLimiter(
      rate_bytes_per_sec, refill_period_us, fairness, mode, auto_tuned);
  if (impl == nullptr) return nullptr;
  return new OwnedRateLimiter(std::move(impl), mode);
}

}  // namespace rocksdb
