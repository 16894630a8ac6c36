// compat/misc.cc: the small pieces of the RocksDB interface: filter policy
// and table factory holders, the SST file manager factory, the version
// strings, ManagedSnapshot and the property names of
// DB::Properties.
#include <memory>
#include <string>

#include "compat/env_internal.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/rate_limiter.h"
#include "rocksdb/snapshot.h"
#include "rocksdb/sst_file_manager.h"
#include "rocksdb/table.h"
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

const FilterPolicy* NewBloomFilterPolicy(double bits_per_key, bool /*use_block_based_builder*/) {
  return new FilterPolicy(::strata::NewBloomFilterPolicy(bits_per_key));
}

const FilterPolicy* NewRibbonFilterPolicy(double bloom_equivalent_bits_per_key,
                                          int bloom_before_level) {
  return new FilterPolicy(
      ::strata::NewRibbonFilterPolicy(bloom_equivalent_bits_per_key, bloom_before_level));
}

TableFactory::~TableFactory() = default;

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
