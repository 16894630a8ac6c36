// Damage to every kind of file a database keeps -- WAL, MANIFEST, CURRENT,
// table files (data, index, filter, properties, metaindex blocks and the
// footer), OPTIONS -- must give an exact answer: a Corruption (or an I/O
// error for a missing file) that names the file and, where it means
// something, the offset; or a recovery that follows the WAL recovery mode
// to the letter. Never a crash, a hang or a value that was not written.
//
// Each test writes a real database, closes it, damages one file with plain
// file I/O (a flipped bit or a truncation at many offsets: every offset for
// small files, every structural boundary plus a stride for large ones),
// reopens and reads everything back. Offsets are sampled with a printed
// seed where files are large.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "strata/db.h"
#include "strata/env.h"
#include "strata/filter_policy.h"
#include "strata/iterator.h"
#include "strata/options.h"
#include "strata/status.h"
#include "strata/table.h"
#include "table/block_based_table_reader.h"
#include "table/format.h"
#include "test_util/testutil.h"
#include "util/coding.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

constexpr size_t kBlockSize = 32768;
constexpr size_t kHeaderSize = 7;

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// True if msg, with every occurrence of name removed, still holds a digit.
bool HasNumberBesides(std::string msg, const std::string& name) {
  for (size_t p; (p = msg.find(name)) != std::string::npos;) msg.erase(p, name.size());
  return std::any_of(msg.begin(), msg.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string Base(const std::string& path) { return fs::path(path).filename().string(); }

// One logical record of a log file (WAL or MANIFEST): bytes [begin, end),
// headers of all its fragments included.
struct LogRecord {
  size_t begin = 0;
  size_t end = 0;
};

// Splits a log written in the legacy record format (docs/format/log.md)
// into logical records; false on anything unexpected.
bool ParseLog(const std::string& data, std::vector<LogRecord>* records) {
  records->clear();
  size_t pos = 0;
  bool in_record = false;
  LogRecord current;
  while (pos < data.size()) {
    const size_t left = kBlockSize - pos % kBlockSize;
    if (left < kHeaderSize) {
      pos += left;
      continue;
    }
    if (pos + kHeaderSize > data.size()) return false;
    const auto* h = reinterpret_cast<const unsigned char*>(data.data() + pos);
    const size_t length = h[4] | (static_cast<size_t>(h[5]) << 8);
    const int type = h[6];
    if (type == 0 && length == 0) break;
    if (pos + kHeaderSize + length > data.size() || kHeaderSize + length > left) return false;
    const size_t next = pos + kHeaderSize + length;
    if (type == 1) {
      if (in_record) return false;
      records->push_back(LogRecord{pos, next});
    } else if (type == 2) {
      if (in_record) return false;
      in_record = true;
      current = LogRecord{pos, next};
    } else if (type == 3 || type == 4) {
      if (!in_record) return false;
      current.end = next;
      if (type == 4) {
        records->push_back(current);
        in_record = false;
      }
    } else {
      return false;
    }
    pos = next;
  }
  return !in_record;
}

std::string Key(int i) {
  char buf[32];
  snprintf(buf, sizeof(buf), "key%06d", i);
  return buf;
}
// Distinct per key.
std::string Value(int i, size_t len = 100) {
  std::string v = "value-" + std::to_string(i) + "-";
  while (v.size() < len) v.push_back(static_cast<char>('a' + (i * 7 + v.size()) % 26));
  return v;
}

// Collects failures and reports the first few in full.
class FailureLog {
 public:
  void Add(const std::string& what, const std::string& result) {
    checks_++;
    if (result.empty()) return;
    failures_++;
    if (failures_ <= 8) ADD_FAILURE() << what << ": " << result;
  }
  ~FailureLog() {
    if (failures_ > 8) ADD_FAILURE() << failures_ << " failures in all (first 8 shown)";
    printf("  %d damage cases checked\n", checks_);
  }

 private:
  int checks_ = 0;
  int failures_ = 0;
};

class CorruptionTest : public ::testing::Test {
 protected:
  CorruptionTest()
      : tmp_("corruption_test"), dbname_(tmp_.path() + "/db"), backup_(tmp_.path() + "/backup") {}

  Options MakeOptions(bool create = false) const {
    Options o;
    o.create_if_missing = create;
    o.disable_auto_compactions = true;
    BlockBasedTableOptions t;
    t.block_size = 1024;
    t.filter_policy = NewBloomFilterPolicy(10);
    o.table_factory = NewBlockBasedTableFactory(t);
    return o;
  }

  void Backup() {
    fs::remove_all(backup_);
    fs::copy(dbname_, backup_, fs::copy_options::recursive);
  }
  void Restore() {
    fs::remove_all(dbname_);
    fs::copy(backup_, dbname_, fs::copy_options::recursive);
  }

  // Files of the database whose name starts with prefix / ends with suffix.
  std::vector<std::string> Files(const std::string& prefix, const std::string& suffix) const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dbname_)) {
      const std::string n = e.path().filename().string();
      if (n.size() >= prefix.size() + suffix.size() && n.compare(0, prefix.size(), prefix) == 0 &&
          n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0) {
        out.push_back(dbname_ + "/" + n);
      }
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  static void FlipBit(const std::string& path, size_t offset, unsigned char mask = 0x01) {
    std::string data = test::ReadFileOrDie(path);
    ASSERT_LT(offset, data.size());
    data[offset] = static_cast<char>(data[offset] ^ mask);
    test::WriteFileOrDie(path, data);
  }
  static void Truncate(const std::string& path, size_t size) {
    std::string data = test::ReadFileOrDie(path);
    test::WriteFileOrDie(path, data.substr(0, size));
  }

  // Reads everything back: an iterator over the whole default family and a
  // Get of every written key. "" if every answer is allowed:
  //  - an entry shown or a value returned is one that was written;
  //  - a written key is missing only if `missing_ok` says so;
  //  - errors are Corruption (or, with io_error_ok, IOError) naming
  //    damaged_file (*errors counts them).
  std::string CheckReads(DB* db, const std::map<std::string, std::string>& written,
                         const std::string& damaged_file,
                         const std::function<bool(const std::string&)>& missing_ok, int* errors,
                         bool io_error_ok = false) {
    *errors = 0;
    auto bad_status = [&](const Status& s) -> std::string {
      if (!s.IsCorruption() && !(io_error_ok && s.IsIOError())) {
        return "expected Corruption, got " + s.ToString();
      }
      if (!Contains(s.ToString(), Base(damaged_file))) {
        return "error does not name " + Base(damaged_file) + ": " + s.ToString();
      }
      return "";
    };
    std::unique_ptr<Iterator> it = db->NewIterator(ReadOptions());
    std::set<std::string> seen;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const std::string k = it->key().ToString();
      auto w = written.find(k);
      if (w == written.end()) return "iterator shows unwritten key " + k;
      if (it->value().ToString() != w->second) return "iterator: WRONG VALUE for " + k;
      seen.insert(k);
    }
    if (!it->status().ok()) {
      ++*errors;
      const std::string b = bad_status(it->status());
      if (!b.empty()) return "iterator: " + b;
    } else {
      for (const auto& [k, v] : written) {
        if (seen.count(k) == 0 && !missing_ok(k)) return "iterator misses " + k;
      }
    }
    it.reset();
    for (const auto& [k, v] : written) {
      std::string got;
      Status s = db->Get(ReadOptions(), k, &got);
      if (s.ok()) {
        if (got != v) return "Get(" + k + "): WRONG VALUE";
      } else if (s.IsNotFound()) {
        if (!missing_ok(k)) return "Get(" + k + "): NotFound for a written key";
      } else {
        ++*errors;
        const std::string b = bad_status(s);
        if (!b.empty()) return "Get(" + k + "): " + b;
      }
    }
    return "";
  }

  static std::string ExpectCorruptionNaming(const Status& s, const std::string& file,
                                            bool want_offset) {
    if (s.ok()) return "OK, expected Corruption naming " + Base(file);
    if (!s.IsCorruption()) return "expected Corruption, got " + s.ToString();
    if (!Contains(s.ToString(), Base(file))) {
      return "message does not name " + Base(file) + ": " + s.ToString();
    }
    if (want_offset && !HasNumberBesides(s.ToString(), Base(file))) {
      return "message names no offset: " + s.ToString();
    }
    return "";
  }

  test::TempDir tmp_;
  std::string dbname_;
  std::string backup_;
};

// ---- WAL ----------------------------------------------------------------

class WalCorruptionTest : public CorruptionTest {
 protected:
  static constexpr int kRecords = 60;
  static constexpr size_t kValueLen = 900;  // ~2 blocks, records straddle

  void SetUp() override {
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(MakeOptions(true), dbname_, &db));
    for (int i = 0; i < kRecords; i++) {
      ASSERT_OK(db->Put(WriteOptions(), Key(i), Value(i, kValueLen)));
    }
    ASSERT_OK(db->Close());
    std::vector<std::string> wals = Files("", ".log");
    ASSERT_EQ(wals.size(), 1u);
    wal_ = wals[0];
    data_ = test::ReadFileOrDie(wal_);
    ASSERT_TRUE(ParseLog(data_, &records_));
    ASSERT_EQ(records_.size(), static_cast<size_t>(kRecords));
    ASSERT_GT(data_.size(), kBlockSize);
    Backup();
  }

  // Opens in mode; "" if the DB holds exactly the records i with keep(i).
  std::string ExpectKeys(WALRecoveryMode mode, const std::function<bool(int)>& keep) {
    Options o = MakeOptions();
    o.wal_recovery_mode = mode;
    std::unique_ptr<DB> db;
    Status s = DB::Open(o, dbname_, &db);
    if (!s.ok()) return "Open: " + s.ToString();
    std::map<std::string, std::string> expected;
    for (int i = 0; i < kRecords; i++) {
      if (keep(i)) expected[Key(i)] = Value(i, kValueLen);
    }
    std::unique_ptr<Iterator> it = db->NewIterator(ReadOptions());
    auto e = expected.begin();
    std::string diff;
    for (it->SeekToFirst(); it->Valid() && diff.empty(); it->Next(), ++e) {
      if (e == expected.end() || it->key().ToString() != e->first) {
        diff = "unexpected key " + it->key().ToString() + " (expected " +
               (e == expected.end() ? std::string("end") : e->first) + ")";
      } else if (it->value().ToString() != e->second) {
        diff = "WRONG VALUE for " + e->first;
      }
    }
    if (diff.empty() && !it->status().ok()) diff = "iterator: " + it->status().ToString();
    if (diff.empty() && e != expected.end()) diff = "missing key " + e->first;
    it.reset();
    Status c = db->Close();
    if (diff.empty() && !c.ok()) diff = "Close: " + c.ToString();
    return diff;
  }

  std::string ExpectCorruption(WALRecoveryMode mode) {
    Options o = MakeOptions();
    o.wal_recovery_mode = mode;
    std::unique_ptr<DB> db;
    Status s = DB::Open(o, dbname_, &db);
    if (s.ok()) db->Close().PermitUncheckedError();
    return ExpectCorruptionNaming(s, wal_, true);
  }

  // Index of the record holding byte offset, or -1 (block padding).
  int RecordAt(size_t offset) const {
    for (size_t r = 0; r < records_.size(); r++) {
      if (offset >= records_[r].begin && offset < records_[r].end) return static_cast<int>(r);
    }
    return -1;
  }

  // Offsets to damage: every header byte and the first payload bytes of a
  // sample of records (the first two, the last two, those near the block
  // boundary, and some random ones), the middle and last byte of each.
  std::vector<size_t> Offsets(uint64_t seed) const {
    std::set<int> chosen = {0, kRecords - 2, kRecords - 1};
    for (int r = 0; r < kRecords; r++) {
      if (records_[r].begin / kBlockSize != (records_[r].end - 1) / kBlockSize) {
        chosen.insert(r - 1);
        chosen.insert(r);
        chosen.insert(r + 1);
      }
    }
    std::mt19937_64 rng(seed);
    for (int i = 0; i < 2; i++) chosen.insert(static_cast<int>(rng() % kRecords));
    std::set<size_t> offsets;
    for (int r : chosen) {
      if (r < 0 || r >= kRecords) continue;
      const LogRecord& rec = records_[r];
      // crc, length (low, high), type, the batch's sequence, the middle
      // and the last byte.
      for (size_t d : {0, 4, 5, 6, 7}) offsets.insert(rec.begin + d);
      offsets.insert((rec.begin + rec.end) / 2);
      offsets.insert(rec.end - 1);
      // The continuation fragment's header in the next block.
      const size_t next_block = (rec.begin / kBlockSize + 1) * kBlockSize;
      if (next_block < rec.end) {
        offsets.insert(next_block);
        offsets.insert(next_block + 6);
      }
    }
    return {offsets.begin(), offsets.end()};
  }

  std::string wal_;
  std::string data_;
  std::vector<LogRecord> records_;
};

TEST_F(WalCorruptionTest, FlippedBitInEveryModeAtSampledOffsets) {
  const uint64_t seed = test::RandomSeed();
  FailureLog log;
  for (size_t offset : Offsets(seed)) {
    const int r = RecordAt(offset);
    ASSERT_GE(r, 0);
    const size_t block_end = (offset / kBlockSize + 1) * kBlockSize;
    const std::string where = "flip at " + std::to_string(offset) + " (record " +
                              std::to_string(r) + "), seed " + std::to_string(seed);
    auto damage = [&] {
      Restore();
      FlipBit(wal_, offset);
    };
    damage();
    log.Add(where + " kAbsoluteConsistency",
            ExpectCorruption(WALRecoveryMode::kAbsoluteConsistency));
    damage();
    log.Add(where + " kPointInTimeRecovery",
            ExpectKeys(WALRecoveryMode::kPointInTimeRecovery, [&](int i) { return i < r; }));
    damage();
    {
      // A damaged last record may read as a torn write; anything else fails.
      std::string res = ExpectCorruption(WALRecoveryMode::kTolerateCorruptedTailRecords);
      if (!res.empty() && r == kRecords - 1) {
        damage();
        res = ExpectKeys(WALRecoveryMode::kTolerateCorruptedTailRecords,
                         [&](int i) { return i < r; });
      }
      log.Add(where + " kTolerateCorruptedTailRecords", res);
    }
    damage();
    // The damaged record and every record starting after it in the rest of
    // the damaged block are lost; the reader resumes at the next block.
    log.Add(where + " kSkipAnyCorruptedRecords",
            ExpectKeys(WALRecoveryMode::kSkipAnyCorruptedRecords, [&](int i) {
              if (i == r) return false;
              return !(records_[i].begin > records_[r].begin && records_[i].begin < block_end);
            }));
  }
}

TEST_F(WalCorruptionTest, TruncatedInEveryModeAtSampledOffsets) {
  const uint64_t seed = test::RandomSeed();
  FailureLog log;
  // In each sampled record: at its start, inside the header, right after
  // the header, in the middle, at its end; and around the block boundary.
  std::set<size_t> cuts = {0, data_.size() - 1, kBlockSize, kBlockSize - 1};
  for (size_t offset : Offsets(seed)) {
    const int r = RecordAt(offset);
    if (r < 0) continue;
    const LogRecord& rec = records_[r];
    for (size_t c :
         {rec.begin, rec.begin + 3, rec.begin + kHeaderSize, (rec.begin + rec.end) / 2, rec.end}) {
      cuts.insert(c);
    }
  }
  for (size_t cut : cuts) {
    if (cut > data_.size()) continue;
    // Records wholly before the cut survive; a cut inside a record is a
    // torn write, which only kAbsoluteConsistency reports.
    int complete = 0;
    bool inside = false;
    for (const LogRecord& rec : records_) {
      if (rec.end <= cut) complete++;
      if (rec.begin < cut && cut < rec.end) inside = true;
    }
    const std::string where = "cut at " + std::to_string(cut) + ", seed " + std::to_string(seed);
    for (WALRecoveryMode mode :
         {WALRecoveryMode::kAbsoluteConsistency, WALRecoveryMode::kPointInTimeRecovery,
          WALRecoveryMode::kTolerateCorruptedTailRecords,
          WALRecoveryMode::kSkipAnyCorruptedRecords}) {
      Restore();
      Truncate(wal_, cut);
      const std::string mode_name = " mode " + std::to_string(static_cast<int>(mode));
      if (mode == WALRecoveryMode::kAbsoluteConsistency && inside) {
        log.Add(where + mode_name, ExpectCorruption(mode));
      } else {
        log.Add(where + mode_name, ExpectKeys(mode, [&](int i) { return i < complete; }));
      }
    }
  }
}

// A damaged length in the WAL's last block makes the record run past the
// end of the file, which the reader cannot tell from a torn final write.
// But intact records follow in the bytes it claims: the modes that never
// drop records unnoticed report it; point-in-time recovery keeps the prefix.
TEST_F(WalCorruptionTest, BadLengthInLastBlockWithIntactRecordsAfterIt) {
  const size_t last_block = (data_.size() - 1) / kBlockSize * kBlockSize;
  ASSERT_NE(data_.size() % kBlockSize, 0u) << "the last block must be partial";
  int r = 0;
  while (r < kRecords && records_[r].begin < last_block) r++;
  ASSERT_LT(r + 2, kRecords) << "need a record with two more after it in the last block";
  const size_t begin = records_[r].begin;
  FailureLog log;
  // Past the end of the file by one byte (inside the block), and past the
  // block.
  for (size_t length : {data_.size() - begin - kHeaderSize + 1, size_t{0xffff}}) {
    const std::string where =
        "record " + std::to_string(r) + " length set to " + std::to_string(length);
    auto damage = [&] {
      Restore();
      std::string bytes = test::ReadFileOrDie(wal_);
      bytes[begin + 4] = static_cast<char>(length & 0xff);
      bytes[begin + 5] = static_cast<char>(length >> 8);
      test::WriteFileOrDie(wal_, bytes);
    };
    for (WALRecoveryMode mode :
         {WALRecoveryMode::kAbsoluteConsistency, WALRecoveryMode::kTolerateCorruptedTailRecords}) {
      damage();
      const std::string res = ExpectCorruption(mode);
      log.Add(where + " mode " + std::to_string(static_cast<int>(mode)), res);
      if (res.empty()) {
        // The message names the record's offset.
        Options o = MakeOptions();
        o.wal_recovery_mode = mode;
        std::unique_ptr<DB> db;
        const Status s = DB::Open(o, dbname_, &db);
        log.Add(where + " offset in " + s.ToString(),
                Contains(s.ToString(), "offset " + std::to_string(begin))
                    ? ""
                    : "the message does not name offset " + std::to_string(begin));
      }
    }
    damage();
    log.Add(where + " kPointInTimeRecovery",
            ExpectKeys(WALRecoveryMode::kPointInTimeRecovery, [&](int i) { return i < r; }));
  }
}

// VerifyChecksum reads the live WAL too: damage under an open DB is found.
TEST_F(WalCorruptionTest, VerifyChecksumFindsDamageInTheLiveWal) {
  Restore();
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(MakeOptions(), dbname_, &db));
  ASSERT_OK(db->Put(WriteOptions(), "extra", "x"));
  ASSERT_OK(db->VerifyChecksum());
  std::vector<std::string> wals = Files("", ".log");
  ASSERT_FALSE(wals.empty());
  std::string live = wals.back();
  std::vector<LogRecord> recs;
  const std::string data = test::ReadFileOrDie(live);
  ASSERT_TRUE(ParseLog(data, &recs));
  ASSERT_FALSE(recs.empty());
  FlipBit(live, recs.back().begin + 9);
  EXPECT_EQ(ExpectCorruptionNaming(db->VerifyChecksum(), live, true), "");
  ASSERT_OK(db->Close());
}

// ... and a damaged length that hides the records after it as a torn tail.
TEST_F(WalCorruptionTest, VerifyChecksumFindsABadLengthInTheLiveWalsLastBlock) {
  Restore();
  std::unique_ptr<DB> db;
  // Written through write(2): the file ends where its last record does (an
  // mmap-written WAL is zero-filled past it, and a length running into the
  // zeros fails its checksum instead).
  Options o = MakeOptions();
  o.wal_mmap_writes = false;
  ASSERT_OK(DB::Open(o, dbname_, &db));
  for (int i = 0; i < 3; i++) ASSERT_OK(db->Put(WriteOptions(), "extra" + std::to_string(i), "x"));
  ASSERT_OK(db->VerifyChecksum());
  std::vector<std::string> wals = Files("", ".log");
  ASSERT_FALSE(wals.empty());
  const std::string live = wals.back();
  std::string data = test::ReadFileOrDie(live);
  std::vector<LogRecord> recs;
  ASSERT_TRUE(ParseLog(data, &recs));
  ASSERT_GE(recs.size(), 3u);
  const size_t begin = recs[recs.size() - 3].begin;
  const size_t length = data.size() - begin - kHeaderSize + 1;  // one byte past the end
  ASSERT_LT(begin % kBlockSize + kHeaderSize + length, kBlockSize);
  data[begin + 4] = static_cast<char>(length & 0xff);
  data[begin + 5] = static_cast<char>(length >> 8);
  test::WriteFileOrDie(live, data);
  const Status s = db->VerifyChecksum();
  EXPECT_EQ(ExpectCorruptionNaming(s, live, true), "");
  EXPECT_TRUE(Contains(s.ToString(), "offset " + std::to_string(begin))) << s.ToString();
  ASSERT_OK(db->Close());
}

// ---- MANIFEST -----------------------------------------------------------

class ManifestCorruptionTest : public CorruptionTest {
 protected:
  void SetUp() override {
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(MakeOptions(true), dbname_, &db));
    for (int round = 0; round < 3; round++) {
      for (int i = round * 100; i < round * 100 + 100; i++) {
        ASSERT_OK(db->Put(WriteOptions(), Key(i), Value(i)));
        written_[Key(i)] = Value(i);
      }
      ASSERT_OK(db->Flush(FlushOptions()));
    }
    ASSERT_OK(db->CompactRange(CompactRangeOptions(), nullptr, nullptr));
    for (int i = 300; i < 350; i++) {
      ASSERT_OK(db->Put(WriteOptions(), Key(i), Value(i)));
      written_[Key(i)] = Value(i);
    }
    ASSERT_OK(db->Flush(FlushOptions()));
    ASSERT_OK(db->Close());
    std::vector<std::string> m = Files("MANIFEST-", "");
    ASSERT_EQ(m.size(), 1u);
    manifest_ = m[0];
    data_ = test::ReadFileOrDie(manifest_);
    ASSERT_TRUE(ParseLog(data_, &records_));
    ASSERT_GE(records_.size(), 3u);
    Backup();
  }

  // "OK <n keys>" or "FAIL <code>"; *bad gets a rule broken (wrong value).
  std::string Outcome(std::string* bad, Status* status) {
    std::unique_ptr<DB> db;
    Status s = DB::Open(MakeOptions(), dbname_, &db);
    *status = s;
    if (!s.ok()) return "FAIL " + std::string(s.IsCorruption() ? "Corruption" : s.ToString());
    int errors = 0;
    int found = 0;
    for (const auto& [k, v] : written_) {
      std::string got;
      Status g = db->Get(ReadOptions(), k, &got);
      if (g.ok() && got != v) *bad = "WRONG VALUE for " + k;
      if (g.ok()) found++;
      if (!g.ok() && !g.IsNotFound()) errors++;
    }
    db->Close().PermitUncheckedError();
    return "OK " + std::to_string(found) + " keys, " + std::to_string(errors) + " errors";
  }

  // The outcome of a MANIFEST cut at offset (cached).
  std::string CutOutcome(size_t offset) {
    auto it = cut_cache_.find(offset);
    if (it != cut_cache_.end()) return it->second;
    Restore();
    Truncate(manifest_, offset);
    std::string bad;
    Status s;
    std::string out = Outcome(&bad, &s);
    if (!bad.empty()) out += " BAD: " + bad;
    return cut_cache_[offset] = out;
  }

  int RecordAt(size_t offset) const {
    for (size_t r = 0; r < records_.size(); r++) {
      if (offset >= records_[r].begin && offset < records_[r].end) return static_cast<int>(r);
    }
    return -1;
  }

  std::map<std::string, std::string> written_;
  std::string manifest_;
  std::string data_;
  std::vector<LogRecord> records_;
  std::map<size_t, std::string> cut_cache_;
};

// A torn MANIFEST tail is tolerated as RocksDB does (the MANIFEST is read in
// kTolerateCorruptedTailRecords mode): a cut inside a record behaves exactly
// like a cut at that record's start. No cut ever shows a wrong value.
TEST_F(ManifestCorruptionTest, TruncatedAtEveryOffset) {
  FailureLog log;
  // Every record boundary and the bytes around it, every header byte, and
  // a stride through the payloads.
  std::set<size_t> cuts;
  for (const LogRecord& rec : records_) {
    for (size_t d = 0; d <= kHeaderSize; d++) cuts.insert(rec.begin + d);
    cuts.insert(rec.end - 1);
  }
  for (size_t c = 0; c < data_.size(); c += 11) cuts.insert(c);
  for (size_t cut : cuts) {
    if (cut >= data_.size()) continue;
    const int r = RecordAt(cut);
    const std::string where = "cut at " + std::to_string(cut);
    const std::string got = CutOutcome(cut);
    if (Contains(got, "BAD")) {
      log.Add(where, got);
      continue;
    }
    const std::string want = r >= 0 ? CutOutcome(records_[r].begin) : got;
    log.Add(where, got == want ? "" : "got " + got + ", a cut at the record start gives " + want);
  }
  // The cut at 0 leaves an empty MANIFEST: no DB state at all.
  EXPECT_TRUE(Contains(CutOutcome(0), "FAIL Corruption")) << CutOutcome(0);
}

// Any flipped bit fails Open with Corruption naming the MANIFEST and the
// offset -- except one that turns the last record into a torn tail, which
// then behaves as a cut at that record's start.
TEST_F(ManifestCorruptionTest, FlippedBitAtEveryOffset) {
  FailureLog log;
  // Every header byte (with two bit positions), and a stride through the
  // payloads (one bit position each, varying).
  std::map<size_t, std::vector<unsigned char>> flips;
  for (const LogRecord& rec : records_) {
    for (size_t d = 0; d < kHeaderSize; d++) flips[rec.begin + d] = {0x01, 0x80};
  }
  for (size_t o = 0; o < data_.size(); o += 3) {
    if (flips.count(o) == 0) flips[o] = {static_cast<unsigned char>(1u << (o % 8))};
  }
  for (const auto& [offset, masks] : flips) {
    const int r = RecordAt(offset);
    const std::string where = "flip at " + std::to_string(offset) + " (record " +
                              std::to_string(r) + " of " + std::to_string(records_.size()) +
                              ", at " + std::to_string(r >= 0 ? records_[r].begin : 0) + ")";
    for (unsigned char mask : masks) {
      Restore();
      FlipBit(manifest_, offset, mask);
      std::string bad;
      Status s;
      const std::string got = Outcome(&bad, &s);
      if (!bad.empty()) {
        log.Add(where, bad);
        continue;
      }
      std::string res = ExpectCorruptionNaming(s, manifest_, true);
      if (!res.empty() && r == static_cast<int>(records_.size()) - 1) {
        const std::string want = CutOutcome(records_[r].begin);
        res = got == want ? "" : res + "; as a torn tail: got " + got + ", want " + want;
      }
      log.Add(where + " mask " + std::to_string(mask), res);
    }
  }
}

// ---- CURRENT ------------------------------------------------------------

TEST_F(CorruptionTest, DamagedCurrentIsACorruptionNamingIt) {
  {
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(MakeOptions(true), dbname_, &db));
    ASSERT_OK(db->Put(WriteOptions(), "a", "1"));
    ASSERT_OK(db->Close());
  }
  Backup();
  const std::string current = dbname_ + "/CURRENT";
  const std::string good = test::ReadFileOrDie(current);
  ASSERT_EQ(good.back(), '\n');
  std::vector<std::pair<std::string, std::string>> cases = {
      {"garbage", "xyz\n"},
      {"binary garbage", std::string("\x01\xff\x00\x7f\n", 5)},
      {"empty", ""},
      {"missing MANIFEST", "MANIFEST-999999\n"},
      {"no trailing newline", good.substr(0, good.size() - 1)},
      {"two newlines", good + "\n"},
      {"a table file", "000001.sst\n"},
  };
  for (size_t cut = 0; cut < good.size(); cut++) {
    cases.emplace_back("cut at " + std::to_string(cut), good.substr(0, cut));
  }
  for (size_t i = 0; i < good.size(); i++) {
    for (unsigned char mask : {0x01, 0x20, 0x80}) {
      std::string d = good;
      d[i] = static_cast<char>(d[i] ^ mask);
      cases.emplace_back("flip at " + std::to_string(i) + " mask " + std::to_string(mask), d);
    }
  }
  FailureLog log;
  for (const auto& [what, contents] : cases) {
    Restore();
    test::WriteFileOrDie(current, contents);
    std::unique_ptr<DB> db;
    Status s = DB::Open(MakeOptions(), dbname_, &db);
    std::string res;
    if (s.ok()) {
      res = "opened OK";
      db->Close().PermitUncheckedError();
    } else if (!s.IsCorruption()) {
      res = "expected Corruption, got " + s.ToString();
    } else if (!Contains(s.ToString(), "CURRENT") && !Contains(s.ToString(), "MANIFEST")) {
      res = "message names neither CURRENT nor the MANIFEST: " + s.ToString();
    }
    log.Add(what, res);
  }
  // A missing CURRENT is a database that does not exist (as in RocksDB):
  // without create_if_missing, Open refuses and names the path.
  Restore();
  fs::remove(current);
  std::unique_ptr<DB> db;
  Status s = DB::Open(MakeOptions(), dbname_, &db);
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.ToString(), dbname_)) << s.ToString();
}

// ---- OPTIONS ------------------------------------------------------------

// Strata, like RocksDB, does not read the OPTIONS file at Open: a damaged
// one changes nothing, and Open writes a fresh one.
TEST_F(CorruptionTest, DamagedOptionsFileIsIgnoredAndRewritten) {
  std::map<std::string, std::string> written;
  {
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(MakeOptions(true), dbname_, &db));
    for (int i = 0; i < 50; i++) {
      ASSERT_OK(db->Put(WriteOptions(), Key(i), Value(i)));
      written[Key(i)] = Value(i);
    }
    ASSERT_OK(db->Flush(FlushOptions()));
    ASSERT_OK(db->Close());
  }
  Backup();
  std::vector<std::string> opts = Files("OPTIONS-", "");
  ASSERT_FALSE(opts.empty());
  const std::string options_file = opts.back();
  const std::string good = test::ReadFileOrDie(options_file);
  ASSERT_TRUE(Contains(good, "[DBOptions]"));
  std::vector<std::pair<std::string, std::function<void()>>> damages = {
      {"deleted", [&] { fs::remove(options_file); }},
      {"empty", [&] { test::WriteFileOrDie(options_file, ""); }},
      {"garbage", [&] { test::WriteFileOrDie(options_file, std::string(300, '\xff')); }},
      {"cut in half", [&] { Truncate(options_file, good.size() / 2); }},
  };
  for (size_t i = 0; i < good.size(); i += good.size() / 8 + 1) {
    damages.emplace_back("flip at " + std::to_string(i),
                         [&, i] { FlipBit(options_file, i, 0x40); });
  }
  FailureLog log;
  for (const auto& [what, damage] : damages) {
    Restore();
    damage();
    std::unique_ptr<DB> db;
    Status s = DB::Open(MakeOptions(), dbname_, &db);
    if (!s.ok()) {
      log.Add(what, "Open: " + s.ToString());
      continue;
    }
    int errors = 0;
    std::string res = CheckReads(
        db.get(), written, options_file, [](const std::string&) { return false; }, &errors);
    if (res.empty() && errors > 0) res = "read errors";
    ASSERT_OK(db->Close());
    // A fresh OPTIONS file, newer than the damaged one, with the sections.
    std::vector<std::string> now = Files("OPTIONS-", "");
    if (res.empty() && (now.empty() || now.back() <= options_file)) res = "no new OPTIONS file";
    if (res.empty() && !Contains(test::ReadFileOrDie(now.back()), "[CFOptions \"default\"]")) {
      res = "new OPTIONS file lacks the default family's section";
    }
    log.Add(what, res);
  }
}

// ---- table files --------------------------------------------------------

// A region of a table file: a block with its 5-byte trailer, or the footer.
struct Region {
  std::string name;
  uint64_t begin;
  uint64_t end;
};

// The block layout of the table at path, read through the table reader
// (handles from the footer, the index and the metaindex).
std::vector<Region> TableLayout(const std::string& path) {
  std::vector<Region> regions;
  FileSystem* fsys = Env::Default()->GetFileSystem();
  uint64_t size = 0;
  EXPECT_OK(fsys->GetFileSize(path, &size));
  std::unique_ptr<RandomAccessFile> file;
  EXPECT_OK(fsys->NewRandomAccessFile(path, FileOptions(), &file));
  TableReaderOptions tro;
  tro.file_name = path;
  tro.table_options.no_block_cache = true;
  std::unique_ptr<BlockBasedTable> table;
  Status s = BlockBasedTable::Open(tro, std::move(file), size, &table);
  EXPECT_OK(s);
  if (!s.ok()) return regions;
  auto block = [&](const std::string& name, const BlockHandle& h) {
    regions.push_back(Region{name, h.offset(), h.offset() + h.size() + kBlockTrailerSize});
  };
  regions.push_back(Region{"footer", size - Footer::kNewFooterLength, size});
  block("metaindex", table->footer().metaindex_handle());
  block("index", table->footer().index_handle());
  {
    std::unique_ptr<InternalIterator> it(table->NewIndexIterator());
    int n = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next(), n++) {
      Slice v = it->value();
      BlockHandle h;
      EXPECT_OK(h.DecodeFrom(&v));
      block("data block " + std::to_string(n), h);
    }
  }
  // Metaindex entries: restart interval 1, so every key is whole.
  std::string meta;
  EXPECT_OK(table->ReadBlockContents(table->footer().metaindex_handle(), &meta));
  if (meta.size() >= 4) {
    const uint32_t restarts = DecodeFixed32(meta.data() + meta.size() - 4);
    const char* p = meta.data();
    const char* limit = meta.data() + meta.size() - 4 - 4 * static_cast<size_t>(restarts);
    while (p < limit) {
      uint32_t shared, non_shared, value_len;
      p = GetVarint32Ptr(p, limit, &shared);
      if (p != nullptr) p = GetVarint32Ptr(p, limit, &non_shared);
      if (p != nullptr) p = GetVarint32Ptr(p, limit, &value_len);
      if (p == nullptr || shared != 0 || p + non_shared + value_len > limit) break;
      const std::string key(p, non_shared);
      Slice v(p + non_shared, value_len);
      BlockHandle h;
      if (h.DecodeFrom(&v).ok()) {
        block(key.find("filter") != std::string::npos ? "filter (" + key + ")"
              : key == "rocksdb.properties"           ? "properties"
                                                      : key,
              h);
      }
      p += non_shared + value_len;
    }
  }
  return regions;
}

class TableCorruptionDBTest : public CorruptionTest {
 protected:
  // Two tables of disjoint key ranges in L0 (keys [0, 600) and
  // [600, 1200)), each with a range tombstone; damage goes to the first.
  void SetUp() override {
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(MakeOptions(true), dbname_, &db));
    for (int t = 0; t < 2; t++) {
      for (int i = t * 600; i < (t + 1) * 600; i++) {
        ASSERT_OK(db->Put(WriteOptions(), Key(i), Value(i)));
        written_[Key(i)] = Value(i);
      }
      // A range tombstone between two written keys (it deletes none), so
      // the table has a range-deletion block too.
      ASSERT_OK(db->DeleteRange(WriteOptions(), db->DefaultColumnFamily(), Key(t * 600 + 100) + "a",
                                Key(t * 600 + 100) + "b"));
      ASSERT_OK(db->Flush(FlushOptions()));
    }
    ASSERT_OK(db->Close());
    std::vector<std::string> tables = Files("", ".sst");
    ASSERT_EQ(tables.size(), 2u);
    table_ = tables[0];
    regions_ = TableLayout(table_);
    size_ = fs::file_size(table_);
    Backup();
  }
  bool InDamagedTable(const std::string& k) const { return k < Key(600); }

  std::map<std::string, std::string> written_;
  std::string table_;
  std::vector<Region> regions_;
  uint64_t size_ = 0;
};

TEST_F(TableCorruptionDBTest, LayoutHasEveryBlockKind) {
  std::set<std::string> kinds;
  for (const Region& r : regions_) kinds.insert(r.name.substr(0, r.name.find(' ')));
  for (const char* k :
       {"footer", "metaindex", "index", "data", "filter", "properties", "rocksdb.range_del"}) {
    EXPECT_EQ(kinds.count(k), 1u) << k;
  }
  EXPECT_GT(regions_.size(), 10u);
}

// A flipped bit anywhere in the table: with paranoid_checks, Open or the
// first read that needs the damaged block reports Corruption naming the
// file; VerifyChecksum always does (blocks: with the offset). No read ever
// returns a value that was not written, and no written key reads as absent.
TEST_F(TableCorruptionDBTest, FlippedBitInEveryBlockKind) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  std::vector<std::pair<std::string, uint64_t>> cases;
  int data_blocks = 0;
  for (const Region& r : regions_) data_blocks += r.name.rfind("data", 0) == 0;
  for (const Region& r : regions_) {
    std::set<uint64_t> offs;
    if (r.name.rfind("data", 0) == 0) {
      // The first, second and last data blocks in full detail, a few others
      // at their start.
      const int n = std::stoi(r.name.substr(11));
      if (n != 0 && n != data_blocks - 1 && rng() % 40 != 0) continue;
    }
    if (r.name == "footer") {
      // Every field: checksum type, the handles, version, magic (and a
      // few padding bytes).
      for (uint64_t o = r.begin; o < r.end; o++) {
        if (o < r.begin + 12 || o >= r.end - 12 || o % 5 == 0) offs.insert(o);
      }
    } else {
      offs.insert(r.begin);
      offs.insert(r.begin + (r.end - r.begin) / 2);
      offs.insert(r.begin + rng() % (r.end - r.begin));
      offs.insert(r.end - 6);  // last content byte
      offs.insert(r.end - 5);  // compression type
      offs.insert(r.end - 3);  // checksum
    }
    for (uint64_t o : offs) cases.emplace_back(r.name, o);
  }
  FailureLog log;
  for (const auto& [name, offset] : cases) {
    const std::string where = name + " flip at " + std::to_string(offset) + " of " + Base(table_) +
                              ", seed " + std::to_string(seed);
    Restore();
    FlipBit(table_, offset, 0x01 << (offset % 8));
    Options o = MakeOptions();
    o.paranoid_checks = true;
    std::unique_ptr<DB> db;
    Status s = DB::Open(o, dbname_, &db);
    if (!s.ok()) {
      log.Add(where, ExpectCorruptionNaming(s, table_, false));
      continue;
    }
    int errors = 0;
    std::string res = CheckReads(
        db.get(), written_, table_, [](const std::string&) { return false; }, &errors);
    Status v = db->VerifyChecksum();
    if (res.empty()) {
      if (name == "footer" && v.ok() && errors == 0) {
        // A footer byte no reader looks at (padding): everything intact.
      } else {
        res = ExpectCorruptionNaming(v, table_, name != "footer");
        if (res.empty() && errors == 0) res = "reads saw no error, VerifyChecksum did";
      }
    }
    ASSERT_OK(db->Close());
    log.Add(where, res);
  }
}

// With paranoid_checks, a table shorter or longer than the MANIFEST says,
// or missing, fails Open with Corruption naming it.
TEST_F(TableCorruptionDBTest, TruncatedMissingOrGrownTableFailsOpen) {
  FailureLog log;
  std::set<uint64_t> cuts = {0, 1, size_ - 1};
  for (const Region& r : regions_) {
    cuts.insert(r.begin);
    cuts.insert(r.end - 1);
  }
  for (uint64_t c = 0; c < size_; c += 997) cuts.insert(c);
  Options o = MakeOptions();
  o.paranoid_checks = true;
  for (uint64_t cut : cuts) {
    if (cut >= size_) continue;
    Restore();
    Truncate(table_, cut);
    std::unique_ptr<DB> db;
    Status s = DB::Open(o, dbname_, &db);
    log.Add("cut at " + std::to_string(cut), ExpectCorruptionNaming(s, table_, false));
  }
  Restore();
  test::WriteFileOrDie(table_, test::ReadFileOrDie(table_) + "x");
  std::unique_ptr<DB> db;
  log.Add("grown by a byte", ExpectCorruptionNaming(DB::Open(o, dbname_, &db), table_, false));
  Restore();
  fs::remove(table_);
  log.Add("missing", ExpectCorruptionNaming(DB::Open(o, dbname_, &db), table_, false));
}

// Without paranoid_checks RocksDB 7.8.3 skips the existence and size check
// at Open (DBImpl::CheckConsistency runs only with paranoid_checks) and
// ignores tables it cannot open while loading the MANIFEST
// (VersionEditHandler::LoadTables): Open succeeds, and a read that needs a
// missing or truncated table fails naming it. A table with bytes appended
// reads as before (the footer is found at the recorded size).
TEST_F(TableCorruptionDBTest, WithoutParanoidChecksOpenSucceedsAndReadsFail) {
  FailureLog log;
  Options o = MakeOptions();
  o.paranoid_checks = false;
  auto missing_ok = [](const std::string&) { return false; };
  std::vector<std::pair<std::string, std::function<void()>>> damages = {
      {"missing", [&] { fs::remove(table_); }},
      {"cut by a byte", [&] { Truncate(table_, size_ - 1); }},
      {"cut in half", [&] { Truncate(table_, size_ / 2); }},
      {"grown by a byte", [&] { test::WriteFileOrDie(table_, test::ReadFileOrDie(table_) + "x"); }},
  };
  for (const auto& [what, damage] : damages) {
    Restore();
    damage();
    std::unique_ptr<DB> db;
    Status s = DB::Open(o, dbname_, &db);
    if (!s.ok()) {
      log.Add(what, "Open: " + s.ToString());
      continue;
    }
    int errors = 0;
    std::string res =
        CheckReads(db.get(), written_, table_, missing_ok, &errors, /*io_error_ok=*/true);
    if (res.empty() && what == "grown by a byte" && errors != 0) res = "read errors";
    if (res.empty() && what != "grown by a byte" && errors == 0) res = "no read saw the damage";
    ASSERT_OK(db->Close());
    log.Add(what, res);
  }
}

// A table that disappears under an open DB (before anything read it): a
// read that needs it fails naming it -- a NotFound would silently hide
// data.
TEST_F(TableCorruptionDBTest, TableDeletedUnderAnOpenDB) {
  Restore();
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(MakeOptions(), dbname_, &db));
  fs::remove(table_);
  int errors = 0;
  EXPECT_EQ(CheckReads(
                db.get(), written_, table_, [](const std::string&) { return false; }, &errors,
                /*io_error_ok=*/true),
            "");
  EXPECT_GT(errors, 0);
  ASSERT_OK(db->Close());
}

// A damaged data block in a compaction input: the compaction fails with
// Corruption naming the file and becomes the background error; nothing is
// dropped (the inputs stay, a reopened DB reads every undamaged key).
TEST_F(TableCorruptionDBTest, DamagedCompactionInputFailsTheCompaction) {
  const Region* data = nullptr;
  for (const Region& r : regions_) {
    if (r.name == "data block 3") data = &r;
  }
  ASSERT_NE(data, nullptr);
  Restore();
  std::unique_ptr<DB> db;
  // A third table overlapping both, so the compaction must merge (two
  // disjoint tables would just be moved down).
  ASSERT_OK(DB::Open(MakeOptions(), dbname_, &db));
  for (int i = 0; i < 1200; i += 50) {
    ASSERT_OK(db->Put(WriteOptions(), Key(i), "new-" + Value(i)));
    written_[Key(i)] = "new-" + Value(i);
  }
  ASSERT_OK(db->Flush(FlushOptions()));
  ASSERT_OK(db->Close());
  FlipBit(table_, data->begin + 10);
  ASSERT_OK(DB::Open(MakeOptions(), dbname_, &db));
  Status s = db->CompactRange(CompactRangeOptions(), nullptr, nullptr);
  EXPECT_EQ(ExpectCorruptionNaming(s, table_, true), "");
  // Reads of the undamaged table keep working.
  for (int i = 600; i < 1200; i += 7) {
    std::string v;
    ASSERT_OK(db->Get(ReadOptions(), Key(i), &v));
    EXPECT_EQ(v, written_[Key(i)]);
  }
  // The failure is the background error: writes stop.
  EXPECT_FALSE(db->Put(WriteOptions(), "after", "x").ok());
  db->Close().PermitUncheckedError();
  db.reset();
  // Both inputs are still there; every key outside the damaged block reads.
  EXPECT_TRUE(fs::exists(table_));
  ASSERT_OK(DB::Open(MakeOptions(), dbname_, &db));
  int errors = 0;
  EXPECT_EQ(CheckReads(
                db.get(), written_, table_, [](const std::string&) { return false; }, &errors),
            "");
  EXPECT_GT(errors, 0);
  ASSERT_OK(db->Close());
}

}  // namespace
}  // namespace strata
