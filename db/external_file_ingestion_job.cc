// ExternalFileIngestionJob (db/external_file_ingestion_job.h): the steps of
// one family's ingestion. Error messages are RocksDB 7.8.3's, followed by
// the file they concern.
#include "db/external_file_ingestion_job.h"

#include <algorithm>
#include <cassert>
#include <memory>

#include "base/range_tombstone.h"
#include "db/column_family.h"
#include "db/file_checksum_helper.h"
#include "db/filename.h"
#include "db/super_version.h"
#include "db/version_set.h"
#include "memtable/memtable.h"
#include "table/block_based_table_reader.h"
#include "table/meta_blocks.h"
#include "util/coding.h"

namespace strata {

namespace {

// RocksDB's SstFileWriter without a column family records this id.
constexpr uint64_t kUnknownColumnFamily = 0x7fffffff;

// Compares table bounds by user key; at equal user keys a range-deletion
// sentinel (an exclusive end) sorts first, as RocksDB's sstableKeyCompare.
int BoundCompare(const Comparator* ucmp, const Slice& a, const Slice& b) {
  const int c = ucmp->Compare(ExtractUserKey(a), ExtractUserKey(b));
  if (c != 0) return c;
  const bool as = IsRangeDelSentinel(a), bs = IsRangeDelSentinel(b);
  if (as && !bs) return -1;
  if (!as && bs) return 1;
  return 0;
}

// Whether an entry or tombstone of `it` / `tombstones` has a user key in
// [smallest, largest].
bool IteratorOverlaps(const Comparator* ucmp, InternalIterator* it, const Slice& smallest,
                      const Slice& largest) {
  std::string seek;
  AppendInternalKey(&seek, smallest, kMaxSequenceNumber, kValueTypeForSeek);
  it->Seek(seek);
  return it->Valid() && ucmp->Compare(ExtractUserKey(it->key()), largest) <= 0;
}

bool TombstonesOverlap(const FragmentedRangeTombstoneList* list, const Slice& smallest,
                       const Slice& largest) {
  if (list == nullptr || list->empty()) return false;
  const size_t i = list->LowerBound(smallest);  // first fragment ending after smallest
  if (i >= list->fragments().size()) return false;
  return list->user_comparator()->Compare(list->fragments()[i].start, largest) <= 0;
}

// Sets the sequence of an internal key stored at sequence 0 (a tombstone's
// sentinel end bound keeps its own).
void SetSequence(std::string* ikey, SequenceNumber seq) {
  if (ikey->size() < kInternalKeyTrailerSize) return;
  const uint64_t packed = ExtractInternalKeyFooter(*ikey);
  if ((packed >> 8) != 0) return;
  EncodeFixed64(ikey->data() + ikey->size() - kInternalKeyTrailerSize,
                (seq << 8) | (packed & 0xff));
}

}  // namespace

ExternalFileIngestionJob::ExternalFileIngestionJob(const std::string& dbname,
                                                   const Options& db_options, FileSystem* fs,
                                                   Directory* db_dir, ColumnFamilyData* cfd,
                                                   const IngestExternalFileOptions& options,
                                                   std::vector<std::string> files)
    : dbname_(dbname),
      db_options_(db_options),
      fs_(fs),
      db_dir_(db_dir),
      cfd_(cfd),
      options_(options),
      paths_(std::move(files)) {}

Status ExternalFileIngestionJob::ReadFileInfo(const std::string& path,
                                              IngestedFileInfo* info) const {
  info->external_path = path;
  Status s = fs_->GetFileSize(path, &info->file_size);
  if (!s.ok()) return s;
  std::unique_ptr<RandomAccessFile> file;
  FileOptions fopts;
  s = fs_->NewRandomAccessFile(path, fopts, &file);
  if (!s.ok()) return s;
  TableReaderOptions tro;
  tro.table_options = cfd_->table_options();
  tro.table_options.block_cache = nullptr;
  tro.table_options.no_block_cache = true;
  tro.table_options.cache_index_and_filter_blocks = false;
  tro.user_comparator = cfd_->user_comparator();
  tro.file_name = path;
  tro.skip_filters = true;
  std::unique_ptr<BlockBasedTable> table;
  s = BlockBasedTable::Open(tro, std::move(file), info->file_size, &table);
  if (!s.ok()) return s;
  if (options_.verify_checksums_before_ingest) {
    s = table->VerifyChecksum();
    if (!s.ok()) return s;
  }
  const std::shared_ptr<const TableProperties> props = table->GetTableProperties();
  info->properties = *props;
  const auto& user = props->user_collected_properties;
  const auto version_it = user.find(TablePropertiesNames::kExternalSstFileVersion);
  if (version_it == user.end() || version_it->second.size() != 4) {
    return Status::Corruption("External file version not found", path);
  }
  info->version = DecodeFixed32(version_it->second.data());
  if (info->version == 2) {
    if (user.find(TablePropertiesNames::kExternalSstFileGlobalSeqno) == user.end()) {
      return Status::Corruption("External file global sequence number not found", path);
    }
    info->global_seqno_offset = table->global_seqno_offset();
    if (info->global_seqno_offset == 0) {
      return Status::Corruption("Was not able to find file global seqno field", path);
    }
    if (table->global_seqno() != 0) {
      return Status::Corruption("External file has non zero sequence number", path);
    }
  } else if (info->version == 1) {
    // Version 1 files cannot take a global sequence number (RocksDB's rule).
    if (options_.allow_blocking_flush || options_.allow_global_seqno) {
      return Status::InvalidArgument("External SST file V1 does not support global seqno", path);
    }
  } else {
    return Status::InvalidArgument("External file version is not supported", path);
  }
  if (props->column_family_id != kUnknownColumnFamily && props->column_family_id != cfd_->id()) {
    return Status::InvalidArgument("External file column family id don't match", path);
  }

  ReadOptions ro;
  ro.fill_cache = false;
  ro.verify_checksums = true;
  bool bounds_set = false;
  const Comparator* ucmp = cfd_->user_comparator();
  {
    std::unique_ptr<InternalIterator> it = table->NewIterator(ro);
    it->SeekToFirst();
    if (it->Valid()) {
      ParsedInternalKey parsed;
      s = ParseInternalKey(it->key(), &parsed);
      if (!s.ok())
        return Status::Corruption("Corrupted key in external file. " + path, s.ToString());
      if (parsed.sequence != 0) {
        return Status::Corruption("External file has non zero sequence number", path);
      }
      info->smallest.assign(it->key().data(), it->key().size());
      it->SeekToLast();
      if (!it->Valid()) {
        return Status::Corruption("Corrupted key in external file. " + path,
                                  it->status().ToString());
      }
      s = ParseInternalKey(it->key(), &parsed);
      if (!s.ok())
        return Status::Corruption("Corrupted key in external file. " + path, s.ToString());
      if (parsed.sequence != 0) {
        return Status::Corruption("External file has non zero sequence number", path);
      }
      info->largest.assign(it->key().data(), it->key().size());
      bounds_set = true;
    }
    if (!it->status().ok()) return it->status();
  }
  std::unique_ptr<InternalIterator> range_del = table->NewRangeTombstoneIterator(ro);
  if (range_del != nullptr) {
    for (range_del->SeekToFirst(); range_del->Valid(); range_del->Next()) {
      ParsedInternalKey parsed;
      s = ParseInternalKey(range_del->key(), &parsed);
      if (!s.ok() || parsed.type != kTypeRangeDeletion) {
        return Status::Corruption("Corrupted key in external file. " + path,
                                  s.ok() ? "not a range deletion" : s.ToString());
      }
      if (parsed.sequence != 0) {
        return Status::Corruption("External file has non zero sequence number", path);
      }
      std::string start;
      AppendInternalKey(&start, parsed.user_key, 0, kTypeRangeDeletion);
      std::string end;
      AppendInternalKey(&end, range_del->value(), kMaxSequenceNumber, kTypeRangeDeletion);
      if (!bounds_set || BoundCompare(ucmp, start, info->smallest) < 0) info->smallest = start;
      if (!bounds_set || BoundCompare(ucmp, end, info->largest) > 0) info->largest = end;
      bounds_set = true;
    }
    if (!range_del->status().ok()) return range_del->status();
  }
  if (!bounds_set) return Status::InvalidArgument("File contain no entries", path);
  return Status::OK();
}

Status ExternalFileIngestionJob::CopyFile(const std::string& src, const std::string& dst) const {
  std::unique_ptr<SequentialFile> in;
  FileOptions fopts;
  Status s = fs_->NewSequentialFile(src, fopts, &in);
  if (!s.ok()) return s;
  std::unique_ptr<WritableFile> out;
  s = fs_->NewWritableFile(dst, fopts, &out);
  if (!s.ok()) return s;
  std::string buf(1 << 20, '\0');
  for (;;) {
    Slice chunk;
    s = in->Read(buf.size(), &chunk, buf.data());
    if (!s.ok() || chunk.empty()) break;
    s = out->Append(chunk);
    if (!s.ok()) break;
  }
  if (s.ok()) s = db_options_.use_fsync ? out->Fsync() : out->Sync();
  Status c = out->Close();
  if (s.ok()) s = c;
  c.PermitUncheckedError();
  return s;
}

Status ExternalFileIngestionJob::AddFileToDb(IngestedFileInfo* info) {
  // Ingested tables go to the family's first table path (RocksDB's).
  const std::string target = TableFileName(cfd_->options().cf_paths, info->number, 0);
  Status s;
  bool copy = true;
  if (options_.move_files) {
    s = fs_->LinkFile(info->external_path, target);
    if (s.ok()) {
      copy = false;
      info->linked = true;
      info->internal_path = target;
      // The caller may not have synced the file: sync it through the link.
      std::unique_ptr<RandomRWFile> rw;
      FileOptions fopts;
      Status ss = fs_->NewRandomRWFile(target, fopts, &rw);
      if (ss.ok()) {
        ss = db_options_.use_fsync ? rw->Fsync() : rw->Sync();
        Status c = rw->Close();
        if (ss.ok()) ss = c;
        c.PermitUncheckedError();
        if (!ss.ok()) return ss;
      } else if (!ss.IsNotSupported()) {
        return ss;
      }
    } else if (s.IsNotSupported() && options_.failed_move_fall_back_to_copy) {
      Log(InfoLogLevel::kInfo, db_options_.info_log.get(),
          "Try to link file %s but it's not supported : %s", info->external_path.c_str(),
          s.ToString().c_str());
      s = Status::OK();
    } else {
      return s;
    }
  }
  if (copy) {
    // Listed before the copy starts: a failed copy leaves a partial file
    // that Cleanup removes.
    info->internal_path = target;
    s = CopyFile(info->external_path, target);
  }
  return s;
}

Status ExternalFileIngestionJob::Prepare(const std::vector<uint64_t>& numbers) {
  assert(numbers.size() == paths_.size());
  files_.clear();
  for (size_t i = 0; i < paths_.size(); ++i) {
    IngestedFileInfo info;
    Status s = ReadFileInfo(paths_[i], &info);
    if (!s.ok()) return s;
    info.number = numbers[i];
    files_.push_back(std::move(info));
  }
  if (files_.empty()) return Status::InvalidArgument("The list of files is empty");
  const Comparator* ucmp = cfd_->user_comparator();
  if (files_.size() > 1) {
    std::vector<const IngestedFileInfo*> sorted;
    for (const IngestedFileInfo& f : files_) sorted.push_back(&f);
    std::sort(sorted.begin(), sorted.end(),
              [ucmp](const IngestedFileInfo* a, const IngestedFileInfo* b) {
                return BoundCompare(ucmp, a->smallest, b->smallest) < 0;
              });
    for (size_t i = 0; i + 1 < sorted.size(); ++i) {
      if (BoundCompare(ucmp, sorted[i]->largest, sorted[i + 1]->smallest) >= 0) {
        files_overlap_ = true;
        break;
      }
    }
  }
  if (options_.ingest_behind && files_overlap_) {
    return Status::NotSupported("Files have overlapping ranges");
  }
  for (IngestedFileInfo& f : files_) {
    Status s = AddFileToDb(&f);
    if (!s.ok()) return s;
  }
  const std::string& dir = cfd_->options().cf_paths[0].path;
  if (!SameDirectory(dir, dbname_)) {
    std::unique_ptr<Directory> d;
    Status s = fs_->NewDirectory(dir, &d);
    if (s.ok()) s = d->Fsync();
    return s;
  }
  if (db_dir_ != nullptr) return db_dir_->Fsync();
  return Status::OK();
}

Status ExternalFileIngestionJob::NeedsFlush(SuperVersion* sv, bool* needed) const {
  *needed = false;
  const Comparator* ucmp = cfd_->user_comparator();
  std::vector<MemTable*> mems;
  mems.push_back(sv->mem);
  for (MemTable* m : sv->imm) mems.push_back(m);
  for (MemTable* m : mems) {
    if (m->num_entries() == 0 && m->num_range_deletes() == 0) continue;
    std::unique_ptr<InternalIterator> it = m->NewIterator();
    const std::shared_ptr<const FragmentedRangeTombstoneList> tombstones = m->GetRangeTombstones();
    for (const IngestedFileInfo& f : files_) {
      const Slice lo = ExtractUserKey(f.smallest), hi = ExtractUserKey(f.largest);
      if (IteratorOverlaps(ucmp, it.get(), lo, hi) || TombstonesOverlap(tombstones.get(), lo, hi)) {
        *needed = true;
        break;
      }
    }
    if (*needed) break;
  }
  if (*needed && !options_.allow_blocking_flush) {
    return Status::InvalidArgument("External file requires flush");
  }
  return Status::OK();
}

Status ExternalFileIngestionJob::OverlapWithLevel(Version* v, int level, const Slice& smallest,
                                                  const Slice& largest, bool* overlap) const {
  *overlap = false;
  std::vector<FileMetaData*> candidates;
  v->GetOverlappingInputs(level, &smallest, &largest, &candidates);
  const Comparator* ucmp = cfd_->user_comparator();
  ReadOptions ro;
  ro.fill_cache = false;
  ro.total_order_seek = true;
  for (FileMetaData* f : candidates) {
    std::unique_ptr<InternalIterator> it = cfd_->table_cache()->NewIterator(
        ro, TableFileMeta{f->number, f->file_size, level, f->largest_seqno, f->path_id});
    if (IteratorOverlaps(ucmp, it.get(), smallest, largest)) {
      *overlap = true;
      return Status::OK();
    }
    if (!it->status().ok()) return it->status();
    const FragmentedRangeTombstoneList* tombstones = nullptr;
    Status s = cfd_->table_cache()->GetRangeTombstones(f, level, &tombstones);
    if (!s.ok()) return s;
    if (TombstonesOverlap(tombstones, smallest, largest)) {
      *overlap = true;
      return Status::OK();
    }
  }
  return Status::OK();
}

bool ExternalFileIngestionJob::FitsInLevel(Version* v, const IngestedFileInfo& f, int level) const {
  if (level == 0) return true;  // level 0 takes overlapping files
  const Slice lo = ExtractUserKey(f.smallest), hi = ExtractUserKey(f.largest);
  if (v->OverlapInLevel(level, lo, hi)) return false;
  return !cfd_->picker()->RangeOverlapWithCompaction(lo, hi, level);
}

Status ExternalFileIngestionJob::Assign(Version* v, bool snapshots_live, SequenceNumber* last_seqno,
                                        Mutex* mu) {
  mu->AssertHeld();
  const int num_levels = cfd_->num_levels();
  const SequenceNumber first_last = *last_seqno;
  SequenceNumber last = first_last;
  consumed_seqnos_ = 0;
  // Which levels hold keys in each file's range: read from the tables with
  // the mutex released (v is referenced by the caller and never changes).
  std::vector<std::vector<bool>> key_overlap(files_.size(), std::vector<bool>(num_levels, false));
  if (!options_.ingest_behind) {
    Status s;
    mu->Unlock();
    for (size_t i = 0; i < files_.size() && s.ok(); ++i) {
      const Slice lo = ExtractUserKey(files_[i].smallest), hi = ExtractUserKey(files_[i].largest);
      for (int level = 0; level < num_levels && s.ok(); ++level) {
        if (v->NumLevelFiles(level) == 0) continue;
        bool overlap = false;
        s = OverlapWithLevel(v, level, lo, hi, &overlap);
        key_overlap[i][level] = overlap;
        if (overlap) break;  // deeper levels do not matter
      }
    }
    mu->Lock();
    if (!s.ok()) return s;
  }

  const bool force_seqno = options_.snapshot_consistency && snapshots_live;
  for (size_t i = 0; i < files_.size(); ++i) {
    IngestedFileInfo& f = files_[i];
    SequenceNumber assigned = 0;
    if (options_.ingest_behind) {
      const int bottom = num_levels - 1;
      if (!FitsInLevel(v, f, bottom)) {
        return Status::InvalidArgument(
            "Can't ingest_behind file as it doesn't fit at the bottommost level!");
      }
      for (int level = 0; level < bottom; ++level) {
        for (const FileMetaData* meta : v->files(level)) {
          if (meta->smallest_seqno == 0) {
            return Status::InvalidArgument(
                "Can't ingest_behind file as despite allow_ingest_behind=true there are files "
                "with 0 seqno in database at upper levels!");
          }
        }
      }
      f.picked_level = bottom;
    } else {
      bool overlap_with_db = false;
      int target = 0;
      bool decided = false;
      if (force_seqno) {
        assigned = last + 1;
        if (files_overlap_) {
          if (options_.fail_if_not_bottommost_level) {
            return Status::TryAgain(
                "Files cannot be ingested to Lmax. Please make sure key range of Lmax does not "
                "overlap with files to ingest.");
          }
          target = 0;
          decided = true;
        }
      }
      if (!decided) {
        const int base = cfd_->options().level_compaction_dynamic_level_bytes ? v->base_level() : 1;
        for (int level = 0; level < num_levels; ++level) {
          if (level > 0 && level < base) continue;
          if (v->NumLevelFiles(level) > 0) {
            if (key_overlap[i][level]) {
              overlap_with_db = true;
              break;
            }
            if (cfd_->picker()->RangeOverlapWithCompaction(ExtractUserKey(f.smallest),
                                                           ExtractUserKey(f.largest), level)) {
              break;
            }
          }
          if (FitsInLevel(v, f, level)) target = level;
        }
        if (files_overlap_) {
          target = 0;
          assigned = last + 1;
        }
        if (options_.fail_if_not_bottommost_level && target < num_levels - 1) {
          return Status::TryAgain(
              "Files cannot be ingested to Lmax. Please make sure key range of Lmax does not "
              "overlap with files to ingest.");
        }
        if (overlap_with_db && assigned == 0) assigned = last + 1;
      }
      f.picked_level = target;
    }
    if (assigned != 0) {
      if (!options_.allow_global_seqno) {
        return Status::InvalidArgument("Global seqno is required, but disabled");
      }
      if (f.global_seqno_offset == 0) {
        return Status::InvalidArgument(
            "Trying to set global seqno for a file that don't have a global seqno field");
      }
    }
    f.assigned_seqno = assigned;
    if (assigned > last) {
      last = assigned;
      ++consumed_seqnos_;
    }
  }
  // The bounds carry the assigned numbers (sentinel ends keep theirs).
  for (IngestedFileInfo& f : files_) {
    SetSequence(&f.smallest, f.assigned_seqno);
    SetSequence(&f.largest, f.assigned_seqno);
  }
  *last_seqno = last;
  return Status::OK();
}

Status ExternalFileIngestionJob::WriteGlobalSeqnos() {
  Status s = WriteGlobalSeqnosOnly();
  if (!s.ok() || db_options_.file_checksum_gen_factory == nullptr) return s;
  // As RocksDB: the DB's function over each file's final bytes (after the
  // sequence number is written into it), read back once.
  for (IngestedFileInfo& f : files_) {
    s = GenerateFileChecksum(fs_, f.internal_path, db_options_.file_checksum_gen_factory.get(), "",
                             &f.file_checksum, &f.file_checksum_func_name);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

Status ExternalFileIngestionJob::WriteGlobalSeqnosOnly() {
  if (!options_.write_global_seqno) return Status::OK();
  for (const IngestedFileInfo& f : files_) {
    if (f.assigned_seqno == 0) continue;
    std::unique_ptr<RandomRWFile> rw;
    FileOptions fopts;
    Status s = fs_->NewRandomRWFile(f.internal_path, fopts, &rw);
    if (s.IsNotSupported()) {
      // The MANIFEST's number is the file's (the reader takes it from there).
      s.PermitUncheckedError();
      continue;
    }
    if (!s.ok()) return s;
    std::string value;
    PutFixed64(&value, f.assigned_seqno);
    s = rw->Write(f.global_seqno_offset, value);
    if (s.ok()) s = db_options_.use_fsync ? rw->Fsync() : rw->Sync();
    Status c = rw->Close();
    if (s.ok()) s = c;
    c.PermitUncheckedError();
    if (!s.ok()) return s;
  }
  return Status::OK();
}

void ExternalFileIngestionJob::AddToEdit(VersionEdit* edit, uint64_t now_seconds) const {
  for (const IngestedFileInfo& f : files_) {
    FileMetaData meta;
    meta.number = f.number;
    meta.file_size = f.file_size;
    meta.smallest = f.smallest;
    meta.largest = f.largest;
    meta.smallest_seqno = f.assigned_seqno;
    meta.largest_seqno = f.assigned_seqno;
    meta.oldest_ancester_time = now_seconds;
    meta.file_creation_time = now_seconds;
    meta.file_checksum = f.file_checksum;
    meta.file_checksum_func_name = f.file_checksum_func_name;
    edit->AddFile(f.picked_level, meta);
  }
}

void ExternalFileIngestionJob::Cleanup(const Status& status) {
  if (!status.ok()) {
    for (IngestedFileInfo& f : files_) {
      if (f.internal_path.empty()) continue;
      Status s = fs_->DeleteFile(f.internal_path);
      if (!s.ok()) {
        Log(InfoLogLevel::kWarn, db_options_.info_log.get(),
            "AddFile() clean up for file %s failed : %s", f.internal_path.c_str(),
            s.ToString().c_str());
      }
      f.internal_path.clear();
    }
    consumed_seqnos_ = 0;
  } else if (options_.move_files) {
    // Moved: the caller's names go (RocksDB removes them the same way).
    for (const IngestedFileInfo& f : files_) {
      Status s = fs_->DeleteFile(f.external_path);
      if (!s.ok()) {
        Log(InfoLogLevel::kWarn, db_options_.info_log.get(),
            "%s was added to DB successfully but failed to remove original file link : %s",
            f.external_path.c_str(), s.ToString().c_str());
      }
    }
  }
}

}  // namespace strata
