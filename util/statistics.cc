// The Statistics implementation behind CreateDBStatistics().
//
// Recording must not make threads on different cores fight over one cache
// line, so every counter and histogram exists once per shard, and a shard
// is picked by the CPU the caller runs on (sched_getcpu). Readers sum the
// tickers and merge the histograms of all shards.
//
//  - Tickers: relaxed atomic adds. A thread migrated between picking a
//    shard and adding still adds atomically; only locality suffers.
//  - Histograms: a Histogram per (shard, histogram) under its own mutex.
//    With shards per CPU the mutex is practically uncontended.
// A reader sees each shard's counters at some instant; the sum over shards
// is not one atomic snapshot while writers run (as in RocksDB).

#include "strata/statistics.h"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <iterator>
#include <memory>
#include <string>
#include <thread>

#include "strata/convenience.h"
#include "util/histogram.h"
#include "util/mutex.h"

namespace strata {

namespace {

struct TickerInfo {
  Tickers ticker;
  const char* name;
};

// The single list of ticker names (RocksDB 7.8.3's), in enum order
// (checked below).
constexpr TickerInfo kTickerInfo[] = {
    {BLOCK_CACHE_MISS, "rocksdb.block.cache.miss"},
    {BLOCK_CACHE_HIT, "rocksdb.block.cache.hit"},
    {BLOCK_CACHE_ADD, "rocksdb.block.cache.add"},
    {BLOCK_CACHE_ADD_FAILURES, "rocksdb.block.cache.add.failures"},
    {BLOCK_CACHE_INDEX_MISS, "rocksdb.block.cache.index.miss"},
    {BLOCK_CACHE_INDEX_HIT, "rocksdb.block.cache.index.hit"},
    {BLOCK_CACHE_INDEX_ADD, "rocksdb.block.cache.index.add"},
    {BLOCK_CACHE_INDEX_BYTES_INSERT, "rocksdb.block.cache.index.bytes.insert"},
    {BLOCK_CACHE_INDEX_BYTES_EVICT, "rocksdb.block.cache.index.bytes.evict"},
    {BLOCK_CACHE_FILTER_MISS, "rocksdb.block.cache.filter.miss"},
    {BLOCK_CACHE_FILTER_HIT, "rocksdb.block.cache.filter.hit"},
    {BLOCK_CACHE_FILTER_ADD, "rocksdb.block.cache.filter.add"},
    {BLOCK_CACHE_FILTER_BYTES_INSERT, "rocksdb.block.cache.filter.bytes.insert"},
    {BLOCK_CACHE_FILTER_BYTES_EVICT, "rocksdb.block.cache.filter.bytes.evict"},
    {BLOCK_CACHE_DATA_MISS, "rocksdb.block.cache.data.miss"},
    {BLOCK_CACHE_DATA_HIT, "rocksdb.block.cache.data.hit"},
    {BLOCK_CACHE_DATA_ADD, "rocksdb.block.cache.data.add"},
    {BLOCK_CACHE_DATA_BYTES_INSERT, "rocksdb.block.cache.data.bytes.insert"},
    {BLOCK_CACHE_BYTES_READ, "rocksdb.block.cache.bytes.read"},
    {BLOCK_CACHE_BYTES_WRITE, "rocksdb.block.cache.bytes.write"},
    {BLOOM_FILTER_USEFUL, "rocksdb.bloom.filter.useful"},
    {BLOOM_FILTER_FULL_POSITIVE, "rocksdb.bloom.filter.full.positive"},
    {BLOOM_FILTER_FULL_TRUE_POSITIVE, "rocksdb.bloom.filter.full.true.positive"},
    {BLOOM_FILTER_MICROS, "rocksdb.bloom.filter.micros"},
    {PERSISTENT_CACHE_HIT, "rocksdb.persistent.cache.hit"},
    {PERSISTENT_CACHE_MISS, "rocksdb.persistent.cache.miss"},
    {SIM_BLOCK_CACHE_HIT, "rocksdb.sim.block.cache.hit"},
    {SIM_BLOCK_CACHE_MISS, "rocksdb.sim.block.cache.miss"},
    {MEMTABLE_HIT, "rocksdb.memtable.hit"},
    {MEMTABLE_MISS, "rocksdb.memtable.miss"},
    {GET_HIT_L0, "rocksdb.l0.hit"},
    {GET_HIT_L1, "rocksdb.l1.hit"},
    {GET_HIT_L2_AND_UP, "rocksdb.l2andup.hit"},
    {COMPACTION_KEY_DROP_NEWER_ENTRY, "rocksdb.compaction.key.drop.new"},
    {COMPACTION_KEY_DROP_OBSOLETE, "rocksdb.compaction.key.drop.obsolete"},
    {COMPACTION_KEY_DROP_RANGE_DEL, "rocksdb.compaction.key.drop.range_del"},
    {COMPACTION_KEY_DROP_USER, "rocksdb.compaction.key.drop.user"},
    {COMPACTION_RANGE_DEL_DROP_OBSOLETE, "rocksdb.compaction.range_del.drop.obsolete"},
    {COMPACTION_OPTIMIZED_DEL_DROP_OBSOLETE, "rocksdb.compaction.optimized.del.drop.obsolete"},
    {COMPACTION_CANCELLED, "rocksdb.compaction.cancelled"},
    {NUMBER_KEYS_WRITTEN, "rocksdb.number.keys.written"},
    {NUMBER_KEYS_READ, "rocksdb.number.keys.read"},
    {NUMBER_KEYS_UPDATED, "rocksdb.number.keys.updated"},
    {BYTES_WRITTEN, "rocksdb.bytes.written"},
    {BYTES_READ, "rocksdb.bytes.read"},
    {NUMBER_DB_SEEK, "rocksdb.number.db.seek"},
    {NUMBER_DB_NEXT, "rocksdb.number.db.next"},
    {NUMBER_DB_PREV, "rocksdb.number.db.prev"},
    {NUMBER_DB_SEEK_FOUND, "rocksdb.number.db.seek.found"},
    {NUMBER_DB_NEXT_FOUND, "rocksdb.number.db.next.found"},
    {NUMBER_DB_PREV_FOUND, "rocksdb.number.db.prev.found"},
    {ITER_BYTES_READ, "rocksdb.db.iter.bytes.read"},
    {NO_FILE_CLOSES, "rocksdb.no.file.closes"},
    {NO_FILE_OPENS, "rocksdb.no.file.opens"},
    {NO_FILE_ERRORS, "rocksdb.no.file.errors"},
    {STALL_L0_SLOWDOWN_MICROS, "rocksdb.l0.slowdown.micros"},
    {STALL_MEMTABLE_COMPACTION_MICROS, "rocksdb.memtable.compaction.micros"},
    {STALL_L0_NUM_FILES_MICROS, "rocksdb.l0.num.files.stall.micros"},
    {STALL_MICROS, "rocksdb.stall.micros"},
    {DB_MUTEX_WAIT_MICROS, "rocksdb.db.mutex.wait.micros"},
    {RATE_LIMIT_DELAY_MILLIS, "rocksdb.rate.limit.delay.millis"},
    {NO_ITERATORS, "rocksdb.num.iterators"},
    {NUMBER_MULTIGET_CALLS, "rocksdb.number.multiget.get"},
    {NUMBER_MULTIGET_KEYS_READ, "rocksdb.number.multiget.keys.read"},
    {NUMBER_MULTIGET_BYTES_READ, "rocksdb.number.multiget.bytes.read"},
    {NUMBER_FILTERED_DELETES, "rocksdb.number.deletes.filtered"},
    {NUMBER_MERGE_FAILURES, "rocksdb.number.merge.failures"},
    {BLOOM_FILTER_PREFIX_CHECKED, "rocksdb.bloom.filter.prefix.checked"},
    {BLOOM_FILTER_PREFIX_USEFUL, "rocksdb.bloom.filter.prefix.useful"},
    {NUMBER_OF_RESEEKS_IN_ITERATION, "rocksdb.number.reseeks.iteration"},
    {GET_UPDATES_SINCE_CALLS, "rocksdb.getupdatessince.calls"},
    {BLOCK_CACHE_COMPRESSED_MISS, "rocksdb.block.cachecompressed.miss"},
    {BLOCK_CACHE_COMPRESSED_HIT, "rocksdb.block.cachecompressed.hit"},
    {BLOCK_CACHE_COMPRESSED_ADD, "rocksdb.block.cachecompressed.add"},
    {BLOCK_CACHE_COMPRESSED_ADD_FAILURES, "rocksdb.block.cachecompressed.add.failures"},
    {WAL_FILE_SYNCED, "rocksdb.wal.synced"},
    {WAL_FILE_BYTES, "rocksdb.wal.bytes"},
    {WRITE_DONE_BY_SELF, "rocksdb.write.self"},
    {WRITE_DONE_BY_OTHER, "rocksdb.write.other"},
    {WRITE_TIMEDOUT, "rocksdb.write.timeout"},
    {WRITE_WITH_WAL, "rocksdb.write.wal"},
    {COMPACT_READ_BYTES, "rocksdb.compact.read.bytes"},
    {COMPACT_WRITE_BYTES, "rocksdb.compact.write.bytes"},
    {FLUSH_WRITE_BYTES, "rocksdb.flush.write.bytes"},
    {COMPACT_READ_BYTES_MARKED, "rocksdb.compact.read.marked.bytes"},
    {COMPACT_READ_BYTES_PERIODIC, "rocksdb.compact.read.periodic.bytes"},
    {COMPACT_READ_BYTES_TTL, "rocksdb.compact.read.ttl.bytes"},
    {COMPACT_WRITE_BYTES_MARKED, "rocksdb.compact.write.marked.bytes"},
    {COMPACT_WRITE_BYTES_PERIODIC, "rocksdb.compact.write.periodic.bytes"},
    {COMPACT_WRITE_BYTES_TTL, "rocksdb.compact.write.ttl.bytes"},
    {NUMBER_DIRECT_LOAD_TABLE_PROPERTIES, "rocksdb.number.direct.load.table.properties"},
    {NUMBER_SUPERVERSION_ACQUIRES, "rocksdb.number.superversion_acquires"},
    {NUMBER_SUPERVERSION_RELEASES, "rocksdb.number.superversion_releases"},
    {NUMBER_SUPERVERSION_CLEANUPS, "rocksdb.number.superversion_cleanups"},
    {NUMBER_BLOCK_COMPRESSED, "rocksdb.number.block.compressed"},
    {NUMBER_BLOCK_DECOMPRESSED, "rocksdb.number.block.decompressed"},
    {NUMBER_BLOCK_NOT_COMPRESSED, "rocksdb.number.block.not_compressed"},
    {MERGE_OPERATION_TOTAL_TIME, "rocksdb.merge.operation.time.nanos"},
    {FILTER_OPERATION_TOTAL_TIME, "rocksdb.filter.operation.time.nanos"},
    {ROW_CACHE_HIT, "rocksdb.row.cache.hit"},
    {ROW_CACHE_MISS, "rocksdb.row.cache.miss"},
    {READ_AMP_ESTIMATE_USEFUL_BYTES, "rocksdb.read.amp.estimate.useful.bytes"},
    {READ_AMP_TOTAL_READ_BYTES, "rocksdb.read.amp.total.read.bytes"},
    {NUMBER_RATE_LIMITER_DRAINS, "rocksdb.number.rate_limiter.drains"},
    {NUMBER_ITER_SKIP, "rocksdb.number.iter.skip"},
    {BLOB_DB_NUM_PUT, "rocksdb.blobdb.num.put"},
    {BLOB_DB_NUM_WRITE, "rocksdb.blobdb.num.write"},
    {BLOB_DB_NUM_GET, "rocksdb.blobdb.num.get"},
    {BLOB_DB_NUM_MULTIGET, "rocksdb.blobdb.num.multiget"},
    {BLOB_DB_NUM_SEEK, "rocksdb.blobdb.num.seek"},
    {BLOB_DB_NUM_NEXT, "rocksdb.blobdb.num.next"},
    {BLOB_DB_NUM_PREV, "rocksdb.blobdb.num.prev"},
    {BLOB_DB_NUM_KEYS_WRITTEN, "rocksdb.blobdb.num.keys.written"},
    {BLOB_DB_NUM_KEYS_READ, "rocksdb.blobdb.num.keys.read"},
    {BLOB_DB_BYTES_WRITTEN, "rocksdb.blobdb.bytes.written"},
    {BLOB_DB_BYTES_READ, "rocksdb.blobdb.bytes.read"},
    {BLOB_DB_WRITE_INLINED, "rocksdb.blobdb.write.inlined"},
    {BLOB_DB_WRITE_INLINED_TTL, "rocksdb.blobdb.write.inlined.ttl"},
    {BLOB_DB_WRITE_BLOB, "rocksdb.blobdb.write.blob"},
    {BLOB_DB_WRITE_BLOB_TTL, "rocksdb.blobdb.write.blob.ttl"},
    {BLOB_DB_BLOB_FILE_BYTES_WRITTEN, "rocksdb.blobdb.blob.file.bytes.written"},
    {BLOB_DB_BLOB_FILE_BYTES_READ, "rocksdb.blobdb.blob.file.bytes.read"},
    {BLOB_DB_BLOB_FILE_SYNCED, "rocksdb.blobdb.blob.file.synced"},
    {BLOB_DB_BLOB_INDEX_EXPIRED_COUNT, "rocksdb.blobdb.blob.index.expired.count"},
    {BLOB_DB_BLOB_INDEX_EXPIRED_SIZE, "rocksdb.blobdb.blob.index.expired.size"},
    {BLOB_DB_BLOB_INDEX_EVICTED_COUNT, "rocksdb.blobdb.blob.index.evicted.count"},
    {BLOB_DB_BLOB_INDEX_EVICTED_SIZE, "rocksdb.blobdb.blob.index.evicted.size"},
    {BLOB_DB_GC_NUM_FILES, "rocksdb.blobdb.gc.num.files"},
    {BLOB_DB_GC_NUM_NEW_FILES, "rocksdb.blobdb.gc.num.new.files"},
    {BLOB_DB_GC_FAILURES, "rocksdb.blobdb.gc.failures"},
    {BLOB_DB_GC_NUM_KEYS_OVERWRITTEN, "rocksdb.blobdb.gc.num.keys.overwritten"},
    {BLOB_DB_GC_NUM_KEYS_EXPIRED, "rocksdb.blobdb.gc.num.keys.expired"},
    {BLOB_DB_GC_NUM_KEYS_RELOCATED, "rocksdb.blobdb.gc.num.keys.relocated"},
    {BLOB_DB_GC_BYTES_OVERWRITTEN, "rocksdb.blobdb.gc.bytes.overwritten"},
    {BLOB_DB_GC_BYTES_EXPIRED, "rocksdb.blobdb.gc.bytes.expired"},
    {BLOB_DB_GC_BYTES_RELOCATED, "rocksdb.blobdb.gc.bytes.relocated"},
    {BLOB_DB_FIFO_NUM_FILES_EVICTED, "rocksdb.blobdb.fifo.num.files.evicted"},
    {BLOB_DB_FIFO_NUM_KEYS_EVICTED, "rocksdb.blobdb.fifo.num.keys.evicted"},
    {BLOB_DB_FIFO_BYTES_EVICTED, "rocksdb.blobdb.fifo.bytes.evicted"},
    {TXN_PREPARE_MUTEX_OVERHEAD, "rocksdb.txn.overhead.mutex.prepare"},
    {TXN_OLD_COMMIT_MAP_MUTEX_OVERHEAD, "rocksdb.txn.overhead.mutex.old.commit.map"},
    {TXN_DUPLICATE_KEY_OVERHEAD, "rocksdb.txn.overhead.duplicate.key"},
    {TXN_SNAPSHOT_MUTEX_OVERHEAD, "rocksdb.txn.overhead.mutex.snapshot"},
    {TXN_GET_TRY_AGAIN, "rocksdb.txn.get.tryagain"},
    {NUMBER_MULTIGET_KEYS_FOUND, "rocksdb.number.multiget.keys.found"},
    {NO_ITERATOR_CREATED, "rocksdb.num.iterator.created"},
    {NO_ITERATOR_DELETED, "rocksdb.num.iterator.deleted"},
    {BLOCK_CACHE_COMPRESSION_DICT_MISS, "rocksdb.block.cache.compression.dict.miss"},
    {BLOCK_CACHE_COMPRESSION_DICT_HIT, "rocksdb.block.cache.compression.dict.hit"},
    {BLOCK_CACHE_COMPRESSION_DICT_ADD, "rocksdb.block.cache.compression.dict.add"},
    {BLOCK_CACHE_COMPRESSION_DICT_BYTES_INSERT,
     "rocksdb.block.cache.compression.dict.bytes.insert"},
    {BLOCK_CACHE_COMPRESSION_DICT_BYTES_EVICT, "rocksdb.block.cache.compression.dict.bytes.evict"},
    {BLOCK_CACHE_ADD_REDUNDANT, "rocksdb.block.cache.add.redundant"},
    {BLOCK_CACHE_INDEX_ADD_REDUNDANT, "rocksdb.block.cache.index.add.redundant"},
    {BLOCK_CACHE_FILTER_ADD_REDUNDANT, "rocksdb.block.cache.filter.add.redundant"},
    {BLOCK_CACHE_DATA_ADD_REDUNDANT, "rocksdb.block.cache.data.add.redundant"},
    {BLOCK_CACHE_COMPRESSION_DICT_ADD_REDUNDANT,
     "rocksdb.block.cache.compression.dict.add.redundant"},
    {FILES_MARKED_TRASH, "rocksdb.files.marked.trash"},
    {FILES_DELETED_IMMEDIATELY, "rocksdb.files.deleted.immediately"},
    {ERROR_HANDLER_BG_ERROR_COUNT, "rocksdb.error.handler.bg.errro.count"},
    {ERROR_HANDLER_BG_IO_ERROR_COUNT, "rocksdb.error.handler.bg.io.errro.count"},
    {ERROR_HANDLER_BG_RETRYABLE_IO_ERROR_COUNT,
     "rocksdb.error.handler.bg.retryable.io.errro.count"},
    {ERROR_HANDLER_AUTORESUME_COUNT, "rocksdb.error.handler.autoresume.count"},
    {ERROR_HANDLER_AUTORESUME_RETRY_TOTAL_COUNT,
     "rocksdb.error.handler.autoresume.retry.total.count"},
    {ERROR_HANDLER_AUTORESUME_SUCCESS_COUNT, "rocksdb.error.handler.autoresume.success.count"},
    {MEMTABLE_PAYLOAD_BYTES_AT_FLUSH, "rocksdb.memtable.payload.bytes.at.flush"},
    {MEMTABLE_GARBAGE_BYTES_AT_FLUSH, "rocksdb.memtable.garbage.bytes.at.flush"},
    {SECONDARY_CACHE_HITS, "rocksdb.secondary.cache.hits"},
    {VERIFY_CHECKSUM_READ_BYTES, "rocksdb.verify_checksum.read.bytes"},
    {BACKUP_READ_BYTES, "rocksdb.backup.read.bytes"},
    {BACKUP_WRITE_BYTES, "rocksdb.backup.write.bytes"},
    {REMOTE_COMPACT_READ_BYTES, "rocksdb.remote.compact.read.bytes"},
    {REMOTE_COMPACT_WRITE_BYTES, "rocksdb.remote.compact.write.bytes"},
    {HOT_FILE_READ_BYTES, "rocksdb.hot.file.read.bytes"},
    {WARM_FILE_READ_BYTES, "rocksdb.warm.file.read.bytes"},
    {COLD_FILE_READ_BYTES, "rocksdb.cold.file.read.bytes"},
    {HOT_FILE_READ_COUNT, "rocksdb.hot.file.read.count"},
    {WARM_FILE_READ_COUNT, "rocksdb.warm.file.read.count"},
    {COLD_FILE_READ_COUNT, "rocksdb.cold.file.read.count"},
    {LAST_LEVEL_READ_BYTES, "rocksdb.last.level.read.bytes"},
    {LAST_LEVEL_READ_COUNT, "rocksdb.last.level.read.count"},
    {NON_LAST_LEVEL_READ_BYTES, "rocksdb.non.last.level.read.bytes"},
    {NON_LAST_LEVEL_READ_COUNT, "rocksdb.non.last.level.read.count"},
    {BLOCK_CHECKSUM_COMPUTE_COUNT, "rocksdb.block.checksum.compute.count"},
    {MULTIGET_COROUTINE_COUNT, "rocksdb.multiget.coroutine.count"},
    {BLOB_DB_CACHE_MISS, "rocksdb.blobdb.cache.miss"},
    {BLOB_DB_CACHE_HIT, "rocksdb.blobdb.cache.hit"},
    {BLOB_DB_CACHE_ADD, "rocksdb.blobdb.cache.add"},
    {BLOB_DB_CACHE_ADD_FAILURES, "rocksdb.blobdb.cache.add.failures"},
    {BLOB_DB_CACHE_BYTES_READ, "rocksdb.blobdb.cache.bytes.read"},
    {BLOB_DB_CACHE_BYTES_WRITE, "rocksdb.blobdb.cache.bytes.write"},
    {READ_ASYNC_MICROS, "rocksdb.read.async.micros"},
    {ASYNC_READ_ERROR_COUNT, "rocksdb.async.read.error.count"},
};

struct HistogramInfo {
  Histograms histogram;
  const char* name;
};

constexpr HistogramInfo kHistogramInfo[] = {
    {DB_GET, "rocksdb.db.get.micros"},
    {DB_WRITE, "rocksdb.db.write.micros"},
    {COMPACTION_TIME, "rocksdb.compaction.times.micros"},
    {COMPACTION_CPU_TIME, "rocksdb.compaction.times.cpu_micros"},
    {SUBCOMPACTION_SETUP_TIME, "rocksdb.subcompaction.setup.times.micros"},
    {TABLE_SYNC_MICROS, "rocksdb.table.sync.micros"},
    {COMPACTION_OUTFILE_SYNC_MICROS, "rocksdb.compaction.outfile.sync.micros"},
    {WAL_FILE_SYNC_MICROS, "rocksdb.wal.file.sync.micros"},
    {MANIFEST_FILE_SYNC_MICROS, "rocksdb.manifest.file.sync.micros"},
    {TABLE_OPEN_IO_MICROS, "rocksdb.table.open.io.micros"},
    {DB_MULTIGET, "rocksdb.db.multiget.micros"},
    {READ_BLOCK_COMPACTION_MICROS, "rocksdb.read.block.compaction.micros"},
    {READ_BLOCK_GET_MICROS, "rocksdb.read.block.get.micros"},
    {WRITE_RAW_BLOCK_MICROS, "rocksdb.write.raw.block.micros"},
    {STALL_L0_SLOWDOWN_COUNT, "rocksdb.l0.slowdown.count"},
    {STALL_MEMTABLE_COMPACTION_COUNT, "rocksdb.memtable.compaction.count"},
    {STALL_L0_NUM_FILES_COUNT, "rocksdb.num.files.stall.count"},
    {HARD_RATE_LIMIT_DELAY_COUNT, "rocksdb.hard.rate.limit.delay.count"},
    {SOFT_RATE_LIMIT_DELAY_COUNT, "rocksdb.soft.rate.limit.delay.count"},
    {NUM_FILES_IN_SINGLE_COMPACTION, "rocksdb.numfiles.in.singlecompaction"},
    {DB_SEEK, "rocksdb.db.seek.micros"},
    {WRITE_STALL, "rocksdb.db.write.stall"},
    {SST_READ_MICROS, "rocksdb.sst.read.micros"},
    {NUM_SUBCOMPACTIONS_SCHEDULED, "rocksdb.num.subcompactions.scheduled"},
    {BYTES_PER_READ, "rocksdb.bytes.per.read"},
    {BYTES_PER_WRITE, "rocksdb.bytes.per.write"},
    {BYTES_PER_MULTIGET, "rocksdb.bytes.per.multiget"},
    {BYTES_COMPRESSED, "rocksdb.bytes.compressed"},
    {BYTES_DECOMPRESSED, "rocksdb.bytes.decompressed"},
    {COMPRESSION_TIMES_NANOS, "rocksdb.compression.times.nanos"},
    {DECOMPRESSION_TIMES_NANOS, "rocksdb.decompression.times.nanos"},
    {READ_NUM_MERGE_OPERANDS, "rocksdb.read.num.merge_operands"},
    {BLOB_DB_KEY_SIZE, "rocksdb.blobdb.key.size"},
    {BLOB_DB_VALUE_SIZE, "rocksdb.blobdb.value.size"},
    {BLOB_DB_WRITE_MICROS, "rocksdb.blobdb.write.micros"},
    {BLOB_DB_GET_MICROS, "rocksdb.blobdb.get.micros"},
    {BLOB_DB_MULTIGET_MICROS, "rocksdb.blobdb.multiget.micros"},
    {BLOB_DB_SEEK_MICROS, "rocksdb.blobdb.seek.micros"},
    {BLOB_DB_NEXT_MICROS, "rocksdb.blobdb.next.micros"},
    {BLOB_DB_PREV_MICROS, "rocksdb.blobdb.prev.micros"},
    {BLOB_DB_BLOB_FILE_WRITE_MICROS, "rocksdb.blobdb.blob.file.write.micros"},
    {BLOB_DB_BLOB_FILE_READ_MICROS, "rocksdb.blobdb.blob.file.read.micros"},
    {BLOB_DB_BLOB_FILE_SYNC_MICROS, "rocksdb.blobdb.blob.file.sync.micros"},
    {BLOB_DB_GC_MICROS, "rocksdb.blobdb.gc.micros"},
    {BLOB_DB_COMPRESSION_MICROS, "rocksdb.blobdb.compression.micros"},
    {BLOB_DB_DECOMPRESSION_MICROS, "rocksdb.blobdb.decompression.micros"},
    {FLUSH_TIME, "rocksdb.db.flush.micros"},
    {SST_BATCH_SIZE, "rocksdb.sst.batch.size"},
    {NUM_INDEX_AND_FILTER_BLOCKS_READ_PER_LEVEL,
     "rocksdb.num.index.and.filter.blocks.read.per.level"},
    {NUM_DATA_BLOCKS_READ_PER_LEVEL, "rocksdb.num.data.blocks.read.per.level"},
    {NUM_SST_READ_PER_LEVEL, "rocksdb.num.sst.read.per.level"},
    {ERROR_HANDLER_AUTORESUME_RETRY_COUNT, "rocksdb.error.handler.autoresume.retry.count"},
    {ASYNC_READ_BYTES, "rocksdb.async.read.bytes"},
    {POLL_WAIT_MICROS, "rocksdb.poll.wait.micros"},
    {PREFETCHED_BYTES_DISCARDED, "rocksdb.prefetched.bytes.discarded"},
    {MULTIGET_IO_BATCH_SIZE, "rocksdb.multiget.io.batch.size"},
    {NUM_LEVEL_READ_PER_MULTIGET, "rocksdb.num.level.read.per.multiget"},
    {ASYNC_PREFETCH_ABORT_MICROS, "rocksdb.async.prefetch.abort.micros"},
};

constexpr bool TickerTableInOrder() {
  if (std::size(kTickerInfo) != TICKER_ENUM_MAX) return false;
  for (size_t i = 0; i < std::size(kTickerInfo); i++) {
    if (kTickerInfo[i].ticker != i) return false;
  }
  return true;
}
constexpr bool HistogramTableInOrder() {
  if (std::size(kHistogramInfo) != HISTOGRAM_ENUM_MAX) return false;
  for (size_t i = 0; i < std::size(kHistogramInfo); i++) {
    if (kHistogramInfo[i].histogram != i) return false;
  }
  return true;
}
static_assert(TickerTableInOrder(), "kTickerInfo must list every ticker in order");
static_assert(HistogramTableInOrder(), "kHistogramInfo must list every histogram in order");

constexpr size_t kCacheLine = 64;

struct alignas(kCacheLine) LockedHistogram {
  mutable Mutex mu;
  Histogram hist GUARDED_BY(mu);
};

struct alignas(kCacheLine) Shard {
  std::atomic<uint64_t> tickers[TICKER_ENUM_MAX] = {};
  LockedHistogram histograms[HISTOGRAM_ENUM_MAX];
};

size_t ShardCount() {
  const unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  size_t n = 1;
  while (n < cpus && n < 256) n <<= 1;
  return n;
}

class StatisticsImpl final : public Statistics {
 public:
  StatisticsImpl() : num_shards_(ShardCount()), shards_(new Shard[num_shards_]) {}

  const char* Name() const override { return kClassName; }
  static constexpr const char* kClassName = "BasicStatistics";

  uint64_t getTickerCount(uint32_t ticker) const override {
    if (ticker >= TICKER_ENUM_MAX) return 0;
    uint64_t sum = 0;
    for (size_t s = 0; s < num_shards_; s++) {
      // Relaxed: a counter value, not a publication of other data.
      sum += shards_[s].tickers[ticker].load(std::memory_order_relaxed);
    }
    return sum;
  }

  void recordTick(uint32_t ticker, uint64_t count) override {
    if (ticker >= TICKER_ENUM_MAX || get_stats_level() <= kExceptTickers) return;
    // Relaxed: counters order nothing else.
    MyShard().tickers[ticker].fetch_add(count, std::memory_order_relaxed);
  }

  // Not atomic with respect to concurrent recordTick calls on other shards.
  void setTickerCount(uint32_t ticker, uint64_t count) override {
    if (ticker >= TICKER_ENUM_MAX) return;
    for (size_t s = 0; s < num_shards_; s++) {
      shards_[s].tickers[ticker].store(s == 0 ? count : 0, std::memory_order_relaxed);
    }
  }

  uint64_t getAndResetTickerCount(uint32_t ticker) override {
    if (ticker >= TICKER_ENUM_MAX) return 0;
    uint64_t sum = 0;
    for (size_t s = 0; s < num_shards_; s++) {
      sum += shards_[s].tickers[ticker].exchange(0, std::memory_order_relaxed);
    }
    return sum;
  }

  bool getTickerMap(std::map<std::string, uint64_t>* map) const override {
    for (const TickerInfo& t : kTickerInfo) (*map)[t.name] = getTickerCount(t.ticker);
    return true;
  }

  void recordInHistogram(uint32_t histogram, uint64_t value) override {
    if (histogram >= HISTOGRAM_ENUM_MAX || get_stats_level() <= kExceptHistogramOrTimers) return;
    LockedHistogram& h = MyShard().histograms[histogram];
    MutexLock lock(&h.mu);
    h.hist.Add(value);
  }

  void histogramData(uint32_t histogram, HistogramData* data) const override {
    const Histogram merged = Merged(histogram);
    data->median = merged.Median();
    data->percentile95 = merged.Percentile(95);
    data->percentile99 = merged.Percentile(99);
    data->average = merged.Average();
    data->standard_deviation = merged.StandardDeviation();
    data->max = merged.Max();
    data->min = merged.Min();
    data->count = merged.Count();
    data->sum = static_cast<uint64_t>(merged.Sum());
  }

  std::string getHistogramString(uint32_t histogram) const override {
    return Merged(histogram).ToString();
  }

  Status Reset() override {
    for (size_t s = 0; s < num_shards_; s++) {
      for (auto& t : shards_[s].tickers) t.store(0, std::memory_order_relaxed);
      for (auto& h : shards_[s].histograms) {
        MutexLock lock(&h.mu);
        h.hist.Clear();
      }
    }
    return Status::OK();
  }

  std::string ToString() const override {
    std::string r;
    char buf[512];
    for (const TickerInfo& t : kTickerInfo) {
      snprintf(buf, sizeof(buf), "%s COUNT : %" PRIu64 "\n", t.name, getTickerCount(t.ticker));
      r.append(buf);
    }
    for (const HistogramInfo& h : kHistogramInfo) {
      HistogramData d;
      histogramData(h.histogram, &d);
      snprintf(buf, sizeof(buf),
               "%s P50 : %f P95 : %f P99 : %f P100 : %f COUNT : %" PRIu64 " SUM : %" PRIu64 "\n",
               h.name, d.median, d.percentile95, d.percentile99, d.max, d.count, d.sum);
      r.append(buf);
    }
    return r;
  }

 private:
  Shard& MyShard() const {
    const int cpu = sched_getcpu();
    const size_t index = cpu < 0 ? 0 : static_cast<size_t>(cpu);
    return shards_[index & (num_shards_ - 1)];
  }

  Histogram Merged(uint32_t histogram) const {
    Histogram merged;
    if (histogram >= HISTOGRAM_ENUM_MAX) return merged;
    for (size_t s = 0; s < num_shards_; s++) {
      const LockedHistogram& h = shards_[s].histograms[histogram];
      MutexLock lock(&h.mu);
      merged.Merge(h.hist);
    }
    return merged;
  }

  // Immutable after construction: a power of two.
  const size_t num_shards_;
  const std::unique_ptr<Shard[]> shards_;
};

}  // namespace

const char* TickerName(uint32_t ticker) {
  return ticker < TICKER_ENUM_MAX ? kTickerInfo[ticker].name : "rocksdb.unknown";
}

const char* HistogramName(uint32_t histogram) {
  return histogram < HISTOGRAM_ENUM_MAX ? kHistogramInfo[histogram].name : "rocksdb.unknown";
}

std::shared_ptr<Statistics> CreateDBStatistics() { return std::make_shared<StatisticsImpl>(); }

Status Statistics::CreateFromString(const ConfigOptions& config_options, const std::string& id,
                                    std::shared_ptr<Statistics>* result) {
  if (id.empty() || id == StatisticsImpl::kClassName) {
    *result = CreateDBStatistics();
  } else if (id == "nullptr") {
    result->reset();
  } else if (!config_options.ignore_unsupported_options) {
    return Status::NotSupported("Could not load Statistics", id);
  }
  return Status::OK();
}

std::string Statistics::ToString(const ConfigOptions& config_options) const {
  return ToString(config_options, "");
}

std::string Statistics::ToString(const ConfigOptions& config_options,
                                 const std::string& prefix) const {
  // Only the built-in implementation has an option ("inner", a wrapped
  // Statistics, always null here); an id without options prints bare.
  if (dynamic_cast<const StatisticsImpl*>(this) == nullptr) return Name();
  const std::string& d = config_options.delimiter;
  return "{" + prefix + "id=" + Name() + d + "inner=nullptr" + d + "}";
}

}  // namespace strata
