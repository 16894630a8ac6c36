// Full-file checksum helpers (see the header).
#include "db/file_checksum_helper.h"

namespace strata {

Status GenerateFileChecksum(FileSystem* fs, const std::string& fname,
                            FileChecksumGenFactory* factory, const std::string& requested_func_name,
                            std::string* checksum, std::string* func_name) {
  if (factory == nullptr) return Status::InvalidArgument("Checksum factory is invalid");
  FileChecksumGenContext context;
  context.file_name = fname;
  context.requested_checksum_func_name = requested_func_name;
  std::unique_ptr<FileChecksumGenerator> gen = factory->CreateFileChecksumGenerator(context);
  if (gen == nullptr) {
    return Status::InvalidArgument(
        "Cannot get the file checksum generator based on the requested checksum function name: " +
        requested_func_name + " from checksum factory: " + factory->Name());
  }
  if (!requested_func_name.empty() && requested_func_name != gen->Name()) {
    return Status::InvalidArgument("Expected file checksum generator named '" +
                                   requested_func_name +
                                   "', while the factory created one named '" + gen->Name() + "'");
  }
  std::unique_ptr<SequentialFile> file;
  Status s = fs->NewSequentialFile(fname, FileOptions(), &file);
  if (!s.ok()) return s;
  constexpr size_t kChunk = 256 * 1024;  // RocksDB's default read-ahead here
  std::string scratch(kChunk, '\0');
  for (;;) {
    Slice chunk;
    s = file->Read(kChunk, &chunk, scratch.data());
    if (!s.ok()) return s;
    if (chunk.empty()) break;
    gen->Update(chunk.data(), chunk.size());
  }
  gen->Finalize();
  *checksum = gen->GetChecksum();
  *func_name = gen->Name();
  return Status::OK();
}

}  // namespace strata
