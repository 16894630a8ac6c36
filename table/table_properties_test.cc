#include "strata/table_properties.h"

#include <map>
#include <string>

#include "table/meta_blocks.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

TEST(TablePropertiesTest, ToStringListsEveryField) {
  TableProperties p;
  p.num_data_blocks = 3;
  p.num_entries = 100;
  p.num_deletions = 4;
  p.raw_key_size = 1600;
  p.raw_value_size = 50;
  p.data_size = 4000;
  p.index_size = 60;
  p.filter_size = 130;
  p.index_key_is_user_key = 1;
  p.index_value_is_delta_encoded = 1;
  p.comparator_name = "leveldb.BytewiseComparator";
  p.compression_name = "Snappy";
  p.db_host_id = "host";
  p.original_file_number = 42;
  p.user_collected_properties["my.text"] = "hello";
  p.user_collected_properties["my.binary"] = std::string("\x00\x1f", 2);

  const std::string s = p.ToString();
  for (const char* item :
       {"# data blocks=3; ", "# entries=100; ", "# deletions=4; ", "raw key size=1600; ",
        "raw average key size=16.000000; ", "raw average value size=0.500000; ",
        "data block size=4000; ", "index block size (user-key? 1, delta-value? 1)=60; ",
        "filter block size=130; ", "(estimated) table size=4190; ", "filter policy name=N/A; ",
        "column family ID=N/A; ", "comparator name=leveldb.BytewiseComparator; ",
        "SST file compression algo=Snappy; ", "DB host id=host; ", "original file number=42; ",
        "my.text=hello; ", "my.binary=0x001F; "}) {
    EXPECT_NE(s.find(item), std::string::npos) << item << " not in: " << s;
  }
  EXPECT_EQ(s.rfind("# data blocks=3; ", 0), 0u);

  // sst_dump's layout: one "name: value" per line.
  const std::string lines = p.ToString("\n  ", ": ");
  EXPECT_NE(lines.find("\n  # entries: 100\n  "), std::string::npos) << lines;
  p.column_family_id = 0;
  EXPECT_NE(p.ToString().find("column family ID=0; "), std::string::npos);
}

TEST(TablePropertiesTest, EmptyPropertiesDoNotDivideByZero) {
  const std::string s = TableProperties().ToString();
  EXPECT_NE(s.find("raw average key size=0.000000; "), std::string::npos) << s;
}

TEST(TablePropertiesTest, AddAggregatesAndMemoryUsage) {
  TableProperties a, b;
  a.data_size = 10;
  a.num_entries = 3;
  a.fast_compression_estimated_data_size = 2;
  a.column_family_name = "cf";
  b.data_size = 5;
  b.num_entries = 4;
  b.num_deletions = 1;
  b.fast_compression_estimated_data_size = 1;
  b.column_family_name = "other";
  a.Add(b);
  EXPECT_EQ(15u, a.data_size);
  EXPECT_EQ(7u, a.num_entries);
  EXPECT_EQ(1u, a.num_deletions);
  EXPECT_EQ("cf", a.column_family_name);  // strings are not aggregated
  const std::map<std::string, uint64_t> m = a.GetAggregatablePropertiesAsMap();
  EXPECT_EQ(15u, m.size());
  EXPECT_EQ(15u, m.at("data_size"));
  EXPECT_EQ(7u, m.at("num_entries"));
  EXPECT_EQ(3u, m.at("fast_compression_estimated_data_size"));
  const size_t base = a.ApproximateMemoryUsage();
  EXPECT_EQ(sizeof(TableProperties) + 2, base);
  a.user_collected_properties["k"] = "vv";
  EXPECT_EQ(base + 3, a.ApproximateMemoryUsage());
}

TEST(TablePropertiesTest, LegacyCountsFromUserProperties) {
  UserCollectedProperties props;
  bool present = true;
  EXPECT_EQ(0u, GetDeletedKeys(props));
  EXPECT_EQ(0u, GetMergeOperands(props, &present));
  EXPECT_FALSE(present);
  props["rocksdb.deleted.keys"] = std::string("\x07", 1);
  props["rocksdb.merge.operands"] = std::string("\x85\x01", 2);  // varint 133
  EXPECT_EQ(7u, GetDeletedKeys(props));
  EXPECT_EQ(133u, GetMergeOperands(props, &present));
  EXPECT_TRUE(present);
  props["rocksdb.merge.operands"] = std::string("\x85", 1);  // truncated: 0, present
  EXPECT_EQ(0u, GetMergeOperands(props, &present));
  EXPECT_TRUE(present);
}

TEST(TablePropertiesTest, RocksDBFieldsRoundTripThroughTheBlock) {
  TableProperties p;
  p.original_file_number = 42;
  p.slow_compression_estimated_data_size = 100;
  p.fast_compression_estimated_data_size = 90;
  p.seqno_to_time_mapping = "map-bytes";
  std::string block;
  EncodePropertiesBlock(p, &block);
  TableProperties back;
  ASSERT_OK(DecodePropertiesBlock(block, &back));
  EXPECT_EQ(42u, back.orig_file_number);
  EXPECT_EQ(42u, back.original_file_number);
  EXPECT_EQ(100u, back.slow_compression_estimated_data_size);
  EXPECT_EQ(90u, back.fast_compression_estimated_data_size);
  EXPECT_EQ("map-bytes", back.seqno_to_time_mapping);
  // Fields, not user properties (RocksDB's predefined names).
  EXPECT_EQ(0u, back.user_collected_properties.count("rocksdb.seqno.time.map"));
  EXPECT_EQ(0u,
            back.user_collected_properties.count("rocksdb.sample_for_compression.slow.data.size"));
  // Zero / empty: not written, as RocksDB.
  TableProperties zero;
  std::string zero_block;
  EncodePropertiesBlock(zero, &zero_block);
  EXPECT_EQ(std::string::npos, zero_block.find("sample_for_compression"));
  EXPECT_EQ(std::string::npos, zero_block.find("seqno.time.map"));
}

// A collector overriding only RocksDB's deprecated Add sees every entry
// through AddUserKey's default.
TEST(TablePropertiesTest, DeprecatedAddIsCalledByAddUserKey) {
  class OldStyle : public TablePropertiesCollector {
   public:
    Status Add(const Slice& key, const Slice&) override {
      keys += key.ToString();
      return Status::OK();
    }
    Status Finish(UserCollectedProperties*) override { return Status::OK(); }
    UserCollectedProperties GetReadableProperties() const override { return {}; }
    const char* Name() const override { return "OldStyle"; }
    std::string keys;
  } old;
  ASSERT_OK(old.AddUserKey("a", "1", kEntryPut, 1, 0));
  ASSERT_OK(old.AddUserKey("b", "", kEntryDelete, 2, 0));
  EXPECT_EQ("ab", old.keys);
  class Neither : public TablePropertiesCollector {
   public:
    Status Finish(UserCollectedProperties*) override { return Status::OK(); }
    UserCollectedProperties GetReadableProperties() const override { return {}; }
    const char* Name() const override { return "Neither"; }
  } neither;
  EXPECT_TRUE(neither.AddUserKey("a", "1", kEntryPut, 1, 0).IsInvalidArgument());
}

}  // namespace
}  // namespace strata
