// File ages: how old a table file's data is and when the file was written,
// as RocksDB 7.8.3 reads them for time-based compaction (FIFO's ttl,
// leveled ttl and periodic compaction, universal's periodic compaction),
// and the ttl / periodic_compaction_seconds actually in force for a family.
//
// A file carries two MANIFEST times (unix seconds, 0 = unknown):
// oldest_ancester_time, the time its oldest data was written (a flush: the
// memtable's first write; a compaction output: the minimum over the inputs
// overlapping it), and file_creation_time, when the file itself was
// written. Its table properties carry creation_time (oldest_ancester_time,
// except a FIFO flush: the file's creation time), oldest_key_time and
// file_creation_time. Files of old RocksDB releases may lack the MANIFEST
// times; the accessors then fall back to the table properties of the
// file's pinned reader, if it has one (never opening a file: these run
// under the DB mutex).
//
// Thread-safety: stateless functions; the FileMetaData must be kept alive
// by the caller (a referenced Version).
#pragma once

#include <cstdint>
#include <vector>

#include "db/version_edit.h"
#include "strata/comparator.h"
#include "strata/options.h"
#include "strata/slice.h"

namespace strata {

// "Unknown" for the minimum functions below.
constexpr uint64_t kUnknownFileTime = ~uint64_t{0};

// The time of the file's oldest data: oldest_ancester_time, else the table
// property creation_time of a pinned reader, else 0 (RocksDB's
// TryGetOldestAncesterTime).
uint64_t FileOldestAncesterTime(const FileMetaData& f);

// When the file was written: file_creation_time, else the table property
// file_creation_time of a pinned reader, else 0 (TryGetFileCreationTime).
uint64_t FileCreationTime(const FileMetaData& f);

// The time FIFO's ttl counts from: the table property creation_time (what
// RocksDB reads) when the reader is pinned; else file_creation_time (equal
// to it for a flushed file and never earlier for a compacted one, so a
// file is never dropped sooner than RocksDB would), else
// oldest_ancester_time. 0 = unknown.
uint64_t FifoFileTime(const FileMetaData& f);

// The minimum FileOldestAncesterTime over files overlapping the user-key
// range [*smallest, *largest] (null = unbounded); kUnknownFileTime when no
// overlapping file has a known time.
uint64_t MinOldestAncesterTime(const std::vector<const FileMetaData*>& files,
                               const Comparator* ucmp, const Slice* smallest, const Slice* largest);

// ttl and periodic_compaction_seconds after RocksDB's sanitizing
// (SanitizeOptions in RocksDB's column_family.cc) of the kDefaultTtl
// placeholders: the same values when the family's options were sanitized
// already, so any caller may use them. 0 disables.
uint64_t EffectiveTtl(const ColumnFamilyOptions& o);
uint64_t EffectivePeriodicCompactionSeconds(const ColumnFamilyOptions& o);

}  // namespace strata
