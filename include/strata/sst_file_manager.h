// SstFileManager: what a DB (or several) knows about the space its table
// files take, and how it deletes them (RocksDB 7.8.3's interface and
// semantics). Set it as DBOptions::sst_file_manager.
//
//  - Tracking: every table a DB adds (flush, compaction, ingestion, import,
//    and the live tables found at open) and deletes is counted, by path and
//    size: GetTotalSize, GetTrackedFiles.
//  - Space limit: with SetMaxAllowedSpaceUsage(n > 0), a flush whose table
//    brings the total to n or more, or a compaction whose outputs would, is
//    the background error Status::SpaceLimit("Max allowed space was
//    reached") (IOError, "Space limit reached"); writes then fail until
//    the DB resumes, which it can once the total is below the limit again
//    (files deleted, or the limit raised): by itself, as RocksDB's manager
//    recovers it (checked every DBOptions::bgerror_resume_retry_interval,
//    up to max_bgerror_resume_count attempts), or by DB::Resume. A compaction is not started when
//    its inputs' size plus the compactions running plus
//    SetCompactionBufferSize's reserve would pass the limit.
//  - Paced deletion: with rate_bytes_per_sec > 0 an obsolete table is
//    renamed to "<name>.trash" and a background thread deletes trash files
//    at that rate: a file larger than bytes_max_delete_chunk (and with no
//    other hard link) is truncated by one chunk at a time, so the space is
//    returned gradually. While the trash is larger than max_trash_db_ratio
//    of the tracked total, files are deleted at once instead. A DB opened
//    with a manager hands it the ".trash" files left in its directory.
//
// Thread-safety: thread-safe. One manager may serve several DBs (their
// totals add up). Destroying it stops the deletion thread; trash not yet
// deleted stays on disk (found again at the next open).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

#include "strata/env.h"
#include "strata/export.h"
#include "strata/statistics.h"
#include "strata/status.h"

namespace strata {

class STRATA_EXPORT SstFileManager {
 public:
  virtual ~SstFileManager() = default;

  // 0 (the default) = no limit. Takes effect for the next flush or
  // compaction.
  virtual void SetMaxAllowedSpaceUsage(uint64_t max_allowed_space) = 0;
  // Space kept free for compactions: one is started only when the tracked
  // total, the running compactions' inputs, its own inputs and this buffer
  // fit under the limit.
  virtual void SetCompactionBufferSize(uint64_t compaction_buffer_size) = 0;
  // Whether the tracked total is at or past the limit (false without one).
  virtual bool IsMaxAllowedSpaceReached() = 0;
  // As above, counting the inputs of the compactions running as well.
  virtual bool IsMaxAllowedSpaceReachedIncludingCompactions() = 0;
  // Bytes of the tracked table files (trash included until deleted).
  virtual uint64_t GetTotalSize() = 0;
  // Path -> size of every tracked file.
  virtual std::unordered_map<std::string, uint64_t> GetTrackedFiles() = 0;
  // Paced deletion's rate, bytes/s; <= 0 = delete at once.
  virtual int64_t GetDeleteRateBytesPerSecond() = 0;
  virtual void SetDeleteRateBytesPerSecond(int64_t delete_rate) = 0;
  virtual double GetMaxTrashDBRatio() = 0;
  virtual void SetMaxTrashDBRatio(double ratio) = 0;
  // Bytes in trash files not yet deleted.
  virtual uint64_t GetTotalTrashSize() = 0;
  // Where FILES_MARKED_TRASH and FILES_DELETED_IMMEDIATELY are counted (a
  // DB opened with this manager sets its DBOptions::statistics).
  virtual void SetStatisticsPtr(const std::shared_ptr<Statistics>& stats) = 0;
};

// A manager on `fs` (env's file system when null) timed by env's clock.
// trash_dir is deprecated and takes no part in deletion (as in RocksDB
// 7.8.3), except that when it is not empty and delete_existing_trash is
// true, every file in it is handed to the deletion thread. *status (may be
// null) receives errors from that. rate_bytes_per_sec <= 0: deletes at
// once. bytes_max_delete_chunk 0: a trash file is always deleted whole.
// Returns null (and InvalidArgument in *status) when max_trash_db_ratio < 0.
STRATA_EXPORT std::shared_ptr<SstFileManager> NewSstFileManager(
    Env* env, std::shared_ptr<FileSystem> fs, std::shared_ptr<Logger> info_log = nullptr,
    const std::string& trash_dir = "", int64_t rate_bytes_per_sec = 0,
    bool delete_existing_trash = true, Status* status = nullptr, double max_trash_db_ratio = 0.25,
    uint64_t bytes_max_delete_chunk = 64 * 1024 * 1024);

// As above, on env's file system.
STRATA_EXPORT std::shared_ptr<SstFileManager> NewSstFileManager(
    Env* env, std::shared_ptr<Logger> info_log = nullptr, std::string trash_dir = "",
    int64_t rate_bytes_per_sec = 0, bool delete_existing_trash = true, Status* status = nullptr,
    double max_trash_db_ratio = 0.25, uint64_t bytes_max_delete_chunk = 64 * 1024 * 1024);

}  // namespace strata
