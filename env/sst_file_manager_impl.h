// SstFileManagerImpl: the SstFileManager behind NewSstFileManager (see
// strata/sst_file_manager.h for the contract), with the hooks a DB calls,
// and its delete scheduler (RocksDB splits the two; here one class, since
// the scheduler's only state is the trash queue).
//
// Deletion. ScheduleFileDeletion(path) deletes at once when the rate is
// <= 0 or the trash already exceeds max_trash_db_ratio of the tracked total
// (unless force_bg); otherwise renames path to path + ".trash" (or
// path + N + ".trash" when that exists), keeps tracking it under the new
// name, and queues it. The deletion thread (started at the first queued
// file) takes the queue in order; a file larger than bytes_max_delete_chunk
// with one link is truncated by a chunk (and fsynced) per step, otherwise
// deleted whole (and its directory fsynced). After each step it sleeps
// until start + bytes_deleted / rate, measured from the start of the
// current run of work, so the long-run rate is the configured one. Sleeping
// goes through the SystemClock in pieces of at most 100 ms, so tests drive
// it with a mock clock and destruction waits at most one piece.
//
// Thread-safety: thread-safe. Lock order: a DB's mutex may be held when
// calling in; mu_ is a leaf (no callback or DB call is made holding it).
// Invariants (under mu_):
//  1. total_files_size_ is the sum of tracked_files_' sizes;
//  2. every queued trash file is tracked, under its trash name;
//  3. pending_files_ is the queue's length plus the file being worked on.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <thread>
#include <unordered_map>

#include "strata/sst_file_manager.h"
#include "util/mutex.h"
#include "util/thread_annotations.h"

namespace strata {

class SstFileManagerImpl final : public SstFileManager {
 public:
  SstFileManagerImpl(std::shared_ptr<SystemClock> clock, std::shared_ptr<FileSystem> fs,
                     std::shared_ptr<Logger> logger, int64_t rate_bytes_per_sec,
                     double max_trash_db_ratio, uint64_t bytes_max_delete_chunk);
  ~SstFileManagerImpl() override;

  // ---- SstFileManager
  void SetMaxAllowedSpaceUsage(uint64_t max_allowed_space) override EXCLUDES(mu_);
  void SetCompactionBufferSize(uint64_t compaction_buffer_size) override EXCLUDES(mu_);
  bool IsMaxAllowedSpaceReached() override EXCLUDES(mu_);
  bool IsMaxAllowedSpaceReachedIncludingCompactions() override EXCLUDES(mu_);
  uint64_t GetTotalSize() override EXCLUDES(mu_);
  std::unordered_map<std::string, uint64_t> GetTrackedFiles() override EXCLUDES(mu_);
  int64_t GetDeleteRateBytesPerSecond() override;
  void SetDeleteRateBytesPerSecond(int64_t delete_rate) override;
  double GetMaxTrashDBRatio() override;
  void SetMaxTrashDBRatio(double ratio) override;
  uint64_t GetTotalTrashSize() override;
  void SetStatisticsPtr(const std::shared_ptr<Statistics>& stats) override EXCLUDES(mu_);

  // ---- What a DB calls
  // A table file was created (or found at open) with `size` bytes; a path
  // already tracked gets its new size.
  void OnAddFile(const std::string& path, uint64_t size) EXCLUDES(mu_);
  // As above, the size read from the file system.
  Status OnAddFile(const std::string& path) EXCLUDES(mu_);
  // The file is gone (not tracked any more).
  void OnDeleteFile(const std::string& path) EXCLUDES(mu_);
  // Whether a compaction with input_bytes of inputs may start; if so, its
  // inputs are reserved until OnCompactionCompletion(input_bytes).
  bool EnoughRoomForCompaction(uint64_t input_bytes) EXCLUDES(mu_);
  void OnCompactionCompletion(uint64_t input_bytes) EXCLUDES(mu_);
  // The inputs of the compactions reserved now, and the compaction buffer
  // (SetCompactionBufferSize): the free-space check after a NoSpace error.
  uint64_t GetCompactionsReservedSize() EXCLUDES(mu_);
  uint64_t GetCompactionBufferSize() EXCLUDES(mu_);
  // Deletes a tracked file, paced or at once (see the top). dir_to_sync:
  // fsynced after the file is finally deleted (empty: none).
  Status ScheduleFileDeletion(const std::string& path, const std::string& dir_to_sync,
                              bool force_bg = false) EXCLUDES(mu_);
  // Blocks until the trash queue is empty (tests; close).
  void WaitForEmptyTrash() EXCLUDES(mu_);

  static bool IsTrashFile(const std::string& name);
  // Every ".trash" file directly in dir: handed to sfm's deletion (tracked
  // first), or deleted at once when sfm is null.
  static Status CleanupDirectory(FileSystem* fs, SstFileManagerImpl* sfm, const std::string& dir);

 private:
  struct TrashFile {
    std::string path;
    std::string dir_to_sync;
  };

  void OnAddFileLocked(const std::string& path, uint64_t size) REQUIRES(mu_);
  void OnDeleteFileLocked(const std::string& path) REQUIRES(mu_);
  Status DeleteNow(const std::string& path) EXCLUDES(mu_);
  Status MarkAsTrash(const std::string& path, std::string* trash) EXCLUDES(mu_);
  void BackgroundEmptyTrash() EXCLUDES(mu_);
  // One step on a trash file: a chunk truncated or the file deleted.
  Status DeleteTrashStep(const TrashFile& f, uint64_t* deleted_bytes, bool* complete) EXCLUDES(mu_);
  // Sleeps on the clock until `until` (micros) or closing.
  void SleepUntil(uint64_t until) EXCLUDES(mu_);

  // Immutable after construction.
  const std::shared_ptr<SystemClock> clock_;
  const std::shared_ptr<FileSystem> fs_;
  const std::shared_ptr<Logger> logger_;
  const uint64_t bytes_max_delete_chunk_;

  // Atomics: settings read by the deletion path without mu_ (relaxed:
  // each is a single value, taken as of some recent moment).
  std::atomic<int64_t> rate_bytes_per_sec_;
  std::atomic<double> max_trash_db_ratio_;
  std::atomic<uint64_t> total_trash_size_{0};
  std::atomic<bool> closing_{false};

  Mutex mu_;
  CondVar cv_{&mu_};  // queue not empty / trash empty / closing
  std::unordered_map<std::string, uint64_t> tracked_files_ GUARDED_BY(mu_);
  uint64_t total_files_size_ GUARDED_BY(mu_) = 0;
  uint64_t compaction_buffer_size_ GUARDED_BY(mu_) = 0;
  uint64_t cur_compactions_reserved_size_ GUARDED_BY(mu_) = 0;
  uint64_t max_allowed_space_ GUARDED_BY(mu_) = 0;
  std::shared_ptr<Statistics> stats_ GUARDED_BY(mu_);
  std::deque<TrashFile> queue_ GUARDED_BY(mu_);
  uint64_t pending_files_ GUARDED_BY(mu_) = 0;
  std::thread bg_thread_ GUARDED_BY(mu_);
  Mutex move_mu_;  // one rename to ".trash" at a time (name choice)
};

}  // namespace strata
