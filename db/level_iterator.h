// LevelIterator: one InternalIterator over a sorted run of table files that
// do not overlap (a level >= 1 of a Version), opening each file through the
// TableCache only when the iteration reaches it, so a Seek touches one file.
//
// Thread-safety: not thread-safe. The files (and the Version holding them)
// and the TableCache must outlive the iterator.
// Invariants:
//  1. Files are ordered by smallest key and do not overlap (caller's duty).
//  2. With ReadOptions::iterate_upper_bound, a file whose smallest user key
//     is >= the bound is never opened; with iterate_lower_bound likewise for
//     files whose largest user key is < the bound when iterating backward.
#pragma once

#include <vector>

#include "base/dbformat.h"
#include "base/internal_iterator.h"
#include "db/table_cache.h"
#include "db/version_edit.h"
#include "strata/options.h"

namespace strata {

// `files` is referenced, not copied: the list must outlive the iterator
// (a Version's level, a compaction's inputs). level is passed to the table
// cache; outside compactions, the files' readers are pinned by their
// metadata as TableCache::NewIterator(ro, FileMetaData*, level) pins them.
// for_compaction: files are opened with TableCache::NewCompactionIterator.
std::unique_ptr<InternalIterator> NewLevelIterator(TableCache* table_cache,
                                                   const ReadOptions& read_options,
                                                   const InternalKeyComparator* icmp,
                                                   const std::vector<FileMetaData*>& files,
                                                   int level, bool for_compaction = false);

// Index of the first file whose largest key is >= key (files.size() if
// none): binary search over a sorted, non-overlapping level.
size_t FindFile(const InternalKeyComparator& icmp, const std::vector<FileMetaData*>& files,
                const Slice& key);

}  // namespace strata
