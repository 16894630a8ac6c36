// DumpWalFile, DumpManifestFile (tools/ldb/ldb_file_dump.h).

#include "tools/ldb/ldb_file_dump.h"

#include <cinttypes>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "db/filename.h"
#include "db/log_format.h"
#include "db/log_reader.h"
#include "db/write_batch_internal.h"
#include "strata/comparator.h"
#include "strata/write_batch.h"
#include "tools/ldb/ldb_edit_text.h"
#include "tools/ldb/ldb_manifest.h"

namespace strata::ldb {
namespace {

struct StderrReporter : public log::Reader::Reporter {
  void Corruption(size_t /*bytes*/, const Status& s) override {
    std::cerr << "Corruption detected in log file " << s.ToString() << "\n";
  }
};

// Appends a batch's records in ldb's dump_wal shape.
class RowPrinter : public WriteBatch::Handler {
 public:
  RowPrinter(std::ostringstream* row, bool print_values) : row_(row), values_(print_values) {}
  Status PutCF(uint32_t cf, const Slice& key, const Slice& value) override {
    *row_ << "PUT(" << cf << ") : ";
    KeyAndValue(key, value);
    return Status::OK();
  }
  Status MergeCF(uint32_t cf, const Slice& key, const Slice& value) override {
    *row_ << "MERGE(" << cf << ") : ";
    KeyAndValue(key, value);
    return Status::OK();
  }
  Status DeleteCF(uint32_t cf, const Slice& key) override {
    *row_ << "DELETE(" << cf << ") : " << StringToHex(key) << " ";
    return Status::OK();
  }
  Status SingleDeleteCF(uint32_t cf, const Slice& key) override {
    *row_ << "SINGLE_DELETE(" << cf << ") : " << StringToHex(key) << " ";
    return Status::OK();
  }
  Status DeleteRangeCF(uint32_t cf, const Slice& begin, const Slice& end) override {
    *row_ << "DELETE_RANGE(" << cf << ") : " << StringToHex(begin) << " " << StringToHex(end)
          << " ";
    return Status::OK();
  }
  // The two-phase-commit markers and Noop, in ldb's words (RocksDB's
  // InMemoryHandler): the xid in hex, unprepare as true/false. LogData
  // prints nothing, as in ldb.
  Status MarkNoop(bool /*empty_batch*/) override {
    *row_ << "NOOP ";
    return Status::OK();
  }
  Status MarkBeginPrepare(bool unprepare) override {
    *row_ << "BEGIN_PREPARE(" << (unprepare ? "true" : "false") << ") ";
    // dump_wal reads as a WriteCommitted DB (--write_committed=true, the
    // only mode strata has): RocksDB refuses WriteUnprepared's marker then,
    // with this text.
    if (unprepare) {
      return Status::NotSupported(
          "WriteUnprepared txn tag when write_after_commit_ is enabled (in default "
          "WriteCommitted mode). If it is not due to corruption, the WAL must be emptied "
          "before changing the WritePolicy.");
    }
    return Status::OK();
  }
  Status MarkEndPrepare(const Slice& xid) override {
    *row_ << "END_PREPARE(" << StringToHex(xid) << ") ";
    return Status::OK();
  }
  Status MarkRollback(const Slice& xid) override {
    *row_ << "ROLLBACK(" << StringToHex(xid) << ") ";
    return Status::OK();
  }
  Status MarkCommit(const Slice& xid) override {
    *row_ << "COMMIT(" << StringToHex(xid) << ") ";
    return Status::OK();
  }

 private:
  void KeyAndValue(const Slice& key, const Slice& value) {
    *row_ << StringToHex(key) << " ";
    if (values_) *row_ << ": " << StringToHex(value) << " ";
  }
  std::ostringstream* row_;
  const bool values_;
};

}  // namespace

void DumpWalFile(const std::string& path, bool print_header, bool print_values, ExecState* state) {
  FileSystem* fs = Env::Default()->GetFileSystem();
  std::unique_ptr<SequentialFile> file;
  Status s = fs->NewSequentialFile(path, FileOptions(), &file);
  if (!s.ok()) {
    state->Fail("Failed to open WAL file " + s.ToString());
    return;
  }
  uint64_t number = 0;
  FileType type;
  const size_t slash = path.rfind('/');
  if (!ParseFileName(slash == std::string::npos ? path : path.substr(slash + 1), &number, &type)) {
    number = 0;
  }
  StderrReporter reporter;
  log::Reader reader(std::move(file), &reporter, true, number, path);
  if (print_header) {
    std::cout << "Sequence,Count,ByteSize,Physical Offset,Key(s)";
    if (print_values) std::cout << " : value ";
    std::cout << "\n";
  }
  Slice record;
  std::string scratch;
  uint64_t previous_end = 0;  // where the last record read ended
  while (reader.ReadRecord(&record, &scratch)) {
    // ldb names the offset its reader stood at before the record: when the
    // record starts a block because the writer padded the previous block's
    // last few bytes (fewer than a header), that is the padding's start.
    uint64_t offset = reader.LastRecordOffset();
    if (offset % log::kBlockSize == 0 && offset > previous_end &&
        offset - previous_end < log::kRecyclableHeaderSize) {
      offset = previous_end;
    }
    previous_end = reader.LastRecordEndOffset();
    std::ostringstream row;
    if (record.size() < WriteBatchInternal::kHeader) {
      reporter.Corruption(record.size(), Status::Corruption("log record too small"));
    } else {
      WriteBatch batch;
      s = WriteBatchInternal::SetContents(&batch, record);
      if (!s.ok()) {
        state->Fail("Parsing write batch failed: " + s.ToString());
        break;
      }
      row << WriteBatchInternal::Sequence(&batch) << ",";
      row << WriteBatchInternal::Count(&batch) << ",";
      row << WriteBatchInternal::ByteSize(&batch) << ",";
      row << offset << ",";
      RowPrinter printer(&row, print_values);
      s = batch.Iterate(&printer);
      if (!s.ok()) {
        // As ldb: the batch's row is dropped, the command fails.
        state->Fail("Print write batch error: " + s.ToString());
        break;
      }
      row << "\n";
    }
    std::cout << row.str();
  }
  std::cout.flush();
}

void DumpManifestFile(const std::string& path, bool verbose, bool hex, bool json) {
  ManifestState state;
  std::function<void(const VersionEdit&)> on_edit;
  if (verbose || json) {
    on_edit = [hex](const VersionEdit& edit) {
      const std::string text = VersionEditText(edit, hex);
      std::fwrite(text.data(), 1, text.size(), stdout);
    };
  }
  Status s = ReadManifest(Env::Default()->GetFileSystem(), path, on_edit, &state);
  if (!s.ok()) {
    std::fflush(stdout);
    std::fprintf(stderr, "Error in processing file %s %s\n", path.c_str(), s.ToString().c_str());
    return;
  }
  const std::string bytewise = BytewiseComparator()->Name();
  int version = state.families_created;
  for (const ManifestFamily& f : state.families) {
    std::printf("--------------- Column family \"%s\"  (ID %" PRIu32 ") --------------\n",
                f.name.c_str(), f.id);
    std::printf("log number: %" PRIu64 "\n", f.log_number);
    if (!f.comparator.empty() && f.comparator != bytewise) {
      std::printf("comparator: <%s>, but the comparator object is not available.\n",
                  f.comparator.c_str());
    } else {
      std::printf("comparator: %s\n", bytewise.c_str());
    }
    std::string r;
    for (int level = 0; level < kDumpLevels; ++level) {
      r.append("--- level " + std::to_string(level) + " --- version# " + std::to_string(version) +
               " ---\n");
      for (const FileMetaData& m : f.levels[level]) {
        r.append(" " + std::to_string(m.number) + ":" + std::to_string(m.file_size) + "[" +
                 std::to_string(m.smallest_seqno) + " .. " + std::to_string(m.largest_seqno) +
                 "][" + InternalKeyDebugString(m.smallest, hex) + " .. " +
                 InternalKeyDebugString(m.largest, hex) + "]");
        if (m.oldest_blob_file_number != 0) {
          r.append(" blob_file:" + std::to_string(m.oldest_blob_file_number));
        }
        r.append("\n");
      }
    }
    std::fwrite(r.data(), 1, r.size(), stdout);
    ++version;
  }
  std::printf("next_file_number %" PRIu64 " last_sequence %" PRIu64 "  prev_log_number %" PRIu64
              " max_column_family %" PRIu32 " min_log_number_to_keep %" PRIu64 "\n",
              state.next_file_number + 1, state.last_sequence, state.prev_log_number,
              state.max_column_family, state.min_log_number_to_keep);
}

void DumpFileByType(const std::string& path, bool hex, ExecState* state) {
  const size_t slash = path.rfind('/');
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  uint64_t number = 0;
  FileType type;
  if (!ParseFileName(name, &number, &type)) {
    state->Fail("Can't parse file type: " + path);
    return;
  }
  switch (type) {
    case FileType::kWalFile:
      DumpWalFile(path, true, true, state);
      break;
    case FileType::kDescriptorFile:
      DumpManifestFile(path, false, hex, false);
      break;
    case FileType::kTableFile:
      state->Fail("dump --path of a table file is not supported by strata; use sst_dump: " + path);
      break;
    default:
      state->Fail("File type not supported: " + path);
      break;
  }
}

}  // namespace strata::ldb
