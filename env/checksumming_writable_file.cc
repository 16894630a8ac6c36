// NewChecksummingWritableFile (see the header).
#include "env/checksumming_writable_file.h"

#include <utility>

#include "env/forwarding_writable_file.h"

namespace strata {

namespace {

class ChecksummingWritableFile final : public ForwardingWritableFile {
 public:
  ChecksummingWritableFile(std::unique_ptr<WritableFile> file, FileChecksumGenerator* gen)
      : ForwardingWritableFile(std::move(file)), gen_(gen) {}
  Status Append(const Slice& data) override {
    Status s = base()->Append(data);
    // Only bytes the file took count; a failed append fails the file.
    if (s.ok()) gen_->Update(data.data(), data.size());
    return s;
  }

 private:
  FileChecksumGenerator* const gen_;
};

}  // namespace

std::unique_ptr<WritableFile> NewChecksummingWritableFile(std::unique_ptr<WritableFile> base,
                                                          FileChecksumGenerator* gen) {
  return std::make_unique<ChecksummingWritableFile>(std::move(base), gen);
}

}  // namespace strata
