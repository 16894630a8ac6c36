// rocksdb/env_encryption.h: encryption at rest as a FileSystem wrapper,
// with RocksDB 7.8.3's on-disk format, so an encrypted database opens in
// either engine with the same provider.
//
// Format of every file written through an encrypted file system:
//   [0, P)  the prefix, P = provider->GetPrefixLength() (4096 for CTR);
//           for CTR: bytes [0, 8) are the initial counter (fixed64 LE),
//           [B, 2B) the IV (B = the cipher's block size), [2B, P) random
//           bytes encrypted with that counter and IV from stream offset 0.
//   [P, ..) the data, encrypted by the cipher stream at its absolute file
//           offset (so data byte 0 is stream offset P).
// CTR: block i of the stream is XORed with cipher.Encrypt(IV with its
// first 8 bytes replaced by fixed64(initial counter + i)). An empty file
// has no prefix and is read as empty. Sizes reported by the file system
// leave the prefix out.
// ROT13 (NewROT13Cipher) is RocksDB's sample cipher, not a secure one.
// Thread-safety: the file system and providers are thread-safe; each file
// object is used by one thread at a time (a random-access file's Read is
// thread-safe).
#pragma once

#include <memory>
#include <string>

#include "rocksdb/customizable.h"
#include "rocksdb/env.h"
#include "rocksdb/file_system.h"
#include "rocksdb/rocksdb_namespace.h"

namespace rocksdb {

class EncryptionProvider;
struct ConfigOptions;

// An Env whose files go through NewEncryptedFS(base_env's file system,
// provider) and whose clock and threads are base_env's. The caller owns
// it; base_env must outlive it.
Env* NewEncryptedEnv(Env* base_env, const std::shared_ptr<EncryptionProvider>& provider);

// A file system encrypting every file it writes and decrypting every file
// it reads with provider.
std::shared_ptr<FileSystem> NewEncryptedFS(const std::shared_ptr<FileSystem>& base_fs,
                                           const std::shared_ptr<EncryptionProvider>& provider);

// Encrypts and decrypts a file's bytes at any offset, block by block.
class BlockAccessCipherStream {
 public:
  virtual ~BlockAccessCipherStream() {}

  virtual size_t BlockSize() = 0;

  // Encrypts / decrypts data[0, dataSize) in place, data being the bytes
  // at fileOffset (partial blocks at either end are handled).
  virtual Status Encrypt(uint64_t fileOffset, char* data, size_t dataSize);
  virtual Status Decrypt(uint64_t fileOffset, char* data, size_t dataSize);

 protected:
  virtual void AllocateScratch(std::string&) = 0;
  // One whole block of BlockSize() bytes, in place.
  virtual Status EncryptBlock(uint64_t blockIndex, char* data, char* scratch) = 0;
  virtual Status DecryptBlock(uint64_t blockIndex, char* data, char* scratch) = 0;
};

// Encrypts one block at a time.
class BlockCipher : public Customizable {
 public:
  virtual ~BlockCipher() {}

  // "ROT13" or "ROT13:<block size>" (the program's own ciphers through the
  // registry as well).
  static Status CreateFromString(const ConfigOptions& config_options, const std::string& value,
                                 std::shared_ptr<BlockCipher>* result);
  static const char* Type() { return "BlockCipher"; }

  // RocksDB's sample cipher: adds 13 to every byte.
  static std::shared_ptr<BlockCipher> NewROT13Cipher(size_t block_size);

  virtual size_t BlockSize() = 0;
  // One block of BlockSize() bytes, in place.
  virtual Status Encrypt(char* data) = 0;
  virtual Status Decrypt(char* data) = 0;
};

// Makes the prefix of new files and the cipher stream of each file.
class EncryptionProvider : public Customizable {
 public:
  virtual ~EncryptionProvider() {}

  // "CTR" (no cipher yet: see AddCipher), "CTR://test" and "1://test"
  // (CTR over ROT13 with 32-byte blocks), or the program's own.
  static Status CreateFromString(const ConfigOptions& config_options, const std::string& value,
                                 std::shared_ptr<EncryptionProvider>* result);
  static const char* Type() { return "EncryptionProvider"; }

  // Counter mode over cipher.
  static std::shared_ptr<EncryptionProvider> NewCTRProvider(
      const std::shared_ptr<BlockCipher>& cipher);

  virtual size_t GetPrefixLength() const = 0;
  // Fills prefix[0, prefixLength) for a new file called fname.
  virtual Status CreateNewPrefix(const std::string& fname, char* prefix,
                                 size_t prefixLength) const = 0;
  // Gives the provider its key (for CTR: the cipher's name, e.g. "ROT13",
  // with len its block size). NotSupported if it has one already.
  virtual Status AddCipher(const std::string& descriptor, const char* cipher, size_t len,
                           bool for_write) = 0;
  // The stream of the file whose (plain or encrypted, as written) prefix
  // is given; the prefix may be decrypted in place.
  virtual Status CreateCipherStream(const std::string& fname, const EnvOptions& options,
                                    Slice& prefix,
                                    std::unique_ptr<BlockAccessCipherStream>* result) = 0;
  virtual std::string GetMarker() const { return ""; }
};

class EncryptedSequentialFile : public FSSequentialFile {
 protected:
  std::unique_ptr<FSSequentialFile> file_;
  std::unique_ptr<BlockAccessCipherStream> stream_;
  uint64_t offset_;  // the absolute offset of the next byte read
  size_t prefixLength_;

 public:
  EncryptedSequentialFile(std::unique_ptr<FSSequentialFile>&& f,
                          std::unique_ptr<BlockAccessCipherStream>&& s, size_t prefixLength)
      : file_(std::move(f)),
        stream_(std::move(s)),
        offset_(prefixLength),
        prefixLength_(prefixLength) {}

  IOStatus Read(size_t n, const IOOptions& options, Slice* result, char* scratch,
                IODebugContext* dbg) override;
  IOStatus Skip(uint64_t n) override;
  bool use_direct_io() const override;
  size_t GetRequiredBufferAlignment() const override;
  IOStatus InvalidateCache(size_t offset, size_t length) override;
  IOStatus PositionedRead(uint64_t offset, size_t n, const IOOptions& options, Slice* result,
                          char* scratch, IODebugContext* dbg) override;
};

class EncryptedRandomAccessFile : public FSRandomAccessFile {
 protected:
  std::unique_ptr<FSRandomAccessFile> file_;
  std::unique_ptr<BlockAccessCipherStream> stream_;
  size_t prefixLength_;

 public:
  EncryptedRandomAccessFile(std::unique_ptr<FSRandomAccessFile>&& f,
                            std::unique_ptr<BlockAccessCipherStream>&& s, size_t prefixLength)
      : file_(std::move(f)), stream_(std::move(s)), prefixLength_(prefixLength) {}

  IOStatus Read(uint64_t offset, size_t n, const IOOptions& options, Slice* result, char* scratch,
                IODebugContext* dbg) const override;
  IOStatus Prefetch(uint64_t offset, size_t n, const IOOptions& options,
                    IODebugContext* dbg) override;
  size_t GetUniqueId(char* id, size_t max_size) const override;
  void Hint(AccessPattern pattern) override;
  bool use_direct_io() const override;
  size_t GetRequiredBufferAlignment() const override;
  IOStatus InvalidateCache(size_t offset, size_t length) override;
};

class EncryptedWritableFile : public FSWritableFile {
 protected:
  std::unique_ptr<FSWritableFile> file_;
  std::unique_ptr<BlockAccessCipherStream> stream_;
  size_t prefixLength_;

 public:
  EncryptedWritableFile(std::unique_ptr<FSWritableFile>&& f,
                        std::unique_ptr<BlockAccessCipherStream>&& s, size_t prefixLength)
      : file_(std::move(f)),
        stream_(std::move(s)),
        prefixLength_(prefixLength),
        written_(prefixLength) {}

  using FSWritableFile::Append;
  IOStatus Append(const Slice& data, const IOOptions& options, IODebugContext* dbg) override;
  using FSWritableFile::PositionedAppend;
  IOStatus PositionedAppend(const Slice& data, uint64_t offset, const IOOptions& options,
                            IODebugContext* dbg) override;
  bool IsSyncThreadSafe() const override;
  bool use_direct_io() const override;
  size_t GetRequiredBufferAlignment() const override;
  // The size of the data (the prefix left out).
  uint64_t GetFileSize(const IOOptions& options, IODebugContext* dbg) override;
  IOStatus Truncate(uint64_t size, const IOOptions& options, IODebugContext* dbg) override;
  IOStatus InvalidateCache(size_t offset, size_t length) override;
  IOStatus RangeSync(uint64_t offset, uint64_t nbytes, const IOOptions& options,
                     IODebugContext* dbg) override;
  void PrepareWrite(size_t offset, size_t len, const IOOptions& options,
                    IODebugContext* dbg) override;
  void SetPreallocationBlockSize(size_t size) override;
  void GetPreallocationStatus(size_t* block_size, size_t* last_allocated_block) override;
  IOStatus Allocate(uint64_t offset, uint64_t len, const IOOptions& options,
                    IODebugContext* dbg) override;
  IOStatus Flush(const IOOptions& options, IODebugContext* dbg) override;
  IOStatus Sync(const IOOptions& options, IODebugContext* dbg) override;
  IOStatus Close(const IOOptions& options, IODebugContext* dbg) override;

 private:
  // The absolute size written so far, prefix included (used when the
  // underlying file does not count its bytes).
  uint64_t written_;
};

class EncryptedRandomRWFile : public FSRandomRWFile {
 protected:
  std::unique_ptr<FSRandomRWFile> file_;
  std::unique_ptr<BlockAccessCipherStream> stream_;
  size_t prefixLength_;

 public:
  EncryptedRandomRWFile(std::unique_ptr<FSRandomRWFile>&& f,
                        std::unique_ptr<BlockAccessCipherStream>&& s, size_t prefixLength)
      : file_(std::move(f)), stream_(std::move(s)), prefixLength_(prefixLength) {}

  bool use_direct_io() const override;
  size_t GetRequiredBufferAlignment() const override;
  IOStatus Write(uint64_t offset, const Slice& data, const IOOptions& options,
                 IODebugContext* dbg) override;
  IOStatus Read(uint64_t offset, size_t n, const IOOptions& options, Slice* result, char* scratch,
                IODebugContext* dbg) const override;
  IOStatus Flush(const IOOptions& options, IODebugContext* dbg) override;
  IOStatus Sync(const IOOptions& options, IODebugContext* dbg) override;
  IOStatus Fsync(const IOOptions& options, IODebugContext* dbg) override;
  IOStatus Close(const IOOptions& options, IODebugContext* dbg) override;
};

// The file system NewEncryptedFS makes.
class EncryptedFileSystem : public FileSystemWrapper {
 public:
  explicit EncryptedFileSystem(const std::shared_ptr<FileSystem>& base) : FileSystemWrapper(base) {}
  // Gives the provider its key (EncryptionProvider::AddCipher).
  virtual Status AddCipher(const std::string& descriptor, const char* cipher, size_t len,
                           bool for_write) = 0;
  static const char* kClassName() { return "EncryptedFileSystem"; }
  // compat's FileSystem is not a Customizable: this answers for the class
  // name and the file system's Name().
  virtual bool IsInstanceOf(const std::string& name) const {
    return name == kClassName() || name == Name();
  }
};

}  // namespace rocksdb
