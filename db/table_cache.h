// TableCache: the open table readers of one column family, keyed by file
// number, in an LRU strata::Cache (BlockBasedTable readers, charge 1 each)
// that all families of a DB share and max_open_files bounds. Point lookups
// and iterators go through it; a file that is not open is opened on demand.
//
// Thread-safety: thread-safe.
// Invariants:
//  1. At most max(max_open_files - 10, 20) readers stay open in the DB
//     when max_open_files > 0 (unbounded for -1), plus the ones pinned by
//     live iterators or in-flight lookups.
//  2. Evict(file_number) makes later lookups reopen the file; readers still
//     pinned stay valid until released.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "base/dbformat.h"
#include "base/get_context.h"
#include "base/internal_iterator.h"
#include "db/version_edit.h"
#include "strata/cache.h"
#include "strata/options.h"
#include "strata/status.h"
#include "strata/table.h"
#include "table/block_based_table_reader.h"

namespace strata {

// What the table cache needs to know of a file.
struct TableFileMeta {
  uint64_t number = 0;
  uint64_t file_size = 0;  // exact: the footer is found from it
  int level = -1;
  // The MANIFEST's largest sequence number of the file (an ingested file
  // takes it as its global sequence number: TableReaderOptions::
  // largest_seqno); kMaxSequenceNumber when unknown.
  SequenceNumber largest_seqno = kMaxSequenceNumber;
  // Which of the family's table directories holds the file (the MANIFEST's
  // path id; see TablePathsOf in db/filename.h).
  uint32_t path_id = 0;
};

class TableCache {
 public:
  // The table files (<number>.sst, with RocksDB's legacy <number>.ldb
  // accepted) are in options.cf_paths[path_id] (the family's sanitized
  // table directories); db_path is the only directory when cf_paths is
  // empty. A path id beyond the list is an InvalidArgument naming it. options and table_options are
  // copied; options.env and options.comparator must outlive the cache.
  // readers: the DB's reader cache (NewReaderCache), shared by the table
  // caches of all its column families; null gives this cache its own.
  TableCache(const std::string& db_path, const Options& options,
             const BlockBasedTableOptions& table_options, int max_open_files,
             std::shared_ptr<Cache> readers = nullptr);
  // A shared reader cache keeps no reader of a destroyed TableCache (they
  // point at its options): its files are erased from it.
  ~TableCache();

  // A reader cache bounded by max_open_files, for every column family of
  // one DB: file numbers are unique in a DB, and so max_open_files bounds
  // the open tables of the whole DB, as in RocksDB.
  static std::shared_ptr<Cache> NewReaderCache(int max_open_files);
  TableCache(const TableCache&) = delete;
  TableCache& operator=(const TableCache&) = delete;

  // Point lookup in one file (see BlockBasedTable::Get).
  Status Get(const ReadOptions& read_options, const TableFileMeta& file, const Slice& key,
             GetContext* get_context);

  // The same for a file of a Version: with an unbounded cache
  // (max_open_files = -1) the reader stays pinned in file->pinned_table
  // after the first lookup, and later lookups skip the cache.
  // Pinning (GetContext::pin_pending): a value in a reader opened through
  // the bounded cache keeps the reader's handle; one in a reader pinned by
  // file is left pending for the caller, whose Version keeps it alive.
  Status Get(const ReadOptions& read_options, FileMetaData* file, int level, const Slice& key,
             GetContext* get_context);

  // An iterator over one file; it keeps the reader pinned until destroyed.
  // On error returns an iterator whose status() is the error. If table_out
  // is not null it gets the reader (valid while the iterator lives).
  // BlockBasedTable::MultiGet on file (keys ascending); statuses[i] gets
  // key i's error, or every key's when the file cannot be opened.
  void MultiGet(const ReadOptions& read_options, FileMetaData* file, int level, size_t n,
                const Slice* keys, GetContext* const* contexts, Status* statuses);

  // The file's range tombstones, fragmented (cached in file->range_tombstones
  // after the first call); *list = nullptr if it has none. Opens the file if
  // needed.
  Status GetRangeTombstones(FileMetaData* file, int level,
                            const FragmentedRangeTombstoneList** list);

  std::unique_ptr<InternalIterator> NewIterator(const ReadOptions& read_options,
                                                const TableFileMeta& file,
                                                BlockBasedTable** table_out = nullptr);

  // The same for a file of a Version the caller holds (which keeps `file`
  // alive while the iterator lives): with an unbounded cache the reader is
  // pinned in file->pinned_table, as Get pins it, and the iterator holds no
  // cache handle.
  std::unique_ptr<InternalIterator> NewIterator(const ReadOptions& read_options, FileMetaData* file,
                                                int level);

  // An iterator for a compaction input: a private reader of its own that
  // reads with pread (never through a memory map, so a compaction does not
  // map its whole input into the process), without filters or the table
  // cache; the iterator owns it.
  std::unique_ptr<InternalIterator> NewCompactionIterator(const ReadOptions& read_options,
                                                          const TableFileMeta& file);

  // The file's properties (opens it if needed).
  Status GetTableProperties(const TableFileMeta& file,
                            std::shared_ptr<const TableProperties>* props);

  // Approximate offset in the file of internal key `key`: the start of the
  // data block that would hold it (past the last key: the data's end),
  // scaled by file size / data size so that the metadata blocks spread over
  // the data as RocksDB's estimate does (the data's end maps to the file's
  // end). For DB::GetApproximateSizes. Opens the file if needed; *offset =
  // 0 on error.
  Status ApproximateOffsetOf(const TableFileMeta& file, const Slice& key, uint64_t* offset);
  // The same scaled estimate of the bytes between internal keys start and
  // end (RocksDB scales the difference of the two data offsets, which can
  // differ by one from the difference of two scaled offsets).
  Status ApproximateSize(const TableFileMeta& file, const Slice& start, const Slice& end,
                         uint64_t* size);

  // Opens the file (unless open) and pins its reader in file->pinned_table
  // until the metadata goes, whatever the cache's bound: a secondary
  // instance holds every table of its Versions open this way, as the
  // primary may delete them at any time.
  Status Pin(FileMetaData* file, int level);

  // Drops the reader of a deleted file from the cache.
  void Evict(uint64_t file_number);

  // Opens the file with a private reader (pread, no block cache) and checks
  // the checksum of every block (BlockBasedTable::VerifyChecksum).
  Status VerifyChecksum(const TableFileMeta& file);

  // Open readers in the (possibly shared) reader cache, of every family
  // that uses it (for tests and properties).
  size_t NumOpenReaders() const;
  // Memory held by file_number's reader (index, filter; not the block
  // cache) if it is open; 0 if not (nothing is opened).
  size_t ReaderMemoryUsage(uint64_t file_number) const;

 private:
  struct Rep;
  std::unique_ptr<Rep> rep_;
};

}  // namespace strata
