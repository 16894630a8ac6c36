// db_bench: Strata's benchmark driver. It takes RocksDB db_bench's flags,
// generates the same keys and values and prints the same lines
// (tools/db_bench_common.h), so one command line runs the same work on
// Strata, on LevelDB (db_bench_leveldb) and on RocksDB (/usr/bin/db_bench).
// It uses Strata's public API only (include/strata/).
//
// Workloads (--benchmarks, comma-separated, run in order):
//   fillseq        fresh database; --num writes of keys 0, 1, 2, ...
//   fillbatch      fillseq in batches of 1000
//   fillrandom     fresh database; --num writes of uniform random keys in
//                  [0, num) (duplicates overwrite; ~63% of keys end up set)
//   overwrite      fillrandom without starting fresh
//   fillsync       fresh database; synced random writes of keys in
//                  [0, num/1000) (RocksDB's definition: --writes of them)
//   readrandom     --reads Gets of uniform random keys; "(found of N found)"
//   readmissing    readrandom with keys one byte longer (never found)
//   readseq        one iterator from the first key, --reads Next()s at most
//   readreverse    readseq backwards from the last key
//   seekrandom     per op: a new iterator, Seek(random key), --seek_nexts
//                  Next()s
//   deleteseq      deletes keys 0..num-1 in order (--batch_size per batch)
//   deleterandom   deletes random keys
//   multireadrandom  --reads keys looked up by MultiGet, --batch_size random
//                  keys per call (--multiread_stride: evenly spaced from a
//                  random start); each key counts as one operation
//   mergerandom    max(--reads, --writes) Merges of a value_size operand into
//                  random keys among --merge_keys (default --num); needs
//                  --merge_operator
//   readrandommergerandom  the same count of operations on --merge_keys
//                  keys: a Merge with probability --mergereadpercent/100,
//                  else a Get; "(reads:R merges:M total:T hits:H
//                  maxlength:L)"
//   readwhilewriting  --threads readers doing readrandom while one extra
//                  thread writes random keys; only the readers are counted
//   compact        CompactRange over every key (bottommost level rewritten
//                  as RocksDB's kForceOptimized); its time is the report
//                  line of one operation ("compactall" is the same)
//   flush          DB::Flush, waiting; prints "flush memtable"
//   waitforcompaction  returns once no flush or compaction is running or
//                  pending (per the strata.* properties)
//   stats          prints the "rocksdb.stats" property
// Writes go through DB::Write with a WriteBatch of --batch_size entries,
// like RocksDB's db_bench. With --writes_per_range_tombstone=N the fill
// workloads add, after every N writes (past --writes_before_delete_range),
// one DeleteRange of --range_tombstone_width keys from a random start (the
// next key for fillseq) to the same batch, at most
// --max_num_range_tombstones per thread, and random keys are drawn from
// num + max_num_range_tombstones -- all as RocksDB's db_bench does.
//
// Keys: --keys_per_prefix > 0 gives keys a --prefix_size-byte prefix
// (tools/db_bench_common.h); --prefix_size != 0 sets a fixed-prefix
// extractor of that size, with memtable_bloom_size_ratio,
// memtable_whole_key_filtering, whole_key_filtering, total_order_seek and
// prefix_same_as_start passed through.
//
// Merge operators (--merge_operator) come from
// MergeOperators::CreateFromStringId; an unknown name ends the run with
// exit code 1, as RocksDB's does. Note: RocksDB's uint64add treats an
// operand that is not 8 bytes as 0 (and logs), while Strata's fails the read
// with Corruption; with uint64add pass --value_size=8 (RocksDB's advice).
//
// Options: write_buffer_size, max_write_buffer_number, compression_type,
// allow_concurrent_memtable_write, mmap_write (allow_mmap_writes), mmap_read,
// use_fsync, open_files (max_open_files), num_levels, max_background_jobs,
// target_file_size_base, max_bytes_for_level_base,
// max_bytes_for_level_multiplier, level_compaction_dynamic_level_bytes
// (db_bench's default false, as RocksDB's db_bench), disable_auto_compactions,
// level0_* triggers, subcompactions (max_subcompactions) are set on Options;
// enable_pipelined_write when given. Table options (BlockBasedTableOptions
// through NewBlockBasedTableFactory): cache_size (a block cache of
// 2^cache_numshardbits shards, of cache_type lru_cache or hyper_clock_cache;
// <= 0: no_block_cache), bloom_bits (> 0: the
// Bloom filter policy, or with use_ribbon_filter the Ribbon policy at that
// equivalent bits/key), block_size, cache_index_and_filter_blocks,
// partition_index_and_filters / partition_index (kTwoLevelIndexSearch, with
// partition_filters for the first), metadata_block_size,
// pin_top_level_index_and_filter, pin_l0_filter_and_index_blocks_in_cache.
// use_direct_reads (which turns table_mmap_reads off unless that is given),
// use_direct_io_for_flush_and_compaction, compaction_readahead_size and
// wal_dir are set on Options. Paced I/O: rate_limiter_bytes_per_sec (with
// rate_limiter_refill_period_us, rate_limiter_auto_tuned, rate_limit_bg_reads:
// kReadsOnly as RocksDB's), bytes_per_sync, wal_bytes_per_sync,
// sst_file_manager_bytes_per_sec and sst_file_manager_bytes_per_truncate (an
// SstFileManager). statistics attaches CreateDBStatistics(); the
// end of the run prints it and the write amplification, whose numerator is
// the Write(GB) column of rocksdb.stats summed over the levels.
//
// Compaction styles and compression by level (RocksDB 7.8.3 db_bench's
// flags: --compaction_style, --compaction_pri, --universal_*, --fifo_*,
// --ttl_seconds, --periodic_compaction_seconds,
// --max_bytes_for_level_multiplier_additional, --compression_level and the
// other CompressionOptions flags, --min_level_to_compress; Strata's
// --compression_per_level) are checked by ParseCompactionSettings and all
// assigned (tools/db_bench_options.h), so Open refuses by name whatever
// Strata does not build, and db_bench exits 1 ("open error: ...").
// --statistics also prints "Space amplification" and "Read amplification"
// (tools/db_bench_common.h; docs/design/bench-tradeoff.md).
//
// Transactions (RocksDB 7.8.3's flags; docs/design/bench-transactions.md):
// --transaction_db opens a TransactionDB (default TransactionDBOptions),
// and every benchmark's writes go through it, taking its locks;
// --optimistic_transaction_db (which wins when both are given) opens an
// OptimisticTransactionDB whose base DB the other benchmarks use, as
// RocksDB's db_bench does. randomtransaction runs RocksDB's
// RandomTransactionInserter workload (tools/db_bench_txn.h) with
// --transaction_sets, --transaction_lock_timeout and
// --transaction_set_snapshot, prints "( transactions:N aborts:M)" (or
// "( batches:N )" on a plain DB), then "RandomTransactionVerify Success."
// (or "... FAILED!!"). --transaction_sleep is accepted and has no effect,
// as in RocksDB 7.8.3. A build without the transactions layer refuses both
// DB flags by name.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "strata/db.h"
#include "strata/iterator.h"
#include "strata/merge_operator.h"
#include "strata/options.h"
#include "strata/perf_context.h"
#include "strata/perf_level.h"
#include "strata/rate_limiter.h"
#include "strata/slice.h"
#include "strata/slice_transform.h"
#include "strata/sst_file_manager.h"
#include "strata/statistics.h"
#include "strata/status.h"
#include "strata/table.h"
#include "strata/write_batch.h"
#include "strata/write_buffer_manager.h"
#ifdef STRATA_HAVE_TRANSACTIONS
#include "strata/utilities/optimistic_transaction_db.h"
#include "strata/utilities/transaction.h"
#include "strata/utilities/transaction_db.h"
#endif
#include "tools/db_bench_common.h"
#include "tools/db_bench_options.h"

#ifndef STRATA_VERSION_STRING
#define STRATA_VERSION_STRING "unknown"
#endif

namespace {

using strata::bench::BenchFlags;
using strata::bench::Compression;
using strata::bench::GetResult;

strata::Slice ToSlice(std::string_view s) { return strata::Slice(s.data(), s.size()); }

// The Engine of db_bench_common.h over strata::DB.
class StrataEngine {
 public:
  using Iterator = strata::Iterator;
  using Batch = strata::WriteBatch;
  // Reused key views, so a MultiGet call allocates only what the API must.
  struct MultiGetScratch {
    std::vector<strata::Slice> keys;
  };

  static const char* Name() { return "Strata"; }
  static const char* PathPrefix() { return "strata"; }
  static const char* StatsProperty() { return "rocksdb.stats"; }

  StrataEngine(const BenchFlags& flags, Compression compression,
               const strata::bench::CompactionSettings& compaction)
      : flags_(flags), compression_(compression) {
    options_.create_if_missing = true;
    options_.write_buffer_size = static_cast<size_t>(flags.write_buffer_size);
    options_.max_write_buffer_number = flags.max_write_buffer_number;
    options_.compression = strata::bench::ToStrataCompression(compression);
    Compression wal_compression = Compression::kNone;
    if (!strata::bench::ParseCompression(flags.wal_compression, &wal_compression)) {
      strata::bench::Fail("cannot parse --wal_compression=%s", flags.wal_compression.c_str());
    }
    options_.wal_compression = strata::bench::ToStrataCompression(wal_compression);
    options_.allow_concurrent_memtable_write = flags.allow_concurrent_memtable_write;
    if (flags.WasSet("enable_pipelined_write")) {
      options_.enable_pipelined_write = flags.enable_pipelined_write;
    }
    options_.allow_mmap_writes = flags.mmap_write;
    options_.wal_mmap_writes = flags.wal_mmap_writes;
    options_.table_mmap_reads = flags.table_mmap_reads;
    options_.allow_mmap_reads = flags.mmap_read;
    options_.use_fsync = flags.use_fsync;
    options_.max_open_files = flags.open_files;
    options_.num_levels = flags.num_levels;
    options_.max_background_jobs = flags.max_background_jobs;
    options_.target_file_size_base = static_cast<uint64_t>(flags.target_file_size_base);
    options_.max_bytes_for_level_base = flags.max_bytes_for_level_base;
    options_.max_bytes_for_level_multiplier = flags.max_bytes_for_level_multiplier;
    options_.level_compaction_dynamic_level_bytes = flags.level_compaction_dynamic_level_bytes;
    options_.disable_auto_compactions = flags.disable_auto_compactions;
    options_.level0_file_num_compaction_trigger = flags.level0_file_num_compaction_trigger;
    options_.level0_slowdown_writes_trigger = flags.level0_slowdown_writes_trigger;
    options_.level0_stop_writes_trigger = flags.level0_stop_writes_trigger;
    options_.max_subcompactions = static_cast<uint32_t>(flags.subcompactions);
    // Every compaction-style flag is assigned; Open refuses, by name, the
    // options Strata does not build yet, and db_bench then exits non-zero.
    strata::bench::ApplyCompactionSettings(compaction, &options_);
    // Paced I/O, as RocksDB 7.8.3's db_bench sets it (fairness 10).
    if (flags.rate_limiter_bytes_per_sec > 0) {
      options_.rate_limiter = strata::NewGenericRateLimiter(
          static_cast<int64_t>(flags.rate_limiter_bytes_per_sec),
          flags.rate_limiter_refill_period_us, 10,
          flags.rate_limit_bg_reads ? strata::RateLimiter::Mode::kReadsOnly
                                    : strata::RateLimiter::Mode::kWritesOnly,
          flags.rate_limiter_auto_tuned);
      if (options_.rate_limiter == nullptr) {
        strata::bench::Fail("--rate_limiter_refill_period_us must be positive");
      }
    }
    options_.bytes_per_sync = flags.bytes_per_sync;
    options_.wal_bytes_per_sync = flags.wal_bytes_per_sync;
    if (flags.sst_file_manager_bytes_per_sec > 0 || flags.sst_file_manager_bytes_per_truncate > 0) {
      options_.sst_file_manager =
          strata::NewSstFileManager(strata::Env::Default(), nullptr, "",
                                    static_cast<int64_t>(flags.sst_file_manager_bytes_per_sec),
                                    true, nullptr, 0.25, flags.sst_file_manager_bytes_per_truncate);
    }
    // File placement and direct I/O. Direct reads exclude table maps, which
    // are Strata's default: --use_direct_reads turns them off unless
    // --table_mmap_reads is given too (then Open refuses the pair).
    options_.use_direct_reads = flags.use_direct_reads;
    if (flags.use_direct_reads && !flags.WasSet("table_mmap_reads")) {
      options_.table_mmap_reads = false;
    }
    options_.use_direct_io_for_flush_and_compaction = flags.use_direct_io_for_flush_and_compaction;
    options_.compaction_readahead_size = static_cast<size_t>(flags.compaction_readahead_size);
    options_.wal_dir = flags.wal_dir;
    if (flags.statistics) options_.statistics = strata::CreateDBStatistics();
#ifndef STRATA_HAVE_TRANSACTIONS
    if (flags.transaction_db || flags.optimistic_transaction_db) {
      strata::bench::Fail(
          "--%s is not supported: this build of Strata has no transactions",
          flags.optimistic_transaction_db ? "optimistic_transaction_db" : "transaction_db");
    }
#endif
    if (flags.transaction_sleep != 0) {
      std::fprintf(stderr,
                   "WARNING: --transaction_sleep has no effect (RocksDB 7.8.3's db_bench "
                   "reads it nowhere either)\n");
    }
    if (flags.perf_level < strata::kDisable || flags.perf_level > strata::kEnableTime) {
      strata::bench::Fail("--perf_level=%d is out of range (1 kDisable ... 5 kEnableTime)",
                          flags.perf_level);
    }
    if (!flags.merge_operator.empty()) {
      options_.merge_operator = strata::MergeOperators::CreateFromStringId(flags.merge_operator);
      if (options_.merge_operator == nullptr) {
        strata::bench::Fail(
            "invalid merge operator[%s]: unknown name (put, put_v1, uint64add, stringappend, "
            "max, or an operator's Name())",
            flags.merge_operator.c_str());
      }
    }
    if (flags.prefix_size != 0) {
      if (flags.prefix_size < 0) strata::bench::Fail("--prefix_size must not be negative");
      options_.prefix_extractor.reset(
          strata::NewFixedPrefixTransform(static_cast<size_t>(flags.prefix_size)));
    }
    options_.memtable_prefix_bloom_size_ratio = flags.memtable_bloom_size_ratio;
    options_.memtable_whole_key_filtering = flags.memtable_whole_key_filtering;

    strata::BlockBasedTableOptions table;
    if (flags.block_size > 0) table.block_size = static_cast<size_t>(flags.block_size);
    if (flags.cache_size > 0) {
      if (flags.cache_type == "lru_cache") {
        table.block_cache =
            strata::NewLRUCache(static_cast<size_t>(flags.cache_size), flags.cache_numshardbits);
      } else if (flags.cache_type == "hyper_clock_cache") {
        // As RocksDB's db_bench: entries are estimated at one block.
        table.block_cache =
            strata::HyperClockCacheOptions(static_cast<size_t>(flags.cache_size),
                                           static_cast<size_t>(std::max(1, flags.block_size)),
                                           flags.cache_numshardbits)
                .MakeSharedCache();
      } else if (flags.cache_type == "clock_cache") {
        strata::bench::Fail(
            "--cache_type=clock_cache: old clock cache implementation has been "
            "removed (use hyper_clock_cache)");
      } else {
        strata::bench::Fail("--cache_type=%s: unknown (lru_cache, hyper_clock_cache)",
                            flags.cache_type.c_str());
      }
      if (table.block_cache == nullptr) {
        strata::bench::Fail("cannot make a block cache of %ld bytes with %d shard bits",
                            static_cast<long>(flags.cache_size), flags.cache_numshardbits);
      }
    } else {
      table.no_block_cache = true;  // as RocksDB's db_bench
    }
    table.cache_index_and_filter_blocks = flags.cache_index_and_filter_blocks;
    if (flags.partition_index_and_filters || flags.partition_index) {
      table.index_type = strata::BlockBasedTableOptions::IndexType::kTwoLevelIndexSearch;
      table.metadata_block_size =
          static_cast<uint64_t>(std::max<int64_t>(1, flags.metadata_block_size));
      table.partition_filters = flags.partition_index_and_filters;
    }
    table.pin_top_level_index_and_filter = flags.pin_top_level_index_and_filter;
    table.pin_l0_filter_and_index_blocks_in_cache = flags.pin_l0_filter_and_index_blocks_in_cache;
    // Memory (issue 19): as RocksDB's db_bench, except that only the roles
    // asked for get an override (Open refuses, by name, those not built).
    if (flags.cost_write_buffer_to_cache || flags.db_write_buffer_size != 0) {
      options_.write_buffer_manager = std::make_shared<strata::WriteBufferManager>(
          static_cast<size_t>(flags.db_write_buffer_size),
          flags.cost_write_buffer_to_cache ? table.block_cache : nullptr);
    }
    const std::pair<bool, strata::CacheEntryRole> charges[] = {
        {flags.charge_table_reader, strata::CacheEntryRole::kBlockBasedTableReader},
        {flags.charge_filter_construction, strata::CacheEntryRole::kFilterConstruction},
        {flags.charge_compression_dictionary_building_buffer,
         strata::CacheEntryRole::kCompressionDictionaryBuildingBuffer},
        {flags.charge_file_metadata, strata::CacheEntryRole::kFileMetadata},
    };
    for (const auto& [on, role] : charges) {
      if (on) {
        table.cache_usage_options.options_overrides[role].charged =
            strata::CacheEntryRoleOptions::Decision::kEnabled;
      }
    }
    options_.memory_budget = flags.memory_budget;
    table.whole_key_filtering = flags.whole_key_filtering;
    table.format_version = static_cast<uint32_t>(flags.format_version);
    if (flags.bloom_bits > 0) {
      table.filter_policy = flags.use_ribbon_filter
                                ? strata::NewRibbonFilterPolicy(flags.bloom_bits)
                                : strata::NewBloomFilterPolicy(flags.bloom_bits);
    }
    options_.table_factory = strata::NewBlockBasedTableFactory(table);
    read_options_.verify_checksums = flags.verify_checksum;
    read_options_.total_order_seek = flags.total_order_seek;
    read_options_.prefix_same_as_start = flags.prefix_same_as_start;
  }

  std::string Version() const { return STRATA_VERSION_STRING; }
  const char* CompressionName() const { return strata::bench::CompressionName(compression_); }

  bool Open(std::string* error) {
    strata::Status s;
#ifdef STRATA_HAVE_TRANSACTIONS
    if (flags_.optimistic_transaction_db) {
      s = strata::OptimisticTransactionDB::Open(options_, flags_.db, &occ_db_);
      // As RocksDB's db_bench: the plain benchmarks use the base DB.
      if (s.ok()) db_ = occ_db_->GetBaseDB();
    } else if (flags_.transaction_db) {
      s = strata::TransactionDB::Open(options_, strata::TransactionDBOptions(), flags_.db,
                                      &txn_db_);
      // The plain benchmarks write through the TransactionDB (they lock).
      if (s.ok()) db_ = txn_db_.get();
    } else
#endif
    {
      s = strata::DB::Open(options_, flags_.db, &owned_db_);
      if (s.ok()) db_ = owned_db_.get();
    }
    if (!s.ok()) {
      *error = s.ToString();
      return false;
    }
    cf_ = db_->DefaultColumnFamily();
    return true;
  }
  void Close() {
    if (db_ == nullptr) return;
    // The outermost DB closes (a wrapper closes what it wraps).
    strata::DB* outer = owned_db_.get();
#ifdef STRATA_HAVE_TRANSACTIONS
    if (txn_db_ != nullptr) outer = txn_db_.get();
    if (occ_db_ != nullptr) outer = occ_db_.get();
#endif
    strata::Status s = outer->Close();
    if (!s.ok()) strata::bench::Fail("close error: %s", s.ToString().c_str());
    owned_db_.reset();
#ifdef STRATA_HAVE_TRANSACTIONS
    txn_db_.reset();
    occ_db_.reset();
#endif
    db_ = nullptr;
    cf_ = nullptr;
  }

#ifdef STRATA_HAVE_TRANSACTIONS
  // ---- transactions (randomtransaction; db_bench_common.h) ----
  struct Txn {
    std::unique_ptr<strata::Transaction> txn;
    strata::ReadOptions read_options;  // snapshot: the one TxnSetSnapshot took
  };
  strata::bench::TxnKind TransactionKind() const {
    if (occ_db_ != nullptr) return strata::bench::TxnKind::kOptimistic;
    if (txn_db_ != nullptr) return strata::bench::TxnKind::kPessimistic;
    return strata::bench::TxnKind::kNone;
  }
  strata::bench::TxnResult TxnBegin(Txn* t, const std::string& name, std::string* error) {
    t->read_options = read_options_;
    if (occ_db_ != nullptr) {
      // RocksDB 7.8.3 passes default OptimisticTransactionOptions here (and
      // its db_bench then crashes on the null snapshot, see
      // docs/design/bench-transactions.md). Without a snapshot a key read
      // by a plain Get is only tracked from its Put on, so concurrent runs
      // can lose updates and fail the verification; --transaction_set_snapshot
      // gives the optimistic transactions a snapshot too, which closes that.
      strata::OptimisticTransactionOptions o;
      o.set_snapshot = flags_.transaction_set_snapshot;
      t->txn = occ_db_->BeginTransaction(write_options_, o, std::move(t->txn));
    } else {
      strata::TransactionOptions o;
      o.lock_timeout = static_cast<int64_t>(flags_.transaction_lock_timeout);
      o.set_snapshot = flags_.transaction_set_snapshot;
      t->txn = txn_db_->BeginTransaction(write_options_, o, std::move(t->txn));
    }
    if (t->txn == nullptr) {
      *error = "BeginTransaction returned no transaction";
      return strata::bench::TxnResult::kError;
    }
    if (name.empty()) return strata::bench::TxnResult::kOk;
    return Classify(t->txn->SetName(name), error);
  }
  static bool TxnHasSnapshot(const Txn* t) { return t->txn->GetSnapshot() != nullptr; }
  static void TxnSetSnapshot(Txn* t) {
    t->txn->SetSnapshot();
    t->read_options.snapshot = t->txn->GetSnapshot();
  }
  strata::bench::TxnResult TxnGet(Txn* t, std::string_view key, bool for_update, std::string* value,
                                  std::string* error) {
    const strata::Slice k = ToSlice(key);
    return Classify(for_update ? t->txn->GetForUpdate(t->read_options, cf_, k, value)
                               : t->txn->Get(t->read_options, cf_, k, value),
                    error);
  }
  strata::bench::TxnResult TxnDelete(Txn* t, std::string_view key, bool single,
                                     std::string* error) {
    return Classify(
        single ? t->txn->SingleDelete(cf_, ToSlice(key)) : t->txn->Delete(cf_, ToSlice(key)),
        error);
  }
  strata::bench::TxnResult TxnPut(Txn* t, std::string_view key, std::string_view value,
                                  std::string* error) {
    return Classify(t->txn->Put(cf_, ToSlice(key), ToSlice(value)), error);
  }
  static strata::bench::TxnResult TxnCommitTimePut(Txn* t, std::string_view key,
                                                   std::string_view value, std::string* error) {
    return Classify(t->txn->GetCommitTimeWriteBatch()->Put(ToSlice(key), ToSlice(value)), error);
  }
  static strata::bench::TxnResult TxnPrepare(Txn* t, std::string* error) {
    return Classify(t->txn->Prepare(), error);
  }
  static strata::bench::TxnResult TxnCommit(Txn* t, std::string* error) {
    return Classify(t->txn->Commit(), error);
  }
  static strata::bench::TxnResult TxnRollback(Txn* t, std::string* error) {
    return Classify(t->txn->Rollback(), error);
  }
#endif
  bool Destroy(std::string* error) {
    strata::Status s = strata::DestroyDB(flags_.db, options_);
    if (!s.ok()) {
      *error = s.ToString();
      return false;
    }
    return true;
  }

  void SetWriteOptions(bool sync, bool disable_wal) {
    write_options_.sync = sync;
    write_options_.disableWAL = disable_wal;
  }

  void BatchClear(Batch* batch) { batch->Clear(); }
  void BatchPut(Batch* batch, std::string_view key, std::string_view value) {
    strata::Status s = batch->Put(ToSlice(key), ToSlice(value));
    if (!s.ok()) strata::bench::Fail("put error: %s", s.ToString().c_str());
  }
  void BatchDelete(Batch* batch, std::string_view key) {
    strata::Status s = batch->Delete(ToSlice(key));
    if (!s.ok()) strata::bench::Fail("del error: %s", s.ToString().c_str());
  }
  void BatchDeleteRange(Batch* batch, std::string_view begin, std::string_view end) {
    strata::Status s = batch->DeleteRange(ToSlice(begin), ToSlice(end));
    if (!s.ok()) strata::bench::Fail("deleterange error: %s", s.ToString().c_str());
  }
  bool Write(Batch* batch, std::string* error) {
    strata::Status s = db_->Write(write_options_, batch);
    if (!s.ok()) {
      *error = s.ToString();
      return false;
    }
    return true;
  }
  bool Put(std::string_view key, std::string_view value, std::string* error) {
    strata::Status s = db_->Put(write_options_, cf_, ToSlice(key), ToSlice(value));
    if (!s.ok()) {
      *error = s.ToString();
      return false;
    }
    return true;
  }
  GetResult Get(std::string_view key, std::string* value, std::string* error) {
    strata::Status s = db_->Get(read_options_, cf_, ToSlice(key), value);
    if (s.ok()) return GetResult::kFound;
    if (s.IsNotFound()) return GetResult::kNotFound;
    *error = s.ToString();
    return GetResult::kError;
  }

  bool Merge(std::string_view key, std::string_view operand, std::string* error) {
    return Check(db_->Merge(write_options_, cf_, ToSlice(key), ToSlice(operand)), error);
  }
  void MultiGet(MultiGetScratch* scratch, const std::vector<std::string>& keys,
                std::vector<std::string>* values, std::vector<GetResult>* results,
                std::string* error) {
    scratch->keys.clear();
    for (const std::string& k : keys) scratch->keys.emplace_back(k.data(), k.size());
    const std::vector<strata::Status> statuses =
        db_->MultiGet(read_options_, scratch->keys, values);
    bool failed = false;
    for (size_t i = 0; i < keys.size(); ++i) {
      const strata::Status& s = statuses[i];
      if (s.ok()) {
        (*results)[i] = GetResult::kFound;
      } else if (s.IsNotFound()) {
        (*results)[i] = GetResult::kNotFound;
      } else {
        if (!failed) *error = s.ToString();
        failed = true;
        (*results)[i] = GetResult::kError;
      }
    }
  }

  std::unique_ptr<Iterator> NewIterator() { return db_->NewIterator(read_options_, cf_); }
  static void Seek(Iterator* it, std::string_view target) { it->Seek(ToSlice(target)); }
  static std::string_view Key(const Iterator* it) { return it->key().ToStringView(); }
  static std::string_view Value(const Iterator* it) { return it->value().ToStringView(); }
  static bool IterOk(const Iterator* it, std::string* error) {
    strata::Status s = it->status();
    if (!s.ok()) {
      *error = s.ToString();
      return false;
    }
    return true;
  }

  bool GetProperty(const char* name, std::string* value) {
    return db_->GetProperty(cf_, name, value);
  }
  std::string StatisticsString() {
    return options_.statistics ? options_.statistics->ToString() : "";
  }
  // The calling benchmark thread's PerfLevel (--perf_level) and, after its
  // run, its PerfContext ("" at kDisable).
  void SetThreadPerfLevel(int level) {
    strata::SetPerfLevel(static_cast<strata::PerfLevel>(level));
  }
  std::string ThreadPerfContextString() {
    if (strata::GetPerfLevel() <= strata::kDisable) return "";
    return strata::get_perf_context()->ToString();
  }

  bool CompactAll(std::string* error) {
    strata::CompactRangeOptions cro;
    cro.bottommost_level_compaction = strata::BottommostLevelCompaction::kForceOptimized;
    return Check(db_->CompactRange(cro, cf_, nullptr, nullptr), error);
  }
  bool Flush(std::string* error) { return Check(db_->Flush(strata::FlushOptions(), cf_), error); }
  bool WaitForCompaction(std::string* error) {
    // Idle when nothing is flushing or waiting to flush and no compaction is
    // running or wanted (with auto compactions off, none is ever started).
    static const char* const kBusy[] = {
        "strata.mem-table-flush-pending", "strata.num-running-flushes",
        "strata.num-running-compactions", "strata.compaction-pending"};
    const size_t checked = options_.disable_auto_compactions ? 3 : 4;
    while (true) {
      bool busy = false;
      for (size_t i = 0; i < checked && !busy; ++i) {
        uint64_t v = 0;
        if (!db_->GetIntProperty(cf_, kBusy[i], &v)) {
          *error = std::string("property ") + kBusy[i] + " is unknown";
          return false;
        }
        busy = v != 0;
      }
      if (!busy) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  bool FlushCompactionBytes(uint64_t* bytes) {
    uint64_t flush = 0, compact = 0;
    if (!db_->GetIntProperty(cf_, "strata.flush-write-bytes", &flush) ||
        !db_->GetIntProperty(cf_, "strata.compact-write-bytes", &compact)) {
      return false;
    }
    *bytes = flush + compact;
    return true;
  }
  bool ReadProbeCounts(strata::bench::ReadProbes* out) {
    const strata::Statistics* stats = options_.statistics.get();
    if (stats == nullptr) return false;
    out->useful = stats->getTickerCount(strata::BLOOM_FILTER_USEFUL);
    out->positive = stats->getTickerCount(strata::BLOOM_FILTER_FULL_POSITIVE);
    out->gets = stats->getTickerCount(strata::NUMBER_KEYS_READ);
    return true;
  }
  bool SpaceBytes(uint64_t* live_sst_bytes, uint64_t* live_data_estimate) {
    return db_->GetIntProperty(cf_, "rocksdb.live-sst-files-size", live_sst_bytes) &&
           db_->GetIntProperty(cf_, "rocksdb.estimate-live-data-size", live_data_estimate);
  }

 private:
  static bool Check(const strata::Status& s, std::string* error) {
    if (!s.ok()) *error = s.ToString();
    return s.ok();
  }

#ifdef STRATA_HAVE_TRANSACTIONS
  // The outcome classes RocksDB's RandomTransactionInserter tells apart.
  static strata::bench::TxnResult Classify(const strata::Status& s, std::string* error) {
    using strata::bench::TxnResult;
    if (s.ok()) return TxnResult::kOk;
    *error = s.ToString();
    if (s.IsNotFound()) return TxnResult::kNotFound;
    if (s.IsBusy() || s.IsTimedOut() || s.IsTryAgain()) return TxnResult::kConflict;
    if (s.IsExpired()) return TxnResult::kExpired;
    return TxnResult::kError;
  }
#endif

  const BenchFlags& flags_;
  const Compression compression_;
  strata::Options options_;
  strata::ReadOptions read_options_;
  strata::WriteOptions write_options_;
  // Exactly one of these owns the open DB (none when closed); db_ is what
  // the plain benchmarks use: the DB itself, the TransactionDB, or the
  // OptimisticTransactionDB's base DB.
  std::unique_ptr<strata::DB> owned_db_;
#ifdef STRATA_HAVE_TRANSACTIONS
  std::unique_ptr<strata::TransactionDB> txn_db_;
  std::unique_ptr<strata::OptimisticTransactionDB> occ_db_;
#endif
  strata::DB* db_ = nullptr;
  strata::ColumnFamilyHandle* cf_ = nullptr;  // owned by db_
};

}  // namespace

int main(int argc, char** argv) {
  BenchFlags flags;
  std::string error;
  if (!flags.Parse(argc, argv, &error)) {
    std::fprintf(stderr, "ERROR: %s\n", error.c_str());
    return 1;
  }
  Compression compression;
  if (!strata::bench::ParseCompression(flags.compression_type, &compression)) {
    std::fprintf(stderr, "Cannot parse compression type '%s'\n", flags.compression_type.c_str());
    return 1;
  }
  if (flags.db.empty()) {
    flags.db = strata::bench::DefaultDbPath(StrataEngine::PathPrefix());
  }
  strata::bench::CompactionSettings compaction;
  if (!strata::bench::ParseCompactionSettings(flags, compression, &compaction, &error)) {
    std::fprintf(stderr, "ERROR: %s\n", error.c_str());
    return 1;
  }
  StrataEngine engine(flags, compression, compaction);
  strata::bench::Benchmark<StrataEngine> bench(flags, &engine);
  return bench.Run();
}
