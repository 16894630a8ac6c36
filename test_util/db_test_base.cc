#include "test_util/db_test_base.h"

#include <algorithm>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include "base/dbformat.h"
#include "db/filename.h"
#include "db/log_reader.h"
#include "db/version_edit.h"
#include "strata/env.h"
#include "strata/iterator.h"
#include "strata/table.h"
#include "table/block_based_table_reader.h"
#include "util/sync_point.h"

namespace strata {

namespace {

// Keeps the first damage a MANIFEST read reports.
class FirstError final : public log::Reader::Reporter {
 public:
  void Corruption(size_t /*bytes*/, const Status& s) override {
    if (status.ok()) status = s;
  }
  Status status;
};

}  // namespace

DBTestBase::DBTestBase(const std::string& tag)
    : tmp_(tag), dbname_(tmp_.path() + "/db"), options_(SmallOptions()) {}

DBTestBase::~DBTestBase() {
  if (db_ != nullptr) {
    db_->Close().PermitUncheckedError();
    db_.reset();
  }
  SyncPoint* sp = SyncPoint::GetInstance();
  sp->DisableProcessing();
  sp->ClearAllCallBacks();
  sp->LoadDependency({});
}

Options DBTestBase::SmallOptions() {
  Options o;
  o.create_if_missing = true;
  o.write_buffer_size = 64 << 10;
  o.target_file_size_base = 64 << 10;
  o.max_bytes_for_level_base = 256 << 10;
  o.max_bytes_for_level_multiplier = 4;
  o.level0_file_num_compaction_trigger = 2;
  o.compression = kNoCompression;
  BlockBasedTableOptions t;
  t.block_size = 1024;
  o.table_factory = NewBlockBasedTableFactory(t);
  return o;
}

Status DBTestBase::TryOpen() { return DB::Open(options_, dbname_, &db_); }

void DBTestBase::Open() { ASSERT_OK(TryOpen()); }

void DBTestBase::Open(const Options& options) {
  options_ = options;
  Open();
}

void DBTestBase::Reopen() {
  Close();
  Open();
}

void DBTestBase::Reopen(const Options& options) {
  Close();
  Open(options);
}

Status DBTestBase::TryReopen(const Options& options) {
  if (db_ != nullptr) {
    db_->Close().PermitUncheckedError();
    db_.reset();
  }
  options_ = options;
  return TryOpen();
}

void DBTestBase::Close() {
  if (db_ == nullptr) return;
  const Status s = db_->Close();
  db_.reset();
  ASSERT_OK(s);
}

void DBTestBase::DestroyAndReopen() {
  Close();
  ASSERT_OK(DestroyDB(dbname_, options_));
  Open();
}

void DBTestBase::DestroyAndReopen(const Options& options) {
  options_ = options;
  DestroyAndReopen();
}

Status DBTestBase::Put(const std::string& key, const std::string& value, const WriteOptions& wo) {
  return db_->Put(wo, key, value);
}

Status DBTestBase::Delete(const std::string& key, const WriteOptions& wo) {
  return db_->Delete(wo, key);
}

Status DBTestBase::SingleDelete(const std::string& key, const WriteOptions& wo) {
  return db_->SingleDelete(wo, key);
}

Status DBTestBase::Merge(const std::string& key, const std::string& value, const WriteOptions& wo) {
  return db_->Merge(wo, key, value);
}

Status DBTestBase::DeleteRange(const std::string& begin, const std::string& end,
                               const WriteOptions& wo) {
  return db_->DeleteRange(wo, db_->DefaultColumnFamily(), begin, end);
}

std::string DBTestBase::Get(const std::string& key, const Snapshot* snapshot) {
  ReadOptions ro;
  ro.snapshot = snapshot;
  std::string value;
  const Status s = db_->Get(ro, key, &value);
  if (s.IsNotFound()) return "NOT_FOUND";
  if (!s.ok()) return "ERROR: " + s.ToString();
  return value;
}

void DBTestBase::RunRandomOpsAgainstModel(uint64_t seed, const ModelRun& run) {
  std::mt19937_64 rng(seed);
  std::map<std::string, std::string> model;
  const uint64_t keys = static_cast<uint64_t>(run.key_space);
  for (int round = 0; round < run.rounds; round++) {
    for (int i = 0; i < run.ops_per_round; i++) {
      std::string key = "key" + std::to_string(rng() % keys);
      if (rng() % 5 == 0) {
        ASSERT_OK(Delete(key));
        model.erase(key);
      } else {
        std::string value(run.value_min + rng() % run.value_spread,
                          static_cast<char>('a' + rng() % 26));
        value += std::to_string(i);
        ASSERT_OK(Put(key, value));
        model[key] = value;
      }
    }
    ASSERT_OK(Flush());
    if (round % 2 == 1) ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
    ASSERT_OK(WaitForCompact());
    for (uint64_t k = 0; k < keys; k++) {
      std::string key = "key" + std::to_string(k);
      auto it = model.find(key);
      ASSERT_EQ(it == model.end() ? "NOT_FOUND" : it->second, Get(key))
          << key << " seed " << seed << " round " << round;
    }
    for (bool fill : {true, false}) {
      if (!fill && !run.scan_without_fill) break;
      ReadOptions ro;
      ro.fill_cache = fill;
      std::unique_ptr<Iterator> iter(db_->NewIterator(ro));
      auto m = model.begin();
      for (iter->SeekToFirst(); iter->Valid(); iter->Next(), ++m) {
        ASSERT_TRUE(m != model.end()) << "extra key " << iter->key().ToString();
        ASSERT_EQ(m->first, iter->key().ToString());
        ASSERT_EQ(m->second, iter->value().ToString());
      }
      ASSERT_OK(iter->status());
      ASSERT_TRUE(m == model.end()) << "missing key " << m->first;
    }
  }
}

Status DBTestBase::Flush() { return db_->Flush(FlushOptions()); }

Status DBTestBase::WaitForCompact() { return dbfull()->WaitForCompact(); }

uint64_t DBTestBase::IntProperty(const std::string& name) {
  uint64_t v = 0;
  EXPECT_TRUE(db_->GetIntProperty(name, &v)) << name;
  return v;
}

int DBTestBase::NumTableFilesAtLevel(int level) {
  return static_cast<int>(IntProperty("strata.num-files-at-level" + std::to_string(level)));
}

std::string DBTestBase::FilesPerLevel() {
  std::string r;
  size_t last_non_empty = 0;
  for (int level = 0; level < options_.num_levels; ++level) {
    const int n = NumTableFilesAtLevel(level);
    if (level > 0) r += ",";
    r += std::to_string(n);
    if (n > 0) last_non_empty = r.size();
  }
  r.resize(last_non_empty);
  return r;
}

std::string DBTestBase::CheckNewerAboveOlder() {
  Env* env = options_.env != nullptr ? options_.env : Env::Default();
  FileSystem* fs = env->GetFileSystem();
  // The live tables of the default family, by replaying the MANIFEST.
  std::string current;
  Status s = ReadFileToString(fs, CurrentFileName(dbname_), &current);
  if (!s.ok()) return "reading CURRENT: " + s.ToString();
  if (!current.empty() && current.back() == '\n') current.pop_back();
  const std::string manifest = dbname_ + "/" + current;
  std::unique_ptr<SequentialFile> file;
  s = fs->NewSequentialFile(manifest, FileOptions(), &file);
  if (!s.ok()) return "opening " + manifest + ": " + s.ToString();
  FirstError reporter;
  log::Reader reader(std::move(file), &reporter, /*checksum=*/true, 0, manifest);
  std::map<uint64_t, std::pair<int, uint64_t>> live;  // number -> (level, size)
  Slice record;
  std::string scratch;
  while (reader.ReadRecord(&record, &scratch)) {
    VersionEdit edit;
    s = edit.DecodeFrom(record);
    if (!s.ok()) return "decoding " + manifest + ": " + s.ToString();
    if (edit.column_family() != 0) continue;
    for (const auto& [level, number] : edit.deleted_files()) live.erase(number);
    for (const auto& [level, meta] : edit.new_files()) {
      live[meta.number] = {level, meta.file_size};
    }
  }
  if (!reporter.status.ok()) return "reading " + manifest + ": " + reporter.status.ToString();

  // Per user key: the lowest and highest sequence number at each level.
  struct Range {
    SequenceNumber lo = kMaxSequenceNumber;
    SequenceNumber hi = 0;
  };
  std::map<std::string, std::map<int, Range>> keys;
  for (const auto& [number, where] : live) {
    const auto [level, size] = where;
    const std::string name = TableFileName(dbname_, number);
    std::unique_ptr<RandomAccessFile> raf;
    s = fs->NewRandomAccessFile(name, FileOptions(), &raf);
    if (!s.ok()) return "opening " + name + ": " + s.ToString();
    TableReaderOptions tro;
    if (options_.table_factory != nullptr) {
      tro.table_options = options_.table_factory->table_options();
    }
    tro.user_comparator = options_.comparator;
    tro.file_name = name;
    tro.level = level;
    std::unique_ptr<BlockBasedTable> table;
    s = BlockBasedTable::Open(tro, std::move(raf), size, &table);
    if (!s.ok()) return "opening " + name + ": " + s.ToString();
    std::unique_ptr<InternalIterator> it(table->NewIterator(ReadOptions()));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      ParsedInternalKey p;
      s = ParseInternalKey(it->key(), &p);
      if (!s.ok()) return "parsing a key of " + name + ": " + s.ToString();
      Range& r = keys[p.user_key.ToString()][level];
      r.lo = std::min(r.lo, p.sequence);
      r.hi = std::max(r.hi, p.sequence);
    }
    if (!it->status().ok()) return "reading " + name + ": " + it->status().ToString();
  }
  for (const auto& [key, levels] : keys) {
    // Walking down: everything below must be older than the oldest entry
    // seen above.
    SequenceNumber oldest_above = kMaxSequenceNumber;
    int oldest_level = -1;
    for (const auto& [level, r] : levels) {
      if (oldest_level >= 0 && r.hi >= oldest_above) {
        return "key '" + key + "': seq " + std::to_string(r.hi) + " at L" + std::to_string(level) +
               " is not older than seq " + std::to_string(oldest_above) + " at L" +
               std::to_string(oldest_level);
      }
      if (r.lo < oldest_above) {
        oldest_above = r.lo;
        oldest_level = level;
      }
    }
  }
  return "";
}

}  // namespace strata
