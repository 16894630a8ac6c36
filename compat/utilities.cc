// compat/utilities.cc: RocksDB's SstFileWriter, SstFileReader and
// Checkpoint over Strata's.
#include <memory>
#include <string>

#include "compat/error_iterator.h"
#include "compat/options_convert.h"
#include "rocksdb/env.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_file_reader.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/utilities/checkpoint.h"
#include "strata/options.h"
#include "strata/utilities/checkpoint.h"

namespace rocksdb {

EnvOptions::EnvOptions(const DBOptions& options)
    : use_mmap_reads(options.allow_mmap_reads),
      use_mmap_writes(options.allow_mmap_writes),
      use_direct_reads(options.use_direct_reads),
      use_direct_writes(options.use_direct_io_for_flush_and_compaction),
      bytes_per_sync(options.bytes_per_sync),
      strict_bytes_per_sync(options.strict_bytes_per_sync),
      compaction_readahead_size(options.compaction_readahead_size),
      random_access_max_buffer_size(options.random_access_max_buffer_size),
      writable_file_max_buffer_size(options.writable_file_max_buffer_size) {}

SstFileWriter::SstFileWriter(const EnvOptions& env_options, const Options& options,
                             ColumnFamilyHandle* column_family, bool invalidate_page_cache,
                             Env::IOPriority io_priority, bool skip_filters)
    : SstFileWriter(env_options, options, options.comparator, column_family, invalidate_page_cache,
                    io_priority, skip_filters) {}

SstFileWriter::SstFileWriter(const EnvOptions& /*env_options*/, const Options& options,
                             const Comparator* user_comparator,
                             ColumnFamilyHandle* /*column_family*/, bool /*invalidate_page_cache*/,
                             Env::IOPriority /*io_priority*/, bool skip_filters)
    : options_(options), skip_filters_(skip_filters) {
  options_.comparator = user_comparator;
}

SstFileWriter::~SstFileWriter() = default;

Status SstFileWriter::Open(const std::string& file_path) {
  ::strata::Options o;
  Status s = compat::ConvertOptions(options_, &o);
  if (!s.ok()) return s;
  if (skip_filters_) {
    // RocksDB's skip_filters: the file gets no filter block.
    ::strata::BlockBasedTableOptions t = o.table_factory != nullptr
                                             ? o.table_factory->table_options()
                                             : ::strata::BlockBasedTableOptions();
    t.filter_policy = nullptr;
    o.table_factory = ::strata::NewBlockBasedTableFactory(t);
  }
  writer_ = std::make_unique<::strata::SstFileWriter>(o);
  return writer_->Open(file_path);
}

namespace {
Status NotOpen() { return Status::InvalidArgument("SstFileWriter: Open() has not succeeded"); }
}  // namespace

namespace {
// RocksDB's check of the timestamp forms' argument (Strata's comparators
// have no timestamp, so only an empty one passes).
Status CheckTimestamp(const Comparator* cmp, const Slice& timestamp) {
  const size_t expected = cmp != nullptr ? cmp->timestamp_size() : 0;
  if (timestamp.size() != expected) return Status::InvalidArgument("Timestamp size mismatch");
  return Status::OK();
}
}  // namespace

Status SstFileWriter::Add(const Slice& user_key, const Slice& value) {
  return Put(user_key, value);
}
Status SstFileWriter::Put(const Slice& user_key, const Slice& value) {
  return writer_ ? writer_->Put(user_key, value) : NotOpen();
}
Status SstFileWriter::Put(const Slice& user_key, const Slice& timestamp, const Slice& value) {
  Status s = CheckTimestamp(options_.comparator, timestamp);
  return s.ok() ? Put(user_key, value) : s;
}
Status SstFileWriter::Delete(const Slice& user_key, const Slice& timestamp) {
  Status s = CheckTimestamp(options_.comparator, timestamp);
  return s.ok() ? Delete(user_key) : s;
}
Status SstFileWriter::DeleteRange(const Slice& begin_key, const Slice& end_key,
                                  const Slice& timestamp) {
  Status s = CheckTimestamp(options_.comparator, timestamp);
  return s.ok() ? DeleteRange(begin_key, end_key) : s;
}
Status SstFileWriter::Merge(const Slice& user_key, const Slice& value) {
  return writer_ ? writer_->Merge(user_key, value) : NotOpen();
}
Status SstFileWriter::Delete(const Slice& user_key) {
  return writer_ ? writer_->Delete(user_key) : NotOpen();
}
Status SstFileWriter::DeleteRange(const Slice& begin_key, const Slice& end_key) {
  return writer_ ? writer_->DeleteRange(begin_key, end_key) : NotOpen();
}
Status SstFileWriter::Finish(ExternalSstFileInfo* file_info) {
  return writer_ ? writer_->Finish(file_info) : NotOpen();
}
uint64_t SstFileWriter::FileSize() { return writer_ ? writer_->FileSize() : 0; }

SstFileReader::SstFileReader(const Options& options) : options_(options) {}

SstFileReader::~SstFileReader() = default;

Status SstFileReader::Open(const std::string& file_path) {
  reader_.reset();
  ::strata::Options o;
  Status s = compat::ConvertOptions(options_, &o);
  if (!s.ok()) return s;
  auto reader = std::make_unique<::strata::SstFileReader>(o);
  s = reader->Open(file_path);
  if (s.ok()) reader_ = std::move(reader);
  return s;
}

Iterator* SstFileReader::NewIterator(const ReadOptions& options) {
  if (reader_ == nullptr) {
    return new compat::ErrorIterator(
        Status::InvalidArgument("SstFileReader: Open() has not succeeded"));
  }
  ::strata::ReadOptions ro;
  Status s = compat::ConvertReadOptions(options, &ro);
  if (!s.ok()) return new compat::ErrorIterator(s);
  return reader_->NewIterator(ro).release();
}

std::shared_ptr<const TableProperties> SstFileReader::GetTableProperties() const {
  return reader_ != nullptr ? reader_->GetTableProperties() : nullptr;
}

Status SstFileReader::VerifyChecksum(const ReadOptions& read_options) {
  if (reader_ == nullptr) return Status::InvalidArgument("SstFileReader: Open() has not succeeded");
  ::strata::ReadOptions ro;
  Status s = compat::ConvertReadOptions(read_options, &ro);
  return s.ok() ? reader_->VerifyChecksum(ro) : s;
}

Checkpoint::~Checkpoint() = default;

Status Checkpoint::Create(DB* db, Checkpoint** checkpoint_ptr) {
  *checkpoint_ptr = nullptr;
  std::unique_ptr<::strata::Checkpoint> impl;
  Status s = ::strata::Checkpoint::Create(db->GetStrataDB(), &impl);
  if (!s.ok()) return s;
  auto* c = new Checkpoint();
  c->impl_ = std::move(impl);
  *checkpoint_ptr = c;
  return s;
}

Status Checkpoint::CreateCheckpoint(const std::string& checkpoint_dir, uint64_t log_size_for_flush,
                                    uint64_t* sequence_number_ptr) {
  return impl_->CreateCheckpoint(checkpoint_dir, log_size_for_flush, sequence_number_ptr);
}

Status Checkpoint::ExportColumnFamily(ColumnFamilyHandle* handle, const std::string& export_dir,
                                      ExportImportFilesMetaData** metadata) {
  std::unique_ptr<ExportImportFilesMetaData> m;
  Status s = impl_->ExportColumnFamily(handle, export_dir, &m);
  *metadata = s.ok() ? m.release() : nullptr;
  return s;
}

}  // namespace rocksdb
