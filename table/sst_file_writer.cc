// SstFileWriter (include/strata/sst_file_writer.h): a BlockBasedTableBuilder
// over a file of options.env's FileSystem, fed internal keys at sequence 0.
//
// What the file carries, matching RocksDB 7.8.3's SstFileWriter so either
// project ingests the other's files:
//  - every point entry at sequence 0 (Put = kTypeValue, Merge = kTypeMerge,
//    Delete = kTypeDeletion); range tombstones at sequence 0 in the
//    range-deletion block;
//  - column family id 0x7fffffff ("unknown") and an empty column family
//    name: RocksDB's writer, given no column family handle, writes "" rather
//    than "default";
//  - "rocksdb.external_sst_file.version" = fixed32 2 and
//    "rocksdb.external_sst_file.global_seqno" = fixed64 0 (RocksDB writes
//    both from its SstFileWriter property collector; ingestion reads them);
//  - db_id "SST Writer", as RocksDB's writer records (there is no DB).
// Point keys and range tombstones share sequence 0, so a file's tombstones
// never cover its own point keys (a tombstone hides only older sequences):
// after ingestion they delete what the DB held before, as in RocksDB
// (checked with ldb ingest_extern_sst in sst_file_writer_test).
#include "strata/sst_file_writer.h"

#include <cstdio>
#include <memory>
#include <string>

#include "base/dbformat.h"
#include "env/checksumming_writable_file.h"
#include "strata/file_checksum.h"
#include "strata/merge_operator.h"
#include "strata/table.h"
#include "table/block_based_table_builder.h"
#include "table/format.h"
#include "util/coding.h"

namespace strata {

namespace {

constexpr char kExternalSstFileVersion[] = "rocksdb.external_sst_file.version";
constexpr char kExternalSstFileGlobalSeqno[] = "rocksdb.external_sst_file.global_seqno";
constexpr int32_t kSstFileWriterVersion = 2;

// A key for an error message: printable ASCII as is, other bytes as \xNN,
// long keys cut (the message names the key, it does not have to hold it).
std::string PrintableKey(const Slice& key) {
  constexpr size_t kMaxShown = 64;
  std::string out;
  out.push_back('\'');
  const size_t n = key.size() < kMaxShown ? key.size() : kMaxShown;
  for (size_t i = 0; i < n; i++) {
    const unsigned char c = static_cast<unsigned char>(key[i]);
    if (c >= 0x20 && c < 0x7f && c != '\\' && c != '\'') {
      out.push_back(static_cast<char>(c));
    } else {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\x%02x", c);
      out.append(buf);
    }
  }
  if (n < key.size()) out.append("...");
  out.push_back('\'');
  return out;
}

}  // namespace

struct SstFileWriter::Rep {
  explicit Rep(const Options& opts) : options(opts) {
    if (options.env == nullptr) options.env = Env::Default();
    if (options.comparator == nullptr) options.comparator = BytewiseComparator();
    table_options = options.table_factory != nullptr ? options.table_factory->table_options()
                                                     : BlockBasedTableOptions();
  }

  // Adds a point entry at sequence 0 after checking the key order.
  Status Add(const Slice& user_key, const Slice& value, ValueType type) {
    if (builder == nullptr) return Status::InvalidArgument("SstFileWriter: file is not opened");
    if (info.num_entries > 0 && options.comparator->Compare(user_key, info.largest_key) <= 0) {
      return Status::InvalidArgument(
          "SstFileWriter: keys must be added in strictly increasing order: " +
          PrintableKey(user_key) + " after " + PrintableKey(info.largest_key));
    }
    ikey.clear();
    AppendInternalKey(&ikey, user_key, 0, type);
    builder->Add(ikey, value);
    Status s = builder->status();
    if (!s.ok()) return s;
    if (info.num_entries == 0) info.smallest_key.assign(user_key.data(), user_key.size());
    info.largest_key.assign(user_key.data(), user_key.size());
    info.num_entries++;
    info.file_size = builder->FileSize();
    return Status::OK();
  }

  // Drops an unfinished file: abandons the builder and closes the file.
  void Abandon() {
    if (builder != nullptr) {
      builder->Abandon();
      builder.reset();
    }
    if (file != nullptr) {
      file->Close().PermitUncheckedError();
      file.reset();
    }
  }

  Options options;  // env and comparator never null
  BlockBasedTableOptions table_options;
  // Kept for the builder's lifetime (it need not copy them).
  TableBuilderOptions builder_options;
  std::unique_ptr<FileChecksumGenerator> checksum_gen;  // with a checksum factory
  std::unique_ptr<WritableFile> file;
  std::unique_ptr<BlockBasedTableBuilder> builder;  // non-null between Open and Finish
  ExternalSstFileInfo info;
  std::string ikey;  // reused internal-key buffer
};

SstFileWriter::SstFileWriter(const Options& options) : rep_(std::make_unique<Rep>(options)) {}

SstFileWriter::~SstFileWriter() { rep_->Abandon(); }

Status SstFileWriter::Open(const std::string& file_path) {
  Rep* r = rep_.get();
  r->Abandon();  // a file left unfinished by an earlier Open
  if (r->options.comparator->timestamp_size() != 0) {
    return Status::NotSupported(std::string("SstFileWriter: comparator ") +
                                r->options.comparator->Name() +
                                " has a timestamp size; Strata has no user-defined timestamps");
  }
  if (Status fs = ValidateFormatVersionForWrite(r->table_options.format_version); !fs.ok()) {
    return fs;
  }

  FileOptions file_options;
  file_options.use_mmap_writes = r->options.allow_mmap_writes;
  file_options.writable_file_max_buffer_size = r->options.writable_file_max_buffer_size;
  std::unique_ptr<WritableFile> file;
  Status s = r->options.env->GetFileSystem()->NewWritableFile(file_path, file_options, &file);
  if (!s.ok()) return s;
  r->checksum_gen.reset();
  if (r->options.file_checksum_gen_factory != nullptr) {
    // RocksDB's context for a new table file: its name, no requested
    // function.
    FileChecksumGenContext context;
    context.file_name = file_path;
    r->checksum_gen = r->options.file_checksum_gen_factory->CreateFileChecksumGenerator(context);
    if (r->checksum_gen != nullptr) {
      file = NewChecksummingWritableFile(std::move(file), r->checksum_gen.get());
    }
  }

  TableBuilderOptions& tbo = r->builder_options;
  tbo = TableBuilderOptions();
  tbo.table_options = r->table_options;
  tbo.user_comparator = r->options.comparator;
  tbo.prefix_extractor = r->options.prefix_extractor.get();
  if (r->options.merge_operator != nullptr) {
    tbo.merge_operator_name = r->options.merge_operator->Name();
  }
  // RocksDB's choice for external files (they are ingested as deep as
  // possible): bottommost_compression when set (with its options when
  // enabled), else the last per-level entry, else `compression`.
  const Options& o = r->options;
  CompressionType type = o.compression;
  tbo.compression_opts = o.compression_opts;
  if (o.bottommost_compression != kDisableCompressionOption) {
    type = o.bottommost_compression;
    if (o.bottommost_compression_opts.enabled) tbo.compression_opts = o.bottommost_compression_opts;
  } else if (!o.compression_per_level.empty()) {
    type = o.compression_per_level.back();
  }
  tbo.compression = type == kDisableCompressionOption ? kNoCompression : type;
  tbo.column_family_name = "";
  tbo.column_family_id = 0x7fffffff;
  tbo.db_id = "SST Writer";
  // Level unknown (a Ribbon policy treats the file as bottommost).
  tbo.compaction_style = o.compaction_style;
  // RocksDB's SstFileWriter runs the family's collectors too (level and
  // family unknown).
  tbo.collector_factories = &r->options.table_properties_collector_factories;
  std::string version;
  PutFixed32(&version, static_cast<uint32_t>(kSstFileWriterVersion));
  tbo.extra_properties[kExternalSstFileVersion] = version;
  std::string global_seqno;
  PutFixed64(&global_seqno, 0);
  tbo.extra_properties[kExternalSstFileGlobalSeqno] = global_seqno;

  r->file = std::move(file);
  r->builder = std::make_unique<BlockBasedTableBuilder>(tbo, r->file.get());
  r->info = ExternalSstFileInfo();
  r->info.file_path = file_path;
  r->info.sequence_number = 0;
  r->info.version = kSstFileWriterVersion;
  return Status::OK();
}

Status SstFileWriter::Put(const Slice& user_key, const Slice& value) {
  return rep_->Add(user_key, value, kTypeValue);
}

Status SstFileWriter::Merge(const Slice& user_key, const Slice& value) {
  return rep_->Add(user_key, value, kTypeMerge);
}

Status SstFileWriter::Delete(const Slice& user_key) {
  return rep_->Add(user_key, Slice(), kTypeDeletion);
}

Status SstFileWriter::DeleteRange(const Slice& begin_key, const Slice& end_key) {
  Rep* r = rep_.get();
  if (r->builder == nullptr) return Status::InvalidArgument("SstFileWriter: file is not opened");
  if (r->options.comparator->Compare(begin_key, end_key) >= 0) {
    return Status::InvalidArgument("SstFileWriter: empty or inverted range deletion: begin " +
                                   PrintableKey(begin_key) + " is not before end " +
                                   PrintableKey(end_key));
  }
  r->builder->AddRangeTombstone(begin_key, 0, end_key);
  Status s = r->builder->status();
  if (!s.ok()) return s;
  // The bounds of all range deletions (RocksDB's smallest/largest_range_del_key).
  const Comparator* ucmp = r->options.comparator;
  if (r->info.num_range_del_entries == 0 ||
      ucmp->Compare(begin_key, r->info.smallest_range_del_key) < 0) {
    r->info.smallest_range_del_key.assign(begin_key.data(), begin_key.size());
  }
  if (r->info.num_range_del_entries == 0 ||
      ucmp->Compare(end_key, r->info.largest_range_del_key) > 0) {
    r->info.largest_range_del_key.assign(end_key.data(), end_key.size());
  }
  r->info.num_range_del_entries++;
  r->info.file_size = r->builder->FileSize();
  return Status::OK();
}

Status SstFileWriter::Finish(ExternalSstFileInfo* file_info) {
  Rep* r = rep_.get();
  if (r->builder == nullptr) return Status::InvalidArgument("SstFileWriter: file is not opened");
  if (r->info.num_entries == 0 && r->info.num_range_del_entries == 0) {
    // Like RocksDB, the file stays open: entries may still be added.
    return Status::InvalidArgument("Cannot create sst file with no entries");
  }

  Status s = r->builder->Finish();
  r->info.file_size = r->builder->FileSize();
  if (s.ok()) s = r->options.use_fsync ? r->file->Fsync() : r->file->Sync();
  Status close_status = r->file->Close();  // closed in every case
  if (s.ok()) {
    s = close_status;
  } else {
    close_status.PermitUncheckedError();
  }
  r->builder.reset();
  r->file.reset();
  if (s.ok()) {
    if (r->checksum_gen != nullptr) {
      r->checksum_gen->Finalize();
      r->info.file_checksum = r->checksum_gen->GetChecksum();
      r->info.file_checksum_func_name = r->checksum_gen->Name();
    } else {
      r->info.file_checksum = kUnknownFileChecksum;
      r->info.file_checksum_func_name = kUnknownFileChecksumFuncName;
    }
  }
  r->checksum_gen.reset();
  if (!s.ok()) {
    // A half-written table must not be mistaken for a good one.
    r->options.env->GetFileSystem()->DeleteFile(r->info.file_path).PermitUncheckedError();
  }
  if (file_info != nullptr) *file_info = r->info;
  return s;
}

uint64_t SstFileWriter::FileSize() { return rep_->info.file_size; }

}  // namespace strata
