#include "table/meta_blocks.h"

#include <cstdint>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "strata/comparator.h"
#include "table/block.h"
#include "table/block_builder.h"
#include "table/format.h"
#include "test_util/testutil.h"
#include "util/coding.h"

namespace strata {
namespace {

std::string FromHex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return out;
}

// The properties block of an SST that RocksDB 7.8.3 wrote (`ldb put c dd`
// then `ldb compact`; 864 bytes, read out with shared/tools/rocksfmt).
const char kRocksDBPropertiesHex[] =
    "002404726f636b7364622e626c6f636b2e62617365642e7461626c652e696e6465782e74797065000000001a"
    "10017072656669782e66696c746572696e67301a130177686f6c652e6b65792e66696c746572696e67310810"
    "01636f6c756d6e2e66616d696c792e6964001604076e616d6564656661756c740a081a6d70617261746f726c"
    "6576656c64622e4279746577697365436f6d70617261746f720c070672657373696f6e536e61707079130891"
    "015f6f7074696f6e7377696e646f775f626974733d2d31343b206c6576656c3d33323736373b207374726174"
    "6567793d303b206d61785f646963745f62797465733d303b207a7374645f6d61785f747261696e5f62797465"
    "733d303b20656e61626c65643d303b206d61785f646963745f6275666665725f62797465733d303b20757365"
    "5f7a7374645f646963745f747261696e65723d313b2009132472656174696e672e64622e6964656e74697479"
    "35643833633066342d636565622d343733302d626237632d666665396336346130396235110d02686f73742e"
    "6964656e74697479766d11101473657373696f6e2e6964656e746974794e5046454847474b59584c584b4841"
    "37353742310e07056f6e2e74696d658cc3b2d806080901646174612e73697a651b090b01656c657465642e6b"
    "6579730008120566696c652e6372656174696f6e2e74696d658cc3b2d8060b08017465722e73697a65000a0e"
    "017865642e6b65792e6c656e67746800090d016f726d61742e76657273696f6e00081501696e6465782e6b65"
    "792e69732e757365722e6b6579010e040173697a65120e160176616c75652e69732e64656c74612e656e636f"
    "64656401080e016d657267652e6f706572616e647300130314746f72537472696e67417070656e644f706572"
    "61746f72080f016e756d2e646174612e626c6f636b73010c0701656e7472696573010c0e0166696c7465725f"
    "656e7472696573000c0f0172616e67652d64656c6574696f6e7300080f016f6c646573742e6b65792e74696d"
    "6500091301726967696e616c2e66696c652e6e756d626572170815077072656669782e657874726163746f72"
    "2e6e616d656e756c6c7074720a11026f70657274792e636f6c6c6563746f72735b5d080c017261772e6b6579"
    "2e73697a65090c0a0176616c75652e73697a65020000000001000000";

// What shared/tools/rocksfmt/writer.py's block_bytes produces for the
// properties set in PythonReferenceProperties() (sorted, one restart).
const char kPythonPropertiesHex[] =
    "002404726f636b7364622e626c6f636b2e62617365642e7461626c652e696e6465782e74797065000000001a"
    "10017072656669782e66696c746572696e67301a130177686f6c652e6b65792e66696c746572696e67310810"
    "05636f6c756d6e2e66616d696c792e6964ffffffff071604076e616d6564656661756c740a081a6d70617261"
    "746f726c6576656c64622e4279746577697365436f6d70617261746f720c070672657373696f6e536e617070"
    "79090c0572656174696f6e2e74696d6580e2cfaa06080903646174612e73697a65c0c407090b01656c657465"
    "642e6b65797307081e0865787465726e616c5f7373745f66696c652e676c6f62616c5f7365716e6f00000000"
    "000000001a070476657273696f6e02000000080d0b66696c7465722e706f6c696379626c6f6f6d66696c7465"
    "720f040273697a65e8070a0e017865642e6b65792e6c656e67746800090d016f726d61742e76657273696f6e"
    "00081501696e6465782e6b65792e69732e757365722e6b6579010e040273697a65c1020e160176616c75652e"
    "69732e64656c74612e656e636f64656401080e016d657267652e6f706572616e647303130307746f726e756c"
    "6c707472080f016e756d2e646174612e626c6f636b731e0c0702656e747269657388270c0e0266696c746572"
    "5f656e7472696573fe260c0f0172616e67652d64656c6574696f6e7302080f056f6c646573742e6b65792e74"
    "696d6580b5eda506091301726967696e616c2e66696c652e6e756d626572000815077072656669782e657874"
    "726163746f722e6e616d656e756c6c7074720a11026f70657274792e636f6c6c6563746f72735b5d080c0372"
    "61772e6b65792e73697a65f0a2040c0a0376616c75652e73697a65a0c21e0007027a7a2e7573657200ff0000"
    "000001000000";

// The metaindex block of the same RocksDB file: one entry naming the
// properties block at offset 45, size 864.
const char kRocksDBMetaindexHex[] =
    "001203726f636b7364622e70726f706572746965732de0060000000001000000";

std::string Fixed32(uint32_t v) {
  std::string s;
  PutFixed32(&s, v);
  return s;
}

TableProperties PythonReferenceProperties() {
  TableProperties p;
  p.data_size = 123456;
  p.index_size = 321;
  p.index_key_is_user_key = 1;
  p.index_value_is_delta_encoded = 1;
  p.filter_size = 1000;
  p.raw_key_size = 70000;
  p.raw_value_size = 500000;
  p.num_data_blocks = 30;
  p.num_entries = 5000;
  p.num_filter_entries = 4990;
  p.num_deletions = 7;
  p.num_merge_operands = 3;
  p.num_range_deletions = 2;
  p.column_family_id = 0x7fffffff;
  p.creation_time = 1700000000;
  p.oldest_key_time = 1690000000;
  p.file_creation_time = 0;  // omitted
  p.index_type = 0;
  p.column_family_name = "default";
  p.comparator_name = "leveldb.BytewiseComparator";
  p.merge_operator_name = "nullptr";
  p.prefix_extractor_name = "nullptr";
  p.property_collectors_names = "[]";
  p.compression_name = "Snappy";
  p.filter_policy_name = "bloomfilter";
  p.whole_key_filtering = "1";
  p.prefix_filtering = "0";
  p.user_collected_properties[TablePropertiesNames::kExternalSstFileVersion] = Fixed32(2);
  p.user_collected_properties[TablePropertiesNames::kExternalSstFileGlobalSeqno] =
      std::string(8, '\0');
  p.user_collected_properties["zz.user"] = std::string("\x00\xff", 2);
  return p;
}

void ExpectSameProperties(const TableProperties& a, const TableProperties& b) {
  EXPECT_EQ(a.data_size, b.data_size);
  EXPECT_EQ(a.index_size, b.index_size);
  EXPECT_EQ(a.filter_size, b.filter_size);
  EXPECT_EQ(a.raw_key_size, b.raw_key_size);
  EXPECT_EQ(a.raw_value_size, b.raw_value_size);
  EXPECT_EQ(a.num_data_blocks, b.num_data_blocks);
  EXPECT_EQ(a.num_entries, b.num_entries);
  EXPECT_EQ(a.num_filter_entries, b.num_filter_entries);
  EXPECT_EQ(a.num_deletions, b.num_deletions);
  EXPECT_EQ(a.num_merge_operands, b.num_merge_operands);
  EXPECT_EQ(a.num_range_deletions, b.num_range_deletions);
  EXPECT_EQ(a.format_version, b.format_version);
  EXPECT_EQ(a.fixed_key_len, b.fixed_key_len);
  EXPECT_EQ(a.column_family_id, b.column_family_id);
  EXPECT_EQ(a.creation_time, b.creation_time);
  EXPECT_EQ(a.oldest_key_time, b.oldest_key_time);
  EXPECT_EQ(a.file_creation_time, b.file_creation_time);
  EXPECT_EQ(a.original_file_number, b.original_file_number);
  EXPECT_EQ(a.index_key_is_user_key, b.index_key_is_user_key);
  EXPECT_EQ(a.index_value_is_delta_encoded, b.index_value_is_delta_encoded);
  EXPECT_EQ(a.index_type, b.index_type);
  EXPECT_EQ(a.column_family_name, b.column_family_name);
  EXPECT_EQ(a.comparator_name, b.comparator_name);
  EXPECT_EQ(a.merge_operator_name, b.merge_operator_name);
  EXPECT_EQ(a.prefix_extractor_name, b.prefix_extractor_name);
  EXPECT_EQ(a.property_collectors_names, b.property_collectors_names);
  EXPECT_EQ(a.compression_name, b.compression_name);
  EXPECT_EQ(a.compression_options, b.compression_options);
  EXPECT_EQ(a.filter_policy_name, b.filter_policy_name);
  EXPECT_EQ(a.whole_key_filtering, b.whole_key_filtering);
  EXPECT_EQ(a.prefix_filtering, b.prefix_filtering);
  EXPECT_EQ(a.db_id, b.db_id);
  EXPECT_EQ(a.db_session_id, b.db_session_id);
  EXPECT_EQ(a.db_host_id, b.db_host_id);
  EXPECT_EQ(a.user_collected_properties, b.user_collected_properties);
}

// The keys of a block, in stored order.
std::vector<std::string> BlockKeys(const std::string& contents) {
  Block block{Slice(contents)};
  std::unique_ptr<BlockIter> it(block.NewIterator(BytewiseComparator()));
  std::vector<std::string> keys;
  for (it->SeekToFirst(); it->Valid(); it->Next()) keys.push_back(it->key().ToString());
  EXPECT_OK(it->status());
  return keys;
}

// A block holding the entries as given (no sorting), for malformed inputs.
std::string RawBlock(const std::vector<std::pair<std::string, std::string>>& entries) {
  BlockBuilder b(1);
  for (const auto& [k, v] : entries) b.Add(k, v);
  return b.Finish().ToString();
}

TEST(MetaBlocksTest, DecodesBlockWrittenByRocksDB) {
  const std::string block = FromHex(kRocksDBPropertiesHex);
  ASSERT_EQ(block.size(), 864u);
  TableProperties p;
  ASSERT_OK(DecodePropertiesBlock(block, &p));
  EXPECT_EQ(p.data_size, 27u);
  EXPECT_EQ(p.index_size, 18u);
  EXPECT_EQ(p.filter_size, 0u);
  EXPECT_EQ(p.raw_key_size, 9u);
  EXPECT_EQ(p.raw_value_size, 2u);
  EXPECT_EQ(p.num_data_blocks, 1u);
  EXPECT_EQ(p.num_entries, 1u);
  EXPECT_EQ(p.num_deletions, 0u);
  EXPECT_EQ(p.column_family_id, 0u);
  EXPECT_EQ(p.creation_time, 1795989900u);
  EXPECT_EQ(p.file_creation_time, 1795989900u);
  EXPECT_EQ(p.oldest_key_time, 0u);
  EXPECT_EQ(p.original_file_number, 23u);
  EXPECT_EQ(p.index_key_is_user_key, 1u);
  EXPECT_EQ(p.index_value_is_delta_encoded, 1u);
  EXPECT_EQ(p.index_type, 0u);
  EXPECT_EQ(p.column_family_name, "default");
  EXPECT_EQ(p.comparator_name, "leveldb.BytewiseComparator");
  EXPECT_EQ(p.merge_operator_name, "StringAppendOperator");
  EXPECT_EQ(p.prefix_extractor_name, "nullptr");
  EXPECT_EQ(p.property_collectors_names, "[]");
  EXPECT_EQ(p.compression_name, "Snappy");
  EXPECT_EQ(p.compression_options.rfind("window_bits=-14; level=32767;", 0), 0u);
  EXPECT_EQ(p.filter_policy_name, "");
  EXPECT_EQ(p.whole_key_filtering, "1");
  EXPECT_EQ(p.prefix_filtering, "0");
  EXPECT_EQ(p.db_id, "5d83c0f4-ceeb-4730-bb7c-ffe9c64a09b5");
  EXPECT_EQ(p.db_session_id, "NPFEHGGKYXLXKHA757B1");
  EXPECT_EQ(p.db_host_id, "vm");
  EXPECT_TRUE(p.user_collected_properties.empty());
}

TEST(MetaBlocksTest, ReencodesRocksDBBlockByteForByte) {
  const std::string block = FromHex(kRocksDBPropertiesHex);
  TableProperties p;
  ASSERT_OK(DecodePropertiesBlock(block, &p));
  std::string encoded;
  EncodePropertiesBlock(p, &encoded);
  EXPECT_EQ(encoded, block);
}

TEST(MetaBlocksTest, MatchesPythonReferenceWriter) {
  std::string encoded = "prefix";  // appends
  EncodePropertiesBlock(PythonReferenceProperties(), &encoded);
  EXPECT_EQ(encoded, "prefix" + FromHex(kPythonPropertiesHex));
  TableProperties back;
  ASSERT_OK(DecodePropertiesBlock(FromHex(kPythonPropertiesHex), &back));
  ExpectSameProperties(back, PythonReferenceProperties());
}

TEST(MetaBlocksTest, OmitsOptionalAndSortsUserProperties) {
  TableProperties p;  // file_creation_time 0, every string empty
  p.user_collected_properties["a.first"] = "1";
  p.user_collected_properties["rocksdb.m"] = "2";
  p.user_collected_properties["~last"] = "3";
  std::string encoded;
  EncodePropertiesBlock(p, &encoded);
  const std::vector<std::string> keys = BlockKeys(encoded);
  const std::set<std::string> names(keys.begin(), keys.end());
  EXPECT_EQ(names.size(), keys.size());
  EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
  for (const char* omitted :
       {TablePropertiesNames::kFileCreationTime, TablePropertiesNames::kFilterPolicy,
        TablePropertiesNames::kDbId, TablePropertiesNames::kDbSessionId,
        TablePropertiesNames::kDbHostId, TablePropertiesNames::kComparator,
        "rocksdb.sample_for_compression.slow.data.size",
        "rocksdb.sample_for_compression.fast.data.size"}) {
    EXPECT_EQ(names.count(omitted), 0u) << omitted;
  }
  for (const char* present :
       {TablePropertiesNames::kDataSize, TablePropertiesNames::kIndexType,
        TablePropertiesNames::kColumnFamilyId, TablePropertiesNames::kOriginalFileNumber, "a.first",
        "rocksdb.m", "~last"}) {
    EXPECT_EQ(names.count(present), 1u) << present;
  }
  EXPECT_EQ(keys.front(), "a.first");
  EXPECT_EQ(keys.back(), "~last");
  // One restart point: the footer word says 1.
  ASSERT_GE(encoded.size(), 8u);
  EXPECT_EQ(DecodeFixed32(encoded.data() + encoded.size() - 4), 1u);

  TableProperties back;
  ASSERT_OK(DecodePropertiesBlock(encoded, &back));
  ExpectSameProperties(back, p);

  // The index type is a fixed32.
  Block block{Slice(encoded)};
  std::unique_ptr<BlockIter> it(block.NewIterator(BytewiseComparator()));
  it->Seek(TablePropertiesNames::kIndexType);
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->value().ToString(), std::string(4, '\0'));
}

TEST(MetaBlocksTest, RandomRoundTrip) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  for (int round = 0; round < 200; ++round) {
    SCOPED_TRACE("seed " + std::to_string(seed) + " round " + std::to_string(round));
    auto num = [&]() -> uint64_t {
      switch (rng() % 4) {
        case 0:
          return 0;
        case 1:
          return rng() % 128;
        case 2:
          return rng() % 100000;
        default:
          return rng();
      }
    };
    auto str = [&]() {
      return rng() % 3 == 0 ? std::string() : test::RandomBytes(&rng, rng() % 40);
    };
    TableProperties p;
    for (uint64_t* f : {&p.data_size,
                        &p.index_size,
                        &p.filter_size,
                        &p.raw_key_size,
                        &p.raw_value_size,
                        &p.num_data_blocks,
                        &p.num_entries,
                        &p.num_filter_entries,
                        &p.num_deletions,
                        &p.num_merge_operands,
                        &p.num_range_deletions,
                        &p.format_version,
                        &p.fixed_key_len,
                        &p.column_family_id,
                        &p.creation_time,
                        &p.oldest_key_time,
                        &p.file_creation_time,
                        &p.original_file_number,
                        &p.index_key_is_user_key,
                        &p.index_value_is_delta_encoded}) {
      *f = num();
    }
    p.index_type = static_cast<uint32_t>(rng());
    for (std::string* s :
         {&p.column_family_name, &p.comparator_name, &p.merge_operator_name,
          &p.prefix_extractor_name, &p.property_collectors_names, &p.compression_name,
          &p.compression_options, &p.filter_policy_name, &p.whole_key_filtering,
          &p.prefix_filtering, &p.db_id, &p.db_session_id, &p.db_host_id}) {
      *s = str();
    }
    const int n_user = static_cast<int>(rng() % 6);
    for (int i = 0; i < n_user; ++i) {
      // "u." / "rocksdb.user." prefixes never collide with a standard name.
      const std::string name =
          (rng() % 2 ? "u." : "rocksdb.user.") + test::RandomBytes(&rng, rng() % 12);
      p.user_collected_properties[name] = test::RandomBytes(&rng, rng() % 30);
    }
    std::string encoded;
    EncodePropertiesBlock(p, &encoded);
    TableProperties back;
    ASSERT_OK(DecodePropertiesBlock(encoded, &back));
    ExpectSameProperties(back, p);
  }
}

TEST(MetaBlocksTest, UnsortedOrDuplicateIsCorruption) {
  TableProperties p;
  Status s = DecodePropertiesBlock(
      RawBlock({{"rocksdb.data.size", "\x01"}, {"rocksdb.comparator", "x"}}), &p);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.ToString().find("properties unsorted"), std::string::npos) << s.ToString();

  s = DecodePropertiesBlock(
      RawBlock({{"rocksdb.data.size", "\x01"}, {"rocksdb.data.size", "\x02"}}), &p);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.ToString().find("properties unsorted"), std::string::npos) << s.ToString();

  s = DecodePropertiesBlock(RawBlock({{"b", "1"}, {"a", "2"}}), &p);
  EXPECT_NE(s.ToString().find("properties unsorted"), std::string::npos) << s.ToString();
}

TEST(MetaBlocksTest, MalformedValueNamesProperty) {
  TableProperties p;
  // A varint whose continuation bit runs off the end.
  Status s = DecodePropertiesBlock(RawBlock({{"rocksdb.data.size", "\xff"}}), &p);
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_NE(s.ToString().find("rocksdb.data.size"), std::string::npos) << s.ToString();
  // Trailing bytes after the number.
  s = DecodePropertiesBlock(RawBlock({{"rocksdb.num.entries", std::string("\x01\x02", 2)}}), &p);
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_NE(s.ToString().find("rocksdb.num.entries"), std::string::npos) << s.ToString();
  // An empty number.
  s = DecodePropertiesBlock(RawBlock({{"rocksdb.raw.key.size", ""}}), &p);
  EXPECT_NE(s.ToString().find("rocksdb.raw.key.size"), std::string::npos) << s.ToString();
  // The index type must be exactly 4 bytes.
  s = DecodePropertiesBlock(
      RawBlock({{"rocksdb.block.based.table.index.type", std::string(3, '\0')}}), &p);
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_NE(s.ToString().find("rocksdb.block.based.table.index.type"), std::string::npos)
      << s.ToString();
  // Strings and unknown names take any bytes.
  ASSERT_OK(DecodePropertiesBlock(
      RawBlock({{"rocksdb.comparator", ""}, {"rocksdb.x", std::string("\0\xff", 2)}}), &p));
  EXPECT_EQ(p.user_collected_properties.at("rocksdb.x"), std::string("\0\xff", 2));
}

TEST(MetaBlocksTest, DamagedBlocksNeverCrash) {
  const std::string block = FromHex(kRocksDBPropertiesHex);
  TableProperties p;
  EXPECT_TRUE(DecodePropertiesBlock(Slice(), &p).IsCorruption());
  EXPECT_TRUE(DecodePropertiesBlock(Slice("abc"), &p).IsCorruption());
  // Every truncation and every single-byte change decodes or fails cleanly.
  int failures = 0;
  for (size_t n = 0; n < block.size(); ++n) {
    if (!DecodePropertiesBlock(Slice(block.data(), n), &p).ok()) ++failures;
  }
  EXPECT_GT(failures, 0);
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 2000; ++i) {
    std::string damaged = block;
    damaged[rng() % damaged.size()] ^= static_cast<char>(1 + rng() % 255);
    DecodePropertiesBlock(damaged, &p).PermitUncheckedError();
  }
}

TEST(MetaBlocksTest, UserPropertyMayNotShadowStandardName) {
  TableProperties p;
  p.num_entries = 5;
  p.user_collected_properties[TablePropertiesNames::kNumEntries] = "bogus";
  std::string encoded;
  EXPECT_DEBUG_DEATH(EncodePropertiesBlock(p, &encoded), "duplicates a standard name");
#ifdef NDEBUG
  // Release builds keep the field and drop the shadowing user property.
  TableProperties back;
  ASSERT_OK(DecodePropertiesBlock(encoded, &back));
  EXPECT_EQ(back.num_entries, 5u);
  EXPECT_TRUE(back.user_collected_properties.empty());
#endif
}

TEST(MetaBlocksTest, MetaIndexMatchesRocksDB) {
  MetaIndexBuilder mi;
  std::string handle;
  BlockHandle(45, 864).EncodeTo(&handle);
  mi.Add(kPropertiesBlockName, handle);
  EXPECT_EQ(mi.Finish().ToString(), FromHex(kRocksDBMetaindexHex));
}

TEST(MetaBlocksTest, MetaIndexSeeksEveryName) {
  const std::vector<std::string> names = {
      std::string(kFullFilterBlockPrefix) + "rocksdb.BuiltinBloomFilter", kCompressionDictBlockName,
      kPropertiesBlockName, kRangeDelBlockName};
  ASSERT_TRUE(std::is_sorted(names.begin(), names.end()));
  MetaIndexBuilder mi;
  for (size_t i = 0; i < names.size(); ++i) {
    std::string h;
    BlockHandle(i * 100, i + 7).EncodeTo(&h);
    mi.Add(names[i], h);
  }
  const std::string contents = mi.Finish().ToString();
  // Restart interval 1: one restart per entry.
  EXPECT_EQ(DecodeFixed32(contents.data() + contents.size() - 4), names.size());
  Block block{Slice(contents)};
  std::unique_ptr<BlockIter> it(block.NewIterator(BytewiseComparator()));
  for (size_t i = 0; i < names.size(); ++i) {
    it->Seek(names[i]);
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ(it->key().ToString(), names[i]);
    Slice v = it->value();
    BlockHandle h;
    ASSERT_OK(h.DecodeFrom(&v));
    EXPECT_EQ(h.offset(), i * 100);
    EXPECT_EQ(h.size(), i + 7);
  }
  it->Seek(kPropertiesBlockOldName);  // "rocksdb.stats": absent
  EXPECT_FALSE(it->Valid() && it->key() == Slice(kPropertiesBlockOldName));
}

}  // namespace
}  // namespace strata
