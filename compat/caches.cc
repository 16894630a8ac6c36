// RocksDB 7.8.3's cache and memory headers over Strata: memory_allocator.h,
// secondary_cache.h (and cache.h's compressed secondary cache),
// persistent_cache.h, utilities/sim_cache.h, utilities/cache_dump_load.h.
// What each backs and refuses is written at the top of its header.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <utility>

#include "rocksdb/cache.h"
#include "rocksdb/convenience.h"
#include "rocksdb/env.h"
#include "rocksdb/memory_allocator.h"
#include "rocksdb/persistent_cache.h"
#include "rocksdb/secondary_cache.h"
#include "rocksdb/utilities/cache_dump_load.h"
#include "rocksdb/utilities/sim_cache.h"

namespace rocksdb {

namespace {

// An object's individual id, as Customizable's: its name and address.
std::string IndividualId(const char* name, const void* object) {
  char addr[32];
  std::snprintf(addr, sizeof(addr), "@%p", object);
  return std::string(name) + addr;
}

Status NotSupportedCall(const std::string& call) {
  return Status::NotSupported(call + " is not supported by Strata");
}

// RocksDB's "DefaultMemoryAllocator": the C heap.
class DefaultMemoryAllocator : public MemoryAllocator {
 public:
  const char* Name() const override { return "DefaultMemoryAllocator"; }
  void* Allocate(size_t size) override { return std::malloc(size == 0 ? 1 : size); }
  void Deallocate(void* p) override { std::free(p); }
};

}  // namespace

// ---- memory_allocator.h ----

Status MemoryAllocator::CreateFromString(const ConfigOptions& /*options*/, const std::string& value,
                                         std::shared_ptr<MemoryAllocator>* result) {
  if (value.empty() || value == "nullptr") {
    result->reset();
    return Status::OK();
  }
  if (value == "DefaultMemoryAllocator" || value == "id=DefaultMemoryAllocator") {
    *result = std::make_shared<DefaultMemoryAllocator>();
    return Status::OK();
  }
  return Status::NotSupported("MemoryAllocator " + value + " is not supported by Strata");
}

std::string MemoryAllocator::GetId() const { return IndividualId(Name(), this); }

Status NewJemallocNodumpAllocator(JemallocAllocatorOptions& /*options*/,
                                  std::shared_ptr<MemoryAllocator>* /*memory_allocator*/) {
  return Status::NotSupported(
      "NewJemallocNodumpAllocator is not supported by Strata: it is not built with jemalloc");
}

// ---- secondary_cache.h, cache.h ----

Status SecondaryCache::CreateFromString(const ConfigOptions& /*config_options*/,
                                        const std::string& id,
                                        std::shared_ptr<SecondaryCache>* result) {
  if (id.empty() || id == "nullptr") {
    result->reset();
    return Status::OK();
  }
  return Status::NotSupported("SecondaryCache " + id +
                              " is not supported by Strata: its block cache has no secondary tier");
}

std::string SecondaryCache::GetId() const { return IndividualId(Name(), this); }

std::shared_ptr<SecondaryCache> NewCompressedSecondaryCache(
    size_t /*capacity*/, int /*num_shard_bits*/, bool /*strict_capacity_limit*/,
    double /*high_pri_pool_ratio*/, double /*low_pri_pool_ratio*/,
    std::shared_ptr<MemoryAllocator> /*memory_allocator*/, bool /*use_adaptive_mutex*/,
    CacheMetadataChargePolicy /*metadata_charge_policy*/, CompressionType /*compression_type*/,
    uint32_t /*compress_format_version*/, bool /*enable_custom_split_merge*/) {
  return nullptr;
}

std::shared_ptr<SecondaryCache> NewCompressedSecondaryCache(
    const CompressedSecondaryCacheOptions& /*opts*/) {
  return nullptr;
}

// ---- persistent_cache.h ----

Status NewPersistentCache(Env* const /*env*/, const std::string& /*path*/, const uint64_t /*size*/,
                          const std::shared_ptr<Logger>& /*log*/, const bool /*optimized_for_nvm*/,
                          std::shared_ptr<PersistentCache>* /*cache*/) {
  return NotSupportedCall("NewPersistentCache");
}

// ---- utilities/cache_dump_load.h ----

IOStatus NewToFileCacheDumpWriter(const std::shared_ptr<FileSystem>& /*fs*/,
                                  const FileOptions& /*file_opts*/,
                                  const std::string& /*file_name*/,
                                  std::unique_ptr<CacheDumpWriter>* /*writer*/) {
  return NotSupportedCall("NewToFileCacheDumpWriter");
}

IOStatus NewFromFileCacheDumpReader(const std::shared_ptr<FileSystem>& /*fs*/,
                                    const FileOptions& /*file_opts*/,
                                    const std::string& /*file_name*/,
                                    std::unique_ptr<CacheDumpReader>* /*reader*/) {
  return NotSupportedCall("NewFromFileCacheDumpReader");
}

Status NewDefaultCacheDumper(const CacheDumpOptions& /*dump_options*/,
                             const std::shared_ptr<Cache>& /*cache*/,
                             std::unique_ptr<CacheDumpWriter>&& /*writer*/,
                             std::unique_ptr<CacheDumper>* /*cache_dumper*/) {
  return NotSupportedCall("NewDefaultCacheDumper");
}

Status NewDefaultCacheDumpedLoader(const CacheDumpOptions& /*dump_options*/,
                                   const BlockBasedTableOptions& /*toptions*/,
                                   const std::shared_ptr<SecondaryCache>& /*secondary_cache*/,
                                   std::unique_ptr<CacheDumpReader>&& /*reader*/,
                                   std::unique_ptr<CacheDumpedLoader>* /*cache_dump_loader*/) {
  return NotSupportedCall("NewDefaultCacheDumpedLoader");
}

// ---- utilities/sim_cache.h ----

namespace {

// Writes the SimCache's activity lines to a file until stopped, full or
// failed. Thread-safe: every member is guarded by mu_ except enabled_, read
// without the lock to skip the common not-logging case (relaxed is enough: a
// line racing with Start/Stop may be logged or not).
class ActivityLogger {
 public:
  ~ActivityLogger() {
    std::lock_guard<std::mutex> l(mu_);
    StopLocked();
  }

  Status Start(const std::string& path, Env* env, uint64_t max_size) {
    if (path.empty() || env == nullptr) {
      return Status::InvalidArgument("SimCache::StartActivityLogging: no file or no Env");
    }
    std::lock_guard<std::mutex> l(mu_);
    StopLocked();
    std::unique_ptr<WritableFile> file;
    Status s = env->NewWritableFile(path, &file, EnvOptions());
    if (!s.ok()) return s;
    file_ = std::move(file);
    written_ = 0;
    max_size_ = max_size;
    enabled_.store(true, std::memory_order_relaxed);
    return Status::OK();
  }

  void Stop() {
    std::lock_guard<std::mutex> l(mu_);
    StopLocked();
  }

  bool enabled() const { return enabled_.load(std::memory_order_relaxed); }

  void Report(const std::string& line) {
    std::lock_guard<std::mutex> l(mu_);
    if (file_ == nullptr) return;
    Status s = file_->Append(line);
    written_ += line.size();
    if (!s.ok() && status_.ok()) status_ = s;
    if (!status_.ok() || (max_size_ > 0 && written_ >= max_size_)) StopLocked();
  }

  Status status() {
    std::lock_guard<std::mutex> l(mu_);
    return status_;
  }

 private:
  void StopLocked() {
    if (file_ == nullptr) return;
    enabled_.store(false, std::memory_order_relaxed);
    Status s = file_->Close();
    if (!s.ok() && status_.ok()) status_ = s;
    file_.reset();
  }

  std::atomic<bool> enabled_{false};
  std::mutex mu_;
  std::unique_ptr<WritableFile> file_;
  uint64_t written_ = 0;
  uint64_t max_size_ = 0;
  Status status_;
};

void NoopDeleter(const Slice& /*key*/, void* /*value*/) {}

class SimCacheImpl final : public SimCache {
 public:
  SimCacheImpl(std::shared_ptr<Cache> key_only, std::shared_ptr<Cache> cache)
      : cache_(std::move(cache)), key_only_(std::move(key_only)) {}

  Status Insert(const Slice& key, void* value, size_t charge, Deleter deleter,
                Handle** handle = nullptr, Priority priority = Priority::kLow) override {
    Handle* h = key_only_->Lookup(key);
    if (h == nullptr) {
      // A key-only entry: no value, nothing to free. Its status does not
      // matter (a full strict cache just does not simulate the entry).
      key_only_->Insert(key, nullptr, charge, &NoopDeleter, nullptr, priority)
          .PermitUncheckedError();
    } else {
      key_only_->Release(h);
    }
    if (logger_->enabled()) {
      logger_->Report("ADD - " + key.ToString(true) + " - " + std::to_string(charge) + "\n");
    }
    if (cache_ == nullptr) {
      // Nothing keeps the value: freed now, as by a cache with no room.
      if (deleter != nullptr) deleter(key, value);
      if (handle != nullptr) {
        *handle = nullptr;
        return Status::Incomplete("SimCache has no cache to insert into");
      }
      return Status::OK();
    }
    return cache_->Insert(key, value, charge, deleter, handle, priority);
  }

  using Cache::Insert;
  using Cache::Lookup;
  using Cache::Release;

  Handle* Lookup(const Slice& key, Statistics* /*stats*/ = nullptr) override {
    Handle* h = key_only_->Lookup(key);
    if (h != nullptr) {
      key_only_->Release(h);
      hits_.fetch_add(1, std::memory_order_relaxed);
    } else {
      misses_.fetch_add(1, std::memory_order_relaxed);
    }
    if (logger_->enabled()) logger_->Report("LOOKUP - " + key.ToString(true) + "\n");
    return cache_ == nullptr ? nullptr : cache_->Lookup(key);
  }

  bool Release(Handle* handle, bool erase_if_last_ref = false) override {
    return cache_->Release(handle, erase_if_last_ref);
  }
  // Handles are the wrapped cache's (a SimCache without one hands out none).
  bool Ref(Handle* handle) override { return cache_->Ref(handle); }
  size_t GetCharge(Handle* handle) const override { return cache_->GetCharge(handle); }
  DeleterFn GetDeleter(Handle* handle) const override { return cache_->GetDeleter(handle); }
  size_t GetOccupancyCount() const override {
    return cache_ != nullptr ? cache_->GetOccupancyCount() : 0;
  }
  size_t GetTableAddressCount() const override {
    return cache_ != nullptr ? cache_->GetTableAddressCount() : 0;
  }
  void ApplyToAllEntries(const std::function<void(const Slice& key, void* value, size_t charge,
                                                  DeleterFn deleter)>& callback,
                         const ApplyToAllEntriesOptions& opts) override {
    if (cache_ != nullptr) cache_->ApplyToAllEntries(callback, opts);
  }
  std::string GetPrintableOptions() const override {
    return cache_ != nullptr ? cache_->GetPrintableOptions() : std::string();
  }
  void* Value(Handle* handle) override { return cache_->Value(handle); }
  void Erase(const Slice& key) override {
    if (cache_ != nullptr) cache_->Erase(key);
    key_only_->Erase(key);
  }
  uint64_t NewId() override {
    return cache_ != nullptr ? cache_->NewId() : next_id_.fetch_add(1) + 1;
  }
  void SetCapacity(size_t capacity) override {
    if (cache_ != nullptr) cache_->SetCapacity(capacity);
  }
  size_t GetCapacity() const override { return cache_ != nullptr ? cache_->GetCapacity() : 0; }
  size_t GetUsage() const override { return cache_ != nullptr ? cache_->GetUsage() : 0; }
  size_t GetPinnedUsage() const override {
    return cache_ != nullptr ? cache_->GetPinnedUsage() : 0;
  }
  void SetStrictCapacityLimit(bool strict_capacity_limit) override {
    if (cache_ != nullptr) cache_->SetStrictCapacityLimit(strict_capacity_limit);
  }
  bool HasStrictCapacityLimit() const override {
    return cache_ != nullptr && cache_->HasStrictCapacityLimit();
  }
  void EraseUnRefEntries() override {
    if (cache_ != nullptr) cache_->EraseUnRefEntries();
    key_only_->EraseUnRefEntries();
  }
  CacheStats GetStats() const override {
    return cache_ != nullptr ? cache_->GetStats() : CacheStats();
  }

  size_t GetSimCapacity() const override { return key_only_->GetCapacity(); }
  size_t GetSimUsage() const override { return key_only_->GetUsage(); }
  void SetSimCapacity(size_t capacity) override { key_only_->SetCapacity(capacity); }
  uint64_t get_miss_counter() const override { return misses_.load(std::memory_order_relaxed); }
  uint64_t get_hit_counter() const override { return hits_.load(std::memory_order_relaxed); }
  void reset_counter() override {
    misses_.store(0, std::memory_order_relaxed);
    hits_.store(0, std::memory_order_relaxed);
  }
  std::string ToString() const override {
    const uint64_t misses = get_miss_counter();
    const uint64_t hits = get_hit_counter();
    const uint64_t lookups = hits + misses;
    std::ostringstream out;
    out << "SimCache MISSes:  " << misses << "\n";
    out << "SimCache HITs:    " << hits << "\n";
    out << "SimCache HITRATE: " << std::fixed << std::setprecision(2)
        << (lookups == 0 ? 0.0f : static_cast<float>(hits) * 100.0f / static_cast<float>(lookups))
        << "\n";
    return out.str();
  }

  Status StartActivityLogging(const std::string& activity_log_file, Env* env,
                              uint64_t max_logging_size = 0) override {
    return logger_->Start(activity_log_file, env, max_logging_size);
  }
  void StopActivityLogging() override { logger_->Stop(); }
  Status GetActivityLoggingStatus() override { return logger_->status(); }

 private:
  // Immutable after construction.
  const std::shared_ptr<Cache> cache_;  // may be null
  const std::shared_ptr<Cache> key_only_;
  const std::unique_ptr<ActivityLogger> logger_ = std::make_unique<ActivityLogger>();

  // Atomics (relaxed: counters, read for reporting only).
  std::atomic<uint64_t> hits_{0};
  std::atomic<uint64_t> misses_{0};
  std::atomic<uint64_t> next_id_{0};
};

}  // namespace

std::shared_ptr<SimCache> NewSimCache(std::shared_ptr<Cache> cache, size_t sim_capacity,
                                      int num_shard_bits) {
  LRUCacheOptions co;
  co.capacity = sim_capacity;
  co.num_shard_bits = num_shard_bits;
  co.metadata_charge_policy = kDontChargeCacheMetadata;
  std::shared_ptr<Cache> key_only = NewLRUCache(co);
  if (key_only == nullptr) return nullptr;
  return NewSimCache(std::move(key_only), std::move(cache), num_shard_bits);
}

std::shared_ptr<SimCache> NewSimCache(std::shared_ptr<Cache> sim_cache,
                                      std::shared_ptr<Cache> cache, int num_shard_bits) {
  if (num_shard_bits >= 20 || sim_cache == nullptr) return nullptr;
  return std::make_shared<SimCacheImpl>(std::move(sim_cache), std::move(cache));
}

const std::string& BlockCacheEntryStatsMapKeys::CacheId() {
  static const std::string kKey = "id";
  return kKey;
}
const std::string& BlockCacheEntryStatsMapKeys::CacheCapacityBytes() {
  static const std::string kKey = "capacity";
  return kKey;
}
const std::string& BlockCacheEntryStatsMapKeys::LastCollectionDurationSeconds() {
  static const std::string kKey = "secs_for_last_collection";
  return kKey;
}
const std::string& BlockCacheEntryStatsMapKeys::LastCollectionAgeSeconds() {
  static const std::string kKey = "secs_since_last_collection";
  return kKey;
}
std::string BlockCacheEntryStatsMapKeys::EntryCount(CacheEntryRole role) {
  return "count." + GetCacheEntryRoleName(role);
}
std::string BlockCacheEntryStatsMapKeys::UsedBytes(CacheEntryRole role) {
  return "bytes." + GetCacheEntryRoleName(role);
}
std::string BlockCacheEntryStatsMapKeys::UsedPercent(CacheEntryRole role) {
  return "percent." + GetCacheEntryRoleName(role);
}

}  // namespace rocksdb
