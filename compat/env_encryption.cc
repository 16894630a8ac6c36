// compat/env_encryption.cc: encrypted files with RocksDB 7.8.3's format
// (rocksdb/env_encryption.h documents it): the CTR provider, the ROT13
// sample cipher, the encrypted file classes and file system.
#include "rocksdb/env_encryption.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <random>
#include <string>

#include "compat/env_internal.h"
#include "rocksdb/convenience.h"
#include "rocksdb/utilities/customizable_util.h"
#include "rocksdb/utilities/object_registry.h"
#include "rocksdb/utilities/options_type.h"

namespace rocksdb {
namespace {

void PutFixed64(char* dst, uint64_t v) {
  for (int i = 0; i < 8; ++i) dst[i] = static_cast<char>(v >> (8 * i));
}

uint64_t GetFixed64(const char* src) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(src[i]);
  return v;
}

IOStatus ToIO(const Status& s) {
  if (s.ok()) return IOStatus::OK();
  if (s.IsNotSupported()) return IOStatus::NotSupported(s.ToString());
  if (s.IsInvalidArgument()) return IOStatus::InvalidArgument(s.ToString());
  if (s.IsCorruption()) return IOStatus::Corruption(s.ToString());
  return IOStatus::IOError(s.ToString());
}

// RocksDB's sample cipher: adds 13 to each byte of a block (decrypting
// is the same operation, as RocksDB's; CTR only ever encrypts).
const std::unordered_map<std::string, OptionTypeInfo> kRot13Options = {
    {"block_size", OptionTypeInfo(0, OptionType::kSizeT)},
};

class ROT13BlockCipher : public BlockCipher {
 public:
  explicit ROT13BlockCipher(size_t block_size) : block_size_(block_size) {
    RegisterOptions("ROT13BlockCipherOptions", &block_size_, &kRot13Options);
  }
  static const char* kClassName() { return "ROT13"; }
  const char* Name() const override { return kClassName(); }
  size_t BlockSize() override { return block_size_; }
  Status Encrypt(char* data) override {
    for (size_t i = 0; i < block_size_; ++i) data[i] = static_cast<char>(data[i] + 13);
    return Status::OK();
  }
  Status Decrypt(char* data) override { return Encrypt(data); }

 private:
  size_t block_size_;
};

// Counter mode: block i is XORed with Encrypt(IV with its first 8 bytes
// replaced by fixed64(initial counter + i)).
class CTRCipherStream final : public BlockAccessCipherStream {
 public:
  CTRCipherStream(std::shared_ptr<BlockCipher> cipher, const char* iv, uint64_t initial_counter)
      : cipher_(std::move(cipher)),
        iv_(iv, cipher_->BlockSize()),
        initial_counter_(initial_counter) {}
  size_t BlockSize() override { return cipher_->BlockSize(); }

 protected:
  void AllocateScratch(std::string& scratch) override { scratch.resize(cipher_->BlockSize()); }
  Status EncryptBlock(uint64_t block_index, char* data, char* scratch) override {
    const size_t block = cipher_->BlockSize();
    memcpy(scratch, iv_.data(), block);
    PutFixed64(scratch, block_index + initial_counter_);
    Status s = cipher_->Encrypt(scratch);
    if (!s.ok()) return s;
    for (size_t i = 0; i < block; ++i) data[i] = static_cast<char>(data[i] ^ scratch[i]);
    return Status::OK();
  }
  Status DecryptBlock(uint64_t block_index, char* data, char* scratch) override {
    return EncryptBlock(block_index, data, scratch);
  }

 private:
  std::shared_ptr<BlockCipher> cipher_;
  std::string iv_;
  uint64_t initial_counter_;
};

const std::unordered_map<std::string, OptionTypeInfo> kCtrOptions = {
    {"cipher", OptionTypeInfo::AsCustomSharedPtr<BlockCipher>(0, OptionVerificationType::kByName,
                                                              OptionTypeFlags::kNone)},
};

class CTREncryptionProvider : public EncryptionProvider {
 public:
  static constexpr size_t kPrefixLength = 4096;

  explicit CTREncryptionProvider(const std::shared_ptr<BlockCipher>& cipher = nullptr)
      : cipher_(cipher) {
    RegisterOptions("Cipher", &cipher_, &kCtrOptions);
  }
  static const char* kClassName() { return "CTR"; }
  const char* Name() const override { return kClassName(); }
  bool IsInstanceOf(const std::string& name) const override {
    if (name == "1://test" && cipher_ != nullptr) return cipher_->IsInstanceOf("ROT13");
    return EncryptionProvider::IsInstanceOf(name);
  }
  size_t GetPrefixLength() const override { return kPrefixLength; }

  Status AddCipher(const std::string& /*descriptor*/, const char* cipher, size_t len,
                   bool /*for_write*/) override {
    if (cipher_ != nullptr) return Status::NotSupported("Cannot add keys to CTREncryptionProvider");
    if (strcmp(cipher, ROT13BlockCipher::kClassName()) == 0) {
      cipher_ = std::make_shared<ROT13BlockCipher>(len);
      return Status::OK();
    }
    return BlockCipher::CreateFromString(ConfigOptions(), cipher, &cipher_);
  }

  Status CreateNewPrefix(const std::string& /*fname*/, char* prefix,
                         size_t prefix_length) const override {
    if (cipher_ == nullptr) return Status::InvalidArgument("Encryption Cipher is missing");
    const size_t block = cipher_->BlockSize();
    if (block == 0 || prefix_length < 2 * block) {
      return Status::InvalidArgument("Encryption prefix too short for the cipher's block size");
    }
    std::random_device rd;
    std::mt19937_64 rng((static_cast<uint64_t>(rd()) << 32) ^ rd());
    for (size_t i = 0; i < prefix_length; ++i) prefix[i] = static_cast<char>(rng() & 0xff);
    // Blocks 0 and 1 (counter, IV) stay plain; the rest is encrypted.
    CTRCipherStream stream(cipher_, prefix + block, GetFixed64(prefix));
    return stream.Encrypt(0, prefix + 2 * block, prefix_length - 2 * block);
  }

  Status CreateCipherStream(const std::string& fname, const EnvOptions& /*options*/, Slice& prefix,
                            std::unique_ptr<BlockAccessCipherStream>* result) override {
    if (cipher_ == nullptr) return Status::InvalidArgument("Encryption Cipher is missing");
    const size_t block = cipher_->BlockSize();
    if (prefix.size() < 2 * block) {
      return Status::Corruption("Unable to read from file " + fname +
                                ": read attempt would read beyond file bounds");
    }
    const uint64_t counter = GetFixed64(prefix.data());
    const char* iv = prefix.data() + block;
    CTRCipherStream prefix_stream(cipher_, iv, counter);
    Status s = prefix_stream.Decrypt(0, const_cast<char*>(prefix.data()) + 2 * block,
                                     prefix.size() - 2 * block);
    if (!s.ok()) return s;
    result->reset(new CTRCipherStream(cipher_, iv, counter));
    return Status::OK();
  }

 private:
  std::shared_ptr<BlockCipher> cipher_;
};

// The built-in names, registered once in the default library (as RocksDB
// does): "CTR", "CTR://test", "1://test"; "ROT13", "ROT13:<n>".
void RegisterEncryptionBuiltins() {
  static std::once_flag once;
  std::call_once(once, [] {
    auto lib = ObjectRegistry::Default()->AddLibrary("encryption");
    lib->AddFactory<EncryptionProvider>(
        ObjectLibrary::PatternEntry(CTREncryptionProvider::kClassName(), true).AddSuffix("://test"),
        [](const std::string& uri, std::unique_ptr<EncryptionProvider>* guard, std::string*) {
          const bool test = uri.size() >= 7 && uri.compare(uri.size() - 7, 7, "://test") == 0;
          guard->reset(test ? new CTREncryptionProvider(std::make_shared<ROT13BlockCipher>(32))
                            : new CTREncryptionProvider());
          return guard->get();
        });
    lib->AddFactory<EncryptionProvider>(
        "1://test",
        [](const std::string&, std::unique_ptr<EncryptionProvider>* guard, std::string*) {
          guard->reset(new CTREncryptionProvider(std::make_shared<ROT13BlockCipher>(32)));
          return guard->get();
        });
    lib->AddFactory<BlockCipher>(
        ObjectLibrary::PatternEntry(ROT13BlockCipher::kClassName(), true).AddNumber(":"),
        [](const std::string& uri, std::unique_ptr<BlockCipher>* guard, std::string*) {
          const size_t colon = uri.find(':');
          const size_t block = colon == std::string::npos ? 32 : std::stoull(uri.substr(colon + 1));
          guard->reset(new ROT13BlockCipher(block));
          return guard->get();
        });
  });
}

}  // namespace

// ---- the cipher stream ----

namespace {

// Applies one of the stream's block functions to data at file_offset,
// through a block-sized buffer for partial blocks.
template <typename BlockFn>
Status ApplyBlocks(size_t block_size, uint64_t file_offset, char* data, size_t size,
                   std::string& scratch, BlockFn fn) {
  if (block_size == 0) return Status::InvalidArgument("Cipher block size is 0");
  uint64_t index = file_offset / block_size;
  size_t in_block = static_cast<size_t>(file_offset % block_size);
  std::unique_ptr<char[]> partial;
  while (size > 0) {
    const size_t n = std::min(size, block_size - in_block);
    char* block = data;
    if (n != block_size) {
      if (!partial) partial.reset(new char[block_size]());
      block = partial.get();
      memcpy(block + in_block, data, n);
    }
    Status s = fn(index, block, &scratch[0]);
    if (!s.ok()) return s;
    if (block != data) memcpy(data, block + in_block, n);
    size -= n;
    data += n;
    in_block = 0;
    ++index;
  }
  return Status::OK();
}

}  // namespace

Status BlockAccessCipherStream::Encrypt(uint64_t fileOffset, char* data, size_t dataSize) {
  std::string scratch;
  AllocateScratch(scratch);
  if (scratch.size() < BlockSize()) scratch.resize(BlockSize());
  return ApplyBlocks(BlockSize(), fileOffset, data, dataSize, scratch,
                     [this](uint64_t i, char* b, char* sc) { return EncryptBlock(i, b, sc); });
}

Status BlockAccessCipherStream::Decrypt(uint64_t fileOffset, char* data, size_t dataSize) {
  std::string scratch;
  AllocateScratch(scratch);
  if (scratch.size() < BlockSize()) scratch.resize(BlockSize());
  return ApplyBlocks(BlockSize(), fileOffset, data, dataSize, scratch,
                     [this](uint64_t i, char* b, char* sc) { return DecryptBlock(i, b, sc); });
}

std::shared_ptr<BlockCipher> BlockCipher::NewROT13Cipher(size_t block_size) {
  return std::make_shared<ROT13BlockCipher>(block_size);
}

std::shared_ptr<EncryptionProvider> EncryptionProvider::NewCTRProvider(
    const std::shared_ptr<BlockCipher>& cipher) {
  return std::make_shared<CTREncryptionProvider>(cipher);
}

Status BlockCipher::CreateFromString(const ConfigOptions& config_options, const std::string& value,
                                     std::shared_ptr<BlockCipher>* result) {
  RegisterEncryptionBuiltins();
  return LoadSharedObject<BlockCipher>(config_options, value, nullptr, result);
}

Status EncryptionProvider::CreateFromString(const ConfigOptions& config_options,
                                            const std::string& value,
                                            std::shared_ptr<EncryptionProvider>* result) {
  RegisterEncryptionBuiltins();
  return LoadSharedObject<EncryptionProvider>(config_options, value, nullptr, result);
}

// ---- files ----

IOStatus EncryptedSequentialFile::Read(size_t n, const IOOptions& options, Slice* result,
                                       char* scratch, IODebugContext* dbg) {
  IOStatus s = file_->Read(n, options, result, scratch, dbg);
  if (!s.ok()) return s;
  // The bytes may sit in the file's own buffer: decrypt a copy in scratch.
  if (result->data() != scratch) {
    memmove(scratch, result->data(), result->size());
    *result = Slice(scratch, result->size());
  }
  s = ToIO(stream_->Decrypt(offset_, scratch, result->size()));
  offset_ += result->size();
  return s;
}

IOStatus EncryptedSequentialFile::Skip(uint64_t n) {
  IOStatus s = file_->Skip(n);
  if (s.ok()) offset_ += n;
  return s;
}

bool EncryptedSequentialFile::use_direct_io() const { return file_->use_direct_io(); }

size_t EncryptedSequentialFile::GetRequiredBufferAlignment() const {
  return file_->GetRequiredBufferAlignment();
}

IOStatus EncryptedSequentialFile::InvalidateCache(size_t offset, size_t length) {
  return file_->InvalidateCache(offset + prefixLength_, length);
}

IOStatus EncryptedSequentialFile::PositionedRead(uint64_t offset, size_t n,
                                                 const IOOptions& options, Slice* result,
                                                 char* scratch, IODebugContext* dbg) {
  offset += prefixLength_;
  IOStatus s = file_->PositionedRead(offset, n, options, result, scratch, dbg);
  if (!s.ok()) return s;
  if (result->data() != scratch) {
    memmove(scratch, result->data(), result->size());
    *result = Slice(scratch, result->size());
  }
  offset_ = offset + result->size();
  return ToIO(stream_->Decrypt(offset, scratch, result->size()));
}

IOStatus EncryptedRandomAccessFile::Read(uint64_t offset, size_t n, const IOOptions& options,
                                         Slice* result, char* scratch, IODebugContext* dbg) const {
  offset += prefixLength_;
  IOStatus s = file_->Read(offset, n, options, result, scratch, dbg);
  if (!s.ok()) return s;
  if (result->data() != scratch) {
    memmove(scratch, result->data(), result->size());
    *result = Slice(scratch, result->size());
  }
  return ToIO(stream_->Decrypt(offset, scratch, result->size()));
}

IOStatus EncryptedRandomAccessFile::Prefetch(uint64_t offset, size_t n, const IOOptions& options,
                                             IODebugContext* dbg) {
  return file_->Prefetch(offset + prefixLength_, n, options, dbg);
}

size_t EncryptedRandomAccessFile::GetUniqueId(char* id, size_t max_size) const {
  return file_->GetUniqueId(id, max_size);
}

void EncryptedRandomAccessFile::Hint(AccessPattern pattern) { file_->Hint(pattern); }

bool EncryptedRandomAccessFile::use_direct_io() const { return file_->use_direct_io(); }

size_t EncryptedRandomAccessFile::GetRequiredBufferAlignment() const {
  return file_->GetRequiredBufferAlignment();
}

IOStatus EncryptedRandomAccessFile::InvalidateCache(size_t offset, size_t length) {
  return file_->InvalidateCache(offset + prefixLength_, length);
}

IOStatus EncryptedWritableFile::Append(const Slice& data, const IOOptions& options,
                                       IODebugContext* dbg) {
  if (data.empty()) return file_->Append(data, options, dbg);
  // The absolute offset: the file's own count, or ours if it keeps none.
  uint64_t offset = file_->GetFileSize(options, dbg);
  if (offset < prefixLength_) offset = written_;
  std::string buf(data.data(), data.size());
  IOStatus s = ToIO(stream_->Encrypt(offset, &buf[0], buf.size()));
  if (!s.ok()) return s;
  s = file_->Append(Slice(buf), options, dbg);
  if (s.ok()) written_ = offset + buf.size();
  return s;
}

IOStatus EncryptedWritableFile::PositionedAppend(const Slice& data, uint64_t offset,
                                                 const IOOptions& options, IODebugContext* dbg) {
  offset += prefixLength_;
  std::string buf(data.data(), data.size());
  if (!buf.empty()) {
    IOStatus s = ToIO(stream_->Encrypt(offset, &buf[0], buf.size()));
    if (!s.ok()) return s;
  }
  IOStatus s = file_->PositionedAppend(Slice(buf), offset, options, dbg);
  if (s.ok()) written_ = std::max<uint64_t>(written_, offset + buf.size());
  return s;
}

bool EncryptedWritableFile::IsSyncThreadSafe() const { return file_->IsSyncThreadSafe(); }

bool EncryptedWritableFile::use_direct_io() const { return file_->use_direct_io(); }

size_t EncryptedWritableFile::GetRequiredBufferAlignment() const {
  return file_->GetRequiredBufferAlignment();
}

uint64_t EncryptedWritableFile::GetFileSize(const IOOptions& options, IODebugContext* dbg) {
  uint64_t size = file_->GetFileSize(options, dbg);
  if (size < prefixLength_) size = written_;
  return size - prefixLength_;
}

IOStatus EncryptedWritableFile::Truncate(uint64_t size, const IOOptions& options,
                                         IODebugContext* dbg) {
  IOStatus s = file_->Truncate(size + prefixLength_, options, dbg);
  if (s.ok()) written_ = size + prefixLength_;
  return s;
}

IOStatus EncryptedWritableFile::InvalidateCache(size_t offset, size_t length) {
  return file_->InvalidateCache(offset + prefixLength_, length);
}

IOStatus EncryptedWritableFile::RangeSync(uint64_t offset, uint64_t nbytes,
                                          const IOOptions& options, IODebugContext* dbg) {
  return file_->RangeSync(offset + prefixLength_, nbytes, options, dbg);
}

void EncryptedWritableFile::PrepareWrite(size_t offset, size_t len, const IOOptions& options,
                                         IODebugContext* dbg) {
  file_->PrepareWrite(offset + prefixLength_, len, options, dbg);
}

void EncryptedWritableFile::SetPreallocationBlockSize(size_t size) {
  file_->SetPreallocationBlockSize(size);
}

void EncryptedWritableFile::GetPreallocationStatus(size_t* block_size,
                                                   size_t* last_allocated_block) {
  file_->GetPreallocationStatus(block_size, last_allocated_block);
}

IOStatus EncryptedWritableFile::Allocate(uint64_t offset, uint64_t len, const IOOptions& options,
                                         IODebugContext* dbg) {
  return file_->Allocate(offset + prefixLength_, len, options, dbg);
}

IOStatus EncryptedWritableFile::Flush(const IOOptions& options, IODebugContext* dbg) {
  return file_->Flush(options, dbg);
}

IOStatus EncryptedWritableFile::Sync(const IOOptions& options, IODebugContext* dbg) {
  return file_->Sync(options, dbg);
}

IOStatus EncryptedWritableFile::Close(const IOOptions& options, IODebugContext* dbg) {
  return file_->Close(options, dbg);
}

bool EncryptedRandomRWFile::use_direct_io() const { return file_->use_direct_io(); }

size_t EncryptedRandomRWFile::GetRequiredBufferAlignment() const {
  return file_->GetRequiredBufferAlignment();
}

IOStatus EncryptedRandomRWFile::Write(uint64_t offset, const Slice& data, const IOOptions& options,
                                      IODebugContext* dbg) {
  offset += prefixLength_;
  std::string buf(data.data(), data.size());
  if (!buf.empty()) {
    IOStatus s = ToIO(stream_->Encrypt(offset, &buf[0], buf.size()));
    if (!s.ok()) return s;
  }
  return file_->Write(offset, Slice(buf), options, dbg);
}

IOStatus EncryptedRandomRWFile::Read(uint64_t offset, size_t n, const IOOptions& options,
                                     Slice* result, char* scratch, IODebugContext* dbg) const {
  offset += prefixLength_;
  IOStatus s = file_->Read(offset, n, options, result, scratch, dbg);
  if (!s.ok()) return s;
  if (result->data() != scratch) {
    memmove(scratch, result->data(), result->size());
    *result = Slice(scratch, result->size());
  }
  return ToIO(stream_->Decrypt(offset, scratch, result->size()));
}

IOStatus EncryptedRandomRWFile::Flush(const IOOptions& options, IODebugContext* dbg) {
  return file_->Flush(options, dbg);
}

IOStatus EncryptedRandomRWFile::Sync(const IOOptions& options, IODebugContext* dbg) {
  return file_->Sync(options, dbg);
}

IOStatus EncryptedRandomRWFile::Fsync(const IOOptions& options, IODebugContext* dbg) {
  return file_->Fsync(options, dbg);
}

IOStatus EncryptedRandomRWFile::Close(const IOOptions& options, IODebugContext* dbg) {
  return file_->Close(options, dbg);
}

// ---- the file system ----

namespace {

class EncryptedFileSystemImpl : public EncryptedFileSystem {
 public:
  EncryptedFileSystemImpl(const std::shared_ptr<FileSystem>& base,
                          const std::shared_ptr<EncryptionProvider>& provider)
      : EncryptedFileSystem(base), provider_(provider) {}

  const char* Name() const override { return kClassName(); }

  Status AddCipher(const std::string& descriptor, const char* cipher, size_t len,
                   bool for_write) override {
    if (provider_ == nullptr) return Status::NotFound("No Provider specified");
    return provider_->AddCipher(descriptor, cipher, len, for_write);
  }

  IOStatus NewSequentialFile(const std::string& fname, const FileOptions& options,
                             std::unique_ptr<FSSequentialFile>* result,
                             IODebugContext* dbg) override {
    result->reset();
    if (options.use_mmap_reads) return IOStatus::InvalidArgument("EncryptedFileSystem: mmap reads");
    std::unique_ptr<FSSequentialFile> file;
    IOStatus s = FileSystemWrapper::NewSequentialFile(fname, options, &file, dbg);
    if (!s.ok()) return s;
    uint64_t size = 0;
    s = FileSystemWrapper::GetFileSize(fname, options.io_options, &size, dbg);
    if (!s.ok()) return s;
    if (size == 0) {  // an empty file has no prefix
      *result = std::move(file);
      return s;
    }
    s = ReadableProvider();
    if (!s.ok()) return s;
    std::string prefix(provider_->GetPrefixLength(), '\0');
    Slice got;
    if (!prefix.empty()) {
      s = file->Read(prefix.size(), options.io_options, &got, &prefix[0], dbg);
      if (!s.ok()) return s;
    }
    std::unique_ptr<BlockAccessCipherStream> stream;
    s = ToIO(provider_->CreateCipherStream(fname, options, got, &stream));
    if (s.ok()) {
      result->reset(new EncryptedSequentialFile(std::move(file), std::move(stream), prefix.size()));
    }
    return s;
  }

  IOStatus NewRandomAccessFile(const std::string& fname, const FileOptions& options,
                               std::unique_ptr<FSRandomAccessFile>* result,
                               IODebugContext* dbg) override {
    result->reset();
    if (options.use_mmap_reads) return IOStatus::InvalidArgument("EncryptedFileSystem: mmap reads");
    std::unique_ptr<FSRandomAccessFile> file;
    IOStatus s = FileSystemWrapper::NewRandomAccessFile(fname, options, &file, dbg);
    if (!s.ok()) return s;
    std::unique_ptr<BlockAccessCipherStream> stream;
    size_t prefix_length = 0;
    s = ReadStream(fname, options, file.get(), &prefix_length, &stream, dbg);
    if (s.ok()) {
      result->reset(
          new EncryptedRandomAccessFile(std::move(file), std::move(stream), prefix_length));
    }
    return s;
  }

  IOStatus NewWritableFile(const std::string& fname, const FileOptions& options,
                           std::unique_ptr<FSWritableFile>* result, IODebugContext* dbg) override {
    result->reset();
    if (options.use_mmap_writes)
      return IOStatus::InvalidArgument("EncryptedFileSystem: mmap writes");
    std::unique_ptr<FSWritableFile> file;
    IOStatus s = FileSystemWrapper::NewWritableFile(fname, options, &file, dbg);
    if (!s.ok()) return s;
    return Wrap(fname, options, std::move(file), result, dbg);
  }

  IOStatus ReopenWritableFile(const std::string& fname, const FileOptions& options,
                              std::unique_ptr<FSWritableFile>* result,
                              IODebugContext* dbg) override {
    result->reset();
    if (options.use_mmap_writes)
      return IOStatus::InvalidArgument("EncryptedFileSystem: mmap writes");
    std::unique_ptr<FSWritableFile> file;
    IOStatus s = FileSystemWrapper::ReopenWritableFile(fname, options, &file, dbg);
    if (!s.ok()) return s;
    return Wrap(fname, options, std::move(file), result, dbg);
  }

  IOStatus ReuseWritableFile(const std::string& fname, const std::string& old_fname,
                             const FileOptions& options, std::unique_ptr<FSWritableFile>* result,
                             IODebugContext* dbg) override {
    result->reset();
    if (options.use_mmap_writes)
      return IOStatus::InvalidArgument("EncryptedFileSystem: mmap writes");
    std::unique_ptr<FSWritableFile> file;
    IOStatus s = FileSystemWrapper::ReuseWritableFile(fname, old_fname, options, &file, dbg);
    if (!s.ok()) return s;
    return Wrap(fname, options, std::move(file), result, dbg);
  }

  IOStatus NewRandomRWFile(const std::string& fname, const FileOptions& options,
                           std::unique_ptr<FSRandomRWFile>* result, IODebugContext* dbg) override {
    result->reset();
    if (options.use_mmap_reads || options.use_mmap_writes)
      return IOStatus::InvalidArgument("EncryptedFileSystem: mmap reads or writes");
    const bool is_new = !FileExists(fname, options.io_options, dbg).ok();
    std::unique_ptr<FSRandomRWFile> file;
    IOStatus s = FileSystemWrapper::NewRandomRWFile(fname, options, &file, dbg);
    if (!s.ok()) return s;
    s = ReadableProvider();
    if (!s.ok()) return s;
    std::string prefix(provider_->GetPrefixLength(), '\0');
    Slice got;
    if (!prefix.empty()) {
      if (is_new) {
        s = ToIO(provider_->CreateNewPrefix(fname, &prefix[0], prefix.size()));
        if (s.ok()) s = file->Write(0, Slice(prefix), options.io_options, dbg);
        got = Slice(prefix);
      } else {
        s = file->Read(0, prefix.size(), options.io_options, &got, &prefix[0], dbg);
      }
      if (!s.ok()) return s;
    }
    std::unique_ptr<BlockAccessCipherStream> stream;
    s = ToIO(provider_->CreateCipherStream(fname, options, got, &stream));
    if (s.ok()) {
      result->reset(new EncryptedRandomRWFile(std::move(file), std::move(stream), prefix.size()));
    }
    return s;
  }

  IOStatus GetChildrenFileAttributes(const std::string& dir, const IOOptions& options,
                                     std::vector<FileAttributes>* result,
                                     IODebugContext* dbg) override {
    IOStatus s = FileSystemWrapper::GetChildrenFileAttributes(dir, options, result, dbg);
    if (!s.ok()) return s;
    s = ReadableProvider();
    if (!s.ok()) return s;
    const uint64_t prefix = provider_->GetPrefixLength();
    for (FileAttributes& a : *result)
      a.size_bytes = a.size_bytes >= prefix ? a.size_bytes - prefix : 0;
    return IOStatus::OK();
  }

  IOStatus GetFileSize(const std::string& fname, const IOOptions& options, uint64_t* file_size,
                       IODebugContext* dbg) override {
    IOStatus s = FileSystemWrapper::GetFileSize(fname, options, file_size, dbg);
    if (!s.ok() || *file_size == 0) return s;
    s = ReadableProvider();
    if (!s.ok()) return s;
    const uint64_t prefix = provider_->GetPrefixLength();
    if (*file_size < prefix) {
      return IOStatus::Corruption("Encrypted file " + fname + " is shorter than its prefix");
    }
    *file_size -= prefix;
    return s;
  }

 private:
  IOStatus ReadableProvider() const {
    return provider_ != nullptr ? IOStatus::OK() : IOStatus::NotFound("No Provider specified");
  }

  // The stream of an existing file, from its prefix.
  IOStatus ReadStream(const std::string& fname, const FileOptions& options,
                      FSRandomAccessFile* file, size_t* prefix_length,
                      std::unique_ptr<BlockAccessCipherStream>* stream, IODebugContext* dbg) {
    IOStatus s = ReadableProvider();
    if (!s.ok()) return s;
    std::string prefix(provider_->GetPrefixLength(), '\0');
    Slice got;
    if (!prefix.empty()) {
      s = file->Read(0, prefix.size(), options.io_options, &got, &prefix[0], dbg);
      if (!s.ok()) return s;
      if (got.data() != prefix.data()) {
        memmove(&prefix[0], got.data(), got.size());
        got = Slice(prefix.data(), got.size());
      }
    }
    *prefix_length = prefix.size();
    return ToIO(provider_->CreateCipherStream(fname, options, got, stream));
  }

  // Writes a new prefix to file and wraps it.
  IOStatus Wrap(const std::string& fname, const FileOptions& options,
                std::unique_ptr<FSWritableFile> file, std::unique_ptr<FSWritableFile>* result,
                IODebugContext* dbg) {
    if (provider_ == nullptr) return IOStatus::NotFound("No WriteProvider specified");
    std::string prefix(provider_->GetPrefixLength(), '\0');
    IOStatus s;
    if (!prefix.empty()) {
      s = ToIO(provider_->CreateNewPrefix(fname, &prefix[0], prefix.size()));
      if (s.ok()) s = file->Append(Slice(prefix), options.io_options, dbg);
      if (!s.ok()) return s;
    }
    Slice view(prefix);
    std::unique_ptr<BlockAccessCipherStream> stream;
    s = ToIO(provider_->CreateCipherStream(fname, options, view, &stream));
    if (s.ok()) {
      result->reset(new EncryptedWritableFile(std::move(file), std::move(stream), prefix.size()));
    }
    return s;
  }

  std::shared_ptr<EncryptionProvider> provider_;
};

}  // namespace

std::shared_ptr<FileSystem> NewEncryptedFS(const std::shared_ptr<FileSystem>& base_fs,
                                           const std::shared_ptr<EncryptionProvider>& provider) {
  return std::make_shared<EncryptedFileSystemImpl>(base_fs, provider);
}

Env* NewEncryptedEnv(Env* base_env, const std::shared_ptr<EncryptionProvider>& provider) {
  return compat::NewCompositeEnvOver(base_env, NewEncryptedFS(base_env->GetFileSystem(), provider));
}

}  // namespace rocksdb
