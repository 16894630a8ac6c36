// Tests of the log format (db/log_format.h): the writer's fragmentation and
// bytes, RocksDB's real bytes, and the reader under every kind of damage in
// every WALRecoveryMode. Files live in a std::string (StringSink /
// StringSource), so every byte can be inspected and damaged.

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "db/log_reader.h"
#include "db/log_writer.h"
#include "db/write_batch_internal.h"
#include "strata/write_batch.h"
#include "test_util/testutil.h"
#include "util/coding.h"
#include "util/crc32c.h"
#include "util/random.h"

namespace strata::log {
namespace {

constexpr uint64_t kLogNumber = 42;
const char* const kFileName = "/db/000042.log";

const WALRecoveryMode kAllModes[] = {
    WALRecoveryMode::kTolerateCorruptedTailRecords,
    WALRecoveryMode::kAbsoluteConsistency,
    WALRecoveryMode::kPointInTimeRecovery,
    WALRecoveryMode::kSkipAnyCorruptedRecords,
};

const char* ModeName(WALRecoveryMode mode) {
  switch (mode) {
    case WALRecoveryMode::kTolerateCorruptedTailRecords:
      return "tolerate-tail";
    case WALRecoveryMode::kAbsoluteConsistency:
      return "absolute";
    case WALRecoveryMode::kPointInTimeRecovery:
      return "point-in-time";
    case WALRecoveryMode::kSkipAnyCorruptedRecords:
      return "skip-any";
  }
  return "?";
}

// A WritableFile appending to a std::string, counting calls.
class StringSink : public WritableFile {
 public:
  explicit StringSink(std::string* contents, bool* closed_out = nullptr)
      : contents_(contents), closed_out_(closed_out) {}
  Status Append(const Slice& data) override {
    contents_->append(data.data(), data.size());
    appends++;
    return Status::OK();
  }
  Status Flush() override {
    flushes++;
    return Status::OK();
  }
  Status Sync() override {
    syncs++;
    return Status::OK();
  }
  Status Close() override {
    if (closed_out_ != nullptr) *closed_out_ = true;
    return Status::OK();
  }
  uint64_t GetFileSize() const override { return contents_->size(); }

  int appends = 0;
  int flushes = 0;
  int syncs = 0;

 private:
  std::string* contents_;
  bool* closed_out_;
};

// A SequentialFile over a copy of some bytes. Results point into scratch,
// or into the source's own memory when own_memory is set.
class StringSource : public SequentialFile {
 public:
  explicit StringSource(std::string contents, bool own_memory = false)
      : contents_(std::move(contents)), own_memory_(own_memory) {}
  Status Read(size_t n, Slice* result, char* scratch) override {
    reads++;
    if (fail_read_ == reads) return Status::IOError("injected read error");
    n = std::min(n, contents_.size() - pos_);
    if (own_memory_) {
      *result = Slice(contents_.data() + pos_, n);
    } else {
      memcpy(scratch, contents_.data() + pos_, n);
      *result = Slice(scratch, n);
    }
    pos_ += n;
    return Status::OK();
  }
  Status Skip(uint64_t n) override {
    pos_ = std::min<size_t>(contents_.size(), pos_ + n);
    return Status::OK();
  }
  // The n-th Read (from 1) fails.
  void FailRead(int n) { fail_read_ = n; }

  int reads = 0;

 private:
  std::string contents_;
  bool own_memory_;
  size_t pos_ = 0;
  int fail_read_ = 0;
};

struct ReportCollector : public Reader::Reporter {
  void Corruption(size_t bytes, const Status& status) override {
    dropped_bytes += bytes;
    messages.push_back(status.ToString());
  }
  std::string All() const {
    std::string r;
    for (const auto& m : messages) r += m + "\n";
    return r;
  }
  size_t dropped_bytes = 0;
  std::vector<std::string> messages;
};

// "<prefix>" repeated (cut) to n bytes.
std::string BigString(const std::string& prefix, size_t n) {
  std::string r;
  while (r.size() < n) r += prefix;
  r.resize(n);
  return r;
}

std::string NumberString(int n) { return std::to_string(n) + "."; }

std::string Hex(const std::string& s) {
  std::string r;
  char buf[4];
  for (unsigned char c : s) {
    snprintf(buf, sizeof(buf), "%02x ", c);
    r += buf;
  }
  return r;
}

struct ReadResult {
  std::vector<std::string> records;
  std::vector<uint64_t> offsets;
  ReportCollector report;
};

// Reads every record of contents with a fresh reader.
ReadResult ReadAll(const std::string& contents, WALRecoveryMode mode, bool checksum = true,
                   uint64_t log_number = kLogNumber, bool own_memory = false) {
  ReadResult r;
  Reader reader(std::make_unique<StringSource>(contents, own_memory), &r.report, checksum,
                log_number, kFileName);
  Slice record;
  std::string scratch;
  while (reader.ReadRecord(&record, &scratch, mode)) {
    r.records.push_back(record.ToString());
    r.offsets.push_back(reader.LastRecordOffset());
  }
  // The end of a log stays the end.
  EXPECT_FALSE(reader.ReadRecord(&record, &scratch, mode));
  return r;
}

// The bytes of s from offset on.
Slice TailOf(const std::string& s, size_t offset) {
  return Slice(s.data() + offset, s.size() - offset);
}

std::vector<std::string> Prefix(const std::vector<std::string>& v, size_t n) {
  return std::vector<std::string>(v.begin(), v.begin() + n);
}

// ---- tests run for both header formats (legacy, recyclable) ----

class LogTest : public ::testing::TestWithParam<bool> {
 protected:
  LogTest()
      : recyclable_(GetParam()), header_size_(recyclable_ ? kRecyclableHeaderSize : kHeaderSize) {
    auto sink = std::make_unique<StringSink>(&dest_);
    sink_ = sink.get();
    writer_ = std::make_unique<Writer>(std::move(sink), kLogNumber, recyclable_);
  }

  void Write(const std::string& msg) {
    ASSERT_OK(writer_->AddRecord(Slice(msg)));
    written_.push_back(msg);
  }
  // Offset the next record will start at (after any padding).
  size_t NextRecordStart() const {
    const size_t left = kBlockSize - dest_.size() % kBlockSize;
    return left < header_size_ ? dest_.size() + left : dest_.size();
  }

  unsigned int TypeAt(size_t offset) const { return static_cast<unsigned char>(dest_[offset + 6]); }
  size_t LengthAt(size_t offset) const { return DecodeFixed16(dest_.data() + offset + 4); }
  RecordType Type(RecordType legacy) const {
    return recyclable_ ? static_cast<RecordType>(legacy + 4) : legacy;
  }
  // Recomputes the crc of the physical record at offset for its current
  // type and length.
  void FixChecksum(size_t offset) {
    const size_t len = LengthAt(offset);
    const uint32_t crc = crc32c::Value(dest_.data() + offset + 6, header_size_ - 6 + len);
    EncodeFixed32(dest_.data() + offset, crc32c::Mask(crc));
  }

  const bool recyclable_;
  const size_t header_size_;
  std::string dest_;
  StringSink* sink_;
  std::unique_ptr<Writer> writer_;
  std::vector<std::string> written_;
};

INSTANTIATE_TEST_SUITE_P(Formats, LogTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "Recyclable" : "Legacy";
                         });

TEST_P(LogTest, Empty) {
  for (WALRecoveryMode mode : kAllModes) {
    ReadResult r = ReadAll(dest_, mode);
    EXPECT_TRUE(r.records.empty());
    EXPECT_TRUE(r.report.messages.empty());
  }
}

TEST_P(LogTest, ReadWrite) {
  Write("foo");
  Write("bar");
  Write("");
  Write("xxxx");
  EXPECT_EQ(writer_->file_size(), dest_.size());
  EXPECT_EQ(dest_.size(), 4 * header_size_ + 10);
  for (WALRecoveryMode mode : kAllModes) {
    ReadResult r = ReadAll(dest_, mode);
    EXPECT_EQ(r.records, written_);
    EXPECT_EQ(r.offsets, (std::vector<uint64_t>{0, header_size_ + 3, 2 * header_size_ + 6,
                                                3 * header_size_ + 6}));
    EXPECT_TRUE(r.report.messages.empty());
  }
}

// SkipTo (a secondary tailing a log another process appends to): a reader
// started at the end of any record reads exactly the records after it, at
// their file offsets, including records that span blocks and starts where
// only block padding is left; a record cut off by the end of the file is
// read by the next reader once the file has grown.
TEST_P(LogTest, SkipToResumesAtARecordBoundary) {
  std::mt19937 rng(301);
  for (int i = 0; i < 60; ++i) {
    const size_t n = i % 7 == 0 ? kBlockSize - header_size_ - rng() % 3 : rng() % 9000;
    Write(BigString(NumberString(i), n));
  }
  std::vector<uint64_t> ends{0};
  std::vector<uint64_t> offsets;
  {
    Reader reader(std::make_unique<StringSource>(dest_), nullptr, true, kLogNumber, kFileName);
    Slice record;
    std::string scratch;
    while (reader.ReadRecord(&record, &scratch)) {
      ends.push_back(reader.LastRecordEndOffset());
      offsets.push_back(reader.LastRecordOffset());
    }
  }
  ASSERT_EQ(written_.size() + 1, ends.size());
  for (size_t k = 0; k < ends.size(); ++k) {
    SCOPED_TRACE("after record " + std::to_string(k));
    ReportCollector report;
    Reader reader(std::make_unique<StringSource>(dest_), &report, true, kLogNumber, kFileName);
    ASSERT_OK(reader.SkipTo(ends[k]));
    Slice record;
    std::string scratch;
    size_t i = k;
    while (reader.ReadRecord(&record, &scratch, WALRecoveryMode::kAbsoluteConsistency)) {
      ASSERT_LT(i, written_.size());
      EXPECT_EQ(written_[i], record.ToString());
      EXPECT_EQ(offsets[i], reader.LastRecordOffset());
      EXPECT_EQ(ends[i + 1], reader.LastRecordEndOffset());
      ++i;
    }
    EXPECT_EQ(written_.size(), i);
    EXPECT_TRUE(report.messages.empty()) << report.All();
  }
  // The last record half written: nothing past the one before it, and no
  // damage (outside kAbsoluteConsistency); the whole record next time.
  const size_t k = written_.size() - 1;
  const std::string full = dest_;
  const std::string cut = full.substr(0, (ends[k] + ends[k + 1]) / 2);
  for (const std::string* contents : {&cut, &full}) {
    ReportCollector report;
    Reader reader(std::make_unique<StringSource>(*contents), &report, true, kLogNumber, kFileName);
    ASSERT_OK(reader.SkipTo(ends[k]));
    Slice record;
    std::string scratch;
    const bool got = reader.ReadRecord(&record, &scratch);
    EXPECT_EQ(contents == &full, got);
    if (got) {
      EXPECT_EQ(written_[k], record.ToString());
    }
    EXPECT_TRUE(report.messages.empty()) << report.All();
  }
}

TEST_P(LogTest, EmptyRecordIsOneFullRecord) {
  Write("");
  ASSERT_EQ(dest_.size(), header_size_);
  EXPECT_EQ(TypeAt(0), Type(kFullType));
  EXPECT_EQ(LengthAt(0), 0u);
  ReadResult r = ReadAll(dest_, WALRecoveryMode::kAbsoluteConsistency);
  EXPECT_EQ(r.records, std::vector<std::string>{""});
}

TEST_P(LogTest, ManyBlocks) {
  for (int i = 0; i < 100000; i++) Write(NumberString(i));
  EXPECT_GT(dest_.size(), 10 * kBlockSize);
  for (bool own_memory : {false, true}) {
    ReadResult r =
        ReadAll(dest_, WALRecoveryMode::kAbsoluteConsistency, true, kLogNumber, own_memory);
    EXPECT_EQ(r.records, written_);
    EXPECT_TRUE(r.report.messages.empty()) << r.report.All();
  }
}

TEST_P(LogTest, Fragmentation) {
  Write("small");
  Write(BigString("medium", 50000));
  Write(BigString("large", 100000));
  ReadResult r = ReadAll(dest_, WALRecoveryMode::kAbsoluteConsistency);
  EXPECT_EQ(r.records, written_);
  EXPECT_TRUE(r.report.messages.empty()) << r.report.All();
}

TEST_P(LogTest, HugeRecordIsFirstMiddleLast) {
  const std::string big = BigString("0123456789abcdefghijklmnopqrstuvwxyz", 100 * 1024);
  Write(big);
  const size_t per_block = kBlockSize - header_size_;
  const size_t full_blocks = big.size() / per_block;
  ASSERT_EQ(full_blocks, 3u);
  EXPECT_EQ(TypeAt(0), Type(kFirstType));
  EXPECT_EQ(LengthAt(0), per_block);
  for (size_t b = 1; b < full_blocks; b++) {
    EXPECT_EQ(TypeAt(b * kBlockSize), Type(kMiddleType)) << b;
    EXPECT_EQ(LengthAt(b * kBlockSize), per_block) << b;
  }
  const size_t last = full_blocks * kBlockSize;
  EXPECT_EQ(TypeAt(last), Type(kLastType));
  EXPECT_EQ(LengthAt(last), big.size() - full_blocks * per_block);
  EXPECT_EQ(dest_.size(), last + header_size_ + LengthAt(last));
  ReadResult r = ReadAll(dest_, WALRecoveryMode::kAbsoluteConsistency);
  EXPECT_EQ(r.records, written_);
  EXPECT_EQ(r.offsets, std::vector<uint64_t>{0});
}

// A record filling a block exactly, then one starting a fresh block.
TEST_P(LogTest, RecordFillsBlockExactly) {
  Write(BigString("x", kBlockSize - header_size_));
  ASSERT_EQ(dest_.size(), kBlockSize);
  EXPECT_EQ(TypeAt(0), Type(kFullType));
  Write("next");
  EXPECT_EQ(TypeAt(kBlockSize), Type(kFullType));
  ReadResult r = ReadAll(dest_, WALRecoveryMode::kAbsoluteConsistency);
  EXPECT_EQ(r.records, written_);
  EXPECT_EQ(r.offsets, (std::vector<uint64_t>{0, kBlockSize}));
}

// Every amount of room left in a block around the header size, followed by
// records of several sizes: checks the bytes the writer puts there and that
// the reader gets everything back.
TEST_P(LogTest, EverySizeAroundBlockBoundary) {
  for (size_t left = 0; left <= header_size_ + 2; left++) {
    for (size_t second : {size_t{0}, size_t{1}, size_t{100}, kBlockSize, 3 * kBlockSize}) {
      SCOPED_TRACE("left " + std::to_string(left) + " second " + std::to_string(second));
      std::string contents;
      std::vector<std::string> records = {BigString("a", kBlockSize - header_size_ - left),
                                          BigString("bcd", second), "tail"};
      auto sink = std::make_unique<StringSink>(&contents);
      Writer writer(std::move(sink), kLogNumber, recyclable_);
      for (const auto& rec : records) ASSERT_OK(writer.AddRecord(rec));
      ASSERT_EQ(writer.file_size(), contents.size());

      const size_t second_start = kBlockSize - left;
      auto type_at = [&](size_t off) { return static_cast<unsigned char>(contents[off + 6]); };
      auto length_at = [&](size_t off) { return DecodeFixed16(contents.data() + off + 4); };
      size_t second_record_offset;
      if (left < header_size_) {
        // Zero padding, the second record starts the next block.
        EXPECT_EQ(contents.substr(second_start, left), std::string(left, '\0'));
        second_record_offset = kBlockSize;
        EXPECT_EQ(type_at(kBlockSize),
                  Type(second + header_size_ <= kBlockSize ? kFullType : kFirstType));
      } else if (left == header_size_) {
        second_record_offset = second_start;
        if (second == 0) {
          EXPECT_EQ(type_at(second_start), Type(kFullType));
        } else {
          // The zero-length FIRST fragment at the block tail.
          EXPECT_EQ(type_at(second_start), Type(kFirstType));
          EXPECT_EQ(length_at(second_start), 0u);
          EXPECT_EQ(type_at(kBlockSize),
                    Type(second + header_size_ <= kBlockSize ? kLastType : kMiddleType));
        }
      } else {
        second_record_offset = second_start;
        const size_t room = left - header_size_;
        EXPECT_EQ(type_at(second_start), Type(second <= room ? kFullType : kFirstType));
        EXPECT_EQ(length_at(second_start), std::min(second, room));
      }
      for (WALRecoveryMode mode : kAllModes) {
        ReadResult r = ReadAll(contents, mode);
        EXPECT_EQ(r.records, records) << ModeName(mode);
        ASSERT_EQ(r.offsets.size(), 3u);
        EXPECT_EQ(r.offsets[0], 0u);
        EXPECT_EQ(r.offsets[1], second_record_offset);
        EXPECT_TRUE(r.report.messages.empty()) << r.report.All();
      }
    }
  }
}

TEST_P(LogTest, WriterFlushesOncePerRecordWithOneAppend) {
  bool closed = false;
  auto sink = std::make_unique<StringSink>(&dest_, &closed);
  sink_ = sink.get();
  writer_ = std::make_unique<Writer>(std::move(sink), kLogNumber, recyclable_);
  Write("warm up");
  const int appends = sink_->appends;
  const int flushes = sink_->flushes;
  Write("a record that fits in the block");
  EXPECT_EQ(sink_->appends, appends + 1);
  EXPECT_EQ(sink_->flushes, flushes + 1);
  // A record spanning blocks is still handed over in one piece.
  Write(BigString("z", 2 * kBlockSize));
  EXPECT_EQ(sink_->appends, appends + 2);
  EXPECT_EQ(sink_->flushes, flushes + 2);
  ASSERT_OK(writer_->Sync());
  EXPECT_EQ(sink_->syncs, 1);
  ASSERT_OK(writer_->Close());  // destroys the sink
  EXPECT_TRUE(closed);
  EXPECT_EQ(writer_->file(), nullptr);
  ASSERT_OK(writer_->Close());
  EXPECT_FALSE(writer_->AddRecord("after close").ok());
}

TEST_P(LogTest, ManualFlush) {
  std::string contents;
  auto sink = std::make_unique<StringSink>(&contents);
  StringSink* s = sink.get();
  Writer writer(std::move(sink), kLogNumber, recyclable_,
                /*manual_flush=*/true);
  ASSERT_OK(writer.AddRecord("one"));
  ASSERT_OK(writer.AddRecord("two"));
  EXPECT_EQ(s->flushes, 0);
  ASSERT_OK(writer.WriteBuffer());
  EXPECT_EQ(s->flushes, 1);
  EXPECT_EQ(ReadAll(contents, WALRecoveryMode::kAbsoluteConsistency).records,
            (std::vector<std::string>{"one", "two"}));
}

// A writer over a file that already holds records keeps the block
// alignment (GetFileSize() % kBlockSize).
TEST_P(LogTest, WriterAppendsToExistingFile) {
  // Leaves 3 bytes in block 0.
  Write(BigString("p", kBlockSize - header_size_ - 3));
  writer_.reset();
  writer_ = std::make_unique<Writer>(std::make_unique<StringSink>(&dest_), kLogNumber, recyclable_);
  EXPECT_EQ(writer_->file_size(), dest_.size());
  Write("q");
  Write(BigString("r", 40000));
  EXPECT_EQ(TypeAt(kBlockSize), Type(kFullType));
  ReadResult r = ReadAll(dest_, WALRecoveryMode::kAbsoluteConsistency);
  EXPECT_EQ(r.records, written_);
  EXPECT_TRUE(r.report.messages.empty()) << r.report.All();
}

TEST_P(LogTest, RandomRecords) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 300; i++) {
    const int skew = static_cast<int>(rng() % 18);
    const size_t n = static_cast<size_t>(rng() % (size_t{1} << skew));
    Write(test::RandomBytes(&rng, n));
  }
  ReadResult r = ReadAll(dest_, WALRecoveryMode::kAbsoluteConsistency, true, kLogNumber,
                         /*own_memory=*/seed % 2 == 0);
  EXPECT_EQ(r.records, written_);
  EXPECT_TRUE(r.report.messages.empty()) << r.report.All();
}

TEST_P(LogTest, EndOfBufferOffset) {
  Write("hello");
  Write(BigString("w", 40000));
  Reader reader(std::make_unique<StringSource>(dest_), nullptr, true, kLogNumber, kFileName);
  Slice record;
  std::string scratch;
  ASSERT_TRUE(reader.ReadRecord(&record, &scratch));
  EXPECT_EQ(reader.EndOfBufferOffset(), kBlockSize);
  ASSERT_TRUE(reader.ReadRecord(&record, &scratch));
  EXPECT_EQ(reader.LastRecordOffset(), header_size_ + 5);
  EXPECT_EQ(reader.EndOfBufferOffset(), dest_.size());
  EXPECT_FALSE(reader.ReadRecord(&record, &scratch));
  EXPECT_TRUE(reader.IsEOF());
}

// ---- truncation at the end of the file ----

// Cuts the file at every byte of the last record: in every mode the earlier
// records are kept, the cut record is dropped, and only kAbsoluteConsistency
// reports it (naming the record's offset).
TEST_P(LogTest, TruncateLastRecordAtEveryByte) {
  for (size_t last_size : {size_t{100}, size_t{0}, 2 * kBlockSize + 500}) {
    std::string contents;
    Writer writer(std::make_unique<StringSink>(&contents), kLogNumber, recyclable_);
    const std::vector<std::string> records = {"first record", BigString("second", 1000),
                                              BigString("last-", last_size)};
    ASSERT_OK(writer.AddRecord(records[0]));
    ASSERT_OK(writer.AddRecord(records[1]));
    const size_t last_start = contents.size();
    ASSERT_OK(writer.AddRecord(records[2]));
    const size_t end = contents.size();
    for (size_t cut = last_start; cut < end; cut++) {
      // Every byte near a fragment header, a sample elsewhere.
      const size_t in_block = cut % kBlockSize;
      if (last_size > kBlockSize && cut - last_start > 2 * header_size_ &&
          in_block > 2 * header_size_ && in_block < kBlockSize - 2 * header_size_ &&
          cut + 2 * header_size_ < end && cut % 61 != 0) {
        continue;
      }
      const std::string cut_file = contents.substr(0, cut);
      // What the reader ended on silently is a torn tail.
      EXPECT_OK(CheckTornTail(kFileName, kLogNumber, TailOf(cut_file, last_start), last_start));
      for (WALRecoveryMode mode : kAllModes) {
        SCOPED_TRACE(std::string(ModeName(mode)) + " cut at " + std::to_string(cut));
        ReadResult r = ReadAll(cut_file, mode);
        EXPECT_EQ(r.records, Prefix(records, 2));
        if (mode == WALRecoveryMode::kAbsoluteConsistency && cut > last_start) {
          ASSERT_EQ(r.report.messages.size(), 1u);
          EXPECT_NE(r.report.messages[0].find(std::string(kFileName) + " offset " +
                                              std::to_string(last_start)),
                    std::string::npos)
              << r.report.messages[0];
          EXPECT_GT(r.report.dropped_bytes, 0u);
          EXPECT_LE(r.report.dropped_bytes, cut - last_start);
        } else {
          EXPECT_TRUE(r.report.messages.empty()) << r.report.All();
        }
      }
    }
  }
}

// A file cut inside the zero padding of a block tail (the writer padded and
// stopped): nothing is lost and nothing is reported.
TEST_P(LogTest, TruncateInsideBlockPadding) {
  Write(BigString("p", kBlockSize - header_size_ - (header_size_ - 1)));
  const size_t first_end = dest_.size();
  Write("next");
  for (size_t cut = first_end; cut <= kBlockSize; cut++) {
    for (WALRecoveryMode mode : kAllModes) {
      ReadResult r = ReadAll(dest_.substr(0, cut), mode);
      EXPECT_EQ(r.records, Prefix(written_, 1)) << cut;
      EXPECT_TRUE(r.report.messages.empty()) << r.report.All();
    }
  }
}

// ---- damage in the middle of the file ----

// Layout used by the damage tests: records A and B, a filler F closing
// block 0, and C starting block 1. Damage to B drops the rest of block 0
// (B and F); C is read again after it except in point-in-time mode.
struct MiddleLayout {
  std::string contents;
  std::vector<std::string> records;  // A, B, F, C
  size_t b_offset;
  size_t f_offset;
};

MiddleLayout MakeMiddleLayout(bool recyclable) {
  const size_t hs = recyclable ? kRecyclableHeaderSize : kHeaderSize;
  MiddleLayout l;
  l.records = {BigString("A", 100), BigString("B", 200), "", BigString("C", 300)};
  l.records[2] = BigString("F", kBlockSize - 3 * hs - 300);
  Writer writer(std::make_unique<StringSink>(&l.contents), kLogNumber, recyclable);
  for (size_t i = 0; i < l.records.size(); i++) {
    if (i == 1) l.b_offset = l.contents.size();
    if (i == 2) l.f_offset = l.contents.size();
    EXPECT_OK(writer.AddRecord(l.records[i]));
  }
  EXPECT_EQ(l.contents.size(), kBlockSize + hs + 300);
  return l;
}

TEST_P(LogTest, FlipEveryByteOfMiddleRecord) {
  const MiddleLayout l = MakeMiddleLayout(recyclable_);
  const std::string at_b = std::string(kFileName) + " offset " + std::to_string(l.b_offset);
  for (size_t pos = l.b_offset; pos < l.f_offset; pos++) {
    for (unsigned char flip : {0x01, 0x04, 0x80, 0xff}) {
      std::string damaged = l.contents;
      damaged[pos] = static_cast<char>(damaged[pos] ^ flip);
      const bool log_number_byte =
          recyclable_ && pos >= l.b_offset + kHeaderSize && pos < l.b_offset + header_size_;
      for (WALRecoveryMode mode : kAllModes) {
        SCOPED_TRACE(std::string(ModeName(mode)) + " pos " + std::to_string(pos - l.b_offset) +
                     " flip " + std::to_string(flip));
        ReadResult r = ReadAll(damaged, mode);
        if (log_number_byte) {
          // A recyclable record of another log number is stale data of a
          // reused file: the end of the log, silently (RocksDB's rule).
          if (mode == WALRecoveryMode::kSkipAnyCorruptedRecords) {
            EXPECT_EQ(r.records,
                      (std::vector<std::string>{l.records[0], l.records[2], l.records[3]}));
          } else {
            EXPECT_EQ(r.records, Prefix(l.records, 1));
          }
          EXPECT_TRUE(r.report.messages.empty()) << r.report.All();
          continue;
        }
        if (recyclable_ && mode == WALRecoveryMode::kTolerateCorruptedTailRecords) {
          // In a reused file damage is taken for the old file's leftovers.
          EXPECT_EQ(r.records, Prefix(l.records, 1));
          EXPECT_TRUE(r.report.messages.empty()) << r.report.All();
          continue;
        }
        if (mode == WALRecoveryMode::kPointInTimeRecovery) {
          EXPECT_EQ(r.records, Prefix(l.records, 1));
        } else {
          EXPECT_EQ(r.records, (std::vector<std::string>{l.records[0], l.records[3]}));
        }
        ASSERT_EQ(r.report.messages.size(), 1u);
        EXPECT_NE(r.report.messages[0].find("Corruption: "), std::string::npos);
        EXPECT_NE(r.report.messages[0].find(at_b), std::string::npos) << r.report.messages[0];
        EXPECT_EQ(r.report.dropped_bytes, kBlockSize - l.b_offset);
      }
    }
  }
}

TEST_P(LogTest, ChecksumMismatchMessage) {
  MiddleLayout l = MakeMiddleLayout(recyclable_);
  l.contents[l.b_offset + header_size_ + 10] ^= 0x20;
  ReadResult r = ReadAll(l.contents, WALRecoveryMode::kSkipAnyCorruptedRecords);
  ASSERT_EQ(r.report.messages.size(), 1u);
  EXPECT_EQ(r.report.messages[0], "Corruption: checksum mismatch: " + std::string(kFileName) +
                                      " offset " + std::to_string(l.b_offset));
}

TEST_P(LogTest, ChecksumOff) {
  MiddleLayout l = MakeMiddleLayout(recyclable_);
  l.contents[l.b_offset + header_size_ + 10] = 'x';
  std::vector<std::string> expected = l.records;
  expected[1][10] = 'x';
  for (WALRecoveryMode mode : kAllModes) {
    ReadResult r = ReadAll(l.contents, mode, /*checksum=*/false);
    EXPECT_EQ(r.records, expected);
    EXPECT_TRUE(r.report.messages.empty()) << r.report.All();
    ReadResult checked = ReadAll(l.contents, mode, /*checksum=*/true);
    EXPECT_NE(checked.records, expected);
  }
}

TEST_P(LogTest, BadLengthInTheMiddle) {
  MiddleLayout l = MakeMiddleLayout(recyclable_);
  EncodeFixed16(l.contents.data() + l.b_offset + 4, 0xffff);
  for (WALRecoveryMode mode : kAllModes) {
    if (recyclable_ && mode == WALRecoveryMode::kTolerateCorruptedTailRecords) continue;
    ReadResult r = ReadAll(l.contents, mode);
    ASSERT_EQ(r.report.messages.size(), 1u) << ModeName(mode);
    EXPECT_EQ(r.report.messages[0], "Corruption: bad record length: " + std::string(kFileName) +
                                        " offset " + std::to_string(l.b_offset));
    EXPECT_EQ(r.records.size(), mode == WALRecoveryMode::kPointInTimeRecovery ? 1u : 2u);
  }
}

// A bad length in the file's last block cannot be told from a cut record:
// the log ends there (reported only in kAbsoluteConsistency).
TEST_P(LogTest, BadLengthInLastBlock) {
  Write("one");
  const size_t second = dest_.size();
  Write("two");
  Write("three");
  EncodeFixed16(dest_.data() + second + 4, 1000);
  for (WALRecoveryMode mode : kAllModes) {
    ReadResult r = ReadAll(dest_, mode);
    EXPECT_EQ(r.records, Prefix(written_, 1));
    EXPECT_EQ(r.report.messages.size(), mode == WALRecoveryMode::kAbsoluteConsistency ? 1u : 0u);
  }
}

// The same damaged length, seen by CheckTornTail: intact records follow in
// the bytes it claims, so it is damage, not a torn write.
TEST_P(LogTest, CheckTornTailFindsIntactRecordsAfterABadLength) {
  Write("one");
  const size_t second = dest_.size();
  Write("two");
  Write("three");
  EncodeFixed16(dest_.data() + second + 4, 1000);
  Status s = CheckTornTail(kFileName, kLogNumber, TailOf(dest_, second), second);
  ASSERT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_EQ(s.ToString(),
            "Corruption: bad record length (intact records follow): " + std::string(kFileName) +
                " record at offset " + std::to_string(second));
  // A length that overruns its block is damage even with nothing after it.
  dest_.resize(second + header_size_ + 3);
  EncodeFixed16(dest_.data() + second + 4, 0xffff);
  s = CheckTornTail(kFileName, kLogNumber, TailOf(dest_, second), second);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  // Zeros (preallocated space) and fewer bytes than a header are torn tails;
  // zeros with an intact record after them are a hole.
  EXPECT_OK(CheckTornTail(kFileName, kLogNumber, std::string(100, '\0'), second));
  EXPECT_OK(CheckTornTail(kFileName, kLogNumber, std::string(3, 'x'), second));
  std::string record;
  Writer w(std::make_unique<StringSink>(&record), kLogNumber, recyclable_);
  ASSERT_OK(w.AddRecord("after the hole"));
  const std::string hole = std::string(100, '\0') + record;
  EXPECT_TRUE(CheckTornTail(kFileName, kLogNumber, hole, 0).IsCorruption());
}

// Types above 8 have the 7-byte header, so these two tests damage a legacy
// log (in a recyclable one the retyped record would also misparse).
TEST_P(LogTest, UnknownRecordType) {
  if (recyclable_) GTEST_SKIP() << "legacy layout only";
  MiddleLayout l = MakeMiddleLayout(recyclable_);
  l.contents[l.b_offset + 6] = 12;  // unknown, and not safe to ignore (bit 7 clear)
  const size_t len = DecodeFixed16(l.contents.data() + l.b_offset + 4);
  const uint32_t crc = crc32c::Value(l.contents.data() + l.b_offset + 6, 1 + len);
  EncodeFixed32(l.contents.data() + l.b_offset, crc32c::Mask(crc));
  for (WALRecoveryMode mode : kAllModes) {
    ReadResult r = ReadAll(l.contents, mode);
    ASSERT_EQ(r.report.messages.size(), 1u) << ModeName(mode);
    EXPECT_EQ(r.report.messages[0],
              "Corruption: unknown record type 12: " + std::string(kFileName) + " offset " +
                  std::to_string(l.b_offset));
    EXPECT_EQ(r.report.dropped_bytes, len);
    if (mode == WALRecoveryMode::kPointInTimeRecovery) {
      EXPECT_EQ(r.records, Prefix(l.records, 1));
    } else {
      // Only the record itself is dropped: its length was right.
      EXPECT_EQ(r.records, (std::vector<std::string>{l.records[0], l.records[2], l.records[3]}));
    }
  }
}

// A compression marker anywhere but at the start of the file is damage
// (RocksDB: "SetCompressionType not the first record"): dropped, reported,
// and reading goes on past it except in kPointInTimeRecovery.
TEST_P(LogTest, CompressionRecordNotFirstIsDamage) {
  if (recyclable_) GTEST_SKIP() << "legacy layout only";
  MiddleLayout l = MakeMiddleLayout(recyclable_);
  l.contents[l.b_offset + 6] = kSetCompressionType;
  const size_t len = DecodeFixed16(l.contents.data() + l.b_offset + 4);
  const uint32_t crc = crc32c::Value(l.contents.data() + l.b_offset + 6, 1 + len);
  EncodeFixed32(l.contents.data() + l.b_offset, crc32c::Mask(crc));
  for (WALRecoveryMode mode : kAllModes) {
    ReadResult r = ReadAll(l.contents, mode);
    if (mode == WALRecoveryMode::kPointInTimeRecovery) {
      EXPECT_EQ(r.records, Prefix(l.records, 1)) << ModeName(mode);
    } else {
      EXPECT_EQ(r.records, (std::vector<std::string>{l.records[0], l.records[2], l.records[3]}))
          << ModeName(mode);
    }
    ASSERT_EQ(r.report.messages.size(), 1u);
    EXPECT_NE(r.report.messages[0].find("SetCompressionType not the first record"),
              std::string::npos)
        << r.report.messages[0];
    EXPECT_NE(r.report.messages[0].find(" offset " + std::to_string(l.b_offset)),
              std::string::npos);
  }
}

// ---- compressed logs (RocksDB's wal_compression) ----

// n random bytes (incompressible).
std::string RandomString(Random* rnd, size_t n) {
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rnd->Uniform(256));
  return s;
}

std::string CompressedLog(const std::vector<std::string>& records, bool recyclable,
                          std::vector<uint64_t>* offsets = nullptr) {
  std::string contents;
  Writer writer(std::make_unique<StringSink>(&contents), kLogNumber, recyclable);
  EXPECT_OK(writer.AddCompressionTypeRecord(kZSTD));
  for (const std::string& r : records) {
    if (offsets != nullptr) offsets->push_back(contents.size());
    EXPECT_OK(writer.AddRecord(r));
  }
  return contents;
}

// Records of every size round-trip: empty, small, a block's worth,
// incompressible ones spanning several blocks; the file starts with the
// marker, and compressible records take less space than plain ones.
TEST_P(LogTest, CompressedLogRoundTrip) {
  Random rnd(301);
  std::vector<std::string> records = {"",
                                      "small",
                                      std::string(40000, 'z'),
                                      RandomString(&rnd, 100000),
                                      "",
                                      BigString("compressible", 70000),
                                      RandomString(&rnd, kBlockSize - 20)};
  for (int i = 0; i < 200; ++i) records.push_back(RandomString(&rnd, rnd.Uniform(300)));
  const std::string contents = CompressedLog(records, recyclable_);
  ASSERT_GE(contents.size(), kHeaderSize + 4);
  EXPECT_EQ(static_cast<unsigned char>(contents[6]), kSetCompressionType);
  EXPECT_EQ(DecodeFixed32(contents.data() + kHeaderSize), static_cast<uint32_t>(kZSTD));
  for (WALRecoveryMode mode : kAllModes) {
    ReadResult r = ReadAll(contents, mode);
    EXPECT_TRUE(r.report.messages.empty()) << r.report.messages[0];
    ASSERT_EQ(r.records.size(), records.size()) << ModeName(mode);
    for (size_t i = 0; i < records.size(); ++i) EXPECT_EQ(r.records[i], records[i]) << i;
  }
  std::string plain;
  {
    Writer writer(std::make_unique<StringSink>(&plain), kLogNumber, recyclable_);
    for (const std::string& r : records) ASSERT_OK(writer.AddRecord(r));
  }
  EXPECT_LT(contents.size(), plain.size());
}

// A reader started mid-file (SkipTo, as WAL tailing does) learns from the
// file's first record that it must decompress.
TEST_P(LogTest, CompressedLogSkipTo) {
  Random rnd(7);
  std::vector<std::string> records;
  for (int i = 0; i < 40; ++i) records.push_back(RandomString(&rnd, 1 + rnd.Uniform(5000)));
  std::vector<uint64_t> offsets;
  const std::string contents = CompressedLog(records, recyclable_, &offsets);
  for (size_t start : {size_t{1}, size_t{10}, size_t{39}}) {
    // The end of record start-1 is where record start begins (or block
    // padding before it).
    Reader reader(std::make_unique<StringSource>(contents, false), nullptr, true, kLogNumber,
                  kFileName);
    ASSERT_OK(reader.SkipTo(offsets[start]));
    EXPECT_EQ(reader.compression(), kZSTD);
    Slice record;
    std::string scratch;
    for (size_t i = start; i < records.size(); ++i) {
      ASSERT_TRUE(reader.ReadRecord(&record, &scratch)) << i;
      EXPECT_EQ(record.ToString(), records[i]) << i;
    }
    EXPECT_FALSE(reader.ReadRecord(&record, &scratch));
  }
}

// A fragment that does not decompress (its crc not checked) is damage; the
// records after it are read except in kPointInTimeRecovery.
TEST_P(LogTest, CompressedLogBadFrameIsDamage) {
  const std::vector<std::string> records = {BigString("a", 300), BigString("b", 300),
                                            BigString("c", 300)};
  std::vector<uint64_t> offsets;
  std::string contents = CompressedLog(records, recyclable_, &offsets);
  // Overwrite the middle record's frame magic.
  contents[offsets[1] + header_size_] ^= 0x55;
  for (WALRecoveryMode mode : kAllModes) {
    ReadResult r = ReadAll(contents, mode, /*checksum=*/false);
    ASSERT_EQ(r.report.messages.size(), 1u) << ModeName(mode);
    EXPECT_NE(r.report.messages[0].find("corrupted compressed WAL record"), std::string::npos);
    EXPECT_NE(r.report.messages[0].find(" offset " + std::to_string(offsets[1])), std::string::npos)
        << r.report.messages[0];
    if (mode == WALRecoveryMode::kPointInTimeRecovery) {
      EXPECT_EQ(r.records, Prefix(records, 1));
    } else {
      EXPECT_EQ(r.records, (std::vector<std::string>{records[0], records[2]}));
    }
  }
}

// A marker naming a type other than ZSTD: NotSupported, and the reader
// stops in every mode (the log is not damaged; Strata cannot read it).
TEST_P(LogTest, CompressedLogOfAnotherTypeIsNotSupported) {
  if (recyclable_) GTEST_SKIP() << "the marker has a legacy header";
  std::string contents = CompressedLog({"x", "y"}, false);
  EncodeFixed32(contents.data() + kHeaderSize, kSnappyCompression);
  const uint32_t crc = crc32c::Value(contents.data() + 6, 1 + 4);
  EncodeFixed32(contents.data(), crc32c::Mask(crc));
  for (WALRecoveryMode mode : kAllModes) {
    ReadResult r = ReadAll(contents, mode);
    EXPECT_TRUE(r.records.empty());
    ASSERT_EQ(r.report.messages.size(), 1u);
    EXPECT_EQ(r.report.messages[0].rfind("Not implemented: WAL compression type 1", 0), 0u)
        << r.report.messages[0];
  }
}

// The LAST fragment of a record whose start is gone.
TEST_P(LogTest, MissingStartOfFragmentedRecord) {
  Write(BigString("big", 50000));
  Write("small");
  const std::string without_first_block = dest_.substr(kBlockSize);
  for (WALRecoveryMode mode : kAllModes) {
    ReadResult r = ReadAll(without_first_block, mode);
    ASSERT_EQ(r.report.messages.size(), 1u) << ModeName(mode);
    EXPECT_NE(r.report.messages[0].find("missing start of fragmented record"), std::string::npos);
    EXPECT_NE(r.report.messages[0].find(" offset 0"), std::string::npos);
    EXPECT_EQ(r.report.dropped_bytes, 50000 - (kBlockSize - header_size_));
    if (mode == WALRecoveryMode::kPointInTimeRecovery) {
      EXPECT_TRUE(r.records.empty());
    } else {
      EXPECT_EQ(r.records, std::vector<std::string>{"small"});
    }
  }
}

// A FIRST fragment followed by a FULL record: the unfinished record is
// reported and dropped, the FULL one is read.
TEST_P(LogTest, PartialRecordWithoutEnd) {
  Write(BigString("big", 50000));
  std::string contents = dest_.substr(0, kBlockSize);
  Writer writer(std::make_unique<StringSink>(&contents), kLogNumber, recyclable_);
  ASSERT_OK(writer.AddRecord("hello"));
  for (WALRecoveryMode mode : kAllModes) {
    ReadResult r = ReadAll(contents, mode);
    ASSERT_EQ(r.report.messages.size(), 1u) << ModeName(mode);
    EXPECT_NE(r.report.messages[0].find("partial record without end"), std::string::npos);
    EXPECT_NE(r.report.messages[0].find(" offset 0"), std::string::npos);
    EXPECT_EQ(r.report.dropped_bytes, kBlockSize - header_size_);
    if (mode == WALRecoveryMode::kPointInTimeRecovery) {
      EXPECT_TRUE(r.records.empty());
    } else {
      EXPECT_EQ(r.records, std::vector<std::string>{"hello"});
      EXPECT_EQ(r.offsets, std::vector<uint64_t>{kBlockSize});
    }
  }
}

// ---- zero-filled space (preallocated, unwritten) ----

TEST_P(LogTest, ZeroFilledTailOfAnyLength) {
  Write("one");
  Write(BigString("two", 5000));
  const std::vector<size_t> lengths = {1,
                                       2,
                                       3,
                                       4,
                                       5,
                                       6,
                                       7,
                                       8,
                                       10,
                                       11,
                                       12,
                                       100,
                                       kBlockSize - dest_.size() - 1,
                                       kBlockSize - dest_.size(),
                                       kBlockSize - dest_.size() + 1,
                                       kBlockSize - dest_.size() + 6,
                                       kBlockSize - dest_.size() + 11,
                                       3 * kBlockSize + 17};
  for (size_t n : lengths) {
    const std::string contents = dest_ + std::string(n, '\0');
    for (WALRecoveryMode mode : kAllModes) {
      ReadResult r = ReadAll(contents, mode);
      EXPECT_EQ(r.records, written_) << n << " " << ModeName(mode);
      EXPECT_TRUE(r.report.messages.empty()) << n << " " << r.report.All();
    }
  }
}

// Zero-filled tail after a record that ended a block exactly.
TEST_P(LogTest, ZeroFilledBlocksAfterFullBlock) {
  Write(BigString("x", kBlockSize - header_size_));
  for (size_t n : {size_t{3}, size_t{7}, kBlockSize, 2 * kBlockSize + 9}) {
    for (WALRecoveryMode mode : kAllModes) {
      ReadResult r = ReadAll(dest_ + std::string(n, '\0'), mode);
      EXPECT_EQ(r.records, written_);
      EXPECT_TRUE(r.report.messages.empty()) << r.report.All();
    }
  }
}

// A crash in the middle of a fragmented record of an mmap-written log: the
// FIRST fragment, then zeros. The unfinished record is dropped; only
// kAbsoluteConsistency reports it.
TEST_P(LogTest, ZeroFilledTailInsideFragmentedRecord) {
  Write("one");
  const size_t big_start = dest_.size();
  Write(BigString("big", 50000));
  const std::string contents = dest_.substr(0, kBlockSize) + std::string(40000, '\0');
  for (WALRecoveryMode mode : kAllModes) {
    ReadResult r = ReadAll(contents, mode);
    EXPECT_EQ(r.records, Prefix(written_, 1));
    if (mode == WALRecoveryMode::kAbsoluteConsistency) {
      ASSERT_EQ(r.report.messages.size(), 1u);
      EXPECT_NE(r.report.messages[0].find(" offset " + std::to_string(big_start)),
                std::string::npos);
    } else {
      EXPECT_TRUE(r.report.messages.empty()) << r.report.All();
    }
  }
}

// Zeros followed by more records are a hole, not the end: reported once.
TEST_P(LogTest, ZeroFilledHoleBeforeMoreRecords) {
  Write("one");
  const size_t hole_start = dest_.size();
  dest_.append(kBlockSize + (kBlockSize - hole_start), '\0');  // up to block 2
  ASSERT_EQ(dest_.size(), 2 * kBlockSize);
  writer_ = std::make_unique<Writer>(std::make_unique<StringSink>(&dest_), kLogNumber, recyclable_);
  Write("two");
  for (WALRecoveryMode mode : kAllModes) {
    ReadResult r = ReadAll(dest_, mode);
    ASSERT_EQ(r.report.messages.size(), 1u) << ModeName(mode);
    EXPECT_NE(r.report.messages[0].find("zero-filled hole"), std::string::npos);
    EXPECT_NE(r.report.messages[0].find(" offset " + std::to_string(hole_start)),
              std::string::npos);
    EXPECT_EQ(r.report.dropped_bytes, 2 * kBlockSize - hole_start);
    if (mode == WALRecoveryMode::kPointInTimeRecovery) {
      EXPECT_EQ(r.records, Prefix(written_, 1));
    } else {
      EXPECT_EQ(r.records, written_);
    }
  }
}

// A zero header with data after it in the same block is no preallocated
// space: reported, and the next block is read.
TEST_P(LogTest, ZeroHeaderFollowedByDataInBlock) {
  Write("one");
  const size_t zero_start = dest_.size();
  dest_.append(20, '\0');
  writer_ = std::make_unique<Writer>(std::make_unique<StringSink>(&dest_), kLogNumber, recyclable_);
  Write("lost");
  Write(BigString("pad", kBlockSize - dest_.size() - header_size_));
  ASSERT_EQ(dest_.size(), kBlockSize);
  Write("next block");
  for (WALRecoveryMode mode : kAllModes) {
    ReadResult r = ReadAll(dest_, mode);
    if (recyclable_ && mode == WALRecoveryMode::kTolerateCorruptedTailRecords) {
      // Damage in a reused file is taken for the old file's leftovers.
      EXPECT_EQ(r.records, Prefix(written_, 1));
      EXPECT_TRUE(r.report.messages.empty()) << r.report.All();
      continue;
    }
    ASSERT_EQ(r.report.messages.size(), 1u) << ModeName(mode);
    EXPECT_NE(r.report.messages[0].find(" offset " + std::to_string(zero_start)),
              std::string::npos);
    if (mode == WALRecoveryMode::kPointInTimeRecovery) {
      EXPECT_EQ(r.records, Prefix(written_, 1));
    } else {
      EXPECT_EQ(r.records, (std::vector<std::string>{"one", "next block"}));
    }
  }
}

// ---- read errors ----

TEST_P(LogTest, ReadErrorEndsTheLog) {
  Write(BigString("a", 40000));
  Write("b");
  ReportCollector report;
  auto source = std::make_unique<StringSource>(dest_);
  source->FailRead(2);
  Reader reader(std::move(source), &report, true, kLogNumber, kFileName);
  Slice record;
  std::string scratch;
  EXPECT_FALSE(reader.ReadRecord(&record, &scratch, WALRecoveryMode::kSkipAnyCorruptedRecords));
  EXPECT_FALSE(reader.ReadRecord(&record, &scratch, WALRecoveryMode::kSkipAnyCorruptedRecords));
  ASSERT_EQ(report.messages.size(), 1u);
  EXPECT_NE(report.messages[0].find("IO error"), std::string::npos) << report.messages[0];
  EXPECT_NE(report.messages[0].find("offset 32768"), std::string::npos) << report.messages[0];
}

// ---- recyclable records and log numbers ----

TEST(LogRecycleTest, WrongLogNumberIsEndOfLog) {
  std::string contents;
  Writer writer(std::make_unique<StringSink>(&contents), 5,
                /*recycle_log_files=*/true);
  ASSERT_OK(writer.AddRecord("from log 5"));
  ASSERT_OK(writer.AddRecord(BigString("x", 40000)));
  for (WALRecoveryMode mode : kAllModes) {
    ReadResult r = ReadAll(contents, mode, true, /*log_number=*/6);
    EXPECT_TRUE(r.records.empty()) << ModeName(mode);
    EXPECT_TRUE(r.report.messages.empty()) << r.report.All();
    ReadResult right = ReadAll(contents, mode, true, /*log_number=*/5);
    EXPECT_EQ(right.records.size(), 2u);
  }
}

// The low 32 bits of the log number are what the header stores.
TEST(LogRecycleTest, LogNumberIsLow32Bits) {
  std::string contents;
  const uint64_t number = (uint64_t{7} << 32) | 12;
  Writer writer(std::make_unique<StringSink>(&contents), number, true);
  ASSERT_OK(writer.AddRecord("r"));
  EXPECT_EQ(DecodeFixed32(contents.data() + 7), 12u);
  EXPECT_EQ(ReadAll(contents, WALRecoveryMode::kAbsoluteConsistency, true, number).records,
            std::vector<std::string>{"r"});
}

// A reused file: log 6's records over log 5's. Reading stops where the old
// records begin.
TEST(LogRecycleTest, ReusedFileEndsAtOldRecords) {
  std::string old_log;
  Writer old_writer(std::make_unique<StringSink>(&old_log), 5, true);
  for (int i = 0; i < 400; i++) ASSERT_OK(old_writer.AddRecord(BigString(NumberString(i), 100)));
  std::string new_log;
  Writer new_writer(std::make_unique<StringSink>(&new_log), 6, true);
  std::vector<std::string> expected;
  for (int i = 0; i < 30; i++) {
    expected.push_back(BigString("new" + NumberString(i), 100));
    ASSERT_OK(new_writer.AddRecord(expected.back()));
  }
  std::string reused = old_log;
  reused.replace(0, new_log.size(), new_log);
  for (WALRecoveryMode mode : kAllModes) {
    ReadResult r = ReadAll(reused, mode, true, 6);
    EXPECT_EQ(r.records, expected) << ModeName(mode);
    EXPECT_TRUE(r.report.messages.empty()) << r.report.All();
  }
  // The old log's intact records are stale, not records of this log.
  EXPECT_OK(CheckTornTail(kFileName, 6, TailOf(reused, new_log.size()), new_log.size()));
  EXPECT_TRUE(
      CheckTornTail(kFileName, 5, TailOf(reused, new_log.size()), new_log.size()).IsCorruption());
}

// In a file that did not start recyclable, a recyclable header is damage.
TEST(LogRecycleTest, RecyclableHeaderInLegacyFileIsReported) {
  const MiddleLayout l = MakeMiddleLayout(false);
  std::string damaged = l.contents;
  damaged[l.b_offset + 6] = kRecyclableFullType;
  ReadResult r = ReadAll(damaged, WALRecoveryMode::kTolerateCorruptedTailRecords);
  EXPECT_EQ(r.records, (std::vector<std::string>{l.records[0], l.records[3]}));
  ASSERT_EQ(r.report.messages.size(), 1u);
}

// ---- RocksDB's bytes ----

// The 30-byte WAL RocksDB 7.8.3 wrote for Put(k5, value5) at sequence 5
// (docs/format/write_batch.md).
const unsigned char kRocksDbWal[] = {0xbb, 0xf8, 0x77, 0x9f, 0x17, 0x00, 0x01, 0x05, 0x00, 0x00,
                                     0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01,
                                     0x02, 0x6b, 0x35, 0x06, 0x76, 0x61, 0x6c, 0x75, 0x65, 0x35};

TEST(LogRocksDbTest, PutBatchBytesMatchRocksDb) {
  WriteBatch batch;
  ASSERT_OK(batch.Put("k5", "value5"));
  WriteBatchInternal::SetSequence(&batch, 5);
  std::string contents;
  Writer writer(std::make_unique<StringSink>(&contents), 24, false);
  ASSERT_OK(writer.AddRecord(WriteBatchInternal::Contents(&batch)));
  const std::string expected(reinterpret_cast<const char*>(kRocksDbWal), sizeof(kRocksDbWal));
  EXPECT_EQ(Hex(contents), Hex(expected));
  EXPECT_EQ(crc32c::Unmask(DecodeFixed32(contents.data())), 0x86f1fe7au);
}

TEST(LogRocksDbTest, ReadRocksDbWal) {
  const std::string wal(reinterpret_cast<const char*>(kRocksDbWal), sizeof(kRocksDbWal));
  ReadResult r = ReadAll(wal, WALRecoveryMode::kAbsoluteConsistency, true, 24);
  ASSERT_EQ(r.records.size(), 1u);
  EXPECT_TRUE(r.report.messages.empty());
  WriteBatch batch;
  ASSERT_OK(WriteBatchInternal::SetContents(&batch, r.records[0]));
  EXPECT_EQ(WriteBatchInternal::Sequence(&batch), 5u);
  EXPECT_EQ(batch.Count(), 1u);
  struct Collect : WriteBatch::Handler {
    void Put(const Slice& key, const Slice& value) override {
      got += key.ToString() + "=" + value.ToString();
    }
    std::string got;
  } handler;
  ASSERT_OK(batch.Iterate(&handler));
  EXPECT_EQ(handler.got, "k5=value5");
}

// The first record of a fresh RocksDB MANIFEST (docs/format/manifest.md (What Strata writes)).
TEST(LogRocksDbTest, ManifestComparatorRecordBytes) {
  std::string contents;
  Writer writer(std::make_unique<StringSink>(&contents), 1, false);
  ASSERT_OK(writer.AddRecord(std::string("\x01\x1a") + "leveldb.BytewiseComparator"));
  const std::string expected_header("\x56\xf9\xb8\xf8\x1c\x00\x01", 7);
  EXPECT_EQ(Hex(contents.substr(0, 7)), Hex(expected_header));
  EXPECT_EQ(contents.size(), 7u + 28u);
}

// Writes a WAL with Put/Delete/Merge/SingleDelete/DeleteRange/CF-Put and
// checks what RocksDB's own `ldb dump_wal` prints for it.
TEST(LogRocksDbTest, LdbDumpsOurWal) {
  const char* ldb = "/usr/bin/ldb";
  if (access(ldb, X_OK) != 0) GTEST_SKIP() << "no " << ldb;
  test::TempDir dir("log_test_ldb");
  std::string contents;
  Writer writer(std::make_unique<StringSink>(&contents), 12, false);
  WriteBatch b1;
  ASSERT_OK(b1.Put("k1", "v1"));
  ASSERT_OK(b1.Delete("k2"));
  ASSERT_OK(b1.Merge("k3", "m"));
  WriteBatchInternal::SetSequence(&b1, 100);
  ASSERT_OK(writer.AddRecord(WriteBatchInternal::Contents(&b1)));
  WriteBatch b2;
  ASSERT_OK(b2.SingleDelete("k4"));
  ASSERT_OK(b2.DeleteRange("a", "b"));
  ASSERT_OK(b2.Put(BigString("big", 3), BigString("v", 70000)));  // fragmented
  WriteBatchInternal::SetSequence(&b2, 103);
  ASSERT_OK(writer.AddRecord(WriteBatchInternal::Contents(&b2)));
  const std::string path = dir.path() + "/000012.log";
  test::WriteFileOrDie(path, contents);

  const std::string cmd = std::string(ldb) + " dump_wal --walfile=" + path + " --header 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) out.append(buf, n);
  ASSERT_EQ(pclose(p), 0) << out;
  EXPECT_NE(out.find("100,3,"), std::string::npos) << out;
  EXPECT_NE(out.find("PUT(0) : 0x6B31 DELETE(0) : 0x6B32 MERGE(0) : 0x6B33"), std::string::npos)
      << out;
  EXPECT_NE(out.find("103,3,"), std::string::npos) << out;
  EXPECT_NE(out.find("SINGLE_DELETE(0) : 0x6B34 DELETE_RANGE(0) : 0x61 0x62 "
                     "PUT(0) : 0x626967"),
            std::string::npos)
      << out;
  // The second record starts right after the first (physical offset).
  const std::string second_offset = "," + std::to_string(7 + b1.GetDataSize()) + ",";
  EXPECT_NE(out.find(second_offset), std::string::npos) << out;
}

// ---- record types of newer RocksDB (issue 19) ----

// One physical record of `type` built by hand (recyclable header for the
// types that have one).
std::string RawRecord(unsigned int type, const std::string& payload) {
  std::string rec(HasRecyclableHeader(type) ? kRecyclableHeaderSize : kHeaderSize, '\0');
  EncodeFixed16(rec.data() + 4, static_cast<uint16_t>(payload.size()));
  rec[6] = static_cast<char>(type);
  if (HasRecyclableHeader(type)) EncodeFixed32(rec.data() + 7, static_cast<uint32_t>(kLogNumber));
  rec += payload;
  const uint32_t crc = crc32c::Value(rec.data() + 6, rec.size() - 6);
  EncodeFixed32(rec.data(), crc32c::Mask(crc));
  return rec;
}

// Types with bit 7 set (RocksDB's kRecordTypeSafeIgnoreMask, e.g. the
// predecessor-WAL record of track_and_verify_wals) are skipped silently, as
// RocksDB's reader does; their header size follows RocksDB's rule.
TEST(LogNewerRocksDBTest, SafeToIgnoreTypesAreSkipped) {
  const std::string log = RawRecord(kPredecessorWALInfoType, "predecessor info") +
                          RawRecord(kFullType, "foo") + RawRecord(0xc5, "future") +
                          RawRecord(kFullType, "bar");
  for (WALRecoveryMode mode : kAllModes) {
    ReadResult r = ReadAll(log, mode);
    EXPECT_EQ(r.records, (std::vector<std::string>{"foo", "bar"}));
    EXPECT_TRUE(r.report.messages.empty()) << r.report.All();
  }
  // The recyclable variant (131) carries the log number.
  const std::string recycled = RawRecord(kRecyclableFullType, "a") +
                               RawRecord(kRecyclePredecessorWALInfoType, "predecessor") +
                               RawRecord(kRecyclableFullType, "b");
  ReadResult r = ReadAll(recycled, WALRecoveryMode::kAbsoluteConsistency);
  EXPECT_EQ(r.records, (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(r.report.messages.empty()) << r.report.All();
}

// A user-defined timestamp size record: Strata has no user-defined
// timestamps, so it is reported by name (not read as data).
TEST(LogNewerRocksDBTest, UserDefinedTimestampRecordIsReported) {
  const std::string log = RawRecord(kFullType, "foo") +
                          RawRecord(kUserDefinedTimestampSizeType, std::string(6, '\x01')) +
                          RawRecord(kFullType, "bar");
  ReadResult r = ReadAll(log, WALRecoveryMode::kAbsoluteConsistency);
  ASSERT_FALSE(r.report.messages.empty());
  EXPECT_NE(r.report.All().find("user-defined timestamp"), std::string::npos) << r.report.All();
  EXPECT_EQ(r.records.front(), "foo");
}

}  // namespace
}  // namespace strata::log
