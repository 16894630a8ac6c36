// VersionBuilder: a base Version plus VersionEdits applied in order gives
// the file lists of the next Version. VersionSet uses it for LogAndApply and
// recovery; a secondary instance (db/manifest_tailer.h) for the edits it
// tails from the primary's MANIFEST.
//
// Thread-safety: not thread-safe; the base Version must stay referenced
// while the builder lives.
// Invariants:
//  1. Files added by the edits and not deleted again are owned by the
//     builder (refs == 0) until SaveTo hands them to a Version.
//  2. SaveTo leaves level 0 newest first and every level >= 1 sorted by
//     smallest key and disjoint (or fails with Corruption).
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/dbformat.h"
#include "db/version_edit.h"
#include "db/version_set.h"

namespace strata {

// Level 0: newest data first. Flushes give disjoint sequence ranges, so the
// largest sequence orders them; the file number breaks ties.
inline bool NewestFirst(const FileMetaData* a, const FileMetaData* b) {
  if (a->largest_seqno != b->largest_seqno) return a->largest_seqno > b->largest_seqno;
  if (a->smallest_seqno != b->smallest_seqno) return a->smallest_seqno > b->smallest_seqno;
  return a->number > b->number;
}

class VersionBuilder {
 public:
  // metadata_charge (borrowed, may be null): the family's kFileMetadata
  // charge (ColumnFamilyData::file_metadata_charge); each file the edits
  // add is charged to it for its lifetime.
  VersionBuilder(const InternalKeyComparator& icmp, Version* base, int num_levels,
                 ConcurrentCacheReservationManager* metadata_charge = nullptr)
      : icmp_(icmp), base_(base), num_levels_(num_levels), metadata_charge_(metadata_charge) {}

  ~VersionBuilder() {
    for (auto& level : added_) {
      for (auto& [number, f] : level) {
        if (f->refs == 0) delete f;
      }
    }
  }

  Status Apply(const VersionEdit& edit) {
    for (const auto& [level, number] : edit.deleted_files()) {
      if (level < 0 || level >= num_levels_) {
        return Status::Corruption("deleted file " + std::to_string(number) + " at level " +
                                  std::to_string(level) + " beyond num_levels");
      }
      auto it = added_[level].find(number);
      if (it != added_[level].end()) {
        if (it->second->refs == 0) delete it->second;
        added_[level].erase(it);
      } else {
        deleted_[level].insert(number);
      }
    }
    for (const auto& [level, meta] : edit.new_files()) {
      if (level < 0 || level >= num_levels_) {
        return Status::Corruption("new file " + std::to_string(meta.number) + " at level " +
                                  std::to_string(level) + " beyond num_levels " +
                                  std::to_string(num_levels_));
      }
      auto* f = new FileMetaData(meta);
      f->refs = 0;
      f->being_compacted = false;
      // Key filters are for level 0 only (bounded memory; see Options).
      if (level > 0) f->key_filter.reset();
      if (metadata_charge_ != nullptr &&
          !metadata_charge_
               ->MakeCacheReservation(f->ApproximateMemoryUsage(), &f->metadata_charge.handle)
               .ok()) {
        // RocksDB's error (a strict cache without room for the charge).
        delete f;
        return Status::MemoryLimit(
            "Can't allocate FileMetadata due to exceeding the memory limit based on cache "
            "capacity");
      }
      deleted_[level].erase(f->number);
      auto [it, inserted] = added_[level].emplace(f->number, f);
      if (!inserted) {
        if (it->second->refs == 0) delete it->second;
        it->second = f;
      }
    }
    return Status::OK();
  }

  // Fills v's levels; Corruption if a level >= 1 overlaps itself.
  Status SaveTo(Version* v) {
    for (int level = 0; level < num_levels_; ++level) {
      std::vector<FileMetaData*>& out = v->files_[level];
      if (base_ != nullptr && level < base_->num_levels()) {
        for (FileMetaData* f : base_->files(level)) {
          if (deleted_[level].count(f->number) == 0 && added_[level].count(f->number) == 0) {
            out.push_back(f);
          }
        }
      }
      for (auto& [number, f] : added_[level]) out.push_back(f);
      if (level == 0) {
        std::sort(out.begin(), out.end(), NewestFirst);
      } else {
        std::sort(out.begin(), out.end(), [this](const FileMetaData* a, const FileMetaData* b) {
          const int c = icmp_.Compare(a->smallest, b->smallest);
          return c != 0 ? c < 0 : a->number < b->number;
        });
        for (size_t i = 1; i < out.size(); ++i) {
          if (icmp_.Compare(out[i - 1]->largest, out[i]->smallest) >= 0) {
            const uint64_t a = out[i - 1]->number, b = out[i]->number;
            // v is discarded: it must not list files the builder still owns.
            for (int l = 0; l < num_levels_; ++l) v->files_[l].clear();
            return Status::Corruption("files " + std::to_string(a) + " and " + std::to_string(b) +
                                      " overlap in level " + std::to_string(level));
          }
        }
      }
    }
    // Every added file now belongs to v (or was dropped and deleted above).
    for (auto& level : added_) level.clear();
    return Status::OK();
  }

 private:
  const InternalKeyComparator& icmp_;
  Version* base_;
  const int num_levels_;
  ConcurrentCacheReservationManager* const metadata_charge_;
  std::set<uint64_t> deleted_[kMaxLevels];
  std::map<uint64_t, FileMetaData*> added_[kMaxLevels];
};

}  // namespace strata
