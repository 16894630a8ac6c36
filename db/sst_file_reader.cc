// SstFileReader (include/strata/sst_file_writer.h): one BlockBasedTable
// opened outside any DB, read through a DBIter.
//
// The iterator shows the newest entry of each user key at the read
// sequence (the snapshot's, else kMaxSequenceNumber) and hides deletions.
// Like RocksDB's SstFileReader it does not apply the file's range
// tombstones to its point keys, and a merge operand surfaces as the
// DBIter's error status (merge is not supported in this slice).
// Table options come from options.table_factory; without one, defaults with
// no block cache: a lone-file reader reads each block once per iterator
// position and has nothing to share a cache with.
// The reader must outlive its iterators (they read the reader's table).
#include <memory>
#include <string>
#include <vector>

#include "base/dbformat.h"
#include "db/db_iter.h"
#include "strata/snapshot.h"
#include "strata/sst_file_writer.h"
#include "strata/table.h"
#include "table/block_based_table_reader.h"

namespace strata {

struct SstFileReader::Rep {
  explicit Rep(const Options& opts) : options(opts) {
    if (options.env == nullptr) options.env = Env::Default();
    if (options.comparator == nullptr) options.comparator = BytewiseComparator();
  }

  Options options;                         // env and comparator never null
  std::unique_ptr<BlockBasedTable> table;  // null until Open succeeds
};

SstFileReader::SstFileReader(const Options& options) : rep_(std::make_unique<Rep>(options)) {}

SstFileReader::~SstFileReader() = default;

Status SstFileReader::Open(const std::string& file_path) {
  Rep* r = rep_.get();
  r->table.reset();
  FileSystem* fs = r->options.env->GetFileSystem();

  uint64_t file_size = 0;
  Status s = fs->GetFileSize(file_path, &file_size);
  if (!s.ok()) return s;
  FileOptions file_options;
  file_options.use_mmap_reads = r->options.allow_mmap_reads;
  file_options.use_direct_reads = r->options.use_direct_reads;
  std::unique_ptr<RandomAccessFile> file;
  s = fs->NewRandomAccessFile(file_path, file_options, &file);
  if (!s.ok()) return s;

  TableReaderOptions tro;
  if (r->options.table_factory != nullptr) {
    tro.table_options = r->options.table_factory->table_options();
  }
  tro.user_comparator = r->options.comparator;
  tro.prefix_extractor = r->options.prefix_extractor.get();
  tro.file_name = file_path;
  tro.statistics = r->options.statistics.get();
  return BlockBasedTable::Open(tro, std::move(file), file_size, &r->table);
}

std::unique_ptr<Iterator> SstFileReader::NewIterator(const ReadOptions& read_options) {
  Rep* r = rep_.get();
  if (r->table == nullptr) {
    return NewErrorIterator(Status::InvalidArgument("SstFileReader: file is not opened"));
  }
  const SequenceNumber sequence = read_options.snapshot != nullptr
                                      ? read_options.snapshot->GetSequenceNumber()
                                      : kMaxSequenceNumber;
  return NewDBIterator(read_options, r->options.comparator, r->table->NewIterator(read_options),
                       sequence, r->options.statistics.get(), nullptr);
}

std::shared_ptr<const TableProperties> SstFileReader::GetTableProperties() const {
  return rep_->table != nullptr ? rep_->table->GetTableProperties() : nullptr;
}

Status SstFileReader::VerifyChecksum(const ReadOptions& /*read_options*/) {
  if (rep_->table == nullptr) return Status::InvalidArgument("SstFileReader: file is not opened");
  return rep_->table->VerifyChecksum();
}

}  // namespace strata
