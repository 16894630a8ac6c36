// Fuzz target: db/version_edit.h. DecodeFrom on the bytes; an edit that
// decodes must encode to bytes that decode to an equal edit (same
// encoding, same DebugString), and a re-encoding is a fixed point.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "db/version_edit.h"
#include "fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace strata;
  // Exact-size heap copy: ASan then catches any read past the end.
  std::unique_ptr<char[]> buf(new char[size + (size == 0 ? 1 : 0)]);
  if (size > 0) memcpy(buf.get(), data, size);
  VersionEdit edit;
  const Status s = edit.DecodeFrom(Slice(buf.get(), size));
  if (!s.ok()) {
    FUZZ_CHECK(s.IsCorruption());  // DecodeFrom reports nothing else
    (void)edit.DebugString();
    return 0;
  }
  // (fuzz/regressions/version_edit/newfile3_path_id_256: a path id above
  // 255 once decoded although it is written back in one byte.)
  std::string enc1;
  edit.EncodeTo(&enc1);
  VersionEdit edit2;
  const Status s2 = edit2.DecodeFrom(enc1);
  if (!s2.ok()) {
    fprintf(stderr, "re-decode failed: %s\nedit: %s\n", s2.ToString().c_str(),
            edit.DebugString().c_str());
  }
  FUZZ_CHECK(s2.ok());
  std::string enc2;
  edit2.EncodeTo(&enc2);
  if (enc1 != enc2) {
    fprintf(stderr, "first: %s\nsecond: %s\n", edit.DebugString().c_str(),
            edit2.DebugString().c_str());
  }
  FUZZ_CHECK(enc1 == enc2);
  FUZZ_CHECK(edit.DebugString() == edit2.DebugString());
  return 0;
}
