// compat_plugins_test: RocksDB 7.8.3's plugin-interface members through
// libstrata-rocksdb, with real databases where the answer is observable:
// table properties a listener and GetPropertiesOfAllTables see, a
// timestamp comparator refused at Open, SstFileWriter's checksum fields,
// the collector factory by name, and the TableFactory / FilterPolicy calls
// that answer for internal classes.
#include <unistd.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rocksdb/comparator.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/file_checksum.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/listener.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "rocksdb/utilities/table_properties_collectors.h"

namespace rocksdb {
namespace {

std::string TestPath(const std::string& name) {
  return ::testing::TempDir() + "/compat_plugins_" + std::to_string(getpid()) + "_" + name;
}

class CountingCollector : public TablePropertiesCollector {
 public:
  Status AddUserKey(const Slice&, const Slice&, EntryType, SequenceNumber, uint64_t) override {
    n_++;
    return Status::OK();
  }
  Status Finish(UserCollectedProperties* props) override {
    (*props)["test.count"] = std::to_string(n_);
    return Status::OK();
  }
  UserCollectedProperties GetReadableProperties() const override {
    return {{"test.count.readable", "count=" + std::to_string(n_)}};
  }
  const char* Name() const override { return "CountingCollector"; }

 private:
  int n_ = 0;
};

class CountingFactory : public TablePropertiesCollectorFactory {
 public:
  TablePropertiesCollector* CreateTablePropertiesCollector(
      TablePropertiesCollectorFactory::Context) override {
    return new CountingCollector();
  }
  const char* Name() const override { return "CountingFactory"; }
};

class PropertiesListener : public EventListener {
 public:
  void OnTableFileCreated(const TableFileCreationInfo& info) override {
    std::lock_guard<std::mutex> l(mu);
    created.push_back(info.table_properties);
  }
  std::mutex mu;
  std::vector<TableProperties> created;
};

TEST(CompatPluginsTest, TablePropertiesFieldsFromRealTables) {
  const std::string path = TestPath("props");
  Options options;
  options.create_if_missing = true;
  options.table_properties_collector_factories.push_back(std::make_shared<CountingFactory>());
  auto listener = std::make_shared<PropertiesListener>();
  options.listeners.push_back(listener);
  ASSERT_TRUE(DestroyDB(path, options).ok());
  DB* raw = nullptr;
  ASSERT_TRUE(DB::Open(options, path, &raw).ok());
  std::unique_ptr<DB> db(raw);
  ASSERT_TRUE(db->Put(WriteOptions(), "a", "1").ok());
  ASSERT_TRUE(db->Put(WriteOptions(), "b", "2").ok());
  ASSERT_TRUE(db->Flush(FlushOptions()).ok());
  {
    std::lock_guard<std::mutex> l(listener->mu);
    ASSERT_EQ(1u, listener->created.size());
    const TableProperties& tp = listener->created[0];
    EXPECT_NE(0u, tp.orig_file_number);
    EXPECT_EQ(tp.original_file_number, tp.orig_file_number);
    EXPECT_EQ("2", tp.user_collected_properties.at("test.count"));
    EXPECT_EQ("count=2", tp.readable_properties.at("test.count.readable"));
  }
  TablePropertiesCollection all;
  ASSERT_TRUE(db->GetPropertiesOfAllTables(&all).ok());
  ASSERT_EQ(1u, all.size());
  const TableProperties& read = *all.begin()->second;
  EXPECT_NE(0u, read.orig_file_number);
  EXPECT_EQ(0u, read.external_sst_file_global_seqno_offset);  // not an ingested file
  EXPECT_TRUE(read.readable_properties.empty());              // not stored
  TableProperties sum;
  sum.Add(read);
  sum.Add(read);
  EXPECT_EQ(4u, sum.GetAggregatablePropertiesAsMap().at("num_entries"));
  EXPECT_GT(read.ApproximateMemoryUsage(), sizeof(TableProperties));
  db.reset();
  ASSERT_TRUE(DestroyDB(path, options).ok());
}

class TimestampComparator : public Comparator {
 public:
  TimestampComparator() : Comparator(8) {}
  int Compare(const Slice& a, const Slice& b) const override { return a.compare(b); }
  const char* Name() const override { return "test.TimestampComparator"; }
  void FindShortestSeparator(std::string*, const Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}
};

TEST(CompatPluginsTest, TimestampComparatorRefused) {
  const std::string path = TestPath("ts");
  TimestampComparator cmp;
  EXPECT_EQ(8u, cmp.timestamp_size());
  Options options;
  options.create_if_missing = true;
  options.comparator = &cmp;
  DB* raw = nullptr;
  Status s = DB::Open(options, path, &raw);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("test.TimestampComparator")) << s.ToString();
  EXPECT_EQ(nullptr, raw);
  SstFileWriter writer(EnvOptions(), options);
  s = writer.Open(path + ".sst");
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  Env::Default()->DeleteFile(path + ".sst").PermitUncheckedError();
  DestroyDB(path, Options()).PermitUncheckedError();
}

TEST(CompatPluginsTest, SstFileWriterChecksumAndDeprecatedForms) {
  const std::string path = TestPath("writer.sst");
  Options options;
  options.file_checksum_gen_factory = GetFileChecksumGenCrc32cFactory();
  SstFileWriter writer(EnvOptions(), options, BytewiseComparator());
  ASSERT_TRUE(writer.Open(path).ok());
  ASSERT_TRUE(writer.Put("a", Slice(), "1").ok());
  EXPECT_EQ("Invalid argument: Timestamp size mismatch", writer.Put("b", "t", "2").ToString());
  ASSERT_TRUE(writer.DeleteRange("c", "d", Slice()).ok());
  ExternalSstFileInfo info;
  ASSERT_TRUE(writer.Finish(&info).ok());
  EXPECT_EQ("FileChecksumCrc32c", info.file_checksum_func_name);
  EXPECT_EQ(4u, info.file_checksum.size());
  EXPECT_EQ("c", info.smallest_range_del_key);
  EXPECT_EQ("d", info.largest_range_del_key);
  // The checksum is the function over the file as written.
  std::string checksum, func;
  ASSERT_TRUE(GetFileChecksumGenCrc32cFactory() != nullptr);
  std::string contents;
  ASSERT_TRUE(ReadFileToString(Env::Default(), path, &contents).ok());
  FileChecksumGenContext context;
  auto gen = GetFileChecksumGenCrc32cFactory()->CreateFileChecksumGenerator(context);
  gen->Update(contents.data(), contents.size());
  gen->Finalize();
  EXPECT_EQ(gen->GetChecksum(), info.file_checksum);
  Env::Default()->DeleteFile(path).PermitUncheckedError();
}

TEST(CompatPluginsTest, CollectorFactoryByNameAndSerialized) {
  ConfigOptions co;
  std::shared_ptr<TablePropertiesCollectorFactory> f;
  ASSERT_TRUE(TablePropertiesCollectorFactory::CreateFromString(
                  co, "id=CompactOnDeletionCollector;window_size=64;deletion_trigger=8", &f)
                  .ok());
  ASSERT_NE(nullptr, f);
  auto* cod = dynamic_cast<CompactOnDeletionCollectorFactory*>(f.get());
  ASSERT_NE(nullptr, cod);
  EXPECT_EQ(64u, cod->GetWindowSize());
  EXPECT_EQ(8u, cod->GetDeletionTrigger());
  const TablePropertiesCollectorFactory* base = f.get();
  EXPECT_EQ(
      "{id=CompactOnDeletionCollector;deletion_ratio=0.000000;deletion_trigger=8;"
      "window_size=64;}",
      base->ToString(co));
  CountingFactory plain;
  EXPECT_EQ("CountingFactory",
            static_cast<const TablePropertiesCollectorFactory&>(plain).ToString(co));
  EXPECT_TRUE(TablePropertiesCollectorFactory::CreateFromString(
                  co, "id=CompactOnDeletionCollector;bogus=1", &f)
                  .IsInvalidArgument());
}

TEST(CompatPluginsTest, InternalClassesAnswer) {
  std::unique_ptr<TableFactory> tf(NewBlockBasedTableFactory());
  // RocksDB's internal types are incomplete here: stand-ins never read.
  alignas(16) static char storage[16];
  static auto* file = new std::unique_ptr<RandomAccessFileReader>();
  const auto& tro = *reinterpret_cast<const TableReaderOptions*>(storage);
  Status s = tf->NewTableReader(ReadOptions(), tro, std::move(*file), 0, nullptr, true);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  s = tf->NewTableReader(tro, std::move(*file), 0, nullptr);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_EQ(nullptr,
            tf->NewTableBuilder(*reinterpret_cast<const TableBuilderOptions*>(storage), nullptr));
  EXPECT_TRUE(tf->IsDeleteRangeSupported());
  std::unique_ptr<TableFactory> plain(NewPlainTableFactory());
  EXPECT_FALSE(plain->IsDeleteRangeSupported());

  std::unique_ptr<const FilterPolicy> fp(NewBloomFilterPolicy(10));
  BlockBasedTableOptions t;
  FilterBuildingContext context(t);
  EXPECT_EQ(&t, &context.table_options);
  EXPECT_EQ(-1, context.level_at_creation);
  EXPECT_EQ(nullptr, fp->GetBuilderWithContext(context));
  EXPECT_EQ(nullptr, fp->GetFilterBitsReader(Slice()));
  ConfigOptions co;
  std::shared_ptr<const FilterPolicy> made;
  ASSERT_TRUE(FilterPolicy::CreateFromString(co, "ribbonfilter:8:2", &made).ok());
  ASSERT_NE(nullptr, made);
  EXPECT_STREQ("ribbonfilter", made->Name());
  EXPECT_TRUE(
      FilterPolicy::CreateFromString(co, "rocksdb.BuiltinBloomFilter", &made).IsInvalidArgument());
  std::shared_ptr<TableFactory> by_name;
  ASSERT_TRUE(
      TableFactory::CreateFromString(co, "id=BlockBasedTable;block_size=8192", &by_name).ok());
  ASSERT_NE(nullptr, by_name);
  EXPECT_EQ(8192u, by_name->GetOptions<BlockBasedTableOptions>()->block_size);
}

}  // namespace
}  // namespace rocksdb
