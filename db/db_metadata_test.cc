// The size and metadata calls of DB (db/db_impl_metadata.cc) against what
// the files and the data really are: approximate sizes against written
// bytes (files, memtables, the error margin), table properties collectors
// through flush, compaction and SstFileWriter (and RocksDB's sst_dump
// reading what they stored), properties of the tables in a range against
// the files' own key ranges, DeleteFilesInRange against a std::map model,
// and CompactFiles (inputs, outputs, options, errors, races).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "db/db_impl.h"
#include "strata/db.h"
#include "strata/options.h"
#include "strata/sst_file_writer.h"
#include "strata/table_properties.h"
#include "table/compression.h"
#include "test_util/db_test_base.h"
#include "test_util/testutil.h"
#include "util/sync_point.h"

namespace strata {
namespace {

constexpr const char* kSstDump = "/usr/bin/sst_dump";
constexpr const char* kLdb = "/usr/bin/ldb";

using test::RunCommand;

// Lines of `text` (RocksDB ldb scan prints one per key).
size_t CountLines(const std::string& text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

std::string Key(int i) {
  char buf[32];
  snprintf(buf, sizeof(buf), "key%06d", i);
  return buf;
}

// A value of exactly n bytes that no compressor shrinks much.
std::string RandomValue(std::mt19937_64* rng, size_t n) {
  std::string v(n, '\0');
  for (char& c : v) c = static_cast<char>('a' + (*rng)() % 26);
  return v;
}

std::string Hex(const std::string& s) {
  static const char* kDigits = "0123456789ABCDEF";
  std::string r;
  for (unsigned char c : s) {
    r.push_back(kDigits[c >> 4]);
    r.push_back(kDigits[c & 15]);
  }
  return r;
}

std::string Unhex(const std::string& s) {
  std::string r;
  for (size_t i = 0; i + 1 < s.size(); i += 2) {
    r.push_back(static_cast<char>(std::stoi(s.substr(i, 2), nullptr, 16)));
  }
  return r;
}

// Counts the entries of each type it sees; NeedCompact when a file holds
// more than `compact_above` deletions.
class CountingCollector : public TablePropertiesCollector {
 public:
  explicit CountingCollector(uint64_t compact_above) : compact_above_(compact_above) {}
  Status AddUserKey(const Slice& key, const Slice& value, EntryType type, uint64_t seq,
                    uint64_t file_size) override {
    (void)key, (void)value, (void)seq, (void)file_size;
    counts_[type]++;
    return Status::OK();
  }
  void BlockAdd(uint64_t uncompressed, uint64_t, uint64_t) override {
    blocks_++;
    block_bytes_ += uncompressed;
  }
  Status Finish(UserCollectedProperties* props) override {
    (*props)["test.puts"] = std::to_string(counts_[kEntryPut]);
    (*props)["test.deletes"] = std::to_string(counts_[kEntryDelete]);
    (*props)["test.merges"] = std::to_string(counts_[kEntryMerge]);
    (*props)["test.range_deletes"] = std::to_string(counts_[kEntryRangeDeletion]);
    (*props)["test.blocks"] = std::to_string(blocks_);
    // A built-in name: must not replace the real property.
    (*props)["rocksdb.num.entries"] = "bogus";
    return Status::OK();
  }
  UserCollectedProperties GetReadableProperties() const override {
    return {{"puts", std::to_string(counts_.count(kEntryPut) ? counts_.at(kEntryPut) : 0)}};
  }
  const char* Name() const override { return "CountingCollector"; }
  bool NeedCompact() const override {
    return counts_.count(kEntryDelete) != 0 && counts_.at(kEntryDelete) > compact_above_;
  }

 private:
  const uint64_t compact_above_;
  std::map<EntryType, uint64_t> counts_;
  uint64_t blocks_ = 0;
  uint64_t block_bytes_ = 0;
};

class CountingFactory : public TablePropertiesCollectorFactory {
 public:
  explicit CountingFactory(uint64_t compact_above = 1000) : compact_above_(compact_above) {}
  TablePropertiesCollector* CreateTablePropertiesCollector(Context context) override {
    std::lock_guard<std::mutex> l(mu_);
    contexts_.push_back(context);
    return new CountingCollector(compact_above_);
  }
  const char* Name() const override { return "MetadataTestFactory"; }
  std::vector<Context> contexts() {
    std::lock_guard<std::mutex> l(mu_);
    return contexts_;
  }

 private:
  const uint64_t compact_above_;
  std::mutex mu_;
  std::vector<Context> contexts_;
};

// A second factory whose collector always fails Finish: adds nothing.
class FailingCollector : public TablePropertiesCollector {
 public:
  Status Finish(UserCollectedProperties* props) override {
    (*props)["fail.x"] = "1";
    return Status::Corruption("no");
  }
  UserCollectedProperties GetReadableProperties() const override { return {}; }
  const char* Name() const override { return "FailingCollector"; }
};
class FailingFactory : public TablePropertiesCollectorFactory {
 public:
  TablePropertiesCollector* CreateTablePropertiesCollector(Context) override {
    return new FailingCollector;
  }
  const char* Name() const override { return "FailingFactory"; }
};

uint64_t PropNum(const TableProperties& p, const std::string& name) {
  auto it = p.user_collected_properties.find(name);
  EXPECT_NE(it, p.user_collected_properties.end()) << name;
  return it == p.user_collected_properties.end() ? 0 : std::stoull(it->second);
}

class DBMetadataTest : public DBTestBase {
 protected:
  DBMetadataTest() : DBTestBase("db_metadata_test") {}

  struct FileInfo {
    uint64_t number = 0;
    uint64_t size = 0;
    int level = 0;
    std::string smallest;  // user keys
    std::string largest;
  };

  // Every live table of the default family, from rocksdb.sstables.
  std::vector<FileInfo> Files() {
    std::string text;
    EXPECT_TRUE(db_->GetProperty("rocksdb.sstables", &text));
    std::vector<FileInfo> r;
    std::istringstream in(text);
    std::string line;
    int level = -1;
    static const std::regex kFile(
        R"(^ (\d+):(\d+)\[\d+ \.\. \d+\]\['([0-9A-F]*)' seq:\d+, type:\d+ \.\. '([0-9A-F]*)' seq:.*)");
    while (std::getline(in, line)) {
      int l;
      std::smatch m;
      if (sscanf(line.c_str(), "--- level %d ---", &l) == 1) {
        level = l;
      } else if (std::regex_match(line, m, kFile)) {
        FileInfo f;
        f.number = std::stoull(m[1]);
        f.size = std::stoull(m[2]);
        f.level = level;
        f.smallest = Unhex(m[3]);
        f.largest = Unhex(m[4]);
        r.push_back(f);
      }
    }
    return r;
  }

  std::string FileName(uint64_t number) {
    char buf[32];
    snprintf(buf, sizeof(buf), "/%06" PRIu64 ".sst", number);
    return dbname_ + buf;
  }

  // Everything the default family holds, by a full scan.
  std::map<std::string, std::string> Scan() {
    std::map<std::string, std::string> r;
    std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
    for (it->SeekToFirst(); it->Valid(); it->Next())
      r[it->key().ToString()] = it->value().ToString();
    EXPECT_OK(it->status());
    return r;
  }

  uint64_t Size(const std::string& a, const std::string& b, uint8_t flags = DB::INCLUDE_FILES) {
    Range r(a, b);
    uint64_t size = 0;
    EXPECT_OK(db_->GetApproximateSizes(&r, 1, &size, flags));
    return size;
  }
};

// ---------------------------------------------------------------------------
// GetApproximateSizes / GetApproximateMemTableStats

TEST_F(DBMetadataTest, ApproximateSizesOfFiles) {
  Options o = SmallOptions();
  o.disable_auto_compactions = true;
  o.write_buffer_size = 8 << 20;  // one flush, one file
  DestroyAndReopen(o);
  std::mt19937_64 rng(1);
  constexpr int kKeys = 1000;
  constexpr size_t kValue = 1000;
  for (int i = 0; i < kKeys; ++i) ASSERT_OK(Put(Key(i), RandomValue(&rng, kValue)));
  ASSERT_OK(Flush());
  // The whole level-0 file, and a tenth of it.
  uint64_t total_file_bytes = 0;
  for (const FileInfo& f : Files()) total_file_bytes += f.size;
  for (int pass = 0; pass < 2; ++pass) {
    SCOPED_TRACE(pass == 0 ? "one level-0 file" : "level-1 files of 64 KiB");
    const uint64_t all = Size(Key(0), Key(kKeys));
    EXPECT_GE(all, total_file_bytes * 9 / 10);
    EXPECT_LE(all, total_file_bytes * 11 / 10);
    const uint64_t expected = 100 * (kValue + 9 + 8);  // value, key, trailer
    const uint64_t tenth = Size(Key(300), Key(400));
    EXPECT_GE(tenth, expected * 9 / 10);
    EXPECT_LE(tenth, expected * 11 / 10);
    // Nothing before the first key or after the last; inverted ranges 0.
    EXPECT_EQ(Size("a", "b"), 0u);
    EXPECT_EQ(Size("z", "zz"), 0u);
    EXPECT_EQ(Size(Key(400), Key(300)), 0u);
    EXPECT_EQ(Size(Key(300), Key(300)), 0u);
    // Monotone in the range.
    uint64_t last = 0;
    for (int end = 100; end <= kKeys; end += 100) {
      const uint64_t s = Size(Key(0), Key(end));
      EXPECT_GE(s, last) << end;
      last = s;
    }
    // The error margin: files wholly inside count in full, boundary ones
    // may be halved; still close to the exact answer.
    SizeApproximationOptions margin;
    margin.files_size_error_margin = 0.5;
    const std::string from = Key(100), to = Key(900);  // r points into them
    Range r(from, to);
    uint64_t approx = 0;
    ASSERT_OK(db_->GetApproximateSizes(margin, db_->DefaultColumnFamily(), &r, 1, &approx));
    const uint64_t exact = Size(Key(100), Key(900));
    if (pass == 1) {
      EXPECT_GE(approx, exact * 8 / 10);
      EXPECT_LE(approx, exact * 12 / 10);
    } else {
      EXPECT_GT(approx, 0u);
    }
    if (pass == 0) {
      CompactRangeOptions cro;  // rewrite, not a trivial move
      cro.bottommost_level_compaction = BottommostLevelCompaction::kForce;
      ASSERT_OK(db_->CompactRange(cro, nullptr, nullptr));
      ASSERT_EQ(NumTableFilesAtLevel(0), 0);
      total_file_bytes = 0;
      for (const FileInfo& f : Files()) total_file_bytes += f.size;
      ASSERT_GT(Files().size(), 5u);
    }
  }
  // Both include flags off: RocksDB's InvalidArgument.
  SizeApproximationOptions none;
  none.include_files = false;
  const std::string k0 = Key(0), k10 = Key(10);  // r points into them
  Range r(k0, k10);
  uint64_t s = 0;
  EXPECT_TRUE(
      db_->GetApproximateSizes(none, db_->DefaultColumnFamily(), &r, 1, &s).IsInvalidArgument());

  // RocksDB's ldb approxsize (DB::GetApproximateSizes on the same files)
  // gives the same numbers: same edge files, offsets and scaling.
  if (access(kLdb, X_OK) != 0) GTEST_SKIP() << "rocksdb-tools not installed";
  const std::vector<std::pair<int, int>> ranges = {{0, kKeys}, {300, 400}, {1, 2},
                                                   {123, 877}, {-1, 500},  {999, 5000}};
  std::vector<uint64_t> ours;
  for (const auto& [a, b] : ranges) {
    ours.push_back(Size(a < 0 ? "a" : Key(a), Key(b)));
  }
  Close();
  for (size_t i = 0; i < ranges.size(); ++i) {
    const auto& [a, b] = ranges[i];
    int rc = 0;
    const std::string out = RunCommand(
        std::string(kLdb) + " --db=" + dbname_ +
            " approxsize --from=" + (a < 0 ? std::string("a") : Key(a)) + " --to=" + Key(b),
        &rc);
    ASSERT_EQ(rc, 0) << out;
    EXPECT_EQ(std::stoull(out), ours[i]) << a << ".." << b << ": " << out;
  }
}

TEST_F(DBMetadataTest, ApproximateSizesOfMemtables) {
  Options o = SmallOptions();
  o.disable_auto_compactions = true;
  o.write_buffer_size = 32 << 20;
  DestroyAndReopen(o);
  std::mt19937_64 rng(2);
  constexpr int kKeys = 5000;
  constexpr size_t kValue = 100;
  // Shuffled inserts: the memtable index splits leaves all over.
  std::vector<int> order(kKeys);
  for (int i = 0; i < kKeys; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  for (int i : order) ASSERT_OK(Put(Key(i), RandomValue(&rng, kValue)));

  uint64_t count = 0, size = 0;
  db_->GetApproximateMemTableStats(db_->DefaultColumnFamily(), Range("a", "z"), &count, &size);
  EXPECT_EQ(count, static_cast<uint64_t>(kKeys));  // the whole memtable: exact
  const uint64_t per_entry = size / kKeys;
  EXPECT_GE(per_entry, kValue + 9 + 8);
  EXPECT_LE(per_entry, kValue + 9 + 8 + 8);
  for (const auto& [from, to] :
       std::vector<std::pair<int, int>>{{0, 2500}, {1000, 2000}, {4000, 4500}, {10, 110}}) {
    db_->GetApproximateMemTableStats(db_->DefaultColumnFamily(), Range(Key(from), Key(to)), &count,
                                     &size);
    const double want = to - from;
    // An estimate from the index's shape (leaves are half to fully used).
    EXPECT_GE(count, want * 0.6) << from << ".." << to;
    EXPECT_LE(count, want * 1.4) << from << ".." << to;
    EXPECT_EQ(size, count * per_entry);
    // The same through GetApproximateSizes with memtables only.
    EXPECT_EQ(Size(Key(from), Key(to), DB::INCLUDE_MEMTABLES), size);
    EXPECT_EQ(Size(Key(from), Key(to), DB::INCLUDE_FILES), 0u);
  }
  db_->GetApproximateMemTableStats(db_->DefaultColumnFamily(), Range(Key(20), Key(10)), &count,
                                   &size);
  EXPECT_EQ(count, 0u);
  // Monotone.
  uint64_t last = 0;
  for (int end = 0; end <= kKeys; end += 250) {
    db_->GetApproximateMemTableStats(db_->DefaultColumnFamily(), Range(Key(0), Key(end)), &count,
                                     &size);
    EXPECT_GE(count, last);
    last = count;
  }
  // Files and memtables together: after a flush, half in each.
  ASSERT_OK(Flush());
  for (int i = 0; i < kKeys; i += 2) ASSERT_OK(Put(Key(i), RandomValue(&rng, kValue)));
  const uint64_t files = Size(Key(0), Key(kKeys), DB::INCLUDE_FILES);
  const uint64_t mems = Size(Key(0), Key(kKeys), DB::INCLUDE_MEMTABLES);
  const uint64_t both = Size(Key(0), Key(kKeys), DB::INCLUDE_FILES | DB::INCLUDE_MEMTABLES);
  EXPECT_EQ(both, files + mems);
  EXPECT_GT(files, mems);
  EXPECT_GT(mems, 0u);
}

// ---------------------------------------------------------------------------
// Table properties collectors and GetPropertiesOf*

TEST_F(DBMetadataTest, CollectorsThroughFlushAndCompaction) {
  // More than 10 deletions: the collector asks for compaction (the files
  // are marked in the MANIFEST, which RocksDB's ldb must still read).
  auto factory = std::make_shared<CountingFactory>(10);
  Options o = SmallOptions();
  o.disable_auto_compactions = true;
  o.num_levels = 3;
  o.table_properties_collector_factories = {factory, std::make_shared<FailingFactory>()};
  DestroyAndReopen(o);
  std::mt19937_64 rng(3);
  uint64_t puts = 0, deletes = 0, range_deletes = 0;
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 300; ++i) {
      ASSERT_OK(Put(Key(round * 1000 + i), RandomValue(&rng, 50)));
      ++puts;
    }
    for (int i = 0; i < 20; ++i) {
      ASSERT_OK(Delete(Key(round * 1000 + 500 + i)));
      ++deletes;
    }
    ASSERT_OK(DeleteRange(Key(round * 1000 + 600), Key(round * 1000 + 610)));
    ++range_deletes;
    ASSERT_OK(Flush());
  }
  TablePropertiesCollection props;
  ASSERT_OK(db_->GetPropertiesOfAllTables(&props));
  ASSERT_EQ(props.size(), 3u);
  uint64_t seen_puts = 0, seen_deletes = 0, seen_ranges = 0;
  for (const auto& [path, p] : props) {
    SCOPED_TRACE(path);
    EXPECT_EQ(path.rfind(dbname_ + "/", 0), 0u);
    EXPECT_EQ(p->property_collectors_names, "[MetadataTestFactory,FailingFactory]");
    seen_puts += PropNum(*p, "test.puts");
    seen_deletes += PropNum(*p, "test.deletes");
    seen_ranges += PropNum(*p, "test.range_deletes");
    EXPECT_EQ(PropNum(*p, "test.blocks"), p->num_data_blocks);
    EXPECT_EQ(p->user_collected_properties.count("fail.x"), 0u);
    EXPECT_EQ(p->user_collected_properties.count("rocksdb.num.entries"), 0u);
    EXPECT_EQ(p->num_entries, PropNum(*p, "test.puts") + PropNum(*p, "test.deletes") +
                                  PropNum(*p, "test.range_deletes"));
  }
  EXPECT_EQ(seen_puts, puts);
  EXPECT_EQ(seen_deletes, deletes);
  EXPECT_EQ(seen_ranges, range_deletes);
  for (const auto& c : factory->contexts()) {
    EXPECT_EQ(c.level_at_creation, 0);
    EXPECT_EQ(c.column_family_id, 0u);
  }

  // A compaction to the last level drops the deletions; its collectors are
  // made for the output level.
  const size_t before = factory->contexts().size();
  CompactRangeOptions cro;  // rewrite, not a trivial move
  cro.bottommost_level_compaction = BottommostLevelCompaction::kForce;
  ASSERT_OK(db_->CompactRange(cro, nullptr, nullptr));
  const auto contexts = factory->contexts();
  ASSERT_GT(contexts.size(), before);
  for (size_t i = before; i < contexts.size(); ++i) EXPECT_GE(contexts[i].level_at_creation, 1);
  props.clear();
  ASSERT_OK(db_->GetPropertiesOfAllTables(&props));
  uint64_t after_puts = 0;
  for (const auto& [path, p] : props) {
    after_puts += PropNum(*p, "test.puts");
    EXPECT_EQ(PropNum(*p, "test.deletes"), 0u) << path;
  }
  EXPECT_EQ(after_puts, puts);  // the deletions and range deletions hit no key
  EXPECT_EQ(after_puts, Scan().size());

  // RocksDB's sst_dump prints what the collectors stored.
  if (access(kSstDump, X_OK) != 0) GTEST_SKIP() << "rocksdb-tools not installed";
  const std::string path = props.begin()->first;
  int rc = 0;
  const std::string out =
      RunCommand(std::string(kSstDump) + " --file=" + path + " --show_properties", &rc);
  ASSERT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("property collectors names: [MetadataTestFactory,FailingFactory]"),
            std::string::npos)
      << out;
  const std::string puts_line =
      "# test.puts: 0x" + Hex(props.begin()->second->user_collected_properties.at("test.puts"));
  EXPECT_NE(out.find(puts_line), std::string::npos) << out;
  EXPECT_NE(out.find("# test.deletes: 0x30"), std::string::npos) << out;  // "0"

  // Files marked by NeedCompact (written before the compaction, listed in
  // older MANIFEST records), then RocksDB's ldb over the whole DB.
  for (int i = 0; i < 20; ++i) ASSERT_OK(Delete(Key(i)));
  ASSERT_OK(Flush());
  const size_t keys = Scan().size();
  Close();
  const std::string scan = RunCommand(std::string(kLdb) + " --db=" + dbname_ + " scan", &rc);
  ASSERT_EQ(rc, 0) << scan;
  EXPECT_EQ(CountLines(scan), keys);
  const std::string check =
      RunCommand(std::string(kLdb) + " --db=" + dbname_ + " checkconsistency", &rc);
  EXPECT_EQ(rc, 0) << check;
  const std::string manifest =
      RunCommand(std::string(kLdb) + " --db=" + dbname_ + " manifest_dump --verbose", &rc);
  EXPECT_EQ(rc, 0) << manifest;
}

TEST_F(DBMetadataTest, CollectorsInSstFileWriter) {
  auto factory = std::make_shared<CountingFactory>();
  Options o = SmallOptions();
  o.table_properties_collector_factories = {factory};
  const std::string path = tmp_.path() + "/ext.sst";
  SstFileWriter writer(o);
  ASSERT_OK(writer.Open(path));
  for (int i = 0; i < 50; ++i) ASSERT_OK(writer.Put(Key(i), "v"));
  ASSERT_OK(writer.Delete(Key(60)));
  ASSERT_OK(writer.Finish());
  ASSERT_EQ(factory->contexts().size(), 1u);
  EXPECT_EQ(factory->contexts()[0].level_at_creation, -1);
  SstFileReader reader(o);
  ASSERT_OK(reader.Open(path));
  std::shared_ptr<const TableProperties> p = reader.GetTableProperties();
  EXPECT_EQ(PropNum(*p, "test.puts"), 50u);
  EXPECT_EQ(PropNum(*p, "test.deletes"), 1u);
  EXPECT_EQ(p->property_collectors_names, "[MetadataTestFactory]");
  // The writer's own properties are still there.
  EXPECT_EQ(p->user_collected_properties.count("rocksdb.external_sst_file.version"), 1u);
}

TEST_F(DBMetadataTest, NoCollectorsNoNames) {
  Options o = SmallOptions();
  DestroyAndReopen(o);
  ASSERT_OK(Put("a", "1"));
  ASSERT_OK(Flush());
  TablePropertiesCollection props;
  ASSERT_OK(db_->GetPropertiesOfAllTables(&props));
  ASSERT_EQ(props.size(), 1u);
  EXPECT_EQ(props.begin()->second->property_collectors_names, "[]");
  EXPECT_TRUE(props.begin()->second->user_collected_properties.empty());
}

TEST_F(DBMetadataTest, PropertiesOfTablesInRange) {
  Options o = SmallOptions();
  o.disable_auto_compactions = true;
  DestroyAndReopen(o);
  std::mt19937_64 rng(4);
  for (int i = 0; i < 2000; ++i) ASSERT_OK(Put(Key(i), RandomValue(&rng, 200)));
  ASSERT_OK(Flush());
  CompactRangeOptions cro;
  ASSERT_OK(db_->CompactRange(cro, nullptr, nullptr));
  for (int i = 0; i < 2000; i += 7) ASSERT_OK(Put(Key(i), RandomValue(&rng, 200)));
  ASSERT_OK(Flush());  // one level-0 file over everything
  const std::vector<FileInfo> files = Files();
  ASSERT_GT(files.size(), 4u);
  for (int trial = 0; trial < 30; ++trial) {
    const int a = static_cast<int>(rng() % 2100), b = a + static_cast<int>(rng() % 300);
    // The Ranges point into these strings (a Range holds Slices).
    const std::string ka = Key(a), kb = Key(b), kc = Key(b + 500), kd = Key(b + 520);
    std::vector<Range> ranges = {Range(ka, kb)};
    if (trial % 3 == 0) ranges.emplace_back(kc, kd);
    std::set<std::string> want;
    for (const FileInfo& f : files) {
      for (const Range& r : ranges) {
        if (f.largest >= r.start.ToString() && f.smallest <= r.limit.ToString()) {
          want.insert(FileName(f.number));
        }
      }
    }
    TablePropertiesCollection props;
    ASSERT_OK(db_->GetPropertiesOfTablesInRange(db_->DefaultColumnFamily(), ranges.data(),
                                                ranges.size(), &props));
    std::set<std::string> got;
    for (const auto& [path, p] : props) {
      got.insert(path);
      EXPECT_GT(p->num_entries, 0u);
    }
    EXPECT_EQ(got, want) << a << ".." << b;
  }
}

// ---------------------------------------------------------------------------
// DeleteFilesInRange

// Each round writes fresh keys (each key once), pushes them below level 0,
// adds a level-0 file and memtable entries, and deletes the files of a
// random range: exactly the keys of the files wholly inside go, and only
// from levels >= 1.
TEST_F(DBMetadataTest, DeleteFilesInRangeAgainstModel) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  Options o = SmallOptions();
  o.disable_auto_compactions = true;
  DestroyAndReopen(o);
  std::map<std::string, std::string> model;
  int next = 0;
  for (int round = 0; round < 4; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    // Fresh keys spread over the key space.
    for (int i = 0; i < 1500; ++i) {
      const std::string k = Key(static_cast<int>(rng() % 100000)) + "." + std::to_string(next++);
      if (model.count(k)) continue;
      const std::string v = RandomValue(&rng, 100);
      ASSERT_OK(Put(k, v));
      model[k] = v;
    }
    ASSERT_OK(Flush());
    CompactRangeOptions cro;
    ASSERT_OK(db_->CompactRange(cro, nullptr, nullptr));
    // Level 0 and memtable: survive whatever the range.
    std::set<std::string> protected_keys;
    for (int i = 0; i < 40; ++i) {
      const std::string k = Key(static_cast<int>(rng() % 100000)) + ".l0." + std::to_string(next++);
      ASSERT_OK(Put(k, "l0"));
      model[k] = "l0";
      protected_keys.insert(k);
      if (i == 19) {
        ASSERT_OK(Flush());
      }
    }
    const std::vector<FileInfo> files = Files();
    int a = static_cast<int>(rng() % 100000), b = static_cast<int>(rng() % 100000);
    if (a > b) std::swap(a, b);
    const std::string begin = Key(a), end = Key(b);
    const bool include_end = rng() % 2 == 0;
    const bool open_begin = rng() % 5 == 0;
    // Files wholly inside; every key is in one file only, so no boundary
    // is shared and every such file goes.
    std::vector<FileInfo> doomed;
    for (const FileInfo& f : files) {
      if (f.level == 0) continue;
      if (!open_begin && f.smallest < begin) continue;
      if (f.largest > end || (!include_end && f.largest == end)) continue;
      doomed.push_back(f);
    }
    const Slice bs(begin), es(end);
    ASSERT_OK(DeleteFilesInRange(db_.get(), db_->DefaultColumnFamily(), open_begin ? nullptr : &bs,
                                 &es, include_end));
    std::map<std::string, std::string> expected = model;
    for (const FileInfo& f : doomed) {
      for (auto it = expected.lower_bound(f.smallest);
           it != expected.end() && it->first <= f.largest;) {
        if (protected_keys.count(it->first)) {
          ++it;
        } else {
          it = expected.erase(it);
        }
      }
    }
    ASSERT_EQ(Scan(), expected);
    model = expected;
    // The deleted files are gone from the directory, the rest stay.
    for (const FileInfo& f : doomed) {
      EXPECT_TRUE(options_.env->GetFileSystem()->FileExists(FileName(f.number)).IsNotFound());
    }
    const std::vector<FileInfo> after = Files();
    EXPECT_EQ(after.size(), files.size() - doomed.size());
  }
  // Reopen: the MANIFEST agrees; so does RocksDB.
  Reopen();
  ASSERT_EQ(Scan(), model);
  if (access(kLdb, X_OK) != 0) GTEST_SKIP() << "rocksdb-tools not installed";
  Close();
  int rc = 0;
  const std::string scan = RunCommand(std::string(kLdb) + " --db=" + dbname_ + " scan", &rc);
  ASSERT_EQ(rc, 0) << scan;
  EXPECT_EQ(CountLines(scan), model.size());
}

TEST_F(DBMetadataTest, DeleteFilesInRangeKeepsLevelZeroAndOpenEnds) {
  Options o = SmallOptions();
  o.disable_auto_compactions = true;
  DestroyAndReopen(o);
  for (int i = 0; i < 100; ++i) ASSERT_OK(Put(Key(i), "v"));
  ASSERT_OK(Flush());
  ASSERT_OK(DeleteFilesInRange(db_.get(), db_->DefaultColumnFamily(), nullptr, nullptr));
  EXPECT_EQ(Scan().size(), 100u);  // level 0 only: nothing goes
  CompactRangeOptions cro;
  ASSERT_OK(db_->CompactRange(cro, nullptr, nullptr));
  ASSERT_EQ(NumTableFilesAtLevel(0), 0);
  ASSERT_OK(DeleteFilesInRange(db_.get(), db_->DefaultColumnFamily(), nullptr, nullptr));
  EXPECT_TRUE(Scan().empty());
  EXPECT_EQ(Files().size(), 0u);
  // Several ranges in one call.
  for (int i = 0; i < 3000; ++i) ASSERT_OK(Put(Key(i), std::string(100, 'x')));
  ASSERT_OK(Flush());
  ASSERT_OK(db_->CompactRange(cro, nullptr, nullptr));
  const std::vector<FileInfo> files = Files();
  ASSERT_GT(files.size(), 3u);
  const Slice a(files[0].smallest), b(files[0].largest), c(files[2].smallest), d(files[2].largest);
  RangePtr ranges[2] = {RangePtr(&a, &b), RangePtr(&c, &d)};
  ASSERT_OK(DeleteFilesInRanges(db_.get(), db_->DefaultColumnFamily(), ranges, 2));
  EXPECT_EQ(Files().size(), files.size() - 2);
  EXPECT_EQ(Get(files[0].smallest), "NOT_FOUND");
  EXPECT_EQ(Get(files[1].smallest), std::string(100, 'x'));
  EXPECT_EQ(Get(files[2].largest), "NOT_FOUND");
}

// ---------------------------------------------------------------------------
// DeleteFile

// RocksDB's rules: a table goes only from the family's last non-empty
// level, from level 0 only the oldest; a bad or unknown name is
// InvalidArgument; a live WAL NotSupported; an archived WAL is deleted.
TEST_F(DBMetadataTest, DeleteFileFollowsRocksDBsRules) {
  Options o = SmallOptions();
  o.disable_auto_compactions = true;
  o.WAL_ttl_seconds = 3600;  // obsolete WALs go to archive/
  DestroyAndReopen(o);
  for (int i = 0; i < 100; ++i) ASSERT_OK(Put(Key(i), "old"));
  ASSERT_OK(Flush());
  for (int i = 100; i < 200; ++i) ASSERT_OK(Put(Key(i), "newer"));
  ASSERT_OK(Flush());
  std::vector<FileInfo> files = Files();
  ASSERT_EQ(files.size(), 2u);
  // Level 0 is newest first: files[0] is the newer one.
  char name[32];
  snprintf(name, sizeof(name), "%06" PRIu64 ".sst", files[0].number);
  Status s = db_->DeleteFile(name);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("not oldest"), std::string::npos) << s.ToString();
  snprintf(name, sizeof(name), "/%06" PRIu64 ".sst", files[1].number);
  ASSERT_OK(db_->DeleteFile(name));
  EXPECT_EQ(Files().size(), 1u);
  EXPECT_EQ(Get(Key(5)), "NOT_FOUND");
  EXPECT_EQ(Get(Key(150)), "newer");
  EXPECT_TRUE(options_.env->GetFileSystem()->FileExists(FileName(files[1].number)).IsNotFound());

  // Not the last level: a level-1 file with data below it in level 2.
  CompactRangeOptions cro;
  cro.change_level = true;
  cro.target_level = 2;
  ASSERT_OK(db_->CompactRange(cro, nullptr, nullptr));
  for (int i = 0; i < 50; ++i) ASSERT_OK(Put(Key(i), "top"));
  ASSERT_OK(Flush());
  files = Files();
  ASSERT_EQ(files.size(), 2u);
  ASSERT_EQ(files[0].level, 0);
  ASSERT_OK(db_->CompactFiles(CompactionOptions(), {FileName(files[0].number)}, 1));
  files = Files();
  ASSERT_EQ(files.size(), 2u);
  ASSERT_EQ(files[0].level, 1);
  ASSERT_EQ(files[1].level, 2);
  snprintf(name, sizeof(name), "%06" PRIu64 ".sst", files[0].number);
  s = db_->DeleteFile(name);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("not in last level"), std::string::npos) << s.ToString();
  snprintf(name, sizeof(name), "%06" PRIu64 ".sst", files[1].number);
  ASSERT_OK(db_->DeleteFile(name));
  EXPECT_EQ(Get(Key(10)), "top");
  EXPECT_EQ(Get(Key(120)), "NOT_FOUND");
  // Now level 1 is the last: its file may go.
  snprintf(name, sizeof(name), "%06" PRIu64 ".sst", files[0].number);
  ASSERT_OK(db_->DeleteFile(name));
  EXPECT_TRUE(Scan().empty());

  EXPECT_TRUE(db_->DeleteFile("999999.sst").IsInvalidArgument());
  EXPECT_TRUE(db_->DeleteFile("CURRENT").IsInvalidArgument());
  EXPECT_TRUE(db_->DeleteFile("not-a-file").IsInvalidArgument());
  // A live WAL may not be deleted; an archived one may.
  VectorLogPtr wals;
  ASSERT_OK(db_->GetSortedWalFiles(wals));
  bool archived = false;
  for (const auto& w : wals) {
    if (w->Type() == kAliveLogFile) {
      EXPECT_TRUE(db_->DeleteFile(w->PathName()).IsNotSupported()) << w->PathName();
    } else {
      ASSERT_OK(db_->DeleteFile(w->PathName()));
      archived = true;
      EXPECT_TRUE(options_.env->GetFileSystem()->FileExists(dbname_ + w->PathName()).IsNotFound());
    }
  }
  EXPECT_TRUE(archived);
}

// DisableManualCompaction: CompactRange and CompactFiles answer Incomplete
// (RocksDB's subcode and text) until every Disable is matched; no
// background error is left behind; a CompactRange running in another
// thread has finished when Disable returns.
TEST_F(DBMetadataTest, DisableManualCompactionPausesThem) {
  Options o = SmallOptions();
  o.disable_auto_compactions = true;
  DestroyAndReopen(o);
  for (int i = 0; i < 200; ++i) ASSERT_OK(Put(Key(i), "v"));
  ASSERT_OK(Flush());
  db_->DisableManualCompaction();
  db_->DisableManualCompaction();  // they nest
  CompactRangeOptions cro;
  Status s = db_->CompactRange(cro, nullptr, nullptr);
  EXPECT_TRUE(s.IsManualCompactionPaused()) << s.ToString();
  EXPECT_EQ(s.ToString(), "Result incomplete: Manual compaction paused");  // RocksDB's text
  std::vector<FileInfo> files = Files();
  ASSERT_EQ(files.size(), 1u);
  s = db_->CompactFiles(CompactionOptions(), {FileName(files[0].number)}, 1);
  EXPECT_TRUE(s.IsManualCompactionPaused()) << s.ToString();
  db_->EnableManualCompaction();
  EXPECT_TRUE(db_->CompactRange(cro, nullptr, nullptr).IsManualCompactionPaused());
  db_->EnableManualCompaction();
  db_->EnableManualCompaction();      // unmatched: no effect
  ASSERT_OK(Put(Key(500), "after"));  // no background error was recorded
  ASSERT_OK(db_->CompactRange(cro, nullptr, nullptr));
  EXPECT_EQ(NumTableFilesAtLevel(0), 0);

  // Against a running CompactRange.
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 3000; ++i) ASSERT_OK(Put(Key(i), std::string(100, 'a' + round)));
    ASSERT_OK(Flush());
    Status ranged;
    std::atomic<bool> started{false};
    std::thread t([&] {
      started.store(true);
      ranged = db_->CompactRange(CompactRangeOptions(), nullptr, nullptr);
    });
    while (!started.load()) std::this_thread::yield();
    db_->DisableManualCompaction();
    // Returned: nothing manual runs now, and none starts.
    EXPECT_TRUE(db_->CompactRange(cro, nullptr, nullptr).IsManualCompactionPaused());
    t.join();
    EXPECT_TRUE(ranged.ok() || ranged.IsManualCompactionPaused()) << ranged.ToString();
    db_->EnableManualCompaction();
    EXPECT_EQ(Get(Key(7)), std::string(100, 'a' + round));
  }
  ASSERT_OK(db_->CompactRange(cro, nullptr, nullptr));
}

// ---------------------------------------------------------------------------
// CompactFiles

TEST_F(DBMetadataTest, CompactFilesNamedFiles) {
  Options o = SmallOptions();
  o.disable_auto_compactions = true;
  o.write_buffer_size = 4 << 20;
  o.num_levels = 4;
  DestroyAndReopen(o);
  std::mt19937_64 rng(5);
  std::map<std::string, std::string> model;
  for (int f = 0; f < 4; ++f) {
    for (int i = 0; i < 200; ++i) {
      const std::string k = Key(static_cast<int>(rng() % 1000));
      model[k] = RandomValue(&rng, 100);
      ASSERT_OK(Put(k, model[k]));
    }
    ASSERT_OK(Flush());
  }
  ASSERT_EQ(NumTableFilesAtLevel(0), 4);
  std::vector<std::string> names;
  int form = 0;
  for (const FileInfo& f : Files()) {
    // Every accepted spelling of a name.
    char buf[32];
    snprintf(buf, sizeof(buf), "%06" PRIu64 ".sst", f.number);
    names.push_back(form == 0   ? std::string(buf)
                    : form == 1 ? "/" + std::string(buf)
                                : FileName(f.number));
    form = (form + 1) % 3;
  }
  std::vector<std::string> outputs;
  ASSERT_OK(db_->CompactFiles(CompactionOptions(), names, 2, -1, &outputs));
  EXPECT_EQ(FilesPerLevel(), "0,0,1");  // default limit: one output file
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(outputs[0], FileName(Files()[0].number));
  EXPECT_EQ(Scan(), model);

  // Only the oldest of three new level-0 files: it goes down with the
  // level-2 file it overlaps; the two newer ones stay.
  for (int f = 0; f < 3; ++f) {
    for (int i = 0; i < 100; ++i) {
      const std::string k = Key(static_cast<int>(rng() % 1000));
      model[k] = RandomValue(&rng, 100);
      ASSERT_OK(Put(k, model[k]));
    }
    ASSERT_OK(Flush());
  }
  std::vector<FileInfo> files = Files();
  ASSERT_EQ(files[0].level, 0);
  const uint64_t oldest = files[2].number;  // level 0 is newest first
  ASSERT_OK(db_->CompactFiles(CompactionOptions(), {FileName(oldest)}, 2));
  EXPECT_EQ(FilesPerLevel(), "2,0,1");
  EXPECT_EQ(Scan(), model);
  EXPECT_EQ(CheckNewerAboveOlder(), "");
  // Naming the newest takes every older level-0 file along.
  files = Files();
  ASSERT_OK(db_->CompactFiles(CompactionOptions(), {FileName(files[0].number)}, 1));
  EXPECT_EQ(FilesPerLevel(), "0,1,1");
  EXPECT_EQ(Scan(), model);
  EXPECT_EQ(CheckNewerAboveOlder(), "");
  // A level into itself.
  files = Files();
  outputs.clear();
  ASSERT_OK(db_->CompactFiles(CompactionOptions(), {FileName(files[1].number)}, 2, 0, &outputs));
  EXPECT_EQ(FilesPerLevel(), "0,1,1");
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_NE(outputs[0], FileName(files[1].number));  // rewritten, not moved
  EXPECT_EQ(Scan(), model);
  Reopen();
  EXPECT_EQ(Scan(), model);
  // RocksDB reads the result.
  if (access(kLdb, X_OK) != 0) GTEST_SKIP() << "rocksdb-tools not installed";
  Close();
  int rc = 0;
  const std::string scan = RunCommand(std::string(kLdb) + " --db=" + dbname_ + " scan", &rc);
  ASSERT_EQ(rc, 0) << scan;
  EXPECT_EQ(CountLines(scan), model.size());
  const std::string check =
      RunCommand(std::string(kLdb) + " --db=" + dbname_ + " checkconsistency", &rc);
  EXPECT_EQ(rc, 0) << check;
}

TEST_F(DBMetadataTest, CompactFilesOptions) {
  Options o = SmallOptions();
  o.disable_auto_compactions = true;
  o.write_buffer_size = 4 << 20;
  const bool snappy = CompressionTypeSupported(kSnappyCompression);
  o.compression = snappy ? kSnappyCompression : kNoCompression;
  DestroyAndReopen(o);
  std::mt19937_64 rng(6);
  for (int i = 0; i < 3000; ++i) ASSERT_OK(Put(Key(i), RandomValue(&rng, 100)));
  ASSERT_OK(Flush());
  CompactionOptions co;
  co.output_file_size_limit = 64 << 10;
  co.compression = kNoCompression;
  std::vector<std::string> outputs;
  ASSERT_OK(db_->CompactFiles(co, {FileName(Files()[0].number)}, 1, -1, &outputs));
  ASSERT_GT(outputs.size(), 3u);
  TablePropertiesCollection props;
  ASSERT_OK(db_->GetPropertiesOfAllTables(&props));
  ASSERT_EQ(props.size(), outputs.size());
  for (const std::string& out : outputs) {
    ASSERT_EQ(props.count(out), 1u) << out;
    EXPECT_EQ(props[out]->compression_name, "NoCompression");
  }
  for (const FileInfo& f : Files()) EXPECT_LE(f.size, (64u << 10) + 8192u);
  // kDisableCompressionOption: the family's compression.
  co.compression = kDisableCompressionOption;
  co.output_file_size_limit = UINT64_MAX;
  std::vector<std::string> names;
  for (const FileInfo& f : Files()) names.push_back(FileName(f.number));
  outputs.clear();
  ASSERT_OK(db_->CompactFiles(co, names, 2, -1, &outputs));
  ASSERT_EQ(outputs.size(), 1u);
  props.clear();
  ASSERT_OK(db_->GetPropertiesOfAllTables(&props));
  EXPECT_EQ(props[outputs[0]]->compression_name, snappy ? "Snappy" : "NoCompression");
  EXPECT_EQ(Scan().size(), 3000u);
}

// Inputs from several levels (level 0 into level 3 takes level 2 too), and
// level 0 into level 0 (a run of consecutive level-0 files merged into one),
// checked against a model of the contents.
TEST_F(DBMetadataTest, CompactFilesAcrossLevelsAndWithinLevel0) {
  Options o = SmallOptions();
  o.disable_auto_compactions = true;
  o.num_levels = 4;
  DestroyAndReopen(o);
  std::map<std::string, std::string> model;
  auto put = [&](int i, const std::string& v) {
    ASSERT_OK(Put(Key(i), v));
    model[Key(i)] = v;
  };
  for (int i = 0; i < 100; ++i) put(i, "base");
  ASSERT_OK(Flush());
  ASSERT_OK(db_->CompactFiles(CompactionOptions(), {FileName(Files()[0].number)}, 2));
  for (int round = 0; round < 4; ++round) {
    for (int i = round * 30; i < round * 30 + 60; ++i) put(i, "r" + std::to_string(round));
    if (round == 2) ASSERT_OK(db_->Delete(WriteOptions(), Key(70)));
    if (round == 2) model.erase(Key(70));
    ASSERT_OK(Flush());
  }
  ASSERT_EQ(FilesPerLevel(), "4,0,1");
  // Level 0 lists newest first: merge the middle two (consecutive by age).
  std::vector<FileInfo> files = Files();
  ASSERT_EQ(files[1].level, 0);
  ASSERT_EQ(files[2].level, 0);
  std::vector<std::string> outputs;
  ASSERT_OK(db_->CompactFiles(CompactionOptions(),
                              {FileName(files[1].number), FileName(files[2].number)}, 0, -1,
                              &outputs));
  EXPECT_EQ(outputs.size(), 1u);
  EXPECT_EQ(FilesPerLevel(), "3,0,1");
  EXPECT_EQ(Scan(), model);
  // The newest and the oldest level-0 file: the one between them goes too.
  files = Files();
  ASSERT_OK(db_->CompactFiles(CompactionOptions(),
                              {FileName(files[0].number), FileName(files[2].number)}, 0));
  EXPECT_EQ(FilesPerLevel(), "1,0,1");
  EXPECT_EQ(Scan(), model);
  for (auto& [k, v] : model) EXPECT_EQ(Get(k), v) << k;
  // Level 0 into level 3 merges level 2 along (three input levels' worth).
  files = Files();
  ASSERT_OK(db_->CompactFiles(CompactionOptions(), {FileName(files[0].number)}, 3));
  EXPECT_EQ(FilesPerLevel(), "0,0,0,1");
  EXPECT_EQ(Scan(), model);
  EXPECT_EQ(Get(Key(70)), "NOT_FOUND");
}

TEST_F(DBMetadataTest, CompactFilesErrors) {
  Options o = SmallOptions();
  o.disable_auto_compactions = true;
  o.num_levels = 4;
  DestroyAndReopen(o);
  for (int i = 0; i < 100; ++i) ASSERT_OK(Put(Key(i), "v"));
  ASSERT_OK(Flush());
  ASSERT_OK(db_->CompactFiles(CompactionOptions(), {FileName(Files()[0].number)}, 2));
  for (int i = 50; i < 150; ++i) ASSERT_OK(Put(Key(i), "w"));
  ASSERT_OK(Flush());
  const std::vector<FileInfo> files = Files();
  ASSERT_EQ(files.size(), 2u);
  const std::string l0 = FileName(files[0].number), l2 = FileName(files[1].number);
  CompactionOptions co;
  Status s = db_->CompactFiles(co, {"999999.sst"}, 1);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("does not exist in column family default"), std::string::npos);
  EXPECT_TRUE(db_->CompactFiles(co, {"not-a-table"}, 1).IsInvalidArgument());
  EXPECT_TRUE(db_->CompactFiles(co, {}, 1).IsInvalidArgument());
  EXPECT_TRUE(db_->CompactFiles(co, {l0}, 4).IsInvalidArgument());
  EXPECT_TRUE(db_->CompactFiles(co, {l0}, -1).IsInvalidArgument());
  s = db_->CompactFiles(co, {l2}, 1);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("Cannot compact file to up level"), std::string::npos);
  EXPECT_TRUE(db_->CompactFiles(co, {l0}, 1, 3).IsInvalidArgument());  // no such path
  // Nothing changed through all that.
  EXPECT_EQ(FilesPerLevel(), "1,0,1");
  EXPECT_EQ(Get(Key(0)), "v");
  EXPECT_EQ(Get(Key(100)), "w");

  // A file in a running compaction: Aborted (asked from inside the job, with
  // the DB mutex released).
  Status inner;
  SyncPoint::GetInstance()->SetCallBack("CompactionJob::Run:Unlocked",
                                        [&](void*) { inner = db_->CompactFiles(co, {l0}, 2); });
  SyncPoint::GetInstance()->EnableProcessing();
  ASSERT_OK(db_->CompactFiles(co, {l0, l2}, 2));
  SyncPoint::GetInstance()->DisableProcessing();
  SyncPoint::GetInstance()->ClearAllCallBacks();
  EXPECT_TRUE(inner.IsAborted()) << inner.ToString();
  EXPECT_EQ(FilesPerLevel(), "0,0,1");
  EXPECT_EQ(Get(Key(0)), "v");
  EXPECT_EQ(Get(Key(100)), "w");
}

// CompactFiles on the live level-0 files while writers flush and automatic
// compactions run: each call compacts or is refused (busy files, files
// gone meanwhile); the data always matches the model.
TEST_F(DBMetadataTest, CompactFilesWithAutomaticCompactions) {
  Options o = SmallOptions();
  o.level0_file_num_compaction_trigger = 4;
  o.write_buffer_size = 32 << 10;
  DestroyAndReopen(o);
  std::map<std::string, std::string> model;
  std::mutex model_mu;
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    std::mt19937_64 rng(7);
    for (int i = 0; i < 6000 && !stop.load(); ++i) {
      const std::string k = Key(static_cast<int>(rng() % 3000));
      const std::string v = RandomValue(&rng, 60);
      std::lock_guard<std::mutex> l(model_mu);
      ASSERT_OK(Put(k, v));
      model[k] = v;
    }
  });
  int ok = 0, refused = 0;
  for (int i = 0; i < 60; ++i) {
    std::vector<std::string> names;
    for (const FileInfo& f : Files()) {
      if (f.level == 0) names.push_back(FileName(f.number));
    }
    if (names.empty()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      continue;
    }
    Status s = db_->CompactFiles(CompactionOptions(), {names.back()}, 1);
    if (s.ok()) {
      ++ok;
    } else {
      EXPECT_TRUE(s.IsAborted() || s.IsInvalidArgument()) << s.ToString();
      ++refused;
    }
  }
  stop = true;
  writer.join();
  ASSERT_OK(WaitForCompact());
  EXPECT_GT(ok, 0);
  EXPECT_EQ(Scan(), model);
  EXPECT_EQ(CheckNewerAboveOlder(), "");
  fprintf(stderr, "CompactFiles: %d ok, %d refused\n", ok, refused);
}

TEST_F(DBMetadataTest, TrivialAccessors) {
  Options o = SmallOptions();
  o.num_levels = 5;
  o.level0_stop_writes_trigger = 33;
  DestroyAndReopen(o);
  EXPECT_EQ(db_->NumberLevels(), 5);
  EXPECT_EQ(db_->MaxMemCompactionLevel(), 0);
  EXPECT_EQ(db_->Level0StopWriteTrigger(), 33);
  ASSERT_NE(db_->GetEnv(), nullptr);
  if (options_.env != nullptr) {
    EXPECT_EQ(db_->GetEnv(), options_.env);
  }
}

// GetAllColumnFamilyMetaData is GetColumnFamilyMetaData of every family;
// GetCreationTimeOfOldestFile the smallest creation time of their tables.
TEST_F(DBMetadataTest, AllFamiliesAndOldestFile) {
  Options o = SmallOptions();
  o.disable_auto_compactions = true;
  DestroyAndReopen(o);
  uint64_t oldest = 0;
  ASSERT_OK(db_->GetCreationTimeOfOldestFile(&oldest));
  EXPECT_EQ(oldest, UINT64_MAX);  // no table yet
  ColumnFamilyHandle* other = nullptr;
  ASSERT_OK(db_->CreateColumnFamily(options_, "other", &other));
  std::unique_ptr<ColumnFamilyHandle> owned(other);
  ASSERT_OK(Put("a", "1"));
  ASSERT_OK(db_->Flush(FlushOptions(), db_->DefaultColumnFamily()));
  ASSERT_OK(db_->Put(WriteOptions(), other, "b", "2"));
  ASSERT_OK(db_->Flush(FlushOptions(), other));
  ASSERT_OK(db_->Put(WriteOptions(), other, "c", "3"));
  ASSERT_OK(db_->Flush(FlushOptions(), other));
  std::vector<ColumnFamilyMetaData> all;
  db_->GetAllColumnFamilyMetaData(&all);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].name, kDefaultColumnFamilyName);
  EXPECT_EQ(all[0].file_count, 1u);
  EXPECT_EQ(all[1].name, "other");
  EXPECT_EQ(all[1].file_count, 2u);
  for (size_t i = 0; i < all.size(); i++) {
    ColumnFamilyMetaData one;
    db_->GetColumnFamilyMetaData(i == 0 ? db_->DefaultColumnFamily() : other, &one);
    EXPECT_EQ(one.size, all[i].size);
    EXPECT_EQ(one.levels.size(), all[i].levels.size());
  }
  std::vector<LiveFileMetaData> live;
  db_->GetLiveFilesMetaData(&live);
  ASSERT_EQ(live.size(), 3u);
  uint64_t expected = UINT64_MAX;
  for (const LiveFileMetaData& m : live) expected = std::min(expected, m.file_creation_time);
  EXPECT_GT(expected, 0u);
  ASSERT_OK(db_->GetCreationTimeOfOldestFile(&oldest));
  EXPECT_EQ(oldest, expected);
  ASSERT_OK(db_->DropColumnFamily(other));
  db_->GetAllColumnFamilyMetaData(&all);
  EXPECT_EQ(all.size(), 1u);
  owned.reset();
  options_.max_open_files = 100;
  Reopen();
  EXPECT_TRUE(db_->GetCreationTimeOfOldestFile(&oldest).IsNotSupported());
}

}  // namespace
}  // namespace strata
