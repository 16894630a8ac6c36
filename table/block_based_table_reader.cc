#include "table/block_based_table_reader.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "base/dbformat.h"
#include "table/block.h"
#include "table/compression.h"
#include "table/filter_policy.h"
#include "table/full_filter_block.h"
#include "table/meta_blocks.h"
#include "util/coding.h"
#include "util/perf_context_imp.h"
#include "util/stop_watch.h"

namespace strata {

namespace {

// Metaindex suffixes under which a full filter readable by the built-in
// Bloom reader may be stored (docs/format/table.md (Metaindex)).
constexpr const char* kAcceptedFilterNames[] = {
    "rocksdb.BuiltinBloomFilter",
    "rocksdb.internal.LegacyBloomFilter",
    "rocksdb.internal.FastLocalBloomFilter",
    "rocksdb.internal.Standard128RibbonFilter",
    "bloomfilter",
    "ribbonfilter",
};

void DeleteCachedBlock(const Slice& /*key*/, void* value) { delete static_cast<Block*>(value); }
void DeleteCachedFilter(const Slice& /*key*/, void* value) {
  delete static_cast<FullFilterBlockReader*>(value);
}

// What a cached block holds, for the per-kind block cache tickers.
enum class BlockKind : uint8_t { kData, kIndex, kFilter };

struct BlockKindTickers {
  Tickers miss, hit, add, bytes_insert;
};
constexpr BlockKindTickers kBlockKindTickers[] = {
    {BLOCK_CACHE_DATA_MISS, BLOCK_CACHE_DATA_HIT, BLOCK_CACHE_DATA_ADD,
     BLOCK_CACHE_DATA_BYTES_INSERT},
    {BLOCK_CACHE_INDEX_MISS, BLOCK_CACHE_INDEX_HIT, BLOCK_CACHE_INDEX_ADD,
     BLOCK_CACHE_INDEX_BYTES_INSERT},
    {BLOCK_CACHE_FILTER_MISS, BLOCK_CACHE_FILTER_HIT, BLOCK_CACHE_FILTER_ADD,
     BLOCK_CACHE_FILTER_BYTES_INSERT},
};

// Counts a block put into the block cache (charge bytes).
void RecordCacheAdd(Statistics* stats, BlockKind kind, size_t charge) {
  if (stats == nullptr) return;
  const BlockKindTickers& t = kBlockKindTickers[static_cast<int>(kind)];
  stats->recordTick(BLOCK_CACHE_ADD, 1);
  stats->recordTick(t.add, 1);
  stats->recordTick(t.bytes_insert, charge);
  stats->recordTick(BLOCK_CACHE_BYTES_WRITE, charge);
}

// A reference to a block that is either owned, borrowed from the reader, or
// pinned in the block cache; releases what it holds.
template <typename T>
class CachableRef {
 public:
  CachableRef() = default;
  CachableRef(const CachableRef&) = delete;
  CachableRef& operator=(const CachableRef&) = delete;
  ~CachableRef() { Reset(); }

  void SetOwned(T* value) {
    Reset();
    value_ = value;
    owned_ = true;
  }
  void SetBorrowed(const T* value) {
    Reset();
    value_ = const_cast<T*>(value);
  }
  void SetCached(Cache* cache, Cache::Handle* handle) {
    Reset();
    cache_ = cache;
    handle_ = handle;
    value_ = static_cast<T*>(cache->Value(handle));
  }
  void Reset() {
    if (handle_ != nullptr) {
      cache_->Release(handle_);
      handle_ = nullptr;
    } else if (owned_) {
      delete value_;
    }
    value_ = nullptr;
    owned_ = false;
  }
  T* get() const { return value_; }
  T* operator->() const { return value_; }
  bool empty() const { return value_ == nullptr; }
  bool cached() const { return handle_ != nullptr; }
  bool owned() const { return owned_; }

  // Hands what this reference holds to c (a cache handle is released, an
  // owned value deleted, by c's cleanup); this reference is left empty.
  // A borrowed value is left alone (it lives as long as the reader).
  void TransferTo(Cleanable* c) {
    if (handle_ != nullptr) {
      c->RegisterCleanup(&ReleaseHandle, cache_, handle_);
      handle_ = nullptr;
    } else if (owned_) {
      c->RegisterCleanup(&DeleteValue, value_, nullptr);
      owned_ = false;
    }
    value_ = nullptr;
  }

 private:
  static void ReleaseHandle(void* cache, void* handle) {
    static_cast<Cache*>(cache)->Release(static_cast<Cache::Handle*>(handle));
  }
  static void DeleteValue(void* value, void* /*unused*/) { delete static_cast<T*>(value); }

  T* value_ = nullptr;
  bool owned_ = false;
  Cache* cache_ = nullptr;
  Cache::Handle* handle_ = nullptr;
};

// Bytes read ahead for an iterator that walks consecutive blocks; grows from
// the initial size to the maximum while the walk goes on.
//
// Fixed mode (ReadOptions::readahead_size): every block not in the buffer
// refills it with `initial` bytes from that block on, sequential or not.
class ReadaheadBuffer {
 public:
  ReadaheadBuffer(size_t initial, size_t max, bool fixed = false)
      : initial_(initial), max_(max), fixed_(fixed), next_size_(initial) {}

  // If [offset, offset + n) is in the buffer, points *result at it.
  bool TryRead(uint64_t offset, size_t n, Slice* result) const {
    if (offset >= buf_offset_ && offset + n <= buf_offset_ + buf_.size()) {
      *result = Slice(buf_.data() + (offset - buf_offset_), n);
      return true;
    }
    return false;
  }

  // Called on every block the iterator needs that was not cached. Returns
  // true when it filled the buffer from `offset` (read-ahead is on).
  Status Fill(const RandomAccessFile* file, uint64_t offset, size_t n, uint64_t file_size,
              bool* filled) {
    *filled = false;
    if (max_ == 0) return Status::OK();
    const bool sequential = fixed_ || offset == last_end_;
    last_end_ = offset + n;
    if (!sequential) {
      run_ = 0;
      next_size_ = initial_;
      return Status::OK();
    }
    if (++run_ < 2 && !fixed_) return Status::OK();  // read ahead from the third block on
    size_t want = std::max(n, next_size_);
    if (offset + want > file_size) want = static_cast<size_t>(file_size - offset);
    if (want < n) return Status::OK();
    buf_.resize(want);
    Slice result;
    Status s = file->Read(offset, want, &result, buf_.data());
    if (!s.ok()) return s;
    if (result.data() != buf_.data()) std::memmove(buf_.data(), result.data(), result.size());
    buf_.resize(result.size());
    buf_offset_ = offset;
    next_size_ = std::min(max_, next_size_ * 2);
    *filled = result.size() >= n;
    return Status::OK();
  }

 private:
  const size_t initial_;
  const size_t max_;
  const bool fixed_;
  size_t next_size_;
  int run_ = 0;
  uint64_t last_end_ = ~0ull;
  std::string buf_;
  uint64_t buf_offset_ = 0;
};

}  // namespace

struct BlockBasedTable::Rep {
  Rep(const TableReaderOptions& opts, std::unique_ptr<RandomAccessFile>&& f, uint64_t size)
      : options(opts),
        table_options(options.table_options),
        user_cmp(opts.user_comparator),
        icmp(opts.user_comparator),
        file(std::move(f)),
        file_size(size),
        statistics(opts.statistics),
        clock(SystemClock::Default().get()) {
    if (!table_options.no_block_cache) block_cache = table_options.block_cache.get();
    if (block_cache != nullptr) allocator = block_cache->memory_allocator();
  }

  const TableReaderOptions options;
  const BlockBasedTableOptions& table_options;
  const Comparator* user_cmp;
  InternalKeyComparator icmp;
  std::unique_ptr<RandomAccessFile> file;
  const uint64_t file_size;
  Statistics* statistics;
  // For SST_READ_MICROS and the decompression timers (the process clock).
  SystemClock* const clock;

  Footer footer;
  std::shared_ptr<TableProperties> props;
  bool index_key_is_user_key = false;
  bool index_value_delta_encoded = false;
  // kTwoLevelIndexSearch: the footer's index handle is the top-level index,
  // whose entries point at index partitions (read on demand through the
  // block cache). partitioned_filter: filter_handle is the top-level filter
  // index, whose entries point at filter partitions.
  bool partitioned_index = false;
  bool partitioned_filter = false;
  const Comparator* index_cmp = nullptr;

  BlockHandle metaindex_handle;
  BlockHandle filter_handle;
  bool has_filter = false;
  // What the filter holds (from the properties): whole keys, and prefixes of
  // `prefix_extractor` (non-null only when the file's recorded extractor is
  // the configured one).
  bool filter_whole_keys = true;
  const SliceTransform* prefix_extractor = nullptr;
  // How Get consults the filter, decided at Open.
  enum class FilterUse : uint8_t { kNone, kWholeKey, kPrefix };
  FilterUse filter_use = FilterUse::kNone;
  BlockHandle range_del_handle;
  bool has_range_del = false;
  BlockHandle properties_handle;
  // An external file's global sequence number (has_global_seqno: non-zero,
  // applied to every key read) and the file offset of its property value.
  bool has_global_seqno = false;
  SequenceNumber global_seqno = 0;
  uint64_t global_seqno_offset = 0;
  BlockHandle compression_dict_handle;
  bool has_compression_dict = false;
  // From the compression_name property: the blocks are ZSTD (a dictionary
  // is then digested for zstd).
  bool uses_zstd = false;
  // The table's compression dictionary (null: none), loaded at Open, and
  // the end of the data blocks: blocks starting before data_end are data
  // blocks, the only ones compressed with the dictionary.
  std::unique_ptr<UncompressionDict> dict;
  uint64_t data_end = 0;

  // Held by the reader unless cache_index_and_filter_blocks.
  std::unique_ptr<Block> index_block;
  // For a held index of user keys under the bytewise comparator with one
  // entry per restart point: each separator's first 8 bytes, big-endian and
  // zero padded. Index searches run over this dense array (a few cache
  // lines) instead of over the block's scattered entries.
  std::vector<uint64_t> index_prefixes;
  std::unique_ptr<FullFilterBlockReader> filter;
  // Partitioned filter, held unless cache_index_and_filter_blocks: the
  // top-level filter index.
  std::unique_ptr<Block> filter_index_block;
  // With cache_index_and_filter_blocks and pinning: handles held open.
  Cache::Handle* pinned_index = nullptr;
  Cache::Handle* pinned_filter = nullptr;
  // Level-0 tables with pin_l0_filter_and_index_blocks_in_cache and a
  // partitioned index: every index and filter partition, held in the cache.
  std::vector<Cache::Handle*> pinned_partitions;
  // Loads every partition listed in `top` (an index or filter index) into
  // the block cache and pins it.
  Status PinPartitions(const ReadOptions& ro, const Block& top, bool filter);

  Cache* block_cache = nullptr;
  // The block cache's allocator (null: the heap): every block buffer this
  // reader reads or uncompresses into comes from it (strata/memory_allocator.h);
  // the cache, which the table options keep alive, holds it.
  MemoryAllocator* allocator = nullptr;
  // The reader's memory charged to the block cache (issue 19); null if not.
  std::unique_ptr<ConcurrentCacheReservationManager::Handle> charge;
  // Block cache keys: prefix (fixed64 cache id) | varint64 block offset.
  char cache_prefix[8];

  // The file is memory-mapped (its reads return views into the mapping):
  // uncompressed data blocks are then used in place, and a bit per 64-byte
  // granule of the file records which blocks' checksums were verified
  // (blocks of at least 64 bytes start in distinct granules; smaller ones
  // are verified on every read).
  bool mmap_file = false;
  Slice mapped;  // the whole file when mmap_file
  std::unique_ptr<std::atomic<uint64_t>[]> verified;

  bool IsVerified(uint64_t offset) const {
    const uint64_t g = offset >> 6;
    return (verified[g >> 6].load(std::memory_order_relaxed) >> (g & 63)) & 1;
  }
  void SetVerified(uint64_t offset) const {
    const uint64_t g = offset >> 6;
    verified[g >> 6].fetch_or(uint64_t{1} << (g & 63), std::memory_order_relaxed);
  }

  // The mmap path of RetrieveBlock: true if it produced *out (an
  // uncompressed block used in place); false to take the copying path.
  bool RetrieveMappedBlock(const ReadOptions& ro, const BlockHandle& handle,
                           CachableRef<Block>* out, Status* s) const;

  std::string Context(uint64_t offset) const {
    return options.file_name + ": block at offset " + std::to_string(offset);
  }

  size_t CacheKey(uint64_t offset, char* buf) const {
    std::memcpy(buf, cache_prefix, sizeof(cache_prefix));
    char* end = EncodeVarint64(buf + sizeof(cache_prefix), offset);
    return static_cast<size_t>(end - buf);
  }

  // Reads a block's stored bytes plus trailer, verifies, and uncompresses
  // into *contents. `readahead` may serve or prefetch the bytes.
  // Open's steps, in order: the footer; the metaindex and the properties
  // block (which meta blocks exist, where); the properties checked and
  // applied (index shape, filter use, comparator); the index and filter
  // blocks loaded (held here or put in the block cache).
  Status ReadFooter(const std::string& fname, uint64_t file_size);
  Status ReadMetaBlocks(const TableReaderOptions& options);
  // The properties block's contents, checksum verified. Ingestion writes
  // an external file's global sequence number into the block in place and
  // leaves the trailer alone (RocksDB does the same), so a mismatch is
  // checked again with that value zeroed.
  Status ReadPropertiesBlock(std::string* contents) const;
  // Decides global_seqno from the properties (RocksDB's rules).
  Status SetGlobalSeqno(const TableReaderOptions& options);
  Status ApplyProperties(const TableReaderOptions& options, uint64_t file_size);
  Status LoadIndexAndFilter(const TableReaderOptions& options);
  // Reads and digests the compression dictionary, when the table has one.
  Status LoadCompressionDict();

  Status ReadBlock(const BlockHandle& handle, bool verify, bool uncompress, BlockBuffer* contents,
                   ReadaheadBuffer* readahead) const;
  // The same into a string (one more copy: for blocks read once, at open
  // or by tools).
  Status ReadBlock(const BlockHandle& handle, bool verify, bool uncompress, std::string* contents,
                   ReadaheadBuffer* readahead) const;

  // The uncompressed block at handle, through the block cache when there is
  // one (fill_cache decides whether a miss is inserted).
  // read_hist: the histogram a block read (not a cache hit) is timed into,
  // or HISTOGRAM_ENUM_MAX for none.
  // index_partition: the block is an index partition or the filter index
  // (counted as index/filter, not data).
  Status RetrieveBlock(const ReadOptions& ro, const BlockHandle& handle, Cache::Priority pri,
                       CachableRef<Block>* out, ReadaheadBuffer* readahead,
                       uint32_t read_hist = HISTOGRAM_ENUM_MAX,
                       BlockKind kind_override = BlockKind::kData) const;
  // An index partition or the top-level filter index, through the block
  // cache (always filled).
  Status GetMetaPartition(const ReadOptions& ro, const BlockHandle& handle, BlockKind kind,
                          CachableRef<Block>* out) const;
  // The filter that covers user_key: the whole filter, or with partitioned
  // filters the partition the top-level filter index points at. Empty when
  // there is none to use (not an error).
  Status GetFilterFor(const ReadOptions& ro, const Slice& user_key,
                      CachableRef<FullFilterBlockReader>* out) const;
  // A filter partition by handle (block cache key = its offset).
  Status GetFilterPartition(const ReadOptions& ro, const BlockHandle& handle,
                            CachableRef<FullFilterBlockReader>* out) const;
  Cache::Priority MetaPriority() const {
    return table_options.cache_index_and_filter_blocks_with_high_priority ? Cache::Priority::kHigh
                                                                          : Cache::Priority::kLow;
  }

  Status GetIndexBlock(const ReadOptions& ro, CachableRef<Block>* out) const;

  // MultiGet's PinValue: the block stays shared with the batch's next keys,
  // so a cached block is pinned by a handle of the slice's own (a second
  // lookup), and an owned one is copied from.
  void PinSharedValue(GetContext* ctx, const CachableRef<Block>& block, uint64_t offset) const {
    const char* p = ctx->pinnable()->data();
    if (mmap_file && p >= mapped.data() && p < mapped.data() + mapped.size()) return;
    if (block.cached()) {
      char key_buf[sizeof(cache_prefix) + kMaxVarint64Length];
      Cache::Handle* h = block_cache->Lookup(Slice(key_buf, CacheKey(offset, key_buf)));
      if (h != nullptr) {
        ctx->pinnable()->RegisterCleanup(&ReleaseCacheHandle, block_cache, h);
        ctx->PinDone();
        return;
      }
    }
    ctx->PinByCopy();
  }
  static void ReleaseCacheHandle(void* cache, void* handle) {
    static_cast<Cache*>(cache)->Release(static_cast<Cache::Handle*>(handle));
  }

  // Get found a value to pin (ctx->pin_pending()) in `block`: a value in
  // the file's mapping is left pending for the table cache (the reader
  // keeps the mapping); otherwise the slice takes over the block (its
  // cache handle, or the block itself when owned).
  void PinValue(GetContext* ctx, CachableRef<Block>* block) const {
    const char* p = ctx->pinnable()->data();
    if (mmap_file && p >= mapped.data() && p < mapped.data() + mapped.size()) return;
    if (block->cached() || block->owned()) {
      block->TransferTo(ctx->pinnable());
      ctx->PinDone();
    } else {
      ctx->PinByCopy();
    }
  }

  // Looks the block at offset up in the block cache (counting the hit or
  // miss). On a hit *out holds it; *key is the cache key either way
  // (pointing into key_buf).
  template <typename T>
  bool LookupCached(uint64_t offset, BlockKind kind, char* key_buf, Slice* key,
                    CachableRef<T>* out) const {
    *key = Slice(key_buf, CacheKey(offset, key_buf));
    Cache::Handle* h = block_cache->Lookup(*key);
    const BlockKindTickers& t = kBlockKindTickers[static_cast<int>(kind)];
    if (h == nullptr) {
      RecordTick(statistics, BLOCK_CACHE_MISS);
      RecordTick(statistics, t.miss);
      return false;
    }
    RecordTick(statistics, BLOCK_CACHE_HIT);
    RecordTick(statistics, t.hit);
    PERF_COUNTER_ADD(block_cache_hit_count, 1);
    if (kind == BlockKind::kIndex) PERF_COUNTER_ADD(block_cache_index_hit_count, 1);
    if (kind == BlockKind::kFilter) PERF_COUNTER_ADD(block_cache_filter_hit_count, 1);
    out->SetCached(block_cache, h);
    if constexpr (std::is_same_v<T, Block>) {
      RecordTick(statistics, BLOCK_CACHE_BYTES_READ, out->get()->size() + sizeof(Block));
    }
    return true;
  }

  // Positions iter (over the index) at the first separator >= target (a
  // user key or internal key as the index stores them).
  void IndexSeek(BlockIter* iter, const Slice& target, const Block* index) const {
    if (index_prefixes.empty() || index != index_block.get()) {
      iter->Seek(target);
      return;
    }
    const uint64_t t = KeyPrefix(target);
    size_t i = static_cast<size_t>(
        std::lower_bound(index_prefixes.begin(), index_prefixes.end(), t) - index_prefixes.begin());
    if (i == index_prefixes.size()) {
      iter->SeekToRestart(static_cast<uint32_t>(i - 1));
      if (iter->Valid()) iter->Next();  // past the last entry: invalid
      return;
    }
    iter->SeekToRestart(static_cast<uint32_t>(i));
    // Equal prefixes need the full comparison; the rest is decided.
    while (iter->Valid() && index_prefixes[i] == t && user_cmp->Compare(iter->key(), target) < 0) {
      iter->Next();
      ++i;
      if (i == index_prefixes.size()) break;
    }
  }

  static uint64_t KeyPrefix(const Slice& key) {
    uint64_t v = 0;
    const size_t n = std::min<size_t>(8, key.size());
    for (size_t j = 0; j < n; ++j)
      v |= static_cast<uint64_t>(static_cast<uint8_t>(key[j])) << (56 - 8 * j);
    return v;
  }
  Status GetFilter(const ReadOptions& ro, CachableRef<FullFilterBlockReader>* out) const;

  ~Rep() {
    if (pinned_index != nullptr) block_cache->Release(pinned_index);
    if (pinned_filter != nullptr) block_cache->Release(pinned_filter);
    for (Cache::Handle* h : pinned_partitions) block_cache->Release(h);
  }
};

namespace {

// Whether a block of `size` bytes plus its trailer at `offset` lies inside a
// file of file_size bytes (written so that no sum can wrap around: the
// sizes come from the file and may be anything).
bool HandleFits(uint64_t offset, uint64_t size, uint64_t file_size) {
  return offset <= file_size && size <= file_size - offset &&
         file_size - offset - size >= kBlockTrailerSize;
}

}  // namespace

Status BlockBasedTable::Rep::ReadBlock(const BlockHandle& handle, bool verify, bool uncompress,
                                       BlockBuffer* contents, ReadaheadBuffer* readahead) const {
  const uint64_t offset = handle.offset();
  const uint64_t size = handle.size();
  if (!HandleFits(offset, size, file_size)) {
    return Status::Corruption(options.file_name + ": block handle (offset " +
                              std::to_string(offset) + ", size " + std::to_string(size) +
                              ") outside the file of " + std::to_string(file_size) + " bytes");
  }
  const size_t n = static_cast<size_t>(size) + kBlockTrailerSize;
  Slice raw;
  BlockBuffer scratch;
  scratch.SetAllocator(allocator);
  contents->SetAllocator(allocator);
  bool from_buffer = false;
  if (readahead != nullptr) {
    from_buffer = readahead->TryRead(offset, n, &raw);
    if (!from_buffer) {
      bool filled = false;
      Status s = readahead->Fill(file.get(), offset, n, file_size, &filled);
      if (!s.ok()) return Status::IOError(options.file_name + ": " + s.ToString());
      if (filled) from_buffer = readahead->TryRead(offset, n, &raw);
    }
  }
  PERF_TIMER_GUARD(block_read_time);
  if (!from_buffer) {
    scratch.Allocate(n);
    StopWatch sw(clock, statistics, SST_READ_MICROS);
    Status s = file->Read(offset, n, &raw, scratch.data());
    if (!s.ok()) return s;
  }
  PERF_COUNTER_ADD(block_read_count, 1);
  PERF_COUNTER_ADD(block_read_byte, n);
  if (raw.size() != n) {
    return Status::Corruption(options.file_name + ": truncated block read at offset " +
                              std::to_string(offset) + " (wanted " + std::to_string(n) +
                              " bytes, got " + std::to_string(raw.size()) + ")");
  }
  if (verify) {
    PERF_TIMER_GUARD(block_checksum_time);
    RecordTick(statistics, BLOCK_CHECKSUM_COMPUTE_COUNT);
    // The context text is built only for a mismatch.
    if (!BlockChecksumMatches(footer.checksum_type(), raw.data(), static_cast<size_t>(size),
                              footer.ContextModifier(offset))) {
      return VerifyBlockChecksum(footer.checksum_type(), raw.data(), static_cast<size_t>(size),
                                 Context(offset), footer.ContextModifier(offset));
    }
  }
  PERF_TIMER_STOP(block_read_time);
  const auto type = static_cast<CompressionType>(static_cast<unsigned char>(raw[size]));
  if (type == kNoCompression || !uncompress) {
    if (!from_buffer && raw.data() == scratch.data()) {
      scratch.Truncate(static_cast<size_t>(size));
      *contents = std::move(scratch);
    } else {
      contents->Allocate(static_cast<size_t>(size));
      if (size != 0) std::memcpy(contents->data(), raw.data(), static_cast<size_t>(size));
    }
    return Status::OK();
  }
  Status s;
  {
    PERF_TIMER_GUARD(block_decompress_time);
    const bool timed = DetailedTimersEnabled(statistics);
    const uint64_t start = timed ? clock->NowNanos() : 0;
    const UncompressionDict* d = offset < data_end ? dict.get() : nullptr;
    s = UncompressBlock(type, Slice(raw.data(), static_cast<size_t>(size)), contents, d);
    if (timed) {
      statistics->reportTimeToHistogram(DECOMPRESSION_TIMES_NANOS, clock->NowNanos() - start);
    }
  }
  if (!s.ok()) {
    return Status::Corruption(Context(offset) + ": " + s.ToString());
  }
  RecordTick(statistics, NUMBER_BLOCK_DECOMPRESSED);
  RecordInHistogram(statistics, BYTES_DECOMPRESSED, contents->size());
  return Status::OK();
}

Status BlockBasedTable::Rep::ReadBlock(const BlockHandle& handle, bool verify, bool uncompress,
                                       std::string* contents, ReadaheadBuffer* readahead) const {
  BlockBuffer buf;
  Status s = ReadBlock(handle, verify, uncompress, &buf, readahead);
  if (s.ok()) contents->assign(buf.data(), buf.size());
  return s;
}

bool BlockBasedTable::Rep::RetrieveMappedBlock(const ReadOptions& ro, const BlockHandle& handle,
                                               CachableRef<Block>* out, Status* s) const {
  const uint64_t offset = handle.offset();
  const uint64_t size = handle.size();
  if (!HandleFits(offset, size, file_size)) return false;
  const size_t n = static_cast<size_t>(size) + kBlockTrailerSize;
  if (offset + n > mapped.size()) return false;
  const Slice raw(mapped.data() + offset, n);
  if (static_cast<unsigned char>(raw[size]) != kNoCompression) return false;
  if (ro.verify_checksums) {
    const bool trackable = n >= 64;
    if (!trackable || !IsVerified(offset)) {
      PERF_TIMER_GUARD(block_checksum_time);
      RecordTick(statistics, BLOCK_CHECKSUM_COMPUTE_COUNT);
      if (!BlockChecksumMatches(footer.checksum_type(), raw.data(), static_cast<size_t>(size),
                                footer.ContextModifier(offset))) {
        *s = VerifyBlockChecksum(footer.checksum_type(), raw.data(), static_cast<size_t>(size),
                                 Context(offset), footer.ContextModifier(offset));
        return true;
      }
      if (trackable) SetVerified(offset);
    }
  }
  auto* block = new Block(Slice(raw.data(), static_cast<size_t>(size)));
  if (!block->ok()) {
    delete block;
    *s = Status::Corruption(Context(offset) + ": bad block contents");
    return true;
  }
  PERF_COUNTER_ADD(block_read_count, 1);
  PERF_COUNTER_ADD(block_read_byte, n);
  out->SetOwned(block);
  *s = Status::OK();
  return true;
}

Status BlockBasedTable::Rep::RetrieveBlock(const ReadOptions& ro, const BlockHandle& handle,
                                           Cache::Priority pri, CachableRef<Block>* out,
                                           ReadaheadBuffer* readahead, uint32_t read_hist,
                                           BlockKind kind_override) const {
  // A mapped block is a read of the file too (it may fault pages in): with
  // kBlockCacheTier only the block cache is consulted, as in RocksDB.
  if (mmap_file && ro.read_tier != kBlockCacheTier) {
    Status s;
    if (RetrieveMappedBlock(ro, handle, out, &s)) return s;
  }
  const BlockKind kind = kind_override != BlockKind::kData                   ? kind_override
                         : handle.offset() == footer.index_handle().offset() ? BlockKind::kIndex
                                                                             : BlockKind::kData;
  char key_buf[sizeof(cache_prefix) + kMaxVarint64Length];
  Slice key;
  if (block_cache != nullptr && LookupCached(handle.offset(), kind, key_buf, &key, out)) {
    return Status::OK();
  }
  if (ro.read_tier == kBlockCacheTier) {
    // RocksDB's answer: the block is not in the cache and no I/O may be done.
    return Status::Incomplete("no blocking io", Context(handle.offset()));
  }
  if (kind == BlockKind::kIndex) PERF_COUNTER_ADD(index_block_read_count, 1);
  BlockBuffer contents;
  Status s;
  {
    if (options.for_compaction) read_hist = READ_BLOCK_COMPACTION_MICROS;
    StopWatch sw(clock, read_hist < HISTOGRAM_ENUM_MAX ? statistics : nullptr, read_hist);
    s = ReadBlock(handle, ro.verify_checksums, true, &contents, readahead);
  }
  if (!s.ok()) return s;
  auto* block = new Block(std::move(contents));
  if (!block->ok()) {
    delete block;
    return Status::Corruption(Context(handle.offset()) + ": bad block contents");
  }
  if (block_cache != nullptr && ro.fill_cache) {
    Cache::Handle* h = nullptr;
    const size_t charge = block->ApproximateMemoryUsage();
    s = block_cache->Insert(key, block, charge, &DeleteCachedBlock, &h, pri);
    if (s.ok()) {
      RecordCacheAdd(statistics, kind, charge);
      out->SetCached(block_cache, h);
      return Status::OK();
    }
    // Full under a strict limit: the cache already freed the block; read
    // it again for this caller alone.
    RecordTick(statistics, BLOCK_CACHE_ADD_FAILURES);
    s = ReadBlock(handle, ro.verify_checksums, true, &contents, readahead);
    if (!s.ok()) return s;
    block = new Block(std::move(contents));
  }
  out->SetOwned(block);
  return Status::OK();
}

Status BlockBasedTable::Rep::GetIndexBlock(const ReadOptions& ro, CachableRef<Block>* out) const {
  if (index_block != nullptr) {
    out->SetBorrowed(index_block.get());
    return Status::OK();
  }
  if (pinned_index != nullptr) {
    out->SetBorrowed(static_cast<Block*>(block_cache->Value(pinned_index)));
    return Status::OK();
  }
  const Cache::Priority pri = table_options.cache_index_and_filter_blocks_with_high_priority
                                  ? Cache::Priority::kHigh
                                  : Cache::Priority::kLow;
  ReadOptions index_ro = ro;
  index_ro.fill_cache = true;
  return RetrieveBlock(index_ro, footer.index_handle(), pri, out, nullptr);
}

Status BlockBasedTable::Rep::GetMetaPartition(const ReadOptions& ro, const BlockHandle& handle,
                                              BlockKind kind, CachableRef<Block>* out) const {
  ReadOptions meta_ro = ro;
  meta_ro.fill_cache = true;
  return RetrieveBlock(meta_ro, handle, MetaPriority(), out, nullptr, HISTOGRAM_ENUM_MAX, kind);
}

Status BlockBasedTable::Rep::GetFilterFor(const ReadOptions& ro, const Slice& user_key,
                                          CachableRef<FullFilterBlockReader>* out) const {
  if (!partitioned_filter) return GetFilter(ro, out);
  if (!has_filter) return Status::OK();
  CachableRef<Block> top;
  if (filter_index_block != nullptr) {
    top.SetBorrowed(filter_index_block.get());
  } else if (pinned_filter != nullptr) {
    top.SetBorrowed(static_cast<Block*>(block_cache->Value(pinned_filter)));
  } else {
    Status s = GetMetaPartition(ro, filter_handle, BlockKind::kFilter, &top);
    if (s.IsIncomplete()) return Status::OK();  // no I/O allowed: go on without
    if (!s.ok()) return s;
  }
  BlockIter it;
  top->InitIndexIterator(index_cmp, index_value_delta_encoded, &it);
  if (index_key_is_user_key) {
    it.Seek(user_key);
  } else {
    std::string ikey;
    AppendInternalKey(&ikey, user_key, kMaxSequenceNumber, kValueTypeForSeek);
    it.Seek(ikey);
  }
  // Past every partition's key: only the last partition can hold the key's
  // prefix (RocksDB looks there too).
  if (!it.Valid() && it.status().ok()) it.SeekToLast();
  if (!it.Valid()) {
    if (it.status().ok()) return Status::OK();
    return Status::Corruption(Context(filter_handle.offset()) +
                              ": filter index: " + it.status().ToString());
  }
  return GetFilterPartition(ro, it.handle(), out);
}

Status BlockBasedTable::Rep::GetFilterPartition(const ReadOptions& ro, const BlockHandle& handle,
                                                CachableRef<FullFilterBlockReader>* out) const {
  char key_buf[sizeof(cache_prefix) + kMaxVarint64Length];
  Slice key;
  if (block_cache != nullptr &&
      LookupCached(handle.offset(), BlockKind::kFilter, key_buf, &key, out)) {
    return Status::OK();
  }
  if (ro.read_tier == kBlockCacheTier) return Status::OK();
  PERF_COUNTER_ADD(filter_block_read_count, 1);
  BlockBuffer contents;  // from the cache's allocator
  Status s = ReadBlock(handle, ro.verify_checksums, false, &contents, nullptr);
  if (!s.ok()) return s;
  const size_t charge = contents.size() + sizeof(FullFilterBlockReader);
  auto* reader = new FullFilterBlockReader(std::move(contents));
  if (block_cache != nullptr) {
    Cache::Handle* h = nullptr;
    s = block_cache->Insert(key, reader, charge, &DeleteCachedFilter, &h, MetaPriority());
    if (s.ok()) {
      RecordCacheAdd(statistics, BlockKind::kFilter, charge);
      out->SetCached(block_cache, h);
      return Status::OK();
    }
    return Status::OK();  // no room (the cache freed it): go on without the filter
  }
  out->SetOwned(reader);
  return Status::OK();
}

Status BlockBasedTable::Rep::PinPartitions(const ReadOptions& ro, const Block& top, bool filter) {
  BlockIter it;
  top.InitIndexIterator(index_cmp, index_value_delta_encoded, &it);
  char key_buf[sizeof(cache_prefix) + kMaxVarint64Length];
  for (it.SeekToFirst(); it.Valid(); it.Next()) {
    const BlockHandle h = it.handle();
    // Looked up again while the first reference still holds the entry (a
    // small cache would drop it as soon as that one is released).
    CachableRef<FullFilterBlockReader> filter_part;
    CachableRef<Block> index_part;
    Status s = filter ? GetFilterPartition(ro, h, &filter_part)
                      : GetMetaPartition(ro, h, BlockKind::kIndex, &index_part);
    if (!s.ok()) return s;
    Cache::Handle* handle = block_cache->Lookup(Slice(key_buf, CacheKey(h.offset(), key_buf)));
    if (handle != nullptr) pinned_partitions.push_back(handle);
  }
  if (!it.status().ok()) {
    return Status::Corruption(
        Context(filter ? filter_handle.offset() : footer.index_handle().offset()) +
        ": top-level index: " + it.status().ToString());
  }
  return Status::OK();
}

Status BlockBasedTable::Rep::GetFilter(const ReadOptions& ro,
                                       CachableRef<FullFilterBlockReader>* out) const {
  if (!has_filter || partitioned_filter) return Status::OK();
  if (filter != nullptr) {
    out->SetBorrowed(filter.get());
    return Status::OK();
  }
  if (pinned_filter != nullptr) {
    out->SetBorrowed(static_cast<FullFilterBlockReader*>(block_cache->Value(pinned_filter)));
    return Status::OK();
  }
  if (block_cache == nullptr) return Status::OK();
  char key_buf[sizeof(cache_prefix) + kMaxVarint64Length];
  Slice key;
  if (LookupCached(filter_handle.offset(), BlockKind::kFilter, key_buf, &key, out)) {
    return Status::OK();
  }
  // Without I/O the lookup goes on without the filter.
  if (ro.read_tier == kBlockCacheTier) return Status::OK();
  PERF_COUNTER_ADD(filter_block_read_count, 1);
  BlockBuffer contents;  // from the cache's allocator
  Status s = ReadBlock(filter_handle, ro.verify_checksums, false, &contents, nullptr);
  if (!s.ok()) return s;
  const size_t charge = contents.size() + sizeof(FullFilterBlockReader);
  auto* reader = new FullFilterBlockReader(std::move(contents));
  const Cache::Priority pri = table_options.cache_index_and_filter_blocks_with_high_priority
                                  ? Cache::Priority::kHigh
                                  : Cache::Priority::kLow;
  Cache::Handle* h = nullptr;
  s = block_cache->Insert(key, reader, charge, &DeleteCachedFilter, &h, pri);
  if (!s.ok()) return Status::OK();  // no room: lookups go on without the filter
  RecordCacheAdd(statistics, BlockKind::kFilter, charge);
  out->SetCached(block_cache, h);
  return Status::OK();
}

// ---------------------------------------------------------------------------

namespace {

// Walks the index entries (separator, data block handle) of a table: the
// one index block, or with a partitioned index the entries of every
// partition in order, loading partitions as it goes. The interface of the
// BlockIter it replaces; a template only to reach the private Rep.
template <typename RepT>
class IndexCursor {
 public:
  IndexCursor() = default;
  IndexCursor(const IndexCursor&) = delete;
  IndexCursor& operator=(const IndexCursor&) = delete;

  // Gets the (top-level) index block. REQUIRES: called once, first.
  Status Init(const RepT* r, const ReadOptions& ro) {
    r_ = r;
    ro_ = ro;
    status_ = r->GetIndexBlock(ro, &top_);
    if (status_.ok()) top_->InitIndexIterator(r->index_cmp, r->index_value_delta_encoded, &top_it_);
    return status_;
  }

  bool Valid() const {
    return r_->partitioned_index ? part_valid_ && part_it_.Valid() : top_it_.Valid();
  }
  Slice key() const { return r_->partitioned_index ? part_it_.key() : top_it_.key(); }
  BlockHandle handle() const {
    return r_->partitioned_index ? part_it_.handle() : top_it_.handle();
  }
  // The first error: loading a partition, or a damaged index block.
  Status status() const {
    if (!status_.ok()) return status_;
    if (!top_it_.status().ok()) {
      return Status::Corruption(r_->Context(r_->footer.index_handle().offset()) +
                                ": index: " + top_it_.status().ToString());
    }
    if (part_valid_ && !part_it_.status().ok()) {
      return Status::Corruption(r_->Context(part_offset_) +
                                ": index partition: " + part_it_.status().ToString());
    }
    return Status::OK();
  }

  // At the first entry >= target (a user key or internal key, as the index
  // stores them).
  void Seek(const Slice& target) {
    r_->IndexSeek(&top_it_, target, top_.get());
    if (!r_->partitioned_index) return;
    if (!LoadPartition()) return;
    part_it_.Seek(target);
    SkipForward();
  }
  void SeekToFirst() {
    top_it_.SeekToFirst();
    if (!r_->partitioned_index) return;
    if (!LoadPartition()) return;
    part_it_.SeekToFirst();
    SkipForward();
  }
  void SeekToLast() {
    top_it_.SeekToLast();
    if (!r_->partitioned_index) return;
    if (!LoadPartition()) return;
    part_it_.SeekToLast();
    SkipBackward();
  }
  void Next() {
    if (!r_->partitioned_index) {
      top_it_.Next();
      return;
    }
    part_it_.Next();
    SkipForward();
  }
  void Prev() {
    if (!r_->partitioned_index) {
      top_it_.Prev();
      return;
    }
    part_it_.Prev();
    SkipBackward();
  }

 private:
  // Points part_it_ at the partition top_it_ is on. False when there is
  // none (end, or an error in status_/top_it_).
  bool LoadPartition() {
    part_valid_ = false;
    if (!status_.ok() || !top_it_.Valid()) return false;
    const BlockHandle h = top_it_.handle();
    if (part_.empty() || h.offset() != part_offset_) {
      part_.Reset();
      status_ = r_->GetMetaPartition(ro_, h, BlockKind::kIndex, &part_);
      if (!status_.ok()) return false;
      part_offset_ = h.offset();
      if (!part_->ok()) {
        status_ = Status::Corruption(r_->Context(h.offset()) + ": bad index partition");
        part_.Reset();
        return false;
      }
    }
    part_->InitIndexIterator(r_->index_cmp, r_->index_value_delta_encoded, &part_it_);
    part_valid_ = true;
    return true;
  }
  void SkipForward() {
    while (part_valid_ && !part_it_.Valid() && part_it_.status().ok()) {
      top_it_.Next();
      if (!LoadPartition()) return;
      part_it_.SeekToFirst();
    }
  }
  void SkipBackward() {
    while (part_valid_ && !part_it_.Valid() && part_it_.status().ok()) {
      top_it_.Prev();
      if (!LoadPartition()) return;
      part_it_.SeekToLast();
    }
  }

  const RepT* r_ = nullptr;
  ReadOptions ro_;
  Status status_;
  CachableRef<Block> top_;
  BlockIter top_it_;
  CachableRef<Block> part_;
  uint64_t part_offset_ = 0;
  BlockIter part_it_;
  bool part_valid_ = false;
};

}  // namespace

BlockBasedTable::BlockBasedTable(Rep* rep) : rep_(rep) {}
BlockBasedTable::~BlockBasedTable() { delete rep_; }

Status BlockBasedTable::Rep::ReadFooter(const std::string& fname, uint64_t file_size) {
  if (file_size < Footer::kLegacyFooterLength) {
    return Status::Corruption(fname + ": file is too short (" + std::to_string(file_size) +
                              " bytes) to be an sstable");
  }
  {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(file_size, Footer::kNewFooterLength));
    char buf[Footer::kNewFooterLength];
    Slice result;
    Status s = file->Read(file_size - n, n, &result, buf);
    if (!s.ok()) return s;
    if (result.size() != n) {
      return Status::Corruption(fname + ": short read of the footer at offset " +
                                std::to_string(file_size - n));
    }
    mapped = file->mapped_contents();
    mmap_file = mapped.size() >= file_size && file_size > 0;
    s = footer.DecodeFrom(result, file_size - n);
    if (s.IsNotSupported()) {
      return Status::NotSupported(fname + ": footer at offset " + std::to_string(file_size - n) +
                                  ": " + s.getState());
    }
    if (!s.ok()) {
      return Status::Corruption(fname + ": footer at offset " + std::to_string(file_size - n) +
                                ": " + s.ToString());
    }
  }

  return Status::OK();
}

Status BlockBasedTable::Rep::ReadMetaBlocks(const TableReaderOptions& options) {
  BlockBuffer meta_contents;
  Status s = ReadBlock(footer.metaindex_handle(), true, true, &meta_contents, nullptr);
  if (!s.ok()) return s;
  Block meta(std::move(meta_contents));
  if (!meta.ok()) {
    return Status::Corruption(Context(footer.metaindex_handle().offset()) +
                              ": bad metaindex block");
  }
  {
    std::unique_ptr<BlockIter> it(meta.NewIterator(BytewiseComparator()));
    bool have_props = false;
    // Before format_version 6 the footer holds the index handle.
    bool have_index = !FormatVersionUsesContextChecksum(footer.format_version());
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const Slice name = it->key();
      Slice v = it->value();
      BlockHandle h;
      if (!h.DecodeFrom(&v).ok()) {
        return Status::Corruption(Context(footer.metaindex_handle().offset()) +
                                  ": bad handle for meta block " + name.ToString());
      }
      if (name == Slice(kPropertiesBlockName) ||
          (!have_props && name == Slice(kPropertiesBlockOldName))) {
        properties_handle = h;
        have_props = true;
      } else if (name == Slice(kRangeDelBlockName)) {
        range_del_handle = h;
        has_range_del = true;
      } else if (name == Slice(kCompressionDictBlockName)) {
        compression_dict_handle = h;
        has_compression_dict = true;
      } else if (name == Slice(kIndexBlockName) &&
                 FormatVersionUsesContextChecksum(footer.format_version())) {
        footer.set_index_handle(h);
        have_index = true;
      } else if ((name.starts_with(kFullFilterBlockPrefix) ||
                  name.starts_with(kPartitionedFilterBlockPrefix)) &&
                 !options.skip_filters && table_options.filter_policy != nullptr) {
        const bool partitioned = name.starts_with(kPartitionedFilterBlockPrefix);
        Slice suffix = name;
        suffix.remove_prefix(
            std::strlen(partitioned ? kPartitionedFilterBlockPrefix : kFullFilterBlockPrefix));
        for (const char* accepted : kAcceptedFilterNames) {
          if (suffix == Slice(accepted)) {
            filter_handle = h;
            has_filter = true;
            partitioned_filter = partitioned;
          }
        }
      }
    }
    if (!it->status().ok()) {
      return Status::Corruption(Context(footer.metaindex_handle().offset()) + ": " +
                                it->status().ToString());
    }
    if (!have_index) {
      return Status::Corruption(
          Context(footer.metaindex_handle().offset()) + ": metaindex has no " + kIndexBlockName +
          " entry (format_version " + std::to_string(footer.format_version()) + ")");
    }
    props = std::make_shared<TableProperties>();
    if (have_props) {
      std::string props_contents;
      s = ReadPropertiesBlock(&props_contents);
      if (!s.ok()) return s;
      s = DecodePropertiesBlock(props_contents, props.get());
      if (!s.ok()) {
        return Status::Corruption(Context(properties_handle.offset()) +
                                  ": properties: " + s.ToString());
      }
    }
  }
  return Status::OK();
}

Status BlockBasedTable::Rep::ReadPropertiesBlock(std::string* contents) const {
  const BlockHandle& h = properties_handle;
  Status s = ReadBlock(h, true, false, contents, nullptr);
  if (!s.IsCorruption()) return s;
  // Read the stored bytes and the trailer as they are and try the checksum
  // with the global sequence number's value zeroed.
  std::string raw;
  Status rs = ReadBlock(h, false, false, &raw, nullptr);
  if (!rs.ok()) return s;
  size_t offset = 0, size = 0;
  if (!FindPropertyValue(raw, TablePropertiesNames::kExternalSstFileGlobalSeqno, &offset, &size) ||
      size != 8) {
    return s;
  }
  const size_t n = raw.size() + kBlockTrailerSize;
  std::string buf(n, '\0');
  Slice result;
  rs = file->Read(h.offset(), n, &result, buf.data());
  if (!rs.ok() || result.size() != n) return s;
  if (result.data() != buf.data()) std::memcpy(buf.data(), result.data(), n);
  EncodeFixed64(buf.data() + offset, 0);
  if (!VerifyBlockChecksum(footer.checksum_type(), buf.data(), raw.size(), Context(h.offset()),
                           footer.ContextModifier(h.offset()))
           .ok()) {
    return s;
  }
  s.PermitUncheckedError();
  *contents = std::move(raw);
  return Status::OK();
}

Status BlockBasedTable::Rep::SetGlobalSeqno(const TableReaderOptions& options) {
  const auto& user = props->user_collected_properties;
  const auto version_it = user.find(TablePropertiesNames::kExternalSstFileVersion);
  const auto seqno_it = user.find(TablePropertiesNames::kExternalSstFileGlobalSeqno);
  if (version_it == user.end()) {
    if (seqno_it != user.end()) {
      return Status::Corruption(options.file_name +
                                ": a global sequence number in a file that is no external file");
    }
    return Status::OK();
  }
  if (version_it->second.size() != 4) {
    return Status::Corruption(options.file_name + ": malformed " +
                              TablePropertiesNames::kExternalSstFileVersion);
  }
  const uint32_t version = DecodeFixed32(version_it->second.data());
  if (version < 2) {
    if (seqno_it != user.end() || version != 1) {
      return Status::Corruption(options.file_name + ": external file version " +
                                std::to_string(version) + " with a global sequence number");
    }
    return Status::OK();
  }
  SequenceNumber seqno = 0;
  if (seqno_it != user.end()) {
    if (seqno_it->second.size() != 8) {
      return Status::Corruption(options.file_name + ": malformed " +
                                TablePropertiesNames::kExternalSstFileGlobalSeqno);
    }
    seqno = DecodeFixed64(seqno_it->second.data());
    std::string raw;
    size_t offset = 0, size = 0;
    if (ReadBlock(properties_handle, false, false, &raw, nullptr).ok() &&
        FindPropertyValue(raw, TablePropertiesNames::kExternalSstFileGlobalSeqno, &offset, &size)) {
      global_seqno_offset = properties_handle.offset() + offset;
      if (props != nullptr) props->external_sst_file_global_seqno_offset = global_seqno_offset;
    }
  }
  if (options.largest_seqno < kMaxSequenceNumber) {
    if (seqno == 0) seqno = options.largest_seqno;
    if (seqno != options.largest_seqno) {
      return Status::Corruption(options.file_name + ": external file's global sequence number " +
                                std::to_string(seqno) +
                                " does not match its largest sequence number in the MANIFEST " +
                                std::to_string(options.largest_seqno));
    }
  }
  if (seqno > kMaxSequenceNumber) {
    return Status::Corruption(options.file_name + ": global sequence number " +
                              std::to_string(seqno) + " out of range");
  }
  global_seqno = seqno;
  has_global_seqno = seqno != 0;
  return Status::OK();
}

Status BlockBasedTable::Rep::ApplyProperties(const TableReaderOptions& options,
                                             uint64_t file_size) {
  const TableProperties& p = *props;
  {
    Status cs =
        CheckCompressionNameProperty(footer.format_version(), p.compression_name, &uses_zstd);
    if (!cs.ok()) {
      const std::string msg = Context(properties_handle.offset()) + ": " + cs.getState();
      return cs.IsNotSupported() ? Status::NotSupported(msg) : Status::Corruption(msg);
    }
  }
  // kHashSearch (1) files carry an ordinary binary-search index (the hash
  // part lives in extra meta blocks, unused here); kBinarySearchWithFirstKey
  // (3) stores first keys in the index values, which we do not read.
  if (p.index_type == 2) {
    partitioned_index = true;
  } else if (p.index_type != 0 && p.index_type != 1) {
    return Status::NotSupported(options.file_name + ": index type " + std::to_string(p.index_type) +
                                " is not supported (binary search 0, hash 1 and two-level 2 are)");
  }
  if (partitioned_filter && !partitioned_index) {
    return Status::Corruption(options.file_name +
                              ": a partitioned filter in a table without a partitioned index");
  }
  if (!p.comparator_name.empty() && p.comparator_name != user_cmp->Name()) {
    return Status::InvalidArgument(options.file_name + ": written with comparator " +
                                   p.comparator_name + ", opened with " + user_cmp->Name());
  }
  if (has_filter) {
    // RocksDB writes "1"/"0"; an absent property leaves the configuration's
    // word.
    filter_whole_keys = p.whole_key_filtering.empty() ? table_options.whole_key_filtering
                                                      : p.whole_key_filtering[0] == '1';
    const SliceTransform* pe = options.prefix_extractor;
    if (pe != nullptr && p.prefix_extractor_name == pe->Name() &&
        (p.prefix_filtering.empty() || p.prefix_filtering[0] == '1')) {
      prefix_extractor = pe;
    }
    if (filter_whole_keys) {
      filter_use = Rep::FilterUse::kWholeKey;
    } else if (prefix_extractor != nullptr) {
      filter_use = Rep::FilterUse::kPrefix;
    }
  }
  index_key_is_user_key = p.index_key_is_user_key != 0;
  index_value_delta_encoded = p.index_value_is_delta_encoded != 0;
  index_cmp = index_key_is_user_key ? user_cmp : static_cast<const Comparator*>(&icmp);

  if (mmap_file) {
    const uint64_t granules = (file_size >> 6) + 1;
    verified = std::make_unique<std::atomic<uint64_t>[]>((granules + 63) / 64);
  }
  if (block_cache != nullptr) {
    EncodeFixed64(cache_prefix, block_cache->NewId());
  } else {
    std::memset(cache_prefix, 0, sizeof(cache_prefix));
  }

  return Status::OK();
}

Status BlockBasedTable::Rep::LoadIndexAndFilter(const TableReaderOptions& options) {
  Status s;
  ReadOptions verify_ro;
  verify_ro.verify_checksums = true;
  verify_ro.fill_cache = false;
  const bool in_cache = table_options.cache_index_and_filter_blocks && block_cache != nullptr;
  if (!in_cache) {
    BlockBuffer index_contents;
    s = ReadBlock(footer.index_handle(), true, true, &index_contents, nullptr);
    if (!s.ok()) return s;
    index_block = std::make_unique<Block>(std::move(index_contents));
    if (!index_block->ok()) {
      return Status::Corruption(Context(footer.index_handle().offset()) + ": bad index block");
    }
    if (index_key_is_user_key && user_cmp == BytewiseComparator()) {
      BlockIter it;
      index_block->InitIndexIterator(index_cmp, index_value_delta_encoded, &it);
      std::vector<uint64_t> prefixes;
      prefixes.reserve(index_block->num_restarts());
      for (it.SeekToFirst(); it.Valid(); it.Next()) prefixes.push_back(Rep::KeyPrefix(it.key()));
      // Only when every entry is a restart point (index_block_restart_interval
      // 1, RocksDB's default) and the block parsed cleanly.
      if (it.status().ok() && prefixes.size() == index_block->num_restarts()) {
        index_prefixes = std::move(prefixes);
      }
    }
    if (has_filter && partitioned_filter) {
      BlockBuffer contents;
      s = ReadBlock(filter_handle, true, true, &contents, nullptr);
      if (!s.ok()) return s;
      filter_index_block = std::make_unique<Block>(std::move(contents));
      if (!filter_index_block->ok()) {
        return Status::Corruption(Context(filter_handle.offset()) + ": bad filter index block");
      }
    } else if (has_filter) {
      std::string filter_contents;
      s = ReadBlock(filter_handle, true, false, &filter_contents, nullptr);
      if (!s.ok()) return s;
      filter = std::make_unique<FullFilterBlockReader>(std::move(filter_contents));
    }
  } else if (partitioned_index) {
    // The top-level index and filter index go to the block cache, pinned
    // there while the table is open when pin_top_level_index_and_filter
    // (or for level 0 with pin_l0_filter_and_index_blocks_in_cache).
    CachableRef<Block> index;
    s = GetIndexBlock(verify_ro, &index);
    if (!s.ok()) return s;
    if (!index->ok()) {
      return Status::Corruption(Context(footer.index_handle().offset()) + ": bad index block");
    }
    CachableRef<Block> filter_index;
    CachableRef<FullFilterBlockReader> full_filter;
    if (has_filter && partitioned_filter) {
      s = GetMetaPartition(verify_ro, filter_handle, BlockKind::kFilter, &filter_index);
      if (!s.ok()) return s;
      if (!filter_index->ok()) {
        return Status::Corruption(Context(filter_handle.offset()) + ": bad filter index block");
      }
    } else if (has_filter) {
      s = GetFilter(verify_ro, &full_filter);  // held until pinned below
      if (!s.ok()) return s;
    }
    const bool pin = table_options.pin_top_level_index_and_filter ||
                     (table_options.pin_l0_filter_and_index_blocks_in_cache && options.level == 0);
    if (pin) {
      char key_buf[sizeof(cache_prefix) + kMaxVarint64Length];
      pinned_index =
          block_cache->Lookup(Slice(key_buf, CacheKey(footer.index_handle().offset(), key_buf)));
      if (has_filter) {
        pinned_filter =
            block_cache->Lookup(Slice(key_buf, CacheKey(filter_handle.offset(), key_buf)));
      }
    }
    // RocksDB pins the partitions of level-0 tables as well.
    if (table_options.pin_l0_filter_and_index_blocks_in_cache && options.level == 0) {
      s = PinPartitions(verify_ro, *index.get(), /*filter=*/false);
      if (s.ok() && !filter_index.empty()) {
        s = PinPartitions(verify_ro, *filter_index.get(), /*filter=*/true);
      }
      if (!s.ok()) return s;
    }
  } else {
    // Load both into the cache now (so a damaged one fails Open), pinned
    // for level-0 files when asked.
    CachableRef<Block> index;
    s = GetIndexBlock(verify_ro, &index);
    if (!s.ok()) return s;
    if (!index->ok()) {
      return Status::Corruption(Context(footer.index_handle().offset()) + ": bad index block");
    }
    CachableRef<FullFilterBlockReader> filter;
    s = GetFilter(verify_ro, &filter);
    if (!s.ok()) return s;
    if (table_options.pin_l0_filter_and_index_blocks_in_cache && options.level == 0) {
      char key_buf[sizeof(cache_prefix) + kMaxVarint64Length];
      pinned_index =
          block_cache->Lookup(Slice(key_buf, CacheKey(footer.index_handle().offset(), key_buf)));
      if (has_filter) {
        pinned_filter =
            block_cache->Lookup(Slice(key_buf, CacheKey(filter_handle.offset(), key_buf)));
      }
    }
  }
  return Status::OK();
}

Status BlockBasedTable::Rep::LoadCompressionDict() {
  if (!has_compression_dict) return Status::OK();
  const uint64_t offset = compression_dict_handle.offset();
  std::string raw;
  Status s = ReadBlock(compression_dict_handle, true, true, &raw, nullptr);
  if (!s.ok()) return s;
  // Digested for zstd when the table says its blocks are zstd (RocksDB
  // decides the same way); other codecs use the raw bytes.
  s = UncompressionDict::Create(std::move(raw), uses_zstd, &dict);
  if (!s.ok())
    return Status::Corruption(Context(offset) + ": compression dictionary: " + s.ToString());
  // Data blocks come first, the index right after them.
  data_end = footer.index_handle().offset();
  if (props->data_size > 0) data_end = std::min(data_end, props->data_size);
  return Status::OK();
}

Status BlockBasedTable::Open(const TableReaderOptions& options,
                             std::unique_ptr<RandomAccessFile>&& file, uint64_t file_size,
                             std::unique_ptr<BlockBasedTable>* table) {
  table->reset();
  auto rep = std::make_unique<Rep>(options, std::move(file), file_size);
  Status s = rep->ReadFooter(options.file_name, file_size);
  if (s.ok()) s = rep->ReadMetaBlocks(options);
  if (s.ok()) s = rep->ApplyProperties(options, file_size);
  if (s.ok()) s = rep->SetGlobalSeqno(options);
  if (s.ok()) s = rep->LoadCompressionDict();
  if (s.ok()) s = rep->LoadIndexAndFilter(options);
  if (!s.ok()) return s;
  table->reset(new BlockBasedTable(rep.release()));
  if (options.reader_charge != nullptr) {
    s = options.reader_charge->MakeCacheReservation((*table)->ApproximateMemoryUsage(),
                                                    &(*table)->rep_->charge);
    if (!s.ok()) {
      table->reset();
      return Status::MemoryLimit("table reader of " + options.file_name +
                                 " does not fit the block cache (cache_usage_options charges "
                                 "block-based-table-reader)");
    }
  }
  return Status::OK();
}

bool BlockBasedTable::KeyMayMatch(const Slice& user_key) const {
  const Rep* r = rep_;
  if (r->filter_use == Rep::FilterUse::kNone) return true;
  if (r->filter_use == Rep::FilterUse::kPrefix) return PrefixMayMatch(user_key);
  CachableRef<FullFilterBlockReader> filter;
  ReadOptions ro;
  if (!r->GetFilterFor(ro, user_key, &filter).ok() || filter.empty()) return true;
  return filter->KeyMayMatch(user_key);
}

bool BlockBasedTable::HasUsablePrefixFilter() const { return rep_->prefix_extractor != nullptr; }

bool BlockBasedTable::PrefixMayMatch(const Slice& user_key_or_prefix_source) const {
  return RepPrefixMayMatch(rep_, user_key_or_prefix_source);
}

bool BlockBasedTable::RepPrefixMayMatch(const Rep* r, const Slice& user_key_or_prefix_source) {
  const SliceTransform* pe = r->prefix_extractor;
  if (pe == nullptr || !pe->InDomain(user_key_or_prefix_source)) return true;
  CachableRef<FullFilterBlockReader> filter;
  ReadOptions ro;
  if (!r->GetFilterFor(ro, user_key_or_prefix_source, &filter).ok() || filter.empty()) return true;
  RecordTick(r->statistics, BLOOM_FILTER_PREFIX_CHECKED);
  if (filter->PrefixMayMatch(pe->Transform(user_key_or_prefix_source))) return true;
  RecordTick(r->statistics, BLOOM_FILTER_PREFIX_USEFUL);
  return false;
}

namespace {

// Whether the file's filter proves user_key absent: by the whole key when
// the file holds whole keys, else by its prefix. Counts the probe.
template <typename RepT>
bool FilterRulesOut(const RepT* r, const FullFilterBlockReader& filter, const Slice& user_key) {
  if (r->filter_use == RepT::FilterUse::kWholeKey) {
    if (!filter.KeyMayMatch(user_key)) {
      RecordTick(r->statistics, BLOOM_FILTER_USEFUL);
      PERF_COUNTER_ADD(bloom_sst_miss_count, 1);
      return true;
    }
    RecordTick(r->statistics, BLOOM_FILTER_FULL_POSITIVE);
    PERF_COUNTER_ADD(bloom_sst_hit_count, 1);
    return false;
  }
  if (!r->prefix_extractor->InDomain(user_key)) return false;
  // The file holds prefixes only: a missing prefix rules the key out.
  RecordTick(r->statistics, BLOOM_FILTER_PREFIX_CHECKED);
  if (filter.PrefixMayMatch(r->prefix_extractor->Transform(user_key))) {
    PERF_COUNTER_ADD(bloom_sst_hit_count, 1);
    return false;
  }
  RecordTick(r->statistics, BLOOM_FILTER_PREFIX_USEFUL);
  RecordTick(r->statistics, BLOOM_FILTER_USEFUL);
  PERF_COUNTER_ADD(bloom_sst_miss_count, 1);
  return true;
}

}  // namespace

Status BlockBasedTable::Get(const ReadOptions& read_options, const Slice& key,
                            GetContext* get_context, bool skip_filters) {
  Rep* r = rep_;
  // An external file's keys all carry its global sequence number: a lookup
  // below it sees none of them.
  if (r->has_global_seqno && (ExtractInternalKeyFooter(key) >> 8) < r->global_seqno) {
    return Status::OK();
  }
  const Slice user_key = ExtractUserKey(key);
  bool filter_passed = false;  // a whole-key filter said "may be present"
  if (!skip_filters && r->filter_use != Rep::FilterUse::kNone) {
    CachableRef<FullFilterBlockReader> filter;
    Status s = r->GetFilterFor(read_options, user_key, &filter);
    if (!s.ok()) return s;
    if (!filter.empty()) {
      if (FilterRulesOut(r, *filter.get(), user_key)) return Status::OK();
      filter_passed = r->filter_use == Rep::FilterUse::kWholeKey;
    }
  }

  IndexCursor<Rep> index_iter;
  Status s = index_iter.Init(r, read_options);
  if (!s.ok()) return s;
  index_iter.Seek(r->index_key_is_user_key ? user_key : key);

  BlockIter data_iter;
  for (; index_iter.Valid(); index_iter.Next()) {
    CachableRef<Block> data;
    s = r->RetrieveBlock(read_options, index_iter.handle(), Cache::Priority::kLow, &data, nullptr,
                         READ_BLOCK_GET_MICROS);
    if (!s.ok()) return s;
    data->InitIterator(&r->icmp, &data_iter);
    if (!data_iter.SeekForGet(key, r->user_cmp)) break;  // hash index: absent
    bool done = false;
    for (; data_iter.Valid(); data_iter.Next()) {
      ParsedInternalKey parsed;
      s = ParseInternalKey(data_iter.key(), &parsed);
      if (!s.ok()) {
        return Status::Corruption(r->Context(index_iter.handle().offset()) + ": " + s.ToString());
      }
      if (r->has_global_seqno) parsed.sequence = r->global_seqno;
      if (!get_context->SaveValue(parsed, data_iter.value(), /*value_pinned=*/false,
                                  /*can_pin=*/true)) {
        if (get_context->pin_pending()) r->PinValue(get_context, &data);
        done = true;
        break;
      }
    }
    if (!data_iter.status().ok()) {
      return Status::Corruption(r->Context(index_iter.handle().offset()) + ": " +
                                data_iter.status().ToString());
    }
    if (done) break;
  }
  s = index_iter.status();
  if (!s.ok()) return s;
  if (filter_passed && get_context->state() != GetContext::kNotFound) {
    RecordTick(r->statistics, BLOOM_FILTER_FULL_TRUE_POSITIVE);
  }
  return Status::OK();
}

void BlockBasedTable::MultiGet(const ReadOptions& read_options, size_t n, const Slice* keys,
                               GetContext* const* contexts, Status* statuses) {
  Rep* r = rep_;
  // Keys go in chunks: a fixed array says which ones the filter lets
  // through, so the batch allocates nothing.
  constexpr size_t kChunk = 64;
  for (size_t base = 0; base < n; base += kChunk) {
    const size_t m = std::min(kChunk, n - base);
    bool may[kChunk];
    size_t candidates = 0;
    {
      CachableRef<FullFilterBlockReader> filter;
      Status fs;
      const bool use_filter = r->filter_use != Rep::FilterUse::kNone;
      if (use_filter && !r->partitioned_filter) fs = r->GetFilter(read_options, &filter);
      for (size_t j = 0; j < m; j++) {
        const size_t i = base + j;
        may[j] = false;
        if (contexts[i]->done()) continue;
        if (r->has_global_seqno && (ExtractInternalKeyFooter(keys[i]) >> 8) < r->global_seqno) {
          continue;  // below the file's global sequence number: sees nothing
        }
        if (use_filter && r->partitioned_filter) {
          // Each key's own partition (the cache keeps repeats cheap).
          filter.Reset();
          fs = r->GetFilterFor(read_options, ExtractUserKey(keys[i]), &filter);
        }
        if (!fs.ok()) {
          statuses[i] = fs;
          continue;
        }
        if (!filter.empty() && FilterRulesOut(r, *filter.get(), ExtractUserKey(keys[i]))) continue;
        may[j] = true;
        candidates++;
      }
    }
    if (candidates == 0) continue;

    IndexCursor<Rep> index_iter;
    Status s = index_iter.Init(r, read_options);
    if (!s.ok()) {
      for (size_t j = 0; j < m; j++) {
        if (may[j]) statuses[base + j] = s;
      }
      continue;
    }
    CachableRef<Block> data;  // the block the previous key used
    uint64_t data_offset = ~uint64_t{0};
    BlockIter data_iter;
    for (size_t j = 0; j < m; j++) {
      if (!may[j]) continue;
      const size_t i = base + j;
      const Slice& key = keys[i];
      GetContext* ctx = contexts[i];
      index_iter.Seek(r->index_key_is_user_key ? ExtractUserKey(key) : key);
      if (!index_iter.Valid()) {
        statuses[i] = index_iter.status();
        continue;
      }
      // The key's versions, from its first block on (they may go on into
      // the next ones).
      for (;;) {
        const BlockHandle handle = index_iter.handle();
        if (handle.offset() != data_offset) {
          data.Reset();
          data_offset = ~uint64_t{0};
          s = r->RetrieveBlock(read_options, handle, Cache::Priority::kLow, &data, nullptr,
                               READ_BLOCK_GET_MICROS);
          if (!s.ok()) {
            statuses[i] = s;
            break;
          }
          data_offset = handle.offset();
        }
        data->InitIterator(&r->icmp, &data_iter);
        if (!data_iter.SeekForGet(key, r->user_cmp)) break;  // hash index: absent
        bool done = false;
        for (; data_iter.Valid(); data_iter.Next()) {
          ParsedInternalKey parsed;
          s = ParseInternalKey(data_iter.key(), &parsed);
          if (!s.ok()) {
            statuses[i] = Status::Corruption(r->Context(handle.offset()) + ": " + s.ToString());
            done = true;
            break;
          }
          if (r->has_global_seqno) parsed.sequence = r->global_seqno;
          if (!ctx->SaveValue(parsed, data_iter.value(), /*value_pinned=*/false,
                              /*can_pin=*/true)) {
            if (ctx->pin_pending()) r->PinSharedValue(ctx, data, handle.offset());
            done = true;
            break;
          }
        }
        if (done) break;
        if (!data_iter.status().ok()) {
          statuses[i] = Status::Corruption(r->Context(handle.offset()) + ": " +
                                           data_iter.status().ToString());
          break;
        }
        index_iter.Next();
        if (!index_iter.Valid()) {
          statuses[i] = index_iter.status();
          break;
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------
// Two-level iterator: the index block picks data blocks.

class BlockBasedTable::Iter final : public InternalIterator {
 public:
  // What keeps the reader alive: a table-cache handle, or the reader itself.
  // The first member, so the last destroyed.
  struct ReaderPin {
    ReaderPin() = default;
    ReaderPin(const ReaderPin&) = delete;
    ReaderPin& operator=(const ReaderPin&) = delete;
    ~ReaderPin() {
      if (handle != nullptr) cache->Release(handle);
    }
    std::unique_ptr<BlockBasedTable> owned;
    Cache* cache = nullptr;
    Cache::Handle* handle = nullptr;
  };

  Iter(const BlockBasedTable::Rep* rep, const ReadOptions& ro)
      : rep_(rep),
        ro_(ro),
        upper_bound_(ro.iterate_upper_bound != nullptr ? *ro.iterate_upper_bound : Slice()),
        has_upper_bound_(ro.iterate_upper_bound != nullptr),
        readahead_(
            ro.readahead_size > 0 ? ro.readahead_size
                                  : rep->table_options.initial_auto_readahead_size,
            ro.readahead_size > 0 ? ro.readahead_size : rep->table_options.max_auto_readahead_size,
            /*fixed=*/ro.readahead_size > 0),
        // RocksDB's prefix seek mode: with a usable prefix filter and no
        // total_order_seek, a Seek whose target's prefix the filter rules
        // out finds nothing in this file.
        prefix_seek_(!ro.total_order_seek && rep->prefix_extractor != nullptr) {
    ro_.iterate_upper_bound = nullptr;
    ro_.iterate_lower_bound = nullptr;
    status_ = index_iter_.Init(rep_, ro_);
  }

  bool Valid() const override { return data_valid_ && data_iter_.Valid(); }

  void SeekToFirst() override {
    if (!status_.ok()) return;
    index_iter_.SeekToFirst();
    if (!LoadBlock()) return;
    data_iter_.SeekToFirst();
    SkipForward();
  }

  void SeekToLast() override {
    if (!status_.ok()) return;
    index_iter_.SeekToLast();
    if (!LoadBlock()) return;
    data_iter_.SeekToLast();
    SkipBackward();
  }

  void Seek(const Slice& target) override {
    if (!status_.ok()) return;
    if (prefix_seek_ && !RepPrefixMayMatch(rep_, ExtractUserKey(target))) {
      data_valid_ = false;
      return;
    }
    index_iter_.Seek(rep_->index_key_is_user_key ? ExtractUserKey(target) : target);
    if (!LoadBlock()) return;
    data_iter_.Seek(target);
    SkipForward();
  }

  void SeekForPrev(const Slice& target) override {
    if (!status_.ok()) return;
    if (prefix_seek_ && !RepPrefixMayMatch(rep_, ExtractUserKey(target))) {
      data_valid_ = false;
      return;
    }
    index_iter_.Seek(rep_->index_key_is_user_key ? ExtractUserKey(target) : target);
    if (!index_iter_.Valid()) {
      if (!index_iter_.status().ok()) {
        SetIndexError();
        return;
      }
      index_iter_.SeekToLast();
    }
    if (!LoadBlock()) return;
    data_iter_.SeekForPrev(target);
    SkipBackward();
  }

  void Next() override {
    assert(Valid());
    data_iter_.Next();
    SkipForward();
  }

  void Prev() override {
    assert(Valid());
    data_iter_.Prev();
    SkipBackward();
  }

  Slice key() const override { return data_iter_.key(); }
  Slice value() const override { return data_iter_.value(); }
  Status status() const override { return status_; }

 private:
  void SetIndexError() {
    status_ = index_iter_.status();
    data_valid_ = false;
  }

  // Points data_iter_ at the block index_iter_ is on (data_valid_ false
  // when the index is exhausted or on error). Returns false on error.
  bool LoadBlock() {
    data_valid_ = false;
    if (!index_iter_.Valid()) {
      if (!index_iter_.status().ok()) {
        SetIndexError();
        return false;
      }
      return true;
    }
    const BlockHandle& h = index_iter_.handle();
    if (!data_.empty() && h.offset() == data_offset_) {
      data_valid_ = true;  // same block (e.g. Seek within it): reuse
      data_->InitIterator(&rep_->icmp, &data_iter_);
      return true;
    }
    data_.Reset();
    Status s = rep_->RetrieveBlock(ro_, h, Cache::Priority::kLow, &data_, &readahead_);
    if (!s.ok()) {
      status_ = s;
      return false;
    }
    data_offset_ = h.offset();
    data_->InitIterator(&rep_->icmp, &data_iter_);
    data_valid_ = true;
    return true;
  }

  bool CheckDataStatus() {
    if (data_valid_ && !data_iter_.status().ok()) {
      status_ =
          Status::Corruption(rep_->Context(data_offset_) + ": " + data_iter_.status().ToString());
      data_valid_ = false;
      return false;
    }
    return true;
  }

  // The index separator of the current block is at or beyond the upper
  // bound: no later block can hold a key below it.
  bool PastUpperBound() const {
    if (!has_upper_bound_ || !rep_->index_key_is_user_key) return false;
    return rep_->user_cmp->Compare(index_iter_.key(), upper_bound_) >= 0;
  }

  void SkipForward() {
    while (data_valid_ && !data_iter_.Valid()) {
      if (!CheckDataStatus()) return;
      if (PastUpperBound()) {
        data_valid_ = false;
        return;
      }
      index_iter_.Next();
      if (!LoadBlock()) return;
      if (data_valid_) data_iter_.SeekToFirst();
    }
    CheckDataStatus();
  }

  void SkipBackward() {
    while (data_valid_ && !data_iter_.Valid()) {
      if (!CheckDataStatus()) return;
      index_iter_.Prev();
      if (!LoadBlock()) return;
      if (data_valid_) data_iter_.SeekToLast();
    }
    CheckDataStatus();
  }

 public:
  void TakePin(Cache* cache, Cache::Handle* handle) {
    pin_.cache = cache;
    pin_.handle = handle;
  }
  void TakeOwnership(std::unique_ptr<BlockBasedTable> table) { pin_.owned = std::move(table); }

 private:
  ReaderPin pin_;
  const BlockBasedTable::Rep* rep_;
  ReadOptions ro_;
  Slice upper_bound_;
  bool has_upper_bound_;
  Status status_;
  IndexCursor<BlockBasedTable::Rep> index_iter_;
  CachableRef<Block> data_;
  uint64_t data_offset_ = 0;
  BlockIter data_iter_;
  bool data_valid_ = false;
  ReadaheadBuffer readahead_;
  const bool prefix_seek_;
};

namespace {

// Over an external file with a global sequence number G: the entries of
// `base` (all stored at sequence 0, each user key once) with G as their
// sequence. Stored order and rewritten order agree, so positioning seeks
// the target's user key in the stored keys and steps over the few entries
// that the rewritten order puts on the other side of the target. Only
// files with a global sequence number pay for this wrapper.
class GlobalSeqnoIterator final : public InternalIterator {
 public:
  GlobalSeqnoIterator(std::unique_ptr<InternalIterator> base, SequenceNumber seqno,
                      const InternalKeyComparator* icmp)
      : base_(std::move(base)), seqno_(seqno), icmp_(icmp) {}

  bool Valid() const override { return base_->Valid(); }
  void SeekToFirst() override {
    base_->SeekToFirst();
    Update();
  }
  void SeekToLast() override {
    base_->SeekToLast();
    Update();
  }
  void Seek(const Slice& target) override {
    seek_buf_.clear();
    AppendInternalKey(&seek_buf_, ExtractUserKey(target), kMaxSequenceNumber, kValueTypeForSeek);
    base_->Seek(seek_buf_);
    Update();
    while (base_->Valid() && icmp_->Compare(key_, target) < 0) {
      base_->Next();
      Update();
    }
  }
  void SeekForPrev(const Slice& target) override {
    seek_buf_.clear();
    AppendInternalKey(&seek_buf_, ExtractUserKey(target), 0, kValueTypeForSeekForPrev);
    base_->SeekForPrev(seek_buf_);
    Update();
    while (base_->Valid() && icmp_->Compare(key_, target) > 0) {
      base_->Prev();
      Update();
    }
  }
  void Next() override {
    base_->Next();
    Update();
  }
  void Prev() override {
    base_->Prev();
    Update();
  }
  Slice key() const override { return key_; }
  Slice value() const override { return base_->value(); }
  Status status() const override { return base_->status(); }

 private:
  void Update() {
    if (!base_->Valid()) return;
    const Slice k = base_->key();
    key_.assign(k.data(), k.size());
    if (k.size() < kInternalKeyTrailerSize) return;  // malformed: the parser reports it
    const uint64_t packed = ExtractInternalKeyFooter(k);
    EncodeFixed64(key_.data() + key_.size() - kInternalKeyTrailerSize,
                  (seqno_ << 8) | (packed & 0xff));
  }

  std::unique_ptr<InternalIterator> base_;
  const SequenceNumber seqno_;
  const InternalKeyComparator* const icmp_;
  std::string key_;
  std::string seek_buf_;
};

}  // namespace

std::unique_ptr<InternalIterator> BlockBasedTable::NewIterator(const ReadOptions& read_options,
                                                               Cache* cache,
                                                               Cache::Handle* handle) {
  auto it = std::make_unique<Iter>(rep_, read_options);
  if (handle != nullptr) it->TakePin(cache, handle);
  if (!rep_->has_global_seqno) return it;
  return std::make_unique<GlobalSeqnoIterator>(std::move(it), rep_->global_seqno, &rep_->icmp);
}

std::unique_ptr<InternalIterator> BlockBasedTable::NewOwningIterator(
    std::unique_ptr<BlockBasedTable> table, const ReadOptions& read_options) {
  BlockBasedTable* t = table.get();
  auto it = std::make_unique<Iter>(t->rep_, read_options);
  it->TakeOwnership(std::move(table));
  if (!t->rep_->has_global_seqno) return it;
  return std::make_unique<GlobalSeqnoIterator>(std::move(it), t->rep_->global_seqno,
                                               &t->rep_->icmp);
}

namespace {

// Iterates a block the iterator owns.
class OwnedBlockIterator final : public InternalIterator {
 public:
  // context (file and offset) prefixes every error.
  OwnedBlockIterator(std::unique_ptr<Block> block, const Comparator* cmp, int index_mode,
                     std::string context)
      : block_(std::move(block)), context_(std::move(context)) {
    if (index_mode == 0) {
      block_->InitIterator(cmp, &iter_);
    } else {
      block_->InitIndexIterator(cmp, index_mode == 2, &iter_);
    }
    index_mode_ = index_mode;
  }
  explicit OwnedBlockIterator(Status s) : status_(std::move(s)) {}

  bool Valid() const override { return block_ != nullptr && iter_.Valid(); }
  void SeekToFirst() override {
    if (block_) iter_.SeekToFirst();
    Refresh();
  }
  void SeekToLast() override {
    if (block_) iter_.SeekToLast();
    Refresh();
  }
  void Seek(const Slice& t) override {
    if (block_) iter_.Seek(t);
    Refresh();
  }
  void SeekForPrev(const Slice& t) override {
    if (block_) iter_.SeekForPrev(t);
    Refresh();
  }
  void Next() override {
    iter_.Next();
    Refresh();
  }
  void Prev() override {
    iter_.Prev();
    Refresh();
  }
  Slice key() const override { return iter_.key(); }
  Slice value() const override { return index_mode_ != 0 ? Slice(handle_buf_) : iter_.value(); }
  Status status() const override {
    if (!status_.ok()) return status_;
    if (block_ == nullptr || iter_.status().ok()) return Status::OK();
    return Status::Corruption(context_ + ": " + iter_.status().ToString());
  }

 private:
  void Refresh() {
    if (index_mode_ != 0 && iter_.Valid()) {
      handle_buf_.clear();
      iter_.handle().EncodeTo(&handle_buf_);
    }
  }
  std::unique_ptr<Block> block_;
  std::string context_;
  BlockIter iter_;
  int index_mode_ = 0;
  std::string handle_buf_;
  Status status_;
};

}  // namespace

std::unique_ptr<InternalIterator> BlockBasedTable::NewRangeTombstoneIterator(
    const ReadOptions& read_options) {
  if (!rep_->has_range_del) return nullptr;
  BlockBuffer contents;
  Status s = rep_->ReadBlock(rep_->range_del_handle, read_options.verify_checksums, true, &contents,
                             nullptr);
  if (!s.ok()) return std::make_unique<OwnedBlockIterator>(s);
  auto block = std::make_unique<Block>(std::move(contents));
  auto it = std::make_unique<OwnedBlockIterator>(std::move(block), &rep_->icmp, 0,
                                                 rep_->Context(rep_->range_del_handle.offset()));
  if (!rep_->has_global_seqno) return it;
  return std::make_unique<GlobalSeqnoIterator>(std::move(it), rep_->global_seqno, &rep_->icmp);
}

namespace {

// NewIndexIterator over a partitioned index: every entry of every
// partition in order, the value re-encoded as a full handle.
template <typename RepT>
class PartitionedIndexEntries final : public InternalIterator {
 public:
  explicit PartitionedIndexEntries(const RepT* r) {
    ReadOptions ro;
    ro.fill_cache = false;
    init_ = cursor_.Init(r, ro);
  }
  bool Valid() const override { return init_.ok() && cursor_.Valid(); }
  void SeekToFirst() override {
    if (init_.ok()) cursor_.SeekToFirst();
    Refresh();
  }
  void SeekToLast() override {
    if (init_.ok()) cursor_.SeekToLast();
    Refresh();
  }
  void Seek(const Slice& t) override {
    if (init_.ok()) cursor_.Seek(t);
    Refresh();
  }
  // The entry whose block may hold t: the first separator >= t.
  void SeekForPrev(const Slice& t) override { Seek(t); }
  void Next() override {
    cursor_.Next();
    Refresh();
  }
  void Prev() override {
    cursor_.Prev();
    Refresh();
  }
  Slice key() const override { return cursor_.key(); }
  Slice value() const override { return Slice(handle_buf_); }
  Status status() const override { return init_.ok() ? cursor_.status() : init_; }

 private:
  void Refresh() {
    if (!Valid()) return;
    handle_buf_.clear();
    cursor_.handle().EncodeTo(&handle_buf_);
  }
  IndexCursor<RepT> cursor_;
  Status init_;
  std::string handle_buf_;
};

}  // namespace

std::unique_ptr<InternalIterator> BlockBasedTable::NewIndexIterator() {
  if (rep_->partitioned_index) return std::make_unique<PartitionedIndexEntries<Rep>>(rep_);
  BlockBuffer contents;
  Status s = rep_->ReadBlock(rep_->footer.index_handle(), true, true, &contents, nullptr);
  if (!s.ok()) return std::make_unique<OwnedBlockIterator>(s);
  auto block = std::make_unique<Block>(std::move(contents));
  return std::make_unique<OwnedBlockIterator>(std::move(block), rep_->index_cmp,
                                              rep_->index_value_delta_encoded ? 2 : 1,
                                              rep_->Context(rep_->footer.index_handle().offset()));
}

Status BlockBasedTable::ReadBlockContents(const BlockHandle& handle, std::string* contents) const {
  return rep_->ReadBlock(handle, true, true, contents, nullptr);
}

Status BlockBasedTable::VerifyChecksum() {
  Rep* r = rep_;
  std::string contents;
  Status s = r->ReadBlock(r->footer.metaindex_handle(), true, true, &contents, nullptr);
  if (!s.ok()) return s;
  {
    // Every block the metaindex lists (filter, properties, range
    // deletions, ...), whether or not this reader uses it (a reader opened
    // with skip_filters or without a filter policy has no filter handle).
    Block meta(std::move(contents));
    if (!meta.ok()) {
      return Status::Corruption(r->Context(r->footer.metaindex_handle().offset()) +
                                ": bad metaindex block");
    }
    std::unique_ptr<BlockIter> it(meta.NewIterator(BytewiseComparator()));
    std::string meta_block;
    for (it->SeekToFirst(); s.ok() && it->Valid(); it->Next()) {
      Slice v = it->value();
      BlockHandle h;
      s = h.DecodeFrom(&v);
      if (!s.ok()) {
        s = Status::Corruption(r->Context(r->footer.metaindex_handle().offset()) +
                               ": bad handle for meta block " + it->key().ToString());
      } else if (h.offset() == r->properties_handle.offset()) {
        s = r->ReadPropertiesBlock(&meta_block);  // may hold a global seqno written in place
      } else {
        s = r->ReadBlock(h, true, false, &meta_block, nullptr);
      }
    }
    if (s.ok() && !it->status().ok()) {
      s = Status::Corruption(r->Context(r->footer.metaindex_handle().offset()) + ": " +
                             it->status().ToString());
    }
    contents.clear();
  }
  if (s.ok()) s = r->ReadBlock(r->footer.index_handle(), true, true, &contents, nullptr);
  if (!s.ok()) return s;
  if (r->partitioned_index || r->partitioned_filter) return VerifyPartitioned();
  std::unique_ptr<InternalIterator> index(NewIndexIterator());
  ReadaheadBuffer readahead(r->table_options.initial_auto_readahead_size,
                            std::max<size_t>(r->table_options.max_auto_readahead_size, 1 << 20));
  for (index->SeekToFirst(); index->Valid(); index->Next()) {
    Slice v = index->value();
    BlockHandle h;
    s = h.DecodeFrom(&v);
    if (s.ok()) s = r->ReadBlock(h, true, true, &contents, &readahead);
    if (!s.ok()) return s;
    Block block(std::move(contents));
    if (!block.ok()) return Status::Corruption(r->Context(h.offset()) + ": bad block contents");
    contents.clear();
  }
  return index->status();
}

Status BlockBasedTable::VerifyPartitioned() {
  Rep* r = rep_;
  ReadOptions ro;
  ro.verify_checksums = true;
  ro.fill_cache = false;
  std::string contents;
  // Filter partitions, through the top-level filter index.
  if (r->partitioned_filter) {
    Status s = r->ReadBlock(r->filter_handle, true, true, &contents, nullptr);
    if (!s.ok()) return s;
    Block top(std::move(contents));
    if (!top.ok()) {
      return Status::Corruption(r->Context(r->filter_handle.offset()) + ": bad filter index block");
    }
    BlockIter it;
    top.InitIndexIterator(r->index_cmp, r->index_value_delta_encoded, &it);
    for (it.SeekToFirst(); it.Valid(); it.Next()) {
      s = r->ReadBlock(it.handle(), true, false, &contents, nullptr);
      if (!s.ok()) return s;
    }
    if (!it.status().ok()) {
      return Status::Corruption(r->Context(r->filter_handle.offset()) +
                                ": filter index: " + it.status().ToString());
    }
  }
  // Every index partition (read, verified) and every data block.
  IndexCursor<Rep> index;
  Status s = index.Init(r, ro);
  if (!s.ok()) return s;
  ReadaheadBuffer readahead(r->table_options.initial_auto_readahead_size,
                            std::max<size_t>(r->table_options.max_auto_readahead_size, 1 << 20));
  for (index.SeekToFirst(); index.Valid(); index.Next()) {
    const BlockHandle h = index.handle();
    s = r->ReadBlock(h, true, true, &contents, &readahead);
    if (!s.ok()) return s;
    Block block(std::move(contents));
    if (!block.ok()) return Status::Corruption(r->Context(h.offset()) + ": bad block contents");
    contents.clear();
  }
  return index.status();
}

uint64_t BlockBasedTable::ApproximateOffsetOf(const Slice& key) {
  Rep* r = rep_;
  IndexCursor<Rep> it;
  ReadOptions ro;
  if (!it.Init(r, ro).ok()) return 0;
  it.Seek(r->index_key_is_user_key ? ExtractUserKey(key) : key);
  if (it.Valid()) return it.handle().offset();
  // Past the last key (or a damaged index): about the end of the data.
  return r->props->data_size > 0 ? r->props->data_size : r->footer.metaindex_handle().offset();
}

std::shared_ptr<const TableProperties> BlockBasedTable::GetTableProperties() const {
  return rep_->props;
}
SequenceNumber BlockBasedTable::global_seqno() const { return rep_->global_seqno; }
uint64_t BlockBasedTable::global_seqno_offset() const { return rep_->global_seqno_offset; }
const Footer& BlockBasedTable::footer() const { return rep_->footer; }
uint64_t BlockBasedTable::file_size() const { return rep_->file_size; }

size_t BlockBasedTable::ApproximateMemoryUsage() const {
  size_t usage = sizeof(Rep);
  if (rep_->index_block != nullptr) {
    usage += rep_->index_block->size() + rep_->index_prefixes.size() * sizeof(uint64_t);
  }
  if (rep_->filter != nullptr) usage += rep_->filter_handle.size();
  if (rep_->filter_index_block != nullptr) usage += rep_->filter_index_block->size();
  if (rep_->dict != nullptr) usage += rep_->dict->ApproximateMemoryUsage();
  return usage;
}

}  // namespace strata
