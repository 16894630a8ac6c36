// Universal (tiered) compaction's options, with RocksDB's names, meanings
// and defaults (docs/design/universal-compaction.md).
//
// Under kCompactionStyleUniversal the LSM is a list of sorted runs, newest
// first: every level-0 file is one run, and every non-empty level >= 1 is
// one. A compaction merges a stretch of adjacent runs into one run. Runs
// are picked by three triggers, tried in this order when at least
// level0_file_num_compaction_trigger runs exist: space amplification (the
// runs other than the oldest, against the oldest), size ratio (a run and
// the next older ones while each is not much larger than what is taken so
// far) and run count (merging the newest runs to get back under the
// trigger).
// Thread-safety: plain data; copy freely.
#pragma once

#include <climits>
#include <cstdint>

namespace strata {

// How the size-ratio trigger decides whether to take one more run.
enum CompactionStopStyle {
  // The next run is taken while it is no more than size_ratio% larger than
  // the last one taken (runs of similar size).
  kCompactionStopStyleSimilarSize,
  // The next run is taken while it is no more than size_ratio% larger than
  // all the runs taken so far together.
  kCompactionStopStyleTotalSize
};

struct CompactionOptionsUniversal {
  // RocksDB's defaults (the values below).
  CompactionOptionsUniversal() {}

  // Percent of slack when comparing run sizes (see stop_style).
  unsigned int size_ratio = 1;
  // Fewest runs one size-ratio compaction merges.
  unsigned int min_merge_width = 2;
  // Most runs one size-ratio or run-count compaction merges.
  unsigned int max_merge_width = UINT_MAX;
  // When the bytes of every run but the oldest exceed this percent of the
  // oldest run's bytes, all runs are merged into one (or, with
  // incremental, only as much as brings the amplification back down).
  unsigned int max_size_amplification_percent = 200;
  // -1: every output is compressed by the family's compression. Otherwise
  // an output is compressed only if the runs older than it hold less than
  // this percent of the data, so only the oldest data is compressed.
  int compression_size_percent = -1;
  CompactionStopStyle stop_style = kCompactionStopStyleTotalSize;
  // Runs whose key ranges do not overlap may be merged by moving the files
  // instead of rewriting them.
  bool allow_trivial_move = false;
  // Size-amplification compactions merge only part of the key space
  // (a stretch of the oldest run's files with what overlaps them) instead
  // of the whole database.
  bool incremental = false;
};

}  // namespace strata
