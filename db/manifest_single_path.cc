#include "db/manifest_single_path.h"

#include <algorithm>
#include <cstring>
#include <memory>

#include "db/log_reader.h"
#include "db/log_writer.h"
#include "db/version_edit.h"

namespace strata {

namespace {

// The bytes read so far, for log::Reader.
class StringSource : public SequentialFile {
 public:
  explicit StringSource(std::string data) : data_(std::move(data)) {}
  Status Read(size_t n, Slice* result, char* scratch) override {
    n = std::min(n, data_.size() - pos_);
    std::memcpy(scratch, data_.data() + pos_, n);
    *result = Slice(scratch, n);
    pos_ += n;
    return Status::OK();
  }
  Status Skip(uint64_t n) override {
    pos_ += static_cast<size_t>(std::min<uint64_t>(n, data_.size() - pos_));
    return Status::OK();
  }

 private:
  const std::string data_;
  size_t pos_ = 0;
};

// Appends to a string the caller owns, for log::Writer.
class StringSink : public WritableFile {
 public:
  explicit StringSink(std::string* out) : out_(out) {}
  Status Append(const Slice& data) override {
    out_->append(data.data(), data.size());
    return Status::OK();
  }
  Status Flush() override { return Status::OK(); }
  Status Sync() override { return Status::OK(); }
  Status Close() override { return Status::OK(); }
  uint64_t GetFileSize() const override { return out_->size(); }

 private:
  std::string* const out_;
};

struct FirstError : log::Reader::Reporter {
  Status status;
  void Corruption(size_t, const Status& s) override {
    if (status.ok()) status = s;
  }
};

}  // namespace

Status ManifestInOnePath(FileSystem* fs, const std::string& path, uint64_t size,
                         uint64_t manifest_number, std::string* contents, bool* changed) {
  contents->clear();
  *changed = false;
  std::unique_ptr<SequentialFile> file;
  Status s = fs->NewSequentialFile(path, FileOptions(), &file);
  if (!s.ok()) return s;
  std::string data(static_cast<size_t>(size), '\0');
  Slice got;
  s = file->Read(data.size(), &got, data.data());
  if (!s.ok()) return s;
  if (got.size() != size) {
    return Status::Corruption(path, "shorter than the " + std::to_string(size) +
                                        " bytes to copy (" + std::to_string(got.size()) + ")");
  }
  if (got.data() != data.data()) data.assign(got.data(), got.size());
  FirstError reporter;
  log::Reader reader(std::make_unique<StringSource>(std::move(data)), &reporter,
                     /*checksum=*/true, manifest_number, path);
  log::Writer writer(std::make_unique<StringSink>(contents), manifest_number,
                     /*recycle_log_files=*/false);
  Slice record;
  std::string scratch;
  while (reader.ReadRecord(&record, &scratch, WALRecoveryMode::kAbsoluteConsistency)) {
    VersionEdit edit;
    s = edit.DecodeFrom(record);
    if (!s.ok()) return Status::Corruption(path, s.ToString());
    if (edit.ClearPathIds()) *changed = true;
    std::string encoded;
    edit.EncodeTo(&encoded);
    s = writer.AddRecord(encoded);
    if (!s.ok()) return s;
  }
  if (!reporter.status.ok()) return reporter.status;
  return writer.Close();
}

}  // namespace strata
