// Statistics: RocksDB's names and numbering, the recording calls, the
// stats levels and RocksDB's ToString format.
#include "strata/statistics.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "test_util/testutil.h"

namespace strata {
namespace {

struct Expected {
  uint32_t value;
  uint32_t rocksdb_value;
  const char* name;
};

// RocksDB 7.8.3 (rocksdb/statistics.h and its TickersNameMap): every ticker
// with its number and printed name.
const Expected kExpectedTickers[] = {
    {BLOCK_CACHE_MISS, 0, "rocksdb.block.cache.miss"},
    {BLOCK_CACHE_HIT, 1, "rocksdb.block.cache.hit"},
    {BLOCK_CACHE_ADD, 2, "rocksdb.block.cache.add"},
    {BLOCK_CACHE_ADD_FAILURES, 3, "rocksdb.block.cache.add.failures"},
    {BLOCK_CACHE_INDEX_MISS, 4, "rocksdb.block.cache.index.miss"},
    {BLOCK_CACHE_INDEX_HIT, 5, "rocksdb.block.cache.index.hit"},
    {BLOCK_CACHE_INDEX_ADD, 6, "rocksdb.block.cache.index.add"},
    {BLOCK_CACHE_INDEX_BYTES_INSERT, 7, "rocksdb.block.cache.index.bytes.insert"},
    {BLOCK_CACHE_INDEX_BYTES_EVICT, 8, "rocksdb.block.cache.index.bytes.evict"},
    {BLOCK_CACHE_FILTER_MISS, 9, "rocksdb.block.cache.filter.miss"},
    {BLOCK_CACHE_FILTER_HIT, 10, "rocksdb.block.cache.filter.hit"},
    {BLOCK_CACHE_FILTER_ADD, 11, "rocksdb.block.cache.filter.add"},
    {BLOCK_CACHE_FILTER_BYTES_INSERT, 12, "rocksdb.block.cache.filter.bytes.insert"},
    {BLOCK_CACHE_FILTER_BYTES_EVICT, 13, "rocksdb.block.cache.filter.bytes.evict"},
    {BLOCK_CACHE_DATA_MISS, 14, "rocksdb.block.cache.data.miss"},
    {BLOCK_CACHE_DATA_HIT, 15, "rocksdb.block.cache.data.hit"},
    {BLOCK_CACHE_DATA_ADD, 16, "rocksdb.block.cache.data.add"},
    {BLOCK_CACHE_DATA_BYTES_INSERT, 17, "rocksdb.block.cache.data.bytes.insert"},
    {BLOCK_CACHE_BYTES_READ, 18, "rocksdb.block.cache.bytes.read"},
    {BLOCK_CACHE_BYTES_WRITE, 19, "rocksdb.block.cache.bytes.write"},
    {BLOOM_FILTER_USEFUL, 20, "rocksdb.bloom.filter.useful"},
    {BLOOM_FILTER_FULL_POSITIVE, 21, "rocksdb.bloom.filter.full.positive"},
    {BLOOM_FILTER_FULL_TRUE_POSITIVE, 22, "rocksdb.bloom.filter.full.true.positive"},
    {BLOOM_FILTER_MICROS, 23, "rocksdb.bloom.filter.micros"},
    {PERSISTENT_CACHE_HIT, 24, "rocksdb.persistent.cache.hit"},
    {PERSISTENT_CACHE_MISS, 25, "rocksdb.persistent.cache.miss"},
    {SIM_BLOCK_CACHE_HIT, 26, "rocksdb.sim.block.cache.hit"},
    {SIM_BLOCK_CACHE_MISS, 27, "rocksdb.sim.block.cache.miss"},
    {MEMTABLE_HIT, 28, "rocksdb.memtable.hit"},
    {MEMTABLE_MISS, 29, "rocksdb.memtable.miss"},
    {GET_HIT_L0, 30, "rocksdb.l0.hit"},
    {GET_HIT_L1, 31, "rocksdb.l1.hit"},
    {GET_HIT_L2_AND_UP, 32, "rocksdb.l2andup.hit"},
    {COMPACTION_KEY_DROP_NEWER_ENTRY, 33, "rocksdb.compaction.key.drop.new"},
    {COMPACTION_KEY_DROP_OBSOLETE, 34, "rocksdb.compaction.key.drop.obsolete"},
    {COMPACTION_KEY_DROP_RANGE_DEL, 35, "rocksdb.compaction.key.drop.range_del"},
    {COMPACTION_KEY_DROP_USER, 36, "rocksdb.compaction.key.drop.user"},
    {COMPACTION_RANGE_DEL_DROP_OBSOLETE, 37, "rocksdb.compaction.range_del.drop.obsolete"},
    {COMPACTION_OPTIMIZED_DEL_DROP_OBSOLETE, 38, "rocksdb.compaction.optimized.del.drop.obsolete"},
    {COMPACTION_CANCELLED, 39, "rocksdb.compaction.cancelled"},
    {NUMBER_KEYS_WRITTEN, 40, "rocksdb.number.keys.written"},
    {NUMBER_KEYS_READ, 41, "rocksdb.number.keys.read"},
    {NUMBER_KEYS_UPDATED, 42, "rocksdb.number.keys.updated"},
    {BYTES_WRITTEN, 43, "rocksdb.bytes.written"},
    {BYTES_READ, 44, "rocksdb.bytes.read"},
    {NUMBER_DB_SEEK, 45, "rocksdb.number.db.seek"},
    {NUMBER_DB_NEXT, 46, "rocksdb.number.db.next"},
    {NUMBER_DB_PREV, 47, "rocksdb.number.db.prev"},
    {NUMBER_DB_SEEK_FOUND, 48, "rocksdb.number.db.seek.found"},
    {NUMBER_DB_NEXT_FOUND, 49, "rocksdb.number.db.next.found"},
    {NUMBER_DB_PREV_FOUND, 50, "rocksdb.number.db.prev.found"},
    {ITER_BYTES_READ, 51, "rocksdb.db.iter.bytes.read"},
    {NO_FILE_CLOSES, 52, "rocksdb.no.file.closes"},
    {NO_FILE_OPENS, 53, "rocksdb.no.file.opens"},
    {NO_FILE_ERRORS, 54, "rocksdb.no.file.errors"},
    {STALL_L0_SLOWDOWN_MICROS, 55, "rocksdb.l0.slowdown.micros"},
    {STALL_MEMTABLE_COMPACTION_MICROS, 56, "rocksdb.memtable.compaction.micros"},
    {STALL_L0_NUM_FILES_MICROS, 57, "rocksdb.l0.num.files.stall.micros"},
    {STALL_MICROS, 58, "rocksdb.stall.micros"},
    {DB_MUTEX_WAIT_MICROS, 59, "rocksdb.db.mutex.wait.micros"},
    {RATE_LIMIT_DELAY_MILLIS, 60, "rocksdb.rate.limit.delay.millis"},
    {NO_ITERATORS, 61, "rocksdb.num.iterators"},
    {NUMBER_MULTIGET_CALLS, 62, "rocksdb.number.multiget.get"},
    {NUMBER_MULTIGET_KEYS_READ, 63, "rocksdb.number.multiget.keys.read"},
    {NUMBER_MULTIGET_BYTES_READ, 64, "rocksdb.number.multiget.bytes.read"},
    {NUMBER_FILTERED_DELETES, 65, "rocksdb.number.deletes.filtered"},
    {NUMBER_MERGE_FAILURES, 66, "rocksdb.number.merge.failures"},
    {BLOOM_FILTER_PREFIX_CHECKED, 67, "rocksdb.bloom.filter.prefix.checked"},
    {BLOOM_FILTER_PREFIX_USEFUL, 68, "rocksdb.bloom.filter.prefix.useful"},
    {NUMBER_OF_RESEEKS_IN_ITERATION, 69, "rocksdb.number.reseeks.iteration"},
    {GET_UPDATES_SINCE_CALLS, 70, "rocksdb.getupdatessince.calls"},
    {BLOCK_CACHE_COMPRESSED_MISS, 71, "rocksdb.block.cachecompressed.miss"},
    {BLOCK_CACHE_COMPRESSED_HIT, 72, "rocksdb.block.cachecompressed.hit"},
    {BLOCK_CACHE_COMPRESSED_ADD, 73, "rocksdb.block.cachecompressed.add"},
    {BLOCK_CACHE_COMPRESSED_ADD_FAILURES, 74, "rocksdb.block.cachecompressed.add.failures"},
    {WAL_FILE_SYNCED, 75, "rocksdb.wal.synced"},
    {WAL_FILE_BYTES, 76, "rocksdb.wal.bytes"},
    {WRITE_DONE_BY_SELF, 77, "rocksdb.write.self"},
    {WRITE_DONE_BY_OTHER, 78, "rocksdb.write.other"},
    {WRITE_TIMEDOUT, 79, "rocksdb.write.timeout"},
    {WRITE_WITH_WAL, 80, "rocksdb.write.wal"},
    {COMPACT_READ_BYTES, 81, "rocksdb.compact.read.bytes"},
    {COMPACT_WRITE_BYTES, 82, "rocksdb.compact.write.bytes"},
    {FLUSH_WRITE_BYTES, 83, "rocksdb.flush.write.bytes"},
    {COMPACT_READ_BYTES_MARKED, 84, "rocksdb.compact.read.marked.bytes"},
    {COMPACT_READ_BYTES_PERIODIC, 85, "rocksdb.compact.read.periodic.bytes"},
    {COMPACT_READ_BYTES_TTL, 86, "rocksdb.compact.read.ttl.bytes"},
    {COMPACT_WRITE_BYTES_MARKED, 87, "rocksdb.compact.write.marked.bytes"},
    {COMPACT_WRITE_BYTES_PERIODIC, 88, "rocksdb.compact.write.periodic.bytes"},
    {COMPACT_WRITE_BYTES_TTL, 89, "rocksdb.compact.write.ttl.bytes"},
    {NUMBER_DIRECT_LOAD_TABLE_PROPERTIES, 90, "rocksdb.number.direct.load.table.properties"},
    {NUMBER_SUPERVERSION_ACQUIRES, 91, "rocksdb.number.superversion_acquires"},
    {NUMBER_SUPERVERSION_RELEASES, 92, "rocksdb.number.superversion_releases"},
    {NUMBER_SUPERVERSION_CLEANUPS, 93, "rocksdb.number.superversion_cleanups"},
    {NUMBER_BLOCK_COMPRESSED, 94, "rocksdb.number.block.compressed"},
    {NUMBER_BLOCK_DECOMPRESSED, 95, "rocksdb.number.block.decompressed"},
    {NUMBER_BLOCK_NOT_COMPRESSED, 96, "rocksdb.number.block.not_compressed"},
    {MERGE_OPERATION_TOTAL_TIME, 97, "rocksdb.merge.operation.time.nanos"},
    {FILTER_OPERATION_TOTAL_TIME, 98, "rocksdb.filter.operation.time.nanos"},
    {ROW_CACHE_HIT, 99, "rocksdb.row.cache.hit"},
    {ROW_CACHE_MISS, 100, "rocksdb.row.cache.miss"},
    {READ_AMP_ESTIMATE_USEFUL_BYTES, 101, "rocksdb.read.amp.estimate.useful.bytes"},
    {READ_AMP_TOTAL_READ_BYTES, 102, "rocksdb.read.amp.total.read.bytes"},
    {NUMBER_RATE_LIMITER_DRAINS, 103, "rocksdb.number.rate_limiter.drains"},
    {NUMBER_ITER_SKIP, 104, "rocksdb.number.iter.skip"},
    {BLOB_DB_NUM_PUT, 105, "rocksdb.blobdb.num.put"},
    {BLOB_DB_NUM_WRITE, 106, "rocksdb.blobdb.num.write"},
    {BLOB_DB_NUM_GET, 107, "rocksdb.blobdb.num.get"},
    {BLOB_DB_NUM_MULTIGET, 108, "rocksdb.blobdb.num.multiget"},
    {BLOB_DB_NUM_SEEK, 109, "rocksdb.blobdb.num.seek"},
    {BLOB_DB_NUM_NEXT, 110, "rocksdb.blobdb.num.next"},
    {BLOB_DB_NUM_PREV, 111, "rocksdb.blobdb.num.prev"},
    {BLOB_DB_NUM_KEYS_WRITTEN, 112, "rocksdb.blobdb.num.keys.written"},
    {BLOB_DB_NUM_KEYS_READ, 113, "rocksdb.blobdb.num.keys.read"},
    {BLOB_DB_BYTES_WRITTEN, 114, "rocksdb.blobdb.bytes.written"},
    {BLOB_DB_BYTES_READ, 115, "rocksdb.blobdb.bytes.read"},
    {BLOB_DB_WRITE_INLINED, 116, "rocksdb.blobdb.write.inlined"},
    {BLOB_DB_WRITE_INLINED_TTL, 117, "rocksdb.blobdb.write.inlined.ttl"},
    {BLOB_DB_WRITE_BLOB, 118, "rocksdb.blobdb.write.blob"},
    {BLOB_DB_WRITE_BLOB_TTL, 119, "rocksdb.blobdb.write.blob.ttl"},
    {BLOB_DB_BLOB_FILE_BYTES_WRITTEN, 120, "rocksdb.blobdb.blob.file.bytes.written"},
    {BLOB_DB_BLOB_FILE_BYTES_READ, 121, "rocksdb.blobdb.blob.file.bytes.read"},
    {BLOB_DB_BLOB_FILE_SYNCED, 122, "rocksdb.blobdb.blob.file.synced"},
    {BLOB_DB_BLOB_INDEX_EXPIRED_COUNT, 123, "rocksdb.blobdb.blob.index.expired.count"},
    {BLOB_DB_BLOB_INDEX_EXPIRED_SIZE, 124, "rocksdb.blobdb.blob.index.expired.size"},
    {BLOB_DB_BLOB_INDEX_EVICTED_COUNT, 125, "rocksdb.blobdb.blob.index.evicted.count"},
    {BLOB_DB_BLOB_INDEX_EVICTED_SIZE, 126, "rocksdb.blobdb.blob.index.evicted.size"},
    {BLOB_DB_GC_NUM_FILES, 127, "rocksdb.blobdb.gc.num.files"},
    {BLOB_DB_GC_NUM_NEW_FILES, 128, "rocksdb.blobdb.gc.num.new.files"},
    {BLOB_DB_GC_FAILURES, 129, "rocksdb.blobdb.gc.failures"},
    {BLOB_DB_GC_NUM_KEYS_OVERWRITTEN, 130, "rocksdb.blobdb.gc.num.keys.overwritten"},
    {BLOB_DB_GC_NUM_KEYS_EXPIRED, 131, "rocksdb.blobdb.gc.num.keys.expired"},
    {BLOB_DB_GC_NUM_KEYS_RELOCATED, 132, "rocksdb.blobdb.gc.num.keys.relocated"},
    {BLOB_DB_GC_BYTES_OVERWRITTEN, 133, "rocksdb.blobdb.gc.bytes.overwritten"},
    {BLOB_DB_GC_BYTES_EXPIRED, 134, "rocksdb.blobdb.gc.bytes.expired"},
    {BLOB_DB_GC_BYTES_RELOCATED, 135, "rocksdb.blobdb.gc.bytes.relocated"},
    {BLOB_DB_FIFO_NUM_FILES_EVICTED, 136, "rocksdb.blobdb.fifo.num.files.evicted"},
    {BLOB_DB_FIFO_NUM_KEYS_EVICTED, 137, "rocksdb.blobdb.fifo.num.keys.evicted"},
    {BLOB_DB_FIFO_BYTES_EVICTED, 138, "rocksdb.blobdb.fifo.bytes.evicted"},
    {TXN_PREPARE_MUTEX_OVERHEAD, 139, "rocksdb.txn.overhead.mutex.prepare"},
    {TXN_OLD_COMMIT_MAP_MUTEX_OVERHEAD, 140, "rocksdb.txn.overhead.mutex.old.commit.map"},
    {TXN_DUPLICATE_KEY_OVERHEAD, 141, "rocksdb.txn.overhead.duplicate.key"},
    {TXN_SNAPSHOT_MUTEX_OVERHEAD, 142, "rocksdb.txn.overhead.mutex.snapshot"},
    {TXN_GET_TRY_AGAIN, 143, "rocksdb.txn.get.tryagain"},
    {NUMBER_MULTIGET_KEYS_FOUND, 144, "rocksdb.number.multiget.keys.found"},
    {NO_ITERATOR_CREATED, 145, "rocksdb.num.iterator.created"},
    {NO_ITERATOR_DELETED, 146, "rocksdb.num.iterator.deleted"},
    {BLOCK_CACHE_COMPRESSION_DICT_MISS, 147, "rocksdb.block.cache.compression.dict.miss"},
    {BLOCK_CACHE_COMPRESSION_DICT_HIT, 148, "rocksdb.block.cache.compression.dict.hit"},
    {BLOCK_CACHE_COMPRESSION_DICT_ADD, 149, "rocksdb.block.cache.compression.dict.add"},
    {BLOCK_CACHE_COMPRESSION_DICT_BYTES_INSERT, 150,
     "rocksdb.block.cache.compression.dict.bytes.insert"},
    {BLOCK_CACHE_COMPRESSION_DICT_BYTES_EVICT, 151,
     "rocksdb.block.cache.compression.dict.bytes.evict"},
    {BLOCK_CACHE_ADD_REDUNDANT, 152, "rocksdb.block.cache.add.redundant"},
    {BLOCK_CACHE_INDEX_ADD_REDUNDANT, 153, "rocksdb.block.cache.index.add.redundant"},
    {BLOCK_CACHE_FILTER_ADD_REDUNDANT, 154, "rocksdb.block.cache.filter.add.redundant"},
    {BLOCK_CACHE_DATA_ADD_REDUNDANT, 155, "rocksdb.block.cache.data.add.redundant"},
    {BLOCK_CACHE_COMPRESSION_DICT_ADD_REDUNDANT, 156,
     "rocksdb.block.cache.compression.dict.add.redundant"},
    {FILES_MARKED_TRASH, 157, "rocksdb.files.marked.trash"},
    {FILES_DELETED_IMMEDIATELY, 158, "rocksdb.files.deleted.immediately"},
    {ERROR_HANDLER_BG_ERROR_COUNT, 159, "rocksdb.error.handler.bg.errro.count"},
    {ERROR_HANDLER_BG_IO_ERROR_COUNT, 160, "rocksdb.error.handler.bg.io.errro.count"},
    {ERROR_HANDLER_BG_RETRYABLE_IO_ERROR_COUNT, 161,
     "rocksdb.error.handler.bg.retryable.io.errro.count"},
    {ERROR_HANDLER_AUTORESUME_COUNT, 162, "rocksdb.error.handler.autoresume.count"},
    {ERROR_HANDLER_AUTORESUME_RETRY_TOTAL_COUNT, 163,
     "rocksdb.error.handler.autoresume.retry.total.count"},
    {ERROR_HANDLER_AUTORESUME_SUCCESS_COUNT, 164, "rocksdb.error.handler.autoresume.success.count"},
    {MEMTABLE_PAYLOAD_BYTES_AT_FLUSH, 165, "rocksdb.memtable.payload.bytes.at.flush"},
    {MEMTABLE_GARBAGE_BYTES_AT_FLUSH, 166, "rocksdb.memtable.garbage.bytes.at.flush"},
    {SECONDARY_CACHE_HITS, 167, "rocksdb.secondary.cache.hits"},
    {VERIFY_CHECKSUM_READ_BYTES, 168, "rocksdb.verify_checksum.read.bytes"},
    {BACKUP_READ_BYTES, 169, "rocksdb.backup.read.bytes"},
    {BACKUP_WRITE_BYTES, 170, "rocksdb.backup.write.bytes"},
    {REMOTE_COMPACT_READ_BYTES, 171, "rocksdb.remote.compact.read.bytes"},
    {REMOTE_COMPACT_WRITE_BYTES, 172, "rocksdb.remote.compact.write.bytes"},
    {HOT_FILE_READ_BYTES, 173, "rocksdb.hot.file.read.bytes"},
    {WARM_FILE_READ_BYTES, 174, "rocksdb.warm.file.read.bytes"},
    {COLD_FILE_READ_BYTES, 175, "rocksdb.cold.file.read.bytes"},
    {HOT_FILE_READ_COUNT, 176, "rocksdb.hot.file.read.count"},
    {WARM_FILE_READ_COUNT, 177, "rocksdb.warm.file.read.count"},
    {COLD_FILE_READ_COUNT, 178, "rocksdb.cold.file.read.count"},
    {LAST_LEVEL_READ_BYTES, 179, "rocksdb.last.level.read.bytes"},
    {LAST_LEVEL_READ_COUNT, 180, "rocksdb.last.level.read.count"},
    {NON_LAST_LEVEL_READ_BYTES, 181, "rocksdb.non.last.level.read.bytes"},
    {NON_LAST_LEVEL_READ_COUNT, 182, "rocksdb.non.last.level.read.count"},
    {BLOCK_CHECKSUM_COMPUTE_COUNT, 183, "rocksdb.block.checksum.compute.count"},
    {MULTIGET_COROUTINE_COUNT, 184, "rocksdb.multiget.coroutine.count"},
    {BLOB_DB_CACHE_MISS, 185, "rocksdb.blobdb.cache.miss"},
    {BLOB_DB_CACHE_HIT, 186, "rocksdb.blobdb.cache.hit"},
    {BLOB_DB_CACHE_ADD, 187, "rocksdb.blobdb.cache.add"},
    {BLOB_DB_CACHE_ADD_FAILURES, 188, "rocksdb.blobdb.cache.add.failures"},
    {BLOB_DB_CACHE_BYTES_READ, 189, "rocksdb.blobdb.cache.bytes.read"},
    {BLOB_DB_CACHE_BYTES_WRITE, 190, "rocksdb.blobdb.cache.bytes.write"},
    {READ_ASYNC_MICROS, 191, "rocksdb.read.async.micros"},
    {ASYNC_READ_ERROR_COUNT, 192, "rocksdb.async.read.error.count"},
};

// The same for HistogramsNameMap.
const Expected kExpectedHistograms[] = {
    {DB_GET, 0, "rocksdb.db.get.micros"},
    {DB_WRITE, 1, "rocksdb.db.write.micros"},
    {COMPACTION_TIME, 2, "rocksdb.compaction.times.micros"},
    {COMPACTION_CPU_TIME, 3, "rocksdb.compaction.times.cpu_micros"},
    {SUBCOMPACTION_SETUP_TIME, 4, "rocksdb.subcompaction.setup.times.micros"},
    {TABLE_SYNC_MICROS, 5, "rocksdb.table.sync.micros"},
    {COMPACTION_OUTFILE_SYNC_MICROS, 6, "rocksdb.compaction.outfile.sync.micros"},
    {WAL_FILE_SYNC_MICROS, 7, "rocksdb.wal.file.sync.micros"},
    {MANIFEST_FILE_SYNC_MICROS, 8, "rocksdb.manifest.file.sync.micros"},
    {TABLE_OPEN_IO_MICROS, 9, "rocksdb.table.open.io.micros"},
    {DB_MULTIGET, 10, "rocksdb.db.multiget.micros"},
    {READ_BLOCK_COMPACTION_MICROS, 11, "rocksdb.read.block.compaction.micros"},
    {READ_BLOCK_GET_MICROS, 12, "rocksdb.read.block.get.micros"},
    {WRITE_RAW_BLOCK_MICROS, 13, "rocksdb.write.raw.block.micros"},
    {STALL_L0_SLOWDOWN_COUNT, 14, "rocksdb.l0.slowdown.count"},
    {STALL_MEMTABLE_COMPACTION_COUNT, 15, "rocksdb.memtable.compaction.count"},
    {STALL_L0_NUM_FILES_COUNT, 16, "rocksdb.num.files.stall.count"},
    {HARD_RATE_LIMIT_DELAY_COUNT, 17, "rocksdb.hard.rate.limit.delay.count"},
    {SOFT_RATE_LIMIT_DELAY_COUNT, 18, "rocksdb.soft.rate.limit.delay.count"},
    {NUM_FILES_IN_SINGLE_COMPACTION, 19, "rocksdb.numfiles.in.singlecompaction"},
    {DB_SEEK, 20, "rocksdb.db.seek.micros"},
    {WRITE_STALL, 21, "rocksdb.db.write.stall"},
    {SST_READ_MICROS, 22, "rocksdb.sst.read.micros"},
    {NUM_SUBCOMPACTIONS_SCHEDULED, 23, "rocksdb.num.subcompactions.scheduled"},
    {BYTES_PER_READ, 24, "rocksdb.bytes.per.read"},
    {BYTES_PER_WRITE, 25, "rocksdb.bytes.per.write"},
    {BYTES_PER_MULTIGET, 26, "rocksdb.bytes.per.multiget"},
    {BYTES_COMPRESSED, 27, "rocksdb.bytes.compressed"},
    {BYTES_DECOMPRESSED, 28, "rocksdb.bytes.decompressed"},
    {COMPRESSION_TIMES_NANOS, 29, "rocksdb.compression.times.nanos"},
    {DECOMPRESSION_TIMES_NANOS, 30, "rocksdb.decompression.times.nanos"},
    {READ_NUM_MERGE_OPERANDS, 31, "rocksdb.read.num.merge_operands"},
    {BLOB_DB_KEY_SIZE, 32, "rocksdb.blobdb.key.size"},
    {BLOB_DB_VALUE_SIZE, 33, "rocksdb.blobdb.value.size"},
    {BLOB_DB_WRITE_MICROS, 34, "rocksdb.blobdb.write.micros"},
    {BLOB_DB_GET_MICROS, 35, "rocksdb.blobdb.get.micros"},
    {BLOB_DB_MULTIGET_MICROS, 36, "rocksdb.blobdb.multiget.micros"},
    {BLOB_DB_SEEK_MICROS, 37, "rocksdb.blobdb.seek.micros"},
    {BLOB_DB_NEXT_MICROS, 38, "rocksdb.blobdb.next.micros"},
    {BLOB_DB_PREV_MICROS, 39, "rocksdb.blobdb.prev.micros"},
    {BLOB_DB_BLOB_FILE_WRITE_MICROS, 40, "rocksdb.blobdb.blob.file.write.micros"},
    {BLOB_DB_BLOB_FILE_READ_MICROS, 41, "rocksdb.blobdb.blob.file.read.micros"},
    {BLOB_DB_BLOB_FILE_SYNC_MICROS, 42, "rocksdb.blobdb.blob.file.sync.micros"},
    {BLOB_DB_GC_MICROS, 43, "rocksdb.blobdb.gc.micros"},
    {BLOB_DB_COMPRESSION_MICROS, 44, "rocksdb.blobdb.compression.micros"},
    {BLOB_DB_DECOMPRESSION_MICROS, 45, "rocksdb.blobdb.decompression.micros"},
    {FLUSH_TIME, 46, "rocksdb.db.flush.micros"},
    {SST_BATCH_SIZE, 47, "rocksdb.sst.batch.size"},
    {NUM_INDEX_AND_FILTER_BLOCKS_READ_PER_LEVEL, 48,
     "rocksdb.num.index.and.filter.blocks.read.per.level"},
    {NUM_DATA_BLOCKS_READ_PER_LEVEL, 49, "rocksdb.num.data.blocks.read.per.level"},
    {NUM_SST_READ_PER_LEVEL, 50, "rocksdb.num.sst.read.per.level"},
    {ERROR_HANDLER_AUTORESUME_RETRY_COUNT, 51, "rocksdb.error.handler.autoresume.retry.count"},
    {ASYNC_READ_BYTES, 52, "rocksdb.async.read.bytes"},
    {POLL_WAIT_MICROS, 53, "rocksdb.poll.wait.micros"},
    {PREFETCHED_BYTES_DISCARDED, 54, "rocksdb.prefetched.bytes.discarded"},
    {MULTIGET_IO_BATCH_SIZE, 55, "rocksdb.multiget.io.batch.size"},
    {NUM_LEVEL_READ_PER_MULTIGET, 56, "rocksdb.num.level.read.per.multiget"},
    {ASYNC_PREFETCH_ABORT_MICROS, 57, "rocksdb.async.prefetch.abort.micros"},
};

TEST(StatisticsTest, NamesAndNumbersAreRocksDBs) {
  ASSERT_EQ(std::size(kExpectedTickers), static_cast<size_t>(TICKER_ENUM_MAX));
  ASSERT_EQ(std::size(kExpectedHistograms), static_cast<size_t>(HISTOGRAM_ENUM_MAX));
  for (const Expected& e : kExpectedTickers) {
    EXPECT_EQ(e.rocksdb_value, e.value) << e.name;
    EXPECT_STREQ(e.name, TickerName(e.value));
  }
  for (const Expected& e : kExpectedHistograms) {
    EXPECT_EQ(e.rocksdb_value, e.value) << e.name;
    EXPECT_STREQ(e.name, HistogramName(e.value));
  }
  EXPECT_STREQ("rocksdb.unknown", TickerName(TICKER_ENUM_MAX));
  EXPECT_STREQ("rocksdb.unknown", HistogramName(HISTOGRAM_ENUM_MAX));
}

TEST(StatisticsTest, TickersStartAtZeroAndCount) {
  auto stats = CreateDBStatistics();
  for (uint32_t t = 0; t < TICKER_ENUM_MAX; t++) {
    EXPECT_EQ(0u, stats->getTickerCount(t)) << TickerName(t);
  }
  stats->recordTick(BYTES_WRITTEN, 100);
  stats->recordTick(BYTES_WRITTEN);
  stats->recordTick(MEMTABLE_HIT, 7);
  EXPECT_EQ(101u, stats->getTickerCount(BYTES_WRITTEN));
  EXPECT_EQ(7u, stats->getTickerCount(MEMTABLE_HIT));
  EXPECT_EQ(0u, stats->getTickerCount(MEMTABLE_MISS));

  stats->setTickerCount(BYTES_WRITTEN, 5);
  EXPECT_EQ(5u, stats->getTickerCount(BYTES_WRITTEN));
  stats->recordTick(BYTES_WRITTEN, 2);
  EXPECT_EQ(7u, stats->getTickerCount(BYTES_WRITTEN));

  // Out-of-range indices are ignored.
  stats->recordTick(TICKER_ENUM_MAX, 1);
  EXPECT_EQ(0u, stats->getTickerCount(TICKER_ENUM_MAX));
}

TEST(StatisticsTest, HistogramData) {
  auto stats = CreateDBStatistics();
  HistogramData empty;
  stats->histogramData(DB_GET, &empty);
  EXPECT_EQ(0u, empty.count);
  EXPECT_EQ(0u, empty.sum);

  for (uint64_t v = 1; v <= 100; v++) stats->measureTime(DB_GET, v);
  stats->measureTime(DB_WRITE, 1000);
  HistogramData d;
  stats->histogramData(DB_GET, &d);
  EXPECT_EQ(100u, d.count);
  EXPECT_EQ(5050u, d.sum);
  EXPECT_DOUBLE_EQ(50.5, d.average);
  EXPECT_NEAR(28.87, d.standard_deviation, 0.01);
  EXPECT_NEAR(50.0, d.median, 1.0);
  EXPECT_NEAR(95.0, d.percentile95, 1.0);
  EXPECT_NEAR(99.0, d.percentile99, 1.0);
  EXPECT_EQ(1.0, d.min);
  EXPECT_EQ(100.0, d.max);

  const std::string s = stats->getHistogramString(DB_GET);
  EXPECT_EQ(0u, s.find("Count: 100 Average: 50.5000  StdDev: 28.87\n")) << s;

  HistogramData w;
  stats->histogramData(DB_WRITE, &w);
  EXPECT_EQ(1u, w.count);
  EXPECT_EQ(1000u, w.sum);
}

TEST(StatisticsTest, Reset) {
  auto stats = CreateDBStatistics();
  stats->recordTick(NUMBER_KEYS_READ, 3);
  stats->measureTime(DB_SEEK, 12);
  ASSERT_OK(stats->Reset());
  EXPECT_EQ(0u, stats->getTickerCount(NUMBER_KEYS_READ));
  HistogramData d;
  stats->histogramData(DB_SEEK, &d);
  EXPECT_EQ(0u, d.count);
  stats->recordTick(NUMBER_KEYS_READ, 1);
  EXPECT_EQ(1u, stats->getTickerCount(NUMBER_KEYS_READ));
}

TEST(StatisticsTest, ToStringListsEverything) {
  auto stats = CreateDBStatistics();
  stats->recordTick(WAL_FILE_BYTES, 4096);
  stats->measureTime(WAL_FILE_SYNC_MICROS, 10);
  stats->measureTime(WAL_FILE_SYNC_MICROS, 30);
  const std::string s = stats->ToString();
  std::istringstream in(s);
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) lines++;
  EXPECT_EQ(static_cast<int>(TICKER_ENUM_MAX) + static_cast<int>(HISTOGRAM_ENUM_MAX), lines);
  for (uint32_t t = 0; t < TICKER_ENUM_MAX; t++) {
    const std::string expected =
        std::string(TickerName(t)) + " COUNT : " + std::to_string(stats->getTickerCount(t)) + "\n";
    EXPECT_NE(std::string::npos, s.find(expected)) << expected;
  }
  EXPECT_NE(std::string::npos, s.find("rocksdb.wal.bytes COUNT : 4096\n"));
  // The 95th and 99th percentiles interpolate inside the bucket (25, 30]
  // holding 30: 25 + 5 * 0.9 and 25 + 5 * 0.98.
  EXPECT_NE(std::string::npos, s.find("rocksdb.wal.file.sync.micros P50 : 10.000000 P95 : "
                                      "29.500000 P99 : 29.900000 P100 : 30.000000 COUNT : 2 "
                                      "SUM : 40\n"))
      << s;
  EXPECT_NE(std::string::npos, s.find("rocksdb.db.get.micros P50 : 0.000000 P95 : 0.000000 P99 : "
                                      "0.000000 P100 : 0.000000 COUNT : 0 SUM : 0\n"))
      << s;
}

TEST(StatisticsTest, ConcurrentRecordingHasExactTotals) {
  auto stats = CreateDBStatistics();
  constexpr int kThreads = 8;
  constexpr uint64_t kPerThread = 200000;
  constexpr uint64_t kHistPerThread = 20000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&stats, t] {
      for (uint64_t i = 0; i < kPerThread; i++) {
        stats->recordTick(NUMBER_KEYS_WRITTEN);
        stats->recordTick(BYTES_WRITTEN, static_cast<uint64_t>(t) + 1);
      }
      for (uint64_t i = 0; i < kHistPerThread; i++) {
        stats->measureTime(DB_WRITE, static_cast<uint64_t>(t) * 1000 + i % 100);
      }
    });
  }
  // Reading while writers run is allowed and sees a count no larger than
  // the final one.
  const uint64_t midway = stats->getTickerCount(NUMBER_KEYS_WRITTEN);
  EXPECT_LE(midway, kThreads * kPerThread);
  for (auto& th : threads) th.join();

  EXPECT_EQ(kThreads * kPerThread, stats->getTickerCount(NUMBER_KEYS_WRITTEN));
  // Thread t adds t + 1 each time: kPerThread * (1 + 2 + ... + 8).
  EXPECT_EQ(kPerThread * 36, stats->getTickerCount(BYTES_WRITTEN));
  HistogramData d;
  stats->histogramData(DB_WRITE, &d);
  EXPECT_EQ(kThreads * kHistPerThread, d.count);
  // sum over t of (t * 1000 * kHistPerThread + (kHistPerThread / 100) * 4950)
  const uint64_t expected_sum =
      1000 * kHistPerThread * 28 + kThreads * (kHistPerThread / 100) * 4950;
  EXPECT_EQ(expected_sum, d.sum);
  EXPECT_EQ(0.0, d.min);
  EXPECT_EQ(7099.0, d.max);
}

TEST(StatisticsTest, ToStringStartsWithRocksDBsFirstLines) {
  auto stats = CreateDBStatistics();
  stats->recordTick(BLOCK_CACHE_MISS, 3);
  const std::string s = stats->ToString();
  EXPECT_EQ(0u, s.find("rocksdb.block.cache.miss COUNT : 3\n"
                       "rocksdb.block.cache.hit COUNT : 0\n"
                       "rocksdb.block.cache.add COUNT : 0\n"))
      << s.substr(0, 200);
  // Histograms follow the last ticker, in enum order.
  const size_t last_ticker = s.find("rocksdb.error.handler.autoresume.success.count COUNT : 0\n");
  const size_t async = s.find("rocksdb.async.read.error.count COUNT : 0\n");
  const size_t first_hist = s.find("rocksdb.db.get.micros P50 : ");
  ASSERT_NE(std::string::npos, last_ticker);
  ASSERT_NE(std::string::npos, first_hist);
  EXPECT_LT(last_ticker, first_hist);
  EXPECT_LT(async, first_hist);
  EXPECT_NE(std::string::npos, s.find("rocksdb.async.prefetch.abort.micros P50 : 0.000000"));
}

TEST(StatisticsTest, GetAndResetAndTickerMap) {
  auto stats = CreateDBStatistics();
  stats->recordTick(NUMBER_DB_SEEK, 4);
  stats->recordTick(NUMBER_DB_NEXT, 9);
  std::map<std::string, uint64_t> m;
  ASSERT_TRUE(stats->getTickerMap(&m));
  EXPECT_EQ(static_cast<size_t>(TICKER_ENUM_MAX), m.size());
  EXPECT_EQ(4u, m["rocksdb.number.db.seek"]);
  EXPECT_EQ(9u, m["rocksdb.number.db.next"]);
  EXPECT_EQ(4u, stats->getAndResetTickerCount(NUMBER_DB_SEEK));
  EXPECT_EQ(0u, stats->getTickerCount(NUMBER_DB_SEEK));
  EXPECT_EQ(9u, stats->getTickerCount(NUMBER_DB_NEXT));
  EXPECT_EQ(0u, stats->getAndResetTickerCount(TICKER_ENUM_MAX));
}

TEST(StatisticsTest, StatsLevels) {
  auto stats = CreateDBStatistics();
  EXPECT_EQ(kExceptDetailedTimers, stats->get_stats_level());
  auto count = [&](uint32_t h) {
    HistogramData d;
    stats->histogramData(h, &d);
    return d.count;
  };
  // kDisableAll (== kExceptTickers): nothing.
  stats->set_stats_level(kDisableAll);
  EXPECT_EQ(kDisableAll, stats->get_stats_level());
  stats->recordTick(BYTES_READ, 5);
  stats->recordInHistogram(BYTES_PER_READ, 5);
  stats->reportTimeToHistogram(DB_GET, 5);
  EXPECT_EQ(0u, stats->getTickerCount(BYTES_READ));
  EXPECT_EQ(0u, count(BYTES_PER_READ));
  EXPECT_EQ(0u, count(DB_GET));
  // kExceptHistogramOrTimers: tickers only.
  stats->set_stats_level(kExceptHistogramOrTimers);
  stats->recordTick(BYTES_READ, 5);
  stats->recordInHistogram(BYTES_PER_READ, 5);
  stats->reportTimeToHistogram(DB_GET, 5);
  EXPECT_EQ(5u, stats->getTickerCount(BYTES_READ));
  EXPECT_EQ(0u, count(BYTES_PER_READ));
  EXPECT_EQ(0u, count(DB_GET));
  // kExceptTimers: value histograms too, but no times.
  stats->set_stats_level(kExceptTimers);
  stats->recordInHistogram(BYTES_PER_READ, 5);
  stats->reportTimeToHistogram(DB_GET, 5);
  EXPECT_EQ(1u, count(BYTES_PER_READ));
  EXPECT_EQ(0u, count(DB_GET));
  // kExceptDetailedTimers and up: times as well.
  stats->set_stats_level(kExceptDetailedTimers);
  stats->reportTimeToHistogram(DB_GET, 5);
  EXPECT_EQ(1u, count(DB_GET));
  stats->set_stats_level(kAll);
  stats->reportTimeToHistogram(DB_GET, 7);
  EXPECT_EQ(2u, count(DB_GET));
  // The level orders as RocksDB's.
  EXPECT_EQ(0, static_cast<int>(kDisableAll));
  EXPECT_EQ(0, static_cast<int>(kExceptTickers));
  EXPECT_EQ(1, static_cast<int>(kExceptHistogramOrTimers));
  EXPECT_EQ(2, static_cast<int>(kExceptTimers));
  EXPECT_EQ(3, static_cast<int>(kExceptDetailedTimers));
  EXPECT_EQ(4, static_cast<int>(kExceptTimeForMutex));
  EXPECT_EQ(5, static_cast<int>(kAll));
}

}  // namespace
}  // namespace strata
