// The crc32c file checksum function and the checksum list
// (strata/file_checksum.h).
#include "strata/file_checksum.h"

#include <map>
#include <utility>

#include "strata/convenience.h"
#include "util/crc32c.h"

namespace strata {

namespace {

// RocksDB's FileChecksumGenCrc32c: the plain (unmasked) CRC-32C of the
// file's bytes, finalized as 4 bytes, most significant first.
class Crc32cGenerator final : public FileChecksumGenerator {
 public:
  void Update(const char* data, size_t n) override { crc_ = crc32c::Extend(crc_, data, n); }
  void Finalize() override {
    checksum_.clear();
    for (int shift = 24; shift >= 0; shift -= 8) {
      checksum_.push_back(static_cast<char>((crc_ >> shift) & 0xff));
    }
  }
  std::string GetChecksum() const override { return checksum_; }
  const char* Name() const override { return kStandardDbFileChecksumFuncName; }

 private:
  uint32_t crc_ = 0;
  std::string checksum_;
};

class Crc32cFactory final : public FileChecksumGenFactory {
 public:
  std::unique_ptr<FileChecksumGenerator> CreateFileChecksumGenerator(
      const FileChecksumGenContext& context) override {
    const std::string& want = context.requested_checksum_func_name;
    if (!want.empty() && want != kStandardDbFileChecksumFuncName) return nullptr;
    return std::make_unique<Crc32cGenerator>();
  }
  const char* Name() const override { return "FileChecksumGenCrc32cFactory"; }
};

class ChecksumListImpl final : public FileChecksumList {
 public:
  void reset() override { entries_.clear(); }
  size_t size() const override { return entries_.size(); }
  Status GetAllFileChecksums(std::vector<uint64_t>* file_numbers,
                             std::vector<std::string>* checksums,
                             std::vector<std::string>* checksum_func_names) override {
    if (file_numbers == nullptr || checksums == nullptr || checksum_func_names == nullptr) {
      return Status::InvalidArgument("Pointer has not been initiated");
    }
    for (const auto& [number, entry] : entries_) {
      file_numbers->push_back(number);
      checksums->push_back(entry.first);
      checksum_func_names->push_back(entry.second);
    }
    return Status::OK();
  }
  Status SearchOneFileChecksum(uint64_t file_number, std::string* checksum,
                               std::string* checksum_func_name) override {
    if (checksum == nullptr || checksum_func_name == nullptr) {
      return Status::InvalidArgument("Pointer has not been initiated");
    }
    auto it = entries_.find(file_number);
    if (it == entries_.end()) return Status::NotFound();
    *checksum = it->second.first;
    *checksum_func_name = it->second.second;
    return Status::OK();
  }
  Status InsertOneFileChecksum(uint64_t file_number, const std::string& checksum,
                               const std::string& checksum_func_name) override {
    entries_[file_number] = {checksum, checksum_func_name};
    return Status::OK();
  }
  Status RemoveOneFileChecksum(uint64_t file_number) override {
    return entries_.erase(file_number) == 0 ? Status::NotFound() : Status::OK();
  }

 private:
  std::map<uint64_t, std::pair<std::string, std::string>> entries_;
};

}  // namespace

std::unique_ptr<FileChecksumList> NewFileChecksumList() {
  return std::make_unique<ChecksumListImpl>();
}

std::shared_ptr<FileChecksumGenFactory> GetFileChecksumGenCrc32cFactory() {
  static const std::shared_ptr<FileChecksumGenFactory> factory = std::make_shared<Crc32cFactory>();
  return factory;
}

Status FileChecksumGenFactory::CreateFromString(const ConfigOptions& options,
                                                const std::string& value,
                                                std::shared_ptr<FileChecksumGenFactory>* result) {
  if (value.empty() || value == "nullptr") {
    result->reset();
    return Status::OK();
  }
  if (value == GetFileChecksumGenCrc32cFactory()->Name()) {
    *result = GetFileChecksumGenCrc32cFactory();
    return Status::OK();
  }
  if (options.ignore_unsupported_options) return Status::OK();
  return Status::NotSupported("FileChecksumGenFactory::CreateFromString: unknown factory", value);
}

}  // namespace strata
