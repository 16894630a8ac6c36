// DBImpl: full-file checksums of the live table files --
// GetLiveFilesChecksumInfo and VerifyFileChecksums (strata/file_checksum.h;
// the checksums are made by BuildTables and ingestion, db/builder.cc,
// db/external_file_ingestion_job.cc).
#include "db/db_impl.h"
#include "db/file_checksum_helper.h"
#include "db/filename.h"
#include "strata/file_checksum.h"

namespace strata {

namespace {

// One live table file of a pinned Version.
struct LiveTable {
  std::string fname;
  uint64_t number;
  std::string checksum;
  std::string func_name;
};

}  // namespace

Status DBImpl::GetLiveFilesChecksumInfo(FileChecksumList* checksum_list) {
  if (checksum_list == nullptr) return Status::InvalidArgument("checksum_list is nullptr");
  checksum_list->reset();
  MutexLock l(&mu_);
  for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
    const Version* v = cfd->current();
    for (int level = 0; level < v->num_levels(); ++level) {
      for (const FileMetaData* f : v->files(level)) {
        Status s = checksum_list->InsertOneFileChecksum(f->number, f->file_checksum,
                                                        f->file_checksum_func_name);
        if (!s.ok()) return s;
      }
    }
  }
  return Status::OK();
}

Status DBImpl::VerifyFileChecksums(const ReadOptions& /*options*/) {
  FileChecksumGenFactory* const factory = options_.file_checksum_gen_factory.get();
  if (factory == nullptr) {
    return Status::InvalidArgument(
        "Cannot verify file checksum if options.file_checksum_gen_factory is null");
  }
  // The files of each family's current Version, pinned by a reference
  // while they are read without the mutex.
  std::vector<std::pair<ColumnFamilyData*, Version*>> pinned;
  std::vector<LiveTable> tables;
  {
    MutexLock l(&mu_);
    if (closed_) return Status::ShutdownInProgress("VerifyFileChecksums on a closed database");
    for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
      cfd->Ref();
      Version* v = cfd->current();
      v->Ref();
      pinned.emplace_back(cfd, v);
      for (int level = 0; level < v->num_levels(); ++level) {
        for (const FileMetaData* f : v->files(level)) {
          tables.push_back(
              LiveTable{TableFileName(cfd->options().cf_paths[f->path_id].path, f->number),
                        f->number, f->file_checksum, f->file_checksum_func_name});
        }
      }
    }
  }
  // No mutex from here: the files are only read.
  Status s;
  for (const LiveTable& t : tables) {
    // A file written without a factory has nothing to check (RocksDB).
    if (t.checksum == kUnknownFileChecksum) continue;
    std::string actual;
    std::string func_name;
    s = GenerateFileChecksum(fs_, t.fname, factory, t.func_name, &actual, &func_name);
    if (!s.ok()) break;
    if (actual != t.checksum) {
      s = Status::Corruption(t.fname + " file checksum mismatch, expecting " +
                             Slice(t.checksum).ToString(/*hex=*/true) + ", but actual " +
                             Slice(actual).ToString(/*hex=*/true));
      break;
    }
  }
  MutexLock l(&mu_);
  for (const auto& [cfd, v] : pinned) {
    v->Unref();
    UnrefFamily(cfd);
  }
  return s;
}

}  // namespace strata
