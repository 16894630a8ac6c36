// compat_options_test: RocksDB option structs converted to Strata's at
// Open; a non-default value of an option Strata does not implement is
// refused with InvalidArgument naming it; accepted options take effect.
#include <cctype>
#include <cstdarg>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rocksdb/cache.h"
#include "rocksdb/compaction_job_stats.h"
#include "rocksdb/concurrent_task_limiter.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/file_checksum.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/flush_block_policy.h"
#include "rocksdb/listener.h"
#include "rocksdb/options.h"
#include "rocksdb/slice_transform.h"
#include "rocksdb/sst_file_manager.h"
#include "rocksdb/sst_partitioner.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "rocksdb/universal_compaction.h"
#include "rocksdb/utilities/options_util.h"
#include "rocksdb/utilities/stackable_db.h"
#include "rocksdb/version.h"
#include "rocksdb/wal_filter.h"
#include "test_util/testutil.h"

namespace rocksdb {
namespace {

class CompatOptionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = ::testing::TempDir() + "/compat_options_test_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name();
    ASSERT_TRUE(DestroyDB(path_, Options()).ok());
  }
  void TearDown() override { ASSERT_TRUE(DestroyDB(path_, Options()).ok()); }

  // Opens with `options` and expects InvalidArgument naming `name`.
  void ExpectRefused(Options options, const std::string& name) {
    options.create_if_missing = true;
    DB* db = nullptr;
    Status s = DB::Open(options, path_, &db);
    EXPECT_TRUE(s.IsInvalidArgument()) << name << ": " << s.ToString();
    EXPECT_NE(s.ToString().find(name), std::string::npos) << s.ToString();
    EXPECT_EQ(db, nullptr);
    delete db;
  }

  std::string path_;
};

TEST_F(CompatOptionsTest, RefusesUnsupportedDBOptions) {
  {
    Options o;
    o.two_write_queues = true;
    ExpectRefused(o, "DBOptions::two_write_queues");
  }
  {
    Options o;
    o.unordered_write = true;
    ExpectRefused(o, "DBOptions::unordered_write");
  }
  {
    Options o;
    o.atomic_flush = true;
    ExpectRefused(o, "DBOptions::atomic_flush");
  }
  {
    Options o;
    o.recycle_log_file_num = 4;
    ExpectRefused(o, "DBOptions::recycle_log_file_num");
  }
  {
    Options o;
    o.row_cache = NewLRUCache(1 << 20);
    ExpectRefused(o, "DBOptions::row_cache");
  }
  {
    Options o;
    o.best_efforts_recovery = true;
    ExpectRefused(o, "DBOptions::best_efforts_recovery");
  }
  {
    Options o;
    o.persist_stats_to_disk = true;
    ExpectRefused(o, "DBOptions::persist_stats_to_disk");
  }
}

// DBOptions::wal_filter and file_checksum_gen_factory reach the engine
// (they were refused before): the filter sees the WAL's records at Open,
// the tables get crc32c checksums, and a StackableDB forwards the checksum
// calls.
TEST_F(CompatOptionsTest, WalFilterAndChecksumFactoryAreConverted) {
  class Counting : public WalFilter {
   public:
    WalProcessingOption LogRecord(const WriteBatch& batch, WriteBatch*, bool*) const override {
      puts += batch.Count();
      return WalProcessingOption::kContinueProcessing;
    }
    const char* Name() const override { return "Counting"; }
    mutable uint32_t puts = 0;
  } filter;
  Options o;
  o.create_if_missing = true;
  o.file_checksum_gen_factory = GetFileChecksumGenCrc32cFactory();
  DB* db = nullptr;
  ASSERT_TRUE(DB::Open(o, path_, &db).ok());
  ASSERT_TRUE(db->Put(WriteOptions(), "a", "1").ok());
  ASSERT_TRUE(db->Put(WriteOptions(), "b", "2").ok());
  delete db;
  o.wal_filter = &filter;
  ASSERT_TRUE(DB::Open(o, path_, &db).ok());
  EXPECT_EQ(filter.puts, 2u);  // through LogRecordFound's default
  EXPECT_EQ(db->GetDBOptions().wal_filter, &filter);
  EXPECT_EQ(db->GetDBOptions().file_checksum_gen_factory, GetFileChecksumGenCrc32cFactory());
  StackableDB stacked(db);  // owns db
  std::unique_ptr<FileChecksumList> list(NewFileChecksumList());
  ASSERT_TRUE(stacked.GetLiveFilesChecksumInfo(list.get()).ok());
  std::vector<uint64_t> numbers;
  std::vector<std::string> checksums, names;
  ASSERT_TRUE(list->GetAllFileChecksums(&numbers, &checksums, &names).ok());
  ASSERT_EQ(names.size(), 1u);  // the table the filtered recovery flushed
  EXPECT_EQ(names[0], kStandardDbFileChecksumFuncName);
  EXPECT_EQ(checksums[0].size(), 4u);
  EXPECT_TRUE(stacked.VerifyFileChecksums(ReadOptions()).ok());
  ReadOptions refused;
  refused.tailing = true;
  EXPECT_TRUE(stacked.VerifyFileChecksums(refused).IsInvalidArgument());
}

TEST_F(CompatOptionsTest, RefusesUnsupportedColumnFamilyOptions) {
  {
    Options o;
    o.enable_blob_files = true;
    ExpectRefused(o, "ColumnFamilyOptions::enable_blob_files");
  }
  {
    Options o;
    o.inplace_update_support = true;
    ExpectRefused(o, "ColumnFamilyOptions::inplace_update_support");
  }
  {
    Options o;
    o.optimize_filters_for_hits = true;
    ExpectRefused(o, "ColumnFamilyOptions::optimize_filters_for_hits");
  }
  {
    Options o;
    o.last_level_temperature = Temperature::kCold;
    ExpectRefused(o, "ColumnFamilyOptions::last_level_temperature");
  }
}

TEST_F(CompatOptionsTest, RefusesUnsupportedTableOptions) {
  {
    Options o;
    BlockBasedTableOptions t;
    t.block_align = true;
    o.table_factory.reset(NewBlockBasedTableFactory(t));
    ExpectRefused(o, "BlockBasedTableOptions::block_align");
  }
  {
    Options o;
    BlockBasedTableOptions t;
    t.read_amp_bytes_per_bit = 32;
    o.table_factory.reset(NewBlockBasedTableFactory(t));
    ExpectRefused(o, "BlockBasedTableOptions::read_amp_bytes_per_bit");
  }
  {
    // A user FilterPolicy subclass has no Strata filter underneath.
    class MyPolicy : public FilterPolicy {};
    Options o;
    BlockBasedTableOptions t;
    t.filter_policy = std::make_shared<MyPolicy>();
    o.table_factory.reset(NewBlockBasedTableFactory(t));
    ExpectRefused(o, "BlockBasedTableOptions::filter_policy");
  }
}

TEST_F(CompatOptionsTest, RefusedOptionsInCreateColumnFamily) {
  Options o;
  o.create_if_missing = true;
  DB* db = nullptr;
  ASSERT_TRUE(DB::Open(o, path_, &db).ok());
  ColumnFamilyOptions cf;
  cf.enable_blob_files = true;
  ColumnFamilyHandle* h = nullptr;
  Status s = db->CreateColumnFamily(cf, "blobs", &h);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("enable_blob_files"), std::string::npos);
  EXPECT_EQ(h, nullptr);
  delete db;
}

TEST_F(CompatOptionsTest, RefusedPerCallOptions) {
  Options o;
  o.create_if_missing = true;
  DB* db = nullptr;
  ASSERT_TRUE(DB::Open(o, path_, &db).ok());
  ASSERT_TRUE(db->Put(WriteOptions(), "a", "1").ok());

  ReadOptions ro;
  ro.tailing = true;
  std::string v;
  Status s = db->Get(ro, "a", &v);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("ReadOptions::tailing"), std::string::npos) << s.ToString();
  Iterator* it = db->NewIterator(ro);
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().IsInvalidArgument());
  EXPECT_NE(it->status().ToString().find("ReadOptions::tailing"), std::string::npos);
  delete it;

  std::vector<std::string> values;
  std::vector<Status> statuses = db->MultiGet(ro, {Slice("a")}, &values);
  ASSERT_EQ(statuses.size(), 1u);
  EXPECT_TRUE(statuses[0].IsInvalidArgument());

  WriteOptions wo;
  wo.ignore_missing_column_families = true;
  s = db->Put(wo, "b", "2");
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("WriteOptions::ignore_missing_column_families"), std::string::npos);

  CompactRangeOptions cro;
  const Slice ts_low("ts");
  cro.full_history_ts_low = &ts_low;
  s = db->CompactRange(cro, nullptr, nullptr);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("CompactRangeOptions::full_history_ts_low"), std::string::npos);
  // target_path_id is Strata's: a path the DB does not have is RocksDB's
  // InvalidArgument.
  cro = CompactRangeOptions();
  cro.target_path_id = 1;
  s = db->CompactRange(cro, nullptr, nullptr);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("path"), std::string::npos) << s.ToString();

  // Nothing was written by the refused Put.
  EXPECT_TRUE(db->Get(ReadOptions(), "b", &v).IsNotFound());
  delete db;
}

// A listener asking for file I/O notifications is refused by name (Strata
// makes none); one that does not opens, and its callbacks see the DB.
TEST_F(CompatOptionsTest, ListenersAreWrappedOrRefused) {
  class FileIOListener : public EventListener {
   public:
    const char* Name() const override { return "FileIOListener"; }
    bool ShouldBeNotifiedOnFileIO() override { return true; }
  };
  class FlushCounter : public EventListener {
   public:
    void OnFlushCompleted(DB* db, const FlushJobInfo& info) override {
      last_db = db;
      flushes++;
      cf = info.cf_name;
    }
    DB* last_db = nullptr;
    int flushes = 0;
    std::string cf;
  };
  {
    Options o;
    o.listeners.push_back(std::make_shared<FileIOListener>());
    ExpectRefused(o, "FileIOListener");
  }
  Options o;
  o.create_if_missing = true;
  auto counter = std::make_shared<FlushCounter>();
  o.listeners.push_back(counter);
  DB* db = nullptr;
  ASSERT_TRUE(DB::Open(o, path_, &db).ok());
  ASSERT_TRUE(db->Put(WriteOptions(), "k", "v").ok());
  ASSERT_TRUE(db->Flush(FlushOptions()).ok());
  // GetOptions gives the listener back as it was given.
  const Options got = db->GetOptions();
  ASSERT_EQ(got.listeners.size(), 1u);
  EXPECT_EQ(got.listeners[0], counter);
  const DB* const opened = db;
  delete db;  // every callback has run once the DB is closed
  EXPECT_EQ(counter->flushes, 1);
  EXPECT_EQ(counter->last_db, opened);
  EXPECT_EQ(counter->cf, "default");
}

// RocksDB's raw-pointer NewSstFileManager: the manager tracks the DB's
// tables and enforces its space limit; an object not made by it is refused.
TEST_F(CompatOptionsTest, SstFileManager) {
  Status status;
  EXPECT_EQ(rocksdb::NewSstFileManager(Env::Default(), nullptr, "", 0, true, &status, -1.0),
            nullptr);
  EXPECT_TRUE(status.IsInvalidArgument()) << status.ToString();
  {
    Options o;
    o.sst_file_manager = std::make_shared<SstFileManager>();  // not from the factory
    ExpectRefused(o, "DBOptions::sst_file_manager");
  }
  std::shared_ptr<SstFileManager> sfm(rocksdb::NewSstFileManager(Env::Default()));
  ASSERT_NE(sfm, nullptr);
  Options o;
  o.create_if_missing = true;
  o.sst_file_manager = sfm;
  DB* db = nullptr;
  ASSERT_TRUE(DB::Open(o, path_, &db).ok());
  ASSERT_TRUE(db->Put(WriteOptions(), "k", std::string(1000, 'v')).ok());
  ASSERT_TRUE(db->Flush(FlushOptions()).ok());
  const std::unordered_map<std::string, uint64_t> tracked = sfm->GetTrackedFiles();
  ASSERT_EQ(tracked.size(), 1u);
  EXPECT_NE(tracked.begin()->first.find(".sst"), std::string::npos);
  EXPECT_EQ(sfm->GetTotalSize(), tracked.begin()->second);
  EXPECT_EQ(db->GetOptions().sst_file_manager, sfm);
  // A limit below what is stored: the next flush is a background error.
  sfm->SetMaxAllowedSpaceUsage(1);
  EXPECT_TRUE(sfm->IsMaxAllowedSpaceReached());
  ASSERT_TRUE(db->Put(WriteOptions(), "k2", "v").ok());
  EXPECT_FALSE(db->Flush(FlushOptions()).ok());
  sfm->SetMaxAllowedSpaceUsage(0);
  EXPECT_TRUE(db->Resume().ok());
  delete db;
}

TEST_F(CompatOptionsTest, AdvisoryOptionsAreAccepted) {
  Options o;
  o.create_if_missing = true;
  o.max_background_compactions = 4;
  o.max_background_flushes = 2;
  o.table_cache_numshardbits = 4;
  o.advise_random_on_open = false;
  o.enable_thread_tracking = true;
  o.max_file_opening_threads = 2;
  o.min_write_buffer_number_to_merge = 2;
  o.paranoid_file_checks = true;
  DB* db = nullptr;
  Status s = DB::Open(o, path_, &db);
  ASSERT_TRUE(s.ok()) << s.ToString();
  // GetOptions returns the options as given.
  EXPECT_EQ(db->GetOptions().max_background_compactions, 4);
  EXPECT_EQ(db->GetOptions().min_write_buffer_number_to_merge, 2);
  delete db;
}

TEST_F(CompatOptionsTest, ConvertedOptionsTakeEffect) {
  Options o;
  o.create_if_missing = true;
  o.num_levels = 4;
  o.level0_stop_writes_trigger = 30;
  std::shared_ptr<Cache> cache = NewLRUCache(3 << 20);
  BlockBasedTableOptions t;
  t.block_cache = cache;
  t.filter_policy.reset(NewBloomFilterPolicy(10));
  o.table_factory.reset(NewBlockBasedTableFactory(t));
  DB* db = nullptr;
  ASSERT_TRUE(DB::Open(o, path_, &db).ok());
  EXPECT_EQ(db->NumberLevels(), 4);
  EXPECT_EQ(db->Level0StopWriteTrigger(), 30);
  uint64_t capacity = 0;
  ASSERT_TRUE(db->GetIntProperty(DB::Properties::kBlockCacheCapacity, &capacity));
  EXPECT_EQ(capacity, uint64_t{3} << 20);
  delete db;

  // wal_compression reaches Strata: the new WAL starts with the
  // compression marker, and the DB reopens from it.
  o.wal_compression = kZSTD;
  o.avoid_flush_during_shutdown = true;
  ASSERT_TRUE(DB::Open(o, path_, &db).ok());
  ASSERT_TRUE(db->Put(WriteOptions(), "k", "v").ok());
  delete db;
  std::string newest_log;
  for (const auto& e : std::filesystem::directory_iterator(path_)) {
    const std::string name = e.path().filename().string();
    if (e.path().extension() == ".log" && name > newest_log) newest_log = name;
  }
  std::ifstream wal(path_ + "/" + newest_log, std::ios::binary);
  char header[7] = {};
  ASSERT_TRUE(wal.read(header, sizeof(header)).good()) << newest_log;
  EXPECT_EQ(header[6], 9) << "kSetCompressionType";
  o.wal_compression = kNoCompression;
  ASSERT_TRUE(DB::Open(o, path_, &db).ok());
  std::string v;
  ASSERT_TRUE(db->Get(ReadOptions(), "k", &v).ok());
  EXPECT_EQ(v, "v");
  delete db;

  // error_if_exists reaches Strata.
  o.error_if_exists = true;
  Status s = DB::Open(o, path_, &db);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_EQ(db, nullptr);
}

// LRUCacheOptions and NewLRUCache with RocksDB's fields and parameters:
// the ones Strata has take effect, the advisory ones are checked as RocksDB
// checks them, and arguments RocksDB rejects give nullptr.
TEST_F(CompatOptionsTest, LRUCacheTakesRocksDBsParameters) {
  LRUCacheOptions lo(4 << 20, 2, true, 0.25, nullptr, true, kDontChargeCacheMetadata, 0.5);
  std::shared_ptr<Cache> cache = NewLRUCache(lo);
  ASSERT_NE(cache, nullptr);
  EXPECT_EQ(cache->GetCapacity(), size_t{4} << 20);
  cache = NewLRUCache(1 << 20, -1, false, 0.5, nullptr, false, kFullChargeCacheMetadata, 0.2);
  ASSERT_NE(cache, nullptr);
  EXPECT_EQ(cache->GetCapacity(), size_t{1} << 20);
  EXPECT_EQ(
      NewLRUCache(1 << 20, -1, false, 0.6, nullptr, false, kDefaultCacheMetadataChargePolicy, 0.5),
      nullptr);  // high + low > 1
  EXPECT_EQ(NewLRUCache(1 << 20, 20), nullptr);
  LRUCacheOptions bad;
  bad.capacity = 1 << 20;
  bad.low_pri_pool_ratio = -0.1;
  EXPECT_EQ(NewLRUCache(bad), nullptr);
}

TEST_F(CompatOptionsTest, VersionMacros) {
  EXPECT_EQ(ROCKSDB_MAJOR, 7);
  EXPECT_EQ(ROCKSDB_MINOR, 8);
  EXPECT_EQ(ROCKSDB_PATCH, 3);
  EXPECT_EQ(GetRocksVersionAsString(), "7.8.3");
  EXPECT_EQ(GetRocksVersionAsString(false), "7.8");
}

// A program's partitioner: one output file per first byte; counts calls.
class FirstBytePartitionerFactory : public SstPartitionerFactory {
 public:
  const char* Name() const override { return "FirstBytePartitionerFactory"; }
  std::unique_ptr<SstPartitioner> CreatePartitioner(
      const SstPartitioner::Context& context) const override {
    ++made;
    last_level = context.output_level;
    return std::make_unique<SstPartitionerFixedPrefix>(1);
  }
  mutable int made = 0;
  mutable int last_level = -1;
};

// A program's block policy: two entries per block, built over the size
// policy's maker to check the BlockBuilder it is handed is usable.
class TwoPerBlock : public FlushBlockPolicy {
 public:
  explicit TwoPerBlock(FlushBlockPolicy* size) : size_(size) {}
  bool Update(const Slice& key, const Slice& value) override {
    size_->Update(key, value);
    return n_++ > 0 && n_ % 2 == 1;
  }

 private:
  std::unique_ptr<FlushBlockPolicy> size_;
  int n_ = 0;
};
class TwoPerBlockFactory : public FlushBlockPolicyFactory {
 public:
  const char* Name() const override { return "TwoPerBlockFactory"; }
  FlushBlockPolicy* NewFlushBlockPolicy(const BlockBasedTableOptions& t,
                                        const BlockBuilder& b) const override {
    seen_block_size = t.block_size;
    return new TwoPerBlock(FlushBlockBySizePolicyFactory::NewFlushBlockPolicy(4096, 10, b));
  }
  mutable uint64_t seen_block_size = 0;
};

TEST_F(CompatOptionsTest, PartitionerFlushPolicyAndLimiterReachTheEngine) {
  Options o;
  o.create_if_missing = true;
  o.disable_auto_compactions = true;
  auto partitioner = std::make_shared<FirstBytePartitionerFactory>();
  o.sst_partitioner_factory = partitioner;
  BlockBasedTableOptions t;
  t.block_size = 8192;
  auto policy = std::make_shared<TwoPerBlockFactory>();
  t.flush_block_policy_factory = policy;
  o.table_factory.reset(NewBlockBasedTableFactory(t));
  std::shared_ptr<ConcurrentTaskLimiter> limiter(NewConcurrentTaskLimiter("compat", 2));
  o.compaction_thread_limiter = limiter;
  DB* db = nullptr;
  ASSERT_TRUE(DB::Open(o, path_, &db).ok());
  for (int i = 0; i < 6; ++i) {
    ASSERT_TRUE(db->Put(WriteOptions(), std::string(1, 'a' + i % 3) + std::to_string(i), "v").ok());
  }
  ASSERT_TRUE(db->Flush(FlushOptions()).ok());
  TablePropertiesCollection props;
  ASSERT_TRUE(db->GetPropertiesOfAllTables(&props).ok());
  ASSERT_EQ(props.size(), 1u);
  EXPECT_EQ(props.begin()->second->num_data_blocks, 3u);
  EXPECT_EQ(policy->seen_block_size, 8192u);  // the program's table options
  ASSERT_TRUE(db->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  EXPECT_GE(partitioner->made, 1);
  EXPECT_GE(partitioner->last_level, 1);
  std::vector<LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  EXPECT_EQ(files.size(), 3u);  // one per first byte
  EXPECT_EQ(limiter->GetName(), "compat");
  delete db;

  // The OPTIONS file names the program's factories; the fixed-prefix
  // factory comes back with its length.
  o.sst_partitioner_factory = NewSstPartitionerFixedPrefixFactory(6);
  DB* db2 = nullptr;
  ASSERT_TRUE(DB::Open(o, path_, &db2).ok());
  delete db2;
  DBOptions loaded_db;
  std::vector<ColumnFamilyDescriptor> cfs;
  ConfigOptions config;
  config.ignore_unknown_options = true;  // TwoPerBlockFactory is not registered
  ASSERT_TRUE(LoadLatestOptions(config, path_, &loaded_db, &cfs).ok());
  ASSERT_EQ(cfs.size(), 1u);
  auto* fixed =
      dynamic_cast<SstPartitionerFixedPrefixFactory*>(cfs[0].options.sst_partitioner_factory.get());
  ASSERT_NE(fixed, nullptr);
  EXPECT_EQ(fixed->prefix_len(), 6u);
}

TEST_F(CompatOptionsTest, ForeignLimiterIsRefused) {
  class Own : public ConcurrentTaskLimiter {
   public:
    const std::string& GetName() const override { return name_; }
    void SetMaxOutstandingTask(int32_t) override {}
    void ResetMaxOutstandingTask() override {}
    int32_t GetOutstandingTask() const override { return 0; }

   private:
    std::string name_ = "own";
  };
  Options o;
  o.compaction_thread_limiter = std::make_shared<Own>();
  ExpectRefused(o, "compaction_thread_limiter");
}

TEST_F(CompatOptionsTest, FactoriesFromStrings) {
  ConfigOptions config;
  std::shared_ptr<SstPartitionerFactory> p;
  ASSERT_TRUE(
      SstPartitionerFactory::CreateFromString(config, "SstPartitionerFixedPrefixFactory", &p).ok());
  ASSERT_NE(p, nullptr);
  EXPECT_STREQ(p->Name(), "SstPartitionerFixedPrefixFactory");
  ASSERT_TRUE(SstPartitionerFactory::CreateFromString(config, "nullptr", &p).ok());
  EXPECT_EQ(p, nullptr);
  EXPECT_FALSE(SstPartitionerFactory::CreateFromString(config, "Nope", &p).ok());
  std::shared_ptr<FlushBlockPolicyFactory> f;
  ASSERT_TRUE(
      FlushBlockPolicyFactory::CreateFromString(config, "FlushBlockBySizePolicyFactory", &f).ok());
  ASSERT_NE(f, nullptr);
  EXPECT_STREQ(f->Name(), "FlushBlockBySizePolicyFactory");
  EXPECT_FALSE(FlushBlockPolicyFactory::CreateFromString(config, "Nope", &f).ok());
  BlockBasedTableOptions t;
  ASSERT_TRUE(GetBlockBasedTableOptionsFromString(
                  config, t, "flush_block_policy_factory=FlushBlockEveryKeyPolicyFactory", &t)
                  .ok());
  ASSERT_NE(t.flush_block_policy_factory, nullptr);
  EXPECT_STREQ(t.flush_block_policy_factory->Name(), "FlushBlockEveryKeyPolicyFactory");
}

class NamedService : public CompactionService {
 public:
  const char* Name() const override { return "NamedService"; }
};

TEST_F(CompatOptionsTest, HandoffTypesAndCompactionServiceAreRefused) {
  {
    Options o;
    o.checksum_handoff_file_types.Add(FileType::kWalFile);
    ExpectRefused(o, "DBOptions::checksum_handoff_file_types");
  }
  {
    Options o;
    o.compaction_service = std::make_shared<NamedService>();
    ExpectRefused(o, "DBOptions::compaction_service");
    // RocksDB's defaults of the service's calls.
    CompactionServiceJobInfo info("db", "id", "session", 7, Env::LOW);
    std::string out;
    EXPECT_EQ(CompactionServiceJobStatus::kUseLocal, o.compaction_service->StartV2(info, "in"));
    EXPECT_EQ(CompactionServiceJobStatus::kUseLocal,
              o.compaction_service->WaitForCompleteV2(info, &out));
    EXPECT_EQ(std::string("CompactionService"), CompactionService::Type());
    EXPECT_EQ(7u, info.job_id);
  }
  // An empty set, and the advisory insertion hint, open.
  Options o;
  o.create_if_missing = true;
  o.memtable_insert_with_hint_prefix_extractor.reset(NewFixedPrefixTransform(2));
  DB* db = nullptr;
  ASSERT_TRUE(DB::Open(o, path_, &db).ok());
  ASSERT_TRUE(db->Put(WriteOptions(), "abc", "1").ok());
  std::string v;
  ASSERT_TRUE(db->Get(ReadOptions(), "abc", &v).ok());
  EXPECT_EQ("1", v);
  delete db;
}

TEST_F(CompatOptionsTest, OldDefaultsAreRocksDBsAndOpen) {
  Options o;
  o.OldDefaults();  // 4.6
  EXPECT_EQ(size_t{4} << 20, o.write_buffer_size);
  EXPECT_EQ(2u * 1048576, o.target_file_size_base);
  EXPECT_EQ(10u * 1048576, o.max_bytes_for_level_base);
  EXPECT_EQ(0u, o.soft_pending_compaction_bytes_limit);
  EXPECT_EQ(0u, o.hard_pending_compaction_bytes_limit);
  EXPECT_EQ(24, o.level0_stop_writes_trigger);
  EXPECT_EQ(kByCompensatedSize, o.compaction_pri);
  EXPECT_EQ(1, o.max_file_opening_threads);
  EXPECT_EQ(4, o.table_cache_numshardbits);
  EXPECT_EQ(2u * 1024 * 1024, o.delayed_write_rate);
  EXPECT_EQ(5000, o.max_open_files);
  EXPECT_EQ(WALRecoveryMode::kTolerateCorruptedTailRecords, o.wal_recovery_mode);
  Options newer;
  newer.OldDefaults(5, 3);
  EXPECT_EQ(size_t{64} << 20, newer.write_buffer_size);
  EXPECT_EQ(36, newer.level0_stop_writes_trigger);
  EXPECT_EQ(16u * 1024 * 1024, newer.delayed_write_rate);
  EXPECT_EQ(kByCompensatedSize, newer.compaction_pri);
  Options latest;
  latest.OldDefaults(6, 0);
  EXPECT_EQ(kMinOverlappingRatio, latest.compaction_pri);
  EXPECT_EQ(0u, latest.delayed_write_rate);
  // Strata accepts every old default.
  o.create_if_missing = true;
  DB* db = nullptr;
  Status s = DB::Open(o, path_, &db);
  ASSERT_TRUE(s.ok()) << s.ToString();
  delete db;
  EXPECT_TRUE(o.force_consistency_checks);
  o.DisableExtraChecks();
  EXPECT_FALSE(o.force_consistency_checks);
}

class LinesLogger : public Logger {
 public:
  using Logger::Logv;
  void Logv(const char* format, va_list ap) override {
    char buf[4096];
    vsnprintf(buf, sizeof(buf), format, ap);
    lines.push_back(buf);
  }
  bool Has(const std::string& text) const {
    for (const std::string& l : lines) {
      if (l.find(text) != std::string::npos) return true;
    }
    return false;
  }
  std::vector<std::string> lines;
};

TEST_F(CompatOptionsTest, DumpWritesEveryOptionName) {
  Options o;
  o.max_open_files = 321;
  o.write_buffer_size = 3 << 20;
  LinesLogger log;
  o.Dump(&log);
  for (const char* name :
       {"create_if_missing", "max_open_files", "max_background_jobs", "wal_dir",
        "write_buffer_size", "max_write_buffer_number", "num_levels", "compaction_style",
        "level0_file_num_compaction_trigger", "max_bytes_for_level_base", "comparator"}) {
    EXPECT_TRUE(log.Has(std::string("Options.") + name)) << name;
  }
  EXPECT_TRUE(log.Has("Options.max_open_files: 321"));
  EXPECT_TRUE(log.Has("Options.write_buffer_size: 3145728"));
  LinesLogger cf;
  o.DumpCFOptions(&cf);
  EXPECT_TRUE(cf.Has("Options.write_buffer_size"));
  EXPECT_FALSE(cf.Has("Options.max_open_files"));
  o.Dump(nullptr);  // a null logger: nothing
  // A refused option: the line says why.
  Options refused;
  refused.two_write_queues = true;
  LinesLogger bad;
  static_cast<const DBOptions&>(refused).Dump(&bad);
  EXPECT_TRUE(bad.Has("two_write_queues")) << (bad.lines.empty() ? "" : bad.lines[0]);
}

TEST_F(CompatOptionsTest, CreateLoggerFromOptionsMakesTheLog) {
  Env* env = Env::Default();
  DBOptions o;
  o.info_log_level = ERROR_LEVEL;
  std::shared_ptr<Logger> logger;
  ASSERT_TRUE(CreateLoggerFromOptions(path_, o, &logger).ok());
  ASSERT_NE(nullptr, logger);
  EXPECT_EQ(::strata::InfoLogLevel::kError, logger->GetInfoLogLevel());
  Log(ERROR_LEVEL, logger, "first");
  logger.reset();
  ASSERT_TRUE(CreateLoggerFromOptions(path_, o, &logger).ok());
  logger.reset();
  std::vector<std::string> children;
  ASSERT_TRUE(env->GetChildren(path_, &children).ok());
  int old = 0;
  for (const std::string& c : children) old += c.rfind("LOG.old.", 0) == 0 ? 1 : 0;
  EXPECT_EQ(1, old);
  std::string text;
  ASSERT_TRUE(ReadFileToString(env, path_ + "/LOG", &text).ok());
  EXPECT_EQ(std::string::npos, text.find("first"));  // the new LOG

  // With db_log_dir: "<prefix>_LOG", the prefix from the absolute path.
  const std::string log_dir = path_ + "_logs";
  ASSERT_TRUE(env->CreateDirIfMissing(log_dir).ok());
  o.db_log_dir = log_dir;
  ASSERT_TRUE(CreateLoggerFromOptions(path_, o, &logger).ok());
  logger.reset();
  std::string abs;
  ASSERT_TRUE(env->GetAbsolutePath(path_, &abs).ok());
  std::string prefix;
  for (size_t i = 0; i < abs.size(); i++) {
    const char c = abs[i];
    if (isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_') {
      prefix.push_back(c);
    } else if (i > 0) {
      prefix.push_back('_');
    }
  }
  EXPECT_TRUE(env->FileExists(log_dir + "/" + prefix + "_LOG").ok()) << prefix;
  ASSERT_TRUE(DestroyDB(log_dir, Options()).ok());
  env->DeleteFile(log_dir + "/" + prefix + "_LOG").PermitUncheckedError();
  env->DeleteDir(log_dir).PermitUncheckedError();

  o.db_log_dir.clear();
  o.max_log_file_size = 1 << 20;
  Status s = CreateLoggerFromOptions(path_, o, &logger);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("max_log_file_size"));
}

TEST_F(CompatOptionsTest, ConstructorsKeepRocksDBsDefaults) {
  CompactionOptions co;
  EXPECT_EQ(kSnappyCompression, co.compression);
  EXPECT_EQ(std::numeric_limits<uint64_t>::max(), co.output_file_size_limit);
  EXPECT_EQ(0u, co.max_subcompactions);
  CompactionOptionsUniversal u;
  EXPECT_EQ(1u, u.size_ratio);
  EXPECT_EQ(200u, u.max_size_amplification_percent);
  CompactionJobStats stats;
  EXPECT_EQ(0u, stats.num_input_records);
  EXPECT_EQ(std::string(kHostnameForDbHostId), DBOptions().db_host_id);
  EXPECT_EQ(std::string("__hostname__"), kHostnameForDbHostId);
  AdvancedColumnFamilyOptions::TablePropertiesCollectorFactories factories;
  EXPECT_TRUE(factories.empty());
}

}  // namespace
}  // namespace rocksdb
