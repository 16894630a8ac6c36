// TableCache (db/table_cache.h): open BlockBasedTable readers in a
// strata::Cache keyed by the fixed64 file number, one charge unit each; the
// DB's families share one such cache (NewReaderCache), as RocksDB's do.
//
// A lookup that misses opens the file under one of kLoadStripes mutexes
// (chosen by file number) and looks again first, so concurrent misses on
// one file open it once. Get pins the reader's handle for the call only; an
// iterator pins it until the iterator is destroyed (the table iterator
// holds the handle).
//
// Capacity: max(max_open_files - 10, 20) readers, practically unbounded for
// max_open_files = -1. Like RocksDB, only -1 means unbounded: 0 and other
// negative values get the minimum (20 readers), not an unbounded cache.
// The cache has up to 16 shards with at least 8 readers each; the capacity
// is rounded down to a multiple of the shard count (losing at most 15
// readers), so the shards together never hold more than the bound.
#include "db/table_cache.h"

#include <cassert>
#include <set>
#include <string>
#include <utility>

#include "db/filename.h"
#include "db/memory_budget.h"
#include "table/merging_iterator.h"
#include "util/coding.h"
#include "util/mutex.h"
#include "util/perf_context_imp.h"
#include "util/stop_watch.h"

namespace strata {

namespace {

constexpr size_t kUnboundedCapacity = size_t{4} << 20;  // readers, for max_open_files = -1
constexpr int kMaxShardBits = 4;
constexpr size_t kMinReadersPerShard = 8;
constexpr size_t kLoadStripes = 16;

size_t CapacityFor(int max_open_files) {
  if (max_open_files == -1) return kUnboundedCapacity;
  const int c = max_open_files - 10;
  return c < 20 ? 20 : static_cast<size_t>(c);
}

int ShardBitsFor(size_t capacity) {
  int bits = 0;
  while (bits < kMaxShardBits && (capacity >> (bits + 1)) >= kMinReadersPerShard) bits++;
  return bits;
}

void DeleteTable(const Slice& /*key*/, void* value) { delete static_cast<BlockBasedTable*>(value); }

}  // namespace

struct TableCache::Rep {
  Rep(const std::string& path, const Options& opts, const BlockBasedTableOptions& topts,
      int max_open_files, std::shared_ptr<Cache> readers)
      : paths(opts.cf_paths.empty() ? std::vector<DbPath>{DbPath(path, UINT64_MAX)}
                                    : opts.cf_paths),
        options(opts),
        table_options(topts) {
    if (options.env == nullptr) options.env = Env::Default();
    if (options.comparator == nullptr) options.comparator = BytewiseComparator();
    fs = options.env->GetFileSystem();
    file_options.use_mmap_reads = options.allow_mmap_reads || options.table_mmap_reads;
    file_options.use_direct_reads = options.use_direct_reads;
    unbounded = max_open_files == -1;
    shared = readers != nullptr;
    cache = shared ? std::move(readers) : NewReaderCache(max_open_files);
    // Issue 19: readers' own memory charged to the block cache.
    if (!table_options.no_block_cache && table_options.block_cache != nullptr &&
        RoleCharged(table_options, CacheEntryRole::kBlockBasedTableReader)) {
      reader_charge = std::make_shared<ConcurrentCacheReservationManager>(
          table_options.block_cache, CacheEntryRole::kBlockBasedTableReader);
    }
  }
  ~Rep() {
    // The readers point at this family's options (prefix extractor,
    // statistics): none may stay behind in a shared cache.
    for (uint64_t number : opened) EraseFile(number);
  }

  void EraseFile(uint64_t number) {
    char key_buf[8];
    EncodeFixed64(key_buf, number);
    cache->Erase(Slice(key_buf, sizeof(key_buf)));
  }

  // Sets *handle to a pinned handle whose value is the file's reader,
  // opening the file if it is not cached.
  // no_io (ReadOptions::read_tier == kBlockCacheTier): a table that is not
  // open is not opened (Incomplete).
  Status FindTable(const TableFileMeta& meta, Cache::Handle** handle, bool no_io = false);
  Status OpenTable(const TableFileMeta& meta, std::unique_ptr<BlockBasedTable>* table,
                   bool for_compaction = false);

  // The family's table directories; a file's path id indexes them.
  const std::vector<DbPath> paths;
  // The directory of path id `path_id`, or InvalidArgument when the
  // MANIFEST names one the options do not configure.
  Status DirOf(uint64_t number, uint32_t path_id, std::string* dir) const {
    if (path_id >= paths.size()) {
      return Status::InvalidArgument("table file " + MakeFileNumber(number) +
                                     ".sst is in path id " + std::to_string(path_id) +
                                     " but only " + std::to_string(paths.size()) +
                                     " table path(s) are configured (db_paths / cf_paths)");
    }
    *dir = paths[path_id].path;
    return Status::OK();
  }
  bool unbounded = false;  // max_open_files == -1: readers may stay pinned by file metadata
  Options options;         // env and comparator never null
  const BlockBasedTableOptions table_options;
  FileSystem* fs = nullptr;
  FileOptions file_options;
  std::shared_ptr<Cache> cache;
  bool shared = false;  // cache is the DB's, shared with other families
  std::shared_ptr<ConcurrentCacheReservationManager> reader_charge;  // null: not charged
  Mutex load_mu[kLoadStripes];
  // Shared cache only: the files this family put into it (a file belongs
  // to one family). Guarded by opened_mu.
  Mutex opened_mu;
  std::set<uint64_t> opened;
};

Status TableCache::Rep::OpenTable(const TableFileMeta& meta,
                                  std::unique_ptr<BlockBasedTable>* table, bool for_compaction) {
  std::string dir;
  Status s = DirOf(meta.number, meta.path_id, &dir);
  if (!s.ok()) return s;
  std::string fname = TableFileName(dir, meta.number);
  std::unique_ptr<RandomAccessFile> file;
  FileOptions fopts = file_options;
  if (for_compaction) {
    // As RocksDB: compaction inputs are read directly exactly when the
    // outputs are written directly.
    fopts.use_mmap_reads = false;
    fopts.use_direct_reads = options.use_direct_io_for_flush_and_compaction;
  }
  s = fs->NewRandomAccessFile(fname, fopts, &file);
  if (!s.ok()) {
    // RocksDB (and LevelDB before it) also name tables NNNNNN.ldb.
    std::string legacy = dir + "/" + MakeFileNumber(meta.number) + ".ldb";
    Status legacy_status = fs->NewRandomAccessFile(legacy, fopts, &file);
    if (!legacy_status.ok()) {
      legacy_status.PermitUncheckedError();
      return s;  // the error about the name we expect
    }
    s.PermitUncheckedError();
    fname = std::move(legacy);
  }
  TableReaderOptions tro;
  tro.table_options = table_options;
  tro.user_comparator = options.comparator;
  tro.prefix_extractor = options.prefix_extractor.get();
  tro.file_name = std::move(fname);
  tro.statistics = options.statistics.get();
  tro.level = meta.level;
  tro.largest_seqno = meta.largest_seqno;
  if (!for_compaction) tro.reader_charge = reader_charge;
  if (for_compaction) {
    // A one-pass sequential read: no filter, no block cache.
    tro.skip_filters = true;
    tro.for_compaction = true;
    tro.table_options.block_cache = nullptr;
    tro.table_options.no_block_cache = true;
    tro.table_options.cache_index_and_filter_blocks = false;
  }
  return BlockBasedTable::Open(tro, std::move(file), meta.file_size, table);
}

Status TableCache::Rep::FindTable(const TableFileMeta& meta, Cache::Handle** handle, bool no_io) {
  char key_buf[8];
  EncodeFixed64(key_buf, meta.number);
  const Slice key(key_buf, sizeof(key_buf));
  *handle = cache->Lookup(key);
  if (*handle != nullptr) return Status::OK();
  if (no_io) {
    return Status::Incomplete("Table not found in table_cache, no_io is set",
                              MakeFileNumber(meta.number));
  }

  // File numbers are dense, so consecutive files take different stripes.
  MutexLock l(&load_mu[meta.number % kLoadStripes]);
  *handle = cache->Lookup(key);  // another thread may have opened it meanwhile
  if (*handle != nullptr) return Status::OK();
  std::unique_ptr<BlockBasedTable> table;
  Statistics* stats = options.statistics.get();
  Status s;
  {
    PERF_TIMER_GUARD(find_table_nanos);
    StopWatch sw(options.env->GetSystemClock(), stats, TABLE_OPEN_IO_MICROS);
    s = OpenTable(meta, &table);
  }
  RecordTick(stats, NO_FILE_OPENS);
  if (!s.ok()) {
    RecordTick(stats, NO_FILE_ERRORS);
    return s;  // errors are not cached: a later lookup retries
  }
  if (shared) {
    MutexLock ol(&opened_mu);
    opened.insert(meta.number);
  }
  return cache->Insert(key, table.release(), 1, &DeleteTable, handle);
}

std::shared_ptr<Cache> TableCache::NewReaderCache(int max_open_files) {
  size_t capacity = CapacityFor(max_open_files);
  const int shard_bits = ShardBitsFor(capacity);
  // A multiple of the shard count, so the shards' (rounded-up) capacities
  // add up to no more than the bound.
  capacity &= ~((size_t{1} << shard_bits) - 1);
  return NewLRUCache(capacity, shard_bits, /*strict_capacity_limit=*/false,
                     /*high_pri_pool_ratio=*/0.0);
}

TableCache::TableCache(const std::string& db_path, const Options& options,
                       const BlockBasedTableOptions& table_options, int max_open_files,
                       std::shared_ptr<Cache> readers)
    : rep_(std::make_unique<Rep>(db_path, options, table_options, max_open_files,
                                 std::move(readers))) {}

TableCache::~TableCache() = default;

namespace {
void ReleaseReader(void* cache, void* handle) {
  static_cast<Cache*>(cache)->Release(static_cast<Cache::Handle*>(handle));
}
}  // namespace

Status TableCache::Get(const ReadOptions& read_options, const TableFileMeta& file, const Slice& key,
                       GetContext* get_context) {
  Cache::Handle* handle = nullptr;
  Status s = rep_->FindTable(file, &handle, read_options.read_tier == kBlockCacheTier);
  if (!s.ok()) return s;
  auto* table = static_cast<BlockBasedTable*>(rep_->cache->Value(handle));
  s = table->Get(read_options, key, get_context);
  if (get_context->pin_pending()) {
    // The value is in the reader's mapping: the slice keeps the handle.
    get_context->pinnable()->RegisterCleanup(&ReleaseReader, rep_->cache.get(), handle);
    get_context->PinDone();
    return s;
  }
  rep_->cache->Release(handle);
  return s;
}

std::unique_ptr<InternalIterator> TableCache::NewIterator(const ReadOptions& read_options,
                                                          const TableFileMeta& file,
                                                          BlockBasedTable** table_out) {
  if (table_out != nullptr) *table_out = nullptr;
  Cache::Handle* handle = nullptr;
  Status s = rep_->FindTable(file, &handle);
  if (!s.ok()) return NewEmptyInternalIterator(std::move(s));
  auto* table = static_cast<BlockBasedTable*>(rep_->cache->Value(handle));
  if (table_out != nullptr) *table_out = table;
  return table->NewIterator(read_options, rep_->cache.get(), handle);
}

std::unique_ptr<InternalIterator> TableCache::NewIterator(const ReadOptions& read_options,
                                                          FileMetaData* file, int level) {
  auto* table = static_cast<BlockBasedTable*>(file->pinned_table.table());
  if (table != nullptr) return table->NewIterator(read_options);
  const TableFileMeta meta{file->number, file->file_size, level, file->largest_seqno,
                           file->path_id};
  Cache::Handle* handle = nullptr;
  Status s = rep_->FindTable(meta, &handle);
  if (!s.ok()) return NewEmptyInternalIterator(std::move(s));
  table = static_cast<BlockBasedTable*>(rep_->cache->Value(handle));
  // An unbounded cache pins the reader by file (the caller's Version keeps
  // the file, hence the reader); otherwise the iterator holds the handle.
  if (rep_->unbounded && file->pinned_table.Install(rep_->cache.get(), handle, table)) {
    return table->NewIterator(read_options);
  }
  if (rep_->unbounded) {
    // Another thread pinned first: read through its reader, ours goes back.
    rep_->cache->Release(handle);
    return static_cast<BlockBasedTable*>(file->pinned_table.table())->NewIterator(read_options);
  }
  return table->NewIterator(read_options, rep_->cache.get(), handle);
}

Status TableCache::VerifyChecksum(const TableFileMeta& file) {
  std::unique_ptr<BlockBasedTable> table;
  Status s = rep_->OpenTable(file, &table, /*for_compaction=*/true);
  if (!s.ok()) return s;
  return table->VerifyChecksum();
}

std::unique_ptr<InternalIterator> TableCache::NewCompactionIterator(const ReadOptions& read_options,
                                                                    const TableFileMeta& file) {
  std::unique_ptr<BlockBasedTable> table;
  Status s = rep_->OpenTable(file, &table, /*for_compaction=*/true);
  if (!s.ok()) return NewEmptyInternalIterator(std::move(s));
  return BlockBasedTable::NewOwningIterator(std::move(table), read_options);
}

Status TableCache::Get(const ReadOptions& read_options, FileMetaData* file, int level,
                       const Slice& key, GetContext* get_context) {
  auto* table = static_cast<BlockBasedTable*>(file->pinned_table.table());
  if (table != nullptr) return table->Get(read_options, key, get_context);
  const TableFileMeta meta{file->number, file->file_size, level, file->largest_seqno,
                           file->path_id};
  if (!rep_->unbounded) return Get(read_options, meta, key, get_context);
  Cache::Handle* handle = nullptr;
  Status s = rep_->FindTable(meta, &handle, read_options.read_tier == kBlockCacheTier);
  if (!s.ok()) return s;
  table = static_cast<BlockBasedTable*>(rep_->cache->Value(handle));
  // The slot keeps the handle (released when the file's metadata goes);
  // if another thread pinned first, ours goes back now.
  if (!file->pinned_table.Install(rep_->cache.get(), handle, table)) rep_->cache->Release(handle);
  return table->Get(read_options, key, get_context);
}

Status TableCache::Pin(FileMetaData* file, int level) {
  if (file->pinned_table.table() != nullptr) return Status::OK();
  Cache::Handle* handle = nullptr;
  Status s = rep_->FindTable(
      TableFileMeta{file->number, file->file_size, level, file->largest_seqno, file->path_id},
      &handle);
  if (!s.ok()) return s;
  auto* table = static_cast<BlockBasedTable*>(rep_->cache->Value(handle));
  if (!file->pinned_table.Install(rep_->cache.get(), handle, table)) rep_->cache->Release(handle);
  return Status::OK();
}

void TableCache::MultiGet(const ReadOptions& read_options, FileMetaData* file, int level, size_t n,
                          const Slice* keys, GetContext* const* contexts, Status* statuses) {
  auto* table = static_cast<BlockBasedTable*>(file->pinned_table.table());
  if (table != nullptr) {
    table->MultiGet(read_options, n, keys, contexts, statuses);
    return;
  }
  const TableFileMeta meta{file->number, file->file_size, level, file->largest_seqno,
                           file->path_id};
  Cache::Handle* handle = nullptr;
  Status s = rep_->FindTable(meta, &handle, read_options.read_tier == kBlockCacheTier);
  if (!s.ok()) {
    for (size_t i = 0; i < n; i++) statuses[i] = s;
    return;
  }
  table = static_cast<BlockBasedTable*>(rep_->cache->Value(handle));
  table->MultiGet(read_options, n, keys, contexts, statuses);
  if (!rep_->unbounded) {
    // Values in the reader's mapping: each slice takes a handle of its own
    // (unbounded caches pin the reader by file: the Version pins those).
    char key_buf[8];
    EncodeFixed64(key_buf, file->number);
    for (size_t i = 0; i < n; i++) {
      GetContext* ctx = contexts[i];
      if (!ctx->pin_pending()) continue;
      Cache::Handle* h = rep_->cache->Lookup(Slice(key_buf, sizeof(key_buf)));
      if (h == nullptr) {
        ctx->PinByCopy();  // erased meanwhile (our handle keeps the bytes)
        continue;
      }
      ctx->pinnable()->RegisterCleanup(&ReleaseReader, rep_->cache.get(), h);
      ctx->PinDone();
    }
  }
  if (!rep_->unbounded || !file->pinned_table.Install(rep_->cache.get(), handle, table)) {
    rep_->cache->Release(handle);
  }
}

Status TableCache::GetRangeTombstones(FileMetaData* file, int level,
                                      const FragmentedRangeTombstoneList** list) {
  if (file->range_tombstones.loaded()) {
    *list = file->range_tombstones.get();
    return Status::OK();
  }
  const TableFileMeta meta{file->number, file->file_size, level, file->largest_seqno,
                           file->path_id};
  Cache::Handle* handle = nullptr;
  Status s = rep_->FindTable(meta, &handle);
  if (!s.ok()) return s;
  auto* table = static_cast<BlockBasedTable*>(rep_->cache->Value(handle));
  ReadOptions ro;
  std::unique_ptr<InternalIterator> iter(table->NewRangeTombstoneIterator(ro));
  std::unique_ptr<FragmentedRangeTombstoneList> fragmented;
  if (iter != nullptr) {
    fragmented =
        std::make_unique<FragmentedRangeTombstoneList>(iter.get(), rep_->options.comparator);
    if (!fragmented->status().ok()) {
      s = Status::Corruption(
          TableFileName(rep_->paths[std::min<size_t>(file->path_id, rep_->paths.size() - 1)].path,
                        file->number) +
          ": range deletion block: " + fragmented->status().ToString());
    } else if (fragmented->empty()) {
      fragmented.reset();
    }
  }
  rep_->cache->Release(handle);
  if (!s.ok()) return s;
  *list = file->range_tombstones.Install(fragmented.release());
  return Status::OK();
}

Status TableCache::GetTableProperties(const TableFileMeta& file,
                                      std::shared_ptr<const TableProperties>* props) {
  Cache::Handle* handle = nullptr;
  Status s = rep_->FindTable(file, &handle);
  if (!s.ok()) return s;
  *props = static_cast<BlockBasedTable*>(rep_->cache->Value(handle))->GetTableProperties();
  rep_->cache->Release(handle);
  return Status::OK();
}

namespace {

// data_offset scaled from the data's extent to the file's, as RocksDB's
// BlockBasedTable::ApproximateOffsetOf does it (same operations, so the same
// rounding); an empty data section: half the file.
uint64_t ScaleToFile(uint64_t data_offset, uint64_t data_size, uint64_t file_size) {
  if (data_size == 0) return file_size / 2;
  const double ratio = static_cast<double>(file_size) / static_cast<double>(data_size);
  return static_cast<uint64_t>(ratio * static_cast<double>(data_offset));
}

}  // namespace

Status TableCache::ApproximateOffsetOf(const TableFileMeta& file, const Slice& key,
                                       uint64_t* offset) {
  *offset = 0;
  Cache::Handle* handle = nullptr;
  Status s = rep_->FindTable(file, &handle);
  if (!s.ok()) return s;
  BlockBasedTable* table = static_cast<BlockBasedTable*>(rep_->cache->Value(handle));
  *offset = ScaleToFile(table->ApproximateOffsetOf(key), table->GetTableProperties()->data_size,
                        file.file_size);
  rep_->cache->Release(handle);
  return Status::OK();
}

Status TableCache::ApproximateSize(const TableFileMeta& file, const Slice& start, const Slice& end,
                                   uint64_t* size) {
  *size = 0;
  Cache::Handle* handle = nullptr;
  Status s = rep_->FindTable(file, &handle);
  if (!s.ok()) return s;
  BlockBasedTable* table = static_cast<BlockBasedTable*>(rep_->cache->Value(handle));
  const uint64_t from = table->ApproximateOffsetOf(start);
  const uint64_t to = table->ApproximateOffsetOf(end);
  const uint64_t data_size = table->GetTableProperties()->data_size;
  *size = data_size == 0 || to <= from ? 0 : ScaleToFile(to - from, data_size, file.file_size);
  rep_->cache->Release(handle);
  return Status::OK();
}

void TableCache::Evict(uint64_t file_number) {
  rep_->EraseFile(file_number);
  if (rep_->shared) {
    MutexLock ol(&rep_->opened_mu);
    rep_->opened.erase(file_number);
  }
}

size_t TableCache::NumOpenReaders() const { return rep_->cache->GetUsage(); }

size_t TableCache::ReaderMemoryUsage(uint64_t file_number) const {
  char key_buf[8];
  EncodeFixed64(key_buf, file_number);
  Cache::Handle* handle = rep_->cache->Lookup(Slice(key_buf, sizeof(key_buf)));
  if (handle == nullptr) return 0;
  const size_t usage =
      static_cast<BlockBasedTable*>(rep_->cache->Value(handle))->ApproximateMemoryUsage();
  rep_->cache->Release(handle);
  return usage;
}

}  // namespace strata
