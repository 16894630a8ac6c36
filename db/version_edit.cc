#include "db/version_edit.h"

#include <cinttypes>
#include <cstdio>

#include "memtable/dynamic_bloom.h"
#include "util/coding.h"

namespace strata {

PinnedTableSlot::~PinnedTableSlot() {
  Pin* p = pin_.load(std::memory_order_acquire);
  if (p != nullptr) {
    p->cache->Release(p->handle);
    delete p;
  }
}

bool PinnedTableSlot::Install(Cache* cache, Cache::Handle* handle, void* table) {
  auto* p = new Pin{cache, handle, table};
  Pin* expected = nullptr;
  if (pin_.compare_exchange_strong(expected, p, std::memory_order_acq_rel)) return true;
  delete p;
  return false;
}

LateKeyFilterSlot::~LateKeyFilterSlot() { delete filter_.load(std::memory_order_acquire); }

void LateKeyFilterSlot::Install(DynamicBloom* filter) {
  DynamicBloom* expected = nullptr;
  if (!filter_.compare_exchange_strong(expected, filter, std::memory_order_acq_rel)) delete filter;
}

RangeTombstoneSlot::~RangeTombstoneSlot() {
  FragmentedRangeTombstoneList* p = state_.load(std::memory_order_acquire);
  if (p != nullptr && p != None()) delete p;
}

const FragmentedRangeTombstoneList* RangeTombstoneSlot::Install(
    FragmentedRangeTombstoneList* list) {
  FragmentedRangeTombstoneList* desired = list != nullptr ? list : None();
  FragmentedRangeTombstoneList* expected = nullptr;
  if (!state_.compare_exchange_strong(expected, desired, std::memory_order_acq_rel)) {
    delete list;
    return expected == None() ? nullptr : expected;
  }
  return list;
}

namespace {

void PutVarint64Field(std::string* dst, uint32_t custom_tag, uint64_t v) {
  PutVarint32(dst, custom_tag);
  std::string field;
  PutVarint64(&field, v);
  PutLengthPrefixedSlice(dst, field);
}

void EncodeNewFile4(std::string* dst, int level, const FileMetaData& f,
                    const std::optional<uint64_t>& min_log_to_keep) {
  PutVarint32(dst, kNewFile4);
  PutVarint32(dst, static_cast<uint32_t>(level));
  PutVarint64(dst, f.number);
  PutVarint64(dst, f.file_size);
  PutLengthPrefixedSlice(dst, f.smallest);
  PutLengthPrefixedSlice(dst, f.largest);
  PutVarint64(dst, f.smallest_seqno);
  PutVarint64(dst, f.largest_seqno);
  PutVarint64Field(dst, kOldestAncesterTime, f.oldest_ancester_time);
  PutVarint64Field(dst, kFileCreationTime, f.file_creation_time);
  PutVarint32(dst, kFileChecksum);
  PutLengthPrefixedSlice(dst, f.file_checksum);
  PutVarint32(dst, kFileChecksumFuncName);
  PutLengthPrefixedSlice(dst, f.file_checksum_func_name);
  if (f.marked_for_compaction) {
    PutVarint32(dst, kNeedCompaction);
    PutLengthPrefixedSlice(dst, Slice("\x01", 1));
  }
  if (min_log_to_keep.has_value()) {
    PutVarint32(dst, kMinLogNumberToKeepHack);
    std::string v;
    PutFixed64(&v, *min_log_to_keep);
    PutLengthPrefixedSlice(dst, v);
  }
  if (f.oldest_blob_file_number != 0) {
    PutVarint64Field(dst, kOldestBlobFileNumber, f.oldest_blob_file_number);
  }
  if (f.temperature != 0) {
    PutVarint32(dst, kTemperature);
    const char t = static_cast<char>(f.temperature);
    PutLengthPrefixedSlice(dst, Slice(&t, 1));
  }
  if (f.path_id != 0) {
    PutVarint32(dst, kPathId);
    const char p = static_cast<char>(f.path_id);
    PutLengthPrefixedSlice(dst, Slice(&p, 1));
  }
  PutVarint32(dst, kTerminate);
}

// Reads the fixed part shared by kNewFile..kNewFile4 after the level.
bool GetFileNumberAndSize(Slice* in, FileMetaData* f, bool with_path_id) {
  if (!GetVarint64(in, &f->number)) return false;
  // A path id is written back as one byte (kNewFile4's kPathId field), as
  // RocksDB does: a larger one cannot be kept and is damage.
  if (with_path_id && (!GetVarint32(in, &f->path_id) || f->path_id > 0xff)) return false;
  if (!GetVarint64(in, &f->file_size)) return false;
  Slice smallest, largest;
  if (!GetLengthPrefixedSlice(in, &smallest) || !GetLengthPrefixedSlice(in, &largest)) {
    return false;
  }
  f->smallest = smallest.ToString();
  f->largest = largest.ToString();
  return true;
}

const char* DecodeNewFile4Custom(Slice* in, FileMetaData* f) {
  while (true) {
    uint32_t tag;
    if (!GetVarint32(in, &tag)) return "new-file4 custom tag";
    if (tag == kTerminate) return nullptr;
    Slice field;
    if (!GetLengthPrefixedSlice(in, &field)) return "new-file4 custom field";
    switch (tag) {
      case kNeedCompaction:
        if (field.size() != 1) return "need_compaction field wrong size";
        f->marked_for_compaction = field[0] == 1;
        break;
      case kMinLogNumberToKeepHack:
        if (field.size() != 8) return "min_log_number_to_keep field wrong size";
        break;
      case kOldestBlobFileNumber:
        if (!GetVarint64(&field, &f->oldest_blob_file_number)) {
          return "invalid oldest blob file number";
        }
        break;
      case kOldestAncesterTime:
        if (!GetVarint64(&field, &f->oldest_ancester_time)) {
          return "invalid oldest ancester time";
        }
        break;
      case kFileCreationTime:
        if (!GetVarint64(&field, &f->file_creation_time)) return "invalid file creation time";
        break;
      case kFileChecksum:
        f->file_checksum = field.ToString();
        break;
      case kFileChecksumFuncName:
        f->file_checksum_func_name = field.ToString();
        break;
      case kTemperature:
        if (field.size() != 1) return "temperature field wrong size";
        f->temperature = static_cast<uint8_t>(field[0]);
        break;
      case kUniqueId:
        if (field.size() != 16) return "invalid unique id";
        f->unique_id = field.ToString();
        break;
      case kPathId:
        if (field.size() != 1) return "path_id field wrong size";
        f->path_id = static_cast<uint8_t>(field[0]);
        break;
      case kMinTimestamp:
      case kMaxTimestamp:
        break;
      default:
        if ((tag & kCustomTagNonSafeIgnoreMask) != 0) {
          return "new-file4 custom field not supported";
        }
        break;  // safe to ignore
    }
  }
}

// Skips the custom fields of a blob file record, up to the 0 terminator.
bool SkipBlobCustomFields(Slice* in) {
  while (true) {
    uint32_t tag;
    if (!GetVarint32(in, &tag)) return false;
    if (tag == 0) return true;
    Slice field;
    if (!GetLengthPrefixedSlice(in, &field)) return false;
  }
}

bool SkipBlobFileAddition(Slice* in) {
  uint64_t v;
  Slice s;
  return GetVarint64(in, &v) && GetVarint64(in, &v) && GetVarint64(in, &v) &&
         GetLengthPrefixedSlice(in, &s) && GetLengthPrefixedSlice(in, &s) &&
         SkipBlobCustomFields(in);
}

bool SkipBlobFileGarbage(Slice* in) {
  uint64_t v;
  return GetVarint64(in, &v) && GetVarint64(in, &v) && GetVarint64(in, &v) &&
         SkipBlobCustomFields(in);
}

bool SkipWalAddition(Slice* in) {
  uint64_t number;
  if (!GetVarint64(in, &number)) return false;
  while (true) {
    uint32_t tag;
    if (!GetVarint32(in, &tag)) return false;
    if (tag == 1) return true;  // terminate
    if (tag == 2) {             // synced size
      uint64_t size;
      if (!GetVarint64(in, &size)) return false;
    } else {
      return false;
    }
  }
}

}  // namespace

void VersionEdit::EncodeTo(std::string* dst) const {
  if (db_id_) {
    PutVarint32(dst, kDbId);
    PutLengthPrefixedSlice(dst, *db_id_);
  }
  if (comparator_) {
    PutVarint32(dst, kComparator);
    PutLengthPrefixedSlice(dst, *comparator_);
  }
  if (log_number_) {
    PutVarint32(dst, kLogNumber);
    PutVarint64(dst, *log_number_);
  }
  if (prev_log_number_) {
    PutVarint32(dst, kPrevLogNumber);
    PutVarint64(dst, *prev_log_number_);
  }
  if (next_file_number_) {
    PutVarint32(dst, kNextFileNumber);
    PutVarint64(dst, *next_file_number_);
  }
  if (max_column_family_) {
    PutVarint32(dst, kMaxColumnFamily);
    PutVarint32(dst, *max_column_family_);
  }
  if (min_log_number_to_keep_) {
    PutVarint32(dst, kMinLogNumberToKeep);
    PutVarint64(dst, *min_log_number_to_keep_);
  }
  if (last_sequence_) {
    PutVarint32(dst, kLastSequence);
    PutVarint64(dst, *last_sequence_);
  }
  for (const auto& [level, number] : deleted_files_) {
    PutVarint32(dst, kDeletedFile);
    PutVarint32(dst, static_cast<uint32_t>(level));
    PutVarint64(dst, number);
  }
  bool first_file = true;
  for (const auto& [level, f] : new_files_) {
    // RocksDB repeats min_log_number_to_keep in the first new file of an edit.
    EncodeNewFile4(dst, level, f, first_file ? min_log_number_to_keep_ : std::optional<uint64_t>());
    first_file = false;
  }
  if (column_family_ != 0) {
    PutVarint32(dst, kColumnFamily);
    PutVarint32(dst, column_family_);
  }
  if (column_family_add_) {
    PutVarint32(dst, kColumnFamilyAdd);
    PutLengthPrefixedSlice(dst, *column_family_add_);
  }
  if (column_family_drop_) PutVarint32(dst, kColumnFamilyDrop);
  if (atomic_group_) {
    PutVarint32(dst, kInAtomicGroup);
    PutVarint32(dst, *atomic_group_);
  }
}

Status VersionEdit::DecodeFrom(const Slice& src) {
  Clear();
  Slice in = src;
  const char* msg = nullptr;
  uint32_t tag = 0;
  while (msg == nullptr && !in.empty()) {
    const size_t tag_offset = src.size() - in.size();
    if (!GetVarint32(&in, &tag)) {
      return Status::Corruption("VersionEdit",
                                "invalid tag at offset " + std::to_string(tag_offset));
    }
    uint64_t u64;
    uint32_t u32;
    Slice str;
    switch (tag) {
      case kComparator:
        if (GetLengthPrefixedSlice(&in, &str)) {
          comparator_ = str.ToString();
        } else {
          msg = "comparator name";
        }
        break;
      case kLogNumber:
        if (GetVarint64(&in, &u64)) {
          log_number_ = u64;
        } else {
          msg = "log number";
        }
        break;
      case kPrevLogNumber:
        if (GetVarint64(&in, &u64)) {
          prev_log_number_ = u64;
        } else {
          msg = "previous log number";
        }
        break;
      case kNextFileNumber:
        if (GetVarint64(&in, &u64)) {
          next_file_number_ = u64;
        } else {
          msg = "next file number";
        }
        break;
      case kLastSequence:
        if (GetVarint64(&in, &u64)) {
          last_sequence_ = u64;
        } else {
          msg = "last sequence number";
        }
        break;
      case kMinLogNumberToKeep:
        if (GetVarint64(&in, &u64)) {
          min_log_number_to_keep_ = u64;
        } else {
          msg = "min log number to keep";
        }
        break;
      case kMaxColumnFamily:
        if (GetVarint32(&in, &u32)) {
          max_column_family_ = u32;
        } else {
          msg = "max column family";
        }
        break;
      case kCompactCursor:
        if (!GetVarint32(&in, &u32) || !GetLengthPrefixedSlice(&in, &str)) {
          msg = "compaction cursor";
        }
        break;
      case kDeletedFile:
        if (GetVarint32(&in, &u32) && GetVarint64(&in, &u64)) {
          deleted_files_.emplace_back(static_cast<int>(u32), u64);
        } else {
          msg = "deleted file";
        }
        break;
      case kNewFile:
      case kNewFile2:
      case kNewFile3:
      case kNewFile4: {
        FileMetaData f;
        if (!GetVarint32(&in, &u32) || !GetFileNumberAndSize(&in, &f, tag == kNewFile3)) {
          msg = "new-file entry";
          break;
        }
        if (tag != kNewFile) {
          if (!GetVarint64(&in, &f.smallest_seqno) || !GetVarint64(&in, &f.largest_seqno)) {
            msg = "new-file entry sequence numbers";
            break;
          }
        }
        if (tag == kNewFile4) {
          msg = DecodeNewFile4Custom(&in, &f);
          if (msg != nullptr) break;
        }
        // Old formats may keep the path id in the top bits of the number.
        f.number &= 0x3FFFFFFFFFFFFFFFull;
        new_files_.emplace_back(static_cast<int>(u32), std::move(f));
        break;
      }
      case kColumnFamily:
        if (GetVarint32(&in, &u32)) {
          column_family_ = u32;
        } else {
          msg = "set column family id";
        }
        break;
      case kColumnFamilyAdd:
        if (GetLengthPrefixedSlice(&in, &str)) {
          column_family_add_ = str.ToString();
        } else {
          msg = "column family add";
        }
        break;
      case kColumnFamilyDrop:
        column_family_drop_ = true;
        break;
      case kInAtomicGroup:
        if (GetVarint32(&in, &u32)) {
          atomic_group_ = u32;
        } else {
          msg = "atomic group";
        }
        break;
      case kBlobFileAddition:
      case kBlobFileAdditionDeprecated:
        if (!SkipBlobFileAddition(&in)) msg = "blob file addition";
        break;
      case kBlobFileGarbage:
      case kBlobFileGarbageDeprecated:
        if (!SkipBlobFileGarbage(&in)) msg = "blob file garbage";
        break;
      case kWalAddition:
        if (!SkipWalAddition(&in)) msg = "wal addition";
        break;
      case kWalDeletion:
        if (!GetVarint64(&in, &u64)) msg = "wal deletion";
        break;
      case kDbId:
        if (GetLengthPrefixedSlice(&in, &str)) {
          db_id_ = str.ToString();
        } else {
          msg = "db id";
        }
        break;
      default:
        if ((tag & kTagSafeIgnoreMask) != 0) {
          // Full-history timestamp, WAL additions/deletions (v2) and any
          // future safe-to-ignore tag: one length-prefixed field.
          if (!GetLengthPrefixedSlice(&in, &str)) msg = "safe-to-ignore field";
        } else {
          return Status::Corruption("VersionEdit", "unknown tag " + std::to_string(tag) +
                                                       " at offset " + std::to_string(tag_offset));
        }
        break;
    }
  }
  if (msg != nullptr) {
    return Status::Corruption("VersionEdit", std::string(msg) + " (tag " + std::to_string(tag) +
                                                 ") near offset " +
                                                 std::to_string(src.size() - in.size()));
  }
  return Status::OK();
}

std::string VersionEdit::DebugString() const {
  std::string r = "VersionEdit {";
  char buf[128];
  if (db_id_) r += "\n  DbId: " + *db_id_;
  if (comparator_) r += "\n  Comparator: " + *comparator_;
  if (log_number_) {
    snprintf(buf, sizeof(buf), "\n  LogNumber: %" PRIu64, *log_number_);
    r += buf;
  }
  if (prev_log_number_) {
    snprintf(buf, sizeof(buf), "\n  PrevLogNumber: %" PRIu64, *prev_log_number_);
    r += buf;
  }
  if (next_file_number_) {
    snprintf(buf, sizeof(buf), "\n  NextFileNumber: %" PRIu64, *next_file_number_);
    r += buf;
  }
  if (last_sequence_) {
    snprintf(buf, sizeof(buf), "\n  LastSeq: %" PRIu64, *last_sequence_);
    r += buf;
  }
  for (const auto& [level, number] : deleted_files_) {
    snprintf(buf, sizeof(buf), "\n  DeleteFile: %d %" PRIu64, level, number);
    r += buf;
  }
  for (const auto& [level, f] : new_files_) {
    snprintf(buf, sizeof(buf), "\n  AddFile: %d %" PRIu64 " %" PRIu64 " seq %" PRIu64 "..%" PRIu64,
             level, f.number, f.file_size, f.smallest_seqno, f.largest_seqno);
    r += buf;
  }
  snprintf(buf, sizeof(buf), "\n  ColumnFamily: %u", column_family_);
  r += buf;
  if (column_family_add_) r += "\n  ColumnFamilyAdd: " + *column_family_add_;
  if (column_family_drop_) r += "\n  ColumnFamilyDrop";
  r += "\n}\n";
  return r;
}

}  // namespace strata
