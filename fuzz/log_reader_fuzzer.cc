// Fuzz target: the WAL/MANIFEST record reader (db/log_reader.h).
//  1. The input as a log file, read to the end in every WALRecoveryMode,
//     with and without checksums, recyclable log numbers and short reads:
//     no crash, no hang, records point into valid memory.
//  2. Records derived from the input, written by log::Writer (plain and
//     recyclable headers), read back exactly; the file cut at an
//     input-chosen length reads back as a prefix of them, and what follows
//     the last whole record (with or without zeros after it) passes
//     log::CheckTornTail. CheckTornTail also runs on the raw input.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "db/log_reader.h"
#include "db/log_writer.h"
#include "fuzz/fuzz_check.h"
#include "fuzz/fuzz_files.h"

namespace strata {
namespace {

struct CountingReporter : public log::Reader::Reporter {
  size_t reports = 0;
  size_t dropped = 0;
  void Corruption(size_t bytes, const Status& status) override {
    FUZZ_CHECK(!status.ok());
    ++reports;
    dropped += bytes;
  }
};

std::vector<std::string> ReadAll(const std::string& file, WALRecoveryMode mode, bool checksum,
                                 uint64_t log_number, size_t max_read, CountingReporter* rep) {
  log::Reader reader(std::make_unique<fuzz::StringSequentialFile>(file, max_read), rep, checksum,
                     log_number, "fuzz.log");
  std::vector<std::string> out;
  Slice record;
  std::string scratch;
  uint64_t last_offset = 0;
  bool first = true;
  while (reader.ReadRecord(&record, &scratch, mode)) {
    out.push_back(record.ToString());  // touches every byte (ASan)
    FUZZ_CHECK(reader.LastRecordOffset() < file.size() || record.empty());
    if (!first) FUZZ_CHECK(reader.LastRecordOffset() >= last_offset);
    last_offset = reader.LastRecordOffset();
    first = false;
    FUZZ_CHECK(out.size() <= file.size() + 1);  // each record costs header bytes
  }
  FUZZ_CHECK(reader.EndOfBufferOffset() <= file.size());
  // The end is sticky.
  FUZZ_CHECK(!reader.ReadRecord(&record, &scratch, mode));
  return out;
}

}  // namespace
}  // namespace strata

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace strata;
  const std::string input(reinterpret_cast<const char*>(data), size);
  const uint8_t flags = size > 0 ? data[0] : 0;

  // 1. The bytes as a log.
  for (const WALRecoveryMode mode :
       {WALRecoveryMode::kTolerateCorruptedTailRecords, WALRecoveryMode::kAbsoluteConsistency,
        WALRecoveryMode::kPointInTimeRecovery, WALRecoveryMode::kSkipAnyCorruptedRecords}) {
    CountingReporter rep;
    ReadAll(input, mode, true, 7, 0, &rep);
  }
  {
    // The torn-tail check over any bytes at any block position: OK or
    // Corruption, never a crash.
    const Status t = log::CheckTornTail("fuzz.log", 7, input, flags * 131u);
    FUZZ_CHECK(t.ok() || t.IsCorruption());
  }
  {
    CountingReporter rep;
    ReadAll(input, WALRecoveryMode::kSkipAnyCorruptedRecords, false, flags, 0, nullptr);
    ReadAll(input, WALRecoveryMode::kTolerateCorruptedTailRecords, (flags & 1) != 0, 0,
            1 + (flags >> 1), &rep);
  }

  // 2. Round trip. Record i: a length from one input byte, scaled so that
  // records span the 32 KiB blocks, filled from the input.
  std::vector<std::string> records;
  {
    size_t pos = 1;
    size_t total = 0;
    while (pos < size && records.size() < 64 && total < (100u << 10)) {
      const size_t lb = data[pos++];
      const size_t len = (lb & 0x80) ? (lb & 0x7f) * (lb & 0x7f) * 3 : (lb & 0x7f);
      total += len;
      std::string r(len, '\0');
      for (size_t j = 0; j < len; ++j) r[j] = static_cast<char>(data[(pos + j) % size] + j / size);
      pos += std::min<size_t>(len, 8);
      records.push_back(std::move(r));
    }
  }
  const bool recycle = (flags & 2) != 0;
  const uint64_t log_number = 3 + (flags >> 4);
  std::string file;
  {
    log::Writer writer(std::make_unique<fuzz::StringWritableFile>(&file), log_number, recycle);
    for (const std::string& r : records) FUZZ_CHECK(writer.AddRecord(r).ok());
    FUZZ_CHECK(writer.Close().ok());
    FUZZ_CHECK(writer.file_size() == file.size());
  }
  {
    CountingReporter rep;
    const std::vector<std::string> back =
        ReadAll(file, WALRecoveryMode::kAbsoluteConsistency, true, log_number, 0, &rep);
    FUZZ_CHECK(rep.reports == 0);
    FUZZ_CHECK(back == records);
  }
  if (!file.empty()) {
    // Cut the file anywhere (a crash mid-write): a prefix of the records.
    size_t cut = 0;
    for (size_t i = 0; i < size && i < 4; ++i) cut = cut * 256 + data[size - 1 - i];
    cut %= file.size();
    const std::string torn = file.substr(0, cut);
    for (const WALRecoveryMode mode :
         {WALRecoveryMode::kTolerateCorruptedTailRecords, WALRecoveryMode::kPointInTimeRecovery}) {
      CountingReporter rep;
      const std::vector<std::string> back = ReadAll(torn, mode, true, log_number, 0, &rep);
      FUZZ_CHECK(back.size() <= records.size());
      for (size_t i = 0; i < back.size(); ++i) FUZZ_CHECK(back[i] == records[i]);
    }
    // What follows the last whole record of a cut log is a torn tail, also
    // with the zeros of preallocated space after it (an mmap-written WAL).
    log::Reader reader(std::make_unique<fuzz::StringSequentialFile>(torn, 0), nullptr, true,
                       log_number, "fuzz.log");
    Slice record;
    std::string scratch;
    uint64_t good_end = 0;
    while (reader.ReadRecord(&record, &scratch, WALRecoveryMode::kPointInTimeRecovery)) {
      good_end = reader.LastRecordEndOffset();
    }
    FUZZ_CHECK(good_end <= torn.size());
    // The records' payloads are arbitrary bytes and may embed intact log
    // records themselves; the WAL tells those from following records by
    // their batch sequence. Here no payload can be a following record.
    const log::RecordPayloadCheck none = [](const Slice&) { return false; };
    const std::string zeros = torn + std::string(flags % 64, '\0');
    for (const std::string* f : {&torn, &zeros}) {
      const Slice tail(f->data() + good_end, f->size() - good_end);
      FUZZ_CHECK(log::CheckTornTail("fuzz.log", log_number, tail, good_end, &none).ok());
    }
  }
  return 0;
}
