// BlockBasedTable: an open table file in RocksDB's block-based format
// (format_version 0..7 read; docs/format/table.md (File layout) "Reading an SST"), with
// point lookups, iterators and checksum verification.
//
// Open reads and verifies the footer, metaindex, properties, index and (with
// a filter policy) filter; the index and filter are held by the reader, or
// with cache_index_and_filter_blocks live in the block cache. A partitioned
// index (kTwoLevelIndexSearch) or filter keeps only its top level so; the
// partitions are read on demand through the block cache (level-0 tables
// with pin_l0_filter_and_index_blocks_in_cache pin them all at Open). The filter
// holds whole keys unless the file's "rocksdb.block.based.table.whole.key.
// filtering" property is "0" (absent: as table_options.whole_key_filtering
// says), and prefixes when the file recorded a prefix extractor; its
// prefixes are used only when that recorded name equals the configured
// extractor's Name(). Get probes whole keys when the file has them, else the
// prefix of a key in the extractor's domain, else nothing. Data blocks are
// read on demand through the block cache (key = per-table cache id | block
// offset), checksum-verified when ReadOptions::verify_checksums, inserted
// only when ReadOptions::fill_cache.
//
// Thread-safety: after Open, every method may be called concurrently;
// iterators are single-threaded. The table must outlive its iterators.
// Invariants:
//  1. No input bytes crash the reader or make it read outside the file: a
//     damaged block gives Status::Corruption naming the file and the block
//     offset ("<file>: block checksum mismatch at offset N", ...).
//  2. Get and iterators never return an entry that is not in the file.
//  3. An external file with a non-zero global sequence number G (see
//     TableReaderOptions::largest_seqno) reads as if every key carried
//     sequence G: Get, MultiGet, iterators and range tombstones give G (its
//     keys are stored at sequence 0), and a lookup at a snapshot below G
//     sees nothing of it. Other files read unchanged.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "base/dbformat.h"
#include "base/get_context.h"
#include "base/internal_iterator.h"
#include "cache/cache_reservation_manager.h"
#include "strata/cache.h"
#include "strata/env.h"
#include "strata/options.h"
#include "strata/slice_transform.h"
#include "strata/statistics.h"
#include "strata/status.h"
#include "strata/table.h"
#include "strata/table_properties.h"
#include "table/format.h"

namespace strata {

struct TableReaderOptions {
  // Copied by the reader. A null block_cache (and !no_block_cache) means:
  // no caching of data blocks (each read goes to the file); the table
  // factory supplies a default cache before it gets here.
  BlockBasedTableOptions table_options;
  // Orders user keys; must match the file's "rocksdb.comparator" (or the
  // file has none). Must outlive the reader.
  const Comparator* user_comparator = BytewiseComparator();
  // Used in every error message.
  std::string file_name;
  // May be null.
  Statistics* statistics = nullptr;
  // LSM level of the file (-1 unknown); level 0 may pin index and filter.
  int level = -1;
  // Do not read or use the filter block.
  bool skip_filters = false;
  // The reader serves a compaction: block reads are timed into
  // READ_BLOCK_COMPACTION_MICROS (point lookups' into READ_BLOCK_GET_MICROS).
  bool for_compaction = false;
  // The column family's prefix extractor (ColumnFamilyOptions::
  // prefix_extractor), or null. Borrowed; must outlive the reader.
  const SliceTransform* prefix_extractor = nullptr;
  // The largest sequence number the MANIFEST records for the file, or
  // kMaxSequenceNumber when unknown (a lone file). An external file
  // (property "rocksdb.external_sst_file.version" >= 2) takes it as its
  // global sequence number when its "rocksdb.external_sst_file.global_seqno"
  // property is 0 (ingested with write_global_seqno = false); a non-zero
  // property must equal it (else Corruption), as RocksDB checks.
  SequenceNumber largest_seqno = kMaxSequenceNumber;
  // Issue 19 (CacheEntryRole::kBlockBasedTableReader): if not null, the
  // reader's own memory is charged to the block cache through it for the
  // reader's lifetime; Open fails with MemoryLimit if a strict cache has
  // no room.
  std::shared_ptr<ConcurrentCacheReservationManager> reader_charge;
};

class BlockBasedTable {
 public:
  // Opens the table in `file` of exactly file_size bytes.
  static Status Open(const TableReaderOptions& options, std::unique_ptr<RandomAccessFile>&& file,
                     uint64_t file_size, std::unique_ptr<BlockBasedTable>* table);
  ~BlockBasedTable();
  BlockBasedTable(const BlockBasedTable&) = delete;
  BlockBasedTable& operator=(const BlockBasedTable&) = delete;

  // Point lookup of internal key `key` (user key + trailer(snapshot seq,
  // kValueTypeForSeek)): filter, then index, then one data block (two if a
  // user key's versions straddle blocks). Feeds matching entries to
  // get_context. A Corruption/IOError is returned; not finding the key is OK.
  Status Get(const ReadOptions& read_options, const Slice& key, GetContext* get_context,
             bool skip_filters = false);

  // Point lookups of n keys (internal keys as for Get, ascending), each
  // feeding its own context: the filter is checked for every key first,
  // the index block is fetched once, and keys that land in the same data
  // block share one read of it. statuses[i] gets key i's error (OK if
  // none). Contexts already done are skipped.
  void MultiGet(const ReadOptions& read_options, size_t n, const Slice* keys,
                GetContext* const* contexts, Status* statuses);

  // False only if the filter proves user_key is absent (true without a
  // filter). Uses the prefix filter when the file holds no whole keys.
  bool KeyMayMatch(const Slice& user_key) const;

  // False only when the file has a usable prefix filter (same extractor
  // name), user_key_or_prefix_source is in the extractor's domain, and the
  // filter proves its Transform() absent: then no key of the file has that
  // prefix. True otherwise. Counts BLOOM_FILTER_PREFIX_CHECKED/USEFUL.
  bool PrefixMayMatch(const Slice& user_key_or_prefix_source) const;
  // Whether PrefixMayMatch can ever answer false for this file.
  bool HasUsablePrefixFilter() const;

  // An iterator over every entry (internal keys), both directions. Caller
  // owns it. Reads ahead when it walks many consecutive blocks.
  // If `handle` is not null it is the caller's pin of this reader in
  // `cache` (the table cache): the iterator takes it over and releases it
  // when destroyed, after everything it read from the reader.
  std::unique_ptr<InternalIterator> NewIterator(const ReadOptions& read_options,
                                                Cache* cache = nullptr,
                                                Cache::Handle* handle = nullptr);

  // The same over a reader the iterator owns (deleted last).
  static std::unique_ptr<InternalIterator> NewOwningIterator(std::unique_ptr<BlockBasedTable> table,
                                                             const ReadOptions& read_options);

  // An iterator over the range-deletion block's entries (key = internal key
  // begin|seq|type, value = end user key), or nullptr if the file has none.
  std::unique_ptr<InternalIterator> NewRangeTombstoneIterator(const ReadOptions& read_options);

  // An iterator over the index block as stored: key() = separator (user key
  // or internal key per index_key_is_user_key), value() = the data block's
  // BlockHandle encoded in full (varint64 offset, varint64 size). For tools.
  // With a partitioned index: the entries of all partitions in order (the
  // partitions are read through the block cache).
  std::unique_ptr<InternalIterator> NewIndexIterator();

  // Reads one block (handle from the index or metaindex) and returns its
  // uncompressed contents, checksum verified. For tools.
  Status ReadBlockContents(const BlockHandle& handle, std::string* contents) const;

  // Reads and verifies every block of the file (data, index, filter,
  // properties, metaindex, range-del).
  Status VerifyChecksum();

  // Approximate file offset where `key` (internal key) would be.
  uint64_t ApproximateOffsetOf(const Slice& key);

  std::shared_ptr<const TableProperties> GetTableProperties() const;
  // The global sequence number applied to every key (0: none, keys read as
  // stored), and the file offset of the 8-byte value of the
  // "rocksdb.external_sst_file.global_seqno" property (0: the file has
  // none); ingestion writes the assigned number there.
  SequenceNumber global_seqno() const;
  uint64_t global_seqno_offset() const;
  const Footer& footer() const;
  uint64_t file_size() const;
  // Memory held by the reader (index, filter, not the block cache).
  size_t ApproximateMemoryUsage() const;

 private:
  struct Rep;
  static bool RepPrefixMayMatch(const Rep* r, const Slice& user_key_or_prefix_source);
  // VerifyChecksum's walk over index/filter partitions and data blocks.
  Status VerifyPartitioned();
  class Iter;
  explicit BlockBasedTable(Rep* rep);
  Rep* rep_;
};

}  // namespace strata
