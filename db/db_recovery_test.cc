// Engine-level tests of WAL recovery: a database is written, closed, and its
// files damaged the way crashes and bad disks damage them (a torn last
// record, a flipped byte, trailing zeros, a broken CURRENT or MANIFEST); then
// it is reopened under each WALRecoveryMode and must come back with exactly
// the data the mode promises -- never a wrong value. Only the public API is
// used; the WAL is parsed here from its documented layout (docs/format/log.md) to find record
// boundaries.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "strata/db.h"
#include "strata/iterator.h"
#include "strata/options.h"
#include "strata/status.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

constexpr size_t kBlockSize = 32768;
constexpr size_t kHeaderSize = 7;  // crc32 (4) + length (2) + type (1)

// One logical WAL record: the bytes [begin, end) of the file that hold all
// its fragments, headers included.
struct WalRecord {
  size_t begin = 0;
  size_t end = 0;
  int fragments = 0;
};

// Splits a WAL written in the legacy record format into logical records.
// Stops at the first all-zero header (preallocated or zero-filled space).
// Returns false (with *error) on anything it does not understand.
bool ParseWal(const std::string& data, std::vector<WalRecord>* records, std::string* error) {
  records->clear();
  size_t pos = 0;
  bool in_record = false;
  WalRecord current;
  while (pos < data.size()) {
    const size_t left = kBlockSize - pos % kBlockSize;
    if (left < kHeaderSize) {
      pos += left;  // block trailer padding
      continue;
    }
    if (pos + kHeaderSize > data.size()) {
      *error = "partial header at offset " + std::to_string(pos);
      return false;
    }
    const auto* h = reinterpret_cast<const unsigned char*>(data.data() + pos);
    const size_t length = h[4] | (static_cast<size_t>(h[5]) << 8);
    const int type = h[6];
    if (type == 0 && length == 0) break;  // zero fill: end of the written log
    if (pos + kHeaderSize + length > data.size() || kHeaderSize + length > left) {
      *error = "record at offset " + std::to_string(pos) + " overruns its block or the file";
      return false;
    }
    const size_t next = pos + kHeaderSize + length;
    switch (type) {
      case 1:  // FULL
        if (in_record) {
          *error = "FULL inside a fragmented record at " + std::to_string(pos);
          return false;
        }
        records->push_back(WalRecord{pos, next, 1});
        break;
      case 2:  // FIRST
        if (in_record) {
          *error = "FIRST inside a fragmented record at " + std::to_string(pos);
          return false;
        }
        in_record = true;
        current = WalRecord{pos, next, 1};
        break;
      case 3:  // MIDDLE
      case 4:  // LAST
        if (!in_record) {
          *error = "MIDDLE/LAST outside a record at " + std::to_string(pos);
          return false;
        }
        current.end = next;
        current.fragments++;
        if (type == 4) {
          records->push_back(current);
          in_record = false;
        }
        break;
      default:
        *error = "unexpected record type " + std::to_string(type) + " at " + std::to_string(pos);
        return false;
    }
    pos = next;
  }
  if (in_record) {
    *error = "unfinished fragmented record at end";
    return false;
  }
  return true;
}

const char* ModeName(WALRecoveryMode mode) {
  switch (mode) {
    case WALRecoveryMode::kTolerateCorruptedTailRecords:
      return "kTolerateCorruptedTailRecords";
    case WALRecoveryMode::kAbsoluteConsistency:
      return "kAbsoluteConsistency";
    case WALRecoveryMode::kPointInTimeRecovery:
      return "kPointInTimeRecovery";
    case WALRecoveryMode::kSkipAnyCorruptedRecords:
      return "kSkipAnyCorruptedRecords";
  }
  return "?";
}

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// True if msg, with every occurrence of name removed, still holds a digit
// (an offset).
bool HasNumberBesides(std::string msg, const std::string& name) {
  for (size_t p; (p = msg.find(name)) != std::string::npos;) msg.erase(p, name.size());
  return std::any_of(msg.begin(), msg.end(), [](char c) { return c >= '0' && c <= '9'; });
}

class DBRecoveryTest : public ::testing::Test {
 protected:
  DBRecoveryTest()
      : tmp_("db_recovery_test"), dbname_(tmp_.path() + "/db"), backup_(tmp_.path() + "/backup") {}

  static std::string Key(int i) {
    char buf[32];
    snprintf(buf, sizeof(buf), "key%06d", i);
    return buf;
  }
  // Distinct per key, of varying length.
  static std::string Value(int i) {
    return "value-" + std::to_string(i) + "-" +
           std::string(3 + i % 7, static_cast<char>('a' + i % 26));
  }

  Options MakeOptions(WALRecoveryMode mode, bool create) const {
    Options o;
    o.create_if_missing = create;
    o.wal_recovery_mode = mode;
    return o;
  }

  // Creates the database and puts Key(i) -> Value(i) for i in [0, n), one
  // write per key, in one session; closes it and records the sequence.
  void WriteKeys(int begin, int n) {
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(MakeOptions(WALRecoveryMode::kPointInTimeRecovery, true), dbname_, &db));
    for (int i = begin; i < begin + n; i++) {
      ASSERT_OK(db->Put(WriteOptions(), Key(i), Value(i)));
    }
    last_sequence_ = db->GetLatestSequenceNumber();
    ASSERT_OK(db->Close());
  }

  void Backup() {
    fs::remove_all(backup_);
    fs::copy(dbname_, backup_, fs::copy_options::recursive);
  }
  void Restore() {
    fs::remove_all(dbname_);
    fs::copy(backup_, dbname_, fs::copy_options::recursive);
  }

  // Path of the WAL with the highest number.
  std::string NewestLog() const {
    uint64_t best = 0;
    std::string best_name;
    for (const auto& e : fs::directory_iterator(dbname_)) {
      const std::string name = e.path().filename().string();
      uint64_t n;
      if (test::ParseLogFileName(name, &n)) {
        if (best_name.empty() || n > best) {
          best = n;
          best_name = name;
        }
      }
    }
    return best_name.empty() ? "" : dbname_ + "/" + best_name;
  }

  // The logical records of the newest WAL, whose bytes are *data.
  void ParseNewestLog(std::string* path, std::string* data, std::vector<WalRecord>* records) {
    *path = NewestLog();
    ASSERT_FALSE(path->empty()) << "no *.log file in " << dbname_;
    *data = test::ReadFileOrDie(*path);
    std::string error;
    ASSERT_TRUE(ParseWal(*data, records, &error)) << *path << ": " << error;
    ASSERT_FALSE(records->empty()) << *path << " holds no record";
  }

  // "" if db holds exactly expected (scanned with an iterator and probed
  // with Get), else a description of the first difference.
  static std::string Diff(DB* db, const std::map<std::string, std::string>& expected) {
    std::unique_ptr<Iterator> it = db->NewIterator(ReadOptions());
    auto e = expected.begin();
    for (it->SeekToFirst(); it->Valid(); it->Next(), ++e) {
      if (e == expected.end()) return "unexpected key " + it->key().ToString();
      if (it->key().ToString() != e->first) {
        return "iterator at " + it->key().ToString() + ", expected " + e->first;
      }
      if (it->value().ToString() != e->second) {
        return "WRONG VALUE for " + e->first + ": '" + it->value().ToString() + "'";
      }
    }
    if (!it->status().ok()) return "iterator error " + it->status().ToString();
    if (e != expected.end()) return "missing key " + e->first;
    for (const auto& [k, v] : expected) {
      std::string got;
      Status s = db->Get(ReadOptions(), k, &got);
      if (!s.ok()) return "Get(" + k + "): " + s.ToString();
      if (got != v) return "WRONG VALUE from Get(" + k + "): '" + got + "'";
    }
    return "";
  }

  static std::map<std::string, std::string> Keys(int n, const std::function<bool(int)>& keep) {
    std::map<std::string, std::string> m;
    for (int i = 0; i < n; i++) {
      if (keep(i)) m[Key(i)] = Value(i);
    }
    return m;
  }
  static std::map<std::string, std::string> Prefix(int n) {
    return Keys(n, [](int) { return true; });
  }

  // Opens with mode; "" if it opened and holds exactly expected with latest
  // sequence expected_seq (unless 0), else what went wrong.
  std::string OpenAndCheck(WALRecoveryMode mode, const std::map<std::string, std::string>& expected,
                           uint64_t expected_seq) {
    std::unique_ptr<DB> db;
    Status s = DB::Open(MakeOptions(mode, false), dbname_, &db);
    if (!s.ok()) return std::string("Open failed: ") + s.ToString();
    std::string diff = Diff(db.get(), expected);
    if (diff.empty() && expected_seq != 0 && db->GetLatestSequenceNumber() != expected_seq) {
      diff = "latest sequence " + std::to_string(db->GetLatestSequenceNumber()) + ", expected " +
             std::to_string(expected_seq);
    }
    Status c = db->Close();
    if (diff.empty() && !c.ok()) diff = "Close: " + c.ToString();
    return diff;
  }

  // Opens with mode and expects Corruption naming the file (and, if
  // want_offset, a number besides the file name). "" if so.
  std::string OpenExpectCorruption(WALRecoveryMode mode, const std::string& file,
                                   bool want_offset) {
    std::unique_ptr<DB> db;
    Status s = DB::Open(MakeOptions(mode, false), dbname_, &db);
    if (s.ok()) {
      std::string what = "opened OK (expected Corruption); contents check: ";
      const std::string d = Diff(db.get(), {});
      what += d.empty() ? "empty" : d;
      db->Close().PermitUncheckedError();
      return what;
    }
    if (db != nullptr) return "failed Open left *db set";
    if (!s.IsCorruption()) return "expected Corruption, got " + s.ToString();
    if (!Contains(s.ToString(), file)) return "message does not name " + file + ": " + s.ToString();
    if (want_offset && !HasNumberBesides(s.ToString(), file)) {
      return "message names no offset: " + s.ToString();
    }
    return "";
  }

  test::TempDir tmp_;
  std::string dbname_;
  std::string backup_;
  uint64_t last_sequence_ = 0;
};

// Runs check for each case and reports at most a few failures in full (the
// per-offset loops would otherwise print hundreds of lines).
class FailureLog {
 public:
  void Add(const std::string& what, const std::string& result) {
    if (result.empty()) return;
    failures_++;
    if (failures_ <= 8) ADD_FAILURE() << what << ": " << result;
  }
  ~FailureLog() {
    if (failures_ > 8) ADD_FAILURE() << failures_ << " failures in all (first 8 shown)";
  }

 private:
  int failures_ = 0;
};

std::string WithTrailingZeros(const std::string& data, size_t n) {
  return data + std::string(n, '\0');
}

// ---- the last record torn at every offset --------------------------------

TEST_F(DBRecoveryTest, TruncatedLastRecordAtEveryOffset) {
  const int kN = 20;
  WriteKeys(0, kN);
  std::string log, data;
  std::vector<WalRecord> records;
  ParseNewestLog(&log, &data, &records);
  const WalRecord last = records.back();
  // header + batch header (12) + Put tag + varint key length + key + varint
  // value length + value.
  const size_t expected_size =
      kHeaderSize + 12 + 1 + 1 + Key(kN - 1).size() + 1 + Value(kN - 1).size();
  ASSERT_EQ(last.end - last.begin, expected_size) << "the last record is not the last Put";
  ASSERT_GE(records.size(), static_cast<size_t>(kN));
  Backup();
  const std::string base = fs::path(log).filename().string();
  const auto expected = Prefix(kN - 1);
  FailureLog failures;
  for (size_t p = last.begin + 1; p < last.end; p++) {
    const std::string at = "truncated at " + std::to_string(p) + " (record " +
                           std::to_string(last.begin) + ".." + std::to_string(last.end) + ")";
    for (WALRecoveryMode mode :
         {WALRecoveryMode::kPointInTimeRecovery, WALRecoveryMode::kTolerateCorruptedTailRecords}) {
      Restore();
      test::WriteFileOrDie(log, data.substr(0, p));
      failures.Add(at + ", " + ModeName(mode), OpenAndCheck(mode, expected, last_sequence_ - 1));
    }
    Restore();
    test::WriteFileOrDie(log, data.substr(0, p));
    failures.Add(at + ", kAbsoluteConsistency",
                 OpenExpectCorruption(WALRecoveryMode::kAbsoluteConsistency, base, false));
  }
  // Cut exactly at the record boundary: a clean log, every mode opens.
  for (WALRecoveryMode mode :
       {WALRecoveryMode::kPointInTimeRecovery, WALRecoveryMode::kTolerateCorruptedTailRecords,
        WALRecoveryMode::kAbsoluteConsistency, WALRecoveryMode::kSkipAnyCorruptedRecords}) {
    Restore();
    test::WriteFileOrDie(log, data.substr(0, last.begin));
    failures.Add(std::string("cut at the record boundary, ") + ModeName(mode),
                 OpenAndCheck(mode, expected, last_sequence_ - 1));
  }
  // And the untouched log has everything in every mode.
  for (WALRecoveryMode mode :
       {WALRecoveryMode::kPointInTimeRecovery, WALRecoveryMode::kTolerateCorruptedTailRecords,
        WALRecoveryMode::kAbsoluteConsistency, WALRecoveryMode::kSkipAnyCorruptedRecords}) {
    Restore();
    failures.Add(std::string("undamaged, ") + ModeName(mode),
                 OpenAndCheck(mode, Prefix(kN), last_sequence_));
  }
}

// ---- one byte of the last record flipped, at every offset ---------------

TEST_F(DBRecoveryTest, FlippedByteInLastRecordAtEveryOffset) {
  const int kN = 20;
  WriteKeys(0, kN);
  std::string log, data;
  std::vector<WalRecord> records;
  ParseNewestLog(&log, &data, &records);
  const WalRecord last = records.back();
  Backup();
  const std::string base = fs::path(log).filename().string();
  const auto expected = Prefix(kN - 1);
  FailureLog failures;
  for (size_t p = last.begin; p < last.end; p++) {
    std::string damaged = data;
    damaged[p] = static_cast<char>(damaged[p] ^ 0xff);
    const std::string at = "byte " + std::to_string(p) + " flipped (record " +
                           std::to_string(last.begin) + ".." + std::to_string(last.end) + ")";
    for (WALRecoveryMode mode :
         {WALRecoveryMode::kPointInTimeRecovery, WALRecoveryMode::kSkipAnyCorruptedRecords}) {
      // (kSkipAnyCorruptedRecords at every third offset, to save time.)
      if (mode == WALRecoveryMode::kSkipAnyCorruptedRecords && (p - last.begin) % 3 != 0) continue;
      Restore();
      test::WriteFileOrDie(log, damaged);
      failures.Add(at + ", " + ModeName(mode), OpenAndCheck(mode, expected, last_sequence_ - 1));
    }
    Restore();
    test::WriteFileOrDie(log, damaged);
    failures.Add(at + ", kAbsoluteConsistency",
                 OpenExpectCorruption(WALRecoveryMode::kAbsoluteConsistency, base, false));
  }
}

// ---- a last record large enough to be fragmented over several blocks -----

TEST_F(DBRecoveryTest, DamagedFragmentedLastRecord) {
  const int kN = 10;
  {
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(MakeOptions(WALRecoveryMode::kPointInTimeRecovery, true), dbname_, &db));
    for (int i = 0; i < kN - 1; i++) ASSERT_OK(db->Put(WriteOptions(), Key(i), Value(i)));
    // 80 000 bytes: FIRST + MIDDLE + LAST fragments.
    ASSERT_OK(db->Put(WriteOptions(), "zz-big", std::string(80000, 'B')));
    last_sequence_ = db->GetLatestSequenceNumber();
    ASSERT_OK(db->Close());
  }
  std::string log, data;
  std::vector<WalRecord> records;
  ParseNewestLog(&log, &data, &records);
  const WalRecord last = records.back();
  ASSERT_GE(last.fragments, 3) << "expected the big value to span 3 blocks";
  Backup();
  const std::string base = fs::path(log).filename().string();
  const auto expected = Prefix(kN - 1);

  // Offsets to damage: the header bytes of every fragment, a few bytes on
  // both sides of each block boundary, and a stride through the payload.
  std::vector<size_t> offsets;
  for (size_t b = (last.begin / kBlockSize + 1) * kBlockSize; b < last.end; b += kBlockSize) {
    for (size_t d = 0; d < kHeaderSize + 1; d++) offsets.push_back(b + d);
    for (size_t d = 1; d <= 2; d++) offsets.push_back(b - d);
  }
  for (size_t d = 0; d < kHeaderSize + 1; d++) offsets.push_back(last.begin + d);
  for (size_t p = last.begin + 13; p < last.end; p += 8191) offsets.push_back(p);
  offsets.push_back(last.end - 1);
  std::sort(offsets.begin(), offsets.end());
  offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());

  FailureLog failures;
  for (size_t p : offsets) {
    ASSERT_GE(p, last.begin);
    ASSERT_LT(p, last.end);
    if (p > last.begin) {
      const std::string at = "truncated at " + std::to_string(p);
      Restore();
      test::WriteFileOrDie(log, data.substr(0, p));
      failures.Add(
          at + ", kPointInTimeRecovery",
          OpenAndCheck(WALRecoveryMode::kPointInTimeRecovery, expected, last_sequence_ - 1));
      Restore();
      test::WriteFileOrDie(log, data.substr(0, p));
      failures.Add(at + ", kAbsoluteConsistency",
                   OpenExpectCorruption(WALRecoveryMode::kAbsoluteConsistency, base, false));
    }
    std::string damaged = data;
    damaged[p] = static_cast<char>(damaged[p] ^ 0xff);
    const std::string at = "byte " + std::to_string(p) + " flipped";
    Restore();
    test::WriteFileOrDie(log, damaged);
    failures.Add(at + ", kPointInTimeRecovery",
                 OpenAndCheck(WALRecoveryMode::kPointInTimeRecovery, expected, last_sequence_ - 1));
    Restore();
    test::WriteFileOrDie(log, damaged);
    failures.Add(at + ", kAbsoluteConsistency",
                 OpenExpectCorruption(WALRecoveryMode::kAbsoluteConsistency, base, false));
  }
  // Undamaged: the big value is back.
  Restore();
  auto all = Prefix(kN - 1);
  all["zz-big"] = std::string(80000, 'B');
  failures.Add("undamaged",
               OpenAndCheck(WALRecoveryMode::kAbsoluteConsistency, all, last_sequence_));
}

// ---- damage in the middle of the log --------------------------------------

// Writes n puts (values padded by pad bytes), flips one byte of record
// `victim` at offset_in_record, and checks every mode.
//  - kPointInTimeRecovery: exactly the records before the damaged one.
//  - kAbsoluteConsistency, kTolerateCorruptedTailRecords: Corruption naming
//    the file and an offset.
//  - kSkipAnyCorruptedRecords: the damaged record is dropped and replay goes
//    on. Like RocksDB's reader, Strata's drops the rest of the damaged 32 KiB
//    block (its length field cannot be trusted; db/log_reader.h), so records
//    that start in the damaged record's block after it may be lost too, but
//    only as one run right after it; every record starting in a later block
//    must be back, with its value.
class DBRecoveryMiddleTest : public DBRecoveryTest {
 protected:
  void Run(int n, size_t pad, int victim, size_t offset_in_record) {
    auto val = [pad](int i) { return Value(i) + std::string(pad, 'p'); };
    {
      std::unique_ptr<DB> db;
      ASSERT_OK(DB::Open(MakeOptions(WALRecoveryMode::kPointInTimeRecovery, true), dbname_, &db));
      for (int i = 0; i < n; i++) ASSERT_OK(db->Put(WriteOptions(), Key(i), val(i)));
      last_sequence_ = db->GetLatestSequenceNumber();
      ASSERT_OK(db->Close());
    }
    std::string log, data;
    std::vector<WalRecord> records;
    ParseNewestLog(&log, &data, &records);
    ASSERT_EQ(records.size(), static_cast<size_t>(n)) << "expected one WAL record per Put";
    const size_t p = records[victim].begin + offset_in_record;
    ASSERT_LT(p, records[victim].end);
    std::string damaged = data;
    damaged[p] = static_cast<char>(damaged[p] ^ 0xff);
    test::WriteFileOrDie(log, damaged);
    Backup();
    const std::string base = fs::path(log).filename().string();

    std::map<std::string, std::string> prefix;
    for (int i = 0; i < victim; i++) prefix[Key(i)] = val(i);
    EXPECT_EQ(OpenAndCheck(WALRecoveryMode::kPointInTimeRecovery, prefix,
                           last_sequence_ - static_cast<uint64_t>(n - victim)),
              "")
        << "kPointInTimeRecovery";
    Restore();
    EXPECT_EQ(OpenExpectCorruption(WALRecoveryMode::kAbsoluteConsistency, base, true), "")
        << "kAbsoluteConsistency";
    Restore();
    EXPECT_EQ(OpenExpectCorruption(WALRecoveryMode::kTolerateCorruptedTailRecords, base, true), "")
        << "kTolerateCorruptedTailRecords";
    Restore();

    std::unique_ptr<DB> db;
    ASSERT_OK(
        DB::Open(MakeOptions(WALRecoveryMode::kSkipAnyCorruptedRecords, false), dbname_, &db));
    std::vector<bool> present(n, false);
    std::unique_ptr<Iterator> it = db->NewIterator(ReadOptions());
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const std::string k = it->key().ToString();
      int i = -1;
      if (k.size() == 9 && k.compare(0, 3, "key") == 0) i = std::stoi(k.substr(3));
      ASSERT_TRUE(i >= 0 && i < n) << "kSkipAnyCorruptedRecords: unexpected key " << k;
      ASSERT_EQ(it->value().ToString(), val(i)) << "kSkipAnyCorruptedRecords: WRONG VALUE of " << k;
      present[i] = true;
    }
    ASSERT_OK(it->status());
    it.reset();
    for (int i = 0; i < victim; i++) {
      EXPECT_TRUE(present[i]) << "kSkipAnyCorruptedRecords lost " << Key(i)
                              << ", before the damaged record";
    }
    EXPECT_FALSE(present[victim]) << "kSkipAnyCorruptedRecords replayed the damaged record";
    const size_t victim_block = records[victim].begin / kBlockSize;
    bool resumed = false;
    int lost = 0;
    for (int i = victim + 1; i < n; i++) {
      if (records[i].begin / kBlockSize > victim_block) {
        EXPECT_TRUE(present[i]) << "kSkipAnyCorruptedRecords lost " << Key(i) << " (record at "
                                << records[i].begin << ", in a block after the damage at " << p
                                << ")";
      }
      if (present[i]) {
        resumed = true;
      } else {
        lost++;
        EXPECT_FALSE(resumed) << "kSkipAnyCorruptedRecords: " << Key(i)
                              << " lost after replay had resumed";
      }
    }
    printf(
        "kSkipAnyCorruptedRecords: damaged record %d at offset %zu; %d later records of its "
        "block dropped with it\n",
        victim, records[victim].begin, lost);
    ASSERT_OK(db->Close());
  }
};

TEST_F(DBRecoveryMiddleTest, FlippedPayloadByte) {
  // Inside the value (after header 7 + batch header 12 + tag/lengths/key).
  Run(30, 0, 12, kHeaderSize + 12 + 1 + 1 + Key(0).size() + 1 + 2);
}

TEST_F(DBRecoveryMiddleTest, FlippedChecksumByte) { Run(30, 0, 12, 1); }

TEST_F(DBRecoveryMiddleTest, FlippedBatchSequenceByte) {
  Run(30, 0, 12, kHeaderSize + 0);  // low byte of the batch sequence
}

// About 340 bytes a record over four blocks; the damage is in block 1.
TEST_F(DBRecoveryMiddleTest, FlippedPayloadByteInALogOfSeveralBlocks) {
  Run(400, 300, 150, kHeaderSize + 12 + 1 + 1 + Key(0).size() + 2 + 40);
}

// ---- torn writes: zeros after the last record -----------------------------

class DBRecoveryZerosTest : public DBRecoveryTest, public ::testing::WithParamInterface<size_t> {};

TEST_P(DBRecoveryZerosTest, TrailingZerosAreATornWrite) {
  const size_t zeros = GetParam();
  const int kN = 25;
  WriteKeys(0, kN);
  std::string log, data;
  std::vector<WalRecord> records;
  ParseNewestLog(&log, &data, &records);
  // Drop anything past the last record (preallocated space), then append
  // the zeros a crash can leave behind.
  const std::string written = data.substr(0, records.back().end);
  Backup();
  for (WALRecoveryMode mode :
       {WALRecoveryMode::kPointInTimeRecovery, WALRecoveryMode::kTolerateCorruptedTailRecords,
        WALRecoveryMode::kSkipAnyCorruptedRecords}) {
    Restore();
    test::WriteFileOrDie(log, WithTrailingZeros(written, zeros));
    EXPECT_EQ(OpenAndCheck(mode, Prefix(kN), last_sequence_), "") << ModeName(mode);
  }
  // kAbsoluteConsistency may refuse; if it opens, nothing may be lost.
  Restore();
  test::WriteFileOrDie(log, WithTrailingZeros(written, zeros));
  std::unique_ptr<DB> db;
  Status s = DB::Open(MakeOptions(WALRecoveryMode::kAbsoluteConsistency, false), dbname_, &db);
  if (s.ok()) {
    EXPECT_EQ(Diff(db.get(), Prefix(kN)), "") << "kAbsoluteConsistency";
    ASSERT_OK(db->Close());
  } else {
    EXPECT_EQ(db, nullptr);
  }
  // After a recovery over the zeros, new writes survive further reopens.
  Restore();
  test::WriteFileOrDie(log, WithTrailingZeros(written, zeros));
  db.reset();
  ASSERT_OK(DB::Open(MakeOptions(WALRecoveryMode::kPointInTimeRecovery, false), dbname_, &db));
  ASSERT_OK(db->Put(WriteOptions(), "after", "zeros"));
  ASSERT_OK(db->Close());
  db.reset();
  auto expected = Prefix(kN);
  expected["after"] = "zeros";
  EXPECT_EQ(OpenAndCheck(WALRecoveryMode::kPointInTimeRecovery, expected, last_sequence_ + 1), "");
}

// 4 KiB stays in the block; 40 000 bytes cross into the next block.
INSTANTIATE_TEST_SUITE_P(Sizes, DBRecoveryZerosTest, ::testing::Values(1, 6, 7, 4096, 40000));

TEST_F(DBRecoveryTest, TornLastRecordFollowedByZeros) {
  const int kN = 20;
  WriteKeys(0, kN);
  std::string log, data;
  std::vector<WalRecord> records;
  ParseNewestLog(&log, &data, &records);
  const WalRecord last = records.back();
  Backup();
  FailureLog failures;
  // An mmap-written WAL cut by a crash looks like this: the record's first
  // bytes, then the zeros of the preallocated space. That is a torn final
  // write, which kTolerateCorruptedTailRecords tolerates too.
  for (size_t p = last.begin + 1; p < last.end; p += 3) {
    for (WALRecoveryMode mode :
         {WALRecoveryMode::kPointInTimeRecovery, WALRecoveryMode::kTolerateCorruptedTailRecords}) {
      Restore();
      test::WriteFileOrDie(log, WithTrailingZeros(data.substr(0, p), 4096));
      failures.Add("torn at " + std::to_string(p) + " + 4096 zeros, " + ModeName(mode),
                   OpenAndCheck(mode, Prefix(kN - 1), last_sequence_ - 1));
    }
  }
}

// The same torn record with its bytes written out of order (a copy that
// wrote the record's end before its middle), then zeros: still a torn tail.
// But with an intact record after it, it is damage in every mode but
// point-in-time recovery (which keeps the prefix) and skipping.
TEST_F(DBRecoveryTest, TornLastRecordWithAHoleFollowedByZeros) {
  const int kN = 20;
  WriteKeys(0, kN);
  std::string log, data;
  std::vector<WalRecord> records;
  ParseNewestLog(&log, &data, &records);
  const WalRecord last = records.back();
  const WalRecord before = records[records.size() - 2];
  Backup();
  const std::string base = fs::path(log).filename().string();
  FailureLog failures;
  std::string torn = data.substr(0, last.end);
  for (size_t p = last.begin + 7; p < last.end - 1; p++) torn[p] = 0;
  for (WALRecoveryMode mode :
       {WALRecoveryMode::kPointInTimeRecovery, WALRecoveryMode::kTolerateCorruptedTailRecords}) {
    Restore();
    test::WriteFileOrDie(log, WithTrailingZeros(torn, 4096));
    failures.Add(std::string("hole in the last record, ") + ModeName(mode),
                 OpenAndCheck(mode, Prefix(kN - 1), last_sequence_ - 1));
  }
  // The next-to-last record damaged the same way, the last one intact.
  std::string middle = data.substr(0, last.end);
  for (size_t p = before.begin + 7; p < before.end - 1; p++) middle[p] = 0;
  Restore();
  test::WriteFileOrDie(log, WithTrailingZeros(middle, 4096));
  failures.Add("hole in the next-to-last record, kTolerateCorruptedTailRecords",
               OpenExpectCorruption(WALRecoveryMode::kTolerateCorruptedTailRecords, base, true));
  Restore();
  test::WriteFileOrDie(log, WithTrailingZeros(middle, 4096));
  failures.Add(
      "hole in the next-to-last record, kPointInTimeRecovery",
      OpenAndCheck(WALRecoveryMode::kPointInTimeRecovery, Prefix(kN - 2), last_sequence_ - 2));
}

// A torn last record whose value holds an intact WAL record of the same log
// (here a copy of an earlier record: a value may hold any bytes) is still a
// torn tail: a record counts as following the damage only if its batch
// sequence continues the log.
TEST_F(DBRecoveryTest, TornRecordWithAnEmbeddedLogRecordIsATornTail) {
  const int kN = 10;
  WriteKeys(0, kN);
  std::string log, data;
  std::vector<WalRecord> records;
  ParseNewestLog(&log, &data, &records);
  const std::string embedded = data.substr(records[3].begin, records[3].end - records[3].begin);
  {
    // Reopening replays the WAL into a table and starts a new one.
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(MakeOptions(WALRecoveryMode::kPointInTimeRecovery, false), dbname_, &db));
    ASSERT_OK(db->Put(WriteOptions(), "embedded", "head:" + embedded + ":tail-of-the-value"));
    ASSERT_OK(db->Close());
  }
  ParseNewestLog(&log, &data, &records);
  ASSERT_EQ(records.size(), 1u);
  const size_t at = data.find(embedded);
  ASSERT_NE(at, std::string::npos);
  // Cut after the embedded record, before the value's end; zeros after.
  const std::string torn = WithTrailingZeros(data.substr(0, at + embedded.size() + 3), 4096);
  Backup();
  FailureLog failures;
  for (WALRecoveryMode mode :
       {WALRecoveryMode::kPointInTimeRecovery, WALRecoveryMode::kTolerateCorruptedTailRecords}) {
    Restore();
    test::WriteFileOrDie(log, torn);
    failures.Add(std::string("embedded record, ") + ModeName(mode),
                 OpenAndCheck(mode, Prefix(kN), 0));
  }
}

// ---- writes made after a lossy recovery survive later reopens -------------

class DBRecoveryAfterDamageTest : public DBRecoveryTest,
                                  public ::testing::WithParamInterface<int> {};

// 0: last record truncated; 1: byte of the last record flipped; 2: byte in a
// middle record flipped.
TEST_P(DBRecoveryAfterDamageTest, WritesAfterPointInTimeRecoverySurviveReopens) {
  const int kN = 20;
  WriteKeys(0, kN);
  std::string log, data;
  std::vector<WalRecord> records;
  ParseNewestLog(&log, &data, &records);
  ASSERT_EQ(records.size(), static_cast<size_t>(kN));
  int kept = kN - 1;
  switch (GetParam()) {
    case 0:
      data.resize(records.back().begin + 10);
      break;
    case 1:
      data[records.back().end - 2] ^= 0x55;
      break;
    case 2:
      kept = 7;
      data[records[7].end - 2] ^= 0x55;
      break;
  }
  test::WriteFileOrDie(log, data);
  auto expected = Prefix(kept);
  uint64_t seq = last_sequence_ - (kN - kept);
  for (int session = 0; session < 4; session++) {
    SCOPED_TRACE("session " + std::to_string(session));
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(MakeOptions(WALRecoveryMode::kPointInTimeRecovery, false), dbname_, &db));
    ASSERT_EQ(Diff(db.get(), expected), "");
    ASSERT_EQ(db->GetLatestSequenceNumber(), seq);
    // Overwrite a lost key and a kept key, add a new one.
    const std::string suffix = "-s" + std::to_string(session);
    ASSERT_OK(db->Put(WriteOptions(), Key(kN - 1), "rewritten" + suffix));
    ASSERT_OK(db->Put(WriteOptions(), Key(0), "rewritten" + suffix));
    ASSERT_OK(db->Put(WriteOptions(), "new" + suffix, "x"));
    expected[Key(kN - 1)] = "rewritten" + suffix;
    expected[Key(0)] = "rewritten" + suffix;
    expected["new" + suffix] = "x";
    seq += 3;
    ASSERT_EQ(Diff(db.get(), expected), "");
    ASSERT_OK(db->Close());
  }
  EXPECT_EQ(OpenAndCheck(WALRecoveryMode::kPointInTimeRecovery, expected, seq), "");
}

INSTANTIATE_TEST_SUITE_P(Damage, DBRecoveryAfterDamageTest, ::testing::Values(0, 1, 2));

// ---- several WALs ----------------------------------------------------------

TEST_F(DBRecoveryTest, TornTailOfNewestOfSeveralWALs) {
  WriteKeys(0, 10);
  WriteKeys(10, 10);
  WriteKeys(20, 10);
  std::string log, data;
  std::vector<WalRecord> records;
  ParseNewestLog(&log, &data, &records);
  ASSERT_EQ(records.size(), 10u) << "the third session's WAL holds its 10 puts";
  Backup();
  const std::string base = fs::path(log).filename().string();
  test::WriteFileOrDie(log, data.substr(0, records.back().end - 3));
  EXPECT_EQ(OpenAndCheck(WALRecoveryMode::kPointInTimeRecovery, Prefix(29), last_sequence_ - 1),
            "");
  Restore();
  test::WriteFileOrDie(log, data.substr(0, records.back().end - 3));
  EXPECT_EQ(
      OpenAndCheck(WALRecoveryMode::kTolerateCorruptedTailRecords, Prefix(29), last_sequence_ - 1),
      "");
  Restore();
  test::WriteFileOrDie(log, data.substr(0, records.back().end - 3));
  EXPECT_EQ(OpenExpectCorruption(WALRecoveryMode::kAbsoluteConsistency, base, false), "");
  Restore();
  EXPECT_EQ(OpenAndCheck(WALRecoveryMode::kAbsoluteConsistency, Prefix(30), last_sequence_), "");
}

// ---- CURRENT and MANIFEST damage ------------------------------------------

class DBRecoveryCurrentTest : public DBRecoveryTest,
                              public ::testing::WithParamInterface<std::string> {};

TEST_P(DBRecoveryCurrentTest, DamagedCurrentIsCorruption) {
  WriteKeys(0, 5);
  const std::string current = test::ReadFileOrDie(dbname_ + "/CURRENT");
  ASSERT_GT(current.size(), 1u);
  std::string bad = GetParam();
  if (bad == "<no newline>") bad = current.substr(0, current.size() - 1);
  test::WriteFileOrDie(dbname_ + "/CURRENT", bad);
  for (bool create : {false, true}) {
    SCOPED_TRACE(create ? "create_if_missing" : "no create_if_missing");
    std::unique_ptr<DB> db;
    Status s = DB::Open(MakeOptions(WALRecoveryMode::kPointInTimeRecovery, create), dbname_, &db);
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    EXPECT_EQ(db, nullptr);
    if (db != nullptr) db->Close().PermitUncheckedError();
  }
  // Nothing was destroyed: with CURRENT repaired the data is back.
  test::WriteFileOrDie(dbname_ + "/CURRENT", current);
  EXPECT_EQ(OpenAndCheck(WALRecoveryMode::kPointInTimeRecovery, Prefix(5), last_sequence_), "");
}

INSTANTIATE_TEST_SUITE_P(Contents, DBRecoveryCurrentTest,
                         ::testing::Values(std::string("<no newline>"), std::string(""),
                                           std::string("\n"), std::string("garbage\n"),
                                           std::string("MANIFEST-\n"),
                                           std::string("\x01\xff\x00zz", 5),
                                           std::string("000001.log\n")));

TEST_F(DBRecoveryTest, CorruptManifestFailsOpen) {
  WriteKeys(0, 5);
  std::string current = test::ReadFileOrDie(dbname_ + "/CURRENT");
  ASSERT_GT(current.size(), 1u);
  const std::string manifest = current.substr(0, current.size() - 1);
  const std::string path = dbname_ + "/" + manifest;
  const std::string original = test::ReadFileOrDie(path);
  ASSERT_GT(original.size(), kHeaderSize + 2);
  std::string damaged = original;
  damaged[kHeaderSize + 1] ^= 0xff;  // inside the first record's payload
  test::WriteFileOrDie(path, damaged);
  for (WALRecoveryMode mode :
       {WALRecoveryMode::kPointInTimeRecovery, WALRecoveryMode::kSkipAnyCorruptedRecords}) {
    std::unique_ptr<DB> db;
    Status s = DB::Open(MakeOptions(mode, false), dbname_, &db);
    EXPECT_TRUE(s.IsCorruption()) << ModeName(mode) << ": " << s.ToString();
    EXPECT_TRUE(Contains(s.ToString(), manifest)) << s.ToString();
    if (db != nullptr) db->Close().PermitUncheckedError();
  }
  test::WriteFileOrDie(path, original);
  EXPECT_EQ(OpenAndCheck(WALRecoveryMode::kPointInTimeRecovery, Prefix(5), last_sequence_), "");
}

}  // namespace
}  // namespace strata
