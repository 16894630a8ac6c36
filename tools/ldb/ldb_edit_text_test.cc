// Tests of the RocksDB-shaped texts (tools/ldb/ldb_edit_text.h) and of
// InternalKeyDebugString, against values RocksDB 7.8.3's ldb printed.

#include "tools/ldb/ldb_edit_text.h"

#include <gtest/gtest.h>

#include "base/dbformat.h"
#include "tools/ldb/ldb_manifest.h"
#include "util/coding.h"

namespace strata::ldb {
namespace {

std::string IdBytes(uint64_t a, uint64_t b) {
  std::string id;
  PutFixed64(&id, a);
  PutFixed64(&id, b);
  return id;
}

TEST(LdbEditTextTest, UniqueIdForms) {
  // From `ldb manifest_dump --verbose` on a table RocksDB 7.8.3 wrote.
  const std::string id = IdBytes(6010227617339338264ULL, 5889495716229058611ULL);
  EXPECT_EQ("{6010227617339338264,5889495716229058611}", UniqueIdInternalText(id));
  EXPECT_EQ("0B6B182B5F07A6E2-CCB837019D3B3AB8", UniqueIdPublicText(id));
  EXPECT_EQ("", UniqueIdPublicText("short"));
}

TEST(LdbEditTextTest, InternalKeys) {
  std::string ikey;
  AppendInternalKey(&ikey, "w1", 8, kTypeValue);
  EXPECT_EQ("'w1' seq:8, type:1", InternalKeyDebugString(ikey, false));
  EXPECT_EQ("'7731' seq:8, type:1", InternalKeyDebugString(ikey, true));
  EXPECT_EQ("(bad)ab\\x01", InternalKeyDebugString(std::string("ab\x01", 3), false));
}

TEST(LdbEditTextTest, EditText) {
  VersionEdit edit;
  edit.SetComparatorName("leveldb.BytewiseComparator");
  edit.SetLogNumber(5);
  edit.SetNextFile(7);
  edit.SetLastSequence(9);
  FileMetaData f;
  f.number = 6;
  f.file_size = 1003;
  AppendInternalKey(&f.smallest, "a", 1, kTypeValue);
  AppendInternalKey(&f.largest, "b", 2, kTypeDeletion);
  f.file_creation_time = 77;
  edit.AddFile(0, f);
  edit.DeleteFile(1, 3);
  EXPECT_EQ(
      "VersionEdit {\n"
      "  Comparator: leveldb.BytewiseComparator\n"
      "  LogNumber: 5\n"
      "  NextFileNumber: 7\n"
      "  LastSeq: 9\n"
      "  DeleteFile: 1 3\n"
      "  AddFile: 0 6 1003 'a' seq:1, type:1 .. 'b' seq:2, type:0 oldest_ancester_time:0"
      " file_creation_time:77 file_checksum: file_checksum_func_name: Unknown\n"
      "  ColumnFamily: 0\n"
      "}\n",
      VersionEditText(edit, false));
}

TEST(LdbEditTextTest, TableProperties) {
  TableProperties p;
  p.num_data_blocks = 1;
  p.num_entries = 4;
  p.raw_key_size = 10;
  p.raw_value_size = 6;
  p.data_size = 71;
  p.index_size = 21;
  p.index_key_is_user_key = 1;
  p.column_family_id = 0;
  p.column_family_name = "default";
  const std::string text = TablePropertiesText(p, "");
  EXPECT_NE(std::string::npos, text.find("raw average key size=2.500000\n"));
  EXPECT_NE(std::string::npos, text.find("index block size (user-key? 1, delta-value? 0)=21\n"));
  EXPECT_NE(std::string::npos, text.find("(estimated) table size=92\n"));
  EXPECT_NE(std::string::npos, text.find("filter policy name=N/A\n"));
  EXPECT_NE(std::string::npos, text.find("column family ID=0\n"));
  EXPECT_NE(std::string::npos, text.find("unique ID=N/A\n"));
  EXPECT_EQ(std::string::npos, text.find("# index partitions"));
  EXPECT_EQ("Sequence number to time mapping=\n", text.substr(text.rfind("Sequence")));
}

}  // namespace
}  // namespace strata::ldb
