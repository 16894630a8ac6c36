#include "db/version_edit.h"

#include <gtest/gtest.h>

#include "test_util/testutil.h"
#include "util/coding.h"

namespace strata {

namespace {

std::string IKey(const std::string& user, SequenceNumber seq, ValueType t) {
  std::string r;
  AppendInternalKey(&r, user, seq, t);
  return r;
}

void RoundTrip(const VersionEdit& edit) {
  std::string encoded, encoded2;
  edit.EncodeTo(&encoded);
  VersionEdit parsed;
  ASSERT_OK(parsed.DecodeFrom(encoded));
  parsed.EncodeTo(&encoded2);
  EXPECT_EQ(encoded, encoded2);
}

}  // namespace

TEST(VersionEditTest, FirstRecordOfANewRocksDB) {
  // docs/format/manifest.md (What Strata writes): the very first MANIFEST record of a fresh
  // RocksDB.
  VersionEdit edit;
  edit.SetComparatorName("leveldb.BytewiseComparator");
  std::string encoded;
  edit.EncodeTo(&encoded);
  EXPECT_EQ(std::string("\x01\x1a") + "leveldb.BytewiseComparator", encoded);
}

TEST(VersionEditTest, EncodeDecodeAllFields) {
  VersionEdit edit;
  edit.SetDBId("6c1f2f9e-0000-4000-8000-000000000001");
  edit.SetComparatorName("leveldb.BytewiseComparator");
  edit.SetLogNumber(17);
  edit.SetPrevLogNumber(0);
  edit.SetNextFile(4242);
  edit.SetMaxColumnFamily(3);
  edit.SetMinLogNumberToKeep(11);
  edit.SetLastSequence(1ull << 50);
  edit.DeleteFile(2, 99);
  for (int i = 0; i < 4; i++) {
    FileMetaData f;
    f.number = 100 + i;
    f.file_size = 4096 * (i + 1);
    f.smallest = IKey("a" + std::to_string(i), 5, kTypeValue);
    f.largest = IKey("z" + std::to_string(i), 9, kTypeDeletion);
    f.smallest_seqno = 5;
    f.largest_seqno = 9;
    f.marked_for_compaction = i == 1;
    f.oldest_ancester_time = 1700000000 + i;
    f.file_creation_time = 1700000100 + i;
    f.temperature = i == 2 ? 0x04 : 0;
    f.path_id = i == 3 ? 1 : 0;
    edit.AddFile(i, f);
  }
  edit.SetColumnFamily(3);
  edit.AddColumnFamily("cf3");
  RoundTrip(edit);

  std::string encoded;
  edit.EncodeTo(&encoded);
  VersionEdit parsed;
  ASSERT_OK(parsed.DecodeFrom(encoded));
  EXPECT_EQ(17u, *parsed.log_number());
  EXPECT_EQ(4242u, *parsed.next_file_number());
  EXPECT_EQ(1ull << 50, *parsed.last_sequence());
  EXPECT_EQ(11u, *parsed.min_log_number_to_keep());
  EXPECT_EQ(3u, parsed.column_family());
  EXPECT_EQ("cf3", *parsed.column_family_add());
  ASSERT_EQ(4u, parsed.new_files().size());
  EXPECT_TRUE(parsed.new_files()[1].second.marked_for_compaction);
  EXPECT_EQ(0x04, parsed.new_files()[2].second.temperature);
  EXPECT_EQ(1u, parsed.new_files()[3].second.path_id);
  EXPECT_EQ(IKey("z3", 9, kTypeDeletion), parsed.new_files()[3].second.largest);
  ASSERT_EQ(1u, parsed.deleted_files().size());
  EXPECT_EQ(99u, parsed.deleted_files()[0].second);
}

TEST(VersionEditTest, LegacyNewFileTagsAndIgnorableTags) {
  std::string rec;
  // kNewFile2: level 1, number 7, size 100, keys, seqnos 1..2
  PutVarint32(&rec, kNewFile2);
  PutVarint32(&rec, 1);
  PutVarint64(&rec, 7);
  PutVarint64(&rec, 100);
  PutLengthPrefixedSlice(&rec, IKey("a", 1, kTypeValue));
  PutLengthPrefixedSlice(&rec, IKey("b", 2, kTypeValue));
  PutVarint64(&rec, 1);
  PutVarint64(&rec, 2);
  // A future safe-to-ignore tag with one length-prefixed field.
  PutVarint32(&rec, kTagSafeIgnoreMask + 77);
  PutLengthPrefixedSlice(&rec, "whatever");
  // WAL addition v2, skipped.
  PutVarint32(&rec, kWalAddition2);
  PutLengthPrefixedSlice(&rec, "\x05\x02\x10\x01");
  VersionEdit edit;
  ASSERT_OK(edit.DecodeFrom(rec));
  ASSERT_EQ(1u, edit.new_files().size());
  EXPECT_EQ(7u, edit.new_files()[0].second.number);
  EXPECT_EQ(2u, edit.new_files()[0].second.largest_seqno);
}

TEST(VersionEditTest, RejectsUnknownTagsAndForwardIncompatibleFields) {
  std::string rec;
  PutVarint32(&rec, 77);  // unknown, not safe to ignore
  VersionEdit edit;
  Status s = edit.DecodeFrom(rec);
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_NE(std::string::npos, s.ToString().find("unknown tag 77"));

  // A NewFile4 custom field with bit 6 set that we do not know.
  rec.clear();
  PutVarint32(&rec, kNewFile4);
  PutVarint32(&rec, 0);
  PutVarint64(&rec, 5);
  PutVarint64(&rec, 10);
  PutLengthPrefixedSlice(&rec, IKey("a", 1, kTypeValue));
  PutLengthPrefixedSlice(&rec, IKey("b", 1, kTypeValue));
  PutVarint64(&rec, 1);
  PutVarint64(&rec, 1);
  PutVarint32(&rec, 0x40 + 9);
  PutLengthPrefixedSlice(&rec, "x");
  PutVarint32(&rec, kTerminate);
  s = edit.DecodeFrom(rec);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
}

TEST(VersionEditTest, TruncationAtEveryByteIsAnErrorOrAShorterEdit) {
  VersionEdit edit;
  edit.SetComparatorName("leveldb.BytewiseComparator");
  edit.SetLogNumber(3);
  edit.SetNextFile(9);
  edit.SetLastSequence(1000);
  FileMetaData f;
  f.number = 8;
  f.file_size = 1234;
  f.smallest = IKey("abc", 10, kTypeValue);
  f.largest = IKey("xyz", 20, kTypeValue);
  edit.AddFile(1, f);
  std::string encoded;
  edit.EncodeTo(&encoded);
  for (size_t n = 0; n < encoded.size(); n++) {
    VersionEdit parsed;
    Status s = parsed.DecodeFrom(Slice(encoded.data(), n));
    // Either rejected, or decoded as a prefix of whole fields -- never a
    // file entry with a mangled key.
    if (s.ok()) {
      EXPECT_TRUE(parsed.new_files().empty()) << n;
    } else {
      EXPECT_TRUE(s.IsCorruption()) << n;
    }
  }
}

}  // namespace strata
