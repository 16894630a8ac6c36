// rocksdb/sst_file_manager.h: the space a DB's table files take, a limit on
// it, and paced deletion through a trash (DBOptions::sst_file_manager).
//
// RocksDB's class, with its methods and its raw-pointer factory; each object
// holds one strata::SstFileManager (strata/sst_file_manager.h, RocksDB
// 7.8.3's semantics) and forwards every call to it, and Open hands that one
// to the engine. As in RocksDB the class is not for subclassing: a DB
// opened with an object that is not from NewSstFileManager gets
// InvalidArgument.
// Thread-safety: thread-safe; one manager may serve several DBs.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

#include "rocksdb/env.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/statistics.h"
#include "rocksdb/status.h"
#include "strata/sst_file_manager.h"

namespace rocksdb {

class SstFileManager {
 public:
  // The manager made by NewSstFileManager (or null: refused at Open).
  explicit SstFileManager(std::shared_ptr<::strata::SstFileManager> impl = nullptr)
      : impl_(std::move(impl)) {}
  virtual ~SstFileManager() = default;

  // 0 lifts the limit.
  virtual void SetMaxAllowedSpaceUsage(uint64_t max_allowed_space) {
    impl_->SetMaxAllowedSpaceUsage(max_allowed_space);
  }
  virtual void SetCompactionBufferSize(uint64_t compaction_buffer_size) {
    impl_->SetCompactionBufferSize(compaction_buffer_size);
  }
  virtual bool IsMaxAllowedSpaceReached() { return impl_->IsMaxAllowedSpaceReached(); }
  virtual bool IsMaxAllowedSpaceReachedIncludingCompactions() {
    return impl_->IsMaxAllowedSpaceReachedIncludingCompactions();
  }
  virtual uint64_t GetTotalSize() { return impl_->GetTotalSize(); }
  virtual std::unordered_map<std::string, uint64_t> GetTrackedFiles() {
    return impl_->GetTrackedFiles();
  }
  virtual int64_t GetDeleteRateBytesPerSecond() { return impl_->GetDeleteRateBytesPerSecond(); }
  virtual void SetDeleteRateBytesPerSecond(int64_t delete_rate) {
    impl_->SetDeleteRateBytesPerSecond(delete_rate);
  }
  virtual double GetMaxTrashDBRatio() { return impl_->GetMaxTrashDBRatio(); }
  virtual void SetMaxTrashDBRatio(double ratio) { impl_->SetMaxTrashDBRatio(ratio); }
  virtual uint64_t GetTotalTrashSize() { return impl_->GetTotalTrashSize(); }
  virtual void SetStatisticsPtr(const std::shared_ptr<Statistics>& stats) {
    impl_->SetStatisticsPtr(stats);
  }

  // The Strata manager underneath (null for an object not made by
  // NewSstFileManager).
  const std::shared_ptr<::strata::SstFileManager>& strata_manager() const { return impl_; }

 private:
  std::shared_ptr<::strata::SstFileManager> impl_;
};

// The caller owns the result (put it in a shared_ptr for
// DBOptions::sst_file_manager). Null, with InvalidArgument in *status, for
// a negative max_trash_db_ratio.
SstFileManager* NewSstFileManager(Env* env, std::shared_ptr<FileSystem> fs,
                                  std::shared_ptr<Logger> info_log = nullptr,
                                  const std::string& trash_dir = "", int64_t rate_bytes_per_sec = 0,
                                  bool delete_existing_trash = true, Status* status = nullptr,
                                  double max_trash_db_ratio = 0.25,
                                  uint64_t bytes_max_delete_chunk = 64 * 1024 * 1024);
SstFileManager* NewSstFileManager(Env* env, std::shared_ptr<Logger> info_log = nullptr,
                                  std::string trash_dir = "", int64_t rate_bytes_per_sec = 0,
                                  bool delete_existing_trash = true, Status* status = nullptr,
                                  double max_trash_db_ratio = 0.25,
                                  uint64_t bytes_max_delete_chunk = 64 * 1024 * 1024);

}  // namespace rocksdb
