// Options: everything a database is opened with, and the per-call options of
// reads, writes and maintenance.
//
// Names and meanings follow RocksDB so a RocksDB user finds what they look
// for; defaults are sensible on a 2-core machine and on a server. Options are
// validated by DB::Open, which returns InvalidArgument naming the option.
// Thread-safety: plain data; copy freely.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "strata/comparator.h"
#include "strata/env.h"
#include "strata/export.h"
#include "strata/slice.h"
#include "strata/statistics.h"
#include "strata/universal_compaction.h"

namespace strata {

class CompactionFilter;                 // strata/compaction_filter.h
class CompactionFilterFactory;          // strata/compaction_filter.h
class EventListener;                    // strata/listener.h
class FileChecksumGenFactory;           // strata/file_checksum.h
class MergeOperator;                    // strata/merge_operator.h
class SliceTransform;                   // strata/slice_transform.h
class TablePropertiesCollectorFactory;  // strata/table_properties.h
class WalFilter;                        // strata/wal_filter.h
class Snapshot;
class RateLimiter;         // strata/rate_limiter.h
class SstFileManager;      // strata/sst_file_manager.h
class TableFactory;        // strata/table.h
class WriteBufferManager;  // strata/write_buffer_manager.h
class SstPartitionerFactory;
class ConcurrentTaskLimiter;

// Persisted in table trailers: never renumber (docs/format/block.md (Compression)).
enum CompressionType : unsigned char {
  kNoCompression = 0x0,
  kSnappyCompression = 0x1,
  kZlibCompression = 0x2,
  kBZip2Compression = 0x3,
  kLZ4Compression = 0x4,
  kLZ4HCCompression = 0x5,
  kXpressCompression = 0x6,
  kZSTD = 0x7,
  kDisableCompressionOption = 0xff,
};

// How a column family's tables are compacted (RocksDB's values; the name is
// written to the OPTIONS file). docs/design/compaction-styles.md.
enum CompactionStyle : char {
  // Levels of disjoint files, each a multiple of the one above (the default).
  kCompactionStyleLevel = 0x0,
  // Sorted runs merged when their sizes say so (strata/universal_compaction.h).
  kCompactionStyleUniversal = 0x1,
  // One level of files, the oldest deleted past a size or an age
  // (CompactionOptionsFIFO).
  kCompactionStyleFIFO = 0x2,
  // No automatic compaction; CompactRange and CompactFiles still work.
  kCompactionStyleNone = 0x3,
};

// Which file of a level leveled compaction takes first (RocksDB's values).
enum CompactionPri : char {
  // The largest file, its size raised for the deletions it holds.
  kByCompensatedSize = 0x0,
  // The file whose newest entry is oldest (its data has waited longest).
  kOldestLargestSeqFirst = 0x1,
  // The file whose oldest entry is oldest (the key range written longest ago).
  kOldestSmallestSeqFirst = 0x2,
  // The file whose overlap with the next level is smallest against its own
  // size (least rewriting per byte moved down; the default).
  kMinOverlappingRatio = 0x3,
  // The files of a level in turn, by key, from where the last one ended.
  kRoundRobin = 0x4,
};

// FIFO compaction: the family keeps its tables in level 0 and deletes the
// oldest ones when all of them together pass max_table_files_size, or when
// they are older than ColumnFamilyOptions::ttl.
struct CompactionOptionsFIFO {
  uint64_t max_table_files_size = 1ull << 30;
  // Merge small level-0 files into larger ones (intra-L0 compaction, picked
  // like universal's size-ratio trigger) while the total stays under the
  // limit; otherwise tables are only ever deleted.
  bool allow_compaction = false;
  // Tiered storage is not built: a non-zero value is refused at Open.
  uint64_t age_for_warm = 0;
};

// Compression parameters (RocksDB's CompressionOptions).
struct CompressionOptions {
  static constexpr int kDefaultCompressionLevel = 32767;
  // zlib only.
  int window_bits = -14;
  // The codec's level; kDefaultCompressionLevel means the codec's own
  // default (zstd 3, zlib 6 (Z_DEFAULT_COMPRESSION), LZ4HC 9).
  int level = kDefaultCompressionLevel;
  // zlib only.
  int strategy = 0;
  // > 0: each table's data blocks are compressed with a dictionary of at
  // most this many bytes, built from samples of the table's data and
  // stored in the table's compression-dictionary meta block (zstd, lz4,
  // zlib). 0: no dictionary.
  uint32_t max_dict_bytes = 0;
  // > 0 with zstd: the dictionary is trained (zstd's ZDICT) on up to this
  // many bytes of sampled blocks instead of being the samples themselves.
  uint32_t zstd_max_train_bytes = 0;
  // Threads compressing a table's blocks (1: the writing thread itself).
  uint32_t parallel_threads = 1;
  // Only bottommost_compression_opts: use these options rather than
  // compression_opts for the bottommost level.
  bool enabled = false;
  // Bytes of data blocks buffered per table to sample the dictionary from
  // (0: the whole target file size).
  uint64_t max_dict_buffer_bytes = 0;
  // false with zstd_max_train_bytes: zstd's ZDICT_finalizeDictionary on
  // the samples instead of full training.
  bool use_zstd_dict_trainer = true;
};

// What WAL replay does when it meets a damaged record (RocksDB's meanings).
enum class WALRecoveryMode : char {
  // A damaged record at the very end of the last WAL (a torn write) is
  // dropped; any other damage fails Open with Corruption.
  kTolerateCorruptedTailRecords = 0,
  // Any damage, including an incomplete final record, fails Open.
  kAbsoluteConsistency = 1,
  // Replay stops at the first damaged record; everything before it is kept
  // and everything after it is dropped (the database is a consistent prefix).
  kPointInTimeRecovery = 2,
  // Damaged records are skipped and replay continues (may lose writes).
  kSkipAnyCorruptedRecords = 3,
};

// A directory for table files and the bytes it should hold
// (DBOptions::db_paths, ColumnFamilyOptions::cf_paths).
struct STRATA_EXPORT DbPath {
  std::string path;
  uint64_t target_size = 0;  // bytes
  DbPath() = default;
  DbPath(const std::string& p, uint64_t t) : path(p), target_size(t) {}
};

struct STRATA_EXPORT DBOptions {
  bool create_if_missing = false;
  // DB::Open with column family descriptors creates the listed families
  // that do not exist yet (otherwise they are an InvalidArgument).
  bool create_missing_column_families = false;
  bool error_if_exists = false;
  // Verify checksums and structures aggressively; stop on any damage.
  bool paranoid_checks = true;
  // Never null after DB::Open; defaults to Env::Default().
  Env* env = Env::Default();
  // Where the LOG goes; null = a LOG file in the DB directory.
  std::shared_ptr<Logger> info_log;
  InfoLogLevel info_log_level = InfoLogLevel::kInfo;
  // The LOG written by the DB (info_log null): a LOG past max_log_file_size
  // bytes (0 = no limit), or older than log_file_time_to_roll seconds (0 =
  // no limit), is renamed LOG.old.<micros> and a new LOG begun; at open the
  // previous LOG is renamed the same way. Only the newest keep_log_file_num
  // LOG.old files are kept (at least 1). The LOG goes in db_log_dir when it
  // is not empty, named <db absolute path with every character outside
  // [A-Za-z0-9._-] replaced by '_'>_LOG (RocksDB's naming).
  size_t max_log_file_size = 0;
  size_t log_file_time_to_roll = 0;
  size_t keep_log_file_num = 1000;
  std::string db_log_dir;
  // Told about flushes, compactions, table files, stalls and background
  // errors (strata/listener.h). Shared with the caller.
  std::vector<std::shared_ptr<EventListener>> listeners;
  std::shared_ptr<Statistics> statistics;
  int max_open_files = -1;
  // Background threads for flushes (a quarter, at least one) and
  // compactions (the rest).
  int max_background_jobs = 2;
  // A new MANIFEST (starting with a snapshot of the state) is begun when the
  // current one grows past this.
  uint64_t max_manifest_file_size = 1024 * 1024 * 1024;
  // Write rate, bytes/s, while writes are slowed down by compaction debt
  // (0 = 16 MiB/s).
  uint64_t delayed_write_rate = 0;
  // 0 = RocksDB's default; a WAL switch happens at a memtable switch.
  uint64_t max_total_wal_size = 0;
  // WAL archiving (RocksDB's rules): with either one > 0 a WAL the DB no
  // longer needs is moved to <db>/archive/ instead of deleted, where
  // DB::GetUpdatesSince and GetSortedWalFiles still find it. Archived WALs
  // older than WAL_ttl_seconds (by modification time) are deleted; while
  // the archive holds more than WAL_size_limit_MB (counted as RocksDB
  // does: files times the largest file's size) the oldest go. Checked
  // every WAL_ttl_seconds / 2 when only the TTL is set, else every 10
  // minutes, and at open. 0 and 0: WALs are deleted at once.
  uint64_t WAL_ttl_seconds = 0;
  uint64_t WAL_size_limit_MB = 0;
  // WAL appends stay in the WAL file's user-space buffer (up to
  // writable_file_max_buffer_size) until DB::FlushWAL, SyncWAL, a sync
  // write, a WAL switch or close: fewer write(2) calls, and a process
  // crash loses the buffered tail (the writes that survive are a prefix).
  // Turns wal_mmap_writes off (an mmap append is in the page cache at
  // once, so there is nothing to buffer); with allow_mmap_writes the WAL
  // stays mmap-written and every append is flushed as it is made.
  bool manual_wal_flush = false;
  // Compress the WAL (RocksDB's wal_compression, same file format: each
  // record a ZSTD frame). kZSTD or kNoCompression; any other type is turned
  // off at open with a LOG note, as RocksDB does. Compressed logs are read
  // back whatever this is set to.
  CompressionType wal_compression = kNoCompression;
  WALRecoveryMode wal_recovery_mode = WALRecoveryMode::kPointInTimeRecovery;
  // Let a write group's members insert into the memtable concurrently.
  bool allow_concurrent_memtable_write = true;
  bool enable_pipelined_write = false;
  // Append to the WAL through a memory map of preallocated space instead of
  // one write(2) per write group (see FileOptions::use_mmap_writes). An
  // acknowledged write survives a crash of the process either way (the bytes
  // are in the page cache); sync writes still fdatasync. Space is reserved
  // with fallocate, so a full disk is an IOError, never a SIGBUS. Strata's
  // default; false gives RocksDB's write(2) path.
  bool wal_mmap_writes = true;
  // Write every file (the WAL included) through memory maps.
  bool allow_mmap_writes = false;
  bool allow_mmap_reads = false;
  // Read table files through memory maps (Strata's default; LevelDB's
  // behaviour): uncompressed blocks are used in place -- no read system
  // call, no copy, no block-cache entry -- and their checksum is verified
  // the first time each block is read. Compressed blocks still go through
  // the block cache. false (with allow_mmap_reads false) gives RocksDB's
  // pread path.
  bool table_mmap_reads = true;
  bool use_direct_reads = false;
  bool use_fsync = false;
  // Bytes preallocated for a WAL file at a time.
  size_t wal_preallocation_size = 4 << 20;
  size_t writable_file_max_buffer_size = 1024 * 1024;
  // Most writes merged into one group-commit batch.
  size_t max_write_batch_group_size_bytes = 1 << 20;
  bool avoid_flush_during_recovery = false;
  bool avoid_flush_during_shutdown = false;
  // Allows IngestExternalFileOptions::ingest_behind (files put under all
  // data, in the last level, at sequence 0). As in RocksDB 7.8.3 with
  // leveled compaction, no compaction then counts as bottommost: deletions
  // and sequence numbers are kept, since older data may still arrive below.
  bool allow_ingest_behind = false;
  // Two-phase commit (RocksDB's name): WAL files holding a prepared
  // transaction's section are kept until it is committed or rolled back,
  // and the prepared sections found in the WALs at open are kept for
  // TransactionDB (GetAllPreparedTransactions). TransactionDB::Open turns
  // it on. Without it, a WAL holding prepare markers is refused at open
  // (the prepared writes could not be resolved).
  bool allow_2pc = false;
  // Automatic recovery from a retryable background error (NoSpace, or an
  // IOError marked retryable): up to this many attempts of DB::Resume's work,
  // bgerror_resume_retry_interval microseconds apart. 0 turns it off (only
  // an explicit DB::Resume clears the error then).
  int max_bgerror_resume_count = 2147483647;
  uint64_t bgerror_resume_retry_interval = 1000000;
  // Every this many seconds a background thread writes
  // "------- DUMPING STATS -------", the "rocksdb.stats" property and (when
  // statistics is set) Statistics::ToString() to the info LOG. 0 disables.
  unsigned int stats_dump_period_sec = 600;

  // ---- File placement and direct I/O (issue 19, "paths") ----
  // Table files written by flushes and compactions go through O_DIRECT
  // (FileOptions::use_direct_writes): aligned whole-page writes, bypassing
  // the page cache. The WAL and the MANIFEST stay buffered, as in RocksDB.
  // Incompatible with allow_mmap_writes (NotSupported at Open); needs
  // writable_file_max_buffer_size > 0. use_direct_reads (above) is
  // likewise incompatible with allow_mmap_reads and table_mmap_reads.
  // Where the file system refuses O_DIRECT, Open fails with
  // InvalidArgument("Direct I/O is not supported by the specified DB.").
  bool use_direct_io_for_flush_and_compaction = false;
  // Compaction input files are read ahead this many bytes at a time (one
  // read per this much input). 0: the table's automatic read-ahead
  // (initial_auto_readahead_size growing to max_auto_readahead_size).
  // Sanitized to 2 MiB when use_direct_reads is on and it is 0, as RocksDB
  // 7.8.3 does. Mutable (SetDBOptions).
  size_t compaction_readahead_size = 0;
  // Directory of the WAL files (and of their archive/): empty = the DB's
  // directory. WALs are created, replayed, archived and deleted there.
  std::string wal_dir;
  // Table directories with target sizes (RocksDB's db_paths, at most 4; empty = the DB's dir),
  // filled as RocksDB 7.8.3 fills them: docs/design/file-placement.md. Created by Open.
  std::vector<DbPath> db_paths;
  // ---- Paced I/O (RocksDB's names and defaults; docs/design/paced-io.md).
  // Paces flush writes (Env::IO_HIGH) and compaction writes (IO_LOW); with
  // a mode that limits reads, compaction reads too (IO_LOW). WAL and
  // MANIFEST writes and user reads are never charged. Shared with the
  // caller (and with other DBs). Not written to the OPTIONS file.
  std::shared_ptr<RateLimiter> rate_limiter;
  // Tracks the table files' total size, deletes obsolete tables at a paced
  // rate through "<file>.trash" renames, and enforces
  // max_allowed_space_usage (a flush or compaction that passes it is the
  // background error IOError "Space limit reached"). Not written to OPTIONS.
  std::shared_ptr<SstFileManager> sst_file_manager;
  // Every this many bytes of a table file written by flush or compaction,
  // start writing back what is older than the newest MiB
  // (sync_file_range; 0 = never). wal_bytes_per_sync: the same for WAL
  // files. strict_bytes_per_sync: also wait for the previous write-back,
  // so no more than bytes_per_sync bytes are ever waiting.
  uint64_t bytes_per_sync = 0;
  uint64_t wal_bytes_per_sync = 0;
  bool strict_bytes_per_sync = false;
  // ---- memory (issue 19; docs/design/memory-budget.md) ----
  // Limit in bytes of the memtables of all column families (0: none):
  // past it the oldest mutable memtable is flushed. Makes a private
  // WriteBufferManager; ignored when write_buffer_manager is set.
  size_t db_write_buffer_size = 0;
  // A WriteBufferManager shared by the column families of this DB and of
  // any other DB given the same one (strata/write_buffer_manager.h).
  std::shared_ptr<WriteBufferManager> write_buffer_manager;
  // Strata's extension: one bound in bytes for memtables, the block cache
  // and table readers together (0: off). The DB builds an LRU block cache
  // of this capacity shared by all its column families, a
  // WriteBufferManager of a quarter of it charged to that cache, charges
  // table readers to it, caps write_buffer_size at an eighth of it, and
  // slows writes in proportion to how far memtables overshoot their share.
  // Refused together with write_buffer_manager or db_write_buffer_size; a
  // family's own block_cache is replaced by the budget's cache (a family
  // with no_block_cache keeps none).
  uint64_t memory_budget = 0;
  // ---- hooks (strata/wal_filter.h, strata/file_checksum.h) ----
  // Sees every WAL record replayed at Open (primary and read-only opens)
  // and may skip, change or stop on it. Borrowed: must outlive the Open.
  // Not written to the OPTIONS file.
  WalFilter* wal_filter = nullptr;
  // When set, every table file the DB writes or takes in gets a full-file
  // checksum recorded in the MANIFEST; DB::VerifyFileChecksums needs it.
  std::shared_ptr<FileChecksumGenFactory> file_checksum_gen_factory;
};

struct STRATA_EXPORT ColumnFamilyOptions {
  // Must outlive the DB. Its Name() is recorded in the MANIFEST.
  const Comparator* comparator = BytewiseComparator();
  size_t write_buffer_size = 64 << 20;
  int max_write_buffer_number = 2;
  CompressionType compression = kSnappyCompression;
  // Table format and its options (strata/table.h); null = a block-based
  // table factory with default BlockBasedTableOptions.
  std::shared_ptr<TableFactory> table_factory;
  int num_levels = 7;
  int level0_file_num_compaction_trigger = 4;
  int level0_slowdown_writes_trigger = 20;
  int level0_stop_writes_trigger = 36;
  // Writes slow down / stop when compactions are behind by this many bytes
  // (0 disables).
  uint64_t soft_pending_compaction_bytes_limit = 64ull << 30;
  uint64_t hard_pending_compaction_bytes_limit = 256ull << 30;
  // Compaction outputs of one file at most this large (target_file_size_base
  // times multiplier^(level-1)).
  int target_file_size_multiplier = 1;
  // A compaction takes at most this many times target_file_size_base of
  // input.
  uint64_t max_compaction_bytes = 0;  // 0 = 25 x target_file_size_base
  bool disable_auto_compactions = false;
  uint64_t target_file_size_base = 64ull << 20;
  uint64_t max_bytes_for_level_base = 256ull << 20;
  double max_bytes_for_level_multiplier = 10;
  bool level_compaction_dynamic_level_bytes = true;
  // Extra per-level factors of max_bytes_for_level_multiplier (level i's
  // target is level i-1's times multiplier times additional[i-1]; missing
  // entries are 1). Not used with level_compaction_dynamic_level_bytes.
  std::vector<int> max_bytes_for_level_multiplier_additional = std::vector<int>(7, 1);

  // ---- compaction style (docs/design/compaction-styles.md) ----
  CompactionStyle compaction_style = kCompactionStyleLevel;
  CompactionPri compaction_pri = kMinOverlappingRatio;
  CompactionOptionsUniversal compaction_options_universal;
  CompactionOptionsFIFO compaction_options_fifo;
  // Leveled and universal: files holding data older than ttl seconds are
  // compacted (pushed down). FIFO: files older than ttl are deleted.
  // kDefaultTtl: RocksDB's choice (30 days for leveled with block-based
  // tables, else 0). 0 disables. Ages come from the tables'
  // oldest_key_time / creation_time properties.
  static constexpr uint64_t kDefaultTtl = 0xfffffffffffffffe;
  uint64_t ttl = kDefaultTtl;
  // Files not compacted for this many seconds are rewritten (into the same
  // level for leveled, as a whole-run merge for universal). kDefaultTtl:
  // 30 days when a compaction filter is set, else 0 (FIFO: see ttl).
  uint64_t periodic_compaction_seconds = kDefaultTtl;

  // ---- compression by level ----
  // When not empty, level i's tables use compression_per_level[i] (the
  // last entry for deeper levels) instead of `compression`. With
  // level_compaction_dynamic_level_bytes, entry 1 applies to the base level
  // and the others follow it (RocksDB's rule); level 0 keeps entry 0.
  std::vector<CompressionType> compression_per_level;
  // Tables written to the bottommost level (kDisableCompressionOption: the
  // level's usual compression).
  CompressionType bottommost_compression = kDisableCompressionOption;
  CompressionOptions compression_opts;
  // Used for the bottommost level when its `enabled` is true.
  CompressionOptions bottommost_compression_opts;
  uint32_t max_subcompactions = 1;
  // Bytes of the arena block a memtable allocates at a time; 0 = derived
  // from write_buffer_size (1/8 of it, clamped to [4 KiB, 2 MiB]).
  size_t arena_block_size = 0;
  // Give a memtable a hash index of its keys once it serves lookups (built
  // by the first Get on a memtable of 4096+ entries, 16 bytes per entry),
  // so point lookups skip the skip-list search and lookups of absent keys
  // usually cost one cache miss. The Get that builds it pays for a scan of
  // the memtable (about 0.2 s per million entries on a small server). Used
  // only with the bytewise comparators.
  bool memtable_point_index = true;
  // Bits per key of an in-memory Bloom filter built over the user keys of
  // each flushed level-0 table that has no whole-key filter of its own
  // (filter_policy null, or whole_key_filtering off); 0 = none. Never
  // written to the file: it lives while the table is in level 0 (dropped
  // when the table moves down, absent after a reopen). Point lookups skip
  // the level-0 tables it rules out, which otherwise each cost a data block
  // read: fresh data sits in several overlapping level-0 tables. Memory:
  // bits / 8 bytes per key of level 0 (10 bits: ~1% false positives).
  // Tables holding range tombstones get none.
  uint32_t l0_key_filter_bits_per_key = 10;

  // Combines Merge operands (strata/merge_operator.h); null = Merge is an
  // InvalidArgument. Its name is recorded in table properties.
  std::shared_ptr<MergeOperator> merge_operator;
  // Run on entries as compactions rewrite them (strata/compaction_filter.h).
  // Borrowed: must outlive the DB and be thread-safe. Takes precedence over
  // compaction_filter_factory.
  const CompactionFilter* compaction_filter = nullptr;
  // Makes one filter per compaction (used when compaction_filter is null).
  std::shared_ptr<CompactionFilterFactory> compaction_filter_factory;
  // Maps keys to prefixes (strata/slice_transform.h): tables then filter by
  // prefix (plus whole keys unless BlockBasedTableOptions::
  // whole_key_filtering is false), and iterators may stop at the end of the
  // prefix (ReadOptions::prefix_same_as_start). null = no prefixes.
  std::shared_ptr<const SliceTransform> prefix_extractor;
  // A memtable Bloom filter of this fraction of write_buffer_size bytes
  // (0 = none, at most 0.25): over prefixes when prefix_extractor is set,
  // plus whole keys when memtable_whole_key_filtering.
  double memtable_prefix_bloom_size_ratio = 0;
  bool memtable_whole_key_filtering = false;
  // One collector per factory for every table the family writes (flush,
  // compaction) and every SstFileWriter file made with these options; what
  // they collect goes into the table's properties block. Not written to the
  // OPTIONS file (RocksDB 7.8.3 does not either).
  std::vector<std::shared_ptr<TablePropertiesCollectorFactory>>
      table_properties_collector_factories;
  // The family's table directories (RocksDB's cf_paths, at most 4): replace db_paths when not
  // empty. FIFO families take one path at most (NotSupported, as RocksDB). Created by Open.
  std::vector<DbPath> cf_paths;
  // Where compactions into level >= 1 cut their output files, and which
  // trivial moves are allowed (strata/sst_partitioner.h); null = by size
  // only. Written to the OPTIONS file as RocksDB writes it.
  std::shared_ptr<SstPartitionerFactory> sst_partitioner_factory;
  // Caps the family's running compactions together with the other
  // families sharing the limiter (strata/concurrent_task_limiter.h); null =
  // no cap beyond the background job limit. Not in the OPTIONS file.
  std::shared_ptr<ConcurrentTaskLimiter> compaction_thread_limiter;
};

struct STRATA_EXPORT Options : public DBOptions, public ColumnFamilyOptions {
  Options() = default;
  Options(const DBOptions& db, const ColumnFamilyOptions& cf)
      : DBOptions(db), ColumnFamilyOptions(cf) {}
};

// Which data a read may use (RocksDB's ReadTier, same values).
enum ReadTier {
  kReadAllTier = 0x0,     // memtables, block cache, OS cache or storage
  kBlockCacheTier = 0x1,  // memtables and block cache only: a read that would
                          // need a table block from the file (or to open a
                          // table) answers Incomplete
  kPersistedTier = 0x2,   // persisted data: memtables are skipped when writes
                          // without the WAL were made (Get/MultiGet only;
                          // iterators answer NotSupported)
  kMemtableTier = 0x3,    // memtables only, for iterators (Get reads every
                          // tier, as RocksDB 7.8.3's does)
};

struct STRATA_EXPORT ReadOptions {
  // Read as of this snapshot; null = the latest state at the time of the call
  // (for an iterator: at the time it was created).
  const Snapshot* snapshot = nullptr;
  bool verify_checksums = true;
  bool fill_cache = true;
  // Iterators stop before keys < lower bound / >= upper bound. The Slices
  // must outlive the iterator.
  const Slice* iterate_lower_bound = nullptr;
  const Slice* iterate_upper_bound = nullptr;
  bool total_order_seek = false;
  bool prefix_same_as_start = false;
  ReadTier read_tier = kReadAllTier;
  // Iterators read table files ahead this many bytes at a time, from the
  // first block on (RocksDB's fixed read-ahead); 0 = the table's automatic
  // read-ahead (BlockBasedTableOptions::initial_auto_readahead_size
  // growing to max_auto_readahead_size on sequential reads). Compactions
  // read with DBOptions::compaction_readahead_size here.
  size_t readahead_size = 0;
};

struct STRATA_EXPORT WriteOptions {
  // fdatasync the WAL before the write is acknowledged (survives power loss).
  bool sync = false;
  // Skip the WAL: the write lives only in the memtable until a flush.
  bool disableWAL = false;
  // Fail with Incomplete instead of waiting in a write stall.
  bool no_slowdown = false;
};

struct STRATA_EXPORT FlushOptions {
  bool wait = true;
};

enum class BottommostLevelCompaction {
  kSkip,
  kIfHaveCompactionFilter,
  kForce,
  kForceOptimized,
};

struct STRATA_EXPORT CompactRangeOptions {
  bool exclusive_manual_compaction = true;
  bool change_level = false;
  int target_level = -1;
  BottommostLevelCompaction bottommost_level_compaction =
      BottommostLevelCompaction::kIfHaveCompactionFilter;
  // The table path (cf_paths, else db_paths) the outputs go to, as RocksDB's: 0 by default;
  // InvalidArgument("Invalid target path ID") past the family's last path.
  uint32_t target_path_id = 0;
};

// DB::IngestExternalFile (RocksDB's meanings).
struct STRATA_EXPORT IngestExternalFileOptions {
  // Hard-link (or rename) the files into the DB instead of copying them;
  // a failed link falls back to a copy when failed_move_fall_back_to_copy.
  bool move_files = false;
  bool failed_move_fall_back_to_copy = true;
  // Snapshots taken before the ingestion do not see the ingested keys.
  bool snapshot_consistency = true;
  // A file whose keys overlap the DB gets a global sequence number newer
  // than the DB's; false makes such an ingestion fail instead.
  bool allow_global_seqno = true;
  // A memtable overlapping the files is flushed first; false makes such an
  // ingestion fail instead.
  bool allow_blocking_flush = true;
  // The files go to the bottommost level, under everything already there
  // (needs DBOptions::allow_ingest_behind).
  bool ingest_behind = false;
  // Write the global sequence number into the file's properties block (as
  // RocksDB does) rather than only into the MANIFEST.
  bool write_global_seqno = true;
  bool verify_checksums_before_ingest = false;
  size_t verify_checksums_readahead_size = 0;
  bool verify_file_checksum = true;
  bool fail_if_not_bottommost_level = false;
};

// DB::CreateColumnFamilyWithImport.
struct STRATA_EXPORT ImportColumnFamilyOptions {
  bool move_files = false;
};

// DB::CompactFiles.
struct STRATA_EXPORT CompactionOptions {
  CompressionType compression = kSnappyCompression;
  uint64_t output_file_size_limit = UINT64_MAX;
  uint32_t max_subcompactions = 0;
};

// DB::GetApproximateSizes.
struct STRATA_EXPORT SizeApproximationOptions {
  bool include_memtables = false;
  bool include_files = true;
  // > 0: the answer may be off by this fraction of the total, for speed.
  double files_size_error_margin = -1.0;
};

// DB::GetLiveFilesStorageInfo.
struct STRATA_EXPORT LiveFilesStorageInfoOptions {
  bool include_checksum_info = false;
  // Flush the memtables first unless the live WALs total less than this
  // (0: always flush; UINT64_MAX: never).
  uint64_t wal_size_for_flush = 0;
};

}  // namespace strata
