// File ages and the time-based options in force (see the header).
#include "db/compaction/file_age.h"

#include <algorithm>
#include <memory>

#include "table/block_based_table_reader.h"

namespace strata {

namespace {

// The pinned reader's properties, or null (never opens the file).
std::shared_ptr<const TableProperties> PinnedProperties(const FileMetaData& f) {
  const void* table = f.pinned_table.table();
  if (table == nullptr) return nullptr;
  return static_cast<const BlockBasedTable*>(table)->GetTableProperties();
}

constexpr uint64_t kThirtyDays = 30 * 24 * 60 * 60;

}  // namespace

uint64_t FileOldestAncesterTime(const FileMetaData& f) {
  if (f.oldest_ancester_time != 0) return f.oldest_ancester_time;
  std::shared_ptr<const TableProperties> p = PinnedProperties(f);
  return p != nullptr ? p->creation_time : 0;
}

uint64_t FileCreationTime(const FileMetaData& f) {
  if (f.file_creation_time != 0) return f.file_creation_time;
  std::shared_ptr<const TableProperties> p = PinnedProperties(f);
  return p != nullptr ? p->file_creation_time : 0;
}

uint64_t FifoFileTime(const FileMetaData& f) {
  std::shared_ptr<const TableProperties> p = PinnedProperties(f);
  if (p != nullptr && p->creation_time != 0) return p->creation_time;
  if (f.file_creation_time != 0) return f.file_creation_time;
  return f.oldest_ancester_time;
}

uint64_t MinOldestAncesterTime(const std::vector<const FileMetaData*>& files,
                               const Comparator* ucmp, const Slice* smallest,
                               const Slice* largest) {
  uint64_t result = kUnknownFileTime;
  for (const FileMetaData* f : files) {
    if (smallest != nullptr && ucmp->Compare(ExtractUserKey(f->largest), *smallest) < 0) continue;
    if (largest != nullptr && ucmp->Compare(ExtractUserKey(f->smallest), *largest) > 0) continue;
    const uint64_t t = FileOldestAncesterTime(*f);
    if (t != 0) result = std::min(result, t);
  }
  return result;
}

// RocksDB's rules (every table here is block-based): leveled and universal
// default to 30 days; FIFO's ttl, when 0 after that, becomes
// periodic_compaction_seconds (30 days by default), else the smaller of
// the two.
uint64_t EffectiveTtl(const ColumnFamilyOptions& o) {
  uint64_t ttl = o.ttl;
  if (ttl == ColumnFamilyOptions::kDefaultTtl) {
    ttl = o.compaction_style == kCompactionStyleFIFO ? 0 : kThirtyDays;
  }
  if (o.compaction_style == kCompactionStyleFIFO) {
    const uint64_t periodic = o.periodic_compaction_seconds;
    if (ttl == 0) {
      ttl = periodic == ColumnFamilyOptions::kDefaultTtl ? kThirtyDays : periodic;
    } else if (periodic != 0) {
      ttl = std::min(ttl, periodic);
    }
  }
  return ttl;
}

// Leveled and universal: the default is 30 days with a compaction filter,
// else off; universal's ttl also bounds it. FIFO: RocksDB sets a value that
// FIFO never reads (its ttl covers it).
uint64_t EffectivePeriodicCompactionSeconds(const ColumnFamilyOptions& o) {
  uint64_t periodic = o.periodic_compaction_seconds;
  if (o.compaction_style == kCompactionStyleFIFO) {
    if (periodic == ColumnFamilyOptions::kDefaultTtl) {
      uint64_t ttl = o.ttl == ColumnFamilyOptions::kDefaultTtl ? 0 : o.ttl;
      periodic = ttl == 0 ? kThirtyDays : 0;
    }
    return periodic;
  }
  if (periodic == ColumnFamilyOptions::kDefaultTtl &&
      (o.compaction_filter != nullptr || o.compaction_filter_factory != nullptr)) {
    periodic = kThirtyDays;
  }
  if (o.compaction_style == kCompactionStyleUniversal) {
    const uint64_t ttl = EffectiveTtl(o);
    if (ttl != 0) {
      periodic = (periodic != 0 && periodic != ColumnFamilyOptions::kDefaultTtl)
                     ? std::min(ttl, periodic)
                     : ttl;
    }
  }
  if (periodic == ColumnFamilyOptions::kDefaultTtl) periodic = 0;
  return periodic;
}

}  // namespace strata
