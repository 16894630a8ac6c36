// DBImpl, external files: IngestExternalFile(s) (driving one
// ExternalFileIngestionJob per family, db/external_file_ingestion_job.h) and
// CreateColumnFamilyWithImport. See docs/design/ingestion.md.
//
// Locking: the files are read and copied without any lock; the levels and
// sequence numbers are decided while this thread is the exclusive writer
// (RunExclusive: no write is in flight, so the last sequence is stable and
// no memtable grows) and while running_ingestions_ keeps new compactions
// from being picked (a compaction picked meanwhile could put data into the
// level and range a file was given). mu_ is released around every table
// read, the global-seqno writes and the MANIFEST write.
#include <algorithm>
#include <cinttypes>
#include <set>

#include "db/db_impl.h"
#include "db/external_file_ingestion_job.h"
#include "db/filename.h"
#include "table/block_based_table_reader.h"
#include "util/sync_point.h"

namespace strata {

Status DBImpl::IngestExternalFile(ColumnFamilyHandle* cf, const std::vector<std::string>& files,
                                  const IngestExternalFileOptions& options) {
  IngestExternalFileArg arg;
  arg.column_family = cf;
  arg.external_files = files;
  arg.options = options;
  return IngestExternalFiles({arg});
}

void DBImpl::WaitForIngestions() {
  mu_.AssertHeld();
  while (running_ingestions_ > 0) bg_cv_.Wait();
}

Status DBImpl::IngestExternalFiles(const std::vector<IngestExternalFileArg>& args) {
  if (read_only()) return ReadOnlyError();
  if (args.empty()) return Status::InvalidArgument("ingestion arg list is empty");
  {
    std::set<ColumnFamilyHandle*> seen;
    for (const IngestExternalFileArg& arg : args) {
      if (arg.column_family == nullptr) {
        return Status::InvalidArgument("column family handle is null");
      }
      if (!seen.insert(arg.column_family).second) {
        return Status::InvalidArgument("ingestion args have duplicate column families");
      }
    }
  }
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].external_files.empty()) {
      return Status::InvalidArgument("external_files[" + std::to_string(i) + "] is empty");
    }
  }
  for (const IngestExternalFileArg& arg : args) {
    if (arg.options.ingest_behind && !options_.allow_ingest_behind) {
      return Status::InvalidArgument(
          "can't ingest_behind file in DB with allow_ingest_behind=false");
    }
  }

  // The families stay referenced, and the reserved file numbers stay away
  // from the obsolete-file scan, until the end.
  std::vector<std::unique_ptr<ExternalFileIngestionJob>> jobs;
  std::vector<std::vector<uint64_t>> numbers;
  std::multiset<uint64_t>::iterator pending;
  {
    MutexLock l(&mu_);
    if (closed_) return Status::ShutdownInProgress("IngestExternalFile on a closed database");
    for (const IngestExternalFileArg& arg : args) {
      ColumnFamilyData* cfd = FamilyOf(arg.column_family);
      if (cfd->dropped()) {
        return Status::InvalidArgument("cannot ingest an external file into a dropped CF");
      }
    }
    pending = pending_outputs_.insert(versions_->next_file_number());
    for (const IngestExternalFileArg& arg : args) {
      ColumnFamilyData* cfd = FamilyOf(arg.column_family);
      cfd->Ref();
      jobs.push_back(std::make_unique<ExternalFileIngestionJob>(
          dbname_, options_, fs_, db_dir_.get(), cfd, arg.options, arg.external_files));
      numbers.emplace_back();
      for (size_t i = 0; i < arg.external_files.size(); ++i) {
        numbers.back().push_back(versions_->NewFileNumber());
      }
    }
  }
  auto finish = [&](Status s) {
    for (auto& job : jobs) job->Cleanup(s);
    MutexLock l(&mu_);
    pending_outputs_.erase(pending);
    for (auto& job : jobs) UnrefFamily(job->cfd());
    return s;
  };

  Status s;
  for (size_t i = 0; i < jobs.size() && s.ok(); ++i) s = jobs[i]->Prepare(numbers[i]);
  TEST_SYNC_POINT("DBImpl::IngestExternalFiles:AfterPrepare");
  if (!s.ok()) return finish(s);

  std::vector<ExternalFileIngestionInfo> infos;
  s = RunExclusive([&]() -> Status {
    MutexLock l(&mu_);
    ++running_ingestions_;
    Status st = IngestUnderExclusive(&jobs, &infos);
    --running_ingestions_;
    bg_cv_.SignalAll();
    MaybeScheduleFlushOrCompaction();
    return st;
  });
  s = finish(s);
  if (s.ok() && !options_.listeners.empty()) {
    for (const ExternalFileIngestionInfo& info : infos) {
      for (const auto& listener : options_.listeners) listener->OnExternalFileIngested(this, info);
    }
  }
  return s;
}

Status DBImpl::IngestUnderExclusive(std::vector<std::unique_ptr<ExternalFileIngestionJob>>* jobs,
                                    std::vector<ExternalFileIngestionInfo>* infos) {
  mu_.AssertHeld();
  if (!bg_error_.ok()) return bg_error_;  // writes are stopped: so is ingestion
  const uint64_t start_micros = clock_->NowMicros();
  // A memtable holding keys in a file's range is flushed first (the files
  // must be newer than everything in memtables, which reads look at first).
  for (int attempt = 0;; ++attempt) {
    std::vector<ColumnFamilyData*> to_flush;
    for (auto& job : *jobs) {
      ColumnFamilyData* cfd = job->cfd();
      if (cfd->dropped()) {
        return Status::InvalidArgument("cannot ingest an external file into a dropped CF");
      }
      bool needed = false;
      Status s = job->NeedsFlush(cfd->super_version(), &needed);
      if (!s.ok()) return s;
      if (needed) to_flush.push_back(cfd);
    }
    if (to_flush.empty()) break;
    if (attempt > 0) return Status::TryAgain("memtable still overlaps the ingested files");
    std::vector<ColumnFamilyData*> switch_targets;
    std::vector<uint64_t> targets;
    for (ColumnFamilyData* cfd : to_flush) {
      if (cfd->mem()->num_entries() > 0) switch_targets.push_back(cfd);
    }
    if (!switch_targets.empty()) {
      // The exclusive writer may switch memtables itself (as a leader does).
      mu_.Unlock();
      Status s = SwitchMemtables(switch_targets);
      mu_.Lock();
      if (!s.ok()) return s;
    }
    for (ColumnFamilyData* cfd : to_flush) targets.push_back(cfd->memtables_switched());
    MaybeScheduleFlushOrCompaction();
    for (size_t i = 0; i < to_flush.size(); ++i) {
      while (to_flush[i]->memtables_flushed() < targets[i] && !to_flush[i]->dropped() &&
             bg_error_.ok() && !shutting_down_.load(std::memory_order_acquire)) {
        bg_cv_.Wait();
      }
    }
    if (!bg_error_.ok()) return bg_error_;
    if (shutting_down_.load(std::memory_order_acquire)) {
      return Status::ShutdownInProgress("IngestExternalFile during close");
    }
  }

  // Levels and sequence numbers, against Versions that stay current until
  // the MANIFEST write (no compaction is picked meanwhile; one finishing
  // while the tables were read makes us look again).
  const SequenceNumber last = last_allocated_sequence_;
  SequenceNumber new_last = last;
  for (int attempt = 0;; ++attempt) {
    std::vector<Version*> versions;
    for (auto& job : *jobs) {
      versions.push_back(job->cfd()->current());
      versions.back()->Ref();
    }
    Status s;
    new_last = last;
    for (size_t i = 0; i < jobs->size() && s.ok(); ++i) {
      SequenceNumber job_last = last;
      s = (*jobs)[i]->Assign(versions[i], !snapshots_.empty(), &job_last, &mu_);
      new_last = std::max(new_last, job_last);
    }
    bool changed = false;
    for (size_t i = 0; i < jobs->size(); ++i) {
      changed = changed || (*jobs)[i]->cfd()->current() != versions[i];
    }
    mu_.Unlock();
    for (Version* v : versions) v->Unref();
    mu_.Lock();
    if (!s.ok()) return s;
    if (!changed) break;
    if (attempt >= 100) return Status::TryAgain("the LSM tree kept changing during ingestion");
  }

  mu_.Unlock();
  Status s;
  for (auto& job : *jobs) {
    if (s.ok()) s = job->WriteGlobalSeqnos();
  }
  TEST_SYNC_POINT("DBImpl::IngestExternalFiles:BeforeLogAndApply");
  mu_.Lock();
  if (!s.ok()) return s;

  std::vector<VersionEdit> edits(jobs->size());
  std::vector<VersionEdit*> edit_ptrs;
  std::vector<ColumnFamilyData*> cfds;
  int64_t now = 0;
  if (!clock_->GetCurrentTime(&now).ok()) now = 0;
  for (size_t i = 0; i < jobs->size(); ++i) {
    (*jobs)[i]->AddToEdit(&edits[i], static_cast<uint64_t>(now));
    edits[i].SetLastSequence(new_last);
    edit_ptrs.push_back(&edits[i]);
    cfds.push_back((*jobs)[i]->cfd());
  }
  s = versions_->LogAndApplyGroup(cfds, edit_ptrs, &mu_);
  if (!s.ok()) {
    if (s.IsIOError()) RecordBackgroundError(s, BgErrorReason::kManifest);
    return s;
  }
  if (new_last > last) {
    // The exclusive writer owns the sequence counters; no write is in flight.
    last_allocated_sequence_ = new_last;
    last_sequence_.store(new_last, std::memory_order_release);
    versions_->SetLastSequence(std::max(versions_->LastSequence(), new_last));
    // The ingested sequences are in tables, not memtables.
    for (ColumnFamilyData* cfd : cfds) MemtablesHoldHistoryFrom(cfd, new_last + 1);
  }
  for (ColumnFamilyData* cfd : cfds) InstallNewSuperVersion(cfd);
  {
    for (size_t i = 0; i < edits.size(); ++i) {
      std::vector<FileMetaData> added;
      for (const auto& [level, f] : edits[i].new_files()) added.push_back(f);
      // The limit stops flushes, not ingestion.
      TrackNewTables(cfds[i]->options().cf_paths, added).PermitUncheckedError();
    }
  }
  const uint64_t micros = clock_->NowMicros() - start_micros;
  for (auto& job : *jobs) {
    for (const IngestedFileInfo& f : job->files()) {
      // Statistics as RocksDB keeps them: a copied file's bytes count as
      // written at its level, a linked one's as moved.
      CompactionStats stats;
      stats.micros = micros;
      (f.linked ? stats.bytes_moved : stats.bytes_written) = f.file_size;
      stats.num_output_files = 1;
      stats.count = 1;
      job->cfd()->internal_stats()->AddCompactionStats(f.picked_level, JobPriority::kUser, stats);
      job->cfd()->internal_stats()->AddIngestedFile(f.file_size, f.properties.num_entries,
                                                    f.picked_level == 0);
      ExternalFileIngestionInfo info;
      info.cf_name = job->cfd()->name();
      info.external_file_path = f.external_path;
      info.internal_file_path = f.internal_path;
      info.global_seqno = f.assigned_seqno;
      info.table_properties = f.properties;
      infos->push_back(std::move(info));
      Log(InfoLogLevel::kInfo, info_log_.get(),
          "[AddFile] External SST file %s was ingested in L%d with path %s (global_seqno=%" PRIu64
          ")\n",
          f.external_path.c_str(), f.picked_level, f.internal_path.c_str(), f.assigned_seqno);
    }
  }
  return Status::OK();
}

// ---------------------------------------------------------------------------
// CreateColumnFamilyWithImport

namespace {

// Where an exported file is: db_path + name ("/000012.sst", RocksDB's
// spelling), else directory + "/" + relative_filename.
std::string ExportedFilePath(const LiveFileMetaData& f) {
  if (!f.name.empty()) {
    const std::string& dir = !f.db_path.empty() ? f.db_path : f.directory;
    return f.name[0] == '/' ? dir + f.name : dir + "/" + f.name;
  }
  return f.directory + "/" + f.relative_filename;
}

}  // namespace

Status DBImpl::CreateColumnFamilyWithImport(const ColumnFamilyOptions& options,
                                            const std::string& name,
                                            const ImportColumnFamilyOptions& import_options,
                                            const ExportImportFilesMetaData& metadata,
                                            ColumnFamilyHandle** handle) {
  if (read_only()) return ReadOnlyError();
  if (handle == nullptr) return Status::InvalidArgument("CreateColumnFamily: handle is null");
  *handle = nullptr;
  const Comparator* ucmp =
      options.comparator != nullptr ? options.comparator : BytewiseComparator();
  if (metadata.db_comparator_name != ucmp->Name()) {
    return Status::InvalidArgument("Comparator name mismatch");
  }
  Status s = CreateColumnFamily(options, name, handle);
  if (!s.ok()) return s;
  ColumnFamilyData* cfd = FamilyOf(*handle);

  struct Imported {
    std::string external;
    std::string internal;
    uint64_t number = 0;
    uint64_t size = 0;
    std::string smallest, largest;
    bool linked = false;
  };
  const std::vector<LiveFileMetaData>& files = metadata.files;
  std::vector<Imported> imported(files.size());
  std::multiset<uint64_t>::iterator pending;
  {
    MutexLock l(&mu_);
    cfd->Ref();
    pending = pending_outputs_.insert(versions_->next_file_number());
    for (Imported& f : imported) f.number = versions_->NewFileNumber();
  }

  // Read each file's bounds (with its recorded sequence numbers).
  for (size_t i = 0; i < files.size() && s.ok(); ++i) {
    Imported& f = imported[i];
    f.external = ExportedFilePath(files[i]);
    s = fs_->GetFileSize(f.external, &f.size);
    std::unique_ptr<RandomAccessFile> file;
    if (s.ok()) s = fs_->NewRandomAccessFile(f.external, FileOptions(), &file);
    std::unique_ptr<BlockBasedTable> table;
    if (s.ok()) {
      TableReaderOptions tro;
      tro.table_options = cfd->table_options();
      tro.table_options.block_cache = nullptr;
      tro.table_options.no_block_cache = true;
      tro.user_comparator = cfd->user_comparator();
      tro.file_name = f.external;
      tro.skip_filters = true;
      tro.largest_seqno = files[i].largest_seqno;
      s = BlockBasedTable::Open(tro, std::move(file), f.size, &table);
    }
    if (!s.ok()) break;
    if (table->GetTableProperties()->num_entries == 0) {
      s = Status::InvalidArgument("File contain no entries", f.external);
      break;
    }
    ReadOptions ro;
    ro.fill_cache = false;
    std::unique_ptr<InternalIterator> it = table->NewIterator(ro);
    it->SeekToFirst();
    if (it->Valid()) f.smallest.assign(it->key().data(), it->key().size());
    it->SeekToLast();
    if (it->Valid()) f.largest.assign(it->key().data(), it->key().size());
    if (!it->status().ok()) {
      s = it->status();
      break;
    }
    ParsedInternalKey p;
    if (f.smallest.empty() || f.largest.empty() || !ParseInternalKey(f.smallest, &p).ok() ||
        !ParseInternalKey(f.largest, &p).ok()) {
      s = Status::Corruption("File has corrupted keys", f.external);
      break;
    }
    // A file's range tombstones widen its bounds.
    std::unique_ptr<InternalIterator> rd = table->NewRangeTombstoneIterator(ro);
    if (rd != nullptr) {
      for (rd->SeekToFirst(); rd->Valid(); rd->Next()) {
        if (ucmp->Compare(ExtractUserKey(rd->key()), ExtractUserKey(f.smallest)) < 0) {
          f.smallest.assign(rd->key().data(), rd->key().size());
        }
        if (ucmp->Compare(rd->value(), ExtractUserKey(f.largest)) > 0) {
          f.largest.clear();
          AppendInternalKey(&f.largest, rd->value(), kMaxSequenceNumber, kTypeRangeDeletion);
        }
      }
      if (!rd->status().ok()) s = rd->status();
    }
  }
  if (s.ok() && files.empty()) s = Status::InvalidArgument("The list of files is empty");
  if (s.ok()) {
    // Files of one level >= 1 must not overlap each other.
    int max_level = 0;
    for (const LiveFileMetaData& f : files) max_level = std::max(max_level, f.level);
    if (max_level >= cfd->num_levels()) {
      s = Status::InvalidArgument("Level " + std::to_string(max_level) + " of an imported file " +
                                  "is past the family's num_levels " +
                                  std::to_string(cfd->num_levels()));
    }
    for (int level = 1; s.ok() && level <= max_level; ++level) {
      std::vector<const Imported*> at;
      for (size_t i = 0; i < files.size(); ++i) {
        if (files[i].level == level) at.push_back(&imported[i]);
      }
      const InternalKeyComparator& icmp = cfd->icmp();
      std::sort(at.begin(), at.end(), [&icmp](const Imported* a, const Imported* b) {
        return icmp.Compare(a->smallest, b->smallest) < 0;
      });
      for (size_t i = 0; i + 1 < at.size(); ++i) {
        if (icmp.Compare(at[i]->largest, at[i + 1]->smallest) >= 0) {
          s = Status::InvalidArgument("Files have overlapping ranges");
          break;
        }
      }
    }
  }
  // Copy or link them in.
  bool link = import_options.move_files;
  for (size_t i = 0; i < imported.size() && s.ok(); ++i) {
    Imported& f = imported[i];
    // Imported tables go to the family's first table path (RocksDB's).
    const std::string target = TableFileName(cfd->options().cf_paths, f.number, 0);
    if (link) {
      s = fs_->LinkFile(f.external, target);
      if (s.IsNotSupported()) {
        link = false;
        s = Status::OK();
      } else if (s.ok()) {
        f.linked = true;
        f.internal = target;
      }
    }
    if (s.ok() && !link) {
      f.internal = target;
      std::unique_ptr<SequentialFile> in;
      std::unique_ptr<WritableFile> out;
      s = fs_->NewSequentialFile(f.external, FileOptions(), &in);
      if (s.ok()) s = fs_->NewWritableFile(target, FileOptions(), &out);
      std::string buf(1 << 20, '\0');
      while (s.ok()) {
        Slice chunk;
        s = in->Read(buf.size(), &chunk, buf.data());
        if (!s.ok() || chunk.empty()) break;
        s = out->Append(chunk);
      }
      if (s.ok()) s = out->Sync();
      if (out != nullptr) {
        Status c = out->Close();
        if (s.ok()) s = c;
        c.PermitUncheckedError();
      }
    }
  }
  if (s.ok()) {
    const std::string& dir = cfd->options().cf_paths[0].path;
    if (dir == dbname_) {
      s = db_dir_->Fsync();
    } else {
      std::unique_ptr<Directory> d;
      s = fs_->NewDirectory(dir, &d);
      if (s.ok()) s = d->Fsync();
    }
  }
  if (s.ok()) {
    s = RunExclusive([&]() -> Status {
      MutexLock l(&mu_);
      if (cfd->dropped()) return Status::InvalidArgument("column family was dropped", cfd->name());
      VersionEdit edit;
      int64_t now = 0;
      if (!clock_->GetCurrentTime(&now).ok()) now = 0;
      SequenceNumber largest = 0;
      for (size_t i = 0; i < files.size(); ++i) {
        FileMetaData meta;
        meta.number = imported[i].number;
        meta.file_size = imported[i].size;
        meta.smallest = imported[i].smallest;
        meta.largest = imported[i].largest;
        meta.smallest_seqno = files[i].smallest_seqno;
        meta.largest_seqno = files[i].largest_seqno;
        meta.oldest_ancester_time = static_cast<uint64_t>(now);
        meta.file_creation_time = static_cast<uint64_t>(now);
        edit.AddFile(files[i].level, meta);
        largest = std::max(largest, files[i].largest_seqno);
      }
      const SequenceNumber new_last = std::max(last_allocated_sequence_, largest);
      edit.SetLastSequence(new_last);
      Status st = versions_->LogAndApply(cfd, &edit, &mu_);
      if (!st.ok()) return st;
      {
        std::vector<FileMetaData> added;
        for (const auto& [level, f] : edit.new_files()) added.push_back(f);
        // The limit stops flushes, not imports.
        TrackNewTables(cfd->options().cf_paths, added).PermitUncheckedError();
      }
      if (new_last > last_allocated_sequence_) {
        last_allocated_sequence_ = new_last;
        last_sequence_.store(new_last, std::memory_order_release);
      }
      MemtablesHoldHistoryFrom(cfd, new_last + 1);
      versions_->SetLastSequence(std::max(versions_->LastSequence(), new_last));
      InstallNewSuperVersion(cfd);
      MaybeScheduleFlushOrCompaction();
      return Status::OK();
    });
  }
  if (!s.ok()) {
    for (const Imported& f : imported) {
      if (!f.internal.empty()) fs_->DeleteFile(f.internal).PermitUncheckedError();
    }
  } else if (import_options.move_files) {
    for (const Imported& f : imported) fs_->DeleteFile(f.external).PermitUncheckedError();
  }
  {
    MutexLock l(&mu_);
    pending_outputs_.erase(pending);
    UnrefFamily(cfd);
  }
  if (!s.ok()) {
    Status d = DropColumnFamily(*handle);
    if (!d.ok()) {
      Log(InfoLogLevel::kError, info_log_.get(), "DropColumnFamily failed with error %s",
          d.ToString().c_str());
    }
    DestroyColumnFamilyHandle(*handle).PermitUncheckedError();
    *handle = nullptr;
  }
  return s;
}

}  // namespace strata
