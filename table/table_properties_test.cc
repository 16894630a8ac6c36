#include "strata/table_properties.h"

#include <string>

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

}  // namespace
}  // namespace strata
