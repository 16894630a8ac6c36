// Engine-level tests of DBOptions::wal_filter (strata/wal_filter.h): the
// records a filter sees at Open and what each of its answers does to the
// recovered data -- skipped records, changed batches, a stop, a record
// reported corrupt under every WALRecoveryMode -- checked against a
// std::map model of what must be there. Also: the family log-number map,
// read-only opens (filtered) and secondary opens (not filtered).
#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "strata/convenience.h"
#include "strata/db.h"
#include "strata/iterator.h"
#include "strata/options.h"
#include "strata/wal_filter.h"
#include "strata/write_batch.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

using Option = WalFilter::WalProcessingOption;

// The point writes of a batch, in order (family id, key, value; a delete
// has value "<del>").
struct Op {
  uint32_t cf;
  std::string key;
  std::string value;
};

std::vector<Op> OpsOf(const WriteBatch& batch) {
  struct Collect : WriteBatch::Handler {
    std::vector<Op> ops;
    Status PutCF(uint32_t cf, const Slice& k, const Slice& v) override {
      ops.push_back({cf, k.ToString(), v.ToString()});
      return Status::OK();
    }
    Status DeleteCF(uint32_t cf, const Slice& k) override {
      ops.push_back({cf, k.ToString(), "<del>"});
      return Status::OK();
    }
  } c;
  EXPECT_OK(batch.Iterate(&c));
  return c.ops;
}

// A filter whose answer for each record is a function of the record.
class FnFilter : public WalFilter {
 public:
  using Fn = std::function<Option(uint64_t log, const std::string& fname, const WriteBatch& batch,
                                  WriteBatch* new_batch, bool* changed)>;
  explicit FnFilter(Fn fn) : fn_(std::move(fn)) {}
  void ColumnFamilyLogNumberMap(const std::map<uint32_t, uint64_t>& logs,
                                const std::map<std::string, uint32_t>& ids) override {
    ++map_calls;
    cf_logs = logs;
    cf_ids = ids;
  }
  Option LogRecordFound(unsigned long long log, const std::string& fname, const WriteBatch& batch,
                        WriteBatch* new_batch, bool* changed) override {
    ++records;
    logs_seen.push_back(log);
    EXPECT_NE(fname.find(".log"), std::string::npos) << fname;
    return fn_(log, fname, batch, new_batch, changed);
  }
  const char* Name() const override { return "FnFilter"; }

  int map_calls = 0;
  int records = 0;
  std::vector<uint64_t> logs_seen;
  std::map<uint32_t, uint64_t> cf_logs;
  std::map<std::string, uint32_t> cf_ids;

 private:
  Fn fn_;
};

using Model = std::map<std::string, std::string>;

class DBWalFilterTest : public ::testing::Test {
 protected:
  Options Opts() const {
    Options o;
    o.create_if_missing = true;
    o.wal_mmap_writes = false;
    return o;
  }

  // Writes keys k<first>..k<first+n-1>, one batch each, into a DB left
  // with its WAL unflushed; returns the batches' ops into *model.
  void WriteBatches(int first, int n, Model* model, bool keep_old_wals = false) {
    Options o = Opts();
    o.avoid_flush_during_recovery = keep_old_wals;
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(o, dir_->path(), &db));
    for (int i = first; i < first + n; ++i) {
      WriteBatch b;
      const std::string k = Key(i);
      ASSERT_OK(b.Put(k, "v" + std::to_string(i)));
      ASSERT_OK(b.Put(k + "-b", "w" + std::to_string(i)));
      ASSERT_OK(db->Write(WriteOptions(), &b));
      (*model)[k] = "v" + std::to_string(i);
      (*model)[k + "-b"] = "w" + std::to_string(i);
    }
    ASSERT_OK(db->Close());
  }

  static std::string Key(int i) {
    char buf[16];
    std::snprintf(buf, sizeof(buf), "k%04d", i);
    return buf;
  }

  static Model Contents(DB* db) {
    Model m;
    std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions()));
    for (it->SeekToFirst(); it->Valid(); it->Next())
      m[it->key().ToString()] = it->value().ToString();
    EXPECT_OK(it->status());
    return m;
  }

  size_t WalCount() const {
    size_t n = 0;
    for (const auto& [name, bytes] : test::DirectoryContents(dir_->path())) {
      if (name.size() > 4 && name.substr(name.size() - 4) == ".log") ++n;
    }
    return n;
  }

  std::unique_ptr<test::TempDir> dir_ = std::make_unique<test::TempDir>("wal_filter");
};

// Continue everywhere: the filter sees every record once, in order, and
// the family map (ids and log numbers) before them.
TEST_F(DBWalFilterTest, ContinueSeesEveryRecordAndTheFamilyMap) {
  Model model;
  {
    Options o = Opts();
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(o, dir_->path(), &db));
    ColumnFamilyHandle* one = nullptr;
    ASSERT_OK(db->CreateColumnFamily(ColumnFamilyOptions(), "one", &one));
    ASSERT_OK(db->Put(WriteOptions(), "a", "1"));
    ASSERT_OK(db->Put(WriteOptions(), one, "b", "2"));
    ASSERT_OK(db->DestroyColumnFamilyHandle(one));
    ASSERT_OK(db->Close());
  }
  FnFilter f([](uint64_t, const std::string&, const WriteBatch&, WriteBatch*, bool*) {
    return Option::kContinueProcessing;
  });
  Options o = Opts();
  o.wal_filter = &f;
  std::vector<ColumnFamilyDescriptor> cfs = {{"default", ColumnFamilyOptions()},
                                             {"one", ColumnFamilyOptions()}};
  std::vector<ColumnFamilyHandle*> handles;
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(o, dir_->path(), cfs, &handles, &db));
  EXPECT_EQ(f.map_calls, 1);
  EXPECT_EQ(f.cf_ids, (std::map<std::string, uint32_t>{{"default", 0}, {"one", 1}}));
  ASSERT_EQ(f.cf_logs.size(), 2u);
  EXPECT_EQ(f.cf_logs.count(0), 1u);
  EXPECT_EQ(f.cf_logs.count(1), 1u);
  // Both records are in WALs not older than the families' log numbers.
  ASSERT_EQ(f.records, 2);
  for (uint64_t log : f.logs_seen) EXPECT_GE(log, f.cf_logs[1]);
  std::string v;
  ASSERT_OK(db->Get(ReadOptions(), "a", &v));
  EXPECT_EQ(v, "1");
  ASSERT_OK(db->Get(ReadOptions(), handles[1], "b", &v));
  EXPECT_EQ(v, "2");
  for (auto* h : handles) ASSERT_OK(db->DestroyColumnFamilyHandle(h));
}

// Ignored records are not applied; the rest are; the result stays after a
// reopen without the filter.
TEST_F(DBWalFilterTest, IgnoredRecordsAreNotApplied) {
  Model written;
  WriteBatches(0, 40, &written);
  Model model;
  FnFilter f([&](uint64_t, const std::string&, const WriteBatch& b, WriteBatch*, bool*) {
    const std::vector<Op> ops = OpsOf(b);
    // Every third batch (by its first key) goes.
    const int i = std::stoi(ops[0].key.substr(1));
    if (i % 3 == 0) return Option::kIgnoreCurrentRecord;
    for (const Op& op : ops) model[op.key] = op.value;
    return Option::kContinueProcessing;
  });
  Options o = Opts();
  o.wal_filter = &f;
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(o, dir_->path(), &db));
  EXPECT_EQ(f.records, 40);
  EXPECT_EQ(Contents(db.get()), model);
  EXPECT_EQ(model.size(), written.size() - 2 * 14);
  // New writes after the filtered recovery, and a reopen without it.
  ASSERT_OK(db->Put(WriteOptions(), "later", "x"));
  model["later"] = "x";
  ASSERT_OK(db->Close());
  db.reset();
  ASSERT_OK(DB::Open(Opts(), dir_->path(), &db));
  EXPECT_EQ(Contents(db.get()), model);
}

// A changed batch replaces the record (same sequence, fewer records); a
// batch_changed flag without a change leaves it; more records than the
// original fail Open with NotSupported naming the filter.
TEST_F(DBWalFilterTest, ChangedBatches) {
  Model written;
  WriteBatches(0, 20, &written);
  {
    Model model;
    FnFilter f(
        [&](uint64_t, const std::string&, const WriteBatch& b, WriteBatch* nb, bool* changed) {
          // Keep only the first Put of each batch, with a new value.
          const std::vector<Op> ops = OpsOf(b);
          EXPECT_OK(nb->Put(ops[0].key, "changed-" + ops[0].value));
          model[ops[0].key] = "changed-" + ops[0].value;
          *changed = true;
          return Option::kContinueProcessing;
        });
    Options o = Opts();
    o.wal_filter = &f;
    o.avoid_flush_during_recovery = true;  // the WAL stays for the next open
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(o, dir_->path(), &db));
    EXPECT_EQ(Contents(db.get()), model);
    // The changed records kept their sequence numbers: a write made now is
    // newer than all of them.
    ASSERT_OK(db->Put(WriteOptions(), Key(3), "newest"));
    std::string v;
    ASSERT_OK(db->Get(ReadOptions(), Key(3), &v));
    EXPECT_EQ(v, "newest");
    ASSERT_OK(db->Delete(WriteOptions(), Key(3)));
    ASSERT_OK(db->Close());
  }
  {
    // Too many records: the open fails, whatever the mode.
    FnFilter f(
        [&](uint64_t, const std::string&, const WriteBatch& b, WriteBatch* nb, bool* changed) {
          for (const Op& op : OpsOf(b)) EXPECT_OK(nb->Put(op.key, op.value));
          EXPECT_OK(nb->Put("extra", "x"));
          *changed = true;
          return Option::kContinueProcessing;
        });
    for (WALRecoveryMode mode :
         {WALRecoveryMode::kSkipAnyCorruptedRecords, WALRecoveryMode::kPointInTimeRecovery}) {
      Options o = Opts();
      o.wal_filter = &f;
      o.wal_recovery_mode = mode;
      std::unique_ptr<DB> db;
      const Status s = DB::Open(o, dir_->path(), &db);
      EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
      EXPECT_EQ(s.ToString(),
                "Not implemented: More than original # of records returned by Wal Filter : "
                "FnFilter");
    }
  }
  {
    // The failed opens changed nothing: without a filter the WAL replays
    // as written (plus the later put and delete).
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(Opts(), dir_->path(), &db));
    Model model = written;
    model.erase(Key(3));
    EXPECT_EQ(Contents(db.get()), model);
  }
}

// kStopReplay drops the record and everything after it, in later WALs too;
// the dropped records do not come back on the next open.
TEST_F(DBWalFilterTest, StopReplayDropsTheRestForGood) {
  Model written;
  WriteBatches(0, 10, &written, /*keep_old_wals=*/true);
  WriteBatches(10, 10, &written, /*keep_old_wals=*/true);
  ASSERT_EQ(WalCount(), 2u);
  Model model;
  FnFilter f([&](uint64_t, const std::string&, const WriteBatch& b, WriteBatch*, bool*) {
    const std::vector<Op> ops = OpsOf(b);
    if (ops[0].key == Key(6)) return Option::kStopReplay;
    for (const Op& op : ops) model[op.key] = op.value;
    return Option::kContinueProcessing;
  });
  Options o = Opts();
  o.wal_filter = &f;
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(o, dir_->path(), &db));
  EXPECT_EQ(f.records, 7);  // the second WAL is not read
  EXPECT_EQ(Contents(db.get()), model);
  EXPECT_EQ(model.size(), 12u);
  ASSERT_OK(db->Close());
  db.reset();
  ASSERT_OK(DB::Open(Opts(), dir_->path(), &db));
  EXPECT_EQ(Contents(db.get()), model);
}

// kCorruptedRecord under each recovery mode (paranoid_checks on), and with
// paranoid_checks off. Two WALs: the report is in the first.
TEST_F(DBWalFilterTest, CorruptedRecordPerRecoveryMode) {
  struct Case {
    WALRecoveryMode mode;
    bool paranoid;
    bool open_fails;
    int first_wal_kept;    // batches of the first WAL applied
    bool second_wal_kept;  // the second WAL applied
    int records_seen;      // by the filter (none of a WAL dropped after a stop)
  };
  const Case cases[] = {
      {WALRecoveryMode::kTolerateCorruptedTailRecords, true, true, 0, false, 5},
      {WALRecoveryMode::kAbsoluteConsistency, true, true, 0, false, 5},
      {WALRecoveryMode::kPointInTimeRecovery, true, false, 4, false, 5},
      {WALRecoveryMode::kSkipAnyCorruptedRecords, true, false, 4, true, 15},
      {WALRecoveryMode::kPointInTimeRecovery, false, false, 10, true, 20},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE("mode " + std::to_string(static_cast<int>(c.mode)) + " paranoid " +
                 std::to_string(c.paranoid));
    dir_ = std::make_unique<test::TempDir>("wal_filter_corrupt");  // the helpers use dir_
    Model written;
    WriteBatches(0, 10, &written, /*keep_old_wals=*/true);
    WriteBatches(10, 10, &written, /*keep_old_wals=*/true);
    ASSERT_EQ(WalCount(), 2u);
    FnFilter f([&](uint64_t, const std::string&, const WriteBatch& b, WriteBatch*, bool*) {
      return OpsOf(b)[0].key == Key(4) ? Option::kCorruptedRecord : Option::kContinueProcessing;
    });
    Options o = Opts();
    o.wal_filter = &f;
    o.wal_recovery_mode = c.mode;
    o.paranoid_checks = c.paranoid;
    std::unique_ptr<DB> db;
    const Status s = DB::Open(o, dir_->path(), &db);
    EXPECT_EQ(f.records, c.records_seen);
    if (c.open_fails) {
      EXPECT_TRUE(s.IsCorruption()) << s.ToString();
      EXPECT_EQ(s.ToString(), "Corruption: Corruption reported by Wal Filter : FnFilter");
    } else {
      ASSERT_OK(s);
      Model model;
      for (int i = 0; i < c.first_wal_kept; ++i) {
        model[Key(i)] = written[Key(i)];
        model[Key(i) + "-b"] = written[Key(i) + "-b"];
      }
      for (int i = 10; c.second_wal_kept && i < 20; ++i) {
        model[Key(i)] = written[Key(i)];
        model[Key(i) + "-b"] = written[Key(i) + "-b"];
      }
      EXPECT_EQ(Contents(db.get()), model);
    }
    db.reset();
  }
}

// A read-only open filters too (and writes nothing); a secondary open does
// not call the filter (RocksDB's rule).
TEST_F(DBWalFilterTest, ReadOnlyFiltersSecondaryDoesNot) {
  Model written;
  WriteBatches(0, 12, &written);
  const auto before = test::DirectoryContents(dir_->path());
  Model model;
  FnFilter f([&](uint64_t, const std::string&, const WriteBatch& b, WriteBatch*, bool*) {
    const std::vector<Op> ops = OpsOf(b);
    if (std::stoi(ops[0].key.substr(1)) % 2 == 1) return Option::kIgnoreCurrentRecord;
    for (const Op& op : ops) model[op.key] = op.value;
    return Option::kContinueProcessing;
  });
  Options o = Opts();
  o.create_if_missing = false;
  o.wal_filter = &f;
  {
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::OpenForReadOnly(o, dir_->path(), &db));
    EXPECT_EQ(f.records, 12);
    EXPECT_EQ(Contents(db.get()), model);
  }
  EXPECT_EQ(test::DirectoryContents(dir_->path()), before);
  test::TempDir secondary("wal_filter_secondary");
  FnFilter never([](uint64_t, const std::string&, const WriteBatch&, WriteBatch*, bool*) {
    return Option::kStopReplay;
  });
  o.wal_filter = &never;
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::OpenAsSecondary(o, dir_->path(), secondary.path(), &db));
  EXPECT_EQ(never.records, 0);
  EXPECT_EQ(never.map_calls, 0);
  EXPECT_EQ(Contents(db.get()), written);
}

// A seeded random mix of answers against the model, over several WALs.
TEST_F(DBWalFilterTest, RandomAnswersMatchTheModel) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  Model written;
  WriteBatches(0, 30, &written, /*keep_old_wals=*/true);
  WriteBatches(30, 30, &written, /*keep_old_wals=*/true);
  Model model;
  bool stopped = false;
  FnFilter f([&](uint64_t, const std::string&, const WriteBatch& b, WriteBatch* nb, bool* changed) {
    EXPECT_FALSE(stopped);
    const std::vector<Op> ops = OpsOf(b);
    switch (rng() % 20) {
      case 0:
        stopped = true;
        return Option::kStopReplay;
      case 1:
      case 2:
      case 3:
        return Option::kIgnoreCurrentRecord;
      case 4:
      case 5:
      case 6:
        EXPECT_OK(nb->Put(ops[1].key, "c" + ops[1].value));
        model[ops[1].key] = "c" + ops[1].value;
        *changed = true;
        return Option::kContinueProcessing;
      case 7:
        EXPECT_OK(nb->Delete(ops[0].key));
        model.erase(ops[0].key);
        *changed = true;
        return Option::kContinueProcessing;
      default:
        for (const Op& op : ops) model[op.key] = op.value;
        return Option::kContinueProcessing;
    }
  });
  Options o = Opts();
  o.wal_filter = &f;
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(o, dir_->path(), &db));
  EXPECT_EQ(Contents(db.get()), model);
  ASSERT_OK(db->Close());
  db.reset();
  ASSERT_OK(DB::Open(Opts(), dir_->path(), &db));
  EXPECT_EQ(Contents(db.get()), model);
}

TEST(WalFilterLoaderTest, CreateFromStringKnowsOnlyTheEmptyIds) {
  ConfigOptions config;
  WalFilter* filter = reinterpret_cast<WalFilter*>(&config);  // any non-null
  ASSERT_OK(WalFilter::CreateFromString(config, "", &filter));
  EXPECT_EQ(nullptr, filter);
  filter = reinterpret_cast<WalFilter*>(&config);
  ASSERT_OK(WalFilter::CreateFromString(config, "nullptr", &filter));
  EXPECT_EQ(nullptr, filter);
  // Unknown: OK and unchanged while unsupported ids are ignored (the
  // default), NotSupported naming it otherwise.
  ASSERT_OK(WalFilter::CreateFromString(config, "MyFilter", &filter));
  EXPECT_EQ(nullptr, filter);
  config.ignore_unsupported_options = false;
  Status s = WalFilter::CreateFromString(config, "MyFilter", &filter);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("MyFilter")) << s.ToString();
}

}  // namespace
}  // namespace strata
