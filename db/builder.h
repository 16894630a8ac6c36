// BuildTables: the table-writing loop shared by flushes, compactions and
// repair (LevelDB calls its one-file ancestor BuildTable). It runs a sorted
// internal-key input through a CompactionIterator and writes the surviving entries as one or
// more table files, each synced and closed before it is reported.
//
// Output files are cut when they reach max_output_file_size, or when the
// next key would make the current file overlap more than
// 10 x max_output_file_size of the level below (grandparents), or where an
// SstPartitioner requires (partitioner_factory), but never
// between two versions of one user key, so a user key lives in exactly one
// file of a level. A compaction can be split by key range into
// subcompactions that run in parallel threads, each writing its own files.
//
// Range tombstones. With a range-deletion aggregator holding the inputs'
// tombstones, the output files partition the user-key range [begin, end):
// file i owns [its first user key, file i+1's first user key), the first
// file from `begin` (or unbounded) and the last up to `end` (or unbounded).
// Each file carries the aggregator's output tombstones for its range
// (clipped to it), and its smallest/largest keys are widened to cover them:
// a tombstone [s, e)@q widens smallest to (s, q, kTypeRangeDeletion) and
// largest to the sentinel (e, kMaxSequenceNumber, kTypeRangeDeletion),
// which sorts before every entry of user key e, so consecutive files stay
// disjoint in internal-key order even when one's sentinel and the next one's
// first key share a user key. A range holding tombstones but no point keys
// still gets a (tombstone-only) file.
//
// Thread-safety: BuildTables is called without the DB mutex; the inputs
// (Version files, memtables) are kept alive by the caller. The aggregator is
// single-threaded: parallel subcompactions need one aggregator each.
// Invariants: on failure every file this call created is deleted and
// *outputs is empty; on success each output's FileMetaData (size,
// smallest/largest keys, sequence range) describes the synced file.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/dbformat.h"
#include "base/internal_iterator.h"
#include "db/compaction/compaction_iterator.h"
#include "db/event_helpers.h"
#include "db/version_edit.h"
#include "strata/env.h"
#include "strata/options.h"
#include "strata/sst_partitioner.h"
#include "strata/statistics.h"
#include "strata/table.h"

namespace strata {

struct BuildTablesStats {
  uint64_t bytes_written = 0;
  uint64_t num_output_files = 0;
  uint64_t num_output_records = 0;  // point entries
  uint64_t num_output_range_tombstones = 0;
  CompactionIteratorStats iter;
  // One per output, in output order.
  std::vector<std::shared_ptr<const TableProperties>> table_properties;
};

struct BuildTablesOptions {
  std::string dbname;
  // The directory the tables are written to (empty: dbname) and the path
  // id recorded for them (its index in the family's table paths, see
  // TablePathsOf in db/filename.h).
  std::string table_dir;
  uint32_t path_id = 0;
  const Options* options = nullptr;
  FileSystem* fs = nullptr;
  BlockBasedTableOptions table_options;
  CompressionType compression = kNoCompression;
  // The codec's parameters and dictionary settings for these outputs
  // (db/compaction/compression_for_level.h picks them by level).
  CompressionOptions compression_opts;
  int output_level = 0;
  // The outputs may end up at any level (repair): tables are told level -1,
  // as RocksDB's repairer does.
  bool level_unknown = false;
  uint64_t max_output_file_size = ~0ull;
  // Files of the level below the output, sorted (for cutting outputs);
  // may be empty.
  std::vector<FileMetaData*> grandparents;
  // Also cut where a partitioner from this factory requires
  // (include/strata/sst_partitioner.h; borrowed, null = none): one per
  // BuildTables call, made with partitioner_context (whose key slices the
  // caller keeps alive). Asked for every entry after a file's first; acted
  // on only between two user keys.
  const SstPartitionerFactory* partitioner_factory = nullptr;
  SstPartitioner::Context partitioner_context{};
  std::vector<SequenceNumber> snapshots;  // ascending
  bool bottommost = false;
  // See CompactionIterator; empty = every key may exist below.
  std::function<bool(const Slice& user_key)> key_may_exist_below;
  std::function<bool(const Slice& user_key)> single_delete_key_may_exist_below;
  // Gives a fresh file number (thread-safe).
  std::function<uint64_t()> new_file_number;
  std::string db_id;
  std::string db_session_id;
  // Recorded in each table's properties (rocksdb.column.family.id / name).
  uint32_t column_family_id = 0;
  std::string column_family_name = "default";
  // File times, unix seconds (RocksDB's rules, docs/design/
  // fifo-and-ttl-compaction.md). creation_time: now, each output's
  // file_creation_time (and table property file_creation_time).
  uint64_t creation_time = 0;
  // The outputs' oldest_ancester_time: how old their data is (flush: the
  // memtable's first write; compaction: the inputs' minimum); 0 means
  // creation_time.
  uint64_t oldest_ancester_time = 0;
  // The table property oldest_key_time (flush only; 0 = unknown).
  uint64_t oldest_key_time = 0;
  // The table property creation_time is oldest_ancester_time, except for a
  // FIFO flush, where RocksDB writes the file's creation time.
  bool creation_property_is_file_time = false;
  // When set: an output's oldest_ancester_time from its user-key range
  // (compaction: only the inputs overlapping it), UINT64_MAX for unknown.
  // Refines the MANIFEST field only, as RocksDB does.
  std::function<uint64_t(const Slice& smallest, const Slice& largest)> refine_oldest_ancester_time;
  // Only user keys in [begin, end) are written (null = unbounded); the
  // input is positioned by Seek(begin) / SeekToFirst.
  const Slice* begin = nullptr;
  const Slice* end = nullptr;
  // Passed to the CompactionIterator (see CompactionIteratorOptions); the
  // merge operator's name also goes into the table properties.
  const MergeOperator* merge_operator = nullptr;
  const CompactionFilter* compaction_filter = nullptr;
  int filter_level = 0;
  // The inputs' range tombstones (borrowed; null = none): covered entries
  // are dropped and the surviving tombstones written (see the top).
  CompactionRangeDelAggregator* range_del_agg = nullptr;
  Logger* logger = nullptr;
  Statistics* statistics = nullptr;
  // Where each output file's sync time goes: TABLE_SYNC_MICROS (flush) or
  // COMPACTION_OUTFILE_SYNC_MICROS (compaction).
  uint32_t sync_histogram = TABLE_SYNC_MICROS;
  // > 0: each output without range tombstones gets an in-memory filter of
  // its user keys at this many bits per key (FileMetaData::key_filter).
  uint32_t key_filter_bits_per_key = 0;
  // Events (db/event_helpers.h): each output is announced to the listeners
  // before it is created and reported after it is written or has failed,
  // and a written one gets a table_file_creation line in event_log. Null
  // listeners / event_log: none. clock stamps the LOG line.
  const Listeners* listeners = nullptr;
  Logger* event_log = nullptr;
  SystemClock* clock = nullptr;
  int job_id = 0;
  TableFileCreationReason reason = TableFileCreationReason::kMisc;
  // Paced I/O (issue 19): the priority the outputs' writes are charged at
  // to options->rate_limiter (flush IO_HIGH, compaction IO_LOW; IO_TOTAL =
  // not charged); options->bytes_per_sync applies to every output.
  Env::IOPriority io_priority = Env::IO_TOTAL;
};

// Writes the input's surviving entries. *outputs receives one FileMetaData
// per file (level not included: the caller records the output level).
Status BuildTables(const BuildTablesOptions& options, InternalIterator* input,
                   std::vector<FileMetaData>* outputs, BuildTablesStats* stats);

}  // namespace strata
