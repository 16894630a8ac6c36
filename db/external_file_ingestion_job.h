// ExternalFileIngestionJob: adds table files written outside the DB (by
// SstFileWriter, Strata's or RocksDB's) to one column family -- the work of
// DB::IngestExternalFile(s) for one family, in RocksDB 7.8.3's steps and
// with its rules (docs/design/ingestion.md):
//
//  1. Prepare (no lock): opens and checks every file (comparator, version
//     and global-seqno properties, all keys at sequence 0, not empty),
//     notes whether the files overlap each other, then copies each into the
//     DB directory under a reserved table file number -- or hard-links it
//     with move_files (a copy when linking fails and
//     failed_move_fall_back_to_copy) -- and syncs the copies and the
//     directory.
//  2. NeedsFlush (writes stopped): whether a memtable holds a key (or a
//     range tombstone) inside a file's range.
//  3. Assign (writes stopped): a level and a sequence number per file. A
//     file goes to the deepest level L such that no level from 0 to L holds
//     a key in its range and L's files and running compactions into L do not
//     overlap it; it gets last sequence + 1 when it overlaps keys of the DB,
//     when files of the call overlap each other (all go to level 0 then), or
//     when snapshot_consistency is set and snapshots are live. ingest_behind
//     puts every file in the last level at sequence 0.
//  4. WriteGlobalSeqnos (no lock): writes each assigned number into its
//     file's "rocksdb.external_sst_file.global_seqno" property in place
//     (write_global_seqno); otherwise only the MANIFEST records it. With
//     DBOptions::file_checksum_gen_factory each file is then read for its
//     full-file checksum, recorded by AddToEdit.
//  5. The caller adds the files to a VersionEdit (AddToEdit) and commits it;
//     Cleanup removes the DB's copies after a failure, or the caller's
//     names of moved files after success.
//
// Thread-safety: one thread drives a job; the steps marked "writes stopped"
// run while the caller is the exclusive writer, Assign with the DB mutex
// held (it releases it to read tables, see Assign).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/dbformat.h"
#include "db/version_edit.h"
#include "strata/env.h"
#include "strata/listener.h"
#include "strata/options.h"
#include "strata/status.h"
#include "strata/table_properties.h"
#include "util/mutex.h"

namespace strata {

class ColumnFamilyData;
class Version;
struct SuperVersion;

// One file of an ingestion.
struct IngestedFileInfo {
  std::string external_path;
  std::string internal_path;  // set once the copy or link exists
  uint64_t number = 0;        // its table file number in the DB
  uint64_t file_size = 0;
  // Bounds (internal keys; sequence 0 until Assign sets the assigned one;
  // a range tombstone's end bound is the sentinel at kMaxSequenceNumber).
  std::string smallest;
  std::string largest;
  uint32_t version = 0;
  // File offset of the global seqno property's value (0: none).
  uint64_t global_seqno_offset = 0;
  TableProperties properties;
  bool linked = false;  // hard link (move_files) rather than a copy
  int picked_level = 0;
  SequenceNumber assigned_seqno = 0;
  // Full-file checksum of the file as it ends up in the DB (with
  // DBOptions::file_checksum_gen_factory; set by WriteGlobalSeqnos).
  std::string file_checksum;
  std::string file_checksum_func_name = "Unknown";
};

class ExternalFileIngestionJob {
 public:
  // cfd (referenced by the caller), fs, db_dir, info_log must outlive the
  // job. files: the caller's paths, in the call's order.
  ExternalFileIngestionJob(const std::string& dbname, const Options& db_options, FileSystem* fs,
                           Directory* db_dir, ColumnFamilyData* cfd,
                           const IngestExternalFileOptions& options,
                           std::vector<std::string> files);
  ExternalFileIngestionJob(const ExternalFileIngestionJob&) = delete;
  ExternalFileIngestionJob& operator=(const ExternalFileIngestionJob&) = delete;

  // Step 1; file i gets table file number numbers[i] (reserved by the
  // caller). On failure what was copied stays listed for Cleanup.
  Status Prepare(const std::vector<uint64_t>& numbers);

  // Step 2: *needed when mem or an immutable memtable of sv holds an entry
  // or a range tombstone in some file's range; InvalidArgument "External
  // file requires flush" when that is so and allow_blocking_flush is off.
  Status NeedsFlush(SuperVersion* sv, bool* needed) const;

  // Step 3. v: the family's current Version (referenced by the caller);
  // snapshots_live: the DB has snapshots. *last_seqno is the DB's last
  // sequence on entry and this job's last assigned one on return.
  // REQUIRES: mu (the DB mutex) held; it is released while tables are
  // read, so the caller must check afterwards that v is still current
  // (else call again).
  Status Assign(Version* v, bool snapshots_live, SequenceNumber* last_seqno, Mutex* mu)
      REQUIRES(*mu);

  // Step 4 (no lock).
  // With DBOptions::file_checksum_gen_factory, it then reads each file
  // (as it now is) for its full-file checksum.
  Status WriteGlobalSeqnos();

  // Step 5: one AddFile per file.
  void AddToEdit(VersionEdit* edit, uint64_t now_seconds) const;
  void Cleanup(const Status& status);

  // How many sequence numbers Assign used (0 or more).
  uint64_t consumed_seqnos() const { return consumed_seqnos_; }
  const std::vector<IngestedFileInfo>& files() const { return files_; }
  ColumnFamilyData* cfd() const { return cfd_; }
  const IngestExternalFileOptions& options() const { return options_; }

 private:
  Status WriteGlobalSeqnosOnly();  // WriteGlobalSeqnos without the checksums
  // Opens one file and fills *info (keys, bounds, properties).
  Status ReadFileInfo(const std::string& path, IngestedFileInfo* info) const;
  // Copies (or links) one file to its place in the DB.
  Status AddFileToDb(IngestedFileInfo* info);
  Status CopyFile(const std::string& src, const std::string& dst) const;
  // Whether level `level` of v holds an entry or range tombstone with a
  // user key in [smallest, largest] (reads the tables; no lock held).
  Status OverlapWithLevel(Version* v, int level, const Slice& smallest, const Slice& largest,
                          bool* overlap) const;
  // Whether the file fits level `level` of v: no file's range there
  // overlaps it and no running compaction writes into its range there.
  bool FitsInLevel(Version* v, const IngestedFileInfo& f, int level) const;

  const std::string dbname_;
  const Options& db_options_;
  FileSystem* const fs_;
  Directory* const db_dir_;
  ColumnFamilyData* const cfd_;
  const IngestExternalFileOptions options_;
  const std::vector<std::string> paths_;
  std::vector<IngestedFileInfo> files_;
  bool files_overlap_ = false;
  uint64_t consumed_seqnos_ = 0;
};

}  // namespace strata
