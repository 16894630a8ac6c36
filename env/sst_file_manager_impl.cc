// SstFileManagerImpl and NewSstFileManager (see env/sst_file_manager_impl.h).
#include "env/sst_file_manager_impl.h"

#include <algorithm>
#include <cinttypes>
#include <vector>

#include "util/stop_watch.h"

namespace strata {

namespace {
const char kTrashExtension[] = ".trash";
constexpr uint64_t kMicrosPerSecond = 1000000;
constexpr uint64_t kMaxSleepPieceMicros = 100000;
}  // namespace

SstFileManagerImpl::SstFileManagerImpl(std::shared_ptr<SystemClock> clock,
                                       std::shared_ptr<FileSystem> fs,
                                       std::shared_ptr<Logger> logger, int64_t rate_bytes_per_sec,
                                       double max_trash_db_ratio, uint64_t bytes_max_delete_chunk)
    : clock_(std::move(clock)),
      fs_(std::move(fs)),
      logger_(std::move(logger)),
      bytes_max_delete_chunk_(bytes_max_delete_chunk),
      rate_bytes_per_sec_(rate_bytes_per_sec),
      max_trash_db_ratio_(max_trash_db_ratio) {}

SstFileManagerImpl::~SstFileManagerImpl() {
  std::thread t;
  {
    MutexLock l(&mu_);
    closing_.store(true, std::memory_order_relaxed);  // read under mu_ or polled
    cv_.SignalAll();
    t = std::move(bg_thread_);
  }
  if (t.joinable()) t.join();
}

// ---- space accounting

void SstFileManagerImpl::OnAddFileLocked(const std::string& path, uint64_t size) {
  auto it = tracked_files_.find(path);
  if (it != tracked_files_.end()) {
    total_files_size_ -= it->second;
    it->second = size;
  } else {
    tracked_files_.emplace(path, size);
  }
  total_files_size_ += size;
}

void SstFileManagerImpl::OnDeleteFileLocked(const std::string& path) {
  auto it = tracked_files_.find(path);
  if (it == tracked_files_.end()) return;
  total_files_size_ -= it->second;
  tracked_files_.erase(it);
}

void SstFileManagerImpl::OnAddFile(const std::string& path, uint64_t size) {
  MutexLock l(&mu_);
  OnAddFileLocked(path, size);
}

Status SstFileManagerImpl::OnAddFile(const std::string& path) {
  uint64_t size = 0;
  Status s = fs_->GetFileSize(path, &size);
  if (s.ok()) OnAddFile(path, size);
  return s;
}

void SstFileManagerImpl::OnDeleteFile(const std::string& path) {
  MutexLock l(&mu_);
  OnDeleteFileLocked(path);
}

void SstFileManagerImpl::SetMaxAllowedSpaceUsage(uint64_t max_allowed_space) {
  MutexLock l(&mu_);
  max_allowed_space_ = max_allowed_space;
}

void SstFileManagerImpl::SetCompactionBufferSize(uint64_t compaction_buffer_size) {
  MutexLock l(&mu_);
  compaction_buffer_size_ = compaction_buffer_size;
}

bool SstFileManagerImpl::IsMaxAllowedSpaceReached() {
  MutexLock l(&mu_);
  return max_allowed_space_ > 0 && total_files_size_ >= max_allowed_space_;
}

bool SstFileManagerImpl::IsMaxAllowedSpaceReachedIncludingCompactions() {
  MutexLock l(&mu_);
  return max_allowed_space_ > 0 &&
         total_files_size_ + cur_compactions_reserved_size_ >= max_allowed_space_;
}

bool SstFileManagerImpl::EnoughRoomForCompaction(uint64_t input_bytes) {
  MutexLock l(&mu_);
  const uint64_t needed = cur_compactions_reserved_size_ + input_bytes + compaction_buffer_size_;
  if (max_allowed_space_ != 0 && needed + total_files_size_ > max_allowed_space_) return false;
  cur_compactions_reserved_size_ += input_bytes;
  return true;
}

void SstFileManagerImpl::OnCompactionCompletion(uint64_t input_bytes) {
  MutexLock l(&mu_);
  cur_compactions_reserved_size_ -= std::min(cur_compactions_reserved_size_, input_bytes);
}

uint64_t SstFileManagerImpl::GetCompactionsReservedSize() {
  MutexLock l(&mu_);
  return cur_compactions_reserved_size_;
}

uint64_t SstFileManagerImpl::GetCompactionBufferSize() {
  MutexLock l(&mu_);
  return compaction_buffer_size_;
}

uint64_t SstFileManagerImpl::GetTotalSize() {
  MutexLock l(&mu_);
  return total_files_size_;
}

std::unordered_map<std::string, uint64_t> SstFileManagerImpl::GetTrackedFiles() {
  MutexLock l(&mu_);
  return tracked_files_;
}

int64_t SstFileManagerImpl::GetDeleteRateBytesPerSecond() {
  return rate_bytes_per_sec_.load(std::memory_order_relaxed);
}

void SstFileManagerImpl::SetDeleteRateBytesPerSecond(int64_t delete_rate) {
  rate_bytes_per_sec_.store(delete_rate, std::memory_order_relaxed);
  MutexLock l(&mu_);
  cv_.SignalAll();  // a sleeping deletion thread recomputes its wait
}

double SstFileManagerImpl::GetMaxTrashDBRatio() {
  return max_trash_db_ratio_.load(std::memory_order_relaxed);
}

void SstFileManagerImpl::SetMaxTrashDBRatio(double ratio) {
  max_trash_db_ratio_.store(ratio, std::memory_order_relaxed);
}

uint64_t SstFileManagerImpl::GetTotalTrashSize() {
  return total_trash_size_.load(std::memory_order_relaxed);
}

void SstFileManagerImpl::SetStatisticsPtr(const std::shared_ptr<Statistics>& stats) {
  MutexLock l(&mu_);
  stats_ = stats;
}

// ---- deletion

bool SstFileManagerImpl::IsTrashFile(const std::string& name) {
  const size_t n = sizeof(kTrashExtension) - 1;
  return name.size() >= n && name.compare(name.size() - n, n, kTrashExtension) == 0;
}

Status SstFileManagerImpl::DeleteNow(const std::string& path) {
  Status s = fs_->DeleteFile(path);
  if (s.ok()) {
    MutexLock l(&mu_);
    OnDeleteFileLocked(path);
    RecordTick(stats_.get(), FILES_DELETED_IMMEDIATELY);
  }
  Log(logger_.get(), "deleted file %s immediately: %s", path.c_str(), s.ToString().c_str());
  return s;
}

Status SstFileManagerImpl::MarkAsTrash(const std::string& path, std::string* trash) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos || slash + 1 == path.size()) {
    return Status::InvalidArgument("not a file path", path);
  }
  if (IsTrashFile(path)) {
    *trash = path;
    return Status::OK();
  }
  MutexLock ml(&move_mu_);
  *trash = path + kTrashExtension;
  Status s;
  for (int n = 0;; ++n) {
    s = fs_->FileExists(*trash);
    if (s.IsNotFound()) {
      s = fs_->RenameFile(path, *trash);
      break;
    }
    if (!s.ok()) break;
    *trash = path + std::to_string(n) + kTrashExtension;
  }
  if (s.ok()) {
    MutexLock l(&mu_);
    auto it = tracked_files_.find(path);
    if (it != tracked_files_.end()) {
      const uint64_t size = it->second;
      OnDeleteFileLocked(path);
      OnAddFileLocked(*trash, size);
    }
  }
  return s;
}

Status SstFileManagerImpl::ScheduleFileDeletion(const std::string& path,
                                                const std::string& dir_to_sync, bool force_bg) {
  const int64_t rate = rate_bytes_per_sec_.load(std::memory_order_relaxed);
  if (rate <= 0 ||
      (!force_bg && static_cast<double>(total_trash_size_.load(std::memory_order_relaxed)) >
                        static_cast<double>(GetTotalSize()) *
                            max_trash_db_ratio_.load(std::memory_order_relaxed))) {
    return DeleteNow(path);
  }
  std::string trash;
  Status s = MarkAsTrash(path, &trash);
  if (!s.ok()) {
    Log(InfoLogLevel::kError, logger_.get(), "failed to mark %s as trash (%s): deleting it now",
        path.c_str(), s.ToString().c_str());
    return DeleteNow(path);
  }
  uint64_t size = 0;
  if (fs_->GetFileSize(trash, &size).ok()) {
    total_trash_size_.fetch_add(size, std::memory_order_relaxed);
  }
  Log(logger_.get(), "marked %s as trash (%" PRIu64 " bytes)", trash.c_str(), size);
  MutexLock l(&mu_);
  RecordTick(stats_.get(), FILES_MARKED_TRASH);
  queue_.push_back({trash, dir_to_sync});
  ++pending_files_;
  if (!bg_thread_.joinable() && !closing_.load(std::memory_order_relaxed)) {
    bg_thread_ = std::thread([this] { BackgroundEmptyTrash(); });
  }
  cv_.SignalAll();
  return Status::OK();
}

void SstFileManagerImpl::WaitForEmptyTrash() {
  MutexLock l(&mu_);
  while (pending_files_ > 0 && !closing_.load(std::memory_order_relaxed)) cv_.Wait();
}

void SstFileManagerImpl::SleepUntil(uint64_t until) {
  while (!closing_.load(std::memory_order_relaxed)) {
    const uint64_t now = clock_->NowMicros();
    if (now >= until) return;
    clock_->SleepForMicroseconds(static_cast<int>(std::min(until - now, kMaxSleepPieceMicros)));
  }
}

void SstFileManagerImpl::BackgroundEmptyTrash() {
  MutexLock l(&mu_);
  while (true) {
    while (queue_.empty() && !closing_.load(std::memory_order_relaxed)) cv_.Wait();
    if (closing_.load(std::memory_order_relaxed)) return;
    // One run of work: the rate is measured from its start.
    uint64_t start = clock_->NowMicros();
    uint64_t deleted_total = 0;
    int64_t rate = rate_bytes_per_sec_.load(std::memory_order_relaxed);
    while (!queue_.empty() && !closing_.load(std::memory_order_relaxed)) {
      const int64_t now_rate = rate_bytes_per_sec_.load(std::memory_order_relaxed);
      if (now_rate != rate) {  // a new rate starts a new measurement
        rate = now_rate;
        start = clock_->NowMicros();
        deleted_total = 0;
      }
      const TrashFile f = queue_.front();
      uint64_t deleted = 0;
      bool complete = true;
      // Released for the file system calls and the wait.
      mu_.Unlock();
      Status s = DeleteTrashStep(f, &deleted, &complete);
      if (!s.ok()) {
        Log(InfoLogLevel::kError, logger_.get(), "failed to delete trash %s: %s", f.path.c_str(),
            s.ToString().c_str());
      }
      deleted_total += deleted;
      if (rate > 0) {
        SleepUntil(start + deleted_total * kMicrosPerSecond / static_cast<uint64_t>(rate));
      }
      mu_.Lock();
      if (complete) {
        queue_.pop_front();
        --pending_files_;
      }
      if (pending_files_ == 0) cv_.SignalAll();
    }
  }
}

Status SstFileManagerImpl::DeleteTrashStep(const TrashFile& f, uint64_t* deleted_bytes,
                                           bool* complete) {
  *deleted_bytes = 0;
  *complete = true;
  uint64_t size = 0;
  Status s = fs_->GetFileSize(f.path, &size);
  if (!s.ok()) {
    // Gone already (or unreadable): nothing more to do with it.
    MutexLock l(&mu_);
    OnDeleteFileLocked(f.path);
    return s;
  }
  if (bytes_max_delete_chunk_ != 0 && size > bytes_max_delete_chunk_) {
    // Truncating a file with other links (a checkpoint's hard link) would
    // damage them: only a file with one link is cut in chunks.
    uint64_t links = 0;
    Status ls = fs_->NumFileLinks(f.path, &links);
    if (ls.ok() && links == 1) {
      ls = fs_->Truncate(f.path, size - bytes_max_delete_chunk_);
      if (ls.ok()) {
        // Make the shrink durable, so the space really comes back now.
        std::unique_ptr<WritableFile> wf;
        ls = fs_->ReopenWritableFile(f.path, FileOptions(), &wf);
        if (ls.ok()) ls = wf->Fsync();
        if (wf != nullptr) {
          Status cs = wf->Close();
          if (ls.ok()) ls = cs;
        }
      }
      if (ls.ok()) {
        *deleted_bytes = bytes_max_delete_chunk_;
        *complete = false;
        total_trash_size_.fetch_sub(
            std::min(bytes_max_delete_chunk_, total_trash_size_.load(std::memory_order_relaxed)),
            std::memory_order_relaxed);
        return Status::OK();
      }
      Log(InfoLogLevel::kWarn, logger_.get(), "failed to truncate trash %s (%s): deleting it whole",
          f.path.c_str(), ls.ToString().c_str());
    }
  }
  s = fs_->DeleteFile(f.path);
  if (s.ok() && !f.dir_to_sync.empty()) {
    std::unique_ptr<Directory> dir;
    s = fs_->NewDirectory(f.dir_to_sync, &dir);
    if (s.ok()) s = dir->Fsync();
  }
  if (s.ok() || s.IsNotFound()) {
    *deleted_bytes = size;
    total_trash_size_.fetch_sub(std::min(size, total_trash_size_.load(std::memory_order_relaxed)),
                                std::memory_order_relaxed);
    MutexLock l(&mu_);
    OnDeleteFileLocked(f.path);
  }
  return s;
}

Status SstFileManagerImpl::CleanupDirectory(FileSystem* fs, SstFileManagerImpl* sfm,
                                            const std::string& dir) {
  std::vector<std::string> children;
  Status s = fs->GetChildren(dir, &children);
  if (!s.ok()) return s;
  for (const std::string& name : children) {
    if (!IsTrashFile(name)) continue;
    const std::string path = dir + "/" + name;
    Status ds;
    if (sfm != nullptr) {
      ds = sfm->OnAddFile(path);
      if (ds.ok()) ds = sfm->ScheduleFileDeletion(path, dir);
    } else {
      ds = fs->DeleteFile(path);
    }
    if (s.ok() && !ds.ok() && !ds.IsNotFound()) s = ds;
  }
  return s;
}

// ---- factories

std::shared_ptr<SstFileManager> NewSstFileManager(
    Env* env, std::shared_ptr<FileSystem> fs, std::shared_ptr<Logger> info_log,
    const std::string& trash_dir, int64_t rate_bytes_per_sec, bool delete_existing_trash,
    Status* status, double max_trash_db_ratio, uint64_t bytes_max_delete_chunk) {
  if (env == nullptr) env = Env::Default();
  if (fs == nullptr) fs = env->GetFileSystemPtr();
  if (max_trash_db_ratio < 0) {
    if (status != nullptr) {
      *status = Status::InvalidArgument("NewSstFileManager: max_trash_db_ratio must be >= 0");
    }
    return nullptr;
  }
  // The clock is the Env's; a shared_ptr that does not own it (the Env
  // outlives what it is passed to, as everywhere an Env* is taken).
  std::shared_ptr<SystemClock> clock(std::shared_ptr<SystemClock>(), env->GetSystemClock());
  auto sfm =
      std::make_shared<SstFileManagerImpl>(clock, fs, std::move(info_log), rate_bytes_per_sec,
                                           max_trash_db_ratio, bytes_max_delete_chunk);
  Status s;
  if (delete_existing_trash && !trash_dir.empty()) {
    std::vector<std::string> files;
    s = fs->GetChildren(trash_dir, &files);
    if (s.ok()) {
      for (const std::string& name : files) {
        if (name == "." || name == "..") continue;
        const std::string path = trash_dir + "/" + name;
        Status ds = sfm->OnAddFile(path);
        if (ds.ok()) ds = sfm->ScheduleFileDeletion(path, trash_dir);
        if (s.ok() && !ds.ok()) s = ds;
      }
    }
  }
  if (status != nullptr) *status = s;
  return sfm;
}

std::shared_ptr<SstFileManager> NewSstFileManager(Env* env, std::shared_ptr<Logger> info_log,
                                                  std::string trash_dir, int64_t rate_bytes_per_sec,
                                                  bool delete_existing_trash, Status* status,
                                                  double max_trash_db_ratio,
                                                  uint64_t bytes_max_delete_chunk) {
  if (env == nullptr) env = Env::Default();
  return NewSstFileManager(env, env->GetFileSystemPtr(), std::move(info_log), trash_dir,
                           rate_bytes_per_sec, delete_existing_trash, status, max_trash_db_ratio,
                           bytes_max_delete_chunk);
}

}  // namespace strata
